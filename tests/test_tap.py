"""The twistd plugin: options, and the services they build."""

from __future__ import annotations

from typing import Any

from twisted.application.internet import StreamServerEndpointService
from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol
from twisted.internet.task import Clock
from twisted.plugin import getPlugins
from twisted.python import usage
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto import tap
from gameproto.connect4.server import Connect4Settings


def parse(*argv: str) -> tap.Options:
    options = tap.Options()
    options.parseOptions(list(argv))
    return options


class PortsTests(SynchronousTestCase):
    """--ports NAME=ENDPOINT[,NAME=ENDPOINT...]."""

    def test_defaults(self) -> None:
        self.assertEqual(parse()["ports"], {"web": "tcp:8080", "connect4": "tcp:4000",
                                            "maitretarot": "tcp:4001", "engine": "tcp:4003"})

    def test_oneAndMany(self) -> None:
        self.assertEqual(parse("--ports", "connect4=tcp:5000")["ports"]["connect4"], "tcp:5000")
        ports = parse("--ports", "connect4=tcp:5000:interface=127.0.0.1,web=unix:/tmp/g.sock")
        self.assertEqual(ports["ports"], {"connect4": "tcp:5000:interface=127.0.0.1",
                                          "web": "unix:/tmp/g.sock",
                                          "maitretarot": "tcp:4001", "engine": "tcp:4003"})

    def test_repeatable(self) -> None:
        options = parse("--ports", "connect4=5000", "--ports", "web=off,maitretarot=4444")
        self.assertEqual(options["ports"], {"connect4": "tcp:5000", "web": "off",
                                            "maitretarot": "tcp:4444", "engine": "tcp:4003"})

    def test_bareNumber(self) -> None:
        self.assertEqual(parse("--ports", "web=9000")["ports"]["web"], "tcp:9000")

    def test_unknownName(self) -> None:
        error = self.assertRaises(usage.UsageError, parse, "--ports", "chess=tcp:1")
        self.assertIn("'chess'", str(error))

    def test_badEndpoint(self) -> None:
        for description in ("tcp:nope", "floppy:1", "ssl:443:privateKey=/no/such.pem", ""):
            error = self.assertRaises(usage.UsageError, parse, "--ports",
                                      f"connect4={description}")
            self.assertIn("connect4", str(error))
            self.assertIn(repr(description), str(error))

    def test_noEquals(self) -> None:
        self.assertRaises(usage.UsageError, parse, "--ports", "connect4")

    def test_allOff(self) -> None:
        error = self.assertRaises(usage.UsageError, parse, "--ports",
                                  "connect4=off,web=off,maitretarot=off,engine=off")
        self.assertIn("nothing to serve", str(error))


