"""
The engine contract, after the generic engine JSON protocol (``engine-json.fr.md``).

An engine is started from INITIALISATION parameters and answers with
instructions that carry ``initvalues`` (everything random, fixed at once);
each accepted action answers with new instructions: displays, requested
actions and the game state (scores, gameover).  A refused action or bad init
answers with the document's typed errors instead.

Seats are numbered from 0 in Python; the engine JSON protocol shows them as
``player = seat + 1``.  Everything here is plain data (attrs, frozen) with a
JSON form, and nothing here imports Twisted (a Deferred only names the
result of an engine in another process, for the type checker).
"""

from __future__ import annotations

import math
import random
import re
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Literal,
    Mapping,
    Protocol,
    Sequence,
    runtime_checkable,
)

import attrs

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""

Seat = int
"""A seat index, 0-based."""


# -- errors ------------------------------------------------------------------


class WrongActionSubtype:
    """The document's WRONG_ACTION subtypes."""

    OUT_OF_ZONE = "OUT_OF_ZONE"
    WRONG_BUTTON = "WRONG_BUTTON"
    KEY_NOT_ALLOWED = "KEY_NOT_ALLOWED"
    UNMATCHED_REGEX = "UNMATCHED_REGEX"
    TEXT_EMPTY = "TEXT_EMPTY"
    TEXT_TOO_LONG = "TEXT_TOO_LONG"

    ALL: ClassVar[tuple[str, ...]] = (
        OUT_OF_ZONE,
        WRONG_BUTTON,
        KEY_NOT_ALLOWED,
        UNMATCHED_REGEX,
        TEXT_EMPTY,
        TEXT_TOO_LONG,
    )


@attrs.frozen
class BadFormat:
    """BAD_FORMAT: the message could not be read at all."""

    type: ClassVar[str] = "BAD_FORMAT"

    def asJSON(self) -> dict[str, JSON]:
        return {"type": self.type}


@attrs.frozen
class MissingArgument:
    """MISSING_ARGUMENT: a required init parameter is absent."""

    arg: str
    type: ClassVar[str] = "MISSING_ARGUMENT"

    def asJSON(self) -> dict[str, JSON]:
        return {"type": self.type, "arg": self.arg}


@attrs.frozen
class IncorrectValue:
    """INCORRECT_VALUE: an init parameter has a value out of its type or range."""

    arg: str
    value: JSON
    text: str | None = attrs.field(default=None, eq=False, kw_only=True)
    """What is wrong, in words for a person (see L{WrongAction.text}); None: no words."""
    type: ClassVar[str] = "INCORRECT_VALUE"

    def asJSON(self) -> dict[str, JSON]:
        return _withText({"type": self.type, "arg": self.arg, "value": self.value}, self.text)


@attrs.frozen
class UnexpectedArgument:
    """UNEXPECTED_ARGUMENT: an init parameter the engine does not describe."""

    argname: str
    value: JSON
    type: ClassVar[str] = "UNEXPECTED_ARGUMENT"

    def asJSON(self) -> dict[str, JSON]:
        return {"type": self.type, "argname": self.argname, "value": self.value}


@attrs.frozen
class UnexpectedAction:
    """UNEXPECTED_ACTION: an action nobody asked for (wrong seat or kind)."""

    player: Seat
    action: JSON
    text: str | None = attrs.field(default=None, eq=False, kw_only=True)
    """Why, in words for a person (see L{WrongAction.text}); None: no words."""
    type: ClassVar[str] = "UNEXPECTED_ACTION"

    def asJSON(self) -> dict[str, JSON]:
        return _withText({"type": self.type, "player": self.player + 1, "action": self.action},
                         self.text)


@attrs.frozen
class MissingAction:
    """MISSING_ACTION: a requested action did not come."""

    player: Seat
    requested_action: JSON
    type: ClassVar[str] = "MISSING_ACTION"

    def asJSON(self) -> dict[str, JSON]:
        return {
            "type": self.type,
            "player": self.player + 1,
            "requested_action": self.requested_action,
        }


