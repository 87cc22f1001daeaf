"""Tests for Connect Four through the engine contract."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    BadFormat,
    Errors,
    Event,
    GameState,
    IncorrectValue,
    Instructions,
    UnexpectedAction,
    UnexpectedArgument,
    WrongAction,
    WrongActionSubtype,
    Zone,
)
from gameproto.games.connect4 import ENGINE, Board, connect4Bot, four_cells
from gameproto.test.engine_helpers import (
    RED,
    YELLOW,
    WHITE,
    DRAW_7x6,
    SEAT0_WINS,
    SEAT1_WINS,
    game,
    playAll,
)


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
                         {"errors": [{"type": "UNEXPECTED_ACTION", "player": 2, "action": 3,
                                      "text": "It is not your turn."}]})
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
            self.assertFalse(g.over)
            outcome = g.resign(seat)
            self.assertTrue(g.over)
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
        """
        One background, one circle per cell, a ring on the last move, the
        column numbers from 1, one text; stones in their colours.
        """
        g = game({"width": 8, "height": 6})
        playAll(g, [0, 7])
        for seat in (0, 1):
            display = g.display(seat)
            self.assertEqual(display.player, seat)
            self.assertEqual((display.width, display.height), (8 * 40, 6 * 40 + 42))
            tags = [tag["tag"] for tag in display.content]
            self.assertEqual(tags, ["rect"] + ["circle"] * 49 + ["text"] * 9)
            circles = display.content[1:49]
            bottomLeft, bottomRight = circles[5 * 8], circles[5 * 8 + 7]
            self.assertEqual((bottomLeft["cx"], bottomLeft["cy"], bottomLeft["fill"]),
                             (20, 220, RED))
            self.assertEqual((bottomRight["cx"], bottomRight["fill"]), (300, YELLOW))
            self.assertEqual(sum(c["fill"] == WHITE for c in circles), 46)
            self.assertEqual(display.content[-1]["content"],
                             "your move (red): click a column" if seat == 0
                             else "their move (red)")
            last = display.content[49]
            self.assertEqual((last["class"], last["fill"], last["data-column"], last["data-row"]),
                             ("last-move", "none", 8, 1))
            self.assertEqual((last["cx"], last["cy"]), (300, 220))
            numbers = [t["content"] for t in display.content if t.get("class") == "column-number"]
            self.assertEqual(numbers, [str(n) for n in range(1, 9)])
            described = display.asJSON()
            self.assertEqual(described["player"], seat + 1)
            self.assertEqual(len(described["content"]), 59)
            json.dumps(described)

    def test_displayEnd(self) -> None:
        """The end in words, and the winning four ringed."""
        g = game()
        playAll(g, SEAT0_WINS)
        self.assertEqual(g.display(0).content[-1]["content"], "you win: four in a row")
        self.assertEqual(g.display(1).content[-1]["content"], "you lose: four in a row")
        self.assertEqual(g.display(None).content[-1]["content"], "player 1 wins: four in a row")
        wins = [t for t in g.display(0).content if t.get("class") == "win"]
        self.assertEqual(len(wins), 4)
        for ring in wins:
            self.assertEqual(g.board.cell(ring["data-column"] - 1, ring["data-row"] - 1), 0)
        self.assertEqual(g.instructions().game_state.text, "four in a row")
        self.assertEqual(g.instructions().game_state.asJSON()["text"], "four in a row")
        drawn = game()
        playAll(drawn, DRAW_7x6)
        self.assertEqual(drawn.display(1).content[-1]["content"], "draw: the board is full")
        self.assertFalse([t for t in drawn.display(1).content if t.get("class") == "win"])
        resigned = game()
        resigned.resign(1)
        self.assertEqual(resigned.instructions().game_state.text, "player 2 gave up")

    def test_fourCells(self) -> None:
        """Every stone of every four, and none other (a line of five: five stones)."""
        board = Board.from_moves([0, 0, 1, 1, 2, 2, 4, 4, 3])
        stride = board.height + 1
        cells = sorted((i // stride, i % stride) for i in four_cells(board.stones[0], stride))
        self.assertEqual(cells, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
        self.assertEqual(four_cells(board.stones[1], stride), [])

    def test_errorsInWords(self) -> None:
        """The rules say why a move is refused, columns counted from 1."""
        g = game()
        playAll(g, [0] * 6)
        refused = g.act(0, 0)
        assert isinstance(refused, Errors)
        self.assertEqual(refused.errors[0].asJSON()["text"],
                         "Column 1 is full: choose another column.")
        refused = g.act(1, 3)
        assert isinstance(refused, Errors)
        self.assertEqual(refused.errors[0].asJSON()["text"], "It is not your turn.")
        refused = g.act(0, 7)
        assert isinstance(refused, Errors)
        self.assertIn("There is no column 8", refused.errors[0].asJSON()["text"])

    def test_botAndView(self) -> None:
        """The engine's bot picks a legal column from a seat's view; it wins when it can."""
        g = game()
        playAll(g, [0, 1, 0, 1, 0, 1])
        bot = ENGINE.bot(g.params)
        self.assertIs(bot, connect4Bot)
        self.assertEqual(bot(g.view(0), 0), 0)
        self.assertIs(g.view(1), g.board)


class SharedStepTests(SynchronousTestCase):
    """
    What each move's instructions share (the move events, the states, the
    columns still open, the cell size) is what the board says.
    """

    @settings(max_examples=60)
    @given(st.integers(6, 9), st.integers(6, 8), st.lists(st.integers(0, 8), max_size=80))
    def test_sameAsFromTheBoard(self, width: int, height: int, columns: list[int]) -> None:
        g = game({"width": width, "height": height})
        cell = max(4, min(40, 800 // max(width, height)))
        for column in columns:
            board = g.board
            outcome = g.act(board.turn, column % width)
            if isinstance(outcome, Errors):
                self.assertFalse(board.is_legal(column % width))
                continue
            board = g.board
            self.assertEqual(outcome.events[0], Event("move", column % width, 1 - board.turn))
            self.assertEqual(g.over, board.is_over)
            if board.is_over:
                self.assertEqual(outcome.requested_actions, ())
                break
            (requested,) = outcome.requested_actions
            self.assertEqual(requested.player, board.turn)
            self.assertEqual(requested.zones, tuple(Zone(c * cell, 0, cell, cell * height)
                                                    for c in board.legal_columns()))
            self.assertEqual(outcome.game_state, GameState((0, 0), False))
            self.assertEqual(outcome.game_state.text,
                             f"player {2 - board.turn} played column {column % width + 1}")
