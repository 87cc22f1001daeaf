"""
The record store's checkpoints in a thread (L{gameproto.engine.store.Checkpointer}):
the store's own commits never copy the log into the database file; the
thread does, on its own connection, once a second if anything was
committed; a log never wholly copied is caught up by the store itself
once it grows too long; the server runs it from start to stop.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any, Callable

from twisted.internet import reactor
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto import tap
from gameproto.engine.hub import Hub
from gameproto.engine.outbox import Outbox
from gameproto.engine.record import GameRecord, MemoryRecordStore, RecordedAction
from gameproto.engine.store import Checkpointer, SQLiteRecordStore
from gameproto.test.service_helpers import LOCAL, onlyPorts

_PAGE_FILLER = "x" * 3000
"""An action long enough that each one written takes a page of the log."""

Result = tuple[int, int, int]


class Writer:
    """A batched store in a file, and a game whose actions fill pages of its log."""

    def __init__(self, case: SynchronousTestCase) -> None:
        self.path = case.mktemp()
        self.store = SQLiteRecordStore(self.path)
        self.store.batchCommits(Outbox(Clock()))
        case.addCleanup(self.store.close)
        self.record = GameRecord(self.store.nextId(), "connect4", {}, {}, ["a", "b"], 0.0)
        self.store.gameStarted(self.record)
        self.store.commit()

    def write(self, actions: int) -> None:
        """``actions`` more actions, each committed alone (a turn each)."""
        for _ in range(actions):
            action = RecordedAction(0, _PAGE_FILLER, 1.0)
            self.record.actions.append(action)
            self.store.actionAccepted(self.record, action)
            self.store.commit()

    def logBytes(self) -> int:
        return os.path.getsize(self.path + "-wal")


class StoreTests(SynchronousTestCase):
    """What the store does for a checkpointer."""

    def test_sqliteCheckpointsInTheCommit(self) -> None:
        """
        Without a checkpointer, a commit that fills SQLite's log past its
        thousand pages copies it into the file and starts it again: the log
        stays near 4 MiB.
        """
        writer = Writer(self)
        writer.write(1500)
        self.assertLess(writer.logBytes(), 1100 * 4096)

    def test_noCheckpointInTheCommit(self) -> None:
        """Left to a checkpointer, the store's commits never checkpoint: the log grows."""
        writer = Writer(self)
        writer.store.checkpointInThread()
        writer.write(1500)
        self.assertGreater(writer.logBytes(), 1400 * 4096)
        self.assertTrue(writer.store.written)

    def test_catchUp(self) -> None:
        """
        L{SQLiteRecordStore.catchUp} copies the whole log: the next write
        starts it from its beginning again, so it grows no more.
        """
        writer = Writer(self)
        writer.store.checkpointInThread()
        writer.write(50)
        writer.store.catchUp()
        size = writer.logBytes()
        writer.write(40)
        self.assertEqual(writer.logBytes(), size)


