"""
The FreeDoko parent with children on StringTransports and a Clock: the
handshake, the party's lines, the relay, the ``trick taken`` barrier, the
refusals, every timeout, a child leaving and coming back, the plugin.
"""

from __future__ import annotations

import json
import random
from typing import Any

from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python import usage
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import JSON, Errors, Seat
from gameproto.engine.hub import Hub
from gameproto.engine.record import MemoryRecordStore, RecordStore
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import Table
from gameproto.freedoko import wire
from gameproto.freedoko.client import FreeDokoClientProtocol
from gameproto.freedoko.machine import stateName
from gameproto.freedoko.plugin import freedoko
from gameproto.freedoko.server import (
    LINGER,
    FreeDokoBot,
    FreeDokoServer,
    FreeDokoServerFactory,
    FreeDokoSettings,
    Translator,
    card,
    childName,
    partyOf,
    reservationAction,
    rulesBlock,
)
from gameproto.games import doppelkopf
from gameproto.games.doppelkopf import Rules, dealHands, doppelkopfBot
from gameproto.net import Limits
from gameproto.web.api import API

from .test_connect4_server import LogCapture
from .test_metrics import apiCall

RULES = "number of rounds limited = true\nnumber of rounds = 1\n"


class Child:
    """A FreeDoko child on a StringTransport: what it sends, what it was sent."""

    def __init__(self, harness: Harness, host: str) -> None:
        self.harness = harness
        address = IPv4Address("TCP", host, 40000 + len(harness.children))
        self.transport = StringTransport(peerAddress=address)
        protocol = harness.factory.buildProtocol(address)
        assert protocol is not None
        self.protocol = protocol
        self.reader = wire.Reader()
        self.log: list[Any] = []
        protocol.makeConnection(self.transport)

    def read(self) -> list[Any]:
        """The messages sent since the last read."""
        data = self.transport.value()
        self.transport.clear()
        messages = [r.message for r in self.reader.feed(data)]
        self.log += messages
        return messages

    def send(self, *messages: wire.Message) -> None:
        self.protocol.dataReceived(b"".join(wire.format(m) for m in messages))

    @property
    def seat(self) -> int:
        return self.protocol.child.seat

    @property
    def state(self) -> str:
        return stateName(self.protocol.child.machine)

    @property
    def closed(self) -> bool:
        return bool(self.transport.disconnecting)

    def lose(self) -> None:
        self.protocol.connectionLost(Failure(ConnectionDone()))


def wireAction(seat: int, action: JSON) -> wire.Message:
    """An engine action as the child's gameplay action."""
    assert isinstance(action, dict)
    ((kind, value),) = action.items()
    if kind == "reservation":
        return reservationAction(seat, str(value))
    if kind == "card":
        return wire.CardPlayed(seat, card(str(value)), "choose")
    if kind == "poverty shift":
        return wire.PovertyShift(seat, tuple(card(c) for c in value))  # type: ignore[union-attr]
    if kind == "poverty returned":
        return wire.PovertyReturned(seat, tuple(card(c) for c in value))  # type: ignore[union-attr]
    if kind == "poverty accepted":
        return wire.PovertyAccepted(seat) if value else wire.PovertyDenied(seat)
    raise AssertionError(action)


class Harness:
    """Our parent on a Clock, children connected by hand."""

    def __init__(self, seed: int = 5, store: RecordStore | None = None, **knobs: Any) -> None:
        self.clock = Clock()
        self.store = store if store is not None else MemoryRecordStore()
        hub = Hub(self.clock, self.store, random.Random(seed), limits=Limits(messageRate=0))
        self.server = FreeDokoServer(FreeDokoSettings(**{"rules": RULES, **knobs}), hub=hub)
        self.factory = FreeDokoServerFactory(self.server)
        self.children: list[Child] = []

    def child(self, name: str | None = None, host: str = "10.0.0.1") -> Child:
        child = Child(self, host)
        self.children.append(child)
        if name is not None:
            child.send(wire.Name(name))
        return child

    def table(self) -> Table:
        rooms = [room for room in self.server.playing if room.table is not None]
        assert rooms, "no party plays"
        table = rooms[-1].table
        assert table is not None
        return table

    def answer(self, child: Child) -> list[Any]:
        """The child reads, and answers each ``trick taken`` with its own."""
        messages = child.read()
        taken = sum(isinstance(m, wire.TrickTaken) for m in messages)
        for _ in range(taken):
            child.send(wire.TrickTaken())
        return messages

    def move(self, child: Child) -> wire.Message | None:
        """The move the engine's bot would make for the child's seat, if it is asked."""
        table = self.table()
        seat = child.seat
        if table.finished or seat not in table.waiting or table.holders[seat] is not \
                child.protocol.child:
            return None
        view = partyOf(table).view(seat)
        if view.phase == doppelkopf.PLAYING:
            return wire.CardPlayed(seat, card(doppelkopf.botCard(view)), "choose")
        return wireAction(seat, doppelkopfBot(view, seat))

    def play(self, children: list[Child], steps: int = 20000) -> None:
        """The children play along (as real children do) until the party is over."""
        table = self.table()
        for _ in range(steps):
            for child in children:
                if not child.closed:
                    self.answer(child)
            if table.finished and all(c.closed or c.state != "playing" for c in children):
                for child in children:
                    if not child.closed:
                        self.answer(child)
                return
            for child in children:
                if not child.closed:
                    move = self.move(child)
                    if move is not None:
                        child.send(move)
            self.clock.advance(0.01)
        raise AssertionError("the party did not end")


def handshake(seat: int, names: list[str]) -> list[Any]:
    """The lines after ``FreeDoko server`` for a child managing ``seat``."""
    lines: list[Any] = [wire.Name("gameproto"), rulesBlock(Rules.parse(RULES))]
    for player in range(4):
        lines.append(wire.PlayerType(player, player == seat))
        if player != seat:
            lines.append(wire.PlayerName(player, names[player]))
    return lines


