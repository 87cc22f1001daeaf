"""French Tarot for four players: the rules, a bot, and the game engine.

The rules are the French Tarot Federation's (FFT, "Règlement officiel du
Tarot") for four players, written from the rule text.  Where the rules have
variants or the engine had to choose, the choice is marked ``RULE:`` below.

Pure and deterministic: no I/O, no clock, no global random state.  The only
randomness is the session's ``seed`` (in ``initvalues``); deal ``n`` is
shuffled by ``random.Random(f"{seed}:{n}")``.

Cards are the MaîtreTarot protocol's ints 0..77: 0–13 clubs (1..10, jack,
knight, queen, king), 14–27 spades, 28–41 hearts, 42–55 diamonds, 56–76 the
trumps 1..21 (56 the petit, 76 the 21), 77 the excuse.  Card points are
counted in half-points so that everything stays an integer: the deck is
worth 91 points, 182 half-points.

RULE: no poignée, chelem or misère is played: MaîtreTarot's protocol 0.1 has
no message to announce them (its READY_TO_PLAY step carries nothing), so
the scores have no such primes.
"""

from __future__ import annotations

import random
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Bot,
    Display,
    checkSeeded,
    Errors,
    Event,
    GameState,
    Instructions,
    Parameter,
    Pick,
    RequestedAction,
    Seat,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkAction,
)

# -- cards -------------------------------------------------------------------

PLAYERS = 4
HAND_SIZE = 18
CHIEN_SIZE = 6
TRICKS = 18
DECK = tuple(range(78))

CLUBS, SPADES, HEARTS, DIAMONDS, TRUMPS, EXCUSE_SUIT = range(6)
SUITS = (CLUBS, SPADES, HEARTS, DIAMONDS)
PETIT = 56
MONDE = 76
"""The 21 of trumps."""
EXCUSE = 77
OUDLERS = frozenset({PETIT, MONDE, EXCUSE})

PASS, PETITE, GARDE, GARDE_SANS, GARDE_CONTRE = range(5)
BID_NAMES = ("pass", "petite", "garde", "garde sans", "garde contre")
MULTIPLIERS = {PETITE: 1, GARDE: 2, GARDE_SANS: 4, GARDE_CONTRE: 6}
THRESHOLDS = (56, 51, 41, 36)
"""Points the taker needs, by the number of oudlers in its cards."""
TOTAL_HALF_POINTS = 182
BASE = 25
PETIT_AU_BOUT = 10

_SUIT_SIGNS = ("\u2663", "\u2660", "\u2665", "\u2666")
_FACES = {10: "V", 11: "C", 12: "D", 13: "R"}
_ENGLISH_FACES = {10: "J", 11: "Kn", 12: "Q", 13: "K"}
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds", "trumps", "the excuse")


def suitOf(card: int) -> int:
    """CLUBS..DIAMONDS, TRUMPS, or EXCUSE_SUIT."""
    if card == EXCUSE:
        return EXCUSE_SUIT
    if card >= PETIT:
        return TRUMPS
    return card // 14


def rankOf(card: int) -> int:
    """1..14 in a suit (14 the king), 1..21 for trumps, 0 for the excuse."""
    if card == EXCUSE:
        return 0
    if card >= PETIT:
        return card - PETIT + 1
    return card % 14 + 1


def isTrump(card: int) -> bool:
    """A trump 1..21 (the excuse is not a trump for following and winning)."""
    return PETIT <= card <= MONDE


def isKing(card: int) -> bool:
    return card < PETIT and card % 14 == 13


def cardPoints(card: int) -> int:
    """The card's value in half-points: oudlers and kings 9, queens 7, knights 5, jacks 3, else 1."""
    if card in OUDLERS:
        return 9
    if card >= PETIT:
        return 1
    return (1, 3, 5, 7, 9)[max(0, card % 14 - 9)]


