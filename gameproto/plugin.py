"""
Protocol plugins: how a protocol joins ``twistd gameproto``.

Each protocol gameproto serves is an object providing L{IProtocolPlugin}
(and C{twisted.plugin.IPlugin}, as L{ProtocolPlugin} does), found by C{twisted.plugin.getPlugins} in the C{twisted.plugins} package:
gameproto's own are listed in C{twisted/plugins/gameproto_protocols.py}, and
a third party's package ships its own file in its own C{twisted/plugins/}.
Every plugin brings its C{--ports} name and default endpoint, its own options
(prefixed with its name), the server behind its connections (made on the
shared hub), the factory of its connections and, if any, its resources on the
web port and the engines of its games (which the hub's registry holds).
C{gameproto.tap} loops over them and names no protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Iterable, Mapping, Sequence, TypeVar

from twisted.internet.interfaces import IProtocolFactory
from twisted.logger import Logger
from twisted.plugin import IPlugin
from twisted.web.resource import Resource
from zope.interface import Attribute, Interface, implementer

if TYPE_CHECKING:
    from gameproto.engine.contract import EngineFactory
    from gameproto.engine.hub import Hub

log = Logger(namespace="gameproto.plugin")

WEB_PORT = "web"
"""
The core's own port (the page, the HTTP API, every plugin's web
resources): no plugin may take its name.
"""

OptionRow = Sequence[Any]
"""One C{optParameters} row: long name, short name (None), default, help, coerce."""


class IProtocolPlugin(Interface):
    """
    One protocol served by ``twistd gameproto`` on its own port, over the
    hub every protocol shares.
    """

    name = Attribute(
        "The protocol's name in --ports (connect4, maitretarot, engine): "
        "letters, digits, - and _; its options start with it and a dash."
    )
    defaultEndpoint = Attribute(
        "Where it listens by default: a Twisted server endpoint description (tcp:4000)."
    )
    description = Attribute("One line for --help: what is served there.")
    optParameters = Attribute(
        "Its options, as rows of twisted.python.usage.Options.optParameters "
        "(long name, None, default, help, coerce), each long name starting "
        "with the plugin's name and a dash."
    )
    def settings(options: Mapping[str, Any]) -> Any:
        """
        The protocol's validated settings, read from the parsed ``options``
        (its own and the core's).  A bad value raises
        C{twisted.python.usage.UsageError} naming it.
        """

    def makeServer(hub: Hub, settings: Any) -> Any:
        """The state behind every connection of the protocol, on ``hub``."""

    def factory(server: Any) -> IProtocolFactory:
        """The factory of the protocol's connections to ``server``."""


class IWebProtocolPlugin(IProtocolPlugin):
    """A protocol plugin that also serves resources on the web port (a WebSocket)."""

    webWhenOff = Attribute(
        "True if its web resources stay on the web port when its own port is "
        "off (the page's way in); False if off means off everywhere."
    )

    def webResources(server: Any) -> dict[bytes, Resource]:
        """Its resources on the web port, by path segment (C{{b"connect4": ...}})."""


class IEngineProtocolPlugin(IProtocolPlugin):
    """
    A protocol plugin that also brings engines: the games it plays, which
    the hub's registry then holds whether its port is on or off, so that
    the HTTP API lists them, the engine JSON protocol and the API create
    them by name, records replay and a restart restores their games.
    """

    def engines() -> Sequence[EngineFactory]:
        """
        The engines it brings (C{gameproto.engine.contract.EngineFactory}),
        each under a name no other plugin's engine has.
        """


SettingsT = TypeVar("SettingsT")
ServerT = TypeVar("ServerT")


@implementer(IPlugin, IWebProtocolPlugin, IEngineProtocolPlugin)
class ProtocolPlugin(Generic[SettingsT, ServerT]):
    """
    A base for protocol plugins: set the attributes, write L{settings},
    L{makeServer} and L{factory}; no web resources unless L{webResources}
    says otherwise, no engines unless L{engines} does.
    """

    name: str
    defaultEndpoint: str
    description: str
    optParameters: Sequence[OptionRow] = ()
    webWhenOff = False

    def settings(self, options: Mapping[str, Any]) -> SettingsT:
        raise NotImplementedError

    def makeServer(self, hub: Hub, settings: SettingsT) -> ServerT:
        raise NotImplementedError

    def factory(self, server: ServerT) -> IProtocolFactory:
        raise NotImplementedError

    def webResources(self, server: ServerT) -> dict[bytes, Resource]:
        return {}

    def engines(self) -> Sequence[EngineFactory]:
        return ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def broughtEngines(plugin: IProtocolPlugin) -> list[EngineFactory]:
    """The engines ``plugin`` brings (L{IEngineProtocolPlugin}); none if it brings none."""
    if IEngineProtocolPlugin.providedBy(plugin):
        return list(plugin.engines())
    return []


def pluginEngines(plugins: Iterable[IProtocolPlugin]) -> list[EngineFactory]:
    """Every engine the ``plugins`` bring, in their order: what the hub's registry holds."""
    return [engine for plugin in plugins for engine in broughtEngines(plugin)]


def _problem(plugin: IProtocolPlugin, taken: set[str], options: set[str],
             games: set[str]) -> str | None:
    name = getattr(plugin, "name", None)
    if not isinstance(name, str) or not name or not all(
        c.isalnum() or c in "-_" for c in name
    ):
        return f"bad name {name!r}"
    if name == WEB_PORT or name in taken:
        return f"the name {name!r} is taken"
    for row in plugin.optParameters:
        if not str(row[0]).startswith(name + "-"):
            return f"its option {row[0]!r} does not start with {name + '-'!r}"
        if row[0] in options:
            return f"its option {row[0]!r} is taken"
    try:
        brought = [engine.name for engine in broughtEngines(plugin)]
    except Exception as e:
        return f"its engines cannot be listed ({e!r})"
    for game in brought:
        if not isinstance(game, str) or not game:
            return f"its engine named {game!r} has no name"
        if game in games or brought.count(game) > 1:
            return f"its engine {game!r} is taken"
    return None


def protocolPlugins(found: Iterable[IProtocolPlugin] | None = None,
                    reservedOptions: Iterable[str] = ()) -> list[IProtocolPlugin]:
    """
    Every protocol plugin installed (or those ``found``), in the order
    found.  A plugin whose name is taken or bad, whose options are not
    prefixed with its name or are taken (by an earlier plugin, or one of
    ``reservedOptions``), or which brings an engine whose name an earlier
    plugin's engine has, is left out, and a log line says why.
    """
    if found is None:
        from twisted.plugin import getPlugins

        found = getPlugins(IProtocolPlugin)
    plugins: list[IProtocolPlugin] = []
    taken: set[str] = set()
    options = set(reservedOptions)
    games: set[str] = set()
    for plugin in found:
        problem = _problem(plugin, taken, options, games)
        if problem is not None:
            log.error("protocol plugin {plugin!r} left out: {problem}", plugin=plugin,
                      problem=problem)
            continue
        taken.add(plugin.name)
        options.update(row[0] for row in plugin.optParameters)
        games.update(engine.name for engine in broughtEngines(plugin))
        plugins.append(plugin)
    return plugins


def seconds(value: str) -> float:
    """An option's coerce: a positive, finite number of seconds."""
    number = float(value)
    if not number > 0 or number == float("inf"):
        raise ValueError(f"{value} is not a positive number of seconds")
    return number


def delay(value: str) -> float:
    """An option's coerce: a finite number of seconds, 0 or more."""
    number = float(value)
    if not 0 <= number < float("inf"):
        raise ValueError(f"{value} is not a number of seconds")
    return number
