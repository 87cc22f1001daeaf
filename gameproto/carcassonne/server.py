"""
Carcassonne 1.71 on the shared engine layer.

Connections meet in rooms of up to five (L{CarcassonneRoom}, a
L{gameproto.engine.room.Room}); once every member of a room is ready, its
table starts and a L{CarcassonneGame} keeps the document's turn over it:
the TOKEN, the MOVE relayed to the others with the mover's number, their
MOVEACKs, then MOVEACK to the mover and the next TOKEN.  The table's engine
is the rules engine: as the referee (refusing a move that breaks the rules
with MOVENACK), or, with the referee off, as a pure relay that keeps every
move and follows the board with the rules while its moves keep them (a
L{RelayedGame}); the record keeps every move, so the game replays like any
other, with the rules' scores.  Without a rules engine, the table's engine
is the relay engine.

Players of other protocols join through the L{CarcassonneMatchmaker};
bots fill a waiting room after a while, and take the seat of a player who
leaves, while the rules follow the game.
"""

from __future__ import annotations

import random
import weakref
from collections import deque
from typing import TYPE_CHECKING, Mapping, cast

import attrs

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from gameproto.carcassonne import wire
from gameproto.carcassonne.machine import ConnectionInputs, ConnectionMachine
from gameproto.carcassonne.protocol import CarcassonneServerProtocol
from gameproto.carcassonne.turn import TurnCore, TurnInputs, TurnMachine
from gameproto.engine.clock import Deadline, positiveSeconds, seconds
from gameproto.engine.contract import JSON, Bot, EngineFactory, Errors, Instructions, Seat
from gameproto.engine.hub import Guest, Hub, botName
from gameproto.engine.record import RecordStore
from gameproto.engine.relay import RelayEngine, RelayGame
from gameproto.engine.room import Room, RoomMatchmaker
from gameproto.engine.service import GameServer
from gameproto.engine.table import SeatHolder, Table
from gameproto.games.carcassonne import CarcassonneGame as RulesGame
from gameproto.games.carcassonne_relayed import RelayedGame
from gameproto.net import GameServerFactory

if TYPE_CHECKING:
    from gameproto.carcassonne.protocol import CarcassonneServerProtocol as _Protocol

log = Logger(namespace="gameproto.carcassonne")

MIN_PLAYERS = 2
MAX_PLAYERS = 5
TILES = 72
"""Tiles in the game, the start tile among them."""
MOVES = TILES - 1
"""Moves in a whole game: the start tile is on the board before the first."""
START_TILE = ("tile-d", 72, 72, "N")
"""The start tile every client places before the first move: name, x, y, orientation."""
SERVER = 0
"""The number in a FINISH the server sends itself."""

RELAY = RelayEngine("carcassonne-relay", maxPlayers=MAX_PLAYERS)
"""
The table's engine when no rules engine is installed (or one without a
``referee`` parameter, with the referee off), its games recorded under its
own name: the server registers it in the hub's registry (with the referee
off), so they replay by their record like any other.
"""


@attrs.frozen
class CarcassonneSettings:
    """The server's knobs; times in seconds."""

    timeout: float = attrs.field(default=60.0, validator=positiveSeconds)
    """Time for each move (from the TOKEN), and for HELLO after connecting."""
    ackTimeout: float = attrs.field(default=10.0, validator=positiveSeconds)
    """Time each other player has to answer a MOVE with MOVEACK or MOVENACK."""
    referee: bool = True
    """Whether the rules engine judges every move (MOVENACK for a bad one)."""
    botsAfter: float = attrs.field(default=30.0, validator=seconds)
    """How long a lone ready player waits before a bot joins it (bots: the rules engine's)."""
    botDelay: float = attrs.field(default=0.5, validator=seconds)
    """How long a bot waits before each of its moves."""


def moveAction(message: wire.Move) -> dict[str, JSON]:
    """A MOVE as the rules engine reads it."""
    return {"tile": message.tile, "x": message.x, "y": message.y,
            "orientation": message.orientation, "zone": message.pawn}


