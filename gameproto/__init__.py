"""gameproto: turn-based multiplayer games served over the network with Twisted."""
