"""What every protocol's game server shares."""

from __future__ import annotations

import random
from typing import Generic, TypeVar

from twisted.internet.interfaces import IReactorTime

from gameproto.engine.hub import Hub
from gameproto.engine.record import RecordStore

SettingsT = TypeVar("SettingsT")


class GameServer(Generic[SettingsT]):
    """
    The state behind one protocol's connections: its settings and the hub
    it shares with every other protocol (the clock its waits run on, the
    store its games are recorded in, the source of the randomness its
    tables draw, the live tables and the matchmakers).

    Without a ``hub`` the server has one of its own, made of ``clock``,
    ``store`` and ``rng`` (a server embedded alone, or a test).
    """

    def __init__(
        self,
        settings: SettingsT,
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        hub: Hub | None = None,
    ) -> None:
        if hub is None:
            hub = Hub(clock, store, rng)
        self.settings = settings
        self.hub = hub
        self.clock: IReactorTime = hub.clock
        self.store: RecordStore = hub.store
        self.rng = hub.rng
