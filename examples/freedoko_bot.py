"""
A Doppelkopf bot for any FreeDoko parent (the real FreeDoko program, or
gameproto's FreeDoko port): connects as a child, plays the players the
parent gives it with the library's bot (the default hooks of
L{FreeDokoClientProtocol}), prints one line per game and one for the party,
and exits after the first ``party: finish``.

    PYTHONPATH=. python examples/freedoko_bot.py --host 127.0.0.1 --port 2442 --name Robo

Like a real FreeDoko child it deals every game itself from the party's seed
and follows every action the parent sends; ``--check`` also prints, for
every trick, the parent's ``trick full`` line as our rules see it.

Exit status: 0 after ``party: finish``; 1, with a message on stderr, if the
connection fails, the parent rejects it (``connection rejected``: it is in
the middle of a party), closes it before the party ends, or says what our
rules do not (a dealt hand, a trick: every such difference is printed).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.error import ConnectError, DNSLookupError
from twisted.internet.interfaces import IReactorTCP, IReactorTime
from twisted.logger import FilteringLogObserver, LogLevel, LogLevelFilterPredicate
from twisted.logger import globalLogBeginner, textFileLogObserver
from twisted.python.failure import Failure

from gameproto.freedoko.client import FreeDokoClientProtocol
from gameproto.games.doppelkopf import DoppelkopfView, GameSummary, Trick


def describeGame(number: int, summary: GameSummary, totals: Sequence[int],
                 names: Sequence[str]) -> str:
    """One line for a finished game: its type, the winner, the value, the party totals."""
    winner = summary.winner or "nobody"
    solo = f" by {names[summary.soloplayer]}" if summary.soloplayer is not None else ""
    re = summary.teamPoints("re")
    board = ", ".join(f"{name} {total}" for name, total in zip(names, totals))
    return (f"game {number}: {summary.gameType}{solo}, {winner} wins {summary.points} "
            f"(re {re}, contra {240 - re}); totals: {board}")


class BotChild(FreeDokoClientProtocol):
    """
    Plays with the library's bot until the first ``party: finish``; calls
    ``report`` with one line per game and one for the party.  L{done} fires
    when the connection is closed; L{problem} then says what went wrong.
    """

    def __init__(self, name: str = "Robo", report: Callable[[str], None] = print,
                 check: bool = False, clock: IReactorTime | None = None) -> None:
        super().__init__(name, clock)
        self.report = report
        self.check = check
        self.games = 0
        self.over = False
        self.done: Deferred[None] = Deferred()

    def playerNames(self) -> list[str]:
        return [self.name if p in self.seats else self.names.get(p, f"player {p}")
                for p in range(4)]

    def trickTaken(self, trick: Trick, view: DoppelkopfView) -> None:
        if self.check:
            self.report(f"trick full = {trick.leader}, {', '.join(trick.cards)}, "
                        f"{trick.winner}")

    def gameFinished(self, summary: GameSummary, totals: tuple[int, ...]) -> None:
        self.games += 1
        self.report(describeGame(self.games, summary, totals, self.playerNames()))

    def partyFinished(self, totals: tuple[int, ...], summaries: list[GameSummary]) -> None:
        self.over = True
        board = ", ".join(f"{name} {total}" for name, total in zip(self.playerNames(), totals))
        self.report(f"party over after {len(summaries)} games: {board}")
        self.leave("the party is over")

    def mismatch(self, text: str) -> None:
        print(f"freedoko_bot: the parent and our rules differ: {text}", file=sys.stderr)

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.over and self.problem is None:
            self.problem = ("the parent closed the connection before the end of the party "
                            f"({reason.getErrorMessage()})")
        self.done.callback(None)


def parseArguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play a FreeDoko party with a bot.")
    parser.add_argument("--host", default="127.0.0.1", help="parent host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=2442, help="parent TCP port (2442)")
    parser.add_argument("--name", default="Robo", help="the player's name (Robo)")
    parser.add_argument("--check", action="store_true",
                        help="print every trick (as the parent's 'trick full' says it)")
    args = parser.parse_args(argv)
    if not args.name or any(c in args.name for c in "\r\n"):
        parser.error("--name is one line of text")
    return args


def logWarnings() -> None:
    """Send warnings and errors of the library (and Twisted) to stderr."""
    observer = FilteringLogObserver(textFileLogObserver(sys.stderr),
                                    [LogLevelFilterPredicate(LogLevel.warn)])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    logWarnings()
    client = BotChild(args.name, check=args.check)
    endpoint = TCP4ClientEndpoint(reactor, args.host, args.port, timeout=10)
    try:
        await connectProtocol(endpoint, client)
    except (ConnectError, DNSLookupError) as e:
        raise SystemExit(f"freedoko_bot: cannot connect to {args.host}:{args.port}: {e}")
    await client.done
    if client.problem is not None:
        raise SystemExit(f"freedoko_bot: {client.problem}")
    if client.mismatches:
        raise SystemExit(f"freedoko_bot: the parent and our rules differed "
                         f"{len(client.mismatches)} times")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
