"""
Commits batched per reactor turn: the writes of a turn share one commit,
right after the turn, and nothing the connections write in that turn is
sent before it; a connection closing, or a commit failing, keeps to it.
"""

from __future__ import annotations

import json
import random
import sqlite3
from typing import Any

from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SynchronousTestCase
from zope.interface import directlyProvides

from gameproto import tap
from gameproto.engine.hub import Hub
from gameproto.engine.outbox import Outbox
from gameproto.engine.store import SQLiteRecordStore
from gameproto.enginejson.protocol import EngineJsonServerProtocol
from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory
from gameproto.net import IMessageTransport

from gameproto.test.hardening_helpers import LogCapture


class _FailingCommit:
    """A store's database whose next COMMIT fails (as a full disk would), then its own again."""

    def __init__(self, store: SQLiteRecordStore) -> None:
        self._store = store
        self._db = store._db

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            self._store._db = self._db
            raise sqlite3.OperationalError("disk I/O error")
        return self._db.execute(sql, *args)


class Player:
    """An engine JSON connection on a StringTransport; the clock is advanced by the test."""

    def __init__(self, factory: EngineJsonServerFactory) -> None:
        protocol = factory.buildProtocol(None)
        assert isinstance(protocol, EngineJsonServerProtocol)
        self.protocol = protocol
        self.transport = StringTransport()
        protocol.makeConnection(self.transport)
        self.log: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.protocol.dataReceived(json.dumps(message).encode() + b"\n")

    def received(self) -> list[dict[str, Any]]:
        messages = [json.loads(line) for line in self.transport.value().splitlines()]
        self.transport.clear()
        self.log += messages
        return messages

    def last(self, kind: str) -> dict[str, Any]:
        self.received()
        return [m for m in self.log if m["type"] == kind][-1]

    def click(self) -> None:
        """Click the middle of the first zone the last instructions request."""
        (request,) = self.last("instructions")["requested_actions"]
        zone = request["zones"][0]
        self.send({"type": "action", "action": {
            "type": "CLICK", "x": zone["x"] + zone["width"] / 2,
            "y": zone["y"] + zone["height"] / 2, "button": "LEFT"}})


class Setup:
    """A hub batching its commits over a SQLite file, and an engine JSON server on it."""

    def __init__(self, case: SynchronousTestCase, batch: bool = True) -> None:
        self.path = case.mktemp()
        self.clock = Clock()
        self.store = SQLiteRecordStore(self.path)
        self.hub = Hub(self.clock, self.store, random.Random(3), batchCommits=batch)
        self.factory = EngineJsonServerFactory(EngineJsonServer(hub=self.hub))
        case.addCleanup(self.store.close)

    def game(self) -> tuple[Player, Player, int]:
        """Two players seated at a new Connect Four game, everything so far sent."""
        alice, bob = Player(self.factory), Player(self.factory)
        alice.send({"type": "create", "engine": "connect4", "init": {}, "bots": []})
        self.clock.advance(0)
        game = alice.last("created")["game"]
        bob.send({"type": "join", "game": game})
        self.clock.advance(0)
        alice.received()
        bob.received()
        return alice, bob, game

    def committedActions(self, game: int) -> int:
        """The actions of ``game`` another process would read in the file now."""
        other = sqlite3.connect(self.path)
        try:
            (count,) = other.execute(
                "SELECT COUNT(*) FROM actions WHERE game = ?", (game,)).fetchone()
        finally:
            other.close()
        return int(count)


