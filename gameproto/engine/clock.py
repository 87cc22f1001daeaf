"""
Timeouts on an injected clock.  Every wait in gameproto has one, and tests
drive them with L{twisted.internet.task.Clock}.
"""

from __future__ import annotations

from typing import Any, Callable

from twisted.internet.interfaces import IDelayedCall, IReactorTime


def positiveSeconds(instance: object, attribute: Any, value: float) -> None:
    """An attrs validator for a time that must be over zero (NaN refused)."""
    if not value > 0:
        raise ValueError(f"{attribute.name} must be a positive number of seconds, got {value}")


def seconds(instance: object, attribute: Any, value: float) -> None:
    """An attrs validator for a time that may be zero (NaN refused)."""
    if not value >= 0:
        raise ValueError(f"{attribute.name} must be a number of seconds, got {value}")


def _unheard() -> None:
    """What a lapsed L{Deadline}'s pending call does: nothing."""


class Deadline:
    """
    One restartable timeout: at most one pending call at a time.
    """

    def __init__(self, clock: IReactorTime) -> None:
        self._clock = clock
        self._call: IDelayedCall | None = None
        self._expired: Callable[[], object] = _unheard

    @property
    def active(self) -> bool:
        """Whether a timeout is pending (not cancelled, not lapsed)."""
        return self._call is not None and self._expired is not _unheard

    def remaining(self) -> float | None:
        """Seconds left, or None when no timeout is pending."""
        if not self.active:
            return None
        assert self._call is not None
        return max(0.0, self._call.getTime() - self._clock.seconds())

    def start(self, seconds: float, expired: Callable[[], object]) -> None:
        """Call ``expired`` in ``seconds`` unless cancelled or restarted first."""
        self._expired = expired
        call = self._call
        if call is not None and call.active():
            if call.getTime() <= self._clock.seconds() + seconds:
                call.reset(seconds)  # pushed back: the reactor moves it when its old time comes
                return
            # Brought forward, a pending call is searched for through the
            # reactor's whole queue of calls: a new one costs less.
            call.cancel()
        self._call = self._clock.callLater(seconds, self._fire)

    def _fire(self) -> None:
        # Nothing is kept of a timeout run out: what it calls may hold
        # whoever holds this deadline (a cycle the garbage collector would
        # have to find).
        expired, self._expired = self._expired, _unheard
        self._call = None
        expired()

    def lapse(self) -> None:
        """
        Stop counting without cancelling: the pending call, if any, runs out
        unheard, and the next L{start} pushes the same call back.  For a
        timeout restarted move after move, it spares the reactor a call
        cancelled and another scheduled each time; L{cancel} when none will
        follow.
        """
        self._expired = _unheard

    def cancel(self) -> None:
        """Forget the pending timeout, if any (and what it would have called)."""
        self._expired = _unheard
        if self._call is not None:
            call, self._call = self._call, None
            call.cancel()
