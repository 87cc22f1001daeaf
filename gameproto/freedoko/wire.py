"""
The FreeDoko network protocol's codec, sans I/O (docs/protocols/freedoko.md).

One message a line, ending with LF.  A line is one of three kinds:

- simple: text without a colon (``FreeDoko server``, ``connection rejected``,
  ``bye``, ``ping``);
- special: ``*<time>: <text>`` (``ping``, ``pong`` with or without a number);
- normal: ``<time>: <text>``, every other message.

A time is ``<unix seconds>.<milliseconds>``, milliseconds not zero-padded
(7 ms is ``.7``); ``-`` (no time) is accepted on input and never sent.  A
CR before the LF is stripped on input (the real program keeps it in the line
and so fails on CRLF); nothing sent ever holds a CR.  Empty lines are skipped.

Two messages take several lines: ``rules`` followed by a ``{ ... }`` block of
``name = value`` lines (L{Rules}), and ``sync: gameplay actions`` followed by
a block of gameplay actions (L{SyncGameplayActions}); L{Reader} gathers
them.  Reading is total: whatever is no message the codec knows is an
L{Unknown} value (a L{Malformed}), never an exception.  L{format} writes
exactly the bytes the real program writes.
"""

from __future__ import annotations

import enum
import functools
import re
import time as _time
from typing import Callable, Final, Iterator, Mapping

import attrs

from gameproto.buffer import Malformed as Malformed, NeedMore, ReceiveBuffer, TooLong
from gameproto.freedoko import names
from gameproto.freedoko.names import ANNOUNCEMENTS, COLORS, GAME_TYPES, MARRIAGE_SELECTORS, VALUES

__all__ = [
    "Action", "Announcement", "Ask", "BLOCK_LIMIT", "BlockStart", "Bye", "Card", "CardPlayed",
    "Chat", "Check", "ConnectionRejected", "GameClose", "GameFinish", "GameHand", "GameOpen",
    "GameSeed", "GameStart", "GameStartplayer", "Genscher", "Hyperswines", "Kind",
    "LINE_LIMIT", "Malformed", "Marriage", "Message", "NUMBER_MAX", "Name", "PLAYERS",
    "PartyFinish", "PartySeed", "PartyStart", "PartyStartRound", "PartyStartplayer", "Ping",
    "PlayerName", "PlayerType", "PlayersSwitched", "Pong", "PovertyAccepted", "PovertyDenied",
    "PovertyDeniedByAll", "PovertyReturned", "PovertyShift", "Reader", "Received",
    "Reservation", "Rule", "RuleComment", "RuleEntry", "RuleSetting", "Rules", "ServerHello",
    "Swines", "SyncGameplayActions", "Time", "TrickFull", "TrickOpen", "TrickTaken", "Unknown",
    "format", "formatAction", "kindOf", "parseAction", "parseCard", "parseLine", "serialize",
]

LINE_LIMIT: Final = 4096
"""The longest line read, in bytes, its LF not counted (the longest the real program sends,
a hand, takes about 230)."""

BLOCK_LIMIT: Final = 1024
"""The most lines a ``{ ... }`` block may hold (FreeDoko's rules take about 120)."""

PLAYERS: Final = 4
"""Player numbers are 0 to 3."""

NUMBER_MAX: Final = 2**32 - 1
"""The largest seed, round or ping number (FreeDoko reads them as C ``unsigned``)."""

_CUT: Final = 256
"""How much of a line an L{Unknown} keeps."""
_NUMBER_DIGITS: Final = 10
_SECONDS_DIGITS: Final = 12
_MILLIS_DIGITS: Final = 9


class Kind(enum.Enum):
    """The three kinds of line."""

    SIMPLE = "simple"
    SPECIAL = "special"
    NORMAL = "normal"


