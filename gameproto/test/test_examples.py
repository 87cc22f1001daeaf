"""
The examples, for real: bots, the terminal client and the leaderboard app
play complete games against servers on 127.0.0.1, in process and as
processes of their own.
"""

from __future__ import annotations

import random
import re
from types import ModuleType
from typing import Any, Callable

import attrs
import treq
from twisted.internet import defer, reactor
from twisted.internet.protocol import connectionDone
from twisted.python.failure import Failure
from twisted.web.client import HTTPConnectionPool

from gameproto.connect4 import wire
from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.games.connect4 import Board, choose_column
from gameproto.web.websocket import connectMessageProtocol

from gameproto.test import examples_harness
from gameproto.test.examples_harness import Process, loadScript, requireSourceTree

ROOT = requireSourceTree("gameproto.test.test_examples")
EXAMPLES = ROOT / "examples"


def loadExample(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` (the examples are scripts, not a package)."""
    return loadScript(EXAMPLES / f"{name}.py", f"examples.{name}")


bot = loadExample("connect4_bot")
terminal = loadExample("connect4_terminal")
embedded = loadExample("connect4_embedded")
TerminalClient: Any = terminal.TerminalClient

FAST = Connect4Settings(timeout=1.0, firstMoveBonus=0.5, resendTimeout=0.5, choiceTimeout=2.0,
                        rematchDelay=0)
"""In-process games: every answer comes at once."""

REAL = Connect4Settings(rematchDelay=0)
"""Games with a separate process: the default times, as the examples assume them."""

RESULT = re.compile(r"game (\d+): (\w+ beat \w+|\w+ lost to \w+|draw with \w+) in (\d+) moves?$")


def quietBot(nick: str, games: int = 1) -> Any:
    """A fast L{BotClient} that prints nothing."""
    return bot.BotClient(nick, games, depth=2, report=lambda line: None)


class TrackedProtocol(Connect4ServerProtocol):
    """
    The server protocol, keeping its factory's set of open connections, so
    that a test ends once the server has seen every connection close (the
    nicks cannot tell: see L{TerminalTests.test_timedOutPlayerComesBack}).
    """

    factory: TrackingFactory

    def connectionMade(self) -> None:
        super().connectionMade()
        self.factory.open.add(self)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.factory.open.discard(self)


class TrackingFactory(Connect4ServerFactory):
    protocol = TrackedProtocol

    def __init__(self, server: Connect4Server) -> None:
        super().__init__(server)
        self.open: set[TrackedProtocol] = set()


class ExampleTestCase(examples_harness.ExampleTestCase):
    """A real server on 127.0.0.1 per test; the harness connects and spawns."""

    timeout = 20
    root = ROOT
    settings = FAST

    def startServer(self, settings: Connect4Settings | None = None) -> int:
        """Serve Protuissance 4 on a free port; returns the port number."""
        self.server = Connect4Server(settings or self.settings, reactor, rng=random.Random(4))
        factory = TrackingFactory(self.server)
        port = self.listenLocal(factory)
        self.addCleanup(self.until, lambda: not factory.open and not self.server.tables)
        return port


# -- connect4_bot.py ---------------------------------------------------------


class BotTests(ExampleTestCase):
    """L{BotClient} in process, and C{connect4_bot.py} as a process."""

    async def test_twoBotsPlayTwoGames(self) -> None:
        port = self.startServer()
        alice, bob = quietBot("alice", games=2), quietBot("bob", games=2)
        for client in (alice, bob):
            await self.connect(port, client, client.done)
        await defer.gatherResults([alice.done, bob.done])

        for me, other in ((alice, bob), (bob, alice)):
            self.assertIsNone(me.problem)
            self.assertEqual(len(me.results), 2)
            for number, line in enumerate(me.results, 1):
                match = RESULT.match(line)
                assert match is not None, line
                self.assertEqual(int(match.group(1)), number)
                self.assertIn(other.nick, line)
            self.assertTrue(me.board.is_over)
        self.assertEqual(alice.board, bob.board)
        # Each game seen the same way from both sides.
        for a, b in zip(alice.results, bob.results):
            self.assertEqual(RESULT.match(a).group(3), RESULT.match(b).group(3))  # type: ignore[union-attr]
            if "beat" in a:
                self.assertIn("bob lost to alice", b)
            elif "draw" in a:
                self.assertIn("draw with alice", b)
            else:
                self.assertIn("bob beat alice", b)
        records = list(self.server.store.records.values())  # type: ignore[attr-defined]
        self.assertEqual(len(records), 2)

    async def test_botScript(self) -> None:
        """``connect4_bot.py`` plays its game against an in-process bot and exits 0."""
        port = self.startServer(REAL)
        rival = quietBot("rival")
        await self.connect(port, rival, rival.done)
        process = self.spawnExample("connect4_bot", "--port", str(port), "--nick", "scripted",
                                    "--depth", "2")
        code = await process.ended
        self.assertEqual((code, process.err), (0, b""))
        (line,) = process.lines()
        match = RESULT.match(line)
        assert match is not None, line
        self.assertIn(match.group(2), ["scripted beat rival", "scripted lost to rival",
                                       "draw with rival"])
        await rival.done
        self.assertEqual(int(match.group(3)), rival.board.moves)

    async def test_botScriptConnectionRefused(self) -> None:
        process = self.spawnExample("connect4_bot", "--port", str(self.freePort()))
        code = await process.ended
        self.assertEqual(code, 1)
        self.assertIn(b"connect4_bot: cannot connect to 127.0.0.1:", process.err)
        self.assertEqual(process.out, b"")

    async def test_botScriptNickRefused(self) -> None:
        port = self.startServer(REAL)
        holder = quietBot("taken")
        await self.connect(port, holder, holder.done)
        process = self.spawnExample("connect4_bot", "--port", str(port), "--nick", "taken")
        code = await process.ended
        self.assertEqual(code, 1)
        self.assertEqual(process.err.strip(),
                         b"connect4_bot: nick 'taken' is already used by another player")


# -- connect4_terminal.py ----------------------------------------------------


class FastTerminal(TerminalClient):
    """The terminal client told the FAST server times, recording what it sends."""

    firstMoveBonus = FAST.firstMoveBonus
    resendTimeout = FAST.resendTimeout
    choiceTimeout = FAST.choiceTimeout

    def __init__(self, nick: str, out: Callable[[str], None]) -> None:
        super().__init__(nick, out, reactor, FAST.timeout)
        self.sent: list[wire.Message] = []

    def sendMessage(self, message: wire.Message) -> None:
        self.sent.append(message)
        super().sendMessage(message)

    def columnsSent(self) -> list[int]:
        return [m.column for m in self.sent if isinstance(m, wire.PlayMove)]


class Careless(FastTerminal):
    """A terminal client that sends the first column typed without checking it."""

    checked = False

    def problemWith(self, column: int) -> str | None:
        if not self.checked:
            self.checked = True
            return None
        return super().problemWith(column)


class Player:
    """Types into a terminal client: the ``first`` answers, then the bot's columns."""

    def __init__(self, client: Callable[[str, Callable[[str], None]], Any], nick: str,
                 first: list[str], again: str = "n") -> None:
        self.lines: list[str] = []
        self.answers = list(first)
        self.again = again
        self.client = client(nick, self.out)

    def out(self, line: str) -> None:
        self.lines.append(line)
        if line.startswith("Your move"):
            answer = self.answers.pop(0) if self.answers else str(
                choose_column(self.client.board, depth=2) + 1)  # a person counts from 1
        elif line.startswith("Play again?"):
            answer = self.again
        else:
            return
        reactor.callLater(0, self.client.feed, answer)


PROMPT = re.compile(r"Your move \(([XO])\): column 1-7, (\d+\.\d) s left:$")


def replay(lines: list[str], nick: str) -> Board:
    """
    Follow the moves the terminal announced (columns from 1), checking that
    each one is followed by the board drawn after it; the final board.
    """
    board = Board.empty()
    start = lines.index(next(line for line in lines if line.startswith("New game:")))
    assert lines[start + 1:start + 8] == terminal.render(board), lines[start:start + 8]
    for index, line in enumerate(lines):
        move = re.match(r"(You|\w+ \([XO]\)) played column (\d)\.$", line)
        if move:
            board = board.play(int(move.group(2)) - 1)
            assert lines[index + 1:index + 8] == terminal.render(board), lines[index:index + 8]
    return board


class TerminalTests(ExampleTestCase):
    """L{TerminalClient} driven line by line, and C{connect4_terminal.py} as a process."""

    async def playAgainstBot(self, player: Player) -> Any:
        port = self.startServer()
        rival = quietBot("rival")
        await self.connect(port, player.client, player.client.finished)
        await self.connect(port, rival, rival.done)
        problem = await player.client.finished
        await rival.done
        self.assertIsNone(problem)
        self.assertIsNone(rival.problem)
        return rival

    def test_render(self) -> None:
        board = Board.from_moves([3, 3, 4])
        self.assertEqual(terminal.render(board), [" . . . . . . ."] * 4 + [
            " . . . O . . .",
            " . . . X X . .",
            " 1 2 3 4 5 6 7",
        ])
        wide = terminal.render(Board.empty(12, 6))
        self.assertEqual(wide[-1], "  1  2  3  4  5  6  7  8  9 10 11 12")
        self.assertEqual(wide[0], "  ." * 12)

    async def test_fullGame(self) -> None:
        """A whole game typed line by line; bad input is asked again, never sent."""
        player = Player(FastTerminal, "human", ["left", "0", "8"])
        rival = await self.playAgainstBot(player)
        lines, client = player.lines, player.client

        self.assertEqual(lines[0], "Connected as human, 7x6 board. Waiting for an opponent...")
        prompts = [line for line in lines if line.startswith("Your move")]
        self.assertEqual(lines.count("Type a column number (or q to quit)."), 1)
        self.assertEqual(lines.count("There is no column 0: choose one from 1 to 7."), 1)
        self.assertEqual(lines.count("There is no column 8: choose one from 1 to 7."), 1)
        self.assertTrue(set(client.columnsSent()) <= set(range(7)))
        self.assertEqual(len(client.columnsSent()), len(prompts) - 3)
        # The person's numbers are one more than the protocol's columns.
        self.assertEqual([f"You played column {column + 1}." for column in client.columnsSent()],
                         [line for line in lines if line.startswith("You played column")])
        # Every prompt shows the time left; the first move of a game has the bonus.
        mark = terminal.MARKS[client.seat]
        for prompt in prompts:
            self.assertEqual(PROMPT.match(prompt).group(1), mark)  # type: ignore[union-attr]
        firstLeft = float(PROMPT.match(prompts[0]).group(2))  # type: ignore[union-attr]
        self.assertAlmostEqual(firstLeft, 1.5 if client.seat == 0 else 1.0, delta=0.1)

        # The boards printed after each move tell the whole game.
        self.assertEqual(replay(lines, "human"), rival.board)
        self.assertEqual(client.board, rival.board)
        (result,) = [line for line in lines if line.startswith("Result: ")]
        expected = {"rival beat human": "Result: you lost against rival.",
                    "rival lost to human": "Result: you won against rival!",
                    "draw with human": "Result: draw with rival."}
        (rivalResult,) = rival.results
        self.assertEqual(result, next(v for k, v in expected.items() if k in rivalResult))
        self.assertEqual(lines[-2:], ["Play again? [y/n] (within 2 s)", "Disconnected."])

    async def test_refusedMove(self) -> None:
        """A column the server refuses: ERR_INVALID_COLUMN is shown, the turn goes on."""
        player = Player(Careless, "human", ["8"])  # column 7 from 0: off the board
        await self.playAgainstBot(player)
        lines, client = player.lines, player.client
        self.assertEqual(client.columnsSent().count(7), 1)
        refusal = lines.index("The server refused that column (ERR_INVALID_COLUMN); "
                              "0.5 s to play another, or the game is lost.")
        board = lines[refusal + 1:refusal + 8]
        self.assertEqual(board[-1], " 1 2 3 4 5 6 7")
        self.assertEqual(sum(row.count("X") + row.count("O") for row in board[:-1]),
                         client.seat)  # our stone is not on the board
        retry = PROMPT.match(lines[refusal + 8])
        assert retry is not None, lines[refusal + 8]
        self.assertAlmostEqual(float(retry.group(2)), 0.5, delta=0.1)
        self.assertEqual(len([line for line in lines if line.startswith("Result: ")]), 1)

    async def test_timedOut(self) -> None:
        """Nobody types: ERR_TIMEOUT, a clear message, and the session ends."""
        port = self.startServer(attrs.evolve(FAST, timeout=0.2, firstMoveBonus=0))
        lines: list[str] = []
        silent = FastTerminal("sleepy", lines.append)
        rival = quietBot("rival")
        await self.connect(port, silent, silent.finished)
        await self.connect(port, rival, rival.done)
        problem = await silent.finished
        await rival.done
        self.assertEqual(problem, "too slow: the server timed you out (ERR_TIMEOUT)")
        self.assertEqual(lines[-2:], [
            "Too slow! The server timed you out (ERR_TIMEOUT) and closes the connection.",
            "Disconnected.",
        ])
        (result,) = rival.results
        self.assertRegex(result, r"^game 1: rival beat sleepy \(forfeit\) in [01] moves?$")

    async def test_timedOutPlayerComesBack(self) -> None:
        """After ERR_TIMEOUT the nick is free again: the person may reconnect."""
        port = self.startServer(attrs.evolve(FAST, timeout=0.2, firstMoveBonus=0))
        silent, rival = FastTerminal("sleepy", lambda line: None), quietBot("rival")
        await self.connect(port, silent, silent.finished)
        await self.connect(port, rival, rival.done)
        await defer.gatherResults([silent.finished, rival.done])
        lines: list[str] = []
        again = FastTerminal("sleepy", lines.append)
        await self.connect(port, again, again.finished)
        await self.until(lambda: bool(lines))
        self.assertEqual(lines, ["Connected as sleepy, 7x6 board. Waiting for an opponent..."])

    async def test_nickTaken(self) -> None:
        """A refused nick is asked again and retried with connectAs."""
        port = self.startServer()
        holder = quietBot("human")
        await self.connect(port, holder, holder.done)
        lines: list[str] = []
        client = FastTerminal("human", lines.append)
        await self.connect(port, client, client.finished)
        await self.until(lambda: len(lines) >= 2)
        self.assertEqual(lines, ["The nick 'human' is already taken.", "Type another nick:"])
        client.feed("no way!")
        client.feed("human2")
        await self.until(lambda: len(lines) >= 6)
        self.assertEqual(lines[2:4], ["'no way!' is not a valid nick (1 to 16 of A-Z a-z 0-9 _ -).",
                                      "Type another nick:"])
        self.assertEqual(lines[4], "Connected as human2, 7x6 board. Waiting for an opponent...")
        self.assertTrue(lines[5].startswith("New game: "))
        client.feed("q")
        self.assertIsNone(await client.finished)

    async def test_terminalScript(self) -> None:
        """``connect4_terminal.py`` over a stdin pipe, answering its prompts."""
        await self.runTerminalScript(websocket=False)

    async def test_terminalScriptOverWebSocket(self) -> None:
        await self.runTerminalScript(websocket=True)

    async def test_terminalScriptInterrupted(self) -> None:
        """Ctrl-C (SIGINT) while waiting for an opponent: the client says goodbye, exit 0."""
        await self.leaveWaiting(lambda transport: transport.signalProcess("INT"))

    async def test_terminalScriptEndOfInput(self) -> None:
        """The end of input (Ctrl-D) leaves: the goodbye printed, exit 0."""
        await self.leaveWaiting(lambda transport: transport.closeStdin())

    async def leaveWaiting(self, leave: Callable[[Any], object]) -> None:
        """``leave(transport)`` once the client waits for an opponent: it says goodbye, exit 0."""
        port = self.startServer()

        def answer(process: Process, line: str) -> None:
            if line.startswith("Connected as "):
                leave(process.transport)

        process = self.spawnExample("connect4_terminal", "--port", str(port), "--nick", "typist",
                                    onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines)
        self.assertEqual(lines, ["Connected as typist, 7x6 board. Waiting for an opponent...",
                                 "Disconnected."])

    async def runTerminalScript(self, websocket: bool) -> None:
        port = self.startServer(REAL)
        columns = iter(["x"] + [str(c) for c in [4, 3, 5, 2, 6, 1, 7] * 6])

        def answer(process: Process, line: str) -> None:
            if line.startswith("Your move"):
                process.write(next(columns))
            elif line.startswith("Play again?"):
                process.write("n")

        if websocket:
            from gameproto.connect4.websocket import connect4WebSocket
            from gameproto.web.site import makeSite

            web = self.listenLocal(makeSite({b"connect4": connect4WebSocket(self.server)}))
            where = ["--websocket", f"ws://127.0.0.1:{web}/connect4"]
        else:
            where = ["--port", str(port)]
        process = self.spawnExample("connect4_terminal", *where, "--nick", "typist",
                                    onLine=answer)
        rival = quietBot("rival")
        await self.connect(port, rival, rival.done)
        code = await process.ended
        await rival.done
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines)
        self.assertEqual(lines[0], "Connected as typist, 7x6 board. Waiting for an opponent...")
        self.assertIn("Type a column number (or q to quit).", lines)
        self.assertTrue(lines[-3].startswith("Result: "), lines[-3:])
        self.assertEqual(lines[-2:], ["Play again? [y/n] (within 10 s)", "Disconnected."])
        self.assertEqual(replay(lines, "typist"), rival.board)


# -- connect4_embedded.py ----------------------------------------------------


class EmbeddedTests(ExampleTestCase):
    """The leaderboard application: its game port, WebSocket and web page."""

    async def test_leaderboard(self) -> None:
        app = embedded.LeaderboardApp(reactor, FAST)
        game, web = app.listen(0, 0, interface="127.0.0.1")
        self.addCleanup(game.stopListening)
        self.addCleanup(web.stopListening)
        self.addCleanup(self.until, lambda: not app.server.nicks and not app.server.tables)
        webPort = web.getHost().port

        tcp, ws = quietBot("tcpbot", games=2), quietBot("wsbot", games=2)
        await self.connect(game.getHost().port, tcp, tcp.done)
        self.addCleanup(lambda: None if ws.done.called else ws.transport.loseConnection())
        await connectMessageProtocol(reactor, f"ws://127.0.0.1:{webPort}/connect4", ws,
                                     wire.MAX_MESSAGE)
        await defer.gatherResults([tcp.done, ws.done])
        self.assertEqual(len(tcp.results), 2)

        pool = HTTPConnectionPool(reactor)
        self.addCleanup(pool.closeCachedConnections)
        response = await treq.get(f"http://127.0.0.1:{webPort}/leaderboard", pool=pool)
        self.assertEqual(response.code, 200)
        self.assertEqual(response.headers.getRawHeaders(b"content-type"), [b"application/json"])
        standings = await response.json()

        wins = {client.nick: sum(" beat " in line for line in client.results)
                for client in (tcp, ws)}
        self.assertEqual(sorted(standings, key=lambda s: s["nick"]), [
            {"nick": "tcpbot", "wins": wins["tcpbot"], "games": 2},
            {"nick": "wsbot", "wins": wins["wsbot"], "games": 2},
        ])
        self.assertEqual(standings[0]["wins"], max(wins.values()))  # the winner first

    def test_protocolSubclass(self) -> None:
        app = embedded.LeaderboardApp(reactor, FAST)
        protocol = app.gameFactory.buildProtocol(None)
        self.assertIsInstance(protocol, embedded.LeaderboardProtocol)
        self.assertIs(protocol.factory.leaderboard, app.leaderboard)
