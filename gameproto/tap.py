"""
The ``twistd gameproto`` plugin: options and the service that serves every
game on its own port, behind one shared engine layer.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any, Callable, Mapping

import attrs
from twisted.application import service, strports
from twisted.internet import defer, endpoints
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import Factory
from twisted.internet.testing import MemoryReactor
from twisted.logger import Logger
from twisted.python import usage
from twisted.web.resource import Resource

from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.record import RecordStore
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.external import EngineManifest, ExternalEngine, ManifestError
from gameproto.engine.registry import builtins, loadEngineDirectory
from gameproto.enginejson.server import (
    EngineJsonServer,
    EngineJsonServerFactory,
    EngineJsonSettings,
)
from gameproto.enginejson.websocket import engineWebSocket
from gameproto.web.api import API
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings
from gameproto.games.connect4 import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_SIZE, MIN_SIZE
from gameproto.web.site import makeSite

log = Logger(namespace="gameproto")

DEFAULT_PORTS: dict[str, str] = {
    "web": "tcp:8080",
    "connect4": "tcp:4000",
    "maitretarot": "tcp:4001",
    "engine": "tcp:4003",
}
"""Every protocol gameproto serves, and where it listens by default."""

OFF = "off"

_SPLIT = re.compile(r",(?=\s*[A-Za-z0-9_-]+\s*=)")


def parsePorts(value: str, known: Mapping[str, str] = DEFAULT_PORTS) -> dict[str, str]:
    """
    Read ``NAME=ENDPOINT[,NAME=ENDPOINT...]``: a Twisted server endpoint
    description, ``off``, or a bare port number meaning ``tcp:N``.  Raises
    L{usage.UsageError} naming what is wrong.
    """
    ports: dict[str, str] = {}
    for item in _SPLIT.split(value):
        name, equals, description = item.partition("=")
        name, description = name.strip(), description.strip()
        if not equals or not name:
            raise usage.UsageError(f"--ports: expected NAME=ENDPOINT, got {item!r}")
        if name not in known:
            raise usage.UsageError(
                f"--ports: unknown name {name!r} (known: {', '.join(sorted(known))})"
            )
        if description.isdigit():
            description = f"tcp:{description}"
        if description != OFF:
            try:
                endpoints.serverFromString(MemoryReactor(), description)
            except Exception as e:
                raise usage.UsageError(
                    f"--ports: bad endpoint for {name}: {description!r} ({e})"
                ) from None
        ports[name] = description
    return ports


def _seconds(value: str) -> float:
    seconds = float(value)
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"{value} is not a positive number of seconds")
    return seconds


def _boardSize(value: str) -> int:
    size = int(value)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"{value} is not between {MIN_SIZE} and {MAX_SIZE}")
    return size


def _delay(value: str) -> float:
    seconds = float(value)
    if not 0 <= seconds < float("inf"):
        raise ValueError(f"{value} is not a number of seconds")
    return seconds


class Options(usage.Options):
    """Options of ``twistd gameproto``."""

    synopsis = "[options]"
    longdesc = (
        "Serve turn-based multiplayer games: each protocol on its own port "
        "(defaults: " + ", ".join(f"{k}={v}" for k, v in DEFAULT_PORTS.items()) + "), "
        "the Protuissance 4 WebSocket at /connect4 and the engine JSON WebSocket at "
        "/engine on the web port, the web page and HTTP API at / and /api."
    )

    optParameters = [
        ["db", None, "gameproto.sqlite",
         "SQLite database holding every game's record, each action written as it is "
         "accepted; unfinished games are restored from it at start."],
        ["connect4-width", None, DEFAULT_WIDTH, "Connect Four board width, 6..255.", _boardSize],
        ["connect4-height", None, DEFAULT_HEIGHT, "Connect Four board height, 6..255.",
         _boardSize],
        ["connect4-timeout", None, 3.0, "Seconds for each Connect Four move.", _seconds],
        ["connect4-first-move-bonus", None, 1.0,
         "Extra seconds for the first move of a game (the document's timeout + 1).", _delay],
        ["connect4-choice-timeout", None, 10.0,
         "Seconds to send JOIN_QUEUE after GAME_END before being disconnected.", _seconds],
        ["connect4-resend-timeout", None, 1.0,
         "Seconds to send another move after ERR_INVALID_COLUMN.", _seconds],
        ["connect4-connect-timeout", None, 10.0,
         "Seconds for a new connection to send an acceptable CONNECT.", _seconds],
        ["connect4-rematch-delay", None, 1.0,
         "Seconds the queue waits for another opponent before matching two players "
         "who just played each other (0: at once).", _delay],
        ["maitretarot-timeout", None, 60.0,
         "Seconds a MaîtreTarot client has for each answer (bid, discard, card, replay) "
         "and each identification step; past it a bot plays its move and the connection "
         "is closed.", _seconds],
        ["maitretarot-bots-after", None, 30.0,
         "Seconds a waiting MaîtreTarot table waits for players before bots fill its "
         "empty places (0: at once).", _delay],
        ["maitretarot-bot-delay", None, 0.0,
         "Seconds a MaîtreTarot bot waits before each move.", _delay],
        ["engines", None, None,
         "A directory of external engines: each subdirectory with a manifest.json "
         "(name, command, parameters, sprites)."],
        ["engine-timeout", None, 300.0,
         "Seconds a player of a game created through the engine JSON protocol has for "
         "each action; past it the engine's bot plays it, or the seat resigns.", _seconds],
        ["engine-answer-timeout", None, 5.0,
         "Seconds an external engine has to answer; past it its game is aborted.", _seconds],
        ["engine-idle-timeout", None, 600.0,
         "Seconds an engine JSON connection may stay in the lobby (no game, queue or watch) "
         "without sending anything; past it it is closed.", _seconds],
        ["engine-open-seat-timeout", None, 3600.0,
         "Seconds a game of the engine JSON protocol waits for a player to take an open "
         "seat it asks to act; past it the game is aborted.", _seconds],
    ]

    def __init__(self) -> None:
        super().__init__()
        self["ports"] = dict(DEFAULT_PORTS)
        self["engine"] = []

    def opt_engine(self, value: str) -> None:
        """
        NAME=MANIFEST or NAME=COMMAND: an external engine (a manifest.json, a
        folder holding one, or a command whose only init parameter is
        players). Repeatable.
        """
        name, equals, rest = value.partition("=")
        if not equals or not name.isidentifier() or not rest.strip():
            raise usage.UsageError(f"--engine: expected NAME=COMMAND or NAME=MANIFEST, got {value!r}")
        self["engine"].append(value)

    def opt_ports(self, value: str) -> None:
        self["ports"].update(parsePorts(value))

    opt_ports.__doc__ = (
        "NAME=ENDPOINT[,NAME=ENDPOINT...]: where each protocol listens, as a Twisted "
        "server endpoint description (tcp:, ssl:, unix:, systemd:), a bare port number "
        "(tcp:N), or 'off' to disable it. Repeatable. Names and defaults: "
        + ", ".join(f"{k}={v}" for k, v in DEFAULT_PORTS.items()) + "."
    )

    def postOptions(self) -> None:
        try:
            self["connect4"] = Connect4Settings(
                width=self["connect4-width"],
                height=self["connect4-height"],
                timeout=self["connect4-timeout"],
                firstMoveBonus=self["connect4-first-move-bonus"],
                choiceTimeout=self["connect4-choice-timeout"],
                resendTimeout=self["connect4-resend-timeout"],
                connectTimeout=self["connect4-connect-timeout"],
                rematchDelay=self["connect4-rematch-delay"],
            )
        except ValueError as e:
            raise usage.UsageError(f"Connect Four settings: {e}") from None
        self["maitretarot"] = TarotSettings(
            timeout=self["maitretarot-timeout"],
            botsAfter=self["maitretarot-bots-after"],
            botDelay=self["maitretarot-bot-delay"],
        )
        self["enginejson"] = EngineJsonSettings(
            timeout=self["engine-timeout"], engineTimeout=self["engine-answer-timeout"],
            idleTimeout=self["engine-idle-timeout"],
            openSeatTimeout=self["engine-open-seat-timeout"])
        try:
            self["manifests"] = externalManifests(self["engines"], self["engine"])
        except ManifestError as e:
            raise usage.UsageError(f"--engine/--engines: {e}") from None
        try:
            SQLiteRecordStore(self["db"]).close()
        except (OSError, sqlite3.Error) as e:
            raise usage.UsageError(f"--db: cannot use {self['db']!r} ({e})") from None
        if all(description == OFF for description in self["ports"].values()):
            raise usage.UsageError("--ports: every protocol is off, nothing to serve")


@attrs.define
class Games:
    """The shared state behind every port: the record store and each game's server."""

    store: RecordStore
    connect4: Connect4Server
    maitretarot: TarotServer
    engine: EngineJsonServer


