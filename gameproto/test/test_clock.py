"""Tests for deadlines on an injected clock."""

from __future__ import annotations

import math
import weakref

from hypothesis import given, settings, strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.clock import Deadline
from gameproto.test.runtime import onlyRefcounted


class DeadlineTests(SynchronousTestCase):
    """One restartable timeout on a fake clock."""

    def setUp(self) -> None:
        self.clock = Clock()
        self.fired: list[float] = []
        self.deadline = Deadline(self.clock)

    def expire(self) -> None:
        self.fired.append(self.clock.seconds())

    def test_idle(self) -> None:
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.deadline.cancel()
        self.assertFalse(self.deadline.active)

    def test_start(self) -> None:
        self.deadline.start(10, self.expire)
        self.assertTrue(self.deadline.active)
        self.assertEqual(self.deadline.remaining(), 10)
        self.clock.advance(3)
        self.assertEqual(self.deadline.remaining(), 7)
        self.clock.advance(6.5)
        self.assertEqual(self.fired, [])
        self.clock.advance(0.5)
        self.assertEqual(self.fired, [10])
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.clock.advance(100)
        self.assertEqual(self.fired, [10])

    def test_cancel(self) -> None:
        self.deadline.start(10, self.expire)
        self.clock.advance(5)
        self.deadline.cancel()
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.clock.advance(100)
        self.assertEqual(self.fired, [])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_lapse(self) -> None:
        """
        A lapsed timeout stops counting but keeps its call, which runs out
        unheard; starting again pushes the same call back.
        """
        self.deadline.start(10, self.expire)
        (call,) = self.clock.getDelayedCalls()
        self.clock.advance(4)
        self.deadline.lapse()
        self.assertFalse(self.deadline.active)
        self.assertIsNone(self.deadline.remaining())
        self.assertEqual(self.clock.getDelayedCalls(), [call])
        self.deadline.start(10, self.expire)
        self.assertEqual(self.clock.getDelayedCalls(), [call])
        self.assertEqual(self.deadline.remaining(), 10)
        self.clock.advance(10)
        self.assertEqual(self.fired, [14])
        self.deadline.start(5, self.expire)
        self.deadline.lapse()
        self.clock.advance(100)
        self.assertEqual(self.fired, [14])
        self.assertEqual(self.clock.getDelayedCalls(), [])
        self.deadline.lapse()  # nothing pending: nothing to do
        self.assertFalse(self.deadline.active)

    def test_restart(self) -> None:
        """Starting again replaces the pending timeout."""
        self.deadline.start(10, self.expire)
        self.clock.advance(8)
        self.deadline.start(10, self.expire)
        self.assertEqual(self.deadline.remaining(), 10)
        self.assertEqual(len(self.clock.getDelayedCalls()), 1)
        self.clock.advance(9)
        self.assertEqual(self.fired, [])
        self.clock.advance(1)
        self.assertEqual(self.fired, [18])

    def test_pushedBack(self) -> None:
        """A timeout started again for later keeps its pending call, pushed back."""
        self.deadline.start(10, self.expire)
        (call,) = self.clock.getDelayedCalls()
        self.clock.advance(2)
        self.deadline.start(9, self.expire)
        self.assertEqual(self.clock.getDelayedCalls(), [call])
        self.assertEqual(call.getTime(), 11)
        self.clock.advance(8.5)
        self.assertEqual(self.fired, [])
        self.clock.advance(0.5)
        self.assertEqual(self.fired, [11])

    def test_broughtForward(self) -> None:
        """
        A timeout started again for sooner (lapsed or not) gets a new call,
        the old one cancelled: a reactor finds a call brought forward by
        searching its whole queue.
        """
        for lapse in (False, True):
            self.fired.clear()
            start = self.clock.seconds()
            self.deadline.start(10, self.expire)
            (call,) = self.clock.getDelayedCalls()
            self.clock.advance(2)
            if lapse:
                self.deadline.lapse()
            self.deadline.start(3, self.expire)
            (new,) = self.clock.getDelayedCalls()
            self.assertIsNot(new, call)
            self.assertFalse(call.active())
            self.assertEqual(new.getTime(), start + 5)
            self.clock.advance(2.5)
            self.assertEqual(self.fired, [])
            self.clock.advance(0.5)
            self.assertEqual(self.fired, [start + 5])
            self.clock.advance(10)
            self.assertEqual(self.fired, [start + 5])

    @onlyRefcounted
    def test_keepsNothingOnceDone(self) -> None:
        """
        A timeout run out or cancelled keeps nothing of what it would call
        (which may hold whoever holds the deadline).
        """

        class Callee:
            def __call__(self) -> None:
                pass

        for end in ("fire", "cancel"):
            callee = Callee()
            freed = weakref.ref(callee)
            self.deadline.start(1, callee)
            del callee
            self.assertIsNotNone(freed())
            if end == "fire":
                self.clock.advance(1)
            else:
                self.deadline.cancel()
            self.assertIsNone(freed(), end)

    def test_restartFromExpiry(self) -> None:
        """The callback may start the deadline again."""
        def again() -> None:
            self.expire()
            if len(self.fired) < 3:
                self.deadline.start(2, again)

        self.deadline.start(2, again)
        self.clock.pump([1] * 10)
        self.assertEqual(self.fired, [2, 4, 6])
        self.assertFalse(self.deadline.active)

    @settings(max_examples=50)
    @given(st.floats(0, 1000), st.floats(0, 1000))
    def test_remaining(self, seconds: float, elapsed: float) -> None:
        """remaining is the time left, never negative, None once fired."""
        clock = Clock()
        deadline = Deadline(clock)
        fired: list[bool] = []
        deadline.start(seconds, lambda: fired.append(True))
        clock.advance(elapsed)
        if elapsed >= seconds:
            self.assertEqual(fired, [True])
            self.assertIsNone(deadline.remaining())
        else:
            self.assertEqual(fired, [])
            remaining = deadline.remaining()
            assert remaining is not None
            self.assertTrue(math.isclose(remaining, seconds - elapsed, abs_tol=1e-9))
            self.assertGreaterEqual(remaining, 0)
