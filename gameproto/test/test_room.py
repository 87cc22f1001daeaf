"""
The Room: places by arrival, the start when every member is ready (or the
room is full), bots after the wait, leaving before and after the start,
reclaim by name, and the end when no human is left; time on a Clock.
"""

from __future__ import annotations

import random
from typing import Mapping

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import JSON, Errors, GameState, Instructions, Seat
from gameproto.engine.record import MemoryRecordStore
from gameproto.engine.room import Room
from gameproto.engine.table import SeatHolder, Table

from .engine_helpers import Holder


@attrs.define
class CountingGame:
    """A game of any number of seats that waits for nothing but a resignation."""

    players: int
    params: dict[str, JSON]
    initvalues: dict[str, JSON] = attrs.Factory(dict)
    over: bool = False

    def instructions(self) -> Instructions:
        return Instructions((), GameState((0,) * self.players, self.over))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        return self.instructions()

    def resign(self, seat: Seat) -> Instructions:
        self.over = True
        return self.instructions()

    def view(self, seat: Seat) -> None:
        return None


class CountingFactory:
    """Starts a L{CountingGame} of ``params["players"]`` seats (2 by default)."""

    name = "counting"
    parameters = ()

    def __init__(self) -> None:
        self.started: list[dict[str, JSON]] = []

    def start(self, params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
              rng: random.Random | None = None) -> CountingGame:
        self.started.append(dict(params))
        players = params.get("players", 2)
        assert isinstance(players, int)
        return CountingGame(players, dict(params))

    def bot(self, params: Mapping[str, JSON]) -> None:
        return None


class Owner:
    """A room owner that records what the room tells it."""

    def __init__(self, settle: bool = False) -> None:
        self.settle = settle
        self.bots: list[tuple[int, Holder]] = []
        self.startedTables: list[Table] = []
        self.endedTables: list[Table] = []
        self.departures: list[Seat] = []

    def newBot(self, room: Room, place: int) -> SeatHolder:
        bot = Holder(f"bot{place + 1}")
        self.bots.append((place, bot))
        return bot

    def started(self, room: Room, table: Table) -> None:
        self.startedTables.append(table)

    def ended(self, room: Room, table: Table) -> None:
        self.endedTables.append(table)

    def leaving(self, room: Room, table: Table, seat: Seat) -> bool:
        self.departures.append(seat)
        return self.settle


