"""
External engines: programs that speak the engine JSON protocol on their
standard streams, hosted through a Twisted process protocol.

The server writes one JSON object a line.  The first an engine reads is
INITIALISATION, ``{"init": {...}}`` (with ``"initvalues"`` added to rebuild
a game exactly); each later one is one player's action, ``{"player": P,
"type": "CLICK", ...}``.  It answers each with one JSON value, INSTRUCTIONS
or ``{"errors": [...]}``, written as it likes: on one line or pretty-printed,
whatever whitespace separates the values (L{JSONValueReader}).  An engine
that crashes, hangs, or writes anything else ends its game with a clear
error; the server goes on.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import sys
from collections import deque
from pathlib import Path
from typing import Callable, Mapping, Sequence

import attrs
from twisted.internet import error as netError
from twisted.internet.defer import Deferred, fail
from twisted.internet.interfaces import IReactorProcess, IReactorTime
from twisted.internet.protocol import ProcessProtocol
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.buffer import NEED_MORE, Malformed, NeedMore, TooLong
from gameproto.engine.clock import Deadline
from gameproto.engine.contract import (
    JSON,
    Display,
    Errors,
    GameEngine,
    GameState,
    Instructions,
    MalformedJSON,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    Zone,
    checkAction,
    checkParameters,
    instructionsFromJSON,
    parametersFromJSON,
)

log = Logger(namespace="gameproto.engine.external")

VALUE_LIMIT = 1 << 20
"""The longest JSON value an engine may write (1 MiB), whitespace around it aside."""

NESTING_LIMIT = 500
"""
How deep an engine's arrays and objects may nest.  Python's own limit
depends on its version (about 1,000 levels in 3.11, 1,500 in 3.12, 10,000
in 3.13): this one is the same on all of them.
"""

STDERR_LIMIT = 64 << 10
"""How much of an engine's standard error is kept for the log."""


class EngineFailed(Exception):
    """An external engine crashed, hung, or wrote what the protocol does not allow."""


class ManifestError(ValueError):
    """An engine manifest that cannot be used."""


def isManifestPath(spec: str) -> bool:
    """
    Whether ``spec`` (what ``--engine`` takes) is the path of an existing
    manifest.json, or of a folder, rather than ``NAME=...``.
    """
    path = Path(spec)
    return path.is_dir() or (path.is_file() and path.suffix == ".json")


def parseEngineSpec(spec: str) -> tuple[str, str]:
    """
    ``NAME=MANIFEST`` or ``NAME=COMMAND`` (what ``--engine`` takes besides
    a bare ``PATH``, see L{isManifestPath}) split into the name, an
    identifier, and the rest, not blank.  Raises L{ManifestError}, whose
    text says what was expected.
    """
    name, equals, value = spec.partition("=")
    if not equals or not name.isidentifier() or not value.strip():
        raise ManifestError(
            f"expected PATH (a manifest.json or its folder), NAME=MANIFEST or "
            f"NAME=COMMAND, got {spec!r}")
    return name, value