@attrs.frozen(order=True)
class Time:
    """
    A sender's clock when it sent a line: ``seconds.millis``, written
    without padding (``Time(1795419280, 17)`` is ``1795419280.17``).
    """

    seconds: int = attrs.field(validator=attrs.validators.ge(0))
    millis: int = attrs.field(validator=attrs.validators.ge(0))

    @classmethod
    def now(cls, clock: Callable[[], float] = _time.time) -> Time:
        """The time of ``clock`` (seconds since the epoch), to the millisecond."""
        ms = int(clock() * 1000)
        return cls(ms // 1000, ms % 1000)

    def __str__(self) -> str:
        return f"{self.seconds}.{self.millis}"


@attrs.frozen(order=True)
class Card:
    """A card, ``<color> <value>`` on the wire (``club queen``)."""

    color: str = attrs.field(validator=attrs.validators.in_(COLORS))
    value: str = attrs.field(validator=attrs.validators.in_(VALUES))

    def __str__(self) -> str:
        return f"{self.color} {self.value}"


# -- messages ------------------------------------------------------------------

# simple


@attrs.frozen
class ServerHello:
    """``FreeDoko server``: the parent's first line on a new connection."""


@attrs.frozen
class ConnectionRejected:
    """``connection rejected``: a parent in the middle of a party refuses the child."""


@attrs.frozen
class Bye:
    """``bye``: the connection is closing."""


# special


@attrs.frozen
class Ping:
    """``ping`` or ``ping: n``: answer with L{Pong} (with the same number)."""

    number: int | None = None


@attrs.frozen
class Pong:
    """``pong`` or ``pong: n``: the answer to a L{Ping}."""

    number: int | None = None


# normal: at any time


@attrs.frozen
class Name:
    """``name: X``: the name of the sending side (its player's name)."""

    name: str


@attrs.frozen
class Chat:
    """``chat: text``."""

    text: str


@attrs.frozen
class Ask:
    """``ask: question``: ``rules`` (answered with L{Rules}) or ``name`` (with L{Name})."""

    question: str


# normal: before the party


@attrs.frozen
class RuleSetting:
    """One ``name = value`` line of a rules block; ``indent`` spaces before it (as sent)."""

    name: str
    value: str
    indent: int = 0


@attrs.frozen
class RuleComment:
    """A ``#`` line of a rules block: ``text`` follows the ``#``."""

    text: str
    indent: int = 0


RuleEntry = RuleSetting | RuleComment


@attrs.frozen
class Rules:
    """
    ``rules`` and a block of rules: FreeDoko's rule-file lines, booleans
    ``true``/``false``.  Unknown rule names are kept.
    """

    entries: tuple[RuleEntry, ...] = ()

    def settings(self) -> dict[str, str]:
        """Every rule of the block, name to value (the last one wins)."""
        return {e.name: e.value for e in self.entries if isinstance(e, RuleSetting)}

    @classmethod
    def fromSettings(cls, settings: Mapping[str, str]) -> Rules:
        """A block of these rules, in this order, unindented."""
        return cls(tuple(RuleSetting(name, value) for name, value in settings.items()))


@attrs.frozen
class Rule:
    """``rule: name = value``: one rule changes (booleans ``1``/``0`` here)."""

    name: str
    value: str


@attrs.frozen
class PlayerType:
    """
    ``player N: type = local|network``: ``local`` means the receiving side
    manages player N.
    """

    player: int
    local: bool


@attrs.frozen
class PlayerName:
    """``player N: name = X``."""

    player: int
    name: str


@attrs.frozen
class PlayersSwitched:
    """``players switched: a b`` (the document: ``players switch: a b``)."""

    a: int
    b: int


@attrs.frozen
class PartySeed:
    """``party: seed: N``: the seed every game of the party is dealt from."""

    seed: int


@attrs.frozen
class PartyStartplayer:
    """``party: startplayer: N``."""

    player: int


@attrs.frozen
class PartyStart:
    """``party: start`` (the document: ``party start``)."""


@attrs.frozen
class PartyStartRound:
    """``party: start round: N`` (the document: ``party start round: N``)."""

    round: int


@attrs.frozen
class PartyFinish:
    """``party: finish`` (the document: ``party finish``)."""


# normal: a game


@attrs.frozen
class GameOpen:
    """``game: open``: a new game; its hands are dealt."""


@attrs.frozen
class GameStartplayer:
    """``game: startplayer: N``."""

    player: int


@attrs.frozen
class GameSeed:
    """``game: seed: N``."""

    seed: int


@attrs.frozen
class GameHand:
    """
    ``game: hand N: c, c, ...``: player N's hand.  The real program writes
    the first card twice (13 entries for 12 cards): ``repeated`` says the
    line does so (what L{format} writes by default).  Reading, a line with
    an odd number of entries whose first two are equal is taken as such
    (hands always hold an even number of cards).
    """

    player: int
    cards: tuple[Card, ...]
    repeated: bool = True


@attrs.frozen
class GameStart:
    """``game: start``: the reservations are over; the first trick follows."""


@attrs.frozen
class GameFinish:
    """``game: finish``."""


@attrs.frozen
class GameClose:
    """``game: close``: in the document only; the real program neither sends nor knows it."""


# normal: gameplay actions, ``gameplay action: <keyword> = ...``


@attrs.frozen
class Reservation:
    """
    ``reservation = P, <game type>[, <marriage selector>][, swines][, hyperswines]``.
    ``selector`` is given exactly when the game type is ``marriage``.
    """

    player: int
    gameType: str = attrs.field(validator=attrs.validators.in_(GAME_TYPES))
    selector: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.in_(MARRIAGE_SELECTORS)))
    swines: bool = False
    hyperswines: bool = False
    offerDutySolo: bool = False

    def __attrs_post_init__(self) -> None:
        if (self.selector is None) != (self.gameType != "marriage"):
            raise ValueError("a marriage reservation, and only it, names its selector")