class RoomTests(SynchronousTestCase):
    def makeRoom(self, minSeats: int = 2, maxSeats: int = 2, botsAfter: float = 30.0,
                 owner: Owner | None = None) -> Room:
        self.clock = Clock()
        self.owner = owner or Owner()
        self.factory = CountingFactory()
        return Room(self.owner, self.factory,  # type: ignore[arg-type]  # a test double
                    self.clock, MemoryRecordStore(), random.Random(0), minSeats=minSeats, maxSeats=maxSeats, botsAfter=botsAfter,
                    playersParam="players")

    def test_sizes(self) -> None:
        """A room needs 1 <= minSeats <= maxSeats."""
        self.assertRaises(ValueError, self.makeRoom, 3, 2)
        self.assertRaises(ValueError, self.makeRoom, 0, 2)

    def test_placesInOrder(self) -> None:
        """Newcomers take the first free places; a full room takes nobody."""
        room = self.makeRoom(2, 3)
        a, b, c = Holder("a"), Holder("b"), Holder("c")
        self.assertEqual([room.takePlace(a), room.takePlace(b)], [0, 1])
        self.assertTrue(room.open)
        self.assertEqual(room.takePlace(c), 2)
        self.assertFalse(room.open)
        self.assertRaises(ValueError, room.takePlace, Holder("d"))
        self.assertEqual(room.names(), ["a", "b", "c"])
        self.assertEqual(room.placeOf(b), 1)
        self.assertIsNone(room.placeOf(Holder("b")))

    def test_startsWhenEveryMemberIsReady(self) -> None:
        """A full room starts once its last member is ready, seats in place order."""
        room = self.makeRoom()
        a, b = Holder("a"), Holder("b")
        room.takePlace(a)
        room.takePlace(b)
        room.markReady(b)
        self.assertIsNone(room.table)
        room.markReady(a)
        table = room.table
        assert table is not None
        self.assertEqual(self.owner.startedTables, [table])
        self.assertEqual(table.holders, [a, b])
        self.assertEqual(a.updates[0][0], 0)  # the first update was sent
        self.assertFalse(room.open)
        self.assertEqual(self.clock.getDelayedCalls(), [])  # the wait is cancelled

    def test_notBelowTheMinimum(self) -> None:
        """Ready members below minSeats wait; at minSeats they start, seats by count."""
        room = self.makeRoom(2, 4)
        a, b = Holder("a"), Holder("b")
        room.takePlace(a)
        room.markReady(a)
        self.assertIsNone(room.table)
        room.takePlace(b)
        room.markReady(b)
        assert room.table is not None
        self.assertEqual(room.table.holders, [a, b])
        self.assertEqual(self.factory.started, [{"players": 2}])

    def test_readyOutsiderIgnored(self) -> None:
        """markReady of a holder without a place changes nothing."""
        room = self.makeRoom()
        room.markReady(Holder("x"))
        self.assertEqual(room.ready, set())

    def test_botsAfterTheWait(self) -> None:
        """The wait counts from the first arrival; then bots fill up to minSeats and it starts."""
        room = self.makeRoom(3, 4, botsAfter=30)
        a = Holder("a")
        room.takePlace(a)
        room.markReady(a)
        self.clock.advance(20)
        b = Holder("b")
        room.takePlace(b)  # does not start the wait again
        room.markReady(b)
        self.assertTrue(room.waitingForBots)
        self.clock.advance(10)
        self.assertTrue(room.waitOver)
        assert room.table is not None
        self.assertEqual([place for place, _ in self.owner.bots], [2])
        self.assertEqual(room.table.holders, [a, b, self.owner.bots[0][1]])
        self.assertEqual(room.names(), ["a", "b", "bot3"])
        self.assertTrue(room.isBot(room.table.holders[2]))
        self.assertFalse(room.isBot(a))

    def test_botsWaitForAnUnreadyMember(self) -> None:
        """Bots fill the room at the end of the wait, but a member still not ready holds it."""
        room = self.makeRoom(2, 2, botsAfter=5)
        a = Holder("a")
        room.takePlace(a)
        self.clock.advance(5)
        self.assertIsNone(room.table)
        self.assertEqual(len(self.owner.bots), 1)
        room.markReady(a)
        self.assertIsNotNone(room.table)

    def test_botsAtOnce(self) -> None:
        """botsAfter 0: the wait ends as soon as the clock turns."""
        room = self.makeRoom(2, 2, botsAfter=0)
        a = Holder("a")
        room.takePlace(a)
        room.markReady(a)
        self.clock.advance(0)
        self.assertIsNotNone(room.table)

    def test_leaveBeforeTheStart(self) -> None:
        """A member who leaves frees the place for the next newcomer."""
        room = self.makeRoom(3, 3)
        a, b, c = Holder("a"), Holder("b"), Holder("c")
        room.takePlace(a)
        room.takePlace(b)
        room.markReady(b)
        room.leave(b)
        self.assertEqual(room.places, [a, None, None])
        self.assertEqual(room.ready, set())
        self.assertEqual(room.takePlace(c), 1)
        room.leave(Holder("stranger"))  # not a member: nothing
        self.assertEqual(room.places, [a, c, None])

    def test_lastLeaverEmptiesTheRoom(self) -> None:
        """When nobody but bots is left before the start, the room is empty and waits no more."""
        room = self.makeRoom(3, 3, botsAfter=10)
        a, b = Holder("a"), Holder("b")
        room.takePlace(a)
        room.takePlace(b)
        self.clock.advance(10)  # a bot came; a and b are not ready
        self.assertEqual(len(self.owner.bots), 1)
        room.leave(a)
        room.leave(b)
        self.assertEqual(room.places, [None, None, None])
        self.assertFalse(room.waitOver)
        self.assertFalse(room.waitingForBots)
        self.assertEqual(self.clock.getDelayedCalls(), [])
        c = Holder("c")
        room.takePlace(c)  # a new wait
        self.assertTrue(room.waitingForBots)

    def test_leaveAfterTheWaitGivesTheBotThePlace(self) -> None:
        """Once the wait is over, a place freed before the start goes to a bot at once."""
        room = self.makeRoom(3, 3, botsAfter=10)
        a, b = Holder("a"), Holder("b")
        room.takePlace(a)
        room.takePlace(b)
        room.markReady(a)
        self.clock.advance(10)
        room.leave(b)
        table = room.table
        assert table is not None
        self.assertEqual([place for place, _ in self.owner.bots], [2, 1])
        self.assertEqual(table.holders[0], a)

    def startedRoom(self, owner: Owner | None = None) -> tuple[Room, Table, Holder, Holder]:
        room = self.makeRoom(2, 2, owner=owner)
        a, b = Holder("a"), Holder("b")
        for holder in (a, b):
            room.takePlace(holder)
            room.markReady(holder)
        assert room.table is not None
        return room, room.table, a, b

    def test_vacatedSeatGoesToABot(self) -> None:
        """After the start, a leaver's seat goes to a bot, reclaimable by name."""
        room, table, a, b = self.startedRoom()
        room.leave(b, "bob")
        bot = table.holders[1]
        self.assertTrue(room.isBot(bot))
        self.assertEqual(self.owner.departures, [1])
        self.assertEqual(room.vacated, {1: "bob"})
        self.assertEqual(room.vacatedSeat("bob"), 1)
        self.assertIsNone(room.vacatedSeat("alice"))
        self.assertFalse(table.finished)
        back = Holder("bob")
        room.reclaim(1, back)
        self.assertIs(table.holders[1], back)
        self.assertEqual(room.vacated, {})
        self.assertEqual(back.updates[0][0], 1)  # told where the game stands at once

    def test_vacateWithoutName(self) -> None:
        """A leaver without a name cannot come back; a bot's seat is not vacated again."""
        room, table, a, b = self.startedRoom()
        room.vacate(1)
        self.assertEqual(room.vacated, {})
        bots = len(self.owner.bots)
        room.vacate(1, "again")
        self.assertEqual(len(self.owner.bots), bots)
        self.assertEqual(room.vacated, {})

    def test_ownerSettlesTheDeparture(self) -> None:
        """When the owner's rules settle a departure, the seat stays as it is."""
        room, table, a, b = self.startedRoom(Owner(settle=True))
        room.leave(b, "bob")
        self.assertIs(table.holders[1], b)
        self.assertEqual(room.vacated, {})

    def test_lastHumanEndsTheTable(self) -> None:
        """When no human is left, the table ends and the owner hears of it."""
        room, table, a, b = self.startedRoom()
        room.leave(a, "alice")
        self.assertFalse(table.finished)
        room.leave(b, "bob")
        self.assertTrue(table.finished)
        self.assertEqual(self.owner.endedTables, [table])
        self.assertIsNone(room.vacatedSeat("alice"))  # a finished table gives nothing back
        room.leave(a)  # nothing more happens
        self.assertEqual(self.owner.departures, [0, 1])