@attrs.frozen
class EngineManifest:
    """
    What an external engine ships: its name, the command that runs it (in
    ``directory``), its init parameter description, and its sprites zip.
    """

    name: str
    command: tuple[str, ...]
    directory: Path
    parameters: tuple[Parameter, ...]
    description: Mapping[str, JSON]
    sprites: Path | None = None
    hiddenInformation: bool = True
    """
    The manifest's ``"hidden_information"``: false for a game where every
    seat sees everything; true (the default, to be safe) keeps the record of
    a live game (its initvalues and actions) and its seats' views from everyone.
    """

    @classmethod
    def load(cls, path: Path) -> EngineManifest:
        """Read ``path`` (a manifest.json, or a folder holding one)."""
        if path.is_dir():
            path = path / "manifest.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ManifestError(f"{path}: {e}") from None
        if not isinstance(data, dict):
            raise ManifestError(f"{path}: a manifest is a JSON object")
        name, command = data.get("name"), data.get("command")
        if not isinstance(name, str) or not name.isidentifier():
            raise ManifestError(f"{path}: name must be an identifier")
        if isinstance(command, str):
            command = shlex.split(command)
        if not (isinstance(command, list) and command and all(isinstance(c, str) for c in command)):
            raise ManifestError(f"{path}: command must be a list of strings")
        description = data.get("parameters", {"players": {"type": "int", "description": "players"}})
        try:
            parameters = parametersFromJSON(description)
        except MalformedJSON as e:
            raise ManifestError(f"{path}: {e}") from None
        if "players" not in {p.name for p in parameters}:
            raise ManifestError(f"{path}: the parameters must describe players")
        sprites = data.get("sprites")
        spritesPath = (path.parent / sprites) if isinstance(sprites, str) else None
        if spritesPath is not None and not spritesPath.is_file():
            raise ManifestError(f"{path}: sprites {sprites!r} not found")
        hidden = data.get("hidden_information", True)
        if not isinstance(hidden, bool):
            raise ManifestError(f"{path}: hidden_information must be true or false")
        return cls(name, tuple(command), path.parent, parameters, description, spritesPath,
                   hidden)

    @classmethod
    def fromSpec(cls, spec: str) -> EngineManifest:
        """
        An engine given as ``PATH`` (a manifest.json or a folder holding one;
        the engine is named by its manifest), ``NAME=MANIFEST`` (the same,
        the engine called NAME) or ``NAME=COMMAND`` (L{fromCommand}).
        Raises L{ManifestError}.
        """
        if isManifestPath(spec):
            return cls.load(Path(spec))
        name, value = parseEngineSpec(spec)
        path = Path(value)
        if path.exists():
            return attrs.evolve(cls.load(path), name=name)
        return cls.fromCommand(name, value)

    @classmethod
    def fromCommand(cls, name: str, command: str) -> EngineManifest:
        """An engine given as ``NAME=COMMAND``: its only init parameter is ``players``."""
        description = {"players": {"type": "int", "range": [1, 16],
                                   "description": "number of players"}}
        return cls(name, tuple(shlex.split(command)), Path.cwd(),
                   parametersFromJSON(description), description)

    def argv(self) -> list[str]:
        """The command to run, with ``python3``/``python`` meaning this interpreter."""
        first, *rest = self.command
        if first in ("python3", "python"):
            first = sys.executable
        return [first, *rest]


def findProgram(command: str, directory: Path, path: str) -> str | None:
    """
    The file ``command`` runs, as the engine's process would find it: a
    name with a slash from ``directory`` (where the engine runs), a bare
    name on ``path`` (the ``PATH``); None when there is no such program
    (checked before starting, so that the error is the server's own line
    and not the child's, after the fork).
    """
    if os.sep in command or (os.altsep is not None and os.altsep in command):
        candidate = directory / command
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
        return None
    return shutil.which(command, path=path)


def _notJSON(constant: str) -> None:
    """NaN and infinities: Python reads them, JSON has none (and browsers refuse them)."""
    raise ValueError(f"{constant} is not JSON")


@attrs.frozen
class Value:
    """One whole JSON value read from an engine."""

    data: JSON


_NOT_SPACE = re.compile(rb"[^ \t\n\r]")
_STRUCTURE = re.compile(rb'["\[\]{}]')
_IN_STRING = re.compile(rb'["\\]')
_TOKEN_END = re.compile(rb'[ \t\n\r"\[\]{},:]')
_SCALAR_START = b"-0123456789tfn"
_DECODER = json.JSONDecoder(parse_constant=_notJSON)


