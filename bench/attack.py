#!/usr/bin/env python
"""
The attack benchmark: what each abuse the server's limits are meant to
contain does to another client's latency, and to the server's memory, CPU
and file descriptors.

    python bench/attack.py                    # ~100 s, prints a table
    python bench/attack.py --quick            # ~1 minute smoke run
    python bench/attack.py --seconds 10       # longer windows (~3 minutes)
    python bench/attack.py --attacks flood-engine,upgrades --seconds 20
    python bench/attack.py --json out.json    # the figures as JSON too

One server, run as an operator runs it with its **default limits**
(``twistd -n --pidfile= --logfile=FILE gameproto --db FILE --ports
web=...,connect4=...,engine=...,maitretarot=...``, every port on a free
port of 127.0.0.1, any other protocol off, pinned to one core), its log in a
file: every attack's log lines are counted.

The victim
    ``--pairs`` pairs of well-behaved Protuissance 4 clients on the
    connect4 TCP port (the ``Player`` of ``connect4_load.py``), playing
    games back to back, each answering ``--think-ms`` after its turn comes
    (a person's pace, under the default ``--message-rate``); they connect
    from 127.0.0.10 and up, at most 32 per address (under the default
    ``--max-connections-per-peer``).  They stay connected for the whole
    run.  Latency: from a mover writing PLAY_MOVE to its opponent reading
    it (both ends are here, one clock).

The windows
    First ``--seconds`` of baseline, then for each attack in turn a
    baseline window and the attack's window of ``--seconds`` while the
    victim plays on (the attack starts when the window opens and is stopped
    when it closes; its connections are closed and the server gets
    ``--settle`` seconds before the next window).  For each window: the
    victim's moves and p50/p99/max, for an attack its p99 over the baseline
    just before (target: at most 2x; over the first baseline too), the
    server's RSS and
    fds at the start and end, its CPU (% of one core), the CPU of every
    other process of the machine (``harness.machineBusy``: a busy
    neighbour raises every latency; a window where others used more than
    ``--busy-limit`` % of a core is run again with its baseline, up to
    ``--retries`` times),
    what the server counted (``gameproto_refused_total`` and the other
    counters of ``/metrics`` on the web port that changed), the log lines
    it wrote (the most frequent, and any traceback), and the attack's own
    figures.

Attacks (all from 127.0.0.1, loopback only, bounded in count and time):

nonreader
    ``--nonreaders`` HTTP connections (receive buffer 4 KiB) each sending
    ``--pipelined`` pipelined GETs of ``/static/app.js`` and ``/api/games``
    and never reading; at the window's end each is read once to see
    whether the server had closed it.
nonreader-engine
    The same on a game protocol: an all-bot Tarot game is created (``POST
    /api/games``), then ``--nonreaders`` connections to the engine JSON
    port (receive buffer 4 KiB) each write ``--pipelined`` pairs of
    ``watch`` (that game: each answered with its whole public display) and
    ``leave`` lines and never read; the server's
    ``gameproto_write_buffer_bytes{protocol="engine"}`` is read each second
    (its largest value is reported), and at the window's end each
    connection is read once to see whether the server had closed it.
flood-engine
    ``--flood-connections`` connections to the engine JSON port writing
    ``{"type":"watch","game":999999}`` lines as fast as the server takes
    them (a producer: nothing buffered here past what the socket takes),
    reading and discarding the answers.  Another protocol than the
    victim's.
flood-connect4
    The same on the victim's own port: CONNECT with a nick, then
    JOIN_QUEUE messages as fast as the server takes them; a closed
    connection is replaced, at most ``--flood-reconnects`` times.
upgrades
    ``--upgrades`` WebSocket upgrade requests to ``/engine`` on the web
    port, each followed in the same write by 17 KiB of masked frame data
    (more than the 16 KiB a handshake may carry), ``--concurrency`` at a
    time: the first line of each answer.
burst
    ``--burst`` ``POST /api/games`` (``Content-Type: application/json``,
    a Connect Four game with no bot), ``--concurrency`` at a time: the
    status of each answer.
tarot
    ``POST /api/games {"engine":"tarot","init":{},"bots":[1,2,3,4]}``: an
    all-bot Tarot game left running for the window; its state read at the
    end (``GET /api/games/ID``).

Every child process runs under ``timeout`` in its own process group and is
killed on exit, error or Ctrl-C; the whole run aborts after ``--max-seconds``.
"""

from __future__ import annotations

