"""The twistd plugin: options, the protocol plugins, and the services they build."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any, cast

import twisted.plugins
from twisted.application.internet import StreamServerEndpointService
from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol
from twisted.internet.task import Clock
from twisted.internet.utils import getProcessOutputAndValue
from twisted.logger import ILogObserver, Logger
from twisted.plugin import IPlugin, getPlugins
from twisted.python import usage
from twisted.python.failure import Failure
from twisted.trial import unittest
from twisted.trial.unittest import SynchronousTestCase, TestCase
from zope.interface import implementer
from zope.interface.verify import verifyObject

import gameproto
import gameproto.plugin
from gameproto import tap
from gameproto.connect4.server import Connect4ServerFactory, Connect4Settings
from gameproto.engine.external import ManifestError
from gameproto.engine.hub import HubSettings
from gameproto.engine.table import Table
from gameproto.enginejson.server import EngineJsonServerFactory, EngineJsonSettings
from gameproto.games.connect4 import ENGINE as CONNECT4_ENGINE
from gameproto.maitretarot.server import TarotServerFactory, TarotSettings
from gameproto.net import GameServerFactory
from gameproto.games import engines as builtinEngines
from gameproto.plugin import (
    IEngineProtocolPlugin,
    IProtocolPlugin,
    IWebProtocolPlugin,
    ProtocolPlugin,
    pluginEngines,
    protocolPlugins,
)
from gameproto.test import thirdparty
from gameproto.test.service_helpers import LOCAL, onlyPorts
from gameproto.test.test_hub import Guest
from gameproto.test.test_metrics import apiCall
from gameproto.test.thirdparty.echo import TALLY, TallyGame

THIRD_PARTY = Path(thirdparty.__file__).parent
"""The root of the third party's tree: its ``twisted/plugins/`` holds the echo plugin."""


def parse(*argv: str) -> tap.Options:
    options = tap.Options()
    options.parseOptions(list(argv))
    return options


def installThirdParty(case: SynchronousTestCase) -> None:
    """For this test, the echo protocol is installed as a third party's package is."""
    case.patch(twisted.plugins, "__path__",
               [*twisted.plugins.__path__, str(THIRD_PARTY / "twisted" / "plugins")])


def listening(child: Any) -> defer.Deferred[Any]:
    """The port of ``child``, a started StreamServerEndpointService, once it listens."""
    d: defer.Deferred[Any] = defer.Deferred()

    def listens(port: Any) -> Any:
        d.callback(port)
        return port

    child._waitingForPort.addCallback(listens)
    return d


class PortsTests(SynchronousTestCase):
    """--ports NAME=ENDPOINT[,NAME=ENDPOINT...]."""

    def test_defaults(self) -> None:
        self.assertEqual(parse()["ports"], {"web": "tcp:8080", "connect4": "tcp:4000",
                                            "maitretarot": "tcp:4001", "engine": "tcp:4003",
                                            "carcassonne": "tcp:4002", "freedoko": "tcp:2442"})

    def test_oneAndMany(self) -> None:
        self.assertEqual(parse("--ports", "connect4=tcp:5000")["ports"]["connect4"], "tcp:5000")
        ports = parse("--ports", "connect4=tcp:5000:interface=127.0.0.1,web=unix:/tmp/g.sock")
        self.assertEqual(ports["ports"], {"connect4": "tcp:5000:interface=127.0.0.1",
                                          "web": "unix:/tmp/g.sock",
                                          "maitretarot": "tcp:4001", "engine": "tcp:4003",
                                          "carcassonne": "tcp:4002", "freedoko": "tcp:2442"})

    def test_repeatable(self) -> None:
        options = parse("--ports", "connect4=5000", "--ports", "web=off,maitretarot=4444")
        self.assertEqual(options["ports"], {"connect4": "tcp:5000", "web": "off",
                                            "maitretarot": "tcp:4444", "engine": "tcp:4003",
                                            "carcassonne": "tcp:4002", "freedoko": "tcp:2442"})

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
                                  "connect4=off,web=off,maitretarot=off,engine=off,"
                                  "carcassonne=off,freedoko=off")
        self.assertIn("nothing to serve", str(error))

    def test_onlyPorts(self) -> None:
        """The tests' helper opens the ports it names and turns every other one off."""
        self.assertEqual(parse(*onlyPorts(connect4=LOCAL))["ports"],
                         {"web": "off", "connect4": LOCAL, "maitretarot": "off",
                          "engine": "off", "carcassonne": "off", "freedoko": "off"})
        self.assertRaises(usage.UsageError, parse, *onlyPorts(chess=LOCAL))


