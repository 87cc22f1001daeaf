"""Pure game rules: no Twisted, no I/O."""

from __future__ import annotations

from gameproto.engine.contract import EngineFactory


def engines() -> list[EngineFactory]:
    """Every game gameproto has, as engine factories (the hub's built-in registry)."""
    from gameproto.games.carcassonne import CARCASSONNE
    from gameproto.games.connect4 import ENGINE as CONNECT4
    from gameproto.games.doppelkopf import DOPPELKOPF
    from gameproto.games.tarot import TAROT

    return [CONNECT4, TAROT, CARCASSONNE, DOPPELKOPF]
