"""
The engine JSON server's fast paths give the bytes the plain path gives:
a display whose tags start as the turn's first display's are copied from
that one's JSON; the parts of an instructions message every seat is sent
alike are made once.  Each message written is the JSON of the message
built the plain way (L{Display.asJSON}, L{RequestedAction.asJSON}, ...).
The check of a client's JSON searches only the strings that are not ASCII.
"""

from __future__ import annotations

import json
import math
from typing import Any, cast

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.buffer import ReceiveBuffer
from gameproto.engine.contract import Display, GameState, Instructions, seatColours
from gameproto.engine.table import Table
from gameproto.enginejson import wire
from gameproto.enginejson.server import DisplayCache
from gameproto.games.tarot import tarotBot
from gameproto.jsonutil import _SURROGATE, MAX_DEPTH, _surelyPlain, _whyNotPlain, plainJSON

from .runtime import needsOrjson
from .test_enginejson import Client, Harness, tarot

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
_tags = st.dictionaries(st.text(max_size=6), _scalars, max_size=5).map(
    lambda tag: {"tag": "circle", **tag})


class _Record:
    def __init__(self) -> None:
        self.actions: list[object] = []


class _Engine:
    """An engine whose displays are given: one per seat (None: the spectators)."""

    def __init__(self, displays: dict[int | None, Display]) -> None:
        self.displays = displays

    def display(self, seat: int | None) -> Display:
        return self.displays[seat]


class _Table:
    def __init__(self, engine: _Engine) -> None:
        self.record = _Record()
        self.engine = engine


def plainDisplays(display: Display) -> bytes:
    """The displays' JSON as the plain path writes it."""
    return wire.dumps([display.asJSON()])


class DisplayEncodingTests(SynchronousTestCase):
    """A turn's displays, encoded with the common start copied, are the plain JSON."""

    @settings(max_examples=300, deadline=None)
    @given(st.lists(_tags, min_size=1, max_size=12),
           st.lists(st.lists(st.integers(0, 11), max_size=14), min_size=1, max_size=4),
           st.lists(_tags, max_size=3), st.data())
    def test_sameBytes(self, pool: list[dict[str, Any]], seats: list[list[int]],
                       extra: list[dict[str, Any]], data: st.DataObject) -> None:
        """
        Seats whose displays share tags (the same objects, in any order,
        some their own): each seat's encoded displays are
        C{wire.dumps([display.asJSON()])}, byte for byte, whatever orjson
        writes or refuses.
        """
        tags = pool + extra
        displays: dict[int | None, Display] = {}
        for seat, indexes in enumerate(seats):
            content = tuple(tags[i % len(tags)] for i in indexes)
            if data.draw(st.booleans()):  # one tag of its own, last
                content += ({"tag": "text", "content": f"seat {seat}"},)
            displays[seat] = Display(seat, data.draw(st.integers(0, 500)),
                                     data.draw(st.floats(0, 500)), content)
        displays[None] = Display(None, 10, 10, tuple(pool))
        cache = DisplayCache()
        table = _Table(_Engine(displays))
        order: list[int | None] = data.draw(st.permutations(list(displays)))
        for who in order:
            described, encoded = cache.get(cast(Table, table), who)
            self.assertEqual(encoded, plainDisplays(displays[who]))
            self.assertEqual(described, [displays[who].asJSON()])

    @needsOrjson
    def test_splicedWhenTheyShare(self) -> None:
        """Two seats' boards, the same tags but the last: the second is copied, not encoded."""
        board = tuple({"tag": "circle", "cx": 20.0 * i, "cy": 1.5, "r": 16.0} for i in range(8))
        displays: dict[int | None, Display] = {
            seat: Display(seat, 280, 282, board + ({"tag": "text", "content": f"{seat}é"},))
            for seat in (0, 1)}
        cache = DisplayCache()
        table = _Table(_Engine(displays))
        for seat in (0, 1):
            self.assertEqual(cache.get(cast(Table, table), seat)[1],
                             plainDisplays(displays[seat]))
        self.assertEqual((cache.made, cache.spliced), (2, 1))

    def test_withoutOrjson(self) -> None:
        """Without orjson's fragments (the standard library writing), the plain bytes too."""
        board = tuple({"tag": "circle", "cx": 1e16, "n": i} for i in range(6))
        displays: dict[int | None, Display] = {
            seat: Display(seat, 1, 2, board + ({"tag": "text"},)) for seat in (0, 1)}
        self.patch(wire, "_fragment", None)
        cache = DisplayCache()
        table = _Table(_Engine(displays))
        for seat in (0, 1):
            self.assertEqual(cache.get(cast(Table, table), seat)[1],
                             plainDisplays(displays[seat]))
        self.assertEqual(cache.spliced, 0)

    def test_newTurnEncodesAfresh(self) -> None:
        """A tag changed in place at a new turn is written as it is now."""
        board = tuple({"tag": "circle", "fill": "white", "n": i} for i in range(6))
        engine = _Engine({seat: Display(seat, 1, 2, board + ({"tag": "text"},))
                          for seat in (0, 1)})
        cache = DisplayCache()
        table = _Table(engine)
        cache.get(cast(Table, table), 0)
        board[0]["fill"] = "red"
        table.record.actions.append(object())
        for seat in (1, 0):
            self.assertEqual(cache.get(cast(Table, table), seat)[1],
                             plainDisplays(engine.displays[seat]))


