"""Tests for the shared game-engine layer: contract, records, tables, queues, clocks."""

from __future__ import annotations

import json
import math
import random
from typing import Any, Callable, Mapping, Sequence

import attrs
from hypothesis import given, settings, strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.clock import Deadline
from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Display,
    Errors,
    Event,
    GameState,
    IncorrectValue,
    Instructions,
    MissingAction,
    MissingArgument,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    UnexpectedArgument,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkParameters,
    describe,
)
from gameproto.engine.lobby import MatchQueue
from gameproto.engine.record import (
    GameRecord,
    MemoryRecordStore,
    RecordedAction,
    ReplayError,
    replay,
)
from gameproto.engine.table import BotSeat, Table
from gameproto.games.connect4 import (
    ENGINE,
    Board,
    Connect4Game,
    connect4Bot,
)

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


def makeTable(
    holders: Sequence[Any],
    clock: Clock,
    params: dict[str, JSON] | None = None,
    store: MemoryRecordStore | None = None,
) -> Table:
    return Table.create(ENGINE, params or {}, holders, clock, store)


# -- 1. the contract ---------------------------------------------------------

WIDTH = Parameter("width", "int", "columns", 7, 6, 255)
RATIO = Parameter("ratio", "float", "a ratio", 0.5, 0.0, 1.0)
NAME = Parameter("name", "string", "a name", "bob", format="[a-z]{1,8}")
SEED = Parameter("seed", "int", "required seed")
DESCRIBED = (WIDTH, RATIO, NAME, SEED)

jsonValues = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)


class ParameterConvertTests(SynchronousTestCase):
    """L{Parameter.convert}: types, strings, ranges and refusals."""

    def test_intAccepted(self) -> None:
        """Ints in range, integral floats and numeric strings convert to int."""
        for given_, expected in [(7, 7), (6, 6), (255, 255), ("9", 9), (" 8 ", 8), (10.0, 10)]:
            converted = WIDTH.convert(given_)
            self.assertEqual(converted, expected)
            self.assertIs(type(converted), int)

    def test_intRefused(self) -> None:
        """Out of range, fractional, non-numeric, bools and containers are INCORRECT_VALUE."""
        for value in [5, 256, -7, 7.5, "7.5", "seven", "", None, [7], {"v": 7},
                      True, False, float("nan"), float("inf"), "1e3"]:
            assertRefused(self, WIDTH, value)

    def test_floatAccepted(self) -> None:
        """Floats and numeric strings in range convert."""
        self.assertEqual(RATIO.convert(0.25), 0.25)
        self.assertEqual(RATIO.convert("0.75"), 0.75)
        self.assertEqual(RATIO.convert("1e-1"), 0.1)
        self.assertEqual(RATIO.convert(1), 1)

    def test_floatParameterGivesFloat(self) -> None:
        """A float parameter gives a float whether the number came as int or string."""
        self.assertIs(type(RATIO.convert("1")), float)
        self.assertIs(type(RATIO.convert(1)), float)

    def test_floatRefused(self) -> None:
        """NaN, infinities (as floats or strings), bools and out-of-range values are refused."""
        unbounded = Parameter("x", "float", "anything")
        for value in [float("nan"), float("inf"), float("-inf"), "nan", "inf",
                      "-Infinity", "1e400", True, "x", None]:
            assertRefused(self, unbounded, value)
        self.assertEqual(RATIO.convert(1.5), IncorrectValue("ratio", 1.5))
        self.assertEqual(RATIO.convert("-0.1"), IncorrectValue("ratio", "-0.1"))

    def test_stringFormat(self) -> None:
        """A string must match its ``format`` entirely; non-strings are refused."""
        self.assertEqual(NAME.convert("alice"), "alice")
        for value in ["Alice", "alice1", "toolongname", "", 3, None, ["a"]]:
            self.assertEqual(NAME.convert(value), IncorrectValue("name", value), repr(value))
        free = Parameter("free", "string", "any text")
        self.assertEqual(free.convert(""), "")
        self.assertEqual(free.convert("12"), "12")

    @settings(max_examples=50)
    @given(st.integers(-1000, 1000))
    def test_intRange(self, value: int) -> None:
        """An int (or its string) is accepted exactly when it lies in the range."""
        expected = value if 6 <= value <= 255 else IncorrectValue("width", value)
        self.assertEqual(WIDTH.convert(value), expected)
        expectedText = value if 6 <= value <= 255 else IncorrectValue("width", str(value))
        self.assertEqual(WIDTH.convert(str(value)), expectedText)


class CheckParametersTests(SynchronousTestCase):
    """L{checkParameters} and L{describe}."""

    def test_defaultsFilled(self) -> None:
        """Absent optional parameters take their defaults; given ones are converted."""
        self.assertEqual(
            checkParameters(DESCRIBED, {"seed": "42", "width": "9"}),
            {"width": 9, "ratio": 0.5, "name": "bob", "seed": 42},
        )

    def test_missingArgument(self) -> None:
        """A required parameter absent gives MISSING_ARGUMENT."""
        self.assertEqual(checkParameters(DESCRIBED, {}), Errors((MissingArgument("seed"),)))

    def test_incorrectValue(self) -> None:
        """A bad value gives INCORRECT_VALUE with the value as given."""
        self.assertEqual(
            checkParameters(DESCRIBED, {"seed": 1, "width": 3}),
            Errors((IncorrectValue("width", 3),)),
        )

    def test_unexpectedArgument(self) -> None:
        """An unknown parameter gives UNEXPECTED_ARGUMENT."""
        self.assertEqual(
            checkParameters(DESCRIBED, {"seed": 1, "colour": "red"}),
            Errors((UnexpectedArgument("colour", "red"),)),
        )

    def test_severalErrors(self) -> None:
        """Every error is reported at once."""
        outcome = checkParameters(DESCRIBED, {"colour": "red", "width": "x", "name": "B"})
        self.assertIsInstance(outcome, Errors)
        assert isinstance(outcome, Errors)
        self.assertEqual(
            set(outcome.errors),
            {
                UnexpectedArgument("colour", "red"),
                IncorrectValue("width", "x"),
                IncorrectValue("name", "B"),
                MissingArgument("seed"),
            },
        )
        self.assertEqual(len(outcome.errors), 4)

    def test_describe(self) -> None:
        """L{describe} gives type, description, range, format and default."""
        self.assertEqual(
            describe(DESCRIBED),
            {
                "width": {"type": "int", "description": "columns", "range": [6, 255],
                          "default": 7},
                "ratio": {"type": "float", "description": "a ratio", "range": [0.0, 1.0],
                          "default": 0.5},
                "name": {"type": "string", "description": "a name", "format": "[a-z]{1,8}",
                         "default": "bob"},
                "seed": {"type": "int", "description": "required seed"},
            },
        )
        self.assertTrue(SEED.required)
        self.assertFalse(WIDTH.required)

    def test_describeConnect4(self) -> None:
        """The Connect Four engine describes players, width and height."""
        described = describe(ENGINE.parameters)
        self.assertEqual(set(described), {"players", "width", "height"})
        self.assertEqual(described["players"]["range"], [2, 2])
        self.assertEqual(described["width"]["range"], [6, 255])
        self.assertEqual(described["width"]["default"], 7)
        self.assertEqual(described["height"]["default"], 6)

    @settings(max_examples=150)
    @given(st.dictionaries(
        st.sampled_from([p.name for p in DESCRIBED]) | st.text(max_size=6),
        jsonValues,
        max_size=6,
    ))
    def test_neverRaises(self, given_: dict[str, JSON]) -> None:
        """Any JSON-like dict gives a complete dict of valid values, or errors."""
        outcome = checkParameters(DESCRIBED, given_)
        if isinstance(outcome, Errors):
            self.assertTrue(outcome.errors)
            json.dumps(outcome.asJSON())
            unknown = set(given_) - {p.name for p in DESCRIBED}
            reported = {e.argname for e in outcome.errors if isinstance(e, UnexpectedArgument)}
            self.assertEqual(reported, unknown)
        else:
            self.assertIsInstance(outcome, dict)
            self.assertEqual(set(outcome), {p.name for p in DESCRIBED})
            self.assertIn("seed", given_)
            for parameter in DESCRIBED:
                self.assertEqual(parameter.convert(outcome[parameter.name]),
                                 outcome[parameter.name])


