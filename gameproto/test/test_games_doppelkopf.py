"""
Tests for L{gameproto.games.doppelkopf}: FreeDoko's cards, dealing, trick
rules, game types, announcements and scores, checked against real FreeDoko
0.7.13 traffic (``../shared/tools/freedoko/transcripts``) where it exists.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.trial import unittest

from gameproto.engine.contract import Errors, IncorrectValue, Instructions, errorText
from gameproto.engine.record import GameRecord, RecordedAction, replay
from gameproto.games import doppelkopf as dk
from gameproto.test import freedoko_real
from gameproto.games.doppelkopf import (
    CONTRA,
    NO90,
    NO120,
    RE,
    REPLY,
    CardOrder,
    DoppelkopfGame,
    IllegalMove,
    Reservation,
    Rules,
)

TRANSCRIPTS = str(freedoko_real.TRANSCRIPTS)
THIRTEEN = os.path.join(TRANSCRIPTS, "transcript_realParent_realChild_13games.log")


def _parentLines(path: str) -> list[str]:
    """The real parent's messages (``P>`` lines), without their times."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            if not raw.startswith("P> "):
                continue
            body = raw[3:].rstrip("\n")
            m = re.match(r"^\d+\.\d+: (.*)$", body)
            lines.append(m.group(1) if m else body)
    return lines


def _cards(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def _stripComment(card: str) -> str:
    return re.sub(r"\s*\(.*\)\s*$", "", card).strip()


class Transcript:
    """The games of a transcript: hands, party seed, and each game's parent lines."""

    def __init__(self, path: str) -> None:
        self.lines = _parentLines(path)
        self.rulesText = ""
        self.partySeed = 0
        self.partyStartplayer = 0
        inRules = False
        ruleLines = []
        for line in self.lines:
            if line == "{":
                inRules = True
                continue
            if line == "}":
                inRules = False
                continue
            if inRules:
                ruleLines.append(line)
            elif line.startswith("party: seed: "):
                self.partySeed = int(line.split(": ")[2])
            elif line.startswith("party: startplayer: "):
                self.partyStartplayer = int(line.split(": ")[2])
        self.rulesText = "\n".join(ruleLines)
        self.games: list[dict[str, Any]] = []
        current: dict[str, Any] | None = None
        for line in self.lines:
            if line == "game: open":
                current = {"deals": [], "actions": [], "startplayer": None, "seed": None}
                self.games.append(current)
            elif current is None:
                continue
            elif line.startswith("game: startplayer: "):
                current["startplayer"] = int(line.split(": ")[2])
            elif line.startswith("game: seed: "):
                current["seed"] = int(line.split(": ")[2])
            elif line.startswith("game: hand "):
                m = re.match(r"game: hand (\d): (.*)$", line)
                assert m
                seat = int(m.group(1))
                if seat == 0:
                    current["deals"].append([None] * 4)
                current["deals"][-1][seat] = _cards(m.group(2))
                current["actions"].append(("hand", seat))
            elif line.startswith("gameplay action: "):
                current["actions"].append(("action", line[len("gameplay action: "):]))
            elif line == "game: finish":
                current["finished"] = True


def replayTranscriptGame(test: unittest.TestCase, rules: Rules, game: dict[str, Any],
                         seed: int, usedSeeds: list[int]) -> DoppelkopfGame:
    """
    Play one transcript game through L{DoppelkopfGame}, checking every
    dealt hand, every card's legality, every trick's winner, the marriage,
    swines and announcements as the real parent decided them.
    """
    g = DoppelkopfGame(rules, seed, game["startplayer"], usedSeeds)
    deal = 0
    said: list[tuple[int, str]] = []
    for kind, text in game["actions"]:
        if kind == "hand":
            if text == 0:
                expected = game["deals"][deal]
                for s in range(4):
                    # FreeDoko's hand lines repeat the first card: 13 entries for 12 cards
                    test.assertEqual(expected[s][1:], list(g.dealt[s]), f"deal {deal} seat {s}")
                deal += 1
            continue
        keyword, _, rest = text.partition(" = ")
        if text in ("trick open", "trick taken"):
            continue
        if text == "poverty denied by all":
            test.assertEqual(g.phase, dk.RESERVING)
            test.assertTrue(g.redeals and g.redeals[-1][1] == "poverty denied by all")
            continue
        parts = [p.strip() for p in rest.split(",")]
        seat = int(parts[0])
        if keyword == "reservation":
            reservation = Reservation.parse(", ".join(parts[1:]))
            assert reservation is not None
            g.reserve(seat, reservation)
        elif keyword == "poverty shift":
            g.povertyShift(seat, parts[1:])
        elif keyword == "poverty denied":
            g.povertyAnswer(seat, False)
        elif keyword == "poverty accepted":
            g.povertyAnswer(seat, True)
        elif keyword == "poverty returned":
            g.povertyReturn(seat, parts[1:])
        elif keyword == "card played":
            card = _stripComment(parts[1])
            test.assertIn(card, g.legalCardsFor(seat), f"{card} of {seat}: {g.hands[seat]}")
            g.playCard(seat, card)
        elif keyword == "trick full":
            last = g.tricks[-1]
            test.assertEqual(last.leader, seat)
            test.assertEqual(list(last.cards), parts[1:5])
            test.assertEqual(last.winner, int(parts[5]), f"trick {len(g.tricks)}: {parts}")
        elif keyword == "announcement":
            number = dk.announcementNumber(parts[1])
            assert number is not None
            said.append((seat, parts[1]))
            if g.seatAnnouncement(seat) != number:
                test.assertEqual(g.announce(seat, number), number)
        elif keyword == "marriage":
            test.assertEqual((g.soloplayer, g.partner), (seat, int(parts[1])))
        elif keyword == "swines":
            test.assertEqual(g.swinesOwner, seat)
        elif keyword == "hyperswines":
            test.assertEqual(g.hyperswinesOwner, seat)
        else:
            test.fail(f"unknown action {text!r}")
    made = [(e.data["seat"], e.data["announcement"]) for e in g.events
            if e.kind == "announcement"]
    test.assertEqual(made, said)
    return g


class TranscriptTests(unittest.TestCase):
    """The real FreeDoko parent's 13 games, replayed through the rules."""

    def setUp(self) -> None:
        if not os.path.exists(THIRTEEN):
            raise unittest.SkipTest("../shared/tools/freedoko/transcripts is absent")
        self.transcript = Transcript(THIRTEEN)
        self.rules = Rules.parse(self.transcript.rulesText)

    def test_rulesAreTheDefaults(self) -> None:
        """The transcript's rules block is FreeDoko's default, our L{Rules.default}."""
        self.assertEqual(self.rules.asDict(), Rules.default().asDict())

    def test_dealing(self) -> None:
        """
        Every hand of the 13-game party, redeals included, comes from the
        party seed by FreeDoko's generator, the startplayer of each game and
        the next seed 49 steps on (FreeDoko's Party::seed_next).
        """
        seed = self.transcript.partySeed % dk.SEED_LIMIT
        used: list[int] = []
        deals = 0
        for game in self.transcript.games:
            self.assertEqual(game["seed"], seed)
            for hands in game["deals"]:
                dealt = dk.dealHands(seed, game["startplayer"])
                for s in range(4):
                    self.assertEqual(hands[s][0], hands[s][1])
                    self.assertEqual(hands[s][1:], list(dealt[s]))
                deals += 1
                if hands is not game["deals"][-1]:
                    seed = dk.seedNext(seed, used)
            used.append(seed)
            seed = dk.seedNext(seed, used)
        self.assertGreaterEqual(deals, 16)

    def test_everyTrick(self) -> None:
        """Every card of every game is legal and every trick has the real program's winner."""
        seed = self.transcript.partySeed % dk.SEED_LIMIT
        used: list[int] = []
        finished = 0
        tricks = 0
        for game in self.transcript.games:
            g = replayTranscriptGame(self, self.rules, game, seed, used)
            seed = g.seed
            tricks += len(g.tricks)
            if game.get("finished"):
                finished += 1
                self.assertEqual(g.phase, dk.FINISHED)
                assert g.summary is not None
                self.assertEqual(sum(g.summary.trickPoints), 240)
                self.assertEqual(sum(g.summary.scores), 0)
            used.append(seed)
            seed = dk.seedNext(seed, used)
        self.assertEqual(finished, 13)
        self.assertEqual(tricks, 13 * 12)

    def test_realParentWithSeedEleven(self) -> None:
        """The other real-parent transcript (``--seed=11``) deals the same hands as we do."""
        path = os.path.join(TRANSCRIPTS, "transcript_realParent_pyChild.log")
        if not os.path.exists(path):
            raise unittest.SkipTest("transcript absent")
        seed, startplayer, checked = None, 0, 0
        with open(path, encoding="utf-8") as f:
            for raw in f:
                m = re.match(r"^S> \d+\.\d+: (.*)$", raw.rstrip("\n"))
                if not m:
                    continue
                line = m.group(1)
                if line.startswith("party: seed: "):
                    seed = int(line.split(": ")[2])
                elif line.startswith("game: startplayer: "):
                    startplayer = int(line.split(": ")[2])
                elif line.startswith("game: hand ") and seed is not None and checked < 4:
                    hm = re.match(r"game: hand (\d): (.*)$", line)
                    assert hm
                    hands = dk.dealHands(seed, startplayer)
                    self.assertEqual(_cards(hm.group(2))[1:], list(hands[int(hm.group(1))]))
                    checked += 1
        self.assertEqual(checked, 4)


# -- cards and dealing ---------------------------------------------------------


class CardTests(unittest.TestCase):
    def test_deck(self) -> None:
        """48 cards: every one of the 24 twice, named as on FreeDoko's wire; 240 points."""
        deck = dk.deckFor()
        self.assertEqual(len(deck), 48)
        self.assertEqual(len(set(deck)), 24)
        self.assertEqual(sum(dk.cardPoints(c) for c in deck), 240)
        self.assertIn("club queen", deck)
        self.assertEqual(dk.POINTS, {"ace": 11, "ten": 10, "king": 4, "queen": 3, "jack": 2,
                                     "nine": 0})
        self.assertEqual(len(dk.deckFor(False)), 40)

    def test_deckOrder(self) -> None:
        """FreeDoko's Rule::cards: per color ace, king, queen, jack, ten; the nines last."""
        self.assertEqual(dk.DECK_ORDER[:6], ("club ace", "club king", "club queen", "club jack",
                                             "club ten", "spade ace"))
        self.assertEqual(dk.DECK_ORDER[-4:], ("club nine", "spade nine", "heart nine",
                                              "diamond nine"))

    def test_generator(self) -> None:
        """r = (7200 r + 100) mod 279841; the next game's seed is 49 steps on."""
        self.assertEqual(dk._nextRandom(0), 100)
        self.assertEqual(dk._nextRandom(1), 7300)
        self.assertEqual(dk.seedNext(97110), 28962)

    def test_seedNextSkipsUsedSeeds(self) -> None:
        """A seed within 49 steps of a finished game's seed is skipped (Party::seed_next)."""
        plain = dk.seedNext(500)
        self.assertEqual(dk.seedNext(500, [plain]), plain + 1)
        self.assertEqual(dk.seedNext(500, [plain - 0, plain + 1]), plain + 2)

    def test_dealStartplayer(self) -> None:
        """Hand p goes to seat (p + startplayer) % 4."""
        base = dk.dealHands(1234, 0)
        for start in range(4):
            hands = dk.dealHands(1234, start)
            for p in range(4):
                self.assertEqual(hands[(p + start) % 4], base[p])

    @given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=3))
    @settings(max_examples=50, deadline=None)
    def test_dealConservesCards(self, seed: int, start: int) -> None:
        hands = dk.dealHands(seed, start)
        self.assertEqual(sorted(c for h in hands for c in h), sorted(dk.deckFor()))
        self.assertTrue(all(len(h) == 12 for h in hands))


# -- trick rules ---------------------------------------------------------------

RULES = Rules.default()


def _orderHighToLow(order: CardOrder) -> list[str]:
    return sorted(order.rank, key=lambda c: -order.rank[c])


class TrumpOrderTests(unittest.TestCase):
    def test_normal(self) -> None:
        """
        The normal game's trumps, highest first (DDV TSR 2.3, FreeDoko
        Game::update_cards): heart ten (dolle), the queens and jacks by club,
        spade, heart, diamond, then diamond ace, ten, king, nine.
        """
        order = CardOrder.of(dk.NORMAL, RULES)
        self.assertEqual(_orderHighToLow(order), [
            "heart ten", "club queen", "spade queen", "heart queen", "diamond queen",
            "club jack", "spade jack", "heart jack", "diamond jack",
            "diamond ace", "diamond ten", "diamond king", "diamond nine"])
        self.assertEqual(order.suit("heart ace"), "heart")
        self.assertEqual(order.suit("heart ten"), "trump")

    def test_plainColors(self) -> None:
        """In a color: ace, ten, king, (queen, jack,) nine; another color never wins."""
        order = CardOrder.of(dk.NORMAL, RULES)
        self.assertEqual(dk.trickWinner(order, ["club king", "club ace", "club ten", "club nine"]),
                         1)
        self.assertEqual(dk.trickWinner(order, ["spade nine", "club ace", "heart ace",
                                                "spade king"]), 3)
        self.assertEqual(dk.trickWinner(order, ["spade ace", "spade ace", "diamond nine",
                                                "spade ten"]), 2)

    def test_equalCardsFirstWins(self) -> None:
        """Of two equal cards the first played wins (DDV TSR 2.3)."""
        order = CardOrder.of(dk.NORMAL, RULES)
        self.assertEqual(dk.trickWinner(order, ["club queen", "club queen", "diamond nine",
                                                "heart jack"]), 0)

    def test_dollenSecondOverFirst(self) -> None:
        """``dollen second over first``: the second heart ten beats the first, in the last trick too."""
        order = CardOrder.of(dk.NORMAL, RULES)
        trick = ["heart ten", "club queen", "heart ten", "diamond nine"]
        self.assertEqual(dk.trickWinner(order, trick), 2)
        self.assertEqual(dk.trickWinner(order, trick, lastTrick=True), 2)

    def test_dollenContraryInLastTrick(self) -> None:
        """``dollen contrary in last trick``: in the last trick the first heart ten wins."""
        order = CardOrder.of(dk.NORMAL, RULES.with_(dollen_contrary_in_last_trick=True))
        trick = ["heart ten", "club queen", "heart ten", "diamond nine"]
        self.assertEqual(dk.trickWinner(order, trick), 2)
        self.assertEqual(dk.trickWinner(order, trick, lastTrick=True), 0)
        first = CardOrder.of(dk.NORMAL, RULES.with_(dollen_second_over_first=False))
        self.assertEqual(dk.trickWinner(first, trick), 0)

    def test_dollenFirstOverSecondWithSwines(self) -> None:
        rules = RULES.with_(dollen_first_over_second_with_swines=True)
        trick = ["heart ten", "heart ten", "club queen", "diamond nine"]
        self.assertEqual(dk.trickWinner(CardOrder.of(dk.NORMAL, rules), trick), 1)
        self.assertEqual(dk.trickWinner(CardOrder.of(dk.NORMAL, rules, swines=True), trick), 0)

    def test_withoutDollen(self) -> None:
        """Without dollen the heart ten is a plain heart card."""
        order = CardOrder.of(dk.NORMAL, RULES.with_(dollen=False))
        self.assertFalse(order.isTrump("heart ten"))
        self.assertEqual(_orderHighToLow(order)[0], "club queen")

    def test_swinesAndHyperswines(self) -> None:
        """Swines (both trump aces) over the dollen; hyperswines (trump nines) over the swines."""
        order = CardOrder.of(dk.NORMAL, RULES, swines=True)
        self.assertEqual(_orderHighToLow(order)[:2], ["diamond ace", "heart ten"])
        self.assertFalse(order.isFox("diamond ace"))
        hyper = CardOrder.of(dk.NORMAL, RULES.with_(hyperswines=True), swines=True,
                             hyperswines=True)
        self.assertEqual(_orderHighToLow(hyper)[:3], ["diamond nine", "diamond ace", "heart ten"])
        solo = CardOrder.of(dk.SOLO_SPADE, RULES, swines=True)
        self.assertEqual(_orderHighToLow(solo)[0], "spade ace")

    def test_colorSoli(self) -> None:
        """A color solo: that color takes the diamonds' place; in a heart solo the heart ten is the dolle."""
        club = _orderHighToLow(CardOrder.of(dk.SOLO_CLUB, RULES))
        self.assertEqual(club[9:], ["club ace", "club ten", "club king", "club nine"])
        self.assertNotIn("diamond ace", club)
        heart = _orderHighToLow(CardOrder.of(dk.SOLO_HEART, RULES))
        self.assertEqual(heart[0], "heart ten")
        self.assertEqual(heart[-3:], ["heart ace", "heart king", "heart nine"])
        self.assertEqual(len(heart), 12)
        diamond = _orderHighToLow(CardOrder.of(dk.SOLO_DIAMOND, RULES))
        self.assertEqual(diamond, _orderHighToLow(CardOrder.of(dk.NORMAL, RULES)))

    def test_pictureSoli(self) -> None:
        """The picture soli (FreeDoko Game::less): by value, then club, spade, heart, diamond."""
        self.assertEqual(_orderHighToLow(CardOrder.of(dk.SOLO_JACK, RULES)),
                         ["club jack", "spade jack", "heart jack", "diamond jack"])
        self.assertEqual(_orderHighToLow(CardOrder.of(dk.SOLO_QUEEN, RULES))[0], "club queen")
        self.assertEqual(_orderHighToLow(CardOrder.of(dk.SOLO_KING, RULES))[-1], "diamond king")
        self.assertEqual(_orderHighToLow(CardOrder.of(dk.SOLO_QUEEN_JACK, RULES))[3:5],
                         ["diamond queen", "club jack"])
        self.assertEqual(_orderHighToLow(CardOrder.of(dk.SOLO_KING_JACK, RULES))[3:5],
                         ["diamond king", "club jack"])
        self.assertEqual(_orderHighToLow(CardOrder.of(dk.SOLO_KING_QUEEN, RULES))[3:5],
                         ["diamond king", "club queen"])
        koehler = _orderHighToLow(CardOrder.of(dk.SOLO_KOEHLER, RULES))
        self.assertEqual([koehler[0], koehler[4], koehler[8]],
                         ["club king", "club queen", "club jack"])
        self.assertFalse(CardOrder.of(dk.SOLO_JACK, RULES).isTrump("heart ten"))
        order = CardOrder.of(dk.SOLO_QUEEN, RULES)
        # in a picture solo the ten ranks between ace and king in its color
        self.assertEqual(dk.trickWinner(order, ["heart king", "heart ten", "heart ace",
                                                "heart nine"]), 2)

    def test_meatless(self) -> None:
        """Meatless: no trump at all, every color ace, ten, king, queen, jack, nine."""
        order = CardOrder.of(dk.SOLO_MEATLESS, RULES)
        self.assertEqual(order.rank, {})
        self.assertEqual(dk.trickWinner(order, ["club queen", "club jack", "club king",
                                                "club nine"]), 2)
        self.assertEqual(dk.trickWinner(order, ["heart ten", "club ace", "heart queen",
                                                "heart ace"]), 3)


class LegalCardTests(unittest.TestCase):
    def test_followSuit(self) -> None:
        """Follow the led color if you can; trump is a suit of its own (DDV TSR 5.2)."""
        order = CardOrder.of(dk.NORMAL, RULES)
        hand = ["heart ace", "heart ten", "club queen", "spade nine"]
        self.assertEqual(dk.legalCards(order, hand, ["heart king"]), ("heart ace",))
        self.assertEqual(dk.legalCards(order, hand, ["diamond nine"]), ("heart ten", "club queen"))
        self.assertEqual(dk.legalCards(order, hand, ["club ace"]), tuple(hand))
        self.assertEqual(dk.legalCards(order, hand, []), tuple(hand))

    def test_soloChangesSuits(self) -> None:
        order = CardOrder.of(dk.SOLO_JACK, RULES)
        hand = ["diamond ace", "club jack", "heart ten"]
        self.assertEqual(dk.legalCards(order, hand, ["diamond nine"]), ("diamond ace",))
        self.assertEqual(dk.legalCards(order, hand, ["spade jack"]), ("club jack",))
        self.assertEqual(dk.legalCards(order, hand, ["heart king"]), ("heart ten",))

    @given(st.integers(min_value=0, max_value=279839),
           st.sampled_from(dk.GAME_TYPES), st.integers(min_value=0, max_value=3))
    @settings(max_examples=60, deadline=None)
    def test_legalNeverEmpty(self, seed: int, gameType: str, cut: int) -> None:
        order = CardOrder.of(gameType, RULES)
        hands = dk.dealHands(seed, 0)
        trick = [hands[(cut + 1) % 4][0]]
        for h in hands:
            self.assertTrue(dk.legalCards(order, h, trick))
            self.assertTrue(set(dk.legalCards(order, h, trick)) <= set(h))


# -- game types ------------------------------------------------------------------


def _hands(fixed: dict[int, list[str]]) -> list[list[str]]:
    """
    Four hands of 12: ``fixed`` cards for some seats, the rest of the deck
    dealt round (the club queens to seats 1 and 3 unless ``fixed`` places one).
    """
    fixed = {s: list(c) for s, c in fixed.items()}
    if not any("club queen" in c for c in fixed.values()):
        for seat in (1, 3):
            fixed.setdefault(seat, []).append("club queen")
    rest = list(dk.deckFor())
    for cards in fixed.values():
        for c in cards:
            rest.remove(c)
    hands = [list(fixed.get(s, [])) for s in range(4)]
    seat = 0
    while rest:
        if len(hands[seat]) < 12:
            hands[seat].append(rest.pop(0))
        seat = (seat + 1) % 4
    return hands


def _rigged(hands: list[list[str]], startplayer: int = 0, rules: Rules = RULES,
            seed: int = 0) -> DoppelkopfGame:
    g = DoppelkopfGame(rules, seed, startplayer)
    g.dealt = tuple(tuple(h) for h in hands)
    g.hands = [list(h) for h in hands]
    return g


def _reserve(g: DoppelkopfGame, reservations: dict[int, str]) -> None:
    for i in range(4):
        seat = (g.startplayer + i) % 4
        parsed = Reservation.parse(reservations.get(seat, "normal"))
        assert parsed is not None
        g.reserve(seat, parsed)


def _playTricks(g: DoppelkopfGame, count: int) -> None:
    for _ in range(count * 4):
        assert g.turn is not None
        g.playCard(g.turn, g.legalCardsFor(g.turn)[0])


NINES = ["club nine", "club nine", "spade nine", "spade nine", "heart nine"]
POOR = ["diamond nine", "diamond king", "heart jack", "club ace", "club ace", "spade ace",
        "spade ace", "heart ace", "heart ace", "club ten", "club ten", "spade ten"]


class GameTypeTests(unittest.TestCase):
    def test_reservationTurns(self) -> None:
        """Reservations in seat order from the startplayer; no other seat may speak."""
        g = _rigged(_hands({}), startplayer=2)
        self.assertEqual(g.turn, 2)
        self.assertRaises(IllegalMove, g.reserve, 0, Reservation())
        g.reserve(2, Reservation())
        self.assertEqual(g.turn, 3)

    def test_normalTeams(self) -> None:
        """Re: the holders of the club queens (DDV TSR 2.4)."""
        g = _rigged(_hands({1: ["club queen"], 3: ["club queen"]}))
        _reserve(g, {})
        self.assertEqual(g.gameType, dk.NORMAL)
        self.assertEqual(g.teams, [CONTRA, RE, CONTRA, RE])
        self.assertEqual(g.turn, 0)

    def test_soloBeforeEverything(self) -> None:
        """The first solo from the startplayer on is played; its player leads (``lustsolo player leads``)."""
        g = _rigged(_hands({0: ["club queen", "club queen"], 2: POOR}), startplayer=1)
        _reserve(g, {3: "solo jack", 0: "solo queen", 2: "poverty"})
        self.assertEqual((g.gameType, g.soloplayer), (dk.SOLO_JACK, 3))
        self.assertEqual(g.teams, [CONTRA, CONTRA, CONTRA, RE])
        self.assertEqual(g.turn, 3)

    def test_soloNotAllowed(self) -> None:
        g = _rigged(_hands({}), rules=RULES.with_(solo_koehler=False))
        _reserve(g, {1: "solo koehler"})
        self.assertEqual(g.gameType, dk.NORMAL)

    def test_povertyBeforeMarriage(self) -> None:
        """``marriage before poverty = false``: a poverty is played rather than the marriage."""
        hands = _hands({0: ["club queen", "club queen"], 2: POOR})
        g = _rigged(hands)
        _reserve(g, {0: "marriage, first foreign", 2: "poverty"})
        self.assertEqual((g.gameType, g.soloplayer, g.phase), (dk.POVERTY, 2, dk.POVERTY_SHIFT))
        g = _rigged(hands, rules=RULES.with_(marriage_before_poverty=True))
        _reserve(g, {0: "marriage, first foreign", 2: "poverty"})
        self.assertEqual((g.gameType, g.soloplayer, g.phase), (dk.MARRIAGE, 0, dk.PLAYING))

    def test_falseReservationsAreIgnored(self) -> None:
        """A poverty or marriage the hand does not have is a normal game (FreeDoko Game::init)."""
        g = _rigged(_hands({1: ["club queen"], 3: ["club queen"]}))
        _reserve(g, {0: "poverty", 1: "marriage, first trump", 2: "thrown nines"})
        self.assertEqual(g.gameType, dk.NORMAL)

    def test_thrownNines(self) -> None:
        """Five nines thrown: the game is dealt again from the next seed, same startplayer."""
        g = _rigged(_hands({1: NINES}), startplayer=1, seed=1000)
        _reserve(g, {1: "thrown nines"})
        self.assertEqual(g.phase, dk.RESERVING)
        self.assertEqual(g.redeals, [(1000, dk.THROWN_NINES)])
        self.assertEqual(g.seed, dk.seedNext(1000))
        self.assertEqual(list(g.dealt), list(dk.dealHands(g.seed, 1)))
        self.assertEqual(g.turn, 1)
        g = _rigged(_hands({1: NINES[:4]}))
        _reserve(g, {1: "thrown nines"})
        self.assertEqual(g.gameType, dk.NORMAL)

    def test_silentMarriage(self) -> None:
        """Both club queens and no marriage reserved: a silent marriage, a solo (FreeDoko)."""
        g = _rigged(_hands({2: ["club queen", "club queen"]}))
        _reserve(g, {})
        self.assertEqual((g.gameType, g.soloplayer), (dk.MARRIAGE_SILENT, 2))
        self.assertTrue(dk.isSolo(g.gameType))
        self.assertEqual(g.turn, 2)

    def test_swines(self) -> None:
        """Both trump aces and ``swines`` reserved: the swines are announced, the highest trumps."""
        g = _rigged(_hands({3: ["diamond ace", "diamond ace", "club queen", "club queen"]}))
        _reserve(g, {3: "marriage, first trump, swines"})
        self.assertEqual(g.swinesOwner, 3)
        self.assertEqual(_orderHighToLow(g.order)[0], "diamond ace")
        g = _rigged(_hands({3: ["diamond ace"]}))
        _reserve(g, {3: "normal, swines"})
        self.assertIsNone(g.swinesOwner)

    def test_poverty(self) -> None:
        """
        Poverty (DDV/FreeDoko): the poor seat shifts its trumps (three cards), the
        next seats are asked in turn, the taker returns as many cards; both are Re.
        """
        g = _rigged(_hands({2: POOR}))
        _reserve(g, {2: "poverty"})
        self.assertEqual(g.povertyCount(), 3)
        self.assertRaises(IllegalMove, g.povertyShift, 2,
                          ["diamond nine", "diamond king", "club ace"])
        g.povertyShift(2, ["diamond nine", "diamond king", "heart jack"])
        self.assertEqual(len(g.hands[2]), 9)
        self.assertEqual(g.turn, 3)
        g.povertyAnswer(3, False)
        self.assertEqual(g.turn, 0)
        g.povertyAnswer(0, True)
        self.assertEqual(len(g.hands[0]), 15)
        self.assertRaises(IllegalMove, g.povertyReturn, 0, ["club queen"])
        back = g.hands[0][:3]
        g.povertyReturn(0, back)
        self.assertEqual(g.phase, dk.PLAYING)
        self.assertEqual([len(h) for h in g.hands], [12] * 4)
        self.assertEqual(g.teams, [RE, CONTRA, RE, CONTRA])
        self.assertEqual(sorted(g.cardsInPlay()), sorted(dk.deckFor()))

    def test_povertyDeniedByAll(self) -> None:
        """Nobody takes the poverty: the cards are dealt again from the next seed."""
        g = _rigged(_hands({2: POOR}), seed=77)
        _reserve(g, {2: "poverty"})
        g.povertyShift(2, ["diamond nine", "diamond king", "heart jack"])
        for seat in (3, 0, 1):
            g.povertyAnswer(seat, False)
        self.assertEqual(g.phase, dk.RESERVING)
        self.assertEqual(g.redeals[-1], (77, "poverty denied by all"))
        self.assertEqual(g.seed, dk.seedNext(77))

    def test_marriageFirstTrump(self) -> None:
        """A ``first trump`` marriage: a color trick decides nothing, the first trump trick won by another does."""
        bride = ["club queen", "club queen", "spade ace", "heart nine"] + ["heart jack"] * 2 + [
            "spade jack", "spade jack", "diamond jack", "diamond jack", "club jack", "club jack"]
        g = _rigged(_hands({0: bride, 1: ["spade ten", "spade king", "heart queen",
                                          "heart queen"]}))
        _reserve(g, {0: "marriage, first trump"})
        self.assertEqual((g.gameType, g.selector), (dk.MARRIAGE, "first trump"))
        self.assertEqual(g.announcementValid(0, NO120), dk.NO_ANNOUNCEMENT)
        g.playCard(0, "spade ace")
        g.playCard(1, "spade ten")
        g.playCard(2, g.legalCardsFor(2)[0])
        g.playCard(3, g.legalCardsFor(3)[0])
        self.assertEqual(g.gameType, dk.MARRIAGE)
        self.assertIsNone(g.partner)
        # seat 0 leads a low trump that seat 1's heart queen beats
        leader = g.turn
        self.assertEqual(leader, g.tricks[-1].winner)
        while g.partner is None and g.gameType == dk.MARRIAGE:
            assert g.turn is not None
            seat = g.turn
            legal = g.legalCardsFor(seat)
            choice = "diamond jack" if seat == 0 and "diamond jack" in legal and not g.trick \
                else ("heart queen" if "heart queen" in legal else legal[0])
            g.playCard(seat, choice)
        self.assertEqual(g.gameType, dk.MARRIAGE)
        self.assertNotEqual(g.partner, 0)
        self.assertEqual(g.teams.count(RE), 2)
        self.assertEqual(g.determination, len(g.tricks))

    def test_marriageAlone(self) -> None:
        """Nobody else wins a deciding trick within ``marriage determination`` tricks: the bride plays alone."""
        bride = ["club queen", "club queen", "spade queen", "spade queen", "heart queen",
                 "heart queen", "heart ten", "heart ten", "club jack", "club jack",
                 "spade jack", "spade jack"]
        g = _rigged(_hands({0: bride}), rules=RULES.with_(marriage_determination=3))
        _reserve(g, {0: "marriage, first foreign"})
        _playTricks(g, 3)
        self.assertEqual(g.gameType, dk.MARRIAGE_SOLO)
        self.assertEqual(g.partner, 0)
        self.assertEqual(g.teams, [RE, CONTRA, CONTRA, CONTRA])


