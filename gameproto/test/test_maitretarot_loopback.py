"""MaîtreTarot tables over real TCP on 127.0.0.1: four library clients, whole deals."""

from __future__ import annotations

import random
from typing import Any, cast

from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.trial.unittest import TestCase

from gameproto.games import tarot
from gameproto.games.tarot import TarotView
from gameproto.maitretarot import wire
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings

from .tarot_helpers import Client
from .test_maitretarot_tables import Bidder


class Done(Client):
    """A client whose ``done`` fires when its connection closes."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.done: defer.Deferred[None] = defer.Deferred()

    def connectionLost(self, reason: Any = None) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


class DoneBidder(Done, Bidder):
    pass


class LoopbackTests(TestCase):
    settings = TarotSettings(timeout=5, botsAfter=5, botDelay=0.01)

    def setUp(self) -> None:
        self.server = TarotServer(self.settings, reactor, rng=random.Random(3))
        self.port = reactor.listenTCP(0, TarotServerFactory(self.server),  # type: ignore[arg-type]
                                      interface="127.0.0.1")
        self.addCleanup(self.port.stopListening)

    def connect(self, client: Client) -> defer.Deferred[Any]:
        address = self.port.getHost()
        assert isinstance(address, IPv4Address)
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", address.port)
        return connectProtocol(endpoint, client)

    @defer.inlineCallbacks
    def play(self, *clients: Done) -> Any:
        for client in clients:
            yield self.connect(client)
        yield defer.gatherResults([c.done for c in clients])

    @defer.inlineCallbacks
    def test_takenContractTwoDeals(self) -> Any:
        clients = [DoneBidder("p0", 2, bid=2)] + [DoneBidder(f"p{i}", 2) for i in (1, 2, 3)]
        yield self.play(*clients)
        for client in clients:
            self.assertEqual(len(client.scores), 2)
            self.assertTrue(client.ended)
        self.assertEqual(clients[0].scores[0]["contract"], wire.GARDE)
        self.assertEqual(sum(cast(list[int], clients[0].scores[-1]["totals"])), 0)

    @defer.inlineCallbacks
    def test_allPass(self) -> Any:
        clients = [Done(f"p{i}") for i in range(4)]
        for client in clients:
            client.chooseBid = lambda view: 0  # type: ignore[method-assign]
        yield self.play(*clients)
        self.assertEqual(clients[0].scores[0]["contract"], 0)
        self.assertEqual(clients[3].scores[0]["totals"], [0, 0, 0, 0])

    @defer.inlineCallbacks
    def test_illegalCardAndBadDiscardRetried(self) -> Any:
        class Clumsy(DoneBidder):
            triedCard = triedDiscard = False

            def chooseCard(self, view: TarotView) -> Any:
                if not self.triedCard:
                    self.triedCard = True
                    return next(c for c in range(78) if c not in view.legalCards)
                return super().chooseCard(view)

            def chooseDiscard(self, view: TarotView) -> Any:
                if not self.triedDiscard:
                    self.triedDiscard = True
                    return [c for c in range(78) if c not in view.hand][:6]
                return super().chooseDiscard(view)

        clients = [Clumsy("p0", bid=1)] + [DoneBidder(f"p{i}") for i in (1, 2, 3)]
        yield self.play(*clients)
        self.assertEqual(clients[0].refusals, 2)
        self.assertEqual(clients[0].scores[0]["contract"], wire.PETITE)

    @defer.inlineCallbacks
    def test_disconnectAndReconnect(self) -> Any:
        """p2 leaves at its third card; back from its address, it has its seat at the deal's end."""
        class Leaver(Done):
            cards = 0

            def chooseCard(self, view: TarotView) -> Any:
                self.cards += 1
                if self.cards == 3:
                    self.hangUp()
                    return defer.Deferred()
                return super().chooseCard(view)

        slow = TarotSettings(timeout=5, botsAfter=5, botDelay=0.5)
        self.server.settings = slow
        clients = [Done("p0"), Done("p1"), Leaver("p2"), Done("p3")]
        for client in clients:
            yield self.connect(client)
        yield clients[2].done
        back = Done("p2")
        yield self.connect(back)
        yield defer.gatherResults([c.done for c in clients + [back]])
        self.assertEqual(back.place, 2)  # SEND_PLACE: the seat it left
        self.assertEqual(back.branches, [(wire.BP_NEW_GAME, 0)])
        self.assertEqual(back.scores, clients[0].scores)
        self.assertEqual(len(back.scores), 1)

    @defer.inlineCallbacks
    def test_replayRefused(self) -> Any:
        clients = [Done("p0", 1)] + [Done(f"p{i}", 9) for i in (1, 2, 3)]
        yield self.play(*clients)
        self.assertTrue(all(c.ended and len(c.scores) == 1 for c in clients))

    @defer.inlineCallbacks
    def test_oneHumanAgainstBots(self) -> Any:
        self.server.settings = TarotSettings(timeout=5, botsAfter=0.05)
        client = Done(None, 3)
        yield self.play(client)
        self.assertEqual(client.nicks, ["player1", "bot2", "bot3", "bot4"])
        self.assertEqual(len(client.scores), 3)
        self.assertTrue(all(tarot.PLAYERS == len(s["totals"]) for s in client.scores))  # type: ignore[arg-type]
