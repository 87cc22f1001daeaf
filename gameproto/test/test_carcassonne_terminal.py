"""
``examples/carcassonne_terminal.py``: the board drawn in text, placements
checked before they are sent, and whole games typed at its prompt against the
server's bot on 127.0.0.1, in process and as a process of its own.
"""

from __future__ import annotations

import os
import random
import re
from typing import Any, Callable

from twisted.internet import reactor
from twisted.internet.defer import Deferred
from twisted.trial.unittest import SynchronousTestCase

from gameproto.carcassonne import wire
from gameproto.carcassonne.server import (
    CarcassonneServer,
    CarcassonneServerFactory,
    CarcassonneSettings,
)
from gameproto.engine.hub import Hub
from gameproto.engine.record import replay
from gameproto.engine.registry import builtins
from gameproto.games.carcassonne import TILES, Board
from gameproto.test.examples_harness import ExampleTestCase, Process, loadScript
from gameproto.test.examples_harness import requireSourceTree

ROOT = requireSourceTree("gameproto.test.test_carcassonne_terminal")
terminal = loadScript(ROOT / "examples" / "carcassonne_terminal.py",
                      "examples.carcassonne_terminal")
TerminalClient: Any = terminal.TerminalClient

SETTINGS = CarcassonneSettings(timeout=10, ackTimeout=10, referee=True, botsAfter=0,
                               botDelay=0)
"""The rules engine referees; its bot joins a lone ready player at once and plays at once."""

PROMPT = "Your move (a "
HINT = re.compile(r"Hint: (\d+ \d+ [NESW](?: [A-Z]+)?)$")
JARGON = re.compile(r"\b(?:MOVENACK|MOVEACK|MOVE|FINISH|NOOP|READY|TOKEN|HELLO|CLOSE)\b")
"""Protocol words, which nothing the person reads should hold."""
FINAL = re.compile(r"Final scores \(with the incomplete features and the farms\): "
                   r"you \((\w+)\) (\d+), player 2 (\d+)")
"""The final scores, in the words of a game (its lines joined: L{prose})."""
ZONES = [*terminal.ZONES[:-1], *terminal.wrap(terminal.ZONES[-1], 80)]
"""The follower zones as an 80-column terminal shows them: the drawing, then its key wrapped."""


def prose(lines: list[str]) -> str:
    """What the lines say, their words joined again where a sentence was wrapped."""
    return " ".join(lines)


class Typist:
    """
    Types into a terminal client at its prompts: the ``first`` answers, then
    ``hint`` and the placement the hint gives.
    """

    def __init__(self, client: Callable[..., Any], first: list[str], name: str = "alice",
                 quitAfter: int | None = None) -> None:
        self.lines: list[str] = []
        self.answers = list(first)
        self.hinted: str | None = None
        self.quitAfter = quitAfter
        self.client = client(name, self.out, rng=random.Random(4))

    def out(self, line: str) -> None:
        self.lines.append(line)
        hint = HINT.match(line)
        if hint:
            self.hinted = hint.group(1)
        if not line.startswith(PROMPT):
            return
        if self.quitAfter is not None and self.client.movesPlayed >= self.quitAfter:
            answer = "q"
        elif self.answers:
            answer = self.answers.pop(0)
        elif self.hinted is not None:
            answer, self.hinted = self.hinted, None
        else:
            answer = "hint"
        reactor.callLater(0, self.client.feed, answer)


class Careless(TerminalClient):  # type: ignore[misc,valid-type]
    """Sends the first placement typed without checking it; records the refusals."""

    checked = False

    def problemWith(self, placement: Any) -> str | None:
        if not self.checked:
            self.checked = True
            return None
        return super().problemWith(placement)  # type: ignore[no-any-return]


def wide(board: Board) -> None:
    """Tiles on both sides of the start tile, in row 72 from 61 to 84 (columns 60 to 85)."""
    for x in [*range(73, 85), *range(71, 60, -1)]:
        tile, orientation = next((tile, o) for tile in sorted(TILES)
                                 for px, py, o in board.placements(tile) if (px, py) == (x, 72))
        board.place(tile, x, 72, orientation)


