"""
The HTTP API on the web port: engines, games of every protocol, their
records, and replays to any turn, as JSON.

    GET  /api/engines                      engines and their init parameters
    GET  /api/matchmaking                  the protocols' matchmakers: {engine, title,
                                           waiting, players} each (who waits there now)
    GET  /api/engines/NAME/sprites.zip     an external engine's sprites
    GET  /api/engines/NAME/sprites/FILE    one file of that zip (what displays' images name)
    GET  /api/games?offset=&limit=&status= games, newest first, paged
    POST /api/games  {"engine", "init", "bots"}   a new game (INITIALISATION errors: 400;
                                           not application/json: 415; too many: 429, 503;
                                           the engine failed: 502; stopping: 503)
    GET  /api/games/ID                     a game's state and seats
    GET  /api/games/ID/record?offset=&limit=
                                           its record, a page of its actions (of a live
                                           game with hidden information: no
                                           initvalues, no hidden action)
    GET  /api/games/ID/replay?turn=N&player=P&token=T
                                           what seat P (none: a spectator) saw at turn N;
                                           seat P of a live game with hidden information
                                           needs its token (or "authorization: Bearer T"): 403
"""

from __future__ import annotations

import json
import math
import zipfile
from typing import Any, Callable

from twisted.internet.defer import Deferred, DeferredSemaphore, maybeDeferred
from twisted.internet.task import Cooperator
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.web.resource import Resource
from twisted.web.server import NOT_DONE_YET, Request
from twisted.web.static import File

from gameproto.engine.contract import EngineFactory, Errors, GameEngine
from gameproto.engine.external import ExternalEngine
from gameproto.engine.hub import Hub
from gameproto.engine.record import GameRecord, GameSummary, Status, replayLater
from gameproto.engine.table import Table
from gameproto.jsonutil import plainJSON

log = Logger(namespace="gameproto.web")

MAX_BODY = 64 * 1024
PAGE_LIMIT = 200
RECORD_LIMIT = 1000
"""The most actions of a record in one answer (and how many by default)."""
MAX_ID = 2**63 - 1
"""The largest game id (SQLite's largest integer)."""
MAX_REPLAYS = 4
"""Replays rebuilt at once (an external engine's each start a process)."""
MAX_QUEUED_REPLAYS = 32
"""Replays waiting for one of those; past it, 503."""
MAX_REPLAYS_PER_PEER = 2
"""Replays one peer (address) may have running or waiting at once; past it, 429."""
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

    def __init__(self, status: int, message: str, *,
                 headers: dict[bytes, bytes] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}
        self.extra = extra


_REASONS = {429: b"Too Many Requests"}
"""The reason phrases of the statuses twisted.web does not name (it would say "Unknown Status")."""


def _json(request: Request, status: int, body: Any) -> bytes:
    request.setResponseCode(status, _REASONS.get(status))
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

    def __init__(self) -> None:
        super().__init__()
        self.handlers: dict[bytes, Callable[[Request], Any]] = {}
        """The handler of each method (none: every method answers 405)."""

    def render(self, request: Request) -> bytes | int:
        handler = self.handlers.get(request.method or b"")
        if handler is None:
            allowed = b", ".join(sorted(self.handlers))
            request.setHeader(b"allow", allowed)
            return _json(request, 405, {"error": "method not allowed"})
        lost: list[Failure] = []
        request.notifyFinish().addErrback(lost.append)
        result = maybeDeferred(handler, request)

        def done(body: Any) -> None:
            status, payload = body if isinstance(body, tuple) else (200, body)
            if not request.finished and not lost:
                request.write(_json(request, status, payload))
                request.finish()

        def failed(failure: Failure) -> None:
            error = failure.value
            if isinstance(error, HTTPError):
                for name, value in error.headers.items():
                    request.setHeader(name, value)
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


class Replays:
    """
    What replays share: L{MAX_REPLAYS} places (``semaphore``), the replays
    of each peer, and a cooperator on the hub's clock whose time slices
    rebuild the games, so that a long replay lets the reactor run.
    """

    def __init__(self, hub: Hub, semaphore: DeferredSemaphore) -> None:
        self.semaphore = semaphore
        self.peers: dict[str, int] = {}
        """The replays each peer has running or waiting."""
        clock = hub.clock
        self.cooperator = Cooperator(scheduler=lambda step: clock.callLater(0.0, step))

    def begin(self, peer: str) -> bool:
        """Count one more replay of ``peer``, if it may have one."""
        held = self.peers.get(peer, 0)
        if held >= MAX_REPLAYS_PER_PEER:
            return False
        self.peers[peer] = held + 1
        return True

    def end(self, peer: str) -> None:
        """One replay of ``peer`` is over."""
        left = self.peers.get(peer, 0) - 1
        if left > 0:
            self.peers[peer] = left
        else:
            self.peers.pop(peer, None)


