#!/usr/bin/env python
"""
Games per second of gameproto's Doppelkopf: the rules engine alone (with
its bot, and with a trivial player), and the FreeDoko server on loopback
with library children and server bots.

    python bench/doppelkopf.py                       # ~105 s, prints a table
    python bench/doppelkopf.py --phases engine --engine-seconds 10
    python bench/doppelkopf.py --modes children --tables 1,20 --seconds 20
    python bench/doppelkopf.py --json out.json       # the figures as JSON too

(``python -m bench.doppelkopf`` from the repository root is the same.)

A *game* is one Doppelkopf game (a deal of 12 tricks, a thrown deal's
redeal included); a *party* is ``--rounds`` rounds (a round: each seat
starts once, a solo adds a game), as FreeDoko's ``number of rounds`` rule
counts them.  Three phases:

engine
    ``DOPPELKOPF.start({"rounds": R}, {"seed": S})`` (FreeDoko's default
    rules), then ``party.act`` until the party is over, party after party,
    for ``--engine-seconds`` with each player:

    - ``bot``: ``party.botAction(seat)`` decides every seat: the engine's
      bot reading the seat's view from the party as far as it needs it
      (the same action as ``doppelkopfBot(party.view(seat), seat)``, the
      equivalence tests say so); the bot and ``party.act`` are timed apart.
      Until 2026-11-26 this player built the full view first (``view``
      below): figures from before then include the view;
    - ``view`` (not run by default): ``doppelkopfBot(party.view(seat),
      seat)``, the full view built for the bot (what the library's children
      do; the server's bots read theirs from the party, as ``bot``); the
      view, the bot and ``party.act`` are timed apart;
    - ``first``: a trivial player, no view: ``normal`` for each
      reservation, the first of ``party.game.legalCardsFor(seat)`` for each
      card (the rules engine's own cost, ``party.act`` included).

    No network, no Twisted: games/s (the aim: at least 1,000 per core),
    actions/s, CPU per game and per action; the bot's cost is the
    difference.  ``--engine-profile`` runs one more ``bot`` pass under
    cProfile and prints its hot spots.
net
    For each ``--modes`` and each ``--tables N``: a fresh server run as an
    operator runs it (``twistd -n --pidfile= --logfile=FILE gameproto --db
    FILE --ports freedoko=tcp:PORT:interface=127.0.0.1,<every other port
    off> --freedoko-rules FILE``, the rules file setting ``number of rounds``
    to ``--rounds``, pinned to one core), and N tables played by
    ``FreeDokoClientProtocol`` children in this process (pinned to the other
    core) with the library's default hooks (the engine's bot decides; each
    child deals every game itself from the party's seed and checks every
    line of the parent against its own rules):

    - ``bots``: one child per table and three server bots
      (``--freedoko-bots-after 0``): the table starts as the child is seated;
    - ``children``: four children per table (``--freedoko-bots-after 600``),
      seated together.

    Each table plays its party; its children leave at ``party: finish`` and
    new ones form the next table.  After ``--warmup`` seconds, ``--seconds``
    are measured: games/s, parties/s, messages and bytes per game (both
    directions, as the children see them), the server's CPU per game and
    per message, the bench's CPU per game, and the card round trip (a child
    writing ``card played`` to reading the parent's echo of it: the
    parent's check, the barrier, the relay).  Then the children are
    closed, the server stopped, its records and log checked (refusals and
    tracebacks counted), and the children's mismatches counted (a line of
    the parent their rules disagree with).

    The children run the rules engine and its bot for their seats and
    follow every other seat's move: with many tables this process is the
    limit, and "server CPU per game" gives the server's capacity whichever
    side is the limit.  In ``bots`` mode the server also runs three bots
    per table: its CPU per game includes them, and its CPU per message is
    not the protocol's cost (compare the ``children`` mode's with the other
    protocols' budgets in ``docs/performance.md``).
echo
    A bare Twisted echo server (``bench/harness.py echo``) carrying, from
    this process, the connections of the largest ``children`` run, each
    with one message of that run's mean size in flight, for
    ``--echo-seconds``: its CPU per message, and each networked run's
    server CPU per message as a multiple of it (the ratio to the bare echo).

Every child process runs under ``timeout`` in its own process group and is
killed on exit, error or Ctrl-C; the whole run aborts after ``--max-seconds``.
The process helpers are the benchmarks' own (``bench/harness.py``).
"""

