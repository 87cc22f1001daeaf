"""``examples/carcassonne_bot.py``: two bots play a whole game against a loopback server."""

from __future__ import annotations

import random

from twisted.internet import reactor

from gameproto.carcassonne.server import (
    CarcassonneServer,
    CarcassonneServerFactory,
    CarcassonneSettings,
)
from gameproto.engine.hub import Hub
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.registry import builtins as builtinEngines
from gameproto.test.examples_harness import ExampleTestCase, requireSourceTree

ROOT = requireSourceTree("gameproto.test.test_carcassonne_example")


class BotScriptTests(ExampleTestCase):
    root = ROOT
    processTimeout = 60.0
    """Two interpreters starting and a whole game: slow on a loaded machine."""

    def startServer(self) -> int:
        hub = Hub(reactor, rng=random.Random(3), registry=EngineRegistry())  # type: ignore[arg-type]
        self.server = CarcassonneServer(CarcassonneSettings(timeout=5, referee=False), hub=hub)
        return self.listenLocal(CarcassonneServerFactory(self.server))

    async def test_twoBots(self) -> None:
        """Two ``carcassonne_bot.py`` play a whole game and exit 0 at FINISH."""
        port = self.startServer()
        first = self.spawnExample("carcassonne_bot", "--port", str(port))
        await self.until(lambda: bool(first.lines()), seconds=30)
        second = self.spawnExample("carcassonne_bot", "--port", str(port))
        codes = [await first.ended, await second.ended]
        self.assertEqual(codes, [0, 0])
        self.assertEqual((first.err, second.err), (b"", b""))
        self.assertEqual(first.lines()[0], "alone in the room: waiting for an opponent")
        for process in (first, second):
            over = [line for line in process.lines() if line.startswith("game over")]
            self.assertEqual(len(over), 1, process.lines())
            self.assertTrue(over[0].startswith(
                "game over (FINISH from the server): 72 tiles on the board"), over)

    def startReferee(self, botsAfter: float = 600) -> int:
        """A server refereeing with the rules engine (the built-in ``carcassonne``)."""
        hub = Hub(reactor, rng=random.Random(3), registry=builtinEngines())  # type: ignore[arg-type]
        self.server = CarcassonneServer(
            CarcassonneSettings(timeout=10, referee=True, botsAfter=botsAfter, botDelay=0),
            hub=hub)
        return self.listenLocal(CarcassonneServerFactory(self.server))

    def refereedGames(self) -> list[str | None]:
        """The status of each refereed game the server recorded."""
        summaries, _ = self.server.store.games(0, 10)
        return [s.status for s in summaries if s.engine == "carcassonne"]

    async def test_twoBotsRefereed(self) -> None:
        """Against the referee, two bots play a whole game: no move refused, exit 0."""
        port = self.startReferee()
        first = self.spawnExample("carcassonne_bot", "--port", str(port))
        await self.until(lambda: bool(first.lines()), seconds=30)
        second = self.spawnExample("carcassonne_bot", "--port", str(port))
        codes = [await first.ended, await second.ended]
        self.assertEqual(codes, [0, 0])
        self.assertEqual((first.err, second.err), (b"", b""))
        for process in (first, second):
            over = [line for line in process.lines() if line.startswith("game over")]
            self.assertEqual(len(over), 1, process.lines())
            self.assertTrue(over[0].startswith("game over (FINISH from the server): "), over)
            self.assertNotIn("a move was refused: the game stops", process.lines())
        self.assertEqual(self.refereedGames(), ["finished"])

    async def test_botAgainstServerBot(self) -> None:
        """One bot alone gets the server's bot as opponent at once, and plays to FINISH."""
        port = self.startReferee(botsAfter=0)
        process = self.spawnExample("carcassonne_bot", "--port", str(port))
        self.assertEqual(await process.ended, 0)
        self.assertEqual(process.err, b"")
        lines = process.lines()
        self.assertIn("player 2 is here", lines)
        self.assertTrue(lines[-1].startswith("game over (FINISH from the server): "), lines)
        self.assertEqual(self.refereedGames(), ["finished"])

    async def test_noServer(self) -> None:
        """Without a server: exit status 1 and one line on stderr."""
        process = self.spawnExample("carcassonne_bot", "--port", str(self.freePort()))
        self.assertEqual(await process.ended, 1)
        self.assertIn(b"carcassonne_bot: cannot connect to 127.0.0.1:", process.err)
