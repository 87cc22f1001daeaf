"""
The ``twistd gameproto`` plugin: the core's options and its web port, every
protocol plugin's options and port, and the hub they all share.

The protocols are plugins (L{gameproto.plugin.IProtocolPlugin}) found in
C{twisted.plugins}, as C{twisted.words} finds its front ends: this module
names none of them.
"""

from __future__ import annotations

import gc
import re
import os
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from twisted.application import service, strports
from twisted.internet import defer, endpoints
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorThreads, IReactorTime
from twisted.internet.testing import MemoryReactor
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python import usage
from twisted.python.util import padTo
from twisted.web.resource import Resource
from twisted.web.server import Site

from gameproto.engine.external import (
    EngineManifest,
    ExternalEngine,
    ManifestError,
    isManifestPath,
    parseEngineSpec,
)
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.record import RecordStore
from gameproto.engine.registry import EngineRegistry, loadEngineDirectory
from gameproto.engine.store import Checkpointer, SQLiteRecordStore, isCheckpointable
from gameproto.net import Limits, cap, originList, positiveCount, rate
from gameproto.plugin import (
    WEB_PORT,
    IProtocolPlugin,
    IWebProtocolPlugin,
    pluginEngines,
    protocolPlugins,
    delay,
    seconds,
)
from gameproto.web.api import API
from gameproto.metrics import Metrics, MetricsResource
from gameproto.web.site import makeSite

log = Logger(namespace="gameproto")

WEB = WEB_PORT
"""The core's own port: the page, the HTTP API and every protocol's web resources."""

WEB_DEFAULT = "tcp:8080"

OFF = "off"

METRICS = "metrics"
"""
The core's optional port of Prometheus metrics (off by default): when on,
``/metrics`` is served there instead of on the web port.
"""

_SPLIT = re.compile(r",(?=\s*[A-Za-z0-9_-]+\s*=)")


def defaultPorts(plugins: Iterable[IProtocolPlugin]) -> dict[str, str]:
    """The web port and every protocol's, each where it listens by default."""
    return {WEB: WEB_DEFAULT, **{plugin.name: plugin.defaultEndpoint for plugin in plugins}}


def parsePorts(value: str, known: Mapping[str, str]) -> dict[str, str]:
    """
    Read ``NAME=ENDPOINT[,NAME=ENDPOINT...]``, each NAME one of ``known``:
    a Twisted server endpoint description, ``off``, or a bare port number
    meaning ``tcp:N``.  Raises L{usage.UsageError} naming what is wrong.
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


def count(value: str) -> int:
    """An option's coerce: a whole number, 1 or more."""
    number = int(value)
    if number < 1:
        raise ValueError(f"{value} is not a number of 1 or more")
    return number


def plainReason(reason: str, value: str | None) -> str:
    """A coerce's refusal in words: Python's own texts for int() and float() replaced."""
    if reason.startswith("invalid literal for int()"):
        return f"{value!r} is not a whole number"
    if reason.startswith("could not convert string to float"):
        return f"{value!r} is not a number"
    return reason


class NamedCoerceParameter(usage.CoerceParameter):
    """A coerced option whose bad value is a usage error naming the option."""

    def dispatch(self, parameterName: str, value: str | None) -> None:
        try:
            super().dispatch(parameterName, value)
        except usage.UsageError as e:
            reason = plainReason(str(e).removeprefix("Parameter type enforcement failed: "),
                                 value)
            raise usage.UsageError(f"--{parameterName}: {reason}") from None


GC_THRESHOLD = 50_000
"""
The garbage collector's first threshold under twistd (Python's is 700):
collections that each walk the young objects of hundreds of live games cost
a server about a tenth of its CPU, and each full collection held it for about a
tenth of a second.
"""