@attrs.frozen
class WrongAction:
    """WRONG_ACTION: a requested action came with a value that is not allowed."""

    subtype: str = attrs.field(validator=attrs.validators.in_(WrongActionSubtype.ALL))
    player: Seat = 0
    action: JSON = None
    requested_action: JSON = None
    text: str | None = attrs.field(default=None, eq=False, kw_only=True)
    """
    Why, in words for a person, from the rules ("That card is not allowed:
    you must follow hearts"); None: no words.  The JSON form carries it as
    ``text`` when there is one.  Errors compare equal whatever their text.
    """
    type: ClassVar[str] = "WRONG_ACTION"

    def asJSON(self) -> dict[str, JSON]:
        return _withText({
            "type": self.type,
            "subtype": self.subtype,
            "player": self.player + 1,
            "action": self.action,
            "requested_action": self.requested_action,
        }, self.text)


def _withText(described: dict[str, JSON], text: str | None) -> dict[str, JSON]:
    """An error's JSON form, with its words for a person when it has them."""
    if text is not None:
        described["text"] = text
    return described


def errorText(error: object) -> str | None:
    """An error's words for a person (its ``text``), None when it has none."""
    text = (error.fields.get("text") if isinstance(error, OtherError)
            else getattr(error, "text", None))
    return text if isinstance(text, str) and text else None


def _typed(instance: object, attribute: object, value: object) -> None:
    """An attrs validator: a dict whose ``type`` is a string."""
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise ValueError("an error is a dict with a string type")


@attrs.frozen
class OtherError:
    """
    An error an external engine wrote that is none of the document's forms
    above: a type the document does not list (``ILLEGAL_MOVE``), or a
    listed type without the keys it needs (no ``player``).  The document
    asks each error for "at least the key type": it is passed on as
    written, every key kept, to the player whose action (or INITIALISATION)
    it answers.
    """

    fields: dict[str, JSON] = attrs.field(validator=_typed)
    """The error as the engine wrote it (``type`` a string among its keys)."""

    @property
    def type(self) -> str:
        return str(self.fields["type"])

    def asJSON(self) -> dict[str, JSON]:
        return dict(self.fields)


InitError = BadFormat | MissingArgument | IncorrectValue | UnexpectedArgument
ActionError = BadFormat | UnexpectedAction | MissingAction | WrongAction
EngineError = InitError | ActionError | OtherError


@attrs.frozen
class Errors:
    """The error form of INSTRUCTIONS: ``{"errors": [...]}``."""

    errors: tuple[EngineError, ...]

    def asJSON(self) -> dict[str, JSON]:
        return {"errors": [e.asJSON() for e in self.errors]}


# -- init parameters ---------------------------------------------------------


@attrs.frozen
class Parameter:
    """
    One init parameter as the engine describes it: its type (``int``,
    ``float`` or ``string``), the range or the format it must have, and a
    description.  Without a default, a parameter is required.
    """

    name: str
    type: Literal["int", "float", "string"]
    description: str
    default: JSON = None
    minimum: float | None = None
    maximum: float | None = None
    format: str | None = None

    @property
    def required(self) -> bool:
        return self.default is None

    def asJSON(self) -> dict[str, JSON]:
        described: dict[str, JSON] = {"type": self.type, "description": self.description}
        if self.minimum is not None or self.maximum is not None:
            described["range"] = [self.minimum, self.maximum]
        if self.format is not None:
            described["format"] = self.format
        if self.default is not None:
            described["default"] = self.default
        return described

    def convert(self, value: JSON) -> JSON | IncorrectValue:
        """
        The value in this parameter's type, or INCORRECT_VALUE.  Numbers may
        come as strings (the document's own example quotes every value).
        """
        wrong = IncorrectValue(self.name, value)
        if self.type == "string":
            if not isinstance(value, str):
                return wrong
            if self.format is not None and re.fullmatch(self.format, value) is None:
                return wrong
            return value
        if isinstance(value, bool):
            return wrong
        number: float
        if isinstance(value, str):
            try:
                number = int(value) if self.type == "int" else float(value)
            except ValueError:
                return wrong
        elif isinstance(value, int) or (isinstance(value, float) and self.type == "float"):
            number = value
        elif isinstance(value, float) and value.is_integer():
            number = int(value)
        else:
            return wrong
        if isinstance(number, float) and not math.isfinite(number):
            return wrong
        if self.minimum is not None and number < self.minimum:
            return wrong
        if self.maximum is not None and number > self.maximum:
            return wrong
        return float(number) if self.type == "float" else number


