"""Doppelkopf for four, as FreeDoko 0.7.13 plays it: the rules, a bot, and the game engine.

The game follows the program FreeDoko (its default "tournament" rules: with
nines, dollen, Re/Kontra by the club queens) so that a server using this
module agrees with real FreeDoko programs on every dealt card, every trick
and every score.  Where the behaviour was read from the program, the comment
says ``FREEDOKO:``; where the engine had to choose, ``RULE:``.

Pure and deterministic: no I/O, no clock, no global random state.  The only
randomness is the party's seed (``initvalues["seed"]``); every game's hands
follow from it by FreeDoko's own generator (L{dealHands}, L{seedNext}).

Cards are their names on FreeDoko's wire: ``"club queen"``, ``"diamond nine"``.
Seats are FreeDoko's player numbers 0..3.

RULE: where the engine had to choose:

- The party's ``game_state`` scores are zero-sum (Re +x, Kontra -x each; a
  soloist three times); FreeDoko's own ``counting`` points are kept beside
  them (``GameSummary.freedokoPoints``).
- A trick is taken the moment its fourth card is played: an announcement
  then counts as made with the next trick open (FreeDoko also allows it
  then; only in the instant of the full trick is it one trick stricter).
- Announcements, swines and hyperswines may come from any seat at any time
  the rules allow; they are never *requested* (no turn clock runs for them).
- A silent marriage is hidden from the other seats until the game ends, and
  no game's seed is shown during a party (the next hands follow from it).
- Not played: duty soli, ``points limited``, knocking, ``announcement strict
  limit``, ``announcement till full trick``, ``swine only second``, the
  double fox and double charlie extra points.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    Bot,
    Display,
    Errors,
    Event,
    GameState,
    IncorrectValue,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
    Pick,
    Zone,
    checkAction,
    checkSeeded,
)

# -- cards -------------------------------------------------------------------

PLAYERS = 4
TRICKS = 12
COLORS = ("club", "spade", "heart", "diamond")
VALUES = ("nine", "jack", "queen", "king", "ten", "ace")
POINTS = {"nine": 0, "jack": 2, "queen": 3, "king": 4, "ten": 10, "ace": 11}
"""Card points by value; FreeDoko compares plain color cards by these numbers too."""
COLOR_RANK = {"diamond": 0, "heart": 1, "spade": 2, "club": 3}
"""FreeDoko's color order (club highest) for queens, jacks and the soli."""

DECK_ORDER: tuple[str, ...] = tuple(
    f"{c} {v}" for c in COLORS for v in ("ace", "king", "queen", "jack", "ten")
) + tuple(f"{c} nine" for c in COLORS)
"""FreeDoko's card list (Rule::cards): per color ace king queen jack ten, then the nines."""

CARDS = frozenset(DECK_ORDER)
CLUB_QUEEN = "club queen"
DOLLE = "heart ten"
CHARLIE = "club jack"

RANDOM_MODULUS = 279841
"""FreeDoko's pseudo random numbers: r = (7200 r + 100) mod 279841."""
SEED_LIMIT = RANDOM_MODULUS - 1
SEED_STEPS = 49


_COLOR_OF = {c: c.split(" ", 1)[0] for c in CARDS}
_VALUE_OF = {c: c.split(" ", 1)[1] for c in CARDS}
_POINTS_OF = {c: POINTS[_VALUE_OF[c]] for c in CARDS}
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}


def colorOf(card: str) -> str:
    return _COLOR_OF[card]


def valueOf(card: str) -> str:
    return _VALUE_OF[card]


def cardPoints(card: str) -> int:
    return _POINTS_OF[card]


def countPoints(cards: Iterable[str]) -> int:
    points = _POINTS_OF
    return sum(points[c] for c in cards)


def _nextRandom(r: int) -> int:
    return (7200 * r + 100) % RANDOM_MODULUS


def deckFor(withNines: bool = True) -> tuple[str, ...]:
    """FreeDoko's deck order: its card list (without nines: no nines) twice."""
    one = DECK_ORDER if withNines else tuple(c for c in DECK_ORDER if valueOf(c) != "nine")
    return one + one


def dealHands(seed: int, startplayer: Seat, withNines: bool = True) -> tuple[tuple[str, ...], ...]:
    """
    FREEDOKO (Game::distributecards): the generator is set to the seed
    (reduced below 279840 as Party::set_seed does), then the four hands draw
    in turn, each at index ``r % n`` of the remaining cards, ``r`` the next
    number; hand ``p`` goes to seat ``(p + startplayer) % 4``.
    """
    r = seed % SEED_LIMIT
    cards = list(deckFor(withNines))
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    while cards:
        for hand in hands:
            r = _nextRandom(r)
            hand.append(cards.pop(r % len(cards)))
    seated: list[tuple[str, ...]] = [()] * PLAYERS
    for p in range(PLAYERS):
        seated[(p + startplayer) % PLAYERS] = tuple(hands[p])
    return tuple(seated)


def seedNext(seed: int, used: Iterable[int] = ()) -> int:
    """
    FREEDOKO (Party::seed_next): 49 steps of the generator on, then, while
    the new seed lies within 49 steps of a finished game's seed, one more.
    """
    r = seed
    for _ in range(SEED_STEPS):
        r = _nextRandom(r)
    usedSeeds = list(used)
    while True:
        clash = False
        for old in usedSeeds:
            s = old
            for _ in range(SEED_STEPS):
                if s == r:
                    clash = True
                    break
                s = _nextRandom(s)
            if clash:
                break
        if not clash:
            return r
        r += 1


# -- rules -------------------------------------------------------------------

DEFAULT_RULES_TEXT = """\
number of rounds limited = true
  number of rounds = 20
points limited = false
  points = 40
number of duty soli = 0
  number of duty color soli = 0
  number of duty picture soli = 0
offer duty solo = true
lustsolo player leads = true
solo always counts triple = false
number of players = 4
number of players in game = 4
show if valid = true
show all hands = true
show tricks number = 12
show tricks in trickpiles = true
show trickpiles points = true
show known teams in game = true
show soloplayer in game = true
card hint = true
take back tricks = false
with nines = true
bock = true
  bock multiplier = 2
  append bock = false
  bock after 120-120 = true
  bock after lost solo = false
  bock after lost re/contra = false
  bock after heart trick = false
  bock after black game = false
throw with nines = true
min number of throwing nines = 5
throw with kings = false
min number of throwing kings = 5
throw with nines and kings = false
min number of throwing nines and kings = 7
throw with richness = false
min richness for throwing = 70
poverty = true
  poverty shift = true
  poverty shift only trump = false
  poverty fox do not count = false
  poverty fox shift extra = false
  poverty fox shift open = false
  throw with one trump = false
  throw when fox highest trump = false
marriage determination = 12
  marriage first foreign = true
  marriage first color = true
  marriage first single color = true
  marriage first trump = true
  marriage first one decides = false
  marriage before poverty = false
genscher = false
solo = true
  solo jack = true
  solo queen = true
  solo king = true
  solo queen jack = true
  solo king jack = true
  solo king queen = true
  solo koehler = true
  solo color = true
  solo meatless = true
  throwing before solo = false
dollen = true
  dollen second over first = true
  dollen contrary in last trick = false
  dollen first over second with swines = false
swines = true
  swines in solo = true
  swines in poverty = true
  swines announcement begin = true
  swine only second = false
hyperswines = false
  hyperswines in solo = true
  hyperswines in poverty = true
  hyperswines announcement begin = true
  swines and hyperswines joint = false
# Extrapoints:
extrapoint catch fox = true
extrapoint catch fox last trick = false
extrapoint fox last trick = true
extrapoint double fox last trick = false
extrapoint dolle jabs dolle = false
extrapoint heart trick = false
extrapoint charlie = true
extrapoint catch charlie = true
extrapoint double charlie = false
extrapoint catch double charlie = false
extrapoint catch charlie only with diamond queen = false
announcement first trick thirty points = true
announcement first trick thirty points only first = false
announcement first trick thirty points only re/contra = true
announcement first trick thirty points in marriage = true
announcement re/contra doubles = true
announcement contra doubles against re = false
# till when to make the announcements:
knocking = false
announcement no 120 = 11
announcement no 90 = 9
announcement no 60 = 6
announcement no 30 = 3
announcement no 0 = 3
last announcement = 3
announcement till full trick = false
announcement reply = true
announcement strict limit = false
# number of same cards = 2
# number of card colors = 4
# number of card tcolors = 5
# number of card values = 6
# number of cards = 48
# number of teams = 2
# number of players per team = 2
# number of tricks in game = 12
counting = plus
"""
"""The rules block the real FreeDoko 0.7.13 parent sends with its defaults (transcripts)."""


