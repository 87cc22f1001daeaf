"""
MaîtreTarot on the shared engine layer: rooms of four (players and bots),
each seat's connection following the sequence L{sequence} translates from
its table's updates, seats taken back after a disconnection (by the same
peer address and nick only), the matchmaker that seats a player of any
protocol at a MaîtreTarot table, and the factory.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Iterable

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from gameproto.engine.clock import Deadline, seconds
from gameproto.engine.contract import JSON, Errors, Instructions, Seat
from gameproto.engine.hub import Guest, Hub, botName
from gameproto.engine.record import RecordStore
from gameproto.engine.room import Room, RoomMatchmaker
from gameproto.engine.service import GameServer
from gameproto.engine.table import BotSeat, SeatHolder, Table
from gameproto.games.tarot import TAROT, TarotGame, TarotView, tarotBot
from gameproto.maitretarot import sequence, wire
from gameproto.maitretarot.machine import ServerInputs, ServerMachine
from gameproto.maitretarot.protocol import MaitreTarotServerProtocol
from gameproto.maitretarot.sequence import Signal
from gameproto.net import GameServerFactory, hostOf, printable

if TYPE_CHECKING:
    from gameproto.maitretarot.protocol import MaitreTarotServerProtocol as _Protocol

log = Logger(namespace="gameproto.maitretarot")

PLACES = 4

DISCARD_TIMEOUTS = 3
"""
The most a taker's discard may take, in timeouts from the last bid: each
refused discard starts the clock again, up to that, so that no client holds
a table for ever with refused discards.
"""

RECLAIM_RULES = ("address", "off")
"""
Who may take back a seat its player left during a deal: ``address``, a
connection from the same peer address with the same nick; ``off``, nobody.
A nick alone never takes a seat back: anyone may send any nick, and
SEND_PLACE, sent before the nick, must name the seat.
"""


@attrs.frozen
class TarotSettings:
    """The server's knobs; times in seconds."""

    timeout: float = attrs.field(default=60.0, validator=seconds)
    """Time for each answer (and each identification step)."""
    botsAfter: float = attrs.field(default=30.0, validator=seconds)
    """How long a waiting table waits for players before bots fill it (0: at once)."""
    botDelay: float = attrs.field(default=0.0, validator=seconds)
    """How long a bot waits before each of its moves."""
    reclaim: str = attrs.field(default="address", validator=attrs.validators.in_(RECLAIM_RULES))
    """Who may take back a seat left during a deal (L{RECLAIM_RULES})."""


def defaultNick(place: int) -> str:
    """The nick of a client that sends a nick length of 0."""
    return f"player{place + 1}"


def botNick(place: int) -> str:
    """The nick of a bot in ``place``: the one SEND_NICKS gives every bot's seat."""
    return f"bot{place + 1}"


def nickOf(holder: SeatHolder) -> str:
    """
    The nick SEND_NICKS gives ``holder``'s seat: a bot that took a player's
    seat over is botN there, like every bot (the record keeps "NAME (bot)").
    """
    return botNick(holder.seat) if isinstance(holder, LeaverSeat) else holder.name


def leaverBot(view: TarotView, seat: Seat) -> JSON:
    """
    The bot of a seat whose player left during the deal: it plays the deal
    on, and answers 0 to the replay question (the document: a player who
    disconnected makes the answer 0).
    """
    if view.phase == "end":
        return {"replay": False}
    return tarotBot(view, seat)


def tarotGame(table: Table) -> TarotGame:
    """The tarot game a MaîtreTarot table plays."""
    game = table.engine
    assert isinstance(game, TarotGame)
    return game


