"""
The durable record store: every game in an embedded SQLite database.

A game is stored when it starts and each action is committed as it is
accepted, before any seat is told of it, so a killed server loses no
accepted action.  The writes are plain ``sqlite3`` calls in the reactor
thread: a commit in WAL mode takes microseconds (the data reaches the
operating system at once; a killed process cannot lose it), where a thread
hop through C{adbapi} would make "accepted" arrive after the players were
told.  With L{SQLiteRecordStore.batchCommits} (the server's way), the
writes of one reactor turn share one commit, right after the turn, and
what the connections write meanwhile waits for it
(L{gameproto.engine.outbox}).

Copying the write-ahead log back into the database file (a checkpoint)
is the slow part of SQLite's writes: pages written to the file and two or
three syncs, several milliseconds that a commit crossing SQLite's
threshold would spend in the reactor thread, holding every player of that
turn.  L{Checkpointer} (the server's way) does them in a thread instead.
"""

from __future__ import annotations

import functools
import json
import math
import os
import sqlite3
from typing import Any, Callable, Concatenate, Iterator, ParamSpec, TypeGuard

try:  # the fast path for an action's JSON: orjson, where it is installed (not on PyPy)
    import orjson
except ImportError:  # pragma: no cover - the standard library writes them all
    orjson = None  # type: ignore[assignment]
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import LoopingCall
from twisted.logger import Logger

from gameproto.engine.contract import Seat
from gameproto.engine.outbox import Outbox
from gameproto.engine.record import (
    GameRecord,
    GameSummary,
    RecordedAction,
    Status,
    WriteTimer,
)

log = Logger(namespace="gameproto.store")

_DAMAGED = (ValueError, TypeError, KeyError, sqlite3.DatabaseError)
"""What reading a damaged row raises: bad JSON, wrong types, a damaged page."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    engine TEXT NOT NULL,
    params TEXT NOT NULL,
    initvalues TEXT NOT NULL,
    seats TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    scores TEXT,
    error TEXT
);
-- WITHOUT ROWID: an action's row lives in the b-tree of its primary key, so
-- its INSERT (its own commit) changes one page, not a table page and an
-- index page: half the write-ahead log.  A database made before keeps its
-- rowid table, which every statement here reads and writes alike.
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    turn INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, turn)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_unfinished ON games(finished) WHERE finished IS NULL;
CREATE TABLE IF NOT EXISTS seat_tokens (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
"""


_dump: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON (C{json.dumps} with these separators, without making an encoder each call)."""

_ORJSON_PLAIN = (0 if orjson is None else orjson.OPT_PASSTHROUGH_DATACLASS
                 | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS)
"""orjson writing only what the standard library writes the same way; the rest it refuses."""


def _dumpAction(value: Any) -> str:
    """
    An action's JSON, as L{_dump} writes it or its equal once read back, made
    faster: an integer (a Connect Four column) is its digits; anything else is
    orjson's, unless orjson would write it otherwise than the standard library
    (integers beyond 64 bits, keys that are not strings, subclasses, ``NaN``
    and the infinities, which it writes as ``null``): those are L{_dump}'s.
    """
    if type(value) is int:
        return int.__repr__(value)
    if orjson is None:
        return _dump(value)
    try:
        text = orjson.dumps(value, option=_ORJSON_PLAIN)
    except TypeError:
        return _dump(value)
    if b"null" in text and _nonFinite(value):  # orjson wrote a NaN or an infinity as null
        return _dump(value)
    return text.decode()


def _nonFinite(value: Any) -> bool:
    """Whether ``value`` holds a float that is NaN or infinite, at any depth."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(map(_nonFinite, value.values()))
    if isinstance(value, (list, tuple)):
        return any(map(_nonFinite, value))
    return False


_INSERT_ACTION = ("INSERT INTO actions (game, turn, seat, kind, action, at) "
                  "VALUES (?, ?, ?, ?, ?, ?)")


_P = ParamSpec("_P")


