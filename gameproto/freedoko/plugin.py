"""The FreeDoko protocol plugin: ``--ports freedoko=...``, ``--freedoko-*``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from twisted.internet.interfaces import IProtocolFactory
from twisted.python import usage

from gameproto.engine.contract import EngineFactory
from gameproto.engine.hub import Hub
from gameproto.freedoko.server import FreeDokoServer, FreeDokoServerFactory, FreeDokoSettings
from gameproto.games.doppelkopf import DOPPELKOPF
from gameproto.net import cap
from gameproto.plugin import ProtocolPlugin, delay, seconds


def rulesFile(value: str) -> str:
    """C{--freedoko-rules}: a readable FreeDoko rules file; its text."""
    try:
        return Path(value).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise ValueError(f"cannot read the rules file {value!r}: {e.strerror}") from None


class FreeDokoPlugin(ProtocolPlugin[FreeDokoSettings, FreeDokoServer]):
    """FreeDoko (Doppelkopf for four): the parent real FreeDoko children connect to."""

    name = "freedoko"
    defaultEndpoint = "tcp:2442"
    description = "FreeDoko (Doppelkopf for four): the parent FreeDoko children connect to"
    optParameters = [
        ["freedoko-rules", None, "",
         "A FreeDoko rules file (its 'name = value' lines) for every party "
         "(default: FreeDoko's own defaults).", rulesFile],
        ["freedoko-timeout", None, 60.0,
         "Seconds a FreeDoko child has for each decision (and for its name and each "
         "'trick taken'); past it a bot takes its seat and the connection is left open, "
         "sent nothing more (one without a name is closed).", seconds],
        ["freedoko-bots-after", None, 30.0,
         "Seconds a waiting FreeDoko table waits for children before bots fill its "
         "empty seats (0: at once).", delay],
        ["freedoko-bot-delay", None, 0.0,
         "Seconds a FreeDoko bot waits before each move.", delay],
        ["freedoko-max-tables", None, 0,
         "The most FreeDoko parties played at once (0: no limit); past it a newcomer is "
         "sent 'connection rejected', as the real parent does during its party.", cap],
    ]

    def settings(self, options: Mapping[str, Any]) -> FreeDokoSettings:
        try:
            return FreeDokoSettings(
                timeout=options["freedoko-timeout"],
                botsAfter=options["freedoko-bots-after"],
                botDelay=options["freedoko-bot-delay"],
                rules=options["freedoko-rules"] or "",
                maxTables=options["freedoko-max-tables"],
            )
        except ValueError as e:
            raise usage.UsageError(f"FreeDoko settings: {e}") from None

    def makeServer(self, hub: Hub, settings: FreeDokoSettings) -> FreeDokoServer:
        return FreeDokoServer(settings, hub=hub)

    def factory(self, server: FreeDokoServer) -> IProtocolFactory:
        return FreeDokoServerFactory(server)

    def engines(self) -> Sequence[EngineFactory]:
        return [DOPPELKOPF]


freedoko = FreeDokoPlugin()
