"""
The MaîtreTarot server against a client written from the protocol document
alone (L{DocPeer}: raw big-endian gints on a StringTransport, none of
gameproto's codec or client code): the replay answer of a seat left during
a deal, SEND_SCORE's points, taking a seat back, the void deal after
DILL_CARDS byte by byte, and a refused discard.
"""

from __future__ import annotations

import random
import re
import struct
from pathlib import Path
from typing import Any, Generator

from hypothesis import example, given, strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.record import replay
from gameproto.test import sourceTree
from gameproto.games import tarot
from gameproto.games.tarot import TAROT, TarotGame
from gameproto.maitretarot import wire
from gameproto.maitretarot.protocol import discardFault
from gameproto.maitretarot.server import (
    RECLAIM_RULES,
    TarotServer,
    TarotServerFactory,
    TarotSettings,
)

from .hardening_helpers import LogCapture
from .tarot_helpers import PAUSE, DocPeer, Need, settle, takerHands
from .test_games_tarot import PETIT_SEC_SEED

DOC = (sourceTree() or Path(__file__).resolve().parents[2]) / "docs" / "protocols" / "maitretarot.md"


class FixedSeed(random.Random):
    """A source of randomness whose every table deals from ``seed``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.fixed = seed

    def randrange(self, *args: Any, **kw: Any) -> int:
        return self.fixed


class Server:
    """A MaîtreTarot server on a Clock, and the document's peers connected to it."""

    def __init__(self, rng: random.Random | None = None, **settings: Any) -> None:
        settings.setdefault("botsAfter", 5.0)
        settings.setdefault("botDelay", 1.0)
        settings.setdefault("timeout", 60.0)
        self.clock = Clock()
        self.server = TarotServer(TarotSettings(**settings), self.clock,
                                  rng=rng or random.Random(0))
        self.factory = TarotServerFactory(self.server)
        self.peers: list[DocPeer] = []

    def connect(self, nick: bytes, host: str, kind: type[DocPeer] = DocPeer,
                **kw: Any) -> DocPeer:
        peer = kind(self.factory, nick, host=host, port=40000 + len(self.peers), **kw)
        self.peers.append(peer)
        return peer

    def settle(self, until: Any = lambda: False) -> None:
        settle(self.clock, self.peers, until)

    def record(self) -> Any:
        (record,) = self.server.store.records.values()  # type: ignore[attr-defined]
        return record


def answers(peer: DocPeer) -> list[tuple[int, ...]]:
    """Every SEND_REPLAY_ANSWER ``peer`` read."""
    return [values for name, values in peer.log if name == "SEND_REPLAY_ANSWER"]


def asked(peer: DocPeer, name: str) -> bool:
    """Whether ``peer`` read a ``name`` asking it to answer."""
    return any(n == name and values == (1,) for n, values in peer.log)


class NickLimitTests(SynchronousTestCase):
    """SEND_NICKS keeps to the document's 64 bytes a nick, 256 in all."""

    def test_replacedBytesCut(self) -> None:
        """
        Nicks of 64 invalid bytes (each read as U+FFFD, three bytes) are
        sent cut to 64 bytes, at a character's boundary: 63 bytes, 21
        replacement characters.
        """
        server = Server(botsAfter=1000)
        peers = [server.connect(b"\xff" * 64, f"10.0.0.{i + 1}") for i in range(4)]
        server.settle(until=lambda: all(p.names().count("SEND_NICKS") for p in peers))
        for peer in peers:
            self.assertEqual(peer.last("SEND_NICK_LEN"), (63, 63, 63, 63))
            (nicks,) = [v for n, v in peer.log if n == "SEND_NICKS"]
            self.assertEqual(bytes(nicks), ("\ufffd" * 21).encode("utf-8") * 4)

    def test_controlCharacters(self) -> None:
        """A nick's control characters (NUL, a line break) are U+FFFD, in SEND_NICKS and in the log."""
        logged = LogCapture(self)
        server = Server(botsAfter=0)
        peer = server.connect(b"a\x00b\nc", "10.0.0.1")
        server.settle(until=lambda: "SEND_NICKS" in peer.names())
        (nicks,) = [v for n, v in peer.log if n == "SEND_NICKS"]
        self.assertTrue(bytes(nicks).startswith("a\ufffdb\ufffdc".encode("utf-8")))
        self.assertEqual([line for line in logged.lines() if "\x00" in line or "b\nc" in line], [])
        self.assertIn("a\ufffdb\ufffdc", "".join(logged.lines()))

    @given(st.text(max_size=80))
    def test_nickBytes(self, nick: str) -> None:
        """Whatever the nick: at most 64 bytes, UTF-8, the start of the nick's own."""
        data = wire.nickBytes(nick)
        self.assertLessEqual(len(data), 64)
        self.assertTrue(nick.encode("utf-8").startswith(data))
        self.assertEqual(data.decode("utf-8").encode("utf-8"), data)
        if len(nick.encode("utf-8")) <= 64:
            self.assertEqual(data, nick.encode("utf-8"))
        else:
            self.assertGreater(len(data), 60)


