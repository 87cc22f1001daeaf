"""
Test helpers for Carcassonne: a stub referee engine (a square must be free
and next to a placed tile, the tile must have a copy left; no edge
matching) with a bot, and a server on a test clock with connections on
string transports.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from gameproto.carcassonne import wire
from gameproto.carcassonne.protocol import CarcassonneServerProtocol
from gameproto.carcassonne.server import (
    MOVES,
    CarcassonneServer,
    CarcassonneServerFactory,
    CarcassonneSettings,
)
from gameproto.engine.contract import (
    JSON,
    Display,
    Errors,
    Event,
    GameState,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    checkParameters,
)
from gameproto.engine.hub import Hub
from gameproto.engine.registry import EngineRegistry

NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0))


class StubView:
    def __init__(self, board: set[tuple[int, int]], pile: dict[str, int]) -> None:
        self.board = board
        self.pile = pile


class StubGame:
    """Carcassonne without edges: free squares next to the board, tiles of the pile."""

    def __init__(self, params: Mapping[str, JSON]) -> None:
        self.params: Mapping[str, JSON] = dict(params)
        self.initvalues: Mapping[str, JSON] = {}
        self.players = int(params["players"])
        self.board = {(72, 72)}
        self.pile = dict(wire.TILE_COUNTS)
        self.pile["tile-d"] -= 1
        self.playing = list(range(self.players))
        self.turn: Seat = 0
        self.moves = 0
        self.over = False

    def _state(self, events: tuple[Event, ...] = ()) -> Instructions:
        asked = () if self.over else (RequestedAction(self.turn, "TEXT", max_length=200),)
        return Instructions(asked, GameState((0,) * self.players, self.over), events)

    def instructions(self) -> Instructions:
        return self._state()

    def display(self, seat: Seat | None) -> Display:
        return Display(seat, 10, 10, ())

    def legal(self, action: JSON) -> bool:
        if not isinstance(action, dict) or set(action) != {"tile", "x", "y", "orientation",
                                                           "zone"}:
            return False
        x, y = action["x"], action["y"]
        return (self.pile.get(action["tile"], 0) > 0 and isinstance(x, int)
                and isinstance(y, int) and (x, y) not in self.board
                and any((x + dx, y + dy) in self.board for dx, dy in NEIGHBOURS))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self.over or seat != self.turn or not self.legal(action):
            return Errors((UnexpectedAction(seat, action),))
        assert isinstance(action, dict)
        self.board.add((action["x"], action["y"]))
        self.pile[action["tile"]] -= 1
        self.moves += 1
        if self.moves >= MOVES:
            self.over = True
        else:
            self.turn = self._after(seat)
        return self._state((Event("move", action, seat),))

    def _after(self, seat: Seat) -> Seat:
        later = [s for s in self.playing if s > seat]
        return later[0] if later else self.playing[0]

    def resign(self, seat: Seat) -> Instructions:
        if seat in self.playing and not self.over:
            if self.turn == seat:
                self.turn = self._after(seat)
            self.playing.remove(seat)
            if len(self.playing) < 2:
                self.over = True
        return self._state()

    def view(self, seat: Seat) -> StubView:
        return StubView(set(self.board), dict(self.pile))

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        return Errors((UnexpectedAction(seat, dict(action)),))

    def stop(self) -> None:
        pass


def stubBot(view: StubView, seat: Seat) -> JSON:
    tile = min(t for t, n in view.pile.items() if n > 0)
    for x, y in sorted(view.board):
        for dx, dy in NEIGHBOURS:
            if (x + dx, y + dy) not in view.board:
                return {"tile": tile, "x": x + dx, "y": y + dy, "orientation": "N", "zone": None}
    raise AssertionError("no free square")


class StubRules:
    name = "carcassonne"
    parameters: Sequence[Parameter] = (
        Parameter("players", "int", "number of players", 2, 2, 5),
        Parameter("pile", "string", "named", "named"),
    )

    def __init__(self, withBot: bool = True) -> None:
        self.withBot = withBot

    def start(self, params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
              rng: random.Random | None = None) -> StubGame | Errors:
        checked = checkParameters(self.parameters, params)
        if isinstance(checked, Errors):
            return checked
        return StubGame(checked)

    def bot(self, params: Mapping[str, JSON]) -> Any:
        return stubBot if self.withBot else None


def makeServer(settings: CarcassonneSettings = CarcassonneSettings(),
               rules: StubRules | None = None) -> tuple[CarcassonneServer, Clock]:
    """A server on a test clock; ``rules`` is the registry's ``carcassonne`` engine."""
    clock = Clock()
    registry = EngineRegistry({"carcassonne": rules} if rules is not None else {})
    hub = Hub(clock, rng=random.Random(7), registry=registry)
    return CarcassonneServer(settings, hub=hub), clock


class Conn:
    """One connection to a server, on a string transport."""

    def __init__(self, server: CarcassonneServer) -> None:
        factory = CarcassonneServerFactory(server)
        protocol = factory.buildProtocol(None)
        assert protocol is not None
        self.protocol: CarcassonneServerProtocol = protocol
        self.transport = StringTransport()
        protocol.makeConnection(self.transport)

    def send(self, *lines: bytes) -> None:
        self.protocol.dataReceived(b"".join(line + b"\n" for line in lines))

    def say(self, *messages: wire.Message) -> None:
        self.protocol.dataReceived(b"".join(wire.format(m) for m in messages))

    def received(self) -> list[wire.Message]:
        """The messages written since the last call."""
        data = self.transport.value()
        self.transport.clear()
        out: list[wire.Message] = []
        for line in data.split(b"\n")[:-1]:
            message = wire.parse(line)
            assert not isinstance(message, wire.Malformed), (line, message)
            out.append(message)
        return out

    @property
    def closed(self) -> bool:
        return bool(self.transport.disconnecting)


def startGame(server: CarcassonneServer, count: int) -> tuple[list[Conn], list[list[wire.Message]]]:
    """
    ``count`` connections that said HELLO (answering each other's), then
    READY: a started game; each one's messages so far (the first player's
    end with its TOKEN).
    """
    conns: list[Conn] = []
    for _ in range(count):
        conn = Conn(server)
        conn.say(wire.Hello(0))
        for other in conns:
            other.say(wire.HelloAck(0))
        conns.append(conn)
    for conn in conns:
        conn.say(wire.Ready(0))
    return conns, [conn.received() for conn in conns]
