"""
External engines for real: the tic-tac-toe example and engines that crash,
hang, or write garbage, hosted through the process protocol; players over
the engine JSON protocol on TCP.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import ServerFactory
from twisted.internet.task import deferLater
from twisted.trial.unittest import TestCase

from gameproto.engine.contract import EngineFactory, Errors
from gameproto.engine.external import (
    EngineManifest,
    ExternalEngine,
    ExternalGame,
    ManifestError,
    parseEngineSpec,
)
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.record import MemoryRecordStore, replayLater
from gameproto.engine.registry import builtins, externalEngine, loadEngineDirectory
from gameproto.engine.store import SQLiteRecordStore
from gameproto.enginejson.protocol import EngineJsonClientProtocol
from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory

from gameproto.test import sourceTree

_tree = sourceTree()
if _tree is None:
    raise ImportError("gameproto.test.test_external runs examples/engines of a source tree: "
                      "run 'trial gameproto' from the checkout")
TICTACTOE = _tree / "examples" / "engines" / "tictactoe"

# Misbehaving engines: each answers INITIALISATION like tic-tac-toe would
# (a one-player game asking for a KEY), then does its trick on the first action.
BAD = {
    "crash": "sys.exit(3)",
    "hang": "time.sleep(600)",
    "garbage": "print('this is not JSON', flush=True)",
    "nan": "print(json.dumps(dict(ok, game_state={'scores': [float('nan')], 'gameover': False})),"
           " flush=True)",
    "babble": "print(json.dumps(ok)); print(json.dumps(ok), flush=True)",
    "huge": "print('[' + '1,' * (1 << 21) + '1]', flush=True)",
    "wrong": "print(json.dumps({'game_state': 'nonsense'}), flush=True)",
}


def badEngine(directory: Path, trick: str) -> EngineManifest:
    script = directory / f"{trick}.py"
    script.write_text(textwrap.dedent(f"""
        import json, sys, time
        ok = {{"displays": [], "requested_actions": [{{"type": "KEY", "player": 1}}],
               "game_state": {{"scores": [0], "gameover": False}}, "initvalues": {{}}}}
        sys.stdin.readline()
        print(json.dumps(ok), flush=True)
        sys.stdin.readline()
        {BAD[trick]}
        sys.stdin.readline()
    """))
    return EngineManifest.fromCommand(trick, f"python3 {script}")


class Player(EngineJsonClientProtocol):
    """A JSON player over TCP: collects messages, plays the first requested key."""

    def __init__(self, name: str, autoplay: bool = True) -> None:
        self.name = name
        self.autoplay = autoplay
        self.messages: list[dict[str, Any]] = []
        self.ended: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self.got: dict[str, defer.Deferred[dict[str, Any]]] = {}

    def waitFor(self, kind: str) -> defer.Deferred[dict[str, Any]]:
        for message in self.messages:
            if message["type"] == kind:
                d: defer.Deferred[dict[str, Any]] = defer.Deferred()
                d.callback(message)
                return d
        self.got[kind] = defer.Deferred()
        return self.got[kind]

    def messageReceived(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        waiting = self.got.pop(message["type"], None)
        if waiting is not None:
            waiting.callback(message)
        if message["type"] == "ended" and not self.ended.called:
            self.ended.callback(message)
        if message["type"] == "instructions" and self.autoplay:
            for request in message["requested_actions"]:
                if request["type"] == "KEY":
                    key = (request.get("keys") or "x")[0]
                    self.send({"type": "action", "action": {"type": "KEY", "key": key}})
                    break


class ExternalTests(TestCase):
    timeout = 30

    def setUp(self) -> None:
        self.directory = Path(self.mktemp())
        self.directory.mkdir()
        self.registry = builtins()
        self.registry.add(ExternalEngine(EngineManifest.load(TICTACTOE), reactor, 3.0))
        for trick in BAD:
            self.registry.add(ExternalEngine(badEngine(self.directory, trick), reactor, 1.0))
        self.store = MemoryRecordStore()
        self.hub = Hub(reactor, self.store, random.Random(1), self.registry,
                       settings=HubSettings(timeout=30))
        self.server = EngineJsonServer(hub=self.hub)
        factory: ServerFactory[Any] = EngineJsonServerFactory(self.server)
        self.port = reactor.listenTCP(0, factory, interface="127.0.0.1")
        self.addCleanup(self.port.stopListening)
        self.finishedTables: list[Any] = []
        original = self.hub.register

        def register(table: Any, host: Any) -> None:
            self.finishedTables.append(table)
            original(table, host)

        self.hub.register = register  # type: ignore[method-assign]
        self.addCleanup(self.stopAll)

    def engine(self, name: str) -> EngineFactory:
        """An engine the test's registry holds."""
        engine = self.registry.get(name)
        assert engine is not None, name
        return engine

    @defer.inlineCallbacks
    def connect(self, player: Player) -> Any:
        address = self.port.getHost()
        assert isinstance(address, IPv4Address)
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", address.port)
        yield connectProtocol(endpoint, player)
        assert player.transport is not None
        self.addCleanup(player.transport.loseConnection)
        yield player.waitFor("hello")

    @defer.inlineCallbacks
    def stopAll(self) -> Any:
        """End every game still hosted and wait for every engine process to exit."""
        for table, host in list(self.hub.tables.values()):
            table.abort("the test is over")
        for process in list(self.processes()):
            process.stop()
            yield process.ended
        yield deferLater(reactor, 0.05, lambda: None)

    def processes(self) -> Any:
        for table in [t for t, host in self.hub.tables.values()] + self.finishedTables:
            process = getattr(table.engine, "process", None)
            if process is not None:
                yield process

    @defer.inlineCallbacks
    def test_ticTacToeGame(self) -> Any:
        """Two JSON players play the external engine's game to the end, by KEY actions."""
        x, o = Player("x"), Player("o")
        yield self.connect(x)
        yield self.connect(o)
        x.send({"type": "create", "engine": "tictactoe", "init": {"players": 2, "first": "1"}, "name": "x"})
        created = yield x.waitFor("created")
        o.send({"type": "join", "game": created["game"], "name": "o"})
        ended = yield x.ended
        yield o.ended
        self.assertIsNone(ended["error"])
        record = self.store.get(created["game"])
        assert record is not None
        self.assertEqual(record.status, "finished")
        self.assertEqual(record.initvalues, {"first": 1})
        self.assertEqual(record.scores, ended["scores"])
        instructions = [m for m in x.messages if m["type"] == "instructions"]
        self.assertTrue(any(i["displays"][0]["content"] for i in instructions))
        # The record replays through a new engine process to the same state.
        engine = yield replayLater(self.engine("tictactoe"), record)
        self.assertEqual(list(engine.instructions().game_state.scores), ended["scores"])
        self.assertEqual(engine.display(0).asJSON(), instructions[-1]["displays"][0])

    @defer.inlineCallbacks
    def test_replayToATurn(self) -> Any:
        """Replay to turn N shows each player what it saw then."""
        x, o = Player("x"), Player("o")
        yield self.connect(x)
        yield self.connect(o)
        x.send({"type": "create", "engine": "tictactoe", "init": {"players": 2}, "name": "x"})
        created = yield x.waitFor("created")
        o.send({"type": "join", "game": created["game"], "name": "o"})
        yield x.ended
        record = self.store.get(created["game"])
        assert record is not None
        seen = [m["displays"][0] for m in x.messages if m["type"] == "instructions"]
        engine = yield replayLater(self.engine("tictactoe"), record, 2)
        self.assertEqual(engine.display(0).asJSON(), seen[2])
        engine.stop()
        yield engine.process.ended

    @defer.inlineCallbacks
    def test_initErrorsFromTheDescription(self) -> Any:
        engine = self.engine("tictactoe")
        result = yield engine.start({"size": 9, "colour": "blue"})
        self.assertIsInstance(result, Errors)
        self.assertEqual(sorted(e.type for e in result.errors),
                         ["INCORRECT_VALUE", "MISSING_ARGUMENT", "UNEXPECTED_ARGUMENT"])

    @defer.inlineCallbacks
    def misbehave(self, trick: str, reason: str) -> Any:
        player = Player("p")
        yield self.connect(player)
        player.send({"type": "create", "engine": trick, "init": {"players": 1}, "name": "p"})
        ended = yield player.ended
        self.assertIn(reason, ended["error"])
        record = self.store.get(ended["game"])
        assert record is not None
        self.assertEqual(record.status, "aborted")
        # The server goes on: another game of a good engine plays.
        other = Player("q")
        yield self.connect(other)
        other.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        seated = yield other.waitFor("seated")
        self.assertEqual(seated["player"], 1)

    def test_crash(self) -> Any:
        return self.misbehave("crash", "exited with code 3")

    def test_hang(self) -> Any:
        return self.misbehave("hang", "did not answer within 1 s")

    def test_garbage(self) -> Any:
        return self.misbehave("garbage", "not JSON")

    def test_notANumber(self) -> Any:
        """NaN is not JSON, though Python writes and reads it."""
        return self.misbehave("nan", "not JSON")

    def test_babble(self) -> Any:
        return self.misbehave("babble", "nobody asked for")

    def test_hugeLine(self) -> Any:
        return self.misbehave("huge", "over 1048576 bytes")

    def test_wrongInstructions(self) -> Any:
        return self.misbehave("wrong", "answered wrongly")

    @defer.inlineCallbacks
    def test_missingProgram(self) -> Any:
        self.registry.add(ExternalEngine(EngineManifest.fromCommand(
            "missing", "/no/such/program"), reactor, 1.0))
        player = Player("p")
        yield self.connect(player)
        player.send({"type": "create", "engine": "missing", "init": {"players": 1}})
        problem = yield player.waitFor("problem")
        self.assertIn("missing", problem["message"])

    @defer.inlineCallbacks
    def test_restoreExternalGame(self) -> Any:
        """A tic-tac-toe game in progress is restored by replaying through a new process."""
        path = self.mktemp()
        store = SQLiteRecordStore(path)
        self.hub.store = store
        x = Player("x", autoplay=False)
        yield self.connect(x)
        x.send({"type": "create", "engine": "tictactoe", "init": {"players": 2, "first": "1"},
                "name": "x", "bots": []})
        created = yield x.waitFor("created")
        yield x.waitFor("instructions")
        table = self.hub.findTable(created["game"])
        assert table is not None
        outcome = yield table.act(0, {"type": "KEY", "key": "5"})
        self.assertNotIsInstance(outcome, Errors)
        assert isinstance(table.engine, ExternalGame)
        table.engine.stop()
        yield table.engine.process.ended
        again = Hub(reactor, SQLiteRecordStore(path), random.Random(2), self.registry)
        restored = yield again.restore()
        self.assertEqual(restored, [created["game"]])
        twin = again.findTable(created["game"])
        assert twin is not None
        self.assertEqual(twin.engine.display(1).asJSON(), table.engine.display(1).asJSON())
        for live in (table, twin):  # their open seats' clocks run
            live.abort("the test is over")
        assert isinstance(twin.engine, ExternalGame)
        twin.engine.stop()
        yield twin.engine.process.ended


