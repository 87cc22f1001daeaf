"""
Matchmaking: a queue that groups waiting players into games.
"""

from __future__ import annotations

import random
from typing import Callable, Generic, Hashable, Sequence, TypeVar

from twisted.internet.interfaces import IReactorTime

from gameproto.engine.clock import Deadline

EntrantT = TypeVar("EntrantT", bound=Hashable)


class MatchQueue(Generic[EntrantT]):
    """
    Players wait here in arrival order; as soon as ``size`` of them can play
    together, they are grouped into a game, seated in random order.

    A group avoids putting together players who have just played each other:
    while only such a group could be formed, the queue waits for someone
    else, up to ``rematchDelay`` seconds from the moment the longest-waiting
    player joined; then a rematch is better than a longer wait.
    """

    def __init__(
        self,
        size: int,
        matched: Callable[[Sequence[EntrantT]], object],
        rng: random.Random | None = None,
        clock: IReactorTime | None = None,
        rematchDelay: float = 0.0,
    ) -> None:
        if size < 1:
            raise ValueError("a game needs at least one seat")
        if rematchDelay > 0 and clock is None:
            raise ValueError("a rematch delay needs a clock")
        self.size = size
        self.rematchDelay = rematchDelay
        self._matched = matched
        self._rng = rng or random.Random()
        self._clock = clock
        self._retry = Deadline(clock) if clock is not None else None
        self._waiting: dict[EntrantT, float] = {}
        self._lastGroup: dict[EntrantT, frozenset[EntrantT]] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def __contains__(self, entrant: object) -> bool:
        return entrant in self._waiting

    @property
    def waiting(self) -> list[EntrantT]:
        """The entrants waiting, longest-waiting first."""
        return list(self._waiting)

    def join(self, entrant: EntrantT) -> None:
        """Queue ``entrant`` (joining twice keeps its place) and match whoever can be."""
        if entrant in self._waiting:
            return
        self._waiting[entrant] = self._now()
        self._match()

    def leave(self, entrant: EntrantT) -> None:
        """Take ``entrant`` out of the queue, if it is there."""
        if self._waiting.pop(entrant, None) is not None and self._retry is not None:
            if len(self._waiting) < self.size:
                self._retry.cancel()

    def forget(self, entrant: EntrantT) -> None:
        """``entrant`` is gone for good: leave the queue and drop its history."""
        self.leave(entrant)
        for member in self._lastGroup.pop(entrant, frozenset()):
            group = self._lastGroup.get(member)
            if group is not None:
                self._lastGroup[member] = group - {entrant}

    def _now(self) -> float:
        return self._clock.seconds() if self._clock is not None else 0.0

    def _match(self, rematchDue: bool = False) -> None:
        while len(self._waiting) >= self.size:
            waiting = list(self._waiting)
            group = self._freshGroup(waiting)
            if group is None:
                waited = self._now() - self._waiting[waiting[0]]
                if not rematchDue and waited < self.rematchDelay:
                    assert self._retry is not None
                    self._retry.start(self.rematchDelay - waited, lambda: self._match(True))
                    return
                group = waiting[: self.size]
            rematchDue = False
            for entrant in group:
                del self._waiting[entrant]
            for entrant in group:
                self._lastGroup[entrant] = frozenset(group) - {entrant}
            seated = list(group)
            self._rng.shuffle(seated)
            self._matched(seated)
        if self._retry is not None:
            self._retry.cancel()

    def _freshGroup(self, waiting: list[EntrantT]) -> list[EntrantT] | None:
        """
        The first group, in waiting order, of entrants none of whom just
        played together; longest-waiting entrants come first.
        """
        for start, first in enumerate(waiting):
            group = [first]
            for candidate in waiting[start + 1 :]:
                if not any(self._metLast(candidate, member) for member in group):
                    group.append(candidate)
                    if len(group) == self.size:
                        return group
        return None

    def _metLast(self, a: EntrantT, b: EntrantT) -> bool:
        return b in self._lastGroup.get(a, ()) or a in self._lastGroup.get(b, ())
