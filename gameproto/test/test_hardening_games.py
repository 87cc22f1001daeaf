"""
Games that could run for ever: a hosted game whose last person leaves
ends; a game of bots alone is paced and aborted at the most actions a game
may have, its record kept; a restart replays no game past that; game
creation is limited per peer and in all.
"""

from __future__ import annotations

import random
from typing import Any

from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Instructions, Seat
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.record import GameRecord, MemoryRecordStore, RecordedAction
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import Table
from gameproto.web.api import API

from gameproto.test.hardening_helpers import LogCapture, call


class Person:
    """A guest of the hub: a person at a seat."""

    name = "alice"

    def __init__(self) -> None:
        self.updates: list[Instructions] = []
        self.aborts: list[str] = []

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        self.updates.append(instructions)

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        self.aborts.append(reason)


def hosted(hub: Hub, engine: str, bots: list[int], **init: Any) -> Table:
    made: list[Any] = []
    hub.newGame(engine, dict(init), bots).addCallback(made.append)
    (table,) = made
    assert isinstance(table, Table), table
    return table


class NoPersonLeftTests(SynchronousTestCase):
    """A game hosted by the hub ends when no seat is held by a person any more."""

    def test_lastPersonLeavesTarot(self) -> None:
        """
        Tarot's bots always play again: once the person leaves, the game
        ends all the same, when nobody has come back within the time of an
        action; meanwhile the bots play at their pace (the person left:
        dropped, the game would stand still, see below).
        """
        clock = Clock()
        hub = Hub(clock, MemoryRecordStore(), random.Random(5),
                  settings=HubSettings(timeout=60, botDelay=0.5))
        table = hosted(hub, "tarot", [2, 3, 4])
        self.assertIsNone(hub.join(table.id, Person()))
        clock.advance(1)
        self.assertFalse(table.finished)
        turns = table.turn
        hub.vacate(table, 0)
        clock.advance(59)
        self.assertFalse(table.finished)
        self.assertLessEqual(table.turn - turns, 59 / 0.5 + 1)
        self.assertGreater(table.turn, turns)
        clock.advance(1)
        self.assertTrue(table.finished)
        turns = table.turn
        clock.advance(3600)
        self.assertEqual(table.turn, turns)
        self.assertNotIn(table.id, hub.tables)
        record = hub.store.get(table.id)
        assert record is not None
        self.assertTrue(record.isFinished)
        self.assertEqual(clock.getDelayedCalls(), [])

    def test_personComesBack(self) -> None:
        """A person back in time (a dropped connection, a token): the game goes on."""
        clock = Clock()
        hub = Hub(clock, MemoryRecordStore(), random.Random(5),
                  settings=HubSettings(timeout=60))
        table = hosted(hub, "tarot", [2, 3, 4])
        self.assertIsNone(hub.join(table.id, Person()))
        hub.vacate(table, 0, dropped=True)
        clock.advance(30)
        turns = table.turn
        table.replace(0, hub.guestSeat(Person(), None))
        clock.advance(3600)
        self.assertFalse(table.finished)
        self.assertGreater(table.turn, turns)  # the bots play again, for the person

    def test_connect4OutlivesItsComeback(self) -> None:
        """
        Both players of a Connect Four game dropped: their bots do not play
        the game out before either could come back; back within the time, with
        the seat's token, a player finds the game where it was.
        """
        clock = Clock()
        hub = Hub(clock, MemoryRecordStore(), random.Random(5),
                  settings=HubSettings(timeout=300, botDelay=0.5))
        table = hosted(hub, "connect4", [])
        first, second = Person(), Person()
        self.assertIsNone(hub.join(table.id, first))
        self.assertIsNone(hub.join(table.id, second))
        token = hub.claim(table, 0)
        hub.vacate(table, 0, dropped=True)
        hub.vacate(table, 1, dropped=True)
        turns = table.turn
        clock.advance(299)
        self.assertEqual((table.turn, table.finished), (turns, False))
        back = Person()
        self.assertIsNone(hub.join(table.id, back, 1, token))
        self.assertIs(table.holders[0].guest, back)  # type: ignore[attr-defined]
        clock.advance(10)  # past the time: a person is back, the game goes on
        self.assertFalse(table.finished)
        self.assertIn(table.id, hub.tables)

    def test_anotherPersonStays(self) -> None:
        """While a person still sits at the game, a leaver's seat goes to the bot."""
        clock = Clock()
        hub = Hub(clock, MemoryRecordStore(), random.Random(5))
        table = hosted(hub, "tarot", [3, 4])
        self.assertIsNone(hub.join(table.id, Person()))
        self.assertIsNone(hub.join(table.id, Person()))
        hub.vacate(table, 0)
        self.assertFalse(table.finished)
        self.assertEqual(table.record.seats[0], "alice (bot)")


