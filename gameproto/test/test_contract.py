"""Tests for the engine contract: parameters, errors, instructions, action checks."""

from __future__ import annotations

import json
import math
from typing import Any

import attrs
from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    ColouredSeats,
    Display,
    Errors,
    Event,
    GameState,
    IncorrectValue,
    Instructions,
    MissingAction,
    MalformedJSON,
    MissingArgument,
    OtherError,
    Parameter,
    Pick,
    RequestedAction,
    UnexpectedAction,
    UnexpectedArgument,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkAction,
    checkParameters,
    describe,
    errorFromJSON,
    errorText,
    instructionsFromJSON,
    requestedActionFromJSON,
    seatColours,
)
from gameproto.games.connect4 import ENGINE
from gameproto.test.engine_helpers import assertRefused

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


class EngineErrorsFromJSONTests(SynchronousTestCase):
    """
    Errors as an external engine writes them: the document asks each for "at
    least the key type", so one it does not list, or one without the keys
    its type needs, is passed on as written.
    """

    def test_unlistedType(self) -> None:
        """An ILLEGAL_MOVE keeps every key, its player as the engine wrote it."""
        written = {"type": "ILLEGAL_MOVE", "player": 2, "reason": "that cell is taken",
                   "cell": [1, 2]}
        error = errorFromJSON(json.loads(json.dumps(written)))
        self.assertEqual(error, OtherError(written))
        self.assertEqual(error.type, "ILLEGAL_MOVE")
        self.assertEqual(error.asJSON(), written)

    def test_listedTypeWithoutItsKeys(self) -> None:
        """A WRONG_ACTION without player, or of a subtype not listed, is passed on too."""
        for written in ({"type": "WRONG_ACTION", "subtype": "OUT_OF_ZONE"},
                        {"type": "WRONG_ACTION", "subtype": "TOO_EARLY", "player": 1},
                        {"type": "UNEXPECTED_ACTION", "player": 0},
                        {"type": "MISSING_ACTION", "player": "one"},
                        {"type": "MISSING_ARGUMENT"},
                        {"type": "UNEXPECTED_ARGUMENT", "argname": 3, "value": 1}):
            self.assertEqual(errorFromJSON(written).asJSON(), written)

    def test_listedTypesRead(self) -> None:
        """The document's own forms are still read as such."""
        self.assertEqual(errorFromJSON({"type": "MISSING_ARGUMENT", "arg": "players"}),
                         MissingArgument("players"))
        self.assertEqual(errorFromJSON({"type": "UNEXPECTED_ACTION", "player": 2,
                                        "action": {"type": "KEY"}}),
                         UnexpectedAction(1, {"type": "KEY"}))

    def test_inInstructions(self) -> None:
        """An errors answer mixing both keeps them all, in order."""
        read = instructionsFromJSON({"errors": [{"type": "NOT_YOUR_TURN"},
                                                {"type": "BAD_FORMAT"}]})
        self.assertEqual(read, Errors((OtherError({"type": "NOT_YOUR_TURN"}), BadFormat())))
        assert isinstance(read, Errors)
        self.assertEqual(read.asJSON(), {"errors": [{"type": "NOT_YOUR_TURN"},
                                                    {"type": "BAD_FORMAT"}]})

    def test_noTypeIsNoError(self) -> None:
        """Without a string type, it is no error at all: the answer is malformed."""
        for written in ({}, {"player": 1}, {"type": 3}, "ILLEGAL_MOVE", None):
            self.assertRaises(MalformedJSON, errorFromJSON, written)
        self.assertRaises(ValueError, OtherError, {"player": 1})


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