class ErrorJSONTests(SynchronousTestCase):
    """The exact JSON of every error, players shown from 1."""

    def test_badFormat(self) -> None:
        self.assertEqual(BadFormat().asJSON(), {"type": "BAD_FORMAT"})

    def test_missingArgument(self) -> None:
        self.assertEqual(MissingArgument("players").asJSON(),
                         {"type": "MISSING_ARGUMENT", "arg": "players"})

    def test_incorrectValue(self) -> None:
        self.assertEqual(IncorrectValue("width", "99x").asJSON(),
                         {"type": "INCORRECT_VALUE", "arg": "width", "value": "99x"})

    def test_unexpectedArgument(self) -> None:
        self.assertEqual(UnexpectedArgument("colour", 3).asJSON(),
                         {"type": "UNEXPECTED_ARGUMENT", "argname": "colour", "value": 3})

    def test_unexpectedAction(self) -> None:
        self.assertEqual(UnexpectedAction(0, {"type": "KEY", "key": "a"}).asJSON(),
                         {"type": "UNEXPECTED_ACTION", "player": 1,
                          "action": {"type": "KEY", "key": "a"}})

    def test_missingAction(self) -> None:
        requested = RequestedAction(2, "KEY", keys="ZQSD").asJSON()
        self.assertEqual(MissingAction(2, requested).asJSON(),
                         {"type": "MISSING_ACTION", "player": 3, "requested_action": requested})

    def test_wrongAction(self) -> None:
        for subtype in WrongActionSubtype.ALL:
            self.assertEqual(
                WrongAction(subtype, 1, {"type": "TEXT", "text": ""}, {"type": "TEXT"}).asJSON(),
                {"type": "WRONG_ACTION", "subtype": subtype, "player": 2,
                 "action": {"type": "TEXT", "text": ""}, "requested_action": {"type": "TEXT"}},
            )

    def test_wrongActionSubtypeChecked(self) -> None:
        """An unknown WRONG_ACTION subtype is refused at construction."""
        self.assertRaises(ValueError, WrongAction, "NOT_A_SUBTYPE")

    def test_errors(self) -> None:
        """L{Errors.asJSON} lists every error in order under ``errors``."""
        errors = Errors((BadFormat(), UnexpectedAction(1, 4)))
        self.assertEqual(errors.asJSON(), {"errors": [
            {"type": "BAD_FORMAT"},
            {"type": "UNEXPECTED_ACTION", "player": 2, "action": 4},
        ]})
        self.assertEqual(json.loads(json.dumps(errors.asJSON())), errors.asJSON())


class InstructionsTests(SynchronousTestCase):
    """Requested actions, per-seat instructions, their JSON."""

    def test_requestedClick(self) -> None:
        action = RequestedAction(1, "CLICK", zones=(Zone(0, 0, 50, 50), Zone(100, 200, 50, 50)),
                                 buttons=("LEFT", "RIGHT"), confirm=True)
        self.assertEqual(action.asJSON(), {
            "type": "CLICK", "player": 2,
            "zones": [{"x": 0, "y": 0, "width": 50, "height": 50},
                      {"x": 100, "y": 200, "width": 50, "height": 50}],
            "buttons": ["LEFT", "RIGHT"], "confirm": True,
        })

    def test_requestedKey(self) -> None:
        self.assertEqual(RequestedAction(2, "KEY", keys="ZQSD").asJSON(),
                         {"type": "KEY", "player": 3, "keys": "ZQSD", "confirm": False})

    def test_requestedText(self) -> None:
        """TEXT carries regex and max_length and no ``confirm``."""
        self.assertEqual(RequestedAction(0, "TEXT", regex="^a+$", max_length=8).asJSON(),
                         {"type": "TEXT", "player": 1, "regex": "^a+$", "max_length": 8})

    def test_zoneContains(self) -> None:
        zone = Zone(10, 20, 5, 5)
        self.assertTrue(zone.contains(10, 20))
        self.assertTrue(zone.contains(14.9, 24.9))
        self.assertFalse(zone.contains(15, 20))
        self.assertFalse(zone.contains(10, 25))
        self.assertFalse(zone.contains(9.9, 22))

    def test_forSeatFilters(self) -> None:
        """Events with an audience reach only it; public events reach everyone."""
        public = Event("played", 3, 0)
        mine = Event("drew", "ace", 0, frozenset({0}))
        theirs = Event("drew", "king", 1, frozenset({1}))
        both = Event("shown", "queen", None, frozenset({0, 1}))
        instructions = Instructions((), GameState((0, 0, 0), False), (public, mine, theirs, both))
        self.assertEqual(instructions.forSeat(0).events, (public, mine, both))
        self.assertEqual(instructions.forSeat(1).events, (public, theirs, both))
        self.assertEqual(instructions.forSeat(2).events, (public,))
        self.assertEqual(instructions.forSeat(0).game_state, instructions.game_state)

    def test_forSeatAllPublic(self) -> None:
        """With every event public, the very same object is returned."""
        instructions = Instructions((), GameState((0, 0), False), (Event("a"), Event("b", 1, 1)))
        self.assertIs(instructions.forSeat(0), instructions)
        self.assertIs(instructions.forSeat(1), instructions)

    def test_asks(self) -> None:
        instructions = Instructions(
            (RequestedAction(0, "KEY"), RequestedAction(2, "TEXT")), GameState((0, 0, 0), False))
        self.assertEqual([instructions.asks(s) for s in range(4)], [True, False, True, False])
        self.assertFalse(Instructions((), GameState((1, 0), True)).asks(0))

    def test_instructionsJSON(self) -> None:
        """INSTRUCTIONS JSON: displays given, requested actions, state; initvalues only if set."""
        requested = RequestedAction(1, "KEY", keys="AB")
        display = Display(1, 10, 20, ({"tag": "rect", "x": 0},))
        plain = Instructions((requested,), GameState((0, 3), False))
        self.assertEqual(plain.asJSON([display]), {
            "displays": [{"player": 2, "width": 10, "height": 20,
                          "content": [{"tag": "rect", "x": 0}]}],
            "requested_actions": [{"type": "KEY", "player": 2, "keys": "AB", "confirm": False}],
            "game_state": {"scores": [0, 3], "gameover": False},
        })
        initial = attrs.evolve(plain, initvalues={"deck": [3, 1, 2]})
        self.assertEqual(initial.asJSON()["initvalues"], {"deck": [3, 1, 2]})
        self.assertEqual(initial.asJSON()["displays"], [])


# -- 2. the Connect Four engine ----------------------------------------------


