"""
The typed Automat machine of a FreeDoko child's connection (the client side):
the handshake, the party and its games as the parent tells them, the
decisions of the players the child manages.

States and the data they own::

    greeting   -- "FreeDoko server" -->  seated       ("connection rejected": closed)
    seated     -- "party: seed" ------>  preparing    (PartySetup: the seed, the startplayer)
    preparing  -- "party: start" ----->  playing      (Mirror: the party as this child plays it)
    playing    -- "party: finish" ---->  between      (the real parent starts its next party:
    between    -- "party: seed" ------>  preparing     a new seed, and so on)
    any        -- abort / lost ------->  closed

The machine says which state the connection is in and what each message
means there; the core (L{gameproto.freedoko.client.FreeDokoClientProtocol})
keeps the seat's view in the L{Mirror} and asks its hooks.  Game messages
outside a party (a card before ``party: start``) are strays: the core logs
them, nothing changes.  Pings, chat, names and ``ask:`` are answered by the
protocol in every state; they are no part of the sequence.
"""

from __future__ import annotations

from typing import Protocol

import attrs
from automat import TypeMachine, TypeMachineBuilder

from gameproto.freedoko import wire
from gameproto.games.doppelkopf import DoppelkopfGame, DoppelkopfParty
from gameproto.machines import indexed

__all__ = ["ClientCore", "ClientInputs", "ClientMachine", "Mirror", "PartySetup"]


@attrs.define
class PartySetup:
    """Between ``party: seed`` and ``party: start``: the seed and the first startplayer."""

    seed: int
    startplayer: int = 0


@attrs.define(eq=False)
class Mirror:
    """
    One party as the child follows it: the rules engine's party
    (L{DoppelkopfParty}, dealt from the party seed as a real child deals),
    every action the parent told applied to it, and where the parent is in
    the sequence (which gates the child's own decisions).
    """

    party: DoppelkopfParty
    seed: int
    startplayer: int
    games: int = 0
    """``game: open`` lines read: the game the parent is in is ``games - 1``."""
    round: int = 0
    dealOpen: bool = False
    """Reservations may be made: the game is open and no thrown deal awaits its ``game: start``."""
    deals: int = 0
    """The deals of this game the parent has started (``game: start``) or reopened."""
    playOpen: bool = False
    """``game: start`` read for the deal being played: cards may follow."""
    opened: int = 0
    """``trick open`` lines read in this game."""
    taken: int = 0
    """The parent's ``trick taken`` lines read in this game (each answered)."""
    applied: int = 0
    """The parent's actions applied in the party."""
    asked: set[tuple[int, int, str]] = attrs.Factory(set)
    """The decisions asked of the hooks (seat, position in the game, kind): each is asked once."""
    requested: dict[int, int] = attrs.Factory(dict)
    """By seat, the highest announcement this child asked for in this game (never ask one
    not higher)."""
    log: list[wire.Action] = attrs.Factory(list)
    """This game's actions as applied (for ``sync: gameplay actions``)."""
    mismatches: list[str] = attrs.Factory(list)
    finished: bool = False
    game: DoppelkopfGame | None = None
    """The rules engine's game the parent is in (None before the first ``game: open``)."""
    fullSeen: int = 0
    """``trick full`` lines read in this game."""
    genscher: dict[int, int] = attrs.Factory(dict)
    """A ``genscher`` told before its card: the partner, by player."""


class ClientInputs(Protocol):
    """What can happen to a child's connection."""

    def helloReceived(self) -> None:
        "``FreeDoko server``: the parent accepts the connection."

    def rejectedReceived(self) -> None:
        "``connection rejected``: the parent is in the middle of a party."

    def partySeedReceived(self, seed: int) -> None: ...
    def partyStartplayerReceived(self, player: int) -> None: ...
    def partyStartReceived(self) -> None: ...
    def partyFinishReceived(self) -> None: ...

    def begin(self, mirror: Mirror) -> None:
        "The party's mirror is built: play."

    def gameOpened(self) -> None: ...
    def gameStarted(self) -> None: ...
    def gameFinished(self) -> None: ...
    def roundStarted(self, number: int) -> None: ...

    def gameInfo(self, message: wire.GameStartplayer | wire.GameSeed | wire.GameHand) -> None:
        "What the parent says of the game that a child works out itself: checked."

    def actionReceived(self, action: wire.Action) -> None: ...
    def syncReceived(self, message: wire.SyncGameplayActions) -> None: ...

    def decided(self, key: tuple[int, int, str], value: object) -> None:
        "A decision hook answered the question ``key``."

    def abort(self, reason: str) -> None:
        "Close the connection: ``reason`` says why."

    def connectionLost(self) -> None: ...