@attrs.frozen
class CardPlayed:
    """
    ``card played = P, <card>[ (comment)]``: the real program adds, in
    parentheses, the heuristic that chose the card (``network`` for a card
    another side played); receivers ignore it.
    """

    player: int
    card: Card
    comment: str | None = None


@attrs.frozen
class Announcement:
    """``announcement = P, <announcement>``: from a child, a request the parent echoes."""

    player: int
    announcement: str = attrs.field(validator=attrs.validators.in_(ANNOUNCEMENTS))


@attrs.frozen
class Marriage:
    """``marriage = P, B``: player P's marriage is decided: B is the partner."""

    player: int
    bride: int


@attrs.frozen
class Genscher:
    """``genscher = P, Q``: player P chooses Q as partner."""

    player: int
    partner: int


@attrs.frozen
class PovertyShift:
    """``poverty shift = P, c, ...``: player P offers these cards."""

    player: int
    cards: tuple[Card, ...]


@attrs.frozen
class PovertyAccepted:
    """``poverty accepted = P``."""

    player: int


@attrs.frozen
class PovertyReturned:
    """``poverty returned = P, c, ...``: the accepting player P gives these cards back."""

    player: int
    cards: tuple[Card, ...]


@attrs.frozen
class PovertyDenied:
    """``poverty denied = P``."""

    player: int


@attrs.frozen
class PovertyDeniedByAll:
    """``poverty denied by all``: the cards are dealt again."""


@attrs.frozen
class Swines:
    """``swines = P``: player P announces swines."""

    player: int


@attrs.frozen
class Hyperswines:
    """``hyperswines = P``."""

    player: int


@attrs.frozen
class TrickOpen:
    """``trick open``."""


@attrs.frozen
class TrickFull:
    """``trick full = S, c1, c2, c3, c4, W``: the trick started by S, won by W."""

    start: int
    cards: tuple[Card, ...]
    winner: int | None = None


@attrs.frozen
class TrickTaken:
    """``trick taken``: each side sends it and waits for the other's."""


@attrs.frozen
class Check:
    """``check`` or ``check = comment``: a marker FreeDoko reads and ignores."""

    comment: str | None = None


Action = (Reservation | CardPlayed | Announcement | Marriage | Genscher | PovertyShift
          | PovertyAccepted | PovertyReturned | PovertyDenied | PovertyDeniedByAll | Swines
          | Hyperswines | TrickOpen | TrickFull | TrickTaken | Check)
"""A gameplay action: alone a message (``gameplay action: ...``), or a line of a sync block."""


@attrs.frozen
class SyncGameplayActions:
    """``sync: gameplay actions`` and a block of every action of the game so far."""

    actions: tuple[Action, ...] = ()


Message = (ServerHello | ConnectionRejected | Bye | Ping | Pong | Name | Chat | Ask | Rules
           | Rule | PlayerType | PlayerName | PlayersSwitched | PartySeed | PartyStartplayer
           | PartyStart | PartyStartRound | PartyFinish | GameOpen | GameStartplayer | GameSeed
           | GameHand | GameStart | GameFinish | GameClose | Action | SyncGameplayActions)


@attrs.frozen
class Unknown(Malformed):
    """A line (``line``, maybe cut) that is no message this codec knows; ``reason`` says why."""

    line: bytes = b""


@attrs.frozen
class BlockStart:
    """The first line of a block message (``rules``, ``sync: gameplay actions``): L{Reader} only."""

    block: type[Rules] | type[SyncGameplayActions]


@attrs.frozen
class Received:
    """One message read, with its line's time (None: none, or ``-``) and kind."""

    message: Message | Unknown
    time: Time | None = None
    kind: Kind = Kind.NORMAL


# -- reading one line ---------------------------------------------------------------


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


_TIME = re.compile(rb"(\d+)\.(\d+)")


def _time_(data: bytes) -> Time | None | Unknown:
    if data == b"-":
        return None
    m = _TIME.fullmatch(data)
    if m is None or len(m.group(1)) > _SECONDS_DIGITS or len(m.group(2)) > _MILLIS_DIGITS:
        return Unknown("a time is <seconds>.<milliseconds> or -", data[:_CUT])
    return Time(int(m.group(1)), int(m.group(2)))


_LineValue = Message | BlockStart | Unknown


@attrs.frozen
class _Framed:
    kind: Kind
    time: Time | None
    indent: int
    text: str


def _frame(line: bytes) -> _Framed | Unknown:
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > LINE_LIMIT:
        return Unknown("line too long", line[:_CUT])
    colon = line.find(b":")
    if colon < 0:
        return _Framed(Kind.SIMPLE, None, 0, _text(line))
    kind = Kind.NORMAL
    start = 0
    if line.startswith(b"*"):
        kind, start = Kind.SPECIAL, 1
    time = _time_(line[start:colon])
    if isinstance(time, Unknown):
        return Unknown(time.reason, line[:_CUT])
    rest = line[colon + 1:]
    text = rest.lstrip(b" ")
    if not text:
        return Unknown("no message after the time", line[:_CUT])
    return _Framed(kind, time, max(len(rest) - len(text) - 1, 0), _text(text))


