"""Tests for gameproto.games.tarot (French Tarot for four, FFT rules, its bot and engine)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from types import MappingProxyType
from typing import Any, TypeVar, cast

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    BadFormat,
    Display,
    Errors,
    Event,
    IncorrectValue,
    Instructions,
    MissingArgument,
    Pick,
    RequestedAction,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
    Zone,
)
from gameproto.engine.record import GameRecord, RecordedAction, replay
from gameproto.games.tarot import (
    _COST,
    _FACE,
    _POINTS,
    _RANK,
    _SUIT,
    DECK,
    DISCARD_REGEX,
    EXCUSE,
    GARDE,
    GARDE_CONTRE,
    GARDE_SANS,
    MONDE,
    MULTIPLIERS,
    NOBODY,
    OUDLERS,
    PASS,
    PETIT,
    PETITE,
    TAROT,
    TarotGame,
    TarotView,
    _buttonZones,
    _cost,
    _legal,
    CARD_H,
    CARD_W,
    HEIGHT,
    WIDTH,
    botDiscard,
    cardFace,
    cardLabel,
    cardPoints,
    contractResult,
    countOudlers,
    countPoints,
    dealCards,
    dealExplanation,
    dealScores,
    discardable,
    handPlaces,
    hasPetitSec,
    isKing,
    isLegalDiscard,
    isTrump,
    legalBids,
    legalCards,
    rankOf,
    suitOf,
    tarotBot,
    trickWinner,
    whyNotBid,
    whyNotCard,
)

# Card names for readable tests: suits of 14 (1..10, V, C, D, R), trumps T(n).
CLUBS, SPADES, HEARTS, DIAMONDS = 0, 14, 28, 42


def c(suit: int, rank: int) -> int:
    """The card of rank 1..14 (11 knave, 12 knight, 13 queen, 14 king) in ``suit``."""
    return suit + rank - 1


def T(n: int) -> int:
    """Trump ``n`` (1..21)."""
    return PETIT + n - 1


KING, QUEEN, KNIGHT, JACK = 14, 13, 12, 11
LABELS = {cardFace(card): card for card in DECK}
"""Cards by the labels the displays show."""
PETIT_SEC_SEED = 514
"""A seed whose first deal (dealer 0) gives seat 1 a petit sec (found by search)."""


_T = TypeVar("_T")


def narrow(value: object, kind: type[_T]) -> _T:
    """``value``, known to be a ``kind``."""
    assert isinstance(value, kind), value
    return value


def texts(content: Iterable[object]) -> list[str]:
    """Every text a display's tags hold, nested ones (a group's) included."""
    found: list[str] = []
    for tag in content:
        if isinstance(tag, dict):
            inner = tag.get("content")
            if isinstance(inner, list):
                found.extend(texts(inner))
            elif inner is not None:
                found.append(str(inner))
    return found


def zonesOf(request: RequestedAction) -> tuple[Zone, ...]:
    """The zones of a CLICK request."""
    assert request.zones is not None, request
    return request.zones


def discardOf(game: TarotGame) -> list[int]:
    """The taker's discard, in a game that has one."""
    assert game.discard is not None
    return list(game.discard)


def start(seed: int = 0, dealer: int = 0) -> TarotGame:
    game = TAROT.start({"dealer": dealer}, {"seed": seed})
    assert isinstance(game, TarotGame)
    return game


def ok(outcome: Instructions | Errors) -> Instructions:
    assert isinstance(outcome, Instructions), outcome
    return outcome


def errorOf(outcome: Instructions | Errors) -> object:
    assert isinstance(outcome, Errors), outcome
    assert len(outcome.errors) == 1
    return outcome.errors[0]


def kinds(instructions: Instructions) -> list[str]:
    return [e.kind for e in instructions.events]


def bidAll(game: TarotGame, bids: Sequence[int]) -> Instructions:
    """Play the four bids in speaking order (from the seat after the dealer)."""
    outcome = None
    for i, bid in enumerate(bids):
        seat = (game.dealer + 1 + i) % 4
        outcome = ok(game.act(seat, {"bid": bid}))
    assert outcome is not None
    return outcome


def rig(hands: Sequence[Iterable[int]], chien: Iterable[int], dealer: int = 0) -> TarotGame:
    """A game whose current deal is ``hands`` and ``chien``, still in its bidding."""
    game = start(0, dealer)
    assert game.phase == "bidding"
    game.hands = [set(h) for h in hands]
    game.dealt = tuple(tuple(sorted(h)) for h in hands)
    game.chien = tuple(sorted(chien))
    assert sorted(game.cardsInPlay()) == list(DECK)
    return game


def endgame(
    hands: Sequence[Sequence[int]],
    *,
    taker: int = 0,
    contract: int = GARDE,
    takerWon: Iterable[int] = (),
    aside: Iterable[int] | None = None,
    leader: int = 0,
) -> TarotGame:
    """
    A game in its play phase with ``hands`` left to play.  ``takerWon`` is
    in the taker's tricks; ``aside`` is the discard (petite, garde) or the
    chien (garde sans, contre); every other card is in seat
    ``(taker + 1) % 4``'s tricks (the defence).
    """
    game = start(0)
    held = {card for hand in hands for card in hand}
    takerWon = list(takerWon)
    if aside is None:
        free = [card for card in range(56) if card not in held and card not in takerWon
                and not isKing(card)]
        aside = free[:6]
    aside = tuple(sorted(aside))
    rest = sorted(set(DECK) - held - set(takerWon) - set(aside))
    game.hands = [set(h) for h in hands]
    game.won = [[] for _ in range(4)]
    game.won[taker] = takerWon
    game.won[(taker + 1) % 4] = rest
    game.taker, game.contract = taker, contract
    game.bids = [contract if s == taker else PASS for s in range(4)]
    game.chien = aside
    game.discard = aside if contract in (PETITE, GARDE) else None
    game.phase = "play"
    game.tricksPlayed = 18 - len(hands[0])
    game.leader = game.turn = leader
    assert sorted(game.cardsInPlay()) == list(DECK)
    return game


def playTricks(game: TarotGame, cards: Sequence[int]) -> Instructions:
    """Play ``cards`` in order, each by the seat to play."""
    outcome = None
    for card in cards:
        assert game.turn is not None
        outcome = ok(game.act(game.turn, {"card": card}))
    assert outcome is not None
    return outcome


def lastScore(instructions: Instructions) -> dict:
    scores = [e.data for e in instructions.events if e.kind == "score"]
    assert len(scores) == 1
    return scores[0]


# -- random legal play -------------------------------------------------------


def randomDiscard(hand: Iterable[int], rng: random.Random) -> list[int]:
    ordinary, trumps = discardable(hand)
    if len(ordinary) >= 6:
        return rng.sample(ordinary, 6)
    return ordinary + rng.sample(trumps, 6 - len(ordinary))


def randomAction(view: TarotView, rng: random.Random, replay: bool = True) -> dict:
    """A random legal action for the view's seat."""
    if view.phase == "bidding":
        if rng.random() < 0.55:
            return {"bid": PASS}
        return {"bid": rng.choice(legalBids(view.bids))}
    if view.phase == "discard":
        return {"discard": randomDiscard(view.hand, rng)}
    if view.phase == "play":
        return {"card": rng.choice(view.legalCards)}
    return {"replay": replay}


def eventCards(event: Event) -> set[int]:
    """Every card an event names."""
    data = event.data
    if event.kind in ("deal", "chien", "discard", "shown-trumps"):
        return set(data)
    if event.kind == "card":
        return {data}
    if event.kind == "trick":
        return {card for card in data["cards"] if card != NOBODY}
    if event.kind == "score":
        return set(data["chien"])
    return set()


def viewCards(view: TarotView) -> set[int]:
    """Every card a view names."""
    cards = set(view.hand) | set(view.chien or ()) | set(view.discard or ())
    cards |= set(view.shownTrumps) | set(view.trick) | set(view.previousTrick)
    cards |= set(view.legalCards)
    if view.lastScore is not None and view.phase in ("end", "over"):
        cards |= set(view.lastScore["chien"])
    return cards - {NOBODY}


def displayCards(display: Display) -> set[int]:
    """Every card drawn in a display (by its label)."""
    return {LABELS[tag["content"]] for tag in display.content
            if tag.get("tag") == "text" and tag.get("content") in LABELS}


def hiddenFrom(game: TarotGame, seat: int) -> set[int]:
    """The cards ``seat`` may not know now: other hands (less the shown chien), a hidden chien or discard."""
    shownChien = set(game.chien) if game.contract in (PETITE, GARDE) else set()
    ended = game.phase in ("end", "over")
    hidden = {card for other in range(4) if other != seat for card in game.hands[other]}
    hidden -= shownChien
    if game.discard is not None and seat != game.taker and not ended:
        hidden |= set(game.discard) - shownChien - {card for card in game.discard if isTrump(card)}
    if not ended and (game.phase == "bidding" or game.contract in (GARDE_SANS, GARDE_CONTRE)):
        hidden |= set(game.chien)
    return hidden


