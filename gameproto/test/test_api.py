"""
The HTTP API with treq against the real service listening on 127.0.0.1:
engines, games of every protocol (paged), creating games and their init
errors, a game's state, its record, and replays to any turn for any seat.
"""

from __future__ import annotations

import json
from typing import Any

import treq
from twisted.internet import reactor
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import connectionDone
from twisted.internet.task import deferLater
from twisted.python.failure import Failure
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase, TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.connect4.protocol import Connect4ClientProtocol
from gameproto.engine.contract import describe
from gameproto.engine.hub import Hub
from gameproto.engine.record import GameRecord, replay
from gameproto.games.connect4 import ENGINE as CONNECT4, Board, choose_column
from gameproto.games.tarot import TAROT
from gameproto import jsonutil
from gameproto.web import api

from gameproto.test import sourceTree
from gameproto.test.service_helpers import Server
from gameproto.test.test_hub import Guest
from gameproto.test.test_metrics import apiCall, playedGame

ROOT = sourceTree()
TICTACTOE = ROOT / "examples" / "engines" / "tictactoe" if ROOT is not None else None


class TCPPlayer(Connect4ClientProtocol):
    """A Protuissance 4 client over TCP: one game with the library's bot, then it leaves."""

    def __init__(self, nick: str) -> None:
        super().__init__(nick)
        self.done: Deferred[None] = Deferred()

    def chooseMove(self, board: Board) -> int:
        return choose_column(board, 1)

    def playAgain(self) -> bool:
        return False

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


