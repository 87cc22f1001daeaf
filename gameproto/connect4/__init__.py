"""Protuissance 4 (Connect Four): codec, state machines, protocols, server adapter, WebSocket."""
