"""
The engine JSON protocol end to end, against the real service listening on
127.0.0.1: a JSON player over the web port's WebSocket (as the page plays),
a MaîtreTarot client over TCP and two bots at one Tarot table.
"""

from __future__ import annotations

import json
from typing import Any

import treq
from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.task import deferLater
from twisted.trial.unittest import TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.engine.record import GameRecord, replay
from gameproto.enginejson import wire
from gameproto.enginejson.protocol import EngineJsonClientProtocol
from gameproto.games.tarot import TAROT
from gameproto.web.websocket import connectMessageProtocol

from gameproto.test.service_helpers import Server
from gameproto.test.test_maitretarot_loopback import Done


class LastZonePlayer(EngineJsonClientProtocol):
    """
    A JSON player that answers every request by clicking the centre of the
    last zone of the CLICK asked of it: the highest bid, the last legal
    card, and "stop" when the deal is over.  With an action on its way, it
    waits for the instructions that follow it (``by`` is its own number)
    or the errors, as the other seats may move meanwhile.  It plays through
    the client's hooks, each message typed; it keeps every raw one too.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.ended: defer.Deferred[wire.Ended] = defer.Deferred()
        self.inFlight = False

    def messageReceived(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        super().messageReceived(message)

    def helloReceived(self, message: wire.Hello) -> None:
        self.send(wire.Queue("tarot", self.name))

    def errorsReceived(self, message: wire.Errors) -> None:
        self.inFlight = False

    def instructionsReceived(self, message: wire.Instructions) -> None:
        if self.inFlight and message.by != message.player:
            return  # another seat moved; ours is still on its way
        self.inFlight = False
        for request in message.requested_actions:
            if request["type"] == "CLICK":
                zone = request["zones"][-1]
                self.send(wire.Action({"type": "CLICK", "button": "LEFT",
                                       "x": zone["x"] + zone["width"] / 2,
                                       "y": zone["y"] + zone["height"] / 2}))
                self.inFlight = True
                break

    def endedReceived(self, message: wire.Ended) -> None:
        if not self.ended.called:
            self.ended.callback(message)

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.messages]


class TarotTableTests(TestCase):
    timeout = 90

    async def setUp(self) -> None:  # type: ignore[override]  # trial awaits a coroutine setUp
        self.server = Server(self, [], "--maitretarot-bots-after", "1",
                             "--maitretarot-bot-delay", "0",
                             ports=("web", "connect4", "maitretarot"))
        await self.server.start()
        self.addCleanup(self.server.stop)

    async def test_webSocketPlayerMaitreTarotClientAndBots(self) -> None:
        """
        One deal at one table: the JSON player is seated with the MaîtreTarot
        client and two bots, plays every request it gets without an error,
        hears the end; the record lists all four and replays to the scores.
        """
        player = LastZonePlayer("wendy")
        await connectMessageProtocol(
            reactor, f"ws://127.0.0.1:{self.server.ports['web']}/engine", player,
            wire.MAX_MESSAGE, text=True)

        def close() -> None:
            if player.transport is not None:
                player.transport.loseConnection()

        self.addCleanup(close)
        for _ in range(500):
            if "queued" in player.kinds():
                break
            await deferLater(reactor, 0.01, lambda: None)
        self.assertIn("queued", player.kinds())
        mario = Done("mario", 1)
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["maitretarot"])
        await connectProtocol(endpoint, mario)
        ended = await player.ended
        await mario.done

        seated = [m for m in player.messages if m["type"] == "seated"]
        self.assertEqual(len(seated), 1)
        names = seated[0]["players"]
        self.assertEqual(sorted(names)[2:], ["mario", "wendy"])
        self.assertTrue(all(n.startswith("bot") for n in sorted(names)[:2]), names)
        self.assertNotIn("errors", player.kinds())
        self.assertNotIn("problem", player.kinds())
        self.assertEqual(ended.error, None)
        assert ended.scores is not None
        self.assertEqual(sum(ended.scores), 0)
        self.assertEqual(len(mario.scores), 1)
        self.assertTrue(mario.ended)
        asked = [m for m in player.messages if m["type"] == "instructions"
                 and m["requested_actions"]]
        self.assertGreaterEqual(len(asked), 18, "a bid and eighteen cards at least")
        self.assertTrue(all(m["displays"][0]["content"] for m in asked))

        pool = HTTPConnectionPool(reactor, persistent=False)
        response = await treq.get(f"{self.server.url}api/games/{ended.game}/record",
                                  pool=pool)
        record = GameRecord.fromJSON(json.loads(await response.content()))
        self.assertEqual(record.status, "finished")
        self.assertEqual(record.seats, names)
        self.assertEqual(record.scores, list(ended.scores))
        engine = replay(TAROT, record)
        self.assertEqual(list(engine.instructions().game_state.scores), list(ended.scores))

