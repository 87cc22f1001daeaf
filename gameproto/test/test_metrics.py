"""Prometheus metrics: what each layer counts, and where they are served."""

from __future__ import annotations

import io
import json
from typing import Any

import treq
from twisted.internet import reactor
from twisted.internet.abstract import FileDescriptor
from twisted.internet.defer import Deferred, DeferredSemaphore
from twisted.internet.task import Clock
from twisted.internet.testing import MemoryReactor, StringTransport
from twisted.python import usage
from twisted.trial.unittest import SynchronousTestCase, TestCase
from twisted.web.client import HTTPConnectionPool
from twisted.web.resource import Resource, getChildForRequest
from twisted.web.test.requesthelper import DummyRequest
from wsproto import WSConnection
from wsproto.connection import Connection, ConnectionType
from wsproto.events import Request as WSRequest
from wsproto.events import TextMessage

from gameproto import metrics, tap
from gameproto.metrics import MetricsResource
from gameproto._compat import pendingWriteBytes
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import Table
from gameproto.net import Limits
from gameproto.web.api import API
from gameproto.web.site import WebConnection, WebSite, makeSite
from gameproto.web.websocket import MessageWebSocketResource
from gameproto.test.service_helpers import Server, onlyPorts
from gameproto.test.test_limits import (
    PEER,
    PlainRequest,
    RequestShareTests,
    Turns,
    engineConnection,
    engineFactory,
    webConnection,
)


def sample(hub: Hub, name: str, **labels: str) -> float | None:
    """One sample of ``hub``'s metrics, as a scrape would read it."""
    value: float | None = hub.metrics.registry.get_sample_value(name, labels)
    return value


def playedGame(case: SynchronousTestCase, hub: Hub, clock: Clock) -> Table:
    """A game of Protuissance 4 between two bots, hosted by ``hub``, played to its end."""
    made: list[Any] = []
    hub.newGame("connect4", {}, [1, 2]).addCallback(made.append)
    table = made[0]
    case.assertIsInstance(table, Table)
    for _ in range(1000):
        if table.finished:
            break
        clock.advance(1)
    case.assertTrue(table.finished)
    return table