class Checker:
    """Runs a session with random legal actions, checking the invariants after each step."""

    def __init__(self, test: SynchronousTestCase, seed: int, rng: random.Random) -> None:
        self.test = test
        self.game = start(seed, rng.randrange(4))
        self.rng = rng
        self.actions: list[RecordedAction] = []
        self.tricks: list[tuple[int, dict]] = []
        first = self.game.instructions()
        self.test.assertEqual(first.initvalues, {"seed": seed})
        self.check(first)

    def check(self, instructions: Instructions) -> None:
        game, test = self.game, self.test
        # 78 cards, each once
        test.assertEqual(sorted(game.cardsInPlay()), list(DECK))
        for seat in range(4):
            view = game.view(seat)
            test.assertEqual(view.hand, tuple(sorted(game.hands[seat])))
            hidden = hiddenFrom(game, seat)
            test.assertEqual(viewCards(view) & hidden, set())
            test.assertEqual(displayCards(game.display(seat)) & hidden, set())
            for event in instructions.forSeat(seat).events:
                test.assertEqual(eventCards(event) & hidden, set(), (seat, event))
            if view.toPlay == seat and view.phase == "play":
                test.assertTrue(view.legalCards)
                test.assertTrue(set(view.legalCards) <= set(view.hand))
            elif view.phase != "play" or view.toPlay != seat:
                test.assertEqual(view.legalCards, ())
        # every deal sums to zero, totals are the sum of the deals
        for score in game.history:
            test.assertEqual(sum(score["scores"]), 0)
        test.assertEqual(list(game.totals),
                         [sum(s["scores"][seat] for s in game.history) for seat in range(4)])
        test.assertEqual(instructions.game_state.scores, tuple(game.totals))
        test.assertEqual(instructions.game_state.gameover, game.phase == "over")
        waiting = {r.player for r in instructions.requested_actions}
        test.assertEqual(waiting, set(game.waitingFor()))

    def run(self, deals: int) -> None:
        game = self.game
        while game.phase != "over":
            seat = self.rng.choice(game.waitingFor())
            action = randomAction(game.view(seat), self.rng, replay=game.dealNumber < deals)
            outcome = ok(game.act(seat, action))
            self.actions.append(RecordedAction(seat, action, 0.0))
            for event in outcome.events:
                if event.kind == "trick":
                    self.tricks.append((len(self.actions), event.data))
            self.check(outcome)


