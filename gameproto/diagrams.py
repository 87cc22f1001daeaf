"""
State diagrams of the protocols' typed Automat machines, drawn from the
machines themselves into their documentation.

A Markdown page asks for a machine's diagram with a pair of markers::

    <!-- machine: gameproto.connect4.machine.ServerMachine -->
    <!-- end machine -->

and ``python -m gameproto.diagrams docs/protocols/*.md`` writes between
them a Mermaid ``stateDiagram-v2`` (GitHub renders it) and, below it, what
the drawing leaves out.  ``--check`` changes nothing and exits with status 1
naming each page whose diagram is not current.  Adding a machine to a page
is adding its two marker lines and running the command.

What is drawn: every transition to another state, the inputs that take the
same path joined on one arrow; the initial state (from ``[*]``) and the
states no input leaves (to ``[*]``).  An input that leads from every other
state to the same one (a lost connection, say) is said once in words
instead of drawn from each state, and the inputs a state accepts without
changing are listed under the diagram (said once, too, when every state
takes them).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Sequence

from gameproto._compat import machineTransitions

__all__ = ["MARKERS", "main", "mermaid", "render", "resolve", "stale"]

MARKERS = re.compile(
    r"(?P<open><!-- machine: (?P<name>[A-Za-z_][\w.]*) -->\n)(?P<body>.*?)(?P<close><!-- end machine -->)",
    re.S,
)
"""A diagram's place in a page: its opening marker (naming the machine), its text, its end."""

COMMAND = "python -m gameproto.diagrams"

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def resolve(name: str) -> object:
    """The object named ``package.module.Attribute``."""
    module, _, attribute = name.rpartition(".")
    if not module:
        raise ValueError(f"{name!r} is not module.attribute")
    return getattr(importlib.import_module(module), attribute)


def _code(name: str) -> str:
    return f"`{name}`"


def _join(names: Sequence[str]) -> str:
    names = [_code(n) for n in names]
    if len(names) < 3:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def mermaid(machine: object) -> str:
    """
    The Markdown for ``machine`` (a built typed Automat machine): its
    Mermaid diagram, then the inputs said in words.
    """
    initial, transitions = machineTransitions(machine)
    states = sorted({old for old, _, _ in transitions} | {new for _, _, new in transitions}
                    | {initial})
    for state in states:
        if not _PLAIN.match(state):
            raise ValueError(f"state {state!r} cannot be drawn by name")
    moves = [(old, symbol, new) for old, symbol, new in transitions if old != new]
    stays: dict[str, list[str]] = defaultdict(list)
    for old, symbol, new in transitions:
        if old == new:
            stays[old].append(symbol)
    leaving = {old for old, _, _ in moves}
    finals = [state for state in states if state not in leaving]

    # Inputs that lead from every other state (but the final ones) to the same state.
    everywhere: list[tuple[str, str]] = []
    for symbol, new in sorted({(symbol, new) for _, symbol, new in moves}):
        sources = {old for old, s, n in moves if (s, n) == (symbol, new)}
        others = {state for state in states if state != new and state not in finals}
        if len(others) >= 3 and sources == others:
            everywhere.append((symbol, new))
    common = set(everywhere)

    arrows: dict[tuple[str, str], list[str]] = defaultdict(list)
    for old, symbol, new in moves:
        if (symbol, new) not in common:
            arrows[(old, new)].append(symbol)

    # Inputs every state but the final ones takes without changing.
    living = [state for state in states if state not in finals]
    idle = sorted(symbol for symbol in {s for symbols in stays.values() for s in symbols}
                  if len(living) >= 3 and all(symbol in stays.get(st, ()) for st in living))
    for state in living:
        stays[state] = [symbol for symbol in stays.get(state, []) if symbol not in idle]

    # States in the order a reader meets them: breadth first from the initial one.
    order = [initial]
    for state in order:
        for old, _, new in moves:
            if old == state and new not in order:
                order.append(new)
    order += [state for state in states if state not in order]

    lines = ["```mermaid", "stateDiagram-v2", f"    [*] --> {initial}"]
    for old in order:
        for new in order:
            symbols = arrows.get((old, new))
            if symbols:
                lines.append(f"    {old} --> {new} : {', '.join(sorted(symbols))}")
    for state in finals:
        lines.append(f"    {state} --> [*]")
    lines.append("```")
    lines.append("")
    lines.append(f"It starts in {_code(initial)}"
                 + (f" and ends in {_join(finals)}." if finals else "."))
    for symbol, new in everywhere:
        lines.append(f"From every other state, {_code(symbol)} leads to {_code(new)} "
                     "(not drawn).")
    for symbol in idle:
        lines.append(f"Every state but {_join(finals)} takes {_code(symbol)} without changing "
                     "(not drawn).")
    kept = [state for state in order if stays.get(state) and state not in finals]
    if kept:
        lines.append("")
        lines.append("Inputs a state takes without changing (not drawn):")
        lines.append("")
        for state in kept:
            lines.append(f"- {_code(state)}: {_join(sorted(stays[state]))}")
    if finals:
        lines.append("")
        lines.append(f"In {_join(finals)} every input is taken and changes nothing.")
    return "\n".join(lines) + "\n"


def render(text: str) -> str:
    """``text`` (a Markdown page) with every diagram between its markers drawn anew."""

    def draw(match: re.Match[str]) -> str:
        name = match["name"]
        body = (f"<!-- drawn from {name} by {COMMAND}: do not edit -->\n"
                + mermaid(resolve(name)))
        return match["open"] + body + match["close"]

    return MARKERS.sub(draw, text)


def stale(path: Path) -> bool:
    """Whether the diagrams of the page at ``path`` are not current."""
    text = path.read_text(encoding="utf-8")
    return render(text) != text


def main(argv: Sequence[str] | None = None) -> int:
    """Draw (or, with --check, check) the diagrams of each page named."""
    parser = argparse.ArgumentParser(
        prog=COMMAND, description="Draw the protocols' state machines into their pages "
        "between <!-- machine: module.Machine --> and <!-- end machine -->.")
    parser.add_argument("pages", nargs="+", type=Path, help="Markdown pages")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a page's diagrams are not current")
    arguments = parser.parse_args(argv)
    outdated = []
    for path in arguments.pages:
        text = path.read_text(encoding="utf-8")
        drawn = render(text)
        if drawn == text:
            continue
        outdated.append(path)
        if not arguments.check:
            path.write_text(drawn, encoding="utf-8")
            print(f"{path}: diagrams drawn")
    if arguments.check and outdated:
        for path in outdated:
            print(f"{path}: diagrams not current; run {COMMAND} {path}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
