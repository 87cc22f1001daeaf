"""Protuissance 4 over WebSocket: the same protocol, one message per binary WebSocket message."""

from __future__ import annotations

from twisted.web.resource import Resource

from gameproto.connect4 import wire
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory
from gameproto.web.websocket import MessageWebSocketResource


def connect4WebSocket(
    server: Connect4Server, factory: Connect4ServerFactory | None = None
) -> Resource:
    """
    A resource (``/connect4`` on the web port) whose players join
    ``server``'s games; ``factory`` builds their protocols (a factory whose
    ``protocol`` is a subclass, say), by default a L{Connect4ServerFactory}.
    """
    return MessageWebSocketResource(factory or Connect4ServerFactory(server), wire.WEBSOCKET_MAX_MESSAGE)
