"""
Connection limits (L{gameproto.net.Limits}) on every port: backpressure on
writes, a fair share of messages per connection, a deadline for a message
or an HTTP request begun, a cap on one peer's connections, the web port's
share of each turn of the reactor, the WebSocket's origin check, idle
timeout and the bytes that come with its upgrade.
"""

from __future__ import annotations

import json
from typing import Any, Callable, cast

from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, TCP4ServerEndpoint, connectProtocol
from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import Factory, Protocol
from twisted.internet.task import Clock, LoopingCall
from twisted.internet.testing import StringTransport
from twisted.logger import ILogObserver, formatEvent, globalLogPublisher
from twisted.python.failure import Failure
from twisted.python.usage import UsageError
from twisted.trial.unittest import SynchronousTestCase, TestCase
from twisted.web.resource import Resource
from twisted.web.test.requesthelper import DummyRequest
from wsproto import WSConnection
from wsproto.connection import Connection, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Ping, TextMessage
from wsproto.events import Request as WSRequest

from gameproto import tap
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.hub import Hub
from gameproto.enginejson.protocol import EngineJsonServerProtocol
from gameproto.enginejson.server import (
    EngineJsonServer,
    EngineJsonServerFactory,
    EngineJsonSettings,
)
from gameproto.metrics import FactoryHolder, HubHolder, MetricsHolder, metricsOf
from gameproto.net import (
    ConnectionSource,
    GameServerFactory,
    HubServer,
    Limits,
    LimitsHub,
    TokenBucket,
    TurnShare,
    WireProtocol,
    isConnectionSource,
)
from gameproto.web.site import WebConnection, WebSite, makeSite
from gameproto.test.hardening_helpers import LogCapture
from gameproto.web.websocket import MessageTransport, MessageWebSocketResource, originAllowed

from gameproto.test.service_helpers import Server, until

PEER = IPv4Address("TCP", "127.0.0.1", 40000)


class LogLines:
    """The log lines emitted while a test runs."""

    def __init__(self, case: SynchronousTestCase) -> None:
        self.events: list[dict[str, Any]] = []
        self.observe = cast(ILogObserver, self.events.append)
        globalLogPublisher.addObserver(self.observe)
        case.addCleanup(globalLogPublisher.removeObserver, self.observe)

    def having(self, text: str) -> list[str]:
        lines = [formatEvent(event) or "" for event in self.events]
        return [line for line in lines if text in line]

    def tracebacks(self) -> list[dict[str, Any]]:
        return [event for event in self.events if event.get("log_failure") is not None]


def engineFactory(limits: Limits, clock: Clock) -> EngineJsonServerFactory:
    hub = Hub(clock, limits=limits)
    return EngineJsonServerFactory(EngineJsonServer(EngineJsonSettings(), hub=hub))


def engineConnection(limits: Limits, clock: Clock,
                     ) -> tuple[EngineJsonServerProtocol, StringTransport]:
    protocol = engineFactory(limits, clock).buildProtocol(PEER)
    assert isinstance(protocol, EngineJsonServerProtocol)
    transport = StringTransport(peerAddress=PEER)
    protocol.makeConnection(transport)
    transport.clear()
    return protocol, transport


def lines(transport: StringTransport) -> list[dict[str, Any]]:
    return [json.loads(line) for line in transport.value().splitlines()]


WATCH = b'{"type":"watch","game":999}\n'
"""A message the engine JSON lobby answers with a problem, and stays open."""


class LimitsTests(SynchronousTestCase):
    """The limits' defaults and their checks."""

    def test_defaults(self) -> None:
        limits = Limits()
        self.assertEqual(limits.maxWriteBuffer, 1024 * 1024)
        self.assertEqual(limits.maxConnectionsPerPeer, 64)
        self.assertEqual(limits.requestsPerTurn, 2)
        self.assertEqual(Hub(Clock()).limits, limits)
        self.assertEqual(makeSite({}, limits).turns.perTurn, 2)  # type: ignore[attr-defined]
        self.assertEqual(makeSite({}).turns.perTurn, 0)  # type: ignore[attr-defined]

    def test_refused(self) -> None:
        for bad in [dict(maxWriteBuffer=0), dict(maxConnectionsPerPeer=-1),
                    dict(messageRate=-1.0), dict(messageBurst=0), dict(messageTimeout=0.0),
                    dict(requestTimeout=-1.0), dict(webSocketIdleTimeout=0.0),
                    dict(requestsPerTurn=-1)]:
            self.assertRaises(ValueError, Limits, **bad)  # type: ignore[arg-type]

    def test_bucket(self) -> None:
        clock = Clock()
        bucket = TokenBucket(10, 3, clock)
        self.assertEqual([bucket.take() for _ in range(4)], [True, True, True, False])
        self.assertAlmostEqual(bucket.wait(), 0.1)
        clock.advance(0.1 - 1e-12)
        self.assertTrue(bucket.take())  # the floats' rounding is no reason to wait
        self.assertAlmostEqual(bucket.wait(), 0.1)
        clock.advance(0.1)
        self.assertTrue(bucket.take())
        clock.advance(100)
        self.assertEqual([bucket.take() for _ in range(4)], [True, True, True, False])


class OptionsTests(SynchronousTestCase):
    """The options of C{twistd gameproto} reach the hub, every factory and the web port."""

    def test_options(self) -> None:
        options = tap.Options()
        options.parseOptions([
            "--db", self.mktemp(), "--max-write-buffer", "5000",
            "--max-connections-per-peer", "0", "--message-rate", "7", "--message-burst", "9",
            "--message-timeout", "4", "--request-timeout", "6", "--websocket-idle-timeout", "8",
            "--web-requests-per-turn", "3",
            "--allowed-origins", "https://a.example, http://b.example:81"])
        service = tap.makeService(options, Clock())
        limits = service.hub.limits
        self.assertEqual(limits, Limits(
            maxWriteBuffer=5000, maxConnectionsPerPeer=0, messageRate=7, messageBurst=9,
            messageTimeout=4, requestTimeout=6, webSocketIdleTimeout=8, requestsPerTurn=3,
            allowedOrigins=("https://a.example", "http://b.example:81")))
        self.assertIs(service.getServiceNamed("web").factory.limits, limits)
        self.assertEqual(service.getServiceNamed("web").factory.turns.perTurn, 3)
        self.assertIs(service.getServiceNamed("engine").factory.limits, limits)

    def test_bad(self) -> None:
        for argv in [["--allowed-origins", "example.org"], ["--max-write-buffer", "0"],
                     ["--message-rate", "-1"], ["--max-connections-per-peer", "-2"],
                     ["--web-requests-per-turn", "-1"]]:
            self.assertRaises(UsageError, tap.Options().parseOptions,
                              ["--db", self.mktemp(), *argv])


