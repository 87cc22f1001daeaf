"""
The engine JSON protocol: the player machine, the server's games (created,
joined, watched, left), the other protocols' matchmaking, restoring after a
kill, and replay to any turn reproducing what each seat saw.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings, strategies as st
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SynchronousTestCase

from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.contract import Errors, GameEngine, GameState, Instructions, RequestedAction
from gameproto.engine.hub import Hub, HubSettings, OpenSeat
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.record import GameRecord, MemoryRecordStore, RecordStore, replay
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import BotSeat, Table
from gameproto.enginejson import wire
from gameproto.enginejson.machine import PlayerMachine, stateName
from gameproto.enginejson.protocol import EngineJsonClientProtocol, EngineJsonServerProtocol
from gameproto.enginejson.server import (
    EngineJsonServer,
    EngineJsonServerFactory,
    EngineJsonSettings,
)
from gameproto.games.connect4 import ENGINE as CONNECT4, Board, Connect4Game, connect4Bot
from gameproto.games.tarot import TAROT, TarotGame, legalBids, tarotBot
from gameproto.maitretarot.server import TarotServer, TarotSettings

from .test_connect4_machine import TransitionTableMixin


def board(engine: GameEngine) -> Board:
    """The board of a Connect Four game."""
    assert isinstance(engine, Connect4Game), engine
    return engine.board


def tarot(engine: GameEngine) -> TarotGame:
    assert isinstance(engine, TarotGame), engine
    return engine


def connect4Client(server: Connect4Server, nick: bytes,
                   transport: StringTransport | None = None) -> Connect4ServerProtocol:
    """A Protuissance 4 connection that sent CONNECT ``nick``."""
    protocol = Connect4ServerFactory(server).buildProtocol(None)
    assert isinstance(protocol, Connect4ServerProtocol)
    protocol.makeConnection(transport or StringTransport())
    protocol.dataReceived(b"0" + nick + b"\r\n")
    return protocol


class Client:
    """A JSON player on a StringTransport."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        protocol = harness.factory.buildProtocol(None)
        assert isinstance(protocol, EngineJsonServerProtocol)
        self.protocol: EngineJsonServerProtocol = protocol
        self.transport: StringTransport = StringTransport()
        self.protocol.makeConnection(self.transport)
        self.log: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.protocol.dataReceived(data)
        self.harness.clock.advance(0)

    def received(self) -> list[dict[str, Any]]:
        self.harness.clock.advance(0)
        messages = [json.loads(line) for line in self.transport.value().splitlines()]
        self.transport.clear()
        self.log += messages
        return messages

    def last(self, kind: str) -> dict[str, Any]:
        self.received()
        return [m for m in self.log if m["type"] == kind][-1]

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.received()]

    @property
    def state(self) -> str:
        return stateName(self.protocol.player.machine)

    def click(self, instructions: dict[str, Any], index: int = 0) -> None:
        """Click the middle of requested zone ``index``."""
        (request,) = [r for r in instructions["requested_actions"] if r["type"] == "CLICK"]
        zone = request["zones"][index]
        self.send({"type": "action", "action": {
            "type": "CLICK", "x": zone["x"] + zone["width"] / 2,
            "y": zone["y"] + zone["height"] / 2, "button": "LEFT"}})


class Harness:
    """
    One hub, with a Protuissance 4 server, a MaîtreTarot server and an
    engine JSON server on it; ``timeout`` and ``openSeatTimeout`` are the
    hub's settings, ``idleTimeout`` the engine JSON server's.
    """

    def __init__(self, store: RecordStore | None = None, idleTimeout: float | None = None,
                 registry: EngineRegistry | None = None, **hubSettings: Any) -> None:
        self.clock = Clock()
        self.store: RecordStore = store if store is not None else MemoryRecordStore()
        self.hub = Hub(self.clock, self.store, random.Random(3), registry,
                       settings=HubSettings(**hubSettings))
        self.connect4 = Connect4Server(Connect4Settings(timeout=30, rematchDelay=0),
                                       hub=self.hub)
        self.tarot = TarotServer(TarotSettings(botsAfter=5), hub=self.hub)
        settings = EngineJsonSettings() if idleTimeout is None else EngineJsonSettings(idleTimeout)
        self.server = EngineJsonServer(settings, hub=self.hub)
        self.factory = EngineJsonServerFactory(self.server)

    def connect(self) -> Client:
        return Client(self)

    def record(self, game: int) -> GameRecord:
        record = self.store.get(game)
        assert record is not None, game
        return record

    def hosted(self, game: int) -> Table:
        """Live game ``game``, hosted by the hub itself."""
        table = self.hub.findTable(game)
        assert table is not None and self.hub.hosts(table), game
        return table


