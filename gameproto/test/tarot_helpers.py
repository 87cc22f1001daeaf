"""Test helpers: MaîtreTarot tables on a Clock, clients joined by in-memory pipes."""

from __future__ import annotations

import itertools
import random
import struct
from typing import Any, Callable, Generator, Sequence

from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure
from twisted.test import iosim
from hypothesis import strategies as st

from gameproto.engine.record import RecordStore
from gameproto.games.tarot import TarotView
from gameproto.maitretarot import wire
from gameproto.maitretarot.protocol import MaitreTarotClientProtocol
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings


class Client(MaitreTarotClientProtocol):
    """The library client with its bot, recording what it is told."""

    def __init__(self, nick: str | None = None, deals: int = 1) -> None:
        super().__init__(nick)
        self.deals_wanted = deals
        self.scores: list[dict[str, object]] = []
        self.refusals = 0
        self.ended = False
        self.lostConnection = False
        self.dealtHands: list[tuple[int, ...]] = []
        self.branches: list[tuple[int, int]] = []

    def gotBranch(self, message: wire.BranchPoint) -> None:
        self.branches.append((message.point, message.value))
        super().gotBranch(message)

    def dealt(self, hand: tuple[int, ...]) -> None:
        self.dealtHands.append(hand)

    def scored(self, score: dict[str, object]) -> None:
        self.scores.append(score)

    def refused(self) -> None:
        self.refusals += 1

    def tableEnded(self) -> None:
        self.ended = True

    def playAgain(self, view: TarotView) -> bool:
        return len(self.scores) < self.deals_wanted

    def connectionLost(self, reason: Any = None) -> None:
        self.lostConnection = True
        super().connectionLost(reason)

    def hangUp(self) -> None:
        """Close our side of the connection."""
        assert self.transport is not None
        self.transport.loseConnection()


class Net:
    """A MaîtreTarot server on a Clock and clients joined to it by iosim pumps."""

    def __init__(self, seed: int = 0, store: RecordStore | None = None,
                 **settings: Any) -> None:
        settings.setdefault("botsAfter", 1000.0)
        settings.setdefault("botDelay", 1.0)
        settings.setdefault("timeout", 60.0)
        self.clock = Clock()
        self.server = TarotServer(TarotSettings(**settings), self.clock, store,
                                  rng=random.Random(seed))
        self.factory = TarotServerFactory(self.server)
        self.pumps: list[iosim.IOPump] = []

    def join(self, client: MaitreTarotClientProtocol, host: str | None = None) -> iosim.IOPump:
        """Connect ``client`` from ``host`` (by default an address of its own)."""
        address = IPv4Address("TCP", host or f"10.1.0.{len(self.pumps) + 1}",
                              50000 + len(self.pumps))
        server = self.factory.buildProtocol(address)
        transport = iosim.FakeTransport(server, isServer=True, peerAddress=address)
        pump = iosim.connect(server, transport, client,
                             iosim.makeFakeClient(client), greet=False, clock=self.clock)
        self.pumps.append(pump)
        self.flush()
        return pump

    def flush(self) -> bool:
        moved = False
        while any([pump.flush() for pump in self.pumps]):
            moved = True
        return moved

    def run(self, until: Callable[[], bool] = lambda: False, limit: int = 20000) -> None:
        """Move bytes and time until ``until()`` or nothing is left to happen."""
        for _ in range(limit):
            self.flush()
            if until():
                return
            calls = self.clock.getDelayedCalls()
            if not calls:
                return
            self.clock.advance(max(0.0, min(c.getTime() for c in calls) - self.clock.seconds()))
        raise AssertionError("the table did not settle")


# -- a client written from the protocol document alone ---------------------------

GINT = struct.Struct(">i")
"""The document's gint, as decided: 32 bits, signed, big-endian."""

Need = tuple[int, bool]
"""What a peer's session waits for: that many bytes, taken (True) or only peeked at."""

PAUSE: Need = (1 << 30, False)
"""The session waits for the test (L{DocPeer.resume}), not for bytes."""