def checkParameters(
    described: Sequence[Parameter], given: Mapping[str, JSON]
) -> dict[str, JSON] | Errors:
    """
    Check INITIALISATION parameters against an engine's description: every
    required one present, every value converted, nothing unknown.  Returns
    the complete parameters with defaults filled in, or every error found.
    """
    errors: list[InitError] = []
    known = {p.name: p for p in described}
    complete: dict[str, JSON] = {}
    for name, value in given.items():
        if name not in known:
            errors.append(UnexpectedArgument(name, value))
    for parameter in described:
        if parameter.name not in given:
            if parameter.required:
                errors.append(MissingArgument(parameter.name))
            else:
                complete[parameter.name] = parameter.default
            continue
        converted = parameter.convert(given[parameter.name])
        if isinstance(converted, IncorrectValue):
            errors.append(converted)
        else:
            complete[parameter.name] = converted
    if errors:
        return Errors(tuple(errors))
    return complete


# -- instructions ------------------------------------------------------------


def drawSeed(initvalues: Mapping[str, JSON] | None,
             rng: random.Random | None) -> int | Errors:
    """
    The seed a game's randomness comes from: drawn from ``rng`` for a new
    game, read from its ``initvalues`` (``seed``, an integer) when it is
    rebuilt; INITIALISATION's errors when those lack it or it is not one.
    """
    if initvalues is None:
        return (rng if rng is not None else random.Random()).randrange(2**53)
    if "seed" not in initvalues:
        return Errors((MissingArgument("seed"),))
    seed = initvalues["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        return Errors((IncorrectValue("seed", seed),))
    return seed


def checkSeeded(
    described: Sequence[Parameter], given: Mapping[str, JSON],
    initvalues: Mapping[str, JSON] | None, rng: random.Random | None,
) -> tuple[dict[str, JSON], int] | Errors:
    """
    What a seeded engine's C{start} checks: the parameters (L{checkParameters})
    and the seed (L{drawSeed}); the complete parameters and the seed, or the
    errors.
    """
    checked = checkParameters(described, given)
    if isinstance(checked, Errors):
        return checked
    seed = drawSeed(initvalues, rng)
    if isinstance(seed, Errors):
        return seed
    return checked, seed


@attrs.frozen
class Zone:
    """A clickable rectangle, as in SVG."""

    x: float
    y: float
    width: float
    height: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    def asJSON(self) -> dict[str, JSON]:
        return {"x": self.x, "y": self.y, "width": self.width, "height": self.height}


@attrs.frozen
class Pick:
    """
    How a person may make a TEXT answer by clicking instead of typing: each
    of ``zones`` stands for the value of the same index in ``values``; the
    person picks ``count`` different zones (a click picks, another click
    unpicks), then confirms, and the answer is the picked values, in the
    order of ``values``, joined by ``separator``.  The answer is an ordinary
    TEXT action, checked like any other: a client that does not know of
    ``pick`` types it.
    """

    zones: tuple[Zone, ...]
    values: tuple[str, ...]
    count: int
    separator: str = " "

    def asJSON(self) -> dict[str, JSON]:
        return {"zones": [z.asJSON() for z in self.zones], "values": list(self.values),
                "count": self.count, "separator": self.separator}


@attrs.frozen
class RequestedAction:
    """
    An action the engine waits for: a CLICK (in ``zones``, with ``buttons``),
    a KEY (among ``keys``) or a TEXT (matching ``regex``, at most
    ``max_length``), from the seat ``player``.  A TEXT may come with a
    L{Pick}: the zones a person clicks to make the text.  ``prompt`` says
    what is asked in words for a person ("click a column"), when the
    engine has words for it.
    """

    player: Seat
    type: Literal["CLICK", "KEY", "TEXT"]
    zones: tuple[Zone, ...] | None = None
    buttons: tuple[str, ...] | None = None
    keys: str | None = None
    regex: str | None = None
    max_length: int | None = None
    confirm: bool = False
    pick: Pick | None = None
    prompt: str | None = None

    def asJSON(self) -> dict[str, JSON]:
        described: dict[str, JSON] = {"type": self.type, "player": self.player + 1}
        if self.zones is not None:
            described["zones"] = [z.asJSON() for z in self.zones]
        if self.buttons is not None:
            described["buttons"] = list(self.buttons)
        if self.keys is not None:
            described["keys"] = self.keys
        if self.regex is not None:
            described["regex"] = self.regex
        if self.max_length is not None:
            described["max_length"] = self.max_length
        if self.type != "TEXT":
            described["confirm"] = self.confirm
        if self.pick is not None:
            described["pick"] = self.pick.asJSON()
        if self.prompt is not None:
            described["prompt"] = self.prompt
        return described


BUTTONS = ("LEFT", "RIGHT", "MIDDLE", "DOUBLE")
DEFAULT_MAX_LENGTH = 64


def _number(value: JSON) -> float | None:
    """A finite JSON number, or None (booleans, strings, NaN, infinities, huge integers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return value if math.isfinite(value) else None
    except OverflowError:
        return None


def checkAction(
    seat: Seat,
    action: Mapping[str, JSON],
    requested: Sequence[RequestedAction],
    area: Zone | None = None,
) -> RequestedAction | Errors:
    """
    Check a player's action against what was requested of ``seat``, the
    same way for every engine.  An action is ``{"type": "CLICK", "x": X,
    "y": Y, "button": B}`` (``button`` defaults to LEFT), ``{"type": "KEY",
    "key": K}`` or ``{"type": "TEXT", "text": T}``.

    ``area`` is the seat's drawing area (its display's rectangle): where a
    CLICK without ``zones`` may land, as the document says ("by default the
    whole drawing area"); None when the caller does not know it (then such
    a CLICK may land anywhere).

    The action is valid when any request of its type for ``seat`` accepts
    it: the first such request (in the engine's order) is returned.  Else
    the document's error: BAD_FORMAT (the action itself is malformed),
    UNEXPECTED_ACTION (nothing of its type asked of ``seat``), or
    WRONG_ACTION for the closest miss: the request whose checks the action
    got furthest through (button then zone; keys; empty, length then
    regex), the first of them on a tie, with that request and its subtype.
    """
    kind = action.get("type")
    asked = [r for r in requested if r.player == seat and r.type == kind]
    if not asked:
        return Errors((UnexpectedAction(seat, dict(action)),))
    if _malformed(action):
        return Errors((BadFormat(),))
    closest: tuple[int, str, RequestedAction] | None = None
    for request in asked:
        miss = _miss(action, request, area)
        if miss is None:
            return request
        if closest is None or miss[0] > closest[0]:
            closest = (*miss, request)
    assert closest is not None
    _, subtype, request = closest
    return Errors((WrongAction(subtype, seat, dict(action), request.asJSON()),))


def _malformed(action: Mapping[str, JSON]) -> bool:
    """Whether a CLICK, KEY or TEXT action lacks its fields or has them of the wrong type."""
    kind = action.get("type")
    if kind == "CLICK":
        return (_number(action.get("x")) is None or _number(action.get("y")) is None
                or action.get("button", "LEFT") not in BUTTONS)
    if kind == "KEY":
        key = action.get("key")
        return not isinstance(key, str) or len(key) != 1
    return not isinstance(action.get("text"), str)


def _miss(action: Mapping[str, JSON], request: RequestedAction,
          area: Zone | None) -> tuple[int, str] | None:
    """
    None when ``request`` accepts the (well-formed) ``action``; else how far
    through its checks it got (0 for the first check failed) and the subtype.
    """
    if request.type == "CLICK":
        x, y = action["x"], action["y"]
        if action.get("button", "LEFT") not in (request.buttons or ("LEFT",)):
            return 0, WrongActionSubtype.WRONG_BUTTON
        zones = request.zones if request.zones is not None else (
            (area,) if area is not None else None)
        if zones is not None:
            for zone in zones:  # (a loop: no generator made for each action)
                if zone.contains(x, y):
                    return None
            return 1, WrongActionSubtype.OUT_OF_ZONE
        return None
    if request.type == "KEY":
        key = str(action["key"])
        if request.keys is not None and key.lower() not in request.keys.lower():
            return 0, WrongActionSubtype.KEY_NOT_ALLOWED
        return None
    text = str(action["text"])
    if not text:
        return 0, WrongActionSubtype.TEXT_EMPTY
    limit = request.max_length if request.max_length is not None else DEFAULT_MAX_LENGTH
    if len(text) > limit:
        return 1, WrongActionSubtype.TEXT_TOO_LONG
    if request.regex is not None:
        try:
            matched = re.search(request.regex, text) is not None
        except re.error:
            matched = False
        if not matched:
            return 2, WrongActionSubtype.UNMATCHED_REGEX
    return None


@attrs.frozen
class Display:
    """One seat's picture (None: a spectator's): SVG tags as dicts under ``content``."""

    player: Seat | None
    width: float
    height: float
    content: tuple[dict[str, JSON], ...]

    def asJSON(self) -> dict[str, JSON]:
        return {
            "player": None if self.player is None else self.player + 1,
            "width": self.width,
            "height": self.height,
            "content": [dict(tag) for tag in self.content],
        }


@attrs.frozen
class GameState:
    """The scores of every seat and whether the game is over."""

    scores: tuple[int, ...]
    gameover: bool
    text: str | None = attrs.field(default=None, eq=False, kw_only=True)
    """
    Where the game stands, in words for a person: once it is over, why
    ("four in a row", "player 2 gave up"); None: no words.  The JSON form
    carries it as ``text`` when there is one.
    """

    def asJSON(self) -> dict[str, JSON]:
        described: dict[str, JSON] = {"scores": list(self.scores), "gameover": self.gameover}
        if self.text is not None:
            described["text"] = self.text
        return described


@attrs.frozen
class Event:
    """
    Something that happened, told to the seats in ``audience`` (every seat
    when it is None): a move played, cards dealt to one seat, a trick won.
    ``kind`` and ``data`` are the game's own; protocols translate them.
    """

    kind: str
    data: JSON = None
    seat: Seat | None = None
    audience: frozenset[Seat] | None = None

    def visibleTo(self, seat: Seat | None) -> bool:
        return self.audience is None or seat in self.audience


@attrs.frozen
class Instructions:
    """
    The normal form of INSTRUCTIONS, as one engine step produced them: the
    ``requested_actions``, the ``game_state``, the ``events`` of the step
    and, after initialisation only, the ``initvalues``.  Displays are drawn
    on demand (L{GameEngine.display}), as only some protocols show them.
    """

    requested_actions: tuple[RequestedAction, ...]
    game_state: GameState
    events: tuple[Event, ...] = ()
    initvalues: dict[str, JSON] | None = None

    def forSeat(self, seat: Seat | None) -> Instructions:
        """What ``seat`` (None: a spectator) may see of these instructions."""
        if all(e.audience is None for e in self.events):
            return self
        return attrs.evolve(self, events=tuple(e for e in self.events if e.visibleTo(seat)))

    def asks(self, seat: Seat) -> bool:
        """Whether an action of ``seat`` is requested."""
        return any(r.player == seat for r in self.requested_actions)

    def asJSON(self, displays: Sequence[Display] = ()) -> dict[str, JSON]:
        """The document's INSTRUCTIONS, with the ``displays`` given."""
        described: dict[str, JSON] = {
            "displays": [d.asJSON() for d in displays],
            "requested_actions": [a.asJSON() for a in self.requested_actions],
            "game_state": self.game_state.asJSON(),
        }
        if self.initvalues is not None:
            described["initvalues"] = self.initvalues
        return described


