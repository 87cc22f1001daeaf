"""
The web port: the page at ``/`` (its files under ``/static/``) and the
resources of each protocol beside it (``/api``, ``/engine``, ``/connect4``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from twisted.internet.interfaces import IAddress, IDelayedCall, IProtocol, IReactorTime
from twisted.internet.protocol import connectionDone
from twisted.protocols.policies import ProtocolWrapper
from twisted.python.failure import Failure
from twisted.web.resource import NoResource, Resource
from twisted.web.server import Request, Site
from twisted.web.static import File

from gameproto._compat import deliverHeldData, pauseLikeChannel, upgradedToWebSocket
from gameproto.engine.faults import FaultLog
from gameproto.metrics import HubHolder, Metrics, metricsOf
from gameproto.net import (
    FaultSink,
    Limits,
    LimitsHub,
    PeerCounter,
    TokenBucket,
    TurnShare,
    hostOf,
)

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files: index.html, app.js, style.css (package data)."""

CONTENT_SECURITY_POLICY = (
    b"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    b"img-src 'self' data:; connect-src 'self' ws: wss:; base-uri 'none'; "
    b"form-action 'none'; frame-ancestors 'none'"
)
"""
What the page may load: its own files, the API, the WebSocket endpoints, and
sprites from this server only.  Inline styles stay allowed, as engines'
displays may carry ``style`` attributes.
"""


def _secure(request: Request) -> None:
    request.setHeader(b"content-security-policy", CONTENT_SECURITY_POLICY)
    request.setHeader(b"x-content-type-options", b"nosniff")
    request.setHeader(b"referrer-policy", b"no-referrer")
    # Revalidate every time: a new version of the page shows at once.
    request.setHeader(b"cache-control", b"no-cache")


class Page(Resource):
    """``/``: the single page that lists, creates, plays, watches and replays games."""

    isLeaf = True

    def __init__(self, path: Path = STATIC / "index.html") -> None:
        super().__init__()
        self.path = path

    def render_GET(self, request: Request) -> bytes:
        _secure(request)
        request.setHeader(b"content-type", b"text/html; charset=utf-8")
        try:
            return self.path.read_bytes()
        except OSError:
            request.setResponseCode(500)
            return (b"<!doctype html><meta charset=utf-8><title>gameproto</title>"
                    b"<p>The page's files are missing from this installation "
                    b"(gameproto/web/static). The HTTP API is at <code>/api</code>.</p>")

    render_HEAD = render_GET


class StaticFiles(File):
    """``/static/``: the page's files, without a directory listing."""

    contentTypes = dict(File.contentTypes, **{
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".html": "text/html; charset=utf-8",
        ".svg": "image/svg+xml",
    })
    indexNames: list[str] = []

    def directoryListing(self) -> Resource:
        return NoResource()

    def getChild(self, path: bytes, request: Request) -> Resource:
        """No file has a NUL byte in its name (the file system refuses to look): 404."""
        if b"\0" in path:
            return NoResource()
        return super().getChild(path, request)  # type: ignore[no-any-return]

    def render_GET(self, request: Request) -> bytes | int:
        _secure(request)
        return super().render_GET(request)


def webRoot(children: Mapping[bytes, Resource]) -> Resource:
    """The root resource: the page at ``/``, its files at ``/static/``, ``children`` beside them."""
    root = Resource()
    root.putChild(b"", Page())
    root.putChild(b"static", StaticFiles(str(STATIC)))
    for name, child in children.items():
        root.putChild(name, child)
    return root