class DocPeer:
    """
    A MaîtreTarot client written from the protocol document alone, with none
    of gameproto's wire or client code: raw gints (``struct '>i'``) on a
    StringTransport of the server's protocol, read in the order of the
    document's tables.  It knows no rules: it bids ``bids`` in turn, tries
    the cards of its hand from the lowest until one is acknowledged,
    discards what L{chooseDiscard} says, and answers ``replays`` in turn to
    the replay questions (then 0).

    Every message read is logged as ``(name, values)`` in L{log}, and every
    byte received kept in L{received}.
    """

    def __init__(self, factory: TarotServerFactory, nick: bytes = b"", host: str = "10.0.0.1",
                 port: int = 40000, bids: Sequence[int] = (0,),
                 replays: Sequence[int] = (1,)) -> None:
        self.nick = nick
        self.bids = list(bids)
        self.replays = list(replays)
        self.transport = StringTransport(peerAddress=IPv4Address("TCP", host, port))
        protocol = factory.buildProtocol(IPv4Address("TCP", host, port))
        assert protocol is not None
        self.protocol = protocol
        self.log: list[tuple[str, tuple[int, ...]]] = []
        self.received = bytearray()
        self.inbox = bytearray()
        self.place = -1
        self.hand: list[int] = []
        self.done = False
        self.lost = False
        self._session = self.session()
        self.protocol.makeConnection(self.transport)
        self._need: Need | None = next(self._session)
        self.advance()

    # -- the transport ---------------------------------------------------------

    def send(self, *values: int) -> None:
        self.protocol.dataReceived(b"".join(GINT.pack(v) for v in values))

    def chooseDiscard(self, hand: list[int], attempt: int) -> list[int] | None:
        """The six cards to discard at the ``attempt``th try (None: wait for L{resume})."""
        return hand[attempt:attempt + 6] if attempt + 6 <= len(hand) else None

    def resume(self) -> None:
        """Go on after a pause (the session waits for the test, not for bytes)."""
        if self._need == PAUSE:
            self._need = self._session.send(b"")
        self.advance()

    def hangUp(self) -> None:
        if not self.lost:
            self.lost = True
            self.protocol.connectionLost(Failure(ConnectionDone()))

    @property
    def closed(self) -> bool:
        """The server closed the connection."""
        return self.transport.disconnecting

    def advance(self) -> None:
        """Read what the server wrote, as far as the session can go."""
        while True:
            data = self.transport.value()
            self.transport.clear()
            self.received += data
            self.inbox += data
            need = self._need
            if need is None or len(self.inbox) < need[0]:
                break
            size, take = need
            chunk = bytes(self.inbox[:size])
            if take:
                del self.inbox[:size]
            try:
                self._need = self._session.send(chunk)
            except StopIteration:
                self._need = None
                self.done = True
        if self.closed:
            self.hangUp()

    def names(self) -> list[str]:
        return [name for name, _ in self.log]

    def last(self, name: str) -> tuple[int, ...]:
        """The values of the last ``name`` read."""
        return next(values for n, values in reversed(self.log) if n == name)

    # -- reading, in the document's order ----------------------------------------

    def gints(self, name: str, count: int) -> Generator[Need, bytes, tuple[int, ...]]:
        data = yield (4 * count, True)
        values = struct.unpack(f">{count}i", data)
        self.log.append((name, values))
        return values

    def peek(self) -> Generator[Need, bytes, int]:
        data = yield (4, False)
        return int(GINT.unpack(data)[0])

    def session(self) -> Generator[Need, bytes, None]:
        # Table 3: identification.
        self.send(19796, 1)
        yield from self.gints("SEND_ID", 2)
        yield from self.gints("SEND_PROTOCOL", 1)
        self.send(1)
        (self.place,) = yield from self.gints("SEND_PLACE", 1)
        self.send(len(self.nick))
        if self.nick:
            self.protocol.dataReceived(self.nick)
        # Table 4: the nicks, once.
        lengths = yield from self.gints("SEND_NICK_LEN", 4)
        nicks = yield (sum(lengths), True)
        self.log.append(("SEND_NICKS", tuple(nicks)))
        while True:
            yield from self.gints("BRANCHEMENT_POINT", 2)  # table 5
            self.hand = [c for c in (yield from self.gints("DILL_CARDS", 18)) if c >= 0]
            # SEND_BIDS starts with -1 (nobody has spoken); anything else is SEND_SCORE.
            if (yield from self.peek()) == -1:
                yield from self.deal()
            yield from self.gints("SEND_SCORE", 8)  # table 15
            yield from self.gints("SHOW_CHIEN_AT_END", 6)
            self.send(self.replays.pop(0) if self.replays else 0)
            (answer,) = yield from self.gints("SEND_REPLAY_ANSWER", 1)
            if answer != 1:
                return

    def deal(self) -> Generator[Need, bytes, None]:
        for _ in range(4):  # table 7
            yield from self.gints("SEND_BIDS", 4)
            (ask,) = yield from self.gints("ASK_BID_QUESTION", 1)
            if ask:
                self.send(self.bids.pop(0) if self.bids else 0)
        final = yield from self.gints("SEND_FINAL_BIDS", 4)  # table 8
        best = max(final)
        chien: tuple[int, ...] = ()
        if best in (0, 1, 2):
            chien = yield from self.gints("SHOW_CHIEN", 6)
        if best == 0:
            return
        if final.index(best) == self.place and best in (1, 2):  # table 9
            self.hand += chien
            for attempt in itertools.count():
                discard = self.chooseDiscard(sorted(self.hand), attempt)
                while discard is None:
                    yield PAUSE
                    discard = self.chooseDiscard(sorted(self.hand), attempt)
                self.send(*discard)
                (ok,) = yield from self.gints("SEND_ACK_FOR_CHIEN", 1)
                if ok:
                    self.hand = [c for c in self.hand if c not in discard]
                    break
        for _ in range(72):  # tables 11 to 13
            yield from self.gints("SEND_TURN_CARDS", 8)
            (ask,) = yield from self.gints("SEND_TURN_CARDS_QUESTION", 1)
            if not ask:
                continue
            for card in sorted(self.hand):
                self.send(card)
                (ok,) = yield from self.gints("SEND_ACK_FOR_CARD", 1)
                if ok:
                    self.hand.remove(card)
                    break
        yield from self.gints("SEND_LAST_TURN_CARDS", 4)  # table 14