def _timed(operation: str) -> Callable[[Callable[Concatenate[SQLiteRecordStore, _P], None]],
                                       Callable[Concatenate[SQLiteRecordStore, _P], None]]:
    """A write of the store, timed as ``operation`` once L{SQLiteRecordStore.timeWrites} is set."""

    def decorate(method: Callable[Concatenate[SQLiteRecordStore, _P], None]
                 ) -> Callable[Concatenate[SQLiteRecordStore, _P], None]:
        @functools.wraps(method)
        def timed(self: SQLiteRecordStore, *args: _P.args, **kwargs: _P.kwargs) -> None:
            if self._timer is None:
                return method(self, *args, **kwargs)
            with self._timer(operation):
                return method(self, *args, **kwargs)

        return timed

    return decorate


class SQLiteRecordStore:
    """
    A L{RecordStore} in one SQLite file (``:memory:`` for a throw-away one),
    which can time its writes (a L{gameproto.engine.record.TimedStore}).
    """

    def __init__(self, path: str) -> None:
        """
        Open (or create) the database at ``path``; raises C{sqlite3.Error}
        or C{OSError} when it cannot be used.  An empty file is a new
        database, and one log line says so.
        """
        self.path = path
        if path != ":memory:" and os.path.isfile(path) and os.path.getsize(path) == 0:
            log.info("the database {path} is an empty file: starting a new database", path=path)
        self._damaged: set[int] = set()
        """The games found damaged (each logged once)."""
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        # Each PRAGMA's answer read to its end: a statement left open holds the
        # database until its cursor is freed, which on PyPy waits for the collector.
        self._db.execute("PRAGMA journal_mode=WAL").fetchall()
        self._db.execute("PRAGMA synchronous=NORMAL").fetchall()
        self._db.executescript(_SCHEMA)
        (last,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
        self._lastId: int = last
        self.live: dict[int, GameRecord] = {}
        self.closed = False
        self._rows: list[tuple[int, int, Seat, str, str, float]] = []
        """The actions of this turn not written yet (commits batched): the commit writes them."""
        self._committing = False
        """Whether the outbox has this turn's commit to run (commits batched)."""

    # -- RecordStore ---------------------------------------------------------

    _timer: WriteTimer | None = None

    _outbox: Outbox | None = None

    def timeWrites(self, timer: WriteTimer) -> None:
        """Time every write with ``timer``, and each commit of batched writes as ``commit``."""
        self._timer = timer

    def batchCommits(self, outbox: Outbox) -> None:
        """
        Commit the writes of a reactor turn together: the first opens a
        transaction, which ``outbox`` commits right after the turn, holding
        what connections write until then, so that nobody is told of an
        action before it is committed.  Without it each write is its own
        commit.
        """
        self._outbox = outbox

    @property
    def batched(self) -> bool:
        """Whether the writes of a reactor turn share a commit (L{batchCommits})."""
        return self._outbox is not None

    def commit(self) -> None:
        """
        Write the turn's actions and commit the batched writes not committed
        yet, if any (all rolled back if it fails).
        """
        self._committing = False
        rows = self._rows
        if self.closed or not (rows or self._db.in_transaction):
            return
        self._rows = []
        try:
            if self._timer is None:
                self._commit(rows)
            else:
                with self._timer("commit"):
                    self._commit(rows)
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _commit(self, rows: list[tuple[int, int, Seat, str, str, float]]) -> None:
        """The turn's actions, in one statement, and the commit."""
        if rows:
            if not self._db.in_transaction:
                self._db.execute("BEGIN")
            self._db.executemany(_INSERT_ACTION, rows)
        self._db.execute("COMMIT")
        self.written = True
        if self.catchUpDue:
            try:
                self.catchUp()
            except sqlite3.Error:
                # The turn is committed all the same: its players are told.
                log.failure("a checkpoint of the database failed")

    written = False
    """Whether a commit was made since a L{Checkpointer} last looked."""

    catchUpDue = False
    """Whether the next commit is followed by L{catchUp} (a L{Checkpointer} asks it)."""

    def checkpointInThread(self) -> None:
        """
        Leave checkpoints to a L{Checkpointer}: this connection never makes
        one on its own (C{wal_autocheckpoint=0}), and whoever checkpoints
        opens its own connection to the file.
        """
        self._db.execute("PRAGMA wal_autocheckpoint=0").fetchall()

    def catchUp(self) -> None:
        """
        Checkpoint here, at once: what the log holds beyond the last
        checkpoint (little, when a L{Checkpointer} runs), so that the next
        write starts the log from its beginning again.  Without it a log
        written to without pause is never wholly copied at the moment a
        write begins, and grows for ever.
        """
        self.catchUpDue = False
        if not self.closed and not self._db.in_transaction:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _begin(self) -> None:
        """A write: in the turn's transaction when commits are batched."""
        if self._outbox is not None and not self._db.in_transaction:
            self._db.execute("BEGIN")
            self._commitLater(self._outbox)

    def _commitLater(self, outbox: Outbox) -> None:
        """Have ``outbox`` commit right after this turn, and hold what is written until then."""
        if not self._committing:
            self._committing = True
            outbox.commitLater(self.commit)

    def nextId(self) -> int:
        self._lastId += 1
        return self._lastId

    @_timed("start")
    def gameStarted(self, record: GameRecord) -> None:
        if self.closed:
            return
        self._begin()
        self._db.execute(
            "INSERT INTO games (id, engine, params, initvalues, seats, started) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (record.id, record.engine, _dump(record.params), _dump(record.initvalues),
             _dump(record.seats), record.started))
        for turn, action in enumerate(record.actions):
            self._insertAction(record.id, turn, action)
        self._writeTokens(record)
        self.live[record.id] = record

    def gameResumed(self, record: GameRecord) -> None:
        """A game restored from this store goes on: keep it at hand."""
        self.live[record.id] = record

    @_timed("seats")
    def seatsChanged(self, record: GameRecord) -> None:
        """A seat changed hands: keep the names the listing shows, and the seats' token hashes."""
        if not self.closed:
            self._begin()
            self._db.execute("UPDATE games SET seats = ? WHERE id = ?",
                             (_dump(record.seats), record.id))
            self._writeTokens(record)

    def actionAccepted(self, record: GameRecord, action: RecordedAction) -> None:
        """
        Write ``action`` (timed as ``action``); with commits batched, its row
        waits for the turn's commit, which writes every action of the turn in
        one statement before committing them (timed as ``commit``, the row's
        making not timed: it costs less than its timing).
        """
        if self.closed:
            return
        outbox = self._outbox
        if outbox is not None:
            self._rows.append((record.id, len(record.actions) - 1, action.seat, action.kind,
                               _dumpAction(action.action), action.at))
            self._commitLater(outbox)
        elif self._timer is None:
            self._insertAction(record.id, len(record.actions) - 1, action)
        else:
            with self._timer("action"):
                self._insertAction(record.id, len(record.actions) - 1, action)

    @_timed("finish")
    def gameFinished(self, record: GameRecord) -> None:
        if self.closed:
            return
        self._begin()
        self._db.execute(
            "UPDATE games SET finished = ?, scores = ?, error = ?, seats = ? WHERE id = ?",
            (record.finished, _dump(record.scores) if record.scores is not None else None,
             record.error, _dump(record.seats), record.id))
        self.live.pop(record.id, None)

    def get(self, gameId: int) -> GameRecord | None:
        # What is read here may be told (the HTTP API): committed first.
        self.commit()
        if gameId in self.live:
            return self.live[gameId]
        try:
            row = self._db.execute(
                "SELECT id, engine, params, initvalues, seats, started, finished, scores, error "
                "FROM games WHERE id = ?", (gameId,)).fetchone()
            return self._record(row) if row is not None else None
        except _DAMAGED as e:
            self._reportDamaged(gameId, e, "cannot be read")
            return None

    # -- listing and restoring ----------------------------------------------

    def games(self, offset: int = 0, limit: int = 50,
              status: Status | None = None) -> tuple[list[GameSummary], int]:
        """A page of games, newest first, and how many there are in all (committed first)."""
        self.commit()
        where, args = {
            None: ("", ()),
            "live": ("WHERE finished IS NULL AND error IS NULL", ()),
            "finished": ("WHERE finished IS NOT NULL AND error IS NULL", ()),
            "aborted": ("WHERE error IS NOT NULL", ()),
        }[status]
        (total,) = self._db.execute(f"SELECT COUNT(*) FROM games {where}", args).fetchone()
        rows = self._db.execute(
            f"SELECT g.id, g.engine, g.seats, g.started, g.finished, g.scores, g.error, "
            f"(SELECT COUNT(*) FROM actions a WHERE a.game = g.id) "
            f"FROM games g {where} ORDER BY g.id DESC LIMIT ? OFFSET ?",
            (*args, limit, offset)).fetchall()
        summaries = []
        for id, engine, seats, started, finished, scores, error, turns in rows:
            try:
                summary = GameSummary(id, engine, tuple(json.loads(seats)), started, finished,
                                      tuple(json.loads(scores)) if scores else None, error,
                                      turns)
            except _DAMAGED as e:
                self._reportDamaged(id, e, "cannot be read")
                summary = GameSummary(id, str(engine), (), started, finished, None,
                                      error or "damaged record", turns)
            summaries.append(summary)
        return summaries, total

    def unfinished(self) -> Iterator[GameRecord]:
        """
        The games a previous run left in progress, oldest first, each read
        on its own: one that cannot be read (a damaged row or page) is
        marked aborted, with one log line, and the others follow.
        """
        try:
            ids = [id for (id,) in self._db.execute(
                "SELECT id FROM games WHERE finished IS NULL AND error IS NULL ORDER BY id")]
        except sqlite3.DatabaseError as e:
            log.error("the database {path} is damaged: its unfinished games cannot be listed "
                      "({error}); none is restored", path=self.path, error=str(e))
            return
        for id in ids:
            try:
                row = self._db.execute(
                    "SELECT id, engine, params, initvalues, seats, started, finished, scores, "
                    "error FROM games WHERE id = ?", (id,)).fetchone()
                record = self._record(row)
            except _DAMAGED as e:
                self._reportDamaged(id, e, "cannot be restored", abort=True)
                continue
            yield record

    def close(self) -> None:
        """
        Stop writing (the server is stopping: games still in progress stay
        live in the database, to be restored at the next start) and close.
        """
        if not self.closed:
            self.commit()
            self.closed = True
            self._db.close()

    # -- inside --------------------------------------------------------------

    def _reportDamaged(self, id: int, error: Exception, what: str, abort: bool = False) -> None:
        """
        Game ``id``'s record is damaged: one log line (once per game), and
        (``abort``) the game marked aborted, if the database lets it be.
        """
        if id in self._damaged:
            return
        self._damaged.add(id)
        reason = f"its record is damaged ({type(error).__name__}: {error})"
        marked = ""
        if abort and not self.closed:
            try:
                self._begin()
                self._db.execute(
                    "UPDATE games SET error = ?, finished = COALESCE(finished, started) "
                    "WHERE id = ?", (reason[:500], id))
                marked = ": marked aborted"
            except sqlite3.Error as e:
                marked = f" and cannot be marked aborted ({e})"
        log.error("game {id} {what}: {reason}{marked}", id=id, what=what, reason=reason,
                  marked=marked)

    def _insertAction(self, game: int, turn: int, action: RecordedAction) -> None:
        self._db.execute(_INSERT_ACTION, (game, turn, action.seat, action.kind,
                                          _dumpAction(action.action), action.at))

    def _writeTokens(self, record: GameRecord) -> None:
        """The sha256 of each seat's token (never the token), as ``record.tokens`` has them."""
        self._db.executemany(
            "INSERT OR REPLACE INTO seat_tokens (game, seat, hash) VALUES (?, ?, ?)",
            [(record.id, seat, digest) for seat, digest in sorted(record.tokens.items())])

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        id, engine, params, initvalues, seats, started, finished, scores, error = row
        actions = [
            RecordedAction(seat, json.loads(action), at, kind)
            for seat, kind, action, at in self._db.execute(
                "SELECT seat, kind, action, at FROM actions WHERE game = ? ORDER BY turn", (id,))
        ]
        tokens = {seat: digest for seat, digest in self._db.execute(
            "SELECT seat, hash FROM seat_tokens WHERE game = ?", (id,))}
        return GameRecord(tokens=tokens, id=id, engine=engine, params=json.loads(params),
                          initvalues=json.loads(initvalues), seats=json.loads(seats),
                          started=started, actions=actions, finished=finished,
                          scores=json.loads(scores) if scores else None, error=error)