class JSONValueReader:
    """
    Sans-IO: the JSON values of a byte stream, whatever whitespace (or none)
    comes between them.  The end of each value is found by a scan of its
    brackets and strings that goes on where the last chunk stopped (linear
    in the bytes, however they are split), then the value is decoded whole:
    UTF-8, JSON without NaN or infinities.  A value over ``limit`` bytes is
    L{TooLong} as soon as it is.  (It keeps its own bytes rather than a
    L{gameproto.buffer.ReceiveBuffer}: the scan searches them in place.)
    """

    def __init__(self, limit: int = VALUE_LIMIT) -> None:
        self.limit = limit
        self._data = bytearray()
        self._begun = False
        """Whether the bytes held start a value (the whitespace before it dropped)."""
        self._scanned = 0
        self._depth = 0
        self._deepest = 0
        self._inString = False
        self._bare = False
        """A value that is no object, array or string: it ends where a token does."""

    def feed(self, data: bytes) -> None:
        """Add bytes as they arrive."""
        self._data += data

    def next(self) -> Value | Malformed | TooLong | NeedMore:
        """
        The next value, taken out; NEED_MORE while it is not all there;
        L{Malformed} (why) for bytes that are no JSON value or nest deeper
        than L{NESTING_LIMIT}, L{TooLong} for one over the limit (the reader
        is then of no more use).
        """
        if not self._begun and not self._begin():
            return NEED_MORE
        if self._bare and self._data[0] not in _SCALAR_START:
            return Malformed(f"no JSON value starts with {bytes(self._data[:1])!r}")
        end = self._scan()
        if end is None:
            return TooLong(self.limit) if len(self._data) > self.limit else NEED_MORE
        if end > self.limit:
            return TooLong(self.limit)
        chunk = bytes(self._data[:end])
        del self._data[:end]
        self._begun = False
        if self._deepest > NESTING_LIMIT:
            return Malformed("nested too deep")
        try:
            return Value(_DECODER.decode(chunk.decode("utf-8")))
        except UnicodeDecodeError:
            return Malformed("not UTF-8")
        except RecursionError:
            return Malformed("nested too deep")
        except ValueError as e:
            return Malformed(str(e))

    def _begin(self) -> bool:
        """Drop the whitespace before a value and note how it starts; False with none yet."""
        found = _NOT_SPACE.search(self._data)
        if found is None:
            del self._data[:]
            return False
        del self._data[: found.start()]
        first = self._data[0]
        self._begun = True
        self._depth = self._deepest = 1 if first in b"{[" else 0
        self._inString = first == 0x22
        self._bare = first not in b'{["'
        self._scanned = 1
        return True

    def _scan(self) -> int | None:
        """Where the value begun ends (one past its last byte), or None: not yet."""
        data = self._data
        if self._bare:
            token = _TOKEN_END.search(data, self._scanned)
            if token is None:
                self._scanned = len(data)
                return None
            return token.start()
        position = self._scanned
        while True:
            found = (_IN_STRING if self._inString else _STRUCTURE).search(data, position)
            if found is None:
                self._scanned = len(data)
                return None
            at = found.start()
            byte = data[at]
            if self._inString and byte == 0x5C:  # a backslash: the next byte is escaped
                if at + 1 >= len(data):
                    self._scanned = at
                    return None
                position = at + 2
                continue
            position = at + 1
            if byte == 0x22:  # a quote
                self._inString = not self._inString
                if not self._inString and self._depth == 0:
                    return position
            elif byte in (0x5B, 0x7B):  # [ {
                self._depth += 1
                if self._depth > self._deepest:
                    self._deepest = self._depth
            else:  # ] }
                self._depth -= 1
                if self._depth == 0:
                    return position