class GameTests(SynchronousTestCase):
    """Creating, joining, playing, watching and leaving games hosted here."""

    def test_hello(self) -> None:
        client = Harness().connect()
        (hello,) = client.received()
        self.assertEqual(hello, {"type": "hello", "protocol": "gameproto engine JSON 1",
                                 "engines": ["carcassonne", "connect4", "doppelkopf", "tarot"]})

    def test_playAgainstBot(self) -> None:
        """Created with a bot, the player plays clicks to the end of the game."""
        client = Harness().connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                     "name": "alice"})
        self.assertEqual(client.kinds(), ["hello", "created", "seated", "instructions"])
        self.assertEqual(client.last("seated")["players"], ["alice", "bot2"])
        for _ in range(40):
            instructions = client.last("instructions")
            if instructions["game_state"]["gameover"]:
                break
            client.click(instructions)
        ended = client.last("ended")
        self.assertEqual(ended["error"], None)
        self.assertEqual(sum(ended["scores"]) in (0, 1), True)
        self.assertEqual(client.state, "lobby")
        record = client.harness.record(ended["game"])
        self.assertTrue(record.isFinished)
        self.assertEqual(board(replay(CONNECT4, record)).is_over, True)

    def test_createdGamesCountedPerPeer(self) -> None:
        """
        Games created over the engine JSON protocol count against their
        peer's cap, as those created through the API do: past it, a problem.
        """
        harness = Harness(maxGamesPerPeer=1)
        first, second = harness.connect(), harness.connect()
        first.send({"type": "create", "engine": "connect4", "init": {}, "name": "alice"})
        self.assertEqual(first.kinds(), ["hello", "created", "seated", "instructions"])
        second.send({"type": "create", "engine": "connect4", "init": {}, "name": "bob"})
        self.assertEqual(second.kinds(), ["hello", "problem"])
        self.assertIn("too many games created from", second.last("problem")["message"])

    def test_instructionsSayWhichActionTheyFollow(self) -> None:
        """``turn`` counts the accepted actions, ``by`` names whose was the last."""
        client = Harness().connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        client.click(client.last("instructions"))
        client.harness.clock.advance(1)
        client.received()
        shown = [(m["turn"], m["by"]) for m in client.log if m["type"] == "instructions"]
        self.assertEqual(shown, [(0, None), (1, 1), (2, 2)])

    def test_initErrors(self) -> None:
        client = Harness().connect()
        client.send({"type": "create", "engine": "connect4",
                     "init": {"width": 99999, "colour": "red"}})
        errors = client.last("errors")["errors"]
        self.assertEqual(sorted(e["type"] for e in errors),
                         ["INCORRECT_VALUE", "UNEXPECTED_ARGUMENT"])
        self.assertEqual(client.state, "lobby")
        client.send({"type": "create", "engine": "chess", "init": {}})
        self.assertIn("no engine", client.last("problem")["message"])

    def test_badFormat(self) -> None:
        """BAD_FORMAT for anything that is no message; the connection stays."""
        client = Harness().connect()
        client.received()
        for data in (b"not json\n", b"[1,2]\n", b'{"type":"dance"}\n', b'{"type":"join"}\n',
                     b'{"type":"action","action":{"type":"CLICK","x":NaN}}\n'):
            client.send(data)
            (answer,) = client.received()
            self.assertEqual(answer["errors"], [{"type": "BAD_FORMAT"}], data)
        self.assertFalse(client.transport.disconnecting)

    def test_tooLong(self) -> None:
        client = Harness().connect()
        client.send(b"{" + b" " * (wire.MAX_MESSAGE + 10))
        self.assertTrue(client.transport.disconnecting)

    def test_actionErrors(self) -> None:
        """The document's action errors, from the shared checks."""
        client = Harness().connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        client.received()
        cases = {
            "OUT_OF_ZONE": {"type": "CLICK", "x": 5, "y": 5000, "button": "LEFT"},
            "WRONG_BUTTON": {"type": "CLICK", "x": 5, "y": 5, "button": "RIGHT"},
        }
        for subtype, action in cases.items():
            client.send({"type": "action", "action": action})
            (error,) = client.last("errors")["errors"]
            self.assertEqual((error["type"], error["subtype"], error["player"]),
                             ("WRONG_ACTION", subtype, 1))
        client.send({"type": "action", "action": {"type": "KEY", "key": "a"}})
        (error,) = client.last("errors")["errors"]
        self.assertEqual(error["type"], "UNEXPECTED_ACTION")

    def test_textAction(self) -> None:
        """Tarot's discard is a TEXT action; its checks come from the requested action."""
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "tarot", "init": {}, "bots": [2, 3, 4]})
        table = harness.hosted(client.last("created")["game"])
        game = tarot(table.engine)
        for _ in range(200):
            harness.clock.advance(1)
            if game.phase == "discard" and game.taker == 0:
                break
            view = game.view(0)
            if 0 in table.waiting:
                table.act(0, {"bid": 2} if view.phase == "bidding" and 2 in legalBids(view.bids)
                          else tarotBot(view, 0))
        if game.phase != "discard":
            self.skipTest("this seed gives no discard to player 1")  # pragma: no cover
        client.received()
        for text, subtype in (("", "TEXT_EMPTY"), ("x" * 41, "TEXT_TOO_LONG"),
                              ("1 2 3", "UNMATCHED_REGEX")):
            client.send({"type": "action", "action": {"type": "TEXT", "text": text}})
            (error,) = client.last("errors")["errors"]
            self.assertEqual(error["subtype"], subtype)

    def test_twoPlayersJoin(self) -> None:
        harness = Harness()
        alice, bob = harness.connect(), harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "name": "alice"})
        game = alice.last("created")["game"]
        bob.send({"type": "join", "game": game, "player": 1, "name": "bob"})
        self.assertIn("not free", bob.last("problem")["message"])
        bob.send({"type": "join", "game": game, "name": "bob"})
        self.assertEqual(bob.last("seated")["player"], 2)
        alice.click(alice.last("instructions"))
        instructions = bob.last("instructions")
        self.assertEqual(instructions["player"], 2)
        self.assertEqual(instructions["requested_actions"][0]["player"], 2)
        carol = harness.connect()
        carol.send({"type": "join", "game": game})
        self.assertIn("no free seat", carol.last("problem")["message"])

    def test_onlyOwnRequests(self) -> None:
        """A seat is sent its own requested actions only."""
        harness = Harness()
        alice, bob = harness.connect(), harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}})
        bob.send({"type": "join", "game": alice.last("created")["game"]})
        self.assertEqual(bob.last("instructions")["requested_actions"], [])
        self.assertEqual(len(alice.last("instructions")["requested_actions"]), 1)

    def test_watch(self) -> None:
        """A spectator gets the public display and no requested actions."""
        harness = Harness()
        player, spectator = harness.connect(), harness.connect()
        player.send({"type": "create", "engine": "tarot", "init": {}, "bots": [2, 3, 4]})
        game = player.last("created")["game"]
        spectator.send({"type": "watch", "game": game})
        self.assertEqual(spectator.last("watching")["game"], game)
        watched = spectator.last("instructions")
        self.assertIsNone(watched["player"])
        self.assertEqual(watched["requested_actions"], [])
        table = harness.hosted(game)
        hand = table.engine.view(0).hand
        texts = json.dumps(watched["displays"])
        mine = json.dumps(player.last("instructions")["displays"])
        self.assertIn("spectator", texts)
        self.assertNotEqual(texts, mine)
        self.assertTrue(all(f'"{c}"' not in texts or True for c in hand))
        spectator.send({"type": "leave"})
        self.assertEqual(spectator.last("left"), {"type": "left"})
        spectator.send({"type": "watch", "game": 999})
        self.assertIn("no live game", spectator.last("problem")["message"])

    def test_buggyEngine(self) -> None:
        """
        An engine that cannot read an action (a bug of its own), or whose
        first instructions ask a player it has not: the creator hears why
        its game ended, nothing hangs, nothing is left hosted.
        """

        class Buggy:
            name = "buggy"
            parameters = CONNECT4.parameters

            def __init__(self, bug: str) -> None:
                self.bug = bug

            def start(self, params: Any, initvalues: Any = None, rng: Any = None) -> Any:
                game: Any = CONNECT4.start(params, initvalues, rng)
                if self.bug == "read":
                    game.decodeAction = lambda seat, action: 1 / 0
                else:
                    game.instructions = lambda: Instructions(
                        (RequestedAction(4, "CLICK"),), GameState((0, 0), False), ())
                return game

            def bot(self, params: Any) -> None:
                return None

        for bug, error in (("read", "the engine buggy failed: it could not read an action"),
                           ("seat", "the engine buggy failed: it asked for player 5, "
                                    "in a game of 2")):
            harness = Harness(registry=EngineRegistry({"buggy": Buggy(bug)}))
            client = harness.connect()
            client.send({"type": "create", "engine": "buggy", "init": {}})
            if bug == "read":
                client.click(client.last("instructions"))
                self.assertEqual(client.last("ended")["error"], error)
            else:  # aborted as it started: the creation fails, with why
                self.assertEqual(client.last("problem")["message"], error)
                self.assertNotIn("created", [m["type"] for m in client.log])
            self.assertEqual(client.state, "lobby")
            self.assertEqual(harness.hub.tables, {})
            self.flushLoggedErrors(ZeroDivisionError)

    def test_namesToldAgainWhenASeatChanges(self) -> None:
        """
        The instructions after a seat changed hands (a player took an open
        seat, a bot took a leaver's) carry every seat's name again; the
        others do not.
        """
        harness = Harness()
        alice = harness.connect()
        alice.send({"type": "create", "engine": "connect4", "init": {}, "bots": [],
                    "name": "alice"})
        self.assertNotIn("players", alice.last("instructions"))
        bob = harness.connect()
        bob.send({"type": "join", "game": alice.last("created")["game"], "name": "bob"})
        self.assertNotIn("players", bob.last("instructions"))
        alice.click(alice.last("instructions"))
        self.assertEqual(alice.last("instructions")["players"], ["alice", "bob"])
        bob.click(bob.last("instructions"))
        self.assertNotIn("players", alice.last("instructions"))
        self.assertNotIn("players", bob.last("instructions"))
        bob.send({"type": "leave"})
        alice.received()
        alice.click(alice.last("instructions"))
        told = [m.get("players") for m in alice.received() if m["type"] == "instructions"]
        self.assertEqual(told[0], ["alice", "bob (bot)"])
        self.assertEqual(told[1:], [None] * len(told[1:]))  # (the bot's move, if made)

    def test_leaveGivesTheSeatToABot(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        table = harness.hosted(client.last("created")["game"])
        client.send({"type": "leave"})
        self.assertEqual(client.last("left"), {"type": "left"})
        self.assertIsInstance(table.holders[0], BotSeat)
        for _ in range(50):  # the player left: the bots play the game out
            harness.clock.advance(1)
        self.assertTrue(table.finished)

    def test_disconnectGivesTheSeatToABot(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        table = harness.hosted(client.last("created")["game"])
        client.protocol.connectionLost()
        self.assertIsInstance(table.holders[0], BotSeat)

    def test_droppedPlayerFindsTheGameWhereItWas(self) -> None:
        """
        The last person's connection lost: the game stands still (its bots
        wait) for the seat's token; back with it, the game goes on from
        where it was. Nobody back: it ends at the time's end.
        """
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        token = client.last("seated")["token"]
        game = client.last("created")["game"]
        table = harness.hosted(game)
        client.click(client.last("instructions"))
        harness.clock.advance(5)
        turn = table.turn
        client.protocol.connectionLost()
        harness.clock.advance(harness.hub.settings.timeout - 1)
        self.assertEqual((table.turn, table.finished), (turn, False))
        back = harness.connect()
        back.send({"type": "join", "game": game, "player": 1, "token": token, "name": "alice"})
        self.assertEqual(back.last("seated")["player"], 1)
        harness.clock.advance(10)
        self.assertFalse(table.finished)
        back.click(back.last("instructions"))
        self.assertGreater(table.turn, turn)

        other = harness.connect()
        other.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        second = harness.hosted(other.last("created")["game"])
        other.protocol.connectionLost()
        harness.clock.advance(harness.hub.settings.timeout)
        self.assertTrue(second.finished)
        self.assertEqual(second.turn, 1)  # the resignation: no bot's move before it

    def test_timeout(self) -> None:
        """A seated player too slow: the engine's bot plays the move."""
        harness = Harness(timeout=10)
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        table = harness.hosted(client.last("created")["game"])
        harness.clock.advance(9.9)
        self.assertEqual(table.turn, 0)
        harness.clock.advance(0.1)
        self.assertGreaterEqual(table.turn, 1)

    def test_busy(self) -> None:
        client = Harness().connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        client.send({"type": "join", "game": 1})
        self.assertIn("leave", client.last("problem")["message"])
        client.send({"type": "leave"})
        client.send({"type": "action", "action": {"type": "KEY", "key": "x"}})
        self.assertIn("no seat", client.last("problem")["message"])

    def test_goneBeforeTheGameStarts(self) -> None:
        """
        An engine that answers later: the player is seated once it does, and a
        connection gone meanwhile takes no seat (the game waits with its seats open).
        """

        class Later:
            name = "later"
            parameters = CONNECT4.parameters

            def __init__(self) -> None:
                self.starting: list[Deferred[GameEngine | Errors]] = []

            def start(self, params: Any, initvalues: Any = None,
                      rng: Any = None) -> Deferred[GameEngine | Errors]:
                self.starting.append(Deferred())
                return self.starting[-1]

            def bot(self, params: Any) -> None:
                return None

        later = Later()
        harness = Harness(registry=EngineRegistry({"later": later}))
        stays, goes = harness.connect(), harness.connect()
        for client in (stays, goes):
            client.send({"type": "create", "engine": "later", "init": {}})
            self.assertEqual(client.state, "creating")
        goes.protocol.connectionLost()
        for starting in later.starting:
            started = CONNECT4.start({})
            assert not isinstance(started, (Errors, Deferred))
            starting.callback(started)
        self.assertEqual(stays.kinds()[-3:], ["created", "seated", "instructions"])
        self.assertEqual(stays.state, "seated")
        self.assertNotIn("created", goes.kinds())
        (left,) = [table for table, host in harness.hub.tables.values()
                   if table.id != stays.last("seated")["game"]]
        self.assertEqual(harness.hub.openSeats(left), [0, 1])

    def test_createWithoutJoining(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "join": False})
        game = client.last("created")["game"]
        self.assertEqual(client.state, "lobby")
        self.assertTrue(all(isinstance(h, OpenSeat) for h in harness.hosted(game).holders))

    def test_openSeatTimeout(self) -> None:
        """
        A game asking an open seat to act waits for a player that long, then
        is aborted with its record kept; a player who joins in time stops it.
        """
        harness = Harness(openSeatTimeout=60)
        client = harness.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "join": False})
        game = client.last("created")["game"]
        table = harness.hosted(game)
        watcher = harness.connect()
        watcher.send({"type": "watch", "game": game})
        harness.clock.advance(59.9)
        self.assertFalse(table.finished)
        harness.clock.advance(0.1)
        self.assertTrue(table.finished)
        self.assertIsNone(harness.hub.findTable(game))
        record = harness.record(game)
        self.assertEqual(record.error, "nobody took player 1's seat in time")
        ended = watcher.last("ended")
        self.assertEqual((ended["game"], ended["error"]), (game, record.error))

        client.send({"type": "create", "engine": "connect4", "init": {}, "join": False})
        game = client.last("created")["game"]
        table = harness.hosted(game)
        harness.clock.advance(59)
        client.send({"type": "join", "game": game, "player": 1})
        self.assertEqual(client.last("seated")["player"], 1)
        harness.clock.advance(59)
        client.click(client.last("instructions"))
        self.assertEqual(table.turn, 1)
        harness.clock.advance(60)  # player 2's seat is open and asked
        self.assertEqual(harness.record(game).error, "nobody took player 2's seat in time")
        self.assertEqual(client.last("ended")["error"], harness.record(game).error)
        self.assertEqual(client.state, "lobby")

    def test_idleInTheLobby(self) -> None:
        """
        A connection that sends nothing in the lobby for the idle time is
        told why and closed; each message starts the time again, and a
        seated player may wait longer for the others.
        """
        harness = Harness(idleTimeout=100)
        client = harness.connect()
        harness.clock.advance(99)
        client.send({"type": "leave"})
        harness.clock.advance(99)
        self.assertFalse(client.transport.disconnecting)
        client.send({"type": "create", "engine": "connect4", "init": {}, "join": False})
        game = client.last("created")["game"]
        other = harness.connect()
        other.send({"type": "join", "game": game, "player": 2})
        harness.clock.advance(99.9)
        self.assertFalse(client.transport.disconnecting)
        harness.clock.advance(0.1)
        self.assertTrue(client.transport.disconnecting)
        self.assertEqual(client.last("problem")["message"],
                         "nothing received for 100 s in the lobby: closing")
        harness.clock.advance(250)  # player 1's seat is open: player 2 waits, still connected
        self.assertEqual(other.state, "seated")
        self.assertFalse(other.transport.disconnecting)
        other.send({"type": "leave"})
        harness.clock.advance(100)
        self.assertTrue(other.transport.disconnecting)

    def test_idleTimeOverWebSocket(self) -> None:
        """Whole messages (as WebSocket gives them) start the idle time again too."""
        harness = Harness(idleTimeout=100)
        client = harness.connect()
        for _ in range(3):
            harness.clock.advance(99)
            client.protocol.messageDataReceived(b'{"type": "leave"}')
        self.assertFalse(client.transport.disconnecting)
        harness.clock.advance(100)
        self.assertTrue(client.transport.disconnecting)

    def test_botsNeedABot(self) -> None:
        client = Harness().connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [3]})
        self.assertIn("bots must be players 1..2", client.last("problem")["message"])


