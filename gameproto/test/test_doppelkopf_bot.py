"""
The Doppelkopf bot's decisions (L{gameproto.games.doppelkopf}, "the bot"):
its reservation, poverty answer, announcement and genscher from the hand
(and the tricks) it holds, each on hands made for the case; and, over many
parties, that it plays better than a player who always takes the first
legal card.
"""

from __future__ import annotations

import unittest
from typing import Sequence

import attrs

from gameproto.engine.contract import JSON, Errors, Instructions
from gameproto.games.doppelkopf import (
    CONTRA,
    DOPPELKOPF,
    MARRIAGE,
    NORMAL,
    PLAYING,
    POVERTY,
    POVERTY_ANSWER,
    RE,
    RESERVING,
    SOLO_CLUB,
    THROWN_NINES,
    DoppelkopfParty,
    DoppelkopfView,
    Reservation,
    Rules,
    botAnnouncement,
    botGenscher,
    botPovertyAccept,
    botReservation,
    doppelkopfBot,
)

DEFAULTS = Rules.default()

MARRIAGE_HAND = ("club queen", "club queen", "spade ace", "spade ace", "heart ace", "heart king",
                 "club ace", "club ten", "spade king", "heart nine", "diamond jack", "spade jack")
"""Both club queens."""
POOR_HAND = ("diamond ace", "club jack", "spade queen", "club ace", "club ace", "club ten",
             "club king", "spade ace", "spade ten", "spade king", "heart ace", "heart king")
"""Three trumps."""
CLUB_SOLO_HAND = ("spade queen", "spade queen", "heart queen", "heart queen", "diamond queen",
                  "club queen", "heart ten", "heart ten", "club ace", "club ace", "club ten",
                  "spade ace")
"""Eleven trumps in a club solo, eight of them queens and dollen, and a plain ace."""
NINES_HAND = ("club nine", "club nine", "spade nine", "spade nine", "heart nine",
              "diamond ace", "diamond ten", "club jack", "spade jack", "club ace", "spade ace",
              "heart ace")
"""Five nines, four trumps."""
SWINES_HAND = ("diamond ace", "diamond ace", "club jack", "spade jack", "heart jack",
               "diamond king", "club ace", "club ten", "spade ace", "spade ten", "heart ace",
               "heart king")
"""Both trump aces, six trumps."""
PLAIN_HAND = ("club queen", "spade jack", "heart jack", "diamond ten", "diamond king",
              "diamond nine", "club ace", "club king", "spade ten", "spade king", "heart ace",
              "heart king")
"""Six trumps, one high: nothing to reserve."""
STRONG_HAND = ("club queen", "spade queen", "heart queen", "heart ten", "heart ten",
               "diamond ace", "diamond ten", "club jack", "club ace", "spade ace", "heart ace",
               "spade king")
"""Eight trumps, five of them queens and dollen, three plain aces."""
GENSCHER_HAND = ("diamond king", "diamond king", "club queen", "diamond ten", "club ace",
                 "spade nine", "heart nine")
"""Both trump kings (and a club queen), late in a game."""


def rules(text: str) -> Rules:
    """FreeDoko's defaults, with the rule lines ``text``."""
    return Rules.parse(text)


def chosen(hand: Sequence[str], rules: Rules) -> tuple[str, str | None]:
    """The game type and marriage selector of the bot's reservation (its swines aside)."""
    reservation = botReservation(hand, rules)
    return reservation.gameType, reservation.selector


