"""
Play Doppelkopf from a terminal as a child of any FreeDoko parent: the real
FreeDoko program (``FreeDoko --start-server``; its AIs play the other
seats) or gameproto's FreeDoko port.

    PYTHONPATH=. python examples/freedoko_terminal.py --port 2442 --name Alice

Your hand is shown sorted (trumps first, high to low), the cards you may
play numbered; type a number.  Every question shows the library bot's
suggestion: an empty line takes it.  ``q`` leaves.  Answers may be typed
ahead (piped input, or ``--script FILE``: one answer a line, used in turn;
the end of the script or of the input leaves the table).  The keyboard is
read with Twisted's StandardIO, never a blocking input(): the game logic is
L{TerminalChild}, which prints through a callable and takes each typed line
through L{TerminalChild.feed}, so it runs without a terminal too.

Exit status: 0 after the party (or when you leave); 1, with a message, if
the connection fails or the parent rejects it or ends it mid-party.
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from pathlib import Path
from typing import Any, Callable, Literal, Sequence

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

from gameproto.freedoko.client import FreeDokoClientProtocol
from gameproto.games import doppelkopf as dk
from gameproto.games.doppelkopf import DoppelkopfView, GameSummary, Reservation, Trick
from gameproto.terminal import leaveAtShutdown, number

Question = Literal["reservation", "poverty shift", "poverty answer", "poverty return",
                   "announcement", "card"]


def reservationChoices(view: DoppelkopfView) -> list[Reservation]:
    """The reservations the rules allow with this hand, normal first."""
    rules, hand = view.rules, view.hand
    choices = [Reservation()]
    if hand.count(dk.CLUB_QUEEN) == 2:
        choices += [Reservation(dk.MARRIAGE, s) for s in dk.SELECTORS
                    if rules.flag(dk.SELECTOR_RULES[s])]
    if dk.hasPoverty(hand, rules):
        choices.append(Reservation(dk.POVERTY))
    choices += [Reservation(t) for t in dk.REAL_SOLI if dk.ruleAllows(rules, t)]
    return choices


class TerminalChild(FreeDokoClientProtocol):
    """
    A person's side of a FreeDoko party: shows everything through ``out``
    (one line per call) and asks questions answered through L{feed} (or
    from lines typed ahead); an answer is checked before it is sent, and
    asked again if the rules refuse it.  L{finished} fires when the
    connection is closed: None once the party is over or the person left,
    else a sentence saying what went wrong.
    """

    def __init__(self, name: str, out: Callable[[str], None]) -> None:
        super().__init__(name)
        self.out = out
        self.question: Question | None = None
        self.asked: DoppelkopfView | None = None
        self.choices: list[Any] = []
        self.suggestion: Any = None
        self.typedAhead: deque[str] = deque()
        self.endOfInput = False
        self.finished: Deferred[str | None] = Deferred()
        self._answer: Deferred[Any] | None = None
        self._offered: tuple[int, tuple[str, ...]] | None = None
        self.over = False
        self.games = 0
        self._dealing: int | None = None  # the game dealt, until it starts
        self._reservations: dict[int, str] = {}

    # -- showing -----------------------------------------------------------------

    def nameOf(self, player: int) -> str:
        if player in self.seats:
            return "you"
        return self.names.get(player, f"player {player + 1}")  # counted from 1, as the seats

    def sortedHand(self, view: DoppelkopfView) -> list[str]:
        return dk.sortHand(view.order, view.hand)

    def showHand(self, view: DoppelkopfView) -> None:
        self.out("Your hand: " + ", ".join(self.sortedHand(view)))

    def trickLine(self, leader: int, cards: Sequence[str]) -> str:
        return ", ".join(f"{self.nameOf((leader + i) % 4)} {card}" for i, card in enumerate(cards))

    def prompt(self) -> None:
        view = self.asked
        if view is None or self.question is None:
            return
        if self.question == "reservation":
            self.out("Reservations: " + "  ".join(f"{i}={r.wire()}"
                                                 for i, r in enumerate(self.choices)))
            self.out(f"Suggested: {self.suggestion.wire()}")
            self.out("Your reservation (its number):")
        elif self.question in ("poverty shift", "poverty return"):
            hand = self.sortedHand(view)
            self.out("Cards: " + "  ".join(f"{i}={c}" for i, c in enumerate(hand)))
            self.out(f"Suggested: {', '.join(self.suggestion)}")
            self.out(f"Your {self.question} ({len(self.suggestion)} card numbers):")
        elif self.question == "poverty answer":
            self.out(f"Suggested: {'y' if self.suggestion else 'n'}")
            self.out("Take the poverty? [y/n]")
        elif self.question == "announcement":
            self.out("Announcements: 0=none  " + "  ".join(
                f"{i}={self.said(a, view)}" for i, a in enumerate(view.validAnnouncements, 1)))
            suggested = self.said(self.suggestion, view) if self.suggestion else "none"
            self.out(f"Suggested: {suggested}")
            self.out("Your announcement (its number):")
        else:
            if view.trick:
                self.out(f"On the table: {self.trickLine(view.leader, view.trick)}")
            self.out("Playable: " + "  ".join(f"{i}={c}" for i, c in enumerate(self.choices)))
            self.out(f"Suggested: {self.suggestion}")
            self.out("Your card (its number):")

    # -- news hooks ------------------------------------------------------------------

    def accepted(self, parentName: str | None) -> None:
        self.out(f"Connected to {parentName or 'the parent'} as {self.name}. "
                 "Waiting for the party...")

    def rejected(self) -> None:
        self.out("Rejected: the parent is in the middle of a party.")

    def partyStarted(self, seed: int, startplayer: int) -> None:
        players = ", ".join(f"{self.nameOf(p)}" for p in range(4))
        seat = "" if self.seat is None else f"; you are player {self.seat + 1} of 4"
        self.out(f"The party starts (seed {seed}): {players}{seat}.")

    def dealt(self, view: DoppelkopfView) -> None:
        self._offered = None
        if self._dealing == view.gameNumber:  # the same game again: the cards were thrown in
            thrown = [f"{self.nameOf(p)}: {r}" for p, r in sorted(self._reservations.items())
                      if r.split(",")[0].strip() in dk.THROWN]
            self.out(f"The cards are thrown in ({', '.join(thrown)}) and dealt again." if thrown
                     else "The cards are dealt again.")
        self._dealing = view.gameNumber
        self._reservations = {}
        self.out("")
        self.out(f"Game {view.gameNumber + 1}, {self.nameOf(view.startplayer)} "
                 f"{'start' if view.startplayer in self.seats else 'starts'}.")
        self.showHand(view)

    def reserved(self, player: int, reservation: str) -> None:
        self._reservations[player] = reservation
        self.out(f"{self.nameOf(player)}: {reservation}")

    def gameStarted(self, view: DoppelkopfView) -> None:
        self._dealing = None
        solo = (f" ({self.nameOf(view.soloplayer)})" if view.soloplayer is not None
                and view.gameType != dk.NORMAL else "")
        self.out(f"The game: {view.gameType}{solo}.")

    def said(self, announcement: str, view: DoppelkopfView) -> str:
        """Our announcement (its wire name) in a player's words: ``no 120`` is re or kontra."""
        return dk.announcementWords(announcement, view.teams[view.seat])

    def announced(self, player: int, announcement: str) -> None:
        game = self.game
        team = game.teams[player] if game is not None else None
        self.out(f"{self.nameOf(player)} announced {dk.announcementWords(announcement, team)}.")

    def trickTaken(self, trick: Trick, view: DoppelkopfView) -> None:
        self.out(f"Trick {view.tricksPlayed if view.tricksPlayed else 12}: "
                 f"{self.trickLine(trick.leader, trick.cards)} -> {self.nameOf(trick.winner)}")

    def gameFinished(self, summary: GameSummary, totals: tuple[int, ...]) -> None:
        self.games += 1
        re = summary.teamPoints("re")
        mine = " ".join(summary.teams[s] for s in sorted(self.seats))
        self.out(f"Game {self.games}: {summary.gameType}, {summary.winner or 'nobody'} wins "
                 f"{summary.points} (re {re}, contra {240 - re}); you were {mine}.")
        self.out("Totals: " + "  ".join(f"{self.nameOf(p)} {t}" for p, t in enumerate(totals)))

    def partyFinished(self, totals: tuple[int, ...], summaries: list[GameSummary]) -> None:
        self.over = True
        self._forget()
        self.out(f"The party is over after {len(summaries)} games.")
        self.leave("the party is over")

    def mismatch(self, text: str) -> None:
        self.out(f"(the parent and our rules differ: {text})")

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        self._forget()
        self.out("Disconnected.")
        self.finished.callback(self.problem)

    # -- decision hooks ------------------------------------------------------------

    def chooseReservation(self, view: DoppelkopfView) -> Deferred[Any]:
        choices = reservationChoices(view)
        suggestion = dk.botReservation(view.hand, view.rules)
        if suggestion not in choices:
            choices.append(suggestion)
        return self._question("reservation", view, choices, suggestion)

    def choosePovertyShift(self, view: DoppelkopfView) -> Deferred[Any]:
        return self._question("poverty shift", view, [],
                              dk.botPovertyShift(view.hand, view.rules))

    def choosePovertyAccept(self, view: DoppelkopfView) -> Deferred[Any]:
        return self._question("poverty answer", view, [],
                              dk.botPovertyAccept(view.hand, view.rules))

    def choosePovertyReturn(self, view: DoppelkopfView) -> Deferred[Any]:
        self.out(f"You took the poverty: {', '.join(view.povertyCards or ())}")
        self.showHand(view)
        return self._question("poverty return", view, [],
                         dk.botPovertyReturn(view.hand, view.povertyCount, view.rules))

    def chooseAnnouncement(self, view: DoppelkopfView) -> Deferred[Any] | None:
        # asked when what may be announced changes, not before every card
        offer = (view.gameNumber, view.validAnnouncements)
        if offer == self._offered:
            return None
        self._offered = offer
        return self._question("announcement", view, [None, *view.validAnnouncements],
                         dk.botAnnouncement(view))

    def chooseCard(self, view: DoppelkopfView) -> Deferred[Any]:
        legal = [c for c in self.sortedHand(view) if c in view.legalCards]
        return self._question("card", view, legal, dk.botCard(view))

    # -- typing ------------------------------------------------------------------

    def _question(self, question: Question, view: DoppelkopfView, choices: list[Any],
             suggestion: Any) -> Deferred[Any]:
        self.question, self.asked = question, view
        self.choices, self.suggestion = choices, suggestion
        self._answer = Deferred()
        answer = self._answer
        self.prompt()
        self._takeTypedAhead()
        return answer

    def _takeTypedAhead(self) -> None:
        while self.question is not None and self.typedAhead:
            self._answerWith(self.typedAhead.popleft())
        if self.question is not None and self.endOfInput:
            self.leave("the end of the input")

    def _forget(self) -> None:
        self.question, self.asked, self._answer = None, None, None

    def _reply(self, value: Any, shown: str) -> None:
        answer = self._answer
        self._forget()
        self.out(shown)
        assert answer is not None
        answer.callback(value)

    def feed(self, line: str) -> None:
        """One line typed by the player (kept for the next question if none is asked)."""
        text = line.strip().lower()
        if text in ("q", "quit"):
            self.leave("you left")
        elif self.question is None:
            self.typedAhead.append(text)
        else:
            self._answerWith(text)
            self._takeTypedAhead()

    def inputEnded(self) -> None:
        """No more lines will come: leave at the next question (or now, if asked)."""
        self.endOfInput = True
        if self.question is not None and not self.typedAhead:
            self.leave("the end of the input")

    def _retry(self, problem: str) -> None:
        self.out(problem)
        self.prompt()

    def _answerWith(self, text: str) -> None:
        question, view = self.question, self.asked
        assert question is not None and view is not None
        if question == "poverty answer":
            if text in ("", "y", "yes", "n", "no"):
                accept = self.suggestion if text == "" else text.startswith("y")
                self._reply(accept, "You take the poverty." if accept else "You refuse it.")
            else:
                self._retry("Type y or n.")
            return
        if question in ("poverty shift", "poverty return"):
            if text == "":
                cards = list(self.suggestion)
            else:
                hand = self.sortedHand(view)
                numbers = [number(n) for n in text.replace(",", " ").split()]
                indexes = [n for n in numbers if n is not None and n < len(hand)]
                if len(indexes) != len(numbers) or len(set(indexes)) != len(indexes):
                    self._retry("Type different card numbers of the list.")
                    return
                cards = [hand[n] for n in indexes]
            if len(cards) != len(self.suggestion):
                self._retry(f"Type {len(self.suggestion)} card numbers.")
                return
            self._reply(cards, f"You give: {', '.join(cards)}")
            return
        if text == "":
            choice = self.suggestion
        elif (chosen := number(text)) is not None and chosen < len(self.choices):
            choice = self.choices[chosen]
        else:
            self._retry(f"{text!r} is not one of the numbers shown.")
            return
        if question == "reservation":
            self._reply(choice, f"You reserve: {choice.wire()}")
        elif question == "announcement":
            self._reply(choice, f"You announce {self.said(choice, view)}." if choice
                        else "No announcement.")
        else:
            self._reply(choice, f"You play {choice}.")

    def leave(self, reason: str = "leaving") -> None:
        """Close the connection (the real parent's AI cannot take the seat: its party ends)."""
        self.leaving = True
        self._forget()
        if self.transport is not None and not self.finished.called:
            super().leave(reason)


