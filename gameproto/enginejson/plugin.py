"""
The engine JSON protocol plugin: ``--ports engine=...``, ``--engine-idle-timeout``.

The core's ``--engine-timeout``, ``--engine-answer-timeout`` and
``--engine-open-seat-timeout`` are the hub's: they rule the games the hub
hosts, whatever protocol plays them.
"""

from __future__ import annotations

from typing import Any, Mapping

from twisted.internet.interfaces import IProtocolFactory
from twisted.python import usage
from twisted.web.resource import Resource

from gameproto.engine.hub import Hub
from gameproto.enginejson.server import EngineJsonServer, EngineJsonServerFactory, EngineJsonSettings
from gameproto.plugin import ProtocolPlugin, seconds


class EngineJsonPlugin(ProtocolPlugin[EngineJsonSettings, EngineJsonServer]):
    """
    The engine JSON protocol over TCP, and over WebSocket at ``/engine`` on
    the web port, which stays on when its own port is off: it is the page's
    way in.
    """

    name = "engine"
    defaultEndpoint = "tcp:4003"
    description = ("The engine JSON protocol (any game, JSON lines), and the same protocol "
                   "over WebSocket at /engine on the web port")
    optParameters = [
        ["engine-idle-timeout", None, 600.0,
         "Seconds an engine JSON connection may stay in the lobby (no game, queue or watch) "
         "without sending anything; past it it is closed.", seconds],
    ]
    webWhenOff = True

    def settings(self, options: Mapping[str, Any]) -> EngineJsonSettings:
        try:
            return EngineJsonSettings(idleTimeout=options["engine-idle-timeout"])
        except ValueError as e:
            raise usage.UsageError(f"engine JSON settings: {e}") from None

    def makeServer(self, hub: Hub, settings: EngineJsonSettings) -> EngineJsonServer:
        return EngineJsonServer(settings, hub=hub)

    def factory(self, server: EngineJsonServer) -> IProtocolFactory:
        return EngineJsonServerFactory(server)

    def webResources(self, server: EngineJsonServer) -> dict[bytes, Resource]:
        from gameproto.enginejson.websocket import engineWebSocket

        return {b"engine": engineWebSocket(server)}


engine = EngineJsonPlugin()
