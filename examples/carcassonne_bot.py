"""
A Carcassonne bot for a gameproto Carcassonne 1.71 server: connects over
TCP, says HELLO, says READY once it knows ``--players - 1`` opponents, plays
each of its turns with the library client's choice (L{CarcassonneClientProtocol}'s
default hooks, which try placements until the referee accepts one),
acknowledges the others' moves, and exits at FINISH.

    PYTHONPATH=. python examples/carcassonne_bot.py --host 127.0.0.1 --port 4002

Two bots started against the same server play a whole game; one bot alone
gets a server bot as its opponent after ``--carcassonne-bots-after``
seconds (30 by default; the referee must be on).

Exit status: 0 at FINISH; 1, with a message on stderr, if the connection
fails or is closed before the game ends.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.error import ConnectError, DNSLookupError
from twisted.internet.interfaces import IReactorTCP
from twisted.logger import FilteringLogObserver, LogLevel, LogLevelFilterPredicate
from twisted.logger import globalLogBeginner, textFileLogObserver
from twisted.python.failure import Failure

from gameproto.carcassonne import wire
from gameproto.carcassonne.protocol import CarcassonneClientProtocol


class BotClient(CarcassonneClientProtocol):
    """
    Plays a whole game with the library's choices; calls ``report`` with a
    line for each event worth saying.  L{done} fires when the connection is
    closed, and L{problem} then says what went wrong, if anything.
    """

    def __init__(self, players: int = 2, report: Callable[[str], None] = print) -> None:
        super().__init__(players)
        self.report = report
        self.problem: str | None = None
        self.done: Deferred[None] = Deferred()

    def alone(self) -> None:
        self.report("alone in the room: waiting for an opponent")

    def playerJoined(self, number: int) -> None:
        self.report(f"player {number} is here")

    def playerLeft(self, number: int) -> None:
        self.report(f"player {number} left")

    def gameStarted(self) -> None:
        self.report("the game starts")

    def gameStopped(self) -> None:
        self.report("a move was refused: the game stops")

    def gameFinished(self, number: int) -> None:
        who = "the server" if number == 0 else f"player {number}"
        self.report(f"game over (FINISH from {who}): {len(self.board)} tiles on the board, "
                    f"{self.movesPlayed} of them ours")

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.finished and self.problem is None:
            self.problem = ("the server closed the connection before the end of the game "
                            f"({reason.getErrorMessage()})")
        self.done.callback(None)


def parseArguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play a game of Carcassonne with a bot.")
    parser.add_argument("--host", default="127.0.0.1", help="server host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=4002, help="server TCP port (4002)")
    parser.add_argument("--players", type=int, default=2,
                        help="say READY once the room has this many players, 2 to 5 (2)")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 5:
        parser.error("--players must be 2 to 5")
    return args


def logWarnings() -> None:
    """Send warnings and errors of the library (and Twisted) to stderr."""
    observer = FilteringLogObserver(textFileLogObserver(sys.stderr),
                                    [LogLevelFilterPredicate(LogLevel.warn)])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    logWarnings()
    client = BotClient(args.players)
    endpoint = TCP4ClientEndpoint(reactor, args.host, args.port, timeout=10)
    try:
        await connectProtocol(endpoint, client)
    except (ConnectError, DNSLookupError) as e:
        raise SystemExit(f"carcassonne_bot: cannot connect to {args.host}:{args.port}: {e}")
    await client.done
    if client.problem is not None:
        raise SystemExit(f"carcassonne_bot: {client.problem}")


__all__ = ["BotClient", "main", "wire"]

if __name__ == "__main__":
    task.react(main, sys.argv[1:])