def _interpret(framed: _Framed, line: bytes) -> _LineValue:
    if framed.kind is Kind.SIMPLE:
        return _simple(framed.text, line)
    if framed.kind is Kind.SPECIAL:
        return _special(framed.text, line)
    return _normal(framed.text, line)


def parseLine(line: bytes) -> Received | BlockStart:
    """
    One line (without its LF) read alone: a L{Received} one-line message
    or L{Unknown}, or the L{BlockStart} of a block message.  L{Reader} is
    the way to read a stream (it gathers the blocks).
    """
    framed = _frame(line)
    if isinstance(framed, Unknown):
        return Received(framed)
    value = _interpret(framed, line)
    if isinstance(value, BlockStart):
        return value
    return Received(value, framed.time, framed.kind)


def _simple(text: str, line: bytes) -> Message | Unknown:
    if text == "FreeDoko server":
        return ServerHello()
    if text == "connection rejected":
        return ConnectionRejected()
    if text == "bye":
        return Bye()
    if text == "ping":
        return Ping()
    if text == "pong":
        return Pong()
    return Unknown("unknown simple message", line[:_CUT])


def _number(text: str, limit: int = NUMBER_MAX) -> int | None:
    text = text.strip(" ")
    if not text.isdigit() or not text.isascii() or len(text) > _NUMBER_DIGITS:
        return None
    n = int(text)
    return n if n <= limit else None


def _player(text: str) -> int | None:
    return _number(text, PLAYERS - 1)


def _special(text: str, line: bytes) -> Message | Unknown:
    if text == "ping":
        return Ping()
    if text == "pong":
        return Pong()
    if text == "bye":
        return Bye()
    word, colon, param = text.partition(":")
    if colon and word in ("ping", "pong"):
        n = _number(param)
        if n is None:
            return Unknown(f"{word} takes a number", line[:_CUT])
        return Ping(n) if word == "ping" else Pong(n)
    return Unknown("unknown special message", line[:_CUT])


def _param(text: str) -> str:
    """What follows ``word:``: one blank skipped, as FreeDoko does."""
    return text[1:] if text.startswith(" ") else text


def _config(text: str) -> tuple[str, str] | None:
    name, eq, value = text.partition("=")
    if not eq:
        return None
    name = name.strip()
    if not name:
        return None
    return name, value.strip()


_PLAYER_WORD = re.compile(r"player (\d+)")
_HAND_WORD = re.compile(r"hand (\d+)")


def _normal(text: str, line: bytes) -> _LineValue:
    cut = line[:_CUT]
    if text == "rules":
        return BlockStart(Rules)
    if text in ("ping", "pong", "bye"):  # the real program's Sender::ping() writes a normal ping
        return _special(text, line)
    if text.startswith("party "):  # the document's spellings: party start, ...
        return _party(text[len("party "):], line)
    word, colon, rest = text.partition(":")
    if not colon:
        return Unknown("unknown message", cut)
    param = _param(rest)
    if word == "gameplay action":
        return parseAction(param, line)
    if word == "game":
        return _game(param, line)
    if word == "party":
        return _party(param, line)
    if word in ("name", "Name"):
        return Name(param)
    if word == "chat":
        return Chat(param)
    if word == "ask":
        return Ask(param)
    if word == "rule":
        config = _config(param)
        if config is None:
            return Unknown("rule: <name> = <value>", cut)
        return Rule(*config)
    if word == "sync":
        if param == "gameplay actions":
            return BlockStart(SyncGameplayActions)
        return Unknown("unknown sync", cut)
    if word in ("players switched", "players switch"):
        parts = param.split()
        if len(parts) == 2:
            a, b = _player(parts[0]), _player(parts[1])
            if a is not None and b is not None:
                return PlayersSwitched(a, b)
        return Unknown("players switched: <a> <b>", cut)
    m = _PLAYER_WORD.fullmatch(word)
    if m is not None:
        player = _player(m.group(1))
        config = _config(param)
        if player is None or config is None:
            return Unknown("player <n>: type|name = <value>", cut)
        key, value = config
        if key == "type" and value in names.PLAYER_TYPES:
            return PlayerType(player, value == "local")
        if key == "name":
            return PlayerName(player, value)
        return Unknown("player <n>: type = local|network or name = <name>", cut)
    return Unknown("unknown message", cut)


def _party(param: str, line: bytes) -> Message | Unknown:
    if param == "start":
        return PartyStart()
    if param == "finish":
        return PartyFinish()
    word, colon, rest = param.partition(":")
    if colon:
        n = _number(rest)
        if word == "seed" and n is not None:
            return PartySeed(n)
        if word == "startplayer" and n is not None and n < PLAYERS:
            return PartyStartplayer(n)
        if word == "start round" and n is not None:
            return PartyStartRound(n)
    return Unknown("unknown party message", line[:_CUT])


