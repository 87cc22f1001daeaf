"""
What the benchmarks share: their child processes and what ``/proc`` says of
them, waiting on the reactor, one protocol instance per connection, latency
percentiles, the report's header and tables, profiles, the run itself
(``runBench``: file limit, pinning, the ``--max-seconds`` watchdog), and the
echo baseline.

The benchmarks import it as ``bench.harness``, run as ``python -m
bench.NAME`` from the repository root (the root, the current directory, is
on ``sys.path``) or as ``python bench/NAME.py`` from anywhere (``_launch.py``
then runs the file as that module).  Two parts of it run in other processes:

- A bare Twisted TCP echo server, the baseline (L{startEcho}):

      python bench/harness.py echo PORT [LIFETIME_SECONDS]

  It listens on 127.0.0.1:PORT with the default reactor and writes back
  whatever each connection sends (no framing, no parsing, no logging), with
  TCP_NODELAY as gameproto sets it; it stops by itself after
  LIFETIME_SECONDS (default 300).

- L{discardingLogger}, a log observer factory for ``twistd
  --logger=bench.harness.discardingLogger`` (L{DISCARD_LOGGER}, with the
  repository root on PYTHONPATH, as L{serverEnv} sets it): every event is
  dropped, so a run measures gameproto without the cost of formatting and
  writing its log.  (Do not use ``twistd --logfile=/dev/null`` for that:
  twistd rotates its log file every 1 MB by renaming it, and as root that
  would rename /dev/null itself.)

So this module imports the reactor only when a function needs it: ``twistd``
imports it before installing its own.
"""

from __future__ import annotations

import argparse
import array
import glob
import importlib.util
import json
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from twisted.internet.defer import Deferred
from twisted.internet.protocol import ClientFactory, Factory, Protocol
from twisted.internet.task import deferLater
from twisted.logger import ILogObserver, LogEvent
from zope.interface import provider

REPO = Path(__file__).resolve().parent.parent
"""The source tree of the benchmarks (the server's too, unless ``--server-tree``)."""

DISCARD_LOGGER = "--logger=bench.harness.discardingLogger"
"""The twistd option that drops every log event of the server."""

now = time.perf_counter


def _reactor() -> Any:
    """The global reactor, imported at first use."""
    from twisted.internet import reactor

    return reactor


def checkGameproto(argv: list[str] | None = None) -> None:
    """
    Make sure the gameproto this process imports (its clients, the store of
    a direct phase) is this source tree's, as it is when a benchmark runs
    as ``python bench/NAME.py``, or as ``python -m bench.NAME`` from the
    repository root; else exit saying how to run it (an installed gameproto
    may be another version).  With ``--server-tree DIR`` in ``argv``, the
    server runs DIR's code, and what runs in this process is this tree's.
    """
    spec = importlib.util.find_spec("gameproto")
    origin = Path(spec.origin).resolve() if spec is not None and spec.origin else None
    if origin != REPO / "gameproto" / "__init__.py":
        raise SystemExit(f"bench: gameproto comes from {origin}, not {REPO}: run the "
                         f"benchmark as 'python {REPO}/bench/NAME.py'")
    argv = argv or []
    for i, arg in enumerate(argv[:-1]):
        if arg == "--server-tree" and Path(argv[i + 1]).resolve() != REPO:
            print(f"bench: the server runs {argv[i + 1]}; the clients here run {REPO}",
                  file=sys.stderr)


def serverEnv(serverTree: Path) -> dict[str, str]:
    """
    The environment of a server child: its source tree first, then this one
    (for L{DISCARD_LOGGER}), then any PYTHONPATH given to the bench (to try a
    patch).
    """
    entries = (str(serverTree), str(REPO), os.environ.get("PYTHONPATH"))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(e for e in entries if e))


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


def onlyPorts(name: str, endpoint: str) -> str:
    """
    A ``--ports`` value that opens ``name`` at ``endpoint`` and turns every
    other port off (the web port's and every installed protocol plugin's),
    so that a benchmark never binds a protocol's default port.
    """
    return openPorts({name: endpoint})


def openPorts(endpoints: dict[str, str]) -> str:
    """L{onlyPorts} for several ports: each name of ``endpoints`` at its endpoint."""
    try:
        from gameproto.plugin import protocolPlugins
        from gameproto.tap import defaultPorts

        names = list(defaultPorts(protocolPlugins()))
    except ImportError:  # a tree from before protocol plugins
        names = ["web", "connect4", "maitretarot", "engine"]
    return ",".join(f"{other}={endpoints.get(other, 'off')}"
                    for other in dict.fromkeys([*endpoints, *names]))


