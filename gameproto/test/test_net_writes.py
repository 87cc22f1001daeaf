"""
How a connection's messages reach a TCP socket (L{gameproto.net.WireProtocol.writeData}):
at once while nothing waits before them, through the transport's buffer
otherwise, the bytes in the order written whatever path each took.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import reactor
from twisted.internet.defer import Deferred
from twisted.internet.protocol import ClientFactory, Factory, Protocol
from twisted.internet.task import deferLater
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto._compat import pendingWriteBytes
from gameproto.net import PeerCounter, WireProtocol


class Writer(WireProtocol):
    """A server connection whose messages are bytes."""

    serialize = staticmethod(bytes)
    made: Deferred[Writer]

    def connectionMade(self) -> None:
        super().connectionMade()
        self.made.callback(self)


class Reader(Protocol):
    """A client that keeps what it reads."""

    def __init__(self) -> None:
        self.received = bytearray()

    def dataReceived(self, data: bytes) -> None:
        self.received += data


async def until(check: Any, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.01)):
        if check():
            return True
        await deferLater(reactor, 0.01)  # type: ignore[arg-type]
    return bool(check())


class TCPWriteTests(TestCase):
    """A server connection on loopback, and a client reading it."""

    async def connected(self) -> tuple[Writer, Reader]:
        made: Deferred[Writer] = Deferred()

        def build() -> Writer:
            writer = Writer()
            writer.made = made
            return writer

        factory: Any = Factory.forProtocol(build)  # type: ignore[arg-type]
        tcp: Any = reactor
        port = tcp.listenTCP(0, factory, interface="127.0.0.1")
        self.addCleanup(port.stopListening)
        reader = Reader()
        client: Any = ClientFactory.forProtocol(lambda: reader)
        connector = tcp.connectTCP("127.0.0.1", port.getHost().port, client)
        self.addCleanup(connector.disconnect)
        writer = await made
        self.addCleanup(lambda: writer.transport.abortConnection())  # type: ignore[union-attr]
        self.assertTrue(await until(lambda: reader.transport is not None))
        return writer, reader

    async def test_sentAtOnce(self) -> None:
        """With nothing waiting, a message is in the socket when writeData returns."""
        writer, reader = await self.connected()
        writer.sendMessage(b"3\x04\r\n")
        self.assertEqual(pendingWriteBytes(writer.transport), 0)
        self.assertTrue(await until(lambda: bytes(reader.received) == b"3\x04\r\n"))

    async def test_orderKeptWhenTheSocketIsFull(self) -> None:
        """
        Bytes the socket does not take wait in the transport, and every
        later message waits behind them: the reader gets each byte once, in
        the order written.
        """
        writer, reader = await self.connected()
        reader.transport.pauseProducing()  # type: ignore[union-attr]
        expected = bytearray()
        chunk = 0
        while not pendingWriteBytes(writer.transport):
            data = bytes([chunk % 251]) * 65536
            writer.writeData(data)
            expected += data
            chunk += 1
            self.assertLess(chunk, 2000, "the socket never filled")
        for n in range(100):
            data = b"3%c\r\n" % (n,)
            writer.writeData(data)
            expected += data
            self.assertGreater(pendingWriteBytes(writer.transport), 0)
        reader.transport.resumeProducing()  # type: ignore[union-attr]
        self.assertTrue(await until(lambda: len(reader.received) >= len(expected), 30.0))
        self.assertEqual(bytes(reader.received), bytes(expected))


class OtherTransportTests(SynchronousTestCase):
    """Any other transport (a WebSocket's, a test's) is written to as before."""

    def test_transportWrite(self) -> None:
        writer = Writer()
        writer.made = Deferred()
        transport = StringTransport()
        writer.makeConnection(transport)
        writer.sendMessage(b"4\r\n")
        self.assertEqual(transport.value(), b"4\r\n")


class FootprintTests(SynchronousTestCase):
    """What each connection, idle ones included, keeps of its own."""

    def test_noPauseSetUntilPaused(self) -> None:
        writer = Writer()
        writer.made = Deferred()
        writer.makeConnection(StringTransport())
        self.assertNotIn("_readPauses", vars(writer))
        self.assertFalse(writer.readingPaused)
        writer.pauseProducing()
        self.assertTrue(writer.readingPaused)
        writer.resumeProducing()
        self.assertFalse(writer.readingPaused)

    def test_oneReleaserPerHost(self) -> None:
        """A host's connections share what releases them, forgotten once it holds none."""
        peers = PeerCounter(0)
        self.assertTrue(peers.acquire("10.0.0.1") and peers.acquire("10.0.0.1"))
        first, second = peers.releaser("10.0.0.1"), peers.releaser("10.0.0.1")
        self.assertIs(first, second)
        first()
        self.assertEqual(peers.counts, {"10.0.0.1": 1})
        second()
        self.assertEqual(peers.counts, {})
        self.assertIsNot(peers.releaser("10.0.0.1"), first)
