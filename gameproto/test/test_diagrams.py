"""
The state diagrams of the protocol pages (L{gameproto.diagrams}): drawn
from the machines, and current in every page of C{docs/protocols}.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Protocol

from automat import TypeMachineBuilder
from twisted.trial.unittest import SynchronousTestCase

from gameproto import diagrams
from gameproto._compat import indexTransitions
from gameproto.test import sourceTree

PAGES = ("connect4.md", "maitretarot.md", "carcassonne.md", "enginejson.md", "freedoko.md")
"""The pages that must draw at least one machine."""


class Inputs(Protocol):
    def go(self) -> None:
        "Go."

    def back(self) -> None:
        "Back."

    def stop(self) -> None:
        "Stop."

    def poke(self) -> None:
        "Changes nothing."


class Core:
    pass


def buildMachine() -> Any:
    """here --go--> there --back--> here; stop ends from here, there and middle."""
    builder = TypeMachineBuilder(Inputs, Core)
    here, there = builder.state("here"), builder.state("there")
    middle, done = builder.state("middle"), builder.state("done")

    @here.upon(Inputs.go).to(there)
    def go(inputs: Inputs, core: Core) -> None:
        "Go."

    @there.upon(Inputs.go).to(middle)
    def further(inputs: Inputs, core: Core) -> None:
        "Further."

    @there.upon(Inputs.back).to(here)
    def back(inputs: Inputs, core: Core) -> None:
        "Back."

    for state in (here, there, middle):
        state.upon(Inputs.stop).to(done).returns(None)
        state.upon(Inputs.poke).loop().returns(None)
    done.upon(Inputs.poke).loop().returns(None)
    return indexTransitions(builder.build())


MACHINE = buildMachine()


class MermaidTests(SynchronousTestCase):
    """What a machine's diagram says."""

    def test_drawn(self) -> None:
        text = diagrams.mermaid(MACHINE)
        self.assertEqual(text.split("```")[1], "\n".join([
            "mermaid",
            "stateDiagram-v2",
            "    [*] --> here",
            "    here --> there : go",
            "    there --> here : back",
            "    there --> middle : go",
            "    done --> [*]",
            "",
        ]))
        self.assertIn("It starts in `here` and ends in `done`.", text)
        self.assertIn("From every other state, `stop` leads to `done` (not drawn).", text)
        self.assertIn("Every state but `done` takes `poke` without changing (not drawn).", text)
        self.assertIn("In `done` every input is taken and changes nothing.", text)

    def test_stable(self) -> None:
        """Drawing twice gives the same text: the order is the machine's, not a set's."""
        self.assertEqual(diagrams.mermaid(buildMachine()), diagrams.mermaid(MACHINE))

    def test_resolve(self) -> None:
        self.assertIs(diagrams.resolve("gameproto.test.test_diagrams.MACHINE"), MACHINE)
        self.assertRaises(ValueError, diagrams.resolve, "MACHINE")


PAGE = """# A page

Before.

<!-- machine: gameproto.test.test_diagrams.MACHINE -->
anything old
<!-- end machine -->

After.
"""


class RenderTests(SynchronousTestCase):
    """Pages: the text between the markers drawn anew, the rest kept."""

    def test_render(self) -> None:
        drawn = diagrams.render(PAGE)
        self.assertTrue(drawn.startswith("# A page\n\nBefore.\n\n<!-- machine: "))
        self.assertTrue(drawn.endswith("<!-- end machine -->\n\nAfter.\n"))
        self.assertNotIn("anything old", drawn)
        self.assertIn(diagrams.mermaid(MACHINE), drawn)
        self.assertEqual(diagrams.render(drawn), drawn)

    def test_noMarkers(self) -> None:
        self.assertEqual(diagrams.render("# Nothing\n"), "# Nothing\n")

    def run_main(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = diagrams.main(list(argv))
        return status, out.getvalue(), err.getvalue()

    def test_mainCheckThenDraw(self) -> None:
        path = Path(self.mktemp())
        path.write_text(PAGE, encoding="utf-8")
        status, _, err = self.run_main("--check", str(path))
        self.assertEqual(status, 1)
        self.assertIn("not current", err)
        self.assertEqual(path.read_text(encoding="utf-8"), PAGE)
        status, out, _ = self.run_main(str(path))
        self.assertEqual(status, 0)
        self.assertIn("diagrams drawn", out)
        self.assertFalse(diagrams.stale(path))
        self.assertEqual(self.run_main("--check", str(path)), (0, "", ""))


class PagesTests(SynchronousTestCase):
    """Every diagram of docs/protocols is the one its machine draws now."""

    def pages(self) -> Path:
        tree = sourceTree()
        if tree is None or not (tree / "docs" / "protocols").is_dir():
            self.skipTest("no source checkout with docs/protocols")
        return tree / "docs" / "protocols"

    def test_current(self) -> None:
        stale = [page.name for page in sorted(self.pages().glob("*.md"))
                 if diagrams.stale(page)]
        self.assertEqual(stale, [], "run: python -m gameproto.diagrams docs/protocols/*.md")

    def test_everyProtocolDrawn(self) -> None:
        folder = self.pages()
        for name in PAGES:
            text = (folder / name).read_text(encoding="utf-8")
            self.assertTrue(diagrams.MARKERS.search(text), f"{name} draws no machine")
