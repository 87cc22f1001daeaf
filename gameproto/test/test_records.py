"""The SQLite record store: every game, each action committed as it is accepted."""

from __future__ import annotations

import os
import random
import sqlite3
from typing import Any

from twisted.internet import defer
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto import tap
from gameproto.engine.contract import GameEngine
from gameproto.engine.hub import Hub
from gameproto.engine.record import MemoryRecordStore, TimedStore, WriteTimer, replay
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

    def test_timedStore(self) -> None:
        """
        The SQLite store can time its writes (a L{TimedStore}), and a hub has
        its metrics time those of a store that can; the memory store cannot.
        """
        store = SQLiteRecordStore(":memory:")
        self.addCleanup(store.close)
        self.assertIsInstance(store, TimedStore)
        self.assertNotIsInstance(MemoryRecordStore(), TimedStore)

        class Timed(MemoryRecordStore):
            timers: list[WriteTimer] = []

            def timeWrites(self, timer: WriteTimer) -> None:
                self.timers.append(timer)

        timed = Timed()
        hub = Hub(self.clock, timed)
        self.assertEqual(timed.timers, [hub.metrics.storeTimer])

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

_PREVIOUS_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY, engine TEXT NOT NULL, params TEXT NOT NULL,
    initvalues TEXT NOT NULL, seats TEXT NOT NULL, started REAL NOT NULL,
    finished REAL, scores TEXT, error TEXT
);
CREATE TABLE actions (
    game INTEGER NOT NULL REFERENCES games(id), turn INTEGER NOT NULL,
    seat INTEGER NOT NULL, kind TEXT NOT NULL, action TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (game, turn)
);
CREATE INDEX games_unfinished ON games(finished) WHERE finished IS NULL;
CREATE TABLE seat_tokens (
    game INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    hash TEXT NOT NULL, PRIMARY KEY (game, seat)
);
"""
"""The schema before the actions table was WITHOUT ROWID (up to dd40963)."""


class SchemaTests(SynchronousTestCase):
    """The actions table is WITHOUT ROWID; a database of the previous schema still serves."""

    def setUp(self) -> None:
        self.path = self.mktemp()
        self.clock = Clock()

    def actionsTable(self) -> str:
        db = sqlite3.connect(self.path)
        try:
            (sql,) = db.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'actions'"
            ).fetchone()
        finally:
            db.close()
        return str(sql)

    def test_newDatabase(self) -> None:
        SQLiteRecordStore(self.path).close()
        self.assertIn("WITHOUT ROWID", self.actionsTable())

    def test_previousSchema(self) -> None:
        """
        A database written by the previous schema (a rowid actions table,
        a game left in progress by a killed server) opens, restores the
        game, and takes its next actions, in its own schema.
        """
        db = sqlite3.connect(self.path)
        db.executescript(_PREVIOUS_SCHEMA)
        db.close()
        old = SQLiteRecordStore(self.path)
        table = botGame(old, self.clock)
        for _ in range(3):
            self.clock.advance(1)
        played = list(table.record.actions)
        self.assertEqual(len(played), 3)
        again = SQLiteRecordStore(self.path)  # the first left as a killed server leaves it
        self.assertNotIn("WITHOUT ROWID", self.actionsTable())
        (record,) = list(again.unfinished())
        self.assertEqual(record.actions, played)
        self.assertEqual(engineBoard(replay(ENGINE, record)), engineBoard(table.engine))
        clock = Clock()  # the next run's: the killed one plays no more
        restored = Table(ENGINE, replay(ENGINE, record),
                         [BotSeat(connect4Bot, clock, "a", delay=1),
                          BotSeat(connect4Bot, clock, "b", delay=1)], clock, again, record)
        restored.start()
        clock.advance(1)
        third = SQLiteRecordStore(self.path)
        (reread,) = list(third.unfinished())
        self.assertEqual(len(reread.actions), 4)
        self.assertEqual(reread.actions, restored.record.actions)
        self.assertEqual(engineBoard(replay(ENGINE, reread)), engineBoard(restored.engine))



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
        self.assertEqual(str(error), "--db: cannot use '/nonexistent/dir/games.sqlite' "
                                     "(no folder /nonexistent/dir)")

    def test_optionsMakeNoDatabase(self) -> None:
        """Reading the options looks for the database's place; the server makes it."""
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--db", path])
        self.assertFalse(os.path.exists(path))

    @defer.inlineCallbacks
    def test_embeddersStore(self) -> Any:
        """
        An embedding program's own record store: the hub and every
        protocol's server write there, and no file is made.
        """
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--db", path, *onlyPorts(connect4=LOCAL, maitretarot=LOCAL)])
        store = MemoryRecordStore()
        service = tap.makeService(options, Clock(), store=store)
        self.assertIs(service.hub.store, store)
        self.assertEqual({name: server.store is store for name, server in service.servers.items()},
                         {name: True for name in service.servers})
        service.startService()
        yield service.stopService()
        self.assertFalse(os.path.exists(path))

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
