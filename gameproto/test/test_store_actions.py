"""
The store's fast way of writing an action: the JSON it stores reads back as
the standard library's does, and a turn's actions written at its commit are
the actions each write would have stored.
"""

from __future__ import annotations

import enum
import json
import math
import os
from contextlib import contextmanager
from typing import Any, Iterator

from hypothesis import given, settings, strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.outbox import Outbox
from gameproto.engine.record import GameRecord, RecordedAction
from gameproto.engine.store import SQLiteRecordStore, _dump, _dumpAction
from gameproto.test.runtime import needsOrjson

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2**70, 2**70)
    | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)
"""What JSON a client may send: big integers, NaN and the infinities included."""


class _Colour(enum.IntEnum):
    RED = 1


def _canonical(value: Any) -> str:
    """The standard library's text of ``value``: equal for equal JSON values, NaN included."""
    return _dump(value)


class DumpActionTests(SynchronousTestCase):
    """L{_dumpAction} against L{_dump}, the standard library's compact JSON."""

    @settings(max_examples=400, deadline=None)
    @given(_json)
    def test_readsBackAsTheStandardLibrarys(self, value: Any) -> None:
        """Any JSON value: what is stored reads back as the standard library's text does."""
        self.assertEqual(_canonical(json.loads(_dumpAction(value))),
                         _canonical(json.loads(_dump(value))))

    def test_integers(self) -> None:
        """A column is stored as its digits, exactly as the standard library writes it."""
        for value in (0, 6, -1, 2**63, 2**64, -2**80, _Colour.RED, True, False):
            self.assertEqual(_dumpAction(value), _dump(value))

    def test_whatOrjsonWritesOtherwise(self) -> None:
        """NaN, infinities, big integers, integer keys: the standard library's text."""
        for value in ({"x": math.nan}, [math.inf, -math.inf], {"n": 2**70}, {1: "a"},
                      {"a": _Colour.RED}, {"s": "\ud800"}):
            self.assertEqual(_dumpAction(value), _dump(value))

    def test_withoutOrjson(self) -> None:
        """Without orjson (PyPy), every action is the standard library's text."""
        from gameproto.engine import store

        self.patch(store, "orjson", None)
        for value in (3, {"tile": "tile-d", "x": 72, "zone": None}, ["é", 1.5, {"a": math.nan}]):
            self.assertEqual(_dumpAction(value), _dump(value))

    @needsOrjson
    def test_nullsWrittenByOrjson(self) -> None:
        """
        A null that is a null (a move without a follower) or a word holding
        "null" keeps orjson's text: the standard library writes only NaN
        and the infinities, at any depth, a tuple's included.
        """
        from gameproto.engine import store

        used: list[Any] = []

        def dump(value: Any) -> str:
            used.append(value)
            return _dump(value)

        self.patch(store, "_dump", dump)
        for value in ({"tile": "tile-d", "x": 72, "zone": None}, ["nullable", None, 1.5]):
            self.assertEqual(_dumpAction(value), _dump(value))
        self.assertEqual(used, [])
        for nested in ({"a": [None, (1.0, math.nan)]}, [None, {"b": -math.inf}]):
            self.assertEqual(_dumpAction(nested), _dump(nested))
        self.assertEqual(len(used), 2)

    def test_notJSON(self) -> None:
        """What the standard library cannot write is refused the same way."""
        for value in (object(), {"a": {1, 2}}):
            self.assertRaises(TypeError, _dump, value)
            self.assertRaises(TypeError, _dumpAction, value)


class BatchedRowsTests(SynchronousTestCase):
    """A turn's actions written at its commit are those the writes one by one would store."""

    def play(self, batched: bool, actions: list[Any]) -> list[tuple[Any, ...]]:
        path = os.path.join(self.mktemp() + ".sqlite")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        store = SQLiteRecordStore(path)
        clock = Clock()
        if batched:
            store.batchCommits(Outbox(clock))
        records = []
        for game in range(3):
            record = GameRecord(store.nextId(), "connect4", {}, {"seed": game}, ["a", "b"],
                                1.0)
            store.gameStarted(record)
            records.append(record)
        for turn, action in enumerate(actions):
            record = records[turn % 3]
            recorded = RecordedAction(turn % 2, action, 2.0 + turn, "resign" if turn == 5
                                      else "act")
            record.actions.append(recorded)
            store.actionAccepted(record, recorded)
            if turn % 4 == 3:
                clock.advance(0)
        clock.advance(0)
        store.close()
        reread = SQLiteRecordStore(path)
        try:
            return reread._db.execute(
                "SELECT game, turn, seat, kind, action, at FROM actions "
                "ORDER BY game, turn").fetchall()
        finally:
            reread.close()

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.integers(0, 6) | _json, min_size=1, max_size=12))
    def test_sameRows(self, actions: list[Any]) -> None:
        """The same rows, batched or not, and every action read back equal."""
        batched = self.play(True, actions)
        plain = self.play(False, actions)
        self.assertEqual(len(batched), len(actions))
        self.assertEqual([row[:4] + row[5:] for row in batched],
                         [row[:4] + row[5:] for row in plain])
        self.assertEqual([_canonical(json.loads(row[4])) for row in batched],
                         [_canonical(json.loads(row[4])) for row in plain])


class TimedWritesTests(SynchronousTestCase):
    """What a store times: each write alone, or each commit of a turn's actions."""

    def operations(self, batched: bool) -> list[str]:
        path = os.path.abspath(self.mktemp())
        store = SQLiteRecordStore(path)
        self.addCleanup(store.close)
        timed: list[str] = []

        @contextmanager
        def timer(operation: str) -> Iterator[None]:
            timed.append(operation)
            yield

        store.timeWrites(timer)
        clock = Clock()
        if batched:
            store.batchCommits(Outbox(clock))
        record = GameRecord(store.nextId(), "connect4", {}, {}, ["a", "b"], 1.0)
        store.gameStarted(record)
        for turn in range(3):
            recorded = RecordedAction(turn % 2, turn, 2.0 + turn)
            record.actions.append(recorded)
            store.actionAccepted(record, recorded)
        clock.advance(0)
        return timed

    def test_eachWrite(self) -> None:
        """Each write its own commit: each action timed."""
        self.assertEqual(self.operations(False), ["start", "action", "action", "action"])

    def test_batched(self) -> None:
        """Commits batched: the turn's commit timed, which writes the actions."""
        self.assertEqual(self.operations(True), ["start", "commit"])
