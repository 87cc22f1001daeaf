"""
The Protuissance 4 message sequence of one connection, as Automat machines.

The server machine follows the document's phases: Connexion (CONNECT), the
queue, the game (my turn, their turn, one resend after ERR_INVALID_COLUMN),
the choice after GAME_END, and closed.  The client machine mirrors it.  Each
machine only decides *what happens next*; its core does the effects (writes
messages, asks the table, starts timers).
"""

from __future__ import annotations

from typing import Protocol

from automat import TypeMachine, TypeMachineBuilder

from gameproto.connect4 import wire
from gameproto.machines import indexed


from gameproto.machines import stateName as stateName


# -- server side -------------------------------------------------------------


class ServerInputs(Protocol):
    """What can happen to a server-side connection."""

    def connect(self, rawNick: bytes) -> None:
        "CONNECT received."

    def nickTooLong(self) -> None:
        "A CONNECT went on past the codec's limit (L{wire.NickTooLong})."

    def nickAccepted(self, nick: str) -> None:
        "The nick is valid and free."

    def nickRefused(self, code: int) -> None:
        "The nick is invalid or taken (ERR_INVALID_NICK, ERR_ALREADY_USED_NICK)."

    def matched(self) -> None:
        "The queue found an opponent; the core holds the table."

    def yourTurn(self) -> None:
        "The game waits for this player's move."

    def playMove(self, column: int) -> None:
        "PLAY_MOVE received."

    def moveAccepted(self) -> None:
        "The table accepted this player's second try (after ERR_INVALID_COLUMN)."

    def moveRefused(self) -> None:
        "The table refused this player's move."

    def opponentMoved(self, column: int) -> None:
        "The opponent played ``column``: this player's turn (unless gameEnded follows)."

    def gameEnded(self, winner: int | None) -> None:
        "The game is over: ``winner`` is a player index, None for a draw."

    def joinQueue(self) -> None:
        "JOIN_QUEUE received."

    def timedOut(self) -> None:
        "The wait of the current phase ran out."

    def connectionLost(self) -> None:
        "The connection is gone."


class ServerCore(Protocol):
    """The effects the server machine asks for."""

    def send(self, message: wire.Message) -> None:
        "Write one message."

    def sendInit(self) -> None:
        "Write INIT with the server's board size."

    def checkNick(self, rawNick: bytes) -> None:
        "Validate and claim the nick; answer with nickAccepted or nickRefused."

    def enterQueue(self) -> None:
        "Join matchmaking."

    def sendGameStart(self) -> None:
        "Announce the game just matched (GAME_START)."

    def announceEnd(self, winner: int | None) -> None:
        "Announce the end of the game (GAME_END)."

    def submitMove(self, column: int) -> None:
        "Ask the table; answer moveRefused if it refuses (accepted, the turn is the opponent's)."

    def resubmitMove(self, column: int) -> None:
        "Ask the table for the second try; answer with moveAccepted or moveRefused."

    def allowResend(self) -> None:
        "Give the player the resend window after ERR_INVALID_COLUMN."

    def startChoiceTimer(self) -> None:
        "Start the wait for JOIN_QUEUE after GAME_END."

    def stopTimer(self) -> None:
        "Cancel the connection's own timer."

    def resign(self) -> None:
        "Give the game up (the opponent wins)."

    def drop(self, reason: str) -> None:
        "Leave the queue and the game, free the nick, close with one log line saying why."

    def cleanUp(self) -> None:
        "The connection is gone: leave the queue and the game, free the nick."