class SharedPartsTests(SynchronousTestCase):
    """The parts every seat is sent alike are those of the instructions asked for."""

    def test_madeForEachInstructions(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "tarot", "init": {}, "bots": [2, 3, 4]})
        table = harness.hosted(client.last("created")["game"])
        cache = DisplayCache()
        first = table.engine.instructions()
        parts = cache.shared(table, first)
        self.assertEqual(parts.waitingFor,
                         sorted({r.player + 1 for r in first.requested_actions}))
        self.assertEqual(parts.gameState, first.game_state.asJSON())
        self.assertEqual(parts.colours, seatColours(table.engine))
        self.assertIs(cache.shared(table, first.forSeat(None)), parts)
        other = Instructions(first.requested_actions[:0], GameState((1, 2, 3, 4), True))
        again = cache.shared(table, other)
        self.assertEqual((again.waitingFor, again.gameState),
                         ([], {"scores": [1, 2, 3, 4], "gameover": True}))


def plainInstructions(table: Table, seat: int | None, sent: dict[str, Any]) -> bytes:
    """The JSON of the instructions ``sent`` to ``seat`` as the plain path builds them."""
    instructions = table.engine.instructions()
    message: dict[str, Any] = {
        "type": "instructions", "game": sent["game"],
        "player": None if seat is None else seat + 1, "turn": sent["turn"], "by": sent["by"],
        "displays": [table.engine.display(seat).asJSON()],
        "requested_actions": [r.asJSON() for r in instructions.requested_actions
                              if r.player == seat],
        "waiting_for": sorted({r.player + 1 for r in instructions.requested_actions}),
        "clocks": [{"player": seat + 1, "seconds": round(left, 1)}
                   for seat in sorted({r.player for r in instructions.requested_actions})
                   for left in [table.timeLeft(seat)] if left is not None],
        "game_state": instructions.game_state.asJSON(),
    }
    colours = seatColours(table.engine)
    if colours is not None:
        message["colours"] = colours
    if "players" in sent:  # (the seats' names, told again once they changed)
        message["players"] = list(table.record.seats)
    return wire.dumps(message)


class SentAsThePlainPathTests(SynchronousTestCase):
    """Every instructions message written is the plain path's, byte for byte."""

    def lines(self, client: Client) -> list[bytes]:
        client.harness.clock.advance(0)
        lines = [line for line in client.transport.value().splitlines()
                 if line.startswith(b'{"type":"instructions"')]
        client.transport.clear()
        client.log += [json.loads(line) for line in lines]
        return lines

    def check(self, table: Table, seat: int | None, client: Client) -> int:
        lines = self.lines(client)
        for line in lines[-1:]:  # the current turn's: the engine draws it now
            self.assertEqual(line, plainInstructions(table, seat, json.loads(line)))
            self.clocks += bool(json.loads(line)["clocks"])
        return len(lines[-1:])

    def setUp(self) -> None:
        self.clocks = 0
        """Messages checked with a running clock."""

    def test_connect4(self) -> None:
        """Two seats and two spectators of Connect Four games, every turn."""
        harness = Harness()
        checked = 0
        for game in range(3):
            alice = harness.connect()
            alice.send({"type": "create", "engine": "connect4", "init": {}, "bots": []})
            gameId = alice.last("created")["game"]
            bob = harness.connect()
            bob.send({"type": "join", "game": gameId})
            watchers = [harness.connect() for _ in range(2)]
            for watcher in watchers:
                watcher.send({"type": "watch", "game": gameId})
            table = harness.hosted(gameId)
            seats: list[tuple[int | None, Client]] = [(0, alice), (1, bob)]
            seats += [(None, watcher) for watcher in watchers]
            for turn in range(60):
                for seat, client in seats:
                    checked += self.check(table, seat, client)
                if table.finished:
                    break
                mover = (alice, bob)[tableTurn(table)]
                instructions = mover.last("instructions")
                zones = instructions["requested_actions"][0]["zones"]
                mover.click(instructions, (turn * 3 + game) % len(zones))
            self.assertTrue(table.finished)
        self.assertGreater(checked, 80)
        self.assertGreater(self.clocks, 40)
        if wire._fragment is not None:  # (orjson's: what splices)
            self.assertGreater(harness.server.displays.spliced, 40)

    def test_tarot(self) -> None:
        """A Tarot seat (its hand hidden from the others) and a spectator."""
        harness = Harness()
        player = harness.connect()
        player.send({"type": "create", "engine": "tarot", "init": {}, "bots": [2, 3, 4]})
        table = harness.hosted(player.last("created")["game"])
        spectator = harness.connect()
        spectator.send({"type": "watch", "game": table.id})
        checked = 0
        for _ in range(300):
            checked += self.check(table, 0, player) + self.check(table, None, spectator)
            if table.finished or tarot(table.engine).phase == "end":
                break
            if 0 in table.waiting:
                table.act(0, tarotBot(tarot(table.engine).view(0), 0))
            harness.clock.advance(1)
        self.assertGreater(checked, 20)