def tuneGarbageCollection(threshold: int) -> None:
    """
    Leave what exists now (the service as it started: modules, engines,
    settings) out of every later collection, and collect the youngest
    generation every ``threshold`` objects allocated, the older ones every
    20 collections of the one before; 0 changes nothing, and so does a
    Python without these settings (PyPy, whose collector is incremental).
    """
    if threshold <= 0 or not hasattr(gc, "freeze"):
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, 20, 20)


class Options(usage.Options):
    """
    Options of ``twistd gameproto``: the core's, then each protocol plugin's
    (``plugins``, by default every one installed).
    """

    synopsis = "[options]"

    optParameters: list[list[Any]] = [
        ["db", None, "gameproto.sqlite",
         "SQLite database holding every game's record, each action written as it is "
         "accepted; unfinished games are restored from it at start."],
        ["engines", None, None,
         "A directory of external engines: each subdirectory with a manifest.json "
         "(name, command, parameters, sprites)."],
        ["engine-timeout", None, 300.0,
         "Seconds a player of a game created through the engine JSON protocol has for "
         "each action; past it the engine's bot plays it, or the seat resigns.", seconds],
        ["engine-answer-timeout", None, 5.0,
         "Seconds an external engine has to answer; past it its game is aborted.", seconds],
        ["engine-open-seat-timeout", None, 3600.0,
         "Seconds a game of the engine JSON protocol waits for a player to take an open "
         "seat it asks to act; past it the game is aborted.", seconds],
        ["engine-bot-delay", None, 0.5,
         "Seconds between two actions of a game created by name that no person sits at "
         "(bots alone): such games are paced (0: not paced).", delay],
        ["engine-max-actions", None, 10_000,
         "The most actions a game of any protocol may have: past it the game is aborted, "
         "its record kept; a longer record is not restored at start.", count],
        ["engine-max-games", None, 1000,
         "The most games created by name (engine JSON protocol, HTTP API) or restored "
         "that are open at once.", count],
        ["engine-max-games-per-peer", None, 20,
         "The most open games created through the HTTP API from one address at once.", count],
        ["api-games-per-minute", None, 30,
         "Games one address may create through the HTTP API per minute (and at once); "
         "past it, HTTP 429 with Retry-After.", count],
        ["max-write-buffer", None, 1024 * 1024,
         "Bytes a connection (any port) may have waiting to be sent while its peer reads "
         "nothing; reading it stops at once, and past this it is aborted.", positiveCount],
        ["max-connections-per-peer", None, 64,
         "Connections one address may hold at once on each port, TCP or web "
         "(WebSockets included); others are refused (0: no cap).", cap],
        ["message-rate", None, 50.0,
         "Messages per second each connection may send on average, any protocol; above "
         "it (past --message-burst) the connection is not read until it may again "
         "(0: no limit).", rate],
        ["message-burst", None, 100,
         "Messages a connection may send at once before --message-rate applies.",
         positiveCount],
        ["message-timeout", None, 30.0,
         "Seconds a message has, once its first byte arrived, to arrive whole (TCP "
         "protocols, WebSockets); past it the connection is closed.", seconds],
        ["request-timeout", None, 30.0,
         "Seconds an HTTP request has, once its first byte arrived, to arrive whole "
         "(headers and body); past it the connection is closed.", seconds],
        ["web-requests-per-turn", None, 2,
         "HTTP requests the web port serves in one turn of the reactor, all peers "
         "together; the others wait, in order, for the next turns, so that a burst of "
         "requests cannot hold the games back (0: no bound).", cap],
        ["websocket-idle-timeout", None, 300.0,
         "Seconds a WebSocket may stay silent (it is pinged halfway, which browsers "
         "answer); past it, it is closed.", seconds],
        ["allowed-origins", None, None,
         "Origins (scheme://host[:port], separated by commas) whose pages may open the "
         "WebSockets, besides the page's own; clients sending no Origin are accepted."],
        ["gc-threshold", None, GC_THRESHOLD,
         "Python's garbage collector once the service has started: the objects of "
         "start-up are left out of every collection (gc.freeze), and the youngest "
         "generation is collected every this many objects allocated (net), each older "
         "one every 20 collections of the one before (0: Python's own settings).", cap],
    ]

    def __init__(self, plugins: Iterable[IProtocolPlugin] | None = None) -> None:
        self.plugins: Sequence[IProtocolPlugin] = tuple(protocolPlugins(
            plugins, [row[0] for row in self.optParameters] + ["ports", "engine"]))
        super().__init__()
        defaults = defaultPorts(self.plugins)
        self["plugins"] = self.plugins
        self["ports"] = dict(defaults)
        self["engine"] = []
        self.docs["ports"] = (
            "NAME=ENDPOINT[,NAME=ENDPOINT...]: where each protocol listens, as a Twisted "
            "server endpoint description (tcp:, ssl:, unix:, systemd:), a bare port number "
            "(tcp:N), or 'off' to disable it. Repeatable. Names and defaults: "
            + ", ".join(f"{k}={v}" for k, v in defaults.items())
            + f", {METRICS}={OFF} (Prometheus metrics at /metrics; when off, they are at "
            "/metrics of the web port)."
        )
        self.longdesc = " ".join([
            "Serve turn-based multiplayer games, each protocol on its own port.",
            f"{WEB}={WEB_DEFAULT}: the web page and HTTP API at / and /api, and the "
            "protocols' WebSockets.",
            *(f"{p.name}={p.defaultEndpoint}: {p.description}." for p in self.plugins),
        ])

    def _gather_parameters(self) -> Any:
        """
        Twisted's gathering of the class's C{optParameters}, then each
        plugin's rows, coerced and documented alike.
        """
        longOpt, shortOpt, docs, settings, synonyms, dispatch = super()._gather_parameters()
        for plugin in self.plugins:
            for row in plugin.optParameters:
                name, _, default, doc, coerce = padTo(5, list(row))
                longOpt.append(name + "=")
                docs[name] = doc
                settings[name] = default
                synonyms[name] = name
                dispatch[name] = usage.CoerceParameter(self, coerce or str)
        for name, handler in list(dispatch.items()):
            if type(handler) is usage.CoerceParameter:
                dispatch[name] = NamedCoerceParameter(self, handler.coerce)
        return longOpt, shortOpt, docs, settings, synonyms, dispatch

    def parseOptions(self, options: Sequence[str] | None = None) -> None:
        """
        Parse ``options``.  Under twistd (as its C{gameproto} subcommand) a
        usage error ends the process with one line and status 1, instead of
        the whole C{--help} followed by the error; elsewhere it raises
        L{usage.UsageError}.
        """
        try:
            super().parseOptions(options)
        except usage.UsageError as e:
            if getattr(self, "parent", None) is None:
                raise
            raise SystemExit(f"twistd gameproto: {e} (see twistd gameproto --help)") from None

    def opt_engine(self, value: str) -> None:
        # (twistd's help keeps a docstring's own line breaks' blanks: one line.)
        """PATH, NAME=PATH or NAME=COMMAND: an external engine, a manifest.json or a folder holding one (named by its manifest, or NAME), or a command whose only init parameter is players. Repeatable."""  # noqa: E501
        if not isManifestPath(value):
            try:
                parseEngineSpec(value)
            except ManifestError as e:
                raise usage.UsageError(f"--engine: {e}") from None
        self["engine"].append(value)

    def opt_ports(self, value: str) -> None:
        """NAME=ENDPOINT[,NAME=ENDPOINT...]: where each protocol listens."""
        self["ports"].update(parsePorts(value, {METRICS: OFF, **self["ports"]}))

    def postOptions(self) -> None:
        self["hub"] = HubSettings(
            timeout=self["engine-timeout"], engineTimeout=self["engine-answer-timeout"],
            openSeatTimeout=self["engine-open-seat-timeout"],
            botDelay=self["engine-bot-delay"], maxActions=self["engine-max-actions"],
            maxGames=self["engine-max-games"], maxGamesPerPeer=self["engine-max-games-per-peer"],
            gamesPerMinute=self["api-games-per-minute"])
        try:
            origins = originList(self["allowed-origins"])
        except ValueError as e:
            raise usage.UsageError(f"--allowed-origins: {e}") from None
        try:
            self["limits"] = Limits(
                maxWriteBuffer=self["max-write-buffer"],
                maxConnectionsPerPeer=self["max-connections-per-peer"],
                messageRate=self["message-rate"], messageBurst=self["message-burst"],
                messageTimeout=self["message-timeout"],
                requestTimeout=self["request-timeout"],
                requestsPerTurn=self["web-requests-per-turn"],
                webSocketIdleTimeout=self["websocket-idle-timeout"],
                allowedOrigins=origins)
        except ValueError as e:
            raise usage.UsageError(f"connection limits: {e}") from None
        self["settings"] = {plugin.name: plugin.settings(self) for plugin in self.plugins}
        self["manifests"] = externalManifests(
            self["engines"], self["engine"], usage.UsageError,
            taken=[engine.name for engine in pluginEngines(self.plugins)])
        checkDatabase(self["db"], usage.UsageError)
        if all(description == OFF for name, description in self["ports"].items()
               if name != METRICS):
            raise usage.UsageError("--ports: every protocol is off, nothing to serve")


