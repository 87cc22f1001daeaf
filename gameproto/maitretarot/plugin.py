"""The MaîtreTarot protocol plugin: ``--ports maitretarot=...``, ``--maitretarot-*``."""

from __future__ import annotations

from typing import Any, Mapping

from twisted.internet.interfaces import IProtocolFactory
from twisted.python import usage

from gameproto.engine.hub import Hub
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings
from gameproto.plugin import ProtocolPlugin, delay, seconds


class MaitreTarotPlugin(ProtocolPlugin[TarotSettings, TarotServer]):
    """MaîtreTarot (French Tarot for four) over TCP."""

    name = "maitretarot"
    defaultEndpoint = "tcp:4001"
    description = "MaîtreTarot (French Tarot for four, its headerless binary integers)"
    optParameters = [
        ["maitretarot-timeout", None, 60.0,
         "Seconds a MaîtreTarot client has for each answer (bid, discard, card, replay) "
         "and each identification step; past it a bot plays its move and the connection "
         "is closed.", seconds],
        ["maitretarot-bots-after", None, 30.0,
         "Seconds a waiting MaîtreTarot table waits for players before bots fill its "
         "empty places (0: at once).", delay],
        ["maitretarot-bot-delay", None, 0.0,
         "Seconds a MaîtreTarot bot waits before each move.", delay],
    ]

    def settings(self, options: Mapping[str, Any]) -> TarotSettings:
        try:
            return TarotSettings(
                timeout=options["maitretarot-timeout"],
                botsAfter=options["maitretarot-bots-after"],
                botDelay=options["maitretarot-bot-delay"],
            )
        except ValueError as e:
            raise usage.UsageError(f"MaîtreTarot settings: {e}") from None

    def makeServer(self, hub: Hub, settings: TarotSettings) -> TarotServer:
        return TarotServer(settings, hub=hub)

    def factory(self, server: TarotServer) -> IProtocolFactory:
        return TarotServerFactory(server)


maitretarot = MaitreTarotPlugin()