class WebRequest(Request):
    """
    A request that tells its connection when it is whole (and when it
    became a WebSocket), refuses a request target that is not ASCII, and
    waits for its peer's fair share of requests (L{WebSite.requestWait})
    and for the site's share of the reactor's turn (L{WebSite.turns})
    before it is served.
    """

    _paced: IDelayedCall | None = None
    _gone = False

    def process(self) -> None:
        self._paced = None
        # A request target is ASCII (RFC 3986: anything else percent-encoded);
        # Twisted's error pages and static files decode it and fail otherwise.
        if not self.uri.isascii():
            self.setResponseCode(400)
            self.setHeader(b"content-type", b"text/plain; charset=utf-8")
            self.write(b"bad request target: not ASCII (percent-encode it)\n")
            self.finish()
            return
        connection = self.transport
        if isinstance(connection, WebConnection):
            site = connection.factory
            wait = site.requestWait(connection.host)
            if wait:
                # The channel reads no further request until this one is
                # done: a peer's pipelined requests are served at its pace.
                self._paced = site.clock.callLater(wait, self.process)
                return
            if not site.turns.offer(self._serveLater):
                return  # this turn's share of requests is spent: served in a later one
        self._serve()

    def _serveLater(self) -> bool:
        """Served in a later turn of the reactor (L{WebSite.turns}): whether it still was."""
        if self._gone:
            return False
        self._serve()
        return True

    def _serve(self) -> None:
        """Render the resource; a connection handed to a WebSocket is told so."""
        channel, connection = self.channel, self.transport
        super().process()
        if isinstance(connection, WebConnection) and upgradedToWebSocket(channel):
            connection.upgraded()
            deliverHeldData(channel)  # what came while the upgrade waited its turn

    def connectionLost(self, reason: Failure) -> None:
        self._gone = True
        if self._paced is not None and self._paced.active():
            self._paced.cancel()
        self._paced = None
        super().connectionLost(reason)

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        """
        A pull producer (a static file being sent) registered while the
        connection's transport is full starts paused, like the connection
        (see L{gameproto._compat.pauseLikeChannel}).
        """
        super().registerProducer(producer, streaming)
        if not streaming:
            pauseLikeChannel(self.channel)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        connection = self.transport
        if isinstance(connection, WebConnection):
            connection.requestComplete()
        super().requestReceived(command, path, version)


class WebConnection(ProtocolWrapper):
    """
    One connection to the web port, around Twisted's HTTP channel: it holds
    one of its peer's places, and a request begun (its first byte arrived)
    must be whole, headers and body, within the site's C{requestTimeout}.
    A connection upgraded to a WebSocket has its own timeouts.
    """

    factory: WebSite  # type: ignore[assignment]
    _begun: float | None = None
    _waiting = True
    _deadline: IDelayedCall | None = None
    _abort: IDelayedCall | None = None

    def __init__(self, site: WebSite, channel: IProtocol, host: str) -> None:
        super().__init__(site, channel)  # type: ignore[arg-type]
        self.host = host

    def dataReceived(self, data: bytes) -> None:
        if self._waiting and data:
            self._waiting = False
            self._requestBegins()
        super().dataReceived(data)

    def _requestBegins(self) -> None:
        limits, clock = self.factory.limits, self.factory.clock
        if limits is None:
            return
        self._begun = clock.seconds()
        if self._deadline is None:
            self._deadline = clock.callLater(limits.requestTimeout, self._checkDeadline)

    def requestComplete(self) -> None:
        """The request is whole: the next byte begins the next one."""
        self._begun = None
        self._waiting = True

    def upgraded(self) -> None:
        """The connection is a WebSocket now: no more HTTP requests on it."""
        self._begun = None
        self._waiting = False

    def _checkDeadline(self) -> None:
        self._deadline = None
        limits, clock = self.factory.limits, self.factory.clock
        if self._begun is None or limits is None or self.transport is None:
            return
        left = self._begun + limits.requestTimeout - clock.seconds()
        if left > 0:
            self._deadline = clock.callLater(left, self._checkDeadline)
            return
        self.factory.faults.fault(
            self.host, "web {peer}: closing: a request not complete {timeout:g} seconds after it "
            "began", timeout=limits.requestTimeout)
        self.factory.refused("request-timeout")
        self._begun = None
        self.transport.loseConnection()
        self._abort = clock.callLater(limits.closeTimeout,
                                      self.transport.abortConnection)  # type: ignore[attr-defined]

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        for call in (self._deadline, self._abort):
            if call is not None and call.active():
                call.cancel()
        self._deadline = self._abort = None
        super().connectionLost(reason)