class ReservationTests(unittest.TestCase):
    """L{botReservation}: from the hand, in FreeDoko's order of precedence."""

    def test_marriage(self) -> None:
        """Both club queens: a marriage, with the first selector the rules allow."""
        self.assertEqual(chosen(MARRIAGE_HAND, DEFAULTS), (MARRIAGE, "first foreign"))
        self.assertEqual(chosen(MARRIAGE_HAND, rules("marriage first foreign = false\n")),
                         (MARRIAGE, "first color"))

    def test_poverty(self) -> None:
        """Three trumps: a poverty (a normal game where the rules have none)."""
        self.assertEqual(chosen(POOR_HAND, DEFAULTS), (POVERTY, None))
        self.assertEqual(chosen(POOR_HAND, rules("poverty = false\n")), (NORMAL, None))

    def test_colorSolo(self) -> None:
        """Nine trumps or more in a colour, four high, ten with the plain aces: that solo."""
        self.assertEqual(chosen(CLUB_SOLO_HAND, DEFAULTS), (SOLO_CLUB, None))
        self.assertEqual(chosen(CLUB_SOLO_HAND, rules("solo color = false\n")), (NORMAL, None))

    def test_thrownNines(self) -> None:
        """Five nines and fewer than six trumps: thrown, where the rules allow it."""
        self.assertEqual(chosen(NINES_HAND, DEFAULTS), (THROWN_NINES, None))
        self.assertEqual(chosen(NINES_HAND, rules("throw with nines = false\n")), (NORMAL, None))

    def test_swines(self) -> None:
        """Both trump aces under ``swines announcement begin``: swines with the reservation."""
        self.assertEqual(botReservation(SWINES_HAND, DEFAULTS),
                         Reservation(NORMAL, None, True))
        self.assertEqual(botReservation(SWINES_HAND, rules("swines = false\n")),
                         Reservation(NORMAL))

    def test_normal(self) -> None:
        self.assertEqual(botReservation(PLAIN_HAND, DEFAULTS), Reservation(NORMAL))


class PovertyAnswerTests(unittest.TestCase):
    """L{botPovertyAccept}: a poverty is taken with seven trumps, three of them high."""

    def test_strong(self) -> None:
        self.assertTrue(botPovertyAccept(STRONG_HAND, DEFAULTS))

    def test_weak(self) -> None:
        self.assertFalse(botPovertyAccept(PLAIN_HAND, DEFAULTS))
        self.assertFalse(botPovertyAccept(POOR_HAND, DEFAULTS))


def firstCardView(seed: int = 11) -> DoppelkopfView:
    """The view of the seat to lead the first trick of a normal game."""
    party = DOPPELKOPF.start({"rounds": 1}, {"seed": seed})
    assert isinstance(party, DoppelkopfParty)
    while party.game.phase == RESERVING:
        seat = party.game.turn
        assert seat is not None
        assert isinstance(party.act(seat, {"reservation": "normal"}), Instructions)
    assert party.game.phase == PLAYING and party.game.gameType == NORMAL
    seat = party.game.turn
    assert seat is not None
    return party.view(seat)


class AnnouncementTests(unittest.TestCase):
    """L{botAnnouncement}: re or contra with a strong hand, before the second trick is over."""

    def test_strongHand(self) -> None:
        view = attrs.evolve(firstCardView(), hand=STRONG_HAND)
        self.assertIn("no 120", view.validAnnouncements)
        self.assertEqual(botAnnouncement(view), "no 120")
        self.assertEqual(doppelkopfBot(view, view.seat), {"announcement": "no 120"})

    def test_weakHand(self) -> None:
        view = attrs.evolve(firstCardView(), hand=PLAIN_HAND)
        self.assertIsNone(botAnnouncement(view))

    def test_late(self) -> None:
        """After the second trick, or when the rules allow no re/contra now: none."""
        view = attrs.evolve(firstCardView(), hand=STRONG_HAND)
        self.assertIsNone(botAnnouncement(attrs.evolve(view, tricksPlayed=2)))
        self.assertIsNone(botAnnouncement(attrs.evolve(view, validAnnouncements=("no 90",))))