class KeptCursors(sqlite3.Connection):
    """
    A connection whose cursors live on after their last use, as they do on
    PyPy until its collector runs: a statement not read to its end stays open.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: list[sqlite3.Cursor] = []

    def execute(self, *args: Any) -> sqlite3.Cursor:
        cursor = super().execute(*args)
        self.kept.append(cursor)
        return cursor


class CursorsKeptTests(SynchronousTestCase):
    """The store leaves no statement open, whenever its cursors are freed."""

    def test_checkpointsWithCursorsKept(self) -> None:
        """
        The store's connection in WAL mode, its checkpoints made on another
        connection, every cursor of both kept: nothing the store ran holds
        the database.
        """
        connect = sqlite3.connect
        connections: list[KeptCursors] = []

        def keeping(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            connection = connect(*args, factory=KeptCursors, **kwargs)
            connections.append(connection)
            return connection

        self.patch(sqlite3, "connect", keeping)
        writer = Writer(self)
        checkpointer = Checkpointer(writer.store, Clock(), lambda f: Deferred())
        checkpointer.start()
        self.addCleanup(checkpointer.stop)
        writer.write(20)
        self.assertEqual(len(connections), 2)
        self.assertTrue(os.path.exists(writer.path + "-wal"))
        ((busy, logPages, copied),) = connections[1].execute(
            "PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.assertEqual((busy, copied), (0, logPages))


class CheckpointerTests(SynchronousTestCase):
    """The checkpointer's rounds, on a clock, its thread run when the test says."""

    def setUp(self) -> None:
        self.writer = Writer(self)
        self.clock = Clock()
        self.calls: list[tuple[Callable[[], Result], Deferred[Result]]] = []

    def runInThread(self, f: Callable[[], Result]) -> Deferred[Result]:
        d: Deferred[Result] = Deferred()
        self.calls.append((f, d))
        return d

    def checkpointer(self, **kwargs: int) -> Checkpointer:
        checkpointer = Checkpointer(self.writer.store, self.clock, self.runInThread, **kwargs)
        checkpointer.start()
        self.addCleanup(checkpointer.stop)
        return checkpointer

    def runThread(self) -> Result:
        """Run the checkpoint handed to the thread, and give its result back."""
        f, d = self.calls.pop()
        result = f()
        d.callback(result)
        return result

    def test_checkpointsOnlyWhatWasCommitted(self) -> None:
        """
        Each second, a checkpoint in the thread if anything was committed
        since the last look: it copies the whole log (nothing written
        meanwhile), and the next write starts the log again.
        """
        checkpointer = self.checkpointer()
        self.writer.write(30)
        self.clock.advance(0.5)
        self.assertEqual(self.calls, [])
        self.clock.advance(0.5)
        self.assertEqual(len(self.calls), 1)
        busy, logPages, copied = self.runThread()
        self.assertEqual((busy, copied), (0, logPages))
        self.assertGreaterEqual(logPages, 30)
        self.assertEqual((checkpointer.checkpoints, checkpointer.lastResult),
                         (1, (busy, logPages, copied)))
        self.clock.advance(1)
        self.assertEqual(self.calls, [])  # nothing committed since
        size = self.writer.logBytes()
        self.writer.write(20)
        self.assertEqual(self.writer.logBytes(), size)
        self.clock.advance(1)
        self.assertEqual(len(self.calls), 1)

    def test_oneAtATime(self) -> None:
        """While a checkpoint runs, no other starts; the next comes at the next round."""
        self.checkpointer()
        self.writer.write(5)
        self.clock.advance(1)
        self.writer.write(5)
        self.clock.advance(1)
        self.assertEqual(len(self.calls), 1)
        self.runThread()
        self.clock.advance(1)
        self.assertEqual(len(self.calls), 1)

    def test_longLogCaughtUp(self) -> None:
        """
        Writes going on while the thread copies leave the log never wholly
        copied when a write begins, so it keeps growing; once the thread
        finds it longer than C{maxLogPages}, the store's next commit copies
        what is left, and the log starts again after it.
        """
        self.checkpointer(maxLogPages=40)
        self.writer.write(30)
        self.clock.advance(1)
        f, d = self.calls.pop()
        # A turn's write begins before the thread copies, and commits after it.
        self.writer.store.gameStarted(GameRecord(self.writer.store.nextId(), "connect4",
                                                 {}, {}, ["c", "d"], 0.0))
        result = f()
        self.writer.write(20)
        grown = self.writer.logBytes()
        self.writer.write(20)
        self.assertGreater(self.writer.logBytes(), grown)  # never started again
        self.assertFalse(self.writer.store.catchUpDue)
        d.callback(result)
        self.assertEqual(self.writer.store.catchUpDue, result[1] > 40)
        self.assertTrue(self.writer.store.catchUpDue)
        self.writer.write(1)  # its commit catches up
        self.assertFalse(self.writer.store.catchUpDue)
        size = self.writer.logBytes()
        self.writer.write(20)
        self.assertEqual(self.writer.logBytes(), size)

    def test_aFailedCheckpoint(self) -> None:
        """
        A checkpoint that fails is logged, and the store's next commit
        checkpoints itself; the rounds go on.
        """
        self.checkpointer()
        self.writer.write(5)
        self.clock.advance(1)
        _, d = self.calls.pop()
        d.errback(OSError("disk gone"))
        self.assertEqual(len(self.flushLoggedErrors(OSError)), 1)
        self.assertTrue(self.writer.store.catchUpDue)
        self.writer.write(1)
        self.assertFalse(self.writer.store.catchUpDue)
        self.clock.advance(1)
        self.assertEqual(len(self.calls), 1)

    def test_aFailedCatchUp(self) -> None:
        """
        A catch-up that fails after the turn's commit is logged: the turn
        stays committed and its commit does not fail (its players are told).
        """
        store = self.writer.store
        store.checkpointInThread()
        real = store._db

        class FailingCheckpoint:
            def __getattr__(self, name: str) -> object:
                return getattr(real, name)

            def execute(self, sql: str, *args: Any) -> object:
                if sql.startswith("PRAGMA wal_checkpoint"):
                    raise sqlite3.OperationalError("disk I/O error")
                return real.execute(sql, *args)

        store._db = FailingCheckpoint()  # type: ignore[assignment]
        store.catchUpDue = True
        self.writer.write(1)  # no exception: the commit went through
        self.assertEqual(len(self.flushLoggedErrors(sqlite3.OperationalError)), 1)
        self.assertFalse(store.catchUpDue)
        store._db = real
        other = sqlite3.connect(self.writer.path)
        self.addCleanup(other.close)
        (count,) = other.execute("SELECT COUNT(*) FROM actions").fetchone()
        self.assertEqual(count, 1)

    def test_stopWaitsForTheThread(self) -> None:
        """L{Checkpointer.stop} fires once the running checkpoint is done, and none follows."""
        checkpointer = self.checkpointer()
        self.writer.write(5)
        self.clock.advance(1)
        stopped = checkpointer.stop()
        self.assertNoResult(stopped)
        self.runThread()
        self.successResultOf(stopped)
        self.assertIsNone(checkpointer._db)
        self.writer.write(5)
        self.clock.advance(5)
        self.assertEqual(self.calls, [])
        self.successResultOf(checkpointer.stop())


