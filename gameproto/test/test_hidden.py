"""
Hidden information stays hidden while a game is live, through every door of
the HTTP API (with treq against the real service on 127.0.0.1): the
listing, a game's state, its record and its replays.  A seat's own view of
a live game is its holder's, who proves it with the seat's token; a
finished game is public.
"""

from __future__ import annotations

import json
from typing import Any

import treq
from twisted.internet import reactor
from twisted.internet.task import deferLater
from twisted.trial.unittest import SynchronousTestCase, TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.engine.contract import (
    Instructions,
    Seat,
    hasHiddenInformation,
    isPublicAction,
)
from gameproto.engine.hub import Hub
from gameproto.engine.record import GameRecord, hashToken, replay
from gameproto.engine.relay import RelayEngine
from gameproto.engine.table import Table
from gameproto.games.connect4 import ENGINE as CONNECT4
from gameproto.games.tarot import GARDE, TAROT, TarotGame, legalBids, tarotBot
from gameproto.test.service_helpers import Server


JSON_BODY: dict[bytes | str, bytes | str] = {b"content-type": b"application/json"}
"""The headers of a JSON request body."""


class Person:
    """A guest of the hub standing for a person at seat 1: the test plays its moves."""

    name = "ann"

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        pass

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        pass


class DeclarationTests(TestCase):
    """What each engine declares of its live games."""

    def test_declared(self) -> None:
        self.assertFalse(hasHiddenInformation(CONNECT4))
        self.assertTrue(hasHiddenInformation(TAROT))
        self.assertTrue(hasHiddenInformation(RelayEngine()))
        self.assertTrue(hasHiddenInformation(object()))  # nothing declared: hidden, to be safe
        self.assertTrue(isPublicAction(CONNECT4, 0, 3))
        self.assertTrue(isPublicAction(TAROT, 0, {"bid": 2}))
        self.assertTrue(isPublicAction(TAROT, 0, {"card": 7}))
        self.assertFalse(isPublicAction(TAROT, 0, {"discard": [1, 2, 3, 4, 5, 6]}))
        self.assertFalse(isPublicAction(object(), 0, {"card": 7}))
        self.assertTrue(isPublicAction(RelayEngine(), 0, {"move": 1, "token": 5}))