def _buildServer() -> TypeMachine[ServerInputs, ServerCore]:
    # The core is a Protocol that the connection's protocol implements (mypy #4717).
    builder = TypeMachineBuilder(ServerInputs, ServerCore)  # type: ignore[type-abstract]
    connecting = builder.state("connecting")
    checking = builder.state("checking")
    queued = builder.state("queued")
    theirTurn = builder.state("theirTurn")
    myTurn = builder.state("myTurn")
    resend = builder.state("resend")
    judgingResend = builder.state("judgingResend")
    choosing = builder.state("choosing")
    closed = builder.state("closed")

    # Connexion
    @connecting.upon(ServerInputs.connect).to(checking)
    def connect(machine: ServerInputs, core: ServerCore, rawNick: bytes) -> None:
        core.checkNick(rawNick)

    @checking.upon(ServerInputs.nickAccepted).to(queued)
    def accepted(machine: ServerInputs, core: ServerCore, nick: str) -> None:
        core.stopTimer()
        core.sendInit()
        core.enterQueue()

    @checking.upon(ServerInputs.nickRefused).to(connecting)
    def refused(machine: ServerInputs, core: ServerCore, code: int) -> None:
        core.send(wire.Error(code))

    @connecting.upon(ServerInputs.nickTooLong).to(closed)
    def nickTooLong(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.Error(wire.ERR_INVALID_NICK))
        core.drop(f"CONNECT longer than {wire.CONNECT_NICK_LIMIT} bytes")

    @connecting.upon(ServerInputs.timedOut).to(closed)
    def connectTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.Error(wire.ERR_TIMEOUT))
        core.drop("no CONNECT in time")

    # The queue
    queued.upon(ServerInputs.joinQueue).loop().returns(None)

    @queued.upon(ServerInputs.matched).to(theirTurn)
    def matched(machine: ServerInputs, core: ServerCore) -> None:
        core.sendGameStart()

    # The game
    theirTurn.upon(ServerInputs.yourTurn).to(myTurn).returns(None)
    myTurn.upon(ServerInputs.yourTurn).loop().returns(None)
    resend.upon(ServerInputs.yourTurn).loop().returns(None)

    # Turns alternate: the opponent's move is also this player's turn (a move
    # that ends the game is followed by gameEnded).
    @theirTurn.upon(ServerInputs.opponentMoved).to(myTurn)
    def relay(machine: ServerInputs, core: ServerCore, column: int) -> None:
        core.send(wire.PLAY_MOVES[column])

    # A move the table takes is the whole step: the turn is the opponent's
    # (a refusal, said at once, gives the resend window).
    @myTurn.upon(ServerInputs.playMove).to(theirTurn)
    def submit(machine: ServerInputs, core: ServerCore, column: int) -> None:
        core.submitMove(column)

    @resend.upon(ServerInputs.playMove).to(judgingResend)
    def resubmit(machine: ServerInputs, core: ServerCore, column: int) -> None:
        core.resubmitMove(column)

    judgingResend.upon(ServerInputs.moveAccepted).to(theirTurn).returns(None)

    @theirTurn.upon(ServerInputs.moveRefused).to(resend)
    def invalidOnce(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.Error(wire.ERR_INVALID_COLUMN))
        core.allowResend()

    @judgingResend.upon(ServerInputs.moveRefused).to(closed)
    def invalidTwice(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.Error(wire.ERR_INVALID_COLUMN))
        core.resign()
        core.drop("second invalid column on one turn")

    @myTurn.upon(ServerInputs.timedOut).to(closed)
    @resend.upon(ServerInputs.timedOut).to(closed)
    def moveTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.Error(wire.ERR_TIMEOUT))
        core.resign()
        core.drop("no move in time")

    @theirTurn.upon(ServerInputs.gameEnded).to(choosing)
    @myTurn.upon(ServerInputs.gameEnded).to(choosing)
    @resend.upon(ServerInputs.gameEnded).to(choosing)
    @judgingResend.upon(ServerInputs.gameEnded).to(choosing)
    def gameEnded(machine: ServerInputs, core: ServerCore, winner: int | None) -> None:
        core.announceEnd(winner)
        core.startChoiceTimer()

    # The choice
    @choosing.upon(ServerInputs.joinQueue).to(queued)
    def rejoin(machine: ServerInputs, core: ServerCore) -> None:
        core.stopTimer()
        core.enterQueue()

    # A move that crossed GAME_END (the opponent left meanwhile), and the
    # acceptance of the move that ended the game, come after the end.
    choosing.upon(ServerInputs.playMove).loop().returns(None)
    choosing.upon(ServerInputs.moveAccepted).loop().returns(None)

    @choosing.upon(ServerInputs.timedOut).to(closed)
    def choiceTimeout(machine: ServerInputs, core: ServerCore) -> None:
        core.send(wire.Error(wire.ERR_TIMEOUT))
        core.drop("no JOIN_QUEUE in time after GAME_END")

    # Messages out of sequence: one log line and a clean close, the game
    # (if any) lost.  A PLAY_MOVE the server cannot take gets the document's
    # one error about a move first, ERR_INVALID_COLUMN, as a second invalid
    # column does; no error of the document fits a CONNECT or a JOIN_QUEUE.
    def outOfSequence(what: str):  # type: ignore[no-untyped-def]
        def unexpected(machine: ServerInputs, core: ServerCore, *args: object) -> None:
            core.resign()
            core.drop(f"unexpected {what}")

        return unexpected

    def moveOutOfSequence(machine: ServerInputs, core: ServerCore, column: int) -> None:
        core.send(wire.Error(wire.ERR_INVALID_COLUMN))
        core.resign()
        core.drop("unexpected PLAY_MOVE")

    everyOpen = [connecting, checking, queued, theirTurn, myTurn, resend, judgingResend,
                 choosing]
    for state in everyOpen:
        if state is not connecting:
            state.upon(ServerInputs.connect).to(closed)(outOfSequence("CONNECT"))
            state.upon(ServerInputs.nickTooLong).to(closed)(outOfSequence("CONNECT"))
        if state not in (queued, choosing):
            state.upon(ServerInputs.joinQueue).to(closed)(outOfSequence("JOIN_QUEUE"))
    for state in (connecting, checking, queued, theirTurn, judgingResend):
        state.upon(ServerInputs.playMove).to(closed)(moveOutOfSequence)

    # Timers that fired as the phase ended are harmless.
    for state in (checking, queued, theirTurn, judgingResend, closed):
        state.upon(ServerInputs.timedOut).loop().returns(None)

    # The end.
    for state in everyOpen:
        @state.upon(ServerInputs.connectionLost).to(closed)
        def lost(machine: ServerInputs, core: ServerCore) -> None:
            core.stopTimer()
            core.cleanUp()

    for input in (ServerInputs.connect, ServerInputs.nickTooLong, ServerInputs.nickAccepted, ServerInputs.nickRefused,
                  ServerInputs.matched, ServerInputs.yourTurn, ServerInputs.playMove,
                  ServerInputs.moveAccepted, ServerInputs.moveRefused,
                  ServerInputs.opponentMoved, ServerInputs.gameEnded,
                  ServerInputs.joinQueue, ServerInputs.connectionLost):
        closed.upon(input).loop()(lambda machine, core, *args: None)

    return builder.build()