def _game(param: str, line: bytes) -> Message | Unknown:
    simple: dict[str, type[GameOpen | GameStart | GameFinish | GameClose]] = {
        "open": GameOpen, "start": GameStart, "finish": GameFinish, "close": GameClose}
    if param in simple:
        return simple[param]()
    word, colon, rest = param.partition(":")
    if colon:
        if word == "startplayer":
            n = _player(rest)
            if n is not None:
                return GameStartplayer(n)
        elif word == "seed":
            n = _number(rest)
            if n is not None:
                return GameSeed(n)
        else:
            m = _HAND_WORD.fullmatch(word)
            player = None if m is None else _player(m.group(1))
            if player is not None:
                cards = _cards(rest) if rest.strip() else ()
                if cards is not None:
                    if len(cards) % 2 == 1 and len(cards) > 1 and cards[0] == cards[1]:
                        return GameHand(player, cards[1:], True)
                    return GameHand(player, cards, not cards)
    return Unknown("unknown game message", line[:_CUT])


def parseCard(text: str) -> Card | None:
    """A card from ``<color> <value>`` (blanks around ignored), or None."""
    parts = text.split()
    if len(parts) != 2 or parts[0] not in COLORS or parts[1] not in VALUES:
        return None
    return Card(parts[0], parts[1])


def _cards(text: str) -> tuple[Card, ...] | None:
    cards = []
    for part in text.split(","):
        card = parseCard(part)
        if card is None:
            return None
        cards.append(card)
    return tuple(cards)


_CARD_PLAYED = re.compile(r"\s*(\d+)\s*,\s*(\S+)\s+(\S+?)(?:\s*\(([^)\n]*)\))?\s*")


def parseAction(text: str, line: bytes | None = None) -> Action | Unknown:
    """A gameplay action from its text (what follows ``gameplay action:``); total."""
    cut = (text.encode("utf-8", "replace") if line is None else line)[:_CUT]
    keyword, eq, rest = text.partition("=")
    keyword = keyword.strip()
    bare: dict[str, type[PovertyDeniedByAll | TrickOpen | TrickTaken]] = {
        "poverty denied by all": PovertyDeniedByAll, "trick open": TrickOpen,
        "trick taken": TrickTaken}
    if keyword in bare:
        return bare[keyword]() if not eq else Unknown(f"{keyword} takes nothing", cut)
    if keyword in ("check", "CHECK"):
        return Check(rest.strip() or None) if eq else Check()
    if not eq:
        return Unknown("unknown gameplay action", cut)
    if keyword == "card played":
        m = _CARD_PLAYED.fullmatch(rest)
        if m is not None:
            player = _player(m.group(1))
            card = parseCard(f"{m.group(2)} {m.group(3)}")
            if player is not None and card is not None:
                return CardPlayed(player, card, m.group(4))
        return Unknown("card played = <p>, <card>[ (comment)]", cut)
    parts = [part.strip() for part in rest.split(",")]
    player = _player(parts[0])
    if player is None:
        return Unknown(f"{keyword} = <player>...", cut)
    args = parts[1:]
    if keyword in ("poverty accepted", "poverty denied", "swines", "hyperswines"):
        if args:
            return Unknown(f"{keyword} = <player>", cut)
        single: dict[str, type[PovertyAccepted | PovertyDenied | Swines | Hyperswines]] = {
            "poverty accepted": PovertyAccepted, "poverty denied": PovertyDenied,
            "swines": Swines, "hyperswines": Hyperswines}
        return single[keyword](player)
    if keyword in ("marriage", "genscher"):
        other = _player(args[0]) if len(args) == 1 else None
        if other is None:
            return Unknown(f"{keyword} = <player>, <player>", cut)
        return Marriage(player, other) if keyword == "marriage" else Genscher(player, other)
    if keyword == "announcement":
        if len(args) == 1 and args[0] in ANNOUNCEMENTS:
            return Announcement(player, args[0])
        return Unknown("announcement = <player>, <announcement>", cut)
    if keyword in ("poverty shift", "poverty returned"):
        cards = _cards(",".join(args)) if args else ()
        if cards is None:
            return Unknown(f"{keyword} = <player>, <cards>", cut)
        return (PovertyShift if keyword == "poverty shift" else PovertyReturned)(player, cards)
    if keyword == "reservation":
        return _reservation(player, args, cut)
    if keyword == "trick full":
        return _trickFull(player, args, cut)
    return Unknown("unknown gameplay action", cut)


