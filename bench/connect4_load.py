#!/usr/bin/env python
"""
Load benchmark of gameproto's Protuissance 4 (Connect Four) server.

    python bench/connect4_load.py                 # ~1.5 minutes, prints a table
    python bench/connect4_load.py --pairs 200 --seconds 10 --idle 1000
    python bench/connect4_load.py --json out.json # the figures as JSON too

The real server runs as an operator would run it, in its own process
(``twistd -n gameproto --ports connect4=tcp:PORT:interface=127.0.0.1,web=off``,
pinned to one core, its log in a file); every client lives in this process
(pinned to the other core), as raw Twisted protocols reading with
``gameproto.connect4.wire``.  Three phases, each against a fresh server:

load
    ``--pairs`` pairs of clients (2 x pairs connections) connect in batches,
    then play complete games back to back (JOIN_QUEUE after each GAME_END),
    each answering at once with a random legal column.  After ``--warmup``
    seconds, ``--seconds`` are measured: games/s, moves/s, and the latency
    of each move, from the mover writing PLAY_MOVE to its opponent reading
    it (one clock: both ends are here), plus errors, the CPU use of both
    processes and the server's memory.
idle
    ``--idle`` connections opened and held, each having sent nothing (the
    server gets ``--connect4-connect-timeout 120`` for this); the server's
    RSS growth per connection, and whether one more client still gets INIT.
    Then each of them sends CONNECT: they are paired into games at once (the
    queue never keeps two players waiting), and as the server gets a 120 s
    move timeout too, they sit in games nobody plays: RSS per connection
    again, for a connected player in a game.
echo
    A bare Twisted echo server (``bench/_echo_server.py``), the same number of
    pairs exchanging the same 4-byte PLAY_MOVE messages, one message in
    flight per pair (A sends and reads its echo, then B, then A...), for the
    same time: messages/s and latency, the ceiling for the load phase.

Every child process runs under ``timeout`` in its own process group and is
killed on exit, error or Ctrl-C; the whole run aborts after ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import array
import glob
import json
import os
import platform
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from twisted.internet import reactor  # noqa: E402  (default reactor: epoll)
from twisted.internet.defer import Deferred  # noqa: E402
from twisted.internet.protocol import ClientFactory, Protocol  # noqa: E402
from twisted.internet.task import deferLater  # noqa: E402

from gameproto.connect4 import wire  # noqa: E402

SERVER_KINDS = wire.SERVER_MESSAGES
PlayMove, GameEnd, GameStart, Init, Error = (
    wire.PlayMove, wire.GameEnd, wire.GameStart, wire.Init, wire.Error)
NEED_MORE = wire.NEED_MORE
JOIN_QUEUE = wire.serialize(wire.JoinQueue())
WIDTH, HEIGHT = 7, 6  # the server's default board; checked against INIT
MOVES = [wire.serialize(PlayMove(c)) for c in range(256)]
now = time.perf_counter


# -- processes ---------------------------------------------------------------


def freePort() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def readProc(pid: int, name: str) -> str:
    with open(f"/proc/{pid}/{name}") as f:
        return f.read()


def rssKiB(pid: int) -> int:
    for line in readProc(pid, "status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpuSeconds(pid: int) -> float:
    fields = readProc(pid, "stat").rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fdCount(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def selfCpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Child:
    """
    A server process: under ``timeout`` (so it ends by itself whatever
    happens here), in its own process group, pinned to ``cpu``.
    """

    running: list[Child] = []

    def __init__(self, name: str, argv: list[str], lifetime: float, output: Path,
                 cpu: int | None, env: dict[str, str] | None = None,
                 cwd: Path = REPO) -> None:
        self.name = name
        command = ["timeout", "--signal=TERM", "--kill-after=5", str(int(lifetime) + 1)]
        if cpu is not None and shutil.which("taskset"):
            command += ["taskset", "-c", str(cpu)]
        command += argv
        self.output = open(output, "wb")
        self.popen = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=self.output,
            stderr=subprocess.STDOUT, start_new_session=True)
        Child.running.append(self)
        self._pid: int | None = None

    @property
    def pid(self) -> int:
        """The server's own pid (``timeout`` execs taskset, which execs the server)."""
        if self._pid is None:
            deadline = time.monotonic() + 10
            while self._pid is None:
                parent = self.popen.pid
                try:
                    children = readProc(parent, f"task/{parent}/children").split()
                except OSError:
                    children = []
                if children:
                    self._pid = int(children[0])
                elif self.popen.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{self.name} did not start; see {self.output.name}")
                else:
                    time.sleep(0.01)
        return self._pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM to the server, then SIGKILL to the whole group if it lingers."""
        if self.popen.poll() is None:
            try:
                if self._pid is not None:
                    os.kill(self._pid, signal.SIGTERM)
                else:
                    os.killpg(self.popen.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.popen.wait()
        self.output.close()
        if self in Child.running:
            Child.running.remove(self)

    @classmethod
    def stopAll(cls) -> None:
        for child in list(cls.running):
            try:
                child.stop(grace=2.0)
            except Exception as e:  # pragma: no cover - best effort at exit
                print(f"could not stop {child.name}: {e}", file=sys.stderr)


def twistdCommand() -> list[str]:
    script = Path(sys.executable).parent / "twistd"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from twisted.scripts.twistd import run; run()"]


def startGameproto(args: argparse.Namespace, work: Path, name: str, logfile: str | None,
                   extra: list[str], profile: str | None = None) -> tuple[Child, int]:
    """twistd gameproto on a free port; ``logfile`` None: its log is discarded."""
    port = freePort()
    argv = twistdCommand() + ["-n", "--pidfile="]
    if logfile is None:
        argv.append("--logger=bench._support.discardingLogger")
    else:
        argv.append(f"--logfile={logfile}")
    if profile:
        argv += [f"--profile={profile}", "--profiler=cprofile", "--savestats"]
    argv += ["gameproto", "--db", str(work / f"{name}.sqlite"),
             "--ports", f"connect4=tcp:{port}:interface=127.0.0.1,web=off,maitretarot=off,engine=off", *extra]
    # The server's tree first (this repository unless --server-tree), then this one for
    # bench._support, then any PYTHONPATH given to the bench (to try a patch).
    entries = (str(args.server_tree), str(REPO), os.environ.get("PYTHONPATH"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(e for e in entries if e))
    child = Child(name, argv, args.max_seconds, work / f"{name}.out", args.server_cpu, env,
                  cwd=args.server_tree)
    return child, port


def startEcho(args: argparse.Namespace, work: Path) -> tuple[Child, int]:
    port = freePort()
    argv = [sys.executable, str(REPO / "bench" / "_support.py"), "echo", str(port),
            str(args.max_seconds)]
    return Child("echo", argv, args.max_seconds, work / "echo.out", args.server_cpu), port


async def sleep(seconds: float) -> None:
    await deferLater(reactor, max(0.0, seconds))


async def waitFor(condition: Callable[[], bool], timeout: float, step: float = 0.01) -> bool:
    deadline = now() + timeout
    while not condition():
        if now() > deadline:
            return False
        await sleep(step)
    return True


async def waitListening(child: Child, port: int, timeout: float = 30.0) -> None:
    deadline = now() + timeout
    while True:
        if not child.alive():
            raise RuntimeError(f"{child.name} exited: see {child.output.name}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if now() > deadline:
                raise RuntimeError(f"{child.name} is not listening on {port}") from None
            await sleep(0.05)


# -- clients -----------------------------------------------------------------


class OneProtocol(ClientFactory):
    """Connects one given protocol instance."""

    noisy = False

    def __init__(self, protocol: Any) -> None:
        self.protocol_ = protocol

    def buildProtocol(self, addr: object) -> Any:
        return self.protocol_

    def clientConnectionFailed(self, connector: object, reason: Any) -> None:
        self.protocol_.connectFailed(reason)


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


class EchoPeer(Protocol):
    """
    One side of an echo pair: sends a PLAY_MOVE, reads its echo with the
    same codec, then lets its partner send; the same client work as a
    Player's move.
    """

    def __init__(self, run: Run, rng: random.Random) -> None:
        self.run = run
        self.rng = rng
        self.parser = wire.Parser()
        self.partner: EchoPeer | None = None
        self.heights = [0] * WIDTH
        self.sentAt = 0.0
        self.closed = False

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)  # type: ignore[attr-defined]
        self.run.connected += 1

    def connectFailed(self, reason: Any) -> None:
        self.run.connectFailures += 1
        self.closed = True

    def send(self) -> None:
        if self.closed or self.run.stopping:
            return
        column = chooseColumn(self.heights, self.rng)
        if column is None:
            self.heights = [0] * WIDTH
            column = chooseColumn(self.heights, self.rng)
            assert column is not None
        self.heights[column] += 1
        self.sentAt = now()
        self.transport.write(MOVES[column])  # type: ignore[union-attr]

    def dataReceived(self, data: bytes) -> None:
        run = self.run
        self.parser.feed(data)
        while True:
            message = self.parser.next(SERVER_KINDS)
            if message is NEED_MORE:
                return
            if type(message) is not PlayMove:
                run.error(f"echo: unexpected {message!r}")
                continue
            if run.measuring and self.sentAt >= run.windowStart:
                run.latencies.append(now() - self.sentAt)
                run.moves += 1
            assert self.partner is not None
            self.partner.send()

    def connectionLost(self, reason: Any) -> None:
        self.closed = True
        if not self.run.stopping:
            self.run.unexpectedCloses += 1


def connect(port: int, protocol: Any) -> None:
    reactor.connectTCP("127.0.0.1", port, OneProtocol(protocol), timeout=30)  # type: ignore[attr-defined]


def percentiles(samples: array.array[float]) -> dict[str, float | None]:
    if not samples:
        return {"p50_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(samples)
    n = len(ordered)

    def rank(q: float) -> float:
        return ordered[min(n - 1, max(0, int(q * n + 0.5) - 1))] * 1000

    return {"p50_ms": rank(0.50), "p90_ms": rank(0.90), "p99_ms": rank(0.99),
            "max_ms": ordered[-1] * 1000}


async def measure(run: Run, seconds: float, pid: int) -> dict[str, Any]:
    """Open the window, wait ``seconds``, close it; the CPU both processes used."""
    serverCpu0, benchCpu0 = cpuSeconds(pid), selfCpu()
    run.windowStart = now()
    run.measuring = True
    series: list[int] = []
    for second in range(int(seconds)):  # whole seconds, for the spread within the window
        before = run.moves
        await sleep(run.windowStart + second + 1 - now())
        series.append(run.moves - before)
    await sleep(run.windowStart + seconds - now())
    run.measuring = False
    elapsed = now() - run.windowStart
    ordered = sorted(series) or [0]
    return {
        "per_second": series,
        "per_second_min_median_max": (ordered[0], ordered[len(ordered) // 2], ordered[-1]),
        "elapsed_s": elapsed,
        "server_cpu_pct": 100 * (cpuSeconds(pid) - serverCpu0) / elapsed,
        "bench_cpu_pct": 100 * (selfCpu() - benchCpu0) / elapsed,
    }


def closeAll(protocols: list[Any]) -> None:
    for p in protocols:
        transport = getattr(p, "transport", None)
        if transport is not None and not p.closed:
            transport.abortConnection()


# -- phases ------------------------------------------------------------------


async def rampUp(run: Run, port: int, protocols: list[Any], batch: int, ready: Callable[[int], bool],
                 what: str, timeout: float = 30.0) -> float:
    """Connect ``protocols`` ``batch`` at a time, each batch when ``ready(count)``."""
    started = now()
    for i in range(0, len(protocols), batch):
        chunk = protocols[i : i + batch]
        for p in chunk:
            connect(port, p)
        target = i + len(chunk)
        if not await waitFor(lambda: ready(target) or run.connectFailures > 0, timeout):
            raise RuntimeError(f"ramp-up stuck at {what}: {target} wanted")
        if run.connectFailures:
            raise RuntimeError(f"{run.connectFailures} connections failed during ramp-up")
    return now() - started


def serverLog(args: argparse.Namespace, work: Path, name: str) -> str | None:
    if args.server_log == "discard":
        return None
    return args.server_log or str(work / name)


async def loadPhase(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    logfile = serverLog(args, work, "gameproto-load.log")
    child, port = startGameproto(args, work, "gameproto-load", logfile, [],
                                 profile=args.profile)
    run = Run()
    rng = random.Random(args.seed)
    players = [Player(run, b"p%d" % i, random.Random(rng.random()), args.think_ms / 1000)
               for i in range(2 * args.pairs)]
    spy: Child | None = None
    result: dict[str, Any] = {"pairs": args.pairs, "connections": 2 * args.pairs,
                              "think_ms": args.think_ms,
                              "server_log": logfile or "discarded (--server-log discard)",
                              "profiled": bool(args.profile)}
    try:
        await waitListening(child, port)
        pid = child.pid
        await sleep(0.5)
        result["server_rss_start_kib"] = rssKiB(pid)
        result["ramp_s"] = await rampUp(run, port, players, args.batch,
                                        lambda target: run.inits >= target, "INIT")
        result["server_rss_after_ramp_kib"] = rssKiB(pid)
        await sleep(args.warmup)
        rssBefore = rssKiB(pid)
        if args.py_spy:
            command = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            # A child of this process: it runs on the bench's core, not the server's.
            spy = Child("py-spy", [command, "record", "--pid", str(pid), "--duration",
                             str(max(1, int(args.seconds))), "--rate", "200", "--format", "raw",
                             "--output", args.py_spy],
                  args.seconds + 30, work / "py-spy.out", None)
        window = await measure(run, args.seconds, pid)
        rssAfter = rssKiB(pid)
        run.stopping = True
        result.update(window)
        result["server_rss_window_start_kib"] = rssBefore
        result["server_rss_window_end_kib"] = rssAfter
        result["server_fds"] = fdCount(pid)
        elapsed = window["elapsed_s"]
        result.update(
            games=run.games, moves=run.moves,
            games_per_s=run.games / elapsed, moves_per_s=run.moves / elapsed,
            moves_per_game=run.moves / run.games if run.games else None,
            rss_growth_per_game_kib=(rssAfter - rssBefore) / run.games if run.games else None,
            **percentiles(run.latencies))
    finally:
        run.stopping = True
        closeAll(players)
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)  # the server sees the closes before SIGTERM
        if spy is not None:
            try:
                spy.popen.wait(30)  # it stops by itself after --duration, then writes
            except subprocess.TimeoutExpired:
                pass
            spy.stop()
        child.stop(grace=60 if args.profile else 10)
    result["errors"] = dict(run.errors)
    result["unexpected_closes"] = run.unexpectedCloses
    result["connect_failures"] = run.connectFailures
    if logfile is not None:
        # twistd rotates its log file every 1 MB: count the rotated ones too.
        lines = size = tracebacks = files = 0
        for path in [logfile, *glob.glob(glob.escape(logfile) + ".[0-9]*")]:
            with open(path, "rb") as f:
                data = f.read()
            files += 1
            lines += data.count(b"\n")
            size += len(data)
            tracebacks += data.count(b"Traceback")
        result.update(log_lines=lines, log_bytes=size, log_files=files,
                      log_tracebacks=tracebacks)
    return result


async def idlePhase(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    logfile = serverLog(args, work, "gameproto-idle.log")
    waits = ["--connect4-connect-timeout", "120", "--connect4-timeout", "120",
             "--connect4-choice-timeout", "120"]
    child, port = startGameproto(args, work, "gameproto-idle", logfile, waits)
    run = Run()
    probes = Run()
    probes.stopping = True  # a probe only waits for INIT, then is closed
    rng = random.Random(args.seed + 1)
    held = [Player(run, b"i%d" % i, random.Random(rng.random()), sendConnect=False, passive=True)
            for i in range(args.idle)]
    others: list[Player] = []
    result: dict[str, Any] = {"connections": args.idle, "hold_s": args.hold}

    async def probe(nick: bytes) -> float | None:
        """One more client: seconds from connecting to INIT, None if it never comes."""
        p = Player(probes, nick, random.Random(0))
        others.append(p)
        fds = fdCount(child.pid)
        started = now()
        connect(port, p)
        got = await waitFor(lambda: p.initAt > 0, 10.0, step=0.001)
        if p.transport is not None:
            p.transport.abortConnection()
        # Out of the queue before the others CONNECT, or one would play it.
        await waitFor(lambda: fdCount(child.pid) <= fds, 5.0)
        return p.initAt - started if got else None

    try:
        await waitListening(child, port)
        pid = child.pid
        warm = await probe(b"warmup")
        await sleep(1.0)
        fd0, rss0 = fdCount(pid), rssKiB(pid)
        result["server_rss_start_kib"] = rss0
        result["warmup_probe_ms"] = None if warm is None else warm * 1000
        # Sent nothing: each sits in the connect phase.
        result["open_s"] = await rampUp(
            run, port, held, args.idle_batch,
            lambda target: run.connected >= target and fdCount(pid) >= fd0 + target,
            "accept")
        await sleep(args.hold)
        rss1 = rssKiB(pid)
        extra = await probe(b"probe1")
        stillOpen = sum(1 for p in held if p.open and not p.closed)
        result.update(
            held=stillOpen, server_fds_over_start=fdCount(pid) - fd0,
            server_rss_idle_kib=rss1, rss_per_idle_conn_kib=(rss1 - rss0) / args.idle,
            probe_init_ms=None if extra is None else extra * 1000)
        # Now each sends CONNECT: INIT, queued, paired at once, a game nobody plays.
        for i in range(0, len(held), args.idle_batch):
            for p in held[i : i + args.idle_batch]:
                p.connect()
            target = i + len(held[i : i + args.idle_batch])
            await waitFor(lambda: run.inits >= target, 30.0)
        paired = await waitFor(lambda: run.gameStarts >= args.idle - args.idle % 2, 30.0)
        await sleep(args.hold)
        rss2 = rssKiB(pid)
        extra2 = await probe(b"probe2")
        stillOpen2 = sum(1 for p in held if p.open and not p.closed)
        result.update(
            connected=run.inits, in_game=run.gameStarts, all_paired=paired,
            held_in_game=stillOpen2,
            server_rss_in_game_kib=rss2, rss_per_game_conn_kib=(rss2 - rss0) / args.idle,
            probe2_init_ms=None if extra2 is None else extra2 * 1000)
    finally:
        run.stopping = probes.stopping = True
        closeAll(held + others)
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)  # the server sees the closes before SIGTERM
        child.stop()
    result["errors"] = dict(run.errors)
    result["unexpected_closes"] = run.unexpectedCloses + probes.unexpectedCloses
    result["connect_failures"] = run.connectFailures + probes.connectFailures
    return result


async def echoPhase(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    child, port = startEcho(args, work)
    run = Run()
    rng = random.Random(args.seed + 2)
    peers = [EchoPeer(run, random.Random(rng.random())) for _ in range(2 * args.pairs)]
    for a, b in zip(peers[::2], peers[1::2]):
        a.partner, b.partner = b, a
    result: dict[str, Any] = {"pairs": args.pairs, "connections": 2 * args.pairs}
    try:
        await waitListening(child, port)
        pid = child.pid
        await sleep(0.2)
        fd0 = fdCount(pid)
        result["ramp_s"] = await rampUp(
            run, port, peers, args.batch,
            lambda target: run.connected >= target and fdCount(pid) >= fd0 + target, "accept")
        for a in peers[::2]:
            a.send()
        await sleep(args.warmup)
        window = await measure(run, args.seconds, pid)
        run.stopping = True
        result.update(window)
        result["server_rss_kib"] = rssKiB(pid)
        elapsed = window["elapsed_s"]
        result.update(messages=run.moves, messages_per_s=run.moves / elapsed,
                      **percentiles(run.latencies))
    finally:
        run.stopping = True
        closeAll(peers)
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)  # the server sees the closes before SIGTERM
        child.stop()
    result["errors"] = dict(run.errors)
    result["unexpected_closes"] = run.unexpectedCloses
    result["connect_failures"] = run.connectFailures
    return result


# -- report ------------------------------------------------------------------


def fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def machineBusy() -> float:
    """CPU seconds all cores spent busy since boot (/proc/stat), to see other loads."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cpuModel() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def reportHeader(title: str, results: dict[str, Any]) -> list[str]:
    """The first lines of every benchmark's report: what ran, where, on which code."""
    return [f"gameproto {title} ({results['date']}, {results['cpus']} cores"
            + (f" {results['cpu_model']}" if results.get("cpu_model") else "")
            + f", Python {results['python']}, Twisted {results['twisted']})",
            f"command: {results['command']}",
            f"server code: {results['server_code']}; reactor {results['reactor']}; "
            f"{'bench and server pinned to one core each' if results['pinned'] else 'not pinned'}",
            ""]