from __future__ import annotations

if __name__ == "__main__" and not __package__:  # python bench/doppelkopf.py
    import _launch

    _launch.asModule(__file__)

import argparse
import array
import cProfile
import gc
import io
import pstats
import sys
import time
from pathlib import Path
from typing import Any, Callable

from twisted.internet import reactor  # (default reactor: epoll)
from twisted.internet.defer import Deferred, DeferredLock

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

from gameproto.engine.contract import Errors
from gameproto.freedoko import wire
from gameproto.freedoko.client import FreeDokoClientProtocol
from gameproto.games.doppelkopf import (
    DOPPELKOPF,
    PLAYING,
    RESERVING,
    DoppelkopfParty,
    GameSummary,
    doppelkopfBot,
)

cpu = time.perf_counter
"""
The clock of the engine phase's parts (view, bot, act): a cheap one, the
wall clock, each part then scaled by the run's CPU time over its wall time.
Each run's totals are this process's CPU time (``time.process_time`` is a
system call, about 1 µs, which timing each part with it would add four
times an action).
"""

NAME_PREFIX = "bench"
"""The children's names: ``bench<n>`` (the server's bots are ``bot<seat>``)."""


# -- engine ------------------------------------------------------------------------


def newParty(rounds: int, seed: int) -> DoppelkopfParty:
    party = DOPPELKOPF.start({"rounds": rounds}, {"seed": seed})
    if isinstance(party, Errors):
        raise RuntimeError(f"DOPPELKOPF.start: {party.asJSON()}")
    return party


def playWith(party: DoppelkopfParty, timing: list[float],
             decide: Callable[[DoppelkopfParty, int, list[float]], Any]) -> int:
    """
    Play ``party`` to its end, ``decide`` giving each seat's action (and
    adding its own times to ``timing``), ``party.act`` timed as ``timing[2]``.
    """
    actions = 0
    instructions = party.instructions()
    while not instructions.game_state.gameover:
        seat = instructions.requested_actions[0].player
        action = decide(party, seat, timing)
        t0 = cpu()
        outcome = party.act(seat, action)
        timing[2] += cpu() - t0
        if isinstance(outcome, Errors):
            raise RuntimeError(f"the engine refused {action}: {outcome.asJSON()}")
        instructions = outcome
        actions += 1
    return actions


def botFromParty(party: DoppelkopfParty, seat: int, timing: list[float]) -> Any:
    """The engine's bot, read from the party (timed as ``timing[1]``)."""
    t0 = cpu()
    action = party.botAction(seat)
    timing[1] += cpu() - t0
    return action


def botFromView(party: DoppelkopfParty, seat: int, timing: list[float]) -> Any:
    """The engine's bot given the full view (the view timed as ``timing[0]``, the bot as ``[1]``)."""
    t0 = cpu()
    view = party.view(seat)
    t1 = cpu()
    action = doppelkopfBot(view, seat)
    timing[0] += t1 - t0
    timing[1] += cpu() - t1
    return action


def firstLegal(party: DoppelkopfParty, seat: int, timing: list[float]) -> Any:
    """
    A trivial player: ``normal`` for every reservation, the first legal card
    for every card (the bot for a poverty, which ``normal`` reservations
    never make).
    """
    game = party.game
    if game.phase == RESERVING:
        return {"reservation": "normal"}
    if game.phase == PLAYING:
        return {"card": game.legalCardsFor(seat)[0]}
    return doppelkopfBot(party.view(seat), seat)