class APITests(TestCase):
    timeout = 60

    async def setUp(self) -> None:  # type: ignore[override]  # trial awaits a coroutine setUp
        engines = [f"tictactoe={TICTACTOE}"] if TICTACTOE is not None else []
        self.server = Server(self, engines)
        await self.server.start()
        self.addCleanup(self.server.stop)
        self.pool = HTTPConnectionPool(reactor, persistent=False)

    async def request(self, method: str, path: str, body: Any = None,
                      raw: bytes | None = None) -> tuple[int, Any, Any]:
        """``method path``: the status, the JSON body and the headers."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        headers: dict[bytes | str, list[bytes | str]] | None = (
            {"content-type": ["application/json"]} if method == "POST" else None)
        response = await treq.request(method, self.server.url + path.lstrip("/"), data=data,
                                      headers=headers, pool=self.pool)
        content = await response.content()
        self.assertEqual(response.headers.getRawHeaders("content-type"),
                         ["application/json; charset=utf-8"], path)
        return response.code, json.loads(content), response.headers

    async def get(self, path: str) -> Any:
        code, answer, _ = await self.request("GET", path)
        self.assertEqual(code, 200, (path, answer))
        return answer

    async def finished(self, game: int) -> dict[str, Any]:
        """The game, once it is no longer live (bots play it out)."""
        for _ in range(500):
            shown = await self.get(f"/api/games/{game}")
            if shown["status"] != "live":
                return shown
            await deferLater(reactor, 0.02, lambda: None)
        self.fail(f"game {game} still live")

    async def test_root(self) -> None:
        self.assertEqual(await self.get("/api"),
                         {"engines": "/api/engines", "games": "/api/games",
                          "matchmaking": "/api/matchmaking"})

    async def test_matchmaking(self) -> None:
        """
        The protocols' matchmakers, open to players of any protocol (the
        page's queues), with who waits there now: a Protuissance 4 client
        in the queue, a guest at each waiting room (MaîtreTarot, Carcassonne,
        FreeDoko).
        """
        nobody = {"waiting": 0, "players": []}
        self.assertEqual(await self.get("/api/matchmaking"), {"matchmaking": [
            {"engine": "carcassonne", "title": "Carcassonne", **nobody},
            {"engine": "connect4", "title": "Protuissance 4", **nobody},
            {"engine": "doppelkopf", "title": "FreeDoko", **nobody},
            {"engine": "tarot", "title": "MaîtreTarot", **nobody},
        ]})
        player = TCPPlayer("ann")
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["connect4"])
        await connectProtocol(endpoint, player)
        hub = self.server.service.hub
        guests = {"carcassonne": Guest("cy"), "doppelkopf": Guest("dee"), "tarot": Guest("bob")}
        for engine, guest in guests.items():
            self.assertIsNone(hub.matchmakers[engine].enqueue(guest))
        for _ in range(100):
            waiting = {m["engine"]: (m["waiting"], m["players"])
                       for m in (await self.get("/api/matchmaking"))["matchmaking"]}
            if waiting["connect4"][0]:
                break
            await deferLater(reactor, 0.02, lambda: None)
        self.assertEqual(waiting, {"carcassonne": (1, ["cy"]), "connect4": (1, ["ann"]),
                                   "doppelkopf": (1, ["dee"]), "tarot": (1, ["bob"])})
        for engine, guest in guests.items():
            hub.matchmakers[engine].dequeue(guest)
        assert player.transport is not None
        player.transport.loseConnection()
        await player.done
        for _ in range(100):
            waiting = {m["engine"]: m["waiting"]
                       for m in (await self.get("/api/matchmaking"))["matchmaking"]}
            if not any(waiting.values()):
                break
            await deferLater(reactor, 0.02, lambda: None)
        self.assertEqual(set(waiting.values()), {0})

    async def test_engines(self) -> None:
        """Every engine, with its parameter description as the document writes it."""
        engines = {e["name"]: e for e in (await self.get("/api/engines"))["engines"]}
        self.assertEqual(engines["connect4"]["parameters"], describe(CONNECT4.parameters))
        self.assertEqual(engines["tarot"]["parameters"], describe(TAROT.parameters))
        if TICTACTOE is not None:
            manifest = json.loads((TICTACTOE / "manifest.json").read_text())
            self.assertEqual(engines["tictactoe"]["parameters"], manifest["parameters"])

    async def test_createPlayAndReplay(self) -> None:
        """
        A game of two bots created over HTTP: its record, and its replay at
        every turn for each seat and a spectator, equal the engine rebuilt
        here from the record.
        """
        code, made, _ = await self.request("POST", "/api/games",
                                           {"engine": "connect4", "init": {}, "bots": [1, 2]})
        self.assertEqual(code, 201, made)
        self.assertEqual(made, {"id": made["id"], "engine": "connect4",
                                "url": f"/api/games/{made['id']}"})
        shown = await self.finished(made["id"])
        self.assertEqual(shown["status"], "finished")
        self.assertEqual(shown["seats"], ["bot1", "bot2"])
        self.assertTrue(shown["game_state"]["gameover"])
        record = GameRecord.fromJSON(await self.get(f"/api/games/{made['id']}/record"))
        self.assertEqual(len(record.actions), shown["turns"])
        self.assertEqual(record.scores, shown["scores"])
        assert record.scores is not None
        self.assertEqual(replay(CONNECT4, record).instructions().game_state.scores,
                         tuple(record.scores))
        for turn in range(len(record.actions) + 1):
            engine = replay(CONNECT4, record, turn)
            instructions = engine.instructions()
            for player in (None, 1, 2):
                query = f"turn={turn}" + ("" if player is None else f"&player={player}")
                answer = await self.get(f"/api/games/{made['id']}/replay?{query}")
                seat = None if player is None else player - 1
                self.assertEqual(answer["displays"], [engine.display(seat).asJSON()])
                self.assertEqual(answer["requested_actions"],
                                 [r.asJSON() for r in instructions.requested_actions
                                  if r.player == seat])
                self.assertEqual(answer["game_state"], instructions.game_state.asJSON())
                self.assertEqual(answer["waiting_for"],
                                 [r.player + 1 for r in instructions.requested_actions])
                self.assertEqual(answer["action"],
                                 record.actions[turn - 1].asJSON() if turn else None)
                self.assertEqual((answer["turn"], answer["turns"], answer["player"]),
                                 (turn, len(record.actions), player))
        # Without a turn: the end of the game.
        last = await self.get(f"/api/games/{made['id']}/replay")
        self.assertEqual(last["turn"], len(record.actions))

    async def test_createErrors(self) -> None:
        """The document's INITIALISATION errors, and the API's own, with fitting statuses."""
        code, answer, _ = await self.request(
            "POST", "/api/games", {"engine": "connect4", "init": {"width": 3, "colour": "red"}})
        self.assertEqual(code, 400)
        self.assertEqual(sorted(answer["errors"], key=lambda e: e["type"]), [
            {"type": "INCORRECT_VALUE", "arg": "width", "value": 3},
            {"type": "UNEXPECTED_ARGUMENT", "argname": "colour", "value": "red"}])
        # An engine's words for a refused value, for the page to show:
        code, answer, _ = await self.request(
            "POST", "/api/games", {"engine": "doppelkopf", "init": {"rules": "nonsense"}})
        self.assertEqual((code, answer["errors"]), (400, [
            {"type": "INCORRECT_VALUE", "arg": "rules", "value": "nonsense",
             "text": "Rules line 1 (“nonsense”) is neither “name = value” nor a “#” comment."}]))
        if TICTACTOE is not None:
            code, answer, _ = await self.request("POST", "/api/games",
                                                 {"engine": "tictactoe", "init": {}})
            self.assertEqual(code, 400)
            self.assertEqual(answer["errors"], [{"type": "MISSING_ARGUMENT", "arg": "players"}])
        code, answer, _ = await self.request("POST", "/api/games", {"engine": "chess"})
        self.assertEqual((code, answer), (404, {"error": "no engine 'chess'"}))
        for body in (b"{not json", b"[]", b'{"init": {}}', b'{"engine": 4}',
                     b'{"engine": "connect4", "init": []}',
                     b'{"engine": "connect4", "bots": ["1"]}'):
            code, answer, _ = await self.request("POST", "/api/games", raw=body)
            self.assertEqual((code, answer["errors"]), (400, [{"type": "BAD_FORMAT"}]), body)
        code, answer, _ = await self.request("POST", "/api/games",
                                             {"engine": "connect4", "bots": [3]})
        self.assertEqual((code, answer), (400, {"error": "bots must be players 1..2"}))
        code, answer, _ = await self.request("POST", "/api/games",
                                             raw=b" " * (api.MAX_BODY + 1))
        self.assertEqual((code, answer), (413, {"error": "body too large"}))
        code, answer, headers = await self.request("DELETE", "/api/games")
        self.assertEqual((code, answer), (405, {"error": "method not allowed"}))
        self.assertEqual(headers.getRawHeaders("allow"), ["GET, POST"])
        listed = await self.get("/api/games")
        self.assertEqual(listed["total"], 0, "nothing was created")

    async def test_liveGame(self) -> None:
        """A game with open seats: whose turn, which seats are open, joinable."""
        code, made, _ = await self.request("POST", "/api/games", {"engine": "connect4"})
        self.assertEqual(code, 201)
        shown = await self.get(f"/api/games/{made['id']}")
        self.assertEqual(
            {k: shown[k] for k in ("status", "seats", "open", "joinable", "waiting_for",
                                   "game_state", "turns", "players", "engine", "params")},
            {"status": "live", "seats": ["(open)", "(open)"], "open": [1, 2], "joinable": True,
             "waiting_for": [1], "game_state": {"scores": [0, 0], "gameover": False},
             "turns": 0, "players": 2, "engine": "connect4",
             "params": {"players": 2, "width": 7, "height": 6}})
        (listed,) = (await self.get("/api/games?status=live"))["games"]
        self.assertEqual((listed["id"], listed["open"], listed["joinable"]),
                         (made["id"], [1, 2], True))
        self.assertEqual((await self.get("/api/games?status=finished"))["games"], [])
        replayed = await self.get(f"/api/games/{made['id']}/replay?turn=0&player=1")
        self.assertEqual(replayed["requested_actions"][0]["type"], "CLICK")

    async def test_listingEveryProtocolPaged(self) -> None:
        """
        Games created over HTTP and a Protuissance 4 game between two TCP
        clients are listed together, newest first, a page at a time.
        """
        made = []
        for _ in range(3):
            code, answer, _ = await self.request(
                "POST", "/api/games", {"engine": "connect4", "bots": [1, 2]})
            made.append(answer["id"])
        players = [TCPPlayer("ann"), TCPPlayer("bob")]
        for player in players:
            endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["connect4"])
            await connectProtocol(endpoint, player)
        for player in players:
            await player.done
        for game in made:
            await self.finished(game)
        everything = await self.get("/api/games?limit=200")
        self.assertEqual(everything["total"], 4)
        ids = [g["id"] for g in everything["games"]]
        self.assertEqual(ids, sorted(ids, reverse=True))
        (tcp,) = [g for g in everything["games"] if g["id"] not in made]
        self.assertEqual((sorted(tcp["seats"]), tcp["status"], tcp["engine"]),
                         (["ann", "bob"], "finished", "connect4"))
        self.assertGreater(tcp["turns"], 6)
        first = await self.get("/api/games?limit=3")
        second = await self.get("/api/games?offset=3&limit=3")
        self.assertEqual((first["total"], first["offset"], first["limit"]), (4, 0, 3))
        self.assertEqual([g["id"] for g in first["games"] + second["games"]], ids)
        self.assertEqual(len((await self.get("/api/games?status=finished"))["games"]), 4)
        self.assertEqual((await self.get("/api/games?offset=10"))["games"], [])
        for query in ("limit=0", "limit=201", "limit=x", "offset=-1", "status=over"):
            code, answer, _ = await self.request("GET", f"/api/games?{query}")
            self.assertEqual(code, 400, query)
            self.assertIn("error", answer)

    async def test_notFound(self) -> None:
        code, made, _ = await self.request("POST", "/api/games",
                                           {"engine": "connect4", "bots": [1, 2]})
        await self.finished(made["id"])
        game = f"/api/games/{made['id']}"
        for path in ("/api/games/999999", "/api/games/abc", f"{game}/nothing", "/api/nothing",
                     "/api/engines/chess/sprites.zip", "/api/engines/connect4/sprites.zip"):
            code, answer, _ = await self.request("GET", path)
            self.assertEqual((code, answer), (404, {"error": "no such resource"}), path)
        for query in ("turn=999", "turn=-1", "turn=x", "player=3", "player=0"):
            code, answer, _ = await self.request("GET", f"{game}/replay?{query}")
            self.assertEqual(code, 400, query)
        code, answer, _ = await self.request("POST", f"{game}/record", {})
        self.assertEqual(code, 405)

    async def test_replaysPerPeer(self) -> None:
        """
        One address has MAX_REPLAYS_PER_PEER replays running or waiting at
        most; past it, 429 with Retry-After, until one of them is over.
        """
        code, made, _ = await self.request("POST", "/api/games",
                                           {"engine": "connect4", "bots": [1, 2]})
        await self.finished(made["id"])
        replays = self.server.service.getServiceNamed("web").factory.resource.children[
            b"api"].replays
        for _ in range(api.MAX_REPLAYS):
            await replays.acquire()
        path = f"/api/games/{made['id']}/replay?turn=1"
        waiting = [Deferred.fromCoroutine(self.request("GET", path))
                   for _ in range(api.MAX_REPLAYS_PER_PEER)]
        while len(replays.waiting) < api.MAX_REPLAYS_PER_PEER:
            await deferLater(reactor, 0.01, lambda: None)
        code, answer, headers = await self.request("GET", path)
        self.assertEqual(code, 429, answer)
        self.assertEqual(headers.getRawHeaders("retry-after"), ["1"])
        for _ in range(api.MAX_REPLAYS):
            replays.release()
        for request in waiting:
            code, answer, _ = await request
            self.assertEqual((code, answer["turn"]), (200, 1))
        self.assertEqual((await self.get(path))["turn"], 1)

    async def test_replaysAtOnce(self) -> None:
        """
        At most MAX_REPLAYS replays are rebuilt at once; others wait, up to
        MAX_QUEUED_REPLAYS, and past that get 503.
        """
        code, made, _ = await self.request("POST", "/api/games",
                                           {"engine": "connect4", "bots": [1, 2]})
        await self.finished(made["id"])
        replays = self.server.service.getServiceNamed("web").factory.resource.children[
            b"api"].replays
        for _ in range(api.MAX_REPLAYS):
            await replays.acquire()
        self.patch(api, "MAX_QUEUED_REPLAYS", 1)
        waiting = Deferred.fromCoroutine(self.request("GET", f"/api/games/{made['id']}/replay?turn=1"))
        while not replays.waiting:
            await deferLater(reactor, 0.01, lambda: None)
        code, answer, _ = await self.request("GET", f"/api/games/{made['id']}/replay?turn=2")
        self.assertEqual((code, answer),
                         (503, {"error": "too many replays at once: try again shortly"}))
        self.assertFalse(waiting.called)
        replays.release()
        code, answer, _ = await waiting
        self.assertEqual((code, answer["turn"]), (200, 1))
        for _ in range(api.MAX_REPLAYS - 1):
            replays.release()
        self.assertEqual(replays.tokens, api.MAX_REPLAYS)


class ReplayCooperationTests(SynchronousTestCase):
    """A replay is rebuilt in the time slices of the hub's clock, not in one go."""

    def test_slices(self) -> None:
        clock = Clock()
        hub = Hub(clock)
        table = playedGame(self, hub, clock)
        request = apiCall(api.API(hub), b"GET", b"/api/games/%d/replay" % table.id)
        self.assertFalse(request.finished)  # the reactor runs before the game is rebuilt
        for _ in range(table.turn + 10):
            clock.advance(0)
        self.assertTrue(request.finished)
        answer = json.loads(b"".join(request.written))
        self.assertEqual(answer["turn"], table.turn)


class PlainJSONTests(SynchronousTestCase):
    """The API checks a body with the shared L{gameproto.jsonutil.plainJSON}."""

    def test_shared(self) -> None:
        self.assertIs(api.plainJSON, jsonutil.plainJSON)

    def test_answers(self) -> None:
        deep: Any = []
        for _ in range(5000):
            deep = [deep]
        self.assertEqual(jsonutil.plainJSON(deep), "JSON nested deeper than 64 levels")
        self.assertEqual(jsonutil.plainJSON({"a": "\ud800"}), "strings must be valid Unicode")
        self.assertEqual(jsonutil.plainJSON({"\udfff": 1}), "strings must be valid Unicode")
        self.assertEqual(jsonutil.plainJSON([1.0, float("nan")]), "numbers must be finite")
        self.assertIsNone(jsonutil.plainJSON({"engine": "tarot", "init": {"x": [1, 2.5, None]}}))
        self.assertIsNone(jsonutil.plainJSON([[[]]], maxDepth=3))
        self.assertIsNotNone(jsonutil.plainJSON([[[[]]]], maxDepth=3))
