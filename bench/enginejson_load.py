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
    written to ``SQLiteRecordStore`` on a file committing each write
    (``sqlite``), on a file committing every ``--direct-commit-every``
    actions as the server commits once per reactor turn (``turns``), on
    ``:memory:``, and to a store that keeps nothing: the CPU each costs per
    action without any server around it; for the files the write() calls,
    the bytes written (``/proc/self/io``) and, with checkpoints off, the
    bytes the write-ahead log grows per action.  Then the JSON libraries
    (the standard library, orjson and msgspec, those installed) on the
    server's own messages: encoding a Connect Four and a Tarot instructions
    message, decoding a client's action, microseconds each.
network runs
    For each ``--workloads`` x ``--stores`` x ``--json-libs`` (``--repeat``
    times, the stores interleaved): a fresh server, run as an operator runs it (``twistd -n
    --pidfile= gameproto --db FILE --ports
    engine=tcp:PORT:interface=127.0.0.1,web=off,connect4=off,maitretarot=off``,
    its log discarded unless ``--server-log``, pinned to one core), and
    JSON-lines clients in this process (pinned to the other core; for
    ``--games`` games at once, 100 by default, as the targets say), raw
    Twisted protocols answering at once with the centre of a random zone of
    the CLICK the instructions request of them.

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
              action is an INSERT, committed (once per reactor turn, for
              all the turn's writes) before any seat is told.
      memdb   ``--db :memory:``: the same SQL, no file.
      off     storage off: ``twistd gameproto`` has no such option, so the
              server is started through this script (``--twistd-without-store``,
              then twistd's own ``run()``), which first swaps
              ``gameproto.tap.SQLiteRecordStore`` for a store that keeps
              nothing.  Everything else is the same server.

    JSON libraries (``--json-libs``): ``installed`` is the server as
    installed (orjson writes, when it is there); ``stdlib``, ``orjson`` and
    ``msgspec`` start it through this script (``--twistd-json LIB``), which
    first has the engine JSON wire write with that library alone.

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
JSON_LIB = "--twistd-json"
"""First arguments ``--twistd-json LIB``: run ``twistd`` with the wire writing with LIB."""


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


def writeWith(lib: str) -> None:
    """
    Have gameproto's engine JSON wire write with ``lib`` alone (``stdlib``,
    ``orjson``, ``msgspec``), whatever is installed: its ``dumps`` and its
    ``encodeWith`` (an encoded part spliced in: orjson's Fragment,
    msgspec's Raw, the standard library's JSON around it).
    """
    import json as stdjson

    from gameproto.enginejson import wire

    def plain(value: Any) -> bytes:
        return stdjson.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

    if lib == "stdlib":
        wire.dumps = plain
        wire._fragment = None
    elif lib == "orjson":
        import orjson

        def fast(value: Any) -> bytes:
            try:
                return orjson.dumps(value)
            except TypeError:
                return plain(value)

        wire.dumps = fast
        wire._orjson = orjson
        wire._fragment = orjson.Fragment
    elif lib == "msgspec":
        import msgspec

        encoder = msgspec.json.Encoder()

        def spec(value: Any) -> bytes:
            try:
                return encoder.encode(value)
            except (TypeError, OverflowError):
                return plain(value)

        def specWith(message: dict[str, Any], key: str, encoded: bytes) -> bytes:
            return encoder.encode({**message, key: msgspec.Raw(encoded)})

        wire.dumps = spec
        wire.encodeWith = specWith  # type: ignore[assignment]
        wire._fragment = None  # the server's displays too: no orjson
    else:
        raise SystemExit(f"{JSON_LIB}: no JSON library {lib!r}")


if __name__ == "__main__" and sys.argv[1:2] and sys.argv[1] in (NO_STORE, JSON_LIB):
    wrapped = sys.argv[1:]
    if wrapped[0] == JSON_LIB:
        writeWith(wrapped[1])
        wrapped = wrapped[2:]
    if wrapped[:1] == [NO_STORE]:
        twistdWithoutStore(wrapped[1:])
    else:
        from twisted.scripts.twistd import run as runTwistd

        sys.argv = ["twistd", *wrapped]
        runTwistd()
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
    perSecond,
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
DIRECT_STORES = ("sqlite", "turns", "memdb", "off")
JSON_LIBS = ("installed", "stdlib", "orjson", "msgspec")
TARGETS = {"actions_per_s": 10_000, "server_cpu_us_per_action": 100.0, "ack_p99_ms": 20.0,
           "store_share": 0.15, "games": 100}
"""The engine JSON performance targets: pvp, SQLite on, at 100 games."""
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
                logfile: str | None, jsonLib: str = "installed"
                ) -> tuple[Child, int, Path | None]:
    """twistd gameproto with the engine JSON port alone; the database file, if any."""
    command = wrapperCommand(store, jsonLib)
    db = work / f"{name}.sqlite" if store == "sqlite" else None
    child, ports = startGameproto(args, work, name, ["engine"], gameLimits(args.server_tree),
                                  log=logfile, db=":memory:" if db is None else str(db),
                                  command=command)
    return child, ports["engine"], db


def wrapperCommand(store: str, jsonLib: str) -> list[str] | None:
    """This script as twistd's wrapper for storage off or another JSON library; None: twistd."""
    command = [sys.executable, str(REPO / "bench" / "enginejson_load.py")]
    if jsonLib != "installed":
        command += [JSON_LIB, jsonLib]
    if store == "off":
        command.append(NO_STORE)
    return command if len(command) > 2 else None


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
    every = args.direct_commit_every
    for round in range(3):
        for kind in DIRECT_STORES:
            path = work / f"direct-{kind}-{round}.sqlite"
            store: Any = (SQLiteRecordStore(str(path)) if kind in ("sqlite", "turns")
                          else SQLiteRecordStore(":memory:") if kind == "memdb" else NullStore())
            turns = EveryN(store, every) if kind == "turns" else None
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
                    if turns is not None:
                        turns.wrote()
                    took = now() - before
                    if took > 0.001:
                        slow += 1
                        slowest = max(slowest, took)
                inActions += time.process_time() - t
                record.finished, record.scores = time.time(), [1, 0]
                store.gameFinished(record)
            if turns is not None:
                turns.flush()
            cpu, wall = time.process_time() - cpu0, now() - wall0
            io = processIo(os.getpid())
            store.close()
            figures = {"cpu_us_per_action": 1e6 * cpu / n, "wall_us_per_action": 1e6 * wall / n,
                       "insert_cpu_us": 1e6 * inActions / n,
                       "game_cpu_us_besides_actions": 1e6 * (cpu - inActions) / games,
                       "write_calls_per_action": (io["syscw"] - io0["syscw"]) / n,
                       "written_bytes_per_action": (io["wchar"] - io0["wchar"]) / n,
                       "disk_bytes_per_action": (io["write_bytes"] - io0["write_bytes"]) / n,
                       "calls_over_1ms": slow, "slowest_call_ms": 1000 * slowest}
            if kind in ("sqlite", "turns"):
                size = sum(f.stat().st_size for f in work.glob(path.name + "*") if f.is_file())
                figures["bytes_per_action"] = size / n
            best = results.get(kind)
            if best is None or figures["cpu_us_per_action"] < best["cpu_us_per_action"]:
                results[kind] = figures
    for kind in ("sqlite", "turns"):
        results[kind].update(walGrowth(work, kind, games, perGame, every))
    base = results["off"]
    for kind in ("sqlite", "turns", "memdb"):
        results[kind]["cost_us_per_action"] = (
            results[kind]["cpu_us_per_action"] - base["cpu_us_per_action"])
        results[kind]["insert_cost_us"] = results[kind]["insert_cpu_us"] - base["insert_cpu_us"]
        results[kind]["game_cost_us"] = (results[kind]["game_cpu_us_besides_actions"]
                                         - base["game_cpu_us_besides_actions"])
    return results


class EveryN:
    """The server's outbox for the direct phase: the store's writes committed every ``n`` actions."""

    holding = False

    def __init__(self, store: Any, n: int) -> None:
        self.n, self.count = n, 0
        self.commits: list[Any] = []
        store.batchCommits(self)

    def commitLater(self, commit: Any) -> None:
        self.commits.append(commit)

    def wrote(self) -> None:
        """One more action written: a commit every ``n``."""
        self.count += 1
        if self.count % self.n == 0:
            self.flush()

    def flush(self) -> None:
        commits, self.commits = self.commits, []
        for commit in commits:
            commit()


def walGrowth(work: Path, kind: str, games: int, perGame: int, every: int) -> dict[str, Any]:
    """
    How much the write-ahead log grows per action, checkpoints off (so it
    only grows): ``sqlite`` a commit per write, ``turns`` one every
    ``every`` actions.  SQLite appends each page a commit changed as one
    frame (a 24-byte header and the page).
    """
    from gameproto.engine.record import GameRecord, RecordedAction
    from gameproto.engine.store import SQLiteRecordStore

    path = work / f"wal-{kind}.sqlite"
    store = SQLiteRecordStore(str(path))
    store._db.execute("PRAGMA wal_autocheckpoint=0")
    (pageSize,) = store._db.execute("PRAGMA page_size").fetchone()
    turns = EveryN(store, every) if kind == "turns" else None
    wal = Path(f"{path}-wal")
    start = wal.stat().st_size if wal.exists() else 0
    n = 0
    for g in range(games):
        record = GameRecord(id=store.nextId(), engine="connect4",
                            params={"players": 2, "width": 7, "height": 6}, initvalues={},
                            seats=["p1", "p2"], started=time.time())
        store.gameStarted(record)
        for turn in range(perGame):
            action = RecordedAction(turn % 2, (g + turn) % 7, time.time())
            record.actions.append(action)
            store.actionAccepted(record, action)
            n += 1
            if turns is not None:
                turns.wrote()
        record.finished, record.scores = time.time(), [1, 0]
        store.gameFinished(record)
    if turns is not None:
        turns.flush()
    grown = wal.stat().st_size - start
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return {"wal_bytes_per_action": grown / n,
            "wal_frames_per_action": grown / (pageSize + 24) / n, "page_size": pageSize}


def jsonPhase(repeat: int = 2000) -> dict[str, Any]:
    """
    The JSON libraries on the server's own messages: a Connect Four and a
    Tarot instructions message (each seat's display, its requested actions,
    the state) encoded, a client's action decoded, in microseconds (the
    best of five runs of ``repeat``); each library's JSON read back must be
    the standard library's.
    """
    import timeit

    from gameproto.games.connect4 import ENGINE as CONNECT4
    from gameproto.games.tarot import TAROT, tarotBot

    connect4 = CONNECT4.start({}, None, random.Random(1))
    rng = random.Random(2)
    for _ in range(14):
        step = connect4.instructions()
        connect4.act(step.requested_actions[0].player,
                     rng.choice(connect4.board.legal_columns()))  # type: ignore[attr-defined]
    tarot: Any = TAROT.start({}, {"seed": 1})
    while not (tarot.phase == "play" and tarot.tricksPlayed >= 6):
        seat = tarot.waitingFor()[0]
        tarot.act(seat, tarotBot(tarot.view(seat), seat))

    def message(game: Any, seat: int) -> dict[str, Any]:
        step = game.instructions()
        return {"type": "instructions", "game": 1, "player": seat + 1, "turn": 40, "by": seat,
                "displays": [game.display(seat).asJSON()],
                "requested_actions": [r.asJSON() for r in step.requested_actions
                                      if r.player == seat],
                "waiting_for": sorted({r.player + 1 for r in step.requested_actions}),
                "clocks": [], "game_state": step.game_state.asJSON()}

    messages = {"connect4": message(connect4, connect4.board.turn),
                "tarot": message(tarot, tarot.turn)}
    action = (b'{"type":"action","action":{"type":"CLICK","x":350.0,"y":300.0,'
              b'"button":"LEFT"}}')
    libs: dict[str, tuple[Any, Any]] = {
        "stdlib": (lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False)
                   .encode("utf-8"), json.loads)}
    try:
        import orjson

        libs["orjson"] = (orjson.dumps, orjson.loads)
    except ImportError:
        pass
    try:
        import msgspec

        libs["msgspec"] = (msgspec.json.Encoder().encode, msgspec.json.Decoder().decode)
    except ImportError:
        pass

    def best(call: Any) -> float:
        return 1e6 * min(timeit.repeat(call, number=repeat, repeat=5)) / repeat

    results: dict[str, Any] = {"bytes": {k: len(libs["stdlib"][0](m)) for k, m in messages.items()}}
    for name, (encode, decode) in libs.items():
        figures: dict[str, Any] = {}
        for kind, value in messages.items():
            if json.loads(encode(value)) != json.loads(libs["stdlib"][0](value)):
                figures["differs"] = kind
            figures[f"encode_{kind}_us"] = best(lambda: encode(value))
        figures["decode_action_us"] = best(lambda: decode(action))
        results[name] = figures
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


