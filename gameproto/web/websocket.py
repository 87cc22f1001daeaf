"""
Message protocols over WebSocket: one protocol message per WebSocket message.

A L{MessageWebSocketResource} hosts any protocol that, besides the usual
C{makeConnection}/C{connectionLost}, reads whole messages with
C{messageDataReceived(data)}: the same protocol class (built by the same
factory) then serves TCP and WebSocket connections, and shares everything
behind it.  Binary or text messages, and a size limit, are the only
settings; every endpoint of the web port (C{/connect4}, C{/engine}) is one.

With the L{Limits} of the factory's hub, a WebSocket also keeps to them:
only the page's own origin (and C{allowedOrigins}) may open it, a peer
holds C{maxConnectionsPerPeer} at most, its messages are metered (a token
bucket: past it the connection is not read until it refills), a message
begun must be whole within C{messageTimeout}, and a WebSocket silent for
C{webSocketIdleTimeout} (it is pinged halfway) is closed.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Protocol

from hyperlink import URL
from twisted.internet.address import IPv4Address
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IAddress, IDelayedCall, IReactorTCP, IReactorTime
from twisted.python.failure import Failure
from twisted.web.server import Request
from twisted.web.websocket import (
    WebSocketClientEndpoint,
    WebSocketResource,
    WebSocketTransport,
)
from wsproto import ConnectionType
from wsproto.handshake import H11Handshake
from wsproto.utilities import LocalProtocolError, RemoteProtocolError
from zope.interface import implementer

from gameproto._compat import afterChannelData, frameInProgress, pendingMessageBytes
from gameproto.metrics import Metrics, refused
from gameproto.net import (
    ConnectionSource,
    FaultSink,
    IMessageTransport,
    Limits,
    TokenBucket,
    connectionLimits,
    faultLine,
    hostOf,
)

MESSAGE_TOO_BIG = 1009
UNSUPPORTED_DATA = 1003
GOING_AWAY = 1001
POLICY_VIOLATION = 1008


class MessageProtocol(Protocol):
    """A Twisted protocol that also reads one whole message at a time."""

    def makeConnection(self, transport: Any) -> None:
        ...

    def messageDataReceived(self, data: bytes) -> None:
        ...

    def connectionLost(self, reason: Failure) -> None:
        ...


@implementer(IMessageTransport)
class MessageTransport:
    """
    The transport a hosted protocol sees: each C{write} is one WebSocket
    message (binary, or text when ``text`` is set).  On the server side it
    is also the consumer of the hosted protocol's writes (the HTTP
    request's producer) and pauses reading the connection under it.
    """

    disconnecting = False

    def __init__(self, ws: WebSocketTransport, peer: IAddress, host: IAddress,
                 text: bool = False, request: Request | None = None) -> None:
        self._ws = ws
        self._peer = peer
        self._host = host
        self._text = text
        self._request = request
        self._pauses: set[str] = set()

    @property
    def stream(self) -> Any:
        """The byte transport under the WebSocket (None if it has none)."""
        return getattr(self._ws, "transport", None)

    def write(self, data: bytes) -> None:
        if self.disconnecting:
            return
        try:
            if self._text:
                self._ws.sendTextMessage(data.decode("utf-8"))
            else:
                self._ws.sendBytesMessage(data)
        except LocalProtocolError:
            # The peer's close frame was read: the WebSocket takes no more
            # messages, and connectionLost follows.
            self.disconnecting = True

    def ping(self, payload: bytes) -> None:
        """Ping the peer (nothing once the WebSocket is closing)."""
        if self.disconnecting:
            return
        try:
            self._ws.ping(payload)
        except LocalProtocolError:
            self.disconnecting = True

    def writeSequence(self, data: list[bytes]) -> None:
        for chunk in data:
            self.write(chunk)

    def loseConnection(self, code: int = 1000) -> None:
        if not self.disconnecting:
            self.disconnecting = True
            try:
                self._ws.loseConnection(code)
            except LocalProtocolError:  # the peer closed first: its close was answered
                pass

    def abortConnection(self) -> None:
        """Drop the connection at once, without waiting for anything to be sent."""
        self.disconnecting = True
        stream = self.stream
        if stream is not None:
            stream.abortConnection()
        else:
            self._ws.loseConnection(GOING_AWAY)

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        """``producer`` is told when the connection cannot take more bytes for now."""
        if self._request is None:
            raise RuntimeError("no consumer to register with")
        self._request.registerProducer(producer, streaming)

    def unregisterProducer(self) -> None:
        if self._request is not None:
            self._request.unregisterProducer()

    def pauseReading(self, why: str) -> None:
        """Read nothing more from the connection until L{resumeReading} for each ``why``."""
        if not self._pauses and not self.disconnecting and self.stream is not None:
            self.stream.pauseProducing()
        self._pauses.add(why)

    def resumeReading(self, why: str) -> None:
        if why not in self._pauses:
            return
        self._pauses.discard(why)
        if not self._pauses and not self.disconnecting and self.stream is not None:
            self.stream.resumeProducing()

    def pauseProducing(self) -> None:
        self.pauseReading("hosted")

    def resumeProducing(self) -> None:
        self.resumeReading("hosted")

    def stopProducing(self) -> None:
        self.abortConnection()

    def getPeer(self) -> IAddress:
        return self._peer

    def getHost(self) -> IAddress:
        return self._host


class WebSocketBridge:
    """
    A Twisted C{WebSocketProtocol} hosting one L{MessageProtocol}, server or
    client side.  Messages over ``maxMessage`` bytes close the connection
    (code 1009), on the server side even before they are complete; a text
    message where binary ones are expected (or the reverse) closes it with
    code 1003.  With ``limits`` (and a ``clock``), the server side meters
    messages, times out a message begun and a silent connection.  Each
    close says why in one line, through ``faults`` (the hub's fault log: a
    bounded rate per peer) when there is one.
    """

    def __init__(self, hosted: MessageProtocol, maxMessage: int, peer: IAddress,
                 host: IAddress, text: bool = False, request: Request | None = None,
                 limits: Limits | None = None, clock: IReactorTime | None = None,
                 faults: FaultSink | None = None) -> None:
        self.hosted = hosted
        self.faults = faults
        self.maxMessage = maxMessage
        self.text = text
        self.peer = peer
        self.host = host
        self.request = request
        self.limits = limits if clock is not None else None
        self.clock = clock
        self._ws: WebSocketTransport | None = None
        self._transport: MessageTransport | None = None
        self._bucket: TokenBucket | None = None
        self._queue: deque[bytes] = deque()
        self._heard = 0.0
        self._messageBegun: float | None = None
        self._calls: dict[str, IDelayedCall] = {}

    # -- connection ------------------------------------------------------------

    def negotiationStarted(self, transport: WebSocketTransport) -> None:
        self._ws = transport
        if self.request is not None:
            afterChannelData(self.request.channel, self._afterData, self._closing)

    def negotiationFinished(self) -> None:
        assert self._ws is not None
        self._transport = MessageTransport(self._ws, self.peer, self.host, self.text,
                                           self.request)
        limits, clock = self.limits, self.clock
        if limits is not None and clock is not None:
            if limits.messageRate:
                self._bucket = TokenBucket(limits.messageRate, limits.messageBurst, clock)
            self._heard = clock.seconds()
            self._later("idle", limits.webSocketIdleTimeout / 2, self._checkIdle)
        self.hosted.makeConnection(self._transport)

    def _later(self, name: str, delay: float, call: Callable[[], None]) -> None:
        assert self.clock is not None
        old = self._calls.pop(name, None)
        if old is not None and old.active():
            old.cancel()

        def run() -> None:
            del self._calls[name]
            call()

        self._calls[name] = self.clock.callLater(max(delay, 0.0), run)

    def _closing(self) -> bool:
        return self._transport is not None and self._transport.disconnecting

    def _afterData(self) -> None:
        """After every chunk of bytes: heard from; a message growing too big or too slowly."""
        if self._transport is None or self._ws is None or self._transport.disconnecting:
            return
        pending = pendingMessageBytes(self._ws)
        held, announced = frameInProgress(self._ws)
        if pending > self.maxMessage or announced > self.maxMessage:
            # (a frame's header that announces too much is refused before its payload)
            self._refuse(MESSAGE_TOO_BIG, "WebSocket message too big", "too-big")
            return
        if self.limits is None or self.clock is None:
            return
        self._heard = self.clock.seconds()
        if not (pending or held or announced):  # (a frame begun: its header, or its payload)
            self._messageBegun = None
        elif self._messageBegun is None:
            self._messageBegun = self._heard
            if "message" not in self._calls:
                self._later("message", self.limits.messageTimeout, self._checkMessage)

    def _checkMessage(self) -> None:
        if self._messageBegun is None or self.limits is None or self.clock is None:
            return
        left = self._messageBegun + self.limits.messageTimeout - self.clock.seconds()
        if left > 0:
            self._later("message", left, self._checkMessage)
        else:
            self._refuse(POLICY_VIOLATION, "a message not complete "
                         f"{self.limits.messageTimeout:g} seconds after it began",
                         "message-timeout")

    def _checkIdle(self) -> None:
        if self._transport is None or self._transport.disconnecting or \
                self.limits is None or self.clock is None or self._ws is None:
            return
        idle = self.limits.webSocketIdleTimeout
        if self._queue:  # its messages wait for their turn: not read, yet not silent
            self._heard = self.clock.seconds()
        silent = self.clock.seconds() - self._heard
        if silent >= idle:
            self._refuse(GOING_AWAY, f"silent for {idle:g} seconds", "idle")
        elif silent >= idle / 2:
            self._transport.ping(b"gameproto")
            self._later("idle", idle - silent, self._checkIdle)
        else:
            self._later("idle", idle / 2 - silent, self._checkIdle)

    def _refuse(self, code: int, reason: str, cause: str = "dropped") -> None:
        """
        Close with ``code``, saying why in one log line; on the server side,
        count it in the metrics' refusals of the hosted protocol under ``cause``.
        """
        assert self._transport is not None
        if self._transport.disconnecting:
            return
        host = hostOf(self.peer)
        port = getattr(self.peer, "port", None)
        faultLine(self.faults, host or str(self.peer), "websocket {who}: closing: {reason}",
                  who=f"{host}:{port}" if host is not None else str(self.peer), reason=reason)
        if self.request is not None:
            refused(self.hosted, cause)
        self._transport.loseConnection(code)
        if self.limits is not None:
            self._later("abort", self.limits.closeTimeout, self._transport.abortConnection)

    # -- messages --------------------------------------------------------------

    def bytesMessageReceived(self, data: bytes | bytearray) -> None:
        if self._transport is None or self._transport.disconnecting:
            return
        if self.text:
            self._refuse(UNSUPPORTED_DATA, "binary message on a text endpoint")
        elif len(data) > self.maxMessage:
            self._refuse(MESSAGE_TOO_BIG, "WebSocket message too big", "too-big")
        else:
            self._deliver(bytes(data))

    def textMessageReceived(self, message: str) -> None:
        if self._transport is None or self._transport.disconnecting:
            return
        if not self.text:
            self._refuse(UNSUPPORTED_DATA, "text message on a binary endpoint")
            return
        data = message.encode("utf-8")
        if len(data) > self.maxMessage:
            self._refuse(MESSAGE_TOO_BIG, "WebSocket message too big", "too-big")
        else:
            self._deliver(data)

    def _deliver(self, data: bytes) -> None:
        """Give the hosted protocol one message, or hold it till the fair share refills."""
        self._messageBegun = None
        if self._bucket is None or (not self._queue and self._bucket.take()):
            self.hosted.messageDataReceived(data)
            return
        assert self._transport is not None
        self._queue.append(data)
        if len(self._queue) == 1:
            if self.request is not None:
                refused(self.hosted, "rate-limit")
            self._transport.pauseReading("rate")
            self._later("rate", self._bucket.wait(), self._refilled)

    def _refilled(self) -> None:
        assert self._bucket is not None and self._transport is not None
        while self._queue and not self._transport.disconnecting and self._bucket.take():
            self.hosted.messageDataReceived(self._queue.popleft())
        if self._queue and not self._transport.disconnecting:
            self._later("rate", self._bucket.wait(), self._refilled)
        else:
            self._queue.clear()
            self._transport.resumeReading("rate")

    @property
    def held(self) -> int:
        """Messages received and held until the connection's fair share refills."""
        return len(self._queue)

    def pongReceived(self, payload: bytes) -> None:
        pass

    def connectionLost(self, reason: Failure) -> None:
        for call in self._calls.values():
            if call.active():
                call.cancel()
        self._calls.clear()
        self._queue.clear()
        if self._transport is not None:
            self._transport.disconnecting = True
            self.hosted.connectionLost(reason)


