"""
The MaîtreTarot wire format, sans I/O.

A message is N values with no header: ``gint`` is a 32-bit signed integer in
network order (big-endian), ``gchar`` one byte (nicks are UTF-8).  Nothing on
the wire says what comes next: the reader is told which message it expects
(by the connection's state machine) and reads exactly its size.  Every
message of the protocol document is a class here, under its document name.

Reading is total: any bytes give the expected message or L{NEED_MORE}.
"""

from __future__ import annotations

import struct
from typing import Any, ClassVar, Final, Sequence

import attrs

from gameproto.buffer import NEED_MORE as NEED_MORE, ReceiveBuffer
from gameproto.buffer import NeedMore as _NeedMore

SERVER_ID: Final = 19796
"""The server identifier a client sends in GET_ID and the server answers in SEND_ID."""

VERSION: Final = 2
"""The server version sent in SEND_ID."""

PROTOCOL: Final = 1
"""SEND_PROTOCOL: protocol version 0.1."""

WRONG_ID: Final = -1
NO_CARD: Final = -1
NO_BID: Final = -1

NICK_LIMIT: Final = 64
"""The longest nick, in bytes, a server accepts in GET_NICK_LEN."""

# Branch points, numbered in document order.
BP_NEW_GAME: Final = 0
BP_DILL_CARDS: Final = 1
BP_SEND_BIDS: Final = 2
BP_GET_CHIEN: Final = 3
BP_READY_TO_PLAY: Final = 4
BP_SEND_TURN_CARD: Final = 5

# Bids.
PASS, PETITE, GARDE, GARDE_SANS, GARDE_CONTRE = 0, 1, 2, 3, 4

_GINT = struct.Struct(">i")
GINT_MIN, GINT_MAX = -(2**31), 2**31 - 1


def _gints(instance: object, attribute: attrs.Attribute[tuple[int, ...]],
           value: tuple[int, ...]) -> None:
    size = getattr(type(instance), "SIZES", {}).get(attribute.name)
    if size is not None and len(value) != size:
        raise ValueError(f"{attribute.name} needs {size} values, got {len(value)}")
    for v in value:
        if not GINT_MIN <= v <= GINT_MAX:
            raise ValueError(f"{v} does not fit in a gint")


