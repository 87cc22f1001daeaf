"""
Tests for gameproto.games.carcassonne_relayed: the ``carcassonne`` engine
with ``referee: "off"``, as a relay without a referee plays the game.
"""

from __future__ import annotations

from typing import Any, cast

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    BadFormat,
    Errors,
    IncorrectValue,
    Instructions,
    UnexpectedAction,
)
from gameproto.engine.record import GameRecord, RecordedAction, replay
from gameproto.games.carcassonne import CARCASSONNE, TILES, CarcassonneGame, carcassonneBot
from gameproto.games.carcassonne_relayed import MOVES, RelayedGame


def relayed(players: int = 2, seed: int = 0) -> RelayedGame:
    game = CARCASSONNE.start({"players": players, "pile": "named", "referee": "off"},
                             {"seed": seed})
    assert isinstance(game, RelayedGame)
    return game


def refereed(players: int = 2, seed: int = 0) -> CarcassonneGame:
    game = CARCASSONNE.start({"players": players, "pile": "named"}, {"seed": seed})
    assert isinstance(game, CarcassonneGame)
    return game


def move(tile: str, x: int, y: int, orientation: str = "N",
         zone: str | None = None) -> dict[str, Any]:
    return {"tile": tile, "x": x, "y": y, "orientation": orientation, "zone": zone}


def accepted(outcome: Instructions | Errors) -> Instructions:
    assert isinstance(outcome, Instructions), outcome
    return outcome


