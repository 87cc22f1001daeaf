#!/usr/bin/env python
"""
Games per second of gameproto's Carcassonne: the rules engine and its bot
alone, and the Carcassonne 1.71 server on loopback with bot clients.

    python bench/carcassonne.py                      # ~95 s, prints a table
    python bench/carcassonne.py --rooms 1,10,40 --scripted-rooms 20,200 --seconds 20
    python bench/carcassonne.py --phases engine --engine-seconds 5
    python bench/carcassonne.py --json out.json      # the figures as JSON too

(``python -m bench.carcassonne`` from the repository root is the same.)
Three phases:

engine
    ``CARCASSONNE.start({"players": P}, {"seed": S})`` (a seeded pile), then
    ``carcassonneBot(game.view(seat), seat)`` and ``game.act`` until the game
    is over, game after game, for ``--engine-seconds`` per number of players
    (2 to 5).  No network, no Twisted: games/s, moves/s, the cost of a move
    (the bot's choice and the engine's judgement), of ``game.act`` alone,
    and of a game.  Each game's moves are then played again as the
    server's referee judges them (a named pile, each move naming its tile,
    ``pageTargets`` off: no seat there clicks), ``game.act`` timed alone.
net
    For each ``--rooms N``: a fresh server, run as an operator runs it
    (``twistd -n --pidfile= --logfile=FILE gameproto --db FILE --ports
    carcassonne=tcp:PORT:interface=127.0.0.1,<every other port off>
    --carcassonne-bots-after 600``, the referee on, pinned to one core), and
    N rooms of ``--players`` ``CarcassonneClientProtocol`` clients in this
    process (pinned to the other core) with the library's default hooks:
    the rules engine's bot chooses each move, every move is checked before
    MOVEACK.  Each room plays game after game (its clients hang up at
    FINISH; new ones form the next room).  After ``--warmup`` seconds,
    ``--seconds`` are measured: complete games/s, moves/s, messages per move
    (both directions), the server's CPU per move and per message, and the
    move round trip (a client writing MOVE to reading its MOVEACK: the
    referee's judgement, the relay and every other client's answer).  Then
    the clients are closed, the server stopped, its records and log checked
    (tracebacks counted).

    The clients run the bot on every move, which costs far more than the
    server's work: with many rooms this process is the limit, and "server
    CPU per move" gives the server's capacity whichever side is the limit.

    Then, for each ``--scripted-rooms N``, the same with light clients
    (L{ScriptedClient}): each room replays a whole game the rules engine's
    bot played beforehand (its MOVE lines made once), says READY once the
    room is full and acknowledges every move at once.  The server does all
    it does for bot clients (the referee judges every move, records,
    relays); the clients do little, so the server is the limit, as in the
    Connect Four benchmark's load phase: its CPU per message there is what
    compares with the other protocols' budgets.
echo
    A bare Twisted echo server (``bench/harness.py echo``) carrying, from
    this process, as many connections as the largest networked run (bot or
    scripted), each
    with one message of that run's mean size in flight, for
    ``--echo-seconds``: its CPU per message, and each networked run's
    server CPU per message as a multiple of it (the ratio to the bare echo).

Every child process runs under ``timeout`` in its own process group and is
killed on exit, error or Ctrl-C; the whole run aborts after ``--max-seconds``.
The process helpers are the benchmarks' own (``bench/harness.py``).
"""

from __future__ import annotations

if __name__ == "__main__" and not __package__:  # python bench/carcassonne.py
    import _launch

    _launch.asModule(__file__)

import argparse
import array
import gc
import sys
import time
from pathlib import Path
from typing import Any, Callable

from twisted.internet import reactor  # (default reactor: epoll)
from twisted.internet.defer import Deferred, DeferredLock
from twisted.internet.protocol import Protocol
from twisted.python.failure import Failure

from bench import harness
from bench.harness import (
    REPO,
    addTable,
    connect,
    cpuSeconds,
    echoPhase,
    echoRows,
    fmt,
    machineBusy,
    now,
    percentiles,
    printProfile,
    readLog,
    readRecords,
    reportHeader,
    rssKiB,
    runBench,
    selfCpu,
    sleep,
    startGameproto,
    waitFor,
    waitListening,
)

