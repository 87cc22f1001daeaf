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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Bot,
    Display,
    drawSeed,
    Errors,
    Event,
    GameState,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkAction,
    checkParameters,
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
    """A short label: ``7♣``, ``R♥`` (king), ``T21``, ``Exc``."""
    if card == EXCUSE:
        return "Exc"
    if card >= PETIT:
        return f"T{rankOf(card)}"
    rank = card % 14
    return _FACES.get(rank, str(rank + 1)) + _SUIT_SIGNS[card // 14]


def countPoints(cards: Iterable[int]) -> int:
    """The half-points of ``cards``."""
    return sum(cardPoints(c) for c in cards)


def countOudlers(cards: Iterable[int]) -> int:
    return sum(1 for c in cards if c in OUDLERS)


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
        if isTrump(card):
            if not isTrump(top) or card > top:
                best = index
        elif not isTrump(top) and suitOf(card) == suit and card > top:
            best = index
    return best


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


@attrs.frozen
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
_KINDS = {BIDDING: "bid", DISCARD: "discard", PLAY: "card", END: "replay"}

WIDTH, HEIGHT = 800, 600
CARD_W, CARD_H = 32, 56
HAND_X, HAND_Y = 16, 520
BUTTON_Y, BUTTON_W, BUTTON_H = 440, 140, 32
DISCARD_REGEX = r"^\s*\d{1,2}(\s*[,; ]\s*\d{1,2}){5}\s*$"
_REPLAY_LABELS = ("play again", "stop")


def _buttonZones(count: int) -> tuple[Zone, ...]:
    return tuple(Zone(16 + i * (BUTTON_W + 12), BUTTON_Y, BUTTON_W, BUTTON_H) for i in range(count))


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
        self._newDeal()
        self._lastEvents = tuple(self._events)
        self._events = []

    # -- the state machine -------------------------------------------------

    def _newDeal(self) -> None:
        self.dealNumber += 1
        self.dealer = (self.firstDealer + self.dealNumber - 1) % PLAYERS
        hands, chien = dealCards(self.seed, self.dealNumber, self.dealer)
        self.hands: list[set[int]] = [set(h) for h in hands]
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
        self.played: list[int] = []
        self.won: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.excuseTransfer = 0
        """Half-points the taker's side gets (+1) or gives (-1) for the excuse exchange."""
        self.tricksPlayed = 0
        self.petitAuBout: bool | None = None
        self.replayAnswers: list[bool | None] = [None] * PLAYERS
        self.phase = BIDDING
        self._emit(Event("dealt", {"dealer": self.dealer, "deal": self.dealNumber}))
        for seat in range(PLAYERS):
            self._emit(Event("deal", list(hands[seat]), seat, frozenset({seat})))
        for seat in range(PLAYERS):
            if hasPetitSec(hands[seat]):
                # RULE: a petit sec voids the deal at once, detected by the
                # engine (the protocol cannot announce it); the next dealer
                # deals, after the replay question.  Its holder's hand is not
                # shown (the FFT has it laid down; no protocol carries it).
                self._emit(Event("petit-sec", {"seat": seat}))
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
        self.phase = END
        self.turn = None
        self._emit(Event("score", _copyScore(data)))

    def _bid(self, seat: Seat, bid: int) -> None:
        self.bids[seat] = bid
        self._emit(Event("bid", bid, seat))
        if NOBODY in self.bids:
            self.turn = (seat + 1) % PLAYERS
            return
        self._emit(Event("bids", list(self.bids)))
        best = max(self.bids)
        if best == PASS:
            self.bids = [PASS] * PLAYERS
            self._emit(Event("chien", list(self.chien)))
            self._endUnplayed("all-pass")
            return
        self.taker = self.bids.index(best)
        self.contract = best
        if best in (PETITE, GARDE):
            self._emit(Event("chien", list(self.chien)))
            self.hands[self.taker] |= set(self.chien)
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
        self._emit(Event("discard", list(self.discard), seat, frozenset({seat})))
        trumps = [c for c in self.discard if isTrump(c)]
        if trumps:
            self._emit(Event("shown-trumps", trumps, seat))
        self._startPlay()

    def _play(self, seat: Seat, card: int) -> None:
        self.hands[seat].discard(card)
        self.trick[seat] = card
        self.played.append(card)
        self._emit(Event("card", card, seat))
        if len(self.played) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return
        leader = self.leader
        assert leader is not None
        order = [(leader + i) % PLAYERS for i in range(PLAYERS)]
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
        self._emit(Event("trick", {"cards": list(self.trick), "winner": winner}))
        self.previousTrick = self.trick
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
        points = countPoints(cards) + self.excuseTransfer
        oudlers = countOudlers(cards)
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
        self._emit(Event("replay", answer, seat))
        if None in self.replayAnswers:
            return
        if all(self.replayAnswers):
            self._newDeal()
        else:
            self._gameOver("replay")

    def _gameOver(self, reason: str) -> None:
        self.phase = OVER
        self.turn = None
        self._emit(Event("end", {"totals": list(self.totals), "reason": reason}))

    # -- requests ----------------------------------------------------------

    def waitingFor(self) -> tuple[Seat, ...]:
        """The seats whose action is awaited."""
        if self.phase == END:
            return tuple(s for s in range(PLAYERS) if self.replayAnswers[s] is None)
        if self.phase == OVER or self.turn is None:
            return ()
        return (self.turn,)

    def legalCardsFor(self, seat: Seat) -> tuple[int, ...]:
        """The cards ``seat`` may play now (empty when it is not its turn)."""
        if self.phase != PLAY or seat != self.turn:
            return ()
        return legalCards(self.hands[seat], self.played)

    def _handZones(self, seat: Seat, cards: Iterable[int]) -> tuple[Zone, ...]:
        hand = sorted(self.hands[seat])
        wanted = set(cards)
        return tuple(
            Zone(HAND_X + i * CARD_W, HAND_Y, CARD_W, CARD_H)
            for i, c in enumerate(hand) if c in wanted
        )

    def _requestFor(self, seat: Seat) -> tuple[RequestedAction, ...]:
        if seat not in self.waitingFor():
            return ()
        if self.phase == BIDDING:
            zones = _buttonZones(GARDE_CONTRE + 1)
            allowed = legalBids(self.bids)
            chosen = tuple(zones[b] for b in allowed)
            return (RequestedAction(seat, "CLICK", zones=chosen, buttons=("LEFT",)),)
        if self.phase == DISCARD:
            return (
                RequestedAction(seat, "CLICK", zones=_buttonZones(1), buttons=("LEFT",)),
                RequestedAction(seat, "TEXT", regex=DISCARD_REGEX, max_length=40),
            )
        if self.phase == PLAY:
            zones = self._handZones(seat, self.legalCardsFor(seat))
            return (RequestedAction(seat, "CLICK", zones=zones, buttons=("LEFT",)),)
        return (RequestedAction(seat, "CLICK", zones=_buttonZones(2), buttons=("LEFT",)),)

    def _requested(self) -> tuple[RequestedAction, ...]:
        return tuple(r for s in self.waitingFor() for r in self._requestFor(s))

    def _state(self) -> GameState:
        return GameState(tuple(self.totals), self.phase == OVER)

    def _step(self) -> Instructions:
        self._lastEvents = tuple(self._events)
        self._events = []
        return Instructions(self._requested(), self._state(), self._lastEvents)

    # -- the contract ------------------------------------------------------

    def instructions(self) -> Instructions:
        return Instructions(self._requested(), self._state(), self._lastEvents,
                            initvalues=dict(self.initvalues))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self.phase == OVER or seat not in self.waitingFor():
            return Errors((UnexpectedAction(seat, action),))
        if not isinstance(action, Mapping) or len(action) != 1:
            return Errors((BadFormat(),))
        ((kind, value),) = action.items()
        if kind not in _KINDS.values():
            return Errors((BadFormat(),))
        if kind != _KINDS[self.phase]:
            return Errors((UnexpectedAction(seat, action),))

        def wrong() -> Errors:
            requested = self._requestFor(seat)[0].asJSON()
            return Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, seat, action, requested),))

        if kind == "bid":
            if not _isInt(value) or not PASS <= value <= GARDE_CONTRE:
                return Errors((BadFormat(),))
            if value not in legalBids(self.bids):
                return wrong()
            self._bid(seat, value)
        elif kind == "discard":
            if (not isinstance(value, (list, tuple)) or len(value) != CHIEN_SIZE
                    or not all(_isInt(c) and 0 <= c < len(DECK) for c in value)
                    or len(set(value)) != CHIEN_SIZE):
                return Errors((BadFormat(),))
            if not isLegalDiscard(self.hands[seat], value):
                return wrong()
            self._discard(seat, value)
        elif kind == "card":
            if not _isInt(value) or not 0 <= value < len(DECK):
                return Errors((BadFormat(),))
            if value not in self.legalCardsFor(seat):
                return wrong()
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
            self._gameOver("resign")
        return self._step()

    def publicState(self) -> tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """What every seat sees alike, cheaply: phase, bids, trick and previous trick."""
        return self.phase, tuple(self.bids), tuple(self.trick), tuple(self.previousTrick)

    def view(self, seat: Seat) -> TarotView:
        ended = self.phase in (END, OVER)
        shown = self.contract in (PETITE, GARDE) or self.contract == PASS
        chien = self.chien if (shown and self.phase != BIDDING) or ended else None
        discard = self.discard if self.discard is not None and (seat == self.taker or ended) else None
        shownTrumps = tuple(c for c in self.discard or () if isTrump(c))
        return TarotView(
            seat=seat,
            phase=self.phase,
            dealer=self.dealer,
            deal=self.dealNumber,
            hand=tuple(sorted(self.hands[seat])),
            bids=tuple(self.bids),
            taker=self.taker,
            contract=self.contract,
            chien=chien,
            discard=discard,
            shownTrumps=shownTrumps,
            trick=tuple(self.trick),
            leader=self.leader,
            previousTrick=tuple(self.previousTrick),
            toPlay=self.turn if self.phase in (BIDDING, DISCARD, PLAY) else None,
            legalCards=self.legalCardsFor(seat),
            tricksPlayed=self.tricksPlayed,
            totals=tuple(self.totals),
            lastScore=_copyScore(self.lastScore),
            replayAnswers=tuple(self.replayAnswers),
        )

    def display(self, seat: Seat | None) -> Display:
        """What ``seat`` sees; None: a spectator (no hand, no discard before the end)."""
        view = self.view(0 if seat is None else seat)
        if seat is None:
            view = attrs.evolve(view, hand=(), legalCards=(),
                                discard=view.discard if view.phase in (END, OVER) else None)
        who = "you are a spectator" if seat is None else f"you are P{seat + 1}"
        content: list[dict[str, JSON]] = [
            {"tag": "rect", "x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "fill": "#1f6f3f"},
            _text(16, 24, f"deal {view.deal}, dealer P{view.dealer + 1}, {who}"),
            _text(16, 48, "scores: " + "  ".join(
                f"P{s + 1} {t}" for s, t in enumerate(view.totals))),
            _text(16, 72, "bids: " + "  ".join(
                f"P{s + 1} {'-' if b < 0 else BID_NAMES[b]}" for s, b in enumerate(view.bids))),
        ]
        if view.taker is not None and view.contract:
            content.append(_text(16, 96, f"P{view.taker + 1} takes: {BID_NAMES[view.contract]}"))
        shownCards = view.discard if view.phase == PLAY and view.discard else view.chien
        if shownCards and view.phase != BIDDING:
            title = "discard" if shownCards is view.discard else "chien"
            content.append(_text(480, 24, title))
            for i, card in enumerate(shownCards):
                content.extend(_card(480 + i * CARD_W, 32, card))
        if any(card != NOBODY for card in view.previousTrick):
            content.append(_text(480, 112, "previous trick", size=12))
            for i, card in enumerate(view.previousTrick):
                content.extend(_card(480 + i * CARD_W, 120, card))
        # the trick, by position around the table (this seat at the bottom)
        spots = ((384, 300), (460, 230), (384, 160), (308, 230))
        for other in range(PLAYERS):
            x, y = spots[(other - (seat or 0)) % PLAYERS]
            card = view.trick[other]
            content.append(_text(x, y - 4, f"P{other + 1}", size=12))
            if card != NOBODY:
                content.extend(_card(x, y, card))
        # buttons and what to do
        doing = ""
        if view.phase == BIDDING and view.toPlay == seat:
            allowed = legalBids(view.bids)
            for bid, zone in enumerate(_buttonZones(GARDE_CONTRE + 1)):
                content.extend(_button(zone, BID_NAMES[bid], bid in allowed))
            doing = "your bid"
        elif view.phase == DISCARD and view.toPlay == seat:
            content.extend(_button(_buttonZones(1)[0], "proposed discard", True))
            proposal = " ".join(str(c) for c in botDiscard(view.hand))
            doing = f"type six card numbers to discard, or click the proposal ({proposal})"
        elif view.phase == PLAY:
            doing = "your card" if view.toPlay == seat else f"P{(view.toPlay or 0) + 1} to play"
        elif view.phase == END:
            if seat is not None and view.replayAnswers[seat] is None:
                for label, zone in zip(_REPLAY_LABELS, _buttonZones(2)):
                    content.extend(_button(zone, label, True))
            score = view.lastScore or {}
            if score.get("reason") == "played":
                doing = (f"P{score['taker'] + 1} {'won' if score['won'] else 'lost'} "
                         f"{BID_NAMES[score['contract']]} with {score['points'] / 2:g} points, "
                         f"{score['oudlers']} oudlers")
            else:
                doing = f"deal not played ({score.get('reason')})"
        elif view.phase == OVER:
            doing = "game over"
        content.append(_text(16, 420, doing))
        for i, card in enumerate(view.hand):
            content.extend(_card(HAND_X + i * CARD_W, HAND_Y, card, card in view.legalCards))
        return Display(seat, WIDTH, HEIGHT, tuple(content))

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
            return {"card": hand[int((x - HAND_X) // CARD_W)]}
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
    return {k: list(v) if isinstance(v, list) else v for k, v in score.items()}


def _text(x: float, y: float, content: str, size: int = 16) -> dict[str, JSON]:
    return {"tag": "text", "x": x, "y": y, "font-size": size, "fill": "#ffffff", "content": content}


def _card(x: float, y: float, card: int, playable: bool = False) -> list[dict[str, JSON]]:
    colour = "#c01818" if suitOf(card) in (HEARTS, DIAMONDS) else "#000000"
    return [
        {"tag": "rect", "x": x, "y": y, "width": CARD_W - 2, "height": CARD_H, "rx": 3,
         "fill": "#fffbe6" if playable else "#ffffff", "stroke": "#333333"},
        {"tag": "text", "x": x + 2, "y": y + 18, "font-size": 12, "fill": colour,
         "content": cardLabel(card)},
        {"tag": "text", "x": x + 2, "y": y + CARD_H - 6, "font-size": 9, "fill": "#777777",
         "content": str(card)},
    ]


def _button(zone: Zone, label: str, enabled: bool) -> list[dict[str, JSON]]:
    return [
        {"tag": "rect", "x": zone.x, "y": zone.y, "width": zone.width, "height": zone.height,
         "rx": 4, "fill": "#f0e6c8" if enabled else "#777777", "stroke": "#333333"},
        {"tag": "text", "x": zone.x + 8, "y": zone.y + 21, "font-size": 14, "fill": "#000000",
         "content": label},
    ]


# -- the bot -----------------------------------------------------------------


def handStrength(hand: Iterable[int]) -> int:
    """
    A classic bidding count: the 21 10, the excuse 8, the petit 8 (less when
    poorly guarded), each trump 2 (+1 from the 16 up), kings 6, queens 3,
    knights 2, jacks 1, and long suits and voids (with trumps) a bonus.
    """
    cards = set(hand)
    trumps = [c for c in cards if isTrump(c)]
    n = len(trumps)
    score = 0
    if MONDE in cards:
        score += 10
    if EXCUSE in cards:
        score += 8
    if PETIT in cards:
        score += 8 if n >= 6 else 5 if n >= 4 else 1
    score += sum(2 + (rankOf(c) >= 16) for c in trumps)
    for suit in SUITS:
        inSuit = [c for c in cards if suitOf(c) == suit]
        for c in inSuit:
            score += {14: 6, 13: 3, 12: 2, 11: 1}.get(rankOf(c), 0)
        if len(inSuit) >= 5:
            score += 2 * (len(inSuit) - 3)
        elif not inSuit and n >= 5:
            score += 6
        elif len(inSuit) == 1 and n >= 5:
            score += 3
    return score


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
    length = {s: sum(1 for c in cards if suitOf(c) == s) for s in SUITS}
    chosen: list[int] = []
    voidable = sorted((s for s in SUITS if length[s] and all(not isKing(c) for c in cards
                                                               if suitOf(c) == s)),
                      key=lambda s: length[s])
    for suit in voidable:
        inSuit = [c for c in ordinary if suitOf(c) == suit]
        if len(chosen) + len(inSuit) <= CHIEN_SIZE:
            chosen += inSuit
    rest = sorted((c for c in ordinary if c not in chosen),
                  key=lambda c: (length[suitOf(c)], -cardPoints(c), -c))
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


def _beats(card: int, best: int, suit: int | None) -> bool:
    if card == EXCUSE:
        return False
    if isTrump(card):
        return not isTrump(best) or card > best
    return not isTrump(best) and suitOf(card) == suit and card > best


def botCard(view: TarotView) -> int:
    """Card play with the obvious habits (see L{tarotBot})."""
    legal = list(view.legalCards)
    if len(legal) == 1:
        return legal[0]
    seat, hand = view.seat, view.hand
    leader = view.leader if view.leader is not None else seat
    order = [(leader + i) % PLAYERS for i in range(PLAYERS)]
    played = [(s, view.trick[s]) for s in order if view.trick[s] != NOBODY]
    amTaker = seat == view.taker

    def partner(other: Seat) -> bool:
        return (other == view.taker) == amTaker

    plain = [c for c in legal if c != EXCUSE]
    cheapest = min(plain, key=_cost) if plain else EXCUSE
    if EXCUSE in legal and (len(hand) <= 3 or not plain):
        return EXCUSE  # early-ish, never kept for the last trick
    if not played:
        return _lead(plain, hand, amTaker) if plain else EXCUSE
    cards = [c for _, c in played]
    suit = ledSuit(cards)
    index = trickWinner(cards)
    winnerSeat, best = (played[index] if index >= 0 else (NOBODY, -1))
    last = len(played) == PLAYERS - 1
    if best < 0:  # only the excuse was led
        return cheapest
    winners = [c for c in plain if _beats(c, best, suit)]
    if partner(winnerSeat):
        safe = last or best == MONDE or (isTrump(best) and rankOf(best) >= 18)
        if safe:
            if PETIT in plain and (PETIT not in winners or last):
                return PETIT  # the petit saved on a partner's sure trick
            nonTrumps = [c for c in plain if not isTrump(c)]
            if nonTrumps:
                return max(nonTrumps, key=lambda c: (cardPoints(c), c))
        lows = [c for c in plain if c != PETIT] or plain
        return min(lows, key=_cost)
    if winners:
        if last:
            if PETIT in winners:
                return PETIT
            return min(winners, key=_cost)
        if not isTrump(best) and suit is not None and suit != TRUMPS:
            kings = [c for c in winners if isKing(c)]
            if kings:
                return kings[0]
        withoutPetit = [c for c in winners if c != PETIT]
        if withoutPetit:
            return (min(withoutPetit, key=_cost) if not isTrump(min(withoutPetit))
                    else _midTrump(withoutPetit))
    losers = [c for c in plain if c not in winners and c != PETIT] or plain
    choice = min(losers, key=_cost)
    if EXCUSE in legal and (choice == PETIT or (not isTrump(choice) and cardPoints(choice) >= 3)):
        return EXCUSE  # rather than a face card or the petit lost to the other side
    return choice


def _midTrump(trumps: Sequence[int]) -> int:
    """The lowest trump above 10 that wins, else the lowest (keeps the biggest for later)."""
    above = [c for c in sorted(trumps) if rankOf(c) > 10 and c != MONDE]
    return above[0] if above else min(trumps, key=_cost)


def _lead(plain: Sequence[int], hand: Sequence[int], amTaker: bool) -> int:
    trumps = [c for c in hand if isTrump(c)]
    kings = [c for c in plain if isKing(c)]
    if kings:
        return kings[0]
    if amTaker and len(trumps) >= 8:
        pulling = [c for c in plain if isTrump(c) and c not in (PETIT, MONDE)]
        if pulling:
            return max(pulling)
    suits = [c for c in plain if not isTrump(c)]
    if suits:
        length = {s: sum(1 for c in hand if suitOf(c) == s) for s in SUITS}
        return min(suits, key=lambda c: (-length[suitOf(c)], _cost(c)))
    others = [c for c in plain if c != PETIT] or list(plain)
    return min(others, key=_cost)


def tarotBot(view: TarotView, seat: Seat) -> JSON:
    """
    The engine's bot, from what ``seat`` may see: bids from hand strength,
    a discard that makes voids and keeps kings and oudlers, card play that
    wins cheaply, spares big trumps, saves the petit, loads a partner's
    winning trick and plays the excuse before the end.  Replays: always.
    """
    if view.phase == BIDDING:
        return {"bid": botBid(view.hand, view.bids)}
    if view.phase == DISCARD:
        return {"discard": list(botDiscard(view.hand))}
    if view.phase == PLAY:
        return {"card": botCard(view)}
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
        checked = checkParameters(self.parameters, params)
        if isinstance(checked, Errors):
            return checked
        seed = drawSeed(initvalues, rng)
        if isinstance(seed, Errors):
            return seed
        return TarotGame(checked, seed)

    def bot(self, params: Mapping[str, JSON]) -> Bot:
        return tarotBot


TAROT = TarotEngine()
ENGINE = TAROT
