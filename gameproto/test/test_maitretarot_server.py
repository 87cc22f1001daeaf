"""
The MaîtreTarot server, one connection at a time: every machine transition,
the identification bytes, bad input and every timeout, on StringTransports
and a Clock.
"""

from __future__ import annotations

import random
from typing import Any

from twisted.internet import defer
from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python import usage
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto import tap

from gameproto.games.tarot import TarotView
from gameproto.maitretarot import wire
from gameproto.maitretarot.machine import ServerMachine, stateName
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings

from .tarot_helpers import Client, Net
from .test_connect4_machine import RecordingCore, TransitionTableMixin
from .test_connect4_server import LogCapture


class TarotRecordingCore(RecordingCore):
    nickExpectation = wire.Expect(wire.GetNick, 5)


_TABLE, _INSTRUCTIONS = object(), object()

INPUTS: dict[str, tuple[Any, ...]] = {
    "expected": (), "idAccepted": (), "idRefused": (), "protocolAccepted": (),
    "protocolRefused": (), "nickLength": (5,), "defaultNick": (), "nickLengthRefused": (99,),
    "nickReceived": (b"alice",), "askBid": (), "bidReceived": (2,), "askDiscard": (),
    "discardReceived": ((1, 2, 3, 4, 5, 6),), "askCard": (), "cardReceived": (7,),
    "accepted": (), "refused": (), "askReplay": (), "replayReceived": (1,), "tableEnded": (),
    "timedOut": (), "unexpectedData": (), "connectionLost": (), "reclaimed": (),
    "update": (_TABLE, 2, _INSTRUCTIONS), "forfeited": (), "placeKept": (),
}

_ID = ["idAccepted", "protocolAccepted"]
_SEATED = _ID + ["defaultNick", "update"]
PATHS: dict[str, list[str]] = {
    "awaitingId": [],
    "awaitingProtocol": ["idAccepted"],
    "awaitingNickLength": _ID,
    "awaitingNick": _ID + ["nickLength"],
    "waitingTable": _ID + ["defaultNick"],
    "rejoining": _ID + ["defaultNick", "reclaimed"],
    "seated": _SEATED,
    "bidding": _SEATED + ["askBid"],
    "discarding": _SEATED + ["askDiscard"],
    "judgingDiscard": _SEATED + ["askDiscard", "discardReceived"],
    "playing": _SEATED + ["askCard"],
    "judgingCard": _SEATED + ["askCard", "cardReceived"],
    "forfeiting": _SEATED + ["askCard", "timedOut"],
    "replaying": _SEATED + ["askReplay"],
    "closed": ["connectionLost"],
}

LOST = ("closed", [("stopTimer", ()), ("cleanUp", ())])
UNEXPECTED = ("closed", [("drop", ("data sent out of sequence",))])
SLOW_ID = ("closed", [("drop", ("identification not finished in time",))])
SLOW_MOVE = ("forfeiting", [("playForMe", ())])
UPDATE = (_TABLE, 2, _INSTRUCTIONS)

TABLE: dict[tuple[str, str], tuple[str, list[Any]]] = {
    ("awaitingId", "idAccepted"): ("awaitingProtocol", [("welcome", ()), ("startTimer", ())]),
    ("awaitingId", "idRefused"): ("closed", [("refuseId", ()),
                                             ("drop", ("GET_ID names another server",))]),
    ("awaitingProtocol", "protocolAccepted"): ("awaitingNickLength",
                                               [("takePlace", ()), ("startTimer", ())]),
    ("awaitingProtocol", "protocolRefused"): ("closed", [
        ("drop", ("the client does not speak protocol 0.1",))]),
    ("awaitingNickLength", "nickLength"): ("awaitingNick", [("startTimer", ())]),
    ("awaitingNickLength", "defaultNick"): ("waitingTable", [("stopTimer", ()), ("join", (None,))]),
    ("awaitingNickLength", "nickLengthRefused"): ("closed", [
        ("drop", ("nick length 99 out of 0..64",))]),
    ("awaitingNick", "nickReceived"): ("waitingTable", [("stopTimer", ()), ("join", (b"alice",))]),
    ("waitingTable", "reclaimed"): ("rejoining", []),
    ("waitingTable", "placeKept"): ("closed", [
        ("drop", ("its place is kept for the player who left it from this address",))]),
    ("rejoining", "tableEnded"): ("closed", [("drop", ("the table it came back to is over",))]),
    ("waitingTable", "update"): ("seated", [("begin", UPDATE + (False,))]),
    ("rejoining", "update"): ("seated", [("begin", UPDATE + (True,))]),
    ("forfeiting", "forfeited"): ("closed", [("drop", ("no answer in time: a bot plays the seat",))]),
    ("seated", "askBid"): ("bidding", []),
    ("seated", "askDiscard"): ("discarding", []),
    ("seated", "askCard"): ("playing", []),
    ("seated", "askReplay"): ("replaying", []),
    ("replaying", "askReplay"): ("replaying", []),
    ("bidding", "bidReceived"): ("seated", [("submitBid", (2,))]),
    ("discarding", "discardReceived"): ("judgingDiscard", [("submitDiscard", ((1, 2, 3, 4, 5, 6),))]),
    ("judgingDiscard", "accepted"): ("seated", []),
    ("judgingDiscard", "refused"): ("discarding", [("send", (wire.SendAckForChien(0),)),
                                                   ("restartClock", ())]),
    ("playing", "cardReceived"): ("judgingCard", [("submitCard", (7,))]),
    ("judgingCard", "accepted"): ("seated", []),
    ("judgingCard", "refused"): ("playing", [("send", (wire.SendAckForCard(0),))]),
    ("replaying", "replayReceived"): ("seated", [("submitReplay", (1,))]),
    ("replaying", "timedOut"): ("closed", [("drop", ("no ACK_REPLAY in time",))]),
    ("seated", "tableEnded"): ("closed", [("end", ())]),
}
for _state in ("awaitingId", "awaitingProtocol", "awaitingNickLength", "awaitingNick"):
    TABLE[(_state, "timedOut")] = SLOW_ID