class HubMetricsTests(SynchronousTestCase):
    """Each hub owns its metrics; games, actions and the store are counted there."""

    def test_registryPerHub(self) -> None:
        """Two hubs (two services in one process) never share a figure."""
        clock = Clock()
        one, other = Hub(clock), Hub(clock)
        self.assertIsNot(one.metrics.registry, other.metrics.registry)
        playedGame(self, one, clock)
        self.assertEqual(sample(one, "gameproto_games_started_total", game="connect4"), 1)
        self.assertIsNone(sample(other, "gameproto_games_started_total", game="connect4"))

    def test_gamesAndActions(self) -> None:
        """Live games are a gauge by game; actions accepted a counter by game."""
        clock = Clock()
        hub = Hub(clock)
        made: list[Any] = []
        hub.newGame("connect4", {}, []).addCallback(made.append)
        self.assertEqual(sample(hub, "gameproto_games", game="connect4"), 1)
        table = playedGame(self, hub, clock)
        self.assertEqual(sample(hub, "gameproto_games_started_total", game="connect4"), 2)
        self.assertEqual(sample(hub, "gameproto_actions_total", game="connect4"), table.turn)
        self.assertGreater(table.turn, 6)
        self.assertEqual(sample(hub, "gameproto_games", game="connect4"), 1)
        made[0].abort("over")
        self.assertIsNone(sample(hub, "gameproto_games", game="connect4"))

    def test_storeLatency(self) -> None:
        """Every write of the SQLite store is timed, by operation."""
        clock = Clock()
        hub = Hub(clock, SQLiteRecordStore(":memory:"))
        self.addCleanup(hub.store.close)  # type: ignore[attr-defined]
        table = playedGame(self, hub, clock)
        self.assertEqual(
            sample(hub, "gameproto_store_write_seconds_count", operation="action"), table.turn)
        self.assertEqual(sample(hub, "gameproto_store_write_seconds_count", operation="start"), 1)
        self.assertEqual(sample(hub, "gameproto_store_write_seconds_count", operation="finish"), 1)
        self.assertGreater(
            sample(hub, "gameproto_store_write_seconds_sum", operation="action") or 0.0, 0.0)

    def test_replays(self) -> None:
        """The replays running and waiting, read from the API's semaphore when scraped."""
        hub = Hub(Clock())
        semaphore = DeferredSemaphore(2)
        hub.metrics.watchReplays(semaphore)
        held = [semaphore.acquire() for _ in range(3)]
        self.assertEqual(sample(hub, "gameproto_replays", state="running"), 2)
        self.assertEqual(sample(hub, "gameproto_replays", state="waiting"), 1)
        for d in held:
            d.addCallback(lambda s: s.release())
        self.assertEqual(sample(hub, "gameproto_replays", state="running"), 0)
        self.assertEqual(sample(hub, "gameproto_replays", state="waiting"), 0)

    def test_requestsWaitingForATurn(self) -> None:
        """The web port's requests held back for a later turn, read from its share when scraped."""
        clock = Turns()
        hub = Hub(clock)
        page = Resource()
        page.render_GET = lambda request: b"ok"  # type: ignore[attr-defined]
        site = makeSite({b"x": page}, Limits(messageRate=0, requestsPerTurn=1), clock,
                        hub.metrics)
        assert isinstance(site, WebSite)
        self.assertEqual(sample(hub, "gameproto_web_requests_waiting"), 0)
        for _ in range(3):
            webConnection(site)[0].dataReceived(RequestShareTests.REQUEST)
        self.assertEqual(sample(hub, "gameproto_web_requests_waiting"), 2)
        clock.advance(0)
        self.assertEqual(sample(hub, "gameproto_web_requests_waiting"), 1)
        clock.advance(0)
        self.assertEqual(sample(hub, "gameproto_web_requests_waiting"), 0)

    def test_exposition(self) -> None:
        """The text format names every family."""
        text = Hub(Clock()).metrics.exposition().decode("utf-8")
        for family in ("gameproto_connections", "gameproto_write_buffer_bytes",
                       "gameproto_games", "gameproto_replays", "gameproto_web_requests_waiting",
                       "gameproto_refused_total",
                       "gameproto_actions_total", "gameproto_store_write_seconds"):
            self.assertIn(f"# TYPE {family} ", text)


class ConnectionMetricsTests(SynchronousTestCase):
    """Connections of every protocol count themselves through WireProtocol."""

    def setUp(self) -> None:
        self.hub = Hub(Clock())
        self.server = Connect4Server(Connect4Settings(), hub=self.hub)
        self.factory = Connect4ServerFactory(self.server)

    def connect(self) -> Any:
        protocol = self.factory.buildProtocol(None)  # type: ignore[arg-type]
        assert protocol is not None
        protocol.makeConnection(StringTransport())
        return protocol

    def test_openAndClosed(self) -> None:
        one, two = self.connect(), self.connect()
        self.assertEqual(sample(self.hub, "gameproto_connections", protocol="connect4"), 2)
        one.connectionLost()
        self.assertEqual(sample(self.hub, "gameproto_connections", protocol="connect4"), 1)
        two.connectionLost()
        self.assertIsNone(sample(self.hub, "gameproto_connections", protocol="connect4"))

    def test_malformedCloseRefused(self) -> None:
        """A connection closed for bad bytes is a refusal."""
        protocol = self.connect()
        protocol.dataReceived(b"\xff" * 8)
        self.assertTrue(protocol.transport.disconnecting)
        self.assertEqual(sample(self.hub, "gameproto_refused_total", protocol="connect4",
                                cause="dropped"), 1)

    def test_refusedFunction(self) -> None:
        """refused(connection, cause): the layers' one call, found through the connection."""
        protocol = self.connect()
        metrics.refused(protocol, "rate-limit")
        metrics.refused(self.server, "origin", "connect4")
        metrics.refused(self.hub, "too-many", "web")
        metrics.refused(object(), "nowhere")  # no metrics: nothing happens
        self.assertEqual(sample(self.hub, "gameproto_refused_total", protocol="connect4",
                                cause="rate-limit"), 1)
        self.assertEqual(sample(self.hub, "gameproto_refused_total", protocol="connect4",
                                cause="origin"), 1)
        self.assertEqual(sample(self.hub, "gameproto_refused_total", protocol="web",
                                cause="too-many"), 1)

    def test_writeBuffer(self) -> None:
        """Bytes a live connection has not sent yet, summed by protocol when scraped."""
        protocol = self.connect()
        descriptor = FileDescriptor(MemoryReactor())  # type: ignore[arg-type]
        descriptor.connected = 1
        descriptor.write(b"x" * 1000)
        protocol.transport = descriptor
        self.assertEqual(
            sample(self.hub, "gameproto_write_buffer_bytes", protocol="connect4"), 1000)


