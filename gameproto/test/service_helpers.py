"""
The service of ``twistd gameproto`` listening for real on 127.0.0.1, for
tests that talk to it over the network (the HTTP API, the web page).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from twisted.internet import defer, reactor
from twisted.internet.process import ProcessReader
from twisted.internet.task import deferLater
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase

from gameproto import tap
from gameproto.plugin import protocolPlugins

LOCAL = "tcp:0:interface=127.0.0.1"
"""A port on 127.0.0.1 that the system chooses."""


def onlyPorts(**ports: str) -> list[str]:
    """
    ``--ports`` arguments that open ``ports`` (name=endpoint) and turn off
    every other port, the web port's and every installed protocol plugin's:
    a protocol installed later never makes a test listen on its default
    port.
    """
    every = {**tap.defaultPorts(protocolPlugins()), **ports}
    return ["--ports", ",".join(f"{name}={ports.get(name, tap.OFF)}" for name in every)]


class Server:
    """
    The service of ``twistd gameproto`` with only ``ports`` open, on
    127.0.0.1 (each port chosen by the system), its web connections tracked
    so that a test can close them.
    """

    def __init__(self, case: TestCase, engines: list[str], *options: str,
                 ports: Iterable[str] = ("web", "connect4")) -> None:
        self.case = case
        parsed = tap.Options()
        parsed.parseOptions([
            "--db", case.mktemp() + ".sqlite",
            "--connect4-timeout", "30",
            "--connect4-rematch-delay", "0",
            "--engine-bot-delay", "0",
            *onlyPorts(**{name: LOCAL for name in ports}),
            *[f"--engine={spec}" for spec in engines],
            *options,
        ])
        self.service = tap.makeService(parsed)
        self.ports: dict[str, int] = {}
        self.channels: set[Any] = set()

    @defer.inlineCallbacks
    def start(self) -> Any:
        service = self.service
        web = service.getServiceNamed("web")
        build = web.factory.buildProtocol
        channels = self.channels

        def tracked(address: Any) -> Any:
            protocol = build(address)
            if protocol is not None:
                lost = protocol.connectionLost

                def connectionLost(reason: Failure) -> None:
                    channels.discard(protocol)
                    lost(reason)

                protocol.connectionLost = connectionLost
                channels.add(protocol)
            return protocol

        web.factory.buildProtocol = tracked
        service.startService()
        for child in service:
            listening: defer.Deferred[Any] = defer.Deferred()
            child._waitingForPort.addCallback(lambda p, d=listening: d.callback(p) or p)
            port = yield listening
            self.ports[child.name] = port.getHost().port
        self.url = f"http://127.0.0.1:{self.ports['web']}/"

    @defer.inlineCallbacks
    def stop(self) -> Any:
        """
        Close the web connections still open (the browser is gone), abort
        the games still live and end their external engines, then stop
        listening.
        """
        yield until(lambda: not self.channels, 2.0)
        for channel in list(self.channels):
            transport = getattr(channel, "_channel", channel).transport
            if transport is not None:
                transport.abortConnection()
        yield until(lambda: not self.channels, 5.0)
        hub = self.service.hub
        for table in [table for table, host in hub.tables.values() if hub.hosts(table)]:
            table.abort("the test is over")  # its clocks stop
            table.engine.stop()
        yield until(lambda: not any(isinstance(r, ProcessReader) for r in reactor.getReaders()),
                    10.0)
        yield self.service.stopService()


@defer.inlineCallbacks
def until(check: Callable[[], bool], seconds: float, every: float = 0.02) -> Any:
    """Let the reactor run until ``check()`` is true, ``seconds`` at most."""
    for _ in range(max(1, int(seconds / every))):
        if check():
            return
        yield deferLater(reactor, every, lambda: None)
