"""
The Doppelkopf bot read from the party (L{DoppelkopfParty.botAction},
L{SeatView}) decides as the bot given a seat's full view, and the requests
made once and kept are those made afresh: parties played either way go
alike, and a party's views are those of a party built anew from its actions.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Instructions, RequestedAction
from gameproto.games import doppelkopf as dk
from gameproto.games.doppelkopf import PLAYERS, PLAYING, RESERVING, DoppelkopfParty

RULES = ["", "announcement reply = true", "swines = true\nhyperswines = true",
         "dollen = false\nwith nines = false", "solo = false", "genscher = true",
         "swines announcement begin = false\nhyperswines = true\n"
         "hyperswines announcement begin = false",
         "poverty fox do not count = true\npoverty fox shift extra = true"]

FIELDS = ("seat", "phase", "turn", "hand", "legalCards", "gameType", "teams", "leader",
          "tricksPlayed", "trickPoints", "validAnnouncements", "povertyCount", "playedCards",
          "rules", "order")


def start(seed: int, rules: str, rounds: int = 1) -> DoppelkopfParty:
    party = dk.DOPPELKOPF.start({"rounds": rounds, "rules": rules}, {"seed": seed})
    assert isinstance(party, DoppelkopfParty)
    return party


def plainRequest(party: DoppelkopfParty, seat: int) -> RequestedAction:
    """The card's request as made afresh: the lit cards of the sorted hand, then the buttons."""
    legal = set(party.legalCardsFor(seat))
    zones = tuple(z for z, c in party._handZones(seat) if c in legal)
    buttons = dk._buttonZones(len(party.choices(seat, suggest=False)))
    return RequestedAction(seat, "CLICK", zones=zones + buttons, buttons=("LEFT",),
                           prompt="click a lit card to play it" + (
                               ", or a button to announce" if buttons else ""))


def play(seed: int, rules: str, fast: bool, rounds: int = 1) -> tuple[
        DoppelkopfParty, list[tuple[int, Any]], list[Instructions]]:
    """
    A party of bot moves, random cards and announcements among them: the
    bot read from the party (``fast``) or given the full view.
    """
    party = start(seed, rules, rounds)
    rng = random.Random(seed)
    actions: list[tuple[int, Any]] = []
    steps = [party.instructions()]
    while not party.over:
        (seat,) = party.waitingFor()
        action: Any = (party.botAction(seat) if fast
                       else dk.doppelkopfBot(party.view(seat), seat))
        game = party.game
        if game.phase == PLAYING:
            valid = game.validAnnouncements(seat)
            if valid and rng.random() < 0.2:
                action = {"announcement": dk.ANNOUNCEMENTS[rng.choice(valid)]}
            elif rng.random() < 0.3:
                action = {"card": rng.choice(party.legalCardsFor(seat))}
        outcome = party.act(seat, action)
        assert isinstance(outcome, Instructions), (action, outcome)
        actions.append((seat, action))
        steps.append(outcome)
    return party, actions, steps


def replayed(seed: int, rules: str, actions: list[tuple[int, Any]]) -> DoppelkopfParty:
    """A party built anew from ``actions``, nothing of it asked on the way."""
    party = start(seed, rules)
    for seat, action in actions:
        assert isinstance(party.act(seat, action), Instructions)
    return party


class BotFromThePartyTests(SynchronousTestCase):

    @settings(max_examples=25, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES))
    def test_sameAction(self, seed: int, rules: str) -> None:
        """
        At every step, for every seat (the mover and the others), the bot
        read from the party decides as the bot given the seat's view, and
        every field it reads is the view's.
        """
        party = start(seed, rules)
        rng = random.Random(seed)
        while not party.over:
            for seat in range(PLAYERS):
                view = party.view(seat)
                lazy = dk.SeatView(party, seat)
                for name in FIELDS:
                    self.assertEqual(getattr(lazy, name), getattr(view, name), name)
                self.assertEqual(tuple(lazy.trick), view.trick)
                self.assertEqual(party.botAction(seat), dk.doppelkopfBot(view, seat))
            (seat,) = party.waitingFor()
            action: Any = party.botAction(seat)
            if party.game.phase == PLAYING and rng.random() < 0.4:
                action = {"card": rng.choice(party.legalCardsFor(seat))}
            self.assertIsInstance(party.act(seat, action), Instructions)

    @settings(max_examples=25, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES), st.integers(1, 2))
    def test_partiesAlike(self, seed: int, rules: str, rounds: int) -> None:
        """
        A party played with the bot read from the party and one played with
        the bot given the views: the same actions, instructions and scores.
        """
        fast, fastActions, fastSteps = play(seed, rules, True, rounds)
        plain, plainActions, plainSteps = play(seed, rules, False, rounds)
        self.assertEqual(fastActions, plainActions)
        self.assertEqual(fastSteps, plainSteps)
        self.assertEqual(fast.summaries, plain.summaries)
        self.assertEqual(fast.totals, plain.totals)
        self.assertEqual(fast.freedokoTotals, plain.freedokoTotals)

    @settings(max_examples=15, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES), st.randoms(use_true_random=False))
    def test_viewsAnew(self, seed: int, rules: str, rng: random.Random) -> None:
        """
        At a few steps of a party played with the bot read from it, every
        seat's view, display and the step's requests are those of a party
        built anew from the same actions.
        """
        party, actions, steps = play(seed, rules, True)
        for cut in sorted(rng.sample(range(len(actions) + 1), 4)):
            played = replayed(seed, rules, actions[:cut])
            fresh = replayed(seed, rules, actions[:cut])
            self.assertEqual(played.instructions().requested_actions,
                             steps[cut].requested_actions)
            for seat in range(PLAYERS):
                # ``played`` answers for the bot first (its caches warm), ``fresh`` not
                played.botAction(seat)
                self.assertEqual(played.view(seat), fresh.view(seat))
                self.assertEqual(played.display(seat), fresh.display(seat))

    @settings(max_examples=12, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES))
    def test_requests(self, seed: int, rules: str) -> None:
        """
        Each card's request, made once and kept, is the one made afresh;
        the number of reservation buttons is that of the buttons offered.
        """
        party, actions, steps = play(seed, rules, True)
        party = start(seed, rules)
        for (seat, action), step in zip(actions, steps):
            requested = party.instructions().requested_actions
            self.assertEqual(requested, step.requested_actions)
            if party.game.phase == PLAYING:
                self.assertEqual(requested, (plainRequest(party, seat),))
            if party.game.phase == RESERVING:
                self.assertEqual(party._buttonCount(seat),
                                 len(party.choices(seat, suggest=False)))
                self.assertEqual(len(party.choices(seat)), len(requested[0].zones or ()))
            self.assertIsInstance(party.act(seat, action), Instructions)
