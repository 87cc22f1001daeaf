"""Connect Four rules on a bitboard, a small alpha-beta bot, and the game engine.

Pure and deterministic: no I/O, no clock, no global random state.  The
search takes its time bound as an argument; only the engine's bot
(L{connect4Bot}) reads the process clock for it.

Bitboard layout (the classic one): column-major, ``height + 1`` bits per
column, so the bit index of (column ``c``, row ``r``) is
``c * (height + 1) + r`` with row 0 at the bottom.  The top bit of every
column is a sentinel that never holds a stone; it stops the shift-and line
tests from wrapping a line over the top of one column into the bottom of the
next one.  Each player has one bitboard (a Python ``int``); player 0 moves
first.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Bot,
    Display,
    Errors,
    Event,
    GameState,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkAction,
    checkParameters,
)

__all__ = [
    "BOT_SECONDS",
    "DEFAULT_HEIGHT",
    "DEFAULT_WIDTH",
    "MAX_SIZE",
    "MIN_SIZE",
    "ENGINE",
    "Board",
    "Connect4Engine",
    "Connect4Game",
    "IllegalMove",
    "choose_column",
    "default_depth",
    "timedBot",
]

MIN_SIZE = 6
MAX_SIZE = 255
DEFAULT_WIDTH = 7
DEFAULT_HEIGHT = 6

# Scores used by the bot's search.  A win is worth more than any heuristic
# value; ``WIN + d`` prefers wins found with more search depth left (sooner).
_WIN = 1_000_000
_INFINITY = 1_000_000_000
# Node budget of one bot call on a small board (about 8 us per node in
# CPython); big boards divide it by ``_Geometry.size_factor``.
_WORK_BUDGET = 30_000
_MIN_NODE_BUDGET = 50
_STOP_EVERY = 31  # a search's stop is asked when the node count is a multiple of 32


class IllegalMove(ValueError):
    """Raised when a move is not legal on the board."""


def _check_size(name: str, value: int) -> None:
    """Raise ValueError unless ``value`` is an int in MIN_SIZE..MAX_SIZE."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not MIN_SIZE <= value <= MAX_SIZE
    ):
        raise ValueError(
            f"board {name} must be an integer from {MIN_SIZE} to {MAX_SIZE},"
            f" got {value!r}"
        )


@attrs.frozen
class _Geometry:
    """Precomputed masks for one board size."""

    width: int
    height: int
    stride: int  # height + 1 bits per column
    bottom: int  # one bit at row 0 of every column
    playable: int  # every real cell (sentinels excluded)
    centre_order: tuple[int, ...]  # columns, most central first
    centre_rank: tuple[int, ...]  # rank of each column in centre_order
    centre_masks: tuple[int, ...]  # nested bands of central columns
    size_factor: int  # rough cost of one big-int operation


@functools.lru_cache(maxsize=32)
def _geometry(width: int, height: int) -> _Geometry:
    """Return the (cached) masks for a ``width`` x ``height`` board."""
    stride = height + 1
    bottom = 0
    for column in range(width):
        bottom |= 1 << (column * stride)
    # Columns are ``stride`` bits apart and ``height < stride``, so the
    # multiplication never carries from one column into the next.
    playable = bottom * ((1 << height) - 1)
    order = tuple(
        sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
    )
    rank = [0] * width
    for position, column in enumerate(order):
        rank[column] = position
    column_mask = (1 << height) - 1
    masks = []
    for band in range(3):
        mask = 0
        for column in range(width):
            if abs(2 * column - (width - 1)) <= 2 * band + 1:
                mask |= column_mask << (column * stride)
        masks.append(mask)
    return _Geometry(
        width=width,
        height=height,
        stride=stride,
        bottom=bottom,
        playable=playable,
        centre_order=order,
        centre_rank=tuple(rank),
        centre_masks=tuple(masks),
        size_factor=1 + (width * stride) // 2000,
    )


