"""
The MaîtreTarot sequence of one server connection, as an Automat machine.

With no headers on the wire, the machine is what says how many values to
read next: each state names the message the server expects (L{expected}),
or none, in which case any byte from the client is a protocol violation.
What the server *sends* during a deal is translated from the table's
updates by the seat adapter (L{gameproto.maitretarot.server}).
"""

from __future__ import annotations

from typing import Protocol

from automat import TypeMachineBuilder

from gameproto.machines import indexed
from gameproto.maitretarot import wire


def stateName(machine: object) -> str:
    """The name of the state ``machine`` is in."""
    return machine.__automat_transitioner__._state.name  # type: ignore[attr-defined]


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
        "SEND_REPLAY_ANSWER 0 was sent: the table is over."

    def timedOut(self) -> None:
        "The wait of the current state ran out."

    def unexpectedData(self) -> None:
        "Bytes came while the client had to stay silent."

    def connectionLost(self) -> None:
        "The connection is gone."


class ServerCore(Protocol):
    """The effects the server machine asks for."""

    nickExpectation: wire.Expect | None
    "GET_NICK of the length GET_NICK_LEN announced."

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

    def startTimer(self) -> None:
        "Start the wait for the client's next message (identification only)."

    def stopTimer(self) -> None:
        "Cancel the identification wait."

    def submitBid(self, bid: int) -> None:
        "Bid (an invalid bid counts as a pass)."

    def submitDiscard(self, cards: tuple[int, ...]) -> None:
        "Discard; answer with accepted (from the table's update) or refused."

    def submitCard(self, card: int) -> None:
        "Play; answer with accepted (from the table's update) or refused."

    def submitReplay(self, answer: int) -> None:
        "Answer the replay question."

    def playForMe(self) -> None:
        "The client let its time pass: a bot plays this move."

    def drop(self, reason: str) -> None:
        "Hand the seat over (or answer 0 to the replay question), close, log one line."

    def cleanUp(self) -> None:
        "The connection is gone: the same hand-over as drop."


