"""
Engine JSON protocols: one JSON object per message, a line on TCP, a text
message on WebSocket.  The server class serves both; the client class is a
base for programs that play or watch.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from twisted.internet.interfaces import IDelayedCall
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.protocols.policies import TimeoutMixin
from twisted.python.failure import Failure

from gameproto.enginejson import wire
from gameproto.net import WireProtocol

if TYPE_CHECKING:
    from gameproto.enginejson.server import EngineJsonPlayer, EngineJsonServerFactory

log = Logger(namespace="gameproto.enginejson")


def _line(message: dict[str, Any]) -> bytes:
    return wire.encode(message) + b"\n"


class EngineJsonServerProtocol(TimeoutMixin, WireProtocol):
    """
    The server side of one engine JSON connection, TCP (JSON lines) or
    WebSocket (one text message each).  L{messageReceived} and
    L{sendMessage} see every message in and out.  A connection that sends
    nothing for the server's idle time while in the lobby is closed.
    """

    factory: EngineJsonServerFactory
    player: EngineJsonPlayer
    logName = "engine"
    serialize = staticmethod(_line)

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.LineReader()
        self.connectionLine("engine connection from {who}", who=self.peer)
        server = self.factory.server
        self.player = server.newPlayer(self)
        self.setTimeout(server.settings.idleTimeout)
        self.sendMessage({"type": "hello", "protocol": "gameproto engine JSON 1",
                          "engines": [e.name for e in self.factory.server.registry]})

    def callLater(self, period: float, func: Callable[[], object]) -> IDelayedCall:
        """The idle time runs on the server's clock."""
        return self.factory.server.clock.callLater(period, func)

    def dataReceived(self, data: bytes) -> None:
        self.resetTimeout()
        for line in self.metered(self._reader.feed(data), data):
            if self._closing:
                return
            if isinstance(line, wire.Malformed):
                self.sendMessage({"type": "errors", "errors": [{"type": "BAD_FORMAT"}],
                                  "reason": line.reason})
                self.dropConnection(line.reason)
                return
            # messageDataReceived without its second reset of the idle time.
            self.messageReceived(wire.parse(line))

    def messageDataReceived(self, data: bytes) -> None:
        """One whole message (a line, or a WebSocket text message)."""
        self.resetTimeout()
        if not self._closing:
            self.messageReceived(wire.parse(data))

    def messageReceived(self, message: wire.ClientMessage | wire.Malformed) -> None:
        machine = self.player.machine
        match message:  # an action first: most messages are
            case wire.Action():
                machine.action(message)
            case wire.Malformed(reason):
                machine.malformed(reason)
            case wire.Create():
                machine.create(message)
            case wire.Join():
                machine.join(message)
            case wire.Queue():
                machine.queue(message)
            case wire.Watch():
                machine.watch(message)
            case wire.Leave():
                machine.leave()

    def who(self) -> str:
        return f"{self.player.name}@{self.peer}" if hasattr(self, "player") else self.peer

    def timeoutConnection(self) -> None:
        self.player.machine.idle()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.setTimeout(None)
        super().connectionLost(reason)
        self.connectionLine("engine {who} disconnected", who=self.who())
        self.player.machine.connectionLost()


class EngineJsonClientProtocol(WireProtocol):
    """
    A client of the engine JSON protocol over TCP (or, through
    L{messageDataReceived}, a WebSocket).  L{send} a message; each message
    from the server comes as a dict to L{messageReceived}, which reads it
    into one of L{wire}'s typed server messages and calls its hook.

    Hooks, each doing nothing here (override those you need):
    L{helloReceived}, L{createdReceived}, L{seatedReceived},
    L{queuedReceived}, L{watchingReceived}, L{instructionsReceived},
    L{errorsReceived}, L{problemReceived}, L{endedReceived},
    L{leftReceived}, and L{unknownReceived} for a type this client does
    not know.  A subclass overriding L{messageReceived} sees the raw dicts
    instead.  A message that is not the protocol's closes the connection.
    """

    logName = "engine"
    serialize = staticmethod(_line)

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.LineReader()

    def dataReceived(self, data: bytes) -> None:
        for line in self._reader.feed(data):
            if self._closing:
                return
            if isinstance(line, wire.Malformed):
                self.dropConnection(f"the server sent {line.reason}")
                return
            try:
                message = json.loads(line)
            except ValueError:
                self.dropConnection("the server sent something that is not JSON")
                return
            if not isinstance(message, dict):
                self.dropConnection("the server sent JSON that is not an object")
                return
            self.messageReceived(message)

    def messageDataReceived(self, data: bytes) -> None:
        """One whole message (over WebSocket)."""
        self.dataReceived(data.rstrip(b"\n") + b"\n")

    def messageReceived(self, message: dict[str, Any]) -> None:
        """One message from the server, as JSON: read, then dispatched to its hook."""
        typed = wire.readServerMessage(message)
        if isinstance(typed, wire.Malformed):
            self.dropConnection(f"the server sent {typed.reason}")
            return
        self.serverMessageReceived(typed)

    def serverMessageReceived(self, message: wire.ServerMessage) -> None:
        """One typed message from the server: its hook is called."""
        match message:
            case wire.Hello():
                self.helloReceived(message)
            case wire.Created():
                self.createdReceived(message)
            case wire.Seated():
                self.seatedReceived(message)
            case wire.Queued():
                self.queuedReceived(message)
            case wire.Watching():
                self.watchingReceived(message)
            case wire.Instructions():
                self.instructionsReceived(message)
            case wire.Errors():
                self.errorsReceived(message)
            case wire.Problem():
                self.problemReceived(message)
            case wire.Ended():
                self.endedReceived(message)
            case wire.Left():
                self.leftReceived(message)
            case wire.Unknown():
                self.unknownReceived(message)

    def helloReceived(self, message: wire.Hello) -> None:
        """The server's first message: its protocol and engines."""

    def createdReceived(self, message: wire.Created) -> None:
        """The game asked for with C{create} exists."""

    def seatedReceived(self, message: wire.Seated) -> None:
        """This client holds a seat (keep its token to take it back)."""

    def queuedReceived(self, message: wire.Queued) -> None:
        """This client waits in a matchmaking."""

    def watchingReceived(self, message: wire.Watching) -> None:
        """This client follows a game as a spectator."""

    def instructionsReceived(self, message: wire.Instructions) -> None:
        """A game's new state: displays, the actions asked of this seat."""

    def errorsReceived(self, message: wire.Errors) -> None:
        """This client's action, INITIALISATION or message was refused."""

    def problemReceived(self, message: wire.Problem) -> None:
        """A request of this client cannot be served."""

    def endedReceived(self, message: wire.Ended) -> None:
        """The game is over (or aborted: C{message.error})."""

    def leftReceived(self, message: wire.Left) -> None:
        """The seat, queue or game was left, as asked."""

    def unknownReceived(self, message: wire.Unknown) -> None:
        """A message of a type this client does not know: ignored here."""

    def send(self, message: dict[str, Any] | wire.ClientMessage) -> None:
        """Send a message: a dict, or one of L{wire}'s client messages."""
        self.sendMessage(message if isinstance(message, dict) else message.asJSON())