class BackpressureTests(SynchronousTestCase):
    """A peer that reads nothing is not read, and is aborted past C{maxWriteBuffer}."""

    def test_producerOfItsTransport(self) -> None:
        protocol, transport = engineConnection(Limits(), Clock())
        self.assertIs(transport.producer, protocol)
        self.assertTrue(transport.streaming)

    def test_notReadWhileBlocked(self) -> None:
        """While its transport's buffer is full, the connection is not read."""
        protocol, transport = engineConnection(Limits(), Clock())
        protocol.pauseProducing()
        self.assertEqual(transport.producerState, "paused")
        self.assertTrue(protocol.readingPaused)
        protocol.resumeProducing()
        self.assertEqual(transport.producerState, "producing")
        self.assertFalse(protocol.readingPaused)

    def test_abortedPastTheLimit(self) -> None:
        """Bytes written while blocked are counted; past the limit, abort, one log line."""
        log = LogLines(self)
        protocol, transport = engineConnection(Limits(maxWriteBuffer=2000), Clock())
        protocol.pauseProducing()
        message = {"type": "problem", "message": "x" * 80}
        size = len(protocol.serialize(message))
        for _ in range(2000 // size):
            protocol.sendMessage(message)
        self.assertFalse(transport.disconnecting)
        self.assertEqual(protocol.writeBacklog, 2000 // size * size)
        for _ in range(10):
            protocol.sendMessage(message)
        self.assertTrue(transport.disconnected)  # aborted, not waiting to flush
        self.assertLessEqual(protocol.writeBacklog, 2000 + size)
        self.assertLessEqual(len(transport.value()), 2000)
        self.assertEqual(len(log.having("the peer reads nothing")), 1)
        self.assertEqual(log.tracebacks(), [])

    def test_backlogForgottenOnceDrained(self) -> None:
        protocol, transport = engineConnection(Limits(maxWriteBuffer=2000), Clock())
        for _ in range(3):
            protocol.pauseProducing()
            for _ in range(15):
                protocol.sendMessage({"type": "problem", "message": "x" * 80})
            protocol.resumeProducing()
            self.assertEqual(protocol.writeBacklog, 0)
        self.assertFalse(transport.disconnecting)

    def test_closeUnregistersThenAborts(self) -> None:
        """A clean close lets the transport go, and aborts it if it does not flush in time."""
        clock = Clock()
        protocol, transport = engineConnection(Limits(closeTimeout=5), clock)
        protocol.dropConnection("test")
        self.assertIsNone(transport.producer)
        self.assertTrue(transport.disconnecting)
        self.assertFalse(transport.disconnected)
        clock.advance(5)
        self.assertTrue(transport.disconnected)

    def test_blockedCloseAborts(self) -> None:
        protocol, transport = engineConnection(Limits(), Clock())
        protocol.pauseProducing()
        protocol.dropConnection("test")
        self.assertTrue(transport.disconnected)


class WebSocketBackpressureTests(SynchronousTestCase):
    """A protocol over WebSocket is the producer of its request: the same backpressure."""

    def test_pausedAndAborted(self) -> None:
        clock = Clock()
        factory = engineFactory(Limits(maxWriteBuffer=2000), clock)
        built: list[EngineJsonServerProtocol] = []
        build = factory.buildProtocol

        def keep(address: Any) -> Any:
            built.append(build(address))  # type: ignore[arg-type]
            return built[-1]

        factory.buildProtocol = keep  # type: ignore[method-assign, assignment]
        site = makeSite({b"engine": MessageWebSocketResource(factory, 65536, text=True)},
                        Limits(), clock)
        connection = site.buildProtocol(PEER)
        transport = StringTransport(peerAddress=PEER)
        connection.makeConnection(transport)
        client = WSConnection(ConnectionType.CLIENT)
        connection.dataReceived(client.send(WSRequest(host="localhost", target="/engine")))
        (hosted,) = built
        channel: Any = transport.producer  # told by the transport when its buffer is full
        channel.pauseProducing()
        self.assertEqual(transport.producerState, "paused")
        self.assertTrue(hosted.readingPaused)
        channel.resumeProducing()
        self.assertEqual(transport.producerState, "producing")
        channel.pauseProducing()
        for _ in range(30):
            hosted.sendMessage({"type": "problem", "message": "x" * 80})
        self.assertTrue(transport.disconnected)
        self.assertLessEqual(hosted.writeBacklog, 2000 + 200)


class WebSocketFairShareTests(SynchronousTestCase):
    """A WebSocket's messages past its share wait their turn; it is not idle meanwhile."""

    def test_heldNotIdle(self) -> None:
        clock = Clock()
        limits = Limits(messageRate=10, messageBurst=5, webSocketIdleTimeout=2)
        factory = engineFactory(limits, clock)
        site = makeSite({b"engine": MessageWebSocketResource(factory, 65536, text=True)},
                        limits, clock)
        connection = site.buildProtocol(PEER)
        transport = StringTransport(peerAddress=PEER)
        connection.makeConnection(transport)
        client = WSConnection(ConnectionType.CLIENT)
        connection.dataReceived(client.send(WSRequest(host="localhost", target="/engine")))
        framing = Connection(ConnectionType.CLIENT)
        connection.dataReceived(b"".join(
            framing.send(TextMessage('{"type":"watch","game":999}')) for _ in range(50)))
        self.assertEqual(transport.value().count(b"no live game 999"), 5)
        self.assertEqual(transport.producerState, "paused")
        for _ in range(50):
            clock.advance(0.1)
        self.assertEqual(transport.value().count(b"no live game 999"), 50)
        self.assertEqual(transport.producerState, "producing")
        self.assertFalse(transport.disconnecting)
        clock.advance(1.1)  # pinged
        clock.advance(1)
        self.assertTrue(transport.disconnecting)  # then silent for 2 seconds


class FairShareTests(SynchronousTestCase):
    """Messages beyond a connection's share wait, reading paused; none is dropped."""

    def test_floodWaits(self) -> None:
        clock = Clock()
        protocol, transport = engineConnection(Limits(messageRate=10, messageBurst=3), clock)
        protocol.dataReceived(WATCH * 10)
        self.assertEqual(len(lines(transport)), 3)
        self.assertEqual(transport.producerState, "paused")
        clock.advance(0.1)
        self.assertEqual(len(lines(transport)), 4)
        for _ in range(10):
            clock.advance(0.1)
        self.assertEqual(len(lines(transport)), 10)
        self.assertEqual([m["type"] for m in lines(transport)], ["problem"] * 10)
        self.assertEqual(transport.producerState, "producing")
        self.assertFalse(transport.disconnecting)

    def test_burstAtOnce(self) -> None:
        """A burst within the share is answered at once, reading never paused."""
        protocol, transport = engineConnection(Limits(messageRate=10, messageBurst=20), Clock())
        protocol.dataReceived(WATCH * 20)
        self.assertEqual(len(lines(transport)), 20)
        self.assertEqual(transport.producerState, "producing")

    def test_noLimit(self) -> None:
        protocol, transport = engineConnection(Limits(messageRate=0), Clock())
        protocol.dataReceived(WATCH * 500)
        self.assertEqual(len(lines(transport)), 500)


class MessageDeadlineTests(SynchronousTestCase):
    """A message begun must be whole within C{messageTimeout}, however it trickles in."""

    def test_engineSlowMessage(self) -> None:
        log = LogLines(self)
        clock = Clock()
        protocol, transport = engineConnection(Limits(messageTimeout=30), clock)
        protocol.dataReceived(b'{"type":')
        clock.advance(29)
        protocol.dataReceived(b' "watch",')
        self.assertFalse(transport.disconnecting)
        clock.advance(1)
        self.assertTrue(transport.disconnecting)
        self.assertEqual(len(log.having("a message not complete 30 seconds after it began")), 1)
        self.assertEqual(log.tracebacks(), [])

    def test_engineWholeMessages(self) -> None:
        """Whole messages, then silence: no deadline runs."""
        clock = Clock()
        protocol, transport = engineConnection(Limits(messageTimeout=30), clock)
        for _ in range(5):
            protocol.dataReceived(WATCH)
            clock.advance(20)
        protocol.dataReceived(WATCH + b'{"type":')  # a new message begins now
        clock.advance(29)
        self.assertFalse(transport.disconnecting)
        protocol.dataReceived(b'"watch","game":999}\n')
        clock.advance(100)
        self.assertFalse(transport.disconnecting)

    def test_connect4SlowMessage(self) -> None:
        """The Protuissance 4 codec's bytes held count too (its own loop asks L{reading})."""
        clock = Clock()
        hub = Hub(clock, limits=Limits(messageTimeout=5))
        factory = Connect4ServerFactory(Connect4Server(Connect4Settings(), hub=hub))
        protocol = factory.buildProtocol(PEER)
        assert protocol is not None
        transport = StringTransport(peerAddress=PEER)
        protocol.makeConnection(transport)
        protocol.dataReceived(b"0ali")
        clock.advance(4)
        protocol.dataReceived(b"ce")
        self.assertFalse(transport.disconnecting)
        clock.advance(1)
        self.assertTrue(transport.disconnecting)


class PeerCapTests(SynchronousTestCase):
    """At most C{maxConnectionsPerPeer} connections of one peer on each port."""

    def test_gameFactory(self) -> None:
        log = LogLines(self)
        factory = engineFactory(Limits(maxConnectionsPerPeer=2), Clock())
        first, second = factory.buildProtocol(PEER), factory.buildProtocol(PEER)
        assert first is not None and second is not None
        for protocol in (first, second):
            protocol.makeConnection(StringTransport(peerAddress=PEER))
        self.assertIsNone(factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 1)))
        self.assertEqual(len(log.having("refused: over 2 connections from this peer")), 1)
        for _ in range(50):  # a peer hammering: its refusals logged at a bounded rate
            self.assertIsNone(factory.buildProtocol(PEER))
        self.assertEqual(len(log.having("refused: over 2 connections from this peer")), 5)
        self.assertIsNotNone(factory.buildProtocol(IPv4Address("TCP", "10.0.0.2", 1)))
        first.connectionLost(Failure(Exception("gone")))
        self.assertIsNotNone(factory.buildProtocol(PEER))

    def test_subclassOwnInit(self) -> None:
        """A factory subclass whose __init__ does not call its base still counts peers."""

        class Own(EngineJsonServerFactory):
            def __init__(self, server: EngineJsonServer) -> None:
                self.server = server

        factory = Own(engineFactory(Limits(maxConnectionsPerPeer=1), Clock()).server)
        self.assertIsNotNone(factory.buildProtocol(PEER))
        self.assertIsNone(factory.buildProtocol(PEER))

    def test_webSocketOverTheProtocolsCap(self) -> None:
        """A WebSocket of a protocol whose factory is at its cap for the peer gets 503."""
        log = LogLines(self)
        factory = engineFactory(Limits(maxConnectionsPerPeer=1), Clock())
        self.assertIsNotNone(factory.buildProtocol(PEER))  # a TCP connection, say
        site = makeSite({b"engine": MessageWebSocketResource(factory, 65536, text=True)},
                        None, Clock())  # the channel's idle time on a test clock, not the reactor
        channel = site.buildProtocol(PEER)
        assert channel is not None
        transport = StringTransport(peerAddress=PEER)
        channel.makeConnection(transport)
        client = WSConnection(ConnectionType.CLIENT)
        channel.dataReceived(client.send(WSRequest(host="localhost", target="/engine")))
        self.assertTrue(transport.value().startswith(b"HTTP/1.1 503 "), transport.value())
        self.assertEqual(len(log.having("refused: too many connections from this peer")), 1)

    def test_noCap(self) -> None:
        factory = engineFactory(Limits(maxConnectionsPerPeer=0), Clock())
        self.assertTrue(all(factory.buildProtocol(PEER) is not None for _ in range(200)))

    def test_site(self) -> None:
        site = makeSite({}, Limits(maxConnectionsPerPeer=2), Clock())
        log = LogLines(self)
        first, second = site.buildProtocol(PEER), site.buildProtocol(PEER)
        for _ in range(50):
            self.assertIsNone(site.buildProtocol(PEER))
        self.assertEqual(len(log.having("web 127.0.0.1: refused: over 2 connections")), 5)
        first.makeConnection(StringTransport(peerAddress=PEER))
        first.connectionLost(Failure(Exception("gone")))
        self.assertIsNotNone(site.buildProtocol(PEER))