class Connect4EngineTests(SynchronousTestCase):
    """Connect Four through the engine contract."""

    def test_startDefaults(self) -> None:
        """Without params: 7x6, two players, seat 0 asked to click one of 7 columns."""
        g = game()
        self.assertEqual(g.params, {"players": 2, "width": 7, "height": 6})
        self.assertEqual((g.board.width, g.board.height), (7, 6))
        self.assertEqual(g.players, 2)
        instructions = g.instructions()
        self.assertEqual(instructions.initvalues, {})
        self.assertEqual(instructions.game_state, GameState((0, 0), False))
        self.assertEqual(len(instructions.requested_actions), 1)
        requested = instructions.requested_actions[0]
        self.assertEqual((requested.player, requested.type, requested.buttons),
                         (0, "CLICK", ("LEFT",)))
        self.assertEqual(requested.zones, tuple(Zone(c * 40, 0, 40, 240) for c in range(7)))
        self.assertTrue(instructions.asks(0))
        self.assertFalse(instructions.asks(1))

    def test_startWithParams(self) -> None:
        """Sizes may come as ints or as strings."""
        self.assertEqual((game({"width": 9, "height": 8}).board.width,
                          game({"width": 9, "height": 8}).board.height), (9, 8))
        g = game({"players": "2", "width": "10", "height": "6"})
        self.assertEqual((g.board.width, g.board.height), (10, 6))
        self.assertEqual(g.params, {"players": 2, "width": 10, "height": 6})

    def test_startRefused(self) -> None:
        """Bad params give the document's init errors, all at once."""
        self.assertEqual(ENGINE.start({"width": 5}), Errors((IncorrectValue("width", 5),)))
        self.assertEqual(ENGINE.start({"players": 3}), Errors((IncorrectValue("players", 3),)))
        self.assertEqual(ENGINE.start({"height": True}),
                         Errors((IncorrectValue("height", True),)))
        self.assertEqual(ENGINE.start({"height": "256"}),
                         Errors((IncorrectValue("height", "256"),)))
        outcome = ENGINE.start({"colour": "red", "width": "wide", "height": 300})
        self.assertIsInstance(outcome, Errors)
        assert isinstance(outcome, Errors)
        self.assertEqual(set(outcome.errors), {
            UnexpectedArgument("colour", "red"),
            IncorrectValue("width", "wide"),
            IncorrectValue("height", 300),
        })

    def test_wrongSeat(self) -> None:
        """Acting out of turn is UNEXPECTED_ACTION and changes nothing."""
        g = game()
        outcome = g.act(1, 3)
        self.assertEqual(outcome, Errors((UnexpectedAction(1, 3),)))
        assert isinstance(outcome, Errors)
        self.assertEqual(outcome.asJSON(),
                         {"errors": [{"type": "UNEXPECTED_ACTION", "player": 2, "action": 3}]})
        self.assertEqual(g.board, Board.empty())
        self.assertEqual(g.act(5, 3), Errors((UnexpectedAction(5, 3),)))

    def test_badFormat(self) -> None:
        """A move that is not an int is BAD_FORMAT."""
        g = game()
        for action in ["3", 3.0, True, None, [3], {"column": 3}]:
            self.assertEqual(g.act(0, action), Errors((BadFormat(),)), repr(action))
        self.assertEqual(g.board, Board.empty())

    def test_outOfZone(self) -> None:
        """Full or out-of-range columns are WRONG_ACTION/OUT_OF_ZONE with the requested action."""
        g = game()
        playAll(g, [0, 0, 0, 0, 0, 0])
        before = g.board
        requested = g.instructions().requested_actions[0]
        self.assertNotIn(Zone(0, 0, 40, 240), requested.zones)
        for column in [0, 7, -1, 1000]:
            self.assertEqual(
                g.act(0, column),
                Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, 0, column,
                                    requested.asJSON()),)),
            )
        self.assertEqual(g.board, before)

    def test_moveEvent(self) -> None:
        """An accepted move gives a public move event and asks the other seat."""
        g = game()
        outcome = g.act(0, 3)
        self.assertIsInstance(outcome, Instructions)
        assert isinstance(outcome, Instructions)
        self.assertEqual(outcome.events, (Event("move", 3, 0),))
        self.assertEqual(outcome.game_state, GameState((0, 0), False))
        self.assertTrue(outcome.asks(1))
        self.assertFalse(outcome.asks(0))
        self.assertIsNone(outcome.initvalues)
        self.assertEqual(g.board, Board.from_moves([3]))

    def test_seat0Wins(self) -> None:
        g = game()
        outcome = playAll(g, SEAT0_WINS)
        self.assertEqual(outcome.game_state, GameState((1, 0), True))
        self.assertEqual(outcome.requested_actions, ())
        self.assertEqual(outcome.events, (Event("move", 0, 0), Event("end", 0)))
        self.assertEqual(g.winner, 0)
        self.assertEqual(g.act(1, 2), Errors((UnexpectedAction(1, 2),)))
        self.assertEqual(g.instructions().game_state, GameState((1, 0), True))

    def test_seat1Wins(self) -> None:
        g = game()
        outcome = playAll(g, SEAT1_WINS)
        self.assertEqual(outcome.game_state, GameState((0, 1), True))
        self.assertEqual(outcome.events[-1], Event("end", 1))
        self.assertEqual(g.winner, 1)

    def test_draw(self) -> None:
        g = game()
        outcome = playAll(g, DRAW_7x6)
        self.assertTrue(g.board.is_full)
        self.assertEqual(outcome.game_state, GameState((0, 0), True))
        self.assertEqual(outcome.events[-1], Event("end", None))
        self.assertEqual(outcome.requested_actions, ())
        self.assertIsNone(g.winner)

    def test_resign(self) -> None:
        """Resigning gives the other seat the win, whoever's turn it was."""
        for seat in (0, 1):
            g = game()
            playAll(g, [3])
            outcome = g.resign(seat)
            self.assertEqual(outcome.game_state.gameover, True)
            self.assertEqual(outcome.game_state.scores, (int(seat == 1), int(seat == 0)))
            self.assertEqual(outcome.events, (Event("resign", None, seat), Event("end", 1 - seat)))
            self.assertEqual(g.act(g.board.turn, 4), Errors((UnexpectedAction(g.board.turn, 4),)))

    @settings(max_examples=40)
    @given(st.integers(6, 40), st.integers(6, 40), st.data())
    def test_decodeClick(self, width: int, height: int, data: st.DataObject) -> None:
        """A click's x inside a column's zone decodes to that column."""
        g = game({"width": width, "height": height})
        zones = g.instructions().requested_actions[0].zones
        assert zones is not None
        column = data.draw(st.integers(0, width - 1))
        zone = zones[column]
        x = data.draw(st.floats(zone.x, zone.x + zone.width, exclude_max=True))
        y = data.draw(st.floats(zone.y, zone.y + zone.height, exclude_max=True))
        self.assertEqual(g.decodeAction(0, {"type": "CLICK", "x": x, "y": y}), column)

    def test_decodeRefused(self) -> None:
        """Wrong seat, wrong kind, bad x and full columns are refused with the right errors."""
        g = game()
        click = {"type": "CLICK", "x": 10, "y": 10}
        self.assertEqual(g.decodeAction(1, click), Errors((UnexpectedAction(1, click),)))
        key = {"type": "KEY", "key": "a"}
        self.assertEqual(g.decodeAction(0, key), Errors((UnexpectedAction(0, key),)))
        for x in ["10", True, None]:
            self.assertEqual(g.decodeAction(0, {"type": "CLICK", "x": x, "y": 10}),
                             Errors((BadFormat(),)))
        self.assertEqual(g.decodeAction(0, {"type": "CLICK", "y": 10}), Errors((BadFormat(),)))
        requested = g.instructions().requested_actions[0].asJSON()
        for x in [-1, 280, 1e308]:
            wrong = {"type": "CLICK", "x": x, "y": 10}
            self.assertEqual(
                g.decodeAction(0, wrong),
                Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, 0, wrong, requested),)),
            )
        playAll(g, [0] * 6)
        requested = g.instructions().requested_actions[0].asJSON()
        self.assertEqual(
            g.decodeAction(0, click),
            Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, 0, click, requested),)),
        )

    def test_decodeNonFiniteX(self) -> None:
        """A NaN or infinite x (json.loads accepts them) is refused, not raised."""
        g = game()
        for text in ['{"type": "CLICK", "x": NaN, "y": 10}',
                     '{"type": "CLICK", "x": Infinity, "y": 10}',
                     '{"type": "CLICK", "x": -Infinity, "y": 10}']:
            outcome = g.decodeAction(0, json.loads(text))
            self.assertIsInstance(outcome, Errors, text)

    def test_decodeClickOutsideZoneVertically(self) -> None:
        """A click below or above the requested zones is OUT_OF_ZONE too."""
        g = game()
        requested = g.instructions().requested_actions[0].asJSON()
        for y in [-5, 240, 10_000]:
            click = {"type": "CLICK", "x": 10, "y": y}
            self.assertEqual(
                g.decodeAction(0, click),
                Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, 0, click, requested),)),
                repr(y),
            )

    def test_display(self) -> None:
        """One background, one circle per cell, one text; stones in their colours."""
        g = game({"width": 8, "height": 6})
        playAll(g, [0, 7])
        for seat in (0, 1):
            display = g.display(seat)
            self.assertEqual(display.player, seat)
            self.assertEqual((display.width, display.height), (8 * 40, 6 * 40 + 24))
            tags = [tag["tag"] for tag in display.content]
            self.assertEqual(tags, ["rect"] + ["circle"] * 48 + ["text"])
            circles = display.content[1:-1]
            bottomLeft, bottomRight = circles[5 * 8], circles[5 * 8 + 7]
            self.assertEqual((bottomLeft["cx"], bottomLeft["cy"], bottomLeft["fill"]),
                             (20, 220, RED))
            self.assertEqual((bottomRight["cx"], bottomRight["fill"]), (300, YELLOW))
            self.assertEqual(sum(c["fill"] == WHITE for c in circles), 46)
            self.assertEqual(display.content[-1]["content"],
                             "your move" if seat == 0 else "their move")
            described = display.asJSON()
            self.assertEqual(described["player"], seat + 1)
            self.assertEqual(len(described["content"]), 50)
            json.dumps(described)

    def test_displayEnd(self) -> None:
        g = game()
        playAll(g, SEAT0_WINS)
        self.assertEqual(g.display(0).content[-1]["content"], "you win")
        self.assertEqual(g.display(1).content[-1]["content"], "you lose")
        drawn = game()
        playAll(drawn, DRAW_7x6)
        self.assertEqual(drawn.display(1).content[-1]["content"], "draw")

    def test_botAndView(self) -> None:
        """The engine's bot picks a legal column from a seat's view; it wins when it can."""
        g = game()
        playAll(g, [0, 1, 0, 1, 0, 1])
        bot = ENGINE.bot(g.params)
        self.assertIs(bot, connect4Bot)
        self.assertEqual(bot(g.view(0), 0), 0)
        self.assertIs(g.view(1), g.board)


