"""Test helpers: MaîtreTarot tables on a Clock, clients joined by in-memory pipes."""

from __future__ import annotations

import random
from typing import Any, Callable

from twisted.internet.task import Clock
from twisted.test import iosim

from gameproto.games.tarot import TarotView
from gameproto.maitretarot import wire
from gameproto.maitretarot.protocol import MaitreTarotClientProtocol
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings


class Client(MaitreTarotClientProtocol):
    """The library client with its bot, recording what it is told."""

    def __init__(self, nick: str | None = None, deals: int = 1) -> None:
        super().__init__(nick)
        self.deals_wanted = deals
        self.scores: list[dict[str, object]] = []
        self.refusals = 0
        self.ended = False
        self.lostConnection = False
        self.dealtHands: list[tuple[int, ...]] = []
        self.branches: list[tuple[int, int]] = []

    def gotBranch(self, message: wire.BranchPoint) -> None:
        self.branches.append((message.point, message.value))
        super().gotBranch(message)

    def dealt(self, hand: tuple[int, ...]) -> None:
        self.dealtHands.append(hand)

    def scored(self, score: dict[str, object]) -> None:
        self.scores.append(score)

    def refused(self) -> None:
        self.refusals += 1

    def tableEnded(self) -> None:
        self.ended = True

    def playAgain(self, view: TarotView) -> bool:
        return len(self.scores) < self.deals_wanted

    def connectionLost(self, reason: Any = None) -> None:
        self.lostConnection = True
        super().connectionLost(reason)

    def hangUp(self) -> None:
        """Close our side of the connection."""
        assert self.transport is not None
        self.transport.loseConnection()


class Net:
    """A MaîtreTarot server on a Clock and clients joined to it by iosim pumps."""

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        settings.setdefault("botsAfter", 1000.0)
        settings.setdefault("botDelay", 1.0)
        settings.setdefault("timeout", 60.0)
        self.clock = Clock()
        self.server = TarotServer(TarotSettings(**settings), self.clock, rng=random.Random(seed))
        self.factory = TarotServerFactory(self.server)
        self.pumps: list[iosim.IOPump] = []

    def join(self, client: MaitreTarotClientProtocol) -> iosim.IOPump:
        server = self.factory.buildProtocol(None)
        pump = iosim.connect(server, iosim.makeFakeServer(server), client,
                             iosim.makeFakeClient(client), greet=False, clock=self.clock)
        self.pumps.append(pump)
        self.flush()
        return pump

    def flush(self) -> bool:
        moved = False
        while any([pump.flush() for pump in self.pumps]):
            moved = True
        return moved

    def run(self, until: Callable[[], bool] = lambda: False, limit: int = 20000) -> None:
        """Move bytes and time until ``until()`` or nothing is left to happen."""
        for _ in range(limit):
            self.flush()
            if until():
                return
            calls = self.clock.getDelayedCalls()
            if not calls:
                return
            self.clock.advance(max(0.0, min(c.getTime() for c in calls) - self.clock.seconds()))
        raise AssertionError("the table did not settle")
