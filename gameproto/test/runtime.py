"""
What some tests need of the Python running them: CPython's reference
counting, or orjson (a dependency on CPython only).  gameproto runs on PyPy
too (docs/operations.md); there these tests are skipped, with the reason.
"""

from __future__ import annotations

import platform
import unittest

from gameproto.enginejson import wire

REFCOUNTED = platform.python_implementation() == "CPython"
"""Whether an object is freed as soon as nobody holds it (CPython's reference counting)."""

onlyRefcounted = unittest.skipUnless(
    REFCOUNTED, "freed as soon as nobody holds it: CPython's reference counting "
    "(PyPy's collector frees it later, whatever the cycles)")
"""For a test that an object is freed at once, with no reference cycle keeping it."""

needsOrjson = unittest.skipIf(wire._orjson is None, "orjson is not installed (as on PyPy)")
"""For a test of orjson's fast paths."""
