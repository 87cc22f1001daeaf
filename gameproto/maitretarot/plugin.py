"""The MaîtreTarot protocol plugin: ``--ports maitretarot=...``, ``--maitretarot-*``."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from twisted.internet.interfaces import IProtocolFactory
from twisted.python import usage

from gameproto.engine.contract import EngineFactory
from gameproto.engine.hub import Hub
from gameproto.games.tarot import TAROT
from gameproto.maitretarot.server import (
    RECLAIM_RULES,
    TarotServer,
    TarotServerFactory,
    TarotSettings,
)
from gameproto.plugin import ProtocolPlugin, delay, seconds


def reclaimRule(value: str) -> str:
    """C{--maitretarot-reclaim}: one of L{RECLAIM_RULES}."""
    rule = value.strip().lower()
    if rule not in RECLAIM_RULES:
        raise ValueError(f"{value!r} is none of {', '.join(RECLAIM_RULES)}")
    return rule


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
        ["maitretarot-reclaim", None, "address",
         "Who may take back a MaîtreTarot seat its player left during a deal: address "
         "(a connection from the same peer address, with the same nick), off (nobody). "
         "A seat not taken back by the end of the deal answers 0 to the replay "
         "question.", reclaimRule],
    ]

    def settings(self, options: Mapping[str, Any]) -> TarotSettings:
        try:
            return TarotSettings(
                timeout=options["maitretarot-timeout"],
                botsAfter=options["maitretarot-bots-after"],
                botDelay=options["maitretarot-bot-delay"],
                reclaim=options["maitretarot-reclaim"],
            )
        except ValueError as e:
            raise usage.UsageError(f"MaîtreTarot settings: {e}") from None

    def makeServer(self, hub: Hub, settings: TarotSettings) -> TarotServer:
        return TarotServer(settings, hub=hub)

    def factory(self, server: TarotServer) -> IProtocolFactory:
        return TarotServerFactory(server)

    def engines(self) -> Sequence[EngineFactory]:
        return [TAROT]


maitretarot = MaitreTarotPlugin()
