"""
Play Connect Four from a terminal against whoever else is on a gameproto
server (another person, or ``examples/connect4_bot.py``).

    PYTHONPATH=. python examples/connect4_terminal.py --nick alice
    PYTHONPATH=. python examples/connect4_terminal.py --websocket ws://127.0.0.1:8080/connect4

The keyboard is read with Twisted's StandardIO, never a blocking input(): the
game logic is L{TerminalClient}, which prints through a callable and takes
each typed line through L{TerminalClient.feed}, so it runs without a terminal
too.  The server gives ``--connect4-timeout`` seconds per move (3 by default,
one more for the first move of a game): the prompt shows what is left of
``--timeout`` seconds, which must be the server's (the protocol does not
carry it).

The person reads and types columns numbered from 1 (1 to 7 on the usual
board); the protocol's PLAY_MOVE carries them from 0, so only what is shown
and read is shifted.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Literal, cast

from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.interfaces import IHalfCloseableProtocol, IReactorTCP, IReactorTime
from twisted.internet.stdio import StandardIO
from twisted.logger import FilteringLogObserver, LogLevel, LogLevelFilterPredicate
from twisted.logger import globalLogBeginner, textFileLogObserver
from twisted.protocols.basic import LineReceiver
from twisted.python.failure import Failure
from zope.interface import implementer

from gameproto.connect4 import wire
from gameproto.connect4.protocol import Connect4ClientProtocol
from gameproto.games.connect4 import Board
from gameproto.terminal import leaveAtShutdown
from gameproto.web.websocket import connectMessageProtocol

MARKS = ("X", "O")
"""Player 0 (who plays first) is X, player 1 is O."""

# The server's defaults (docs/protocols/connect4.md): the client cannot ask.
MOVE_TIMEOUT = 3.0
FIRST_MOVE_BONUS = 1.0
RESEND_TIMEOUT = 1.0
CHOICE_TIMEOUT = 10.0

NICK_REFUSALS = {
    wire.ERR_INVALID_NICK: "is not a valid nick (1 to 16 of A-Z a-z 0-9 _ -)",
    wire.ERR_ALREADY_USED_NICK: "is already taken",
}


def render(board: Board) -> list[str]:
    """The board as text lines, top row first, column numbers (from 1) underneath."""
    cell = len(str(board.width)) + 1
    lines = ["".join(("." if stone is None else MARKS[stone]).rjust(cell) for stone in row)
             for row in board.rows()]
    lines.append("".join(shown(column).rjust(cell) for column in range(board.width)))
    return lines


def shown(column: int) -> str:
    """A protocol column (from 0) as a person reads it (from 1)."""
    return str(column + 1)


class TerminalClient(Connect4ClientProtocol):
    """
    A person's side of Protuissance 4: shows everything through ``out`` (one
    line per call) and asks questions whose answers come through L{feed}.
    L{finished} fires when the connection is closed, with None after a
    normal goodbye, or else a sentence saying what went wrong.
    """

    firstMoveBonus = FIRST_MOVE_BONUS
    resendTimeout = RESEND_TIMEOUT
    choiceTimeout = CHOICE_TIMEOUT

    def __init__(self, nick: str, out: Callable[[str], None],
                 clock: IReactorTime | None = None, timeout: float = MOVE_TIMEOUT) -> None:
        super().__init__(nick)
        if clock is None:
            from twisted.internet import reactor as clock  # type: ignore[assignment]
        self.out = out
        self.clock: IReactorTime = clock  # type: ignore[assignment]
        self.timeout = timeout
        self.question: Literal["nick", "move", "again"] | None = None
        self.finished: Deferred[str | None] = Deferred()
        self._answer: Deferred[Any] | None = None
        self._deadline = 0.0
        self._refused = False
        self._leaving = False
        self._problem: str | None = None

    # -- what the player sees --------------------------------------------------

    def showBoard(self) -> None:
        assert self.board is not None
        for line in render(self.board):
            self.out(line)

    def opponent(self) -> str:
        """The opponent's nick and mark."""
        seat = 1 - self.seat
        return f"{self.players[seat]} ({MARKS[seat]})"

    def prompt(self) -> None:
        """(Re)print the question being asked."""
        if self.question == "move":
            left = max(0.0, self._deadline - self.clock.seconds())
            self.out(f"Your move ({MARKS[self.seat]}): column 1-{self.width}, "
                     f"{left:.1f} s left:")
        elif self.question == "again":
            self.out(f"Play again? [y/n] (within {self.choiceTimeout:g} s)")
        elif self.question == "nick":
            self.out("Type another nick:")

    # -- hooks of Connect4ClientProtocol -----------------------------------------

    def nickAccepted(self, width: int, height: int) -> None:
        self.out(f"Connected as {self.nick}, {width}x{height} board. "
                 "Waiting for an opponent...")

    def nickRefused(self, code: int) -> None:
        self.out(f"The nick {self.nick!r} {NICK_REFUSALS.get(code, 'was refused')}.")
        self._ask("nick")

    def gameStarted(self, players: tuple[str, str], seat: int) -> None:
        self.out(f"New game: {players[0]} (X) against {players[1]} (O); "
                 f"you are {MARKS[seat]}, X plays first.")
        self.showBoard()
        if seat == 1:
            self.out(f"Waiting for {self.opponent()}...")

    def chooseMove(self, board: Board) -> Deferred[Any]:
        if self._refused:
            seconds = self.resendTimeout
        else:
            seconds = self.timeout + (self.firstMoveBonus if board.moves == 0 else 0.0)
        self._refused = False
        self._deadline = self.clock.seconds() + seconds
        return self._ask("move")

    def opponentMoved(self, column: int) -> None:
        self.out(f"{self.opponent()} played column {shown(column)}.")
        self.showBoard()

    def moveRefused(self) -> None:
        self._refused = True
        self.out(f"The server refused that column (ERR_INVALID_COLUMN); "
                 f"{self.resendTimeout:g} s to play another, or the game is lost.")
        self.showBoard()

    def gameEnded(self, winner: int | None) -> None:
        self._forget()
        opponent = self.players[1 - self.seat]
        if winner is None:
            result = f"draw with {opponent}."
        elif winner != self.seat:
            result = f"you lost against {opponent}."
        elif self.board is not None and self.board.winner == self.seat:
            result = f"you won against {opponent}!"
        else:
            result = f"you won: {opponent} left or ran out of time."
        self.out(f"Result: {result}")

    def playAgain(self) -> Deferred[Any]:
        return self._ask("again")

    def timedOut(self) -> None:
        self._forget()
        self._problem = "too slow: the server timed you out (ERR_TIMEOUT)"
        self.out("Too slow! The server timed you out (ERR_TIMEOUT) and closes the connection.")

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        self._forget()
        if self._problem is None and not self._leaving:
            self._problem = f"the server closed the connection ({reason.getErrorMessage()})"
        self.out("Disconnected.")
        self.finished.callback(self._problem)

    # -- what the player types ---------------------------------------------------

    def _ask(self, question: Literal["nick", "move", "again"]) -> Deferred[Any]:
        self.question = question
        self._answer = Deferred()
        self.prompt()
        return self._answer

    def _forget(self) -> None:
        """Drop the pending question: the game moved on without an answer."""
        self.question, self._answer = None, None

    def _reply(self, answer: object) -> None:
        answered, self._answer = self._answer, None
        self.question = None
        assert answered is not None
        answered.callback(answer)

    def problemWith(self, column: int) -> str | None:
        """
        Why the protocol's ``column`` (from 0) cannot be played now, checked
        before sending, in the person's numbers (from 1); or None.
        """
        assert self.board is not None
        if not 0 <= column < self.width:
            return f"There is no column {shown(column)}: choose one from 1 to {self.width}."
        if not self.board.is_legal(column):
            return f"Column {shown(column)} is full."
        return None

    def feed(self, line: str) -> None:
        """One line typed by the player."""
        text = line.strip()
        if text.lower() in ("q", "quit"):
            self.leave()
        elif self.question is None:
            self.out("Nothing to answer now: wait (or q to quit).")
        elif self.question == "move":
            self._feedMove(text)
        elif self.question == "again":
            if text.lower() in ("y", "yes", "n", "no"):
                again = text.lower().startswith("y")
                self._leaving = not again
                self._reply(again)
            else:
                self.prompt()
        elif wire.isValidNick(text):
            self._forget()
            self.connectAs(text)
        else:
            self.out(f"{text!r} {NICK_REFUSALS[wire.ERR_INVALID_NICK]}.")
            self.prompt()

    def _feedMove(self, text: str) -> None:
        try:
            column = int(text) - 1  # typed from 1, sent from 0
        except ValueError:
            problem: str | None = "Type a column number (or q to quit)."
        else:
            problem = self.problemWith(column)
        if problem is not None:
            self.out(problem)  # not sent: ask again
            self.prompt()
            return
        self._reply(column)  # sends PLAY_MOVE and plays it on self.board
        self.out(f"You played column {shown(column)}.")
        self.showBoard()
        assert self.board is not None
        if not self.board.is_over:
            self.out(f"Waiting for {self.opponent()}...")

    def leave(self) -> None:
        """Close the connection (a game in progress is lost)."""
        self._leaving = True
        self._forget()
        if self.transport is not None and not self.finished.called:
            self.transport.loseConnection()


