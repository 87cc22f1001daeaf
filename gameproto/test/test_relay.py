"""
The relay engine: turn and token kept, moves stored unjudged, acknowledgements,
finish and resignations; recorded games replay exactly to any turn.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings, strategies as st
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    BadFormat,
    Errors,
    IncorrectValue,
    Instructions,
    MissingArgument,
    UnexpectedAction,
    WrongAction,
)
from gameproto.engine.record import MemoryRecordStore, replay
from gameproto.engine.relay import TOKEN_MAX, RelayEngine, RelayGame
from gameproto.engine.table import Table
from gameproto.test.engine_helpers import Holder

ENGINE = RelayEngine("relaytest", maxPlayers=5)


def start(players: int = 3, acks: int = 1, seed: int = 7) -> RelayGame:
    game = ENGINE.start({"players": players, "acks": acks}, {"seed": seed})
    assert isinstance(game, RelayGame), game
    return game


def accepted(outcome: Any) -> Instructions:
    assert isinstance(outcome, Instructions), outcome
    return outcome


def kinds(instructions: Instructions) -> list[tuple[str, Any, Any]]:
    return [(e.kind, e.seat, e.data) for e in instructions.events]


def snapshot(game: Any) -> tuple[Any, ...]:
    """Everything observable about a relay game."""
    instructions = game.instructions()
    return (tuple(game.view(seat) for seat in range(game.players)), game.tokens,
            instructions.requested_actions, instructions.game_state, game.token)


class StartTests(SynchronousTestCase):
    def test_parameters(self) -> None:
        """2 to maxPlayers seats; acks 0 or 1; the seed is the only init value."""
        for players in (1, 6):
            outcome = ENGINE.start({"players": players})
            self.assertIsInstance(outcome, Errors)
        game = ENGINE.start({}, rng=random.Random(1))
        assert isinstance(game, RelayGame)
        self.assertEqual((game.players, game.acks), (2, True))
        self.assertEqual(set(game.initvalues), {"seed"})
        self.assertEqual(game.instructions().initvalues, dict(game.initvalues))
        self.assertIsNone(ENGINE.bot({}))

    def test_initvalues(self) -> None:
        self.assertEqual(ENGINE.start({}, {}), Errors((MissingArgument("seed"),)))
        self.assertEqual(ENGINE.start({}, {"seed": "x"}), Errors((IncorrectValue("seed", "x"),)))
        self.assertRaises(ValueError, RelayEngine, "x", 1)

    def test_sameSeedSameTokens(self) -> None:
        """The first token comes from the seed, to seat 0 only."""
        a, b, c = start(seed=3), start(seed=3), start(seed=4)
        self.assertEqual(a.token, b.token)
        self.assertNotEqual(a.token, c.token)
        self.assertTrue(1 <= a.token <= TOKEN_MAX)
        instructions = a.instructions()
        self.assertEqual(kinds(instructions), [("token", 0, a.token)])
        self.assertEqual(kinds(instructions.forSeat(1)), [])
        self.assertEqual(a.view(0).token, a.token)
        self.assertIsNone(a.view(1).token)


class PlayTests(SynchronousTestCase):
    def test_moveAndAcks(self) -> None:
        """A move is kept as given; every other seat acknowledges; the next seat gets a new token."""
        game = start()
        first = game.token
        move = {"tile": "tile-x", "x": 5, "y": 12, "o": "W", "piece": None}
        step = accepted(game.act(0, {"move": move, "token": first}))
        self.assertEqual(kinds(step), [("move", 0, move)])
        self.assertEqual(sorted(r.player for r in step.requested_actions), [1, 2])
        step = accepted(game.act(2, {"ack": True}))
        self.assertEqual(kinds(step), [("ack", 2, True)])
        step = accepted(game.act(1, {"ack": True}))
        self.assertEqual(kinds(step), [("ack", 1, True), ("token", 1, game.token)])
        self.assertNotEqual(game.token, first)
        self.assertEqual(game.view(2).moves, ((0, move),))
        self.assertEqual({r.player for r in step.requested_actions}, {1})

    def test_wrongTokenOrSeat(self) -> None:
        """No change after a refused action."""
        game = start()
        before = snapshot(game)
        for seat, action in [(1, {"move": 1, "token": game.token}),
                             (0, {"move": 1, "token": game.token + 1}),
                             (0, {"ack": True})]:
            self.assertEqual(game.act(seat, action), Errors((UnexpectedAction(seat, action),)))
        for action in [3, {"move": 1}, {"move": 1, "token": True}, {"ack": 1},
                       {"move": 1, "ack": True, "token": game.token}, {},
                       {"finish": True, "scores": [1]}, {"finish": 1}]:
            self.assertEqual(game.act(0, action), Errors((BadFormat(),)))
        self.assertEqual(snapshot(game), before)

    def test_noAcks(self) -> None:
        game = start(players=2, acks=0)
        step = accepted(game.act(0, {"move": "a", "token": game.token}))
        self.assertEqual(kinds(step), [("move", 0, "a"), ("token", 1, game.token)])
        accepted(game.act(1, {"move": "b", "token": game.token}))
        self.assertEqual(game.holder, 0)

    def test_refusedMoveEndsTheGame(self) -> None:
        game = start()
        accepted(game.act(0, {"move": 1, "token": game.token}))
        step = accepted(game.act(1, {"ack": False}))
        self.assertTrue(step.game_state.gameover)
        self.assertEqual(step.requested_actions, ())
        self.assertEqual(step.events[-1].data, {"reason": "refused", "scores": [0, 0, 0]})

    def test_finish(self) -> None:
        game = start()
        step = accepted(game.act(2, {"finish": True, "scores": [3, 1, 2]}))
        self.assertEqual(step.game_state.scores, (3, 1, 2))
        self.assertTrue(step.game_state.gameover)
        self.assertIsInstance(game.act(0, {"move": 1, "token": game.token}), Errors)

    def test_resign(self) -> None:
        """The holder's resignation passes the turn; the last seat left ends the game."""
        game = start()
        first = game.token
        step = game.resign(0)
        self.assertEqual(kinds(step), [("resign", 0, None), ("token", 1, game.token)])
        self.assertNotEqual(game.token, first)
        accepted(game.act(1, {"move": 1, "token": game.token}))
        step = game.resign(2)
        self.assertEqual(kinds(step), [("resign", 2, None), ("end", None,
                                                            {"reason": "alone", "scores": [0, 0, 0]})])
        self.assertTrue(step.game_state.gameover)

    def test_resignWhileAcknowledging(self) -> None:
        game = start()
        accepted(game.act(0, {"move": 1, "token": game.token}))
        accepted(game.act(1, {"ack": True}))
        step = game.resign(2)
        self.assertEqual([k for k, _, _ in kinds(step)], ["resign", "token"])
        self.assertEqual(game.holder, 1)

    def test_decodeAction(self) -> None:
        """The engine JSON player's TEXT is a move, KEY f finishes, y/n acknowledge."""
        game = start()
        self.assertEqual(game.decodeAction(0, {"type": "TEXT", "text": '{"x": 1}'}),
                         {"move": {"x": 1}, "token": game.token})
        self.assertEqual(game.decodeAction(0, {"type": "TEXT", "text": "tile x"}),
                         {"move": "tile x", "token": game.token})
        self.assertEqual(game.decodeAction(0, {"type": "KEY", "key": "F"}), {"finish": True})
        self.assertIsInstance(game.decodeAction(1, {"type": "TEXT", "text": "x"}), Errors)
        accepted(game.act(0, {"move": 1, "token": game.token}))
        self.assertEqual(game.decodeAction(1, {"type": "KEY", "key": "n"}), {"ack": False})
        wrong = game.decodeAction(1, {"type": "KEY", "key": "q"})
        assert isinstance(wrong, Errors)
        self.assertIsInstance(wrong.errors[0], WrongAction)
        for seat in (None, 0, 1):
            self.assertEqual(game.display(seat).player, seat)