class HandshakeTests(SynchronousTestCase):
    """Greeting, naming, the rules block, the seat."""

    def test_greeting(self) -> None:
        """The parent's first line is ``FreeDoko server``; then it waits for the name."""
        harness = Harness()
        child = harness.child()
        self.assertEqual(child.read(), [wire.ServerHello()])
        self.assertEqual(child.state, "awaitingName")

    def test_handshake(self) -> None:
        """
        After its name: ``name:``, the rules block, its seat local, the
        others' names: a bot's numbered as players see the seats (P1..P4),
        so FreeDoko's player 1, P2, is ``bot2``.
        """
        harness = Harness()
        child = harness.child("Anna")
        self.assertEqual(child.read(), [wire.ServerHello()] + handshake(
            0, ["Anna", "bot2", "bot3", "bot4"]))
        self.assertEqual(child.state, "waiting")
        second = harness.child("Bert")
        self.assertEqual(second.read()[1:], handshake(1, ["Anna", "Bert", "bot3", "bot4"]))

    def test_rulesBlock(self) -> None:
        """The block keeps the real parent's lines, indentation and comments, with our values."""
        block = rulesBlock(Rules.parse(RULES + "my own rule = 3\n"))
        self.assertIn(wire.RuleSetting("number of rounds", "1", 2), block.entries)
        self.assertIn(wire.RuleSetting("with nines", "true"), block.entries)
        self.assertIn(wire.RuleComment(" Extrapoints:"), block.entries)
        self.assertEqual(block.entries[-1], wire.RuleSetting("my own rule", "3"))
        again = wire.Reader().feed(wire.format(block))
        self.assertEqual([r.message for r in again], [block])

    def test_secondName(self) -> None:
        """The child says its name again in answer to ``FreeDoko server``: nothing happens."""
        harness = Harness()
        child = harness.child("Anna")
        child.read()
        child.send(wire.Name("Anna"), wire.PlayerType(2, False), wire.PlayerName(2, "Erika"))
        self.assertEqual(child.read(), [])
        self.assertEqual(child.state, "waiting")

    def test_nameTimeout(self) -> None:
        """A child that never says its name is closed after the timeout."""
        harness = Harness(timeout=10.0)
        child = harness.child()
        harness.clock.advance(9.9)
        self.assertFalse(child.closed)
        harness.clock.advance(0.2)
        self.assertTrue(child.closed)
        self.assertEqual(child.state, "closed")

    def test_pingAndAsk(self) -> None:
        """``ping`` gets ``pong`` (with its number); ``ask: rules`` and ``ask: name`` answers."""
        harness = Harness()
        child = harness.child()
        child.read()
        child.send(wire.Ping(4), wire.Ping(), wire.Ask("rules"), wire.Ask("name"))
        self.assertEqual(child.read(), [wire.Pong(4), wire.Pong(), rulesBlock(Rules.parse(RULES)),
                                        wire.Name("gameproto")])
        capture = LogCapture(self)
        child.send(wire.Ask("weather"))
        self.assertEqual(child.read(), [])
        self.assertEqual(len(capture.lines("line ignored")), 1)

    def test_malformed(self) -> None:
        """A line that is no message: one log line, and the connection goes on."""
        harness = Harness()
        child = harness.child("Anna")
        child.read()
        capture = LogCapture(self)
        child.protocol.dataReceived(b"garbage: here\n")
        self.assertEqual(len(capture.lines("line ignored")), 1)
        self.assertEqual(child.state, "waiting")

    def test_connectionRejected(self) -> None:
        """
        With ``maxTables`` parties playing, a newcomer is sent ``connection
        rejected``, then nothing more but a pong; as the real parent, we
        leave the connection open (closing it may make a real child crash)
        until the child closes it, an hour at most.
        """
        harness = Harness(maxTables=1)
        for name in ("A", "B", "C", "D"):
            harness.child(name)
        harness.table()
        capture = LogCapture(self)
        late = harness.child("E")
        self.assertEqual(late.read(), [wire.ServerHello(), wire.ConnectionRejected()])
        self.assertEqual(len(capture.lines("connection rejected: 1 parties play already")), 1)
        self.assertFalse(late.closed)
        self.assertEqual(late.state, "rejected")
        late.send(wire.Name("E"), wire.Ping(3), wire.Chat("hello?"), wire.Ask("rules"))
        self.assertEqual(late.read(), [wire.Pong(3)])
        harness.clock.advance(LINGER)
        self.assertTrue(late.closed)
        self.assertEqual(late.state, "closed")

    def test_leaveBeforeStart(self) -> None:
        """A child leaving a waiting table frees its place for the next one."""
        harness = Harness()
        first = harness.child("Anna")
        first.lose()
        second = harness.child("Bert")
        self.assertEqual(second.seat, 0)


def startTable(*names: str, **knobs: Any) -> tuple[Harness, list[Child]]:
    """A table of children called ``names`` and bots, started."""
    harness = Harness(botDelay=0.0, **knobs)
    children = [harness.child(name) for name in names]
    harness.clock.advance(30.0)  # bots fill the table
    return harness, children


def playUntilAsked(harness: Harness, child: Child, phase: str,
                   others: tuple[Child, ...] = ()) -> None:
    """Play along until the table waits for ``child`` in ``phase``."""
    table = harness.table()
    for _ in range(5000):
        for one in (child,) + others:
            harness.answer(one)
        if child.seat in table.waiting and partyOf(table).phase == phase:
            return
        for one in (child,) + others:
            move = harness.move(one)
            if move is not None:
                one.send(move)
        harness.clock.advance(0.01)
    raise AssertionError(f"never asked in {phase}")


