"""
Game records: ``(engine name, params, initvalues, ordered actions)``.

A record replays to any turn and reproduces the state exactly, since every
engine is deterministic given its init values and the actions it accepted.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    ContextManager,
    Generator,
    Iterator,
    Literal,
    Mapping,
    Protocol,
    runtime_checkable,
)

import attrs

from gameproto.engine.contract import (
    JSON,
    EngineFactory,
    Errors,
    GameEngine,
    Seat,
    hasHiddenInformation,
    isPublicAction,
)

if TYPE_CHECKING:
    from twisted.internet.task import Cooperator

ActionKind = Literal["act", "resign"]
Status = Literal["live", "finished", "aborted"]


@attrs.frozen
class RecordedAction:
    """One accepted action: who, what, when (seconds on the table's clock)."""

    seat: Seat
    action: JSON
    at: float
    kind: ActionKind = "act"

    def asJSON(self) -> dict[str, JSON]:
        return {"seat": self.seat, "action": self.action, "at": self.at, "kind": self.kind}

    @classmethod
    def fromJSON(cls, data: Mapping[str, JSON]) -> RecordedAction:
        return cls(data["seat"], data["action"], data["at"], data.get("kind", "act"))


@attrs.define(eq=False)
class GameRecord:
    """Everything needed to replay one game, and how it ended."""

    id: int
    engine: str
    params: dict[str, JSON]
    initvalues: dict[str, JSON]
    seats: list[str]
    started: float
    actions: list[RecordedAction] = attrs.Factory(list)
    finished: float | None = None
    scores: list[int] | None = None
    error: str | None = None
    """Why the game was aborted (its engine failed), None for a game played out."""
    tokens: dict[Seat, str] = attrs.Factory(dict)
    """
    The sha256 (hex) of the token of each seat a person holds or held (see
    L{hashToken}): the seats only their token takes again.  Never shown.
    """

    @property
    def isFinished(self) -> bool:
        return self.finished is not None

    def claimed(self, seat: Seat) -> bool:
        """Whether a person holds or held ``seat``: only its token takes it."""
        return seat in self.tokens

    def tokenOpens(self, seat: Seat, token: str | None) -> bool:
        """Whether ``token`` is the token of ``seat``."""
        stored = self.tokens.get(seat)
        if stored is None or token is None:
            return False
        return hmac.compare_digest(stored, hashToken(token))

    def hidesFromPublic(self, factory: object) -> bool:
        """Whether this game is live and has hidden information (as ``factory`` declares)."""
        return self.status == "live" and hasHiddenInformation(factory)

    def publicJSON(self, factory: object) -> dict[str, JSON]:
        """
        What anybody may see of the record: all of it once the game is over
        or when the game hides nothing (``factory`` declares it); else no
        ``initvalues`` and no action that not every seat may know of (each
        is kept with its seat, kind and time, its ``action`` null and
        ``hidden`` true), ``withheld`` saying so.
        """
        data = self.asJSON()
        if not self.hidesFromPublic(factory):
            return data
        data["initvalues"] = None
        data["actions"] = [
            a.asJSON() if a.kind == "resign" or isPublicAction(factory, a.seat, a.action)
            else {"seat": a.seat, "action": None, "at": a.at, "kind": a.kind, "hidden": True}
            for a in self.actions
        ]
        data["withheld"] = True
        return data

    @property
    def status(self) -> str:
        """``live``, ``finished`` or ``aborted``."""
        if self.error is not None:
            return "aborted"
        return "finished" if self.isFinished else "live"

    def asJSON(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "engine": self.engine,
            "params": self.params,
            "initvalues": self.initvalues,
            "seats": list(self.seats),
            "started": self.started,
            "actions": [a.asJSON() for a in self.actions],
            "finished": self.finished,
            "scores": self.scores,
            "error": self.error,
            "status": self.status,
        }

    @classmethod
    def fromJSON(cls, data: Mapping[str, JSON]) -> GameRecord:
        return cls(
            id=data["id"],
            engine=data["engine"],
            params=dict(data["params"]),
            initvalues=dict(data["initvalues"]),
            seats=list(data["seats"]),
            started=data["started"],
            actions=[RecordedAction.fromJSON(a) for a in data["actions"]],
            finished=data.get("finished"),
            scores=data.get("scores"),
            error=data.get("error"),
        )


def hashToken(token: str) -> str:
    """What the store keeps of a seat's token: its sha256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.frozen
class GameSummary:
    """One game in a listing: no actions."""

    id: int
    engine: str
    seats: tuple[str, ...]
    started: float
    finished: float | None
    scores: tuple[int, ...] | None
    error: str | None
    turns: int

    @property
    def status(self) -> Status:
        if self.error is not None:
            return "aborted"
        return "live" if self.finished is None else "finished"

    @classmethod
    def of(cls, record: GameRecord) -> GameSummary:
        return cls(record.id, record.engine, tuple(record.seats), record.started,
                   record.finished, tuple(record.scores) if record.scores is not None else None,
                   record.error, len(record.actions))

    def asJSON(self) -> dict[str, Any]:
        return {"id": self.id, "engine": self.engine, "seats": list(self.seats),
                "status": self.status, "started": self.started, "finished": self.finished,
                "scores": list(self.scores) if self.scores is not None else None,
                "error": self.error, "turns": self.turns}


class ReplayError(Exception):
    """A record does not replay: unknown engine, or an action its engine refuses."""


def _rebuild(
    factory: EngineFactory, record: GameRecord, turn: int | None
) -> Generator[Callable[[], Any], Any, GameEngine]:
    """
    The steps of a replay, written once for L{replay} and L{replayLater}:
    each ``yield`` hands over a call (start the engine, play an action) and
    gets its result back, at once or when a Deferred fires.
    """
    if factory.name != record.engine:
        raise ReplayError(f"record {record.id} is a {record.engine} game, not {factory.name}")
    engine = yield lambda: factory.start(record.params, record.initvalues)
    if isinstance(engine, Errors):
        raise ReplayError(f"record {record.id} does not start: {engine.asJSON()}")
    actions = record.actions if turn is None else record.actions[: max(turn, 0)]
    for index, recorded in enumerate(actions):
        if recorded.kind == "resign":
            engine.resign(recorded.seat)
            continue
        outcome = yield lambda: engine.act(recorded.seat, recorded.action)
        if isinstance(outcome, Errors):
            raise ReplayError(f"record {record.id}: action {index} refused: {outcome.asJSON()}")
    return engine


def replay(
    factory: EngineFactory, record: GameRecord, turn: int | None = None
) -> GameEngine:
    """
    Rebuild ``record``'s game after its first ``turn`` actions (all of them
    when ``turn`` is None).
    """
    steps = _rebuild(factory, record, turn)
    try:
        call = next(steps)
        while True:
            call = steps.send(call())
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


class RecordStore(Protocol):
    """
    Where tables write their records, as the game goes.  A store may also
    time its writes (L{TimedStore}).
    """

    def nextId(self) -> int:
        """A new game id."""

    def gameStarted(self, record: GameRecord) -> None:
        """A game began: store its record."""

    def gameResumed(self, record: GameRecord) -> None:
        """A game this store left unfinished (L{unfinished}) goes on, restored: keep it at hand."""

    def seatsChanged(self, record: GameRecord) -> None:
        """A seat of a live game changed hands: ``record.seats`` holds the new names."""

    def actionAccepted(self, record: GameRecord, action: RecordedAction) -> None:
        """``action`` was accepted and appended to ``record.actions``."""

    def gameFinished(self, record: GameRecord) -> None:
        """``record`` is complete: ``finished`` and ``scores`` are set."""

    def get(self, gameId: int) -> GameRecord | None:
        """The record of game ``gameId``, live or finished."""

    def games(self, offset: int = 0, limit: int = 50,
              status: Status | None = None) -> tuple[list[GameSummary], int]:
        """A page of games, newest first, and how many there are in all."""

    def unfinished(self) -> Iterator[GameRecord]:
        """The games still in progress when the previous run stopped, oldest first."""

    def close(self) -> None:
        """
        The server stops: write nothing more (games in progress stay live, to
        be restored by the next run) and let go of what the store holds.
        """


WriteTimer = Callable[[str], ContextManager[object]]
"""Times one write of a store, named by its operation (the metrics' histogram)."""


@runtime_checkable
class TimedStore(Protocol):
    """
    A L{RecordStore} that can time its writes (an optional part of it): the
    hub has its metrics time them.
    """

    def timeWrites(self, timer: WriteTimer) -> None:
        """Time every write with ``timer`` (and each commit, when writes share one)."""


@attrs.define
class MemoryRecordStore:
    """Keeps every record in memory: for tests and short-lived embedded servers."""

    records: dict[int, GameRecord] = attrs.Factory(dict)
    _lastId: int = 0

    def nextId(self) -> int:
        self._lastId += 1
        return self._lastId

    def gameStarted(self, record: GameRecord) -> None:
        self.records[record.id] = record

    def gameResumed(self, record: GameRecord) -> None:
        self.records[record.id] = record

    def seatsChanged(self, record: GameRecord) -> None:
        pass

    def actionAccepted(self, record: GameRecord, action: RecordedAction) -> None:
        pass

    def gameFinished(self, record: GameRecord) -> None:
        pass

    def get(self, gameId: int) -> GameRecord | None:
        return self.records.get(gameId)

    def games(self, offset: int = 0, limit: int = 50,
              status: Status | None = None) -> tuple[list[GameSummary], int]:
        """A page of games, newest first, and how many there are in all."""
        chosen = [GameSummary.of(r) for r in sorted(self.records.values(), key=lambda r: -r.id)
                  if status is None or r.status == status]
        return chosen[offset : offset + limit], len(chosen)

    def unfinished(self) -> Iterator[GameRecord]:
        """
        The games not finished, oldest first: the records another hub left
        live in this same store (a restart within one process).
        """
        for gameId in sorted(self.records):
            record = self.records[gameId]
            if not record.isFinished and record.error is None:
                yield record

    def close(self) -> None:
        pass


def replayLater(factory: EngineFactory, record: GameRecord, turn: int | None = None,
                cooperator: Cooperator | None = None) -> Any:
    """
    L{replay} for engines of any kind, those in another process included:
    a Deferred firing with the game after its first ``turn`` actions.

    With a ``cooperator`` (C{twisted.internet.task.Cooperator}), the steps
    are its task's: an engine that answers at once (in this process) is
    replayed in the cooperator's time slices, so a long record never holds
    the reactor up; without one, such an engine is replayed in one go.
    """
    from twisted.internet.defer import inlineCallbacks, maybeDeferred

    if cooperator is not None:
        return _cooperating(factory, record, turn, cooperator)

    @inlineCallbacks
    def drive() -> Any:
        steps = _rebuild(factory, record, turn)
        try:
            call = next(steps)
            while True:
                call = steps.send((yield maybeDeferred(call)))
        except StopIteration as done:
            return done.value

    return drive()


def _cooperating(factory: EngineFactory, record: GameRecord, turn: int | None,
                 cooperator: Cooperator) -> Any:
    """L{replayLater}'s steps as one task of ``cooperator``: a Deferred of the engine."""
    from twisted.internet.defer import Deferred, maybeDeferred
    from twisted.python.failure import Failure

    rebuilt: list[GameEngine] = []

    def work() -> Iterator[Deferred[Any] | None]:
        steps = _rebuild(factory, record, turn)
        try:
            call = next(steps)
            while True:
                outcome: list[Any] = []
                answer = maybeDeferred(call).addBoth(outcome.append)
                if not outcome:  # an engine in another process: wait for its answer
                    yield answer
                if isinstance(outcome[0], Failure):
                    call = outcome[0].throwExceptionIntoGenerator(steps)
                else:
                    call = steps.send(outcome[0])
                yield None  # one step done: the cooperator may let the reactor run
        except StopIteration as done:
            rebuilt.append(done.value)

    task = cooperator.cooperate(work())
    return task.whenDone().addCallback(lambda _: rebuilt[0])