class ClientCore(Protocol):
    """The effects the machine asks for (the protocol implements them)."""

    def greeted(self) -> None: ...
    def refused(self) -> None: ...
    def newMirror(self, setup: PartySetup) -> Mirror: ...
    def partyBegun(self, mirror: Mirror) -> None: ...
    def partyEnded(self, mirror: Mirror) -> None: ...
    def openGame(self, mirror: Mirror) -> None: ...
    def startGame(self, mirror: Mirror) -> None: ...
    def finishGame(self, mirror: Mirror) -> None: ...
    def startRound(self, mirror: Mirror, number: int) -> None: ...
    def gameInfo(self, mirror: Mirror,
                 message: wire.GameStartplayer | wire.GameSeed | wire.GameHand) -> None: ...
    def applyAction(self, mirror: Mirror, action: wire.Action) -> None: ...
    def applySync(self, mirror: Mirror, message: wire.SyncGameplayActions) -> None: ...
    def sendDecision(self, mirror: Mirror, key: tuple[int, int, str], value: object) -> None: ...
    def stray(self, what: object) -> None: ...
    def drop(self, reason: str) -> None: ...
    def lost(self) -> None: ...


def _setup(machine: ClientInputs, core: ClientCore, seed: int) -> PartySetup:
    return PartySetup(seed)


