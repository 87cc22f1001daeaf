"""The file record store: finished games on disk, one JSON line each."""

from __future__ import annotations

import json
import random
from typing import Any

from twisted.internet import defer
from twisted.internet.task import Clock
from twisted.python.filepath import FilePath
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto import tap
from gameproto.engine.record import GameRecord, JSONLinesRecordStore, replay
from gameproto.engine.table import BotSeat, Table
from gameproto.games.connect4 import ENGINE, connect4Bot


def botGame(store: JSONLinesRecordStore, clock: Clock, start: bool = True) -> Table:
    table = Table.create(ENGINE, {}, [BotSeat(connect4Bot, clock, "a", delay=1),
                                      BotSeat(connect4Bot, clock, "b", delay=1)], clock, store,
                         random.Random(1))
    if start:
        table.start()
    return table


class JSONLinesTests(SynchronousTestCase):
    def setUp(self) -> None:
        self.path = self.mktemp()
        self.clock = Clock()

    def lines(self) -> list[dict[str, Any]]:
        with open(self.path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def test_finishedGameWritten(self) -> None:
        """A finished game is one line, its record replays, and memory forgets it."""
        store = JSONLinesRecordStore(self.path)
        table = botGame(store, self.clock)
        self.assertEqual(self.lines(), [])
        while not table.finished:
            self.clock.advance(1)
        (line,) = self.lines()
        self.assertEqual(line, table.record.asJSON())
        self.assertEqual(store.live, {})
        found = store.get(table.id)
        assert found is not None
        self.assertEqual(replay(ENGINE, found).board, table.engine.board)

    def test_liveGameFromMemory(self) -> None:
        store = JSONLinesRecordStore(self.path)
        table = botGame(store, self.clock)
        self.assertIs(store.get(table.id), table.record)
        self.assertIsNone(store.get(999))

    def test_closeWritesLiveGames(self) -> None:
        store = JSONLinesRecordStore(self.path)
        table = botGame(store, self.clock)
        self.clock.advance(1)
        store.close()
        store.close()
        (line,) = self.lines()
        self.assertIsNone(line["finished"])
        self.assertEqual(GameRecord.fromJSON(line).actions, table.record.actions)

    def test_idsGoOnAfterReopening(self) -> None:
        store = JSONLinesRecordStore(self.path)
        for _ in range(3):
            store.nextId()
        table = botGame(store, self.clock)
        while not table.finished:
            self.clock.advance(1)
        store.close()
        again = JSONLinesRecordStore(self.path)
        self.assertEqual(again.nextId(), table.id + 1)
        self.assertIsNotNone(again.get(table.id))

    def test_brokenLinesSkipped(self) -> None:
        """A line cut short by a crash is skipped, the others still read."""
        store = JSONLinesRecordStore(self.path)
        table = botGame(store, self.clock)
        while not table.finished:
            self.clock.advance(1)
        store.close()
        with open(self.path, "a", encoding="utf-8") as f:
            f.write('{"id": 7, "engi')
        again = JSONLinesRecordStore(self.path)
        self.assertEqual(again.nextId(), table.id + 1)
        self.assertIsNotNone(again.get(table.id))


class ServiceRecordsTests(TestCase):
    """twistd gameproto --records PATH."""

    def test_option(self) -> None:
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--records", path])
        self.assertEqual(options["records"], path)
        self.assertTrue(FilePath(path).exists())

    def test_unwritable(self) -> None:
        from twisted.python import usage

        options = tap.Options()
        error = self.assertRaises(usage.UsageError, options.parseOptions,
                                  ["--records", "/nonexistent/dir/records.jsonl"])
        self.assertIn("--records", str(error))

    @defer.inlineCallbacks
    def test_stopWritesGamesInProgress(self) -> Any:
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--records", path, "--ports", "web=off,maitretarot=off",
                              "--ports", "connect4=tcp:0:interface=127.0.0.1"])
        clock = Clock()
        service = tap.makeService(options, clock)
        service.startService()
        botGame(service.games.store, clock)  # type: ignore[arg-type]
        yield service.stopService()
        with open(path, encoding="utf-8") as f:
            (line,) = [json.loads(x) for x in f]
        self.assertIsNone(line["finished"])
