"""
Tic-tac-toe as an external engine for gameproto's generic JSON engine
protocol (docs: ../shared/specs/engine-json.fr.md), written with the
standard library only: it shows what any program, in any language, has to
do to be an engine.

The conversation, one JSON object per line each way:

- the first line is INITIALISATION, ``{"init": {"players": 2, ...}}``, or
  for a replay the same with the engine's own ``"initvalues"`` added;
- every later line is one player's action (``CLICK``, ``KEY`` or ``TEXT``);
- every line read gets exactly one line back: INSTRUCTIONS (``displays``,
  ``requested_actions``, ``game_state``, plus ``initvalues`` in the answer to
  INITIALISATION) or ``{"errors": [...]}``, after which nothing changed;
- end of input: exit 0.

Nothing but those answers goes to stdout; diagnostics go to stderr.

The game: a ``size`` x ``size`` board (3 to 5), ``size`` in a row (row,
column or diagonal) wins, a full board is a draw.  Player 1 plays X, player
2 plays O.  Who starts is the only random thing: with ``first`` "random" it
is drawn at INITIALISATION and returned as ``initvalues`` ``{"first": 1|2}``.
A move is a left click in an empty 100x100 cell or, on a 3x3 board, a key
1-9 (the cells numbered row by row from the top left).

Run it as ``python3 tictactoe.py``: any Python 3.11 or later.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import sys
from typing import Any, TypeGuard

NAME = "tictactoe"

PARAMETERS: dict[str, dict[str, Any]] = {
    "players": {
        "type": "int",
        "range": [2, 2],
        "description": "number of players (tic-tac-toe is played by two)",
    },
    "size": {
        "type": "int",
        "range": [3, 5],
        "description": "board size: size x size cells, size marks in a row win",
        "default": 3,
    },
    "first": {
        "type": "string",
        "format": "^(random|1|2)$",
        "default": "random",
        "description": "who plays first: 1, 2, or random (drawn at the start and "
                       "returned in initvalues)",
    },
}
"""The init parameters, as described in manifest.json (the tests keep the two equal)."""

CELL = 100
"""Each cell is a CELL x CELL square of the display, and one click zone."""

BAR = 40
"""The status bar below the board."""

MARK = 80
"""The size of a mark's sprite, centred in its cell."""

SPRITES = {1: "x.svg", 2: "o.svg"}
SYMBOLS = {1: "X", 2: "O"}
BUTTONS = ("LEFT", "RIGHT", "MIDDLE", "DOUBLE")
KEYS = "123456789"
"""The cell numbers a KEY action may give, row by row (3x3 boards only)."""


# -- messages ---------------------------------------------------------------


def error(kind: str, **fields: Any) -> dict[str, Any]:
    """One of the document's error dicts."""
    return {"type": kind, **fields}


def errors(*found: dict[str, Any]) -> dict[str, Any]:
    """The error form of INSTRUCTIONS."""
    return {"errors": list(found)}


BAD_FORMAT = error("BAD_FORMAT")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def parse(line: bytes) -> Any:
    """The JSON value on ``line``; ValueError if it is not one (NaN included)."""
    try:
        return json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except RecursionError as e:
        raise ValueError("nested too deeply") from e


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> TypeGuard[float]:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


# -- INITIALISATION -----------------------------------------------------------


def convert(name: str, described: dict[str, Any], value: Any) -> tuple[bool, Any]:
    """
    ``(True, value in the parameter's type)`` or ``(False, None)`` if the
    value is wrong.  Numbers may come as strings: the document's own example
    quotes every value.
    """
    if described["type"] == "string":
        if not isinstance(value, str):
            return False, None
        pattern = described.get("format")
        if pattern is not None and re.fullmatch(pattern, value) is None:
            return False, None
        return True, value
    if isinstance(value, bool):
        return False, None
    number: float
    if isinstance(value, str):
        try:
            number = int(value) if described["type"] == "int" else float(value)
        except ValueError:
            return False, None
    elif is_int(value):
        number = value
    elif isinstance(value, float) and (described["type"] == "float" or value.is_integer()):
        number = value if described["type"] == "float" else int(value)
    else:
        return False, None
    if not math.isfinite(number):
        return False, None
    low, high = described.get("range", [None, None])
    if (low is not None and number < low) or (high is not None and number > high):
        return False, None
    return True, float(number) if described["type"] == "float" else number


