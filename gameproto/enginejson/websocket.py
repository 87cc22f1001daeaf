"""The engine JSON protocol over WebSocket: one JSON text message per message."""

from __future__ import annotations

from twisted.web.resource import Resource
from twisted.web.server import Request

from gameproto.enginejson import wire
from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory
from gameproto.web.websocket import messageWebSocketResource


def engineWebSocket(server: EngineJsonServer) -> Resource:
    """The resource at ``/engine`` on the web port."""
    factory = EngineJsonServerFactory(server)

    def build(request: Request):  # type: ignore[no-untyped-def]
        return factory.buildProtocol(request.getClientAddress())

    return messageWebSocketResource(build, wire.MAX_MESSAGE, text=True)
