"""
A peer whose connections fault again and again writes a bounded number of
log lines: on every port (each protocol's, and the web port's requests and
WebSockets), a connection closed for what its peer sent, its being made and
gone, a request or a WebSocket closed for its peer's fault, all go through
the hub's fault log (L{gameproto.engine.faults.FaultLog}): a few lines per
peer address each minute, then one saying how many were left out.
"""

from __future__ import annotations

import struct
from typing import Any, Callable

from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase
from wsproto import WSConnection
from wsproto.connection import Connection, ConnectionType
from wsproto.events import BytesMessage
from wsproto.events import Request as WSRequest

from gameproto import tap
from gameproto.engine.faults import FaultLog
from gameproto.enginejson import wire as engineWire
from gameproto.maitretarot import wire as tarotWire

from gameproto.test.hardening_helpers import LogCapture
from gameproto.test.service_helpers import LOCAL, onlyPorts

HOST = "192.0.2.7"
"""The peer that faults (a documentation address: never reached)."""

CONNECTIONS = 50

BAD: dict[str, bytes] = {
    "connect4": b"6\r\n",  # a message type no client sends: closed
    "maitretarot": struct.pack(">ii", tarotWire.SERVER_ID + 1, tarotWire.VERSION),  # closed
    "carcassonne": b"CLOSE 0\n",  # CLOSE before HELLO: closed
    "freedoko": b"garbage\n",  # no message: ignored, one fault line
    "engine": b"x" * (engineWire.MAX_MESSAGE + 10) + b"\n",  # a line too long: closed
}
"""What each protocol's peer sends that is its fault."""


REQUEST_TIMEOUT = 0.2
"""The service's C{--request-timeout}: 50 requests timed out well within a minute."""


def serve(clock: Clock, *ports: str) -> tap.GameprotoService:
    """The service with ``ports`` on (never listening: connections are made by hand)."""
    options = tap.Options()
    options.parseOptions(["--db", ":memory:", "--request-timeout", str(REQUEST_TIMEOUT),
                          *onlyPorts(**{name: LOCAL for name in ports})])
    return tap.makeService(options, clock)


def connect(service: tap.GameprotoService, name: str, port: int,
            ) -> tuple[Any, StringTransport]:
    """A connection of ``HOST`` (from ``port``) to the port ``name``."""
    address = IPv4Address("TCP", HOST, port)
    protocol = service.getServiceNamed(name).factory.buildProtocol(address)  # type: ignore[attr-defined]
    assert protocol is not None, f"{name}: refused"
    transport = StringTransport(peerAddress=address)
    protocol.makeConnection(transport)
    return protocol, transport


def fault(service: tap.GameprotoService, name: str, port: int) -> None:
    """One connection to ``name`` that sends its fault, then is gone."""
    protocol, transport = connect(service, name, port)
    protocol.dataReceived(BAD[name])
    protocol.connectionLost(Failure(ConnectionDone()))


def webSocketFault(service: tap.GameprotoService, clock: Clock, port: int) -> None:
    """A WebSocket to ``/engine`` (a text endpoint) sending a binary message: closed (1003)."""
    connection, transport = connect(service, "web", port)
    client = WSConnection(ConnectionType.CLIENT)
    connection.dataReceived(client.send(WSRequest(host="localhost", target="/engine")))
    clock.advance(0)  # a turn of the reactor: the upgrade, if the turn's requests were served
    assert transport.value().startswith(b"HTTP/1.1 101 "), transport.value()[:100]
    connection.dataReceived(Connection(ConnectionType.CLIENT).send(BytesMessage(b"binary")))
    assert transport.disconnecting
    connection.connectionLost(Failure(ConnectionDone()))


def requestTimeout(service: tap.GameprotoService, clock: Clock, port: int) -> None:
    """An HTTP request that never ends: closed at its deadline."""
    connection, transport = connect(service, "web", port)
    connection.dataReceived(b"GET / HTTP/1.1\r\n")
    clock.advance(service.hub.limits.requestTimeout)
    assert transport.disconnecting
    connection.connectionLost(Failure(ConnectionDone()))


