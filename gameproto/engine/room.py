"""
A room: a table formed by arrival.

Holders of any protocol take places as they come, say when they are ready,
and the room starts a L{Table} of its engine once every member is ready and
there are enough of them (at most ``maxSeats``: a full room starts as soon as
its members are ready).  If players are missing ``botsAfter`` seconds after
the first one came, bots fill the room up to ``minSeats``.  A member who
leaves before the start frees the place; after the start, a bot takes the
seat and the leaver may reclaim it by name while the table lives.  When the
last human leaves, the table ends.

This module names no protocol and no game: the room's owner (a protocol's
server) makes its bots, hears when its tables start and end, and may settle
a departure by its own rules first.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Generic, Mapping, Protocol, Sequence, TypeVar

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from gameproto.engine.clock import Deadline
from gameproto.engine.contract import JSON, EngineFactory, Seat
from gameproto.engine.record import RecordStore
from gameproto.engine.table import SeatHolder, Table

if TYPE_CHECKING:
    from gameproto.engine.hub import Guest

log = Logger(namespace="gameproto.room")


class RoomOwner(Protocol):
    """The protocol side of a room: its bots, its tables' start and end, its rules."""

    def newBot(self, room: Room, place: int) -> SeatHolder:
        """A bot for ``place`` (empty when the wait is over, or vacated)."""

    def started(self, room: Room, table: Table) -> None:
        """``room`` started ``table`` (its first update is about to be sent)."""

    def ended(self, room: Room, table: Table) -> None:
        """``table`` of ``room`` is finished."""

    def leaving(self, room: Room, table: Table, seat: Seat) -> bool:
        """
        The holder of ``seat`` leaves the started ``table``: True when the
        game's own rules settle the departure (the seat stays as it is),
        False to let the room give the seat to a bot.
        """


class Room:
    """
    The places of one table to be, then its seats once it plays.

    Places are numbered 0..maxSeats-1 in order of arrival (the first free
    place); the table's seats are the taken places in that order, so a full
    room's places are its seats.
    """

    def __init__(
        self,
        owner: RoomOwner,
        factory: EngineFactory,
        clock: IReactorTime,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        minSeats: int,
        maxSeats: int,
        botsAfter: float,
        params: Mapping[str, JSON] | None = None,
        playersParam: str | None = None,
    ) -> None:
        """
        A room of ``minSeats``..``maxSeats`` places for games of ``factory``
        with ``params``; ``playersParam`` names the parameter that gets the
        number of seats when the table starts (for engines of several sizes).
        """
        if not 1 <= minSeats <= maxSeats:
            raise ValueError(f"a room needs 1 <= minSeats <= maxSeats, got {minSeats}..{maxSeats}")
        self.owner = owner
        self.factory = factory
        self.clock = clock
        self.store = store
        self.rng = rng
        self.minSeats = minSeats
        self.maxSeats = maxSeats
        self.botsAfter = botsAfter
        self.params: dict[str, JSON] = dict(params or {})
        self.playersParam = playersParam
        self.places: list[SeatHolder | None] = [None] * maxSeats
        self.ready: set[int] = set()
        self.table: Table | None = None
        self.vacated: dict[Seat, str] = {}
        """Seats a bot holds since their player left, by the name that may reclaim them."""
        self.waitOver = False
        self._bots: list[SeatHolder] = []
        self._botTimer = Deadline(clock)

    # -- before the start ------------------------------------------------------

    @property
    def open(self) -> bool:
        """Whether a newcomer can take a place."""
        return self.table is None and None in self.places

    @property
    def waitingForBots(self) -> bool:
        """Whether the wait for players is counting."""
        return self._botTimer.active

    def names(self, default: str = "") -> list[str]:
        """The holders' names, by place before the start and by seat after it."""
        holders: Sequence[SeatHolder | None] = (
            self.table.holders if self.table is not None else self.places)
        return [h.name if h is not None else default for h in holders]

    def isBot(self, holder: object) -> bool:
        """Whether ``holder`` is one of the bots this room made."""
        return any(holder is bot for bot in self._bots)

    def takePlace(self, holder: SeatHolder) -> int:
        """``holder`` takes the first free place (the room must be L{open})."""
        if not self.open:
            raise ValueError("this room has no free place")
        place = self.places.index(None)
        self.places[place] = holder
        if not self._botTimer.active and not self.waitOver:
            self._botTimer.start(self.botsAfter, self._waitEnded)
        return place

    def placeOf(self, holder: object) -> int | None:
        """The place ``holder`` took, if it holds one."""
        for place, member in enumerate(self.places):
            if member is holder:
                return place
        return None

    def markReady(self, holder: SeatHolder) -> None:
        """``holder`` is ready to play (identified, or said so): start if everyone is."""
        place = self.placeOf(holder)
        if place is None or self.table is not None:
            return
        self.ready.add(place)
        self._startIfReady()

    def _waitEnded(self) -> None:
        self.waitOver = True
        self._fillWithBots()

    def _fillWithBots(self) -> None:
        for place, holder in enumerate(self.places):
            if sum(h is not None for h in self.places) >= self.minSeats:
                break
            if holder is None:
                bot = self.owner.newBot(self, place)
                self._bots.append(bot)
                self.places[place] = bot
                self.ready.add(place)
        self._startIfReady()

    def _startIfReady(self) -> None:
        members = {p for p, h in enumerate(self.places) if h is not None}
        if self.table is not None or len(members) < self.minSeats or not members <= self.ready:
            return
        self._botTimer.cancel()
        holders = [h for h in self.places if h is not None]
        params = dict(self.params)
        if self.playersParam is not None:
            params[self.playersParam] = len(holders)
        table = Table.create(self.factory, params, holders, self.clock, self.store, self.rng)
        self.table = table
        self.owner.started(self, table)
        table.whenFinished().addCallback(lambda record: self.owner.ended(self, table))
        table.start()

    # -- leaving, before or after the start ------------------------------------

    def leave(self, holder: object, name: str | None = None) -> None:
        """
        ``holder`` is gone.  Before the start its place is free again; after
        it, its seat goes to a bot, reclaimable by ``name`` (None: not at all).
        """
        if self.table is None:
            place = self.placeOf(holder)
            if place is None:
                return
            self.places[place] = None
            self.ready.discard(place)
            if all(h is None or self.isBot(h) for h in self.places):
                self._reset()
            elif self.waitOver:
                self._fillWithBots()  # the wait is over: a bot takes the freed place
            else:
                self._startIfReady()  # the one member not ready may have been the one gone
            return
        for seat, member in enumerate(self.table.holders):
            if member is holder:
                self.vacate(seat, name)
                return

    def _reset(self) -> None:
        """Nobody is left waiting: the room is empty again."""
        self._botTimer.cancel()
        self.places = [None] * self.maxSeats
        self.ready.clear()
        self._bots.clear()
        self.waitOver = False

    def vacate(self, seat: Seat, name: str | None = None) -> None:
        """
        The holder of ``seat`` left the started table: unless the owner's
        rules settle it, a bot takes the seat (reclaimable by ``name``), and
        the table ends when no human is left.
        """
        table = self.table
        if table is None or table.finished or table.suspended or self.isBot(table.holders[seat]):
            return
        if self.owner.leaving(self, table, seat):
            return
        if name is not None:
            self.vacated[seat] = name
        bot = self.owner.newBot(self, seat)
        self._bots.append(bot)
        table.replace(seat, bot)
        if all(self.isBot(h) for h in table.holders):
            log.info("game {id}: no player left, the table ends", id=table.id)
            table.resign(seat)
            if not table.finished:
                # A resignation that leaves the others playing (Carcassonne):
                # bots alone never play a game out for nobody.
                table.abort("no player left")

    # -- reclaiming ------------------------------------------------------------

    def vacatedSeat(self, name: str) -> Seat | None:
        """The seat ``name`` left to a bot, if this room's table still plays."""
        if self.table is None or self.table.finished:
            return None
        for seat, left in self.vacated.items():
            if left == name:
                return seat
        return None

    def reclaim(self, seat: Seat, holder: SeatHolder) -> None:
        """``holder`` takes back the vacated ``seat`` (its update follows at once)."""
        assert self.table is not None
        del self.vacated[seat]
        self.table.replace(seat, holder)