class KnobTests(SynchronousTestCase):
    """The Connect Four settings."""

    def test_defaults(self) -> None:
        self.assertEqual(parse()["connect4"], Connect4Settings())

    def test_set(self) -> None:
        options = parse("--connect4-width", "9", "--connect4-height", "255",
                        "--connect4-timeout", "2.5", "--connect4-choice-timeout", "0.5",
                        "--connect4-resend-timeout", "0.25", "--connect4-connect-timeout", "4",
                        "--connect4-first-move-bonus", "0", "--connect4-rematch-delay", "0")
        self.assertEqual(options["connect4"], Connect4Settings(
            width=9, height=255, timeout=2.5, choiceTimeout=0.5, resendTimeout=0.25,
            connectTimeout=4, firstMoveBonus=0, rematchDelay=0))

    def test_refused(self) -> None:
        for argv in (("--connect4-width", "5"), ("--connect4-height", "256"),
                     ("--connect4-width", "seven"), ("--connect4-timeout", "0"),
                     ("--connect4-timeout", "-1"), ("--connect4-choice-timeout", "nan"),
                     ("--connect4-rematch-delay", "-1")):
            self.assertRaises(usage.UsageError, parse, *argv)

    def test_helpDocumentsEverything(self) -> None:
        text = str(tap.Options())
        for name in ("ports", "connect4-width", "connect4-height", "connect4-timeout",
                     "connect4-choice-timeout", "connect4-resend-timeout",
                     "connect4-connect-timeout", "connect4-first-move-bonus",
                     "connect4-rematch-delay", "maitretarot-timeout",
                     "maitretarot-bots-after", "maitretarot-bot-delay", "engines",
                     "engine-timeout", "engine-answer-timeout", "engine-open-seat-timeout",
                     "engine-idle-timeout", "db"):
            self.assertIn(f"--{name}=", text)
        self.assertIn("web=tcp:8080", text)
        self.assertIn("maitretarot=tcp:4001", text)
        self.assertIn("--engine=", text)

    def test_engineKnobs(self) -> None:
        from gameproto.enginejson.server import EngineJsonSettings

        self.assertEqual(parse()["enginejson"], EngineJsonSettings())
        options = parse("--engine-timeout", "7", "--engine-answer-timeout", "2",
                        "--engine-open-seat-timeout", "90", "--engine-idle-timeout", "30")
        self.assertEqual(options["enginejson"],
                         EngineJsonSettings(timeout=7, engineTimeout=2, openSeatTimeout=90,
                                            idleTimeout=30))
        for argv in (("--engine-timeout", "0"), ("--engine-answer-timeout", "nan"),
                     ("--engine-open-seat-timeout", "-1")):
            self.assertRaises(usage.UsageError, parse, *argv)

    def test_tarotKnobs(self) -> None:
        from gameproto.maitretarot.server import TarotSettings

        self.assertEqual(parse()["maitretarot"], TarotSettings())
        options = parse("--maitretarot-timeout", "5", "--maitretarot-bots-after", "0",
                        "--maitretarot-bot-delay", "0.5")
        self.assertEqual(options["maitretarot"],
                         TarotSettings(timeout=5, botsAfter=0, botDelay=0.5))
        for argv in (("--maitretarot-timeout", "0"), ("--maitretarot-bots-after", "-1")):
            self.assertRaises(usage.UsageError, parse, *argv)


class ServiceTests(SynchronousTestCase):
    """makeService builds one listening service per protocol that is on."""

    def test_services(self) -> None:
        service = tap.makeService(parse(), Clock())
        names = sorted(child.name for child in service)
        self.assertEqual(names, ["connect4", "engine", "maitretarot", "web"])
        for child in service:
            self.assertIsInstance(child, StreamServerEndpointService)

    def test_off(self) -> None:
        service = tap.makeService(parse("--ports", "web=off,maitretarot=off,engine=off"), Clock())
        self.assertEqual([child.name for child in service], ["connect4"])

    def test_settingsReachTheServer(self) -> None:
        service = tap.makeService(parse("--connect4-width", "11"), Clock())
        self.assertEqual(service.games.connect4.settings.width, 11)

    def test_webSocketOnlyWithConnect4(self) -> None:
        on = tap.webResources(tap.buildGames(parse(), Clock()), parse()["ports"])
        self.assertEqual(sorted(on), [b"api", b"connect4", b"engine"])
        offPorts = parse("--ports", "connect4=off")["ports"]
        self.assertEqual(sorted(tap.webResources(tap.buildGames(parse(), Clock()), offPorts)),
                         [b"api", b"engine"])

    def test_plugin(self) -> None:
        """twistd finds the gameproto plugin."""
        from twisted.application.service import IServiceMaker
        import twisted.plugins

        makers = {p.tapname: p for p in getPlugins(IServiceMaker, twisted.plugins)}
        self.assertIn("gameproto", makers)
        self.assertIs(makers["gameproto"].options, tap.Options)


class ListeningTests(TestCase):
    """The service really listens and plays."""

    @defer.inlineCallbacks
    def test_startAndServe(self) -> Any:
        options = parse("--ports", "connect4=tcp:0:interface=127.0.0.1,web=off,maitretarot=off,"
                                   "engine=off")
        service = tap.makeService(options)
        service.startService()
        (child,) = list(service)
        listening: defer.Deferred[Any] = defer.Deferred()
        child._waitingForPort.addCallback(lambda p: listening.callback(p) or p)
        port = yield listening
        received = defer.Deferred()

        class Probe(Protocol):
            def connectionMade(self) -> None:
                self.transport.write(b"0probe\r\n")

            def dataReceived(self, data: bytes) -> None:
                self.transport.loseConnection()
                received.callback(data)

            def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
                pass

        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)
        yield connectProtocol(endpoint, Probe())
        data = yield received
        yield service.stopService()
        self.assertEqual(data, b"1\x07\x06\r\n")
