"""
Properties of the engine JSON codecs: the player messages of
L{gameproto.enginejson.wire}, and the document's JSON read from external
engines (L{gameproto.engine.contract}): round trips, totality on arbitrary
JSON and bytes, and the requested-action checks against an oracle that
reaches every WRONG_ACTION subtype.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from hypothesis import find, given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto import buffer, jsonutil
from gameproto.engine.contract import (
    BUTTONS,
    DEFAULT_MAX_LENGTH,
    BadFormat,
    Display,
    Errors,
    GameState,
    IncorrectValue,
    Instructions,
    MalformedJSON,
    MissingAction,
    MissingArgument,
    Parameter,
    RequestedAction,
    UnexpectedAction,
    UnexpectedArgument,
    WrongAction,
    WrongActionSubtype,
    Zone,
    checkAction,
    describe,
    errorFromJSON,
    instructionsFromJSON,
    parametersFromJSON,
    requestedActionFromJSON,
)
from gameproto.enginejson import wire

# -- strategies ---------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
anyJSON = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.text(max_size=8), children, max_size=4)),
    max_leaves=20,
)
"""Any JSON value (no NaN or infinity: the document's JSON has none)."""

keys = ["type", "engine", "init", "bots", "join", "name", "game", "player", "action",
        "errors", "game_state", "scores", "gameover", "requested_actions", "displays",
        "initvalues", "zones", "buttons", "keys", "regex", "max_length", "confirm",
        "x", "y", "width", "height", "content", "subtype", "arg", "argname", "value",
        "requested_action", "range", "format", "default", "description"]
shapedJSON = st.recursive(
    scalars | st.sampled_from(["create", "join", "queue", "watch", "action", "leave", "CLICK",
                               "KEY", "TEXT", "int", "float", "string", "LEFT", "BAD_FORMAT",
                               "WRONG_ACTION", "OUT_OF_ZONE", "MISSING_ARGUMENT"]),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(keys), children, max_size=6)),
    max_leaves=30,
)
"""JSON that often looks like the document's messages, to reach deep into the readers."""

names = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Zs", "Cf", "Co",
                                                    "Cn")), min_size=1, max_size=32)
inits = st.dictionaries(st.text(max_size=8), scalars, max_size=4)
players = st.integers(1, 5)
actions = st.one_of(
    st.builds(lambda x, y, b: {"type": "CLICK", "x": x, "y": y, "button": b},
              st.integers(-100, 1000), st.integers(-100, 1000), st.sampled_from(BUTTONS)),
    st.builds(lambda k: {"type": "KEY", "key": k}, st.characters(codec="utf-8")),
    st.builds(lambda t: {"type": "TEXT", "text": t}, st.text(max_size=80)),
)
clientMessages = st.one_of(
    st.builds(wire.Create, st.text(max_size=16), inits,
              st.lists(players, max_size=4).map(tuple), st.booleans(), names),
    st.builds(wire.Join, st.integers(0, 2**40), st.none() | players, names),
    st.builds(wire.Queue, st.text(max_size=16), names),
    st.builds(wire.Watch, st.integers(0, 2**40)),
    st.builds(wire.Action, actions),
    st.just(wire.Leave()),
)

seats = st.integers(0, 4)
zones = st.builds(Zone, st.integers(-50, 200).map(float), st.integers(-50, 200).map(float),
                  st.integers(1, 100).map(float), st.integers(1, 100).map(float))
requests = st.one_of(
    st.builds(RequestedAction, seats, st.just("CLICK"),
              st.none() | st.lists(zones, max_size=3).map(tuple),
              st.none() | st.lists(st.sampled_from(BUTTONS), min_size=1, max_size=4,
                                   unique=True).map(tuple),
              confirm=st.booleans()),
    st.builds(RequestedAction, seats, st.just("KEY"),
              keys=st.none() | st.text("abcdefXYZ0129", min_size=1, max_size=6),
              confirm=st.booleans()),
    st.builds(RequestedAction, seats, st.just("TEXT"),
              regex=st.none() | st.sampled_from([r"^\d+$", r"^[a-z]+ [0-9]$", "x", r"(a|b)+"]),
              max_length=st.none() | st.integers(1, 20)),
)
errors = st.one_of(
    st.just(BadFormat()),
    st.builds(MissingArgument, st.text(max_size=8)),
    st.builds(IncorrectValue, st.text(max_size=8), scalars),
    st.builds(UnexpectedArgument, st.text(max_size=8), scalars),
    st.builds(UnexpectedAction, seats, actions),
    st.builds(MissingAction, seats, requests.map(lambda r: r.asJSON())),
    st.builds(WrongAction, st.sampled_from(WrongActionSubtype.ALL), seats, actions,
              requests.map(lambda r: r.asJSON())),
)
tags = st.fixed_dictionaries({"tag": st.sampled_from(["rect", "circle", "text", "g"]),
                              "x": st.integers(0, 100)},
                             optional={"content": st.text(max_size=8), "fill": st.text(max_size=8)})