_TILES, _ORIENTATIONS, _ZONES = frozenset(wire.TILES), frozenset(wire.ORIENTATIONS), \
    frozenset(wire.ZONES)


def wireMove(number: int, move: JSON, token: int) -> wire.Move | None:
    """A move the table accepted as the MOVE relayed (None: no Carcassonne move)."""
    if not isinstance(move, dict):
        return None
    tile, x, y = move.get("tile"), move.get("x"), move.get("y")
    orientation, zone = move.get("orientation"), move.get("zone")
    if (not isinstance(tile, str) or tile not in _TILES
            or not isinstance(orientation, str) or orientation not in _ORIENTATIONS
            or not (zone is None or (isinstance(zone, str) and zone in _ZONES))
            or not isinstance(x, int) or not isinstance(y, int)
            or isinstance(x, bool) or isinstance(y, bool)
            or not 0 <= x <= wire.INT_MAX or not 0 <= y <= wire.INT_MAX):
        return None
    return wire.Move(number, str(tile), x, y, str(orientation),
                     None if zone is None else str(zone), token)


# -- seat holders ------------------------------------------------------------------


class CarcassonnePlayer:
    """
    One connection's player: the core of its L{ConnectionMachine} and, once
    its room plays, the L{SeatHolder} of its seat.
    """

    def __init__(self, server: CarcassonneServer, protocol: _Protocol) -> None:
        self.server = server
        self.protocol = protocol
        self.number = 0
        self.room: CarcassonneRoom | None = None
        self._timer = Deadline(server.clock)
        self.machine: ConnectionInputs = ConnectionMachine(self)
        self._timer.start(server.settings.timeout, self.machine.timedOut)

    # -- SeatHolder: the game keeps the time -------------------------------------

    @property
    def name(self) -> str:
        return f"player{self.number}"

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return None

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        """The room's L{CarcassonneGame} says what this player hears."""

    def timedOut(self, table: Table, seat: Seat) -> None:
        pass

    # -- ConnectionCore ------------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.protocol.sendMessage(message)

    def enterRoom(self) -> int:
        self._timer.cancel()
        self.room = self.server.waitingRoom()
        self.number = self.room.takePlace(self) + 1
        self.protocol.joined(self.number)
        return self.number

    def greet(self, number: int) -> None:
        assert self.room is not None
        self.room.greet(self)

    def relayHelloAck(self, number: int) -> None:
        if self.room is not None:
            self.room.helloAck(self)

    def markReady(self, number: int) -> None:
        if self.room is not None:
            self.room.markReady(self)

    def _game(self) -> tuple[CarcassonneGame, Seat] | None:
        game = self.room.game if self.room is not None else None
        if game is None:
            return None
        seat = game.seatOf(self)
        return None if seat is None else (game, seat)

    def play(self, number: int, message: wire.Move) -> None:
        found = self._game()
        if found is None:
            self.sendNoop()
        else:
            found[0].play(found[1], message)

    def acknowledge(self, number: int) -> None:
        found = self._game()
        if found is not None:
            found[0].acknowledge(found[1])

    def refuse(self, number: int) -> None:
        found = self._game()
        if found is None:
            self.sendNoop()
        else:
            found[0].refuse(found[1])

    def finish(self, number: int) -> None:
        found = self._game()
        if found is not None:
            found[0].finish(found[1])

    def leave(self, number: int) -> None:
        self._timer.cancel()
        room, self.room = self.room, None
        if room is not None:
            room.leave(self)

    def tooSlow(self, number: int) -> None:
        self.leave(number)
        self.hangUp("too slow")

    def sendNoop(self) -> None:
        self.send(wire.Noop())

    def hangUp(self, reason: str) -> None:
        self._timer.cancel()
        self.protocol.dropConnection(reason)

    def end(self) -> None:
        self._timer.cancel()
        self.protocol.endConnection()

    def gone(self) -> None:
        self._timer.cancel()

    def gameOver(self) -> None:
        """The game ended: the client has ``timeout`` seconds to say CLOSE."""
        self.machine.ended()
        self._timer.start(self.server.settings.timeout, self.machine.timedOut)