class LeaverReplayTests(SynchronousTestCase):
    """Table 15: "si un joueur ... s'est déconnecté, alors on envoie 0"."""

    def leave(self, **settings: Any) -> tuple[Server, DocPeer, DocPeer]:
        """bob (place 0) and ann (place 1, from 10.0.0.1) with two bots; ann leaves at her bid."""
        server = Server(**settings)
        bob = server.connect(b"bob", "10.0.0.2", replays=[1, 0])
        ann = server.connect(b"ann", "10.0.0.1")
        server.settle(until=lambda: asked(ann, "ASK_BID_QUESTION"))
        ann.hangUp()
        return server, bob, ann

    def test_leaverMakesTheAnswerZero(self) -> None:
        """The bot plays ann's deal out, then answers 0 for her: the table ends."""
        server, bob, ann = self.leave()
        server.settle()
        self.assertTrue(bob.done)
        self.assertEqual(answers(bob), [(0,)])
        self.assertEqual(bob.names().count("BRANCHEMENT_POINT"), 1)
        self.assertTrue(bob.closed)
        self.assertTrue(server.record().isFinished)

    def test_backBeforeTheEndAnswersItself(self) -> None:
        """ann back (same address, same nick) before the deal ends: her own 1, a second deal."""
        server, bob, ann = self.leave()
        back = server.connect(b"ann", "10.0.0.1", replays=[1, 0])
        server.settle()
        self.assertEqual(answers(bob), [(1,), (0,)])
        self.assertEqual(answers(back), [(1,), (0,)])


class ScoreTests(SynchronousTestCase):
    """SEND_SCORE's third gint: "nombre de points du preneur"."""

    def test_takerPointsAreWhole(self) -> None:
        """A garde contre played to the end: the taker's points as the rules count them."""
        server = Server()
        peer = server.connect(b"ann", "10.0.0.1", bids=[4], replays=[0])
        server.settle()
        self.assertTrue(peer.done)
        contract, won, points, oudlers = peer.last("SEND_SCORE")[:4]
        self.assertNotEqual(contract, 0)
        game = replay(TAROT, server.record())
        assert isinstance(game, TarotGame)
        (deal,) = game.history
        self.assertEqual(points * 2, deal["points"])
        self.assertIn(points, range(0, 92))
        self.assertEqual(bool(won), points >= tarot.THRESHOLDS[oudlers])
        self.assertEqual(bool(won), deal["won"])


class LeavesAtItsBid(DocPeer):
    """Hangs up when first asked to bid, before bidding."""

    def deal(self) -> Generator[Need, bytes, None]:
        while True:
            yield from self.gints("SEND_BIDS", 4)
            (ask,) = yield from self.gints("ASK_BID_QUESTION", 1)
            if ask:
                self.hangUp()
                while True:
                    yield PAUSE


def gints(*values: int) -> bytes:
    """The document's gints: 32 bits, signed, big-endian."""
    return struct.pack(f">{len(values)}i", *values)