def cardLabel(card: int) -> str:
    """A short label, with French face letters: ``7♣``, ``R♥`` (king), ``T21``, ``Exc``."""
    if card == EXCUSE:
        return "Exc"
    if card >= PETIT:
        return f"T{rankOf(card)}"
    rank = card % 14
    return _FACES.get(rank, str(rank + 1)) + _SUIT_SIGNS[card // 14]


def cardFace(card: int) -> str:
    """
    A short label for a person, with English face letters: ``7♣``, ``J♠``
    (jack), ``Kn♥`` (knight), ``Q♦`` (queen), ``K♥`` (king), ``T21`` (trump
    21), ``Exc`` (the excuse).
    """
    if card == EXCUSE or card >= PETIT:
        return cardLabel(card)
    rank = card % 14
    return _ENGLISH_FACES.get(rank, str(rank + 1)) + _SUIT_SIGNS[card // 14]


def countPoints(cards: Iterable[int]) -> int:
    """The half-points of ``cards``."""
    return sum(cardPoints(c) for c in cards)


def countOudlers(cards: Iterable[int]) -> int:
    return sum(1 for c in cards if c in OUDLERS)


class _CardTable(dict):  # type: ignore[type-arg]
    """
    A card function's values for the 78 cards, read as ``table[card]``;
    any other int is computed by the function itself, so that a table is
    exactly its function, on any input.
    """

    def __init__(self, function: Any) -> None:
        super().__init__((card, function(card)) for card in DECK)
        self.function = function

    def __missing__(self, card: int) -> Any:
        return self.function(card)


# The card functions above are the definitions; the hot paths (the engine's
# steps, the bot) read these tables of them (a test checks they agree).
_SUIT = _CardTable(suitOf)
_RANK = _CardTable(rankOf)
_POINTS = _CardTable(cardPoints)
_FACE = _CardTable(cardFace)


# -- bids and the discard ----------------------------------------------------


def legalBids(bids: Sequence[int]) -> tuple[int, ...]:
    """Pass, or any bid strictly higher than the highest so far (``-1`` = not spoken)."""
    highest = max(bids, default=PASS)
    return (PASS,) + tuple(range(max(highest, PASS) + 1, GARDE_CONTRE + 1))


def discardable(hand: Iterable[int]) -> tuple[list[int], list[int]]:
    """
    The cards a taker may put in the discard: the ordinary ones (no trump,
    no king, no oudler) and the trumps it may add when it has fewer than six
    ordinary ones (trumps 2..20: never an oudler).
    """
    ordinary = [c for c in hand if c < PETIT and not isKing(c)]
    trumps = [c for c in hand if isTrump(c) and c not in OUDLERS]
    return sorted(ordinary), sorted(trumps)


def isLegalDiscard(hand: Iterable[int], discard: Sequence[int]) -> bool:
    """
    The FFT discard rule: six cards of the hand (chien taken in), no king, no
    oudler, and trumps only when the taker cannot do otherwise, then only as
    few as needed (six minus the ordinary cards it holds).
    """
    held = set(hand)
    chosen = set(discard)
    if len(discard) != CHIEN_SIZE or len(chosen) != CHIEN_SIZE or not chosen <= held:
        return False
    ordinary, trumps = discardable(held)
    if any(c in OUDLERS or isKing(c) for c in chosen):
        return False
    needed = max(0, CHIEN_SIZE - len(ordinary))
    return sum(1 for c in chosen if isTrump(c)) == needed


# -- tricks ------------------------------------------------------------------


def ledSuit(played: Sequence[int]) -> int | None:
    """The suit to follow: the first card that is not the excuse (a led excuse lets the next card set it)."""
    for card in played:
        if card != EXCUSE:
            return suitOf(card)
    return None


def legalCards(hand: Iterable[int], played: Sequence[int]) -> tuple[int, ...]:
    """
    The cards of ``hand`` that may go on the trick ``played`` (in the order
    played).  Follow the suit led; if void, trump; when trumping or when
    trumps are led, over-trump the highest trump of the trick if able, else
    under-trump; with neither the suit nor a trump, any card.  The excuse may
    always be played.
    """
    cards = sorted(hand)
    suit = ledSuit(played)
    if suit is None:
        return tuple(cards)
    excuse = [EXCUSE] if EXCUSE in cards else []
    if suit != TRUMPS:
        following = [c for c in cards if suitOf(c) == suit]
        if following:
            return tuple(following + excuse)
    trumps = [c for c in cards if isTrump(c)]
    if not trumps:
        return tuple(cards)
    highest = max((c for c in played if isTrump(c)), default=-1)
    over = [c for c in trumps if c > highest]
    return tuple((over or trumps) + excuse)


def _legal(cards: Sequence[int], played: Sequence[int]) -> tuple[int, ...]:
    """
    L{legalCards} for a hand already sorted, of cards 0..77 (the engine's
    own), by slices of the sorted hand: a suit, the trumps and the trumps
    above a given one are each one run of it (L{_legalRun}).
    """
    start, stop, excuse = _legalRun(cards, played)
    if excuse:
        return tuple(cards[start:stop]) + (EXCUSE,)
    return tuple(cards[start:stop])


def _legalRun(cards: Sequence[int], played: Sequence[int]) -> tuple[int, int, bool]:
    """
    The legal cards of the sorted hand ``cards`` on the trick ``played``,
    as ``(start, stop, excuse)``: ``cards[start:stop]``, then the excuse
    (the hand's last card) when ``excuse``.
    """
    suit = None
    for card in played:
        if card != EXCUSE:
            suit = _SUIT[card]
            break
    count = len(cards)
    if suit is None:
        return 0, count, False
    excuse = count > 0 and cards[-1] == EXCUSE
    if suit != TRUMPS:
        low = bisect_left(cards, 14 * suit)
        high = bisect_left(cards, 14 * suit + 14, low)
        if low < high:
            return low, high, excuse
    low = bisect_left(cards, PETIT)
    high = bisect_left(cards, EXCUSE, low)
    if low == high:
        return 0, count, False
    highest = -1  # the highest trump played
    for card in played:
        if PETIT <= card <= MONDE and card > highest:
            highest = card
    above = bisect_right(cards, highest, low, high)
    return (above if above < high else low), high, excuse


def trickWinner(played: Sequence[int]) -> int:
    """
    The index (in play order) of the card that wins the trick: the highest
    trump, else the highest card of the suit led.  The excuse never wins
    (RULE: the FFT's exception, the excuse led to the last trick of a chelem,
    cannot happen as no chelem is played).
    """
    suit = ledSuit(played)
    best = -1
    for index, card in enumerate(played):
        if card == EXCUSE:
            continue
        if best < 0:
            best = index
            continue
        top = played[best]
        if PETIT <= card <= MONDE:  # isTrump, inline: once a trick
            if not PETIT <= top <= MONDE or card > top:
                best = index
        elif not PETIT <= top <= MONDE and suitOf(card) == suit and card > top:
            best = index
    return best


# -- why an action is refused, in words ---------------------------------------


def whyNotCard(hand: Iterable[int], played: Sequence[int], card: int) -> str:
    """Why ``card`` may not go on the trick ``played``, for a person."""
    cards = set(hand)
    if card not in cards:
        return f"You do not hold the {cardFace(card)}."
    suit = ledSuit(played)
    if suit is not None and suit != TRUMPS and any(suitOf(c) == suit for c in cards):
        return f"That card is not allowed: you must follow {SUIT_NAMES[suit]}."
    highest = max((c for c in played if isTrump(c)), default=-1)
    if isTrump(card) and any(isTrump(c) and c > highest for c in cards):
        return (f"That trump is not allowed: you must play a trump higher than the "
                f"{rankOf(highest)}.")
    if suit == TRUMPS:
        return "That card is not allowed: trumps were led, you must play a trump."
    return (f"That card is not allowed: you have no {SUIT_NAMES[suit or 0]}, "
            "you must play a trump.")


def whyNotBid(bids: Sequence[int], bid: int) -> str:
    """Why ``bid`` may not be made after ``bids``, for a person."""
    highest = max(bids, default=PASS)
    return f"You must bid higher than {BID_NAMES[highest]}, or pass."


def whyNotDiscard(hand: Iterable[int], discard: Sequence[int]) -> str:
    """Why ``discard`` is not a legal discard from ``hand``, for a person."""
    held = set(hand)
    chosen = set(discard)
    if len(chosen) != CHIEN_SIZE:
        return f"Discard exactly {CHIEN_SIZE} different cards."
    if not chosen <= held:
        return "You can only discard cards you hold."
    if any(c in OUDLERS or isKing(c) for c in chosen):
        return "Kings and oudlers (the 1 and 21 of trumps, the excuse) may not be discarded."
    ordinary, trumps = discardable(held)
    needed = max(0, CHIEN_SIZE - len(ordinary))
    if needed == 0:
        return "Trumps may only be discarded when you have too few other cards."
    return (f"You have only {len(ordinary)} cards other than trumps, kings and oudlers: "
            f"discard them all and {needed} trump{'s' if needed > 1 else ''}.")


# -- scoring -----------------------------------------------------------------


def contractResult(contract: int, points: int, oudlers: int) -> tuple[bool, int]:
    """
    Whether the taker made ``contract`` with ``points`` half-points and
    ``oudlers``, and what the contract is worth (positive):
    ``(25 + difference) x multiplier``.

    RULE (rounding): the difference is counted in whole points and a
    half-point difference counts as a whole point, in both directions (40.5
    points with two oudlers loses by 1; 41.5 wins by 1).  A taker who has
    exactly the threshold wins by 0 (25 x multiplier).
    """
    difference = points - 2 * THRESHOLDS[oudlers]
    won = difference >= 0
    whole = (abs(difference) + 1) // 2
    return won, (BASE + whole) * MULTIPLIERS[contract]


def dealScores(
    contract: int, taker: Seat, points: int, oudlers: int, petitAuBout: bool | None
) -> tuple[bool, tuple[int, ...]]:
    """
    The four seats' scores for a played deal.  ``petitAuBout`` is True when
    the taker won the last trick with the petit in it, False when the
    defence did, None otherwise; its prime (10 x multiplier) goes to that
    side whatever the contract's result.  The taker scores three times the
    deal's value and each defender the opposite once: the four sum to zero.
    """
    won, value = contractResult(contract, points, oudlers)
    takerValue = value if won else -value
    if petitAuBout is not None:
        prime = PETIT_AU_BOUT * MULTIPLIERS[contract]
        takerValue += prime if petitAuBout else -prime
    scores = [-takerValue] * PLAYERS
    scores[taker] = 3 * takerValue
    return won, tuple(scores)


def dealCards(seed: int, deal: int, dealer: Seat) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """
    Deal ``deal`` of session ``seed``: four sorted hands of 18, by seat, and
    the chien of 6.  The deck is shuffled by ``random.Random(f"{seed}:{deal}")``
    and dealt three cards at a time from the seat after the dealer; the last
    six cards are the chien.
    """
    deck = list(DECK)
    random.Random(f"{seed}:{deal}").shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    for packet in range(HAND_SIZE * PLAYERS // 3):
        hands[(dealer + 1 + packet) % PLAYERS].extend(deck[3 * packet: 3 * packet + 3])
    chien = tuple(sorted(deck[HAND_SIZE * PLAYERS:]))
    return tuple(tuple(sorted(h)) for h in hands), chien


def hasPetitSec(hand: Iterable[int]) -> bool:
    """The petit is the hand's only trump, and it has no excuse."""
    cards = set(hand)
    return PETIT in cards and EXCUSE not in cards and not any(isTrump(c) for c in cards - {PETIT})


# -- the view ----------------------------------------------------------------

NOBODY = -1


@attrs.frozen(slots=False)
class TarotView:
    """
    What one seat may know: never another seat's hand, nor the chien or the
    discard when the rules hide them from this seat.

    - ``hand``: this seat's cards, sorted (the taker's 24 cards, chien taken
      in, during the discard).
    - ``bids``: by seat, ``-1`` for a seat that has not spoken.
    - ``contract``: None while bidding, 0 for a deal not played (all passed,
      petit sec), else the taker's bid.
    - ``chien``: the chien as dealt, once it is shown (petite, garde, all
      pass), or to everyone at the end of the deal (the score shows it).
    - ``discard``: the taker's discard, to the taker once made, and to
      everyone at the end of the deal.
    - ``shownTrumps``: the trumps the taker had to put in the discard (the
      FFT rule has them shown to everyone).
    - ``trick`` and ``previousTrick``: by seat, ``-1`` for no card.
    - ``toPlay``: the seat whose action is awaited (bidder, taker to discard,
      player), None in the ``end`` and ``over`` phases.
    - ``legalCards``: only for the seat to play.
    - ``lastScore``: the last ``score`` event's data, or None.

    Not slotted: attrs writes a frozen class's fields into its instance
    dict directly, twice as fast as through slots, and the engine makes a
    view on every step.
    """

    seat: Seat
    phase: str
    dealer: Seat
    deal: int
    hand: tuple[int, ...]
    bids: tuple[int, ...]
    taker: Seat | None
    contract: int | None
    chien: tuple[int, ...] | None
    discard: tuple[int, ...] | None
    shownTrumps: tuple[int, ...]
    trick: tuple[int, ...]
    leader: Seat | None
    previousTrick: tuple[int, ...]
    toPlay: Seat | None
    legalCards: tuple[int, ...]
    tricksPlayed: int
    totals: tuple[int, ...]
    lastScore: dict[str, JSON] | None
    replayAnswers: tuple[bool | None, ...]

    def cardsPlayed(self) -> int:
        """Cards played in this deal so far (the MaîtreTarot branch point value)."""
        return 4 * self.tricksPlayed + sum(1 for c in self.trick if c != NOBODY)


# -- the engine --------------------------------------------------------------

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("players", "int", "number of players (always 4)", 4, 4, 4),
    Parameter("dealer", "int", "the first dealer's seat, 0..3", 0, 0, 3),
)

BIDDING, DISCARD, PLAY, END, OVER = "bidding", "discard", "play", "end", "over"
_ENDED = frozenset({END, OVER})
_ASKING = frozenset({BIDDING, DISCARD, PLAY})
"""The phases in which one seat's action is awaited."""
_CHIEN_SHOWN = frozenset({PETITE, GARDE, PASS})
"""The contracts under which the chien is shown (PASS: a deal not played)."""
_KINDS = {BIDDING: "bid", DISCARD: "discard", PLAY: "card", END: "replay"}
_DOING = {BIDDING: "Not now: it is time to bid.", DISCARD: "Not now: the taker discards.",
          PLAY: "Not now: it is time to play a card.",
          END: "Not now: the deal is over, answer whether to play another."}

WIDTH, HEIGHT = 600, 936
"""
Upright, so that a phone held upright shows the cards large enough to read
and tap: on a 390 px wide phone a unit is about 0.59 px, so a hand card or a
button (at least 78 units each way) is more than 44 px each way.
"""
CARD_W, CARD_H = 80, 84
"""A card of the hand, in display units (rows of at most 7 cards)."""
SMALL_W, SMALL_H = 48, 68
"""A card on the table: the trick, the last trick, the chien or the discard."""
HAND_Y = 572
HAND_ROW = 90
"""Each row of the hand is this far below the one above."""
HAND_PER_ROW = 7
BUTTON_Y, BUTTON_W, BUTTON_H = 478, 108, 80
BUTTON_GAP = 8
SHEET_Y = 594
"""The top of the score sheet, under the buttons (the hand is gone once a deal ends)."""
SHEET_ROW = 22
SHEET_ROWS = 15
"""Rows of deals in one column of the sheet before a second column starts beside it."""
DISCARD_REGEX = r"^\s*\d{1,2}(\s*[,; ]\s*\d{1,2}){5}\s*$"
_REPLAY_LABELS = ("play again", "stop")
KEY = "J jack · Kn knight · Q queen · K king · T trump · Exc excuse"
"""What the card labels mean, shown on the display."""
_INK, _DIM, _GOLD = "#ffffff", "#bbf7d0", "#facc15"


def handPlaces(count: int) -> list[tuple[float, float]]:
    """Where each of ``count`` cards of a hand is drawn (its top left), in order: rows centred."""
    rows = max(1, -(-count // HAND_PER_ROW))
    per = -(-count // rows) if count else 1
    step = CARD_W + 2
    left = (WIDTH - per * step + 2) // 2
    return [(left + (i % per) * step, HAND_Y + (i // per) * HAND_ROW) for i in range(count)]


def _buttonZones(count: int) -> tuple[Zone, ...]:
    return tuple(Zone(16 + i * (BUTTON_W + BUTTON_GAP), BUTTON_Y, BUTTON_W, BUTTON_H)
                 for i in range(count))


# What the engine's steps would otherwise build again on every action, made
# once: zones and contract objects are frozen, so sharing them changes
# nothing a reader can see.
_HAND_ZONES: tuple[tuple[Zone, ...], ...] = tuple(
    tuple(Zone(x, y, CARD_W, CARD_H) for x, y in handPlaces(count))
    for count in range(HAND_SIZE + CHIEN_SIZE + 1))
"""The zones of each card of a hand of 0..24 cards, in order."""
_BID_ZONES = _buttonZones(GARDE_CONTRE + 1)
_LEFT = ("LEFT",)
_BID_REQUESTS: dict[tuple[Seat, int], RequestedAction] = {}
"""A bidder's request, by seat and the highest bid so far (filled as met)."""
_CARD_REQUESTS: dict[tuple[Seat, int, int, int, bool], tuple[RequestedAction]] = {}
"""
A card player's request (its lit cards a run of its sorted hand, maybe
then the excuse): by seat, hand size, the run's start and stop, and whether
the excuse follows (filled as met: at most 4 x 25 x 25 x 25 x 2).
"""
_Playable = tuple[tuple[int, ...], tuple[int, ...], int, int, bool]
"""A seat's sorted hand, its legal cards, and L{_legalRun}'s start, stop and excuse."""
_REPLAY_REQUESTS = tuple(
    RequestedAction(seat, "CLICK", zones=_buttonZones(2), buttons=_LEFT,
                    prompt="play another deal, or stop")
    for seat in range(PLAYERS))
_CARD_EVENTS = tuple(tuple(Event("card", card, seat) for card in DECK) for seat in range(PLAYERS))
_CARD_WORDS = tuple(tuple(f"player {seat + 1} played {cardFace(card)}" for card in DECK)
                    for seat in range(PLAYERS))
_WON_WORDS = tuple(f"player {seat + 1} won the trick" for seat in range(PLAYERS))
_BID_EVENTS = tuple(tuple(Event("bid", bid, seat) for bid in range(GARDE_CONTRE + 1))
                    for seat in range(PLAYERS))
_REPLAY_EVENTS = tuple({answer: Event("replay", answer, seat) for answer in (True, False)}
                       for seat in range(PLAYERS))


# The contract's instructions and game state of a step in a deal, made
# without their attrs __init__: a new object, its slots written through
# their descriptors, for half the instructions (the contract's classes
# have no validator, converter or hook: a test checks it, and that the
# objects are those __init__ makes).
_newObject = object.__new__
_setRequested = Instructions.__dict__["requested_actions"].__set__
_setGameState = Instructions.__dict__["game_state"].__set__
_setEvents = Instructions.__dict__["events"].__set__
_setInitvalues = Instructions.__dict__["initvalues"].__set__
_setScores = GameState.__dict__["scores"].__set__
_setGameover = GameState.__dict__["gameover"].__set__
_setText = GameState.__dict__["text"].__set__
_setKind = Event.__dict__["kind"].__set__
_setData = Event.__dict__["data"].__set__
_setSeat = Event.__dict__["seat"].__set__
_setAudience = Event.__dict__["audience"].__set__


def _event(kind: str, data: JSON, seat: Seat | None = None,
           audience: frozenset[Seat] | None = None) -> Event:
    """``Event(kind, data, seat, audience)``."""
    event = _newObject(Event)
    _setKind(event, kind)
    _setData(event, data)
    _setSeat(event, seat)
    _setAudience(event, audience)
    return event


def _instructions(requested: tuple[RequestedAction, ...], scores: tuple[int, ...],
                  text: str | None, events: tuple[Event, ...]) -> Instructions:
    """
    ``Instructions(requested, GameState(scores, False, text=text), events)``,
    a step's in a deal.
    """
    state = _newObject(GameState)
    _setScores(state, scores)
    _setGameover(state, False)
    _setText(state, text)
    instructions = _newObject(Instructions)
    _setRequested(instructions, requested)
    _setGameState(instructions, state)
    _setEvents(instructions, events)
    _setInitvalues(instructions, None)
    return instructions


class TarotGame:
    """
    A table session of French Tarot under the engine contract: deals follow
    each other while all four seats answer ``{"replay": true}``.

    Actions: ``{"bid": n}``, ``{"discard": [six cards]}``, ``{"card": c}``,
    ``{"replay": bool}``, one kind per phase.  ``instructions()`` repeats
    the events of the last step (at start: the first deal), so that a table
    starting the game delivers the first hands.
    """

    players = PLAYERS

    def __init__(self, params: Mapping[str, JSON], seed: int) -> None:
        self.params: Mapping[str, JSON] = dict(params)
        self.initvalues: Mapping[str, JSON] = {"seed": seed}
        self.seed = seed
        self.firstDealer = int(params["dealer"])
        self.totals = [0] * PLAYERS
        self.lastScore: dict[str, JSON] | None = None
        self.history: list[dict[str, JSON]] = []
        """Every deal's score data, in order."""
        self.dealNumber = 0
        self.phase = BIDDING
        self._events: list[Event] = []
        self._words: list[str] = []
        """What happened in the step being played, in words (the game state's text)."""
        self.ending: str | None = None
        """Why the session is over, in words (once it is)."""
        self._stamp = 0
        """Counts the steps: what is cached below holds for one step only."""
        self._hands: list[tuple[set[int], int, tuple[int, ...]] | None] = [None] * PLAYERS
        """
        By seat: (its hand set, the set's size, the hand sorted).  The
        engine's own changes to a hand keep it (a card played takes the card
        out of it) or drop it (the chien taken in, the discard); a hand
        replaced, or changed in size, elsewhere is sorted again.
        """
        self._legalCache: tuple[int, Seat, set[int], int, list[int], int, _Playable] | None = None
        """(step, seat, its hand set, the set's size, the trick's list, its size, what it may play)."""
        self._shown: tuple[tuple[int, ...] | None, tuple[int, ...]] = (None, ())
        self._scoreCopy: tuple[dict[str, JSON] | None, dict[str, JSON]] = (None, {})
        """The last score the views were given, and their copy of it."""
        """(a discard, the trumps in it)."""
        self._newDeal()
        self._lastEvents = tuple(self._events)
        self._events = []
        self._lastWords = "; ".join(self._words)
        self._words = []

    # -- the state machine -------------------------------------------------

    def _newDeal(self) -> None:
        self.dealNumber += 1
        self.dealer = (self.firstDealer + self.dealNumber - 1) % PLAYERS
        hands, chien = dealCards(self.seed, self.dealNumber, self.dealer)
        self.hands: list[set[int]] = [set(h) for h in hands]
        self._hands = [(held, len(dealt), dealt) for held, dealt in zip(self.hands, hands)]
        self.dealt = hands
        self.chien = chien
        self.discard: tuple[int, ...] | None = None
        self.bids = [NOBODY] * PLAYERS
        self.taker: Seat | None = None
        self.contract: int | None = None
        self.turn: Seat | None = (self.dealer + 1) % PLAYERS
        self.leader: Seat | None = None
        self.trick = [NOBODY] * PLAYERS
        self.previousTrick = [NOBODY] * PLAYERS
        self.lastTrickWinner: Seat | None = None
        self.played: list[int] = []
        self.won: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.excuseTransfer = 0
        """Half-points the taker's side gets (+1) or gives (-1) for the excuse exchange."""
        self.tricksPlayed = 0
        self.petitAuBout: bool | None = None
        self.replayAnswers: list[bool | None] = [None] * PLAYERS
        self.phase = BIDDING
        events = self._events
        events.append(_event("dealt", {"dealer": self.dealer, "deal": self.dealNumber}))
        self._words.append(f"deal {self.dealNumber}: player {self.dealer + 1} deals")
        for seat in range(PLAYERS):
            events.append(_event("deal", list(hands[seat]), seat, _AUDIENCES[seat]))
        for seat in range(PLAYERS):
            # hasPetitSec: in a sorted hand, the petit last (no other trump, no excuse)
            if hands[seat][-1] == PETIT:
                # RULE: a petit sec voids the deal at once, detected by the
                # engine (the protocol cannot announce it); the next dealer
                # deals, after the replay question.  Its holder's hand is not
                # shown (the FFT has it laid down; no protocol carries it).
                self._emit(Event("petit-sec", {"seat": seat}))
                self._words.append(f"player {seat + 1} has the petit sec: the deal is void")
                self._endUnplayed("petit-sec")

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _endUnplayed(self, reason: str) -> None:
        self.contract = PASS
        self.turn = None
        self._finishDeal({
            "contract": PASS, "taker": None, "won": None, "points": None,
            "oudlers": None, "scores": [0] * PLAYERS, "petitAuBout": None,
            "chien": list(self.chien), "reason": reason,
        })

    def _finishDeal(self, data: dict[str, JSON]) -> None:
        for seat, score in enumerate(data["scores"]):
            self.totals[seat] += score
        data["totals"] = list(self.totals)
        self.lastScore = data
        self.history.append(data)
        if data.get("reason") == "played":
            self._words.append(f"player {data['taker'] + 1} "
                               f"{'made' if data['won'] else 'lost'} the "
                               f"{BID_NAMES[data['contract']]}")
        self.phase = END
        self.turn = None
        self._emit(Event("score", _copyScore(data)))

    def _bid(self, seat: Seat, bid: int) -> None:
        self.bids[seat] = bid
        self._emit(_BID_EVENTS[seat][bid])
        self._words.append(f"player {seat + 1} "
                           + ("passes" if bid == PASS else f"bids {BID_NAMES[bid]}"))
        if NOBODY in self.bids:
            self.turn = (seat + 1) % PLAYERS
            return
        self._emit(Event("bids", list(self.bids)))
        best = max(self.bids)
        if best == PASS:
            self._words.append("everybody passed: the deal is not played")
            self.bids = [PASS] * PLAYERS
            self._emit(Event("chien", list(self.chien)))
            self._endUnplayed("all-pass")
            return
        self.taker = self.bids.index(best)
        self.contract = best
        if best in (PETITE, GARDE):
            self._emit(Event("chien", list(self.chien)))
            self.hands[self.taker] |= set(self.chien)
            self._hands[self.taker] = None
            self.phase = DISCARD
            self.turn = self.taker
        else:
            self._startPlay()

    def _startPlay(self) -> None:
        self.phase = PLAY
        self.leader = self.turn = (self.dealer + 1) % PLAYERS

    def _discard(self, seat: Seat, cards: Sequence[int]) -> None:
        self.discard = tuple(sorted(cards))
        self.hands[seat] -= set(cards)
        self._hands[seat] = None
        self._emit(Event("discard", list(self.discard), seat, frozenset({seat})))
        trumps = [c for c in self.discard if isTrump(c)]
        self._words.append(f"player {seat + 1} discarded six cards"
                           + (f", showing {' '.join(cardFace(c) for c in trumps)}" if trumps else ""))
        if trumps:
            self._emit(Event("shown-trumps", trumps, seat))
        self._startPlay()

    def _take(self, seat: Seat, card: int) -> None:
        """``card`` out of ``seat``'s hand, and out of its sorted hand if kept."""
        hand = self.hands[seat]
        cached = self._hands[seat]
        if cached is not None and cached[0] is hand and cached[1] == len(hand) and card in hand:
            cards = cached[2]
            at = bisect_left(cards, card)
            self._hands[seat] = (hand, cached[1] - 1, cards[:at] + cards[at + 1:])
        hand.discard(card)

    def _play(self, seat: Seat, card: int) -> None:
        self._take(seat, card)
        self.trick[seat] = card
        self.played.append(card)
        self._events.append(_CARD_EVENTS[seat][card])  # _emit
        self._words.append(_CARD_WORDS[seat][card])
        if len(self.played) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return
        leader = self.leader
        assert leader is not None
        order = _ORDERS[leader % PLAYERS]
        winner = order[trickWinner(self.played)]
        last = self.tricksPlayed == TRICKS - 1
        cards = list(self.played)
        if EXCUSE in cards and not last:
            # The excuse stays with its owner's side, which owes the winner
            # a half-point card: in half-points, one goes across.
            owner = order[cards.index(EXCUSE)]
            cards.remove(EXCUSE)
            self.won[owner].append(EXCUSE)
            if self._takerSide(owner) != self._takerSide(winner):
                self.excuseTransfer += 1 if self._takerSide(winner) else -1
        # RULE: the excuse played in the last trick goes to the side that
        # wins that trick (FFT; the chelem exception cannot happen here).
        self.won[winner].extend(cards)
        if last and PETIT in cards:
            self.petitAuBout = self._takerSide(winner)
        self._events.append(_event("trick", {"cards": list(self.trick), "winner": winner}))
        self._words.append(_WON_WORDS[winner])
        self.previousTrick = self.trick
        self.lastTrickWinner = winner
        self.trick = [NOBODY] * PLAYERS
        self.played = []
        self.tricksPlayed += 1
        if self.tricksPlayed < TRICKS:
            self.leader = self.turn = winner
            return
        self.leader = None
        self._scoreDeal()

    def _takerSide(self, seat: Seat) -> bool:
        return seat == self.taker

    def takerCards(self) -> list[int]:
        """The cards that count for the taker: its tricks, plus the discard or chien per contract."""
        assert self.taker is not None
        cards = list(self.won[self.taker])
        if self.contract in (PETITE, GARDE) and self.discard is not None:
            cards.extend(self.discard)
        elif self.contract == GARDE_SANS:
            cards.extend(self.chien)
        return cards

    def _scoreDeal(self) -> None:
        assert self.taker is not None and self.contract is not None
        cards = self.takerCards()
        # countPoints and countOudlers, by the table (the engine's cards)
        points = sum(map(_POINTS.__getitem__, cards)) + self.excuseTransfer
        oudlers = (PETIT in cards) + (MONDE in cards) + (EXCUSE in cards)
        won, scores = dealScores(self.contract, self.taker, points, oudlers, self.petitAuBout)
        shown = self.discard if self.discard is not None else self.chien
        self._finishDeal({
            "contract": self.contract, "taker": self.taker, "won": won, "points": points,
            "oudlers": oudlers, "scores": list(scores),
            "petitAuBout": None if self.petitAuBout is None
            else ("taker" if self.petitAuBout else "defence"),
            "chien": list(shown), "reason": "played",
        })

    def _replay(self, seat: Seat, answer: bool) -> None:
        self.replayAnswers[seat] = answer
        self._emit(_REPLAY_EVENTS[seat][answer])
        self._words.append(f"player {seat + 1} "
                           + ("wants another deal" if answer else "stops"))
        if None in self.replayAnswers:
            return
        if all(self.replayAnswers):
            self._newDeal()
        else:
            self._gameOver("replay")

    def _gameOver(self, reason: str, seat: Seat | None = None) -> None:
        self.phase = OVER
        self.turn = None
        stoppers = [s + 1 for s, a in enumerate(self.replayAnswers) if a is False]
        self.ending = (f"player {(seat or 0) + 1} gave up" if reason == "resign" else
                       f"{' and '.join(f'player {n}' for n in stoppers)} stopped after "
                       f"deal {self.dealNumber}" if stoppers else "the game is over")
        self._emit(Event("end", {"totals": list(self.totals), "reason": reason}))

    # -- requests ----------------------------------------------------------

    def waitingFor(self) -> tuple[Seat, ...]:
        """The seats whose action is awaited."""
        if self.phase == END:
            answers = self.replayAnswers
            return tuple([s for s in _SEATS if answers[s] is None])
        if self.phase == OVER or self.turn is None:
            return ()
        return (self.turn,)

    def legalCardsFor(self, seat: Seat) -> tuple[int, ...]:
        """The cards ``seat`` may play now (empty when it is not its turn)."""
        if self.phase != PLAY or seat != self.turn:
            return ()
        return self._playable(seat)[1]

    def _playable(self, seat: Seat) -> _Playable:
        """
        For the seat to play: its hand sorted, its legal cards, and where
        they are in the hand (L{_legalRun}'s start, stop and excuse).
        Asked three times a card (the request's zones, the seat's view, the
        check of its card): computed once a step.
        """
        hand, played = self.hands[seat], self.played
        # the same step, seat, hand and trick (the same objects: held here,
        # so never another's; and sizes: tests change them in place)
        cached = self._legalCache
        if (cached is not None and cached[0] == self._stamp and cached[1] == seat
                and cached[2] is hand and cached[3] == len(hand) and cached[4] is played
                and cached[5] == len(played)):
            return cached[6]
        sortedHand = self._hands[seat]  # as _sortedHand
        if sortedHand is not None and sortedHand[0] is hand and sortedHand[1] == len(hand):
            cards = sortedHand[2]
        else:
            cards = tuple(sorted(hand))
            self._hands[seat] = (hand, len(hand), cards)
        # _legalRun(cards, played), inline
        count = len(cards)
        suit = None
        for card in played:
            if card != EXCUSE:
                suit = _SUIT[card]
                break
        if suit is None:
            playable = (cards, cards, 0, count, False)
        else:
            excuse = count > 0 and cards[-1] == EXCUSE
            start = stop = 0
            if suit != TRUMPS:
                start = bisect_left(cards, 14 * suit)
                stop = bisect_left(cards, 14 * suit + 14, start)
            if start == stop:  # not following: the trumps, else any card
                start = bisect_left(cards, PETIT)
                stop = bisect_left(cards, EXCUSE, start)
                if start == stop:
                    start, stop, excuse = 0, count, False
                else:
                    highest = -1  # the highest trump played
                    for card in played:
                        if PETIT <= card <= MONDE and card > highest:
                            highest = card
                    above = bisect_right(cards, highest, start, stop)
                    if above < stop:
                        start = above
            legal = cards[start:stop] + (EXCUSE,) if excuse else cards[start:stop]
            playable = (cards, legal, start, stop, excuse)
        self._legalCache = (self._stamp, seat, hand, len(hand), played, len(played), playable)
        return playable

    def _sortedHand(self, seat: Seat) -> tuple[int, ...]:
        """``tuple(sorted(self.hands[seat]))``, kept as the hand changes."""
        hand = self.hands[seat]
        cached = self._hands[seat]
        if cached is not None and cached[0] is hand and cached[1] == len(hand):
            return cached[2]
        cards = tuple(sorted(hand))
        self._hands[seat] = (hand, len(hand), cards)
        return cards

    def _handZones(self, seat: Seat, cards: Iterable[int]) -> tuple[Zone, ...]:
        hand = self._sortedHand(seat)
        count = len(hand)
        zones = (_HAND_ZONES[count] if count < len(_HAND_ZONES) else
                 tuple(Zone(x, y, CARD_W, CARD_H) for x, y in handPlaces(count)))
        wanted = set(cards)
        if len(wanted) == count and wanted.issuperset(hand):
            return zones
        return tuple([zone for zone, c in zip(zones, hand) if c in wanted])

    def _discardPick(self, seat: Seat) -> Pick:
        """The cards the taker may click to make its discard: those it may discard."""
        ordinary, trumps = discardable(self.hands[seat])
        allowed = ordinary if len(ordinary) >= CHIEN_SIZE else ordinary + trumps
        chosen = sorted(allowed)
        return Pick(self._handZones(seat, chosen), tuple(str(c) for c in chosen), CHIEN_SIZE)

    def _requestFor(self, seat: Seat) -> tuple[RequestedAction, ...]:
        if seat not in self.waitingFor():
            return ()
        return self._request(seat)

    def _request(self, seat: Seat) -> tuple[RequestedAction, ...]:
        """What ``seat``, awaited, is asked."""
        if self.phase == BIDDING:
            key = (seat, max(max(self.bids, default=PASS), PASS))
            request = _BID_REQUESTS.get(key)
            if request is None:
                chosen = tuple(_BID_ZONES[b] for b in legalBids(self.bids))
                request = _BID_REQUESTS[key] = RequestedAction(
                    seat, "CLICK", zones=chosen, buttons=_LEFT, prompt="click your bid")
            return (request,)
        if self.phase == DISCARD:
            return (
                RequestedAction(seat, "CLICK", zones=_buttonZones(1), buttons=("LEFT",),
                                prompt="use the proposed discard"),
                RequestedAction(seat, "TEXT", regex=DISCARD_REGEX, max_length=40,
                                pick=self._discardPick(seat),
                                prompt="pick the six cards to discard, then confirm"),
            )
        if self.phase == PLAY:
            if seat != self.turn:
                return self._playRequest(seat, self._sortedHand(seat), ())
            return self._cardRequest(seat)
        if 0 <= seat < PLAYERS:
            return (_REPLAY_REQUESTS[seat],)
        return (RequestedAction(seat, "CLICK", zones=_buttonZones(2), buttons=("LEFT",),
                                prompt="play another deal, or stop"),)

    def _cardRequest(self, seat: Seat) -> tuple[RequestedAction, ...]:
        """What the seat to play is asked."""
        # the legal cards: a run of the sorted hand, then maybe the excuse
        # (the highest card: the hand's last)
        cards, legal, start, stop, excuse = self._playable(seat)
        count = len(cards)
        if count < len(_HAND_ZONES):
            lit = (seat, count, start, stop, excuse)
            request = _CARD_REQUESTS.get(lit)
            if request is None:
                zones = _HAND_ZONES[count][start:stop]
                if excuse:
                    zones += (_HAND_ZONES[count][-1],)
                request = _CARD_REQUESTS[lit] = (RequestedAction(
                    seat, "CLICK", zones=zones, buttons=_LEFT,
                    prompt="click a lit card to play it"),)
            return request
        return self._playRequest(seat, cards, legal)

    def _playRequest(self, seat: Seat, cards: tuple[int, ...],
                     legal: tuple[int, ...]) -> tuple[RequestedAction, ...]:
        """A card player's request, its zones made from its sorted hand ``cards``."""
        count = len(cards)
        if count < len(_HAND_ZONES):
            zones = _HAND_ZONES[count]
            if len(legal) != count:
                zones = tuple([zone for zone, c in zip(zones, cards) if c in legal])
        else:
            zones = self._handZones(seat, legal)
        return (RequestedAction(seat, "CLICK", zones=zones, buttons=_LEFT,
                                prompt="click a lit card to play it"),)

    def _requested(self) -> tuple[RequestedAction, ...]:
        waiting = self.waitingFor()
        if len(waiting) == 1:
            return self._request(waiting[0])
        return tuple(r for s in waiting for r in self._request(s))

    def _state(self) -> GameState:
        """The totals; in words, what the last step did, or once over why."""
        over = self.phase == OVER
        text = self.ending if over else self._lastWords
        return GameState(tuple(self.totals), over, text=text or None)

    def _step(self) -> Instructions:
        self._stamp += 1
        self._lastEvents = events = tuple(self._events)
        self._events = []
        words = self._words
        self._lastWords = text = words[0] if len(words) == 1 else "; ".join(words)
        self._words = []
        phase, turn = self.phase, self.turn
        if phase == PLAY and turn is not None:  # _requested, for one seat
            requested = self._cardRequest(turn)
        else:
            requested = self._requested()
        if phase == OVER:
            return Instructions(requested, self._state(), events)
        # _state, in a deal
        return _instructions(requested, tuple(self.totals), text or None, events)

    # -- the contract ------------------------------------------------------

    def instructions(self) -> Instructions:
        return Instructions(self._requested(), self._state(), self._lastEvents,
                            initvalues=dict(self.initvalues))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        phase = self.phase
        if phase == PLAY and type(action) is dict and len(action) == 1:
            # The common case first: a card, from the seat to play.
            value = action.get("card", self)
            if (value is not self and self.turn is not None and seat == self.turn
                    and type(value) is int and 0 <= value < len(DECK)
                    and value in self._playable(seat)[1]):  # legalCardsFor
                played = self.played
                if len(played) < PLAYERS - 1:
                    # _play then _step, for a card that does not end the
                    # trick (three in four): its one event and its words
                    hand = self.hands[seat]  # _take: the sorted hand is kept
                    cached = self._hands[seat]
                    if cached is not None and cached[0] is hand and cached[1] == len(hand):
                        cards = cached[2]
                        at = bisect_left(cards, value)
                        self._hands[seat] = (hand, cached[1] - 1, cards[:at] + cards[at + 1:])
                    hand.discard(value)
                    self.trick[seat] = value
                    played.append(value)
                    self.turn = turn = (seat + 1) % PLAYERS
                    self._stamp += 1
                    self._lastEvents = events = (_CARD_EVENTS[seat][value],)
                    self._lastWords = text = _CARD_WORDS[seat][value]
                    # _instructions, inline
                    state = _newObject(GameState)
                    _setScores(state, tuple(self.totals))
                    _setGameover(state, False)
                    _setText(state, text)
                    instructions = _newObject(Instructions)
                    _setRequested(instructions, self._cardRequest(turn))
                    _setGameState(instructions, state)
                    _setEvents(instructions, events)
                    _setInitvalues(instructions, None)
                    return instructions
                self._play(seat, value)
                return self._step()
        if phase == OVER or seat not in self.waitingFor():
            why = "The game is over." if phase == OVER else "It is not your turn."
            return Errors((UnexpectedAction(seat, action, text=why),))
        if (type(action) is not dict and not isinstance(action, Mapping)) or len(action) != 1:
            return Errors((BadFormat(),))
        ((kind, value),) = action.items()
        if kind not in _KINDS.values():
            return Errors((BadFormat(),))
        if kind != _KINDS[phase]:
            return Errors((UnexpectedAction(seat, action, text=_DOING[phase]),))

        def wrong(text: str) -> Errors:
            requested = self._requestFor(seat)[0].asJSON()
            return Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, seat, action, requested,
                                       text=text),))

        if kind == "bid":
            if not _isInt(value) or not PASS <= value <= GARDE_CONTRE:
                return Errors((BadFormat(),))
            if value not in legalBids(self.bids):
                return wrong(whyNotBid(self.bids, value))
            self._bid(seat, value)
        elif kind == "discard":
            if (not isinstance(value, (list, tuple)) or len(value) != CHIEN_SIZE
                    or not all(_isInt(c) and 0 <= c < len(DECK) for c in value)
                    or len(set(value)) != CHIEN_SIZE):
                return Errors((BadFormat(),))
            if not isLegalDiscard(self.hands[seat], value):
                return wrong(whyNotDiscard(self.hands[seat], value))
            self._discard(seat, value)
        elif kind == "card":
            if not _isInt(value) or not 0 <= value < len(DECK):
                return Errors((BadFormat(),))
            if value not in self.legalCardsFor(seat):
                return wrong(whyNotCard(self.hands[seat], self.played, value))
            self._play(seat, value)
        else:
            if not isinstance(value, bool):
                return Errors((BadFormat(),))
            self._replay(seat, value)
        return self._step()

    def resign(self, seat: Seat) -> Instructions:
        """A seat leaving ends the session (the table puts bots in its place): totals as they are."""
        if self.phase != OVER:
            self._emit(Event("resign", None, seat))
            self._gameOver("resign", seat)
        return self._step()

    def publicState(self) -> tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """What every seat sees alike, cheaply: phase, bids, trick and previous trick."""
        return self.phase, tuple(self.bids), tuple(self.trick), tuple(self.previousTrick)

    def view(self, seat: Seat) -> TarotView:
        phase, contract, discard, turn = self.phase, self.contract, self.discard, self.turn
        ended = phase in _ENDED
        shown = contract in _CHIEN_SHOWN
        shownFrom, shownTrumps = self._shown
        if shownFrom is not discard:
            shownTrumps = tuple(c for c in discard or () if isTrump(c))
            self._shown = (discard, shownTrumps)
        score = self.lastScore
        if score is not None:
            copied = self._scoreCopy
            if copied[0] is not score:
                # as _copyScore (each list copied too), once a deal: the views
                # share it, never the engine's own
                copy = score.copy()
                for key, value in copy.items():
                    if isinstance(value, list):
                        copy[key] = list(value)
                copied = self._scoreCopy = (score, copy)
            score = copied[1]
        if phase == PLAY and seat == turn:  # the seat to play: its cards sorted once
            hand, legal = self._playable(seat)[:2]
        else:
            hand, legal = self._sortedHand(seat), ()
        taker = self.taker
        # TarotView(...) without its __init__: its fields written into its
        # dict in their order, as attrs's __init__ writes them (the class
        # has no validator, converter or hook: a test checks it)
        view = _newObject(TarotView)
        fields = view.__dict__
        fields["seat"] = seat
        fields["phase"] = phase
        fields["dealer"] = self.dealer
        fields["deal"] = self.dealNumber
        fields["hand"] = hand
        fields["bids"] = tuple(self.bids)
        fields["taker"] = taker
        fields["contract"] = contract
        fields["chien"] = self.chien if (shown and phase != BIDDING) or ended else None
        fields["discard"] = (discard if discard is not None and (seat == taker or ended)
                             else None)
        fields["shownTrumps"] = shownTrumps
        fields["trick"] = tuple(self.trick)
        fields["leader"] = self.leader
        fields["previousTrick"] = tuple(self.previousTrick)
        fields["toPlay"] = turn if phase in _ASKING else None
        fields["legalCards"] = legal
        fields["tricksPlayed"] = self.tricksPlayed
        fields["totals"] = tuple(self.totals)
        fields["lastScore"] = score
        fields["replayAnswers"] = tuple(self.replayAnswers)
        return view

    def display(self, seat: Seat | None) -> Display:
        """
        What ``seat`` sees; None: a spectator (no hand, no discard before the
        end).  Seats are named P1..P4 (``you`` for ``seat``); the cards have
        English labels (L{cardFace}, the key at the top right).
        """
        view = self.view(0 if seat is None else seat)
        if seat is None:
            view = attrs.evolve(view, hand=(), legalCards=(),
                                discard=view.discard if view.phase in (END, OVER) else None)

        def name(other: Seat) -> str:
            return "you" if other == seat else f"P{other + 1}"

        who = "you are a spectator" if seat is None else f"you are P{seat + 1}"
        ended = view.phase in (END, OVER)
        height = max(HEIGHT, self._sheetBottom()) if ended else HEIGHT
        content: list[dict[str, JSON]] = [
            {"tag": "rect", "x": 0, "y": 0, "width": WIDTH, "height": height, "fill": "#1f6f3f"},
            _text(16, 26, f"Deal {view.deal} · dealer {name(view.dealer)} · {who}", 20),
            _text(16, 50, KEY, 14, _DIM),
            _text(16, 78, "Bids: " + " · ".join(
                f"{name(s)} {'–' if b < 0 else BID_NAMES[b]}" for s, b in enumerate(view.bids)),
                18),
        ]
        if view.taker is not None and view.contract:
            content.append(_text(16, 104, f"Taker: {name(view.taker)}, "
                                         f"{BID_NAMES[view.contract]} "
                                         f"(× {MULTIPLIERS[view.contract]})", 18))
        shownCards = view.discard if view.discard and (view.phase == PLAY or ended) else view.chien
        if shownCards and view.phase != BIDDING:
            title = "Discard" if shownCards is view.discard else "Chien"
            content.append(_text(16, 138, title, 18))
            for i, card in enumerate(shownCards):
                content.extend(_card(16 + i * 50, 146, card, small=True))
        if any(card != NOBODY for card in view.previousTrick):
            content.extend(self._lastTrick(view, name))
        if ended:
            content.extend(self._dealSummary(view, name))
        else:
            content.extend(self._trick(view, seat, name))
        # buttons and what to do
        doing = ""
        if view.phase == BIDDING:
            if view.toPlay == seat:
                allowed = legalBids(view.bids)
                for bid, zone in enumerate(_buttonZones(GARDE_CONTRE + 1)):
                    content.extend(_button(zone, BID_NAMES[bid], bid in allowed))
                doing = "Your bid: click a button"
            elif view.toPlay is not None:
                doing = f"{name(view.toPlay)} to bid"
        elif view.phase == DISCARD:
            if view.toPlay == seat:
                content.extend(_button(_buttonZones(1)[0], "use proposal", True))
                doing = "Discard: pick six cards, then confirm (or use the proposal)"
            else:
                doing = f"{name(view.taker or 0)} is discarding"
        elif view.phase == PLAY:
            doing = ("Your card: click a lit card" if view.toPlay == seat
                     else f"{name(view.toPlay or 0)} to play")
        elif view.phase == END:
            if seat is not None and view.replayAnswers[seat] is None:
                for label, zone in zip(_REPLAY_LABELS, _buttonZones(2)):
                    content.extend(_button(zone, label, True))
                doing = "Another deal?"
            else:
                doing = "Waiting for the others: another deal?"
        elif view.phase == OVER:
            # the game state's words name seats "player N": the display's names here
            ending = re.sub(r"\bplayer (\d)\b", lambda m: name(int(m.group(1)) - 1),
                            self.ending or "")
            doing = f"Game over: {ending}" if ending else "Game over"
        content.append(_text(16, BUTTON_Y - 12, doing, 18, _GOLD))
        if ended:  # the hand is played (or the deal void): the score sheet is there
            return Display(seat, WIDTH, height, tuple(content))
        discarding = view.phase == DISCARD and view.toPlay == seat
        choosable: set[int] = set(view.legalCards)
        if discarding:
            ordinary, trumps = discardable(view.hand)
            choosable = set(ordinary if len(ordinary) >= CHIEN_SIZE else ordinary + trumps)
        lit = view.phase == PLAY and view.toPlay == seat or discarding
        for (x, y), card in zip(handPlaces(len(view.hand)), view.hand):
            content.extend(_card(x, y, card, state="lit" if card in choosable else
                                 "dim" if lit else "", number=discarding))
        return Display(seat, WIDTH, HEIGHT, tuple(content))

    def _trick(self, view: TarotView, seat: Seat | None,
               name: Any) -> list[dict[str, JSON]]:
        """The trick on the table, each card by its seat (this seat at the bottom)."""
        content: list[dict[str, JSON]] = []
        spots = ((276, 356), (372, 306), (276, 256), (180, 306))
        for other in range(PLAYERS):
            x, y = spots[(other - (seat or 0)) % PLAYERS]
            card = view.trick[other]
            turn = view.phase == PLAY and view.toPlay == other
            label = name(other) + (" ▸" if turn else "")
            if other == view.leader and view.phase == PLAY:
                label += " (led)"
            labelY = y + SMALL_H + 18 if (other - (seat or 0)) % PLAYERS == 0 else y - 6
            content.append(_text(x, labelY, label, 16, _GOLD if turn else _INK))
            if card != NOBODY:
                content.extend(_card(x, y, card, small=True))
            else:
                content.append({"tag": "rect", "x": x, "y": y, "width": SMALL_W,
                                "height": SMALL_H, "rx": 5, "fill": "none",
                                "stroke": _DIM, "stroke-dasharray": "4 4"})
        return content

    def _lastTrick(self, view: TarotView, name: Any) -> list[dict[str, JSON]]:
        """The last trick: each seat's card, the winner's outlined."""
        cards = list(view.previousTrick)
        winner = self.lastTrickWinner
        title = "Last trick" + (f": {name(winner)} won it" if winner is not None else "")
        content = [_text(340, 138, title, 18)]
        for other, card in enumerate(cards):
            x = 340 + other * 62
            if card != NOBODY:
                content.extend(_card(x, 146, card, small=True,
                                     state="won" if other == winner else ""))
            content.append(_text(x + 4, 146 + SMALL_H + 20, name(other), 16,
                                 _GOLD if other == winner else _INK))
        return content

    def _dealSummary(self, view: TarotView, name: Any) -> list[dict[str, JSON]]:
        """The end of a deal: its score explained, and the score sheet of every deal."""
        score = view.lastScore or {}
        content: list[dict[str, JSON]] = []
        lines = dealExplanation(score, name)
        for i, line in enumerate(lines):
            content.append(_text(16, 262 + i * 22, line, 17 if i else 20,
                                 _GOLD if i == 0 else _INK))
        content.append({"tag": "g", "class": "score-sheet", "content": self._scoreSheet(view, name)})
        return content

    def _sheetRows(self) -> int:
        """Rows in each column of the score sheet: every deal, then the totals."""
        rows = len(self.history) + 1
        return rows if rows <= SHEET_ROWS else max(SHEET_ROWS, -(-rows // 2))

    def _sheetBottom(self) -> int:
        """How far down the score sheet reaches: the display grows for a long session."""
        return SHEET_Y + self._sheetRows() * SHEET_ROW + 12

    def _scoreSheet(self, view: TarotView, name: Any) -> list[dict[str, JSON]]:
        """
        Every deal's scores by seat, then the totals, under the buttons: in
        one column of deals, or two side by side once they are more than
        L{SHEET_ROWS}, the display growing as needed.
        """
        perColumn = self._sheetRows()
        rows: list[tuple[str, Sequence[int], str]] = [
            (str(number), deal["scores"], _INK) for number, deal in enumerate(self.history, 1)]
        rows.append(("Total", view.totals, _GOLD))
        sheet: list[dict[str, JSON]] = []
        for column in range(-(-len(rows) // perColumn)):
            x0 = 16 + column * 294
            sheet.append(_text(x0, SHEET_Y, "Deal", 18, _DIM))
            for other in range(PLAYERS):
                sheet.append(_text(x0 + 112 + other * 54, SHEET_Y, name(other), 18, _DIM,
                                   anchor="end"))
            for i, (label, points, colour) in enumerate(
                    rows[column * perColumn:(column + 1) * perColumn]):
                y = SHEET_Y + (i + 1) * SHEET_ROW
                sheet.append(_text(x0, y, label, 18, colour))
                for other, value in enumerate(points):
                    text = str(value) if label == "Total" else f"{value:+d}" if value else "0"
                    sheet.append(_text(x0 + 112 + other * 54, y, text, 18, colour,
                                       anchor="end"))
        return sheet

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        requested = self._requestFor(seat)
        checked = checkAction(seat, action, requested)
        if isinstance(checked, Errors):
            return checked
        if checked.type == "TEXT":
            text = str(action["text"]).replace(",", " ").replace(";", " ")
            return {"discard": [int(t) for t in text.split()]}
        x, y = float(action["x"]), float(action["y"])  # type: ignore[arg-type]
        if self.phase == BIDDING:
            for bid, zone in enumerate(_buttonZones(GARDE_CONTRE + 1)):
                if zone.contains(x, y):
                    return {"bid": bid}
        elif self.phase == DISCARD:
            return {"discard": list(botDiscard(self.hands[seat]))}
        elif self.phase == PLAY:
            hand = sorted(self.hands[seat])
            for (left, top), card in zip(handPlaces(len(hand)), hand):
                if Zone(left, top, CARD_W, CARD_H).contains(x, y):
                    return {"card": card}
        else:
            for answer, zone in zip((True, False), _buttonZones(2)):
                if zone.contains(x, y):
                    return {"replay": answer}
        return Errors((BadFormat(),))  # unreachable: checkAction found a zone

    def stop(self) -> None:
        """Nothing to release: the game lives in this process."""

    # -- for tests and tools -----------------------------------------------

    def cardsInPlay(self) -> list[int]:
        """Every card somewhere: hands, chien or discard set aside, tricks won, the trick on the table."""
        cards = [c for h in self.hands for c in h]
        cards += [c for pile in self.won for c in pile]
        cards += self.played
        if self.contract in (PETITE, GARDE):
            cards += self.discard or ()  # the chien went into the taker's hand
        else:
            cards += self.chien
        return cards


def _isInt(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _copyScore(score: dict[str, JSON] | None) -> dict[str, JSON] | None:
    if score is None:
        return None
    copy = score.copy()
    for key, value in score.items():
        if isinstance(value, list):
            copy[key] = list(value)
    return copy


def _text(x: float, y: float, content: str, size: int = 16, fill: str = _INK,
          anchor: str | None = None) -> dict[str, JSON]:
    tag: dict[str, JSON] = {"tag": "text", "x": x, "y": y, "font-size": size, "fill": fill,
                            "content": content}
    if anchor is not None:
        tag["text-anchor"] = anchor
    return tag


def _card(x: float, y: float, card: int, state: str = "", small: bool = False,
          number: bool = False) -> list[dict[str, JSON]]:
    """
    A card: its label (L{cardFace}) top left, its suit sign or trump number
    large in the middle.  ``state``: ``lit`` (may be played or discarded),
    ``dim`` (may not), ``won`` (won the trick), or plain.  ``number``: its
    number in the corner, for those who type a discard.
    """
    width, height = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    suit = suitOf(card)
    colour = "#c01818" if suit in (HEARTS, DIAMONDS) else "#111111"
    fill = {"lit": "#fff7cc", "dim": "#c8ccd2", "won": "#ffffff"}.get(state, "#ffffff")
    stroke, strokeWidth = ((_GOLD, 4) if state == "won" else
                           ("#b45309", 2) if state == "lit" else ("#333333", 1))
    middle = ("★" if card == EXCUSE else str(rankOf(card)) if suit == TRUMPS
              else _SUIT_SIGNS[suit])
    tags: list[dict[str, JSON]] = [
        {"tag": "rect", "class": "card", "data-card": card, "x": x, "y": y,
         "width": width - 2, "height": height, "rx": 5, "fill": fill, "stroke": stroke,
         "stroke-width": strokeWidth},
        {"tag": "text", "x": x + 4, "y": y + (19 if small else 25),
         "font-size": 16 if small else 24, "font-weight": "bold", "fill": colour,
         "content": cardFace(card)},
        {"tag": "text", "x": x + width / 2 - 1, "y": y + height - (12 if small else 10),
         "font-size": 24 if small else 30, "text-anchor": "middle",
         "fill": "#7c3aed" if suit == TRUMPS else colour, "content": middle},
    ]
    if number:
        tags.append({"tag": "text", "x": x + width - 6, "y": y + height - 4, "font-size": 11,
                     "text-anchor": "end", "fill": "#555555", "content": f"#{card}"})
    return tags


def _button(zone: Zone, label: str, enabled: bool) -> list[dict[str, JSON]]:
    """
    A button of ``zone``'s size (at least 44 px each way on a phone), its
    label in the middle (a long one squeezed to the button's width).
    """
    text: dict[str, JSON] = {
        "tag": "text", "x": zone.x + zone.width / 2, "y": zone.y + zone.height / 2 + 7,
        "font-size": 20, "text-anchor": "middle", "fill": "#000000" if enabled else "#333333",
        "content": label}
    if len(label) > 9:
        text.update({"textLength": zone.width - 12, "lengthAdjust": "spacingAndGlyphs"})
    return [
        {"tag": "rect", "class": "button", "x": zone.x, "y": zone.y, "width": zone.width,
         "height": zone.height, "rx": 8, "fill": "#f0e6c8" if enabled else "#777777",
         "stroke": "#333333"},
        text,
    ]


def dealExplanation(score: Mapping[str, Any], name: Any = None) -> list[str]:
    """
    A deal's score in words, line by line: the contract and its result, the
    points against the threshold, the value with its multiplier, the petit
    au bout, and what each seat scores.  ``name(seat)`` names a seat (P1..P4
    by default).
    """
    if name is None:
        def name(seat: Seat) -> str:
            return f"P{seat + 1}"
    scores = score.get("scores") or [0] * PLAYERS
    sheet = "This deal: " + " · ".join(f"{name(s)} {p:+d}" if p else f"{name(s)} 0"
                                       for s, p in enumerate(scores))
    reason = score.get("reason")
    if reason != "played":
        why = {"all-pass": "everybody passed", "petit-sec": "a petit sec"}.get(
            str(reason), str(reason))
        return [f"Deal not played: {why}", sheet]
    contract, taker = int(score["contract"]), int(score["taker"])
    points, oudlers = int(score["points"]), int(score["oudlers"])
    threshold = THRESHOLDS[oudlers]
    won, value = contractResult(contract, points, oudlers)
    multiplier = MULTIPLIERS[contract]
    difference = (abs(points - 2 * threshold) + 1) // 2
    who = str(name(taker))
    lines = [
        f"{who[:1].upper()}{who[1:]} {'made' if won else 'lost'} the {BID_NAMES[contract]}",
        f"Points: {points / 2:g} with {oudlers} oudler{'s' if oudlers != 1 else ''},"
        f" needed {threshold}: {'made by' if won else 'short by'} {difference}",
        f"Value: (25 + {difference}) × {multiplier} = {value}",
    ]
    side = score.get("petitAuBout")
    if side:
        lines.append(f"Petit au bout ({'taker' if side == 'taker' else 'defence'}): "
                     f"10 × {multiplier} = {PETIT_AU_BOUT * multiplier}")
    lines.append("The taker scores 3 × that, each defender the opposite")
    lines.append(sheet)
    return lines



# -- the bot -----------------------------------------------------------------


def handStrength(hand: Iterable[int]) -> int:
    """
    A classic bidding count: the 21 10, the excuse 8, the petit 8 (less when
    poorly guarded), each trump 2 (+1 from the 16 up), kings 6, queens 3,
    knights 2, jacks 1, and long suits and voids (with trumps) a bonus.
    """
    cards = set(hand)
    n = score = 0
    length = [0] * len(SUITS)
    for c in cards:
        if 0 <= c < PETIT:  # a suit's card: its honour, and its suit's length
            length[c // 14] += 1
            score += _HONOURS[c]
        elif PETIT <= c <= MONDE:  # a trump: 2, 3 from the 16 up
            n += 1
            score += 3 if c >= _TRUMP_16 else 2
    if MONDE in cards:
        score += 10
    if EXCUSE in cards:
        score += 8
    if PETIT in cards:
        score += 8 if n >= 6 else 5 if n >= 4 else 1
    for suit in SUITS:
        if length[suit] >= 5:
            score += 2 * (length[suit] - 3)
        elif not length[suit] and n >= 5:
            score += 6
        elif length[suit] == 1 and n >= 5:
            score += 3
    return score


_HONOURS = _CardTable(lambda card: {14: 6, 13: 3, 12: 2, 11: 1}.get(rankOf(card), 0))
"""What L{handStrength} counts for a card of a suit: its rank's honour."""


def botBid(hand: Iterable[int], bids: Sequence[int]) -> int:
    """Pass under 40; petite up to 55, garde up to 70, garde sans up to 80, then garde contre."""
    strength = handStrength(hand)
    wanted = (PASS if strength < 40 else PETITE if strength <= 55 else GARDE if strength <= 70
              else GARDE_SANS if strength <= 80 else GARDE_CONTRE)
    return wanted if wanted in legalBids(bids) and wanted != PASS else PASS


def botDiscard(hand: Iterable[int]) -> tuple[int, ...]:
    """
    A legal discard that keeps the hand's strength: void the shortest suits
    without a king, then the highest-valued cards of the shortest suits (the
    discard's points are the taker's); trumps only when forced, the lowest.
    """
    cards = set(hand)
    ordinary, trumps = discardable(cards)
    if len(ordinary) <= CHIEN_SIZE:
        return tuple(sorted(ordinary + trumps[: CHIEN_SIZE - len(ordinary)]))
    inSuits = [_SUIT[c] for c in cards]
    length = {s: inSuits.count(s) for s in SUITS}
    kings = {_SUIT[c] for c in cards if c < PETIT and c % 14 == 13}  # isKing
    chosen: list[int] = []
    voidable = sorted((s for s in SUITS if length[s] and s not in kings),
                      key=lambda s: length[s])
    for suit in voidable:
        inSuit = [c for c in ordinary if _SUIT[c] == suit]
        if len(chosen) + len(inSuit) <= CHIEN_SIZE:
            chosen += inSuit
    rest = sorted((c for c in ordinary if c not in chosen),
                  key=lambda c: (length[_SUIT[c]], -_POINTS[c], -c))
    chosen += rest[: CHIEN_SIZE - len(chosen)]
    return tuple(sorted(chosen))


def _cost(card: int) -> int:
    """How much playing ``card`` gives away: points first, then rank; the petit and 21 are dear."""
    if card == MONDE:
        return 300
    if card == EXCUSE:
        return 200
    if card == PETIT:
        return 150
    if isTrump(card):
        return 20 + rankOf(card)
    return 3 * cardPoints(card) + rankOf(card)


_COST = _CardTable(_cost)
_costOf = _COST.__getitem__


def _beats(card: int, best: int, suit: int | None) -> bool:
    if card == EXCUSE:
        return False
    if isTrump(card):
        return not isTrump(best) or card > best
    return not isTrump(best) and suitOf(card) == suit and card > best


_SEATS = tuple(range(PLAYERS))
_AUDIENCES = tuple(frozenset({seat}) for seat in _SEATS)
_ORDERS = tuple(tuple((leader + i) % PLAYERS for i in range(PLAYERS)) for leader in range(PLAYERS))
"""The seats in play order, by the trick's leader."""
_TRUMP_18 = PETIT + 17
_TRUMP_16 = PETIT + 15
_LOAD = _CardTable(lambda card: (cardPoints(card), card))
"""How much a card loads a partner's trick: its points, then the card."""
_loadOf = _LOAD.__getitem__


def botCard(view: TarotView) -> int:
    """Card play with the obvious habits (see L{tarotBot})."""
    legal = view.legalCards
    if len(legal) == 1:
        return legal[0]
    seat, hand, trick = view.seat, view.hand, view.trick
    leader = view.leader if view.leader is not None else seat
    amTaker = seat == view.taker
    excuse = EXCUSE in legal
    plain = [c for c in legal if c != EXCUSE] if excuse else legal  # only read
    if excuse and (len(hand) <= 3 or not plain):
        return EXCUSE  # early-ish, never kept for the last trick
    # the trick so far, in play order, read once: how many cards, the suit
    # led (L{ledSuit}) and who wins it so far (L{trickWinner})
    count, suit, best, winnerSeat = 0, None, -1, NOBODY
    for s in _ORDERS[leader % PLAYERS]:
        card = trick[s]
        if card == NOBODY:
            continue
        count += 1
        if card == EXCUSE:
            continue
        if best < 0:
            best, winnerSeat, suit = card, s, _SUIT[card]
        elif PETIT <= card <= MONDE:
            if not PETIT <= best <= MONDE or card > best:
                best, winnerSeat = card, s
        elif not PETIT <= best <= MONDE and _SUIT[card] == suit and card > best:
            best, winnerSeat = card, s
    if not count:
        return _lead(plain, hand, amTaker) if plain else EXCUSE
    last = count == PLAYERS - 1
    if best < 0:  # only the excuse was led: the cheapest card
        return min(plain, key=_costOf) if plain else EXCUSE
    bestTrump = PETIT <= best <= MONDE
    if (winnerSeat == view.taker) == amTaker:  # a partner wins the trick so far
        if last or _TRUMP_18 <= best <= MONDE:  # the 18 to the 21 of trumps
            # the petit would not win the trick (L{_beats}) when a trump wins it
            if PETIT in plain and (last or bestTrump):
                return PETIT  # the petit saved on a partner's sure trick
            nonTrumps = [c for c in plain if not PETIT <= c <= MONDE]
            if nonTrumps:
                return max(nonTrumps, key=_loadOf)
        if PETIT in plain:
            return min([c for c in plain if c != PETIT] or plain, key=_costOf)
        return min(plain, key=_costOf)
    # the cards that would beat ``best`` (L{_beats}, the excuse not in plain)
    if bestTrump:
        winners = [c for c in plain if PETIT <= c <= MONDE and c > best]
    else:
        winners = [c for c in plain if PETIT <= c <= MONDE or (_SUIT[c] == suit and c > best)]
    if winners:
        if last:
            if PETIT in winners:
                return PETIT
            return min(winners, key=_costOf)
        if suit != TRUMPS and best < PETIT:  # not trumped, a suit led
            for c in winners:
                if c < PETIT and c % 14 == 13:  # isKing
                    return c
        withoutPetit = [c for c in winners if c != PETIT]
        if withoutPetit:
            return (min(withoutPetit, key=_costOf) if min(withoutPetit) < PETIT
                    else _midTrump(withoutPetit))
    losers = [c for c in plain if c not in winners and c != PETIT] or plain
    choice = min(losers, key=_costOf)
    if excuse and (choice == PETIT or (choice < PETIT and _POINTS[choice] >= 3)):
        return EXCUSE  # rather than a face card or the petit lost to the other side
    return choice


def _midTrump(trumps: Sequence[int]) -> int:
    """The lowest trump above 10 that wins, else the lowest (keeps the biggest for later)."""
    above = [c for c in sorted(trumps) if rankOf(c) > 10 and c != MONDE]
    return above[0] if above else min(trumps, key=_costOf)


def _lead(plain: Sequence[int], hand: Sequence[int], amTaker: bool) -> int:
    for c in plain:
        if c < PETIT and c % 14 == 13:  # isKing: the first king
            return c
    if amTaker and sum(1 for c in hand if PETIT <= c <= MONDE) >= 8:
        pulling = [c for c in plain if PETIT < c < MONDE]  # trumps, not the petit or 21
        if pulling:
            return max(pulling)
    suits = [c for c in plain if not PETIT <= c <= MONDE]
    if suits:
        length = [0] * 6  # by suit
        for c in hand:
            length[_SUIT[c]] += 1
        return min(suits, key=lambda c: (-length[_SUIT[c]], _COST[c]))
    others = [c for c in plain if c != PETIT] or list(plain)
    return min(others, key=_costOf)


def tarotBot(view: TarotView, seat: Seat) -> JSON:
    """
    The engine's bot, from what ``seat`` may see: bids from hand strength,
    a discard that makes voids and keeps kings and oudlers, card play that
    wins cheaply, spares big trumps, saves the petit, loads a partner's
    winning trick and plays the excuse before the end.  Replays: always.
    """
    phase = view.phase
    if phase == PLAY:
        return {"card": botCard(view)}
    if phase == BIDDING:
        return {"bid": botBid(view.hand, view.bids)}
    if phase == DISCARD:
        return {"discard": list(botDiscard(view.hand))}
    return {"replay": True}


class TarotEngine:
    """The French Tarot engine factory."""

    name = "tarot"
    parameters: Sequence[Parameter] = PARAMETERS
    hiddenInformation = True
    """Hands, the chien before it is shown and the discard: the seed deals them all."""

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """Bids and played cards are public once made; the taker's discard is not."""
        return not (isinstance(action, dict) and "discard" in action)

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> TarotGame | Errors:
        started = checkSeeded(self.parameters, params, initvalues, rng)
        if isinstance(started, Errors):
            return started
        return TarotGame(*started)

    def bot(self, params: Mapping[str, JSON]) -> Bot:
        return tarotBot


TAROT = TarotEngine()
ENGINE = TAROT