class RequestDeadlineTests(SynchronousTestCase):
    """An HTTP request begun must be whole, headers and body, within C{requestTimeout}."""

    def connect(self) -> tuple[Clock, WebConnection, StringTransport]:
        clock = Clock()
        site = makeSite({b"x": Resource()}, Limits(requestTimeout=10), clock)
        connection = site.buildProtocol(PEER)
        assert isinstance(connection, WebConnection)
        transport = StringTransport(peerAddress=PEER)
        connection.makeConnection(transport)
        return clock, connection, transport

    def test_slowloris(self) -> None:
        log = LogLines(self)
        clock, connection, transport = self.connect()
        connection.dataReceived(b"GET / HTTP/1.1\r\n")
        for n in range(9):
            clock.advance(1)
            connection.dataReceived(b"X-%d: y\r\n" % n)
        self.assertFalse(transport.disconnecting)
        clock.advance(1)
        self.assertTrue(transport.disconnecting)
        self.assertEqual(len(log.having("a request not complete 10 seconds after it began")), 1)

    def test_wholeRequests(self) -> None:
        """Whole requests, one after the other: each has its own time."""
        clock, connection, transport = self.connect()
        for _ in range(3):
            connection.dataReceived(b"GET /x HTTP/1.1\r\nHost: a\r\n")
            clock.advance(9)
            connection.dataReceived(b"\r\n")
            self.assertIn(b"HTTP/1.1 ", transport.value())
            transport.clear()
        clock.advance(30)
        self.assertFalse(transport.disconnecting)

    def test_site(self) -> None:
        self.assertIsInstance(makeSite({}), WebSite)
        self.assertFalse(makeSite({}).displayTracebacks)


def webConnection(site: WebSite,
                  peer: IPv4Address = PEER) -> tuple[WebConnection, StringTransport]:
    """A connection to ``site`` from ``peer``, on a StringTransport."""
    connection = site.buildProtocol(peer)
    assert isinstance(connection, WebConnection)
    transport = StringTransport(peerAddress=peer)
    connection.makeConnection(transport)
    return connection, transport