def settle(clock: Clock, peers: Sequence[DocPeer], until: Callable[[], bool] = lambda: False,
           limit: int = 20000) -> None:
    """Move bytes and time until ``until()`` or nothing is left to happen."""
    for _ in range(limit):
        for peer in peers:
            peer.advance()
        if until():
            return
        calls = clock.getDelayedCalls()
        if not calls:
            return
        clock.advance(max(0.0, min(c.getTime() for c in calls) - clock.seconds()))
    raise AssertionError("the table did not settle")


# -- taker hands and discards, for properties of the discard rule ------------------

KINGS = (13, 27, 41, 55)
"""The four kings, by the document's card numbers (the last card of each suit)."""
ORDINARY = tuple(c for c in range(56) if c not in KINGS)
"""The suit cards a discard may hold: every one but the kings."""
OUDLERS = (56, 76, 77)
"""The petit, the 21 and the excuse."""
PLAIN_TRUMPS = tuple(range(57, 76))
"""Trumps 2 to 20: the only trumps a discard may hold."""


@st.composite
def takerHands(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """
    A taker's hand (no card twice; six trumps at least, and often fewer than
    six suit cards a discard may hold, so that trumps must go in) and a
    discard to judge: mostly six cards, as many of them suit cards as it can
    (the rules' choice) or not, at times with a king or an oudler, a card
    not held, a card twice, or one card too few or too many.
    """
    ordinary = draw(st.lists(st.sampled_from(ORDINARY), unique=True, max_size=12))
    kings = draw(st.lists(st.sampled_from(KINGS), unique=True))
    oudlers = draw(st.lists(st.sampled_from(OUDLERS), unique=True))
    trumps = draw(st.lists(st.sampled_from(PLAIN_TRUMPS), unique=True, min_size=6))
    hand = draw(st.permutations(ordinary + kings + oudlers + trumps))

    def rarely() -> bool:
        return draw(st.integers(0, 5)) == 3

    left = 6 + (draw(st.sampled_from((-1, 1))) if rarely() else 0)
    discard: list[int] = []
    for part in (kings, oudlers):
        if part and rarely():
            discard.append(draw(st.sampled_from(part)))
    left -= len(discard)
    most = min(len(ordinary), left)
    suits = most if draw(st.booleans()) else draw(st.integers(0, most))
    discard += draw(st.permutations(ordinary))[:suits]
    discard += draw(st.permutations(trumps))[:left - suits]
    if rarely():
        discard[-1] = draw(st.sampled_from([c for c in range(78) if c not in hand]))
    if rarely():
        discard[-1] = discard[0]
    return hand, draw(st.permutations(discard))
