"""
Helpers of ``bench/connect4_load.py`` that run in other processes.

- A bare Twisted TCP echo server, the baseline:

      python bench/_support.py echo PORT [LIFETIME_SECONDS]

  It listens on 127.0.0.1:PORT with the default reactor and writes back
  whatever each connection sends (no framing, no parsing, no logging), with
  TCP_NODELAY as gameproto sets it; it stops by itself after
  LIFETIME_SECONDS (default 300).

- ``discardingLogger``, a log observer factory for ``twistd
  --logger=bench._support.discardingLogger`` (with the repository root on
  PYTHONPATH): every event is dropped, so a run measures gameproto without
  the cost of formatting and writing its log.  (Do not use ``twistd
  --logfile=/dev/null`` for that: twistd rotates its log file every 1 MB by
  renaming it, and as root that would rename /dev/null itself.)
"""

from __future__ import annotations

import sys

from twisted.internet.protocol import Factory, Protocol
from twisted.logger import ILogObserver, LogEvent
from zope.interface import provider


@provider(ILogObserver)
def _discard(event: LogEvent) -> None:
    pass


def discardingLogger() -> ILogObserver:
    """A log observer that drops every event."""
    return _discard


class Echo(Protocol):
    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)  # type: ignore[attr-defined]

    def dataReceived(self, data: bytes) -> None:
        self.transport.write(data)  # type: ignore[union-attr]


def echoMain(port: int, lifetime: float) -> None:
    from twisted.internet import reactor

    factory = Factory.forProtocol(Echo)
    factory.noisy = False
    reactor.listenTCP(port, factory, interface="127.0.0.1")  # type: ignore[attr-defined]
    reactor.callLater(lifetime, reactor.stop)  # type: ignore[attr-defined]
    reactor.run()  # type: ignore[attr-defined]


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "echo":
        sys.exit(__doc__)
    echoMain(int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 300.0)
