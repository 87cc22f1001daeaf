"""
Play French Tarot from a terminal on a gameproto MaîtreTarot server, against
the server's bots (they fill a table after ``--maitretarot-bots-after``
seconds, 30 by default), other people or ``examples/tarot_bot.py``.

    PYTHONPATH=. python examples/tarot_terminal.py --nick alice

The keyboard is read with Twisted's StandardIO, never a blocking input(): the
game logic is L{TerminalClient}, which prints through a callable and takes
each typed line through L{TerminalClient.feed}, so it runs without a
terminal too.  Cards are typed by their number (0..77, shown next to each
label: ``3=4♣``, ``70=T15``, ``77=Exc``); ``q`` leaves.

The server gives 60 seconds per answer by default; past that, a bot plays
the move and the connection is closed.  Reconnecting from the same machine
with the same nick before the deal ends takes the seat back at the end of
that deal; otherwise the bot answers no to the replay question for it and
the table ends.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, Callable, Iterable, Literal, Sequence

from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.interfaces import IHalfCloseableProtocol, IReactorTCP
from twisted.internet.stdio import StandardIO
from twisted.logger import FilteringLogObserver, LogLevel, LogLevelFilterPredicate
from twisted.logger import globalLogBeginner, textFileLogObserver
from twisted.protocols.basic import LineReceiver
from twisted.python.failure import Failure
from zope.interface import implementer

from gameproto.games.tarot import (
    BID_NAMES,
    CHIEN_SIZE,
    CLUBS,
    DIAMONDS,
    EXCUSE_SUIT,
    HEARTS,
    OUDLERS,
    SPADES,
    THRESHOLDS,
    TRUMPS,
    TarotView,
    botDiscard,
    cardLabel,
    isKing,
    isLegalDiscard,
    legalBids,
    suitOf,
    trickWinner,
)
from gameproto.maitretarot import wire
from gameproto.maitretarot.protocol import MaitreTarotClientProtocol
from gameproto.terminal import leaveAtShutdown, number

BOTS_COME = ("the server's bots take the empty places once the table's first player "
             "has waited --maitretarot-bots-after seconds (a server option, 30 by default)")
"""When a table that does not fill is completed with bots."""

SUIT_ROWS = ((CLUBS, "clubs"), (SPADES, "spades"), (HEARTS, "hearts"),
             (DIAMONDS, "diamonds"), (TRUMPS, "trumps"), (EXCUSE_SUIT, "excuse"))

Question = Literal["bid", "discard", "card", "again"]


def labelled(cards: Iterable[int]) -> str:
    """``3=4♣ 10=V♣ 77=Exc``: each card's number and label."""
    return " ".join(f"{card}={cardLabel(card)}" for card in cards)


def handLines(hand: Iterable[int]) -> list[str]:
    """The hand grouped by suit, one line per suit held, in card order."""
    cards = sorted(hand)
    lines = []
    for suit, name in SUIT_ROWS:
        inSuit = [c for c in cards if suitOf(c) == suit]
        if inSuit:
            lines.append(f"  {name + ':':<9} {labelled(inSuit)}")
    return lines


def discardProblem(hand: Sequence[int], cards: Sequence[int]) -> str | None:
    """Why ``cards`` cannot be the discard from ``hand`` (chien taken in), or None."""
    if len(cards) != CHIEN_SIZE or len(set(cards)) != CHIEN_SIZE:
        return f"Type {CHIEN_SIZE} different card numbers."
    missing = [c for c in cards if c not in hand]
    if missing:
        return f"You do not hold {' '.join(map(str, missing))}."
    forbidden = [c for c in cards if c in OUDLERS or isKing(c)]
    if forbidden:
        return f"No king or oudler in the discard: {labelled(forbidden)}."
    if not isLegalDiscard(hand, cards):
        return ("Trumps go in the discard only when you cannot do otherwise, "
                "and then as few as needed.")
    return None