def refusals(hub: Hub, protocol: str, cause: str) -> float:
    """How many refusals of ``cause`` on ``protocol`` ``hub``'s metrics counted."""
    return sample(hub, "gameproto_refused_total", protocol=protocol, cause=cause) or 0.0


def apiCall(api: Resource, method: bytes, path: bytes, body: bytes = b"",
            kind: bytes | None = b"application/json") -> DummyRequest:
    """``method path`` to ``api`` (``/api``), from L{PEER}: the finished request."""
    request = DummyRequest(path.strip(b"/").split(b"/")[1:])
    request.client = PEER
    request.method = method
    request.uri = path
    request.content = io.BytesIO(body)  # type: ignore[attr-defined]
    if kind is not None:
        request.requestHeaders.setRawHeaders(b"content-type", [kind])
    getChildForRequest(api, request).render(request)
    return request


class RefusalCauseTests(SynchronousTestCase):
    """Every refusal is counted in C{gameproto_refused_total}, under its own cause."""

    def test_connectionCauses(self) -> None:
        """A TCP connection: backpressure, rate-limit, message-timeout, too-many."""
        clock = Clock()
        protocol, transport = engineConnection(Limits(maxWriteBuffer=100), clock)
        hub = protocol.factory.server.hub  # type: ignore[union-attr]
        protocol.pauseProducing()
        for _ in range(10):
            protocol.sendMessage({"type": "problem", "message": "x" * 80})
        self.assertTrue(transport.disconnected)
        self.assertEqual(refusals(hub, "engine", "backpressure"), 1)

        protocol, transport = engineConnection(Limits(messageRate=1, messageBurst=1), clock)
        hub = protocol.factory.server.hub  # type: ignore[union-attr]
        protocol.dataReceived(b'{"type":"watch","game":999}\n' * 3)
        self.assertTrue(protocol.readingPaused)
        self.assertEqual(refusals(hub, "engine", "rate-limit"), 1)
        self.assertEqual(refusals(hub, "engine", "dropped"), 0)

        protocol, transport = engineConnection(Limits(messageTimeout=5), clock)
        hub = protocol.factory.server.hub  # type: ignore[union-attr]
        protocol.dataReceived(b'{"type":')
        clock.advance(6)
        self.assertTrue(transport.disconnecting)
        self.assertEqual(refusals(hub, "engine", "message-timeout"), 1)

        factory = engineFactory(Limits(maxConnectionsPerPeer=1), clock)
        self.assertIsNotNone(factory.buildProtocol(PEER))
        self.assertIsNone(factory.buildProtocol(PEER))
        self.assertEqual(refusals(factory.server.hub, "engine", "too-many"), 1)

    def test_webPort(self) -> None:
        """The web port: a peer over its connections, a request too slow."""
        clock = Clock()
        hub = Hub(clock)
        site = makeSite({b"api": API(hub)}, Limits(maxConnectionsPerPeer=1, requestTimeout=5),
                        clock)
        connection = site.buildProtocol(PEER)
        assert isinstance(connection, WebConnection)
        self.assertIsNone(site.buildProtocol(PEER))
        self.assertEqual(refusals(hub, "web", "too-many"), 1)
        transport = StringTransport(peerAddress=PEER)
        connection.makeConnection(transport)
        connection.dataReceived(b"GET / HTTP/1.1\r\n")
        clock.advance(6)
        self.assertTrue(transport.disconnecting)
        self.assertEqual(refusals(hub, "web", "request-timeout"), 1)

    def webSocket(self, limits: Limits, clock: Clock) -> tuple[Hub, Any, StringTransport]:
        """A WebSocket to /engine, upgraded: its hub, its connection, its transport."""
        factory = engineFactory(limits, clock)
        site = makeSite({b"engine": MessageWebSocketResource(factory, 1000, text=True)},
                        limits, clock)
        connection = site.buildProtocol(PEER)
        transport = StringTransport(peerAddress=PEER)
        connection.makeConnection(transport)
        client = WSConnection(ConnectionType.CLIENT)
        connection.dataReceived(client.send(WSRequest(host="localhost", target="/engine")))
        self.assertTrue(transport.value().startswith(b"HTTP/1.1 101 "), transport.value())
        return factory.server.hub, connection, transport

    def test_webSocketCloses(self) -> None:
        """Closes 1009 (too big), 1008 (too slow), 1001 (silent); the share spent."""
        clock = Clock()
        framing = Connection(ConnectionType.CLIENT)
        hub, connection, transport = self.webSocket(Limits(), clock)
        connection.dataReceived(framing.send(TextMessage("x" * 2000)))
        self.assertTrue(transport.disconnecting or b"\x03\xf1" in transport.value())
        self.assertEqual(refusals(hub, "engine", "too-big"), 1)

        hub, connection, transport = self.webSocket(Limits(messageTimeout=5), clock)
        framing = Connection(ConnectionType.CLIENT)
        connection.dataReceived(framing.send(TextMessage("{", message_finished=False)))
        clock.advance(6)
        self.assertEqual(refusals(hub, "engine", "message-timeout"), 1)

        hub, connection, transport = self.webSocket(Limits(webSocketIdleTimeout=4), clock)
        clock.advance(2)
        clock.advance(2)
        self.assertEqual(refusals(hub, "engine", "idle"), 1)

        hub, connection, transport = self.webSocket(Limits(messageRate=1, messageBurst=1), clock)
        framing = Connection(ConnectionType.CLIENT)
        connection.dataReceived(b"".join(
            framing.send(TextMessage('{"type":"watch","game":999}')) for _ in range(3)))
        self.assertEqual(refusals(hub, "engine", "rate-limit"), 1)
        self.assertEqual(refusals(hub, "engine", "dropped"), 0)

    def test_upgradesRefused(self) -> None:
        """An upgrade from another site's page (403); one over the protocol's cap (503)."""
        factory = engineFactory(Limits(maxConnectionsPerPeer=1), Clock())
        hub = factory.server.hub
        resource = MessageWebSocketResource(factory, 1000, text=True)
        request = PlainRequest([b"engine"])
        request.client = PEER
        request.requestHeaders.setRawHeaders(b"host", [b"games.example"])
        request.requestHeaders.setRawHeaders(b"origin", [b"http://evil.example"])
        resource.render_GET(request)  # type: ignore[arg-type]
        self.assertEqual(request.responseCode, 403)
        self.assertEqual(refusals(hub, "engine", "origin"), 1)
        self.assertIsNotNone(factory.buildProtocol(PEER))
        request = PlainRequest([b"engine"])
        request.client = PEER
        request.requestHeaders.setRawHeaders(b"host", [b"games.example"])
        resource.render_GET(request)  # type: ignore[arg-type]
        self.assertEqual(request.responseCode, 503)
        self.assertEqual(refusals(hub, "engine", "too-many"), 1)

    def test_apiCreation(self) -> None:
        """POST /api/games: 415, 400, 413, and each limit on games (429, 503)."""
        clock = Clock()
        hub = Hub(clock, settings=HubSettings(gamesPerMinute=2, maxGamesPerPeer=1, maxGames=1))
        api = API(hub)
        body = json.dumps({"engine": "connect4"}).encode()
        self.assertEqual(apiCall(api, b"POST", b"/api/games", body, b"text/plain").responseCode,
                         415)
        self.assertEqual(refusals(hub, "web", "content-type"), 1)
        self.assertEqual(apiCall(api, b"POST", b"/api/games", b"[[[").responseCode, 400)
        self.assertEqual(refusals(hub, "web", "malformed"), 1)
        self.assertEqual(apiCall(api, b"POST", b"/api/games", b" " * 70_000).responseCode, 413)
        self.assertEqual(refusals(hub, "web", "too-big"), 1)
        clock.advance(60)
        self.assertEqual(apiCall(api, b"POST", b"/api/games", body).responseCode, 201)
        self.assertEqual(apiCall(api, b"POST", b"/api/games", body).responseCode, 503)
        self.assertEqual(refusals(hub, "web", "too-many-games"), 1)
        self.assertEqual(apiCall(api, b"POST", b"/api/games", body).responseCode, 429)
        self.assertEqual(refusals(hub, "web", "game-rate"), 1)

    def test_apiGamesPerPeer(self) -> None:
        """POST /api/games past the games one peer may have open: 429."""
        hub = Hub(Clock(), settings=HubSettings(maxGamesPerPeer=1))
        api = API(hub)
        body = json.dumps({"engine": "connect4"}).encode()
        self.assertEqual(apiCall(api, b"POST", b"/api/games", body).responseCode, 201)
        self.assertEqual(apiCall(api, b"POST", b"/api/games", body).responseCode, 429)
        self.assertEqual(refusals(hub, "web", "too-many-games"), 1)

    def test_apiReplays(self) -> None:
        """Replays past a peer's share (429), past the queue (503)."""
        clock = Clock()
        hub = Hub(clock)
        table = playedGame(self, hub, clock)
        api = API(hub)
        path = b"/api/games/%d/replay" % table.id
        first, second = apiCall(api, b"GET", path), apiCall(api, b"GET", path)
        third = apiCall(api, b"GET", path)
        self.assertEqual(third.responseCode, 429)
        self.assertEqual(refusals(hub, "web", "too-many-replays"), 1)
        clock.advance(0)
        while not (first.finished and second.finished):
            clock.advance(0)
        self.assertEqual((first.responseCode, second.responseCode), (200, 200))


