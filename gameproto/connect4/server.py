"""
Protuissance 4 on the shared engine layer: the server state (settings, nicks,
matchmaking), one player per connection, the matchmaker that seats guests of
any protocol in the same queue, and the factory.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Hashable, Protocol, Sequence

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from gameproto.connect4 import wire
from gameproto.connect4.machine import ServerInputs, ServerMachine
from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.engine.clock import Deadline, positiveSeconds
from gameproto.engine.contract import Errors, Instructions, Seat
from gameproto.engine.hub import Guest, GuestSeat, Hub
from gameproto.engine.lobby import MatchQueue
from gameproto.engine.record import RecordStore
from gameproto.engine.service import GameServer
from gameproto.engine.table import SeatHolder, Table
from gameproto.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH, ENGINE, MAX_SIZE, MIN_SIZE
from gameproto.net import GameServerFactory

if TYPE_CHECKING:
    from gameproto.connect4.protocol import Connect4ServerProtocol as _Protocol

log = Logger(namespace="gameproto.connect4")


def _size(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not MIN_SIZE <= value <= MAX_SIZE:
        raise ValueError(f"{attribute.name} must be between {MIN_SIZE} and {MAX_SIZE}, got {value}")


@attrs.frozen
class Connect4Settings:
    """The server's knobs; times in seconds."""

    width: int = attrs.field(default=DEFAULT_WIDTH, validator=_size)
    height: int = attrs.field(default=DEFAULT_HEIGHT, validator=_size)
    timeout: float = attrs.field(default=3.0, validator=positiveSeconds)
    """Time for each move (``timeout``)."""
    firstMoveBonus: float = attrs.field(default=1.0, validator=attrs.validators.ge(0))
    """Extra time for the first move of a game (the document's ``timeout + 1``)."""
    resendTimeout: float = attrs.field(default=1.0, validator=positiveSeconds)
    """Time to send another move after ERR_INVALID_COLUMN."""
    choiceTimeout: float = attrs.field(default=10.0, validator=positiveSeconds)
    """Time to JOIN_QUEUE after GAME_END (``choice_timeout``)."""
    connectTimeout: float = attrs.field(default=10.0, validator=positiveSeconds)
    """Time for a new connection to send an acceptable CONNECT."""
    rematchDelay: float = attrs.field(default=1.0, validator=attrs.validators.ge(0))
    """How long the queue waits for someone else before matching two players who just met."""


class Contestant(SeatHolder, Hashable, Protocol):
    """Who waits in the Protuissance 4 queue: a connection's player, or a guest."""

    @property
    def nick(self) -> str | None:
        """The nick it holds (unique among the server's)."""

    def matched(self, table: Table, seat: Seat) -> None:
        """The queue put it in ``seat`` of ``table``; the table's first update follows."""


