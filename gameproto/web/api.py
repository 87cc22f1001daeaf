"""
The HTTP API on the web port: engines, games of every protocol, their
records, and replays to any turn, as JSON.

    GET  /api/engines                      engines and their init parameters
    GET  /api/engines/NAME/sprites.zip     an external engine's sprites
    GET  /api/engines/NAME/sprites/FILE    one file of that zip (what displays' images name)
    GET  /api/games?offset=&limit=&status= games, newest first, paged
    POST /api/games  {"engine", "init", "bots"}   a new game (INITIALISATION errors: 400)
    GET  /api/games/ID                     a game's state and seats
    GET  /api/games/ID/record              its record
    GET  /api/games/ID/replay?turn=N&player=P      what seat P (none: a spectator) saw at turn N
"""

from __future__ import annotations

import json
import zipfile
from typing import Any, Callable

from twisted.internet.defer import Deferred, DeferredSemaphore, maybeDeferred
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.web.resource import Resource
from twisted.web.server import NOT_DONE_YET, Request
from twisted.web.static import File

from gameproto.engine.contract import Errors, GameEngine
from gameproto.engine.external import ExternalEngine
from gameproto.engine.record import GameRecord, GameSummary, replayLater
from gameproto.engine.table import Table
from gameproto.enginejson.server import OpenSeat

log = Logger(namespace="gameproto.web")

MAX_BODY = 64 * 1024
PAGE_LIMIT = 200
MAX_REPLAYS = 4
"""Replays rebuilt at once (an external engine's each start a process)."""
MAX_QUEUED_REPLAYS = 32
"""Replays waiting for one of those; past it, 503."""
MAX_SPRITE = 4 * 1024 * 1024
"""The largest single sprite served out of an engine's sprites zip, in bytes."""
MAX_SPRITE_PATH = 255

SPRITE_TYPES = {
    "svg": b"image/svg+xml",
    "png": b"image/png",
    "jpg": b"image/jpeg",
    "jpeg": b"image/jpeg",
    "gif": b"image/gif",
    "webp": b"image/webp",
    "bmp": b"image/bmp",
    "ico": b"image/x-icon",
}