# -- announcements -------------------------------------------------------------

QUIET = RULES.with_(announcement_first_trick_thirty_points=False)


class AnnouncementTests(unittest.TestCase):
    """
    FreeDoko's Game::announcement_valid under its defaults: ``announcement
    no 120 = 11`` (re/contra while the hand holds at least 11 cards), ``no 90
    = 9``, ``no 60 = 6``, ``no 30 = 3``, ``no 0 = 3``, ``last announcement =
    3`` (none when fewer than three tricks remain), ``announcement reply``
    (a late re/contra answers an opposing announcement, one card later).
    The DDV's TSR 6.3/6.4 set the same limits in cards played (re/contra
    up to the fifth card one plays... here: while 11 remain in the hand).
    """

    def game(self) -> DoppelkopfGame:
        g = _rigged(_hands({1: ["club queen"], 3: ["club queen"]}), rules=QUIET)
        _reserve(g, {})
        return g

    def test_reAtTheStart(self) -> None:
        g = self.game()
        self.assertEqual(g.validAnnouncements(1), (NO120, NO90, dk.NO60, dk.NO30, dk.NO0))
        self.assertEqual(g.announce(1, NO120), NO120)
        self.assertEqual(g.teamAnnouncement(RE), NO120)
        self.assertRaises(IllegalMove, g.announce, 3, NO120)
        self.assertEqual(g.announcementValid(3, NO90), NO90)

    def test_deadlineInCards(self) -> None:
        """Re/contra while 11 cards are held: after the second trick (10 cards) it is too late."""
        g = self.game()
        _playTricks(g, 1)
        self.assertEqual(g.announcementValid(0, NO120), NO120)
        _playTricks(g, 1)
        self.assertEqual(g.announcementValid(0, NO120), dk.NO_ANNOUNCEMENT)
        # no 90 needs the re/contra before it to be valid too
        self.assertEqual(g.announcementValid(0, NO90), dk.NO_ANNOUNCEMENT)

    def test_reply(self) -> None:
        """A re/contra one card after the limit is a reply to the other team's announcement."""
        g = self.game()
        g.announce(0, NO120)
        _playTricks(g, 2)
        self.assertEqual(g.announcementValid(1, NO120), REPLY)
        self.assertEqual(g.announce(1, REPLY), REPLY)
        self.assertEqual(g.validAnnouncements(3), ())
        g2 = self.game()
        g2.announce(0, NO120)
        _playTricks(g2, 3)
        self.assertEqual(g2.announcementValid(1, NO120), dk.NO_ANNOUNCEMENT)

    def test_furtherAnnouncements(self) -> None:
        g = self.game()
        g.announce(1, NO120)
        _playTricks(g, 3)
        self.assertEqual(g.announcementValid(3, NO90), NO90)
        self.assertEqual(g.announcementValid(3, dk.NO60), dk.NO60)
        _playTricks(g, 1)
        self.assertEqual(g.announcementValid(3, NO90), dk.NO_ANNOUNCEMENT)
        self.assertEqual(g.announcementValid(3, dk.NO60), dk.NO_ANNOUNCEMENT)
        _playTricks(g, 2)
        self.assertEqual(g.announcementValid(3, dk.NO30), dk.NO_ANNOUNCEMENT)

    def test_jumps(self) -> None:
        """An announcement may skip the ones before it while they would all be valid."""
        g = self.game()
        self.assertEqual(g.announce(3, dk.NO60), dk.NO60)
        self.assertEqual(g.teamAnnouncement(RE), dk.NO60)

    def test_lastAnnouncement(self) -> None:
        g = self.game()
        g.announce(1, NO120)
        g.announce(1, NO90)
        g.announce(1, dk.NO60)
        _playTricks(g, 9)
        self.assertEqual(g.announcementValid(1, dk.NO30), dk.NO30)
        _playTricks(g, 1)
        self.assertEqual(g.announcementValid(1, dk.NO30), dk.NO_ANNOUNCEMENT)

    def test_firstTrickThirtyPoints(self) -> None:
        """
        ``announcement first trick thirty points``: the team that wins 30 or
        more points in the first trick of a normal game says re/contra at once
        (FreeDoko Game::evaluatetrick; the transcript's games 10 and 11 show it).
        """
        g = _rigged(_hands({0: ["spade ace"] + ["spade nine"] * 0, 1: ["club queen", "spade ace"],
                            2: ["spade ten"], 3: ["club queen", "spade ten"]}))
        _reserve(g, {})
        g.playCard(0, "spade ace")
        g.playCard(1, "spade ace")
        g.playCard(2, "spade ten")
        g.playCard(3, "spade ten")
        self.assertEqual(g.tricks[0].winner, 0)
        self.assertEqual(g.seatAnnouncement(0), NO120)

    def test_marriageDeferral(self) -> None:
        """In a marriage the limits move on by the tricks it took to find the partner, less one."""
        g = self.game()
        g.gameType = dk.MARRIAGE
        g.determination = 3
        _playTricks(g, 3)
        self.assertEqual(g.announcementValid(0, NO120), NO120)
        _playTricks(g, 2)
        self.assertEqual(g.announcementValid(0, NO120), dk.NO_ANNOUNCEMENT)


# -- scores ----------------------------------------------------------------------


def _piles(rePoints: int) -> tuple[list[str], list[str]]:
    """
    The deck split into the Re side's cards (``rePoints`` points) and the
    rest, each a whole number of tricks, the points spread as thinly as can be
    (so that no trick is a doppelkopf by accident).
    """
    values = ("ace", "ten", "king", "queen", "jack")
    best: tuple[float, tuple[int, ...]] | None = None
    for counts in itertools.product(range(9), repeat=5):
        points = sum(n * dk.POINTS[v] for n, v in zip(counts, values))
        if points != rePoints:
            continue
        cards = sum(counts)
        for nines in range(9):
            n = cards + nines
            if n % 4 or (48 - n) % 4 or not 0 < n < 48:
                continue
            worst = max(rePoints / (n / 4), (240 - rePoints) / ((48 - n) / 4))
            if best is None or worst < best[0]:
                best = (worst, counts + (nines,))
    assert best is not None
    re: list[str] = []
    rest = sorted(dk.deckFor(), key=lambda c: (-dk.cardPoints(c), c))
    for value, n in zip(values + ("nine",), best[1]):
        of = [c for c in rest if dk.valueOf(c) == value][:n]
        for c in of:
            rest.remove(c)
        re.extend(of)
    re.sort(key=lambda c: (-dk.cardPoints(c), c))
    return re, rest


def _tricks(cards: list[str], winner: int) -> list[dk.Trick]:
    """Tricks led and won by ``winner``, points spread evenly, foxes and charlies its own."""
    count = len(cards) // 4
    tricks = [[cards[i] for i in range(k, len(cards), count)] for k in range(count)]
    for t in tricks:
        t.sort(key=lambda c: c not in ("diamond ace", "club jack"))
    return [dk.Trick(winner, tuple(t), winner) for t in tricks]


def _score(teams: tuple[str, ...], rePoints: int, gameType: str = dk.NORMAL,
           announcements: dict[int, list[int]] | None = None, soloplayer: int | None = None,
           rules: Rules = RULES, edit: Any = None) -> dk.GameSummary:
    reSeat = teams.index(RE)
    contraSeat = teams.index(CONTRA)
    reCards, contraCards = _piles(rePoints)
    tricks = _tricks(reCards, reSeat) + _tricks(contraCards, contraSeat)
    # the last trick: one without a fox or a charlie
    plain = [i for i, t in enumerate(tricks)
             if "club jack" not in t.cards and "diamond ace" not in t.cards]
    tricks.append(tricks.pop(plain[-1]))
    if edit is not None:
        tricks = edit(tricks)
    g = DoppelkopfGame(rules, 0, 0)
    g.gameType, g.soloplayer, g.teams = gameType, soloplayer, list(teams)
    g.order = CardOrder.of(gameType, rules)
    g.hands = [[], [], [], []]
    g.tricks = tricks
    g.won = [[], [], [], []]
    for t in tricks:
        g.won[t.winner].extend(t.cards)
    for seat, made in (announcements or {}).items():
        g.announcements[seat] = [(a, 0) for a in made]
    g.phase = dk.FINISHED
    return g._summarize()


TEAMS = (CONTRA, RE, CONTRA, RE)


def _names(summary: dk.GameSummary) -> list[str]:
    return [s.name for s in summary.specials]


class ScoreTests(unittest.TestCase):
    """
    Hand-worked game values.  The counting is FreeDoko's (GameSummary::evaluate,
    Sum_of_Specialpoints), which follows the DDV tournament rules
    (Turnierspielregeln, Stand April 2000, sections 7.1 "Gewinnstufen und
    Gewinnkriterien" and 7.2 "Spielwerte", as quoted at
    http://doko-wissen.de/index.php?title=Turnierspielregeln&oldid=2383):
    one point for the game won, one each for "keine 90/60/30" and "schwarz"
    reached, one for each of these announced, re/contra doubling the whole,
    "gegen die Alten" (Kontra wins a normal game) one more, and the extra
    points (Doppelkopf: a trick of 40 or more; Fuchs gefangen; Karlchen
    Müller, the club jack, winning the last trick) one each, not doubled.
    """

    def test_reWinsWith121(self) -> None:
        """TSR 7.1.2: Re needs 121 points; without announcements the game is worth 1."""
        s = _score(TEAMS, 121)
        self.assertEqual((s.winner, s.points, _names(s)), (RE, 1, ["won"]))
        self.assertEqual(s.scores, (-1, 1, -1, 1))
        self.assertEqual(s.freedokoPoints, (0, 1, 0, 1))

    def test_120IsLostForRe(self) -> None:
        """TSR 7.1.3: Kontra wins with 120; plus one "gegen die Alten" (against the club queens)."""
        s = _score(TEAMS, 120)
        self.assertEqual((s.winner, s.points), (CONTRA, 2))
        self.assertEqual(_names(s), ["won", "contra won"])
        self.assertEqual(s.scores, (2, -2, 2, -2))
        self.assertEqual(s.bockTriggers, ("equal points",))

    def test_reAnnouncedDoubles(self) -> None:
        """Re said, Re makes 151 (Kontra under 90): (won 1 + no 90 1) x 2 = 4."""
        s = _score(TEAMS, 151, announcements={1: [NO120]})
        self.assertEqual((s.winner, s.points), (RE, 4))
        self.assertEqual(_names(s), ["won", "no 90", "no 120 said"])

    def test_reAndContra(self) -> None:
        """Re and Kontra said, Re makes 121: 1 x 2 x 2 = 4."""
        s = _score(TEAMS, 121, announcements={1: [NO120], 0: [NO120]})
        self.assertEqual((s.winner, s.points), (RE, 4))

    def test_onlyContraAt120(self) -> None:
        """FreeDoko Game::winnerteam: with only Kontra said, 120 points are enough for Re: 1 x 2 = 2."""
        s = _score(TEAMS, 120, announcements={0: [NO120]})
        self.assertEqual((s.winner, s.points), (RE, 2))

    def test_no90Made(self) -> None:
        """Re said no 90, Kontra has 80: (won + no 90 + no 90 said) x 2 = 6."""
        s = _score(TEAMS, 160, announcements={1: [NO120, NO90]})
        self.assertEqual((s.winner, s.points), (RE, 6))
        self.assertEqual(_names(s), ["won", "no 90", "no 90 said", "no 120 said"])

    def test_no90Missed(self) -> None:
        """
        Re said no 90 but Kontra has 90: Kontra wins (TSR 7.1.4) with
        (won + no 90 said) x 2 + against the club queens = 5.
        """
        s = _score(TEAMS, 150, announcements={1: [NO120, NO90]})
        self.assertEqual((s.winner, s.points), (CONTRA, 5))
        self.assertEqual(_names(s), ["won", "no 90 said", "no 120 said", "contra won"])

    def test_schwarz(self) -> None:
        """Kontra without a trick: won, no 90, no 60, no 30, no 0 (schwarz): 5."""
        def allToRe(tricks: list[dk.Trick]) -> list[dk.Trick]:
            return [dk.Trick(1, t.cards, 1) for t in tricks]
        s = _score(TEAMS, 240, edit=allToRe)
        self.assertEqual((s.winner, s.points), (RE, 5))
        self.assertEqual(_names(s), ["won", "no 90", "no 60", "no 30", "no 0"])

    def test_soloWon(self) -> None:
        """A solo counts three times for the soloist (TSR 7.2.4), no "gegen die Alten"."""
        teams = (RE, CONTRA, CONTRA, CONTRA)
        s = _score(teams, 130, gameType=dk.SOLO_CLUB, soloplayer=0)
        self.assertEqual((s.winner, s.points), (RE, 1))
        self.assertEqual(s.scores, (3, -1, -1, -1))
        self.assertEqual(s.freedokoPoints, (3, 0, 0, 0))

    def test_soloLost(self) -> None:
        teams = (RE, CONTRA, CONTRA, CONTRA)
        s = _score(teams, 100, gameType=dk.SOLO_QUEEN, soloplayer=0)
        self.assertEqual((s.winner, s.points), (CONTRA, 1))
        self.assertEqual(s.scores, (-3, 1, 1, 1))
        self.assertEqual(s.freedokoPoints, (0, 1, 1, 1))

    def test_foxCaught(self) -> None:
        """
        A diamond ace (fox) of one team won by the other: one extra point for
        the catchers (``extrapoint catch fox``), added after the doubling.
        """
        catcher: list[int] = []

        def catch(tricks: list[dk.Trick]) -> list[dk.Trick]:
            for i, t in enumerate(tricks):
                if t.cards[0] == "diamond ace":
                    cards = list(t.cards)
                    cards[0], cards[1] = cards[1], cards[0]   # the next seat's card now
                    tricks[i] = dk.Trick(t.leader, tuple(cards), t.winner)
                    catcher.append(t.winner)
                    break
            return tricks
        s = _score(TEAMS, 121, announcements={1: [NO120]}, edit=catch)
        team = TEAMS[catcher[0]]
        self.assertEqual(_names(s), ["won", "no 120 said", "caught fox"])
        self.assertEqual(s.specials[-1].team, team)
        self.assertEqual((s.winner, s.points), (RE, 2 + (1 if team == RE else -1)))

    def test_charlie(self) -> None:
        """A club jack winning the last trick: one extra point (``extrapoint charlie``)."""
        def charlie(tricks: list[dk.Trick]) -> list[dk.Trick]:
            withCharlie = [t for t in tricks if t.cards[0] == "club jack"][0]
            tricks.remove(withCharlie)
            return tricks + [withCharlie]
        s = _score(TEAMS, 121, edit=charlie)
        self.assertEqual(_names(s), ["won", "charlie"])
        team = s.specials[-1].team
        self.assertEqual(s.points, 1 + (1 if team == RE else -1))

    def test_extrasAreNotDoubled(self) -> None:
        """Extra points are added after the re/contra doubling (Sum_of_Specialpoints)."""
        def doppelkopf(tricks: list[dk.Trick]) -> list[dk.Trick]:
            big = dk.Trick(3, ("club ace", "spade ace", "heart ace", "heart ten"), 3)
            return [big] + tricks
        s = _score(TEAMS, 121, announcements={1: [NO120]}, edit=doppelkopf)
        self.assertIn("Doppelkopf", _names(s))


# -- the rules file ----------------------------------------------------------------


class RulesTests(unittest.TestCase):
    def test_parse(self) -> None:
        """FreeDoko's rule-file format: ``name = value``, ``#`` comments, leading spaces."""
        rules = Rules.parse("# a comment\n  dollen = false\nswines=true\n\nmy own rule = 7\n"
                            "marriage determination = 3\n")
        self.assertFalse(rules.flag("dollen"))
        self.assertTrue(rules.flag("swines"))
        self.assertEqual(rules.number("marriage determination"), 3)
        self.assertEqual(rules.value("my own rule"), "7")
        self.assertTrue(rules.flag("with nines"))   # the default stays

    def test_unknownNamesPassedOn(self) -> None:
        rules = Rules.parse("future rule = something\n")
        self.assertIn("future rule = something\n", rules.text())
        self.assertEqual(Rules.parse(rules.text()), rules)

    def test_defaults(self) -> None:
        rules = Rules.default()
        self.assertEqual(rules.number("announcement no 120"), 11)
        self.assertEqual(rules.value("counting"), "plus")
        self.assertTrue(rules.flag("dollen second over first"))
        self.assertFalse(rules.flag("hyperswines"))
        self.assertFalse(rules.flag("no such rule"))
        self.assertEqual(rules.with_(bock=False).asDict()["bock"], "false")

    def test_dependencies(self) -> None:
        """A rule counts only where FreeDoko's Rule::dependencies allow it."""
        heart = Rules.parse("extrapoint heart trick = true")
        self.assertTrue(heart.rawFlag("extrapoint heart trick"))
        self.assertFalse(heart.flag("extrapoint heart trick"))      # only without nines
        self.assertTrue(heart.with_(with_nines=False).flag("extrapoint heart trick"))
        self.assertFalse(RULES.with_(solo_color=False).flag("swines in solo"))
        self.assertFalse(RULES.with_(swines=False).flag("hyperswines in solo"))
        self.assertFalse(RULES.with_(solo=False).flag("lustsolo player leads"))

    def test_reservationWireForm(self) -> None:
        r = Reservation.parse("marriage, first foreign, swines")
        self.assertEqual(r, Reservation(dk.MARRIAGE, "first foreign", True, False))
        assert r is not None
        self.assertEqual(r.wire(), "marriage, first foreign, swines")
        self.assertEqual(Reservation.parse("solo king-queen"), Reservation(dk.SOLO_KING_QUEEN))
        self.assertIsNone(Reservation.parse("solo nonsense"))
        self.assertIsNone(Reservation.parse("normal, weird"))


# -- the engine ------------------------------------------------------------------------

ENGINE = dk.DOPPELKOPF


def _start(seed: int = 5, **params: Any) -> dk.DoppelkopfParty:
    game = ENGINE.start({"rounds": 1, **params}, {"seed": seed})
    assert isinstance(game, dk.DoppelkopfParty)
    return game


def _ok(outcome: Any) -> Instructions:
    assert isinstance(outcome, Instructions), outcome
    return outcome


def _playParty(game: dk.DoppelkopfParty, rng: random.Random | None = None,
               limit: int = 5000) -> list[RecordedAction]:
    """Bots (or random legal moves) play the party out; the actions, as recorded."""
    actions = []
    for _ in range(limit):
        if game.over:
            break
        (seat,) = game.waitingFor()
        view = game.view(seat)
        if rng is not None and view.phase == dk.PLAYING and rng.random() < 0.5:
            if view.validAnnouncements and rng.random() < 0.1:
                action: Any = {"announcement": rng.choice(view.validAnnouncements)}
            else:
                action = {"card": rng.choice(view.legalCards)}
        elif rng is not None and view.phase == dk.RESERVING and rng.random() < 0.3:
            action = {"reservation": rng.choice(["normal", "poverty", "solo meatless",
                                                 "marriage, first trump", "thrown nines",
                                                 "solo heart, swines"])}
        else:
            action = dk.doppelkopfBot(view, seat)
        _ok(game.act(seat, action))
        actions.append(RecordedAction(seat, action, 0.0))
    return actions


class EngineTests(unittest.TestCase):
    def test_start(self) -> None:
        game = _start(97110)
        steps = game.instructions()
        self.assertEqual(steps.initvalues, {"seed": 97110})
        self.assertEqual([r.player for r in steps.requested_actions], [0, 0])
        hands = [e for e in steps.events if e.kind == "hand"]
        self.assertEqual([e.audience for e in hands], [frozenset({s}) for s in range(4)])
        self.assertEqual(hands[0].data, list(dk.dealHands(97110, 0)[0]))
        self.assertEqual(steps.forSeat(1).events.count(hands[0]), 0)
        self.assertEqual(ENGINE.describe() if hasattr(ENGINE, "describe") else None, None)

    def test_parameters(self) -> None:
        bad = ENGINE.start({"startplayer": 7})
        self.assertIsInstance(bad, Errors)
        game = ENGINE.start({"startplayer": 2, "rules": "dollen = false"}, {"seed": 3})
        assert isinstance(game, dk.DoppelkopfParty)
        self.assertEqual(game.game.startplayer, 2)
        self.assertFalse(game.rules.flag("dollen"))
        self.assertEqual(game.rounds, 20)
        self.assertIsInstance(ENGINE.start({}, {}), Errors)

    def test_rulesRefused(self) -> None:
        """
        Rules text with a line that is no ``name = value`` (nor blank, nor a
        comment), or a boolean rule neither true nor false, is refused at the
        start: INCORRECT_VALUE of ``rules``, its words naming the line.
        """
        for text, words in [
            ("nonsense", "Rules line 1 (“nonsense”) is neither “name = value” nor a “#” comment."),
            ("dollen = false\n\n  swines\n", "Rules line 3 (“swines”) is neither "
                                             "“name = value” nor a “#” comment."),
            ("= true", "Rules line 1 (“= true”) is neither “name = value” nor a “#” comment."),
            ("# fine\nwith nines = maybe", "Rules line 2: “with nines” is true or false, "
                                            "not “maybe”."),
            ("swines =", "Rules line 1: “swines” is true or false, not “”."),
        ]:
            refused = ENGINE.start({"rules": text}, {"seed": 3})
            assert isinstance(refused, Errors), text
            self.assertEqual(refused.errors, (IncorrectValue("rules", text),))
            self.assertEqual(errorText(refused.errors[0]), words)
            self.assertEqual(refused.asJSON(), {"errors": [
                {"type": "INCORRECT_VALUE", "arg": "rules", "value": text, "text": words}]})
        both = ENGINE.start({"startplayer": 7, "rules": "nonsense"}, {"seed": 3})
        self.assertEqual(both, Errors((IncorrectValue("startplayer", 7),
                                       IncorrectValue("rules", "nonsense"))))

    def test_rulesTaken(self) -> None:
        """
        Comments, blank lines, names the engine does not know (kept, as in
        FreeDoko's files) and FreeDoko's spellings of booleans are taken;
        so are FreeDoko's defaults and the rules blocks real parents sent.
        """
        game = ENGINE.start({"rules": "# mine\n\n  my own rule = whatever\nanother one =\n"
                                      "dollen = no\nswines = 0\nsolo = YES\nbock = 1\n"},
                            {"seed": 3})
        assert isinstance(game, dk.DoppelkopfParty), game
        self.assertEqual(game.rules.value("my own rule"), "whatever")
        self.assertFalse(game.rules.flag("dollen") or game.rules.flag("swines"))
        self.assertTrue(game.rules.flag("solo") and game.rules.flag("bock"))
        self.assertIsInstance(ENGINE.start({"rules": dk.DEFAULT_RULES_TEXT}, {"seed": 3}),
                              dk.DoppelkopfParty)
        if not os.path.exists(THIRTEEN):
            raise unittest.SkipTest("../shared/tools/freedoko/transcripts is absent")
        blocks = []
        for name in sorted(os.listdir(TRANSCRIPTS)):
            with open(os.path.join(TRANSCRIPTS, name), encoding="utf-8") as f:
                said = [m.group(1) for m in re.finditer(r"^[PS]> [0-9.]+: (.*)$", f.read(), re.M)]
            if "{" in said:
                blocks.append("\n".join(said[said.index("{") + 1:said.index("}")]))
        self.assertEqual(len(blocks), 3)  # the parents' blocks, the real one's and ours
        for text in blocks:
            self.assertIsNone(dk.rulesProblem(text), text)
            self.assertIsInstance(ENGINE.start({"rules": text}, {"seed": 3}), dk.DoppelkopfParty)

    def test_refusals(self) -> None:
        """Wrong seat, wrong kind, bad values: typed errors and no change."""
        game = _start()
        errors = game.act(1, {"reservation": "normal"})
        assert isinstance(errors, Errors)
        self.assertEqual(errors.errors[0].type, "UNEXPECTED_ACTION")
        for bad in ({"reservation": "solo nonsense"}, "x", {"a": 1, "b": 2},
                    {"announcement": "no 70"}, {"reservation": 3}):
            errors = game.act(0, bad)
            assert isinstance(errors, Errors)
            self.assertEqual(errors.errors[0].type, "BAD_FORMAT")
        errors = game.act(0, {"card": "club queen"})
        assert isinstance(errors, Errors)
        self.assertEqual(errors.errors[0].type, "UNEXPECTED_ACTION")
        errors = game.act(2, {"announcement": "no 120"})
        assert isinstance(errors, Errors)
        self.assertEqual(errors.errors[0].type, "WRONG_ACTION")
        self.assertEqual(game.waitingFor(), (0,))

    def test_transcriptPartyThroughTheEngine(self) -> None:
        """
        The real 13-game party as engine actions: the same seeds, startplayers
        (a lust solo keeps its startplayer), tricks, and rounds (the real
        parent starts round 3 after the 13th game).
        """
        if not os.path.exists(THIRTEEN):
            raise unittest.SkipTest("transcript absent")
        transcript = Transcript(THIRTEEN)
        game = _start(transcript.partySeed, rounds=3)
        for number, played in enumerate(transcript.games[:13]):
            current = game.game
            self.assertEqual(game.game.startplayer, played["startplayer"], number)
            self.assertEqual(game.game.seed, played["seed"], number)
            for kind, text in played["actions"]:
                if kind != "action" or text in ("trick open", "trick taken",
                                                "poverty denied by all"):
                    continue
                keyword, _, rest = text.partition(" = ")
                parts = [p.strip() for p in rest.split(",")]
                seat = int(parts[0])
                action: Any = None
                if keyword == "reservation":
                    action = {"reservation": ", ".join(parts[1:])}
                elif keyword == "poverty shift":
                    action = {"poverty shift": parts[1:]}
                elif keyword in ("poverty denied", "poverty accepted"):
                    action = {"poverty accepted": keyword == "poverty accepted"}
                elif keyword == "poverty returned":
                    action = {"poverty returned": parts[1:]}
                elif keyword == "card played":
                    action = {"card": _stripComment(parts[1])}
                elif keyword == "announcement":
                    if current.seatAnnouncement(seat) == dk.announcementNumber(parts[1]):
                        continue
                    action = {"announcement": parts[1]}
                elif keyword == "trick full":
                    self.assertEqual(current.tricks[-1].winner, int(parts[5]))
                    continue
                else:
                    continue
                _ok(game.act(seat, action))
            if game.over:
                break
        self.assertEqual(len(game.summaries), 13)
        self.assertTrue(game.over)
        self.assertEqual(sum(game.totals), 0)

    def test_botPlaysAParty(self) -> None:
        game = _start(11)
        _playParty(game)
        self.assertTrue(game.over)
        self.assertGreaterEqual(len(game.summaries), 4)
        self.assertTrue(game.instructions().game_state.gameover)
        self.assertEqual(game.totals, [sum(s.scores[i] for s in game.summaries) for i in range(4)])

    def test_withoutNines(self) -> None:
        """``with nines = false``: 40 cards, ten tricks, the nines nowhere."""
        game = _start(21, rules="with nines = false")
        self.assertEqual(len(game.game.hands[0]), 10)
        _playParty(game)
        self.assertTrue(game.over)
        for summary in game.summaries:
            self.assertEqual(sum(summary.trickPoints), 240)

    def test_resign(self) -> None:
        game = _start()
        steps = game.resign(2)
        self.assertTrue(steps.game_state.gameover)
        self.assertIsInstance(game.act(0, {"reservation": "normal"}), Errors)

    def test_bock(self) -> None:
        """A 120-120 game makes the next four games bock (``bock after 120-120``): values doubled."""
        game = _start()
        summary = _score(TEAMS, 120)
        game.game.summary = summary
        game.game.phase = dk.FINISHED
        game._gameFinished()
        self.assertEqual(game.bockMultipliers, [2, 2, 2, 2])
        self.assertEqual(game.game.bock, 2)

    def test_publicActions(self) -> None:
        self.assertTrue(ENGINE.publicAction(0, {"card": "club queen"}))
        self.assertFalse(ENGINE.publicAction(0, {"poverty shift": ["club queen"]}))
        self.assertTrue(ENGINE.hiddenInformation)

    def test_pointsInWords(self) -> None:
        """One point is "1 point", in a trick's words and a game's end."""
        self.assertEqual(dk.eventWords([
            dk.Event("trick", {"winner": 1, "cards": ["club nine"] * 3 + ["club jack"]}),
            dk.Event("game over", {"winner": dk.RE, "points": 1})]),
            "player 2 won the trick: 2 points; game over: Re won, 1 point")
        self.assertEqual(dk.eventWords([
            dk.Event("trick", {"winner": 0, "cards": ["club nine"] * 3 + ["heart nine"]})]),
            "player 1 won the trick: 0 points")

    def test_displayAndDecode(self) -> None:
        game = _start(97110)
        display = game.display(0)
        texts = " ".join(str(t.get("content", "")) for t in display.content)
        self.assertIn("\u2663Q", texts)
        spectator = game.display(None)
        self.assertEqual(len([t for t in spectator.content if t.get("rx") == 3]), 0)
        decoded = game.decodeAction(0, {"type": "TEXT", "text": "normal"})
        self.assertEqual(decoded, {"reservation": "normal"})
        # Typed, only what the hand allows (as its buttons); said in words otherwise.
        offered = {r.gameType for r in game._reservationsOffered(0)}
        for typed in ("foo", "marriage", "poverty", "thrown nines"):
            kind = typed.split(",")[0]
            refused = game.decodeAction(0, {"type": "TEXT", "text": typed})
            if kind in offered:
                self.assertEqual(refused, {"reservation": typed})
                continue
            assert isinstance(refused, Errors), typed
            (error,) = refused.asJSON()["errors"]  # type: ignore[misc]
            self.assertEqual(error["subtype"], "UNMATCHED_REGEX")  # type: ignore[index]
            self.assertTrue(error["text"].startswith(  # type: ignore[index]
                "Your hand allows these reservations: normal"), error)
        clicked = game.decodeAction(0, {"type": "CLICK", "x": 20, "y": 490})
        self.assertEqual(clicked, dk.doppelkopfBot(game.view(0), 0))
        for seat in range(4):
            _ok(game.act(game.waitingFor()[0], {"reservation": "normal"}))
        seat = game.waitingFor()[0]
        zone = game.instructions().requested_actions[0].zones[0]  # type: ignore[index]
        card = game.decodeAction(seat, {"type": "CLICK", "x": zone.x + 1, "y": zone.y + 1})
        self.assertIn(card["card"], game.legalCardsFor(seat))  # type: ignore[index]