class PendingWriteBytesTests(SynchronousTestCase):
    """_compat.pendingWriteBytes: a FileDescriptor's buffers, through wrappers."""

    def test_descriptor(self) -> None:
        descriptor = FileDescriptor(MemoryReactor())  # type: ignore[arg-type]
        descriptor.connected = 1
        self.assertEqual(pendingWriteBytes(descriptor), 0)
        descriptor.write(b"abc")
        descriptor.write(b"de")
        self.assertEqual(pendingWriteBytes(descriptor), 5)
        descriptor.dataBuffer, descriptor.offset = b"0123456789", 4
        self.assertEqual(pendingWriteBytes(descriptor), 11)

    def test_throughWrappers(self) -> None:
        descriptor = FileDescriptor(MemoryReactor())  # type: ignore[arg-type]
        descriptor.connected = 1
        descriptor.write(b"abc")

        class Wire:
            transport = descriptor

        class Message:
            _ws = Wire()

        self.assertEqual(pendingWriteBytes(Message()), 3)
        self.assertEqual(pendingWriteBytes(StringTransport()), 0)
        self.assertEqual(pendingWriteBytes(None), 0)


class MetricsPortTests(SynchronousTestCase):
    """--ports metrics=ENDPOINT: off by default, the core's own port."""

    def parse(self, *argv: str) -> tap.Options:
        options = tap.Options()
        options.parseOptions(list(argv))
        return options

    def test_offByDefault(self) -> None:
        options = self.parse()
        self.assertNotIn("metrics", options["ports"])
        service = tap.makeService(options, Clock())
        self.assertNotIn("metrics", [child.name for child in service])
        site = service.getServiceNamed("web").factory
        self.assertIn(b"metrics", site.resource.children)

    def test_on(self) -> None:
        """On its own port, the metrics leave the web port."""
        options = self.parse("--ports", "metrics=tcp:9100:interface=127.0.0.1")
        self.assertEqual(options["ports"]["metrics"], "tcp:9100:interface=127.0.0.1")
        service = tap.makeService(options, Clock())
        self.assertIn("metrics", [child.name for child in service])
        site = service.getServiceNamed("web").factory
        self.assertNotIn(b"metrics", site.resource.children)

    def test_aloneServesNothing(self) -> None:
        """Metrics alone are not a server: every other port off is still a usage error."""
        argv = onlyPorts(metrics="tcp:9100")
        error = self.assertRaises(usage.UsageError, self.parse, *argv)
        self.assertIn("nothing to serve", str(error))

    def test_inHelp(self) -> None:
        self.assertIn("metrics=off", str(tap.Options()))