displays = st.builds(Display, seats, st.integers(1, 1000), st.integers(1, 1000),
                     st.lists(tags, max_size=4).map(tuple))
instructions = st.builds(
    Instructions,
    st.lists(requests, max_size=3).map(tuple),
    st.builds(GameState, st.lists(st.integers(-100, 100), min_size=1, max_size=5).map(tuple),
              st.booleans()),
    initvalues=st.none() | st.dictionaries(st.text(max_size=8), scalars, max_size=3),
)
parameters = st.lists(
    st.one_of(
        st.builds(Parameter, st.text(max_size=8), st.just("int"), st.text(max_size=12),
                  st.none() | st.integers(0, 9), st.none() | st.integers(-9, 0),
                  st.none() | st.integers(9, 99)),
        st.builds(Parameter, st.text(max_size=8), st.just("float"), st.text(max_size=12),
                  st.none() | st.floats(0, 1)),
        st.builds(Parameter, st.text(max_size=8), st.just("string"), st.text(max_size=12),
                  st.none() | st.text("ab", max_size=4),
                  format=st.none() | st.sampled_from(["[ab]*", r"\d+"])),
    ),
    max_size=5, unique_by=lambda p: p.name,
).map(tuple)


def isClientMessage(value: object) -> bool:
    return isinstance(value, (wire.Create, wire.Join, wire.Queue, wire.Watch, wire.Action,
                              wire.Leave, wire.Malformed))


class ClientMessageTests(SynchronousTestCase):
    """The player's messages: every form round-trips, and reading is total."""

    @given(clientMessages)
    def test_roundTrip(self, message: wire.ClientMessage) -> None:
        self.assertEqual(wire.parse(wire.encode(message.asJSON())), message)

    @given(clientMessages)
    def test_roundTripAsText(self, message: wire.ClientMessage) -> None:
        """A WebSocket text message parses as its bytes do."""
        self.assertEqual(wire.parse(json.dumps(message.asJSON())), message)

    @given(st.binary(max_size=200))
    def test_totalOnBytes(self, data: bytes) -> None:
        self.assertTrue(isClientMessage(wire.parse(data)))

    @given(shapedJSON)
    def test_totalOnJSON(self, value: Any) -> None:
        self.assertTrue(isClientMessage(wire.parse(json.dumps(value))))

    @given(st.sampled_from(["create", "join", "queue", "watch", "action", "leave"]), shapedJSON)
    def test_totalOnEveryType(self, kind: str, value: Any) -> None:
        """Every message type, with arbitrary other fields, is read or refused."""
        message = dict(value) if isinstance(value, dict) else {}
        message["type"] = kind
        self.assertTrue(isClientMessage(wire.parse(json.dumps(message))))

    def test_nonFinite(self) -> None:
        self.assertIsInstance(
            wire.parse(b'{"type":"action","action":{"type":"CLICK","x":NaN,"y":1}}'),
            wire.Malformed)

    def test_sharedJSONCheck(self) -> None:
        """The codec checks with L{gameproto.jsonutil}, whose names it still offers."""
        self.assertIs(wire.plainJSON, jsonutil.plainJSON)
        self.assertEqual(wire.MAX_DEPTH, jsonutil.MAX_DEPTH)
        deep: Any = {"type": "action", "action": {"type": "KEY", "key": "a"}}
        for _ in range(jsonutil.MAX_DEPTH):
            deep["action"]["x"] = [deep["action"].get("x")]
        self.assertEqual(wire.parse(json.dumps(deep)),
                         wire.Malformed(f"JSON nested deeper than {jsonutil.MAX_DEPTH} levels"))

    def test_tooLong(self) -> None:
        message = wire.encode({"type": "leave", "pad": "x" * wire.MAX_MESSAGE})
        self.assertEqual(wire.parse(message), wire.Malformed("message too long"))

    @given(st.lists(clientMessages, max_size=6), st.lists(st.integers(1, 50), max_size=10))
    def test_lineReaderSplits(self, messages: list[wire.ClientMessage], cuts: list[int]) -> None:
        """However the stream is cut, the reader gives the same lines."""
        stream = b"".join(wire.encode(m.asJSON()) + b"\n" for m in messages)
        reader = wire.LineReader()
        lines: list[Any] = []
        position = 0
        for cut in cuts + [len(stream)]:
            lines += reader.feed(stream[position:position + cut])
            position += cut
        lines += reader.feed(stream[position:])
        self.assertEqual([wire.parse(line) for line in lines], messages)

    @given(st.binary(max_size=300))
    def test_lineReaderTotal(self, data: bytes) -> None:
        for line in wire.LineReader().feed(data):
            self.assertTrue(isClientMessage(line if isinstance(line, wire.Malformed)
                                            else wire.parse(line)))

    def test_lineReaderCRLFAndBlankLines(self) -> None:
        """CRLF ends a line too; blank lines are skipped; Malformed is the shared one."""
        reader = wire.LineReader()
        lines = reader.feed(b'{"type":"leave"}\r\n\r\n  \n{"type":"watch","game":3}\n')
        self.assertEqual([wire.parse(line) for line in lines],  # type: ignore[arg-type]
                         [wire.Leave(), wire.Watch(3)])
        self.assertIs(wire.Malformed, buffer.Malformed)

    def test_lineReaderCap(self) -> None:
        reader = wire.LineReader()
        self.assertEqual(reader.feed(b"x" * wire.MAX_MESSAGE), [])
        self.assertEqual(reader.feed(b"x"), [wire.Malformed("message too long")])


