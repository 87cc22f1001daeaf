"""
The real FreeDoko 0.7.13 as a test peer: find (or build) the binary and run
it as a child (``--connect``) or a parent (``--start-server``) on a free
loopback port, with its own temporary HOME and settings file, through
Twisted's ``spawnProcess``.

The binary is ``$GAMEPROTO_FREEDOKO`` if set, else
``/tmp/freedoko-build/build/src/FreeDoko``, else what
``shared/tools/freedoko/build.sh`` (``shared/`` beside the repository)
builds.  Only where ``shared/`` is absent are the tests skipped (saying
why); a build that fails fails them.

Every run is bounded: L{RealFreeDoko.stop} (called by the test's cleanup)
ends the process group, and a run outliving ``lifetime`` seconds is killed.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Mapping, Sequence

from twisted.internet import defer, error, protocol
from twisted.internet.interfaces import IReactorProcess, IReactorTime
from twisted.python.failure import Failure
from twisted.trial.unittest import SkipTest

from gameproto.test import sourceTree

__all__ = ["FreeDokoProcess", "RealFreeDoko", "SHARED", "TRANSCRIPTS", "findBinary", "freePort",
           "spawnFreeDoko"]

REPOSITORY = sourceTree() or Path(__file__).resolve().parents[2]
SHARED = REPOSITORY.parent / "shared"
"""``shared/`` beside the repository: the FreeDoko build script and the captured traffic."""
TRANSCRIPTS = SHARED / "tools" / "freedoko" / "transcripts"
BUILD_SCRIPT = SHARED / "tools" / "freedoko" / "build.sh"
DEFAULT_BINARY = Path("/tmp/freedoko-build/build/src/FreeDoko")
BUILD_TIMEOUT = 900

_found: str | None = None


def findBinary() -> str:
    """The path of a real FreeDoko binary; SkipTest when there is none to be had."""
    global _found
    if _found is not None:
        return _found
    env = os.environ.get("GAMEPROTO_FREEDOKO")
    if env:
        if not os.access(env, os.X_OK):
            raise SkipTest(f"GAMEPROTO_FREEDOKO={env} is not an executable")
        _found = env
        return env
    if os.access(DEFAULT_BINARY, os.X_OK):
        _found = str(DEFAULT_BINARY)
        return _found
    if not BUILD_SCRIPT.exists():
        raise SkipTest(f"no real FreeDoko: {SHARED} is absent (set GAMEPROTO_FREEDOKO to a binary)")
    try:
        done = subprocess.run(["sh", str(BUILD_SCRIPT)], capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:  # pragma: no cover - depends on the machine
        raise RuntimeError(f"building FreeDoko with {BUILD_SCRIPT} took over {BUILD_TIMEOUT}s")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or not os.access(lines[-1], os.X_OK):
        # shared/ is here, so the real program must be too: a failed build fails.
        raise RuntimeError(f"{BUILD_SCRIPT} failed ({done.returncode}): {done.stderr[-500:]}")
    _found = lines[-1]
    return _found


def freePort() -> int:
    """A TCP port free on 127.0.0.1 just now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class FreeDokoProcess(protocol.ProcessProtocol):
    """Collects a FreeDoko process's stdout and stderr and its end."""

    def __init__(self) -> None:
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.exitCode: int | None = None
        self.signal: int | str | None = None
        self.ended: defer.Deferred[FreeDokoProcess] = defer.Deferred()
        self.running = False

    def connectionMade(self) -> None:
        self.running = True

    def outReceived(self, data: bytes) -> None:
        self.stdout += data

    def errReceived(self, data: bytes) -> None:
        self.stderr += data

    def processEnded(self, reason: Failure) -> None:
        self.running = False
        value = reason.value
        if isinstance(value, (error.ProcessDone, error.ProcessTerminated)):
            self.exitCode = value.exitCode
            self.signal = value.signal
        self.ended.callback(self)

    def describe(self) -> str:
        """The exit status and the tail of stderr, for a test's message."""
        tail = bytes(self.stderr[-1500:]).decode("utf-8", "replace")
        return f"exit code {self.exitCode}, signal {self.signal}; stderr ends:\n{tail}"


