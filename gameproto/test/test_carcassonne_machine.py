"""
Carcassonne connections on string transports and a test clock: the
document's sequence from HELLO to FINISH, NOOP for what a phase does not
allow, timeouts, departures, the referee and bots.
"""

from __future__ import annotations

from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto.carcassonne import wire
from gameproto.carcassonne.machine import stateName
from gameproto.carcassonne.server import MOVES, CarcassonneSettings, rulesFollow
from gameproto.engine.contract import Instructions
from gameproto.engine.relay import RelayGame
from gameproto.engine.table import Table
from gameproto.games.carcassonne_relayed import RelayedGame

from .carcassonne_helpers import Conn, StubRules, makeServer
from .hardening_helpers import LogCapture
from .test_metrics import sample

Hello, HelloAck, Ready, Close, Start = wire.Hello, wire.HelloAck, wire.Ready, wire.Close, wire.Start
Token, Move, MoveAck, MoveNack = wire.Token, wire.Move, wire.MoveAck, wire.MoveNack
Finish, Noop = wire.Finish, wire.Noop

SETTINGS = CarcassonneSettings(timeout=20, ackTimeout=5, referee=False, botsAfter=30,
                               botDelay=0)


def move(x: int, y: int, token: int, tile: str = "tile-u", n: int = 0) -> wire.Move:
    return Move(n, tile, x, y, "N", None, token)


class Base(SynchronousTestCase):
    settings = SETTINGS
    rules: StubRules | None = None

    def setUp(self) -> None:
        self.server, self.clock = makeServer(self.settings, self.rules)

    def table(self) -> Table:
        tables = [room.table for room in self.server.playing if room.table is not None]
        self.assertEqual(len(tables), 1)
        assert tables[0] is not None
        return tables[0]

    def join(self, count: int) -> list[Conn]:
        """``count`` connections, each having said HELLO (and answered the HELLOs)."""
        conns: list[Conn] = []
        for _ in range(count):
            conn = Conn(self.server)
            conn.say(Hello(0))
            for other in conns:
                other.say(HelloAck(0))
            conns.append(conn)
        for conn in conns:
            conn.received()
        return conns

    def start(self, count: int) -> list[Conn]:
        """``count`` players in a started game; the first holds the token."""
        conns = self.join(count)
        for conn in conns:
            conn.say(Ready(0))
        received = [conn.received() for conn in conns]
        self.assertEqual(received[0][0], Start())
        self.assertIsInstance(received[0][1], Token)
        for got in received[1:]:
            self.assertEqual(got, [Start()])
        token = received[0][1]
        assert isinstance(token, Token)
        self.token = token.token
        return conns

    def playTurn(self, conns: list[Conn], mover: int, x: int, y: int) -> int:
        """``conns[mover]`` moves with its token, every other acknowledges: the next token."""
        conns[mover].say(move(x, y, self.token))
        for i, conn in enumerate(conns):
            if i != mover and not conn.closed:
                got = conn.received()
                self.assertEqual(got, [move(x, y, self.token, n=mover + 1)])
                conn.say(MoveAck())
        self.assertEqual(conns[mover].received(), [MoveAck()])
        nxt = (mover + 1) % len(conns)
        got = conns[nxt].received()
        self.assertEqual(len(got), 1)
        token = got[0]
        assert isinstance(token, Token)
        self.assertNotEqual(token.token, 0)
        self.token = token.token
        return nxt