def answered(transport: StringTransport) -> int:
    """The requests answered 200 on ``transport``."""
    return transport.value().count(b"HTTP/1.1 200")


class RequestShareTests(SynchronousTestCase):
    """Each peer is served C{messageRate} HTTP requests a second, whatever its connections."""

    REQUEST = b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"

    def site(self) -> tuple[Clock, WebSite]:
        clock = Clock()
        page = Resource()
        page.render_GET = lambda request: b"ok"  # type: ignore[attr-defined]
        site = makeSite({b"x": page},
                        Limits(messageRate=2, messageBurst=3, requestsPerTurn=0), clock)
        assert isinstance(site, WebSite)
        return clock, site

    def test_pipelinedAtItsPace(self) -> None:
        """Ten pipelined requests: three at once, then two a second; another peer at once."""
        clock, site = self.site()
        connection, transport = webConnection(site)
        connection.dataReceived(self.REQUEST * 10)
        self.assertEqual(answered(transport), 3)
        otherConnection, other = webConnection(site, IPv4Address("TCP", "127.0.0.2", 40001))
        otherConnection.dataReceived(self.REQUEST)
        self.assertEqual(answered(other), 1)
        for _ in range(4):
            clock.advance(0.5)
        self.assertEqual(answered(transport), 7)
        clock.advance(10)
        self.assertEqual(answered(transport), 10)

    def test_sharedByConnectionsForgottenAfter(self) -> None:
        """A peer's connections share its pace; once they are all gone, it is forgotten."""
        clock, site = self.site()
        first, second = webConnection(site)[0], webConnection(site)[0]
        for connection in (first, second, first):
            connection.dataReceived(self.REQUEST)
        self.assertGreater(site.requestWait("127.0.0.1"), 0)
        for connection in (first, second):
            connection.connectionLost(Failure(Exception("gone")))
        self.assertEqual(clock.getDelayedCalls(), [])
        self.assertEqual(site.requestWait("127.0.0.1"), 0.0)

    def test_waitingRequestDropped(self) -> None:
        """A connection gone while its request waits: nothing is left to run."""
        clock, site = self.site()
        connection, transport = webConnection(site)
        connection.dataReceived(self.REQUEST * 5)
        self.assertEqual(answered(transport), 3)
        connection.connectionLost(Failure(Exception("gone")))
        self.assertEqual(clock.getDelayedCalls(), [])


class Turns(Clock):
    """
    A Clock whose C{advance} runs the calls due when it begins, not those
    they schedule for the same time: those wait for the next C{advance},
    as a reactor runs a call made in its turn in the next one.
    """

    def advance(self, amount: float) -> None:
        self.rightNow += amount
        self._sortCalls()
        due = [call for call in self.calls if call.getTime() <= self.seconds()]
        for call in due:
            if call in self.calls:  # (not cancelled by one before it)
                self.calls.remove(call)
                call.called = 1
                call.func(*call.args, **call.kw)


class TurnShareTests(SynchronousTestCase):
    """At most C{perTurn} pieces of work in a turn of the reactor; the others wait, in order."""

    def test_share(self) -> None:
        clock = Turns()
        share = TurnShare(2, clock)
        done: list[int] = []

        def work(n: int) -> Callable[[], bool]:
            def do() -> bool:
                done.append(n)
                return True
            return do

        self.assertEqual([share.offer(work(n)) for n in range(5)],
                         [True, True, False, False, False])
        self.assertEqual((share.done, share.waiting), (2, 3))
        clock.advance(0)  # the next turn: two of those that waited
        self.assertEqual((done, share.waiting), ([2, 3], 1))
        self.assertFalse(share.offer(work(5)))  # behind the one still waiting
        clock.advance(0)
        self.assertEqual((done, share.waiting), ([2, 3, 4, 5], 0))
        clock.advance(0)  # a turn with nothing to do: no call is left behind
        self.assertEqual((share.done, clock.getDelayedCalls()), (0, []))
        self.assertTrue(share.offer(work(6)))
        self.assertEqual(len(clock.getDelayedCalls()), 1)  # the turn's end, to count again

    def test_calledOff(self) -> None:
        """Work called off while it waited takes no share of its turn."""
        clock = Turns()
        share = TurnShare(1, clock)
        done: list[str] = []
        self.assertTrue(share.offer(lambda: True))
        share.offer(lambda: False)

        def second() -> bool:
            done.append("second")
            return True

        share.offer(second)
        clock.advance(0)
        self.assertEqual((done, share.waiting), (["second"], 0))

    def test_noBound(self) -> None:
        clock = Turns()
        share = TurnShare(0, clock)
        self.assertTrue(all(share.offer(lambda: True) for _ in range(100)))
        self.assertEqual(clock.getDelayedCalls(), [])