def checkDatabase(path: str, error: Callable[[str], Exception]) -> None:
    """
    Raise ``error`` with one line when ``--db`` ``path`` cannot be used: a
    file that is there is opened (and closed) to see that it is a database;
    one that is not is only looked for a place, and not made before the
    server starts.
    """
    if path != ":memory:" and not os.path.lexists(path):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise error(f"--db: cannot use {path!r} (no folder {folder})")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise error(f"--db: cannot use {path!r} (its folder {folder} is not writable)")
        return
    try:
        SQLiteRecordStore(path).close()
    except (OSError, sqlite3.Error) as e:
        raise error(f"--db: cannot use {path!r} ({e})") from None


def externalManifests(directory: str | None, specs: list[str],
                      error: Callable[[str], Exception] = ManifestError,
                      taken: Iterable[str] = ()) -> list[EngineManifest]:
    """
    The external engines named by ``--engines`` and ``--engine`` (each
    ``PATH`` or ``NAME=SPEC``, read by L{EngineManifest.fromSpec}), none
    named as another or as one of ``taken`` (the protocol plugins' engines).
    Raises ``error`` (L{ManifestError} by default) with a text that begins
    with the option at fault.
    """
    try:
        manifests = loadEngineDirectory(Path(directory)) if directory else []
    except ManifestError as e:
        raise error(f"--engines: {e}") from None
    for spec in specs:
        try:
            manifests.append(EngineManifest.fromSpec(spec))
        except ManifestError as e:
            raise error(f"--engine: {e}") from None
    names = [m.name for m in manifests]
    reserved = set(taken)
    for name in names:
        if names.count(name) > 1 or name in reserved:
            option = "--engine" if specs else "--engines"
            raise error(f"{option}: two engines are named {name!r}")
    return manifests


