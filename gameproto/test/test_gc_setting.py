"""
The garbage collector's setting of a service run by twistd (``--gc-threshold``):
the objects of start-up frozen, a larger first threshold; a process that
embeds the service keeps its own setting.
"""

from __future__ import annotations

import gc
import os
import types
import unittest

from twisted.internet.task import Clock
from twisted.python import usage
from twisted.trial.unittest import SynchronousTestCase

from gameproto import tap
from gameproto.test.service_helpers import LOCAL, onlyPorts


def parse(*argv: str, twistd: bool = False) -> tap.Options:
    options = tap.Options()
    if twistd:
        options.parent = usage.Options()  # as twistd's subcommand
    options.parseOptions(list(argv))
    return options


@unittest.skipUnless(hasattr(gc, "freeze"), "CPython's collector settings (PyPy has none)")
class GarbageCollectionTests(SynchronousTestCase):
    """L{tap.tuneGarbageCollection} and who it applies to."""

    def setUp(self) -> None:
        thresholds = gc.get_threshold()
        self.addCleanup(gc.set_threshold, *thresholds)
        self.addCleanup(gc.unfreeze)
        self.frozen = gc.get_freeze_count()
        """
        What was frozen before the test: nothing on Python 3.11 and 3.13, some
        of the interpreter's own objects from its start on 3.12.
        """

    def service(self, *argv: str, twistd: bool = False) -> tap.GameprotoService:
        db = os.path.abspath(self.mktemp())
        service = tap.makeService(parse("--db", db, *argv, *onlyPorts(connect4=LOCAL),
                                        twistd=twistd), Clock())
        self.addCleanup(service.hub.store.close)
        return service

    def test_tune(self) -> None:
        """Start-up's objects frozen, the thresholds set."""
        tap.tuneGarbageCollection(12345)
        self.assertGreater(gc.get_freeze_count(), self.frozen)
        self.assertEqual(gc.get_threshold(), (12345, 20, 20))

    def test_zeroChangesNothing(self) -> None:
        """0: Python's setting stays, nothing frozen."""
        before = gc.get_threshold()
        tap.tuneGarbageCollection(0)
        self.assertEqual((gc.get_threshold(), gc.get_freeze_count()), (before, self.frozen))

    def test_twistdDefault(self) -> None:
        """Under twistd the service tunes the collector when it starts, by default."""
        self.assertEqual(self.service(twistd=True).gcThreshold, tap.GC_THRESHOLD)
        self.assertEqual(self.service("--gc-threshold", "9000", twistd=True).gcThreshold, 9000)
        self.assertEqual(self.service("--gc-threshold", "0", twistd=True).gcThreshold, 0)

    def test_embeddedUnchanged(self) -> None:
        """A service made in a process of its own making (not twistd's) leaves the collector."""
        self.assertEqual(self.service().gcThreshold, 0)
        self.assertEqual(self.service("--gc-threshold", "9000").gcThreshold, 0)

    def test_startTunes(self) -> None:
        """Starting the service applies its setting."""
        service = self.service(twistd=True)
        service.gcThreshold = 23456
        service.startService()
        self.addCleanup(service.stopService)
        self.assertEqual(gc.get_threshold(), (23456, 20, 20))
        self.assertGreater(gc.get_freeze_count(), self.frozen)

    def test_refused(self) -> None:
        """A negative threshold is a usage error naming the option."""
        error = self.assertRaises(usage.UsageError, parse, "--gc-threshold", "-1")
        self.assertIn("--gc-threshold", str(error))


class WithoutSettingsTests(SynchronousTestCase):
    """A collector without CPython's settings: PyPy's."""

    def test_leftAsItIs(self) -> None:
        """Nothing is asked of it, and a service run by twistd starts."""
        collected: list[None] = []
        self.patch(tap, "gc", types.SimpleNamespace(collect=lambda: collected.append(None)))
        tap.tuneGarbageCollection(12345)
        self.assertEqual(collected, [])
        db = os.path.abspath(self.mktemp())
        service = tap.makeService(parse("--db", db, *onlyPorts(connect4=LOCAL), twistd=True),
                                  Clock())
        self.addCleanup(service.hub.store.close)
        service.startService()
        self.addCleanup(service.stopService)
        self.assertTrue(service.running)
