"""
Tests for gameproto.games.carcassonne: the base game's tiles, placement,
followers and scoring (current edition), its bot and its engine.

The rules applied here are the base game's, current (third) edition, as
the official rules and their summaries state them (in our words; sources:
the Carcassonne wiki's "The Farmers" page, wikicarpedia.com, for farms and
ties; the rules summary at balagamenight.com/games/carcassonne for
placement, followers and the other features; the editions' differences as
gracefulboot.com/board_games/carcassonne_farmer_scoring.html sets them out):

- [placing] a tile must touch a placed tile by an edge (corners do not
  count), and every edge it touches must match: city to city, road to road,
  field to field; a tile with no legal place is removed from the game and
  another is drawn;
- [followers] at most one, on the tile just placed, on a road, city,
  cloister or field that nobody's follower occupies yet, however far the
  feature already reaches;
- [completion] a completed road scores 1 point per tile, a completed city 2
  per tile and 2 per shield (the 1st and 2nd editions' 2-tile city worth 2
  is gone in the 3rd), a cloister 9 once all 8 tiles around it lie; those
  followers return to their owners;
- [end] an incomplete road scores 1 per tile, an incomplete city 1 per tile
  and 1 per shield, a cloister 1 plus 1 per tile around it; each field
  scores 3 per completed city it borders, field by field (so one city may
  pay several fields); farmers stay on the board;
- [majority] only the players with the most followers on a feature score
  it, and tied players each score it in full.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, cast

import attrs
from hypothesis import example, given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    BadFormat,
    Display,
    Errors,
    IncorrectValue,
    Instructions,
    UnexpectedAction,
    UnexpectedArgument,
    WrongAction,
    hasHiddenInformation,
    isPublicAction,
)
from gameproto.engine.record import GameRecord, RecordedAction, replay
from gameproto.games import engines
from gameproto.games.carcassonne import (
    CARCASSONNE,
    EDGE_ZONES,
    FOLLOWERS,
    ORIENTATIONS,
    START,
    START_TILE,
    TILE_WORDS,
    TILES,
    Board,
    CarcassonneGame,
    CarcassonneView,
    Feature,
    Oriented,
    Score,
    carcassonneBot,
    fullPile,
)


def _start(players: int = 2, pile: str = "named", farms: str = "3rd",
           seed: int = 1) -> CarcassonneGame:
    game = CARCASSONNE.start({"players": players, "pile": pile, "farms": farms},
                             rng=random.Random(seed))
    assert isinstance(game, CarcassonneGame)
    return game


def _move(tile: str, x: Any, y: Any, orientation: str,
          zone: str | None = None) -> dict[str, Any]:
    return {"tile": tile, "x": x, "y": y, "orientation": orientation, "zone": zone}


class TileTests(SynchronousTestCase):
    """The 24 tile types, their features and their rotations."""

    def test_countsAndShields(self) -> None:
        """72 tiles in 24 types tile-a..tile-x; shields on c, f, m, o, q, s (10 tiles)."""
        self.assertEqual(sorted(TILES), [f"tile-{c}" for c in "abcdefghijklmnopqrstuvwx"])
        self.assertEqual(sum(t.count for t in TILES.values()), 72)
        shielded = {n for n, t in TILES.items() if any(f.shield for f in t.features)}
        self.assertEqual(shielded, {f"tile-{c}" for c in "cfmoqs"})
        self.assertEqual(sum(TILES[n].count for n in shielded), 10)
        self.assertEqual(sum(fullPile().values()), 71)

    def test_featuresCoverEveryZone(self) -> None:
        """Every edge zone belongs to exactly one feature; the declared edges match the features."""
        for name, tile in TILES.items():
            zones = [z for f in tile.features for z in f.zones if z != "C"]
            self.assertEqual(sorted(zones), sorted(EDGE_ZONES), name)
            self.assertLessEqual(sum("C" in f.zones for f in tile.features), 1, name)
            self.assertEqual(tile.oriented("N").edges, tile.edges, name)
            for f in tile.features:
                if f.kind == "road":
                    # A road edge is road in its middle zone, field in its halves.
                    for side in f.sides:
                        self.assertNotIn(EDGE_ZONES[3 * side], f.zones, name)

    def test_rotationOfEveryTile(self) -> None:
        """
        ``W``: the tile's west edge points north (a quarter turn clockwise);
        ``E``: its east edge points north; ``S``: a half turn.  Every type,
        every orientation: the edges turn, every feature keeps its kind,
        shield and size, and four quarter turns are none.
        """
        for name, tile in TILES.items():
            n, e, s, w = tuple(tile.edges)
            self.assertEqual(tile.oriented("W").edges, w + n + e + s, name)
            self.assertEqual(tile.oriented("S").edges, s + w + n + e, name)
            self.assertEqual(tile.oriented("E").edges, e + s + w + n, name)
            for orientation, turns in ORIENTATIONS.items():
                turned = tile.oriented(orientation).features
                for before, after in zip(tile.features, turned):
                    self.assertEqual((before.kind, before.shield, len(before.zones)),
                                     (after.kind, after.shield, len(after.zones)))
                    again = after
                    for _ in range(4 - turns if turns else 4):
                        again = again.rotated(1)
                    self.assertEqual(again, before)

    def test_words(self) -> None:
        """
        Each tile type has its words for people, told apart from every
        other's: its city, road or cloister, with a shield where it has one.
        """
        self.assertEqual(list(TILE_WORDS), list(TILES))
        self.assertEqual(len(set(TILE_WORDS.values())), len(TILES))
        for name, tile in TILES.items():
            words = TILE_WORDS[name]
            self.assertRegex(words, r"^an? [a-z -]+$", name)
            kinds = {f.kind for f in tile.features}
            self.assertEqual("shield" in words, any(f.shield for f in tile.features), name)
            self.assertEqual("cloister" in words, "cloister" in kinds, name)
            self.assertEqual("city" in words, "city" in kinds, name)
            self.assertEqual("road" in words or "crossroads" in words, "road" in kinds, name)

    def test_zonesTurnWithTheTile(self) -> None:
        """tile-v (road W-S) turned W has its road on N and W: zones W, S become N, W."""
        road = [f for f in TILES["tile-v"].oriented("W").features if f.kind == "road"][0]
        self.assertEqual(road.zones, {"N", "W"})
        # The inner corner field WL+SR (south-west) turns to the north-west: WR+NL.
        inner = TILES["tile-v"].oriented("W").features[1]
        self.assertEqual(inner.zones, {"WR", "NL"})


class PlacementTests(SynchronousTestCase):
    """Placement legality: edges match on every side, next to the board."""

    def test_startTile(self) -> None:
        board = Board()
        self.assertEqual(board.tiles[START].tile, START_TILE)
        self.assertEqual(START, (72, 72))
        self.assertEqual(board.frontier, {(72, 71), (73, 72), (72, 73), (71, 72)})

    def test_edgesMustMatch(self) -> None:
        """[placing] tile-e's city must face the start tile's city on its east side."""
        board = Board()
        self.assertFalse(board.fits("tile-e", 73, 72, "N"))  # field W against city
        self.assertTrue(board.fits("tile-e", 73, 72, "E"))   # its city now points west
        self.assertFalse(board.fits("tile-e", 71, 72, "W"))  # city east, against the field
        self.assertTrue(board.fits("tile-e", 71, 72, "N"))

    def test_mustTouchAndBeFree(self) -> None:
        """[placing] next to a tile by an edge, on a free cell."""
        board = Board()
        self.assertFalse(board.fits("tile-b", 75, 75, "N"))
        self.assertFalse(board.fits("tile-b", 72, 72, "N"))
        self.assertFalse(board.fits("tile-b", 73, 73, "N"))  # a corner is not an edge

    def test_everySideChecked(self) -> None:
        """A tile touching two placed tiles must match both."""
        board = Board()
        board.place("tile-u", 72, 71, "N")  # road N-S above the start
        board.place("tile-b", 71, 72, "N")  # cloister west of the start
        # (71, 71) touches u's west side (field) and b's north side (field).
        self.assertTrue(board.fits("tile-b", 71, 71, "N"))
        # tile-e with its city south would face b's field: refused.
        self.assertFalse(board.fits("tile-e", 71, 71, "S"))
        # tile-v's road W-S would put a road against b's north field: refused.
        self.assertFalse(board.fits("tile-v", 71, 71, "N"))

    def test_engineRefusesIllegalPlacements(self) -> None:
        game = _start()
        for move in (_move("tile-e", 73, 72, "N"), _move("tile-b", 80, 80, "N"),
                     _move("tile-b", 72, 72, "N")):
            result = game.act(0, move)
            self.assertIsInstance(result, Errors)
            self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)
        self.assertEqual(len(game.board.tiles), 1)
        self.assertIsInstance(game.act(0, _move("tile-e", 73, 72, "E")), Instructions)

    def test_badMoves(self) -> None:
        game = _start()
        self.assertEqual(game.act(1, _move("tile-e", 73, 72, "E")),
                         Errors((UnexpectedAction(1, _move("tile-e", 73, 72, "E")),)))
        for bad in ("MOVE", _move("tile-e", 73, 72, "Q"), _move("tile-e", -1, 72, "N"),
                    _move("tile-e", True, 72, "N"), _move("tile-e", 73, 72, "E", "X")):
            result = game.act(0, bad)
            self.assertIsInstance(result, Errors)
            self.assertIn(type(cast(Errors, result).errors[0]),
                          (BadFormat, WrongAction, UnexpectedAction))
        self.assertIsInstance(cast(Errors, game.act(0, _move("tile-z", 73, 72, "E"))).errors[0],
                              WrongAction)
        self.assertEqual(len(game.board.tiles), 1)

    def test_tileWithNoCopyLeft(self) -> None:
        """Named pile: tile-c exists once; a second one is refused."""
        game = _start()
        self.assertIsInstance(game.act(0, _move("tile-c", 73, 72, "N")), Instructions)
        result = game.act(1, _move("tile-c", 74, 72, "N"))
        self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)
        # The start tile is one of the four tile-d: three more may be named.
        self.assertEqual(game.remaining["tile-d"], 3)

    def test_seededPileNamesTheDrawnTile(self) -> None:
        game = _start(pile="seeded", seed=7)
        drawn = game.tile
        assert drawn is not None
        other = next(t for t in TILES if t != drawn)
        x, y, o = game.board.placements(drawn)[0]
        result = game.act(0, _move(other, x, y, o))
        self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)
        move = {"x": x, "y": y, "orientation": o, "zone": None}  # the tile left out
        self.assertIsInstance(game.act(0, move), Instructions)
        self.assertEqual(game.board.tiles[(x, y)].tile, drawn)


class FollowerTests(SynchronousTestCase):
    """Followers: 7 each, never on a feature someone already holds."""

    def test_occupiedRoadRefused(self) -> None:
        """[followers] not on a road someone already holds, however far away."""
        game = _start()
        # P1 stands on the road north of the start tile (tile-u, road N-S).
        self.assertIsInstance(game.act(0, _move("tile-u", 72, 71, "N", "N")), Instructions)
        # P2 extends the same road south: its road is that road, held.
        result = game.act(1, _move("tile-u", 72, 73, "N", "S"))
        self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)
        # Its field is free.
        self.assertIsInstance(game.act(1, _move("tile-u", 72, 73, "N", "E")), Instructions)

    def test_zoneMustExist(self) -> None:
        """C on a tile without a cloister or a centre feature (tile-e) is refused."""
        game = _start()
        result = game.act(0, _move("tile-e", 73, 72, "E", "C"))
        self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)

    def test_sevenEach(self) -> None:
        game = _start()
        self.assertEqual(game.left, [FOLLOWERS, FOLLOWERS])
        self.assertEqual(FOLLOWERS, 7)
        game.left[0] = 0  # as after placing all seven
        result = game.act(0, _move("tile-b", 71, 72, "N", "C"))
        self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)

    def test_noFarmersWithoutFarms(self) -> None:
        game = _start(farms="none")
        self.assertNotIn("E", game.board.followerZones("tile-u", 72, 71, "N"))
        result = game.act(0, _move("tile-u", 72, 71, "N", "E"))
        self.assertIsInstance(cast(Errors, result).errors[0], WrongAction)

    def test_followerReturnsWhenScored(self) -> None:
        game = _start()
        game.act(0, _move("tile-e", 73, 72, "E", "W"))
        self.assertEqual(game.left, [FOLLOWERS, FOLLOWERS])
        self.assertEqual(game.scores, [4, 0])
        self.assertEqual(game.board.followers, {})


class ScoringTests(SynchronousTestCase):
    """Hand-worked scoring cases, the arithmetic written out."""

    def test_twoTileCity(self) -> None:
        """
        [completion] no small-city exception in the 3rd edition.

        The start tile's city (east) closed by tile-e turned E (city west).
        Current rules: 2 points a tile, small cities included: 2 x 2 = 4
        (the 1st and 2nd editions gave a 2-tile city 2 x 1 = 2).
        """
        board = Board()
        scores = board.place("tile-e", 73, 72, "E", (0, "W"))
        self.assertEqual(scores, [Score("city", 4, (0,), 2)])

    def test_shield(self) -> None:
        """
        Start city + tile-f (city E-W through the centre, shield) + tile-e
        closing it: 3 tiles and 1 shield, 2 x 3 + 2 x 1 = 8.
        """
        board = Board()
        self.assertEqual(board.place("tile-f", 73, 72, "N", (1, "C")), [])
        scores = board.place("tile-e", 74, 72, "E")
        self.assertEqual(scores, [Score("city", 8, (1,), 3)])
        self.assertEqual(board.followers, {})

    def test_tieScoresInFull(self) -> None:
        """
        [majority] tied players each score in full.

        P1 holds the road tile-a (cloister, road S) - start; P2 holds a
        separate road on tile-v west of the start.  Two curves join them and
        tile-a turned E ends it: a(72,71) d(72,72) v(72,73) v(71,73)
        v(71,72) a(70,72) = 6 tiles, 1 point each; one follower each, a tie:
        both score 6.
        """
        board = Board()
        board.place("tile-a", 72, 71, "N", (0, "S"))
        board.place("tile-v", 71, 72, "N", (1, "W"))
        self.assertEqual(board.place("tile-v", 71, 73, "S"), [])
        self.assertEqual(board.place("tile-v", 72, 73, "W"), [])
        self.assertTrue(board.fits("tile-a", 70, 72, "E"))
        scores = board.place("tile-a", 70, 72, "E")
        self.assertEqual(scores, [Score("road", 6, (0, 1), 6)])

    def test_majority(self) -> None:
        """
        P1 holds two roads that one joins, P2 a third joined to them:
        a(72,71) d v(72,73) v(71,73) v(71,72) v(70,72) v(70,73), open at the
        end: 7 tiles, 1 point each, to P1 alone (2 followers against 1).
        """
        board = Board()
        board.place("tile-a", 72, 71, "N", (0, "S"))
        board.place("tile-v", 71, 72, "N", (0, "W"))
        board.place("tile-v", 71, 73, "S")
        board.place("tile-v", 72, 73, "W")
        board.place("tile-v", 70, 73, "W", (1, "N"))
        self.assertTrue(board.fits("tile-v", 70, 72, "E"))
        self.assertEqual(board.place("tile-v", 70, 72, "E"), [])
        self.assertEqual(board.finalScores(), [Score("road", 7, (0,), 7, True)])

    def test_farmTouchingTwoCities(self) -> None:
        """
        [end] 3 per completed city a field borders.

        tile-h (two cities E and W, one field between) east of the start:
        its west city closes the start's (2 tiles), tile-e closes its east
        city.  P1's farmer on h's field touches both completed cities at the
        end: 3 x 2 = 6.
        """
        board = Board()
        self.assertEqual(board.place("tile-h", 73, 72, "N", (0, "N")), [])
        board.place("tile-e", 74, 72, "E")
        self.assertEqual(board.finalScores(), [Score("field", 6, (0,), 1, True)])
        # Without farms the same field scores nothing.
        plain = Board(farms="none")
        plain.place("tile-h", 73, 72, "N", (0, "N"))
        plain.place("tile-e", 74, 72, "E")
        self.assertEqual(plain.finalScores(), [])

    def test_oneCityThroughTwoFarms(self) -> None:
        """
        [end] fields score one by one, so one city pays each field.

        The start's city closed by tile-e (turned E) touches two fields: the
        start's strip between road and city (reached from tile-u north of
        the start, P2's farmer on u's east field) and tile-e's own field
        (P1's farmer).  Current edition: each field scores for itself,
        3 x 1 = 3 each, so the city pays twice.
        """
        board = Board()
        board.place("tile-u", 72, 71, "N", (1, "E"))
        board.place("tile-e", 73, 72, "E", (0, "E"))
        finals = sorted(board.finalScores(), key=lambda s: s.seats)
        self.assertEqual([(s.kind, s.points, s.seats) for s in finals],
                         [("field", 3, (0,)), ("field", 3, (1,))])

    def test_earlierFarmRules(self) -> None:
        """
        The layout of L{test_oneCityThroughTwoFarms}: one completed city
        (start + tile-e, 2 tiles), two fields touching it.

        One farmer each (P1 on e's field, P2 on the strip):
        - 3rd: each field 3 x 1 = 3, so P1 3, P2 3;
        - 2nd: the same, each player paid once for the city: P1 3, P2 3;
        - 1st: the city's 4 go to the majority of the farmers touching it,
          1 against 1, a tie: P1 4, P2 4.
        Both farmers P1's:
        - 3rd: 3 + 3 = 6 (the city pays each field);
        - 2nd: the city pays P1 once: 3;
        - 1st: 4 (P1 has the majority, 2 against 0).
        """
        expected = {("3rd", 1): {0: 3, 1: 3}, ("2nd", 1): {0: 3, 1: 3},
                    ("1st", 1): {0: 4, 1: 4}, ("3rd", 0): {0: 6},
                    ("2nd", 0): {0: 3}, ("1st", 0): {0: 4}, ("none", 1): {}}
        for (farms, strip), points in expected.items():
            board = Board(farms)
            board.place("tile-u", 72, 71, "N", None if farms == "none" else (strip, "E"))
            board.place("tile-e", 73, 72, "E", None if farms == "none" else (0, "E"))
            totals: Counter[int] = Counter()
            for score in board.finalScores():
                for seat in score.seats:
                    totals[seat] += score.points
            self.assertEqual(dict(+totals), points, farms)
            self.assertEqual(+totals, +_walkFinals(board), farms)

    def test_partialCloisterAtTheEnd(self) -> None:
        """
        [end] a cloister: 1 plus 1 per tile around it.

        A cloister (tile-b) west of the start, another tile-b north of it:
        at the end its square holds itself, the start and that tile:
        1 + 2 = 3 points.
        """
        board = Board()
        board.place("tile-b", 71, 72, "N", (0, "C"))
        board.place("tile-b", 71, 71, "N")
        self.assertEqual(board.finalScores(), [Score("cloister", 3, (0,), 3, True)])

    def test_completeCloister(self) -> None:
        """[completion] A cloister with all 8 neighbours scores 9 at once and its monk goes home."""
        board = Board()
        board.place("tile-b", 71, 72, "N", (0, "C"))
        around = [(71, 71, "tile-b", "N"), (70, 71, "tile-b", "N"), (70, 72, "tile-e", "E"),
                  (70, 73, "tile-e", "E"), (71, 73, "tile-e", "S")]
        for x, y, tile, orientation in around:
            self.assertTrue(board.fits(tile, x, y, orientation), (x, y))
            self.assertEqual(board.place(tile, x, y, orientation), [])
        # (72, 71) and (72, 73) remain: the start tile's road runs N-S there.
        board.place("tile-u", 72, 71, "N")
        scores = board.place("tile-u", 72, 73, "N")
        self.assertEqual(scores, [Score("cloister", 9, (0,), 9)])
        self.assertNotIn((71, 72), board.followers)

    def test_incompleteCityAndRoadAtTheEnd(self) -> None:
        """Start city + tile-f (shield), open: 2 tiles + 1 shield = 3; a road of 2 tiles = 2."""
        board = Board()
        board.place("tile-f", 73, 72, "N", (0, "C"))
        board.place("tile-u", 72, 71, "N", (1, "N"))
        finals = sorted(board.finalScores(), key=lambda s: s.kind)
        self.assertEqual(finals, [Score("city", 3, (0,), 2, True),
                                  Score("road", 2, (1,), 2, True)])

    def test_gameAddsFinalScores(self) -> None:
        """The engine ends when no tile is left and adds the final scores."""
        game = _start()
        game.act(0, _move("tile-b", 71, 72, "N", "C"))
        game.act(1, _move("tile-u", 72, 71, "N", "N"))
        before = list(game.scores)
        game.remaining = Counter()  # as if every tile had been placed
        game._finish()
        # Cloister: itself, the start, u at (72, 71) = 3; road u + start = 2.
        self.assertEqual(game.scores, [before[0] + 3, before[1] + 2])
        self.assertTrue(game.instructions().game_state.gameover)


# -- an independent region walk, to check the union-find ------------------------------


Walked = tuple[str, frozenset[tuple[int, int]], int, int, list[int], set[int]]
"""A feature found by L{_walk}: kind, tiles, shields, open sides, seats, touched cities."""


def _walk(board: Board) -> list[Walked]:
    """
    Every feature on the board found again by a flood fill over (tile,
    feature) pairs, without the union-find: its kind, tiles, shields, open
    sides, followers' seats and the city features (by a member) it touches.
    """
    owner: dict[tuple[int, int, int], int] = {}
    steps = ((0, -1), (1, 0), (0, 1), (-1, 0))
    features: dict[tuple[int, int, int], tuple[Feature, Oriented]] = {}
    for where, placed in board.tiles.items():
        oriented = TILES[placed.tile].oriented(placed.orientation)
        for i, f in enumerate(oriented.features):
            features[(where[0], where[1], i)] = (f, oriented)
    regions: list[tuple[str, frozenset[tuple[int, int]], int, int, list[int],
                        set[tuple[int, int, int]]]] = []
    for start in sorted(features):
        if start in owner:
            continue
        index = len(regions)
        stack, members = [start], []  # type: list[tuple[int, int, int]], list[tuple[int, int, int]]
        owner[start] = index
        while stack:
            x, y, i = stack.pop()
            members.append((x, y, i))
            f, oriented = features[(x, y, i)]
            for zone in f.zones - {"C"}:
                k = EDGE_ZONES.index(zone)
                side, half = divmod(k, 3)
                nx, ny = x + steps[side][0], y + steps[side][1]
                if (nx, ny) not in board.tiles:
                    continue
                other = board.tiles[(nx, ny)]
                facing = EDGE_ZONES[3 * ((side + 2) % 4) + 2 - half]
                j = TILES[other.tile].oriented(other.orientation).zoneFeature[facing]
                if (nx, ny, j) not in owner:
                    owner[(nx, ny, j)] = index
                    stack.append((nx, ny, j))
        kind = features[start][0].kind
        tiles = frozenset((x, y) for x, y, _ in members)
        shields = sum(features[m][0].shield for m in members)
        opened = sum(1 for x, y, i in members for s in features[(x, y, i)][0].sides
                     if (x + steps[s][0], y + steps[s][1]) not in board.tiles)
        seats: list[int] = []
        for x, y, i in members:
            if (x, y) in board.followers:
                seat, zone = board.followers[(x, y)]
                if features[(x, y, i)][1].zoneFeature[zone] == i:
                    seats.append(seat)
        cities = {(x, y, c) for x, y, i in members
                  for c in features[(x, y, i)][1].cityNeighbours[i]}
        regions.append((kind, tiles, shields, opened, seats, cities))
    return [(kind, tiles, shields, opened, seats, {owner[c] for c in cities})
            for kind, tiles, shields, opened, seats, cities in regions]


def _walkFinals(board: Board) -> Counter[int]:
    """The final scores by seat, from L{_walk}."""
    regions = _walk(board)
    totals: Counter[int] = Counter()
    paid: dict[int, set[int]] = {}
    farmers: dict[int, list[int]] = {}
    for kind, tiles, shields, opened, seats, cities in regions:
        if not seats:
            continue
        counts = Counter(seats)
        winners = [s for s, n in counts.items() if n == max(counts.values())]
        if kind == "road":
            points = len(tiles)
        elif kind == "city":
            points = len(tiles) + shields
        elif kind == "cloister":
            ((x, y),) = tiles
            points = sum((x + dx, y + dy) in board.tiles for dx in (-1, 0, 1)
                         for dy in (-1, 0, 1))
        elif board.farms == "3rd":
            points = 3 * sum(1 for c in cities if regions[c][3] == 0)
        elif board.farms == "2nd":
            for seat in winners:
                paid.setdefault(seat, set()).update(c for c in cities if regions[c][3] == 0)
            continue
        else:
            # 1st: counted city by city below.
            for c in cities:
                if regions[c][3] == 0:
                    farmers.setdefault(c, []).extend(seats)
            continue
        for seat in winners:
            totals[seat] += points
    for seat, paidFor in paid.items():
        totals[seat] += 3 * len(paidFor)
    for seats in farmers.values():
        counts = Counter(seats)
        for seat in [s for s, n in counts.items() if n == max(counts.values())]:
            totals[seat] += 4
    return totals


def _randomMove(game: CarcassonneGame, rng: random.Random) -> dict:
    """A random legal move (tile, place, orientation, maybe a follower)."""
    tile = game.tile
    if game.named:
        names = [t for t in sorted(game.remaining) if game.remaining[t] > 0
                 and game.board.placeable(t)]
        tile = rng.choice(names)
    assert tile is not None
    x, y, o = rng.choice(game.board.placements(tile))
    zones = game.board.followerZones(tile, x, y, o) if game.left[game.turn] else []
    zone = rng.choice(zones + [None]) if zones else None
    return _move(tile, x, y, o, zone)


class PropertyTests(SynchronousTestCase):
    """Whole games, random and by the bot, checked as they go."""

    def play(self, game: CarcassonneGame, rng: random.Random | None,
             limit: int = 200) -> list[RecordedAction]:
        """Play to the end (bot, or random moves), checking every step."""
        actions: list[RecordedAction] = []
        scores = list(game.scores)
        total = Counter({n: t.count for n, t in TILES.items()})
        for _ in range(limit):
            if game.over:
                break
            seat = game.turn
            view = game.view(seat)
            self.assertIsInstance(view, CarcassonneView)
            move = carcassonneBot(view, seat) if rng is None else _randomMove(game, rng)
            result = game.act(seat, move)
            self.assertIsInstance(result, Instructions, (move, result))
            actions.append(RecordedAction(seat, move, float(len(actions))))
            # Tile conservation: placed + left in the pile + discarded = 72, type by type.
            placed = Counter(p.tile for p in game.board.tiles.values())
            self.assertEqual(placed + game.remaining + Counter(game.discarded), total)
            # Scores never decrease.
            self.assertTrue(all(a <= b for a, b in zip(scores, game.scores)))
            scores = list(game.scores)
            # Followers: 7 each, those standing plus those left.
            standing = Counter(s for s, _ in game.board.followers.values())
            for s in range(game.players):
                self.assertEqual(standing[s] + game.left[s], FOLLOWERS)
            # No completed road or city, no surrounded cloister, still holds a follower.
            for region in game.board.regions.values():
                if region.followers and region.kind != "field":
                    self.assertFalse(region.complete)
                if region.followers and region.kind == "cloister":
                    self.assertLess(game.board.surrounding(region.followers[0][1]), 9)
            for who in (None,) + tuple(range(game.players)):
                self.assertIsInstance(game.display(who), Display)
        self.assertTrue(game.over)
        return actions

    def checkFinals(self, game: CarcassonneGame) -> None:
        """The final scores equal what an independent region walk finds."""
        totals: Counter[int] = Counter()
        for score in game.finals:
            for seat in score.seats:
                totals[seat] += score.points
        self.assertEqual(+totals, +_walkFinals(game.board))

    @settings(max_examples=8)
    @given(st.integers(2, 5), st.integers(0, 2**32), st.sampled_from(["seeded", "named"]),
           st.sampled_from(["3rd", "2nd", "1st", "none"]))
    def test_botGamesReplay(self, players: int, seed: int, pile: str, farms: str) -> None:
        """A bot game (2-5 players): never refused, conserved, replays exactly."""
        game = _start(players, pile, farms, seed)
        actions = self.play(game, None)
        self.checkFinals(game)
        record = GameRecord(1, "carcassonne", dict(game.params), dict(game.initvalues),
                            [f"p{n}" for n in range(players)], 0.0, actions)
        again = cast(CarcassonneGame, replay(CARCASSONNE, record))
        self.assertEqual(again.scores, game.scores)
        self.assertEqual({k: (p.tile, p.orientation) for k, p in again.board.tiles.items()},
                         {k: (p.tile, p.orientation) for k, p in game.board.tiles.items()})
        self.assertEqual(again.board.followers, game.board.followers)
        self.assertTrue(again.over)
        half = cast(CarcassonneGame, replay(CARCASSONNE, record, turn=len(actions) // 2))
        self.assertEqual(len(half.board.tiles), 1 + len(actions) // 2)

    @settings(max_examples=15)
    @given(st.integers(2, 5), st.integers(0, 2**32), st.sampled_from(["seeded", "named"]),
           st.sampled_from(["3rd", "2nd", "1st", "none"]))
    def test_randomGames(self, players: int, seed: int, pile: str, farms: str) -> None:
        """Random legal moves: conservation, growing scores, the union-find agrees with a walk."""
        game = _start(players, pile, farms, seed)
        rng = random.Random(seed)
        self.play(game, rng)
        self.checkFinals(game)
        # Every feature: the union-find's tiles, shields, open sides and
        # followers are the walk's.
        walked = sorted((k, tuple(sorted(t)), s, o if k in ("city", "road") else 0,
                         tuple(sorted(seats)))
                        for k, t, s, o, seats, _ in _walk(game.board))
        found = sorted((r.kind, tuple(sorted(r.tiles)), r.shields, r.open,
                        tuple(sorted(seat for seat, _ in r.followers)))
                       for r in game.board.regions.values())
        self.assertEqual(walked, found)

    def test_botScoresBetterThanRandom(self) -> None:
        """Sensible moves: over a few games the bot outscores a random player."""
        botTotal = randomTotal = 0
        for seed in range(4):
            game = _start(2, "seeded", "3rd", seed)
            rng = random.Random(seed)
            while not game.over:
                seat = game.turn
                bot = (seat == seed % 2)
                move = carcassonneBot(game.view(seat), seat) if bot else _randomMove(game, rng)
                self.assertIsInstance(game.act(seat, move), Instructions)
            botTotal += game.scores[seed % 2]
            randomTotal += game.scores[1 - seed % 2]
        self.assertGreater(botTotal, randomTotal)

    def test_botPutsAFollowerWhereItScores(self) -> None:
        """Given tile-e next to the start's unclaimed city, the bot closes it with a knight: 4."""
        game = _start()
        move = carcassonneBot(attrs.evolve(game.view(0), tile="tile-e"), 0)
        self.assertEqual((move["x"], move["y"], move["orientation"]), (73, 72, "E"))
        self.assertIn(move["zone"], ("WL", "W", "WR"))
        self.assertIsInstance(game.act(0, move), Instructions)
        self.assertEqual(game.scores, [4, 0])
        self.assertEqual(game.left, [FOLLOWERS, FOLLOWERS])

    def test_botNamesOnlyTilesLeft(self) -> None:
        """
        A named pile: the bot draws among the tile types with a copy left
        that fit, whatever else the view lists; none left: no move.
        """
        game = _start()
        view = attrs.evolve(game.view(0), remaining={"tile-c": 0, "tile-b": 2, "tile-x": 0})
        for placed in range(20):
            move = carcassonneBot(attrs.evolve(view, placed=placed), 0)
            self.assertEqual(move["tile"], "tile-b")
        self.assertIsNone(carcassonneBot(attrs.evolve(view, remaining={"tile-c": 0}), 0))
        self.assertIsNone(carcassonneBot(attrs.evolve(view, remaining={}), 0))

    def test_botCompletesItsCity(self) -> None:
        """Given tile-e and its own open city next door, the bot closes it and scores."""
        game = _start()
        game.act(0, _move("tile-f", 73, 72, "N", "C"))   # P1 holds an open city
        game.act(1, _move("tile-b", 71, 72, "N"))
        view = attrs.evolve(game.view(0), tile="tile-e")
        move = carcassonneBot(view, 0)
        self.assertEqual((move["tile"], move["x"], move["y"], move["orientation"]),
                         ("tile-e", 74, 72, "E"))


class EngineTests(SynchronousTestCase):
    """The engine contract: parameters, initvalues, the page's actions, displays."""

    def test_registered(self) -> None:
        self.assertIn(CARCASSONNE, engines())

    def test_parameters(self) -> None:
        self.assertIsInstance(CARCASSONNE.start({"players": 6}), Errors)
        self.assertIsInstance(CARCASSONNE.start({"players": 1}), Errors)
        bad = CARCASSONNE.start({"farms": "4th"})
        self.assertIsInstance(cast(Errors, bad).errors[0], IncorrectValue)
        self.assertIsInstance(cast(Errors, CARCASSONNE.start({"x": 1})).errors[0],
                              UnexpectedArgument)
        game = CARCASSONNE.start({})
        self.assertIsInstance(game, CarcassonneGame)
        self.assertEqual(cast(CarcassonneGame, game).params,
                         {"players": 2, "farms": "3rd", "pile": "seeded", "referee": "on"})

    def test_initvaluesRebuildTheGame(self) -> None:
        first = _start(3, "seeded", seed=5)
        pile = first.initvalues["pile"]
        self.assertEqual(Counter(pile), fullPile())
        again = CARCASSONNE.start(dict(first.params), dict(first.initvalues))
        self.assertEqual(cast(CarcassonneGame, again).order, first.order)
        fromSeed = CARCASSONNE.start(dict(first.params), {"seed": first.initvalues["seed"]})
        self.assertEqual(cast(CarcassonneGame, fromSeed).order, first.order)
        wrong = CARCASSONNE.start(dict(first.params), {"seed": 1, "pile": ["tile-a"]})
        self.assertIsInstance(cast(Errors, wrong).errors[0], IncorrectValue)

    def test_hiddenPile(self) -> None:
        """The seeded pile's order is hidden while live; every move is public."""
        self.assertTrue(hasHiddenInformation(CARCASSONNE))
        self.assertTrue(isPublicAction(CARCASSONNE, 0, _move("tile-a", 1, 2, "N")))
        game = _start(pile="seeded")
        view = game.view(1)
        self.assertFalse(hasattr(view, "order"))
        text = repr(game.display(None).asJSON())
        self.assertNotIn(repr(game.order[5:]), text)

    def test_pageFlow(self) -> None:
        """Rotate with a key, click a lit place, click a zone for a follower."""
        game = _start(pile="seeded", seed=3)
        tile = game.tile
        assert tile is not None
        requested = game.instructions().requested_actions
        self.assertEqual({r.type for r in requested}, {"CLICK", "KEY"})
        self.assertEqual(game.decodeAction(0, {"type": "KEY", "key": "r"}), {"rotate": 1})
        self.assertIsInstance(game.act(0, {"rotate": 1}), Instructions)
        self.assertEqual(game.orientation, "W")
        self.assertIsInstance(game.decodeAction(1, {"type": "KEY", "key": "r"}), Errors)
        self.assertIsInstance(game.decodeAction(0, {"type": "KEY", "key": "z"}), Errors)
        # Find an orientation with a legal place, then click it.
        while not game.board.placements(tile) or not any(
                o == game.orientation for _, _, o in game.board.placements(tile)):
            game.act(0, {"rotate": 1})
        target, move = next((z, m) for z, m in game._targets() if "place" in m)
        decoded = game.decodeAction(0, {"type": "CLICK", "x": target.x + 1, "y": target.y + 1})
        self.assertEqual(decoded, move)
        self.assertIsInstance(game.act(0, decoded), Instructions)
        self.assertEqual(game.phase, "follower")
        self.assertIsInstance(game.display(0), Display)
        # Back, and again.
        self.assertIsInstance(game.act(0, {"back": True}), Instructions)
        self.assertEqual(game.phase, "place")
        game.act(0, decoded)
        targets = game._targets()
        zoneTarget = next(((z, m) for z, m in targets if m.get("follower")), None)
        if zoneTarget is None:
            zoneTarget = next((z, m) for z, m in targets if "follower" in m)
        z, m = zoneTarget
        decoded = game.decodeAction(0, {"type": "CLICK", "x": z.x + 1, "y": z.y + 1})
        self.assertEqual(decoded, m)
        result = game.act(0, decoded)
        self.assertIsInstance(result, Instructions)
        self.assertEqual(len(game.board.tiles), 2)
        self.assertEqual(game.turn, 1)
        self.assertIsInstance(game.decodeAction(1, {"type": "CLICK", "x": -5, "y": -5}), Errors)

    def test_pageTargetsOff(self) -> None:
        """
        Without the page's targets the CLICK asked has no zones; a click is
        decoded as with them, and the named pile's tile is the first that fits.
        """
        shown, bare = _start(), _start()
        bare.pageTargets = False
        [click] = [r for r in bare.instructions().requested_actions if r.type == "CLICK"]
        self.assertIsNone(click.zones)
        [lit] = [r for r in shown.instructions().requested_actions if r.type == "CLICK"]
        assert lit.zones
        self.assertEqual(bare.tile, shown.tile)
        self.assertEqual(bare.tile, min(t for t, n in bare.remaining.items()
                                        if n > 0 and bare.board.placeable(t)))
        for zone in lit.zones:
            action = {"type": "CLICK", "x": zone.x + 1, "y": zone.y + 1}
            self.assertEqual(bare.decodeAction(0, action), shown.decodeAction(0, action))

    def test_namedPileCycles(self) -> None:
        game = _start(pile="named")
        first = game.tile
        self.assertEqual(game.decodeAction(0, {"type": "KEY", "key": "t"}), {"cycle": 1})
        game.act(0, {"cycle": 1})
        self.assertNotEqual(game.tile, first)

    def test_resign(self) -> None:
        game = _start(3)
        game.resign(0)
        self.assertEqual(game.turn, 1)
        self.assertFalse(game.over)
        game.act(1, _move("tile-b", 71, 72, "N"))
        self.assertEqual(game.turn, 2)
        game.act(2, _move("tile-b", 70, 72, "N"))
        self.assertEqual(game.turn, 1)
        game.resign(2)
        self.assertTrue(game.over)
        self.assertEqual(game.instructions().requested_actions, ())

    def test_unplaceableTileDiscarded(self) -> None:
        """[placing] Seeded pile: a drawn tile that fits nowhere is put aside, the next drawn."""
        game = _start(pile="seeded")
        game.board.frontier = {(71, 72)}  # only the start tile's field edge is open
        game.order[game.next:game.next + 2] = ["tile-c", "tile-b"]
        events = game._draw()
        self.assertEqual(game.discarded, ["tile-c"])
        self.assertEqual(game.tile, "tile-b")
        self.assertEqual([(e.kind, e.data) for e in events],
                         [("discard", "tile-c"), ("draw", "tile-b")])

    @settings(max_examples=10)
    @given(st.integers(0, 2**32), st.sampled_from(["seeded", "named"]), st.integers(2, 5))
    def test_pageActions(self, seed: int, pile: str, players: int) -> None:
        """
        Random page actions (clicks anywhere or in a requested zone, keys):
        decodeAction never fails, and what it decodes the game accepts.
        """
        rng = random.Random(seed)
        game = _start(players, pile, seed=seed)
        for _ in range(150):
            if game.over:
                break
            seat = game.turn if rng.random() < 0.9 else rng.randrange(players)
            requested = game.instructions().requested_actions
            click = [r for r in requested if r.type == "CLICK"][0]
            keys = [r for r in requested if r.type == "KEY"][0].keys or ""
            choice = rng.random()
            action: dict[str, Any]
            if choice < 0.6 and click.zones:
                zone = rng.choice(click.zones)
                action = {"type": "CLICK", "x": zone.x + zone.width / 2,
                          "y": zone.y + zone.height / 2}
            elif choice < 0.8:
                display = game.display(seat)
                action = {"type": "CLICK", "x": rng.uniform(-10, display.width + 10),
                          "y": rng.uniform(-10, display.height + 10)}
            else:
                action = {"type": "KEY", "key": rng.choice(keys + "zq")}
            decoded = game.decodeAction(seat, action)
            if isinstance(decoded, Errors):
                continue
            self.assertEqual(seat, game.turn)
            self.assertIsInstance(game.act(seat, decoded), Instructions, decoded)
            self.assertIsInstance(game.display(seat), Display)

    def test_endsWhenNoTileFits(self) -> None:
        """Named pile: the game ends when no tile left fits anywhere."""
        game = _start()
        game.remaining = Counter({"tile-c": 1})
        game.board.frontier = {(71, 72)}  # only a field edge is open
        game._draw()
        self.assertTrue(game.over)


class HostedTests(SynchronousTestCase):
    """The engine JSON protocol hosts carcassonne: a seeded pile, 2 to 5 players."""

    def test_clickAgainstBots(self) -> None:
        """
        A JSON player against two bots plays the whole game by clicks (a lit
        place, else a turn of the tile; then a zone or "no follower"), and
        the record replays.
        """
        import json

        from twisted.internet.task import Clock
        from twisted.internet.testing import StringTransport

        from gameproto.engine.hub import Hub, HubSettings
        from gameproto.engine.record import MemoryRecordStore
        from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory

        clock, store = Clock(), MemoryRecordStore()
        hub = Hub(clock, store, random.Random(3), None, settings=HubSettings())
        protocol = EngineJsonServerFactory(EngineJsonServer(hub=hub)).buildProtocol(None)
        assert protocol is not None
        transport = StringTransport()
        protocol.makeConnection(transport)
        log: list[dict[str, Any]] = []

        def send(message: dict[str, Any]) -> None:
            protocol.dataReceived(json.dumps(message).encode() + b"\n")
            clock.advance(0)

        def received() -> None:
            clock.advance(0)
            log.extend(json.loads(line) for line in transport.value().splitlines())
            transport.clear()

        send({"type": "create", "engine": "carcassonne", "init": {"players": 3},
              "bots": [2, 3], "name": "alice"})
        for _ in range(2000):
            clock.advance(1)
            received()
            last = [m for m in log if m["type"] == "instructions"][-1]
            if last["game_state"]["gameover"]:
                break
            mine = [r for r in last["requested_actions"]
                    if r["player"] == 1 and r["type"] == "CLICK"]
            if not mine:
                continue
            zone = mine[0]["zones"][0]
            send({"type": "action", "action": {
                "type": "CLICK", "x": zone["x"] + zone["width"] / 2,
                "y": zone["y"] + zone["height"] / 2, "button": "LEFT"}})
        ended = [m for m in log if m["type"] == "ended"][-1]
        self.assertEqual(ended["error"], None)
        self.assertFalse([m for m in log if m["type"] == "error"])
        record = store.get(ended["game"])
        assert record is not None
        self.assertEqual(record.engine, "carcassonne")
        again = cast(CarcassonneGame, replay(CARCASSONNE, record))
        self.assertTrue(again.over)
        self.assertEqual(list(again.scores), ended["scores"])
        self.assertEqual(len(again.board.tiles) + len(again.discarded), 72)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=True)
    | st.sampled_from(["N", "E", "S", "W", "C", "SR", "tile-a", "tile-d", "", "null"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                 max_size=3),
    max_leaves=8)
_KEYS = ["tile", "x", "y", "orientation", "zone", "rotate", "place", "follower", "back",
         "cycle"]


class BadInputTests(SynchronousTestCase):
    """Any JSON as a move: the contract's errors or a step, never an exception."""

    @settings(max_examples=300)
    @example({"rotate": 1.0}, "seeded", True)
    @example({"x": 73, "y": 72, "orientation": ["E"], "zone": None}, "seeded", True)
    @example({"tile": "tile-e", "x": 73, "y": 72, "orientation": "E", "zone": {}}, "named", True)
    @example({"place": [73.0, 72]}, "seeded", True)
    @example({"follower": ["N"]}, "seeded", False)
    @given(st.one_of(_JSON, st.dictionaries(st.sampled_from(_KEYS), _JSON, max_size=5)),
           st.sampled_from(["seeded", "named"]), st.booleans())
    def test_anyAction(self, action: Any, pile: str, placing: bool) -> None:
        game = _start(pile=pile)
        if not placing:
            tile = game.tile
            assert tile is not None
            x, y, o = game.board.placements(tile)[0]
            game.orientation = o
            game.act(0, {"place": [x, y]})
        tiles = len(game.board.tiles)
        result = game.act(0, action)
        self.assertIsInstance(result, (Instructions, Errors))
        if isinstance(result, Errors):
            self.assertEqual(len(game.board.tiles), tiles)
        self.assertIsInstance(game.display(0), Display)


def _texts(result: Instructions | Errors) -> list[str | None]:
    """The words of each error of ``result`` (errors expected)."""
    assert isinstance(result, Errors), result
    return [getattr(error, "text", None) for error in result.errors]


def _prompts(game: CarcassonneGame) -> dict[str, str | None]:
    """The prompt of each request asked now, by its type."""
    return {r.type: r.prompt for r in game.instructions().requested_actions}


def _said(game: CarcassonneGame) -> str | None:
    return game.instructions().game_state.text


class WordsTests(SynchronousTestCase):
    """What the engine says for people: its prompts, its refusals and each step."""

    def test_promptsWhilePlacing(self) -> None:
        """Where to click for the tile, how to turn it; the arrows when it fits nowhere as turned."""
        game = _start(pile="seeded", seed=3)
        for _ in range(4):  # till the tile fits somewhere as it is turned
            if any("place" in move for _, move in game._targets()):
                break
            game.act(0, {"rotate": 1})
        self.assertEqual(_prompts(game), {
            "CLICK": "click a place outlined in green for the tile",
            "KEY": "press R or L (or click an arrow) to turn it"})
        # The named pile's first tile, tile-a, fits nowhere turned to E.
        named = _start()
        self.assertEqual((named.tile, named.orientation), ("tile-a", "N"))
        self.assertEqual(_prompts(named)["KEY"],
                         "press R or L (or click an arrow) to turn it, T for another tile")
        named.act(0, {"rotate": -1})
        self.assertEqual(named.orientation, "E")
        self.assertEqual(_prompts(named), {
            "CLICK": "click an arrow to turn the tile, which fits nowhere as it is",
            "KEY": "press R or L, T for another tile"})

    def test_promptsForTheFollower(self) -> None:
        """A white square for a follower, or none; why none may stand on the tile."""
        game = _start()
        game.act(0, {"place": [71, 72]})  # tile-a turned N, west of the start tile
        self.assertEqual(_prompts(game), {
            "CLICK": "click a white square on the tile for a follower",
            "KEY": "press N (or click “no follower”) for none, B (or “back”) to move the tile"})
        game.left[0] = 0  # as after placing all seven
        self.assertEqual(_prompts(game), {
            "CLICK": "you have no follower left: click “no follower”",
            "KEY": "press N, or B (or “back”) to move the tile"})
        # Without farmers, a straight road that extends a held road leaves no room.
        farmless = _start(farms="none")
        self.assertIsInstance(farmless.act(0, _move("tile-u", 72, 71, "N", "N")), Instructions)
        while farmless.tile != "tile-u":
            farmless.act(1, {"cycle": 1})
        farmless.act(1, {"place": [72, 73]})
        self.assertEqual(_prompts(farmless)["CLICK"],
                         "no follower may stand on this tile: click “no follower”")
        # Without the page's targets, the prompts say what is asked in general.
        bare = _start()
        bare.pageTargets = False
        bare.act(0, {"rotate": -1})
        self.assertEqual(_prompts(bare)["CLICK"], "click a place outlined in green for the tile")

    def test_refusedMovesInWords(self) -> None:
        """Each rule a whole move breaks, in a sentence."""
        game = _start()
        refusals = {
            "A tile already lies there.": _move("tile-b", 72, 72, "N"),
            "The tile must touch a tile already placed, side to side.": _move("tile-b", 80, 80, "N"),
            "Turned this way the tile does not fit there: each side must match the side it "
            "touches (city to city, road to road, field to field).": _move("tile-e", 73, 72, "N"),
            "There is no tile named tile-z.": _move("tile-z", 73, 72, "E"),
            "There is nothing on the tile there for a follower to stand on.":
                _move("tile-e", 73, 72, "E", "C"),
        }
        for text, move in refusals.items():
            self.assertEqual(_texts(game.act(0, move)), [text], move)
        self.assertEqual(_texts(game.act(1, _move("tile-e", 73, 72, "E"))),
                         ["It is not your turn."])
        # tile-c is all city: against the start tile's road it never fits.
        self.assertEqual(_texts(game.act(0, _move("tile-c", 72, 71, "N"))), [
            "The tile does not fit there however it is turned: each side must match the side "
            "it touches (city to city, road to road, field to field)."])
        game.act(0, _move("tile-c", 73, 72, "N"))
        self.assertEqual(_texts(game.act(1, _move("tile-c", 74, 72, "N"))),
                         ["None is left of that tile (a four-sided city with a shield)."])
        # Followers.
        game = _start()
        game.act(0, _move("tile-u", 72, 71, "N", "N"))
        self.assertEqual(_texts(game.act(1, _move("tile-u", 72, 73, "N", "S"))),
                         ["That road already has a follower: choose another place, or none."])
        game.left[1] = 0
        self.assertEqual(_texts(game.act(1, _move("tile-u", 72, 73, "N", "E"))),
                         ["You have no follower left: place the tile without one."])
        farmless = _start(farms="none")
        self.assertEqual(_texts(farmless.act(0, _move("tile-u", 72, 71, "N", "E"))), [
            "This game is played without farmers: no follower may stand on a field."])
        seeded = _start(pile="seeded", seed=7)
        drawn = seeded.tile
        assert drawn is not None
        x, y, o = seeded.board.placements(drawn)[0]
        other = next(t for t in TILES if t != drawn)
        self.assertEqual(_texts(seeded.act(0, _move(other, x, y, o))),
                         [f"The tile to place is {TILE_WORDS[drawn]}."])

    def test_refusedStepsInWords(self) -> None:
        """The page's steps, and the clicks and keys that make them, refused in sentences."""
        game = _start()
        self.assertEqual(_texts(game.act(0, {"follower": None})), ["Not now: place the tile first."])
        self.assertEqual(_texts(game.act(0, {"place": [72, 72]})), ["A tile already lies there."])
        left, top, _, _, cell = game._layout()
        onStart = {"type": "CLICK", "x": (72 - left + 0.5) * cell, "y": (72 - top + 0.5) * cell}
        self.assertEqual(_texts(game.decodeAction(0, onStart)), ["A tile already lies there."])
        far = {"type": "CLICK", "x": 0, "y": 0}  # a corner of the board: no neighbour
        self.assertEqual(_texts(game.decodeAction(0, far)),
                         ["The tile must touch a tile already placed, side to side."])
        self.assertEqual(_texts(game.decodeAction(0, {**onStart, "button": "RIGHT"})),
                         ["Only the left mouse button plays."])
        self.assertEqual(_texts(game.decodeAction(0, {"type": "KEY", "key": "n"})),
                         ["That key does nothing now: R and L turn the tile, T shows another one."])
        self.assertEqual(_texts(game.decodeAction(0, {"type": "TEXT", "text": "N"})),
                         ["Click on the board or press a key: nothing is typed in this game."])
        self.assertEqual(_texts(game.decodeAction(1, {"type": "KEY", "key": "r"})),
                         ["It is not your turn."])
        game.act(0, {"place": [71, 72]})
        self.assertEqual(_texts(game.act(0, {"rotate": 1})),
                         ["Not now: choose a follower for the tile, none, or take the tile back."])
        self.assertEqual(_texts(game.decodeAction(0, {"type": "KEY", "key": "r"})),
                         ["That key does nothing now: N plays no follower, B takes the tile back."])
        self.assertEqual(_texts(game.decodeAction(0, far)), [
            "Click a white square on the tile for a follower, “no follower” or “back”."])
        seeded = _start(pile="seeded")
        self.assertEqual(_texts(seeded.act(0, {"cycle": 1})),
                         ["The tile is drawn from the pile: it cannot be exchanged."])
        self.assertEqual(_texts(seeded.decodeAction(0, {"type": "KEY", "key": "t"})),
                         ["That key does nothing now: R and L turn the tile."])
        over = _over()
        self.assertEqual(_texts(over.act(0, {"rotate": 1})), ["The game is over."])
        self.assertEqual(_texts(over.decodeAction(0, {"type": "KEY", "key": "r"})),
                         ["The game is over."])

    @settings(max_examples=20)
    @given(st.integers(0, 2**32), st.sampled_from(["seeded", "named"]), st.integers(2, 4))
    def test_everyRefusalInWords(self, seed: int, pile: str, players: int) -> None:
        """
        Random clicks, keys and whole moves from any seat: every refusal of
        a requested action is a sentence, with nothing of JSON or of
        coordinates in it.
        """
        rng = random.Random(seed)
        game = _start(players, pile, seed=seed)
        for _ in range(60):
            if game.over:
                break
            seat = game.turn if rng.random() < 0.8 else rng.randrange(players)
            display = game.display(seat)
            choice = rng.random()
            if choice < 0.5:
                action: dict[str, Any] = {
                    "type": "CLICK", "x": rng.uniform(-10, display.width + 10),
                    "y": rng.uniform(-10, display.height + 10),
                    "button": rng.choice(["LEFT", "LEFT", "RIGHT"])}
                result = game.decodeAction(seat, action)
            elif choice < 0.7:
                result = game.decodeAction(seat, {"type": "KEY", "key": rng.choice("rltnbzq")})
            else:
                x, y = rng.randrange(69, 76), rng.randrange(69, 76)
                result = game.act(seat, _move(game.tile or "tile-a", x, y,
                                              rng.choice("NESW"), rng.choice([None, "C", "N"])))
            if isinstance(result, Errors):
                for error in result.errors:
                    self.assertIsInstance(error, (WrongAction, UnexpectedAction))
                    text = cast(str, getattr(error, "text"))
                    self.assertRegex(text, r"^[A-Z][^{}\[\]]*\.$")
                    self.assertNotRegex(text, r"\d+, \d+|\(\d")
                    self.assertNotIn("tile-", text)  # the tile in words
                continue
            if isinstance(result, dict) or result is None:  # a step decoded: play it
                result = game.act(seat, result)
            self.assertIsInstance(result, Instructions)

    def test_stepsInWords(self) -> None:
        """The game state's text tells the last step, and instructions repeat it."""
        game = _start()
        self.assertIsNone(_said(game))
        game.act(0, {"rotate": 1})
        self.assertEqual(_said(game), "player 1 turned the tile")
        game.act(0, {"cycle": 1})
        self.assertEqual(_said(game), "player 1 took another tile")
        game.act(0, {"rotate": -1})
        game.act(0, {"place": [71, 72]})
        self.assertEqual(_said(game), "player 1 put the tile down")
        game.act(0, {"back": True})
        self.assertEqual(_said(game), "player 1 took the tile back")
        self.assertIsInstance(game.act(0, {"place": [71, 72]}), Instructions)
        self.assertIsInstance(game.act(0, {"follower": None}), Instructions)
        self.assertEqual(_said(game), "player 1 placed a tile")
        refused = game.act(0, {"rotate": 1})  # not player 1's turn: nothing said
        self.assertIsInstance(refused, Errors)
        self.assertEqual(_said(game), "player 1 placed a tile")

    def test_movesAndScoresInWords(self) -> None:
        """A follower's place, and who scored what, the tied players each."""
        game = _start()
        result = game.act(0, _move("tile-e", 73, 72, "E", "W"))
        self.assertEqual(cast(Instructions, result).game_state.text,
                         "player 1 placed a tile and a follower in a city; "
                         "player 1 scored 4 for a city")
        # The road of ScoringTests.test_tieScoresInFull, played in turns.
        game = _start()
        game.act(0, _move("tile-a", 72, 71, "N", "S"))
        self.assertEqual(_said(game), "player 1 placed a tile and a follower on a road")
        game.act(1, _move("tile-v", 71, 72, "N", "W"))
        game.act(0, _move("tile-v", 71, 73, "S"))
        game.act(1, _move("tile-v", 72, 73, "W"))
        game.act(0, _move("tile-a", 70, 72, "E"))
        self.assertEqual(_said(game), "player 1 placed a tile; "
                                      "player 1 and player 2 scored 6 each for a road")
        game.act(1, _move("tile-b", 71, 71, "N", "C"))
        self.assertEqual(_said(game), "player 2 placed a tile and a follower in a cloister")
        # A farmer: tile-e closes the start tile's city (nobody's: no score said).
        game.act(0, _move("tile-e", 73, 72, "E", "E"))
        self.assertEqual(_said(game), "player 1 placed a tile and a follower on a field")

    def test_tileToPlaceInWords(self) -> None:
        """
        The panel names the tile to place in words, on two lines when they
        are long (the first in the margin above), never by its id.
        """
        game = _start(pile="seeded", seed=7)
        long = False
        for _ in range(30):
            tile = game.tile
            assert tile is not None
            display = game.display(game.turn)
            texts = [str(t["content"]) for t in display.content if t["tag"] == "text"]
            self.assertEqual([t for t in texts if "tile-" in t], [])
            expected = f"P{game.turn + 1} places {TILE_WORDS[tile]}"
            lines = 2 if len(expected) > 32 else 1
            long = long or lines == 2
            self.assertEqual(" ".join(texts[:lines]), expected)
            self.assertTrue(all(len(t) <= 32 for t in texts[:lines]), texts[:lines])
            self.assertTrue(all(t["y"] > 0 for t in display.content  # type: ignore[operator]
                                if t["tag"] == "text"))
            game.act(game.turn, carcassonneBot(game.view(game.turn), game.turn))
        self.assertTrue(long)

    def test_discardInWords(self) -> None:
        """[placing] A drawn tile that fits nowhere is put aside, and the words say so."""
        game = _start(pile="seeded")
        tile = game.tile
        assert tile is not None
        x, y, o = game.board.placements(tile)[0]
        # The next tiles drawn: tile-c, as if it fitted nowhere, then tile-b.
        game.order[game.next + 1:game.next + 3] = ["tile-c", "tile-b"]
        game.board.placeable = lambda tile: tile != "tile-c"  # type: ignore[method-assign]
        game.act(0, _move(tile, x, y, o))
        self.assertEqual((game.discarded, game.tile), (["tile-c"], "tile-b"))
        self.assertEqual(_said(game), "player 1 placed a tile; a four-sided city with a shield "
                                      "fits nowhere: it is put aside")

    def test_endingsInWords(self) -> None:
        """Why the game ended: the pile, no tile that fits, a player who gave up."""
        over = _over()
        self.assertEqual(_said(over), "the pile is empty")
        stuck = _start()
        stuck.remaining = Counter({"tile-c": 1})
        stuck.board.frontier = {(71, 72)}  # only a field edge is open
        stuck._draw()
        self.assertEqual(_said(stuck), "no tile left fits on the board")
        three = _start(3)
        three.resign(0)
        self.assertFalse(three.over)
        self.assertEqual(_said(three), "player 1 gave up")
        three.resign(2)
        self.assertTrue(three.over)
        self.assertEqual(_said(three), "player 3 gave up")


def _over() -> CarcassonneGame:
    """A seeded two-player game played to its end by the engine's bot."""
    game = _start(pile="seeded", seed=11)
    while not game.over:
        move = carcassonneBot(game.view(game.turn), game.turn)
        assert isinstance(game.act(game.turn, move), Instructions)
    return game
