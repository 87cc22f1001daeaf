"""
Clients written from the Carcassonne 1.71 document alone play whole games
through the real service (``twistd gameproto`` with the Carcassonne port):
its service in this process, and a ``twistd -n gameproto`` process of its
own (L{TwistdTests}).

L{DocumentClient} knows nothing of gameproto's protocol code: it reads and
writes the bytes itself, with its own parser of the message syntax the
document credits (atoms separated by single spaces, a line ending with LF,
upper-case names, unsigned integers, strings in parentheses with backslash
escapes).  Its only borrowing is the rules engine's L{Board}, to pick a
legal placement; the board it compares is its own record of the moves.
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import sys
from typing import Any, Union

import treq
from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.error import ConnectionRefusedError
from twisted.internet.protocol import ProcessProtocol, Protocol
from twisted.internet.task import deferLater
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.engine.contract import Errors
from gameproto.games.carcassonne import CARCASSONNE, Board, CarcassonneGame
from gameproto.test.service_helpers import Server, onlyPorts
from gameproto.test.test_startup import SOURCE, TWISTD

Atom = Union[str, int, bytes]
"""A name (str), an integer (int) or a string (bytes)."""

TILE_COUNTS = {
    "tile-a": 2, "tile-b": 4, "tile-c": 1, "tile-d": 4, "tile-e": 5, "tile-f": 2,
    "tile-g": 1, "tile-h": 3, "tile-i": 2, "tile-j": 3, "tile-k": 3, "tile-l": 3,
    "tile-m": 2, "tile-n": 3, "tile-o": 2, "tile-p": 3, "tile-q": 1, "tile-r": 3,
    "tile-s": 2, "tile-t": 1, "tile-u": 8, "tile-v": 9, "tile-w": 4, "tile-x": 1,
}
"""The 72 tiles, as the document names them."""
START = ("tile-d", 72, 72, "N")
MOVES = 71
FOLLOWERS = 7

_NAME = re.compile(rb"[A-Z]+\Z")
_INTEGER = re.compile(rb"[0-9]+\Z")


def parseLine(line: bytes) -> list[Atom] | None:
    """One line (no LF) as its atoms, or None when it breaks the syntax."""
    if line.endswith(b"\r"):
        line = line[:-1]
    atoms: list[Atom] = []
    at = 0
    while True:
        if line[at:at + 1] == b"(":
            text, at = bytearray(), at + 1
            while at < len(line) and line[at:at + 1] != b")":
                if line[at:at + 1] == b"\\":
                    at += 1
                    if at >= len(line):
                        return None
                text += line[at:at + 1]
                at += 1
            if at >= len(line):
                return None
            atoms.append(bytes(text))
            at += 1
        else:
            end = line.find(b" ", at)
            end = len(line) if end < 0 else end
            word = line[at:end]
            if _NAME.match(word):
                atoms.append(word.decode("ascii"))
            elif _INTEGER.match(word):
                atoms.append(int(word))
            else:
                return None
            at = end
        if at == len(line):
            return atoms if atoms and isinstance(atoms[0], str) else None
        if line[at:at + 1] != b" ":
            return None
        at += 1


def string(text: str) -> bytes:
    """A string atom."""
    escaped = text.encode("utf-8").replace(b"\\", b"\\\\")
    return b"(" + escaped.replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


class DocumentClient(Protocol):
    """
    A client after the document: HELLO on arrival, HELLOACK to each HELLO,
    READY once it knows ``players - 1`` others, a MOVE for each TOKEN,
    MOVEACK to each move it is told of, CLOSE at FINISH.  ``done`` fires
    when the connection is gone.
    """

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self.rng = random.Random(seed)
        self.buffer = b""
        self.done: defer.Deferred[None] = defer.Deferred()
        self.others: set[int] = set()
        self.ready = False
        self.started = False
        self.token: int | None = None
        self.proposed: tuple[str, int, int, str, str | None] | None = None
        self.refused: set[tuple[str, int, int, str, str | None]] = set()
        self.pile = dict(TILE_COUNTS)
        self.pile[START[0]] -= 1
        self.board: dict[tuple[int, int], tuple[str, str, int | None, str | None]] = {
            (START[1], START[2]): (START[0], START[3], None, None)}
        """Each square's tile, orientation, pawn owner (0: this client) and zone."""
        self.moves: list[tuple[int, str, int, int, str, str | None]] = []
        """Every move in order: mover (0: this client), tile, x, y, orientation, pawn."""
        self.rules = Board()
        self.finishedBy: int | None = None
        self.closed: list[int] = []
        """The CLOSE n heard before FINISH (a player gone mid-game)."""
        self.closedAfter: list[int] = []
        """The CLOSE n heard after FINISH (the others saying goodbye)."""
        self.noops = 0
        self.refusals = 0
        self.unknown: list[bytes] = []

    # -- bytes ---------------------------------------------------------------------

    def connectionMade(self) -> None:
        self.say(b"HELLO 0")

    def say(self, line: bytes) -> None:
        assert self.transport is not None
        self.transport.write(line + b"\n")

    def dataReceived(self, data: bytes) -> None:
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            atoms = parseLine(line)
            if atoms is None:
                self.unknown.append(line)
            else:
                self.message(str(atoms[0]), atoms[1:], line)

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        if not self.done.called:
            self.done.callback(None)

    # -- messages --------------------------------------------------------------------

    def message(self, name: str, args: list[Atom], line: bytes) -> None:
        if name == "HELLONACK":
            pass
        elif name == "HELLO" and len(args) == 1 and isinstance(args[0], int):
            self.others.add(args[0])
            self.say(b"HELLOACK 0")
        elif name == "HELLOACK" and len(args) == 1 and isinstance(args[0], int):
            self.others.add(args[0])
        elif name == "START":
            self.started = True
        elif name == "TOKEN" and len(args) == 1 and isinstance(args[0], int):
            self.token = args[0]
            self.refused.clear()
            self.propose()
        elif name == "MOVEACK":
            self.accepted()
        elif name == "MOVENACK":
            self.refusals += 1
            if self.proposed is not None:  # the referee refused our move: try another
                self.refused.add(self.proposed)
                self.propose()
        elif name == "MOVE" and len(args) == 7:
            self.moved(args)
        elif name == "CLOSE" and len(args) == 1 and isinstance(args[0], int):
            if self.finishedBy is None:  # after FINISH, the others' CLOSE is the document's end
                self.closed.append(args[0])
            else:
                self.closedAfter.append(args[0])
        elif name == "FINISH" and len(args) == 1 and isinstance(args[0], int):
            self.finishedBy = args[0]
            self.say(b"CLOSE 0")
            assert self.transport is not None
            self.transport.loseConnection()
        elif name == "NOOP":
            self.noops += 1
        else:
            self.unknown.append(line)
        if not self.ready and len(self.others) >= self.players - 1:
            self.ready = True
            self.say(b"READY 0")

    def moved(self, args: list[Atom]) -> None:
        n, tile, x, y, orientation, pawn, _ = args
        if not (isinstance(n, int) and isinstance(tile, bytes) and isinstance(x, int)
                and isinstance(y, int) and isinstance(orientation, bytes)
                and isinstance(pawn, bytes)):
            self.unknown.append(b"MOVE with the wrong atoms")
            return
        zone = None if pawn in (b"", b"null") else pawn.decode()
        self.place(n, tile.decode(), x, y, orientation.decode(), zone)
        self.say(b"MOVEACK")

    # -- the game ----------------------------------------------------------------------

    def place(self, n: int, tile: str, x: int, y: int, orientation: str,
              zone: str | None) -> None:
        self.board[(x, y)] = (tile, orientation, n if zone else None, zone)
        self.moves.append((n, tile, x, y, orientation, zone))
        self.pile[tile] -= 1
        self.rules.place(tile, x, y, orientation, None if zone is None else (n, zone))

    def propose(self) -> None:
        """A legal move for the token held, as MOVE (FINISH if no tile fits)."""
        assert self.token is not None
        tiles = [t for t in sorted(self.pile) if self.pile[t] > 0]
        self.rng.shuffle(tiles)
        standing = sum(1 for owner, _ in self.rules.followers.values() if owner == 0)
        for tile in tiles:
            options = self.rules.placements(tile)
            self.rng.shuffle(options)
            for x, y, orientation in options:
                zones: list[str | None] = [None]
                if standing < FOLLOWERS and self.rng.random() < 0.4:
                    zones = [*self.rules.followerZones(tile, x, y, orientation), None]
                for zone in zones:
                    move = (tile, x, y, orientation, zone)
                    if move not in self.refused:
                        self.proposed = move
                        self.say(b" ".join((
                            b"MOVE 0", string(tile), b"%d %d" % (x, y), string(orientation),
                            string(zone or ""), b"%d" % self.token)))
                        return
        self.say(b"FINISH 0")

    def accepted(self) -> None:
        """MOVEACK: every other player accepted our move."""
        if self.proposed is not None:
            self.place(0, *self.proposed)
            self.proposed = self.token = None

    # -- for the test ------------------------------------------------------------------

    def number(self) -> int:
        """This client's number: the one of 1..players no one else has."""
        [mine] = set(range(1, self.players + 1)) - self.others
        return mine

    def absolute(self) -> tuple[tuple[Any, ...], ...]:
        """The board with this client's own pawns under its number."""
        mine = self.number()
        return tuple(sorted(
            (where, (tile, o, mine if owner == 0 else owner, zone))
            for where, (tile, o, owner, zone) in self.board.items()))


