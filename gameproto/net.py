"""Small helpers every protocol's connections share."""

from __future__ import annotations

from typing import Any, Callable

from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

log = Logger(namespace="gameproto.net")


def peerOf(transport: object) -> str:
    """A short printable name for the peer of ``transport``."""
    try:
        peer = transport.getPeer()  # type: ignore[attr-defined]
    except Exception:
        return "?"
    host, port = getattr(peer, "host", None), getattr(peer, "port", None)
    if host is None:
        return str(getattr(peer, "name", None) or type(peer).__name__)
    return f"{host}:{port}"


def tuneStream(transport: object) -> None:
    """No Nagle delay for our small messages, and keep-alive to find dead peers."""
    for setter in ("setTcpNoDelay", "setTcpKeepAlive"):
        method = getattr(transport, setter, None)
        if method is not None:
            try:
                method(True)
            except OSError:
                pass


class WireProtocol(Protocol):
    """
    What every protocol's connections share: tuned streams, writing one
    codec's messages (``serialize``), and a clean close with one log line
    naming the connection (``logName`` and L{who}).
    """

    logName = "gameproto"
    serialize: Callable[[Any], bytes]
    _closing = False
    peer = "?"

    def connectionMade(self) -> None:
        self.peer = peerOf(self.transport)
        tuneStream(self.transport)

    def who(self) -> str:
        """How log lines name this connection."""
        return self.peer

    def sendMessage(self, message: Any) -> None:
        """Write one message (nothing once the connection is closing)."""
        if not self._closing:
            self.transport.write(type(self).serialize(message))  # type: ignore[union-attr]

    def dropConnection(self, reason: str) -> None:
        """Close the connection cleanly, saying why in one log line."""
        if self._closing:
            return
        self._closing = True
        log.info("{name} {who}: closing: {reason}", name=self.logName, who=self.who(),
                 reason=reason)
        self.transport.loseConnection()  # type: ignore[union-attr]

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._closing = True