def _carried(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> Mirror:
    return mirror


def _build() -> TypeMachine[ClientInputs, ClientCore]:
    # The core is a Protocol that the connection's protocol implements (mypy #4717).
    builder = TypeMachineBuilder(ClientInputs, ClientCore)  # type: ignore[type-abstract]
    S = builder.state
    greeting, seated, starting, between, closed = (
        S("greeting"), S("seated"), S("starting"), S("between"), S("closed"))
    preparing = S("preparing", _setup)
    playing = S("playing", _carried)

    # The handshake.
    @greeting.upon(ClientInputs.helloReceived).to(seated)
    def hello(machine: ClientInputs, core: ClientCore) -> None:
        core.greeted()

    @greeting.upon(ClientInputs.rejectedReceived).to(closed)
    @seated.upon(ClientInputs.rejectedReceived).to(closed)
    def rejected(machine: ClientInputs, core: ClientCore) -> None:
        core.refused()

    seated.upon(ClientInputs.helloReceived).loop().returns(None)
    between.upon(ClientInputs.helloReceived).loop().returns(None)

    # A party: its seed, its startplayer, its start.
    seated.upon(ClientInputs.partySeedReceived).to(preparing).returns(None)
    between.upon(ClientInputs.partySeedReceived).to(preparing).returns(None)

    @preparing.upon(ClientInputs.partySeedReceived).loop()
    def seedAgain(machine: ClientInputs, core: ClientCore, setup: PartySetup, seed: int) -> None:
        setup.seed = seed

    @preparing.upon(ClientInputs.partyStartplayerReceived).loop()
    def startplayer(machine: ClientInputs, core: ClientCore, setup: PartySetup,
                    player: int) -> None:
        setup.startplayer = player

    @preparing.upon(ClientInputs.partyStartReceived).to(starting)
    def partyStart(machine: ClientInputs, core: ClientCore, setup: PartySetup) -> None:
        machine.begin(core.newMirror(setup))

    @starting.upon(ClientInputs.begin).to(playing)
    def begin(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> None:
        core.partyBegun(mirror)

    # The party, as the parent tells it.
    @playing.upon(ClientInputs.gameOpened).loop()
    def gameOpened(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> None:
        core.openGame(mirror)

    @playing.upon(ClientInputs.gameStarted).loop()
    def gameStarted(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> None:
        core.startGame(mirror)

    @playing.upon(ClientInputs.gameFinished).loop()
    def gameFinished(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> None:
        core.finishGame(mirror)

    @playing.upon(ClientInputs.roundStarted).loop()
    def roundStarted(machine: ClientInputs, core: ClientCore, mirror: Mirror,
                     number: int) -> None:
        core.startRound(mirror, number)

    @playing.upon(ClientInputs.gameInfo).loop()
    def gameInfo(machine: ClientInputs, core: ClientCore, mirror: Mirror,
                 message: wire.GameStartplayer | wire.GameSeed | wire.GameHand) -> None:
        core.gameInfo(mirror, message)

    @playing.upon(ClientInputs.actionReceived).loop()
    def action(machine: ClientInputs, core: ClientCore, mirror: Mirror,
               action: wire.Action) -> None:
        core.applyAction(mirror, action)

    @playing.upon(ClientInputs.syncReceived).loop()
    def sync(machine: ClientInputs, core: ClientCore, mirror: Mirror,
             message: wire.SyncGameplayActions) -> None:
        core.applySync(mirror, message)

    @playing.upon(ClientInputs.decided).loop()
    def decided(machine: ClientInputs, core: ClientCore, mirror: Mirror,
                key: tuple[int, int, str], value: object) -> None:
        core.sendDecision(mirror, key, value)

    @playing.upon(ClientInputs.partyFinishReceived).to(between)
    def partyFinish(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> None:
        core.partyEnded(mirror)

    # Game messages where there is no party: strays, logged and dropped.
    def strayOne(machine: ClientInputs, core: ClientCore, *args: object) -> None:
        core.stray(args[-1] if args else None)

    def strayNone(machine: ClientInputs, core: ClientCore, *args: object) -> None:
        core.stray(None)

    def strayPlayer(machine: ClientInputs, core: ClientCore, player: int) -> None:
        core.stray(wire.PartyStartplayer(player))

    def straySeed(machine: ClientInputs, core: ClientCore, seed: int) -> None:
        core.stray(wire.PartySeed(seed))

    for state in (greeting, seated, between, closed):
        for inp in (ClientInputs.gameInfo, ClientInputs.actionReceived,
                    ClientInputs.syncReceived, ClientInputs.roundStarted):
            state.upon(inp).loop()(strayOne)
        for inp0 in (ClientInputs.gameOpened, ClientInputs.gameStarted,
                     ClientInputs.gameFinished, ClientInputs.partyFinishReceived,
                     ClientInputs.partyStartReceived):
            state.upon(inp0).loop()(strayNone)
        state.upon(ClientInputs.partyStartplayerReceived).loop()(strayPlayer)
        state.upon(ClientInputs.decided).loop().returns(None)
    greeting.upon(ClientInputs.partySeedReceived).loop()(straySeed)
    closed.upon(ClientInputs.partySeedReceived).loop().returns(None)
    closed.upon(ClientInputs.helloReceived).loop().returns(None)
    closed.upon(ClientInputs.rejectedReceived).loop().returns(None)
    for inp in (ClientInputs.gameInfo, ClientInputs.actionReceived,
                ClientInputs.syncReceived, ClientInputs.roundStarted):
        preparing.upon(inp, nodata=True).loop()(strayOne)
    for inp0 in (ClientInputs.gameOpened, ClientInputs.gameStarted,
                 ClientInputs.gameFinished, ClientInputs.partyFinishReceived):
        preparing.upon(inp0, nodata=True).loop()(strayNone)
    preparing.upon(ClientInputs.decided, nodata=True).loop().returns(None)
    preparing.upon(ClientInputs.helloReceived, nodata=True).loop().returns(None)
    playing.upon(ClientInputs.helloReceived, nodata=True).loop().returns(None)

    @playing.upon(ClientInputs.partySeedReceived, nodata=True).loop()
    def seedInParty(machine: ClientInputs, core: ClientCore, seed: int) -> None:
        core.stray(wire.PartySeed(seed))

    @playing.upon(ClientInputs.partyStartplayerReceived, nodata=True).loop()
    def startplayerInParty(machine: ClientInputs, core: ClientCore, player: int) -> None:
        core.stray(wire.PartyStartplayer(player))

    playing.upon(ClientInputs.partyStartReceived, nodata=True).loop()(strayNone)

    # The end.
    @greeting.upon(ClientInputs.abort).to(closed)
    @seated.upon(ClientInputs.abort).to(closed)
    @between.upon(ClientInputs.abort).to(closed)
    @starting.upon(ClientInputs.abort).to(closed)
    def abort(machine: ClientInputs, core: ClientCore, reason: str) -> None:
        core.drop(reason)

    # (leaving a data state for a state without data, a handler gets the data)
    @preparing.upon(ClientInputs.abort).to(closed)
    def abortPreparing(machine: ClientInputs, core: ClientCore, setup: PartySetup,
                       reason: str) -> None:
        core.drop(reason)

    @playing.upon(ClientInputs.abort).to(closed)
    def abortPlaying(machine: ClientInputs, core: ClientCore, mirror: Mirror,
                     reason: str) -> None:
        core.drop(reason)

    closed.upon(ClientInputs.abort).loop().returns(None)

    @greeting.upon(ClientInputs.connectionLost).to(closed)
    @seated.upon(ClientInputs.connectionLost).to(closed)
    @between.upon(ClientInputs.connectionLost).to(closed)
    @starting.upon(ClientInputs.connectionLost).to(closed)
    def lost(machine: ClientInputs, core: ClientCore) -> None:
        core.lost()

    @preparing.upon(ClientInputs.connectionLost).to(closed)
    def lostPreparing(machine: ClientInputs, core: ClientCore, setup: PartySetup) -> None:
        core.lost()

    @playing.upon(ClientInputs.connectionLost).to(closed)
    def lostPlaying(machine: ClientInputs, core: ClientCore, mirror: Mirror) -> None:
        core.lost()

    closed.upon(ClientInputs.connectionLost).loop().returns(None)
    return builder.build()


ClientMachine = indexed(_build())
"""Build one with ``ClientMachine(core)``; it starts in ``greeting``."""