def isCheckpointable(store: object) -> TypeGuard[SQLiteRecordStore]:
    """Whether ``store`` is a L{SQLiteRecordStore} in a file that batches its commits."""
    return isinstance(store, SQLiteRecordStore) and store.batched


class Checkpointer:
    """
    The checkpoints of a L{SQLiteRecordStore} in a file, in a thread: every
    ``interval`` seconds, if anything was committed since, a passive
    checkpoint on a connection of its own (which copies what it can without
    stopping the store's writes, and syncs).  A log written to without
    pause is never wholly copied at the moment a write begins, so it would
    never start again from its beginning: once it holds more than
    ``maxLogPages`` pages, the store's next commit copies the few pages
    written since the last checkpoint itself (L{SQLiteRecordStore.catchUp}),
    a short stop of the reactor once in that many pages instead of a long one
    every thousand.  ``runInThread(f)`` runs ``f`` in a thread and gives a
    Deferred of its result (L{twisted.internet.threads.deferToThreadPool}).
    """

    def __init__(self, store: SQLiteRecordStore, clock: IReactorTime,
                 runInThread: Callable[[Callable[[], tuple[int, int, int]]],
                                       Deferred[tuple[int, int, int]]],
                 interval: float = 1.0, maxLogPages: int = 8192) -> None:
        self.store = store
        self._runInThread = runInThread
        self.maxLogPages = maxLogPages
        self.interval = interval
        self._loop = LoopingCall(self.tick)
        self._loop.clock = clock
        self._db: sqlite3.Connection | None = None
        """Its own connection to the file, used by one checkpoint at a time, in the thread."""
        self._running: Deferred[tuple[int, int, int]] | None = None
        self.checkpoints = 0
        """How many checkpoints were made in the thread (for tests and the log)."""
        self.lastResult: tuple[int, int, int] | None = None
        """The last one's (busy, pages in the log, pages copied), SQLite's answer."""

    def start(self) -> None:
        """Stop the store's own checkpoints, open a connection, check every ``interval`` seconds."""
        self.store.checkpointInThread()
        self._db = sqlite3.connect(self.store.path, isolation_level=None,
                                   check_same_thread=False, timeout=0)
        # Read once, so that its files (the log's, its index's) are all open from now on.
        self._db.execute("SELECT COUNT(*) FROM sqlite_master").fetchall()
        self._loop.start(self.interval, now=False)

    def stop(self) -> Deferred[None]:
        """
        No more checkpoints: fires once the one running (if any) is done and
        the connection closed.
        """
        if self._loop.running:
            self._loop.stop()
        done: Deferred[None] = Deferred()

        def finished(result: object) -> object:
            self._close()
            done.callback(None)
            return result

        if self._running is None:
            finished(None)
        else:
            self._running.addBoth(finished)
        return done

    def _close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()

    def tick(self) -> None:
        """A checkpoint in the thread, if something was committed and none runs."""
        store, db = self.store, self._db
        if self._running is not None or db is None or not store.written or store.closed:
            return
        store.written = False
        running = self._running = self._runInThread(functools.partial(_checkpoint, db))
        running.addCallbacks(self._done, self._failed)

    def _done(self, result: tuple[int, int, int]) -> tuple[int, int, int]:
        self._running = None
        self.checkpoints += 1
        self.lastResult = result
        if result[1] > self.maxLogPages:
            self.store.catchUpDue = True
        return result

    def _failed(self, failure: Any) -> None:
        self._running = None
        self.store.catchUpDue = True  # the store's next commit checkpoints, as it would alone
        log.failure("a checkpoint of the database failed", failure)


def _checkpoint(db: sqlite3.Connection) -> tuple[int, int, int]:
    """(In a thread.)  A passive checkpoint on ``db``, its statement done with at once."""
    ((busy, logPages, copied),) = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    return int(busy), int(logPages), int(copied)
