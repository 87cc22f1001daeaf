"""
The Tarot engine's and bot's fast paths against their plain definitions:
the bot's card play and bidding count read from tables and in one pass
over the trick, legal cards as a run of the sorted hand, views made for
the seat to play from what the step's request computed.  Sessions played
with the plain bot and with the engine's give the same actions, scores,
instructions and views.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Errors, Event, GameState, Instructions, RequestedAction
from gameproto.games.tarot import (
    BIDDING,
    DECK,
    DISCARD,
    END,
    EXCUSE,
    MONDE,
    NOBODY,
    OVER,
    PETIT,
    PETITE,
    GARDE,
    PLAY,
    PLAYERS,
    SUITS,
    TAROT,
    TRUMPS,
    TarotGame,
    TarotView,
    _event,
    _instructions,
    _legal,
    _legalRun,
    botBid,
    botDiscard,
    cardPoints,
    dealCards,
    handStrength,
    hasPetitSec,
    isKing,
    isTrump,
    ledSuit,
    legalCards,
    rankOf,
    suitOf,
    tarotBot,
    trickWinner,
)
from gameproto.test.test_games_tarot import referenceRequests


# -- the plain definitions (the bot as first written) ---------------------------


def plainStrength(hand: Iterable[int]) -> int:
    """L{handStrength} written plainly."""
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
    honours = {14: 6, 13: 3, 12: 2, 11: 1}
    length = dict.fromkeys(SUITS, 0)
    for c in cards:
        if suitOf(c) in length:
            length[suitOf(c)] += 1
            score += honours.get(rankOf(c), 0)
    for suit in SUITS:
        if length[suit] >= 5:
            score += 2 * (length[suit] - 3)
        elif not length[suit] and n >= 5:
            score += 6
        elif length[suit] == 1 and n >= 5:
            score += 3
    return score


def plainCost(card: int) -> int:
    if card == MONDE:
        return 300
    if card == EXCUSE:
        return 200
    if card == PETIT:
        return 150
    if isTrump(card):
        return 20 + rankOf(card)
    return 3 * cardPoints(card) + rankOf(card)


def plainLead(plain: Sequence[int], hand: Sequence[int], amTaker: bool) -> int:
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
        return min(suits, key=lambda c: (-length[suitOf(c)], plainCost(c)))
    others = [c for c in plain if c != PETIT] or list(plain)
    return min(others, key=plainCost)


def plainMidTrump(trumps: Sequence[int]) -> int:
    above = [c for c in sorted(trumps) if rankOf(c) > 10 and c != MONDE]
    return above[0] if above else min(trumps, key=plainCost)


def plainCard(view: TarotView) -> int:
    """The bot's card play written plainly, with the trick's helpers."""
    legal = view.legalCards
    if len(legal) == 1:
        return legal[0]
    seat, hand, trick = view.seat, view.hand, view.trick
    leader = view.leader if view.leader is not None else seat
    played = [(s, trick[s]) for s in ((leader + i) % PLAYERS for i in range(PLAYERS))
              if trick[s] != NOBODY]
    amTaker = seat == view.taker
    plain = [c for c in legal if c != EXCUSE]
    if EXCUSE in legal and (len(hand) <= 3 or not plain):
        return EXCUSE
    if not played:
        return plainLead(plain, hand, amTaker) if plain else EXCUSE
    cards = [c for _, c in played]
    suit = ledSuit(cards)
    index = trickWinner(cards)
    winnerSeat, best = (played[index] if index >= 0 else (NOBODY, -1))
    last = len(played) == PLAYERS - 1
    if best < 0:
        return min(plain, key=plainCost) if plain else EXCUSE

    def beats(card: int) -> bool:
        if isTrump(card):
            return not isTrump(best) or card > best
        return not isTrump(best) and suitOf(card) == suit and card > best

    winners = [c for c in plain if beats(c)]
    if (winnerSeat == view.taker) == amTaker:
        if last or best == MONDE or (isTrump(best) and rankOf(best) >= 18):
            if PETIT in plain and (PETIT not in winners or last):
                return PETIT
            nonTrumps = [c for c in plain if not isTrump(c)]
            if nonTrumps:
                return max(nonTrumps, key=lambda c: (cardPoints(c), c))
        lows = [c for c in plain if c != PETIT] or plain
        return min(lows, key=plainCost)
    if winners:
        if last:
            if PETIT in winners:
                return PETIT
            return min(winners, key=plainCost)
        if not isTrump(best) and suit is not None and suit != TRUMPS:
            kings = [c for c in winners if isKing(c)]
            if kings:
                return kings[0]
        withoutPetit = [c for c in winners if c != PETIT]
        if withoutPetit:
            return (min(withoutPetit, key=plainCost) if not isTrump(min(withoutPetit))
                    else plainMidTrump(withoutPetit))
    losers = [c for c in plain if c not in winners and c != PETIT] or plain
    choice = min(losers, key=plainCost)
    if EXCUSE in legal and (choice == PETIT or (not isTrump(choice) and cardPoints(choice) >= 3)):
        return EXCUSE
    return choice


def plainBot(view: TarotView, seat: int) -> dict[str, Any]:
    if view.phase == BIDDING:
        strength = plainStrength(view.hand)
        wanted = (0 if strength < 40 else 1 if strength <= 55 else 2 if strength <= 70
                  else 3 if strength <= 80 else 4)
        highest = max(view.bids, default=0)
        return {"bid": wanted if wanted > max(highest, 0) else 0}
    if view.phase == DISCARD:
        return {"discard": list(botDiscard(view.hand))}
    if view.phase == PLAY:
        return {"card": plainCard(view)}
    return {"replay": True}


def plainView(game: TarotGame, seat: int) -> TarotView:
    """What ``seat`` may know, each field from the game's state by the rules' functions."""
    phase = game.phase
    ended = phase in (END, OVER)
    shown = game.contract in (PETITE, GARDE, 0)
    toPlay = game.turn if phase in (BIDDING, DISCARD, PLAY) else None
    return TarotView(
        seat=seat, phase=phase, dealer=game.dealer, deal=game.dealNumber,
        hand=tuple(sorted(game.hands[seat])), bids=tuple(game.bids), taker=game.taker,
        contract=game.contract,
        chien=game.chien if (shown and phase != BIDDING) or ended else None,
        discard=(game.discard if game.discard is not None and (seat == game.taker or ended)
                 else None),
        shownTrumps=tuple(c for c in game.discard or () if isTrump(c)),
        trick=tuple(game.trick), leader=game.leader, previousTrick=tuple(game.previousTrick),
        toPlay=toPlay,
        legalCards=(legalCards(game.hands[seat], game.played)
                    if phase == PLAY and seat == game.turn else ()),
        tricksPlayed=game.tricksPlayed, totals=tuple(game.totals), lastScore=game.lastScore,
        replayAnswers=tuple(game.replayAnswers))


def start(seed: int, dealer: int = 0) -> TarotGame:
    game = TAROT.start({"dealer": dealer}, {"seed": seed})
    assert isinstance(game, TarotGame)
    return game


class FastTarotTests(SynchronousTestCase):
    """The fast paths give what the plain definitions give."""

    @settings(max_examples=300)
    @given(st.lists(st.integers(-30, 110), max_size=30))
    def test_handStrength(self, hand: list[int]) -> None:
        """The bidding count, on any ints (cards or not)."""
        self.assertEqual(handStrength(hand), plainStrength(hand))
        cards = [c for c in hand if 0 <= c < len(DECK)]
        self.assertEqual(botBid(cards, [-1] * 4), plainBot(
            attrs.evolve(plainView(start(0), 0), hand=tuple(sorted(set(cards)))), 0)["bid"])

    @settings(max_examples=400)
    @given(st.lists(st.sampled_from(DECK), max_size=31, unique=True),
           st.integers(0, 24), st.integers(0, 3))
    def test_legalRun(self, cards: list[int], size: int, tricked: int) -> None:
        """The run L{_legalRun} names is L{legalCards}, the excuse last."""
        size = min(size, len(cards))
        hand, played = tuple(sorted(cards[:size])), cards[size:size + tricked]
        start, stop, excuse = _legalRun(hand, played)
        self.assertEqual(hand[start:stop] + ((EXCUSE,) if excuse else ()),
                         legalCards(hand, played))
        self.assertEqual(_legal(hand, played), legalCards(hand, played))
        if excuse:
            self.assertEqual(hand[-1], EXCUSE)
            self.assertLess(stop, len(hand))

    def playBoth(self, seed: int, dealer: int, choices: int, steps: int) -> None:
        """
        One session played by the engine's bot (with refused cards and a
        stop now and then), each action checked against the plain bot's,
        every seat's view at every step against the plain view, and each
        step's instructions against the requests made the plain way.
        """
        rng = random.Random(choices)
        game = start(seed, dealer)
        outcome = game.instructions()
        for _ in range(steps):
            if game.phase == OVER:
                break
            self.assertEqual(outcome.requested_actions, referenceRequests(game))
            for seat in range(PLAYERS):
                view, plain = game.view(seat), plainView(game, seat)
                self.assertEqual(view, plain)
                # the same fields, in the same order, as __init__ writes them
                self.assertEqual(list(vars(view).items()), list(vars(plain).items()))
            seat = rng.choice(game.waitingFor())
            view = game.view(seat)
            action = tarotBot(view, seat)
            self.assertEqual(action, plainBot(view, seat))
            if game.phase == PLAY and rng.random() < 0.1:
                action = {"card": rng.randrange(len(DECK))}  # maybe refused
            if game.phase == END and rng.random() < 0.02:
                action = {"replay": False}
            answer = game.act(seat, action)
            if isinstance(answer, Errors):
                self.assertEqual(game.legalCardsFor(seat), legalCards(game.hands[seat], game.played))
                self.assertNotIn(action["card"], game.legalCardsFor(seat))
                answer = game.instructions()
            outcome = answer

    @settings(max_examples=20, deadline=None)
    @given(st.integers(0, 2**53 - 1), st.integers(0, 3), st.integers(0, 2**32))
    def test_sessions(self, seed: int, dealer: int, choices: int) -> None:
        """Random sessions: the same actions, instructions, scores and views."""
        self.playBoth(seed, dealer, choices, 700)

    def test_seededSessions(self) -> None:
        """The bench's seed and a few others, many deals each."""
        for seed in (1, 2, 3):
            self.playBoth(seed, seed % PLAYERS, seed, 2500)