if __name__ == "__main__" and not __package__:  # python bench/attack.py
    import _launch

    _launch.asModule(__file__)

import argparse
import array
import json
import random
import re
import socket
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from bench import harness
from bench.harness import (
    REPO,
    Child,
    OneProtocol,
    addTable,
    cpuSeconds,
    fdCount,
    fmt,
    machineBusy,
    now,
    percentiles,
    reportHeader,
    rssKiB,
    runBench,
    selfCpu,
    sleep,
    waitFor,
    waitListening,
)

harness.checkGameproto(sys.argv)

from bench import connect4_client as connect4_load  # noqa: E402
from bench.connect4_client import JOIN_QUEUE, Player  # noqa: E402
from bench.connect4_client import Run as VictimRun  # noqa: E402
from twisted.internet import reactor  # noqa: E402
from twisted.internet.defer import Deferred  # noqa: E402
from twisted.internet.protocol import Protocol, connectionDone  # noqa: E402
from twisted.python.failure import Failure  # noqa: E402

ATTACKS = ("nonreader", "nonreader-engine", "flood-engine", "flood-connect4", "upgrades",
           "burst", "tarot")
ATTACKER = "127.0.0.1"
_attackers = iter(range(100, 250))


def attackerAddress() -> str:
    """A fresh source address for each attack (each retry too): per-peer limits start anew."""
    return f"127.0.0.{next(_attackers)}"
PORT_NAMES = ("web", "connect4", "engine", "maitretarot")


def victimAddress(i: int) -> str:
    """The source address of the victim's i-th connection: 32 per address from 127.0.0.10."""
    return f"127.0.0.{10 + i // 32}"


def connectFrom(port: int, protocol: Any, source: str = ATTACKER) -> None:
    reactor.connectTCP("127.0.0.1", port, OneProtocol(protocol),  # type: ignore[attr-defined]
                       timeout=30, bindAddress=(source, 0))


class _Watched:
    """The victim's parser, telling it of each GAME_START and GAME_END as they are read."""

    def __init__(self, player: VictimPlayer) -> None:
        self.player = player
        self.parser = connect4_load.wire.Parser()

    def feed(self, data: bytes) -> None:
        self.parser.feed(data)

    def next(self, kinds: Any) -> Any:
        message = self.parser.next(kinds)
        if type(message) in (connect4_load.GameStart, connect4_load.GameEnd):
            self.player.serial += 1
        return message


class VictimPlayer(Player):
    """
    A Player of ``connect4_load.py`` that thinks ``think`` seconds before
    each move, and drops a move it was thinking of when the game ends
    meanwhile (an opponent leaving ends it at once).
    """

    def __init__(self, run: VictimRun, nick: bytes, rng: random.Random, think: float) -> None:
        super().__init__(run, nick, rng)
        self.delay = think
        self.serial = 0
        self.parser = _Watched(self)  # type: ignore[assignment]

    def play(self) -> None:
        self.myTurn = False
        reactor.callLater(self.delay, self.move, self.serial)  # type: ignore[attr-defined]

    def move(self, serial: int) -> None:
        if serial == self.serial:
            Player.play(self)


# -- the server -------------------------------------------------------------------


def startServer(args: argparse.Namespace, work: Path) -> tuple[Child, dict[str, int], Path]:
    """twistd gameproto with its default limits, the four ports on free loopback ports."""
    log = work / "gameproto.log"
    child, ports = harness.startGameproto(args, work, "gameproto", PORT_NAMES, log=log,
                                          db=str(work / "attack.sqlite"), limits=False)
    return child, ports, log


# -- raw clients ------------------------------------------------------------------


class Raw(Protocol):
    """Writes ``payload`` at once, keeps up to ``cap`` bytes of the answer, and ends."""

    def __init__(self, payload: bytes, cap: int = 65536, timeout: float = 10.0) -> None:
        self.payload = payload
        self.cap = cap
        self.timeout = timeout
        self.data = b""
        self.done: Deferred[bytes] = Deferred()
        self.call: Any = None

    def connectionMade(self) -> None:
        self.transport.write(self.payload)  # type: ignore[union-attr]
        self.call = reactor.callLater(self.timeout, self.transport.abortConnection)  # type: ignore[attr-defined,union-attr]

    def connectFailed(self, reason: Failure) -> None:
        self.done.callback(b"connect failed: " + str(reason.value).encode())

    def dataReceived(self, data: bytes) -> None:
        if len(self.data) < self.cap:
            self.data += data[: self.cap - len(self.data)]

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        if not self.done.called:
            self.done.callback(self.data)


