#!/usr/bin/env python
"""
Load benchmark of gameproto's Protuissance 4 (Connect Four) server, judged
against its targets and a bare Twisted echo in the same run.

    python bench/connect4_load.py                 # about 2 minutes, prints a table
    python bench/connect4_load.py --pairs 200 --seconds 8 --idle 1000
    python bench/connect4_load.py --json out.json # the figures as JSON too

(``python -m bench.connect4_load`` from the repository root is the same.)

The real server runs as an operator would run it, in its own process
(``twistd -n gameproto --ports connect4=tcp:PORT:interface=127.0.0.1:backlog=1024,...``,
every other port off, pinned to one core, its log in a file, its records in
SQLite).  The clients of the load, think and echo phases run in
``--clients`` processes of their own (``bench.connect4_client``'s swarm:
plain epoll loops, far lighter per message than a Twisted protocol), pinned
with this one to the other core.  Four phases, each against a fresh server
(and one in process):

load
    ``--pairs`` pairs of clients (2 x pairs connections) connect, a batch at
    a time, then play complete games back to back (JOIN_QUEUE after each
    GAME_END), each answering at once with a random legal column.  After
    ``--warmup`` seconds, ``--seconds`` are measured: games/s, moves/s, the
    server's CPU per move, and the latency of each move, from the mover
    sending PLAY_MOVE to its opponent reading it (whichever client
    processes they are in: the clock is the same monotonic one), plus
    errors, the CPU of the server, the clients and the rest of the machine
    (others' work included), and the server's memory.
think
    The same with clients that think ``--think-ms`` (200) before each move.
idle
    ``--idle`` connections opened and held (by this process), each having
    sent nothing (the server gets ``--connect4-connect-timeout 120`` for
    this); the server's RSS growth per connection, and whether one more
    client still gets INIT.  Then each of them sends CONNECT: they are
    paired into games at once, and as the server gets a 120 s move timeout
    too, they sit in games nobody plays: RSS per connection again.
echo
    A bare Twisted echo server (``bench/harness.py echo``), the same client
    processes, the same number of pairs exchanging the same 4-byte
    PLAY_MOVE messages, one message in flight per pair (A sends and reads
    its echo, then B, then A...), for the same time: messages/s, latency
    and the echo server's CPU per message, the ceiling of the load phase.
layers (not run by default; about 15 s)
    No network and no server process: this tree's Protuissance 4 server in
    this process, to say where the CPU of a move goes.  The same random
    games (``--pairs`` at once, replayed from scripts made beforehand) are
    played, for ``--layers-seconds`` of CPU each, by ever more of the
    server: the rules engine alone (``Connect4Game.act``); a ``Table``
    around it (records in memory, turn clocks, every seat told); the
    server's connections (``Connect4ServerProtocol`` on transports that
    drop what they are given: PLAY_MOVE read, the machines, the players,
    the opponent's message written, matchmaking after each game); the same
    with the records in SQLite, commits batched as ``twistd gameproto``
    batches them.  The garbage collector is set as the server sets it
    (``--gc-threshold``).  Each layer's cost per move is the difference
    from the one before.  What the load phase adds beyond the last is the
    network: reading and writing sockets, the reactor, the log.

Then the targets: server CPU per move, moves/s against the echo's
messages/s, the p99 of each load phase at 1,000 games, and the idle
connections' memory, each MET or MISSED with its figure.

Every child process runs under ``timeout`` (the client processes stop by
themselves) in its own process group and is killed on exit, error or
Ctrl-C; the whole run aborts after ``--max-seconds``.
"""

from __future__ import annotations

if __name__ == "__main__" and not __package__:  # python bench/connect4_load.py
    import _launch

    _launch.asModule(__file__)

import argparse
import array
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from twisted.internet import reactor  # (default reactor: epoll)
from twisted.internet.testing import StringTransport

from bench import harness
from bench.connect4_client import Player, Run, closeAll
from bench.harness import (
    REPO,
    Child,
    addTable,
    connect,
    cpuSeconds,
    fdCount,
    fmt,
    machineBusy,
    now,
    percentiles,
    printProfile,
    printPySpy,
    reportHeader,
    rssKiB,
    runBench,
    selfCpu,
    sleep,
    startEcho,
    waitFor,
    waitListening,
)

# -- processes ---------------------------------------------------------------


