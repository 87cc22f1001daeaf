"""
External engines for real: the tic-tac-toe and minimal examples, engines
written from the document alone (pretty-printing, with errors of their own,
asking for several actions), and engines that crash, hang, or write
garbage, hosted through the process protocol; players over the engine JSON
protocol on TCP.  And the reader of an engine's output, sans I/O.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
from hypothesis import given, strategies as st
from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import ServerFactory
from twisted.internet.task import deferLater
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto.buffer import NEED_MORE, Malformed, TooLong

from gameproto.engine.contract import EngineFactory, Errors
from gameproto.engine.external import (
    EngineManifest,
    ExternalEngine,
    ExternalGame,
    JSONValueReader,
    NESTING_LIMIT,
    ManifestError,
    Value,
    parseEngineSpec,
)
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.record import MemoryRecordStore, replayLater
from gameproto.engine.registry import builtins, externalEngine, loadEngineDirectory
from gameproto.engine.store import SQLiteRecordStore
from gameproto.enginejson.protocol import EngineJsonClientProtocol
from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory

from gameproto.test import sourceTree
from gameproto.test.hardening_helpers import LogCapture

_tree = sourceTree()
if _tree is None:
    raise ImportError("gameproto.test.test_external runs examples/engines of a source tree: "
                      "run 'trial gameproto' from the checkout")
TICTACTOE = _tree / "examples" / "engines" / "tictactoe"
MINIMAL = _tree / "examples" / "engines" / "minimal"

# Misbehaving engines: each answers INITIALISATION like tic-tac-toe would
# (a one-player game asking for a KEY), then does its trick on the first action.
BAD = {
    "crash": "sys.exit(3)",
    "hang": "time.sleep(600)",
    "garbage": "print('this is not JSON', flush=True)",
    "nan": "print(json.dumps(dict(ok, game_state={'scores': [float('nan')], 'gameover': False})),"
           " flush=True)",
    # Three answers in one write (so in one read, PYTHONUNBUFFERED or not):
    # one more than even two actions (the player's, and one it sent before
    # the first was answered) ask for.
    "babble": "sys.stdout.write((json.dumps(ok) + '\\n') * 3); sys.stdout.flush()",
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
        self.expecting: list[tuple[tuple[str, ...], defer.Deferred[dict[str, Any]]]] = []

    def waitFor(self, kind: str) -> defer.Deferred[dict[str, Any]]:
        for message in self.messages:
            if message["type"] == kind:
                d: defer.Deferred[dict[str, Any]] = defer.Deferred()
                d.callback(message)
                return d
        self.got[kind] = defer.Deferred()
        return self.got[kind]

    def next(self, *kinds: str) -> defer.Deferred[dict[str, Any]]:
        """The next message to come of one of ``kinds`` (none already received)."""
        waiting: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self.expecting.append((kinds, waiting))
        return waiting

    def create(self, engine: str, init: dict[str, Any]) -> defer.Deferred[dict[str, Any]]:
        """Create a game and sit at it: fires with its first instructions, or the refusal."""
        waiting = self.next("instructions", "errors", "problem")
        self.send({"type": "create", "engine": engine, "init": init, "name": self.name})
        return waiting

    def act(self, action: dict[str, Any]) -> defer.Deferred[dict[str, Any]]:
        """Send ``action``; fires with what comes of it: ``instructions``, ``errors`` or ``ended``."""
        waiting = self.next("instructions", "errors", "ended")
        self.send({"type": "action", "action": action})
        return waiting

    def messageReceived(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        for entry in self.expecting:
            if message["type"] in entry[0]:
                self.expecting.remove(entry)
                entry[1].callback(message)
                break
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


class ServerTestCase(TestCase):
    """An engine JSON server on TCP, its hub's registry holding L{engines}."""

    timeout = 30

    def engines(self, directory: Path) -> list[ExternalEngine]:
        """The external engines of the test's registry (beside the built-in games)."""
        return []

    def setUp(self) -> None:
        self.directory = Path(self.mktemp())
        self.directory.mkdir()
        self.registry = builtins()
        for external in self.engines(self.directory):
            self.registry.add(external)
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