for _state in ("bidding", "discarding", "playing"):
    TABLE[(_state, "timedOut")] = SLOW_MOVE
for _state in ("waitingTable", "rejoining", "seated", "judgingDiscard", "judgingCard",
               "forfeiting", "closed"):
    TABLE[(_state, "timedOut")] = (_state, [])
for _state in ("seated", "bidding", "discarding", "judgingDiscard", "playing", "judgingCard",
               "replaying"):
    TABLE[(_state, "update")] = (_state, [("follow", UPDATE)])
TABLE[("forfeiting", "update")] = ("forfeiting", [])  # given up: told nothing more
for _state in ("awaitingId", "awaitingProtocol", "awaitingNickLength"):
    TABLE[(_state, "update")] = (_state, [])
for _name in ("askBid", "askDiscard", "askCard", "askReplay", "accepted", "refused",
              "tableEnded"):
    TABLE[("forfeiting", _name)] = ("forfeiting", [])
for _state in PATHS:
    TABLE[(_state, "expected")] = (_state, [])
    if _state != "closed":
        TABLE[(_state, "unexpectedData")] = UNEXPECTED
        TABLE[(_state, "connectionLost")] = LOST
for _name in INPUTS:
    TABLE.setdefault(("closed", _name), ("closed", []))


class ServerMachineTests(TransitionTableMixin, SynchronousTestCase):
    machineFactory = ServerMachine
    inputs = INPUTS
    paths = PATHS
    table = TABLE

    def reach(self, state: str) -> tuple[Any, RecordingCore]:
        core = TarotRecordingCore()
        machine = self.machineFactory(core)
        for name in self.paths[state]:
            getattr(machine, name)(*self.inputs[name])
        core.calls.clear()
        return machine, core

    def test_expected(self) -> None:
        """What each state reads: exactly the document's message, or nothing."""
        expected = {
            "awaitingId": wire.Expect(wire.GetId), "awaitingProtocol": wire.Expect(wire.GetProtocol),
            "awaitingNickLength": wire.Expect(wire.GetNickLen),
            "awaitingNick": wire.Expect(wire.GetNick, 5), "waitingTable": None,
            "rejoining": None, "seated": None, "forfeiting": None,
            "bidding": wire.Expect(wire.GetBid), "discarding": wire.Expect(wire.GetChien),
            "judgingDiscard": None, "playing": wire.Expect(wire.GetTurnCard),
            "judgingCard": None, "replaying": wire.Expect(wire.AckReplay), "closed": None,
        }
        for state, expect in expected.items():
            machine, _ = self.reach(state)
            self.assertEqual(machine.expected(), expect, state)