class HelloTests(Base):
    def test_alone(self) -> None:
        """A client alone gets HELLONACK."""
        conn = Conn(self.server)
        conn.send(b"HELLO 9")
        self.assertEqual(conn.received(), [wire.HelloNack()])
        self.assertEqual(stateName(conn.protocol.player.machine), "waiting")

    def test_helloRelayed(self) -> None:
        """A newcomer's HELLO goes to the others with its number; their HELLOACK n come back."""
        a, b, c = Conn(self.server), Conn(self.server), Conn(self.server)
        a.say(Hello(0))
        b.say(Hello(7))
        self.assertEqual(a.received(), [wire.HelloNack(), Hello(2)])
        self.assertEqual(b.received(), [])
        a.say(HelloAck(0))
        self.assertEqual(b.received(), [HelloAck(1)])
        c.say(Hello(0))
        self.assertEqual(a.received(), [Hello(3)])
        self.assertEqual(b.received(), [Hello(3)])
        b.say(HelloAck(5))
        a.say(HelloAck(5))
        self.assertEqual(c.received(), [HelloAck(2), HelloAck(1)])
        a.say(HelloAck(0))  # nobody left to acknowledge: ignored
        self.assertEqual([a.received(), b.received(), c.received()], [[], [], []])

    def test_beforeHello(self) -> None:
        """Anything but HELLO or CLOSE first gets NOOP; a malformed line too."""
        conn = Conn(self.server)
        conn.send(b"READY 1", b"MOVEACK", b"hello", b"WHAT 1", b"(x")
        self.assertEqual(conn.received(), [Noop()] * 5)
        self.assertEqual(stateName(conn.protocol.player.machine), "connected")

    def test_tooLong(self) -> None:
        """A line over the limit is one NOOP; the connection goes on."""
        conn = Conn(self.server)
        conn.send(b"HELLO " + b"1" * 1000, b"HELLO 1")
        self.assertEqual(conn.received(), [Noop(), wire.HelloNack()])

    def test_helloTimeout(self) -> None:
        conn = Conn(self.server)
        self.clock.advance(SETTINGS.timeout)
        self.assertTrue(conn.closed)

    def test_goneBeforeHello(self) -> None:
        """A connection gone before its HELLO leaves no timer behind."""
        conn = Conn(self.server)
        self.assertEqual(len(self.clock.getDelayedCalls()), 1)
        conn.protocol.connectionLost(Failure(ConnectionDone()))
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_closeBeforeStart(self) -> None:
        """CLOSE n goes to the others; the place is free again."""
        a, b, c = self.join(3)
        b.say(Close(0))
        self.assertTrue(b.closed)
        self.assertEqual(a.received(), [Close(2)])
        self.assertEqual(c.received(), [Close(2)])
        d = Conn(self.server)
        d.say(Hello(0))
        self.assertEqual(a.received(), [Hello(2)])

    def test_closeIsNotAFault(self) -> None:
        """
        A client's CLOSE ends its connection as the protocol says: no fault
        line, no refusal counted.
        """
        logged = LogCapture(self)
        a, b = self.join(2)
        b.say(Close(0))
        self.assertTrue(b.closed)
        self.assertEqual(logged.lines("gameproto.faults"), [])
        self.assertIsNone(sample(self.server.hub, "gameproto_refused_total",
                                 protocol="carcassonne", cause="dropped"))

    def test_startWhenAllReady(self) -> None:
        """No START until every member is ready; then TOKEN to player 1 only."""
        a, b, c = self.join(3)
        a.say(Ready(0))
        b.say(Ready(0))
        self.assertEqual([a.received(), b.received()], [[], []])
        c.say(Ready(0))
        got = a.received()
        self.assertEqual(got[0], Start())
        self.assertIsInstance(got[1], Token)
        self.assertEqual(b.received(), [Start()])
        self.assertEqual(stateName(c.protocol.player.machine), "playing")

    def test_fullRoom(self) -> None:
        """A sixth client starts a new room."""
        conns = self.join(5)
        sixth = Conn(self.server)
        sixth.say(Hello(0))
        self.assertEqual(sixth.received(), [wire.HelloNack()])
        self.assertEqual([c.received() for c in conns], [[]] * 5)


