"""
Helpers of the hardening tests: the HTTP API called in memory (on a hub
driven by a L{task.Clock}), and the log events a test caused.
"""

from __future__ import annotations

import json
from io import BytesIO
from typing import Any

from twisted.internet.address import IPv4Address
from twisted.logger import ILogObserver, LogEvent, formatEvent, globalLogPublisher
from twisted.trial.unittest import SynchronousTestCase
from twisted.web.resource import Resource, getChildForRequest
from twisted.web.server import NOT_DONE_YET
from twisted.web.test.requesthelper import DummyRequest
from zope.interface import provider


def call(root: Resource, method: bytes, path: str, body: Any = None, *,
         raw: bytes | None = None, contentType: bytes | None = b"application/json",
         peer: str = "127.0.0.1") -> tuple[int, Any, DummyRequest]:
    """
    ``method path`` (``/api/...``, with its query) on ``root``, answered
    at once: the status, the JSON body and the request (its headers).
    """
    target, _, query = path.partition("?")
    segments = [part.encode() for part in target.strip("/").split("/")]
    request = DummyRequest(segments[1:] if segments[0] == b"api" else segments)
    request.method = method
    request.uri = path.encode()
    request.client = IPv4Address("TCP", peer, 40000)
    args: dict[bytes, list[bytes]] = {}
    for pair in query.split("&") if query else ():
        name, _, value = pair.partition("=")
        args.setdefault(name.encode(), []).append(value.encode())
    request.args = args
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
    request.content = BytesIO(data)  # type: ignore[attr-defined]
    if contentType is not None:
        request.requestHeaders.setRawHeaders(b"content-type", [contentType])
    resource = getChildForRequest(root, request)
    result = resource.render(request)
    if result is not NOT_DONE_YET:
        request.write(result)
        request.finish()
    assert request.finished, f"{path} answers later"
    text = b"".join(request.written)
    code = request.responseCode or 200
    try:
        answer = json.loads(text)
    except ValueError:
        answer = text
    return code, answer, request


class LogCapture:
    """Every log event from now until the test ends."""

    def __init__(self, case: SynchronousTestCase) -> None:
        self.events: list[LogEvent] = []

        @provider(ILogObserver)
        def observe(event: LogEvent) -> None:
            self.events.append(event)

        globalLogPublisher.addObserver(observe)
        case.addCleanup(globalLogPublisher.removeObserver, observe)

    def lines(self, namespace: str | None = None) -> list[str]:
        """The formatted lines (of ``namespace`` and below, when given)."""
        return [formatEvent(e) for e in self.events
                if namespace is None or str(e.get("log_namespace", "")).startswith(namespace)]

    def failures(self) -> list[LogEvent]:
        """The events that carry a traceback."""
        return [e for e in self.events if "log_failure" in e]

    def clear(self) -> None:
        del self.events[:]
