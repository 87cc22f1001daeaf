"""
Message protocols over WebSocket: one protocol message per WebSocket message.

A L{MessageWebSocketResource} hosts any protocol that, besides the usual
C{makeConnection}/C{connectionLost}, reads whole messages with
C{messageDataReceived(data)}: the same protocol class then serves TCP and
WebSocket connections, and shares everything behind it.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from hyperlink import URL
from twisted.internet.address import IPv4Address
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IAddress, IReactorTCP
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.web.server import Request
from twisted.web.websocket import (
    WebSocketClientEndpoint,
    WebSocketResource,
    WebSocketTransport,
)

log = Logger(namespace="gameproto.web")

MESSAGE_TOO_BIG = 1009
UNSUPPORTED_DATA = 1003


class MessageProtocol(Protocol):
    """A Twisted protocol that also reads one whole message at a time."""

    def makeConnection(self, transport: Any) -> None:
        ...

    def messageDataReceived(self, data: bytes) -> None:
        ...

    def connectionLost(self, reason: Failure) -> None:
        ...


class MessageTransport:
    """
    The transport a hosted protocol sees: each C{write} is one WebSocket
    message (binary, or text when ``text`` is set).
    """

    disconnecting = False

    def __init__(self, ws: WebSocketTransport, peer: IAddress, host: IAddress,
                 text: bool = False) -> None:
        self._ws = ws
        self._peer = peer
        self._host = host
        self._text = text

    def write(self, data: bytes) -> None:
        if self.disconnecting:
            return
        if self._text:
            self._ws.sendTextMessage(data.decode("utf-8"))
        else:
            self._ws.sendBytesMessage(data)

    def writeSequence(self, data: list[bytes]) -> None:
        for chunk in data:
            self.write(chunk)

    def loseConnection(self, code: int = 1000) -> None:
        if not self.disconnecting:
            self.disconnecting = True
            self._ws.loseConnection(code)

    abortConnection = loseConnection

    def getPeer(self) -> IAddress:
        return self._peer

    def getHost(self) -> IAddress:
        return self._host


def _pendingBytes(ws: object) -> int:
    """
    Bytes of a message still being assembled by Twisted's WebSocket
    implementation (it keeps them in C{_bytesBuffer}/C{_textBuffer}).
    """
    pending = 0
    for name in ("_bytesBuffer", "_textBuffer"):
        data = getattr(getattr(ws, name, None), "data", None)
        if data is not None:
            pending += len(data)
    return pending


class WebSocketBridge:
    """
    A Twisted C{WebSocketProtocol} hosting one L{MessageProtocol}, server or
    client side.  Messages over ``maxMessage`` bytes close the connection
    (code 1009), on the server side even before they are complete; a text
    message where binary ones are expected (or the reverse) closes it with
    code 1003.
    """

    def __init__(self, hosted: MessageProtocol, maxMessage: int, peer: IAddress,
                 host: IAddress, text: bool = False, request: Request | None = None) -> None:
        self.hosted = hosted
        self.maxMessage = maxMessage
        self.text = text
        self.peer = peer
        self.host = host
        self.request = request
        self._ws: WebSocketTransport | None = None
        self._transport: MessageTransport | None = None

    def negotiationStarted(self, transport: WebSocketTransport) -> None:
        self._ws = transport
        channel = getattr(self.request, "channel", None)
        upstream: Callable[[bytes], None] | None = getattr(channel, "dataReceived", None)
        if upstream is None:
            return

        def guarded(data: bytes) -> None:
            upstream(data)
            if self._transport is not None and _pendingBytes(transport) > self.maxMessage:
                self._refuse(MESSAGE_TOO_BIG, "WebSocket message too big")

        channel.dataReceived = guarded  # type: ignore[union-attr]

    def negotiationFinished(self) -> None:
        assert self._ws is not None
        self._transport = MessageTransport(self._ws, self.peer, self.host, self.text)
        self.hosted.makeConnection(self._transport)

    def _refuse(self, code: int, reason: str) -> None:
        assert self._transport is not None
        if self._transport.disconnecting:
            return
        log.info("websocket {peer}: closing: {reason}", peer=self.peer, reason=reason)
        self._transport.loseConnection(code)

    def bytesMessageReceived(self, data: bytes | bytearray) -> None:
        if self._transport is None or self._transport.disconnecting:
            return
        if self.text:
            self._refuse(UNSUPPORTED_DATA, "binary message on a text endpoint")
        elif len(data) > self.maxMessage:
            self._refuse(MESSAGE_TOO_BIG, "WebSocket message too big")
        else:
            self.hosted.messageDataReceived(bytes(data))

    def textMessageReceived(self, message: str) -> None:
        if self._transport is None or self._transport.disconnecting:
            return
        if not self.text:
            self._refuse(UNSUPPORTED_DATA, "text message on a binary endpoint")
            return
        data = message.encode("utf-8")
        if len(data) > self.maxMessage:
            self._refuse(MESSAGE_TOO_BIG, "WebSocket message too big")
        else:
            self.hosted.messageDataReceived(data)

    def pongReceived(self, payload: bytes) -> None:
        pass

    def connectionLost(self, reason: Failure) -> None:
        if self._transport is not None:
            self._transport.disconnecting = True
            self.hosted.connectionLost(reason)


class _ServerBridges:
    def __init__(self, build: Callable[[Request], MessageProtocol], maxMessage: int,
                 text: bool) -> None:
        self._build = build
        self._maxMessage = maxMessage
        self._text = text

    def buildProtocol(self, request: Request) -> WebSocketBridge:
        return WebSocketBridge(self._build(request), self._maxMessage,
                               request.getClientAddress(), request.getHost(), self._text,
                               request)


def messageWebSocketResource(
    build: Callable[[Request], MessageProtocol], maxMessage: int, text: bool = False
) -> WebSocketResource:
    """
    A resource serving WebSocket connections, each hosting the protocol that
    ``build(request)`` returns.
    """
    return WebSocketResource(_ServerBridges(build, maxMessage, text))  # type: ignore[arg-type]


class _ClientBridge:
    def __init__(self, hosted: MessageProtocol, maxMessage: int, text: bool) -> None:
        self._hosted = hosted
        self._maxMessage = maxMessage
        self._text = text

    def buildProtocol(self, url: str) -> WebSocketBridge:
        parsed = URL.fromText(url)
        address = IPv4Address("TCP", parsed.host, parsed.port or 80)
        return WebSocketBridge(self._hosted, self._maxMessage, address, address, self._text)


def connectMessageProtocol(
    reactor: IReactorTCP, url: str, hosted: MessageProtocol, maxMessage: int,
    text: bool = False,
) -> Deferred[WebSocketBridge]:
    """
    Connect ``hosted`` to the WebSocket at ``url`` (``ws://host:port/path``):
    its writes become messages, each message received is given to its
    C{messageDataReceived}.  Fires once the connection is open.
    """
    endpoint = WebSocketClientEndpoint.new(reactor, url)
    return Deferred.fromCoroutine(
        endpoint.connect(_ClientBridge(hosted, maxMessage, text))  # type: ignore[arg-type]
    )
