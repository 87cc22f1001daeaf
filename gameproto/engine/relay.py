"""
The relay engine: for protocols whose clients carry the rules (a relay
server only passes moves between them), a deterministic engine that keeps
the turn and the token, stores every move without judging it, and is
recorded and replayed like any other game.

The turn goes round the seats still playing, seat 0 first.  Whoever has it
holds a token, a number in ``1..TOKEN_MAX`` drawn from the game's seed
(its only init value, so a replay draws the very same tokens), never 0 and
never the previous one again.  The game's own actions are JSON objects:

  - ``{"move": M, "token": T}``: the seat holding token ``T`` plays ``M``,
    any JSON value, kept as it is;
  - ``{"ack": true}`` / ``{"ack": false}``: with acknowledgements on (the
    ``acks`` parameter), every other playing seat accepts the last move
    before the turn goes on, or refuses it, which ends the game;
  - ``{"finish": true}``, or ``{"finish": true, "scores": [...]}``: a
    playing seat says the game is over (with every seat's score).

A seat that resigns leaves the turn order; with one seat left, the game is
over.  Events: ``token`` (to its holder only), ``move``, ``ack``,
``resign``, ``finish`` and ``end``.
"""

from __future__ import annotations

import json
import random
from typing import Mapping, Sequence

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Bot,
    Display,
    checkSeeded,
    Errors,
    Event,
    GameState,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    checkAction,
)

TOKEN_MAX = 2**31 - 1
"""The largest token (tokens fit a signed 32-bit integer)."""

MAX_PLAYERS = 16
"""The most seats a relay game may have unless its factory says otherwise."""

MOVE_TEXT_LIMIT = 4096
"""The longest move an engine JSON player may type (a TEXT action)."""


