"""The engine JSON protocol: players of any engine over JSON lines (TCP) or WebSocket."""
