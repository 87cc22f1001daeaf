"""
MaîtreTarot on the shared engine layer: tables of four (players and bots),
the seat adapter that turns a table's updates into the protocol's sequence,
reconnection, and the factory.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import Factory
from twisted.logger import Logger

from gameproto.engine.clock import Deadline, seconds
from gameproto.engine.contract import Errors, Event, Instructions, Seat
from gameproto.engine.record import RecordStore
from gameproto.engine.service import GameServer
from gameproto.engine.table import BotSeat, SeatHolder, Table
from gameproto.games.tarot import TAROT, TarotView, tarotBot
from gameproto.maitretarot import wire
from gameproto.maitretarot.machine import ServerInputs, ServerMachine
from gameproto.maitretarot.protocol import MaitreTarotServerProtocol

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


def _padded(cards: Sequence[int], size: int) -> tuple[int, ...]:
    return tuple(cards)[:size] + (wire.NO_CARD,) * (size - len(cards))


class TarotPlayer:
    """
    One connection's player: the core of its L{ServerMachine} and, once its
    table plays, the L{SeatHolder} of its place.
    """

    def __init__(self, server: TarotServer, protocol: _Protocol) -> None:
        self.server = server
        self.protocol = protocol
        self.nick: str | None = None
        self.reclaimable = False
        self.session: TarotSession | None = None
        self.place: int = -1
        self.nickExpectation: wire.Expect | None = None
        self._fresh = True
        self.resuming = False
        self._lastTrick: tuple[int, ...] = (wire.NO_CARD,) * PLACES
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
        if table.holders[seat] is not self:
            return
        if self._fresh:
            self._fresh = False
            self._sendStart(table.engine.view(seat))
        else:
            for event in instructions.events:
                self._translate(event, seat)
        if not instructions.game_state.gameover:
            self._ask(instructions, table.engine.publicState(), seat)

    def _sendStart(self, view: TarotView) -> None:
        """Nicks, the branch point and what the seat needs to join the sequence here."""
        assert self.session is not None
        send = self.send
        nicks = wire.SendNicks(tuple(n.encode("utf-8") for n in self.session.nicks()))
        send(nicks.lengths())
        send(nicks)
        hand = tuple(view.hand)
        resuming, self.resuming = self.resuming, False
        if view.phase == "end" and not resuming:
            # The first deal of the table was void: it starts and ends at once.
            send(wire.BranchPoint(wire.BP_NEW_GAME, 0))
            send(wire.DillCards(_padded(hand, 18)))
            self._sendScore(view.lastScore)
        elif view.phase == "bidding":
            spoken = sum(1 for b in view.bids if b != wire.NO_BID)
            send(wire.BranchPoint(wire.BP_NEW_GAME, 0) if spoken == 0
                 else wire.BranchPoint(wire.BP_SEND_BIDS, spoken))
            send(wire.DillCards(_padded(hand, 18)))
        elif view.phase == "discard":
            chien = tuple(view.chien or ())
            dealt = tuple(c for c in hand if c not in chien) if len(hand) > 18 else hand
            send(wire.BranchPoint(wire.BP_GET_CHIEN, 0))
            send(wire.DillCards(_padded(dealt, 18)))
            send(wire.SendFinalBids(tuple(max(b, 0) for b in view.bids)))
            if chien:
                send(wire.ShowChien(chien))
        elif view.phase == "play":
            played = 4 * view.tricksPlayed + sum(1 for c in view.trick if c != wire.NO_CARD)
            send(wire.BranchPoint(wire.BP_SEND_TURN_CARD, played))
            send(wire.DillCards(_padded(hand, 18)))
            send(wire.SendFinalBids(tuple(max(b, 0) for b in view.bids)))
        elif view.phase == "end":
            if view.replayAnswers[view.seat] is None:
                send(wire.BranchPoint(wire.BP_NEW_GAME, 1))
                self._sendScore(view.lastScore)
            else:
                send(wire.BranchPoint(wire.BP_NEW_GAME, 2))

    def _sendScore(self, score: dict | None) -> None:  # type: ignore[type-arg]
        score = score or {}

        def number(key: str) -> int:
            value = score.get(key)
            return int(value) if value is not None else 0

        self.send(wire.SendScore(
            number("contract") if score.get("taker") is not None else wire.PASS,
            number("won"), number("points"), number("oudlers"),
            tuple(score.get("totals") or (0,) * PLACES)))
        self.send(wire.ShowChienAtEnd(_padded(tuple(score.get("chien") or ()), 6)))

    def _translate(self, event: Event, seat: Seat) -> None:
        send = self.send
        data = event.data
        match event.kind:
            case "dealt":
                if data.get("deal", 1) > 1:
                    send(wire.SendReplayAnswer(1))
                send(wire.BranchPoint(wire.BP_NEW_GAME, 0))
            case "deal":
                send(wire.DillCards(tuple(data)))
            case "bids":
                send(wire.SendFinalBids(tuple(data)))
            case "chien":
                send(wire.ShowChien(tuple(data)))
            case "discard" if event.seat == seat:
                send(wire.SendAckForChien(1))
                self.machine.accepted()
            case "card" if event.seat == seat:
                send(wire.SendAckForCard(1))
                self.machine.accepted()
            case "trick":
                self._lastTrick = tuple(data["cards"])
            case "score":
                if data.get("reason") == "played":
                    send(wire.SendLastTurnCards(self._lastTrick))
                self._sendScore(data)
            case "end":
                send(wire.SendReplayAnswer(0))
                self.machine.tableEnded()

    def _ask(self, instructions: Instructions,
             public: tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]],
             seat: Seat) -> None:
        """Every seat hears who must act now; the one asked is told to answer."""
        phase, bids, trick, previousTrick = public
        asked = instructions.asks(seat)
        if phase == "bidding":
            self.send(wire.SendBids(bids))
            self.send(wire.AskBidQuestion(int(asked)))
            if asked:
                self.machine.askBid()
        elif phase == "discard":
            if asked:
                self.machine.askDiscard()
        elif phase == "play":
            self.send(wire.SendTurnCards(trick, previousTrick))
            self.send(wire.SendTurnCardsQuestion(int(asked)))
            if asked:
                self.machine.askCard()
        elif phase == "end" and asked:
            self.machine.askReplay()

    # -- ServerCore ----------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.protocol.sendMessage(message)

    def welcome(self) -> None:
        self.send(wire.SendId(wire.SERVER_ID, wire.VERSION))
        self.send(wire.SendProtocol(wire.PROTOCOL))

    def refuseId(self) -> None:
        self.send(wire.SendId(wire.WRONG_ID, wire.VERSION))

    def takePlace(self) -> None:
        self.session = self.server.waitingSession()
        self.place = self.session.takePlace(self)
        self.send(wire.SendPlace(self.place))

    def join(self, nick: bytes | None) -> None:
        if nick is None:
            self.nick = defaultNick(self.place)
        else:
            self.nick = nick.decode("utf-8", "replace")
            self.reclaimable = True
        self.protocol.identified(self.nick, self.place)
        if self.reclaimable and self.server.reclaim(self):
            return
        assert self.session is not None
        self.session.identified(self)

    def startTimer(self) -> None:
        self._timer.start(self.server.settings.timeout, self.machine.timedOut)

    def stopTimer(self) -> None:
        self._timer.cancel()

    def _act(self, action: dict) -> Instructions | Errors:  # type: ignore[type-arg]
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

    def drop(self, reason: str) -> None:
        self.cleanUp()
        self.protocol.dropConnection(reason)

    def cleanUp(self) -> None:
        self._timer.cancel()
        session, self.session = self.session, None
        if session is not None:
            session.leave(self)


class TarotSession:
    """
    One table: places filled by players as they identify, bots for the
    rest, then a L{Table} of the tarot engine deal after deal.
    """

    def __init__(self, server: TarotServer) -> None:
        self.server = server
        self.places: list[SeatHolder | None] = [None] * PLACES
        self.ready: set[int] = set()
        self.table: Table | None = None
        self.vacated: dict[int, str] = {}
        self._botTimer = Deadline(server.clock)

    def nicks(self) -> list[str]:
        """The four nicks, in place order."""
        holders = self.table.holders if self.table is not None else self.places
        return [h.name if h is not None else defaultNick(p) for p, h in enumerate(holders)]

    @property
    def open(self) -> bool:
        return self.table is None and None in self.places

    def takePlace(self, player: TarotPlayer) -> int:
        place = self.places.index(None)
        self.places[place] = player
        if not self._botTimer.active:
            self._botTimer.start(self.server.settings.botsAfter, self._fillWithBots)
        return place

    def identified(self, player: TarotPlayer) -> None:
        self.ready.add(player.place)
        self._startIfFull()

    def _fillWithBots(self) -> None:
        for place, holder in enumerate(self.places):
            if holder is None:
                self.places[place] = self.server.newBot(place)
                self.ready.add(place)
        self._startIfFull()

    def _startIfFull(self) -> None:
        if self.table is not None or len(self.ready) < PLACES:
            return
        self._botTimer.cancel()
        holders = [h for h in self.places]
        assert all(h is not None for h in holders)
        self.table = Table.create(TAROT, {}, holders, self.server.clock,  # type: ignore[arg-type]
                                  self.server.store, self.server.rng)
        self.server.started(self)
        self.table.whenFinished().addCallback(lambda record: self.server.ended(self))
        self.table.start()

    def leave(self, player: TarotPlayer) -> None:
        """``player``'s connection is gone (or dropped)."""
        place = player.place
        if self.table is None:
            if self.places[place] is player:
                self.places[place] = None
                self.ready.discard(place)
            if all(h is None or isinstance(h, BotSeat) for h in self.places):
                self._botTimer.cancel()
                self.places = [None] * PLACES
                self.ready.clear()
            elif any(isinstance(h, BotSeat) for h in self.places):
                self._fillWithBots()  # the wait is over: a bot takes the freed place
            return
        table = self.table
        if table.finished or table.holders[place] is not player:
            return
        view: TarotView = table.engine.view(place)
        if view.phase == "end" and view.replayAnswers[place] is None:
            table.act(place, {"replay": False})  # a disconnect answers 0
            return
        if player.reclaimable and player.nick is not None:
            self.vacated[place] = player.nick
        table.replace(place, self.server.newBot(place))
        if all(isinstance(h, BotSeat) for h in table.holders):
            log.info("game {id}: no player left, the table ends", id=table.id)
            table.resign(place)

    def reclaim(self, player: TarotPlayer, place: int) -> None:
        """``player`` comes back to ``place``, held by a bot since it left."""
        assert self.table is not None
        del self.vacated[place]
        player.session, player.place = self, place
        player.resuming = True
        self.table.replace(place, player)


