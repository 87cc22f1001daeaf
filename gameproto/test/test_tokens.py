"""
Seats have credentials: ``seated`` carries the seat's token, ``join`` with
it takes the seat back (after a dropped connection or a restart), and a seat
a person holds or held is refused to anyone without it.
"""

from __future__ import annotations

import json
import sqlite3

from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.hub import OpenSeat
from gameproto.engine.record import hashToken
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import BotSeat
from gameproto.enginejson import wire

from .test_enginejson import Harness


class WireTests(SynchronousTestCase):
    def test_joinToken(self) -> None:
        message = wire.parse(b'{"type": "join", "game": 3, "player": 1, "token": "abc-_9"}')
        self.assertEqual(message, wire.Join(3, 1, "player", "abc-_9"))
        assert isinstance(message, wire.Join)
        self.assertEqual(wire.parse(json.dumps(message.asJSON())), message)
        self.assertEqual(wire.parse(b'{"type": "join", "game": 3}'), wire.Join(3))
        for token in (5, "", "x" * (wire.TOKEN_LIMIT + 1), "caf\u00e9", "a\nb", None):
            data = json.dumps({"type": "join", "game": 3, "token": token})
            parsed = wire.parse(data)
            if token is None:
                self.assertEqual(parsed, wire.Join(3))
            else:
                self.assertIsInstance(parsed, wire.Malformed, token)


