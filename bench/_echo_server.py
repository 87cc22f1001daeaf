"""
A bare Twisted TCP echo server, the baseline of ``bench/connect4_load.py``.

    python bench/_echo_server.py PORT [LIFETIME_SECONDS]

Listens on 127.0.0.1:PORT with the default reactor and writes back whatever
each connection sends (no framing, no parsing, no logging), with TCP_NODELAY
as gameproto sets it.  It stops by itself after LIFETIME_SECONDS (default
300) even if nobody stops it.
"""

from __future__ import annotations

import sys

from twisted.internet import reactor
from twisted.internet.protocol import Factory, Protocol


class Echo(Protocol):
    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)  # type: ignore[attr-defined]

    def dataReceived(self, data: bytes) -> None:
        self.transport.write(data)  # type: ignore[union-attr]


def main(argv: list[str]) -> None:
    port = int(argv[1])
    lifetime = float(argv[2]) if len(argv) > 2 else 300.0
    factory = Factory.forProtocol(Echo)
    factory.noisy = False
    reactor.listenTCP(port, factory, interface="127.0.0.1")  # type: ignore[attr-defined]
    reactor.callLater(lifetime, reactor.stop)  # type: ignore[attr-defined]
    reactor.run()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main(sys.argv)
