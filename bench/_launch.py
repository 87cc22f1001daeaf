"""
What lets a benchmark run as a file, ``python bench/NAME.py``, as well as
a module, ``python -m bench.NAME``: each benchmark starts with

    if __name__ == "__main__" and not __package__:  # python bench/NAME.py
        import _launch
        _launch.asModule(__file__)

Run as a file, Python puts the file's folder (``bench/``) first on
``sys.path``, where ``bench`` and ``gameproto`` are not found; this module,
found there, puts the repository root in its place and runs the file again
as the module ``bench.NAME``, exactly as ``python -m bench.NAME`` from the
root would, whatever the current directory.  Run as a module, the test is
false and nothing of this happens.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import NoReturn


def asModule(path: str) -> NoReturn:
    """Run the benchmark file ``path`` as ``python -m bench.NAME`` from its tree's root."""
    script = Path(path).resolve()
    root = script.parent.parent
    if sys.path and Path(sys.path[0] or ".").resolve() == script.parent:
        sys.path[0] = str(root)
    else:
        sys.path.insert(0, str(root))
    runpy.run_module(f"{script.parent.name}.{script.stem}", run_name="__main__",
                     alter_sys=True)
    raise SystemExit(0)