class WebTurnShareTests(SynchronousTestCase):
    """The web port serves C{requestsPerTurn} requests in a turn of the reactor, all peers together."""

    REQUEST = RequestShareTests.REQUEST

    def site(self, perTurn: int, **limits: Any) -> tuple[Clock, WebSite]:
        clock = Turns()
        page = Resource()
        page.render_GET = lambda request: b"ok"  # type: ignore[attr-defined]
        engine = MessageWebSocketResource(
            engineFactory(Limits(messageRate=0), clock), 65536, text=True)
        site = makeSite({b"x": page, b"engine": engine},
                        Limits(**{"messageRate": 0, "requestsPerTurn": perTurn, **limits}),
                        clock)
        assert isinstance(site, WebSite)
        return clock, site

    def test_burst(self) -> None:
        """Six connections' requests in one turn: three served, then three in the next turn."""
        clock, site = self.site(3)
        connections = [webConnection(site) for _ in range(6)]
        for connection, _ in connections:
            connection.dataReceived(self.REQUEST)
        self.assertEqual([answered(transport) for _, transport in connections],
                         [1, 1, 1, 0, 0, 0])
        clock.advance(0)
        self.assertEqual([answered(transport) for _, transport in connections], [1] * 6)
        clock.advance(0)
        self.assertEqual((site.turns.done, site.turns.waiting), (0, 0))

    def test_pipelined(self) -> None:
        """A connection's pipelined requests, beyond the turn's share, one turn after another."""
        clock, site = self.site(2)
        connection, transport = webConnection(site)
        connection.dataReceived(self.REQUEST * 5)
        self.assertEqual(answered(transport), 2)
        clock.advance(0)
        self.assertEqual(answered(transport), 4)
        clock.advance(0)
        self.assertEqual(answered(transport), 5)

    def test_goneWhileWaiting(self) -> None:
        """A connection gone while its request waits: the request is dropped and takes no share."""
        clock, site = self.site(1)
        (first, _), (second, _), (third, last) = [
            webConnection(site) for _ in range(3)]
        for connection in (first, second, third):
            connection.dataReceived(self.REQUEST)
        second.connectionLost(Failure(Exception("gone")))
        clock.advance(0)
        self.assertEqual(answered(last), 1)

    def test_upgradeInALaterTurn(self) -> None:
        """
        A WebSocket upgrade served in a later turn is a WebSocket: its frames
        begin no HTTP request, and no request deadline closes it.
        """
        self.checkLateUpgrade(*self.site(1, requestTimeout=5), wait=0)

    def checkLateUpgrade(self, clock: Clock, site: WebSite, wait: float) -> None:
        """
        Once a first request is served, an upgrade waits ``wait`` seconds,
        then is a WebSocket that no request deadline (5 s) closes.
        """
        first, _ = webConnection(site)
        first.dataReceived(self.REQUEST)
        connection, transport = webConnection(site)
        client = WSConnection(ConnectionType.CLIENT)
        connection.dataReceived(client.send(WSRequest(host="localhost", target="/engine")))
        self.assertEqual(transport.value(), b"")  # it waits
        clock.advance(wait)
        self.assertIn(b"101 Switching Protocols", transport.value())
        framing = Connection(ConnectionType.CLIENT)
        connection.dataReceived(framing.send(TextMessage('{"type":"watch","game":999}')))
        self.assertIn(b"no live game 999", transport.value())
        clock.advance(6)
        self.assertFalse(transport.disconnecting)

    def test_upgradeWithFramesInALaterTurn(self) -> None:
        """
        Frames sent in the same chunk as an upgrade that waits for a later
        turn reach the WebSocket once it is served, small or over the 16 KiB
        the HTTP channel reads ahead (it paused reading: reading resumes).
        """
        for padding in (0, 20000):
            clock, site = self.site(1)
            first, _ = webConnection(site)
            first.dataReceived(self.REQUEST)
            connection, transport = webConnection(site)
            client = WSConnection(ConnectionType.CLIENT)
            framing = Connection(ConnectionType.CLIENT)
            watch = '{"type":"watch","game":999}' + " " * padding
            connection.dataReceived(
                client.send(WSRequest(host="localhost", target="/engine"))
                + b"".join(framing.send(TextMessage(watch)) for _ in range(3)))
            self.assertEqual(transport.value(), b"")
            if padding:
                self.assertEqual(transport.producerState, "paused")
            clock.advance(0)
            self.assertIn(b"101 Switching Protocols", transport.value())
            self.assertEqual(transport.value().count(b"no live game 999"), 3, padding)
            self.assertEqual(transport.producerState, "producing")
            self.assertFalse(transport.disconnecting)

    def test_upgradeAtItsPace(self) -> None:
        """The same for an upgrade that waited for its peer's share of requests."""
        clock, site = self.site(0, requestTimeout=5, messageRate=1, messageBurst=1)
        self.checkLateUpgrade(clock, site, wait=1)


class PlainRequest(DummyRequest):
    """A WebSocket upgrade request (its handshake's headers) over plain HTTP."""

    def __init__(self, postpath: list[bytes]) -> None:
        super().__init__(postpath)
        self.path = b"/" + b"/".join(postpath)
        for name, value in ((b"upgrade", b"websocket"), (b"connection", b"Upgrade"),
                            (b"sec-websocket-version", b"13"),
                            (b"sec-websocket-key", b"dGhlIHNhbXBsZSBub25jZQ==")):
            self.requestHeaders.setRawHeaders(name, [value])

    def isSecure(self) -> bool:
        return False


class OriginTests(SynchronousTestCase):
    """Which pages may open the WebSockets."""

    def request(self, origin: str | None, host: str = "games.example:8080") -> Any:
        request = PlainRequest([b"engine"])
        request.requestHeaders.setRawHeaders(b"host", [host.encode()])
        if origin is not None:
            request.requestHeaders.setRawHeaders(b"origin", [origin.encode()])
        return request

    def test_ownOrigin(self) -> None:
        self.assertTrue(originAllowed(self.request("http://games.example:8080")))
        self.assertTrue(originAllowed(self.request("HTTP://Games.Example:8080/")))
        self.assertTrue(originAllowed(self.request("http://games.example", "games.example:80")))

    def test_noOrigin(self) -> None:
        self.assertTrue(originAllowed(self.request(None)))

    def test_otherOrigins(self) -> None:
        for origin in ["http://evil.example", "http://games.example:8081", "null",
                       "https://games.example:8080", "http://games.example.evil.example:8080"]:
            self.assertFalse(originAllowed(self.request(origin)), origin)

    def test_allowed(self) -> None:
        allowed = Limits(allowedOrigins=["https://Friend.example/"]).allowedOrigins
        self.assertTrue(originAllowed(self.request("https://friend.example"), allowed))
        self.assertTrue(originAllowed(self.request("https://friend.example:443"), allowed))
        self.assertFalse(originAllowed(self.request("http://friend.example"), allowed))


class ClosedByPeer:
    """
    A WebSocket transport as Twisted's is once the peer's close frame is
    read: a real wsproto connection, which then refuses to send messages.
    """

    def __init__(self) -> None:
        self.connection = Connection(ConnectionType.SERVER)
        peer = Connection(ConnectionType.CLIENT)
        self.connection.receive_data(peer.send(CloseConnection(1000)))
        for event in self.connection.events():
            if isinstance(event, CloseConnection):
                self.connection.send(event.response())
        self.sent: list[bytes] = []

    def sendTextMessage(self, text: str) -> None:
        self.sent.append(self.connection.send(TextMessage(text)))

    def sendBytesMessage(self, data: bytes) -> None:
        self.sent.append(self.connection.send(BytesMessage(data)))

    def ping(self, payload: bytes = b"") -> None:
        self.sent.append(self.connection.send(Ping(payload)))

    def loseConnection(self, code: int = 1000) -> None:
        self.sent.append(self.connection.send(CloseConnection(code)))


class ClosedByPeerTests(SynchronousTestCase):
    """
    Between the peer's close frame and connectionLost, what the server
    writes (another seat's move, a ping) is dropped, not raised.
    """

    def test_writesDropped(self) -> None:
        for text in [True, False]:
            ws = ClosedByPeer()
            transport = MessageTransport(cast(Any, ws), PEER, PEER, text=text)
            transport.write(b'{"type":"instructions"}')
            transport.writeSequence([b"a", b"b"])
            transport.ping(b"gameproto")
            self.assertTrue(transport.disconnecting)
            self.assertEqual(ws.sent, [])
            transport.loseConnection(1001)
            self.assertEqual(ws.sent, [])


# -- over the network ------------------------------------------------------------


class Raw(Protocol):
    """A client that keeps every byte it receives."""

    def __init__(self) -> None:
        self.data = b""
        self.closed: defer.Deferred[None] = defer.Deferred()
        self.gone = False

    def dataReceived(self, data: bytes) -> None:
        self.data += data

    def connectionLost(self, reason: Failure = Failure(Exception())) -> None:
        self.gone = True
        self.closed.callback(None)

    def lines(self) -> list[bytes]:
        return self.data.splitlines()


def stopWhenDone(case: TestCase, loop: LoopingCall) -> None:
    """Stop ``loop`` when the test is over, if it still runs."""

    def stop() -> None:
        if loop.running:
            loop.stop()

    case.addCleanup(stop)


