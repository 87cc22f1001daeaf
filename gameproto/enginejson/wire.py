"""
The player side of the engine JSON protocol, sans I/O: one JSON object per
message (a line on TCP, a text message on WebSocket), each with a ``type``.
Reading is total: any bytes give a typed message or a L{Malformed} value.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

import attrs

MAX_MESSAGE: Final = 64 * 1024
"""The longest message a client may send, in bytes."""

JSON = Any


@attrs.frozen
class Malformed:
    """Bytes that are no client message: the document's BAD_FORMAT."""

    reason: str


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
    """Take player ``player``'s seat (any free one when None) in game ``game``."""

    game: int
    player: int | None = None
    name: str = "player"

    def asJSON(self) -> dict[str, JSON]:
        described: dict[str, JSON] = {"type": "join", "game": self.game, "name": self.name}
        if self.player is not None:
            described["player"] = self.player
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


def _name(data: dict[str, JSON]) -> str | Malformed:
    name = data.get("name", "player")
    if not isinstance(name, str) or not 0 < len(name) <= _NAME_LIMIT or not name.isprintable():
        return Malformed(f"name must be 1 to {_NAME_LIMIT} printable characters")
    return name


def _int(value: JSON) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _finite(value: JSON) -> bool:
    """No NaN or infinity anywhere (Python's json reads them; the document's JSON has none)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def parse(data: bytes | str) -> ClientMessage | Malformed:
    """One client message."""
    if len(data) > MAX_MESSAGE:
        return Malformed("message too long")
    try:
        message = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return Malformed("not JSON")
    if not isinstance(message, dict) or not _finite(message):
        return Malformed("a message is a JSON object")
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
        return Join(game, player, name)
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
        self._buffer = b""

    def feed(self, data: bytes) -> list[bytes | Malformed]:
        """The complete lines in ``data`` (and before); a Malformed ends the stream."""
        self._buffer += data
        lines: list[bytes | Malformed] = []
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_MESSAGE:
                    lines.append(Malformed("message too long"))
                return lines
            line, self._buffer = self._buffer[:end], self._buffer[end + 1 :]
            if end > MAX_MESSAGE:
                lines.append(Malformed("message too long"))
                return lines
            if line.strip():
                lines.append(line)