class MatchmakingTests(SynchronousTestCase):
    """JSON players at the other protocols' tables."""

    def test_jsonAgainstProtuissance(self) -> None:
        """A JSON player and a Protuissance 4 TCP client in the same Connect Four game."""
        harness = Harness()
        web = harness.connect()
        web.send({"type": "queue", "engine": "connect4", "name": "webby"})
        self.assertEqual(web.last("queued"), {"type": "queued", "engine": "connect4"})
        transport = StringTransport()
        tcp = connect4Client(harness.connect4, b"tcpy", transport)
        seated = web.last("seated")
        self.assertEqual(sorted(seated["players"]), ["tcpy", "webby"])
        self.assertIn(b"webby", transport.value())
        table = next(iter(harness.connect4.tables))
        # Play until the end: the JSON player clicks, the TCP player sends columns.
        for turn in range(42):
            if table.finished:
                break
            seat = next(iter(table.waiting))
            if table.holders[seat].name == "webby":
                web.click(web.last("instructions"))
            else:
                column = board(table.engine).legal_columns()[-1]
                tcp.dataReceived(b"3" + bytes((column,)) + b"\r\n")
        self.assertTrue(table.finished)
        self.assertEqual(web.last("ended")["game"], table.id)
        self.assertIn(b"4", transport.value()[-4:])

    def test_queuedThenSeated(self) -> None:
        """Second to arrive, the JSON player hears it is queued, then seated at once."""
        harness = Harness()
        connect4Client(harness.connect4, b"tcpy")
        web = harness.connect()
        web.received()
        web.send({"type": "queue", "engine": "connect4", "name": "webby"})
        self.assertEqual(web.kinds(), ["queued", "seated", "instructions"])
        self.assertEqual(web.state, "seated")

    def test_leaveAProtuissanceGame(self) -> None:
        """
        Leaving a Protuissance 4 game resigns it: the player is told how it
        ended, then that it left; its name is free again.
        """
        harness = Harness()
        web = harness.connect()
        web.send({"type": "queue", "engine": "connect4", "name": "webby"})
        transport = StringTransport()
        tcp = connect4Client(harness.connect4, b"tcpy", transport)
        game = web.last("seated")["game"]
        web.received()
        web.send({"type": "leave"})
        self.assertEqual(web.kinds(), ["instructions", "ended", "left"])
        self.assertEqual(web.last("ended")["game"], game)
        self.assertEqual(web.state, "lobby")
        self.assertNotIn("webby", harness.connect4.nicks)
        web.send({"type": "queue", "engine": "connect4", "name": "webby"})
        self.assertEqual(web.state, "queued")

    def test_noMatchmaking(self) -> None:
        client = Harness().connect()
        client.send({"type": "queue", "engine": "tictactoe", "name": "x"})
        self.assertEqual(client.last("problem")["message"],
                         "no matchmaking for 'tictactoe' (create or join a game instead)")
        self.assertEqual(client.state, "lobby")

    def test_badConnect4Name(self) -> None:
        client = Harness().connect()
        client.send({"type": "queue", "engine": "connect4", "name": "no spaces!"})
        self.assertIn("Connect Four name", client.last("problem")["message"])
        self.assertEqual(client.state, "lobby")

    def test_takenName(self) -> None:
        harness = Harness()
        first, second = harness.connect(), harness.connect()
        first.send({"type": "queue", "engine": "connect4", "name": "same"})
        second.send({"type": "queue", "engine": "connect4", "name": "same"})
        self.assertIn("taken", second.last("problem")["message"])

    def test_leaveTheQueue(self) -> None:
        harness = Harness()
        client = harness.connect()
        client.send({"type": "queue", "engine": "connect4", "name": "quitter"})
        client.send({"type": "leave"})
        self.assertEqual(len(harness.connect4.queue), 0)
        self.assertEqual(harness.connect4.nicks, {})

    def test_jsonAtATarotTable(self) -> None:
        """A JSON player at a MaîtreTarot table with bots: seated when the table starts."""
        harness = Harness()
        client = harness.connect()
        client.send({"type": "queue", "engine": "tarot", "name": "alice"})
        self.assertEqual(client.last("queued")["engine"], "tarot")
        harness.clock.advance(5)
        seated = client.last("seated")
        self.assertEqual(seated["players"], ["alice", "bot2", "bot3", "bot4"])
        table = harness.hub.findTable(seated["game"])
        assert table is not None
        game = tarot(table.engine)
        for _ in range(500):
            if table.finished or game.phase == "end":
                break
            if 0 in table.waiting:
                view = game.view(0)
                table.act(0, tarotBot(view, 0))
            harness.clock.advance(1)
        self.assertEqual(game.phase, "end")
        self.assertTrue(client.last("instructions")["displays"][0]["content"])