class Driver:
    """Random actions for a relay game at a table, from Hypothesis draws."""

    def __init__(self, table: Table, game: RelayGame, draw: st.DataObject) -> None:
        self.table, self.game, self.draw = table, game, draw

    def step(self) -> None:
        game, draw = self.game, self.draw
        seat = draw.draw(st.integers(0, game.players - 1))
        choice = draw.draw(st.sampled_from(["good", "good", "good", "bad", "resign", "finish"]))
        if choice == "resign":
            self.table.resign(seat)
            return
        if choice == "finish":
            action: Any = {"finish": True}
        elif game.awaitingAcks:
            seat = draw.draw(st.sampled_from(sorted(game.awaitingAcks)))
            action = {"ack": draw.draw(st.sampled_from([True, True, True, False]))}
        elif choice == "good" and game.holder is not None:
            seat = game.holder
            action = {"move": draw.draw(st.integers() | st.text(max_size=5)), "token": game.token}
        else:
            action = {"move": 0, "token": draw.draw(st.integers(0, 3))}
        self.table.act(seat, action)


class ReplayTests(SynchronousTestCase):
    @settings(max_examples=60, deadline=None)
    @given(st.integers(2, 5), st.integers(0, 1), st.integers(0, 2**40), st.data())
    def test_recordedGameReplaysExactly(self, players: int, acks: int, seed: int,
                                        draw: st.DataObject) -> None:
        """
        A random relay game played at a table, its record replayed to every
        turn, gives the same game at that turn; tokens are never 0 and never
        repeat consecutively.
        """
        store = MemoryRecordStore()
        table = Table.create(ENGINE, {"players": players, "acks": acks},
                             [Holder(f"p{i}") for i in range(players)], Clock(), store,
                             random.Random(seed))
        game = table.engine
        assert isinstance(game, RelayGame)
        table.start()
        snapshots = {0: snapshot(game)}
        driver = Driver(table, game, draw)
        for _ in range(draw.draw(st.integers(0, 40))):
            if game.over:
                break
            driver.step()
            snapshots[table.turn] = snapshot(game)
        tokens = game.tokens
        self.assertNotIn(0, tokens)
        self.assertTrue(all(a != b for a, b in zip(tokens, tokens[1:])), tokens)
        record = store.get(table.id)
        assert record is not None
        self.assertEqual(record.initvalues, dict(game.initvalues))
        for turn, expected in snapshots.items():
            self.assertEqual(snapshot(replay(ENGINE, record, turn)), expected, turn)
