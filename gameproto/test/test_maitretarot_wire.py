"""The MaîtreTarot codec: exact bytes, round trips, totality."""

from __future__ import annotations

import struct
from typing import Any

import attrs
from hypothesis import given, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto import buffer
from gameproto.maitretarot import wire

gints = st.integers(wire.GINT_MIN, wire.GINT_MAX)


def gintMessages() -> st.SearchStrategy[Any]:
    """Every gint message class with arbitrary gint values."""
    kinds = [k for k in vars(wire).values()
             if isinstance(k, type) and issubclass(k, wire.GintMessage) and k is not wire.GintMessage]
    return st.sampled_from(kinds).flatmap(
        lambda kind: st.lists(gints, min_size=kind.gintCount(), max_size=kind.gintCount()).map(
            kind.fromValues))


class ExactBytesTests(SynchronousTestCase):
    def test_bigEndianSigned(self) -> None:
        self.assertEqual(wire.serialize(wire.SendId(-1, 2)), b"\xff\xff\xff\xff\x00\x00\x00\x02")
        self.assertEqual(wire.serialize(wire.GetId(wire.SERVER_ID, 1)),
                         struct.pack(">ii", 19796, 1))

    def test_sizes(self) -> None:
        """Each message is its document size: N x 4 bytes."""
        self.assertEqual(wire.DillCards.gintCount(), 18)
        self.assertEqual(wire.SendScore.gintCount(), 8)
        self.assertEqual(wire.SendTurnCards.gintCount(), 8)
        self.assertEqual(wire.ShowChien.gintCount(), 6)
        self.assertEqual(len(wire.serialize(wire.SendScore(2, 1, 113, 2, (3, 3, -9, 3)))), 32)

    def test_nicks(self) -> None:
        self.assertEqual(wire.nickMessages(["a", "bé", "", "cd"]),
                         struct.pack(">iiii", 1, 3, 0, 2) + b"ab\xc3\xa9cd")

    def test_wrongCounts(self) -> None:
        self.assertRaises(ValueError, wire.DillCards, (1, 2, 3))
        self.assertRaises(ValueError, wire.GetBid, 2**31)

    def test_bidsOrScore(self) -> None:
        """After DILL_CARDS: -1 first is SEND_BIDS, 0 first is a void deal's SEND_SCORE."""
        bids = wire.serialize(wire.SendBids((-1, -1, -1, -1)))
        score = wire.serialize(wire.SendScore(0, 0, 0, 0, (0, 0, 0, 0)))
        expect = wire.Expect(wire.BidsOrScore)
        self.assertEqual(wire.parse(bids, expect), (wire.SendBids((-1,) * 4), 16))
        self.assertEqual(wire.parse(score, expect), (wire.SendScore(0, 0, 0, 0, (0,) * 4), 32))
        self.assertIs(wire.parse(score[:31], expect), wire.NEED_MORE)
        self.assertIs(wire.parse(b"\xff", expect), wire.NEED_MORE)


class PropertyTests(SynchronousTestCase):
    @given(gintMessages())
    def test_roundTrip(self, message: Any) -> None:
        data = wire.serialize(message)
        self.assertEqual(len(data), 4 * type(message).gintCount())
        self.assertEqual(wire.parse(data, wire.Expect(type(message))), (message, len(data)))
        for cut in range(len(data)):
            self.assertIs(wire.parse(data[:cut], wire.Expect(type(message))), wire.NEED_MORE)

    @given(st.lists(st.binary(max_size=30), min_size=4, max_size=4))
    def test_nicksRoundTrip(self, nicks: list[bytes]) -> None:
        message = wire.SendNicks(tuple(nicks))
        lengths = message.lengths()
        data = wire.serialize(lengths) + wire.serialize(message)
        reader = wire.Reader()
        reader.feed(data)
        self.assertEqual(reader.take(wire.Expect(wire.SendNickLen)), lengths)
        self.assertEqual(reader.take(wire.Expect(wire.SendNicks, lengths=lengths.lengths)), message)
        self.assertEqual(reader.buffered, 0)

    @given(st.lists(gintMessages(), max_size=8), st.lists(st.integers(0, 400), max_size=10))
    def test_streamInPieces(self, messages: list[Any], cuts: list[int]) -> None:
        """However the stream is cut, the reader takes the same messages, in order."""
        stream = b"".join(wire.serialize(m) for m in messages)
        reader = wire.Reader(limit=1 << 16)
        taken: list[Any] = []
        last = 0
        for cut in sorted(c % (len(stream) + 1) for c in cuts) + [len(stream)]:
            reader.feed(stream[last:cut])
            last = cut
            while len(taken) < len(messages):
                message = reader.take(wire.Expect(type(messages[len(taken)])))
                if message is wire.NEED_MORE:
                    break
                taken.append(message)
        self.assertEqual(taken, messages)
        self.assertEqual(reader.buffered, 0)

    def test_sharedNeedMore(self) -> None:
        self.assertIs(wire.NEED_MORE, buffer.NEED_MORE)

    @given(st.binary(max_size=200), st.data())
    def test_totalOnArbitraryBytes(self, data: bytes, draw: st.DataObject) -> None:
        """Any bytes read as any expected message: a message or NEED_MORE, never an exception."""
        kinds = [k for k in vars(wire).values()
                 if isinstance(k, type) and (issubclass(k, wire.GintMessage) or
                                            k in (wire.GetNick, wire.SendNicks, wire.BidsOrScore))
                 and k is not wire.GintMessage]
        reader = wire.Reader(limit=64)
        reader.feed(data)
        for _ in range(20):
            kind = draw.draw(st.sampled_from(kinds))
            expect = wire.Expect(kind, length=draw.draw(st.integers(0, 70)),
                                 lengths=tuple(draw.draw(st.lists(st.integers(0, 20),
                                                                  min_size=4, max_size=4))))
            before = reader.buffered
            result = reader.take(expect)
            if result is wire.NEED_MORE:
                self.assertEqual(reader.buffered, before)
                self.assertEqual(reader.overflowing, before > 64)
            else:
                self.assertTrue(attrs.has(type(result)))
                self.assertLess(reader.buffered, before + 1)