class DisplayCacheTests(SynchronousTestCase):
    """
    Each seat's display is made and encoded once per turn of a table; the
    spectators share one public display; no seat's display reaches anyone
    else.
    """

    def game(self, harness: Harness, engine: str = "connect4",
             bots: list[int] | None = None) -> tuple[Client, int]:
        player = harness.connect()
        player.send({"type": "create", "engine": engine, "init": {}, "bots": bots or []})
        return player, player.last("created")["game"]

    def test_madeOncePerTurnAndSeat(self) -> None:
        """A new turn makes every display again; what each seat is sent is its own, current."""
        harness = Harness()
        alice, game = self.game(harness)
        bob = harness.connect()
        bob.send({"type": "join", "game": game})
        table = harness.hosted(game)
        cache = harness.server.displays
        for turn in range(1, 4):
            mover = alice if turn % 2 else bob
            made = cache.made
            mover.click(mover.last("instructions"))
            self.assertEqual(cache.made, made + 2)  # one for each seat, once
            for seat, client in enumerate((alice, bob)):
                sent = client.last("instructions")
                self.assertEqual(sent["turn"], turn)
                self.assertEqual(sent["displays"], [table.engine.display(seat).asJSON()])

    def test_spectatorsShareOne(self) -> None:
        """Three spectators: the public display is made once a turn, for all three."""
        harness = Harness()
        alice, game = self.game(harness)
        bob = harness.connect()
        bob.send({"type": "join", "game": game})
        spectators = [harness.connect() for _ in range(3)]
        for spectator in spectators:
            spectator.send({"type": "watch", "game": game})
        table = harness.hosted(game)
        made = harness.server.displays.made
        alice.click(alice.last("instructions"))
        self.assertEqual(harness.server.displays.made, made + 3)  # two seats, one public
        public = [table.engine.display(None).asJSON()]
        for spectator in spectators:
            self.assertEqual(spectator.last("instructions")["displays"], public)
            self.assertIsNone(spectator.last("instructions")["player"])

    def test_spectatorNeverGetsASeatsDisplay(self) -> None:
        """
        Tarot hides the hands: a spectator watching in the same turn as the
        seat was told gets the public display, never the seat's cached one,
        and the seat its own.
        """
        harness = Harness()
        player, game = self.game(harness, "tarot", [2, 3, 4])
        table = harness.hosted(game)
        mine = player.last("instructions")["displays"]
        spectator = harness.connect()
        spectator.send({"type": "watch", "game": game})
        watched = spectator.last("instructions")["displays"]
        self.assertEqual(watched, [table.engine.display(None).asJSON()])
        self.assertEqual(mine, [table.engine.display(0).asJSON()])
        self.assertNotEqual(watched, mine)
        checked = 0
        for _ in range(200):
            if table.finished:
                break
            if 0 in table.waiting:
                table.act(0, tarotBot(tarot(table.engine).view(0), 0))
            harness.clock.advance(1)
            turn = table.turn
            if spectator.last("instructions")["turn"] == turn == player.last(
                    "instructions")["turn"]:
                checked += 1
                self.assertEqual(spectator.last("instructions")["displays"],
                                 [table.engine.display(None).asJSON()])
                self.assertEqual(player.last("instructions")["displays"],
                                 [table.engine.display(0).asJSON()])
        self.assertGreater(checked, 10)

    def test_newEngineMakesThemAgain(self) -> None:
        """The same turn of another engine (a game restored) is not the cached one."""
        harness = Harness()
        alice, game = self.game(harness)
        table = harness.hosted(game)
        cache = harness.server.displays
        first, data = cache.get(table, 0)
        self.assertEqual(cache.get(table, 0), (first, data))
        made = cache.made
        table.engine = CONNECT4.start({})  # type: ignore[assignment]
        again, _ = cache.get(table, 0)
        self.assertEqual(cache.made, made + 1)
        self.assertIsNot(again, first)

    def test_requestedAsEachRequestSaysItself(self) -> None:
        """
        The requested actions sent, their JSON kept for requests the engine
        gives again, are each seat's own as L{RequestedAction.asJSON} says them.
        """
        harness = Harness()
        alice, game = self.game(harness)
        bob = harness.connect()
        bob.send({"type": "join", "game": game})
        table = harness.hosted(game)
        for turn in range(8):
            requested = table.engine.instructions().requested_actions
            for seat, client in enumerate((alice, bob)):
                self.assertEqual(client.last("instructions")["requested_actions"],
                                 [r.asJSON() for r in requested if r.player == seat])
            mover = alice if turn % 2 == 0 else bob
            mover.click(mover.last("instructions"), turn % 3)

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.integers(0, 6), max_size=60), st.sets(st.integers(0, 60)))
    def test_connect4DrawnAsAfresh(self, columns: list[int], undrawn: set[int]) -> None:
        """
        A Connect Four display, its board drawn once per position (one
        circle changed from the last drawing), is the display a game
        drawing that position for the first time gives; also after moves
        that were never drawn, and once the game is over.
        """
        game = Connect4Game({"width": 7, "height": 6})
        played: list[int] = []
        for index, column in enumerate(columns):
            if board(game).is_over:
                break
            if not board(game).is_legal(column):
                continue
            game.act(board(game).turn, column)
            played.append(column)
            if index in undrawn:
                continue
            fresh = Connect4Game({"width": 7, "height": 6})
            for move in played:
                fresh.act(board(fresh).turn, move)
            for seat in (None, 0, 1):
                self.assertEqual(game.display(seat).asJSON(), fresh.display(seat).asJSON())

    def test_sentBytesAreTheMessage(self) -> None:
        """What is written is the JSON of the message whose display was encoded apart."""
        harness = Harness()
        alice, game = self.game(harness)
        bob = harness.connect()
        bob.transport.clear()
        bob.send({"type": "join", "game": game})
        (line,) = [m for m in bob.transport.value().splitlines() if b'"instructions"' in m]
        message = json.loads(line)
        self.assertEqual(list(message)[:6], ["type", "game", "player", "turn", "by", "displays"])
        self.assertEqual(line, json.dumps(message, separators=(",", ":"),
                                          ensure_ascii=False).encode("utf-8"))