class ManifestTests(TestCase):
    def test_example(self) -> None:
        manifest = EngineManifest.load(TICTACTOE)
        self.assertEqual(manifest.name, "tictactoe")
        self.assertEqual({p.name for p in manifest.parameters}, {"players", "size", "first"})
        self.assertTrue(manifest.sprites is not None and manifest.sprites.is_file())
        self.assertEqual(manifest.argv()[0], sys.executable)

    def test_directory(self) -> None:
        names = [m.name for m in loadEngineDirectory(TICTACTOE.parent)]
        self.assertIn("tictactoe", names)

    def test_bad(self) -> None:
        root = Path(self.mktemp())
        root.mkdir()
        for content in ("not json", "[]", json.dumps({"name": "a b", "command": ["x"]}),
                        json.dumps({"name": "ok", "command": []}),
                        json.dumps({"name": "ok", "command": ["x"],
                                    "parameters": {"size": {"type": "int"}}}),
                        json.dumps({"name": "ok", "command": ["x"], "sprites": "none.zip"})):
            (root / "manifest.json").write_text(content)
            self.assertRaises(ManifestError, EngineManifest.load, root)

    def test_command(self) -> None:
        engine = externalEngine("mine=python3 engine.py --fast", reactor, 2.0)
        self.assertEqual(engine.manifest.command, ("python3", "engine.py", "--fast"))
        self.assertEqual([p.name for p in engine.parameters], ["players"])
        self.assertRaises(ManifestError, externalEngine, "no equals", reactor, 2.0)

    def test_spec(self) -> None:
        """One NAME=SPEC reader: a manifest (renamed) or a command; anything else refused."""
        self.assertEqual(parseEngineSpec("t3=python3 x.py a=b"), ("t3", "python3 x.py a=b"))
        for bad in ("no equals", "=cmd", "a b=cmd", "name=", "name=  "):
            self.assertRaises(ManifestError, parseEngineSpec, bad)
        renamed = EngineManifest.fromSpec(f"other={TICTACTOE}")
        self.assertEqual(renamed, attrs.evolve(EngineManifest.load(TICTACTOE), name="other"))
        command = EngineManifest.fromSpec("mine=python3 engine.py")
        self.assertEqual((command.name, command.command), ("mine", ("python3", "engine.py")))
