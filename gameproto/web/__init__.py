"""The web port: index page and WebSocket bridges."""