SERVER_EXAMPLES: list[tuple[dict[str, Any], wire.ServerMessage]] = [
    ({"type": "hello", "protocol": "gameproto engine JSON 1", "engines": ["connect4", "tarot"]},
     wire.Hello("gameproto engine JSON 1", ("connect4", "tarot"))),
    ({"type": "created", "game": 4, "engine": "connect4"}, wire.Created(4, "connect4")),
    ({"type": "seated", "game": 4, "engine": "connect4", "player": 2, "players": ["a", "b"],
      "token": "t"}, wire.Seated(4, "connect4", 2, ("a", "b"), "t")),
    ({"type": "queued", "engine": "tarot"}, wire.Queued("tarot")),
    ({"type": "watching", "game": 4, "engine": "connect4", "players": ["a", "b"]},
     wire.Watching(4, "connect4", ("a", "b"))),
    ({"type": "instructions", "game": 4, "player": None, "turn": 0, "by": None,
      "displays": [{"width": 0}], "requested_actions": [{"type": "KEY", "player": 1}],
      "waiting_for": [1], "game_state": {"scores": [0, 0], "gameover": False}},
     wire.Instructions(4, None, 0, None, ({"width": 0},), ({"type": "KEY", "player": 1},),
                       (1,), {"scores": [0, 0], "gameover": False})),
    ({"type": "errors", "errors": [{"type": "BAD_FORMAT"}], "reason": "not JSON"},
     wire.Errors(({"type": "BAD_FORMAT"},), "not JSON")),
    ({"type": "errors", "errors": [{"type": "UNEXPECTED_ACTION"}]},
     wire.Errors(({"type": "UNEXPECTED_ACTION"},))),
    ({"type": "problem", "message": "no live game 9"}, wire.Problem("no live game 9")),
    ({"type": "instructions", "game": 4, "player": 2, "turn": 3, "by": 1,
      "displays": [], "requested_actions": [], "waiting_for": [1],
      "clocks": [{"player": 1, "seconds": 12.5}], "game_state": {"scores": [0, 0],
      "gameover": False}, "colours": ["#d62828", "#f6c90e"], "players": ["ann", "bob (bot)"]},
     wire.Instructions(4, 2, 3, 1, (), (), (1,), {"scores": [0, 0], "gameover": False},
                       ({"player": 1, "seconds": 12.5},), ("#d62828", "#f6c90e"),
                       ("ann", "bob (bot)"))),
    ({"type": "ended", "game": 4, "scores": [1, -1], "error": None},
     wire.Ended(4, (1, -1), None)),
    ({"type": "ended", "game": 4, "scores": [1, 0], "error": None, "reason": "four in a row"},
     wire.Ended(4, (1, 0), None, "four in a row")),
    ({"type": "ended", "game": 5, "scores": None, "error": "the engine x failed: boom",
      "reason": "the engine x failed: boom"},
     wire.Ended(5, None, "the engine x failed: boom", "the engine x failed: boom")),
    ({"type": "left"}, wire.Left()),
    ({"type": "news", "x": 1}, wire.Unknown("news", {"type": "news", "x": 1})),
]
"""Each server message of docs/protocols/enginejson.md, and what it reads as."""