OPERATIONS = st.lists(st.tuples(st.sampled_from(["take", "ready", "leave", "wait"]),
                                st.integers(0, 5)), max_size=30)


class LeavingStartsTests(SynchronousTestCase):
    def test_theOneNotReadyLeaves(self) -> None:
        """
        Members all ready but one, who leaves before the start: the room
        starts with those left, if they are enough (found by the property below).
        """
        owner = Owner()
        room = Room(owner, CountingFactory(), Clock(),  # type: ignore[arg-type]  # a test double
                    MemoryRecordStore(), random.Random(0), minSeats=2, maxSeats=3,
                    botsAfter=10, playersParam="players")
        a, b, c = Holder("a"), Holder("b"), Holder("c")
        for holder in (a, b, c):
            room.takePlace(holder)
        room.markReady(a)
        room.markReady(b)
        self.assertIsNone(room.table)
        room.leave(c, "c")
        assert room.table is not None
        self.assertEqual(owner.startedTables, [room.table])
        self.assertEqual(room.table.holders, [a, b])


class RoomPropertyTests(SynchronousTestCase):
    @settings(max_examples=200, deadline=None)
    @given(sizes=st.tuples(st.integers(1, 4), st.integers(0, 2)), operations=OPERATIONS)
    def test_startsExactlyWhenReady(self, sizes: tuple[int, int],
                                    operations: list[tuple[str, int]]) -> None:
        """
        Whatever arrives, gets ready, leaves or waits: the room starts once,
        at the first moment it has minSeats members or more, all ready; the
        wait counts only while a human waits.
        """
        minSeats, extra = sizes
        clock = Clock()
        owner = Owner()
        room = Room(owner, CountingFactory(), clock,  # type: ignore[arg-type]  # a test double
                    MemoryRecordStore(), random.Random(0), minSeats=minSeats,
                    maxSeats=minSeats + extra, botsAfter=10, playersParam="players")
        holders = [Holder(f"h{i}") for i in range(6)]
        for operation, index in operations:
            holder = holders[index]
            if operation == "take" and room.open and room.placeOf(holder) is None:
                room.takePlace(holder)
            elif operation == "ready":
                room.markReady(holder)
            elif operation == "leave":
                room.leave(holder, holder.name)
            elif operation == "wait":
                clock.advance(5)
            members = {p for p, h in enumerate(room.places) if h is not None}
            if room.table is None:
                self.assertFalse(len(members) >= minSeats and members <= room.ready)
                humans = [h for h in room.places if h is not None and not room.isBot(h)]
                self.assertEqual(room.waitingForBots, bool(humans) and not room.waitOver)
                if not humans:
                    self.assertEqual(room.places, [None] * room.maxSeats)
            else:
                self.assertEqual(owner.startedTables, [room.table])
                self.assertEqual(len(room.table.holders), len(members))
        self.assertLessEqual(len(owner.startedTables), 1)
