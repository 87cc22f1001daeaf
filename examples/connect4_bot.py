"""
A Connect Four bot for a gameproto server: connects over TCP, plays
``--games`` games with the library's alpha-beta bot, prints one line per
game, then disconnects.

    PYTHONPATH=. python examples/connect4_bot.py --host 127.0.0.1 --port 4000 --games 3

Exit status: 0 once every game is played; 1, with a message on stderr, if
the connection fails, the nick is refused or the server ends the session.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Callable

from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.error import ConnectError, DNSLookupError
from twisted.internet.interfaces import IReactorTCP
from twisted.logger import LogLevel, LogLevelFilterPredicate, FilteringLogObserver
from twisted.logger import globalLogBeginner, textFileLogObserver
from twisted.python.failure import Failure

from gameproto.connect4 import wire
from gameproto.connect4.protocol import Connect4ClientProtocol
from gameproto.games.connect4 import Board, choose_column

NICK_REFUSALS = {
    wire.ERR_INVALID_NICK: "is not a valid nick (1 to 16 of A-Z a-z 0-9 _ -)",
    wire.ERR_ALREADY_USED_NICK: "is already used by another player",
}


def describeResult(nick: str, players: tuple[str, str], seat: int, board: Board | None,
                   winner: int | None) -> str:
    """One line saying how a game ended, from ``nick``'s point of view."""
    opponent = players[1 - seat]
    moves = board.moves if board is not None else 0
    if winner is None:
        outcome = f"draw with {opponent}"
    elif winner == seat:
        outcome = f"{nick} beat {opponent}"
    else:
        outcome = f"{nick} lost to {opponent}"
    if winner is not None and (board is None or board.winner is None):
        outcome += " (forfeit)"  # a player left, timed out or sent two bad columns
    return f"{outcome} in {moves} move{'' if moves == 1 else 's'}"


class BotClient(Connect4ClientProtocol):
    """
    Plays ``games`` games with L{choose_column}, then leaves.  Calls
    ``report`` with one line per game; L{done} fires when the connection is
    closed, and L{problem} then says what went wrong, if anything.
    """

    def __init__(self, nick: str, games: int = 1, depth: int | None = None,
                 report: Callable[[str], None] = print,
                 rng: random.Random | None = None) -> None:
        super().__init__(nick)
        self.gamesLeft = games
        self.depth = depth
        self.report = report
        self.rng = rng
        self.results: list[str] = []
        self.problem: str | None = None
        self.done: Deferred[None] = Deferred()

    def chooseMove(self, board: Board) -> int:
        return choose_column(board, self.depth, self.rng)

    def gameEnded(self, winner: int | None) -> None:
        super().gameEnded(winner)
        self.gamesLeft -= 1
        line = f"game {len(self.results) + 1}: " + describeResult(
            self.nick, self.players, self.seat, self.board, winner)
        self.results.append(line)
        self.report(line)

    def playAgain(self) -> bool:
        return self.gamesLeft > 0

    def nickRefused(self, code: int) -> None:
        self.problem = f"nick {self.nick!r} {NICK_REFUSALS.get(code, 'was refused')}"
        super().nickRefused(code)  # closes the connection

    def timedOut(self) -> None:
        self.problem = "the server timed us out (ERR_TIMEOUT)"

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if self.problem is None and self.gamesLeft > 0:
            self.problem = f"the server closed the connection: {reason.getErrorMessage()}"
        self.done.callback(None)


def randomNick() -> str:
    """``bot`` and four random digits."""
    return f"bot{random.randrange(10_000):04d}"


def parseArguments(argv: tuple[str, ...]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play Connect Four games with a bot.")
    parser.add_argument("--host", default="127.0.0.1", help="server host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=4000, help="server TCP port (4000)")
    parser.add_argument("--nick", default=randomNick(), help="nick (bot and 4 digits)")
    parser.add_argument("--games", type=int, default=1, help="games to play (1)")
    parser.add_argument("--depth", type=int, default=None,
                        help="search depth of the bot (default: by board size)")
    args = parser.parse_args(argv)
    if not wire.isValidNick(args.nick):
        parser.error(f"--nick {args.nick!r}: 1 to 16 of A-Z a-z 0-9 _ -")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.depth is not None and args.depth < 1:
        parser.error("--depth must be at least 1")
    return args


def logWarnings() -> None:
    """Send warnings and errors of the library (and Twisted) to stderr."""
    observer = FilteringLogObserver(textFileLogObserver(sys.stderr),
                                    [LogLevelFilterPredicate(LogLevel.warn)])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    logWarnings()
    client = BotClient(args.nick, args.games, args.depth)
    endpoint = TCP4ClientEndpoint(reactor, args.host, args.port, timeout=10)
    try:
        await connectProtocol(endpoint, client)
    except (ConnectError, DNSLookupError) as e:
        raise SystemExit(f"connect4_bot: cannot connect to {args.host}:{args.port}: {e}")
    await client.done
    if client.problem is not None:
        raise SystemExit(f"connect4_bot: {client.problem}")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