class RenderTests(SynchronousTestCase):
    """The text board and the checks made before a placement is sent."""

    def test_startBoard(self) -> None:
        """The start tile alone, with the squares around it marked where a tile fits."""
        lines = terminal.render(Board(), [(72, 71), (73, 72)])
        self.assertEqual(lines, [
            "       71      72      73",
            "",
            " 71            ?",
            "",
            "            +--R--+",
            " 72         F d   C    ?",
            "            +--R--+",
            "",
            " 73",
            "",
        ])

    def test_followers(self) -> None:
        """A follower shows after the tile's letter: ``*`` ours, a number another's."""
        self.assertEqual(terminal.tileBlock("tile-x", "N", (0, "SR")),
                         ["+--R--+", "R x*SRR", "+--R--+"])
        self.assertEqual(terminal.tileBlock("tile-e", "E", (3, "C")),
                         ["+--F--+", "C e3C F", "+--F--+"])
        board = Board()
        board.place("tile-u", 72, 71, "N", (2, "E"))
        self.assertIn(" 71         F u2E F", terminal.render(board))
        self.assertEqual(terminal.orientations("tile-e")[1:], [
            "+--C--+  +--F--+  +--F--+  +--F--+",
            "F e   F  C e   F  F e   F  F e   C",
            "+--F--+  +--F--+  +--C--+  +--F--+",
        ])

    def test_problems(self) -> None:
        """Each placement that breaks the rules gets its reason."""
        client = TerminalClient("alice", lambda line: None)
        self.assertIsNone(client.problemWith(("tile-u", 72, 71, "N", "E")))
        self.assertEqual(client.problemWith(("tile-c", 72, 71, "N", None)),
                         "a four-sided city with a shield (c) does not fit at (72, 71) N: "
                         "its S edge (C) meets R")
        self.assertEqual(client.problemWith(("tile-u", 72, 72, "N", None)),
                         "a straight road (u) does not fit at (72, 72) N: "
                         "(72, 72) already holds a tile")
        self.assertEqual(client.problemWith(("tile-u", 10, 10, "N", None)),
                         "a straight road (u) does not fit at (10, 10) N: (10, 10) touches no tile")
        self.assertEqual(client.problemWith(("tile-u", 72, 71, "N", "NL")), None)
        self.assertEqual(client.problemWith(("tile-e", 72, 71, "N", "C")),
                         "a city edge (e) does not fit at (72, 71) N: its S edge (F) meets R")
        self.assertEqual(client.problemWith(("tile-u", 72, 71, "N", "C")), None)
        self.assertEqual(client.problemWith(("tile-b", 71, 72, "N", "NL")), None)
        self.assertEqual(client.problemWith(("tile-v", 72, 71, "N", "C")),
                         "no follower may stand on C there; free zones: NL N NR EL E ER SL S SR WL W WR")
        client.pile["tile-c"] = 0
        self.assertEqual(client.problemWith(("tile-c", 73, 72, "N", None)), 
                         "no copy of a four-sided city with a shield (c) is left")
        self.assertEqual(client.problemWith(("tile-u", 200, 71, "N", None)),
                         "coordinates are 0 to 144")

    def test_zones(self) -> None:
        """
        The follower zones a placement names are drawn at the start, and
        again on ``zones``, at any time; at a turn the question follows.
        """
        lines: list[str] = []
        client = TerminalClient("alice", lines.append)
        client.gameStarted()
        start = lines.index(terminal.ZONES[0])
        self.assertEqual(lines[start:], ZONES)
        self.assertIn("     W  |   C   | E", lines)
        del lines[:]
        client.feed("zones")
        self.assertEqual(lines, ZONES)
        del lines[:]
        client.drawn, client._answer = "tile-u", Deferred()
        client.feed(" Z ")
        self.assertEqual(lines, [*ZONES, "Your move (a straight road (u)): "
                                 "x y orientation [zone], hint, help, or q:"])
        del lines[:]
        client.feed("72 71 N XX")
        self.assertEqual(prose(lines[:2]), "'XX' is not a zone: " + " ".join(wire.ZONES)
                         + " (or none; zones shows where they are).")
        self.assertFalse(client._answer.called)

    def test_plainWords(self) -> None:
        """What the server or the other players did is said in words, not in protocol words."""
        lines: list[str] = []
        client = TerminalClient("alice", lines.append)
        client.moveReceived(wire.Move(2, "tile-u", 72, 72, "N", None, 1), False)
        client.gameStopped()
        client.noopReceived()
        client.gameFinished(2)
        said = prose(lines)
        self.assertTrue(said.startswith(
            "Player 2 played a straight road (u) at (72, 72) N, no follower, which breaks "
            "the rules: this client refused it. "
            "A player refused the last move as breaking the rules; the game stops. "
            "The server did not understand or did not allow the last line this client sent. "),
            lines)
        self.assertIn(" The game is over (player 2 ended it): 1 tile on the board. ", said)
        self.assertLessEqual(max(map(len, lines)), 80)
        self.assertEqual([line for line in lines if JARGON.search(line)], [])

    def test_wideBoard(self) -> None:
        """
        A board wider than the terminal shows the columns around the last
        move, numbered, and says where the others are; ``view X`` moves the
        window, ``board`` shows everything in strips; no line is wider than
        the terminal.
        """
        lines: list[str] = []
        client = TerminalClient("alice", lines.append)
        self.assertEqual(client.width, 80)
        wide(client.rules)  # 60 to 85
        self.assertEqual(terminal.render(client.rules)[0].split()[:2], ["60", "61"])
        self.assertGreater(len(terminal.render(client.rules)[0]), 200)
        client.drawn, client._answer = "tile-u", Deferred()
        client.showTurn()
        board = lines[1:lines.index(terminal.wrap(terminal.LEGEND, 80)[0])]
        self.assertLessEqual(max(map(len, board)), 80)
        # nine columns in 80 characters, around the last tile placed (61, 72)
        self.assertEqual(board[0].split(), [str(x) for x in range(60, 69)])
        self.assertEqual(board[-1], "Columns 60-68 of 60-85 (? also right); "
                         "view X or board shows the rest.")
        del lines[:]
        client.feed("view 70")
        self.assertEqual(lines[0].split(), [str(x) for x in range(66, 75)])
        self.assertTrue(lines[-1].startswith(PROMPT), lines[-1])
        self.assertIn("Columns 66-74 of 60-85 (? also left); "
                      "view X or board shows the rest.", lines)
        del lines[:]
        client.feed("view 200")  # as far right as the board goes
        self.assertEqual(lines[0].split(), [str(x) for x in range(77, 86)])
        self.assertIn("Columns 77-85 of 60-85 (? also left); view X or board shows the rest.",
                      lines)
        del lines[:]
        client.feed("view")
        self.assertEqual(lines[0].split(), [str(x) for x in range(60, 69)])
        del lines[:]
        client.feed("board")
        self.assertLessEqual(max(map(len, lines)), 80)
        headers = [line.split() for line in lines if line.startswith("    ") and line.strip()
                   and line.split()[0].isdigit()]
        self.assertEqual(sum(headers, []), [str(x) for x in range(60, 86)])
        self.assertEqual(len([line for line in lines if line.startswith(" 72 ")]), 3)
        del lines[:]
        # (int() refuses the last two)
        for typed in ("view x", "view \u00b2", "view " + "9" * 5000):
            client.feed(typed)
            self.assertEqual(lines[0], "Type view X (a column number), or view alone to "
                             "follow the play.")
            del lines[:]
        client.feed("help")
        self.assertEqual(lines, [*terminal.HELP, lines[-1]])
        self.assertTrue(lines[-1].startswith(PROMPT), lines[-1])
        self.assertLessEqual(max(map(len, terminal.HELP)), 80)

    def test_narrowBoard(self) -> None:
        """A board that fits is drawn whole, with no word about columns."""
        lines: list[str] = []
        client = TerminalClient("alice", lines.append, width=220)
        wide(client.rules)
        client.drawn = "tile-u"
        client.showTurn()
        self.assertEqual(lines[1].split(), [str(x) for x in range(60, 86)])
        self.assertFalse([line for line in lines if line.startswith("Columns ")])

    def test_width(self) -> None:
        """--width (20 at least), else the terminal's width (20 at least), else 80."""
        self.assertEqual(terminal.parseArguments(["--width", "60"]).width, 60)
        self.patch(terminal.shutil, "get_terminal_size",
                   lambda fallback=(80, 24): os.terminal_size((132, 40)))
        self.assertEqual(terminal.parseArguments([]).width, 132)
        self.patch(terminal.shutil, "get_terminal_size",
                   lambda fallback=(80, 24): os.terminal_size(fallback))
        self.assertEqual(terminal.parseArguments([]).width, 80)
        # a terminal narrower than the client can draw: drawn at the narrowest
        self.patch(terminal.shutil, "get_terminal_size",
                   lambda fallback=(80, 24): os.terminal_size((8, 24)))
        self.assertEqual(terminal.parseArguments([]).width, terminal.MIN_WIDTH)
        for narrow in ("19", "0", "-1"):
            self.assertRaises(SystemExit, terminal.parseArguments, ["--width", narrow])

    def test_wrapped(self) -> None:
        """
        Words are wrapped between words at the terminal's width
        (L{gameproto.terminal.wrap}); drawings are shown as they are.
        """
        lines: list[str] = []
        client = TerminalClient("alice", lines.append, width=40)
        client.drawn, client._answer = "tile-u", Deferred()
        client.showTurn()
        client.feed("help")
        words = [line for line in lines if "+--" not in line and "|" not in line]
        self.assertLessEqual(max(map(len, words)), 40)
        self.assertIn("Edges: C city, R road, F field; the tile's letter, then a follower "
                      "(* yours, 1-5 a player's) and its zone; ? where your tile fits.",
                      prose(lines))
        for line in terminal.orientations("tile-u"):
            self.assertIn(line, lines)  # 34 characters: drawn whole

    def test_typedWhenNotAsked(self) -> None:
        lines: list[str] = []
        client = TerminalClient("alice", lines.append)
        client.feed("72 71 N")
        self.assertEqual(lines, ["Nothing to answer now: wait (or q to quit)."])

    def test_scoresKept(self) -> None:
        """The client protocol keeps the rules engine's scores, by seat, as tiles are placed."""
        client = TerminalClient("alice", lambda line: None)
        client._place(wire.Move(0, "tile-e", 73, 72, "E", "W", 1), 0)
        self.assertEqual(client.scores, {0: 4})  # the start tile's city, completed
        client._place(wire.Move(2, "tile-u", 72, 71, "N", "N", 2), 2)
        self.assertEqual(client.scores, {0: 4})


