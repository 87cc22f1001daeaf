"""Tests for game records and replay."""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from hypothesis import given, settings, strategies as st
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock, Cooperator
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import Instructions, Seat
from gameproto.engine.record import (
    GameRecord,
    RecordedAction,
    ReplayError,
    replay,
    replayLater,
)
from gameproto.engine.table import Table
from gameproto.games.connect4 import ENGINE, Board, Connect4Game
from gameproto.test.engine_helpers import SEAT0_WINS, Holder, makeTable


def playRecorded(
    width: int, height: int, choices: Sequence[int], resign: Seat | None, clock: Clock
) -> tuple[Table, list[Board]]:
    """Play ``choices`` (indices into the legal columns) at a table; the boards after each move."""
    table = makeTable([Holder("a"), Holder("b")], clock, {"width": width, "height": height})
    table.start()
    engine = table.engine
    assert isinstance(engine, Connect4Game)
    boards = [engine.board]
    for choice in choices:
        if table.finished:
            break
        legal = engine.board.legal_columns()
        outcome = table.act(engine.board.turn, legal[choice % len(legal)])
        assert isinstance(outcome, Instructions), outcome
        boards.append(engine.board)
        clock.advance(1.5)
    if resign is not None and not table.finished:
        table.resign(resign)
        boards.append(engine.board)
    return table, boards


class ReplayTests(SynchronousTestCase):
    """Records replay to any turn."""

    @settings(max_examples=25, deadline=None)
    @given(st.integers(6, 9), st.integers(6, 9),
           st.lists(st.integers(0, 100), max_size=81), st.none() | st.sampled_from([0, 1]))
    def test_replayEveryTurn(
        self, width: int, height: int, choices: list[int], resign: Seat | None
    ) -> None:
        """The full replay and the replay to every turn give exactly the boards played."""
        table, boards = playRecorded(width, height, choices, resign, Clock())
        self.assertEqual(len(table.record.actions), len(boards) - 1)
        whole = replay(ENGINE, table.record)
        assert isinstance(whole, Connect4Game)
        engine = table.engine
        assert isinstance(engine, Connect4Game)
        self.assertEqual(whole.board, engine.board)
        self.assertEqual((whole.over, whole.winner), (engine.over, engine.winner))
        for turn, board in enumerate(boards):
            again = replay(ENGINE, table.record, turn=turn)
            assert isinstance(again, Connect4Game)
            self.assertEqual(again.board, board)
        roundTripped = GameRecord.fromJSON(json.loads(json.dumps(table.record.asJSON())))
        fromJSON = replay(ENGINE, roundTripped)
        assert isinstance(fromJSON, Connect4Game)
        self.assertEqual((fromJSON.board, fromJSON.winner), (engine.board, engine.winner))

    def test_resignReplays(self) -> None:
        """A resign is recorded and replayed: the same winner, the same board."""
        clock = Clock()
        table, _ = playRecorded(7, 6, [3, 2, 1], 1, clock)
        self.assertEqual(table.record.actions[-1], RecordedAction(1, None, 4.5, "resign"))
        self.assertEqual(table.record.scores, [1, 0])
        again = replay(ENGINE, table.record)
        assert isinstance(again, Connect4Game)
        self.assertEqual((again.resigned, again.winner, again.over), (1, 0, True))
        before = replay(ENGINE, table.record, turn=3)
        assert isinstance(before, Connect4Game)
        self.assertFalse(before.over)

    def test_turnBounds(self) -> None:
        """Turn 0 (or below) is the start; a turn past the end is the whole game."""
        table, boards = playRecorded(7, 6, [0, 1, 2], None, Clock())
        for turn, expected in [(0, boards[0]), (-3, boards[0]), (99, boards[-1])]:
            again = replay(ENGINE, table.record, turn=turn)
            assert isinstance(again, Connect4Game)
            self.assertEqual(again.board, expected)

    def test_recordJSONRoundTrip(self) -> None:
        """asJSON/fromJSON through json text keeps everything, finished or not."""
        clock = Clock()
        clock.advance(100)
        table, _ = playRecorded(6, 7, SEAT0_WINS, None, clock)
        record = table.record
        self.assertTrue(record.isFinished)
        text = json.dumps(record.asJSON())
        back = GameRecord.fromJSON(json.loads(text))
        self.assertEqual(back.asJSON(), record.asJSON())
        self.assertEqual(back.actions, record.actions)
        self.assertEqual(back.params, {"players": 2, "width": 6, "height": 7})
        self.assertEqual(back.seats, ["a", "b"])
        self.assertEqual(back.started, 100)
        self.assertEqual(back.scores, [1, 0])
        self.assertTrue(back.isFinished)
        live = GameRecord(3, "connect4", {}, {}, ["x", "y"], 1.0,
                          [RecordedAction(0, 2, 1.5)])
        liveBack = GameRecord.fromJSON(json.loads(json.dumps(live.asJSON())))
        self.assertEqual(liveBack.asJSON(), live.asJSON())
        self.assertFalse(liveBack.isFinished)
        self.assertEqual(RecordedAction.fromJSON({"seat": 1, "action": 0, "at": 2}),
                         RecordedAction(1, 0, 2, "act"))

    def test_refusedActionRaises(self) -> None:
        """An action the engine refuses makes the replay fail with L{ReplayError}."""
        for bad in [RecordedAction(0, 7, 0.0), RecordedAction(1, 3, 0.0),
                    RecordedAction(0, "3", 0.0)]:
            record = GameRecord(1, "connect4", {}, {}, ["a", "b"], 0.0,
                                [RecordedAction(0, 3, 0.0), RecordedAction(1, 3, 0.0), bad])
            self.assertRaises(ReplayError, replay, ENGINE, record)
            again = replay(ENGINE, record, turn=2)
            assert isinstance(again, Connect4Game)
            self.assertEqual(again.board, Board.from_moves([3, 3]))

    def test_otherEngineRaises(self) -> None:
        record = GameRecord(1, "chess", {}, {}, ["a", "b"], 0.0)
        self.assertRaises(ReplayError, replay, ENGINE, record)

    def test_badParamsRaise(self) -> None:
        record = GameRecord(1, "connect4", {"width": 3}, {}, ["a", "b"], 0.0)
        self.assertRaises(ReplayError, replay, ENGINE, record)