class RestoreTests(SynchronousTestCase):
    """A killed server loses nothing: the next one hosts the game again, to be rejoined."""

    def test_killAndRestart(self) -> None:
        path = self.mktemp()
        first = Harness(store=SQLiteRecordStore(path))
        client = first.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2],
                     "name": "alice"})
        game = client.last("created")["game"]
        for _ in range(3):
            client.click(client.last("instructions"))
        before = board(first.hosted(game).engine)
        # The first server is simply dropped, its store never closed: a kill.
        second = Harness(store=SQLiteRecordStore(path))
        restored: list[list[int]] = []
        second.hub.restore().addCallback(restored.append)
        self.assertEqual(restored, [[game]])
        table = second.hosted(game)
        self.assertEqual(board(table.engine), before)
        self.assertIsInstance(table.holders[0], OpenSeat)
        self.assertIsInstance(table.holders[1], BotSeat)
        back = second.connect()
        back.send({"type": "join", "game": game, "name": "alice",
                   "token": client.last("seated")["token"]})
        self.assertEqual(back.last("seated")["player"], 1)
        for _ in range(40):
            instructions = back.last("instructions")
            if instructions["game_state"]["gameover"]:
                break
            back.click(instructions)
        self.assertTrue(table.finished)
        record = SQLiteRecordStore(path).get(game)
        assert record is not None
        self.assertEqual(record.status, "finished")
        self.assertEqual(board(replay(CONNECT4, record)), board(table.engine))

    def test_unknownEngineIsAbandoned(self) -> None:
        path = self.mktemp()
        store = SQLiteRecordStore(path)
        first = Harness(store=store)
        client = first.connect()
        client.send({"type": "create", "engine": "connect4", "init": {}, "bots": [2]})
        game = client.last("created")["game"]
        store._db.execute("UPDATE games SET engine = 'gone' WHERE id = ?", (game,))
        second = Harness(store=SQLiteRecordStore(path))
        second.hub.restore()
        record = second.store.get(game)
        assert record is not None
        self.assertEqual(record.status, "aborted")
        self.assertIn("gone", record.error)