class TarotPlayer:
    """
    One connection's player: the core of its L{ServerMachine} and, once its
    table plays, the L{SeatHolder} of its place.
    """

    def __init__(self, server: TarotServer, protocol: _Protocol) -> None:
        self.server = server
        self.protocol = protocol
        self.nick: str | None = None
        """The nick the other seats see, once identified."""
        transport = protocol.transport
        self.host: str | None = hostOf(transport.getPeer()) if transport is not None else None
        """The peer's address (host), by which it may take back a seat it left."""
        self.session: TarotSession | None = None
        """Its waiting room, or the started room of the seat it holds or comes back to."""
        self.place: int = -1
        self._timer = Deadline(server.clock)
        self.machine: ServerInputs = ServerMachine(self)
        self.startTimer()

    # -- SeatHolder ----------------------------------------------------------

    @property
    def name(self) -> str:
        return self.nick or defaultNick(self.place)

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self.server.settings.timeout

    def timedOut(self, table: Table, seat: Seat) -> None:
        self.machine.timedOut()

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is self:
            self.machine.update(table, seat, instructions)

    # -- ServerCore: the sequence ----------------------------------------------

    def begin(self, table: Table, seat: Seat, instructions: Instructions, resumed: bool) -> None:
        game = tarotGame(table)
        if resumed:
            log.info("maitretarot {nick} takes place {place} of game {id} back",
                     nick=self.nick, place=seat, id=table.id)
        self._emit(sequence.firstUpdate(
            [nickOf(h) for h in table.holders], game.view(seat), game.publicState(),
            instructions.asks(seat), instructions.game_state.gameover))

    def follow(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        self._emit(sequence.nextUpdate(
            instructions.events, seat, tarotGame(table).publicState(), instructions.asks(seat),
            instructions.game_state.gameover))

    def _emit(self, outputs: Iterable[sequence.Output]) -> None:
        machine = self.machine
        for output in outputs:
            # a message is sent; a signal moves the machine on (told apart by
            # type: a message compared with each signal costs more than it)
            if type(output) is not Signal:
                self.send(output)  # type: ignore[arg-type]
                continue
            match output:
                case Signal.ASK_BID:
                    machine.askBid()
                case Signal.ASK_DISCARD:
                    machine.askDiscard()
                case Signal.ASK_CARD:
                    machine.askCard()
                case Signal.ASK_REPLAY:
                    machine.askReplay()
                case Signal.ACCEPTED:
                    machine.accepted()
                case Signal.ENDED:
                    machine.tableEnded()

    # -- ServerCore ----------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.protocol.sendMessage(message)

    def welcome(self) -> None:
        self.send(wire.SendId(wire.SERVER_ID, wire.VERSION))
        self.send(wire.SendProtocol(wire.PROTOCOL))

    def refuseId(self) -> None:
        self.send(wire.SendId(wire.WRONG_ID, wire.VERSION))

    def takePlace(self) -> None:
        """SEND_PLACE: the seat this address left during a deal, if any, else a waiting place."""
        left = self.server.seatLeftFrom(self.host)
        if left is not None:
            self.session, self.place = left.room, left.seat
        else:
            self.session = self.server.waitingRoom()
            self.place = self.session.takePlace(self)
        self.send(wire.SendPlace(self.place))

    def join(self, nick: bytes | None) -> None:
        if nick is None:
            self.nick = defaultNick(self.place)
        else:
            self.nick = printable(nick.decode("utf-8", "replace"))
        self.protocol.identified(self.nick, self.place)
        session = self.session
        assert session is not None
        if session.table is not None:
            # SEND_PLACE named the seat this address left: the nick must be the one that left it.
            left = session.leftSeat(self.place)
            if left is None or not left.isFor(self):
                self.machine.placeKept()
                return
            self.takeBack(left)
            return
        session.markReady(self)

    def takeBack(self, left: LeaverSeat) -> None:
        """Take back the seat ``left`` holds for us: ours once the sequence can start there."""
        self.session, self.place = left.room, left.seat
        self.machine.reclaimed()
        left.claim(self)

    def startTimer(self) -> None:
        self._timer.start(self.server.settings.timeout, self.machine.timedOut)

    def stopTimer(self) -> None:
        self._timer.cancel()

    def _act(self, action: dict[str, JSON]) -> object:
        assert self.session is not None and self.session.table is not None
        return self.session.table.act(self.place, action)

    def submitBid(self, bid: int) -> None:
        if isinstance(self._act({"bid": bid}), Errors):
            self._act({"bid": wire.PASS})

    def submitDiscard(self, cards: tuple[int, ...]) -> None:
        if isinstance(self._act({"discard": list(cards)}), Errors):
            self.machine.refused()

    def restartClock(self) -> None:
        """A whole timeout again, within L{DISCARD_TIMEOUTS} from the last bid."""
        if self.session is None or self.session.table is None:
            return
        table, timeout = self.session.table, self.server.settings.timeout
        limit = table.lastActionTime + DISCARD_TIMEOUTS * timeout - self.server.clock.seconds()
        table.restartClock(self.place, max(0.0, min(timeout, limit)))

    def submitCard(self, card: int) -> None:
        if isinstance(self._act({"card": card}), Errors):
            self.machine.refused()

    def submitReplay(self, answer: int) -> None:
        self._act({"replay": answer == 1})

    def playForMe(self) -> None:
        if self.session is not None and self.session.table is not None:
            self.session.table.playFor(self.place, tarotBot)
        self.machine.forfeited()  # after the bot's move is told

    def drop(self, reason: str) -> None:
        self.cleanUp()
        self.protocol.dropConnection(reason)

    def end(self) -> None:
        self.cleanUp()
        self.protocol.endConnection()

    def cleanUp(self) -> None:
        self._timer.cancel()
        session, self.session = self.session, None
        if session is None:
            return
        left = session.leftSeat(self.place)
        if left is not None:
            left.forget(self)
        session.leave(self, self.server.reclaimKey(self))


class TarotSession(Room):
    """
    One MaîtreTarot table to be: a L{Room} of four places, filled by
    players as they identify and by bots for the rest, then a L{Table} of
    the tarot engine deal after deal.
    """

    def __init__(self, server: TarotServer) -> None:
        super().__init__(server, TAROT, server.clock, server.store, server.rng,
                         minSeats=PLACES, maxSeats=PLACES, botsAfter=server.settings.botsAfter)
        self.server = server

    def nicks(self) -> list[str]:
        """The four nicks, in place order (as SEND_NICKS gives them)."""
        holders = self.table.holders if self.table is not None else self.places
        return [nickOf(h) if h is not None else defaultNick(p) for p, h in enumerate(holders)]

    def identified(self, holder: SeatHolder) -> None:
        """``holder`` sat down (identified): the table starts once all four have."""
        self.markReady(holder)

    def leftSeat(self, place: int) -> LeaverSeat | None:
        """The bot holding ``place`` since its player left during a deal, if any."""
        if self.table is None or not 0 <= place < PLACES:
            return None
        holder = self.table.holders[place]
        return holder if isinstance(holder, LeaverSeat) else None


class LeaverSeat(BotSeat):
    """
    The bot in the seat of a player who left during a deal, named after
    that player in the record ("NAME (bot)") but botN on the wire
    (L{nickOf}).  It plays the deal on and answers 0 to the replay question
    (L{leaverBot}), unless its player comes back first (L{claim}): the seat
    is then handed over where the document's sequence can start for it
    (L{sequence.canJoin}), the end of the deal at the latest.
    """

    _serial = itertools.count()

    def __init__(self, server: TarotServer, room: TarotSession, seat: Seat,
                 leaver: SeatHolder) -> None:
        super().__init__(leaverBot, server.clock, botName(leaver.name, seat),
                         server.settings.botDelay)
        self.room = room
        self.seat = seat
        self.order = next(self._serial)
        player = leaver if isinstance(leaver, TarotPlayer) else None
        self.reclaim = server.settings.reclaim if player is not None else "off"
        """The rule by which the seat may be taken back (L{RECLAIM_RULES})."""
        self.nick = leaver.name
        self.host = player.host if player is not None else None
        self.waiting: TarotPlayer | None = None
        """The player back for this seat, until the seat is handed over."""

    def open(self) -> bool:
        """Whether the seat may still be taken back: not claimed, its replay answer not given."""
        table = self.room.table
        if self.reclaim == "off" or self.waiting is not None or table is None or table.finished:
            return False
        view = tarotGame(table).view(self.seat)
        return not (view.phase == "end" and view.replayAnswers[self.seat] is not None)

    def isFor(self, player: TarotPlayer) -> bool:
        """Whether ``player`` (who got this seat in SEND_PLACE) is the one who left it."""
        return (self.open() and self.host is not None and player.host == self.host
                and player.nick == self.nick)

    def claim(self, player: TarotPlayer) -> None:
        """``player`` is back: hand the seat over now if the sequence can start here."""
        self.waiting = player
        table = self.room.table
        assert table is not None
        if sequence.canJoin(tarotGame(table).view(self.seat)):
            self._handOver(table, self.seat)

    def forget(self, player: TarotPlayer) -> None:
        """``player``, back for this seat, is gone again: the bot plays on."""
        table = self.room.table
        if self.waiting is not player or table is None:
            return
        self.waiting = None
        if not table.finished and table.holders[self.seat] is self:
            BotSeat.update(self, table, self.seat, table.engine.instructions().forSeat(self.seat))

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        waiting = self.waiting
        if instructions.game_state.gameover:
            if waiting is not None:
                self.waiting = None
                waiting.machine.tableEnded()
            return
        if waiting is not None and sequence.canJoin(tarotGame(table).view(seat)):
            # Not from inside the table's update: once it is told to every seat.
            self._move.start(0, lambda: self._handOver(table, seat))
            return
        super().update(table, seat, instructions)

    def _handOver(self, table: Table, seat: Seat) -> None:
        player = self.waiting
        if player is None or table.finished or table.holders[seat] is not self:
            return
        if not sequence.canJoin(tarotGame(table).view(seat)):
            return  # the deal moved on: its end will do
        self.waiting = None
        self.room.reclaim(seat, player)


class TarotGuestSeat:
    """
    A L{Guest} of another protocol in a MaîtreTarot seat, under Tarot's
    rules for time: each answer has the server's timeout, after which the
    Tarot bot plays that move for it.
    """

    def __init__(self, server: TarotServer, guest: Guest) -> None:
        self.server = server
        self.guest = guest

    @property
    def name(self) -> str:
        return self.guest.name

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self.server.settings.timeout

    def timedOut(self, table: Table, seat: Seat) -> None:
        table.playFor(seat, tarotBot)

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is self:
            self.guest.update(table, seat, instructions)

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        if table.holders[seat] is self:
            self.guest.aborted(table, seat, reason)


class TarotMatchmaker(RoomMatchmaker["TarotSession", "TarotGuestSeat"]):
    """MaîtreTarot's tables, open to a guest of any protocol: a place at the waiting room."""

    engine = "tarot"
    title = "MaîtreTarot"

    def __init__(self, server: TarotServer) -> None:
        super().__init__()
        self.server = server

    def seatFor(self, guest: Guest) -> TarotGuestSeat:
        return TarotGuestSeat(self.server, guest)

    def waitingRoom(self) -> TarotSession:
        return self.server.waitingRoom()

    def openRoom(self) -> TarotSession | None:
        return self.server.waiting


class TarotServer(GameServer[TarotSettings]):
    """
    Everything the MaîtreTarot connections share: settings, rooms, records.
    It owns its rooms (their bots, their start and end, the replay rule
    when a player leaves), hosts their tables on the hub, and opens them to
    guests of every protocol through its L{TarotMatchmaker}.
    """

    def __init__(
        self,
        settings: TarotSettings = TarotSettings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        hub: Hub | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng, hub=hub)
        self.waiting: TarotSession | None = None
        self.playing: set[TarotSession] = set()
        self.matchmaker = TarotMatchmaker(self)
        self.hub.addMatchmaker(self.matchmaker)

    def newPlayer(self, protocol: _Protocol) -> TarotPlayer:
        return TarotPlayer(self, protocol)

    def waitingRoom(self) -> TarotSession:
        """The room new players sit at."""
        if self.waiting is None or not self.waiting.open:
            self.waiting = TarotSession(self)
        return self.waiting

    waitingSession = waitingRoom

    def roomOf(self, table: Table) -> TarotSession | None:
        """The room playing ``table``."""
        for room in self.playing:
            if room.table is table:
                return room
        return None

    # -- RoomOwner -------------------------------------------------------------

    def newBot(self, room: Room, place: int) -> BotSeat:
        """A bot filling an empty place, or (the table started) a L{LeaverSeat}."""
        if room.table is None:
            return BotSeat(tarotBot, self.clock, botNick(place), self.settings.botDelay)
        assert isinstance(room, TarotSession)
        return LeaverSeat(self, room, place, room.table.holders[place])

    def started(self, room: Room, table: Table) -> None:
        assert isinstance(room, TarotSession)
        if self.waiting is room:
            self.waiting = None
        self.playing.add(room)
        self.matchmaker.started(room)
        self.hub.register(table, self)

    def ended(self, room: Room, table: Table) -> None:
        self.playing.discard(room)  # type: ignore[arg-type]

    def leaving(self, room: Room, table: Table, seat: Seat) -> bool:
        """A player leaving while its replay answer is awaited answers 0 (the document's rule)."""
        view = tarotGame(table).view(seat)
        if view.phase == "end" and view.replayAnswers[seat] is None:
            table.act(seat, {"replay": False})
            return True
        return False

    # -- TableHost -------------------------------------------------------------

    def vacate(self, table: Table, seat: Seat) -> None:
        """The holder of ``seat`` left ``table``: the replay rule, else a L{LeaverSeat}."""
        room = self.roomOf(table)
        if room is not None:
            room.vacate(seat, self.reclaimKey(table.holders[seat]))

    # -- taking a seat back ------------------------------------------------------

    def reclaimKey(self, holder: object) -> str | None:
        """The name the room keeps a seat under for ``holder``, if it may come back."""
        if isinstance(holder, TarotPlayer) and self.settings.reclaim != "off":
            return holder.nick
        return None

    def leftSeats(self) -> list[LeaverSeat]:
        """The seats that may be taken back now, those left first first."""
        seats = [holder for room in self.playing if room.table is not None
                 for holder in room.table.holders
                 if isinstance(holder, LeaverSeat) and holder.open()]
        return sorted(seats, key=lambda left: left.order)

    def seatLeftFrom(self, host: str | None) -> LeaverSeat | None:
        """The seat a player left from ``host`` (the first left), the one SEND_PLACE names."""
        if host is None:
            return None
        return next((left for left in self.leftSeats() if left.host == host), None)


class TarotServerFactory(GameServerFactory[TarotServer, MaitreTarotServerProtocol]):
    """Builds L{MaitreTarotServerProtocol} for each connection to one L{TarotServer}."""

    protocol = MaitreTarotServerProtocol