def makeHub(options: Mapping[str, Any], clock: IReactorTime, processes: Any = None,
            store: RecordStore | None = None) -> Hub:
    """
    The hub every port shares: the record store (``store``, else that of
    ``--db``), the engines the protocol plugins bring and the external ones
    (``processes`` spawns them: the reactor by default), the clock, the
    settings of the games it hosts.
    """
    settings = options["hub"]
    if processes is None:
        from twisted.internet import reactor as processes
    registry = EngineRegistry()
    for engine in pluginEngines(options["plugins"]):
        registry.add(engine)
    for manifest in options.get("manifests") or ():
        registry.add(ExternalEngine(manifest, processes, settings.engineTimeout))
    return Hub(clock, store if store is not None else SQLiteRecordStore(options["db"]), None,
               registry, settings=settings, limits=options.get("limits") or Limits(),
               batchCommits=True)


def webResources(hub: Hub, plugins: Iterable[IProtocolPlugin], servers: Mapping[str, Any],
                 ports: Mapping[str, str]) -> dict[bytes, Resource]:
    """
    What the web port serves besides its page: the API, and the web
    resources of every protocol that is on (and of those that keep them
    when off).
    """
    children: dict[bytes, Resource] = {}
    for plugin in plugins:
        if IWebProtocolPlugin.providedBy(plugin) and (
            plugin.webWhenOff or ports.get(plugin.name, OFF) != OFF
        ):
            children.update(plugin.webResources(servers[plugin.name]))
    api = API(hub)
    hub.metrics.watchReplays(api.replays)
    children[b"api"] = api
    if ports.get(METRICS, OFF) == OFF:
        children[b"metrics"] = MetricsResource(hub.metrics)
    return children