class ReclaimTests(SynchronousTestCase):
    """A seat left during a deal, taken back by a client that follows the document."""

    def leave(self, **settings: Any) -> tuple[Server, DocPeer]:
        server = Server(**settings)
        bob = server.connect(b"bob", "10.0.0.2", replays=[1, 0])
        ann = server.connect(b"ann", "10.0.0.1")
        server.settle(until=lambda: asked(ann, "ASK_BID_QUESTION"))
        ann.hangUp()
        return server, bob

    def test_sameAddressAndNick(self) -> None:
        """SEND_PLACE is the seat; then silence, and the deal's end as after DILL_CARDS."""
        server, bob = self.leave()
        back = server.connect(b"ann", "10.0.0.1", replays=[1, 0])
        self.assertEqual(back.last("SEND_PLACE"), (1,))
        self.assertEqual(back.names(), ["SEND_ID", "SEND_PROTOCOL", "SEND_PLACE"])
        server.settle()
        self.assertEqual(back.names()[3:11], [
            "SEND_NICK_LEN", "SEND_NICKS", "BRANCHEMENT_POINT", "DILL_CARDS", "SEND_SCORE",
            "SHOW_CHIEN_AT_END", "SEND_REPLAY_ANSWER", "BRANCHEMENT_POINT"])
        self.assertEqual(back.last("SEND_NICK_LEN"), (3, 3, 4, 4))
        self.assertEqual(bytes(back.last("SEND_NICKS")), b"bobannbot3bot4")
        points = [v for n, v in back.log if n == "BRANCHEMENT_POINT"]
        self.assertEqual(points, [(0, 0), (0, 0)])
        scores = [v for n, v in back.log if n == "SEND_SCORE"]
        self.assertEqual(scores, [v for n, v in bob.log if n == "SEND_SCORE"])
        self.assertNotEqual(scores[0][0], -1)
        self.assertEqual(answers(bob), [(1,), (0,)])
        self.assertTrue(back.done)

    def test_otherAddress(self) -> None:
        """By default the nick alone is not enough: a new table, and the old one ends."""
        server, bob = self.leave()
        other = server.connect(b"ann", "10.0.0.9")
        self.assertEqual(other.last("SEND_PLACE"), (0,))
        server.settle(until=lambda: bob.done)
        self.assertEqual(answers(bob), [(0,)])
        self.assertFalse(other.closed)
        self.assertNotIn(b"bob", bytes(dict(other.log).get("SEND_NICKS", ())))  # a new table

    def test_otherNickFromTheAddress(self) -> None:
        """SEND_PLACE named ann's seat: another nick from there is closed, the seat kept."""
        server, bob = self.leave()
        eve = server.connect(b"eve", "10.0.0.1")
        self.assertEqual(eve.last("SEND_PLACE"), (1,))
        self.assertTrue(eve.closed)
        back = server.connect(b"ann", "10.0.0.1", replays=[0])
        self.assertEqual(back.last("SEND_PLACE"), (1,))
        server.settle()
        self.assertEqual(answers(back), [(0,)])
        self.assertEqual(answers(bob), [(0,)])
        self.assertIn("SEND_SCORE", back.names())

    def test_backAtTheStartOfADeal(self) -> None:
        """
        Back before anyone has bid: SEND_PLACE is the seat, then the deal
        from its start (SEND_BIDS all -1 and the question), and ann plays it.
        """
        server = Server()
        bob = server.connect(b"bob", "10.0.0.2", replays=[0])
        ann = server.connect(b"ann", "10.0.0.1", kind=LeavesAtItsBid)
        server.settle(until=lambda: ann.lost)
        self.assertEqual(ann.place, 1)  # the first to speak: nobody has bid
        self.assertEqual(ann.log[-1], ("ASK_BID_QUESTION", (1,)))
        dealt = ann.last("DILL_CARDS")
        back = server.connect(b"ann", "10.0.0.1", bids=[4], replays=[0])
        self.assertEqual(back.last("SEND_PLACE"), (1,))
        nicks = b"bobannbot3bot4"
        head = 4 * (2 + 1 + 1) + 4 * 4 + len(nicks)
        self.assertEqual(bytes(back.received[head - len(nicks):head]), nicks)
        self.assertEqual(bytes(back.received[head:head + 8 + 72 + 16 + 4]),
                         gints(0, 0)                       # BRANCHEMENT_POINT(NEW_GAME, 0)
                         + gints(*dealt)                   # DILL_CARDS: the whole hand
                         + b"\xff\xff\xff\xff" * 4         # SEND_BIDS: nobody has spoken
                         + gints(1))                       # ASK_BID_QUESTION: ann's turn
        server.settle()
        self.assertTrue(back.done)
        self.assertEqual(back.last("SEND_FINAL_BIDS")[1], 4)  # ann's own garde contre
        self.assertIn("SEND_LAST_TURN_CARDS", back.names())
        self.assertEqual([v for n, v in back.log if n == "SEND_SCORE"],
                         [v for n, v in bob.log if n == "SEND_SCORE"])
        self.assertEqual(back.names().count("BRANCHEMENT_POINT"), 1)
        (first, *_) = server.record().actions
        self.assertEqual((first.seat, first.action), (1, {"bid": 4}))

    def test_nickAloneUnderEveryRule(self) -> None:
        """
        No rule lets a nick alone take a seat back: ann's nick from another
        address is a newcomer at a table of its own, and the bot answers 0
        for her seat.
        """
        self.assertNotIn("nick", RECLAIM_RULES)
        self.assertRaises(ValueError, TarotSettings, reclaim="nick")
        for rule in RECLAIM_RULES:
            server, bob = self.leave(reclaim=rule)
            other = server.connect(b"ann", "10.0.0.9", replays=[0])
            self.assertEqual(other.last("SEND_PLACE"), (0,))
            server.settle()
            self.assertEqual(answers(bob), [(0,)])
            self.assertEqual(bytes(other.last("SEND_NICKS")), b"annbot2bot3bot4")
            self.assertTrue(other.done)

    def test_off(self) -> None:
        """--maitretarot-reclaim off: nobody takes the seat back."""
        server, bob = self.leave(reclaim="off")
        back = server.connect(b"ann", "10.0.0.1")
        self.assertEqual(back.last("SEND_PLACE"), (0,))
        server.settle(until=lambda: bob.done)
        self.assertEqual(answers(bob), [(0,)])
        self.assertNotIn(b"bob", bytes(dict(back.log).get("SEND_NICKS", ())))  # a new table