class CarcassonneBot:
    """A bot's seat: the game plays the engine's bot for it; it accepts every move."""

    person = False

    def __init__(self, number: int, name: str | None = None) -> None:
        self.number = number
        self._name = name

    @property
    def name(self) -> str:
        """``botN``; for a seat a person left, that person's name with " (bot)"."""
        return self._name or f"bot{self.number}"

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return None

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        pass

    def timedOut(self, table: Table, seat: Seat) -> None:
        pass


class CarcassonneGuestSeat:
    """
    A L{Guest} of another protocol in a Carcassonne seat: it hears what its
    seat may see, except the request to move until the game gives it the
    turn; it has the server's time for each move and accepts every move.
    """

    def __init__(self, server: CarcassonneServer, guest: Guest) -> None:
        self.server = server
        self.guest = guest
        self.number = 0
        self.moving = False
        """Whether the game gave this seat the turn (until its move is relayed)."""

    @property
    def name(self) -> str:
        return self.guest.name

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return None

    def timeLeft(self, table: Table, seat: Seat) -> float | None:
        """The seconds left of its move's time (the server's, not a table clock)."""
        game = self.server.gameOf(table) if self.moving else None
        return game.moveTimeLeft() if game is not None else None

    def timedOut(self, table: Table, seat: Seat) -> None:
        pass

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is not self:
            return
        if instructions.asks(seat) and not self.moving:
            return  # told when the game gives it the turn
        self.guest.update(table, seat, instructions)

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        if table.holders[seat] is self:
            self.guest.aborted(table, seat, reason)


Member = CarcassonnePlayer | CarcassonneBot | CarcassonneGuestSeat


def rulesFollow(table: Table) -> bool:
    """
    Whether the rules follow ``table``'s board: always with the referee on;
    with it off, up to the first move they refuse (never with the relay).
    """
    engine = table.engine
    if isinstance(engine, RelayedGame):
        return engine.broken is None
    return not isinstance(engine, RelayGame)


def numberOf(holder: object) -> int:
    number = getattr(holder, "number", 0)
    return number if isinstance(number, int) else 0


# -- rooms -------------------------------------------------------------------------


class CarcassonneRoom(Room):
    """
    One Carcassonne game to be: up to five places, numbered 1 to 5 in order
    of arrival; HELLO and HELLOACK go round its members, and its table
    starts once every member (at least two) is ready.
    """

    def __init__(self, server: CarcassonneServer) -> None:
        factory, params, playersParam = server.engineChoice()
        super().__init__(server, factory, server.clock, server.store, server.rng,
                         minSeats=MIN_PLAYERS, maxSeats=MAX_PLAYERS,
                         botsAfter=server.settings.botsAfter, params=params,
                         playersParam=playersParam)
        self.server = server
        self.game: CarcassonneGame | None = None
        self.pending: dict[int, deque[SeatHolder]] = {}
        """For each member (by id), the newcomers whose HELLO it has not acknowledged yet."""

    def members(self) -> list[SeatHolder]:
        return [holder for holder in self.places if holder is not None]

    def players(self, but: object = None) -> list[CarcassonnePlayer]:
        """The connections in the room (before the start)."""
        return [h for h in self.members() if isinstance(h, CarcassonnePlayer) and h is not but]

    def greet(self, newcomer: SeatHolder) -> None:
        """``newcomer`` said HELLO: HELLONACK when alone, else HELLO n to the others."""
        others = [h for h in self.members() if h is not newcomer]
        if not others:
            if isinstance(newcomer, CarcassonnePlayer):
                newcomer.send(wire.HelloNack())
            return
        self.announce(newcomer)
        if isinstance(newcomer, CarcassonnePlayer):
            for other in others:
                if not isinstance(other, CarcassonnePlayer):
                    newcomer.send(wire.HelloAck(numberOf(other)))  # bots and guests know

    def announce(self, newcomer: SeatHolder) -> None:
        """Tell the connections in the room of ``newcomer`` (HELLO n)."""
        for other in self.players(but=newcomer):
            other.send(wire.Hello(numberOf(newcomer)))
            self.pending.setdefault(id(other), deque()).append(newcomer)

    def helloAck(self, member: CarcassonnePlayer) -> None:
        """``member``'s HELLOACK goes to the first newcomer it has not acknowledged."""
        waiting = self.pending.get(id(member))
        while waiting:
            newcomer = waiting.popleft()
            if self.placeOf(newcomer) is not None:
                if isinstance(newcomer, CarcassonnePlayer):
                    newcomer.send(wire.HelloAck(member.number))
                return

    def leave(self, holder: object, name: str | None = None) -> None:
        """``holder`` left: CLOSE n to the others; after the start, its game decides."""
        if self.table is None:
            if self.placeOf(holder) is None:
                return
            for other in self.players(but=holder):
                other.send(wire.Close(numberOf(holder)))
            self.pending.pop(id(holder), None)
            super().leave(holder, name)
            return
        if self.game is not None:
            self.game.departed(holder)

    def _fillWithBots(self) -> None:
        if self.server.botFor(self.factory, self.params) is None:
            return  # the relay has no bot: the players wait for each other
        super()._fillWithBots()