class PartyTests(SynchronousTestCase):
    """The party's lines, the relay and the barrier."""

    def start(self, *names: str, **knobs: Any) -> tuple[Harness, list[Child]]:
        return startTable(*names, **knobs)

    def test_partyLines(self) -> None:
        """The party starts as the real parent's: names, seed, startplayer, game, own hand."""
        harness, (child,) = self.start("Anna")
        lines = child.read()
        party = partyOf(harness.table())
        start = lines.index(wire.PartySeed(party.seed))
        self.assertEqual(lines[start - 3:start + 7], [
            wire.PlayerName(1, "bot2"), wire.PlayerName(2, "bot3"), wire.PlayerName(3, "bot4"),
            wire.PartySeed(party.seed), wire.PartyStartplayer(0), wire.PartyStart(),
            wire.PartyStartRound(0), wire.GameOpen(), wire.GameStartplayer(0),
            wire.GameSeed(party.seed)])
        hands = [m for m in lines if isinstance(m, wire.GameHand)]
        dealt = dealHands(party.seed, 0)
        self.assertEqual(hands, [wire.GameHand(0, tuple(card(c) for c in dealt[0]))],
                         "only the child's own hand, dealt by FreeDoko's generator")

    def test_botsDecideAsWithTheView(self) -> None:
        """
        The server's bots read their seat from the party (L{FreeDokoBot.decide}):
        every move is the one they would choose given the seat's full view.
        """
        decided: list[tuple[JSON, JSON]] = []
        decide = FreeDokoBot.decide

        def checked(bot: FreeDokoBot, table: Table, seat: Seat) -> JSON:
            viewed = bot.choose(table.engine.view(seat), seat)
            move = decide(bot, table, seat)
            decided.append((move, viewed))
            return move

        self.patch(FreeDokoBot, "decide", checked)
        harness, (child,) = self.start("Anna")
        table = harness.table()
        harness.play([child])
        self.assertTrue(table.finished)
        self.assertGreater(len(decided), 3 * 12)
        self.assertEqual([move for move, _ in decided], [viewed for _, viewed in decided])

    def test_wholeParty(self) -> None:
        """One child and three bots play the party to ``party: finish``; then it closes."""
        harness, (child,) = self.start("Anna")
        table = harness.table()
        harness.play([child])
        self.assertTrue(table.finished)
        self.assertIsNotNone(table.record.scores)
        self.assertEqual(child.log.count(wire.PartyFinish()), 1)
        games = child.log.count(wire.GameFinish())
        self.assertGreaterEqual(games, 4)
        self.assertEqual(sum(isinstance(m, wire.TrickFull) for m in child.log), 12 * games)
        self.assertEqual(child.state, "finished")
        harness.clock.advance(LINGER)
        self.assertTrue(child.closed)
        record = harness.store.get(table.id)
        assert record is not None
        self.assertEqual((record.engine, record.seats[0]), ("doppelkopf", "Anna"))

    def test_withoutNines(self) -> None:
        """
        Without nines a game has ten tricks: each is opened once, and the
        tenth's ``trick taken`` is followed by ``game: finish`` (the real
        parent opens no eleventh trick).
        """
        harness = Harness(botDelay=0.0, rules=RULES + "with nines = false\n")
        anna = harness.child("Anna")
        harness.clock.advance(30.0)
        table = harness.table()
        harness.play([anna])
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)
        log = anna.log
        games = log.count(wire.GameFinish())
        self.assertGreaterEqual(games, 4)
        self.assertTrue(all(len(m.cards) == 10 for m in log if isinstance(m, wire.GameHand)))
        self.assertEqual(sum(isinstance(m, wire.TrickFull) for m in log), 10 * games)
        self.assertEqual(log.count(wire.TrickOpen()), 10 * games)
        for index, message in enumerate(log):
            if message == wire.GameFinish():
                self.assertEqual(log[index - 1], wire.TrickTaken())
                self.assertIsInstance(log[index - 2], wire.TrickFull)

    def test_botDelay(self) -> None:
        """With ``botDelay``, each bot's move comes that many seconds after its turn came."""
        harness = Harness(botDelay=2.0)
        anna = harness.child("Anna")
        harness.clock.advance(30.0)
        table = harness.table()
        self.assertEqual((anna.seat, table.turn), (0, 0))
        anna.read()
        anna.send(wire.Reservation(0, "normal"))
        self.assertEqual(anna.read(), [wire.Reservation(0, "normal")])
        for bot in (1, 2):
            harness.clock.advance(1.9)
            self.assertEqual(anna.read(), [], f"bot{bot} waits")
            harness.clock.advance(0.1)
            (line,) = anna.read()
            self.assertIsInstance(line, wire.Reservation)
            self.assertEqual(line.player, bot)

    def test_echo(self) -> None:
        """A child's card is echoed to every child, the sender included, with ``(network)``."""
        harness, children = self.start("Anna", "Bert")
        table = harness.table()
        for _ in range(200):
            for child in children:
                harness.answer(child)
            mover = next((c for c in children if harness.move(c) is not None
                          and isinstance(harness.move(c), wire.CardPlayed)), None)
            if mover is not None:
                break
            for child in children:
                move = harness.move(child)
                if move is not None:
                    child.send(move)
            harness.clock.advance(0.01)
        assert mover is not None
        for child in children:
            child.read()
        move = harness.move(mover)
        assert isinstance(move, wire.CardPlayed)
        mover.send(move)
        echo = wire.CardPlayed(move.player, move.card, "network")
        for child in children:
            self.assertIn(echo, child.read())
        self.assertFalse(table.finished)

    def playUntilAsked(self, harness: Harness, child: Child, phase: str,
                       others: tuple[Child, ...] = ()) -> None:
        """Play along until the table waits for ``child`` in ``phase``."""
        playUntilAsked(harness, child, phase, others)

    def test_refusedCard(self) -> None:
        """A card the rules refuse: one log line, a chat line to the child, nothing relayed."""
        harness, (child, other) = self.start("Anna", "Bert")
        table = harness.table()
        self.playUntilAsked(harness, child, doppelkopf.PLAYING, (other,))
        harness.answer(other)
        party = partyOf(table)
        hand = party.game.hands[child.seat]
        illegal = next((c for c in doppelkopf.DECK_ORDER if c not in hand), None)
        assert illegal is not None
        turn = table.turn
        capture = LogCapture(self)
        child.send(wire.CardPlayed(child.seat, card(illegal)))
        self.assertEqual(table.turn, turn)
        lines = child.read()
        self.assertEqual(len(lines), 1)
        self.assertIsInstance(lines[0], wire.Chat)
        self.assertIn("refused card played", lines[0].text)
        self.assertEqual(other.read(), [])
        self.assertEqual(len(capture.lines("refused card played")), 1)
        self.assertEqual(child.state, "playing")

    def test_notManaged(self) -> None:
        """An action for a player the connection does not manage is refused."""
        harness, (child,) = self.start("Anna")
        table = harness.table()
        capture = LogCapture(self)
        child.read()
        child.send(wire.Reservation(2, "normal"))
        self.assertEqual(table.turn, 0)
        self.assertIn("is not the one this connection manages", child.read()[0].text)
        self.assertEqual(len(capture.lines("refused reservation = 2")), 1)

    def test_outOfTurn(self) -> None:
        """A reservation out of turn is refused."""
        harness, (first, second) = self.start("Anna", "Bert")
        second.read()
        second.send(wire.Reservation(second.seat, "normal"))
        self.assertIn("refused reservation", second.read()[0].text)
        self.assertEqual(harness.table().turn, 0)

    def test_chat(self) -> None:
        """A child's chat goes to the other children with its name; not back to it."""
        harness, (anna, bert) = self.start("Anna", "Bert")
        anna.read()
        bert.read()
        anna.send(wire.Chat("hello"))
        self.assertEqual(anna.read(), [])
        self.assertEqual(bert.read(), [wire.Chat("Anna: hello")])

    def test_actionBeforeTheParty(self) -> None:
        """
        A gameplay action from a child at a table that waits for its
        players is refused, as one out of turn is: one log line, one chat
        line, nothing else.
        """
        logged = LogCapture(self)
        harness = Harness()
        anna = harness.child("Anna")
        anna.read()
        anna.send(wire.Reservation(0, "normal"))
        self.assertEqual(anna.read(), [wire.Chat(
            "gameproto: refused reservation = 0, normal: no game of yours is being played yet")])
        self.assertEqual(len(logged.lines("refused reservation")), 1)
        self.assertEqual(anna.state, "waiting")

    def test_chatCannotPassForTheParent(self) -> None:
        """
        A child named ``gameproto`` (any case), or with a colon in its name,
        or none, chats under its seat's default name: its chat never reads
        like the parent's own lines.
        """
        for name in ("gameproto", " GameProto ", "gameproto: refused card", "", "   "):
            harness, (mallory, bert) = self.start(name, "Bert")
            mallory.read()
            bert.read()
            mallory.send(wire.Chat("refused card played = 1, club ace: spoofed"))
            (line,) = bert.read()
            self.assertEqual(mallory.seat, 0)  # FreeDoko's player 0, the page's P1
            self.assertEqual(line, wire.Chat(
                "player1: refused card played = 1, club ace: spoofed"), name)
        self.assertEqual(childName(" Anna "), "Anna")
        self.assertEqual(childName("A\x00n\x1bna"), "A\ufffdn\ufffdna")
        self.assertEqual(childName("x" * 100), "x" * 64)

    def test_barrier(self) -> None:
        """After a trick nothing moves until every child said ``trick taken``."""
        harness, (anna, bert) = self.start("Anna", "Bert")
        table = harness.table()
        for _ in range(5000):
            lines = anna.read() + bert.read()
            if wire.TrickTaken() in lines:
                break
            for child in (anna, bert):
                move = harness.move(child)
                if move is not None:
                    child.send(move)
            harness.clock.advance(0.01)
        else:
            self.fail("no trick")
        turn = table.turn
        harness.clock.advance(5.0)
        self.assertEqual(table.turn, turn, "bots wait for the barrier")
        self.assertEqual(anna.read() + bert.read(), [])
        anna.send(wire.TrickTaken())
        harness.clock.advance(5.0)
        self.assertEqual(table.turn, turn)
        bert.send(wire.TrickTaken())
        harness.clock.advance(1.0)
        lines = anna.read()
        self.assertEqual(lines[0], wire.TrickOpen())

    def test_barrierTimeout(self) -> None:
        """A child that never says ``trick taken`` loses its seat to a bot; the others go on."""
        harness, (anna, bert) = self.start("Anna", "Bert", timeout=20.0)
        table = harness.table()
        for _ in range(5000):
            lines = anna.read() + bert.read()
            if wire.TrickTaken() in lines:
                break
            for child in (anna, bert):
                move = harness.move(child)
                if move is not None:
                    child.send(move)
            harness.clock.advance(0.01)
        anna.send(wire.TrickTaken())
        bert.read()
        harness.clock.advance(20.0)
        self.assertEqual(bert.read(), [wire.Chat(
            "gameproto: no answer in time: a bot plays the seat; the party goes on without you")])
        self.assertEqual(bert.state, "finished")
        self.assertIsInstance(table.holders[bert.seat], FreeDokoBot)
        harness.play([anna])
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)

    def test_decisionTimeout(self) -> None:
        """A child that lets its decision's time pass: a bot plays its seat, it is closed."""
        harness, (anna, bert) = self.start("Anna", "Bert", timeout=20.0)
        table = harness.table()
        self.playUntilAsked(harness, bert, doppelkopf.RESERVING, (anna,))
        turn = table.turn
        harness.clock.advance(20.0)
        self.assertFalse(bert.closed, "closing makes a real child crash: it lingers")
        self.assertEqual(bert.state, "finished")
        harness.clock.advance(0.01)
        self.assertGreater(table.turn, turn, "the bot made the reservation")
        bert.read()
        harness.play([anna])
        self.assertTrue(table.finished)
        self.assertEqual(bert.read(), [], "nothing more for it")
        harness.clock.advance(LINGER)
        self.assertTrue(bert.closed)

    def test_disconnectMidParty(self) -> None:
        """A child leaving mid-party: a bot takes its seat at once, the other plays on."""
        harness, (anna, bert) = self.start("Anna", "Bert")
        table = harness.table()
        self.playUntilAsked(harness, anna, doppelkopf.PLAYING, (bert,))
        bert.lose()
        self.assertIsInstance(table.holders[bert.seat], FreeDokoBot)
        harness.play([anna])
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)

    def test_lastLeaves(self) -> None:
        """The last child leaving ends the table."""
        harness, (anna,) = self.start("Anna")
        table = harness.table()
        anna.lose()
        self.assertTrue(table.finished)
        self.assertEqual(harness.server.playing, set())

    def test_aborted(self) -> None:
        """A party aborted (its engine failed): each child is told in a chat line, and closed."""
        harness, (anna,) = self.start("Anna")
        anna.read()
        harness.table().abort("the engine failed")
        self.assertEqual(anna.read(), [wire.Chat("gameproto: the party is aborted: "
                                                 "the engine failed")])
        self.assertTrue(anna.closed)

    def test_reclaim(self) -> None:
        """
        A child back under its name takes its seat back when the next game
        opens (a real child cannot join a game under way): the party's lines
        from that game's seed and startplayer, its hand; then it plays on.
        """
        harness, (anna, bert) = self.start("Anna", "Bert")
        table = harness.table()
        party = partyOf(table)
        self.playUntilAsked(harness, anna, doppelkopf.PLAYING, (bert,))
        seat = bert.seat
        bert.lose()
        back = harness.child("Bert")
        self.assertEqual(back.read(), [wire.ServerHello()] + handshake(
            seat, ["Anna", "bot2", "bot3", "bot4"]))
        self.assertEqual(back.state, "rejoining")
        self.assertIsInstance(table.holders[seat], FreeDokoBot)
        games = len(party.summaries)
        for _ in range(20000):
            harness.answer(anna)
            if len(party.summaries) > games and table.holders[seat] is back.protocol.child:
                break
            move = harness.move(anna)
            if move is not None:
                anna.send(move)
            harness.clock.advance(0.01)
        self.assertIs(table.holders[seat], back.protocol.child)
        self.assertEqual(back.state, "playing")
        game = party.game
        lines = back.read()
        self.assertEqual(lines[:9], [
            wire.PlayerName(0, "Anna"), wire.PlayerName(2, "bot3"), wire.PlayerName(3, "bot4"),
            wire.PartySeed(game.seed), wire.PartyStartplayer(game.startplayer),
            wire.PartyStart(), wire.PartyStartRound(party.round), wire.GameOpen(),
            wire.GameStartplayer(game.startplayer)])
        self.assertIn(wire.GameHand(seat, tuple(card(c) for c in game.dealt[seat])), lines)
        harness.play([anna, back])
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)

    def test_leaverNamedInTheRecord(self) -> None:
        """
        The stored record names a seat a child left "NAME (bot)" (a bot there
        from the start keeps its botN) until the child takes it back; the
        children are still told botN for it, as for every bot.
        """
        store = SQLiteRecordStore(self.mktemp())
        self.addCleanup(store.close)
        harness = Harness(store=store, botDelay=0.0)
        anna, bert, cleo = (harness.child(name) for name in ("Anna", "Bert", "Cleo"))
        harness.clock.advance(30.0)
        table = harness.table()
        self.assertEqual([anna.seat, bert.seat, cleo.seat], [0, 1, 2])

        def stored() -> list[str]:
            """The seats in the game's row of the store (what its listing shows)."""
            (summary,) = [s for s in store.games()[0] if s.id == table.id]
            return list(summary.seats)

        self.assertEqual(stored(), ["Anna", "Bert", "Cleo", "bot4"])
        self.playUntilAsked(harness, anna, doppelkopf.PLAYING, (bert, cleo))
        bert.lose()
        cleo.lose()
        self.assertEqual(stored(), ["Anna", "Bert (bot)", "Cleo (bot)", "bot4"])
        back = harness.child("Bert")
        self.assertEqual(back.read(), [wire.ServerHello()] + handshake(
            1, ["Anna", "bot2", "bot3", "bot4"]))
        for _ in range(20000):
            harness.answer(anna)
            if table.holders[1] is back.protocol.child:
                break
            move = harness.move(anna)
            if move is not None:
                anna.send(move)
            harness.clock.advance(0.01)
        self.assertEqual(stored(), ["Anna", "Bert", "Cleo (bot)", "bot4"])
        self.assertEqual(back.read()[:3], [
            wire.PlayerName(0, "Anna"), wire.PlayerName(2, "bot3"), wire.PlayerName(3, "bot4")])
        harness.play([anna, back])
        self.assertTrue(table.finished)
        self.assertEqual(stored(), ["Anna", "Bert", "Cleo (bot)", "bot4"])

    def test_reclaimTooLate(self) -> None:
        """
        A child back for a party that ends before the next game opens is
        told so; its connection lingers, as after ``party: finish`` (a real
        child waiting to rejoin crashes when it is closed).
        """
        harness, (anna, bert) = self.start("Anna", "Bert")
        table = harness.table()
        self.playUntilAsked(harness, anna, doppelkopf.PLAYING, (bert,))
        bert.lose()
        back = harness.child("Bert")
        back.read()
        anna.lose()
        self.assertTrue(table.finished)
        self.assertEqual(back.read(), [wire.Chat("gameproto: the party you came back to is over")])
        self.assertFalse(back.closed)
        self.assertEqual(back.state, "finished")
        harness.clock.advance(LINGER)
        self.assertTrue(back.closed)

    def test_povertyAnswers(self) -> None:
        """
        A poverty's shift reaches each child with the answers before its own
        (the real child takes a player's old answer for a new one otherwise).
        """
        harness = Harness(seed=10)  # player 3 (a bot) has a poverty in the first game
        children = [harness.child(name) for name in ("Anna", "Bert", "Carl")]
        harness.clock.advance(30.0)
        table = harness.table()
        party = partyOf(table)
        for _ in range(2000):
            for child in children:
                harness.answer(child)
            if party.game.phase == doppelkopf.POVERTY_ANSWER:
                break
            for child in children:
                move = harness.move(child)
                if move is not None:
                    child.send(move)
            harness.clock.advance(0.01)
        self.assertEqual((party.game.soloplayer, party.game.turn), (3, 0))
        anna, bert, carl = children
        shift = [m for m in anna.log if isinstance(m, wire.PovertyShift)]
        self.assertEqual(len(shift), 1)
        self.assertEqual(bert.read() + carl.read(), [], "not yet their turn")
        anna.read()
        anna.send(wire.PovertyDenied(0))
        self.assertEqual(anna.read(), [wire.PovertyDenied(0)])
        self.assertEqual(bert.read(), shift + [wire.PovertyDenied(0)])
        self.assertEqual(carl.read(), [])
        bert.send(wire.PovertyDenied(1))
        self.assertEqual(carl.read(), shift + [wire.PovertyDenied(0), wire.PovertyDenied(1)])

    def announceable(self, harness: Harness, anna: Child, onTurn: bool,
                     others: tuple[Child, ...] = ()) -> str:
        """Play along until ``anna`` may announce (on its turn, or just after its card)."""
        table = harness.table()
        party = partyOf(table)
        while not table.finished:
            self.playUntilAsked(harness, anna, doppelkopf.PLAYING, others)
            if onTurn and party.game.validAnnouncements(anna.seat):
                break
            move = harness.move(anna)
            assert move is not None
            anna.send(move)
            if not onTurn and party.game.validAnnouncements(anna.seat) and \
                    anna.seat not in table.waiting:
                break
        valid = party.game.validAnnouncements(anna.seat)
        self.assertTrue(valid, "never an announcement to make")
        return doppelkopf.ANNOUNCEMENTS[valid[0]]

    def test_announcement(self) -> None:
        """An announcement the rules allow is echoed to every child; a repeat is dropped."""
        harness, (anna, bert) = self.start("Anna", "Bert")
        name = self.announceable(harness, anna, onTurn=False, others=(bert,))
        anna.read()
        bert.read()
        anna.send(wire.Announcement(anna.seat, name))
        self.assertEqual(anna.read(), [wire.Announcement(anna.seat, name)])
        self.assertEqual(bert.read(), [wire.Announcement(anna.seat, name)])
        capture = LogCapture(self)
        anna.send(wire.Announcement(anna.seat, name))  # the real child's echo of the echo
        self.assertEqual(anna.read() + bert.read(), [])
        self.assertEqual(capture.lines("refused"), [])

    def test_announcementOnTurn(self) -> None:
        """
        An announcement sent on the child's turn is judged after its card, as
        the real child judges our echo once it played that card.
        """
        harness, (anna,) = self.start("Anna")
        party = partyOf(harness.table())
        name = self.announceable(harness, anna, onTurn=True)
        anna.read()
        anna.send(wire.Announcement(anna.seat, name))
        self.assertEqual(anna.read(), [], "not judged before the card")
        move = harness.move(anna)
        assert isinstance(move, wire.CardPlayed)
        number = doppelkopf.announcementNumber(name)
        assert number is not None
        hand = list(party.game.hands[anna.seat])
        anna.send(move)
        lines = anna.read()
        self.assertEqual(lines[0], wire.CardPlayed(anna.seat, move.card, "network"))
        judged = [m for m in lines if isinstance(m, (wire.Announcement, wire.Chat))]
        self.assertEqual(len(judged), 1, lines)
        if party.game.seatAnnouncement(anna.seat):
            self.assertIsInstance(judged[0], wire.Announcement)
        else:
            self.assertIn("refused announcement", judged[0].text)  # type: ignore[union-attr]
        self.assertEqual(len(hand) - 1, len(party.game.hands[anna.seat]))