class WordsTests(SynchronousTestCase):
    """What an engine may say in words: optional, additive keys of the JSON forms."""

    def test_errorText(self) -> None:
        """An error's text is in its JSON form only when given, and never changes equality."""
        plain = WrongAction(WrongActionSubtype.OUT_OF_ZONE, 1, 3, None)
        worded = WrongAction(WrongActionSubtype.OUT_OF_ZONE, 1, 3, None,
                             text="Column 4 is full: choose another column.")
        self.assertEqual(plain, worded)
        self.assertNotIn("text", plain.asJSON())
        self.assertEqual(worded.asJSON()["text"], "Column 4 is full: choose another column.")
        self.assertEqual(errorText(worded), "Column 4 is full: choose another column.")
        self.assertIsNone(errorText(plain))
        self.assertIsNone(errorText(BadFormat()))
        turn = UnexpectedAction(0, 1, text="It is not your turn.")
        self.assertEqual(turn.asJSON(), {"type": "UNEXPECTED_ACTION", "player": 1, "action": 1,
                                         "text": "It is not your turn."})
        self.assertEqual(turn, UnexpectedAction(0, 1))
        value = IncorrectValue("rules", "x", text="Rules line 1 is wrong.")
        self.assertEqual(value.asJSON(), {"type": "INCORRECT_VALUE", "arg": "rules", "value": "x",
                                          "text": "Rules line 1 is wrong."})
        self.assertEqual(value, IncorrectValue("rules", "x"))
        self.assertNotIn("text", IncorrectValue("rules", "x").asJSON())

    def test_errorTextFromJSON(self) -> None:
        """An engine's error keeps its text, whatever its form."""
        for error in (worded.asJSON() for worded in (
                WrongAction("KEY_NOT_ALLOWED", 0, {"type": "KEY", "key": "x"}, None, text="no"),
                UnexpectedAction(2, 5, text="no"),
                IncorrectValue("rules", "x", text="no"))):
            self.assertEqual(errorText(errorFromJSON(error)), "no")
            self.assertEqual(errorFromJSON(error).asJSON(), error)
        self.assertEqual(errorText(errorFromJSON({"type": "ILLEGAL", "text": "no"})), "no")
        self.assertIsNone(errorText(errorFromJSON({"type": "ILLEGAL", "text": 3})))

    def test_stateText(self) -> None:
        state = GameState((1, 0), True, text="four in a row")
        self.assertEqual(state, GameState((1, 0), True))
        self.assertEqual(state.asJSON(), {"scores": [1, 0], "gameover": True,
                                          "text": "four in a row"})
        self.assertEqual(GameState((0, 0), False).asJSON(), {"scores": [0, 0], "gameover": False})
        read = instructionsFromJSON({"game_state": state.asJSON()})
        assert not isinstance(read, Errors)
        self.assertEqual(read[0].game_state.text, "four in a row")

    def test_pickAndPrompt(self) -> None:
        """A TEXT request's pick and any request's prompt: JSON there and back."""
        pick = Pick((Zone(0, 0, 10, 10), Zone(10, 0, 10, 10), Zone(20, 0, 10, 10)),
                    ("3", "7", "12"), 2, ",")
        request = RequestedAction(0, "TEXT", regex=r"^\d+,\d+$", pick=pick,
                                  prompt="pick two cards")
        described = request.asJSON()
        self.assertEqual(described["pick"], {
            "zones": [{"x": 0, "y": 0, "width": 10, "height": 10},
                      {"x": 10, "y": 0, "width": 10, "height": 10},
                      {"x": 20, "y": 0, "width": 10, "height": 10}],
            "values": ["3", "7", "12"], "count": 2, "separator": ","})
        self.assertEqual(described["prompt"], "pick two cards")
        self.assertEqual(requestedActionFromJSON(json.loads(json.dumps(described))), request)
        self.assertNotIn("pick", RequestedAction(0, "TEXT").asJSON())
        self.assertNotIn("prompt", RequestedAction(0, "KEY").asJSON())
        # The text a pick makes is an ordinary TEXT action.
        self.assertIs(checkAction(0, {"type": "TEXT", "text": "3,12"}, [request]), request)

    def test_malformedPick(self) -> None:
        zone = {"x": 0, "y": 0, "width": 1, "height": 1}
        for pick in ("x", {"zones": [zone], "values": ["a", "b"], "count": 1},
                     {"zones": [zone], "values": [1], "count": 1},
                     {"zones": [zone], "values": ["a"], "count": 2},
                     {"zones": [zone], "values": ["a"], "count": True},
                     {"zones": [zone], "values": ["a"], "count": 1, "separator": 3},
                     {"zones": "z", "values": [], "count": 1}):
            with self.assertRaises(MalformedJSON, msg=pick):
                requestedActionFromJSON({"type": "TEXT", "player": 1, "pick": pick})

    def test_seatColours(self) -> None:
        """A game declaring its seats' colours (L{ColouredSeats}) has them shown."""
        game = ENGINE.start({})
        self.assertIsInstance(game, ColouredSeats)
        self.assertEqual(seatColours(game), ["#d62828", "#f6c90e"])
        self.assertNotIsInstance(object(), ColouredSeats)
        self.assertIsNone(seatColours(object()))

        class Odd:
            colours = ("#fff", 3)

        self.assertIsNone(seatColours(Odd()))


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

    def test_anyRequestOfItsType(self) -> None:
        """
        Several requests of one type for one seat: the action is valid when
        any of them accepts it (the document's example: the second CLICK's
        zone, with that request's buttons).
        """
        first = RequestedAction(0, "CLICK", zones=(Zone(0, 0, 50, 50),))
        second = RequestedAction(0, "CLICK", zones=(Zone(100, 200, 50, 50),),
                                 buttons=("RIGHT",))
        both = (first, second)
        self.assertIs(checkAction(0, {"type": "CLICK", "x": 120, "y": 220, "button": "RIGHT"},
                                  both), second)
        self.assertIs(checkAction(0, {"type": "CLICK", "x": 10, "y": 10}, both), first)
        keys = (RequestedAction(0, "KEY", keys="ab"), RequestedAction(0, "KEY", keys="yn"))
        self.assertIs(checkAction(0, {"type": "KEY", "key": "Y"}, keys), keys[1])
        texts = (RequestedAction(0, "TEXT", regex=r"^\d+$"),
                 RequestedAction(0, "TEXT", regex=r"^[a-z]+$", max_length=3))
        self.assertIs(checkAction(0, {"type": "TEXT", "text": "abc"}, texts), texts[1])
        # The first that accepts it, in the engine's order.
        twice = (RequestedAction(0, "KEY"), RequestedAction(0, "KEY", keys="a"))
        self.assertIs(checkAction(0, {"type": "KEY", "key": "a"}, twice), twice[0])

    def test_closestMiss(self) -> None:
        """
        Refused by every request: the error is of the one the action got
        furthest through the checks with (button, then zone; empty, length,
        then regex), the first of them on a tie.
        """
        rightOnly = RequestedAction(0, "CLICK", zones=(Zone(0, 0, 50, 50),), buttons=("RIGHT",))
        leftHere = RequestedAction(0, "CLICK", zones=(Zone(100, 0, 50, 50),))
        outside = {"type": "CLICK", "x": 300, "y": 300}
        self.assertEqual(checkAction(0, outside, (rightOnly, leftHere)), Errors((WrongAction(
            "OUT_OF_ZONE", 0, outside, leftHere.asJSON()),)))
        middle = {"type": "CLICK", "x": 10, "y": 10, "button": "MIDDLE"}
        self.assertEqual(checkAction(0, middle, (rightOnly, leftHere)), Errors((WrongAction(
            "WRONG_BUTTON", 0, middle, rightOnly.asJSON()),)))
        short = RequestedAction(0, "TEXT", max_length=3)
        digits = RequestedAction(0, "TEXT", regex=r"^\d+$")
        text = {"type": "TEXT", "text": "abcdef"}
        self.assertEqual(checkAction(0, text, (short, digits)), Errors((WrongAction(
            "UNMATCHED_REGEX", 0, text, digits.asJSON()),)))
        empty = {"type": "TEXT", "text": ""}
        self.assertEqual(checkAction(0, empty, (short, digits)), Errors((WrongAction(
            "TEXT_EMPTY", 0, empty, short.asJSON()),)))
        keys = (RequestedAction(0, "KEY", keys="ab"), RequestedAction(0, "KEY", keys="yn"))
        self.assertEqual(checkAction(0, {"type": "KEY", "key": "z"}, keys), Errors((WrongAction(
            "KEY_NOT_ALLOWED", 0, {"type": "KEY", "key": "z"}, keys[0].asJSON()),)))
        # Another seat's request of the same type is no candidate.
        other = RequestedAction(1, "CLICK")
        self.assertEqual(checkAction(0, outside, (other, leftHere)), Errors((WrongAction(
            "OUT_OF_ZONE", 0, outside, leftHere.asJSON()),)))

    def test_clickWithoutZonesInTheDrawingArea(self) -> None:
        """
        A CLICK without zones: "by default the whole drawing area", the
        ``area`` given (the seat's display); anywhere when none is given.
        """
        anywhere = RequestedAction(0, "CLICK")
        area = Zone(0, 0, 200, 100)
        inside: tuple[tuple[float, float], ...] = ((0, 0), (199.5, 99), (10, 50))
        outside: tuple[tuple[float, float], ...] = (
            (200, 10), (10, 100), (-1, 10), (10, -0.5), (1e6, 1e6))
        for x, y in inside:
            action = {"type": "CLICK", "x": x, "y": y}
            self.assertIs(checkAction(0, action, (anywhere,), area), anywhere)
        for x, y in outside:
            action = {"type": "CLICK", "x": x, "y": y}
            self.assertEqual(checkAction(0, action, (anywhere,), area), Errors((WrongAction(
                "OUT_OF_ZONE", 0, action, anywhere.asJSON()),)), action)
        # Zones the engine gives are the request's own, whatever the area.
        zoned = RequestedAction(0, "CLICK", zones=(Zone(500, 500, 10, 10),))
        self.assertIs(checkAction(0, {"type": "CLICK", "x": 505, "y": 505}, (zoned,), area),
                      zoned)
        # An empty area (a seat never shown a display) takes no click.
        self.assertIsInstance(checkAction(0, {"type": "CLICK", "x": 0, "y": 0}, (anywhere,),
                                          Zone(0, 0, 0, 0)), Errors)

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