# -- 3. records and replay ---------------------------------------------------


def playRecorded(
    width: int, height: int, choices: Sequence[int], resign: Seat | None, clock: Clock
) -> tuple[Table, list[Board]]:
    """Play ``choices`` (indices into the legal columns) at a table; the boards after each move."""
    table = makeTable([Holder("a"), Holder("b")], clock, {"width": width, "height": height})
    table.start()
    engine = table.engine
    assert isinstance(engine, Connect4Game)
    boards = [engine.board]
    for choice in choices:
        if table.finished:
            break
        legal = engine.board.legal_columns()
        outcome = table.act(engine.board.turn, legal[choice % len(legal)])
        assert isinstance(outcome, Instructions), outcome
        boards.append(engine.board)
        clock.advance(1.5)
    if resign is not None and not table.finished:
        table.resign(resign)
        boards.append(engine.board)
    return table, boards


class ReplayTests(SynchronousTestCase):
    """Records replay to any turn."""

    @settings(max_examples=25, deadline=None)
    @given(st.integers(6, 9), st.integers(6, 9),
           st.lists(st.integers(0, 100), max_size=81), st.none() | st.sampled_from([0, 1]))
    def test_replayEveryTurn(
        self, width: int, height: int, choices: list[int], resign: Seat | None
    ) -> None:
        """The full replay and the replay to every turn give exactly the boards played."""
        table, boards = playRecorded(width, height, choices, resign, Clock())
        self.assertEqual(len(table.record.actions), len(boards) - 1)
        whole = replay(ENGINE, table.record)
        assert isinstance(whole, Connect4Game)
        engine = table.engine
        assert isinstance(engine, Connect4Game)
        self.assertEqual(whole.board, engine.board)
        self.assertEqual((whole.over, whole.winner), (engine.over, engine.winner))
        for turn, board in enumerate(boards):
            again = replay(ENGINE, table.record, turn=turn)
            assert isinstance(again, Connect4Game)
            self.assertEqual(again.board, board)
        roundTripped = GameRecord.fromJSON(json.loads(json.dumps(table.record.asJSON())))
        fromJSON = replay(ENGINE, roundTripped)
        assert isinstance(fromJSON, Connect4Game)
        self.assertEqual((fromJSON.board, fromJSON.winner), (engine.board, engine.winner))

    def test_resignReplays(self) -> None:
        """A resign is recorded and replayed: the same winner, the same board."""
        clock = Clock()
        table, _ = playRecorded(7, 6, [3, 2, 1], 1, clock)
        self.assertEqual(table.record.actions[-1], RecordedAction(1, None, 4.5, "resign"))
        self.assertEqual(table.record.scores, [1, 0])
        again = replay(ENGINE, table.record)
        assert isinstance(again, Connect4Game)
        self.assertEqual((again.resigned, again.winner, again.over), (1, 0, True))
        before = replay(ENGINE, table.record, turn=3)
        assert isinstance(before, Connect4Game)
        self.assertFalse(before.over)

    def test_turnBounds(self) -> None:
        """Turn 0 (or below) is the start; a turn past the end is the whole game."""
        table, boards = playRecorded(7, 6, [0, 1, 2], None, Clock())
        for turn, expected in [(0, boards[0]), (-3, boards[0]), (99, boards[-1])]:
            again = replay(ENGINE, table.record, turn=turn)
            assert isinstance(again, Connect4Game)
            self.assertEqual(again.board, expected)

    def test_recordJSONRoundTrip(self) -> None:
        """asJSON/fromJSON through json text keeps everything, finished or not."""
        clock = Clock()
        clock.advance(100)
        table, _ = playRecorded(6, 7, SEAT0_WINS, None, clock)
        record = table.record
        self.assertTrue(record.isFinished)
        text = json.dumps(record.asJSON())
        back = GameRecord.fromJSON(json.loads(text))
        self.assertEqual(back.asJSON(), record.asJSON())
        self.assertEqual(back.actions, record.actions)
        self.assertEqual(back.params, {"players": 2, "width": 6, "height": 7})
        self.assertEqual(back.seats, ["a", "b"])
        self.assertEqual(back.started, 100)
        self.assertEqual(back.scores, [1, 0])
        self.assertTrue(back.isFinished)
        live = GameRecord(3, "connect4", {}, {}, ["x", "y"], 1.0,
                          [RecordedAction(0, 2, 1.5)])
        liveBack = GameRecord.fromJSON(json.loads(json.dumps(live.asJSON())))
        self.assertEqual(liveBack.asJSON(), live.asJSON())
        self.assertFalse(liveBack.isFinished)
        self.assertEqual(RecordedAction.fromJSON({"seat": 1, "action": 0, "at": 2}),
                         RecordedAction(1, 0, 2, "act"))

    def test_refusedActionRaises(self) -> None:
        """An action the engine refuses makes the replay fail with L{ReplayError}."""
        for bad in [RecordedAction(0, 7, 0.0), RecordedAction(1, 3, 0.0),
                    RecordedAction(0, "3", 0.0)]:
            record = GameRecord(1, "connect4", {}, {}, ["a", "b"], 0.0,
                                [RecordedAction(0, 3, 0.0), RecordedAction(1, 3, 0.0), bad])
            self.assertRaises(ReplayError, replay, ENGINE, record)
            again = replay(ENGINE, record, turn=2)
            assert isinstance(again, Connect4Game)
            self.assertEqual(again.board, Board.from_moves([3, 3]))

    def test_otherEngineRaises(self) -> None:
        record = GameRecord(1, "chess", {}, {}, ["a", "b"], 0.0)
        self.assertRaises(ReplayError, replay, ENGINE, record)

    def test_badParamsRaise(self) -> None:
        record = GameRecord(1, "connect4", {"width": 3}, {}, ["a", "b"], 0.0)
        self.assertRaises(ReplayError, replay, ENGINE, record)


# -- 4. tables ---------------------------------------------------------------


@attrs.define
class CountingStore(MemoryRecordStore):
    """A memory store that also counts what it was told."""

    accepted: list[RecordedAction] = attrs.Factory(list)
    finished: list[GameRecord] = attrs.Factory(list)

    def actionAccepted(self, record: GameRecord, action: RecordedAction) -> None:
        self.accepted.append(action)

    def gameFinished(self, record: GameRecord) -> None:
        self.finished.append(record)


class SecretGame:
    """
    A tiny two-seat engine with private events: seat 0 then seat 1 each play
    once, drawing a card only they see.
    """

    players = 2

    def __init__(self) -> None:
        self.params: dict[str, JSON] = {}
        self.initvalues: dict[str, JSON] = {"cards": ["ace", "king"]}
        self.played = 0

    def _instructions(self, events: tuple[Event, ...]) -> Instructions:
        over = self.played == 2
        requested = () if over else (RequestedAction(self.played, "KEY"),)
        return Instructions(requested, GameState((0, 0), over), events)

    def instructions(self) -> Instructions:
        return attrs.evolve(self._instructions(()), initvalues=self.initvalues)

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if seat != self.played:
            return Errors((UnexpectedAction(seat, action),))
        self.played += 1
        card = self.initvalues["cards"][seat]
        return self._instructions((Event("drew", card, seat, frozenset({seat})),
                                   Event("played", action, seat)))

    def resign(self, seat: Seat) -> Instructions:
        self.played = 2
        return self._instructions(())