class PropertyTests(unittest.TestCase):
    @given(st.integers(min_value=0, max_value=279839), st.integers(min_value=0, max_value=10**6))
    @settings(max_examples=12, deadline=None)
    def test_party(self, seed: int, choices: int) -> None:
        """
        Random parties: 48 cards always, legal cards never empty for the seat
        to play, 240 points per game, zero-sum scores, no hand in another
        seat's view or events, and the record replays exactly.
        """
        rng = random.Random(choices)
        game = _start(seed)
        actions: list[RecordedAction] = []
        seen: list[Instructions] = [game.instructions()]
        for _ in range(3000):
            if game.over:
                break
            self.assertEqual(sorted(game.cardsInPlay()), sorted(dk.deckFor()))
            (seat,) = game.waitingFor()
            view = game.view(seat)
            if view.phase == dk.PLAYING:
                self.assertTrue(view.legalCards)
            for other in range(4):
                if other != seat:
                    self.assertEqual(game.view(other).legalCards, ())
                hand = game.view(other).hand
                self.assertEqual(sorted(hand), sorted(game.game.hands[other]))
            before = len(actions)
            actions.extend(_playParty(game, rng, limit=1))
            self.assertEqual(len(actions), before + 1)
            seen.append(Instructions((), game._state(), game._lastEvents))
        for steps in seen:
            for other in range(4):
                # a game's seed would tell every hand of the next games
                self.assertNotIn("seed", repr(steps.forSeat(other).events))
                for event in steps.forSeat(other).events:
                    if event.kind in ("hand", "poverty cards"):
                        self.assertIn(other, event.audience or ())
        self.assertNotIn("seed", repr(game.view(0).lastSummary))
        for summary in game.summaries:
            self.assertEqual(sum(summary.trickPoints), 240)
            self.assertEqual(sum(summary.scores), 0)
        record = GameRecord(1, "doppelkopf", dict(game.params), dict(game.initvalues),
                            ["a", "b", "c", "d"], 0.0, actions)
        rebuilt = replay(ENGINE, record)
        assert isinstance(rebuilt, dk.DoppelkopfParty)
        self.assertEqual(rebuilt.summaries, game.summaries)
        self.assertEqual(rebuilt.totals, game.totals)
        self.assertEqual(rebuilt.view(1), game.view(1))


class SpecialGameTests(unittest.TestCase):
    def test_genscher(self) -> None:
        """
        ``genscher``: playing the first of both trump kings names a new
        partner; the teams follow, earlier announcements become re/contra
        (FreeDoko Game::check_for_genscher).
        """
        rules = QUIET.with_(genscher=True)
        g = _rigged(_hands({0: ["diamond king", "diamond king"], 1: ["club queen"],
                            3: ["club queen"]}), rules=rules)
        _reserve(g, {})
        g.announce(1, NO90)
        self.assertRaises(IllegalMove, g.playCard, 0, "diamond king", 0)
        g.playCard(0, "diamond king", 2)
        self.assertEqual(g.gameType, dk.GENSCHER)
        self.assertEqual(g.teams, [RE, CONTRA, RE, CONTRA])
        self.assertEqual(g.announcements[1], [(NO120, 0)])
        self.assertFalse(g.genscherPossible(0, "diamond king"))
        plain = _rigged(_hands({0: ["diamond king", "diamond king"]}), rules=QUIET)
        _reserve(plain, {})
        self.assertRaises(IllegalMove, plain.playCard, 0, "diamond king", 2)

    def test_swinesInThePlay(self) -> None:
        """Without ``swines announcement begin`` the swines (and hyperswines) are announced in the play."""
        rules = QUIET.with_(swines_announcement_begin=False, hyperswines=True,
                            hyperswines_announcement_begin=False)
        game = ENGINE.start({"rounds": 1, "rules": rules.text()}, {"seed": 1})
        assert isinstance(game, dk.DoppelkopfParty)
        hands = _hands({2: ["diamond ace", "diamond ace"], 3: ["diamond nine", "diamond nine",
                                                               "club queen"],
                        1: ["club queen"]})
        game.game.hands = [list(h) for h in hands]
        for _ in range(4):
            _ok(game.act(game.waitingFor()[0], {"reservation": "normal"}))
        self.assertIsInstance(game.act(3, {"hyperswines": True}), Errors)
        _ok(game.act(2, {"swines": True}))
        self.assertEqual(game.game.swinesOwner, 2)
        self.assertIsInstance(game.act(2, {"swines": True}), Errors)
        _ok(game.act(3, {"hyperswines": True}))
        self.assertEqual(_orderHighToLow(game.game.order)[:2], ["diamond nine", "diamond ace"])
        self.assertIsInstance(_start().act(0, {"swines": True}), Errors)

    def test_swinesAtTheStart(self) -> None:
        """
        Under ``swines announcement begin`` swines come with the reservation
        only (FREEDOKO Game::swines_announcement_valid: up to GAME_START,
        before the first trick opens): a ``swines`` in the play is refused,
        even before the first card.  A reservation's ``swines`` announces
        them as the game starts for whoever then holds both trump aces, in
        another's color solo too (Game::test_swines_from_reservations).
        """
        rules = QUIET.with_(swines_announcement_begin=True)

        def started(reservations: dict[int, str]) -> dk.DoppelkopfParty:
            game = ENGINE.start({"rounds": 1, "rules": rules.text()}, {"seed": 1})
            assert isinstance(game, dk.DoppelkopfParty)
            hands = _hands({2: ["diamond ace", "diamond ace", "club ace", "club ace"],
                            1: ["club queen"], 3: ["club queen"]})
            game.game.hands = [list(h) for h in hands]
            for _ in range(4):
                seat = game.waitingFor()[0]
                _ok(game.act(seat, {"reservation": reservations.get(seat, "normal")}))
            return game

        game = started({})
        self.assertEqual(game.game.phase, dk.PLAYING)
        self.assertFalse(game.game.swinesValid(2))
        self.assertIsInstance(game.act(2, {"swines": True}), Errors)
        self.assertIsNone(game.game.swinesOwner)
        self.assertEqual(started({2: "normal, swines"}).game.swinesOwner, 2)
        # another's club solo: the club aces are the trump aces
        solo = started({0: "solo club", 2: "normal, swines"})
        self.assertEqual((solo.game.gameType, solo.game.swinesOwner), (dk.SOLO_CLUB, 2))
        self.assertEqual(_orderHighToLow(solo.game.order)[0], "club ace")
        self.assertIsNone(started({0: "solo club"}).game.swinesOwner)
        self.assertIsNone(started({0: "solo heart", 2: "normal, swines"}).game.swinesOwner)

    def test_reservationsWithSwines(self) -> None:
        """
        Both aces of a color that may be trump with swines (diamonds, or a
        color solo's color with ``swines in solo``): the bot reserves with
        ``swines`` (a color solo of its own too), and the page offers that
        solo with them.
        """
        clubs = _hands({0: ["club ace", "club ace"]})[0]
        self.assertTrue(dk.swinesPossible(clubs, RULES))
        self.assertFalse(dk.swinesPossible(clubs, RULES.with_(swines_in_solo=False)))
        self.assertFalse(dk.swinesPossible(clubs, RULES.with_(swines=False)))
        self.assertFalse(dk.swinesPossible(_hands({0: ["club ace"]})[0], RULES))
        self.assertTrue(dk.swinesPossible(_hands({0: ["diamond ace", "diamond ace"]})[0],
                                          RULES.with_(swines_in_solo=False)))
        self.assertTrue(dk.botReservation(clubs, RULES).swines)
        strong = ["club ace", "club ace", "club ten", "club ten", "club king", "spade queen",
                  "spade queen", "heart queen", "heart ten", "heart ten", "club jack", "club nine"]
        self.assertEqual(dk.botReservation(strong, RULES), Reservation(dk.SOLO_CLUB, None, True))
        party = _start()
        seat = party.game.turn
        assert seat is not None
        party.game.hands[seat] = list(strong)
        offered = [action for _, action in party.choices(seat)[1:]]
        self.assertIn({"reservation": "solo club, swines"}, offered)
        self.assertIn({"reservation": "solo heart"}, offered)

    def test_noSwinesAfterThePovertyShift(self) -> None:
        """
        Under ``swines announcement begin`` a poverty's shift closes the time
        for swines (FREEDOKO Game::swines_announcement_valid: not once the
        poverty is shifted): both diamond aces that come together by the
        shift are no swines, whatever the reservation said.
        """
        # seat 3 holds one diamond ace and reserves with swines; the poor
        # seat 2 shifts it the other one
        poor = ["diamond ace", "diamond king", "heart jack"] + POOR[3:]
        g = _rigged(_hands({2: poor, 3: ["diamond ace"]}))
        _reserve(g, {2: "poverty", 3: "normal, swines"})
        self.assertIsNone(g.swinesOwner)
        g.povertyShift(2, ["diamond ace", "diamond king", "heart jack"])
        g.povertyAnswer(3, True)
        g.povertyReturn(3, [c for c in g.hands[3] if not g.order.isTrump(c)][:3])
        self.assertEqual(g.phase, dk.PLAYING)
        self.assertEqual(g.hands[3].count("diamond ace"), 2)
        self.assertIsNone(g.swinesOwner)
        self.assertFalse(any(e.kind == "swines" for e in g.events))

    def test_silentMarriageIsSecret(self) -> None:
        """The others see a normal game: neither the view nor the events tell them."""
        game = _start()
        hands = _hands({2: ["club queen", "club queen"]})
        game.game.hands = [list(h) for h in hands]
        steps = None
        for _ in range(4):
            steps = _ok(game.act(game.waitingFor()[0], {"reservation": "normal"}))
        assert steps is not None
        self.assertEqual(game.game.gameType, dk.MARRIAGE_SILENT)
        for seat in (0, 1, 3):
            self.assertEqual(game.view(seat).gameType, dk.NORMAL)
            self.assertIsNone(game.view(seat).soloplayer)
            self.assertNotIn(dk.MARRIAGE_SILENT, repr(steps.forSeat(seat).events))
            self.assertEqual(game.view(seat).teams.count(RE), 0)
        self.assertEqual(game.view(2).gameType, dk.MARRIAGE_SILENT)
        self.assertEqual(game.display(None).content, game.display(None).content)
        self.assertNotIn("marriage silent", repr(game.display(None).content))

    def test_silentMarriageTeamsAsInANormalGame(self) -> None:
        """
        A Kontra seat that sees two of its team shown (itself, another's
        announcement) takes the other two for Re, as it would in a normal
        game: its view and display do not tell a silent marriage by seats
        left unlabelled.
        """
        seen = {dk.MARRIAGE_SILENT: False, dk.NORMAL: False}
        for seed in range(1, 200):
            party = _start(seed)
            game = party.game
            while game.phase == dk.RESERVING:
                _ok(party.act(party.waitingFor()[0], {"reservation": "normal"}))
            if party.game is not game or game.phase != dk.PLAYING \
                    or game.gameType not in seen:
                continue
            contra = [s for s in range(4) if game.teams[s] == dk.CONTRA]
            announcer, viewer = contra[0], contra[1]
            if isinstance(party.act(announcer, {"announcement": "contra"}), Errors):
                continue
            teams = party.knownTeams(viewer)
            self.assertNotIn(None, teams, (seed, game.gameType))
            self.assertEqual(sorted(map(str, teams)), sorted([dk.CONTRA, dk.CONTRA, RE, RE]))
            self.assertEqual(party.view(viewer).gameType, dk.NORMAL)
            seen[game.gameType] = True
            if all(seen.values()):
                break
        self.assertEqual(seen, {dk.MARRIAGE_SILENT: True, dk.NORMAL: True})


# -- games the real program played ----------------------------------------------------

_CARD_COLORS = {"c": "club", "s": "spade", "h": "heart", "d": "diamond"}
_CARD_VALUES = {"9": "nine", "J": "jack", "Q": "queen", "K": "king", "T": "ten", "A": "ace"}
_ANNOUNCED = {"120": NO120, "90": NO90, "60": dk.NO60, "30": dk.NO30, "0": dk.NO0, "R": REPLY}


def _card(token: str) -> str:
    return f"{_CARD_COLORS[token[0]]} {_CARD_VALUES[token[1]]}"


def replayRealGame(line: str, selector: str | None = None,
                   rules: Rules = RULES) -> str | None:
    """
    Replay one game of L{REAL_GAMES} through L{DoppelkopfGame}: every card
    legal, every trick's winner, the marriage, the genscher, the
    announcements and the whole score as the real program had them.
    Returns what differs, or None.
    """
    head, events, expected = (part.split() for part in line.split(" | "))
    _, seedText, startText, gameType, soloText, teamLetters, swines, hyper = head
    seed, start = int(seedText), int(startText)
    gameType = gameType.replace("_", " ")
    solo = None if soloText == "-" else int(soloText)
    teams = [RE if t == "r" else CONTRA for t in teamLetters]
    winnerText, pointsText, trickPointsText, specialsText, triggersText = expected
    specials = [tuple(s.replace("_", " ").split("/")) for s in specialsText.split(";")]
    # the hands: the cards each seat played
    hands: list[list[str]] = [[], [], [], []]
    leader, position = 0, 0
    for token in events:
        if token[0].isdigit() and len(token) == 3:
            leader, position = int(token[0]), 0
            token = token[1:]
        if len(token) == 2 and token[0] in _CARD_COLORS:
            hands[(leader + position) % 4].append(_card(token))
            position += 1
    if gameType != dk.POVERTY:
        dealt = dk.dealHands(seed, start, rules.flag("with nines"))
        if [sorted(h) for h in hands] != [sorted(h) for h in dealt]:
            return "the hands are not FreeDoko's deal"
    g = DoppelkopfGame(rules, seed, start)
    g.hands = [list(h) for h in hands]
    g.gameType, g.soloplayer = gameType, solo
    if gameType == dk.POVERTY:
        g.povertyAccepter = [s for s in range(4) if teams[s] == RE and s != solo][0]
    if gameType in (dk.MARRIAGE, dk.MARRIAGE_SOLO):
        g.gameType, g.selector = dk.MARRIAGE, selector
    if gameType == dk.GENSCHER:
        g.gameType, g.soloplayer = dk.NORMAL, None
    g._setTeams()
    g._startPlay()
    if swines != "-":
        g.swinesOwner = int(swines)
    if hyper != "-":
        g.hyperswinesOwner = int(hyper)
    g._setOrder()
    genscher: int | None = None
    for name, _, value in specials:
        if name == "bock":
            g.bock = int(value)
    for token in events:
        if token[0].isdigit() and len(token) == 3:
            if g.turn != int(token[0]):
                return f"trick led by {g.turn}, not {token[0]}"
            token = token[1:]
        if len(token) == 2 and token[0] in _CARD_COLORS:
            card = _card(token)
            assert g.turn is not None
            if card not in g.legalCardsFor(g.turn):
                return f"{card} of {g.turn} not legal"
            g.playCard(g.turn, card, genscher)
            genscher = None
        elif token[0] == "S":
            if not g.swinesValid(int(token[1])):
                return f"swines {token} refused"
            g.announceSwines(int(token[1]))
        elif token[0] == "H":
            if not g.hyperswinesValid(int(token[1])):
                return f"hyperswines {token} refused"
            g.announceHyperswines(int(token[1]))
        elif token[0] == "G":
            king = f"{dk.trumpColor(g.gameType)} king"
            if g.turn != int(token[1]) or not g.genscherPossible(g.turn, king):
                return f"no genscher for {token}"
            genscher = int(token[3])
        elif token[0] == "W":
            if g.tricks[-1].winner != int(token[1:]):
                return f"trick {len(g.tricks)} won by {g.tricks[-1].winner}, not {token[1:]}"
        elif token[0] == "!":
            seat, made = int(token[1]), _ANNOUNCED[token[3:]]
            if g.seatAnnouncement(seat) == made and made == NO120 and len(g.tricks) <= 1:
                continue   # the announcement the first trick's 30 points oblige
            if g.announcementValid(seat, made) != made:
                return f"announcement {token} refused after {len(g.tricks)} tricks"
            g.announce(seat, made)
        elif token[0] == "M":
            bride, partner = int(token[1]), int(token[3])
            if (g.soloplayer, g.partner) != (bride, partner):
                return f"marriage {g.soloplayer}-{g.partner}, not {token}"
    if g.phase != dk.FINISHED or g.summary is None:
        return "not finished"
    s = g.summary
    if list(s.teams) != teams:
        return f"teams {s.teams}"
    if s.gameType != gameType:
        return f"game type {s.gameType}"
    got = [(sp.name, sp.team or "no team", str(sp.value)) for sp in s.specials]
    winner = {"re": RE, "contra": CONTRA}.get(winnerText)
    if (s.winner, s.points, ",".join(map(str, s.trickPoints)), got) != (
            winner, int(pointsText), trickPointsText, specials):
        return f"score {s.winner} {s.points} {s.trickPoints} {got}"
    triggers = ";".join(t.replace(" ", "_") for t in s.bockTriggers) or "-"
    if triggers != triggersText:
        return f"bock triggers {triggers}"
    return None


class RealProgramTests(unittest.TestCase):
    """
    Games the real FreeDoko 0.7.13 played with its own AI under its default
    rules (``FreeDoko --ui=none --fast-play=443 --debug`` with the seeds
    97110, 11, 4242 and 200001; its debug output lists every card, trick,
    announcement, marriage and swines, and the game summary with every
    special point).  Each is replayed through the rules and must agree.

    The data: a FreeDoko run with ``HOME`` holding ``.FreeDoko/rules/last``
    (the rules below, ``number of rounds = 1``) and a settings file with
    ``save bug reports on desktop = false`` plays one-round parties in a row;
    each game's debug lines (``Trick: n``, ``k. Name: card``, ``Winner:``,
    ``announcement: player p: x``, ``Marriage: player b with player p``,
    ``Genscher: ...``, ``swines announced: player p``, the summary block)
    are written as one line of L{REAL_GAMES}, the players Mara, Gerd, Erika,
    Sven being seats 0 to 3.
    """

    def replayAll(self, games: str, rules: Rules) -> dict[str, int]:
        failures = []
        kinds: dict[str, int] = {}
        for line in games.strip().splitlines():
            gameType = line.split()[3]
            kinds[gameType] = kinds.get(gameType, 0) + 1
            if gameType in ("marriage", "marriage_solo"):
                problems = [replayRealGame(line, sel, rules) for sel in dk.SELECTORS]
                problem = None if None in problems else problems[0]
            else:
                problem = replayRealGame(line, None, rules)
            if problem is not None:
                failures.append(f"{line[:40]}: {problem}")
        self.assertEqual(failures, [])
        return kinds

    def test_everyGame(self) -> None:
        kinds = self.replayAll(REAL_GAMES, RULES)
        self.assertGreater(kinds["marriage"], 10)
        self.assertGreater(kinds["poverty"], 5)

    def test_otherRules(self) -> None:
        """
        56 games under other rules (``--seed=777``): genscher, hyperswines,
        dollen contrary in the last trick, marriage determined within 3 tricks,
        thrown kings, and the extra points dolle jabs dolle, heart trick, fox
        caught in the last trick, with bock after a lost solo or a heart trick.
        """
        kinds = self.replayAll(VARIANT_GAMES, VARIANT_RULES)
        self.assertEqual(kinds.get("genscher"), 1)

    def test_moreRules(self) -> None:
        """
        71 games without nines (``--seed=4711``): ten tricks, the second
        heart ten below the first, swines and hyperswines announced in the
        play, marriage before poverty, decided by its first trick within 4,
        throwing (richness) before soli, soli always triple, and the heart
        trick extra point (``announcement re/contra doubles = false`` too, but
        nobody announced in that run).
        """
        self.replayAll(VARIANT2_GAMES, VARIANT2_RULES)


    def test_partySequence(self) -> None:
        """
        The real program's parties (one round each, 254 games): every game's
        seed (49 generator steps on, redeals included), startplayer (kept
        after a lust solo), bock multiplier (four games after a 120-120), and
        the party's end after its round, as L{dk.DoppelkopfParty} has them.
        """
        games = [entry.split(":") for entry in REAL_SEQUENCE.split()]
        parties: dict[tuple[str, str], list[list[str]]] = {}
        for run, party, *rest in games:
            parties.setdefault((run, party), []).append(rest)
        self.assertGreater(len(parties), 50)
        lastOfRun = {run: party for run, party in parties}   # cut short when the run stopped
        for (run, party), played in parties.items():
            game = ENGINE.start({"rounds": 1, "startplayer": int(played[0][1])},
                                {"seed": int(played[0][0])})
            assert isinstance(game, dk.DoppelkopfParty)
            for number, (seed, start, gameType, bock, equal) in enumerate(played):
                self.assertFalse(game.over)
                self.assertEqual(game.game.startplayer, int(start))
                self.assertEqual(game.game.bock, int(bock))
                current = game.game.seed
                for _ in range(3):   # thrown hands: dealt again from the next seed
                    if current == int(seed):
                        break
                    current = dk.seedNext(current, [s.seed for s in game.summaries])
                self.assertEqual(current, int(seed), f"game {number}")
                gameType = gameType.replace("_", " ")
                points = (120, 120) if equal == "1" else (121, 119)
                game.game.summary = dk.GameSummary(
                    seed=current, startplayer=int(start), gameType=gameType, soloplayer=None,
                    teams=(RE, RE, CONTRA, CONTRA), trickPoints=(points[0], 0, points[1], 0),
                    winner=RE, points=1, specials=(), announcements=(0, 0, 0, 0), bock=1,
                    scores=(1, 1, -1, -1), freedokoPoints=(1, 1, 0, 0),
                    bockTriggers=("equal points",) if equal == "1" else ())
                game.game.phase = dk.FINISHED
                game._gameFinished()
            if lastOfRun[run] != party:
                self.assertTrue(game.over)