class Connect4Player:
    """
    One connection's player: the core of its L{ServerMachine} and the
    L{SeatHolder} of its seat when it plays.
    """

    # One per connection, idle ones included: no per-instance dict.
    __slots__ = ("server", "protocol", "nick", "table", "seat", "_timer", "machine",
                 "__weakref__")

    def __init__(self, server: Connect4Server, protocol: _Protocol) -> None:
        self.server = server
        self.protocol = protocol
        self.nick: str | None = None
        self.table: Table | None = None
        self.seat: Seat = 0
        self._timer = Deadline(server.clock)
        self.machine: ServerInputs = ServerMachine(self)
        self._timer.start(server.settings.connectTimeout, self.machine.timedOut)

    # -- SeatHolder ----------------------------------------------------------

    @property
    def name(self) -> str:
        return self.nick or "?"

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self.server.moveTimeout(table, seat)

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table is not self.table:
            return
        machine = self.machine
        moved = False
        for event in instructions.events:
            kind = event.kind
            if kind == "move":
                moved = True
                # This player's own move: its submission heard the verdict.
                if event.seat != seat:
                    machine.opponentMoved(event.data)  # this player's turn, too
            elif kind == "end":
                machine.gameEnded(event.data)
        # After a move, turns alternate: only the game's start asks this way.
        if not moved and not instructions.game_state.gameover and instructions.asks(seat):
            machine.yourTurn()

    def timedOut(self, table: Table, seat: Seat) -> None:
        if table is self.table:
            self.machine.timedOut()

    # -- ServerCore ----------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.protocol.sendMessage(message)

    def sendInit(self) -> None:
        self.send(wire.Init(self.server.settings.width, self.server.settings.height))

    def checkNick(self, rawNick: bytes) -> None:
        nick = wire.acceptNick(rawNick)
        if nick is None:
            self.machine.nickRefused(wire.ERR_INVALID_NICK)
        elif not self.server.claimNick(nick, self):
            self.machine.nickRefused(wire.ERR_ALREADY_USED_NICK)
        else:
            self.nick = nick
            self.machine.nickAccepted(nick)
            self.protocol.nickAccepted(nick)

    def enterQueue(self) -> None:
        self.table = None
        self.server.queue.join(self)

    def matched(self, table: Table, seat: Seat) -> None:
        """The queue put this player in ``seat`` of ``table``."""
        self.table, self.seat = table, seat
        self.machine.matched()

    def sendGameStart(self) -> None:
        assert self.table is not None
        first, second = self.table.record.seats
        self.send(wire.GameStart(first, second))
        self.protocol.gameStarted((first, second), self.seat)

    def announceEnd(self, winner: int | None) -> None:
        self.send(wire.GAME_ENDS[None if winner is None else 1 if winner else 0])
        self.protocol.gameEnded(winner)

    def submitMove(self, column: int) -> None:
        self._judged(column, False)

    def resubmitMove(self, column: int) -> None:
        self._judged(column, True)

    def _judged(self, column: int, tellAccepted: bool) -> None:
        """Ask the table; tell the machine a refusal, and an acceptance if ``tellAccepted``."""
        assert self.table is not None
        outcome = self.table.act(self.seat, column)
        if isinstance(outcome, (Instructions, Errors)):  # (Deferred's check is slower)
            self._verdict(outcome, tellAccepted)
        else:
            outcome.addCallback(self._verdict, tellAccepted)

    def _verdict(self, outcome: Instructions | Errors, tellAccepted: bool) -> None:
        if isinstance(outcome, Errors):
            self.machine.moveRefused()
        elif tellAccepted:
            self.machine.moveAccepted()

    def allowResend(self) -> None:
        assert self.table is not None
        self.table.restartClock(self.seat, self.server.settings.resendTimeout)

    def startChoiceTimer(self) -> None:
        self._timer.start(self.server.settings.choiceTimeout, self.machine.timedOut)

    def stopTimer(self) -> None:
        self._timer.cancel()

    def resign(self) -> None:
        if self.table is not None and not self.table.finished:
            self.table.resign(self.seat)

    def drop(self, reason: str) -> None:
        self.cleanUp()
        self.protocol.dropConnection(reason)

    def cleanUp(self) -> None:
        self._timer.cancel()
        self.server.forget(self)
        self.resign()
        self.table = None  # (its machine and this player hold each other: not the game too)


class GuestContestant(GuestSeat):
    """
    A guest of another protocol in the Protuissance 4 queue: the nick it
    claimed, the move timeout of Protuissance 4 (first-move bonus included),
    and a resignation when the time runs out.
    """

    def __init__(self, matchmaker: Connect4Matchmaker, guest: Guest) -> None:
        super().__init__(guest, matchmaker.server.moveTimeout,
                         lambda table, seat: table.resign(seat))
        self.matchmaker = matchmaker
        self.nick: str = guest.name

    def matched(self, table: Table, seat: Seat) -> None:
        """The table's first update tells the guest; once it is over, the nick is free."""
        table.whenFinished().addBoth(lambda result: self.matchmaker.ended(self))