def playBot(party: DoppelkopfParty, timing: list[float]) -> int:
    """Play ``party`` to its end with the engine's bot, read from the party, in every seat."""
    return playWith(party, timing, botFromParty)


def playView(party: DoppelkopfParty, timing: list[float]) -> int:
    """Play ``party`` to its end with the engine's bot, given each full view, in every seat."""
    return playWith(party, timing, botFromView)


def playFirst(party: DoppelkopfParty, timing: list[float]) -> int:
    """Play ``party`` to its end with the trivial player (L{firstLegal}) in every seat."""
    return playWith(party, timing, firstLegal)


PLAYERS_: dict[str, Callable[[DoppelkopfParty, list[float]], int]] = {
    "bot": playBot, "view": playView, "first": playFirst}


def engineRun(player: str, seconds: float, rounds: int, seed: int) -> dict[str, Any]:
    """Parties of the rules engine with ``player`` in every seat, for ``seconds``."""
    play = PLAYERS_[player]
    games = actions = parties = 0
    timing = [0.0, 0.0, 0.0]  # view, bot, act
    types: dict[str, int] = {}
    gc.collect()
    cpu0 = time.process_time()
    started = now()
    deadline = started + seconds
    while now() < deadline or parties == 0:
        party = newParty(rounds, seed)
        seed += 1
        actions += play(party, timing)
        games += len(party.summaries)
        parties += 1
        for summary in party.summaries:
            types[summary.gameType] = types.get(summary.gameType, 0) + 1
    elapsed = now() - started
    cpu = time.process_time() - cpu0
    # The parts, timed by the wall clock, as CPU: the share of the wall
    # clock this process had (another process may have had the core).
    timing = [t * cpu / elapsed for t in timing]
    return {
        "player": player, "seconds": elapsed, "cpu_s": cpu, "parties": parties,
        "games": games, "actions": actions,
        "games_per_s": games / elapsed, "games_per_cpu_s": games / cpu,
        "actions_per_s": actions / elapsed,
        "us_per_game": 1e6 * cpu / games, "us_per_action": 1e6 * cpu / actions,
        "us_view_per_action": 1e6 * timing[0] / actions if player == "view" else None,
        "us_bot_per_action": 1e6 * timing[1] / actions if player != "first" else None,
        "us_act_per_action": 1e6 * timing[2] / actions,
        "actions_per_game": actions / games, "game_types": types,
        "next_seed": seed,
    }


def enginePhase(args: argparse.Namespace) -> dict[str, Any]:
    seed = args.seed
    runs = []
    for player in args.players:
        result = engineRun(player, args.engine_seconds, args.rounds, seed)
        seed = result.pop("next_seed")
        runs.append(result)
    out: dict[str, Any] = {"runs": runs}
    if args.engine_profile:
        out["profile"] = engineProfile(args)
    return out


def engineProfile(args: argparse.Namespace) -> str:
    """One ``bot`` pass under cProfile: its hot spots, as text."""
    profile = cProfile.Profile()
    profile.enable()
    engineRun("bot", max(1.0, args.engine_seconds / 2), args.rounds, args.seed)
    profile.disable()
    text = io.StringIO()
    stats = pstats.Stats(profile, stream=text)
    stats.sort_stats("cumulative").print_stats(args.profile_top)
    stats.sort_stats("tottime").print_stats(args.profile_top)
    return text.getvalue().replace(str(REPO) + "/", "")


# -- net ------------------------------------------------------------------------------