REAL_GAMES = """
0 97110 0 poverty 2 rcrc - - | 0dJ !0:120 dA h9 dQ W3 3hA d9 hA hK W0 0hJ dT s9 hQ W3 3h9 !0:90 hQ hT hK W1 1s9 sA sQ dK W3 3cA dK c9 cT W0 0sQ hJ sT d9 W0 0cQ sJ cA dJ W0 0cQ cJ sA dA W0 0sJ dQ cK cK W1 1sT sK c9 hT W0 0cJ dT sK cT W0 | re 8 161,30,0,49 won/re/1;no_90/re/1;no_90_said/re/1;no_120_said/re/2;caught_fox/re/1;charlie/re/1 -
0 28962 1 poverty 0 rcrc - - | 1sA sA sK sT W1 1s9 hQ s9 hA W2 2dJ dK h9 hJ W1 1sT sQ cQ h9 W3 3cT cK dQ sJ W1 1sK dQ hQ c9 W3 3c9 cK dJ dT W1 1sJ sQ hT hK W3 3hK hA cJ dT W1 1d9 hT d9 cA W2 2dA hJ cT dA W3 3cJ cA dK cQ W2 | contra 4 0,106,55,79 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;caught_fox/contra/1;caught_charlie/re/1 -
0 80805 2 normal - crrc - - | 2dK dJ sQ cQ W1 1cA c9 cK c9 W1 1sA dA sK s9 W2 2dJ cJ hQ d9 W0 0s9 sT cQ sT W2 2hJ hQ sJ sJ W3 3hA cA hA h9 W3 3hJ d9 dA dQ W2 2hK hT cK dT W3 3dK cJ dQ hT W2 2h9 cT sK cT W2 2hK sA sQ dT W0 | re 1 35,27,108,70 won/re/1 -
0 54264 3 normal - rrcc - - | 3cA c9 cT c9 W3 3sA sT sT s9 W3 3hA h9 hK dA W2 2cT cK cK dT W1 1dK sQ dT cQ W0 0hQ cQ dK dQ W1 1hJ dJ dQ sQ W0 0sA hK dJ sK W2 2hJ dA hT d9 W0 0cJ d9 hT sK W2 2sJ s9 cA sJ W2 2cJ h9 hA hQ W1 | contra 0 53,57,78,52 won/contra/1;contra_won/contra/1;caught_fox/re/1;caught_charlie/re/1 -
1 91640 0 marriage 3 ccrr - - | 0cA c9 dJ cK M3>2 W2 2hA h9 hK h9 W2 2sT sA sK sT W3 3s9 hJ sA s9 W0 0sJ d9 cJ dA W2 2hA cQ hT dA W0 0cJ dT dQ dT W2 2sK cQ cA cK W3 3dK sQ dQ hT W2 2sJ dJ dK hQ W1 1cT sQ hJ c9 W2 2hK hQ d9 cT W3 | re 3 48,11,107,74 won/re/1;no_90/re/1;no_60/re/1 -
1 116228 1 normal - rrcc - - | 1cJ dJ d9 dQ W0 0cA cT c9 c9 W0 0dK cQ dJ hT W3 3sA s9 s9 sA W3 3hA h9 hK hA W3 3sT cQ sT sK W0 0sJ sQ hJ d9 W1 1hT hJ dK dA W1 1dQ dA sJ dT W1 1dT h9 cJ sQ W0 0cK hQ cK cT W1 1hQ sK hK cA W1 | re 3 70,103,0,67 won/re/1;no_90/re/1;caught_fox/re/1 -
1 112158 2 normal - crcr 0 - | 2sA sK s9 sK W2 2cA cK dK cT W0 0hA hK dT h9 W2 2s9 sA sT dT W1 1hJ d9 cQ dJ W3 3d9 cJ sJ cJ W0 0hK hA dQ h9 W2 2c9 cA hJ cT W0 0sT cQ c9 dJ W1 1hQ dK hT dA W0 0hQ sQ dQ hT W3 3sJ dA sQ cK W0 | contra 3 106,46,62,26 won/contra/1;no_90/contra/1;contra_won/contra/1 -
1 124395 3 solo_club 2 ccrc 2 - | 2dA !2:120 cT dT d9 W3 3hA h9 hA c9 W2 2s9 sA sT sT W3 3sA sK cT hJ W2 2hQ c9 cK sQ W1 1dJ cQ sJ hJ W2 2cQ dQ cJ cK W2 2hT dQ dA dJ W2 2hT sK s9 sJ W2 2dT hK dK hQ W1 1cJ cA h9 d9 W2 2cA hK dK sQ W2 | re 2 0,31,147,62 won/re/1;no_120_said/re/2;solo/re/3 -
1 122143 3 marriage 1 crrc - - | 3c9 cT cK cA M1>2 W2 !1:120 2sA sK sT hA W2 2cA c9 sQ cQ W1 1dJ sJ dA dQ W0 0hA h9 h9 cT W0 0sA cQ s9 sK W1 1hJ d9 dT sJ W0 0dJ dK hJ cJ W3 3sT hQ hT s9 W1 1cJ dT hQ dK W3 3cK hT dQ hK W0 0d9 dA hK sQ W3 | contra 4 74,58,61,47 won/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1 -
2 6846 0 normal - ccrr - - | 0sA sK s9 s9 W0 0hA h9 hK hA W0 0c9 cA cK c9 W1 1cT cT cA cK W3 3dJ sJ hQ d9 W1 1dJ hJ cQ dT W3 3hJ dQ sQ cQ W2 2sT sJ sK cJ W1 1sQ dK d9 hT W0 0h9 hT sA dK W1 1cJ dQ dA hK W2 2hQ dT sT dA W2 | contra 1 58,65,65,52 won/contra/1;contra_won/contra/1;caught_fox/re/1 -
2 105908 1 normal - ccrr - - | 1sA sA dT s9 !3:120 W3 3hA hK h9 h9 W3 3d9 cJ dQ hJ W1 1s9 hJ cJ sK W3 3c9 cK dA cT W1 1sT cQ hK sK W2 2cA c9 cT dT W1 1sT hQ dJ sQ W0 0cK hT cA dJ W1 1sJ dK cQ sJ W3 3hA sQ dK dA W0 0hT d9 hQ dQ W0 | contra 6 63,90,21,66 won/contra/1;no_90/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1 -
2 89556 2 normal - crcr 1 - | 2cA dT c9 cA !3:120 W3 3hA dK h9 cT W0 0sA sT s9 dT W3 3dK dJ cQ d9 W1 1sA sK hK s9 W1 1hJ dJ hT dQ W3 3dQ hQ dA hJ W1 1sT c9 sQ sK W3 3h9 cK hK sJ W2 2cJ hT hQ sJ W3 3d9 cK dA cJ W1 1hA sQ cQ cT W3 | re 6 25,64,10,141 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
2 148759 3 normal - crrc - - | 3sT s9 sA s9 W1 1hA h9 h9 hK W1 1d9 cJ d9 hJ W2 2sA sQ sK sK W3 3c9 cA c9 dT W2 2dK dJ sQ dK W0 0cK cT cQ cK W2 2hJ dQ sJ sJ W3 3cT cA sT dQ W2 2hK hT dA dT W3 3dA cJ hQ hQ W1 1cQ hA dJ hT W0 | re 2 39,55,80,66 won/re/1;caught_fox/re/1 -
3 162676 0 normal - ccrr - - | 0cA cA c9 c9 W0 0sA sK s9 s9 W0 0sT sA cQ sT W2 2hJ cQ dA dJ W3 3sK cJ h9 h9 W0 0hK hA dT dA W3 3cK sQ hA cK W0 0dK sQ sJ d9 W1 1hJ hQ d9 dK W2 2cT hQ hT sJ W0 0dT cJ dQ dJ W2 2cT hT hK dQ W3 | re 2 90,9,60,81 won/re/1;caught_fox/re/1 -
3 243821 1 normal - ccrr - - | 1h9 hA dA hK W3 3cA dK cK c9 W0 0sA s9 s9 sT W0 0hK hJ h9 cJ W3 3c9 dJ cK cA W0 0hA sQ cQ cT W2 2sK sT hQ sK W0 0d9 d9 dT dJ W3 3hJ sQ sJ sJ W0 0dQ dT hQ cQ W3 3sA dK cT hT W2 2dQ cJ hT dA W0 | re 0 113,0,62,65 won/re/1;caught_charlie/contra/1 -
3 93701 2 normal - ccrr - - | !2:120 2sA sT sT s9 W2 2d9 cQ hT dK W0 0cA c9 cK cT W0 0cK c9 h9 cA W3 3cT hJ sQ cQ W2 2hQ d9 dA dK W2 2sQ dJ cJ sJ W2 2hT dT dQ dQ W2 2cJ hJ hA hQ W1 1s9 dA sA h9 W2 2dT sJ hK sK W3 3sK hK hA dJ W2 | re 5 42,18,145,35 won/re/1;no_90/re/1;no_120_said/re/2;caught_fox/re/1 -
3 207460 3 normal - rccr - - | 3cA c9 cK c9 W3 3hA h9 hA dA W2 2sA s9 sK s9 W2 2cK cT cQ cA W0 0d9 cJ hQ dJ W2 2sK sT hQ sT W0 0hK hJ cJ h9 W2 2d9 cQ dJ sJ W3 3hK hT hT dK W1 1sJ sQ dT hJ W2 2dQ sQ dA dK W3 3cT dT sA dQ W2 | contra 2 55,28,114,43 won/contra/1;contra_won/contra/1 -
4 21713 0 normal - ccrr - - | 0sT s9 sA sT !2:120 W2 2hA hA h9 hK W2 2cA cT cK cK W2 2sA hK dA sK W0 0dJ d9 dT cJ W3 3h9 sJ dQ s9 W1 1cT cA c9 dT W0 0d9 hJ sJ dJ W2 2c9 cQ dK sK W3 3cJ dQ hT hJ W1 1dA sQ hQ hQ W2 2cQ hT sQ dK W3 | re 5 61,22,112,45 won/re/1;no_90/re/1;no_120_said/re/2;caught_fox/re/1 -
4 153274 1 normal - crrc 0 - | 1hA hK hA h9 W1 1dK cQ hT dT W3 3cA cT cK cA W3 3sA sT s9 s9 W3 3sA sK sK sT W3 3dT dA d9 dK W0 0c9 h9 dJ c9 W2 2sJ cJ hQ dJ W0 0cT cQ hK cK W1 1hJ sQ hJ d9 W2 2hQ sJ sQ cJ W0 0dA dQ hT dQ W0 | contra 4 71,47,9,113 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1 -
4 160428 2 normal - crcr - - | 2sA s9 s9 sK W2 2cA dK cK c9 W3 3hA dA h9 hK W0 0dJ cQ d9 dJ W1 1hK hJ h9 sJ W0 0hJ d9 cJ dQ W3 3cQ cJ dA hT W2 2c9 sJ cT hA W3 3sQ hT dK dQ W0 0hQ dT sQ hQ W2 2cK sT cA sT W0 0dT sA cT sK W0 | contra 5 124,7,60,49 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;caught_fox/contra/1 -
4 221977 3 normal - rrcc - - | 3sA s9 sA sK W3 3cA cK c9 dA W2 2hA h9 dT h9 W0 0dK cQ d9 d9 W1 1cJ hT dK dJ W2 2hT dJ hJ dQ W2 2hQ sJ cQ dA W0 0sT sQ hK sK W1 1hA sJ c9 cJ W0 0s9 sQ hJ sT W1 1cK dT cA cT W2 2dQ cT hQ hK W0 | contra 2 75,43,96,26 won/contra/1;contra_won/contra/1 -
5 17876 0 normal - rrcc - - | 0cA c9 dA cK W2 2hK h9 h9 dT W1 1sA s9 s9 sT W1 1hJ d9 hQ dK W3 3sA cQ sK sK W0 0c9 cT dQ sQ W3 3dJ dJ cJ hQ W2 2hK hT cK d9 W3 3dQ sJ cQ hT W2 2sQ dK sJ hJ W2 2hA dT dA cA W0 0cT sT hA cJ W3 | contra 2 65,35,64,76 won/contra/1;contra_won/contra/1;Doppelkopf/re/1;charlie/contra/1 -
5 128438 1 marriage 3 crcr 1 - | 1dA dK dT dJ M3>1 W1 !1:120 1cA cK cT c9 W1 1cK cA cQ c9 !3:90 W3 3sA sK h9 s9 W3 3sQ hJ dK hJ W3 3sJ cJ dQ hT W2 2s9 sQ sT !1:60 dJ W3 3h9 hK sJ hK W1 1dA dQ d9 dT W1 1hQ sK hT cT W3 3cQ sT hQ hA W3 3d9 sA cJ hA W1 | re 13 0,110,17,113 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_60_said/re/1;no_30/re/1;no_120_said/re/2;charlie/re/1 -
5 1204 2 normal - rrcc - - | 2sA sK sK dA !1:120 W1 1cA dJ cT c9 W2 2h9 h9 hA dT W1 1d9 cJ dQ cJ W3 3cT cK c9 dJ W2 2s9 sT dA hJ W1 1dQ hJ d9 dK W1 1cK sJ hT hT W0 0sQ cQ sJ dK W1 1hQ sQ dT cQ W0 0hK hQ sT hK W1 1cA s9 sA hA W1 | re 6 45,149,39,7 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
6 27611 1 normal - crrc 0 - | 1sA s9 sK s9 W1 1dJ cQ dK dA W0 0cA cT cK c9 W0 0hA h9 hK h9 W0 0cK hK cA c9 W2 2sQ dK d9 dT W2 2sT hQ dA sK W0 0cT cQ dJ hT W3 3hJ hQ hT cJ W1 1cJ sQ hJ d9 W2 2hA dQ dT sT W3 3sJ sJ dQ sA W1 | contra 2 88,50,43,59 won/contra/1;contra_won/contra/1 -
6 269342 2 normal - rrcc - - | 2sA sK sA sT !2:120 W2 2hK h9 hA h9 W0 0d9 cQ sJ dK W1 1cA cK cA cK W1 1c9 cT dQ c9 W3 3sJ dJ d9 cJ W2 2s9 sK hJ hK W0 0hJ dK hQ dA W2 2s9 sT cQ cT W0 0dQ dJ hQ dT W2 2sQ hT sQ dT W3 3hT cJ hA dA W3 | contra 6 48,39,80,73 won/contra/1;no_90/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_charlie/contra/1 -
7 108437 1 normal - crrc - - | 1sA sK !2:120 s9 s9 W1 1c9 cT c9 cA W0 0sA sK sQ sT !2:90 W2 2dJ hJ cJ d9 W0 0hK h9 dA hA W2 2dK sJ dT dQ W1 1hK cQ hA h9 W2 2hJ dQ hT d9 W0 0dJ cQ sJ dK W1 1dT hT hQ cK W2 2hQ cT cK sQ W1 1dA cJ sT cA W2 | re 9 42,65,133,0 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;charlie/re/1 -
7 254051 2 normal - rcrc - - | 2cA cT c9 cK !2:120 W2 2hA hK hA hK W2 2dA hQ cQ dK W0 0dJ hJ cQ sJ W2 2c9 cJ cK cT W3 3sA d9 s9 sT W0 0cA sQ hT s9 W2 2h9 cJ h9 dA W3 3sK sQ sK dT W0 0sJ dJ hT dQ W2 2hJ hQ d9 dK W3 3sT dQ sA dT W0 | re 6 97,0,105,38 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
8 134499 0 poverty 0 rrcc 1 - | 0cA dJ c9 cK W1 1dA dK d9 hA W1 1dA sJ dK sA W1 1sQ cQ dT s9 W2 2cA cT cT d9 W1 1hQ hT dT c9 W2 2h9 hJ hA dJ W3 3sA sT hJ s9 W1 1cJ cJ hQ sK W3 3sQ cK dQ hT W2 2hK sK hK dQ W1 1sJ h9 cQ sT W3 | re 1 0,140,59,41 won/re/1 -
8 32265 1 marriage 3 crcr 3 - | 1cA c9 cK cT M3>1 W1 !1:120 1dT dJ dA d9 W3 3sA sT sK sK W3 3hA h9 h9 dT W2 2dQ cJ sJ dJ W2 2hJ cQ dK dK W3 3c9 sQ cT cA W0 0sA sJ sQ s9 W2 2cK dA hK cJ W3 3s9 sT hT hT W2 2d9 cQ dQ hQ W3 3hK hA hQ hJ W1 | re 2 24,45,76,95 won/re/1;no_120_said/re/2 -
8 205019 2 marriage 1 rrcc - - | 2cA c9 dJ cT M1>0 W0 0sA sT dT sT W2 2hA hA h9 hK W2 2hJ d9 cJ dA W0 0hK sQ d9 s9 W1 1cK cJ cK dQ W0 0h9 cQ dK dJ W1 1c9 sJ cT hQ W0 0s9 sK dA cA W2 2hJ hT hT dT W0 0sK sA dK dQ W3 3sJ sQ cQ hQ W1 | re 0 98,27,93,22 won/re/1;Doppelkopf/contra/1 -
8 186712 3 normal - crrc 3 - | 3cA c9 cT cA !3:120 W3 !2:120 3hK h9 hA hA W1 1sT sA s9 sK W2 2dJ dA dT d9 W3 3c9 cJ cT dQ W2 2sJ dA dJ sJ W3 3cK hJ sK cJ W2 2hQ dK hT dQ W0 0hK h9 sQ cK W2 2cQ dK d9 hQ W2 2dT sT hJ sQ W1 1cQ hT s9 sA W2 | re 4 20,51,97,72 won/re/1;no_120_said/re/2;no_120_said/re/2 -
9 274598 2 normal - rccr - - | 2cA !0:120 c9 cK cT W2 2sA sT dA s9 W0 0dK cJ sQ cQ W3 3hA hK h9 h9 W3 3sA dJ s9 sK W0 0hJ dT hQ hT W3 3c9 sQ cT cK W0 0sJ dJ hQ d9 W2 2hA dQ cQ hK W0 0sJ hJ d9 dK W0 0dQ sK dT cJ W0 0hT cA sT dA W0 | re 7 156,0,32,52 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;Doppelkopf/re/1 -
9 7570 3 marriage 3 ccrr 0 - | 3cT cK c9 cA M3>2 W2 2sA sK s9 sK W2 2cA cT d9 cK W0 0hA sA hK h9 W0 0hK hT s9 h9 W1 1c9 sQ dJ cJ W2 2d9 hJ hQ dK W0 0sT hT sJ hJ W1 1dJ hQ cQ dA W0 0sT dQ dT cQ W3 3hA sQ sJ dT W0 0dA cJ dQ dK W0 | contra 3 125,38,51,26 won/contra/1;no_90/contra/1;contra_won/contra/1 -
10 18335 0 marriage 3 ccrr - - | 0hA h9 d9 hK M3>2 W2 !2:120 2sA sT sT s9 W2 2cA cT c9 cA W2 2s9 sA hJ sK W0 0cK dJ c9 cK W1 1sK hJ sJ h9 W3 3dQ d9 hQ sQ W2 2cJ sQ dA hT W1 1hK cT cJ hA W3 3cQ dK dJ sJ W3 3cQ dT dT hQ W3 3dA dK dQ hT W2 | re 6 17,36,115,72 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
10 237963 1 normal - crcr - - | 1hA hK hA hK !1:120 W1 1d9 dJ cQ d9 W3 3sA sK sT s9 W3 3hJ dJ hJ sJ W2 2cA c9 cA cK W2 2c9 dQ cK h9 W3 3s9 cJ dQ sT W1 1hQ dA sQ hT W0 0cJ sJ hT dK W2 2sA sK sQ cQ W1 1hQ dK dT cT W1 1h9 dT dA cT W3 | re 5 27,93,52,68 won/re/1;no_90/re/1;no_120_said/re/2;fox_last_trick/re/1 -
11 141941 0 solo_spade 0 rccc - - | 0dJ !0:120 sA sK hJ W3 3dA sA dT dK W0 0sJ sT sK hQ W3 3hA sJ h9 hK W0 0cJ dQ hQ dJ W2 2cA cK cK cT W2 2c9 sQ hT c9 W0 0cQ s9 hT hK W2 2hA h9 cQ s9 W0 0cJ hJ sQ dK W2 2cT d9 sT cA W0 0dQ dA dT d9 W0 | re 2 135,0,67,38 won/re/1;no_120_said/re/2;solo/re/3 -
11 52794 0 normal - rccr - - | 0d9 !0:120 sJ sQ cQ W3 3cA cK cT c9 W3 3sA dT sK sA !0:90 W0 0c9 sQ cK cT W1 1hK hA hK dK W0 0dK dT dA hJ W3 3s9 !0:60 cQ sK h9 W0 0hJ hT dJ cJ W1 1sT dJ s9 dQ W0 0d9 dA cJ hQ W3 3hQ dQ sT sJ W3 3hA hT h9 cA W0 | re 12 113,33,0,94 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_60_said/re/1;no_120_said/re/2;caught_fox/re/1;caught_fox/re/1 -
11 44492 1 normal - crrc 0 - | 1hJ cQ dJ dK W2 2sA s9 s9 sT W2 2dK hQ sJ cQ W1 1h9 h9 sA hK W0 0cA c9 cK cT W0 0cA cT cK c9 W0 0sK hQ d9 sT W1 1hK sJ dQ sK W3 3dJ dQ dT sQ W2 2d9 hT hT dT W0 0dA hA cJ hJ W0 0dA hA cJ sQ W0 | contra 4 148,29,50,13 won/contra/1;no_90/contra/1;contra_won/contra/1;caught_charlie/contra/1 -
11 139117 3 normal - rcrc - - | 3hA dK hK h9 !0:120 W0 0sA s9 sA sK W0 0dJ hJ sJ cJ W3 3cK hJ c9 cA W0 0sT dJ cQ sK W2 2cA c9 sT cK W2 2h9 sQ hT hK W0 0s9 dQ sQ d9 W2 2sJ d9 hQ hT W1 1cT hA dT cJ W0 0hQ dA dT dQ W0 0cQ cT dK dA W0 | re 10 167,15,50,8 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;no_120_said/re/2;caught_fox/re/1;caught_fox/re/1 -
12 161360 1 normal - rccr - - | 1sA sT sT s9 !1:120 W1 1hA dA h9 h9 W2 2cA cK cT c9 W2 2cK cT cQ hT W1 1s9 sA cQ sK W3 3cA sQ d9 c9 W0 0sK cJ hQ hK W2 2dJ sQ dK dK W3 3hJ hT hJ d9 W0 0cJ sJ dJ dT W0 0dQ hQ dT dQ W1 1dA sJ hK hA W2 | contra 5 44,77,88,31 won/contra/1;no_90/contra/1;no_120_said/contra/2;contra_won/contra/1 -
12 73685 2 marriage 2 rcrc - - | 2hA hK h9 h9 W2 2cT cA dA c9 M2>0 W0 !0:120 0sA s9 sA dT W3 3cJ d9 dJ dQ W2 2cK c9 sQ cT W0 0sK hJ s9 cA W1 1hJ dK d9 sJ W0 0sT sJ sK hK W1 1hA cQ hT hT W0 0dJ dQ hQ dK W2 2cQ cJ dT sQ W2 2hQ cK sT dA W2 | re 5 91,37,80,32 won/re/1;no_90/re/1;no_120_said/re/2;caught_fox/re/1 -
12 259940 3 normal - crcr - - | !3:120 3cA c9 cK cK W3 3hA h9 sA h9 W3 3hK dJ cQ hK !1:90 W1 1sA sK dA s9 W3 3c9 cT sQ cT W1 1s9 sK cQ sT W3 3hJ d9 dQ sJ W1 1dJ dA hQ hT W0 0cA hT dK dK W1 1sJ sQ d9 dT W2 2sT hQ hJ dT W3 3cJ dQ cJ hA W0 | re 7 44,72,15,109 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;caught_charlie/contra/1 -
13 71571 0 marriage 0 rrcc 2 - | 0sK sA s9 sK M0>1 W1 1cA c9 cK c9 W1 1cT cA cT d9 W0 0s9 sT sA hA W2 2hA hK hK h9 W2 2sT sQ dJ hT W1 1dK sJ d9 hQ W0 0hJ sQ dA dT W2 2h9 cJ hQ dT W0 0sJ hT dQ cJ W1 1cK dA dJ cQ W2 2dQ hJ cQ dK W0 | re 1 67,76,97,0 won/re/1 -
13 40223 1 poverty 0 rrcc - - | !1:120 1cQ d9 d9 dJ W1 1hT dK dK cA W1 1hT hJ hQ sT W1 1dQ dA sQ h9 W3 3sA sK dJ sA W1 1hQ sQ cQ h9 W3 3sT s9 sJ cJ W2 2hA hA hK dA W1 1hJ cJ sK cK W2 2dQ s9 cK sJ W2 2hK c9 cT dT W1 1dT cT c9 cA W1 | re 4 0,179,35,26 won/re/1;no_90/re/1;no_120_said/re/2 -
13 80935 3 poverty 1 crcr - - | !3:120 3dJ dA h9 cJ W2 2cA d9 cK cA W3 3hJ dT c9 cQ W2 2s9 !3:90 hJ s9 sT W3 3cJ d9 h9 hT W2 2c9 hQ sJ cT W3 3hQ sJ cT dK W3 3sQ dQ sA dK W3 3sQ dQ hA dJ W3 3cQ sK hA dA W3 3dT sT cK sK W3 3hT sA hK hK W3 | re 9 0,0,42,198 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;caught_fox/re/1 -
14 198974 1 normal - rccr 2 - | 1cA cK cK c9 W1 1sA sK sT s9 W1 1hA hK hA h9 W1 1c9 cT cJ cT W3 3d9 cQ dK d9 W0 0dJ dJ hT dT W2 2hT hQ hJ dT W2 2dA hQ sJ dQ W2 2dA sQ cJ dQ W2 2hJ cQ sQ h9 W3 3sT cA sK dK W2 2sJ sA hK s9 W2 | contra 4 7,70,133,30 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1 -
14 9961 2 normal - rcrc 1 - | 2sA sK s9 sK W2 2cA cA cK cT W2 2s9 sT sA d9 W1 1h9 dT hK h9 W2 2dK d9 cQ dJ W0 0cJ sQ cQ dK W2 2c9 hK cT hJ W1 1dQ dJ hJ hQ W0 0hA dA c9 sT W1 1sJ hT sJ hT W0 0cJ dA hQ dT W1 1dQ cK sQ hA W3 | re 1 43,95,81,21 won/re/1 -
14 85885 3 marriage 2 rcrc - - | 3sA dT sK s9 M2>0 W0 0cA cA cT c9 W0 0dJ dA cQ hT W3 3h9 h9 dT hK W1 1dQ dA d9 hQ W0 0c9 hJ cT sT W1 1sJ dK cJ hQ W0 0sJ dK cQ dJ W2 2s9 sK sQ sT W0 0cK hT hK dQ W1 1sQ hA hJ d9 W1 1sA hA cJ cK W3 | contra 3 102,73,11,54 won/contra/1;contra_won/contra/1;charlie/contra/1 -
15 45866 0 normal - rccr 0 - | 0cA cK cT cK W0 0dK dJ hQ sQ W3 3dJ cQ dT hT W2 2sA s9 sT sA W2 2hA dT hK h9 W3 3sK d9 s9 sK W0 0dK sQ d9 hJ W1 1cA dQ cT c9 W2 2hK cQ c9 h9 W3 3cJ dA dQ hJ W0 0sJ sT cJ hQ W3 3hT dA hA sJ W0 | re 1 89,9,81,61 won/re/1 -
15 129541 1 marriage 1 rrcc - - | 1hA h9 hA h9 W1 1sT dA sK dJ M1>0 W0 !0:120 0cA sK cK cT W0 0cT cQ cK cA W1 1s9 dJ sT sJ W0 0c9 hQ sQ dA W2 2dK d9 dT dK W0 0c9 cQ hT sA W2 2hK hJ cJ s9 W0 0hQ sJ dQ hJ W0 0sQ dQ d9 dT W0 0hT cJ hK sA W0 | re 7 149,50,41,0 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;caught_fox/re/1 -
15 77700 2 normal - crrc 2 - | 2dK dJ hJ sJ W1 1hA d9 h9 sJ W0 0cA dT c9 cA W1 1sA s9 s9 sK W1 1h9 cQ hK d9 W2 2c9 sK cK hJ W1 1hK dA hA cJ W2 2cK sQ dQ cQ W1 1cJ dA dK hQ W2 2cT hQ sQ sT W0 0hT dQ cT dJ W0 0hT sA sT dT W0 | re 0 105,80,55,0 won/re/1;Doppelkopf/contra/1 -
15 251650 3 solo_club 1 crcc - - | 1dJ !1:120 cA hJ cA W3 3dA dT dK dT W3 3sT sK cT sT W1 1hJ cT cQ cK W3 3h9 cJ dQ h9 W1 1dQ sQ dJ c9 W2 2dA hT dK hT W1 1sJ cJ hA hQ W0 0d9 sJ sA s9 W1 1hQ c9 hA cQ W0 0d9 cK hK s9 W1 1sQ sA hK sK W1 | contra 2 35,117,8,80 won/contra/1;no_120_said/contra/2 -
16 227916 0 normal - rrcc - - | 0dK cQ d9 hT W3 !3:120 3cA c9 c9 cK W3 3sA sK sT sA W3 3hA h9 h9 hA W3 3hK hK dJ cJ W2 2cK dQ cT cT W3 3dJ cQ dK d9 W0 0sT sQ s9 hT W3 3hJ hQ sJ dQ W0 0sK sQ s9 hJ W1 1cA dA dA dT W2 2hQ sJ dT cJ W2 | contra 11 19,9,72,140 won/contra/1;no_90/contra/1;no_60/contra/1;no_30/contra/1;no_120_said/contra/2;contra_won/contra/1;Doppelkopf/contra/1;caught_charlie/contra/1 -
16 247721 2 normal - crrc 2 - | !2:120 2cA c9 d9 cK W0 0sA s9 sT sT W0 0h9 hK dT hA W2 2dK sQ dJ d9 W3 3cK hQ cT cT W0 0h9 s9 cJ sK W2 2dQ dJ hQ hJ W0 0hA cQ sA hT W3 3c9 hK cA sQ W2 2cQ hT dQ sJ W3 3cJ hJ dK dA W2 2dA dT sJ sK W2 | contra 3 83,0,95,62 won/contra/1;no_120_said/contra/2;contra_won/contra/1 -
17 74602 0 solo_jack 0 rccc - - | 0cJ !0:120 dJ hJ dJ W0 0hJ cJ dT hA W1 1sT sK dK sA W0 0sA sQ sK dK W0 0dA d9 c9 c9 W0 0dA d9 hQ h9 W0 0sT h9 cQ cK W0 0sQ cQ hK hQ W0 0s9 cK hT hK W0 0s9 dQ hT cT W0 0sJ dQ cT cA W0 0sJ dT cA hA W0 | re 8 215,25,0,0 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;no_120_said/re/2;solo/re/3 -
17 265365 0 normal - crcr 2 - | 0sA s9 sK s9 W0 0c9 cA cK c9 W1 1hA h9 dT h9 W3 3dK d9 cQ dJ W1 1hJ sJ cQ cJ W3 3cA dK sQ dA W2 2dJ sJ dQ d9 W0 0sT cJ sT cT W1 1dQ dA hQ hT W2 2hJ hQ sK dT W3 3cK hK sQ hA W1 1hT hK cT sA W1 | re 2 22,113,56,49 won/re/1;no_90/re/1 -
17 165615 1 marriage 2 rcrc - - | 1sK sT sK sA M2>0 W0 !2:120 0cA c9 cT cK W0 0hA hK sA hK !0:90 W0 0h9 hJ cJ hA W2 2cK cA sQ c9 W0 0h9 sJ sQ d9 W2 2cQ dK hJ sJ W2 2s9 sT s9 dA W1 1cT cQ dK dA W2 2dJ dJ hT dT W0 0dQ hQ hT cJ W2 2d9 dQ dT hQ W1 | re 8 126,37,77,0 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2 -
18 239816 0 normal - rrcc - - | 0cA cK c9 dA W3 !3:120 3sA s9 sK s9 W3 3hA dA h9 h9 W0 0dJ cQ dK d9 W1 1dT sQ d9 cQ W0 0sT sK cT sT W0 0cJ hT dJ dK W1 1hA hK hQ sQ W0 0c9 dQ cA hQ W3 3sJ dQ hT hJ W1 1hK cK hJ cT W3 3cJ dT sA sJ W3 | re 1 93,44,0,103 won/re/1;no_120_said/re/2;charlie/contra/1 -
18 279354 1 marriage 0 rrcc - - | 1sA sT s9 sA M0>1 W1 1hJ hQ d9 sQ W0 0cA cT c9 c9 W0 0hA h9 hK h9 W0 0cK cT cA dT W3 3hK hA dQ hQ W2 2sJ hJ dA cJ W1 1sJ d9 sQ dJ W3 3sK dJ s9 cK W0 0dQ hT hT dT W2 2dA dK cQ cJ W0 0cQ sT dK sK W0 | re 2 95,49,54,42 won/re/1;caught_fox/re/1 -
18 143701 2 normal - rrcc - - | 2sA s9 dA sT !0:120 W0 0cA cK cT cK W0 0hA hK h9 h9 W0 0dK !1:90 hQ d9 dJ W1 1hK dJ hT hA W3 3cA c9 sQ sK !1:60 W1 1hJ dK dT d9 W1 1sQ hJ dT dQ W1 1cQ sJ s9 hQ W1 1cJ sJ cT cQ W0 0hT dQ cJ sT W0 0c9 dA sK sA W1 | re 13 118,95,0,27 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_60_said/re/1;no_30/re/1;no_120_said/re/2;fox_last_trick/re/1 -
18 206331 3 normal - rccr - - | !3:120 3cA c9 c9 cK W3 3hA h9 h9 hA W3 3dK cQ d9 d9 W0 0sA sT sK s9 W0 0sT hQ sA sQ W3 3cK dJ cT cT W0 0sK sJ sQ cQ W3 3hK hJ hK sJ W2 2cJ hQ dK dQ W3 3dJ hJ hT dA W1 1cA dQ hT dT W3 3cJ s9 dA dT W3 | re 8 58,25,12,145 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;caught_fox/re/1;charlie/re/1 -
19 205942 1 solo_king 3 cccr - - | 3cK !3:120 sK s9 dK W3 3cK dJ sQ hK W3 3cA c9 cJ h9 W3 3dA dQ dJ d9 W3 3hA hT h9 hJ W3 3c9 cQ cA sA W1 1hJ sA hQ cJ W3 3d9 cT dT dA W2 2dT sK cQ dQ W3 3hT sT hA sT W1 1hQ sJ dK s9 W3 3hK sQ cT sJ W3 | re 2 0,66,31,143 won/re/1;no_120_said/re/2;solo/re/3 -
19 74682 1 poverty 2 rcrc 0 - | 1cA !0:120 cK c9 d9 W0 0cQ dJ sA d9 W0 0hT hJ hA dT W0 0hT sJ cT dQ W0 0dA cJ sT dQ W0 0dA dT sA hQ W0 0cJ hQ cK sQ W3 3hA dK h9 hK W0 0sJ h9 sK sQ W3 3s9 dK sT sK W0 0dJ cT hK cQ W3 3s9 hJ c9 cA W0 | re 6 200,0,0,40 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
0 11 0 normal - crcr 3 - | 0sA sK s9 sT W0 0dJ cQ d9 sJ W1 1cA c9 c9 cT W1 1cK cA dA cT W3 3hA dT h9 hK W0 0dQ hJ hQ cQ W3 3dQ sQ dK hJ W0 0s9 hQ sT hK W1 1dT cJ dA d9 W3 3h9 sK hT hA W1 1cK sA sQ cJ W3 3hT dJ dK sJ W3 | re 2 62,70,0,108 won/re/1;no_90/re/1 -
0 83457 2 normal - rcrc 0 - | 2sA s9 s9 sK W2 2d9 !0:120 dK dA dK W0 0cA cK c9 cK W0 0hA hK hK h9 W0 0c9 cT cQ cA W2 2dT cJ cQ hJ W0 0dA hJ dJ sJ W0 0dJ sQ dQ dT W1 1cT hQ sQ hT W0 0sJ sT hQ hT W3 3dQ d9 hA sK W3 3h9 cJ sA sT W0 | re 5 140,18,39,43 won/re/1;no_90/re/1;no_120_said/re/2;charlie/re/1 -
1 236363 0 poverty 3 crcr - - | 0hA d9 dK h9 !2:120 W2 2sA sT sT sA W2 2cA c9 c9 dK W1 1dJ dA sK dQ W0 0hA sQ cQ hK W2 2s9 sK s9 dA W1 1dJ d9 cK hQ W0 0h9 hQ hT hK W2 2hJ cT sQ hJ W0 0dT cJ hT cK W2 2cJ cT dT dQ W1 1sJ sJ cA cQ W0 | contra 8 64,55,121,0 won/contra/1;no_90/contra/1;no_60/contra/1;no_120_said/contra/2;contra_won/contra/1;Doppelkopf/contra/1 -
1 13264 1 normal - rccr - - | 1sA sT s9 sA !1:120 W1 1hA dA hK h9 !0:R W2 2dJ dT hQ d9 W0 0hK h9 hJ hA W2 2hJ cQ dA dK W3 3sT sQ sK hT W2 2cT c9 dK cT W0 0dJ sJ hQ sJ W2 2c9 cK dQ cA W0 0d9 dT hT dQ W2 2cJ cK cQ sK W0 0cJ cA sQ s9 W2 | contra 6 70,32,118,20 won/contra/1;no_120_said/contra/2;no_120_said/contra/2;contra_won/contra/1;caught_charlie/contra/1 -
1 169713 3 normal - rccr 1 - | 3cA c9 cK cT W3 3c9 cK cT dT W2 2hA dJ h9 h9 W3 3s9 dT s9 sT W0 0dK d9 hQ sJ W2 2d9 cQ hJ dJ W3 3cJ cQ hT sJ W1 1cA sQ sT hK W2 2hT sK hQ dK W2 2cJ sK sQ dA W1 1dA dQ sA hK W1 1hJ dQ sA hA W2 | contra 3 20,66,109,45 won/contra/1;no_90/contra/1;contra_won/contra/1 -
2 217094 0 normal - ccrr 3 - | !3:120 0cA cK c9 c9 W0 0hK hA h9 hJ W3 3cA cK cT hA W3 3sK s9 sA s9 W1 1hK h9 sJ d9 W3 3sK sT sT sA W2 2dJ dQ dK hQ W1 1hJ cQ sQ d9 W2 2dK cQ hT dT W0 0dJ sQ cJ hT W3 3dA sJ cJ dQ W3 3dA cT dT hQ W3 | re 4 42,27,43,128 won/re/1;no_90/re/1;no_120_said/re/2 -
2 134249 1 marriage 0 rrcc 0 - | 1hA hK h9 hA M0>1 W1 1h9 hJ c9 hK W2 2sA sA sK s9 W2 2cA dK c9 cK W3 3dK sQ d9 hJ W0 0sQ dQ dT hT W3 3dJ cQ hT cJ W1 1sK s9 hQ cQ W0 0dA hQ dQ d9 W0 0sJ cK sT cJ W3 3dJ dT cT cA W3 3sJ dA sT cT W0 | contra 2 69,43,32,96 won/contra/1;contra_won/contra/1 -
2 75646 2 normal - ccrr - - | 2cA c9 cA c9 W2 2sA sT s9 dA W1 1hA h9 hA hK W1 1hK h9 dJ sJ W0 0s9 sJ sK sA W1 1cK cT cQ hT W0 0sK sQ cQ dT W2 2dJ dQ dT hT W1 1cK hJ dQ sQ W0 0cJ dK hQ d9 W2 2hQ hJ cJ dK W2 2dA d9 sT cT W2 | contra 1 47,100,93,0 won/contra/1;contra_won/contra/1;fox_last_trick/re/1 -
2 256588 3 marriage 2 rcrc 2 - | 3hK hA h9 hA M2>0 W0 !0:120 0cA cK sA c9 W0 0cT cT dA c9 W2 2sJ dT hQ d9 W0 0dJ hJ sQ dJ W2 2cQ cJ dK dK W2 2sK s9 s9 sA W1 1cJ cQ dQ hJ W2 2d9 dQ hT dT W0 0sJ hQ hT cK W2 2dA hK sQ sT W2 2sK sT h9 cA W3 | re 6 90,15,110,25 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
3 113690 0 poverty 3 crcr 1 - | 0cA d9 dK c9 W2 2h9 hA hA dK W1 1dA sJ cA d9 W1 1dA sJ cT hJ W1 1dJ dT s9 sQ W0 0cK dQ hQ cK W2 2h9 hK c9 dJ W1 1hJ dQ s9 sQ W0 0sA cJ sT sA W1 1hT hT hK cQ W2 2hQ sK sK cJ W2 2cQ cT sT dT W2 | contra 2 23,115,102,0 won/contra/1;contra_won/contra/1 -
3 263766 1 normal - ccrr 3 - | 1hA hK hK h9 W1 1sK sA s9 s9 W2 2cA c9 cT dT W1 1sT sK sA dT W0 0cA hQ c9 cK W1 1h9 d9 sJ d9 W3 3dK sQ dK cQ W2 2sJ cQ dJ hT W1 1dJ sQ dQ hJ W2 2sT dA hJ cJ W3 3dA hQ cJ cT W3 3dQ hT hA cK W0 | contra 2 63,85,39,53 won/contra/1;contra_won/contra/1 -
3 265101 2 marriage 0 rcrc - - | 2cA cK c9 cT M0>2 W2 2hA h9 hA hK W2 2cT dJ cQ cA W0 0sA s9 sT dK W3 3hQ cJ dT d9 W3 3dJ cJ dQ dK W1 1sA s9 hK sK W1 1hJ dA sQ cQ W0 0sT sJ sK h9 W1 1dT sJ hT dQ W3 3d9 hQ hT c9 W1 1dA cK hJ sQ W0 | contra 1 65,59,51,65 won/contra/1;contra_won/contra/1;caught_fox/re/1 -
3 16656 3 marriage 1 rrcc 1 - | 3sK sT sA s9 W1 1sT sA hQ sQ M1>0 W0 !0:120 0hA s9 hK h9 W0 0cA !1:90 hJ c9 cK W1 1sJ cJ dQ d9 W3 3hK h9 dQ hA !1:60 W1 1hQ dJ dK dT W1 1dA d9 dK dT W1 1dA hT hJ dJ W1 !1:30 1sQ sK sJ cJ W1 1cQ cT hT cK W3 3cT cA cQ c9 W1 | contra 9 42,164,0,34 won/contra/1;no_90_said/contra/1;no_60_said/contra/1;no_30_said/contra/1;no_120_said/contra/2;contra_won/contra/1 -
4 37909 0 marriage 3 rccr 0 - | 0hT d9 d9 dK M3>0 W0 0dJ hQ dT cQ W3 3cA cT cK c9 W3 3hA hK hK hA W3 3cJ hT dJ hJ W0 0dA dQ cJ sJ W0 0dA sQ dT sJ W0 0hJ sQ hQ cQ W3 3h9 h9 cT sK W3 3s9 sT sA cA W1 1sT cK sK dK W0 0dQ sA c9 s9 W0 | re 3 110,32,0,98 won/re/1;no_90/re/1;no_60/re/1 -
4 69650 1 normal - rcrc - - | 1hA hK h9 dA W0 !0:120 0sA sT sA s9 W0 0cA c9 hA cK W0 0cA cT sT dA W3 3sK sK hJ s9 W1 1cT cQ hT c9 W3 3d9 cQ hJ dK W0 0dJ hQ d9 sJ W1 1hK cJ dQ hQ W0 0dQ dT hT sJ W2 2dK sQ cJ cK W3 3sQ dT h9 dJ W3 | re 1 105,17,25,93 won/re/1;no_120_said/re/2;Doppelkopf/contra/1 -
4 193345 2 normal - rccr 1 - | 2hA h9 hK hA W2 2sK s9 sA s9 W0 0cA cK dT c9 W2 2sT sK cQ sT W0 0dK cJ sQ d9 W2 2h9 cJ dT dQ W1 1cT dQ cK c9 W2 2hK cQ dJ dA W1 1hJ hT dK hT W0 0sJ dA hJ dJ W1 1hQ d9 cT sQ W0 0hQ sA sJ cA W0 | contra 2 111,52,77,0 won/contra/1;contra_won/contra/1 -
4 271454 3 normal - rccr - - | 3sA s9 sT dA !2:120 W2 2hA h9 hA hK W2 2h9 hK cQ d9 W0 0cA cT c9 cT W0 0hJ dK hQ d9 W2 2cK c9 sJ cA W0 0cJ hT sJ dJ W1 1sA sQ sK s9 W2 2cK dJ hQ dK W0 0sK dQ sQ sT W2 2cJ cQ dT dQ W3 3hJ hT dA dT W0 | contra 2 101,16,105,18 won/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/re/1 -
5 66137 3 marriage 1 crcr - - | 3cA c9 dA cK W1 1hA hK sJ h9 M1>3 W3 !1:120 3cT cT cQ cA W1 1sA s9 !3:90 sT s9 W1 1dJ d9 cJ dK W3 3cK sJ cQ hK W1 1hJ dT hQ dK W3 3c9 cJ hT dJ W1 1d9 hJ hQ dA W3 3sQ h9 dT dQ W3 3sQ sT sA dQ W3 3hT sK sK hA W3 | re 13 0,108,0,132 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_30/re/1;no_0/re/1;no_120_said/re/2;caught_fox/re/1 -
6 25613 1 normal - ccrr - - | 1sA sT s9 s9 !1:120 W1 1hA h9 h9 hA W1 1cK cA c9 c9 W2 2cA cT cT cK W2 2cQ dA d9 hT W1 1dJ dA cQ d9 W3 3sK sK hQ sT W1 1dK hQ dK sQ W0 0sA dQ sQ dT W2 2hK dJ hK sJ W1 1cJ hT cJ hJ W2 2dT hJ sJ dQ W1 | contra 8 14,117,93,16 won/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1;bock/no_team/2 -
6 204117 2 marriage 0 rcrc - - | 2cA cT cT c9 M0>2 W2 2sA sK sT dA W1 1dK dA sQ cQ W0 0cA cK c9 d9 W3 3hA hK h9 h9 W3 3sA s9 dT s9 W1 1cK hJ sJ cJ W0 0dQ hQ sJ dJ W1 1d9 hT dJ dQ W2 2sK sQ cQ dK W0 0hK dT hA cJ W3 3hJ hQ hT sT W1 | contra 4 45,92,46,57 won/contra/1;contra_won/contra/1;bock/no_team/2 -
6 30217 3 normal - ccrr - - | 3sA sK s9 s9 W3 3dT hQ d9 cQ W2 2cA cT cK c9 W2 2sK sT dA sA W0 0hA hA hK h9 W0 0dJ dJ dA cQ W3 3sT hJ dQ hQ W2 2cJ sQ dK dK W3 3h9 sJ c9 hK W0 0cJ sJ dQ hT W3 3sQ dT cK d9 W3 3hT cT cA hJ W3 | re 4 68,0,59,113 won/re/1;no_90/re/1;bock/no_team/2 -
7 92502 0 solo_club 0 rccc - - | 0hA !0:120 h9 hK hK W0 0dJ cT cA sJ W3 3dA cT d9 dK W0 0hJ cJ cK cA W1 1sA sK sA cK W0 0dQ sQ c9 dJ W1 1hA dQ cQ hT W0 0hJ sQ c9 cJ W1 1h9 s9 hQ cQ W0 0sJ dK s9 d9 W0 0hQ sK dT sT W0 0hT dT dA sT W0 | re 6 181,34,0,25 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;solo/re/3 -
7 125600 0 normal - ccrr - - | 0sA s9 s9 sT W0 0hK h9 h9 hA W3 3cA c9 cT c9 W3 3dK cJ hQ cQ W2 2sA sT dQ sK W0 0cK dJ cK sJ W3 3hA hJ sQ hT W2 2d9 cQ hT hJ W0 0d9 cJ hQ dA W2 2sQ dJ dK sJ W2 2cT dT dT dQ W1 1sK cA hK dA W0 | contra 3 94,33,65,48 won/contra/1;contra_won/contra/1;fox_last_trick/contra/1 -
7 259761 2 marriage 1 crrc 2 - | 2dA dK dK dT M1>2 W2 2hA hA h9 h9 W2 2sJ dJ cJ hQ W1 1dT dA dJ hJ W2 2c9 cA cA cK W3 3sA sK sK s9 W3 3sA s9 d9 sT W1 1cQ d9 hJ sJ W1 1cQ dQ dQ hT W0 0hK sQ sT c9 W1 1hQ cT sQ hT W0 0hK cJ cT cK W1 | re 2 45,74,76,45 won/re/1;charlie/re/1 -
7 170913 3 normal - rrcc 3 - | 3cA c9 cK cA !3:120 W3 3hK d9 h9 h9 W0 0hJ cJ dT hQ W3 3cT c9 cQ s9 W1 1sJ hQ d9 sJ W2 2s9 dK sT sK W3 3dA dQ dT dK W3 3dA sQ dQ hT W3 3dJ cQ sQ sK W0 0cK hA sA dJ W3 3hJ hT hA sT W0 0cT hK sA cJ W3 | contra 6 49,13,7,171 won/contra/1;no_90/contra/1;no_120_said/contra/2;contra_won/contra/1;charlie/contra/1 -
8 222527 1 marriage 3 crcr - - | 1cA cK cT c9 M3>1 W1 !3:120 1c9 dJ cA cK W2 2sA s9 sT s9 W2 2sJ d9 d9 dQ W1 1hK h9 hJ h9 W3 3sA sK cT sT W3 3hJ dK sQ dK W1 1hQ dT cQ dJ W3 3dQ dA hQ sQ W2 2hK cQ hA dA W3 3cJ hA dT hT W2 2sJ cJ sK hT W1 | re 2 0,61,91,88 won/re/1;no_120_said/re/2 -
9 214619 0 normal - crrc - - | 0cA c9 c9 dA !3:120 W3 3hA hK h9 h9 W3 3sK sA s9 sT W0 0cK cT cK !3:90 dT W3 3dJ cJ cQ hJ W1 1sK sT hQ s9 !3:60 W3 3d9 sJ hQ hJ W1 1dJ cQ dK d9 W2 2cT cJ hT cA W0 0hK hA sQ hT W3 3dQ dA dT sQ W2 2sJ dQ dK sA W3 | contra 10 58,16,36,130 won/contra/1;no_90/contra/1;no_90_said/contra/1;no_60/contra/1;no_60_said/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/re/1 -
9 32023 1 marriage 0 rrcc 0 - | 1sA s9 sT sT M0>1 W1 1hA hA dK h9 W3 3cA c9 c9 dT W2 2sK d9 sA s9 W3 3cT cA cK dT W2 2dJ d9 cJ dK W0 0cQ dQ hJ dJ W0 0h9 hK hJ cT W2 2cJ hQ cQ dQ W0 0hK hQ hT hT W3 3sJ dA cK sQ W0 0dA sK sQ sJ W0 | contra 2 69,31,72,68 won/contra/1;contra_won/contra/1 -
9 37384 3 solo_jack 3 cccr - - | 3cJ !3:120 dJ dJ cQ W3 3hJ cJ sT sT W0 0hA hT cT hQ W0 0sA hT sK s9 W0 0dT d9 dA dA W2 2cA sJ c9 c9 W3 3sA s9 h9 sQ W3 3hA h9 hK d9 W3 3hK hQ cA dQ W3 3sK sQ dK dK W3 3hJ cQ dQ cK W3 3sJ cK dT cT W3 | re 2 83,0,32,125 won/re/1;no_120_said/re/2;solo/re/3 -
9 132766 3 solo_heart 0 rccc 0 - | 0cQ !0:120 h9 h9 hK W0 0dJ hK hJ sJ W3 3cA c9 cK cA W3 3dA dT dT dK W3 3cK cJ d9 c9 W0 0hQ dJ sQ dQ W2 2sA s9 hQ sK W0 0hT hJ cJ dQ W0 0hT sJ cQ d9 W0 0sQ dK s9 cT W0 0hA sT sK cT W0 0hA sA sT dA W0 | re 4 158,0,11,71 won/re/1;no_90/re/1;no_120_said/re/2;solo/re/3 -
9 49783 3 marriage 1 crrc 2 - | 3cA cK cT dT M1>2 W2 !2:120 2hA h9 hK hK W2 2h9 c9 hA hJ W1 1sA sT dT sT W3 3hJ cJ hQ dJ W1 1hQ dA dK dQ W2 2dJ cJ sQ cQ W1 1s9 sJ dQ sA W3 3c9 cK sK d9 W2 2d9 sJ sQ cQ W1 1sK dA cT s9 W2 2hT dK cA hT W1 | re 5 0,75,108,57 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;Doppelkopf/contra/1 -
10 112598 1 normal - rcrc - - | 1s9 sA s9 !3:120 sT W2 2cA c9 cT c9 W2 2h9 dA h9 hA !3:90 W3 3dJ cQ d9 hJ W0 0cA cT cK dK W3 3hJ cJ hQ d9 W1 1sJ cJ sQ dK W3 3hT dJ dT hQ W3 3hT dT sQ cQ W3 3sJ dA hK cK W3 3dQ sT hA sK W3 3dQ sA hK sK W3 | contra 10 7,7,42,184 won/contra/1;no_90/contra/1;no_90_said/contra/1;no_60/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1 -
10 273049 3 normal - crrc - - | 3sA s9 s9 dA W2 !2:120 2hA hK hA h9 W2 2d9 hJ hQ cQ W1 1cA cT c9 c9 W1 1sK cQ sT sK W2 2hJ sQ d9 dJ W3 3cT cK cK dT W2 2cJ sQ dK dJ W3 3sT dQ dA hQ W2 2cJ dQ hT sJ W0 0cA sJ hK dT W1 1h9 hT sA dK W2 | re 6 17,56,149,18 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
11 112809 0 marriage 3 rccr 1 - | 0hA hK hK h9 M3>0 W0 0dK hQ dK cQ W3 3sA sT sA s9 W3 3s9 sK hA dT W2 2cA cK dT c9 W0 0dJ dA hJ hJ W1 1dJ cJ dQ d9 W3 3cT sQ cT c9 W0 0sJ dA hQ cJ W1 1d9 hT cQ sJ W2 2sQ h9 dQ hT W1 1cA cK sT sK W1 | contra 2 67,80,40,53 won/contra/1;contra_won/contra/1 equal_points
11 113293 1 marriage 2 crrc - - | 1hA hK hK h9 M2>1 W1 1sT s9 sA sK W3 3cA cA cK cK W3 3sA hA sK s9 W3 3hJ sQ dT cQ W2 2sT sQ d9 h9 W3 3dK dQ hQ dT W1 1cT cQ c9 hJ W2 2d9 dK dA dJ W1 1dJ hT hT sJ W3 3c9 cJ cT cJ W0 0sJ hQ dQ dA W1 | contra 0 14,75,33,118 won/contra/1;contra_won/contra/1;caught_fox/re/1;caught_fox/re/1;bock/no_team/2 -
11 265279 2 normal - ccrr - - | 2hA h9 h9 dA W1 1cA cK cK cT W1 1sA sK sK s9 W1 1s9 hJ sJ cJ W0 0cA c9 sJ cT W2 2cJ cQ dK d9 W3 3dK dJ hQ cQ W2 2hK hK hA sA W0 0dQ dQ dA hT W3 3dJ hT sT sQ W0 0dT c9 dT hJ W3 3d9 hQ sT sQ W2 | contra 4 61,70,51,58 won/contra/1;contra_won/contra/1;bock/no_team/2 -
11 263371 3 poverty 3 ccrr - - | 3cA !2:120 cT c9 dA W2 2dJ d9 dT cJ W1 1cA sQ cK hT W0 0sA sT dK sT W2 2cQ c9 dK d9 W2 2hT hA dJ dT W2 2hQ s9 hJ sQ W1 1cT hQ h9 s9 W2 2cJ h9 dQ dA W0 0dQ cQ hJ sK W1 1cK sJ hK sA W2 2sJ hK hA sK W2 | re 8 44,34,162,0 won/re/1;no_90/re/1;no_120_said/re/2;bock/no_team/2 -
12 132620 3 normal - rcrc - - | 3sA s9 dA sT !1:120 W1 1cT cA cK c9 W2 2hA h9 hA h9 W2 2c9 cT cK dT W1 1hK hK sJ cJ W0 0s9 hJ dQ sK W2 2dJ d9 sJ cJ W1 1dQ cQ hT cQ W3 3cA sK hQ hT W2 2dJ dK dA hQ W1 1sQ d9 dT sT W1 1sQ hJ dK sA W1 | contra 4 12,125,84,19 won/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1 -
13 202725 0 normal - rcrc - - | 0sJ d9 cQ d9 W2 !2:120 2sA dT s9 s9 W3 3cA cT c9 c9 W3 3cK cQ cA dA W0 0h9 hA dK dT W3 3cT hQ hK sA W0 0h9 dJ dQ cK W2 2dQ dK sQ sJ W0 0hA hQ sQ hT W3 3dJ hT dA hJ W0 0hK sK sK cJ W3 3cJ sT sT hJ W3 | contra 3 94,0,14,132 won/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/re/1;charlie/contra/1 -
13 132553 1 poverty 3 crcr - - | 1hJ dA c9 !1:120 sJ W0 0cA d9 dK cK W2 2hA hK hK d9 !1:90 W1 1dK dJ h9 dA W2 2hA sK hQ sQ W1 1cJ dJ s9 hQ W0 0cT dQ hT cT W2 2sA sA cJ dT W0 0cK cQ h9 cA W1 1cQ sJ sT hJ W1 1hT dQ sK sQ W1 1dT sT s9 c9 W1 | contra 7 56,115,69,0 won/contra/1;no_90_said/contra/1;got_120_against_no_90/contra/1;no_120_said/contra/2;contra_won/contra/1 -
13 101874 3 marriage 0 rccr - - | 3sA sT s9 s9 M0>3 W3 !3:120 3cA cA cT c9 W3 3h9 hK hA hA W1 1cT cK c9 !0:90 cK W1 1hQ dK dT cQ W0 0hJ dJ dQ d9 W2 2h9 sQ d9 hK W3 3dK cQ hJ dJ W0 0cJ sQ dA hT W3 3sJ hT sJ hQ W0 0dT sT sK dQ W3 3cJ dA sK sA W3 | re 10 48,44,7,141 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;caught_fox/re/1;charlie/re/1 -
14 236586 0 solo_spade 3 cccr 3 - | 3hA !3:120 hK hK h9 W3 3h9 hA cT dT W0 0dA dT dA sK W3 3sJ sT cJ sT W1 1cT cA cJ c9 W3 3dQ s9 hQ sK W1 1dJ s9 dQ hJ W3 3sA hJ dJ cQ W3 3sA dK sJ c9 W3 3hQ cA cQ dK W1 1hT d9 sQ cK W1 1hT d9 sQ cK W1 | contra 2 31,89,0,120 won/contra/1;no_120_said/contra/2 equal_points
14 78669 0 solo_spade 0 rccc 3 - | 0dJ sT sJ cJ W3 3cA c9 cT cA W3 3cT hJ cQ hA W1 1dA dT dT sK W0 0dJ sT hQ cQ W3 3cK sJ dA hQ W2 2hA cK cJ h9 W0 0s9 sK sQ s9 W2 2hK sA dQ hK W3 3c9 hT h9 sQ W0 0dQ hJ dK sA W3 3d9 hT dK d9 W0 | contra 4 79,26,27,108 won/contra/1;no_90/contra/1;bock/no_team/2 -
0 135897 3 marriage 1 crcr - - | 3cA c9 cT c9 M1>3 W3 3sA sT dA s9 W1 1cA cK dA cK W3 3sK sA cQ sK W1 1hJ dK d9 sJ W0 0h9 hA dJ hK W2 2sT s9 sQ cQ W1 1h9 sJ hQ dT W3 3dJ dQ d9 cJ W0 0cJ hT hT dK W2 2cT hJ hQ hK W0 0dT hA dQ sQ W3 | re 2 34,70,43,93 won/re/1;no_90/re/1 -
1 241332 1 solo_heart 2 ccrc 2 - | 2hA !2:120 dJ dJ hK W2 2hA sJ hJ sJ W2 2hQ cQ dQ cJ W3 3c9 cT cA cK W1 1sA hK s9 sT W2 2hQ hT sA cQ W3 3dK dA d9 h9 W2 2hJ dQ dA cA W3 3d9 dT s9 h9 W2 2sQ hT dT sT W3 3sK cK sK cJ W2 2sQ dK c9 cT W2 | contra 2 0,25,117,98 won/contra/1;no_120_said/contra/2 -
1 272016 1 marriage 1 crrc - - | 1cT cA c9 cK M1>2 W2 !2:120 2sA s9 s9 sT W2 2cA cK cT c9 W2 2sA sK sT !1:90 hA W2 2dJ dK d9 d9 W2 2hJ hQ dK cQ W1 1hQ hJ dA sQ W0 0h9 hK hK hA W3 3sK dJ sJ dA W1 1h9 dQ sQ dT W3 3sJ dT hT cJ W1 1cQ cJ dQ hT W0 | re 5 37,55,113,35 won/re/1;no_90/re/1;no_90_said/re/1;no_120_said/re/2;caught_charlie/contra/1 -
2 94026 2 marriage 2 crrc - - | 2dA sQ d9 hT M2>1 W1 1cA cT cK c9 W1 1sK sT sA sA W3 3hA dT h9 h9 W0 0s9 hJ sT cJ W3 3hK cJ dQ hA W1 1cK c9 cA sK W3 3cT hT d9 hK W0 0dK dA cQ dK W2 2cQ dJ hQ hJ W2 2dQ dJ sQ sJ W0 0s9 sJ hQ dT W2 | contra 2 55,69,47,69 won/contra/1;contra_won/contra/1 -
2 235017 3 normal - rccr - - | 3cA cT c9 c9 !3:120 W3 3sA sA s9 s9 W3 3hA hA h9 hK W3 3sK sT d9 sK W1 1hK dJ h9 hJ W0 0hJ sQ dK cQ W3 3d9 cQ dJ sJ W0 0sJ sQ cJ dK W1 1dQ hQ dA hT W0 0cJ cK hQ dT W2 2cK dQ sT cT W3 3hT dT cA dA W3 | re 8 42,29,19,150 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;Doppelkopf/re/1;caught_fox/re/1 -
3 150562 0 poverty 2 rcrc - - | 0sQ d9 c9 cQ W3 3s9 d9 sT sA W0 0hQ sQ h9 dA W1 1sA sK sK dT W0 0dQ dA s9 cQ W3 3sT cJ dQ h9 W1 1hA hK hK dK W0 0sJ cJ c9 dJ W1 1cA cK cT dK W0 0dJ hQ cT hJ W1 1sJ cA hT dT W3 3hT hJ cK hA W3 | contra 2 102,55,0,83 won/contra/1;contra_won/contra/1 -
3 125702 3 marriage 3 rccr - - | 3sA sK s9 s9 W3 3sA dQ sT sK M3>0 W0 !0:120 0dK dK hQ sQ W3 3hA dA hA h9 W0 0dJ sQ dJ d9 W1 1cA cT c9 cK W1 1sT dQ hK hT W0 0hJ hT dA hJ W1 1c9 cK sJ cT W3 3hQ dT cJ h9 W3 3cQ dT cJ hK W3 3cQ d9 sJ cA W3 | re 6 88,57,0,95 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2 -
4 146933 1 marriage 1 rrcc - - | 1sT s9 sK sA M1>0 W0 !1:120 0cT cK cA dA W3 3hA hK h9 hA W3 3h9 dJ cJ hK W1 1sK dQ sT s9 W2 2c9 sQ c9 cQ W1 1dK dT hQ d9 W3 3dJ cJ dQ hT W2 2cK hJ sA hQ W1 1sQ dA dK dT W1 1cQ cA sJ d9 W1 1hT cT sJ hJ W1 | re 3 25,102,34,79 won/re/1;no_120_said/re/2;caught_fox/re/1 -
4 53532 2 normal - crcr - - | !3:120 2cA c9 cK c9 W2 2s9 sA sK sT W3 3s9 sT sA sK W1 1cA cK !3:90 sQ cT !0:R W3 3dJ hQ cQ hJ W1 1dK dT dQ hT W0 0hJ d9 dQ d9 W2 2hK dJ dK hA W3 3hQ dT sJ sQ W2 2h9 hT dA hA W3 3cQ cJ hK dA W3 3sJ cJ h9 cT W0 | re 13 41,35,38,126 won/re/1;no_90/re/1;no_90_said/re/1;no_120_said/re/2;no_120_said/re/2;caught_fox/re/1;caught_fox/re/1;charlie/contra/1 -
5 168718 0 normal - crcr - - | 0hA h9 h9 dA !3:120 W3 3cA cT c9 c9 W3 3cK dJ cQ cK W1 1sA sT sK s9 W1 1dK dA cQ d9 W3 3hJ dK cJ hQ W2 2cA sJ dQ hQ W1 1s9 dJ sQ sK W3 3hJ cJ dQ d9 W1 1sT hT hT hK W3 3dT sJ sQ cT W1 1sA hA dT hK W3 | re 9 0,89,11,140 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;no_120_said/re/2;caught_fox/re/1 -
5 109634 3 normal - rcrc - - | 3cA cT c9 cK W3 3cA cQ c9 !2:120 cT W0 0sA sK dA sK W2 2hA h9 hA h9 W2 2cK sQ hK dA W3 3hJ d9 d9 sJ W2 2dJ dQ hQ dJ W0 0sT sT sQ hT W3 3dK cJ dQ cQ W2 2dT sJ hJ hQ W1 1sA hT dK s9 W2 2dT cJ s9 hK W3 | re 1 34,17,93,96 won/re/1;no_120_said/re/2;charlie/contra/1 -
6 257756 1 normal - crcr - - | 1sA s9 sT sA !1:120 W1 1hA hK dA h9 W3 3cA c9 cT dA W2 2sK cQ d9 s9 W3 3c9 cK dJ hJ W2 2sT dQ sQ cQ W1 1hK dJ sQ hA W3 3d9 hQ sJ dK W0 0cK cJ hQ cT W2 2hJ dK hT cJ W0 0dQ hT sJ dT W1 1h9 sK cA dT W0 | re 2 52,76,59,53 won/re/1;no_120_said/re/2 -
6 36268 3 normal - rccr - - | 3sA sT sK s9 !3:120 W3 3hA hK h9 hK W3 3s9 cQ sK sA W0 0h9 sJ hA dQ W3 3hQ hT hT dT W1 1cA cA cK c9 W1 1c9 cK dA cT W3 3hJ dQ dA sQ W2 2dJ sQ dJ d9 W3 3dK cJ d9 hJ W0 0hQ cT cJ dT W0 0sJ sT dK cQ W3 | re 4 51,59,19,111 won/re/1;no_90/re/1;no_120_said/re/2 -
7 230735 1 normal - rccr - - | 1hA h9 h9 hK W1 1c9 cA cT c9 W2 2cT cA cK dT W1 1s9 dA sT sK W2 2hQ cQ d9 dK W3 3d9 cQ dJ dK W0 0cK dJ hJ cJ W3 3sA sK s9 dT W2 2hA hQ hJ sQ W1 1sJ hT dA sJ W2 2hK dQ sT hT W1 1cJ sQ sA dQ W2 | contra 6 9,96,115,20 won/contra/1;no_90/contra/1;no_60/contra/1;no_30/contra/1;contra_won/contra/1;caught_fox/contra/1 -
8 20544 2 solo_club 0 rccc - - | 0dJ !0:120 cA cT sJ W3 3sA cK s9 sK W0 0dJ cT hQ cA W2 2dA dK dK dA W2 2hA hA hJ hK W0 0cJ sQ c9 sJ W1 1d9 d9 dQ cK W3 3s9 cJ sA sT W0 0dQ cQ dT hQ W1 1hJ h9 h9 hT W0 0sQ c9 hK sK W0 0cQ hT dT sT W1 | contra 2 93,59,56,32 won/contra/1;no_120_said/contra/2 -
9 216417 2 poverty 2 rcrc - - | 2cA c9 s9 c9 W2 2sA sK dA sT W0 0dJ dA s9 hQ W3 3sA hQ sQ sK W1 1cK cT cA dT W0 0dJ dK h9 sQ W3 3hK hJ h9 hA W0 0dQ dK hK cQ W3 3d9 cQ hJ sT W0 0cJ dQ cK dT W1 1sJ cT hT sJ W3 3d9 hT cJ hA W0 | re 2 126,40,11,63 won/re/1;caught_charlie/re/1 -
9 187921 3 normal - rcrc - - | 3cA !0:120 cK c9 dK W2 2sA s9 sT sK W2 2hA h9 dA hK !0:90 W0 0sA sK s9 dT W3 3c9 sJ cK sT W0 0d9 dA cQ hT W3 3hJ sQ dJ dK W0 0cQ hJ dJ dQ W0 0hQ sJ d9 sQ W3 3hK hQ hA h9 W0 0dQ dT hT cT W2 2cJ cT cJ cA W2 | re 9 81,0,102,57 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;charlie/re/1 -
11 194828 1 normal - rcrc - - | 1cA !2:120 cK c9 c9 W1 1sA dA sT sA W2 2dK d9 cQ d9 W0 0sK s9 sQ sT W2 2dQ dJ cJ hJ W2 2dJ hQ cJ dT W3 3hA dA h9 hK W0 0sK s9 sJ sQ W3 3h9 dQ hA dK W0 0dT hJ hT hK W2 2hQ cT hT sJ W0 0cT cK cQ cA W2 | re 7 76,15,123,26 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;Doppelkopf/re/1 -
11 29943 3 normal - crcr - - | 3cA cK c9 cK W3 3sA s9 sA s9 W3 3c9 cT cT cA W2 2hA hK h9 h9 W2 2sK sK sT dK W1 1dK cJ cQ dJ W3 3d9 sQ cQ d9 W1 1hJ dT dQ hQ W0 0dJ sJ dQ hJ W2 2sJ cJ dT hT W1 1hQ sQ dA hT W0 0dA hA sT hK W0 | contra 4 81,52,55,52 won/contra/1;contra_won/contra/1;caught_fox/contra/1;fox_last_trick/contra/1 -
12 46021 0 poverty 0 rccr - - | !3:120 0cA c9 cA dK W3 3dJ dK dA hJ W2 2sT dJ sK sK !3:90 W3 3cJ c9 d9 dQ W2 2h9 sJ hA h9 W3 3dQ s9 hJ cQ W2 2sJ cQ s9 hT W1 1cK cJ hQ cT W3 3hQ hK sT d9 W3 3sQ hK sA dT W3 3sQ cK sA dT W3 3hT cT hA dA W3 | re 10 0,15,32,193 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;Doppelkopf/re/1;caught_fox/re/1 -
12 5889 3 poverty 2 rcrc - - | 3sA !0:120 dK s9 sA W0 0dJ dA c9 hJ W3 3s9 hQ cQ sK W1 1c9 cA cT !0:90 dT W0 0dJ dT h9 hJ W3 3sK dQ h9 sT !0:60 W0 0dK d9 hK dA W3 3hK sJ cJ hA W1 1cK cT hQ sQ W0 0sQ dQ cA d9 W0 0hT sJ hA cJ W0 0cQ cK sT hT W3 | contra 9 136,29,0,75 won/contra/1;no_90_said/contra/1;no_60_said/contra/1;got_90_against_no_60/contra/1;no_120_said/contra/2;contra_won/contra/1 -
13 230554 0 marriage 1 rrcc - - | 0cA cT c9 c9 M1>0 W0 !1:120 0sA sK sT s9 W0 0hK hA h9 hA !1:90 W1 1dK dJ d9 hJ W0 0cK cQ cT cK W1 1dJ sQ dT hQ W2 2sA cA sT dT W1 1hJ dQ d9 sQ W0 0sK cQ hT dA W2 2hK hQ h9 sJ W3 3dK dA cJ cJ W1 1hT sJ dQ s9 W1 | re 9 62,123,46,9 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;Doppelkopf/re/1 -
13 160474 1 poverty 3 ccrr - - | 1hA dJ hK h9 W2 2cQ d9 hT dA W0 0hA dQ hQ hK W2 2cQ sA hT dK W0 0cA cT dJ cA W2 2sQ cT dK d9 W2 2hQ c9 sQ hJ W0 0s9 sT sJ sA W2 2cJ h9 sJ dQ W1 1c9 dT s9 cK W2 2dT sK cJ hJ W0 0sK cK dA sT W2 | re 3 78,7,155,0 won/re/1;no_90/re/1;fox_last_trick/re/1 -
13 254292 2 solo_heart 2 ccrc - - | 2dJ !2:120 hQ hA hA W3 3cA cT cA hK W2 2s9 sT sA sA W0 0dK dA sJ d9 W2 2dQ dJ hQ hK W0 0sT sK sQ sK W2 2sJ hT hJ hJ W3 3dT d9 sQ cQ W2 2dQ dA cJ h9 W2 2h9 cT cJ cK W0 0c9 c9 cQ cK W2 2hT dT dK s9 W2 | re 2 60,0,137,43 won/re/1;no_120_said/re/2;solo/re/3 -
0 200001 0 poverty 3 crcr - - | 0hA d9 hA hK W1 1cQ hT h9 dA W2 2cA cK cJ dJ W0 0hK hQ sQ s9 W2 2c9 cA sQ sK W0 0h9 hQ hT sK W2 2c9 cT cQ hJ W0 0s9 sJ sT sA W1 1dQ dJ sA d9 W1 1sJ cJ cK dT W2 2dT cT dK dA W1 1dQ hJ sT dK W1 | contra 2 52,119,69,0 won/contra/1;contra_won/contra/1 -
0 245660 3 poverty 2 crrc - - | 3sA s9 d9 sA W1 1cQ d9 dA hT W0 0hA dJ hA sJ W3 3s9 dJ hJ sT W1 1cQ h9 dK hT W0 0hK hQ hK sQ W3 3sK cJ sQ sT W1 1cJ sK dT dQ W0 0h9 sJ cK dQ W3 3hQ cA hJ cK W3 3c9 cT dT cA W1 1dA cT dK c9 W1 | contra 1 60,111,0,69 won/contra/1;contra_won/contra/1;fox_last_trick/re/1 -
1 236486 1 poverty 1 crcr - - | 1sA !3:120 sT dA s9 W3 3cQ dT d9 dJ W3 3cQ hJ hA sJ W3 3hT cJ sT dQ W3 3hT dT cT sQ W3 3cJ dQ h9 dA W0 0s9 sK sA dK W3 3sJ hQ c9 hA W0 0sK hK c9 dK W3 3dJ hQ hK cA W0 0h9 cA cK hJ W3 3d9 sQ cK cT W0 | re 4 69,0,0,171 won/re/1;no_90/re/1;no_120_said/re/2 -
2 196331 0 normal - crrc - - | 0sA sT s9 s9 W0 0hK hA h9 hK W1 1cA c9 c9 cK W1 1sA cQ sK hT W0 0cT cQ cA cK W1 1dJ hT dK d9 W2 2cT hJ sQ h9 W0 0sJ sQ dK dT W1 1dJ hQ dQ cJ W2 2hJ dA hQ sJ W0 0dQ cJ d9 sK W0 0dT dA hA sT W1 | re 3 91,123,26,0 won/re/1;Doppelkopf/re/1;fox_last_trick/re/1 -
2 118224 1 marriage 0 rrcc - - | 1sA s9 s9 sK M0>1 W1 1cA c9 cT !0:120 cT W1 1hA hK h9 hA W1 1hK sQ sK !0:90 cQ !3:R W0 0dJ cJ dA hQ W3 3dK hQ hJ d9 W0 0d9 cJ hT dA W2 2c9 dJ sJ cK W0 0sJ dQ sT hT W3 3hJ sQ dT cK W0 0cQ dQ sT dK W0 0dT h9 cA sA W0 | re 12 102,72,23,43 won/re/1;no_90/re/1;no_90_said/re/1;no_120_said/re/2;no_120_said/re/2 -
2 29974 2 poverty 2 ccrr - - | 2cA dA c9 c9 W3 3cQ hT dT d9 W0 0hA hK hA dK W3 3hQ sQ hJ h9 W0 0s9 sJ sT dK W1 1cA cT dQ hQ W0 0s9 cJ sK dJ W1 1cT cK sJ cJ W0 0hK h9 sA dA W3 3dJ sQ dQ sK W0 0d9 hT sT dT W1 1cK sA hJ cQ W0 | contra 3 108,54,0,78 won/contra/1;no_90/contra/1;contra_won/contra/1 -
3 246245 0 normal - rccr - - | 0cA cT cT c9 !0:120 W0 0hA h9 hK sK W0 0sA s9 sK cA W0 0hK h9 hA dK W3 3cQ dA hT dT W1 1dJ sQ d9 sJ W2 2dQ dJ cQ cJ W0 0sA hQ sT cK W1 1dT dQ hQ dK W3 3cJ c9 hT hJ W1 1sQ sJ hJ s9 W1 1dA d9 cK sT W1 | re 0 86,108,7,39 won/re/1;no_120_said/re/2;caught_fox/contra/1;fox_last_trick/contra/1 -
4 217846 1 solo_spade 0 rccc - - | 0cA !0:120 c9 cT cK W0 0dJ sA sA hJ W3 3dA sJ dK dK W0 0s9 sT sT dJ W3 3cA hQ c9 hK W0 0dQ s9 sK hQ W3 3cT sQ cK hK W0 0cJ sK dQ sJ W2 2hA h9 sQ h9 W0 0hT cJ hJ hT W3 3d9 cQ dA dT W0 0cQ hA dT d9 W0 | re 2 147,0,11,82 won/re/1;no_120_said/re/2;solo/re/3 -
4 151515 1 solo_club 0 rccc - - | 0cQ !0:120 cA cA c9 W0 0hT cK c9 dJ W0 0hT dJ hJ hJ W0 0sQ dA sJ cQ W3 3sA s9 sT sA W3 3hA cJ h9 h9 W0 0dQ dT sQ cT W2 2hK hK cT s9 W0 0hQ sK sJ dQ W0 0cK dA hA d9 W0 0cJ dK sK d9 W0 0hQ dT sT dK W0 | re 4 163,0,26,51 won/re/1;no_90/re/1;no_120_said/re/2;solo/re/3 -
4 220516 1 normal - rcrc - - | 1cA cT c9 dK W0 0sA s9 sK sK W0 0h9 hA hK dK W3 3c9 dJ cK hJ W2 2d9 d9 cQ hJ W0 0s9 sT cQ cK W2 2hK dJ h9 dA W3 3dQ sJ sJ hQ W2 2hA cJ dQ sQ W1 1sQ hT hQ cJ W2 2dT hT sT dT W3 3cA sA cT dA W2 | re 2 49,19,96,76 won/re/1;Doppelkopf/contra/1;Doppelkopf/re/1;fox_last_trick/re/1 -
4 214307 2 normal - rcrc - - | 2d9 cJ hQ dK W0 0dJ hJ cQ dQ W2 2sJ sQ d9 dJ W3 3cA dT c9 cT W0 0hJ dA sQ dQ W2 2h9 hA h9 hA W3 3sA sK s9 sJ W2 2cJ dA cQ cK W0 0sT sA hQ sK W2 2hK sT hT s9 W0 0dT cA hT c9 W2 2hK cT dK cK W0 | re 6 106,0,105,29 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;caught_fox/re/1;caught_fox/re/1 -
5 142207 3 normal - rcrc - - | 3cA c9 dK c9 W1 1h9 hK dA h9 W3 3cK cT dQ cK W1 1hK hJ cJ cQ W0 0sA sK sT s9 W0 0s9 sK sA sT W2 2cQ d9 dA dJ W2 2sJ dJ d9 cJ W1 1hA hQ hT dK W3 3hJ sQ sJ dT W0 0sQ dQ hQ dT W0 0cA hA hT cT W2 | re 3 72,42,83,43 won/re/1;no_90/re/1;Doppelkopf/re/1 -
6 103133 2 normal - crcr - - | 2cA !3:120 cA c9 cK W2 2sK sA s9 sA W3 3s9 sT cQ sK !1:90 W1 1hJ dK sQ dT W3 3dJ dQ hQ dJ W1 1sJ dA cQ dQ !3:60 W3 3hJ hQ sQ sJ W1 1h9 hA dA hA W3 3d9 c9 dT h9 W1 1dK hK hT cK W3 3cJ cT hT hK W1 1d9 sT cJ cT W3 | re 14 0,73,26,141 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_60_said/re/1;no_30/re/1;no_120_said/re/2;caught_fox/re/1;charlie/re/1 -
11 173513 2 solo_diamond 3 cccr 1 - | 3cA !3:120 c9 cK cT W3 3sA s9 sT s9 W3 3hJ dT sQ dT W1 1cA sA cQ c9 W3 3dQ hQ hJ dK W0 0hA h9 h9 dK W3 3cJ cQ dA dJ W1 1hA sJ cJ hT W0 0cK cT sK dQ W3 3hQ dJ dA d9 W1 1hK sK sQ sJ W3 3hT sT hK d9 W3 | re 2 37,59,0,144 won/re/1;no_120_said/re/2;solo/re/3 -
"""
"""party, seed, startplayer, game type, soloplayer, teams, swines, hyperswines | cards (the leader's with its seat), W winner, !seat:announcement, Mbride>partner, Gseat>partner (genscher), Sseat/Hseat (swines/hyperswines in the play) | winner, points, trick points, special points (name/counting team/value), bock triggers."""


