"""
MaîtreTarot tables: four library clients (or fewer, and bots) playing whole
deals against the server, joined by in-memory pipes on a Clock, so that every
resume point and timeout can be reached exactly.
"""

from __future__ import annotations

import json
from typing import Any, cast

from twisted.internet import defer
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Instructions, Seat
from gameproto.engine.record import replay
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import BotSeat, Table
from gameproto.enginejson.server import (
    EngineJsonServer,
    EngineJsonServerFactory,
    EngineJsonSettings,
)
from gameproto.games import tarot
from gameproto.games.tarot import TAROT, TarotGame, TarotView
from gameproto.maitretarot import wire
from gameproto.maitretarot.machine import stateName
from gameproto.maitretarot.server import RECLAIM_RULES, LeaverSeat, TarotPlayer
from gameproto.web.api import API

from .tarot_helpers import Client, Net
from .hardening_helpers import LogCapture
from .test_metrics import apiCall, sample


def table(net: Net, *clients: Client) -> list[Client]:
    for client in clients:
        net.join(client)
    return list(clients)


def stored(store: SQLiteRecordStore, game: int) -> list[str]:
    """The seats in ``game``'s row of ``store`` (what its listing shows)."""
    (summary,) = [s for s in store.games()[0] if s.id == game]
    return list(summary.seats)


def apiGet(net: Net, path: str) -> Any:
    """``GET path`` of the HTTP API on ``net``'s hub: the JSON answer."""
    request = apiCall(API(net.server.hub), b"GET", path.encode())
    assert request.responseCode in (None, 200), request.responseCode
    return json.loads(b"".join(request.written))


def four(deals: int = 1, cls: type[Client] = Client, **kw: Any) -> list[Client]:
    return [cls(f"p{i}", deals, **kw) for i in range(4)]


class Bidder(Client):
    """Bids ``bid`` at its first chance (if it may), passes otherwise."""

    def __init__(self, nick: str, deals: int = 1, bid: int = 0) -> None:
        super().__init__(nick, deals)
        self.bid = bid

    def chooseBid(self, view: TarotView) -> int:
        return self.bid if self.bid in tarot.legalBids(view.bids) else 0