ServerMachine = indexed(_buildServer())
"""Build one with ``ServerMachine(core)``; it starts in ``connecting``."""


# -- client side -------------------------------------------------------------

_NONE: frozenset[wire.MessageClass] = frozenset()
_CONNECTING = frozenset({wire.Init, wire.Error})
_QUEUED = frozenset({wire.GameStart, wire.Error})
_PLAYING = frozenset({wire.PlayMove, wire.GameEnd, wire.Error})
_ENDED = frozenset({wire.Error})
_REFUSED = frozenset({wire.Error})


class ClientInputs(Protocol):
    """What can happen to a client connection."""

    def expected(self) -> frozenset[wire.MessageClass]:
        "The message kinds the server may send now."

    def connect(self, nick: str) -> None:
        "Send CONNECT with ``nick``."

    def initReceived(self, width: int, height: int) -> None:
        "INIT: connected and queued."

    def nickRefused(self, code: int) -> None:
        "ERR_INVALID_NICK or ERR_ALREADY_USED_NICK."

    def gameStarted(self, first: str, second: str) -> None:
        "GAME_START."

    def yourTurn(self) -> None:
        "The game waits for our move."

    def moveChosen(self, column: int) -> None:
        "We picked ``column``."

    def moveRefused(self) -> None:
        "ERR_INVALID_COLUMN."

    def opponentMoved(self, column: int) -> None:
        "PLAY_MOVE from the server."

    def gameEnded(self, winner: int | None) -> None:
        "GAME_END."

    def playAgain(self) -> None:
        "We want another game."

    def leave(self) -> None:
        "We are done."

    def timedOut(self) -> None:
        "ERR_TIMEOUT: the server closes."

    def unexpected(self, reason: str) -> None:
        "The server sent something the sequence does not allow."

    def connectionLost(self) -> None:
        "The connection is gone."


class ClientCore(Protocol):
    """The effects the client machine asks for."""

    def send(self, message: wire.Message) -> None:
        "Write one message."

    def initialised(self, width: int, height: int) -> None:
        "INIT arrived."

    def refused(self, code: int) -> None:
        "The nick was refused."

    def startGame(self, first: str, second: str) -> None:
        "Set up the board; tell the machine yourTurn if we play first."

    def askMove(self) -> None:
        "Ask for a move; answer with moveChosen."

    def playOwnMove(self, column: int) -> None:
        "Send PLAY_MOVE and play it on our board."

    def takeBack(self) -> None:
        "Our last move was refused: undo it on our board."

    def playOpponentMove(self, column: int) -> None:
        "Play the opponent's move; tell the machine yourTurn if the game goes on."

    def endGame(self, winner: int | None) -> None:
        "The game is over; answer with playAgain or leave."

    def timedOut(self) -> None:
        "The server said ERR_TIMEOUT."

    def drop(self, reason: str) -> None:
        "Close the connection, with one log line saying why."

    def lost(self) -> None:
        "The connection is gone."


