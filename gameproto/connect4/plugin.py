"""The Protuissance 4 protocol plugin: ``--ports connect4=...``, ``--connect4-*``."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from twisted.internet.interfaces import IProtocolFactory
from twisted.python import usage
from twisted.web.resource import Resource

from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.contract import EngineFactory
from gameproto.engine.hub import Hub
from gameproto.games.connect4 import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    ENGINE,
    MAX_SIZE,
    MIN_SIZE,
)
from gameproto.plugin import ProtocolPlugin, delay, seconds


def boardSize(value: str) -> int:
    """An option's coerce: a board width or height the game allows."""
    size = int(value)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"{value} is not between {MIN_SIZE} and {MAX_SIZE}")
    return size


class Connect4Plugin(ProtocolPlugin[Connect4Settings, Connect4Server]):
    """Protuissance 4 over TCP, and over WebSocket at ``/connect4`` on the web port."""

    name = "connect4"
    defaultEndpoint = "tcp:4000"
    description = ("Protuissance 4 (Connect Four), and the same protocol over WebSocket "
                   "at /connect4 on the web port")
    optParameters = [
        ["connect4-width", None, DEFAULT_WIDTH, "Connect Four board width, 6..255.", boardSize],
        ["connect4-height", None, DEFAULT_HEIGHT, "Connect Four board height, 6..255.",
         boardSize],
        ["connect4-timeout", None, 3.0, "Seconds for each Connect Four move.", seconds],
        ["connect4-first-move-bonus", None, 1.0,
         "Extra seconds for the first move of a game (the document's timeout + 1).", delay],
        ["connect4-choice-timeout", None, 10.0,
         "Seconds to send JOIN_QUEUE after GAME_END before being disconnected.", seconds],
        ["connect4-resend-timeout", None, 1.0,
         "Seconds to send another move after ERR_INVALID_COLUMN.", seconds],
        ["connect4-connect-timeout", None, 10.0,
         "Seconds for a new connection to send an acceptable CONNECT.", seconds],
        ["connect4-rematch-delay", None, 1.0,
         "Seconds the queue waits for another opponent before matching two players "
         "who just played each other (0: at once).", delay],
    ]

    def settings(self, options: Mapping[str, Any]) -> Connect4Settings:
        try:
            return Connect4Settings(
                width=options["connect4-width"],
                height=options["connect4-height"],
                timeout=options["connect4-timeout"],
                firstMoveBonus=options["connect4-first-move-bonus"],
                choiceTimeout=options["connect4-choice-timeout"],
                resendTimeout=options["connect4-resend-timeout"],
                connectTimeout=options["connect4-connect-timeout"],
                rematchDelay=options["connect4-rematch-delay"],
            )
        except ValueError as e:
            raise usage.UsageError(f"Connect Four settings: {e}") from None

    def makeServer(self, hub: Hub, settings: Connect4Settings) -> Connect4Server:
        return Connect4Server(settings, hub=hub)

    def factory(self, server: Connect4Server) -> IProtocolFactory:
        return Connect4ServerFactory(server)

    def webResources(self, server: Connect4Server) -> dict[bytes, Resource]:
        from gameproto.connect4.websocket import connect4WebSocket

        return {b"connect4": connect4WebSocket(server)}

    def engines(self) -> Sequence[EngineFactory]:
        return [ENGINE]


connect4 = Connect4Plugin()