# -- the game ------------------------------------------------------------------------


class CarcassonneGame:
    """
    The document's turn over one started table, kept by its L{TurnMachine}:
    this is the machine's core, a spectator of the table (every accepted
    move, whoever played it, is relayed from here) that gives the TOKEN,
    gathers the MOVEACKs and ends the game.
    """

    def __init__(self, server: CarcassonneServer, room: CarcassonneRoom, table: Table) -> None:
        self.server = server
        self._room = weakref.ref(room)
        self.table = table
        self.numbers: list[int] = [numberOf(h) for h in table.holders]
        self.moves = 0
        """Moves relayed so far."""
        self.gone: set[Seat] = set()
        """Seats whose player left and that no bot took."""
        self.rulesGone = False
        """Whether the rules stopped following the board (a relayed move broke them)."""
        self._deadline = Deadline(server.clock)
        """The time of the move (from the TOKEN), or of a bot's delay."""
        self._ackDeadline = Deadline(server.clock)
        """
        The time of the answers to a relayed move.  At most one of the two
        counts; the other is left to lapse (L{Deadline.lapse}), so that a
        move costs the reactor no call cancelled and none scheduled.  The
        game's end cancels both.
        """
        self._begun = False
        """Whether the turn machine heard the table's first news (``begin``)."""
        # The machine's core is a weak proxy of this game: a machine and its
        # core hold each other, and a finished game would wait in that cycle
        # (its table, its board) for the garbage collector.  Whoever calls
        # the machine holds the game: its callers, and its deadlines while
        # they count (L{_timedOut}, L{_botReady}).
        self.turn: TurnInputs = TurnMachine(cast(TurnCore, weakref.proxy(self)))

    @property
    def room(self) -> CarcassonneRoom | None:
        """
        The room of this game (it holds the game; held weakly here, so that
        the two make no cycle): None once nothing else holds it.
        """
        return self._room()

    # -- who ---------------------------------------------------------------------

    def seatOf(self, holder: object) -> Seat | None:
        for seat, member in enumerate(self.table.holders):
            if member is holder:
                return seat
        return None

    def connections(self, but: Seat | None = None) -> list[tuple[Seat, CarcassonnePlayer]]:
        return [(seat, h) for seat, h in enumerate(self.table.holders)
                if isinstance(h, CarcassonnePlayer) and seat != but and seat not in self.gone]

    def tell(self, message: wire.Message, but: Seat | None = None) -> None:
        for _, player in self.connections(but):
            player.send(message)

    # -- what the connections and the table say -----------------------------------

    def update(self, table: Table, seat: None, instructions: Instructions) -> None:
        if not self._begun:  # the table's first news: every state after ignores begin
            self._begun = True
            self.turn.begin()
        # Every engine says a move was made with a "move" event, whoever made
        # it (a client's MOVE, a bot, a guest's steps on the page).
        for event in instructions.events:
            if event.kind == "move" and event.seat is not None:
                self.turn.moved(event.seat, event.data)

    def rulesStopped(self) -> None:
        """
        A relayed move broke the rules (the referee off): the rules no
        longer follow the board the clients play on, so the seats that play
        from the rules (bots and players of other protocols) leave the game,
        as if they said CLOSE, once the move is passed on.
        """
        engine = self.table.engine
        assert isinstance(engine, RelayedGame) and engine.broken is not None
        self.rulesGone = True
        log.info("carcassonne game {id}: {text}", id=self.table.id, text=engine.broken.text)
        reason = (f"{engine.broken.text}: the board shown here is no longer the players', "
                  f"so this seat leaves the game")
        for seat, holder in enumerate(self.table.holders):
            if seat in self.gone or self.table.finished:
                continue
            if isinstance(holder, CarcassonneBot):
                self.tell(wire.Close(self.numbers[seat]), but=seat)
                self.gone.add(seat)
                self.table.resign(seat)
                self.turn.left(seat)
            elif isinstance(holder, CarcassonneGuestSeat):
                self.departed(holder)
                holder.guest.aborted(self.table, seat, reason)

    def play(self, seat: Seat, message: wire.Move) -> None:
        """A connection's MOVE: with the token, the table judges it."""
        self.turn.move(seat, message)

    def acknowledge(self, seat: Seat) -> None:
        self.turn.acknowledge(seat)

    def refuse(self, seat: Seat) -> None:
        """A MOVENACK: the game stops for everyone (NOOP when no move awaits it)."""
        self.turn.refuse(seat)

    def finish(self, seat: Seat) -> None:
        """A client's FINISH: relayed, and the game is over."""
        self.turn.finish(seat)

    def departed(self, holder: object) -> None:
        """``holder`` left the started game: CLOSE n to the others; a bot or a resignation."""
        seat = self.seatOf(holder)
        if seat is None or seat in self.gone or self.table.suspended:
            return  # (suspended: the server is stopping, the game is kept as it is)
        self.tell(wire.Close(self.numbers[seat]), but=seat)
        self.gone.add(seat)
        room = self.room
        if not self.table.finished and room is not None:
            room.vacate(seat)
            if self.table.holders[seat] is not holder:
                self.gone.discard(seat)  # a bot plays it now
        self.turn.left(seat)

    # -- TurnCore: the turn ---------------------------------------------------------

    def start(self) -> None:
        for _, player in self.connections():
            player.send(wire.Start())
            player.machine.started()

    def nextTurn(self, previous: int) -> tuple[Seat, int] | None:
        table = self.table
        if table.finished or not table.waiting:
            return None
        engine = table.engine
        if isinstance(engine, RelayGame):
            return min(table.waiting), engine.token
        token = previous
        while token == previous:
            token = self.server.rng.randint(1, wire.INT_MAX)
        return min(table.waiting), token

    def offer(self, seat: Seat, token: int) -> None:
        table = self.table
        holder = table.holders[seat]
        settings = self.server.settings
        if isinstance(holder, CarcassonneBot):
            self.startBot(seat)
            return
        self._ackDeadline.lapse()
        self._deadline.start(settings.timeout, self._timedOut)
        if isinstance(holder, CarcassonnePlayer):
            holder.send(wire.Token(token))
        elif isinstance(holder, CarcassonneGuestSeat):
            holder.moving = True
            holder.guest.update(table, seat, table.engine.instructions().forSeat(seat))

    def noop(self, seat: Seat) -> None:
        player = self.table.holders[seat]
        if isinstance(player, CarcassonnePlayer):
            player.sendNoop()

    def judge(self, seat: Seat, message: wire.Move) -> None:
        action: dict[str, JSON] = moveAction(message)
        engine = self.table.engine
        if isinstance(engine, RelayGame):
            action = {"move": action, "token": engine.token}
        elif isinstance(engine, RelayedGame):
            refused = engine.refusal(seat, action)
            if refused is not None:
                action["refused"] = refused  # the record says why
        outcome = self.table.act(seat, action)
        if isinstance(outcome, (Instructions, Errors)):  # (a Deferred's isinstance asks an ABC)
            self._judged(seat, outcome)
        else:
            outcome.addCallback(lambda result: self._judged(seat, result))

    def _judged(self, seat: Seat, outcome: Instructions | Errors) -> None:
        player = self.table.holders[seat]
        if isinstance(outcome, Errors) and isinstance(player, CarcassonnePlayer):
            player.protocol.fault("carcassonne {who}: move refused in game {id}: {errors}",
                                  id=self.table.id, errors=outcome.asJSON())
            player.send(wire.MoveNack())

    def relay(self, seat: Seat, move: JSON, token: int) -> frozenset[Seat]:
        self.moves += 1
        holder = self.table.holders[seat]
        if isinstance(holder, CarcassonneGuestSeat):
            holder.moving = False
        line = wireMove(self.numbers[seat], move, token)
        if line is None:
            log.info("carcassonne game {id}: move {move!r} is no Carcassonne move, not relayed",
                     id=self.table.id, move=move)
            return frozenset()
        awaiting = set()
        for other, player in self.connections(but=seat):
            player.send(line)
            awaiting.add(other)
        if isinstance(self.table.engine, RelayedGame) and not self.rulesGone \
                and not rulesFollow(self.table):
            self.rulesStopped()
        return frozenset(awaiting)

    def moveTimeLeft(self) -> float | None:
        """Seconds left of the move's time, None when it does not count."""
        return self._deadline.remaining()

    def awaitAcks(self) -> None:
        self._deadline.lapse()
        self._ackDeadline.start(self.server.settings.ackTimeout, self._timedOut)

    def moveAccepted(self, mover: Seat) -> None:
        # The answers' time is left as it is here: the next TOKEN (or bot,
        # or guest) takes the timing over, and the game's end cancels it,
        # both before the reactor runs again.
        holder = self.table.holders[mover]
        if isinstance(holder, CarcassonnePlayer) and mover not in self.gone:
            holder.send(wire.MoveAck())

    def gameDone(self) -> bool:
        return self.table.finished or self.moves >= MOVES

    # -- TurnCore: the end ----------------------------------------------------------

    def stopGame(self, refuser: Seat, mover: Seat) -> str:
        number = self.numbers[refuser]
        for other, connection in self.connections(but=refuser):
            if other != mover:
                connection.send(wire.MoveNack())
        self.tell(wire.Finish(number))
        return f"player {number} refused move {self.moves}"

    def finishGame(self, by: Seat | None) -> None:
        """The game is over (``by`` a player's FINISH, or None: the pile is empty)."""
        self.tell(wire.Finish(SERVER if by is None else self.numbers[by]), but=by)
        self.wrapUp(None)
        table = self.table
        if not table.finished and isinstance(table.engine, RelayGame | RelayedGame):
            live = [s for s in range(len(table.holders)) if s not in self.gone]
            table.act(by if by is not None else min(live, default=0), {"finish": True})
        if not table.finished:
            table.abort("FINISH before the rules' end" if by is not None
                        else "the pile is empty")

    def wrapUp(self, reason: str | None) -> None:
        self._deadline.cancel()
        self._ackDeadline.cancel()
        for _, player in self.connections():
            player.gameOver()
        for holder in self.table.holders:
            if isinstance(holder, CarcassonneGuestSeat):
                holder.moving = False
        if reason is not None and not self.table.finished:
            self.table.abort(reason)

    def tellFinish(self) -> None:
        self.tell(wire.Finish(SERVER))

    def settled(self) -> bool:
        return self.table.finished

    def mustEnd(self) -> bool:
        live = [s for s in range(len(self.table.holders)) if s not in self.gone]
        return self.table.finished or len(live) < MIN_PLAYERS

    def lacking(self) -> None:
        if len(self.connections()) >= MIN_PLAYERS:
            self.tell(wire.Finish(SERVER))

    # -- TurnCore: bots and time ----------------------------------------------------

    def botHolds(self, seat: Seat) -> bool:
        return isinstance(self.table.holders[seat], CarcassonneBot) and seat not in self.gone

    def startBot(self, seat: Seat) -> None:
        self._ackDeadline.lapse()
        self._deadline.cancel()  # a new call: moving a pending one sooner searches the heap
        self._deadline.start(self.server.settings.botDelay, self._botReady)

    def _timedOut(self) -> None:
        """The time of the move or of its answers is up (the deadline holds this game)."""
        self.turn.timedOut()

    def _botReady(self) -> None:
        """A bot's delay is over (the deadline holds this game)."""
        self.turn.botReady()

    def botPlays(self, seat: Seat) -> None:
        table = self.table
        if table.finished or not self.botHolds(seat):
            return
        bot = self.server.botFor(table.factory, table.engine.params)
        move = bot(table.engine.view(seat), seat) if bot is not None else None
        if move is None and isinstance(table.engine, RelayedGame):
            self.turn.finish(seat)  # no tile left fits: the bot says FINISH, as a client would
            return
        outcome = table.act(seat, move) if bot is not None else None
        if outcome is None or isinstance(outcome, Errors):
            log.error("carcassonne game {id}: the bot in seat {seat} could not move, resigning",
                      id=table.id, seat=seat)
            self.gone.add(seat)
            table.resign(seat)
            self.turn.left(seat)

    def expire(self, seat: Seat) -> None:
        holder = self.table.holders[seat]
        log.info("carcassonne game {id}: player {n} too slow, removed", id=self.table.id,
                 n=self.numbers[seat])
        if isinstance(holder, CarcassonnePlayer):
            holder.machine.timedOut()
        else:
            self.departed(holder)
            if isinstance(holder, CarcassonneGuestSeat):
                holder.guest.aborted(self.table, seat, "too slow: the seat was given up")

    def cancelTimer(self) -> None:
        self._deadline.lapse()
        self._ackDeadline.lapse()