async def raw(port: int, payload: bytes, cap: int = 65536, timeout: float = 10.0,
              source: str = ATTACKER) -> bytes:
    p = Raw(payload, cap, timeout)
    connectFrom(port, p, source)
    return await p.done


def httpRequest(method: str, path: str, port: int, body: bytes = b"",
                headers: tuple[str, ...] = (), version: str = "1.0") -> bytes:
    """A request; HTTP/1.0 by default, so that the answer is not chunked and ends with a close."""
    lines = [f"{method} {path} HTTP/{version}", f"Host: 127.0.0.1:{port}", *headers]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def httpStatus(answer: bytes) -> str:
    first = answer.split(b"\r\n", 1)[0].decode("latin-1")
    parts = first.split(" ", 2)
    if len(parts) >= 2 and parts[0].startswith("HTTP/"):
        return parts[1]
    return "closed, no answer" if not answer else f"not HTTP: {first[:30]!r}"


def httpBody(answer: bytes) -> bytes:
    return answer.partition(b"\r\n\r\n")[2]


async def scrapeMetrics(port: int) -> dict[str, float]:
    answer = await raw(port, httpRequest("GET", "/metrics", port), cap=4 << 20)
    values: dict[str, float] = {}
    for line in httpBody(answer).decode("utf-8", "replace").splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, value = line.rpartition(" ")
        try:
            values[name] = float(value)
        except ValueError:
            pass
    return values


async def inBatches(count: int, concurrency: int, make: Callable[[int], Deferred[bytes]],
                    stop: Callable[[], bool]) -> list[bytes]:
    answers: list[bytes] = []
    for start in range(0, count, concurrency):
        if stop():
            break
        batch = [make(i) for i in range(start, min(count, start + concurrency))]
        for d in batch:
            answers.append(await d)
    return answers


# -- the attacks ------------------------------------------------------------------


class Attack:
    """One attack: ``start`` when the window opens, ``stop`` when it closes, then ``figures``."""

    def __init__(self, args: argparse.Namespace, ports: dict[str, int]) -> None:
        self.args = args
        self.ports = ports
        self.stopping = False
        self.task: Deferred[Any] | None = None
        self.stats: dict[str, Any] = {}
        self.source = attackerAddress()

    def start(self) -> None:
        self.task = Deferred.fromCoroutine(self.run())
        self.task.addErrback(self.failed)

    def failed(self, failure: Failure) -> None:
        self.stats["bench error"] = repr(failure.value)

    async def run(self) -> None:
        pass

    async def stop(self) -> None:
        self.stopping = True
        if self.task is not None:
            await waitFor(lambda: self.task.called, 15.0)  # type: ignore[union-attr]

    def figures(self) -> dict[str, Any]:
        return self.stats


