"""
L{Board.play}'s quick check of an ordinary column against the plain one:
the same boards, the same refusals, whatever is played.
"""

from __future__ import annotations

import enum

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.games.connect4 import Board, IllegalMove, _has_four


def plainPlay(board: Board, column: object) -> Board:
    """The move as the rules state it: every check of L{Board.is_legal}, then the stone."""
    if not board.is_legal(column):  # type: ignore[arg-type]
        raise IllegalMove(board._illegal_reason(column))
    assert isinstance(column, int)
    player = board.moves & 1
    row = board.heights[column]
    mine = board.stones[player] | (1 << (column * (board.height + 1) + row))
    stones = (mine, board.stones[1]) if player == 0 else (board.stones[0], mine)
    heights = board.heights[:column] + (row + 1,) + board.heights[column + 1:]
    winner = player if _has_four(mine, board.height + 1) else None
    return Board(board.width, board.height, stones, heights, board.moves + 1, winner)


class _Column(enum.IntEnum):
    THIRD = 2


_columns = st.integers(-2, 10) | st.booleans() | st.just(_Column.THIRD) | st.just(2.0) \
    | st.none()


class PlayTests(SynchronousTestCase):
    @settings(max_examples=300, deadline=None)
    @given(st.integers(6, 9), st.integers(6, 8), st.lists(_columns, max_size=80))
    def test_asThePlainRules(self, width: int, height: int, columns: list[object]) -> None:
        """Each move gives the plain rules' board, or their refusal with the same reason."""
        board = Board.empty(width, height)
        for column in columns:
            try:
                expected = plainPlay(board, column)
            except IllegalMove as refusal:
                error = self.assertRaises(IllegalMove, board.play, column)
                self.assertEqual(str(error), str(refusal))
                continue
            board = board.play(column)  # type: ignore[arg-type]
            self.assertEqual(board, expected)