RoomT = TypeVar("RoomT", bound=Room)
GuestSeatT = TypeVar("GuestSeatT", bound=SeatHolder)


class RoomMatchmaker(Generic[RoomT, GuestSeatT]):
    """
    A protocol's rooms open to a guest of any protocol (a hub L{Matchmaker}):
    the guest takes a ready place in the waiting room, behind the seat the
    protocol makes for it (L{seatFor}), and may leave until the room starts.
    """

    engine: str
    title: str

    def __init__(self) -> None:
        self.queued: list[tuple[Guest, RoomT, GuestSeatT]] = []

    def seatFor(self, guest: Guest) -> GuestSeatT:
        """The seat ``guest`` sits behind: the protocol's rules for its time."""
        raise NotImplementedError

    def waitingRoom(self) -> RoomT:
        """The room new players sit in."""
        raise NotImplementedError

    def placed(self, room: RoomT, seat: GuestSeatT, place: int) -> None:
        """``seat`` took ``place`` in ``room`` (before it is marked ready)."""

    def openRoom(self) -> RoomT | None:
        """The room newcomers sit in, if one is open now (None: the next opens one)."""
        raise NotImplementedError

    def waiting(self) -> list[str]:
        """The names at the open room's places, bots left out, in order of place."""
        room = self.openRoom()
        if room is None or not room.open:
            return []
        return [holder.name for holder in room.places
                if holder is not None and not room.isBot(holder)]

    def enqueue(self, guest: Guest) -> str | None:
        seat = self.seatFor(guest)
        room = self.waitingRoom()
        place = room.takePlace(seat)
        self.queued.append((guest, room, seat))
        self.placed(room, seat, place)
        room.markReady(seat)
        return None

    def dequeue(self, guest: Guest) -> None:
        for entry in list(self.queued):
            if entry[0] is guest:
                self.queued.remove(entry)
                if entry[1].table is None:
                    entry[1].leave(entry[2])

    def started(self, room: Room) -> None:
        """``room`` plays: its guests wait no more."""
        self.queued = [entry for entry in self.queued if entry[1] is not room]
