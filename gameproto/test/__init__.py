"""
gameproto's tests: ``trial gameproto.test`` from the source tree.

They ship inside the package, so ``trial gameproto.test`` finds them from
any directory; L{sourceTree} finds the checkout's other folders
(``examples/``, ``bench/``) for the tests that run them.
"""

from __future__ import annotations

from pathlib import Path


def sourceTree() -> Path | None:
    """The source checkout holding ``examples/``, or None if there is none to find."""
    here = Path(__file__).resolve().parent.parent.parent
    for candidate in (here, Path.cwd().parent, Path.cwd()):
        if (candidate / "examples").is_dir() and (candidate / "gameproto").is_dir():
            return candidate
    return None


def _hypothesisProfile() -> None:
    """No timing in tests: no per-example deadline, no too-slow health check."""
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    settings.register_profile(
        "gameproto", deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("gameproto")


_hypothesisProfile()