class SecretFactory:
    name = "secret"
    parameters: tuple[Parameter, ...] = ()

    def start(self, params: Any, initvalues: Any = None, rng: Any = None) -> SecretGame:
        return SecretGame()


class TableTests(SynchronousTestCase):
    """Tables with scripted holders on a fake clock."""

    def setUp(self) -> None:
        self.clock = Clock()

    def test_wrongSeatCount(self) -> None:
        self.assertRaises(ValueError, makeTable, [Holder("a")], self.clock)

    def test_badParams(self) -> None:
        self.assertRaises(ValueError, makeTable, [Holder("a"), Holder("b")], self.clock,
                          {"width": 2})

    def test_start(self) -> None:
        """Start stores the record and tells every seat where the game stands."""
        store = CountingStore()
        self.clock.advance(12)
        a, b = Holder("alice"), Holder("bob")
        table = makeTable([a, b], self.clock, {"width": 8}, store)
        self.assertIsNone(store.get(table.id))
        self.assertEqual((a.updates, b.updates), ([], []))
        table.start()
        self.assertIs(store.get(table.id), table.record)
        self.assertEqual(table.record.seats, ["alice", "bob"])
        self.assertEqual(table.record.engine, "connect4")
        self.assertEqual(table.record.params, {"players": 2, "width": 8, "height": 6})
        self.assertEqual(table.record.started, 12)
        self.assertEqual(table.waiting, frozenset({0}))
        self.assertEqual(table.turn, 0)
        self.assertFalse(table.finished)
        self.assertEqual([s for s, _ in a.updates], [0])
        self.assertEqual([s for s, _ in b.updates], [1])
        self.assertEqual(a.updates[0][1], table.engine.instructions())
        self.assertEqual(a.updates[0][1].initvalues, {})
        table.start()
        self.assertEqual((len(a.updates), len(b.updates)), (1, 1))

    def test_storeIds(self) -> None:
        store = MemoryRecordStore()
        first = makeTable([Holder("a"), Holder("b")], self.clock, store=store)
        second = makeTable([Holder("a"), Holder("b")], self.clock, store=store)
        self.assertNotEqual(first.id, second.id)
        second.start()
        self.assertIs(store.get(second.id), second.record)
        self.assertIsNone(store.get(first.id))

    def test_perSeatInstructions(self) -> None:
        """Each holder gets only the events its seat may see."""
        a, b = Holder("a"), Holder("b")
        factory = SecretFactory()
        table = Table(factory, factory.start({}), [a, b], self.clock, MemoryRecordStore())
        table.start()
        self.assertIsInstance(table.act(0, "x"), Instructions)
        self.assertIsInstance(table.act(1, "y"), Instructions)
        seen = [[(e.kind, e.data) for _, i in h.updates for e in i.events] for h in (a, b)]
        self.assertEqual(seen[0], [("drew", "ace"), ("played", "x"), ("played", "y")])
        self.assertEqual(seen[1], [("played", "x"), ("drew", "king"), ("played", "y")])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.initvalues, {"cards": ["ace", "king"]})

    def test_actRecords(self) -> None:
        """An accepted action is recorded with the clock time and told to every seat."""
        store = CountingStore()
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock, store=store)
        table.start()
        self.clock.advance(5)
        outcome = table.act(0, 3)
        self.assertIsInstance(outcome, Instructions)
        self.assertEqual(table.record.actions, [RecordedAction(0, 3, 5.0)])
        self.assertEqual(store.accepted, table.record.actions)
        self.assertEqual(table.turn, 1)
        self.assertEqual(table.waiting, frozenset({1}))
        self.assertIs(a.updates[-1][1], outcome)
        self.assertIs(b.updates[-1][1], outcome)

    def test_actRefused(self) -> None:
        """A refused action returns the errors; nothing recorded, nobody told."""
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        self.assertEqual(table.act(1, 3), Errors((UnexpectedAction(1, 3),)))
        self.assertEqual(table.act(0, 9), Errors((WrongAction(
            WrongActionSubtype.OUT_OF_ZONE, 0, 9,
            table.engine.instructions().requested_actions[0].asJSON()),)))
        self.assertEqual(table.act(0, "3"), Errors((BadFormat(),)))
        self.assertEqual(table.record.actions, [])
        self.assertEqual((len(a.updates), len(b.updates)), (1, 1))

    def test_actBeforeStart(self) -> None:
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        self.assertEqual(table.act(0, 3), Errors((UnexpectedAction(0, 3),)))
        table.resign(0)
        self.assertEqual(table.record.actions, [])
        self.assertEqual(a.updates, [])

    def test_actAfterEnd(self) -> None:
        store = CountingStore()
        table = makeTable([Holder("a"), Holder("b")], self.clock, store=store)
        table.start()
        for column in SEAT0_WINS:
            table.act(table.engine.board.turn, column)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.scores, [1, 0])
        self.assertEqual(store.finished, [table.record])
        self.assertEqual(table.act(1, 2), Errors((UnexpectedAction(1, 2),)))
        table.resign(1)
        self.assertEqual(len(table.record.actions), len(SEAT0_WINS))
        self.assertEqual(table.waiting, frozenset())

    def test_turnTimeoutPerTurn(self) -> None:
        """The holder to act is asked for its time each turn; the clock runs for that seat only."""
        a, b = Holder("a", timeout=10), Holder("b", timeout=20)
        table = makeTable([a, b], self.clock)
        self.assertIsNone(table.timeLeft(0))
        table.start()
        self.assertEqual((a.timeoutAsked, b.timeoutAsked), ([(0, 0)], []))
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (10, None))
        self.clock.advance(4)
        self.assertEqual(table.timeLeft(0), 6)
        table.act(0, 3)
        self.assertEqual((a.timeoutAsked, b.timeoutAsked), ([(0, 0)], [(1, 1)]))
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (None, 20))
        self.clock.advance(19)
        table.act(1, 3)
        self.assertEqual(a.timeoutAsked, [(0, 0), (0, 2)])
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (10, None))
        self.assertEqual((a.timeouts, b.timeouts), ([], []))

    def test_noLimit(self) -> None:
        """A holder without a time limit is never timed out."""
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        self.clock.advance(10_000)
        self.assertIsNone(table.timeLeft(0))
        self.assertEqual(a.timeouts, [])
        self.assertFalse(table.finished)

    def test_timeoutResigns(self) -> None:
        """A holder that does nothing when its time runs out is resigned."""
        a, b = Holder("a", timeout=10), Holder("b", timeout=10)
        table = makeTable([a, b], self.clock)
        table.start()
        table.act(0, 3)
        self.clock.advance(9.5)
        self.assertEqual(b.timeouts, [])
        self.clock.advance(0.5)
        self.assertEqual(b.timeouts, [(1, 10)])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions[-1], RecordedAction(1, None, 10, "resign"))
        self.assertEqual(table.record.scores, [1, 0])
        self.assertTrue(a.updates[-1][1].game_state.gameover)
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (None, None))
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_timeoutRestartsClock(self) -> None:
        """A holder may restart its clock from timedOut; the next expiry with no action resigns."""
        restarted: list[bool] = []

        def onTimeout(table: Table, seat: Seat) -> None:
            if not restarted:
                restarted.append(True)
                table.restartClock(seat, 5)

        a = Holder("a", timeout=10, onTimeout=onTimeout)
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(10)
        self.assertFalse(table.finished)
        self.assertEqual(table.timeLeft(0), 5)
        self.clock.advance(5)
        self.assertEqual(a.timeouts, [(0, 10), (0, 15)])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, None, 15, "resign")])

    def test_timeoutPlayFor(self) -> None:
        """A holder that lets a bot play for it on timeout is not resigned."""
        a = Holder("a", timeout=10, onTimeout=lambda t, s: t.playFor(s, firstLegal))
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(10)
        self.assertFalse(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, 0, 10)])
        self.assertEqual(table.waiting, frozenset({1}))

    def test_timedOutRaises(self) -> None:
        """A holder whose timedOut raises is still resigned: no stuck game, the error logged."""
        def onTimeout(table: Table, seat: Seat) -> None:
            raise RuntimeError("timedOut broke")

        a, b = Holder("a", timeout=10, onTimeout=onTimeout), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        try:
            self.clock.advance(10)
        except RuntimeError:
            self.fail("the holder's timedOut error escaped the table's clock")
        self.assertTrue(table.finished)
        self.assertEqual(table.record.scores, [0, 1])
        self.assertEqual(len(self.flushLoggedErrors(RuntimeError)), 1)

    def test_restartClock(self) -> None:
        """restartClock replaces the deadline; it does nothing for a seat not asked to act."""
        a = Holder("a", timeout=10)
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(8)
        table.restartClock(0, 10)
        self.assertEqual(table.timeLeft(0), 10)
        table.restartClock(1, 10)
        self.assertIsNone(table.timeLeft(1))
        self.clock.advance(9)
        self.assertEqual(a.timeouts, [])
        self.clock.advance(1)
        self.assertEqual(a.timeouts, [(0, 18)])
        self.assertTrue(table.finished)

    def test_replaceWithBot(self) -> None:
        """A bot takes a vacated seat, gets told the game, and plays on."""
        a, b = Holder("a"), Holder("b", timeout=30)
        table = makeTable([a, b], self.clock)
        table.start()
        table.act(0, 3)
        bot = BotSeat(firstLegal, self.clock, "robot")
        table.replace(1, bot)
        self.assertIs(table.holders[1], bot)
        self.assertIsNone(table.timeLeft(1))
        self.clock.advance(0)
        self.assertEqual(table.record.actions[-1].seat, 1)
        self.assertEqual(table.record.actions[-1].action, 0)
        self.assertEqual(table.waiting, frozenset({0}))
        table.act(0, 3)
        self.clock.advance(0)
        self.assertEqual([r.seat for r in table.record.actions], [0, 1, 0, 1])
        self.assertEqual(a.moves(), [(0, 3), (1, 0), (0, 3), (1, 0)])
        self.assertEqual(b.moves(), [(0, 3)])
        self.clock.advance(100)
        self.assertEqual(b.timeouts, [])
        self.assertFalse(table.finished)

    def test_replaceInTimedOut(self) -> None:
        """A holder that hands its seat to a bot when its time runs out: the bot plays."""
        def onTimeout(table: Table, seat: Seat) -> None:
            table.replace(seat, BotSeat(firstLegal, table.clock, "robot"))

        a = Holder("a", timeout=10, onTimeout=onTimeout)
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(10)
        self.clock.advance(0)
        self.assertFalse(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, 0, 10)])

    def test_replaceBeforeStartAndAfterEnd(self) -> None:
        """Replacing before start only swaps the holder; after the end it tells nobody."""
        a, b, c = Holder("a"), Holder("b"), Holder("c")
        table = makeTable([a, b], self.clock)
        table.replace(1, c)
        self.assertEqual(c.updates, [])
        table.start()
        self.assertEqual((len(b.updates), len(c.updates)), (0, 1))
        table.resign(0)
        d = Holder("d")
        table.replace(0, d)
        self.assertEqual(d.updates, [])

    def test_updatesInOrderWhenActingInsideUpdate(self) -> None:
        """Holders acting from inside update still see every move, in order, once."""
        script = {0: [0, 0, 0, 0], 1: [1, 1, 1]}
        outcomes: list[Instructions | Errors] = []

        def eager(table: Table, seat: Seat, instructions: Instructions) -> None:
            if instructions.asks(seat) and not instructions.game_state.gameover:
                outcomes.append(table.act(seat, script[seat].pop(0)))

        a, b = Holder("a", onUpdate=eager), Holder("b", onUpdate=eager)
        table = makeTable([a, b], self.clock)
        finished: list[int] = []
        table.whenFinished().addCallback(lambda r: finished.append(len(b.updates)))
        table.start()
        self.assertTrue(table.finished)
        self.assertEqual(finished, [len(SEAT0_WINS) + 1])
        self.assertTrue(all(isinstance(o, Instructions) for o in outcomes))
        played = [(r.seat, r.action) for r in table.record.actions]
        self.assertEqual(played, list(zip([0, 1] * 4, SEAT0_WINS)))
        for holder in (a, b):
            self.assertEqual(holder.moves(), played)
            self.assertEqual(len(holder.updates), len(played) + 1)
            states = [i.game_state.gameover for _, i in holder.updates]
            self.assertEqual(states, [False] * len(played) + [True])

    def test_updateRaises(self) -> None:
        """A holder whose update raises does not stop the others being told."""
        def broken(table: Table, seat: Seat, instructions: Instructions) -> None:
            raise RuntimeError("update broke")

        a, b = Holder("a", onUpdate=broken), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        self.assertIsInstance(table.act(0, 3), Instructions)
        self.assertEqual(len(b.updates), 2)
        self.assertEqual(b.moves(), [(0, 3)])
        self.assertEqual(table.waiting, frozenset({1}))
        self.assertEqual(len(self.flushLoggedErrors(RuntimeError)), 2)

    def test_whenFinished(self) -> None:
        """whenFinished fires once with the record, after every seat got the final update."""
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        fired: list[tuple[GameRecord, bool, bool]] = []
        table.whenFinished().addCallback(lambda r: fired.append(
            (r, a.updates[-1][1].game_state.gameover, b.updates[-1][1].game_state.gameover)))
        table.start()
        for column in SEAT1_WINS[:-1]:
            table.act(table.engine.board.turn, column)
        self.assertEqual(fired, [])
        table.act(1, 0)
        self.assertEqual(fired, [(table.record, True, True)])
        late: list[GameRecord] = []
        table.whenFinished().addCallback(late.append)
        self.assertEqual(late, [table.record])
        self.assertEqual(len(fired), 1)

    def test_whenFinishedFromFinalUpdate(self) -> None:
        """Asked from inside the final update, whenFinished still waits for every seat."""
        fired: list[int] = []
        b = Holder("b")

        def onUpdate(table: Table, seat: Seat, instructions: Instructions) -> None:
            if instructions.game_state.gameover:
                table.whenFinished().addCallback(lambda r: fired.append(len(b.updates)))
                self.assertEqual(fired, [])

        a = Holder("a", onUpdate=onUpdate)
        table = makeTable([a, b], self.clock)
        table.start()
        for column in SEAT0_WINS:
            table.act(table.engine.board.turn, column)
        self.assertEqual(fired, [len(SEAT0_WINS) + 1])

    def test_botsPlayWholeGame(self) -> None:
        """Two bot seats play to the end on the clock; the record replays to the same board."""
        bot = ENGINE.bot({})
        seats = [BotSeat(bot, self.clock, "bot0", delay=1.0),
                 BotSeat(bot, self.clock, "bot1", delay=1.0)]
        table = makeTable(seats, self.clock, {"width": 6, "height": 6})
        done: list[GameRecord] = []
        table.whenFinished().addCallback(done.append)
        table.start()
        self.assertEqual(table.record.actions, [])
        for _ in range(6 * 6 + 1):
            if table.finished:
                break
            self.clock.advance(1)
        self.assertTrue(table.finished)
        self.assertEqual(done, [table.record])
        actions = table.record.actions
        self.assertEqual([a.at for a in actions], [float(i + 1) for i in range(len(actions))])
        self.assertEqual([a.seat for a in actions], [i % 2 for i in range(len(actions))])
        self.assertTrue(all(a.kind == "act" for a in actions))
        again = replay(ENGINE, table.record)
        assert isinstance(again, Connect4Game)
        self.assertEqual(again.board, table.engine.board)
        self.assertTrue(again.over)
        scores = table.record.scores
        assert scores is not None
        self.assertIn(scores, ([1, 0], [0, 1], [0, 0]))
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_botResignsOnRefusedMove(self) -> None:
        """A bot whose move is refused resigns instead of blocking the game."""
        bot = BotSeat(lambda view, seat: 99, self.clock, "silly")
        table = makeTable([bot, Holder("b")], self.clock)
        table.start()
        self.clock.advance(0)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, None, 0, "resign")])
        self.assertEqual(len(self.flushLoggedErrors()), 0)