class BotGamesTests(SynchronousTestCase):
    """Bots alone, made on purpose through the API: paced, and capped in length."""

    def setUp(self) -> None:
        self.clock = Clock()
        self.store = MemoryRecordStore()
        self.hub = Hub(self.clock, self.store, random.Random(7),
                       settings=HubSettings(botDelay=0.5, maxActions=60))
        self.api = API(self.hub)

    def test_pacedAndCapped(self) -> None:
        code, made, _ = call(self.api, b"POST", "/api/games",
                             {"engine": "tarot", "bots": [1, 2, 3, 4]})
        self.assertEqual(code, 201, made)
        table = self.hub.findTable(made["id"])
        assert table is not None
        self.clock.advance(0)
        self.assertEqual(table.turn, 0)
        for _ in range(20):
            self.clock.advance(0.5)
        self.assertEqual(table.turn, 20)
        self.clock.advance(0.25)
        self.assertEqual(table.turn, 20)
        for _ in range(100):
            self.clock.advance(0.5)
        self.assertTrue(table.finished)
        record = self.store.get(made["id"])
        assert record is not None
        self.assertEqual(len(record.actions), 60)
        self.assertEqual(record.status, "aborted")
        self.assertIn("60 actions", record.error or "")
        code, shown, _ = call(self.api, b"GET", f"/api/games/{made['id']}/record")
        self.assertEqual((code, shown["turns"], shown["status"]), (200, 60, "aborted"))

    def test_humanGameNotPaced(self) -> None:
        """With a person at the game, the bot answers at once."""
        table = hosted(self.hub, "connect4", [2])
        self.assertIsNone(self.hub.join(table.id, Person()))
        bot = table.factory.bot(dict(table.engine.params))
        assert bot is not None
        table.playFor(0, bot)
        self.assertEqual(table.turn, 1)
        self.clock.advance(0)
        self.assertEqual(table.turn, 2)