class ExternalTests(ServerTestCase):
    def engines(self, directory: Path) -> list[ExternalEngine]:
        return [ExternalEngine(EngineManifest.load(TICTACTOE), reactor, 3.0)] + [
            ExternalEngine(badEngine(directory, trick), reactor, 1.0) for trick in BAD]

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
        yield deferLater(reactor, 0.1, lambda: None)
        kinds = [m["type"] for m in player.messages]
        self.assertNotIn("errors", kinds[kinds.index("ended"):])  # the end says it all
        # The server goes on: another game of a good engine plays.
        other = Player("q")
        yield self.connect(other)
        other.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        seated = yield other.waitFor("seated")
        self.assertEqual(seated["player"], 1)

    @defer.inlineCallbacks
    def test_failureWhileIdle(self) -> Any:
        """
        A program that exits, or writes a value, while nothing is asked of
        it ends its game at once: the player, who sent nothing, gets
        ``ended`` with the reason, and the record is aborted.
        """
        for trick, reason in (("exit", "exited with code 4"),
                              ("unasked", "wrote a message nobody asked for")):
            script = self.directory / f"idle-{trick}.py"
            act = ("sys.exit(4)" if trick == "exit"
                   else "print(json.dumps(ok), flush=True); sys.stdin.readline()")
            script.write_text(textwrap.dedent(f"""
                import json, sys, time
                ok = {{"displays": [], "requested_actions": [{{"type": "KEY", "player": 1}}],
                       "game_state": {{"scores": [0], "gameover": False}}, "initvalues": {{}}}}
                sys.stdin.readline()
                print(json.dumps(ok), flush=True)
                time.sleep(0.3)
                {act}
            """))
            name = f"idle{trick}"
            self.registry.add(ExternalEngine(EngineManifest.fromCommand(
                name, f"python3 {script}"), reactor, 5.0))
            player = Player("p", autoplay=False)
            yield self.connect(player)
            player.send({"type": "create", "engine": name, "init": {"players": 1}, "name": "p"})
            ended = yield player.ended
            self.assertIn(reason, ended["error"])
            self.assertEqual([m for m in player.messages if m["type"] == "errors"], [])
            record = self.store.get(ended["game"])
            assert record is not None
            self.assertEqual((record.status, record.actions), ("aborted", []))

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
    def test_missingProgramOfAManifest(self) -> Any:
        """
        A manifest in a folder of its own whose program is not there, or is
        not executable: the creator is told it cannot start, and the log has
        no traceback (the program is looked for before a process is made).
        """
        logged = LogCapture(self)
        folder = self.directory / "absent"
        folder.mkdir()
        (folder / "engine.sh").write_text("#!/bin/sh\n")  # not executable
        for name, command in (("absent", ["./nowhere"]), ("unrunnable", ["./engine.sh"]),
                              ("unnamed", ["no-such-program-here"])):
            (folder / "manifest.json").write_text(json.dumps({
                "name": name, "command": command,
                "parameters": {"players": {"type": "int", "range": [1, 2], "default": 1}}}))
            self.registry.add(ExternalEngine(EngineManifest.load(folder), reactor, 1.0))
            player = Player("p")
            yield self.connect(player)
            player.send({"type": "create", "engine": name, "init": {"players": 1}})
            problem = yield player.waitFor("problem")
            self.assertIn(f"the engine {name} cannot start: no program {command[0]!r} to run",
                          problem["message"])
        self.assertEqual([line for line in logged.lines() if "Traceback" in line
                          or "stderr" in line], [])
        self.assertEqual(logged.failures(), [])
        self.assertEqual(list(self.processes()), [])

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


