"""
What the benchmarks share: their child processes and what ``/proc`` says of
them, waiting on the reactor, one protocol instance per connection, latency
percentiles, the report's header and tables, profiles, the run itself
(``runBench``: file limit, pinning, the ``--max-seconds`` watchdog), and the
echo baseline.

The benchmarks import it as ``bench.harness``, run as ``python -m
bench.NAME`` from the repository root (no ``sys.path`` edits: the root,
the current directory, is on it).  Two parts of it run in other processes:

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
from typing import Any, Callable

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
    as ``python -m bench.NAME`` from the repository root; else exit saying
    how to run it (an installed gameproto may be another version).  No
    ``sys.path`` edit: with ``--server-tree DIR`` in ``argv``, the server
    runs DIR's code, and what runs in this process is this tree's.
    """
    spec = importlib.util.find_spec("gameproto")
    origin = Path(spec.origin).resolve() if spec is not None and spec.origin else None
    if origin != REPO / "gameproto" / "__init__.py":
        raise SystemExit(f"bench: gameproto comes from {origin}, not {REPO}: run the "
                         f"benchmark from {REPO} as 'python -m bench.NAME'")
    argv = argv or []
    for i, arg in enumerate(argv[:-1]):
        if arg == "--server-tree" and Path(argv[i + 1]).resolve() != REPO:
            print(f"bench: the server runs {argv[i + 1]}; the clients here run {REPO}",
                  file=sys.stderr)


gameprotoFirst = checkGameproto
"""The old name of L{checkGameproto}, for the benchmarks that still call it."""


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
    try:
        from gameproto.plugin import protocolPlugins
        from gameproto.tap import defaultPorts

        names = list(defaultPorts(protocolPlugins()))
    except ImportError:  # a tree from before protocol plugins
        names = ["web", "connect4", "maitretarot", "engine"]
    return ",".join(f"{other}={endpoint if other == name else 'off'}"
                    for other in dict.fromkeys([name, *names]))


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


def startEcho(args: argparse.Namespace, work: Path) -> tuple[Child, int]:
    port = freePort()
    argv = [sys.executable, str(Path(__file__).resolve()), "echo", str(port),
            str(args.max_seconds)]
    return Child("echo", argv, args.max_seconds, work / "echo.out", args.server_cpu), port


# -- waiting and connecting ---------------------------------------------------


async def sleep(seconds: float) -> None:
    await deferLater(_reactor(), max(0.0, seconds))


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


def runInfo(args: argparse.Namespace) -> dict[str, Any]:
    """What every benchmark's results start with: when, the command, the machine, the code."""
    import twisted

    return {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "command": " ".join(["python", *sys.argv]),
        "cpus": os.cpu_count(), "cpu_model": cpuModel(), "python": platform.python_version(),
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
