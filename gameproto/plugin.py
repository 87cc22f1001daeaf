"""
Protocol plugins: how a protocol joins ``twistd gameproto``.

Each protocol gameproto serves is an object providing L{IProtocolPlugin}
(and C{twisted.plugin.IPlugin}, as L{ProtocolPlugin} does), found by C{twisted.plugin.getPlugins} in the C{twisted.plugins} package:
gameproto's own are listed in C{twisted/plugins/gameproto_protocols.py}, and
a third party's package ships its own file in its own C{twisted/plugins/}.
Every plugin brings its C{--ports} name and default endpoint, its own options
(prefixed with its name), the server behind its connections (made on the
shared hub), the factory of its connections and, if any, its resources on the
web port.  C{gameproto.tap} loops over them and names no protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Iterable, Mapping, Sequence, TypeVar

from twisted.internet.interfaces import IProtocolFactory
from twisted.logger import Logger
from twisted.plugin import IPlugin
from twisted.web.resource import Resource
from zope.interface import Attribute, Interface, implementer

if TYPE_CHECKING:
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


SettingsT = TypeVar("SettingsT")
ServerT = TypeVar("ServerT")


@implementer(IPlugin, IWebProtocolPlugin)
class ProtocolPlugin(Generic[SettingsT, ServerT]):
    """
    A base for protocol plugins: set the attributes, write L{settings},
    L{makeServer} and L{factory}; no web resources unless L{webResources}
    says otherwise.
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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def _problem(plugin: IProtocolPlugin, taken: set[str], options: set[str]) -> str | None:
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
    return None


def protocolPlugins(found: Iterable[IProtocolPlugin] | None = None,
                    reservedOptions: Iterable[str] = ()) -> list[IProtocolPlugin]:
    """
    Every protocol plugin installed (or those ``found``), in the order
    found.  A plugin whose name is taken or bad, or whose options are not
    prefixed with its name or are taken (by an earlier plugin, or one of
    ``reservedOptions``), is left out, and a log line says why.
    """
    if found is None:
        from twisted.plugin import getPlugins

        found = getPlugins(IProtocolPlugin)
    plugins: list[IProtocolPlugin] = []
    taken: set[str] = set()
    options = set(reservedOptions)
    for plugin in found:
        problem = _problem(plugin, taken, options)
        if problem is not None:
            log.error("protocol plugin {plugin!r} left out: {problem}", plugin=plugin,
                      problem=problem)
            continue
        taken.add(plugin.name)
        options.update(row[0] for row in plugin.optParameters)
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