def _buildClient() -> TypeMachine[ClientInputs, ClientCore]:
    # The core is a Protocol that the connection's protocol implements (mypy #4717).
    builder = TypeMachineBuilder(ClientInputs, ClientCore)  # type: ignore[type-abstract]
    idle = builder.state("idle")
    connecting = builder.state("connecting")
    refused = builder.state("refused")
    queued = builder.state("queued")
    theirTurn = builder.state("theirTurn")
    myTurn = builder.state("myTurn")
    retry = builder.state("retry")
    retrySent = builder.state("retrySent")
    ended = builder.state("ended")
    closed = builder.state("closed")

    for state, kinds in ((idle, _NONE), (connecting, _CONNECTING), (refused, _REFUSED),
                         (queued, _QUEUED), (theirTurn, _PLAYING), (myTurn, _PLAYING),
                         (retry, _PLAYING), (retrySent, _PLAYING), (ended, _ENDED),
                         (closed, _NONE)):
        state.upon(ClientInputs.expected).loop().returns(kinds)

    @idle.upon(ClientInputs.connect).to(connecting)
    @refused.upon(ClientInputs.connect).to(connecting)
    def connect(machine: ClientInputs, core: ClientCore, nick: str) -> None:
        core.send(wire.Connect(nick.encode("ascii")))

    @connecting.upon(ClientInputs.initReceived).to(queued)
    def init(machine: ClientInputs, core: ClientCore, width: int, height: int) -> None:
        core.initialised(width, height)

    @connecting.upon(ClientInputs.nickRefused).to(refused)
    def nickRefused(machine: ClientInputs, core: ClientCore, code: int) -> None:
        core.refused(code)

    @queued.upon(ClientInputs.gameStarted).to(theirTurn)
    def started(machine: ClientInputs, core: ClientCore, first: str, second: str) -> None:
        core.startGame(first, second)

    @theirTurn.upon(ClientInputs.yourTurn).to(myTurn)
    def turn(machine: ClientInputs, core: ClientCore) -> None:
        core.askMove()

    @myTurn.upon(ClientInputs.moveChosen).to(theirTurn)
    @retry.upon(ClientInputs.moveChosen).to(retrySent)
    def chosen(machine: ClientInputs, core: ClientCore, column: int) -> None:
        core.playOwnMove(column)

    @theirTurn.upon(ClientInputs.moveRefused).to(retry)
    def refusedOnce(machine: ClientInputs, core: ClientCore) -> None:
        core.takeBack()
        core.askMove()

    @retrySent.upon(ClientInputs.moveRefused).to(closed)
    def refusedTwice(machine: ClientInputs, core: ClientCore) -> None:
        core.takeBack()
        core.drop("second invalid column on one turn")

    @theirTurn.upon(ClientInputs.opponentMoved).loop()
    @retrySent.upon(ClientInputs.opponentMoved).to(theirTurn)
    def opponent(machine: ClientInputs, core: ClientCore, column: int) -> None:
        core.playOpponentMove(column)

    @theirTurn.upon(ClientInputs.gameEnded).to(ended)
    @myTurn.upon(ClientInputs.gameEnded).to(ended)
    @retry.upon(ClientInputs.gameEnded).to(ended)
    @retrySent.upon(ClientInputs.gameEnded).to(ended)
    def gameEnded(machine: ClientInputs, core: ClientCore, winner: int | None) -> None:
        core.endGame(winner)

    @ended.upon(ClientInputs.playAgain).to(queued)
    def again(machine: ClientInputs, core: ClientCore) -> None:
        core.send(wire.JoinQueue())

    for state in (idle, connecting, refused, queued, theirTurn, myTurn, retry, retrySent,
                  ended):
        @state.upon(ClientInputs.leave).to(closed)
        def leave(machine: ClientInputs, core: ClientCore) -> None:
            core.drop("leaving")

        @state.upon(ClientInputs.timedOut).to(closed)
        def timeout(machine: ClientInputs, core: ClientCore) -> None:
            core.timedOut()

        @state.upon(ClientInputs.unexpected).to(closed)
        def unexpected(machine: ClientInputs, core: ClientCore, reason: str) -> None:
            core.drop(reason)

        @state.upon(ClientInputs.connectionLost).to(closed)
        def lost(machine: ClientInputs, core: ClientCore) -> None:
            core.lost()

    # A move chosen after the game ended (the opponent left meanwhile).
    for state in (ended, queued, closed):
        state.upon(ClientInputs.moveChosen).loop().returns(None)
    for input in (ClientInputs.connect, ClientInputs.initReceived, ClientInputs.nickRefused,
                  ClientInputs.gameStarted, ClientInputs.yourTurn, ClientInputs.moveRefused,
                  ClientInputs.opponentMoved, ClientInputs.gameEnded, ClientInputs.playAgain,
                  ClientInputs.leave, ClientInputs.timedOut, ClientInputs.unexpected,
                  ClientInputs.connectionLost):
        closed.upon(input).loop()(lambda machine, core, *args: None)

    return builder.build()


ClientMachine = indexed(_buildClient())
"""Build one with ``ClientMachine(core)``; it starts ``idle``."""