def _defaultPort(scheme: str) -> str:
    return {"http": "80", "https": "443", "ws": "80", "wss": "443"}.get(scheme, "")


def _origin(scheme: str, hostport: str) -> str:
    """``scheme://host[:port]``, lower case, without the scheme's default port."""
    hostport = hostport.strip().lower()
    default = _defaultPort(scheme)
    if default and hostport.endswith(":" + default):
        hostport = hostport[: -len(default) - 1]
    return f"{scheme}://{hostport}"


def pageOrigin(request: Request) -> str | None:
    """The origin of the page served by this web port, as the request names it (its Host)."""
    host = request.getHeader(b"host")
    if not host:
        return None
    return _origin("https" if request.isSecure() else "http", host.decode("latin-1"))


def originAllowed(request: Request, allowed: tuple[str, ...] = ()) -> bool:
    """
    Whether a WebSocket upgrade ``request`` may be accepted: it has no
    Origin (a program, not a browser), or its Origin is the page's own or
    one of ``allowed``.
    """
    header = request.getHeader(b"origin")
    if header is None:
        return True
    text = header.decode("latin-1").strip().rstrip("/").lower()
    scheme, sep, rest = text.partition("://")
    origin = _origin(scheme, rest) if sep else text
    own = pageOrigin(request)
    return origin == own or origin in {
        _origin(*entry.split("://", 1)) if "://" in entry else entry for entry in allowed}