class API(JSONResource):
    """``/api``: the games of the hub, whatever protocol plays them."""

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self.hub = hub
        self.replays = DeferredSemaphore(MAX_REPLAYS)
        self.replaying = Replays(hub, self.replays)
        self.handlers = {b"GET": lambda request: {
            "engines": "/api/engines", "games": "/api/games",
            "matchmaking": "/api/matchmaking"}}

    def getChild(self, path: bytes, request: Request) -> Resource:
        if path == b"engines":
            return Engines(self.hub)
        if path == b"matchmaking":
            return Matchmaking(self.hub)
        if path == b"games":
            return Games(self.hub, self.replaying)
        return NotFound()


class Engines(JSONResource):
    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self.hub = hub
        self.handlers = {b"GET": self.list}

    def list(self, request: Request) -> Any:
        engines = self.hub.registry.describe()
        for entry in engines:
            entry["bot"] = _hasBot(self.hub.registry.get(entry["name"]))
        return {"engines": engines}

    def getChild(self, path: bytes, request: Request) -> Resource:
        engine = self.hub.registry.get(path.decode("utf-8", "replace"))
        if engine is None:
            return NotFound()
        return EngineFiles(engine)


class Matchmaking(JSONResource):
    """
    ``/api/matchmaking``: the matchmakers of the protocols that form games
    (a queue, a table filled by arrival), which a player of any protocol
    joins with the engine JSON protocol's ``queue``: each one's engine and
    title, and who waits there now (``waiting``, their number, and
    ``players``, their names in order of arrival: that protocol's own
    players and guests alike, no bot).
    """

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self.hub = hub
        self.handlers = {b"GET": self.list}

    def list(self, request: Request) -> Any:
        answer = []
        for _, matchmaker in sorted(self.hub.matchmakers.items()):
            players = matchmaker.waiting()
            answer.append({"engine": matchmaker.engine, "title": matchmaker.title,
                           "waiting": len(players), "players": players})
        return {"matchmaking": answer}


def _hasBot(factory: EngineFactory | None) -> bool:
    """Whether ``factory`` gives a bot (asked with its default parameters)."""
    if factory is None:
        return False
    defaults = {p.name: p.default for p in factory.parameters if p.default is not None}
    try:
        return factory.bot(defaults) is not None
    except Exception:
        return False


