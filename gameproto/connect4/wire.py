"""
The Protuissance 4 wire format, sans I/O: bytes to typed messages and back.

A message is an ASCII type digit, raw bytes (a width, height, column or
length is one byte, which may well be 0x0A or 0x0D), then CRLF.  So a reader
parses by message type and known length, never by splitting on CRLF; and as
``"10" CRLF`` (ERR_TIMEOUT) and an INIT whose width is 0x30 begin alike, the
reader is told which messages it expects at this point of the sequence.

Parsing is total: any bytes give messages, L{NEED_MORE} or L{Malformed},
never an exception.
"""

from __future__ import annotations

import re
from typing import Callable, ClassVar, Collection, Final, Literal

import attrs

from gameproto.buffer import NEED_MORE as NEED_MORE, Malformed as Malformed, ReceiveBuffer
from gameproto.buffer import NeedMore as _NeedMore

# Message types, as the document numbers them.
CONNECT: Final = 0
INIT: Final = 1
GAME_START: Final = 2
PLAY_MOVE: Final = 3
GAME_END: Final = 4
JOIN_QUEUE: Final = 5

# Errors.
ERR_INVALID_NICK: Final = 7
ERR_ALREADY_USED_NICK: Final = 8
ERR_INVALID_COLUMN: Final = 9
ERR_TIMEOUT: Final = 10
ERROR_CODES: Final = (ERR_INVALID_NICK, ERR_ALREADY_USED_NICK, ERR_INVALID_COLUMN, ERR_TIMEOUT)

CRLF: Final = b"\r\n"

NICK_MAX: Final = 16
"""A nick is 1 to 16 characters of ``[A-Za-z0-9_-]``; longer ones are cut to 16."""

CONNECT_NICK_LIMIT: Final = 256
"""
The most bytes a CONNECT may carry before its CRLF; past that it is
L{NickTooLong} (the server answers ERR_INVALID_NICK and closes).
"""

MAX_MESSAGE: Final = 1 + CONNECT_NICK_LIMIT + len(CRLF)
"""No message is longer than this."""

WEBSOCKET_MAX_MESSAGE: Final = 4096
"""
The largest WebSocket message the protocol reads (past it: close code
1009).  Above L{MAX_MESSAGE}, so that a CONNECT of a few KiB still reaches
the codec and gets ERR_INVALID_NICK, as over TCP.
"""

_NICK = re.compile(rb"[A-Za-z0-9_-]{1,16}")
_NICK_CHARS = re.compile(rb"[A-Za-z0-9_-]*")


# -- messages ----------------------------------------------------------------


@attrs.frozen
class Connect:
    """CONNECT: the client's nick, exactly as sent (the server validates it)."""

    nick: bytes
    type: ClassVar[int] = CONNECT