class RelayedTests(SynchronousTestCase):
    def test_started(self) -> None:
        """``referee: "off"`` starts a relayed game; it needs a named pile."""
        game = relayed()
        self.assertEqual(dict(game.params), {"players": 2, "farms": "3rd", "pile": "named",
                                             "referee": "off"})
        self.assertEqual(dict(game.initvalues), {"seed": 0})
        wrong = CARCASSONNE.start({"referee": "off"})
        self.assertEqual(cast(Errors, wrong).errors, (IncorrectValue("pile", "seeded"),))
        self.assertIsInstance(CARCASSONNE.start({"referee": "maybe", "pile": "named"}), Errors)

    @settings(max_examples=6, deadline=None)
    @given(st.integers(2, 5), st.integers(0, 2**32))
    def test_legalGameScoresAsRefereed(self, players: int, seed: int) -> None:
        """
        While every move keeps the rules, the relayed game is the refereed
        game: the same scores after every move, and at the end.
        """
        game, judge = relayed(players, seed), refereed(players, seed)
        while not game.over:
            seat = game.turn
            chosen = carcassonneBot(game.view(seat), seat)
            if chosen is None:  # no tile left fits: the players end the game
                self.assertTrue(judge.over)
                accepted(game.act((seat + 1) % players, {"finish": True}))
                break
            accepted(game.act(seat, chosen))
            accepted(judge.act(seat, chosen))
            self.assertEqual(game.scores, judge.scores)
            self.assertIsNone(game.broken)
        self.assertTrue(game.over and judge.over)
        self.assertEqual(game.scores, judge.scores)
        self.assertEqual(game.instructions().game_state.scores, tuple(judge.scores))

    def test_brokenMoveKept(self) -> None:
        """
        A move the rules refuse is kept and passes the turn; the game says
        where and why; the rules keep the board of the moves before it, and
        later moves are kept unjudged.
        """
        game = relayed()
        accepted(game.act(0, move("tile-u", 72, 71, zone="N")))  # the start tile's road, north
        # tile-c is city all round; the start tile's south edge is a road.
        step = accepted(game.act(1, move("tile-c", 72, 73, zone="C")))
        self.assertEqual([e.kind for e in step.events], ["move", "broken"])
        self.assertEqual(step.events[0].data, move("tile-c", 72, 73, zone="C"))
        self.assertEqual(step.events[1].data, {
            "move": 2, "player": 2, "action": move("tile-c", 72, 73, zone="C"),
            "reason": "a four-sided city with a shield does not fit at (72, 73) in orientation N"})
        text = step.game_state.text
        assert text is not None
        self.assertTrue(text.startswith("move 2 (player 2) breaks the rules: a four-sided city "
                                        "with a shield does not fit at (72, 73) in orientation "
                                        "N"), text)
        self.assertEqual(sorted(game.board.tiles), [(72, 71), (72, 72)])
        self.assertEqual(game.remaining["tile-c"], 1)
        self.assertEqual(game.turn, 0)
        self.assertEqual([(r.player, r.type) for r in step.requested_actions], [(0, "TEXT")])
        # The next move is kept, not judged (it would not fit either), and says nothing new.
        later = accepted(game.act(0, move("tile-e", 10, 10)))
        self.assertEqual([e.kind for e in later.events], ["move"])
        self.assertEqual(sorted(game.board.tiles), [(72, 71), (72, 72)])
        self.assertEqual(game.refusal(1, move("tile-c", 72, 73)), None)  # no longer judged
        self.assertIsInstance(game.act(0, move("tile-e", 10, 11)), Errors)  # seat 1's turn
        self.assertIsInstance(game.act(1, {"rotate": 1}), Errors)  # no page steps any more
        # Seat 0 ends it out of turn.  Player 1's road (start tile and tile-u,
        # open) scores 1 a tile at the end: 2 points; player 2's move never
        # reached the board.
        end = accepted(game.act(0, {"finish": True}))
        self.assertEqual(end.game_state.scores, (2, 0))
        self.assertTrue(end.game_state.gameover)
        self.assertEqual(end.game_state.text, "player 1 said the game is over; " + text)
        self.assertEqual(game.moves, 3)

    def test_refusals(self) -> None:
        """The rules' reasons: a tile with no copy left, a follower where one may not stand."""
        game = relayed()
        self.assertIsNone(game.refusal(0, move("tile-c", 73, 72, zone="C")))
        accepted(game.act(0, move("tile-c", 73, 72, zone="C")))  # the start tile's city, east
        self.assertEqual(game.refusal(1, move("tile-c", 74, 72)),
                         "none is left of a four-sided city with a shield")
        # tile-e turned E: its city faces west, onto tile-c's city, which player 1 holds.
        self.assertIsNone(game.refusal(1, move("tile-e", 74, 72, "E")))
        self.assertEqual(game.refusal(1, move("tile-e", 74, 72, "E", "W")),
                         "no follower may stand on W of a city edge there")
        self.assertEqual(game.refusal(1, move("tile-e", 1, 1)),
                         "a city edge does not fit at (1, 1) in orientation N")
        self.assertEqual(game.refusal(1, move("tile-z", 1, 1)), "there is no tile named tile-z")
        for reason in (game.refusal(1, move(tile, 1, 1)) for tile in TILES):
            self.assertNotIn("tile-", reason or "")  # players read the tiles in words
        self.assertIsNone(game.refusal(1, {"finish": True}))  # no move: nothing to judge

    def test_wordsAreNotTheVerdict(self) -> None:
        """A relayer's ``refused`` words change nothing: the rules judge again."""
        game = relayed()
        noted = {**move("tile-u", 72, 71), "refused": "it looked wrong"}
        step = accepted(game.act(0, noted))
        self.assertEqual([e.kind for e in step.events], ["move"])
        self.assertIn((72, 71), game.board.tiles)
        self.assertIsNone(game.broken)

    def test_endsAfterTheLastMove(self) -> None:
        """Judged or not, the 71st move ends the game."""
        game = relayed(3)
        accepted(game.act(0, move("tile-c", 1, 1)))
        for number in range(2, MOVES + 1):
            self.assertFalse(game.over)
            step = accepted(game.act(game.turn, move("tile-e", number, 1)))
        self.assertTrue(step.game_state.gameover)
        self.assertEqual(step.game_state.scores, (0, 0, 0))
        text = step.game_state.text
        assert text is not None
        self.assertTrue(text.startswith(f"the {MOVES} tiles of the pile are placed; move 1 "),
                        text)
        self.assertIsInstance(game.act(game.turn, move("tile-e", 0, 0)), Errors)

    def test_finish(self) -> None:
        """Any playing seat may end the game; a resigned one may not; the form is checked."""
        game = relayed(3)
        self.assertEqual(cast(Errors, game.act(1, {"finish": 1})).errors, (BadFormat(),))
        game.resign(2)
        self.assertIsInstance(cast(Errors, game.act(2, {"finish": True})).errors[0],
                              UnexpectedAction)
        end = accepted(game.act(1, {"finish": True}))
        self.assertTrue(end.game_state.gameover)
        self.assertEqual(end.events[0].kind, "finish")
        self.assertIsInstance(game.act(0, {"finish": True}), Errors)

    def test_pageAfterTheBreak(self) -> None:
        """Once the rules stop following, a seat types a whole move (TEXT) as JSON."""
        game = relayed()
        self.assertEqual(game.decodeAction(0, {"type": "KEY", "key": "r"}), {"rotate": 1})
        accepted(game.act(0, move("tile-c", 1, 1)))
        text = '{"tile": "tile-e", "x": 3, "y": 4, "orientation": "S", "zone": null}'
        self.assertEqual(game.decodeAction(1, {"type": "TEXT", "text": text}),
                         move("tile-e", 3, 4, "S"))
        self.assertIsInstance(game.decodeAction(1, {"type": "TEXT", "text": "[1]"}), Errors)
        shown = game.display(None).asJSON()
        content = cast(list[dict[str, Any]], shown["content"])
        self.assertIn("move 1 (player 1) breaks the rules", content[-1]["content"])

    def test_replaysToAnyTurn(self) -> None:
        """A record of a relayed game replays to every turn as it was played."""
        game = relayed(2, seed=4)
        record = GameRecord(1, "carcassonne", dict(game.params), dict(game.initvalues),
                            ["a", "b"], 0.0)
        seen = [game.instructions()]
        actions: list[tuple[int, Any]] = []
        for _ in range(6):
            seat = game.turn
            actions.append((seat, carcassonneBot(game.view(seat), seat)))
            seen.append(accepted(game.act(*actions[-1])))
        actions.append((game.turn, {**move("tile-c", 0, 0), "refused": "far away"}))
        seen.append(accepted(game.act(*actions[-1])))
        actions.append((game.turn, move("tile-u", 5, 5)))
        seen.append(accepted(game.act(*actions[-1])))
        actions.append((0, {"finish": True}))
        seen.append(accepted(game.act(*actions[-1])))
        record.actions = [RecordedAction(seat, action, 0.0) for seat, action in actions]
        for turn, then in enumerate(seen):
            again = replay(CARCASSONNE, record, turn)
            now = again.instructions()
            self.assertEqual(now.game_state, then.game_state, turn)
            self.assertEqual(now.game_state.text, then.game_state.text, turn)
        self.assertEqual(replay(CARCASSONNE, record).display(None), game.display(None))
        self.assertEqual(replay(CARCASSONNE, record).instructions().game_state.scores,
                         tuple(game.scores))