# -- the engine --------------------------------------------------------------

class GameEngine(Protocol):
    """
    A running game: pure and deterministic given its parameters, its
    ``initvalues`` and the actions it has accepted.
    """

    @property
    def params(self) -> Mapping[str, JSON]:
        """The INITIALISATION parameters, checked."""

    @property
    def initvalues(self) -> Mapping[str, JSON]:
        """Everything random in the game, drawn once at the start."""

    @property
    def players(self) -> int:
        """How many seats the game has."""

    def instructions(self) -> Instructions:
        """Where the game stands now: the requested actions and the state (``initvalues`` set)."""

    def display(self, seat: Seat | None) -> Display:
        """What ``seat`` sees now, as SVG tags; None: what a spectator sees."""

    def act(
        self, seat: Seat, action: JSON
    ) -> Instructions | Errors | Deferred[Instructions | Errors]:
        """
        Play ``action`` (the game's own JSON form of a move) for ``seat``.
        Returns the new instructions, or errors and no change at all; an
        engine in another process answers later, through a Deferred of the same.
        """

    def resign(self, seat: Seat) -> Instructions:
        """``seat`` gives up (left, timed out, broke a rule): finish or go on without it."""

    def view(self, seat: Seat) -> Any:
        """What ``seat`` may know of the game now, in the game's own (Python) form."""

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        """
        Turn an engine JSON player action (a CLICK, KEY or TEXT dict) into the
        game's own move, or WRONG_ACTION / UNEXPECTED_ACTION errors.
        """

    def stop(self) -> None:
        """
        The game is over for the layer (finished, aborted, or a replay shown):
        release what it holds, an engine process for instance.  A game in
        this process holds nothing.
        """