def _byte(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not 0 <= value <= 255:
        raise ValueError(f"{attribute.name} must fit in one byte, got {value}")


def _nick(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not isValidNick(value):
        raise ValueError(f"{attribute.name} is not a valid nick: {value!r}")


@attrs.frozen
class Init:
    """INIT: the connection is accepted; the board's width and height."""

    width: int = attrs.field(validator=_byte)
    height: int = attrs.field(validator=_byte)
    type: ClassVar[int] = INIT


@attrs.frozen
class GameStart:
    """GAME_START: player 0's nick (who plays first), then player 1's."""

    first: str = attrs.field(validator=_nick)
    second: str = attrs.field(validator=_nick)
    type: ClassVar[int] = GAME_START

    @property
    def players(self) -> tuple[str, str]:
        return (self.first, self.second)


@attrs.frozen
class PlayMove:
    """PLAY_MOVE: a column, from the player to the server or relayed to the opponent."""

    column: int = attrs.field(validator=_byte)
    type: ClassVar[int] = PLAY_MOVE


@attrs.frozen
class GameEnd:
    """GAME_END: the winner's index (0 or 1), or None for a draw."""

    winner: Literal[0, 1] | None = attrs.field(
        validator=attrs.validators.in_((0, 1, None))
    )
    type: ClassVar[int] = GAME_END


@attrs.frozen
class JoinQueue:
    """JOIN_QUEUE: after a game, the client wants another one."""

    type: ClassVar[int] = JOIN_QUEUE


@attrs.frozen
class Error:
    """One of the document's errors: ERR_INVALID_NICK, ..., ERR_TIMEOUT."""

    code: int = attrs.field(validator=attrs.validators.in_(ERROR_CODES))

    @property
    def type(self) -> int:
        return self.code


@attrs.frozen
class NickTooLong(Malformed):
    """
    A CONNECT whose nick goes on past L{CONNECT_NICK_LIMIT} bytes without
    its CRLF: the stream cannot be read on at a bounded cost.  The server
    answers ERR_INVALID_NICK, then closes.
    """

    reason: str = f"CONNECT longer than {CONNECT_NICK_LIMIT} bytes"


Message = Connect | Init | GameStart | PlayMove | GameEnd | JoinQueue | Error
MessageClass = type[Connect] | type[Init] | type[GameStart] | type[PlayMove] | type[
    GameEnd
] | type[JoinQueue] | type[Error]

CLIENT_MESSAGES: Final[frozenset[MessageClass]] = frozenset({Connect, PlayMove, JoinQueue})
"""What a client sends."""

SERVER_MESSAGES: Final[frozenset[MessageClass]] = frozenset(
    {Init, GameStart, PlayMove, GameEnd, Error}
)
"""What a server sends."""


# -- nicks -------------------------------------------------------------------


def isValidNick(nick: str) -> bool:
    """Whether ``nick`` is 1 to 16 characters of ``[A-Za-z0-9_-]``."""
    return isinstance(nick, str) and _NICK.fullmatch(nick.encode("ascii", "replace")) is not None


def acceptNick(raw: bytes) -> str | None:
    """
    The nick a server keeps from a CONNECT: the first 16 bytes (a longer
    nick is cut, with no error), if they are all ``[A-Za-z0-9_-]``; else
    None (ERR_INVALID_NICK).
    """
    cut = raw[:NICK_MAX]
    if _NICK.fullmatch(cut) is None:
        return None
    return cut.decode("ascii")


# -- shared messages ---------------------------------------------------------

PLAY_MOVES: Final[tuple[PlayMove, ...]] = tuple(PlayMove(column) for column in range(256))
"""PLAY_MOVE of each column, made once: the reader and the server share them."""

GAME_ENDS: Final[dict[int | None, GameEnd]] = {winner: GameEnd(winner) for winner in (0, 1, None)}
"""GAME_END of each outcome (a winner's index, None for a draw), made once."""

ERRORS: Final[dict[int, Error]] = {code: Error(code) for code in ERROR_CODES}
"""Each error, made once."""

JOIN_QUEUE_MESSAGE: Final = JoinQueue()


# -- writing -----------------------------------------------------------------


def _encode(message: Message) -> bytes:
    """The bytes of ``message``, CRLF included, built from its fields."""
    match message:
        case Connect(nick):
            body = nick
        case Init(width, height):
            body = bytes((width, height))
        case GameStart(first, second):
            body = bytes((len(first),)) + first.encode("ascii") + second.encode("ascii")
        case PlayMove(column):
            body = bytes((column,))
        case GameEnd(winner):
            body = b"" if winner is None else b"%d" % (winner,)
        case JoinQueue():
            body = b""
        case Error(code):
            return b"%d" % (code,) + CRLF
    return b"%d" % (message.type,) + body + CRLF


_PLAY_MOVE_BYTES: Final = tuple(_encode(message) for message in PLAY_MOVES)
_SHARED: Final[tuple[Message, ...]] = (*GAME_ENDS.values(), *ERRORS.values(), JOIN_QUEUE_MESSAGE)
_ENCODED: Final[dict[Message, bytes]] = {message: _encode(message) for message in _SHARED}


def serialize(message: Message) -> bytes:
    """The bytes of ``message``, CRLF included (those of the shared messages made once)."""
    if type(message) is PlayMove:
        return _PLAY_MOVE_BYTES[message.column]
    if type(message) is not Connect and type(message) is not GameStart and \
            type(message) is not Init:
        encoded = _ENCODED.get(message)
        if encoded is not None:
            return encoded
    return _encode(message)


# -- reading -----------------------------------------------------------------

Parsed = tuple[Message, int] | _NeedMore | Malformed | None
"""
A message and the bytes it took, NEED_MORE, None: not this kind, or
Malformed: of this kind, and refused (L{NickTooLong}).
"""


def _fixed(data: bytes, length: int) -> bool | None:
    """
    Whether ``data`` starts with a whole ``length``-byte message ending in
    CRLF: True, False, or None when more bytes are needed to tell.
    """
    ending = data[length - 2 : length]
    if len(data) >= length:
        return ending == CRLF
    return None if CRLF.startswith(ending) else False


def _readConnect(data: bytes) -> Parsed:
    end = data.find(CRLF, 1)
    if end < 0:
        if len(data) > 1 + CONNECT_NICK_LIMIT + 1:
            return NickTooLong()
        return NEED_MORE
    if end - 1 > CONNECT_NICK_LIMIT:
        return NickTooLong()
    return Connect(data[1:end]), end + 2


def _readInit(data: bytes) -> Parsed:
    whole = _fixed(data, 5)
    if whole is None:
        return NEED_MORE
    if not whole:
        return None
    return Init(data[1], data[2]), 5


def _readGameStart(data: bytes) -> Parsed:
    if len(data) < 2:
        return NEED_MORE
    firstLength = data[1]
    if not 1 <= firstLength <= NICK_MAX:
        return None
    first = data[2 : 2 + firstLength]
    if _NICK_CHARS.fullmatch(first) is None:
        return None
    if len(first) < firstLength:
        return NEED_MORE
    rest = data[2 + firstLength :]
    end = rest.find(CRLF)
    if end < 0:
        # The second nick goes on, or CRLF may be half there.
        body = rest[:-1] if rest.endswith(b"\r") else rest
        if len(body) > NICK_MAX or _NICK_CHARS.fullmatch(body) is None:
            return None
        return NEED_MORE
    second = rest[:end]
    if _NICK.fullmatch(second) is None:
        return None
    return GameStart(first.decode("ascii"), second.decode("ascii")), 2 + firstLength + end + 2


def _readPlayMove(data: bytes) -> Parsed:
    whole = _fixed(data, 4)
    if whole is None:
        return NEED_MORE
    if not whole:
        return None
    return PLAY_MOVES[data[1]], 4


def _readGameEnd(data: bytes) -> Parsed:
    if len(data) < 2:
        return NEED_MORE
    if data[1:2] == b"\r":
        if len(data) < 3:
            return NEED_MORE
        return (GAME_ENDS[None], 3) if data[2:3] == b"\n" else None
    if data[1:2] not in (b"0", b"1"):
        return None
    whole = _fixed(data, 4)
    if whole is None:
        return NEED_MORE
    if not whole:
        return None
    return GAME_ENDS[0 if data[1:2] == b"0" else 1], 4


def _readEmpty(data: bytes, message: Message) -> Parsed:
    whole = _fixed(data, 3)
    if whole is None:
        return NEED_MORE
    return (message, 3) if whole else None


def _readError(data: bytes) -> Parsed:
    digit = data[0:1]
    if digit == b"1":
        if len(data) < 2:
            return NEED_MORE
        if data[1:2] != b"0":
            return None
        whole = _fixed(data[1:], 3)
        if whole is None:
            return NEED_MORE
        return (ERRORS[ERR_TIMEOUT], 4) if whole else None
    if digit in (b"7", b"8", b"9"):
        whole = _fixed(data, 3)
        if whole is None:
            return NEED_MORE
        return (ERRORS[int(digit)], 3) if whole else None
    return None


_READERS: Final[dict[bytes, tuple[tuple[MessageClass, Callable[[bytes], Parsed]], ...]]] = {
    b"0": ((Connect, _readConnect),),
    b"1": ((Init, _readInit), (Error, _readError)),
    b"2": ((GameStart, _readGameStart),),
    b"3": ((PlayMove, _readPlayMove),),
    b"4": ((GameEnd, _readGameEnd),),
    b"5": ((JoinQueue, lambda data: _readEmpty(data, JOIN_QUEUE_MESSAGE)),),
    b"7": ((Error, _readError),),
    b"8": ((Error, _readError),),
    b"9": ((Error, _readError),),
}


def parse(
    data: bytes, expected: Collection[MessageClass]
) -> tuple[Message, int] | _NeedMore | Malformed:
    """
    Read one message at the start of ``data``, among the ``expected`` kinds.
    Returns the message and how many bytes it took, NEED_MORE, or Malformed
    (L{NickTooLong} for a CONNECT past its limit).
    """
    if not data:
        return NEED_MORE
    readers = _READERS.get(data[0:1], ())
    waiting = False
    for kind, reader in readers:
        if kind not in expected:
            continue
        result = reader(data)
        if isinstance(result, _NeedMore):
            waiting = True
        elif result is not None:
            return result
    if waiting:
        return NEED_MORE
    if not readers:
        return Malformed(f"unknown message type byte {data[0:1]!r}")
    kinds = " or ".join(sorted(k.__name__ for k, _ in readers))
    if not any(k in expected for k, _ in readers):
        return Malformed(f"unexpected message ({kinds})")
    return Malformed(f"malformed {kinds} message")


class Parser:
    """
    A stream of one direction: feed bytes, then take messages one by one,
    each read among the kinds expected at that point.  The buffer never
    holds more than one message's worth of bytes.
    """

    def __init__(self) -> None:
        self._buffer = ReceiveBuffer(limit=MAX_MESSAGE)

    def feed(self, data: bytes) -> None:
        """Add bytes as they come."""
        self._buffer.append(data)

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def next(self, expected: Collection[MessageClass]) -> Message | _NeedMore | Malformed:
        """The next whole message, NEED_MORE, or Malformed (the stream is then unusable)."""
        data = self._buffer.peek(MAX_MESSAGE)
        if data[:1] == b"3" and data[2:4] == CRLF and PlayMove in expected:
            # The message of every move: what parse() answers, without the search.
            self._buffer.discard(4)
            return PLAY_MOVES[data[1]]
        result = parse(data, expected)
        if isinstance(result, tuple):
            message, used = result
            self._buffer.discard(used)
            return message
        if result is NEED_MORE and self._buffer.overflowing:
            return Malformed("message too long")
        return result


def parseOne(data: bytes, expected: Collection[MessageClass]) -> Message | Malformed:
    """Read exactly one whole message from ``data`` (a WebSocket message)."""
    result = parse(data, expected)
    if isinstance(result, _NeedMore):
        return Malformed("incomplete message")
    if isinstance(result, Malformed):
        return result
    message, used = result
    if used != len(data):
        return Malformed("bytes after the message")
    return message