def externalManifests(directory: str | None, specs: list[str]) -> list[EngineManifest]:
    """The external engines named by ``--engines`` and ``--engine``."""
    manifests = loadEngineDirectory(Path(directory)) if directory else []
    for spec in specs:
        name, _, value = spec.partition("=")
        path = Path(value)
        if path.exists():
            manifest = EngineManifest.load(path)
            manifests.append(attrs.evolve(manifest, name=name))
        else:
            manifests.append(EngineManifest.fromCommand(name, value))
    names = [m.name for m in manifests]
    for name in names:
        if names.count(name) > 1 or name in ("connect4", "tarot"):
            raise ManifestError(f"two engines are named {name!r}")
    return manifests


def buildGames(options: Mapping[str, object], clock: IReactorTime,
               processes: Any = None) -> Games:
    path = options["db"]
    assert isinstance(path, str)
    store = SQLiteRecordStore(path)
    connect4 = options["connect4"]
    tarot = options["maitretarot"]
    enginejson = options["enginejson"]
    assert isinstance(connect4, Connect4Settings) and isinstance(tarot, TarotSettings)
    assert isinstance(enginejson, EngineJsonSettings)
    if processes is None:
        from twisted.internet import reactor as processes
    registry = builtins()
    for manifest in options.get("manifests") or ():  # type: ignore[attr-defined]
        registry.add(ExternalEngine(manifest, processes, enginejson.engineTimeout))
    connect4Server = Connect4Server(connect4, clock, store)
    tarotServer = TarotServer(tarot, clock, store)
    engineServer = EngineJsonServer(enginejson, registry, clock, store,
                                    connect4=connect4Server, tarot=tarotServer)
    return Games(store, connect4Server, tarotServer, engineServer)


