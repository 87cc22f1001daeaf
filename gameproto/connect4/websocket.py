"""Protuissance 4 over WebSocket: the same protocol, one message per binary WebSocket message."""

from __future__ import annotations

from twisted.web.resource import Resource
from twisted.web.server import Request

from gameproto.connect4 import wire
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory
from gameproto.web.websocket import messageWebSocketResource


def connect4WebSocket(
    server: Connect4Server, factory: Connect4ServerFactory | None = None
) -> Resource:
    """
    A resource (``/connect4`` on the web port) whose players join
    ``server``'s games; ``factory`` builds their protocols (a factory whose
    ``protocol`` is a subclass, say), by default a L{Connect4ServerFactory}.
    """
    if factory is None:
        factory = Connect4ServerFactory(server)

    def build(request: Request):  # type: ignore[no-untyped-def]
        return factory.buildProtocol(request.getClientAddress())

    return messageWebSocketResource(build, wire.MAX_MESSAGE)
