"""Pure game rules: no Twisted, no I/O."""

from __future__ import annotations

from gameproto.engine.contract import EngineFactory


def engines() -> list[EngineFactory]:
    """
    The games of this package, as engine factories: for tools and tests
    that want them without the protocol plugins.  A served hub's registry
    holds what the plugins bring instead
    (L{gameproto.plugin.IEngineProtocolPlugin}): each of these comes with
    the plugin of the protocol that plays it, and a game that no plugin
    brings is not served.
    """
    from gameproto.games.carcassonne import CARCASSONNE
    from gameproto.games.connect4 import ENGINE as CONNECT4
    from gameproto.games.doppelkopf import DOPPELKOPF
    from gameproto.games.tarot import TAROT

    return [CONNECT4, TAROT, CARCASSONNE, DOPPELKOPF]
