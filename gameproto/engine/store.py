"""
The durable record store: every game in an embedded SQLite database.

A game is stored when it starts and each action is committed as it is
accepted, before any seat is told of it, so a killed server loses no
accepted action.  The writes are plain ``sqlite3`` calls in the reactor
thread: a commit in WAL mode takes microseconds (the data reaches the
operating system at once; a killed process cannot lose it), where a thread
hop through C{adbapi} would make "accepted" arrive after the players were
told.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterator

from gameproto.engine.record import GameRecord, GameSummary, RecordedAction, Status


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
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    turn INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, turn)
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games(finished) WHERE finished IS NULL;
"""


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class SQLiteRecordStore:
    """A L{RecordStore} in one SQLite file (``:memory:`` for a throw-away one)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        (last,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
        self._lastId: int = last
        self.live: dict[int, GameRecord] = {}
        self.closed = False

    # -- RecordStore ---------------------------------------------------------

    def nextId(self) -> int:
        self._lastId += 1
        return self._lastId

    def gameStarted(self, record: GameRecord) -> None:
        if self.closed:
            return
        self._db.execute(
            "INSERT INTO games (id, engine, params, initvalues, seats, started) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (record.id, record.engine, _dump(record.params), _dump(record.initvalues),
             _dump(record.seats), record.started))
        for turn, action in enumerate(record.actions):
            self._insertAction(record.id, turn, action)
        self.live[record.id] = record

    def gameResumed(self, record: GameRecord) -> None:
        """A game restored from this store goes on: keep it at hand."""
        self.live[record.id] = record

    def seatsChanged(self, record: GameRecord) -> None:
        """A seat changed hands: keep the names the listing shows."""
        if not self.closed:
            self._db.execute("UPDATE games SET seats = ? WHERE id = ?",
                             (_dump(record.seats), record.id))

    def actionAccepted(self, record: GameRecord, action: RecordedAction) -> None:
        if not self.closed:
            self._insertAction(record.id, len(record.actions) - 1, action)

    def gameFinished(self, record: GameRecord) -> None:
        if self.closed:
            return
        self._db.execute(
            "UPDATE games SET finished = ?, scores = ?, error = ?, seats = ? WHERE id = ?",
            (record.finished, _dump(record.scores) if record.scores is not None else None,
             record.error, _dump(record.seats), record.id))
        self.live.pop(record.id, None)

    def get(self, gameId: int) -> GameRecord | None:
        if gameId in self.live:
            return self.live[gameId]
        row = self._db.execute(
            "SELECT id, engine, params, initvalues, seats, started, finished, scores, error "
            "FROM games WHERE id = ?", (gameId,)).fetchone()
        return self._record(row) if row is not None else None

    # -- listing and restoring ----------------------------------------------

    def games(self, offset: int = 0, limit: int = 50,
              status: Status | None = None) -> tuple[list[GameSummary], int]:
        """A page of games, newest first, and how many there are in all."""
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
        summaries = [
            GameSummary(id, engine, tuple(json.loads(seats)), started, finished,
                        tuple(json.loads(scores)) if scores else None, error, turns)
            for id, engine, seats, started, finished, scores, error, turns in rows
        ]
        return summaries, total

    def unfinished(self) -> Iterator[GameRecord]:
        """The games a previous run left in progress, oldest first."""
        rows = self._db.execute(
            "SELECT id, engine, params, initvalues, seats, started, finished, scores, error "
            "FROM games WHERE finished IS NULL AND error IS NULL ORDER BY id").fetchall()
        for row in rows:
            yield self._record(row)

    def close(self) -> None:
        """
        Stop writing (the server is stopping: games still in progress stay
        live in the database, to be restored at the next start) and close.
        """
        if not self.closed:
            self.closed = True
            self._db.close()

    # -- inside --------------------------------------------------------------

    def _insertAction(self, game: int, turn: int, action: RecordedAction) -> None:
        self._db.execute(
            "INSERT INTO actions (game, turn, seat, kind, action, at) VALUES (?, ?, ?, ?, ?, ?)",
            (game, turn, action.seat, action.kind, _dump(action.action), action.at))

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        id, engine, params, initvalues, seats, started, finished, scores, error = row
        actions = [
            RecordedAction(seat, json.loads(action), at, kind)
            for seat, kind, action, at in self._db.execute(
                "SELECT seat, kind, action, at FROM actions WHERE game = ? ORDER BY turn", (id,))
        ]
        return GameRecord(id=id, engine=engine, params=json.loads(params),
                          initvalues=json.loads(initvalues), seats=json.loads(seats),
                          started=started, actions=actions, finished=finished,
                          scores=json.loads(scores) if scores else None, error=error)
