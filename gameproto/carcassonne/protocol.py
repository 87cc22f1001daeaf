"""
Carcassonne 1.71 protocols: thin Twisted Protocols over the line codec.

The server side turns each line into an input of its connection's
L{gameproto.carcassonne.machine.ConnectionMachine}; the client side follows
the whole sequence (HELLO, READY, the moves, FINISH) and asks its hooks for
each decision.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.carcassonne import wire
from gameproto.games.carcassonne import FOLLOWERS, Board, CarcassonneView, carcassonneBot
from gameproto.net import WireProtocol

if TYPE_CHECKING:
    from gameproto.carcassonne.server import CarcassonnePlayer, CarcassonneServerFactory

log = Logger(namespace="gameproto.carcassonne")

T = TypeVar("T")


def _answer(hook: Callable[[], T | Deferred[T]]) -> Deferred[T]:
    """A hook's answer, given at once or later, as a Deferred (its exception a failure)."""
    try:
        value = hook()
    except Exception:
        return fail()
    return value if isinstance(value, Deferred) else succeed(value)


START = ("tile-d", 72, 72, "N")
"""The start tile every board has before the first move: name, x, y, orientation."""

Placement = tuple[str, int, int, str, "str | None"]
"""A move a client chooses: tile, x, y, orientation, pawn zone (None: no pawn)."""


class CarcassonneServerProtocol(WireProtocol):
    """
    The server side of one Carcassonne connection.

    Hooks for subclasses (no-ops by default): L{joined} once the connection
    has its number in a room; L{messageReceived} / L{sendMessage} for every
    message in and out (call ``super()``).
    """

    factory: CarcassonneServerFactory
    player: CarcassonnePlayer
    logName = "carcassonne"
    serialize = staticmethod(wire.format)

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.Reader()
        self.connectionLine("carcassonne connection from {who}", who=self.peer)
        self.player = self.factory.server.newPlayer(self)

    def dataReceived(self, data: bytes) -> None:
        for message in self.metered(self._reader.feed(data), data):
            self.messageReceived(message)

    def messageReceived(self, message: wire.Message | wire.Malformed) -> None:
        """Turn one client line into the machine's input."""
        machine = self.player.machine
        match message:
            case wire.Hello():
                machine.hello(message)
            case wire.HelloAck():
                machine.helloAck(message)
            case wire.Ready():
                machine.ready()
            case wire.Close():
                machine.close()
            case wire.Move():
                machine.move(message)
            case wire.MoveAck():
                machine.moveAck()
            case wire.MoveNack():
                machine.moveNack()
            case wire.Finish():
                machine.finish()
            case wire.Noop():
                machine.noop()
            case wire.Malformed(reason):
                machine.malformed(reason)
            case _:
                machine.malformed("a server's message")  # HELLONACK, START, TOKEN

    def who(self) -> str:
        number = getattr(getattr(self, "player", None), "number", 0)
        return f"{self.peer} (player {number})" if number else self.peer

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.connectionLine("carcassonne {who} disconnected", who=self.who())
        self.player.machine.connectionLost()

    # -- hooks ---------------------------------------------------------------

    def joined(self, number: int) -> None:
        """The connection is player ``number`` of a room."""


