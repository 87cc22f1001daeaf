"""The engine JSON protocol over WebSocket: one JSON text message per message."""

from __future__ import annotations

from twisted.web.resource import Resource

from gameproto.enginejson import wire
from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory
from gameproto.web.websocket import MessageWebSocketResource


def engineWebSocket(server: EngineJsonServer) -> Resource:
    """The resource at ``/engine`` on the web port."""
    return MessageWebSocketResource(EngineJsonServerFactory(server), wire.MAX_MESSAGE, text=True)
