"""The Carcassonne 1.71 protocol plugin: ``--ports carcassonne=...``, ``--carcassonne-*``."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from twisted.internet.interfaces import IProtocolFactory
from twisted.python import usage

from gameproto.carcassonne.server import (
    CarcassonneServer,
    CarcassonneServerFactory,
    CarcassonneSettings,
)
from gameproto.engine.contract import EngineFactory
from gameproto.engine.hub import Hub
from gameproto.games.carcassonne import CARCASSONNE
from gameproto.plugin import ProtocolPlugin, delay, seconds

ON = ("on", "yes", "true", "1")
OFF = ("off", "no", "false", "0")


def onOff(value: str | bool) -> bool:
    """An option's coerce: ``on`` or ``off`` (yes/no, true/false, 1/0)."""
    if isinstance(value, bool):
        return value
    word = value.strip().lower()
    if word in ON:
        return True
    if word in OFF:
        return False
    raise ValueError(f"{value!r} is neither on nor off")


class CarcassonnePlugin(ProtocolPlugin[CarcassonneSettings, CarcassonneServer]):
    """Carcassonne 1.71 (up to five players, moves relayed between clients) over TCP."""

    name = "carcassonne"
    defaultEndpoint = "tcp:4002"
    description = "Carcassonne 1.71 (up to five players; the server relays and referees moves)"
    optParameters = [
        ["carcassonne-timeout", None, 60.0,
         "Seconds a Carcassonne client has for each move (from its TOKEN), and to say "
         "HELLO after connecting; past it the client is removed (CLOSE n to the others) "
         "and a bot takes its seat when the referee has one.", seconds],
        ["carcassonne-ack-timeout", None, 10.0,
         "Seconds each other Carcassonne client has to answer a MOVE with MOVEACK or "
         "MOVENACK; past it that client is removed.", seconds],
        ["carcassonne-referee", None, "on",
         "on: the rules engine judges every Carcassonne move (MOVENACK to the mover, "
         "not relayed, for a move that breaks the rules); off: a pure relay, the rules "
         "engine following and scoring the game up to the first move that breaks them.",
         onOff],
        ["carcassonne-bots-after", None, 30.0,
         "Seconds a Carcassonne room with one ready player waits before a bot joins it "
         "(0: at once).", delay],
    ]

    def settings(self, options: Mapping[str, Any]) -> CarcassonneSettings:
        try:
            return CarcassonneSettings(
                timeout=options["carcassonne-timeout"],
                ackTimeout=options["carcassonne-ack-timeout"],
                referee=onOff(options["carcassonne-referee"]),
                botsAfter=options["carcassonne-bots-after"],
            )
        except ValueError as e:
            raise usage.UsageError(f"Carcassonne settings: {e}") from None

    def makeServer(self, hub: Hub, settings: CarcassonneSettings) -> CarcassonneServer:
        return CarcassonneServer(settings, hub=hub)

    def factory(self, server: CarcassonneServer) -> IProtocolFactory:
        return CarcassonneServerFactory(server)

    def engines(self) -> Sequence[EngineFactory]:
        return [CARCASSONNE]


carcassonne = CarcassonnePlugin()