class NonReader(Protocol):
    """Pipelines requests and never reads (reading paused, a 4 KiB receive buffer)."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload
        self.lost = False
        self.readAfter = 0

    def connectionMade(self) -> None:
        sock = self.transport.getHandle()  # type: ignore[union-attr]
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.transport.pauseProducing()  # type: ignore[union-attr]
        self.transport.write(self.payload)  # type: ignore[union-attr]

    def connectFailed(self, reason: Failure) -> None:
        self.lost = True

    def dataReceived(self, data: bytes) -> None:
        self.readAfter += len(data)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.lost = True


class NonReaderAttack(Attack):
    async def run(self) -> None:
        port = self.ports["web"]
        one = (httpRequest("GET", "/static/app.js", port, version="1.1")
               + httpRequest("GET", "/api/games", port, version="1.1"))
        self.clients = [NonReader(one * (self.args.pipelined // 2))
                        for _ in range(self.args.nonreaders)]
        for c in self.clients:
            connectFrom(port, c, self.source)
        self.stats["connections"] = len(self.clients)
        self.stats["requests sent"] = len(self.clients) * (self.args.pipelined // 2) * 2

    async def stop(self) -> None:
        await super().stop()
        # Read now: a connection the server closed shows its end.
        for c in self.clients:
            if c.transport is not None and not c.lost:
                c.transport.resumeProducing()  # type: ignore[attr-defined]
        await sleep(1.0)
        self.stats["closed by the server"] = sum(c.lost for c in self.clients)
        self.stats["bytes read afterwards (MiB)"] = sum(c.readAfter for c in self.clients) / 2**20
        for c in self.clients:
            if c.transport is not None and not c.lost:
                c.transport.abortConnection()  # type: ignore[attr-defined]


class EngineNonReaderAttack(Attack):
    """Game-protocol clients that send and never read (see the module's docstring)."""

    clients: list[NonReader]

    async def run(self) -> None:
        self.clients = []
        self.stats["most bytes waiting for the engine port"] = 0.0
        web = self.ports["web"]
        body = json.dumps({"engine": "tarot", "init": {}, "bots": [1, 2, 3, 4]}).encode()
        answer = await raw(web, httpRequest("POST", "/api/games", web, body,
                                            ("Content-Type: application/json",)),
                           source=self.source)
        try:
            game = json.loads(httpBody(answer))["id"]
        except (ValueError, KeyError, TypeError):
            self.stats["create"] = httpStatus(answer)
            return
        lines = (b'{"type":"watch","game":%d}\n{"type":"leave"}\n' % game) * self.args.pipelined
        self.clients = [NonReader(lines) for _ in range(self.args.nonreaders)]
        for c in self.clients:
            connectFrom(self.ports["engine"], c, self.source)
        self.stats["game watched"] = game
        self.stats["connections"] = len(self.clients)
        self.stats["messages sent"] = len(self.clients) * self.args.pipelined * 2
        key = 'gameproto_write_buffer_bytes{protocol="engine"}'
        while not self.stopping:
            figures = await scrapeMetrics(web)
            self.stats["most bytes waiting for the engine port"] = max(
                self.stats["most bytes waiting for the engine port"], figures.get(key, 0.0))
            await sleep(1.0)

    async def stop(self) -> None:
        await super().stop()
        if not self.clients:
            return
        closedBefore = sum(c.lost for c in self.clients)
        for c in self.clients:
            if c.transport is not None and not c.lost:
                c.transport.resumeProducing()  # type: ignore[attr-defined]
        await sleep(1.0)
        self.stats["closed by the server (before reading)"] = closedBefore
        self.stats["closed by the server"] = sum(c.lost for c in self.clients)
        self.stats["bytes read afterwards (MiB)"] = sum(c.readAfter for c in self.clients) / 2**20
        for c in self.clients:
            if c.transport is not None and not c.lost:
                c.transport.abortConnection()  # type: ignore[attr-defined]


class Flooder(Protocol):
    """Writes ``chunk`` whenever the transport takes more (a streaming producer); reads and drops."""

    def __init__(self, attack: FloodAttack, greeting: bytes, chunk: bytes) -> None:
        self.attack = attack
        self.greeting = greeting
        self.chunk = chunk
        self.paused = False
        self.lost = False
        self.loop: Any = None

    def connectionMade(self) -> None:
        self.attack.opened += 1
        self.transport.registerProducer(self, True)  # type: ignore[union-attr]
        self.transport.write(self.greeting)  # type: ignore[union-attr]
        self.tick()

    def connectFailed(self, reason: Failure) -> None:
        self.lost = True
        self.attack.connectFailures += 1

    def tick(self) -> None:
        self.loop = None
        if self.lost or self.attack.stopping:
            return
        if not self.paused:
            self.transport.write(self.chunk)  # type: ignore[union-attr]
            self.attack.sent += len(self.chunk)
        self.loop = reactor.callLater(0.005, self.tick)  # type: ignore[attr-defined]

    def pauseProducing(self) -> None:
        self.paused = True
        self.attack.pauses += 1

    def resumeProducing(self) -> None:
        self.paused = False

    def stopProducing(self) -> None:
        self.lost = True

    def dataReceived(self, data: bytes) -> None:
        self.attack.received += len(data)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.lost = True
        if self.loop is not None and self.loop.active():
            self.loop.cancel()
        if not self.attack.stopping:
            self.attack.closedByServer += 1
            self.attack.replace(self)


class FloodAttack(Attack):
    portName = "engine"
    chunk = b'{"type":"watch","game":999999}\n' * 1024

    def __init__(self, args: argparse.Namespace, ports: dict[str, int]) -> None:
        super().__init__(args, ports)
        self.sent = self.received = self.opened = self.pauses = 0
        self.closedByServer = self.connectFailures = self.reconnects = 0
        self.clients: list[Flooder] = []
        self.serial = 0

    def greeting(self) -> bytes:
        return b""

    def make(self) -> None:
        c = Flooder(self, self.greeting(), self.chunk)
        self.clients.append(c)
        connectFrom(self.ports[self.portName], c, self.source)

    def replace(self, gone: Flooder) -> None:
        if self.reconnects < self.args.flood_reconnects:
            self.reconnects += 1
            reactor.callLater(0.05, self.make)  # type: ignore[attr-defined]

    async def run(self) -> None:
        for _ in range(self.args.flood_connections):
            self.make()

    async def stop(self) -> None:
        self.stopping = True
        for c in self.clients:
            if c.transport is not None and not c.lost:
                c.transport.abortConnection()  # type: ignore[attr-defined]
        self.stats.update({
            "connections (replacements)": f"{self.opened} ({self.reconnects})",
            "closed by the server": self.closedByServer,
            "MiB sent / read": f"{self.sent / 2**20:,.2f} / {self.received / 2**20:,.2f}",
            "messages sent": self.sent // (len(self.chunk) // 1024),
            "paused by backpressure (times)": self.pauses,
        })


class Connect4Flood(FloodAttack):
    portName = "connect4"
    chunk = JOIN_QUEUE * 8192

    def greeting(self) -> bytes:
        self.serial += 1
        return b"0flood%d\r\n" % self.serial


class UpgradeAttack(Attack):
    async def run(self) -> None:
        port = self.ports["web"]
        rng = random.Random(7)
        frame = bytes([0x81, 0xFF]) + (17 * 1024).to_bytes(8, "big") + b"\x01\x02\x03\x04" \
            + bytes(rng.getrandbits(8) for _ in range(17 * 1024))
        head = ("\r\n".join([
            "GET /engine HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
            "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13", f"Origin: http://127.0.0.1:{port}"]) + "\r\n\r\n").encode()
        started = now()
        answers = await inBatches(
            self.args.upgrades, self.args.concurrency,
            lambda i: Deferred.fromCoroutine(raw(port, head + frame, cap=512, timeout=10,
                                                   source=self.source)),
            lambda: self.stopping)
        self.stats["upgrades sent"] = len(answers)
        self.stats["took (s)"] = now() - started
        self.stats["answers"] = dict(Counter(httpStatus(a) for a in answers).most_common())


class BurstAttack(Attack):
    async def run(self) -> None:
        port = self.ports["web"]
        body = json.dumps({"engine": "connect4", "init": {}, "bots": []}).encode()
        request = httpRequest("POST", "/api/games", port, body,
                              ("Content-Type: application/json",))
        started = now()
        answers = await inBatches(
            self.args.burst, self.args.concurrency,
            lambda i: Deferred.fromCoroutine(raw(port, request, timeout=10, source=self.source)),
            lambda: self.stopping)
        self.stats["requests sent"] = len(answers)
        self.stats["took (s)"] = now() - started
        self.stats["answers"] = dict(Counter(httpStatus(a) for a in answers).most_common())


class TarotAttack(Attack):
    async def run(self) -> None:
        port = self.ports["web"]
        body = json.dumps({"engine": "tarot", "init": {}, "bots": [1, 2, 3, 4]}).encode()
        answer = await raw(port, httpRequest("POST", "/api/games", port, body,
                                             ("Content-Type: application/json",)),
                           source=self.source)
        self.stats["create"] = httpStatus(answer)
        try:
            self.game = json.loads(httpBody(answer))["id"]
        except (ValueError, KeyError, TypeError):
            self.game = None
            self.stats["create answer"] = httpBody(answer)[:200].decode("utf-8", "replace")

    async def stop(self) -> None:
        await super().stop()
        if getattr(self, "game", None) is None:
            return
        port = self.ports["web"]
        answer = await raw(port, httpRequest("GET", f"/api/games/{self.game}", port), cap=1 << 20)
        try:
            state = json.loads(httpBody(answer))
        except ValueError:
            self.stats["state"] = httpStatus(answer)
            return
        keys = [k for k in ("status", "turn", "actions", "finished", "gameover") if k in state]
        self.stats["game"] = f"{self.game}: " + ", ".join(f"{k} {state[k]}" for k in keys)


ATTACK_CLASSES: dict[str, type[Attack]] = {
    "nonreader": NonReaderAttack, "nonreader-engine": EngineNonReaderAttack,
    "flood-engine": FloodAttack,
    "flood-connect4": Connect4Flood, "upgrades": UpgradeAttack, "burst": BurstAttack,
    "tarot": TarotAttack,
}


# -- the windows ------------------------------------------------------------------


QUIET_METRICS = re.compile(r"_created|_bucket|_sum|_count\b|^process_|^python_|store_write")
"""The metrics not worth a line in the report (histograms, the process's own)."""


class LogReader:
    """
    The server's new log lines since the last read: whole lines only (one
    the server is still writing is read with the next ones).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def new(self) -> list[str]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return []
        data = data[:data.rfind(b"\n") + 1]
        self.offset += len(data)
        return data.decode("utf-8", "replace").splitlines()


def summariseLog(lines: list[str]) -> dict[str, Any]:
    """How many lines, tracebacks, and the most frequent messages (numbers and peers masked)."""
    shapes: Counter[str] = Counter()
    for line in lines:
        text = line.split("] ", 1)[-1] if "] " in line else line
        text = re.sub(r"\d+", "N", text)
        shapes[text[:110]] += 1
    return {"lines": len(lines), "tracebacks": sum("Traceback" in l for l in lines),
            "top": shapes.most_common(3)}


async def window(args: argparse.Namespace, name: str, pid: int, run: VictimRun,
                 ports: dict[str, int], log: LogReader, attack: Attack | None,
                 baseline: float | None) -> dict[str, Any]:
    """One measured window: the victim's latency while ``attack`` (if any) runs."""
    log.new()
    metrics0 = await scrapeMetrics(ports["web"])
    rss0, fds0 = rssKiB(pid), fdCount(pid)
    server0, bench0, busy0 = cpuSeconds(pid), selfCpu(), machineBusy()
    run.latencies = array.array("d")
    run.moves = run.games = 0
    run.errors.clear()
    closes0 = run.unexpectedCloses
    run.windowStart = now()
    run.measuring = True
    if attack is not None:
        attack.start()
    await sleep(args.seconds)
    run.measuring = False
    elapsed = now() - run.windowStart
    server1, bench1, busy1 = cpuSeconds(pid), selfCpu(), machineBusy()
    rss1, fds1 = rssKiB(pid), fdCount(pid)
    if attack is not None:
        await attack.stop()
        await sleep(args.settle)
    metrics1 = await scrapeMetrics(ports["web"])
    rssSettled, fdsSettled = rssKiB(pid), fdCount(pid)
    server, bench = server1 - server0, bench1 - bench0
    result: dict[str, Any] = {
        "name": name, "elapsed_s": elapsed, "moves": run.moves, "games": run.games,
        **percentiles(run.latencies),
        "server_cpu_pct": 100 * server / elapsed, "bench_cpu_pct": 100 * bench / elapsed,
        "other_cpu_pct": 100 * max(0.0, (busy1 - busy0) - server - bench) / elapsed,
        "rss_start_kib": rss0, "rss_end_kib": rss1, "rss_settled_kib": rssSettled,
        "fds_start": fds0, "fds_end": fds1, "fds_settled": fdsSettled,
        "victim_errors": dict(run.errors), "victim_closes": run.unexpectedCloses - closes0,
        "metrics": {k: v - metrics0.get(k, 0.0) for k, v in metrics1.items()
                    if v != metrics0.get(k, 0.0) and not QUIET_METRICS.search(k)},
        "log": summariseLog(log.new()),
        "attack": attack.figures() if attack is not None else {},
    }
    if baseline and result["p99_ms"] is not None:
        result["p99_ratio"] = result["p99_ms"] / baseline
    return result


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    results: dict[str, Any] = {
        **harness.runInfo(args),
        "pairs": args.pairs, "think_ms": args.think_ms, "seconds": args.seconds,
        "windows": [],
    }
    child, ports, logPath = startServer(args, work)
    run = VictimRun()
    rng = random.Random(args.seed)
    players = [VictimPlayer(run, b"v%d" % i, random.Random(rng.random()), args.think_ms / 1000)
               for i in range(2 * args.pairs)]
    try:
        for name in PORT_NAMES:
            await waitListening(child, ports[name])
        pid = child.pid
        log = LogReader(logPath)
        await sleep(0.5)
        results["server_rss_start_kib"] = rssKiB(pid)
        for i, p in enumerate(players):
            reactor.connectTCP("127.0.0.1", ports["connect4"],  # type: ignore[attr-defined]
                               OneProtocol(p), timeout=30, bindAddress=(victimAddress(i), 0))
            if i % 50 == 49:
                await waitFor(lambda: run.inits >= i + 1 - 10, 10)
        if not await waitFor(lambda: run.inits >= len(players), 30):
            raise RuntimeError(f"only {run.inits} of {len(players)} victims got INIT")
        await sleep(args.warmup)

        async def pair(name: str) -> list[dict[str, Any]]:
            """A baseline window, then the attack's, the pair again if the machine was busy."""
            for attempt in range(args.retries + 1):
                print(f"[{time.strftime('%H:%M:%S')}] {name}"
                      + (" (again: the machine was busy)" if attempt else "") + "...",
                      file=sys.stderr, flush=True)
                before = await window(args, f"baseline before {name}", pid, run, ports, log,
                                      None, None)
                attack = ATTACK_CLASSES[name](args, ports)
                during = await window(args, name, pid, run, ports, log, attack,
                                      before["p99_ms"])
                for w in (before, during):
                    w["attempts"] = attempt + 1
                during["attacked"] = True
                if first["p99_ms"] and during["p99_ms"] is not None:
                    during["p99_ratio_first"] = during["p99_ms"] / first["p99_ms"]
                busy = max(before["other_cpu_pct"], during["other_cpu_pct"])
                if busy <= args.busy_limit or attempt == args.retries:
                    return [before, during]
            raise AssertionError("unreachable")

        print(f"[{time.strftime('%H:%M:%S')}] baseline...", file=sys.stderr, flush=True)
        first = await window(args, "baseline", pid, run, ports, log, None, None)
        results["windows"].append(first)
        for name in args.attacks:
            if not child.alive():
                raise RuntimeError("the server exited: see its log")
            results["windows"] += await pair(name)
        results["server_rss_end_kib"] = rssKiB(pid)
        results["server_alive"] = child.alive()
    finally:
        run.stopping = True
        connect4_load.closeAll(players)
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)
        child.stop()
    with open(logPath, "rb") as f:
        whole = f.read()
    results["log_tracebacks_whole_run"] = whole.count(b"Traceback")
    results["targets"] = judge(results, args)
    return results


