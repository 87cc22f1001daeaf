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


def plainAskRequest(party: DoppelkopfParty, seat: int) -> tuple[RequestedAction, ...]:
    """A reservation's or a poverty answer's request as made afresh, its buttons counted."""
    buttons = dk._buttonZones(len(party.choices(seat, suggest=False)))
    if party.game.phase == RESERVING:
        return (RequestedAction(seat, "CLICK", zones=buttons, buttons=("LEFT",),
                                prompt="click your reservation"),
                RequestedAction(seat, "TEXT", regex=dk.RESERVATION_REGEX, max_length=64,
                                prompt="type a reservation (such as: marriage, first trump)"))
    return (RequestedAction(seat, "CLICK", zones=buttons, buttons=("LEFT",),
                            prompt="take the poverty's cards or refuse them"),)


def plainTeamAnnouncement(game: dk.DoppelkopfGame, team: str) -> int:
    """L{dk.DoppelkopfGame.teamAnnouncement} as first written: every seat looked at."""
    if game.gameType == dk.MARRIAGE and game.selector is not None and team == dk.CONTRA:
        return dk.NO_ANNOUNCEMENT
    best = dk.NO_ANNOUNCEMENT
    for s in range(PLAYERS):
        if game.teams[s] == team and game.announcements[s]:
            best = max(best, game.announcements[s][-1][0])
    return best


def plainValidAnnouncements(game: dk.DoppelkopfGame, seat: int) -> tuple[int, ...]:
    """L{dk.DoppelkopfGame.validAnnouncements} as first written: each one asked in turn."""
    if (game.phase != PLAYING or game.teams[seat] is None
            or game.trickCount - len(game.tricks) < game._lastAnnouncement):
        return ()
    announcing = game._announcing(seat)
    if announcing is None:
        return ()
    team, last, held = announcing
    if last == dk.NO_ANNOUNCEMENT and held < game._limits[dk.NO120]:
        reply = game._announcementValid(seat, dk.NO120, team, last, held, None)
        return (reply,) if reply else ()
    found: list[int] = []
    for a in (dk.NO120, dk.NO90, dk.NO60, dk.NO30, dk.NO0):
        made = game._announcementValid(seat, a, *announcing, None)
        if made and made not in found:
            found.append(made)
    return tuple(found)


def plainKnownTeams(party: DoppelkopfParty, seat: int) -> tuple[str | None, ...]:
    """L{DoppelkopfParty.knownTeams} as first written: each team's count asked."""
    game = party.game
    if game.phase in (RESERVING, dk.POVERTY_SHIFT, dk.POVERTY_ANSWER, dk.POVERTY_RETURN):
        return (None,) * PLAYERS
    silent = game.gameType == dk.MARRIAGE_SILENT
    if game.phase == dk.FINISHED or (game.gameType != dk.NORMAL and not silent) or (
            silent and seat == game.soloplayer):
        return tuple(game.teams)
    queens = {t.seatOf(i) for t in game.tricks for i, c in enumerate(t.cards)
              if c == dk.CLUB_QUEEN}
    queens |= {(game.leader + i) % PLAYERS for i, c in enumerate(game.trick)
               if c == dk.CLUB_QUEEN}
    teams: list[str | None] = [
        game.teams[s] if s == seat or s in queens or game.announcements[s] else None
        for s in range(PLAYERS)]
    for team in (dk.RE, dk.CONTRA):  # (a silent marriage looks like a normal game)
        if teams.count(team) == 2:
            other = dk.CONTRA if team == dk.RE else dk.RE
            teams = [t if t is not None else other for t in teams]
    return tuple(teams)


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
            if party.game.phase in (RESERVING, dk.POVERTY_ANSWER):
                self.assertEqual(requested, plainAskRequest(party, seat))
            self.assertIsInstance(party.act(seat, action), Instructions)

    @settings(max_examples=25, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES), st.booleans())
    def test_announcementsAndButtons(self, seed: int, rules: str, swinesAtStart: bool) -> None:
        """
        At every step of parties with random announcements, for every seat:
        the announcements it may make are those asked one by one, the teams
        it knows those counted team by team, each team's last announcement
        that of every seat looked at, and a card request's buttons those of
        L{DoppelkopfParty.choices} (swines and hyperswines asked whatever
        the rules).
        """
        party = DoppelkopfParty({"rounds": 1, "rules": rules}, seed,
                                swinesAtStart=swinesAtStart)
        rng = random.Random(seed)
        while not party.over:
            game = party.game
            for seat in range(PLAYERS):
                valid = game.validAnnouncements(seat)
                self.assertEqual(valid, plainValidAnnouncements(game, seat))
                if game.phase == PLAYING:
                    self.assertEqual(game.playButtons(seat), min(4, len(valid))
                                     + game.swinesValid(seat) + game.hyperswinesValid(seat))
                self.assertEqual(party.knownTeams(seat), plainKnownTeams(party, seat))
            for team in (dk.RE, dk.CONTRA):
                self.assertEqual(game.teamAnnouncement(team), plainTeamAnnouncement(game, team))
            (seat,) = party.waitingFor()
            if game.phase == PLAYING:
                self.assertEqual(party._buttonCount(seat),
                                 len(party.choices(seat, suggest=False)))
            action: Any = party.botAction(seat)
            valid = game.validAnnouncements(seat)
            if valid and rng.random() < 0.3:
                action = {"announcement": dk.ANNOUNCEMENTS[rng.choice(valid)]}
            elif game.phase == PLAYING and game.swinesValid(seat) and rng.random() < 0.5:
                action = {"swines": True}
            elif game.phase == PLAYING and game.hyperswinesValid(seat) and rng.random() < 0.5:
                action = {"hyperswines": True}
            self.assertIsInstance(party.act(seat, action), Instructions)

    @settings(max_examples=200, deadline=None)
    @given(st.sampled_from(RULES), st.randoms(use_true_random=False))
    def test_reservationCount(self, rules: str, rng: random.Random) -> None:
        """Any hand's reservation buttons are counted as the reservations offered."""
        party = start(1, rules)
        deck = list(dk.deckFor(party.rules.flag("with nines")))
        rng.shuffle(deck)
        size = len(deck) // PLAYERS
        # any number of nines, kings, queens and aces (near the throwing limits too)
        hand: list[str] = []
        for value in rng.sample(["nine", "king", "queen", "ace"], 4):
            some = [c for c in deck if dk.valueOf(c) == value][:rng.randrange(9)]
            for card in some[:size - len(hand)]:
                deck.remove(card)
                hand.append(card)
        hand += deck[:size - len(hand)]
        party.game.hands[0] = hand
        self.assertEqual(dk._reservationCount(hand, party.rules),
                         len(party._reservationsOffered(0, counting=True)))

    @settings(max_examples=15, deadline=None)
    @given(st.integers(0, 100_000), st.sampled_from(RULES))
    def test_eventWords(self, seed: int, rules: str) -> None:
        """The words of each step's events: the same whether a card alone is read fast or not."""
        _, _, steps = play(seed, rules, True)
        for step in steps:
            self.assertEqual(dk.eventWords(step.events), dk.eventWords(list(step.events)))
            self.assertEqual(step.game_state.text or "", dk.eventWords(list(step.events)))