def _isInt(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@attrs.frozen
class RelayView:
    """What one seat may know: whose turn, its own token, the moves so far."""

    players: int
    playing: frozenset[Seat]
    holder: Seat | None
    token: int | None
    """The token, for its holder only (None for every other seat)."""
    moves: tuple[tuple[Seat, JSON], ...]
    awaitingAcks: frozenset[Seat]
    over: bool


class RelayGame:
    """One relay game under the engine contract."""

    def __init__(self, params: Mapping[str, JSON], seed: int) -> None:
        self.params: Mapping[str, JSON] = dict(params)
        self.initvalues: Mapping[str, JSON] = {"seed": seed}
        self.players: int = int(params["players"])
        self.acks: bool = bool(params["acks"])
        self._rng = random.Random(seed)
        self.playing: set[Seat] = set(range(self.players))
        self.moves: list[tuple[Seat, JSON]] = []
        self.awaitingAcks: set[Seat] = set()
        self.over = False
        self.scores: tuple[int, ...] = (0,) * self.players
        self.holder: Seat | None = 0
        self.token = 0
        self._tokens: list[int] = []
        self._drawToken()

    # -- the turn ----------------------------------------------------------------

    def _drawToken(self) -> None:
        previous = self.token
        token = previous
        while token == previous:
            token = self._rng.randint(1, TOKEN_MAX)
        self.token = token
        self._tokens.append(token)

    def _after(self, seat: Seat) -> Seat:
        """The next playing seat after ``seat``, round the table."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate in self.playing:
                return candidate
        return seat

    def _passTurn(self, after: Seat) -> tuple[Event, ...]:
        """Give the turn to the seat after ``after``, with a fresh token."""
        self.holder = self._after(after)
        self._drawToken()
        return (self._tokenEvent(),)

    def _tokenEvent(self) -> Event:
        assert self.holder is not None
        return Event("token", self.token, self.holder, frozenset({self.holder}))

    def _end(self, reason: str, scores: Sequence[int] | None = None) -> tuple[Event, ...]:
        self.over = True
        self.holder = None
        self.awaitingAcks.clear()
        if scores is not None:
            self.scores = tuple(scores)
        return (Event("end", {"reason": reason, "scores": list(self.scores)}),)

    # -- instructions ------------------------------------------------------------

    def _requested(self) -> tuple[RequestedAction, ...]:
        if self.over:
            return ()
        if self.awaitingAcks:
            return tuple(RequestedAction(seat, "KEY", keys="yn")
                         for seat in sorted(self.awaitingAcks))
        assert self.holder is not None
        return (RequestedAction(self.holder, "TEXT", max_length=MOVE_TEXT_LIMIT),
                RequestedAction(self.holder, "KEY", keys="f"))

    def _step(self, events: tuple[Event, ...]) -> Instructions:
        return Instructions(self._requested(), GameState(self.scores, self.over), events)

    def instructions(self) -> Instructions:
        events = () if self.over or self.awaitingAcks else (self._tokenEvent(),)
        return attrs.evolve(self._step(events), initvalues=dict(self.initvalues))

    # -- playing -----------------------------------------------------------------

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        unexpected = Errors((UnexpectedAction(seat, action),))
        if not isinstance(action, dict):
            return Errors((BadFormat(),))
        kinds = [k for k in ("move", "ack", "finish") if k in action]
        if len(kinds) != 1:
            return Errors((BadFormat(),))
        if self.over or seat not in self.playing:
            return unexpected
        if kinds == ["move"]:
            token = action.get("token")
            if set(action) != {"move", "token"} or not _isInt(token):
                return Errors((BadFormat(),))
            if self.awaitingAcks or seat != self.holder or token != self.token:
                return unexpected
            move = action["move"]
            self.moves.append((seat, move))
            events: tuple[Event, ...] = (Event("move", move, seat),)
            if self.acks:
                self.awaitingAcks = self.playing - {seat}
                return self._step(events)
            return self._step(events + self._passTurn(seat))
        if kinds == ["ack"]:
            ok = action["ack"]
            if set(action) != {"ack"} or not isinstance(ok, bool):
                return Errors((BadFormat(),))
            if seat not in self.awaitingAcks:
                return unexpected
            events = (Event("ack", ok, seat),)
            if not ok:
                return self._step(events + self._end("refused"))
            self.awaitingAcks.discard(seat)
            return self._step(events + self._afterAcks())
        scores = action.get("scores")
        if action["finish"] is not True or not set(action) <= {"finish", "scores"} or (
            scores is not None and not (
                isinstance(scores, list) and len(scores) == self.players
                and all(_isInt(s) for s in scores))):
            return Errors((BadFormat(),))
        return self._step((Event("finish", scores, seat),) + self._end("finished", scores))

    def _afterAcks(self) -> tuple[Event, ...]:
        """Once every playing seat acknowledged the last move, the turn goes on."""
        if self.awaitingAcks or self.over:
            return ()
        lastMover = self.moves[-1][0]
        return self._passTurn(lastMover)

    def resign(self, seat: Seat) -> Instructions:
        if self.over or seat not in self.playing:
            return self._step(())
        self.playing.discard(seat)
        events: tuple[Event, ...] = (Event("resign", None, seat),)
        if len(self.playing) < 2:
            return self._step(events + self._end("alone"))
        if self.awaitingAcks:
            self.awaitingAcks.discard(seat)
            return self._step(events + self._afterAcks())
        if seat == self.holder:
            events += self._passTurn(seat)
        return self._step(events)

    # -- what seats see ------------------------------------------------------------

    @property
    def tokens(self) -> tuple[int, ...]:
        """Every token drawn so far, in order."""
        return tuple(self._tokens)

    def view(self, seat: Seat) -> RelayView:
        return RelayView(self.players, frozenset(self.playing), self.holder,
                         self.token if seat == self.holder else None, tuple(self.moves),
                         frozenset(self.awaitingAcks), self.over)

    def display(self, seat: Seat | None) -> Display:
        """The turn and the last moves, as text."""
        if self.over:
            status = "game over"
        elif self.awaitingAcks:
            status = ("accept the last move? (y/n)" if seat in self.awaitingAcks
                      else "waiting for acknowledgements")
        elif seat is not None and seat == self.holder:
            status = "your move (type it, or f to finish)"
        else:
            status = f"player {self.holder + 1 if self.holder is not None else '-'} to move"
        lines = [status] + [f"{mover + 1}: {json.dumps(move)[:60]}"
                            for mover, move in self.moves[-10:]]
        content = tuple({"tag": "text", "x": 4, "y": 20 * (i + 1), "fill": "#000000",
                         "content": line} for i, line in enumerate(lines))
        return Display(seat, 480, 20 * len(lines) + 8, content)

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        """
        TEXT: a move (JSON if it reads as JSON, else the text itself) with
        the current token; KEY ``y``/``n``: acknowledge or refuse; KEY ``f``:
        finish.
        """
        checked = checkAction(seat, action, self._requested())
        if isinstance(checked, Errors):
            return checked
        if checked.type == "TEXT":
            text = action["text"]
            try:
                move = json.loads(text)
            except ValueError:
                move = text
            return {"move": move, "token": self.token}
        key = str(action["key"]).lower()
        if key == "f":
            return {"finish": True}
        return {"ack": key == "y"}

    def stop(self) -> None:
        """Nothing to release: the game lives in this process."""


class RelayEngine:
    """
    The relay engine factory: ``name`` as records keep it (one per
    protocol that relays), at most ``maxPlayers`` seats, and
    acknowledgements on by default.
    """

    def __init__(self, name: str = "relay", maxPlayers: int = MAX_PLAYERS,
                 acks: bool = True) -> None:
        if maxPlayers < 2:
            raise ValueError("a relay game has at least 2 seats")
        self.name = name
        self.parameters: Sequence[Parameter] = (
            Parameter("players", "int", "number of players", 2, 2, maxPlayers),
            Parameter("acks", "int", "1: every other player acknowledges each move",
                      int(acks), 0, 1),
        )

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> RelayGame | Errors:
        started = checkSeeded(self.parameters, params, initvalues, rng)
        if isinstance(started, Errors):
            return started
        return RelayGame(*started)

    hiddenInformation = True
    """The seed draws every token, which only the seat holding it may know."""

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """Moves, acknowledgements and finishes are public once made (a played token is spent)."""
        return True

    def bot(self, params: Mapping[str, JSON]) -> Bot | None:
        """The relay judges nothing, so it plays nothing: no bot."""
        return None


ENGINE = RelayEngine()
