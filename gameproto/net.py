"""
What every protocol's connections share: tuned streams, one codec's messages
written, a clean close with one log line, and the limits that keep one
connection from hurting the others (L{Limits}): backpressure on writes, a
fair share of messages, a deadline for each message, and a cap on the
connections of one peer.
"""

from __future__ import annotations

from collections import deque
from typing import (
    TYPE_CHECKING,
    AbstractSet,
    Any,
    Callable,
    Generic,
    Iterable,
    Iterator,
    Protocol as TypingProtocol,
    Sequence,
    TypeGuard,
    TypeVar,
    cast,
    runtime_checkable,
)

import attrs
from twisted.internet.interfaces import IAddress, IDelayedCall, IPushProducer, IReactorTime
from twisted.internet.protocol import Protocol, ServerFactory, connectionDone
from twisted.internet.tcp import Connection as TCPConnection
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import Interface, implementer

from gameproto._compat import pendingWriteBytes
from gameproto.metrics import Metrics, metricsOf

log = Logger(namespace="gameproto.net")

if TYPE_CHECKING:
    # Twisted's typing of a protocol that knows its factory (typing only).
    from twisted.internet.protocol import _ProtoWithFactory

ServerT = TypeVar("ServerT")
ProtocolT = TypeVar("ProtocolT", bound="_ProtoWithFactory")
T = TypeVar("T")


def _positive(instance: object, attribute: Any, value: float) -> None:
    if not value > 0:
        raise ValueError(f"{attribute.name} must be over 0, got {value}")


def _notNegative(instance: object, attribute: Any, value: float) -> None:
    if not value >= 0:
        raise ValueError(f"{attribute.name} must be 0 or more, got {value}")


def _origins(origins: Iterable[str]) -> tuple[str, ...]:
    return tuple(origin.strip().rstrip("/").lower() for origin in origins if origin.strip())


@attrs.frozen
class Limits:
    """
    What one connection (and one peer) may cost the server; every port
    applies them, TCP and web alike.  Times in seconds.
    """

    maxWriteBuffer: int = attrs.field(default=1024 * 1024, validator=_positive)
    """
    Bytes a connection may have waiting to be sent while its peer reads
    nothing (counted from when the transport's own buffer is full and
    reading stopped): past it the connection is aborted.
    """
    maxConnectionsPerPeer: int = attrs.field(default=64, validator=_notNegative)
    """Connections one peer (address) may hold on each port at once; 0: no cap."""
    messageRate: float = attrs.field(default=50.0, validator=_notNegative)
    """
    Messages per second one connection may send on average (a token
    bucket); above it reading stops until the bucket refills.  0: no limit.
    """
    messageBurst: int = attrs.field(default=100, validator=_positive)
    """Messages one connection may send at once before the rate applies."""
    messageTimeout: float = attrs.field(default=30.0, validator=_positive)
    """Time a message whose first bytes arrived has to be complete."""
    requestTimeout: float = attrs.field(default=30.0, validator=_positive)
    """Time an HTTP request whose first bytes arrived has to be complete (headers and body)."""
    requestsPerTurn: int = attrs.field(default=2, validator=_notNegative)
    """
    HTTP requests the web port serves in one turn of the reactor, all peers
    together; the others wait, in order, for the next turns, so that a
    burst of requests never holds the games back for longer than this many
    requests take.  0: no bound.
    """
    webSocketIdleTimeout: float = attrs.field(default=300.0, validator=_positive)
    """
    Time a WebSocket may stay silent (no frame, not even the answer to the
    server's ping, sent halfway) before it is closed.
    """
    closeTimeout: float = attrs.field(default=10.0, validator=_positive)
    """Time a closing connection has to send what it still holds; past it, it is aborted."""
    allowedOrigins: tuple[str, ...] = attrs.field(default=(), converter=_origins)
    """
    Origins (``https://example.org``) whose pages may open the WebSockets,
    besides the page's own; requests without an Origin (programs) are
    always accepted.
    """


def positiveCount(value: str) -> int:
    """An option's coerce: a whole number over 0."""
    number = int(value)
    if number < 1:
        raise ValueError(f"{value} is not a whole number over 0")
    return number


def cap(value: str) -> int:
    """An option's coerce: a whole number, 0 or more (0: no cap)."""
    number = int(value)
    if number < 0:
        raise ValueError(f"{value} is not a whole number, 0 or more")
    return number


