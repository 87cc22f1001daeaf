"""
The external engine example, ``examples/engines/tictactoe/``, for real: the
engine runs as a process of its own (``sys.executable tictactoe.py`` in its
folder, as its manifest says) and the tests talk to it over its stdin and
stdout, one JSON object per line, as gameproto's server does.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections import deque
from pathlib import Path
from types import ModuleType
from typing import Any

from twisted.internet import defer
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase

from gameproto.test.examples_harness import (
    Process,
    ProcessTestCase,
    loadScript,
    requireSourceTree,
)

ENGINE = requireSourceTree("gameproto.test.test_external_example",
                           "examples/engines/tictactoe") / "examples" / "engines" / "tictactoe"


def load(name: str) -> ModuleType:
    """Import a script of the engine's folder (the engine itself is never run in process)."""
    return loadScript(ENGINE / f"{name}.py", f"tictactoe_example.{name}")


def click(player: int, cell: int, size: int = 3, button: str = "LEFT") -> dict[str, Any]:
    """A left click in the middle of ``cell`` (numbered row by row from 0)."""
    return {"player": player, "type": "CLICK", "x": (cell % size) * 100 + 50,
            "y": (cell // size) * 100 + 50, "button": button}


def key(player: int, k: str) -> dict[str, Any]:
    return {"player": player, "type": "KEY", "key": k}


def zones(cells: list[int], size: int = 3) -> list[dict[str, int]]:
    return [{"x": (c % size) * 100, "y": (c // size) * 100, "width": 100, "height": 100}
            for c in cells]


def status(display: dict[str, Any]) -> str:
    """The status line of a display."""
    [text] = [tag["content"] for tag in display["content"] if tag.get("id") == "status"]
    return text


def marks(display: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The sprites shown, by their top-left corner."""
    return {(tag["x"], tag["y"]): tag["href"] for tag in display["content"]
            if tag["tag"] == "image"}


class EngineProcess(Process):
    """
    An engine as a child process: L{send} writes one line and fires with the
    one line answered; every line out is kept in ``received`` and must be JSON.
    """

    def __init__(self) -> None:
        super().__init__()
        self.unasked: list[str] = []
        self._waiting: deque[defer.Deferred[dict[str, Any]]] = deque()

    def lineReceived(self, line: str) -> None:
        if not self._waiting:
            self.unasked.append(line)
            return
        waiting = self._waiting.popleft()
        try:
            message = json.loads(line)
        except ValueError:
            waiting.errback(Failure(AssertionError(f"not a JSON line: {line!r}")))
        else:
            waiting.callback(message)

    def send(self, message: dict[str, Any] | str) -> defer.Deferred[dict[str, Any]]:
        """Write ``message`` (an object, or a raw line) and wait for the answer."""
        line = message if isinstance(message, str) else json.dumps(message)
        answered: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self._waiting.append(answered)
        self.write(line)
        return answered

    def processEnded(self, reason: Failure) -> None:
        while self._waiting:
            self._waiting.popleft().errback(Failure(AssertionError(
                f"the engine ended without answering: {self.err.decode(errors='replace')}")))
        super().processEnded(reason)


class EngineTestCase(ProcessTestCase):
    timeout = 10
    processTimeout = 8.0

    def spawn(self) -> EngineProcess:
        """Run the engine as its manifest says, with this Python; killed after a while."""
        # Not unbuffered: the engine must flush each answer itself.
        process = self.spawnPython(EngineProcess(), Path("tictactoe.py"), cwd=ENGINE,
                                   unbuffered=False)

        async def cleanUp() -> None:
            if not process.ended.called:
                process.transport.closeStdin()  # type: ignore[union-attr]
            await process.ended
            self.assertEqual(process.code, 0, process.err.decode(errors="replace"))
            self.assertEqual(process.unasked, [], "lines nobody asked for")
            self.assertEqual(process.err, b"")

        self.addCleanup(lambda: defer.ensureDeferred(cleanUp()))
        return process

    async def started(self, **params: Any) -> tuple[EngineProcess, dict[str, Any]]:
        """A running engine after a valid INITIALISATION, and its answer."""
        engine = self.spawn()
        answer = await engine.send({"init": {"players": 2, **params}})
        self.assertNotIn("errors", answer)
        return engine, answer

    async def play(self, engine: EngineProcess,
                   actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every answer to ``actions``, each checked to be INSTRUCTIONS."""
        answers = []
        for action in actions:
            answer = await engine.send(action)
            self.assertNotIn("errors", answer, action)
            answers.append(answer)
        return answers

    def assertStatus(self, answer: dict[str, Any], one: str, two: str) -> None:
        self.assertEqual([d["player"] for d in answer["displays"]], [1, 2])
        self.assertEqual([status(d) for d in answer["displays"]], [one, two])


class InitialisationTests(EngineTestCase):
    async def test_answer(self) -> None:
        """The answer to INITIALISATION: initvalues, the board, both requests for the starter."""
        engine, answer = await self.started(first="1")
        self.assertEqual(set(answer),
                         {"displays", "requested_actions", "game_state", "initvalues"})
        self.assertEqual(answer["initvalues"], {"first": 1})
        self.assertEqual(answer["game_state"], {"scores": [0, 0], "gameover": False})
        self.assertEqual(answer["requested_actions"], [
            {"type": "CLICK", "player": 1, "zones": zones(list(range(9))), "buttons": ["LEFT"],
             "confirm": False},
            {"type": "KEY", "player": 1, "keys": "123456789", "confirm": False},
        ])
        self.assertStatus(answer, "your move", "their move")
        for display in answer["displays"]:
            self.assertEqual((display["width"], display["height"]), (300, 340))
            self.assertEqual(marks(display), {})
            for tag in display["content"]:
                self.assertIn(tag["tag"], {"rect", "line", "text", "image"})

    async def test_secondStarts(self) -> None:
        engine, answer = await self.started(first="2", size=4)
        self.assertEqual(answer["initvalues"], {"first": 2})
        [request] = answer["requested_actions"]  # no KEY on a 4x4 board
        self.assertEqual(request["player"], 2)
        self.assertEqual(request["zones"], zones(list(range(16)), 4))
        self.assertStatus(answer, "their move", "your move")
        self.assertEqual(answer["displays"][0]["width"], 400)

    async def test_randomFirst(self) -> None:
        """By default who starts is drawn, and returned in initvalues."""
        engine, answer = await self.started()
        first = answer["initvalues"]["first"]
        self.assertIn(first, (1, 2))
        self.assertEqual({r["player"] for r in answer["requested_actions"]}, {first})

    async def test_quotedNumbers(self) -> None:
        """The document's example quotes every value: "2" is 2."""
        engine = self.spawn()
        answer = await engine.send({"init": {"players": "2", "size": "3", "first": "1"}})
        self.assertEqual(answer["initvalues"], {"first": 1})

    async def test_errors(self) -> None:
        """
        MISSING_ARGUMENT, INCORRECT_VALUE and UNEXPECTED_ARGUMENT, all found
        at once; the engine then still waits for a valid INITIALISATION.
        """
        engine = self.spawn()
        answer = await engine.send({"init": {"size": 6, "first": "3", "colour": "red"}})
        self.assertEqual(answer, {"errors": [
            {"type": "UNEXPECTED_ARGUMENT", "argname": "colour", "value": "red"},
            {"type": "MISSING_ARGUMENT", "arg": "players"},
            {"type": "INCORRECT_VALUE", "arg": "size", "value": 6},
            {"type": "INCORRECT_VALUE", "arg": "first", "value": "3"},
        ]})
        for players in (3, 1, True, 2.5, "two"):
            answer = await engine.send({"init": {"players": players}})
            self.assertEqual(answer, {"errors": [
                {"type": "INCORRECT_VALUE", "arg": "players", "value": players}]})
        self.assertEqual(await engine.send(click(1, 0)), {"errors": [{"type": "BAD_FORMAT"}]})
        self.assertEqual(await engine.send({"init": [2]}), {"errors": [{"type": "BAD_FORMAT"}]})
        answer = await engine.send({"init": {"players": 2, "first": "1"}})
        self.assertEqual(answer["initvalues"], {"first": 1})

    async def test_badInitvalues(self) -> None:
        """initvalues that could not come from this engine are refused."""
        engine = self.spawn()
        for initvalues in ({"first": 3}, {}, [1], {"first": 1, "seed": 4}):
            answer = await engine.send({"init": {"players": 2}, "initvalues": initvalues})
            self.assertEqual(answer, {"errors": [
                {"type": "INCORRECT_VALUE", "arg": "initvalues", "value": initvalues}]})
        answer = await engine.send({"init": {"players": 2, "first": "1"},
                                    "initvalues": {"first": 2}})
        self.assertEqual(answer["errors"][0]["arg"], "initvalues")
        answer = await engine.send({"init": {"players": 2}, "initvalues": {"first": 2}})
        self.assertEqual(answer["initvalues"], {"first": 2})


class GameTests(EngineTestCase):
    async def test_winByClicks(self) -> None:
        """X takes the top row; the loser sees "you lose", then nothing is asked."""
        engine, answer = await self.started(first="1")
        moves = [click(1, 0), click(2, 4), click(1, 1), click(2, 8), click(1, 2)]
        answers = await self.play(engine, moves)
        for turn, answer in enumerate(answers[:-1]):
            player = 2 - turn % 2
            self.assertEqual([r["player"] for r in answer["requested_actions"]],
                             [player, player])
            self.assertEqual(len(answer["requested_actions"][0]["zones"]), 8 - turn)
            self.assertEqual(answer["game_state"], {"scores": [0, 0], "gameover": False})
            self.assertNotIn("initvalues", answer)
        self.assertEqual(answers[1]["requested_actions"][0]["zones"],
                         zones([1, 2, 3, 5, 6, 7, 8]))
        self.assertEqual(answers[1]["requested_actions"][1]["keys"], "2346789")
        last = answers[-1]
        self.assertEqual(last["requested_actions"], [])
        self.assertEqual(last["game_state"], {"scores": [1, 0], "gameover": True})
        self.assertStatus(last, "you win", "you lose")
        self.assertEqual(marks(last["displays"][0]), {
            (10, 10): "x.svg", (110, 10): "x.svg", (210, 10): "x.svg",
            (110, 110): "o.svg", (210, 210): "o.svg"})
        self.assertIn({"tag": "line", "x1": 50, "y1": 50, "x2": 250, "y2": 50,
                       "stroke": "#dc2626", "stroke-width": 8}, last["displays"][1]["content"])

    async def test_secondWinsDiagonal(self) -> None:
        """On a 4x4 board, four in a row: player 2 (O) wins the anti-diagonal."""
        engine, answer = await self.started(first="1", size=4)
        moves = [click(1, 0, 4), click(2, 3, 4), click(1, 1, 4), click(2, 6, 4),
                 click(1, 2, 4), click(2, 9, 4), click(1, 4, 4), click(2, 12, 4)]
        answers = await self.play(engine, moves)
        self.assertEqual([a["game_state"]["gameover"] for a in answers], [False] * 7 + [True])
        self.assertEqual(answers[-1]["game_state"]["scores"], [0, 1])
        self.assertStatus(answers[-1], "you lose", "you win")

    async def test_draw(self) -> None:
        engine, answer = await self.started(first="2")
        # O X O / O X X / X O O, O first
        moves = [click(2, 0), click(1, 1), click(2, 2), click(1, 4), click(2, 7),
                 click(1, 5), click(2, 3), click(1, 6), click(2, 8)]
        answers = await self.play(engine, moves)
        self.assertEqual(answers[-2]["game_state"], {"scores": [0, 0], "gameover": False})
        last = answers[-1]
        self.assertEqual(last["game_state"], {"scores": [0, 0], "gameover": True})
        self.assertEqual(last["requested_actions"], [])
        self.assertStatus(last, "draw", "draw")
        self.assertEqual(len(marks(last["displays"][0])), 9)

    async def test_keys(self) -> None:
        """A whole game by keys 1-9, mixed with clicks."""
        engine, answer = await self.started(first="1")
        answers = await self.play(engine, [key(1, "5"), key(2, "1"), click(1, 2),
                                           key(2, "2"), key(1, "7")])
        self.assertEqual(answers[0]["requested_actions"][1],
                         {"type": "KEY", "player": 2, "keys": "12346789", "confirm": False})
        self.assertEqual(marks(answers[0]["displays"][1]), {(110, 110): "x.svg"})
        self.assertEqual(answers[-1]["game_state"], {"scores": [1, 0], "gameover": True})

    async def test_gameOver(self) -> None:
        """After the end, every action is UNEXPECTED_ACTION."""
        engine, answer = await self.started(first="1")
        await self.play(engine, [key(1, "1"), key(2, "4"), key(1, "2"), key(2, "5"),
                                 key(1, "3")])
        for action in (click(2, 8), key(1, "9")):
            self.assertEqual(await engine.send(action), {"errors": [
                {"type": "UNEXPECTED_ACTION", "player": action["player"], "action": action}]})


class ActionErrorTests(EngineTestCase):
    """Each error an action can get; after one, nothing changed."""

    async def assertNothingChanged(self, engine: EngineProcess, before: dict[str, Any]) -> None:
        """``before`` was the last answer: the player it asked can still take the centre."""
        player = before["requested_actions"][0]["player"]
        answer = await engine.send(click(player, 4))
        self.assertEqual(marks(answer["displays"][0]),
                         {**marks(before["displays"][0]), (110, 110): SPRITE[player]})
        self.assertEqual(answer["requested_actions"][0]["player"], 3 - player)

    async def test_wrongPlayer(self) -> None:
        engine, answer = await self.started(first="1")
        for action in (click(2, 0), key(2, "1"), click(3, 0)):
            self.assertEqual(await engine.send(action), {"errors": [
                {"type": "UNEXPECTED_ACTION", "player": action["player"], "action": action}]})
        await self.assertNothingChanged(engine, answer)

    async def test_unrequestedKind(self) -> None:
        """TEXT is never asked for, KEY not on a 4x4 board."""
        engine, answer = await self.started(first="1")
        text = {"player": 1, "type": "TEXT", "text": "5"}
        self.assertEqual(await engine.send(text), {"errors": [
            {"type": "UNEXPECTED_ACTION", "player": 1, "action": text}]})
        engine, answer = await self.started(first="1", size=4)
        self.assertEqual(await engine.send(key(1, "1")), {"errors": [
            {"type": "UNEXPECTED_ACTION", "player": 1, "action": key(1, "1")}]})

    async def test_occupied(self) -> None:
        """A click on a mark, or off the board: OUT_OF_ZONE."""
        engine, answer = await self.started(first="1")
        [answer] = await self.play(engine, [click(1, 0)])
        requested = answer["requested_actions"][0]
        for action in (click(2, 0), {"player": 2, "type": "CLICK", "x": 150, "y": 310},
                       {"player": 2, "type": "CLICK", "x": -1, "y": 50}):
            self.assertEqual(await engine.send(action), {"errors": [
                {"type": "WRONG_ACTION", "subtype": "OUT_OF_ZONE", "player": 2,
                 "action": action, "requested_action": requested}]})
        await self.assertNothingChanged(engine, answer)

    async def test_wrongButton(self) -> None:
        engine, answer = await self.started(first="1")
        action = click(1, 4, button="RIGHT")
        self.assertEqual(await engine.send(action), {"errors": [
            {"type": "WRONG_ACTION", "subtype": "WRONG_BUTTON", "player": 1, "action": action,
             "requested_action": answer["requested_actions"][0]}]})
        await self.assertNothingChanged(engine, answer)

    async def test_keyNotAllowed(self) -> None:
        """A key that is no cell, or a taken cell's: KEY_NOT_ALLOWED."""
        engine, answer = await self.started(first="1")
        [answer] = await self.play(engine, [key(1, "1")])
        for action in (key(2, "1"), key(2, "0"), key(2, "a")):
            self.assertEqual(await engine.send(action), {"errors": [
                {"type": "WRONG_ACTION", "subtype": "KEY_NOT_ALLOWED", "player": 2,
                 "action": action, "requested_action": answer["requested_actions"][1]}]})
        await self.assertNothingChanged(engine, answer)

    async def test_badFormat(self) -> None:
        """Not JSON, not an object, or an action missing its values: BAD_FORMAT."""
        engine, answer = await self.started(first="1")
        for line in ("this is not JSON", "", "[1, 2]", '{"player": 1, "type": "CLICK", "x": NaN, '
                     '"y": 1}', json.dumps({"player": 1, "type": "CLICK", "x": 50}),
                     json.dumps({"player": 1, "type": "CLICK", "x": 50, "y": 50,
                                 "button": "THUMB"}),
                     json.dumps({"player": 1, "type": "KEY", "key": "12"}),
                     json.dumps({"player": 1, "type": "SHOUT"}),
                     json.dumps({"player": "1", "type": "KEY", "key": "1"}),
                     json.dumps({"init": {"players": 2}})):
            self.assertEqual(await engine.send(line), {"errors": [{"type": "BAD_FORMAT"}]},
                             line)
        await self.assertNothingChanged(engine, answer)

    async def test_badFormatBeforeInit(self) -> None:
        engine = self.spawn()
        self.assertEqual(await engine.send("{not json"), {"errors": [{"type": "BAD_FORMAT"}]})
        answer = await engine.send({"init": {"players": 2}})
        self.assertIn("initvalues", answer)


SPRITE = {1: "x.svg", 2: "o.svg"}


class ProcessTests(EngineTestCase):
    async def test_replay(self) -> None:
        """
        INITIALISATION with the initvalues of a first run, then the same
        actions: the very same lines, errors included.
        """
        first = self.spawn()
        answer = await first.send({"init": {"players": 2}})
        starter = answer["initvalues"]["first"]
        other = 3 - starter
        # errors included: a taken cell twice
        actions = [click(starter, 4), click(other, 4), key(other, "1"), click(starter, 2),
                   click(other, 8), click(starter, 0), click(starter, 6)]
        for action in actions:
            await first.send(action)
        replay = self.spawn()
        await replay.send({"init": {"players": 2}, "initvalues": answer["initvalues"]})
        for action in actions:
            await replay.send(action)
        self.assertEqual(replay.received, first.received)
        self.assertEqual(json.loads(replay.received[-1])["game_state"]["gameover"], True)

    async def test_endOfInput(self) -> None:
        """Closing stdin ends the engine with exit code 0, before or during a game."""
        for init in (None, {"init": {"players": 2}}):
            engine = self.spawn()
            if init is not None:
                await engine.send(init)
            engine.transport.closeStdin()  # type: ignore[union-attr]
            self.assertEqual(await engine.ended, 0)
            self.assertEqual(engine.err, b"")

    async def test_oneLinePerAnswer(self) -> None:
        """Lines sent at once get one answer each, in order, and nothing else on stdout."""
        engine = self.spawn()
        batch = [json.dumps({"init": {"players": 2, "first": "1"}}), "oops",
                 json.dumps(click(1, 0)), json.dumps(click(1, 1))]
        answers = await defer.gatherResults([engine.send(line) for line in batch])
        self.assertIn("initvalues", answers[0])
        self.assertEqual(answers[1], {"errors": [{"type": "BAD_FORMAT"}]})
        self.assertEqual(answers[2]["requested_actions"][0]["player"], 2)
        self.assertEqual(answers[3]["errors"][0]["type"], "UNEXPECTED_ACTION")
        self.assertEqual(len(engine.received), 4)

    async def test_readmeTranscript(self) -> None:
        """The README's example game is the engine's exact I/O."""
        readme = (ENGINE / "README.md").read_text("utf-8")
        [block] = re.findall(r"```transcript\n(.*?)```", readme, re.DOTALL)
        lines = block.splitlines()
        self.assertEqual([line[:2] for line in lines], ["> ", "< "] * (len(lines) // 2))
        self.assertGreater(len(lines), 10)
        engine = self.spawn()
        for sent in lines[::2]:
            await engine.send(sent[2:])
        self.assertEqual(engine.received, [line[2:] for line in lines[1::2]])


class ManifestTests(TestCase):
    def test_manifest(self) -> None:
        """The manifest: name, command, the parameter description, the sprites."""
        manifest = json.loads((ENGINE / "manifest.json").read_text("utf-8"))
        self.assertEqual(set(manifest), {"name", "command", "parameters", "sprites"})
        self.assertEqual(manifest["name"], "tictactoe")
        self.assertEqual(manifest["command"], ["python3", "tictactoe.py"])
        self.assertTrue((ENGINE / manifest["command"][1]).is_file())
        parameters = manifest["parameters"]
        self.assertEqual(list(parameters), ["players", "size", "first"])
        self.assertEqual(parameters["players"]["range"], [2, 2])
        self.assertNotIn("default", parameters["players"])
        self.assertEqual(parameters["size"],
                         {**parameters["size"], "type": "int", "range": [3, 5], "default": 3})
        self.assertEqual(parameters["first"], {**parameters["first"], "type": "string",
                                               "format": "^(random|1|2)$",
                                               "default": "random"})
        for described in parameters.values():
            self.assertIsInstance(described["description"], str)
            self.assertIn(described["type"], {"int", "float", "string"})
        re.compile(parameters["first"]["format"])
        self.assertEqual(parameters, load("tictactoe").PARAMETERS)

    def test_sprites(self) -> None:
        """The committed zip holds x.svg and o.svg, as make_sprites.py builds it."""
        manifest = json.loads((ENGINE / "manifest.json").read_text("utf-8"))
        data = (ENGINE / manifest["sprites"]).read_bytes()
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            self.assertEqual(sorted(archive.namelist()), ["o.svg", "x.svg"])
            for name in ("x.svg", "o.svg"):
                self.assertTrue(archive.read(name).startswith(b"<svg "))
        self.assertEqual(data, load("make_sprites").build())
        self.assertEqual(load("tictactoe").SPRITES, {1: "x.svg", 2: "o.svg"})


MINIMAL = ENGINE.parent / "minimal"
ENGINE_DOC = ENGINE.parent.parent.parent / "docs" / "protocols" / "enginejson.md"


class MinimalExampleTests(TestCase):
    """
    ``examples/engines/minimal``, the engine "What an engine author must
    know" shows whole (``test_external`` plays it through the server).
    """

    def documented(self, language: str) -> list[str]:
        """The ``language`` code blocks of the page's "A minimal engine"."""
        page = ENGINE_DOC.read_text("utf-8")
        section = page.split("#### A minimal engine", 1)[1].split("\n### ", 1)[0]
        return re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)

    def test_documentedWhole(self) -> None:
        """The page shows the engine and its manifest exactly as they are."""
        [code] = self.documented("python")
        self.assertEqual(code, (MINIMAL / "engine.py").read_text("utf-8"))
        [manifest] = self.documented("json")
        self.assertEqual(json.loads(manifest),
                         json.loads((MINIMAL / "manifest.json").read_text("utf-8")))

    def test_short(self) -> None:
        """About ten lines, the standard library only."""
        lines = [line for line in (MINIMAL / "engine.py").read_text("utf-8").splitlines()
                 if line.strip()]
        self.assertLessEqual(len(lines), 12)
        self.assertEqual(re.findall(r"^import .*", "\n".join(lines), re.M), ["import json, sys"])

    def test_manifest(self) -> None:
        from gameproto.engine.external import EngineManifest

        manifest = EngineManifest.load(MINIMAL)
        self.assertEqual((manifest.name, manifest.command), ("minimal", ("python3", "engine.py")))
        self.assertEqual([(p.name, p.default) for p in manifest.parameters], [("players", 1)])
        self.assertFalse(manifest.hiddenInformation)