REAL_SEQUENCE = """
97110:0:97110:0:poverty:1:0 97110:0:28962:1:poverty:1:0 97110:0:80805:2:normal:1:0 97110:0:54264:3:normal:1:0 97110:1:91640:0:marriage:1:0 97110:1:116228:1:normal:1:0 97110:1:112158:2:normal:1:0 97110:1:124395:3:solo_club:1:0 97110:1:122143:3:marriage:1:0 97110:2:6846:0:normal:1:0 97110:2:105908:1:normal:1:0 97110:2:89556:2:normal:1:0 97110:2:148759:3:normal:1:0 97110:3:162676:0:normal:1:0 97110:3:243821:1:normal:1:0 97110:3:93701:2:normal:1:0 97110:3:207460:3:normal:1:0 97110:4:21713:0:normal:1:0 97110:4:153274:1:normal:1:0 97110:4:160428:2:normal:1:0 97110:4:221977:3:normal:1:0 97110:5:17876:0:normal:1:0 97110:5:128438:1:marriage:1:0 97110:5:1204:2:normal:1:0 97110:5:108845:3:normal:1:0 97110:6:102659:0:normal:1:0 97110:6:27611:1:normal:1:0 97110:6:269342:2:normal:1:0 97110:6:154964:3:normal:1:0 97110:7:191788:0:normal:1:0 97110:7:108437:1:normal:1:0 97110:7:254051:2:normal:1:0 97110:7:199082:3:normal:1:0 97110:8:134499:0:poverty:1:0 97110:8:32265:1:marriage:1:0 97110:8:205019:2:marriage:1:0 97110:8:186712:3:normal:1:0 97110:9:131812:0:normal:1:0 97110:9:255622:1:normal:1:0 97110:9:274598:2:normal:1:0 97110:9:7570:3:marriage:1:0 97110:10:18335:0:marriage:1:0 97110:10:237963:1:normal:1:0 97110:10:127403:2:normal:1:0 97110:10:47962:3:normal:1:0 97110:11:141941:0:solo_spade:1:0 97110:11:52794:0:normal:1:0 97110:11:44492:1:normal:1:0 97110:11:231277:2:normal:1:0 97110:11:139117:3:normal:1:0 97110:12:112990:0:normal:1:0 97110:12:161360:1:normal:1:0 97110:12:73685:2:marriage:1:0 97110:12:259940:3:normal:1:0 97110:13:71571:0:marriage:1:0 97110:13:40223:1:poverty:1:0 97110:13:198694:2:normal:1:0 97110:13:80935:3:poverty:1:0 97110:14:255116:0:normal:1:0 97110:14:198974:1:normal:1:0 97110:14:9961:2:normal:1:0 97110:14:85885:3:marriage:1:0 97110:15:45866:0:normal:1:0 97110:15:129541:1:marriage:1:0 97110:15:77700:2:normal:1:0 97110:15:251650:3:solo_club:1:0 97110:15:234010:3:normal:1:0 97110:16:227916:0:normal:1:0 97110:16:217498:1:normal:1:0 97110:16:247721:2:normal:1:0 97110:16:144544:3:normal:1:0 97110:17:74602:0:solo_jack:1:0 97110:17:265365:0:normal:1:0 97110:17:165615:1:marriage:1:0 97110:17:124492:2:normal:1:0 97110:17:272130:3:normal:1:0 97110:18:239816:0:normal:1:0 97110:18:279354:1:marriage:1:0 97110:18:143701:2:normal:1:0 97110:18:206331:3:normal:1:0 97110:19:62030:0:normal:1:0 97110:19:205942:1:solo_king:1:0 97110:19:74682:1:poverty:1:0 11:0:11:0:normal:1:0 11:0:189371:1:normal:1:0 11:0:83457:2:normal:1:0 11:0:189580:3:normal:1:0 11:1:236363:0:poverty:1:0 11:1:13264:1:normal:1:0 11:1:178314:2:normal:1:0 11:1:169713:3:normal:1:0 11:2:217094:0:normal:1:0 11:2:134249:1:marriage:1:0 11:2:75646:2:normal:1:0 11:2:256588:3:marriage:1:0 11:3:113690:0:poverty:1:0 11:3:263766:1:normal:1:0 11:3:265101:2:marriage:1:0 11:3:16656:3:marriage:1:0 11:4:37909:0:marriage:1:0 11:4:69650:1:normal:1:0 11:4:193345:2:normal:1:0 11:4:271454:3:normal:1:0 11:5:227272:0:normal:1:0 11:5:44929:1:normal:1:0 11:5:49231:2:normal:1:0 11:5:66137:3:marriage:1:0 11:6:262282:0:normal:1:1 11:6:25613:1:normal:2:0 11:6:204117:2:marriage:2:0 11:6:30217:3:normal:2:0 11:7:92502:0:solo_club:1:0 11:7:125600:0:normal:1:0 11:7:223144:1:normal:1:0 11:7:259761:2:marriage:1:0 11:7:170913:3:normal:1:0 11:8:232738:0:normal:1:0 11:8:222527:1:marriage:1:0 11:8:238859:2:normal:1:0 11:8:124159:3:normal:1:0 11:9:214619:0:normal:1:0 11:9:32023:1:marriage:1:0 11:9:278354:2:normal:1:0 11:9:37384:3:solo_jack:1:0 11:9:132766:3:solo_heart:1:0 11:9:49783:3:marriage:1:0 11:10:174076:0:normal:1:0 11:10:112598:1:normal:1:0 11:10:123203:2:normal:1:0 11:10:273049:3:normal:1:0 11:11:112809:0:marriage:1:1 11:11:113293:1:marriage:2:0 11:11:265279:2:normal:2:0 11:11:263371:3:poverty:2:0 11:12:115367:0:normal:1:0 11:12:36570:1:normal:1:0 11:12:23277:2:normal:1:0 11:12:132620:3:normal:1:0 11:13:202725:0:normal:1:0 11:13:132553:1:poverty:1:0 11:13:31079:2:normal:1:0 11:13:101874:3:marriage:1:0 11:14:236586:0:solo_spade:1:1 11:14:78669:0:solo_spade:2:0 4242:0:4242:0:normal:1:0 4242:0:150316:1:normal:1:0 4242:0:138656:2:normal:1:0 4242:0:135897:3:marriage:1:0 4242:1:89668:0:normal:1:0 4242:1:241332:1:solo_heart:1:0 4242:1:272016:1:marriage:1:0 4242:1:273766:2:normal:1:0 4242:1:208907:3:normal:1:0 4242:2:192624:0:normal:1:0 4242:2:108469:1:normal:1:0 4242:2:94026:2:marriage:1:0 4242:2:235017:3:normal:1:0 4242:3:150562:0:poverty:1:0 4242:3:80298:1:normal:1:0 4242:3:44856:2:normal:1:0 4242:3:125702:3:marriage:1:0 4242:4:185296:0:normal:1:0 4242:4:146933:1:marriage:1:0 4242:4:53532:2:normal:1:0 4242:4:149259:3:marriage:1:0 4242:5:168718:0:normal:1:0 4242:5:59538:1:marriage:1:0 4242:5:110024:2:normal:1:0 4242:5:109634:3:normal:1:0 4242:6:188502:0:normal:1:0 4242:6:257756:1:normal:1:0 4242:6:9518:2:marriage:1:0 4242:6:36268:3:normal:1:0 4242:7:151798:0:normal:1:0 4242:7:230735:1:normal:1:0 4242:7:208541:2:marriage:1:0 4242:7:81513:3:marriage:1:0 4242:8:82159:0:normal:1:0 4242:8:226761:1:normal:1:0 4242:8:20544:2:solo_club:1:0 4242:8:43821:2:normal:1:0 4242:8:98217:3:marriage:1:0 4242:9:46192:0:normal:1:0 4242:9:90882:1:normal:1:0 4242:9:216417:2:poverty:1:0 4242:9:187921:3:normal:1:0 4242:10:152871:0:normal:1:0 4242:10:260581:1:normal:1:0 4242:10:162947:2:normal:1:0 4242:10:209109:3:normal:1:0 4242:11:249360:0:normal:1:0 4242:11:194828:1:normal:1:0 4242:11:17476:2:normal:1:0 4242:11:29943:3:normal:1:0 4242:12:46021:0:poverty:1:0 4242:12:220178:1:normal:1:0 4242:12:208035:2:normal:1:0 4242:12:5889:3:poverty:1:0 4242:13:230554:0:marriage:1:0 4242:13:160474:1:poverty:1:0 4242:13:254292:2:solo_heart:1:0 4242:13:191963:2:normal:1:0 4242:13:273959:3:normal:1:0 200001:0:200001:0:poverty:1:0 200001:0:7492:1:marriage:1:0 200001:0:27941:2:normal:1:0 200001:0:245660:3:poverty:1:0 200001:1:53312:0:normal:1:0 200001:1:236486:1:poverty:1:0 200001:1:263926:2:normal:1:0 200001:1:24658:3:normal:1:0 200001:2:196331:0:normal:1:0 200001:2:118224:1:marriage:1:0 200001:2:29974:2:poverty:1:0 200001:2:232053:3:normal:1:0 200001:3:246245:0:normal:1:0 200001:3:214851:1:normal:1:0 200001:3:61166:2:marriage:1:0 200001:3:49161:3:marriage:1:0 200001:4:223801:0:normal:1:0 200001:4:217846:1:solo_spade:1:0 200001:4:151515:1:solo_club:1:0 200001:4:220516:1:normal:1:0 200001:4:214307:2:normal:1:0 200001:4:263022:3:normal:1:0 200001:5:277789:0:normal:1:0 200001:5:230571:1:normal:1:0 200001:5:154166:2:normal:1:0 200001:5:142207:3:normal:1:0 200001:6:69321:0:normal:1:0 200001:6:150811:1:normal:1:0 200001:6:103133:2:normal:1:0 200001:6:263260:3:normal:1:0 200001:7:189477:0:marriage:1:0 200001:7:60586:1:normal:1:0 200001:7:116224:2:normal:1:0 200001:7:97181:3:normal:1:0 200001:8:221751:0:marriage:1:0 200001:8:151119:1:normal:1:0 200001:8:136998:2:marriage:1:0 200001:8:224353:3:normal:1:0 200001:9:239143:0:marriage:1:0 200001:9:68162:1:normal:1:0 200001:9:218721:2:marriage:1:0 200001:9:139602:3:normal:1:0 200001:10:190043:0:marriage:1:0 200001:10:81024:1:normal:1:0 200001:10:104692:2:normal:1:0 200001:10:14004:3:marriage:1:0 200001:11:182434:0:normal:1:0 200001:11:16468:1:normal:1:0 200001:11:173513:2:solo_diamond:1:0 200001:11:173353:2:normal:1:0 200001:11:133955:3:normal:1:0
"""
"""Every game of the real runs: run:party:seed:startplayer:game type:bock:whether 120-120."""


