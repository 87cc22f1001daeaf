"""
The Carcassonne rules engine's fast paths give what the plain ways give:
the touching zones from the turned tiles' side tables, a follower's place
checked on its region alone, the named pile's draw, the scores a placed
tile asks, and what is asked of the mover without zones made once per
mover and step.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Instructions
from gameproto.games import carcassonne
from gameproto.games.carcassonne import (
    CITY,
    EDGE_ZONES,
    ROAD,
    TILES,
    ZONES,
    Board,
    CarcassonneGame,
    _facing,
    _winners,
    carcassonneBot,
)

from .test_games_carcassonne import _start


def plainConnections(board: Board, tile: str, orientation: str, x: int,
                     y: int) -> list[tuple[int, int, bool]]:
    """The touching zone pairs as the engine first found them, zone by zone."""
    oriented = TILES[tile].oriented(orientation)
    found: list[tuple[int, int, bool]] = []
    for side, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
        other = board.tiles.get((x + dx, y + dy))
        if other is None:
            continue
        theirs = TILES[other.tile].oriented(other.orientation)
        pairs: dict[tuple[int, int], bool] = {}
        for half in range(3):
            index = 3 * side + half
            mine = oriented.zoneFeature[EDGE_ZONES[index]]
            node = other.nodes[theirs.zoneFeature[EDGE_ZONES[_facing(index)]]]
            closes = half == 1 and oriented.features[mine].kind in (CITY, ROAD)
            pairs[(mine, node)] = pairs.get((mine, node), False) or closes
        found.extend((mine, node, closes) for (mine, node), closes in pairs.items())
    return found


def played(seed: int, moves: int, farms: str = "3rd", bot: bool = False) -> CarcassonneGame:
    """A named-pile game after ``moves`` moves, random (from ``seed``) or the bot's."""
    game = _start(2, "named", farms)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        seat = game.turn
        move = carcassonneBot(game.view(seat), seat) if bot else randomMove(game, seat, rng)
        assert isinstance(game.act(seat, move), Instructions), move
    return game


def randomMove(game: CarcassonneGame, seat: int, rng: random.Random) -> dict[str, object]:
    """A legal move for ``seat``, chosen by ``rng``: any tile left that fits, anywhere."""
    tile = rng.choice([t for t in sorted(game.remaining)
                       if game.remaining[t] > 0 and game.board.placeable(t)])
    x, y, o = rng.choice(game.board.placements(tile))
    zones = game.board.followerZones(tile, x, y, o) if game.left[seat] else []
    return {"tile": tile, "x": x, "y": y, "orientation": o, "zone": rng.choice([*zones, None])}


class BoardTests(SynchronousTestCase):
    """The board's fast paths against the plain ways, on boards of random games."""

    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 10_000), st.integers(0, 70), st.sampled_from(["3rd", "none"]),
           st.booleans())
    def test_sameAsPlain(self, seed: int, moves: int, farms: str, bot: bool) -> None:
        """
        For every tile, every place it fits and every zone: the same
        touching pairs, in the same order, as zone by zone, and a follower
        may stand exactly where L{Board.followerZones} says.
        """
        board = played(seed, moves, farms, bot).board
        for tile in TILES:
            for x, y, orientation in board.placements(tile):
                self.assertEqual(board._connections(tile, orientation, x, y),
                                 plainConnections(board, tile, orientation, x, y))
                zones = board.followerZones(tile, x, y, orientation)
                for zone in ZONES:
                    self.assertEqual(board.mayStand(tile, x, y, orientation, zone),
                                     zone in zones, (tile, x, y, orientation, zone))

    @settings(max_examples=20, deadline=None)
    @given(st.integers(0, 10_000), st.integers(0, 70))
    def test_placeable(self, seed: int, moves: int) -> None:
        """A tile is placeable exactly when it has a placement."""
        board = played(seed, moves).board
        for tile in TILES:
            self.assertEqual(board.placeable(tile), bool(board.placements(tile)), tile)

    @settings(max_examples=10, deadline=None)
    @given(st.integers(0, 10_000), st.booleans())
    def test_placeableMoveByMove(self, seed: int, bot: bool) -> None:
        """
        Asked again after every move of a game (where each tile fitted last
        is asked first, and may be taken or closed in since), a tile is
        placeable exactly when it has a placement.
        """
        game = _start(2, "named", "3rd")
        rng = random.Random(seed)
        while not game.over:
            board = game.board
            for tile in TILES:
                self.assertEqual(board.placeable(tile), bool(board.placements(tile)), tile)
            seat = game.turn
            if bot:
                move = carcassonneBot(game.view(seat), seat)
            else:
                tile = rng.choice([t for t in sorted(game.remaining)
                                   if game.remaining[t] > 0 and board.placeable(t)])
                x, y, o = rng.choice(board.placements(tile))
                move = {"tile": tile, "x": x, "y": y, "orientation": o, "zone": None}
            assert isinstance(game.act(seat, move), Instructions), move


