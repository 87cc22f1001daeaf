"""
The web port: the page at ``/`` (its files under ``/static/``) and the
resources of each protocol beside it (``/api``, ``/engine``, ``/connect4``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from twisted.web.resource import NoResource, Resource
from twisted.web.server import Request, Site
from twisted.web.static import File

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files: index.html, app.js, style.css (package data)."""

CONTENT_SECURITY_POLICY = (
    b"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    b"img-src 'self' data:; connect-src 'self' ws: wss:; base-uri 'none'; "
    b"form-action 'none'; frame-ancestors 'none'"
)
"""
What the page may load: its own files, the API, the WebSocket endpoints, and
sprites from this server only.  Inline styles stay allowed, as engines'
displays may carry ``style`` attributes.
"""


def _secure(request: Request) -> None:
    request.setHeader(b"content-security-policy", CONTENT_SECURITY_POLICY)
    request.setHeader(b"x-content-type-options", b"nosniff")
    request.setHeader(b"referrer-policy", b"no-referrer")
    # Revalidate every time: a new version of the page shows at once.
    request.setHeader(b"cache-control", b"no-cache")


class Page(Resource):
    """``/``: the single page that lists, creates, plays, watches and replays games."""

    isLeaf = True

    def __init__(self, path: Path = STATIC / "index.html") -> None:
        super().__init__()
        self.path = path

    def render_GET(self, request: Request) -> bytes:
        _secure(request)
        request.setHeader(b"content-type", b"text/html; charset=utf-8")
        try:
            return self.path.read_bytes()
        except OSError:
            request.setResponseCode(500)
            return (b"<!doctype html><meta charset=utf-8><title>gameproto</title>"
                    b"<p>The page's files are missing from this installation "
                    b"(gameproto/web/static). The HTTP API is at <code>/api</code>.</p>")

    render_HEAD = render_GET


class StaticFiles(File):
    """``/static/``: the page's files, without a directory listing."""

    contentTypes = dict(File.contentTypes, **{
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".html": "text/html; charset=utf-8",
        ".svg": "image/svg+xml",
    })
    indexNames: list[str] = []

    def directoryListing(self) -> Resource:
        return NoResource()

    def render_GET(self, request: Request) -> bytes | int:
        _secure(request)
        return super().render_GET(request)


def webRoot(children: Mapping[bytes, Resource]) -> Resource:
    """The root resource: the page at ``/``, its files at ``/static/``, ``children`` beside them."""
    root = Resource()
    root.putChild(b"", Page())
    root.putChild(b"static", StaticFiles(str(STATIC)))
    for name, child in children.items():
        root.putChild(name, child)
    return root


def makeSite(children: Mapping[bytes, Resource]) -> Site:
    """A Site for the web port that never shows a traceback to a client."""
    site = Site(webRoot(children))
    site.displayTracebacks = False
    return site
