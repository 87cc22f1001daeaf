"""
Carcassonne games played without the referee (``--carcassonne-referee
off``) replay through the HTTP API: their records name the relay engine
(``carcassonne-relay``), which the server puts in the hub's registry.
"""

from __future__ import annotations

import json
import random
from typing import Any

import treq
from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.carcassonne.protocol import CarcassonneClientProtocol
from gameproto.carcassonne.server import MOVES, RELAY
from gameproto.engine.record import GameRecord, replay
from gameproto.test.service_helpers import Server


class Client(CarcassonneClientProtocol):
    """A library client playing with its bot; ``done`` fires when it is gone."""

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, random.Random(seed))
        self.done: defer.Deferred[None] = defer.Deferred()

    def connectionLost(self, reason: Failure = Failure(Exception())) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


class RefereelessReplayTests(TestCase):
    timeout = 60

    async def setUp(self) -> None:  # type: ignore[override]  # trial awaits a coroutine setUp
        self.server = Server(self, [], "--carcassonne-referee", "off",
                             ports=("web", "carcassonne"))
        await self.server.start()
        self.addCleanup(self.server.stop)
        self.pool = HTTPConnectionPool(reactor, persistent=False)

    async def get(self, path: str) -> Any:
        response = await treq.get(self.server.url + path.lstrip("/"), pool=self.pool)
        content = await response.content()
        self.assertEqual(response.code, 200, (path, content))
        return json.loads(content)

    async def play(self, players: int) -> None:
        """A whole game of ``players`` library clients over TCP on 127.0.0.1."""
        clients = [Client(players, seed) for seed in range(players)]
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["carcassonne"])
        for client in clients:
            await connectProtocol(endpoint, client)
        await defer.gatherResults([c.done for c in clients])
        for client in clients:
            self.assertTrue(client.finished)

    async def test_replay(self) -> None:
        """
        The record of a refereeless game names the relay; the API gives it
        and replays it at any turn, as the relay engine itself does.
        """
        await self.play(2)
        games = (await self.get("/api/games"))["games"]
        [summary] = [g for g in games if g["engine"] == RELAY.name]
        game = summary["id"]
        shown = await self.get(f"/api/games/{game}/record")
        self.assertEqual(shown["engine"], RELAY.name)
        self.assertEqual(len(shown["actions"]), MOVES + 1)  # and the finish
        record = self.server.service.hub.store.get(game)
        assert isinstance(record, GameRecord)
        for turn in (0, 1, 30, MOVES + 1):
            replayed = await self.get(f"/api/games/{game}/replay?turn={turn}")
            engine = replay(RELAY, record, turn)
            self.assertEqual(replayed["turn"], turn)
            self.assertEqual(replayed["game_state"], engine.instructions().game_state.asJSON())
            self.assertEqual(replayed["displays"], [engine.display(None).asJSON()])
            self.assertEqual(replayed["game_state"]["gameover"], turn == MOVES + 1)