# Engines written from the document alone (engine-json.fr.md), standard-library
# Python, each run as its own process behind the server.
PEERS = {
    # Point IV.2: INSTRUCTIONS pretty-printed, as the document's examples are;
    # each answer in two writes, every other one indented with tabs and CRLF.
    "pretty": r"""
        import json, sys, time

        def answer(message, step):
            text = json.dumps(message, indent=2 if step % 2 == 0 else "\t")
            if step % 2:
                text = text.replace("\n", "\r\n")
            half = len(text) // 2
            sys.stdout.write(text[:half])
            sys.stdout.flush()
            time.sleep(0.05)
            sys.stdout.write(text[half:] + "\n\n")
            sys.stdout.flush()

        presses = 0
        for step, line in enumerate(sys.stdin):
            message = json.loads(line)
            if "init" not in message:
                presses += 1
            over = presses == 3
            instructions = {
                "displays": [{"player": 1, "width": 640, "height": 480, "content": [
                    {"tag": "text", "x": 320, "y": 240, "fill": "black",
                     "content": str(presses)}]}],
                "requested_actions": [] if over else [
                    {"type": "KEY", "player": 1, "keys": "ZQSD"}],
                "game_state": {"scores": [presses], "gameover": over},
            }
            if "init" in message:
                instructions["initvalues"] = {}
            answer(instructions, step)
    """,
    # Point IV.2.1: errors "containing at least the key type", of types the
    # document does not list, with and without "player".
    "errors": r"""
        import json, sys

        def write(message):
            print(json.dumps(message), flush=True)

        def instructions(over):
            return {"displays": [],
                    "requested_actions": [] if over else [{"type": "KEY", "player": 1}],
                    "game_state": {"scores": [1 if over else 0], "gameover": over}}

        actions = 0
        for line in sys.stdin:
            message = json.loads(line)
            if "init" in message:
                if message["init"]["players"] != 1:
                    write({"errors": [{"type": "TOO_MANY_PLAYERS", "most": 1}]})
                else:
                    write(dict(instructions(False), initvalues={}))
                continue
            actions += 1
            if actions == 1:
                write({"errors": [{"type": "ILLEGAL_MOVE", "player": message["player"],
                                   "reason": "not yet"}]})
            elif actions == 2:
                write({"errors": [{"type": "NOT_YOUR_TURN"},
                                  {"type": "WRONG_ACTION", "subtype": "KEY_NOT_ALLOWED"}]})
            else:
                write(instructions(True))
    """,
    # Point IV.2.1 again, with two players asked at once: player 1's first
    # KEY gets errors of the engine's own; the game ends once each has pressed.
    "pair": r"""
        import json, sys

        def write(message):
            print(json.dumps(message), flush=True)

        def instructions(pressed, **more):
            over = len(pressed) == 2
            return dict(more, displays=[],
                        requested_actions=[{"type": "KEY", "player": p}
                                           for p in (1, 2) if p not in pressed],
                        game_state={"scores": [int(p in pressed) for p in (1, 2)],
                                    "gameover": over})

        pressed = set()
        refused = False
        for line in sys.stdin:
            message = json.loads(line)
            if "init" in message:
                write(instructions(pressed, initvalues={}))
                continue
            if message["player"] == 1 and not refused:
                refused = True
                write({"errors": [{"type": "ILLEGAL_MOVE", "player": 1, "reason": "2 first"},
                                  {"type": "WAIT"}]})
                continue
            pressed.add(message["player"])
            write(instructions(pressed))
    """,
    # Point IV.2.3 A: two CLICKs asked of player 1, the second with its own
    # zone and buttons (after the document's example); the score is the x clicked.
    "twoclicks": r"""
        import json, sys

        for line in sys.stdin:
            message = json.loads(line)
            over = "init" not in message
            requested = [
                {"type": "CLICK", "player": 1,
                 "zones": [{"x": 0, "y": 0, "width": 50, "height": 50}]},
                {"type": "CLICK", "player": 1,
                 "zones": [{"x": 100, "y": 200, "width": 50, "height": 50}],
                 "buttons": ["RIGHT", "DOUBLE"], "confirm": True},
            ]
            answer = {"displays": [{"player": 1, "width": 640, "height": 480, "content": []}],
                      "requested_actions": [] if over else requested,
                      "game_state": {"scores": [message.get("x", 0)], "gameover": over}}
            if "init" in message:
                answer["initvalues"] = {}
            print(json.dumps(answer), flush=True)
    """,
}


def peerEngine(directory: Path, name: str) -> EngineManifest:
    script = directory / f"{name}.py"
    script.write_text(textwrap.dedent(PEERS[name]))
    return EngineManifest.fromCommand(name, f"python3 {script}")