GENSCHER_RULES = RULES + "genscher = true\n"


def playUntilGenscher(harness: Harness, children: list[Child]) -> tuple[Child, wire.CardPlayed]:
    """
    Play along until one of ``children`` is about to play the first of both
    trump kings (a genscher may go with it): that child, and its card.
    """
    table = harness.table()
    for _ in range(20000):
        for child in children:
            harness.answer(child)
        for child in children:
            move = harness.move(child)
            if move is None:
                continue
            if isinstance(move, wire.CardPlayed) and partyOf(table).game.genscherPossible(
                    child.seat, str(move.card)):
                return child, move
            child.send(move)
        harness.clock.advance(0.01)
    raise AssertionError("no genscher card played")


class LibraryChild(FreeDokoClientProtocol):
    """
    This library's FreeDoko child (its bot playing), joined to a child's
    connection of the harness by L{pump}: what it sends is kept in ``sent``.
    """

    def __init__(self, harness: Harness, name: str) -> None:
        super().__init__(name, harness.clock)
        self.sent: list[Any] = []
        self.end = harness.child()
        self.wire = StringTransport()
        self.makeConnection(self.wire)

    def sendMessage(self, message: Any) -> None:
        self.sent.append(message)
        super().sendMessage(message)

    def pump(self) -> None:
        """Carry the bytes each side wrote to the other, until neither has more."""
        while True:
            out, back = self.wire.value(), self.end.transport.value()
            self.wire.clear()
            self.end.transport.clear()
            if out:
                self.end.protocol.dataReceived(out)
            if back:
                self.dataReceived(back)
            if not (out or back):
                return