def addTable(lines: list[str], title: str, rows: list[tuple[str, Any]]) -> None:
    """Append a titled two-column table (names aligned) and a blank line to ``lines``."""
    lines.append(title)
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        lines.append(f"  {key:<{width}}  {value}")
    lines.append("")


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("Connect Four load benchmark", results)

    def table(title: str, rows: list[tuple[str, Any]]) -> None:
        addTable(lines, title, rows)

    load = results.get("load")
    if load:
        table(f"load: {load['pairs']} pairs ({load['connections']} connections), "
              f"{fmt(load['elapsed_s'])} s measured"
              + (" [server PROFILED: figures not representative]" if load["profiled"] else ""), [
            ("games/s", fmt(load["games_per_s"])),
            ("moves/s", fmt(load["moves_per_s"], 0)),
            ("moves in each second: min / median / max",
             " / ".join(fmt(v) for v in load["per_second_min_median_max"])),
            ("games, moves in window", f"{fmt(load['games'])}, {fmt(load['moves'])}"),
            ("moves per game", fmt(load["moves_per_game"])),
            ("move latency p50 / p90 / p99 / max (ms)",
             " / ".join(fmt(load[k]) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))),
            ("server CPU / bench CPU (% of one core)",
             f"{fmt(load['server_cpu_pct'], 0)} / {fmt(load['bench_cpu_pct'], 0)}"),
            ("ramp-up of all connections (s)", fmt(load["ramp_s"], 2)),
            ("server RSS start / after ramp / window end (MiB)",
             " / ".join(fmt(load[k] / 1024) for k in (
                 "server_rss_start_kib", "server_rss_after_ramp_kib",
                 "server_rss_window_end_kib"))),
            ("server RSS growth per game in window (KiB)", fmt(load["rss_growth_per_game_kib"], 2)),
            ("server log", f"{fmt(load.get('log_lines'))} lines, "
                           f"{fmt((load.get('log_bytes') or 0) / 1e6, 2)} MB in "
                           f"{fmt(load.get('log_files'))} files ({load['server_log']})"
             if "log_lines" in load else load["server_log"]),
            ("errors", load["errors"] or "none"),
            ("unexpected closes / connect failures",
             f"{load['unexpected_closes']} / {load['connect_failures']}"),
        ])
    idle = results.get("idle")
    if idle:
        table(f"idle: {fmt(idle['connections'])} connections held {fmt(idle['hold_s'])} s", [
            ("held (sent nothing) / accepted by server",
             f"{fmt(idle['held'])} / {fmt(idle['server_fds_over_start'])} fds"),
            ("one more client: CONNECT to INIT (ms)", fmt(idle["probe_init_ms"])),
            ("server RSS start / idle (MiB)",
             f"{fmt(idle['server_rss_start_kib'] / 1024)} / {fmt(idle['server_rss_idle_kib'] / 1024)}"),
            ("RSS per idle connection (KiB)", fmt(idle["rss_per_idle_conn_kib"], 2)),
            ("then CONNECTed: INIT / GAME_START / still open",
             f"{fmt(idle['connected'])} / {fmt(idle['in_game'])} / {fmt(idle['held_in_game'])}"),
            ("server RSS, all in games (MiB)", fmt(idle["server_rss_in_game_kib"] / 1024)),
            ("RSS per connection in a game (KiB)", fmt(idle["rss_per_game_conn_kib"], 2)),
            ("one more client then: CONNECT to INIT (ms)", fmt(idle["probe2_init_ms"])),
            ("errors", idle["errors"] or "none"),
            ("unexpected closes / connect failures",
             f"{idle['unexpected_closes']} / {idle['connect_failures']}"),
        ])
    echo = results.get("echo")
    if echo:
        table(f"echo baseline: {echo['pairs']} pairs, {fmt(echo['elapsed_s'])} s measured", [
            ("messages/s", fmt(echo["messages_per_s"], 0)),
            ("messages in each second: min / median / max",
             " / ".join(fmt(v) for v in echo["per_second_min_median_max"])),
            ("latency p50 / p90 / p99 / max (ms)",
             " / ".join(fmt(echo[k]) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))),
            ("server CPU / bench CPU (% of one core)",
             f"{fmt(echo['server_cpu_pct'], 0)} / {fmt(echo['bench_cpu_pct'], 0)}"),
            ("errors", echo["errors"] or "none"),
            ("unexpected closes / connect failures",
             f"{echo['unexpected_closes']} / {echo['connect_failures']}"),
        ])
    targets = results.get("targets")
    if targets:
        table("targets", [(k, v) for k, v in targets.items()])
    return "\n".join(lines)


