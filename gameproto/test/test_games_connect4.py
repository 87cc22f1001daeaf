"""Tests for gameproto.games.connect4 (bitboard Connect Four and its bot)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.games.connect4 import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    MAX_SIZE,
    MIN_SIZE,
    Board,
    IllegalMove,
    choose_column,
    default_depth,
    timedBot,
)

Grid = list[list[int | None]]

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class ReferenceBoard:
    """Plain 2-D Connect Four: ``grid[column][row]``, row 0 at the bottom."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.grid: Grid = [[None] * height for _ in range(width)]
        self.moves = 0
        self.winner: int | None = None

    def copy(self) -> ReferenceBoard:
        other = ReferenceBoard(self.width, self.height)
        other.grid = [list(column) for column in self.grid]
        other.moves = self.moves
        other.winner = self.winner
        return other

    @property
    def turn(self) -> int:
        return self.moves % 2

    @property
    def is_full(self) -> bool:
        return all(column[-1] is not None for column in self.grid)

    def legal_columns(self) -> list[int]:
        if self.winner is not None:
            return []
        return [c for c in range(self.width) if self.grid[c][-1] is None]

    def play(self, column: int) -> None:
        assert column in self.legal_columns()
        row = self.grid[column].index(None)
        self.grid[column][row] = self.turn
        self.moves += 1
        self.winner = self.find_winner()

    def fours(self) -> set[int]:
        """Players owning four in a row, by scanning every stone explicitly."""
        found = set()
        for c in range(self.width):
            for r in range(self.height):
                player = self.grid[c][r]
                if player is None:
                    break  # stones are stacked from the bottom
                for dc, dr in DIRECTIONS:
                    cells = [(c + i * dc, r + i * dr) for i in range(4)]
                    if all(
                        0 <= x < self.width
                        and 0 <= y < self.height
                        and self.grid[x][y] == player
                        for x, y in cells
                    ):
                        found.add(player)
        return found

    def find_winner(self) -> int | None:
        fours = self.fours()
        assert len(fours) <= 1
        return fours.pop() if fours else None

    def rows(self) -> Grid:
        return [
            [self.grid[c][r] for c in range(self.width)]
            for r in range(self.height - 1, -1, -1)
        ]

    def would_win(self, column: int) -> bool:
        if column not in self.legal_columns():
            return False
        other = self.copy()
        other.play(column)
        return other.winner is not None


def parse(picture: Sequence[str]) -> Grid:
    """Turn a picture (top row first; X = player 0, O = player 1) into rows."""
    symbols = {"X": 0, "O": 1, ".": None}
    return [[symbols[ch] for ch in line] for line in picture]


def realise(picture: Sequence[str]) -> list[int]:
    """Find a move order (using the reference board) that builds ``picture``."""
    rows = parse(picture)
    height, width = len(rows), len(rows[0])
    target = [[rows[height - 1 - r][c] for r in range(height)] for c in range(width)]
    goal = tuple(sum(v is not None for v in column) for column in target)
    seen: set[tuple[int, ...]] = set()

    def search(board: ReferenceBoard, placed: tuple[int, ...]) -> list[int] | None:
        if placed == goal:
            return []
        if placed in seen or board.winner is not None:
            return None
        seen.add(placed)
        for column in range(width):
            row = placed[column]
            if row < goal[column] and target[column][row] == board.turn:
                child = board.copy()
                child.play(column)
                nxt = placed[:column] + (row + 1,) + placed[column + 1 :]
                rest = search(child, nxt)
                if rest is not None:
                    return [column] + rest
        return None

    moves = search(ReferenceBoard(width, height), (0,) * width)
    if moves is None:
        raise AssertionError(f"picture cannot be reached by play: {picture}")
    return moves


def reference_from_moves(moves: Sequence[int], width: int, height: int) -> ReferenceBoard:
    ref = ReferenceBoard(width, height)
    for column in moves:
        ref.play(column)
    return ref


# Sizes biased towards small boards, with the extremes always reachable.
sizes = st.one_of(
    st.integers(MIN_SIZE, 9),
    st.integers(MIN_SIZE, 20),
    st.integers(MIN_SIZE, MAX_SIZE),
    st.sampled_from([MIN_SIZE, MAX_SIZE]),
)