class DealTests(SynchronousTestCase):
    """Whole deals, as the document sequences them."""

    def test_fourPlayersTwoDeals(self) -> None:
        net = Net(seed=1)
        clients = table(net, *four(deals=2))
        net.run()
        for client in clients:
            self.assertEqual(len(client.scores), 2)
            self.assertTrue(client.ended)
            self.assertTrue(client.lostConnection)
        self.assertEqual([c.seat for c in clients], [0, 1, 2, 3])
        totals = cast(list[int], clients[0].scores[-1]["totals"])
        self.assertEqual(sum(totals), 0)
        self.assertTrue(all(c.scores == clients[0].scores for c in clients))
        (record,) = net.server.store.records.values()  # type: ignore[attr-defined]
        self.assertTrue(record.isFinished)
        self.assertEqual(record.scores, totals)
        game = replay(TAROT, record)
        assert isinstance(game, TarotGame)
        self.assertEqual(game.totals, totals)

    def test_handsAreDisjoint(self) -> None:
        """Each client gets its own 18 cards; the four hands never share a card."""
        net = Net(seed=2)
        clients = table(net, *four())
        net.run()
        hands = [set(c.dealtHands[0]) for c in clients]
        self.assertTrue(all(len(h) == 18 for h in hands))
        self.assertEqual(len(set().union(*hands)), 72)

    def test_takenContract(self) -> None:
        """Garde: the chien is shown, the taker discards, 72 cards, the score."""
        net = Net(seed=3)
        clients = table(net, Bidder("p0", bid=2), Bidder("p1"), Bidder("p2"), Bidder("p3"))
        net.run()
        score = clients[0].scores[0]
        self.assertEqual(score["contract"], wire.GARDE)
        self.assertEqual(clients[0].taker, 0)
        self.assertIsNotNone(clients[1].chien)
        self.assertEqual(len(clients[0].discard or ()), 6)
        self.assertIsNone(clients[1].discard)
        chien = cast(list[int], score["chien"])
        self.assertEqual(len(chien), 6)
        self.assertEqual(sorted(chien), sorted(clients[0].discard or ()))

    def test_gardeSansHidesTheChien(self) -> None:
        net = Net(seed=3)
        clients = table(net, Bidder("p0", bid=3), Bidder("p1"), Bidder("p2"), Bidder("p3"))
        net.run()
        self.assertEqual(clients[0].scores[0]["contract"], wire.GARDE_SANS)
        self.assertTrue(all(c.chien is None for c in clients))

    def test_allPass(self) -> None:
        """Four passes: final bids 0, the chien shown, the score of an unplayed deal."""
        net = Net(seed=4)
        clients = table(net, *four())
        for client in clients:
            client.chooseBid = lambda view: 0  # type: ignore[method-assign]
        net.run()
        score = clients[2].scores[0]
        self.assertEqual((score["contract"], score["won"], score["points"], score["oudlers"]),
                         (0, False, 0, 0))
        self.assertEqual(score["totals"], [0, 0, 0, 0])
        self.assertEqual(clients[2].bids, (0, 0, 0, 0))
        self.assertEqual(len(clients[2].chien or ()), 6)

    def test_invalidBidIsAPass(self) -> None:
        net = Net(seed=5)
        clients = table(net, *four())
        for client in clients:
            client.chooseBid = lambda view: 9  # type: ignore[method-assign]
        net.run()
        self.assertEqual(clients[0].scores[0]["contract"], 0)

    def test_illegalCardRetried(self) -> None:
        """A card the player does not hold gets ACK 0; the next one is played."""
        class Clumsy(Client):
            tried = False

            def chooseCard(self, view: TarotView) -> Any:
                if not self.tried:
                    self.tried = True
                    return next(c for c in range(78) if c not in view.hand)
                return super().chooseCard(view)

        net = Net(seed=6)
        clients = table(net, Clumsy("p0"), Client("p1"), Client("p2"), Client("p3"))
        net.run()
        played = [c for c in clients if c.scores and c.scores[0]["contract"]]
        if not played:
            self.skipTest("seed 6 gives an unplayed deal")  # pragma: no cover
        self.assertEqual(clients[0].refusals, 1)
        self.assertEqual(len(clients[0].scores), 1)

    def test_badDiscardRetried(self) -> None:
        """A discard with a king (or cards not held) gets ACK 0; the next one is taken."""
        class Careless(Bidder):
            tried = False

            def chooseDiscard(self, view: TarotView) -> Any:
                if not self.tried:
                    self.tried = True
                    kings = [c for c in view.hand if tarot.isKing(c)]
                    others = [c for c in view.hand if c not in kings]
                    return tuple((kings + others)[:5] + [77]) if 77 not in view.hand else \
                        tuple(kings[:1] + others[:5])
                return super().chooseDiscard(view)

        net = Net(seed=3)
        clients = table(net, Careless("p0", bid=1), Bidder("p1"), Bidder("p2"), Bidder("p3"))
        net.run()
        self.assertEqual(clients[0].refusals, 1)
        self.assertEqual(clients[0].scores[0]["contract"], wire.PETITE)

    def test_replayRefused(self) -> None:
        """One 0 to ACK_REPLAY: everyone gets SEND_REPLAY_ANSWER 0 and is closed."""
        net = Net(seed=7)
        clients = table(net, Client("p0", 1), Client("p1", 5), Client("p2", 5), Client("p3", 5))
        net.run()
        for client in clients:
            self.assertEqual(len(client.scores), 1)
            self.assertTrue(client.ended)
            self.assertTrue(client.lostConnection)
        self.assertEqual(net.server.playing, set())


