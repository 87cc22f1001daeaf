"""
MaîtreTarot protocols: thin Twisted Protocols over the headerless codec.
The server side reads what its machine expects; the client side follows the
whole sequence and asks its hooks for each decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.games.tarot import (
    CHIEN_SIZE,
    DECK,
    OUDLERS,
    TarotView,
    botBid,
    botCard,
    botDiscard,
    discardable,
    isKing,
    isTrump,
    legalCards,
)
from gameproto.maitretarot import wire
from gameproto.maitretarot.machine import ClientInputs, ClientMachine
from gameproto.net import WireProtocol

if TYPE_CHECKING:
    from gameproto.maitretarot.server import TarotPlayer, TarotServerFactory

log = Logger(namespace="gameproto.maitretarot")

PLAYED_CARDS = len(DECK) - CHIEN_SIZE
"""The cards played in a deal: all but the chien (72, 18 tricks)."""


def discardFault(hand: Sequence[int], discard: Sequence[int]) -> str | None:
    """
    Why the server refuses ``discard`` from a taker holding ``hand`` (the
    chien taken in), None if it accepts it.  The FFT rules are stricter than
    the document, which only asks for six cards of the hand: no king, no
    oudler, and trumps only when the taker holds fewer than six other cards
    it may put aside, then exactly as many as it lacks.
    """
    chosen = set(discard)
    if len(discard) != CHIEN_SIZE or len(chosen) != CHIEN_SIZE:
        return "a discard is six different cards"
    if not chosen <= set(hand):
        return "a discard is made of cards of the hand (the chien taken in)"
    if any(isKing(c) for c in chosen):
        return "no king may be put aside"
    if chosen & OUDLERS:
        return "no oudler (the petit, the 21, the excuse) may be put aside"
    ordinary, _ = discardable(hand)
    needed = max(0, CHIEN_SIZE - len(ordinary))
    trumps = sum(1 for c in chosen if isTrump(c))
    # Never fewer than needed: six cards of the hand, no king and no oudler,
    # hold at most every ordinary card of the hand, and trumps for the rest.
    if trumps > needed:
        return (f"trumps only when there is no other choice: {needed} here"
                if needed else "no trump while other cards may be put aside")
    return None


class MaitreTarotServerProtocol(WireProtocol):
    """
    The server side of one MaîtreTarot connection.

    Hooks for subclasses (no-ops by default): L{identified} once the nick is
    read, L{messageReceived} / L{sendMessage} for every message in and out
    (call ``super()``).
    """

    factory: TarotServerFactory
    player: TarotPlayer
    logName = "maitretarot"
    serialize = staticmethod(wire.serialize)

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.Reader()
        self.connectionLine("maitretarot connection from {who}", who=self.peer)
        self.player = self.factory.server.newPlayer(self)

    def dataReceived(self, data: bytes) -> None:
        self._reader.feed(data)
        machine = self.player.machine
        while self.reading(self._reader.buffered):
            expect = machine.expected()
            if expect is None:
                if self._reader.buffered:
                    machine.unexpectedData()
                return
            message = self._reader.take(expect)
            if message is wire.NEED_MORE:
                if self._reader.overflowing:
                    self.dropConnection("too much data")
                return
            self.messageReceived(message)  # type: ignore[arg-type]

    def messageReceived(self, message: wire.Message) -> None:
        """Turn one client message into the machine's input."""
        machine = self.player.machine
        match message:
            case wire.GetId(serverId, _):
                if serverId == wire.SERVER_ID:
                    machine.idAccepted()
                else:
                    machine.idRefused()
            case wire.GetProtocol(accepted):
                if accepted == 1:
                    machine.protocolAccepted()
                else:
                    machine.protocolRefused()
            case wire.GetNickLen(length):
                if length == 0:
                    machine.defaultNick()
                elif 0 < length <= wire.NICK_LIMIT:
                    machine.nickLength(length)
                else:
                    machine.nickLengthRefused(length)
            case wire.GetNick(nick):
                machine.nickReceived(nick)
            case wire.GetBid(bid):
                machine.bidReceived(bid)
            case wire.GetChien(cards):
                machine.discardReceived(cards)
            case wire.GetTurnCard(card):
                machine.cardReceived(card)
            case wire.AckReplay(answer):
                machine.replayReceived(answer)

    def who(self) -> str:
        nick = getattr(getattr(self, "player", None), "nick", None)
        return nick or self.peer

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.connectionLine("maitretarot {who} disconnected", who=self.who())
        self.player.machine.connectionLost()

    # -- hooks ---------------------------------------------------------------

    def identified(self, nick: str, place: int) -> None:
        """
        The client sat down as ``nick`` at ``place`` (the seat it comes back
        to, when SEND_PLACE named one; under the ``nick`` rule, a client back
        from another address then moves to its old seat).
        """