def playersFor(args: argparse.Namespace, workload: str) -> int:
    """The connections of a run: ``--players``, else two per game (pvp) or one (bot)."""
    if args.players is not None:
        return int(args.players)
    return int(args.games) * (2 if workload == "pvp" else 1)


async def networkRun(args: argparse.Namespace, work: Path, workload: str, store: str,
                     repeat: int, jsonLib: str = "installed") -> dict[str, Any]:
    name = f"{workload}-{store}-{jsonLib}-{repeat}"
    logfile = None if args.server_log is None else f"{args.server_log}.{name}"
    child, port, db = startServer(args, work, name, store, logfile, jsonLib)
    run = Run()
    rng = random.Random(args.seed + repeat)
    players: list[JsonPlayer] = []
    count = playersFor(args, workload)
    for i in range(count):
        role = "bot" if workload == "bot" else ("host" if i % 2 == 0 else "guest")
        players.append(JsonPlayer(run, f"p{i}", random.Random(rng.random()), role))
    if workload == "pvp":
        for host, guest in zip(players[::2], players[1::2]):
            host.partner, guest.partner = guest, host
    spy: Child | None = None
    spyFile = f"{args.py_spy}-{name}.txt" if args.py_spy else None
    result: dict[str, Any] = {
        "workload": workload, "store": store, "json": jsonLib, "repeat": repeat,
        "players": count, "games_at_once": count if workload == "bot" else count // 2,
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
        series = await perSecond(lambda: run.accepted, run.windowStart, args.seconds)
        run.measuring = False
        elapsed = now() - run.windowStart
        serverCpu = cpuSeconds(pid) - serverCpu0
        benchCpu = selfCpu() - benchCpu0
        busy = machineBusy() - busy0
        io = processIo(pid)
        diskBytes = io["write_bytes"] - io0["write_bytes"]
        writeCalls = io["syscw"] - io0["syscw"]
        written = io["wchar"] - io0["wchar"]  # SQLite's: sockets' sends are not counted
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
            server_written_bytes_per_action=written / run.actions if run.actions else None,
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
    """
    For each workload (and JSON library but the installed one's): each
    store's medians, and what SQLite costs against storage off.
    """
    summary: dict[str, Any] = {}
    groups = [(w, j) for w in WORKLOADS for j in JSON_LIBS]
    for workload, jsonLib in groups:
        runs = [r for r in results.get("runs", [])
                if r["workload"] == workload and r.get("json", "installed") == jsonLib]
        if not runs:
            continue
        byStore: dict[str, Any] = {}
        for store in STORES:
            mine = [r for r in runs if r["store"] == store]
            if mine:
                byStore[store] = {
                    "runs": len(mine),
                    "other_cpu_pct": median([r["other_cpu_pct"] for r in mine]),
                    "turn_p99_ms": median([r["turn"]["p99_ms"] for r in mine]),
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
                mine["store_share"] = (mine["cost_us_per_action_vs_off"]
                                       / mine["server_cpu_us_per_action"])
        summary[workload if jsonLib == "installed" else f"{workload}, {jsonLib}"] = byStore
    return summary


def judge(results: dict[str, Any]) -> list[tuple[str, Any]]:
    """
    The engine JSON performance targets, from the pvp runs at 100 games with
    SQLite on (the installed JSON library; medians of the repeats): each
    figure and whether it is met; what is missing to judge one, said.
    """
    pvp = results.get("summary", {}).get("pvp", {})
    sqlite, off = pvp.get("sqlite"), pvp.get("off")
    games = {r["games_at_once"] for r in results.get("runs", []) if r["workload"] == "pvp"}
    rows: list[tuple[str, Any]] = []
    if not sqlite:
        return [("targets", "not judged: no pvp run with sqlite")]
    at = TARGETS["games"]
    where = ("" if games == {at} else
             f" (NOT at {at} games: {', '.join(str(g) for g in sorted(games))})")

    def verdict(ok: bool | None) -> str:
        return "n/a" if ok is None else "met" if ok else "NOT met"

    value = sqlite["actions_per_s"]
    rows.append((f">= {TARGETS['actions_per_s']:,} actions/s, SQLite on{where}",
                 f"{fmt(value, 0)}: {verdict(value >= TARGETS['actions_per_s'])}"))
    value = sqlite["server_cpu_us_per_action"]
    rows.append((f"<= {TARGETS['server_cpu_us_per_action']:g} us server CPU per action",
                 f"{fmt(value, 1)}: {verdict(value <= TARGETS['server_cpu_us_per_action'])}"))
    value = sqlite["ack_p99_ms"]
    rows.append((f"p99 < {TARGETS['ack_p99_ms']:g} ms (action to next instructions)",
                 f"{fmt(value, 2)} (turn p99 {fmt(sqlite['turn_p99_ms'], 2)}): "
                 f"{verdict(value < TARGETS['ack_p99_ms'])}"))
    if off and "store_share" in sqlite:
        share = sqlite["store_share"]
        rows.append((f"the store <= {100 * TARGETS['store_share']:g}% of the cost",
                     f"{100 * share:.1f}% ({sqlite['cost_us_per_action_vs_off']:+.1f} us of "
                     f"{fmt(sqlite['server_cpu_us_per_action'], 1)}): "
                     f"{verdict(share <= TARGETS['store_share'])}"))
    else:
        rows.append(("the store's share", "not judged: no pvp run with storage off"))
    others = sqlite.get("other_cpu_pct")
    if others is not None and others > 30:
        rows.append(("the machine", f"BUSY: other processes used {others:.0f}% of a core "
                                    "(median): figures low, run again on a quiet machine"))
    return rows


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("engine JSON load benchmark", results)

    def table(title: str, rows: list[tuple[str, Any]]) -> None:
        addTable(lines, title, rows)

    direct = results.get("direct")
    if direct:
        rows = []
        for kind in DIRECT_STORES:
            d = direct[kind]
            rows.append((f"{kind}: CPU per action, game rows included (us)",
                         f"{fmt(d['cpu_us_per_action'], 1)} (wall {fmt(d['wall_us_per_action'], 1)})"
                         + (f"; {fmt(d['cost_us_per_action'], 1)} more than off"
                            if "cost_us_per_action" in d else "")))
            if "insert_cost_us" in d:
                rows.append((f"{kind}: over off, per actionAccepted / per game's other rows (us)",
                             f"{fmt(d['insert_cost_us'], 1)} / {fmt(d['game_cost_us'], 1)}"))
        for kind in ("sqlite", "turns"):
            d = direct[kind]
            rows.append((f"{kind}: write() calls, bytes written, to disk, in the file per action",
                         f"{fmt(d['write_calls_per_action'], 2)}, "
                         f"{fmt(d.get('written_bytes_per_action'), 0)}, "
                         f"{fmt(d['disk_bytes_per_action'], 0)}, "
                         f"{fmt(d.get('bytes_per_action'), 0)}"))
            if "wal_bytes_per_action" in d:
                rows.append((f"{kind}: write-ahead log per action, checkpoints off",
                             f"{fmt(d['wal_bytes_per_action'], 0)} bytes "
                             f"({fmt(d['wal_frames_per_action'], 2)} frames of "
                             f"{d['page_size']} bytes)"))
        sqlite = direct["sqlite"]
        rows.append(("sqlite: actionAccepted calls over 1 ms (the longest, ms)",
                     f"{fmt(sqlite['calls_over_1ms'])} of {fmt(direct['actions'])} "
                     f"({fmt(sqlite['slowest_call_ms'], 2)})"))
        table(f"direct: the record store alone, {fmt(direct['games'])} games of "
              f"{direct['actions_per_game']} actions, best of {direct['rounds']} rounds "
              f"(turns: a commit every {direct.get('commit_every')} actions)", rows)
    libs = results.get("json_libs")
    if libs:
        rows = []
        for name in ("stdlib", "orjson", "msgspec"):
            if name not in libs:
                rows.append((name, "not installed"))
                continue
            f = libs[name]
            rows.append((f"{name}: encode Connect Four / Tarot instructions, decode an action",
                         f"{fmt(f['encode_connect4_us'], 2)} / {fmt(f['encode_tarot_us'], 2)} / "
                         f"{fmt(f['decode_action_us'], 2)} us"
                         + (f" (DIFFERS from the standard library: {f['differs']})"
                            if "differs" in f else "")))
        table(f"JSON libraries on the server's messages ({libs['bytes']['connect4']:,} and "
              f"{libs['bytes']['tarot']:,} bytes)", rows)
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
            ("server write() calls, bytes written (SQLite's), to disk per action",
             f"{fmt(r['server_write_calls_per_action'], 2)}, "
             f"{fmt(r.get('server_written_bytes_per_action'), 0)}, "
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
              + (f" / JSON {r['json']}" if r.get("json", "installed") != "installed" else "")
              + (f" (repeat {r['repeat'] + 1})" if results["repeats"] > 1 else "")
              + f": {r['players']} clients, {r['games_at_once']} games at once, "
              f"{fmt(r['elapsed_s'])} s measured"
              + (" [py-spy sampling: slower]" if r["py_spy"] else ""), rows)
    for workload, byStore in results.get("summary", {}).items():
        rows = []
        for store, s in byStore.items():
            vs = (f"; x{s['throughput_vs_off']:.3f} of off, "
                  f"{s['cost_us_per_action_vs_off']:+.1f} us per action "
                  f"({100 * s['store_share']:.1f}% of its cost)"
                  if "throughput_vs_off" in s else "")
            rows.append((f"{store} ({s['runs']} run{'s' if s['runs'] > 1 else ''})",
                         f"{fmt(s['actions_per_s'], 0)} actions/s, "
                         f"{fmt(s['server_cpu_us_per_action'], 1)} us server CPU each, ack p50 / "
                         f"p99 {fmt(s['ack_p50_ms'], 2)} / {fmt(s['ack_p99_ms'], 2)} ms{vs}"))
        table(f"summary, {workload} (medians)", rows)
    if results.get("targets"):
        table("the engine JSON targets (pvp, 100 games, SQLite on)", results["targets"])
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
    parser.add_argument("--games", type=int, default=None,
                        help="games at once (pvp: two clients each; bot: one);"
                             " default 100 (as the targets say), --quick 10")
    parser.add_argument("--players", type=int, default=None,
                        help="client connections instead of --games (bot: as many games;"
                             " pvp: half as many)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="measured window per run; default 10, --quick 3")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds before measuring; default 2, --quick 1")
    parser.add_argument("--workloads", default=None,
                        help="comma-separated: pvp, bot; default pvp,bot, --quick pvp")
    parser.add_argument("--stores", default=None,
                        help="comma-separated: sqlite (a file), memdb (--db :memory:), off;"
                             " default sqlite,off,memdb, --quick sqlite,off")
    parser.add_argument("--json-libs", default="installed",
                        help="comma-separated: installed (the server as installed), stdlib,"
                             " orjson, msgspec: the library the server writes JSON with")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each workload and store, the stores interleaved")
    parser.add_argument("--no-direct", action="store_true", help="skip the direct phase")
    parser.add_argument("--direct-actions", type=int, default=10,
                        help="actions per game in the direct phase")
    parser.add_argument("--direct-commit-every", type=int, default=8,
                        help="the direct phase's 'turns' store: actions per commit")
    parser.add_argument("--direct-total", type=int, default=None,
                        help="actions written to each store in each of the direct phase's"
                             " three rounds; default 30,000, --quick 3,000")
    parser.add_argument("--batch", type=int, default=50,
                        help="connections per ramp-up batch (at most the listen backlog, 50)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of about 15 s: pvp only, 10 games, 3 s windows,"
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
    defaults = {"games": (100, 10), "seconds": (10.0, 3.0), "warmup": (2.0, 1.0),
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
    args.json_libs = [j.strip() for j in args.json_libs.split(",") if j.strip()]
    if set(args.json_libs) - set(JSON_LIBS) or not args.json_libs:
        parser.error(f"--json-libs: choose among {', '.join(JSON_LIBS)}")
    if "pvp" in args.workloads and args.players is not None and args.players % 2:
        parser.error("--players must be even for pvp")
    if min(args.games, args.players or 1, args.repeat, args.direct_actions,
           args.direct_commit_every) < 1:
        parser.error("--games, --players, --repeat, --direct-actions and"
                     " --direct-commit-every must be at least 1")
    args.server_tree = args.server_tree.resolve()
    if not (args.server_tree / "gameproto" / "tap.py").exists():
        parser.error(f"--server-tree: no gameproto/tap.py in {args.server_tree}")
    if args.max_seconds is None:
        runs = len(args.workloads) * len(args.stores) * len(args.json_libs) * args.repeat
        args.max_seconds = 60 + runs * (args.seconds + args.warmup + 15 + (30 if args.py_spy else 0))
    return args


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    results: dict[str, Any] = {
        **harness.runInfo(args),
        "repeats": args.repeat,
    }
    if not args.no_direct:
        print(f"[{time.strftime('%H:%M:%S')}] direct...", file=sys.stderr, flush=True)
        results["direct"] = directPhase(args, work)
        results["direct"]["commit_every"] = args.direct_commit_every
        results["json_libs"] = jsonPhase()
    results["runs"] = []
    for repeat in range(args.repeat):
        for workload in args.workloads:
            for jsonLib in args.json_libs:
                for store in args.stores:
                    print(f"[{time.strftime('%H:%M:%S')}] {workload} / {store} / {jsonLib}...",
                          file=sys.stderr, flush=True)
                    results["runs"].append(
                        await networkRun(args, work, workload, store, repeat, jsonLib))
                    await sleep(0.5)
    results["summary"] = compare(results)
    results["targets"] = judge(results) if results["runs"] and "pvp" in args.workloads else []
    return results


def main(argv: list[str] | None = None) -> int:
    args = parseArgs(argv)
    needed = max(playersFor(args, workload) for workload in args.workloads)
    result = runBench(args, needed + 100, "enginejson-bench-", runAll, report)
    if isinstance(result, int):
        return result
    for r in result.get("runs", []):
        if r.get("py_spy") and os.path.exists(r["py_spy"]):
            print(f"\n== {r['workload']} / {r['store']} / {r['json']}:")
            printPySpy(r["py_spy"], args.profile_top)
    return 0

if __name__ == "__main__":
    sys.exit(main())