class PetitSecTests(SynchronousTestCase):
    """A void deal: DILL_CARDS, then SEND_SCORE where SEND_BIDS would be."""

    worked = b""

    def test_voidDealOnTheWire(self) -> None:
        server = Server(rng=FixedSeed(PETIT_SEC_SEED), botsAfter=1000)
        peers = [server.connect(b"p%d" % i, f"10.0.0.{i + 1}", replays=[1, 0])
                 for i in range(4)]
        server.settle(until=lambda: all("BRANCHEMENT_POINT" in p.names() for p in peers))
        hands, chien = tarot.dealCards(PETIT_SEC_SEED, 1, 0)
        self.assertTrue(tarot.hasPetitSec(hands[1]))
        first = peers[0]
        head = 4 * (2 + 1 + 1) + 4 * 4 + len(b"p0p1p2p3")
        deal = (gints(0, 0)                                # BRANCHEMENT_POINT(NEW_GAME, 0)
                + gints(*hands[0])                         # DILL_CARDS
                + b"\x00\x00\x00\x00" * 8                  # SEND_SCORE: PASSE, ..., totals 0
                + gints(*chien))                           # SHOW_CHIEN_AT_END
        self.assertEqual(bytes(first.received[head:]), deal)
        server.settle(until=lambda: all("SEND_BIDS" in p.names() for p in peers))
        second = bytes(first.received[head + len(deal):])
        hands2, _ = tarot.dealCards(PETIT_SEC_SEED, 2, 1)
        self.assertEqual(second[:4 + 8 + 72 + 16],
                         gints(1)                          # SEND_REPLAY_ANSWER 1
                         + gints(0, 0) + gints(*hands2[0])  # the next deal
                         + b"\xff\xff\xff\xff" * 4)        # SEND_BIDS: nobody has spoken
        for peer in peers:
            self.assertEqual(peer.names()[5:12], [
                "BRANCHEMENT_POINT", "DILL_CARDS", "SEND_SCORE", "SHOW_CHIEN_AT_END",
                "SEND_REPLAY_ANSWER", "BRANCHEMENT_POINT", "DILL_CARDS"])
            self.assertEqual(peer.log[7][1], (0,) * 8)
        server.settle()
        self.assertTrue(all(peer.done for peer in peers))
        self.worked = deal

    def test_workedExample(self) -> None:
        """The page's worked example is these bytes, as the server sends them."""
        if not DOC.exists():  # pragma: no cover - an installed package without its docs
            self.skipTest("docs/protocols/maitretarot.md is not here")
        text = DOC.read_text(encoding="utf-8")
        block = text.split("**Worked example.**", 1)[1].split("```", 2)[1]
        example = b"".join(
            bytes.fromhex(match.group(1).replace(" ", ""))
            for line in block.splitlines()
            if (match := re.match(r"((?:[0-9a-f]{2}(?: {1,2}|$))+)", line)))
        self.test_voidDealOnTheWire()
        self.assertEqual(example, self.worked)


class RefusedDiscard(DocPeer):
    """The taker: a discard with a king (the document allows it), then a legal one."""

    go = 0

    def chooseDiscard(self, hand: list[int], attempt: int) -> list[int] | None:
        if attempt >= self.go:
            return None
        if attempt == 0:
            king = next(c for c in hand if tarot.isKing(c))
            return [king] + [c for c in tarot.botDiscard(hand) if c != king][:5]
        return list(tarot.botDiscard(hand))