class GameTests(SynchronousTestCase):
    """The game's fast paths against the plain ways."""

    @given(st.lists(st.integers(0, 4), max_size=12))
    def test_winners(self, followers: list[int]) -> None:
        """A feature's winners: the seats with the most followers there, counted plainly."""
        counts = Counter(followers)
        most = max(counts.values(), default=0)
        self.assertEqual(_winners(iter(followers)),
                         tuple(sorted(s for s, n in counts.items() if n == most)))

    @settings(max_examples=15, deadline=None)
    @given(st.integers(0, 10_000))
    def test_scoresAsked(self, seed: int) -> None:
        """
        A placed tile asks a score only of its cities and roads, and a
        cloister's only of the cloister tiles around it where a follower
        stands: every step of a random game (the bot's moves and random
        ones: monks among the followers, cloisters, cities and roads
        completed) goes as when every feature of the tile and every tile
        with a follower around it is asked.
        """
        fast, plain = _start(3, "named"), _start(3, "named")
        rng = random.Random(seed)
        while not fast.over:
            seat = fast.turn
            if rng.random() < 0.7:  # the bot's: it fills around its monks
                move = carcassonneBot(fast.view(seat), seat)
            else:
                move = randomMove(fast, seat, rng)
            outcome = fast.act(seat, move)
            cloisters, scoring = carcassonne._CLOISTER_TILES, carcassonne._SCORING
            carcassonne._CLOISTER_TILES = frozenset(TILES)
            carcassonne._SCORING = {key: tuple(range(len(features)))
                                    for key, features in carcassonne._KINDS.items()}
            try:
                expected = plain.act(seat, move)
            finally:
                carcassonne._CLOISTER_TILES, carcassonne._SCORING = cloisters, scoring
            assert isinstance(outcome, Instructions) and isinstance(expected, Instructions)
            self.assertEqual(outcome.events, expected.events)
            self.assertEqual(outcome.game_state, expected.game_state)
        self.assertEqual(fast.board.followers, plain.board.followers)

    @settings(max_examples=15, deadline=None)
    @given(st.integers(0, 10_000), st.integers(0, 80))
    def test_drawAndFollowers(self, seed: int, moves: int) -> None:
        """
        The named pile's tile to place is the first one left, by name, that
        fits; each seat's followers left are seven less those on the board.
        """
        game = played(seed, moves)
        fitting = [t for t in sorted(game.remaining)
                   if game.remaining[t] > 0 and game.board.placeable(t)]
        self.assertEqual(game.tile, fitting[0] if fitting and not game.over else None)
        standing = [seat for seat, _ in game.board.followers.values()]
        self.assertEqual(game.left, [7 - standing.count(s) for s in range(game.players)])

    def test_askedWithoutZones(self) -> None:
        """
        With the page's zones off, each step asks what the plain way asks
        (no zones), and the game goes exactly as with them on.
        """
        plain, fast = _start(3, "named"), _start(3, "named")
        fast.pageTargets = False
        rng = random.Random(5)
        while not plain.over:
            self.assertEqual(fast._requested(), fast._asked(None))
            self.assertEqual([(r.player, r.type, r.keys) for r in fast._requested()],
                             [(r.player, r.type, r.keys) for r in plain._requested()])
            seat = plain.turn
            move = carcassonneBot(plain.view(seat), seat) if rng.random() < 0.5 else {
                "follower": None}
            outcomes = plain.act(seat, move), fast.act(seat, move)
            if isinstance(outcomes[0], Instructions) and isinstance(outcomes[1], Instructions):
                self.assertEqual(outcomes[0].events, outcomes[1].events)
                self.assertEqual(outcomes[0].game_state, outcomes[1].game_state)
            else:
                self.assertEqual(type(outcomes[0]), type(outcomes[1]))
        self.assertTrue(fast.over)
        self.assertEqual(fast.scores, plain.scores)
