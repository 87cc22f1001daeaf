"""The SQLite record store: every game, each action committed as it is accepted."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from twisted.internet import defer
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto import tap
from gameproto.engine.contract import GameEngine
from gameproto.engine.record import replay
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import BotSeat, Table
from gameproto.games.connect4 import ENGINE, Board, Connect4Game, connect4Bot
from gameproto.test.service_helpers import LOCAL, onlyPorts


def engineBoard(engine: GameEngine) -> Board:
    """The board of a Connect Four game."""
    assert isinstance(engine, Connect4Game), engine
    return engine.board


def botGame(store: Any, clock: Clock) -> Table:
    table = Table.create(ENGINE, {}, [BotSeat(connect4Bot, clock, "a", delay=1),
                                      BotSeat(connect4Bot, clock, "b", delay=1)], clock, store,
                         random.Random(1))
    table.start()
    return table


class SQLiteTests(SynchronousTestCase):
    def setUp(self) -> None:
        self.path = self.mktemp()
        self.clock = Clock()

    def otherConnection(self) -> sqlite3.Connection:
        """What another process (or the next start) would read."""
        db = sqlite3.connect(self.path)
        self.addCleanup(db.close)
        return db

    def test_actionsCommittedAsAccepted(self) -> None:
        """Each accepted action is in the database before the next one is played."""
        store = SQLiteRecordStore(self.path)
        table = botGame(store, self.clock)
        for turn in range(1, 4):
            self.clock.advance(1)
            (count,) = self.otherConnection().execute(
                "SELECT COUNT(*) FROM actions WHERE game = ?", (table.id,)).fetchone()
            self.assertEqual(count, turn)

    def test_killedMidGameLosesNothing(self) -> None:
        """A store opened on the file of a store that was never closed sees every action."""
        store = SQLiteRecordStore(self.path)
        table = botGame(store, self.clock)
        for _ in range(5):
            self.clock.advance(1)
        again = SQLiteRecordStore(self.path)  # the first one is left as a killed process leaves it
        (record,) = list(again.unfinished())
        self.assertEqual(record.actions, table.record.actions)
        self.assertEqual(engineBoard(replay(ENGINE, record)), engineBoard(table.engine))
        self.assertEqual(again.nextId(), table.id + 1)

    def test_finishedGame(self) -> None:
        store = SQLiteRecordStore(self.path)
        table = botGame(store, self.clock)
        while not table.finished:
            self.clock.advance(1)
        again = SQLiteRecordStore(self.path)
        record = again.get(table.id)
        assert record is not None
        self.assertEqual(record.asJSON(), table.record.asJSON())
        self.assertEqual(record.status, "finished")
        self.assertEqual(list(again.unfinished()), [])

    def test_liveGameFromMemory(self) -> None:
        store = SQLiteRecordStore(self.path)
        table = botGame(store, self.clock)
        self.assertIs(store.get(table.id), table.record)
        self.assertIsNone(store.get(999))

    def test_listing(self) -> None:
        """Pages, newest first, with each game's status and seats."""
        store = SQLiteRecordStore(self.path)
        tables = [botGame(store, self.clock) for _ in range(3)]
        while not all(t.finished for t in tables):
            self.clock.advance(1)
        tables += [botGame(store, self.clock) for _ in range(2)]
        tables[3].abort("the engine crashed")
        page, total = store.games(offset=0, limit=2)
        self.assertEqual(total, 5)
        self.assertEqual([g.id for g in page], [5, 4])
        self.assertEqual([g.status for g in page], ["live", "aborted"])
        self.assertEqual(page[1].error, "the engine crashed")
        self.assertEqual(page[0].seats, ("a", "b"))
        finished, count = store.games(status="finished")
        self.assertEqual((count, [g.id for g in finished]), (3, [3, 2, 1]))
        self.assertEqual(store.games(status="live")[1], 1)
        self.assertEqual(page[0].asJSON()["status"], "live")

    def test_closedStoreWritesNothing(self) -> None:
        """After close (the server stopping), games in progress stay live for the next start."""
        store = SQLiteRecordStore(self.path)
        table = botGame(store, self.clock)
        self.clock.advance(1)
        store.close()
        table.resign(table.record.actions[-1].seat ^ 1)
        again = SQLiteRecordStore(self.path)
        (record,) = list(again.unfinished())
        self.assertEqual(len(record.actions), 1)


class ServiceStoreTests(TestCase):
    """twistd gameproto --db PATH."""

    def test_option(self) -> None:
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--db", path])
        self.assertEqual(options["db"], path)

    def test_unusable(self) -> None:
        from twisted.python import usage

        options = tap.Options()
        error = self.assertRaises(usage.UsageError, options.parseOptions,
                                  ["--db", "/nonexistent/dir/games.sqlite"])
        self.assertIn("--db", str(error))

    @defer.inlineCallbacks
    def test_stopLeavesGamesLive(self) -> Any:
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--db", path, *onlyPorts(connect4=LOCAL)])
        clock = Clock()
        service = tap.makeService(options, clock)
        service.startService()
        table = botGame(service.games.store, clock)
        clock.advance(1)
        yield service.stopService()
        (record,) = list(SQLiteRecordStore(path).unfinished())
        self.assertEqual(record.id, table.id)