def _reservation(player: int, args: list[str], cut: bytes) -> Reservation | Unknown:
    if not args or args[0] not in GAME_TYPES:
        return Unknown("reservation = <player>, <game type>, ...", cut)
    gameType, flags = args[0], args[1:]
    selector = None
    if gameType == "marriage":
        if not flags or flags[0] not in MARRIAGE_SELECTORS:
            return Unknown("a marriage reservation names its selector", cut)
        selector, flags = flags[0], flags[1:]
    if len(set(flags)) != len(flags) or not set(flags) <= set(names.RESERVATION_FLAGS):
        return Unknown("a reservation's flags: offer duty solo, swines, hyperswines", cut)
    return Reservation(player, gameType, selector, "swines" in flags, "hyperswines" in flags,
                       "offer duty solo" in flags)


def _trickFull(start: int, args: list[str], cut: bytes) -> TrickFull | Unknown:
    cards = []
    winner = None
    for i, part in enumerate(args):
        if part[:1].isdigit():
            winner = _player(part)
            if winner is None or i != len(args) - 1:
                return Unknown("trick full = <start>, <cards>, <winner>", cut)
            break
        card = parseCard(part)
        if card is None:
            return Unknown("trick full = <start>, <cards>, <winner>", cut)
        cards.append(card)
    if len(cards) > PLAYERS:
        return Unknown("a trick holds four cards", cut)
    return TrickFull(start, tuple(cards), winner)


# -- writing -------------------------------------------------------------------


def kindOf(message: Message) -> Kind:
    """The kind of line the real program sends ``message`` as."""
    if isinstance(message, (ServerHello, ConnectionRejected, Bye)):
        return Kind.SIMPLE
    if isinstance(message, (Ping, Pong)):
        return Kind.SPECIAL
    return Kind.NORMAL


def _cardList(cards: tuple[Card, ...]) -> str:
    return ", ".join(map(str, cards))


def formatAction(action: Action) -> str:
    """A gameplay action's text, as the real program writes it."""
    if isinstance(action, Reservation):
        text = f"reservation = {action.player}, {action.gameType}"
        if action.gameType == "marriage":
            text += f", {action.selector}"
        if action.offerDutySolo:
            text += ", offer duty solo"
        if action.swines:
            text += ", swines"
        if action.hyperswines:
            text += ", hyperswines"
        return text
    if isinstance(action, CardPlayed):
        comment = "" if action.comment is None else f" ({action.comment})"
        return f"card played = {action.player}, {action.card}{comment}"
    if isinstance(action, Announcement):
        return f"announcement = {action.player}, {action.announcement}"
    if isinstance(action, Marriage):
        return f"marriage = {action.player}, {action.bride}"
    if isinstance(action, Genscher):
        return f"genscher = {action.player}, {action.partner}"
    if isinstance(action, (PovertyShift, PovertyReturned)):
        keyword = "poverty shift" if isinstance(action, PovertyShift) else "poverty returned"
        return "".join([f"{keyword} = {action.player}"] + [f", {c}" for c in action.cards])
    if isinstance(action, PovertyAccepted):
        return f"poverty accepted = {action.player}"
    if isinstance(action, PovertyDenied):
        return f"poverty denied = {action.player}"
    if isinstance(action, Swines):
        return f"swines = {action.player}"
    if isinstance(action, Hyperswines):
        return f"hyperswines = {action.player}"
    if isinstance(action, TrickFull):
        text = "".join([f"trick full = {action.start}"] + [f", {c}" for c in action.cards])
        return text if action.winner is None else f"{text}, {action.winner}"
    if isinstance(action, Check):
        return "check" if action.comment is None else f"check = {action.comment}"
    if isinstance(action, PovertyDeniedByAll):
        return "poverty denied by all"
    if isinstance(action, TrickOpen):
        return "trick open"
    return "trick taken"


def _normalText(message: Message) -> str:
    if isinstance(message, Name):
        return f"name: {message.name}"
    if isinstance(message, Chat):
        return f"chat: {message.text}"
    if isinstance(message, Ask):
        return f"ask: {message.question}"
    if isinstance(message, Rule):
        return f"rule: {message.name} = {message.value}"
    if isinstance(message, PlayerType):
        return f"player {message.player}: type = {'local' if message.local else 'network'}"
    if isinstance(message, PlayerName):
        return f"player {message.player}: name = {message.name}"
    if isinstance(message, PlayersSwitched):
        return f"players switched: {message.a} {message.b}"
    if isinstance(message, PartySeed):
        return f"party: seed: {message.seed}"
    if isinstance(message, PartyStartplayer):
        return f"party: startplayer: {message.player}"
    if isinstance(message, PartyStart):
        return "party: start"
    if isinstance(message, PartyStartRound):
        return f"party: start round: {message.round}"
    if isinstance(message, PartyFinish):
        return "party: finish"
    if isinstance(message, GameOpen):
        return "game: open"
    if isinstance(message, GameStartplayer):
        return f"game: startplayer: {message.player}"
    if isinstance(message, GameSeed):
        return f"game: seed: {message.seed}"
    if isinstance(message, GameHand):
        cards = message.cards[:1] + message.cards if message.repeated else message.cards
        return f"game: hand {message.player}: {_cardList(cards)}"
    if isinstance(message, GameStart):
        return "game: start"
    if isinstance(message, GameFinish):
        return "game: finish"
    if isinstance(message, GameClose):
        return "game: close"
    return "gameplay action: " + formatAction(message)  # type: ignore[arg-type]