class EngineFactory(Protocol):
    """
    What the shared layer knows of an engine before a game exists.  A
    factory also declares whether its games have hidden information
    (L{Disclosure}: ``hiddenInformation`` and ``publicAction``); one that
    does not is taken to have some.
    """

    @property
    def name(self) -> str:
        """The engine's name (what INITIALISATION names, and records keep)."""

    @property
    def parameters(self) -> Sequence[Parameter]:
        """The INITIALISATION parameters it takes."""

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> GameEngine | Errors | Deferred[GameEngine | Errors]:
        """
        Check ``params`` against ``parameters`` and start a game.  Without
        ``initvalues`` the engine draws them from ``rng`` (the only
        randomness of a game); with them, it rebuilds exactly the same game.
        An engine in another process answers later, through a Deferred.
        """

    def bot(self, params: Mapping[str, JSON]) -> Bot | None:
        """A computer player for this game (None: the engine has none)."""


class Disclosure(Protocol):
    """
    What an engine factory may declare of what its live games let everyone
    know (an optional part of L{EngineFactory}: see L{hasHiddenInformation}).

    A game with hidden information (cards in hands, a discard, anything one
    seat knows and another does not, or may not learn before it is played)
    keeps it from everyone but that seat while the game is live: its record
    then withholds its ``initvalues`` (a seed deals every hand) and the
    actions L{publicAction} does not call public.  Finished games are public.
    """

    @property
    def hiddenInformation(self) -> bool:
        """Whether a seat of a live game knows what another may not."""

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """Whether every seat may know of ``action`` of ``seat`` once it is played."""