# -- 5. the match queue ------------------------------------------------------


class GuardedClock(Clock):
    """A fake clock that turns a runaway rescheduling loop into an error instead of a hang."""

    limit = 1000

    def __init__(self) -> None:
        super().__init__()
        self.scheduled = 0

    def callLater(self, delay: float, callable: Callable[..., object], *args: object,
                  **kw: object) -> Any:
        self.scheduled += 1
        if self.scheduled > self.limit:
            raise RuntimeError(f"more than {self.limit} calls scheduled: a retry loop")
        return super().callLater(delay, callable, *args, **kw)


queueOperations = st.lists(
    st.tuples(st.sampled_from(["join", "join", "leave", "forget", "advance"]),
              st.integers(0, 6)),
    max_size=40,
)


class MatchQueueTests(SynchronousTestCase):
    """Grouping waiting players."""

    def setUp(self) -> None:
        self.groups: list[list[str]] = []
        self.clock = GuardedClock()

    def queue(self, size: int, seed: int = 0, delay: float = 0.0) -> MatchQueue[str]:
        if delay:
            return MatchQueue(size, self.groups.append, random.Random(seed), self.clock, delay)
        return MatchQueue(size, self.groups.append, random.Random(seed))

    def played(self, q: MatchQueue[str], *names: str) -> None:
        """``names`` join (on an empty queue) and are matched together."""
        for name in names:
            q.join(name)
        self.assertEqual(set(self.groups[-1]), set(names))
        self.groups.clear()

    def test_pairsInOrder(self) -> None:
        q = self.queue(2)
        for name in "ABCDE":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}, {"C", "D"}])
        self.assertEqual(q.waiting, ["E"])
        self.assertEqual(len(q), 1)
        self.assertIn("E", q)
        self.assertNotIn("A", q)

    def test_groupsOfFour(self) -> None:
        q = self.queue(4)
        for name in "ABCDEFG":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [set("ABCD")])
        self.assertEqual(q.waiting, list("EFG"))
        q.join("H")
        self.assertEqual([set(g) for g in self.groups], [set("ABCD"), set("EFGH")])
        self.assertEqual(len(q), 0)

    def test_badArguments(self) -> None:
        """No seat, or a rematch delay without a clock, is refused."""
        self.assertRaises(ValueError, MatchQueue, 0, self.groups.append)
        self.assertRaises(ValueError, MatchQueue, 2, self.groups.append, None, None, 1.0)

    def test_shuffledByRng(self) -> None:
        """Seats are the group shuffled by the injected generator."""
        orders = set()
        for seed in range(20):
            self.groups.clear()
            q = self.queue(4, seed)
            for name in "ABCD":
                q.join(name)
            expected = list("ABCD")
            random.Random(seed).shuffle(expected)
            self.assertEqual(self.groups, [expected])
            orders.add(tuple(expected))
        self.assertGreater(len(orders), 1)

    def test_joinTwice(self) -> None:
        """Joining again keeps the first place and does not count twice."""
        q = self.queue(3)
        q.join("A")
        q.join("B")
        q.join("A")
        self.assertEqual(q.waiting, ["A", "B"])
        self.assertEqual(self.groups, [])
        q.join("C")
        self.assertEqual([sorted(g) for g in self.groups], [["A", "B", "C"]])

    def test_leave(self) -> None:
        q = self.queue(2)
        q.join("A")
        q.leave("A")
        q.leave("nobody")
        self.assertEqual(q.waiting, [])
        q.join("B")
        self.assertEqual(self.groups, [])
        q.join("C")
        self.assertEqual([set(g) for g in self.groups], [{"B", "C"}])

    def test_rematchAvoided(self) -> None:
        """A and B just played; with A, B and C waiting, A plays C rather than B again."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.assertEqual(self.groups, [])
        self.assertEqual(q.waiting, ["A", "B"])
        self.clock.advance(0.5)
        q.join("C")
        self.assertEqual([set(g) for g in self.groups], [{"A", "C"}])
        self.assertEqual(q.waiting, ["B"])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_rematchAvoidedInFours(self) -> None:
        """In groups of four, a newcomer takes the place of a player met last time."""
        q = self.queue(4, delay=2.0)
        self.played(q, "A", "B", "C", "D")
        for name in "ABCE":
            q.join(name)
        self.assertEqual(self.groups, [])
        for name in "FG":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [{"A", "E", "F", "G"}])
        self.assertEqual(q.waiting, ["B", "C"])

    def test_freshPairNotHeldBack(self) -> None:
        """
        A played B, then C.  With A, B and C waiting, B and C (who never met)
        play at once; A, who just met both, is the one left waiting.
        """
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        self.played(q, "A", "C")
        for name in "ABC":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [{"B", "C"}])
        self.assertEqual(q.waiting, ["A"])

    def test_rematchAfterDelay(self) -> None:
        """When only A and B wait, they are matched again once the delay has passed."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        self.clock.advance(0.75)
        q.join("B")
        self.clock.advance(0.125)
        self.assertEqual(self.groups, [])
        self.clock.advance(0.125)
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])
        self.assertEqual(q.waiting, [])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_rematchAfterDelayFromAnyTime(self) -> None:
        """The rematch comes at the end of the delay whatever the clock's time (no retry loop)."""
        self.clock.advance(0.2)
        q = self.queue(2, delay=0.5)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.clock.advance(0.5)
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_rematchAtOnceWithoutDelay(self) -> None:
        """Without a rematch delay, A and B alone are matched again at once."""
        q = self.queue(2)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])

    def test_leaveCancelsRetry(self) -> None:
        """When a waiting rematch falls apart, its retry is cancelled."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.assertEqual(len(self.clock.getDelayedCalls()), 1)
        q.leave("B")
        self.assertEqual(self.clock.getDelayedCalls(), [])
        self.clock.advance(5)
        self.assertEqual(self.groups, [])
        self.assertEqual(q.waiting, ["A"])

    def test_forget(self) -> None:
        """forget takes an entrant out of the queue and drops its history."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        q.forget("A")
        self.assertEqual(q.waiting, [])
        q.join("A")
        q.join("B")
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])
        self.groups.clear()
        q.forget("nobody")
        self.played(q, "C", "D")
        q.forget("D")
        q.join("C")
        q.join("D")
        self.assertEqual([set(g) for g in self.groups], [{"C", "D"}])

    @settings(max_examples=100)
    @given(st.integers(1, 4), queueOperations)
    def test_queueInvariants(self, size: int, operations: list[tuple[str, int]]) -> None:
        """Without a delay: groups whole, disjoint, from those waiting; the queue stays short."""
        groups: list[list[int]] = []
        q: MatchQueue[int] = MatchQueue(size, groups.append, random.Random(1))
        for operation, entrant in operations:
            if operation == "advance":
                continue
            before = q.waiting
            already = len(groups)
            getattr(q, operation)(entrant)
            new = groups[already:]
            if operation == "join":
                candidates = before if entrant in before else before + [entrant]
            else:
                candidates = [e for e in before if e != entrant]
            grouped = [e for g in new for e in g]
            self.assertEqual(len(grouped), len(set(grouped)))
            for group in new:
                self.assertEqual(len(group), size)
                self.assertEqual(len(set(group)), size)
            self.assertTrue(set(grouped) <= set(candidates))
            self.assertEqual(q.waiting, [e for e in candidates if e not in grouped])
            self.assertLess(len(q), size)
            self.assertEqual(len(q), len(q.waiting))

    @settings(max_examples=100)
    @given(st.integers(1, 4), st.sampled_from([0.5, 1.5]), queueOperations)
    def test_queueInvariantsWithDelay(
        self, size: int, delay: float, operations: list[tuple[str, int]]
    ) -> None:
        """
        With a rematch delay: groups are whole and disjoint, and pair players
        who just met only once the longest-waiting entrant has waited the
        delay; a full queue always has a retry pending.
        """
        clock = GuardedClock()
        groups: list[list[int]] = []
        q: MatchQueue[int] = MatchQueue(size, groups.append, random.Random(1), clock, delay)
        last: dict[int, set[int]] = {}
        joined: dict[int, float] = {}
        model: list[int] = []

        def check(new: list[list[int]]) -> None:
            for group in new:
                self.assertEqual(len(set(group)), size)
                self.assertTrue(set(group) <= set(model))
                rematch = any(b in last.get(a, set()) for a in group for b in group)
                if rematch:
                    self.assertGreaterEqual(clock.seconds() - joined[model[0]], delay)
                for member in group:
                    model.remove(member)
                    last[member] = set(group) - {member}

        for operation, entrant in operations:
            already = len(groups)
            if operation == "advance":
                clock.advance(entrant * 0.25)
            elif operation == "join":
                if entrant not in model:
                    model.append(entrant)
                    joined[entrant] = clock.seconds()
                q.join(entrant)
            else:
                getattr(q, operation)(entrant)
                if entrant in model:
                    model.remove(entrant)
                if operation == "forget":
                    last.pop(entrant, None)
                    for others in last.values():
                        others.discard(entrant)
            check(groups[already:])
            self.assertEqual(q.waiting, model)
            if len(q) >= size:
                self.assertTrue(clock.getDelayedCalls())
        already = len(groups)
        clock.advance(delay)
        check(groups[already:])
        self.assertLess(len(q), size)


