"""The ``gameproto`` twistd plugin: ``twistd -n gameproto --help``."""

from twisted.application.service import ServiceMaker

gameproto = ServiceMaker(
    "gameproto",
    "gameproto.tap",
    "Serve turn-based multiplayer games (Connect Four and more), one port per protocol.",
    "gameproto",
)