class _ServerBridges:
    def __init__(self, build: Callable[[Request], MessageProtocol], maxMessage: int,
                 text: bool, limits: Limits | None = None,
                 clock: IReactorTime | None = None, faults: FaultSink | None = None) -> None:
        self._build = build
        self._maxMessage = maxMessage
        self._text = text
        self._limits = limits
        self._clock = clock
        self._faults = faults

    def buildProtocol(self, request: Request) -> WebSocketBridge:
        return WebSocketBridge(self._build(request), self._maxMessage,
                               request.getClientAddress(), request.getHost(), self._text,
                               request, self._limits, self._clock, self._faults)


class ProtocolFactory(Protocol):
    """What builds a hosted protocol for a peer: a Twisted protocol factory."""

    def buildProtocol(self, addr: IAddress) -> Any:
        ...


class CheckedWebSocketResource(WebSocketResource):
    """
    A WebSocket endpoint that refuses (HTTP 403, one log line) an upgrade
    from a page of another origin than this server's and ``allowedOrigins``;
    an upgrade without Origin (a program) is accepted.
    """

    allowedOrigins: tuple[str, ...] = ()
    faults: FaultSink | None = None
    """Where refusals are logged (the hub's C{FaultLog}: a bounded rate per peer), if anywhere."""
    metrics: Metrics | None = None
    """Where refusals are counted (the hub's), if anywhere."""
    name = "web"
    """The protocol the WebSockets carry, as the metrics name it."""

    def refuse(self, cause: str) -> None:
        """Count one refused upgrade of ``cause``."""
        if self.metrics is not None:
            self.metrics.refused(self.name, cause)

    def render_GET(self, request: Request) -> bytes | int:
        why = notAnUpgrade(request)
        if why is not None:
            # (Twisted would log each at error level, unbounded.)
            faultLine(self.faults, _peerName(request),
                      "websocket {peer}: refused: not a WebSocket upgrade: {why}", why=why)
            self.refuse("malformed")
            request.setResponseCode(400)
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            request.setHeader(b"sec-websocket-version", b"13")
            return f"a WebSocket endpoint: {why}\n".encode("utf-8")
        if not originAllowed(request, self.allowedOrigins):
            faultLine(self.faults, _peerName(request),
                      "websocket {peer}: refused: a page of {origin} may not connect",
                      origin=(request.getHeader(b"origin") or b"").decode("latin-1"))
            self.refuse("origin")
            request.setResponseCode(403)
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            return b"a page of another site may not connect here\n"
        return self.accept(request)

    def accept(self, request: Request) -> bytes | int:
        """The upgrade, once its origin is allowed."""
        result: bytes | int = super().render_GET(request)
        return result