def _parseRuleLines(text: str) -> list[tuple[str, str]]:
    entries: list[tuple[str, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.partition("=")
        entries.append((name.strip(), value.strip()))
    return entries


@attrs.frozen(cache_hash=True)
class Rules:
    """
    FreeDoko rules as its rule files write them: ``name = value`` lines,
    ``#`` comments, leading spaces, booleans ``true``/``false``.  Every name
    is kept, the unknown ones too (L{text} writes them back); the defaults
    are FreeDoko's, as its parent sends them.
    """

    entries: tuple[tuple[str, str], ...]
    _index: dict[str, str] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _flags: dict[str, bool] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_index", dict(self.entries))
        object.__setattr__(self, "_flags", {})

    @classmethod
    def default(cls) -> Rules:
        return _DEFAULT_RULES

    @classmethod
    def parse(cls, text: str, base: Rules | None = None) -> Rules:
        """
        The rules of ``text`` over ``base`` (default: FreeDoko's defaults):
        the same L{Rules} each time for the same text and base (they never
        change), so that what they cache (their flags, the card orders
        made for them) serves every party played under them.
        """
        return _parseRules(text, base if base is not None else _DEFAULT_RULES)

    def value(self, name: str, default: str = "") -> str:
        return self._index.get(name, default)

    def rawFlag(self, name: str) -> bool:
        """A boolean rule as written (``true``/``yes``/``1``); absent: false."""
        return self.value(name, "false").lower() in ("true", "yes", "1")

    def flag(self, name: str) -> bool:
        """
        A boolean rule in effect: as written, and only where the rules it
        depends on allow it (FREEDOKO Rule::dependencies: ``extrapoint heart
        trick`` only without nines, ``swines in solo`` only with color soli...).
        """
        known = self._flags.get(name)
        if known is None:
            depends = _DEPENDENCIES.get(name)
            known = self.rawFlag(name) and (depends is None or depends(self))
            self._flags[name] = known
        return known

    def number(self, name: str, default: int = 0) -> int:
        try:
            return int(self.value(name, str(default)))
        except ValueError:
            return default

    def with_(self, **changes: Any) -> Rules:
        """These rules with ``changes`` (``dollen_second_over_first=False``: underscores are spaces)."""
        text = "\n".join(
            f"{k.replace('_', ' ')} = {str(v).lower() if isinstance(v, bool) else v}"
            for k, v in changes.items())
        return Rules.parse(text, self)

    def text(self) -> str:
        """The rule-file form (booleans ``true``/``false``), every name kept."""
        return "".join(f"{name} = {value}\n" for name, value in self.entries)

    def asDict(self) -> dict[str, str]:
        return dict(self.entries)


@functools.lru_cache(maxsize=64)
def _parseRules(text: str, start: Rules) -> Rules:
    """L{Rules.parse}, once for each text and base."""
    values = dict(start.entries)
    order = [name for name, _ in start.entries]
    for name, value in _parseRuleLines(text):
        if name not in values:
            order.append(name)
        values[name] = value
    return Rules(tuple((name, values[name]) for name in order))


def _any(*names: str) -> Callable[[Rules], bool]:
    return lambda r: any(r.flag(n) for n in names)


def _all(*names: str) -> Callable[[Rules], bool]:
    return lambda r: all(r.flag(n) for n in names)


_DEPENDENCIES: dict[str, Callable[[Rules], bool]] = {
    "append bock": _all("bock"), "bock after 120-120": _all("bock"),
    "bock after lost solo": _all("bock"), "bock after heart trick": _all("bock"),
    "bock after black game": _all("bock"),
    "bock after lost re/contra": lambda r: r.flag("bock") and not r.flag("knocking"),
    "throw with nines": _all("with nines"), "throw with nines and kings": _all("with nines"),
    "poverty shift": _all("poverty"), "poverty shift only trump": _all("poverty shift"),
    "poverty fox shift open": _all("poverty shift"), "throw with one trump": _all("poverty shift"),
    "poverty fox do not count": _all("poverty"),
    "poverty fox shift extra": lambda r: (r.flag("poverty fox do not count")
                                          and not r.flag("poverty shift only trump")),
    "marriage before poverty": _all("poverty"),
    "genscher": lambda r: r.flag("with nines") or not r.flag("hyperswines"),
    "solo jack": _all("solo"), "solo queen": _all("solo"), "solo king": _all("solo"),
    "solo queen jack": _all("solo"), "solo king jack": _all("solo"),
    "solo king queen": _all("solo"), "solo koehler": _all("solo"), "solo color": _all("solo"),
    "solo meatless": _all("solo"),
    "throwing before solo": lambda r: r.flag("solo") and (
        _any("throw with nines", "throw with kings", "throw with nines and kings",
             "throw with richness", "throw with one trump", "throw when fox highest trump")(r)
        or (r.flag("poverty") and not r.flag("poverty shift"))),
    "dollen second over first": _all("dollen"), "dollen contrary in last trick": _all("dollen"),
    "dollen first over second with swines": lambda r: r.flag("dollen") and r.flag("swines") and (
        r.flag("dollen second over first") or r.flag("dollen contrary in last trick")),
    "swines announcement begin": lambda r: r.flag("swines") and not r.rawFlag("swine only second"),
    "swine only second": lambda r: (r.flag("swines") and not r.rawFlag("swines announcement begin")
                                    and not r.rawFlag("hyperswines")),
    "swines in solo": _all("swines", "solo color"),
    "swines in poverty": _all("swines", "poverty shift"),
    "hyperswines": lambda r: r.flag("swines") and not r.flag("swine only second"),
    "hyperswines announcement begin": _all("hyperswines", "swines announcement begin"),
    "hyperswines in solo": _all("hyperswines", "swines in solo"),
    "hyperswines in poverty": _all("hyperswines", "swines in poverty"),
    "swines and hyperswines joint": _all("hyperswines"),
    "extrapoint catch fox last trick": _all("extrapoint catch fox"),
    "extrapoint double fox last trick": _all("extrapoint fox last trick"),
    "extrapoint catch charlie": _all("extrapoint charlie"),
    "extrapoint double charlie": _all("extrapoint charlie"),
    "extrapoint catch double charlie": _all("extrapoint double charlie"),
    "extrapoint catch charlie only with diamond queen": _all("extrapoint catch charlie"),
    "extrapoint dolle jabs dolle": lambda r: r.flag("dollen") and (
        r.flag("dollen second over first") or r.flag("dollen contrary in last trick")),
    "extrapoint heart trick": lambda r: r.flag("dollen") and not r.flag("with nines"),
    "announcement reply": lambda r: not r.flag("knocking"),
    "announcement first trick thirty points only first":
        _all("announcement first trick thirty points"),
    "announcement first trick thirty points only re/contra":
        _all("announcement first trick thirty points"),
    "announcement first trick thirty points in marriage":
        _all("announcement first trick thirty points"),
    "announcement contra doubles against re": _all("announcement re/contra doubles"),
    "points limited": lambda r: r.value("counting", "plus") != "plusminus",
    "lustsolo player leads": _all("solo"),
    "solo always counts triple": lambda r: (r.flag("solo")
                                            and r.value("counting", "plus") != "plusminus"),
}
"""FREEDOKO Rule::dependencies: a boolean rule counts only where these hold."""


_DEFAULT_RULES = Rules(tuple(_parseRuleLines(DEFAULT_RULES_TEXT)))

_BOOLEAN_RULES = frozenset(name for name, value in _DEFAULT_RULES.entries
                           if value in ("true", "false"))
"""The rules FreeDoko reads as booleans: those whose default is ``true`` or ``false``."""
_BOOLEAN_VALUES = frozenset(("true", "false", "yes", "no", "1", "0"))
"""A boolean rule's values, as FreeDoko reads them (Rule::set), in any case."""


@functools.lru_cache(maxsize=64)
def rulesProblem(text: str) -> str | None:
    """
    Why ``text`` is no rules text for the engine's ``rules`` parameter, in
    words naming its line; None when it is one.  Each line is blank, a
    ``#`` comment or ``name = value``; a name the engine does not know is
    kept (FreeDoko's rule files hold such names too), but a known boolean
    rule must be ``true``/``false`` (or ``yes``/``no``, ``1``/``0``).
    L{Rules.parse} itself passes over other lines, as FreeDoko does: it
    also reads what real FreeDoko programs send.
    """
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, eq, value = line.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name:
            shown = line if len(line) <= 40 else line[:39] + "\u2026"
            return (f"Rules line {number} (\u201c{shown}\u201d) is neither "
                    "\u201cname = value\u201d nor a \u201c#\u201d comment.")
        if name in _BOOLEAN_RULES and value.lower() not in _BOOLEAN_VALUES:
            shown = value if len(value) <= 20 else value[:19] + "\u2026"
            return (f"Rules line {number}: \u201c{name}\u201d is true or false, "
                    f"not \u201c{shown}\u201d.")
    return None


# -- game types --------------------------------------------------------------

NORMAL = "normal"
THROWN_NINES = "thrown nines"
THROWN_KINGS = "thrown kings"
THROWN_NINES_AND_KINGS = "thrown nines and kings"
THROWN_RICHNESS = "thrown richness"
FOX_HIGHEST_TRUMP = "fox highest trump"
POVERTY = "poverty"
GENSCHER = "genscher"
MARRIAGE = "marriage"
MARRIAGE_SOLO = "marriage solo"
MARRIAGE_SILENT = "marriage silent"
SOLO_JACK = "solo jack"
SOLO_QUEEN = "solo queen"
SOLO_KING = "solo king"
SOLO_QUEEN_JACK = "solo queen-jack"
SOLO_KING_JACK = "solo king-jack"
SOLO_KING_QUEEN = "solo king-queen"
SOLO_KOEHLER = "solo koehler"
SOLO_CLUB = "solo club"
SOLO_SPADE = "solo spade"
SOLO_HEART = "solo heart"
SOLO_DIAMOND = "solo diamond"
SOLO_MEATLESS = "solo meatless"

COLOR_SOLI = (SOLO_CLUB, SOLO_SPADE, SOLO_HEART, SOLO_DIAMOND)
PICTURE_SOLI = (SOLO_JACK, SOLO_QUEEN, SOLO_KING, SOLO_QUEEN_JACK, SOLO_KING_JACK,
                SOLO_KING_QUEEN, SOLO_KOEHLER)
REAL_SOLI = COLOR_SOLI + PICTURE_SOLI + (SOLO_MEATLESS,)
THROWN = (THROWN_NINES, THROWN_KINGS, THROWN_NINES_AND_KINGS, THROWN_RICHNESS, FOX_HIGHEST_TRUMP)
GAME_TYPES = (NORMAL,) + THROWN + (POVERTY, GENSCHER, MARRIAGE, MARRIAGE_SOLO,
                                   MARRIAGE_SILENT) + REAL_SOLI
RESERVABLE = (NORMAL,) + THROWN + (POVERTY, GENSCHER, MARRIAGE) + REAL_SOLI
NORMAL_FAMILY = (NORMAL, POVERTY, MARRIAGE, GENSCHER)
"""FREEDOKO GAMETYPE::is_normal: where foxes are foxes."""
NORMAL_TRUMPS = (NORMAL, POVERTY, FOX_HIGHEST_TRUMP, GENSCHER, MARRIAGE, MARRIAGE_SOLO,
                 MARRIAGE_SILENT)

SOLO_RULES = {
    SOLO_JACK: "solo jack", SOLO_QUEEN: "solo queen", SOLO_KING: "solo king",
    SOLO_QUEEN_JACK: "solo queen jack", SOLO_KING_JACK: "solo king jack",
    SOLO_KING_QUEEN: "solo king queen", SOLO_KOEHLER: "solo koehler",
    SOLO_CLUB: "solo color", SOLO_SPADE: "solo color", SOLO_HEART: "solo color",
    SOLO_DIAMOND: "solo color", SOLO_MEATLESS: "solo meatless",
}

SELECTORS = ("first foreign", "first color", "first trump", "first club", "first spade",
             "first heart")
SELECTOR_RULES = {
    "first foreign": "marriage first foreign", "first color": "marriage first color",
    "first trump": "marriage first trump", "first club": "marriage first single color",
    "first spade": "marriage first single color", "first heart": "marriage first single color",
}


def isSolo(gameType: str) -> bool:
    """FREEDOKO GAMETYPE::is_solo: the real soli and the marriages played alone."""
    return gameType in REAL_SOLI or gameType in (MARRIAGE_SOLO, MARRIAGE_SILENT)


def isRealSolo(gameType: str) -> bool:
    return gameType in REAL_SOLI


def trumpColor(gameType: str) -> str | None:
    if gameType in COLOR_SOLI:
        return gameType.split(" ")[1]
    if gameType in NORMAL_TRUMPS:
        return "diamond"
    return None


@functools.lru_cache(maxsize=1024)
def ruleAllows(rules: Rules, gameType: str) -> bool:
    """
    Whether the rules allow a reserved game type (FREEDOKO Rule::operator()(GameType)),
    asked once for the same rules and type (rules never change).
    """
    if gameType in SOLO_RULES:
        return rules.flag("solo") and rules.flag(SOLO_RULES[gameType])
    return {
        NORMAL: True, POVERTY: rules.flag("poverty"), MARRIAGE: True,
        GENSCHER: rules.flag("genscher"),
        THROWN_NINES: rules.flag("throw with nines"),
        THROWN_KINGS: rules.flag("throw with kings"),
        THROWN_NINES_AND_KINGS: rules.flag("throw with nines and kings"),
        THROWN_RICHNESS: rules.flag("throw with richness"),
        FOX_HIGHEST_TRUMP: rules.flag("throw when fox highest trump"),
    }.get(gameType, False)


# -- card order --------------------------------------------------------------


def _trumpList(gameType: str, withNines: bool, dollen: bool) -> list[str]:
    """FREEDOKO Game::update_cards: the trumps of a game type, lowest first."""
    if gameType in NORMAL_TRUMPS or gameType in COLOR_SOLI:
        color = trumpColor(gameType) or "diamond"
        low = ([f"{color} nine"] if withNines else []) + [f"{color} king"]
        if not (color == "heart" and dollen):
            low.append(f"{color} ten")
        low.append(f"{color} ace")
        jacks = [f"{c} jack" for c in ("diamond", "heart", "spade", "club")]
        queens = [f"{c} queen" for c in ("diamond", "heart", "spade", "club")]
        return low + jacks + queens + ([DOLLE] if dollen else [])
    byColor = ("diamond", "heart", "spade", "club")
    picture = {
        SOLO_JACK: ("jack",), SOLO_QUEEN: ("queen",), SOLO_KING: ("king",),
        SOLO_QUEEN_JACK: ("jack", "queen"), SOLO_KING_JACK: ("jack", "king"),
        SOLO_KING_QUEEN: ("queen", "king"), SOLO_KOEHLER: ("jack", "queen", "king"),
        THROWN_NINES: ("nine",), THROWN_KINGS: ("king",),
        THROWN_NINES_AND_KINGS: ("nine", "king"),
    }
    if gameType in picture:
        return [f"{c} {v}" for v in picture[gameType] for c in byColor]
    if gameType == THROWN_RICHNESS:
        values = ["jack", "queen", "king", "ten", "ace"]
        if withNines:
            values.insert(0, "nine")
        return [f"{c} {v}" for v in values for c in byColor]
    return []  # meatless


@attrs.frozen
class CardOrder:
    """
    Which cards are trump and which card beats which, for one game type
    under the rules, with the swines and hyperswines when announced
    (FREEDOKO Game::less, HandCard::less, Trick::operator+=).
    """

    gameType: str = NORMAL
    dollen: bool = True
    secondOverFirst: bool = True
    contraryInLastTrick: bool = False
    firstOverSecondWithSwines: bool = False
    withNines: bool = True
    swines: bool = False
    hyperswines: bool = False
    rank: Mapping[str, int] = attrs.field(init=False, eq=False, repr=False)
    sortKeys: Mapping[str, tuple[int, int, int]] = attrs.field(init=False, eq=False, repr=False)
    """Each card's place in L{sortHand}."""

    def __attrs_post_init__(self) -> None:
        trumps = _trumpList(self.gameType, self.withNines, self.hasDollen)
        swine, hyper = self.swine, self.hyperswine
        if hyper is not None and hyper in trumps:
            trumps.remove(hyper)
            trumps.append(hyper)
        if swine is not None and swine in trumps:
            trumps.remove(swine)
            trumps.insert(len(trumps) - (1 if hyper in trumps else 0), swine)
        object.__setattr__(self, "rank", {c: i for i, c in enumerate(trumps)})
        object.__setattr__(self, "sortKeys", _sortKeys(self))

    @classmethod
    def of(cls, gameType: str, rules: Rules, swines: bool = False,
           hyperswines: bool = False) -> CardOrder:
        return _cardOrder(gameType, rules, swines, hyperswines)

    @property
    def hasDollen(self) -> bool:
        return self.dollen and (self.gameType in (NORMAL, POVERTY, GENSCHER, MARRIAGE,
                                                  MARRIAGE_SOLO, MARRIAGE_SILENT)
                                or self.gameType in COLOR_SOLI)

    @property
    def swine(self) -> str | None:
        if not self.swines:
            return None
        color = trumpColor(self.gameType)
        return None if color is None else f"{color} ace"

    @property
    def hyperswine(self) -> str | None:
        if not self.hyperswines:
            return None
        color = trumpColor(self.gameType)
        if color is None:
            return None
        return f"{color} nine" if self.withNines else f"{color} king"

    def isTrump(self, card: str) -> bool:
        return card in self.rank

    def suit(self, card: str) -> str:
        """The card's suit in this game: ``trump`` or its color."""
        return "trump" if card in self.rank else _COLOR_OF[card]

    def less(self, a: str, b: str, lastTrick: bool = False) -> bool:
        """Whether ``b``, played after ``a``, beats it."""
        rank = self.rank
        ta, tb = a in rank, b in rank
        if not ta and not tb:
            return _COLOR_OF[a] == _COLOR_OF[b] and _POINTS_OF[a] < _POINTS_OF[b]
        if ta != tb:
            return tb
        if a == b == DOLLE and self.hasDollen:
            if self.firstOverSecondWithSwines and self.swines:
                return False
            if self.contraryInLastTrick and lastTrick:
                return not self.secondOverFirst
            return self.secondOverFirst
        return rank[a] < rank[b]

    def isFox(self, card: str) -> bool:
        """FREEDOKO HandCard::isfox: a trump ace, not a swine, in a normal-like game."""
        return (self.gameType in NORMAL_FAMILY and valueOf(card) == "ace"
                and card in self.rank and card != self.swine)


@functools.lru_cache(maxsize=512)
def _cardOrder(gameType: str, rules: Rules, swines: bool, hyperswines: bool) -> CardOrder:
    return CardOrder(gameType, rules.flag("dollen"), rules.flag("dollen second over first"),
                     rules.flag("dollen contrary in last trick"),
                     rules.flag("dollen first over second with swines"),
                     rules.flag("with nines"), swines, hyperswines)


def trickWinner(order: CardOrder, cards: Sequence[str], lastTrick: bool = False) -> int:
    """The index (in play order) of the card that wins the trick."""
    best = 0
    for i in range(1, len(cards)):
        if order.less(cards[best], cards[i], lastTrick):
            best = i
    return best


def legalCards(order: CardOrder, hand: Sequence[str], trick: Sequence[str]) -> tuple[str, ...]:
    """FREEDOKO HandCard::isvalid: follow the led suit (trump is a suit) when you can."""
    if not trick:
        return tuple(hand)
    rank, colors = order.rank, _COLOR_OF
    first = trick[0]
    if first in rank:
        following = tuple(c for c in hand if c in rank)
    else:
        led = colors[first]
        following = tuple(c for c in hand if c not in rank and colors[c] == led)
    return following if following else tuple(hand)


def sortHand(order: CardOrder, hand: Iterable[str]) -> list[str]:
    """Trumps high to low, then the colors, each high to low."""
    return sorted(hand, key=order.sortKeys.__getitem__)


def _sortKeys(order: CardOrder) -> dict[str, tuple[int, int, int]]:
    """Each card's place in L{sortHand} under ``order`` (made once, as the order is made)."""
    rank = order.rank
    return {card: (0, -rank[card], 0) if card in rank
            else (1, _COLOR_INDEX[_COLOR_OF[card]], -_POINTS_OF[card])
            for card in _COLOR_OF}


def countTrumps(hand: Iterable[str], gameType: str = NORMAL, rules: Rules | None = None) -> int:
    order = CardOrder.of(gameType, rules or _DEFAULT_RULES)
    return sum(1 for c in hand if order.isTrump(c))


def swinesPossible(hand: Sequence[str], rules: Rules) -> bool:
    """
    Whether ``hand`` holds both aces of a color that may be trump with
    swines: diamonds (the normal game and its kin), or a color solo's color
    with ``swines in solo``.  FREEDOKO: a reservation made with ``swines``
    announces them as the game starts when the game's trump aces are then
    both the player's, whoever chose the game (Game::test_swines_from_reservations).
    """
    if not rules.flag("swines"):
        return False
    return any(hand.count(f"{color} ace") == 2
               and (color == "diamond" or (rules.flag("swines in solo")
                                           and ruleAllows(rules, f"solo {color}")))
               for color in COLORS)


def hasPoverty(hand: Sequence[str], rules: Rules) -> bool:
    """FREEDOKO Hand::has_poverty: at most three trumps (foxes count unless the rules say not)."""
    if not rules.flag("poverty"):
        return False
    order = CardOrder.of(POVERTY, rules)
    trumps = sum(1 for c in hand if order.isTrump(c))
    if rules.flag("poverty fox do not count"):
        trumps -= sum(1 for c in hand if c == "diamond ace")
    return trumps <= 3


def povertyCardCount(hand: Sequence[str], rules: Rules) -> int:
    """FREEDOKO Hand::numberofpovertycards: how many cards a poverty shifts."""
    trumps = countTrumps(hand, POVERTY, rules)
    if rules.flag("poverty shift only trump"):
        return trumps
    if not rules.flag("poverty fox do not count"):
        return 3
    if not rules.flag("poverty fox shift extra"):
        return max(3, trumps)
    return max(3 + sum(1 for c in hand if c == "diamond ace"), trumps)


# -- reservations -----------------------------------------------------------


@attrs.frozen
class Reservation:
    """What a seat reserves: a game type, a marriage selector, swines, hyperswines."""

    gameType: str = NORMAL
    selector: str | None = None
    swines: bool = False
    hyperswines: bool = False

    def wire(self) -> str:
        """FreeDoko's form: ``marriage, first foreign, swines``."""
        parts = [self.gameType]
        if self.gameType == MARRIAGE and self.selector:
            parts.append(self.selector)
        if self.swines:
            parts.append("swines")
        if self.hyperswines:
            parts.append("hyperswines")
        return ", ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Reservation | None:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts or parts[0] not in RESERVABLE:
            return None
        selector = None
        swines = hyperswines = False
        for extra in parts[1:]:
            if extra in SELECTORS:
                selector = extra
            elif extra == "swines":
                swines = True
            elif extra == "hyperswines":
                hyperswines = True
            else:
                return None
        if parts[0] == MARRIAGE and selector is None:
            selector = "first foreign"
        return cls(parts[0], selector, swines, hyperswines)


# -- announcements ------------------------------------------------------------

NO_ANNOUNCEMENT, NO120, NO90, NO60, NO30, NO0, REPLY = range(7)
ANNOUNCEMENTS = ("no announcement", "no 120", "no 90", "no 60", "no 30", "no 0", "reply")
_ANNOUNCEMENT_RULES = {NO120: "announcement no 120", NO90: "announcement no 90",
                       NO60: "announcement no 60", NO30: "announcement no 30",
                       NO0: "announcement no 0"}
RE, CONTRA = "re", "contra"


def _opposite(team: str) -> str:
    return CONTRA if team == RE else RE


def remainingCards(rules: Rules, announcement: int) -> int:
    """FREEDOKO Rule::remaining_cards: the cards a hand must still hold to make an announcement."""
    name = _ANNOUNCEMENT_RULES.get(announcement)
    if name is None:
        return 10**6
    return rules.number(name, {NO120: 11, NO90: 9, NO60: 6, NO30: 3, NO0: 3}[announcement])


_ANNOUNCEMENT_WORDS = {"no 120": {RE: "re", CONTRA: "kontra", None: "re or kontra"},
                       "no 0": {RE: "black", CONTRA: "black", None: "black"}}


def announcementWords(name: str, team: str | None) -> str:
    """
    An announcement as players read it, from its wire name: ``no 120`` is
    Re for the re team and Kontra for the contra team (``re``, ``kontra``),
    ``no 0`` is ``black``, as FreeDoko's own words say them; ``no 90``,
    ``no 60``, ``no 30`` and ``reply`` are as named.
    """
    words = _ANNOUNCEMENT_WORDS.get(name)
    return name if words is None else words.get(team, words[None])


def announcementNumber(name: str) -> int | None:
    """An announcement's number from its wire name (FreeDoko's ``re``/``contra`` spellings too)."""
    name = name.strip().lower()
    if name in ("re", "contra", "kontra"):
        return NO120
    if name in ANNOUNCEMENTS:
        return ANNOUNCEMENTS.index(name)
    return None


# -- one game ----------------------------------------------------------------

RESERVING = "reservation"
POVERTY_SHIFT = "poverty shift"
POVERTY_ANSWER = "poverty answer"
POVERTY_RETURN = "poverty return"
PLAYING = "play"
FINISHED = "finished"


@attrs.frozen
class Trick:
    """A full trick: who led, the four cards in play order, who won it."""

    leader: Seat
    cards: tuple[str, ...]
    winner: Seat

    def seatOf(self, index: int) -> Seat:
        return (self.leader + index) % PLAYERS

    def points(self) -> int:
        return countPoints(self.cards)

    def asJSON(self) -> dict[str, JSON]:
        return {"leader": self.leader, "cards": list(self.cards), "winner": self.winner}


@attrs.frozen
class Special:
    """One line of a game's score: its name, the team it counts for, its value."""

    name: str
    team: str | None
    value: int = 1
    seat: Seat | None = None
    """The seat that scored it (a trick's winner), when it is one seat's."""

    def asJSON(self) -> dict[str, JSON]:
        return {"name": self.name, "team": self.team, "value": self.value, "seat": self.seat}


@attrs.frozen
class GameSummary:
    """
    A finished game's result, as FreeDoko's GameSummary counts it: the
    ``points`` (the game value, for the winner; with no winner, for Re),
    the specials that make it, and ``scores``: per seat, zero-sum (Re +x and
    Kontra -x each, a solo three times for the soloist).  ``freedokoPoints``
    are FreeDoko's own party points under its counting rule (``plus``: only
    the winners score).
    """

    seed: int
    startplayer: Seat
    gameType: str
    soloplayer: Seat | None
    teams: tuple[str, ...]
    trickPoints: tuple[int, ...]
    winner: str | None
    points: int
    specials: tuple[Special, ...]
    announcements: tuple[int, ...]
    bock: int
    scores: tuple[int, ...]
    freedokoPoints: tuple[int, ...]
    bockTriggers: tuple[str, ...] = ()

    @property
    def startplayerStays(self) -> bool:
        return isRealSolo(self.gameType)

    def teamPoints(self, team: str) -> int:
        return sum(p for p, t in zip(self.trickPoints, self.teams) if t == team)

    def asJSON(self, withSeed: bool = False) -> dict[str, JSON]:
        """
        The summary as JSON; the seed only when asked (the next games' hands
        follow from it, so the seats never see it during a party).
        """
        described: dict[str, JSON] = {"seed": self.seed} if withSeed else {}
        return described | {
            "startplayer": self.startplayer, "gametype": self.gameType,
            "soloplayer": self.soloplayer, "teams": list(self.teams),
            "trickPoints": list(self.trickPoints), "winner": self.winner,
            "points": self.points, "specials": [s.asJSON() for s in self.specials],
            "announcements": [ANNOUNCEMENTS[a] for a in self.announcements],
            "bock": self.bock, "scores": list(self.scores),
            "freedokoPoints": list(self.freedokoPoints), "bockTriggers": list(self.bockTriggers),
        }


class DoppelkopfGame:
    """
    One game of a party, from the deal to the score, as FreeDoko plays it:
    reservations in turn from the startplayer, the game type they give
    (Game::init), the poverty shift, the twelve tricks with announcements,
    and the score (GameSummary::evaluate).  A thrown hand or a poverty
    nobody takes deals again from the next seed (Game::play).

    Moves are methods that raise L{IllegalMove} and change nothing when
    refused; every step appends L{Event}s to ``events``.
    """

    def __init__(self, rules: Rules, seed: int, startplayer: Seat,
                 usedSeeds: Sequence[int] = (), bock: int = 1, *,
                 swinesAtStart: bool = False) -> None:
        self.rules = rules
        self.swinesAtStart = swinesAtStart
        """
        Under ``swines announcement begin``, whether swines not made with the
        reservation are still taken as the game starts, before its first
        card: what a real FreeDoko parent tells of its own players (its AI
        announces them at GAME_START, say when another's solo gave it both
        trump aces).  A child following such a parent needs it; a parent
        does not take them (its FreeDoko children could not).
        """
        self.trickCount = TRICKS if rules.flag("with nines") else 10
        """12 tricks with nines, 10 without."""
        self._limits = {a: remainingCards(rules, a) for a in (NO120, NO90, NO60, NO30, NO0)}
        self._legal: tuple[tuple[int, ...], CardOrder, list[str], tuple[str, ...]] | None = None
        """The last L{legalCardsFor}: for which seat and sizes, order and hand."""
        self._lastAnnouncement = rules.number("last announcement", 3)
        self._replies = rules.flag("announcement reply")
        self._swinesInPlay = (
            (rules.flag("swines") and not rules.flag("swines announcement begin"))
            or (rules.flag("hyperswines") and not rules.flag("hyperswines announcement begin")))
        """Whether swines or hyperswines may be announced in the play past its first card."""
        self.startplayer = startplayer
        self.usedSeeds = tuple(usedSeeds)
        self.bock = bock
        self.events: list[Event] = []
        self.seed = seed % SEED_LIMIT
        self.redeals: list[tuple[int, str]] = []
        """Every deal given back: its seed and why."""
        self.summary: GameSummary | None = None
        self._deal()

    # -- dealing and reservations ---------------------------------------

    def _deal(self) -> None:
        self.dealt = dealHands(self.seed, self.startplayer, self.rules.flag("with nines"))
        self.hands: list[list[str]] = [list(h) for h in self.dealt]
        self.phase = RESERVING
        self.reservations: list[Reservation | None] = [None] * PLAYERS
        self.turn: Seat | None = self.startplayer
        self.gameType = NORMAL
        self.soloplayer: Seat | None = None
        self.selector: str | None = None
        self.determination: int = 0
        """FREEDOKO marriage_determination_trickno: the tricks played when the marriage was decided."""
        self.partner: Seat | None = None
        self.teams: list[str | None] = [None] * PLAYERS
        self.swinesOwner: Seat | None = None
        self.hyperswinesOwner: Seat | None = None
        self.povertyCards: tuple[str, ...] = ()
        self.povertyReturned: tuple[str, ...] = ()
        self.povertyAccepter: Seat | None = None
        self.povertyDenied: list[Seat] = []
        self.order = CardOrder.of(NORMAL, self.rules)
        self.tricks: list[Trick] = []
        self.trick: list[str] = []
        self.leader: Seat = self.startplayer
        self.won: list[list[str]] = [[] for _ in range(PLAYERS)]
        self.announcements: list[list[tuple[int, int]]] = [[] for _ in range(PLAYERS)]
        self.events.append(Event("deal", {"startplayer": self.startplayer,
                                          "redeal": len(self.redeals)}))
        for seat in range(PLAYERS):
            self.events.append(Event("hand", list(self.dealt[seat]), seat, frozenset({seat})))

    def _redeal(self, reason: str) -> None:
        self.events.append(Event("redeal", {"reason": reason, "seat": self.soloplayer}))
        self.redeals.append((self.seed, reason))
        self.seed = seedNext(self.seed, self.usedSeeds)
        self._deal()

    def reserve(self, seat: Seat, reservation: Reservation) -> None:
        if self.phase != RESERVING or seat != self.turn:
            raise IllegalMove("not your reservation")
        if reservation.gameType not in RESERVABLE:
            raise IllegalMove("unknown game type")
        if reservation.gameType == MARRIAGE:
            if reservation.selector not in SELECTORS or not self.rules.flag(
                    SELECTOR_RULES[reservation.selector]):
                raise IllegalMove("marriage selector not allowed")
        self.reservations[seat] = reservation
        self.events.append(Event("reservation", {"seat": seat, "reservation": reservation.wire()},
                                 seat))
        nxt = (seat + 1) % PLAYERS
        if nxt != self.startplayer:
            self.turn = nxt
            return
        self.turn = None
        self._decide()

    def _seatsFrom(self, first: Seat) -> list[Seat]:
        return [(first + i) % PLAYERS for i in range(PLAYERS)]

    def _res(self, seat: Seat) -> Reservation:
        return self.reservations[seat] or Reservation()

    def _decide(self) -> None:
        """FREEDOKO Game::init: the game type from the reservations."""
        rules = self.rules
        seats = self._seatsFrom(self.startplayer)
        gameType, solo = NORMAL, None
        for s in seats:
            t = self._res(s).gameType
            if isRealSolo(t) and ruleAllows(rules, t):
                gameType, solo = t, s
                break
        thrown: str | None = None
        if gameType == NORMAL or rules.flag("throwing before solo"):
            normal = CardOrder.of(NORMAL, rules)
            checks: list[tuple[str, Any]] = [
                (FOX_HIGHEST_TRUMP, lambda h: all(
                    not (normal.less("diamond ten", c) and not (
                        valueOf(c) == "ace" and normal.isTrump(c))) for c in h)),
                (THROWN_NINES, lambda h: sum(valueOf(c) == "nine" for c in h)
                 >= rules.number("min number of throwing nines", 5)),
                (THROWN_KINGS, lambda h: sum(valueOf(c) == "king" for c in h)
                 >= rules.number("min number of throwing kings", 5)),
                (THROWN_NINES_AND_KINGS, lambda h: sum(valueOf(c) in ("nine", "king") for c in h)
                 >= rules.number("min number of throwing nines and kings", 7)),
                (THROWN_RICHNESS, lambda h: countPoints(h)
                 >= rules.number("min richness for throwing", 70)),
            ]
            for kind, test in checks:
                if not ruleAllows(rules, kind):
                    continue
                for s in seats:
                    if self._res(s).gameType == kind and test(self.hands[s]):
                        thrown, solo = kind, s
                        break
        if thrown is not None:
            self.soloplayer = solo
            self.gameType = thrown
            self.events.append(Event("gametype", {"gametype": thrown, "soloplayer": solo}))
            self._redeal(thrown)
            return
        if gameType == NORMAL:
            for s in seats:
                if (self._res(s).gameType == MARRIAGE
                        and self.hands[s].count(CLUB_QUEEN) == 2):
                    gameType, solo = MARRIAGE, s
                    self.selector = self._res(s).selector
        soloFirst = isRealSolo(gameType) and rules.flag("throwing before solo")
        if (gameType == NORMAL or soloFirst or (gameType == MARRIAGE
                                                and not rules.flag("marriage before poverty"))):
            if rules.flag("poverty"):
                for s in seats:
                    if self._res(s).gameType == POVERTY and hasPoverty(self.hands[s], rules):
                        if soloFirst and rules.flag("poverty shift") and not (
                                countTrumps(self.hands[s], POVERTY, rules) > 1
                                and rules.flag("throw with one trump")):
                            continue   # FREEDOKO: only a thrown poverty goes before a solo
                        self.gameType, self.soloplayer, self.selector = POVERTY, s, None
                        self._setOrder()
                        self._swinesFromReservations()
                        trumps = countTrumps(self.hands[s], POVERTY, rules)
                        if not rules.flag("poverty shift") or (
                                trumps <= 1 and rules.flag("throw with one trump")):
                            self._redeal(POVERTY)
                            return
                        self.teams[s] = RE
                        self.phase = POVERTY_SHIFT
                        self.turn = s
                        self.events.append(Event("gametype", {"gametype": POVERTY,
                                                              "soloplayer": s}))
                        return
        if gameType != MARRIAGE:
            self.selector = None
        if gameType == NORMAL:
            for s in range(PLAYERS):
                if self.hands[s].count(CLUB_QUEEN) == 2:
                    gameType, solo = MARRIAGE_SILENT, s
                    break
        self.gameType, self.soloplayer = gameType, solo
        self._setTeams()
        self._startPlay()

    def _setTeams(self) -> None:
        t = self.gameType
        if t == NORMAL:
            self.teams = [RE if CLUB_QUEEN in h else CONTRA for h in self.hands]
        elif t == MARRIAGE:
            self.teams = [RE if s == self.soloplayer else None for s in range(PLAYERS)]
        elif t == POVERTY:
            self.teams = [RE if s in (self.soloplayer, self.povertyAccepter) else CONTRA
                          for s in range(PLAYERS)]
        else:
            self.teams = [RE if s == self.soloplayer else CONTRA for s in range(PLAYERS)]

    def _setOrder(self) -> None:
        self.order = CardOrder.of(self.gameType, self.rules, self.swinesOwner is not None,
                                  self.hyperswinesOwner is not None)

    # -- swines ------------------------------------------------------------

    def _swinesAllowed(self) -> bool:
        t = self.gameType
        if not self.rules.flag("swines"):
            return False
        if t == POVERTY:
            return self.rules.flag("swines in poverty")
        if t in (NORMAL, GENSCHER, MARRIAGE, MARRIAGE_SOLO, MARRIAGE_SILENT):
            return True
        return t in COLOR_SOLI and self.rules.flag("swines in solo")

    def _hyperswinesAllowed(self) -> bool:
        t = self.gameType
        if not self.rules.flag("hyperswines") or not self._swinesAllowed():
            return False
        if isSolo(t) and not self.rules.flag("hyperswines in solo"):
            return False
        return not (t == POVERTY and not self.rules.flag("hyperswines in poverty"))

    def _announceSwines(self, seat: Seat) -> bool:
        color = trumpColor(self.gameType)
        if (color is None or not self._swinesAllowed() or self.swinesOwner == seat
                or self.hands[seat].count(f"{color} ace") != 2):
            return False
        self.swinesOwner = seat
        self._setOrder()
        self.events.append(Event("swines", {"seat": seat}, seat))
        return True

    def _announceHyperswines(self, seat: Seat) -> bool:
        color = trumpColor(self.gameType)
        if color is None or not self._hyperswinesAllowed() or self.hyperswinesOwner == seat:
            return False
        if self.swinesOwner is None or (self.swinesOwner == seat and not self.rules.flag(
                "swines and hyperswines joint")):
            return False
        card = f"{color} nine" if self.rules.flag("with nines") else f"{color} king"
        if self.hands[seat].count(card) != 2:
            return False
        self.hyperswinesOwner = seat
        self._setOrder()
        self.events.append(Event("hyperswines", {"seat": seat}, seat))
        return True

    def _swinesFromReservations(self) -> None:
        """
        FREEDOKO Game::test_swines_from_reservations: a reservation's
        ``swines`` announces them as the game starts if the game's trump
        aces are then both the player's (whatever the game type: another's
        color solo may give them), before the poverty's shift too.
        """
        for s in range(PLAYERS):
            res = self._res(s)
            if res.swines:
                self._announceSwines(s)
            if res.hyperswines:
                self._announceHyperswines(s)

    # -- poverty -------------------------------------------------------------

    def povertyCount(self) -> int:
        assert self.soloplayer is not None
        return povertyCardCount(self.hands[self.soloplayer], self.rules)

    def povertyShift(self, seat: Seat, cards: Sequence[str]) -> None:
        """The poverty player shifts its trumps (and fills up with other cards)."""
        if self.phase != POVERTY_SHIFT or seat != self.turn:
            raise IllegalMove("no poverty shift expected")
        hand = list(self.hands[seat])
        if len(cards) != self.povertyCount() or not _takeFrom(hand, cards):
            raise IllegalMove("wrong poverty cards")
        if any(self.order.isTrump(c) for c in hand):
            raise IllegalMove("every trump must be shifted")
        self.hands[seat] = hand
        self.povertyCards = tuple(cards)
        self.events.append(Event("poverty shift", {"seat": seat, "cards": len(cards)}, seat))
        self.events.append(Event("poverty cards", {"seat": seat, "cards": list(cards)}, seat,
                                 frozenset({seat})))
        self.phase = POVERTY_ANSWER
        self.turn = (seat + 1) % PLAYERS

    def povertyAnswer(self, seat: Seat, accept: bool) -> None:
        if self.phase != POVERTY_ANSWER or seat != self.turn:
            raise IllegalMove("no poverty answer expected")
        assert self.soloplayer is not None
        poor = self.soloplayer
        if not accept:
            self.povertyDenied.append(seat)
            self.events.append(Event("poverty denied", {"seat": seat}, seat))
            nxt = (seat + 1) % PLAYERS
            if nxt != poor:
                self.turn = nxt
                return
            self.events.append(Event("poverty denied by all", {"seat": poor}))
            self.hands[poor].extend(self.povertyCards)
            self._redeal("poverty denied by all")
            return
        if self._res(seat).swines and self.rules.flag("swines announcement begin"):
            self._announceSwines(seat)
        if self._res(seat).hyperswines and self.rules.flag("hyperswines announcement begin"):
            self._announceHyperswines(seat)
        self.povertyAccepter = seat
        self.hands[seat].extend(self.povertyCards)
        self.events.append(Event("poverty accepted", {"seat": seat}, seat))
        self.events.append(Event("poverty cards", {"seat": poor, "cards": list(self.povertyCards)},
                                 seat, frozenset({seat})))
        self.phase = POVERTY_RETURN
        self.turn = seat

    def povertyReturn(self, seat: Seat, cards: Sequence[str]) -> None:
        if self.phase != POVERTY_RETURN or seat != self.turn:
            raise IllegalMove("no poverty return expected")
        assert self.soloplayer is not None
        hand = list(self.hands[seat])
        if len(cards) != len(self.povertyCards) or not _takeFrom(hand, cards):
            raise IllegalMove("wrong cards returned")
        poor = self.soloplayer
        self.hands[seat] = hand
        self.hands[poor].extend(cards)
        self.povertyReturned = tuple(cards)
        trumps = sum(1 for c in cards if self.order.isTrump(c))
        self.events.append(Event("poverty returned", {"seat": seat, "cards": len(cards),
                                                      "trumps": trumps}, seat))
        self.events.append(Event("poverty cards", {"seat": seat, "cards": list(cards)}, seat,
                                 frozenset({seat, poor})))
        if self.swinesOwner == poor:
            self._announceSwines(seat)
        if self.hyperswinesOwner == poor:
            self._announceHyperswines(seat)
        # FREEDOKO: the swines stay with whoever of Re now holds both trump aces
        if self.swinesOwner is not None and self.swinesOwner in (poor, seat):
            color = trumpColor(self.gameType)
            holder = [s for s in range(PLAYERS) if self.hands[s].count(f"{color} ace") == 2]
            if holder:
                if holder[0] != self.swinesOwner:
                    self.swinesOwner = None
                    self._announceSwines(holder[0])
            else:
                self.swinesOwner = None
                self._setOrder()
        self._setTeams()
        self._startPlay()

    # -- play ----------------------------------------------------------------

    def _startPlay(self) -> None:
        self._setOrder()
        if not (self.gameType == POVERTY and self.rules.flag("swines announcement begin")):
            # FREEDOKO: under ``swines announcement begin`` the shifted poverty closes
            # the time for swines (Game::swines_announcement_valid: !poverty_shifted())
            self._swinesFromReservations()
        if self.gameType == MARRIAGE_SILENT and self.soloplayer is not None:
            # a silent marriage is its player's secret: the others see a normal game
            bride = self.soloplayer
            self.events.append(Event("gametype", {"gametype": NORMAL, "soloplayer": None,
                                                  "selector": None},
                                     audience=frozenset(set(range(PLAYERS)) - {bride})))
            self.events.append(Event("gametype", {"gametype": self.gameType,
                                                  "soloplayer": bride, "selector": None},
                                     audience=frozenset({bride})))
        else:
            self.events.append(Event("gametype", {
                "gametype": self.gameType, "soloplayer": self.soloplayer,
                "selector": self.selector}))
        self.phase = PLAYING
        lead = self.startplayer
        if (self.rules.flag("lustsolo player leads") and isSolo(self.gameType)
                and self.soloplayer is not None):
            lead = self.soloplayer
        self.leader = lead
        self.turn = lead
        self.events.append(Event("game start", {"leader": lead}))

    @property
    def isLastTrick(self) -> bool:
        return len(self.tricks) == self.trickCount - 1

    def legalCardsFor(self, seat: Seat) -> tuple[str, ...]:
        if self.phase != PLAYING or seat != self.turn:
            return ()
        # Asked several times a card (the requests, the view, the check of
        # the card played): kept while the hand, the trick and the order
        # stay as they were.
        hand, order = self.hands[seat], self.order
        key = (seat, len(hand), len(self.trick), len(self.tricks))
        cached = self._legal
        if cached is None or cached[0] != key or cached[1] is not order or cached[2] != hand:
            cached = self._legal = (key, order, list(hand), legalCards(order, hand, self.trick))
        return cached[3]

    def genscherPossible(self, seat: Seat, card: str) -> bool:
        """
        FREEDOKO Game::check_for_genscher: with ``genscher``, playing the first
        of both trump kings (not in a solo or a poverty) names a new partner.
        """
        color = trumpColor(self.gameType)
        return (self.rules.flag("genscher") and not isSolo(self.gameType)
                and self.gameType != POVERTY and color is not None
                and card == f"{color} king" and self.hands[seat].count(card) == 2)

    def playCard(self, seat: Seat, card: str, genscher: Seat | None = None) -> None:
        """Play ``card``; ``genscher``: the partner named with the first of two trump kings."""
        if self.phase != PLAYING or seat != self.turn:
            raise IllegalMove("not your turn")
        if card not in self.legalCardsFor(seat):
            raise IllegalMove("card not allowed")
        if genscher is not None:
            if (not self.genscherPossible(seat, card) or genscher == seat
                    or not 0 <= genscher < PLAYERS):
                raise IllegalMove("no genscher")
            self._genscher(seat, genscher)
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.events.append(Event("card", {"seat": seat, "card": card}, seat))
        if len(self.trick) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return
        cards = tuple(self.trick)
        w = trickWinner(self.order, cards, self.isLastTrick)
        winner = (self.leader + w) % PLAYERS
        trick = Trick(self.leader, cards, winner)
        self.tricks.append(trick)
        self.won[winner].extend(cards)
        self.trick = []
        self.leader = winner
        self.turn = winner
        # FREEDOKO Game::evaluatetrick: the marriage and the obliged
        # announcement come before the full trick is told
        self._determineMarriage(trick)
        self._firstTrickThirty(trick)
        self.events.append(Event("trick", trick.asJSON()))
        if len(self.tricks) == self.trickCount:
            self.phase = FINISHED
            self.turn = None
            self.summary = self._summarize()
            self.events.append(Event("game over", self.summary.asJSON()))

    def _genscher(self, seat: Seat, partner: Seat) -> None:
        self.soloplayer = seat
        self.partner = partner
        self.selector = None
        self.teams = [RE if s in (seat, partner) else CONTRA for s in range(PLAYERS)]
        self.gameType = GENSCHER
        self._setOrder()
        # FREEDOKO: every announcement made so far becomes a plain re/contra
        for s in range(PLAYERS):
            if self.announcements[s]:
                self.announcements[s] = [(NO120, self.announcements[s][0][1])]
        self.events.append(Event("genscher", {"seat": seat, "partner": partner}, seat))

    # -- swines during the play ----------------------------------------------

    def _announcedInTime(self, begin: str) -> bool:
        """
        Whether (hyper)swines may be announced now: in the play, unless the
        rule ``begin`` (``swines announcement begin``) holds.  FREEDOKO
        (Game::swines_announcement_valid): under that rule they are announced
        up to GAME_START, before the first trick opens, which only the
        reservation reaches (a ``swines`` of another program's player read
        once the play runs is ignored): so here they come with the
        reservation, announced when the game starts if they are the
        player's then (L{_swinesFromReservations}); with L{swinesAtStart},
        also before the first card.
        """
        if self.phase != PLAYING:
            return False
        return not self.rules.flag(begin) or (self.swinesAtStart and not self.tricks
                                              and not self.trick)

    def swinesValid(self, seat: Seat) -> bool:
        """
        Swines announced in the play (under ``swines announcement begin``
        never, but before the first card with L{swinesAtStart}).
        """
        if not self._announcedInTime("swines announcement begin"):
            return False
        color = trumpColor(self.gameType)
        return (not self.rules.flag("swine only second") and self._swinesAllowed()
                and color is not None and self.swinesOwner != seat
                and self.hands[seat].count(f"{color} ace") == 2)

    def hyperswinesValid(self, seat: Seat) -> bool:
        if not self._announcedInTime("hyperswines announcement begin"):
            return False
        color = trumpColor(self.gameType)
        if color is None or not self._hyperswinesAllowed():
            return False
        card = f"{color} nine" if self.rules.flag("with nines") else f"{color} king"
        return (self.hyperswinesOwner != seat and self.swinesOwner is not None
                and (self.swinesOwner != seat
                     or self.rules.flag("swines and hyperswines joint"))
                and self.hands[seat].count(card) == 2)

    def playButtons(self, seat: Seat) -> int:
        """
        The buttons of ``seat``'s card request in the play: ``min(4,
        len(validAnnouncements(seat))) + swinesValid(seat) +
        hyperswinesValid(seat)``, the swines asked only when they may come.
        """
        count = len(self.validAnnouncements(seat))
        if count > 4:
            count = 4
        if self._swinesInPlay or (self.swinesAtStart and not self.tricks and not self.trick):
            count += self.swinesValid(seat) + self.hyperswinesValid(seat)
        return count

    def announceSwines(self, seat: Seat) -> None:
        if not self.swinesValid(seat):
            raise IllegalMove("no swines")
        self._announceSwines(seat)

    def announceHyperswines(self, seat: Seat) -> None:
        if not self.hyperswinesValid(seat):
            raise IllegalMove("no hyperswines")
        self._announceHyperswines(seat)

    def _determineMarriage(self, trick: Trick) -> None:
        """FREEDOKO Game::determine_marriage, after each full trick."""
        if self.gameType != MARRIAGE or self.selector is None:
            return
        bride = self.soloplayer
        k = len(self.tricks)
        alone = k >= self.rules.number("marriage determination", 12)
        suit = self.order.suit(trick.cards[0])
        selected = _isSelector(suit, self.selector)
        if (self.rules.flag("marriage first one decides") and selected
                and trick.winner == bride):
            alone = True
        if selected and trick.winner != bride:
            self.partner = trick.winner
            self.teams = [RE if s in (bride, trick.winner) else CONTRA for s in range(PLAYERS)]
            self.selector = None
            self.determination = k
            self.events.append(Event("marriage", {"seat": bride, "partner": trick.winner}))
            return
        if not alone:
            suits = {self.order.suit(c) for h in self.hands for c in h}
            left = {
                "first foreign": True,
                "first trump": "trump" in suits,
                "first color": bool(suits & {"club", "spade", "heart"}),
                "first club": "club" in suits, "first spade": "spade" in suits,
                "first heart": "heart" in suits,
            }[self.selector]
            if not left:
                alone = True
        if alone:
            self.determination = k
            self.gameType = MARRIAGE_SOLO
            self._setOrder()
            self.teams = [RE if s == bride else CONTRA for s in range(PLAYERS)]
            self.selector = None
            self.partner = bride
            self.events.append(Event("marriage", {"seat": bride, "partner": bride}))

    def _firstTrickThirty(self, trick: Trick) -> None:
        """FREEDOKO Game::evaluatetrick: 30 points in the first trick of a normal game oblige."""
        rules = self.rules
        if (self.gameType != NORMAL or len(self.tricks) != 1
                or not rules.flag("announcement first trick thirty points")
                or trick.points() < 30):
            return
        team = self.teams[trick.winner]
        if team is None:
            return
        own = self.teamAnnouncement(team)
        if own == NO0:
            return
        if rules.flag("announcement first trick thirty points only first") and (
                self.teamAnnouncement(RE) or self.teamAnnouncement(CONTRA)):
            return
        if (rules.flag("announcement first trick thirty points only re/contra")
                and own != NO_ANNOUNCEMENT):
            return
        nxt = min(own + 1, NO0) if own != REPLY else REPLY
        made = self.announcementValid(trick.winner, nxt)
        if made:
            self._makeAnnouncement(trick.winner, made)

    # -- announcements -----------------------------------------------------------

    def seatAnnouncement(self, seat: Seat) -> int:
        return self.announcements[seat][-1][0] if self.announcements[seat] else NO_ANNOUNCEMENT

    def teamAnnouncement(self, team: str) -> int:
        if self.gameType == MARRIAGE and self.selector is not None and team == CONTRA:
            return NO_ANNOUNCEMENT
        teams, announcements = self.teams, self.announcements
        if not any(announcements):
            return NO_ANNOUNCEMENT
        best = NO_ANNOUNCEMENT
        seat = 0
        for made in announcements:
            if made and teams[seat] == team:
                last = made[-1][0]
                if last > best:
                    best = last
            seat += 1
        return best

    def announcementValid(self, seat: Seat, announcement: int) -> int:
        """
        FREEDOKO Game::announcement_valid (no knocking, no strict limit): the
        announcement ``seat`` would make now (``reply`` for a late re/contra),
        or NO_ANNOUNCEMENT when it may not.
        """
        announcing = self._announcing(seat)
        if announcing is None:
            return NO_ANNOUNCEMENT
        return self._announcementValid(seat, announcement, *announcing, None)

    def _announcing(self, seat: Seat) -> tuple[str, int, int] | None:
        """
        What each announcement of ``seat`` depends on now: its team, the
        team's last announcement, and the cards it holds (a marriage's
        deferral counted in); None when it may make none at all.
        """
        if self.phase != PLAYING:
            return None
        remaining = self.trickCount - len(self.tricks)
        if remaining < self._lastAnnouncement:
            return None
        if self.gameType == MARRIAGE and self.selector is not None:
            return None
        team = self.teams[seat]
        if team is None:
            return None
        last = self.teamAnnouncement(team)
        if last == REPLY:
            return None
        deferral = (self.determination - 1
                    if self.gameType in (MARRIAGE, MARRIAGE_SOLO) and self.determination else 0)
        return team, last, len(self.hands[seat]) + deferral

    def _announcementValid(self, seat: Seat, announcement: int, team: str, last: int,
                           held: int, below: int | None) -> int:
        """
        L{announcementValid} past L{_announcing}; ``below``: what it gives for
        the announcement just below, when known (L{validAnnouncements} asks
        them in order).
        """
        if announcement == REPLY:
            announcement = NO120
        if last >= announcement:
            return NO_ANNOUNCEMENT
        limits = self._limits
        valid = held >= limits[announcement]
        if not valid and announcement == NO120:
            announcement = REPLY
        if announcement == REPLY:
            if not self._replies or last != NO_ANNOUNCEMENT:
                return NO_ANNOUNCEMENT
            opposite = self.teamAnnouncement(_opposite(team))
            if held + 1 >= limits.get(opposite, 10**6):
                return REPLY
            return NO_ANNOUNCEMENT
        if announcement > NO120 and last != announcement - 1 and valid:
            if below is None:
                below = self._announcementValid(seat, announcement - 1, team, last, held, None)
            valid = below == announcement - 1
        return announcement if valid else NO_ANNOUNCEMENT

    def validAnnouncements(self, seat: Seat) -> tuple[int, ...]:
        # L{_announcing} and L{_announcementValid} inline for the cases of
        # most steps: too late for any, or for all but a reply.
        team = self.teams[seat]
        if (self.phase != PLAYING or team is None
                or self.trickCount - len(self.tricks) < self._lastAnnouncement):
            return ()
        gameType = self.gameType
        if gameType == MARRIAGE and self.selector is not None:
            return ()
        # L{teamAnnouncement} of both teams in one pass
        last = opposite = NO_ANNOUNCEMENT
        announcements = self.announcements
        if any(announcements):
            teams = self.teams
            other = _opposite(team)
            s = 0
            for said in announcements:
                if said:
                    if teams[s] == team:
                        if said[-1][0] > last:
                            last = said[-1][0]
                    elif teams[s] == other and said[-1][0] > opposite:
                        opposite = said[-1][0]
                s += 1
        if last == REPLY:
            return ()
        held = len(self.hands[seat])
        if self.determination and gameType in (MARRIAGE, MARRIAGE_SOLO):
            held += self.determination - 1
        limits = self._limits
        if last == NO_ANNOUNCEMENT and held < limits[NO120]:
            # Too late for re or contra, so for every announcement above it
            # (each needs the one below): a reply, at most.
            if not self._replies:
                return ()
            return (REPLY,) if held + 1 >= limits.get(opposite, 10**6) else ()
        announcing = (team, last, held)
        found = []
        made: int | None = None
        for a in (NO120, NO90, NO60, NO30, NO0):
            made = self._announcementValid(seat, a, *announcing, made)
            if made and made not in found:
                found.append(made)
        return tuple(found)

    def announce(self, seat: Seat, announcement: int) -> int:
        made = self.announcementValid(seat, announcement)
        if not made:
            raise IllegalMove("announcement not allowed now")
        self._makeAnnouncement(seat, made)
        return made

    def _makeAnnouncement(self, seat: Seat, made: int) -> None:
        self.announcements[seat].append((made, len(self.tricks)))
        self.events.append(Event("announcement", {"seat": seat, "announcement": ANNOUNCEMENTS[made],
                                                  "team": self.teams[seat]}, seat))

    # -- the score -------------------------------------------------------------

    def hasTrick(self, team: str) -> bool:
        return any(self.teams[t.winner] == team for t in self.tricks)

    def winnerTeam(self, re: int, contra: int) -> str | None:
        """FREEDOKO Game::winnerteam (no strict limit: re/contra calls are no bids)."""
        bidRe, bidContra = self.teamAnnouncement(RE), self.teamAnnouncement(CONTRA)
        if bidContra == NO120 and bidRe == NO_ANNOUNCEMENT:
            return RE if re >= 120 else CONTRA
        if bidRe in (NO120, REPLY):
            bidRe = NO_ANNOUNCEMENT
        if bidContra in (NO120, REPLY):
            bidContra = NO_ANNOUNCEMENT
        if bidRe == NO_ANNOUNCEMENT and bidContra == NO_ANNOUNCEMENT:
            return RE if re > 120 else CONTRA
        limits = {NO90: 90, NO60: 60, NO30: 30}
        if (bidRe in limits and contra < limits[bidRe]) or (
                bidRe == NO0 and not self.hasTrick(CONTRA)):
            return RE
        if (bidContra in limits and re < limits[bidContra]) or (
                bidContra == NO0 and not self.hasTrick(RE)):
            return CONTRA
        if not bidRe:
            return RE
        if not bidContra:
            return CONTRA
        return None

    def _highest(self, team: str) -> int:
        """GameSummary's highest announcement of a team: the highest last announcement."""
        return max((self.seatAnnouncement(s) for s in range(PLAYERS)
                    if self.teams[s] == team), default=NO_ANNOUNCEMENT)

    def _trickSpecials(self) -> list[Special]:
        """FREEDOKO Trick::specialpoints: doppelkopf, foxes, charlie."""
        rules = self.rules
        found: list[Special] = []
        for no, trick in enumerate(self.tricks):
            if isSolo(self.gameType) and not (self.gameType == MARRIAGE_SOLO
                                              and no < self.determination):
                continue
            team = self.teams[trick.winner]
            last = no == self.trickCount - 1
            if trick.points() >= 40:
                found.append(Special("Doppelkopf", team, 1, trick.winner))
            caughtCharlie = False
            winnerCard = trick.cards[_winnerIndex(trick)]
            for i, card in enumerate(trick.cards):
                owner = trick.seatOf(i)
                if team is not None and self.teams[owner] == team:
                    continue
                if (self.order.isFox(card) and rules.flag("extrapoint catch fox")
                        and owner != trick.winner):
                    found.append(Special("caught fox", team, 1, trick.winner))
                    if last and rules.flag("extrapoint catch fox last trick"):
                        found.append(Special("caught fox last trick", team, 1, trick.winner))
                if (last and card == CHARLIE and not caughtCharlie
                        and rules.flag("extrapoint catch charlie")
                        and (not rules.flag("extrapoint catch charlie only with diamond queen")
                             or winnerCard == "diamond queen")):
                    caughtCharlie = True
                    found.append(Special("caught charlie", team, 1, trick.winner))
            if (rules.flag("extrapoint dolle jabs dolle") and winnerCard == DOLLE
                    and self.order.hasDollen):
                for i, card in enumerate(trick.cards):
                    if (i != _winnerIndex(trick) and card == DOLLE
                            and self.teams[trick.seatOf(i)] != team):
                        found.append(Special("dolle caught dolle", team, 1, trick.winner))
            if (rules.flag("extrapoint heart trick") and self.gameType in NORMAL_FAMILY
                    and self.order.suit(winnerCard) == "heart"
                    and all(self.order.suit(c) == "heart" for c in trick.cards)):
                found.append(Special("heart trick", team, 1, trick.winner))
            if last and self.order.isFox(winnerCard) and rules.flag("extrapoint fox last trick"):
                found.append(Special("fox last trick", team, 1, trick.winner))
            if last and winnerCard == CHARLIE and rules.flag("extrapoint charlie"):
                found.append(Special("charlie", team, 1, trick.winner))
        return found

    def _summarize(self) -> GameSummary:
        """FREEDOKO GameSummary::evaluate and Sum_of_Specialpoints."""
        rules = self.rules
        teams = tuple(t if t is not None else CONTRA for t in self.teams)
        self.teams = list(teams)
        trickPoints = tuple(countPoints(w) for w in self.won)
        re = sum(p for p, t in zip(trickPoints, teams) if t == RE)
        contra = 240 - re
        points = {RE: re, CONTRA: contra}
        winner = self.winnerTeam(re, contra)
        highest = {RE: self._highest(RE), CONTRA: self._highest(CONTRA)}
        specials: list[Special] = []
        played = {RE: 0, CONTRA: 0}
        said = {RE: 0, CONTRA: 0}
        extra = {RE: 0, CONTRA: 0}
        multiplier = 1

        def real(a: int) -> bool:
            return NO120 <= a <= NO0

        if winner is not None:
            specials.append(Special("won", winner))
            played[winner] += 1
        doubles = rules.flag("announcement re/contra doubles")
        for limit, got, ann in ((90, 120, NO90), (60, 90, NO60), (30, 60, NO30), (0, 30, NO0)):
            for team in (CONTRA, RE):
                other = _opposite(team)
                # the other team got less than ``limit`` (no trick for schwarz)
                short = (not self.hasTrick(other)) if limit == 0 else points[other] < limit
                if short and winner != other:
                    specials.append(Special(f"no {limit}", team))
                    played[team] += 1
            if winner is not None:
                for team in (RE, CONTRA):
                    if real(highest[team]) and highest[team] >= ann:
                        specials.append(Special(f"no {limit} said", winner))
                        said[winner] += 1
            for team in (RE, CONTRA):
                other = _opposite(team)
                if highest[other] == ann and points[team] >= limit + 30:
                    specials.append(Special(f"got {got} against no {limit}", team))
                    played[team] += 1
        if winner is not None:
            # re and contra (a reply too) double the game (``announcement re/contra doubles``)
            for team in (RE, CONTRA):
                if real(highest[team]) or highest[team] == REPLY:
                    specials.append(Special("no 120 said", winner, 2))
                    if doubles:
                        multiplier *= 2
                    else:
                        said[winner] += 2
        if not isSolo(self.gameType) and winner == CONTRA:
            # against the club queens ("gegen die Alten")
            specials.append(Special("contra won", CONTRA))
            if rules.flag("announcement contra doubles against re"):
                played[CONTRA] += 1
            else:
                extra[CONTRA] += 1
        solo = isSolo(self.gameType)
        if solo and (rules.flag("solo always counts triple") or winner == RE):
            specials.append(Special("solo", winner, 3, self.soloplayer))
        for special in self._trickSpecials():
            specials.append(special)
            extra[RE if special.team == RE else CONTRA] += special.value
        if winner == RE:
            total = (played[RE] + said[RE] - played[CONTRA]) * multiplier + extra[RE] - extra[CONTRA]
        elif winner == CONTRA:
            total = ((played[CONTRA] + said[CONTRA] - played[RE]) * multiplier
                     + extra[CONTRA] - extra[RE])
        else:
            total = (played[RE] - played[CONTRA]) * multiplier + extra[RE] - extra[CONTRA]
        if self.bock != 1:
            specials.append(Special("bock", None, self.bock))
        total *= self.bock
        # zero-sum scores: the Re side's value, a solo three times for the soloist
        reValue = total if winner in (RE, None) else -total
        scores = []
        for s in range(PLAYERS):
            if solo:
                scores.append(3 * reValue if s == self.soloplayer else -reValue)
            else:
                scores.append(reValue if teams[s] == RE else -reValue)
        fd = tuple(self._freedokoPoints(teams[s], total, winner, solo) for s in range(PLAYERS))
        triggers = []
        if rules.flag("bock"):
            if rules.flag("bock after 120-120") and re == contra:
                triggers.append("equal points")
            if rules.flag("bock after lost solo") and solo and winner == CONTRA:
                triggers.append("solo lost")
            if rules.flag("bock after lost re/contra"):
                if self.teamAnnouncement(RE) and winner != RE:
                    triggers.append("re lost")
                if self.teamAnnouncement(CONTRA) and winner != CONTRA:
                    triggers.append("contra lost")
            if rules.flag("bock after heart trick") and not solo and any(
                    all(self.order.suit(c) == "heart" for c in t.cards) for t in self.tricks):
                triggers.append("heart trick")
            if rules.flag("bock after black game") and (
                    not self.hasTrick(RE) or not self.hasTrick(CONTRA)):
                triggers.append("black")
        return GameSummary(
            seed=self.seed, startplayer=self.startplayer, gameType=self.gameType,
            soloplayer=self.soloplayer, teams=teams, trickPoints=trickPoints, winner=winner,
            points=total, specials=tuple(specials),
            announcements=tuple(self.seatAnnouncement(s) for s in range(PLAYERS)),
            bock=self.bock, scores=tuple(scores), freedokoPoints=fd,
            bockTriggers=tuple(triggers))

    def _freedokoPoints(self, team: str, total: int, winner: str | None, solo: bool) -> int:
        """FREEDOKO GameSummary::points(team) with ``counting = plus`` (the default)."""
        counting = self.rules.value("counting", "plus")
        if winner is None:
            gets = (total > 0 and team == RE) or (total < 0 and team == CONTRA)
        else:
            gets = team == winner
        if counting == "plusminus":
            gets = True
        if not gets:
            return 0
        triple = solo and (self.rules.flag("solo always counts triple") or winner == RE)
        if counting == "minus":
            if triple:
                return -3 * total
            return total if winner is None and team == RE else -total
        if counting == "plusminus":
            if solo:
                if winner == RE:
                    return 3 * total if team == RE else -total
                return total if team == winner else -3 * total
            sign = 1 if (team == winner or (winner is None and team == RE)) else -1
            return sign * total
        if triple:
            return 3 * total
        if winner is None and team == CONTRA:
            return -total
        return total

    # -- for tests and tools ---------------------------------------------------

    def cardsInPlay(self) -> list[str]:
        """Every card of the game: hands, the trick on the table, the tricks won, shifted cards."""
        cards = [c for h in self.hands for c in h] + list(self.trick)
        cards += [c for w in self.won for c in w]
        if self.phase == POVERTY_ANSWER:
            cards += self.povertyCards
        return cards


def _winnerIndex(trick: Trick) -> int:
    return (trick.winner - trick.leader) % PLAYERS


def _isSelector(suit: str, selector: str) -> bool:
    """FREEDOKO is_selector: whether a trick led with ``suit`` can decide the marriage."""
    return {
        "first foreign": True, "first trump": suit == "trump",
        "first color": suit != "trump", "first club": suit == "club",
        "first spade": suit == "spade", "first heart": suit == "heart",
    }.get(selector, False)


def _takeFrom(hand: list[str], cards: Sequence[str]) -> bool:
    """Remove ``cards`` from ``hand`` (in place) if it holds them all; else leave it."""
    rest = list(hand)
    for c in cards:
        if c not in rest:
            return False
        rest.remove(c)
    hand[:] = rest
    return True


class IllegalMove(ValueError):
    """A move the rules refuse now."""


# -- the party: one engine game -------------------------------------------------

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("players", "int", "number of players (always 4)", 4, 4, 4),
    Parameter("startplayer", "int", "the party's first startplayer, FreeDoko player 0..3",
              0, 0, 3),
    Parameter("rounds", "int",
              "rounds to play (a round: each seat starts once); 0: the rules' number of rounds",
              0, 0, 1000),
    Parameter("rules", "string",
              "FreeDoko rules, its rule-file lines 'name = value' and '#' comments "
              "(empty: FreeDoko's defaults)",
              ""),
)

OVER = "over"
_ACTION_PHASES = {
    "reservation": RESERVING, "poverty shift": POVERTY_SHIFT,
    "poverty accepted": POVERTY_ANSWER, "poverty returned": POVERTY_RETURN, "card": PLAYING,
}


@attrs.frozen
class DoppelkopfView:
    """
    What one seat may know of the party: its own hand, never another's.

    - ``phase``: ``reservation``, ``poverty shift``, ``poverty answer``,
      ``poverty return``, ``play`` or ``over`` (the party is over).
    - ``turn``: the seat whose move is awaited (None when the party is over).
    - ``reservations``: by seat, the wire form of what each reserved (public
      in FreeDoko), None before it spoke.
    - ``gameType``/``soloplayer``: once decided (None during the reservations).
    - ``teams``: by seat, what this seat knows: its own team, the others'
      once shown (a club queen played, an announcement, a solo, a marriage
      or a poverty decided), else None.
    - ``trick``: the cards of the trick on the table, in play order from
      ``leader``; ``lastTrick`` the previous full trick.
    - ``announcements``: by seat, its last announcement (wire name);
      ``validAnnouncements``: what this seat may announce now.
    - ``povertyCards``: the shifted (or returned) cards, to the seats that held them.
    - ``totals``: zero-sum party scores; ``lastSummary``: the last game's score.
    """

    seat: Seat
    phase: str
    gameNumber: int
    startplayer: Seat
    turn: Seat | None
    hand: tuple[str, ...]
    legalCards: tuple[str, ...]
    reservations: tuple[str | None, ...]
    gameType: str | None
    soloplayer: Seat | None
    selector: str | None
    teams: tuple[str | None, ...]
    trick: tuple[str, ...]
    leader: Seat
    lastTrick: Trick | None
    tricksPlayed: int
    trickPoints: tuple[int, ...]
    announcements: tuple[str, ...]
    validAnnouncements: tuple[str, ...]
    swinesOwner: Seat | None
    hyperswinesOwner: Seat | None
    povertyCount: int
    povertyCards: tuple[str, ...] | None
    playedCards: tuple[str, ...]
    totals: tuple[int, ...]
    lastSummary: dict[str, JSON] | None
    rules: Rules = attrs.field(eq=False, repr=False, default=_DEFAULT_RULES)

    @property
    def order(self) -> CardOrder:
        return _viewOrder(self.gameType, self.rules, self.swinesOwner, self.hyperswinesOwner)


def _viewOrder(gameType: str | None, rules: Rules, swinesOwner: Seat | None,
               hyperswinesOwner: Seat | None) -> CardOrder:
    """The card order a seat knows: of the game type it is shown (normal before one is)."""
    return CardOrder.of(gameType or NORMAL, rules, swinesOwner is not None,
                        hyperswinesOwner is not None)


class BotView(Protocol):
    """What L{doppelkopfBot} reads of a seat's view: a L{DoppelkopfView} or a L{SeatView}."""

    @property
    def seat(self) -> Seat: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> Seat | None: ...
    @property
    def hand(self) -> tuple[str, ...]: ...
    @property
    def legalCards(self) -> tuple[str, ...]: ...
    @property
    def gameType(self) -> str | None: ...
    @property
    def teams(self) -> tuple[str | None, ...]: ...
    @property
    def trick(self) -> Sequence[str]: ...
    @property
    def leader(self) -> Seat: ...
    @property
    def tricksPlayed(self) -> int: ...
    @property
    def trickPoints(self) -> tuple[int, ...]: ...
    @property
    def validAnnouncements(self) -> tuple[str, ...]: ...
    @property
    def povertyCount(self) -> int: ...
    @property
    def playedCards(self) -> tuple[str, ...]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def order(self) -> CardOrder: ...


_UNSET: Any = object()


class SeatView:
    """
    A seat's L{DoppelkopfView} for the bot, read from the party only as the
    bot asks (a card's decision reads a few of the view's fields): each field
    is what L{DoppelkopfParty.view} gives, from the same methods.  Valid
    until the party moves on; never shown to anybody (the page, the JSON
    protocol and the records take the full view).
    """

    __slots__ = ("_party", "_game", "seat", "rules", "phase", "turn", "_hand", "_teams",
                 "_gameType", "_order", "_trick", "_played")

    def __init__(self, party: DoppelkopfParty, seat: Seat) -> None:
        self._party = party
        game = self._game = party.game
        self.seat = seat
        self.rules = party.rules
        self.phase = party.phase
        self.turn: Seat | None = None if party.over else game.turn
        self._hand: tuple[str, ...] = _UNSET
        self._teams: tuple[str | None, ...] = _UNSET
        self._gameType: str | None = _UNSET
        self._order: CardOrder = _UNSET
        self._trick: tuple[str, ...] = _UNSET
        self._played: tuple[str, ...] = _UNSET

    @property
    def hand(self) -> tuple[str, ...]:
        if self._hand is _UNSET:
            self._hand = tuple(self._party._sorted(self.seat))
        return self._hand

    @property
    def legalCards(self) -> tuple[str, ...]:
        return self._party.legalCardsFor(self.seat)

    @property
    def gameType(self) -> str | None:
        if self._gameType is _UNSET:
            self._gameType = self._party._shownGameType(self.seat)[0]
        return self._gameType

    @property
    def teams(self) -> tuple[str | None, ...]:
        if self._teams is _UNSET:
            self._teams = self._party.knownTeams(self.seat)
        return self._teams

    @property
    def trick(self) -> Sequence[str]:
        if self._trick is _UNSET:
            self._trick = tuple(self._game.trick)
        return self._trick

    @property
    def leader(self) -> Seat:
        return self._game.leader

    @property
    def tricksPlayed(self) -> int:
        return len(self._game.tricks)

    @property
    def trickPoints(self) -> tuple[int, ...]:
        return self._party._viewParts()[1]

    @property
    def validAnnouncements(self) -> tuple[str, ...]:
        return self._party._shownAnnouncements(self.seat)

    @property
    def povertyCount(self) -> int:
        return len(self._game.povertyCards)

    @property
    def playedCards(self) -> tuple[str, ...]:
        if self._played is _UNSET:
            self._played = self._party._viewParts()[0]
        return self._played

    @property
    def order(self) -> CardOrder:
        if self._order is _UNSET:
            game = self._game
            gameType = self.gameType
            if game.phase == PLAYING and gameType == game.gameType:
                # the game's own order, made by the same call (L{DoppelkopfGame._setOrder})
                self._order = game.order
            else:
                self._order = _viewOrder(gameType, self.rules, game.swinesOwner,
                                         game.hyperswinesOwner)
        return self._order


WIDTH, HEIGHT = 600, 720
"""Upright, so that a phone held upright shows cards large enough to read and tap."""
CARD_W, CARD_H = 80, 92
"""A card of the hand (rows of at most 7; narrower when a poverty gives more)."""
HAND_Y, HAND_ROW, HAND_MARGIN = 528, 96, 6
TRICK_W, TRICK_H = 64, 84
"""A card on the table."""
BUTTON_Y, BUTTON_W, BUTTON_H, BUTTON_GAP, BUTTONS_PER_ROW = 476, 88, 44, 8, 6
"""The first row of buttons; further rows go up, over the table."""
CARDS_REGEX = r"^\s*[a-z]+ [a-z]+(\s*,\s*[a-z]+ [a-z]+)*\s*$"
RESERVATION_REGEX = r"^\s*[a-z -]+(,\s*[a-z ]+)*\s*$"
_INK, _DIM, _GOLD, _FELT = "#ffffff", "#bbf7d0", "#facc15", "#1f5f3f"


@functools.lru_cache(maxsize=64)
def _buttonZones(count: int) -> tuple[Zone, ...]:
    """``count`` buttons, six a row from the bottom row up (made once: zones are frozen)."""
    return tuple(Zone(16 + (i % BUTTONS_PER_ROW) * (BUTTON_W + BUTTON_GAP),
                      BUTTON_Y - (i // BUTTONS_PER_ROW) * (BUTTON_H + 4), BUTTON_W, BUTTON_H)
                 for i in range(count))


def handPlaces(count: int) -> tuple[Zone, ...]:
    """Where each of ``count`` cards of a hand is drawn, in order: centred rows."""
    if count < len(_HAND_PLACES):
        return _HAND_PLACES[count]
    return _handPlaces(count)


def _handPlaces(count: int) -> tuple[Zone, ...]:
    if count == 0:
        return ()
    rows = 1 if count <= 7 else 2 if count <= 16 else 3
    per = -(-count // rows)
    step = min(CARD_W + 4, (WIDTH - 2 * HAND_MARGIN) // per)
    rowStep = min(HAND_ROW, (HEIGHT - HAND_Y - 4) // rows)
    left = (WIDTH - per * step + 4) / 2
    return tuple(Zone(left + (i % per) * step, HAND_Y + (i // per) * rowStep, step - 4,
                      rowStep - 4) for i in range(count))


_HAND_PLACES = tuple(_handPlaces(count) for count in range(25))
"""The places of hands of 0..24 cards, made once (zones are frozen)."""


_PLAY_REQUESTS: dict[tuple[Seat, int, tuple[int, ...] | None, int], RequestedAction] = {}
"""L{DoppelkopfParty._playRequest}'s requests, by seat, hand size, lit places and buttons."""

_ASK_REQUESTS: dict[tuple[str, Seat, int], tuple[RequestedAction, ...]] = {}
"""
The requests of a reservation and of a poverty answer, by phase, seat and
number of buttons (L{DoppelkopfParty._askRequest}; a few dozen at most).
"""


@functools.lru_cache(maxsize=64)
def _reservationRules(rules: Rules) -> tuple[bool, bool, bool, tuple[tuple[bool, int], ...], int]:
    """
    What L{_reservationCount} reads of ``rules``: normal with swines offered,
    a marriage's selector, a poverty, each throw (nines, kings, both)
    allowed with its least count, and how many soli are allowed.
    """
    return (rules.flag("swines") and rules.flag("swines announcement begin"),
            any(rules.flag(SELECTOR_RULES[x]) for x in SELECTORS),
            rules.flag("poverty"),
            tuple((ruleAllows(rules, kind), rules.number(rule, least)) for kind, rule, least in (
                (THROWN_NINES, "min number of throwing nines", 5),
                (THROWN_KINGS, "min number of throwing kings", 5),
                (THROWN_NINES_AND_KINGS, "min number of throwing nines and kings", 7))),
            sum(1 for solo in REAL_SOLI if ruleAllows(rules, solo)))


def _reservationCount(hand: Sequence[str], rules: Rules) -> int:
    """
    ``len(party._reservationsOffered(seat, counting=True))`` for ``hand``:
    the reservations offered, counted without making them.
    """
    swines, marriage, poverty, throws, soli = _reservationRules(rules)
    count = 1 + soli
    if swines and hand.count("diamond ace") == 2:
        count += 1
    if marriage and hand.count(CLUB_QUEEN) == 2:
        count += 1
    if poverty and hasPoverty(hand, rules):
        count += 1
    values = _VALUE_OF
    nines = kings = 0
    for c in hand:
        value = values[c]
        if value == "nine":
            nines += 1
        elif value == "king":
            kings += 1
    (ninesAllowed, leastNines), (kingsAllowed, leastKings), (bothAllowed, leastBoth) = throws
    count += ((ninesAllowed and nines >= leastNines) + (kingsAllowed and kings >= leastKings)
              + (bothAllowed and nines + kings >= leastBoth))
    return count


class DoppelkopfParty:
    """
    A FreeDoko party under the engine contract: games follow each other, the
    startplayer moving on (not after a lust solo) and the seed 49 steps on,
    until the rounds are played.  Deterministic from the party seed
    (``initvalues``), the parameters and the actions.

    Actions (FreeDoko's gameplay-action keywords):
    ``{"reservation": "marriage, first foreign, swines"}`` (or a dict with
    ``type``, ``selector``, ``swines``, ``hyperswines``),
    ``{"poverty shift": [cards]}``, ``{"poverty accepted": true|false}``,
    ``{"poverty returned": [cards]}``, ``{"announcement": "no 120"}`` (any
    seat, whenever the rules allow it, during the play), ``{"card": "club queen"}``
    (``{"card": "diamond king", "genscher": 2}``: the first of both trump kings,
    naming a partner, with ``genscher``), ``{"swines": true}`` and
    ``{"hyperswines": true}`` (in the play, without ``swines announcement
    begin``; under it they come with the reservation).
    """

    players = PLAYERS

    def __init__(self, params: Mapping[str, JSON], seed: int, *,
                 swinesAtStart: bool = False) -> None:
        self.params: Mapping[str, JSON] = dict(params)
        self.swinesAtStart = swinesAtStart
        """Each game's L{DoppelkopfGame.swinesAtStart}."""
        self.seed = seed % SEED_LIMIT
        self.initvalues: Mapping[str, JSON] = {"seed": self.seed}
        self.rules = Rules.parse(str(params.get("rules") or ""))
        self.firstStartplayer = int(params.get("startplayer") or 0)
        rounds = int(params.get("rounds") or 0)
        if rounds:
            self.rounds: int | None = rounds
        elif self.rules.flag("number of rounds limited"):
            self.rounds = max(1, self.rules.number("number of rounds", 20))
        else:
            self.rounds = None
        self.startplayer = self.firstStartplayer
        self.round = 0
        self.summaries: list[GameSummary] = []
        self.totals = [0] * PLAYERS
        self.freedokoTotals = [0] * PLAYERS
        self.bockMultipliers: list[int] = []
        self.over = False
        self._events: list[Event] = [Event("party start", {
            "startplayer": self.firstStartplayer, "rounds": self.rounds})]
        self._stamp = 0
        self._hands: dict[Seat, tuple[tuple[int, ...], list[str]]] = {}
        self._viewCache: tuple[Any, ...] | None = None
        self._queens: tuple[DoppelkopfGame, int, frozenset[Seat]] | None = None
        """What L{_viewParts} made last: for which game and tricks, and for which summary."""
        self._newGame()
        self._lastEvents = tuple(self._events)
        self._events = []
        self._words = ""

    # -- the party ---------------------------------------------------------------

    def _newGame(self) -> None:
        bock = self.bockMultipliers[0] if self.bockMultipliers else 1
        self.game = DoppelkopfGame(self.rules, self.seed, self.startplayer,
                                   [s.seed for s in self.summaries], bock,
                                   swinesAtStart=self.swinesAtStart)
        self._events.append(Event("game", {"number": len(self.summaries),
                                           "startplayer": self.startplayer,
                                           "round": self.round, "bock": bock}))
        self._collect()

    def _collect(self) -> None:
        self._events.extend(self.game.events)
        self.game.events = []

    def _gameFinished(self) -> None:
        summary = self.game.summary
        assert summary is not None
        self.summaries.append(summary)
        for s in range(PLAYERS):
            self.totals[s] += summary.scores[s]
            self.freedokoTotals[s] += summary.freedokoPoints[s]
        stays = summary.startplayerStays
        if self.bockMultipliers and not stays:
            self.bockMultipliers.pop(0)
        if summary.bockTriggers:
            multiplier = self.rules.number("bock multiplier", 2)
            for g in range(PLAYERS):
                if self.rules.flag("append bock"):
                    self.bockMultipliers.append(multiplier)
                elif g < len(self.bockMultipliers):
                    self.bockMultipliers[g] *= multiplier
                else:
                    self.bockMultipliers.append(multiplier)
        self._events.append(Event("party scores", {"totals": list(self.totals),
                                                   "freedoko": list(self.freedokoTotals)}))
        if not stays:
            self.startplayer = (self.startplayer + 1) % PLAYERS
        self.seed = seedNext(summary.seed, [s.seed for s in self.summaries])
        if self.startplayer == self.firstStartplayer and not stays:
            self.round += 1
            if self.rounds is not None and self.round >= self.rounds:
                self._partyOver("played")
                return
            self._events.append(Event("round", {"round": self.round}))
        self._newGame()

    def _partyOver(self, reason: str) -> None:
        self.over = True
        self._events.append(Event("party over", {"reason": reason, "totals": list(self.totals),
                                                 "freedoko": list(self.freedokoTotals)}))

    # -- requests ------------------------------------------------------------

    @property
    def phase(self) -> str:
        return OVER if self.over else self.game.phase

    def waitingFor(self) -> tuple[Seat, ...]:
        if self.over or self.game.turn is None:
            return ()
        return (self.game.turn,)

    def legalCardsFor(self, seat: Seat) -> tuple[str, ...]:
        if self.over:
            return ()
        return self.game.legalCardsFor(seat)

    def _sortedHand(self, seat: Seat) -> list[str]:
        """``seat``'s hand in the game's card order, sorted once a step."""
        return list(self._sorted(seat))

    def _sorted(self, seat: Seat) -> list[str]:
        """L{_sortedHand} itself, kept for the step: read it, do not change it."""
        hand = self.game.hands[seat]
        key = (self._stamp, seat, id(hand), len(hand))
        cached = self._hands.get(seat)
        if cached is None or cached[0] != key:
            cached = self._hands[seat] = (key, sortHand(self.game.order, hand))
        return cached[1]

    def _handZones(self, seat: Seat) -> list[tuple[Zone, str]]:
        """Each card of ``seat``'s hand, sorted, with its place on the display."""
        hand = self._sortedHand(seat)
        return list(zip(handPlaces(len(hand)), hand))

    def choices(self, seat: Seat, suggest: bool = True) -> list[tuple[str, JSON]]:
        """
        The buttons ``seat`` is offered now, as (label, action), in the order
        of L{_buttonZones}: the reservations its hand allows (the bot's
        suggestion first), the poverty's answers, the suggested cards to
        shift or give back, the announcements and swines it may make.
        Without ``suggest``, the bot's suggestions are left out (None): only
        the number of buttons is wanted.
        """
        game = self.game
        if self.over or seat != game.turn:
            return []
        rules = self.rules
        phase = game.phase
        if phase == RESERVING:
            hand = game.hands[seat]
            offered = self._reservationsOffered(seat)
            first: tuple[str, JSON] = ("\u2605", None)
            if suggest:
                suggested = botReservation(hand, rules)
                first = ("\u2605 " + _reservationLabel(suggested),
                         {"reservation": suggested.wire()})
            return [first] + [(_reservationLabel(r), {"reservation": r.wire()}) for r in offered]
        if phase == POVERTY_ANSWER:
            return [("take it", {"poverty accepted": True}),
                    ("refuse", {"poverty accepted": False})]
        if phase in (POVERTY_SHIFT, POVERTY_RETURN):
            return [("suggested", self.botAction(seat) if suggest else None)]
        if phase != PLAYING:
            return []
        team = game.teams[seat]
        found: list[tuple[str, JSON]] = []
        for name in [ANNOUNCEMENTS[a] for a in self._validAnnouncements(seat)][:4]:
            found.append((announcementWords(name, team), {"announcement": name}))
        if game.swinesValid(seat):
            found.append(("swines", {"swines": True}))
        if game.hyperswinesValid(seat):
            found.append(("hyperswines", {"hyperswines": True}))
        return found

    def _reservationsOffered(self, seat: Seat, counting: bool = False) -> list[Reservation]:
        """
        The reservations ``seat``'s hand allows, in the order of its buttons
        (after the bot's suggestion): normal, normal with swines, marriage,
        poverty, the throws, the soli.  ``counting``: only their number is
        wanted, so whether a color solo comes with swines is not asked.
        """
        rules = self.rules
        hand = self.game.hands[seat]
        offered = [Reservation()]
        if (rules.flag("swines") and rules.flag("swines announcement begin")
                and hand.count("diamond ace") == 2):
            offered.append(Reservation(NORMAL, None, True))
        if hand.count(CLUB_QUEEN) == 2:
            selectors = [x for x in SELECTORS if rules.flag(SELECTOR_RULES[x])]
            if selectors:
                offered.append(Reservation(MARRIAGE, selectors[0]))
        if hasPoverty(hand, rules):
            offered.append(Reservation(POVERTY))
        for kind, value, rule, least in (
                (THROWN_NINES, ("nine",), "min number of throwing nines", 5),
                (THROWN_KINGS, ("king",), "min number of throwing kings", 5),
                (THROWN_NINES_AND_KINGS, ("nine", "king"),
                 "min number of throwing nines and kings", 7)):
            if (ruleAllows(rules, kind)
                    and sum(valueOf(c) in value for c in hand) >= rules.number(rule, least)):
                offered.append(Reservation(kind))
        # a color solo with both its aces: with swines, announced as it starts
        begin = not counting and rules.flag("swines announcement begin")
        offered += [Reservation(solo, None, begin and solo in COLOR_SOLI
                                and swinesPossible([c for c in hand if c.startswith(
                                    solo.split(" ")[1] + " ")], rules))
                    for solo in REAL_SOLI if ruleAllows(rules, solo)]
        return offered

    def _buttonCount(self, seat: Seat) -> int:
        """``len(self.choices(seat))``, cheaply: the requests of every step want it."""
        game = self.game
        phase = game.phase
        if phase == PLAYING:
            return game.playButtons(seat)
        if phase == POVERTY_ANSWER:
            return 2
        if phase in (POVERTY_SHIFT, POVERTY_RETURN):
            return 1
        if phase == RESERVING and not self.over and seat == game.turn:
            return 1 + _reservationCount(game.hands[seat], self.rules)
        return len(self.choices(seat, suggest=False))

    def _validAnnouncements(self, seat: Seat) -> tuple[int, ...]:
        return self.game.validAnnouncements(seat)

    def _pick(self, seat: Seat, count: int) -> Pick:
        places = self._handZones(seat)
        return Pick(tuple(z for z, _ in places), tuple(c for _, c in places), count, ", ")

    def _requestFor(self, seat: Seat) -> tuple[RequestedAction, ...]:
        if self.over or seat != self.game.turn:
            return ()  # (not in L{waitingFor})
        phase = self.game.phase
        if phase == PLAYING:
            return (self._playRequest(seat, self._buttonCount(seat)),)
        count = self._buttonCount(seat)
        if phase in (RESERVING, POVERTY_ANSWER):
            key = (phase, seat, count)
            kept = _ASK_REQUESTS.get(key)
            if kept is None:
                kept = _ASK_REQUESTS[key] = self._askRequest(phase, seat, count)
            return kept
        buttons = _buttonZones(count)
        game = self.game
        if phase == POVERTY_SHIFT:
            count = povertyCardCount(game.hands[seat], self.rules)
            what = f"pick the {count} cards to shift (every trump), then confirm"
        else:
            count = len(game.povertyCards)
            what = f"pick the {count} cards to give back, then confirm"
        return (RequestedAction(seat, "CLICK", zones=buttons, buttons=("LEFT",),
                                prompt="use the suggested cards"),
                RequestedAction(seat, "TEXT", regex=CARDS_REGEX, max_length=200,
                                pick=self._pick(seat, count), prompt=what))

    @staticmethod
    def _askRequest(phase: str, seat: Seat,
                    count: int) -> tuple[RequestedAction, ...]:
        """A reservation's or a poverty answer's request, with ``count`` buttons."""
        buttons = _buttonZones(count)
        if phase == RESERVING:
            return (RequestedAction(seat, "CLICK", zones=buttons, buttons=("LEFT",),
                                    prompt="click your reservation"),
                    RequestedAction(seat, "TEXT", regex=RESERVATION_REGEX, max_length=64,
                                    prompt="type a reservation (such as: marriage, first trump)"))
        return (RequestedAction(seat, "CLICK", zones=buttons, buttons=("LEFT",),
                                prompt="take the poverty's cards or refuse them"),)

    def _playRequest(self, seat: Seat, buttons: int) -> RequestedAction:
        """
        The card to play (its lit cards, in the sorted hand) with ``buttons``
        buttons: the same few requests come again and again (all cards lit,
        or one suit's block), so each is made once and kept (it is frozen).
        """
        count = len(self.game.hands[seat])
        legal = self.legalCardsFor(seat)
        lit: tuple[int, ...] | None = None  # every card (the hand need not be sorted)
        if len(legal) != count:
            allowed = set(legal)
            lit = tuple([i for i, c in enumerate(self._sorted(seat)) if c in allowed])
        key = (seat, count, lit, buttons)
        request = _PLAY_REQUESTS.get(key)
        if request is None:
            places = handPlaces(count)
            zones = places if lit is None else tuple(places[i] for i in lit)
            if len(_PLAY_REQUESTS) >= 4096:
                _PLAY_REQUESTS.clear()
            request = _PLAY_REQUESTS[key] = RequestedAction(
                seat, "CLICK", zones=zones + _buttonZones(buttons), buttons=("LEFT",),
                prompt="click a lit card to play it" + (
                    ", or a button to announce" if buttons else ""))
        return request

    def _requested(self) -> tuple[RequestedAction, ...]:
        if self.over or self.game.turn is None:
            return ()
        return self._requestFor(self.game.turn)

    def _state(self) -> GameState:
        return GameState(tuple(self.totals), self.over, text=self._words or None)

    def _step(self) -> Instructions:
        self._lastEvents = tuple(self._events)
        self._events = []
        self._words = eventWords(self._lastEvents)
        self._stamp += 1
        return Instructions(self._requested(), self._state(), self._lastEvents)

    # -- the contract ------------------------------------------------------------

    def instructions(self) -> Instructions:
        return Instructions(self._requested(), self._state(), self._lastEvents,
                            initvalues=dict(self.initvalues))

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self.over or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            return Errors((UnexpectedAction(seat if isinstance(seat, int) else 0, action,
                                            text="The party is over." if self.over else None),))
        if type(action) is not dict and not isinstance(action, Mapping):
            return Errors((BadFormat(),))
        genscher: JSON = None
        if len(action) == 2 and "card" in action and "genscher" in action:
            genscher = action["genscher"]
            if not isinstance(genscher, int) or isinstance(genscher, bool):
                return Errors((BadFormat(),))
            action = {"card": action["card"]}
        if len(action) != 1:
            return Errors((BadFormat(),))
        ((kind, value),) = action.items()
        game = self.game
        if kind in ("swines", "hyperswines"):
            if value is not True:
                return Errors((BadFormat(),))
            try:
                if kind == "swines":
                    game.announceSwines(seat)
                else:
                    game.announceHyperswines(seat)
            except IllegalMove:
                return self._wrong(seat, action, f"You cannot announce {kind} now.")
            self._collect()
            return self._step()
        if kind == "announcement":
            number = announcementNumber(value) if isinstance(value, str) else None
            if number is None or number == NO_ANNOUNCEMENT:
                return Errors((BadFormat(),))
            if game.phase != PLAYING or not game.announcementValid(seat, number):
                said = announcementWords(ANNOUNCEMENTS[number], game.teams[seat])
                return self._wrong(seat, action, f"You cannot announce {said} now.")
            game.announce(seat, number)
            self._collect()
            return self._step()
        if kind not in _ACTION_PHASES:
            return Errors((BadFormat(),))
        if seat not in self.waitingFor() or _ACTION_PHASES[kind] != game.phase:
            return Errors((UnexpectedAction(seat, action, text=self._notNow(seat)),))
        try:
            if kind == "card":
                if not isinstance(value, str) or value not in CARDS:
                    return Errors((BadFormat(),))
                game.playCard(seat, value, genscher)
            elif kind == "reservation":
                reservation = _reservationFrom(value)
                if reservation is None:
                    return Errors((BadFormat(),))
                game.reserve(seat, reservation)
            elif kind in ("poverty shift", "poverty returned"):
                if not isinstance(value, (list, tuple)) or not all(
                        isinstance(c, str) and c in CARDS for c in value):
                    return Errors((BadFormat(),))
                if kind == "poverty shift":
                    game.povertyShift(seat, list(value))
                else:
                    game.povertyReturn(seat, list(value))
            elif kind == "poverty accepted":
                if not isinstance(value, bool):
                    return Errors((BadFormat(),))
                game.povertyAnswer(seat, value)
        except IllegalMove as e:
            self._collect()
            return self._wrong(seat, action, self._why(seat, kind, value, str(e)))
        self._collect()
        if game.phase == FINISHED:
            self._gameFinished()
        return self._step()

    def _wrong(self, seat: Seat, action: JSON, text: str | None = None) -> Errors:
        requested = self._requestFor(seat)
        return Errors((WrongAction(WrongActionSubtype.OUT_OF_ZONE, seat, action,
                                   requested[0].asJSON() if requested else None, text=text),))

    def _notNow(self, seat: Seat) -> str:
        """Why an action of another phase, or of a seat not awaited, is refused: in words."""
        if seat not in self.waitingFor():
            return "It is not your turn."
        return {RESERVING: "Make your reservation first.",
                POVERTY_SHIFT: "Shift the poverty's cards first.",
                POVERTY_ANSWER: "Take the poverty or refuse it first.",
                POVERTY_RETURN: "Give cards back first.",
                PLAYING: "Play a card."}.get(self.game.phase, "That is not asked now.")

    def _why(self, seat: Seat, kind: str, value: JSON, reason: str) -> str:
        """A refused move in the rules' words."""
        game = self.game
        if kind == "card" and isinstance(value, str) and reason == "card not allowed":
            if value not in game.hands[seat]:
                return f"You do not hold {cardLabel(value)}."
            led = game.order.suit(game.trick[0]) if game.trick else None
            if led is not None:
                return (f"That card is not allowed: you must follow "
                        f"{'trump' if led == 'trump' else led + 's'}.")
        if kind == "poverty shift":
            if reason == "every trump must be shifted":
                return "Shift every trump you hold (and fill up with other cards)."
            return (f"Shift {povertyCardCount(game.hands[seat], self.rules)} of your own cards, "
                    "every trump among them.")
        if kind == "poverty returned":
            return f"Give back {len(game.povertyCards)} of the cards you hold."
        if kind == "reservation":
            return "That reservation is not allowed by the rules."
        return reason[:1].upper() + reason[1:] + "."

    def resign(self, seat: Seat) -> Instructions:
        """A seat leaving ends the party (the table puts bots in its place): totals as they are."""
        if not self.over:
            self._events.append(Event("resign", None, seat))
            self._partyOver("resign")
        return self._step()

    def knownTeams(self, seat: Seat | None) -> tuple[str | None, ...]:
        """What ``seat`` (None: a spectator) knows of the teams (its own, and the others' once shown)."""
        game = self.game
        if game.phase in (RESERVING, POVERTY_SHIFT, POVERTY_ANSWER, POVERTY_RETURN):
            return (None,) * PLAYERS
        silent = game.gameType == MARRIAGE_SILENT
        if game.phase == FINISHED or (game.gameType != NORMAL and not silent) or (
                silent and seat == game.soloplayer):
            return tuple(game.teams)
        # shown: this seat, a club queen played, an announcement made
        queens = self._queensShown()
        trick = game.trick
        if CLUB_QUEEN in trick:
            queens = queens | {(game.leader + i) % PLAYERS for i, c in enumerate(trick)
                               if c == CLUB_QUEEN}
        announcements, known = game.announcements, game.teams
        teams: list[str | None] = [None] * PLAYERS
        re = contra = hidden = 0
        for s in range(PLAYERS):
            if s == seat or s in queens or announcements[s]:
                team = teams[s] = known[s]
                if team == RE:
                    re += 1
                elif team == CONTRA:
                    contra += 1
            else:
                hidden += 1
        if hidden and (re == 2 or contra == 2):
            # Two of a team shown: the others are of the other team, as in a
            # normal game, in a silent marriage too (wrongly there for one
            # seat, but a seat that knew better would know the secret).
            other = CONTRA if re == 2 else RE
            return tuple(t if t is not None else other for t in teams)
        return tuple(teams)

    def _queensShown(self) -> frozenset[Seat]:
        """The seats that played a club queen in the full tricks, found again once a trick."""
        game = self.game
        cached = self._queens
        if cached is None or cached[0] is not game or cached[1] != len(game.tricks):
            cached = self._queens = (game, len(game.tricks), frozenset(
                t.seatOf(i) for t in game.tricks for i, c in enumerate(t.cards)
                if c == CLUB_QUEEN))
        return cached[2]

    def _shownGameType(self, seat: Seat | None) -> tuple[str | None, Seat | None]:
        """The game type and soloplayer ``seat`` may know (a silent marriage is secret)."""
        game = self.game
        if game.phase == RESERVING:
            return None, None
        if (game.gameType == MARRIAGE_SILENT and seat != game.soloplayer
                and game.phase != FINISHED):
            return NORMAL, None
        return game.gameType, game.soloplayer

    def view(self, seat: Seat) -> DoppelkopfView:
        game = self.game
        shownType, shownSolo = self._shownGameType(seat)
        poverty: tuple[str, ...] | None = None
        if seat == game.soloplayer and game.gameType == POVERTY:
            poverty = game.povertyReturned or game.povertyCards or None
        elif seat == game.povertyAccepter:
            poverty = game.povertyCards
        played, trickPoints, summary = self._viewParts()
        return DoppelkopfView(
            seat=seat, phase=self.phase, gameNumber=len(self.summaries),
            startplayer=game.startplayer, turn=None if self.over else game.turn,
            hand=tuple(self._sortedHand(seat)), legalCards=self.legalCardsFor(seat),
            reservations=tuple(r.wire() if r else None for r in game.reservations),
            gameType=shownType, soloplayer=shownSolo,
            selector=game.selector, teams=self.knownTeams(seat),
            trick=tuple(game.trick), leader=game.leader,
            lastTrick=game.tricks[-1] if game.tricks else None,
            tricksPlayed=len(game.tricks),
            trickPoints=trickPoints,
            announcements=tuple(ANNOUNCEMENTS[game.seatAnnouncement(s)] for s in range(PLAYERS)),
            validAnnouncements=self._shownAnnouncements(seat),
            swinesOwner=game.swinesOwner, hyperswinesOwner=game.hyperswinesOwner,
            povertyCount=len(game.povertyCards), povertyCards=poverty,
            playedCards=played, totals=tuple(self.totals),
            lastSummary=summary, rules=self.rules,
        )

    def _shownAnnouncements(self, seat: Seat) -> tuple[str, ...]:
        """The view's ``validAnnouncements``: what ``seat`` may announce now, by name."""
        return tuple(ANNOUNCEMENTS[a] for a in self._validAnnouncements(seat))

    def botAction(self, seat: Seat) -> JSON:
        """
        ``doppelkopfBot(self.view(seat), seat)``, the view read only as far
        as the bot reads it (L{SeatView}): the same action, cheaper.
        """
        return doppelkopfBot(SeatView(self, seat), seat)

    def _viewParts(self) -> tuple[tuple[str, ...], tuple[int, ...], dict[str, JSON] | None]:
        """
        What every seat's view shares: the cards played, each seat's trick
        points and the last game's summary, made again only once a card is
        played or a game ends (four views a step read them).  The summary
        is one dict for every view of it: read it, do not change it.
        """
        game = self.game
        summary = self.summaries[-1] if self.summaries else None
        cached = self._viewCache
        if cached is None or cached[0] is not game or cached[1] != len(game.tricks):
            # the full tricks: once a trick
            cached = self._viewCache = (
                game, len(game.tricks), tuple(c for t in game.tricks for c in t.cards),
                tuple(countPoints(w) for w in game.won),
                cached[4] if cached is not None else None,
                cached[5] if cached is not None else None)
        if cached[4] is not summary:
            cached = self._viewCache = (*cached[:4], summary,
                                        None if summary is None else summary.asJSON())
        return cached[2] + tuple(game.trick), cached[3], cached[5]

    def display(self, seat: Seat | None) -> Display:
        """
        What ``seat`` sees; None: a spectator (no hand).  Seats are named
        P1..P4 (``you`` for ``seat``), ``you`` at the bottom and the next
        seat to play on your left.  Upright (600 x 720): the table with each
        seat's reservation or team, announcements and tricks, the trick (or
        the last one, outlined where won), the buttons, the hand; between
        games and at the end, the score sheet.
        """
        view = self.view(0 if seat is None else seat)
        game = self.game
        if seat is None:
            shownType, shownSolo = self._shownGameType(None)
            view = attrs.evolve(view, hand=(), legalCards=(), povertyCards=None,
                                validAnnouncements=(), gameType=shownType, soloplayer=shownSolo,
                                teams=self.knownTeams(None))

        def name(other: Seat | None) -> str:
            if other is None:
                return "?"
            return "you" if other == seat else f"P{other + 1}"

        phase = view.phase
        choices = self.choices(seat) if seat is not None else []
        title = f"Game {view.gameNumber + 1}"
        if self.over:
            title = f"{len(self.summaries)} game{'s' if len(self.summaries) != 1 else ''} played"
        elif self.rounds is not None:
            title += f" · round {min(self.round + 1, self.rounds)} of {self.rounds}"
        if game.bock > 1 and not self.over:
            title += f" · bock × {game.bock}"
        content: list[dict[str, JSON]] = [
            {"tag": "rect", "x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "fill": _FELT},
            _text(16, 28, title, 20, weight="bold"),
            _text(WIDTH - 16, 28, "spectator" if seat is None else f"you are P{seat + 1}", 18,
                  _DIM, anchor="end"),
            _text(16, 54, self._gameLine(view, name), 18),
            _text(16, 80, self._doing(view, seat, name), 18, _GOLD, cls="doing"),
        ]
        sheet = self.over or (phase != PLAYING and bool(self.summaries)
                              and view.tricksPlayed == 0)
        if sheet:
            content.extend(self._scoreSheet(name, rows=12 if self.over else 5))
        else:
            content.extend(self._table(view, seat, name, len(choices)))
        for zone, (label, move) in zip(_buttonZones(len(choices)), choices):
            content.extend(_button(zone, label, move, suggested=label.startswith("\u2605")))
        lit: set[str] = set()
        if phase == PLAYING and view.turn == seat:
            lit = set(view.legalCards)
        elif phase in (POVERTY_SHIFT, POVERTY_RETURN) and view.turn == seat:
            lit = set(view.hand)
        order = view.order
        for zone, card in zip(handPlaces(len(view.hand)), view.hand):
            state = "lit" if card in lit else "dim" if lit or (
                phase == PLAYING and view.turn == seat) else ""
            content.extend(_card(zone, card, state, trump=order.isTrump(card)))
        if seat is not None and view.hand == () and not self.over:
            content.append(_text(WIDTH / 2, HAND_Y + 40, "(no cards)", 16, _DIM, anchor="middle"))
        return Display(seat, WIDTH, HEIGHT, tuple(content))

    def _gameLine(self, view: DoppelkopfView, name: Callable[[Seat | None], str]) -> str:
        """The game being played, in words."""
        if self.over:
            return "The party is over: the score sheet"
        game = self.game
        kind = view.gameType
        if view.phase == RESERVING or kind is None:
            return f"Reservations · {name(view.startplayer)} started"
        solo = view.soloplayer
        if kind == POVERTY:
            taker = game.povertyAccepter
            return (f"Poverty of {name(solo)}" +
                    (f", taken by {name(taker)}" if taker is not None else ""))
        if kind == MARRIAGE:
            if game.partner is not None and game.partner != solo:
                return f"Marriage: {name(solo)} with {name(game.partner)}"
            return f"Marriage of {name(solo)} ({view.selector or 'first foreign'})"
        if kind == MARRIAGE_SOLO:
            return f"Marriage: {name(solo)} plays alone"
        if kind == MARRIAGE_SILENT:
            return f"Silent marriage of {name(solo)}"
        if isRealSolo(kind):
            return f"{_GAME_NAMES.get(kind, kind).capitalize()} by {name(solo)}"
        if kind == NORMAL:
            swines = ""
            if view.swinesOwner is not None:
                swines = f" · swines: {name(view.swinesOwner)}"
            return "Normal game" + swines
        return _GAME_NAMES.get(kind, kind).capitalize()

    def _doing(self, view: DoppelkopfView, seat: Seat | None,
               name: Callable[[Seat | None], str]) -> str:
        """What happens now, for this seat."""
        if self.over:
            best = max(self.totals)
            winners = [name(s) for s in range(PLAYERS) if self.totals[s] == best]
            if len(winners) == PLAYERS:
                return "Party over: a draw"
            return f"Party over: {' and '.join(winners)} {'win' if 'you' in winners or len(winners) > 1 else 'wins'}"
        turn = view.turn
        mine = seat is not None and turn == seat
        phase = view.phase
        if phase == RESERVING:
            return ("Your reservation: click a button (\u2605 suggested)" if mine
                    else f"{name(turn)} to reserve")
        if phase == POVERTY_SHIFT:
            return ("Poverty: pick the cards to shift, then confirm" if mine
                    else f"{name(turn)} shifts the poverty")
        if phase == POVERTY_ANSWER:
            return (f"{name(view.soloplayer)} shifts {view.povertyCount} cards: take or refuse"
                    if mine else f"{name(turn)} to answer the poverty")
        if phase == POVERTY_RETURN:
            return ("Pick the cards to give back, then confirm" if mine
                    else f"{name(turn)} gives cards back")
        return "Your card: click a lit card" if mine else f"{name(turn)} to play"

    def _seatLines(self, view: DoppelkopfView, other: Seat) -> list[str]:
        """What the table shows of a seat: its reservation, or its team, announcement and tricks."""
        if view.phase in (RESERVING,) or view.gameType is None:
            said = view.reservations[other]
            if said is None:
                return ["thinking\u2026" if view.turn == other else ""]
            first, _, rest = said.partition(", ")
            return [first] + ([rest] if rest else [])
        team = view.teams[other]
        parts = []
        if team is not None:
            parts.append("Re" if team == RE else "Kontra")
        if view.soloplayer == other and view.gameType is not None and isSolo(view.gameType):
            parts.append("solo")
        said = view.announcements[other]
        if said != "no announcement":
            parts.append(announcementWords(said, team))
        tricks = sum(1 for t in self.game.tricks if t.winner == other)
        more = [f"{tricks} trick{'s' if tricks != 1 else ''}"]
        if view.swinesOwner == other:
            more.append("swines")
        if view.hyperswinesOwner == other:
            more.append("hyperswines")
        return [" · ".join(parts), " · ".join(more)]

    def _table(self, view: DoppelkopfView, seat: Seat | None,
               name: Callable[[Seat | None], str], buttons: int) -> list[dict[str, JSON]]:
        """The four seats and the trick: each card by its seat, the last trick's winner outlined."""
        content: list[dict[str, JSON]] = []
        base = seat or 0
        rows = -(-buttons // BUTTONS_PER_ROW)
        # bottom (this seat), left (the next to play), top, right
        labels = (((WIDTH / 2, 392), "middle"), ((16, 226), "start"),
                  ((WIDTH / 2, 102), "middle"), ((WIDTH - 16, 226), "end"))
        spots = ((268, 282), (186, 196), (268, 132), (350, 196))
        trick = list(view.trick)
        leader = view.leader
        winner: Seat | None = None
        caption = ""
        if not trick and view.lastTrick is not None and view.phase == PLAYING:
            last = view.lastTrick
            trick, leader, winner = list(last.cards), last.leader, last.winner
            caption = f"{name(winner)} won the trick: {_points(last.points())}"
        elif trick:
            caption = f"{name(leader)} led"
            if view.lastTrick is not None:
                caption += f" · last trick: {name(view.lastTrick.winner)}"
        for other in range(PLAYERS):
            where = (other - base) % PLAYERS
            (x, y), anchor = labels[where]
            if where == 0 and rows >= 2:
                continue  # the buttons cover it: the header says the same
            turn = view.turn == other and view.phase != OVER
            lines = self._seatLines(view, other)
            label = name(other) + (" \u25b8" if turn else "")
            if where in (0, 2):
                lines = [" · ".join(line for line in lines if line)]
            content.append(_text(x, y, label, 18, _GOLD if turn else _INK, anchor=anchor,
                                 weight="bold", cls="seat", data={"data-player": other + 1}))
            for i, line in enumerate(line for line in lines if line):
                content.append(_text(x, y + 20 * (i + 1), line, 16, _DIM, anchor=anchor))
        if view.phase == PLAYING or trick:
            for i, card in enumerate(trick):
                owner = (leader + i) % PLAYERS
                sx, sy = spots[(owner - base) % PLAYERS]
                content.extend(_card(Zone(sx, sy, TRICK_W, TRICK_H), card,
                                     "won" if owner == winner else "", small=True))
            if view.trick:
                played = {(leader + i) % PLAYERS for i in range(len(trick))}
                for other in range(PLAYERS):
                    if other not in played:
                        sx, sy = spots[(other - base) % PLAYERS]
                        content.append({"tag": "rect", "x": sx, "y": sy, "width": TRICK_W,
                                        "height": TRICK_H, "rx": 6, "fill": "none",
                                        "stroke": _DIM, "stroke-dasharray": "4 4"})
        if caption and rows < 2:
            content.append(_text(WIDTH / 2, 444, caption, 16, _GOLD, anchor="middle",
                                 cls="trick-caption"))
        return content

    def _scoreSheet(self, name: Callable[[Seat | None], str],
                    rows: int) -> list[dict[str, JSON]]:
        """The last game's score explained, and the score sheet of the party's games."""
        content: list[dict[str, JSON]] = []
        last = self.summaries[-1] if self.summaries else None
        y = 108
        if last is not None:
            for i, line in enumerate(summaryLines(last, len(self.summaries), name)):
                content.append(_text(16, y, line, 18 if i == 0 else 16,
                                     _GOLD if i == 0 else _INK, cls="summary"))
                y += 22
        y = max(y + 8, 160)
        columns = [330 + i * 84 for i in range(PLAYERS)]
        sheet: list[dict[str, JSON]] = [_text(16, y, "Game", 16, _DIM),
                                        _text(66, y, "type", 16, _DIM)]
        for s, x in enumerate(columns):
            sheet.append(_text(x, y, name(s), 16, _DIM, anchor="end"))
        shown = self.summaries[-rows:]
        first = len(self.summaries) - len(shown) + 1
        for i, summary in enumerate(shown):
            y += 22
            kind = _GAME_NAMES.get(summary.gameType, summary.gameType)
            if summary.soloplayer is not None and isSolo(summary.gameType):
                kind += f" ({name(summary.soloplayer)})"
            sheet.append(_text(16, y, str(first + i), 16))
            sheet.append(_text(66, y, kind, 16))
            for s, x in enumerate(columns):
                points = summary.scores[s]
                sheet.append(_text(x, y, f"{points:+d}" if points else "0", 16, anchor="end"))
        y += 24
        sheet.append(_text(16, y, "Total", 18, _GOLD, weight="bold"))
        for s, x in enumerate(columns):
            sheet.append(_text(x, y, str(self.totals[s]), 18, _GOLD, anchor="end", weight="bold"))
        content.append({"tag": "g", "class": "score-sheet", "content": sheet})  # type: ignore[dict-item]
        return content

    def decodeAction(self, seat: Seat, action: Mapping[str, JSON]) -> JSON | Errors:
        requested = self._requestFor(seat)
        checked = checkAction(seat, action, requested)
        if isinstance(checked, Errors):
            return checked
        phase = self.game.phase
        if checked.type == "TEXT":
            text = str(action["text"]).strip().lower()
            if phase == RESERVING:
                # Typed: only what the hand allows, as the buttons offer (a
                # FreeDoko child's reservation goes to act, which lets the
                # rules ignore one the hand does not justify, as FreeDoko does).
                typed = _reservationFrom(text)
                offered = self._reservationsOffered(seat)
                if typed is None or typed.gameType not in {r.gameType for r in offered}:
                    allowed = ", ".join(dict.fromkeys(r.gameType for r in offered))
                    return Errors((WrongAction(
                        WrongActionSubtype.UNMATCHED_REGEX, seat, dict(action),
                        checked.asJSON(),
                        text=f"Your hand allows these reservations: {allowed}."),))
                return {"reservation": text}
            return {phase.replace("return", "returned"): _cards_(text)}
        x, y = float(action["x"]), float(action["y"])  # type: ignore[arg-type]
        choices = self.choices(seat)
        for zone, (_, move) in zip(_buttonZones(len(choices)), choices):
            if zone.contains(x, y):
                return move
        if phase == PLAYING:
            for zone, card in self._handZones(seat):
                if zone.contains(x, y):
                    return {"card": card}
        return Errors((BadFormat(),))  # unreachable: checkAction found a zone

    def stop(self) -> None:
        """Nothing to release: the game lives in this process."""

    def cardsInPlay(self) -> list[str]:
        return self.game.cardsInPlay()


def _cards_(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def _reservationFrom(value: JSON) -> Reservation | None:
    if isinstance(value, str):
        return Reservation.parse(value)
    if isinstance(value, Mapping):
        gameType = value.get("type", NORMAL)
        selector = value.get("selector")
        swines, hyper = value.get("swines", False), value.get("hyperswines", False)
        if (not isinstance(gameType, str) or gameType not in RESERVABLE
                or not isinstance(swines, bool) or not isinstance(hyper, bool)
                or (selector is not None and selector not in SELECTORS)):
            return None
        if gameType == MARRIAGE and selector is None:
            selector = "first foreign"
        return Reservation(gameType, selector if gameType == MARRIAGE else None, swines, hyper)
    return None


def _text(x: float, y: float, content: str, size: int = 16, fill: str = _INK,
          anchor: str | None = None, weight: str | None = None, cls: str | None = None,
          data: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
    tag: dict[str, JSON] = {"tag": "text", "x": x, "y": y, "font-size": size, "fill": fill,
                            "content": content}
    if anchor is not None:
        tag["text-anchor"] = anchor
    if weight is not None:
        tag["font-weight"] = weight
    if cls is not None:
        tag["class"] = cls
    if data:
        tag.update(data)
    return tag


_SIGNS = {"club": "\u2663", "spade": "\u2660", "heart": "\u2665", "diamond": "\u2666"}
_SHORT = {"nine": "9", "jack": "J", "queen": "Q", "king": "K", "ten": "10", "ace": "A"}
_GAME_NAMES = {
    SOLO_CLUB: "\u2663 solo", SOLO_SPADE: "\u2660 solo", SOLO_HEART: "\u2665 solo",
    SOLO_DIAMOND: "\u2666 solo", SOLO_JACK: "jack solo", SOLO_QUEEN: "queen solo",
    SOLO_KING: "king solo", SOLO_QUEEN_JACK: "queen-jack solo", SOLO_KING_JACK: "king-jack solo",
    SOLO_KING_QUEEN: "king-queen solo", SOLO_KOEHLER: "koehler solo",
    SOLO_MEATLESS: "meatless solo", MARRIAGE_SILENT: "silent marriage",
    MARRIAGE_SOLO: "marriage alone", FOX_HIGHEST_TRUMP: "fox highest trump",
}
"""Game types in a few words, where their FreeDoko names are long."""
_LABELS = {
    SOLO_CLUB: "\u2663 solo", SOLO_SPADE: "\u2660 solo", SOLO_HEART: "\u2665 solo",
    SOLO_DIAMOND: "\u2666 solo", SOLO_JACK: "jack solo", SOLO_QUEEN: "queen solo",
    SOLO_KING: "king solo",
    SOLO_QUEEN_JACK: "Q+J solo", SOLO_KING_JACK: "K+J solo", SOLO_KING_QUEEN: "K+Q solo",
    SOLO_KOEHLER: "koehler", SOLO_MEATLESS: "meatless", THROWN_NINES: "throw 9s",
    THROWN_KINGS: "throw Ks", THROWN_NINES_AND_KINGS: "throw 9+K", THROWN_RICHNESS: "throw",
    FOX_HIGHEST_TRUMP: "throw", NORMAL: "normal",
}
"""Reservations on a button."""


def _points(points: object) -> str:
    """``points`` in words: "1 point", "20 points"."""
    return f"{points} point" if points == 1 else f"{points} points"


def _reservationLabel(reservation: Reservation) -> str:
    label = _LABELS.get(reservation.gameType, reservation.gameType)
    if reservation.swines:
        label += " +sw"
    return label


def cardLabel(card: str) -> str:
    return _SIGNS[colorOf(card)] + _SHORT[valueOf(card)]


def _card(zone: Zone, card: str, state: str = "", small: bool = False,
          trump: bool = False) -> list[dict[str, JSON]]:
    """
    A card: its label (L{cardLabel}) top left, its suit sign large in the
    middle, a gold band at the bottom for a trump.  ``state``: ``lit`` (may
    be played or picked), ``dim`` (may not), ``won`` (won the trick), or plain.
    """
    x, y, width, height = zone.x, zone.y, zone.width, zone.height
    red = colorOf(card) in ("heart", "diamond")
    colour = "#c01818" if red else "#111111"
    fill = {"lit": "#fff7cc", "dim": "#c8ccd2"}.get(state, "#ffffff")
    stroke, strokeWidth = ((_GOLD, 5) if state == "won" else
                           ("#b45309", 2) if state == "lit" else ("#333333", 1))
    tags: list[dict[str, JSON]] = [
        {"tag": "rect", "class": "card", "data-card": card, "x": x, "y": y,
         "width": width, "height": height, "rx": 6, "fill": fill, "stroke": stroke,
         "stroke-width": strokeWidth},
        {"tag": "text", "class": "card-label", "x": x + 5, "y": y + (22 if small else 26),
         "font-size": 22 if small else 26, "font-weight": "bold", "fill": colour,
         "content": cardLabel(card)},
        {"tag": "text", "x": x + width / 2, "y": y + height - (14 if small else 16),
         "font-size": 28 if small else 32, "text-anchor": "middle", "fill": colour,
         "content": _SIGNS[colorOf(card)]},
    ]
    if trump:
        tags.append({"tag": "rect", "x": x + 4, "y": y + height - 9, "width": width - 8,
                     "height": 5, "rx": 2, "fill": "#d4a017"})
    return tags


def _button(zone: Zone, label: str, action: JSON,
            suggested: bool = False) -> list[dict[str, JSON]]:
    """A button; ``data-action`` is the move it makes, for clients that read displays."""
    return [
        {"tag": "rect", "class": "button", "data-action": json.dumps(action, sort_keys=True),
         "x": zone.x, "y": zone.y, "width": zone.width,
         "height": zone.height, "rx": 6, "fill": "#f0e6c8",
         "stroke": _GOLD if suggested else "#333333", "stroke-width": 3 if suggested else 1},
        {"tag": "text", "x": zone.x + zone.width / 2, "y": zone.y + 28,
         "font-size": 16 if len(label) <= 10 else 14, "text-anchor": "middle",
         "fill": "#000000", "content": label},
    ]


def _player(seat: JSON) -> str:
    return f"player {int(seat) + 1}" if isinstance(seat, int) else "a player"  # type: ignore[arg-type]


def summaryLines(summary: GameSummary, number: int,
                 name: Callable[[Seat | None], str] | None = None) -> list[str]:
    """
    A finished game's score in words: who won with how many points, then
    what the value is made of.  ``name(seat)`` names a seat (``player N``
    by default).
    """
    def named(seat: Seat | None) -> str:
        return name(seat) if name is not None else _player(seat)

    kind = _GAME_NAMES.get(summary.gameType, summary.gameType)
    winner = summary.winner
    if winner is None:
        head = f"Game {number} ({kind}): nobody won"
    else:
        seats = [named(s) for s in range(PLAYERS) if summary.teams[s] == winner]
        head = (f"Game {number} ({kind}): {'Re' if winner == RE else 'Kontra'} "
                f"({', '.join(seats)}) won with {summary.teamPoints(winner)} points")
    parts = []
    for special in summary.specials:
        label = special.name
        if special.value != 1:
            label += f" \u00d7{special.value}" if special.name in ("solo", "bock") else (
                f" {special.value}")
        parts.append(label)
    lines = [head, f"Value {summary.points}: " + (", ".join(parts) or "nothing")]
    if len(lines[1]) > 62:
        cut = lines[1].rfind(", ", 0, 62)
        lines[1:] = [lines[1][:cut + 1], lines[1][cut + 2:]]
    return lines


_PLAYED_WORDS = {(seat, card): f"{_player(seat)} played {cardLabel(card)}"
                 for seat in range(PLAYERS) for card in CARDS}
"""A card played, in L{eventWords}' words, by seat and card."""


def eventWords(events: Iterable[Event]) -> str:
    """
    What a step did, in words anybody at the table may read ("player 2
    played ♣Q; player 3 won the trick: 25 points"): only public events are
    read, so no hand and no secret (a silent marriage) is ever told.
    """
    if type(events) is tuple and len(events) == 1:
        # most steps: one card played
        event = events[0]
        data = event.data
        if event.kind == "card" and event.audience is None and type(data) is dict:
            seat, card = data.get("seat"), data.get("card")
            if type(seat) is int and type(card) is str:
                played = _PLAYED_WORDS.get((seat, card))
                if played is not None:
                    return played
    words: list[str] = []
    for event in events:
        if event.audience is not None:
            continue
        data = event.data
        if type(data) is not dict and not isinstance(data, Mapping):
            data = {}
        kind = event.kind
        if kind == "card":
            seat, card = data.get("seat"), data.get("card")
            played = _PLAYED_WORDS.get((seat, card)) if type(seat) is int else None
            words.append(played or f"{_player(seat)} played {cardLabel(str(card))}")
            continue
        who = _player(data.get("seat"))
        if kind == "trick":
            cards = data.get("cards")
            points = countPoints(cards) if isinstance(cards, list) else 0  # type: ignore[arg-type]
            words.append(f"{_player(data.get('winner'))} won the trick: {_points(points)}")
        elif kind == "reservation":
            words.append(f"{who} reserved {data.get('reservation')}")
        elif kind == "announcement":
            words.append(f"{who} announced "
                         f"{announcementWords(str(data.get('announcement')), data.get('team'))}")
        elif kind in ("swines", "hyperswines"):
            words.append(f"{who} has {kind}")
        elif kind == "gametype":
            gameType = str(data.get("gametype"))
            solo = data.get("soloplayer")
            if gameType == NORMAL:
                words.append("a normal game")
            elif solo is not None and gameType != POVERTY:
                words.append(f"{_player(solo)} plays {_GAME_NAMES.get(gameType, gameType)}")
            elif gameType == POVERTY:
                words.append(f"{_player(solo)} has a poverty")
        elif kind == "redeal":
            words.append(f"dealt again ({data.get('reason')})")
        elif kind == "poverty shift":
            words.append(f"{who} shifted {data.get('cards')} cards")
        elif kind == "poverty denied":
            words.append(f"{who} refused the poverty")
        elif kind == "poverty denied by all":
            words.append("nobody took the poverty")
        elif kind == "poverty accepted":
            words.append(f"{who} took the poverty")
        elif kind == "poverty returned":
            words.append(f"{who} gave back {data.get('cards')} cards")
        elif kind == "marriage":
            partner = data.get("partner")
            words.append(f"{who} plays the marriage alone" if partner == data.get("seat")
                         else f"{who} marries {_player(partner)}")
        elif kind == "genscher":
            words.append(f"{who} calls {_player(data.get('partner'))} as partner (genscher)")
        elif kind == "game over":
            winner = data.get("winner")
            team = "Re" if winner == RE else "Kontra" if winner == CONTRA else "nobody"
            words.append(f"game over: {team} won, {_points(data.get('points'))}")
        elif kind == "party over":
            words.append("the party is over" if data.get("reason") != "resign"
                         else "the party ended early")
        elif kind == "resign":
            words.append(f"{_player(event.seat)} left")
    return "; ".join(words)


# -- the bot -------------------------------------------------------------------


def _trumpStrength(order: CardOrder, hand: Sequence[str]) -> tuple[int, int]:
    """The number of trumps and of high trumps (queens, dollen, swines) in a hand."""
    rank, values = order.rank, _VALUE_OF
    swine, hyperswine = order.swine, order.hyperswine
    trumps = high = 0
    for c in hand:
        if c in rank:
            trumps += 1
            if values[c] == "queen" or c == DOLLE or c == swine or c == hyperswine:
                high += 1
    return trumps, high


def botReservation(hand: Sequence[str], rules: Rules) -> Reservation:
    """
    A reservation from hand strength: poverty, marriage, a strong color
    solo, else normal; with ``swines`` whenever a game may make them the
    bot's (under ``swines announcement begin``, as FreeDoko's players do).
    """
    normal = CardOrder.of(NORMAL, rules)
    swines = rules.flag("swines announcement begin") and swinesPossible(hand, rules)
    if hand.count(CLUB_QUEEN) == 2:
        allowed = [s for s in SELECTORS if rules.flag(SELECTOR_RULES[s])]
        if allowed:
            return Reservation(MARRIAGE, allowed[0], swines)
        return Reservation(NORMAL, None, swines)
    if hasPoverty(hand, rules):
        return Reservation(POVERTY)
    for solo in COLOR_SOLI:
        if not ruleAllows(rules, solo):
            continue
        order = CardOrder.of(solo, rules)
        trumps, high = _trumpStrength(order, hand)
        rank, aces = order.rank, 0
        for c in hand:
            if _VALUE_OF[c] == "ace" and c not in rank:
                aces += 1
        if trumps >= 9 and high >= 4 and trumps + aces >= 10:
            return Reservation(solo, None, swines)
    trumps, high = _trumpStrength(normal, hand)
    if (rules.flag("throw with nines") and ruleAllows(rules, THROWN_NINES)
            and sum(valueOf(c) == "nine" for c in hand)
            >= rules.number("min number of throwing nines", 5) and trumps < 6):
        return Reservation(THROWN_NINES)
    return Reservation(NORMAL, None, swines)


def botPovertyShift(hand: Sequence[str], rules: Rules) -> list[str]:
    """Every trump, filled up with the cheapest other cards."""
    order = CardOrder.of(POVERTY, rules)
    count = povertyCardCount(hand, rules)
    trumps = [c for c in hand if order.isTrump(c)]
    rest = sorted((c for c in hand if not order.isTrump(c)), key=lambda c: (cardPoints(c), c))
    if len(trumps) >= count:
        return trumps
    return trumps + rest[:count - len(trumps)]


def botPovertyAccept(hand: Sequence[str], rules: Rules) -> bool:
    order = CardOrder.of(POVERTY, rules)
    trumps, high = _trumpStrength(order, hand)
    return trumps >= 7 and high >= 3


def botPovertyReturn(hand: Sequence[str], count: int, rules: Rules) -> list[str]:
    """Give back the cheapest cards: plain cards first, then the lowest trumps."""
    order = CardOrder.of(POVERTY, rules)

    def cost(c: str) -> tuple[int, int, str]:
        if order.isTrump(c):
            return (1, order.rank[c], c)
        return (0, cardPoints(c), c)
    return sorted(hand, key=cost)[:count]


def _lowest(order: CardOrder, cards: Sequence[str]) -> str:
    rank, points = order.rank, _POINTS_OF

    def cost(c: str) -> tuple[int, int, int]:
        trump = rank.get(c, -1)
        return (1 if trump >= 0 else 0, points[c], trump)
    return min(cards, key=cost)


def _highest(order: CardOrder, cards: Sequence[str]) -> str:
    best = cards[0]
    for c in cards[1:]:
        if order.less(best, c):
            best = c
    return best


def botCard(view: BotView) -> str:
    """A legal card: win a trick cheaply, load a partner's trick, lead aces and low trumps."""
    legal = view.legalCards
    if len(legal) == 1:
        return legal[0]
    order = view.order
    rank, values, points = order.rank, _VALUE_OF, _POINTS_OF
    me = view.teams[view.seat]
    trick = view.trick
    if not trick:
        aces = [c for c in legal if values[c] == "ace" and c not in rank]
        if aces:
            played = view.playedCards
            aces = [c for c in aces if played.count(c) == 0]
            if aces:
                return aces[0]
        plain = [c for c in legal if c not in rank]
        if me == RE and len(plain) < len(legal):
            trumps = [c for c in legal if c in rank]
            return _lowest(order, trumps) if len(trumps) < 4 else _highest(order, trumps)
        return _lowest(order, plain or legal)
    last = len(view.hand) == 1
    w = trickWinner(order, trick, last)
    winner = (view.leader + w) % PLAYERS
    winning = trick[w]
    partner = me is not None and view.teams[winner] == me and winner != view.seat
    lastToPlay = len(trick) == PLAYERS - 1
    if partner and (lastToPlay or values[winning] == "queen" or winning == DOLLE):
        return max(legal, key=lambda c: (points[c] if not (
            c in rank and values[c] in ("queen", "jack")) else -1, c))
    beating = [c for c in legal if order.less(winning, c, last)]
    total = countPoints(trick)
    if beating and (total >= 10 or lastToPlay or not partner):
        if lastToPlay:
            return min(beating, key=lambda c: (rank.get(c, -1), -points[c]))
        return _highest(order, beating) if total >= 14 else min(
            beating, key=lambda c: (rank.get(c, -1), points[c]))
    return _lowest(order, legal)


def botAnnouncement(view: BotView) -> str | None:
    """Re or contra with a strong hand, early."""
    if view.tricksPlayed > 1 or "no 120" not in view.validAnnouncements:
        return None
    order = view.order
    trumps, high = _trumpStrength(order, view.hand)
    aces = sum(1 for c in view.hand if valueOf(c) == "ace" and not order.isTrump(c))
    if trumps >= 7 and high >= 3 and trumps + aces >= 9:
        return "no 120"
    return None


def botGenscher(view: BotView, card: str) -> Seat | None:
    """
    The partner the bot names with ``card`` (None: no genscher), when the
    rule ``genscher`` lets that card, the first of both trump kings, choose
    one: the player who, with the bot's own tricks, already holds more than
    120 points, while the bot's team is not known to hold them (FreeDoko's
    AI, Ai::genscher_partner, "secure victory").  Only when the bot knows
    the game is no silent marriage, where no genscher is played.
    """
    gameType = view.gameType
    if (not view.rules.flag("genscher") or gameType is None or isSolo(gameType)
            or gameType == POVERTY or card != f"{trumpColor(gameType)} king"
            or view.hand.count(card) != 2):
        return None
    me, teams, points = view.seat, view.teams, view.trickPoints
    if gameType == NORMAL and CLUB_QUEEN not in view.hand and teams.count(RE) < 2:
        return None  # a silent marriage (both club queens in one hand) cannot be ruled out
    if sum(points[s] for s in range(PLAYERS) if teams[s] == teams[me]) > 120:
        return None
    best = max((s for s in range(PLAYERS) if s != me), key=lambda s: points[s])
    return best if points[me] + points[best] > 120 else None


def doppelkopfBot(view: BotView, seat: Seat) -> JSON:
    """The engine's bot: reservations and announcements from hand strength, legal sensible cards."""
    rules = view.rules
    phase = view.phase
    if phase == PLAYING:
        if view.turn == seat:
            announcement = botAnnouncement(view)
            if announcement is not None:
                return {"announcement": announcement}
            card = botCard(view)
            partner = botGenscher(view, card)
            if partner is not None:
                return {"card": card, "genscher": partner}
            return {"card": card}
        return None
    if phase == RESERVING:
        return {"reservation": botReservation(view.hand, rules).wire()}
    if view.phase == POVERTY_SHIFT:
        return {"poverty shift": botPovertyShift(view.hand, rules)}
    if view.phase == POVERTY_ANSWER:
        return {"poverty accepted": botPovertyAccept(view.hand, rules)}
    if view.phase == POVERTY_RETURN:
        return {"poverty returned": botPovertyReturn(view.hand, view.povertyCount, rules)}
    return None


class DoppelkopfEngine:
    """The Doppelkopf engine factory: one party per game."""

    name = "doppelkopf"
    parameters: Sequence[Parameter] = PARAMETERS
    hiddenInformation = True
    """The hands (the party seed deals them) and the cards a poverty shifts."""

    def publicAction(self, seat: Seat, action: JSON) -> bool:
        """Everything but the cards a poverty shifts or returns is public once made."""
        return not (isinstance(action, dict)
                    and ("poverty shift" in action or "poverty returned" in action))

    def start(
        self,
        params: Mapping[str, JSON],
        initvalues: Mapping[str, JSON] | None = None,
        rng: random.Random | None = None,
    ) -> DoppelkopfParty | Errors:
        rules = params.get("rules")
        problem = rulesProblem(rules) if isinstance(rules, str) else None
        refused = () if problem is None else (IncorrectValue("rules", rules, text=problem),)
        started = checkSeeded(self.parameters, params, initvalues, rng)
        if isinstance(started, Errors):
            return Errors(started.errors + refused)
        if refused:
            return Errors(refused)
        checked, seed = started
        if seed < 0:
            return Errors((IncorrectValue("seed", seed),))
        return DoppelkopfParty(checked, seed)

    def bot(self, params: Mapping[str, JSON]) -> Bot:
        return doppelkopfBot


DOPPELKOPF = DoppelkopfEngine()
ENGINE = DOPPELKOPF