class StartupError(SystemExit, Exception):
    """
    The service cannot start (a port cannot listen): its one line names
    the port, the endpoint and the cause.  Under twistd it ends the process
    with status 1 and that line, without a traceback (it is a
    C{SystemExit}), once twistd has removed its pid file and told a
    daemon's parent (it is an C{Exception}).
    """


def errorCause(error: BaseException) -> str:
    """A short, lower-case cause: C{address already in use}, C{permission denied}."""
    cause = getattr(error, "socketError", None) or error
    if isinstance(cause, OSError) and cause.strerror:
        text = cause.strerror
    else:
        text = str(cause).strip()
    if not text:
        return type(cause).__name__
    return text[:1].lower() + text[1:]


def metricsSite(metrics: Metrics) -> Site:
    """The metrics port: C{/metrics} (and C{/}) in Prometheus's text format."""
    root = Resource()
    resource = MetricsResource(metrics)
    root.putChild(b"", resource)
    root.putChild(b"metrics", resource)
    site = Site(root)
    site.displayTracebacks = False
    return site


class GameprotoService(service.MultiService):
    """
    Every port's listening service, named after its port; ``hub`` is what
    they share, ``servers`` each protocol's server by its name.
    """

    def __init__(self, hub: Hub, servers: Mapping[str, Any]) -> None:
        super().__init__()
        self.hub = hub
        self.servers = dict(servers)
        self.endpoints: dict[str, str] = {}
        """Each port's endpoint description, by its name."""
        self.checkpointer: Checkpointer | None = None
        """
        The record store's checkpoints in a thread, from start to stop (the
        server's: L{makeService} on a reactor with threads); None: SQLite's own.
        """
        self.gcThreshold = 0
        """
        The garbage collector's setting once started (L{tuneGarbageCollection};
        C{--gc-threshold} under twistd; 0: unchanged, as in a process that embeds it).
        """

    @property
    def metrics(self) -> Metrics:
        """The service's metrics (the hub's)."""
        return self.hub.metrics

    @property
    def games(self) -> Hub:
        """The shared state behind every port (the hub), as callers knew it."""
        return self.hub

    def privilegedStartService(self) -> None:
        """
        Listen on every port (before twistd sheds privileges); a port that
        cannot listen raises L{StartupError} naming it.
        """
        service.Service.privilegedStartService(self)
        self._startChildren(lambda child: child.privilegedStartService())

    def startService(self) -> None:
        """Listen, and host again the games a previous run left unfinished."""
        service.Service.startService(self)
        self._startChildren(lambda child: child.startService())
        restoring = self.hub.restore()

        def restored(ids: list[int]) -> None:
            if ids:
                log.info("restored {count} unfinished games: {ids}", count=len(ids), ids=ids)

        restoring.addCallback(restored)
        restoring.addErrback(lambda f: log.failure("restoring games failed", f))
        if self.checkpointer is not None:
            self.checkpointer.start()
        tuneGarbageCollection(self.gcThreshold)

    def _startChildren(self, start: Callable[[service.IService], object]) -> None:
        """Start each port, or stop those started and raise L{StartupError} naming it."""
        started: list[service.IService] = []
        for child in self:
            try:
                start(child)
            except Exception as e:
                for done in started:
                    defer.maybeDeferred(done.stopService).addErrback(lambda f: None)
                self.running = False
                name = child.name or "?"
                raise StartupError(
                    f"gameproto: cannot listen for {name} on "
                    f"{self.endpoints.get(name, '?')}: {errorCause(e)} (--ports {name}=...)"
                ) from None
            started.append(child)

    def stopService(self) -> Deferred[None]:
        """
        Suspend the live games (kept for the next start: L{Hub.stop}), stop
        listening, then the checkpoints, then close the record store.
        """
        self.hub.stop()
        d = defer.maybeDeferred(super().stopService)
        if self.checkpointer is not None:
            checkpointer = self.checkpointer
            d.addBoth(lambda result: checkpointer.stop().addCallback(lambda _: result))

        def close(result: object) -> object:
            self.hub.store.close()
            return result

        d.addBoth(close)
        return d