def judge(results: dict[str, Any], args: argparse.Namespace) -> dict[str, str]:
    targets: dict[str, str] = {}
    load, idle, echo = results.get("load"), results.get("idle"), results.get("echo")
    if load and not load["profiled"]:
        clean = not load["errors"] and not load["unexpected_closes"]
        ok = load["pairs"] >= 1000 and load["p99_ms"] is not None and load["p99_ms"] < 50 and clean
        targets["1,000 concurrent games, move p99 < 50 ms"] = (
            f"{'MET' if ok else 'MISSED'} ({load['pairs']} games, p99 {fmt(load['p99_ms'])} ms"
            f"{'' if clean else ', with errors'})")
    if idle:
        ok = (idle["connections"] >= 5000 and idle["held"] == idle["connections"]
              and idle["server_fds_over_start"] >= idle["connections"]
              and idle["probe_init_ms"] is not None)
        targets["5,000 idle connections held"] = (
            f"{'MET' if ok else 'MISSED'} ({fmt(idle['held'])} of {fmt(idle['connections'])} held, "
            f"extra client INIT in {fmt(idle['probe_init_ms'])} ms)")
    if load and echo and not load["profiled"]:
        ratio = load["moves_per_s"] / echo["messages_per_s"]
        results["moves_to_echo_ratio"] = ratio
        # Per second of server CPU: fair when one side's server is not saturated.
        perCpu = (load["moves_per_s"] / max(load["server_cpu_pct"], 1)) / (
            echo["messages_per_s"] / max(echo["server_cpu_pct"], 1))
        results["moves_to_echo_ratio_per_server_cpu"] = perCpu
        note = (f"; the echo was limited by the bench (bench CPU {echo['bench_cpu_pct']:.0f}%, "
                f"echo server {echo['server_cpu_pct']:.0f}%): per second of server CPU "
                f"the ratio is {perCpu:.2f}" if echo["bench_cpu_pct"] >= 90 else "")
        targets["moves/s >= 0.3 x echo messages/s"] = (
            f"{'MET' if ratio >= 0.3 else 'MISSED'} (ratio {ratio:.2f}{note})")
    return targets