class Run:
    """What the children of one networked run count."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopping = False
        self.games = 0
        self.parties = 0
        self.cards = 0
        self.placed = 0
        self.started = 0
        self.messagesIn = self.messagesOut = self.bytesIn = self.bytesOut = 0
        self.rtt: array.array[float] = array.array("d")
        self.refusals = 0
        self.mismatches = 0
        self.problems: list[str] = []
        self.unexpectedCloses = 0
        self.connectFailures = 0
        self.serial = 0


class BenchChild(FreeDokoClientProtocol):
    """The library's child with its default hooks (the bot), counting what it sees."""

    def __init__(self, run: Run) -> None:
        run.serial += 1
        super().__init__(f"{NAME_PREFIX}{run.serial}")
        self.run = run
        self.placedD: Deferred[None] = Deferred()
        self.startedD: Deferred[None] = Deferred()
        self.done: Deferred[None] = Deferred()
        self.closed = False
        self.over = False
        self._sent: dict[tuple[int, str], float] = {}

    def _fire(self, *deferreds: Deferred[None]) -> None:
        for d in deferreds:
            if not d.called:
                d.callback(None)

    def connectFailed(self, reason: Any) -> None:
        self.run.connectFailures += 1
        self.closed = True
        self._fire(self.placedD, self.startedD, self.done)

    def counts(self) -> bool:
        """
        Whether this child counts its table's games: it is the lowest-numbered
        bench child there (the others are bots, or bench children after it).
        """
        seat = self.seat
        if seat is None:
            return False
        return not any(self.names.get(p, "").startswith(NAME_PREFIX) for p in range(seat))

    def dataReceived(self, data: bytes) -> None:
        if self.run.measuring:
            self.run.bytesIn += len(data)
        super().dataReceived(data)

    def writeData(self, data: bytes) -> None:
        if self.run.measuring:
            self.run.bytesOut += len(data)
        super().writeData(data)

    def messageReceived(self, message: Any) -> None:
        run = self.run
        if run.measuring:
            run.messagesIn += 1
        if isinstance(message, wire.CardPlayed):
            sentAt = self._sent.pop((message.player, str(message.card)), None)
            if sentAt is not None and run.measuring:
                run.rtt.append(now() - sentAt)
        elif isinstance(message, wire.Chat) and "refused" in message.text:
            run.refusals += 1
        super().messageReceived(message)
        if self.seats and not self.placedD.called:
            run.placed += 1
            self._fire(self.placedD)

    def sendMessage(self, message: Any) -> None:
        if self.run.measuring and not self._closing:
            self.run.messagesOut += 1
        if isinstance(message, wire.CardPlayed):
            self._sent[(message.player, str(message.card))] = now()
        super().sendMessage(message)

    def partyStarted(self, seed: int, startplayer: int) -> None:
        self.run.started += 1
        self._fire(self.startedD)

    def gameFinished(self, summary: GameSummary, totals: tuple[int, ...]) -> None:
        if self.run.measuring and self.counts():
            self.run.games += 1

    def partyFinished(self, totals: tuple[int, ...], summaries: list[GameSummary]) -> None:
        self.over = True
        if self.run.measuring and self.counts():
            self.run.parties += 1
        self.leave("the party is over")

    def mismatch(self, text: str) -> None:
        self.run.mismatches += 1

    def connectionLost(self, reason: Any = None) -> None:
        super().connectionLost(reason)
        self.closed = True
        if not self.over and not self.run.stopping:
            self.run.unexpectedCloses += 1
            self.run.problems.append(f"{self.name}: {self.problem or reason}")
        self._fire(self.placedD, self.startedD, self.done)


async def lane(run: Run, port: int, children: int, lock: DeferredLock,
               clients: list[BenchChild]) -> None:
    """One table after another: ``children`` children join it together, play, leave."""
    while not run.stopping:
        await lock.acquire()
        try:
            group = []
            for _ in range(children):
                client = BenchChild(run)
                clients.append(client)
                group.append(client)
                connect(port, client)
                await client.placedD
            for client in group:
                await client.startedD
        finally:
            lock.release()
        for client in group:
            await client.done
        clients[:] = [c for c in clients if not c.closed]
        if run.connectFailures or run.unexpectedCloses:
            return


