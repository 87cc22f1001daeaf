"""
Matchmaking: a queue that groups waiting players into games.
"""

from __future__ import annotations

import random
from typing import Callable, Generic, Hashable, Sequence, TypeVar

EntrantT = TypeVar("EntrantT", bound=Hashable)


class MatchQueue(Generic[EntrantT]):
    """
    Players wait here in arrival order; as soon as ``size`` of them wait, they
    are grouped into a game, seated in random order.  A group avoids putting
    together players who have just played each other, as long as some other
    waiting player can take the place; otherwise a rematch is better than a
    wait.
    """

    def __init__(
        self,
        size: int,
        matched: Callable[[Sequence[EntrantT]], object],
        rng: random.Random | None = None,
    ) -> None:
        if size < 1:
            raise ValueError("a game needs at least one seat")
        self.size = size
        self._matched = matched
        self._rng = rng or random.Random()
        self._waiting: dict[EntrantT, None] = {}
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
        """Queue ``entrant`` (again: joining twice keeps its place) and match whoever can be."""
        if entrant in self._waiting:
            return
        self._waiting[entrant] = None
        self._match()

    def leave(self, entrant: EntrantT) -> None:
        """Take ``entrant`` out of the queue, if it is there."""
        self._waiting.pop(entrant, None)

    def forget(self, entrant: EntrantT) -> None:
        """``entrant`` is gone for good: leave the queue and drop its history."""
        self.leave(entrant)
        for member in self._lastGroup.pop(entrant, frozenset()):
            group = self._lastGroup.get(member)
            if group is not None:
                self._lastGroup[member] = group - {entrant}

    def _match(self) -> None:
        while len(self._waiting) >= self.size:
            group = self._pickGroup(list(self._waiting))
            for entrant in group:
                del self._waiting[entrant]
            for entrant in group:
                self._lastGroup[entrant] = frozenset(group) - {entrant}
            seated = list(group)
            self._rng.shuffle(seated)
            self._matched(seated)

    def _pickGroup(self, waiting: list[EntrantT]) -> list[EntrantT]:
        group = [waiting[0]]
        for candidate in waiting[1:]:
            if len(group) == self.size:
                break
            if not any(self._metLast(candidate, member) for member in group):
                group.append(candidate)
        for candidate in waiting[1:]:
            if len(group) == self.size:
                break
            if candidate not in group:
                group.append(candidate)
        return group

    def _metLast(self, a: EntrantT, b: EntrantT) -> bool:
        return b in self._lastGroup.get(a, ()) or a in self._lastGroup.get(b, ())