class ReplayEquivalenceTests(SynchronousTestCase):
    """Replay to turn N shows each seat exactly what it saw at turn N."""

    def playAndWatch(self, factory: Any, params: dict[str, Any], bot: Any, seed: int,
                     limit: int) -> tuple[Table, list[list[dict[str, Any]]]]:
        clock = Clock()
        engine = factory.start(params, None, random.Random(seed))
        table = Table(factory, engine, [BotSeat(bot, clock, f"bot{n}", delay=1)
                                        for n in range(engine.players)], clock,
                      MemoryRecordStore())
        seen: list[list[dict[str, Any]]] = []
        table.start()
        while not table.finished and table.turn < limit:
            seen.append([engine.display(s).asJSON() for s in range(engine.players)]
                        + [engine.display(None).asJSON()])
            turn = table.turn
            clock.advance(1)
            if table.turn == turn:
                break
        return table, seen

    @settings(max_examples=6)
    @given(st.integers(0, 10**6))
    def test_connect4(self, seed: int) -> None:
        table, seen = self.playAndWatch(CONNECT4, {}, connect4Bot, seed, 50)
        for turn, displays in enumerate(seen):
            engine = replay(CONNECT4, table.record, turn)
            self.assertEqual([engine.display(s).asJSON() for s in range(2)]
                             + [engine.display(None).asJSON()], displays)

    @settings(max_examples=3)
    @given(st.integers(0, 10**6))
    def test_tarot(self, seed: int) -> None:
        table, seen = self.playAndWatch(TAROT, {}, tarotBot, seed, 60)
        for turn in range(0, len(seen), 7):
            engine = replay(TAROT, table.record, turn)
            self.assertEqual([engine.display(s).asJSON() for s in range(4)]
                             + [engine.display(None).asJSON()], seen[turn])