class DocumentEngineTests(ServerTestCase):
    """Engines written from the document alone, played by JSON players through the server."""

    def engines(self, directory: Path) -> list[ExternalEngine]:
        return [ExternalEngine(peerEngine(directory, name), reactor, 5.0) for name in PEERS]

    @defer.inlineCallbacks
    def test_prettyPrinted(self) -> Any:
        """
        An engine that pretty-prints its JSON (split over writes, with tabs
        and CRLF) plays to the end: its output is a stream of JSON values.
        """
        player = Player("p")
        yield self.connect(player)
        first = yield player.create("pretty", {"players": 1})
        self.assertEqual(first["type"], "instructions")
        ended = yield player.ended
        self.assertIsNone(ended["error"])
        self.assertEqual(ended["scores"], [3])
        shown = [m["displays"][0]["content"][0]["content"] for m in player.messages
                 if m["type"] == "instructions"]
        self.assertEqual(shown, ["0", "1", "2", "3"])
        record = self.store.get(ended["game"])
        assert record is not None
        self.assertEqual((record.status, len(record.actions)), ("finished", 3))

    @defer.inlineCallbacks
    def test_errorsOfItsOwn(self) -> Any:
        """
        Errors of types the document does not list, or without ``player``,
        go to the player whose action they answer, every key kept; the game
        goes on.
        """
        player = Player("p", autoplay=False)
        yield self.connect(player)
        started = yield player.create("errors", {"players": 1})
        self.assertEqual(started["type"], "instructions")
        first = yield player.act({"type": "KEY", "key": "a"})
        self.assertEqual(first, {"type": "errors", "errors": [
            {"type": "ILLEGAL_MOVE", "player": 1, "reason": "not yet"}]})
        second = yield player.act({"type": "KEY", "key": "b"})
        self.assertEqual(second, {"type": "errors", "errors": [
            {"type": "NOT_YOUR_TURN"}, {"type": "WRONG_ACTION", "subtype": "KEY_NOT_ALLOWED"}]})
        third = yield player.act({"type": "KEY", "key": "c"})
        self.assertEqual((third["type"], third["game_state"]),
                         ("instructions", {"scores": [1], "gameover": True}))
        ended = yield player.ended
        self.assertIsNone(ended["error"])
        record = self.store.get(ended["game"])
        assert record is not None
        self.assertEqual((record.status, [a.action for a in record.actions]),
                         ("finished", [{"type": "KEY", "key": "c"}]))

    @defer.inlineCallbacks
    def test_errorsReachTheActorOnly(self) -> Any:
        """
        Two players asked at once: the engine's own errors answering player
        1's action reach player 1, and player 2 receives nothing of them.
        """
        one, two = Player("one", autoplay=False), Player("two", autoplay=False)
        yield self.connect(one)
        yield self.connect(two)
        one.send({"type": "create", "engine": "pair", "init": {"players": 2}, "name": "one"})
        created = yield one.waitFor("created")
        two.send({"type": "join", "game": created["game"], "name": "two"})
        yield one.waitFor("instructions")
        yield two.waitFor("instructions")
        refused = yield one.act({"type": "KEY", "key": "a"})
        self.assertEqual(refused, {"type": "errors", "errors": [
            {"type": "ILLEGAL_MOVE", "player": 1, "reason": "2 first"}, {"type": "WAIT"}]})
        seen = one.next("instructions")
        answered = yield two.act({"type": "KEY", "key": "b"})
        self.assertEqual((answered["type"], answered["game_state"]["scores"]),
                         ("instructions", [0, 1]))
        yield seen
        last = yield one.act({"type": "KEY", "key": "c"})
        self.assertEqual((last["type"], last["game_state"]),
                         ("instructions", {"scores": [1, 1], "gameover": True}))
        for player in (one, two):
            ended = yield player.ended
            self.assertIsNone(ended["error"])
        self.assertEqual([m for m in one.messages if m["type"] == "errors"], [refused])
        self.assertNotIn("errors", [m["type"] for m in two.messages])
        self.assertEqual([m["type"] for m in two.messages],
                         ["hello", "seated", "instructions", "instructions", "instructions",
                          "ended"])
        record = self.store.get(created["game"])
        assert record is not None
        self.assertEqual([(a.seat, a.action["key"]) for a in record.actions],  # type: ignore[index]
                         [(1, "b"), (0, "c")])

    @defer.inlineCallbacks
    def test_initErrorOfItsOwn(self) -> Any:
        """An INITIALISATION refused with an error the document does not list goes to its creator."""
        player = Player("p", autoplay=False)
        yield self.connect(player)
        refused = yield player.create("errors", {"players": 2})
        self.assertEqual(refused, {"type": "errors",
                                   "errors": [{"type": "TOO_MANY_PLAYERS", "most": 1}]})

    @defer.inlineCallbacks
    def test_secondRequestOfAType(self) -> Any:
        """
        Two CLICKs asked of one player: a click the second accepts (its
        zone, its button) is played; one neither accepts gets the closest
        miss (the first request: its button fits, its zone does not).
        """
        player = Player("p", autoplay=False)
        yield self.connect(player)
        shown = yield player.create("twoclicks", {"players": 1})
        self.assertEqual(shown["type"], "instructions")
        first, second = shown["requested_actions"]
        left = {"type": "CLICK", "x": 120, "y": 220, "button": "LEFT"}
        refused = yield player.act(left)
        self.assertEqual(refused["errors"], [{
            "type": "WRONG_ACTION", "subtype": "OUT_OF_ZONE", "player": 1, "action": left,
            "requested_action": first}])
        played = yield player.act({"type": "CLICK", "x": 120, "y": 220, "button": "RIGHT"})
        self.assertEqual((played["type"], played["game_state"]),
                         ("instructions", {"scores": [120], "gameover": True}))
        self.assertEqual(second["buttons"], ["RIGHT", "DOUBLE"])


