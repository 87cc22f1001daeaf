"""Test helpers: Protuissance 4 servers on a Clock and StringTransports."""

from __future__ import annotations

import itertools
import random
from typing import Any

from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from gameproto.connect4 import wire
from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings

_ports = itertools.count(40000)


class ClosingTransport(StringTransport):
    """A StringTransport that, like a reactor, reports the close a moment later."""

    def __init__(self, clock: Clock, protocol: Connect4ServerProtocol) -> None:
        super().__init__(peerAddress=IPv4Address("TCP", "127.0.0.1", next(_ports)))
        self.clock = clock
        self.protocol = protocol
        self.lost = False

    def loseConnection(self) -> None:
        if not self.disconnecting:
            super().loseConnection()
            self.clock.callLater(0, self.reportLost)

    def reportLost(self) -> None:
        if not self.lost:
            self.lost = True
            self.protocol.connectionLost(Failure(ConnectionDone()))


class Client:
    """One connection to the server under test."""

    def __init__(self, harness: Harness, protocol: Connect4ServerProtocol) -> None:
        self.harness = harness
        self.protocol = protocol
        self.transport = ClosingTransport(harness.clock, protocol)
        protocol.makeConnection(self.transport)

    def send(self, data: bytes) -> None:
        self.protocol.dataReceived(data)
        self.harness.clock.advance(0)

    def received(self) -> bytes:
        """What the server wrote since the last call."""
        data = self.transport.value()
        self.transport.clear()
        return data

    @property
    def closed(self) -> bool:
        return self.transport.disconnecting

    def hangUp(self) -> None:
        """The client closes the connection."""
        self.transport.disconnecting = True
        self.transport.reportLost()
        self.harness.clock.advance(0)

    def state(self) -> str:
        from gameproto.connect4.machine import stateName

        return stateName(self.protocol.player.machine)


class Harness:
    """A Protuissance 4 server on a Clock."""

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        self.clock = Clock()
        self.server = Connect4Server(Connect4Settings(**settings), self.clock,
                                     rng=random.Random(seed))
        self.factory = Connect4ServerFactory(self.server)

    def connect(self, nick: bytes | None = None) -> Client:
        protocol = self.factory.buildProtocol(None)
        assert protocol is not None
        client = Client(self, protocol)
        if nick is not None:
            client.send(b"0" + nick + b"\r\n")
        return client

    def game(self, a: bytes = b"alice", b: bytes = b"bob") -> tuple[Client, Client]:
        """Two connected players in a game: (player 0, player 1), buffers cleared."""
        first, second = self.connect(a), self.connect(b)
        start = second.received()
        first.received()
        message = wire.parseOne(start[5:], wire.SERVER_MESSAGES)
        assert isinstance(message, wire.GameStart), start
        if message.first == a.decode():
            return first, second
        return second, first
