"""
The player side of the engine JSON protocol, sans I/O: one JSON object per
message (a line on TCP, a text message on WebSocket), each with a ``type``.
Reading is total: any bytes give a typed message or a L{Malformed} value
(the document's BAD_FORMAT).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

import attrs

from gameproto.buffer import Malformed as Malformed, NeedMore, ReceiveBuffer

MAX_MESSAGE: Final = 64 * 1024
"""The longest message a client may send, in bytes."""

MAX_DEPTH: Final = 64
"""How deep a client's arrays and objects may nest."""

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


_SURROGATE = re.compile("[\ud800-\udfff]")


def plainJSON(value: JSON, maxDepth: int = MAX_DEPTH) -> str | None:
    """
    Why ``value`` (as C{json.loads} reads it) is not the document's JSON:
    a NaN or an infinity (Python's json reads them), a string that is not
    Unicode (a lone surrogate escape), or arrays and objects nested deeper
    than ``maxDepth``; None when it is.  Walked without recursion, so any
    depth gets an answer, never a RecursionError.
    """
    stack: list[tuple[JSON, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return "numbers must be finite"
        elif isinstance(item, str):
            if _SURROGATE.search(item):
                return "strings must be valid Unicode"
        elif isinstance(item, (dict, list)):
            if depth >= maxDepth:
                return f"JSON nested deeper than {maxDepth} levels"
            if isinstance(item, dict):
                for key, member in item.items():
                    if _SURROGATE.search(key):
                        return "strings must be valid Unicode"
                    stack.append((member, depth + 1))
            else:
                stack.extend((member, depth + 1) for member in item)
    return None


def parse(data: bytes | str) -> ClientMessage | Malformed:
    """One client message."""
    if len(data) > MAX_MESSAGE:
        return Malformed("message too long")
    try:
        message = json.loads(data)
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


def encode(message: dict[str, JSON]) -> bytes:
    """One server message, UTF-8 JSON (no newline: the transport frames it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class LineReader:
    """JSON lines from a byte stream, each line at most L{MAX_MESSAGE} bytes."""

    def __init__(self) -> None:
        self._buffer = ReceiveBuffer()

    def feed(self, data: bytes) -> list[bytes | Malformed]:
        """The complete lines in ``data`` (and before); a Malformed ends the stream."""
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
