"""
Damaged databases: each game is restored on its own (one that cannot be is
marked aborted, with one log line, and the others start); a database that
cannot be used is one clear line and no service; an empty file is a new
database, and one log line says so.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from typing import Any

from twisted.internet.task import Clock
from twisted.python import usage
from twisted.trial.unittest import SynchronousTestCase

from gameproto import tap
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import Table

from gameproto.test.hardening_helpers import LogCapture
from gameproto.test.service_helpers import onlyPorts
from gameproto.test.test_startup import twistd

LOCAL = "tcp:0:interface=127.0.0.1"


def liveGames(path: str, count: int = 6) -> list[int]:
    """``count`` games left live in a new database at ``path``, a few actions each."""
    clock = Clock()
    store = SQLiteRecordStore(path)
    hub = Hub(clock, store, random.Random(4), settings=HubSettings(botDelay=1.0))
    ids = []
    for n in range(count):
        made: list[Any] = []
        hub.newGame("tarot" if n % 2 else "connect4", {},
                    [1, 2, 3] if n % 2 else [1]).addCallback(made.append)
        assert isinstance(made[0], Table)
        ids.append(made[0].id)
    for _ in range(30):
        clock.advance(1)
    store.close()
    return ids


def restore(path: str) -> tuple[Hub, list[int]]:
    hub = Hub(Clock(), SQLiteRecordStore(path), random.Random(1))
    restored: list[Any] = []
    hub.restore().addBoth(restored.append)
    (ids,) = restored
    assert isinstance(ids, list), ids
    return hub, ids


def options(db: str) -> tap.Options:
    parsed = tap.Options()
    parsed.parseOptions(["--db", db, *onlyPorts(web=LOCAL)])
    return parsed


class DamagedRowTests(SynchronousTestCase):
    def test_badActionRow(self) -> None:
        """A bad JSON action row: that game is aborted, with one log line; the others start."""
        path = self.mktemp()
        ids = liveGames(path)
        with sqlite3.connect(path) as db:
            db.execute("UPDATE actions SET action = '{not json' WHERE game = ? AND turn = 0",
                       (ids[1],))
            db.execute("UPDATE games SET params = '[1, 2' WHERE id = ?", (ids[2],))
        log = LogCapture(self)
        hub, restored = restore(path)
        self.assertEqual(restored, [i for i in ids if i not in (ids[1], ids[2])])
        for damaged in (ids[1], ids[2]):
            lines = [line for line in log.lines() if f"game {damaged} " in line]
            self.assertEqual(len(lines), 1, lines)
            self.assertIn("damaged", lines[0])
        self.assertEqual(log.failures(), [])
        summaries, _ = hub.store.games(status="aborted")
        self.assertEqual(sorted(s.id for s in summaries), [ids[1], ids[2]])
        hub.store.close()
        # Marked aborted: the next start does not try again.
        log.clear()
        hub, restored = restore(path)
        self.assertEqual(len(restored), len(ids) - 2)
        self.assertEqual([line for line in log.lines() if "damaged" in line], [])

    def test_damagedListing(self) -> None:
        """A row the listing cannot read is shown as damaged, not a traceback."""
        path = self.mktemp()
        ids = liveGames(path, 2)
        with sqlite3.connect(path) as db:
            db.execute("UPDATE games SET seats = '{' WHERE id = ?", (ids[0],))
        log = LogCapture(self)
        store = SQLiteRecordStore(path)
        summaries, total = store.games()
        self.assertEqual(total, 2)
        damaged = [s for s in summaries if s.id == ids[0]]
        self.assertEqual(damaged[0].status, "aborted")
        self.assertIsNone(store.get(ids[0]))
        self.assertEqual(len([line for line in log.lines() if f"game {ids[0]} " in line]), 1)
        self.assertEqual(log.failures(), [])
        store.close()


class DamagedFileTests(SynchronousTestCase):
    def test_garbagePages(self) -> None:
        """
        Garbage written over each page of a copy in turn: the database is
        refused with one clear line, or each game is restored or aborted on
        its own; never a traceback.
        """
        path = self.mktemp()
        liveGames(path, 10)
        size = os.path.getsize(path)
        pages = size // 4096
        self.assertGreater(pages, 3)
        outcomes = set()
        for page in range(1, pages):
            copy = f"{path}.{page}"
            shutil.copy(path, copy)
            with open(copy, "r+b") as f:
                f.seek(page * 4096)
                f.write(random.Random(page).randbytes(4096))
            log = LogCapture(self)
            try:
                parsed = options(copy)
            except usage.UsageError as e:
                self.assertIn("--db", str(e))
                outcomes.add("refused")
                continue
            hub, restored = restore(parsed["db"])
            hub.store.close()
            self.assertEqual(log.failures(), [], page)
            outcomes.add("restored" if restored else "none restored")
        self.assertIn("refused", outcomes)
        self.assertTrue(outcomes - {"refused"})


class UnusableDatabaseTests(SynchronousTestCase):
    def test_emptyFile(self) -> None:
        """A 0-byte file is a new database: one log line says so."""
        path = self.mktemp()
        open(path, "wb").close()
        log = LogCapture(self)
        parsed = options(path)
        service = tap.makeService(parsed, Clock())
        lines = [line for line in log.lines() if "empty" in line]
        self.assertEqual(len(lines), 1, lines)
        self.assertIn(path, lines[0])
        service.hub.store.close()

    def test_notADatabase(self) -> None:
        path = self.mktemp()
        with open(path, "wb") as f:
            f.write(b"this is no database, " * 400)
        e = self.assertRaises(usage.UsageError, options, path)
        self.assertIn(f"--db: cannot use {path!r}", str(e))

    def test_directoryAndMissingDirectory(self) -> None:
        directory = self.mktemp()
        os.mkdir(directory)
        for path in (directory, os.path.join(directory, "missing", "games.sqlite")):
            e = self.assertRaises(usage.UsageError, options, path)
            self.assertIn("--db", str(e))

    def test_unwritable(self) -> None:
        if os.geteuid() == 0:
            raise self.skipTest("root writes anywhere")  # type: ignore[misc]
        directory = self.mktemp()
        os.mkdir(directory)
        path = os.path.join(directory, "games.sqlite")
        liveGames(path, 1)
        os.chmod(path, 0o400)
        os.chmod(directory, 0o500)
        self.addCleanup(os.chmod, directory, 0o700)
        self.assertRaises(usage.UsageError, options, path)

    def test_makeService(self) -> None:
        """
        A database that cannot be used once the options were read: makeService
        ends the process with one clear line (a SystemExit), no traceback.
        """
        parsed = options(self.mktemp())
        directory = self.mktemp()
        os.mkdir(directory)
        parsed["db"] = directory
        e = self.assertRaises(SystemExit, tap.makeService, parsed, Clock())
        self.assertIn(f"--db: cannot use {directory!r}", str(e))
        self.assertEqual(str(e).count("\n"), 0)


class TwistdTests(SynchronousTestCase):
    def test_unusableDatabase(self) -> None:
        """``twistd -n gameproto --db`` of no database: one line naming it, status 1."""
        garbage = os.path.abspath(self.mktemp())
        with open(garbage, "wb") as f:
            f.write(b"this is no database, " * 400)
        directory = os.path.abspath(self.mktemp())
        os.mkdir(directory)
        for path in (garbage, directory):
            result = twistd(self, "-n", "--pidfile=", "gameproto", "--db", path,
                            *onlyPorts(web=LOCAL))
            self.assertEqual(result.returncode, 1, result)
            lines = result.stderr.splitlines()
            self.assertEqual(len(lines), 1, result.stderr)
            self.assertIn(f"--db: cannot use {path!r}", lines[0])
            self.assertNotIn("Traceback", result.stdout + result.stderr)