class WebSite(Site):
    """
    The web port's Site: no traceback is ever shown to a client, and with
    L{Limits}, each peer holds C{maxConnectionsPerPeer} connections at most
    (the others are refused with one log line) and each request has its
    deadline (L{WebConnection}); times run on ``clock``.  Refusals are
    counted in ``metrics`` (under the protocol C{web}), and logged through
    ``faults`` (the hub's fault log: a bounded rate per peer).
    """

    displayTracebacks = False
    requestFactory = WebRequest

    def __init__(self, resource: Resource, limits: Limits | None = None,
                 clock: IReactorTime | None = None, metrics: Metrics | None = None,
                 faults: FaultSink | None = None) -> None:
        super().__init__(resource, reactor=clock)
        self.limits = limits
        self.metrics = metrics
        self.clock: IReactorTime = self.reactor
        self.peers = PeerCounter(limits.maxConnectionsPerPeer if limits is not None else 0)
        self._requestShares: dict[str, TokenBucket] = {}
        self.turns = TurnShare(limits.requestsPerTurn if limits is not None else 0, self.clock)
        """
        The requests served in each turn of the reactor, all peers together
        (C{requestsPerTurn}): a burst waits for the next turns instead of
        holding the games' connections back.  At most one request of each
        connection waits (its channel reads no further request meanwhile),
        so the connections' cap bounds the queue.
        """
        if metrics is not None:
            metrics.watchRequestTurns(self.turns)
        self.faults: FaultSink = faults if faults is not None else FaultLog(self.clock)
        """
        Where refused connections and requests timed out are logged, at a
        bounded rate per peer (the hub's fault log, shared with the other ports).
        """

    def buildProtocol(self, addr: IAddress | None) -> Any:
        host = hostOf(addr)
        if self.limits is None or host is None:
            return super().buildProtocol(addr)
        if not self.peers.acquire(host):
            self.faults.fault(host, "web {peer}: refused: over {cap} connections from this peer",
                              cap=self.peers.cap)
            self.refused("too-many")
            return None
        channel = super().buildProtocol(addr)
        if channel is None:
            self.peers.release(host)
            return None
        return WebConnection(self, channel, host)

    def requestWait(self, host: str) -> float:
        """
        Seconds a request of ``host`` waits before it is served (0: at once).
        Each peer, whatever its connections, is served C{messageRate}
        requests a second (C{messageBurst} at once), so one peer's
        pipelined requests cannot take the others' share of the reactor.
        """
        if self.limits is None or not self.limits.messageRate:
            return 0.0
        share = self._requestShares.get(host)
        if share is None:
            share = self._requestShares[host] = TokenBucket(
                self.limits.messageRate, self.limits.messageBurst, self.clock)
        if share.take():
            return 0.0
        self.refused("rate-limit")
        return share.wait()

    def refused(self, cause: str) -> None:
        """Count one refusal of ``cause`` on the web port."""
        if self.metrics is not None:
            self.metrics.refused("web", cause)

    def registerProtocol(self, connection: WebConnection) -> None:
        """A connection is made (its place was taken when it was built)."""

    def unregisterProtocol(self, connection: WebConnection) -> None:
        """A connection is gone: its peer's place is free."""
        self.peers.release(connection.host)
        if connection.host not in self.peers.counts:
            self._requestShares.pop(connection.host, None)


def faultsOf(source: object) -> FaultSink | None:
    """The fault log of the hub ``source`` holds (the API's), if it holds one."""
    hub = source.hub if isinstance(source, HubHolder) else None
    if isinstance(hub, LimitsHub) and isinstance(hub.faults, FaultSink):
        return hub.faults
    return None


def makeSite(children: Mapping[bytes, Resource], limits: Limits | None = None,
             clock: IReactorTime | None = None, metrics: Metrics | None = None,
             faults: FaultSink | None = None) -> Site:
    """
    A Site for the web port that never shows a traceback to a client and,
    with ``limits``, keeps every connection to them (times on ``clock``,
    the reactor by default).  Its refusals are counted in ``metrics`` and
    logged through ``faults``: by default, those the children lead to (the
    API's hub), so that a peer's faults on every port share one bound.
    """
    if metrics is None:
        metrics = next(filter(None, (metricsOf(child) for child in children.values())), None)
    if faults is None:
        faults = next(filter(None, (faultsOf(child) for child in children.values())), None)
    return WebSite(webRoot(children), limits, clock, metrics, faults)