# -- the matchmaker ------------------------------------------------------------------


class CarcassonneMatchmaker(RoomMatchmaker["CarcassonneRoom", "CarcassonneGuestSeat"]):
    """Carcassonne's rooms, open to a guest of any protocol: a ready place in the waiting room."""

    engine = "carcassonne"
    title = "Carcassonne"

    def __init__(self, server: CarcassonneServer) -> None:
        super().__init__()
        self.server = server

    def seatFor(self, guest: Guest) -> CarcassonneGuestSeat:
        return CarcassonneGuestSeat(self.server, guest)

    def waitingRoom(self) -> CarcassonneRoom:
        return self.server.waitingRoom()

    def openRoom(self) -> CarcassonneRoom | None:
        return self.server.waiting

    def placed(self, room: CarcassonneRoom, seat: CarcassonneGuestSeat, place: int) -> None:
        seat.number = place + 1
        room.greet(seat)


# -- the server ----------------------------------------------------------------------


class CarcassonneServer(GameServer[CarcassonneSettings]):
    """
    Everything the Carcassonne connections share: settings, rooms, records.
    It owns its rooms (their bots, their start and end), hosts their tables
    on the hub, and opens them to guests through its L{CarcassonneMatchmaker}.
    """

    def __init__(
        self,
        settings: CarcassonneSettings = CarcassonneSettings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        hub: Hub | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng, hub=hub)
        self.waiting: CarcassonneRoom | None = None
        self.playing: set[CarcassonneRoom] = set()
        self.matchmaker = CarcassonneMatchmaker(self)
        self.hub.addMatchmaker(self.matchmaker)
        self._warned = False
        if not settings.referee:
            self._registerRelay()

    def _registerRelay(self) -> None:
        """Put the relay in the hub's registry, so its records replay (once)."""
        if self.hub.registry.get(RELAY.name) is None:
            self.hub.registry.add(RELAY)

    def newPlayer(self, protocol: _Protocol) -> CarcassonnePlayer:
        return CarcassonnePlayer(self, protocol)

    def engineChoice(self) -> tuple[EngineFactory, dict[str, JSON], str | None]:
        """
        The engine of a new table, its parameters and the name of its
        number of players: the rules engine (``carcassonne`` in the hub's
        registry), as the referee or, with the referee off, with its
        ``referee`` parameter off; else the relay.
        """
        rules = self.hub.registry.get("carcassonne")
        if rules is not None:
            names = {parameter.name for parameter in rules.parameters}
            params: dict[str, JSON] = {"pile": "named"} if "pile" in names else {}
            if not self.settings.referee and "referee" in names:
                params["referee"] = "off"
            if self.settings.referee or "referee" in names:
                return rules, params, "players" if "players" in names else None
        elif self.settings.referee and not self._warned:
            self._warned = True
            log.warn("carcassonne: no rules engine installed: the referee is off")
        self._registerRelay()
        return RELAY, {"acks": 0}, "players"

    def botFor(self, factory: EngineFactory, params: Mapping[str, JSON]) -> Bot | None:
        """The bot of tables of ``factory`` (the relay has none)."""
        return factory.bot(dict(params))

    def waitingRoom(self) -> CarcassonneRoom:
        """The room newcomers join: a new one when the last is full or started."""
        if self.waiting is None or not self.waiting.open:
            self.waiting = CarcassonneRoom(self)
        return self.waiting

    def gameOf(self, table: Table) -> CarcassonneGame | None:
        for room in self.playing:
            if room.table is table:
                return room.game
        return None

    # -- RoomOwner ---------------------------------------------------------------

    def newBot(self, room: Room, place: int) -> CarcassonneBot:
        assert isinstance(room, CarcassonneRoom)
        if room.game is not None:
            return CarcassonneBot(room.game.numbers[place],
                                  botName(room.game.table.record.seats[place], place))
        bot = CarcassonneBot(place + 1)
        room.announce(bot)
        return bot

    def started(self, room: Room, table: Table) -> None:
        assert isinstance(room, CarcassonneRoom)
        if self.waiting is room:
            self.waiting = None
        self.playing.add(room)
        self.matchmaker.started(room)
        room.game = CarcassonneGame(self, room, table)
        if isinstance(table.engine, RulesGame) and not any(
                isinstance(h, CarcassonneGuestSeat) for h in table.holders):
            table.engine.pageTargets = False  # nobody here clicks: no zones to outline
        self.hub.register(table, self)
        table.watch(room.game)

    def ended(self, room: Room, table: Table) -> None:
        """The table is over: FINISH 0, unless its last move still awaits its MOVEACKs."""
        assert isinstance(room, CarcassonneRoom)
        self.playing.discard(room)
        if room.game is not None:
            room.game.turn.tableEnded()

    def leaving(self, room: Room, table: Table, seat: Seat) -> bool:
        """
        A bot takes the seat if the engine has one and its rules follow the
        board; else the seat resigns.
        """
        if rulesFollow(table) and self.botFor(table.factory, table.engine.params) is not None:
            return False
        table.resign(seat)
        return True

    # -- TableHost -----------------------------------------------------------------

    def vacate(self, table: Table, seat: Seat) -> None:
        """A guest left through the hub."""
        game = self.gameOf(table)
        if game is not None:
            game.departed(table.holders[seat])


class CarcassonneServerFactory(GameServerFactory[CarcassonneServer, CarcassonneServerProtocol]):
    """Builds L{CarcassonneServerProtocol} for each connection to one L{CarcassonneServer}."""

    protocol = CarcassonneServerProtocol


__all__ = [
    "CarcassonneBot", "CarcassonneGame", "CarcassonneGuestSeat", "CarcassonneMatchmaker",
    "CarcassonnePlayer", "CarcassonneRoom", "CarcassonneServer", "CarcassonneServerFactory",
    "CarcassonneSettings", "MAX_PLAYERS", "MOVES", "RELAY", "START_TILE", "rulesFollow",
]