class RealFreeDoko:
    """One running real FreeDoko: its process protocol, port, HOME; L{stop} ends it."""

    def __init__(self, reactor: Any, process: FreeDokoProcess, transport: Any, port: int,
                 home: str, lifetime: float) -> None:
        self.reactor = reactor
        self.process = process
        self.transport = transport
        self.port = port
        self.home = home
        self._timer = reactor.callLater(lifetime, self._expire)
        self.expired = False
        process.ended.addBoth(self._ended)

    def _ended(self, result: object) -> object:
        if self._timer.active():
            self._timer.cancel()
        return result

    def _expire(self) -> None:
        self.expired = True
        self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        if not self.process.running:
            return
        try:
            self.transport.signalProcess("KILL" if sig == signal.SIGKILL else "TERM")
        except error.ProcessExitedAlready:
            pass

    def stop(self) -> defer.Deferred[FreeDokoProcess]:
        """End the process (SIGKILL, it saves nothing) and its HOME; fires when it is gone."""
        self._signal(signal.SIGKILL)
        d: defer.Deferred[FreeDokoProcess] = defer.Deferred()

        def ended(process: FreeDokoProcess) -> FreeDokoProcess:
            shutil.rmtree(self.home, ignore_errors=True)
            d.callback(process)
            return process

        if self.process.ended.called:
            ended(self.process)
        else:
            self.process.ended.addCallback(ended)
        return d

    def waitEnd(self, timeout: float) -> defer.Deferred[FreeDokoProcess]:
        """Fires with the process when it has ended, or after ``timeout`` seconds (running)."""
        d: defer.Deferred[FreeDokoProcess] = defer.Deferred()

        def late() -> None:
            if not d.called:
                d.callback(self.process)

        timer = self.reactor.callLater(timeout, late)

        def ended(process: FreeDokoProcess) -> FreeDokoProcess:
            if timer.active():
                timer.cancel()
            if not d.called:
                d.callback(process)
            return process

        self.process.ended.addCallback(ended)
        return d


def spawnFreeDoko(reactor: Any, role: str, port: int, *, name: str = "FDReal",
                  waitChildren: int = 1, seed: int = 11,
                  rules: Mapping[str, str] | None = None, fastPlay: int = 42,
                  extraArgs: Sequence[str] = (), lifetime: float = 120.0) -> RealFreeDoko:
    """
    Start the real FreeDoko as ``role`` ``"parent"`` (listening on 127.0.0.1:``port``
    for ``waitChildren`` children before its party starts; dealing from ``seed``) or
    ``"child"`` (connecting to 127.0.0.1:``port``).  ``rules`` go in the parent's
    ``~/.FreeDoko/rules/last``.  Every seat it manages is played by its AI.
    """
    if role not in ("parent", "child"):
        raise ValueError(f"role is parent or child, not {role!r}")
    binary = findBinary()
    assert IReactorProcess.providedBy(reactor) and IReactorTime.providedBy(reactor)
    home = tempfile.mkdtemp(prefix=f"freedoko-{role}-")
    settings = Path(home) / "settings"
    settings.write_text(f"save bug reports on desktop = false\nname = {name}\n")
    if rules is not None:
        rulesDir = Path(home) / ".FreeDoko" / "rules"
        rulesDir.mkdir(parents=True)
        (rulesDir / "last").write_text("".join(f"{k} = {v}\n" for k, v in rules.items()))
    env = {
        "HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C",
    }
    args = [binary, "--ui=none", "--no-automatic-savings", "--settings", str(settings),
            f"--fast-play={fastPlay}"]
    if role == "parent":
        env["FD_WAIT_CHILDREN"] = str(waitChildren)
        env["GNET_SHIM_LISTEN_PORT"] = str(port)
        args += [f"--seed={seed}", "--start-server"]
    else:
        env["GNET_SHIM_CONNECT_PORT"] = str(port)
        args += ["--connect=127.0.0.1"]
    args += list(extraArgs)
    process = FreeDokoProcess()
    transport = reactor.spawnProcess(process, binary, args, env=env, path=home,
                                     childFDs={0: "w", 1: "r", 2: "r"}, usePTY=False)
    return RealFreeDoko(reactor, process, transport, port, home, lifetime)
