"""What every protocol's game server shares."""

from __future__ import annotations

import random
from typing import Generic, TypeVar

from twisted.internet.interfaces import IReactorTime

from gameproto.engine.record import MemoryRecordStore, RecordStore

SettingsT = TypeVar("SettingsT")


class GameServer(Generic[SettingsT]):
    """
    The state behind one protocol's connections: its settings, the clock its
    waits run on, the store its games are recorded in, and the source of
    the randomness its tables draw (seatings, init values).
    """

    def __init__(
        self,
        settings: SettingsT,
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if clock is None:
            from twisted.internet import reactor as clock  # type: ignore[assignment]
        self.settings = settings
        self.clock: IReactorTime = clock  # type: ignore[assignment]
        self.store: RecordStore = store if store is not None else MemoryRecordStore()
        self.rng = rng or random.Random()