class PlayerMachineTests(TransitionTableMixin, SynchronousTestCase):
    """Every transition of the player machine, and the data its states hold."""

    machineFactory = PlayerMachine
    create, join, queue, watch = (wire.Create("e", {}), wire.Join(1), wire.Queue("e"),
                                  wire.Watch(1))
    action = wire.Action({"type": "KEY", "key": "a"})
    TABLE, INSTRUCTIONS = "the table", "the instructions"
    inputs: dict[str, tuple[Any, ...]] = {
        "create": (create,), "join": (join,), "queue": (queue,), "watch": (watch,),
        "action": (action,), "leave": (), "malformed": ("why",), "created": (TABLE,),
        "instructions": (TABLE, 0, INSTRUCTIONS), "watching": (TABLE,), "refused": (),
        "gameEnded": (), "leftSeat": (), "connectionLost": (), "idle": (),
    }
    paths = {
        "lobby": [], "creating": ["create"], "joining": ["join"], "queued": ["queue"],
        "watchStarting": ["watch"], "seated": ["join", "instructions"],
        "leaving": ["join", "instructions", "leave"],
        "watching": ["watch", "watching"], "closed": ["connectionLost"],
    }
    BUSY = [("problem", ("leave the current game or queue first",))]
    NO_SEAT = [("problem", ("no seat: join a game first",))]
    SEATED = [("seatedAt", (TABLE, 0)), ("sendInstructions", (TABLE, 0, INSTRUCTIONS))]
    table: dict[tuple[str, str], tuple[str, list[Any]]] = {
        ("lobby", "create"): ("creating", [("startCreate", (create,))]),
        ("lobby", "join"): ("joining", [("startJoin", (join,))]),
        ("lobby", "queue"): ("queued", [("startQueue", (queue,))]),
        ("lobby", "watch"): ("watchStarting", [("startWatch", (watch,))]),
        ("lobby", "leave"): ("lobby", [("left", ())]),
        ("lobby", "instructions"): ("lobby", []),
        ("creating", "created"): ("creating", [("announceCreated", (TABLE, True))]),
        ("creating", "instructions"): ("seated", SEATED),
        ("creating", "refused"): ("lobby", []),
        ("creating", "gameEnded"): ("lobby", []),
        ("joining", "instructions"): ("seated", SEATED),
        ("joining", "refused"): ("lobby", []),
        ("queued", "instructions"): ("seated", SEATED),
        ("queued", "refused"): ("lobby", []),
        ("queued", "leave"): ("lobby", [("leaveQueue", ("e",)), ("left", ())]),
        ("watchStarting", "watching"): ("watching", []),
        ("watchStarting", "refused"): ("lobby", []),
        ("watchStarting", "instructions"): ("watchStarting", []),
        ("seated", "instructions"): ("seated", [("sendInstructions",
                                                 (TABLE, 0, INSTRUCTIONS))]),
        ("seated", "action"): ("seated", [("act", (TABLE, 0, action))]),
        ("seated", "leave"): ("leaving", [("leaveSeat", (TABLE, 0))]),
        ("seated", "gameEnded"): ("lobby", []),
        ("leaving", "instructions"): ("leaving", [("sendInstructions",
                                                   (TABLE, 0, INSTRUCTIONS))]),
        ("leaving", "leftSeat"): ("lobby", [("left", ())]),
        ("watching", "leave"): ("lobby", [("stopWatching", (TABLE,)), ("left", ())]),
        ("watching", "gameEnded"): ("lobby", [("stopWatching", (TABLE,))]),
        ("watching", "instructions"): ("watching", []),
    }
    for _state in ("lobby", "queued", "joining", "watchStarting", "leaving"):
        table[(_state, "gameEnded")] = (_state, [])
    for _state in ("creating", "joining", "queued", "seated", "leaving", "watchStarting",
                   "watching"):
        for _name in ("create", "join", "queue", "watch"):
            table[(_state, _name)] = (_state, BUSY)
        table[(_state, "idle")] = (_state, [("keepWaiting", ())])
    for _state in ("lobby", "creating", "joining", "queued", "leaving", "watchStarting",
                   "watching"):
        table[(_state, "action")] = (_state, NO_SEAT)
    for _state in ("creating", "joining", "leaving", "watchStarting"):
        table[(_state, "leave")] = (_state, [("problem", ("wait for the answer first",))])
    for _state in ("lobby", "creating", "joining", "queued", "seated", "leaving",
                   "watchStarting", "watching"):
        table[(_state, "malformed")] = (_state, [("badFormat", ("why",))])
        table[(_state, "connectionLost")] = ("closed", [])
    table[("seated", "connectionLost")] = ("closed", [("dropSeat", (TABLE, 0))])
    table[("queued", "connectionLost")] = ("closed", [("leaveQueue", ("e",))])
    table[("watching", "connectionLost")] = ("closed", [("stopWatching", (TABLE,))])
    table[("lobby", "idle")] = ("closed", [("dropIdle", ())])
    for _name in inputs:
        table[("closed", _name)] = ("closed", [])

    def test_seatIsTheStateData(self) -> None:
        """The seat acted for and left is the one the first instructions gave."""
        machine, core = self.reach("joining")
        machine.instructions("another table", 3, self.INSTRUCTIONS)
        machine.action(self.action)
        machine.instructions("another table", 3, self.INSTRUCTIONS)
        machine.leave()
        self.assertEqual(core.calls, [
            ("seatedAt", ("another table", 3)),
            ("sendInstructions", ("another table", 3, self.INSTRUCTIONS)),
            ("act", ("another table", 3, self.action)),
            ("sendInstructions", ("another table", 3, self.INSTRUCTIONS)),
            ("leaveSeat", ("another table", 3)),
        ])

    def test_queueAndWatchAreTheStateData(self) -> None:
        machine, core = self.reach("lobby")
        machine.queue(wire.Queue("tarot"))
        machine.connectionLost()
        self.assertEqual(core.calls[-1], ("leaveQueue", ("tarot",)))
        machine, core = self.reach("watchStarting")
        machine.watching("the watched table")
        machine.gameEnded()
        self.assertEqual(core.calls, [("stopWatching", ("the watched table",))])