# -- 6. deadlines ------------------------------------------------------------


class DeadlineTests(SynchronousTestCase):
    """One restartable timeout on a fake clock."""

    def setUp(self) -> None:
        self.clock = Clock()
        self.fired: list[float] = []
        self.deadline = Deadline(self.clock)

    def expire(self) -> None:
        self.fired.append(self.clock.seconds())

    def test_idle(self) -> None:
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.deadline.cancel()
        self.assertFalse(self.deadline.active)

    def test_start(self) -> None:
        self.deadline.start(10, self.expire)
        self.assertTrue(self.deadline.active)
        self.assertEqual(self.deadline.remaining(), 10)
        self.clock.advance(3)
        self.assertEqual(self.deadline.remaining(), 7)
        self.clock.advance(6.5)
        self.assertEqual(self.fired, [])
        self.clock.advance(0.5)
        self.assertEqual(self.fired, [10])
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.clock.advance(100)
        self.assertEqual(self.fired, [10])

    def test_cancel(self) -> None:
        self.deadline.start(10, self.expire)
        self.clock.advance(5)
        self.deadline.cancel()
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.clock.advance(100)
        self.assertEqual(self.fired, [])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_restart(self) -> None:
        """Starting again replaces the pending timeout."""
        self.deadline.start(10, self.expire)
        self.clock.advance(8)
        self.deadline.start(10, self.expire)
        self.assertEqual(self.deadline.remaining(), 10)
        self.assertEqual(len(self.clock.getDelayedCalls()), 1)
        self.clock.advance(9)
        self.assertEqual(self.fired, [])
        self.clock.advance(1)
        self.assertEqual(self.fired, [18])

    def test_restartFromExpiry(self) -> None:
        """The callback may start the deadline again."""
        def again() -> None:
            self.expire()
            if len(self.fired) < 3:
                self.deadline.start(2, again)

        self.deadline.start(2, again)
        self.clock.pump([1] * 10)
        self.assertEqual(self.fired, [2, 4, 6])
        self.assertFalse(self.deadline.active)

    @settings(max_examples=50)
    @given(st.floats(0, 1000), st.floats(0, 1000))
    def test_remaining(self, seconds: float, elapsed: float) -> None:
        """remaining is the time left, never negative, None once fired."""
        clock = Clock()
        deadline = Deadline(clock)
        fired: list[bool] = []
        deadline.start(seconds, lambda: fired.append(True))
        clock.advance(elapsed)
        if elapsed >= seconds:
            self.assertEqual(fired, [True])
            self.assertIsNone(deadline.remaining())
        else:
            self.assertEqual(fired, [])
            remaining = deadline.remaining()
            assert remaining is not None
            self.assertTrue(math.isclose(remaining, seconds - elapsed, abs_tol=1e-9))
            self.assertGreaterEqual(remaining, 0)