def rulesFile(work: Path, rounds: int) -> Path:
    path = work / "rules"
    path.write_text(f"number of rounds limited = true\nnumber of rounds = {rounds}\n")
    return path


MODES = {"bots": (1, 0.0), "children": (4, 600.0)}
"""Each mode's children per table, and ``--freedoko-bots-after``."""


async def netRun(args: argparse.Namespace, work: Path, mode: str, tables: int,
                 profile: str | None) -> dict[str, Any]:
    perTable, botsAfter = MODES[mode]
    name = f"freedoko-{mode}-{tables}"
    logfile = work / f"{name}.log"
    child, ports = startGameproto(
        args, work, name, ["freedoko"],
        ["--freedoko-rules", str(rulesFile(work, args.rounds)),
         "--freedoko-bots-after", str(botsAfter)], log=logfile, profile=profile)
    port = ports["freedoko"]
    run = Run()
    clients: list[BenchChild] = []
    lock = DeferredLock()
    result: dict[str, Any] = {"mode": mode, "tables": tables, "children_per_table": perTable,
                              "rounds": args.rounds, "profiled": bool(profile)}
    try:
        await waitListening(child, port)
        pid = child.pid
        await sleep(0.5)
        started = now()
        for _ in range(tables):
            Deferred.fromCoroutine(lane(run, port, perTable, lock, clients))
        if not await waitFor(lambda: run.started >= tables * perTable
                             or bool(run.connectFailures or run.unexpectedCloses), 60.0):
            raise RuntimeError(f"ramp-up stuck: {run.started} children in a party")
        if run.connectFailures or run.unexpectedCloses:
            raise RuntimeError(f"ramp-up: {run.connectFailures} connections failed, "
                               f"{run.unexpectedCloses} closed: {run.problems[:3]}")
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
        games, messages = run.games, run.messagesIn + run.messagesOut
        result.update(
            elapsed_s=elapsed, games=games, parties=run.parties,
            games_per_s=games / elapsed, parties_per_s=run.parties / elapsed,
            messages_in=run.messagesIn, messages_out=run.messagesOut,
            messages_per_game=messages / games if games else None,
            bytes_per_game=(run.bytesIn + run.bytesOut) / games if games else None,
            server_cpu_pct=100 * serverCpu / elapsed, bench_cpu_pct=100 * benchCpu / elapsed,
            others_cpu_pct=100 * othersCpu / elapsed,
            server_cpu_ms_per_game=1e3 * serverCpu / games if games else None,
            server_cpu_us_per_message=1e6 * serverCpu / messages if messages else None,
            server_games_per_cpu_s=games / serverCpu if serverCpu else None,
            bench_cpu_ms_per_game=1e3 * benchCpu / games if games else None,
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
    result["mismatches"] = run.mismatches
    result["unexpected_closes"] = run.unexpectedCloses
    result["problems"] = run.problems[:5]
    result["connect_failures"] = run.connectFailures
    result.update(readRecords(work / f"{name}.sqlite"))
    result.update(readLog(logfile))
    return result


# -- report ----------------------------------------------------------------------------


def report(results: dict[str, Any]) -> str:
    lines = reportHeader("Doppelkopf benchmark", results)
    engine = results.get("engine", {})
    for r in engine.get("runs", []):
        who = {"bot": "doppelkopfBot in every seat",
               "view": "doppelkopfBot given the full view in every seat"}.get(
                   r["player"], "first legal action in every seat")
        rows = [
            ("games/s (per CPU second)",
             f"{fmt(r['games_per_s'])} ({fmt(r['games_per_cpu_s'])})"),
            ("actions/s", fmt(r["actions_per_s"])),
            ("CPU per game", f"{fmt(r['us_per_game'])} µs"),
            ("CPU per action", f"{fmt(r['us_per_action'])} µs"),
        ]
        if r["us_view_per_action"] is not None:
            rows.append(("of which party.view / the bot / party.act",
                         f"{fmt(r['us_view_per_action'])} / {fmt(r['us_bot_per_action'])} / "
                         f"{fmt(r['us_act_per_action'])} µs"))
        elif r["us_bot_per_action"] is not None:
            rows.append(("of which the bot / party.act",
                         f"{fmt(r['us_bot_per_action'])} / {fmt(r['us_act_per_action'])} µs"))
        else:
            rows.append(("of which party.act", f"{fmt(r['us_act_per_action'])} µs"))
        rows += [
            ("actions per game", fmt(r["actions_per_game"])),
            ("game types", ", ".join(f"{k} {v}" for k, v in
                                     sorted(r["game_types"].items(), key=lambda kv: -kv[1]))),
        ]
        addTable(lines, f"engine alone, {who} ({fmt(r['seconds'])} s, {r['parties']} "
                        f"parties, {r['games']} games)", rows)
    byPlayer = {r["player"]: r for r in engine.get("runs", [])}
    if "bot" in byPlayer and "first" in byPlayer:
        bot, first = byPlayer["bot"], byPlayer["first"]
        addTable(lines, "the bot's share", [
            ("CPU per game: bot run - first-legal run",
             f"{fmt(bot['us_per_game'] - first['us_per_game'])} µs "
             f"({fmt(100 * (1 - first['us_per_game'] / bot['us_per_game']))}% of the bot run)"),
        ])
    for r in results.get("net", []):
        rtt = r["rtt_ms"]
        what = ("1 child + 3 server bots" if r["mode"] == "bots" else "4 children")
        addTable(lines, f"network: {r['tables']} tables of {what}, parties of "
                        f"{r['rounds']} round(s) ({fmt(r['elapsed_s'])} s window"
                        f"{', server profiled' if r['profiled'] else ''})", [
            ("games/s, parties/s", f"{fmt(r['games_per_s'], 2)}, {fmt(r['parties_per_s'], 2)}"),
            ("messages per game (both ways)", fmt(r["messages_per_game"])),
            ("bytes per game (both ways)", fmt(r["bytes_per_game"], 0)),
            ("server CPU per game", f"{fmt(r['server_cpu_ms_per_game'], 2)} ms"
                                    f" ({fmt(r['server_games_per_cpu_s'])} games per CPU s)"),
            ("server CPU per message", f"{fmt(r['server_cpu_us_per_message'])} µs"),
            ("server CPU per message / the bare echo's",
             f"{fmt(r.get('echo_ratio'), 2)} x" if r.get("echo_ratio") else "-"),
            ("bench CPU per game", f"{fmt(r['bench_cpu_ms_per_game'], 2)} ms"),
            ("CPU: server / bench / others",
             f"{fmt(r['server_cpu_pct'])}% / {fmt(r['bench_cpu_pct'])}% / "
             f"{fmt(r['others_cpu_pct'])}%"),
            ("card played to its echo p50 / p99 / max",
             f"{fmt(rtt['p50_ms'], 2)} / {fmt(rtt['p99_ms'], 2)} / "
             f"{fmt(rtt['max_ms'], 2)} ms (n={rtt['n']})"),
            ("server RSS (window start, end)",
             f"{fmt(r['server_rss_window_start_kib'] / 1024)} MiB, "
             f"{fmt(r['server_rss_window_end_kib'] / 1024)} MiB"),
            ("records (actions) / log lines / refused / tracebacks",
             f"{r['records']} ({r['records_actions']}) / {r['log_lines']} / "
             f"{r['log_refused']} / {r['log_tracebacks']}"),
            ("refusals told / mismatches / unexpected closes / connect failures",
             f"{r['refusals']} / {r['mismatches']} / {r['unexpected_closes']} / "
             f"{r['connect_failures']}"),
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
    parser.add_argument("--engine-seconds", type=float, default=6.0,
                        help="how long the engine phase runs with each player")
    parser.add_argument("--players", default="bot,first",
                        help="the engine phase's players, comma-separated: bot, view, first")
    parser.add_argument("--engine-profile", action="store_true",
                        help="run one more engine pass with the bot under cProfile and print"
                             " its hot spots")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds per party (each seat starts once a round: 4 games, one"
                             " more after each solo)")
    parser.add_argument("--modes", default="bots,children",
                        help="networked runs, comma-separated: bots (1 child + 3 server bots"
                             " per table), children (4 children per table)")
    parser.add_argument("--tables", default="1,10",
                        help="tables at once, comma-separated: one networked run for each"
                             " (and each mode)")
    parser.add_argument("--seconds", type=float, default=12.0, help="measured window per run")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
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
                             " another commit); the children and the engine phase are this"
                             " tree's")
    parser.add_argument("--seed", type=int, default=1, help="the engine phase's first seed")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="also write the figures as JSON ('-': stdout, instead of the table)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="abort the whole run after this long (default: from the options)")
    parser.add_argument("--keep-work", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)

    def listOf(value: str) -> list[str]:
        return [p.strip() for p in value.split(",") if p.strip()]

    args.phases = listOf(args.phases)
    unknown = set(args.phases) - {"engine", "net", "echo"}
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    args.players = listOf(args.players)
    if set(args.players) - set(PLAYERS_):
        parser.error("--players: bot, first")
    args.modes = listOf(args.modes)
    if set(args.modes) - set(MODES):
        parser.error("--modes: bots, children")
    try:
        args.tables = [int(t) for t in listOf(args.tables)]
    except ValueError:
        parser.error("--tables: comma-separated numbers")
    if any(t < 1 for t in args.tables):
        parser.error("--tables: at least 1")
    if args.rounds < 1:
        parser.error("--rounds: at least 1")
    args.server_tree = args.server_tree.resolve()
    if not (args.server_tree / "gameproto" / "freedoko").exists():
        parser.error(f"--server-tree: no gameproto/freedoko in {args.server_tree}")
    if args.max_seconds is None:
        runs = len(args.tables) * len(args.modes) if "net" in args.phases else 0
        engine = (len(args.players) + args.engine_profile) * args.engine_seconds
        args.max_seconds = (60 + 2 * engine + runs * (40 + args.warmup + args.seconds)
                            + (40 + args.echo_seconds if "echo" in args.phases else 0))
    return args


async def runAll(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    results: dict[str, Any] = {**harness.runInfo(args)}
    if "engine" in args.phases:
        print(f"[{time.strftime('%H:%M:%S')}] phase engine...", file=sys.stderr, flush=True)
        results["engine"] = enginePhase(args)
    if "net" in args.phases:
        results["net"] = []
        runs = [(mode, tables) for mode in args.modes for tables in args.tables]
        for index, (mode, tables) in enumerate(runs):
            print(f"[{time.strftime('%H:%M:%S')}] network, {mode}, {tables} tables...",
                  file=sys.stderr, flush=True)
            last = index == len(runs) - 1
            results["net"].append(await netRun(args, work, mode, tables,
                                               args.profile if last else None))
            await sleep(0.5)
    if "echo" in args.phases:
        # The echo carries the connections of the largest run of four
        # children a table (the protocol's own cost), each message that
        # run's mean size, one at a time on each.
        children = [r for r in results.get("net", []) if r["mode"] == "children"]
        last = children[-1] if children else None
        await echoPhase(args, work, results, 4 * max(args.tables), last, "game")
    return results


def main(argv: list[str] | None = None) -> int:
    harness.checkGameproto(sys.argv if argv is None else argv)
    args = parseArgs(argv)
    result = runBench(args, 4 * max(args.tables, default=0) * 2 + 100,
                      "doppelkopf-bench-", runAll, report)
    if isinstance(result, int):
        return result
    profile = result.get("engine", {}).get("profile")
    if profile:
        print("\nengine profile (the bot in every seat):")
        print(profile)
    if args.profile and result.get("net"):
        printProfile(args.profile, args.profile_top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