def judge(results: dict[str, Any], args: argparse.Namespace) -> dict[str, str]:
    verdicts: dict[str, str] = {}
    for w in results["windows"]:
        if not w.get("attacked"):
            continue
        ratio = w.get("p99_ratio")
        grew = (w["rss_settled_kib"] - w["rss_start_kib"]) / 1024
        ok = ratio is not None and ratio <= 2.0 and grew <= args.rss_limit_mib \
            and w["server_cpu_pct"] <= 100 and not w["log"]["tracebacks"] \
            and not w["victim_closes"]
        verdicts[w["name"]] = (
            ("met" if ok else "NOT met") + f": victim p99 x{fmt(ratio, 2)} of the baseline just"
            f" before (target <= 2; x{fmt(w.get('p99_ratio_first'), 2)} of the first), server RSS {grew:+.1f} MiB after settling (limit "
            f"+{args.rss_limit_mib} MiB), CPU {w['server_cpu_pct']:.0f}%, "
            f"{w['log']['tracebacks']} tracebacks, {w['victim_closes']} victims dropped"
            + (f"; others used {w['other_cpu_pct']:.0f}% of a core" if w["other_cpu_pct"]
               > args.busy_limit else ""))
    return verdicts


# -- the report -------------------------------------------------------------------


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("attack benchmark", results)
    lines.append(f"victim: {results['pairs']} Connect Four games on TCP, answering "
                 f"{fmt(results['think_ms'], 0)} ms after each turn; windows of "
                 f"{fmt(results['seconds'], 0)} s; server with its default limits")
    lines.append("")
    rows = []
    for w in results["windows"]:
        rows.append((w["name"], (
            f"p50 {fmt(w['p50_ms'], 2)} p99 {fmt(w['p99_ms'], 2)} max {fmt(w['max_ms'], 1)} ms"
            + (f" (p99 x{w['p99_ratio']:.2f})" if "p99_ratio" in w else "")
            + f", {fmt(w['moves'])} moves; server CPU {w['server_cpu_pct']:.0f}%, others "
            f"{w['other_cpu_pct']:.0f}%; RSS {w['rss_start_kib'] / 1024:.1f} -> "
            f"{w['rss_end_kib'] / 1024:.1f} -> {w['rss_settled_kib'] / 1024:.1f} MiB; fds "
            f"{w['fds_start']} -> {w['fds_end']} -> {w['fds_settled']}")))
    addTable(lines, "windows (RSS and fds: start -> end of window -> after settling)", rows)
    for w in results["windows"]:
        if not w.get("attacked") and (w["log"]["tracebacks"] == 0 and not w["victim_closes"]
                                      and w is not results["windows"][0]):
            continue
        rows = [(k, fmt(v, 2) if isinstance(v, float) else v) for k, v in w["attack"].items()]
        refused = {k: v for k, v in w["metrics"].items() if "refused" in k}
        other = {k: v for k, v in w["metrics"].items() if "refused" not in k}
        rows.append(("server refused (metrics)", ", ".join(
            f"{k.split('{', 1)[-1].rstrip('}')}: {v:,.0f}" for k, v in refused.items()) or "none"))
        rows.append(("other counters that moved", ", ".join(
            f"{k}: {v:+,.0f}" for k, v in list(other.items())[:8]) or "none"))
        logs = w["log"]
        rows.append(("server log lines (tracebacks)", f"{logs['lines']:,} ({logs['tracebacks']})"))
        for shape, n in logs["top"]:
            rows.append((f"  x{n:,}", shape))
        if w["victim_errors"] or w["victim_closes"]:
            rows.append(("victim errors / dropped", f"{w['victim_errors']} / {w['victim_closes']}"))
        if w.get("attempts", 1) > 1:
            rows.append(("attempts (machine busy)", w["attempts"]))
        addTable(lines, w["name"], rows)
    addTable(lines, "targets", list(results["targets"].items()) + [
        ("tracebacks in the whole log", results["log_tracebacks_whole_run"])])
    return "\n".join(lines)