def hasHiddenInformation(factory: object) -> bool:
    """
    Whether ``factory``'s live games hide something from some seat: what it
    declares (L{Disclosure}), yes when it declares nothing (to be safe).
    """
    declared = getattr(factory, "hiddenInformation", True)
    return declared if isinstance(declared, bool) else True


def isPublicAction(factory: object, seat: Seat, action: JSON) -> bool:
    """
    Whether every seat may know of ``action`` of ``seat`` while its game is
    live: always for a game without hidden information; else what the
    factory declares (L{Disclosure.publicAction}); never when it declares nothing.
    """
    if not hasHiddenInformation(factory):
        return True
    check = getattr(factory, "publicAction", None)
    if not callable(check):
        return False
    try:
        return check(seat, action) is True
    except Exception:
        return False


@runtime_checkable
class ColouredSeats(Protocol):
    """
    What a game may declare of the colour each seat plays with (an optional
    part of L{GameEngine}: see L{seatColours}).
    """

    @property
    def colours(self) -> Sequence[str]:
        """One CSS colour per seat, as its display draws that seat's pieces."""


def seatColours(engine: object) -> list[str] | None:
    """
    The colour each seat plays with, when the game declares one
    (L{ColouredSeats}), so that a page can show it beside the seat's name;
    None when it declares none, or not one string per seat.
    """
    # What isinstance(engine, ColouredSeats) checks (the attribute is there),
    # without the protocol check's walk of the class's bases on each call:
    # this runs for every message that carries a display.
    colours = getattr(engine, "colours", None)
    if (isinstance(colours, (list, tuple)) and colours
            and all(isinstance(c, str) for c in colours)):
        return list(colours)
    return None


class Bot(Protocol):
    """A computer player: picks a move for ``seat`` from what that seat may see."""

    def __call__(self, view: Any, seat: Seat) -> JSON:
        ...


def describe(parameters: Sequence[Parameter]) -> dict[str, JSON]:
    """The engine's init parameter description, as the document asks for it."""
    return {p.name: p.asJSON() for p in parameters}


