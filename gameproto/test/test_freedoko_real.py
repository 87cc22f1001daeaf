"""
The codec against the real FreeDoko 0.7.13 (see L{gameproto.test.freedoko_real}):
(a) the real parent with a minimal child written with the codec, (b) the
real child with a minimal parent written with the codec.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer, protocol, reactor, task
from twisted.python import log
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase

from gameproto.freedoko import names, wire
from gameproto.test.freedoko_real import RealFreeDoko, findBinary, freePort, spawnFreeDoko

_reactor: Any = reactor

PARTY_RULES = {
    # one round (four games); no soli, poverty or throwing, so that every game's trumps
    # are a normal game's (a marriage's are the same), which the minimal child knows
    "number of rounds limited": "true", "number of rounds": "1",
    "solo": "false", "poverty": "false", "genscher": "false",
    "throw with nines": "false", "throw with kings": "false",
    "throw with nines and kings": "false", "throw with richness": "false",
    "throw when fox highest trump": "false",
}


def isTrump(card: wire.Card, dollen: bool) -> bool:
    """Trump in a normal game (also a marriage): queens, jacks, diamonds, the dollen."""
    return (card.value in ("queen", "jack") or card.color == "diamond"
            or (dollen and card.color == "heart" and card.value == "ten"))


def chooseCard(hand: list[wire.Card], trick: list[wire.Card], dollen: bool) -> wire.Card:
    """
    Our own simple rule: lead the first card; follow suit (trump on trump,
    the colour's non-trumps on a colour) when the hand can, else the first card.
    """
    if trick:
        led = trick[0]
        if isTrump(led, dollen):
            same = [c for c in hand if isTrump(c, dollen)]
        else:
            same = [c for c in hand if c.color == led.color and not isTrump(c, dollen)]
        if same:
            return same[0]
    return hand[0]


class MinimalChild(protocol.Protocol):
    """A FreeDoko child on the codec: reserves ``normal`` and plays by L{chooseCard}."""

    def __init__(self, name: str = "PyChild") -> None:
        self.name = name
        self.reader = wire.Reader()
        self.received: list[wire.Received] = []
        self.sent: list[wire.Message] = []
        self.unknown: list[wire.Received] = []
        self.seat: int | None = None
        self.rules: wire.Rules | None = None
        self.hands: dict[int, tuple[wire.Card, ...]] = {}
        self.hand: list[wire.Card] = []
        self.games = 0
        self.partyFinishes = 0
        self.tricks: list[wire.TrickFull] = []
        self.lost = defer.Deferred[None]()
        self.partyFinished = defer.Deferred[None]()
        self.events: list[str] = []
        self._newGame(0)

    def _newGame(self, startplayer: int) -> None:
        self.startplayer = startplayer
        self.leader = startplayer
        self.reservations = 0
        self.reserved = False
        self.trick: list[wire.Card] = []
        self.played = False
        self.started = False

    def send(self, message: wire.Message) -> None:
        self.sent.append(message)
        assert self.transport is not None
        self.transport.write(wire.format(message))

    def connectionMade(self) -> None:
        self.send(wire.Name(self.name))

    def connectionLost(self, reason: Any = None) -> None:
        self.lost.callback(None)

    def dataReceived(self, data: bytes) -> None:
        for received in self.reader.feed(data):
            self.received.append(received)
            if isinstance(received.message, wire.Unknown):
                self.unknown.append(received)
                continue
            self.handle(received.message)

    @property
    def dollen(self) -> bool:
        return self.rules is None or self.rules.settings().get("dollen", "true") == "true"

    def handle(self, message: wire.Message) -> None:
        if isinstance(message, wire.Ping):
            self.send(wire.Pong(message.number))
        elif isinstance(message, wire.Rules):
            self.rules = message
        elif isinstance(message, wire.PlayerType) and message.local:
            self.seat = message.player
        elif isinstance(message, wire.GameOpen):
            self.hands = {}
        elif isinstance(message, wire.GameStartplayer):
            self._newGame(message.player)
        elif isinstance(message, wire.GameHand):
            self.hands[message.player] = message.cards
            if message.player == self.seat:
                self.hand = list(message.cards)
            self._maybeReserve()
        elif isinstance(message, wire.Reservation):
            self.reservations += 1
            self._maybeReserve()
        elif isinstance(message, wire.GameStart):
            self.started = True
        elif isinstance(message, wire.TrickOpen):
            self.trick = []
            self.played = False
            self._maybePlay()
        elif isinstance(message, wire.CardPlayed):
            self.trick.append(message.card)
            if message.player != self.seat:
                self._maybePlay()
        elif isinstance(message, wire.TrickFull):
            self.tricks.append(message)
            if message.winner is not None:
                self.leader = message.winner
        elif isinstance(message, wire.TrickTaken):
            self.send(wire.TrickTaken())
        elif isinstance(message, wire.GameFinish):
            self.games += 1
        elif isinstance(message, wire.PartyFinish):
            self.partyFinishes += 1
            if not self.partyFinished.called:
                self.partyFinished.callback(None)

    def _maybeReserve(self) -> None:
        if (self.seat is None or self.reserved or self.seat not in self.hands
                or self.reservations != (self.seat - self.startplayer) % 4):
            return
        self.reserved = True
        self.send(wire.Reservation(self.seat, "normal"))

    def _maybePlay(self) -> None:
        if (self.seat is None or self.played or not self.hand
                or len(self.trick) != (self.seat - self.leader) % 4):
            return
        card = chooseCard(self.hand, self.trick, self.dollen)
        self.hand.remove(card)
        self.played = True
        self.events.append(f"trick {len(self.tricks)}: play {card} on {list(map(str, self.trick))}")
        self.send(wire.CardPlayed(self.seat, card))


class MinimalParent(protocol.Protocol):
    """A FreeDoko parent on the codec: the handshake and a first game's start, seat 2 remote."""

    SEAT = 2
    SEED = 3

    def __init__(self) -> None:
        self.reader = wire.Reader()
        self.received: list[wire.Received] = []
        self.lost = defer.Deferred[None]()
        self._waiting: list[tuple[type, defer.Deferred[Any]]] = []

    def send(self, *messages: wire.Message) -> None:
        assert self.transport is not None
        self.transport.write(b"".join(wire.format(m) for m in messages))

    def waitFor(self, kind: type) -> defer.Deferred[Any]:
        """The first message of type ``kind`` from now on (None if the connection ends)."""
        d: defer.Deferred[Any] = defer.Deferred()
        self._waiting.append((kind, d))
        return d

    def connectionMade(self) -> None:
        rules = wire.Rules.fromSettings({
            "with nines": "true", "solo": "false", "poverty": "false", "swines": "false",
            "hyperswines": "false", "genscher": "false", "throw with nines": "false",
            "throw with kings": "false", "throw with nines and kings": "false",
            "throw with richness": "false", "throw when fox highest trump": "false",
            "dollen": "true", "number of rounds limited": "true", "number of rounds": "1"})
        players: list[wire.Message] = []
        for p, name in enumerate(["Anna", "Bert", "Carl", "Dora"]):
            players.append(wire.PlayerType(p, p == self.SEAT))
            if p != self.SEAT:
                players.append(wire.PlayerName(p, name))
        self.send(wire.ServerHello(), wire.Name("PyParent"), rules, *players)

    def startParty(self) -> None:
        """The party and its first game, up to the remote seat's reservation."""
        self.send(wire.PartySeed(self.SEED), wire.PartyStartplayer(0), wire.PartyStart(),
                  wire.PartyStartRound(0), wire.GameOpen(), wire.GameStartplayer(0),
                  wire.GameSeed(self.SEED),
                  wire.Reservation(0, "normal"), wire.Reservation(1, "normal"))

    def connectionLost(self, reason: Any = None) -> None:
        self.lost.callback(None)
        for _, d in self._waiting:
            d.callback(None)
        self._waiting = []

    def dataReceived(self, data: bytes) -> None:
        for received in self.reader.feed(data):
            self.received.append(received)
            for entry in list(self._waiting):
                if isinstance(received.message, entry[0]):
                    self._waiting.remove(entry)
                    entry[1].callback(received.message)

    def messages(self) -> list[wire.Message | wire.Unknown]:
        return [r.message for r in self.received]


def _within(d: defer.Deferred[Any], seconds: float) -> defer.Deferred[Any]:
    """Fires with ``d``'s result, or with None after ``seconds`` (``d`` is left alone)."""
    result: defer.Deferred[Any] = defer.Deferred()

    def late() -> None:
        if not result.called:
            result.callback(None)

    timer = _reactor.callLater(seconds, late)

    def done(value: object) -> object:
        if timer.active():
            timer.cancel()
        if not result.called:
            result.callback(None if isinstance(value, Failure) else value)
        return None if isinstance(value, Failure) else value

    d.addBoth(done)
    return result


class RealParentTests(TestCase):
    """The real FreeDoko parent (FD_WAIT_CHILDREN=1), our minimal child in seat 2."""

    timeout = 180

    def setUp(self) -> None:
        findBinary()

    async def _connect(self, port: int, factory: protocol.Factory, real: RealFreeDoko,
                       attempts: int = 100) -> Any:
        from twisted.internet.endpoints import TCP4ClientEndpoint
        endpoint = TCP4ClientEndpoint(_reactor, "127.0.0.1", port, timeout=2)
        for _ in range(attempts):
            if real.process.ended.called:
                self.fail(f"FreeDoko ended before listening: {real.process.describe()}")
            try:
                return await endpoint.connect(factory)
            except Exception:
                await task.deferLater(_reactor, 0.1, lambda: None)
        self.fail("the real parent never listened")

    async def test_party(self) -> None:
        port = freePort()
        real = spawnFreeDoko(_reactor, "parent", port, name="FDHost", rules=PARTY_RULES,
                             lifetime=170)
        self.addCleanup(real.stop)
        child = MinimalChild()
        await self._connect(port, protocol.Factory.forProtocol(lambda: child), real)
        await _within(defer.DeferredList([child.partyFinished, child.lost, real.process.ended],
                                         fireOnOneCallback=True), 150)
        summary = (f"games {child.games}, tricks {len(child.tricks)}, "
                   f"unknown {child.unknown[:3]}; {real.process.describe()}")
        log.msg(f"real parent: {summary}")
        for event in child.events:
            log.msg(event)
        messages = [r.message for r in child.received]
        # the handshake, as the real parent sends it
        self.assertEqual(messages[0], wire.ServerHello(), summary)
        self.assertEqual(messages[1], wire.Name("FDHost"), summary)
        self.assertIsInstance(messages[2], wire.Rules, summary)
        self.assertEqual(child.unknown, [], summary)
        assert child.rules is not None
        settings = child.rules.settings()
        self.assertEqual(settings["number of rounds"], "1")
        self.assertEqual(settings["with nines"], "true")
        self.assertEqual(child.seat, 2, "FD_WAIT_CHILDREN=1: the child gets seat 2, the others "
                         "are the parent's AIs")
        self.assertEqual(messages[3:10], [
            wire.PlayerType(0, False), wire.PlayerName(0, "Mara"),
            wire.PlayerType(1, False), wire.PlayerName(1, "Gerd"),
            wire.PlayerType(2, True),
            wire.PlayerType(3, False), wire.PlayerName(3, "Sven")])
        # the hands: every seat's 12 cards, 48 cards in all, each card twice
        hands = [m for m in messages if isinstance(m, wire.GameHand)]
        self.assertGreaterEqual(len(hands), 4, summary)
        first = hands[:4]
        self.assertEqual([h.player for h in first], [0, 1, 2, 3])
        self.assertTrue(all(h.repeated and len(h.cards) == 12 for h in first))
        deck = sorted(c for h in first for c in h.cards)
        self.assertEqual(deck, sorted([wire.Card(c, v) for c in names.COLORS
                                       for v in names.VALUES] * 2))
        # the party was played through with the real parent
        self.assertTrue(child.partyFinished.called, summary)
        self.assertEqual(child.games, 4, summary)
        self.assertEqual(len(child.tricks), 48, summary)
        # every card we played was taken: echoed with "(network)", and in its trick
        ours = [m for m in messages if isinstance(m, wire.CardPlayed) and m.player == 2]
        sent = [m for m in child.sent if isinstance(m, wire.CardPlayed)]
        self.assertEqual([m.card for m in ours], [m.card for m in sent])
        self.assertEqual(len(ours), 48)
        self.assertTrue(all(m.comment == "network" for m in ours), "echoed with (network)")
        for trick in child.tricks:
            self.assertEqual(len(trick.cards), 4)
        self.assertEqual(sorted(c for t in child.tricks[:12] for c in t.cards), deck)
        # after "party: finish" the headless real parent starts its next party at once
        await task.deferLater(_reactor, 1.0, lambda: None)
        self.assertTrue(real.process.running, real.process.describe())
        flow = [type(m).__name__ for m in messages
                if isinstance(m, (wire.PartySeed, wire.PartyStart, wire.PartyStartRound,
                                  wire.PartyFinish, wire.GameOpen, wire.GameFinish,
                                  wire.GameStart, wire.Rules, wire.Name))]
        log.msg(f"real parent's flow: {flow}; rules sent {settings}")
        log.msg("reservations and announcements: " + repr([
            m for m in messages if isinstance(m, (wire.Reservation, wire.Announcement,
                                                  wire.Marriage, wire.Swines))]))
        finish = messages.index(wire.PartyFinish())
        log.msg(f"real parent after party: finish: {child.received[finish:finish + 12]}")


class RealChildTests(TestCase):
    """The real FreeDoko child against our minimal parent."""

    timeout = 60

    def setUp(self) -> None:
        findBinary()

    async def test_handshake(self) -> None:
        """
        The real child answers the handshake with its name and its players, deals itself
        from ``party: seed`` (seed 3: the hands of transcript_pyParent_realChild.log),
        reserves, plays its card and keeps the ``trick taken`` barrier.
        """
        parent = MinimalParent()
        listening = _reactor.listenTCP(0, protocol.Factory.forProtocol(lambda: parent),
                                       interface="127.0.0.1")
        self.addCleanup(listening.stopListening)
        real = spawnFreeDoko(_reactor, "child", listening.getHost().port, name="FDChild",
                             lifetime=50)
        self.addCleanup(real.stop)
        names_ = await _within(parent.waitFor(wire.PlayerName), 20)
        self.assertIsNotNone(names_, real.process.describe())
        await task.deferLater(_reactor, 0.5, lambda: None)
        reservation = parent.waitFor(wire.Reservation)
        parent.startParty()
        await _within(reservation, 20)
        summary = real.process.describe()
        messages = parent.messages()
        log.msg(f"real child sent: {messages}")
        self.assertNotIn(True, [isinstance(m, wire.Unknown) for m in messages], summary)
        self.assertEqual(messages[0], wire.Name("FDChild"), summary)
        self.assertEqual(messages[1:9], [
            wire.PlayerType(0, False), wire.PlayerName(0, "Mara"),
            wire.PlayerType(1, False), wire.PlayerName(1, "Gerd"),
            wire.PlayerType(2, False), wire.PlayerName(2, "Erika"),
            wire.PlayerType(3, False), wire.PlayerName(3, "Sven")], summary)
        self.assertIn(wire.Name("FDChild"), messages[9:])  # its answer to "FreeDoko server"
        reservations = [m for m in messages if isinstance(m, wire.Reservation)]
        self.assertTrue(reservations, f"no reservation; got {messages}; {summary}")
        self.assertEqual(reservations[0].player, 2)
        self.assertIn(reservations[0].gameType, names.GAME_TYPES)
        # the first trick of transcript_pyParent_realChild.log
        club = wire.Card
        card = parent.waitFor(wire.CardPlayed)
        parent.send(wire.Reservation(3, "normal"), wire.GameStart(), wire.TrickOpen(),
                    wire.CardPlayed(0, club("club", "ten")),
                    wire.CardPlayed(1, club("club", "ace")))
        played = await _within(card, 20)
        self.assertEqual(played, wire.CardPlayed(2, club("club", "nine"), "serve color trick"),
                         real.process.describe())
        taken = parent.waitFor(wire.TrickTaken)
        parent.send(wire.CardPlayed(3, club("club", "nine")))
        self.assertEqual(await _within(taken, 20), wire.TrickTaken(), real.process.describe())
        full = [m for m in parent.messages() if isinstance(m, wire.TrickFull)]
        self.assertEqual(full, [wire.TrickFull(0, (club("club", "ten"), club("club", "ace"),
                                                   club("club", "nine"), club("club", "nine")), 1)])
        log.msg(f"real child, first trick: {parent.messages()[len(messages):]}")