SERVER_TYPES = ["hello", "created", "seated", "queued", "watching", "instructions", "errors",
                "problem", "ended", "left"]


def isServerMessage(value: object) -> bool:
    return isinstance(value, (wire.Hello, wire.Created, wire.Seated, wire.Queued,
                              wire.Watching, wire.Instructions, wire.Errors, wire.Problem,
                              wire.Ended, wire.Left, wire.Unknown, wire.Malformed))


class ServerMessageTests(SynchronousTestCase):
    """The server's messages as a client reads them: typed, and reading is total."""

    def test_documented(self) -> None:
        """Every server message of the page reads as its typed message."""
        for data, message in SERVER_EXAMPLES:
            self.assertEqual(wire.readServerMessage(data), message)
            self.assertEqual(wire.parseServer(wire.encode(data)), message)
            self.assertEqual(wire.parseServer(json.dumps(data)), message)

    def test_wrongFields(self) -> None:
        """A known type with a field missing or of the wrong kind is Malformed, naming it."""
        for data in ({"type": "created", "game": "4", "engine": "x"},
                     {"type": "created", "game": True, "engine": "x"},
                     {"type": "seated", "game": 1, "engine": "x", "player": 1,
                      "players": ["a", 2]},
                     {"type": "instructions", "game": 1},
                     {"type": "problem"}):
            message = wire.readServerMessage(data)
            self.assertIsInstance(message, wire.Malformed)
            assert isinstance(message, wire.Malformed)
            self.assertIn(str(data["type"]), message.reason)

    def test_notAnObject(self) -> None:
        for data in (b"[1]", b"3", b"nope", b'"hello"'):
            self.assertIsInstance(wire.parseServer(data), wire.Malformed)
        self.assertEqual(wire.parseServer(b" " * (wire.MAX_MESSAGE + 1)),
                         wire.Malformed("message too long"))

    @given(st.binary(max_size=200))
    def test_totalOnBytes(self, data: bytes) -> None:
        self.assertTrue(isServerMessage(wire.parseServer(data)))

    @given(st.sampled_from(SERVER_TYPES), shapedJSON)
    def test_totalOnEveryType(self, kind: str, value: Any) -> None:
        """Every server message type, with arbitrary other fields, is read or refused."""
        message = dict(value) if isinstance(value, dict) else {}
        message["type"] = kind
        self.assertTrue(isServerMessage(wire.readServerMessage(message)))
        self.assertTrue(isServerMessage(wire.parseServer(json.dumps(message))))

    @given(st.sampled_from(SERVER_EXAMPLES), st.data())
    def test_totalOnAnyField(self, example: tuple[dict[str, Any], Any], data: st.DataObject
                             ) -> None:
        """A documented message with any one field's value replaced is read or refused."""
        message = dict(example[0])
        key = data.draw(st.sampled_from(sorted(message)))
        message[key] = data.draw(shapedJSON)
        self.assertTrue(isServerMessage(wire.readServerMessage(message)))