def loadLimits(serverTree: Path) -> list[str]:
    """
    The options that lift the per-peer connection cap and the per-connection
    message rate: every client of a load benchmark comes from 127.0.0.1 and
    answers at once.  Nothing for a tree from before those limits.
    """
    net = serverTree / "gameproto" / "net.py"
    if not net.exists() or "class Limits" not in net.read_text():
        return []
    return ["--max-connections-per-peer", "0", "--message-rate", "0"]


def twistdCommand() -> list[str]:
    script = Path(sys.executable).parent / "twistd"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from twisted.scripts.twistd import run; run()"]


def startGameproto(args: argparse.Namespace, work: Path, name: str, ports: Sequence[str],
                   options: Sequence[str] = (), *, log: Path | str | None,
                   profile: str | None = None, db: str | None = None,
                   command: list[str] | None = None, backlog: int | None = None,
                   limits: bool = True) -> tuple[Child, dict[str, int]]:
    """
    The server as an operator runs it, ``twistd -n gameproto`` from
    ``--server-tree``'s code, pinned to the server's core: each of
    ``ports`` (``connect4``, ``engine``...) on a free port of 127.0.0.1,
    every other port off; its log to the file ``log`` (None: discarded,
    L{DISCARD_LOGGER}); under cProfile to ``profile``; its records in
    ``db`` (default ``WORK/NAME.sqlite``); the load benchmarks' lifted
    limits (L{loadLimits}) unless ``limits`` is false; then ``options``.
    ``command`` replaces ``twistd`` (a wrapper taking twistd's arguments).
    The child and each port's number.
    """
    numbers = {port: freePort() for port in ports}
    listen = "" if backlog is None else f":backlog={backlog}"
    argv = (command or twistdCommand()) + ["-n", "--pidfile="]
    argv.append(DISCARD_LOGGER if log is None else f"--logfile={log}")
    if profile:
        argv += [f"--profile={profile}", "--profiler=cprofile", "--savestats"]
    argv += ["gameproto", "--db", str(work / f"{name}.sqlite") if db is None else db,
             "--ports", openPorts({port: f"tcp:{number}:interface=127.0.0.1{listen}"
                                   for port, number in numbers.items()})]
    if limits:
        argv += loadLimits(args.server_tree)
    argv += options
    child = Child(name, argv, args.max_seconds, work / f"{name}.out", args.server_cpu,
                  serverEnv(args.server_tree), cwd=args.server_tree)
    return child, numbers


def readLog(logfile: Path | str) -> dict[str, Any]:
    """
    The server's log file, rotated files included: its lines, bytes and
    files, the tracebacks in it, the refusals (``: refused ``) and the
    reasons of the connections it closed (``: closing: REASON``).
    """
    lines = size = tracebacks = refused = files = 0
    closing: dict[str, int] = {}
    logfile = Path(logfile)
    for path in sorted(logfile.parent.glob(glob.escape(logfile.name) + "*")):
        if path.name != logfile.name and not path.name[len(logfile.name) + 1:].isdigit():
            continue
        data = path.read_bytes()
        files += 1
        lines += data.count(b"\n")
        size += len(data)
        tracebacks += data.count(b"Traceback (most recent call last)")
        refused += data.count(b": refused ")
        for line in data.splitlines():
            if b": closing: " in line:
                why = line.split(b": closing: ", 1)[1].decode("utf-8", "replace")
                closing[why] = closing.get(why, 0) + 1
    return {"log_lines": lines, "log_bytes": size, "log_files": files,
            "log_tracebacks": tracebacks, "log_refused": refused,
            "log_closing_reasons": closing}


def readRecords(path: Path, **counts: str) -> dict[str, Any]:
    """
    The records the server wrote in its SQLite file ``path`` (read only,
    after it stopped): games, finished games and actions, the files' bytes,
    and each of ``counts``, a name and a query giving one number.  The
    store's schema is read loosely: an unreadable file says why.
    """
    import sqlite3

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            games, finished = db.execute(
                "SELECT COUNT(*), COUNT(finished) FROM games").fetchone()
            (actions,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
            extra = {name: db.execute(query).fetchone()[0] for name, query in counts.items()}
        finally:
            db.close()
    except sqlite3.Error as e:
        return {"records": f"unreadable: {e}", "records_finished": None,
                "records_actions": None, "records_bytes": None,
                **{name: None for name in counts}}
    size = sum(p.stat().st_size for p in path.parent.glob(glob.escape(path.name) + "*"))
    return {"records": games, "records_finished": finished, "records_actions": actions,
            "records_bytes": size, **extra}


def startEcho(args: argparse.Namespace, work: Path) -> tuple[Child, int]:
    port = freePort()
    argv = [sys.executable, str(Path(__file__).resolve()), "echo", str(port),
            str(args.max_seconds)]
    return Child("echo", argv, args.max_seconds, work / "echo.out", args.server_cpu), port


class _EchoClient(Protocol):
    """Writes its message, and again each time the echo has brought it back whole."""

    def __init__(self, run: dict[str, Any], message: bytes) -> None:
        self.run = run
        self.message = message
        self.pending = 0

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)  # type: ignore[union-attr]
        self.run["connected"] += 1
        self.transport.write(self.message)  # type: ignore[union-attr]

    def connectFailed(self, reason: Any) -> None:
        self.run["failed"] += 1

    def dataReceived(self, data: bytes) -> None:
        self.pending += len(data)
        size = len(self.message)
        while self.pending >= size:
            self.pending -= size
            if self.run["measuring"]:
                self.run["echoes"] += 1
            self.transport.write(self.message)  # type: ignore[union-attr]