class Service(Server):
    """The service, its web port optional (the helper's start needs one)."""

    @defer.inlineCallbacks
    def start(self) -> Any:
        if "web" in [child.name for child in self.service]:
            yield super().start()
            return
        self.service.startService()
        for child in self.service:
            listening: defer.Deferred[Any] = defer.Deferred()
            child._waitingForPort.addCallback(lambda p, d=listening: d.callback(p) or p)
            port = yield listening
            self.ports[child.name] = port.getHost().port


class ConformanceTests(TestCase):
    """2 and 5 document clients, the referee on and off, whole games to FINISH."""

    timeout = 90

    async def serve(self, referee: str, web: bool) -> None:
        ports = ("carcassonne", "web") if web else ("carcassonne",)
        self.server = Service(self, [], "--carcassonne-referee", referee,
                              "--carcassonne-timeout", "30",
                              "--carcassonne-ack-timeout", "30",
                              "--carcassonne-bots-after", "600", ports=ports)
        await self.server.start()
        self.addCleanup(self.server.stop)

    async def play(self, players: int) -> list[DocumentClient]:
        """``players`` clients, one room, a whole game; each client checked alone."""
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["carcassonne"])
        clients = [DocumentClient(players, seed) for seed in range(players)]
        for client in clients:
            await connectProtocol(endpoint, client)
        await defer.gatherResults([c.done for c in clients])
        for client in clients:
            self.assertTrue(client.started)
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual((client.unknown, client.noops, client.refusals, client.closed),
                             ([], 0, 0, []))
            self.assertEqual(len(client.moves), MOVES)
            self.assertEqual(sum(client.pile.values()), 0)
            self.assertTrue(any(move[-1] for move in client.moves))  # pawns crossed too
        self.assertEqual(sorted(c.number() for c in clients), list(range(1, players + 1)))
        boards = {client.absolute() for client in clients}
        self.assertEqual(len(boards), 1)
        return clients

    async def checkReplay(self, clients: list[DocumentClient], referee: str = "on") -> None:
        """
        The API lists the game (engine ``carcassonne``, the referee on or
        off); its replay gives our scores.
        """
        pool = HTTPConnectionPool(reactor, persistent=False)

        async def get(path: str) -> Any:
            response = await treq.get(self.server.url + path, pool=pool)
            content = await response.content()
            self.assertEqual(response.code, 200, (path, content))
            return json.loads(content)

        games = (await get("api/games"))["games"]
        [summary] = [g for g in games if g["engine"] == "carcassonne"]
        self.assertEqual(summary["status"], "finished")
        first = clients[0]
        mine = first.number()
        game = CARCASSONNE.start({"players": len(clients), "pile": "named", "referee": referee},
                                 {"seed": 0})
        assert isinstance(game, CarcassonneGame)
        for turn, (n, tile, x, y, orientation, zone) in enumerate(first.moves, 1):
            seat = (mine if n == 0 else n) - 1
            outcome = game.act(seat, {"tile": tile, "x": x, "y": y,
                                       "orientation": orientation, "zone": zone})
            self.assertFalse(isinstance(outcome, Errors), (turn, outcome))
            if turn in (1, 35):
                replayed = await get(f"api/games/{summary['id']}/replay?turn={turn}")
                self.assertEqual(replayed["game_state"],
                                 game.instructions().game_state.asJSON())
        state = game.instructions().game_state
        self.assertTrue(state.gameover)
        self.assertGreater(max(state.scores), 0)
        self.assertIn(state.text, ("the pile is empty", "no tile left fits on the board"))
        replayed = await get(f"api/games/{summary['id']}/replay")
        self.assertEqual(replayed["game_state"], {"scores": list(state.scores),
                                                  "gameover": True, "text": state.text})
        self.assertEqual((summary["scores"], summary["turns"]), (list(state.scores), MOVES))

    async def test_twoRefereed(self) -> None:
        await self.serve("on", web=True)
        await self.checkReplay(await self.play(2))

    async def test_fiveRefereed(self) -> None:
        await self.serve("on", web=True)
        await self.checkReplay(await self.play(5))

    async def test_twoRelayed(self) -> None:
        await self.serve("off", web=True)
        await self.checkReplay(await self.play(2), "off")

    async def test_fiveRelayed(self) -> None:
        await self.serve("off", web=False)
        await self.play(5)