def _line(time: Time, text: str, indent: int = 0) -> bytes:
    return f"{time}: {' ' * indent}{text}\n".encode("utf-8")


def _cardPlayedText(message: CardPlayed) -> str:
    card = message.card
    if message.comment is None:
        return f"gameplay action: card played = {message.player}, {card.color} {card.value}"
    return (f"gameplay action: card played = {message.player}, {card.color} {card.value} "
            f"({message.comment})")


def _trickFullText(message: TrickFull) -> str:
    text = "".join([f"gameplay action: trick full = {message.start}"]
                   + [f", {c.color} {c.value}" for c in message.cards])
    return text if message.winner is None else f"{text}, {message.winner}"


def _constant(text: str) -> Callable[[object], str]:
    return lambda message: text


_TEXTS: Final[dict[type, Callable[..., str]]] = {
    CardPlayed: _cardPlayedText,
    TrickFull: _trickFullText,
    TrickOpen: _constant("gameplay action: trick open"),
    TrickTaken: _constant("gameplay action: trick taken"),
    PovertyDeniedByAll: _constant("gameplay action: poverty denied by all"),
    PartyStart: _constant("party: start"),
    PartyFinish: _constant("party: finish"),
    GameOpen: _constant("game: open"),
    GameStart: _constant("game: start"),
    GameFinish: _constant("game: finish"),
    GameClose: _constant("game: close"),
    **{kind: _normalText for kind in (
        Name, Chat, Ask, Rule, PlayerType, PlayerName, PlayersSwitched, PartySeed,
        PartyStartplayer, PartyStartRound, GameStartplayer, GameSeed, GameHand,
        Reservation, Announcement, Marriage, Genscher, PovertyShift, PovertyAccepted,
        PovertyReturned, PovertyDenied, Swines, Hyperswines, Check)},
}
"""
A one-line message's text by its exact type (a subclass goes the plain
way): the usual gameplay lines written at once, the constant ones made once.
"""

_stampMillis = -1
_stampText = ""


def _nowText() -> str:
    """L{Time.now}'s text, kept for the millisecond it names."""
    global _stampMillis, _stampText
    ms = int(_time.time() * 1000)
    if ms != _stampMillis:
        _stampText = f"{ms // 1000}.{ms % 1000}"
        _stampMillis = ms
    return _stampText


def format(message: Message, time: Time | None = None) -> bytes:
    """
    The bytes of one message (several lines for a block), as the real
    program writes them, stamped ``time`` (default: now).
    """
    text = _TEXTS.get(type(message))
    if text is None:
        return _formatPlain(message, time)
    if time is not None:
        return f"{time.seconds}.{time.millis}: {text(message)}\n".encode("utf-8")
    global _writtenStamp
    stamp = _nowText()
    if stamp is not _writtenStamp:
        _written.clear()
        _writtenStamp = stamp
    found = _written.get(id(message))
    if found is not None and found[0] is message:
        return found[1]
    data = f"{stamp}: {text(message)}\n".encode("utf-8")
    if len(_written) < _WRITTEN_LIMIT:
        _written[id(message)] = (message, data)
    return data


_written: dict[int, tuple[object, bytes]] = {}
"""
The lines written in the current millisecond, by the message written (the
same message sent to several connections is written once).
"""
_writtenStamp = ""
_WRITTEN_LIMIT: Final = 256


def _formatPlain(message: Message, time: Time | None = None) -> bytes:
    """L{format}, any message the plain way."""
    if isinstance(message, ServerHello):
        return b"FreeDoko server\n"
    if isinstance(message, ConnectionRejected):
        return b"connection rejected\n"
    if isinstance(message, Bye):
        return b"bye\n"
    stamp = Time.now(_time.time) if time is None else time
    if isinstance(message, (Ping, Pong)):
        word = "ping" if isinstance(message, Ping) else "pong"
        text = word if message.number is None else f"{word}: {message.number}"
        return b"*" + _line(stamp, text)
    if isinstance(message, Rules):
        lines = [_line(stamp, "rules"), _line(stamp, "{")]
        for entry in message.entries:
            if isinstance(entry, RuleComment):
                lines.append(_line(stamp, f"#{entry.text}", entry.indent))
            else:
                lines.append(_line(stamp, f"{entry.name} = {entry.value}", entry.indent))
        lines.append(_line(stamp, "}"))
        return b"".join(lines)
    if isinstance(message, SyncGameplayActions):
        return b"".join([_line(stamp, "sync: gameplay actions"), _line(stamp, "{")]
                        + [_line(stamp, formatAction(a)) for a in message.actions]
                        + [_line(stamp, "}")])
    return _line(stamp, _normalText(message))


