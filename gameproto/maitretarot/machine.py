"""
The MaîtreTarot sequence of one server connection, as an Automat machine.

With no headers on the wire, the machine is what says how many values to
read next: each state names the message the server expects (L{expected}),
or none, in which case any byte from the client is a protocol violation.
What the server *sends* during a deal is translated from the table's
updates by L{gameproto.maitretarot.sequence}; where the connection stands in
that sequence (waiting for its table, taking a seat back, asked to play...)
is this machine's state.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs
from automat import TypeMachine, TypeMachineBuilder

from gameproto.engine.contract import Instructions, Seat
from gameproto.engine.table import Table
from gameproto.machines import indexed
from gameproto.maitretarot import wire


from gameproto.machines import stateName as stateName


class ServerInputs(Protocol):
    """What can happen to a server connection."""

    def expected(self) -> wire.Expect | None:
        "The message to read now, None when the client must stay silent."

    def idAccepted(self) -> None:
        "GET_ID named this server."

    def idRefused(self) -> None:
        "GET_ID named another server."

    def protocolAccepted(self) -> None:
        "GET_PROTOCOL said 1."

    def protocolRefused(self) -> None:
        "GET_PROTOCOL said anything else."

    def nickLength(self, length: int) -> None:
        "GET_NICK_LEN with a usable length (1..NICK_LIMIT)."

    def defaultNick(self) -> None:
        "GET_NICK_LEN of 0: the place's default nick."

    def nickLengthRefused(self, length: int) -> None:
        "GET_NICK_LEN negative or over the limit."

    def nickReceived(self, nick: bytes) -> None:
        "GET_NICK."

    def reclaimed(self) -> None:
        "The client takes back a seat it left: its first update comes where the sequence can start."

    def placeKept(self) -> None:
        "SEND_PLACE named a seat left from this address, and this nick is not the one that left it."

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        "The table moved on (the first update: the table started, or the seat came back)."

    def askBid(self) -> None:
        "The table asks this seat to bid (ASK_BID_QUESTION 1 was sent)."

    def bidReceived(self, bid: int) -> None:
        "GET_BID."

    def askDiscard(self) -> None:
        "The table waits for this taker's discard."

    def discardReceived(self, cards: tuple[int, ...]) -> None:
        "GET_CHIEN."

    def askCard(self) -> None:
        "The table asks this seat for a card (SEND_TURN_CARDS_QUESTION 1 was sent)."

    def cardReceived(self, card: int) -> None:
        "GET_TURN_CARD."

    def accepted(self) -> None:
        "The discard or card just sent was accepted (its ACK 1 was sent)."

    def refused(self) -> None:
        "The discard or card just sent was refused."

    def askReplay(self) -> None:
        "The deal is over: the table waits for ACK_REPLAY."

    def replayReceived(self, answer: int) -> None:
        "ACK_REPLAY."

    def tableEnded(self) -> None:
        "SEND_REPLAY_ANSWER 0 was sent, or the table a client came back to ended: it is over."

    def forfeited(self) -> None:
        "The bot's move for a slow client was told: close."

    def timedOut(self) -> None:
        "The wait of the current state ran out."

    def unexpectedData(self) -> None:
        "Bytes came while the client had to stay silent."

    def connectionLost(self) -> None:
        "The connection is gone."


class ServerCore(Protocol):
    """The effects the server machine asks for."""

    def send(self, message: wire.Message) -> None:
        "Write one message."

    def welcome(self) -> None:
        "Send SEND_ID and SEND_PROTOCOL."

    def refuseId(self) -> None:
        "Send SEND_ID with -1."

    def takePlace(self) -> None:
        "Take a place at a waiting table and send SEND_PLACE."

    def join(self, nick: bytes | None) -> None:
        "Sit with ``nick`` (None: the place's default), or take a vacated seat back."

    def begin(self, table: Table, seat: Seat, instructions: Instructions, resumed: bool) -> None:
        "The first update: nicks, the branch point, what follows (L{sequence.firstUpdate})."

    def follow(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        "A later update: what the seat is told of it (L{sequence.nextUpdate})."

    def startTimer(self) -> None:
        "Start the wait for the client's next message (identification only)."

    def stopTimer(self) -> None:
        "Cancel the identification wait."

    def submitBid(self, bid: int) -> None:
        "Bid (an invalid bid counts as a pass)."

    def submitDiscard(self, cards: tuple[int, ...]) -> None:
        "Discard; answer with accepted (from the table's update) or refused."

    def restartClock(self) -> None:
        "A fresh time for the seat's answer (its discard was refused: it sends another)."

    def submitCard(self, card: int) -> None:
        "Play; answer with accepted (from the table's update) or refused."

    def submitReplay(self, answer: int) -> None:
        "Answer the replay question."

    def playForMe(self) -> None:
        "The client let its time pass: a bot plays this move; then L{ServerInputs.forfeited}."

    def drop(self, reason: str) -> None:
        "Hand the seat over (or answer 0 to the replay question), close, log one line."

    def cleanUp(self) -> None:
        "The connection is gone: the same hand-over as drop."

    def end(self) -> None:
        "The table is over: close, not a fault of the client."


def _nickExpectation(machine: ServerInputs, core: ServerCore, length: int) -> wire.Expect:
    """The data of ``awaitingNick``: GET_NICK of the length GET_NICK_LEN announced."""
    return wire.Expect(wire.GetNick, length)


def _build() -> TypeMachine[ServerInputs, ServerCore]:
    # The core is a Protocol that the connection's player implements (mypy #4717).
    builder = TypeMachineBuilder(ServerInputs, ServerCore)  # type: ignore[type-abstract]
    awaitingId = builder.state("awaitingId")
    awaitingProtocol = builder.state("awaitingProtocol")
    awaitingNickLength = builder.state("awaitingNickLength")
    awaitingNick = builder.state("awaitingNick", _nickExpectation)
    waitingTable = builder.state("waitingTable")
    rejoining = builder.state("rejoining")
    seated = builder.state("seated")
    bidding = builder.state("bidding")
    discarding = builder.state("discarding")
    judgingDiscard = builder.state("judgingDiscard")
    playing = builder.state("playing")
    judgingCard = builder.state("judgingCard")
    forfeiting = builder.state("forfeiting")
    replaying = builder.state("replaying")
    closed = builder.state("closed")

    expectations = {
        awaitingId: wire.Expect(wire.GetId),
        awaitingProtocol: wire.Expect(wire.GetProtocol),
        awaitingNickLength: wire.Expect(wire.GetNickLen),
        bidding: wire.Expect(wire.GetBid),
        discarding: wire.Expect(wire.GetChien),
        playing: wire.Expect(wire.GetTurnCard),
        replaying: wire.Expect(wire.AckReplay),
    }
    for state, expect in expectations.items():
        state.upon(ServerInputs.expected).loop().returns(expect)
    silent = (waitingTable, rejoining, seated, judgingDiscard, judgingCard, forfeiting, closed)
    for state in silent:
        state.upon(ServerInputs.expected).loop().returns(None)

    @awaitingNick.upon(ServerInputs.expected).loop()
    def nickExpected(machine: ServerInputs, core: ServerCore,
                     expectation: wire.Expect) -> wire.Expect | None:
        return expectation

    # Identification (table 3).
    @awaitingId.upon(ServerInputs.idAccepted).to(awaitingProtocol)
    def idAccepted(machine: ServerInputs, core: ServerCore) -> None:
        core.welcome()
        core.startTimer()

    @awaitingId.upon(ServerInputs.idRefused).to(closed)
    def idRefused(machine: ServerInputs, core: ServerCore) -> None:
        core.refuseId()
        core.drop("GET_ID names another server")

    @awaitingProtocol.upon(ServerInputs.protocolAccepted).to(awaitingNickLength)
    def protocolAccepted(machine: ServerInputs, core: ServerCore) -> None:
        core.takePlace()
        core.startTimer()

    @awaitingProtocol.upon(ServerInputs.protocolRefused).to(closed)
    def protocolRefused(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("the client does not speak protocol 0.1")

    @awaitingNickLength.upon(ServerInputs.nickLength).to(awaitingNick)
    def nickLength(machine: ServerInputs, core: ServerCore, length: int) -> None:
        core.startTimer()

    @awaitingNickLength.upon(ServerInputs.defaultNick).to(waitingTable)
    def defaultNick(machine: ServerInputs, core: ServerCore) -> None:
        core.stopTimer()
        core.join(None)

    @awaitingNickLength.upon(ServerInputs.nickLengthRefused).to(closed)
    def nickLengthRefused(machine: ServerInputs, core: ServerCore, length: int) -> None:
        core.drop(f"nick length {length} out of 0..{wire.NICK_LIMIT}")

    @awaitingNick.upon(ServerInputs.nickReceived).to(waitingTable)
    def nickReceived(machine: ServerInputs, core: ServerCore, expectation: wire.Expect,
                     nick: bytes) -> None:
        core.stopTimer()
        core.join(nick)

    @awaitingId.upon(ServerInputs.timedOut).to(closed)
    @awaitingProtocol.upon(ServerInputs.timedOut).to(closed)
    @awaitingNickLength.upon(ServerInputs.timedOut).to(closed)
    def identificationTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("identification not finished in time")

    @awaitingNick.upon(ServerInputs.timedOut).to(closed)
    def nickTimeout(machine: ServerInputs, core: ServerCore, expectation: wire.Expect) -> None:
        core.drop("identification not finished in time")

    # Joining the table: its first update starts the sequence, or resumes it.
    waitingTable.upon(ServerInputs.reclaimed).to(rejoining).returns(None)

    @waitingTable.upon(ServerInputs.placeKept).to(closed)
    def placeKept(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("its place is kept for the player who left it from this address")

    @rejoining.upon(ServerInputs.tableEnded).to(closed)
    def endedBeforeResuming(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("the table it came back to is over")

    @waitingTable.upon(ServerInputs.update).to(seated)
    def begin(machine: ServerInputs, core: ServerCore, table: Table, seat: Seat,
              instructions: Instructions) -> None:
        core.begin(table, seat, instructions, False)

    @rejoining.upon(ServerInputs.update).to(seated)
    def resume(machine: ServerInputs, core: ServerCore, table: Table, seat: Seat,
               instructions: Instructions) -> None:
        core.begin(table, seat, instructions, True)

    # The deal: the table asks, the client answers.
    @seated.upon(ServerInputs.update).loop()
    @bidding.upon(ServerInputs.update).loop()
    @discarding.upon(ServerInputs.update).loop()
    @judgingDiscard.upon(ServerInputs.update).loop()
    @playing.upon(ServerInputs.update).loop()
    @judgingCard.upon(ServerInputs.update).loop()
    @replaying.upon(ServerInputs.update).loop()
    def follow(machine: ServerInputs, core: ServerCore, table: Table, seat: Seat,
               instructions: Instructions) -> None:
        core.follow(table, seat, instructions)

    seated.upon(ServerInputs.askBid).to(bidding).returns(None)
    seated.upon(ServerInputs.askDiscard).to(discarding).returns(None)
    seated.upon(ServerInputs.askCard).to(playing).returns(None)
    seated.upon(ServerInputs.askReplay).to(replaying).returns(None)
    replaying.upon(ServerInputs.askReplay).loop().returns(None)

    @bidding.upon(ServerInputs.bidReceived).to(seated)
    def bid(machine: ServerInputs, core: ServerCore, bid: int) -> None:
        core.submitBid(bid)

    @discarding.upon(ServerInputs.discardReceived).to(judgingDiscard)
    def discard(machine: ServerInputs, core: ServerCore, cards: tuple[int, ...]) -> None:
        core.submitDiscard(cards)

    judgingDiscard.upon(ServerInputs.accepted).to(seated).returns(None)

    @judgingDiscard.upon(ServerInputs.refused).to(discarding)
    def discardRefused(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.SendAckForChien(0))
        core.restartClock()

    @playing.upon(ServerInputs.cardReceived).to(judgingCard)
    def card(machine: ServerInputs, core: ServerCore, card: int) -> None:
        core.submitCard(card)

    judgingCard.upon(ServerInputs.accepted).to(seated).returns(None)

    @judgingCard.upon(ServerInputs.refused).to(playing)
    def cardRefused(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.SendAckForCard(0))

    @replaying.upon(ServerInputs.replayReceived).to(seated)
    def replay(machine: ServerInputs, core: ServerCore, answer: int) -> None:
        core.submitReplay(answer)

    @bidding.upon(ServerInputs.timedOut).to(forfeiting)
    @discarding.upon(ServerInputs.timedOut).to(forfeiting)
    @playing.upon(ServerInputs.timedOut).to(forfeiting)
    def moveTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.playForMe()

    @forfeiting.upon(ServerInputs.forfeited).to(closed)
    def forfeited(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("no answer in time: a bot plays the seat")

    # A seat given up to the bot is told nothing more (not the bot's move, nor
    # a question after it): its connection closes, as after a disconnection.
    forfeiting.upon(ServerInputs.update).loop().returns(None)
    for signal in (ServerInputs.askBid, ServerInputs.askDiscard, ServerInputs.askCard,
                   ServerInputs.askReplay, ServerInputs.accepted, ServerInputs.refused,
                   ServerInputs.tableEnded):
        forfeiting.upon(signal).loop().returns(None)

    @replaying.upon(ServerInputs.timedOut).to(closed)
    def replayTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("no ACK_REPLAY in time")

    @seated.upon(ServerInputs.tableEnded).to(closed)
    def ended(machine: ServerInputs, core: ServerCore) -> None:
        core.end()

    # Timers that fired as a phase ended are harmless.
    for state in silent:
        state.upon(ServerInputs.timedOut).loop().returns(None)

    for state in (awaitingId, awaitingProtocol, awaitingNickLength, waitingTable, rejoining,
                  seated, bidding, discarding, judgingDiscard, playing, judgingCard, forfeiting,
                  replaying):
        @state.upon(ServerInputs.unexpectedData).to(closed)
        def unexpected(machine: ServerInputs, core: ServerCore) -> None:
            core.drop("data sent out of sequence")

        @state.upon(ServerInputs.connectionLost).to(closed)
        def lost(machine: ServerInputs, core: ServerCore) -> None:
            core.stopTimer()
            core.cleanUp()

    @awaitingNick.upon(ServerInputs.unexpectedData).to(closed)
    def unexpectedNick(machine: ServerInputs, core: ServerCore, expectation: wire.Expect) -> None:
        core.drop("data sent out of sequence")

    @awaitingNick.upon(ServerInputs.connectionLost).to(closed)
    def lostNick(machine: ServerInputs, core: ServerCore, expectation: wire.Expect) -> None:
        core.stopTimer()
        core.cleanUp()

    # Updates before the table exists cannot come; after the end they are ignored.
    for state in (awaitingId, awaitingProtocol, awaitingNickLength, closed):
        @state.upon(ServerInputs.update).loop()
        def ignored(machine: ServerInputs, core: ServerCore, table: Table, seat: Seat,
                    instructions: Instructions) -> None:
            pass

    for nothing in (ServerInputs.idAccepted, ServerInputs.idRefused,
                    ServerInputs.protocolAccepted, ServerInputs.protocolRefused,
                    ServerInputs.defaultNick, ServerInputs.askBid, ServerInputs.askDiscard,
                    ServerInputs.askCard, ServerInputs.accepted, ServerInputs.refused,
                    ServerInputs.askReplay, ServerInputs.tableEnded, ServerInputs.reclaimed,
                    ServerInputs.placeKept,
                    ServerInputs.forfeited, ServerInputs.unexpectedData,
                    ServerInputs.connectionLost):
        closed.upon(nothing).loop().returns(None)

    @closed.upon(ServerInputs.nickLength).loop()
    @closed.upon(ServerInputs.nickLengthRefused).loop()
    def ignoredLength(machine: ServerInputs, core: ServerCore, length: int) -> None:
        pass

    @closed.upon(ServerInputs.bidReceived).loop()
    def ignoredBid(machine: ServerInputs, core: ServerCore, bid: int) -> None:
        pass

    @closed.upon(ServerInputs.cardReceived).loop()
    def ignoredCard(machine: ServerInputs, core: ServerCore, card: int) -> None:
        pass

    @closed.upon(ServerInputs.replayReceived).loop()
    def ignoredAnswer(machine: ServerInputs, core: ServerCore, answer: int) -> None:
        pass

    @closed.upon(ServerInputs.nickReceived).loop()
    def ignoredNick(machine: ServerInputs, core: ServerCore, nick: bytes) -> None:
        pass

    @closed.upon(ServerInputs.discardReceived).loop()
    def ignoredDiscard(machine: ServerInputs, core: ServerCore, cards: tuple[int, ...]) -> None:
        pass

    return builder.build()


ServerMachine = indexed(_build())
"""Build one with ``ServerMachine(core)``; it starts in ``awaitingId``."""


# -- client side ---------------------------------------------------------------
#
# The client follows the whole sequence itself: after each message it reads,
# the machine decides what comes next from the message and from the data of
# the state it is in (where the deal was joined, how many places have bid,
# how many cards are played, the discard or card awaiting its ACK).  A read
# that branches goes to an ``after*`` state, from which the machine's own
# branch input (carrying the next state's data) moves on at once; the core
# only keeps what the seat knows and runs the hooks.


@attrs.frozen
class Entry:
    """Where the client joined the current deal: the branch point read."""

    point: int = wire.BP_NEW_GAME
    value: int = 0


@attrs.frozen
class Bidding:
    """How many places have spoken before this bid question."""

    rounds: int


@attrs.frozen
class Taken:
    """The contract (0: all passed) and the taker, once SEND_FINAL_BIDS is read."""

    contract: int
    taker: int | None


@attrs.frozen
class Playing:
    """How many cards of the deal were played before the next one."""

    played: int


@attrs.frozen
class CardSent:
    """The card awaiting its SEND_ACK_FOR_CARD, as the ``played``-th of the deal."""

    played: int
    card: int


def spoken(bids: tuple[int, ...]) -> int:
    """How many places have bid, in a SEND_BIDS."""
    return sum(1 for b in bids if b != wire.NO_BID)


def discardOf(value: object) -> tuple[int, ...]:
    """The discard a hook decided, as gints."""
    return tuple(int(c) for c in value)  # type: ignore[attr-defined]


class ClientInputs(Protocol):
    """What can happen to a client connection: a message read, a branch taken, a decision."""

    def expected(self) -> wire.Expect | None:
        "The message to read now; None while the client decides or is done."

    def start(self) -> None:
        "The connection is open: send GET_ID."

    def idReceived(self, message: wire.SendId) -> None: ...
    def protocolReceived(self, message: wire.SendProtocol) -> None: ...
    def placeReceived(self, message: wire.SendPlace) -> None: ...
    def nickLengthsReceived(self, message: wire.SendNickLen) -> None: ...
    def nicksReceived(self, message: wire.SendNicks) -> None: ...
    def branchReceived(self, message: wire.BranchPoint) -> None: ...
    def handReceived(self, message: wire.DillCards) -> None: ...
    def bidsReceived(self, message: wire.SendBids) -> None: ...
    def bidQuestionReceived(self, message: wire.AskBidQuestion) -> None: ...
    def finalBidsReceived(self, message: wire.SendFinalBids) -> None: ...
    def chienReceived(self, message: wire.ShowChien) -> None: ...
    def chienAckReceived(self, message: wire.SendAckForChien) -> None: ...
    def turnCardsReceived(self, message: wire.SendTurnCards) -> None: ...
    def cardQuestionReceived(self, message: wire.SendTurnCardsQuestion) -> None: ...
    def cardAckReceived(self, message: wire.SendAckForCard) -> None: ...
    def lastTrickReceived(self, message: wire.SendLastTurnCards) -> None: ...
    def scoreReceived(self, message: wire.SendScore) -> None: ...
    def chienAtEndReceived(self, message: wire.ShowChienAtEnd) -> None: ...
    def replayAnswerReceived(self, message: wire.SendReplayAnswer) -> None: ...

    # Branches the machine takes after reading a message, with the next state's data.
    def scoreNext(self) -> None: ...
    def replayAnswerNext(self) -> None: ...
    def bidsOrScoreNext(self) -> None: ...
    def bidsNext(self) -> None: ...
    def finalBidsNext(self, entry: Entry) -> None: ...
    def chienNext(self, taken: Taken) -> None: ...
    def playNext(self, playing: Playing) -> None: ...
    def cardQuestionNext(self, playing: Playing) -> None: ...
    def lastTrickNext(self) -> None: ...
    def branchNext(self) -> None: ...
    def myBid(self, bidding: Bidding) -> None: ...
    def myDiscard(self) -> None: ...
    def myCard(self, playing: Playing) -> None: ...
    def cardSent(self, sent: CardSent) -> None: ...

    def decided(self, value: object) -> None:
        "The hook answered: a bid, a discard, a card or the replay answer."

    def abort(self, reason: str) -> None:
        "The server refused us, ended the table, or sent what cannot be."

    def connectionLost(self) -> None:
        "The connection is gone."


class ClientCore(Protocol):
    """
    The effects the client machine asks for: every ``got*`` keeps what one
    message tells the seat (and runs its news hook); ``ask*`` run the
    decision hooks; ``send*`` write the answers.
    """

    seat: int
    "Our seat at the table (from SEND_PLACE, or our nick in SEND_NICKS)."

    def sendId(self) -> None: ...
    def gotId(self, message: wire.SendId) -> None: ...
    def gotProtocol(self, message: wire.SendProtocol) -> None: ...
    def gotPlace(self, message: wire.SendPlace) -> None: ...
    def gotNickLengths(self, message: wire.SendNickLen) -> None: ...
    def gotNicks(self, message: wire.SendNicks) -> None: ...
    def gotBranch(self, message: wire.BranchPoint) -> None: ...
    def gotHand(self, message: wire.DillCards) -> None: ...
    def gotBids(self, message: wire.SendBids) -> None: ...
    def gotBidQuestion(self, message: wire.AskBidQuestion) -> None: ...
    def gotFinalBids(self, message: wire.SendFinalBids) -> None: ...
    def gotChien(self, message: wire.ShowChien) -> None: ...
    def takeChien(self) -> None: ...
    def discarded(self, cards: tuple[int, ...]) -> None: ...
    def refused(self) -> None: ...
    def gotTurnCards(self, message: wire.SendTurnCards, played: int) -> None: ...
    def gotCardQuestion(self, message: wire.SendTurnCardsQuestion) -> None: ...
    def cardAccepted(self, card: int) -> None: ...
    def gotLastTrick(self, message: wire.SendLastTurnCards) -> None: ...
    def gotScore(self, message: wire.SendScore) -> None: ...
    def gotChienAtEnd(self, message: wire.ShowChienAtEnd) -> None: ...
    def tableEnded(self) -> None: ...
    def askBid(self) -> None: ...
    def askDiscard(self) -> None: ...
    def askCard(self, played: int) -> None: ...
    def askReplay(self) -> None: ...
    def sendBid(self, bid: object) -> None: ...
    def sendDiscard(self, cards: tuple[int, ...]) -> None: ...
    def sendCard(self, card: int) -> None: ...
    def sendReplay(self, answer: object) -> None: ...
    def drop(self, reason: str) -> None: ...
    def lost(self) -> None: ...


def _nicksExpectation(machine: ClientInputs, core: ClientCore,
                      message: wire.SendNickLen) -> wire.Expect:
    lengths = message.lengths
    if any(not 0 <= n <= 1 << 12 for n in lengths):
        lengths = (0,) * 4  # refused by gotNickLengths: the machine closes at once
    return wire.Expect(wire.SendNicks, lengths=lengths)


def _entry(machine: ClientInputs, core: ClientCore, message: wire.BranchPoint) -> Entry:
    return Entry(message.point, message.value)


def _bidding(machine: ClientInputs, core: ClientCore, message: wire.SendBids) -> Bidding:
    return Bidding(spoken(message.bids))


def _discard(machine: ClientInputs, core: ClientCore, value: object) -> tuple[int, ...]:
    return discardOf(value)


# The data a branch input brings along, one factory per kind (for the type checker).


def _carriedEntry(machine: ClientInputs, core: ClientCore, entry: Entry) -> Entry:
    return entry


def _carriedBidding(machine: ClientInputs, core: ClientCore, bidding: Bidding) -> Bidding:
    return bidding


def _carriedTaken(machine: ClientInputs, core: ClientCore, taken: Taken) -> Taken:
    return taken


def _carriedPlaying(machine: ClientInputs, core: ClientCore, playing: Playing) -> Playing:
    return playing


def _carriedCard(machine: ClientInputs, core: ClientCore, sent: CardSent) -> CardSent:
    return sent


def _buildClient() -> TypeMachine[ClientInputs, ClientCore]:
    # The core is a Protocol that the connection's protocol implements (mypy #4717).
    builder = TypeMachineBuilder(ClientInputs, ClientCore)  # type: ignore[type-abstract]
    S = builder.state
    idle, awaitingId, awaitingProtocol, awaitingPlace = S("idle"), S("id"), S("protocol"), S("place")
    nickLengths, nicks = S("nickLengths"), S("nicks", _nicksExpectation)
    branch, hand, afterHand = S("branch"), S("hand", _entry), S("afterHand")
    bidsOrScore, bids = S("bidsOrScore"), S("bids")
    bidQuestion, afterBidQuestion = S("bidQuestion", _bidding), S("afterBidQuestion")
    choosingBid = S("choosingBid", _carriedBidding)
    finalBids, afterFinalBids = S("finalBids", _carriedEntry), S("afterFinalBids")
    chien, afterChien = S("chien", _carriedTaken), S("afterChien")
    choosingDiscard, discardAck = S("choosingDiscard"), S("discardAck", _discard)
    afterDiscardAck = S("afterDiscardAck")
    turnCards, afterTurnCards = S("turnCards", _carriedPlaying), S("afterTurnCards")
    cardQuestion, afterCardQuestion = S("cardQuestion", _carriedPlaying), S("afterCardQuestion")
    choosingCard, afterCardChoice = S("choosingCard", _carriedPlaying), S("afterCardChoice")
    cardAck, afterCardAck = S("cardAck", _carriedCard), S("afterCardAck")
    lastTrick, score, chienAtEnd = S("lastTrick"), S("score"), S("chienAtEnd")
    choosingReplay, replayAnswer, afterReplay = S("choosingReplay"), S("replayAnswer"), S("afterReplay")
    closed = S("closed")

    # What each state reads.
    for state, kind in [
        (awaitingId, wire.SendId), (awaitingProtocol, wire.SendProtocol),
        (awaitingPlace, wire.SendPlace), (nickLengths, wire.SendNickLen),
        (branch, wire.BranchPoint), (bidsOrScore, wire.BidsOrScore), (bids, wire.SendBids),
        (lastTrick, wire.SendLastTurnCards), (score, wire.SendScore),
        (chienAtEnd, wire.ShowChienAtEnd), (replayAnswer, wire.SendReplayAnswer),
    ]:
        state.upon(ClientInputs.expected).loop().returns(wire.Expect(kind))
    hand.upon(ClientInputs.expected, nodata=True).loop().returns(wire.Expect(wire.DillCards))
    bidQuestion.upon(ClientInputs.expected, nodata=True).loop().returns(
        wire.Expect(wire.AskBidQuestion))
    finalBids.upon(ClientInputs.expected, nodata=True).loop().returns(
        wire.Expect(wire.SendFinalBids))
    chien.upon(ClientInputs.expected, nodata=True).loop().returns(wire.Expect(wire.ShowChien))
    discardAck.upon(ClientInputs.expected, nodata=True).loop().returns(
        wire.Expect(wire.SendAckForChien))
    turnCards.upon(ClientInputs.expected, nodata=True).loop().returns(
        wire.Expect(wire.SendTurnCards))
    cardQuestion.upon(ClientInputs.expected, nodata=True).loop().returns(
        wire.Expect(wire.SendTurnCardsQuestion))
    cardAck.upon(ClientInputs.expected, nodata=True).loop().returns(
        wire.Expect(wire.SendAckForCard))
    for state in (idle, afterHand, afterBidQuestion, afterFinalBids, afterChien,
                  choosingDiscard, afterDiscardAck, afterTurnCards, afterCardQuestion,
                  afterCardChoice, afterCardAck, choosingReplay, afterReplay, closed):
        state.upon(ClientInputs.expected).loop().returns(None)
    choosingBid.upon(ClientInputs.expected, nodata=True).loop().returns(None)
    choosingCard.upon(ClientInputs.expected, nodata=True).loop().returns(None)

    @nicks.upon(ClientInputs.expected).loop()
    def nicksExpected(machine: ClientInputs, core: ClientCore,
                      expectation: wire.Expect) -> wire.Expect | None:
        return expectation

    @idle.upon(ClientInputs.start).to(awaitingId)
    def start(machine: ClientInputs, core: ClientCore) -> None:
        core.sendId()

    # Identification.
    @awaitingId.upon(ClientInputs.idReceived).to(awaitingProtocol)
    def gotId(machine: ClientInputs, core: ClientCore, message: wire.SendId) -> None:
        core.gotId(message)

    @awaitingProtocol.upon(ClientInputs.protocolReceived).to(awaitingPlace)
    def gotProtocol(machine: ClientInputs, core: ClientCore, message: wire.SendProtocol) -> None:
        core.gotProtocol(message)

    @awaitingPlace.upon(ClientInputs.placeReceived).to(nickLengths)
    def gotPlace(machine: ClientInputs, core: ClientCore, message: wire.SendPlace) -> None:
        core.gotPlace(message)

    @nickLengths.upon(ClientInputs.nickLengthsReceived).to(nicks)
    def gotNickLengths(machine: ClientInputs, core: ClientCore,
                       message: wire.SendNickLen) -> None:
        core.gotNickLengths(message)

    @nicks.upon(ClientInputs.nicksReceived).to(branch)
    def gotNicks(machine: ClientInputs, core: ClientCore, expectation: wire.Expect,
                 message: wire.SendNicks) -> None:
        core.gotNicks(message)

    # A branch point: a new deal, or a deal joined on its way.
    @branch.upon(ClientInputs.branchReceived).to(hand)
    def gotBranch(machine: ClientInputs, core: ClientCore, message: wire.BranchPoint) -> None:
        core.gotBranch(message)
        if (message.point, message.value) == (wire.BP_NEW_GAME, 1):
            machine.scoreNext()
        elif (message.point, message.value) == (wire.BP_NEW_GAME, 2):
            machine.replayAnswerNext()

    hand.upon(ClientInputs.scoreNext).to(score).returns(None)
    hand.upon(ClientInputs.replayAnswerNext).to(replayAnswer).returns(None)

    @hand.upon(ClientInputs.handReceived).to(afterHand)
    def gotHand(machine: ClientInputs, core: ClientCore, entry: Entry,
                message: wire.DillCards) -> None:
        core.gotHand(message)
        if entry.point == wire.BP_NEW_GAME:
            machine.bidsOrScoreNext()
        elif entry.point == wire.BP_SEND_BIDS:
            machine.bidsNext()
        else:
            machine.finalBidsNext(entry)

    afterHand.upon(ClientInputs.bidsOrScoreNext).to(bidsOrScore).returns(None)
    afterHand.upon(ClientInputs.bidsNext).to(bids).returns(None)
    afterHand.upon(ClientInputs.finalBidsNext).to(finalBids).returns(None)

    # Bidding: four questions, one per place.
    @bidsOrScore.upon(ClientInputs.bidsReceived).to(bidQuestion)
    @bids.upon(ClientInputs.bidsReceived).to(bidQuestion)
    def gotBids(machine: ClientInputs, core: ClientCore, message: wire.SendBids) -> None:
        core.gotBids(message)

    @bidsOrScore.upon(ClientInputs.scoreReceived).to(chienAtEnd)
    @score.upon(ClientInputs.scoreReceived).to(chienAtEnd)
    def gotScore(machine: ClientInputs, core: ClientCore, message: wire.SendScore) -> None:
        core.gotScore(message)

    def afterBid(machine: ClientInputs, bidding: Bidding) -> None:
        if bidding.rounds + 1 < 4:
            machine.bidsNext()
        else:
            machine.finalBidsNext(Entry())

    @bidQuestion.upon(ClientInputs.bidQuestionReceived).to(afterBidQuestion)
    def gotBidQuestion(machine: ClientInputs, core: ClientCore, bidding: Bidding,
                       message: wire.AskBidQuestion) -> None:
        core.gotBidQuestion(message)
        if message.ask:
            machine.myBid(bidding)
        else:
            afterBid(machine, bidding)

    @afterBidQuestion.upon(ClientInputs.myBid).to(choosingBid)
    def myBid(machine: ClientInputs, core: ClientCore, bidding: Bidding) -> None:
        core.askBid()

    afterBidQuestion.upon(ClientInputs.bidsNext).to(bids).returns(None)
    afterBidQuestion.upon(ClientInputs.finalBidsNext).to(finalBids).returns(None)

    @choosingBid.upon(ClientInputs.decided).to(afterBidQuestion)
    def sendBid(machine: ClientInputs, core: ClientCore, bidding: Bidding, value: object) -> None:
        core.sendBid(value)
        afterBid(machine, bidding)

    # The contract, the chien, the discard.
    @finalBids.upon(ClientInputs.finalBidsReceived).to(afterFinalBids)
    def gotFinalBids(machine: ClientInputs, core: ClientCore, entry: Entry,
                     message: wire.SendFinalBids) -> None:
        core.gotFinalBids(message)
        best = max(message.bids)
        contract = max(best, 0)
        if entry.point == wire.BP_SEND_TURN_CARD:
            machine.playNext(Playing(entry.value))
        elif best <= 0 or contract in (wire.PETITE, wire.GARDE):
            machine.chienNext(Taken(contract, message.bids.index(best) if best > 0 else None))
        else:
            machine.playNext(Playing(0))

    afterFinalBids.upon(ClientInputs.chienNext).to(chien).returns(None)
    afterFinalBids.upon(ClientInputs.playNext).to(turnCards).returns(None)

    @chien.upon(ClientInputs.chienReceived).to(afterChien)
    def gotChien(machine: ClientInputs, core: ClientCore, taken: Taken,
                 message: wire.ShowChien) -> None:
        core.gotChien(message)
        if not taken.contract:
            machine.scoreNext()
        elif taken.taker == core.seat:
            core.takeChien()
            machine.myDiscard()
        else:
            machine.playNext(Playing(0))

    afterChien.upon(ClientInputs.scoreNext).to(score).returns(None)
    afterChien.upon(ClientInputs.playNext).to(turnCards).returns(None)

    @afterChien.upon(ClientInputs.myDiscard).to(choosingDiscard)
    @afterDiscardAck.upon(ClientInputs.myDiscard).to(choosingDiscard)
    def myDiscard(machine: ClientInputs, core: ClientCore) -> None:
        core.askDiscard()

    @choosingDiscard.upon(ClientInputs.decided).to(discardAck)
    def sendDiscard(machine: ClientInputs, core: ClientCore, value: object) -> None:
        core.sendDiscard(discardOf(value))

    @discardAck.upon(ClientInputs.chienAckReceived).to(afterDiscardAck)
    def gotChienAck(machine: ClientInputs, core: ClientCore, cards: tuple[int, ...],
                    message: wire.SendAckForChien) -> None:
        if message.ok:
            core.discarded(cards)
            machine.playNext(Playing(0))
        else:
            core.refused()
            machine.myDiscard()

    afterDiscardAck.upon(ClientInputs.playNext).to(turnCards).returns(None)

    # The play: 72 steps, one card each.
    @turnCards.upon(ClientInputs.turnCardsReceived).to(afterTurnCards)
    def gotTurnCards(machine: ClientInputs, core: ClientCore, playing: Playing,
                     message: wire.SendTurnCards) -> None:
        core.gotTurnCards(message, playing.played)
        machine.cardQuestionNext(playing)

    afterTurnCards.upon(ClientInputs.cardQuestionNext).to(cardQuestion).returns(None)

    def afterCard(machine: ClientInputs, played: int) -> None:
        if played + 1 >= 72:
            machine.lastTrickNext()
        else:
            machine.playNext(Playing(played + 1))

    @cardQuestion.upon(ClientInputs.cardQuestionReceived).to(afterCardQuestion)
    def gotCardQuestion(machine: ClientInputs, core: ClientCore, playing: Playing,
                        message: wire.SendTurnCardsQuestion) -> None:
        core.gotCardQuestion(message)
        if message.ask:
            machine.myCard(playing)
        else:
            afterCard(machine, playing.played)

    @afterCardQuestion.upon(ClientInputs.myCard).to(choosingCard)
    @afterCardAck.upon(ClientInputs.myCard).to(choosingCard)
    def myCard(machine: ClientInputs, core: ClientCore, playing: Playing) -> None:
        core.askCard(playing.played)

    for state in (afterCardQuestion, afterCardAck):
        state.upon(ClientInputs.lastTrickNext).to(lastTrick).returns(None)
        state.upon(ClientInputs.playNext).to(turnCards).returns(None)

    @choosingCard.upon(ClientInputs.decided).to(afterCardChoice)
    def sendCard(machine: ClientInputs, core: ClientCore, playing: Playing, value: object) -> None:
        card = int(value)  # type: ignore[call-overload]
        core.sendCard(card)
        machine.cardSent(CardSent(playing.played, card))

    afterCardChoice.upon(ClientInputs.cardSent).to(cardAck).returns(None)

    @cardAck.upon(ClientInputs.cardAckReceived).to(afterCardAck)
    def gotCardAck(machine: ClientInputs, core: ClientCore, sent: CardSent,
                   message: wire.SendAckForCard) -> None:
        if message.ok:
            core.cardAccepted(sent.card)
            afterCard(machine, sent.played)
        else:
            core.refused()
            machine.myCard(Playing(sent.played))

    # The end of the deal.
    @lastTrick.upon(ClientInputs.lastTrickReceived).to(score)
    def gotLastTrick(machine: ClientInputs, core: ClientCore,
                     message: wire.SendLastTurnCards) -> None:
        core.gotLastTrick(message)

    @chienAtEnd.upon(ClientInputs.chienAtEndReceived).to(choosingReplay)
    def gotChienAtEnd(machine: ClientInputs, core: ClientCore,
                      message: wire.ShowChienAtEnd) -> None:
        core.gotChienAtEnd(message)
        core.askReplay()

    @choosingReplay.upon(ClientInputs.decided).to(replayAnswer)
    def sendReplay(machine: ClientInputs, core: ClientCore, value: object) -> None:
        core.sendReplay(value)

    @replayAnswer.upon(ClientInputs.replayAnswerReceived).to(afterReplay)
    def gotReplayAnswer(machine: ClientInputs, core: ClientCore,
                        message: wire.SendReplayAnswer) -> None:
        if message.answer == 1:
            machine.branchNext()
        else:
            core.tableEnded()
            machine.abort("the table is over")

    afterReplay.upon(ClientInputs.branchNext).to(branch).returns(None)

    # Leaving, from anywhere.
    plain = [idle, awaitingId, awaitingProtocol, awaitingPlace, nickLengths, branch, afterHand,
             bidsOrScore, bids, afterBidQuestion, afterFinalBids, afterChien, choosingDiscard,
             afterDiscardAck, afterTurnCards, afterCardQuestion, afterCardChoice, afterCardAck,
             lastTrick, score, chienAtEnd, choosingReplay, replayAnswer, afterReplay]
    withData: list[Any] = [  # data states of several kinds
        nicks, hand, bidQuestion, choosingBid, finalBids, chien, discardAck, turnCards,
        cardQuestion, choosingCard, cardAck]
    for state in plain:
        @state.upon(ClientInputs.abort).to(closed)
        def abort(machine: ClientInputs, core: ClientCore, reason: str) -> None:
            core.drop(reason)

        @state.upon(ClientInputs.connectionLost).to(closed)
        def lost(machine: ClientInputs, core: ClientCore) -> None:
            core.lost()
    for dataState in withData:
        @dataState.upon(ClientInputs.abort).to(closed)
        def abortWithData(machine: ClientInputs, core: ClientCore, data: object,
                          reason: str) -> None:
            core.drop(reason)

        @dataState.upon(ClientInputs.connectionLost).to(closed)
        def lostWithData(machine: ClientInputs, core: ClientCore, data: object) -> None:
            core.lost()

    @closed.upon(ClientInputs.abort).loop()
    def abortClosed(machine: ClientInputs, core: ClientCore, reason: str) -> None:
        pass

    @closed.upon(ClientInputs.decided).loop()
    def decidedClosed(machine: ClientInputs, core: ClientCore, value: object) -> None:
        pass

    closed.upon(ClientInputs.connectionLost).loop().returns(None)
    # Branches a read asked for just before the connection closed.
    for nothing in (ClientInputs.scoreNext, ClientInputs.replayAnswerNext,
                    ClientInputs.bidsOrScoreNext, ClientInputs.bidsNext,
                    ClientInputs.lastTrickNext, ClientInputs.branchNext, ClientInputs.myDiscard):
        closed.upon(nothing).loop().returns(None)
    closed.upon(ClientInputs.finalBidsNext).loop()(lambda machine, core, entry: None)
    closed.upon(ClientInputs.chienNext).loop()(lambda machine, core, taken: None)
    closed.upon(ClientInputs.playNext).loop()(lambda machine, core, playing: None)
    closed.upon(ClientInputs.cardQuestionNext).loop()(lambda machine, core, playing: None)
    closed.upon(ClientInputs.myBid).loop()(lambda machine, core, bidding: None)
    closed.upon(ClientInputs.myCard).loop()(lambda machine, core, playing: None)
    closed.upon(ClientInputs.cardSent).loop()(lambda machine, core, sent: None)
    return builder.build()


ClientMachine = indexed(_buildClient())
"""Build one with ``ClientMachine(core)``; it starts ``idle``."""