class ServerTests(TestCase):
    """The service twistd runs checkpoints in the reactor's threads, from start to stop."""

    def test_onlyABatchedFile(self) -> None:
        """
        No checkpointer for a store that is not a batched SQLite file (one
        in memory, another kind of store), nor on a clock without threads.
        """
        for store in (MemoryRecordStore(), SQLiteRecordStore(":memory:"), object()):
            hub = Hub(reactor, store, batchCommits=True)  # type: ignore[arg-type]
            self.assertIsNone(tap.checkpointerFor(hub, reactor))
        fileStore = SQLiteRecordStore(self.mktemp())
        self.addCleanup(fileStore.close)
        hub = Hub(reactor, fileStore, batchCommits=True)
        self.assertIsInstance(tap.checkpointerFor(hub, reactor), Checkpointer)
        self.assertIsNone(tap.checkpointerFor(hub, Clock()))

    def test_theServerCheckpointsInAThread(self) -> Deferred[None]:
        """
        The service of C{twistd gameproto} on a reactor with threads: its
        store never checkpoints in a commit, a round's checkpoint runs in the
        reactor's thread pool, and stopping waits for it before closing.
        """
        options = tap.Options()
        options.parseOptions(["--db", self.mktemp(), *onlyPorts(connect4=LOCAL)])
        top = tap.makeService(options, reactor)
        checkpointer = top.checkpointer
        assert checkpointer is not None
        store = top.hub.store
        assert isinstance(store, SQLiteRecordStore)
        self.assertIs(checkpointer.store, store)
        top.startService()
        (autocheckpoint,) = store._db.execute("PRAGMA wal_autocheckpoint").fetchone()
        self.assertEqual(autocheckpoint, 0)
        record = GameRecord(store.nextId(), "connect4", {}, {}, ["a", "b"], 0.0)
        store.gameStarted(record)
        store.commit()
        checkpointer.tick()  # a round now, in a thread of the reactor's pool
        running = checkpointer._running
        assert running is not None
        result: list[Result] = []
        running.addCallback(result.append)

        def stopped(_: object) -> None:
            self.assertEqual(checkpointer.checkpoints, 1)
            busy, logPages, copied = result[0]
            self.assertEqual((busy, copied), (0, logPages))
            self.assertTrue(store.closed)

        stopping: Deferred[None] = top.stopService()
        return stopping.addCallback(stopped)
