"""
Commits once per reactor turn, and nobody told before them.

The record store writes each accepted action before anyone is told of it.
Committing each write alone costs a commit (whole pages appended to
SQLite's write-ahead log) per action; a store that batches its writes
(L{gameproto.engine.store.SQLiteRecordStore.batchCommits}) instead opens one
transaction for all the writes of a reactor turn and asks the hub's
L{Outbox} to commit it right after the turn (or sooner, once
L{Outbox.maxHeld} connections wait for it).  Meanwhile whatever the
connections write (L{gameproto.net.WireProtocol.writeData}) waits in them,
and goes out once the commit is done: every message telling of an action
leaves after the action is committed (in the operating system's hands: a
killed server cannot lose it), as before, and each connection's messages of
the turn leave together.
"""

from __future__ import annotations

from typing import Callable, Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

log = Logger(namespace="gameproto.store")


class HeldWrites(Protocol):
    """A connection whose writes wait for the turn's commit."""

    def releaseWrites(self) -> None:
        """The commit is done: send what waited."""

    def discardWrites(self, reason: str) -> None:
        """The commit failed: what waited must not be sent (close the connection)."""


class Outbox:
    """
    The commits of one reactor turn and the connections whose writes wait
    for them.  L{commitLater} starts holding; L{flush} (on the clock right
    after the turn, sooner when a connection closes, or as soon as
    C{maxHeld} connections wait) commits, then lets each waiting connection
    send, in the order they began to wait.
    """

    def __init__(self, clock: IReactorTime, maxHeld: int = 64) -> None:
        """
        ``maxHeld``: how many connections may wait for one commit.  A busy
        reactor turn reads many players' messages; the first ones told
        should not wait for the whole turn's work: past that many, the
        turn's writes so far are committed and sent at once, and the rest
        of the turn waits for another commit (one commit every C{maxHeld}
        connections told costs little beside what they are sent).
        """
        if maxHeld < 1:
            raise ValueError(f"maxHeld must be at least 1, got {maxHeld}")
        self._clock = clock
        self.maxHeld = maxHeld
        self._commits: list[Callable[[], None]] = []
        self._waiting: list[HeldWrites] = []
        self._call: IDelayedCall | None = None
        self.flushes = 0
        """How many times writes were held and released (for tests and metrics)."""

    @property
    def holding(self) -> bool:
        """Whether writes must wait: something written is not committed yet."""
        return self._call is not None

    def commitLater(self, commit: Callable[[], None]) -> None:
        """
        Run ``commit`` right after this turn, before anything written from
        now on is sent.
        """
        self._commits.append(commit)
        if self._call is None:
            self._call = self._clock.callLater(0, self.flush)

    def hold(self, connection: HeldWrites) -> None:
        """
        ``connection`` has writes waiting (told once, at its first, which it
        holds already): flushed now if it is the C{maxHeld}th to wait.
        """
        self._waiting.append(connection)
        if len(self._waiting) >= self.maxHeld:
            self.flush()

    def flush(self) -> None:
        """
        Commit now, then release every waiting connection; if a commit
        fails, nobody is told of what it held: those connections are
        closed, and the failure logged.
        """
        call, self._call = self._call, None
        if call is not None and call.active():
            call.cancel()
        commits, self._commits = self._commits, []
        failed = False
        for commit in commits:
            try:
                commit()
            except Exception:
                failed = True
                log.failure("the records of a turn could not be committed: nobody is told of them")
        waiting, self._waiting = self._waiting, []
        self.flushes += 1
        for connection in waiting:
            if failed:
                connection.discardWrites("the game records could not be written")
            else:
                connection.releaseWrites()