class MetricsResourceTests(SynchronousTestCase):
    def test_otherMethods(self) -> None:
        """Any method but GET and HEAD is a 405 answered by the resource, whatever the URI."""
        request = DummyRequest([b"metrics"])
        request.method = b"POST"
        request.uri = b"/metrics?\xaa"
        body = MetricsResource(Hub(Clock()).metrics).render(request)  # type: ignore[arg-type]
        self.assertEqual(request.responseCode, 405)
        self.assertEqual(request.responseHeaders.getRawHeaders(b"allow"), [b"GET, HEAD"])
        self.assertEqual(body, b"GET or HEAD only\n")


class ServedMetricsTests(TestCase):
    """/metrics of the real service, over HTTP on 127.0.0.1."""

    async def scrape(self, url: str) -> tuple[int, bytes, str]:
        pool = HTTPConnectionPool(reactor, persistent=False)
        response = await treq.get(url, pool=pool)
        body = await treq.content(response)
        kind = response.headers.getRawHeaders(b"content-type", [b""])[0].decode()
        return response.code, body, kind

    async def test_onTheWebPort(self) -> None:
        server = Server(self, [])
        await Deferred.fromCoroutine(self.started(server))
        code, body, kind = await self.scrape(server.url + "metrics")
        self.assertEqual(code, 200)
        self.assertTrue(kind.startswith("text/plain"), kind)
        self.assertIn(b"gameproto_replays{state=\"waiting\"} 0.0", body)

    async def test_onTheMetricsPort(self) -> None:
        server = Server(self, [], ports=("web", "metrics"))
        await Deferred.fromCoroutine(self.started(server))
        port = server.ports["metrics"]
        code, body, _ = await self.scrape(f"http://127.0.0.1:{port}/metrics")
        self.assertEqual(code, 200)
        self.assertIn(b"# TYPE gameproto_connections gauge", body)
        code, _, _ = await self.scrape(server.url + "metrics")
        self.assertEqual(code, 404)

    async def started(self, server: Server) -> None:
        await server.start()
        self.addCleanup(server.stop)