class BatchedCommitTests(SynchronousTestCase):
    """What a turn writes is committed right after it, and told only then."""

    def test_toldOnlyOnceCommitted(self) -> None:
        """
        An accepted action is in no message until the turn's commit; once a
        player has the message, the action is in the file for any other
        reader (a server killed then would lose nothing told).
        """
        setup = Setup(self)
        alice, bob, game = setup.game()
        alice.click()
        self.assertEqual(alice.transport.value(), b"")
        self.assertEqual(bob.transport.value(), b"")
        self.assertEqual(setup.committedActions(game), 0)
        setup.clock.advance(0)
        self.assertEqual(bob.last("instructions")["turn"], 1)
        self.assertEqual(alice.last("instructions")["turn"], 1)
        self.assertEqual(setup.committedActions(game), 1)

    def test_oneCommitPerTurn(self) -> None:
        """Actions of three games in one turn: one commit for all, each message after it."""
        setup = Setup(self)
        games = [setup.game() for _ in range(3)]
        flushes = setup.hub.outbox.flushes
        for alice, _, _ in games:
            alice.click()
        for alice, bob, game in games:
            self.assertEqual((alice.transport.value(), bob.transport.value()), (b"", b""))
            self.assertEqual(setup.committedActions(game), 0)
        setup.clock.advance(0)
        self.assertEqual(setup.hub.outbox.flushes, flushes + 1)
        self.assertEqual(setup.hub.metrics.registry.get_sample_value(
            "gameproto_store_write_seconds_count", {"operation": "commit"}),
            # the games' creations and seats, in the turns before, and this one
            setup.hub.outbox.flushes)
        for alice, bob, game in games:
            self.assertEqual(setup.committedActions(game), 1)
            self.assertEqual(bob.last("instructions")["turn"], 1)

    def test_atMostMaxHeldWait(self) -> None:
        """
        Once C{maxHeld} connections wait for a turn's commit, the turn's
        writes so far are committed and sent at once (the last one's
        included); what the rest of the turn writes waits for another commit.
        """
        setup = Setup(self)
        games = [setup.game() for _ in range(3)]
        setup.hub.outbox.maxHeld = 3
        flushes = setup.hub.outbox.flushes
        (alice1, bob1, game1), (alice2, bob2, game2), (alice3, bob3, game3) = games
        alice1.click()  # alice1 and bob1 wait
        self.assertEqual((alice1.transport.value(), bob1.transport.value()), (b"", b""))
        self.assertEqual(setup.committedActions(game1), 0)
        alice2.click()  # the third to wait: the commit, then all sent
        self.assertEqual(setup.hub.outbox.flushes, flushes + 1)
        self.assertEqual((setup.committedActions(game1), setup.committedActions(game2)), (1, 1))
        for player in (alice1, bob1, alice2, bob2):
            self.assertEqual(player.last("instructions")["turn"], 1)
        alice3.click()  # the same turn goes on: waiting again
        self.assertEqual((alice3.transport.value(), bob3.transport.value()), (b"", b""))
        self.assertEqual(setup.committedActions(game3), 0)
        setup.clock.advance(0)
        self.assertEqual(setup.hub.outbox.flushes, flushes + 2)
        self.assertEqual(setup.committedActions(game3), 1)
        self.assertEqual(bob3.last("instructions")["turn"], 1)

    def test_maxHeldAtLeastOne(self) -> None:
        """An outbox where no connection could wait is refused."""
        with self.assertRaises(ValueError):
            Outbox(Clock(), maxHeld=0)
        self.assertEqual(Outbox(Clock()).maxHeld, 64)

    def test_aTurnsMessagesInOneWrite(self) -> None:
        """What a connection is sent in one turn leaves in one write, in order."""
        setup = Setup(self)
        alice, bob, game = setup.game()
        writes: list[bytes] = []
        bob.transport.write = writes.append  # type: ignore[method-assign]
        alice.click()
        bob.send({"type": "leave"})  # in the same turn: a bot takes the seat
        setup.hub.outbox.flush()  # the turn's end (the bot plays on a later one)
        self.assertEqual(len(writes), 1)
        kinds = [json.loads(line)["type"] for line in writes[0].splitlines()]
        self.assertEqual(kinds, ["instructions", "left"])
        self.assertEqual(setup.committedActions(game), 1)

    def test_messagesStayMessages(self) -> None:
        """
        On a transport whose every write is a message (a WebSocket's), what
        waited for the commit goes out as the messages it was, in order.
        """
        setup = Setup(self)
        alice, bob, game = setup.game()
        writes: list[bytes] = []
        directlyProvides(bob.transport, IMessageTransport)
        bob.transport.write = writes.append  # type: ignore[method-assign]
        alice.click()
        bob.send({"type": "leave"})
        setup.hub.outbox.flush()
        self.assertEqual([json.loads(w)["type"] for w in writes], ["instructions", "left"])

    def test_closingSendsAfterTheCommit(self) -> None:
        """A connection closed while its writes wait: the commit, then them, then the close."""
        setup = Setup(self)
        alice, bob, game = setup.game()
        alice.click()
        bob.protocol.dropConnection("going")
        self.assertEqual(setup.committedActions(game), 1)
        self.assertEqual(bob.last("instructions")["turn"], 1)
        self.assertTrue(bob.transport.disconnecting)

    def test_failedCommitTellsNobody(self) -> None:
        """A commit that fails: nothing of the turn is sent, its connections are closed, logged."""
        setup = Setup(self)
        alice, bob, game = setup.game()
        capture = LogCapture(self)

        setup.store._db = _FailingCommit(setup.store)  # type: ignore[assignment]
        alice.click()
        setup.clock.advance(0)
        self.assertEqual((alice.transport.value(), bob.transport.value()), (b"", b""))
        self.assertTrue(bob.transport.disconnecting)
        self.assertTrue(alice.transport.disconnecting)
        self.assertEqual(setup.committedActions(game), 0)
        self.assertTrue(any("could not be committed" in line
                            for line in capture.lines("gameproto.store")))
        self.flushLoggedErrors(sqlite3.OperationalError)
        # What the failed commit held is dropped: not written by a later commit.
        setup.store.commit()
        setup.store.close()
        self.assertEqual(setup.committedActions(game), 0)

    def test_withoutBatchingEachWriteCommits(self) -> None:
        """A hub that does not batch: the action is committed and told at once."""
        setup = Setup(self, batch=False)
        alice, bob, game = setup.game()
        alice.click()
        self.assertEqual(setup.committedActions(game), 1)
        self.assertEqual(bob.last("instructions")["turn"], 1)

    def test_readsCommitFirst(self) -> None:
        """
        Reading a game or the listing from the store (as the HTTP API does,
        whose answers the outbox does not hold) commits what the turn wrote.
        """
        for read in ("get", "games"):
            setup = Setup(self)
            alice, bob, game = setup.game()
            alice.click()
            self.assertEqual(setup.committedActions(game), 0)
            if read == "get":
                record = setup.store.get(game)
                assert record is not None
                self.assertEqual(len(record.actions), 1)
            else:
                setup.store.games()
            self.assertEqual(setup.committedActions(game), 1)

    def test_closeCommits(self) -> None:
        """Closing the store commits what a turn wrote."""
        setup = Setup(self)
        alice, bob, game = setup.game()
        alice.click()
        setup.store.close()
        self.assertEqual(setup.committedActions(game), 1)

    def test_theServerBatches(self) -> None:
        """The hub twistd gameproto runs batches its store's commits in its outbox."""
        options = tap.Options()
        options.parseOptions(["--db", self.mktemp()])
        hub = tap.makeHub(options, Clock())
        self.addCleanup(hub.store.close)
        assert isinstance(hub.store, SQLiteRecordStore)
        self.assertIs(hub.store._outbox, hub.outbox)
        self.assertIsInstance(hub.outbox, Outbox)

    def test_notInMemory(self) -> None:
        """A database in memory (nothing made durable by a commit): each write commits at once."""
        options = tap.Options()
        options.parseOptions(["--db", ":memory:"])
        hub = tap.makeHub(options, Clock())
        self.addCleanup(hub.store.close)
        assert isinstance(hub.store, SQLiteRecordStore)
        self.assertIsNone(hub.store._outbox)