@implementer(IHalfCloseableProtocol)
class Keyboard(LineReceiver):
    """
    Standard input and output for a L{TerminalClient}.  The end of input
    (Ctrl-D) leaves; the output stays open for what follows.
    """

    delimiter = b"\n"

    def __init__(self) -> None:
        self.client: TerminalClient | None = None
        self.closed: Deferred[None] = Deferred()

    def show(self, text: str) -> None:
        self.transport.write(text.encode("utf-8") + b"\n")  # type: ignore[union-attr]

    def lineReceived(self, line: bytes) -> None:
        if self.client is not None:
            self.client.feed(line.decode("utf-8", "replace"))

    def readConnectionLost(self) -> None:
        if self.client is not None:
            self.client.leave()  # end of input (Ctrl-D): leave

    def writeConnectionLost(self) -> None:
        pass

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        if self.client is not None:
            self.client.leave()
        self.closed.callback(None)


def parseArguments(argv: tuple[str, ...]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play Connect Four from a terminal.")
    parser.add_argument("--host", default="127.0.0.1", help="server host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=4000, help="server TCP port (4000)")
    parser.add_argument("--websocket", metavar="URL",
                        help="play over WebSocket instead, e.g. ws://127.0.0.1:8080/connect4")
    parser.add_argument("--nick", required=True, help="your nick: 1 to 16 of A-Z a-z 0-9 _ -")
    parser.add_argument("--timeout", type=float, default=MOVE_TIMEOUT,
                        help="the server's seconds per move, its --connect4-timeout, "
                        "which the prompt counts down (3)")
    args = parser.parse_args(argv)
    if not wire.isValidNick(args.nick):
        parser.error(f"--nick {args.nick!r}: 1 to 16 of A-Z a-z 0-9 _ -")
    return args


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    globalLogBeginner.beginLoggingTo(
        [FilteringLogObserver(textFileLogObserver(sys.stderr),
                              [LogLevelFilterPredicate(LogLevel.warn)])],
        redirectStandardIO=False)
    keyboard = Keyboard()
    StandardIO(keyboard, reactor=reactor)
    client = TerminalClient(args.nick, keyboard.show, cast(IReactorTime, reactor), args.timeout)
    keyboard.client = client
    leaveAtShutdown(reactor, client.leave, keyboard.closed)
    where = args.websocket or f"{args.host}:{args.port}"
    try:
        if args.websocket:
            await connectMessageProtocol(reactor, args.websocket, client, wire.MAX_MESSAGE)
        else:
            await connectProtocol(TCP4ClientEndpoint(reactor, args.host, args.port, 10), client)
    except Exception as e:
        raise SystemExit(f"connect4_terminal: cannot connect to {where}: {e}")
    problem = await client.finished
    keyboard.transport.loseConnection()  # type: ignore[union-attr]
    await keyboard.closed  # everything printed has been written
    if problem is not None:
        raise SystemExit(f"connect4_terminal: {problem}")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
