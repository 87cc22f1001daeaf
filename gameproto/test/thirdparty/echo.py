"""
A tiny line protocol on its own port: each line comes back with a prefix
(``--echo-prefix``), and the server counts the lines of every connection.
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs
from twisted.internet.interfaces import IProtocolFactory
from twisted.protocols.basic import LineReceiver
from twisted.python import usage

from gameproto.engine.hub import Hub
from gameproto.net import GameServerFactory
from gameproto.plugin import ProtocolPlugin


@attrs.frozen
class EchoSettings:
    prefix: bytes


class EchoServer:
    """What every echo connection shares: the settings, the hub, a line count."""

    def __init__(self, settings: EchoSettings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.lines = 0


class EchoProtocol(LineReceiver):
    factory: GameServerFactory[EchoServer, EchoProtocol]

    def lineReceived(self, line: bytes) -> None:
        server = self.factory.server
        server.lines += 1
        self.sendLine(server.settings.prefix + line)


class EchoPlugin(ProtocolPlugin[EchoSettings, EchoServer]):
    name = "echo"
    defaultEndpoint = "tcp:4999"
    description = "Lines sent back with a prefix"
    optParameters = [["echo-prefix", None, "echo: ", "What each line sent back starts with."]]

    def settings(self, options: Mapping[str, Any]) -> EchoSettings:
        prefix = options["echo-prefix"]
        if "\n" in prefix or "\r" in prefix:
            raise usage.UsageError("--echo-prefix: no line break")
        return EchoSettings(prefix.encode("utf-8"))

    def makeServer(self, hub: Hub, settings: EchoSettings) -> EchoServer:
        return EchoServer(settings, hub)

    def factory(self, server: EchoServer) -> IProtocolFactory:
        return GameServerFactory(server, EchoProtocol)


echo = EchoPlugin()