class EngineFiles(JSONResource):
    def __init__(self, engine: EngineFactory) -> None:
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

    def __init__(self, hub: Hub, replays: Replays) -> None:
        super().__init__()
        self.hub = hub
        self.replays = replays
        self.handlers = {b"GET": self.list, b"POST": self.create}

    def list(self, request: Request) -> Any:
        offset = _int(request, "offset", 0, 0, 2**31) or 0
        limit = _int(request, "limit", 50, 1, PAGE_LIMIT) or 50
        status: Status | None
        match _arg(request, "status"):
            case None:
                status = None
            case "live" | "finished" | "aborted" as named:
                status = named
            case _:
                raise HTTPError(400, "status must be live, finished or aborted")
        games, total = self.hub.store.games(offset, limit, status)
        return {"games": [self._entry(g) for g in games], "total": total,
                "offset": offset, "limit": limit}

    def _entry(self, summary: GameSummary) -> dict[str, Any]:
        entry = summary.asJSON()
        table = self.hub.findTable(summary.id)
        if table is not None:
            entry["seats"] = list(table.record.seats)
            entry.update(_seats(self.hub, table))
        return entry

    def create(self, request: Request) -> Any:
        peer = _peer(request)
        kind = (request.getHeader(b"content-type") or b"").partition(b";")[0].strip().lower()
        if kind != b"application/json":
            _fault(self.hub, request, peer, 415, "not application/json", "content-type")
            raise HTTPError(415, "the body must be JSON, sent as Content-Type: application/json")
        wait = self.hub.creationWait(peer)
        if wait is not None:
            _fault(self.hub, request, peer, 429, "too many games created", "game-rate")
            raise HTTPError(
                429, f"at most {self.hub.settings.gamesPerMinute} new games a minute: "
                     f"try again later", headers={b"retry-after": b"%d" % math.ceil(wait)})
        body = request.content.read(MAX_BODY + 1) if request.content is not None else b""
        if len(body) > MAX_BODY:
            _fault(self.hub, request, peer, 413, "body too large", "too-big")
            raise HTTPError(413, "body too large")
        try:
            data = json.loads(body or b"null")
            wrong = plainJSON(data)
        except (ValueError, RecursionError):
            wrong = "the body is not JSON"
        if wrong is not None:
            _fault(self.hub, request, peer, 400, wrong, "malformed")
            raise HTTPError(400, wrong, errors=[{"type": "BAD_FORMAT"}])
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
                # Not found; the engine failed (a bad gateway: not the client's
                # fault); the server stopping; else a request the engine refuses.
                status = (404 if result.startswith("no engine") else
                          502 if result.startswith(f"the engine {data['engine']} failed:") else
                          503 if self.hub.stopping else 400)
                return status, {"error": result}
            return 201, {"id": result.id, "engine": result.factory.name,
                         "url": f"/api/games/{result.id}"}

        if self.hub.hostedCount() >= self.hub.settings.maxGames:
            _fault(self.hub, request, peer, 503, "too many games", "too-many-games")
            raise HTTPError(503, f"too many games at once ({self.hub.settings.maxGames}): "
                                 "try again later", headers={b"retry-after": b"60"})
        refusal = self.hub.refusesGame(peer)
        if refusal is not None and self.hub.stopping:
            raise HTTPError(503, refusal)
        if refusal is not None:
            _fault(self.hub, request, peer, 429, "too many games from this peer",
                   "too-many-games")
            # A place is free once one of the peer's games ends: no telling
            # when, so a minute, as for the cap in all.
            raise HTTPError(429, refusal, headers={b"retry-after": b"60"})
        return self.hub.newGame(data["engine"], init, tuple(bots), peer=peer).addCallback(made)

    def getChild(self, path: bytes, request: Request) -> Resource:
        try:
            gameId = int(path)
        except ValueError:
            return NotFound()
        if not 0 < gameId <= MAX_ID:
            return NotFound()
        record = self.hub.store.get(gameId)
        if record is None:
            return NotFound()
        return Game(self.hub, record, self.replays)


class Game(JSONResource):
    """``/api/games/ID``."""

    def __init__(self, hub: Hub, record: GameRecord, replays: Replays) -> None:
        super().__init__()
        self.hub = hub
        self.record = record
        self.replays = replays
        self.handlers = {b"GET": self.show}

    def show(self, request: Request) -> Any:
        record = self.record
        entry = GameSummary.of(record).asJSON()
        table = self.hub.findTable(record.id)
        entry["players"] = len(record.seats)
        entry["params"] = record.params
        if table is not None:
            instructions = table.engine.instructions()
            entry["game_state"] = instructions.game_state.asJSON()
            entry["waiting_for"] = sorted(s + 1 for s in table.waiting)
            entry.update(_seats(self.hub, table))
        else:
            entry["game_state"] = {"scores": record.scores, "gameover": True}
        return entry

    def getChild(self, path: bytes, request: Request) -> Resource:
        if path == b"record":
            return RecordResource(self.hub, self.record)
        if path == b"replay":
            return Replay(self.hub, self.record, self.replays)
        return NotFound()


def _seats(hub: Hub, table: Table) -> dict[str, Any]:
    """A live game's open seats, and whether they can be joined (a game hosted by the hub)."""
    return {"open": [n + 1 for n in hub.openSeats(table)], "joinable": hub.hosts(table)}


class RecordResource(JSONResource):
    """
    ``/api/games/ID/record``: the whole record, but for a live game with
    hidden information, whose ``initvalues`` and hidden actions are withheld.
    """

    def __init__(self, hub: Hub, record: GameRecord) -> None:
        super().__init__()
        self.handlers = {
            b"GET": lambda request: _page(
                record.publicJSON(hub.registry.get(record.engine)), request)}


def _page(record: dict[str, Any], request: Request) -> dict[str, Any]:
    """
    ``record`` (as JSON) with the page of its actions ``request`` asks for:
    from ``offset``, at most ``limit`` (L{RECORD_LIMIT} by default and at
    most); ``turns`` says how many actions it has in all.
    """
    actions = record["actions"]
    offset = _int(request, "offset", 0, 0, MAX_ID) or 0
    limit = _int(request, "limit", RECORD_LIMIT, 1, RECORD_LIMIT) or RECORD_LIMIT
    record["actions"] = actions[offset : offset + limit]
    record.update(offset=offset, limit=limit, turns=len(actions))
    return record