from gameproto.carcassonne import wire
from gameproto.carcassonne.protocol import CarcassonneClientProtocol
from gameproto.engine.contract import Errors
from gameproto.games.carcassonne import CARCASSONNE, carcassonneBot


# -- engine ------------------------------------------------------------------------


def enginePhase(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Whole games of the rules engine and its bot, for 2 to 5 players."""
    results = []
    seed = args.seed
    for players in range(2, 6):
        games = moves = refereed = 0
        acting = judging = 0.0
        points: list[int] = []
        cpu0 = time.process_time()
        started = now()
        deadline = started + args.engine_seconds
        while now() < deadline or games == 0:
            game = CARCASSONNE.start({"players": players}, {"seed": seed})
            seed += 1
            if isinstance(game, Errors):
                raise RuntimeError(f"CARCASSONNE.start: {game.asJSON()}")
            instructions = game.instructions()
            played: list[tuple[int, dict[str, Any]]] = []
            while not instructions.game_state.gameover:
                seat = instructions.requested_actions[0].player
                action = carcassonneBot(game.view(seat), seat)
                played.append((seat, {**action, "tile": game.tile}))  # type: ignore[dict-item]
                before = now()
                outcome = game.act(seat, action)
                acting += now() - before
                if isinstance(outcome, Errors):
                    raise RuntimeError(f"the engine refused its bot's {action}: "
                                       f"{outcome.asJSON()}")
                instructions = outcome
                moves += 1
            games += 1
            points.extend(game.scores)
            judging += referee(players, played)
            refereed += len(played)
        elapsed = now() - started
        cpu = time.process_time() - cpu0
        results.append({
            "players": players, "seconds": elapsed, "games": games, "moves": moves,
            "games_per_s": games / elapsed, "moves_per_s": moves / elapsed,
            "ms_per_game": 1000 * cpu / games, "us_per_move": 1e6 * cpu / moves,
            "us_per_act": 1e6 * acting / moves,
            "us_per_referee_act": 1e6 * judging / refereed,
            "moves_per_game": moves / games,
            "mean_final_score": sum(points) / len(points),
        })
    return results


def referee(players: int, played: list[tuple[int, dict[str, Any]]]) -> float:
    """
    Seconds ``game.act`` takes for ``played`` as the server's referee sees
    them: a named pile, each move naming its tile, no page's zones.
    """
    game = CARCASSONNE.start({"players": players, "pile": "named"}, {"seed": 0})
    if isinstance(game, Errors):
        raise RuntimeError(f"CARCASSONNE.start: {game.asJSON()}")
    game.pageTargets = False
    seconds = 0.0
    for seat, action in played:
        before = now()
        outcome = game.act(seat, action)
        seconds += now() - before
        if isinstance(outcome, Errors):
            raise RuntimeError(f"the referee refused {action}: {outcome.asJSON()}")
    return seconds


# -- net ------------------------------------------------------------------------------


class Run:
    """What the clients of one networked run count."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopping = False
        self.moves = 0
        self.games = 0
        self.started = 0
        self.messagesIn = self.messagesOut = self.bytesIn = self.bytesOut = 0
        self.rtt: array.array[float] = array.array("d")
        self.refusals = 0
        self.unexpectedCloses = 0
        self.connectFailures = 0
        self.stopped = 0
        self.laneErrors: list[str] = []
        """Why a lane (one room after another) stopped with an error, each."""

    def laneFailed(self, failure: Failure) -> None:
        self.laneErrors.append(failure.getErrorMessage() or repr(failure.value))


class LaneMember:
    """
    What a lane (L{lane}) waits for of each client it starts: its room
    joined, its game started, its end; what a run counts when it goes.
    """

    run: Run
    finished: bool

    def joinLane(self, run: Run) -> None:
        self.run = run
        self.joined: Deferred[None] = Deferred()
        self.startedGame: Deferred[None] = Deferred()
        self.done: Deferred[None] = Deferred()
        self.closed = False

    def connectFailed(self, reason: Any) -> None:
        self.run.connectFailures += 1
        self.gone()

    def gone(self) -> None:
        """The connection is closed (or never made): the lane goes on."""
        self.closed = True
        for d in (self.joined, self.startedGame, self.done):
            if not d.called:
                d.callback(None)

    def lost(self) -> None:
        """The connection closed: unexpected before the game's end."""
        if not self.finished and not self.run.stopping:
            self.run.unexpectedCloses += 1
        self.gone()


class BenchClient(LaneMember, CarcassonneClientProtocol):
    """The library's client with its default hooks, counting what it sees."""

    def __init__(self, run: Run, players: int) -> None:
        super().__init__(players)
        self.joinLane(run)
        self._sentAt = 0.0

    def dataReceived(self, data: bytes) -> None:
        if self.run.measuring:
            self.run.bytesIn += len(data)
            self.run.messagesIn += data.count(b"\n")
        super().dataReceived(data)

    def sendMessage(self, message: wire.Message) -> None:
        if self.run.measuring:
            self.run.messagesOut += 1
            self.run.bytesOut += len(wire.format(message))
        if isinstance(message, wire.Move):
            self._sentAt = now()
        super().sendMessage(message)

    def alone(self) -> None:
        if not self.joined.called:
            self.joined.callback(None)

    def playerJoined(self, number: int) -> None:
        if not self.joined.called:
            self.joined.callback(None)

    def gameStarted(self) -> None:
        self.run.started += 1
        if not self.startedGame.called:
            self.startedGame.callback(None)

    def moveAccepted(self, board: dict[tuple[int, int], tuple[str, str]]) -> None:
        if self.run.measuring:
            self.run.moves += 1
            self.run.rtt.append(now() - self._sentAt)

    def moveRefused(self, move: wire.Move) -> None:
        self.run.refusals += 1

    def gameFinished(self, number: int) -> None:
        if self.run.measuring and number == 0 and self.opponents and min(self.opponents) > 1:
            self.run.games += 1  # once per game: by the lowest number, player 1

    def connectionLost(self, reason: Any = None) -> None:
        super().connectionLost(reason)
        self.lost()


class ScriptedClient(LaneMember, Protocol):
    """
    A light client: it replays a game the rules engine's bot played
    beforehand (each MOVE's bytes made once, with its token to fill in),
    says READY once the room is full and acknowledges every move at once.
    The server judges and relays each move as it would a bot client's;
    the client does none of the bot's work, so the server can be the limit.
    """

    def __init__(self, run: Run, players: int, script: list[bytes]) -> None:
        self.joinLane(run)
        self.players = players
        self.script = script
        self.finished = False
        self.members = 1
        self.readySent = False
        self.played = 0
        """Moves of the game so far (this client's and the others'): the next one's index."""
        self.movedFirst = False
        self._buffer = b""
        self._sentAt = 0.0

    def connectionMade(self) -> None:
        self._write(b"HELLO 0\n")

    def _write(self, data: bytes) -> None:
        if self.run.measuring:
            self.run.messagesOut += 1
            self.run.bytesOut += len(data)
        self.transport.write(data)  # type: ignore[union-attr]

    def _member(self) -> None:
        self.members += 1
        if not self.joined.called:
            self.joined.callback(None)
        if not self.readySent and self.members >= self.players:
            self.readySent = True
            self._write(b"READY 0\n")

    def dataReceived(self, data: bytes) -> None:
        run = self.run
        if run.measuring:
            run.bytesIn += len(data)
            run.messagesIn += data.count(b"\n")
        *lines, self._buffer = (self._buffer + data).split(b"\n")
        if len(self._buffer) > _LINE_LIMIT:  # (the server's lines are under 300 bytes)
            run.laneErrors.append(f"a line over {_LINE_LIMIT} bytes from the server")
            self.transport.loseConnection()  # type: ignore[union-attr]
            return
        for line in lines:
            if self.closed or run.stopping:  # (at the end, the others' CLOSE as each goes)
                return
            if line.startswith(b"MOVE "):  # another's move: accepted
                self.played += 1
                self._write(b"MOVEACK\n")
            elif line == b"MOVEACK":  # this client's move, accepted by all
                self.played += 1
                if run.measuring:
                    run.moves += 1
                    run.rtt.append(now() - self._sentAt)
            elif line.startswith(b"TOKEN "):
                if self.played >= len(self.script):
                    run.laneErrors.append(f"a TOKEN after the script's {self.played} moves")
                    self.transport.loseConnection()  # type: ignore[union-attr]
                    return
                if self.played == 0:
                    self.movedFirst = True
                self._sentAt = now()
                self._write(self.script[self.played] % int(line[6:]))
            elif line.startswith(b"HELLO "):
                self._write(b"HELLOACK 0\n")
                self._member()
            elif line.startswith(b"HELLOACK "):
                self._member()
            elif line == b"HELLONACK":
                if not self.joined.called:
                    self.joined.callback(None)
            elif line == b"START":
                run.started += 1
                if not self.startedGame.called:
                    self.startedGame.callback(None)
            elif line.startswith(b"FINISH "):
                self.finished = True
                if run.measuring and self.movedFirst:
                    run.games += 1  # once per game: by the client that moved first
                self._write(b"CLOSE 0\n")
                self.transport.loseConnection()  # type: ignore[union-attr]
                return
            else:  # NOOP, MOVENACK, CLOSE: the script went wrong, or a client left
                run.refusals += 1
                run.laneErrors.append(f"the server sent {line[:40]!r}")
                self.transport.loseConnection()  # type: ignore[union-attr]
                return

    def connectionLost(self, reason: Any = None) -> None:
        self.lost()


def scripts(players: int, count: int, seed: int) -> list[list[bytes]]:
    """
    ``count`` whole games (every tile placed) of ``players`` the rules
    engine's bot played (seeds from ``seed``), each as its MOVE lines in
    turn order, the token left to fill in (``line % token``).
    """
    games: list[list[bytes]] = []
    while len(games) < count:
        game = CARCASSONNE.start({"players": players}, {"seed": seed})
        seed += 1
        if isinstance(game, Errors):
            raise RuntimeError(f"CARCASSONNE.start: {game.asJSON()}")
        instructions = game.instructions()
        lines = []
        while not instructions.game_state.gameover:
            seat = instructions.requested_actions[0].player
            action = carcassonneBot(game.view(seat), seat)
            assert isinstance(action, dict)
            x, y, zone = action["x"], action["y"], action["zone"]
            assert isinstance(x, int) and isinstance(y, int)
            line = wire.format(wire.Move(0, str(game.tile), x, y, str(action["orientation"]),
                                         None if zone is None else str(zone), 1))
            lines.append(line[:-2] + b"%d\n")  # the token, 1, made a placeholder
            outcome = game.act(seat, action)
            if isinstance(outcome, Errors):
                raise RuntimeError(f"the engine refused its bot's {action}: {outcome.asJSON()}")
            instructions = outcome
        if len(lines) == _MOVES:  # (a game whose last tiles fit nowhere ends sooner)
            games.append(lines)
    return games


async def lane(run: Run, port: int, players: int, lock: DeferredLock,
               clients: list[Any], make: Callable[[int], Any]) -> None:
    """
    One room after another: ``players`` clients (``make(room)``, ``room``
    counting this lane's rooms) join it together, play, hang up.
    """
    room = 0
    while not run.stopping:
        room += 1
        await lock.acquire()
        try:
            group = []
            for _ in range(players):
                client = make(room)
                clients.append(client)
                group.append(client)
                connect(port, client)
                await client.joined
            for client in group:
                await client.startedGame
        finally:
            lock.release()
        for client in group:
            await client.done
        if run.connectFailures or run.unexpectedCloses:
            return


async def netRun(args: argparse.Namespace, work: Path, rooms: int,
                 profile: str | None, kind: str = "bot") -> dict[str, Any]:
    """
    One networked run: ``rooms`` rooms at once, of the library's bot
    clients (``kind`` "bot") or of L{ScriptedClient}s ("scripted").
    """
    name = f"carcassonne-{kind}-{rooms}"
    games = scripts(args.players, _SCRIPTS, args.seed) if kind == "scripted" else []
    logfile = work / f"{name}.log"
    child, ports = startGameproto(args, work, name, ["carcassonne"],
                                  ["--carcassonne-bots-after", "600"], log=logfile,
                                  profile=profile)
    port = ports["carcassonne"]
    run = Run()
    clients: list[BenchClient] = []
    lock = DeferredLock()
    result: dict[str, Any] = {"rooms": rooms, "players": args.players, "clients": kind,
                              "connections": rooms * args.players,
                              "profiled": bool(profile)}

    def make(lane: int) -> Any:
        if kind == "scripted":
            return lambda room: ScriptedClient(run, args.players,
                                               games[(lane + room) % len(games)])
        return lambda room: BenchClient(run, args.players)

    try:
        await waitListening(child, port)
        pid = child.pid
        await sleep(0.5)
        started = now()
        for index in range(rooms):
            Deferred.fromCoroutine(lane(run, port, args.players, lock, clients,
                                        make(index))).addErrback(run.laneFailed)
        if not await waitFor(lambda: run.started >= rooms * args.players
                             or bool(run.connectFailures or run.unexpectedCloses
                                     or run.laneErrors), 60.0):
            raise RuntimeError(f"ramp-up stuck: {run.started} clients started")
        if run.laneErrors:
            raise RuntimeError(f"ramp-up: a lane stopped: {run.laneErrors[0]}")
        if run.connectFailures or run.unexpectedCloses:
            raise RuntimeError(f"ramp-up: {run.connectFailures} connections failed, "
                               f"{run.unexpectedCloses} closed")
        result["ramp_s"] = now() - started
        await sleep(args.warmup)
        rssBefore = rssKiB(pid)
        serverCpu0, benchCpu0, machine0 = cpuSeconds(pid), selfCpu(), machineBusy()
        windowStart = now()
        run.measuring = True
        await sleep(args.seconds)
        run.measuring = False
        elapsed = now() - windowStart
        serverCpu = cpuSeconds(pid) - serverCpu0
        benchCpu = selfCpu() - benchCpu0
        othersCpu = max(0.0, machineBusy() - machine0 - serverCpu - benchCpu)
        rssAfter = rssKiB(pid)
        moves, messages = run.moves, run.messagesIn + run.messagesOut
        result.update(
            elapsed_s=elapsed, games=run.games, moves=moves,
            games_per_s=run.games / elapsed, moves_per_s=moves / elapsed,
            messages_in=run.messagesIn, messages_out=run.messagesOut,
            messages_per_move=messages / moves if moves else None,
            bytes_per_move=(run.bytesIn + run.bytesOut) / moves if moves else None,
            server_cpu_pct=100 * serverCpu / elapsed, bench_cpu_pct=100 * benchCpu / elapsed,
            others_cpu_pct=100 * othersCpu / elapsed,
            server_cpu_us_per_move=1e6 * serverCpu / moves if moves else None,
            server_cpu_us_per_message=1e6 * serverCpu / messages if messages else None,
            bench_cpu_us_per_move=1e6 * benchCpu / moves if moves else None,
            server_rss_window_start_kib=rssBefore, server_rss_window_end_kib=rssAfter,
            rtt_ms={"n": len(run.rtt), **percentiles(run.rtt)},
        )
    finally:
        run.stopping = True
        for client in clients:
            if not client.closed and client.transport is not None:
                client.transport.abortConnection()  # type: ignore[attr-defined]
        if reactor.running:  # type: ignore[attr-defined]
            await sleep(0.5)
        child.stop(grace=60 if profile else 10)
    result["refusals"] = run.refusals
    result["unexpected_closes"] = run.unexpectedCloses
    result["connect_failures"] = run.connectFailures
    result["lane_errors"] = run.laneErrors
    result.update(readRecords(work / f"{name}.sqlite"))
    result.update(readLog(logfile))
    return result


_LINE_LIMIT = 4096
"""The longest line a scripted client keeps (the library client's reader has the same)."""

_SCRIPTS = 16
"""Games made beforehand for the scripted clients; their rooms take them in turn."""

_MOVES = sum(wire.TILE_COUNTS.values()) - 1
"""A game's moves: every tile but the start tile (71)."""


# -- report ----------------------------------------------------------------------------


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("Carcassonne benchmark", results)
    for r in results.get("engine", []):
        addTable(lines, f"engine and bot alone, {r['players']} players "
                        f"({fmt(r['seconds'])} s, {r['games']} games)", [
            ("games/s", fmt(r["games_per_s"], 2)),
            ("moves/s", fmt(r["moves_per_s"])),
            ("CPU per move (bot + engine)", f"{fmt(r['us_per_move'])} µs"),
            ("of which game.act", f"{fmt(r['us_per_act'])} µs"),
            ("game.act as the server's referee (named pile, no page)",
             f"{fmt(r['us_per_referee_act'])} µs"),
            ("CPU per game", f"{fmt(r['ms_per_game'])} ms"),
            ("moves per game", fmt(r["moves_per_game"])),
            ("mean final score", fmt(r["mean_final_score"])),
        ])
    for r in results.get("net", []):
        rtt = r["rtt_ms"]
        kind = "scripted" if r.get("clients") == "scripted" else "bot"
        addTable(lines, f"network: {r['rooms']} rooms of {r['players']} {kind} clients "
                        f"({fmt(r['elapsed_s'])} s window"
                        f"{', server profiled' if r['profiled'] else ''})", [
            ("games/s", fmt(r["games_per_s"], 2)),
            ("moves/s", fmt(r["moves_per_s"])),
            ("messages per move (both ways)", fmt(r["messages_per_move"], 2)),
            ("bytes per move (both ways)", fmt(r["bytes_per_move"])),
            ("server CPU per move", f"{fmt(r['server_cpu_us_per_move'])} µs"),
            ("server CPU per message", f"{fmt(r['server_cpu_us_per_message'])} µs"),
            ("server CPU per message / the bare echo's",
             f"{fmt(r.get('echo_ratio'), 2)} x" if r.get("echo_ratio") else "-"),
            ("bench CPU per move", f"{fmt(r['bench_cpu_us_per_move'])} µs"),
            ("CPU: server / bench / others",
             f"{fmt(r['server_cpu_pct'])}% / {fmt(r['bench_cpu_pct'])}% / "
             f"{fmt(r['others_cpu_pct'])}%"),
            ("MOVE to MOVEACK p50 / p99 / max",
             f"{fmt(rtt['p50_ms'], 2)} / {fmt(rtt['p99_ms'], 2)} / "
             f"{fmt(rtt['max_ms'], 2)} ms (n={rtt['n']})"),
            ("server RSS (window start, end)",
             f"{fmt(r['server_rss_window_start_kib'] / 1024)} MiB, "
             f"{fmt(r['server_rss_window_end_kib'] / 1024)} MiB"),
            ("records / log lines / tracebacks",
             f"{r['records']} / {r['log_lines']} / {r['log_tracebacks']}"),
            ("refused moves / unexpected closes / connect failures",
             f"{r['refusals']} / {r['unexpected_closes']} / {r['connect_failures']}"),
            ("lanes stopped by an error",
             f"{len(r['lane_errors'])}" + (f" ({r['lane_errors'][0]})" if r["lane_errors"]
                                           else "")),
        ])
    echo = results.get("echo")
    if echo:
        addTable(lines, f"bare Twisted echo: {echo['connections']} connections, "
                        f"{echo['message_bytes']}-byte messages ({fmt(echo['elapsed_s'])} s)",
                 echoRows(echo))
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------------


def parseArgs(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].strip(),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--phases", default="engine,net,echo",
                        help="which phases, comma-separated: engine, net, echo")
    parser.add_argument("--engine-seconds", type=float, default=4.0,
                        help="how long the engine phase runs for each number of players")
    parser.add_argument("--rooms", default="1,20",
                        help="rooms at once, comma-separated: one networked run for each")
    parser.add_argument("--scripted-rooms", default="100",
                        help="rooms at once of scripted clients (games replayed, no bot work:"
                             " the server is the limit), comma-separated: one networked run"
                             " for each; '' for none")
    parser.add_argument("--players", type=int, default=2,
                        help="clients per room in the networked runs, 2 to 5")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured window per run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--echo-seconds", type=float, default=5.0,
                        help="the echo phase's measured window")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="run the last networked run's server under cProfile (twistd"
                             " --profile) and print its hot spots; its figures are then not"
                             " representative")
    parser.add_argument("--profile-top", type=int, default=30)
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the bench to core 0 and the server to core 1")
    parser.add_argument("--server-tree", type=Path, default=REPO, metavar="DIR",
                        help="run the server from this source tree (e.g. 'git archive' of"
                             " another commit; give it as '--server-tree DIR'); the clients and"
                             " the engine phase are this tree's")
    parser.add_argument("--seed", type=int, default=1, help="the engine phase's first seed")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="also write the figures as JSON ('-': stdout, instead of the table)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="abort the whole run after this long (default: from the options)")
    parser.add_argument("--keep-work", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    args.phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    unknown = set(args.phases) - {"engine", "net", "echo"}
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    try:
        args.rooms = [int(t) for t in args.rooms.split(",") if t.strip()]
    except ValueError:
        parser.error("--rooms: comma-separated numbers")
    try:
        args.scripted_rooms = [int(t) for t in args.scripted_rooms.split(",") if t.strip()]
    except ValueError:
        parser.error("--scripted-rooms: comma-separated numbers")
    if any(t < 1 for t in args.rooms + args.scripted_rooms):
        parser.error("--rooms, --scripted-rooms: at least 1")
    if not 2 <= args.players <= 5:
        parser.error("--players: 2 to 5")
    args.server_tree = args.server_tree.resolve()
    if not (args.server_tree / "gameproto" / "carcassonne").exists():
        parser.error(f"--server-tree: no gameproto/carcassonne in {args.server_tree}")
    if args.max_seconds is None:
        runs = len(args.rooms) + len(args.scripted_rooms) if "net" in args.phases else 0
        args.max_seconds = (60 + 4 * args.engine_seconds + runs * (60 + args.warmup + args.seconds)
                            + (40 + args.echo_seconds if "echo" in args.phases else 0))
    return args


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    results: dict[str, Any] = {
        **harness.runInfo(args),
    }
    if "engine" in args.phases:
        print(f"[{time.strftime('%H:%M:%S')}] phase engine...", file=sys.stderr, flush=True)
        gc.collect()
        results["engine"] = enginePhase(args)
    if "net" in args.phases:
        results["net"] = []
        runs = [("bot", rooms) for rooms in args.rooms] + \
            [("scripted", rooms) for rooms in args.scripted_rooms]
        for index, (kind, rooms) in enumerate(runs):
            print(f"[{time.strftime('%H:%M:%S')}] network, {rooms} rooms of {kind} clients...",
                  file=sys.stderr, flush=True)
            profile = args.profile if index == len(runs) - 1 else None
            results["net"].append(await netRun(args, work, rooms, profile, kind))
            await sleep(1.0)
    if "echo" in args.phases:
        # The echo carries the largest run's connections, each message the
        # size of that run's mean message, one at a time on each.
        last = results["net"][-1] if results.get("net") else None
        await echoPhase(args, work, results,
                        args.players * max(args.rooms + args.scripted_rooms, default=1),
                        last, "move")
    return results


def main(argv: list[str] | None = None) -> int:
    harness.checkGameproto(sys.argv if argv is None else argv)
    args = parseArgs(argv)
    result = runBench(args, args.players * max(args.rooms + args.scripted_rooms, default=0) * 2
                      + 100,
                      "carcassonne-bench-", runAll, report)
    if isinstance(result, int):
        return result
    if args.profile and result.get("net"):
        printProfile(args.profile, args.profile_top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
