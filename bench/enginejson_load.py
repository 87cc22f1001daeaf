#!/usr/bin/env python
"""
Actions per second through gameproto's engine JSON protocol, with every game
record written to SQLite, and the same load with storage off.

    python bench/enginejson_load.py                  # ~90 s, prints a table
    python bench/enginejson_load.py --quick          # ~12 s smoke run
    python bench/enginejson_load.py --workloads pvp --repeat 3
    python bench/enginejson_load.py --stores sqlite,off --py-spy /tmp/ej   # server hot spots
    python bench/enginejson_load.py --stores ""      # the direct phase alone, ~6 s
    python bench/enginejson_load.py --json out.json  # the figures as JSON too

(``python -m bench.enginejson_load`` from the repository root is the same.)

Two kinds of phase:

direct
    The record store alone, in this process, no network: games of
    ``--direct-actions`` actions (``gameStarted``, ``seatsChanged``, one
    ``actionAccepted`` per action, ``gameFinished``, as a table calls them)
    written to ``SQLiteRecordStore`` on a file, to ``SQLiteRecordStore``
    on ``:memory:``, and to a store that keeps nothing: the CPU each costs
    per action without any server around it, and for the file the write()
    calls and the bytes sent to the disk (``/proc/self/io``) per action.
network runs
    For each ``--workloads`` x ``--stores`` (``--repeat`` times, the stores
    interleaved): a fresh server, run as an operator runs it (``twistd -n
    --pidfile= gameproto --db FILE --ports
    engine=tcp:PORT:interface=127.0.0.1,web=off,connect4=off,maitretarot=off``,
    its log discarded unless ``--server-log``, pinned to one core), and
    ``--players`` JSON-lines clients in this process (pinned to the other
    core), raw Twisted protocols answering at once with the centre of a
    random zone of the CLICK the instructions request of them.

    Workloads:
      pvp  clients in pairs: one creates a Connect Four game with no bot
           (``{"type":"create","engine":"connect4","init":{},"bots":[]}``),
           the other joins it (``{"type":"join","game":ID}``); they play
           each other, then the creator creates the next game.  What the
           protocol and the store cost per action.
      bot  each client creates a game against the server's bot
           (``"bots":[2]``) and, when it ends, creates another.  The bot's
           search runs in the server's reactor and costs far more than
           the rest: this measures the bot, and what it does to latency.

    Stores:
      sqlite  ``--db`` a file in a temporary directory: each accepted
              action is an INSERT committed before any seat is told.
      memdb   ``--db :memory:``: the same SQL, no file.
      off     storage off: ``twistd gameproto`` has no such option, so the
              server is started through this script (``--twistd-without-store``,
              then twistd's own ``run()``), which first swaps
              ``gameproto.tap.SQLiteRecordStore`` for a store that keeps
              nothing.  Everything else is the same server.

    After ``--warmup`` seconds, ``--seconds`` are measured: accepted actions
    of the clients per second (an action is accepted when the next
    instructions arrive with no ``errors`` before them), every action of
    the games per second (the bot's too: what the store writes), games/s,
    the latency from writing an action to reading the next instructions
    (``ack``) and to reading the next instructions that ask this client to
    act again or end the game (``turn``: the bot's or the opponent's move
    included), errors, bytes the clients read per action, the CPU of the
    server (per action too), of this process and of every other process
    (a busy neighbour on either core lowers every figure), the server's
    write() calls and bytes sent to the disk per action, and its RSS.  Then the clients close (the server's bots finish
    their games), the server stops, and for ``sqlite`` the database is read
    with ``sqlite3``: its size, its games and actions, and whether every
    game a client saw end is there, finished, with as many actions as that
    client saw instructions for it.

Every child process runs under ``timeout`` in its own process group and is
killed on exit, error or Ctrl-C; the whole run aborts after ``--max-seconds``.
The process helpers are the benchmarks' own (``bench/harness.py``).
"""

from __future__ import annotations

import argparse
import array
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

NO_STORE = "--twistd-without-store"
"""First argument: run ``twistd`` (the rest of the arguments) with storage off."""


