"""
A French Tarot bot for a gameproto MaîtreTarot server: connects over TCP,
plays ``--deals`` deals with the library's bot (the default hooks of
L{MaitreTarotClientProtocol}), prints one line once identified (its place,
and when bots will come), then one line per deal, answers 0 to the
replay question after the last one and exits when the table ends.

    PYTHONPATH=. python examples/tarot_bot.py --host 127.0.0.1 --port 4001 --deals 3

A table needs four players: the server fills the empty places with its own
bots after ``--maitretarot-bots-after`` seconds (30 by default). The table
goes on while all four answer yes to the replay question; the other players
may end it sooner.

Exit status: 0 once the table is over; 1, with a message on stderr, if the
connection fails, the server refuses us or closes the connection before the
table ends.
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

from gameproto.games.tarot import BID_NAMES, TarotView
from gameproto.maitretarot import wire
from gameproto.maitretarot.protocol import MaitreTarotClientProtocol

BOTS_COME = ("the server's bots take the empty places once the table's first player "
             "has waited --maitretarot-bots-after seconds (a server option, 30 by default)")
"""When a table that does not fill is completed with bots."""


def describeScore(number: int, score: dict[str, object], nicks: Sequence[str],
                  taker: int | None, bids: Sequence[int]) -> str:
    """
    One line for a deal's SEND_SCORE: the contract, the taker, won or lost,
    the taker's points (whole: the server rounds a half point to the side
    that made the deal), and everybody's totals.  ``taker`` and ``bids`` are
    what the client knows when the score comes (SEND_FINAL_BIDS).
    """
    contract = int(score["contract"])  # type: ignore[call-overload]
    totals: Sequence[int] = score["totals"]  # type: ignore[assignment]
    if contract:
        points = int(score["points"])  # type: ignore[call-overload]
        oudlers = int(score["oudlers"])  # type: ignore[call-overload]
        result = "won" if score["won"] else "lost"
        # The taker is only known from SEND_FINAL_BIDS: not after a reconnection
        # that lands on the end of a deal (branch point NEW_GAME, 1).
        who = nicks[taker] if taker is not None else "the taker"
        what = (f"{BID_NAMES[contract]} by {who}, {result} with "
                f"{points} points and {oudlers} "
                f"oudler{'' if oudlers == 1 else 's'}")
    elif any(b == wire.NO_BID for b in bids):
        what = "not played (petit sec)"
    else:
        what = "not played (everybody passed)"
    board = ", ".join(f"{nick} {total}" for nick, total in zip(nicks, totals))
    return f"deal {number}: {what}; totals: {board}"


class BotClient(MaitreTarotClientProtocol):
    """
    Plays ``deals`` deals with the library's bot (the default decision
    hooks), then answers 0 to the replay question.  Calls ``report`` with
    one line per deal; L{done} fires when the connection is closed, and
    L{problem} then says what went wrong, if anything.
    """

    def __init__(self, nick: str | None = None, deals: int = 1,
                 report: Callable[[str], None] = print) -> None:
        super().__init__(nick)
        self.dealsWanted = deals
        self.report = report
        self.results: list[str] = []
        self.problem: str | None = None
        self.over = False
        self.done: Deferred[None] = Deferred()

    def identified(self, place: int) -> None:
        who = f"as {self.nick}" if self.nick is not None else "with the default nick"
        self.report(f"Connected {who}, place {place + 1}. Waiting for the table to fill: "
                    f"{BOTS_COME}.")

    def scored(self, score: dict[str, object]) -> None:
        names = self.nicks or [f"place {p + 1}" for p in range(4)]
        line = describeScore(len(self.results) + 1, score, names, self.taker, self.bids)
        self.results.append(line)
        self.report(line)

    def playAgain(self, view: TarotView) -> bool:
        return len(self.results) < self.dealsWanted

    def tableEnded(self) -> None:
        self.over = True

    def closing(self, reason: str) -> None:
        # The library closes the connection itself when the server refuses
        # us or sends what cannot be; ``reason`` says why.
        if not self.over and self.problem is None:
            self.problem = f"the connection is closed: {reason}"

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.over and self.problem is None:
            self.problem = ("the server closed the connection before the end of the table "
                            f"({reason.getErrorMessage()})")
        self.done.callback(None)


def parseArguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play French Tarot deals with a bot.",
        epilog=f"A table starts when four players are there; if it does not fill, {BOTS_COME}.")
    parser.add_argument("--host", default="127.0.0.1", help="server host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=4001, help="server TCP port (4001)")
    parser.add_argument("--nick", default=None,
                        help="nick, 1 to 64 bytes of UTF-8 (default: the server's, playerN)")
    parser.add_argument("--deals", type=int, default=1, help="deals to play (1)")
    args = parser.parse_args(argv)
    if args.nick is not None and not 0 < len(args.nick.encode("utf-8")) <= wire.NICK_LIMIT:
        parser.error(f"--nick {args.nick!r}: 1 to {wire.NICK_LIMIT} bytes of UTF-8")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    return args


def logWarnings() -> None:
    """Send warnings and errors of the library (and Twisted) to stderr."""
    observer = FilteringLogObserver(textFileLogObserver(sys.stderr),
                                    [LogLevelFilterPredicate(LogLevel.warn)])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    logWarnings()
    client = BotClient(args.nick, args.deals)
    endpoint = TCP4ClientEndpoint(reactor, args.host, args.port, timeout=10)
    try:
        await connectProtocol(endpoint, client)
    except (ConnectError, DNSLookupError) as e:
        raise SystemExit(f"tarot_bot: cannot connect to {args.host}:{args.port}: {e}")
    await client.done
    if client.problem is not None:
        raise SystemExit(f"tarot_bot: {client.problem}")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
