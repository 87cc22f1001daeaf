"""
Doppelkopf through every shared layer, on the real service listening on
127.0.0.1: a party of FreeDoko children is one ``doppelkopf`` game of the
HTTP API (listed, its record readable once finished, replayed to any turn
for any seat, a seat's view of the live game only to the holder of its
token); the engine JSON protocol creates ``doppelkopf`` games and plays
them to the end, and its ``queue`` seats a JSON player at a FreeDoko table
beside a real FreeDoko child, which agrees with the server on every trick.

The JSON player here decides with the engine's bot (reading its seat's view
from the live table, in this process) and acts only as any JSON client can:
a TEXT for a reservation or the poverty's cards, a click in the middle of
the card or button (``data-action``) its display draws.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import treq
from twisted.internet import defer, reactor, task
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.protocols.basic import LineReceiver
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase
from twisted.web.client import HTTPConnectionPool

from gameproto.engine.record import GameRecord, replay
from gameproto.freedoko import wire
from gameproto.freedoko.client import FreeDokoClientProtocol
from gameproto.games.doppelkopf import (
    DOPPELKOPF,
    HAND_Y,
    DoppelkopfParty,
    doppelkopfBot,
)
from gameproto.test.service_helpers import Server, until

_reactor: Any = reactor

ROUND_RULES = "number of rounds limited = true\nnumber of rounds = 1\n"
"""FreeDoko's default rules, one round (four games, one more after each solo)."""


def handShown(display: dict[str, Any]) -> list[str]:
    """The cards a display draws in the hand (below the buttons), sorted."""
    return sorted(str(tag["data-card"]) for tag in display["content"]
                  if tag.get("class") == "card" and tag["y"] >= HAND_Y)


