"""
Embedding the Connect Four server in another Twisted application: a
leaderboard.  A subclass of L{Connect4ServerProtocol} counts games and wins
per nick through the protocol's hooks, and the same process serves the
standings as JSON at ``/leaderboard`` on a web port (which also carries the
game over WebSocket at ``/connect4``).

    PYTHONPATH=. python examples/connect4_embedded.py --game-port 4100 --web-port 8100
    PYTHONPATH=. python examples/connect4_bot.py --port 4100 --games 3 &
    PYTHONPATH=. python examples/connect4_bot.py --port 4100 --games 3
    curl http://127.0.0.1:8100/leaderboard
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, cast

from twisted.internet import task
from twisted.internet.address import IPv4Address
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IListeningPort, IReactorTCP
from twisted.logger import Logger, globalLogBeginner, textFileLogObserver
from twisted.web.resource import Resource
from twisted.web.server import Request, Site

from gameproto.connect4 import wire
from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.web.websocket import MessageWebSocketResource

log = Logger()


class Leaderboard:
    """Games played and games won, per nick."""

    def __init__(self) -> None:
        self.games: Counter[str] = Counter()
        self.wins: Counter[str] = Counter()

    def standings(self) -> list[dict[str, object]]:
        """Most wins first, then fewest games, then by nick."""
        nicks = sorted(self.games, key=lambda n: (-self.wins[n], self.games[n], n))
        return [{"nick": n, "wins": self.wins[n], "games": self.games[n]} for n in nicks]


class LeaderboardProtocol(Connect4ServerProtocol):
    """The stock server protocol, plus bookkeeping in its hooks."""

    factory: LeaderboardFactory

    def gameStarted(self, players: tuple[str, str], seat: int) -> None:
        super().gameStarted(players, seat)
        self.players, self.seat = players, seat
        self.factory.leaderboard.games[players[seat]] += 1  # each player counts its own game

    def gameEnded(self, winner: int | None) -> None:
        super().gameEnded(winner)
        # Both players get GAME_END, except one who left or timed out, so the
        # winner's own connection counts the win: once per game, forfeits too.
        if winner is not None and winner == self.seat:
            nick = self.players[winner]
            self.factory.leaderboard.wins[nick] += 1
            log.info("{nick} won against {loser}", nick=nick, loser=self.players[1 - winner])


class LeaderboardFactory(Connect4ServerFactory):
    """Builds L{LeaderboardProtocol}s that report to one L{Leaderboard}."""

    protocol = LeaderboardProtocol

    def __init__(self, server: Connect4Server, leaderboard: Leaderboard) -> None:
        super().__init__(server)
        self.leaderboard = leaderboard


class LeaderboardPage(Resource):
    """``GET /leaderboard``: the standings as JSON."""

    isLeaf = True

    def __init__(self, leaderboard: Leaderboard) -> None:
        super().__init__()
        self.leaderboard = leaderboard

    def render_GET(self, request: Request) -> bytes:
        request.setHeader(b"content-type", b"application/json")
        return json.dumps(self.leaderboard.standings(), indent=1).encode("utf-8")


class LeaderboardApp:
    """The whole application: one game server, its leaderboard, its two ports."""

    def __init__(self, reactor: IReactorTCP,
                 settings: Connect4Settings = Connect4Settings()) -> None:
        self.reactor = reactor
        self.leaderboard = Leaderboard()
        self.server = Connect4Server(settings, reactor)  # type: ignore[arg-type]
        self.gameFactory = LeaderboardFactory(self.server, self.leaderboard)
        root = Resource()
        root.putChild(b"leaderboard", LeaderboardPage(self.leaderboard))
        # The same protocol class over WebSocket (one message per binary message),
        # under the same limits as the TCP port (a peer over its connections: 503).
        root.putChild(b"connect4", MessageWebSocketResource(self.gameFactory, wire.MAX_MESSAGE))
        self.site = Site(root)

    def listen(self, gamePort: int, webPort: int,
               interface: str = "") -> tuple[IListeningPort, IListeningPort]:
        """Start serving; port 0 picks a free port (see C{getHost()})."""
        # (Twisted's stubs want a ServerFactory of exactly its protocol: Any says "any factory")
        factories: tuple[Any, Any] = (self.gameFactory, self.site)
        game = self.reactor.listenTCP(gamePort, factories[0], interface=interface)
        web = self.reactor.listenTCP(webPort, factories[1], interface=interface)
        return game, web


async def main(reactor: IReactorTCP, *argv: str) -> None:
    parser = argparse.ArgumentParser(description="Connect Four with a leaderboard.")
    parser.add_argument("--game-port", type=int, default=4100, help="Connect Four TCP port (4100)")
    parser.add_argument("--web-port", type=int, default=8100, help="leaderboard web port (8100)")
    parser.add_argument("--interface", default="", help="address to listen on (all)")
    args = parser.parse_args(argv)
    globalLogBeginner.beginLoggingTo([textFileLogObserver(sys.stdout)])
    game, web = LeaderboardApp(reactor).listen(args.game_port, args.web_port, args.interface)
    log.info("Connect Four on TCP port {game}; leaderboard at "
             "http://localhost:{web}/leaderboard, WebSocket at ws://localhost:{web}/connect4",
             game=cast(IPv4Address, game.getHost()).port,
             web=cast(IPv4Address, web.getHost()).port)
    await Deferred()  # serve until interrupted (Ctrl-C)


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
