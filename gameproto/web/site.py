"""The web port: an index page and the resources of each protocol."""

from __future__ import annotations

from html import escape
from typing import Mapping

from twisted.web.resource import Resource
from twisted.web.server import Request, Site

import gameproto


class Index(Resource):
    """A short page saying what this server serves."""

    isLeaf = True

    def __init__(self, paths: list[str]) -> None:
        super().__init__()
        self.paths = paths

    def render_GET(self, request: Request) -> bytes:
        request.setHeader(b"content-type", b"text/html; charset=utf-8")
        items = "".join(f"<li><code>/{escape(p)}</code></li>" for p in self.paths)
        return (
            "<!doctype html><meta charset=utf-8><title>gameproto</title>"
            f"<h1>gameproto</h1><p>{escape(gameproto.__doc__ or '')}</p>"
            f"<p>WebSocket endpoints on this port:</p><ul>{items}</ul>"
        ).encode("utf-8")


def webRoot(children: Mapping[bytes, Resource]) -> Resource:
    """The root resource: the index at ``/`` and ``children`` beside it."""
    root = Resource()
    root.putChild(b"", Index(sorted(name.decode() for name in children)))
    for name, child in children.items():
        root.putChild(name, child)
    return root


def makeSite(children: Mapping[bytes, Resource]) -> Site:
    """A Site for the web port that never shows a traceback to a client."""
    site = Site(webRoot(children))
    site.displayTracebacks = False
    return site