class Raw:
    """A client that writes raw messages and reads the server's bytes by kind."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        protocol = harness.factory.buildProtocol(None)
        assert protocol is not None
        self.protocol = protocol
        self.transport = StringTransport()
        self.protocol.makeConnection(self.transport)
        self.reader = wire.Reader(limit=1 << 20)
        self.lost = False

    def send(self, *messages: wire.Message) -> None:
        self.protocol.dataReceived(b"".join(wire.serialize(m) for m in messages))

    def read(self, kind: type, **kw: Any) -> Any:
        self.reader.feed(self.transport.value())
        self.transport.clear()
        message = self.reader.take(wire.Expect(kind, **kw))
        assert message is not wire.NEED_MORE, f"no {kind.__name__} yet"
        return message

    def rest(self) -> bytes:
        self.reader.feed(self.transport.value())
        self.transport.clear()
        return self.reader.take(wire.Expect(wire.GetNick, self.reader.buffered)).nick  # type: ignore[union-attr]

    @property
    def closed(self) -> bool:
        return self.transport.disconnecting

    def loseConnection(self) -> None:
        if not self.lost:
            self.lost = True
            self.protocol.connectionLost(Failure(ConnectionDone()))

    def identify(self, nick: bytes = b"alice") -> int:
        self.send(wire.GetId(wire.SERVER_ID, 1))
        assert self.read(wire.SendId) == wire.SendId(wire.SERVER_ID, wire.VERSION)
        assert self.read(wire.SendProtocol) == wire.SendProtocol(1)
        self.send(wire.GetProtocol(1))
        place = self.read(wire.SendPlace).place
        self.send(wire.GetNickLen(len(nick)), wire.GetNick(nick))
        return place


class Harness:
    def __init__(self, **settings: Any) -> None:
        settings.setdefault("botsAfter", 1000)
        self.clock = Clock()
        self.server = TarotServer(TarotSettings(**settings), self.clock, rng=random.Random(0))
        self.factory = TarotServerFactory(self.server)

    def connect(self) -> Raw:
        return Raw(self)


class IdentificationTests(SynchronousTestCase):
    """Table 3: the exact exchange and its refusals."""

    def test_exchange(self) -> None:
        client = Harness().connect()
        client.send(wire.GetId(wire.SERVER_ID, 7))
        self.assertEqual(client.transport.value(),
                         b"\x00\x00\x4d\x54\x00\x00\x00\x02" + b"\x00\x00\x00\x01")
        client.transport.clear()
        client.send(wire.GetProtocol(1))
        self.assertEqual(client.read(wire.SendPlace), wire.SendPlace(0))
        client.send(wire.GetNickLen(5), wire.GetNick(b"alice"))
        self.assertFalse(client.closed)
        self.assertEqual(client.protocol.player.nick, "alice")
        self.assertEqual(stateName(client.protocol.player.machine), "waitingTable")

    def test_placesInOrder(self) -> None:
        harness = Harness()
        places = [harness.connect().identify(b"p%d" % i) for i in range(3)]
        self.assertEqual(places, [0, 1, 2])

    def test_wrongId(self) -> None:
        logs = LogCapture(self)
        client = Harness().connect()
        client.send(wire.GetId(12345, 1))
        self.assertEqual(client.read(wire.SendId), wire.SendId(-1, wire.VERSION))
        self.assertTrue(client.closed)
        self.assertEqual(len(logs.lines("GET_ID names another server")), 1)
        self.assertEqual(logs.failures, [])

    def test_protocolRefused(self) -> None:
        for answer in (0, 2, -1):
            client = Harness().connect()
            client.send(wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(answer))
            self.assertTrue(client.closed, answer)

    def test_defaultNick(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send(wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(1))
        client.read(wire.SendId), client.read(wire.SendProtocol), client.read(wire.SendPlace)
        client.send(wire.GetNickLen(0))
        self.assertEqual(client.protocol.player.nick, "player1")

    def test_nickLengthLimits(self) -> None:
        for length, closed in ((64, False), (65, True), (-1, True), (2**31 - 1, True)):
            client = Harness().connect()
            client.send(wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(1),
                        wire.GetNickLen(length))
            self.assertEqual(client.closed, closed, length)

    def test_nickArrivesInPieces(self) -> None:
        client = Harness().connect()
        data = b"".join(wire.serialize(m) for m in (
            wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(1), wire.GetNickLen(3),
            wire.GetNick(b"b\xc3\xa9")))
        for byte in data:
            client.protocol.dataReceived(bytes((byte,)))
        self.assertEqual(client.protocol.player.nick, "bé")

    def test_invalidUtf8Nick(self) -> None:
        client = Harness().connect()
        client.identify(b"\xff\xfe")
        self.assertEqual(client.protocol.player.nick, "\ufffd\ufffd")

    def test_timeoutAtEachStep(self) -> None:
        steps: list[list[wire.Message]] = [[], [wire.GetId(wire.SERVER_ID, 1)],
                 [wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(1)],
                 [wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(1), wire.GetNickLen(4)]]
        for sent in steps:
            harness = Harness(timeout=5)
            client = harness.connect()
            client.send(*sent)
            harness.clock.advance(4.9)
            self.assertFalse(client.closed, sent)
            harness.clock.advance(0.1)
            self.assertTrue(client.closed, sent)

    def test_timeoutFreesThePlace(self) -> None:
        harness = Harness(timeout=5)
        client = harness.connect()
        client.send(wire.GetId(wire.SERVER_ID, 1), wire.GetProtocol(1))
        harness.clock.advance(5)
        client.loseConnection()
        self.assertEqual(harness.connect().identify(), 0)


class BadInputTests(SynchronousTestCase):
    def test_dataWhileSeated(self) -> None:
        """A byte nobody asked for closes the connection, with one log line."""
        logs = LogCapture(self)
        client = Harness().connect()
        client.identify()
        client.protocol.dataReceived(b"\x00")
        self.assertTrue(client.closed)
        self.assertEqual(len(logs.lines("data sent out of sequence")), 1)
        self.assertEqual(logs.failures, [])

    def test_leaveBeforeTheTableStarts(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.identify()
        client.loseConnection()
        waiting = harness.server.waiting
        assert waiting is not None
        self.assertEqual(waiting.places, [None] * 4)


class TimeoutTests(SynchronousTestCase):
    """During a deal: a bot plays for the slow player, who is disconnected."""

    def test_bidTimeout(self) -> None:
        class Silent(Client):
            def chooseBid(self, view: TarotView) -> Any:
                return defer.Deferred()

        logs = LogCapture(self)
        net = Net(seed=3, timeout=10, botDelay=1)
        clients = [Client("p0"), Silent("p1"), Client("p2"), Client("p3")]
        for client in clients:
            net.join(client)
        net.clock.advance(9.9)
        net.flush()
        self.assertFalse(clients[1].lostConnection)
        net.clock.advance(0.1)
        net.flush()
        self.assertTrue(clients[1].lostConnection)
        self.assertEqual(len(logs.lines("a bot plays the seat")), 1)
        (session,) = net.server.playing
        assert session.table is not None
        self.assertNotEqual(session.table.engine.view(1).bids[1], wire.NO_BID)
        net.run()
        self.assertEqual(len(clients[0].scores), 1)

    def test_cardTimeout(self) -> None:
        class Silent(Client):
            def chooseCard(self, view: TarotView) -> Any:
                return defer.Deferred()

        net = Net(seed=3, timeout=10)
        clients = [Client("p0"), Client("p1"), Silent("p2"), Client("p3")]
        for client in clients:
            net.join(client)
        net.run()
        self.assertTrue(clients[2].lostConnection)
        self.assertEqual(clients[2].scores, [])
        self.assertEqual(len(clients[0].scores), 1)

    def test_toldNothingAfterTheTimeout(self) -> None:
        """
        A client asked for a card that lets its time run out (half a
        GET_TURN_CARD sent, then silence) is sent nothing more, not the
        bot's card nor the next question: only the close.
        """
        class Stalling(Client):
            asked = False
            after = b""

            def chooseCard(self, view: TarotView) -> Any:
                self.asked = True
                assert self.transport is not None
                self.transport.write(b"\x00\x00")  # half a gint
                return defer.Deferred()

            def dataReceived(self, data: bytes) -> None:
                if self.asked:
                    self.after += data
                super().dataReceived(data)

        net = Net(seed=3, timeout=10)
        clients = [Client("p0"), Client("p1"), Stalling("p2"), Client("p3")]
        for client in clients:
            net.join(client)
        net.run()
        stalling = clients[2]
        assert isinstance(stalling, Stalling)
        self.assertTrue(stalling.asked and stalling.lostConnection)
        self.assertEqual(stalling.after, b"")
        self.assertEqual(len(clients[0].scores), 1)

    def test_replayTimeoutCountsAsNo(self) -> None:
        class Silent(Client):
            def playAgain(self, view: TarotView) -> Any:
                return defer.Deferred()

        net = Net(seed=3, timeout=10)
        clients = [Client("p0", 5), Client("p1", 5), Silent("p2", 5), Client("p3", 5)]
        for client in clients:
            net.join(client)
        net.run()
        self.assertEqual([len(c.scores) for c in clients], [1, 1, 1, 1])
        self.assertTrue(all(c.ended for c in (clients[0], clients[1], clients[3])))
        self.assertTrue(all(c.lostConnection for c in clients))


class PluginTests(SynchronousTestCase):
    """``--maitretarot-reclaim``: who may take back a seat left during a deal."""

    def parse(self, *argv: str) -> Any:
        options = tap.Options()
        options.parseOptions(list(argv))
        return options["settings"]["maitretarot"]

    def test_reclaimRule(self) -> None:
        self.assertEqual(self.parse().reclaim, "address")
        for rule in ("address", "off", "OFF"):
            self.assertEqual(self.parse("--maitretarot-reclaim", rule).reclaim, rule.lower())
        for rule in ("anyone", "nick"):  # a nick alone never takes a seat back
            self.assertRaises(usage.UsageError, self.parse, "--maitretarot-reclaim", rule)
            self.assertRaises(ValueError, TarotSettings, reclaim=rule)
        self.assertIn("--maitretarot-reclaim=", str(tap.Options()))