class GameTests(Base):
    def test_turns(self) -> None:
        """MOVE to the others; their MOVEACKs; MOVEACK to the mover and TOKEN to the next."""
        conns = self.start(3)
        nxt = self.playTurn(conns, 0, 72, 73)
        nxt = self.playTurn(conns, nxt, 72, 74)
        nxt = self.playTurn(conns, nxt, 72, 75)
        self.assertEqual(nxt, 0)
        record = self.table().record
        self.assertEqual(record.engine, "carcassonne-relay")  # referee off: the relay's name
        self.assertEqual(len(record.actions), 3)

    def test_wrongToken(self) -> None:
        """A MOVE without the current token gets NOOP and is not relayed."""
        a, b = self.start(2)
        a.say(move(72, 73, self.token + 1))
        b.say(move(72, 73, self.token))
        self.assertEqual(a.received(), [Noop()])
        self.assertEqual(b.received(), [Noop()])
        self.playTurn([a, b], 0, 72, 73)

    def test_ackMissing(self) -> None:
        """The mover waits for every MOVEACK; a stray MOVEACK is ignored."""
        a, b, c = self.start(3)
        a.say(move(72, 73, self.token))
        b.received(), c.received()
        b.say(MoveAck())
        b.say(MoveAck())
        self.assertEqual(a.received(), [])
        c.say(MoveAck())
        self.assertEqual(a.received(), [MoveAck()])
        self.assertIsInstance(b.received()[0], Token)

    def test_moveNack(self) -> None:
        """A MOVENACK stops the game: MOVENACK to the others but the mover, FINISH n to all."""
        a, b, c = self.start(3)
        a.say(move(72, 73, self.token))
        b.received(), c.received()
        c.say(MoveNack())
        self.assertEqual(a.received(), [Finish(3)])
        self.assertEqual(b.received(), [MoveNack(), Finish(3)])
        self.assertEqual(c.received(), [Finish(3)])
        for conn in (a, b, c):
            self.assertEqual(stateName(conn.protocol.player.machine), "over")
        self.assertTrue(self.table().finished if self.server.playing else True)
        a.say(move(72, 74, self.token))
        self.assertEqual(a.received(), [Noop()])
        a.say(Close(0))
        self.assertTrue(a.closed)

    def test_finishRelayed(self) -> None:
        a, b = self.start(2)
        table = self.table()
        b.say(Finish(0))
        self.assertEqual(a.received(), [Finish(2)])
        self.assertEqual(b.received(), [])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.error, None)

    def test_lastTile(self) -> None:
        """After the 71st move is acknowledged, the server sends FINISH 0."""
        a, b = self.start(2)
        conns, mover = [a, b], 0
        table = self.table()
        for i in range(MOVES - 1):
            mover = self.playTurn(conns, mover, 72, 73 + i)
        conns[mover].say(move(100, 100, self.token))
        other = conns[1 - mover]
        self.assertEqual(len(other.received()), 1)
        other.say(MoveAck())
        self.assertEqual(conns[mover].received(), [MoveAck(), Finish(0)])
        self.assertEqual(other.received(), [Finish(0)])
        self.assertTrue(table.finished)
        self.assertEqual(len(table.record.actions), MOVES + 1)  # and the finish

    def test_closeMidGame(self) -> None:
        """CLOSE n mid-game: relayed, the player removed, the turn goes on."""
        a, b, c = self.start(3)
        a.say(Close(0))
        close, token = b.received()
        self.assertEqual(close, Close(1))
        self.assertIsInstance(token, Token)
        self.assertEqual(c.received(), [Close(1)])

    def test_lastPlayerLeft(self) -> None:
        """A game left with one player ends: it hears CLOSE n, then FINISH 0."""
        a, b = self.start(2)
        table = self.table()
        b.protocol.transport.loseConnection()  # type: ignore[union-attr]
        b.protocol.connectionLost()
        self.assertEqual(a.received(), [Close(2), Finish(0)])
        self.assertTrue(table.finished)

    def test_moveTimeout(self) -> None:
        """A player silent past its time is removed: CLOSE n to the others."""
        a, b, c = self.start(3)
        self.clock.advance(SETTINGS.timeout)
        self.assertTrue(a.closed)
        self.assertEqual(b.received()[0], Close(1))
        self.assertEqual(c.received(), [Close(1)])

    def test_ackTimeout(self) -> None:
        """A player who does not acknowledge in time is removed; the game goes on."""
        a, b, c = self.start(3)
        a.say(move(72, 73, self.token))
        b.received(), c.received()
        b.say(MoveAck())
        self.clock.advance(SETTINGS.ackTimeout)
        self.assertTrue(c.closed)
        self.assertEqual(a.received(), [Close(3), MoveAck()])
        got = b.received()
        self.assertEqual(got[0], Close(3))
        self.assertIsInstance(got[1], Token)

    def test_relayEngine(self) -> None:
        """Referee off: the table's engine is the relay, its tokens the TOKENs."""
        a, b = self.start(2)
        engine = self.table().engine
        assert isinstance(engine, RelayGame)
        self.assertEqual(engine.token, self.token)

    def test_overLinger(self) -> None:
        """After the game, a client that says nothing is closed after the timeout."""
        a, b = self.start(2)
        b.say(Finish(0))
        self.clock.advance(SETTINGS.timeout)
        self.assertTrue(a.closed)


