"""
The benchmarks of ``bench/`` run as a person runs them: every one as a file
(``python bench/NAME.py``, from another directory) and as a module
(``python -m bench.NAME`` from the root), ``carcassonne`` whole in a tiny
configuration; and the harness's readers of the server's log and records,
and its measured window. No timing is checked: only that they run, measure
something and see no error.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import types
from pathlib import Path

from twisted.internet import reactor
from twisted.internet.defer import Deferred, gatherResults
from twisted.internet.task import Clock
from twisted.internet.utils import getProcessOutputAndValue
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto.test.examples_harness import loadScript, requireSourceTree

ROOT = requireSourceTree("gameproto.test.test_bench", "bench/")

harness = loadScript(ROOT / "bench" / "harness.py", "gameproto_test_bench_harness")
"""``bench/harness.py`` (it imports nothing of ``bench``)."""

BENCHMARKS = ("attack", "carcassonne", "connect4_load", "doppelkopf", "enginejson_load",
              "tarot_deals")


def run(args: list[str], cwd: Path) -> Deferred[tuple[bytes, bytes, int]]:
    """This Python on ``args`` in ``cwd``, with nothing of the tree on its path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return getProcessOutputAndValue(sys.executable, args, env=env, path=str(cwd),
                                    reactor=reactor)


class RunTests(TestCase):
    timeout = 240

    async def test_everyOneBothWays(self) -> None:
        """
        Every benchmark's ``--help`` works as a file run from elsewhere and as
        a module run from the root, and says the same.
        """
        elsewhere = Path(self.mktemp())
        elsewhere.mkdir()
        self.assertEqual(sorted(BENCHMARKS), sorted(
            p.stem for p in (ROOT / "bench").glob("*.py")
            if p.stem not in ("harness", "connect4_client", "_launch")))
        runs = []
        for name in BENCHMARKS:
            runs.append(run([str(ROOT / "bench" / f"{name}.py"), "--help"], elsewhere))
            runs.append(run(["-m", f"bench.{name}", "--help"], ROOT))
        results = await gatherResults(runs)
        for name, asFile, asModule in zip(BENCHMARKS, results[::2], results[1::2]):
            for out, err, code in (asFile, asModule):
                self.assertEqual(code, 0, f"{name}: {err.decode()}")
                self.assertIn(b"--max-seconds", out, name)
            # argparse names the program after the file either way
            self.assertEqual(asFile[0], asModule[0], name)

    async def test_attackReadsWholeLines(self) -> None:
        """
        The attack bench's reader of the server's log takes whole lines
        only: a line being written is read whole, with the next ones.
        """
        log = Path(self.mktemp()).absolute()
        code = (
            "import json, sys\n"
            "from pathlib import Path\n"
            "from bench.attack import LogReader\n"
            "log = Path(sys.argv[1])\n"
            "reader = LogReader(log)\n"
            "seen = [reader.new()]\n"
            "log.write_bytes(b'game 1 started\\ngame 1 e')\n"
            "seen.append(reader.new())\n"
            "with open(log, 'ab') as f: f.write(b'nded\\ngame 2')\n"
            "seen.append(reader.new())\n"
            "seen.append(reader.new())\n"
            "print(json.dumps(seen))\n")
        out, err, status = await run(["-c", code, str(log)], ROOT)
        self.assertEqual(status, 0, err.decode())
        self.assertEqual(json.loads(out), [[], ["game 1 started"], ["game 1 ended"], []])

    async def test_carcassonneTiny(self) -> None:
        """Its three phases run from a file, print their tables, and the JSON holds them."""
        figures = os.path.abspath(self.mktemp())
        out, err, code = await run(
            [str(ROOT / "bench" / "carcassonne.py"), "--engine-seconds", "0.2", "--rooms", "1",
             "--scripted-rooms", "2", "--seconds", "1.5", "--warmup", "0.2", "--echo-seconds",
             "0.5", "--no-pin", "--max-seconds", "150", "--json", figures], Path(figures).parent)
        text = out.decode()
        self.assertEqual(code, 0, f"stdout:\n{text}\nstderr:\n{err.decode()}")
        for title in ("engine and bot alone, 2 players", "network: 1 rooms of 2 bot clients",
                      "network: 2 rooms of 2 scripted clients",
                      "bare Twisted echo: 4 connections", "server CPU per message / the bare "
                      "echo's"):
            self.assertIn(title, text)
        with open(figures) as f:
            results = json.load(f)
        self.assertEqual([r["players"] for r in results["engine"]], [2, 3, 4, 5])
        bots, scripted = results["net"]
        self.assertEqual((bots["clients"], scripted["clients"]), ("bot", "scripted"))
        for net in (bots, scripted):
            self.assertGreater(net["moves"], 0)
            self.assertGreater(net["records"], 0)
            self.assertEqual((net["log_tracebacks"], net["refusals"], net["unexpected_closes"],
                              net["connect_failures"], net["lane_errors"]), (0, 0, 0, 0, []))
            self.assertGreater(net["echo_ratio"], 0)
        # The scripted clients' games are played to their end: records finished.
        self.assertGreater(scripted["records_finished"], 0)
        self.assertIn("lanes stopped by an error", text)
        self.assertGreater(results["echo"]["echoes"], 0)


