"""
Start-up errors an operator can read: a usage error or a port that cannot
listen is one line naming what is wrong, and a non-zero exit.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from twisted.internet import defer
from twisted.internet.error import CannotListenError
from twisted.python import usage
from twisted.trial.unittest import SynchronousTestCase, TestCase

import gameproto
from gameproto import tap
from gameproto.test.service_helpers import LOCAL, onlyPorts

SOURCE = str(Path(gameproto.__file__).resolve().parent.parent)

TWISTD = "import sys; from twisted.scripts.twistd import run; sys.argv[0] = 'twistd'; run()"
"""``twistd`` as its console script runs it, from this interpreter."""


def twistd(case: SynchronousTestCase, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run ``twistd ARGV`` in a fresh directory, 60 seconds at most."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([SOURCE, *filter(None, [env.get("PYTHONPATH")])])
    directory = case.mktemp()
    os.makedirs(directory)
    return subprocess.run([sys.executable, "-c", TWISTD, *argv], cwd=directory, env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def busyPort(case: SynchronousTestCase) -> int:
    """A port of 127.0.0.1 that another socket listens on, for this test."""
    busy = socket.socket()
    case.addCleanup(busy.close)
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port: int = busy.getsockname()[1]
    return port


class TwistdUsageErrorTests(SynchronousTestCase):
    """``twistd gameproto`` with a bad option: one line, status 1, no --help dump."""

    def assertOneLine(self, result: subprocess.CompletedProcess[str], *expected: str) -> None:
        self.assertEqual(result.returncode, 1, result)
        self.assertEqual(result.stdout, "")
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("twistd gameproto: "), lines[0])
        self.assertTrue(lines[0].endswith(" (see twistd gameproto --help)"), lines[0])
        for text in expected:
            self.assertIn(text, lines[0])

    def test_unknownOption(self) -> None:
        self.assertOneLine(twistd(self, "-n", "gameproto", "--bogus"),
                           "option --bogus not recognized")

    def test_badValue(self) -> None:
        """A plugin's option and the core's --ports name what is wrong, in one line."""
        self.assertOneLine(twistd(self, "-n", "gameproto", "--ports", "nope=tcp:1"),
                           "--ports: unknown name 'nope'")
        self.assertOneLine(twistd(self, "-n", "gameproto", "--connect4-width", "3"),
                           "--connect4-width: 3 is not between 6 and 255")

    def test_helpStillWhole(self) -> None:
        result = twistd(self, "gameproto", "--help")
        self.assertEqual(result.returncode, 0, result)
        self.assertIn("--connect4-width=", result.stdout)
        self.assertIn("metrics=off", result.stdout)


class TwistdPortBusyTests(SynchronousTestCase):
    """``twistd -n gameproto`` on a port already in use."""

    def test_oneLine(self) -> None:
        port = busyPort(self)
        endpoint = f"tcp:{port}:interface=127.0.0.1"
        result = twistd(self, "-n", "--pidfile=", "gameproto", "--db", ":memory:",
                        *onlyPorts(connect4=endpoint))
        self.assertEqual(result.returncode, 1, result)
        output = result.stdout + result.stderr
        self.assertNotIn("Traceback", output)
        wanted = (f"gameproto: cannot listen for connect4 on {endpoint}: "
                  "address already in use (--ports connect4=...)")
        self.assertNotIn("CannotListenError", output)
        named = [line for line in output.splitlines() if "cannot listen" in line]
        self.assertEqual(len(named), 1, output)
        self.assertTrue(named[0].endswith(wanted), named[0])

class ServiceStartupErrorTests(TestCase):
    """GameprotoService: a port that cannot listen, named; the others closed again."""

    @defer.inlineCallbacks
    def test_busyPortNamed(self) -> Any:
        port = busyPort(self)
        options = tap.Options()
        options.parseOptions(["--db", ":memory:",
                              *onlyPorts(web=LOCAL, connect4=f"tcp:{port}:interface=127.0.0.1")])
        service = tap.makeService(options)
        error = self.assertRaises(tap.StartupError, service.privilegedStartService)
        self.assertEqual(
            str(error), f"gameproto: cannot listen for connect4 on tcp:{port}:"
                        "interface=127.0.0.1: address already in use (--ports connect4=...)")
        self.assertIsInstance(error, SystemExit)
        self.assertIsInstance(error, Exception)
        # The web port, which did listen, is closed again.
        web = service.getServiceNamed("web")
        self.assertIsNotNone(web._waitingForPort)  # type: ignore[attr-defined]
        listening = yield web._waitingForPort  # type: ignore[attr-defined]
        self.assertFalse(getattr(listening, "connected", False))
        self.assertFalse(service.running)
        service.hub.store.close()

    def test_startServiceToo(self) -> None:
        """Started without the privileged step (an embedding application), the same line."""
        port = busyPort(self)
        options = tap.Options()
        options.parseOptions(["--db", ":memory:",
                              *onlyPorts(connect4=f"tcp:{port}:interface=127.0.0.1")])
        service = tap.makeService(options)
        error = self.assertRaises(tap.StartupError, service.startService)
        self.assertIn("cannot listen for connect4", str(error))
        service.hub.store.close()


class CauseTests(SynchronousTestCase):
    def test_cause(self) -> None:
        busy = CannotListenError("127.0.0.1", 80, OSError(98, "Address already in use"))
        self.assertEqual(tap.errorCause(busy), "address already in use")
        denied = CannotListenError("", 80, PermissionError(13, "Permission denied"))
        self.assertEqual(tap.errorCause(denied), "permission denied")
        self.assertEqual(tap.errorCause(ValueError("Bad systemd index")), "bad systemd index")
        self.assertEqual(tap.errorCause(RuntimeError()), "RuntimeError")


class OptionsUsageTests(SynchronousTestCase):
    """Outside twistd the options still raise UsageError; as its subcommand, one line."""

    def test_standalone(self) -> None:
        self.assertRaises(usage.UsageError, tap.Options().parseOptions, ["--bogus"])

    def test_subcommand(self) -> None:
        options = tap.Options()
        options.parent = usage.Options()  # type: ignore[attr-defined]
        error = self.assertRaises(SystemExit, options.parseOptions, ["--bogus"])
        self.assertEqual(str(error.code), "twistd gameproto: option --bogus not recognized "
                                          "(see twistd gameproto --help)")


class OptionNamedTests(SynchronousTestCase):
    """Every option's bad value is refused in words that begin with the option's name."""

    BAD = ("x", "-1", "0", "nan")
    """Values refused by one option or another; an option accepting one is not at fault."""

    def test_everyOption(self) -> None:
        options = tap.Options()
        names = [row[0] for row in options.optParameters]
        for plugin in options.plugins:
            names.extend(row[0] for row in plugin.optParameters)
        refused = 0
        for name in names:
            if name == "db":
                continue
            for bad in self.BAD:
                try:
                    tap.Options().parseOptions(["--db", ":memory:", f"--{name}", bad])
                except usage.UsageError as e:
                    refused += 1
                    self.assertTrue(str(e).startswith(f"--{name}: "), (name, bad, str(e)))
                    self.assertNotIn("literal", str(e))
                    self.assertNotIn("could not convert", str(e))
        self.assertGreater(refused, len(names))

    def test_wordsForNumbers(self) -> None:
        error = self.assertRaises(usage.UsageError, tap.Options().parseOptions,
                                  ["--connect4-width", "wide"])
        self.assertEqual(str(error), "--connect4-width: 'wide' is not a whole number")
        error = self.assertRaises(usage.UsageError, tap.Options().parseOptions,
                                  ["--connect4-timeout", "soon"])
        self.assertEqual(str(error), "--connect4-timeout: 'soon' is not a number")
        error = self.assertRaises(usage.UsageError, tap.Options().parseOptions,
                                  ["--connect4-width", "3"])
        self.assertEqual(str(error), "--connect4-width: 3 is not between 6 and 255")

    def test_engineAndEngines(self) -> None:
        """--engines and --engine each name themselves."""
        missing = self.mktemp()
        error = self.assertRaises(usage.UsageError, tap.Options().parseOptions,
                                  ["--db", ":memory:", "--engines", missing])
        self.assertTrue(str(error).startswith("--engines: "), str(error))
        os.makedirs(missing)
        error = self.assertRaises(usage.UsageError, tap.Options().parseOptions,
                                  ["--db", ":memory:", "--engine", missing])
        self.assertTrue(str(error).startswith("--engine: "), str(error))
        self.assertIn("manifest.json", str(error))


class EnginePathTests(SynchronousTestCase):
    """``--engine PATH``: a manifest.json or its folder, the engine named by its manifest."""

    def manifest(self, name: str = "noughts") -> Path:
        folder = Path(self.mktemp())
        folder.mkdir()
        (folder / "manifest.json").write_text(
            '{"name": "%s", "command": ["python3", "engine.py"]}' % name, encoding="utf-8")
        return folder

    def test_folder(self) -> None:
        folder = self.manifest()
        options = tap.Options()
        options.parseOptions(["--db", ":memory:", "--engine", str(folder)])
        [manifest] = options["manifests"]
        self.assertEqual((manifest.name, manifest.directory), ("noughts", folder))

    def test_file(self) -> None:
        folder = self.manifest("crosses")
        options = tap.Options()
        options.parseOptions(["--db", ":memory:", "--engine", str(folder / "manifest.json")])
        [manifest] = options["manifests"]
        self.assertEqual((manifest.name, manifest.command), ("crosses", ("python3", "engine.py")))

    def test_namedStillWorks(self) -> None:
        folder = self.manifest()
        options = tap.Options()
        options.parseOptions(["--db", ":memory:", "--engine", f"other={folder}"])
        self.assertEqual([m.name for m in options["manifests"]], ["other"])

    def test_twoPaths(self) -> None:
        """The same engine twice is refused, naming the option."""
        folder = self.manifest()
        error = self.assertRaises(usage.UsageError, tap.Options().parseOptions,
                                  ["--db", ":memory:", "--engine", str(folder),
                                   "--engine", str(folder / "manifest.json")])
        self.assertEqual(str(error), "--engine: two engines are named 'noughts'")

    def test_underTwistd(self) -> None:
        """Under twistd, a missing path is one line naming --engine."""
        result = twistd(self, "-n", "gameproto", "--engine", "nowhere")
        self.assertEqual(result.returncode, 1, result)
        [line] = result.stderr.splitlines()
        self.assertEqual(line, "twistd gameproto: --engine: expected PATH (a manifest.json or "
                               "its folder), NAME=MANIFEST or NAME=COMMAND, got 'nowhere' "
                               "(see twistd gameproto --help)")