def webResources(games: Games, ports: Mapping[str, str]) -> dict[bytes, Resource]:
    """What the web port serves besides its index, for the protocols that are on."""
    from gameproto.connect4.websocket import connect4WebSocket

    children: dict[bytes, Resource] = {}
    if ports.get("connect4", OFF) != OFF:
        children[b"connect4"] = connect4WebSocket(games.connect4)
    children[b"engine"] = engineWebSocket(games.engine)
    children[b"api"] = API(games.engine)
    return children


class GameprotoService(service.MultiService):
    """Every protocol's listening service; ``games`` is the shared state behind them."""

    def __init__(self, games: Games) -> None:
        super().__init__()
        self.games = games

    def startService(self) -> None:
        """Listen, and host again the games a previous run left unfinished."""
        super().startService()
        restoring = self.games.engine.restore()
        restoring.addCallback(lambda ids: ids and log.info(
            "restored {count} unfinished games: {ids}", count=len(ids), ids=ids))
        restoring.addErrback(lambda f: log.failure("restoring games failed", f))

    def stopService(self) -> Deferred[None]:
        """Stop listening, then close the record store."""
        d = defer.maybeDeferred(super().stopService)
        d.addBoth(lambda result: (self._closeStore(), result)[1])
        return d

    def _closeStore(self) -> None:
        close = getattr(self.games.store, "close", None)
        if close is not None:
            close()


def makeService(options: Mapping[str, object], clock: IReactorTime | None = None,
                processes: Any = None) -> GameprotoService:
    """Every protocol that is not off, each on its endpoint, one engine layer behind them."""
    if clock is None:
        from twisted.internet import reactor as clock  # type: ignore[assignment]
    assert clock is not None
    games = buildGames(options, clock, processes)
    ports = options["ports"]
    assert isinstance(ports, dict)
    factories: dict[str, Callable[[], Factory]] = {
        "connect4": lambda: Connect4ServerFactory(games.connect4),
        "maitretarot": lambda: TarotServerFactory(games.maitretarot),
        "engine": lambda: EngineJsonServerFactory(games.engine),
        "web": lambda: makeSite(webResources(games, ports)),
    }
    top = GameprotoService(games)
    for name, description in ports.items():
        if description == OFF:
            continue
        child = strports.service(description, factories[name]())
        child.setName(name)
        child.setServiceParent(top)
    return top