class GenscherTests(SynchronousTestCase):
    """``genscher = p, q`` on the wire, under the rule ``genscher``."""

    def test_libraryChildsGenscher(self) -> None:
        """
        Four children of this library: the one whose bot names a genscher
        partner sends ``genscher`` and then its card; the table plays them
        together, and every child follows it without a difference.
        """
        harness = Harness(seed=2, botDelay=0.0, rules=GENSCHER_RULES)  # Dora, in game 2
        children = [LibraryChild(harness, name) for name in ("Anna", "Bert", "Carl", "Dora")]
        for child in children:
            child.pump()
        table = harness.table()
        for _ in range(30000):
            for child in children:
                child.pump()
            if all(child.state() == "between" for child in children):
                break
            harness.clock.advance(0.01)
        dora = children[3]
        said = [i for i, m in enumerate(dora.sent) if isinstance(m, wire.Genscher)]
        self.assertEqual(len(said), 1)
        self.assertEqual(dora.sent[said[0]:said[0] + 2], [
            wire.Genscher(3, 0), wire.CardPlayed(3, wire.Card("diamond", "king"))])
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)
        self.assertIn({"card": "diamond king", "genscher": 0},
                      [a.action for a in table.record.actions if a.seat == 3])
        self.assertEqual([(c.mismatches, c.problem) for c in children], [([], None)] * 4)

    def test_childsGenscher(self) -> None:
        """
        A child's ``genscher`` goes with the card that follows it, the first
        of its two trump kings: the table plays a genscher with that partner,
        and every child is told the genscher, then the card, as FreeDoko
        sends them.
        """
        harness = Harness(botDelay=0.0, rules=GENSCHER_RULES)  # Bert: both kings in game 1
        anna, bert = harness.child("Anna"), harness.child("Bert")
        harness.clock.advance(30.0)
        table = harness.table()
        mover, move = playUntilGenscher(harness, [anna, bert])
        self.assertEqual(partyOf(table).summaries, [], "in the first game")
        partner = (mover.seat + 2) % 4
        for child in (anna, bert):
            harness.answer(child)
        capture = LogCapture(self)
        mover.send(wire.Genscher(mover.seat, partner), move)
        game = partyOf(table).game
        self.assertEqual((game.gameType, game.soloplayer, game.partner),
                         (doppelkopf.GENSCHER, mover.seat, partner))
        self.assertEqual([s for s in range(4) if game.teams[s] == doppelkopf.RE],
                         sorted((mover.seat, partner)))
        told = [wire.Genscher(mover.seat, partner),
                wire.CardPlayed(mover.seat, move.card, "network")]
        for child in (anna, bert):
            lines = child.read()
            self.assertEqual(lines[:2], told)
        self.assertEqual(capture.lines("refused"), [])
        harness.play([anna, bert])
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)

    def test_genscherWithAnotherCard(self) -> None:
        """
        A ``genscher`` before a card that is not the first of both trump
        kings is refused (a chat line, a log line); the card is played alone.
        """
        harness, (anna, bert) = startTable("Anna", "Bert", rules=GENSCHER_RULES)
        table = harness.table()
        playUntilAsked(harness, anna, doppelkopf.PLAYING, (bert,))
        move = harness.move(anna)
        assert isinstance(move, wire.CardPlayed)
        self.assertFalse(partyOf(table).game.genscherPossible(anna.seat, str(move.card)))
        harness.answer(bert)
        capture = LogCapture(self)
        anna.read()
        anna.send(wire.Genscher(anna.seat, 2), move)
        lines = anna.read()
        self.assertEqual(lines[0], wire.Chat(
            f"gameproto: refused genscher = {anna.seat}, 2: not with {move.card}"))
        self.assertEqual(lines[1], wire.CardPlayed(anna.seat, move.card, "network"))
        self.assertNotIn(wire.Genscher(anna.seat, 2), bert.read())
        self.assertEqual(len(capture.lines("refused genscher")), 1)
        self.assertNotEqual(partyOf(table).game.gameType, doppelkopf.GENSCHER)

    def test_botsGenscher(self) -> None:
        """A bot's genscher reaches the children as FreeDoko sends them: genscher, then card."""
        harness = Harness(seed=2, botDelay=0.0, rules=GENSCHER_RULES)  # bot4, in game 2
        anna = harness.child("Anna")
        harness.clock.advance(30.0)
        table = harness.table()
        harness.play([anna])
        self.assertIsNone(table.record.error)
        said = [i for i, m in enumerate(anna.log) if isinstance(m, wire.Genscher)]
        self.assertEqual(len(said), 1)
        genscher = anna.log[said[0]]
        self.assertEqual(genscher, wire.Genscher(3, 0))
        self.assertEqual(anna.log[said[0] + 1],
                         wire.CardPlayed(3, wire.Card("diamond", "king"), "network"))


