#!/usr/bin/env python
"""
Load benchmark of gameproto's Protuissance 4 (Connect Four) server.

    python -m bench.connect4_load                 # ~1.5 minutes, prints a table
    python -m bench.connect4_load --pairs 200 --seconds 10 --idle 1000
    python -m bench.connect4_load --json out.json # the figures as JSON too

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
    A bare Twisted echo server (``bench/harness.py echo``), the same number of
    pairs exchanging the same 4-byte PLAY_MOVE messages, one message in
    flight per pair (A sends and reads its echo, then B, then A...), for the
    same time: messages/s and latency, the ceiling for the load phase.

Every child process runs under ``timeout`` in its own process group and is
killed on exit, error or Ctrl-C; the whole run aborts after ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from twisted.internet import reactor  # (default reactor: epoll)
from twisted.internet.protocol import Protocol

from bench import harness
from bench.connect4_client import (
    MOVES,
    NEED_MORE,
    SERVER_KINDS,
    WIDTH,
    PlayMove,
    Player,
    Run,
    chooseColumn,
    closeAll,
)
from bench.harness import (
    REPO,
    Child,
    DISCARD_LOGGER,
    addTable,
    connect,
    cpuSeconds,
    fdCount,
    fmt,
    freePort,
    now,
    percentiles,
    printProfile,
    printPySpy,
    reportHeader,
    rssKiB,
    runBench,
    selfCpu,
    serverCode,
    serverEnv,
    sleep,
    startEcho,
    twistdCommand,
    waitFor,
    waitListening,
)
from gameproto.connect4 import wire

# -- processes ---------------------------------------------------------------


def startGameproto(args: argparse.Namespace, work: Path, name: str, logfile: str | None,
                   extra: list[str], profile: str | None = None) -> tuple[Child, int]:
    """twistd gameproto on a free port; ``logfile`` None: its log is discarded."""
    port = freePort()
    argv = twistdCommand() + ["-n", "--pidfile="]
    if logfile is None:
        argv.append(DISCARD_LOGGER)
    else:
        argv.append(f"--logfile={logfile}")
    if profile:
        argv += [f"--profile={profile}", "--profiler=cprofile", "--savestats"]
    argv += ["gameproto", "--db", str(work / f"{name}.sqlite"),
             "--ports", harness.onlyPorts("connect4", f"tcp:{port}:interface=127.0.0.1"),
             *harness.loadLimits(args.server_tree), *extra]
    env = serverEnv(args.server_tree)
    child = Child(name, argv, args.max_seconds, work / f"{name}.out", args.server_cpu, env,
                  cwd=args.server_tree)
    return child, port


# -- clients -----------------------------------------------------------------


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


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    import twisted

    results: dict[str, Any] = {
        **harness.runInfo(args),
    }
    for phase in args.phases:
        print(f"[{time.strftime('%H:%M:%S')}] phase {phase}...", file=sys.stderr, flush=True)
        results[phase] = await {"load": loadPhase, "idle": idlePhase, "echo": echoPhase}[phase](
            args, work)
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