class Connect4Matchmaker:
    """
    Protuissance 4's queue, open to a guest of any protocol: the same nick
    rule, the same nicks and the same queue as the TCP players.
    """

    engine = ENGINE.name
    title = "Protuissance 4"

    def __init__(self, server: Connect4Server) -> None:
        self.server = server
        self.contestants: dict[Guest, GuestContestant] = {}

    def enqueue(self, guest: Guest) -> str | None:
        name = guest.name
        if wire.acceptNick(name.encode("utf-8")) != name:
            return "a Connect Four name is 1 to 16 of A-Z a-z 0-9 _ -"
        contestant = GuestContestant(self, guest)
        if not self.server.claimNick(name, contestant):
            return f"the name {name!r} is taken"
        self.contestants[guest] = contestant
        self.server.queue.join(contestant)
        return None

    def dequeue(self, guest: Guest) -> None:
        contestant = self.contestants.pop(guest, None)
        if contestant is not None:
            self.server.forget(contestant)

    def waiting(self) -> list[str]:
        """The nicks in the queue, longest-waiting first: TCP, WebSocket and guests alike."""
        return [c.nick for c in self.server.queue.waiting if c.nick is not None]

    def ended(self, contestant: GuestContestant) -> None:
        """``contestant``'s game is over: its nick is free again."""
        if self.contestants.get(contestant.guest) is contestant:
            self.dequeue(contestant.guest)


class Connect4Server(GameServer[Connect4Settings]):
    """
    Everything the Protuissance 4 connections share, whatever carries them
    (TCP or WebSocket): the settings, the nicks in use, the queue, the games.
    It hosts its tables on the hub (a seat left is resigned) and opens its
    queue to guests of every protocol (L{Connect4Matchmaker}).
    """

    def __init__(
        self,
        settings: Connect4Settings = Connect4Settings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        hub: Hub | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng, hub=hub)
        self.nicks: dict[str, Contestant] = {}
        self.queue: MatchQueue[Contestant] = MatchQueue(
            2, self._matched, self.rng, self.clock, settings.rematchDelay
        )
        self.tables: set[Table] = set()
        self.matchmaker = Connect4Matchmaker(self)
        self.hub.addMatchmaker(self.matchmaker)

    def newPlayer(self, protocol: _Protocol) -> Connect4Player:
        """A player for a new connection."""
        return Connect4Player(self, protocol)

    def moveTimeout(self, table: Table, seat: Seat) -> float:
        """The time for a move: ``timeout``, and the first-move bonus for a game's first."""
        settings = self.settings
        return settings.timeout + (settings.firstMoveBonus if table.turn == 0 else 0.0)

    def claimNick(self, nick: str, player: Contestant) -> bool:
        """Reserve ``nick`` for ``player``; False if someone else holds it."""
        holder = self.nicks.setdefault(nick, player)
        return holder is player

    def forget(self, player: Contestant) -> None:
        """``player`` is gone: out of the queue, its nick free."""
        self.queue.forget(player)
        if player.nick is not None and self.nicks.get(player.nick) is player:
            del self.nicks[player.nick]

    def vacate(self, table: Table, seat: Seat) -> None:
        """A guest left its seat (L{TableHost}): in Protuissance 4, leaving is resigning."""
        table.resign(seat)

    def _matched(self, players: Sequence[Contestant]) -> None:
        params = {"width": self.settings.width, "height": self.settings.height}
        table = Table.create(ENGINE, params, players, self.clock, self.store, self.rng)
        self.tables.add(table)
        table.whenFinished().addCallback(lambda record: self.tables.discard(table))
        self.hub.register(table, self)
        for seat, player in enumerate(players):
            player.matched(table, seat)
        table.start()


class Connect4ServerFactory(GameServerFactory[Connect4Server, Connect4ServerProtocol]):
    """Builds L{Connect4ServerProtocol} for each connection to one L{Connect4Server}."""

    protocol = Connect4ServerProtocol
