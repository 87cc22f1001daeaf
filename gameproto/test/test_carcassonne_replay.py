"""
Carcassonne games played without the referee (``--carcassonne-referee
off``) are games of engine ``carcassonne`` (with ``referee: "off"``): the
HTTP API lists them with the rules engine's scores and replays them to any
turn, a move the rules refuse included.
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

from gameproto.carcassonne import wire
from gameproto.carcassonne.protocol import CarcassonneClientProtocol, Placement
from gameproto.carcassonne.server import MOVES, RELAY
from gameproto.engine.contract import Errors
from gameproto.engine.record import GameRecord, replay
from gameproto.games.carcassonne import CARCASSONNE, TILE_WORDS, CarcassonneGame
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


class Trusting(Client):
    """A client that accepts every move, as a client of a pure relay may."""

    def acceptMove(self, move: wire.Move) -> bool:
        return True


class Cheat(Trusting):
    """On its third turn, a tile where it does not fit (the rest of its game is honest)."""

    cheated: Placement | None = None

    def chooseMove(self) -> Any:
        if self.cheated is None and self.movesPlayed == 2:
            for tile in sorted(t for t, n in self.pile.items() if n > 0):
                for x, y in sorted(self.rules.frontier):
                    if not self.rules.fits(tile, x, y, "N"):
                        self.cheated = (tile, x, y, "N", None)
                        return self.cheated
        return super().chooseMove()


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

    async def play(self, *clients: Client) -> None:
        """A whole game of library ``clients`` over TCP on 127.0.0.1."""
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.ports["carcassonne"])
        for client in clients:
            await connectProtocol(endpoint, client)
        await defer.gatherResults([c.done for c in clients])
        for client in clients:
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual(client.pile.total(), 0)

    async def theGame(self) -> tuple[dict[str, Any], GameRecord]:
        """The one game the API lists: its summary and its record."""
        games = (await self.get("/api/games"))["games"]
        self.assertEqual([g["engine"] for g in games], ["carcassonne"])  # never the relay's
        [summary] = games
        record = self.server.service.hub.store.get(summary["id"])
        assert isinstance(record, GameRecord)
        return summary, record

    async def assertReplays(self, summary: dict[str, Any], record: GameRecord,
                            turns: list[int]) -> None:
        """The API replays the game at ``turns`` as the rules engine does."""
        for turn in turns:
            replayed = await self.get(f"/api/games/{summary['id']}/replay?turn={turn}")
            engine = replay(CARCASSONNE, record, turn)
            self.assertEqual(replayed["turn"], turn)
            self.assertEqual(replayed["game_state"], engine.instructions().game_state.asJSON())
            self.assertEqual(replayed["displays"], [engine.display(None).asJSON()])
            self.assertEqual(replayed["game_state"]["gameover"], turn == len(record.actions))

    async def test_replay(self) -> None:
        """
        A refereeless game is a game of engine ``carcassonne`` with its
        ``referee`` off; the API lists it with the rules engine's scores and
        replays it at any turn.
        """
        await self.play(Client(2, 0), Client(2, 1))
        summary, record = await self.theGame()
        self.assertEqual(record.params["referee"], "off")
        self.assertEqual(self.server.service.hub.registry.get(RELAY.name), RELAY)  # old records
        shown = await self.get(f"/api/games/{summary['id']}/record")
        self.assertEqual((shown["engine"], shown["status"]), ("carcassonne", "finished"))
        self.assertEqual(len(shown["actions"]), MOVES)
        self.assertFalse(any("refused" in a["action"] for a in shown["actions"]))
        final = replay(CARCASSONNE, record).instructions().game_state
        self.assertEqual(summary["scores"], list(final.scores))
        self.assertGreater(max(final.scores), 0)
        await self.assertReplays(summary, record, [0, 1, 30, MOVES])

    async def test_brokenMoveRecorded(self) -> None:
        """
        A move the rules refuse is relayed all the same, and the game goes
        on to its end; the record says which move and why, and the scores
        are those of the board the rules followed, up to the move before.
        """
        cheat, other = Cheat(2, 0), Trusting(2, 1)
        await self.play(cheat, other)
        assert cheat.cheated is not None
        self.assertEqual(cheat.board, other.board)  # the relay passed it on
        summary, record = await self.theGame()
        self.assertEqual((summary["status"], summary["turns"]), ("finished", MOVES))
        shown = await self.get(f"/api/games/{summary['id']}/record")
        noted = [(i, a) for i, a in enumerate(shown["actions"]) if "refused" in a["action"]]
        self.assertEqual(len(noted), 1)
        [(index, action)] = noted
        tile, x, y, orientation, _ = cheat.cheated
        self.assertEqual(action["action"], {
            "tile": tile, "x": x, "y": y, "orientation": orientation, "zone": None,
            "refused": f"{TILE_WORDS[tile]} does not fit at ({x}, {y}) in orientation "
                       f"{orientation}"})
        before = replay(CARCASSONNE, record, index).instructions().game_state.text or ""
        after = replay(CARCASSONNE, record, index + 1).instructions().game_state.text
        self.assertNotIn("breaks the rules", before)
        self.assertEqual(after, f"move {index + 1} (player {action['seat'] + 1}) breaks the "
                                f"rules: {action['action']['refused']}; the rules follow the "
                                f"board up to move {index}, and score it")
        # Our scores: the moves before the broken one, then the end-of-game scoring.
        judge = CARCASSONNE.start(dict(record.params, referee="on"), record.initvalues)
        assert isinstance(judge, CarcassonneGame)
        for recorded in record.actions[:index]:
            self.assertNotIsInstance(judge.act(recorded.seat, recorded.action), Errors)
        expected = list(judge.scores)
        for score in judge.board.finalScores():
            for seat in score.seats:
                expected[seat] += score.points
        self.assertEqual(summary["scores"], expected)
        self.assertEqual(record.scores, expected)
        await self.assertReplays(summary, record, [index, index + 1, MOVES])