class TarotServer(GameServer[TarotSettings]):
    """Everything the MaîtreTarot connections share: settings, tables, records."""

    def __init__(
        self,
        settings: TarotSettings = TarotSettings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng)
        self.waiting: TarotSession | None = None
        self.playing: set[TarotSession] = set()

    def newPlayer(self, protocol: _Protocol) -> TarotPlayer:
        return TarotPlayer(self, protocol)

    def newBot(self, place: int) -> BotSeat:
        return BotSeat(tarotBot, self.clock, botNick(place), self.settings.botDelay)

    def waitingSession(self) -> TarotSession:
        """The table new players sit at."""
        if self.waiting is None or not self.waiting.open:
            self.waiting = TarotSession(self)
        return self.waiting

    def started(self, session: TarotSession) -> None:
        if self.waiting is session:
            self.waiting = None
        self.playing.add(session)

    def ended(self, session: TarotSession) -> None:
        self.playing.discard(session)

    def reclaim(self, player: TarotPlayer) -> bool:
        """Give ``player`` back the seat its nick left, if a live table has one."""
        for session in list(self.playing):
            for place, nick in session.vacated.items():
                if nick == player.nick and session.table is not None and not session.table.finished:
                    old = player.session
                    if old is not None:
                        old.leave(player)
                    session.reclaim(player, place)
                    log.info("maitretarot {nick} takes place {place} of game {id} back",
                             nick=nick, place=place, id=session.table.id)
                    return True
        return False


class TarotServerFactory(Factory):
    """Builds L{MaitreTarotServerProtocol} for each connection to one L{TarotServer}."""

    protocol = MaitreTarotServerProtocol
    noisy = False

    def __init__(self, server: TarotServer) -> None:
        self.server = server
