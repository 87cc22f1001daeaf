"""
The FreeDoko parent's protocol: a thin Twisted protocol over the line codec
(L{gameproto.freedoko.wire}), each child's line an input of its
connection's machine (L{gameproto.freedoko.machine.ServerMachine}).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.freedoko import wire
from gameproto.net import WireProtocol

if TYPE_CHECKING:
    from gameproto.freedoko.server import FreeDokoChild, FreeDokoServerFactory

log = Logger(namespace="gameproto.freedoko")

_ACTIONS = (wire.Reservation, wire.CardPlayed, wire.Announcement, wire.Marriage, wire.Genscher,
            wire.PovertyShift, wire.PovertyAccepted, wire.PovertyReturned, wire.PovertyDenied,
            wire.PovertyDeniedByAll, wire.Swines, wire.Hyperswines, wire.TrickOpen,
            wire.TrickFull, wire.Check)

_SILENT = (wire.Pong, wire.Bye, wire.PlayerType, wire.PlayerName)
"""What a child sends that the parent reads and lets be: its own view of the players, ..."""


class FreeDokoServerProtocol(WireProtocol):
    """
    The parent's side of one FreeDoko child.

    Hooks for subclasses: L{messageReceived} and L{sendMessage}, for every
    message in and out (call ``super()``); L{seated} (no-op) once the child
    has its player number.
    """

    factory: FreeDokoServerFactory
    child: FreeDokoChild
    logName = "freedoko"
    serialize = staticmethod(wire.format)

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.Reader()
        self.connectionLine("freedoko connection from {who}", who=self.peer)
        self.child = self.factory.server.newChild(self)
        self.child.machine.connected()

    def dataReceived(self, data: bytes) -> None:
        for received in self.metered(self._reader.feed(data), data):
            self.messageReceived(received)

    def messageReceived(self, received: wire.Received) -> None:
        """Turn one child's message into its machine's input."""
        machine = self.child.machine
        message = received.message
        kind = type(message)  # (the usual ones first: what the match below does with them)
        if kind is wire.CardPlayed:
            machine.gameplay(message)  # type: ignore[arg-type]
            return
        if kind is wire.TrickTaken:
            machine.trickTaken()
            return
        match message:
            case wire.Name(name):
                machine.nameReceived(name)
            case wire.TrickTaken():
                machine.trickTaken()
            case wire.SyncGameplayActions():
                machine.sync(message)
            case wire.Ping(number):
                machine.ping(number)
            case wire.Ask(question):
                machine.ask(question)
            case wire.Chat(text):
                machine.chat(text)
            case wire.Unknown(reason):
                machine.malformed(reason)
            case _ if isinstance(message, _ACTIONS):
                machine.gameplay(message)
            case _ if isinstance(message, _SILENT):
                pass
            case _:
                machine.malformed(f"{type(message).__name__}: a parent's message")

    def who(self) -> str:
        child = getattr(self, "child", None)
        if child is None or child.seat < 0:
            return self.peer
        return f"{self.peer} ({child.name}, player {child.seat})"

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.connectionLine("freedoko {who} disconnected", who=self.who())
        self.child.machine.connectionLost()

    # -- hooks ---------------------------------------------------------------

    def seated(self, player: int) -> None:
        """The child manages FreeDoko player ``player`` (0..3)."""