class HiddenInformationAPITests(TestCase):
    timeout = 60

    async def setUp(self) -> None:  # type: ignore[override]  # trial awaits a coroutine setUp
        self.server = Server(self, [])
        await self.server.start()
        self.addCleanup(self.server.stop)
        self.pool = HTTPConnectionPool(reactor, persistent=False)

    async def request(self, path: str, headers: Any = None
                      ) -> tuple[int, Any, str]:
        """GET ``path``: the status, the JSON body and the body's text."""
        response = await treq.get(self.server.url + path.lstrip("/"), headers=headers,
                                  pool=self.pool)
        text = (await response.content()).decode("utf-8")
        return response.code, json.loads(text), text

    async def get(self, path: str, headers: Any = None) -> Any:
        code, answer, _ = await self.request(path, headers)
        self.assertEqual(code, 200, (path, answer))
        return answer

    @property
    def hub(self) -> Hub:
        hub: Hub = self.server.service.hub
        return hub

    async def tarotWithADiscard(self) -> tuple[Table, str]:
        """
        A live Tarot game whose first seat a person holds (its token) and
        plays as a garde when it can, the bots the others, until a discard
        has been made and the cards are being played.
        """
        response = await treq.post(self.server.url + "api/games",
                                   data=json.dumps({"engine": "tarot", "bots": [2, 3, 4]}).encode(),
                                   headers=JSON_BODY,
                                   pool=self.pool)
        created = json.loads(await response.content())
        self.assertEqual(response.code, 201, created)
        table = self.hub.findTable(created["id"])
        assert table is not None
        self.assertIsNone(self.hub.join(table.id, Person(), 1))
        token = self.hub.claim(table, 0)
        game = table.engine
        assert isinstance(game, TarotGame)
        for _ in range(3000):
            kinds = [next(iter(a.action)) for a in table.record.actions
                     if isinstance(a.action, dict)]
            if "discard" in kinds and game.phase == "play" and len(game.played) >= 2:
                return table, token
            if 0 in table.waiting:
                move = tarotBot(game.view(0), 0)
                if game.phase == "bidding" and GARDE in legalBids(game.bids):
                    move = {"bid": GARDE}
                elif game.phase == "end":
                    move = {"replay": True}
                table.act(0, move)
            await deferLater(reactor, 0.001, lambda: None)
        self.fail("no discard was made")

    async def test_liveTarotKeepsItsSecrets(self) -> None:
        """
        The record of a live Tarot game has no seed and no discard (bids and
        played cards are there); the listing and the state show neither;
        replays show a spectator's view, and a seat's only with its token.
        """
        table, token = await self.tarotWithADiscard()
        seed = str(table.engine.initvalues["seed"])
        discard = next(a for a in table.record.actions
                       if isinstance(a.action, dict) and "discard" in a.action)
        turn = table.record.actions.index(discard) + 1
        game = f"/api/games/{table.id}"

        code, record, text = await self.request(f"{game}/record")
        self.assertEqual(code, 200)
        self.assertIsNone(record["initvalues"])
        self.assertTrue(record["withheld"])
        self.assertNotIn(seed, text)
        self.assertEqual(len(record["actions"]), len(table.record.actions))
        shown = record["actions"][turn - 1]
        self.assertEqual((shown["action"], shown["hidden"], shown["seat"]),
                         (None, True, discard.seat))
        self.assertNotIn(json.dumps(discard.action["discard"]), text)
        public = [a for a in record["actions"] if not a.get("hidden")]
        self.assertTrue(any("bid" in a["action"] for a in public))
        self.assertTrue(any("card" in a["action"] for a in public))
        self.assertEqual(len(public), len(record["actions"]) - 1)

        for path in ("/api/games", "/api/games?status=live", game):
            _, answer, text = await self.request(path)
            self.assertNotIn(seed, text, path)
            self.assertNotIn("initvalues", text, path)

        spectator = await self.get(f"{game}/replay?turn={turn}")
        self.assertIsNone(spectator["action"]["action"])
        self.assertEqual(spectator["displays"],
                         [replay(TAROT, table.record, turn).display(None).asJSON()])

        for query in ("player=1", "player=1&token=wrong", f"player=2&token={token}",
                      f"player=1&token={token}x"):
            code, refused, _ = await self.request(f"{game}/replay?{query}")
            self.assertEqual(code, 403, query)
            self.assertIn("token", refused["error"])

        mine = await self.get(f"{game}/replay?turn={turn}&player=1&token={token}")
        self.assertEqual(mine["displays"],
                         [replay(TAROT, table.record, turn).display(0).asJSON()])
        if discard.seat == 0:
            self.assertEqual(mine["action"]["action"], discard.action)
        bearer = await self.get(f"{game}/replay?turn={turn}&player=1",
                                {b"authorization": [b"Bearer " + token.encode()]})
        self.assertEqual(bearer["displays"], mine["displays"])

    async def test_finishedIsPublic(self) -> None:
        """Once over, the record is whole and every seat's replay is anyone's."""
        table, token = await self.tarotWithADiscard()
        game = table.engine
        assert isinstance(game, TarotGame)
        for _ in range(3000):
            if table.finished:
                break
            if 0 in table.waiting:
                move = ({"replay": False} if game.phase == "end"
                        else tarotBot(game.view(0), 0))
                table.act(0, move)
            await deferLater(reactor, 0.001, lambda: None)
        self.assertTrue(table.finished)
        url = f"/api/games/{table.id}"
        record = await self.get(f"{url}/record")
        self.assertEqual(record["initvalues"], dict(game.initvalues))
        self.assertNotIn("withheld", record)
        self.assertEqual(GameRecord.fromJSON(record).actions, table.record.actions)
        for player in (1, 2, 3, 4):
            answer = await self.get(f"{url}/replay?turn=20&player={player}")
            self.assertEqual(answer["displays"],
                             [replay(TAROT, table.record, 20).display(player - 1).asJSON()])

    async def test_tokenStoredHashed(self) -> None:
        """The store keeps a seat token's sha256, never the token."""
        response = await treq.post(self.server.url + "api/games",
                                   data=json.dumps({"engine": "connect4"}).encode(),
                                   headers=JSON_BODY,
                                   pool=self.pool)
        created = json.loads(await response.content())
        table = self.hub.findTable(created["id"])
        assert table is not None
        self.assertIsNone(self.hub.join(table.id, Person(), 1))
        token = self.hub.claim(table, 0)
        self.assertGreaterEqual(len(token), 22)  # at least 128 bits, url-safe base64
        self.assertEqual(table.record.tokens, {0: hashToken(token)})
        store: Any = self.hub.store
        rows = store._db.execute("SELECT game, seat, hash FROM seat_tokens").fetchall()
        self.assertEqual(rows, [(table.id, 0, hashToken(token))])
        self.assertNotIn(token, json.dumps(table.record.asJSON()))

    async def test_noHiddenInformation(self) -> None:
        """A live Connect Four game hides nothing: its record and seats' views are public."""
        response = await treq.post(self.server.url + "api/games",
                                   data=json.dumps({"engine": "connect4", "bots": [2]}).encode(),
                                   headers=JSON_BODY,
                                   pool=self.pool)
        created = json.loads(await response.content())
        record = await self.get(f"/api/games/{created['id']}/record")
        self.assertEqual(record["status"], "live")
        self.assertEqual(record["initvalues"], {})
        self.assertNotIn("withheld", record)
        answer = await self.get(f"/api/games/{created['id']}/replay?player=1")
        self.assertEqual(answer["requested_actions"][0]["type"], "CLICK")


class WatchTests(SynchronousTestCase):
    """The engine JSON ``watch`` of a live Tarot game shows no card of any hand."""

    def test_spectatorSeesNoHand(self) -> None:
        from gameproto.test.test_enginejson import Harness

        harness = Harness()
        player, spectator = harness.connect(), harness.connect()
        player.send({"type": "create", "engine": "tarot", "init": {}, "bots": [2, 3, 4]})
        game = player.last("created")["game"]
        spectator.send({"type": "watch", "game": game})
        table = harness.hosted(game)
        engine = table.engine
        assert isinstance(engine, TarotGame)
        phases = set()
        for _ in range(200):
            shown = spectator.last("instructions")["displays"][0]
            cards = {int(tag["content"]) for tag in shown["content"]
                     if tag.get("tag") == "text" and tag.get("font-size") == 9}
            hidden = set().union(*engine.hands) - set(engine.chien)
            self.assertEqual(cards & hidden, set(), engine.phase)
            self.assertEqual(shown, engine.display(None).asJSON())
            phases.add(engine.phase)
            if engine.phase == "play" and len(engine.played) > 8:
                break
            if 0 in table.waiting:
                move = tarotBot(engine.view(0), 0)
                if engine.phase == "bidding" and GARDE in legalBids(engine.bids):
                    move = {"bid": GARDE}
                elif engine.phase == "end":
                    move = {"replay": True}
                table.act(0, move)
            harness.clock.advance(0)
        self.assertIn("play", phases)