class Twistd(ProcessProtocol):
    """``twistd -n gameproto`` as a child process; ``ended`` fires with its exit status."""

    def __init__(self) -> None:
        self.output = bytearray()
        self.ended: defer.Deferred[int | None] = defer.Deferred()

    def outReceived(self, data: bytes) -> None:
        self.output += data

    errReceived = outReceived

    def processEnded(self, reason: Failure) -> None:
        self.ended.callback(getattr(reason.value, "exitCode", None))


def freePort() -> int:
    """A port of 127.0.0.1 nothing listens on (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class TwistdTests(TestCase):
    """Two document clients play a whole game through a real ``twistd -n gameproto`` process."""

    timeout = 120

    async def test_twoClients(self) -> None:
        port = freePort()
        directory = self.mktemp()
        os.makedirs(directory)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([SOURCE, *filter(None, [env.get("PYTHONPATH")])])
        child = Twistd()
        argv = [sys.executable, "-c", TWISTD, "-n", "--pidfile=", "--logfile=-", "gameproto",
                "--db", ":memory:", "--carcassonne-timeout", "30",
                "--carcassonne-bots-after", "600",
                *onlyPorts(carcassonne=f"tcp:{port}:interface=127.0.0.1")]
        process = reactor.spawnProcess(  # type: ignore[attr-defined]
            child, sys.executable, argv, env=env, path=directory)

        async def stop() -> None:
            if not child.ended.called:
                process.signalProcess("TERM")
                await child.ended

        self.addCleanup(stop)
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port)
        for _ in range(600):  # the child listens once its interpreter has started
            try:
                probe = await connectProtocol(endpoint, Protocol())
            except ConnectionRefusedError:
                self.assertFalse(child.ended.called, bytes(child.output))
                await deferLater(reactor, 0.05)  # type: ignore[arg-type]
                continue
            assert probe.transport is not None
            probe.transport.loseConnection()
            break
        clients = [DocumentClient(2, seed) for seed in range(2)]
        for client in clients:
            await connectProtocol(endpoint, client)
        await defer.gatherResults([c.done for c in clients])
        for client in clients:
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual((client.unknown, client.noops, client.refusals, client.closed),
                             ([], 0, 0, []))
            self.assertEqual(len(client.moves), MOVES)
        self.assertEqual(sorted(c.number() for c in clients), [1, 2])
        self.assertEqual(len({client.absolute() for client in clients}), 1)
        await stop()
        log = child.output.decode("utf-8", "replace")
        self.assertNotIn("Traceback", log)
        self.assertRegex(log, r"game \d+ \(carcassonne\) ended: scores \[\d+, \d+\]")


class ParserTests(TestCase):
    """The client's own parser, on the document's examples."""

    def test_documentExample(self) -> None:
        self.assertEqual(parseLine(b"MOVE 1 (tile-x) 5 12 (W) (SR) 1541"),
                         ["MOVE", 1, b"tile-x", 5, 12, b"W", b"SR", 1541])
        self.assertEqual(parseLine(b"MOVE 1 (tile-x) 5 12 (W) () 1541\r"),
                         ["MOVE", 1, b"tile-x", 5, 12, b"W", b"", 1541])
        self.assertEqual(parseLine(b"HELLONACK"), ["HELLONACK"])
        self.assertEqual(parseLine(b"X (a\\)b)"), ["X", b"a)b"])
        for bad in (b"", b"HELLO  1", b"HELLO 1 ", b"hello", b"HELLO -1", b"X (ab"):
            self.assertIsNone(parseLine(bad), bad)
        self.assertEqual(string("a(b)\\"), b"(a\\(b\\)\\\\)")