class KnobTests(SynchronousTestCase):
    """Each protocol's settings, and the hub's."""

    def test_defaults(self) -> None:
        self.assertEqual(parse()["settings"]["connect4"], Connect4Settings())

    def test_set(self) -> None:
        options = parse("--connect4-width", "9", "--connect4-height", "255",
                        "--connect4-timeout", "2.5", "--connect4-choice-timeout", "0.5",
                        "--connect4-resend-timeout", "0.25", "--connect4-connect-timeout", "4",
                        "--connect4-first-move-bonus", "0", "--connect4-rematch-delay", "0")
        self.assertEqual(options["settings"]["connect4"], Connect4Settings(
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
        self.assertIn("/connect4", text)
        self.assertIn("/engine", text)

    def test_helpWithoutStrayBlanks(self) -> None:
        """No description in the help has a run of blanks inside it (a docstring's line breaks)."""
        text = str(tap.Options())
        column = 36  # where twistd's help starts the descriptions
        stray = [line for line in text.splitlines() if re.search(r"\S {2,}\S", line[column:])]
        self.assertEqual(stray, [])

    def test_readmeDocumentsEverything(self) -> None:
        """Every option of gameproto's own protocols and of the service is in the README."""
        from gameproto.test import sourceTree
        from twisted.plugins import gameproto_protocols

        tree = sourceTree()
        if tree is None or not (tree / "README.md").is_file():
            raise unittest.SkipTest("no source checkout with README.md")
        readme = (tree / "README.md").read_text(encoding="utf-8")
        names = [row[0] for row in tap.Options.optParameters] + ["ports", "engine"]
        for plugin in (getattr(gameproto_protocols, n) for n in gameproto_protocols.__all__):
            names += [row[0] for row in plugin.optParameters]
        self.assertGreater(len(names), 30)
        self.assertEqual([name for name in names if f"`--{name}" not in readme], [])

    def test_engineKnobs(self) -> None:
        options = parse()
        self.assertEqual(options["settings"]["engine"], EngineJsonSettings())
        self.assertEqual(options["hub"], HubSettings())
        options = parse("--engine-timeout", "7", "--engine-answer-timeout", "2",
                        "--engine-open-seat-timeout", "90", "--engine-idle-timeout", "30")
        self.assertEqual(options["settings"]["engine"], EngineJsonSettings(idleTimeout=30))
        self.assertEqual(options["hub"],
                         HubSettings(timeout=7, engineTimeout=2, openSeatTimeout=90))
        for argv in (("--engine-timeout", "0"), ("--engine-answer-timeout", "nan"),
                     ("--engine-open-seat-timeout", "-1"), ("--engine-idle-timeout", "0")):
            self.assertRaises(usage.UsageError, parse, *argv)

    def test_tarotKnobs(self) -> None:
        self.assertEqual(parse()["settings"]["maitretarot"], TarotSettings())
        options = parse("--maitretarot-timeout", "5", "--maitretarot-bots-after", "0",
                        "--maitretarot-bot-delay", "0.5")
        self.assertEqual(options["settings"]["maitretarot"],
                         TarotSettings(timeout=5, botsAfter=0, botDelay=0.5))
        for argv in (("--maitretarot-timeout", "0"), ("--maitretarot-bots-after", "-1")):
            self.assertRaises(usage.UsageError, parse, *argv)

    def test_externalEngineNames(self) -> None:
        """An external engine may not take a built-in engine's name."""
        for name in ("connect4", "tarot"):
            error = self.assertRaises(usage.UsageError, parse, f"--engine={name}=true")
            self.assertIn(repr(name), str(error))

    def test_engineSpecs(self) -> None:
        """
        C{--engine} reads NAME=SPEC as the external-engine layer does: a bad
        one is refused with its words, a command keeps every C{=} after
        the first, a manifest takes the name given.
        """
        for bad in ("nameless", "=cmd", "not an id=cmd", "x=", "x=   "):
            error = self.assertRaises(usage.UsageError, parse, f"--engine={bad}")
            self.assertEqual(str(error), "--engine: expected PATH (a manifest.json or its "
                                         "folder), NAME=MANIFEST or NAME=COMMAND, "
                                         f"got {bad!r}")
        manifests = parse("--engine=t3=python3 x.py a=b")["manifests"]
        self.assertEqual([(m.name, m.command) for m in manifests],
                         [("t3", ("python3", "x.py", "a=b"))])
        from gameproto.test import sourceTree

        tree = sourceTree()
        if tree is None:
            raise unittest.SkipTest("no source checkout with examples/")
        tictactoe = tree / "examples" / "engines" / "tictactoe"
        [manifest] = parse(f"--engine=noughts={tictactoe}")["manifests"]
        self.assertEqual((manifest.name, manifest.directory), ("noughts", tictactoe))

    def test_externalManifestsSpec(self) -> None:
        """L{tap.externalManifests} refuses a bad NAME=SPEC as the external layer does."""
        error = self.assertRaises(ManifestError, tap.externalManifests, None, ["nameless"])
        self.assertIn("--engine: expected PATH (a manifest.json or its folder), "
                      "NAME=MANIFEST or NAME=COMMAND", str(error))


class PluginTests(SynchronousTestCase):
    """The protocol plugins: found in twisted.plugins, checked, one per protocol."""

    def test_builtins(self) -> None:
        """gameproto's own protocols, in their --ports order, each a complete plugin."""
        plugins = protocolPlugins()
        self.assertEqual([p.name for p in plugins],
                         ["connect4", "maitretarot", "carcassonne", "engine", "freedoko"])
        self.assertEqual([p.defaultEndpoint for p in plugins],
                         ["tcp:4000", "tcp:4001", "tcp:4002", "tcp:4003", "tcp:2442"])
        for plugin in plugins:
            self.assertTrue(verifyObject(IWebProtocolPlugin, plugin))
            self.assertTrue(verifyObject(IEngineProtocolPlugin, plugin))
            self.assertTrue(IPlugin.providedBy(plugin))
            for row in plugin.optParameters:
                self.assertTrue(row[0].startswith(plugin.name + "-"), row[0])

    def test_engines(self) -> None:
        """
        Each built-in game comes with the plugin of its protocol, and the
        service's registry holds what the plugins bring, whether their ports
        are on or off.
        """
        brought = {p.name: [engine.name for engine in pluginEngines([p])]
                   for p in protocolPlugins()}
        self.assertEqual(brought, {"connect4": ["connect4"], "maitretarot": ["tarot"],
                                   "carcassonne": ["carcassonne"], "engine": [],
                                   "freedoko": ["doppelkopf"]})
        served = pluginEngines(protocolPlugins())
        for engine in builtinEngines():
            self.assertIn(engine, served)
        registry = tap.makeService(parse(*onlyPorts(web=LOCAL)), Clock()).hub.registry
        self.assertEqual([engine.name for engine in registry],
                         ["carcassonne", "connect4", "doppelkopf", "tarot"])

    def test_factories(self) -> None:
        """Each plugin's factory is its protocol's, sharing the server it was given."""
        service = tap.makeService(parse(), Clock())
        from gameproto.carcassonne.server import CarcassonneServerFactory
        from gameproto.freedoko.server import FreeDokoServerFactory

        expected = {"connect4": Connect4ServerFactory, "maitretarot": TarotServerFactory,
                    "carcassonne": CarcassonneServerFactory,
                    "engine": EngineJsonServerFactory, "freedoko": FreeDokoServerFactory}
        for plugin in protocolPlugins():
            server = service.servers[plugin.name]
            factory = plugin.factory(server)
            self.assertIsInstance(factory, expected[plugin.name])
            self.assertIs(factory.server, server)  # type: ignore[attr-defined]
            self.assertFalse(factory.noisy)  # type: ignore[attr-defined]
            self.assertIs(server.hub, service.hub)

    def test_leftOut(self) -> None:
        """A plugin whose name is taken or bad, or whose options are not its own, is left out."""

        class Plugin(ProtocolPlugin[None, None]):
            def __init__(self, name: str, option: str = "") -> None:
                self.name = name
                self.defaultEndpoint = "tcp:1"
                self.description = name
                self.optParameters = [[option, None, None, "?"]] if option else []

        class Games(Plugin):
            def __init__(self, name: str, *brought: Any) -> None:
                super().__init__(name)
                self.brought = brought

            def engines(self) -> Any:
                if not self.brought:
                    raise RuntimeError("no rules installed")
                return self.brought

        events: list[dict[str, Any]] = []
        self.patch(gameproto.plugin, "log", Logger(observer=cast(ILogObserver, events.append)))
        good = Plugin("good", "good-x-knob")
        games = Games("games", TALLY)
        found = protocolPlugins([good, Plugin("web"), Plugin("good"), Plugin("bad", "knob"),
                                 Plugin("a b"), Plugin(""), Plugin("good-x", "good-x-knob"),
                                 Plugin("core", "core-db"), games, Games("again", TALLY),
                                 Games("twice", CONNECT4_ENGINE, CONNECT4_ENGINE),
                                 Games("broken")],
                                reservedOptions=["core-db"])
        self.assertEqual(found, [good, games])
        self.assertEqual([event["problem"] for event in events], [
            "the name 'web' is taken", "the name 'good' is taken",
            "its option 'knob' does not start with 'bad-'", "bad name 'a b'", "bad name ''",
            "its option 'good-x-knob' is taken", "its option 'core-db' is taken",
            "its engine 'tally' is taken", "its engine 'connect4' is taken",
            "its engines cannot be listed (RuntimeError('no rules installed'))"])

    def test_coreOptionsReserved(self) -> None:
        """A plugin may not take an option of the core (its name is engine, say)."""

        class Plugin(ProtocolPlugin[None, None]):
            name = "engine"
            defaultEndpoint = "tcp:1"
            description = "?"
            optParameters = [["engine-timeout", None, None, "?"]]

        self.assertEqual(tap.Options([Plugin()]).plugins, ())

    def test_noWebResources(self) -> None:
        """A plugin of no web resources serves its port; the web port serves the core's."""

        @implementer(IProtocolPlugin)
        class Minimal:
            name = "minimal"
            defaultEndpoint = "tcp:1"
            description = "The least a plugin provides"
            optParameters: list[list[Any]] = []

            def settings(self, options: Any) -> None:
                return None

            def makeServer(self, hub: Any, settings: None) -> object:
                return object()

            def factory(self, server: object) -> GameServerFactory[object, Protocol]:
                return GameServerFactory(server, Protocol)

        options = tap.Options([Minimal()])
        options.parseOptions(["--ports", "web=tcp:0,minimal=tcp:0"])
        service = tap.makeService(options, Clock())
        self.assertEqual(sorted(child.name for child in service), ["minimal", "web"])
        site = service.getServiceNamed("web").factory
        self.assertEqual(sorted(site.resource.children), [b"", b"api", b"metrics", b"static"])

    def test_serviceMaker(self) -> None:
        """twistd finds the gameproto plugin."""
        from twisted.application.service import IServiceMaker

        makers = {p.tapname: p for p in getPlugins(IServiceMaker, twisted.plugins)}
        self.assertIn("gameproto", makers)
        self.assertIs(makers["gameproto"].options, tap.Options)


class ServiceTests(SynchronousTestCase):
    """makeService builds one listening service per port that is on, one hub behind them."""

    def test_services(self) -> None:
        service = tap.makeService(parse(), Clock())
        names = sorted(child.name for child in service)
        self.assertEqual(names, ["carcassonne", "connect4", "engine", "freedoko", "maitretarot",
                                 "web"])
        for child in service:
            self.assertIsInstance(child, StreamServerEndpointService)

    def test_off(self) -> None:
        service = tap.makeService(
            parse("--ports", "web=off,maitretarot=off,engine=off,carcassonne=off,freedoko=off"),
            Clock())
        self.assertEqual([child.name for child in service], ["connect4"])

    def test_settingsReachTheServer(self) -> None:
        service = tap.makeService(parse("--connect4-width", "11", "--engine-timeout", "9"),
                                  Clock())
        self.assertEqual(service.servers["connect4"].settings.width, 11)
        self.assertEqual(service.hub.settings.timeout, 9)
        self.assertIs(service.games, service.hub)

    def webChildren(self, *argv: str) -> list[bytes]:
        service = tap.makeService(parse(*argv), Clock())
        site = service.getServiceNamed("web").factory
        return sorted(name for name in site.resource.children
                      if name not in (b"", b"static", b"metrics"))

    def test_webSocketOnlyWithConnect4(self) -> None:
        """/connect4 follows the connect4 port; /engine is the page's, and stays."""
        self.assertEqual(self.webChildren(), [b"api", b"connect4", b"engine"])
        self.assertEqual(self.webChildren("--ports", "connect4=off"), [b"api", b"engine"])
        self.assertEqual(self.webChildren("--ports", "engine=off"),
                         [b"api", b"connect4", b"engine"])


class ListeningTests(TestCase):
    """The service really listens and plays."""

    @defer.inlineCallbacks
    def test_startAndServe(self) -> Any:
        options = parse(*onlyPorts(connect4=LOCAL))
        service = tap.makeService(options)
        service.startService()
        (child,) = list(service)
        port = yield listening(child)
        received: defer.Deferred[bytes] = defer.Deferred()

        class Probe(Protocol):
            def connectionMade(self) -> None:
                assert self.transport is not None
                self.transport.write(b"0probe\r\n")

            def dataReceived(self, data: bytes) -> None:
                assert self.transport is not None
                self.transport.loseConnection()
                received.callback(data)

            def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
                pass

        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)
        yield connectProtocol(endpoint, Probe())
        data = yield received
        yield service.stopService()
        self.assertEqual(data, b"1\x07\x06\r\n")


class ThirdPartyTests(TestCase):
    """
    A protocol from a third party's package (a line echo): its plugin in its
    own ``twisted/plugins/``, no edit to gameproto.
    """

    def setUp(self) -> None:
        installThirdParty(self)

    def test_found(self) -> None:
        self.assertEqual([p.name for p in protocolPlugins()],
                         ["connect4", "maitretarot", "carcassonne", "engine", "freedoko", "echo"])

    def test_help(self) -> None:
        text = str(tap.Options())
        self.assertIn("--echo-prefix=", text)
        self.assertIn("echo=tcp:4999", text)
        self.assertIn("Lines sent back with a prefix", " ".join(text.split()))

    def test_options(self) -> None:
        options = parse("--echo-prefix", "> ", "--ports", "echo=tcp:5999")
        self.assertEqual(options["ports"]["echo"], "tcp:5999")
        self.assertEqual(parse()["ports"]["echo"], "tcp:4999")
        self.assertEqual(options["settings"]["echo"].prefix, b"> ")
        error = self.assertRaises(usage.UsageError, parse, "--echo-prefix", "a\nb")
        self.assertIn("--echo-prefix", str(error))

    def test_testsTurnItOff(self) -> None:
        """The tests' helper turns off the ports it does not name, this one's too."""
        service = tap.makeService(parse(*onlyPorts(connect4=LOCAL)), Clock())
        self.assertEqual([child.name for child in service], ["connect4"])
        self.assertIn("echo", service.servers)

    @defer.inlineCallbacks
    def test_listensAndAnswers(self) -> Any:
        service = tap.makeService(parse("--echo-prefix", "echo> ", *onlyPorts(echo=LOCAL)))
        service.startService()
        self.addCleanup(service.stopService)
        (child,) = list(service)
        self.assertEqual(child.name, "echo")
        port = yield listening(child)
        received: defer.Deferred[bytes] = defer.Deferred()

        class Client(Protocol):
            buffer = b""

            def connectionMade(self) -> None:
                assert self.transport is not None
                self.transport.write(b"hello\r\n")

            def dataReceived(self, data: bytes) -> None:
                self.buffer += data
                if self.buffer.endswith(b"\r\n"):
                    assert self.transport is not None
                    self.transport.loseConnection()
                    received.callback(self.buffer)

        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)
        yield connectProtocol(endpoint, Client())
        self.assertEqual((yield received), b"echo> hello\r\n")
        self.assertEqual(service.servers["echo"].lines, 1)
        self.assertIs(service.servers["echo"].hub, service.hub)

    def test_engineListed(self) -> None:
        """The game its plugin brings is in the hub's registry and the API's list."""
        service = tap.makeService(parse(*onlyPorts(web=LOCAL)), Clock())
        self.assertIs(service.hub.registry.get("tally"), TALLY)
        api = service.getServiceNamed("web").factory.resource.children[b"api"]
        listed = json.loads(b"".join(apiCall(api, b"GET", b"/api/engines").written))
        [tally] = [entry for entry in listed["engines"] if entry["name"] == "tally"]
        self.assertEqual(tally["parameters"], {"presses": {
            "type": "int", "description": "How many presses end the game.",
            "range": [1, 100], "default": 3}})

    def test_externalEngineNotTally(self) -> None:
        """An external engine may not take the name of a plugin's engine."""
        error = self.assertRaises(usage.UsageError, parse, "--engine=tally=true")
        self.assertIn("'tally'", str(error))

    @defer.inlineCallbacks
    def test_restartRestores(self) -> Any:
        """A game of the plugin's engine left unfinished is hosted again after a restart."""
        db = self.mktemp() + ".sqlite"
        first = tap.makeService(parse("--db", db, *onlyPorts(echo=LOCAL)), Clock())
        made: list[Any] = []
        first.hub.newGame("tally", {"presses": 5}).addCallback(made.append)
        [table] = made
        assert isinstance(table, Table)
        self.assertIsNone(first.hub.join(table.id, Guest("alice"), 1))
        for _ in range(2):
            table.act(0, "t")
        first.hub.store.close()

        again = tap.makeService(parse("--db", db, *onlyPorts(echo=LOCAL)), Clock())
        again.startService()
        self.addCleanup(again.stopService)
        yield listening(again.getServiceNamed("echo"))
        twin = again.hub.findTable(table.id)
        assert twin is not None
        self.assertTrue(again.hub.hosts(twin))
        assert isinstance(twin.engine, TallyGame)
        self.assertEqual((twin.engine.count, twin.engine.params), (2, {"presses": 5}))
        self.assertEqual(twin.record.status, "live")

    @defer.inlineCallbacks
    def test_twistdHelp(self) -> Any:
        """``twistd gameproto --help``, the third party's package on the path, lists it."""
        source = str(Path(gameproto.__file__).parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(THIRD_PARTY), source, *filter(None, [env.get("PYTHONPATH")])])
        script = "import sys; from twisted.scripts.twistd import run; sys.argv[0] = 'twistd'; run()"
        out, err, code = yield getProcessOutputAndValue(
            sys.executable, ["-c", script, "gameproto", "--help"], env=env)
        text = out.decode("utf-8")
        self.assertEqual(code, 0, err)
        self.assertIn("--echo-prefix=", text)
        self.assertIn("echo=tcp:4999", text)
        self.assertIn("--connect4-width=", text)


class ServerFactoryTests(SynchronousTestCase):
    """GameServerFactory: one server shared by every connection."""

    def test_protocolGiven(self) -> None:
        server = object()
        factory = GameServerFactory(server, Protocol)
        protocol = factory.buildProtocol(None)  # type: ignore[arg-type]
        self.assertIsInstance(protocol, Protocol)
        self.assertIs(protocol.factory, factory)  # type: ignore[union-attr]
        self.assertIs(factory.server, server)
        self.assertFalse(factory.noisy)