class SyncTests(SynchronousTestCase):
    """A child's ``sync: gameplay actions`` block, and the parent's answer."""

    def setUp(self) -> None:
        self.harness, (self.anna,) = startTable("Anna")
        table = self.harness.table()
        party = partyOf(table)
        for _ in range(20000):
            self.harness.answer(self.anna)
            if (party.summaries and len(party.game.tricks) >= 2
                    and self.anna.seat in table.waiting):
                break
            move = self.harness.move(self.anna)
            if move is not None:
                self.anna.send(move)
            self.harness.clock.advance(0.01)
        self.harness.answer(self.anna)
        log = self.anna.log
        opened = len(log) - log[::-1].index(wire.GameOpen())
        self.told = tuple(m for m in log[opened:] if isinstance(m, wire.Action))
        """The gameplay actions sent to the child since its second game opened."""
        self.assertIn(wire.TrickFull, {type(m) for m in self.told})

    def test_lagging(self) -> None:
        """A child that lags behind what it was told gets the game's actions, as sent."""
        self.anna.send(wire.SyncGameplayActions(self.told[:3]))
        self.assertEqual(self.anna.read(), [wire.SyncGameplayActions(self.told)])
        self.anna.send(wire.SyncGameplayActions(()))
        self.assertEqual(self.anna.read(), [wire.SyncGameplayActions(self.told)])

    def test_inStep(self) -> None:
        """
        The same actions (its own trick lines left out, cards with their
        comments), or more of its own still on their way: no answer.
        """
        capture = LogCapture(self)
        own = tuple(wire.CardPlayed(m.player, m.card, "choose") if isinstance(m, wire.CardPlayed)
                    else m for m in self.told if not isinstance(m, wire.TrickOpen))
        self.anna.send(wire.SyncGameplayActions(own))
        move = self.harness.move(self.anna)
        assert isinstance(move, wire.CardPlayed)
        self.anna.send(wire.SyncGameplayActions(self.told + (move,)))
        self.assertEqual(self.anna.read(), [])
        self.assertEqual(capture.lines("sync"), [])

    def test_different(self) -> None:
        """Other actions: one log line, no answer."""
        capture = LogCapture(self)
        first = self.told[0]
        assert isinstance(first, wire.Reservation)
        other = wire.Reservation(first.player, "solo club")
        self.anna.send(wire.SyncGameplayActions((other,) + self.told[1:]))
        self.assertEqual(self.anna.read(), [])
        self.assertEqual(len(capture.lines("sync: its gameplay actions differ")), 1)


class FakeGuest:
    """A guest of another protocol (a browser, a JSON player)."""

    name = "Web"

    def __init__(self) -> None:
        self.updates = 0
        self.seat = -1
        self.told: list[tuple[str | None, bool]] = []
        """Each update's text for a person, and whether it asks the guest to act."""

    def update(self, table: Table, seat: int, instructions: Any) -> None:
        self.updates += 1
        self.seat = seat
        self.told.append((instructions.game_state.text, instructions.asks(seat)))

    def aborted(self, table: Table, seat: int, reason: str) -> None:
        pass


class GuestTests(SynchronousTestCase):
    """A guest of another protocol at a FreeDoko table, through the hub's matchmaker."""

    def test_guestBesideChild(self) -> None:
        harness = Harness()
        guest = FakeGuest()
        matchmaker = harness.server.hub.matchmakers["doppelkopf"]
        self.assertEqual(matchmaker.title, "FreeDoko")
        self.assertIsNone(matchmaker.enqueue(guest))
        anna = harness.child("Anna")
        self.assertIn(wire.PlayerName(0, "Web"), anna.read())
        harness.clock.advance(30.0)
        table = harness.table()
        self.assertEqual(table.record.seats[:2], ["Web", "Anna"])
        self.assertGreater(guest.updates, 0)
        for _ in range(20000):
            harness.answer(anna)
            if table.finished and anna.state != "playing":
                break
            move = harness.move(anna)
            if move is not None:
                anna.send(move)
            if guest.seat in table.waiting:
                view = partyOf(table).view(guest.seat)
                table.act(guest.seat, doppelkopfBot(view, guest.seat))
            harness.clock.advance(0.01)
        harness.answer(anna)
        self.assertTrue(table.finished)
        self.assertIsNone(table.record.error)
        self.assertEqual(anna.log.count(wire.PartyFinish()), 1)

    def test_guestLeaves(self) -> None:
        """
        A guest who leaves the party: a bot plays on under its name with
        " (bot)" in the record (the HTTP API's too); the children are not
        told of it.
        """
        harness = Harness()
        guest = FakeGuest()
        harness.server.hub.matchmakers["doppelkopf"].enqueue(guest)
        anna = harness.child("Anna")
        harness.clock.advance(30.0)
        table = harness.table()
        self.assertEqual(table.record.seats, ["Web", "Anna", "bot3", "bot4"])
        harness.answer(anna)
        harness.server.hub.vacate(table, guest.seat)
        self.assertIsInstance(table.holders[guest.seat], FreeDokoBot)
        self.assertEqual(harness.answer(anna), [])
        shown = apiCall(API(harness.server.hub), b"GET", b"/api/games/%d" % table.id)
        self.assertEqual(shown.responseCode or 200, 200)
        self.assertEqual(json.loads(b"".join(shown.written))["seats"],
                         ["Web (bot)", "Anna", "bot3", "bot4"])
        harness.play([anna])
        self.assertTrue(table.finished)
        record = harness.store.get(table.id)
        assert record is not None
        self.assertEqual(record.seats, ["Web (bot)", "Anna", "bot3", "bot4"])

    def test_guestToldOfTheSeed(self) -> None:
        """
        A guest seated beside FreeDoko children is told in words that they
        are sent the party's seed, from which every hand follows: in the
        game's text of each update up to its first decision.
        """
        harness = Harness(botDelay=0.0)
        guest = FakeGuest()
        harness.server.hub.matchmakers["doppelkopf"].enqueue(guest)
        anna, bert = harness.child("Anna"), harness.child("Bert")
        harness.clock.advance(30.0)
        table = harness.table()
        self.assertEqual(table.record.seats[:3], ["Web", "Anna", "Bert"])
        notice = ("Anna and Bert play here with FreeDoko, which is sent the party's seed: "
                  "every hand follows from it, yours too")
        for _ in range(200):
            for child in (anna, bert):
                harness.answer(child)
                move = harness.move(child)
                if move is not None:
                    child.send(move)
            if guest.seat in table.waiting and len(guest.told) > 1:
                break
            if guest.seat in table.waiting:
                view = partyOf(table).view(guest.seat)
                table.act(guest.seat, doppelkopfBot(view, guest.seat))
            harness.clock.advance(0.01)
        asked = [i for i, (text, asks) in enumerate(guest.told) if asks]
        self.assertGreaterEqual(len(asked), 2)
        for text, _ in guest.told[:asked[0] + 1]:
            self.assertIsNotNone(text)
            self.assertIn(notice, text)
        self.assertTrue(all(notice not in (text or "") for text, _ in guest.told[asked[0] + 1:]))

    def test_noNoticeWithoutChildren(self) -> None:
        """A guest at a FreeDoko table of bots only (nobody gets the seed) is told nothing of it."""
        harness = Harness(botDelay=0.0)
        guest = FakeGuest()
        harness.server.hub.matchmakers["doppelkopf"].enqueue(guest)
        harness.clock.advance(30.0)
        table = harness.table()
        self.assertEqual(table.record.seats, ["Web", "bot2", "bot3", "bot4"])
        view = partyOf(table).view(guest.seat)
        table.act(guest.seat, doppelkopfBot(view, guest.seat))
        self.assertGreaterEqual(len(guest.told), 2)
        self.assertTrue(all("FreeDoko" not in (text or "") for text, _ in guest.told))

    def test_guestRefusedWhenFull(self) -> None:
        harness = Harness(maxTables=1)
        for name in ("A", "B", "C", "D"):
            harness.child(name)
        matchmaker = harness.server.hub.matchmakers["doppelkopf"]
        self.assertEqual(matchmaker.enqueue(FakeGuest()), "1 FreeDoko parties play already")