class RefereeTests(Base):
    settings = CarcassonneSettings(timeout=20, ackTimeout=5, referee=True, botsAfter=30,
                                   botDelay=0)
    rules = StubRules()

    def test_refused(self) -> None:
        """A move the rules refuse: MOVENACK to the mover, not relayed; it tries again."""
        a, b = self.start(2)
        a.say(move(72, 72, self.token))  # the start tile is there
        self.assertEqual(a.received(), [MoveNack()])
        self.assertEqual(b.received(), [])
        a.say(move(1, 1, self.token))
        self.assertEqual(a.received(), [MoveNack()])
        self.playTurn([a, b], 0, 72, 73)

    def test_noCopyLeft(self) -> None:
        """A tile with no copy left is refused."""
        a, b = self.start(2)
        a.say(move(72, 73, self.token, tile="tile-c"))
        b.received()
        b.say(MoveAck())
        a.received()
        token = b.received()[0]
        assert isinstance(token, Token)
        b.say(move(72, 74, token.token, tile="tile-c"))
        self.assertEqual(b.received(), [MoveNack()])

    def test_rulesEngine(self) -> None:
        """Referee on: the table's engine is the registry's ``carcassonne``."""
        self.start(2)
        self.assertNotIsInstance(self.table().engine, RelayGame)

    def test_botAfterWait(self) -> None:
        """A lone ready person gets a bot after the wait; the bot plays its turns."""
        a = Conn(self.server)
        a.say(Hello(0), Ready(0))
        self.assertEqual(a.received(), [wire.HelloNack()])
        self.clock.advance(self.settings.botsAfter)
        got = a.received()
        self.assertEqual(got[:2], [Hello(2), Start()])
        token = got[2]
        assert isinstance(token, Token)
        a.say(HelloAck(0), move(72, 73, token.token))
        self.assertEqual(a.received(), [MoveAck()])
        self.clock.advance(0)
        got = a.received()
        self.assertIsInstance(got[0], Move)
        self.assertEqual(got[0].n, 2)  # type: ignore[union-attr]
        a.say(MoveAck())
        self.assertIsInstance(a.received()[0], Token)

    def test_botTakesSeat(self) -> None:
        """A bot takes the seat of a player who leaves, and plays its turn."""
        a, b, c = self.start(3)
        b.say(Close(0))
        self.assertEqual(a.received(), [Close(2)])
        self.assertEqual(c.received(), [Close(2)])
        a.say(move(72, 73, self.token))
        self.assertEqual(c.received(), [move(72, 73, self.token, n=1)])
        c.say(MoveAck())
        self.assertEqual(a.received(), [MoveAck()])
        self.clock.advance(0)
        moved = a.received()
        self.assertIsInstance(moved[0], Move)
        self.assertEqual(moved[0].n, 2)  # type: ignore[union-attr]

    def test_moveTimeoutBot(self) -> None:
        """A silent player's seat goes to the bot, which plays the move."""
        a, b = self.start(2)
        self.clock.advance(self.settings.timeout)
        self.assertTrue(a.closed)
        self.clock.advance(0)
        got = b.received()
        self.assertEqual(got[0], Close(1))
        self.assertIsInstance(got[1], Move)