class NullStore:
    """A record store that keeps nothing: ``--stores off``, and the direct phase's baseline."""

    def __init__(self, path: str = "") -> None:
        self._lastId = 0

    def nextId(self) -> int:
        self._lastId += 1
        return self._lastId

    def gameStarted(self, record: Any) -> None:
        pass

    def gameResumed(self, record: Any) -> None:
        pass

    def seatsChanged(self, record: Any) -> None:
        pass

    def actionAccepted(self, record: Any, action: Any) -> None:
        pass

    def gameFinished(self, record: Any) -> None:
        pass

    def get(self, gameId: int) -> None:
        return None

    def games(self, offset: int = 0, limit: int = 50, status: Any = None) -> tuple[list[Any], int]:
        return [], 0

    def unfinished(self) -> Iterator[Any]:
        return iter(())

    def close(self) -> None:
        pass


def twistdWithoutStore(argv: list[str]) -> None:
    """``twistd *argv`` with every ``SQLiteRecordStore`` of gameproto.tap a L{NullStore}."""
    import gameproto.tap

    gameproto.tap.SQLiteRecordStore = NullStore  # type: ignore[misc,assignment]
    from twisted.scripts.twistd import run

    sys.argv = ["twistd", *argv]
    run()


if __name__ == "__main__" and sys.argv[1:2] == [NO_STORE]:
    twistdWithoutStore(sys.argv[2:])
    sys.exit(0)

if __name__ == "__main__" and not __package__:  # python bench/enginejson_load.py
    import _launch

    _launch.asModule(__file__)

from bench import harness  # noqa: E402
from bench.harness import (  # noqa: E402
    REPO,
    Child,
    addTable,
    connect,
    cpuSeconds,
    fmt,
    machineBusy,
    now,
    percentiles,
    printPySpy,
    reportHeader,
    rssKiB,
    runBench,
    selfCpu,
    sleep,
    startGameproto,
    waitFor,
    waitListening,
)

# The direct phase measures this tree's store (the server: --server-tree's).
harness.checkGameproto(sys.argv)

from twisted.internet import reactor  # noqa: E402  (default reactor: epoll)
from twisted.internet.protocol import Protocol  # noqa: E402

WORKLOADS = ("bot", "pvp")
STORES = ("sqlite", "memdb", "off")
dumps, loads = json.dumps, json.loads


# -- the clients -----------------------------------------------------------------