class HTTPError(Exception):
    """An answer other than 200: its status and message."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


def _json(request: Request, status: int, body: Any) -> bytes:
    request.setResponseCode(status)
    request.setHeader(b"content-type", b"application/json; charset=utf-8")
    request.setHeader(b"cache-control", b"no-store")
    return json.dumps(body, separators=(",", ":")).encode("utf-8")


def _arg(request: Request, name: str) -> str | None:
    values = (request.args or {}).get(name.encode())
    return values[0].decode("utf-8", "replace") if values else None


def _int(request: Request, name: str, default: int | None, low: int, high: int) -> int | None:
    text = _arg(request, name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise HTTPError(400, f"{name} must be an integer") from None
    if not low <= value <= high:
        raise HTTPError(400, f"{name} must be between {low} and {high}")
    return value


class JSONResource(Resource):
    """A resource whose handlers return JSON data (or a Deferred of it), or raise HTTPError."""

    isLeaf = False
    handlers: dict[bytes, Callable[[Request], Any]]

    def render(self, request: Request) -> bytes | int:
        handler = self.handlers.get(request.method or b"") if hasattr(self, "handlers") else None
        if handler is None:
            allowed = b", ".join(sorted(getattr(self, "handlers", {})))
            request.setHeader(b"allow", allowed)
            return _json(request, 405, {"error": "method not allowed"})
        result = maybeDeferred(handler, request)

        def done(body: Any) -> None:
            status, payload = body if isinstance(body, tuple) else (200, body)
            if not request.finished and not getattr(request, "_disconnected", False):
                request.write(_json(request, status, payload))
                request.finish()

        def failed(failure: Failure) -> None:
            if failure.check(HTTPError):
                error = failure.value
                body = (error.status, {"error": str(error), **error.extra})
            else:
                log.failure("API request {uri} failed", failure, uri=request.uri)
                body = (500, {"error": "internal error"})
            done(body)

        result.addCallbacks(done, failed)
        return NOT_DONE_YET

    def getChild(self, path: bytes, request: Request) -> Resource:
        return NotFound()


class NotFound(Resource):
    isLeaf = True

    def render(self, request: Request) -> bytes:
        return _json(request, 404, {"error": "no such resource"})


class API(JSONResource):
    """``/api``."""

    def __init__(self, engineServer: Any) -> None:
        super().__init__()
        self.games = engineServer
        self.replays = DeferredSemaphore(MAX_REPLAYS)
        self.handlers = {b"GET": lambda request: {
            "engines": "/api/engines", "games": "/api/games"}}

    def getChild(self, path: bytes, request: Request) -> Resource:
        if path == b"engines":
            return Engines(self.games)
        if path == b"games":
            return Games(self.games, self.replays)
        return NotFound()


class Engines(JSONResource):
    def __init__(self, server: Any) -> None:
        super().__init__()
        self.games = server
        self.handlers = {b"GET": self.list}

    def list(self, request: Request) -> Any:
        engines = self.games.registry.describe()
        for entry in engines:
            entry["bot"] = _hasBot(self.games.registry.get(entry["name"]))
        return {"engines": engines}

    def getChild(self, path: bytes, request: Request) -> Resource:
        engine = self.games.registry.get(path.decode("utf-8", "replace"))
        if engine is None:
            return NotFound()
        return EngineFiles(engine)


def _hasBot(factory: Any) -> bool:
    """Whether ``factory`` gives a bot (asked with its default parameters)."""
    if factory is None:
        return False
    defaults = {p.name: p.default for p in factory.parameters if p.default is not None}
    try:
        return factory.bot(defaults) is not None
    except Exception:
        return False


class EngineFiles(JSONResource):
    def __init__(self, engine: Any) -> None:
        super().__init__()
        self.engine = engine
        self.handlers = {b"GET": lambda request: {"name": engine.name}}

    def getChild(self, path: bytes, request: Request) -> Resource:
        if (path == b"sprites.zip" and isinstance(self.engine, ExternalEngine)
                and self.engine.manifest.sprites is not None):
            return File(str(self.engine.manifest.sprites), defaultType="application/zip")
        if (path == b"sprites" and isinstance(self.engine, ExternalEngine)
                and self.engine.manifest.sprites is not None):
            return Sprite(self.engine.manifest.sprites, ())
        return NotFound()


class Sprite(Resource):
    """
    ``/api/engines/NAME/sprites/FILE``: one member of an engine's sprites
    zip, found by its exact name in the zip (nothing is read from the file
    system but the zip), at most L{MAX_SPRITE} bytes.
    """

    def __init__(self, zipPath: Any, segments: tuple[str, ...]) -> None:
        super().__init__()
        self.zipPath = zipPath
        self.segments = segments

    def getChild(self, path: bytes, request: Request) -> Resource:
        try:
            segment = path.decode("utf-8")
        except UnicodeDecodeError:
            return NotFound()
        if (segment in ("", ".", "..") or any(c in segment for c in "/\\\0")
                or not segment.isprintable()
                or len("/".join(self.segments + (segment,))) > MAX_SPRITE_PATH):
            return NotFound()
        return Sprite(self.zipPath, self.segments + (segment,))

    def render(self, request: Request) -> bytes:
        if request.method not in (b"GET", b"HEAD"):
            request.setHeader(b"allow", b"GET, HEAD")
            return _json(request, 405, {"error": "method not allowed"})
        name = "/".join(self.segments)
        if not name:
            return _json(request, 404, {"error": "no such sprite"})
        try:
            with zipfile.ZipFile(self.zipPath) as archive:
                try:
                    info = archive.getinfo(name)
                except KeyError:
                    return _json(request, 404, {"error": "no such sprite"})
                if info.is_dir():
                    return _json(request, 404, {"error": "no such sprite"})
                if info.file_size > MAX_SPRITE:
                    return _json(request, 413, {"error": "sprite too large"})
                with archive.open(info) as member:
                    data = member.read(MAX_SPRITE + 1)
        except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError) as e:
            log.warn("sprites {path}: {error}", path=str(self.zipPath), error=str(e))
            return _json(request, 500, {"error": "the sprites cannot be read"})
        if len(data) > MAX_SPRITE:
            return _json(request, 413, {"error": "sprite too large"})
        extension = name.rpartition(".")[2].lower()
        request.setHeader(b"content-type", SPRITE_TYPES.get(extension, b"application/octet-stream"))
        request.setHeader(b"x-content-type-options", b"nosniff")
        # A sprite opened on its own must not run anything on this origin.
        request.setHeader(b"content-security-policy",
                          b"default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
        request.setHeader(b"cache-control", b"max-age=300")
        return data


class Games(JSONResource):
    """``/api/games``: the listing, and creating a game."""

    def __init__(self, server: Any, replays: DeferredSemaphore) -> None:
        super().__init__()
        self.games = server
        self.replays = replays
        self.handlers = {b"GET": self.list, b"POST": self.create}

    def list(self, request: Request) -> Any:
        offset = _int(request, "offset", 0, 0, 2**31)
        limit = _int(request, "limit", 50, 1, PAGE_LIMIT)
        status = _arg(request, "status")
        if status not in (None, "live", "finished", "aborted"):
            raise HTTPError(400, "status must be live, finished or aborted")
        games, total = self.games.store.games(offset, limit, status)
        return {"games": [self._entry(g) for g in games], "total": total,
                "offset": offset, "limit": limit}

    def _entry(self, summary: GameSummary) -> dict[str, Any]:
        entry = summary.asJSON()
        table = self.games.findTable(summary.id)
        if table is not None:
            entry["seats"] = list(table.record.seats)
            entry["open"] = [n + 1 for n, h in enumerate(table.holders)
                             if isinstance(h, OpenSeat)]
            entry["joinable"] = summary.id in self.games.hosted
        return entry

    def create(self, request: Request) -> Any:
        body = request.content.read(MAX_BODY + 1) if request.content is not None else b""
        if len(body) > MAX_BODY:
            raise HTTPError(413, "body too large")
        try:
            data = json.loads(body or b"null")
        except ValueError:
            raise HTTPError(400, "the body is not JSON", errors=[{"type": "BAD_FORMAT"}]) from None
        if not isinstance(data, dict) or not isinstance(data.get("engine"), str):
            raise HTTPError(400, "the body needs an engine name", errors=[{"type": "BAD_FORMAT"}])
        init = data.get("init", {})
        bots = data.get("bots", [])
        if not isinstance(init, dict) or not isinstance(bots, list) or not all(
                isinstance(b, int) and not isinstance(b, bool) for b in bots):
            raise HTTPError(400, "init must be an object, bots a list of player numbers",
                            errors=[{"type": "BAD_FORMAT"}])

        def made(result: Table | Errors | str) -> Any:
            if isinstance(result, Errors):
                return 400, result.asJSON()
            if isinstance(result, str):
                status = 404 if result.startswith("no engine") else 400
                return status, {"error": result}
            return 201, {"id": result.id, "engine": result.factory.name,
                         "url": f"/api/games/{result.id}"}

        return self.games.newGame(data["engine"], init, tuple(bots)).addCallback(made)

    def getChild(self, path: bytes, request: Request) -> Resource:
        try:
            gameId = int(path)
        except ValueError:
            return NotFound()
        record = self.games.store.get(gameId)
        if record is None:
            return NotFound()
        return Game(self.games, record, self.replays)


class Game(JSONResource):
    """``/api/games/ID``."""

    def __init__(self, server: Any, record: GameRecord, replays: DeferredSemaphore) -> None:
        super().__init__()
        self.games = server
        self.record = record
        self.replays = replays
        self.handlers = {b"GET": self.show}

    def show(self, request: Request) -> Any:
        record = self.record
        entry = GameSummary.of(record).asJSON()
        table = self.games.findTable(record.id)
        entry["players"] = len(record.seats)
        entry["params"] = record.params
        if table is not None:
            instructions = table.engine.instructions()
            entry["game_state"] = instructions.game_state.asJSON()
            entry["waiting_for"] = sorted(s + 1 for s in table.waiting)
            entry["open"] = [n + 1 for n, h in enumerate(table.holders)
                             if isinstance(h, OpenSeat)]
            entry["joinable"] = record.id in self.games.hosted
        else:
            entry["game_state"] = {"scores": record.scores, "gameover": True}
        return entry

    def getChild(self, path: bytes, request: Request) -> Resource:
        if path == b"record":
            return RecordResource(self.record)
        if path == b"replay":
            return Replay(self.games, self.record, self.replays)
        return NotFound()


class RecordResource(JSONResource):
    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        self.handlers = {b"GET": lambda request: record.asJSON()}


class Replay(JSONResource):
    """``/api/games/ID/replay?turn=N&player=P``: the game rebuilt after N actions."""

    def __init__(self, server: Any, record: GameRecord, replays: DeferredSemaphore) -> None:
        super().__init__()
        self.games = server
        self.record = record
        self.replays = replays
        self.handlers = {b"GET": self.replay}

    def replay(self, request: Request) -> Any:
        record = self.record
        turns = len(record.actions)
        turn = _int(request, "turn", turns, 0, turns)
        player = _int(request, "player", None, 1, len(record.seats))
        factory = self.games.registry.get(record.engine)
        if factory is None:
            raise HTTPError(404, f"no engine {record.engine!r} to replay this game")
        seat = None if player is None else player - 1

        def shown(engine: GameEngine) -> dict[str, Any]:
            instructions = engine.instructions()
            answer = {
                "game": record.id, "turn": turn, "turns": turns, "player": player,
                "displays": [engine.display(seat).asJSON()],
                "requested_actions": [r.asJSON() for r in instructions.requested_actions
                                      if r.player == seat],
                "waiting_for": sorted({r.player + 1 for r in instructions.requested_actions}),
                "game_state": instructions.game_state.asJSON(),
                "action": record.actions[turn - 1].asJSON() if turn else None,
            }
            stop = getattr(engine, "stop", None)
            if stop is not None:
                stop()
            return answer

        def failed(failure: Failure) -> None:
            raise HTTPError(500, f"the game does not replay: {failure.getErrorMessage()}")

        replays = self.replays
        if replays.tokens == 0 and len(replays.waiting) >= MAX_QUEUED_REPLAYS:
            raise HTTPError(503, "too many replays at once: try again shortly")
        d: Deferred[Any] = replays.run(replayLater, factory, record, turn)
        return d.addCallbacks(shown, failed)
