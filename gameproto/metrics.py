"""
Prometheus metrics: what an operator needs to see of a running server.

Each hub owns one L{Metrics} (C{hub.metrics}), with its own
C{CollectorRegistry}: several services in one process (tests build many)
never mix their figures.  Every layer reaches it through the hub, so no
layer imports another to count.  What is counted:

  - C{gameproto_connections{protocol}}: open connections of each protocol
    (TCP and WebSocket alike), counted when scraped from the live ones;
  - C{gameproto_write_buffer_bytes{protocol}}: bytes written to those
    connections and not yet taken by the network, summed when scraped;
  - C{gameproto_games{game}}: live games of each engine (a table may seat
    players of several protocols, so games and actions are per game);
  - C{gameproto_games_started_total{game}}, C{gameproto_actions_total{game}}:
    games formed and actions accepted (their rate is actions per second);
  - C{gameproto_refused_total{protocol, cause}}: connections closed or
    requests refused, by cause (L{refused});
  - C{gameproto_replays{state}}: the HTTP API's replays running and waiting;
  - C{gameproto_web_requests_waiting}: HTTP requests waiting for the web
    port's share of a turn of the reactor (C{--web-requests-per-turn});
  - C{gameproto_store_write_seconds{operation}}: how long each write to the
    record store takes.

L{refused} is the one call every layer makes to count a refusal.
"""

from __future__ import annotations

import weakref
from typing import (
    TYPE_CHECKING,
    Callable,
    ContextManager,
    Iterable,
    Iterator,
    Protocol,
    runtime_checkable,
)

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector
from twisted.internet.defer import DeferredSemaphore
from twisted.web.resource import Resource
from twisted.web.server import Request

from gameproto._compat import pendingWriteBytes

if TYPE_CHECKING:
    from gameproto.engine.table import Table

__all__ = ["FactoryHolder", "HubHolder", "Metrics", "MetricsHolder", "MetricsResource", "Named",
           "ServerHolder", "metricsOf", "refused"]

STORE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                 0.25, 0.5, 1.0)
"""Store writes take microseconds (WAL): the buckets start well below a millisecond."""


class Metrics:
    """
    One service's metrics, in its own C{registry}.  ``tables`` gives the
    live games when scraped (the hub's).
    """

    def __init__(self, tables: Callable[[], Iterable[Table]] = lambda: ()) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._tables = tables
        self._connections: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()
        self._replays: list[DeferredSemaphore] = []
        self._turnShares: list[Waiting] = []
        self.gamesStarted = Counter(
            "gameproto_games_started", "Games formed, by game (engine).", ["game"],
            registry=self.registry)
        self.refusals = Counter(
            "gameproto_refused",
            "Connections closed or requests refused for a client's fault or a limit, "
            "by protocol and cause.", ["protocol", "cause"], registry=self.registry)
        self.storeWrites = Histogram(
            "gameproto_store_write_seconds",
            "Seconds each write to the record store takes, by operation.", ["operation"],
            buckets=STORE_BUCKETS, registry=self.registry)
        self.registry.register(_Scraped(self))
        self.actions: dict[str, int] = {}
        """
        Actions accepted so far, by game: C{gameproto_actions_total}, read
        when scraped.  Counted here rather than by a C{Counter}, whose
        increment (a lock taken and released) cost every action of every
        game about a microsecond.
        """
        # Each label's child, looked up once: these time every commit.
        self._storeHistograms: dict[str, Histogram] = {}

    # -- what the layers tell ------------------------------------------------

    def connectionOpened(self, connection: object, protocol: str) -> None:
        """``connection`` (a Twisted protocol of ``protocol``) is open."""
        self._connections[connection] = protocol

    def connectionClosed(self, connection: object) -> None:
        """``connection`` is closed."""
        self._connections.pop(connection, None)

    def gameStarted(self, game: str) -> None:
        """A game of ``game`` (an engine's name) was formed."""
        self.gamesStarted.labels(game).inc()

    def actionAccepted(self, game: str) -> None:
        """A game of ``game`` accepted an action."""
        actions = self.actions
        actions[game] = actions.get(game, 0) + 1

    def refused(self, protocol: str, cause: str) -> None:
        """One refusal of ``cause`` on ``protocol``."""
        self.refusals.labels(protocol, cause).inc()

    def storeTimer(self, operation: str) -> ContextManager[object]:
        """Times one write of the store (``operation``: start, action, seats, finish, commit)."""
        histogram = self._storeHistograms.get(operation)
        if histogram is None:
            histogram = self._storeHistograms[operation] = self.storeWrites.labels(operation)
        return histogram.time()

    def watchReplays(self, semaphore: DeferredSemaphore) -> None:
        """Report the replays ``semaphore`` runs and queues."""
        self._replays.append(semaphore)

    def watchRequestTurns(self, share: Waiting) -> None:
        """Report the HTTP requests ``share`` (a web port's share of each turn) holds back."""
        self._turnShares.append(share)

    # -- reading -------------------------------------------------------------

    def connections(self) -> dict[str, list[object]]:
        """The open connections, by protocol."""
        byProtocol: dict[str, list[object]] = {}
        for connection, protocol in list(self._connections.items()):
            byProtocol.setdefault(protocol, []).append(connection)
        return byProtocol

    def exposition(self) -> bytes:
        """Every metric, in Prometheus's text format."""
        return generate_latest(self.registry)