class Guest:
    """A player of another protocol: it remembers its updates."""

    name = "guest"

    def __init__(self) -> None:
        self.updates: list[tuple[Table, int, Instructions]] = []
        self.aborts: list[str] = []

    def update(self, table: Table, seat: int, instructions: Instructions) -> None:
        self.updates.append((table, seat, instructions))

    def aborted(self, table: Table, seat: int, reason: str) -> None:
        self.aborts.append(reason)


class EveryoneGoneTests(Base):
    """The last person leaving a game its bots would go on with."""

    settings = CarcassonneSettings(timeout=20, ackTimeout=5, referee=True, botsAfter=30,
                                   botDelay=2)
    rules = StubRules()

    def test_lastPersonLeaving(self) -> None:
        """
        The first leaver's seat goes to a bot; the last leaver's ends the
        game (aborted, no player left): no bot plays it out, no error line.
        """
        logged = LogCapture(self)
        a, b, c = self.start(3)
        table = self.table()
        c.say(Close(0))
        self.assertFalse(table.finished)
        a.say(Close(0))
        self.assertFalse(table.finished)
        b.say(Close(0))
        self.assertTrue(table.finished)
        self.assertEqual(table.record.error, "no player left")
        turns = table.turn
        self.clock.advance(600)
        self.assertEqual(table.turn, turns)
        self.assertEqual([e for e in logged.events if e.get("log_level") is not None
                          and e["log_level"].name in ("error", "critical")], [])


class GuestTests(Base):
    settings = RefereeTests.settings
    rules = StubRules()

    def test_matchmaker(self) -> None:
        """
        A guest of another protocol queues: the room's clients see it as a
        player (HELLO n); it is asked to move when it holds the turn, and its
        move is relayed like a client's.
        """
        matchmaker = self.server.hub.matchmakers["carcassonne"]
        self.assertEqual(matchmaker.title, "Carcassonne")
        a = Conn(self.server)
        a.say(Hello(0))
        guest = Guest()
        self.assertIsNone(matchmaker.enqueue(guest))
        self.assertEqual(a.received(), [wire.HelloNack(), Hello(2)])
        a.say(HelloAck(0), Ready(0))
        got = a.received()
        self.assertEqual(got[0], Start())
        token = got[1]
        assert isinstance(token, Token)
        self.assertFalse(any(i.asks(s) for _, s, i in guest.updates))
        a.say(move(72, 73, token.token))
        self.assertEqual(a.received(), [MoveAck()])
        table, seat, asked = guest.updates[-1]
        self.assertTrue(asked.asks(seat))
        # Its move's time, the server's own, is what the table tells of its clock.
        self.assertEqual(table.timeLeft(seat), self.settings.timeout)
        self.clock.advance(5)
        self.assertEqual(table.timeLeft(seat), self.settings.timeout - 5)
        self.assertIsNone(table.timeLeft(1 - seat))
        outcome = table.act(seat, {"tile": "tile-u", "x": 72, "y": 74, "orientation": "N",
                                   "zone": None})
        self.assertIsInstance(outcome, Instructions)
        got = a.received()
        self.assertEqual(got[0], Move(2, "tile-u", 72, 74, "N", None, got[0].token))  # type: ignore[union-attr]
        a.say(MoveAck())
        self.assertIsInstance(a.received()[0], Token)

    def test_guestTooSlow(self) -> None:
        """A guest past its time loses its seat to the bot; the clients hear CLOSE n."""
        matchmaker = self.server.hub.matchmakers["carcassonne"]
        guest = Guest()
        matchmaker.enqueue(guest)
        a = Conn(self.server)
        a.say(Hello(0), Ready(0))
        got = a.received()
        self.assertEqual(got[:2], [HelloAck(1), Start()])
        self.clock.advance(self.settings.timeout)
        self.assertEqual(len(guest.aborts), 1)
        got = a.received()
        self.assertEqual(got[0], Close(1))
        self.assertEqual(got[1].n, 1)  # type: ignore[union-attr]  # the bot's move