class CooperativeReplayTests(SynchronousTestCase):
    """With a cooperator, a replay is a task of its time slices: it lets the reactor run."""

    def slices(self) -> tuple[Cooperator, list[Callable[[], None]]]:
        """A cooperator doing one step a slice, its slices kept for the test to run."""
        scheduled: list[Callable[[], None]] = []
        return Cooperator(terminationPredicateFactory=lambda: (lambda: True),
                          scheduler=scheduled.append), scheduled  # type: ignore[arg-type,return-value]

    def test_yieldsBetweenSteps(self) -> None:
        """Each action is a step of its own; the game comes out the same as replay's."""
        table, boards = playRecorded(7, 6, list(range(30)), None, Clock())
        cooperator, scheduled = self.slices()
        rebuilt: list[Any] = []
        replayLater(ENGINE, table.record, None, cooperator).addCallback(rebuilt.append)
        self.assertEqual(rebuilt, [])  # nothing done before the reactor runs again
        slices = 0
        while scheduled and not rebuilt:
            scheduled.pop(0)()
            slices += 1
        (engine,) = rebuilt
        assert isinstance(engine, Connect4Game)
        self.assertEqual(engine.board, boards[-1])
        self.assertGreaterEqual(slices, len(table.record.actions))

    def test_refusedAction(self) -> None:
        """A record that does not replay fails the Deferred with L{ReplayError}."""
        record = GameRecord(1, "connect4", {}, {}, ["a", "b"], 0.0,
                            [RecordedAction(0, 3, 0.0), RecordedAction(0, 9, 0.0)])
        cooperator, scheduled = self.slices()
        failed: list[Failure] = []
        replayLater(ENGINE, record, None, cooperator).addErrback(failed.append)
        while scheduled and not failed:
            scheduled.pop(0)()
        (failure,) = failed
        self.assertIsInstance(failure.value, ReplayError)

    def test_waitsForAnEngineElsewhere(self) -> None:
        """An engine answering later (in another process): each answer is waited for."""
        answers: list[tuple[Deferred[Any], Any]] = []
        table, boards = playRecorded(7, 6, list(range(8)), None, Clock())
        cooperator, scheduled = self.slices()
        rebuilt: list[Any] = []
        replayLater(Elsewhere(answers), table.record, None, cooperator  # type: ignore[arg-type]
                    ).addCallback(rebuilt.append)
        for _ in range(200):
            if rebuilt:
                break
            if scheduled:
                scheduled.pop(0)()
            elif answers and not answers[-1][0].called:
                answer, value = answers[-1]
                answer.callback(value)
        (engine,) = rebuilt
        self.assertEqual(engine.game.board, boards[-1])
        self.assertEqual(len(answers), len(table.record.actions) + 1)


class Elsewhere:
    """
    Connect Four as an engine in another process would play it: every
    call answered through a Deferred, fired when the test says
    (``answers``: each Deferred and its value).
    """

    name = "connect4"

    def __init__(self, answers: list[tuple[Deferred[Any], Any]]) -> None:
        self.answers = answers

    def later(self, value: Any) -> Deferred[Any]:
        answer: Deferred[Any] = Deferred()
        self.answers.append((answer, value))
        return answer

    def start(self, params: Any, initvalues: Any) -> Deferred[Any]:
        return self.later(ElsewhereGame(self, ENGINE.start(params, initvalues)))


class ElsewhereGame:
    """A game of L{Elsewhere}."""

    def __init__(self, factory: Elsewhere, game: Any) -> None:
        self.factory = factory
        self.game = game

    def act(self, seat: Seat, action: Any) -> Deferred[Any]:
        return self.factory.later(self.game.act(seat, action))