class _Scraped(Collector):
    """The gauges read from live state each time the metrics are scraped, and the actions' count."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        metrics = self.metrics
        connections = GaugeMetricFamily(
            "gameproto_connections", "Open connections, by protocol (TCP and WebSocket).",
            labels=["protocol"])
        buffered = GaugeMetricFamily(
            "gameproto_write_buffer_bytes",
            "Bytes written to the open connections and not yet sent, by protocol.",
            labels=["protocol"])
        for protocol, live in sorted(metrics.connections().items()):
            connections.add_metric([protocol], len(live))
            buffered.add_metric([protocol], sum(
                pendingWriteBytes(getattr(c, "transport", None)) for c in live))
        yield connections
        yield buffered
        games = GaugeMetricFamily("gameproto_games", "Live games, by game (engine).",
                                  labels=["game"])
        counts: dict[str, int] = {}
        for table in metrics._tables():
            counts[table.factory.name] = counts.get(table.factory.name, 0) + 1
        for game, count in sorted(counts.items()):
            games.add_metric([game], count)
        yield games
        actions = CounterMetricFamily(
            "gameproto_actions", "Actions accepted (resignations too), by game (engine).",
            labels=["game"])
        for game, count in sorted(metrics.actions.items()):
            actions.add_metric([game], count)
        yield actions
        replays = GaugeMetricFamily(
            "gameproto_replays", "Replays of the HTTP API: running, and waiting for a place.",
            labels=["state"])
        running = sum(s.limit - s.tokens for s in metrics._replays)
        waiting = sum(len(s.waiting) for s in metrics._replays)
        replays.add_metric(["running"], running)
        replays.add_metric(["waiting"], waiting)
        yield replays
        yield GaugeMetricFamily(
            "gameproto_web_requests_waiting",
            "HTTP requests waiting for the web port's share of a turn of the reactor "
            "(--web-requests-per-turn).",
            value=sum(share.waiting for share in metrics._turnShares))


class Waiting(Protocol):
    """What holds work back (a web port's L{gameproto.net.TurnShare}): how much waits."""

    @property
    def waiting(self) -> int:
        """The pieces of work waiting."""


@runtime_checkable
class MetricsHolder(Protocol):
    """What holds a service's metrics: a hub."""

    metrics: Metrics


@runtime_checkable
class HubHolder(Protocol):
    """What holds the hub: a protocol's server, a web resource, a player."""

    hub: object


@runtime_checkable
class ServerHolder(Protocol):
    """What holds a protocol's server: the factory of its connections."""

    server: object


@runtime_checkable
class FactoryHolder(Protocol):
    """What knows the factory that built it: a connection (a Twisted protocol)."""

    factory: object


@runtime_checkable
class Named(Protocol):
    """A connection naming its protocol (a L{gameproto.net.WireProtocol})."""

    logName: str


def metricsOf(source: object) -> Metrics | None:
    """
    The metrics ``source`` leads to, down the declared holders: a
    L{Metrics}; a L{MetricsHolder} (the hub); a L{HubHolder} (a server,
    resource or player); a L{ServerHolder} (a factory); a L{FactoryHolder}
    (a connection).  None otherwise.
    """
    for _ in range(5):
        if isinstance(source, Metrics):
            return source
        if isinstance(source, MetricsHolder):
            return source.metrics if isinstance(source.metrics, Metrics) else None
        if isinstance(source, HubHolder):
            source = source.hub
        elif isinstance(source, ServerHolder):
            source = source.server
        elif isinstance(source, FactoryHolder):
            source = source.factory
        else:
            return None
    return None


def refused(protocol: object, cause: str, name: str | None = None) -> None:
    """
    Count one refusal (a connection closed, a message held back, a
    request refused) of ``cause`` (a short word: C{dropped},
    C{rate-limit}, C{origin}, C{backpressure}, C{too-many}, ...; the
    operations document lists them) on the metrics ``protocol`` leads to
    (see L{metricsOf}): usually the Twisted protocol of the connection
    refused, whose C{logName} (L{Named}) is the protocol's label; else
    ``name`` says it.  Nothing happens where no metrics are found.
    """
    metrics = metricsOf(protocol)
    if metrics is not None:
        named = protocol.logName if isinstance(protocol, Named) else None
        metrics.refused(name or named or "web", cause)


class MetricsResource(Resource):
    """``/metrics``: the metrics of one service, in Prometheus's text format."""

    isLeaf = True

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()
        self.metrics = metrics

    def render(self, request: Request) -> bytes:
        """GET and HEAD: the metrics; any other method: 405 (answered here, whatever the URI)."""
        if request.method not in (b"GET", b"HEAD"):
            request.setResponseCode(405)
            request.setHeader(b"allow", b"GET, HEAD")
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            return b"GET or HEAD only\n"
        request.setHeader(b"content-type", CONTENT_TYPE_LATEST.encode("ascii"))
        request.setHeader(b"cache-control", b"no-store")
        return self.metrics.exposition()
