"""
``python -m bench.doppelkopf`` runs, in a tiny configuration, from the
source tree: both phases (the engine with both players, the FreeDoko server
as a child process with one table of each mode), and prints its figures.
No timing is checked: only that it ran, measured something and saw no
error.
"""

from __future__ import annotations

import json
import os
import sys

from twisted.internet import reactor
from twisted.internet.utils import getProcessOutputAndValue
from twisted.trial.unittest import TestCase

from gameproto.test.examples_harness import requireSourceTree

ROOT = requireSourceTree("gameproto.test.test_bench_doppelkopf", "bench/doppelkopf.py")

TINY = ["--engine-seconds", "0.2", "--tables", "1", "--seconds", "1.5", "--warmup", "0.2",
        "--rounds", "1", "--no-pin", "--max-seconds", "100"]


class BenchDoppelkopfTests(TestCase):
    timeout = 120

    async def test_tiny(self) -> None:
        """Both phases run and print their tables; the JSON holds the same runs, error-free."""
        figures = os.path.abspath(self.mktemp())
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        out, err, code = await getProcessOutputAndValue(
            sys.executable, ["-m", "bench.doppelkopf", *TINY, "--json", figures],
            env=env, path=str(ROOT), reactor=reactor)
        text, errors = out.decode(), err.decode()
        self.assertEqual(code, 0, f"stdout:\n{text}\nstderr:\n{errors}")
        for title in ("engine alone, doppelkopfBot in every seat",
                      "engine alone, first legal action in every seat",
                      "the bot's share",
                      "network: 1 tables of 1 child + 3 server bots",
                      "network: 1 tables of 4 children"):
            self.assertIn(title, text)
        for figure in ("games/s (per CPU second)", "games/s, parties/s", "server CPU per game",
                       "server CPU per message", "card played to its echo"):
            self.assertIn(figure, text)
        with open(figures) as f:
            results = json.load(f)
        engine = {run["player"]: run for run in results["engine"]["runs"]}
        self.assertEqual(set(engine), {"bot", "first"})
        for run in engine.values():
            self.assertGreater(run["games"], 0)
            self.assertGreater(run["actions"], run["games"])
        self.assertEqual([(r["mode"], r["tables"]) for r in results["net"]],
                         [("bots", 1), ("children", 1)])
        for run in results["net"]:
            self.assertEqual((run["log_tracebacks"], run["mismatches"], run["unexpected_closes"],
                              run["connect_failures"]), (0, 0, 0, 0), run)
            self.assertGreater(run["records"], 0, run)
