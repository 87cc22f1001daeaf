"""
MaîtreTarot on the shared engine layer: rooms of four (players and bots),
each seat's connection following the sequence L{sequence} translates from
its table's updates, reconnection by nick, the matchmaker that seats a
player of any protocol at a MaîtreTarot table, and the factory.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from gameproto.engine.clock import Deadline, seconds
from gameproto.engine.contract import JSON, Errors, Instructions, Seat
from gameproto.engine.hub import Guest, Hub
from gameproto.engine.record import RecordStore
from gameproto.engine.room import Room, RoomMatchmaker
from gameproto.engine.service import GameServer
from gameproto.engine.table import BotSeat, SeatHolder, Table
from gameproto.games.tarot import TAROT, TarotGame, tarotBot
from gameproto.maitretarot import sequence, wire
from gameproto.maitretarot.machine import ServerInputs, ServerMachine
from gameproto.maitretarot.protocol import MaitreTarotServerProtocol
from gameproto.maitretarot.sequence import Signal
from gameproto.net import GameServerFactory

if TYPE_CHECKING:
    from gameproto.maitretarot.protocol import MaitreTarotServerProtocol as _Protocol

log = Logger(namespace="gameproto.maitretarot")

PLACES = 4


@attrs.frozen
class TarotSettings:
    """The server's knobs; times in seconds."""

    timeout: float = attrs.field(default=60.0, validator=seconds)
    """Time for each answer (and each identification step)."""
    botsAfter: float = attrs.field(default=30.0, validator=seconds)
    """How long a waiting table waits for players before bots fill it (0: at once)."""
    botDelay: float = attrs.field(default=0.0, validator=seconds)
    """How long a bot waits before each of its moves."""


def defaultNick(place: int) -> str:
    """The nick of a client that sends a nick length of 0."""
    return f"player{place + 1}"


def botNick(place: int) -> str:
    return f"bot{place + 1}"


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
        self.reclaimName: str | None = None
        """The nick the client chose, by which it may take its seat back (None: a default nick)."""
        self.session: TarotSession | None = None
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
        self._emit(sequence.firstUpdate(
            [h.name for h in table.holders], game.view(seat), game.publicState(),
            instructions.asks(seat), instructions.game_state.gameover, resumed))

    def follow(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        self._emit(sequence.nextUpdate(
            instructions.events, seat, tarotGame(table).publicState(), instructions.asks(seat),
            instructions.game_state.gameover))

    def _emit(self, outputs: Iterable[sequence.Output]) -> None:
        machine = self.machine
        for output in outputs:
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
                case _:
                    self.send(output)

    # -- ServerCore ----------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.protocol.sendMessage(message)

    def welcome(self) -> None:
        self.send(wire.SendId(wire.SERVER_ID, wire.VERSION))
        self.send(wire.SendProtocol(wire.PROTOCOL))

    def refuseId(self) -> None:
        self.send(wire.SendId(wire.WRONG_ID, wire.VERSION))

    def takePlace(self) -> None:
        self.session = self.server.waitingRoom()
        self.place = self.session.takePlace(self)
        self.send(wire.SendPlace(self.place))

    def join(self, nick: bytes | None) -> None:
        if nick is None:
            self.nick = defaultNick(self.place)
        else:
            self.nick = self.reclaimName = nick.decode("utf-8", "replace")
        self.protocol.identified(self.nick, self.place)
        if self.reclaimName is not None and self.server.reclaim(self):
            return
        assert self.session is not None
        self.session.markReady(self)

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

    def cleanUp(self) -> None:
        self._timer.cancel()
        session, self.session = self.session, None
        if session is not None:
            session.leave(self, self.reclaimName)


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
        """The four nicks, in place order."""
        return [n or defaultNick(p) for p, n in enumerate(self.names())]

    def identified(self, holder: SeatHolder) -> None:
        """``holder`` sat down (identified): the table starts once all four have."""
        self.markReady(holder)


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
        return BotSeat(tarotBot, self.clock, botNick(place), self.settings.botDelay)

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
        """The holder of ``seat`` left ``table``: the replay rule, else a bot, reclaimable by nick."""
        room = self.roomOf(table)
        if room is not None:
            holder = table.holders[seat]
            room.vacate(seat, holder.reclaimName if isinstance(holder, TarotPlayer) else None)

    # -- reconnection ----------------------------------------------------------

    def reclaim(self, player: TarotPlayer) -> bool:
        """Give ``player`` back the seat its nick left, if a live table has one."""
        if player.reclaimName is None:
            return False
        for room in list(self.playing):
            seat = room.vacatedSeat(player.reclaimName)
            if seat is None:
                continue
            assert room.table is not None
            old = player.session
            if old is not None:
                old.leave(player)
            player.session, player.place = room, seat
            player.machine.reclaimed()
            log.info("maitretarot {nick} takes place {place} of game {id} back",
                     nick=player.reclaimName, place=seat, id=room.table.id)
            room.reclaim(seat, player)
            return True
        return False


class TarotServerFactory(GameServerFactory[TarotServer, MaitreTarotServerProtocol]):
    """Builds L{MaitreTarotServerProtocol} for each connection to one L{TarotServer}."""

    protocol = MaitreTarotServerProtocol