class EngineJSONTests(SynchronousTestCase):
    """
    The document's JSON as an external engine writes it: the normal forms
    round-trip, and anything else is L{MalformedJSON}, never another error.
    """

    @given(errors)
    def test_errorRoundTrip(self, error: Any) -> None:
        self.assertEqual(errorFromJSON(json.loads(json.dumps(error.asJSON()))), error)

    @given(requests)
    def test_requestedActionRoundTrip(self, request: RequestedAction) -> None:
        self.assertEqual(requestedActionFromJSON(json.loads(json.dumps(request.asJSON()))),
                         request)

    @given(instructions, st.lists(displays, max_size=3))
    def test_instructionsRoundTrip(self, given_: Instructions, shown: list[Display]) -> None:
        read = instructionsFromJSON(json.loads(json.dumps(given_.asJSON(shown))))
        self.assertEqual(read, (given_, tuple(shown)))

    @given(st.lists(errors, min_size=1, max_size=3))
    def test_errorsRoundTrip(self, listed: list[Any]) -> None:
        given_ = Errors(tuple(listed))
        self.assertEqual(instructionsFromJSON(json.loads(json.dumps(given_.asJSON()))), given_)

    @given(parameters)
    def test_parametersRoundTrip(self, given_: tuple[Parameter, ...]) -> None:
        self.assertEqual(parametersFromJSON(json.loads(json.dumps(describe(given_)))), given_)

    @given(shapedJSON)
    def test_readersTotal(self, value: Any) -> None:
        for reader in (instructionsFromJSON, errorFromJSON, requestedActionFromJSON,
                       parametersFromJSON):
            try:
                reader(value)
            except MalformedJSON:
                pass

    @given(st.dictionaries(st.sampled_from(["x", "y", "width", "height"]),
                           st.one_of(scalars, st.sampled_from(["nan", "inf", "-inf", "1e999"]),
                                     st.integers(10**300, 10**400)), min_size=4))
    def test_zonesAreFinite(self, zone: dict[str, Any]) -> None:
        """A zone is four finite numbers, or the engine's answer is malformed."""
        try:
            read = requestedActionFromJSON({"type": "CLICK", "player": 1, "zones": [zone]})
        except MalformedJSON:
            return
        (z,) = read.zones or ()
        self.assertTrue(all(math.isfinite(v) for v in (z.x, z.y, z.width, z.height)))


def oracle(request: RequestedAction, action: dict[str, Any]) -> str | None:
    """What the document says of ``action`` for ``request``: None, or the subtype."""
    if action["type"] == "CLICK":
        if action["button"] not in (request.buttons or ("LEFT",)):
            return WrongActionSubtype.WRONG_BUTTON
        if request.zones is not None and not any(
                z.x <= action["x"] < z.x + z.width and z.y <= action["y"] < z.y + z.height
                for z in request.zones):
            return WrongActionSubtype.OUT_OF_ZONE
        return None
    if action["type"] == "KEY":
        if request.keys is not None and action["key"].lower() not in request.keys.lower():
            return WrongActionSubtype.KEY_NOT_ALLOWED
        return None
    text = action["text"]
    if text == "":
        return WrongActionSubtype.TEXT_EMPTY
    if len(text) > (request.max_length or DEFAULT_MAX_LENGTH):
        return WrongActionSubtype.TEXT_TOO_LONG
    if request.regex is not None and not re.search(request.regex, text):
        return WrongActionSubtype.UNMATCHED_REGEX
    return None


keysPressed = st.sampled_from(list("abcXYZ019q"))
texts = st.one_of(st.just(""), st.text("ab 0123456789", max_size=25))
clicks = st.builds(lambda x, y, b: {"type": "CLICK", "x": x, "y": y, "button": b},
                   st.integers(-60, 320), st.integers(-60, 320), st.sampled_from(BUTTONS))