class MaitreTarotClientProtocol(WireProtocol):
    """
    The client side of MaîtreTarot: identifies as ``nick`` (None: the
    place's default), follows the whole sequence (resumes included), keeps
    what the seat may know in L{view}, and asks its hooks for each decision.

    Decision hooks (a value or a Deferred; by default the library's bot):
    L{chooseBid}, L{chooseDiscard}, L{chooseCard}, L{playAgain}.
    News hooks (no-ops): L{identified}, L{nicksReceived}, L{dealt},
    L{bidsChanged}, L{contractMade}, L{chienShown}, L{trickChanged},
    L{refused}, L{scored}, L{tableEnded}, L{closing}.
    """

    logName = "maitretarot"
    serialize = staticmethod(wire.serialize)

    def __init__(self, nick: str | None = None) -> None:
        encoded = nick.encode("utf-8") if nick is not None else b""
        if nick is not None and not 0 < len(encoded) <= wire.NICK_LIMIT:
            raise ValueError(f"a MaîtreTarot nick is 1 to {wire.NICK_LIMIT} bytes: {nick!r}")
        self.nick = nick
        self.place = -1
        self.seat = -1
        self.nicks: list[str] = []
        self.totals: tuple[int, ...] = (0,) * 4
        self.lastScore: dict[str, object] | None = None
        self.deals = 0
        self._ticket = 0
        self._deciding: Callable[[TarotView], object] | None = None
        self._newDeal()
        self.machine: ClientInputs = ClientMachine(self)

    def _newDeal(self) -> None:
        self.hand: set[int] = set()
        self.bids: tuple[int, ...] = (wire.NO_BID,) * 4
        self.contract: int | None = None
        self.taker: int | None = None
        self.chien: tuple[int, ...] | None = None
        self.discard: tuple[int, ...] | None = None
        self.trick: tuple[int, ...] = (wire.NO_CARD,) * 4
        self.previousTrick: tuple[int, ...] = (wire.NO_CARD,) * 4
        self.leader: int | None = None
        self.dealer = 0
        self.played = 0
        """Cards of the deal played before the current one (as the machine last told)."""
        self.dealOver = False
        """Whether the server said the deal is over: its score, or a branch point past it."""

    # -- the transport side --------------------------------------------------

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.Reader(limit=1 << 16)
        self.machine.start()

    def dataReceived(self, data: bytes) -> None:
        self._reader.feed(data)
        while not self._closing:
            expect = self.machine.expected()
            if expect is None:
                if self._reader.overflowing:
                    self.machine.abort("the server sends too much")
                return
            message = self._reader.take(expect)
            if message is wire.NEED_MORE:
                return
            self.messageReceived(message)  # type: ignore[arg-type]

    def messageReceived(self, message: wire.ServerMessage) -> None:
        """Hand one server message to the machine."""
        machine = self.machine
        match message:
            case wire.SendId():
                machine.idReceived(message)
            case wire.SendProtocol():
                machine.protocolReceived(message)
            case wire.SendPlace():
                machine.placeReceived(message)
            case wire.SendNickLen():
                machine.nickLengthsReceived(message)
            case wire.SendNicks():
                machine.nicksReceived(message)
            case wire.BranchPoint():
                machine.branchReceived(message)
            case wire.DillCards():
                machine.handReceived(message)
            case wire.SendBids():
                machine.bidsReceived(message)
            case wire.AskBidQuestion():
                machine.bidQuestionReceived(message)
            case wire.SendFinalBids():
                machine.finalBidsReceived(message)
            case wire.ShowChien():
                machine.chienReceived(message)
            case wire.SendAckForChien():
                machine.chienAckReceived(message)
            case wire.SendTurnCards():
                machine.turnCardsReceived(message)
            case wire.SendTurnCardsQuestion():
                machine.cardQuestionReceived(message)
            case wire.SendAckForCard():
                machine.cardAckReceived(message)
            case wire.SendLastTurnCards():
                machine.lastTrickReceived(message)
            case wire.SendScore():
                machine.scoreReceived(message)
            case wire.ShowChienAtEnd():
                machine.chienAtEndReceived(message)
            case wire.SendReplayAnswer():
                machine.replayAnswerReceived(message)

    def who(self) -> str:
        return f"client {self.nick}"

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.machine.connectionLost()

    # -- what the seat knows -------------------------------------------------

    @property
    def phase(self) -> str:
        """
        Where the deal stands, in the rules' words (bidding, discard, play,
        end), from what this seat knows of it: its contract, the discard,
        the cards played and whether the deal is over.  The machine owns
        the sequence; this only names the part of it the seat is in.
        """
        if self.dealOver or self.contract == 0 or self.played >= PLAYED_CARDS:
            return "end"
        if self.contract is None:
            return "play" if self.played else "bidding"
        if (self.contract in (wire.PETITE, wire.GARDE) and self.discard is None
                and not self.played and self.leader is None):
            return "discard"
        return "play"

    def view(self) -> TarotView:
        """What this seat knows, in the rules' own form (what the hooks and the bot read)."""
        order = [(self.leader + i) % 4 for i in range(4)] if self.leader is not None else []
        inOrder = [self.trick[s] for s in order if self.trick[s] != wire.NO_CARD]
        myTurn = self.phase == "play" and self._deciding == self.chooseCard
        deciding = self._deciding in (self.chooseBid, self.chooseDiscard)
        return TarotView(
            seat=self.seat, phase=self.phase, dealer=self.dealer, deal=self.deals,
            hand=tuple(sorted(self.hand)), bids=self.bids, taker=self.taker,
            contract=self.contract, chien=self.chien, discard=self.discard, shownTrumps=(),
            trick=self.trick, leader=self.leader, previousTrick=self.previousTrick,
            toPlay=self.seat if myTurn or deciding else None,
            legalCards=legalCards(self.hand, inOrder) if myTurn else (),
            tricksPlayed=self.played // 4, totals=self.totals,
            lastScore=self.lastScore,  # type: ignore[arg-type]
            replayAnswers=(None,) * 4,
        )

    # -- ClientCore: reading -------------------------------------------------

    def sendId(self) -> None:
        self.sendMessage(wire.GetId(wire.SERVER_ID, wire.VERSION))

    def gotId(self, message: wire.SendId) -> None:
        if message.serverId == wire.WRONG_ID:
            self.machine.abort("the server refused our GET_ID")
        elif message.serverId != wire.SERVER_ID:
            self.machine.abort(f"not a gameproto MaîtreTarot server (id {message.serverId})")

    def gotProtocol(self, message: wire.SendProtocol) -> None:
        speaks = message.version == wire.PROTOCOL
        self.sendMessage(wire.GetProtocol(int(speaks)))
        if not speaks:
            self.machine.abort(f"protocol {message.version} is not 0.1")

    def gotPlace(self, message: wire.SendPlace) -> None:
        self.place = self.seat = message.place
        encoded = self.nick.encode("utf-8") if self.nick is not None else b""
        self.sendMessage(wire.GetNickLen(len(encoded)))
        if encoded:
            self.sendMessage(wire.GetNick(encoded))
        self.identified(self.place)

    def gotNickLengths(self, message: wire.SendNickLen) -> None:
        if any(not 0 <= n <= 1 << 12 for n in message.lengths):
            self.machine.abort("nick lengths out of range")

    def gotNicks(self, message: wire.SendNicks) -> None:
        self.nicks = [n.decode("utf-8", "replace") for n in message.nicks]
        if self.nick is not None and self.nick in self.nicks:
            self.seat = (self.place if self.nicks[self.place] == self.nick
                         else self.nicks.index(self.nick))
        self.nicksReceived(list(self.nicks))

    def gotBranch(self, message: wire.BranchPoint) -> None:
        point, value = message.point, message.value
        if point == wire.BP_NEW_GAME and value == 0:
            self.deals += 1
        if point != wire.BP_NEW_GAME or value == 0:
            self._newDeal()
        if point == wire.BP_SEND_TURN_CARD:
            self.played = value
        elif point == wire.BP_NEW_GAME and value in (1, 2):
            self.dealOver = True

    def gotHand(self, message: wire.DillCards) -> None:
        self.hand = {c for c in message.cards if 0 <= c < 78}
        self.dealt(tuple(sorted(self.hand)))

    def gotBids(self, message: wire.SendBids) -> None:
        spoken = [s for s, b in enumerate(message.bids) if b != wire.NO_BID]
        if len(spoken) == 1:
            self.dealer = (spoken[0] - 1) % 4
        self.bids = message.bids
        self.bidsChanged(self.bids)

    def gotBidQuestion(self, message: wire.AskBidQuestion) -> None:
        if message.ask and not any(b != wire.NO_BID for b in self.bids):
            self.dealer = (self.seat - 1) % 4

    def gotFinalBids(self, message: wire.SendFinalBids) -> None:
        self.bids = message.bids
        best = max(message.bids)
        self.contract = max(best, 0)
        self.taker = message.bids.index(best) if best > 0 else None
        self.contractMade(self.bids, self.taker, self.contract)

    def gotChien(self, message: wire.ShowChien) -> None:
        self.chien = message.cards
        self.chienShown(self.chien)

    def takeChien(self) -> None:
        self.hand |= set(self.chien or ())

    def discarded(self, cards: tuple[int, ...]) -> None:
        self.discard = cards
        self.hand -= set(cards)

    def gotTurnCards(self, message: wire.SendTurnCards, played: int) -> None:
        self.played = played
        self.trick, self.previousTrick = message.current, message.previous
        onTable = [s for s, c in enumerate(self.trick) if c != wire.NO_CARD]
        if len(onTable) == 1:
            self.leader = onTable[0]
        elif not onTable:
            self.leader = None
        self.trickChanged(self.trick, self.previousTrick)

    def gotCardQuestion(self, message: wire.SendTurnCardsQuestion) -> None:
        if message.ask and self.leader is None:
            self.leader = self.seat

    def cardAccepted(self, card: int) -> None:
        self.hand.discard(card)

    def gotLastTrick(self, message: wire.SendLastTurnCards) -> None:
        self.played = PLAYED_CARDS
        self.previousTrick = message.cards
        self.trick = (wire.NO_CARD,) * 4
        self.trickChanged(self.trick, self.previousTrick)

    def gotScore(self, message: wire.SendScore) -> None:
        self.dealOver = True
        self.totals = message.totals
        self.lastScore = {"contract": message.contract, "won": bool(message.won),
                          "points": message.points, "oudlers": message.oudlers,
                          "totals": list(message.totals)}

    def gotChienAtEnd(self, message: wire.ShowChienAtEnd) -> None:
        assert self.lastScore is not None
        self.lastScore["chien"] = list(message.cards)
        self.scored(dict(self.lastScore))

    # -- ClientCore: deciding ------------------------------------------------

    def _decide(self, hook: Callable[[TarotView], object]) -> None:
        self._ticket += 1
        ticket = self._ticket
        self._deciding = hook
        d = maybeDeferred(hook, self.view())

        def answer(value: object) -> None:
            if ticket == self._ticket:
                self._deciding = None
                self.machine.decided(value)

        d.addCallback(answer)
        d.addErrback(self._hookFailed)

    def _hookFailed(self, failure: Failure) -> None:
        log.failure("maitretarot client {nick}: a decision hook failed", failure, nick=self.nick)
        self.machine.abort("no decision")

    def askBid(self) -> None:
        self._decide(self.chooseBid)

    def askDiscard(self) -> None:
        self._decide(self.chooseDiscard)

    def askCard(self, played: int) -> None:
        self.played = played
        if self.leader is None:
            self.leader = self.seat
        self._decide(self.chooseCard)

    def askReplay(self) -> None:
        self._decide(self.playAgain)

    def sendBid(self, bid: object) -> None:
        self.sendMessage(wire.GetBid(int(bid)))  # type: ignore[call-overload]

    def sendDiscard(self, cards: tuple[int, ...]) -> None:
        self.sendMessage(wire.GetChien(cards))

    def sendCard(self, card: int) -> None:
        self.sendMessage(wire.GetTurnCard(card))

    def sendReplay(self, answer: object) -> None:
        self.sendMessage(wire.AckReplay(int(bool(answer))))

    def drop(self, reason: str) -> None:
        self._ticket += 1
        self.closing(reason)
        self.dropConnection(reason)

    def lost(self) -> None:
        self._ticket += 1

    # -- hooks ---------------------------------------------------------------

    def chooseBid(self, view: TarotView) -> int | Deferred[int]:
        """Our turn to bid: 0 pass .. 4 garde contre (not above the best so far: a pass)."""
        return botBid(view.hand, view.bids)

    def chooseDiscard(self, view: TarotView) -> Sequence[int] | Deferred[Sequence[int]]:
        """
        We took a petite or garde: six cards of ``view.hand`` (chien
        included) to put aside, under the FFT rules (see L{discardFault}).
        """
        return botDiscard(view.hand)

    def chooseCard(self, view: TarotView) -> int | Deferred[int]:
        """Our turn to play: one of ``view.legalCards``."""
        return botCard(view)

    def playAgain(self, view: TarotView) -> bool | Deferred[bool]:
        """After a deal: True for another one."""
        return True

    def identified(self, place: int) -> None:
        """SEND_PLACE: our place (the seat we come back to, after a disconnection)."""

    def nicksReceived(self, nicks: list[str]) -> None:
        """The four nicks, in place order; ``self.seat`` is ours."""

    def dealt(self, hand: tuple[int, ...]) -> None:
        """Our cards for this deal (what is left of them, on a resume)."""

    def bidsChanged(self, bids: tuple[int, ...]) -> None:
        """The bids so far, -1 for a place that has not spoken."""

    def contractMade(self, bids: tuple[int, ...], taker: int | None,
                     contract: int | None) -> None:
        """SEND_FINAL_BIDS: the four bids, the taker (None: all passed), the contract."""

    def chienShown(self, cards: tuple[int, ...]) -> None:
        """SHOW_CHIEN: the chien, for petite and garde (and when all passed)."""

    def trickChanged(self, current: tuple[int, ...], previous: tuple[int, ...]) -> None:
        """The current and the previous trick, by place (the last one too, at the end)."""

    def refused(self) -> None:
        """
        Our discard or card was refused; we are asked again.  A discard is
        refused under the FFT rules (L{discardFault} says why), which are
        stricter than the document's; the clock starts again for the next
        one.  A card is refused when it is not held or breaks the rules of
        play (L{TarotView.legalCards} lists the cards allowed).
        """

    def scored(self, score: dict[str, object]) -> None:
        """The deal's score: contract, won, points (the taker's, whole), oudlers, totals, chien."""

    def tableEnded(self) -> None:
        """SEND_REPLAY_ANSWER 0: the table is over."""

    def closing(self, reason: str) -> None:
        """We close the connection (refused, table over, the server's fault): ``reason`` says why."""