class TranslatorTests(SynchronousTestCase):
    """The pure translation of events into the real parent's lines."""

    def test_trick(self) -> None:
        """A full trick: ``trick full``, ``trick taken``, the barrier, ``trick open``."""
        from gameproto.engine.contract import Event
        from gameproto.freedoko.server import Barrier, GameFacts

        translator = Translator()
        out = translator.translate([Event("trick", {
            "leader": 1, "cards": ["club ace", "club ten", "club nine", "club king"],
            "winner": 1})], 0, GameFacts(3))
        self.assertEqual(out, [
            wire.TrickFull(1, (card("club ace"), card("club ten"), card("club nine"),
                               card("club king")), 1),
            wire.TrickTaken(), Barrier(1), wire.TrickOpen()])

    def test_povertyShift(self) -> None:
        """A poverty's shift is held (L{PovertyHold}) until the child's turn to answer."""
        from gameproto.engine.contract import Event
        from gameproto.freedoko.server import GameFacts, PovertyHold

        out = Translator().translate([Event("poverty shift", {"seat": 2, "cards": 3}, 2)], 0,
                                     GameFacts(3, ("heart ten", "club ace", "spade nine")))
        self.assertEqual(out, [PovertyHold(), wire.PovertyShift(2, (
            card("heart ten"), card("club ace"), card("spade nine")))])

    def test_reservation(self) -> None:
        self.assertEqual(reservationAction(2, "marriage, first foreign, swines"),
                         wire.Reservation(2, "marriage", "first foreign", True))
        self.assertEqual(reservationAction(1, "solo club"), wire.Reservation(1, "solo club"))


class PluginTests(SynchronousTestCase):
    """The ``freedoko`` plugin's options."""

    def options(self, *args: str) -> Any:
        class Options(usage.Options):
            optParameters = freedoko.optParameters

        parsed = Options()
        parsed.parseOptions(list(args))
        return freedoko.settings(parsed)

    def test_defaults(self) -> None:
        settings = self.options()
        self.assertEqual((settings.timeout, settings.botsAfter, settings.botDelay,
                          settings.rules, settings.maxTables), (60.0, 30.0, 0.0, "", 0))
        self.assertEqual(freedoko.defaultEndpoint, "tcp:2442")

    def test_rulesFile(self) -> None:
        path = self.mktemp()
        with open(path, "w") as f:
            f.write(RULES)
        self.assertEqual(self.options("--freedoko-rules", path).rules, RULES)
        self.assertRaises(usage.UsageError, self.options, "--freedoko-rules", path + ".none")

    def test_rulesFileRefused(self) -> None:
        """
        A rules file the engine would refuse is refused at the start, its
        line named, rather than by every table; a file as FreeDoko saves
        it (its version comment, a blank line, its rules) is taken.
        """
        path = self.mktemp()
        with open(path, "w") as f:
            f.write(RULES + "no rule here\n")
        with self.assertRaises(usage.UsageError) as raised:
            self.options("--freedoko-rules", path)
        self.assertIn("Rules line 3 (“no rule here”)", str(raised.exception))
        self.assertRaises(ValueError, FreeDokoSettings, rules="with nines = perhaps\n")
        saved = "# FreeDoko rules (version 0.7.13)\n\n" + doppelkopf.DEFAULT_RULES_TEXT
        with open(path, "w") as f:
            f.write(saved)
        self.assertEqual(self.options("--freedoko-rules", path).rules, saved)

    def test_timeoutHelp(self) -> None:
        """The help says what a timeout does: a bot takes the seat, the connection stays open."""
        (timeout,) = [o for o in freedoko.optParameters if o[0] == "freedoko-timeout"]
        self.assertIn("a bot takes its seat and the connection is left open", timeout[3])

    def test_bad(self) -> None:
        self.assertRaises(usage.UsageError, self.options, "--freedoko-timeout", "0")
        self.assertRaises(usage.UsageError, self.options, "--freedoko-max-tables", "-1")