class FastJSONTests(SynchronousTestCase):
    """
    The fast path (orjson, when installed) reads and writes what the
    standard library does; L{wire.splice} writes the message it stands for.
    """

    @given(anyJSON)
    def test_dumpsReadsBack(self, value: Any) -> None:
        """Whatever it is written by, the JSON reads back to the same value."""
        data = wire.dumps(value)
        self.assertEqual(json.loads(data), value)
        self.assertEqual(wire.loads(data), value)

    @given(st.dictionaries(st.text(max_size=8), st.one_of(
        st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.text(max_size=12)),
        max_size=6))
    def test_sameBytesAsTheStandardLibrary(self, value: dict[str, Any]) -> None:
        """Without floats (whose spelling may differ: 1e16, 1e+16), the very same bytes."""
        self.assertEqual(wire.dumps(value), json.dumps(
            value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))

    def test_refusedByTheFastPath(self) -> None:
        """What orjson refuses, the standard library does as before."""
        self.assertEqual(wire.dumps({1: 2**70}), b'{"1":%d}' % 2**70)
        # The one difference: a NaN, which is not JSON, is written null by
        # orjson; no server message holds one (clients' JSON and external
        # engines' are refused with NaN, parameters must be finite).
        self.assertEqual(wire.dumps({"x": math.nan}),
                         b'{"x":NaN}' if wire._orjson is None else b'{"x":null}')
        self.assertTrue(math.isnan(wire.loads(b"[NaN]")[0]))
        self.assertEqual(wire.loads(b"[%d]" % 2**70), [2**70])
        self.assertEqual(wire.loads('"\\ud800"'), "\ud800")
        self.assertEqual(wire.loads('["é"]'.encode("utf-16")), ["é"])
        with self.assertRaises(ValueError):
            wire.loads(b"{")
        with self.assertRaises(UnicodeDecodeError):
            wire.loads(b'"\xff"')
        self.assertIsInstance(wire.parse(b'{"type":"action","action":{"x":NaN}}'),
                              wire.Malformed)

    @given(st.dictionaries(st.sampled_from(["type", "game", "by", "player", "x"]), anyJSON,
                           min_size=1, max_size=5), anyJSON, st.data())
    def test_splice(self, message: dict[str, Any], value: Any, data: st.DataObject) -> None:
        """The spliced message is the message with the key, in place, and its JSON."""
        message.pop("displays", None)
        after = data.draw(st.sampled_from(list(message)))
        spliced = wire.splice(message, "displays", value, wire.dumps(value), after)
        keys = list(message)
        cut = keys.index(after) + 1
        self.assertEqual(list(spliced), keys[:cut] + ["displays"] + keys[cut:])
        self.assertEqual(dict(spliced), message | {"displays": value})
        self.assertEqual(json.loads(wire.encode(spliced)), dict(spliced))
        self.assertIs(wire.encode(spliced), spliced.data)
        # Without orjson's fragments: the rest encoded around the part.
        self.assertEqual(json.loads(wire._spliceBytes(spliced, "displays", wire.dumps(value))),
                         dict(spliced))


class CheckActionPropertyTests(SynchronousTestCase):
    """The shared requested-action checks agree with the document, for every subtype."""

    @given(requests, st.data())
    def test_againstOracle(self, request: RequestedAction, data: st.DataObject) -> None:
        kind = request.type
        action = data.draw({"CLICK": clicks,
                            "KEY": keysPressed.map(lambda k: {"type": "KEY", "key": k}),
                            "TEXT": texts.map(lambda t: {"type": "TEXT", "text": t})}[kind])
        expected = oracle(request, action)
        result = checkAction(request.player, action, (request,))
        if expected is None:
            self.assertIs(result, request)
        else:
            self.assertEqual(result, Errors((WrongAction(expected, request.player, action,
                                                         request.asJSON()),)))

    @given(requests, seats, actions)
    def test_otherSeatOrType(self, request: RequestedAction, seat: int,
                             action: dict[str, Any]) -> None:
        """An action nobody asked of that seat, or of another type, is UNEXPECTED_ACTION."""
        if seat == request.player and action["type"] == request.type:
            return
        self.assertEqual(checkAction(seat, action, (request,)),
                         Errors((UnexpectedAction(seat, action),)))

    @given(st.lists(requests, max_size=3), seats, shapedJSON)
    def test_total(self, listed: list[RequestedAction], seat: int, value: Any) -> None:
        """Any JSON object as an action gives a request or the document's errors."""
        action = value if isinstance(value, dict) else {"type": value}
        result = checkAction(seat, action, listed)
        if isinstance(result, Errors):
            for error in result.errors:
                self.assertIsInstance(error, (BadFormat, UnexpectedAction, WrongAction))
        else:
            self.assertIn(result, listed)

    def test_everySubtypeReached(self) -> None:
        """
        The strategies of L{test_againstOracle} reach each subtype, so that
        property tests each one (a derandomized search: the same every run).
        """
        cases = requests.flatmap(lambda request: st.tuples(st.just(request), {
            "CLICK": clicks, "KEY": keysPressed.map(lambda k: {"type": "KEY", "key": k}),
            "TEXT": texts.map(lambda t: {"type": "TEXT", "text": t})}[request.type]))

        def subtype(case: tuple[RequestedAction, dict[str, Any]]) -> str | None:
            request, action = case
            result = checkAction(request.player, action, (request,))
            return result.errors[0].subtype if isinstance(result, Errors) else None  # type: ignore[union-attr]

        for wanted in WrongActionSubtype.ALL:
            found = find(cases, lambda case: subtype(case) == wanted,
                         settings=settings(derandomize=True, max_examples=5000, database=None))
            self.assertEqual(oracle(*found), wanted)