async def connect(port: int, protocol: Raw | None = None) -> Raw:
    client = protocol or Raw()
    await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", port), client)
    return client


async def wait(check: Callable[[], bool], seconds: float) -> bool:
    await until(check, seconds)
    return check()


def upgrade(port: int, origin: str | None = None, path: str = "/engine") -> bytes:
    headers = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
               "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
               "Sec-WebSocket-Version: 13"]
    if origin is not None:
        headers.append(f"Origin: {origin}")
    return ("\r\n".join(headers) + "\r\n\r\n").encode()


def framesAfterUpgrade(data: bytes) -> list[Any]:
    """The WebSocket events the server sent after its 101 response."""
    _, _, frames = data.partition(b"\r\n\r\n")
    reader = Connection(ConnectionType.CLIENT)
    reader.receive_data(frames)
    return list(reader.events())


class LoopbackTests(TestCase):
    """The real service on 127.0.0.1, with small limits so that tests are quick."""

    async def serve(self, *options: str) -> Server:
        server = Server(self, [], "--message-rate", "20", "--message-burst", "20",
                        "--message-timeout", "0.5", "--request-timeout", "0.5",
                        "--websocket-idle-timeout", "1",
                        "--allowed-origins", "https://friend.example", *options,
                        ports=("web", "engine"))
        await server.start()
        self.addCleanup(server.stop)
        return server

    async def test_flooderPausedOthersAnswered(self) -> None:
        """A flooding connection is paused, not dropped; another one is answered meanwhile."""
        server = await self.serve()
        flooder = await connect(server.ports["engine"])
        flooder.transport.write(WATCH * 2000)  # type: ignore[union-attr]
        await wait(lambda: len(flooder.lines()) >= 21, 5)
        other = await connect(server.ports["engine"])
        await wait(lambda: len(other.lines()) >= 1, 5)  # hello
        other.transport.write(WATCH)  # type: ignore[union-attr]
        self.assertTrue(await wait(lambda: len(other.lines()) >= 2, 2))
        self.assertIn(b"no live game 999", other.lines()[1])
        self.assertLess(len(flooder.lines()), 400)  # 20 at once, 20 a second: not 2000
        self.assertFalse(flooder.gone)
        flooder.transport.loseConnection()  # type: ignore[union-attr]
        other.transport.loseConnection()  # type: ignore[union-attr]
        await flooder.closed
        await other.closed
        engine = server.service.getServiceNamed("engine").factory
        self.assertTrue(await wait(lambda: not engine.peers.counts, 5))  # its next write fails

    async def test_slowlorisEngine(self) -> None:
        """Bytes trickling in do not keep a message begun alive past its deadline."""
        server = await self.serve()
        client = await connect(server.ports["engine"])
        client.transport.write(b'{"type":')  # type: ignore[union-attr]
        trickle = LoopingCall(client.transport.write, b" ")  # type: ignore[union-attr]
        trickle.start(0.05)
        stopWhenDone(self, trickle)
        self.assertTrue(await wait(lambda: client.gone, 3))

    async def test_slowlorisHTTP(self) -> None:
        server = await self.serve()
        client = await connect(server.ports["web"])
        client.transport.write(b"GET /api HTTP/1.1\r\n")  # type: ignore[union-attr]
        trickle = LoopingCall(client.transport.write, b"X: y\r\n")  # type: ignore[union-attr]
        trickle.start(0.05)
        stopWhenDone(self, trickle)
        self.assertTrue(await wait(lambda: client.gone, 3))

    async def upgradeAnswer(self, port: int, origin: str | None) -> bytes:
        client = await connect(port)
        client.transport.write(upgrade(port, origin))  # type: ignore[union-attr]
        await wait(lambda: b"\r\n\r\n" in client.data, 3)
        client.transport.abortConnection()  # type: ignore[union-attr]
        await client.closed
        return client.data.split(b"\r\n", 1)[0]

    async def test_origins(self) -> None:
        """Another site's page gets 403; the page's own, a friend's, and programs get 101."""
        server = await self.serve()
        port = server.ports["web"]
        self.assertEqual(await self.upgradeAnswer(port, "http://evil.example"),
                         b"HTTP/1.1 403 Forbidden")
        for origin in [None, f"http://127.0.0.1:{port}", "https://friend.example"]:
            self.assertEqual(await self.upgradeAnswer(port, origin),
                             b"HTTP/1.1 101 Switching Protocols", origin)

    async def test_notAnUpgrade(self) -> None:
        """
        A GET of a WebSocket path without the handshake (a browser's plain
        visit, a wrong version): 400 with the reason, one fault line a peer
        at the faults' rate, no error line; a real upgrade goes on working.
        """
        logged = LogCapture(self)
        server = await self.serve()
        port = server.ports["web"]
        plain = f"GET /engine HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        wrongVersion = upgrade(port).replace(b"Version: 13", b"Version: 8")
        answers = []
        for request in [plain] * 8 + [wrongVersion]:
            client = await connect(port)
            client.transport.write(request)  # type: ignore[union-attr]
            await wait(lambda: b"\r\n\r\n" in client.data, 3)
            client.transport.abortConnection()  # type: ignore[union-attr]
            await client.closed
            answers.append(client.data)
        self.assertEqual({a.split(b"\r\n", 1)[0] for a in answers}, {b"HTTP/1.1 400 Bad Request"})
        self.assertIn(b"Missing header, 'Connection: Upgrade'", answers[0])
        self.assertIn(b"Sec-WebSocket-Version", answers[-1])
        self.assertEqual(logged.failures(), [])
        self.assertEqual([e for e in logged.events if e.get("log_level") is not None
                          and e["log_level"].name == "error"], [])
        refused = logged.lines("gameproto.faults")
        self.assertEqual(len([line for line in refused if "not a WebSocket upgrade" in line]),
                         5)  # the faults' rate: 5 a minute a peer
        self.assertEqual(await self.upgradeAnswer(port, None), b"HTTP/1.1 101 Switching Protocols")

    async def test_poisonedUpgrade(self) -> None:
        """
        An upgrade with a too-big message in the same write is closed (1009),
        and its connection goes: nothing is left paused for ever.
        """
        server = await self.serve()
        port = server.ports["web"]
        site = server.service.getServiceNamed("web").factory
        frames = Connection(ConnectionType.CLIENT).send(TextMessage("x" * 70_000))
        clients = []
        for _ in range(3):
            client = await connect(port)
            client.transport.write(upgrade(port) + frames)  # type: ignore[union-attr]
            clients.append(client)
        for client in clients:
            self.assertTrue(await wait(lambda: client.gone, 5))
            closes = [e for e in framesAfterUpgrade(client.data)
                      if isinstance(e, CloseConnection)]
            self.assertEqual([e.code for e in closes], [1009])
        self.assertTrue(await wait(lambda: not site.peers.counts, 5))

    async def test_firstMessagesWithTheUpgrade(self) -> None:
        """Messages sent in the same write as the upgrade are read and answered."""
        server = await self.serve()
        port = server.ports["web"]
        frames = Connection(ConnectionType.CLIENT).send(
            TextMessage('{"type":"watch","game":999}'))
        client = await connect(port)
        client.transport.write(upgrade(port) + frames)  # type: ignore[union-attr]
        self.assertTrue(await wait(lambda: b"no live game 999" in client.data, 3))
        client.transport.abortConnection()  # type: ignore[union-attr]
        await client.closed

    async def test_burstEveryRequestServed(self) -> None:
        """
        Twenty connections' requests and upgrades (each with 20 KiB of
        frames) at once, one request served a turn: every one is answered.
        """
        server = await self.serve("--web-requests-per-turn", "1")
        port = server.ports["web"]
        watch = '{"type":"watch","game":999}' + " " * 20000
        frames = Connection(ConnectionType.CLIENT).send(TextMessage(watch))
        plain = [await connect(port) for _ in range(16)]
        upgraded = [await connect(port) for _ in range(4)]
        for client in plain:
            client.transport.write(  # type: ignore[union-attr]
                b"GET /api/games HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        for client in upgraded:
            client.transport.write(upgrade(port) + frames)  # type: ignore[union-attr]
        self.assertTrue(await wait(lambda: all(c.gone for c in plain), 5))
        self.assertEqual([c.data.split(b"\r\n", 1)[0] for c in plain], [b"HTTP/1.1 200 OK"] * 16)
        self.assertTrue(await wait(
            lambda: all(b"no live game 999" in c.data for c in upgraded), 5))
        web = server.service.getServiceNamed("web").factory
        self.assertEqual((web.turns.waiting, web.turns.perTurn), (0, 1))
        for client in upgraded:
            client.transport.abortConnection()  # type: ignore[union-attr]
            await client.closed

    async def test_webSocketFlood(self) -> None:
        """A WebSocket's messages past its share are held and answered at its pace, none dropped."""
        server = await self.serve()
        port = server.ports["web"]
        framing = Connection(ConnectionType.CLIENT)
        frames = b"".join(framing.send(TextMessage('{"type":"watch","game":999}'))
                          for _ in range(200))
        client = await connect(port)
        client.transport.write(upgrade(port) + frames)  # type: ignore[union-attr]
        answered = lambda: client.data.count(b"no live game 999")  # noqa: E731
        await wait(lambda: answered() >= 20, 3)
        await until(lambda: False, 0.3)
        self.assertLess(answered(), 100)  # 20 at once, 20 a second: not 200
        self.assertTrue(await wait(lambda: answered() >= 40, 3))
        self.assertFalse(client.gone)
        client.transport.abortConnection()  # type: ignore[union-attr]
        await client.closed

    async def test_slowWebSocketMessage(self) -> None:
        """Fragments trickling in do not keep a WebSocket message begun alive (1008)."""
        server = await self.serve()
        port = server.ports["web"]
        client = await connect(port)
        client.transport.write(upgrade(port))  # type: ignore[union-attr]
        framing = Connection(ConnectionType.CLIENT)
        trickle = LoopingCall(lambda: client.transport.write(  # type: ignore[union-attr]
            framing.send(TextMessage("{", message_finished=False))))
        trickle.start(0.05)
        stopWhenDone(self, trickle)
        self.assertTrue(await wait(lambda: client.gone, 3))
        closes = [e for e in framesAfterUpgrade(client.data) if isinstance(e, CloseConnection)]
        self.assertEqual([e.code for e in closes], [1008])

    async def test_stalledFrameHeader(self) -> None:
        """
        A frame's header sent in part, or whole with no payload after it,
        is a message begun: not whole after --message-timeout, closed (1008).
        """
        server = await self.serve()
        port = server.ports["web"]
        # A masked binary frame of 300 bytes: 0x82, 0x80|126, 2 length bytes, 4 mask bytes.
        header = b"\x82\xfe\x01\x2c" + b"\x00" * 4
        for sent in (header[:3], header):
            client = await connect(port)
            client.transport.write(upgrade(port) + sent)  # type: ignore[union-attr]
            self.assertTrue(await wait(lambda: client.gone, 3), sent)
            closes = [e for e in framesAfterUpgrade(client.data)
                      if isinstance(e, CloseConnection)]
            self.assertEqual([e.code for e in closes], [1008], sent)

    async def test_hugeFrameAnnounced(self) -> None:
        """A frame whose header announces more than a message may hold: closed (1009) at once."""
        server = await self.serve()
        port = server.ports["web"]
        client = await connect(port)
        client.transport.write(  # type: ignore[union-attr]
            upgrade(port) + b"\x81\xff" + (1 << 40).to_bytes(8, "big") + b"\x00" * 4)
        self.assertTrue(await wait(lambda: client.gone, 0.4))
        closes = [e for e in framesAfterUpgrade(client.data) if isinstance(e, CloseConnection)]
        self.assertEqual([e.code for e in closes], [1009])

    async def test_frameAfterClose(self) -> None:
        """A ping in the same write as the message that closes a WebSocket: no traceback."""
        log = LogLines(self)
        server = await self.serve()
        port = server.ports["web"]
        client = await connect(port)
        client.transport.write(upgrade(port))  # type: ignore[union-attr]
        await wait(lambda: b"\r\n\r\n" in client.data, 3)
        framing = Connection(ConnectionType.CLIENT)
        client.transport.write(framing.send(BytesMessage(b"binary"))  # type: ignore[union-attr]
                               + framing.send(Ping(b"ping")))
        self.assertTrue(await wait(lambda: client.gone, 3))
        closes = [e for e in framesAfterUpgrade(client.data) if isinstance(e, CloseConnection)]
        self.assertEqual([e.code for e in closes], [1003])
        self.assertEqual(log.tracebacks(), [])

    async def test_idleWebSocket(self) -> None:
        """A WebSocket that answers nothing is pinged, then closed (1001)."""
        server = await self.serve()
        port = server.ports["web"]
        client = await connect(port)
        client.transport.write(upgrade(port))  # type: ignore[union-attr]
        self.assertTrue(await wait(lambda: client.gone, 4))
        events = framesAfterUpgrade(client.data)
        self.assertTrue(any(isinstance(e, Ping) for e in events))
        self.assertEqual([e.code for e in events if isinstance(e, CloseConnection)], [1001])


class Firehose(WireProtocol):
    """Writes 16 KiB chunks without being asked, keeping the largest backlog it saw."""

    chunk = b"x" * 16384
    serialize = staticmethod(bytes)

    def connectionMade(self) -> None:
        super().connectionMade()
        self.peak = 0
        self.sent = 0
        self.pump = LoopingCall(self.write)
        self.pump.start(0.001)

    def write(self) -> None:
        for _ in range(4):
            if self._closing:
                return
            if self.sent >= 2000:  # 32 MiB and still there: the test fails
                self.transport.abortConnection()  # type: ignore[union-attr]
                return
            self.sendMessage(self.chunk)
            self.sent += 1
            self.peak = max(self.peak, self.writeBacklog)

    def connectionLost(self, reason: Failure = Failure(Exception())) -> None:
        super().connectionLost(reason)
        self.pump.stop()
        self.factory.lost.callback(self)  # type: ignore[attr-defined]


class Shell:
    """A server with a hub and its limits."""

    def __init__(self, limits: Limits, clock: IReactorTime) -> None:
        self.hub = Hub(clock, limits=limits)
        self.clock = clock


class NeverReadingTests(TestCase):
    """A client that reads nothing costs the server C{maxWriteBuffer} at most, then goes."""

    async def test_dropped(self) -> None:
        limit = 256 * 1024
        factory: GameServerFactory[Shell, Firehose] = GameServerFactory(
            Shell(Limits(maxWriteBuffer=limit), reactor), Firehose)  # type: ignore[arg-type]
        lost: defer.Deferred[Firehose] = defer.Deferred()
        factory.lost = lost  # type: ignore[attr-defined]
        port = await TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(factory)
        self.addCleanup(port.stopListening)
        client = Raw()
        await connect(port.getHost().port, client)  # type: ignore[attr-defined]
        client.transport.pauseProducing()  # type: ignore[union-attr]
        gone = await lost
        self.assertLess(gone.sent, 2000)  # dropped before the firehose ran dry
        self.assertLessEqual(gone.peak, limit + len(Firehose.chunk))
        client.transport.resumeProducing()  # type: ignore[union-attr]
        await client.closed


class PipelinedStaticTests(TestCase):
    """
    A client pipelining GETs of a static file while the server's transport
    is full (it reads nothing): each is answered once the transport drains,
    and no C{NotPaused} traceback is logged.
    """

    async def test_pausedTransport(self) -> None:
        log = LogLines(self)
        site = makeSite({}, None, Clock())  # the channel's idle time on a test clock
        connection = site.buildProtocol(PEER)
        transport = StringTransport(peerAddress=PEER)
        connection.makeConnection(transport)
        self.addCleanup(connection.connectionLost, Failure(Exception("done")))
        channel: Any = transport.producer
        channel.pauseProducing()  # the transport's buffer is full
        connection.dataReceived(b"GET /static/app.js HTTP/1.1\r\nHost: x\r\n\r\n" * 3)
        for sent in range(1, 4):  # the transport drains, and fills again as the next file begins
            channel.resumeProducing()
            await until(lambda: transport.value().count(b"HTTP/1.1 200 ") == sent, 2.0)
            channel.pauseProducing()
        channel.resumeProducing()
        self.assertEqual(transport.value().count(b"HTTP/1.1 200 "), 3)
        self.assertEqual(log.tracebacks(), [])
        self.assertEqual(self.flushLoggedErrors(), [])


class DeclaredHooksTests(SynchronousTestCase):
    """
    What the connections and the WebSocket endpoints use of a factory is
    declared (L{ConnectionSource}), and so is the way to a hub's metrics.
    """

    def test_gameServerFactory(self) -> None:
        factory = engineFactory(Limits(), Clock())
        hub = factory.server.hub
        self.assertIsInstance(factory, ConnectionSource)
        self.assertIs(factory.faults, hub.faults)
        self.assertIs(factory.metrics, hub.metrics)
        self.assertEqual(factory.logName, "engine")
        self.assertIsInstance(hub, LimitsHub)
        self.assertIsInstance(factory.server, HubServer)

    def test_serverWithoutHub(self) -> None:
        """A server without a hub: no limits, no faults, no metrics."""
        factory: GameServerFactory[object, WireProtocol] = GameServerFactory(object(), WireProtocol)
        self.assertEqual((factory.limits, factory.clock, factory.faults, factory.metrics),
                         (None, None, None, None))
        self.assertTrue(factory.admits(PEER))

    def test_ownSource(self) -> None:
        """Any factory providing L{ConnectionSource} is asked whether a peer may connect."""
        clock = Clock()
        hub = Hub(clock)

        class Closed:
            """A factory admitting nobody."""

            limits = Limits()
            faults = hub.faults
            metrics = hub.metrics
            logName = "closed"

            def __init__(self) -> None:
                self.clock = clock

            def admits(self, address: Any) -> bool:
                return False

            def buildProtocol(self, address: Any) -> Any:
                raise AssertionError("not admitted: never built")

        resource = MessageWebSocketResource(Closed(), 1000)
        request = PlainRequest([b"closed"])
        request.requestHeaders.setRawHeaders(b"host", [b"games.example"])
        resource.render_GET(request)  # type: ignore[arg-type]
        self.assertEqual(request.responseCode, 503)
        self.assertEqual(hub.metrics.registry.get_sample_value(
            "gameproto_refused_total", {"protocol": "closed", "cause": "too-many"}), 1)

    def test_metricsHolders(self) -> None:
        """A connection leads to its hub's metrics through its factory and server."""
        protocol, _ = engineConnection(Limits(), Clock())
        factory = protocol.factory
        assert factory is not None
        server: Any = factory.server  # type: ignore[attr-defined]
        self.assertIsInstance(protocol, FactoryHolder)
        self.assertIsInstance(server, HubHolder)
        self.assertIsInstance(server.hub, MetricsHolder)
        self.assertIs(metricsOf(protocol), server.hub.metrics)
        self.assertIs(metricsOf(server), server.hub.metrics)
        self.assertIsNone(metricsOf(object()))

    def test_sourceAtOnce(self) -> None:
        """
        A L{GameServerFactory} is a source without the runtime protocol's
        check (L{isConnectionSource}); anything else is checked as before.
        """
        factory = engineFactory(Limits(), Clock())
        self.assertTrue(isConnectionSource(factory))
        self.assertFalse(isConnectionSource(object()))
        self.assertEqual(isConnectionSource(Factory()), isinstance(Factory(), ConnectionSource))

    def test_hubCheckedAgainWhenChanged(self) -> None:
        """
        The factory's hub and clock follow its server's: another hub, or
        none, is seen at once.
        """
        clock = Clock()
        factory = engineFactory(Limits(), clock)
        first = factory.server.hub
        self.assertIs(factory.hub, first)
        self.assertIs(factory.clock, clock)
        other = Hub(Clock(), limits=Limits(maxConnectionsPerPeer=3))
        factory.server.hub = other
        self.assertIs(factory.hub, other)
        self.assertIs(factory.limits, other.limits)
        factory.server.hub = object()  # type: ignore[assignment]
        self.assertIsNone(factory.hub)
        self.assertIs(factory.clock, clock)  # a server with a hub and a clock: its clock
        server = factory.server
        factory.server = object()  # type: ignore[assignment]
        self.assertIsNone(factory.hub)
        self.assertIsNone(factory.clock)
        factory.server = server
        server.hub = first
        self.assertIs(factory.hub, first)
        self.assertIs(factory.clock, clock)

    def test_connectionsUseTheFactorysParts(self) -> None:
        """A connection takes its fault log and metrics from its factory (the hub's)."""
        protocol, _ = engineConnection(Limits(), Clock())
        hub = protocol.factory.server.hub  # type: ignore[union-attr]
        self.assertIs(protocol._faults, hub.faults)
        self.assertIs(protocol._metrics, hub.metrics)
        self.assertIs(protocol._metrics, metricsOf(protocol))
