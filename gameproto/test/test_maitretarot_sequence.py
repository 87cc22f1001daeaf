"""
The outgoing MaîtreTarot sequence (L{gameproto.maitretarot.sequence}), tested
like a codec: whole games of random seeds played by bots give every seat a
stream the library client follows to the end, in any split of its bytes; a
seat taken back at any step gets the document's branch point and a stream
the client follows from there.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Event, Instructions, Seat
from gameproto.engine.record import MemoryRecordStore
from gameproto.engine.table import Table
from gameproto.games.tarot import TAROT, TarotGame, TarotView, tarotBot
from gameproto.maitretarot import sequence, wire
from gameproto.maitretarot.protocol import MaitreTarotClientProtocol
from gameproto.maitretarot.sequence import Signal

DEALS = 2


class Scribe:
    """
    A seat holder that writes down what the sequence sends its seat, and
    answers what it is asked one clock step later (the engine's bot plays).
    """

    def __init__(self, name: str, clock: Clock, resumed: bool = False) -> None:
        self.name = name
        self.clock = clock
        self.resumed = resumed
        self.joined = False
        self.out: list[sequence.Output] = []
        self.events: list[Event] = []

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return None

    def timedOut(self, table: Table, seat: Seat) -> None:
        pass

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is not self:
            return
        game = table.engine
        assert isinstance(game, TarotGame)
        asked, over = instructions.asks(seat), instructions.game_state.gameover
        if not self.joined:
            self.joined = True
            names = [h.name for h in table.holders]
            out = sequence.firstUpdate(names, game.view(seat), game.publicState(), asked, over,
                                       self.resumed)
        else:
            self.events += instructions.events
            out = sequence.nextUpdate(instructions.events, seat, game.publicState(), asked, over)
        self.out += out
        if any(o in (Signal.ASK_BID, Signal.ASK_DISCARD, Signal.ASK_CARD, Signal.ASK_REPLAY)
               for o in out):
            self.clock.callLater(1, self.answer, table, seat)

    def answer(self, table: Table, seat: Seat) -> None:
        if table.finished or table.holders[seat] is not self or seat not in table.waiting:
            return
        game = table.engine
        assert isinstance(game, TarotGame)
        view = game.view(seat)
        if view.phase == "end":
            table.act(seat, {"replay": view.deal < DEALS})
        else:
            table.playFor(seat, tarotBot)

    def wireBytes(self, place: int) -> bytes:
        """What a client at ``place`` reads: the identification, then the sequence."""
        head = [wire.SendId(wire.SERVER_ID, wire.VERSION), wire.SendProtocol(wire.PROTOCOL),
                wire.SendPlace(place)]
        messages = head + [o for o in self.out if not isinstance(o, Signal)]
        return b"".join(wire.serialize(m) for m in messages)  # type: ignore[arg-type]


class Reader(MaitreTarotClientProtocol):
    """The library client with fixed answers: it only has to follow the stream."""

    def __init__(self, nick: str) -> None:
        super().__init__(nick)
        self.ended = False
        self.reasons: list[str] = []
        self.branches: list[tuple[int, int]] = []

    def chooseBid(self, view: TarotView) -> int:
        return 0

    def chooseDiscard(self, view: TarotView) -> tuple[int, ...]:
        return tuple(view.hand[:6])

    def chooseCard(self, view: TarotView) -> int:
        return view.legalCards[0] if view.legalCards else 0

    def playAgain(self, view: TarotView) -> bool:
        return True

    def tableEnded(self) -> None:
        self.ended = True

    def closing(self, reason: str) -> None:
        self.reasons.append(reason)

    def branched(self, point: int, value: int) -> None:
        self.branches.append((point, value))


def follow(nick: str, data: bytes, cuts: list[int]) -> Reader:
    """A client that reads ``data`` in the pieces ``cuts`` makes."""
    reader = Reader(nick)
    reader.makeConnection(StringTransport())
    at = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        reader.dataReceived(data[at:cut])
        at = max(at, cut)
    return reader


def play(seed: int, names: list[str], clock: Clock,
         stopAt: int | None = None) -> tuple[Table, list[Scribe]]:
    """A table of four scribes; with ``stopAt``, return once that many actions are accepted."""
    scribes = [Scribe(name, clock) for name in names]
    table = Table.create(TAROT, {}, scribes, clock, MemoryRecordStore(), random.Random(seed))
    table.start()
    for _ in range(10000):
        if table.finished or (stopAt is not None and table.turn >= stopAt):
            break
        clock.advance(1)
    return table, scribes


NAMES = ["ann", "bob", "cyd", "dee"]


class SequenceTests(SynchronousTestCase):
    @settings(max_examples=15, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), cuts=st.lists(st.integers(0, 1 << 20), max_size=8))
    def test_everyDealFollowed(self, seed: int, cuts: list[int]) -> None:
        """Each seat's stream of a whole game is read to its end by the client, however split."""
        table, scribes = play(seed, NAMES, Clock())
        self.assertTrue(table.finished)
        for place, scribe in enumerate(scribes):
            reader = follow(NAMES[place], scribe.wireBytes(place), cuts)
            self.assertTrue(reader.ended, (seed, place, reader.reasons))
            self.assertEqual(reader.reasons, ["the table is over"])
            self.assertEqual(reader._reader.buffered, 0)
            self.assertEqual(reader.seat, place)
            self.assertEqual(list(reader.totals), list(table.engine.totals))  # type: ignore[attr-defined]

    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), seat=st.integers(0, 3), at=st.floats(0, 1))
    def test_resumeAnywhere(self, seed: int, seat: int, at: float) -> None:
        """A seat taken back at any step gets the document's branch point and goes on to the end."""
        total = play(seed, NAMES, Clock())[0].turn
        clock = Clock()
        stopAt = int(at * (total - 1))
        table, scribes = play(seed, NAMES, clock, stopAt)
        if table.finished:  # pragma: no cover - the last action ends the table
            return
        game = table.engine
        assert isinstance(game, TarotGame)
        expected = documentBranch(scribes[seat].events, seat, game.view(seat))
        back = Scribe(NAMES[seat], clock, resumed=True)
        table.replace(seat, back)
        for _ in range(10000):
            if table.finished:
                break
            clock.advance(1)
        points = [o for o in back.out if isinstance(o, wire.BranchPoint)]
        self.assertEqual((points[0].point, points[0].value), expected)
        reader = follow(NAMES[seat], back.wireBytes((seat + 1) % 4), [])
        self.assertEqual(reader.reasons, ["the table is over"], (seed, seat, stopAt))
        self.assertEqual(reader.seat, seat)  # found from its nick, not the void place


def documentBranch(events: list[Event], seat: Seat, view: TarotView) -> tuple[int, int]:
    """
    The branch point the document's table gives, counted from the events
    the seat was told of the current deal, and its view where events are
    silent (the discard is told to the taker alone).
    """
    deal: list[Event] = []
    for event in events:
        if event.kind == "dealt":
            deal = []
        deal.append(event)
    kinds = {e.kind for e in deal}
    if "score" in kinds or view.phase == "end":
        return (wire.BP_NEW_GAME, 1 if view.replayAnswers[seat] is None else 2)
    if view.phase == "discard":
        return (wire.BP_GET_CHIEN, 0)
    if "bids" in kinds:
        return (wire.BP_SEND_TURN_CARD, sum(1 for e in deal if e.kind == "card"))
    spoken = sum(1 for e in deal if e.kind == "bid")
    return (wire.BP_SEND_BIDS, spoken) if spoken else (wire.BP_NEW_GAME, 0)