class Run:
    """What one network run counts."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopping = False
        self.windowStart = float("inf")
        self.ack: array.array[float] = array.array("d")
        self.turn: array.array[float] = array.array("d")
        self.accepted = 0  # the clients' actions accepted in the window
        self.actions = 0  # every action of the games in the window, bots' included
        self.games = 0
        self.bytesIn = 0
        self.messagesIn = 0
        self.connected = 0
        self.hellos = 0
        self.errors: dict[str, int] = {}
        self.unexpectedCloses = 0
        self.connectFailures = 0
        self.ended: dict[int, int] = {}  # game id -> actions its creator saw, whole run

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class JsonPlayer(Protocol):
    """
    A bench client of the engine JSON protocol over TCP.  ``role``: ``bot``
    creates games against the server's bot, ``host`` creates games its
    ``partner`` (a ``guest``) joins.  The creator of a game counts its
    actions: one instructions message per accepted action after the first.
    """

    def __init__(self, run: Run, name: str, rng: random.Random, role: str) -> None:
        self.run = run
        self.name = name
        self.rng = rng
        self.role = role
        self.counts = role != "guest"
        self.partner: JsonPlayer | None = None
        self.buffer = b""
        self.game: int | None = None
        self.inGame = False
        self.seen = 0  # instructions received in the current game
        self.sentAt = 0.0
        self.awaitingAck = False
        self.awaitingTurn = False
        self.pendingJoin: int | None = None
        self.lastRequest: dict[str, Any] | None = None
        self.closed = False

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)  # type: ignore[attr-defined]
        self.run.connected += 1

    def connectFailed(self, reason: Any) -> None:
        self.run.connectFailures += 1
        self.closed = True

    def write(self, message: dict[str, Any]) -> None:
        self.transport.write(dumps(message).encode() + b"\n")  # type: ignore[union-attr]

    def create(self) -> None:
        self.write({"type": "create", "engine": "connect4", "init": {},
                    "bots": [2] if self.role == "bot" else [], "name": self.name})

    def maybeJoin(self) -> None:
        """Join the game the host created once this guest is out of the last one."""
        if self.pendingJoin is not None and not self.inGame and not self.run.stopping \
                and self.transport is not None and not self.closed:
            game, self.pendingJoin = self.pendingJoin, None
            self.inGame = True
            self.write({"type": "join", "game": game, "name": self.name})

    def dataReceived(self, data: bytes) -> None:
        run = self.run
        if run.measuring:
            run.bytesIn += len(data)
        lines = (self.buffer + data).split(b"\n")
        self.buffer = lines.pop()
        for line in lines:
            if run.measuring:
                run.messagesIn += 1
            try:
                message = loads(line)
            except ValueError:
                run.error("not JSON")
                self.transport.abortConnection()  # type: ignore[union-attr]
                return
            self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        run = self.run
        kind = message.get("type")
        if kind == "instructions":
            at = now()
            measuring = run.measuring
            if self.awaitingAck:
                self.awaitingAck = False
                if measuring and self.sentAt >= run.windowStart:
                    run.ack.append(at - self.sentAt)
                    run.accepted += 1
            self.seen += 1
            if self.counts and self.seen > 1 and measuring:
                run.actions += 1
            requested = message["requested_actions"]
            if self.awaitingTurn and (requested or message["game_state"]["gameover"]):
                self.awaitingTurn = False
                if measuring and self.sentAt >= run.windowStart:
                    run.turn.append(at - self.sentAt)
            if requested:
                self.lastRequest = requested[0]
                self.play()
        elif kind == "seated":
            self.game = message["game"]
            self.inGame = True
            self.seen = 0
        elif kind == "ended":
            if message.get("error"):
                run.error(f"game aborted: {message['error']}")
            if self.counts:
                run.ended[message["game"]] = self.seen - 1
                if run.measuring:
                    run.games += 1
            self.inGame = False
            self.lastRequest = None
            self.awaitingAck = self.awaitingTurn = False
            if run.stopping:
                return
            if self.counts:
                self.inGame = True
                self.create()
            else:
                self.maybeJoin()
        elif kind == "created":
            if self.role == "host" and self.partner is not None:
                self.partner.pendingJoin = message["game"]
                self.partner.maybeJoin()
        elif kind == "errors":
            run.error("errors: " + ",".join(
                f"{e.get('type')}/{e.get('subtype', '')}" for e in message.get("errors", [])))
            if self.awaitingAck:
                self.awaitingAck = self.awaitingTurn = False
                self.play()  # another zone of the same request
        elif kind == "problem":
            run.error(f"problem: {message.get('message')}")
        elif kind == "hello":
            run.hellos += 1
            if self.counts:
                self.inGame = True
                self.create()
            else:
                self.maybeJoin()

    def play(self) -> None:
        request = self.lastRequest
        if request is None or self.closed or self.run.stopping:
            return
        if request.get("type") != "CLICK" or not request.get("zones"):
            self.run.error(f"cannot answer a {request.get('type')} request")
            return
        zone = self.rng.choice(request["zones"])
        self.awaitingAck = self.awaitingTurn = True
        self.sentAt = now()
        self.write({"type": "action", "action": {
            "type": "CLICK", "x": zone["x"] + zone["width"] / 2,
            "y": zone["y"] + zone["height"] / 2, "button": "LEFT"}})

    def connectionLost(self, reason: Any) -> None:
        self.closed = True
        if not self.run.stopping:
            self.run.unexpectedCloses += 1


# -- the server ------------------------------------------------------------------


def startServer(args: argparse.Namespace, work: Path, name: str, store: str,
                logfile: str | None) -> tuple[Child, int, Path | None]:
    """twistd gameproto with the engine JSON port alone; the database file, if any."""
    command = ([sys.executable, str(REPO / "bench" / "enginejson_load.py"), NO_STORE]
               if store == "off" else None)
    db = work / f"{name}.sqlite" if store == "sqlite" else None
    child, ports = startGameproto(args, work, name, ["engine"], gameLimits(args.server_tree),
                                  log=logfile, db=":memory:" if db is None else str(db),
                                  command=command)
    return child, ports["engine"], db


def gameLimits(serverTree: Path) -> list[str]:
    """
    The option that lifts the cap on the games one address has open at once
    (20 by default): every client here comes from 127.0.0.1, and each pair
    keeps a game open.  Nothing for a tree from before that cap.
    """
    tap = serverTree / "gameproto" / "tap.py"
    if not tap.exists() or "engine-max-games-per-peer" not in tap.read_text():
        return []
    return ["--engine-max-games-per-peer", "1000"]


def readDatabase(db: Path, ended: dict[int, int]) -> dict[str, Any]:
    """The server's SQLite file after it stopped, checked against what the clients saw."""
    files = [p for p in db.parent.glob(db.name + "*") if p.is_file()]
    result: dict[str, Any] = {
        "db_files": sorted(p.name for p in files),
        "db_bytes": sum(p.stat().st_size for p in files),
    }
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        games, finished = connection.execute(
            "SELECT COUNT(*), COUNT(finished) FROM games").fetchone()
        (actions,) = connection.execute("SELECT COUNT(*) FROM actions").fetchone()
        perGame = dict(connection.execute("SELECT game, COUNT(*) FROM actions GROUP BY game"))
        done = {row[0] for row in connection.execute(
            "SELECT id FROM games WHERE finished IS NOT NULL AND error IS NULL")}
        (pages, pageSize) = (connection.execute("PRAGMA page_count").fetchone()[0],
                             connection.execute("PRAGMA page_size").fetchone()[0])
    finally:
        connection.close()
    missing = [g for g in ended if g not in done]
    wrong = [g for g, n in ended.items() if g in done and perGame.get(g, 0) != n]
    result.update(
        db_games=games, db_games_finished=finished, db_actions=actions,
        db_pages=pages, db_page_size=pageSize,
        db_bytes_per_action=result["db_bytes"] / actions if actions else None,
        checked_games=len(ended), checked_actions=sum(ended.values()),
        checked_missing=len(missing), checked_wrong_count=len(wrong),
        checked_ok=not missing and not wrong)
    return result


