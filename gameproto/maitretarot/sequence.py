"""
The MaîtreTarot sequence a server sends to one seat, sans I/O.

The table tells each seat what it may see of every step (its events, who
must act, the public state); this module turns that into the wire messages
of the document, in order, with L{Signal}s among them where the server's
connection machine must move on (the seat is asked to bid, its card was
accepted, the table is over).  Nothing here knows of connections or time:
L{joining} is a seat's first update at a table (a new table, or a seat
taken back), L{following} every later one.

A seat joins only where the document's sequence can start with the seat's
hand (L{canJoin}): at the start of a deal, before anyone bid, or at its end,
while the seat's replay answer is awaited.  Both start with
``BRANCHEMENT_POINT(NEW_GAME, 0)`` and DILL_CARDS; at the end SEND_SCORE
follows, as after a deal not played.
"""

from __future__ import annotations

import enum
import functools
from typing import Iterable, Mapping, Sequence, Union

from gameproto.engine.contract import JSON, Event, Seat
from gameproto.games.tarot import TarotView
from gameproto.maitretarot import wire

PLACES = 4

PublicState = tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""The tarot engine's public state: phase, bids, current trick, previous trick."""


class Signal(enum.Enum):
    """Where the seat's connection machine moves on, between the messages."""

    ASK_BID = "askBid"
    "ASK_BID_QUESTION 1 was sent: GET_BID is awaited."
    ASK_DISCARD = "askDiscard"
    "The taker's GET_CHIEN is awaited."
    ASK_CARD = "askCard"
    "SEND_TURN_CARDS_QUESTION 1 was sent: GET_TURN_CARD is awaited."
    ASK_REPLAY = "askReplay"
    "The deal is over: ACK_REPLAY is awaited."
    ACCEPTED = "accepted"
    "The seat's discard or card was accepted (its ACK 1 was sent)."
    ENDED = "ended"
    "SEND_REPLAY_ANSWER 0 was sent: the table is over."


Output = Union[wire.Message, Signal]


def padded(cards: Sequence[int], size: int) -> tuple[int, ...]:
    """``cards`` cut or padded with NO_CARD to ``size``."""
    return tuple(cards)[:size] + (wire.NO_CARD,) * (size - len(cards))


def wholePoints(halfPoints: int, won: bool) -> int:
    """
    The taker's card points, a whole number, from the rules' half points: a
    half point goes to the side that made the deal (up when the taker won,
    down when it lost).  This is the FFT's rule where a half point arises
    (Règlement officiel, "Le jeu à 3 joueurs": the count is made to the
    half point, then "l'arrondi se fait ... en privilégiant toujours le camp
    qui va marquer des points"; 40.5 where 41 were needed loses by 1, 41.5
    wins by 1), as L{gameproto.games.tarot.contractResult} counts the
    difference with the threshold.
    """
    return (halfPoints + 1) // 2 if won else halfPoints // 2


def score(data: Mapping[str, JSON] | None) -> list[Output]:
    """SEND_SCORE and SHOW_CHIEN_AT_END of a deal's score (None: a deal not scored)."""
    data = data or {}

    def number(key: str) -> int:
        value = data.get(key)
        return int(value) if value is not None else 0  # type: ignore[arg-type]

    totals = tuple(data.get("totals") or (0,) * PLACES)  # type: ignore[arg-type]
    chien = tuple(data.get("chien") or ())  # type: ignore[arg-type]
    won = bool(data.get("won"))
    return [
        wire.SendScore(
            number("contract") if data.get("taker") is not None else wire.PASS,
            int(won), wholePoints(number("points"), won), number("oudlers"), totals),
        wire.ShowChienAtEnd(padded(chien, 6)),
    ]


def canJoin(view: TarotView) -> bool:
    """
    Whether the seat of ``view`` can be given its first update now: at the
    start of a deal (nobody has bid) or at its end (its replay answer
    awaited), the two points where the document's sequence starts with the
    seat's hand.
    """
    if view.phase == "bidding":
        return all(b == wire.NO_BID for b in view.bids)
    return view.phase == "end" and view.replayAnswers[view.seat] is None


