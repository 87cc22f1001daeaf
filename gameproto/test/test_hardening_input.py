"""
Client input that used to raise: JSON nested hundreds deep, a lone
surrogate in an action, a game id past SQLite's integers, a deep POST
body, a NUL in a static file's name.  Each gets its documented error and
no traceback in the log; client faults are logged at a bounded rate.
"""

from __future__ import annotations

import random

from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase
from twisted.web.resource import getChildForRequest
from twisted.web.test.requesthelper import DummyRequest

from gameproto.engine.external import EngineManifest, ExternalEngine
from gameproto.engine.faults import FaultLog
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.store import SQLiteRecordStore
from gameproto.enginejson import wire
from gameproto.web.api import API
from gameproto.web.site import webRoot

from gameproto.test.hardening_helpers import LogCapture, call
from gameproto.test.test_enginejson import Harness


def nested(depth: int) -> bytes:
    """An action whose object holds lists ``depth`` deep."""
    return (b'{"type":"action","action":{"type":"CLICK","x":' + b"[" * depth
            + b"]" * depth + b"}}")


class WireTests(SynchronousTestCase):
    """The engine JSON codec reads anything into a message or a Malformed."""

    def test_deep(self) -> None:
        for depth in (wire.MAX_DEPTH + 1, 400, 900, 5000, 60000):
            parsed = wire.parse(nested(depth)[: wire.MAX_MESSAGE])
            self.assertIsInstance(parsed, wire.Malformed, depth)

    def test_deepEnoughIsRead(self) -> None:
        self.assertIsInstance(wire.parse(nested(wire.MAX_DEPTH - 3)), wire.Action)

    def test_loneSurrogate(self) -> None:
        for text in (b'{"type":"action","action":{"type":"TEXT","text":"\\ud800"}}',
                     b'{"type":"action","action":{"type":"TEXT","\\udfff":1}}',
                     b'{"type":"create","engine":"tarot","init":{"a":["\\udc00"]}}'):
            self.assertEqual(wire.parse(text), wire.Malformed("strings must be valid Unicode"))
        self.assertIsInstance(
            wire.parse(b'{"type":"action","action":{"type":"TEXT","text":"\\ud83d\\ude00"}}'),
            wire.Action)


class EngineJsonConnectionTests(SynchronousTestCase):
    """On a connection: BAD_FORMAT, the connection kept, no traceback."""

    def test_deepAndSurrogates(self) -> None:
        log = LogCapture(self)
        client = Harness().connect()
        client.received()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        client.received()
        for line in (nested(400), nested(5000)[: wire.MAX_MESSAGE - 1],
                     b'{"type":"action","action":{"type":"TEXT","text":"\\ud800"}}',
                     b'{"type":"action","action":{"type":"KEY","key":"\\udfff"}}'):
            client.send(line + b"\n")
            (answer,) = client.received()
            self.assertEqual(answer["errors"], [{"type": "BAD_FORMAT"}], line[:60])
            self.assertFalse(client.transport.disconnecting)
        self.assertEqual(log.failures(), [])
        self.assertLess(sum(len(line) for line in log.lines()), 4000)


