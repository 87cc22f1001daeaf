"""
The harness of the tests that run ``examples/`` for real: the source tree,
scripts imported by path, scripts run as child processes of this Python with
the checkout on their ``PYTHONPATH``, each killed after a bounded time, their
stdout seen line by line and their stderr kept.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, TypeVar

from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.error import ProcessDone, ProcessTerminated
from twisted.internet.protocol import Factory, ProcessProtocol, ServerFactory
from twisted.internet.task import deferLater
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase

from gameproto.test import sourceTree


def requireSourceTree(module: str, what: str = "the examples/") -> Path:
    """
    The source checkout, or L{ImportError} for ``module`` (a test module that
    runs ``what`` of it): trial then reports why that module did not run.
    """
    tree = sourceTree()
    if tree is None:
        raise ImportError(f"{module} runs {what} of a gameproto source tree: "
                          "run 'trial gameproto' from the checkout")
    return tree


def loadScript(path: Path, name: str) -> ModuleType:
    """Import the script at ``path`` as module ``name`` (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Process(ProcessProtocol):
    """
    Collects a child's output: each whole stdout line is kept in
    ``received`` and seen by L{lineReceived} (by default, ``onLine``) as it
    comes; ``ended`` fires with the exit code.
    """

    def __init__(self, onLine: Callable[[Process, str], None] | None = None) -> None:
        self.onLine = onLine
        self.out = b""
        self.err = b""
        self.received: list[str] = []
        self._partial = b""
        self.code: int | None = None
        self.ended: defer.Deferred[int | None] = defer.Deferred()

    def outReceived(self, data: bytes) -> None:
        self.out += data
        self._partial += data
        *lines, self._partial = self._partial.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8")
            self.received.append(line)
            self.lineReceived(line)

    def lineReceived(self, line: str) -> None:
        """One whole line of stdout, without its newline."""
        if self.onLine is not None:
            self.onLine(self, line)

    def errReceived(self, data: bytes) -> None:
        self.err += data

    def write(self, text: str) -> None:
        """Write ``text`` and a newline to the child's stdin."""
        self.transport.write(text.encode("utf-8") + b"\n")  # type: ignore[union-attr]

    def processEnded(self, reason: Failure) -> None:
        ended = reason.value
        assert isinstance(ended, (ProcessDone, ProcessTerminated)), ended
        self.code = ended.exitCode
        self.ended.callback(self.code)

    def lines(self) -> list[str]:
        return self.out.decode("utf-8").splitlines()


_P = TypeVar("_P", bound=Process)


class ProcessTestCase(TestCase):
    """Real sockets on 127.0.0.1 and child processes, each bounded in time."""

    processTimeout = 15.0
    """A child still running after this many seconds is killed."""

    def spawnPython(self, process: _P, script: Path, *args: str, cwd: Path,
                    pythonPath: tuple[Path, ...] = (), unbuffered: bool = True) -> _P:
        """
        Run ``script`` with ``args`` under this Python, in ``cwd``, with
        ``pythonPath`` before the inherited C{PYTHONPATH}. Unbuffered (C{-u})
        by default; otherwise C{PYTHONUNBUFFERED} is dropped too, so that the
        script must flush by itself. Killed after L{processTimeout}, and at
        cleanup if still running; cleanup waits for its end.
        """
        env = {k: v for k, v in os.environ.items() if unbuffered or k != "PYTHONUNBUFFERED"}
        if pythonPath:
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [*map(str, pythonPath), os.environ.get("PYTHONPATH")]))
        flags = ["-u"] if unbuffered else []
        reactor.spawnProcess(process, sys.executable,
                             [sys.executable, *flags, str(script), *args],
                             env=env, path=str(cwd))

        def kill() -> None:
            if not process.ended.called:
                process.transport.signalProcess("KILL")  # type: ignore[union-attr]

        killer = reactor.callLater(self.processTimeout, kill)

        def cleanUp() -> defer.Deferred[int | None]:
            if killer.active():
                killer.cancel()
            kill()
            return process.ended

        self.addCleanup(cleanUp)
        return process

    async def until(self, condition: Callable[[], bool], seconds: float = 3.0) -> None:
        """Wait (polling) until ``condition()`` holds."""
        for _ in range(int(seconds / 0.01)):
            if condition():
                return
            await deferLater(reactor, 0.01)
        self.fail(f"still not true after {seconds} s: {condition}")

    def connect(self, port: int, client: Any, closed: defer.Deferred[Any]) -> defer.Deferred[Any]:
        """Connect ``client`` over TCP; at cleanup, close it and wait for ``closed``."""

        def close() -> defer.Deferred[Any] | None:
            if closed.called or client.transport is None:
                return None
            client.transport.loseConnection()
            return closed

        self.addCleanup(close)
        return connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", port), client)

    def listenLocal(self, factory: Factory[Any]) -> int:
        """Serve ``factory`` on a free port of 127.0.0.1 until cleanup; the port number."""
        # Any Factory serves, though IReactorTCP's annotation asks for a ServerFactory.
        port = reactor.listenTCP(0, factory, interface="127.0.0.1")  # type: ignore[arg-type]
        self.addCleanup(port.stopListening)
        address = port.getHost()
        assert isinstance(address, IPv4Address), address
        return address.port

    def freePort(self) -> int:
        """A port number nothing listens on."""
        port = reactor.listenTCP(0, ServerFactory(), interface="127.0.0.1")
        address = port.getHost()
        assert isinstance(address, IPv4Address), address
        port.stopListening()
        return address.port


class ExampleTestCase(ProcessTestCase):
    """Runs the scripts of ``examples/`` in the source tree ``root``."""

    root: Path

    def spawnExample(self, name: str, *args: str,
                     onLine: Callable[[Process, str], None] | None = None) -> Process:
        """Run ``examples/<name>.py`` with ``args``, the source tree first on its path."""
        return self.spawnPython(Process(onLine), self.root / "examples" / f"{name}.py", *args,
                                cwd=self.root, pythonPath=(self.root,))
