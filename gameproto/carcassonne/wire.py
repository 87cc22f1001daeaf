"""
The Carcassonne 1.71 codec, sans I/O: one message a line, atoms separated
by single spaces, ending with LF (CRLF accepted).

An atom is a name (upper-case letters), an integer (digits only) or a string
in parentheses, in which a backslash escapes the next byte (``(a\\)b)`` is
``a)b``).  Reading is total: any bytes give a typed message or a
L{Malformed} value, which the server answers with NOOP.
"""

from __future__ import annotations

import re
from typing import Final, Iterator

import attrs

from gameproto.buffer import Malformed as Malformed, NeedMore, ReceiveBuffer, TooLong

__all__ = [
    "Close", "Finish", "Hello", "HelloAck", "HelloNack", "LINE_LIMIT", "Malformed",
    "Message", "Move", "MoveAck", "MoveNack", "Noop", "ORIENTATIONS", "Reader", "Ready",
    "Start", "TILES", "TILE_COUNTS", "Token", "ZONES", "format", "parse", "serialize",
]

LINE_LIMIT: Final = 256
"""The longest line read, in bytes, its LF not counted (a MOVE takes about 50)."""

INT_DIGITS: Final = 10
INT_MAX: Final = 2**31 - 1
"""The largest integer on the wire (a signed 32-bit integer, as the document's Java had)."""

TILES: Final = tuple(f"tile-{letter}" for letter in "abcdefghijklmnopqrstuvwx")
"""The 24 tile names of the document (the base game's A to X)."""

TILE_COUNTS: Final = dict(zip(TILES, (2, 4, 1, 4, 5, 2, 1, 3, 2, 3, 3, 3, 2, 3, 2, 3, 1, 3, 2, 1,
                                       8, 9, 4, 1)))
"""How many of each tile the game has (72 in all, the start tile ``tile-d`` among them)."""

ORIENTATIONS: Final = ("N", "E", "S", "W")
ZONES: Final = ("N", "E", "S", "W", "NL", "NR", "EL", "ER", "WL", "WR", "SL", "SR", "C")
"""The 13 pawn zones."""

NO_PAWN_ALIASES: Final = ("", "null")
"""What a MOVE's pawn string may be when no pawn is placed (``()`` is sent)."""


@attrs.frozen
class Hello:
    """HELLO n: a newcomer (``n`` is its number when the server relays it)."""

    n: int = 0


@attrs.frozen
class HelloAck:
    """HELLOACK n: player ``n`` knows of the newcomer."""

    n: int = 0


@attrs.frozen
class HelloNack:
    """HELLONACK: no other player is there yet."""


@attrs.frozen
class Close:
    """CLOSE n: player ``n`` leaves."""

    n: int = 0


@attrs.frozen
class Ready:
    """READY n: player ``n`` is ready to start."""

    n: int = 0


@attrs.frozen
class Start:
    """START: every player is ready; the game begins."""


@attrs.frozen
class Token:
    """TOKEN t: your turn; send ``t`` back with your MOVE."""

    token: int


@attrs.frozen
class Move:
    """
    MOVE n (tile) x y (o) (pawn) token: player ``n`` places ``tile`` at
    (``x``, ``y``) turned ``orientation``, a pawn in zone ``pawn`` (None: no
    pawn).
    """

    n: int
    tile: str
    x: int
    y: int
    orientation: str
    pawn: str | None
    token: int


@attrs.frozen
class MoveAck:
    """MOVEACK: the move is accepted (from a client: by it; from the server: by all)."""


@attrs.frozen
class MoveNack:
    """MOVENACK: the move is refused."""


@attrs.frozen
class Finish:
    """FINISH n: the game is over (``n`` 0: the server ended it)."""

    n: int = 0


@attrs.frozen
class Noop:
    """NOOP: the last message was malformed, unknown or not allowed now."""


Message = (Hello | HelloAck | HelloNack | Close | Ready | Start | Token | Move | MoveAck
           | MoveNack | Finish | Noop)

_NUMBERED: dict[str, type[Hello | HelloAck | Close | Ready | Finish]] = {
    "HELLO": Hello, "HELLOACK": HelloAck, "CLOSE": Close, "READY": Ready, "FINISH": Finish,
}
_BARE: dict[str, type[HelloNack | Start | MoveAck | MoveNack | Noop]] = {
    "HELLONACK": HelloNack, "START": Start, "MOVEACK": MoveAck, "MOVENACK": MoveNack,
    "NOOP": Noop,
}