def _has_four(stones: int, stride: int) -> bool:
    """True if ``stones`` holds four in a row in any of the four directions."""
    # vertical, horizontal, diagonal down-right, diagonal up-right
    for shift in (1, stride, stride - 1, stride + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def _winning_cells(stones: int, stride: int) -> int:
    """Cells (maybe occupied or off-board) that would complete a four.

    Callers must mask the result with the empty playable cells.
    """
    cells = (stones << 1) & (stones << 2) & (stones << 3)  # vertical
    for shift in (stride, stride - 1, stride + 1):
        pair = (stones << shift) & (stones << (2 * shift))
        cells |= pair & (stones << (3 * shift))
        cells |= pair & (stones >> shift)
        pair = (stones >> shift) & (stones >> (2 * shift))
        cells |= pair & (stones << shift)
        cells |= pair & (stones >> (3 * shift))
    return cells


def four_cells(stones: int, stride: int) -> list[int]:
    """The bit indices of every stone of ``stones`` that is part of a four in a row."""
    cells = 0
    for shift in (1, stride, stride - 1, stride + 1):
        pairs = stones & (stones >> shift)
        starts = pairs & (pairs >> (2 * shift))
        for index in _bit_indices(starts):
            for step in range(4):
                cells |= 1 << (index + step * shift)
    return _bit_indices(cells)


def _bit_indices(bits: int) -> list[int]:
    """Indices of the set bits of a (sparse) non-negative int."""
    indices = []
    while bits:
        low = bits & -bits
        indices.append(low.bit_length() - 1)
        bits ^= low
    return indices


@attrs.frozen
class Board:
    """An immutable Connect Four position.

    Build one with :meth:`empty`, :meth:`from_moves` or :meth:`from_rows`
    and advance it with :meth:`play`; the constructor trusts its fields.
    """

    width: int
    height: int
    stones: tuple[int, int]  # bitboard per player
    heights: tuple[int, ...]  # next free row of each column
    moves: int = 0  # stones played so far
    winner: int | None = None  # cached when the winning stone is played

    @classmethod
    def empty(
        cls, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT
    ) -> Board:
        """Return an empty board; ValueError if a size is outside 6..255."""
        _check_size("width", width)
        _check_size("height", height)
        return cls(width, height, (0, 0), (0,) * width)

    @classmethod
    def from_moves(
        cls,
        columns: Iterable[int],
        width: int = DEFAULT_WIDTH,
        height: int = DEFAULT_HEIGHT,
    ) -> Board:
        """Replay a list of columns from the empty board (IllegalMove if bad)."""
        board = cls.empty(width, height)
        for column in columns:
            board = board.play(column)
        return board

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int | None]]) -> Board:
        """Rebuild a board from :meth:`rows` output (top row first).

        Raises ValueError for floating stones, impossible stone counts or
        two winners.
        """
        height = len(rows)
        _check_size("height", height)
        width = len(rows[0])
        _check_size("width", width)
        if any(len(line) != width for line in rows):
            raise ValueError("all rows must have the same length")
        stride = height + 1
        stones = [0, 0]
        heights = []
        for column in range(width):
            top = 0
            for row in range(height):
                value = rows[height - 1 - row][column]
                if value is None:
                    continue
                if value not in (0, 1) or isinstance(value, bool):
                    raise ValueError(f"cell value must be 0, 1 or None: {value!r}")
                if row != top:
                    raise ValueError(
                        f"floating stone at column {column}, row {row}"
                    )
                stones[value] |= 1 << (column * stride + row)
                top += 1
            heights.append(top)
        counts = (stones[0].bit_count(), stones[1].bit_count())
        if counts[0] - counts[1] not in (0, 1):
            raise ValueError(
                f"impossible stone counts {counts[0]} and {counts[1]}"
            )
        winners = [p for p in (0, 1) if _has_four(stones[p], stride)]
        if len(winners) > 1:
            raise ValueError("both players have four in a row")
        return cls(
            width,
            height,
            (stones[0], stones[1]),
            tuple(heights),
            counts[0] + counts[1],
            winners[0] if winners else None,
        )

    @property
    def turn(self) -> int:
        """The player (0 or 1) to move next."""
        return self.moves & 1

    @property
    def mask(self) -> int:
        """Bitboard of all stones."""
        return self.stones[0] | self.stones[1]

    @property
    def is_full(self) -> bool:
        """True when every cell holds a stone."""
        return self.moves == self.width * self.height

    @property
    def is_over(self) -> bool:
        """True when someone has won or the board is full."""
        return self.winner is not None or self.is_full

    @property
    def is_draw(self) -> bool:
        """True when the board is full and nobody has won."""
        return self.winner is None and self.is_full

    def legal_columns(self) -> tuple[int, ...]:
        """Columns that can be played, ascending; empty once the game is over."""
        if self.is_over:
            return ()
        height = self.height
        return tuple(c for c, h in enumerate(self.heights) if h < height)

    def is_legal(self, column: int) -> bool:
        """True if ``column`` can be played now."""
        return (
            isinstance(column, int)
            and not isinstance(column, bool)
            and 0 <= column < self.width
            and self.heights[column] < self.height
            and self.winner is None
        )

    def play(self, column: int) -> Board:
        """Return the board after the player to move drops a stone in ``column``."""
        heights = self.heights
        height = self.height
        if not (type(column) is int and 0 <= column < self.width
                and heights[column] < height and self.winner is None):
            if not self.is_legal(column):  # an int subclass may still be a legal column
                raise IllegalMove(self._illegal_reason(column))
        moves = self.moves
        player = moves & 1
        row = heights[column]
        stride = height + 1
        stones = self.stones
        mine = stones[player] | (1 << (column * stride + row))
        return Board(
            self.width, height, (mine, stones[1]) if player == 0 else (stones[0], mine),
            heights[:column] + (row + 1,) + heights[column + 1 :], moves + 1,
            player if _has_four(mine, stride) else None)

    def _illegal_reason(self, column: object) -> str:
        """Explain why ``column`` is not a legal move."""
        if not isinstance(column, int) or isinstance(column, bool):
            return f"column must be an integer, got {column!r}"
        if not 0 <= column < self.width:
            return f"column {column} is outside 0..{self.width - 1}"
        if self.winner is not None:
            return f"the game is over: player {self.winner} has won"
        if self.is_full:
            return "the game is over: the board is full"
        return f"column {column} is full"

    def wins_with(self, column: int) -> bool:
        """True if the player to move would win at once by playing ``column``."""
        if not self.is_legal(column):
            return False
        bit = 1 << (column * (self.height + 1) + self.heights[column])
        return _has_four(self.stones[self.moves & 1] | bit, self.height + 1)

    def cell(self, column: int, row: int) -> int | None:
        """The player whose stone is at (column, row), or None if empty."""
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise IndexError(f"cell ({column}, {row}) is off the board")
        bit = column * (self.height + 1) + row
        for player in (0, 1):
            if (self.stones[player] >> bit) & 1:
                return player
        return None

    def rows(self) -> list[list[int | None]]:
        """The grid as lists of cells, top row first (for display)."""
        stride = self.height + 1
        size = self.width * stride
        # Reversed binary strings: character i is bit i.  One conversion per
        # player keeps this linear even on a 255x255 board.
        bits = [format(s, f"0{size}b")[::-1] for s in self.stones]
        result = []
        for row in range(self.height - 1, -1, -1):
            line: list[int | None] = []
            for column in range(self.width):
                index = column * stride + row
                if bits[0][index] == "1":
                    line.append(0)
                elif bits[1][index] == "1":
                    line.append(1)
                else:
                    line.append(None)
            result.append(line)
        return result