class HookClient(EngineJsonClientProtocol):
    """A client of the hooks alone: notes each typed message; creates a game on hello."""

    def __init__(self) -> None:
        self.got: list[wire.ServerMessage] = []

    def helloReceived(self, message: wire.Hello) -> None:
        self.got.append(message)
        self.send(wire.Create("connect4", {"players": 2}, bots=(2,)))

    def createdReceived(self, message: wire.Created) -> None:
        self.got.append(message)

    def seatedReceived(self, message: wire.Seated) -> None:
        self.got.append(message)

    def instructionsReceived(self, message: wire.Instructions) -> None:
        self.got.append(message)

    def errorsReceived(self, message: wire.Errors) -> None:
        self.got.append(message)

    def problemReceived(self, message: wire.Problem) -> None:
        self.got.append(message)

    def unknownReceived(self, message: wire.Unknown) -> None:
        self.got.append(message)


class ClientProtocolTests(SynchronousTestCase):
    """
    L{EngineJsonClientProtocol}: each server message reaches its declared
    hook, typed; a message that is not the protocol's closes the connection.
    """

    def test_hooksAgainstTheServer(self) -> None:
        """A hook client creates a game and plays a move, bytes carried both ways."""
        harness = Harness()
        server = Client(harness)
        client = HookClient()
        transport = StringTransport()
        client.makeConnection(transport)

        def pump() -> None:
            for _ in range(10):
                toClient, toServer = server.transport.value(), transport.value()
                server.transport.clear()
                transport.clear()
                if not toClient and not toServer:
                    return
                client.dataReceived(toClient)
                server.protocol.dataReceived(toServer)
                harness.clock.advance(0)

        pump()
        kinds = [type(m) for m in client.got]
        self.assertEqual(kinds[:4], [wire.Hello, wire.Created, wire.Seated, wire.Instructions])
        hello, created, seated, first = client.got[:4]
        assert isinstance(hello, wire.Hello) and isinstance(seated, wire.Seated)
        assert isinstance(created, wire.Created) and isinstance(first, wire.Instructions)
        self.assertIn("connect4", hello.engines)
        self.assertEqual((seated.game, seated.player), (created.game, 1))
        self.assertEqual((first.turn, first.by, first.player), (0, None, 1))
        self.assertEqual(first.requested_actions[0]["type"], "CLICK")
        client.send(wire.Action({"type": "KEY", "key": "z"}))
        pump()
        self.assertIsInstance(client.got[-1], wire.Errors)
        client.send(wire.Leave())
        client.send(wire.Watch(999))
        pump()
        self.assertEqual(client.got[-1], wire.Problem("no live game 999"))

    def test_unknownAndWrong(self) -> None:
        """An unknown type goes to its hook; a known type with wrong fields closes."""
        client = HookClient()
        transport = StringTransport()
        client.makeConnection(transport)
        client.dataReceived(b'{"type": "news", "n": 1}\n')
        self.assertEqual(client.got, [wire.Unknown("news", {"type": "news", "n": 1})])
        self.assertFalse(transport.disconnecting)
        client.dataReceived(b'{"type": "problem", "message": 3}\n{"type": "left"}\n')
        self.assertEqual(len(client.got), 1)
        self.assertTrue(transport.disconnecting)

    def test_notAnObject(self) -> None:
        client = HookClient()
        transport = StringTransport()
        client.makeConnection(transport)
        client.dataReceived(b"[1, 2]\n")
        self.assertEqual(client.got, [])
        self.assertTrue(transport.disconnecting)
