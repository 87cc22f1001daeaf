"""
The Connect Four (Protuissance 4) bench client the benchmarks share: a raw
Twisted protocol reading with C{gameproto.connect4.wire} that plays games
back to back (L{Player}), what a phase counts (L{Run}), and the messages it
sends, serialised once.  Used by C{bench.connect4_load} and C{bench.attack};
run them as C{python -m bench.NAME} from the repository root.
"""

from __future__ import annotations

import array
import random
from typing import Any

from twisted.internet import reactor
from twisted.internet.protocol import Protocol

from bench.harness import now
from gameproto.connect4 import wire

SERVER_KINDS = wire.SERVER_MESSAGES
PlayMove, GameEnd, GameStart, Init, Error = (
    wire.PlayMove, wire.GameEnd, wire.GameStart, wire.Init, wire.Error)
NEED_MORE = wire.NEED_MORE
JOIN_QUEUE = wire.serialize(wire.JoinQueue())
WIDTH, HEIGHT = 7, 6  # the server's default board; checked against INIT
MOVES = [wire.serialize(PlayMove(c)) for c in range(256)]


class Run:
    """What one phase counts."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopping = False
        self.windowStart = float("inf")
        self.latencies: array.array[float] = array.array("d")
        self.moves = 0
        self.games = 0
        self.connected = 0
        self.inits = 0
        self.gameStarts = 0
        self.errors: dict[str, int] = {}
        self.unexpectedCloses = 0
        self.connectFailures = 0
        self.players: dict[bytes, Player] = {}

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def chooseColumn(heights: list[int], rng: random.Random) -> int | None:
    """A random legal column on the tiny local board; None when it is full."""
    legal = [c for c in range(WIDTH) if heights[c] < HEIGHT]
    return rng.choice(legal) if legal else None


class Player(Protocol):
    """
    A bench client: CONNECT, then games back to back, each move chosen at
    once at random among the legal columns (its own height array).
    """

    def __init__(self, run: Run, nick: bytes, rng: random.Random, think: float = 0.0,
                 sendConnect: bool = True, passive: bool = False) -> None:
        self.run = run
        self.nick = nick
        self.rng = rng
        self.think = think
        self.sendConnect = sendConnect
        self.passive = passive
        self.parser = wire.Parser()
        self.opponent: Player | None = None
        self.heights = [0] * WIDTH
        self.seat = 0
        self.myTurn = False
        self.sentAt = 0.0
        self.initAt = 0.0
        self.open = False
        self.closed = False
        run.players[nick] = self

    def connectionMade(self) -> None:
        self.open = True
        self.transport.setTcpNoDelay(True)  # type: ignore[attr-defined]
        self.run.connected += 1
        if self.sendConnect:
            self.connect()

    def connect(self) -> None:
        self.transport.write(b"0" + self.nick + b"\r\n")  # type: ignore[union-attr]

    def connectFailed(self, reason: Any) -> None:
        self.run.connectFailures += 1
        self.closed = True

    def dataReceived(self, data: bytes) -> None:
        run = self.run
        parser = self.parser
        parser.feed(data)
        while True:
            message = parser.next(SERVER_KINDS)
            if message is NEED_MORE:
                break
            kind = type(message)
            if kind is PlayMove:
                column = message.column  # type: ignore[union-attr]
                opponent = self.opponent
                if run.measuring and opponent is not None and opponent.sentAt >= run.windowStart:
                    run.latencies.append(now() - opponent.sentAt)
                    run.moves += 1
                if not 0 <= column < WIDTH or self.heights[column] >= HEIGHT:
                    run.error("illegal relayed move")
                else:
                    self.heights[column] += 1
                self.myTurn = True
            elif kind is GameEnd:
                self.myTurn = False
                if run.measuring and self.seat == 0:
                    run.games += 1
                if not run.stopping:
                    self.transport.write(JOIN_QUEUE)  # type: ignore[union-attr]
            elif kind is GameStart:
                first, second = message.first.encode(), message.second.encode()  # type: ignore[union-attr]
                self.seat = 0 if first == self.nick else 1
                self.opponent = run.players.get(second if self.seat == 0 else first)
                self.heights = [0] * WIDTH
                self.myTurn = self.seat == 0
                run.gameStarts += 1
            elif kind is Init:
                if (message.width, message.height) != (WIDTH, HEIGHT):  # type: ignore[union-attr]
                    run.error("unexpected board size")
                self.initAt = now()
                run.inits += 1
            elif kind is Error:
                run.error(f"ERR code {message.code}")  # type: ignore[union-attr]
            else:  # Malformed
                run.error(f"malformed: {message.reason}")  # type: ignore[union-attr]
                self.transport.abortConnection()  # type: ignore[union-attr]
                return
        if self.myTurn and not run.stopping and not self.passive:
            if self.think:
                self.myTurn = False
                reactor.callLater(self.think, self.play)  # type: ignore[attr-defined]
            else:
                self.play()

    def play(self) -> None:
        self.myTurn = False
        if self.closed or self.run.stopping:
            return
        column = chooseColumn(self.heights, self.rng)
        if column is None:
            return  # the board is full: GAME_END (a draw) is on its way
        self.heights[column] += 1
        self.sentAt = now()
        self.transport.write(MOVES[column])  # type: ignore[union-attr]

    def connectionLost(self, reason: Any) -> None:
        self.closed = True
        if not self.run.stopping:
            self.run.unexpectedCloses += 1


def closeAll(protocols: list[Any]) -> None:
    for p in protocols:
        transport = getattr(p, "transport", None)
        if transport is not None and not p.closed:
            transport.abortConnection()