class RealChildTests(SynchronousTestCase):
    """
    What the table does so that real FreeDoko children, which keep some
    things to themselves, agree with it: swines taken with a reservation,
    and bots' poverty answers a child has already guessed.
    """

    def test_swinesWithTheReservation(self) -> None:
        """
        A child holding both club aces reserves ``normal``: the table takes
        ``normal, swines`` (the real child announces swines itself as a club
        solo starts) and relays it so to the others; a bot's club solo then
        gives the child its swines as the game starts.  The child's own
        ``swines = p`` in the play is dropped; another's is refused.
        """
        harness = Harness(seed=365, botDelay=0.0)  # bot 2 plays a club solo
        anna, bert = harness.child("Anna"), harness.child("Bert")
        harness.clock.advance(30.0)
        table = harness.table()
        party = partyOf(table)
        self.assertEqual(party.game.hands[0].count("club ace"), 2)
        harness.answer(anna)
        anna.send(wire.Reservation(0, "normal"))
        self.assertIn(wire.Reservation(0, "normal", swines=True), harness.answer(bert))
        bert.send(wire.Reservation(1, "normal"))
        harness.clock.advance(1.0)
        lines = harness.answer(anna)
        self.assertEqual(party.game.gameType, doppelkopf.SOLO_CLUB)
        self.assertEqual(party.game.swinesOwner, 0)
        self.assertIn(wire.Swines(0), lines)
        self.assertLess(lines.index(wire.Swines(0)), lines.index(wire.GameStart()))
        capture = LogCapture(self)
        anna.send(wire.Swines(0))
        self.assertEqual(harness.answer(anna), [])
        bert.send(wire.Swines(1))
        self.assertEqual([m for m in harness.answer(bert) if isinstance(m, wire.Chat)],
                         [wire.Chat("gameproto: refused swines = 1: the rules do not allow it now")])
        self.assertEqual(len(capture.lines("refused swines = 1")), 1)
        self.assertEqual(capture.lines("refused swines = 0"), [])

    def test_botsRepeatTheirPovertyAnswer(self) -> None:
        """
        The child that shifted a poverty asks the next player at once and
        takes that player's last answer of the party for the new one: a bot
        asked so answers as it last did, whatever its hand says; one asked
        by bots only answers from its hand.
        """
        harness = Harness(seed=1501, botDelay=0.0)  # player 0 is poor twice
        anna = harness.child("Anna")
        harness.clock.advance(30.0)
        table = harness.table()
        harness.play([anna])
        self.assertIsNone(table.record.error)
        replay = doppelkopf.DOPPELKOPF.start(table.record.params, table.record.initvalues)
        assert isinstance(replay, doppelkopf.DoppelkopfParty)
        last: dict[int, bool] = {}
        repeated = free = 0
        for action in table.record.actions:
            if action.kind != "act":
                continue
            game = replay.game
            answer = action.action.get("poverty accepted") if isinstance(
                action.action, dict) else None
            if isinstance(answer, bool) and action.seat != anna.seat:
                natural = doppelkopf.botPovertyAccept(game.hands[action.seat], replay.rules)
                if game.soloplayer == anna.seat and action.seat in last:
                    self.assertEqual(answer, last[action.seat])
                    repeated += answer != natural
                else:
                    self.assertEqual(answer, natural)
                    free += 1
            if isinstance(answer, bool):
                last[action.seat] = answer
            replay.act(action.seat, action.action)
        self.assertGreaterEqual(repeated, 1, "no bot had to repeat an answer its hand denies")
        self.assertGreaterEqual(free, 1)


class FastPathTests(SynchronousTestCase):
    """The server's shortcuts give what the plain way gives."""

    def test_factsOnlyWhereRead(self) -> None:
        """
        A step without a game, a poverty or a trick translates alike with
        the party's facts and without them (L{FreeDokoChild.follow}).
        """
        from gameproto.freedoko.server import _FACT_KINDS, _NO_FACTS, GameFacts, Translator

        steps = 0
        for seed in range(1, 6):
            party = doppelkopf.DOPPELKOPF.start({"rounds": 1}, {"seed": seed})
            assert isinstance(party, doppelkopf.DoppelkopfParty)
            translators = [Translator() for _ in range(4)]
            instructions = party.instructions()
            while not instructions.game_state.gameover:
                mover = instructions.requested_actions[0].player
                outcome = party.act(mover, party.botAction(mover))
                assert not isinstance(outcome, Errors), outcome
                instructions = outcome
                for seat, translator in enumerate(translators):
                    events = instructions.forSeat(seat).events
                    facts = GameFacts.of(party)
                    if not any(e.kind in _FACT_KINDS for e in events):
                        steps += 1
                        other = Translator(translator.tricks)
                        other.gameTricks = translator.gameTricks
                        self.assertEqual(other.translate(events, seat, _NO_FACTS),
                                         translator.translate(events, seat, facts))
                        self.assertEqual((other.tricks, other.gameTricks),
                                         (translator.tricks, translator.gameTricks))
                    else:
                        translator.translate(events, seat, facts)
        self.assertGreater(steps, 1000)

    def test_lineKinds(self) -> None:
        """What L{FreeDokoChild.flush} sends at once is every message, and only those."""
        import typing

        from gameproto.freedoko.server import (
            _ACTION_KINDS, _LINE_KINDS, Barrier, PovertyHold, Signal)

        self.assertEqual(_LINE_KINDS, set(typing.get_args(wire.Message)))
        self.assertEqual(_ACTION_KINDS, set(typing.get_args(wire.Action)))
        self.assertTrue(_ACTION_KINDS <= _LINE_KINDS)
        self.assertFalse({Barrier, PovertyHold, Signal} & _LINE_KINDS)

    def party(self, seed: int) -> tuple[FreeDokoServer, list[bytes]]:
        """
        A whole party of four library children on fake transports, the
        lines stamped from a fake clock: the server, and what each child got.
        """
        ticks = iter(range(10**9))
        self.patch(wire, "_time", type("Clock", (), {
            "time": staticmethod(lambda: 1795419280.0 + next(ticks) * 0.0002)}))
        clock = Clock()
        rules = "number of rounds limited = true\nnumber of rounds = 1\n"
        server = FreeDokoServer(FreeDokoSettings(timeout=30.0, botsAfter=60.0, rules=rules),
                                clock=clock, rng=random.Random(seed))
        factory = FreeDokoServerFactory(server)
        pairs = []
        for i in range(4):
            ours = factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 4000 + i))
            assert ours is not None
            ourTransport = StringTransport()
            ours.makeConnection(ourTransport)
            child = FreeDokoClientProtocol(f"child{i}", clock=clock)
            childTransport = StringTransport()
            child.makeConnection(childTransport)
            pairs.append((ours, ourTransport, child, childTransport))
        got = [b""] * 4
        moved, idle = True, 0
        while moved or idle < 3:
            idle = 0 if moved else idle + 1
            if not moved:
                clock.advance(0.5)  # (the store's commit, which the lines wait for)
            moved = False
            for i, (ours, ourTransport, child, childTransport) in enumerate(pairs):
                data = ourTransport.value()
                if data:
                    ourTransport.clear()
                    moved = True
                    got[i] += data
                    child.dataReceived(data)
                data = childTransport.value()
                if data:
                    childTransport.clear()
                    moved = True
                    ours.dataReceived(data)
        return server, got

    def test_sharedLines(self) -> None:
        """
        The children told a step share its lines (translated once, written
        once a millisecond): each child gets what it gets without that.
        """
        from gameproto.freedoko.server import FreeDokoRoom

        _, shared = self.party(5)
        FreeDokoRoom.translated = property(  # type: ignore[assignment]
            lambda room: None, lambda room, value: None)
        self.addCleanup(delattr, FreeDokoRoom, "translated")
        self.patch(wire, "_WRITTEN_LIMIT", 0)
        _, alone = self.party(5)
        self.assertEqual(shared, alone)
        self.assertGreater(min(map(len, shared)), 10000)

    def test_barrierAsPlain(self) -> None:
        """
        Through a whole party of four children, whether a barrier is passed,
        and whether one is up, is what the children playing there say
        (L{FreeDokoRoom.children}).
        """
        from gameproto.freedoko.server import FreeDokoRoom

        passed = FreeDokoRoom.barrierPassed
        asked: list[bool] = []

        def both(room: FreeDokoRoom, index: int) -> bool:
            fast = passed(room, index)
            self.assertEqual(fast, all(c.taken >= index for c in room.children()))
            asked.append(fast)
            return fast

        up = FreeDokoRoom.barrierUp

        def bothUp(room: FreeDokoRoom) -> bool:
            fast = up(room)
            self.assertEqual(fast, any(c.behind for c in room.children()))
            asked.append(not fast)
            return fast

        self.patch(FreeDokoRoom, "barrierPassed", both)
        self.patch(FreeDokoRoom, "barrierUp", bothUp)
        server, _ = self.party(3)
        self.assertEqual(server.playing, set())
        record = server.hub.store.get(1)
        assert record is not None
        self.assertIsNotNone(record.scores)
        self.assertIn(True, asked)
        self.assertIn(False, asked)