class Child(FreeDokoClientProtocol):
    """A FreeDoko child of this library, playing with its bot; ``done`` fires when it is closed."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.done: defer.Deferred[None] = defer.Deferred()
        self.finished = False

    def partyFinished(self, totals: tuple[int, ...], summaries: list[Any]) -> None:
        self.finished = True
        if self.transport is not None:
            self.transport.loseConnection()

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


class JSONPlayer(LineReceiver):
    """
    A player of the engine JSON protocol over TCP; its bot decides with the
    seat's view of the live ``table`` (found in ``hub``), and it acts with
    what its display and requested actions say.
    """

    delimiter = b"\n"
    MAX_LENGTH = 10_000_000

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.seated: dict[str, Any] | None = None
        self.latest: dict[str, Any] | None = None
        self.ended: defer.Deferred[dict[str, Any]] = defer.Deferred()
        self.moves: dict[str, int] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.sendLine(json.dumps(message).encode())

    def lineReceived(self, line: bytes) -> None:
        message = json.loads(line)
        self.messages.append(message)
        kind = message.get("type")
        if kind == "seated":
            self.seated = message
        elif kind == "instructions":
            self.latest = message
            if message.get("requested_actions"):
                _reactor.callLater(0, self.decide, message)
        elif kind in ("errors", "problem"):
            self.errors.append(message)
        elif kind == "ended" and not self.ended.called:
            self.ended.callback(message)

    def decide(self, message: dict[str, Any]) -> None:
        if message is not self.latest or self.seated is None or self.ended.called:
            return
        table = self.hub.findTable(self.seated["game"])
        if table is None or table.finished:
            return
        party = cast(DoppelkopfParty, table.engine)
        seat = self.seated["player"] - 1
        move = doppelkopfBot(party.view(seat), seat)
        assert isinstance(move, dict), move
        ((kind, value),) = move.items()
        self.moves[kind] = self.moves.get(kind, 0) + 1
        if kind == "reservation":
            self.send({"type": "action", "action": {"type": "TEXT", "text": value}})
            return
        if kind in ("poverty shift", "poverty returned"):
            self.send({"type": "action", "action": {"type": "TEXT", "text": ", ".join(value)}})
            return
        (display,) = message["displays"]
        zones = [z for r in message["requested_actions"] if r["type"] == "CLICK"
                 for z in r.get("zones") or ()]
        if kind == "card":
            found = [t for t in display["content"] if t.get("data-card") == value
                     and t.get("class") == "card" and t["y"] >= HAND_Y]
        else:
            wanted = json.dumps(move, sort_keys=True)
            found = [t for t in display["content"] if t.get("data-action") == wanted]
        assert found, (move, message["requested_actions"])
        x, y = found[0]["x"] + found[0]["width"] / 2, found[0]["y"] + found[0]["height"] / 2
        assert any(z["x"] <= x < z["x"] + z["width"] and z["y"] <= y < z["y"] + z["height"]
                   for z in zones), (move, zones)
        self.send({"type": "action", "action": {"type": "CLICK", "x": int(x), "y": int(y),
                                                "button": "LEFT"}})


class LayerTests(TestCase):
    """The service with the web, FreeDoko and engine JSON ports, one round a party."""

    timeout = 240

    async def setUp(self) -> None:  # type: ignore[override]  # trial awaits a coroutine setUp
        rules = Path(self.mktemp())
        rules.write_text(ROUND_RULES, encoding="utf-8")
        self.server = Server(self, [], "--freedoko-rules", str(rules),
                             "--freedoko-bots-after", "2", "--freedoko-timeout", "30",
                             "--freedoko-bot-delay", "0.05",
                             ports=("web", "freedoko", "engine"))
        await self.server.start()
        self.addCleanup(self.server.stop)
        self.hub = self.server.service.hub
        self.pool = HTTPConnectionPool(_reactor, persistent=False)

    async def get(self, path: str, token: str | None = None,
                  status: int = 200) -> Any:
        headers: dict[bytes | str, list[bytes | str]] | None = (
            {b"authorization": [b"Bearer " + token.encode()]} if token else None)
        response = await treq.get(self.server.url + path.lstrip("/"), headers=headers,
                                  pool=self.pool)
        body = json.loads(await response.content())
        self.assertEqual(response.code, status, f"{path}: {body}")
        return body

    async def connect(self, port: str, protocol: Any) -> Any:
        endpoint = TCP4ClientEndpoint(_reactor, "127.0.0.1", self.server.ports[port])
        connected = await connectProtocol(endpoint, protocol)
        self.addCleanup(lambda: connected.transport.loseConnection())
        return connected

    async def finished(self, game: int, seconds: float) -> GameRecord:
        table = self.hub.findTable(game)
        if table is not None and not table.finished:
            done = table.whenFinished()
            timer = _reactor.callLater(seconds, done.cancel)
            try:
                await done
            except defer.CancelledError:
                self.fail(f"game {game} did not end in {seconds} s: "
                          f"{len(table.record.actions)} actions")
            finally:
                if timer.active():
                    timer.cancel()
        def stored() -> bool:
            record = self.hub.store.get(game)
            return record is not None and record.finished is not None

        await until(stored, 5)
        record = self.hub.store.get(game)
        assert record is not None
        return record

    async def checkReplays(self, game: int, record: GameRecord) -> None:
        """Finished: the record is public, and the replay shows any seat's hand at any turn."""
        public = await self.get(f"/api/games/{game}/record")
        self.assertEqual(public["engine"], "doppelkopf")
        self.assertEqual(len(public["actions"]), len(record.actions))
        self.assertIsNotNone(public["initvalues"])
        turns = len(record.actions)
        for turn in (0, 1, turns // 3, turns // 2, turns - 1, turns):
            for player in range(1, 5):
                answer = await self.get(f"/api/games/{game}/replay?turn={turn}&player={player}")
                self.assertEqual(answer["turn"], turn)
                here = replay(DOPPELKOPF, record, turn)
                assert isinstance(here, DoppelkopfParty)
                (display,) = answer["displays"]
                self.assertEqual(handShown(display), sorted(here.view(player - 1).hand))
                self.assertEqual(answer["displays"][0], here.display(player - 1).asJSON())
            spectator = await self.get(f"/api/games/{game}/replay?turn={turn}")
            self.assertEqual(handShown(spectator["displays"][0]), [])

    async def test_freedokoPartyThroughTheAPI(self) -> None:
        """
        One FreeDoko child and three server bots play a round through the
        FreeDoko port: the API lists a live ``doppelkopf`` game whose seats'
        views are nobody's (FreeDoko seats have no token), then the finished
        game, its record, and every seat's view at any turn.
        """
        child = await self.connect("freedoko", Child("Anna"))
        await until(lambda: any(t.factory.name == "doppelkopf" for t, _ in
                                self.hub.tables.values()), 10)
        (table,) = [t for t, _ in self.hub.tables.values() if t.factory.name == "doppelkopf"]
        game = table.id
        await until(lambda: len(table.record.actions) >= 6 or table.finished, 20)
        self.assertFalse(table.finished, "the party ended before it could be looked at live")
        live = await self.get("/api/games?status=live")
        self.assertIn(("doppelkopf", game), [(g["engine"], g["id"]) for g in live["games"]])
        await self.get(f"/api/games/{game}/replay?player=1", status=403)
        shown = await self.get(f"/api/games/{game}/replay")
        self.assertEqual(handShown(shown["displays"][0]), [])
        withheld = await self.get(f"/api/games/{game}/record")
        self.assertIsNone(withheld["initvalues"])
        record = await self.finished(game, 120)
        await child.done
        self.assertTrue(child.finished)
        self.assertIsNone(record.error)
        self.assertIn("Anna", record.seats)
        listed = await self.get("/api/games?status=finished")
        (entry,) = [g for g in listed["games"] if g["id"] == game]
        self.assertEqual(entry["engine"], "doppelkopf")
        self.assertEqual(entry["scores"], list(record.scores or ()))
        await self.checkReplays(game, record)

    async def test_createAndPlayAsJSONPlayer(self) -> None:
        """``create`` a doppelkopf game with three bots and play one round to the end as JSON."""
        player = await self.connect("engine", JSONPlayer(self.hub))
        player.send({"type": "create", "engine": "doppelkopf", "init": {"rounds": 1},
                     "bots": [2, 3, 4], "name": "jason"})
        ended = await player.ended
        self.assertEqual(player.errors, [])
        assert player.seated is not None
        game = player.seated["game"]
        record = await self.finished(game, 10)
        self.assertEqual(record.seats[0], "jason")
        self.assertIsNotNone(record.scores)
        self.assertGreaterEqual(player.moves.get("card", 0), 4 * 12 // 4)
        self.assertIn("reservation", player.moves)
        last = player.latest
        assert last is not None
        self.assertTrue(last["game_state"]["gameover"])
        self.assertIn("score-sheet", json.dumps(last["displays"][0]))
        self.assertIsNotNone(ended)
        await self.checkReplays(game, record)

    async def test_queueBesideARealFreeDokoChild(self) -> None:
        """
        A JSON player queued at the ``doppelkopf`` matchmaker sits at a
        FreeDoko table beside a real FreeDoko child (and two server bots):
        the party ends, the child agrees with the server on every trick,
        and while it is live the JSON player's view is its own (its token).
        """
        from gameproto.test.freedoko_real import findBinary, spawnFreeDoko
        from gameproto.test.test_freedoko_interop import RecordingProtocol, handsAtPlay

        findBinary()
        factory = self.server.service.getServiceNamed("freedoko").factory
        factory.protocol = RecordingProtocol
        factory.connections = []
        factory.journal = []
        player = await self.connect("engine", JSONPlayer(self.hub))
        player.send({"type": "queue", "engine": "doppelkopf", "name": "jason"})
        await until(lambda: any(m["type"] == "queued" for m in player.messages), 5)
        real = spawnFreeDoko(_reactor, "child", self.server.ports["freedoko"], name="Anna",
                             lifetime=200)
        self.addCleanup(real.stop)
        await until(lambda: player.seated is not None, 30)
        assert player.seated is not None
        game, seat, token = (player.seated["game"], player.seated["player"],
                             player.seated["token"])
        self.assertEqual(player.seated["engine"], "doppelkopf")
        self.assertIn("Anna", player.seated["players"])
        table = self.hub.findTable(game)
        assert table is not None
        await until(lambda: len(table.record.actions) >= 8 or table.finished, 30)
        self.assertFalse(table.finished, "the party ended before it could be looked at live")
        mine = await self.get(f"/api/games/{game}/replay?player={seat}", token)
        self.assertEqual(handShown(mine["displays"][0]),
                         sorted(cast(DoppelkopfParty, table.engine).view(seat - 1).hand))
        await self.get(f"/api/games/{game}/replay?player={seat}", status=403)
        other = seat % 4 + 1
        await self.get(f"/api/games/{game}/replay?player={other}", token, status=403)
        record = await self.finished(game, 180)
        await player.ended
        self.assertIsNone(record.error)
        self.assertEqual(player.errors, [])
        await task.deferLater(_reactor, 0.5, lambda: None)
        connections = cast(list[RecordingProtocol], factory.connections)
        (connection,) = connections
        ours = connection.parentSent(wire.TrickFull)
        games = len(handsAtPlay(record))
        self.assertGreaterEqual(games, 4)
        self.assertEqual(len(ours), 12 * games)
        self.assertEqual(connection.childSent(wire.TrickFull), ours,
                         "the real child's tricks are not the server's")
        self.assertEqual(len(connection.parentSent(wire.PartyFinish)), 1)
        await self.checkReplays(game, record)