VARIANT_RULES = Rules.parse("""
genscher = true
hyperswines = true
dollen contrary in last trick = true
marriage determination = 3
throw with kings = true
extrapoint dolle jabs dolle = true
extrapoint heart trick = true
extrapoint catch fox last trick = true
bock after lost solo = true
bock after heart trick = true
""")

VARIANT_GAMES = """
0 777 0 marriage 1 crcr 1 - | 0sA sA s9 dT M1>3 W3 !1:120 3cA dK cT cA W0 0hJ cQ dJ dJ W1 1hA h9 hA d9 W0 0hJ sJ hQ cJ W2 2cK cT sQ cQ W1 1s9 sT dQ sK W3 3cK cJ hQ c9 W1 1dA dT hT sJ W1 1dK sQ hT dQ W3 3c9 sT dA hK W1 1d9 hK h9 sK W1 | re 4 58,104,9,69 won/re/1;no_90/re/1;no_120_said/re/2 -
0 119136 1 normal - crrc 1 - | 1hA dJ h9 h9 W2 2cA d9 cT cT W3 3sA sT sK sK W3 3s9 sQ cQ cK W1 1hK cQ hT hA W3 3sA dQ dT sQ W2 2c9 s9 cA dK W1 1d9 cJ dJ dK W2 2c9 hQ hK hT W1 1dQ hJ hQ dT W3 3sJ cJ dA sJ W1 1dA cK sT hJ W1 | re 1 0,86,48,106 won/re/1 -
0 86638 2 marriage 3 ccrr - - | 2cK cA c9 cT W3 3dA sQ dK hT M3>2 W2 2sT s9 dT sA W0 0hA hA hK dT W3 3c9 cK hQ cT W1 1sA s9 sK cA W1 1dJ dK hJ dQ W0 0h9 h9 sK cJ W3 3cJ hQ dJ sQ W2 2sJ cQ hT dA W0 0d9 dQ d9 cQ W3 3sT hJ hK sJ W2 | re 1 68,43,56,73 won/re/1 -
0 276757 3 normal - rcrc - - | 3cA c9 cK cT W3 3sA s9 s9 sK W3 3hA dT h9 h9 W0 0dJ hJ cQ hJ W2 2cA cK c9 dK W1 1hK hK hA dJ W0 0cJ d9 sJ sJ W0 0cQ d9 dA dT W0 0cT dQ sQ sK W2 2dK hQ hT hQ W0 0hT sT dQ dA W0 0sT sA cJ sQ W3 | re 2 126,19,29,66 won/re/1;no_90/re/1;caught_fox/re/1;caught_charlie/contra/1 -
1 4438 0 poverty 2 ccrr - - | 0hA hK h9 d9 W3 3cQ d9 hT s9 W1 1c9 cA dA cK W3 3sQ dK cQ c9 W1 1cT cT hQ sQ W0 0sA sK sK dK W3 3cJ dJ hQ hK W1 1hJ cK sJ dQ W0 0sT cJ sA dJ W1 1sJ sT hJ dQ W0 0s9 dT cA dA W3 3dT h9 hT hA W1 | contra 2 54,90,0,96 won/contra/1;contra_won/contra/1 -
1 44666 1 marriage 2 crrc - - | 1cA cK c9 cA M2>1 W1 1sT dT s9 s9 W2 2hA dA hA h9 W3 3dJ hT d9 dK W0 0h9 hK hK dJ W3 3cJ hT dK sJ W0 0sJ dA cQ hJ W2 2c9 cK dQ cT W0 0sK sT cQ sK W2 2cJ sQ d9 hJ W3 3sA sA hQ dT W1 1sQ hQ cT dQ W1 | re 1 51,80,59,50 won/re/1 -
1 113897 2 marriage 2 ccrr - - | 2cT cA c9 c9 M2>3 W3 3cK hJ cA cK W0 0sA sT dT sK W2 2cT sQ dA hT W1 1hA h9 hK hA W1 1dK cQ d9 hJ W2 2hK dQ h9 s9 W3 3s9 sK sA dJ W2 2dQ hQ sQ dA W0 0cJ dJ hT dT W2 2sJ d9 hQ cJ W0 0sT sJ cQ dK W2 | re 1 48,60,104,28 won/re/1 heart_trick
1 269263 3 solo_heart 1 crcc 2 - | 1sA s9 sK s9 W1 1dJ hK hJ hK W3 3cA cT c9 cT W3 3dA dT dJ dK W1 1dQ cQ hJ hQ W2 2cK sJ c9 h9 W3 3d9 d9 cJ dT W1 1sJ cJ dQ cA W3 3sT sK sQ hT W2 2h9 hQ cK hT W1 1sQ hA dA sA W2 2hA dK sT cQ W2 | contra 4 0,71,102,67 won/contra/1;no_90/contra/1;bock/no_team/2 solo_lost
1 69049 3 normal - ccrr - - | 3cA dA c9 c9 W0 0dK dJ cQ dT W2 2sA sT s9 s9 W2 2hK hA dK hK W0 0dQ hQ d9 cQ W3 3h9 dJ hA sJ W2 2cJ sQ sJ hJ W3 3h9 cJ hJ cK W0 0dQ sQ d9 hT W3 3sK sK sA dA W2 2cK cT hQ dT W0 0sT hT cA cT W1 | contra 12 80,41,85,34 won/contra/1;contra_won/contra/1;Doppelkopf/contra/1;bock/no_team/4 -
2 251739 0 poverty 3 crcr 1 - | 0sA sT sA s9 W0 0cK d9 cK cA W1 1dA dJ hA d9 W1 1dA sJ hA dK W1 1hT dT cA hT W0 0sT hQ s9 sK W1 1cQ dQ cT dJ W1 1cJ hQ c9 sJ W2 2sK cT dQ dK W0 0cJ hJ sQ c9 W2 2h9 hK hK dT W1 1hJ cQ h9 sQ W2 | re -1 94,124,22,0 won/re/1;Doppelkopf/contra/1;dolle_caught_dolle/contra/1 -
2 217447 1 normal - crcr 2 - | 1sA s9 sK dT W0 0cA c9 cA cK W0 0c9 cK dJ cT W2 2hK dT h9 h9 W3 3d9 d9 cQ dK W1 1dK hJ cQ dJ W3 3dQ sJ hJ sJ W3 3sT hQ s9 sA W0 0cJ cJ dA hQ W2 2sK sT hK hT W1 1sQ dQ hT hA W3 3sQ hA cT dA W2 | contra 2 75,35,69,61 won/contra/1;contra_won/contra/1 -
2 266645 2 normal - rccr - - | 2sA s9 s9 sK W2 2cA c9 dK cT W0 0h9 hA dT h9 W2 2sT sK sT sA W1 1cA c9 cT hJ W0 0cQ dK d9 dA W0 0sQ sJ dJ dJ W0 0hA hQ cK cQ W3 3d9 cJ dA hT W2 2hJ hT hQ dQ W3 3dQ hK dT sJ W3 3sQ hK cJ cK W3 | re 2 75,35,59,71 won/re/1;caught_charlie/re/1 -
2 200958 3 normal - crcr - - | 3hA dA h9 hA !0:120 W0 0cA cK cT dJ W3 3hJ dQ d9 dT W0 0sA s9 sA s9 W0 0c9 cT c9 hK W1 1cK cA cQ d9 W3 3sK sT sK dK W2 2dJ cJ dK dA W3 3hK sJ h9 dQ W2 2sJ hQ hJ hT W1 1sT sQ hT cJ W3 3hQ dT cQ sQ W1 | re 2 70,50,31,89 won/re/1;no_120_said/re/2 -
3 162687 0 normal - rccr - - | 0hA h9 h9 d9 W3 3cA cK cK c9 W3 3sA dT sA s9 W0 0dK cJ hQ cQ W3 3c9 cT cT cA W2 2sK s9 dJ hK W0 0hK hA dQ sQ W3 3dJ cQ dA sJ W0 0hJ dK sJ cJ W3 3hJ sQ dT dA W0 0d9 dQ sT hT W3 3sT hT hQ sK W0 | re 5 113,0,31,96 won/re/1;no_90/re/1;no_60/re/1;caught_fox/re/1;caught_fox/re/1 -
3 75127 1 normal - rrcc - - | 1cA !0:120 cT c9 cA W1 1dK d9 hQ d9 W3 3sA sK s9 sT W3 3hA dA hK h9 W0 0dQ cQ dA hT W3 3cT sQ cK h9 W0 0dT sQ hJ dK W1 1s9 sA sK sT W2 2sJ dJ hQ hJ W0 0dJ cJ dT c9 W1 1dQ sJ cK cQ W0 0hT cJ hA hK W0 | re 4 91,65,25,59 won/re/1;no_90/re/1;no_120_said/re/2 -
3 202249 2 normal - rccr - - | 2sA sK s9 sT W2 2hA h9 h9 hK W2 2hK hJ hA cJ W1 1cA cT c9 dT W0 0d9 dJ dJ cJ W3 3d9 cQ hT dA W1 1hJ sJ dA hQ W0 0s9 c9 sT dQ W3 3cQ dT dK dK W3 3dQ sQ cK sJ W0 0sK cK cT hQ W3 3hT sA cA sQ W3 | re 2 61,43,40,96 won/re/1;no_90/re/1 heart_trick
3 29336 3 solo_heart 1 crcc - - | 1cA !1:120 cK hA cA W3 3sA sT hA s9 W1 1dJ dQ hK h9 W2 2dA dT dA h9 W1 1hQ cQ hK cJ W2 2cK sJ cT c9 W3 3sT sA cQ s9 W1 1hJ dK dQ hT W0 0dT sJ d9 sQ W3 3dJ c9 hT dK W1 1cJ sK hJ d9 W1 1hQ sK sQ cT W3 | contra 4 19,112,21,88 won/contra/1;no_120_said/contra/2;bock/no_team/2 solo_lost
3 191926 3 normal - ccrr - - | 3cA c9 cK cT W3 3sA sK sT s9 W3 3cK c9 hJ sJ W2 2dJ cQ dK d9 W3 3s9 dJ sA sK W0 0hK dA h9 h9 W1 1dK dA hJ sJ W0 0cJ hQ cQ dT W2 2sT d9 cA dT W1 1cJ dQ hA sQ W0 0dQ hT hQ hK W1 1hT sQ hA cT W1 | contra 16 55,100,26,59 won/contra/1;no_90/contra/1;contra_won/contra/1;caught_fox/contra/1;bock/no_team/4 -
4 205382 0 genscher 1 rrcc 2 - | 0cA c9 cK cK W0 0sA sT s9 sA W0 0c9 cT dJ cT W2 2hJ d9 hQ cQ W1 1hA sT h9 d9 W0 0sK sQ hJ hK W1 1h9 cQ hA hT W0 0s9 dQ sJ hK W1 1cA dA dJ sK W2 2sJ dT hT G1>0 dK W0 0cJ dK dT hQ W3 3cJ sQ dQ dA W2 | re 2 122,30,69,19 won/re/1;no_90/re/1 -
4 216630 1 marriage 3 crcr - - | 1sA sA sT s9 M3>1 W1 !3:120 1cK c9 cA cT W3 3hA hA sT h9 !3:90 W3 3hJ dK d9 sJ W2 2hK cJ sQ c9 W0 0dJ d9 hJ dQ W3 3s9 sK dQ hQ W2 2hK cQ dJ dT W3 3dT sJ hQ sQ W2 2h9 hT cJ cK W3 3cQ cA dK dA W3 3dA sK hT cT W1 | re 9 9,67,36,128 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2;caught_fox/re/1 -
4 75963 2 normal - crcr 3 - | 2hA h9 dT h9 W0 0sA sA s9 sK W0 0cA cK c9 dT W3 3dK cJ cQ d9 W1 1hJ hQ cQ dK W3 3dA hQ sJ dJ W3 3dA sQ cJ sJ W3 3sQ c9 dQ hT W2 2sK dJ s9 cT W3 3hJ cK dQ hT W2 2sT d9 sT cA W3 3hK cT hK hA W2 | re 1 47,9,64,120 won/re/1 -
4 254191 3 normal - ccrr - - | 3cA dA c9 cK W0 0sA s9 sK sK W0 0s9 sT cQ cT W2 2hA cT h9 h9 W2 2dQ cQ d9 sJ W3 3dK dK dQ sQ W2 2cJ d9 dJ cJ W2 2hJ sJ dJ hT W1 1c9 cA cK hJ W0 0hK sT dT hQ W3 3hQ hA dT dA W3 3sQ hK sA hT W2 | re 2 62,16,92,70 won/re/1;no_90/re/1 -
5 163595 0 normal - rrcc - - | 0d9 !1:120 hQ sQ dA W2 2sA sK s9 sK W2 2cK cA c9 dK W1 1hA h9 hA dA W0 0s9 sA sT dT W3 3cK cQ dK c9 W0 0dQ sQ dJ hJ W1 1sJ sJ hQ dJ W3 3cA dQ cQ hK W1 1h9 hK hT hJ W3 3cT cJ d9 sT W0 0dT hT cJ cT W1 | re 3 66,82,36,56 won/re/1;no_120_said/re/2;caught_charlie/re/1 -
5 116814 1 normal - rrcc - - | !1:120 1sA s9 sK sA W1 1d9 dJ hQ cQ W0 0cA dT cK c9 W1 1dJ d9 cJ !0:90 sQ W0 0hA hK h9 h9 W0 0dA cQ hJ dK W1 1hK dQ hA hT W0 0cJ dQ sT dT W1 1hJ cK sJ hT W0 0dK sJ cT dA W1 1hQ cA c9 sK W1 1sQ sT cT s9 W1 | re 13 76,164,0,0 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_30/re/1;no_0/re/1;no_120_said/re/2;caught_fox/re/1 heart_trick
5 207481 2 normal - rccr - - | 2cA c9 cT cK W2 2c9 cK cQ cA W0 0sA s9 dA s9 W2 2hK h9 hA h9 W0 0d9 dK dQ cQ W3 3cT sQ sK dK W0 0hA hK dQ hT W3 3d9 hT hJ dJ W0 0hJ hQ dJ dA W1 1sJ sJ sT hQ W0 0sT sQ dT sK W1 1cJ cJ sA dT W1 | re -2 85,70,47,38 won/re/1;caught_fox/contra/1;charlie/contra/1;bock/no_team/2 heart_trick
5 30382 3 normal - rcrc 3 0 | 3sA sT sK s9 W3 3cA c9 c9 cK W3 3hA h9 h9 hK W3 3cK cQ cT cT W0 0dK cJ dJ dQ W3 3dQ sQ dK dT W0 0d9 hJ dJ hJ W0 0d9 hQ cJ sQ W0 0sJ hQ cQ dA W3 3hK hT hT s9 W1 1cA sK hA dT W0 0sJ sA sT dA W3 | contra 12 97,24,0,119 won/contra/1;contra_won/contra/1;dolle_caught_dolle/contra/1;bock/no_team/4 heart_trick
6 80661 0 normal - crcr - - | !1:120 0hA dT h9 hA W1 1cA cK cT c9 W1 1dK d9 cQ d9 W3 3sA s9 s9 sK W3 3h9 hK hJ hK W1 1dK dA hQ hT W0 0cJ sJ dJ dJ W0 0c9 sJ cA cK W1 1cQ hT hJ dT W2 2sQ dA dQ cJ W2 2sK sT dQ hQ W1 1sQ sT sA cT W1 | re 3 36,138,44,22 won/re/1;no_90/re/1;no_120_said/re/2;caught_fox/contra/1 -
6 74774 1 normal - rccr - - | 1cA c9 cK dA W0 0sA sT s9 s9 W0 0dJ d9 hQ cJ W2 2hA dT hK h9 W3 3dK cQ hJ d9 W0 0dJ sJ dQ cQ W3 3cT sQ c9 cA W0 0hJ sQ dT hT W3 3cT hQ cK hT W2 2h9 cJ sK hA W3 3dK sJ dQ sA W1 1dA hK sT sK W1 | re 1 80,49,34,77 won/re/1;no_90/re/1;fox_last_trick/contra/1 -
6 69853 2 normal - ccrr - - | 2cA c9 cA dK W1 !1:120 1sA s9 sK sT W1 1hA hA hK h9 W1 1sK sJ sA s9 W2 2dQ cQ dA hT W1 1sT cQ hK h9 W2 2sQ d9 dK d9 W2 2c9 cK dT dJ W1 1hJ hT dA sJ W2 2cK cT hQ sQ W1 1dQ dT dJ cJ W1 1hQ cT hJ cJ W1 | contra 5 0,174,66,0 won/contra/1;no_90/contra/1;no_120_said/contra/2;contra_won/contra/1 heart_trick
6 35930 3 marriage 2 ccrr - - | 3cA c9 cT cK M2>3 W3 3hA dA h9 hA W0 0sA sT s9 sK W0 0cK hJ c9 cT W1 1h9 cQ hK sJ W2 2dJ hJ dT sJ W1 1s9 cJ sT dQ W0 0cA hT d9 hK W1 1sK sQ dK d9 W2 2dJ hQ cJ hQ W3 3dQ dT hT dA W1 1sA cQ sQ dK W2 | contra 8 73,91,41,35 won/contra/1;no_90/contra/1;contra_won/contra/1;caught_fox/contra/1;bock/no_team/2 -
7 145526 0 normal - crrc - - | 0sA sK s9 sT !0:120 W0 0s9 dJ sK sT W1 1cA cT c9 cT W1 1d9 cQ dJ d9 W2 2hA h9 dK hK W0 0hJ dK hQ cJ W2 2h9 hK sJ cJ W1 1c9 cA cK sJ W0 0hQ cQ dT dQ W1 1cK sA hA sQ W0 0sQ dA hT dQ W2 2dT dA hT hJ W0 | contra 3 123,74,43,0 won/contra/1;no_120_said/contra/2;contra_won/contra/1 -
7 253443 1 normal - rccr - - | 1s9 sK s9 sA W0 0hA h9 hA hK W0 0h9 hJ dQ cK W2 2c9 cA dT c9 W0 0hK hJ dQ cQ W3 3dK cQ d9 d9 W0 0sK sJ cT sT W1 1cJ hQ dA dJ W2 2dK sQ sJ hQ W3 3dJ cJ dA dT W0 0sT cT cK cA W0 0sA hT hT sQ W1 | re 2 129,60,27,24 won/re/1;no_90/re/1;caught_fox/contra/1;caught_fox/re/1 heart_trick
7 161306 2 normal - crcr - - | 2sA !1:120 sA s9 sT !2:120 W2 2hA h9 hA dT W1 1cA c9 cT cT W1 1dK dQ d9 dA W2 2hK hJ hK c9 W3 3cQ dK d9 cJ W3 3cK dJ cQ h9 W1 1dJ dA sQ hJ W3 3sJ cJ dQ hT W2 2s9 cK sT hQ W1 1hT dT sJ sQ W1 1hQ sK cA sK W1 | re 18 0,136,67,37 won/re/1;no_90/re/1;no_120_said/re/2;no_120_said/re/2;caught_fox/re/1;bock/no_team/2 -
7 11416 3 solo_spade 1 crcc 1 - | 1hA !1:120 h9 sT hK W3 3cA cT sT c9 W1 1cJ sK dQ sK W3 3dA d9 dT dT W3 3dA hJ cQ h9 W1 1dQ hQ s9 dJ W2 2hA sJ hK hQ W1 1sJ cJ cT cQ W0 0cK sA cA c9 W1 1sQ sQ dK s9 W1 1sA dJ d9 hT W1 1hT hJ dK cK W1 | re 4 17,146,8,69 won/re/1;no_120_said/re/2;solo/re/3;bock/no_team/2 -
7 6909 3 poverty 0 rcrc - - | 3sA !2:120 s9 sK d9 W2 2dJ dA h9 hJ W1 1hA dK h9 hA !2:90 W2 2hJ dT s9 cJ W1 1c9 cJ dQ c9 W3 3sT sK dQ hQ !2:60 W2 2hQ d9 cK sQ W1 1cT sQ sJ cA W2 2cQ sJ cA hT W1 1cT hT hK cK W2 2dA dT hK dJ W1 1dK cQ sT sA W2 | contra 20 0,92,143,5 won/contra/1;no_90_said/contra/1;no_60_said/contra/1;got_90_against_no_60/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1;bock/no_team/2 -
8 131915 0 poverty 1 crcr - - | 0sA sT sA d9 W3 3cQ hT h9 dK W0 0cA cK cK d9 W3 3sQ dK hA cQ W2 2s9 hQ sK sK W3 3sQ dJ hA hT W2 2sT cJ dQ c9 W0 0hJ cT sJ cJ W3 3sJ dA c9 dQ W2 2s9 dJ dT cA W3 3dA hQ hK hK W0 0dT cT h9 hJ W3 | re 0 54,0,63,123 won/re/1;caught_fox/contra/1 -
8 151558 1 normal - crcr - - | 1hA h9 hA h9 W1 1d9 hQ cQ dJ W3 3cA c9 cT cA W3 3hJ sQ dJ dA W0 0sA s9 sT sK W0 0cK cT dT c9 W2 2s9 sJ sT sK W3 3cJ hJ cQ d9 W1 1sJ hT dT cJ W2 2sA hQ hT dQ W0 0hK sQ dK cK W1 1dA dK dQ hK W3 | re 1 70,44,48,78 won/re/1 heart_trick
8 171638 2 marriage 1 crcr - - | 2cA d9 cK cA M1>3 W3 3sA s9 sT s9 W3 3hA hA hK hK W3 3dJ hT dJ dA W0 0sA sK cT sK W0 0cK hJ c9 sT W1 1dQ hQ d9 dA W2 2cJ sJ hJ hQ W1 1h9 dQ h9 cT W2 2c9 sQ dK dT W3 3cJ dT cQ sQ W1 1cQ dK sJ hT W0 | re 2 73,43,30,94 won/re/1;bock/no_team/2 heart_trick
8 78949 3 poverty 3 crcr - - | !1:120 3sT s9 dJ s9 W1 1dJ dK d9 cJ W0 0sA sQ sK hA !1:90 W1 1hJ dA h9 dQ W0 0sA sQ cQ c9 W2 2c9 cT cA sJ !1:60 W1 1hQ hT h9 dT !0:R W2 2cT cK cA dA W1 1hQ hJ cK d9 W1 1cQ sJ hA dK W1 1dT cJ hK sT W2 2dQ hK sK hT W1 | contra 68 24,150,66,0 won/contra/1;no_90_said/contra/1;no_60_said/contra/1;got_90_against_no_60/contra/1;no_120_said/contra/2;no_120_said/contra/2;contra_won/contra/1;bock/no_team/4 -
9 100961 0 solo_club 2 ccrc - - | 2sA !2:120 s9 s9 sK W2 2dK dA dA dT W3 3h9 h9 hJ c9 W1 1sA cQ sK d9 W2 2dQ cA hQ cT W0 0hA cJ cQ dJ W2 2hT cK c9 cK W2 2hT sJ hJ sJ W2 2dQ cT sQ sT W0 0hK d9 cA cJ W3 3dT hK dK hQ W2 2dJ sQ hA sT W3 | contra 2 53,2,106,79 won/contra/1;no_120_said/contra/2 solo_lost
9 246138 0 normal - crcr - - | 0hA hK hA h9 W0 0sT sA s9 sK W1 1s9 sK sA dT W0 0cK c9 cA cT W2 2sT cQ c9 dA W3 3dK dJ cQ hT W2 2cK cT sJ cJ W1 1hJ dA sQ hT W0 0hK hJ dQ hQ W3 3d9 dJ d9 dQ W2 2cA sQ h9 dT W3 3cJ sJ dK hQ W2 | contra 6 77,43,60,60 won/contra/1;contra_won/contra/1;caught_charlie/contra/1;bock/no_team/2 heart_trick
9 124654 1 normal - rcrc 3 - | 1hA cJ h9 h9 W2 2sA s9 sA s9 W2 2cA cA cK c9 W2 2sK sT cQ sK W0 0cK hQ c9 sQ W3 3dJ d9 hJ cQ W2 2hQ dT dJ d9 W2 2cT dA sJ dT W3 3hK hA hJ sQ W2 2cT dQ cJ dK W3 3sT hK sJ hT W2 2hT dA dQ dK W3 | re 4 21,0,129,90 won/re/1;bock/no_team/4 -
9 159386 2 marriage 0 rrcc 3 - | 2sA s9 sT dJ M0>1 W1 1cA cK dT c9 W3 3dK sQ cJ d9 W0 0sA cT sK sK W0 0s9 h9 hA sT W3 3dK cQ dQ hJ W0 0h9 dQ hA hT W3 3dJ cQ hT sJ W1 1c9 hK hJ cT W3 3dT cJ hQ sJ W1 1cK hK dA cA W3 3dA d9 sQ hQ W3 | contra 8 50,57,0,133 won/contra/1;contra_won/contra/1;bock/no_team/4 -
9 89537 3 normal - crcr 1 - | 3sA sK s9 sT W3 3hA h9 hA dT W2 2cA cK dT cT W0 0sT dA sA s9 W1 1d9 dJ cQ dK W3 3sJ dQ d9 hJ W0 0h9 cJ dQ hK W2 2hJ sQ dJ cJ W3 3cK hQ cA c9 W0 0sJ dA hQ sQ W1 1cQ dK sK hT W0 0hK hT c9 cT W1 | contra 8 81,75,41,43 won/contra/1;contra_won/contra/1;bock/no_team/4 -
10 7658 0 normal - rcrc - - | 0hA h9 hK h9 W0 0d9 d9 cQ dK W2 2cA c9 cT c9 W2 2sA sT sT s9 W2 2dK dT cQ dT W0 0dJ dQ sQ dJ W2 2hJ sJ hQ hQ W0 0sQ sK sJ hJ W0 0cJ cK dQ hT W3 3cK hT cT hK W0 0dA hA s9 dA W0 0cJ sA sK cA W0 | re 6 152,0,69,19 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;caught_fox/re/1;charlie/re/1 heart_trick
10 67988 1 marriage 2 ccrr - - | 1sK sT sA sK M2>3 W3 3hA hK h9 !2:120 cT W3 3hA hQ h9 cQ W2 2hJ hQ sJ d9 W3 3hK cJ dQ cQ W2 2s9 s9 sT dT W1 1c9 dA cK c9 W2 2cJ hT dT dK W3 3dJ dQ sQ d9 W1 1dJ hT hJ cT W2 2dK sJ cA sQ W1 1cK sA dA cA W3 | re 14 0,48,68,124 won/re/1;no_90/re/1;no_60/re/1;no_120_said/re/2;fox_last_trick/re/1;bock/no_team/2 -
10 266824 2 normal - rcrc - - | 2d9 dK cQ dK W0 0hA dA h9 hA W1 1cA c9 cT cT W1 1sT sT sA sK W3 3h9 hK hQ d9 W1 1s9 cJ s9 sK W2 2cK cA dQ c9 W0 0hK sQ cJ sA W1 1cK cQ dJ dA W2 2dQ hJ dJ hT W1 1sQ dT sJ hJ W1 1hT hQ sJ dT W1 | contra 8 29,150,26,35 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;bock/no_team/2 -
10 101616 3 marriage 3 ccrr 2 - | 3dT sQ d9 hT M3>2 W2 !2:120 2cA cK c9 cA W2 2hA h9 hK h9 W2 2s9 sK sA sA W0 0cT dQ hQ c9 W2 2d9 hQ hJ dJ W3 3sK sT s9 dK W2 2dK sQ sJ hJ W3 3cQ cJ cJ sJ W3 3dJ cK dT dQ W2 2dA cQ cT hA W2 2dA hT sT hK W2 | re 16 26,0,187,27 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;no_120_said/re/2;bock/no_team/2 heart_trick
11 250013 0 normal - crrc - - | 0cA cK c9 cT !0:120 W0 0sA s9 sA s9 W0 0c9 cK sJ dQ !3:90 W3 3hJ sQ cQ dA W1 1hA h9 dA cT W3 3hQ hT d9 cJ W0 0dJ sQ cQ dK W2 2hA sJ sT cJ W1 1sT dQ dK sK W2 2h9 hJ d9 sK W3 3dT hQ dJ hK W0 0hT cA hK dT W0 | contra 7 116,44,33,47 won/contra/1;no_90/contra/1;no_90_said/contra/1;no_120_said/contra/2;contra_won/contra/1 -
11 24937 1 marriage 0 rccr - - | 1cA c9 dA cT M0>3 W3 !3:120 3sA sT sK dA W2 2hJ dK cQ d9 W0 0hA hK h9 h9 W0 0c9 cK cK dJ W3 3dJ hQ hT d9 W1 1sA cA sT s9 W1 1sK dQ sQ s9 W3 3hJ cQ dT hT W2 2sJ sJ dT dQ W1 1cT cJ sQ hK W3 3cJ dK hA hQ W2 | contra 4 24,64,81,71 won/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_charlie/contra/1 heart_trick
11 72986 2 normal - rcrc - - | 2hA hK dA h9 W0 0cA c9 cT c9 W0 0dK dJ cQ sJ W2 2d9 dT cQ dK W0 0hJ sJ sQ hT W3 3sA s9 sT dT W2 2h9 hA hQ hK W0 0sT s9 sQ sA W2 2dJ dA hJ dQ W1 1sK hT cK sK W2 2d9 cK cJ dQ W1 1hQ cT cA cJ W1 | re 2 82,53,88,17 won/re/1;no_90/re/1;caught_charlie/contra/1;bock/no_team/2 -
11 169864 3 marriage 3 ccrr 3 - | 3sA sT s9 dT M3>2 W2 !2:120 2cA cK cK cT W2 2hA s9 h9 hK W2 2hK !3:90 sQ h9 hA W3 3dJ dJ hQ dK W1 1sK c9 sJ sA !3:60 W3 3hJ hQ hJ sQ W2 2cT dA cA sK W3 3d9 dQ cJ sJ W0 0d9 dQ dK cQ W3 3cQ dT cJ hT W2 2c9 dA hT sT W3 | re 24 7,11,110,112 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_60_said/re/1;no_30/re/1;no_120_said/re/2;bock/no_team/2 -
12 12913 0 normal - crcr - - | 0cA c9 dA cT !2:120 W2 2s9 sA dT s9 W0 0cA cK sQ cQ W3 3hA h9 hA d9 W2 2sK sK hQ cQ W1 1cK dJ hJ c9 W3 3h9 dJ hK sT W0 0sJ dA hT dK W2 2hJ sQ sJ dT W3 3sT cT dQ d9 W1 1cJ hQ dK cJ W2 2hT sA dQ hK W2 | contra 6 37,37,120,46 won/contra/1;no_90/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1 -
12 225112 1 poverty 0 rcrc - - | !2:120 1s9 dJ sT sA W2 2hT dK hA d9 W2 2hT hJ sA d9 W2 2hQ sQ c9 dK W3 3hA hK hK dJ W2 2hQ cQ s9 hJ W3 3cA cK cT dA W2 2dQ dA h9 sQ W1 1sK cJ h9 sT W2 2sJ dT sK dQ W1 1sJ cJ c9 cA W2 2dT cK cT cQ W1 | re 4 0,63,159,18 won/re/1;no_90/re/1;no_120_said/re/2 -
12 72738 2 normal - crcr - - | !2:120 2sA s9 sT sK W2 2cA c9 cK cK W2 2dJ cQ dK dT W3 3sA hJ cQ hT W2 2sQ dA sJ d9 W2 2hT cJ dA d9 W2 2sJ hQ sQ cJ W0 0hA hA cT s9 W0 0dQ h9 dK sK W0 0c9 h9 dT cT W2 2dJ sT dQ hK W0 0hQ hK hJ cA W0 | contra 10 92,0,129,19 won/contra/1;no_90/contra/1;no_60/contra/1;no_30/contra/1;no_120_said/contra/2;contra_won/contra/1;caught_fox/contra/1 -
12 2267 3 normal - crcr - - | 3cA c9 cT !1:120 c9 W3 3dK dJ hT d9 W1 1sA sK s9 s9 !1:90 W1 1hA dA h9 h9 W2 2cK cT cK dA W1 1cJ hJ dJ d9 W1 1dQ hJ cJ dK W1 1hQ dT cQ sJ W3 3sQ sJ cQ dQ W1 1sQ sK hQ dT W1 1hT cA hK sT W1 1sT sA hK hA W2 | re 8 0,143,58,39 won/re/1;no_90/re/1;no_90_said/re/1;no_60/re/1;no_120_said/re/2 -
"""


