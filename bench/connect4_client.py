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


# -- the swarm: light clients in processes of their own -----------------------
#
# A load phase's clients run in ``--clients`` processes (``python -m
# bench.connect4_client swarm ...``), each a plain epoll loop over
# non-blocking sockets that parses only the few messages a player meets:
# far less work per message than a Twisted protocol, so that neither
# gameproto nor the echo server it is compared with is measured against
# a client that cannot keep up.  A move's latency runs from the mover's
# send to its opponent's read, whichever processes they are in: each
# player writes when it sent into a file every process maps (one double
# per player), and ``time.perf_counter`` is the same monotonic clock in
# every process.


def _swarmMain(argv: list[str]) -> None:
    import argparse
    import heapq
    import json
    import mmap
    import os
    import select
    import socket
    import sys
    import time

    parser = argparse.ArgumentParser(prog="bench.connect4_client swarm")
    parser.add_argument("mode", choices=["game", "echo"])
    parser.add_argument("port", type=int)
    parser.add_argument("first", type=int, help="index of this process's first player")
    parser.add_argument("count", type=int, help="players (even: whole pairs for the echo)")
    parser.add_argument("shared", help="file of one double per player: when it last sent")
    parser.add_argument("results", help="where to write the latencies (doubles)")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lifetime", type=float, default=600.0,
                        help="seconds after which this process stops, whatever it is told")
    options = parser.parse_args(argv)

    clock = time.perf_counter
    with open(options.shared, "r+b") as f:
        sharedMap = mmap.mmap(f.fileno(), 0)
    sentAt = memoryview(sharedMap).cast("d")
    rng = random.Random(options.seed)
    poller = select.epoll()
    byFd: dict[int, list[Any]] = {}
    # A player: [index, socket, buffer, seat, opponent index, heights, inited, partner (echo),
    # exchanged (echo), its move is due (a thinking player's timer may play it)]
    players: list[list[Any]] = []
    latencies = array.array("d")
    counts = {"moves": 0, "games": 0, "inits": 0, "connected": 0, "unexpected_closes": 0,
              "connect_failures": 0, "silent_pairs": 0}
    errors: dict[str, int] = {}
    windowStart = windowEnd = float("inf")
    stopAt = time.perf_counter() + options.lifetime
    stopping = False
    timers: list[tuple[float, int, list[Any]]] = []
    sequence = 0
    echo = options.mode == "echo"
    think = options.think
    heightLimit = HEIGHT

    def error(kind: str) -> None:
        errors[kind] = errors.get(kind, 0) + 1

    def close(player: list[Any]) -> None:
        sock = player[1]
        if sock is not None:
            try:
                poller.unregister(sock.fileno())
            except (OSError, ValueError):
                pass
            byFd.pop(sock.fileno(), None)
            sock.close()
            player[1] = None

    def send(player: list[Any], data: bytes) -> None:
        try:
            if player[1].send(data) != len(data):
                error("a send did not go whole")
        except OSError as e:
            error(f"send: {e.strerror}")

    def move(player: list[Any]) -> None:
        """Play a random legal column on the player's own board."""
        heights = player[5]
        legal = [c for c in range(WIDTH) if heights[c] < heightLimit]
        if not legal:
            if echo:
                heights[:] = [0] * WIDTH
                legal = list(range(WIDTH))
            else:
                return  # the board is full: GAME_END (a draw) is on its way
        column = rng.choice(legal)
        heights[column] += 1
        sentAt[player[0]] = clock()
        send(player, MOVES[column])

    def later(player: list[Any]) -> None:
        nonlocal sequence
        sequence += 1
        player[9] = True  # until the move is played, or the game ends first
        heapq.heappush(timers, (clock() + think, sequence, player))

    def received(player: list[Any], data: bytes) -> None:
        buffer = player[2] + data if player[2] else data
        used = 0
        size = len(buffer)
        while used < size and not stopping:
            kind = buffer[used]
            if echo:
                if size - used < 4:
                    break
                used += 4
                now = clock()
                sent = sentAt[player[0]]
                if windowStart <= sent and now <= windowEnd:
                    latencies.append(now - sent)
                    counts["moves"] += 1
                player[7][8] = True
                move(player[7])
                continue
            if kind == 0x33:  # PLAY_MOVE
                if size - used < 4:
                    break
                column = buffer[used + 1]
                used += 4
                now = clock()
                sent = sentAt[player[4]]
                if windowStart <= sent and now <= windowEnd:
                    latencies.append(now - sent)
                    counts["moves"] += 1
                heights = player[5]
                if column >= WIDTH or heights[column] >= heightLimit:
                    error("illegal relayed move")
                else:
                    heights[column] += 1
                if think:
                    later(player)
                else:
                    move(player)
            elif kind == 0x34:  # GAME_END
                if size - used < 3:
                    break
                if buffer[used + 1] == 0x0D:
                    used += 3
                elif size - used < 4:
                    break
                else:
                    used += 4
                now = clock()
                if player[3] == 0 and windowStart <= now <= windowEnd:
                    counts["games"] += 1
                player[9] = False  # a move still thought about is not played
                send(player, JOIN_QUEUE)
            elif kind == 0x32:  # GAME_START
                end = buffer.find(b"\r\n", used + 2)
                if end < 0:
                    break
                length = buffer[used + 1]
                first = buffer[used + 2 : used + 2 + length]
                second = buffer[used + 2 + length : end]
                used = end + 2
                mine = b"p%d" % player[0]
                player[3] = 0 if first == mine else 1
                other = second if player[3] == 0 else first
                player[4] = int(other[1:])
                player[5] = [0] * WIDTH
                if player[3] == 0:
                    if think:
                        later(player)
                    else:
                        move(player)
            elif kind == 0x31 and not player[6]:  # INIT
                if size - used < 5:
                    break
                if (buffer[used + 1], buffer[used + 2]) != (WIDTH, HEIGHT):
                    error("unexpected board size")
                used += 5
                player[6] = True
                counts["inits"] += 1
            elif kind in b"1789":
                end = buffer.find(b"\r\n", used)
                if end < 0:
                    break
                error(f"ERR code {buffer[used:end].decode()}")
                used = end + 2
            else:
                error(f"unexpected byte {kind}")
                close(player)
                return
        player[2] = buffer[used:]

    def command(line: str) -> None:
        nonlocal windowStart, windowEnd, stopAt
        words = line.split()
        if words and words[0] == "go":
            windowStart, windowEnd, stop = (float(w) for w in words[1:4])
            stopAt = min(stopAt, stop)
            if echo:
                for a in players[::2]:
                    move(a)

    # Connect, a batch at a time; in a game, each player sends CONNECT.
    stdin = sys.stdin.fileno()
    os.set_blocking(stdin, False)
    poller.register(stdin, select.EPOLLIN)
    pending = b""
    for index in range(options.first, options.first + options.count):
        player: list[Any] = [index, None, b"", 0, 0, [0] * WIDTH, False, None, False, False]
        players.append(player)
    if echo:
        for a, b in zip(players[::2], players[1::2]):
            a[7], b[7] = b, a

    def poll(timeout: float) -> None:
        nonlocal pending, stopAt
        for fd, events in poller.poll(timeout):
            if fd == stdin:
                chunk = os.read(stdin, 4096)
                if not chunk:  # the bench is gone: stop now
                    poller.unregister(stdin)
                    stopAt = 0.0
                    continue
                pending += chunk
                while b"\n" in pending:
                    line, _, pending = pending.partition(b"\n")
                    command(line.decode())
                continue
            player = byFd.get(fd)
            if player is None:
                continue
            try:
                data = player[1].recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                if not stopping:
                    counts["unexpected_closes"] += 1
                close(player)
                continue
            received(player, data)

    for start in range(0, len(players), options.batch):
        batch = players[start : start + options.batch]
        for player in batch:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                sock.connect(("127.0.0.1", options.port))
            except OSError:
                counts["connect_failures"] += 1
                sock.close()
                continue
            sock.setblocking(False)
            player[1] = sock
            byFd[sock.fileno()] = player
            poller.register(sock.fileno(), select.EPOLLIN)
            counts["connected"] += 1
            if not echo:
                send(player, b"0p%d\r\n" % player[0])
        deadline = clock() + 30
        while not echo and any(not p[6] for p in batch if p[1] is not None):
            if clock() > deadline:
                error("no INIT within 30 s")
                break
            poll(0.01)
    print("ready", flush=True)

    while True:
        now = clock()
        if now >= stopAt:
            break
        while timers and timers[0][0] <= now:
            _, _, player = heapq.heappop(timers)
            if player[1] is not None and player[9]:
                player[9] = False
                move(player)
        wait = min(stopAt - now, 0.05)
        if timers:
            wait = min(wait, max(timers[0][0] - now, 0.0))
        poll(wait)
    stopping = True
    if echo:
        counts["silent_pairs"] = sum(1 for a in players[::2] if not (a[8] or a[7][8]))
    for player in players:
        close(player)
    with open(options.results, "wb") as out:
        latencies.tofile(out)
    usage = os.times()
    print(json.dumps({**counts, "errors": errors, "cpu_s": usage.user + usage.system}),
          flush=True)


if __name__ == "__main__":
    import sys

    if len(sys.argv) < 2 or sys.argv[1] != "swarm":
        sys.exit("usage: python -m bench.connect4_client swarm MODE PORT FIRST COUNT SHARED "
                 "RESULTS [--think S] [--batch N] [--seed N]")
    _swarmMain(sys.argv[2:])