class BoundedTests(SynchronousTestCase):
    """50 faulty connections from one address: a few lines, then one saying how many more."""

    def setUp(self) -> None:
        self.log = LogCapture(self)

    def peerLines(self, namespace: str | None = None) -> list[str]:
        return [line for line in self.log.lines(namespace) if HOST in line]

    def assertBounded(self, service: tap.GameprotoService, clock: Clock,
                      again: Callable[[int], None]) -> None:
        """
        After ``again`` was called for 50 connections: as many fault and
        connection lines as the hub's fault log allows a period, none more;
        a period later, the next connection's lines say how many were left
        out.  No traceback.
        """
        self.assertLessEqual(len(self.peerLines()), 15)  # as docs/security.md says
        faults = service.hub.faults
        assert isinstance(faults, FaultLog)
        self.assertEqual((faults.lines, faults.connections.lines, faults.period), (5, 10, 60))
        self.assertEqual(len(self.peerLines("gameproto.faults")), faults.lines)
        self.assertLessEqual(len(self.peerLines("gameproto.connections")),
                             faults.connections.lines)
        self.assertLessEqual(len(self.peerLines()), faults.lines + faults.connections.lines)
        self.assertEqual(self.log.failures(), [])
        clock.advance(faults.period)
        self.log.clear()
        again(CONNECTIONS + 1)
        summaries = [line for line in self.peerLines("gameproto.faults")
                     if "more faults from this peer not logged" in line]
        self.assertEqual(len(summaries), 1, self.peerLines())
        self.assertEqual(self.log.failures(), [])

    def test_everyProtocol(self) -> None:
        """Each protocol's port, on its own."""
        for name in BAD:
            self.log.clear()
            clock = Clock()
            service = serve(clock, name)
            for n in range(CONNECTIONS):
                fault(service, name, 40000 + n)
            self.assertLessEqual(len(self.peerLines()), 15, name)
            connectionLines = self.peerLines("gameproto.connections")
            self.assertEqual(len(connectionLines), service.hub.faults.connections.lines, name)
            self.assertTrue(all(line.startswith(f"{name} ") for line in connectionLines),
                            connectionLines)
            self.assertBounded(service, clock, lambda port: fault(service, name, port))

    def test_webSocketCloses(self) -> None:
        clock = Clock()
        service = serve(clock, "web")
        for n in range(CONNECTIONS):
            webSocketFault(service, clock, 40000 + n)
        self.assertLessEqual(len(self.peerLines()), 15)
        self.assertIn("websocket 192.0.2.7:40000: closing: binary message on a text endpoint",
                      self.peerLines("gameproto.faults"))
        self.assertBounded(service, clock, lambda port: webSocketFault(service, clock, port))

    def test_requestTimeouts(self) -> None:
        clock = Clock()
        service = serve(clock, "web")
        for n in range(CONNECTIONS):
            requestTimeout(service, clock, 40000 + n)
        self.assertLessEqual(len(self.peerLines()), 15)
        self.assertIn("web 192.0.2.7: closing: a request not complete 0.2 seconds after it began",
                      self.peerLines("gameproto.faults"))
        self.assertBounded(service, clock, lambda port: requestTimeout(service, clock, port))

    def test_everyPortShared(self) -> None:
        """One peer faulting on every port at once: one bound for all of them."""
        clock = Clock()
        service = serve(clock, "web", *BAD)
        site = service.getServiceNamed("web").factory  # type: ignore[attr-defined]

        def everywhere(port: int) -> None:
            for name in BAD:
                fault(service, name, port)
            webSocketFault(service, clock, port)
            requestTimeout(service, clock, port)

        for n in range(CONNECTIONS):
            everywhere(40000 + n)
        self.assertLessEqual(len(self.peerLines()), 15)
        self.assertIs(site.faults, service.hub.faults)
        self.assertBounded(service, clock, everywhere)

    def test_carcassonneRefusedMoves(self) -> None:
        """A Carcassonne player whose every move the referee refuses (MOVENACK, try again)."""
        clock = Clock()
        service = serve(clock, "carcassonne")
        (first, firstWire), (second, _) = [connect(service, "carcassonne", 40000 + n)
                                           for n in range(2)]
        for protocol in (first, second):
            protocol.dataReceived(b"HELLO 0\n")
        second.dataReceived(b"HELLOACK 0\n")
        for protocol in (first, second):
            protocol.dataReceived(b"READY 0\n")
        token = int(firstWire.value().split(b"TOKEN ")[1].split(b"\n")[0])
        firstWire.clear()
        for _ in range(CONNECTIONS):  # onto the start tile
            first.dataReceived(b"MOVE 0 (tile-u) 72 72 (N) () %d\n" % token)
        self.assertEqual(firstWire.value(), b"MOVENACK\n" * CONNECTIONS)
        refused = [line for line in self.log.lines() if "move refused" in line]
        self.assertEqual(len(refused), service.hub.faults.lines)
        self.assertTrue(all(line.startswith("carcassonne 192.0.2.7:40000 (player 1): ")
                            for line in refused), refused)
        self.assertEqual(self.log.failures(), [])

    def test_otherPeersStillLogged(self) -> None:
        """A peer that used up its lines does not silence another one."""
        clock = Clock()
        service = serve(clock, "connect4")
        for n in range(CONNECTIONS):
            fault(service, "connect4", 40000 + n)
        address = IPv4Address("TCP", "192.0.2.8", 40000)
        protocol = service.getServiceNamed("connect4").factory.buildProtocol(address)  # type: ignore[attr-defined]
        protocol.makeConnection(StringTransport(peerAddress=address))
        protocol.dataReceived(BAD["connect4"])
        closing = [line for line in self.log.lines() if "192.0.2.8" in line and "closing" in line]
        self.assertEqual(closing, ["connect4 192.0.2.8:40000: closing: unknown message type byte "
                                   "b'6'"])