# --------------------------------------------------------------------------
# Bot
# --------------------------------------------------------------------------


def default_depth(width: int) -> int:
    """Search depth used by :func:`choose_column` when none is given."""
    if width <= 8:
        return 5
    if width < 16:
        return 4
    if width < 30:
        return 3
    if width < 100:
        return 2
    return 1


class _BudgetExceeded(Exception):
    """Internal: the node budget of one bot call ran out."""


class _Search:
    """Negamax with alpha-beta on raw bitboards (player to move first)."""

    def __init__(self, geometry: _Geometry, total: int, budget: int) -> None:
        self.geo = geometry
        self.total = total  # number of cells
        self.budget = budget
        self.nodes = 0
        self.stop: Callable[[], bool] | None = None  # asked every _STOP_EVERY + 1 nodes

    def evaluate(self, me: int, other: int, my_cells: int, other_cells: int) -> int:
        """Heuristic value for the player to move (``me``)."""
        geo = self.geo
        score = 8 * (my_cells.bit_count() - other_cells.bit_count())
        for mask in geo.centre_masks:
            score += (me & mask).bit_count() - (other & mask).bit_count()
        score += 2 * (self._open_windows(me, other) - self._open_windows(other, me))
        return score

    def _open_windows(self, me: int, other: int) -> int:
        """Count four-cell windows free of ``other`` holding two+ of ``me``."""
        free = ~other & self.geo.playable
        stride = self.geo.stride
        count = 0
        for shift in (1, stride, stride - 1, stride + 1):
            f1 = free >> shift
            windows = free & f1 & (f1 >> shift) & (free >> (3 * shift))
            if not windows:
                continue
            a0 = me & windows
            a1 = (me >> shift) & windows
            a2 = (me >> (2 * shift)) & windows
            a3 = (me >> (3 * shift)) & windows
            two = (a0 & (a1 | a2 | a3)) | (a1 & (a2 | a3)) | (a2 & a3)
            count += two.bit_count()
        return count

    def negamax(
        self,
        me: int,
        other: int,
        heights: list[int],
        moves: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Score of the position for the player to move (``me``)."""
        self.nodes += 1
        if self.nodes > self.budget or (
            not self.nodes & _STOP_EVERY and self.stop is not None and self.stop()
        ):
            raise _BudgetExceeded()
        if moves == self.total:
            return 0
        geo = self.geo
        stride = geo.stride
        mask = me | other
        empty = geo.playable & ~mask
        possible = (mask + geo.bottom) & geo.playable
        my_cells = _winning_cells(me, stride) & empty
        if my_cells & possible:
            return _WIN + depth
        other_cells = _winning_cells(other, stride) & empty
        threats = other_cells & possible
        if threats & (threats - 1):
            return -(_WIN + depth - 1)  # two threats: cannot block both
        if depth <= 0:
            return self.evaluate(me, other, my_cells, other_cells)
        if threats:
            columns = [(threats.bit_length() - 1) // stride]
        else:
            # Never play directly under one of the opponent's winning cells.
            under = (other_cells >> 1) & possible
            banned = {i // stride for i in _bit_indices(under)} if under else ()
            height = geo.height
            columns = [
                c
                for c in geo.centre_order
                if heights[c] < height and c not in banned
            ]
            if not columns:
                return -(_WIN + depth - 1)
        best = -_INFINITY
        for column in columns:
            row = heights[column]
            heights[column] = row + 1
            try:
                score = -self.negamax(
                    other,
                    me | (1 << (column * stride + row)),
                    heights,
                    moves + 1,
                    depth - 1,
                    -beta,
                    -alpha,
                )
            finally:
                heights[column] = row
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


def _pick(columns: Sequence[int], geo: _Geometry, rng: random.Random | None) -> int:
    """Break a tie: ``rng.choice`` if given, else the most central column."""
    if rng is not None:
        return rng.choice(sorted(columns))
    return min(columns, key=lambda c: geo.centre_rank[c])


def choose_column(
    board: Board,
    depth: int | None = None,
    rng: random.Random | None = None,
    stop: Callable[[], bool] | None = None,
) -> int:
    """Pick a column for the player to move.

    Wins at once if possible, else blocks an immediate threat, else runs an
    iterative-deepening alpha-beta negamax (``depth`` plies, default from
    :func:`default_depth`) under a node budget scaled by board size.  Ties go
    to ``rng.choice`` when ``rng`` is given, else to the most central column.
    ``stop``, asked every 32 nodes once the first iteration is done, ends
    the search when it says True (the caller's time bound, say): the answer
    is then the last whole iteration's.  Raises ValueError if the game is over.
    """
    legal = board.legal_columns()
    if not legal:
        raise ValueError("the game is over: no legal column")
    if depth is None:
        depth = default_depth(board.width)
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth!r}")
    geo = _geometry(board.width, board.height)
    stride = geo.stride
    me = board.stones[board.turn]
    other = board.stones[1 - board.turn]
    mask = me | other
    empty = geo.playable & ~mask
    possible = (mask + geo.bottom) & geo.playable

    # 1. win now
    wins = _winning_cells(me, stride) & possible
    if wins:
        return _pick([i // stride for i in _bit_indices(wins)], geo, rng)
    # 2. block the opponent's immediate win
    other_cells = _winning_cells(other, stride) & empty
    threats = other_cells & possible
    if threats:
        return _pick([i // stride for i in _bit_indices(threats)], geo, rng)
    # 3. search, avoiding cells right under the opponent's winning cells
    under = (other_cells >> 1) & possible
    banned = {i // stride for i in _bit_indices(under)} if under else set()
    candidates = [c for c in geo.centre_order if board.heights[c] < board.height]
    safe = [c for c in candidates if c not in banned]
    if not safe:
        return _pick(candidates, geo, rng)
    if len(safe) == 1:
        return safe[0]

    total = board.width * board.height
    budget = max(_MIN_NODE_BUDGET, _WORK_BUDGET // geo.size_factor)
    heights = list(board.heights)
    scores: dict[int, int] = {}
    # The budget covers all iterations; the first iteration (one node per
    # column) always runs to completion so there is always an answer.
    search = _Search(geo, total, _INFINITY)
    for current in range(1, depth + 1):
        order = sorted(safe, key=lambda c: (-scores.get(c, 0), geo.centre_rank[c]))
        try:
            scores = _root_scores(search, me, other, heights, board.moves, order, current)
        except _BudgetExceeded:
            break
        search.budget = budget
        search.stop = stop
        best = max(scores.values())
        if best >= _WIN or best <= -_WIN:
            break  # the outcome is already decided within the horizon
    best = max(scores.values())
    return _pick([c for c, s in scores.items() if s == best], geo, rng)


def _root_scores(
    search: _Search,
    me: int,
    other: int,
    heights: list[int],
    moves: int,
    order: Sequence[int],
    depth: int,
) -> dict[int, int]:
    """Score every root column; scores equal to the best one are exact."""
    stride = search.geo.stride
    best = -_INFINITY
    scores: dict[int, int] = {}
    for column in order:
        row = heights[column]
        heights[column] = row + 1
        try:
            # Window (best - 1, +inf): anything tying the best is exact, and
            # anything worse fails low to a value below ``best``.
            score = -search.negamax(
                other,
                me | (1 << (column * stride + row)),
                heights,
                moves + 1,
                depth - 1,
                -_INFINITY,
                -(best - 1),
            )
        finally:
            heights[column] = row
        scores[column] = score
        if score > best:
            best = score
    return scores


# -- the engine --------------------------------------------------------------

CELL = 40
"""Side of one cell in the SVG display, in pixels, for boards up to 20 wide."""

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("players", "int", "number of players (always 2)", 2, 2, 2),
    Parameter("width", "int", "number of columns", DEFAULT_WIDTH, MIN_SIZE, MAX_SIZE),
    Parameter("height", "int", "number of rows", DEFAULT_HEIGHT, MIN_SIZE, MAX_SIZE),
)

_COLOURS = ("#d62828", "#f6c90e")
COLOUR_NAMES = ("red", "yellow")
"""What each seat's stones are called, in words (seat 0 red, seat 1 yellow)."""
LAST_MOVE = "#111827"
"""The ring around the last stone played."""
WINNING = "#22c55e"
"""The rings around the stones of a winning four."""


@functools.lru_cache(maxsize=4096)
def _request(
    seat: Seat, columns: tuple[int, ...], cell: int, height: int
) -> tuple[RequestedAction, ...]:
    """The CLICK asked of ``seat``: one zone per playable column (shared, immutable)."""
    zones = tuple(Zone(column * cell, 0, cell, cell * height) for column in columns)
    return (RequestedAction(seat, "CLICK", zones=zones, buttons=("LEFT",),
                            prompt="click a column"),)


@functools.lru_cache(maxsize=1024)
def _moveEvent(column: int, seat: Seat) -> Event:
    """The event of ``seat`` playing ``column`` (shared, immutable)."""
    return Event("move", column, seat)


@functools.lru_cache(maxsize=1024)
def _playedState(mover: Seat, column: int) -> GameState:
    """The state of a game going on after ``mover`` played ``column`` (shared, immutable)."""
    return GameState((0, 0), False, text=f"player {mover + 1} played column {column + 1}")


_START_STATE = GameState((0, 0), False)


@functools.lru_cache(maxsize=256)
def _frame(cell: int, width: int, height: int
           ) -> tuple[dict[str, JSON], tuple[dict[str, JSON], ...]]:
    """
    The board's rectangle and the column numbers under it (none on cells
    under 16 pixels) of L{Connect4Game.display}, shared: never changed.
    """
    rect: dict[str, JSON] = {"tag": "rect", "x": 0, "y": 0, "width": width * cell,
                             "height": height * cell, "fill": "#1d4ed8"}
    numbers = tuple(
        {"tag": "text", "class": "column-number", "x": column * cell + cell / 2,
         "y": height * cell + 14, "text-anchor": "middle", "font-size": 12, "fill": "#374151",
         "content": str(column + 1)}
        for column in range(width)) if cell >= 16 else ()
    return rect, numbers


@functools.lru_cache(maxsize=8192)
def _disc(cell: int, column: int, row: int, stone: int | None) -> dict[str, JSON]:
    """
    The circle of one cell of L{Connect4Game.display} (row 0 at the top),
    shared by every drawing that has it: never changed once made.
    """
    return {"tag": "circle", "cx": column * cell + cell / 2, "cy": row * cell + cell / 2,
            "r": cell * 0.4, "fill": "#ffffff" if stone is None else _COLOURS[stone]}


class Connect4Game:
    """
    A game of Connect Four under the engine contract.  A move is the column
    number; seat 0 plays first.  Open information: every seat sees the board.
    """

    players = 2
    colours = _COLOURS
    """Each seat's stones (see L{gameproto.engine.contract.seatColours})."""

    def __init__(self, params: Mapping[str, JSON]) -> None:
        self.params: Mapping[str, JSON] = dict(params)
        self.initvalues: Mapping[str, JSON] = {}
        self.board = Board.empty(int(params["width"]), int(params["height"]))
        self._cellSize = max(4, min(CELL, 800 // max(self.board.width, self.board.height)))
        self._legal = self.board.legal_columns()
        """The columns not full yet (made again when one fills)."""
        self.resigned: int | None = None
        self._over = self.board.is_over
        """Whether the game is over (L{over}), kept as each move or resignation comes."""
        self.lastMove: tuple[int, int] | None = None
        """The (column, row) of the last stone played, row 0 at the bottom."""
        self._drawn: tuple[Board, tuple[dict[str, JSON], ...]] | None = None
        """The board L{display} last drew, and its drawing (the same for every seat)."""
        self._discs: tuple[Board | None, list[dict[str, JSON]]] = (None, [])
        """The board whose cells' circles L{_discsOf} last gave, and those circles."""

    @property
    def winner(self) -> int | None:
        """The winner's seat, None while playing or after a draw."""
        if self.resigned is not None:
            return 1 - self.resigned
        return self.board.winner

    @property
    def over(self) -> bool:
        return self._over

    def _cell(self) -> int:
        return self._cellSize

    def _requested(self) -> tuple[RequestedAction, ...]:
        if self._over:
            return ()
        return _request(self.board.turn, self._legal, self._cellSize, self.board.height)

    def _state(self) -> GameState:
        if not self._over:
            if self.lastMove is None:
                return _START_STATE
            return _playedState(1 - self.board.turn, self.lastMove[0])
        winner = self.winner
        return GameState((int(winner == 0), int(winner == 1)), True, text=self._ending())

    def _ending(self) -> str:
        """Why the game is over, in words."""
        if self.resigned is not None:
            return f"player {self.resigned + 1} gave up"
        if self.board.winner is not None:
            return "four in a row"
        return "the board is full"

    def _step(self, events: tuple[Event, ...]) -> Instructions:
        if self._over:
            events += (Event("end", self.winner),)
        return Instructions(self._requested(), self._state(), events)

    def instructions(self) -> Instructions:
        return attrs.evolve(self._step(()), initvalues=dict(self.initvalues))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self._over or seat != self.board.turn:
            why = "The game is over." if self._over else "It is not your turn."
            return Errors((UnexpectedAction(seat, action, text=why),))
        if isinstance(action, bool) or not isinstance(action, int):
            return Errors((BadFormat(),))
        if not self.board.is_legal(action):
            requested = self._requested()[0].asJSON()
            return Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, seat, action, requested,
                                       text=self._whyNot(action)),))
        row = self.board.heights[action]
        board = self.board = self.board.play(action)
        self.lastMove = (action, row)
        self._over = board.is_over
        if row + 1 == board.height:
            self._legal = board.legal_columns()
        return self._step((_moveEvent(action, seat),))

    def _whyNot(self, column: int) -> str:
        """Why ``column`` (0-based) cannot be played, in words (columns counted from 1)."""
        if 0 <= column < self.board.width:
            return f"Column {column + 1} is full: choose another column."
        return f"There is no column {column + 1}: the columns are 1 to {self.board.width}."

    def resign(self, seat: Seat) -> Instructions:
        if self.over:
            return self._step(())
        self.resigned = seat
        self._over = True
        return self._step((Event("resign", None, seat),))

    def view(self, seat: Seat) -> Board:
        return self.board

    def display(self, seat: Seat | None) -> Display:
        """
        The board, the same for every seat (None: a spectator's): the stones,
        a ring around the last one played (``class="last-move"``) and around
        each stone of a winning four (``class="win"``), the column numbers
        from 1 under the board, and a line of text last.
        """
        board, cell = self.board, self._cell()
        height = board.height * cell
        winner = self.winner
        ending = self._ending() if self.over else ""
        if seat is None:
            text = (f"player {board.turn + 1} ({COLOUR_NAMES[board.turn]}) to move"
                    if not self.over else f"draw: {ending}" if winner is None
                    else f"player {winner + 1} wins: {ending}")
        elif self.over:
            text = (f"draw: {ending}" if winner is None else
                    f"you win: {ending}" if winner == seat else f"you lose: {ending}")
        else:
            text = (f"your move ({COLOUR_NAMES[seat]}): click a column" if board.turn == seat
                    else f"their move ({COLOUR_NAMES[board.turn]})")
        drawn = self._drawn
        if drawn is None or drawn[0] is not board:
            # The board's part is every seat's: drawn once per position.
            drawn = self._drawn = (board, self._drawBoard())
        return Display(seat, board.width * cell, height + 42, drawn[1] + (
            {"tag": "text", "x": 4, "y": height + 34, "fill": "#000000", "content": text},))

    def _drawBoard(self) -> tuple[dict[str, JSON], ...]:
        """The stones, the rings and the column numbers of L{display}: all but its text."""
        board, cell = self.board, self._cell()
        rect, numbers = _frame(cell, board.width, board.height)
        content: list[dict[str, JSON]] = [rect, *self._discsOf(board, cell)]
        stride = board.height + 1

        def ring(column: int, row: int, colour: str, kind: str, width: float) -> dict[str, JSON]:
            return {"tag": "circle", "class": kind, "cx": column * cell + cell / 2,
                    "cy": (board.height - 1 - row) * cell + cell / 2, "r": cell * 0.42,
                    "fill": "none", "stroke": colour, "stroke-width": width,
                    "data-column": column + 1, "data-row": row + 1}

        if self.lastMove is not None:
            content.append(ring(*self.lastMove, LAST_MOVE, "last-move", max(1, cell / 14)))
        if board.winner is not None:
            for index in four_cells(board.stones[board.winner], stride):
                content.append(ring(index // stride, index % stride, WINNING, "win",
                                    max(1.5, cell / 8)))
        content += numbers
        return tuple(content)

    def _discsOf(self, board: Board, cell: int) -> list[dict[str, JSON]]:
        """
        The circle of every cell, top row first: those of the board drawn
        before with one circle changed when ``board`` is that board and one
        stone more, else all of them.
        """
        before, discs = self._discs
        if before is not None and before is not board and self.lastMove is not None \
                and board.moves == before.moves + 1:
            column, row = self.lastMove
            bit = 1 << (column * (board.height + 1) + row)
            mover = 1 - board.turn
            if board.stones[mover] == before.stones[mover] | bit != before.stones[mover] \
                    and board.stones[1 - mover] == before.stones[1 - mover]:
                top = board.height - 1 - row
                discs[top * board.width + column] = _disc(cell, column, top, mover)
                self._discs = (board, discs)
                return discs
        if before is not board:
            discs = [_disc(cell, column, row, stone)
                     for row, cells in enumerate(board.rows())
                     for column, stone in enumerate(cells)]
            self._discs = (board, discs)
        return discs

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        checked = checkAction(seat, action, self._requested())
        if isinstance(checked, Errors):
            return checked
        return int(action["x"] // self._cell())  # type: ignore[operator]

    def stop(self) -> None:
        """Nothing to release: the game lives in this process."""


BOT_SECONDS = 0.005
"""The most time the engine's bot searches for one move (past its first iteration)."""


def timedBot(seconds: float, clock: Callable[[], float] = time.perf_counter) -> Bot:
    """
    A bot that plays L{choose_column}, its search stopped ``seconds`` after
    it began on ``clock``: a move never holds the reactor much longer.
    """

    def bot(view: Board, seat: Seat) -> int:
        deadline = clock() + seconds
        return choose_column(view, stop=lambda: clock() > deadline)

    return bot


connect4Bot = timedBot(BOT_SECONDS)
"""The engine's bot: win, else block, else a short negamax bounded by L{BOT_SECONDS}."""


class Connect4Engine:
    """The Connect Four engine factory."""

    name = "connect4"
    parameters: Sequence[Parameter] = PARAMETERS
    hiddenInformation = False
    """Every seat sees the whole board: nothing to hide while a game is live."""

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """Every move is public."""
        return True

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> Connect4Game | Errors:
        checked = checkParameters(self.parameters, params)
        if isinstance(checked, Errors):
            return checked
        return Connect4Game(checked)

    def bot(self, params: Mapping[str, JSON]) -> Bot:
        return connect4Bot


ENGINE = Connect4Engine()