VARIANT2_RULES = Rules.parse("""
with nines = false
dollen second over first = false
swines announcement begin = false
hyperswines = true
hyperswines announcement begin = false
marriage before poverty = true
marriage determination = 4
marriage first one decides = true
throwing before solo = true
throw with richness = true
solo always counts triple = true
announcement re/contra doubles = false
extrapoint heart trick = true
""")

VARIANT2_GAMES = """
0 4711 0 solo_heart 2 ccrc - - | 2sJ cJ dJ hK W3 3sA sA sT hK W2 S2 2hA cQ dJ sJ W2 2hT sK hJ hQ W2 2dQ dA sQ hQ W0 0cA cT cJ cK W2 2hT sK hJ sQ W2 2dK dA dT dK W3 3cK cA cQ hA W2 2dQ cT dT sT W2 | re 3 20,0,181,39 won/re/1;no_90/re/1;no_60/re/1;solo/re/3 -
0 157363 0 marriage 3 rccr - - | 0sA sK sK sT M3>0 W0 0cA cT cA cT W0 0hA hA hK hK W0 0cK sJ sT cK W1 1dJ cJ dA dQ W0 0hQ hT dT dJ W1 1hJ sJ cJ dT W3 3cQ hQ dQ hJ W3 3cQ sQ dA dK W3 3hT sQ dK sA W3 | re 6 119,45,0,76 won/re/1;no_90/re/1;no_60/re/1;Doppelkopf/re/1;heart_trick/re/1;caught_fox/re/1 -
0 9451 1 marriage 2 crrc - - | 1hT dT hJ dJ M2>1 W1 1cT cK cA cA W3 3sT sA sK sA W0 0hA dK hK hK W1 1sT sQ sK hT W0 0cK cJ cQ cT W2 2hJ sQ dA dK W3 3hA hQ dJ cQ W2 2dT dA cJ dQ W1 1sJ hQ dQ sJ W2 | re 2 63,73,48,56 won/re/1;caught_fox/re/1 -
0 50324 2 normal - crcr - - | 2cA cT cK cT W2 2sA dA sT sK W3 3dJ dJ cQ dK W1 1sJ hT hJ dK W2 2hA hK hK dA W1 1cJ sJ cQ dQ W3 3sQ sQ dT dT W3 3hJ cK cJ dQ W2 2hQ hQ cA sT W2 2sK hT hA sA W3 | re 1 0,41,91,108 won/re/1 -
0 170868 3 solo_spade 1 crcc - - | 1cA cA cK cK W1 1dJ sT sK hJ W0 0dA sT dK dT W1 1sJ sK dQ dJ W3 3cT cT cJ cQ W2 2hA hK hA hQ W1 1sQ sJ hJ hT W0 0dK S1 sA dT dA W1 1sA cJ sQ dQ W1 1cQ hK hT hQ W3 | re 1 35,149,25,31 won/re/1;solo/re/3 -
0 134207 3 normal - rrcc - - | 3sA sT sK sT W3 3cK cA dA cK W1 1cJ dJ dQ dJ W3 3cT cA cQ cT W1 1cJ hQ dK cQ W0 0hJ dQ dA hT W3 3hJ sQ dT dK W0 0hK hQ hK sJ W1 1sQ dT hT sA W3 3sJ hA sK hA W3 | contra 2 31,77,0,132 won/contra/1;contra_won/contra/1 -
1 5157 0 normal - rrcc - - | 0sA sT sK sA W0 0dK dJ dQ sQ W3 3hA hK hK dT W2 2cA dT cT cT W3 3dK cQ hJ hT W2 2sK hT sT cJ W3 3sJ hQ cQ dJ W1 1hA cK S3 dA sJ W3 3cJ hQ dQ hJ W0 0sQ cA cK dA W3 | contra 5 46,10,48,136 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;Doppelkopf/contra/1 -
1 8332 1 poverty 1 rrcc - - | 1sT sK sA hJ W0 S0 0dA dJ hJ H3 dK W3 3hA cJ hK hA W0 0dQ sK sJ hQ W3 3cK dT cA cA W0 0sQ sT hT dJ W2 2sA sJ sQ cT W0 0dT hK dQ hT W3 3cQ dA cT cJ W0 0cQ cK hQ dK W3 | re 1 143,0,25,72 won/re/1 -
1 212964 2 normal - crcr - - | 2sA sK sT dT W1 1cA cK cK cT W1 1hA hA hJ hK W3 3sJ cJ cQ dJ W1 1dK sQ cJ dJ W2 2cT cA hJ hQ W1 1dK sQ cQ dT W3 3sA hK hT sK W1 1hQ dA dQ sJ W1 1hT sT dQ dA W1 | re 6 0,181,11,48 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;caught_fox/re/1;caught_fox/re/1 -
1 177592 3 marriage_solo 0 rccc - - | 3sA dA sK sT M0>0 W0 0cA cK cA dT W3 3sK sJ sA cJ W2 2hA hK dQ hA W0 0cT cT dA sT W2 2hK hJ hT dK W0 0cK cJ dJ dK W1 1sQ hJ dJ cQ W0 0dT hQ sJ hQ W1 1hT dQ sQ cQ W1 | contra 1 95,49,60,36 won/contra/1;solo/contra/3 -
2 268676 0 normal - ccrr - - | 0cA cK dJ cK W2 2hA hK dT hK W0 0sA sK sT sA W0 0cT cT S2 dA cA W2 2hJ cQ dK dK W3 3sJ cJ dJ dQ W2 2cQ dQ sJ hT W1 1hJ dA dT cJ W2 2hQ sQ sK sQ W3 3hT sT hA hQ W3 | re 3 65,18,97,60 won/re/1;no_90/re/1;Doppelkopf/re/1 -
2 248374 1 normal - ccrr - - | 1cA cT cK cA W1 1cK dJ cQ hK W3 3sA sT dT sK W1 1cT hT sK hJ W2 2sA sJ dT cJ W1 1dJ dA dQ hQ W0 0hJ dQ cQ dA W2 2sJ dK sQ hQ W0 0hT hA sQ dK W0 0cJ hK sT hA W0 | contra 6 86,96,45,13 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;caught_fox/contra/1;charlie/contra/1 -
2 1010 2 marriage 2 rcrc - - | 2hA hK dT hK M2>0 W0 0cA cA cT dA W3 3sA sK hA dA W2 2cK hJ cK dT W3 3sT sT hT hQ W1 1dJ sQ hJ dK W2 2sQ sJ dJ dK W2 2cQ cJ cJ sJ W2 2cQ hQ sA dQ W2 2hT sK cT dQ W2 | re 0 29,33,115,63 won/re/1;Doppelkopf/contra/1 -
2 275473 3 normal - rrcc - - | 3cA cK dT cT W1 1dK dK hJ cJ W0 0sA sK sT dA W3 3cK cT cQ cA W1 1hJ dJ sJ cQ W0 0dJ hT sJ dT W1 1sK sA sQ hK W3 3hT hQ cJ dQ W3 3hK hA sT dA W2 2sQ hA hQ dQ W2 | contra 2 21,87,56,76 won/contra/1;contra_won/contra/1 -
3 233959 0 normal - crrc - - | 0sK sT dA sK W2 2dK dK hJ sJ W1 1cA cT cT cK W1 1dJ cQ cJ cJ W2 2hT dQ dT dA W2 2hQ sQ hT sQ W0 0sA cQ dJ hK W1 1hK hQ hA cK W2 2hJ dT sT cA W2 2sJ dQ sA hA W3 | re 3 19,67,127,27 won/re/1;no_90/re/1;no_60/re/1 -
3 273912 1 poverty 1 rrcc - - | 1cA cK cT dT W0 0hT dK dK sJ W0 0sQ dJ cQ dA W2 2cA cT hJ hA W0 0sQ sK dA cQ W3 3sA hJ sT sK W0 0dQ hK dT hQ W3 3dQ sJ hK dJ W3 3hQ cJ sA sT W3 3hT cJ hA cK W3 | contra 3 116,0,19,105 won/contra/1;contra_won/contra/1;caught_charlie/contra/1 -
3 55965 2 normal - rccr - - | 2cA cT cA cK W2 2cK dJ hJ cT W0 0hA hK dT hK W2 2hJ cQ dK dK W3 3sA sT sK cJ W2 2dQ hQ sJ dJ W3 3sJ cQ dA hT W2 2sQ dT hT cJ W0 0sK sA dQ hQ W3 3dA sT hA sQ W2 | contra 4 43,0,153,44 won/contra/1;no_90/contra/1;contra_won/contra/1;caught_fox/contra/1 -
3 234147 3 normal - rccr - - | 3cA cT cT cK W3 3dK hJ hQ sJ W1 1hA hK hK hA W1 1dJ cJ dQ cQ W0 0hJ dJ sQ sJ W2 2sA sT sK dT W1 1hT dT cQ dQ W1 1dK dA dA hT W0 0sT sQ sA cK W1 1cJ sK hQ cA W3 | contra 1 46,130,9,55 won/contra/1;contra_won/contra/1;heart_trick/contra/1;caught_fox/re/1;caught_charlie/re/1 -
4 111236 0 normal - rcrc - - | 0cA dA cT cK W1 1sA hJ sT sK W2 2hJ sJ cQ dK W0 0dK dJ cQ dJ W2 2sQ hQ dT sJ W2 2hA hK cA hA W2 2hK hQ cJ sT W3 3cK cT dQ cJ W1 1sQ hT dA dT W2 2hT sA dQ sK W2 | re 3 11,55,155,19 won/re/1;no_90/re/1;caught_fox/re/1 -
4 170209 1 normal - rrcc - - | 1cA cT cK cT W1 1hA hA hK dA W0 0sA sK sT sK W0 0dJ cQ dJ dK W1 1hJ sQ hT cJ W3 3hJ cQ dQ hT W2 2cJ dK hQ dQ W0 0sT hQ sJ dT W1 1hK sJ dT sA W2 2cA dA sQ cK W0 | re 3 107,71,45,17 won/re/1;no_90/re/1;caught_fox/re/1 -
4 184702 2 normal - ccrr - - | 2cA cK cK cT W2 2dK dQ hQ sQ W1 1hA hK hA hK W1 1sK sK sA sT W3 3sT sA hT dJ W1 1cA cQ dT cT W2 2hJ cQ dA dJ W3 3hQ dK hJ sJ W3 3sQ cJ cJ sJ W3 3hT dT dA dQ W3 | re 3 0,76,63,101 won/re/1;no_90/re/1;heart_trick/contra/1;caught_fox/re/1;caught_fox/re/1 -
4 21656 3 normal - crcr - - | 3sA sK dK sK W1 1cA cK cK dT W0 0hK hA dA hK W2 2cT cA sQ cT W0 0hA cQ hJ dA W1 1dJ sQ hJ dK W2 2sT cQ sJ dJ W3 3cJ hQ hT hQ W1 1sJ sT cJ dQ W0 0dQ hT sA dT W1 | contra 2 80,102,41,17 won/contra/1;contra_won/contra/1 -
5 157634 0 normal - rcrc - - | 0sA sK dT sK W2 2cA cK sJ cT W0 0cJ dJ cQ dK W2 2hA dA hK hA W3 3sT sA sT dT W2 2dK sQ cQ dJ W0 0hK hJ cJ hT W3 3sJ sQ hQ hQ W0 0dQ dA hJ hT W3 3cA dQ cT cK W0 | re 3 78,0,81,81 won/re/1;no_90/re/1;Doppelkopf/re/1 -
5 81101 1 solo_heart 1 crcc - - | 1dA dK dK dT W1 1hT hJ dJ hK W1 1sQ sJ hA dJ W1 1cJ dQ hJ hQ W0 0cA hA cT cA W1 1dQ hQ sQ sJ W3 3dA hT hK cT W0 0sK cQ sT sK W1 1cJ sA sT cK W1 1cQ sA dT cK W1 | re 3 45,184,0,11 won/re/1;no_90/re/1;no_60/re/1;solo/re/3 -
5 43198 1 marriage 2 ccrr - - | 1cA cT dJ cK M2>3 W3 3hJ sJ sQ cQ W2 2sA sK dT sT W0 0cA hQ sQ sK W2 2hA hK dK hA W0 0cT dQ sT hQ W3 3cJ hJ dK dT W3 S3 3dA dQ sJ dJ W3 3dA hT hK cJ W3 3hT cK sA cQ W3 | re 2 65,0,31,144 won/re/1;no_90/re/1 -
5 114158 2 normal - rcrc - - | 2cA sJ cT cK W3 3hA hA hK dA W2 2cJ hT dK dK W3 3hK dJ sK dQ W2 2cK sJ cQ cA W0 0sA dA sK sT W1 1dJ hQ sQ hJ W3 3sT sA cJ cQ W2 2cT hT sQ dT W3 3dQ dT hJ hQ W2 | contra 2 20,36,94,90 won/contra/1;contra_won/contra/1 -
5 5809 3 normal - rrcc - - | 3cA dA cK cK W0 0hA hK sJ hK W2 2sA sK dT sK W0 0dK cQ sJ dJ W1 1dJ sQ hJ cQ W0 0hT dT dQ hJ W0 0hT cJ dQ hQ W0 0dK sQ sT dA W1 1cA cT cT hQ W0 0cJ hA sA sT W0 | re 6 180,39,21,0 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;caught_fox/re/1;charlie/re/1 -
6 210855 0 solo_club 0 rccc - - | 0dA dT dK dK W0 0dA dJ sA dT W1 1hA hK hK cT W0 0sJ hQ cK cT W1 1sK sA sK dQ W0 0sQ dJ cJ cK W0 S0 0cA hJ dQ sJ W0 0cA hJ hQ cJ W0 0cQ hT hA sQ W1 1sT sT hT cQ W3 | re 1 127,80,0,33 won/re/1;solo/re/3 -
6 254605 0 normal - ccrr - - | 0sA dA sT sK W1 1cT cK cT cA W0 0hA dT hA hK W1 1sJ cQ dK hJ W2 2dK hT hJ cJ W3 3hK sJ dQ cK W1 1hQ dJ cQ cJ W3 3sK sT hT dT W1 1sQ dJ dQ hQ W1 1sQ dA sA cA W1 | contra 5 35,166,11,28 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;caught_fox/contra/1 -
6 4551 1 normal - ccrr - - | 1hA dT hA hK W2 2sA sT dJ sT W0 0cA cT dT cK W2 2cQ dQ dJ dK W2 2sK sA sQ hT W1 1sJ hQ cQ hJ W3 3cA cK cT sK W3 3dQ hJ cJ hT W2 S2 2dA hQ cJ dK W2 2dA sQ hK sJ W2 | re 2 33,28,140,39 won/re/1;no_90/re/1 -
6 109617 2 normal - rccr - - | 2sA sT sK dT W1 1cK cA cT cT W2 2cA cQ hA cK W3 3dJ cQ dK dK W0 0hJ hQ dJ cJ W1 1sJ sJ dT dQ W0 0hJ sQ dQ cJ W1 1hK sK hK hT W0 S0 0dA hT hQ sQ W0 0dA hA sT sA W0 | re 3 122,54,35,29 won/re/1;no_90/re/1;Doppelkopf/re/1 -
6 194810 3 solo_club 2 ccrc - - | 2dJ cT hJ dJ W0 0dT dA cT sJ W3 3sA sA hA cK W2 2hJ cK hQ cQ W1 1dA sQ cQ sT W3 3hA sT hK cJ W2 2dQ S3 cA sQ dT W3 3sJ hT dK cJ W0 0sK hK hT cA W3 3dQ sK dK hQ W2 | contra 2 34,12,78,116 won/contra/1;no_90/contra/1;solo/contra/3 -
6 90000 3 normal - crrc - - | 3cA dT cK cK W0 0hK dA hK sJ W3 3sA dK sK sA W0 0hA cQ hA sK W1 1dJ cQ dK dJ W2 2cA cT hT cT W0 0dQ sQ dT sJ W1 1hJ hT cJ hQ W2 2cJ dA hQ hJ W0 0sQ sT dQ sT W0 | contra 5 144,47,28,21 won/contra/1;no_90/contra/1;contra_won/contra/1;caught_fox/contra/1;Doppelkopf/contra/1 -
7 132160 0 normal - rccr - - | 0dJ dQ sQ cQ W3 3sA cA sK sK W3 3sT hT sA sT W0 0sJ hQ dT hT W3 3hK cJ hA hA W0 0cK cK cA dT W3 3hK cQ dK hJ W0 0cJ sQ dA dJ W1 1dA dQ hQ cT W3 3sJ cT dK hJ W3 | re 6 82,18,0,140 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;Doppelkopf/re/1;caught_fox/re/1 -
7 70729 1 normal - ccrr - - | 1sA sK sA sT W1 1hA dT hA hK W2 2dK cQ sJ dJ W3 3cA cA cK cT W3 3dJ cJ hQ cQ W2 2sT hT hK sK W3 3dK dA hT cJ W1 1hJ hQ hJ sQ W0 0sJ dQ cK dA W1 1dT cT sQ dQ W3 | re 0 10,83,46,101 won/re/1;caught_fox/contra/1 -
7 5227 2 solo_heart 0 rccc - - | 0dA dK dA dK W0 0hJ dQ hJ dJ W1 1cA cA cT hK W0 0sJ hQ sQ cJ W2 2sA sA hK sK W0 0dQ dJ hQ cQ W3 3dT sJ dT hT W2 2cK cK S0 hA cT W0 0hA hT sK cJ W0 0sQ sT sT cQ W3 | re 2 152,9,42,37 won/re/1;no_90/re/1;solo/re/3 -
7 130509 2 normal - rcrc - - | 2dK dJ dJ sJ W1 1cA dK cK cT W2 2cJ dA hT hQ W0 0cA cK cQ cT W2 2sT sA dT sK W0 0cQ hQ dQ cJ W0 0sJ dA sQ dQ W2 2hK sQ hJ hA W3 3sK dT sA hA W0 0hJ hK hT sT W2 | re 5 108,10,102,20 won/re/1;no_90/re/1;no_60/re/1;caught_fox/re/1;caught_fox/re/1 -
7 211749 3 normal - crrc - - | 3cK cA cK dA W2 2sA dA sK sK W3 3hJ cJ cQ dK W1 1sJ cQ dK hJ W2 2sT hQ sT sQ W1 1cA hT cT sJ W2 2sA hQ dT sQ W1 1dQ dJ dT dQ W1 1hT dJ cJ hA W1 1hK hK cT hA W0 | re 3 29,107,74,30 won/re/1;no_90/re/1;no_60/re/1 -
8 59904 0 normal - rrcc - - | 0sA sK sT sA W0 0dJ cQ hT dT W2 2cA cA dT cK W0 0hK hK hA hA W2 2cT cK sK cT W2 2sQ dK cQ dJ W0 0dQ hJ sJ hQ W3 3hJ S0 dA sJ cJ W0 0hQ hT cJ dK W1 1sT sQ dQ dA W0 | re 0 128,19,83,10 won/re/1;heart_trick/contra/1 -
8 214812 1 normal - rccr - - | 1cT cA cT cK W2 2sT sA sK dA W1 1hK hK hA dT W0 0cA hT dA sK W1 1hJ hQ cQ hQ W3 3dJ cQ sJ dK W0 0cK cJ dQ dJ W2 2sJ hJ hT dT W0 0sQ sQ cJ dQ W0 0sA hA dK sT W2 | contra 3 75,72,82,11 won/contra/1;no_90/contra/1;contra_won/contra/1 -
8 125021 2 normal - crrc - - | 2hA dA hK hK W3 3cA dA dJ cK W1 1sA dT dJ sK W3 3cK sJ dQ cT W1 1cQ hJ dK dK W1 1sT cQ hT sT W3 3cA hQ sQ cT W1 1sA sQ hJ sK W2 2sJ cJ cJ hT W1 1hA dQ dT hQ W0 | re 2 27,103,20,90 won/re/1;caught_fox/re/1 -
8 143009 3 normal - rccr - - | 3sA sK sT sK W3 3hA dT hK hK W0 0dK hJ hQ dJ W2 2cA cK dJ cK W0 0cJ sQ sJ hJ W1 1cT cT cQ sA W3 3sT hT sJ dK W0 0dQ hQ hT cJ W2 2dT dA sQ dA W0 0cQ hA cA dQ W0 | re 4 139,9,29,63 won/re/1;no_90/re/1;no_60/re/1;caught_fox/re/1 -
9 229399 0 normal - rcrc - - | 0cA cT cT cA W0 0hA hK hK hA W0 0dK hT cJ dK W1 1sA sT sK dJ W0 0dJ cJ cQ sJ W2 2sA sT cQ sK W0 0hJ sQ dT dA W1 1hJ hQ dQ hT W0 0cK dA hQ dQ W2 2sQ dT cK sJ W2 | re 6 145,46,49,0 won/re/1;no_90/re/1;no_60/re/1;Doppelkopf/re/1;heart_trick/re/1;caught_fox/re/1 -
9 189063 1 normal - crrc - - | 1sA sK sK sT W1 1hA hK dA hK W3 3cK cK cT dT W2 2dJ cJ hQ dK W0 0sT hT sA sJ W1 1dJ cQ dK dT W2 2hJ hQ sQ hJ W0 0hA cQ sJ cT W1 1cJ dQ cA dQ W2 2sQ cA hT dA W0 | re 1 56,88,66,30 won/re/1;no_90/re/1;caught_fox/contra/1 -
9 49592 2 normal - crrc - - | 2cA cT cK dA W1 1sA sT sT sK W1 1hJ cQ dJ dK W2 2dK sQ hJ cJ W3 3hK sJ hK hQ W2 2dJ cJ hT dT W0 0cK cQ dA dT W1 1dQ hT dQ sJ W2 2sA hA cT sK W2 2sQ hA cA hQ W2 | re 3 24,99,106,11 won/re/1;no_90/re/1;no_60/re/1 -
9 228487 3 normal - crcr - - | 3hA hK hA hK W3 3dA hQ cQ dK W1 1dJ dK cQ hJ W3 3sQ cJ dA dJ W3 3hT dT dT hQ W3 3hT dQ hJ sQ W3 3cJ cT dQ sK W1 1cK cT cK cA W0 0cA sK sA sJ W3 3sJ sT sT sA W3 | re 5 29,40,0,171 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;heart_trick/re/1 -
10 186697 0 normal - crrc - - | 0cT dA cK cK W1 1dK cQ sJ hJ W2 2sA sT sK sK W2 2hA dT hK hK W3 3sA sT cQ dA W1 1dJ cJ sQ sJ W3 3cJ hT dK dT W0 0hA hT cA sQ W1 1dJ hQ cT dQ W2 2hQ cA dQ hJ W2 | re 2 26,99,77,38 won/re/1;no_90/re/1 -
10 107602 1 solo_club 2 ccrc - - | 2sA sK sK sA W2 2dA dT dT dK W2 2hJ cT sJ cJ W1 1hA sJ hK hK W2 2dQ hQ dJ sQ W1 1dK hT hJ dA W2 2cT cK dJ cJ W1 1dQ S2 cA cQ hT W2 2cA cK sT hQ W2 2sQ sT hA cQ W1 | re 2 0,72,168,0 won/re/1;no_90/re/1;solo/re/3 -
10 74691 1 normal - rccr - - | 1sA sK sT sK W1 1cK cA cK cA W2 2sT cQ sA hT W1 1hK dA hA dJ W0 0dK sQ sJ dJ W1 1hK sJ cJ dA W3 3cT cQ hJ cT W0 0sQ dK cJ dQ W0 0hT dT hQ hJ W0 0dT hA hQ dQ W2 | contra 1 90,74,57,19 won/contra/1;contra_won/contra/1;caught_fox/re/1 -
10 204344 2 poverty 3 rccr - - | 2cA cK dK cT W0 0cQ S1 dA dT dK W1 1hA hQ hK dJ W2 2sA sA hJ sK W0 0sQ cQ dJ sK W1 1sT cJ sT dQ W0 0hQ sQ hJ hK W1 1sJ hT cT cJ W2 2hT cA sJ dA W1 1dQ cK hA dT W1 | contra 3 82,114,44,0 won/contra/1;no_90/contra/1;contra_won/contra/1 -
10 107952 3 normal - crrc - - | 3cA cK dA cT W1 1dK cQ hJ dK W2 2sA sT dA sK W0 0hA hK hK hA W0 0dJ cQ dJ cJ W1 1cJ sJ dT dQ W0 0cT hT dT cK W1 1sJ sQ dQ hJ W2 2sQ hQ hT hQ W0 0cA sT sK sA W0 | contra 3 138,79,23,0 won/contra/1;contra_won/contra/1;heart_trick/contra/1 -
11 127160 0 normal - rccr - - | 0dJ dK dQ cQ W3 3sA sT sA sK W3 3sT cQ hJ hT W2 2hK hK dA sJ W1 1cA hA dA cA W3 3cJ sQ sJ dK W0 0cT sQ dJ hT W3 3hQ cT dQ hJ W3 3dT cK dT cJ W2 2hA sK cK hQ W1 | re 1 11,43,51,135 won/re/1;caught_fox/contra/1;Doppelkopf/re/1 -
11 187513 1 normal - crcr - - | 1sA sK sT sT W1 1cA cK dT cK W3 3hJ sJ cQ dK W1 1dK hT hQ dJ W2 2cT cQ cA cT W3 3hQ sQ dJ dA W0 0sA sQ sK hA W1 1sJ hJ hT dQ W3 3hK dA hK cJ W2 2cJ hA dQ dT W0 | re 2 45,75,40,80 won/re/1;no_90/re/1 -
11 262586 2 marriage 0 rcrc - - | 2hT dJ dK dJ M0>2 W2 2sA sT sK sT W2 2hJ cJ cQ hQ W0 0hA hK hK dT W3 3cA hJ cT cT W0 S0 0dA hQ dK sJ W0 0dA sQ sJ dT W0 0dQ cA cJ hT W3 3cK sQ sA sK W0 0cQ hA dQ cK W0 | re 3 132,0,53,55 won/re/1;no_90/re/1;no_60/re/1 -
11 74016 3 normal - rccr - - | 3cA cK dT cT W1 1sA sT dT sK W3 3dK cQ hJ dJ W0 0hA hK dA hK W2 2cA cT hT sK W0 0sT sA hJ sJ W3 3cK dJ sJ cJ W2 2cJ cQ dA dQ W3 3dQ dK sQ hQ W1 1hA hT hQ sQ W2 | re 1 46,48,67,79 won/re/1 -
12 170042 0 normal - crcr - - | 0cA cT cK dJ W3 3sA sK dK sK W1 1dK cJ cQ sJ W3 3hJ sQ dJ dT W0 0hK hJ hA hK W1 1sJ dQ hQ cJ W3 S3 3dA dT hQ dQ W3 3dA hT cQ sQ W3 3hA cK cA sT W3 3hT sT cT sA W3 | re 5 17,44,0,179 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;Doppelkopf/re/1 -
12 259628 1 solo_heart 0 rccc - - | S0 0hA cJ hK hK W0 0hT dQ dJ hJ W0 0hA hQ sJ sJ W0 0cQ hT dQ cJ W1 1cA cT sT cT W1 1dA cA dT dJ W0 0hQ dT cQ dA W2 2cK sA sQ cK W0 0hJ sK sT sK W0 0sQ dK sA dK W0 | re 2 154,59,27,0 won/re/1;no_90/re/1;solo/re/3 -
12 112040 1 solo_diamond 1 crcc - - | 1sA sT dK sT W3 3cA cT dT cK W1 1dJ dK sJ cJ W0 0sK hT sA cK W1 1sQ hJ cQ sJ W3 3cA hQ cQ cT W1 S1 1dA cJ dJ hT W1 1hJ dQ hQ hA W3 3hA hK dA dQ W1 1dT sQ hK sK W2 | re 1 10,145,21,64 won/re/1;solo/re/3 -
12 102335 1 solo_queen 2 ccrc - - | 2cQ cQ hQ dQ W2 2hQ cJ sJ dQ W2 2sA sK hK sJ W2 2dA dT dK dJ W2 2hA hJ hK hJ W2 2sA sT cJ cK W2 2sK sT cT cA W3 3cA dT cT sQ W2 2sQ cK hT dK W2 2dJ hA hT dA W1 | re 2 0,34,171,35 won/re/1;no_90/re/1;solo/re/3 -
12 213679 1 marriage 1 rrcc - - | 1dA dQ hQ sQ M1>0 W0 0cA cT cK cK W0 0sK dT sT sT W1 1dK dA dQ hQ W0 0sK cQ hK sA W1 1dK dJ sJ sQ W0 0hA dJ hA cJ W3 3dT hT cJ hJ W0 0hJ cQ sJ cT W1 1hT cA sA hK W1 | re 5 105,109,0,26 won/re/1;no_90/re/1;no_60/re/1;no_30/re/1;caught_fox/re/1 -
12 225942 2 solo_heart 0 rccc - - | 0sA sK hK sT W2 2cA cK sJ cK W0 0dT dA dK dT W1 1sT sQ sK cQ W0 0hQ cJ dJ cQ W3 3sA hQ cT hJ W0 0sQ cJ hJ hK W0 S0 0hA cT dQ dJ W0 0hA dK dQ sJ W0 0hT dA cA hT W0 | re 2 166,35,29,10 won/re/1;no_90/re/1;solo/re/3 -
12 102367 2 marriage 2 rcrc - - | 2sA sK dA sT M2>0 W0 0sJ dK sQ dK W2 2sA sK hQ sT W0 0hK hA hK cT W1 1cA cK cA cT W1 1cK cQ hJ hA W2 2hJ cJ hQ sQ W1 1dJ dT dQ hT W0 0cJ dJ cQ sJ W2 2dA dQ dT hT W1 | re 0 89,109,42,0 won/re/1;caught_fox/contra/1 -
12 186296 3 normal - rccr - - | 3cA cK cK cT W3 3sJ cQ dK dK W0 0sA sK sK sT W0 0dJ cJ dQ cQ W3 3hT dA dJ hQ W3 3sQ dT hT hQ W1 1sA hK dA cA W3 3cJ hJ dQ hA W1 1sJ hA sQ hJ W3 3dT cT sT hK W3 | re 3 42,44,0,154 won/re/1;no_90/re/1;no_60/re/1 -
13 68308 0 normal - ccrr - - | 0cA dA cT cK W1 1hA hA hK hK W1 1sK sA sK dK W0 0cT hJ cA cK W1 1dT cQ dA hT W0 0hJ dK dQ dT W2 2sA cQ hT sT W0 0cJ dJ hQ sJ W2 2sJ sQ cJ dJ W3 3dQ sQ sT hQ W0 | contra 6 110,93,28,9 won/contra/1;no_90/contra/1;no_60/contra/1;contra_won/contra/1;heart_trick/contra/1;caught_fox/contra/1 -
13 130802 1 normal - crrc - - | 1hA hK dA hK W3 3cK cA cK cT W0 0cA cT hT sK W2 2sA sK dK sT W0 0hA cQ dJ sJ W1 1dQ cQ cJ dK W2 2hJ hQ dJ sQ W1 1dT hJ sQ cJ W3 3sT dQ hQ dT W1 1dA sJ sA hT W0 | contra 3 92,54,47,47 won/contra/1;contra_won/contra/1;caught_fox/contra/1 -
13 251783 2 marriage 2 rcrc - - | 2cA cK dA cA M2>0 W0 0sA sK sT sK W0 0dJ hT dK dA W1 1hA hK cT hK W1 1sT sA hT dJ W3 3hJ dT hQ cQ W2 2hJ sJ sQ dK W0 0hA dQ cQ cK W2 2sJ cJ dQ cJ W0 0sQ dT cT hQ W0 | re 2 112,56,39,33 won/re/1;no_90/re/1 -
13 242797 3 normal - rcrc - - | 3sA dA sT sK W0 0sJ dK cQ hT W3 3hA dT hK hK W0 0cJ dJ hQ sQ W3 3cK cK cT cA W2 2dK dJ cJ hJ W0 0cQ hJ dQ hT W3 3sK hQ hA sA W0 0cT dA cA sT W1 1sJ sQ dQ dT W2 | re 1 104,42,47,47 won/re/1;no_90/re/1;Doppelkopf/contra/1 -
14 177363 0 marriage_solo 3 cccr - - | 0sA sT sK dA M3>3 W3 3cK cA cA cT W0 0hA sA hA hK W0 0cK cJ dK sQ W3 3hK cT sT hJ W2 2sK sJ dA hQ W1 1dJ hT dT dK W2 2dQ cQ hJ dJ W3 3dT cJ sJ hQ W2 2sQ cQ dQ hT W1 | contra 3 73,39,69,59 won/contra/1;no_90/contra/1;no_60/contra/1;solo/contra/3 -
14 248506 1 normal - crrc - - | 1sA dA sT sK W2 2cA cT cK cT W2 2hA hK hK dK W1 1dJ cQ sJ dK W2 2dJ cJ hQ cQ W1 1sT hT hA sA W2 2cK dQ cA sQ W1 1sJ hQ dA hT W0 0hJ sQ dT dT W1 1sK hJ dQ cJ W3 | re 4 26,79,124,11 won/re/1;no_90/re/1;no_60/re/1;Doppelkopf/re/1 -
14 248394 2 normal - rcrc - - | 2sA sT sK sT W2 2hA dA hA hK W3 3cA cT cT cK W3 3cK cA sQ cQ W2 2hJ hQ dK sJ W3 3dJ dT sQ hT W2 2hJ hQ dJ dT W3 3cJ cQ sJ dA W0 0dQ hK cJ dK W0 0dQ sA sK hT W3 | contra 2 31,0,81,128 won/contra/1;contra_won/contra/1 -
14 52253 3 marriage 1 crcr - - | 3hT sJ dA dJ M1>3 W3 3hA hK hA hJ W2 2sT dT sK sA W3 3hK dQ hQ cK W1 1sK sT sQ sA W3 3dJ hQ cJ sJ W0 0hT cJ dQ dK W0 0dT cQ cT dK W1 1cT cA cK dA W0 0sQ cQ cA hJ W1 | re 1 64,60,28,88 won/re/1 -
"""