def notAnUpgrade(request: Request) -> str | None:
    """
    Why ``request`` is not a WebSocket upgrade (the check wsproto makes for
    Twisted's WebSocketResource), in words; None when it is one.
    """
    headers = [(name, value) for name, values in request.requestHeaders.getAllRawHeaders()
               for value in values]
    try:
        H11Handshake(ConnectionType.SERVER).initiate_upgrade_connection(headers, request.path)
    except RemoteProtocolError as e:
        return str(e)
    return None


def _peerName(request: Request) -> str:
    address = request.getClientAddress()
    return str(getattr(address, "host", None) or address)


class MessageWebSocketResource(CheckedWebSocketResource):
    """
    A WebSocket endpoint whose every connection hosts a protocol built by
    ``factory`` (the same factory may serve a TCP port), for the peer's
    address.  Messages are binary, or text (UTF-8) when ``text`` is set;
    those over ``maxMessage`` bytes close the connection.  The factory's
    L{Limits} (a L{gameproto.net.GameServerFactory}'s, from its hub) apply.
    """

    def __init__(self, factory: ProtocolFactory, maxMessage: int, text: bool = False) -> None:
        self.protocolFactory = factory
        self.source = factory if isinstance(factory, ConnectionSource) else None
        """The factory's limits, faults and metrics, if it offers them."""
        limits, clock = connectionLimits(factory)
        if limits is not None:
            self.allowedOrigins = limits.allowedOrigins
        if self.source is not None:
            self.faults = self.source.faults
            self.metrics = self.source.metrics
            self.name = self.source.logName
        super().__init__(_ServerBridges(self._build, maxMessage, text, limits,  # type: ignore[arg-type]
                                        clock, self.faults))

    def accept(self, request: Request) -> bytes | int:
        if self.source is not None and not self.source.admits(request.getClientAddress()):
            faultLine(self.faults, _peerName(request),
                      "websocket {peer}: refused: too many connections from this peer")
            self.refuse("too-many")
            request.setResponseCode(503)
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            return b"too many connections from your address\n"
        return super().accept(request)

    def _build(self, request: Request) -> MessageProtocol:
        hosted: MessageProtocol = self.protocolFactory.buildProtocol(request.getClientAddress())
        return hosted