class GenscherTests(unittest.TestCase):
    """
    L{botGenscher}: with the first of both trump kings, under the rule
    ``genscher``, the partner who makes more than 120 points with the bot.
    """

    def view(self, points: Sequence[int], teams: Sequence[str | None] = (RE, None, None, None),
             hand: Sequence[str] = GENSCHER_HAND,
             text: str = "genscher = true\n") -> DoppelkopfView:
        return attrs.evolve(firstCardView(), seat=0, hand=tuple(hand), teams=tuple(teams),
                            trickPoints=tuple(points), gameType=NORMAL, tricksPlayed=5,
                            rules=rules(text))

    def test_secureVictory(self) -> None:
        """The bot and the player with most points have more than 120: that player."""
        view = self.view((50, 30, 80, 0))
        self.assertEqual(botGenscher(view, "diamond king"), 2)
        move: JSON = doppelkopfBot(attrs.evolve(view, legalCards=("diamond king",)), 0)
        self.assertEqual(move, {"card": "diamond king", "genscher": 2})

    def test_noGenscher(self) -> None:
        """Not 121 together, the team already there, another card, or the rule off: none."""
        self.assertIsNone(botGenscher(self.view((50, 30, 70, 0)), "diamond king"))
        self.assertIsNone(botGenscher(self.view((50, 30, 80, 0), (RE, CONTRA, RE, CONTRA)),
                                      "diamond king"))
        self.assertIsNone(botGenscher(self.view((50, 30, 80, 0)), "diamond ten"))
        self.assertIsNone(botGenscher(self.view((50, 30, 80, 0), text=""), "diamond king"))
        one = ("diamond king",) + GENSCHER_HAND[2:]
        self.assertIsNone(botGenscher(self.view((50, 30, 80, 0), hand=one), "diamond king"))

    def test_silentMarriage(self) -> None:
        """
        Without a club queen, and not knowing two players of Re, the bot
        cannot rule out a silent marriage (no genscher there): none.
        """
        hand = ("diamond king", "diamond king", "spade queen") + GENSCHER_HAND[3:]
        self.assertIsNone(botGenscher(self.view((50, 30, 80, 0), (CONTRA, None, None, None),
                                                hand=hand), "diamond king"))
        self.assertEqual(botGenscher(self.view((50, 30, 80, 0), (CONTRA, RE, None, RE),
                                               hand=hand), "diamond king"), 2)


def firstLegal(party: DoppelkopfParty, seat: int) -> JSON:
    """A player with no thought: ``normal``, no poverty taken, the first legal card."""
    game = party.game
    if game.phase == RESERVING:
        return {"reservation": "normal"}
    if game.phase == POVERTY_ANSWER:
        return {"poverty accepted": False}
    return {"card": game.legalCardsFor(seat)[0]}


def playParty(seed: int, bots: set[int]) -> tuple[int, ...]:
    """A party of one round, ``bots`` in their seats, L{firstLegal} in the others: the totals."""
    party = DOPPELKOPF.start({"rounds": 1}, {"seed": seed})
    assert isinstance(party, DoppelkopfParty)
    instructions = party.instructions()
    while not instructions.game_state.gameover:
        seat = instructions.requested_actions[0].player
        action = (doppelkopfBot(party.view(seat), seat) if seat in bots
                  else firstLegal(party, seat))
        outcome = party.act(seat, action)
        assert not isinstance(outcome, Errors), (action, outcome)
        instructions = outcome
    return tuple(party.totals)


class StrengthTests(unittest.TestCase):
    """The bot against a player who always takes the first legal card."""

    def test_botBeatsFirstLegal(self) -> None:
        """
        Twenty deals, each played twice (the bots in seats 1 and 3, then in 2
        and 4, so that both sides hold every hand): the bots' points over
        the pair of parties are ahead for most deals, and in all.
        """
        margins = []
        for seed in range(1, 21):
            first = playParty(seed, {0, 2})
            second = playParty(seed, {1, 3})
            margins.append(first[0] + first[2] + second[1] + second[3])
        self.assertGreater(sum(margins), 0, margins)
        self.assertGreaterEqual(sum(m > 0 for m in margins), 15, margins)