class BotTests(SynchronousTestCase):
    """Bots fill tables and take vacated seats."""

    def test_botsAfter(self) -> None:
        net = Net(seed=8, botsAfter=30)
        client = Client("solo")
        net.join(client)
        net.clock.advance(29.9)
        net.flush()
        self.assertEqual(client.nicks, [])
        net.run()
        self.assertEqual(client.nicks, ["solo", "bot2", "bot3", "bot4"])
        self.assertEqual(len(client.scores), 1)

    def test_botsAtOnce(self) -> None:
        net = Net(seed=8, botsAfter=0)
        client = Client(None)
        net.join(client)
        net.run()
        self.assertEqual(client.nicks[0], "player1")
        self.assertEqual(len(client.scores), 1)

    def test_tablesFillInTurn(self) -> None:
        """A full table makes way: the fifth player waits at a new table."""
        net = Net(seed=9)
        clients = four(deals=1)
        fifth = Client("p4")
        for client in clients + [fifth]:
            net.join(client)
        net.flush()
        self.assertTrue(all(len(c.scores) == 1 for c in clients))
        self.assertEqual(fifth.place, 0)
        self.assertEqual(fifth.nicks, [])
        waiting = net.server.waiting
        assert waiting is not None
        self.assertEqual(waiting.places[0].nick, "p4")  # type: ignore[union-attr]

    def test_leaverReplacedByBot(self) -> None:
        """A player who leaves mid-deal: a bot plays on and the others finish."""
        class Leaver(Client):
            def chooseCard(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        net = Net(seed=3)
        clients = table(net, Bidder("p0", bid=1), Leaver("p1"), Bidder("p2"), Bidder("p3"))
        net.run()
        self.assertEqual(clients[1].scores, [])
        self.assertEqual(len(clients[0].scores), 1)
        self.assertTrue(all(c.ended for c in (clients[0], clients[2], clients[3])))

    def test_tableOverIsNotAFault(self) -> None:
        """
        The table over (every replay answered, one of them 0), the server
        closes each connection as the document says: no fault line, no
        refusal counted.
        """
        logged = LogCapture(self)
        net = Net(seed=9)
        clients = four(deals=1)
        for client in clients:
            net.join(client)
        net.run()
        self.assertTrue(all(c.ended and c.lostConnection for c in clients))
        self.assertEqual(logged.lines("gameproto.faults"), [])
        self.assertIsNone(sample(net.server.hub, "gameproto_refused_total",
                                 protocol="maitretarot", cause="dropped"))

    def test_lastPlayerLeavingEndsTheTable(self) -> None:
        class Leaver(Client):
            def chooseBid(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        net = Net(seed=3, botsAfter=0)
        client = Leaver("alone")
        net.join(client)
        net.run()
        (record,) = net.server.store.records.values()  # type: ignore[attr-defined]
        self.assertTrue(record.isFinished)
        self.assertEqual(record.actions[-1].kind, "resign")
        self.assertEqual(net.server.playing, set())


class PhaseWatcher(Client):
    """
    Bids as ``plan`` says for each deal (p0; the others pass), and notes the
    phase its view names at every hook: the decisions and the news.
    """

    def __init__(self, nick: str, plan: dict[int, int]) -> None:
        super().__init__(nick, deals=len(plan))
        self.plan = plan
        self.seen: list[tuple[str, str, object]] = []

    def note(self, hook: str, detail: object = None) -> None:
        self.seen.append((hook, self.phase, detail))

    def chooseBid(self, view: TarotView) -> int:
        self.note("bid", view.phase)
        bid = self.plan[self.deals] if self.nick == "p0" else 0
        return bid if bid in tarot.legalBids(view.bids) else 0

    def chooseDiscard(self, view: TarotView) -> Any:
        self.note("discard", view.phase)
        return super().chooseDiscard(view)

    def chooseCard(self, view: TarotView) -> Any:
        self.note("card", view.phase)
        return super().chooseCard(view)

    def playAgain(self, view: TarotView) -> bool:
        self.note("again", view.phase)
        return super().playAgain(view)

    def contractMade(self, bids: tuple[int, ...], taker: int | None,
                     contract: int | None) -> None:
        self.note("contract", contract)

    def chienShown(self, cards: tuple[int, ...]) -> None:
        self.note("chien", self.taker == self.seat)

    def trickChanged(self, current: tuple[int, ...], previous: tuple[int, ...]) -> None:
        self.note("trick", self.played)

    def scored(self, score: dict[str, object]) -> None:
        self.note("score")
        super().scored(score)


class ClientPhaseTests(SynchronousTestCase):
    """The phase a client's view names is derived from what the seat knows, never set."""

    def test_phaseAtEveryHook(self) -> None:
        """
        Deals nobody takes, a garde and a garde sans: each decision in its
        phase, a deal nobody plays over at its final bids, the discard's
        phase until the play, the end from the last trick on.
        """
        net = Net(seed=3)
        plan = {1: 0, 2: wire.GARDE, 3: wire.GARDE_SANS}
        clients = [PhaseWatcher(f"p{i}", plan) for i in range(4)]
        table(net, *clients)
        net.run()
        self.assertTrue(all(len(client.scores) == 3 for client in clients))
        decisions = {"bid": "bidding", "discard": "discard", "card": "play", "again": "end"}
        for client in clients:
            for hook, phase, detail in client.seen:
                if hook in decisions:
                    self.assertEqual((hook, phase, detail), (hook, decisions[hook], phase))
                elif hook == "contract":
                    expected = ("end" if detail == 0 else
                                "discard" if detail == wire.GARDE else "play")
                    self.assertEqual((hook, phase), (hook, expected), detail)
                elif hook == "chien":
                    self.assertIn(phase, ("discard", "end"))
                elif hook == "trick" and detail == 0:
                    # The first trick, empty: a garde's discard is made, unseen by the others.
                    self.assertIn(phase, ("discard", "play"))
                elif hook == "trick":
                    self.assertEqual(phase, "end" if detail == 72 else "play", detail)
                else:
                    self.assertEqual((hook, phase), ("score", "end"))
        taker = clients[0]
        self.assertIn(("discard", "discard", "discard"), taker.seen)
        self.assertEqual([detail for hook, _, detail in taker.seen if hook == "contract"],
                         [0, wire.GARDE, wire.GARDE_SANS])
        self.assertIn(("trick", "end", 72), taker.seen)

    def test_notSet(self) -> None:
        """The phase is read from the seat's knowledge: there is nothing to set."""
        client = Client("p0")
        self.assertEqual(client.phase, "bidding")
        self.assertRaises(AttributeError, setattr, client, "phase", "play")
        client.contract = wire.PETITE
        self.assertEqual(client.phase, "discard")
        client.leader = 2
        self.assertEqual(client.phase, "play")
        client.dealOver = True
        self.assertEqual(client.phase, "end")


class ReconnectTests(SynchronousTestCase):
    """
    A player who comes back from the same address with its nick is told its
    seat in SEND_PLACE, and takes it back where the document's sequence can
    start: the end of the deal (or the start of one).
    """

    HOST = "10.2.0.3"

    def leaveAt(self, phase: str, seed: int = 3, bid: int = 1, step: int = 1,
                backFrom: str | None = None,
                **settings: Any) -> tuple[Net, list[Client], Client]:
        """
        p2 leaves when asked in ``phase`` (the ``step``th time); returns the
        net, the clients, and p2 back (from HOST, or ``backFrom``).
        """
        class Leaver(Bidder):
            asked = 0

            def _leave(self) -> Any:
                self.asked += 1
                if self.asked >= step:
                    self.hangUp()
                    return defer.Deferred()
                return None

            def chooseBid(self, view: TarotView) -> Any:
                return (phase == "bidding" and self._leave()) or super().chooseBid(view)

            def chooseDiscard(self, view: TarotView) -> Any:
                return (phase == "discard" and self._leave()) or super().chooseDiscard(view)

            def chooseCard(self, view: TarotView) -> Any:
                return (phase == "play" and self._leave()) or super().chooseCard(view)

            def playAgain(self, view: TarotView) -> Any:
                return (phase == "end" and self._leave()) or super().playAgain(view)

        net = Net(seed=seed, botDelay=5, **settings)
        clients: list[Client] = [Bidder("p0", 2), Bidder("p1", 2), Leaver("p2", 2, bid=bid),
                                 Bidder("p3", 2)]
        for client in clients:
            net.join(client, self.HOST if client.nick == "p2" else None)
        net.run(until=lambda: clients[2].lostConnection)
        back = Bidder("p2", 2, bid=bid)
        net.join(back, backFrom or self.HOST)
        return net, clients, back

    def assertBackAtTheEnd(self, net: Net, clients: list[Client], back: Client) -> None:
        """Back silent until the deal's end; then its score, its replay answer, the next deal."""
        self.assertEqual((back.place, back.branches, back.nicks), (2, [], []))
        net.run()
        self.assertEqual(back.seat, 2)
        self.assertEqual(back.branches, [(wire.BP_NEW_GAME, 0)] * 2)
        played = back.scores[0]["contract"] != 0
        self.assertEqual(len(back.dealtHands[0]), 0 if played else 18)  # what is left of it
        self.assertEqual(len(back.scores), 2)
        self.assertEqual(back.scores, clients[0].scores)
        self.assertTrue(back.ended)

    def test_backWhileBidding(self) -> None:
        self.assertBackAtTheEnd(*self.leaveAt("bidding"))

    def test_backWhileDiscarding(self) -> None:
        net, clients, back = self.leaveAt("discard")
        self.assertBackAtTheEnd(net, clients, back)
        self.assertEqual(back.scores[0]["contract"], wire.PETITE)

    def test_backWhilePlaying(self) -> None:
        net, clients, back = self.leaveAt("play", step=3)
        self.assertBackAtTheEnd(net, clients, back)
        self.assertIsNone(next(iter(net.server.playing), None))

    def test_notBackInTime(self) -> None:
        """Nobody comes back: the bot answers 0 for the seat and the table ends."""
        class Leaver(Client):
            def chooseBid(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        net = Net(seed=3, botDelay=5)
        clients = [Client("p0", 2), Client("p1", 2), Leaver("p2", 2), Client("p3", 2)]
        for client in clients:
            net.join(client)
        net.run()
        for client in (clients[0], clients[1], clients[3]):
            self.assertEqual(len(client.scores), 1)
            self.assertTrue(client.ended)
        (record,) = net.server.store.records.values()  # type: ignore[attr-defined]
        self.assertEqual(record.actions[-1].action, {"replay": False})

    def ponder(self) -> tuple[Net, list[Client], list[defer.Deferred[bool]]]:
        """p2 (from HOST) leaves during the play; returns while p0 ponders ACK_REPLAY."""
        pondering: list[defer.Deferred[bool]] = []

        class Ponderer(Client):
            def playAgain(self, view: TarotView) -> Any:
                if len(self.scores) == 1:
                    pondering.append(defer.Deferred())
                    return pondering[-1]
                return False

        class Leaver(Client):
            def chooseCard(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        net = Net(seed=3, botDelay=5)
        clients = [Ponderer("p0", 2), Client("p1", 2), Leaver("p2", 2), Client("p3", 2)]
        for client in clients:
            net.join(client, self.HOST if client.nick == "p2" else None)
        net.run(until=lambda: bool(pondering))
        return net, clients, pondering

    def test_backAtTheEndAnswerAwaited(self) -> None:
        """Back while its replay answer is awaited: at once its score, then it answers itself."""
        net, clients, pondering = self.ponder()
        back = Client("p2", 2)
        net.join(back, self.HOST)
        self.assertEqual((back.place, back.branches), (2, [(wire.BP_NEW_GAME, 0)]))
        self.assertEqual(back.scores, clients[0].scores)
        pondering[0].callback(True)
        net.run()
        self.assertEqual(back.branches, [(wire.BP_NEW_GAME, 0)] * 2)
        self.assertEqual(len(back.scores), 2)
        self.assertEqual(back.scores[-1], clients[0].scores[-1])
        self.assertTrue(back.ended)

    def test_tooLateOnceTheBotAnswered(self) -> None:
        """The bot answered 0 for the seat: a newcomer, whatever its nick; the table ends."""
        net, clients, pondering = self.ponder()
        net.clock.advance(5)
        net.flush()
        back = Client("p2", 2)
        net.join(back, self.HOST)
        self.assertEqual((back.place, back.nicks), (0, []))  # a new waiting table
        pondering[0].callback(True)
        net.run(until=lambda: clients[0].ended)
        self.assertEqual([len(c.scores) for c in clients], [1, 1, 0, 1])

    def test_defaultNickFromItsAddress(self) -> None:
        """A default nick (length 0) is taken back from the address it left."""
        class Leaver(Client):
            def chooseCard(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        net = Net(seed=3, botDelay=5)
        clients = [Leaver(None, 2), Client("p1", 2), Client("p2", 2), Client("p3", 2)]
        for client in clients:
            net.join(client, self.HOST if client.nick is None else None)
        net.flush()
        self.assertTrue(clients[0].lostConnection)
        back = Client(None, 2)
        net.join(back, self.HOST)
        self.assertEqual(back.place, 0)
        net.run()
        self.assertEqual(back.nicks, ["player1", "p1", "p2", "p3"])
        self.assertEqual(len(back.scores), 2)

    def test_defaultNickFromAnotherAddress(self) -> None:
        """Under every rule, a default nick from another address is a newcomer."""
        class Leaver(Client):
            def chooseCard(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        for rule in RECLAIM_RULES:
            net = Net(seed=3, botDelay=5, reclaim=rule)
            clients = [Leaver(None), Client("p1"), Client("p2"), Client("p3")]
            for client in clients:
                net.join(client)
            net.flush()
            self.assertTrue(clients[0].lostConnection)
            back = Client(None)
            net.join(back)
            self.assertEqual((back.place, back.nicks), (0, []))  # a new waiting table

    def test_nickFromAnotherAddress(self) -> None:
        """
        Under every rule, p2's nick from another address is a newcomer: a
        waiting place, a table of its own, and the bot answers 0 for p2's seat.
        """
        for rule in RECLAIM_RULES:
            net, clients, other = self.leaveAt("play", step=3, backFrom="10.2.0.99",
                                               reclaim=rule)
            self.assertEqual((other.place, other.nicks), (0, []))  # a waiting place
            net.run()
            self.assertEqual(other.nicks, ["p2", "bot2", "bot3", "bot4"])
            self.assertEqual(len(other.scores), 2)
            for client in (clients[0], clients[1], clients[3]):
                self.assertEqual(len(client.scores), 1)
                self.assertTrue(client.ended)


class RecordNamesTests(SynchronousTestCase):
    """
    A seat a bot took over from its player keeps the player's name in the
    record, "NAME (bot)", as in the hub's own games; MaîtreTarot's wire
    still gives every bot's seat its botN.
    """

    def store(self) -> SQLiteRecordStore:
        store = SQLiteRecordStore(self.mktemp())
        self.addCleanup(store.close)
        return store

    def test_leaversUntilTheyComeBack(self) -> None:
        """
        p1 and p2 leave while bidding: "p1 (bot)" and "p2 (bot)" in the
        stored record; p1 is back (same address and nick): "p1" again, and
        its SEND_NICKS says bot3 for p2's seat.
        """
        class Leaver(Bidder):
            def chooseBid(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        store = self.store()
        net = Net(seed=3, botDelay=5, store=store)
        clients = [Bidder("p0", 2), Leaver("p1", 2), Leaver("p2", 2), Bidder("p3", 2)]
        hosts = {"p1": "10.2.0.1", "p2": "10.2.0.2"}
        for client in clients:
            net.join(client, hosts.get(client.nick or ""))
        net.run(until=lambda: clients[1].lostConnection and clients[2].lostConnection)
        (session,) = net.server.playing
        table = session.table
        assert table is not None
        self.assertIsInstance(table.holders[2], LeaverSeat)
        self.assertEqual(stored(store, table.id), ["p0", "p1 (bot)", "p2 (bot)", "p3"])
        back = Bidder("p1", 2)
        net.join(back, hosts["p1"])
        net.run()
        self.assertEqual(back.seat, 1)
        self.assertEqual(back.nicks, ["p0", "p1", "bot3", "p3"])
        self.assertEqual(len(back.scores), 1)
        self.assertEqual(clients[0].nicks, ["p0", "p1", "p2", "p3"])
        record = store.get(table.id)
        assert record is not None
        self.assertTrue(record.isFinished)
        self.assertEqual(record.seats, ["p0", "p1", "p2 (bot)", "p3"])

    def test_botsFromTheStartKeepTheirNames(self) -> None:
        """Bots that filled the table are botN; the seat solo left is "solo (bot)"."""
        class Leaver(Client):
            def chooseCard(self, view: TarotView) -> Any:
                self.hangUp()
                return defer.Deferred()

        store = self.store()
        net = Net(seed=3, botsAfter=0, store=store)
        solo = Leaver("solo")
        net.join(solo)
        net.run()
        self.assertTrue(solo.lostConnection)
        self.assertEqual(solo.nicks, ["solo", "bot2", "bot3", "bot4"])
        ((summary,), _) = store.games()
        record = store.get(summary.id)
        assert record is not None
        self.assertTrue(record.isFinished)
        self.assertEqual(record.seats, ["solo (bot)", "bot2", "bot3", "bot4"])

    def test_pagePlayerLeaves(self) -> None:
        """
        A page's player (the engine JSON protocol) queued at a MaîtreTarot
        table leaves during the deal: the HTTP API names its seat
        "alice (bot)" while the deal goes on and once it is over; the
        MaîtreTarot clients' nicks are those of the start.
        """
        store = self.store()
        net = Net(seed=3, store=store)
        factory = EngineJsonServerFactory(EngineJsonServer(EngineJsonSettings(),
                                                           hub=net.server.hub))
        page = factory.buildProtocol(None)
        assert page is not None
        transport = StringTransport()
        page.makeConnection(transport)

        def send(message: dict[str, Any]) -> None:
            page.dataReceived(json.dumps(message).encode() + b"\n")

        def told(kind: str) -> list[dict[str, Any]]:
            messages = [json.loads(line) for line in transport.value().splitlines()]
            return [m for m in messages if m["type"] == kind]

        clients = [Client("p0"), Client("p1"), Client("p2")]
        for client in clients[:2]:
            net.join(client)
        send({"type": "queue", "engine": "tarot", "name": "alice"})
        net.join(clients[2])
        (seated,) = told("seated")
        game = seated["game"]
        self.assertEqual((seated["player"], seated["players"]), (3, ["p0", "p1", "alice", "p2"]))
        send({"type": "leave"})
        self.assertEqual(len(told("left")), 1)
        self.assertEqual(apiGet(net, f"/api/games/{game}")["seats"],
                         ["p0", "p1", "alice (bot)", "p2"])
        self.assertEqual(stored(store, game), ["p0", "p1", "alice (bot)", "p2"])
        net.run()
        self.assertTrue(all(len(c.scores) == 1 and c.ended for c in clients))
        self.assertEqual([c.nicks for c in clients], [["p0", "p1", "alice", "p2"]] * 3)
        shown = apiGet(net, f"/api/games/{game}")
        self.assertEqual((shown["status"], shown["seats"]),
                         ("finished", ["p0", "p1", "alice (bot)", "p2"]))
        self.assertEqual(apiGet(net, f"/api/games/{game}/record")["seats"],
                         ["p0", "p1", "alice (bot)", "p2"])


class ServerStateTests(SynchronousTestCase):
    """The server's per-connection machine after whole deals."""

    def test_closedAfterTable(self) -> None:
        net = Net(seed=1)
        table(net, *four())
        net.run()
        players = [p.server for p in net.pumps]
        for protocol in players:
            self.assertEqual(stateName(protocol.player.machine), "closed")
            self.assertIsInstance(protocol.player, TarotPlayer)

    def test_seatsHeldByBotsAfterLeaving(self) -> None:
        class Slow(Client):
            def chooseBid(self, view: TarotView) -> Any:
                return defer.Deferred()

        net = Net(seed=3, botDelay=5)
        clients = table(net, Client("p0"), Slow("p1"), Client("p2"), Client("p3"))
        net.flush()
        clients[2].hangUp()
        net.flush()
        (session,) = net.server.playing
        assert session.table is not None
        self.assertIsInstance(session.table.holders[2], BotSeat)
        self.assertEqual(session.vacated, {2: "p2"})


class Guest:
    """A guest of another protocol: it sees its seat's updates and never answers."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.updates: list[Instructions] = []
        self.seat: tuple[Table, Seat] | None = None
        self.abortedWith: str | None = None

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        self.seat = (table, seat)
        self.updates.append(instructions)

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        self.abortedWith = reason


class MatchmakerTests(SynchronousTestCase):
    """MaîtreTarot's matchmaker: a guest of any protocol at a table, under Tarot's rules."""

    def test_guestBesideClients(self) -> None:
        """A guest takes the next place; a silent guest's moves are played by the bot in time."""
        net = Net(seed=3, timeout=10)
        clients = [Client("p0"), Client("p1"), Client("p2")]
        for client in clients[:2]:
            net.join(client)
        guest = Guest("web")
        self.assertIsNone(net.server.hub.matchmakers["tarot"].enqueue(guest))
        net.join(clients[2])
        net.run()
        assert guest.seat is not None
        table, seat = guest.seat
        self.assertEqual(seat, 2)
        self.assertEqual(table.record.seats, ["p0", "p1", "web", "p2"])
        self.assertEqual([len(c.scores) for c in clients], [1, 1, 1])
        self.assertTrue(all(c.ended for c in clients))
        self.assertTrue(table.finished)
        self.assertTrue(guest.updates[-1].game_state.gameover)
        self.assertEqual([c.nicks for c in clients], [["p0", "p1", "web", "p2"]] * 3)
        actions = table.record.actions
        waits = [actions[i].at - (actions[i - 1].at if i else 0.0)
                 for i, action in enumerate(actions) if action.seat == seat]
        self.assertTrue(waits)
        self.assertEqual(set(waits), {10.0})  # each move played by the bot after the timeout
        self.assertIsNone(net.server.hub.findTable(table.id))

    def test_dequeueBeforeTheStart(self) -> None:
        """A guest who leaves before the start frees its place; after it, dequeue does nothing."""
        net = Net(seed=3)
        guest = Guest("web")
        matchmaker = net.server.hub.matchmakers["tarot"]
        matchmaker.enqueue(guest)
        room = net.server.waitingRoom()
        self.assertEqual(room.names(), ["web", "", "", ""])
        matchmaker.dequeue(guest)
        self.assertEqual(room.places, [None] * 4)
        self.assertEqual(net.clock.getDelayedCalls(), [])
        clients = [Client(f"p{i}") for i in range(3)]
        for client in clients:
            net.join(client)
        matchmaker.enqueue(guest)
        net.flush()
        assert guest.seat is not None
        table, seat = guest.seat
        matchmaker.dequeue(guest)
        self.assertEqual(table.holders[seat].name, "web")
        net.server.hub.vacate(table, seat)
        self.assertIsInstance(table.holders[seat], BotSeat)
        self.assertEqual(net.server.roomOf(table).vacated, {})  # type: ignore[union-attr]
        net.run()
        self.assertTrue(all(c.ended for c in clients))