class RestoreTests(SynchronousTestCase):
    """A restart replays no game past the most actions a game may have."""

    def longRecord(self, path: str, actions: int) -> int:
        """A Tarot game of four bots, ``actions`` long, left live in ``path``."""
        clock = Clock()
        store = SQLiteRecordStore(path)
        hub = Hub(clock, store, random.Random(3),
                  settings=HubSettings(botDelay=1.0, maxActions=10**6))
        table = hosted(hub, "tarot", [1, 2, 3, 4])
        for _ in range(actions):
            clock.advance(1)
        self.assertEqual(table.turn, actions)
        store.close()
        return table.id

    def test_tooLongNotReplayed(self) -> None:
        path = self.mktemp()
        gameId = self.longRecord(path, 300)
        log = LogCapture(self)
        started: list[str] = []
        hub = Hub(Clock(), SQLiteRecordStore(path), random.Random(1),
                  settings=HubSettings(maxActions=100))
        tarot = hub.registry.get("tarot")
        assert tarot is not None
        realStart = tarot.start

        def start(*args: Any, **kwargs: Any) -> Any:
            started.append("start")
            return realStart(*args, **kwargs)

        tarot.start = start  # type: ignore[method-assign]
        self.addCleanup(setattr, tarot, "start", realStart)
        restored: list[list[int]] = []
        hub.restore().addCallback(restored.append)
        self.assertEqual(restored, [[]])
        self.assertEqual(started, [])
        record = hub.store.get(gameId)
        assert record is not None
        self.assertEqual(record.status, "aborted")
        lines = [line for line in log.lines("gameproto") if f"game {gameId}" in line]
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("300 actions", lines[0])
        self.assertEqual(log.failures(), [])

    def test_atMostMaxGames(self) -> None:
        """Past the most games the hub may host, the others are marked aborted, not replayed."""
        store = MemoryRecordStore()
        hub = Hub(Clock(), store, random.Random(1))
        for _ in range(5):
            hosted(hub, "connect4", [])
        log = LogCapture(self)
        again = Hub(Clock(), store, random.Random(1), settings=HubSettings(maxGames=3))
        restored: list[list[int]] = []
        again.restore().addCallback(restored.append)
        self.assertEqual(restored, [[1, 2, 3]])
        self.assertEqual([store.records[n].status for n in (4, 5)], ["aborted", "aborted"])
        self.assertEqual(len([line for line in log.lines() if "not restored" in line]), 2)

    def test_restoredBotGamePaced(self) -> None:
        """A game of bots alone goes on after a restart, at its pace, until the cap."""
        path = self.mktemp()
        gameId = self.longRecord(path, 30)
        clock = Clock()
        clock.advance(10_000)
        hub = Hub(clock, SQLiteRecordStore(path), random.Random(1),
                  settings=HubSettings(botDelay=1.0, maxActions=40))
        restored: list[list[int]] = []
        hub.restore().addCallback(restored.append)
        self.assertEqual(restored, [[gameId]])
        table = hub.findTable(gameId)
        assert table is not None
        clock.advance(0)
        self.assertEqual(table.turn, 31)  # the last action was long ago
        clock.advance(0.5)
        self.assertEqual(table.turn, 31)
        clock.advance(0.5)
        self.assertEqual(table.turn, 32)
        for _ in range(20):
            clock.advance(1)
        self.assertTrue(table.finished)
        self.assertEqual(table.turn, 40)
        self.assertEqual(table.record.status, "aborted")


class CreationLimitsTests(SynchronousTestCase):
    """POST /api/games: per peer, a rate (429 and Retry-After) and a cap; a cap in all (503)."""

    def api(self, **settings: Any) -> tuple[Clock, Hub, API]:
        clock = Clock()
        hub = Hub(clock, MemoryRecordStore(), random.Random(2), settings=HubSettings(**settings))
        return clock, hub, API(hub)

    def test_rate(self) -> None:
        clock, hub, api = self.api(gamesPerMinute=3)
        log = LogCapture(self)
        for _ in range(3):
            code, answer, _ = call(api, b"POST", "/api/games", {"engine": "connect4"})
            self.assertEqual(code, 201, answer)
        code, answer, request = call(api, b"POST", "/api/games", {"engine": "connect4"})
        self.assertEqual(code, 429, answer)
        self.assertEqual(request.responseHeaders.getRawHeaders(b"retry-after"), [b"20"])
        code, answer, _ = call(api, b"POST", "/api/games", {"engine": "connect4"},
                               peer="127.0.0.2")
        self.assertEqual(code, 201, answer)
        clock.advance(20)
        code, answer, _ = call(api, b"POST", "/api/games", {"engine": "connect4"})
        self.assertEqual(code, 201, answer)
        self.assertEqual(len(hub.tables), 5)
        self.assertEqual(log.failures(), [])

    def test_openGamesPerPeer(self) -> None:
        clock, hub, api = self.api(maxGamesPerPeer=2)
        for _ in range(2):
            self.assertEqual(call(api, b"POST", "/api/games", {"engine": "connect4"})[0], 201)
        code, answer, request = call(api, b"POST", "/api/games", {"engine": "connect4"})
        self.assertEqual(code, 429, answer)
        self.assertIn("at once", answer["error"])
        self.assertEqual(request.responseHeaders.getRawHeaders(b"retry-after"), [b"60"])
        code, answer, _ = call(api, b"POST", "/api/games", {"engine": "connect4"},
                               peer="::1")
        self.assertEqual(code, 201, answer)
        # A game that ends frees its place.
        table = hub.findTable(1)
        assert table is not None
        table.abort("over")
        self.assertEqual(call(api, b"POST", "/api/games", {"engine": "connect4"})[0], 201)

    def test_openGamesInAll(self) -> None:
        clock, hub, api = self.api(maxGames=2)
        self.assertEqual(call(api, b"POST", "/api/games", {"engine": "connect4"})[0], 201)
        self.assertEqual(call(api, b"POST", "/api/games", {"engine": "connect4"},
                              peer="10.0.0.1")[0], 201)
        code, answer, request = call(api, b"POST", "/api/games", {"engine": "connect4"},
                                     peer="10.0.0.2")
        self.assertEqual(code, 503, answer)
        self.assertTrue(request.responseHeaders.getRawHeaders(b"retry-after"))
        made: list[Any] = []
        hub.newGame("connect4", {}).addCallback(made.append)
        self.assertIsInstance(made[0], str)

    def test_needsJSONContentType(self) -> None:
        """A cross-site form (text/plain) creates no game: 415."""
        clock, hub, api = self.api()
        for kind in (b"text/plain", b"application/x-www-form-urlencoded", None):
            code, answer, _ = call(api, b"POST", "/api/games", {"engine": "connect4"},
                                   contentType=kind)
            self.assertEqual(code, 415, (kind, answer))
        self.assertEqual(hub.tables, {})
        code, answer, _ = call(api, b"POST", "/api/games", {"engine": "connect4"},
                               contentType=b"Application/JSON; charset=utf-8")
        self.assertEqual(code, 201, answer)