def rate(value: str) -> float:
    """An option's coerce: a finite number, 0 or more (0: no limit)."""
    number = float(value)
    if not 0 <= number < float("inf"):
        raise ValueError(f"{value} is not a number, 0 or more")
    return number


def originList(value: str | None) -> tuple[str, ...]:
    """C{--allowed-origins}: origins separated by commas or spaces (C{https://example.org})."""
    origins = tuple(o for o in (value or "").replace(",", " ").split() if o)
    for origin in origins:
        scheme, sep, host = origin.partition("://")
        if not sep or not scheme or not host or "/" in host.rstrip("/"):
            raise ValueError(f"{origin!r} is not an origin (scheme://host[:port])")
    return origins


class TokenBucket:
    """``rate`` tokens a second, ``burst`` at most, on ``clock``."""

    def __init__(self, rate: float, burst: int, clock: IReactorTime) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self._stamp = clock.seconds()

    def _refill(self) -> None:
        now = self.clock.seconds()
        self.tokens = min(float(self.burst), self.tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def take(self) -> bool:
        """Take one token if there is one."""
        self._refill()
        if self.tokens >= 1 - 1e-9:  # a token, give or take the floats' rounding
            self.tokens = max(self.tokens - 1, 0.0)
            return True
        return False

    def wait(self) -> float:
        """Seconds until a token is there (a millisecond at least)."""
        self._refill()
        return max(0.001, (1 - self.tokens) / self.rate)


class TurnShare:
    """
    At most ``perTurn`` pieces of work done in each turn of the reactor
    (``clock``); the others wait, in the order they came, for the next
    turns, which do ``perTurn`` each (0: no bound).  No turn is lost: while
    work waits, every turn does some.
    """

    def __init__(self, perTurn: int, clock: IReactorTime) -> None:
        self.perTurn = perTurn
        self.clock = clock
        self.done = 0
        """Work done in this turn."""
        self._waiting: deque[Callable[[], bool]] = deque()
        self._newTurn: IDelayedCall | None = None

    @property
    def waiting(self) -> int:
        """Work waiting for a later turn."""
        return len(self._waiting)

    def offer(self, work: Callable[[], bool]) -> bool:
        """
        True: do the work now (it counts in this turn's share).  False: it
        waits; ``work`` is called in a later turn, and returns whether it did
        any (False: it was called off meanwhile, and takes no share).
        """
        if not self.perTurn:
            return True
        if self._newTurn is None:
            self._newTurn = self.clock.callLater(0, self._turn)
        if self.done < self.perTurn and not self._waiting:
            self.done += 1
            return True
        self._waiting.append(work)
        return False

    def _turn(self) -> None:
        self._newTurn = None
        self.done = 0
        waiting = self._waiting
        while waiting and self.done < self.perTurn:
            self.done += 1  # (before: the work may offer more, which counts after it)
            if not waiting.popleft()():
                self.done -= 1
        if self.done or waiting:
            # This turn's share counts until the next one begins.
            self._newTurn = self.clock.callLater(0, self._turn)


class PeerCounter:
    """The connections each peer holds, ``cap`` at most each (0: no cap)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: dict[str, int] = {}
        self._releasers: dict[str, Callable[[], None]] = {}

    def available(self, host: str) -> bool:
        """Whether ``host`` may open one more connection."""
        return not self.cap or self.counts.get(host, 0) < self.cap

    def acquire(self, host: str) -> bool:
        """Count one more connection of ``host``, if it may open it."""
        if not self.available(host):
            return False
        self.counts[host] = self.counts.get(host, 0) + 1
        return True

    def release(self, host: str) -> None:
        """One connection of ``host`` is gone."""
        left = self.counts.get(host, 0) - 1
        if left > 0:
            self.counts[host] = left
        else:
            self.counts.pop(host, None)
            self._releasers.pop(host, None)

    def releaser(self, host: str) -> Callable[[], None]:
        """
        What releases one connection of ``host``: one callable that all of
        the host's connections share while it holds any.
        """
        release = self._releasers.get(host)
        if release is None:
            release = self._releasers[host] = lambda: self.release(host)
        return release


def hostOf(address: object) -> str | None:
    """The host part of a peer's address (None for an address without one)."""
    host = getattr(address, "host", None)
    return host if isinstance(host, str) else None


def peerOf(transport: object) -> str:
    """A short printable name for the peer of ``transport``."""
    try:
        peer = transport.getPeer()  # type: ignore[attr-defined]
    except Exception:
        return "?"
    host, port = getattr(peer, "host", None), getattr(peer, "port", None)
    if host is None:
        return str(getattr(peer, "name", None) or type(peer).__name__)
    return f"{host}:{port}"


def tuneStream(transport: object) -> None:
    """No Nagle delay for our small messages, and keep-alive to find dead peers."""
    for setter in ("setTcpNoDelay", "setTcpKeepAlive"):
        method = getattr(transport, setter, None)
        if method is not None:
            try:
                method(True)
            except OSError:
                pass


@runtime_checkable
class FaultSink(TypingProtocol):
    """Where clients' faults are logged at a bounded rate per peer (the hub's C{FaultLog})."""

    def fault(self, peer: str, format: str, **fields: Any) -> bool:
        """Log ``format`` for ``peer``, unless it had its lines: whether it was logged."""

    def connection(self, peer: str, format: str, **fields: Any) -> bool:
        """
        Log a connection of ``peer`` made or gone, unless it had its lines
        (counted apart from its faults): whether it was logged.
        """


@runtime_checkable
class LimitsHub(TypingProtocol):
    """What connections need of the hub: its limits, its fault log and its metrics."""

    limits: Limits
    faults: FaultSink
    metrics: Metrics


@runtime_checkable
class HubServer(TypingProtocol):
    """A protocol's server as the factory of its connections sees it: its hub and clock."""

    hub: LimitsHub
    clock: IReactorTime


@runtime_checkable
class ConnectionSource(TypingProtocol):
    """
    What a factory offers the connections it builds (TCP or WebSocket):
    the limits they keep to, on which clock, whether a peer may open one
    more, where faults are logged and refusals counted.
    L{GameServerFactory} provides it.
    """

    @property
    def limits(self) -> Limits | None:
        """The limits (None: none)."""

    @property
    def clock(self) -> IReactorTime | None:
        """The clock the limits' times run on."""

    @property
    def faults(self) -> FaultSink | None:
        """Where clients' faults are logged (None: the log, unbounded)."""

    @property
    def metrics(self) -> Metrics | None:
        """Where refusals are counted (None: nowhere)."""

    @property
    def logName(self) -> str:
        """The protocol's name, in logs and metrics."""

    def admits(self, address: IAddress | None) -> bool:
        """Whether a peer at ``address`` may open one more connection."""


def printable(text: str) -> str:
    """
    ``text`` with each character that is not printable (a control
    character: NUL, a line break, an escape) replaced by U+FFFD: what a
    client's name may hold, as every log line and other client shows it.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else "\ufffd" for c in text)


def faultLine(faults: FaultSink | None, peer: str, format: str, **fields: Any) -> None:
    """
    A client's fault in one log line: through ``faults`` (the hub's
    C{FaultLog}: at a bounded rate per peer) when there is one.
    """
    if faults is not None:
        faults.fault(peer, format, **fields)
    else:
        log.info(format, peer=peer, **fields)


def connectionLine(faults: FaultSink | None, peer: str, format: str, **fields: Any) -> None:
    """
    A connection made or gone, in one log line: through ``faults`` (the
    hub's C{FaultLog}: at a bounded rate per peer) when there is one.
    """
    if faults is not None:
        faults.connection(peer, format, **fields)
    else:
        log.info(format, peer=peer, **fields)


def isConnectionSource(factory: object) -> TypeGuard[ConnectionSource]:
    """
    Whether ``factory`` is a L{ConnectionSource}: at once for a
    L{GameServerFactory}, which is one by construction (on Python 3.11 the
    runtime protocol's check reads every property, the hub's included:
    about 70 µs a connection); by that check for anything else.
    """
    return isinstance(factory, GameServerFactory) or isinstance(factory, ConnectionSource)


def connectionLimits(factory: object) -> tuple[Limits | None, IReactorTime | None]:
    """
    The limits and the clock of the connections ``factory`` (a
    L{ConnectionSource}) builds; Nones for any other factory, or without limits.
    """
    if isConnectionSource(factory):
        limits, clock = factory.limits, factory.clock
        if limits is not None and clock is not None:
            return limits, clock
    return None, None


class IMessageTransport(Interface):
    """
    A transport whose every C{write} is one message of its own (a
    WebSocket's): writes to it are never joined into one.
    """


@implementer(IPushProducer)
class WireProtocol(Protocol):
    """
    What every protocol's connections share: tuned streams, writing one
    codec's messages (``serialize``), and a clean close with one log line
    naming the connection (``logName`` and L{who}).  A server's connection
    logs its peer's faults (L{fault}), its close, and its being made and
    gone (L{connectionLine}) through the hub's fault log, at a bounded
    rate per peer address (L{host}).

    Built by a factory with L{Limits} (a L{GameServerFactory} on a hub),
    the connection also keeps to them: it is the producer of its
    transport, so that a peer that does not read what it is sent stops
    being read, and is aborted once more than C{maxWriteBuffer} bytes wait
    for it (L{writeBacklog}); codecs' loops ask L{reading} (or iterate
    through L{metered}) before each message, which takes a token of the
    connection's fair share, pausing reading while there is none, and
    watches the deadline of a message begun.
    """

    logName = "gameproto"
    serialize: Callable[[Any], bytes]
    _closing = False
    peer = "?"
    host = "?"
    """The peer's address without its port: whose faults are counted together."""
    _faults: FaultSink | None = None
    _metrics: Metrics | None = None
    _limits: Limits | None = None
    _clock: IReactorTime | None = None
    releasePeer: Callable[[], None] | None = None
    writeBacklog = 0
    """Bytes written since the transport said its buffer is full (0 while it is not)."""
    _writesBlocked = False
    _producing = False
    _bucket: TokenBucket | None = None
    _messageStarted: float | None = None
    _lastBuffered = 0
    _partial = False
    _deadlineCall: IDelayedCall | None = None
    _resumeCall: IDelayedCall | None = None
    _abortCall: IDelayedCall | None = None
    _socket: Any = None
    """A plain TCP connection's socket, which L{writeData} sends to at once while nothing waits."""
    _readPauses: AbstractSet[str] = frozenset()
    """Why reading is paused ("writes", "rate"): a set of the connection's own once it was."""
    _held: Sequence[Any] = ()
    """Messages read and waiting for their token of the fair share."""
    _outbox: Any = None
    """The hub's L{gameproto.engine.outbox.Outbox}: writes wait in it while records are not committed."""
    _outgoing: list[bytes] | None = None
    """What this connection wrote while the outbox held writes, to send after the commit."""

    def connectionMade(self) -> None:
        self.peer = peerOf(self.transport)
        if isinstance(self.transport, TCPConnection):
            self._socket = self.transport.getHandle()
        try:
            address = self.transport.getPeer()  # type: ignore[union-attr]
        except Exception:
            address = None
        self.host = hostOf(address) or self.peer
        factory = self.factory
        source = isConnectionSource(factory)
        self._faults = factory.faults if source else None
        tuneStream(self.transport)
        self._metrics = factory.metrics if source else metricsOf(self)
        if self._metrics is not None:
            self._metrics.connectionOpened(self, self.logName)
        self._outbox = getattr(self.factory, "outbox", None)
        self._limits, self._clock = connectionLimits(self.factory)
        if self._limits is None or self._clock is None:
            return
        if self._limits.messageRate:
            self._bucket = TokenBucket(self._limits.messageRate, self._limits.messageBurst,
                                       self._clock)
        register = getattr(self.transport, "registerProducer", None)
        if register is not None:
            try:
                register(self, True)
            except RuntimeError:
                return  # another producer writes here: it has the transport's backpressure
            self._producing = True

    def who(self) -> str:
        """How log lines name this connection."""
        return self.peer

    def fault(self, format: str, **fields: Any) -> None:
        """
        A fault of this connection's peer in one log line (``format`` names
        the connection as ``{who}``: L{who} unless given), at a bounded rate
        per peer address.
        """
        if "who" not in fields:
            fields["who"] = self.who()
        faultLine(self._faults, self.host, format, **fields)

    def connectionLine(self, format: str, **fields: Any) -> None:
        """
        This connection made or gone, in one log line (``format`` and its
        ``fields``; not ``peer``), at a bounded rate per peer address.
        """
        connectionLine(self._faults, self.host, format, **fields)

    # -- writing ---------------------------------------------------------------

    def sendMessage(self, message: Any) -> None:
        """Write one message (nothing once the connection is closing)."""
        if not self._closing:
            self.writeData(type(self).serialize(message))

    def writeData(self, data: bytes) -> None:
        """
        Write bytes, counting those written while the peer reads nothing;
        past the limit the connection is aborted.  While the hub's outbox
        holds writes (records of this turn not committed yet), they wait in
        the connection, and go out together once the commit is done.
        """
        outbox = self._outbox
        if outbox is not None and (self._outgoing is not None or outbox.holding):
            if self._outgoing is None:
                self._outgoing = [data]
                outbox.hold(self)  # (which may send it at once)
            else:
                self._outgoing.append(data)
            return
        if self._writesBlocked and self._limits is not None:
            self.writeBacklog += len(data)
            if self.writeBacklog > self._limits.maxWriteBuffer:
                self.abortConnection(
                    f"the peer reads nothing: over {self._limits.maxWriteBuffer} bytes wait for it")
                return
        transport: Any = self.transport
        if self._socket is not None and not transport.disconnecting and \
                not pendingWriteBytes(transport):
            # Nothing waits before these bytes: send them now, as the
            # transport would on the reactor's next turn, without asking
            # epoll to watch for writing and then to stop.
            try:
                sent = self._socket.send(data)
            except OSError:
                sent = 0  # full, or broken: the transport meets it on its own write
            if sent == len(data):
                return
            data = data[sent:]
        transport.write(data)

    def releaseWrites(self) -> None:
        """
        The outbox's commit is done: send what waited for it, as one write
        on a byte stream; one by one where each write is a message.
        """
        outgoing, self._outgoing = self._outgoing, None
        if not outgoing:
            return
        if IMessageTransport.providedBy(self.transport):
            for data in outgoing:
                self.writeData(data)
        else:
            self.writeData(b"".join(outgoing))

    def discardWrites(self, reason: str) -> None:
        """The outbox's commit failed: what waited is never sent, and the connection closes."""
        self._outgoing = None
        self.abortConnection(reason, "store")

    def pauseProducing(self) -> None:
        """The transport's buffer is full: read no more from this peer until it drains."""
        self._writesBlocked = True
        self._pauseReading("writes")

    def resumeProducing(self) -> None:
        """The transport's buffer drained."""
        self._writesBlocked = False
        self.writeBacklog = 0
        self._resumeReading("writes")

    def stopProducing(self) -> None:
        """The connection is going."""

    # -- reading ---------------------------------------------------------------

    def _pauseReading(self, why: str) -> None:
        transport = self.transport
        if not self._readPauses and not self._closing and \
                not getattr(transport, "disconnecting", False):
            pause = getattr(transport, "pauseProducing", None)
            if pause is not None:
                pause()
        self._pauseSet().add(why)

    def _pauseSet(self) -> set[str]:
        """The reasons reading is paused, made on the first pause (most connections have none)."""
        pauses = self._readPauses
        if not isinstance(pauses, set):
            pauses = self._readPauses = set()
        return pauses

    def _resumeReading(self, why: str) -> None:
        if why not in self._readPauses:
            return
        self._pauseSet().discard(why)
        transport = self.transport
        if not self._readPauses and not self._closing and \
                not getattr(transport, "disconnecting", False):
            resume = getattr(transport, "resumeProducing", None)
            if resume is not None:
                resume()

    @property
    def readingPaused(self) -> bool:
        """Whether this connection's reading is paused (its peer floods, or reads nothing)."""
        return bool(self._readPauses)

    def _takeToken(self) -> bool:
        """One message's token of the fair share; without one, reading pauses till it refills."""
        if self._bucket is None or self._bucket.take():
            return True
        if self._resumeCall is None and self._clock is not None:
            if self._metrics is not None:
                self._metrics.refused(self.logName, "rate-limit")
            self._pauseReading("rate")
            self._messageStarted = None  # the wait is this side's, not the peer's
            self._resumeCall = self._clock.callLater(self._bucket.wait(), self._refilled)
        return False

    def _refilled(self) -> None:
        self._resumeCall = None
        self._pauseSet().discard("rate")
        if not self._closing:
            self.dataReceived(b"")  # the messages already received, first
        if "rate" not in self._readPauses:
            self._pauseSet().add("rate")
            self._resumeReading("rate")

    def reading(self, buffered: int) -> bool:
        """
        Whether to read another message now, ``buffered`` bytes being held
        by the codec: False once the connection is closing, or when the
        connection's fair share is used up (reading is then paused, and
        L{dataReceived} called with no bytes once it refills).  Watches the
        deadline of the message those bytes begin.
        """
        if self._closing:
            return False
        if buffered <= 0:
            self._messageStarted = None
            self._lastBuffered = 0
            return True
        if not self._takeToken():
            return False
        if self._messageStarted is None or buffered < self._lastBuffered:
            self._messageBegins()  # a message was read since: the next one begins now
        self._lastBuffered = buffered
        return True

    def readingWhole(self) -> bool:
        """
        Whether to read one whole message that arrived alone, the codec
        holding nothing before it: L{reading} of its bytes, then of none,
        without starting a deadline for a message already complete.
        """
        if self._closing or not self._takeToken():
            return False
        self._messageStarted = None
        self._lastBuffered = 0
        return True

    def metered(self, messages: Iterable[T], data: bytes) -> Iterator[T]:
        """
        ``messages`` (a codec's whole messages of ``data``), each once it
        has its token of the fair share; the others are held (reading
        paused) until the share refills.  ``data`` ending inside a message
        starts that message's deadline.
        """
        pending: list[T] = [*self._held, *messages]
        self._held = ()
        taken = False
        for index, message in enumerate(pending):
            if self._closing:
                return
            if not self._takeToken():
                self._held = pending[index:]
                return
            taken = True
            yield message
        if data:
            self._partial = not data.endswith(b"\n")
        if not self._partial:
            self._messageStarted = None
        elif taken or self._messageStarted is None:
            self._messageBegins()

    def _messageBegins(self) -> None:
        if self._limits is None or self._clock is None:
            return
        self._messageStarted = self._clock.seconds()
        if self._deadlineCall is None:
            self._deadlineCall = self._clock.callLater(self._limits.messageTimeout,
                                                      self._checkDeadline)

    def _checkDeadline(self) -> None:
        self._deadlineCall = None
        if self._messageStarted is None or self._closing or \
                self._limits is None or self._clock is None:
            return
        left = self._messageStarted + self._limits.messageTimeout - self._clock.seconds()
        if left > 0:
            self._deadlineCall = self._clock.callLater(left, self._checkDeadline)
        else:
            self.dropConnection(
                f"a message not complete {self._limits.messageTimeout:g} seconds after it began",
                "message-timeout")

    # -- closing ---------------------------------------------------------------

    def dropConnection(self, reason: str, cause: str = "dropped") -> None:
        """
        Close the connection cleanly, saying why in one log line (L{fault}),
        and count it in the metrics' refusals under ``cause``.
        """
        if self._closing:
            return
        if self._metrics is not None:
            self._metrics.refused(self.logName, cause)
        self.fault("{name} {who}: closing: {reason}", name=self.logName, reason=reason)
        self.endConnection()

    def endConnection(self) -> None:
        """
        Close the connection cleanly where the protocol ends it (a table
        over, the client's goodbye): what waits is sent first, and nothing
        is logged beyond the usual line of a connection gone; not a fault.
        """
        if self._closing:
            return
        if self._outgoing is not None:
            self._outbox.flush()  # commit now: what waits is said before the close
        self._closing = True
        if self._writesBlocked:
            self._abortTransport()
            return
        if self._producing:
            self._producing = False
            self.transport.unregisterProducer()  # type: ignore[union-attr]
        self.transport.loseConnection()  # type: ignore[union-attr]
        if self._limits is not None and self._clock is not None:
            self._abortCall = self._clock.callLater(self._limits.closeTimeout,
                                                   self._abortTransport)

    def abortConnection(self, reason: str, cause: str = "backpressure") -> None:
        """
        Close the connection at once (its peer reads nothing), saying why in
        one log line (L{fault}), and count it in the metrics' refusals under ``cause``.
        """
        if self._closing:
            return
        self._closing = True
        if self._metrics is not None:
            self._metrics.refused(self.logName, cause)
        self.fault("{name} {who}: aborting: {reason}", name=self.logName, reason=reason)
        self._abortTransport()

    def _abortTransport(self) -> None:
        self._abortCall = None
        abort = getattr(self.transport, "abortConnection", None)
        if abort is not None:
            abort()
        else:
            self.transport.loseConnection()  # type: ignore[union-attr]

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._closing = True
        self._socket = None
        self._outgoing = None
        if self._metrics is not None:
            self._metrics.connectionClosed(self)
        for name in ("_deadlineCall", "_resumeCall", "_abortCall"):
            call: IDelayedCall | None = getattr(self, name)
            if call is not None and call.active():
                call.cancel()
            setattr(self, name, None)
        release, self.releasePeer = self.releasePeer, None
        if release is not None:
            release()


class GameServerFactory(ServerFactory[ProtocolT], Generic[ServerT, ProtocolT]):
    """
    Builds ``protocol`` for each connection to one protocol's server, every
    connection sharing ``server`` (TCP and WebSocket alike).  ``protocol``
    is set by a subclass, or given: a subclass of a protocol's server
    protocol, say.

    The connections keep to the L{Limits} of the server's hub (L{limits}),
    on its clock; at most C{maxConnectionsPerPeer} of them come from one
    peer, the others are refused with one log line.
    """

    noisy = False

    def __init__(self, server: ServerT,
                 protocol: Callable[[], ProtocolT] | None = None) -> None:
        self.server = server
        if protocol is not None:
            self.protocol = protocol

    _peers: PeerCounter | None = None

    @property
    def peers(self) -> PeerCounter:
        """The connections each peer holds (made on first use: a subclass may skip __init__)."""
        if self._peers is None:
            self._peers = PeerCounter(0)
        return self._peers

    _hubFound: tuple[object, object, LimitsHub | None] | None = None
    """The server, its C{hub} attribute, and the hub they give, as last checked."""

    @property
    def hub(self) -> LimitsHub | None:
        """The server's hub, if it has one (checked again only when either changes)."""
        server = self.server
        candidate = getattr(server, "hub", None)
        found = self._hubFound
        if found is not None and found[0] is server and found[1] is candidate:
            return found[2]
        hub = candidate if isinstance(server, HubServer) and \
            isinstance(candidate, LimitsHub) else None
        self._hubFound = (server, candidate, hub)
        return hub

    @property
    def outbox(self) -> Any:
        """The hub's outbox (L{gameproto.engine.outbox.Outbox}), if it has one."""
        return getattr(self.hub, "outbox", None)

    @property
    def limits(self) -> Limits | None:
        """The limits of the server's hub, if it has any."""
        hub = self.hub
        return hub.limits if hub is not None and isinstance(hub.limits, Limits) else None

    @property
    def clock(self) -> IReactorTime | None:
        """The server's clock."""
        server = self.server
        if self.hub is not None:
            return cast(HubServer, server).clock  # (L{hub} found it one: not checked again)
        return server.clock if isinstance(server, HubServer) else None

    @property
    def faults(self) -> FaultSink | None:
        """The hub's fault log."""
        hub = self.hub
        return hub.faults if hub is not None else None

    @property
    def metrics(self) -> Metrics | None:
        """The hub's metrics."""
        hub = self.hub
        return hub.metrics if hub is not None and isinstance(hub.metrics, Metrics) else None

    @property
    def logName(self) -> str:
        """The name of the protocol (its connections' C{logName})."""
        protocol = self.protocol
        if isinstance(protocol, type) and issubclass(protocol, WireProtocol):
            return protocol.logName
        return "gameproto"

    def admits(self, address: IAddress | None) -> bool:
        """Whether a peer at ``address`` may open one more connection."""
        host, limits = hostOf(address), self.limits
        if host is None or limits is None:
            return True
        self.peers.cap = limits.maxConnectionsPerPeer
        return self.peers.available(host)

    def buildProtocol(self, addr: IAddress | None) -> ProtocolT | None:
        protocol = super().buildProtocol(addr)
        host = hostOf(addr)
        if not isinstance(protocol, WireProtocol) or host is None or self.limits is None:
            return protocol
        self.peers.cap = self.limits.maxConnectionsPerPeer
        if not self.peers.acquire(host):
            faultLine(self.faults, host,
                      "{name} {peer}: refused: over {cap} connections from this peer",
                      name=protocol.logName, cap=self.peers.cap)
            metrics = self.metrics
            if metrics is not None:
                metrics.refused(protocol.logName, "too-many")
            return None
        protocol.releasePeer = self.peers.releaser(host)
        return protocol