def tableTurn(table: Table) -> int:
    """The seat whose move it is at a Connect Four table."""
    (seat,) = table.waiting
    return seat



def plainCheck(value: Any, depth: int = 0, maxDepth: int = MAX_DEPTH) -> str | None:
    """L{plainJSON}'s answer, each string searched for a surrogate (recursive: shallow values)."""
    if isinstance(value, float):
        return None if math.isfinite(value) else "numbers must be finite"
    if isinstance(value, str):
        return "strings must be valid Unicode" if _SURROGATE.search(value) else None
    if isinstance(value, (dict, list)):
        if depth >= maxDepth:
            return f"JSON nested deeper than {maxDepth} levels"
        if isinstance(value, dict):
            if any(_SURROGATE.search(key) for key in value):
                return "strings must be valid Unicode"
            members = list(value.values())
        else:
            members = value
        for member in members:
            wrong = plainCheck(member, depth + 1, maxDepth)
            if wrong is not None:
                return wrong
    return None


_texts = st.text(st.characters(codec=None), max_size=6) | st.sampled_from(["\ud800", "a\udfff"])
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_texts, inner, max_size=4),
    max_leaves=20)


class PlainJSONTests(SynchronousTestCase):
    """The client JSON check, ASCII strings not searched, answers as searching every one."""

    @settings(max_examples=400, deadline=None)
    @given(_json, st.integers(1, 4))
    def test_sameVerdict(self, value: Any, maxDepth: int) -> None:
        # Which problem is named first may differ with the order walked: only whether one is.
        self.assertEqual(plainJSON(value, maxDepth) is None,
                         plainCheck(value, 0, maxDepth) is None)
        self.assertEqual(plainJSON(value) is None, plainCheck(value) is None)

    @settings(max_examples=400, deadline=None)
    @given(_json, st.integers(0, 4))
    def test_sameReason(self, value: Any, maxDepth: int) -> None:
        """The quick walk answers as the full one, the same reason first."""
        self.assertEqual(plainJSON(value, maxDepth), _whyNotPlain(value, maxDepth))
        self.assertEqual(plainJSON([value, 1.5, "x"]), _whyNotPlain([value, 1.5, "x"], MAX_DEPTH))

    def test_quickWalk(self) -> None:
        """A plain action is judged by the quick walk alone; a problem by the full one."""
        action = json.loads('{"type":"action","action":{"type":"CLICK","x":2.5,"y":[1,null]}}')
        self.assertTrue(_surelyPlain(action, MAX_DEPTH))
        wrongs: list[Any] = [[float("nan")], {"\ud800": 1}, ["\udfff"], [[[]]]]
        for wrong in wrongs:
            self.assertFalse(_surelyPlain(wrong, 2), wrong)
            self.assertIsNotNone(plainJSON(wrong, 2))


