"""Small helpers every protocol's connections share."""

from __future__ import annotations


def peerOf(transport: object) -> str:
    """A short printable name for the peer of ``transport``."""
    try:
        peer = transport.getPeer()  # type: ignore[attr-defined]
    except Exception:
        return "?"
    host, port = getattr(peer, "host", None), getattr(peer, "port", None)
    if host is None:
        return str(getattr(peer, "name", None) or type(peer).__name__)
    return f"{host}:{port}"


def tuneStream(transport: object) -> None:
    """No Nagle delay for our small messages, and keep-alive to find dead peers."""
    for setter in ("setTcpNoDelay", "setTcpKeepAlive"):
        method = getattr(transport, setter, None)
        if method is not None:
            try:
                method(True)
            except OSError:
                pass
