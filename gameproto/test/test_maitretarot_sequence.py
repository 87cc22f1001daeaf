"""
The outgoing MaîtreTarot sequence (L{gameproto.maitretarot.sequence}), tested
like a codec: whole games of random seeds played by bots give every seat a
stream the library client follows to the end, in any split of its bytes; a
seat taken back joins where the document's sequence starts (a deal's start
or end) with ``BRANCHEMENT_POINT(NEW_GAME, 0)``, and the client follows from
there.
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
from gameproto.games import tarot
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

    def __init__(self, name: str, clock: Clock) -> None:
        self.name = name
        self.clock = clock
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
            out = sequence.firstUpdate(names, game.view(seat), game.publicState(), asked, over)
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
    def test_takenBackWhereTheSequenceStarts(self, seed: int, seat: int, at: float) -> None:
        """
        A seat taken back at the next deal's start or end (L{sequence.canJoin})
        gets ``BRANCHEMENT_POINT(NEW_GAME, 0)``, DILL_CARDS, then SEND_BIDS or
        SEND_SCORE, and the client follows it to the end.
        """
        total = play(seed, NAMES, Clock())[0].turn
        clock = Clock()
        table, scribes = play(seed, NAMES, clock, int(at * (total - 1)))
        game = table.engine
        assert isinstance(game, TarotGame)
        for _ in range(10000):
            if table.finished or sequence.canJoin(game.view(seat)):
                break
            clock.advance(1)
        if table.finished:  # pragma: no cover - the last action ends the table
            return
        phase = game.view(seat).phase
        back = Scribe(NAMES[seat], clock)
        table.replace(seat, back)
        messages = [o for o in back.out if not isinstance(o, Signal)]
        self.assertEqual(messages[2:4], [wire.BranchPoint(wire.BP_NEW_GAME, 0),
                                         wire.DillCards(sequence.padded(
                                             sorted(game.view(seat).hand), 18))])
        self.assertIsInstance(messages[4], wire.SendScore if phase == "end" else wire.SendBids)
        for _ in range(10000):
            if table.finished:
                break
            clock.advance(1)
        reader = follow(NAMES[seat], back.wireBytes(seat), [])
        self.assertEqual(reader.reasons, ["the table is over"], (seed, seat))
        self.assertEqual(reader.seat, seat)
        self.assertEqual(list(reader.totals), list(game.totals))

    def test_joinsOnlyWhereTheSequenceStarts(self) -> None:
        """Mid-deal (a bid made) no first update can be given: the document has none there."""
        clock = Clock()
        table, _ = play(3, NAMES, clock, stopAt=1)
        game = table.engine
        assert isinstance(game, TarotGame)
        view = game.view(0)
        self.assertFalse(sequence.canJoin(view))
        self.assertRaises(ValueError, sequence.joining, NAMES, view)


class ScoreTests(SynchronousTestCase):
    """SEND_SCORE's third gint: the taker's points, whole (the rules' half points rounded)."""

    def test_wholePoints(self) -> None:
        """
        A half point goes to the side that scores (the FFT's rule for three,
        "Le jeu à 3 joueurs"), as the difference is counted.
        """
        self.assertEqual(sequence.wholePoints(120, True), 60)
        # The FFT's examples, two oudlers (41 needed): 40.5 loses by 1, 41.5 wins by 1.
        self.assertEqual(tarot.contractResult(tarot.PETITE, 81, 2), (False, tarot.BASE + 1))
        self.assertEqual(tarot.contractResult(tarot.PETITE, 83, 2), (True, tarot.BASE + 1))
        self.assertEqual(sequence.wholePoints(83, True), 42)
        self.assertEqual(sequence.wholePoints(81, False), 40)
        for half in range(0, 183):
            for oudlers, threshold in enumerate(tarot.THRESHOLDS):
                won, value = tarot.contractResult(tarot.PETITE, half, oudlers)
                whole = sequence.wholePoints(half, won)
                self.assertEqual(won, whole >= threshold, (half, oudlers))
                self.assertEqual(value, tarot.BASE + abs(whole - threshold), (half, oudlers))

    def test_sendScore(self) -> None:
        data = {"contract": 2, "taker": 1, "won": True, "points": 120, "oudlers": 1,
                "totals": [-56, 168, -56, -56], "chien": [1, 2, 3, 4, 5, 6]}
        self.assertEqual(sequence.score(data)[0],  # type: ignore[arg-type]
                         wire.SendScore(2, 1, 60, 1, (-56, 168, -56, -56)))
        self.assertEqual(sequence.score(None)[0], wire.SendScore(0, 0, 0, 0, (0, 0, 0, 0)))