class MinimalEngineTests(ServerTestCase):
    """``examples/engines/minimal``, the engine of enginejson.md, played through the server."""

    def engines(self, directory: Path) -> list[ExternalEngine]:
        return [ExternalEngine(EngineManifest.load(MINIMAL), reactor, 5.0)]

    @defer.inlineCallbacks
    def test_play(self) -> Any:
        """
        Its CLICK has no zones: a click outside its 200 x 100 display is
        OUT_OF_ZONE (the whole drawing area, as the document says); three
        inside end the game, which then replays from its initvalues.
        """
        player = Player("p", autoplay=False)
        yield self.connect(player)
        shown = yield player.create("minimal", {})
        self.assertEqual(shown["type"], "instructions")
        self.assertEqual((shown["displays"][0]["width"], shown["displays"][0]["height"]),
                         (200, 100))
        [request] = shown["requested_actions"]
        self.assertNotIn("zones", request)
        outside: tuple[tuple[float, float], ...] = ((200, 50), (10, 100), (-1, 0), (1000, 1000))
        inside: tuple[tuple[float, float], ...] = ((0, 0), (199, 99), (100.5, 50))
        for x, y in outside:
            click = {"type": "CLICK", "x": x, "y": y}
            refused = yield player.act(click)
            self.assertEqual(refused, {"type": "errors", "errors": [{
                "type": "WRONG_ACTION", "subtype": "OUT_OF_ZONE", "player": 1,
                "action": click, "requested_action": request}]})
        for x, y in inside:
            played = yield player.act({"type": "CLICK", "x": x, "y": y})
            self.assertEqual(played["type"], "instructions")
        ended = yield player.ended
        self.assertEqual((ended["error"], ended["scores"]), (None, [3]))
        record = self.store.get(ended["game"])
        assert record is not None
        self.assertEqual((record.status, record.initvalues), ("finished", {}))
        engine = yield replayLater(self.engine("minimal"), record, 2)
        self.assertEqual(engine.display(0).content[0]["content"], "2 of 3 clicks")
        engine.stop()
        yield engine.process.ended


