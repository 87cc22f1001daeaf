"""
Log lines for clients' faults (a malformed message, a body that is not
JSON, a request over a limit), at a bounded rate per peer: a client that
repeats its fault cannot fill the disk with the log.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

log = Logger(namespace="gameproto.faults")


class FaultLog:
    """
    At most ``lines`` client-fault lines per peer in each ``period``
    seconds on ``clock``; the faults left out are counted, and the next
    line logged for that peer says how many there were.  At most
    ``peers`` peers are remembered at once.
    """

    def __init__(self, clock: IReactorTime, lines: int = 5, period: float = 60.0,
                 peers: int = 10_000, logger: Logger = log) -> None:
        self.clock = clock
        self.lines = lines
        self.period = period
        self.peers = peers
        self.log = logger
        self._seen: dict[str, tuple[float, int, int]] = {}
        """Each peer's period start, lines logged in it, and faults left out since."""

    def fault(self, peer: str, format: str, **fields: Any) -> bool:
        """
        ``peer`` made a fault: log ``format`` (a twisted.logger format, its
        ``fields``, and ``peer``) as a warning, unless that peer has had its
        lines this period.  Whether it was logged.
        """
        now = self.clock.seconds()
        start, logged, dropped = self._seen.get(peer, (now, 0, 0))
        if now - start >= self.period:
            start, logged = now, 0
        if logged >= self.lines:
            self._remember(peer, (start, logged, dropped + 1), now)
            return False
        if dropped:
            format += " ({dropped} more faults from this peer not logged)"
        self.log.warn(format, peer=peer, dropped=dropped, **fields)
        self._remember(peer, (start, logged + 1, 0), now)
        return True

    def _remember(self, peer: str, state: tuple[float, int, int], now: float) -> None:
        self._seen[peer] = state
        if len(self._seen) > self.peers:
            self._seen = {who: seen for who, seen in self._seen.items()
                          if now - seen[0] < self.period}
            if len(self._seen) > self.peers:
                self._seen = {peer: state}