class ContractObjectsTests(SynchronousTestCase):
    """The engine's steps make the contract's objects as their __init__ would."""

    def test_noHooks(self) -> None:
        """
        The classes the engine makes without their __init__ have nothing
        __init__ would run besides writing the fields.
        """
        for cls in (GameState, Instructions, TarotView, Event):
            for field in attrs.fields(cls):
                self.assertIsNone(field.validator, (cls, field.name))
                self.assertIsNone(field.converter, (cls, field.name))
            self.assertFalse(hasattr(cls, "__attrs_pre_init__"), cls)
            self.assertFalse(hasattr(cls, "__attrs_post_init__"), cls)
            self.assertFalse(hasattr(cls, "__attrs_init__"), cls)

    @given(st.lists(st.integers(-999, 999), min_size=4, max_size=4),
           st.none() | st.text(max_size=20), st.integers(0, 3), st.integers(0, 3))
    def test_instructions(self, scores: list[int], text: str | None, seat: int,
                          card: int) -> None:
        """L{_instructions} is the plain Instructions of a step in a deal, text included."""
        requested = (RequestedAction(seat, "CLICK", buttons=("LEFT",), prompt="p"),)
        events = (Event("card", card, seat),)
        made = _instructions(requested, tuple(scores), text, events)
        plain = Instructions(requested, GameState(tuple(scores), False, text=text), events)
        self.assertEqual(made, plain)
        self.assertEqual(repr(made), repr(plain))  # text too (not compared by ==)
        self.assertEqual(made.asJSON(), plain.asJSON())
        self.assertEqual(hash(made), hash(plain))

    @given(st.sampled_from(["deal", "trick", "dealt"]), st.none() | st.integers(),
           st.none() | st.integers(0, 3), st.none() | st.frozensets(st.integers(0, 3)))
    def test_event(self, kind: str, data: int | None, seat: int | None,
                   audience: frozenset[int] | None) -> None:
        """L{_event} is the plain Event."""
        made, plain = _event(kind, data, seat, audience), Event(kind, data, seat, audience)
        self.assertEqual(made, plain)
        self.assertEqual(repr(made), repr(plain))
        self.assertEqual(_event(kind, data), Event(kind, data))

    @settings(max_examples=300)
    @given(st.integers(0, 2**53 - 1), st.integers(1, 10**6), st.integers(0, 3),
           st.lists(st.sampled_from(DECK), min_size=1, max_size=24, unique=True))
    def test_petitSec(self, seed: int, deal: int, dealer: int, cards: list[int]) -> None:
        """A sorted hand has the petit sec when the petit is its last card."""
        hands, _ = dealCards(seed, deal, dealer)
        for hand in hands + (tuple(sorted(cards)), (3, 20, PETIT), (3, PETIT, EXCUSE), (PETIT, 57)):
            self.assertEqual(hand[-1] == PETIT, hasPetitSec(hand))


class SameDealsTests(SynchronousTestCase):
    """The bench's loop plays what it always played."""

    def test_benchSeed(self) -> None:
        """
        The engine's bot in every seat, seed 1 (the bench's), 2,000 actions:
        the same actions and deal scores as when the fast paths were first
        measured (a digest of both).
        """
        game = TAROT.start({}, {"seed": 1})
        assert isinstance(game, TarotGame)
        instructions = game.instructions()
        actions: list[Any] = []
        for _ in range(2000):
            seat = instructions.requested_actions[0].player
            action = tarotBot(game.view(seat), seat)
            actions.append([seat, action])
            outcome = game.act(seat, action)
            assert not isinstance(outcome, Errors)
            instructions = outcome
        self.assertEqual(len(game.history), 39)
        digest = hashlib.sha256(json.dumps([actions, game.history], sort_keys=True).encode())
        self.assertEqual(digest.hexdigest(),
                         "7b3d40e426d93f3c1fbdbc5da8ddfa6753288ba4d7f3ec0e3c1d5186781dc03d")