class PythonNameTests(SynchronousTestCase):
    """The Python a report's header names."""

    def test_names(self) -> None:
        """CPython by its version alone; PyPy by both versions, the language's and its own."""
        self.patch(platform, "python_version", lambda: "3.11.17")
        self.patch(platform, "python_implementation", lambda: "CPython")
        self.assertEqual(harness.pythonName(), "3.11.17")
        self.patch(platform, "python_implementation", lambda: "PyPy")
        self.patch(harness, "sys", types.SimpleNamespace())
        self.assertEqual(harness.pythonName(), "3.11.17 (PyPy)")
        self.patch(harness, "sys", types.SimpleNamespace(
            pypy_version_info=types.SimpleNamespace(major=8, minor=0, micro=1)))
        self.assertEqual(harness.pythonName(), "3.11.17 (PyPy 8.0.1)")


class ReadBackTests(SynchronousTestCase):
    """What the harness reads of a server after it stopped."""

    def test_readLog(self) -> None:
        """Every line of the log and its rotated files; tracebacks, refusals, closes."""
        work = Path(self.mktemp())
        work.mkdir()
        log = work / "server.log"
        first = b"a: refused x\nb: closing: too slow\nTraceback (most recent call last)\n"
        rotated = b"c: closing: too slow\nd\n"
        log.write_bytes(first)
        (work / "server.log.1").write_bytes(rotated)
        (work / "server.log.old").write_bytes(b"Traceback (most recent call last)\n")
        self.assertEqual(harness.readLog(log), {
            "log_lines": 5, "log_bytes": len(first + rotated), "log_files": 2,
            "log_tracebacks": 1, "log_refused": 1, "log_closing_reasons": {"too slow": 2}})

    def test_readRecords(self) -> None:
        """The games, finished ones, actions and bytes of a store's file, and more counts."""
        from gameproto.engine.record import GameRecord, RecordedAction
        from gameproto.engine.store import SQLiteRecordStore

        path = Path(self.mktemp())
        store = SQLiteRecordStore(str(path))
        for finished in (False, True):
            record = GameRecord(store.nextId(), "connect4", {}, {"seed": 1}, ["a", "b"], 0.0)
            store.gameStarted(record)
            store.actionAccepted(record, RecordedAction(0, {"column": 3}, 1.0))
            if finished:
                record.finished = 2.0
                store.gameFinished(record)
        store.close()
        read = harness.readRecords(path, threes="SELECT COUNT(*) FROM actions "
                                               "WHERE action = '{\"column\":3}'")
        self.assertEqual({k: read[k] for k in ("records", "records_finished", "records_actions",
                                                "threes")},
                         {"records": 2, "records_finished": 1, "records_actions": 2, "threes": 2})
        self.assertGreater(read["records_bytes"], 0)

    def test_unreadable(self) -> None:
        """A file that is no database says so, every figure None."""
        path = Path(self.mktemp())
        path.write_bytes(b"not a database" * 100)
        read = harness.readRecords(path)
        self.assertTrue(str(read["records"]).startswith("unreadable"), read)
        self.assertIsNone(read["records_actions"])

    def test_openPorts(self) -> None:
        """The ports named open where asked, every other one off, each once."""
        spec = harness.openPorts({"engine": "tcp:1", "web": "tcp:2"}).split(",")
        self.assertEqual(spec[:2], ["engine=tcp:1", "web=tcp:2"])
        self.assertIn("connect4=off", spec)
        self.assertEqual(len(spec), len({s.split("=")[0] for s in spec}))


class WindowTests(SynchronousTestCase):
    """The harness's measured window, on a clock the test moves."""

    def test_perSecond(self) -> None:
        """
        What a count grew by in each whole second of the window, the part
        second after the last one waited for too.
        """
        clock = Clock()
        clock.advance(100.0)
        self.patch(harness, "_reactor", lambda: clock)
        self.patch(harness, "now", clock.seconds)
        counted = Deferred.fromCoroutine(
            harness.perSecond(lambda: int(clock.seconds() ** 2), 100.0, 3.5))
        for _ in range(14):
            self.assertNoResult(counted)
            clock.advance(0.25)
        # (100 + k) ** 2 grows by 2 * (100 + k) + 1 in the second after it.
        self.assertEqual(self.successResultOf(counted), [201, 203, 205])
