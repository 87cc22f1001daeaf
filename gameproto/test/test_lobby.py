"""Tests for the match queue."""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from hypothesis import given, settings, strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.lobby import MatchQueue


class GuardedClock(Clock):
    """A fake clock that turns a runaway rescheduling loop into an error instead of a hang."""

    limit = 1000

    def __init__(self) -> None:
        super().__init__()
        self.scheduled = 0

    def callLater(self, delay: float, callable: Callable[..., object], *args: object,
                  **kw: object) -> Any:
        self.scheduled += 1
        if self.scheduled > self.limit:
            raise RuntimeError(f"more than {self.limit} calls scheduled: a retry loop")
        return super().callLater(delay, callable, *args, **kw)


queueOperations = st.lists(
    st.tuples(st.sampled_from(["join", "join", "leave", "forget", "advance"]),
              st.integers(0, 6)),
    max_size=40,
)


class MatchQueueTests(SynchronousTestCase):
    """Grouping waiting players."""

    def setUp(self) -> None:
        self.groups: list[Sequence[str]] = []
        self.clock = GuardedClock()

    def queue(self, size: int, seed: int = 0, delay: float = 0.0) -> MatchQueue[str]:
        if delay:
            return MatchQueue(size, self.groups.append, random.Random(seed), self.clock, delay)
        return MatchQueue(size, self.groups.append, random.Random(seed))

    def played(self, q: MatchQueue[str], *names: str) -> None:
        """``names`` join (on an empty queue) and are matched together."""
        for name in names:
            q.join(name)
        self.assertEqual(set(self.groups[-1]), set(names))
        self.groups.clear()

    def test_pairsInOrder(self) -> None:
        q = self.queue(2)
        for name in "ABCDE":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}, {"C", "D"}])
        self.assertEqual(q.waiting, ["E"])
        self.assertEqual(len(q), 1)
        self.assertIn("E", q)
        self.assertNotIn("A", q)

    def test_groupsOfFour(self) -> None:
        q = self.queue(4)
        for name in "ABCDEFG":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [set("ABCD")])
        self.assertEqual(q.waiting, list("EFG"))
        q.join("H")
        self.assertEqual([set(g) for g in self.groups], [set("ABCD"), set("EFGH")])
        self.assertEqual(len(q), 0)

    def test_badArguments(self) -> None:
        """No seat, or a rematch delay without a clock, is refused."""
        self.assertRaises(ValueError, MatchQueue, 0, self.groups.append)
        self.assertRaises(ValueError, MatchQueue, 2, self.groups.append, None, None, 1.0)

    def test_shuffledByRng(self) -> None:
        """Seats are the group shuffled by the injected generator."""
        orders = set()
        for seed in range(20):
            self.groups.clear()
            q = self.queue(4, seed)
            for name in "ABCD":
                q.join(name)
            expected = list("ABCD")
            random.Random(seed).shuffle(expected)
            self.assertEqual(self.groups, [expected])
            orders.add(tuple(expected))
        self.assertGreater(len(orders), 1)

    def test_joinTwice(self) -> None:
        """Joining again keeps the first place and does not count twice."""
        q = self.queue(3)
        q.join("A")
        q.join("B")
        q.join("A")
        self.assertEqual(q.waiting, ["A", "B"])
        self.assertEqual(self.groups, [])
        q.join("C")
        self.assertEqual([sorted(g) for g in self.groups], [["A", "B", "C"]])

    def test_leave(self) -> None:
        q = self.queue(2)
        q.join("A")
        q.leave("A")
        q.leave("nobody")
        self.assertEqual(q.waiting, [])
        q.join("B")
        self.assertEqual(self.groups, [])
        q.join("C")
        self.assertEqual([set(g) for g in self.groups], [{"B", "C"}])

    def test_rematchAvoided(self) -> None:
        """A and B just played; with A, B and C waiting, A plays C rather than B again."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.assertEqual(self.groups, [])
        self.assertEqual(q.waiting, ["A", "B"])
        self.clock.advance(0.5)
        q.join("C")
        self.assertEqual([set(g) for g in self.groups], [{"A", "C"}])
        self.assertEqual(q.waiting, ["B"])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_rematchAvoidedInFours(self) -> None:
        """In groups of four, a newcomer takes the place of a player met last time."""
        q = self.queue(4, delay=2.0)
        self.played(q, "A", "B", "C", "D")
        for name in "ABCE":
            q.join(name)
        self.assertEqual(self.groups, [])
        for name in "FG":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [{"A", "E", "F", "G"}])
        self.assertEqual(q.waiting, ["B", "C"])

    def test_freshPairNotHeldBack(self) -> None:
        """
        A played B, then C.  With A, B and C waiting, B and C (who never met)
        play at once; A, who just met both, is the one left waiting.
        """
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        self.played(q, "A", "C")
        for name in "ABC":
            q.join(name)
        self.assertEqual([set(g) for g in self.groups], [{"B", "C"}])
        self.assertEqual(q.waiting, ["A"])

    def test_rematchAfterDelay(self) -> None:
        """When only A and B wait, they are matched again once the delay has passed."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        self.clock.advance(0.75)
        q.join("B")
        self.clock.advance(0.125)
        self.assertEqual(self.groups, [])
        self.clock.advance(0.125)
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])
        self.assertEqual(q.waiting, [])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_rematchAfterDelayFromAnyTime(self) -> None:
        """The rematch comes at the end of the delay whatever the clock's time (no retry loop)."""
        self.clock.advance(0.2)
        q = self.queue(2, delay=0.5)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.clock.advance(0.5)
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_rematchAtOnceWithoutDelay(self) -> None:
        """Without a rematch delay, A and B alone are matched again at once."""
        q = self.queue(2)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])

    def test_leaveCancelsRetry(self) -> None:
        """When a waiting rematch falls apart, its retry is cancelled."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        q.join("B")
        self.assertEqual(len(self.clock.getDelayedCalls()), 1)
        q.leave("B")
        self.assertEqual(self.clock.getDelayedCalls(), [])
        self.clock.advance(5)
        self.assertEqual(self.groups, [])
        self.assertEqual(q.waiting, ["A"])

    def test_forget(self) -> None:
        """forget takes an entrant out of the queue and drops its history."""
        q = self.queue(2, delay=1.0)
        self.played(q, "A", "B")
        q.join("A")
        q.forget("A")
        self.assertEqual(q.waiting, [])
        q.join("A")
        q.join("B")
        self.assertEqual([set(g) for g in self.groups], [{"A", "B"}])
        self.groups.clear()
        q.forget("nobody")
        self.played(q, "C", "D")
        q.forget("D")
        q.join("C")
        q.join("D")
        self.assertEqual([set(g) for g in self.groups], [{"C", "D"}])

    @settings(max_examples=100)
    @given(st.integers(1, 4), queueOperations)
    def test_queueInvariants(self, size: int, operations: list[tuple[str, int]]) -> None:
        """Without a delay: groups whole, disjoint, from those waiting; the queue stays short."""
        groups: list[Sequence[int]] = []
        q: MatchQueue[int] = MatchQueue(size, groups.append, random.Random(1))
        for operation, entrant in operations:
            if operation == "advance":
                continue
            before = q.waiting
            already = len(groups)
            getattr(q, operation)(entrant)
            new = groups[already:]
            if operation == "join":
                candidates = before if entrant in before else before + [entrant]
            else:
                candidates = [e for e in before if e != entrant]
            grouped = [e for g in new for e in g]
            self.assertEqual(len(grouped), len(set(grouped)))
            for group in new:
                self.assertEqual(len(group), size)
                self.assertEqual(len(set(group)), size)
            self.assertTrue(set(grouped) <= set(candidates))
            self.assertEqual(q.waiting, [e for e in candidates if e not in grouped])
            self.assertLess(len(q), size)
            self.assertEqual(len(q), len(q.waiting))

    @settings(max_examples=100)
    @given(st.integers(1, 4), st.sampled_from([0.5, 1.5]), queueOperations)
    def test_queueInvariantsWithDelay(
        self, size: int, delay: float, operations: list[tuple[str, int]]
    ) -> None:
        """
        With a rematch delay: groups are whole and disjoint, and pair players
        who just met only once the longest-waiting entrant has waited the
        delay; a full queue always has a retry pending.
        """
        clock = GuardedClock()
        groups: list[Sequence[int]] = []
        q: MatchQueue[int] = MatchQueue(size, groups.append, random.Random(1), clock, delay)
        last: dict[int, set[int]] = {}
        joined: dict[int, float] = {}
        model: list[int] = []

        def check(new: list[Sequence[int]]) -> None:
            for group in new:
                self.assertEqual(len(set(group)), size)
                self.assertTrue(set(group) <= set(model))
                rematch = any(b in last.get(a, set()) for a in group for b in group)
                if rematch:
                    self.assertGreaterEqual(clock.seconds() - joined[model[0]], delay)
                for member in group:
                    model.remove(member)
                    last[member] = set(group) - {member}

        for operation, entrant in operations:
            already = len(groups)
            if operation == "advance":
                clock.advance(entrant * 0.25)
            elif operation == "join":
                if entrant not in model:
                    model.append(entrant)
                    joined[entrant] = clock.seconds()
                q.join(entrant)
            else:
                getattr(q, operation)(entrant)
                if entrant in model:
                    model.remove(entrant)
                if operation == "forget":
                    last.pop(entrant, None)
                    for others in last.values():
                        others.discard(entrant)
            check(groups[already:])
            self.assertEqual(q.waiting, model)
            if len(q) >= size:
                self.assertTrue(clock.getDelayedCalls())
        already = len(groups)
        clock.advance(delay)
        check(groups[already:])
        self.assertLess(len(q), size)