serialize = format


# -- reading a stream ------------------------------------------------------------


def _usualLines() -> dict[bytes, Callable[[], Message]]:
    lines: dict[bytes, Callable[[], Message]] = {
        b"gameplay action: trick taken": TrickTaken,
        b"gameplay action: trick open": TrickOpen,
    }
    for player in range(PLAYERS):
        for color in COLORS:
            for value in VALUES:
                card = Card(color, value)
                text = f"gameplay action: card played = {player}, {color} {value}"
                lines[text.encode("ascii")] = functools.partial(CardPlayed, player, card)
    return lines


_USUAL_LINES: Final = _usualLines()
"""
The usual lines of a child (what follows the time and its blank), each
read as its message at once; any other line is read part by part.
"""


class _Block:
    def __init__(self, block: type[Rules] | type[SyncGameplayActions], time: Time | None) -> None:
        self.block = block
        self.time = time
        self.depth = 0
        self.lines = 0
        self.rules: list[RuleEntry] = []
        self.actions: list[Action] = []

    def finish(self) -> Rules | SyncGameplayActions:
        if self.block is Rules:
            return Rules(tuple(self.rules))
        return SyncGameplayActions(tuple(self.actions))


class Reader:
    """
    Messages from a byte stream, blocks gathered into one message each.

    A line longer than ``limit`` gives one L{Unknown} and is skipped up to
    its LF; a block longer than L{BLOCK_LIMIT} lines gives one L{Unknown}
    and is dropped; a line of a block that is no rule (no action) gives an
    L{Unknown} and the block goes on, as in the real program.  Simple and
    special lines inside a block are messages of their own.
    """

    def __init__(self, limit: int = LINE_LIMIT) -> None:
        self.limit = limit
        self._buffer = ReceiveBuffer(limit=limit)
        self._skipping = False
        self._block: _Block | None = None

    @property
    def buffered(self) -> int:
        """Bytes held that are no whole line yet."""
        return len(self._buffer)

    @property
    def inBlock(self) -> bool:
        """Whether a block message is being read."""
        return self._block is not None

    def feed(self, data: bytes) -> list[Received]:
        """Every whole message in ``data`` (and what came before)."""
        self._buffer += data
        return list(self._messages())

    def _messages(self) -> Iterator[Received]:
        while True:
            if self._skipping:
                if not self._buffer.discardLine():
                    return
                self._skipping = False
            line = self._buffer.extractLine(self.limit)
            if isinstance(line, NeedMore):
                return
            if isinstance(line, TooLong):
                self._skipping = True
                yield Received(Unknown("line too long", self._buffer.peek(64)))
                continue
            yield from self._line(line)

    def _line(self, line: bytes) -> Iterator[Received]:
        if self._block is None:
            # A usual line (a card played, a trick taken) at once: what
            # precedes its ": " can only be a time, as the plain way reads it.
            colon = line.find(b": ")
            make = _USUAL_LINES.get(line[colon + 2:]) if colon > 0 else None
            if make is not None:
                time = _time_(line[:colon])
                if not isinstance(time, Unknown):
                    yield Received(make(), time, Kind.NORMAL)
                    return
        if line in (b"", b"\r"):
            return
        framed = _frame(line)
        if isinstance(framed, Unknown):
            yield Received(framed)
            return
        block = self._block
        if block is not None and framed.kind is Kind.NORMAL:
            yield from self._blockLine(block, framed, line)
            return
        value = _interpret(framed, line)
        if isinstance(value, BlockStart):
            self._block = _Block(value.block, framed.time)
            return
        yield Received(value, framed.time, framed.kind)

    def _blockLine(self, block: _Block, framed: _Framed, line: bytes) -> Iterator[Received]:
        text, indent = framed.text, framed.indent
        block.lines += 1
        if block.lines > BLOCK_LIMIT:
            self._block = None
            yield Received(Unknown("block too long", line[:_CUT]), block.time)
            return
        if text == "{":
            block.depth += 1
            return
        if text == "}":
            block.depth -= 1
            if block.depth <= 0:
                self._block = None
                yield Received(block.finish(), block.time)
            return
        if block.block is Rules:
            if text.startswith("#"):
                block.rules.append(RuleComment(text[1:], indent))
                return
            config = _config(text)
            if config is None:
                yield Received(Unknown("not a rule line in a rules block", line[:_CUT]), block.time)
                return
            block.rules.append(RuleSetting(config[0], config[1], indent))
            return
        if text.startswith("#"):
            return
        action = parseAction(text, line)
        if isinstance(action, Unknown):
            yield Received(action, block.time)
            return
        block.actions.append(action)