@st.composite
def games(draw: st.DrawFn, max_moves: int = 120) -> tuple[int, int, list[int]]:
    """A board size and a legal move sequence (may end in a win or draw).

    Moves are often confined to a narrow band of columns (possibly at an
    edge) so that wins also happen on very wide boards.
    """
    width = draw(sizes)
    height = draw(sizes)
    length = draw(st.integers(0, max_moves))
    picks = draw(st.lists(st.integers(0, 1 << 16), min_size=length, max_size=length))
    band_start = draw(st.integers(0, MAX_SIZE)) % width
    band_width = draw(st.sampled_from([2, 3, 4, 5, 7, 9, MAX_SIZE]))
    if draw(st.booleans()):
        band_start = max(0, width - band_width)  # hug the right edge
    ref = ReferenceBoard(width, height)
    moves = []
    for pick in picks:
        legal = ref.legal_columns()
        if not legal:
            break
        band = [c for c in legal if band_start <= c < band_start + band_width]
        options = band or legal
        column = options[pick % len(options)]
        ref.play(column)
        moves.append(column)
    return width, height, moves


class ReferenceAgreementTests(SynchronousTestCase):
    """The bitboard agrees with the plain 2-D reference after every move."""

    def assertSameState(self, board: Board, ref: ReferenceBoard, full_grid: bool) -> None:
        self.assertEqual(board.moves, ref.moves)
        self.assertEqual(board.turn, ref.turn)
        self.assertEqual(list(board.legal_columns()), ref.legal_columns())
        self.assertEqual(board.winner, ref.winner)
        self.assertEqual(board.is_full, ref.is_full)
        self.assertEqual(board.is_draw, ref.is_full and ref.winner is None)
        self.assertEqual(board.is_over, ref.is_full or ref.winner is not None)
        if full_grid:
            self.assertEqual(board.rows(), ref.rows())

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(games())
    def test_matches_reference(self, game: tuple[int, int, list[int]]) -> None:
        width, height, moves = game
        small = width * height <= 400
        board = Board.empty(width, height)
        ref = ReferenceBoard(width, height)
        self.assertSameState(board, ref, full_grid=small)
        for column in moves:
            if small:
                for c in range(-1, width + 1):
                    self.assertEqual(board.wins_with(c), ref.would_win(c), c)
            row = ref.grid[column].index(None)
            self.assertIsNone(board.cell(column, row))
            board = board.play(column)
            ref.play(column)
            self.assertEqual(board.cell(column, row), ref.grid[column][row])
            self.assertSameState(board, ref, full_grid=small)
        # The whole grid at the end, whatever the size.
        self.assertEqual(board.rows(), ref.rows())
        for c in {0, width // 2, width - 1}:
            for r in {0, height // 2, height - 1}:
                self.assertEqual(board.cell(c, r), ref.grid[c][r])
        if not board.is_over:
            self.assertRaises(IllegalMove, board.play, width)
        else:
            for c in range(width):
                self.assertRaises(IllegalMove, board.play, c)

    def test_extreme_sizes_agree(self) -> None:
        """Deterministic long games on 255-wide and 255-high boards."""
        for width, height in ((255, 255), (255, 6), (6, 255)):
            rng = random.Random(width * 1000 + height)
            board = Board.empty(width, height)
            ref = ReferenceBoard(width, height)
            lo = rng.randrange(width - 5)
            while not board.is_over:
                legal = ref.legal_columns()
                band = [c for c in legal if lo <= c < lo + 6] or legal
                column = rng.choice(band)
                board = board.play(column)
                ref.play(column)
                self.assertEqual(board.winner, ref.winner)
                self.assertEqual(list(board.legal_columns()), ref.legal_columns())
            self.assertIsNotNone(board.winner)
            self.assertEqual(board.rows(), ref.rows())
            self.assertEqual(Board.from_rows(board.rows()), board)


class WinTests(SynchronousTestCase):
    """Explicit wins in each direction, at the edges, and fake wrap-arounds."""

    def assertPicture(
        self, picture: Sequence[str], winner: int | None, last: int | None = None
    ) -> Board:
        """Build ``picture`` by play and by from_rows; check the winner."""
        rows = parse(picture)
        height, width = len(rows), len(rows[0])
        moves = realise(picture)
        ref = reference_from_moves(moves, width, height)
        self.assertEqual(ref.winner, winner, "reference disagrees with test")
        board = Board.from_moves(moves, width, height)
        self.assertEqual(board.rows(), rows)
        self.assertEqual(board.winner, winner)
        self.assertEqual(board.is_over, winner is not None)
        if winner is not None:
            self.assertEqual(board.legal_columns(), ())
            self.assertEqual(board.turn, 1 - winner)
        self.assertEqual(Board.from_rows(rows), board)
        if last is not None:
            self.assertEqual(moves[-1], last)
        return board

    def test_vertical(self) -> None:
        board = Board.from_moves([0, 1, 0, 1, 0, 1])
        self.assertIsNone(board.winner)
        self.assertTrue(board.wins_with(0))
        self.assertFalse(board.wins_with(1))
        board = board.play(0)
        self.assertEqual(board.winner, 0)
        self.assertEqual([board.cell(0, r) for r in range(6)], [0, 0, 0, 0, None, None])

    def test_horizontal(self) -> None:
        board = Board.from_moves([3, 3, 4, 4, 5, 5, 6])
        self.assertEqual(board.winner, 0)
        board = Board.from_moves([0, 1, 0, 2, 0, 3, 6, 4])
        self.assertEqual(board.winner, 1)

    def test_diagonal_up_right(self) -> None:
        self.assertPicture(
            [
                ".......",
                ".......",
                "...X...",
                "..XO...",
                ".XOX...",
                "XOOXO..",
            ],
            winner=0,
        )

    def test_diagonal_down_right(self) -> None:
        self.assertPicture(
            [
                ".......",
                ".......",
                "...O...",
                "..XXO..",
                "..OXXO.",
                ".XXOOXO",
            ],
            winner=1,
        )

    def test_vertical_top_right_corner_9x6(self) -> None:
        self.assertPicture(
            [
                "........X",
                "........X",
                "........X",
                "........X",
                "OX......O",
                "OX.....OO",
            ],
            winner=0,
            last=8,
        )

    def test_horizontal_top_row_edges_9x6(self) -> None:
        self.assertPicture(
            [
                ".....XXXX",
                ".....OOXO",
                ".....XXOX",
                ".....OOXO",
                ".....XXOX",
                "....OOOXO",
            ],
            winner=0,
        )
        self.assertPicture(
            [
                "OOOO.....",
                "XXXO.....",
                "OXOX.....",
                "OXOX.....",
                "XOOO.....",
                "XXXOX...X",
            ],
            winner=1,
        )

    def test_diagonals_touching_edges_6x9(self) -> None:
        # Up-right diagonal ending in the top-right corner of a tall board.
        self.assertPicture(
            [
                ".....X",
                "....XX",
                "...XOX",
                "..XOXO",
                "..XOOO",
                "..OXOX",
                "..XOOO",
                ".OXOXO",
                "OXXOXX",
            ],
            winner=0,
        )
        # Down-right diagonal starting in the top-left corner.
        self.assertPicture(
            [
                "O.....",
                "OO....",
                "XXO...",
                "XOOO..",
                "OXOX..",
                "XXOO..",
                "OXXX..",
                "XOOXX.",
                "XOXXO.",
            ],
            winner=1,
        )

    def test_diagonal_bottom_right_corner_9x6(self) -> None:
        self.assertPicture(
            [
                ".........",
                ".........",
                ".....X...",
                ".....OX..",
                ".....XOX.",
                "....OXOOX",
            ],
            winner=0,
        )

    def test_no_vertical_wrap_between_columns(self) -> None:
        """Stones at the top of one column and the bottom of the next are
        not four in a row (bit indices would be adjacent without the
        sentinel bit)."""
        pictures_9x6 = [
            # two on top of column 0, two at the bottom of column 1
            [
                "X........",
                "X........",
                "O........",
                "X........",
                "OX.......",
                "OXOO.....",
            ],
            # three on top of column 7, one at the bottom of column 8
            [
                ".......X.",
                ".......X.",
                ".......X.",
                ".......O.",
                "X....X.O.",
                "OOO..O.XX",
            ],
            # one on top of column 3, three at the bottom of column 4
            [
                "...X.....",
                "...O.....",
                "...X.....",
                "...XX....",
                "...OX...O",
                "...OX...O",
            ],
        ]
        pictures_6x9 = [
            [
                "X.....",
                "X.....",
                "O.....",
                "O.....",
                "X.....",
                "O.....",
                "X.....",
                "OXO...",
                "OXO.X.",
            ],
            [
                "....X.",
                "....X.",
                "....X.",
                "....O.",
                "....O.",
                "....X.",
                "....O.",
                "....O.",
                "OX.OXX",
            ],
        ]
        for picture in pictures_9x6 + pictures_6x9:
            board = self.assertPicture(picture, winner=None)
            self.assertFalse(board.is_over)

    def test_no_row_or_diagonal_wrap(self) -> None:
        """Lines running off one edge do not continue on the other side."""
        self.assertPicture(
            [
                ".........",
                ".........",
                ".........",
                ".........",
                "XX.....OO",
                "OO.....XX",
            ],
            winner=None,
        )
        # Up-right diagonal leaving the top of the board; (5, 0) would be
        # next in line if columns had no sentinel bit.
        self.assertPicture(
            [
                "...X.....",
                "..XO.....",
                ".XXX.....",
                ".OOX.....",
                ".OOO.....",
                ".OOX.XXO.",
            ],
            winner=None,
        )
        # Down-right diagonal leaving the bottom row; the top of column 2
        # would be next in line if columns had no sentinel bit.
        self.assertPicture(
            [
                "..X...",
                "..O...",
                "..O...",
                "..O...",
                "..X...",
                "..O...",
                "X.O...",
                "OXX.O.",
                "XXX.XO",
            ],
            winner=None,
        )

    def test_single_player_checked_after_play(self) -> None:
        """The winner is the player who just completed the line."""
        board = Board.from_moves([1, 2, 1, 2, 1, 2, 6, 2])
        self.assertEqual(board.winner, 1)
        self.assertFalse(board.is_draw)


# A full 7x6 game that ends without four in a row.
DRAW_MOVES = [int(ch) for ch in "343344344311113141202220226666000055555566"]


class DrawAndFullTests(SynchronousTestCase):
    def test_draw(self) -> None:
        ref = reference_from_moves(DRAW_MOVES, 7, 6)
        self.assertTrue(ref.is_full)
        self.assertIsNone(ref.winner)
        board = Board.from_moves(DRAW_MOVES)
        self.assertTrue(board.is_full)
        self.assertTrue(board.is_draw)
        self.assertTrue(board.is_over)
        self.assertIsNone(board.winner)
        self.assertEqual(board.legal_columns(), ())
        self.assertEqual(board.rows(), ref.rows())
        self.assertTrue(all(v is not None for row in board.rows() for v in row))
        for column in range(7):
            self.assertFalse(board.is_legal(column))
            self.assertRaises(IllegalMove, board.play, column)
        self.assertRaises(ValueError, choose_column, board)

    def test_almost_full(self) -> None:
        board = Board.from_moves(DRAW_MOVES[:-1])
        self.assertFalse(board.is_full)
        self.assertFalse(board.is_draw)
        self.assertEqual(board.legal_columns(), (DRAW_MOVES[-1],))
        self.assertEqual(choose_column(board), DRAW_MOVES[-1])


class ValidationTests(SynchronousTestCase):
    def test_defaults(self) -> None:
        board = Board.empty()
        self.assertEqual((board.width, board.height), (DEFAULT_WIDTH, DEFAULT_HEIGHT))
        self.assertEqual((board.width, board.height), (7, 6))
        self.assertEqual(board.turn, 0)
        self.assertEqual(board.moves, 0)
        self.assertEqual(board.legal_columns(), tuple(range(7)))
        self.assertEqual(board.rows(), [[None] * 7 for _ in range(6)])
        self.assertIsNone(board.winner)

    def test_sizes(self) -> None:
        for width, height in ((6, 6), (255, 255), (6, 255), (255, 6)):
            board = Board.empty(width, height)
            self.assertEqual(len(board.legal_columns()), width)
            self.assertEqual(len(board.rows()), height)
        for width, height in ((5, 6), (6, 5), (256, 6), (6, 256), (0, 7), (-7, 6)):
            with self.assertRaises(ValueError) as caught:
                Board.empty(width, height)
            self.assertIn("6 to 255", str(caught.exception))
        self.assertRaises(ValueError, Board.empty, True, 6)
        self.assertRaises(ValueError, Board.empty, 7.0, 6)
        self.assertRaises(ValueError, Board.from_moves, [], 300, 6)

    def test_illegal_moves(self) -> None:
        self.assertTrue(issubclass(IllegalMove, ValueError))
        board = Board.empty()
        for column in (-1, 7, 100, True, "3", None, 3.0):
            self.assertFalse(board.is_legal(column))  # type: ignore[arg-type]
            self.assertRaises(IllegalMove, board.play, column)
            self.assertFalse(board.wins_with(column))  # type: ignore[arg-type]
        full = Board.from_moves([2] * 6)
        self.assertFalse(full.is_legal(2))
        self.assertNotIn(2, full.legal_columns())
        with self.assertRaises(IllegalMove) as caught:
            full.play(2)
        self.assertIn("full", str(caught.exception))
        self.assertRaises(IllegalMove, Board.from_moves, [2] * 7)
        self.assertRaises(IllegalMove, Board.from_moves, [7])

    def test_no_move_after_win(self) -> None:
        won = Board.from_moves([0, 1, 0, 1, 0, 1, 0])
        self.assertEqual(won.winner, 0)
        self.assertEqual(won.legal_columns(), ())
        for column in range(7):
            self.assertFalse(won.is_legal(column))
            self.assertFalse(won.wins_with(column))
            with self.assertRaises(IllegalMove) as caught:
                won.play(column)
            self.assertIn("over", str(caught.exception))
        self.assertRaises(IllegalMove, Board.from_moves, [0, 1, 0, 1, 0, 1, 0, 1])
        self.assertRaises(ValueError, choose_column, won)

    def test_cell_bounds(self) -> None:
        board = Board.from_moves([3, 3])
        self.assertEqual(board.cell(3, 0), 0)
        self.assertEqual(board.cell(3, 1), 1)
        self.assertIsNone(board.cell(3, 2))
        for column, row in ((-1, 0), (7, 0), (0, -1), (0, 6)):
            self.assertRaises(IndexError, board.cell, column, row)

    def test_from_rows_rejects_bad_pictures(self) -> None:
        floating = parse(["......."] * 4 + ["...X..."] + ["......."])
        self.assertRaises(ValueError, Board.from_rows, floating)
        counts = parse(["......."] * 5 + ["OO....."])
        self.assertRaises(ValueError, Board.from_rows, counts)
        small = parse(["......"] * 5)
        self.assertRaises(ValueError, Board.from_rows, small)
        both = parse(["......."] * 2 + ["X..O..."] * 4)
        self.assertRaises(ValueError, Board.from_rows, both)

    def test_immutable(self) -> None:
        board = Board.empty()
        after = board.play(3)
        self.assertEqual(board.moves, 0)
        self.assertIsNone(board.cell(3, 0))
        self.assertEqual(after.cell(3, 0), 0)
        self.assertRaises(AttributeError, setattr, board, "moves", 3)


class RoundTripTests(SynchronousTestCase):
    @settings(max_examples=40, deadline=None)
    @given(games(max_moves=60))
    def test_from_moves_round_trip(self, game: tuple[int, int, list[int]]) -> None:
        width, height, moves = game
        board = Board.empty(width, height)
        for column in moves:
            board = board.play(column)
        replayed = Board.from_moves(moves, width, height)
        self.assertEqual(replayed, board)
        self.assertEqual(hash(replayed), hash(board))
        self.assertEqual(Board.from_rows(board.rows()), board)
        self.assertEqual(Board.from_moves(iter(moves), width, height), board)


def random_player(board: Board, rng: random.Random) -> int:
    return rng.choice(board.legal_columns())


class BotTests(SynchronousTestCase):
    def test_default_depth(self) -> None:
        self.assertEqual(default_depth(7), 5)
        self.assertEqual(default_depth(30), 2)
        self.assertEqual(default_depth(100), 1)
        self.assertEqual(default_depth(255), 1)
        for width in range(MIN_SIZE, MAX_SIZE + 1):
            self.assertGreaterEqual(default_depth(width), 1)
            self.assertLessEqual(default_depth(width + 1), default_depth(width))

    def test_takes_immediate_win(self) -> None:
        # Both players have three stacked; X to move must win, not block.
        board = Board.from_moves([0, 1, 0, 1, 0, 1])
        for depth in (None, 1, 2, 3):
            for rng in (None, random.Random(1), random.Random(2)):
                self.assertEqual(choose_column(board, depth, rng), 0)
        # Horizontal, on a wide board.
        board = Board.from_moves([10, 10, 11, 11, 12, 12], width=40, height=6)
        self.assertIn(choose_column(board), (9, 13))

    def test_diagonal_wins_and_blocks(self) -> None:
        """Each diagonal, with the missing stone at each of the four places.

        In every position the reference finds exactly one column that wins
        (or, for blocks, exactly one the opponent would win with)."""
        wins = [
            "45416511441503361451",
            "232510525602200255534030436",
            "4225640513310662161",
            "62454446136651035",
            "02315334254532",
            "20045030522100453616662331",
            "115002331001",
            "0120224422100515",
        ]
        blocks = [
            "4541651144150336145",
            "23251052560220025553403043",
            "422564051331066216",
            "2532210312424010062600345",
            "023153342545326",
            "20045030522100453616662",
            "11500233100",
            "012022442210051",
        ]
        for text, blocking in [(w, False) for w in wins] + [(b, True) for b in blocks]:
            moves = [int(ch) for ch in text]
            ref = reference_from_moves(moves, 7, 6)
            if blocking:
                self.assertFalse(any(ref.would_win(c) for c in range(7)), text)
                ref.moves += 1  # ask what the opponent could do
            expected = [c for c in range(7) if ref.would_win(c)]
            self.assertEqual(len(expected), 1, text)
            column = expected[0]
            board = Board.from_moves(moves)
            self.assertEqual(board.wins_with(column), not blocking)
            for depth in (1, 2, None):
                self.assertEqual(choose_column(board, depth), column, text)
                self.assertEqual(choose_column(board, depth, random.Random(5)), column)

    def test_blocks_immediate_threat(self) -> None:
        board = Board.from_moves([0, 6, 1, 6, 2])
        for depth in (None, 1, 3):
            for rng in (None, random.Random(3)):
                self.assertEqual(choose_column(board, depth, rng), 3)
        board = Board.from_moves([5, 0, 5, 1, 5])
        self.assertEqual(choose_column(board), 5)
        board = Board.from_moves([254, 0, 254, 1, 254], width=255, height=255)
        self.assertEqual(choose_column(board), 254)

    def test_avoids_playing_under_winning_cell(self) -> None:
        picture = [
            ".......",
            ".......",
            ".......",
            ".......",
            ".OOO..X",
            ".XOX..X",
        ]
        board = Board.from_moves(realise(picture))
        self.assertEqual(board.turn, 0)
        ref = reference_from_moves(realise(picture), 7, 6)
        for column in range(7):
            self.assertFalse(ref.would_win(column))
        # Playing column 0 or 4 lets O win straight away on top of it.
        for column in (0, 4):
            self.assertTrue(board.play(column).wins_with(column))
        for depth in (1, 2, 3, 4, None):
            for seed in range(5):
                choice = choose_column(board, depth, random.Random(seed))
                self.assertNotIn(choice, (0, 4))
            self.assertNotIn(choose_column(board, depth), (0, 4))

    def test_plays_under_winning_cell_when_forced(self) -> None:
        """With only bad columns left the bot still returns a legal one."""
        moves = [int(ch) for ch in "33452123224335442435554260516111660010"]
        board = Board.from_moves(moves)
        ref = reference_from_moves(moves, 7, 6)
        self.assertEqual(board.legal_columns(), (0, 6))
        for column in (0, 6):
            self.assertFalse(ref.would_win(column))
            after = ref.copy()
            after.play(column)
            self.assertTrue(after.would_win(column))
        for depth in (1, 3, None):
            self.assertIn(choose_column(board, depth), (0, 6))
            self.assertIn(choose_column(board, depth, random.Random(4)), (0, 6))

    def test_tie_breaks(self) -> None:
        empty = Board.empty()
        self.assertEqual(choose_column(empty), 3)
        self.assertEqual(choose_column(Board.empty(8, 6)), 3)
        picks = {choose_column(empty, 1, random.Random(seed)) for seed in range(30)}
        self.assertTrue(picks <= set(range(7)))
        for seed in range(5):
            self.assertEqual(
                choose_column(empty, 2, random.Random(seed)),
                choose_column(empty, 2, random.Random(seed)),
            )

    def test_bad_depth(self) -> None:
        self.assertRaises(ValueError, choose_column, Board.empty(), 0)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(games(max_moves=80), st.integers(1, 3), st.none() | st.integers(0, 1000))
    def test_always_legal(
        self, game: tuple[int, int, list[int]], depth: int, seed: int | None
    ) -> None:
        width, height, moves = game
        board = Board.from_moves(moves, width, height)
        if width * height > 5000:
            depth = 1  # keep huge boards quick
        rng = None if seed is None else random.Random(seed)
        if board.is_over:
            self.assertRaises(ValueError, choose_column, board, depth, rng)
            return
        column = choose_column(board, depth, rng)
        self.assertIn(column, board.legal_columns())
        if any(board.wins_with(c) for c in board.legal_columns()):
            self.assertTrue(board.wins_with(column))

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        st.integers(MIN_SIZE, 9),
        st.integers(MIN_SIZE, 9),
        st.lists(st.integers(0, 1 << 16), max_size=45),
        st.integers(0, 8),
    )
    def test_wins_and_blocks_like_reference(
        self, width: int, height: int, picks: list[int], band_start: int
    ) -> None:
        """Steps 1 and 2 of the bot agree with the reference's own checks."""
        ref = ReferenceBoard(width, height)
        moves = []
        for pick in picks:
            legal = ref.legal_columns()
            if not legal:
                break
            options = [c for c in legal if band_start <= c < band_start + 4] or legal
            moves.append(options[pick % len(options)])
            ref.play(moves[-1])
        board = Board.from_moves(moves, width, height)
        if board.is_over:
            return
        wins = {c for c in ref.legal_columns() if ref.would_win(c)}
        passed = ref.copy()
        passed.moves += 1  # let the opponent move instead
        threats = {c for c in passed.legal_columns() if passed.would_win(c)}
        column = choose_column(board, 1)
        if wins:
            self.assertIn(column, wins)
        elif threats:
            self.assertIn(column, threats)
        else:
            self.assertIn(column, ref.legal_columns())

    def test_huge_board(self) -> None:
        rng = random.Random(7)
        board = Board.from_moves(
            [rng.randrange(100, 110) for _ in range(12)], width=255, height=255
        )
        self.assertFalse(board.is_over)
        for depth in (None, 2, 3):
            self.assertIn(choose_column(board, depth, rng), board.legal_columns())
        # Against a random player on a huge board the bot simply wins.
        board = Board.empty(255, 255)
        while not board.is_over:
            column = choose_column(board)
            self.assertIn(column, board.legal_columns())
            board = board.play(column)
            if not board.is_over:
                board = board.play(random_player(board, rng))
        self.assertEqual(board.winner, 0)

    def test_beats_random_player(self) -> None:
        rng = random.Random(20240601)
        wins = 0
        for game in range(20):
            bot = game % 2  # the bot moves first in half of the games
            board = Board.empty()
            while not board.is_over:
                if board.turn == bot:
                    column = choose_column(board, 3, rng)
                else:
                    column = random_player(board, rng)
                board = board.play(column)
            if board.winner == bot:
                wins += 1
        self.assertGreaterEqual(wins, 18)

    def test_default_depth_beats_random_player(self) -> None:
        rng = random.Random(99)
        for game in range(2):
            bot = game % 2
            board = Board.empty()
            while not board.is_over:
                if board.turn == bot:
                    column = choose_column(board)
                else:
                    column = random_player(board, rng)
                board = board.play(column)
            self.assertEqual(board.winner, bot)


class BoundedSearchTests(SynchronousTestCase):
    """The bot's search ends when its caller's stop says so; the engine's bot stops on time."""

    # A position where the search runs (no win, no block, several safe columns).
    OPENING = (3, 3, 2, 4)

    def test_stoppedAtItsFirstLook(self) -> None:
        """A stop that says True at once is asked once; the answer is still a legal column."""
        board = Board.from_moves(self.OPENING)
        asked: list[int] = []

        def stop() -> bool:
            asked.append(1)
            return True

        column = choose_column(board, stop=stop)
        self.assertEqual(len(asked), 1)
        self.assertIn(column, board.legal_columns())

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.integers(0, 6), max_size=20))
    def test_neverStoppedIsThePlainSearch(self, columns: list[int]) -> None:
        board = Board.empty()
        for column in columns:
            if board.is_over:
                break
            if board.is_legal(column):
                board = board.play(column)
        if board.is_over:
            return
        self.assertEqual(choose_column(board, stop=lambda: False), choose_column(board))

    def test_timedBotReadsItsClock(self) -> None:
        """The engine's kind of bot stops once its clock passes the bound."""
        board = Board.from_moves(self.OPENING)
        readings: list[float] = []

        def clock() -> float:
            readings.append(1.0 * len(readings))  # a second passes at each reading
            return readings[-1]

        bot = timedBot(0.5, clock)
        self.assertEqual(bot(board, 0), choose_column(board, stop=lambda: True))
        self.assertEqual(len(readings), 2)  # the start, then the first look
