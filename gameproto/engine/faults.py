"""
Log lines for clients' faults (a malformed message, a body that is not
JSON, a request over a limit, a connection closed for what its peer did),
and for connections made and gone, at a bounded rate per peer: a client
that repeats its fault, or connects again and again, cannot fill the disk
with the log.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger, LogLevel

log = Logger(namespace="gameproto.faults")

connectionsLog = Logger(namespace="gameproto.connections")


class PeerLines:
    """
    At most ``lines`` lines per peer in each ``period`` seconds on
    ``clock``, at ``level``; the lines left out are counted, and the next
    line logged for that peer says how many there were (``what`` names
    them).  At most ``peers`` peers are remembered at once.
    """

    def __init__(self, clock: IReactorTime, lines: int = 5, period: float = 60.0,
                 peers: int = 10_000, logger: Logger = log,
                 level: LogLevel = LogLevel.warn, what: str = "faults") -> None:
        self.clock = clock
        self.lines = lines
        self.period = period
        self.peers = peers
        self.log = logger
        self.level = level
        self.what = what
        self._seen: dict[str, tuple[float, int, int]] = {}
        """Each peer's period start, lines logged in it, and lines left out since."""

    def line(self, peer: str, format: str, **fields: Any) -> bool:
        """
        Log ``format`` (a twisted.logger format, its ``fields``, and
        ``peer``) for ``peer``, unless that peer has had its lines this
        period.  Whether it was logged.
        """
        now = self.clock.seconds()
        start, logged, dropped = self._seen.get(peer, (now, 0, 0))
        if now - start >= self.period:
            start, logged = now, 0
        if logged >= self.lines:
            self._remember(peer, (start, logged, dropped + 1), now)
            return False
        if dropped:
            format += f" ({{dropped}} more {self.what} from this peer not logged)"
        self.log.emit(self.level, format, peer=peer, dropped=dropped, **fields)
        self._remember(peer, (start, logged + 1, 0), now)
        return True

    def _remember(self, peer: str, state: tuple[float, int, int], now: float) -> None:
        self._seen[peer] = state
        if len(self._seen) > self.peers:
            self._seen = {who: seen for who, seen in self._seen.items()
                          if now - seen[0] < self.period}
            if len(self._seen) > self.peers:
                self._seen = {peer: state}


class FaultLog(PeerLines):
    """
    Clients' faults, as warnings: at most ``lines`` per peer (an address)
    in each ``period`` seconds on ``clock``; the faults left out are
    counted, and the next line logged for that peer says how many there
    were.  At most ``peers`` peers are remembered at once.

    The lines of connections made and gone (L{connection}) are info lines
    under the same rule, with their own ``connectionLines`` per peer, so
    that a peer connecting again and again neither fills the log nor
    crowds out its faults.
    """

    def __init__(self, clock: IReactorTime, lines: int = 5, period: float = 60.0,
                 peers: int = 10_000, logger: Logger = log,
                 connectionLines: int = 10) -> None:
        super().__init__(clock, lines, period, peers, logger)
        self.connections = PeerLines(clock, connectionLines, period, peers, connectionsLog,
                                     LogLevel.info, "connection lines")
        """The lines of connections made and gone, bounded on their own."""

    def fault(self, peer: str, format: str, **fields: Any) -> bool:
        """
        ``peer`` made a fault: log ``format`` (a twisted.logger format, its
        ``fields``, and ``peer``) as a warning, unless that peer has had its
        lines this period.  Whether it was logged.
        """
        return self.line(peer, format, **fields)

    def connection(self, peer: str, format: str, **fields: Any) -> bool:
        """
        A connection of ``peer`` was made or is gone: log ``format`` as an
        info line, unless that peer has had its connection lines this
        period.  Whether it was logged.
        """
        return self.connections.line(peer, format, **fields)
