"""
Carcassonne as a relay without a referee plays it: the ``carcassonne``
engine with ``referee: "off"`` (and a named pile).

Pure and deterministic, like the rules it extends.  A relay passes every
move of the player whose turn it is, whatever it is (the clients judge
each other, if at all); this game keeps every such move too, and the rules
follow the board while its moves keep them:

- a move the rules take is played on the board as with the referee on
  (scores, followers, the page's steps);
- the first move the rules refuse is kept all the same: the game says
  where and why (a ``broken`` event, and from then on the game state's
  text), and from then on the rules no longer follow the board, which has
  become one the rules cannot build: later moves are kept and pass the
  turn, unjudged, and the board and the scores stay as they were before
  that move;
- the game ends after 71 moves (the pile's size, judged or not), when a
  player says so (``{"finish": true}``, any playing seat) or when fewer
  than two seats play; the end-of-game scoring is then done on the board
  the rules followed.

A move may carry ``"refused": "why"``, the words of the host that relayed
it (the Carcassonne server writes there why the rules refused it, so that
the record says it); the game judges the move again by its own rules and
takes the words for nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Display,
    Errors,
    Event,
    GameState,
    Instructions,
    RequestedAction,
    Seat,
    UnexpectedAction,
    checkAction,
)
from gameproto.games.carcassonne import (
    _PLACE,
    ORIENTATIONS,
    TILE_WORDS,
    TILES,
    ZONES,
    CarcassonneGame,
)

__all__ = ["MOVES", "Broken", "RelayedGame"]

MOVES = 71
"""Moves in a whole relayed game: the pile, the start tile being on the board already."""
MOVE_TEXT_LIMIT = 4096
"""The longest move typed as text once the rules no longer follow the game."""


@attrs.frozen
class Broken:
    """The first move the rules refused: its number (from 1), its mover, the move, and why."""

    move: int
    seat: Seat
    action: JSON
    reason: str

    def asJSON(self) -> dict[str, JSON]:
        return {"move": self.move, "player": self.seat + 1, "action": self.action,
                "reason": self.reason}

    @property
    def text(self) -> str:
        return (f"move {self.move} (player {self.seat + 1}) breaks the rules: {self.reason}; "
                f"the rules follow the board up to move {self.move - 1}, and score it")


def _isInt(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class RelayedGame(CarcassonneGame):
    """One game relayed without a referee, under the engine contract."""

    def __init__(self, params: Mapping[str, JSON], seed: int) -> None:
        self.moves = 0
        """Moves kept so far, judged or not."""
        self.broken: Broken | None = None
        """The first move the rules refused (None: they follow the game)."""
        self._ending: str | None = None
        """Why the relayed game ended, when it ended as a relay ends."""
        super().__init__(params, seed, None)

    # -- judging -------------------------------------------------------------------

    def _wholeMove(self, action: Mapping[str, JSON]) -> dict[str, JSON] | None:
        """``action`` as a whole move (tile, x, y, orientation, zone), None if malformed."""
        tile, x, y = action.get("tile", self.tile), action.get("x"), action.get("y")
        orientation, zone = action.get("orientation"), action.get("zone")
        if (not isinstance(tile, str) or not _isInt(x) or not _isInt(y)
                or not isinstance(orientation, str) or orientation not in ORIENTATIONS
                or not (zone is None or (isinstance(zone, str) and zone in ZONES))):
            return None
        return {"tile": tile, "x": x, "y": y, "orientation": orientation, "zone": zone}

    def refusal(self, seat: Seat, action: JSON) -> str | None:
        """
        Why the rules refuse ``seat``'s whole move ``action`` now, in words;
        None when they take it, when it is no move, or when the rules no
        longer follow the game.
        """
        if self.broken is not None or self.over or not isinstance(action, dict):
            return None
        move = self._wholeMove(action)
        if move is None:
            return None
        tile, x, y = str(move["tile"]), move["x"], move["y"]
        orientation, zone = str(move["orientation"]), move["zone"]
        assert isinstance(x, int) and isinstance(y, int)
        if tile not in TILES:
            return f"there is no tile named {tile}"
        words = TILE_WORDS[tile]  # (what players read; the move keeps the tile's id)
        if self.remaining[tile] <= 0:
            return f"none is left of {words}"
        if not self.board.fits(tile, x, y, orientation):
            return f"{words} does not fit at ({x}, {y}) in orientation {orientation}"
        if zone is not None:
            if self.left[seat] <= 0:
                return f"player {seat + 1} has no follower left"
            if zone not in self.board.followerZones(tile, x, y, orientation):
                return f"no follower may stand on {zone} of {words} there"
        return None

    # -- playing -------------------------------------------------------------------

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if isinstance(action, dict) and "finish" in action:
            return self._finishedBy(seat, action)
        if self.over or seat != self.turn:
            return Errors((UnexpectedAction(seat, action),))
        if self.broken is not None:
            if not isinstance(action, dict):
                return Errors((BadFormat(),))
            if "x" not in action and "orientation" not in action:
                return Errors((UnexpectedAction(seat, action),))  # no page steps any more
            return self._move(seat, action)
        return super().act(seat, action)

    def _finishedBy(self, seat: Seat, action: dict[str, JSON]) -> Instructions | Errors:
        """A playing seat says the game is over."""
        if set(action) != {"finish"} or action["finish"] is not True:
            return Errors((BadFormat(),))
        if self.over or not 0 <= seat < self.players or seat in self.resigned:
            return Errors((UnexpectedAction(seat, action),))
        self._ending = f"player {seat + 1} said the game is over"
        return self._step([Event("finish", None, seat)] + self._finish())

    def _move(self, seat: Seat, action: dict[str, JSON]) -> Instructions | Errors:
        """A whole move: played when the rules follow and take it, else kept unjudged."""
        move = self._wholeMove(action)
        if move is None:
            return Errors((BadFormat(),))
        self.moves += 1
        events: list[Event] = []
        reason = self.refusal(seat, move)
        if self.broken is None and reason is None:
            outcome = super()._move(seat, move)
            if not isinstance(outcome, Errors):
                return self._after(outcome.events)
            reason = "the rules refuse it"  # what refusal() missed: still kept
        if self.broken is None:
            assert reason is not None
            self.broken = Broken(self.moves, seat, move, reason)
            events.append(Event("broken", self.broken.asJSON()))
        events.insert(0, Event("move", move, seat))
        self.pending = None
        self.phase = _PLACE
        self.orientation = "N"
        self._advance()
        return self._after(tuple(events))

    def _after(self, events: Sequence[Event]) -> Instructions:
        """The move's events, and the end once the 71st move is kept."""
        ended: list[Event] = []
        if self.moves >= MOVES and not self.over:
            self._ending = f"the {MOVES} tiles of the pile are placed"
            ended = self._finish()
        return self._step(list(events) + ended)

    def _finish(self) -> list[Event]:
        # The rules end the game when no tile left fits anywhere: a relay
        # goes on (its players decide), so the next move breaks the rules.
        if (self._ending is not None or self.moves >= MOVES
                or self.players - len(self.resigned) < 2):
            return super()._finish()
        self.tile = None
        return []

    # -- what seats see -------------------------------------------------------------

    def _requested(self) -> tuple[RequestedAction, ...]:
        if self.broken is None or self.over:
            return super()._requested()
        return (RequestedAction(self.turn, "TEXT", max_length=MOVE_TEXT_LIMIT),)

    def _state(self) -> GameState:
        state = super()._state()
        text = self._ending if self.over and self._ending is not None else state.text
        if self.broken is not None:
            note = self.broken.text
            text = note if text is None or not self.over else f"{text}; {note}"
        return attrs.evolve(state, text=text)

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        """Once the rules no longer follow: TEXT, a whole move as JSON."""
        if self.broken is None:
            return super().decodeAction(seat, action)
        checked = checkAction(seat, action, tuple(
            r for r in self._requested() if r.player == seat))
        if isinstance(checked, Errors):
            return checked
        try:
            move = json.loads(str(action["text"]))
        except ValueError:
            return Errors((BadFormat(),))
        return move if isinstance(move, dict) else Errors((BadFormat(),))

    def display(self, seat: Seat | None) -> Display:
        """The board the rules follow; once a move broke them, why it stops there."""
        shown = super().display(seat)
        if self.broken is None:
            return shown
        note = {"tag": "text", "x": 8, "y": shown.height + 16, "fill": "#b91c1c",
                "font-size": 13, "content": self.broken.text}
        return attrs.evolve(shown, height=shown.height + 28,
                            content=shown.content + (note,))