# -- main -------------------------------------------------------------------------


def parseArgs(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].strip(),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--attacks", default=",".join(ATTACKS),
                        help=f"comma-separated, in order, among {', '.join(ATTACKS)}")
    parser.add_argument("--pairs", type=int, default=None,
                        help="victim games at once (default 50, --quick 20)")
    parser.add_argument("--think-ms", type=float, default=20.0,
                        help="the victim's delay before each move")
    parser.add_argument("--seconds", type=float, default=None,
                        help="each window (default 5, --quick 3)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before the baseline")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds after each attack before the next window")
    parser.add_argument("--nonreaders", type=int, default=20,
                        help="nonreader, nonreader-engine: connections")
    parser.add_argument("--pipelined", type=int, default=400,
                        help="nonreader: requests pipelined on each connection; "
                             "nonreader-engine: watch and leave pairs")
    parser.add_argument("--flood-connections", type=int, default=8,
                        help="flood-*: connections flooding at once")
    parser.add_argument("--flood-reconnects", type=int, default=200,
                        help="flood-*: closed connections replaced, at most")
    parser.add_argument("--upgrades", type=int, default=300, help="upgrades: requests")
    parser.add_argument("--burst", type=int, default=300, help="burst: POST /api/games")
    parser.add_argument("--concurrency", type=int, default=30,
                        help="upgrades, burst: connections at once (under the per-peer cap)")
    parser.add_argument("--busy-limit", type=float, default=30.0,
                        help="%% of a core other processes may use before a window is run again")
    parser.add_argument("--retries", type=int, default=1, help="reruns of a busy window")
    parser.add_argument("--rss-limit-mib", type=float, default=50.0,
                        help="server RSS growth per attack (after settling) the target allows")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 20 games, 3 s windows")
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the bench to one core and the server to the other")
    parser.add_argument("--server-tree", type=Path, default=REPO, metavar="DIR",
                        help="run the server from this source tree")
    parser.add_argument("--seed", type=int, default=1, help="the victim's choices")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="also write the figures as JSON ('-': stdout, instead of the table)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="abort the whole run after this long (default: from the options)")
    parser.add_argument("--keep-work", action="store_true",
                        help="keep the temporary directory (the server's log)")
    args = parser.parse_args(argv)
    if args.pairs is None:
        args.pairs = 20 if args.quick else 50
    if args.seconds is None:
        args.seconds = 3.0 if args.quick else 5.0
    args.attacks = [a.strip() for a in args.attacks.split(",") if a.strip()]
    if set(args.attacks) - set(ATTACKS):
        parser.error(f"--attacks: choose among {', '.join(ATTACKS)}")
    if not 1 <= args.pairs <= 2000 or args.concurrency < 1:
        parser.error("--pairs: 1 to 2000; --concurrency: at least 1")
    args.server_tree = args.server_tree.resolve()
    if args.max_seconds is None:
        windows = (2 * len(args.attacks) + 1) * (args.retries + 1)
        args.max_seconds = 60 + windows * (args.seconds + args.settle + 20)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parseArgs(argv)
    result = runBench(args, 2 * args.pairs + 2 * args.nonreaders + 600, "attack-bench-",
                      runAll, report)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