class JSONValueReaderTests(SynchronousTestCase):
    """What an engine writes, read as a stream of JSON values, sans I/O."""

    values = st.recursive(
        st.none() | st.booleans() | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
        lambda children: st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=5), children, max_size=3),
        max_leaves=10)

    def readAll(self, reader: JSONValueReader, *chunks: bytes) -> list[Any]:
        """Every value read as ``chunks`` come; anything but values and NEED_MORE fails."""
        read: list[Any] = []
        for chunk in chunks:
            reader.feed(chunk)
            while True:
                result = reader.next()
                if result is NEED_MORE:
                    break
                assert isinstance(result, Value), result
                read.append(result.data)
        return read

    @given(st.lists(st.tuples(values, st.sampled_from([None, 0, 2, "\t"]), st.booleans(),
                              st.text(" \t\r\n", min_size=1, max_size=4)),
                    min_size=1, max_size=5),
           st.data())
    def test_anyLayoutAnySplit(self, written: list[Any], data: st.DataObject) -> None:
        """Values in any layout, any whitespace between them, split anywhere: read back."""
        stream = b"".join(json.dumps(value, indent=indent, ensure_ascii=ascii).encode("utf-8")
                          + space.encode() for value, indent, ascii, space in written)
        cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
        chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
        self.assertEqual(self.readAll(JSONValueReader(), *chunks), [v for v, *_ in written])

    def test_noWhitespaceBetween(self) -> None:
        """Objects, arrays and strings need no whitespace between them."""
        self.assertEqual(self.readAll(JSONValueReader(), b'{"a":"}"}[1,"]"]"x\\\\"{}'),
                         [{"a": "}"}, [1, "]"], "x\\", {}])

    def test_escapeSplit(self) -> None:
        """An escaped quote split between two chunks."""
        self.assertEqual(self.readAll(JSONValueReader(), b'["a\\', b'"b"]'), [['a"b']])

    def test_garbage(self) -> None:
        """Bytes that are no JSON value say why."""
        for written in (b"this is not JSON\n", b'{"a": 1]', b'{"a": NaN}', b"Infinity ",
                        b"\xff{}", b'{"a" 1}', b"}", b'"\xc3("', b"[" * 5000 + b"]" * 5000):
            reader = JSONValueReader()
            reader.feed(written)
            self.assertIsInstance(reader.next(), Malformed, repr(written[:20]))

    def test_nestingLimit(self) -> None:
        """
        Arrays and objects nested to L{NESTING_LIMIT} are read, one level
        more is too deep, whatever Python's own limit (which its version
        sets); the value is taken out and the next one read.
        """
        deepest = b'{"a":' * (NESTING_LIMIT - 1) + b"[]" + b"}" * (NESTING_LIMIT - 1)
        tooDeep = b"[" * (NESTING_LIMIT + 1) + b"]" * (NESTING_LIMIT + 1)
        reader = JSONValueReader()
        reader.feed(deepest + tooDeep + b"[1]")
        read = reader.next()
        assert isinstance(read, Value), read
        depth, value = 0, read.data
        while isinstance(value, dict):
            depth, value = depth + 1, value["a"]
        self.assertEqual((depth, value), (NESTING_LIMIT - 1, []))
        self.assertEqual(reader.next(), Malformed("nested too deep"))
        self.assertEqual(reader.next(), Value([1]))

    def test_tooLong(self) -> None:
        """
        A value over the limit is refused as soon as it is (not only once it
        ends); the whitespace around values does not count.
        """
        reader = JSONValueReader(16)
        reader.feed(b'{"a": "' + b"x" * 20)
        self.assertEqual(reader.next(), TooLong(16))
        reader = JSONValueReader(16)
        reader.feed(b"[" + b"1," * 10 + b"1]")
        self.assertEqual(reader.next(), TooLong(16))
        self.assertEqual(self.readAll(JSONValueReader(16), b" \n" * 100, b'{"a": "xxxxxx"}',
                                      b"\r\n" * 100), [{"a": "xxxxxx"}])

    def test_scalarEndsAtWhitespace(self) -> None:
        """A number is whole only once something follows it."""
        reader = JSONValueReader()
        self.assertEqual(self.readAll(reader, b"12"), [])
        self.assertEqual(self.readAll(reader, b"3\n"), [123])


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