# -- reading the document's JSON (what external engines write) --------------


class MalformedJSON(ValueError):
    """JSON that is not the document's form of what was expected."""


def _seat(value: JSON) -> Seat:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MalformedJSON(f"not a player number: {value!r}")
    return value - 1


def _tagList(value: JSON) -> tuple[dict[str, JSON], ...]:
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise MalformedJSON("content must be a list of SVG tag dicts")
    return tuple(dict(t) for t in value)


def parameterFromJSON(name: str, data: JSON) -> Parameter:
    """One entry of an engine's init parameter description."""
    if not isinstance(data, dict) or data.get("type") not in ("int", "float", "string"):
        raise MalformedJSON(f"parameter {name!r}: type must be int, float or string")
    low = high = None
    if "range" in data:
        bounds = data["range"]
        if not (isinstance(bounds, list) and len(bounds) == 2):
            raise MalformedJSON(f"parameter {name!r}: range must be [min, max]")
        low, high = bounds
    fmt = data.get("format")
    if fmt is not None:
        try:
            re.compile(fmt)
        except (re.error, TypeError):
            raise MalformedJSON(f"parameter {name!r}: format is not a regular expression") from None
    return Parameter(name, data["type"], str(data.get("description", "")),
                     data.get("default"), low, high, fmt)


def parametersFromJSON(data: JSON) -> tuple[Parameter, ...]:
    """An engine's whole init parameter description (the inverse of L{describe})."""
    if not isinstance(data, dict):
        raise MalformedJSON("the parameter description must be an object")
    return tuple(parameterFromJSON(name, spec) for name, spec in data.items())


def errorFromJSON(data: JSON) -> EngineError:
    """
    One error dict as an engine writes it: one of the document's forms, or
    else (a type the document does not list, a listed type without the keys
    it needs) an L{OtherError} that keeps every key.  Raises L{MalformedJSON}
    only for what is no error at all: not an object, or no string ``type``.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedJSON("an error must be an object with a string type")
    try:
        return _listedError(data)
    except MalformedJSON:
        return OtherError(dict(data))


def _listedError(data: dict[str, JSON]) -> EngineError:
    """One of the document's error forms; L{MalformedJSON} for anything else."""
    kind = data["type"]
    text = data.get("text") if isinstance(data.get("text"), str) else None
    if kind == "BAD_FORMAT":
        return BadFormat()
    if kind in ("MISSING_ARGUMENT", "INCORRECT_VALUE"):
        arg = data.get("arg")
        if not isinstance(arg, str) or (kind == "INCORRECT_VALUE" and "value" not in data):
            raise MalformedJSON(f"{kind} needs arg (and value)")
        if kind == "MISSING_ARGUMENT":
            return MissingArgument(arg)
        return IncorrectValue(arg, data["value"], text=text)
    if kind == "UNEXPECTED_ARGUMENT":
        argname = data.get("argname")
        if not isinstance(argname, str) or "value" not in data:
            raise MalformedJSON("UNEXPECTED_ARGUMENT needs argname and value")
        return UnexpectedArgument(argname, data["value"])
    if kind == "UNEXPECTED_ACTION":
        return UnexpectedAction(_seat(data.get("player")), data.get("action"), text=text)
    if kind == "MISSING_ACTION":
        return MissingAction(_seat(data.get("player")), data.get("requested_action"))
    if kind == "WRONG_ACTION":
        if data.get("subtype") not in WrongActionSubtype.ALL:
            raise MalformedJSON(f"unknown WRONG_ACTION subtype {data.get('subtype')!r}")
        return WrongAction(data["subtype"], _seat(data.get("player")), data.get("action"),
                           data.get("requested_action"), text=text)
    raise MalformedJSON(f"unknown error type {kind!r}")