# -- the phases ------------------------------------------------------------------


def directPhase(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """
    The record store's own cost per action, in this process: three rounds of
    each store in turn (a new database each time), the best round of each.
    """
    from gameproto.engine.record import GameRecord, RecordedAction
    from gameproto.engine.store import SQLiteRecordStore

    perGame = args.direct_actions
    games = max(1, args.direct_total // perGame)
    n = games * perGame
    results: dict[str, Any] = {"actions_per_game": perGame, "games": games, "actions": n,
                               "rounds": 3}
    for round in range(3):
        for kind in STORES:
            path = work / f"direct-{round}.sqlite"
            store: Any = (SQLiteRecordStore(str(path)) if kind == "sqlite"
                          else SQLiteRecordStore(":memory:") if kind == "memdb" else NullStore())
            seatsChanged = getattr(store, "seatsChanged", None)
            io0 = processIo(os.getpid())
            cpu0, wall0 = time.process_time(), now()
            inActions = 0.0
            slowest, slow = 0.0, 0  # single actionAccepted calls: the longest, those over 1 ms
            for g in range(games):
                record = GameRecord(id=store.nextId(), engine="connect4",
                                    params={"players": 2, "width": 7, "height": 6},
                                    initvalues={}, seats=["(open)", "(open)"],
                                    started=time.time())
                store.gameStarted(record)
                if seatsChanged is not None:  # the players take their seats
                    record.seats = ["p1", "p2"]
                    seatsChanged(record)
                t = time.process_time()
                for turn in range(perGame):
                    action = RecordedAction(turn % 2, (g + turn) % 7, time.time())
                    record.actions.append(action)
                    before = now()
                    store.actionAccepted(record, action)
                    took = now() - before
                    if took > 0.001:
                        slow += 1
                        slowest = max(slowest, took)
                inActions += time.process_time() - t
                record.finished, record.scores = time.time(), [1, 0]
                store.gameFinished(record)
            cpu, wall = time.process_time() - cpu0, now() - wall0
            io = processIo(os.getpid())
            store.close()
            figures = {"cpu_us_per_action": 1e6 * cpu / n, "wall_us_per_action": 1e6 * wall / n,
                       "insert_cpu_us": 1e6 * inActions / n,
                       "game_cpu_us_besides_actions": 1e6 * (cpu - inActions) / games,
                       "write_calls_per_action": (io["syscw"] - io0["syscw"]) / n,
                       "disk_bytes_per_action": (io["write_bytes"] - io0["write_bytes"]) / n,
                       "calls_over_1ms": slow, "slowest_call_ms": 1000 * slowest}
            if kind == "sqlite":
                size = sum(f.stat().st_size for f in work.glob(path.name + "*") if f.is_file())
                figures["bytes_per_action"] = size / n
            best = results.get(kind)
            if best is None or figures["cpu_us_per_action"] < best["cpu_us_per_action"]:
                results[kind] = figures
    base = results["off"]
    for kind in ("sqlite", "memdb"):
        results[kind]["cost_us_per_action"] = (
            results[kind]["cpu_us_per_action"] - base["cpu_us_per_action"])
        results[kind]["insert_cost_us"] = results[kind]["insert_cpu_us"] - base["insert_cpu_us"]
        results[kind]["game_cost_us"] = (results[kind]["game_cpu_us_besides_actions"]
                                         - base["game_cpu_us_besides_actions"])
    return results


def processIo(pid: int) -> dict[str, int]:
    """The server's /proc/PID/io: write syscalls, and bytes sent down to the disk."""
    fields = {}
    for line in readFile(f"/proc/{pid}/io").splitlines():
        key, _, value = line.partition(":")
        fields[key] = int(value)
    return fields


def readFile(path: str) -> str:
    with open(path) as f:
        return f.read()


async def rampUp(run: Run, port: int, players: list[JsonPlayer], batch: int) -> float:
    """Connect ``batch`` at a time (Twisted's listen backlog is 50), each batch greeted."""
    started = now()
    for i in range(0, len(players), batch):
        chunk = players[i : i + batch]
        for p in chunk:
            connect(port, p)
        target = i + len(chunk)
        if not await waitFor(lambda: run.hellos >= target or run.connectFailures > 0, 30.0):
            raise RuntimeError(f"ramp-up stuck: {run.hellos} hellos, {target} wanted")
        if run.connectFailures:
            raise RuntimeError(f"{run.connectFailures} connections failed during ramp-up")
    return now() - started


async def networkRun(args: argparse.Namespace, work: Path, workload: str, store: str,
                     repeat: int) -> dict[str, Any]:
    name = f"{workload}-{store}-{repeat}"
    logfile = None if args.server_log is None else f"{args.server_log}.{name}"
    child, port, db = startServer(args, work, name, store, logfile)
    run = Run()
    rng = random.Random(args.seed + repeat)
    players: list[JsonPlayer] = []
    for i in range(args.players):
        role = "bot" if workload == "bot" else ("host" if i % 2 == 0 else "guest")
        players.append(JsonPlayer(run, f"p{i}", random.Random(rng.random()), role))
    if workload == "pvp":
        for host, guest in zip(players[::2], players[1::2]):
            host.partner, guest.partner = guest, host
    spy: Child | None = None
    spyFile = f"{args.py_spy}-{name}.txt" if args.py_spy else None
    result: dict[str, Any] = {
        "workload": workload, "store": store, "repeat": repeat, "players": args.players,
        "games_at_once": args.players if workload == "bot" else args.players // 2,
        "server_log": logfile or "discarded", "py_spy": spyFile}
    try:
        try:
            await waitListening(child, port)
        except RuntimeError as e:
            child.stop()
            tail = child.output.name and Path(child.output.name).read_text(errors="replace")
            raise RuntimeError(f"{e}:\n{tail[-3000:]}") from None
        pid = child.pid
        await sleep(0.3)
        result["server_rss_start_kib"] = rssKiB(pid)
        result["ramp_s"] = await rampUp(run, port, players, args.batch)
        await sleep(args.warmup)
        if spyFile:
            command = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            # A child of this process: it runs on the bench's core, not the server's.
            # It takes a moment to attach: a second less, so as not to outlast the window.
            spy = Child("py-spy", [command, "record", "--pid", str(pid), "--duration",
                                   str(max(1, int(args.seconds) - 1)), "--rate", "200",
                                   "--format", "raw", "--output", spyFile],
                        args.seconds + 30, work / f"py-spy-{name}.out", None)
        rssBefore = rssKiB(pid)
        serverCpu0, benchCpu0, busy0 = cpuSeconds(pid), selfCpu(), machineBusy()
        io0 = processIo(pid)
        run.windowStart = now()
        run.measuring = True
        series: list[int] = []
        for second in range(int(args.seconds)):
            before = run.accepted
            await sleep(run.windowStart + second + 1 - now())
            series.append(run.accepted - before)
        await sleep(run.windowStart + args.seconds - now())
        run.measuring = False
        elapsed = now() - run.windowStart
        serverCpu = cpuSeconds(pid) - serverCpu0
        benchCpu = selfCpu() - benchCpu0
        busy = machineBusy() - busy0
        io = processIo(pid)
        diskBytes = io["write_bytes"] - io0["write_bytes"]
        writeCalls = io["syscw"] - io0["syscw"]
        result["server_rss_end_kib"] = rssKiB(pid)
        result["server_rss_window_start_kib"] = rssBefore
        run.stopping = True
        ordered = sorted(series) or [0]
        result.update(
            elapsed_s=elapsed, per_second=series,
            per_second_min_median_max=(ordered[0], ordered[len(ordered) // 2], ordered[-1]),
            server_cpu_pct=100 * serverCpu / elapsed, bench_cpu_pct=100 * benchCpu / elapsed,
            other_cpu_pct=100 * max(0.0, busy - serverCpu - benchCpu) / elapsed,
            accepted=run.accepted, actions=run.actions, games=run.games,
            accepted_per_s=run.accepted / elapsed, actions_per_s=run.actions / elapsed,
            games_per_s=run.games / elapsed,
            actions_per_game=run.actions / run.games if run.games else None,
            server_cpu_us_per_action=1e6 * serverCpu / run.actions if run.actions else None,
            bytes_in_per_action=run.bytesIn / run.actions if run.actions else None,
            messages_in_per_action=run.messagesIn / run.actions if run.actions else None,
            server_write_calls_per_action=writeCalls / run.actions if run.actions else None,
            server_disk_bytes_per_action=diskBytes / run.actions if run.actions else None,
            ack=percentiles(run.ack), turn=percentiles(run.turn))
    finally:
        run.stopping = True
        for p in players:
            if p.transport is not None and not p.closed:
                p.transport.abortConnection()
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)  # the server sees the closes (bots finish those games)
        if spy is not None:
            try:
                spy.popen.wait(30)  # it stops by itself after --duration, then writes
            except subprocess.TimeoutExpired:
                pass
            spy.stop()
        child.stop()
    result["errors"] = dict(run.errors)
    result["unexpected_closes"] = run.unexpectedCloses
    result["connect_failures"] = run.connectFailures
    result["games_ended_whole_run"] = len(run.ended)
    if db is not None:
        result["database"] = readDatabase(db, run.ended)
    return result


# -- the report ------------------------------------------------------------------


def median(values: list[float]) -> float | None:
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def compare(results: dict[str, Any]) -> dict[str, Any]:
    """For each workload: each store's medians, and what SQLite costs against storage off."""
    summary: dict[str, Any] = {}
    for workload in WORKLOADS:
        runs = [r for r in results.get("runs", []) if r["workload"] == workload]
        if not runs:
            continue
        byStore: dict[str, Any] = {}
        for store in STORES:
            mine = [r for r in runs if r["store"] == store]
            if mine:
                byStore[store] = {
                    "runs": len(mine),
                    "actions_per_s": median([r["actions_per_s"] for r in mine]),
                    "accepted_per_s": median([r["accepted_per_s"] for r in mine]),
                    "server_cpu_us_per_action": median(
                        [r["server_cpu_us_per_action"] for r in mine]),
                    "ack_p50_ms": median([r["ack"]["p50_ms"] for r in mine]),
                    "ack_p99_ms": median([r["ack"]["p99_ms"] for r in mine]),
                }
        off = byStore.get("off")
        for store in ("sqlite", "memdb"):
            mine = byStore.get(store)
            if mine and off and off["actions_per_s"] and off["server_cpu_us_per_action"]:
                mine["throughput_vs_off"] = mine["actions_per_s"] / off["actions_per_s"]
                mine["cost_us_per_action_vs_off"] = (
                    mine["server_cpu_us_per_action"] - off["server_cpu_us_per_action"])
        summary[workload] = byStore
    return summary


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("engine JSON load benchmark", results)

    def table(title: str, rows: list[tuple[str, Any]]) -> None:
        addTable(lines, title, rows)

    direct = results.get("direct")
    if direct:
        rows = []
        for kind in STORES:
            d = direct[kind]
            rows.append((f"{kind}: CPU per action, game rows included (us)",
                         f"{fmt(d['cpu_us_per_action'], 1)} (wall {fmt(d['wall_us_per_action'], 1)})"
                         + (f"; {fmt(d['cost_us_per_action'], 1)} more than off"
                            if "cost_us_per_action" in d else "")))
            if "insert_cost_us" in d:
                rows.append((f"{kind}: over off, per actionAccepted / per game's other rows (us)",
                             f"{fmt(d['insert_cost_us'], 1)} / {fmt(d['game_cost_us'], 1)}"))
        sqlite = direct["sqlite"]
        rows.append(("sqlite: write() calls, bytes to disk, bytes in the file per action",
                     f"{fmt(sqlite['write_calls_per_action'], 2)}, "
                     f"{fmt(sqlite['disk_bytes_per_action'], 0)}, "
                     f"{fmt(sqlite.get('bytes_per_action'), 0)}"))
        rows.append(("sqlite: actionAccepted calls over 1 ms (the longest, ms)",
                     f"{fmt(sqlite['calls_over_1ms'])} of {fmt(direct['actions'])} "
                     f"({fmt(sqlite['slowest_call_ms'], 2)})"))
        table(f"direct: the record store alone, {fmt(direct['games'])} games of "
              f"{direct['actions_per_game']} actions, best of {direct['rounds']} rounds", rows)
    for r in results.get("runs", []):
        ack, turn = r["ack"], r["turn"]
        rows = [
            ("client actions accepted/s", fmt(r["accepted_per_s"], 0)),
            ("all actions/s (bots' too: what the store gets)", fmt(r["actions_per_s"], 0)),
            ("accepted in each second: min / median / max",
             " / ".join(fmt(v) for v in r["per_second_min_median_max"])),
            ("games/s, actions per game", f"{fmt(r['games_per_s'])}, {fmt(r['actions_per_game'])}"),
            ("ack latency p50 / p90 / p99 / max (ms)",
             " / ".join(fmt(ack[k], 2) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))),
            ("turn latency p50 / p90 / p99 / max (ms)",
             " / ".join(fmt(turn[k], 2) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms"))),
            ("server / bench / other CPU (% of one core)",
             f"{fmt(r['server_cpu_pct'], 0)} / {fmt(r['bench_cpu_pct'], 0)} / "
             f"{fmt(r['other_cpu_pct'], 0)}"),
            ("server CPU per action (us)", fmt(r["server_cpu_us_per_action"], 1)),
            ("clients read per action (messages, bytes)",
             f"{fmt(r['messages_in_per_action'], 2)}, {fmt(r['bytes_in_per_action'], 0)}"),
            ("server write() calls, bytes to disk per action",
             f"{fmt(r['server_write_calls_per_action'], 2)}, "
             f"{fmt(r['server_disk_bytes_per_action'], 0)}"),
            ("server RSS start / window start / end (MiB)",
             " / ".join(fmt(r[k] / 1024) for k in (
                 "server_rss_start_kib", "server_rss_window_start_kib", "server_rss_end_kib"))),
            ("ramp-up (s)", fmt(r["ramp_s"], 2)),
            ("errors", r["errors"] or "none"),
            ("unexpected closes / connect failures",
             f"{r['unexpected_closes']} / {r['connect_failures']}"),
        ]
        db = r.get("database")
        if db:
            rows += [
                ("database after the run: size (bytes per action)",
                 f"{fmt(db['db_bytes'] / 1e6, 2)} MB ({fmt(db['db_bytes_per_action'], 0)}), "
                 f"{', '.join(db['db_files'])}"),
                ("database: games (finished), actions",
                 f"{fmt(db['db_games'])} ({fmt(db['db_games_finished'])}), {fmt(db['db_actions'])}"),
                ("games the clients saw end / in it with their actions",
                 f"{fmt(db['checked_games'])} ({fmt(db['checked_actions'])} actions) / "
                 + ("all" if db["checked_ok"] else
                    f"{db['checked_missing']} missing, {db['checked_wrong_count']} miscounted")),
            ]
        table(f"{r['workload']} / {r['store']}"
              + (f" (repeat {r['repeat'] + 1})" if results["repeats"] > 1 else "")
              + f": {r['players']} clients, {r['games_at_once']} games at once, "
              f"{fmt(r['elapsed_s'])} s measured"
              + (" [py-spy sampling: slower]" if r["py_spy"] else ""), rows)
    for workload, byStore in results.get("summary", {}).items():
        rows = []
        for store, s in byStore.items():
            vs = (f"; x{s['throughput_vs_off']:.3f} of off, "
                  f"{s['cost_us_per_action_vs_off']:+.1f} us per action"
                  if "throughput_vs_off" in s else "")
            rows.append((f"{store} ({s['runs']} run{'s' if s['runs'] > 1 else ''})",
                         f"{fmt(s['actions_per_s'], 0)} actions/s, "
                         f"{fmt(s['server_cpu_us_per_action'], 1)} us server CPU each, ack p50 / "
                         f"p99 {fmt(s['ack_p50_ms'], 2)} / {fmt(s['ack_p99_ms'], 2)} ms{vs}"))
        table(f"summary, {workload} (medians)", rows)
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults shown, but for the options whose help tells them (default None)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None:
            return action.help
        return super()._get_help_string(action)


def parseArgs(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].strip(), formatter_class=_Formatter)
    parser.add_argument("--players", type=int, default=None,
                        help="client connections (bot: as many games; pvp: half as many);"
                             " default 100, --quick 20")
    parser.add_argument("--seconds", type=float, default=None,
                        help="measured window per run; default 10, --quick 3")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds before measuring; default 2, --quick 1")
    parser.add_argument("--workloads", default=None,
                        help="comma-separated: pvp, bot; default pvp,bot, --quick pvp")
    parser.add_argument("--stores", default=None,
                        help="comma-separated: sqlite (a file), memdb (--db :memory:), off;"
                             " default sqlite,off,memdb, --quick sqlite,off")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each workload and store, the stores interleaved")
    parser.add_argument("--no-direct", action="store_true", help="skip the direct phase")
    parser.add_argument("--direct-actions", type=int, default=10,
                        help="actions per game in the direct phase")
    parser.add_argument("--direct-total", type=int, default=None,
                        help="actions written to each store in each of the direct phase's"
                             " three rounds; default 30,000, --quick 3,000")
    parser.add_argument("--batch", type=int, default=50,
                        help="connections per ramp-up batch (at most the listen backlog, 50)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of about 12 s: pvp only, 20 clients, 3 s windows,"
                             " sqlite and off")
    parser.add_argument("--server-log", default=None, metavar="PREFIX",
                        help="log the server to PREFIX.RUN (default: every log event dropped)")
    parser.add_argument("--py-spy", default=None, metavar="PREFIX",
                        help="sample each run's server with py-spy during the window (collapsed"
                             " stacks to PREFIX-RUN.txt) and print its hot spots; slows it")
    parser.add_argument("--profile-top", type=int, default=25,
                        help="lines of py-spy hot spots to print")
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the bench to one core and the server to the other")
    parser.add_argument("--server-tree", type=Path, default=REPO, metavar="DIR",
                        help="run the server from this source tree (e.g. 'git archive' of a commit)")
    parser.add_argument("--seed", type=int, default=1, help="the clients' choices")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="also write the figures as JSON ('-': stdout, instead of the table)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="abort the whole run after this long (default: from the options)")
    parser.add_argument("--keep-work", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    defaults = {"players": (100, 20), "seconds": (10.0, 3.0), "warmup": (2.0, 1.0),
                "workloads": ("pvp,bot", "pvp"),
                "stores": ("sqlite,off,memdb", "sqlite,off"), "direct_total": (30_000, 3_000)}
    for name, (full, quick) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    args.workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    args.stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    if set(args.workloads) - set(WORKLOADS) or not args.workloads:
        parser.error(f"--workloads: choose among {', '.join(WORKLOADS)}")
    if set(args.stores) - set(STORES):
        parser.error(f"--stores: choose among {', '.join(STORES)}")
    if "pvp" in args.workloads and args.players % 2:
        parser.error("--players must be even for pvp")
    if args.players < 1 or args.repeat < 1 or args.direct_actions < 1:
        parser.error("--players, --repeat and --direct-actions must be at least 1")
    args.server_tree = args.server_tree.resolve()
    if not (args.server_tree / "gameproto" / "tap.py").exists():
        parser.error(f"--server-tree: no gameproto/tap.py in {args.server_tree}")
    if args.max_seconds is None:
        runs = len(args.workloads) * len(args.stores) * args.repeat
        args.max_seconds = 60 + runs * (args.seconds + args.warmup + 15 + (30 if args.py_spy else 0))
    return args


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    import platform

    import twisted

    results: dict[str, Any] = {
        **harness.runInfo(args),
        "repeats": args.repeat,
    }
    if not args.no_direct:
        print(f"[{time.strftime('%H:%M:%S')}] direct...", file=sys.stderr, flush=True)
        results["direct"] = directPhase(args, work)
    results["runs"] = []
    for repeat in range(args.repeat):
        for workload in args.workloads:
            for store in args.stores:
                print(f"[{time.strftime('%H:%M:%S')}] {workload} / {store}...",
                      file=sys.stderr, flush=True)
                results["runs"].append(await networkRun(args, work, workload, store, repeat))
                await sleep(0.5)
    results["summary"] = compare(results)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parseArgs(argv)
    result = runBench(args, args.players + 100, "enginejson-bench-", runAll, report)
    if isinstance(result, int):
        return result
    for r in result.get("runs", []):
        if r.get("py_spy") and os.path.exists(r["py_spy"]):
            print(f"\n== {r['workload']} / {r['store']}:")
            printPySpy(r["py_spy"], args.profile_top)
    return 0

if __name__ == "__main__":
    sys.exit(main())