class RecordPagingTests(SynchronousTestCase):
    """GET /api/games/ID/record?offset=&limit=: a page of the actions."""

    def test_paging(self) -> None:
        clock = Clock()
        store = MemoryRecordStore()
        hub = Hub(clock, store, random.Random(2))
        record = GameRecord(id=store.nextId(), engine="connect4", params={}, initvalues={},
                            seats=["a", "b"], started=0.0, finished=1.0, scores=[0, 0],
                            actions=[RecordedAction(n % 2, {"n": n}, float(n))
                                     for n in range(2500)])
        store.gameStarted(record)
        api = API(hub)
        code, page, _ = call(api, b"GET", f"/api/games/{record.id}/record")
        self.assertEqual(code, 200)
        self.assertEqual((page["offset"], page["limit"], page["turns"]), (0, 1000, 2500))
        self.assertEqual([a["action"]["n"] for a in page["actions"]], list(range(1000)))
        code, page, _ = call(api, b"GET", f"/api/games/{record.id}/record?offset=2400&limit=500")
        self.assertEqual([a["action"]["n"] for a in page["actions"]], list(range(2400, 2500)))
        self.assertEqual(page["limit"], 500)
        for query in ("limit=0", "limit=1001", "offset=-1", "offset=x"):
            code, answer, _ = call(api, b"GET", f"/api/games/{record.id}/record?{query}")
            self.assertEqual(code, 400, (query, answer))

    def test_replayBounded(self) -> None:
        """A stored game longer than the cap (from before it) is not replayed past it."""
        clock = Clock()
        store = MemoryRecordStore()
        hub = Hub(clock, store, random.Random(2), settings=HubSettings(maxActions=100))
        record = GameRecord(id=store.nextId(), engine="connect4", params={}, initvalues={},
                            seats=["a", "b"], started=0.0, finished=1.0, scores=[0, 0],
                            actions=[RecordedAction(n % 2, {"n": n}, float(n))
                                     for n in range(500)])
        store.gameStarted(record)
        api = API(hub)
        for query in ("", "?turn=101", "?turn=500"):
            code, answer, _ = call(api, b"GET", f"/api/games/{record.id}/replay{query}")
            self.assertEqual(code, 400, (query, answer))
            self.assertIn("at most 100", answer["error"])