ORDINARY4 = [0, 1, 2, 3]
"""Four suit cards: a taker holding only these puts two trumps in its discard."""
TRUMPS = list(range(57, 67))
"""Trumps 2 to 11."""


class DiscardTests(SynchronousTestCase):
    @given(takerHands())
    @example(([*range(10), 13, 56, *TRUMPS], [0, 1, 2, 3, 4, 5]))          # legal
    @example(([*ORDINARY4, 13, *TRUMPS], [*ORDINARY4, 57, 58]))             # legal, trumps
    @example(([*ORDINARY4, 13, *TRUMPS], [0, 1, 2, 57, 58, 59]))            # a trump too many
    @example(([*range(10), *TRUMPS], [0, 1, 2, 3, 4, 57]))                 # a trump, none needed
    @example(([*range(10), 13, *TRUMPS], [0, 1, 2, 3, 4, 13]))             # a king
    @example(([*range(10), 77, *TRUMPS], [0, 1, 2, 3, 4, 77]))             # an oudler
    @example(([*range(10), *TRUMPS], [0, 1, 2, 3, 4, 40]))                 # not held
    @example(([*range(10), *TRUMPS], [0, 1, 2, 3, 4, 4]))                  # a card twice
    @example(([*range(10), *TRUMPS], [0, 1, 2, 3, 4]))                     # five
    def test_faultExactlyWhenTheRulesRefuse(self, case: tuple[list[int], list[int]]) -> None:
        """The reason given for a refused discard is there exactly when the rules refuse it."""
        hand, discard = case
        fault = discardFault(hand, discard)
        self.assertEqual(fault is None, tarot.isLegalDiscard(hand, discard), fault)

    def test_refusedDiscardRestartsTheClock(self) -> None:
        """SEND_ACK_FOR_CHIEN 0 gives the taker the whole timeout again for its next discard."""
        server = Server(timeout=60)
        peer = RefusedDiscard(server.factory, b"ann", host="10.0.0.1", bids=[2], replays=[0])
        server.peers.append(peer)
        server.settle(until=lambda: peer._need == PAUSE)
        self.assertEqual(peer.last("SEND_FINAL_BIDS"), (2, 0, 0, 0))
        hand = sorted(peer.hand)
        server.clock.advance(50)
        peer.go = 1
        peer.resume()
        self.assertEqual(peer.last("SEND_ACK_FOR_CHIEN"), (0,))
        king = next(c for c in hand if tarot.isKing(c))
        bad = [king] + [c for c in tarot.botDiscard(hand) if c != king][:5]
        self.assertEqual(discardFault(hand, bad), "no king may be put aside")
        server.clock.advance(59)
        self.assertFalse(peer.closed)
        peer.go = 2
        peer.resume()
        self.assertEqual(peer.last("SEND_ACK_FOR_CHIEN"), (1,))
        server.settle()
        self.assertTrue(peer.done)
        self.assertIn("SEND_LAST_TURN_CARDS", peer.names())

    def test_threeTimeoutsAtMost(self) -> None:
        """Refused discards start the clock again, up to three timeouts from the last bid."""
        server = Server(timeout=60)
        peer = RefusedDiscard(server.factory, b"ann", host="10.0.0.1", bids=[2], replays=[0])
        server.peers.append(peer)
        server.settle(until=lambda: peer._need == PAUSE)
        asked = server.clock.seconds()
        for refusals in range(1, 4):
            server.clock.advance(50)
            peer.go = 1
            peer.chooseDiscard = lambda hand, attempt: (  # type: ignore[method-assign]
                None if attempt >= refusals else RefusedDiscard.chooseDiscard(peer, hand, 0))
            peer.resume()
            self.assertEqual(peer.last("SEND_ACK_FOR_CHIEN"), (0,))
        server.clock.advance(asked + 180 - server.clock.seconds() - 0.1)
        self.assertFalse(peer.closed)
        server.clock.advance(0.1)
        peer.advance()
        self.assertTrue(peer.closed)

    def test_clockStillRuns(self) -> None:
        """Without an answer, the restarted clock runs out like any other: a bot, and closed."""
        server = Server(timeout=60)
        peer = RefusedDiscard(server.factory, b"ann", host="10.0.0.1", bids=[2], replays=[0])
        server.peers.append(peer)
        server.settle(until=lambda: peer._need == PAUSE)
        server.clock.advance(50)
        peer.go = 1
        peer.resume()
        server.clock.advance(59.9)
        self.assertFalse(peer.closed)
        server.clock.advance(0.1)
        peer.advance()
        self.assertTrue(peer.closed)
