"""Test helpers for the shared game-engine layer: Connect Four games and scripted seat holders."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    JSON,
    Errors,
    IncorrectValue,
    Instructions,
    Parameter,
    Seat,
)
from gameproto.engine.record import MemoryRecordStore
from gameproto.engine.table import Table
from gameproto.games.connect4 import ENGINE, Board, Connect4Game

RED, YELLOW, WHITE = "#d62828", "#f6c90e", "#ffffff"

# A 7x6 game the engine's own bot draws against itself.
DRAW_7x6 = [3, 3, 3, 3, 2, 4, 4, 4, 2, 4, 4, 6, 3, 5, 5, 2, 2, 2, 0, 1, 3,
            1, 4, 1, 1, 1, 1, 2, 0, 0, 6, 0, 0, 6, 5, 6, 5, 5, 5, 0, 6, 6]
# Seat 0 stacks four in column 0.
SEAT0_WINS = [0, 1, 0, 1, 0, 1, 0]
# Seat 1 stacks four in column 0.
SEAT1_WINS = [6, 0, 1, 0, 1, 0, 2, 0]


def game(params: Mapping[str, JSON] | None = None) -> Connect4Game:
    """A started Connect Four game, failing the test on errors."""
    started = ENGINE.start(params or {})
    assert isinstance(started, Connect4Game), started
    return started


def playAll(g: Connect4Game, columns: Sequence[int]) -> Instructions:
    """Play ``columns`` in turn; every move must be accepted."""
    outcome: Instructions | Errors = g.instructions()
    for column in columns:
        outcome = g.act(g.board.turn, column)
        assert isinstance(outcome, Instructions), outcome
    assert isinstance(outcome, Instructions)
    return outcome


def assertRefused(
    case: SynchronousTestCase, parameter: Parameter, value: JSON
) -> None:
    """``parameter`` refuses ``value`` with INCORRECT_VALUE carrying the value as given."""
    outcome = parameter.convert(value)
    case.assertIsInstance(outcome, IncorrectValue, repr(value))
    assert isinstance(outcome, IncorrectValue)
    case.assertEqual(outcome.arg, parameter.name)
    case.assertIs(outcome.value, value)


def firstLegal(view: Board, seat: Seat) -> int:
    """A cheap bot: the leftmost legal column."""
    return view.legal_columns()[0]


class Holder:
    """A scripted seat holder that records every call the table makes."""

    def __init__(
        self,
        name: str,
        timeout: float | None = None,
        onUpdate: Callable[[Table, Seat, Instructions], object] | None = None,
        onTimeout: Callable[[Table, Seat], object] | None = None,
    ) -> None:
        self.name = name
        self.timeout = timeout
        self.onUpdate = onUpdate
        self.onTimeout = onTimeout
        self.updates: list[tuple[Seat, Instructions]] = []
        self.timeoutAsked: list[tuple[Seat, int]] = []
        self.timeouts: list[tuple[Seat, float]] = []

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        self.timeoutAsked.append((seat, table.turn))
        return self.timeout

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        self.updates.append((seat, instructions))
        if self.onUpdate is not None:
            self.onUpdate(table, seat, instructions)

    def timedOut(self, table: Table, seat: Seat) -> None:
        self.timeouts.append((seat, table.clock.seconds()))
        if self.onTimeout is not None:
            self.onTimeout(table, seat)

    def moves(self) -> list[tuple[Seat | None, JSON]]:
        """The (seat, column) of every move event seen, in order."""
        return [(e.seat, e.data) for _, i in self.updates for e in i.events if e.kind == "move"]


def boardOf(table: Table) -> Board:
    """The board of a Connect Four table."""
    engine = table.engine
    assert isinstance(engine, Connect4Game), engine
    return engine.board


def makeTable(
    holders: Sequence[Any],
    clock: Clock,
    params: dict[str, JSON] | None = None,
    store: MemoryRecordStore | None = None,
) -> Table:
    return Table.create(ENGINE, params or {}, holders, clock, store)