class UnusableDatabase(StartupError):
    """
    The database of ``--db`` cannot be used (not a database, a directory,
    not writable): its one line says which and why, as L{StartupError}.
    """


def checkpointerFor(hub: Hub, clock: IReactorTime) -> Checkpointer | None:
    """
    The checkpoints of ``hub``'s store in the reactor's thread pool, for a
    store in a file that batches its commits on a reactor with threads; None
    otherwise (SQLite then checkpoints in the commit that fills its log).
    """
    store = hub.store
    if not isCheckpointable(store) or not IReactorThreads.providedBy(clock):
        return None
    reactor: Any = clock

    def runInThread(f: Callable[[], tuple[int, int, int]]) -> Deferred[tuple[int, int, int]]:
        return deferToThreadPool(reactor, reactor.getThreadPool(), f)

    return Checkpointer(store, clock, runInThread)


def makeService(options: Mapping[str, Any], clock: IReactorTime | None = None,
                processes: Any = None, store: RecordStore | None = None) -> GameprotoService:
    """
    Every port that is not off, each on its endpoint, one hub behind them,
    whose records go to ``store`` (any L{RecordStore}; by default the
    SQLite file of ``--db``).  The service runs once: stopping it closes
    its store, and a new start needs a new service.
    """
    if clock is None:
        from twisted.internet import reactor as clock  # type: ignore[assignment]
    assert clock is not None
    try:
        hub = makeHub(options, clock, processes, store)
    except (OSError, sqlite3.Error) as e:
        raise UnusableDatabase(f"gameproto: --db: cannot use {options['db']!r} ({e})") from None
    plugins: Sequence[IProtocolPlugin] = options["plugins"]
    settings = options["settings"]
    servers = {plugin.name: plugin.makeServer(hub, settings[plugin.name]) for plugin in plugins}
    byName = {plugin.name: plugin for plugin in plugins}
    ports: dict[str, str] = options["ports"]
    top = GameprotoService(hub, servers)
    top.checkpointer = checkpointerFor(hub, clock)
    if getattr(options, "parent", None) is not None:  # twistd's: the whole process is ours
        top.gcThreshold = options.get("gc-threshold", GC_THRESHOLD)
    for name, description in ports.items():
        if description == OFF:
            continue
        if name == WEB:
            factory: Any = makeSite(webResources(hub, plugins, servers, ports), hub.limits,
                                    clock)
        elif name == METRICS:
            factory = metricsSite(hub.metrics)
        else:
            factory = byName[name].factory(servers[name])
        child = strports.service(description, factory)
        child.setName(name)
        child.setServiceParent(top)
        top.endpoints[name] = description
    return top