class EngineProcess(ProcessProtocol):
    """
    One running engine program: one request line out, one JSON value back,
    each answer within ``timeout`` seconds and under L{VALUE_LIMIT} bytes.
    """

    def __init__(self, name: str, clock: IReactorTime, timeout: float) -> None:
        self.name = name
        self.timeout = timeout
        self._timer = Deadline(clock)
        self._reader = JSONValueReader()
        self._pending: deque[Deferred[JSON]] = deque()
        self._stderr = b""
        self.failure: str | None = None
        self.ended: Deferred[None] = Deferred()
        self._exited = False
        self.failedIdle: Callable[[str], None] | None = None
        """
        Told why, when the program fails while nothing is asked of it (it
        exits, writes a value nobody asked for): the game it plays ends at
        once, not at its next action (a failure answering a request fails
        that request instead).
        """

    def connectionMade(self) -> None:
        pass

    def request(self, message: Mapping[str, JSON]) -> Deferred[JSON]:
        """Write one line; fires with the JSON value answered, or fails with EngineFailed."""
        if self.failure is not None:
            return fail(EngineFailed(self.failure))
        answer: Deferred[JSON] = Deferred()
        self._pending.append(answer)
        self.transport.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")  # type: ignore[union-attr]
        if len(self._pending) == 1:
            self._timer.start(self.timeout, self._hung)
        return answer

    def _hung(self) -> None:
        self._fail(f"the engine {self.name} did not answer within {self.timeout:g} s")

    def outReceived(self, data: bytes) -> None:
        self._reader.feed(data)
        while self.failure is None:
            read = self._reader.next()
            if isinstance(read, NeedMore):
                return
            if isinstance(read, TooLong):
                self._fail(f"the engine {self.name} wrote a JSON value over "
                           f"{VALUE_LIMIT} bytes")
                return
            if isinstance(read, Malformed):
                self._fail(f"the engine {self.name} wrote something that is not JSON "
                           f"({read.reason})")
                return
            if not self._pending:
                self._fail(f"the engine {self.name} wrote a message nobody asked for")
                return
            waiting = self._pending.popleft()
            if self._pending:
                self._timer.start(self.timeout, self._hung)
            else:
                self._timer.cancel()
            waiting.callback(read.data)

    def errReceived(self, data: bytes) -> None:
        if len(self._stderr) < STDERR_LIMIT:
            self._stderr += data[: STDERR_LIMIT - len(self._stderr)]

    def processEnded(self, reason: Failure) -> None:
        self._exited = True
        code = getattr(reason.value, "exitCode", None)
        if self.failure is None:
            how = f"exited with code {code}" if code is not None else "was killed"
            self._fail(f"the engine {self.name} {how}", kill=False)
        if self._stderr.strip():
            log.info("engine {name} wrote on stderr: {text}", name=self.name,
                     text=self._stderr.decode("utf-8", "replace")[-2000:])
        self.ended.callback(None)

    def _fail(self, reason: str, kill: bool = True) -> None:
        if self.failure is not None:
            return
        self.failure = reason
        self._timer.cancel()
        log.info("{reason}", reason=reason)
        idle = not self._pending
        while self._pending:
            self._pending.popleft().errback(EngineFailed(reason))
        if kill:
            self.kill()
        if idle and self.failedIdle is not None:
            self.failedIdle(reason)

    def stop(self) -> None:
        """End the program (killed: the game is over or given up, nothing more is asked of it)."""
        if self.failure is None:
            self.failure = f"the engine {self.name} was stopped"
        if not self._exited:
            self.kill()

    def kill(self) -> None:
        try:
            self.transport.signalProcess("KILL")  # type: ignore[union-attr]
        except (netError.ProcessExitedAlready, AttributeError):
            pass


class ExternalEngine:
    """The engine factory of one external program: starts it once per game."""

    def __init__(self, manifest: EngineManifest, reactor: IReactorProcess,
                 timeout: float = 5.0) -> None:
        self.manifest = manifest
        self.name = manifest.name
        self.parameters = manifest.parameters
        self.hiddenInformation = manifest.hiddenInformation
        self.reactor = reactor
        self.timeout = timeout

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> Deferred[GameEngine | Errors]:
        checked = checkParameters(self.parameters, params)
        if isinstance(checked, Errors):
            d: Deferred[GameEngine | Errors] = Deferred()
            d.callback(checked)
            return d
        env = dict(os.environ)
        argv = self.manifest.argv()
        program = findProgram(argv[0], self.manifest.directory, env.get("PATH", os.defpath))
        if program is None:
            return fail(EngineFailed(
                f"the engine {self.name} cannot start: no program {argv[0]!r} to run, "
                f"or not one this user may run "
                f"(from {self.manifest.directory})"))
        process = EngineProcess(self.name, self.reactor, self.timeout)  # type: ignore[arg-type]
        try:
            self.reactor.spawnProcess(process, program, argv,
                                      env=env, path=str(self.manifest.directory))
        except OSError as e:
            return fail(EngineFailed(f"the engine {self.name} cannot start: {e}"))
        init: dict[str, JSON] = {"init": dict(checked)}
        if initvalues is not None:
            init["initvalues"] = dict(initvalues)

        def answered(data: JSON) -> GameEngine | Errors:
            try:
                parsed = instructionsFromJSON(data)
            except MalformedJSON as e:
                process._fail(f"the engine {self.name} answered INITIALISATION wrongly: {e}")
                raise EngineFailed(process.failure) from None
            if isinstance(parsed, Errors):
                process.stop()
                return parsed
            instructions, displays = parsed
            values = instructions.initvalues if instructions.initvalues is not None else {}
            if initvalues is not None:
                values = dict(initvalues)
            try:
                return ExternalGame(self, process, dict(checked), values, instructions, displays)
            except MalformedJSON as e:
                process._fail(f"the engine {self.name} answered INITIALISATION wrongly: {e}")
                raise EngineFailed(process.failure) from None

        return process.request(init).addCallback(answered)

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """
        Whether an action is public while the game is live: every one when
        the manifest says there is no hidden information, else none (the
        server cannot tell what an action reveals).
        """
        return not self.hiddenInformation

    def bot(self, params: Mapping[str, JSON]) -> None:
        """External engines bring no bot."""
        return None