class TerminalTests(ExampleTestCase):
    """L{TerminalClient} typed at line by line, and the script as a process."""

    root = ROOT
    timeout = 60
    processTimeout = 60.0

    def startServer(self) -> int:
        hub = Hub(reactor, rng=random.Random(3), registry=builtins())  # type: ignore[arg-type]
        self.server = CarcassonneServer(SETTINGS, hub=hub)
        return self.listenLocal(CarcassonneServerFactory(self.server))

    def finalScores(self) -> dict[int, int]:
        """The refereed game's scores, replayed from its record, by player number."""
        summaries, _ = self.server.store.games(0, 10)
        (summary,) = summaries
        record = self.server.store.get(summary.id)
        factory = self.server.hub.registry.get("carcassonne")
        assert record is not None and factory is not None
        game: Any = replay(factory, record)
        scores = game.view(0).scores
        return {1: scores[0], 2: scores[1]}

    async def test_wholeGame(self) -> None:
        """A whole game against the server's bot, typed at the prompt; bad input asked again."""
        port = self.startServer()
        typist = Typist(TerminalClient, ["", "72 72 N", "73 72 X", "9 9 N C", "hint"])
        client = typist.client
        await self.connect(port, client, client.done)
        self.assertIsNone(await client.done)
        lines = typist.lines

        self.assertEqual(lines[0], "Connected as alice. Waiting for 1 opponent...")
        self.assertIn("Player 2 is here.", lines)
        said = prose(lines)
        self.assertIn("The game starts: you (alice), player 2. "
                      "The start tile, a city edge with a straight road (d), is at (72, 72).",
                      said)
        self.assertEqual(lines.count("Type x y orientation [zone] (e.g. 73 72 N, or 73 72 W SR), "
                                     "hint, zones, or q."), 1)
        # the zones are drawn once, at the start (and on "zones")
        self.assertEqual(lines.count(terminal.ZONES[0]), 1)
        self.assertEqual(said.count("(72, 72) already holds a tile"), 1)
        self.assertEqual(lines.count("'X' is not an orientation: N, E, S or W."), 1)
        self.assertEqual(said.count("(9, 9) touches no tile"), 1)
        placed = [line for line in lines if line.startswith("You place a ")]
        self.assertEqual(len(placed), client.movesPlayed)
        self.assertEqual(lines.count("Everybody accepted your move."), client.movesPlayed)
        received = [line for line in lines if line.startswith("Player 2 placed a ")]
        self.assertEqual(len(placed) + len(received), 71)
        self.assertEqual([line for line in lines if JARGON.search(line)], [])
        # the board and the words fit an 80-column terminal, however wide the board grew
        self.assertLessEqual(max(map(len, lines)), 80)
        self.assertEqual(len(client.board), 72)

        # The final scores are the referee's, replayed from the record.
        (final,) = FINAL.finditer(said)
        referee = self.finalScores()
        self.assertEqual((int(final.group(2)), int(final.group(3))), (referee[1], referee[2]))
        result = {(True, False): "Result: you won!", (False, True): "Result: player 2 won.",
                  (True, True): "Result: a draw."}[(referee[1] >= referee[2],
                                                    referee[2] >= referee[1])]
        self.assertTrue(said.endswith(f"The game is over: 72 tiles on the board. "
                                      f"{final.group(0)} {result} Disconnected."), lines[-5:])

    async def test_refusedMove(self) -> None:
        """A placement the referee refuses: said in words with its reason, then the turn goes on."""
        port = self.startServer()
        typist = Typist(Careless, ["72 72 N"], quitAfter=1)
        client = typist.client
        await self.connect(port, client, client.done)
        self.assertIsNone(await client.done)
        lines = typist.lines
        said = prose(lines)
        self.assertEqual(said.count("The server refused your move"), 1)
        self.assertRegex(said, r"The server refused your move, a [a-z -]+ \([a-x]\) "
                         r"at \(72, 72\) N, no follower: a [a-z -]+ \([a-x]\) does not fit "
                         r"at \(72, 72\) N: \(72, 72\) already holds a tile\. Choose again\. "
                         + re.escape(PROMPT))
        self.assertEqual([line for line in lines if JARGON.search(line)], [])
        self.assertLessEqual(max(map(len, lines)), 80)
        self.assertEqual(client.movesPlayed, 1)
        self.assertEqual(lines[-1], "Disconnected.")

    async def test_terminalScript(self) -> None:
        """``carcassonne_terminal.py`` over a stdin pipe: a whole game answered at its prompt."""
        port = self.startServer()
        state: dict[str, str | None] = {"hint": None}

        def answer(process: Process, line: str) -> None:
            hint = HINT.match(line)
            if hint:
                state["hint"] = hint.group(1)
            elif line.startswith(PROMPT):
                typed, state["hint"] = state["hint"] or "hint", None
                process.write(typed)

        process = self.spawnExample("carcassonne_terminal", "--port", str(port),
                                    "--name", "typist", onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines[-5:])
        self.assertEqual(lines[0], "Connected as typist. Waiting for 1 opponent...")
        said = prose(lines)
        (final,) = FINAL.finditer(said)
        self.assertEqual(final.group(1), "typist")
        referee = self.finalScores()
        self.assertEqual((int(final.group(2)), int(final.group(3))), (referee[1], referee[2]))
        self.assertRegex(said, r"The game is over: 72 tiles on the board\. "
                         + re.escape(final.group(0)) + r" Result: [^.]*[.!] Disconnected\.$")

    async def test_terminalScriptInterrupted(self) -> None:
        """Ctrl-C (SIGINT) at the prompt leaves the game (CLOSE): exit 0, nothing on stderr."""
        port = self.startServer()

        def answer(process: Process, line: str) -> None:
            if line.startswith(PROMPT):
                process.transport.signalProcess("INT")  # type: ignore[union-attr]

        process = self.spawnExample("carcassonne_terminal", "--port", str(port), onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines[-5:])
        self.assertRegex(prose(lines[-3:]), re.escape(PROMPT) + r"[^:]*\): x y orientation "
                         r"\[zone\], hint, help, or q: Disconnected\.$")

    async def test_noServer(self) -> None:
        """Without a server: exit status 1 and one line on stderr."""
        process = self.spawnExample("carcassonne_terminal", "--port", str(self.freePort()))
        self.assertEqual(await process.ended, 1)
        self.assertIn(b"carcassonne_terminal: cannot connect to 127.0.0.1:", process.err)