class TerminalClient(MaitreTarotClientProtocol):
    """
    A person's side of a MaîtreTarot table: shows everything through ``out``
    (one line per call) and asks questions whose answers come through
    L{feed}; an answer is checked before it is sent, and asked again if it
    is not legal.  L{finished} fires when the connection is closed, with
    None once the table is over (or the person left), or else a sentence
    saying what went wrong.
    """

    def __init__(self, nick: str | None, out: Callable[[str], None]) -> None:
        super().__init__(nick)
        self.out = out
        self.question: Question | None = None
        self.asked: TarotView | None = None
        self.finished: Deferred[str | None] = Deferred()
        self._answer: Deferred[Any] | None = None
        self._announced = False
        self._trickLeader: int | None = None
        self._over = False
        self._leaving = False
        self._problem: str | None = None

    # -- what the player sees --------------------------------------------------

    def name(self, place: int) -> str:
        """The nick at ``place`` ("you" for ours)."""
        if place == self.seat:
            return "you"
        return self.nicks[place] if 0 <= place < len(self.nicks) else f"place {place + 1}"

    def bidsLine(self, bids: Sequence[int]) -> str:
        return "  ".join(f"{self.name(p)}: {'-' if b == wire.NO_BID else BID_NAMES[b]}"
                         for p, b in enumerate(bids))

    def trickLine(self, cards: Sequence[int]) -> str:
        """The cards of a trick in place order, with the nicks."""
        return "  ".join(f"{self.name(p)}: {'--' if c == wire.NO_CARD else cardLabel(c)}"
                         for p, c in enumerate(cards))

    def showHand(self, title: str, hand: Iterable[int]) -> None:
        self.out(title)
        for line in handLines(hand):
            self.out(line)

    def showTrickDone(self, number: int, cards: Sequence[int], leader: int | None) -> None:
        line = f"Trick {number}: {self.trickLine(cards)}"
        if leader is not None:
            order = [(leader + i) % 4 for i in range(4)]
            winner = order[trickWinner([cards[p] for p in order])]
            line += f"  -> {self.name(winner)}"
        self.out(line)

    def announceContract(self) -> None:
        """
        The final bids, the taker and the chien, once per deal: when the
        chien is shown, or right at the final bids when it is not (and, on
        a resume, from the first hook that follows).
        """
        if self._announced or self.contract is None:
            return
        self._announced = True
        self.out(f"Final bids: {self.bidsLine(self.bids)}")
        if self.taker is None:
            self.out("Everybody passed.")
        else:
            self.out(f"{self.name(self.taker)} {'take' if self.taker == self.seat else 'takes'}"
                     f" a {BID_NAMES[self.contract]}.")
        if self.chien is not None:
            self.out(f"Chien: {labelled(self.chien)}")

    def prompt(self) -> None:
        """(Re)print the question being asked."""
        view = self.asked
        if self.question == "bid" and view is not None:
            choices = ", ".join(f"{b} {BID_NAMES[b]}" for b in legalBids(view.bids))
            self.out(f"Your bid ({choices}):")
        elif self.question == "discard" and view is not None:
            self.out(f"Suggested: {' '.join(map(str, botDiscard(view.hand)))}")
            self.out(f"Your discard: {CHIEN_SIZE} card numbers (no king, no oudler, "
                     "trumps only if you must):")
        elif self.question == "card" and view is not None:
            self.out(f"Playable: {labelled(view.legalCards)}")
            self.out("Your card (its number):")
        elif self.question == "again":
            self.out("Another deal? [y/n]")

    # -- hooks of MaitreTarotClientProtocol ----------------------------------

    def identified(self, place: int) -> None:
        who = f"as {self.nick}" if self.nick is not None else "with the default nick"
        self.out(f"Connected {who}, place {place + 1}. Waiting for the table to fill: "
                 f"{BOTS_COME}.")

    def nicksReceived(self, nicks: list[str]) -> None:
        seats = ", ".join(f"{n} (you)" if p == self.seat else n for p, n in enumerate(nicks))
        self.out(f"At the table: {seats}")

    def dealt(self, hand: tuple[int, ...]) -> None:
        self._announced = False
        self._trickLeader = None
        self.out("")
        self.showHand(f"Deal {self.deals}, your hand:", hand)

    def bidsChanged(self, bids: tuple[int, ...]) -> None:
        if any(b != wire.NO_BID for b in bids):
            self.out(f"Bids: {self.bidsLine(bids)}")

    def chooseBid(self, view: TarotView) -> Deferred[Any]:
        return self._question("bid", view)

    def chooseDiscard(self, view: TarotView) -> Deferred[Any]:
        self.announceContract()
        self.showHand("Your hand with the chien:", view.hand)
        return self._question("discard", view)

    def trickChanged(self, current: tuple[int, ...], previous: tuple[int, ...]) -> None:
        self.announceContract()
        onTable = sum(1 for c in current if c != wire.NO_CARD)
        if onTable == 0 and any(c != wire.NO_CARD for c in previous):
            self.showTrickDone(self.played // 4, previous, self._trickLeader)
        elif onTable:
            if onTable == 1:
                self._trickLeader = self.leader
            self.out(f"On the table: {self.trickLine(current)}")

    def chooseCard(self, view: TarotView) -> Deferred[Any]:
        self.showHand("Your hand:", view.hand)
        return self._question("card", view)

    def refused(self) -> None:
        if self.phase == "discard":
            # The FFT rules, stricter than the protocol document's "six cards of the hand".
            self.out("The server refused that discard: six cards of your hand, no king, "
                     "no oudler, trumps only if you must. Choose again (your time starts "
                     "again).")
        else:
            self.out("The server refused that card: choose again.")

    def scored(self, score: dict[str, object]) -> None:
        self._forget()
        self.announceContract()
        contract = int(score["contract"])  # type: ignore[call-overload]
        if contract:
            points = int(score["points"])  # type: ignore[call-overload]
            oudlers = int(score["oudlers"])  # type: ignore[call-overload]
            result = "won" if score["won"] else "lost"
            # The taker is unknown after a reconnection at the end of a deal.
            who = self.name(self.taker) if self.taker is not None else "the taker"
            self.out(f"Score: {who} {result} the {BID_NAMES[contract]} "
                     f"with {points} points and {oudlers} "
                     f"oudler{'' if oudlers == 1 else 's'} (needed {THRESHOLDS[oudlers]}).")
        elif any(b == wire.NO_BID for b in self.bids):
            self.out("Score: deal not played (petit sec).")
        else:
            self.out("Score: deal not played (everybody passed).")
        totals: list[int] = score["totals"]  # type: ignore[assignment]
        self.out("Totals: " + "  ".join(f"{self.name(p)} {t}" for p, t in enumerate(totals)))

    def playAgain(self, view: TarotView) -> Deferred[Any]:
        return self._question("again", view)

    def tableEnded(self) -> None:
        self._over = True
        self.out("The table is over.")

    def contractMade(self, bids: tuple[int, ...], taker: int | None,
                     contract: int | None) -> None:
        if contract not in (0, 1, 2):  # no chien shown: announce now
            self.announceContract()

    def chienShown(self, cards: tuple[int, ...]) -> None:
        self.announceContract()

    def closing(self, reason: str) -> None:
        # The library closes the connection itself when the server refuses
        # us or sends what cannot be; ``reason`` says why.
        if not self._over and not self._leaving and self._problem is None:
            self._problem = f"the connection is closed: {reason}"
            self.out(f"Refused: {reason}.")

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        asked = self.question is not None  # the server's timeout closes only while we think
        super().connectionLost(reason)
        self._forget()
        if self._problem is None and not self._over and not self._leaving and asked:
            # (The protocol has no word for a server stopping: say both.)
            self._problem = ("the server closed the connection while it waited for your "
                             "answer: too slow? (then a bot holds your seat: reconnect from "
                             "this machine with the same nick before the deal ends to take "
                             "it back) or the server stopped")
        elif self._problem is None and not self._over and not self._leaving:
            self._problem = f"the server closed the connection ({reason.getErrorMessage()})"
        self.out("Disconnected.")
        self.finished.callback(self._problem)

    # -- what the player types ---------------------------------------------------

    def _question(self, question: Question, view: TarotView) -> Deferred[Any]:
        self.question, self.asked = question, view
        self._answer = Deferred()
        self.prompt()
        return self._answer

    def _forget(self) -> None:
        """Drop the pending question: the game moved on without an answer."""
        self.question, self.asked, self._answer = None, None, None

    def _reply(self, answer: object) -> None:
        answered = self._answer
        self._forget()
        assert answered is not None
        answered.callback(answer)

    def feed(self, line: str) -> None:
        """One line typed by the player."""
        text = line.strip().lower()
        view = self.asked
        if text in ("q", "quit"):
            self.leave()
        elif self.question is None or view is None:
            self.out("Nothing to answer now: wait (or q to quit).")
        elif self.question == "again":
            if text in ("y", "yes", "n", "no"):
                self._reply(text.startswith("y"))
            else:
                self.prompt()
        elif self.question == "bid":
            self._feedBid(text, view)
        elif self.question == "discard":
            self._feedDiscard(text, view)
        else:
            self._feedCard(text, view)

    def _retry(self, problem: str) -> None:
        self.out(problem)  # not sent: ask again
        self.prompt()

    def _feedBid(self, text: str, view: TarotView) -> None:
        bid = BID_NAMES.index(text) if text in BID_NAMES else number(text)
        if bid is None or bid not in legalBids(view.bids):
            self._retry(f"{text!r} is not a bid you may make now.")
            return
        self._reply(bid)
        self.out(f"You bid: {BID_NAMES[bid]}.")

    def _feedDiscard(self, text: str, view: TarotView) -> None:
        numbers = [number(w) for w in re.split(r"[\s,;]+", text)] if text else []
        cards = [n for n in numbers if n is not None]
        if len(cards) != len(numbers):
            self._retry(f"Type {CHIEN_SIZE} card numbers.")
            return
        problem = discardProblem(view.hand, cards)
        if problem is not None:
            self._retry(problem)
            return
        self._reply(tuple(cards))
        self.out(f"You discard: {labelled(sorted(cards))}")

    def _feedCard(self, text: str, view: TarotView) -> None:
        card = number(text)
        if card is None:
            self._retry("Type the number of a card (or q to quit).")
            return
        if card not in view.hand:
            self._retry(f"You do not hold card {card}.")
            return
        if card not in view.legalCards:
            self._retry(f"{cardLabel(card)} cannot be played now.")
            return
        self._reply(card)
        self.out(f"You play {cardLabel(card)}.")

    def leave(self) -> None:
        """Close the connection (a bot takes the seat for the deal in progress)."""
        self._leaving = True
        self._forget()
        if self.transport is not None and not self.finished.called:
            self.transport.loseConnection()

    def connectionMade(self) -> None:
        super().connectionMade()
        if self._leaving:  # the person left before the connection was made
            self.transport.loseConnection()  # type: ignore[union-attr]


@implementer(IHalfCloseableProtocol)
class Keyboard(LineReceiver):
    """
    Standard input and output for a L{TerminalClient}.  The end of input
    (Ctrl-D) leaves the table; the output stays open for what follows.
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
            self.client.leave()

    def writeConnectionLost(self) -> None:
        pass

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        if self.client is not None:
            self.client.leave()
        self.closed.callback(None)


def parseArguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play French Tarot from a terminal.",
        epilog=f"A table starts when four players are there; if it does not fill, {BOTS_COME}. "
               "Each answer has the server's --maitretarot-timeout (60 s by default).")
    parser.add_argument("--host", default="127.0.0.1", help="server host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=4001, help="server TCP port (4001)")
    parser.add_argument("--nick", default=None,
                        help="your nick, 1 to 64 bytes of UTF-8 (default: the server's, "
                             "playerN, which cannot take a seat back after a disconnect)")
    args = parser.parse_args(argv)
    if args.nick is not None and not 0 < len(args.nick.encode("utf-8")) <= wire.NICK_LIMIT:
        parser.error(f"--nick {args.nick!r}: 1 to {wire.NICK_LIMIT} bytes of UTF-8")
    return args


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    globalLogBeginner.beginLoggingTo(
        [FilteringLogObserver(textFileLogObserver(sys.stderr),
                              [LogLevelFilterPredicate(LogLevel.warn)])],
        redirectStandardIO=False)
    keyboard = Keyboard()
    StandardIO(keyboard, reactor=reactor)
    client = TerminalClient(args.nick, keyboard.show)
    keyboard.client = client
    leaveAtShutdown(reactor, client.leave, keyboard.closed)
    try:
        await connectProtocol(TCP4ClientEndpoint(reactor, args.host, args.port, 10), client)
    except Exception as e:
        raise SystemExit(f"tarot_terminal: cannot connect to {args.host}:{args.port}: {e}")
    problem = await client.finished
    keyboard.transport.loseConnection()  # type: ignore[union-attr]
    await keyboard.closed  # everything printed has been written
    if problem is not None:
        raise SystemExit(f"tarot_terminal: {problem}")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
