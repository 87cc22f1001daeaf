"""
Protuissance 4 on the shared engine layer: the server state (settings, nicks,
matchmaking), one player per connection, and the factory.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import Factory
from twisted.logger import Logger

from gameproto.connect4 import wire
from gameproto.connect4.machine import ServerInputs, ServerMachine
from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.engine.clock import Deadline, positiveSeconds
from gameproto.engine.contract import Errors, Instructions, Seat
from gameproto.engine.lobby import MatchQueue
from gameproto.engine.record import RecordStore
from gameproto.engine.service import GameServer
from gameproto.engine.table import Table
from gameproto.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH, ENGINE, MAX_SIZE, MIN_SIZE

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


class Connect4Player:
    """
    One connection's player: the core of its L{ServerMachine} and the
    L{SeatHolder} of its seat when it plays.
    """

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
        settings = self.server.settings
        return settings.timeout + (settings.firstMoveBonus if table.turn == 0 else 0.0)

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table is not self.table:
            return
        for event in instructions.events:
            if event.kind == "move":
                if event.seat == seat:
                    self.machine.moveAccepted()
                else:
                    self.machine.opponentMoved(event.data)
            elif event.kind == "end":
                self.machine.gameEnded(event.data)
        if not instructions.game_state.gameover and instructions.asks(seat):
            self.machine.yourTurn()

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
        self.send(wire.GameEnd(winner))
        self.protocol.gameEnded(winner)

    def submitMove(self, column: int) -> None:
        assert self.table is not None
        if isinstance(self.table.act(self.seat, column), Errors):
            self.machine.moveRefused()

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


class Connect4Server(GameServer[Connect4Settings]):
    """
    Everything the Protuissance 4 connections share, whatever carries them
    (TCP or WebSocket): the settings, the nicks in use, the queue, the games.
    """

    def __init__(
        self,
        settings: Connect4Settings = Connect4Settings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng)
        self.nicks: dict[str, Connect4Player] = {}
        self.queue: MatchQueue[Connect4Player] = MatchQueue(
            2, self._matched, self.rng, self.clock, settings.rematchDelay
        )
        self.tables: set[Table] = set()

    def newPlayer(self, protocol: _Protocol) -> Connect4Player:
        """A player for a new connection."""
        return Connect4Player(self, protocol)

    def claimNick(self, nick: str, player: Connect4Player) -> bool:
        """Reserve ``nick`` for ``player``; False if someone else holds it."""
        holder = self.nicks.setdefault(nick, player)
        return holder is player

    def forget(self, player: Connect4Player) -> None:
        """``player`` is gone: out of the queue, its nick free."""
        self.queue.forget(player)
        if player.nick is not None and self.nicks.get(player.nick) is player:
            del self.nicks[player.nick]

    def _matched(self, players: Sequence[Connect4Player]) -> None:
        params = {"width": self.settings.width, "height": self.settings.height}
        table = Table.create(ENGINE, params, players, self.clock, self.store, self.rng)
        self.tables.add(table)
        table.whenFinished().addCallback(lambda record: self.tables.discard(table))
        for seat, player in enumerate(players):
            player.matched(table, seat)
        table.start()


class Connect4ServerFactory(Factory):
    """Builds L{Connect4ServerProtocol} for each TCP connection to one L{Connect4Server}."""

    protocol = Connect4ServerProtocol
    noisy = False

    def __init__(self, server: Connect4Server) -> None:
        self.server = server