class PluginTests(SynchronousTestCase):
    def test_settings(self) -> None:
        """The plugin's options make the server's settings; a bad one is a usage error."""
        from twisted.python import usage

        from gameproto.carcassonne.plugin import carcassonne, onOff

        options = {"carcassonne-timeout": 5.0, "carcassonne-ack-timeout": 2.0,
                   "carcassonne-referee": onOff("off"), "carcassonne-bots-after": 0.0}
        self.assertEqual(carcassonne.settings(options),
                         CarcassonneSettings(timeout=5, ackTimeout=2, referee=False,
                                             botsAfter=0))
        self.assertEqual(carcassonne.defaultEndpoint, "tcp:4002")
        self.assertTrue(onOff("ON") and onOff("yes") and not onOff("0"))
        self.assertRaises(ValueError, onOff, "maybe")
        self.assertRaises(usage.UsageError, carcassonne.settings,
                          {**options, "carcassonne-timeout": 0.0})


class RulesEngineTests(Base):
    """The rules engine as referee."""

    settings = RefereeTests.settings

    def setUp(self) -> None:
        import random

        from gameproto.carcassonne.server import CarcassonneServer
        from gameproto.engine.hub import Hub
        from gameproto.engine.registry import EngineRegistry
        from gameproto.games.carcassonne import CARCASSONNE
        from twisted.internet.task import Clock

        self.clock = Clock()
        hub = Hub(self.clock, rng=random.Random(7),
                  registry=EngineRegistry({"carcassonne": CARCASSONNE}))
        self.server = CarcassonneServer(self.settings, hub=hub)

    def test_noPageNoZones(self) -> None:
        """A table of TCP clients alone asks its CLICKs without the page's zones."""
        self.start(2)
        clicks = [r for r in self.table().engine.instructions().requested_actions
                  if r.type == "CLICK"]
        self.assertEqual([r.zones for r in clicks], [None])

    def test_guestSteps(self) -> None:
        """A guest's move made in the page's steps is relayed as one MOVE."""
        a = Conn(self.server)
        a.say(Hello(0))
        guest = Guest()
        self.server.hub.matchmakers["carcassonne"].enqueue(guest)
        a.say(HelloAck(0), Ready(0))
        got = a.received()
        token = got[-1]
        assert isinstance(token, Token)
        clicks = [r for r in self.table().engine.instructions().requested_actions
                  if r.type == "CLICK"]
        self.assertTrue(all(r.zones is not None for r in clicks))  # the page outlines them
        a.say(move(72, 74, token.token, tile="tile-u"))
        self.assertEqual(a.received(), [MoveNack()])  # not next to the board
        a.say(move(72, 73, token.token, tile="tile-u"))
        self.assertEqual(a.received(), [MoveAck()])
        table, seat, asked = guest.updates[-1]
        self.assertTrue(asked.asks(seat))
        self.assertIsInstance(table.act(seat, {"place": [71, 72]}), Instructions)
        self.assertEqual(a.received(), [])
        self.assertIsInstance(table.act(seat, {"follower": None}), Instructions)
        got = a.received()
        self.assertEqual(got[0], Move(2, "tile-a", 71, 72, "N", None, got[0].token))  # type: ignore[union-attr]