class CarcassonneClientProtocol(WireProtocol):
    """
    The client side of Carcassonne 1.71: says HELLO, says READY once it
    knows ``players - 1`` opponents, plays each TOKEN, acknowledges the
    others' moves, and says CLOSE and hangs up at FINISH.

    It keeps its own view of the game: L{board} (every tile placed, by
    position: name and orientation, the start tile at (72, 72)), L{pile}
    (the tiles not placed yet, by name) and L{rules}, the rules engine's
    board of the same tiles (its own followers under seat 0, the others'
    under their numbers).

    Decision hooks (a value or a Deferred): L{chooseMove} (by default the
    rules engine's bot's choice, else another legal placement, else any
    free square, avoiding the placements refused this turn) and
    L{acceptMove} (by default: whether the move keeps the rules).
    News hooks (no-ops): L{alone}, L{playerJoined}, L{playerLeft},
    L{gameStarted}, L{moveReceived}, L{moveAccepted}, L{moveRefused},
    L{gameStopped}, L{gameFinished}, L{noopReceived}.
    """

    logName = "carcassonne"
    serialize = staticmethod(wire.format)
    hangUpAtFinish = True
    maxRetries = 200
    """Placements refused in one turn before the client gives up and hangs up."""

    def __init__(self, players: int = 2, rng: random.Random | None = None) -> None:
        self.players = players
        self.rng = rng or random.Random()
        self.opponents: set[int] = set()
        self.board: dict[tuple[int, int], tuple[str, str]] = {
            (START[1], START[2]): (START[0], START[3])}
        self.pile: Counter[str] = Counter(wire.TILE_COUNTS)
        self.pile[START[0]] -= 1
        self.rules = Board()
        self.scores: Counter[int] = Counter()
        """Points scored so far on L{rules}, by seat (0: this client), as the game goes."""
        self.token: int | None = None
        self.pending: wire.Move | None = None
        self.refused: set[Placement] = set()
        self.started = False
        self.finished = False
        self.finishedBy: int | None = None
        self.readySent = False
        self.movesPlayed = 0

    # -- the transport side --------------------------------------------------

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.Reader(limit=4096)
        self.sendMessage(wire.Hello(0))
        self._maybeReady()

    def dataReceived(self, data: bytes) -> None:
        for message in self._reader.feed(data):
            if self._closing:
                return
            self.messageReceived(message)

    def messageReceived(self, message: wire.Message | wire.Malformed) -> None:
        """Follow the sequence one server message further."""
        match message:
            case wire.HelloNack():
                self.alone()
            case wire.Hello(n):
                self.opponents.add(n)
                self.sendMessage(wire.HelloAck(0))
                self.playerJoined(n)
                self._maybeReady()
            case wire.HelloAck(n):
                self.opponents.add(n)
                self.playerJoined(n)
                self._maybeReady()
            case wire.Close(n):
                self.opponents.discard(n)
                self.playerLeft(n)
            case wire.Start():
                self.started = True
                self.gameStarted()
            case wire.Token(token):
                self.token = token
                self.refused = set()
                self._play()
            case wire.Move():
                self._received(message)
            case wire.MoveAck():
                if self.pending is not None:
                    self._place(self.pending, 0)
                    self.movesPlayed += 1
                    self.pending, self.token = None, None
                    self.moveAccepted(self.board)
            case wire.MoveNack():
                if self.pending is not None:
                    self._refusedOwn(self.pending)
                else:
                    self.gameStopped()
            case wire.Finish(n):
                self.finished, self.finishedBy = True, n
                self.gameFinished(n)
                if self.hangUpAtFinish:
                    self.sendMessage(wire.Close(0))
                    self.transport.loseConnection()  # type: ignore[union-attr]
            case wire.Noop():
                self.noopReceived()
            case _:
                log.info("carcassonne client: the server sent {message!r}", message=message)

    def _maybeReady(self) -> None:
        if not self.readySent and len(self.opponents) + 1 >= self.players:
            self.readySent = True
            self.sendMessage(wire.Ready(0))

    def _place(self, move: wire.Move, owner: int) -> None:
        self.board[(move.x, move.y)] = (move.tile, move.orientation)
        self.pile[move.tile] -= 1
        if self.rules.fits(move.tile, move.x, move.y, move.orientation):
            for score in self.rules.place(move.tile, move.x, move.y, move.orientation,
                                          None if move.pawn is None else (owner, move.pawn)):
                for seat in score.seats:
                    self.scores[seat] += score.points

    def _play(self) -> None:
        token = self.token
        d = _answer(self.chooseMove)

        def send(placement: Placement | None) -> None:
            if self.token != token or self._closing:
                return
            if placement is None:
                self.dropConnection("no move to play")
                return
            tile, x, y, orientation, pawn = placement
            assert token is not None
            self.pending = wire.Move(0, tile, x, y, orientation, pawn, token)
            self.sendMessage(self.pending)

        d.addCallback(send).addErrback(
            lambda f: log.failure("carcassonne client: choosing a move failed", f))

    def _refusedOwn(self, move: wire.Move) -> None:
        self.pending = None
        self.refused.add((move.tile, move.x, move.y, move.orientation, move.pawn))
        self.moveRefused(move)
        if len(self.refused) >= self.maxRetries:
            self.dropConnection("every placement tried was refused")
            return
        self._play()

    def _received(self, move: wire.Move) -> None:
        d = _answer(lambda: self.acceptMove(move))

        def answer(accepted: bool) -> None:
            if self._closing:
                return
            if accepted:
                self._place(move, move.n)
                self.sendMessage(wire.MoveAck())
            else:
                self.sendMessage(wire.MoveNack())
            self.moveReceived(move, accepted)

        d.addCallback(answer).addErrback(
            lambda f: log.failure("carcassonne client: judging a move failed", f))

    # -- decision hooks --------------------------------------------------------

    def chooseMove(self) -> Placement | None | Deferred[Placement | None]:
        """The move to play with the token just received (None: give up)."""
        choice = self.botChoice()
        if choice is not None and choice not in self.refused:
            return choice
        return next(iter(self.candidates()), None)

    def acceptMove(self, move: wire.Move) -> bool | Deferred[bool]:
        """Whether an opponent's ``move`` keeps the rules (MOVEACK) or not (MOVENACK)."""
        return self.legal(move)

    def legal(self, move: wire.Move) -> bool:
        """Whether ``move`` keeps the rules on this client's board."""
        if self.pile[move.tile] <= 0 or not self.rules.fits(move.tile, move.x, move.y,
                                                             move.orientation):
            return False
        return move.pawn is None or move.pawn in self.rules.followerZones(
            move.tile, move.x, move.y, move.orientation)

    def followersLeft(self) -> int:
        """This client's followers not on the board."""
        return FOLLOWERS - sum(1 for seat, _ in self.rules.followers.values() if seat == 0)

    def botChoice(self) -> Placement | None:
        """The rules engine's bot's move on this client's board (None: no tile fits)."""
        if not any(count > 0 and self.rules.placeable(tile) for tile, count in self.pile.items()):
            return None
        view = CarcassonneView(0, 0, self.rules, None, dict(self.pile), (self.followersLeft(),),
                               (0,), len(self.board) - 1)
        move = carcassonneBot(view, 0)
        assert isinstance(move, dict)
        zone = move["zone"]
        return (str(move["tile"]), int(move["x"]), int(move["y"]), str(move["orientation"]),
                None if zone is None else str(zone))

    def candidates(self) -> Iterable[Placement]:
        """
        Placements worth trying after a refusal: the legal ones, then any
        free square next to the board, with tiles of the pile.
        """
        tiles = sorted(tile for tile, count in self.pile.items() if count > 0)
        if not tiles:
            return
        for tile in tiles:
            for x, y, orientation in self.rules.placements(tile):
                legal: Placement = (tile, x, y, orientation, None)
                if legal not in self.refused:
                    yield legal
        tile = self.rng.choice(tiles)
        squares = sorted({(x + dx, y + dy) for (x, y) in self.board
                          for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
                          if (x + dx, y + dy) not in self.board and x + dx >= 0 and y + dy >= 0})
        self.rng.shuffle(squares)
        for x, y in squares:
            for orientation in wire.ORIENTATIONS:
                placement: Placement = (tile, x, y, orientation, None)
                if placement not in self.refused:
                    yield placement

    # -- news hooks --------------------------------------------------------------

    def alone(self) -> None:
        """HELLONACK: nobody else is there yet."""

    def playerJoined(self, number: int) -> None:
        """Player ``number`` is in the room (HELLO or HELLOACK)."""

    def playerLeft(self, number: int) -> None:
        """Player ``number`` left (CLOSE)."""

    def gameStarted(self) -> None:
        """START."""

    def moveReceived(self, move: wire.Move, accepted: bool) -> None:
        """An opponent's ``move``, and this client's answer."""

    def moveAccepted(self, board: dict[tuple[int, int], tuple[str, str]]) -> None:
        """This client's move was accepted by all (MOVEACK)."""

    def moveRefused(self, move: wire.Move) -> None:
        """The referee refused this client's ``move`` (another follows)."""

    def gameStopped(self) -> None:
        """Someone refused a move: the game stops (FINISH follows)."""

    def gameFinished(self, number: int) -> None:
        """FINISH ``number`` (0: the server ended the game)."""

    def noopReceived(self) -> None:
        """NOOP: the server did not understand or allow the last message."""