class ExternalGame:
    """A game played by an external program: the last instructions and displays it wrote."""

    def __init__(self, factory: ExternalEngine, process: EngineProcess,
                 params: dict[str, JSON], initvalues: dict[str, JSON],
                 instructions: Instructions, displays: Sequence[Display]) -> None:
        self.factory = factory
        self.process = process
        self.params = params
        self.initvalues = initvalues
        self.players = int(params["players"])  # type: ignore[call-overload]
        self._displays: dict[Seat, Display] = {}
        self._instructions = attrs.evolve(instructions, initvalues=initvalues)
        self._check(self._instructions, displays)
        self._remember(displays)
        self._over = instructions.game_state.gameover

    def onFailure(self, failed: Callable[[str], None]) -> None:
        """Call ``failed`` with why, should the program fail while nothing is asked of it."""
        self.process.failedIdle = failed

    def _check(self, instructions: Instructions, displays: Sequence[Display]) -> None:
        seats = [r.player for r in instructions.requested_actions] + [d.player for d in displays]
        if any(seat is not None and seat >= self.players for seat in seats):
            raise MalformedJSON(f"a player number above {self.players}")

    def _remember(self, displays: Sequence[Display]) -> None:
        for display in displays:
            if display.player is not None:
                self._displays[display.player] = display

    # -- GameEngine ----------------------------------------------------------

    def instructions(self) -> Instructions:
        return self._instructions

    def act(self, seat: Seat, action: JSON) -> Deferred[Instructions | Errors]:
        if self._over or not isinstance(action, dict):
            d: Deferred[Instructions | Errors] = Deferred()
            d.callback(Errors((UnexpectedAction(seat, action),)))
            return d
        message = {**action, "player": seat + 1}

        def answered(data: JSON) -> Instructions | Errors:
            try:
                parsed = instructionsFromJSON(data)
                if not isinstance(parsed, Errors):
                    self._check(*parsed)
            except MalformedJSON as e:
                self.process._fail(f"the engine {self.factory.name} answered wrongly: {e}")
                raise EngineFailed(self.process.failure) from None
            if isinstance(parsed, Errors):
                return parsed
            instructions, displays = parsed
            self._instructions = attrs.evolve(instructions, initvalues=None)
            self._remember(displays)
            if instructions.game_state.gameover:
                self._over = True
                self.process.stop()
            return self._instructions

        return self.process.request(message).addCallback(answered)

    def resign(self, seat: Seat) -> Instructions:
        """The document knows no resignation: the game ends as it stands."""
        self._over = True
        self.process.stop()
        state = self._instructions.game_state
        self._instructions = Instructions((), GameState(state.scores, True))
        return self._instructions

    def view(self, seat: Seat) -> tuple[Display | None, tuple[RequestedAction, ...]]:
        return self._displays.get(seat), tuple(
            r for r in self._instructions.requested_actions if r.player == seat)

    def display(self, seat: Seat | None) -> Display:
        """The last display the engine gave ``seat``; spectators get none (the document has no public one)."""
        if seat is None:
            return Display(None, 0, 0, ())
        return self._displays.get(seat) or Display(seat, 0, 0, ())

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        """
        The action checked against the requests, a CLICK without zones
        within the seat's drawing area (its last display's rectangle: empty
        for a seat the engine never gave a display); the action as it came.
        """
        shown = self.display(seat)
        area = Zone(0, 0, shown.width, shown.height)
        checked = checkAction(seat, action, self._instructions.requested_actions, area)
        if isinstance(checked, Errors):
            return checked
        return {k: v for k, v in action.items() if k != "player"}

    def stop(self) -> None:
        self.process.stop()
