"""
Protuissance 4 protocols: thin Twisted Protocols that wire a transport to the
codec and to the connection's state machine.  Both are meant to be
subclassed; the hooks are listed in each class's docstring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Collection, cast

from automat import NoTransition
from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.connect4 import wire
from gameproto.connect4.machine import ClientInputs, ClientMachine, stateName
from gameproto.games.connect4 import Board
from gameproto.net import WireProtocol

if TYPE_CHECKING:
    from gameproto.connect4.server import Connect4Player, Connect4ServerFactory

log = Logger(namespace="gameproto.connect4")


class MessageStreamProtocol(WireProtocol):
    """
    A stream of Protuissance 4 messages over a byte transport (TCP), or one
    message per frame (L{messageDataReceived}, for WebSocket).  Subclasses
    say which messages they read (L{expectedMessages}) and handle them in
    L{messageReceived}; bytes that are none go to L{malformedReceived}.
    """

    logName = "connect4"
    serialize = staticmethod(wire.serialize)

    def connectionMade(self) -> None:
        super().connectionMade()
        self._parser = wire.Parser()

    def expectedMessages(self) -> Collection[wire.MessageClass]:
        """The message kinds the sequence allows now."""
        raise NotImplementedError

    def dataReceived(self, data: bytes) -> None:
        if len(data) == 4 and data[0] == 0x33 and data[2:] == wire.CRLF and \
                not self._parser.buffered and wire.PlayMove in self.expectedMessages():
            # One whole PLAY_MOVE and nothing before it (every move, most
            # often): what the loop below does, without the buffer.
            if not self.readingWhole():
                self._parser.feed(data)  # closing, or its token waits: as below
                return
            self.messageReceived(wire.PLAY_MOVES[data[1]])
            return
        self._parser.feed(data)
        while self.reading(self._parser.buffered):
            message = self._parser.next(self.expectedMessages())
            if message is wire.NEED_MORE:
                return
            if isinstance(message, wire.Malformed):
                self.malformedReceived(message)
                return
            self.messageReceived(message)  # type: ignore[arg-type]

    def messageDataReceived(self, data: bytes) -> None:
        """Exactly one whole message arrived (a WebSocket message)."""
        if self._closing:
            return
        message = wire.parseOne(bytes(data), self.expectedMessages())
        if isinstance(message, wire.Malformed):
            self.malformedReceived(message)
        else:
            self.messageReceived(message)

    def messageReceived(self, message: wire.Message) -> None:
        """Handle one message."""
        raise NotImplementedError

    def malformedReceived(self, malformed: wire.Malformed) -> None:
        """Bytes that are no message expected now: the connection is closed."""
        self.dropConnection(malformed.reason)


class Connect4ServerProtocol(MessageStreamProtocol):
    """
    The server side of one Protuissance 4 connection, over TCP or WebSocket.

    Hooks for subclasses (all do nothing by default):
      - L{nickAccepted}: CONNECT succeeded;
      - L{gameStarted}: GAME_START was sent;
      - L{gameEnded}: GAME_END was sent.
    L{messageReceived} and L{sendMessage} see every message in and out.
    """

    factory: Connect4ServerFactory
    player: Connect4Player

    def connectionMade(self) -> None:
        super().connectionMade()
        self.connectionLine("connect4 connection from {who}", who=self.peer)
        self.player = self.factory.server.newPlayer(self)

    def expectedMessages(self) -> Collection[wire.MessageClass]:
        return wire.CLIENT_MESSAGES

    def messageReceived(self, message: wire.Message) -> None:
        machine = self.player.machine
        match message:
            case wire.Connect(nick):
                machine.connect(nick)
            case wire.PlayMove(column):
                machine.playMove(column)
            case wire.JoinQueue():
                machine.joinQueue()

    def malformedReceived(self, malformed: wire.Malformed) -> None:
        """
        A CONNECT past its limit goes to the machine (ERR_INVALID_NICK, then
        the close); other bytes that are no message close the connection.
        """
        if isinstance(malformed, wire.NickTooLong):
            self.player.machine.nickTooLong()
        else:
            super().malformedReceived(malformed)

    def who(self) -> str:
        return self.player.nick or self.peer

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.connectionLine("connect4 {who} disconnected", who=self.who())
        self.player.machine.connectionLost()

    # -- hooks ---------------------------------------------------------------

    def nickAccepted(self, nick: str) -> None:
        """The player is connected as ``nick`` and queued."""

    def gameStarted(self, players: tuple[str, str], seat: int) -> None:
        """A game began: ``players`` in playing order, this player at index ``seat``."""

    def gameEnded(self, winner: int | None) -> None:
        """The game ended: ``winner`` is an index into the players, None for a draw."""


class Connect4ClientProtocol(MessageStreamProtocol):
    """
    The client side of Protuissance 4: connects with ``nick``, keeps its
    own board, and asks its hooks for each decision.

    Hooks for subclasses:
      - L{chooseMove} (required): a column, or a Deferred firing with one;
      - L{playAgain}: after GAME_END, True to JOIN_QUEUE, False to leave
        (may return a Deferred); True by default;
      - L{nickAccepted}, L{nickRefused} (closes by default), L{gameStarted},
        L{moveSent}, L{opponentMoved}, L{moveRefused}, L{gameEnded},
        L{timedOut}: news.
    """

    def __init__(self, nick: str) -> None:
        if not wire.isValidNick(nick):
            raise ValueError(f"not a valid Protuissance 4 nick: {nick!r}")
        self.nick = nick
        self.width = 0
        self.height = 0
        self.players: tuple[str, str] = ("", "")
        self.seat = 0
        self.board: Board | None = None
        self._history: list[Board] = []
        self._asked = 0
        self.machine: ClientInputs = ClientMachine(self)

    def connectionMade(self) -> None:
        super().connectionMade()
        self.machine.connect(self.nick)

    def expectedMessages(self) -> Collection[wire.MessageClass]:
        return self.machine.expected()

    def messageReceived(self, message: wire.Message) -> None:
        machine = self.machine
        try:
            match message:
                case wire.Init(width, height):
                    machine.initReceived(width, height)
                case wire.GameStart(first, second):
                    machine.gameStarted(first, second)
                case wire.PlayMove(column):
                    machine.opponentMoved(column)
                case wire.GameEnd(winner):
                    machine.gameEnded(winner)
                case wire.Error(wire.ERR_INVALID_NICK | wire.ERR_ALREADY_USED_NICK as code):
                    machine.nickRefused(code)
                case wire.Error(wire.ERR_INVALID_COLUMN):
                    machine.moveRefused()
                case wire.Error(wire.ERR_TIMEOUT):
                    machine.timedOut()
        except NoTransition:
            machine.unexpected(f"unexpected {message!r} in state {stateName(machine)}")

    def who(self) -> str:
        return f"client {self.nick}"

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.machine.connectionLost()

    def connectAs(self, nick: str) -> None:
        """Try another nick after L{nickRefused}."""
        if not wire.isValidNick(nick):
            raise ValueError(f"not a valid Protuissance 4 nick: {nick!r}")
        self.nick = nick
        self.machine.connect(nick)

    # -- ClientCore ----------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.sendMessage(message)

    def initialised(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.nickAccepted(width, height)

    def refused(self, code: int) -> None:
        self.nickRefused(code)

    def startGame(self, first: str, second: str) -> None:
        self.players = (first, second)
        self.seat = 0 if first == self.nick else 1
        try:
            self.board = Board.empty(self.width, self.height)
        except ValueError as e:
            self.machine.unexpected(f"unusable board size: {e}")
            return
        self._history = []
        self.gameStarted(self.players, self.seat)
        if self.seat == 0:
            self.machine.yourTurn()

    def askMove(self) -> None:
        assert self.board is not None
        self._asked += 1
        asked = self._asked
        # maybeDeferred waits for a Deferred chooseMove returns: an int comes out either way.
        d = cast("Deferred[int]", maybeDeferred(self.chooseMove, self.board))
        d.addCallback(self._chosen, asked)
        d.addErrback(self._choiceFailed)

    def _chosen(self, column: int, asked: int) -> None:
        if asked == self._asked:
            self.machine.moveChosen(column)

    def _choiceFailed(self, failure: Failure) -> None:
        log.failure("connect4 client {nick}: chooseMove failed", failure, nick=self.nick)
        self.dropConnection("no move chosen")

    def playOwnMove(self, column: int) -> None:
        assert self.board is not None
        self.sendMessage(wire.PlayMove(column))
        self._history.append(self.board)
        if self.board.is_legal(column):
            self.board = self.board.play(column)
        self.moveSent(column)

    def takeBack(self) -> None:
        if self._history:
            self.board = self._history.pop()
        self.moveRefused()

    def playOpponentMove(self, column: int) -> None:
        assert self.board is not None
        if not self.board.is_legal(column):
            self.machine.unexpected(f"the opponent's move {column} is not legal here")
            return
        self._history = []
        self.board = self.board.play(column)
        self.opponentMoved(column)
        if not self.board.is_over:
            self.machine.yourTurn()

    def endGame(self, winner: int | None) -> None:
        self._asked += 1
        self.gameEnded(winner)
        d = maybeDeferred(self.playAgain)
        d.addCallback(lambda again: self.machine.playAgain() if again else self.machine.leave())
        d.addErrback(self._choiceFailed)

    def drop(self, reason: str) -> None:
        self.dropConnection(reason)

    def lost(self) -> None:
        self._asked += 1

    # -- hooks ---------------------------------------------------------------

    def chooseMove(self, board: Board) -> int | Deferred[int]:
        """Our turn on ``board``: return the column to play (or a Deferred of it)."""
        raise NotImplementedError("subclass Connect4ClientProtocol and define chooseMove")

    def playAgain(self) -> bool | Deferred[bool]:
        """After GAME_END: True to JOIN_QUEUE, False to disconnect."""
        return True

    def nickAccepted(self, width: int, height: int) -> None:
        """INIT: connected and queued, on a ``width`` x ``height`` board."""

    def nickRefused(self, code: int) -> None:
        """The nick was refused (``code`` is the error); closes unless overridden."""
        self.machine.leave()

    def gameStarted(self, players: tuple[str, str], seat: int) -> None:
        """GAME_START: ``players`` in playing order, we are ``seat``."""

    def moveSent(self, column: int) -> None:
        """Our move ``column`` was sent (and, if legal, played on L{board})."""

    def opponentMoved(self, column: int) -> None:
        """The opponent played ``column`` (already on L{board})."""

    def moveRefused(self) -> None:
        """ERR_INVALID_COLUMN: our move was refused; L{chooseMove} is asked again."""

    def gameEnded(self, winner: int | None) -> None:
        """GAME_END: ``winner`` is an index into L{players}, None for a draw."""

    def timedOut(self) -> None:
        """ERR_TIMEOUT: the server is closing the connection."""