# -- the display, the requested actions and the words -------------------------------


def _handCards(display: Any) -> list[str]:
    return sorted(str(t["data-card"]) for t in display.content
                  if t.get("class") == "card" and t["y"] >= dk.HAND_Y)


def _uiAction(game: dk.DoppelkopfParty, seat: int, move: Any) -> dict[str, Any]:
    """The CLICK or TEXT a person (or a JSON client) makes for ``move``, read from the display."""
    ((kind, value),) = move.items()
    if kind == "reservation":
        return {"type": "TEXT", "text": value}
    if kind in ("poverty shift", "poverty returned"):
        return {"type": "TEXT", "text": ", ".join(value)}
    display = game.display(seat)
    if kind == "card":
        found = [t for t in display.content if t.get("data-card") == value
                 and t.get("class") == "card" and t["y"] >= dk.HAND_Y]
    else:
        found = [t for t in display.content
                 if t.get("data-action") == json.dumps(move, sort_keys=True)]
    assert found, move
    tag = found[0]
    return {"type": "CLICK", "x": tag["x"] + tag["width"] / 2, "y": tag["y"] + tag["height"] / 2,
            "button": "LEFT"}


class DisplayTests(unittest.TestCase):
    """What the page and JSON players get: displays, requested actions, words."""

    def test_everyMoveThroughTheDisplay(self) -> None:
        """
        A party of one round where each move the bot makes goes through the
        seat's display and ``decodeAction``: it decodes to the same move, every
        request says what it asks in words, and the hand drawn is the seat's own.
        """
        for seed in (4, 22, 97110):
            game = _start(seed)
            steps = 0
            while not game.over:
                (seat,) = game.waitingFor()
                requested = game.instructions().requested_actions
                self.assertTrue(requested)
                for request in requested:
                    self.assertTrue(request.prompt, request)
                self.assertEqual(_handCards(game.display(seat)), sorted(game.game.hands[seat]))
                self.assertEqual(_handCards(game.display(None)), [])
                move = dk.doppelkopfBot(game.view(seat), seat)
                decoded = game.decodeAction(seat, _uiAction(game, seat, move))
                self.assertEqual(decoded, move)
                _ok(game.act(seat, decoded))
                steps += 1
                self.assertLess(steps, 2000)

    def test_buttonsAndPicks(self) -> None:
        """The suggested reservation is the first button; a poverty is picked from the hand."""
        game = _start(97110)
        first = game.instructions().requested_actions[0].zones[0]  # type: ignore[index]
        suggested = game.decodeAction(0, {"type": "CLICK", "x": first.x + 1, "y": first.y + 1,
                                          "button": "LEFT"})
        self.assertEqual(suggested, dk.doppelkopfBot(game.view(0), 0))
        labels = [label for label, _ in game.choices(0)]
        self.assertTrue(labels[0].startswith("\u2605"))
        self.assertIn("\u2663 solo", labels)
        poverty = _start()
        poverty.game.hands = [list(h) for h in _hands({0: [
            "club queen", "spade queen", "diamond ace", "club ace", "club ace", "club ten",
            "club king", "spade ace", "spade ace", "spade ten", "heart ace", "heart king"]})]
        _ok(poverty.act(0, {"reservation": "poverty"}))
        for seat in (1, 2, 3):
            _ok(poverty.act(seat, {"reservation": "normal"}))
        self.assertEqual(poverty.phase, dk.POVERTY_SHIFT)
        requests = poverty.instructions().requested_actions
        pick = [r for r in requests if r.type == "TEXT"][0].pick
        assert pick is not None
        self.assertEqual(pick.count, 3)
        self.assertEqual(sorted(pick.values), sorted(poverty.game.hands[0]))
        self.assertIn("every trump", [r for r in requests if r.type == "TEXT"][0].prompt or "")
        refused = poverty.act(0, {"poverty shift": ["club ace", "club ace", "spade ace"]})
        self.assertIsInstance(refused, Errors)
        assert isinstance(refused, Errors)
        self.assertIn("every trump", errorText(refused.errors[0]) or "")

    def test_errorsInWords(self) -> None:
        game = _start(97110)
        late = game.act(2, {"reservation": "normal"})
        assert isinstance(late, Errors)
        self.assertEqual(errorText(late.errors[0]), "It is not your turn.")
        for _ in range(4):
            _ok(game.act(game.waitingFor()[0], {"reservation": "normal"}))
        leader = game.waitingFor()[0]
        _ok(game.act(leader, {"card": dk.botCard(game.view(leader))}))
        seat = game.waitingFor()[0]
        legal = set(game.legalCardsFor(seat))
        illegal = [c for c in game.game.hands[seat] if c not in legal]
        if illegal:
            refused = game.act(seat, {"card": illegal[0]})
            assert isinstance(refused, Errors)
            self.assertRegex(errorText(refused.errors[0]) or "", r"^That card is not allowed: you must "
                                                            r"follow (trump|clubs|spades|hearts)\.$")
        absent = [c for c in sorted(dk.CARDS) if c not in game.game.hands[seat]][0]
        refused = game.act(seat, {"card": absent})
        assert isinstance(refused, Errors)
        self.assertIn("You do not hold", errorText(refused.errors[0]) or "")
        refused = game.act(seat, {"announcement": "no 30"})
        if isinstance(refused, Errors):
            self.assertEqual(errorText(refused.errors[0]), "You cannot announce no 30 now.")

    def test_announcementsInWords(self) -> None:
        """
        What players read says ``no 120`` as Re or Kontra, by the team that
        says it, and ``no 0`` as black: the game state's text, the buttons,
        the table, a refusal; the actions and the events keep FreeDoko's names.
        """
        game = _start(97110)
        for _ in range(4):
            _ok(game.act(game.waitingFor()[0], {"reservation": "normal"}))
        teams = game.game.teams
        re, contra = teams.index(RE), teams.index(CONTRA)
        (seat,) = game.waitingFor()
        labels = [label for label, _ in game.choices(seat)]
        self.assertEqual(labels[0], "re" if teams[seat] == RE else "kontra")
        self.assertEqual(game.choices(seat)[0][1], {"announcement": "no 120"})
        said = _ok(game.act(re, {"announcement": "no 120"}))
        self.assertEqual(said.game_state.text, f"player {re + 1} announced re")
        self.assertEqual([e.data for e in said.events if e.kind == "announcement"],
                         [{"seat": re, "announcement": "no 120", "team": RE}])
        said = _ok(game.act(contra, {"announcement": "contra"}))
        self.assertEqual(said.game_state.text, f"player {contra + 1} announced kontra")
        said = _ok(game.act(contra, {"announcement": "no 0"}))
        self.assertEqual(said.game_state.text, f"player {contra + 1} announced black")
        again = game.act(re, {"announcement": "no 120"})
        assert isinstance(again, Errors)
        self.assertEqual(errorText(again.errors[0]), "You cannot announce re now.")
        texts = [str(t.get("content")) for t in game.display(None).content
                 if t.get("tag") == "text"]
        # (a spectator too sees the teams the announcements showed)
        self.assertIn("Re \u00b7 re", " | ".join(texts))
        self.assertIn("Kontra \u00b7 black", " | ".join(texts))
        self.assertFalse([t for t in texts if "no 120" in t or "contra" in t], texts)
        if seat == re:
            self.assertIn("black", [label for label, _ in game.choices(seat)])

    def test_wordsTellOnlyWhatIsPublic(self) -> None:
        """The game state's words: cards only as they are played, never a hand or a shift."""
        for seed in (4, 22):
            game = _start(seed)
            while not game.over:
                (seat,) = game.waitingFor()
                steps = _ok(game.act(seat, dk.doppelkopfBot(game.view(seat), seat)))
                text = steps.game_state.text or ""
                self.assertNotIn("seed", text)
                for label in {dk.cardLabel(c) for c in dk.CARDS}:
                    for found in re.finditer(re.escape(label) + r"(?![0-9])", text):
                        self.assertTrue(text[:found.start()].endswith("played "), text)
            self.assertIn("the party is over", steps.game_state.text or "")

    def test_scoreSheet(self) -> None:
        """Between games the table shows the last game's score and the sheet; at the end, all."""
        game = _start(97110)
        while not game.summaries:
            (seat,) = game.waitingFor()
            _ok(game.act(seat, dk.doppelkopfBot(game.view(seat), seat)))
        (seat,) = game.waitingFor()
        texts = [str(t.get("content")) for t in game.display(seat).content]
        sheets = [t for t in game.display(seat).content if t.get("class") == "score-sheet"]
        self.assertEqual(len(sheets), 1)
        self.assertTrue(any(t.startswith("Game 1 (") for t in texts), texts)
        while not game.over:
            (seat,) = game.waitingFor()
            _ok(game.act(seat, dk.doppelkopfBot(game.view(seat), seat)))
        sheet = [t for t in game.display(None).content if t.get("class") == "score-sheet"][0]
        rows = [t["content"] for t in sheet["content"] if t.get("x") == 16]  # type: ignore[index,union-attr,call-overload]
        self.assertEqual(rows, ["Game"] + [str(n + 1) for n in range(len(game.summaries))]
                         + ["Total"])
        self.assertEqual(game.instructions().requested_actions, ())
        over = game.act(0, {"card": "club queen"})
        assert isinstance(over, Errors)
        self.assertEqual(errorText(over.errors[0]), "The party is over.")