def _gint(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not GINT_MIN <= value <= GINT_MAX:
        raise ValueError(f"{attribute.name}: {value} does not fit in a gint")


def _tuple(value: Sequence[int]) -> tuple[int, ...]:
    return tuple(value)


def _bytesTuple(value: Sequence[bytes]) -> tuple[bytes, ...]:
    return tuple(value)


def gints(count: int) -> Any:
    """A field of ``count`` gints."""
    return attrs.field(converter=_tuple, validator=_gints, metadata={"gints": count})


def gint() -> Any:
    """A field of one gint."""
    return attrs.field(validator=_gint, metadata={"gints": 1})


class GintMessage:
    """A message made of a fixed number of gints, field by field."""

    SIZES: ClassVar[dict[str, int]] = {}
    _layout: ClassVar[tuple[int, struct.Struct] | None] = None
    _plan: ClassVar[tuple[tuple[str, bool], ...] | None] = None

    @classmethod
    def _struct(cls) -> struct.Struct:
        layout = cls.__dict__.get("_layout")
        if layout is None:
            count = sum(f.metadata["gints"] for f in attrs.fields(cls))  # type: ignore[arg-type]
            layout = (count, struct.Struct(f">{count}i"))
            cls._layout = layout
        return layout[1]

    @classmethod
    def gintCount(cls) -> int:
        return cls._struct().size // 4

    def values(self) -> list[int]:
        cls = type(self)
        plan = cls.__dict__.get("_plan")
        if plan is None:  # read once a class: its fields' names, and which are one gint
            plan = tuple((field.name, field.metadata["gints"] == 1)
                         for field in attrs.fields(cls))  # type: ignore[arg-type]
            cls._plan = plan
        out: list[int] = []
        for name, single in plan:
            value = getattr(self, name)
            if single and isinstance(value, int):
                out.append(value)
            else:
                out.extend(value)
        return out

    @classmethod
    def fromValues(cls, values: Sequence[int]) -> GintMessage:
        args: list[object] = []
        at = 0
        for field in attrs.fields(cls):  # type: ignore[arg-type]
            count = field.metadata["gints"]
            if count == 1 and field.name not in cls.SIZES:
                args.append(values[at])
            else:
                args.append(tuple(values[at : at + count]))
            at += count
        return cls(*args)

    def serialize(self) -> bytes:
        return type(self)._struct().pack(*self.values())



# -- identification (tables 3 and 4) ------------------------------------------


@attrs.frozen
class GetId(GintMessage):
    """GET_ID: the server identifier and version the client expects."""

    serverId: int = gint()
    version: int = gint()


@attrs.frozen
class SendId(GintMessage):
    """SEND_ID: the server's identifier (-1: wrong client, then disconnected) and version."""

    serverId: int = gint()
    version: int = gint()


@attrs.frozen
class SendProtocol(GintMessage):
    """SEND_PROTOCOL: the protocol version, 1 for 0.1."""

    version: int = gint()


@attrs.frozen
class GetProtocol(GintMessage):
    """GET_PROTOCOL: 1 if the client speaks it, 0 and it is disconnected."""

    accepted: int = gint()


@attrs.frozen
class SendPlace(GintMessage):
    """SEND_PLACE: the client's place at the table, 0..3."""

    place: int = gint()


@attrs.frozen
class GetNickLen(GintMessage):
    """GET_NICK_LEN: the nick's length in bytes; 0 for the default nick of the place."""

    length: int = gint()


@attrs.frozen
class GetNick:
    """GET_NICK: the nick, ``length`` bytes of UTF-8."""

    nick: bytes

    def serialize(self) -> bytes:
        return self.nick


@attrs.frozen
class SendNickLen(GintMessage):
    """SEND_NICK_LEN: the length of each of the four nicks, in place order."""

    SIZES = {"lengths": 4}
    lengths: tuple[int, ...] = gints(4)


@attrs.frozen
class SendNicks:
    """SEND_NICKS: the four nicks one after the other (their lengths came before)."""

    nicks: tuple[bytes, ...] = attrs.field(converter=_bytesTuple)

    def serialize(self) -> bytes:
        return b"".join(self.nicks)

    def lengths(self) -> SendNickLen:
        return SendNickLen(tuple(len(n) for n in self.nicks))


# -- the deal ------------------------------------------------------------------


@attrs.frozen
class BranchPoint(GintMessage):
    """BRANCHEMENT_POINT: where the sequence is (BP_*) and the point's value."""

    point: int = gint()
    value: int = gint()


@attrs.frozen
class DillCards(GintMessage):
    """DILL_CARDS: the client's 18 cards (-1 for a card already played, on a resume)."""

    SIZES = {"cards": 18}
    cards: tuple[int, ...] = gints(18)


@attrs.frozen
class SendBids(GintMessage):
    """SEND_BIDS: each place's bid so far, -1 for a place that has not spoken."""

    SIZES = {"bids": 4}
    bids: tuple[int, ...] = gints(4)


@attrs.frozen
class AskBidQuestion(GintMessage):
    """ASK_BID_QUESTION: non-zero when the client must bid now."""

    ask: int = gint()


@attrs.frozen
class GetBid(GintMessage):
    """GET_BID: the client's bid (an invalid one counts as a pass)."""

    bid: int = gint()


@attrs.frozen
class SendFinalBids(GintMessage):
    """SEND_FINAL_BIDS: the four bids; all 0 when everybody passed."""

    SIZES = {"bids": 4}
    bids: tuple[int, ...] = gints(4)


@attrs.frozen
class ShowChien(GintMessage):
    """SHOW_CHIEN: the 6 cards of the chien, for petite and garde (and when all passed)."""

    SIZES = {"cards": 6}
    cards: tuple[int, ...] = gints(6)


@attrs.frozen
class GetChien(GintMessage):
    """GET_CHIEN: the taker's 6 discarded cards."""

    SIZES = {"cards": 6}
    cards: tuple[int, ...] = gints(6)


@attrs.frozen
class SendAckForChien(GintMessage):
    """SEND_ACK_FOR_CHIEN: 1 the discard is accepted, 0 send another."""

    ok: int = gint()


@attrs.frozen
class SendTurnCards(GintMessage):
    """SEND_TURN_CARDS: the current trick and the previous one, by place, -1 for none."""

    SIZES = {"current": 4, "previous": 4}
    current: tuple[int, ...] = gints(4)
    previous: tuple[int, ...] = gints(4)


@attrs.frozen
class SendTurnCardsQuestion(GintMessage):
    """SEND_TURN_CARDS_QUESTION: non-zero when the client must play a card now."""

    ask: int = gint()


@attrs.frozen
class GetTurnCard(GintMessage):
    """GET_TURN_CARD: the card the client plays."""

    card: int = gint()


@attrs.frozen
class SendAckForCard(GintMessage):
    """SEND_ACK_FOR_CARD: 1 the card is played, 0 send another."""

    ok: int = gint()


@attrs.frozen
class SendLastTurnCards(GintMessage):
    """SEND_LAST_TURN_CARDS: the last trick, by place."""

    SIZES = {"cards": 4}
    cards: tuple[int, ...] = gints(4)


@attrs.frozen
class SendScore(GintMessage):
    """
    SEND_SCORE: the contract (0: nobody took), whether the taker won (1/0),
    the taker's card points (whole, 0..91), the taker's oudlers, then each
    place's total score.  For a deal nobody played the three middle values
    are 0.
    """

    SIZES = {"totals": 4}
    contract: int = gint()
    won: int = gint()
    points: int = gint()
    oudlers: int = gint()
    totals: tuple[int, ...] = gints(4)


@attrs.frozen
class ShowChienAtEnd(GintMessage):
    """SHOW_CHIEN_AT_END: the 6 cards of the chien (the discard, when one was made)."""

    SIZES = {"cards": 6}
    cards: tuple[int, ...] = gints(6)


@attrs.frozen
class AckReplay(GintMessage):
    """ACK_REPLAY: 1 to play another deal, 0 to stop."""

    answer: int = gint()


@attrs.frozen
class SendReplayAnswer(GintMessage):
    """SEND_REPLAY_ANSWER: 1 if everybody wants another deal, else 0 and the table ends."""

    answer: int = gint()


ServerMessage = (
    SendId | SendProtocol | SendPlace | SendNickLen | SendNicks | BranchPoint | DillCards
    | SendBids | AskBidQuestion | SendFinalBids | ShowChien | SendAckForChien | SendTurnCards
    | SendTurnCardsQuestion | SendAckForCard | SendLastTurnCards | SendScore | ShowChienAtEnd
    | SendReplayAnswer
)
ClientMessage = GetId | GetProtocol | GetNickLen | GetNick | GetBid | GetChien | GetTurnCard | AckReplay
Message = ServerMessage | ClientMessage


# -- reading -------------------------------------------------------------------


class BidsOrScore:
    """
    What follows DILL_CARDS: SEND_BIDS, whose first gint is -1 as nobody
    has spoken yet, or SEND_SCORE, whose first gint is a contract 0..4 (a
    void deal, or a seat taken back at the end of a deal).  Read by peeking
    at that gint.
    """


@attrs.frozen
class Expect:
    """
    What to read next: a message class, and for the two byte messages their
    size (``length`` for GET_NICK, ``lengths`` for SEND_NICKS).
    """

    kind: type
    length: int = 0
    lengths: tuple[int, ...] = ()

    def size(self) -> int:
        if self.kind is GetNick:
            return self.length
        if self.kind is SendNicks:
            return sum(self.lengths)
        if self.kind is BidsOrScore:
            return 4
        return 4 * self.kind.gintCount()  # type: ignore[attr-defined]


def parse(data: bytes, expect: Expect) -> tuple[Message, int] | _NeedMore:
    """The expected message at the start of ``data`` and its size, or NEED_MORE."""
    if expect.kind is BidsOrScore:
        if len(data) < 4:
            return NEED_MORE
        (first,) = _GINT.unpack_from(data)
        return parse(data, Expect(SendBids if first == NO_BID else SendScore))
    size = expect.size()
    if len(data) < size:
        return NEED_MORE
    if expect.kind is GetNick:
        return GetNick(bytes(data[:size])), size
    if expect.kind is SendNicks:
        nicks, at = [], 0
        for length in expect.lengths:
            nicks.append(bytes(data[at : at + length]))
            at += length
        return SendNicks(tuple(nicks)), size
    values = expect.kind._struct().unpack_from(data)  # type: ignore[attr-defined]
    return expect.kind.fromValues(values), size  # type: ignore[attr-defined]


class Reader:
    """
    One direction of a connection: feed bytes, take the message the sequence
    expects next.  ``limit`` caps the bytes buffered while nothing (or not
    that much) is expected; past it the peer is flooding.
    """

    def __init__(self, limit: int = 4096) -> None:
        self._buffer = ReceiveBuffer(limit=limit)

    @property
    def limit(self) -> int:
        return self._buffer.limit  # type: ignore[return-value]

    @limit.setter
    def limit(self, limit: int) -> None:
        self._buffer.limit = limit

    def feed(self, data: bytes) -> None:
        self._buffer += data

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    @property
    def overflowing(self) -> bool:
        return self._buffer.overflowing

    def take(self, expect: Expect) -> Message | _NeedMore:
        if expect.kind is BidsOrScore:
            first = self._buffer.peek(4)
            if len(first) < 4:
                return NEED_MORE
            (value,) = _GINT.unpack(first)
            expect = Expect(SendBids if value == NO_BID else SendScore)
        data = self._buffer.extractExactly(expect.size())
        if isinstance(data, _NeedMore):
            return data
        message, _ = parse(data, expect)  # type: ignore[misc]
        return message


def serialize(message: Message) -> bytes:
    """The bytes of ``message``."""
    return message.serialize()


def nickBytes(nick: str) -> bytes:
    """
    ``nick`` in UTF-8, cut to L{NICK_LIMIT} bytes at a character's boundary
    (a nick read with invalid bytes, each become U+FFFD, three bytes; a
    player of another protocol): SEND_NICKS keeps to what the document says.
    """
    data = nick.encode("utf-8")
    if len(data) <= NICK_LIMIT:
        return data
    return data[:NICK_LIMIT].decode("utf-8", "ignore").encode("utf-8")


def nickMessages(nicks: Sequence[str]) -> bytes:
    """SEND_NICK_LEN then SEND_NICKS for four nicks, each at most L{NICK_LIMIT} bytes."""
    encoded = SendNicks(tuple(nickBytes(n) for n in nicks))
    return encoded.lengths().serialize() + encoded.serialize()