def messageWebSocketResource(
    build: Callable[[Request], MessageProtocol], maxMessage: int, text: bool = False
) -> WebSocketResource:
    """
    A resource serving WebSocket connections, each hosting the protocol that
    ``build(request)`` returns (L{MessageWebSocketResource} builds them
    from a protocol factory).  Only the page's own origin, or a program
    (no Origin), may connect.
    """
    return CheckedWebSocketResource(_ServerBridges(build, maxMessage, text))  # type: ignore[arg-type]


class _ClientBridge:
    def __init__(self, hosted: MessageProtocol, maxMessage: int, text: bool) -> None:
        self._hosted = hosted
        self._maxMessage = maxMessage
        self._text = text

    def buildProtocol(self, url: str) -> WebSocketBridge:
        parsed = URL.fromText(url)
        address = IPv4Address("TCP", parsed.host, parsed.port or 80)
        return WebSocketBridge(self._hosted, self._maxMessage, address, address, self._text)


def connectMessageProtocol(
    reactor: IReactorTCP, url: str, hosted: MessageProtocol, maxMessage: int,
    text: bool = False,
) -> Deferred[WebSocketBridge]:
    """
    Connect ``hosted`` to the WebSocket at ``url`` (``ws://host:port/path``):
    its writes become messages, each message received is given to its
    C{messageDataReceived}.  Fires once the connection is open.
    """
    endpoint = WebSocketClientEndpoint.new(reactor, url)
    return Deferred.fromCoroutine(
        endpoint.connect(_ClientBridge(hosted, maxMessage, text))  # type: ignore[arg-type]
    )