async def echoBaseline(args: argparse.Namespace, work: Path, connections: int, size: int,
                       seconds: float, warmup: float = 1.0) -> dict[str, Any]:
    """
    The bare echo (L{startEcho}) under a protocol's pattern: ``connections``
    connections from this process, each with one message of ``size`` bytes
    in flight, read back and written again, for ``seconds`` after
    ``warmup``.  Its CPU per echo (one message read and written back) and
    per message counting each way as one, as the protocols' "server CPU per
    message" does: the floor a message costs any Twisted server, which
    L{echoRatio} compares a protocol's cost with.
    """
    child, port = startEcho(args, work)
    run: dict[str, Any] = {"connected": 0, "failed": 0, "echoes": 0, "measuring": False}
    message = b"x" * (max(2, size) - 1) + b"\n"
    clients = [_EchoClient(run, message) for _ in range(connections)]
    try:
        await waitListening(child, port)
        pid = child.pid
        for client in clients:
            connect(port, client)
        if not await waitFor(lambda: run["connected"] + run["failed"] >= connections, 30.0) \
                or run["failed"]:
            raise RuntimeError(f"echo: {run['connected']} of {connections} connected")
        await sleep(warmup)
        serverCpu0, benchCpu0, machine0 = cpuSeconds(pid), selfCpu(), machineBusy()
        started = now()
        run["measuring"] = True
        await sleep(seconds)
        run["measuring"] = False
        elapsed = now() - started
        serverCpu = cpuSeconds(pid) - serverCpu0
        benchCpu = selfCpu() - benchCpu0
        othersCpu = max(0.0, machineBusy() - machine0 - serverCpu - benchCpu)
    finally:
        for client in clients:
            if client.transport is not None:
                client.transport.abortConnection()  # type: ignore[attr-defined]
        await sleep(0.2)
        child.stop()
    echoes = run["echoes"]
    return {"connections": connections, "message_bytes": len(message), "elapsed_s": elapsed,
            "echoes": echoes, "echoes_per_s": echoes / elapsed,
            "server_cpu_pct": 100 * serverCpu / elapsed,
            "bench_cpu_pct": 100 * benchCpu / elapsed,
            "others_cpu_pct": 100 * othersCpu / elapsed,
            "server_cpu_us_per_echo": 1e6 * serverCpu / echoes if echoes else None,
            "server_cpu_us_per_message": 5e5 * serverCpu / echoes if echoes else None}


def echoRatio(usPerMessage: float | None, echo: dict[str, Any] | None) -> float | None:
    """A protocol's server CPU per message (each way one) over the echo's (L{echoBaseline})."""
    if not usPerMessage or not echo or not echo.get("server_cpu_us_per_message"):
        return None
    return usPerMessage / echo["server_cpu_us_per_message"]


async def echoPhase(args: argparse.Namespace, work: Path, results: dict[str, Any],
                    connections: int, last: dict[str, Any] | None, per: str) -> None:
    """
    The echo phase of a benchmark: ``connections`` connections of the bare
    echo, each message the mean size of the run ``last`` (its
    ``bytes_per_PER`` over its ``messages_per_PER``; 24 bytes without one),
    one at a time on each; then each ``net`` run's ratio to it.
    """
    size = round(last[f"bytes_per_{per}"] / last[f"messages_per_{per}"]) \
        if last and last[f"messages_per_{per}"] else 24
    print(f"[{time.strftime('%H:%M:%S')}] bare echo, {connections} connections...",
          file=sys.stderr, flush=True)
    results["echo"] = await echoBaseline(args, work, connections, size, args.echo_seconds)
    for r in results.get("net", []):
        r["echo_ratio"] = echoRatio(r["server_cpu_us_per_message"], results["echo"])


def echoRows(echo: dict[str, Any]) -> list[tuple[str, Any]]:
    """The report's rows of an L{echoBaseline}."""
    return [
        ("echoes/s (one message read and written back)", fmt(echo["echoes_per_s"], 0)),
        ("echo server CPU per echo", f"{fmt(echo['server_cpu_us_per_echo'])} µs"),
        ("echo server CPU per message (each way one)",
         f"{fmt(echo['server_cpu_us_per_message'])} µs"),
        ("CPU: echo server / bench / others",
         f"{fmt(echo['server_cpu_pct'])}% / {fmt(echo['bench_cpu_pct'])}% / "
         f"{fmt(echo['others_cpu_pct'])}%"),
    ]