class APIInputTests(SynchronousTestCase):
    """The HTTP API's answers to bad input: 400 or 404, no traceback."""

    def setUp(self) -> None:
        self.log = LogCapture(self)
        self.clock = Clock()
        self.hub = Hub(self.clock, SQLiteRecordStore(":memory:"), random.Random(1))
        self.api = API(self.hub)

    def tearDown(self) -> None:
        self.assertEqual(self.log.failures(), [])

    def test_creationStatuses(self) -> None:
        """
        A game the engine cannot start is the server's trouble (502), not
        the client's; one asked while the server stops gets 503; bots named
        twice, 400; a 429 has its reason phrase.
        """
        missing = ExternalEngine(EngineManifest.fromCommand("missing", "/no/such/program"),
                                 self.clock, 1.0)  # type: ignore[arg-type]
        self.hub.registry.add(missing)
        code, answer, _ = call(self.api, b"POST", "/api/games",
                               {"engine": "missing", "init": {"players": 1}})
        self.assertEqual(code, 502)
        self.assertIn("the engine missing failed: the engine missing cannot start: "
                      "no program '/no/such/program' to run", answer["error"])
        code, answer, _ = call(self.api, b"POST", "/api/games",
                               {"engine": "connect4", "init": {}, "bots": [1, 1]})
        self.assertEqual((code, answer),
                         (400, {"error": "bots must be players 1..2, each named once"}))
        for _ in range(self.hub.settings.gamesPerMinute):
            call(self.api, b"POST", "/api/games", {"engine": "connect4", "init": {}}, peer="10.9.9.9")
        code, _, request = call(self.api, b"POST", "/api/games",
                                {"engine": "connect4", "init": {}}, peer="10.9.9.9")
        self.assertEqual((code, request.responseMessage), (429, b"Too Many Requests"))
        self.hub.stop()
        code, answer, _ = call(self.api, b"POST", "/api/games", {"engine": "connect4", "init": {}})
        self.assertEqual((code, answer),
                         (503, {"error": "the server is stopping: try again once it is back"}))

    def test_hugeGameId(self) -> None:
        for gameId in ("99999999999999999999999", str(2**63), "-5", "0", "1" * 5000,
                       "99999999999999999999999/record", "99999999999999999999999/replay"):
            code, answer, _ = call(self.api, b"GET", f"/api/games/{gameId}")
            self.assertEqual(code, 404, gameId[:40])
            self.assertEqual(answer, {"error": "no such resource"})

    def test_deepBody(self) -> None:
        for depth in (400, 5000, 30000):
            body = b'{"engine":"connect4","init":{"x":' + b"[" * depth + b"]" * depth + b"}}"
            code, answer, _ = call(self.api, b"POST", "/api/games", raw=body)
            self.assertEqual(code, 400, depth)
            self.assertEqual(answer["errors"], [{"type": "BAD_FORMAT"}])
        self.assertEqual(self.hub.tables, {})

    def test_loneSurrogateBody(self) -> None:
        code, answer, _ = call(self.api, b"POST", "/api/games",
                               raw=b'{"engine":"connect4","init":{"name":"\\ud800"}}')
        self.assertEqual(code, 400, answer)
        self.assertEqual(answer["error"], "strings must be valid Unicode")

    def test_clientFaultsLoggedAtABoundedRate(self) -> None:
        """A peer repeating its fault is logged a few times a minute, not each time."""
        for _ in range(50):
            code, _, _ = call(self.api, b"POST", "/api/games", {"engine": "connect4"},
                              contentType=b"text/plain", peer="192.0.2.1")
            self.assertEqual(code, 415)
        lines = [line for line in self.log.lines() if "192.0.2.1" in line]
        self.assertEqual(len(lines), self.hub.faults.lines)
        self.clock.advance(self.hub.faults.period)
        call(self.api, b"POST", "/api/games", raw=b"{", peer="192.0.2.1")
        lines = [line for line in self.log.lines() if "192.0.2.1" in line]
        self.assertEqual(len(lines), self.hub.faults.lines + 1)
        self.assertIn("45 more faults", lines[-1])


class StaticTests(SynchronousTestCase):
    def test_nul(self) -> None:
        """``/static/%00``: 404, where the file system's ValueError used to be a traceback."""
        log = LogCapture(self)
        root = webRoot({})
        for path in ([b"static", b"\x00"], [b"static", b"app.js\x00"],
                     [b"static", b"x", b"a\x00b"]):
            request = DummyRequest(path)
            resource = getChildForRequest(root, request)
            resource.render(request)
            self.assertEqual(request.responseCode, 404, path)
        self.assertEqual(log.failures(), [])


class FaultLogTests(SynchronousTestCase):
    def test_boundedPerPeer(self) -> None:
        clock = Clock()
        log = LogCapture(self)
        faults = FaultLog(clock, lines=2, period=10, peers=3)
        logged = [faults.fault("a", "fault {n} from {peer}", n=n) for n in range(5)]
        self.assertEqual(logged, [True, True, False, False, False])
        self.assertTrue(faults.fault("b", "fault from {peer}"))
        clock.advance(10)
        self.assertTrue(faults.fault("a", "fault {n} from {peer}", n=9))
        self.assertEqual(log.lines("gameproto.faults")[-1],
                         "fault 9 from a (3 more faults from this peer not logged)")
        for n in range(100):
            faults.fault(f"peer{n}", "fault from {peer}")
        self.assertLessEqual(len(faults._seen), 3)


class HubSettingsTests(SynchronousTestCase):
    def test_bounds(self) -> None:
        for bad in ({"maxActions": 0}, {"maxGames": 0}, {"maxGamesPerPeer": 0},
                    {"gamesPerMinute": 0}, {"botDelay": -1}):
            self.assertRaises(ValueError, HubSettings, **bad)  # type: ignore[arg-type]
        self.assertEqual(HubSettings(botDelay=0).botDelay, 0)