# -- atoms ---------------------------------------------------------------------


@attrs.frozen
class _Str:
    value: str


Atom = str | int | _Str
"""A name (str), an integer (int) or a string (L{_Str})."""


def _atoms(line: bytes) -> list[Atom] | Malformed:
    atoms: list[Atom] = []
    i, size = 0, len(line)
    while i < size:
        if atoms:
            if line[i] != 0x20:
                return Malformed("atoms are separated by single spaces")
            i += 1
            if i >= size:
                return Malformed("a space ends the line")
        c = line[i]
        if c == 0x28:  # (
            value = bytearray()
            i += 1
            while True:
                if i >= size:
                    return Malformed("a string is not closed")
                c = line[i]
                if c == 0x5C:  # backslash
                    if i + 1 >= size:
                        return Malformed("a backslash ends the line")
                    value.append(line[i + 1])
                    i += 2
                elif c == 0x29:  # )
                    i += 1
                    break
                else:
                    value.append(c)
                    i += 1
            try:
                atoms.append(_Str(value.decode("utf-8")))
            except UnicodeDecodeError:
                return Malformed("a string is not UTF-8")
            continue
        end = line.find(b" ", i)
        if end < 0:
            end = size
        word = line[i:end]
        i = end
        if word.isdigit():
            if len(word) > INT_DIGITS or int(word) > INT_MAX:
                return Malformed(f"an integer over {INT_MAX}")
            atoms.append(int(word))
        elif word.isalpha() and word.isupper():
            atoms.append(word.decode("ascii"))
        else:
            return Malformed(f"not an atom: {word[:32]!r}")
    return atoms


_BARE_LINES: dict[bytes, Message] = {name.encode(): cls() for name, cls in _BARE.items()}
"""The bare messages' lines and each one's message (they are all alike)."""
_MOVE_LINE = re.compile(rb"MOVE ([0-9]{1,10}) \(([^()\\]*)\) ([0-9]{1,10}) ([0-9]{1,10})"
                        rb" \(([^()\\]*)\) \(([^()\\]*)\) ([0-9]{1,10})")
"""A MOVE whose strings hold no escape, as clients write them."""


_MOVE_TILES: dict[bytes, str] = {name.encode(): name for name in TILES}
_MOVE_ORIENTATIONS: dict[bytes, str] = {name.encode(): name for name in ORIENTATIONS}
_MOVE_PAWNS: dict[bytes, str | None] = {
    **{name.encode(): name for name in ZONES}, **{alias.encode(): None for alias in NO_PAWN_ALIASES}}
"""A MOVE's usual strings as read, and what each one means."""


def parse(line: bytes) -> Message | Malformed:
    """One message from one line (without its LF); total on any bytes."""
    if len(line) > LINE_LIMIT:
        return Malformed("line too long")
    if line.endswith(b"\r"):
        line = line[:-1]
    # The lines a game is made of, read at once; any other line, or one of
    # these that breaks a rule, is read atom by atom below.
    bare = _BARE_LINES.get(line)
    if bare is not None:
        return bare
    match = _MOVE_LINE.fullmatch(line)
    if match is not None:
        n, tile, x, y, orientation, pawn, token = match.groups()
        numbers = int(n), int(x), int(y), int(token)
        if max(numbers) <= INT_MAX:
            name, turned = _MOVE_TILES.get(tile), _MOVE_ORIENTATIONS.get(orientation)
            if name is not None and turned is not None and pawn in _MOVE_PAWNS:
                return Move(numbers[0], name, numbers[1], numbers[2], turned,
                            _MOVE_PAWNS[pawn], numbers[3])
            try:
                strings = tile.decode(), orientation.decode(), pawn.decode()
            except UnicodeDecodeError:
                pass
            else:
                return _move([numbers[0], _Str(strings[0]), numbers[1], numbers[2],
                              _Str(strings[1]), _Str(strings[2]), numbers[3]])
    return _parseAtoms(line)


