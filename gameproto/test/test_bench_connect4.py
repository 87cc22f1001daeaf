"""
``bench/connect4_load.py`` whole, in a tiny configuration, as a person runs
it: its four phases against the real server and the echo, its client
processes, the report and the JSON; and its in-process ``layers`` phase.
No timing is checked: only that it runs, measures something, sees no error
and judges every target.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from twisted.trial.unittest import TestCase

from gameproto.test.examples_harness import requireSourceTree
from gameproto.test.test_bench import run

ROOT = requireSourceTree("gameproto.test.test_bench_connect4", "bench/")


class Connect4LoadTests(TestCase):
    timeout = 240

    async def test_tiny(self) -> None:
        figures = os.path.abspath(self.mktemp())
        out, err, code = await run(
            [str(ROOT / "bench" / "connect4_load.py"), "--pairs", "4", "--seconds", "1.5",
             "--warmup", "0.5", "--think-ms", "20", "--idle", "20", "--hold", "0.2",
             "--no-pin", "--max-seconds", "200", "--json", figures], Path(figures).parent)
        text = out.decode()
        self.assertEqual(code, 0, f"stdout:\n{text}\nstderr:\n{err.decode()}")
        for title in ("load: 4 pairs", "think: 4 pairs", "idle: 20 connections",
                      "echo baseline: 4 pairs", "gameproto against the bare echo", "targets"):
            self.assertIn(title, text)
        with open(figures) as f:
            results = json.load(f)
        for name in ("load", "think"):
            phase = results[name]
            self.assertGreater(phase["moves"], 0, name)
            self.assertGreater(phase["server_cpu_per_move_us"], 0, name)
            self.assertEqual((phase["errors"], phase["unexpected_closes"],
                              phase["connect_failures"], phase["log_tracebacks"]),
                             ({}, 0, 0, 0), name)
        self.assertEqual(results["idle"]["held"], 20)
        echo = results["echo"]
        self.assertGreater(echo["messages"], 0)
        self.assertEqual((echo["errors"], echo["silent_pairs"]), ({}, 0))
        self.assertEqual(len(results["targets"]), 5)
        self.assertGreater(results["ratio_moves_per_s_to_echo_messages_per_s"], 0)

    async def test_layers(self) -> None:
        """
        The in-process phase plays its scripted games through each layer
        (a move the server refused would stop it) and reports each.
        """
        figures = os.path.abspath(self.mktemp())
        out, err, code = await run(
            [str(ROOT / "bench" / "connect4_load.py"), "--phases", "layers", "--pairs", "4",
             "--layers-seconds", "0.2", "--no-pin", "--max-seconds", "200", "--json", figures],
            Path(figures).parent)
        text = out.decode()
        self.assertEqual(code, 0, f"stdout:\n{text}\nstderr:\n{err.decode()}")
        self.assertIn("layers, in process: 4 games at once", text)
        with open(figures) as f:
            layers = json.load(f)["layers"]
        for name in ("engine", "table", "server", "server_sqlite"):
            self.assertGreater(layers[f"{name}_moves"], 0, name)
            self.assertGreater(layers[f"{name}_us"], 0, name)
        self.assertGreater(layers["moves_per_game"], 6)