def startGameproto(args: argparse.Namespace, work: Path, name: str, logfile: str | None,
                   extra: list[str], profile: str | None = None) -> tuple[Child, int]:
    """twistd gameproto on a free port; ``logfile`` None: its log is discarded."""
    child, ports = harness.startGameproto(args, work, name, ["connect4"], extra, log=logfile,
                                          profile=profile, backlog=1024)
    return child, ports["connect4"]

# -- clients -----------------------------------------------------------------


class Swarm:
    """
    The clients of a load or echo phase: ``players`` of them (whole pairs)
    in ``--clients`` processes of L{bench.connect4_client}'s swarm, each
    pinned with this process (to the bench's core).  They connect and say
    "ready"; L{go} opens and closes the measured window on the monotonic
    clock they share; L{results} adds up what each counted.
    """

    def __init__(self, args: argparse.Namespace, work: Path, mode: str, port: int,
                 players: int, think: float) -> None:
        self.mode = mode
        self.shared = work / f"{mode}-sent.bin"
        self.shared.write_bytes(bytes(8 * players))
        processes = max(1, min(args.clients, players // 2))
        share = [2 * (players // 2 // processes)] * processes
        for i in range((players // 2) % processes):
            share[i] += 2
        self.processes: list[tuple[subprocess.Popen[bytes], Path]] = []
        first = 0
        lifetime = args.max_seconds
        for number, count in enumerate(share):
            out = work / f"{mode}-latencies-{number}.bin"
            argv = [sys.executable, "-m", "bench.connect4_client", "swarm", mode, str(port),
                    str(first), str(count), str(self.shared), str(out),
                    "--think", str(think), "--batch", str(args.batch),
                    "--seed", str(args.seed * 1000 + number), "--lifetime", str(lifetime)]
            popen = subprocess.Popen(argv, cwd=REPO, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, start_new_session=True)
            assert popen.stdout is not None
            os.set_blocking(popen.stdout.fileno(), False)
            self.processes.append((popen, out))
            first += count
        self._output = [b""] * len(self.processes)

    def _read(self) -> None:
        for i, (popen, _) in enumerate(self.processes):
            assert popen.stdout is not None
            try:
                chunk = popen.stdout.read()
            except BlockingIOError:
                chunk = None
            if chunk:
                self._output[i] += chunk

    async def ready(self, timeout: float) -> float:
        """Wait until every process has its players connected (and INIT); the seconds it took."""
        started = now()

        def allReady() -> bool:
            self._read()
            for (popen, _), output in zip(self.processes, self._output):
                if popen.poll() is not None and b"ready" not in output:
                    raise RuntimeError(f"a {self.mode} client process exited before it was ready")
            return all(b"ready\n" in output for output in self._output)

        if not await waitFor(allReady, timeout, step=0.05):
            raise RuntimeError(f"the {self.mode} clients were not ready after {timeout} s")
        return now() - started

    def go(self, start: float, end: float, stop: float) -> None:
        """Measure from ``start`` to ``end``, stop at ``stop`` (perf_counter times)."""
        for popen, _ in self.processes:
            assert popen.stdin is not None
            popen.stdin.write(f"go {start!r} {end!r} {stop!r}\n".encode())
            popen.stdin.flush()

    def cpuSeconds(self) -> float:
        total = 0.0
        for popen, _ in self.processes:
            try:
                total += cpuSeconds(popen.pid)
            except OSError:
                pass
        return total

    async def results(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait for every process to end; their counts added up, and every latency."""
        await waitFor(lambda: all(p.poll() is not None for p, _ in self.processes), timeout)
        self._read()
        total: dict[str, Any] = {"errors": {}}
        latencies: array.array[float] = array.array("d")
        for (popen, out), output in zip(self.processes, self._output):
            if popen.poll() is None:
                popen.kill()
                popen.wait()
                raise RuntimeError(f"a {self.mode} client process did not stop")
            last = output.strip().splitlines()[-1] if output.strip() else b"{}"
            counts = json.loads(last)
            for key, value in counts.items():
                if key == "errors":
                    for kind, n in value.items():
                        total["errors"][kind] = total["errors"].get(kind, 0) + n
                else:
                    total[key] = total.get(key, 0) + value
            if out.exists():
                with open(out, "rb") as f:
                    latencies.frombytes(f.read())
        total["latencies"] = latencies
        return total

    def kill(self) -> None:
        for popen, _ in self.processes:
            if popen.poll() is None:
                popen.kill()
            popen.wait()
            for stream in (popen.stdin, popen.stdout):
                if stream is not None:
                    stream.close()


async def window(args: argparse.Namespace, swarm: Swarm, pid: int,
                 spy: Callable[[], Child | None] = lambda: None) -> dict[str, Any]:
        """
        The measured window: ``--warmup`` seconds, then ``--seconds``
        measured; the CPU the server (``pid``) and the clients used in it,
        and what the clients counted.
        """
        start = now() + args.warmup
        end = start + args.seconds
        swarm.go(start, end, end + 0.5)
        await sleep(start - now())
        server0, clients0, bench0 = cpuSeconds(pid), swarm.cpuSeconds(), selfCpu()
        busy0 = machineBusy()
        spying = spy()
        await sleep(end - now())
        server1, clients1, bench1 = cpuSeconds(pid), swarm.cpuSeconds(), selfCpu()
        busy1 = machineBusy()
        elapsed = end - start
        counts = await swarm.results()
        latencies = counts.pop("latencies")
        return {
            "elapsed_s": elapsed, "spy": spying,
            "server_cpu_s": server1 - server0,
            "server_cpu_pct": 100 * (server1 - server0) / elapsed,
            "clients_cpu_pct": 100 * (clients1 - clients0) / elapsed,
            "bench_cpu_pct": 100 * (bench1 - bench0) / elapsed,
            "machine_busy_pct": 100 * (busy1 - busy0) / elapsed,
            "others_busy_pct": 100 * ((busy1 - busy0) - (server1 - server0)
                                      - (clients1 - clients0) - (bench1 - bench0)) / elapsed,
            "clients": len(swarm.processes),
            **counts, **percentiles(latencies)}


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

async def loadPhase(args: argparse.Namespace, work: Path, think: float = 0.0,
                    name: str = "load") -> dict[str, Any]:
    """``--pairs`` games at once, the clients answering at once (or after ``think`` s)."""
    logfile = serverLog(args, work, f"gameproto-{name}.log")
    profile = args.profile if name == "load" else None
    child, port = startGameproto(args, work, f"gameproto-{name}", logfile, [], profile=profile)
    result: dict[str, Any] = {"pairs": args.pairs, "connections": 2 * args.pairs,
                              "think_ms": think * 1000,
                              "server_log": logfile or "discarded (--server-log discard)",
                              "profiled": bool(profile)}
    swarm: Swarm | None = None
    spy: Child | None = None

    def startSpy() -> Child | None:
        nonlocal spy
        if not args.py_spy or name != "load":
            return None
        command = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        # A child of this process: it runs on the bench's core, not the server's.
        spy = Child("py-spy", [command, "record", "--pid", str(child.pid), "--duration",
                               str(max(1, int(args.seconds))), "--rate", "200", "--format",
                               "raw", "--output", args.py_spy],
                    args.seconds + 30, work / "py-spy.out", None)
        return spy

    try:
        await waitListening(child, port)
        pid = child.pid
        await sleep(0.5)
        result["server_rss_start_kib"] = rssKiB(pid)
        swarm = Swarm(args, work, "game", port, 2 * args.pairs, think)
        result["ramp_s"] = await swarm.ready(60.0 + 2 * args.pairs / 50)
        result["server_rss_after_ramp_kib"] = rssKiB(pid)
        figures = await window(args, swarm, pid, startSpy)
        figures.pop("spy")
        result["server_rss_window_end_kib"] = rssKiB(pid)
        result["server_fds"] = fdCount(pid)
        result.update(figures)
        elapsed = figures["elapsed_s"]
        moves, games = figures.get("moves", 0), figures.get("games", 0)
        result.update(
            moves_per_s=moves / elapsed, games_per_s=games / elapsed,
            moves_per_game=moves / games if games else None,
            server_cpu_per_move_us=1e6 * figures["server_cpu_s"] / moves if moves else None,
            rss_growth_per_game_kib=(result["server_rss_window_end_kib"]
                                     - result["server_rss_after_ramp_kib"]) / games
            if games else None)
    finally:
        if swarm is not None:
            swarm.kill()
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)  # the server sees the closes before SIGTERM
        if spy is not None:
            try:
                spy.popen.wait(30)  # it stops by itself after --duration, then writes
            except subprocess.TimeoutExpired:
                pass
            spy.stop()
        child.stop(grace=60 if profile else 10)
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


async def thinkPhase(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """The load phase with clients that think ``--think-ms`` before each move."""
    return await loadPhase(args, work, args.think_ms / 1000, "think")


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
    """
    A bare Twisted echo server, the same clients' processes, the same pairs
    exchanging the same 4-byte PLAY_MOVE messages, one in flight per pair.
    """
    child, port = startEcho(args, work)
    result: dict[str, Any] = {"pairs": args.pairs, "connections": 2 * args.pairs}
    swarm: Swarm | None = None
    try:
        await waitListening(child, port)
        pid = child.pid
        await sleep(0.2)
        swarm = Swarm(args, work, "echo", port, 2 * args.pairs, 0.0)
        result["ramp_s"] = await swarm.ready(60.0 + 2 * args.pairs / 50)
        figures = await window(args, swarm, pid)
        figures.pop("spy")
        result["server_rss_kib"] = rssKiB(pid)
        result.update(figures)
        messages = figures.get("moves", 0)
        result.update(messages=messages, messages_per_s=messages / figures["elapsed_s"],
                      server_cpu_per_message_us=1e6 * figures["server_cpu_s"] / messages
                      if messages else None)
    finally:
        if swarm is not None:
            swarm.kill()
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)
        child.stop()
    return result


# -- layers (in process) -----------------------------------------------------


class _Dropped(StringTransport):
    """A transport that takes every write and keeps nothing, as a socket that never fills."""

    def write(self, data: bytes) -> None:
        pass

    def writeSequence(self, data: Any) -> None:
        pass


def _scripts(count: int, seed: int) -> list[list[int]]:
    """``count`` random complete games of the rules engine: each its columns, in order."""
    from gameproto.games.connect4 import ENGINE

    rng = random.Random(seed)
    scripts = []
    for _ in range(count):
        game: Any = ENGINE.start({})
        columns: list[int] = []
        while not game.over:
            column = rng.choice(game.board.legal_columns())
            game.act(game.board.turn, column)
            columns.append(column)
        scripts.append(columns)
    return scripts


def _cpuPerMove(seconds: float, play: Callable[[], int]) -> tuple[float, int]:
    """Run ``play`` (it plays some moves and says how many) for ``seconds`` of CPU: us per move."""
    play()  # warm
    moves, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        moves += play()
    return 1e6 * (time.process_time() - start) / moves, moves


def _engineLayer(scripts: list[list[int]]) -> Callable[[], int]:
    from gameproto.games.connect4 import ENGINE

    def play() -> int:
        moves = 0
        for script in scripts:
            game: Any = ENGINE.start({})
            seat = 0  # (seat 0 plays first)
            for column in script:
                game.act(seat, column)
                seat = 1 - seat
            moves += len(script)
        return moves
    return play


def _tableLayer(scripts: list[list[int]]) -> Callable[[], int]:
    from gameproto.engine.hub import OpenSeat
    from gameproto.engine.record import MemoryRecordStore
    from gameproto.engine.table import Table
    from gameproto.games.connect4 import ENGINE

    store = MemoryRecordStore()

    def play() -> int:
        moves = 0
        for script in scripts:
            table = Table.create(ENGINE, {}, [OpenSeat(60.0), OpenSeat(60.0)], reactor, store)
            table.start()
            for column in script:
                table.act(next(iter(table.waiting)), column)
            moves += len(script)
        store.records.clear()
        return moves
    return play


def _serverLayer(scripts: list[list[int]], pairs: int, db: str | None) -> Callable[[], int]:
    """
    ``2 * pairs`` connections of a Protuissance 4 server in this process,
    each pair playing; after a game each player sends JOIN_QUEUE at once.
    Each call is one turn of a reactor: every connection whose turn it is
    sends its move, then the turn's records are committed (and, as
    ``twistd gameproto`` does, sooner each time 64 connections wait).
    """
    from twisted.internet.address import IPv4Address

    from gameproto.connect4 import wire
    from gameproto.connect4.server import (
        Connect4Server,
        Connect4ServerFactory,
        Connect4Settings,
    )
    from gameproto.engine.hub import Hub
    from gameproto.engine.record import MemoryRecordStore
    from gameproto.engine.store import SQLiteRecordStore
    from gameproto.net import Limits

    store = MemoryRecordStore() if db is None else SQLiteRecordStore(db)
    hub = Hub(reactor, store, random.Random(1), batchCommits=True,
              limits=Limits(maxConnectionsPerPeer=0, messageRate=0))
    server = Connect4Server(Connect4Settings(rematchDelay=0), reactor, hub=hub)
    factory = Connect4ServerFactory(server)
    protocols: list[Any] = []
    for index in range(2 * pairs):
        address = IPv4Address("TCP", "127.0.0.1", 10000 + index)
        protocol = factory.buildProtocol(address)
        protocol.makeConnection(_Dropped(peerAddress=address))
        protocol.dataReceived(b"0p%d\r\n" % index)
        protocols.append(protocol)
    moveBytes = [wire.serialize(wire.PlayMove(c)) for c in range(7)]
    rejoin = wire.serialize(wire.JoinQueue())

    def play() -> int:
        moves = 0
        for protocol in protocols:
            table = protocol.player.table
            if table is None:
                continue
            if table.finished:
                protocol.dataReceived(rejoin)
            elif protocol.player.seat in table.waiting:
                turn = table.turn
                protocol.dataReceived(moveBytes[scripts[table.id % len(scripts)][turn]])
                if table.turn != turn + 1:
                    raise RuntimeError(f"game {table.id}: the server refused a scripted move")
                moves += 1
        if hub.outbox.holding:
            hub.outbox.flush()  # the end of a reactor turn that read every connection once
        return moves
    return play


def layersPhase(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Where a move's CPU goes, layer by layer, in this process (see the module's docstring)."""
    import gc

    from gameproto.tap import GC_THRESHOLD, tuneGarbageCollection

    before = set(reactor.getDelayedCalls())  # type: ignore[attr-defined]
    thresholds = gc.get_threshold() if hasattr(gc, "get_threshold") else None  # (not on PyPy)
    tuneGarbageCollection(GC_THRESHOLD)  # the server's own setting (twistd gameproto)
    scripts = _scripts(max(args.pairs, 1), args.seed)
    result: dict[str, Any] = {"pairs": args.pairs, "seconds": args.layers_seconds,
                              "moves_per_game": sum(map(len, scripts)) / len(scripts)}
    try:
        layers = [("engine", _engineLayer(scripts)), ("table", _tableLayer(scripts)),
                  ("server", _serverLayer(scripts, args.pairs, None)),
                  ("server_sqlite", _serverLayer(scripts, args.pairs,
                                                 str(work / "layers.sqlite")))]
        for name, play in layers:
            result[f"{name}_us"], result[f"{name}_moves"] = _cpuPerMove(args.layers_seconds, play)
    finally:
        for call in reactor.getDelayedCalls():  # type: ignore[attr-defined]
            if call not in before and call.active():
                call.cancel()
        if thresholds is not None:
            gc.unfreeze()
            gc.set_threshold(*thresholds)
    return result


def _layersRows(layers: dict[str, Any]) -> list[tuple[str, Any]]:
    names = [("engine", "the rules engine (Connect4Game.act)"),
             ("table", "+ the table (records in memory, clocks, seats told)"),
             ("server", "+ connections (protocol, machines, players, matchmaking)"),
             ("server_sqlite", "+ records in SQLite (batched commits)")]
    rows: list[tuple[str, Any]] = [("moves per game", fmt(layers["moves_per_game"]))]
    previous = 0.0
    for key, label in names:
        total = layers[f"{key}_us"]
        rows.append((label, f"{total:.1f} us a move ({total - previous:+.1f}), "
                            f"{fmt(layers[f'{key}_moves'])} moves"))
        previous = total
    return rows


# -- report ------------------------------------------------------------------


def _loadRows(load: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        ("games/s", fmt(load["games_per_s"])),
        ("moves/s", fmt(load["moves_per_s"], 0)),
        ("games, moves in window", f"{fmt(load.get('games'))}, {fmt(load.get('moves'))}"),
        ("moves per game", fmt(load["moves_per_game"])),
        ("move latency p50 / p90 / p99 / max (ms)",
         " / ".join(fmt(load[k]) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))),
        ("server CPU per move (us)", fmt(load["server_cpu_per_move_us"])),
        ("CPU, % of one core: server / clients (processes) / bench",
         f"{fmt(load['server_cpu_pct'], 0)} / {fmt(load['clients_cpu_pct'], 0)} "
         f"({load['clients']}) / {fmt(load['bench_cpu_pct'], 0)}"),
        ("machine busy / of which others (% of one core)",
         f"{fmt(load['machine_busy_pct'], 0)} / {fmt(load['others_busy_pct'], 0)}"),
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
         f"{load.get('unexpected_closes', 0)} / {load.get('connect_failures', 0)}"),
    ]


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("Connect Four load benchmark", results)

    def table(title: str, rows: list[tuple[str, Any]]) -> None:
        addTable(lines, title, rows)

    for name in ("load", "think"):
        load = results.get(name)
        if load:
            table(f"{name}: {load['pairs']} pairs ({load['connections']} connections), "
                  f"clients think {fmt(load['think_ms'], 0)} ms, "
                  f"{fmt(load['elapsed_s'])} s measured"
                  + (" [server PROFILED: figures not representative]" if load["profiled"]
                     else ""), _loadRows(load))
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
            ("latency p50 / p90 / p99 / max (ms)",
             " / ".join(fmt(echo[k]) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))),
            ("server CPU per message (us)", fmt(echo["server_cpu_per_message_us"])),
            ("CPU, % of one core: echo server / clients (processes) / bench",
             f"{fmt(echo['server_cpu_pct'], 0)} / {fmt(echo['clients_cpu_pct'], 0)} "
             f"({echo['clients']}) / {fmt(echo['bench_cpu_pct'], 0)}"),
            ("machine busy / of which others (% of one core)",
             f"{fmt(echo['machine_busy_pct'], 0)} / {fmt(echo['others_busy_pct'], 0)}"),
            ("pairs that never exchanged", fmt(echo.get("silent_pairs"))),
            ("errors", echo["errors"] or "none"),
            ("unexpected closes / connect failures",
             f"{echo.get('unexpected_closes', 0)} / {echo.get('connect_failures', 0)}"),
        ])
    layers = results.get("layers")
    if layers:
        table(f"layers, in process: {layers['pairs']} games at once, "
              f"{fmt(layers['seconds'])} s of CPU each (the network not included)",
              _layersRows(layers))
    ratios = [(k, v) for k, v in results.items() if k.startswith("ratio_")]
    if ratios:
        table("gameproto against the bare echo (same run)",
              [(k[len("ratio_"):].replace("_", " "), f"{v:.2f}") for k, v in ratios])
    targets = results.get("targets")
    if targets:
        table("targets", [(k, v) for k, v in targets.items()])
    return "\n".join(lines)


CPU_PER_MOVE_US = 30.0
ECHO_RATIO, ECHO_STRETCH = 0.35, 0.5
GAMES = 1000
P99_AT_ONCE_MS, P99_THINKING_MS, THINKING_MS = 50.0, 10.0, 200.0
IDLE, IDLE_KIB = 10_000, 3.0


def _clean(phase: dict[str, Any]) -> bool:
    return not phase["errors"] and not phase.get("unexpected_closes") and \
        not phase.get("connect_failures")


def judge(results: dict[str, Any], args: argparse.Namespace) -> dict[str, str]:
    """Each Protuissance 4 performance target the run can say something of: MET or MISSED."""
    targets: dict[str, str] = {}
    load, think = results.get("load"), results.get("think")
    idle, echo = results.get("idle"), results.get("echo")

    def verdict(ok: bool) -> str:
        return "MET" if ok else "MISSED"

    if load and not load["profiled"] and load["server_cpu_per_move_us"] is not None:
        perMove = load["server_cpu_per_move_us"]
        targets[f"server CPU per move <= {CPU_PER_MOVE_US:g} us"] = (
            f"{verdict(perMove <= CPU_PER_MOVE_US)} ({perMove:.1f} us)")
    if load and not load["profiled"]:
        clean = _clean(load)
        ok = load["pairs"] >= GAMES and load["think_ms"] == 0 and load["p99_ms"] is not None \
            and load["p99_ms"] < P99_AT_ONCE_MS and clean
        targets[f"{GAMES:,} games answering at once: move p99 < {P99_AT_ONCE_MS:g} ms"] = (
            f"{verdict(ok)} ({load['pairs']:,} games, p99 {fmt(load['p99_ms'])} ms"
            f"{'' if clean else ', with errors'})")
    if think:
        clean = _clean(think)
        ok = think["pairs"] >= GAMES and think["think_ms"] >= THINKING_MS and \
            think["p99_ms"] is not None and think["p99_ms"] < P99_THINKING_MS and clean
        targets[f"{GAMES:,} games thinking {THINKING_MS:g} ms: move p99 < {P99_THINKING_MS:g} ms"] = (
            f"{verdict(ok)} ({think['pairs']:,} games thinking {fmt(think['think_ms'], 0)} ms, "
            f"p99 {fmt(think['p99_ms'])} ms{'' if clean else ', with errors'})")
    if idle:
        held = (idle["held"] == idle["connections"]
                and idle["server_fds_over_start"] >= idle["connections"]
                and idle["probe_init_ms"] is not None)
        ok = idle["connections"] >= IDLE and held and idle["rss_per_idle_conn_kib"] <= IDLE_KIB
        targets[f"{IDLE:,} idle connections at <= {IDLE_KIB:g} KiB each"] = (
            f"{verdict(ok)} ({fmt(idle['held'])} of {fmt(idle['connections'])} held, "
            f"{fmt(idle['rss_per_idle_conn_kib'], 2)} KiB each, one more client's INIT in "
            f"{fmt(idle['probe_init_ms'])} ms)")
    if load and echo and not load["profiled"] and echo["messages_per_s"]:
        ratio = load["moves_per_s"] / echo["messages_per_s"]
        results["ratio_moves_per_s_to_echo_messages_per_s"] = ratio
        if load["server_cpu_per_move_us"] and echo["server_cpu_per_message_us"]:
            results["ratio_echo_cpu_per_message_to_cpu_per_move"] = (
                echo["server_cpu_per_message_us"] / load["server_cpu_per_move_us"])
        capped = echo["server_cpu_pct"] < 90
        note = (f"; the echo server used only {echo['server_cpu_pct']:.0f}% of its core "
                f"(clients {echo['clients_cpu_pct']:.0f}%, others on the machine "
                f"{echo['others_busy_pct']:.0f}%): the echo was not at its ceiling"
                if capped else "")
        targets[f"moves/s >= {ECHO_RATIO:g} x echo messages/s (stretch {ECHO_STRETCH:g})"] = (
            f"{verdict(ratio >= ECHO_RATIO)}{' (stretch met)' if ratio >= ECHO_STRETCH else ''} "
            f"(ratio {ratio:.2f}{note})")
    return targets


# -- main --------------------------------------------------------------------


def parseArgs(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].strip(),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--pairs", type=int, default=1000, help="client pairs (games at once)")
    parser.add_argument("--seconds", type=float, default=12.0, help="measured window per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--batch", type=int, default=25,
                        help="connections per ramp-up batch of each client process")
    parser.add_argument("--clients", type=int, default=2,
                        help="client processes of the load, think and echo phases")
    parser.add_argument("--think-ms", type=float, default=200.0,
                        help="client delay before each move in the think phase")
    parser.add_argument("--idle", type=int, default=10000, help="idle connections to hold")
    parser.add_argument("--idle-batch", type=int, default=50,
                        help="idle connections per batch (at most the listen backlog, 50)")
    parser.add_argument("--hold", type=float, default=3.0, help="seconds to hold idle connections")
    parser.add_argument("--phases", default="load,think,idle,echo",
                        help="which phases, comma-separated: load, think, idle, echo,"
                             " layers (in process, not run by default)")
    parser.add_argument("--layers-seconds", type=float, default=3.0,
                        help="CPU seconds the layers phase gives each layer")
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
    unknown = set(args.phases) - {"load", "think", "idle", "echo", "layers"}
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    args.server_tree = args.server_tree.resolve()
    if not (args.server_tree / "gameproto" / "tap.py").exists():
        parser.error(f"--server-tree: no gameproto/tap.py in {args.server_tree}")
    if args.max_seconds is None:
        args.max_seconds = 240 + 4 * (args.seconds + args.warmup) + 3 * args.hold \
            + (5 * args.layers_seconds if "layers" in args.phases else 0)
    return args


async def _layers(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    return layersPhase(args, work)


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    results: dict[str, Any] = {
        **harness.runInfo(args),
    }
    for phase in args.phases:
        print(f"[{time.strftime('%H:%M:%S')}] phase {phase}...", file=sys.stderr, flush=True)
        results[phase] = await {"load": loadPhase, "think": thinkPhase, "idle": idlePhase,
                                "echo": echoPhase, "layers": _layers}[phase](args, work)
        await sleep(1.0)
    results["targets"] = judge(results, args)
    return results

def main(argv: list[str] | None = None) -> int:
    harness.checkGameproto(sys.argv if argv is None else argv)
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