def joining(nicks: Sequence[str], view: TarotView) -> list[Output]:
    """
    A seat's first update at its table (the table just started, or the seat
    was taken back): the nicks, ``BRANCHEMENT_POINT(NEW_GAME, 0)``, DILL_CARDS
    (what the seat holds, -1 for the cards already played), and at the end
    of a deal its score.  Only where L{canJoin}.
    """
    if not canJoin(view):
        raise ValueError(f"a seat cannot join the sequence in phase {view.phase!r} here")
    names = wire.SendNicks(tuple(wire.nickBytes(n) for n in nicks))
    out: list[Output] = [names.lengths(), names, wire.BranchPoint(wire.BP_NEW_GAME, 0),
                         wire.DillCards(padded(tuple(view.hand), 18))]
    if view.phase == "end":
        out += score(view.lastScore)  # type: ignore[arg-type]
    return out


def following(events: Iterable[Event], seat: Seat) -> list[Output]:
    """What ``seat`` is told of the events of one step after it joined."""
    out: list[Output] = []
    lastTrick: tuple[int, ...] = (wire.NO_CARD,) * PLACES
    for event in events:
        data = event.data
        match event.kind:
            case "dealt":
                if isinstance(data, dict) and int(data.get("deal", 1) or 1) > 1:  # type: ignore[arg-type]
                    out.append(wire.SendReplayAnswer(1))
                out.append(wire.BranchPoint(wire.BP_NEW_GAME, 0))
            case "deal":
                out.append(wire.DillCards(tuple(data)))  # type: ignore[arg-type]
            case "bids":
                out.append(wire.SendFinalBids(tuple(data)))  # type: ignore[arg-type]
            case "chien":
                out.append(wire.ShowChien(tuple(data)))  # type: ignore[arg-type]
            case "discard" if event.seat == seat:
                out += [wire.SendAckForChien(1), Signal.ACCEPTED]
            case "card" if event.seat == seat:
                out += [wire.SendAckForCard(1), Signal.ACCEPTED]
            case "trick":
                lastTrick = tuple(data["cards"])  # type: ignore[index, call-overload]
            case "score":
                if isinstance(data, dict) and data.get("reason") == "played":
                    out.append(wire.SendLastTurnCards(lastTrick))
                out += score(data)  # type: ignore[arg-type]
            case "end":
                out += [wire.SendReplayAnswer(0), Signal.ENDED]
    return out


# The four seats of a table are told the same public state after each step:
# its messages (frozen) are made once and shared, not once per seat.


@functools.lru_cache(maxsize=1024)
def _sendBids(bids: tuple[int, ...]) -> wire.SendBids:
    return wire.SendBids(bids)


@functools.lru_cache(maxsize=1024)
def _sendTurnCards(trick: tuple[int, ...], previous: tuple[int, ...]) -> wire.SendTurnCards:
    return wire.SendTurnCards(trick, previous)


_ASK_BID = {ask: wire.AskBidQuestion(ask) for ask in (0, 1)}
_ASK_CARD = {ask: wire.SendTurnCardsQuestion(ask) for ask in (0, 1)}


def asking(public: PublicState, asked: bool) -> list[Output]:
    """Every seat hears who must act now; the seat asked is told to answer."""
    phase, bids, trick, previousTrick = public
    out: list[Output] = []
    ask = int(asked)
    if phase == "bidding":
        out += [_sendBids(bids) if type(bids) is tuple else wire.SendBids(bids),
                _ASK_BID[ask] if ask in _ASK_BID else wire.AskBidQuestion(ask)]
        if asked:
            out.append(Signal.ASK_BID)
    elif phase == "discard" and asked:
        out.append(Signal.ASK_DISCARD)
    elif phase == "play":
        out += [_sendTurnCards(trick, previousTrick)
                if type(trick) is tuple and type(previousTrick) is tuple
                else wire.SendTurnCards(trick, previousTrick),
                _ASK_CARD[ask] if ask in _ASK_CARD else wire.SendTurnCardsQuestion(ask)]
        if asked:
            out.append(Signal.ASK_CARD)
    elif phase == "end" and asked:
        out.append(Signal.ASK_REPLAY)
    return out


def firstUpdate(nicks: Sequence[str], view: TarotView, public: PublicState, asked: bool,
                gameOver: bool) -> list[Output]:
    """L{joining}, then L{asking} unless the game is over."""
    return joining(nicks, view) + ([] if gameOver else asking(public, asked))


def nextUpdate(events: Iterable[Event], seat: Seat, public: PublicState, asked: bool,
               gameOver: bool) -> list[Output]:
    """L{following}, then L{asking} unless the game is over."""
    return following(events, seat) + ([] if gameOver else asking(public, asked))