class RefereelessRulesTests(Base):
    """
    The referee off with the rules engine installed: the rules follow the
    relayed board, so bots and guests play from it, until a move breaks
    the rules.
    """

    settings = CarcassonneSettings(timeout=20, ackTimeout=5, referee=False, botsAfter=30,
                                   botDelay=0)

    def setUp(self) -> None:
        import random

        from gameproto.carcassonne.server import CarcassonneServer
        from gameproto.engine.hub import Hub
        from gameproto.engine.registry import EngineRegistry
        from gameproto.games.carcassonne import CARCASSONNE
        from twisted.internet.task import Clock

        self.clock = Clock()
        hub = Hub(self.clock, rng=random.Random(7),
                  registry=EngineRegistry({"carcassonne": CARCASSONNE}))
        self.server = CarcassonneServer(self.settings, hub=hub)

    def test_rulesFollow(self) -> None:
        """The table's engine is the rules engine, its referee off."""
        self.start(2)
        table = self.table()
        self.assertIsInstance(table.engine, RelayedGame)
        self.assertEqual(table.record.engine, "carcassonne")
        self.assertEqual(table.record.params["referee"], "off")
        self.assertTrue(rulesFollow(table))

    def test_botAfterWait(self) -> None:
        """A lone ready person gets the rules' bot after the wait; its moves keep the rules."""
        a = Conn(self.server)
        a.say(Hello(0), Ready(0))
        self.assertEqual(a.received(), [wire.HelloNack()])
        self.clock.advance(self.settings.botsAfter)
        got = a.received()
        self.assertEqual(got[:2], [Hello(2), Start()])
        token = got[2]
        assert isinstance(token, Token)
        a.say(HelloAck(0), move(72, 73, token.token))
        self.assertEqual(a.received(), [MoveAck()])
        engine = self.table().engine
        assert isinstance(engine, RelayedGame)
        for _ in range(5):
            self.clock.advance(0)
            got = a.received()
            bot = got[0]
            assert isinstance(bot, Move)
            self.assertEqual(bot.n, 2)
            a.say(MoveAck())
            token = a.received()[0]
            assert isinstance(token, Token)
            tile = next(t for t, n in sorted(engine.remaining.items())
                        if n > 0 and engine.board.placeable(t))
            x, y, orientation = engine.board.placements(tile)[0]
            a.say(Move(0, tile, x, y, orientation, None, token.token))
            self.assertEqual(a.received(), [MoveAck()])
        self.assertIsNone(engine.broken)  # the bot never broke the rules
        self.assertEqual(len(engine.board.tiles), 12)

    def test_botWithNoTileFinishes(self) -> None:
        """A bot whose every tile left fits nowhere says FINISH, as a client would."""
        a, b = self.start(2)
        b.say(Close(0))
        self.assertEqual(a.received(), [Close(2)])
        a.say(move(72, 73, self.token))
        self.assertEqual(a.received(), [MoveAck()])
        table = self.table()
        engine = table.engine
        assert isinstance(engine, RelayedGame)
        engine.remaining.clear()  # as if every tile left fitted nowhere
        self.clock.advance(0)
        self.assertEqual(a.received(), [Finish(2)])
        self.assertEqual(table.record.status, "finished")
        self.assertEqual(table.record.actions[-1].action, {"finish": True})

    def test_botTakesSeat(self) -> None:
        """A bot takes the seat of a player who leaves, and plays its turn."""
        a, b, c = self.start(3)
        b.say(Close(0))
        self.assertEqual(a.received(), [Close(2)])
        a.say(move(72, 73, self.token))
        c.received()
        c.say(MoveAck())
        self.assertEqual(a.received(), [MoveAck()])
        self.clock.advance(0)
        moved = a.received()
        self.assertIsInstance(moved[0], Move)
        self.assertEqual(moved[0].n, 2)  # type: ignore[union-attr]
        self.assertEqual(self.table().record.seats[1], "player2 (bot)")  # (the record keeps who sat there)

    def test_brokenMoveSendsTheBotAway(self) -> None:
        """
        A move that breaks the rules is relayed; the bot, which plays from
        the rules' board, leaves (CLOSE n); the players go on, and a seat
        left afterwards gets no bot.
        """
        a, b, c = self.start(3)
        c.say(Close(0))
        self.assertEqual(a.received(), [Close(3)])
        self.assertEqual(b.received(), [Close(3)])
        self.assertEqual(self.table().record.seats[2], "player3 (bot)")
        broken = Move(0, "tile-c", 72, 73, "N", None, self.token)  # city against a road
        a.say(broken)
        self.assertEqual(b.received(), [Move(1, "tile-c", 72, 73, "N", None, self.token),
                                        Close(3)])
        b.say(MoveAck())
        self.assertEqual(a.received(), [Close(3), MoveAck()])
        token = b.received()[0]
        assert isinstance(token, Token)
        table = self.table()
        self.assertFalse(rulesFollow(table))
        self.assertEqual(table.record.actions[0].action["refused"],  # type: ignore[index]
                         "a four-sided city with a shield does not fit at (72, 73) in "
                         "orientation N")
        self.assertEqual([a.kind for a in table.record.actions], ["act", "resign"])
        # The game goes on between the players; the bot's seat plays no more.
        b.say(Move(0, "tile-e", 1, 1, "N", None, token.token))
        a.received()
        a.say(MoveAck())
        self.assertEqual(b.received(), [MoveAck()])
        token = a.received()[0]
        assert isinstance(token, Token)
        b.say(Close(0))  # no bot takes the seat: the game is left with one player
        self.assertEqual(a.received(), [Close(2), Finish(0)])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.status, "finished")

    def test_brokenMoveSendsTheGuestAway(self) -> None:
        """
        A guest of another protocol plays from the rules' board: when a
        relayed move breaks the rules, it is told why and leaves the game.
        """
        a = Conn(self.server)
        a.say(Hello(0))
        b = Conn(self.server)
        b.say(Hello(0))
        a.say(HelloAck(0))
        guest = Guest()
        self.server.hub.matchmakers["carcassonne"].enqueue(guest)
        a.say(HelloAck(0), Ready(0))
        b.say(HelloAck(0), Ready(0))
        table, seat, _ = guest.updates[-1]
        self.assertEqual(seat, 2)
        self.assertIn("tiles left", str(table.engine.display(seat).asJSON()))  # the board
        [token] = self.tokens(a, b)
        mover, other = (a, b) if token[0] == 0 else (b, a)
        mover.say(Move(0, "tile-c", 72, 73, "N", None, token[1].token))
        got = other.received()
        self.assertIsInstance(got[0], Move)
        self.assertEqual(got[1], Close(3))
        [reason] = guest.aborts
        self.assertTrue(reason.startswith("move 1 (player "), reason)
        self.assertIn("breaks the rules: a four-sided city with a shield does not fit at "
                      "(72, 73) in orientation N",
                      reason)
        self.assertIn("this seat leaves the game", reason)
        self.assertEqual(table.record.actions[-1].kind, "resign")
        other.say(MoveAck())
        self.assertEqual(mover.received(), [Close(3), MoveAck()])
        self.assertIsInstance(other.received()[0], Token)  # the two players go on

    def tokens(self, a: Conn, b: Conn) -> list[tuple[int, wire.Token]]:
        """The TOKENs the two connections received since the last look, by index."""
        return [(i, m) for i, conn in enumerate((a, b)) for m in conn.received()
                if isinstance(m, Token)]