@implementer(IHalfCloseableProtocol)
class Keyboard(LineReceiver):
    """Standard input and output for a L{TerminalChild}; the end of input leaves."""

    delimiter = b"\n"

    def __init__(self) -> None:
        self.client: TerminalChild | None = None
        self.closed: Deferred[None] = Deferred()

    def show(self, text: str) -> None:
        self.transport.write(text.encode("utf-8") + b"\n")  # type: ignore[union-attr]

    def lineReceived(self, line: bytes) -> None:
        if self.client is not None:
            self.client.feed(line.decode("utf-8", "replace"))

    def readConnectionLost(self) -> None:
        if self.client is not None:
            self.client.inputEnded()

    def writeConnectionLost(self) -> None:
        pass

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        if self.client is not None:
            self.client.inputEnded()
        self.closed.callback(None)


def parseArguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play Doppelkopf from a terminal "
                                                 "as a FreeDoko child.")
    parser.add_argument("--host", default="127.0.0.1", help="parent host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=2442, help="parent TCP port (2442)")
    parser.add_argument("--name", default="Player", help="your name (Player)")
    parser.add_argument("--script", type=Path, default=None,
                        help="read the answers from this file, one a line "
                             "(an empty line: the suggestion), not from the keyboard")
    args = parser.parse_args(argv)
    if not args.name or any(c in args.name for c in "\r\n"):
        parser.error("--name is one line of text")
    if args.script is not None and not args.script.is_file():
        parser.error(f"--script {args.script}: no such file")
    return args


async def main(reactor: IReactorTCP, *argv: str) -> None:
    args = parseArguments(argv)
    globalLogBeginner.beginLoggingTo(
        [FilteringLogObserver(textFileLogObserver(sys.stderr),
                              [LogLevelFilterPredicate(LogLevel.warn)])],
        redirectStandardIO=False)
    keyboard = Keyboard()
    StandardIO(keyboard, reactor=reactor)
    client = TerminalChild(args.name, keyboard.show)
    if args.script is not None:
        for line in args.script.read_text(encoding="utf-8").splitlines():
            client.feed(line)
        client.inputEnded()
    else:
        keyboard.client = client
    leaveAtShutdown(reactor, client.leave, keyboard.closed)
    try:
        await connectProtocol(TCP4ClientEndpoint(reactor, args.host, args.port, 10), client)
    except Exception as e:
        raise SystemExit(f"freedoko_terminal: cannot connect to {args.host}:{args.port}: {e}")
    problem = await client.finished
    keyboard.transport.loseConnection()  # type: ignore[union-attr]
    await keyboard.closed  # everything printed has been written
    if problem is not None:
        raise SystemExit(f"freedoko_terminal: {problem}")


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