def check_parameters(given: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The complete parameters (defaults filled in) and every error found."""
    found: list[dict[str, Any]] = []
    complete: dict[str, Any] = {}
    for name, value in given.items():
        if name not in PARAMETERS:
            found.append(error("UNEXPECTED_ARGUMENT", argname=name, value=value))
    for name, described in PARAMETERS.items():
        if name not in given:
            if "default" in described:
                complete[name] = described["default"]
            else:
                found.append(error("MISSING_ARGUMENT", arg=name))
            continue
        ok, value = convert(name, described, given[name])
        if ok:
            complete[name] = value
        else:
            found.append(error("INCORRECT_VALUE", arg=name, value=given[name]))
    return complete, found


def start(message: Any, rng: random.Random) -> Game | dict[str, Any]:
    """A new game from an INITIALISATION message, or the errors to answer."""
    if (not isinstance(message, dict) or not isinstance(message.get("init"), dict)
            or not set(message) <= {"init", "initvalues"}):
        return errors(BAD_FORMAT)
    params, found = check_parameters(message["init"])
    first: int | None = None
    if not found and params["first"] != "random":
        first = int(params["first"])
    if "initvalues" in message:
        # A replay: who starts comes from the first game, never drawn again.
        given = message["initvalues"]
        replayed = given.get("first") if isinstance(given, dict) else None
        if (not isinstance(given, dict) or set(given) != {"first"} or not is_int(replayed)
                or replayed not in (1, 2) or (first is not None and replayed != first)):
            found.append(error("INCORRECT_VALUE", arg="initvalues", value=given))
        else:
            first = replayed
    if found:
        return errors(*found)
    if first is None:
        first = rng.choice((1, 2))
    return Game(params["size"], first)


# -- the game -----------------------------------------------------------------


class Game:
    """A game under way or over: the board, whose turn, the result."""

    def __init__(self, size: int, first: int) -> None:
        self.size = size
        self.first = first
        self.turn = first
        self.cells: list[int] = [0] * (size * size)  # row by row; 0 empty, else the player
        self.winner: int | None = None
        self.line: tuple[int, int] | None = None  # the winning line's first and last cells

    @property
    def over(self) -> bool:
        return self.winner is not None or all(self.cells)

    def initvalues(self) -> dict[str, Any]:
        return {"first": self.first}

    # -- what is asked ---------------------------------------------------------

    def empty(self) -> list[int]:
        return [i for i, mark in enumerate(self.cells) if not mark]

    def click_request(self) -> dict[str, Any]:
        zones = [{"x": (i % self.size) * CELL, "y": (i // self.size) * CELL,
                  "width": CELL, "height": CELL} for i in self.empty()]
        return {"type": "CLICK", "player": self.turn, "zones": zones, "buttons": ["LEFT"],
                "confirm": False}

    def key_request(self) -> dict[str, Any] | None:
        if self.size > 3:
            return None
        keys = "".join(KEYS[i] for i in self.empty())
        return {"type": "KEY", "player": self.turn, "keys": keys, "confirm": False}

    def requested(self) -> list[dict[str, Any]]:
        if self.over:
            return []
        key = self.key_request()
        return [self.click_request()] + ([key] if key is not None else [])

    def status(self, player: int) -> str:
        if not self.over:
            return "your move" if player == self.turn else "their move"
        if self.winner is None:
            return "draw"
        return "you win" if player == self.winner else "you lose"

    def display(self, player: int) -> dict[str, Any]:
        side = self.size * CELL
        content: list[dict[str, Any]] = [
            {"tag": "rect", "x": 0, "y": 0, "width": side, "height": side + BAR,
             "fill": "#ffffff"},
        ]
        for i in range(1, self.size):
            content.append({"tag": "line", "x1": i * CELL, "y1": 0, "x2": i * CELL,
                            "y2": side, "stroke": "#333333", "stroke-width": 4})
            content.append({"tag": "line", "x1": 0, "y1": i * CELL, "x2": side,
                            "y2": i * CELL, "stroke": "#333333", "stroke-width": 4})
        offset = (CELL - MARK) // 2
        for i, mark in enumerate(self.cells):
            if mark:
                content.append({"tag": "image", "href": SPRITES[mark],
                                "x": (i % self.size) * CELL + offset,
                                "y": (i // self.size) * CELL + offset,
                                "width": MARK, "height": MARK})
        if self.line is not None:
            (x1, y1), (x2, y2) = (self._centre(i) for i in self.line)
            content.append({"tag": "line", "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                            "stroke": "#dc2626", "stroke-width": 8})
        content.append({"tag": "text", "id": "status", "x": 10, "y": side + 27,
                        "font-size": 20, "fill": "#000000", "content": self.status(player)})
        content.append({"tag": "text", "x": side - 10, "y": side + 27, "font-size": 20,
                        "text-anchor": "end", "fill": "#555555",
                        "content": f"you are {SYMBOLS[player]}"})
        return {"player": player, "width": side, "height": side + BAR, "content": content}

    def _centre(self, cell: int) -> tuple[int, int]:
        return ((cell % self.size) * CELL + CELL // 2, (cell // self.size) * CELL + CELL // 2)

    def instructions(self) -> dict[str, Any]:
        scores = [0, 0]
        if self.winner is not None:
            scores[self.winner - 1] = 1
        return {
            "displays": [self.display(player) for player in (1, 2)],
            "requested_actions": self.requested(),
            "game_state": {"scores": scores, "gameover": self.over},
        }

    # -- actions ---------------------------------------------------------------

    def act(self, action: Any) -> dict[str, Any]:
        """INSTRUCTIONS after ``action``, or errors (and then nothing changed)."""
        if (not isinstance(action, dict) or not is_int(action.get("player"))
                or action.get("type") not in ("CLICK", "KEY", "TEXT")):
            return errors(BAD_FORMAT)
        player, kind = action["player"], action["type"]
        asked = [r for r in self.requested() if r["player"] == player and r["type"] == kind]
        if not asked:  # game over, not this player's turn, or not this kind of action
            return errors(error("UNEXPECTED_ACTION", player=player, action=action))
        request = asked[0]

        def wrong(subtype: str) -> dict[str, Any]:
            return errors(error("WRONG_ACTION", subtype=subtype, player=player, action=action,
                                requested_action=request))

        if kind == "CLICK":
            x, y, button = action.get("x"), action.get("y"), action.get("button", "LEFT")
            if not is_number(x) or not is_number(y) or button not in BUTTONS:
                return errors(BAD_FORMAT)
            if button not in request["buttons"]:
                return wrong("WRONG_BUTTON")
            column, row = math.floor(x / CELL), math.floor(y / CELL)
            if not (0 <= column < self.size and 0 <= row < self.size):
                return wrong("OUT_OF_ZONE")
            cell = row * self.size + column
            if self.cells[cell]:
                return wrong("OUT_OF_ZONE")
        else:  # KEY: the only other kind ever requested
            key = action.get("key")
            if not isinstance(key, str) or len(key) != 1:
                return errors(BAD_FORMAT)
            if key not in request["keys"]:
                return wrong("KEY_NOT_ALLOWED")
            cell = KEYS.index(key)
        self.play(cell)
        return self.instructions()

    def play(self, cell: int) -> None:
        self.cells[cell] = self.turn
        self.line = self._winning_line(cell)
        if self.line is not None:
            self.winner = self.turn
        self.turn = 3 - self.turn

    def _winning_line(self, cell: int) -> tuple[int, int] | None:
        """The line through ``cell`` all of its player's marks, if there is one."""
        n, row, column = self.size, cell // self.size, cell % self.size
        lines = [[row * n + c for c in range(n)], [r * n + column for r in range(n)]]
        if row == column:
            lines.append([i * n + i for i in range(n)])
        if row + column == n - 1:
            lines.append([i * n + (n - 1 - i) for i in range(n)])
        for line in lines:
            if all(self.cells[i] == self.cells[cell] for i in line):
                return line[0], line[-1]
        return None


# -- the conversation ---------------------------------------------------------


class Engine:
    """Answers one line with one message: INITIALISATION first, then actions."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.game: Game | None = None

    def answer(self, line: bytes) -> dict[str, Any]:
        try:
            message = parse(line)
        except ValueError:
            return errors(BAD_FORMAT)
        if self.game is None:
            started = start(message, self.rng)
            if isinstance(started, dict):
                return started  # errors: still waiting for a valid INITIALISATION
            self.game = started
            return {**started.instructions(), "initvalues": started.initvalues()}
        return self.game.act(message)


def main() -> int:
    engine = Engine()
    stdin, stdout = sys.stdin.buffer, sys.stdout
    try:
        for line in iter(stdin.readline, b""):
            answer = json.dumps(engine.answer(line.rstrip(b"\r\n")), separators=(",", ":"))
            stdout.write(answer + "\n")
            stdout.flush()
    except BrokenPipeError:
        print(f"{NAME}: the server closed our stdout", file=sys.stderr)
        # Nothing more can be written: keep the interpreter's final flush quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