class TokenTests(SynchronousTestCase):
    def test_seatedCarriesAToken(self) -> None:
        """Every seat a person takes comes with its own token, kept hashed."""
        harness = Harness()
        alice, bob = harness.connect(), harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "name": "alice"})
        game = alice.last("created")["game"]
        bob.send({"type": "join", "game": game, "name": "bob"})
        first, second = alice.last("seated")["token"], bob.last("seated")["token"]
        self.assertNotEqual(first, second)
        for token in (first, second):
            self.assertIsInstance(token, str)
            self.assertGreaterEqual(len(token), 22)  # 128 bits at least, base64
        self.assertEqual(harness.record(game).tokens,
                         {0: hashToken(first), 1: hashToken(second)})

    def test_rejoinAfterADrop(self) -> None:
        """
        A player whose connection dropped: the bot plays meanwhile, a
        stranger cannot take the seat, its token takes it back.
        """
        harness = Harness()
        alice, bob = harness.connect(), harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "name": "alice"})
        token = alice.last("seated")["token"]
        game = alice.last("seated")["game"]
        bob.send({"type": "join", "game": game, "name": "bob"})
        table = harness.hosted(game)
        alice.protocol.connectionLost()
        self.assertIsInstance(table.holders[0], BotSeat)
        harness.clock.advance(0)
        self.assertEqual(table.turn, 1)  # the bot played meanwhile; bob's turn
        stranger = harness.connect()
        stranger.send({"type": "join", "game": game, "player": 1, "name": "mallory"})
        self.assertIn("not free", stranger.last("problem")["message"])
        stranger.send({"type": "join", "game": game, "player": 1, "token": "guessed",
                       "name": "mallory"})
        self.assertEqual(stranger.last("problem")["message"],
                         f"the token is not that of player 1 of game {game}")
        self.assertEqual(stranger.state, "lobby")
        back = harness.connect()
        back.send({"type": "join", "game": game, "token": token, "name": "alice"})
        seated = back.last("seated")
        self.assertEqual((seated["player"], seated["token"]), (1, token))
        self.assertEqual(back.state, "seated")
        self.assertNotIsInstance(table.holders[0], BotSeat)
        self.assertEqual(table.record.seats[0], "alice")

    def test_alonePersonBackFromADrop(self) -> None:
        """
        A person alone with a bot, whose connection dropped: the seat stays
        theirs (the bot may play it meanwhile) and the token takes it back.
        """
        harness = Harness()
        alice = harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                    "name": "alice"})
        seated = alice.last("seated")
        table = harness.hosted(seated["game"])
        alice.protocol.connectionLost()
        self.assertFalse(table.finished)
        self.assertIsInstance(table.holders[0], BotSeat)
        back = harness.connect()
        back.send({"type": "join", "game": seated["game"], "token": seated["token"]})
        self.assertEqual(back.last("seated")["player"], 1)
        self.assertEqual(back.state, "seated")

    def test_anotherConnectionTakesTheSeat(self) -> None:
        """The same person on a second connection: the first one loses the seat."""
        harness = Harness()
        first = harness.connect()
        first.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                    "name": "alice"})
        seated = first.last("seated")
        second = harness.connect()
        second.send({"type": "join", "game": seated["game"], "player": 1,
                     "token": seated["token"], "name": "alice"})
        self.assertEqual(second.last("seated")["player"], 1)
        ended = first.last("ended")
        self.assertEqual(ended["error"], "player 1's seat was taken back with its token")
        self.assertEqual(first.state, "lobby")
        first.send({"type": "action", "action": {"type": "CLICK", "x": 1, "y": 1}})
        self.assertEqual(first.last("problem")["message"], "no seat: join a game first")
        second.click(second.last("instructions"))
        self.assertIn(1, [m["by"] for m in second.received() if m["type"] == "instructions"])

    def test_openSeatsNeverHeldStayFree(self) -> None:
        """A seat no person held needs no token; one a person left needs its token."""
        harness = Harness()
        alice = harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "join": False})
        game = alice.last("created")["game"]
        bob = harness.connect()
        bob.send({"type": "join", "game": game, "player": 2, "name": "bob"})
        self.assertEqual(bob.last("seated")["player"], 2)
        table = harness.hosted(game)
        self.assertEqual(harness.hub.openSeats(table), [0])

    def test_rejoinAfterARestart(self) -> None:
        """
        After a kill and a restart, the seats persons held are theirs: a
        stranger is refused, each token takes its seat back.
        """
        path = self.mktemp()
        first = Harness(store=SQLiteRecordStore(path))
        alice, bob = first.connect(), first.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "name": "alice"})
        game = alice.last("created")["game"]
        bob.send({"type": "join", "game": game, "name": "bob"})
        tokens = [alice.last("seated")["token"], bob.last("seated")["token"]]
        alice.click(alice.last("instructions"))
        db = sqlite3.connect(path)
        self.addCleanup(db.close)
        stored = db.execute("SELECT seat, hash FROM seat_tokens WHERE game = ?",
                            (game,)).fetchall()
        self.assertEqual(sorted(stored), [(0, hashToken(tokens[0])), (1, hashToken(tokens[1]))])
        with open(path, "rb") as f:
            content = f.read()
        self.assertNotIn(tokens[0].encode(), content)

        second = Harness(store=SQLiteRecordStore(path))  # the first one was killed
        second.hub.restore()
        table = second.hosted(game)
        self.assertIsInstance(table.holders[1], OpenSeat)
        stranger = second.connect()
        stranger.send({"type": "join", "game": game, "name": "mallory"})
        self.assertIn("no free seat", stranger.last("problem")["message"])
        stranger.send({"type": "join", "game": game, "player": 2, "name": "mallory"})
        self.assertIn("not free", stranger.last("problem")["message"])
        stranger.send({"type": "join", "game": game, "player": 2, "token": tokens[0]})
        self.assertIn("token is not", stranger.last("problem")["message"])
        back = [second.connect(), second.connect()]
        for client, token in zip(back, tokens):
            client.send({"type": "join", "game": game, "token": token})
        self.assertEqual([c.last("seated")["player"] for c in back], [1, 2])
        self.assertEqual([c.last("seated")["token"] for c in back], tokens)
        back[1].click(back[1].last("instructions"))
        self.assertEqual(table.turn, 2)

    def test_guestOfAnotherProtocol(self) -> None:
        """A JSON player at a MaîtreTarot table gets a token, which takes its seat back after a restart."""
        path = self.mktemp()
        first = Harness(store=SQLiteRecordStore(path))
        alice = first.connect()
        alice.send({"type": "queue", "engine": "tarot", "name": "alice"})
        first.clock.advance(5)
        seated = alice.last("seated")
        self.assertEqual(seated["players"], ["alice", "bot2", "bot3", "bot4"])
        self.assertIsInstance(seated["token"], str)
        second = Harness(store=SQLiteRecordStore(path))
        second.hub.restore()
        stranger = second.connect()
        stranger.send({"type": "join", "game": seated["game"], "name": "mallory"})
        self.assertIn("no free seat", stranger.last("problem")["message"])
        back = second.connect()
        back.send({"type": "join", "game": seated["game"], "token": seated["token"]})
        self.assertEqual(back.last("seated")["player"], 1)