class CheckActionTests(SynchronousTestCase):
    """The requested-action checks every engine shares: every error reachable."""

    click = RequestedAction(0, "CLICK", zones=(Zone(0, 0, 10, 10), Zone(20, 0, 10, 10)),
                            buttons=("LEFT", "RIGHT"))
    key = RequestedAction(0, "KEY", keys="ZQSD")
    text = RequestedAction(0, "TEXT", regex=r"^(ATTACK|MOVE) \d{1,2} \d{1,2}$", max_length=12)
    free = RequestedAction(1, "TEXT")

    def check(self, action: dict[str, Any], seat: int = 0) -> Any:
        from gameproto.engine.contract import checkAction

        return checkAction(seat, action, (self.click, self.key, self.text, self.free))

    def subtype(self, action: dict[str, Any], seat: int = 0) -> str:
        result = self.check(action, seat)
        self.assertIsInstance(result, Errors)
        (error,) = result.errors
        self.assertIsInstance(error, WrongAction)
        self.assertEqual(error.action, action)
        return error.subtype

    def test_accepted(self) -> None:
        self.assertIs(self.check({"type": "CLICK", "x": 25, "y": 5}), self.click)
        self.assertIs(self.check({"type": "CLICK", "x": 5, "y": 5, "button": "RIGHT"}),
                      self.click)
        self.assertIs(self.check({"type": "KEY", "key": "q"}), self.key)
        self.assertIs(self.check({"type": "TEXT", "text": "MOVE 1 22"}), self.text)
        self.assertIs(self.check({"type": "TEXT", "text": "x" * 64}, seat=1), self.free)

    def test_unexpected(self) -> None:
        for action, seat in (({"type": "CLICK", "x": 1, "y": 1}, 1),
                             ({"type": "DANCE"}, 0), ({}, 0)):
            result = self.check(action, seat)
            self.assertEqual(result, Errors((UnexpectedAction(seat, action),)))

    def test_badFormat(self) -> None:
        for action in ({"type": "CLICK", "x": "1", "y": 1}, {"type": "CLICK", "x": 1},
                       {"type": "CLICK", "x": math.nan, "y": 1},
                       {"type": "CLICK", "x": 1, "y": math.inf},
                       {"type": "CLICK", "x": True, "y": 1},
                       {"type": "CLICK", "x": 1, "y": 1, "button": "THUMB"},
                       {"type": "KEY", "key": "zq"}, {"type": "KEY"},
                       {"type": "TEXT", "text": 3}):
            self.assertEqual(self.check(action), Errors((BadFormat(),)), action)

    def test_outOfZone(self) -> None:
        self.assertEqual(self.subtype({"type": "CLICK", "x": 15, "y": 5}), "OUT_OF_ZONE")
        self.assertEqual(self.subtype({"type": "CLICK", "x": 5, "y": 10}), "OUT_OF_ZONE")

    def test_wrongButton(self) -> None:
        action = {"type": "CLICK", "x": 5, "y": 5, "button": "DOUBLE"}
        self.assertEqual(self.subtype(action), "WRONG_BUTTON")

    def test_defaultButtonIsLeft(self) -> None:
        from gameproto.engine.contract import checkAction

        anywhere = RequestedAction(0, "CLICK")
        self.assertIs(checkAction(0, {"type": "CLICK", "x": -5, "y": 1e6}, (anywhere,)),
                      anywhere)
        result = checkAction(0, {"type": "CLICK", "x": 1, "y": 1, "button": "RIGHT"},
                             (anywhere,))
        self.assertEqual(result.errors[0].subtype, "WRONG_BUTTON")  # type: ignore[union-attr]

    def test_keyNotAllowed(self) -> None:
        self.assertEqual(self.subtype({"type": "KEY", "key": "x"}), "KEY_NOT_ALLOWED")

    def test_text(self) -> None:
        self.assertEqual(self.subtype({"type": "TEXT", "text": ""}), "TEXT_EMPTY")
        self.assertEqual(self.subtype({"type": "TEXT", "text": "MOVE 1 2     "}), "TEXT_TOO_LONG")
        self.assertEqual(self.subtype({"type": "TEXT", "text": "JUMP 1 2"}), "UNMATCHED_REGEX")
        self.assertEqual(self.subtype({"type": "TEXT", "text": "x" * 65}, seat=1),
                         "TEXT_TOO_LONG")

    def test_badRegexNeverMatches(self) -> None:
        from gameproto.engine.contract import checkAction

        broken = RequestedAction(0, "TEXT", regex="(")
        result = checkAction(0, {"type": "TEXT", "text": "a"}, (broken,))
        self.assertEqual(result.errors[0].subtype, "UNMATCHED_REGEX")  # type: ignore[union-attr]

    @given(st.dictionaries(st.sampled_from(["type", "x", "y", "button", "key", "text"]),
                           st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                                     st.text(max_size=70),
                                     st.sampled_from(["CLICK", "KEY", "TEXT", "LEFT"]))))
    def test_total(self, action: dict[str, Any]) -> None:
        """Any action dict gives a request or errors, never an exception."""
        result = self.check(action)
        self.assertIsInstance(result, (RequestedAction, Errors))