# -- waiting and connecting ---------------------------------------------------


async def sleep(seconds: float) -> None:
    await deferLater(_reactor(), max(0.0, seconds))


async def perSecond(count: Callable[[], int], start: float, seconds: float) -> list[int]:
    """
    A measured window opened at ``start`` (L{now}) and lasting ``seconds``:
    how much ``count()`` grew in each of its whole seconds.  Returns once
    the window is over.
    """
    series: list[int] = []
    for second in range(int(seconds)):
        before = count()
        await sleep(start + second + 1 - now())
        series.append(count() - before)
    await sleep(start + seconds - now())
    return series


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


class OneProtocol(ClientFactory):
    """Connects one given protocol instance."""

    noisy = False

    def __init__(self, protocol: Any) -> None:
        self.protocol_ = protocol

    def buildProtocol(self, addr: object) -> Any:
        return self.protocol_

    def clientConnectionFailed(self, connector: object, reason: Any) -> None:
        self.protocol_.connectFailed(reason)


def connect(port: int, protocol: Any) -> None:
    _reactor().connectTCP("127.0.0.1", port, OneProtocol(protocol), timeout=30)


def percentiles(samples: array.array[float]) -> dict[str, float | None]:
    if not samples:
        return {"p50_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(samples)
    n = len(ordered)

    def rank(q: float) -> float:
        return ordered[min(n - 1, max(0, int(q * n + 0.5) - 1))] * 1000

    return {"p50_ms": rank(0.50), "p90_ms": rank(0.90), "p99_ms": rank(0.99),
            "max_ms": ordered[-1] * 1000}


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


def pythonName() -> str:
    """The Python running the benchmark: ``3.11.7`` (CPython), or ``3.11.17 (PyPy 8.0.1)``."""
    version, implementation = platform.python_version(), platform.python_implementation()
    if implementation == "CPython":
        return version
    pypy = getattr(sys, "pypy_version_info", None)
    release = "" if pypy is None else f" {pypy.major}.{pypy.minor}.{pypy.micro}"
    return f"{version} ({implementation}{release})"


def runInfo(args: argparse.Namespace) -> dict[str, Any]:
    """What every benchmark's results start with: when, the command, the machine, the code."""
    import twisted

    return {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "command": " ".join(["python", *sys.argv]),
        "cpus": os.cpu_count(), "cpu_model": cpuModel(), "python": pythonName(),
        "twisted": twisted.__version__, "reactor": type(_reactor()).__name__,
        "pinned": args.server_cpu is not None, "server_code": serverCode(args.server_tree),
    }


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


# -- the run -----------------------------------------------------------------


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


def runBench(args: argparse.Namespace, needed: int, prefix: str,
             runAll: Callable[[argparse.Namespace, Path], Any],
             report: Callable[[dict[str, Any]], str]) -> dict[str, Any] | int:
    """
    What every benchmark's ``main`` does: check the file limit, pin this
    process to the first core (the server gets the second), run ``runAll``
    in the reactor under the ``--max-seconds`` watchdog, stop every child,
    and print the report (or the JSON).  The results, or an exit status.
    """
    reactor = _reactor()
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
        if reactor.running:
            reactor.stop()

    def abort() -> None:
        outcome["result"] = RuntimeError(f"aborted after --max-seconds {args.max_seconds}")
        reactor.stop()

    try:
        d = Deferred.fromCoroutine(runAll(args, work))
        d.addBoth(done)
        watchdog = reactor.callLater(args.max_seconds, abort)
        if "result" not in outcome:
            reactor.run()
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


# -- the echo baseline and the discarding logger, in other processes ----------


@provider(ILogObserver)
def _discard(event: LogEvent) -> None:
    pass


def discardingLogger() -> ILogObserver:
    """A log observer that drops every event."""
    return _discard


class Echo(Protocol):
    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)  # type: ignore[union-attr]

    def dataReceived(self, data: bytes) -> None:
        self.transport.write(data)  # type: ignore[union-attr]


def echoMain(port: int, lifetime: float) -> None:
    reactor = _reactor()
    factory = Factory.forProtocol(Echo)
    factory.noisy = False
    # The backlog of the load benchmarks' gameproto port: clients connect in bursts.
    reactor.listenTCP(port, factory, backlog=1024, interface="127.0.0.1")
    reactor.callLater(lifetime, reactor.stop)
    reactor.run()


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "echo":
        sys.exit(__doc__)
    echoMain(int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 300.0)