class LineReaderTests(SynchronousTestCase):
    """A read of one whole line, nothing held, gives what the buffer gives."""

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.binary(max_size=12) | st.sampled_from([b"\n", b"{}\n", b" \n", b"\r\n"]),
                    max_size=8), st.sampled_from([4, 16, wire.MAX_MESSAGE]))
    def test_sameLines(self, chunks: list[bytes], limit: int) -> None:
        self.patch(wire, "MAX_MESSAGE", limit)
        fast, buffered = wire.LineReader(), wire.LineReader()
        for chunk in chunks:
            # A bytearray always goes through the buffer.
            self.assertEqual(fast.feed(chunk), buffered.feed(bytearray(chunk)))
            self.assertEqual(bytes(fast._buffer), bytes(buffered._buffer))

    def test_wholeLineWithoutBuffer(self) -> None:
        """A read of one whole line, nothing held, is not searched in the buffer."""
        searched: list[int] = []
        reader = wire.LineReader()
        self.patch(reader, "_buffer", _SpyBuffer(searched))
        self.assertEqual(reader.feed(b'{"type":"leave"}\n'), [b'{"type":"leave"}'])
        self.assertEqual(searched, [])
        self.assertEqual(reader.feed(b'{"type":'), [])
        self.assertEqual(reader.feed(b'"leave"}\n'), [b'{"type":"leave"}'])
        self.assertTrue(searched)


class _SpyBuffer:
    """A reader's buffer whose line searches are counted (only the reads that need it)."""

    def __init__(self, searched: list[int]) -> None:
        self._real = ReceiveBuffer()
        self._searched = searched

    def __bool__(self) -> bool:
        return bool(self._real)

    def __iadd__(self, data: bytes) -> _SpyBuffer:
        self._real += data
        return self

    def extractLine(self, limit: int) -> Any:
        self._searched.append(limit)
        return self._real.extractLine(limit)


class InterleavedTablesTests(SynchronousTestCase):
    """Tables asked for in turn each keep their own displays."""

    def test_twoTables(self) -> None:
        boards = [tuple({"tag": "circle", "table": t, "n": i} for i in range(6)) for t in (0, 1)]
        tables = [_Table(_Engine({seat: Display(seat, 1, 2, boards[t] + ({"tag": "text",
                                                                          "seat": seat},))
                                  for seat in (0, 1)})) for t in (0, 1)]
        cache = DisplayCache()
        for table, seat in [(0, 0), (1, 0), (0, 1), (1, 1), (1, 0), (0, 0)]:
            self.assertEqual(cache.get(cast(Table, tables[table]), seat)[1],
                             plainDisplays(tables[table].engine.displays[seat]))
        tables[0].record.actions.append(object())
        tables[0].engine.displays[0] = Display(0, 1, 2, ({"tag": "rect"},))
        self.assertEqual(cache.get(cast(Table, tables[0]), 0)[1],
                         plainDisplays(tables[0].engine.displays[0]))
        self.assertEqual(cache.made, 5)


class LoadObjectTests(SynchronousTestCase):
    """A client's object read by the scanner at once is what C{json.loads} reads."""

    @settings(max_examples=500, deadline=None)
    @given(st.one_of(
        st.builds(lambda value, ascii, codec: json.dumps(value, ensure_ascii=ascii).encode(
            codec, "surrogatepass"), _json, st.booleans(), st.sampled_from(["utf-8", "utf-16-le"])),
        st.builds(lambda members: json.dumps(members).encode(), st.dictionaries(_texts, _json)),
        st.binary(max_size=30).map(lambda junk: b"{" + junk + b"}"),
        st.sampled_from([b"{}}", b"{} }", b'{"a":1}{"b":2}', b'{"a":NaN}', b'{"a":"\\ud800"}',
                         b"{\x00}", b'{"a":[' * 3 + b"]}", b"{" + b"[" * 5000 + b"}"])))
    def test_sameValue(self, data: bytes) -> None:
        try:
            expected: Any = ("value", json.loads(data))
        except (ValueError, UnicodeDecodeError, RecursionError):
            expected = "refused"
        try:
            got: Any = ("value", wire._loadObject(data))
        except (ValueError, UnicodeDecodeError, RecursionError):
            got = "refused"
        if expected != got:  # NaN is not equal to itself: compare the JSON
            self.assertEqual(repr(got), repr(expected))

    def test_usualActionScanned(self) -> None:
        """A click is read by the scanner at once, not by C{json.loads}."""
        self.patch(wire, "loads", lambda data: self.fail("read by loads"))
        self.assertEqual(
            wire.parse(b'{"type":"action","action":{"type":"CLICK","x":20.5,"y":1}}'),
            wire.Action({"type": "CLICK", "x": 20.5, "y": 1}))