class PropertyTests(SynchronousTestCase):
    """Invariants over random seeds and random legal play."""

    @settings(max_examples=25)
    @given(st.integers(0, 2**53 - 1), st.integers(0, 2**32))
    def test_randomSessions(self, seed: int, choices: int) -> None:
        """Conservation, legal cards, zero-sum deals, totals, and no leak in views, displays or events."""
        Checker(self, seed, random.Random(choices)).run(deals=2)

    @settings(max_examples=10)
    @given(st.integers(0, 2**53 - 1), st.integers(0, 2**32), st.booleans())
    def test_replayReproducesEveryTrick(self, seed: int, choices: int, resign: bool) -> None:
        """A GameRecord of the same initvalues and actions replays every trick and score."""
        checker = Checker(self, seed, random.Random(choices))
        checker.run(deals=2)
        game = checker.game
        actions = list(checker.actions)
        if resign:
            actions = actions[: len(actions) // 2] + [RecordedAction(2, None, 0.0, "resign")]
        record = GameRecord(1, "tarot", dict(game.params), dict(game.initvalues),
                            ["a", "b", "c", "d"], 0.0, actions)
        if not resign:
            rebuilt = cast(TarotGame, replay(TAROT, record))
            self.assertEqual(rebuilt.history, game.history)
            self.assertEqual(rebuilt.totals, game.totals)
            self.assertEqual(rebuilt.phase, "over")
            for turn, trick in checker.tricks:
                again = replay(TAROT, record, turn=turn)
                self.assertEqual(list(again.view(0).previousTrick), trick["cards"])
        else:
            rebuilt = cast(TarotGame, replay(TAROT, record))
            self.assertEqual(rebuilt.phase, "over")
            self.assertTrue(rebuilt.instructions().game_state.gameover)

    @settings(max_examples=50)
    @given(st.lists(st.sampled_from(DECK), min_size=24, max_size=24, unique=True))
    def test_botDiscardIsLegal(self, hand: list[int]) -> None:
        """Any 24-card hand: the bot's discard is legal, without kings or oudlers."""
        discard = botDiscard(hand)
        self.assertTrue(isLegalDiscard(hand, discard))
        self.assertFalse(any(isKing(card) or card in OUDLERS for card in discard))


# -- cards and dealing -------------------------------------------------------


class CardTests(SynchronousTestCase):
    def test_total(self) -> None:
        """91 points in the deck: 182 half-points; three oudlers, four kings."""
        self.assertEqual(countPoints(DECK), 182)
        self.assertEqual(countOudlers(DECK), 3)
        self.assertEqual(sum(1 for card in DECK if isKing(card)), 4)
        self.assertEqual(sum(1 for card in DECK if isTrump(card)), 21)

    def test_values(self) -> None:
        """Oudlers and kings 4.5, queens 3.5, knights 2.5, jacks 1.5, the rest 0.5."""
        for card, half in ((PETIT, 9), (MONDE, 9), (EXCUSE, 9), (c(HEARTS, KING), 9),
                           (c(SPADES, QUEEN), 7), (c(CLUBS, KNIGHT), 5),
                           (c(DIAMONDS, JACK), 3), (c(DIAMONDS, 10), 1), (c(CLUBS, 1), 1),
                           (T(2), 1), (T(20), 1)):
            self.assertEqual(cardPoints(card), half, cardLabel(card))

    def test_labels(self) -> None:
        self.assertEqual(cardLabel(13), "R\u2663")
        self.assertEqual([cardFace(c) for c in (13, 38, 39, 40, 1, 56, 77)],
                         ["K\u2663", "J\u2665", "Kn\u2665", "Q\u2665", "2\u2663", "T1", "Exc"])
        self.assertEqual(len({cardFace(c) for c in DECK}), 78)
        self.assertEqual(cardLabel(14), "1\u2660")
        self.assertEqual(cardLabel(56), "T1")
        self.assertEqual(cardLabel(76), "T21")
        self.assertEqual(cardLabel(77), "Exc")
        self.assertEqual(len(LABELS), 78)


class DealTests(SynchronousTestCase):
    def test_dealing(self) -> None:
        """18 cards x 4 and a chien of 6: the whole deck, sorted hands."""
        hands, chien = dealCards(7, 1, 0)
        self.assertEqual([len(h) for h in hands], [18] * 4)
        self.assertEqual(len(chien), 6)
        self.assertEqual(sorted(card for h in hands for card in h),
                         sorted(set(DECK) - set(chien)))
        for hand in hands:
            self.assertEqual(list(hand), sorted(hand))

    def test_deterministic(self) -> None:
        """The seed fixes every deal; deals of one session differ."""
        self.assertEqual(dealCards(7, 1, 0), dealCards(7, 1, 0))
        self.assertNotEqual(dealCards(7, 1, 0), dealCards(7, 2, 0))
        self.assertNotEqual(dealCards(7, 1, 0), dealCards(8, 1, 0))
        self.assertEqual(start(7).dealt, start(7).dealt)

    def test_dealEvents(self) -> None:
        """A public 'dealt', then each seat's hand to that seat only."""
        game = start(3, dealer=2)
        first = game.instructions()
        self.assertEqual(first.events[0], Event("dealt", {"dealer": 2, "deal": 1}))
        deals = [e for e in first.events if e.kind == "deal"]
        self.assertEqual([e.audience for e in deals], [frozenset({s}) for s in range(4)])
        self.assertEqual([tuple(e.data) for e in deals], list(game.dealt))
        for seat in range(4):
            mine = [e for e in first.forSeat(seat).events if e.kind == "deal"]
            self.assertEqual(len(mine), 1)
            self.assertEqual(mine[0].seat, seat)

    def test_biddingStartsAfterDealer(self) -> None:
        game = start(3, dealer=2)
        self.assertEqual(game.waitingFor(), (3,))
        self.assertEqual(game.view(0).dealer, 2)


class PetitSecTests(SynchronousTestCase):
    def test_rule(self) -> None:
        """Only the petit as trump, and no excuse: petit sec."""
        plain = [c(CLUBS, n) for n in range(1, 15)] + [c(SPADES, n) for n in range(1, 4)]
        self.assertTrue(hasPetitSec(plain + [PETIT]))
        self.assertFalse(hasPetitSec(plain[:-1] + [PETIT, EXCUSE]))
        self.assertFalse(hasPetitSec(plain[:-1] + [PETIT, T(2)]))
        self.assertFalse(hasPetitSec(plain + [T(2)]))

    def test_voidsTheDeal(self) -> None:
        """Detected at the deal: no bidding, a score of zeros, then the replay question."""
        game = start(PETIT_SEC_SEED)
        self.assertTrue(hasPetitSec(game.dealt[1]))
        first = game.instructions()
        self.assertEqual(kinds(first), ["dealt", "deal", "deal", "deal", "deal",
                                        "petit-sec", "score"])
        self.assertEqual(first.events[5].data, {"seat": 1})
        score = lastScore(first)
        self.assertEqual(score["reason"], "petit-sec")
        self.assertEqual(score["contract"], PASS)
        self.assertEqual(score["scores"], [0, 0, 0, 0])
        self.assertEqual(score["chien"], list(game.chien))
        self.assertEqual(game.phase, "end")
        self.assertEqual(game.waitingFor(), (0, 1, 2, 3))
        for seat in range(4):
            ok(game.act(seat, {"replay": True}))
        self.assertEqual((game.dealNumber, game.dealer), (2, 1))


# -- bidding -----------------------------------------------------------------


class BiddingTests(SynchronousTestCase):
    def test_highestTakes(self) -> None:
        game = start(0)
        steps = bidAll(game, [PETITE, PASS, GARDE, PASS])
        self.assertEqual((game.taker, game.contract), (3, GARDE))
        self.assertEqual(game.view(0).bids, (PASS, PETITE, PASS, GARDE))
        self.assertIn(Event("bids", [PASS, PETITE, PASS, GARDE]), steps.events)
        self.assertEqual(game.phase, "discard")
        self.assertEqual(game.waitingFor(), (3,))

    def test_mustRise(self) -> None:
        """A bid not higher than the highest so far is refused, and nothing changes."""
        game = start(0)
        ok(game.act(1, {"bid": GARDE}))
        before = game.view(2)
        for bid in (PETITE, GARDE):
            error = errorOf(game.act(2, {"bid": bid}))
            self.assertIsInstance(error, WrongAction)
            assert isinstance(error, WrongAction)
            self.assertEqual(error.subtype, WrongActionSubtype.OUT_OF_ZONE)
            self.assertEqual(error.requested_action["player"], 3)
        self.assertEqual(game.view(2), before)
        ok(game.act(2, {"bid": GARDE_SANS}))
        self.assertEqual(legalBids(game.bids), (PASS, GARDE_CONTRE))

    def test_bidEvents(self) -> None:
        game = start(0)
        steps = ok(game.act(1, {"bid": PETITE}))
        self.assertEqual(steps.events, (Event("bid", PETITE, 1),))
        self.assertEqual(game.view(0).bids, (-1, PETITE, -1, -1))

    def test_allPass(self) -> None:
        """All pass: final bids of zeros, the chien shown, a deal not played."""
        game = start(0)
        steps = bidAll(game, [PASS] * 4)
        self.assertEqual(kinds(steps), ["bid", "bids", "chien", "score"])
        self.assertEqual(steps.events[1].data, [0, 0, 0, 0])
        self.assertEqual(steps.events[2], Event("chien", list(game.chien)))
        score = lastScore(steps)
        self.assertEqual((score["reason"], score["contract"], score["taker"]),
                         ("all-pass", PASS, None))
        self.assertEqual(score["totals"], [0, 0, 0, 0])
        self.assertEqual(game.view(2).chien, game.chien)
        self.assertEqual(len(steps.requested_actions), 4)

    def test_gardeSansHidesTheChien(self) -> None:
        """Garde sans: no chien shown, play starts at once; the chien appears at the end only."""
        game = start(0)
        steps = bidAll(game, [GARDE_SANS, PASS, PASS, PASS])
        self.assertNotIn("chien", kinds(steps))
        self.assertEqual(game.phase, "play")
        self.assertEqual(game.waitingFor(), (1,))
        for seat in range(4):
            self.assertIsNone(game.view(seat).chien)
            self.assertEqual(len(game.view(seat).hand), 18)


# -- the discard -------------------------------------------------------------


def _discardGame() -> TarotGame:
    """Seat 1 takes a petite with a known hand and chien."""
    hand1 = ([c(CLUBS, n) for n in range(1, 11)] + [c(CLUBS, KING), c(HEARTS, KING)]
             + [T(2), T(3), T(4), PETIT, MONDE, EXCUSE])
    chien = [c(SPADES, 1), c(SPADES, 2), c(SPADES, KING), T(5), c(HEARTS, 1), c(HEARTS, 2)]
    rest = sorted(set(DECK) - set(hand1) - set(chien))
    hands = [rest[0:18], hand1, rest[18:36], rest[36:54]]
    game = rig(hands, chien)
    bidAll(game, [PETITE, PASS, PASS, PASS])
    return game


class DiscardTests(SynchronousTestCase):
    def test_chienShownAndTaken(self) -> None:
        game = start(0)
        steps = bidAll(game, [PASS, GARDE, PASS, PASS])
        self.assertEqual(steps.events[-1], Event("chien", list(game.chien)))
        self.assertEqual(len(game.view(2).hand), 24)
        self.assertTrue(set(game.chien) <= set(game.view(2).hand))
        for seat in range(4):
            self.assertEqual(game.view(seat).chien, game.chien)

    def test_noKingNoOudler(self) -> None:
        game = _discardGame()
        plain = [c(CLUBS, n) for n in range(1, 6)]
        for bad in (c(CLUBS, KING), PETIT, MONDE, EXCUSE, T(2)):
            error = errorOf(game.act(1, {"discard": plain + [bad]}))
            self.assertIsInstance(error, WrongAction, cardLabel(bad))
        self.assertEqual(game.phase, "discard")

    def test_notHeld(self) -> None:
        game = _discardGame()
        error = errorOf(game.act(1, {"discard": [c(CLUBS, n) for n in range(1, 6)]
                                     + [c(DIAMONDS, 1)]}))
        self.assertIsInstance(error, WrongAction)

    def test_malformed(self) -> None:
        game = _discardGame()
        for value in ([0, 1, 2, 3, 4], [0, 0, 1, 2, 3, 4], "abc", [0, 1, 2, 3, 4, 99],
                      [0, 1, 2, 3, 4, True]):
            self.assertIsInstance(errorOf(game.act(1, {"discard": value})), BadFormat)

    def test_accepted(self) -> None:
        """A discard of plain cards: private to the taker, then the seat after the dealer leads."""
        game = _discardGame()
        discard = [c(CLUBS, n) for n in range(1, 4)] + [c(SPADES, 1), c(SPADES, 2),
                                                         c(HEARTS, 1)]
        steps = ok(game.act(1, {"discard": discard}))
        self.assertEqual(steps.events, (Event("discard", sorted(discard), 1, frozenset({1})),))
        self.assertEqual(steps.forSeat(0).events, ())
        self.assertEqual(game.view(1).discard, tuple(sorted(discard)))
        self.assertIsNone(game.view(0).discard)
        self.assertEqual(len(game.view(1).hand), 18)
        self.assertEqual((game.phase, game.waitingFor()), ("play", (1,)))

    def test_trumpsOnlyWhenForced(self) -> None:
        """
        With fewer than six plain cards the taker must add trumps, exactly
        as many as needed, shown to everyone (FFT).
        """
        hand1 = ([c(suit, KING) for suit in (CLUBS, SPADES, HEARTS, DIAMONDS)]
                 + [T(n) for n in range(2, 16)])
        chien = [c(CLUBS, 1), c(CLUBS, 2), c(CLUBS, 3), c(SPADES, 1), T(16), T(17)]
        rest = sorted(set(DECK) - set(hand1) - set(chien))
        game = rig([rest[0:18], hand1, rest[18:36], rest[36:54]], chien)
        bidAll(game, [GARDE, PASS, PASS, PASS])
        plain = [c(CLUBS, 1), c(CLUBS, 2), c(CLUBS, 3), c(SPADES, 1)]
        self.assertIsInstance(errorOf(game.act(1, {"discard": plain[:3] + [T(2), T(3), T(4)]})),
                              WrongAction)
        self.assertIsInstance(errorOf(game.act(1, {"discard": plain + [T(2), MONDE]})),
                              WrongAction)
        self.assertEqual(botDiscard(game.view(1).hand), tuple(sorted(plain + [T(2), T(3)])))
        steps = ok(game.act(1, {"discard": plain + [T(2), T(3)]}))
        self.assertEqual(steps.events[-1], Event("shown-trumps", [T(2), T(3)], 1))
        self.assertEqual(game.view(0).shownTrumps, (T(2), T(3)))

    def test_ruleFunction(self) -> None:
        hand = [c(CLUBS, n) for n in range(1, 8)] + [T(n) for n in range(2, 19)]
        self.assertTrue(isLegalDiscard(hand, [c(CLUBS, n) for n in range(1, 7)]))
        self.assertFalse(isLegalDiscard(hand, [c(CLUBS, n) for n in range(1, 6)] + [T(2)]))


# -- play --------------------------------------------------------------------


class LegalCardTests(SynchronousTestCase):
    hand = [c(CLUBS, 3), c(CLUBS, KING), c(HEARTS, 5), T(4), T(12), EXCUSE]

    def test_lead(self) -> None:
        self.assertEqual(legalCards(self.hand, []), tuple(sorted(self.hand)))

    def test_follow(self) -> None:
        """The suit led must be followed; the excuse is always allowed."""
        self.assertEqual(legalCards(self.hand, [c(CLUBS, 7)]),
                         (c(CLUBS, 3), c(CLUBS, KING), EXCUSE))

    def test_mustTrump(self) -> None:
        self.assertEqual(legalCards(self.hand, [c(SPADES, 7)]), (T(4), T(12), EXCUSE))

    def test_overTrump(self) -> None:
        self.assertEqual(legalCards(self.hand, [c(SPADES, 7), T(8)]), (T(12), EXCUSE))

    def test_underTrump(self) -> None:
        """Unable to over-trump, still trump (under)."""
        self.assertEqual(legalCards(self.hand, [c(SPADES, 7), T(15)]), (T(4), T(12), EXCUSE))

    def test_trumpLed(self) -> None:
        self.assertEqual(legalCards(self.hand, [T(10)]), (T(12), EXCUSE))
        self.assertEqual(legalCards(self.hand, [T(10), T(14)]), (T(4), T(12), EXCUSE))

    def test_noSuitNoTrump(self) -> None:
        hand = [c(CLUBS, 3), c(HEARTS, 5), EXCUSE]
        self.assertEqual(legalCards(hand, [c(SPADES, 7)]), tuple(sorted(hand)))
        self.assertEqual(legalCards(hand, [T(3)]), tuple(sorted(hand)))

    def test_excuseLed(self) -> None:
        """A led excuse lets the next card set the suit."""
        self.assertEqual(legalCards(self.hand, [EXCUSE]), tuple(sorted(self.hand)))
        self.assertEqual(legalCards(self.hand, [EXCUSE, c(HEARTS, 2)]), (c(HEARTS, 5), EXCUSE))
        self.assertEqual(legalCards(self.hand, [EXCUSE, T(6)]), (T(12), EXCUSE))

    def test_excuseBetween(self) -> None:
        """An excuse played second changes nothing to the suit led."""
        self.assertEqual(legalCards(self.hand, [c(CLUBS, 7), EXCUSE]),
                         (c(CLUBS, 3), c(CLUBS, KING), EXCUSE))


class TrickWinnerTests(SynchronousTestCase):
    def test_highestOfSuit(self) -> None:
        self.assertEqual(trickWinner([c(CLUBS, 3), c(CLUBS, QUEEN), c(HEARTS, KING),
                                      c(CLUBS, 10)]), 1)

    def test_trumpWins(self) -> None:
        self.assertEqual(trickWinner([c(CLUBS, KING), T(2), c(CLUBS, 1), PETIT]), 1)
        self.assertEqual(trickWinner([T(3), T(21), T(20), EXCUSE]), 1)

    def test_excuseNeverWins(self) -> None:
        self.assertEqual(trickWinner([EXCUSE, c(HEARTS, 2), c(HEARTS, 1), c(CLUBS, KING)]), 1)
        self.assertEqual(trickWinner([c(HEARTS, 2), EXCUSE, c(HEARTS, 1), c(CLUBS, KING)]), 0)


class PlayTests(SynchronousTestCase):
    def test_cardEventsAndTrick(self) -> None:
        """Cards are public; a full trick names its cards by seat and its winner, who leads."""
        game = endgame([[c(CLUBS, 2), c(HEARTS, 1)], [c(CLUBS, 5), c(HEARTS, 2)],
                        [c(CLUBS, 9), c(HEARTS, 3)], [c(SPADES, 1), c(HEARTS, 4)]], leader=2)
        steps = playTricks(game, [c(CLUBS, 9), c(SPADES, 1), c(CLUBS, 2)])
        self.assertEqual(steps.events, (Event("card", c(CLUBS, 2), 0),))
        steps = ok(game.act(1, {"card": c(CLUBS, 5)}))
        self.assertEqual(steps.events[-1], Event(
            "trick", {"cards": [c(CLUBS, 2), c(CLUBS, 5), c(CLUBS, 9), c(SPADES, 1)],
                      "winner": 2}))
        self.assertEqual(game.view(3).previousTrick,
                         (c(CLUBS, 2), c(CLUBS, 5), c(CLUBS, 9), c(SPADES, 1)))
        self.assertEqual(game.view(3).trick, (-1, -1, -1, -1))
        self.assertEqual((game.turn, game.leader), (2, 2))

    def test_illegalCard(self) -> None:
        game = endgame([[c(CLUBS, 2), c(HEARTS, 1)], [c(CLUBS, 5), c(HEARTS, 2)],
                        [c(CLUBS, 9), c(HEARTS, 3)], [c(SPADES, 1), c(HEARTS, 4)]])
        ok(game.act(0, {"card": c(CLUBS, 2)}))
        for card in (c(HEARTS, 2), c(HEARTS, 3)):  # must follow clubs; not held
            error = errorOf(game.act(1, {"card": card}))
            self.assertIsInstance(error, WrongAction)
            assert isinstance(error, WrongAction)
            self.assertEqual(error.action, {"card": card})
        self.assertIsInstance(errorOf(game.act(1, {"card": 78})), BadFormat)
        self.assertIsInstance(errorOf(game.act(1, {"card": "5"})), BadFormat)
        self.assertIsInstance(errorOf(game.act(2, {"card": c(CLUBS, 9)})), UnexpectedAction)
        self.assertIsInstance(errorOf(game.act(1, {"bid": 1})), UnexpectedAction)
        self.assertEqual(game.view(1).trick, (c(CLUBS, 2), -1, -1, -1))


# -- the excuse, petit au bout, the chien's side -----------------------------


class ExcuseTests(SynchronousTestCase):
    def test_exchange(self) -> None:
        """
        The taker's excuse in a trick the defence wins stays with the taker,
        who gives back a half-point card: net, the taker's side keeps 4
        points of it and the defence gets 0.5.
        """
        hands = [[EXCUSE, c(CLUBS, 1)], [c(SPADES, 5), c(CLUBS, 2)],
                 [c(SPADES, 6), c(CLUBS, 3)], [c(SPADES, 7), c(CLUBS, 4)]]
        takerWon = [MONDE, PETIT] + [c(HEARTS, n) for n in range(1, 15)] + [T(n) for n in
                                                                              range(2, 15)]
        game = endgame(hands, taker=0, contract=GARDE, takerWon=takerWon, leader=0)
        discard = discardOf(game)
        steps = playTricks(game, [EXCUSE, c(SPADES, 5), c(SPADES, 6), c(SPADES, 7)])
        self.assertEqual(steps.events[-1].data["winner"], 3)
        self.assertIn(EXCUSE, game.won[0])
        self.assertEqual(game.excuseTransfer, -1)
        steps = playTricks(game, [c(CLUBS, 4), c(CLUBS, 1), c(CLUBS, 2), c(CLUBS, 3)])
        score = lastScore(steps)
        expected = countPoints(takerWon + discard + [EXCUSE]) - 1
        self.assertEqual(score["points"], expected)
        self.assertEqual(score["oudlers"], 3)
        defence = countPoints(set(DECK) - set(takerWon) - set(discard) - {EXCUSE}) + 1
        self.assertEqual(score["points"] + defence, 182)

    def test_noExchangeWithinASide(self) -> None:
        """A defender's excuse in a trick its partner wins: nothing crosses."""
        hands = [[c(SPADES, 5), c(CLUBS, 1)], [EXCUSE, c(CLUBS, 2)],
                 [c(SPADES, 9), c(CLUBS, 3)], [c(SPADES, 7), c(CLUBS, 4)]]
        game = endgame(hands, taker=0, leader=0)
        playTricks(game, [c(SPADES, 5), EXCUSE, c(SPADES, 9), c(SPADES, 7)])
        self.assertEqual(game.excuseTransfer, 0)
        self.assertIn(EXCUSE, game.won[1])

    def test_defenceExcuseToTaker(self) -> None:
        """A defender's excuse in a trick the taker wins: the taker's side gets the half-point."""
        hands = [[c(SPADES, KING), c(CLUBS, 1)], [EXCUSE, c(CLUBS, 2)],
                 [c(SPADES, 9), c(CLUBS, 3)], [c(SPADES, 7), c(CLUBS, 4)]]
        game = endgame(hands, taker=0, leader=0)
        playTricks(game, [c(SPADES, KING), EXCUSE, c(SPADES, 9), c(SPADES, 7)])
        self.assertEqual(game.excuseTransfer, 1)
        self.assertNotIn(EXCUSE, game.won[0])

    def test_lastTrickGoesToWinner(self) -> None:
        """
        The excuse played in the last trick goes to the side that wins it (FFT,
        no chelem): the taker loses it, and an oudler with it.
        """
        hands = [[EXCUSE], [c(SPADES, 5)], [c(SPADES, 6)], [c(SPADES, 7)]]
        takerWon = [MONDE, PETIT] + [c(HEARTS, n) for n in range(1, 15)]
        game = endgame(hands, taker=0, takerWon=takerWon, leader=0)
        discard = discardOf(game)
        steps = playTricks(game, [EXCUSE, c(SPADES, 5), c(SPADES, 6), c(SPADES, 7)])
        score = lastScore(steps)
        self.assertIn(EXCUSE, game.won[3])
        self.assertEqual(score["oudlers"], 2)
        self.assertEqual(score["points"], countPoints(takerWon + discard))

    def test_lastTrickWonByTaker(self) -> None:
        hands = [[c(SPADES, KING)], [EXCUSE], [c(SPADES, 6)], [c(SPADES, 7)]]
        game = endgame(hands, taker=0, takerWon=[], leader=0)
        discard = discardOf(game)
        steps = playTricks(game, [c(SPADES, KING), EXCUSE, c(SPADES, 6), c(SPADES, 7)])
        score = lastScore(steps)
        self.assertEqual(score["oudlers"], 1)
        self.assertEqual(score["points"],
                         countPoints(discard + [c(SPADES, KING), EXCUSE, c(SPADES, 6),
                                                c(SPADES, 7)]))


class PetitAuBoutTests(SynchronousTestCase):
    """Petit au bout: 10 x multiplier to the side that wins the last trick with the petit in it."""

    def test_taker(self) -> None:
        hands = [[PETIT], [c(SPADES, 5)], [c(SPADES, 6)], [c(SPADES, 7)]]
        game = endgame(hands, taker=0, contract=GARDE, leader=1)
        steps = playTricks(game, [c(SPADES, 5), c(SPADES, 6), c(SPADES, 7), PETIT])
        score = lastScore(steps)
        self.assertEqual(score["petitAuBout"], "taker")
        won, value = contractResult(GARDE, score["points"], score["oudlers"])
        signed = (value if won else -value) + 10 * 2
        self.assertEqual(score["scores"], [3 * signed, -signed, -signed, -signed])

    def test_defence(self) -> None:
        """The taker's petit caught in the last trick: the prime goes to the defence."""
        hands = [[PETIT], [T(2)], [c(SPADES, 6)], [c(SPADES, 7)]]
        game = endgame(hands, taker=0, contract=PETITE, leader=0)
        steps = playTricks(game, [PETIT, T(2), c(SPADES, 6), c(SPADES, 7)])
        score = lastScore(steps)
        self.assertEqual(score["petitAuBout"], "defence")
        won, value = contractResult(PETITE, score["points"], score["oudlers"])
        signed = (value if won else -value) - 10
        self.assertEqual(score["scores"], [3 * signed, -signed, -signed, -signed])

    def test_defenderPlaysIt(self) -> None:
        hands = [[c(SPADES, 1)], [c(SPADES, 4)], [PETIT], [c(SPADES, 7)]]
        game = endgame(hands, taker=0, contract=GARDE_SANS,
                       aside=[c(HEARTS, n) for n in range(1, 7)], leader=0)
        steps = playTricks(game, [c(SPADES, 1), c(SPADES, 4), PETIT, c(SPADES, 7)])
        self.assertEqual(lastScore(steps)["petitAuBout"], "defence")

    def test_notInLastTrick(self) -> None:
        hands = [[c(SPADES, 1)], [c(SPADES, 4)], [c(SPADES, 3)], [c(SPADES, 7)]]
        game = endgame(hands, taker=0, leader=0)
        steps = playTricks(game, [c(SPADES, 1), c(SPADES, 4), c(SPADES, 3), c(SPADES, 7)])
        self.assertIsNone(lastScore(steps)["petitAuBout"])


class ChienSideTests(SynchronousTestCase):
    """Petite/garde: the discard is the taker's; garde sans: the chien is; garde contre: the defence's."""

    chien = [MONDE, c(HEARTS, KING), c(HEARTS, QUEEN), c(HEARTS, 1), c(HEARTS, 2), c(HEARTS, 3)]

    def finish(self, contract: int) -> dict:
        hands = [[c(SPADES, 1)], [c(SPADES, 4)], [c(SPADES, 3)], [c(SPADES, 7)]]
        takerWon = [c(CLUBS, n) for n in range(1, 15)]
        game = endgame(hands, taker=0, contract=contract, takerWon=takerWon,
                       aside=self.chien, leader=0)
        steps = playTricks(game, [c(SPADES, 1), c(SPADES, 4), c(SPADES, 3), c(SPADES, 7)])
        return lastScore(steps)

    def test_gardeSans(self) -> None:
        score = self.finish(GARDE_SANS)
        self.assertEqual(score["oudlers"], 1)
        self.assertEqual(score["points"], countPoints([c(CLUBS, n) for n in range(1, 15)]
                                                      + self.chien))
        self.assertEqual(score["chien"], sorted(self.chien))

    def test_gardeContre(self) -> None:
        score = self.finish(GARDE_CONTRE)
        self.assertEqual(score["oudlers"], 0)
        self.assertEqual(score["points"], countPoints([c(CLUBS, n) for n in range(1, 15)]))
        self.assertFalse(score["won"])


# -- scoring -----------------------------------------------------------------


class ScoringTests(SynchronousTestCase):
    def test_thresholds(self) -> None:
        """56, 51, 41, 36 points by oudlers: reaching the threshold exactly wins by 0."""
        for oudlers, threshold in enumerate((56, 51, 41, 36)):
            self.assertEqual(contractResult(PETITE, 2 * threshold, oudlers), (True, 25))
            self.assertEqual(contractResult(PETITE, 2 * threshold - 2, oudlers), (False, 26))

    def test_multipliers(self) -> None:
        self.assertEqual(MULTIPLIERS, {PETITE: 1, GARDE: 2, GARDE_SANS: 4, GARDE_CONTRE: 6})
        for contract, factor in MULTIPLIERS.items():
            self.assertEqual(contractResult(contract, 2 * 51, 1), (True, 25 * factor))
            self.assertEqual(contractResult(contract, 2 * 61, 1), (True, 35 * factor))

    def test_halfPointRounding(self) -> None:
        """Our choice: a half-point difference counts as a whole point, either way."""
        self.assertEqual(contractResult(PETITE, 81, 2), (False, 26))  # 40.5 for 41
        self.assertEqual(contractResult(PETITE, 83, 2), (True, 26))   # 41.5 for 41
        self.assertEqual(contractResult(PETITE, 112 + 7, 0), (True, 29))  # 59.5 for 56

    def test_workedExamplesFromTheRuleText(self) -> None:
        """
        Worked examples from the FFT rule text: Règlement officiel à 4
        joueurs, version du 1er juillet 2019 (reproduced at
        https://tarometre.fr/official-rules): card values (91 points),
        points to make with 0/1/2/3 oudlers 56/51/41/36, every contract
        worth 25 points plus the points won or lost, times 1/2/4/6 for
        petite/garde/garde sans/garde contre, the petit au bout prime of 10
        times the same coefficient, given to the side that takes the last
        trick with the petit whatever the contract's result; at four the
        taker marks three times what each defender pays.  Example 1's 49
        points (against the defence's 42) is the count example of
        https://regles2jeux.fr/les-points-au-tarot; the others apply the
        same text to each contract.

        1. Garde, 2 oudlers, 49 points: won by 8 -> (25 + 8) x 2 = 66; the
           taker +198, each defender -66.
        2. Petite, 1 oudler, 47 points: lost by 4 -> (25 + 4) x 1 = 29; the
           taker -87, each defender +29.
        3. Garde sans, 3 oudlers, 36 points: won by 0 -> 25 x 4 = 100, and
           the defence's petit au bout -10 x 4: the taker +180, each -60.
        4. Garde contre, 0 oudler, 60.5 points: won by 4.5, counted 5 ->
           30 x 6 = 180, petit au bout to the taker +60: +720, each -240.
        """
        self.assertEqual(dealScores(GARDE, 2, 98, 2, None), (True, (-66, -66, 198, -66)))
        self.assertEqual(dealScores(PETITE, 0, 94, 1, None), (False, (-87, 29, 29, 29)))
        self.assertEqual(dealScores(GARDE_SANS, 3, 72, 3, False), (True, (-60, -60, -60, 180)))
        self.assertEqual(dealScores(GARDE_CONTRE, 1, 121, 0, True),
                         (True, (-240, 720, -240, -240)))

    def test_zeroSum(self) -> None:
        for contract in MULTIPLIERS:
            for points in range(0, 183, 7):
                for oudlers in range(4):
                    for petit in (None, True, False):
                        _, scores = dealScores(contract, points % 4, points, oudlers, petit)
                        self.assertEqual(sum(scores), 0)


# -- the session: replay, resign, errors -------------------------------------


def playDeal(game: TarotGame) -> Instructions:
    """Let bots play to the end of the current deal."""
    outcome = game.instructions()
    while game.phase not in ("end", "over"):
        seat = game.waitingFor()[0]
        outcome = ok(game.act(seat, tarotBot(game.view(seat), seat)))
    return outcome


class SessionTests(SynchronousTestCase):
    def test_replayAllTrue(self) -> None:
        """Everyone answers yes: the next deal, with the next dealer, and totals carried."""
        game = start(11, dealer=3)
        playDeal(game)
        totals = list(game.totals)
        for seat in (2, 0, 3):
            steps = ok(game.act(seat, {"replay": True}))
            self.assertEqual(steps.events, (Event("replay", True, seat),))
            self.assertEqual(game.waitingFor(), tuple(s for s in range(4) if
                                                      game.replayAnswers[s] is None))
        self.assertEqual(game.view(1).replayAnswers, (True, None, True, True))
        steps = ok(game.act(1, {"replay": True}))
        self.assertEqual(kinds(steps)[:2], ["replay", "dealt"])
        self.assertEqual((game.dealNumber, game.dealer), (2, 0))
        self.assertEqual(steps.events[1].data, {"dealer": 0, "deal": 2})
        self.assertEqual(game.totals, totals)
        self.assertEqual(game.dealt, dealCards(11, 2, 0)[0])
        self.assertEqual(game.waitingFor(), (1,))

    def test_replayFalse(self) -> None:
        """One seat says no: once all have answered, the session is over."""
        game = start(11)
        playDeal(game)
        ok(game.act(0, {"replay": False}))
        self.assertEqual(game.phase, "end")
        self.assertIsInstance(errorOf(game.act(0, {"replay": True})), UnexpectedAction)
        ok(game.act(1, {"replay": True}))
        ok(game.act(2, {"replay": True}))
        steps = ok(game.act(3, {"replay": True}))
        self.assertEqual(steps.events[-1],
                         Event("end", {"totals": list(game.totals), "reason": "replay"}))
        self.assertEqual(game.phase, "over")
        self.assertTrue(steps.game_state.gameover)
        self.assertEqual(steps.requested_actions, ())
        self.assertIsInstance(errorOf(game.act(0, {"replay": True})), UnexpectedAction)

    def test_replayFormat(self) -> None:
        game = start(11)
        playDeal(game)
        self.assertIsInstance(errorOf(game.act(0, {"replay": 1})), BadFormat)
        self.assertIsInstance(errorOf(game.act(0, {"card": 1})), UnexpectedAction)

    def test_resign(self) -> None:
        """Resigning ends the session with the totals so far."""
        game = start(11)
        playDeal(game)
        for seat in range(4):
            ok(game.act(seat, {"replay": True}))
        ok(game.act(game.waitingFor()[0], {"bid": PASS}))
        steps = game.resign(2)
        self.assertEqual(kinds(steps), ["resign", "end"])
        self.assertEqual(steps.events[0], Event("resign", None, 2))
        self.assertEqual(steps.game_state.scores, tuple(game.history[0]["totals"]))
        self.assertTrue(steps.game_state.gameover)
        self.assertEqual(game.view(0).phase, "over")
        self.assertIsInstance(errorOf(game.act(game.dealer, {"bid": PASS})), UnexpectedAction)
        self.assertEqual(game.resign(1).events, ())

    def test_actionErrors(self) -> None:
        """Wrong seat or kind: UNEXPECTED_ACTION; unreadable: BAD_FORMAT; nothing changes."""
        game = start(0)
        before = [game.view(s) for s in range(4)]
        for seat, action, error in (
            (0, {"bid": 1}, UnexpectedAction),
            (5, {"bid": 1}, UnexpectedAction),
            (1, {"card": 3}, UnexpectedAction),
            (1, {"replay": True}, UnexpectedAction),
            (1, {"bid": 5}, BadFormat),
            (1, {"bid": True}, BadFormat),
            (1, {"bid": "1"}, BadFormat),
            (1, {"bid": 1, "card": 2}, BadFormat),
            (1, {"jump": 1}, BadFormat),
            (1, 3, BadFormat),
        ):
            self.assertIsInstance(errorOf(game.act(seat, action)), error, action)
        self.assertEqual([game.view(s) for s in range(4)], before)


class EngineTests(SynchronousTestCase):
    def test_parameters(self) -> None:
        self.assertEqual(TAROT.name, "tarot")
        game = TAROT.start({}, rng=random.Random(5))
        self.assertIsInstance(game, TarotGame)
        assert isinstance(game, TarotGame)
        self.assertEqual(game.params, {"players": 4, "dealer": 0})
        again = narrow(TAROT.start({}, rng=random.Random(5)), TarotGame)
        self.assertEqual(game.initvalues, again.initvalues)
        self.assertEqual(game.players, 4)
        self.assertIsInstance(TAROT.start({"players": 3}), Errors)
        self.assertIsInstance(TAROT.start({"dealer": 4}), Errors)
        self.assertIsInstance(TAROT.start({"colour": 1}), Errors)
        self.assertEqual(narrow(TAROT.start({"dealer": "2"}, {"seed": 1}), TarotGame).dealer, 2)

    def test_initvalues(self) -> None:
        self.assertIsInstance(narrow(TAROT.start({}, {}), Errors).errors[0], MissingArgument)
        self.assertIsInstance(narrow(TAROT.start({}, {"seed": "x"}), Errors).errors[0],
                              IncorrectValue)
        self.assertEqual(start(42).instructions().initvalues, {"seed": 42})

    def test_bot(self) -> None:
        self.assertIs(TAROT.bot({}), tarotBot)

    def test_display(self) -> None:
        game = start(0)
        display = game.display(1)
        self.assertEqual((display.player, display.width, display.height), (1, 600, 936))
        self.assertEqual(displayCards(display), set(game.dealt[1]))
        self.assertTrue(any(tag.get("content") == "garde contre" for tag in display.content))
        display.asJSON()

    def test_displayReadable(self) -> None:
        """
        Hand cards: 78 units each way (of 600 wide: 44 px on a 390 px wide
        phone), labels of 24 units, in three rows inside the display.
        """
        game = start(0)
        display = game.display(1)
        cards = [t for t in display.content if t.get("class") == "card"]
        self.assertEqual(len(cards), 18)
        self.assertTrue(all(t["width"] >= 78 and t["height"] >= 78 for t in cards))
        self.assertTrue(all(t["y"] + t["height"] <= 936 for t in cards))
        self.assertTrue(all(t["x"] + t["width"] <= 600 for t in cards))
        self.assertEqual(len({t["y"] for t in cards}), 3)
        labels = [t for t in display.content if t.get("content") in LABELS]
        self.assertTrue(all(t["font-size"] >= 24 for t in labels))
        self.assertTrue(any("Kn knight" in str(t.get("content")) for t in display.content))

    def test_tapTargets(self) -> None:
        """
        Everything a seat is asked to click (bids, the discard's cards and
        proposal, the cards to play, another deal or stop) is at least 78
        units each way, inside the display: 44 px on a 390 px wide phone.
        """
        game = start(0)
        seen: set[str] = set()
        while game.phase != "over":
            for request in game.instructions().requested_actions:
                zones = list(request.zones or ()) + list(request.pick.zones if request.pick else ())
                for zone in zones:
                    self.assertGreaterEqual(min(zone.width, zone.height), 78, (game.phase, zone))
                    self.assertLessEqual(zone.x + zone.width, WIDTH)
                    self.assertLessEqual(zone.y + zone.height, HEIGHT)
                seen.add(game.phase)
            seat = game.waitingFor()[0]
            answer = tarotBot(game.view(seat), seat)
            ok(game.act(seat, {"replay": False} if game.phase == "end" else answer))
        self.assertEqual(seen, {"bidding", "discard", "play", "end"})

    def test_trickAndDealShown(self) -> None:
        """The last trick names each seat's card and its winner; the end explains the score."""
        game = start(11)
        for _ in range(200):
            seat = game.waitingFor()[0]
            ok(game.act(seat, tarotBot(game.view(seat), seat)))
            if game.phase == "play" and game.tricksPlayed == 1:
                break
        winner = game.lastTrickWinner
        assert winner is not None
        self.assertIn(f"Last trick: P{winner + 1} won it", texts(game.display(None).content))
        won = [t for t in game.display(None).content if t.get("class") == "card"
               and t.get("stroke") == "#facc15"]
        self.assertEqual([t["data-card"] for t in won], [game.previousTrick[winner]])
        playDeal(game)
        shown = texts(game.display(0).content)
        score = game.lastScore
        assert score is not None
        if score["reason"] == "played":
            self.assertTrue(any(t.startswith("Points: ") and "needed" in t for t in shown), shown)
            self.assertTrue(any(t.startswith("Value: (25 + ") for t in shown), shown)
        self.assertIn("Total", shown)
        self.assertTrue(any(t.startswith("This deal: ") for t in shown), shown)

    def sheetRows(self, display: Display) -> dict[str, list[str]]:
        """The score sheet a display shows: each row's label and the seats' points."""
        (sheet,) = [t for t in display.content if t.get("class") == "score-sheet"]
        cells: dict[tuple[float, float], list[dict[str, Any]]] = {}
        for tag in sheet["content"]:
            self.assertLessEqual(tag["x"], display.width)
            self.assertLessEqual(tag["y"] + 4, display.height)
            column = 16 if tag["x"] < 300 else 310  # the columns: labels at 16 or 310
            cells.setdefault((column, tag["y"]), []).append(tag)
        rows: dict[str, list[str]] = {}
        for (_, y), tags in sorted(cells.items()):
            label = [str(t["content"]) for t in tags if "text-anchor" not in t]
            points = [str(t["content"]) for t in sorted(tags, key=lambda t: t["x"])
                      if t.get("text-anchor") == "end"]
            self.assertEqual(len(label), 1, tags)
            if label[0] != "Deal":
                self.assertNotIn(label[0], rows)
                rows[label[0]] = points
        return rows

    def playDeals(self, deals: int) -> TarotGame:
        """A session of ``deals`` deals played by bots, at the end of the last one."""
        game = start(3)
        while True:
            playDeal(game)
            if game.dealNumber == deals:
                return game
            for seat in range(4):
                ok(game.act(seat, {"replay": True}))

    def test_scoreSheetEveryDeal(self) -> None:
        """After five deals the score sheet lists each one's points, then the totals."""
        game = self.playDeals(5)
        display = game.display(0)
        rows = self.sheetRows(display)
        self.assertEqual(list(rows), ["1", "2", "3", "4", "5", "Total"])
        for number, deal in enumerate(game.history, 1):
            self.assertEqual(rows[str(number)],
                             [f"{p:+d}" if p else "0" for p in deal["scores"]])
        self.assertEqual(rows["Total"], [str(t) for t in game.totals])
        self.assertEqual(display.height, 936)
        self.assertEqual(self.sheetRows(game.display(None)), rows)
        for seat, answer in enumerate([False, True, True, True]):
            ok(game.act(seat, {"replay": answer}))
        self.assertEqual(self.sheetRows(game.display(1)), rows)
        self.assertIn("Game over: P1 stopped after deal 5", texts(game.display(1).content))
        self.assertIn("Game over: you stopped after deal 5", texts(game.display(0).content))

    def test_scoreSheetLongSession(self) -> None:
        """Forty deals: two columns side by side, the display taller, each deal once, all inside."""
        game = self.playDeals(40)
        display = game.display(2)
        rows = self.sheetRows(display)
        self.assertEqual(list(rows), [str(n) for n in range(1, 41)] + ["Total"])
        self.assertEqual(rows["Total"], [str(t) for t in game.totals])
        self.assertGreater(display.height, 936)
        self.assertEqual(display.content[0]["height"], display.height)  # the table's cloth
        (sheet,) = [t for t in display.content if t.get("class") == "score-sheet"]
        self.assertEqual({t["x"] for t in sheet["content"] if "text-anchor" not in t}, {16, 310})

    def test_dealExplanation(self) -> None:
        """Contract, points against the threshold, multiplier and petit au bout, in words."""
        lines = dealExplanation({"reason": "played", "contract": GARDE, "taker": 1,
                                 "won": True, "points": 95, "oudlers": 2,
                                 "scores": [-84, 252, -84, -84], "petitAuBout": "taker"})
        self.assertEqual(lines[:4], [
            "P2 made the garde",
            "Points: 47.5 with 2 oudlers, needed 41: made by 7",
            "Value: (25 + 7) × 2 = 64",
            "Petit au bout (taker): 10 × 2 = 20",
        ])
        self.assertEqual(lines[-1], "This deal: P1 -84 · P2 +252 · P3 -84 · P4 -84")
        self.assertEqual(dealExplanation({"reason": "all-pass", "scores": [0, 0, 0, 0]})[0],
                         "Deal not played: everybody passed")

    def test_stateInWords(self) -> None:
        """The game state's text says what the last step did, and once over why it ended."""
        game = start(0)
        self.assertIn("deal 1: player 1 deals", game.instructions().game_state.text or "")
        self.assertEqual(ok(game.act(1, {"bid": PASS})).game_state.text, "player 2 passes")
        self.assertEqual(ok(game.act(2, {"bid": GARDE})).game_state.text,
                         "player 3 bids garde")
        over = game.resign(3)
        self.assertEqual(over.game_state.text, "player 4 gave up")
        self.assertEqual(over.game_state.asJSON()["text"], "player 4 gave up")

    def test_errorsInWords(self) -> None:
        """Refusals say why, from the rules."""
        game = endgame([[c(CLUBS, 2), c(HEARTS, 1)], [c(CLUBS, 5), c(HEARTS, 2)],
                        [c(CLUBS, 9), c(HEARTS, 3)], [c(SPADES, 1), T(4)]])
        ok(game.act(0, {"card": c(HEARTS, 1)}))
        error = errorOf(game.act(1, {"card": c(CLUBS, 5)}))
        assert isinstance(error, WrongAction)
        self.assertEqual(error.text, "That card is not allowed: you must follow hearts.")
        self.assertEqual(error.asJSON()["text"], error.text)
        self.assertEqual(narrow(game.act(2, {"card": c(HEARTS, 3)}), Errors).asJSON()
                         ["errors"][0]["text"], "It is not your turn.")
        self.assertEqual(whyNotCard([c(SPADES, 1), T(4)], [c(HEARTS, 1)], c(SPADES, 1)),
                         "That card is not allowed: you have no hearts, you must play a trump.")
        self.assertEqual(whyNotCard([T(4), T(9)], [T(6)], T(4)),
                         "That trump is not allowed: you must play a trump higher than the 6.")
        self.assertEqual(whyNotBid([GARDE, -1, -1, -1], PETITE),
                         "You must bid higher than garde, or pass.")
        bidding = start(0)
        self.assertEqual(narrow(bidding.act(1, {"card": 3}), Errors).asJSON()
                         ["errors"][0]["text"], "Not now: it is time to bid.")


class DecodeTests(SynchronousTestCase):
    def click(self, zone: Zone) -> dict:
        return {"type": "CLICK", "x": zone.x + 1, "y": zone.y + 1}

    def test_bids(self) -> None:
        game = start(0)
        ok(game.act(1, {"bid": GARDE}))
        [request] = game.instructions().requested_actions
        self.assertEqual(request.player, 2)
        self.assertEqual(len(zonesOf(request)), 3)  # pass, garde sans, garde contre
        self.assertEqual(game.decodeAction(2, self.click(zonesOf(request)[0])), {"bid": PASS})
        self.assertEqual(game.decodeAction(2, self.click(zonesOf(request)[2])),
                         {"bid": GARDE_CONTRE})
        # the petite button, drawn but not allowed
        petite = _buttonZones(GARDE_CONTRE + 1)[PETITE]
        error = errorOf(game.decodeAction(2, self.click(petite)))
        assert isinstance(error, WrongAction)
        self.assertEqual(error.subtype, WrongActionSubtype.OUT_OF_ZONE)
        self.assertIsInstance(errorOf(game.decodeAction(3, self.click(zonesOf(request)[0]))),
                              UnexpectedAction)

    def test_cards(self) -> None:
        game = endgame([[c(CLUBS, 2), c(HEARTS, 1)], [c(CLUBS, 5), c(HEARTS, 2)],
                        [c(CLUBS, 9), c(HEARTS, 3)], [c(SPADES, 1), c(HEARTS, 4)]])
        ok(game.act(0, {"card": c(HEARTS, 1)}))
        [request] = game.instructions().requested_actions
        self.assertEqual(len(zonesOf(request)), 1)
        self.assertEqual(game.decodeAction(1, self.click(zonesOf(request)[0])),
                         {"card": c(HEARTS, 2)})
        # the club is drawn first, left of the heart, and may not be played
        x, y = handPlaces(2)[0]
        error = errorOf(game.decodeAction(1, {"type": "CLICK", "x": x + 1, "y": y + 1}))
        self.assertIsInstance(error, WrongAction)

    def test_discard(self) -> None:
        game = _discardGame()
        requests = game.instructions().requested_actions
        self.assertEqual([r.type for r in requests], ["CLICK", "TEXT"])
        proposal = game.decodeAction(1, self.click(zonesOf(requests[0])[0]))
        assert not isinstance(proposal, Errors)
        self.assertTrue(isLegalDiscard(game.hands[1], proposal["discard"]))
        self.assertEqual(game.decodeAction(1, {"type": "TEXT", "text": "0 1, 2 3 4 5"}),
                         {"discard": [0, 1, 2, 3, 4, 5]})
        error = errorOf(game.decodeAction(1, {"type": "TEXT", "text": "0 1 2"}))
        assert isinstance(error, WrongAction)
        self.assertEqual(error.subtype, WrongActionSubtype.UNMATCHED_REGEX)
        ok(game.act(1, game.decodeAction(1, {"type": "TEXT", "text": "0 1 2 3 4 5"})))

    def test_discardByPicking(self) -> None:
        """
        The discard's TEXT request comes with a pick: the cards the taker may
        discard, six to pick; the text made of six picked values is accepted,
        and an illegal discard is refused with the rule in words.
        """
        game = _discardGame()
        text = game.instructions().requested_actions[1]
        assert text.pick is not None
        pick = text.pick
        self.assertEqual(pick.count, 6)
        ordinary, _ = discardable(game.hands[1])
        self.assertEqual(pick.values, tuple(str(c) for c in ordinary))
        self.assertEqual(len(pick.zones), len(pick.values))
        self.assertEqual(text.asJSON()["pick"]["count"], 6)
        hand = sorted(game.hands[1])
        for zone, value in zip(pick.zones, pick.values):
            # A click on a card alone is no action: the page composes the TEXT.
            self.assertIsInstance(errorOf(game.decodeAction(1, self.click(zone))), WrongAction)
            index = hand.index(int(value))
            x, y = handPlaces(len(hand))[index]
            self.assertEqual((zone.x, zone.y), (x, y))
        chosen = pick.separator.join(pick.values[:6])
        move = game.decodeAction(1, {"type": "TEXT", "text": chosen})
        self.assertEqual(move, {"discard": [int(v) for v in pick.values[:6]]})
        king = errorOf(game.act(1, {"discard": [c(CLUBS, KING)] + [int(v) for v in pick.values[:5]]}))
        assert isinstance(king, WrongAction)
        self.assertIn("Kings and oudlers", king.text or "")
        ok(game.act(1, move))

    def test_replay(self) -> None:
        game = start(11)
        playDeal(game)
        requests = game.instructions().requested_actions
        self.assertEqual([r.player for r in requests], [0, 1, 2, 3])
        self.assertEqual(game.decodeAction(2, self.click(zonesOf(requests[2])[0])),
                         {"replay": True})
        self.assertEqual(game.decodeAction(2, self.click(zonesOf(requests[2])[1])),
                         {"replay": False})


# -- the bot -----------------------------------------------------------------


class BotTests(SynchronousTestCase):
    def test_alwaysLegal(self) -> None:
        """Over many deals, each seat's bot action is accepted, among bots or random players."""
        rng = random.Random(3)
        for seed in range(60):
            game = start(seed, seed % 4)
            botSeat = seed % 4
            while game.phase != "end":
                seat = game.waitingFor()[0]
                view = game.view(seat)
                if seed % 2 == 0 or seat == botSeat:
                    action = tarotBot(view, seat)
                else:
                    action = randomAction(view, rng)
                ok(game.act(seat, action))
            self.assertEqual(tarotBot(game.view(1), 1), {"replay": True})

    def test_discardsNoKingsOrOudlers(self) -> None:
        discards = 0
        for seed in range(150):
            game = start(seed)
            while game.phase != "end":
                seat = game.waitingFor()[0]
                action = tarotBot(game.view(seat), seat)
                if "discard" in action:
                    discards += 1
                    self.assertFalse(any(isKing(card) or card in OUDLERS
                                         for card in action["discard"]))
                ok(game.act(seat, action))
        self.assertGreater(discards, 30)

    def test_bidsFromStrength(self) -> None:
        weak = [c(suit, n) for suit in (CLUBS, SPADES) for n in range(1, 10)]
        strong = ([MONDE, EXCUSE, PETIT] + [T(n) for n in range(10, 20)]
                  + [c(CLUBS, KING), c(HEARTS, KING), c(SPADES, KING), c(DIAMONDS, KING),
                     c(DIAMONDS, QUEEN)])
        game = rig([weak, strong] + [sorted(set(DECK) - set(weak) - set(strong))[i:i + 18]
                                     for i in (0, 18)],
                   sorted(set(DECK) - set(weak) - set(strong))[36:])
        self.assertEqual(tarotBot(game.view(1), 1), {"bid": GARDE_CONTRE})
        ok(game.act(1, {"bid": GARDE_CONTRE}))
        ok(game.act(2, {"bid": PASS}))
        ok(game.act(3, {"bid": PASS}))
        self.assertEqual(tarotBot(game.view(0), 0), {"bid": PASS})

    def test_fast(self) -> None:
        """Four bots play a whole deal in well under 50 ms (about 3 ms here)."""
        deals, began = 0, time.perf_counter()
        for seed in range(40):
            game = start(seed)
            playDeal(game)
            deals += 1
        perDeal = (time.perf_counter() - began) / deals
        self.assertLess(perDeal, 0.05)

    def test_savesThePetit(self) -> None:
        """Last to play on its partner's 21, a defender puts the petit there."""
        hands = [[c(SPADES, 1), c(SPADES, 2)], [MONDE, T(3)], [c(SPADES, 9), c(SPADES, 8)],
                 [PETIT, T(5)]]
        game = endgame(hands, taker=0, leader=0)
        playTricks(game, [c(SPADES, 1), MONDE, c(SPADES, 9)])
        self.assertEqual(game.view(3).legalCards, (PETIT, T(5)))
        self.assertEqual(tarotBot(game.view(3), 3), {"card": PETIT})

    def test_winsCheaply(self) -> None:
        """Last to play against the taker's card, the bot wins with its lowest winning card."""
        hands = [[c(SPADES, 7), c(SPADES, 2)], [c(SPADES, 3), c(SPADES, 4)],
                 [c(SPADES, 5), c(SPADES, 6)], [c(SPADES, 9), c(SPADES, KING)]]
        game = endgame(hands, taker=0, leader=0)
        playTricks(game, [c(SPADES, 7), c(SPADES, 3), c(SPADES, 5)])
        self.assertEqual(tarotBot(game.view(3), 3), {"card": c(SPADES, 9)})

    def test_loadsPartner(self) -> None:
        """Last to play on a defending partner's winning card, the bot gives its king."""
        hands = [[c(SPADES, 5), c(SPADES, 2)], [c(SPADES, 3), c(SPADES, 4)],
                 [c(SPADES, 7), c(SPADES, 6)], [c(SPADES, 9), c(SPADES, KING)]]
        game = endgame(hands, taker=0, leader=0)
        playTricks(game, [c(SPADES, 5), c(SPADES, 3), c(SPADES, 6)])
        self.assertEqual(tarotBot(game.view(3), 3), {"card": c(SPADES, KING)})

    def test_excuseBeforeTheEnd(self) -> None:
        """With the excuse among its last cards, the bot plays it rather than keep it to the end."""
        hands = [[EXCUSE, c(SPADES, 2)], [c(SPADES, 3), c(SPADES, 4)],
                 [c(SPADES, 7), c(SPADES, 6)], [c(SPADES, 9), c(SPADES, KING)]]
        game = endgame(hands, taker=0, leader=0)
        self.assertEqual(tarotBot(game.view(0), 0), {"card": EXCUSE})


# -- the fast paths against straightforward references -------------------------


def referenceRequests(game: TarotGame) -> tuple[RequestedAction, ...]:
    """What the engine asks, built the plain way: every zone made anew from the rules."""

    def handZones(seat: int, cards: Iterable[int]) -> tuple[Zone, ...]:
        hand = sorted(game.hands[seat])
        wanted = set(cards)
        return tuple(Zone(x, y, CARD_W, CARD_H) for (x, y), card in zip(handPlaces(len(hand)), hand)
                     if card in wanted)

    requests: list[RequestedAction] = []
    for seat in game.waitingFor():
        if game.phase == "bidding":
            zones = _buttonZones(GARDE_CONTRE + 1)
            requests.append(RequestedAction(
                seat, "CLICK", zones=tuple(zones[b] for b in legalBids(game.bids)),
                buttons=("LEFT",), prompt="click your bid"))
        elif game.phase == "discard":
            ordinary, trumps = discardable(game.hands[seat])
            allowed = sorted(ordinary if len(ordinary) >= 6 else ordinary + trumps)
            requests += [
                RequestedAction(seat, "CLICK", zones=_buttonZones(1), buttons=("LEFT",),
                                prompt="use the proposed discard"),
                RequestedAction(seat, "TEXT", regex=DISCARD_REGEX, max_length=40,
                                pick=Pick(handZones(seat, allowed),
                                          tuple(str(card) for card in allowed), 6),
                                prompt="pick the six cards to discard, then confirm"),
            ]
        elif game.phase == "play":
            legal = legalCards(game.hands[seat], game.played)
            requests.append(RequestedAction(seat, "CLICK", zones=handZones(seat, legal),
                                            buttons=("LEFT",),
                                            prompt="click a lit card to play it"))
        else:
            requests.append(RequestedAction(seat, "CLICK", zones=_buttonZones(2),
                                            buttons=("LEFT",),
                                            prompt="play another deal, or stop"))
    return tuple(requests)


def outcome(function: object, card: int) -> object:
    """``function(card)``, or the type of what it raised."""
    try:
        return function(card)  # type: ignore[operator]
    except Exception as e:
        return type(e)


class FastPathTests(SynchronousTestCase):
    """
    The engine's and the bot's fast paths (card tables, legal cards by
    slices of the sorted hand, zones and requests made once, what is cached
    for one step) give what the plain definitions give.
    """

    def test_cardTables(self) -> None:
        """Each card table is its function, on the deck and on any other int."""
        for table, function in ((_SUIT, suitOf), (_RANK, rankOf), (_POINTS, cardPoints),
                                (_FACE, cardFace), (_COST, _cost)):
            for card in list(DECK) + [-100, -15, -1, 78, 90, 200]:
                self.assertEqual(outcome(table.__getitem__, card), outcome(function, card),
                                 (function, card))

    @settings(max_examples=400)
    @given(st.lists(st.sampled_from(DECK), max_size=31, unique=True),
           st.integers(0, 24), st.integers(0, 3))
    def test_legalCards(self, cards: list[int], size: int, tricked: int) -> None:
        """L{_legal} on a sorted hand is L{legalCards}, for any hand and trick."""
        size = min(size, len(cards))
        hand, played = cards[:size], cards[size:size + tricked]
        self.assertEqual(_legal(tuple(sorted(hand)), played), legalCards(hand, played))
        self.assertEqual(_legal(sorted(hand), played), legalCards(set(hand), played))

    @settings(max_examples=15)
    @given(st.integers(0, 2**53 - 1), st.integers(0, 2**32))
    def test_requestsAndViews(self, seed: int, choices: int) -> None:
        """Along random sessions: the requests, legal cards and views are the plain ones."""
        rng = random.Random(choices)
        game = start(seed, rng.randrange(4))
        outcome = game.instructions()
        while game.phase != "over":
            self.assertEqual(outcome.requested_actions, referenceRequests(game))
            for seat in range(4):
                view = game.view(seat)
                self.assertEqual(view.hand, tuple(sorted(game.hands[seat])))
                expected = (legalCards(game.hands[seat], game.played)
                            if game.phase == "play" and seat == game.turn else ())
                self.assertEqual(view.legalCards, expected)
                self.assertEqual(game.legalCardsFor(seat), expected)
                self.assertEqual(view.shownTrumps,
                                 tuple(card for card in game.discard or () if isTrump(card)))
                self.assertEqual(view.lastScore, game.lastScore)
                if game.lastScore is not None:
                    self.assertIsNot(view.lastScore, game.lastScore)
            seat = rng.choice(game.waitingFor())
            action = randomAction(game.view(seat), rng, replay=game.dealNumber < 2)
            if game.phase == "play" and rng.random() < 0.2:
                action = {"card": rng.choice(sorted(game.hands[seat]))}  # maybe refused
            answer = game.act(seat, action)
            if isinstance(answer, Errors):
                error = errorOf(answer)
                assert isinstance(error, WrongAction)
                self.assertEqual(error.text, whyNotCard(game.hands[seat], game.played,
                                                        action["card"]))
                answer = game.instructions()
            outcome = answer

    def test_cardPlayedFastAndSlowAlike(self) -> None:
        """A card given as a dict (the fast path) and as another Mapping: the same step."""
        for seed in range(8):
            fast, slow = start(seed), start(seed)
            while fast.phase != "end":
                seat = fast.waitingFor()[0]
                action = tarotBot(fast.view(seat), seat)
                other: object = action
                if "card" in action:  # type: ignore[operator]
                    other = MappingProxyType(action)  # type: ignore[arg-type]
                one, two = ok(fast.act(seat, action)), ok(slow.act(seat, other))
                self.assertEqual(one, two)
                self.assertEqual(one.game_state.text, two.game_state.text)
            self.assertEqual(fast.history, slow.history)

    def test_stateChangedOutsideASteps(self) -> None:
        """Hands or tricks replaced between steps (as tests do): nothing stale is read."""
        game = endgame([[c(CLUBS, 2), c(HEARTS, 1)], [c(CLUBS, 5), c(HEARTS, 2)],
                        [c(CLUBS, 9), c(HEARTS, 3)], [c(SPADES, 1), T(4)]])
        self.assertEqual(game.view(0).legalCards, (c(CLUBS, 2), c(HEARTS, 1)))
        game.hands[0].discard(c(CLUBS, 2))
        self.assertEqual(game.view(0).hand, (c(HEARTS, 1),))
        self.assertEqual(game.legalCardsFor(0), (c(HEARTS, 1),))
        game.hands = [set(h) for h in ([c(CLUBS, 2)], [c(CLUBS, 5)], [c(CLUBS, 9)], [T(4)])]
        self.assertEqual(game.view(0).legalCards, (c(CLUBS, 2),))
        self.assertEqual(zonesOf(game.instructions().requested_actions[0]),
                         referenceRequests(game)[0].zones)
