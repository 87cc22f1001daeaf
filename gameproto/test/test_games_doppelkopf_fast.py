"""
The Doppelkopf rules engine's fast paths give what the plain ways give:
the announcements asked in one pass, the legal cards kept while nothing
they read changes, a hand sorted by a table of the order's keys, what the
views share made once a trick, and the same rules for the same text.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Instructions
from gameproto.games import doppelkopf as dk
from gameproto.games.doppelkopf import (
    MARRIAGE,
    MARRIAGE_SOLO,
    NO0,
    NO120,
    NO_ANNOUNCEMENT,
    PLAYERS,
    PLAYING,
    REPLY,
    CardOrder,
    DoppelkopfGame,
    DoppelkopfParty,
    Rules,
)

RULES = ["", "announcement reply = true", "swines = true\nhyperswines = true",
         "dollen = false\nwith nines = false", "solo = false"]


def plainAnnouncementValid(game: DoppelkopfGame, seat: int, announcement: int) -> int:
    """FREEDOKO Game::announcement_valid as the engine first wrote it, recursion and all."""
    if game.phase != PLAYING:
        return NO_ANNOUNCEMENT
    if game.trickCount - len(game.tricks) < game._lastAnnouncement:
        return NO_ANNOUNCEMENT
    if game.gameType == MARRIAGE and game.selector is not None:
        return NO_ANNOUNCEMENT
    team = game.teams[seat]
    if team is None:
        return NO_ANNOUNCEMENT
    last = max([NO_ANNOUNCEMENT] + [game.seatAnnouncement(s) for s in range(PLAYERS)
                                    if game.teams[s] == team])
    if last == REPLY:
        return NO_ANNOUNCEMENT
    if announcement == REPLY:
        announcement = NO120
    if last >= announcement:
        return NO_ANNOUNCEMENT
    deferral = (game.determination - 1
                if game.gameType in (MARRIAGE, MARRIAGE_SOLO) and game.determination else 0)
    cards = len(game.hands[seat])
    valid = cards + deferral >= game._limits[announcement]
    if not valid and announcement == NO120:
        announcement = REPLY
    if announcement == REPLY:
        if not game._replies or last != NO_ANNOUNCEMENT:
            return NO_ANNOUNCEMENT
        opposite = game.teamAnnouncement(dk._opposite(team))
        return REPLY if cards + deferral + 1 >= game._limits.get(opposite, 10**6) \
            else NO_ANNOUNCEMENT
    if announcement > NO120 and last != announcement - 1:
        valid = valid and plainAnnouncementValid(game, seat, announcement - 1) == announcement - 1
    return announcement if valid else NO_ANNOUNCEMENT


def plainValid(game: DoppelkopfGame, seat: int) -> tuple[int, ...]:
    found: list[int] = []
    for a in range(NO120, NO0 + 1):
        made = plainAnnouncementValid(game, seat, a)
        if made and made not in found:
            found.append(made)
    return tuple(found)


def plainSort(order: CardOrder, hand: list[str]) -> list[str]:
    rank = order.rank

    def key(card: str) -> tuple[int, int, int]:
        if card in rank:
            return (0, -rank[card], 0)
        return (1, dk._COLOR_INDEX[dk._COLOR_OF[card]], -dk._POINTS_OF[card])
    return sorted(hand, key=key)


def parties(seed: int, rules: str) -> Any:
    """Each step of a party of random and bot moves, announcements among them."""
    party = dk.DOPPELKOPF.start({"rounds": 1, "rules": rules}, {"seed": seed})
    assert isinstance(party, DoppelkopfParty)
    rng = random.Random(seed)
    for _ in range(400):
        if party.over:
            return
        yield party
        (seat,) = party.waitingFor()
        view = party.view(seat)
        action: Any = dk.doppelkopfBot(view, seat)
        if view.phase == PLAYING and view.validAnnouncements and rng.random() < 0.3:
            action = {"announcement": rng.choice(view.validAnnouncements)}
        elif view.phase == PLAYING and rng.random() < 0.5:
            action = {"card": rng.choice(view.legalCards)}
        assert isinstance(party.act(seat, action), Instructions), action


class FastPathTests(SynchronousTestCase):

    @settings(max_examples=12, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES))
    def test_announcements(self, seed: int, rules: str) -> None:
        """Every seat's announcements, at every step, as the recursive way finds them."""
        for party in parties(seed, rules):
            game = party.game
            for seat in range(PLAYERS):
                self.assertEqual(game.validAnnouncements(seat), plainValid(game, seat))
                for a in range(NO120, REPLY + 1):
                    self.assertEqual(game.announcementValid(seat, a),
                                     plainAnnouncementValid(game, seat, a), (seat, a))

    @settings(max_examples=8, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES))
    def test_legalCardsAndViews(self, seed: int, rules: str) -> None:
        """
        The mover's legal cards are the rules' for its hand and the trick;
        each view's hand is sorted as the key function sorts it, and its
        cards played, trick points and last summary are made afresh.
        """
        for party in parties(seed, rules):
            game = party.game
            for seat in range(PLAYERS):
                expected = (dk.legalCards(game.order, game.hands[seat], game.trick)
                            if game.phase == PLAYING and seat == game.turn else ())
                self.assertEqual(game.legalCardsFor(seat), expected)
                view = party.view(seat)
                self.assertEqual(list(view.hand), plainSort(game.order, game.hands[seat]))
                self.assertEqual(view.playedCards, tuple(
                    c for t in game.tricks for c in t.cards) + tuple(game.trick))
                self.assertEqual(view.trickPoints, tuple(dk.countPoints(w) for w in game.won))
                self.assertEqual(view.lastSummary, party.summaries[-1].asJSON()
                                 if party.summaries else None)

    @given(st.lists(st.sampled_from(sorted(dk.CARDS)), max_size=24), st.sampled_from(dk.GAME_TYPES),
           st.booleans(), st.booleans(), st.sampled_from(RULES))
    def test_sortHand(self, hand: list[str], gameType: str, swines: bool, hyper: bool,
                      rules: str) -> None:
        order = CardOrder.of(gameType, Rules.parse(rules), swines, hyper)
        self.assertEqual(dk.sortHand(order, hand), plainSort(order, hand))

    def test_rulesOnce(self) -> None:
        """The same text over the same rules gives the same rules, equal to parsing them anew."""
        for text in RULES:
            parsed = Rules.parse(text)
            self.assertIs(Rules.parse(text), parsed)
            fresh = dict(Rules.default().entries)
            fresh.update(dk._parseRuleLines(text))
            self.assertEqual(dict(parsed.entries), fresh)
        self.assertEqual(Rules.parse(""), Rules.default())
