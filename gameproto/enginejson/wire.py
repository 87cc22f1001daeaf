"""
The player side of the engine JSON protocol, sans I/O: one JSON object per
message (a line on TCP, a text message on WebSocket), each with a ``type``.
Reading is total: any bytes give a typed message or a L{Malformed} value
(the document's BAD_FORMAT).  L{parse} reads a client's messages (the
server's side), L{parseServer} the server's (a client's side).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Final

import attrs

try:  # the fast path for writing: orjson (a dependency; the standard library where it is missing)
    import orjson as _orjson
except ImportError:  # pragma: no cover - the standard library does it all
    _orjson = None  # type: ignore[assignment]

from gameproto.buffer import Malformed as Malformed, NeedMore, ReceiveBuffer
# Re-exported from their old home here: what checks a client's JSON is shared.
from gameproto.jsonutil import MAX_DEPTH as MAX_DEPTH, plainJSON as plainJSON

MAX_MESSAGE: Final = 64 * 1024
"""The longest message a client may send, in bytes."""

JSON = Any


# -- client messages -----------------------------------------------------------


@attrs.frozen
class Create:
    """Start a game of ``engine`` with INITIALISATION ``init``; bots in ``bots`` (player numbers)."""

    engine: str
    init: dict[str, JSON]
    bots: tuple[int, ...] = ()
    join: bool = True
    name: str = "player"

    def asJSON(self) -> dict[str, JSON]:
        return {"type": "create", "engine": self.engine, "init": self.init,
                "bots": list(self.bots), "join": self.join, "name": self.name}


@attrs.frozen
class Join:
    """
    Take player ``player``'s seat (any free one when None) in game ``game``;
    with ``token`` (what ``seated`` gave), take back the seat it is of.
    """

    game: int
    player: int | None = None
    name: str = "player"
    token: str | None = None

    def asJSON(self) -> dict[str, JSON]:
        described: dict[str, JSON] = {"type": "join", "game": self.game, "name": self.name}
        if self.player is not None:
            described["player"] = self.player
        if self.token is not None:
            described["token"] = self.token
        return described


@attrs.frozen
class Queue:
    """Wait for a game of ``engine`` with the players of its own protocol (matchmaking)."""

    engine: str
    name: str = "player"

    def asJSON(self) -> dict[str, JSON]:
        return {"type": "queue", "engine": self.engine, "name": self.name}


@attrs.frozen
class Watch:
    """Follow game ``game`` as a spectator."""

    game: int

    def asJSON(self) -> dict[str, JSON]:
        return {"type": "watch", "game": self.game}


@attrs.frozen
class Action:
    """An action for the requested one: a CLICK, KEY or TEXT object."""

    action: dict[str, JSON]

    def asJSON(self) -> dict[str, JSON]:
        return {"type": "action", "action": self.action}


@attrs.frozen
class Leave:
    """Leave the game (a bot takes the seat if the engine has one)."""

    def asJSON(self) -> dict[str, JSON]:
        return {"type": "leave"}


ClientMessage = Create | Join | Queue | Watch | Action | Leave

_NAME_LIMIT = 32
TOKEN_LIMIT = 128
"""The longest seat token a client may send (the server's are 32 characters)."""


def _name(data: dict[str, JSON]) -> str | Malformed:
    name = data.get("name", "player")
    if not isinstance(name, str) or not 0 < len(name) <= _NAME_LIMIT or not name.isprintable():
        return Malformed(f"name must be 1 to {_NAME_LIMIT} printable characters")
    return name


def _int(value: JSON) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


_scanOnce: Callable[[str, int], tuple[JSON, int]] = \
    json.JSONDecoder().scan_once  # type: ignore[attr-defined]
"""What C{json.loads} reads a value with: the value at an index, and the index after it."""


def _loadObject(data: bytes | str) -> JSON:
    """
    L{loads}' value of ``data``: an ASCII object without NUL bytes (what
    C{json.loads} reads as UTF-8, with nothing around its braces) read by
    the standard library's scanner at once, anything else by L{loads}.
    """
    if type(data) is bytes and data[:1] == b"{" and data[-1:] == b"}" and data.isascii() \
            and b"\x00" not in data:
        try:
            value, end = _scanOnce(data.decode("ascii"), 0)
        except StopIteration:
            pass
        else:
            if end == len(data):
                return value
    return loads(data)


def parse(data: bytes | str) -> ClientMessage | Malformed:
    """One client message."""
    if len(data) > MAX_MESSAGE:
        return Malformed("message too long")
    try:
        message = _loadObject(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return Malformed("not JSON")
    if not isinstance(message, dict):
        return Malformed("a message is a JSON object")
    wrong = plainJSON(message)
    if wrong is not None:
        return Malformed(wrong)
    kind = message.get("type")
    if kind == "create":
        engine, init, bots = message.get("engine"), message.get("init", {}), message.get("bots", [])
        name = _name(message)
        if isinstance(name, Malformed):
            return name
        if not isinstance(engine, str) or not isinstance(init, dict):
            return Malformed("create needs an engine name and an init object")
        if not isinstance(bots, list) or any(_int(b) is None for b in bots):
            return Malformed("bots must be a list of player numbers")
        join = message.get("join", True)
        if not isinstance(join, bool):
            return Malformed("join must be true or false")
        return Create(engine, dict(init), tuple(bots), join, name)
    if kind == "join":
        game, player = _int(message.get("game")), message.get("player")
        name = _name(message)
        if isinstance(name, Malformed):
            return name
        if game is None or (player is not None and _int(player) is None):
            return Malformed("join needs a game id (and maybe a player number)")
        token = message.get("token")
        if token is not None and not (
                isinstance(token, str) and 0 < len(token) <= TOKEN_LIMIT
                and token.isascii() and token.isprintable()):
            return Malformed(f"token must be 1 to {TOKEN_LIMIT} printable ASCII characters")
        return Join(game, player, name, token)
    if kind == "queue":
        engine, name = message.get("engine"), _name(message)
        if isinstance(name, Malformed):
            return name
        if not isinstance(engine, str):
            return Malformed("queue needs an engine name")
        return Queue(engine, name)
    if kind == "watch":
        game = _int(message.get("game"))
        if game is None:
            return Malformed("watch needs a game id")
        return Watch(game)
    if kind == "action":
        action = message.get("action")
        if not isinstance(action, dict):
            return Malformed("action needs an action object")
        return Action(dict(action))
    if kind == "leave":
        return Leave()
    return Malformed(f"unknown message type {kind!r}")


# -- server messages -----------------------------------------------------------


@attrs.frozen
class Hello:
    """The first message: the protocol's name and the engines the server offers."""

    protocol: str
    engines: tuple[str, ...]


@attrs.frozen
class Created:
    """Game ``game`` of ``engine`` was created (after L{Create})."""

    game: int
    engine: str


@attrs.frozen
class Seated:
    """You hold seat ``player`` (1-based) of ``game``; ``token`` takes it back."""

    game: int
    engine: str
    player: int
    players: tuple[str, ...]
    token: str | None


@attrs.frozen
class Queued:
    """You wait in ``engine``'s matchmaking."""

    engine: str


@attrs.frozen
class Watching:
    """You follow ``game`` as a spectator."""

    game: int
    engine: str
    players: tuple[str, ...]


@attrs.frozen
class Instructions:
    """
    After each accepted action, and once on being seated or watching:
    ``by`` is the player whose action these follow (None before the first),
    ``player`` None for a spectator; ``displays``, ``requested_actions`` and
    ``game_state`` are the document's JSON, as sent.
    """

    game: int
    player: int | None
    turn: int
    by: int | None
    displays: tuple[JSON, ...]
    requested_actions: tuple[dict[str, JSON], ...]
    waiting_for: tuple[int, ...]
    game_state: dict[str, JSON]
    clocks: tuple[dict[str, JSON], ...] = ()
    """The turn clocks that run: ``{"player": P, "seconds": S}`` each."""
    colours: tuple[str, ...] | None = None
    """Each seat's colour, when the game gives them."""
    players: tuple[str, ...] | None = None
    """Every seat's name, when a seat changed hands since the last message (else None)."""


@attrs.frozen
class Errors:
    """Your action, INITIALISATION or message was refused: the document's error dicts."""

    errors: tuple[dict[str, JSON], ...]
    reason: str | None = None


@attrs.frozen
class Problem:
    """A request cannot be served; ``message`` says why."""

    message: str


@attrs.frozen
class Ended:
    """``game`` is over; ``error`` says why when it was aborted."""

    game: int
    scores: tuple[JSON, ...] | None
    """The final scores; None for a game aborted (``error``)."""
    error: str | None
    reason: str | None = None
    """Why it ended, in a sentence, when the server knows it."""


@attrs.frozen
class Left:
    """After L{Leave}."""


@attrs.frozen
class Unknown:
    """A message whose ``type`` this codec does not know (a newer server's): kept whole."""

    type: JSON
    data: dict[str, JSON]


ServerMessage = (Hello | Created | Seated | Queued | Watching | Instructions | Errors | Problem
                 | Ended | Left | Unknown)


class _Wrong(Exception):
    """A field of a server message is missing or of the wrong kind."""


def _field(data: dict[str, JSON], key: str, kind: type | tuple[type, ...],
           optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _Wrong(f"{data.get('type')}: {key} is missing or of the wrong kind")
    return value


def _items(data: dict[str, JSON], key: str, kind: type) -> tuple[Any, ...]:
    values = _field(data, key, list)
    if any(not isinstance(v, kind) or (isinstance(v, bool) and kind is int) for v in values):
        raise _Wrong(f"{data.get('type')}: {key} must hold only {kind.__name__} values")
    return tuple(values)


def readServerMessage(data: JSON) -> ServerMessage | Malformed:
    """One server message, as C{json.loads} read it: typed, or why it is not one."""
    if not isinstance(data, dict):
        return Malformed("a message is a JSON object")
    try:
        match data.get("type"):
            case "hello":
                return Hello(_field(data, "protocol", str), _items(data, "engines", str))
            case "created":
                return Created(_field(data, "game", int), _field(data, "engine", str))
            case "seated":
                return Seated(_field(data, "game", int), _field(data, "engine", str),
                              _field(data, "player", int), _items(data, "players", str),
                              _field(data, "token", str, optional=True))
            case "queued":
                return Queued(_field(data, "engine", str))
            case "watching":
                return Watching(_field(data, "game", int), _field(data, "engine", str),
                                _items(data, "players", str))
            case "instructions":
                return Instructions(
                    _field(data, "game", int), _field(data, "player", int, optional=True),
                    _field(data, "turn", int), _field(data, "by", int, optional=True),
                    _items(data, "displays", object), _items(data, "requested_actions", dict),
                    _items(data, "waiting_for", int), _field(data, "game_state", dict),
                    _items(data, "clocks", dict) if data.get("clocks") is not None else (),
                    _items(data, "colours", str) if data.get("colours") is not None else None,
                    _items(data, "players", str) if data.get("players") is not None else None)
            case "errors":
                return Errors(_items(data, "errors", dict),
                              _field(data, "reason", str, optional=True))
            case "problem":
                return Problem(_field(data, "message", str))
            case "ended":
                return Ended(_field(data, "game", int),
                             _items(data, "scores", object) if data.get("scores") is not None
                             else None,
                             _field(data, "error", str, optional=True),
                             _field(data, "reason", str, optional=True))
            case "left":
                return Left()
            case other:
                return Unknown(other, dict(data))
    except _Wrong as e:
        return Malformed(str(e))


def parseServer(data: bytes | str) -> ServerMessage | Malformed:
    """One server message from its bytes (a line without its LF, or a text message)."""
    if len(data) > MAX_MESSAGE:
        return Malformed("message too long")
    try:
        message = loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return Malformed("not JSON")
    return readServerMessage(message)


# -- JSON, fast when orjson is there ------------------------------------------


def _stdlibDumps(value: JSON) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _fastDumps(value: JSON) -> bytes:
    # orjson writes the same JSON as the standard library for what the server
    # sends (UTF-8, no spaces, non-ASCII as is); anything it refuses (an int
    # over 64 bits, a key that is not a string) goes to the standard library.
    # The bytes never depend on whether orjson is installed but for the
    # spelling of some floats (1e16 for 1e+16; the same numbers read back)
    # and a NaN or an infinity, which orjson writes null where the standard
    # library wrote NaN (not JSON): no server message holds one, as clients'
    # JSON, external engines' and parameters are refused with them.
    try:
        return _orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _stdlibDumps(value)


dumps: Callable[[JSON], bytes] = _stdlibDumps if _orjson is None else _fastDumps
"""Compact UTF-8 JSON of ``value``: orjson when installed, else the standard library."""

loads: Callable[[bytes | str], JSON] = json.loads
"""
C{json.loads}, always: orjson reads an integer beyond 64 bits as a float
(a different value, silently), so what a peer sends is read by the standard
library alone.
"""


def encode(message: dict[str, JSON]) -> bytes:
    """
    One server message, UTF-8 JSON (no newline: the transport frames it).
    An L{Encoded} message is written as the bytes it carries.
    """
    if type(message) is Encoded:
        return message.data
    return dumps(message)


class Encoded(dict[str, JSON]):
    """
    A server message already encoded: the message itself (a dict, as any
    other message, for whoever looks at what is sent) and its JSON bytes,
    which L{encode} writes as they are.  Built by L{splice}.
    """

    __slots__ = ("data",)

    def __init__(self, message: dict[str, JSON], data: bytes) -> None:
        super().__init__(message)
        self.data = data


def splice(message: dict[str, JSON], key: str, value: JSON, encoded: bytes,
           after: str) -> Encoded:
    """
    ``message`` with ``key`` set to ``value``, whose JSON is ``encoded``
    (already made, shared by several messages), inserted right after key
    ``after`` (keys keep their order): only the rest is encoded now.
    """
    whole: dict[str, JSON] = {}
    for k, v in message.items():
        whole[k] = v
        if k == after:
            whole[key] = value
    return Encoded(whole, encodeWith(whole, key, encoded))


def _spliceBytes(message: dict[str, JSON], key: str, encoded: bytes) -> bytes:
    keys = list(message)
    cut = keys.index(key)
    head = dumps({k: message[k] for k in keys[:cut]}) if cut else b"{}"
    tail = dumps({k: message[k] for k in keys[cut + 1:]})
    return b"".join((b"{" if not cut else head[:-1] + b",", dumps(key), b":", encoded,
                     b"," + tail[1:] if len(tail) > 2 else b"}"))


def encodeWith(message: dict[str, JSON], key: str, encoded: bytes) -> bytes:
    """
    The JSON of ``message``, whose value at ``key`` is already encoded as
    ``encoded``: that part is copied, not encoded again (orjson's
    C{Fragment}, or the standard library's JSON of the rest around it).
    """
    if _fragment is not None:
        try:
            return _orjson.dumps({**message, key: _fragment(encoded)})
        except TypeError:
            pass
    return _spliceBytes(message, key, encoded)


_fragment: Callable[[bytes], object] | None = getattr(_orjson, "Fragment", None)


class LineReader:
    """JSON lines from a byte stream, each line at most L{MAX_MESSAGE} bytes."""

    def __init__(self) -> None:
        self._buffer = ReceiveBuffer()

    def feed(self, data: bytes | bytearray) -> list[bytes | Malformed]:
        """The complete lines in ``data`` (and before); a Malformed ends the stream."""
        if not self._buffer and type(data) is bytes:
            # The usual read, one whole line and nothing held: no buffer.
            end = data.find(b"\n")
            if end == len(data) - 1 and end <= MAX_MESSAGE:
                whole = data[:end]
                return [whole] if whole.strip() else []
        self._buffer += data
        lines: list[bytes | Malformed] = []
        while True:
            line = self._buffer.extractLine(MAX_MESSAGE)
            if isinstance(line, NeedMore):
                return lines
            if not isinstance(line, bytes):
                lines.append(Malformed("message too long"))
                return lines
            if line.strip():
                lines.append(line)