def printPySpy(path: str, top: int) -> None:
    """Inclusive and own shares of the samples of py-spy's collapsed stacks."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            n = int(count)
            total += n
            # "function (file:line)": inclusive by function, own by line.
            frames = stack.split(";")
            for function in {f.rpartition(":")[0] + ")" for f in frames}:
                inclusive[function] = inclusive.get(function, 0) + n
            own[frames[-1]] = own.get(frames[-1], 0) + n
    if not total:
        print(f"\npy-spy: no samples in {path}")
        return
    short = str(REPO) + "/"
    for title, table in (("inclusive", inclusive), ("own", own)):
        print(f"\nserver py-spy samples ({total:,} in {path}), top {top} by {title} share:")
        for frame, n in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            name = frame.replace(short, "").replace(str(Path(twistedFile()).parent.parent) + "/", "")
            print(f"  {100 * n / total:5.1f}%  {name}")


def twistedFile() -> str:
    import twisted

    return twisted.__file__


def printProfile(path: str, top: int) -> None:
    import pstats

    print(f"\nserver profile ({path}), top {top} by cumulative time:")
    stats = pstats.Stats(path)
    stats.sort_stats("cumulative").print_stats(top)
    print(f"top {top} by own time:")
    stats.sort_stats("tottime").print_stats(top)


# -- main --------------------------------------------------------------------


def parseArgs(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].strip(),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--pairs", type=int, default=1000, help="client pairs (games at once)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--batch", type=int, default=50,
                        help="connections per ramp-up batch (at most the listen backlog, 50)")
    parser.add_argument("--think-ms", type=float, default=0.0,
                        help="client delay before each move (0: answer at once)")
    parser.add_argument("--idle", type=int, default=5000, help="idle connections to hold")
    parser.add_argument("--idle-batch", type=int, default=50,
                        help="idle connections per batch (at most the listen backlog, 50)")
    parser.add_argument("--hold", type=float, default=3.0, help="seconds to hold idle connections")
    parser.add_argument("--phases", default="load,idle,echo",
                        help="which phases, comma-separated: load, idle, echo")
    parser.add_argument("--server-log", default=None,
                        help="gameproto's --logfile (default: a temporary file, counted, deleted);"
                             " 'discard' to drop every log event (twistd --logger) and so measure"
                             " the cost of logging")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="run the load phase's server under cProfile (twistd --profile) and"
                             " print its hot spots; its figures are then not representative")
    parser.add_argument("--py-spy", default=None, metavar="FILE",
                        help="sample the load phase's server with py-spy during the window"
                             " (collapsed stacks to FILE) and print its hot spots")
    parser.add_argument("--profile-top", type=int, default=30)
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the bench to core 0 and the server to core 1")
    parser.add_argument("--server-tree", type=Path, default=REPO, metavar="DIR",
                        help="run the server from this source tree (e.g. 'git archive' of another"
                             " commit, to compare, or to keep measuring one version while the"
                             " work tree changes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, metavar="FILE", help="also write the figures as JSON"
                        " ('-': stdout, instead of the table)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="abort the whole run after this long (default: from the options)")
    parser.add_argument("--keep-work", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    if args.server_log and os.path.realpath(args.server_log).startswith("/dev/"):
        parser.error("--server-log: twistd rotates its log file every 1 MB by renaming it;"
                     " use --server-log discard rather than a device")
    args.phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    unknown = set(args.phases) - {"load", "idle", "echo"}
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    args.server_tree = args.server_tree.resolve()
    if not (args.server_tree / "gameproto" / "tap.py").exists():
        parser.error(f"--server-tree: no gameproto/tap.py in {args.server_tree}")
    if args.max_seconds is None:
        args.max_seconds = 180 + 3 * (args.seconds + args.warmup) + 3 * args.hold
    return args


def raiseFileLimit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def serverCode(tree: Path) -> str:
    """The commit measured, and whether gameproto/ differs from it."""
    where = "" if tree == REPO else f"{tree}: "
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=tree, timeout=10,
                             capture_output=True, text=True, check=True).stdout.strip()
        if Path(top).resolve() != tree:
            raise subprocess.SubprocessError("not the top of a checkout")
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, timeout=10,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "gameproto"], cwd=tree,
                               timeout=10, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return f"{where}not a git checkout"
    return where + head + (" + uncommitted changes in gameproto/" if dirty else "")


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    import twisted

    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "command": " ".join(["python", *sys.argv]),
        "cpus": os.cpu_count(), "python": platform.python_version(),
        "twisted": twisted.__version__, "reactor": type(reactor).__name__,
        "pinned": args.server_cpu is not None,
        "server_code": serverCode(args.server_tree),
    }
    for phase in args.phases:
        print(f"[{time.strftime('%H:%M:%S')}] phase {phase}...", file=sys.stderr, flush=True)
        results[phase] = await {"load": loadPhase, "idle": idlePhase, "echo": echoPhase}[phase](
            args, work)
        await sleep(1.0)
    results["targets"] = judge(results, args)
    return results


def runBench(args: argparse.Namespace, needed: int, prefix: str,
             runAll: Callable[[argparse.Namespace, Path], Any],
             report: Callable[[dict[str, Any]], str]) -> dict[str, Any] | int:
    """
    What every benchmark's ``main`` does: check the file limit, pin this
    process to the first core (the server gets the second), run ``runAll``
    in the reactor under the ``--max-seconds`` watchdog, stop every child,
    and print the report (or the JSON).  The results, or an exit status.
    """
    limit = raiseFileLimit()
    if limit < needed:
        print(f"RLIMIT_NOFILE is {limit}, {needed} needed", file=sys.stderr)
        return 2
    args.server_cpu = None
    if not args.no_pin and len(os.sched_getaffinity(0)) >= 2:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
        args.server_cpu = cpus[1]
    work = Path(tempfile.mkdtemp(prefix=prefix))
    outcome: dict[str, Any] = {}

    def done(result: Any) -> None:
        outcome["result"] = result
        if reactor.running:  # type: ignore[attr-defined]
            reactor.stop()  # type: ignore[attr-defined]

    def abort() -> None:
        outcome["result"] = RuntimeError(f"aborted after --max-seconds {args.max_seconds}")
        reactor.stop()  # type: ignore[attr-defined]

    try:
        d = Deferred.fromCoroutine(runAll(args, work))
        d.addBoth(done)
        watchdog = reactor.callLater(args.max_seconds, abort)  # type: ignore[attr-defined]
        if "result" not in outcome:
            reactor.run()  # type: ignore[attr-defined]
        if watchdog.active():
            watchdog.cancel()
    finally:
        Child.stopAll()
        if not args.keep_work:
            shutil.rmtree(work, ignore_errors=True)
        elif work.exists():
            print(f"work directory kept: {work}", file=sys.stderr)
    result = outcome.get("result")
    if result is None:
        print("interrupted", file=sys.stderr)
        return 130
    if not isinstance(result, dict):
        failure = getattr(result, "value", result)
        print(f"benchmark failed: {failure!r}", file=sys.stderr)
        if hasattr(result, "getTraceback"):
            print(result.getTraceback(), file=sys.stderr)
        return 1
    if args.json == "-":
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print(report(result))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=2)
    return result


def main(argv: list[str] | None = None) -> int:
    args = parseArgs(argv)
    result = runBench(args, max(2 * args.pairs, args.idle) + 100, "connect4-bench-",
                      runAll, report)
    if isinstance(result, int):
        return result
    if args.profile and "load" in result:
        printProfile(args.profile, args.profile_top)
    if args.py_spy and "load" in result and os.path.exists(args.py_spy):
        printPySpy(args.py_spy, args.profile_top)
    return 0

if __name__ == "__main__":
    sys.exit(main())
