"""
A tiny line protocol on its own port: each line comes back with a prefix
(``--echo-prefix``), and the server counts the lines of every connection.
Its plugin also brings a tiny game, C{tally}: one seat presses a key until
its count is reached.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

import attrs
from twisted.internet.interfaces import IProtocolFactory
from twisted.protocols.basic import LineReceiver
from twisted.python import usage

from gameproto.engine.contract import (
    JSON,
    Display,
    EngineFactory,
    Errors,
    GameState,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    checkAction,
    checkParameters,
)
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


TALLY_KEY = "t"


@attrs.define
class TallyGame:
    """One seat presses L{TALLY_KEY}; the game is over once it did so ``presses`` times."""

    params: Mapping[str, JSON]
    count: int = 0
    resigned: bool = False
    initvalues: Mapping[str, JSON] = attrs.Factory(dict)
    players: int = 1

    @property
    def over(self) -> bool:
        return self.resigned or self.count >= self.params["presses"]

    def _requested(self) -> tuple[RequestedAction, ...]:
        return () if self.over else (RequestedAction(0, "KEY", keys=TALLY_KEY),)

    def instructions(self) -> Instructions:
        return Instructions(self._requested(), GameState((self.count,), self.over),
                            initvalues=dict(self.initvalues))

    def display(self, seat: Seat | None) -> Display:
        return Display(seat, 100, 20, ({"tag": "text", "x": 4, "y": 14,
                                        "content": f"{self.count} of {self.params['presses']}"},))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self.over or seat != 0 or action != TALLY_KEY:
            return Errors((UnexpectedAction(seat, action),))
        self.count += 1
        return self.instructions()

    def resign(self, seat: Seat) -> Instructions:
        self.resigned = True
        return self.instructions()

    def view(self, seat: Seat) -> int:
        return self.count

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        checked = checkAction(seat, action, self._requested())
        return checked if isinstance(checked, Errors) else TALLY_KEY

    def stop(self) -> None:
        """Nothing to release."""


class TallyEngine:
    """The third party's engine: L{TallyGame}, nothing hidden, no bot."""

    name = "tally"
    parameters: Sequence[Parameter] = (
        Parameter("presses", "int", "How many presses end the game.", 3, 1, 100),)
    hiddenInformation = False

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        return True

    def start(self, params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
              rng: random.Random | None = None) -> TallyGame | Errors:
        checked = checkParameters(self.parameters, params)
        return checked if isinstance(checked, Errors) else TallyGame(checked)

    def bot(self, params: Mapping[str, JSON]) -> None:
        return None


TALLY = TallyEngine()


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

    def engines(self) -> Sequence[EngineFactory]:
        return [TALLY]


echo = EchoPlugin()