def _fault(hub: Hub, request: Request, peer: str, status: int, reason: str,
           cause: str) -> None:
    """
    A request refused (a client's fault, or over a limit): one log line, at
    a bounded rate per peer, and one refusal of ``cause`` in the metrics
    (under the protocol C{web}).
    """
    hub.faults.fault(peer, "API {method} {uri} from {peer}: {status} ({reason})",
                     method=(request.method or b"").decode("ascii", "replace"),
                     uri=(request.uri or b"")[:200].decode("ascii", "replace"),
                     status=status, reason=reason)
    hub.metrics.refused("web", cause)


def _peer(request: Request) -> str:
    """Who sent ``request``: its address (``local`` for a UNIX socket)."""
    return str(getattr(request.getClientAddress(), "host", None) or "local")


def _token(request: Request) -> str | None:
    """The seat token of a request: ``token=`` in the query, or ``authorization: Bearer``."""
    header = request.getHeader(b"authorization")
    if header is not None and header[:7].lower() == b"bearer ":
        return header[7:].strip().decode("ascii", "replace") or None
    return _arg(request, "token")


def _shownAction(record: GameRecord, public: list[Any] | None, turn: int | None,
                 holder: int | None) -> Any:
    """
    The action that led to ``turn``: as recorded, or (``public``: what
    everybody may see of a live game's actions) as everybody may see it,
    unless it is the action of ``holder``, the seat whose token was given.
    """
    if not turn:
        return None
    action = record.actions[turn - 1]
    if public is None or action.seat == holder:
        return action.asJSON()
    return public[turn - 1]


class Replay(JSONResource):
    """``/api/games/ID/replay?turn=N&player=P``: the game rebuilt after N actions."""

    def __init__(self, hub: Hub, record: GameRecord, replays: Replays) -> None:
        super().__init__()
        self.hub = hub
        self.record = record
        self.replays = replays
        self.handlers = {b"GET": self.replay}

    def replay(self, request: Request) -> Any:
        record = self.record
        turns = len(record.actions)
        turn = _int(request, "turn", turns, 0, turns)
        if turn is not None and turn > self.hub.settings.maxActions:
            # A record from before the cap: its replay would hold every client up.
            raise HTTPError(400, f"turn must be at most {self.hub.settings.maxActions}, "
                                 f"the most actions a game may have")
        player = _int(request, "player", None, 1, len(record.seats))
        factory = self.hub.registry.get(record.engine)
        if factory is None:
            raise HTTPError(404, f"no engine {record.engine!r} to replay this game")
        seat = None if player is None else player - 1
        hidden = record.hidesFromPublic(factory)
        holder = seat is not None and record.tokenOpens(seat, _token(request))
        if hidden and seat is not None and not holder:
            raise HTTPError(403, f"player {player}'s view of a live game with hidden "
                                 f"information is that seat's: give its token")
        actions = record.publicJSON(factory)["actions"] if hidden else None

        def shown(engine: GameEngine) -> dict[str, Any]:
            instructions = engine.instructions()
            answer = {
                "game": record.id, "turn": turn, "turns": turns, "player": player,
                "displays": [engine.display(seat).asJSON()],
                "requested_actions": [r.asJSON() for r in instructions.requested_actions
                                      if r.player == seat],
                "waiting_for": sorted({r.player + 1 for r in instructions.requested_actions}),
                "game_state": instructions.game_state.asJSON(),
                "action": _shownAction(record, actions, turn, seat if holder else None),
            }
            engine.stop()
            return answer

        def failed(failure: Failure) -> None:
            raise HTTPError(500, f"the game does not replay: {failure.getErrorMessage()}")

        peer = _peer(request)
        replays, places = self.replays, self.replays.semaphore
        if places.tokens == 0 and len(places.waiting) >= MAX_QUEUED_REPLAYS:
            _fault(self.hub, request, peer, 503, "too many replays", "too-many-replays")
            raise HTTPError(503, "too many replays at once: try again shortly")
        if not replays.begin(peer):
            _fault(self.hub, request, peer, 429, "too many replays from this peer",
                   "too-many-replays")
            raise HTTPError(429, f"at most {MAX_REPLAYS_PER_PEER} replays at once from one "
                                 "address: try again shortly",
                            headers={b"retry-after": b"1"})

        def over(result: Any) -> Any:
            replays.end(peer)
            return result

        d: Deferred[Any] = places.run(replayLater, factory, record, turn, replays.cooperator)
        return d.addBoth(over).addCallbacks(shown, failed)
