"""
The protocols ``twistd gameproto`` serves, one line each, in the order
``--help`` lists them (see L{gameproto.plugin}).  A third party's package
ships its own file like this one in its own ``twisted/plugins/``.
"""

from gameproto.connect4.plugin import connect4
from gameproto.maitretarot.plugin import maitretarot
from gameproto.carcassonne.plugin import carcassonne
from gameproto.enginejson.plugin import engine
from gameproto.freedoko.plugin import freedoko

__all__ = ["connect4", "maitretarot", "carcassonne", "engine", "freedoko"]