def requestedActionFromJSON(data: JSON) -> RequestedAction:
    if not isinstance(data, dict) or data.get("type") not in ("CLICK", "KEY", "TEXT"):
        raise MalformedJSON("a requested action must be a CLICK, KEY or TEXT object")
    zones = data.get("zones")
    if zones is not None:
        zones = _zonesFromJSON(zones)
    buttons = data.get("buttons")
    if buttons is not None:
        if not isinstance(buttons, list) or not all(b in BUTTONS for b in buttons):
            raise MalformedJSON(f"buttons must be among {BUTTONS}")
        buttons = tuple(buttons)
    keys, regex, length = data.get("keys"), data.get("regex"), data.get("max_length")
    if keys is not None and not isinstance(keys, str):
        raise MalformedJSON("keys must be a string")
    if regex is not None and not isinstance(regex, str):
        raise MalformedJSON("regex must be a string")
    if length is not None and (isinstance(length, bool) or not isinstance(length, int)):
        raise MalformedJSON("max_length must be an integer")
    return RequestedAction(_seat(data.get("player")), data["type"], zones, buttons, keys,
                           regex, length, bool(data.get("confirm", False)),
                           _pickFromJSON(data.get("pick")) if data["type"] == "TEXT" else None,
                           data["prompt"] if isinstance(data.get("prompt"), str) else None)


def _zonesFromJSON(zones: JSON) -> tuple[Zone, ...]:
    sides = ("x", "y", "width", "height")
    if not isinstance(zones, list) or not all(
            isinstance(z, dict) and all(_number(z.get(side)) is not None for side in sides)
            for z in zones):
        raise MalformedJSON("zones must be rectangles of finite numbers x, y, width, height")
    return tuple(Zone(*(float(z[side]) for side in sides)) for z in zones)


def _pickFromJSON(data: JSON) -> Pick | None:
    """A TEXT request's ``pick``: None when absent."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise MalformedJSON("pick must be an object")
    zones = _zonesFromJSON(data.get("zones"))
    values, count = data.get("values"), data.get("count")
    separator = data.get("separator", " ")
    if (not isinstance(values, list) or len(values) != len(zones)
            or not all(isinstance(v, str) for v in values)):
        raise MalformedJSON("pick needs one string value per zone")
    if (isinstance(count, bool) or not isinstance(count, int)
            or not 1 <= count <= len(zones) or not isinstance(separator, str)):
        raise MalformedJSON("pick needs a count between 1 and its number of zones")
    return Pick(zones, tuple(values), count, separator)


def displayFromJSON(data: JSON) -> Display:
    if not isinstance(data, dict):
        raise MalformedJSON("a display must be an object")
    width, height = data.get("width"), data.get("height")
    if (isinstance(width, bool) or not isinstance(width, (int, float))
            or isinstance(height, bool) or not isinstance(height, (int, float))):
        raise MalformedJSON("a display needs a numeric width and height")
    return Display(_seat(data.get("player")), width, height, _tagList(data.get("content", [])))


def instructionsFromJSON(
    data: JSON,
) -> tuple[Instructions, tuple[Display, ...]] | Errors:
    """
    INSTRUCTIONS as an engine writes them: the instructions and the displays
    they carry, or the errors.  Raises L{MalformedJSON} for anything else.
    """
    if not isinstance(data, dict):
        raise MalformedJSON("INSTRUCTIONS must be an object")
    if "errors" in data:
        errors = data["errors"]
        if not isinstance(errors, list) or not errors:
            raise MalformedJSON("errors must be a non-empty list")
        return Errors(tuple(errorFromJSON(e) for e in errors))
    state = data.get("game_state")
    if not isinstance(state, dict):
        raise MalformedJSON("INSTRUCTIONS need a game_state")
    scores, over = state.get("scores"), state.get("gameover")
    if (not isinstance(scores, list) or not all(isinstance(s, (int, float)) and
                                                not isinstance(s, bool) for s in scores)
            or not isinstance(over, bool)):
        raise MalformedJSON("game_state needs a list of scores and a boolean gameover")
    requested = data.get("requested_actions", [])
    displays = data.get("displays", [])
    initvalues = data.get("initvalues")
    if not isinstance(requested, list) or not isinstance(displays, list):
        raise MalformedJSON("requested_actions and displays must be lists")
    if initvalues is not None and not isinstance(initvalues, dict):
        raise MalformedJSON("initvalues must be an object")
    text = state.get("text")
    instructions = Instructions(
        tuple(requestedActionFromJSON(r) for r in requested),
        GameState(tuple(scores), over, text=text if isinstance(text, str) else None),
        initvalues=initvalues,
    )
    return instructions, tuple(displayFromJSON(d) for d in displays)