def _parseAtoms(line: bytes) -> Message | Malformed:
    """L{parse} of ``line`` (its CR taken off), atom by atom."""
    atoms = _atoms(line)
    if isinstance(atoms, Malformed):
        return atoms
    if not atoms or not isinstance(atoms[0], str):
        return Malformed("a message starts with its name")
    name, args = atoms[0], atoms[1:]
    if name in _BARE:
        if args:
            return Malformed(f"{name} takes nothing")
        return _BARE[name]()
    if name in _NUMBERED:
        if not args:
            return _NUMBERED[name]()
        if len(args) != 1 or not isinstance(args[0], int):
            return Malformed(f"{name} takes one integer")
        return _NUMBERED[name](args[0])
    if name == "TOKEN":
        if len(args) != 1 or not isinstance(args[0], int):
            return Malformed("TOKEN takes one integer")
        return Token(args[0])
    if name == "MOVE":
        return _move(args)
    return Malformed(f"unknown message {name[:32]}")


def _move(args: list[Atom]) -> Move | Malformed:
    if len(args) == 6 and isinstance(args[0], _Str):
        args = [0, *args]  # a client's n left out
    if len(args) != 7:
        return Malformed("MOVE n (tile) x y (o) (pawn) token")
    n, tile, x, y, orientation, pawn, token = args
    if not (isinstance(n, int) and isinstance(tile, _Str) and isinstance(x, int)
            and isinstance(y, int) and isinstance(orientation, _Str)
            and isinstance(pawn, _Str) and isinstance(token, int)):
        return Malformed("MOVE n (tile) x y (o) (pawn) token")
    if tile.value not in TILES:
        return Malformed("unknown tile")
    if orientation.value not in ORIENTATIONS:
        return Malformed("orientation is N, E, S or W")
    zone: str | None = None if pawn.value in NO_PAWN_ALIASES else pawn.value
    if zone is not None and zone not in ZONES:
        return Malformed("unknown pawn zone")
    return Move(n, tile.value, x, y, orientation.value, zone, token)


# -- writing -------------------------------------------------------------------


def _string(value: str) -> bytes:
    escaped = bytearray(b"(")
    for byte in value.encode("utf-8"):
        if byte in b"()\\":
            escaped.append(0x5C)
        escaped.append(byte)
    escaped.append(0x29)
    return bytes(escaped)


_NAMES: dict[type, bytes] = {cls: name.encode() for name, cls in {**_NUMBERED, **_BARE}.items()}
_STRINGS: dict[str, bytes] = {value: _string(value) for value in (*TILES, *ORIENTATIONS, *ZONES, "")}
"""The strings a MOVE names, written once."""


def format(message: Message) -> bytes:
    """One message's line, with its LF."""
    if isinstance(message, Move):
        strings = _STRINGS
        tile, orientation, pawn = message.tile, message.orientation, message.pawn or ""
        return b"MOVE %d %s %d %d %s %s %d\n" % (
            message.n, strings.get(tile) or _string(tile), message.x, message.y,
            strings.get(orientation) or _string(orientation),
            strings.get(pawn) or _string(pawn), message.token)
    if isinstance(message, Token):
        return b"TOKEN %d\n" % message.token
    name = _NAMES[type(message)]
    if isinstance(message, (Hello, HelloAck, Close, Ready, Finish)):
        return b"%s %d\n" % (name, message.n)
    return name + b"\n"


serialize = format


# -- reading a stream ------------------------------------------------------------


class Reader:
    """
    Messages from a byte stream.  A line longer than L{LINE_LIMIT} gives
    one L{Malformed} and is skipped up to its LF; nothing else is lost.
    """

    def __init__(self, limit: int = LINE_LIMIT) -> None:
        self.limit = limit
        self._buffer = ReceiveBuffer()
        self._skipping = False

    @property
    def buffered(self) -> int:
        """Bytes held that are no whole line yet."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Message | Malformed]:
        """Every whole message in ``data`` (and what came before)."""
        if not self._buffer and not self._skipping and data.find(b"\n") == len(data) - 1 \
                and 0 < len(data) <= self.limit + 1:
            # One whole line and nothing held (a read usually brings one
            # message): what the buffer would give, without filling it.
            return [parse(data[:-1])]  # (parse takes the CR of a CRLF off)
        self._buffer += data
        return list(self._messages())

    def _messages(self) -> Iterator[Message | Malformed]:
        while True:
            if self._skipping:
                if not self._buffer.discardLine():
                    return
                self._skipping = False
            line = self._buffer.extractLine(self.limit)
            if isinstance(line, NeedMore):
                return
            if isinstance(line, TooLong):
                self._skipping = True
                yield Malformed("line too long")
                continue
            yield parse(line)