def _build() -> type:
    builder = TypeMachineBuilder(ServerInputs, ServerCore)
    awaitingId = builder.state("awaitingId")
    awaitingProtocol = builder.state("awaitingProtocol")
    awaitingNickLength = builder.state("awaitingNickLength")
    awaitingNick = builder.state("awaitingNick")
    seated = builder.state("seated")
    bidding = builder.state("bidding")
    discarding = builder.state("discarding")
    judgingDiscard = builder.state("judgingDiscard")
    playing = builder.state("playing")
    judgingCard = builder.state("judgingCard")
    replaying = builder.state("replaying")
    closed = builder.state("closed")

    expectations: dict[object, wire.Expect | None] = {
        awaitingId: wire.Expect(wire.GetId),
        awaitingProtocol: wire.Expect(wire.GetProtocol),
        awaitingNickLength: wire.Expect(wire.GetNickLen),
        bidding: wire.Expect(wire.GetBid),
        discarding: wire.Expect(wire.GetChien),
        playing: wire.Expect(wire.GetTurnCard),
        replaying: wire.Expect(wire.AckReplay),
    }
    for state in (seated, judgingDiscard, judgingCard, closed):
        expectations[state] = None
    for state, expect in expectations.items():
        state.upon(ServerInputs.expected).loop().returns(expect)  # type: ignore[attr-defined]

    @awaitingNick.upon(ServerInputs.expected).loop()
    def nickExpected(machine: ServerInputs, core: ServerCore) -> wire.Expect | None:
        return core.nickExpectation

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
        core.nickExpectation = wire.Expect(wire.GetNick, length)
        core.startTimer()

    @awaitingNickLength.upon(ServerInputs.defaultNick).to(seated)
    def defaultNick(machine: ServerInputs, core: ServerCore) -> None:
        core.stopTimer()
        core.join(None)

    @awaitingNickLength.upon(ServerInputs.nickLengthRefused).to(closed)
    def nickLengthRefused(machine: ServerInputs, core: ServerCore, length: int) -> None:
        core.drop(f"nick length {length} out of 0..{wire.NICK_LIMIT}")

    @awaitingNick.upon(ServerInputs.nickReceived).to(seated)
    def nickReceived(machine: ServerInputs, core: ServerCore, nick: bytes) -> None:
        core.stopTimer()
        core.join(nick)

    for state in (awaitingId, awaitingProtocol, awaitingNickLength, awaitingNick):
        @state.upon(ServerInputs.timedOut).to(closed)
        def identificationTimeout(machine: ServerInputs, core: ServerCore) -> None:
            core.drop("identification not finished in time")

    # The deal: the table asks, the client answers.
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

    for state in (bidding, discarding, playing):
        @state.upon(ServerInputs.timedOut).to(closed)
        def moveTimeout(machine: ServerInputs, core: ServerCore) -> None:
            core.playForMe()
            core.drop("no answer in time: a bot plays the seat")

    @replaying.upon(ServerInputs.timedOut).to(closed)
    def replayTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("no ACK_REPLAY in time")

    @seated.upon(ServerInputs.tableEnded).to(closed)
    def ended(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("the table is over")

    # Timers that fired as a phase ended are harmless.
    for state in (seated, judgingDiscard, judgingCard, closed):
        state.upon(ServerInputs.timedOut).loop().returns(None)

    opened = [awaitingId, awaitingProtocol, awaitingNickLength, awaitingNick, seated, bidding,
              discarding, judgingDiscard, playing, judgingCard, replaying]
    for state in opened:
        @state.upon(ServerInputs.unexpectedData).to(closed)
        def unexpected(machine: ServerInputs, core: ServerCore) -> None:
            core.drop("data sent out of sequence")

        @state.upon(ServerInputs.connectionLost).to(closed)
        def lost(machine: ServerInputs, core: ServerCore) -> None:
            core.stopTimer()
            core.cleanUp()

    for name in ("idAccepted", "idRefused", "protocolAccepted", "protocolRefused",
                 "nickLength", "defaultNick", "nickLengthRefused", "nickReceived", "askBid",
                 "bidReceived", "askDiscard", "discardReceived", "askCard", "cardReceived",
                 "accepted", "refused", "askReplay", "replayReceived", "tableEnded",
                 "unexpectedData", "connectionLost"):
        closed.upon(getattr(ServerInputs, name)).loop()(lambda machine, core, *args: None)

    return builder.build()


ServerMachine = indexed(_build())
"""Build one with ``ServerMachine(core)``; it starts in ``awaitingId``."""


# -- client side ---------------------------------------------------------------


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

    # Branches the core takes after reading a message.
    def scoreNext(self) -> None: ...
    def replayAnswerNext(self) -> None: ...
    def bidsOrScoreNext(self) -> None: ...
    def bidsNext(self) -> None: ...
    def finalBidsNext(self) -> None: ...
    def chienNext(self) -> None: ...
    def playNext(self) -> None: ...
    def lastTrickNext(self) -> None: ...
    def branchNext(self) -> None: ...
    def myBid(self) -> None: ...
    def myDiscard(self) -> None: ...
    def myCard(self) -> None: ...

    def decided(self, value: object) -> None:
        "The hook answered: a bid, a discard, a card or the replay answer."

    def abort(self, reason: str) -> None:
        "The server refused us, ended the table, or sent what cannot be."

    def connectionLost(self) -> None:
        "The connection is gone."


class ClientCore(Protocol):
    """The effects the client machine asks for; every ``got*`` reads one message."""

    nicksExpectation: wire.Expect | None

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
    def gotChienAck(self, message: wire.SendAckForChien) -> None: ...
    def gotTurnCards(self, message: wire.SendTurnCards) -> None: ...
    def gotCardQuestion(self, message: wire.SendTurnCardsQuestion) -> None: ...
    def gotCardAck(self, message: wire.SendAckForCard) -> None: ...
    def gotLastTrick(self, message: wire.SendLastTurnCards) -> None: ...
    def gotScore(self, message: wire.SendScore) -> None: ...
    def gotChienAtEnd(self, message: wire.ShowChienAtEnd) -> None: ...
    def gotReplayAnswer(self, message: wire.SendReplayAnswer) -> None: ...
    def askBid(self) -> None: ...
    def askDiscard(self) -> None: ...
    def askCard(self) -> None: ...
    def askReplay(self) -> None: ...
    def sendBid(self, bid: object) -> None: ...
    def sendDiscard(self, cards: object) -> None: ...
    def sendCard(self, card: object) -> None: ...
    def sendReplay(self, answer: object) -> None: ...
    def drop(self, reason: str) -> None: ...
    def lost(self) -> None: ...


def _buildClient() -> type:
    builder = TypeMachineBuilder(ClientInputs, ClientCore)
    S = builder.state
    idle, awaitingId, awaitingProtocol, awaitingPlace = S("idle"), S("id"), S("protocol"), S("place")
    nickLengths, nicks, branch, hand = S("nickLengths"), S("nicks"), S("branch"), S("hand")
    afterHand, bidsOrScore, bids, bidQuestion = S("afterHand"), S("bidsOrScore"), S("bids"), S("bidQuestion")
    afterBidQuestion, choosingBid = S("afterBidQuestion"), S("choosingBid")
    finalBids, afterFinalBids, chien, afterChien = S("finalBids"), S("afterFinalBids"), S("chien"), S("afterChien")
    choosingDiscard, discardAck, afterDiscardAck = S("choosingDiscard"), S("discardAck"), S("afterDiscardAck")
    turnCards, cardQuestion, afterCardQuestion = S("turnCards"), S("cardQuestion"), S("afterCardQuestion")
    choosingCard, cardAck, afterCardAck = S("choosingCard"), S("cardAck"), S("afterCardAck")
    lastTrick, score, chienAtEnd, choosingReplay = S("lastTrick"), S("score"), S("chienAtEnd"), S("choosingReplay")
    replayAnswer, afterReplay, closed = S("replayAnswer"), S("afterReplay"), S("closed")

    reading = {
        awaitingId: wire.SendId, awaitingProtocol: wire.SendProtocol, awaitingPlace: wire.SendPlace,
        nickLengths: wire.SendNickLen, branch: wire.BranchPoint, hand: wire.DillCards,
        bidsOrScore: wire.BidsOrScore, bids: wire.SendBids, bidQuestion: wire.AskBidQuestion,
        finalBids: wire.SendFinalBids, chien: wire.ShowChien, discardAck: wire.SendAckForChien,
        turnCards: wire.SendTurnCards, cardQuestion: wire.SendTurnCardsQuestion,
        cardAck: wire.SendAckForCard, lastTrick: wire.SendLastTurnCards, score: wire.SendScore,
        chienAtEnd: wire.ShowChienAtEnd, replayAnswer: wire.SendReplayAnswer,
    }
    for state, kind in reading.items():
        state.upon(ClientInputs.expected).loop().returns(wire.Expect(kind))
    silent = [idle, afterHand, afterBidQuestion, choosingBid, afterFinalBids, afterChien,
              choosingDiscard, afterDiscardAck, afterCardQuestion, choosingCard, afterCardAck,
              choosingReplay, afterReplay, closed]
    for state in silent:
        state.upon(ClientInputs.expected).loop().returns(None)

    @nicks.upon(ClientInputs.expected).loop()
    def nicksExpected(machine: ClientInputs, core: ClientCore) -> wire.Expect | None:
        return core.nicksExpectation

    @idle.upon(ClientInputs.start).to(awaitingId)
    def start(machine: ClientInputs, core: ClientCore) -> None:
        core.sendId()

    # One transition per message read: (state, input, next state, core method).
    steps = [
        (awaitingId, ClientInputs.idReceived, awaitingProtocol, "gotId"),
        (awaitingProtocol, ClientInputs.protocolReceived, awaitingPlace, "gotProtocol"),
        (awaitingPlace, ClientInputs.placeReceived, nickLengths, "gotPlace"),
        (nickLengths, ClientInputs.nickLengthsReceived, nicks, "gotNickLengths"),
        (nicks, ClientInputs.nicksReceived, branch, "gotNicks"),
        (branch, ClientInputs.branchReceived, hand, "gotBranch"),
        (hand, ClientInputs.handReceived, afterHand, "gotHand"),
        (bidsOrScore, ClientInputs.bidsReceived, bidQuestion, "gotBids"),
        (bidsOrScore, ClientInputs.scoreReceived, chienAtEnd, "gotScore"),
        (bids, ClientInputs.bidsReceived, bidQuestion, "gotBids"),
        (bidQuestion, ClientInputs.bidQuestionReceived, afterBidQuestion, "gotBidQuestion"),
        (finalBids, ClientInputs.finalBidsReceived, afterFinalBids, "gotFinalBids"),
        (chien, ClientInputs.chienReceived, afterChien, "gotChien"),
        (discardAck, ClientInputs.chienAckReceived, afterDiscardAck, "gotChienAck"),
        (turnCards, ClientInputs.turnCardsReceived, cardQuestion, "gotTurnCards"),
        (cardQuestion, ClientInputs.cardQuestionReceived, afterCardQuestion, "gotCardQuestion"),
        (cardAck, ClientInputs.cardAckReceived, afterCardAck, "gotCardAck"),
        (lastTrick, ClientInputs.lastTrickReceived, score, "gotLastTrick"),
        (score, ClientInputs.scoreReceived, chienAtEnd, "gotScore"),
        (replayAnswer, ClientInputs.replayAnswerReceived, afterReplay, "gotReplayAnswer"),
    ]
    for old, input, new, method in steps:
        def read(machine: ClientInputs, core: ClientCore, message: object,
                 method: str = method) -> None:
            getattr(core, method)(message)

        old.upon(input).to(new)(read)

    # Branches: (states, input, next state, what to do on arrival).
    branches = [
        ([hand], ClientInputs.scoreNext, score, None),
        ([hand], ClientInputs.replayAnswerNext, replayAnswer, None),
        ([afterHand], ClientInputs.bidsOrScoreNext, bidsOrScore, None),
        ([afterHand, afterBidQuestion], ClientInputs.bidsNext, bids, None),
        ([afterHand, afterBidQuestion], ClientInputs.finalBidsNext, finalBids, None),
        ([afterBidQuestion], ClientInputs.myBid, choosingBid, "askBid"),
        ([afterFinalBids], ClientInputs.chienNext, chien, None),
        ([afterFinalBids, afterChien, afterDiscardAck, afterCardQuestion, afterCardAck],
         ClientInputs.playNext, turnCards, None),
        ([afterChien], ClientInputs.scoreNext, score, None),
        ([afterChien, afterDiscardAck], ClientInputs.myDiscard, choosingDiscard, "askDiscard"),
        ([afterCardQuestion, afterCardAck], ClientInputs.myCard, choosingCard, "askCard"),
        ([afterCardQuestion, afterCardAck], ClientInputs.lastTrickNext, lastTrick, None),
        ([afterReplay], ClientInputs.branchNext, branch, None),
    ]
    for olds, input, new, ask in branches:
        for old in olds:
            if ask is None:
                old.upon(input).to(new).returns(None)
            else:
                def arrive(machine: ClientInputs, core: ClientCore, ask: str = ask) -> None:
                    getattr(core, ask)()

                old.upon(input).to(new)(arrive)

    @chienAtEnd.upon(ClientInputs.chienAtEndReceived).to(choosingReplay)
    def atEnd(machine: ClientInputs, core: ClientCore, message: wire.ShowChienAtEnd) -> None:
        core.gotChienAtEnd(message)
        core.askReplay()

    # Decisions.
    decisions = [(choosingBid, afterBidQuestion, "sendBid"),
                 (choosingDiscard, discardAck, "sendDiscard"),
                 (choosingCard, cardAck, "sendCard"),
                 (choosingReplay, replayAnswer, "sendReplay")]
    for old, new, method in decisions:
        def decide(machine: ClientInputs, core: ClientCore, value: object,
                   method: str = method) -> None:
            getattr(core, method)(value)

        old.upon(ClientInputs.decided).to(new)(decide)

    everyOpen = [
        idle, awaitingId, awaitingProtocol, awaitingPlace, nickLengths, nicks, branch, hand,
        afterHand, bidsOrScore, bids, bidQuestion, afterBidQuestion, choosingBid, finalBids,
        afterFinalBids, chien, afterChien, choosingDiscard, discardAck, afterDiscardAck,
        turnCards, cardQuestion, afterCardQuestion, choosingCard, cardAck, afterCardAck,
        lastTrick, score, chienAtEnd, choosingReplay, replayAnswer, afterReplay]
    for state in everyOpen:
        @state.upon(ClientInputs.abort).to(closed)
        def abort(machine: ClientInputs, core: ClientCore, reason: str) -> None:
            core.drop(reason)

        @state.upon(ClientInputs.connectionLost).to(closed)
        def lost(machine: ClientInputs, core: ClientCore) -> None:
            core.lost()

    closed.upon(ClientInputs.abort).loop()(lambda machine, core, reason: None)
    closed.upon(ClientInputs.connectionLost).loop().returns(None)
    closed.upon(ClientInputs.decided).loop()(lambda machine, core, value: None)
    return builder.build()


ClientMachine = indexed(_buildClient())
"""Build one with ``ClientMachine(core)``; it starts ``idle``."""
