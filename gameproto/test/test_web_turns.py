"""
What the page reads to say whose turn it is and why a game ended, over the
engine JSON protocol: each timed seat's clock, the seats' colours, the
request's words, and the end of a game in words (no browser needed; the
page itself is tested in L{gameproto.test.test_web_play}).
"""

from __future__ import annotations

import re

from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.record import RecordedAction
from gameproto.enginejson.server import endReason
from gameproto.test.test_enginejson import Harness, connect4Client


class ClockTests(SynchronousTestCase):

    def test_clocksColoursAndPrompt(self) -> None:
        """A seat waited for has its clock's seconds; Connect Four tells its colours."""
        harness = Harness(timeout=30)
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                     "name": "alice"})
        first = client.last("instructions")
        self.assertEqual(first["clocks"], [{"player": 1, "seconds": 30.0}])
        self.assertEqual(first["colours"], ["#d62828", "#f6c90e"])
        (request,) = first["requested_actions"]
        self.assertEqual(request["prompt"], "click a column")
        harness.clock.advance(12)
        client.click(first, 3)
        client.received()
        (after,) = [m for m in client.log if m["type"] == "instructions" and m["by"] == 1]
        self.assertEqual(after["game_state"]["text"], "player 1 played column 4")
        self.assertEqual(after["clocks"], [])  # the bot's turn: no clock

    def test_tarotHasNoColours(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "tarot", "init": {}, "bots": [2, 3, 4],
                     "name": "alice"})
        self.assertNotIn("colours", client.last("instructions"))


class EndReasonTests(SynchronousTestCase):

    def queued(self, harness: Harness) -> tuple[object, object]:
        client = harness.connect()
        client.send({"type": "queue", "engine": "connect4", "name": "alice"})
        tcp = connect4Client(harness.connect4, b"bob")
        client.received()
        return client, tcp

    def test_ranOutOfTime(self) -> None:
        """The Protuissance 4 clock runs out: "X ran out of time"."""
        harness = Harness()
        client, _ = self.queued(harness)
        for _ in range(10):
            harness.clock.advance(31)
            if [m for m in client.received() if m["type"] == "ended"]:  # type: ignore[attr-defined]
                break
        ended = client.last("ended")  # type: ignore[attr-defined]
        self.assertRegex(ended["reason"], r"^(alice|bob) ran out of time$")
        self.assertIsNone(ended["error"])

    def test_left(self) -> None:
        """A player leaves a Protuissance 4 game (a resignation there): "alice left the game"."""
        harness = Harness()
        client, _ = self.queued(harness)
        game = client.last("seated")["game"]  # type: ignore[attr-defined]
        watcher = harness.connect()
        watcher.send({"type": "watch", "game": game})
        client.send({"type": "leave"})  # type: ignore[attr-defined]
        self.assertEqual(watcher.last("ended")["reason"], "alice left the game")

    def test_leaverBot(self) -> None:
        """A bot holding a leaver's seat ("alice (bot)") resigns it in her name."""
        harness = Harness(timeout=30)
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                     "name": "alice"})
        table = harness.hosted(client.last("seated")["game"])
        # As a room's table records a leaver's seat taken by a bot, then the
        # bot's resignation when no person is left at the table.
        table.record.seats[0] = "alice (bot)"
        table.record.actions.append(RecordedAction(0, None, 0.0, "resign"))
        table.lastResignation = (0, "left")
        self.assertEqual(endReason(table, None), "alice left the game")
        table.record.seats[0] = "bot1"
        self.assertEqual(endReason(table, None), "bot1 left the game")

    def test_engineWords(self) -> None:
        """Without a resignation, the engine's words: four in a row."""
        harness = Harness(timeout=30)
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                     "name": "alice"})
        table = harness.hosted(client.last("seated")["game"])
        for _ in range(30):
            if table.finished:
                break
            client.click(client.last("instructions"), 0)
        ended = client.last("ended")
        self.assertTrue(re.fullmatch(r"four in a row|the board is full", ended["reason"]),
                        ended)
        self.assertEqual(endReason(table, "four in a row"), "four in a row")
