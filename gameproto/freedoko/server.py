"""
The FreeDoko parent on the shared engine layer (docs/protocols/freedoko.md,
"The gameproto server").

Every connection is a FreeDoko child managing one player of a table of four
(L{FreeDokoRoom}, a L{Room}): the table starts when four children are
seated, or after ``botsAfter`` seconds with server bots (L{FreeDokoBot}) in
the empty seats, and plays one party of the Doppelkopf engine
(L{gameproto.games.doppelkopf}), recorded in the hub's store like every
table.

What a child is told is translated, sans I/O, from the table's updates by a
L{Translator} (one per connection): the events of the engine become the
real parent's lines, every gameplay action relayed to every child (the
sender included).  After each full trick the L{Barrier} of the document
holds: the parent sends ``trick taken`` and waits for every child's before
anything else happens at the table (bots wait, children's actions queue).

A child's action goes to the table only for the player it manages, and
only when the rules take it; otherwise it is refused: one log line, a
``chat:`` line to that child, nothing relayed.  A child that lets its time
pass or disconnects leaves its seat to a bot at once; it may take it back
under the same name while the party plays, when the next game opens.
Guests of other protocols sit at the waiting tables through the hub's
L{FreeDokoMatchmaker}.
"""

from __future__ import annotations

import enum
import random
import typing
from collections import deque
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence, Union

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from gameproto.engine.clock import Deadline, seconds
from gameproto.engine.contract import JSON, Errors, Event, Instructions, Seat
from gameproto.engine.hub import BOT_SUFFIX, Guest, GuestSeat, Hub, isBotName
from gameproto.engine.record import RecordStore
from gameproto.engine.room import Room, RoomMatchmaker
from gameproto.engine.service import GameServer
from gameproto.engine.table import BotSeat, Table
from gameproto.freedoko import wire
from gameproto.freedoko.machine import ServerInputs, ServerMachine
from gameproto.freedoko.protocol import FreeDokoServerProtocol
from gameproto.games import doppelkopf
from gameproto.games.doppelkopf import (
    DEFAULT_RULES_TEXT,
    DOPPELKOPF,
    TRICKS,
    DoppelkopfParty,
    DoppelkopfView,
    Rules,
    SeatView,
    announcementNumber,
    doppelkopfBot,
)
from gameproto.metrics import refused
from gameproto.net import GameServerFactory, printable

if TYPE_CHECKING:
    from gameproto.freedoko.protocol import FreeDokoServerProtocol as _Protocol

log = Logger(namespace="gameproto.freedoko")

PLAYERS = 4
PARENT_NAME = "gameproto"
"""The parent's ``name:``."""
NAME_LIMIT = 64
"""The longest child name kept (longer ones are cut)."""
def childName(name: str) -> str | None:
    """
    The name a child is known by: its own, blanks around it taken off, cut
    to L{NAME_LIMIT}, each control character made U+FFFD; None (its seat's
    default, C{playerN}, N from 1) for an empty name, one that holds a
    colon, or the parent's own (any case), so that no child's chat can
    pass for the parent's lines (C{chat: gameproto: refused ...}) or break
    the lines that carry names.
    """
    kept = printable(name.strip()[:NAME_LIMIT])
    if not kept or ":" in kept or kept.casefold() == PARENT_NAME.casefold():
        return None
    return kept


LINGER = 3600.0
"""
Seconds a connection stays open after ``party: finish`` unless the child
closes it: the real child crashes (signal 11) when its parent closes the
connection, even after the party.
"""


def _rules(instance: object, attribute: object, value: str) -> None:
    """The engine's ``rules`` parameter takes them (L{doppelkopf.rulesProblem})."""
    problem = doppelkopf.rulesProblem(value)
    if problem is not None:
        raise ValueError(problem)


def _maxTables(instance: object, attribute: object, value: int) -> None:
    if value < 0:
        raise ValueError(f"maxTables must be 0 or more, got {value}")


@attrs.frozen
class FreeDokoSettings:
    """The parent's knobs; times in seconds."""

    timeout: float = attrs.field(default=60.0, validator=seconds)
    """Time a child has for each decision (and for its name, and for each ``trick taken``)."""
    botsAfter: float = attrs.field(default=30.0, validator=seconds)
    """How long a waiting table waits for children before bots fill it (0: at once)."""
    botDelay: float = attrs.field(default=0.0, validator=seconds)
    """How long a bot waits before each of its moves."""
    rules: str = attrs.field(default="", validator=_rules)
    """
    The rules, in FreeDoko's rule-file form (empty: FreeDoko's defaults),
    as the engine's ``rules`` parameter takes them: refused here rather
    than by every table.
    """
    maxTables: int = attrs.field(default=0, validator=_maxTables)
    """
    The most parties played at once (0: no limit); past it, a newcomer that
    would open a new table is sent ``connection rejected``, as the real
    parent does during its party.
    """


def botName(seat: Seat) -> str:
    """
    The name of the server's bot in ``seat``, the one ``player p: name``
    lines give every bot's seat (restored games see bots by the prefix):
    numbered as players see the seats (P1..P4), not as FreeDoko numbers its
    players (0..3), so the bot in FreeDoko's player 1, P2, is ``bot2``.
    """
    return f"bot{seat + 1}"


def leaverBotName(leaver: str, seat: Seat) -> str:
    """
    The recorded name of a bot that takes ``seat`` over from the player
    ``leaver``: that name with " (bot)", so that records keep who sat there.
    """
    return leaver + BOT_SUFFIX if leaver and not isBotName(leaver) else botName(seat)


# -- the rules block ---------------------------------------------------------------


def rulesBlock(rules: Rules) -> wire.Rules:
    """
    The ``rules`` block for ``rules``: the real parent's lines (its order,
    indentation and comments), each with our value, then every other rule
    ``rules`` holds.
    """
    entries: list[wire.RuleEntry] = []
    seen: set[str] = set()
    for raw in DEFAULT_RULES_TEXT.splitlines():
        text = raw.lstrip(" ")
        indent = len(raw) - len(text)
        if not text:
            continue
        if text.startswith("#"):
            entries.append(wire.RuleComment(text[1:], indent))
            continue
        name, eq, value = text.partition("=")
        if not eq:
            continue
        name = name.strip()
        seen.add(name)
        entries.append(wire.RuleSetting(name, rules.value(name, value.strip()), indent))
    for name, value in rules.entries:
        if name not in seen:
            seen.add(name)
            entries.append(wire.RuleSetting(name, value))
    return wire.Rules(tuple(entries))


# -- the translation: table updates to the real parent's lines -----------------------


@attrs.frozen
class Barrier:
    """
    The ``trick taken`` barrier after the party's ``index``-th trick: what
    follows is sent once every child of the table said ``trick taken`` that
    often.
    """

    index: int


@attrs.frozen
class PovertyHold:
    """
    What follows (a poverty's shift and its answers) is sent to a child
    that answers only once its own player is asked, or once the answers are
    over: then together.  The real child keeps the last poverty answer of
    each player it does not manage (``NetworkPlayer::pending_poverty_accept``
    is never reset), and takes it for that player's next answer if it asks
    before the new one came: given the answers before its own with the
    shift, it never asks too early.  (The child that shifted asks at once:
    nothing helps it; see docs/protocols/freedoko.md.)
    """


class Signal(enum.Enum):
    """Where the connection's machine moves on, among the lines."""

    PARTY_OVER = "partyOver"
    "``party: finish`` was sent."
    NEW_DEAL = "newDeal"
    "A thrown game is dealt again: its gameplay actions start anew."


Output = Union[wire.Message, Barrier, PovertyHold, Signal]


@attrs.frozen
class GameFacts:
    """
    What the lines of a step need beyond its events: the game's seed, the
    poverty's cards, its number of tricks (10 without nines).
    """

    seed: int
    povertyCards: tuple[str, ...] = ()
    povertyReturned: tuple[str, ...] = ()
    tricks: int = TRICKS

    @classmethod
    def of(cls, party: DoppelkopfParty) -> GameFacts:
        game = party.game
        return cls(game.seed, tuple(game.povertyCards), tuple(game.povertyReturned),
                   game.trickCount)


def _wireCard(name: str) -> wire.Card:
    color, _, value = name.partition(" ")
    return wire.Card(color, value)


_WIRE_CARDS = {name: _wireCard(name) for name in doppelkopf.CARDS}
"""The 24 cards on the wire, built once (frozen: shared by every line that names one)."""


def card(name: str) -> wire.Card:
    """A card of the engine (``club queen``) on the wire."""
    found = _WIRE_CARDS.get(name)
    return found if found is not None else _wireCard(name)


def reservationAction(seat: Seat, text: str) -> wire.Reservation:
    """The engine's reservation (``marriage, first foreign, swines``) as the wire's action."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    gameType, flags = parts[0], parts[1:]
    selector = None
    if gameType == doppelkopf.MARRIAGE:
        selector = next((f for f in flags if f in doppelkopf.SELECTORS), "first foreign")
    return wire.Reservation(seat, gameType, selector, "swines" in flags, "hyperswines" in flags)


def reservationText(action: wire.Reservation) -> str:
    """A child's reservation in the engine's form (``offer duty solo`` is dropped)."""
    parts = [action.gameType]
    if action.selector is not None:
        parts.append(action.selector)
    if action.swines:
        parts.append("swines")
    if action.hyperswines:
        parts.append("hyperswines")
    return ", ".join(parts)


def childReservation(action: wire.Reservation, hand: Sequence[str], rules: Rules) -> str:
    """
    A child's reservation in the engine's form, with ``swines`` whenever a
    game may make them its player's (L{doppelkopf.swinesPossible}), under
    ``swines announcement begin``.  The real child announces them itself as
    the game starts if the game made them its own (Human::game_start, with
    its default setting ``announce swines automatically``), in another's
    color solo too, and sends ``swines = p`` only then; its fellow children
    know of them only by this reservation's ``swines`` (one that comes once
    the play runs, they ignore): so the table takes them with it.
    """
    text = reservationText(action)
    if (not action.swines and rules.flag("swines announcement begin")
            and doppelkopf.swinesPossible(hand, rules)):
        text += ", swines"
    return text


class Translator:
    """
    The lines one child is told of its table's updates, in the real
    parent's order, with L{Barrier}s where the ``trick taken`` barrier holds
    them and L{Signal}s where its machine moves on.  No I/O: it only counts
    the tricks it has told (L{tricks}, the party's, for the barrier) and
    those of the current game.
    """

    def __init__(self, tricks: int = 0) -> None:
        self.tricks = tricks
        """The party's tricks told so far (each one a ``trick taken`` to wait for)."""
        self.gameTricks = 0

    def header(self, seat: Seat, names: Sequence[str], seed: int, startplayer: Seat,
               round: int = 0) -> list[Output]:
        """The party's first lines: the other players' names, seed, startplayer, start, round."""
        out: list[Output] = [wire.PlayerName(p, names[p]) for p in range(PLAYERS) if p != seat]
        out += [wire.PartySeed(seed), wire.PartyStartplayer(startplayer), wire.PartyStart(),
                wire.PartyStartRound(round)]
        return out

    def translate(self, events: Iterable[Event], seat: Seat, facts: GameFacts) -> list[Output]:
        """What ``seat`` is told of one step's ``events`` (those it may see)."""
        out: list[Output] = []
        for event in events:
            out += self._event(event, seat, facts)
        return out

    def _event(self, event: Event, seat: Seat, facts: GameFacts) -> list[Output]:
        data = event.data if isinstance(event.data, dict) else {}
        who = event.seat if event.seat is not None else data.get("seat")
        player = who if isinstance(who, int) else 0
        match event.kind:  # (the usual kinds first: each case is one comparison)
            case "card":
                return [wire.CardPlayed(player, card(str(data["card"])), "network")]
            case "trick":
                self.tricks += 1
                self.gameTricks += 1
                played = tuple(card(str(c)) for c in data["cards"])  # type: ignore[union-attr]
                out: list[Output] = [
                    wire.TrickFull(int(data["leader"]), played, int(data["winner"])),  # type: ignore[arg-type]
                    wire.TrickTaken(), Barrier(self.tricks)]
                if self.gameTricks < facts.tricks:
                    out.append(wire.TrickOpen())
                return out
            case "game":
                self.gameTricks = 0
                return [wire.GameOpen(), wire.GameStartplayer(int(data["startplayer"])),  # type: ignore[arg-type]
                        wire.GameSeed(facts.seed)]
            case "deal":
                self.gameTricks = 0
                return []
            case "hand":
                cards = event.data if isinstance(event.data, list) else []
                return [wire.GameHand(player, tuple(card(str(c)) for c in cards))]
            case "reservation":
                return [reservationAction(player, str(data["reservation"]))]
            case "poverty shift":
                return [PovertyHold(),
                        wire.PovertyShift(player, tuple(map(card, facts.povertyCards)))]
            case "poverty denied":
                return [wire.PovertyDenied(player)]
            case "poverty accepted":
                return [wire.PovertyAccepted(player)]
            case "poverty returned":
                return [wire.PovertyReturned(player, tuple(map(card, facts.povertyReturned)))]
            case "poverty denied by all":
                return [wire.PovertyDeniedByAll()]
            case "redeal":
                return [wire.GameStart(), Signal.NEW_DEAL]
            case "swines":
                return [wire.Swines(player)]
            case "hyperswines":
                return [wire.Hyperswines(player)]
            case "game start":
                return [wire.GameStart(), wire.TrickOpen()]
            case "genscher":
                return [wire.Genscher(player, int(data["partner"]))]  # type: ignore[arg-type]
            case "marriage":
                return [wire.Marriage(player, int(data["partner"]))]  # type: ignore[arg-type]
            case "announcement":
                return [wire.Announcement(player, str(data["announcement"]))]
            case "game over":
                return [wire.GameFinish()]
            case "round":
                return [wire.PartyStartRound(int(data["round"]))]  # type: ignore[arg-type]
            case "party over":
                return [wire.PartyFinish(), Signal.PARTY_OVER]
        return []


_FACT_KINDS = frozenset({"game", "poverty shift", "poverty returned", "trick"})
"""The kinds of event whose lines read L{GameFacts} (L{Translator._event})."""

_NO_FACTS = GameFacts(0)
"""The facts given for steps without those kinds (never read)."""

_ACTION_KINDS = frozenset(typing.get_args(wire.Action))
"""The gameplay actions' exact types (a child's L{FreeDokoChild.told})."""

_LINE_KINDS = frozenset(typing.get_args(wire.Message))
"""The messages' exact types: what L{FreeDokoChild.flush} sends as it comes."""


def engineAction(action: wire.Action) -> JSON:
    """A child's gameplay action as the Doppelkopf engine's action (None: none there)."""
    match action:
        case wire.Reservation():
            return {"reservation": reservationText(action)}
        case wire.CardPlayed():
            return {"card": str(action.card)}
        case wire.Announcement():
            return {"announcement": action.announcement}
        case wire.Swines():
            return {"swines": True}
        case wire.Hyperswines():
            return {"hyperswines": True}
        case wire.PovertyShift():
            return {"poverty shift": [str(c) for c in action.cards]}
        case wire.PovertyAccepted():
            return {"poverty accepted": True}
        case wire.PovertyDenied():
            return {"poverty accepted": False}
        case wire.PovertyReturned():
            return {"poverty returned": [str(c) for c in action.cards]}
    return None


def syncKey(action: wire.Action) -> wire.Action | None:
    """
    What a line of a ``sync: gameplay actions`` block is compared by: the
    action without the comment of a card; None for the lines each side
    writes for itself (``trick open``, ``trick full``, ``trick taken``,
    ``check``), which the real child puts in its own order.
    """
    if isinstance(action, (wire.TrickOpen, wire.TrickFull, wire.TrickTaken, wire.Check)):
        return None
    if isinstance(action, wire.CardPlayed):
        return wire.CardPlayed(action.player, action.card)
    return action


def partyOf(table: Table) -> DoppelkopfParty:
    """The party a FreeDoko table plays."""
    party = table.engine
    assert isinstance(party, DoppelkopfParty)
    return party


def echoed(party: DoppelkopfParty, seat: Seat, action: wire.Action) -> bool:
    """
    Whether ``action`` repeats what the party already holds for ``seat``:
    the real child sends an announcement again once it was echoed, and
    ``swines = p`` after a reservation with swines.  Such a line is dropped
    without a word.
    """
    game = party.game
    if isinstance(action, wire.Announcement):
        number = announcementNumber(action.announcement)
        return number is not None and game.seatAnnouncement(seat) >= number > 0
    if isinstance(action, wire.Swines):
        return game.swinesOwner == seat
    if isinstance(action, wire.Hyperswines):
        return game.hyperswinesOwner == seat
    return False


# -- a child ------------------------------------------------------------------


class FreeDokoChild:
    """
    One child's connection: the core of its L{ServerMachine} and, once its
    table plays, the L{SeatHolder} of the player it manages.
    """

    def __init__(self, server: FreeDokoServer, protocol: _Protocol) -> None:
        self.server = server
        self.protocol = protocol
        self.childName: str | None = None
        self.seat: Seat = -1
        self.room: FreeDokoRoom | None = None
        self.inParty = False
        """Between the party's first line and ``party: finish`` (or the connection's end)."""
        self.translator = Translator()
        self.taken = 0
        """The ``trick taken`` lines the child sent in this party."""
        self._pending: deque[Output] = deque()
        self.told: list[wire.Action] = []
        """The gameplay actions sent to the child in its game (its deal) so far."""
        self._announcements: list[wire.Announcement] = []
        """Announcements made on the child's turn, judged after its card."""
        self._genscher: Seat | None = None
        """The partner a ``genscher`` line named, for the child's next card."""
        self._timer = Deadline(server.clock)
        self._barrierTimer = Deadline(server.clock)
        self.machine: ServerInputs = ServerMachine(self)

    # -- SeatHolder ------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.childName or f"player{self.seat + 1}"  # numbered as seats are shown

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self.server.settings.timeout

    def timedOut(self, table: Table, seat: Seat) -> None:
        if self.room is not None and self.room.barrierUp():
            # Its move may be queued behind the barrier: its time counts from the barrier.
            table.restartClock(seat, self.server.settings.timeout)
            return
        self.machine.timedOut()

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is self:
            self.machine.update(table, seat, instructions)

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        """The party cannot go on (its engine failed): say so, and close."""
        if table.holders[seat] is self and self.room is not None:
            self.send(wire.Chat(f"{PARENT_NAME}: the party is aborted: {reason}"))
            self.drop(f"the party is aborted: {reason}")

    # -- the barrier -------------------------------------------------------------

    @property
    def behind(self) -> bool:
        """Whether the child owes a ``trick taken``, or lines wait for the barrier."""
        pending = self._pending
        return self.taken < self.translator.tricks or bool(
            pending and isinstance(pending[0], Barrier))

    def _povertyAsking(self) -> bool:
        """Whether a poverty's answers are awaited, and not yet this child's."""
        room = self.room
        if room is None or room.table is None or room.table.finished:
            return False
        game = partyOf(room.table).game
        # The child that shifted asks at once, not waiting for anything: no hold for it.
        return (game.phase == doppelkopf.POVERTY_ANSWER and game.turn != self.seat
                and game.soloplayer != self.seat)

    def flush(self) -> None:
        """Send the lines held, up to the next barrier not yet passed."""
        pending = self._pending
        told = self.told
        while pending:
            output = pending[0]
            kind = type(output)
            if kind in _LINE_KINDS:  # (the usual case: a line, sent)
                pending.popleft()
                if kind is wire.GameOpen:
                    told.clear()
                elif kind in _ACTION_KINDS:
                    told.append(output)  # type: ignore[arg-type]
                self.send(output)  # type: ignore[arg-type]
                continue
            if isinstance(output, Barrier):
                if self.room is None or not self.room.barrierPassed(output.index):
                    return
                pending.popleft()
                continue
            if isinstance(output, PovertyHold):
                if self._povertyAsking():
                    return
                pending.popleft()
                continue
            pending.popleft()
            if output is Signal.PARTY_OVER:
                self.machine.partyOver()
            elif output is Signal.NEW_DEAL:
                told.clear()
            elif isinstance(output, Signal):
                continue
            else:
                if isinstance(output, wire.GameOpen):
                    told.clear()
                elif isinstance(output, wire.Action):
                    told.append(output)
                self.send(output)

    def _emit(self, outputs: Iterable[Output]) -> None:
        self._pending.extend(outputs)
        self.flush()
        if self.taken < self.translator.tricks and self.inParty and \
                not self._barrierTimer.active:
            self._barrierTimer.start(self.server.settings.timeout, self.machine.timedOut)

    # -- ServerCore ------------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.protocol.sendMessage(message)

    def greet(self) -> None:
        self.send(wire.ServerHello())
        self._timer.start(self.server.settings.timeout, self.machine.timedOut)

    def stopTimer(self) -> None:
        self._timer.cancel()
        self._barrierTimer.cancel()

    def place(self, name: str) -> None:
        self.childName = childName(name)
        left = self.server.seatLeftBy(self.childName)
        if left is not None:
            self.room, self.seat = left
            self.machine.reclaiming(self.seat)
            return
        room = self.server.waitingRoom()
        if room is None:
            self.machine.rejected(f"{self.server.settings.maxTables} parties play already")
            return
        self.room = room
        self.seat = room.takePlace(self)
        self.machine.seated(self.seat)

    def _handshake(self, seat: Seat, names: Sequence[str]) -> None:
        self.send(wire.Name(PARENT_NAME))
        self.send(self.server.rulesBlock)
        for player in range(PLAYERS):
            self.send(wire.PlayerType(player, player == seat))
            if player != seat:
                self.send(wire.PlayerName(player, names[player]))

    def join(self, place: int) -> None:
        room = self.room
        assert room is not None
        self.protocol.seated(place)
        self._handshake(place, room.playerNames())
        room.markReady(self)

    def rejoin(self, place: int) -> None:
        room = self.room
        assert room is not None
        log.info("freedoko {name} is back for player {seat}", name=self.name, seat=place)
        self.protocol.seated(place)
        self._handshake(place, room.playerNames())
        room.comeBack(place, self)

    def reject(self, reason: str) -> None:
        # As the real parent: then nothing more, the connection left open
        # (closing it may make a real child crash, signal 11, observed).
        self.send(wire.ConnectionRejected())
        self.protocol.fault("freedoko {who}: connection rejected: {reason}", reason=reason)
        refused(self.protocol, "rejected")
        self._timer.start(LINGER, self.machine.timedOut)

    def begin(self, table: Table, seat: Seat, instructions: Instructions, resumed: bool) -> None:
        party = partyOf(table)
        room = self.room
        assert room is not None
        self.inParty = True
        names = room.playerNames()
        if not resumed:
            self.translator = Translator()
            self.taken = 0
            header = self.translator.header(seat, names, party.seed, party.firstStartplayer)
            self._emit(header + self.translator.translate(
                instructions.events, seat, GameFacts.of(party)))
            return
        # A seat taken back as a game opens: the child deals it from its seed.
        self.translator = Translator(room.tricksTold)
        self.taken = room.tricksTold
        game = party.game
        header = self.translator.header(seat, names, game.seed, game.startplayer, party.round)
        self._emit(header + [
            wire.GameOpen(), wire.GameStartplayer(game.startplayer), wire.GameSeed(game.seed),
            wire.GameHand(seat, tuple(card(c) for c in game.dealt[seat]))])

    def follow(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        events = instructions.events
        # The facts are read for a few kinds of event only (not for a card's).
        facts = GameFacts.of(partyOf(table)) if any(
            event.kind in _FACT_KINDS for event in events) else _NO_FACTS
        translator = self.translator
        room = self.room
        # The lines of a step do not depend on the seat told: the children
        # given the same instructions, counting the same tricks, with the
        # same facts, share the first one's lines (and its counts after them).
        before = (translator.tricks, translator.gameTricks)
        shared = room.translated if room is not None else None
        if (shared is not None and shared[0] is instructions and shared[1] == before
                and shared[2] == facts):
            outputs = shared[3]
            translator.tricks, translator.gameTricks = shared[4]
        else:
            outputs = translator.translate(events, seat, facts)
            if room is not None:
                room.translated = (instructions, before, facts, outputs,
                                   (translator.tricks, translator.gameTricks))
        self._emit(outputs)

    def play(self, seat: Seat, action: wire.Action) -> None:
        room = self.room
        if room is None:
            return
        room.submit(lambda: self._play(seat, action))

    def _play(self, seat: Seat, action: wire.Action) -> None:
        room = self.room
        if room is None or room.table is None or room.table.holders[seat] is not self:
            return
        table = room.table
        if table.finished:
            # The party is over (a child back in a party deals on: its round is not over).
            return
        if isinstance(action, (wire.TrickOpen, wire.TrickFull, wire.Marriage,
                               wire.PovertyDeniedByAll, wire.Check)):
            return  # the child's own account of the trick, marriage, poverty: the parent decides
        player = getattr(action, "player", None)
        if player is not None and player != seat:
            self.refuse(action, f"player {player} is not the one this connection manages")
            return
        if isinstance(action, wire.Genscher):
            # FreeDoko sends it just before the card it goes with, the first
            # of both trump kings (NetworkPlayer::genscher_partner); a partner
            # that is the player itself is no genscher.
            self._genscher = action.partner if action.partner != seat else None
            return
        move = engineAction(action)
        if move is None:
            self.refuse(action, "the parent decides that")
            return
        party = partyOf(table)
        if echoed(party, seat, action):
            return
        if isinstance(action, wire.Reservation):
            move = {"reservation": childReservation(action, party.game.hands[seat],
                                                    party.rules)}
        if isinstance(action, wire.CardPlayed) and self._genscher is not None:
            partner, self._genscher = self._genscher, None
            if party.game.genscherPossible(seat, str(action.card)) and 0 <= partner < 4:
                move = {"card": str(action.card), "genscher": partner}
            else:
                self.refuse(wire.Genscher(seat, partner), f"not with {action.card}")
        if (isinstance(action, wire.Announcement) and seat in table.waiting
                and party.game.phase == doppelkopf.PLAYING):
            # The child plays its card before it hears our echo: judge the
            # announcement as it will, after that card.
            self._announcements.append(action)
            return
        outcome = table.act(seat, move)
        if isinstance(outcome, Errors):
            self.refuse(action, "the rules do not allow it now")
        elif isinstance(action, wire.CardPlayed) and self._announcements:
            # After the lines of the card (the machine takes them first).
            announcements, self._announcements = self._announcements, []
            for announcement in announcements:
                self.machine.gameplay(announcement)

    def answerSync(self, seat: Seat, message: wire.SyncGameplayActions) -> None:
        """
        FreeDoko's answer to a sync block (Parser::GameplayActions::
        synchronize_game): a child that lags behind the actions it was told
        in its game gets them all in our block; the same actions, or more
        (its own, still on their way as gameplay actions), need nothing;
        others are one log line, and ignored.
        """
        theirs = [key for key in map(syncKey, message.actions) if key is not None]
        ours = [key for key in map(syncKey, self.told) if key is not None]
        if len(theirs) < len(ours) and ours[:len(theirs)] == theirs:
            self.send(wire.SyncGameplayActions(tuple(self.told)))
        elif theirs[:len(ours)] != ours:
            self.ignore("sync: its gameplay actions differ from those of the game it was told")

    def refuse(self, action: wire.Action, why: str) -> None:
        """One log line, and a chat line to the child; nothing is relayed."""
        text = wire.formatAction(action)
        self.server.hub.faults.fault(
            self.protocol.host, "freedoko {who} ({name}, player {seat}): refused {action}: {why}",
            who=self.protocol.peer, name=self.name, seat=self.seat, action=text, why=why)
        self.send(wire.Chat(f"{PARENT_NAME}: refused {text}: {why}"))

    def takeTrick(self, seat: Seat) -> None:
        self.taken += 1
        if self.taken >= self.translator.tricks:
            self._barrierTimer.cancel()
        if self.room is not None:
            self.room.release()

    def pong(self, number: int | None) -> None:
        self.send(wire.Pong(number))

    def answer(self, question: str) -> None:
        if question.strip() == "rules":
            self.send(self.server.rulesBlock)
        elif question.strip() == "name":
            self.send(wire.Name(PARENT_NAME))
        else:
            self.ignore(f"ask: {question[:40]!r} is no question the parent answers")

    def relayChat(self, text: str) -> None:
        if self.room is not None:
            self.room.chat(self, text)

    def ignore(self, reason: str) -> None:
        self.server.hub.faults.fault(self.protocol.host,
                                     "freedoko {who} ({name}): line ignored: {reason}",
                                     who=self.protocol.peer, name=self.name, reason=reason)

    def forfeit(self, seat: Seat, reason: str) -> None:
        # The bot that takes the seat plays the move awaited (after the barrier).
        # The connection is left open: closing it makes a real child crash.
        log.info("freedoko {who}: {reason}", who=self.protocol.who(), reason=reason)
        self.send(wire.Chat(f"{PARENT_NAME}: {reason}; the party goes on without you"))
        self.leave()
        self._timer.start(LINGER, self.machine.timedOut)

    def partyGone(self) -> None:
        """
        The party this child came back to ended before its seat was back:
        it is told so, and its connection lingers as after ``party:
        finish`` (a real child waiting to rejoin crashes, signal 11, when
        its parent closes the connection).
        """
        log.info("freedoko {who}: the party it came back to is over", who=self.protocol.who())
        self.send(wire.Chat(f"{PARENT_NAME}: the party you came back to is over"))
        self.machine.partyOver()

    def linger(self) -> None:
        self.inParty = False
        self._barrierTimer.cancel()
        self._timer.start(LINGER, self.machine.timedOut)

    def drop(self, reason: str) -> None:
        self.leave()
        self.protocol.dropConnection(reason)

    def leave(self) -> None:
        self.stopTimer()
        self.inParty = False
        self._pending.clear()
        room, self.room = self.room, None
        if room is None:
            return
        room.forget(self)
        room.leave(self, self.childName)
        room.release()


# -- the table ------------------------------------------------------------------


class FreeDokoBot(BotSeat):
    """
    A server bot at a FreeDoko table: it waits for the ``trick taken``
    barrier.  Its ``name`` is the record's (``leaverBotName`` for a seat it
    took over from a player); the children are told L{botName} for it.
    """

    def __init__(self, room: FreeDokoRoom, seat: Seat, name: str | None = None) -> None:
        settings = room.server.settings
        super().__init__(doppelkopfBot, room.clock, name or botName(seat), settings.botDelay)
        self.room = room
        self.bot = self.choose

    def choose(self, view: object, seat: Seat) -> JSON:
        """
        The engine's bot, but a poverty answered as this seat last did in
        the party when a real child asks the seat before it can hear the
        answer (L{FreeDokoRoom.askedEarly}): such a child takes that old
        answer for the new one.
        """
        if (isinstance(view, (DoppelkopfView, SeatView))
                and view.phase == doppelkopf.POVERTY_ANSWER):
            last = self.room.povertyAnswers.get(seat)
            if last is not None and self.room.askedEarly(seat):
                return {"poverty accepted": last}
        return doppelkopfBot(view, seat)  # type: ignore[arg-type]

    def decide(self, table: Table, seat: Seat) -> JSON:
        """
        L{choose} for ``seat`` at ``table``, given the seat's view as the
        party's L{DoppelkopfParty.botAction} reads it (L{SeatView}: the same
        action as with the full view, which is not built).
        """
        party = table.engine
        if isinstance(party, DoppelkopfParty):
            return self.choose(SeatView(party, seat), seat)
        return self.choose(party.view(seat), seat)

    def _play(self, table: Table, seat: Seat, turn: int) -> None:
        """L{BotSeat._play}, after the barrier."""
        if self.room.barrierUp():
            self.room.afterBarrier(lambda: self._play(table, seat, turn))
            return
        super()._play(table, seat, turn)


class FreeDokoRoom(Room):
    """
    One FreeDoko table to be: four places, filled by children as they say
    their names and by bots for the rest, then one party of the Doppelkopf
    engine.  It holds the ``trick taken`` barrier: while a child owes one,
    bots wait and children's actions queue (the real parent queues a card
    that comes early).  It also watches its table, counting its tricks and
    handing a seat back to the child that left it when a game opens.
    """

    def __init__(self, server: FreeDokoServer) -> None:
        super().__init__(server, DOPPELKOPF, server.clock, server.store, server.rng,
                         minSeats=PLAYERS, maxSeats=PLAYERS, botsAfter=server.settings.botsAfter,
                         params={"rules": server.settings.rules})
        self.server = server
        self._queued: deque[Callable[[], object]] = deque()
        self._afterBarrier: list[Callable[[], object]] = []
        self._releasing = False
        self._watcher = Translator()
        self.returning: dict[Seat, FreeDokoChild] = {}
        """Children back for the seat they left, until the next game opens."""
        self.povertyAnswers: dict[Seat, bool] = {}
        """Each seat's last poverty answer in the party (accepted: True), as every child keeps it."""
        self.translated: tuple[Instructions, tuple[int, int], GameFacts, list[Output],
                               tuple[int, int]] | None = None
        """
        The last lines translated for a child here (L{FreeDokoChild.follow}):
        for what instructions, tricks counted before and facts, and the
        tricks counted after.
        """

    def playerNames(self) -> list[str]:
        """
        The four names the children are told in ``player p: name`` lines, by
        place before the start and by seat after it: a bot's is L{botName}
        (whoever's seat it took over), an empty place's too.
        """
        holders = self.table.holders if self.table is not None else self.places
        return [botName(p) if h is None or isinstance(h, FreeDokoBot) else h.name
                for p, h in enumerate(holders)]

    @property
    def tricksTold(self) -> int:
        """The party's tricks so far."""
        return self._watcher.tricks

    def children(self) -> list[FreeDokoChild]:
        """The children playing the party here now."""
        return list(self._playing())

    def _playing(self) -> Iterator[FreeDokoChild]:
        """L{children}, one by one (the barrier's checks stop at the first that tells)."""
        table = self.table
        if table is None:
            return
        for holder in table.holders:
            if isinstance(holder, FreeDokoChild) and holder.inParty and holder.room is self:
                yield holder

    def barrierPassed(self, index: int) -> bool:
        """Whether every child playing here said ``trick taken`` ``index`` times."""
        for child in self._playing():
            if child.taken < index:
                return False
        return True

    def barrierUp(self) -> bool:
        """Whether a child owes a ``trick taken`` or has lines waiting for one."""
        for child in self._playing():
            if child.behind:
                return True
        return False

    def submit(self, action: Callable[[], object]) -> None:
        """A child's action: now, or once the barrier is passed."""
        if self.barrierUp() or self._queued:
            self._queued.append(action)
            self.release()
        else:
            action()

    def afterBarrier(self, then: Callable[[], object]) -> None:
        self._afterBarrier.append(then)

    def release(self) -> None:
        """Pass the barrier if every child is there: the lines held, the actions queued, bots."""
        if self._releasing:
            return
        self._releasing = True
        try:
            for child in self.children():
                child.flush()
            passed = not self.barrierUp()
            while self._queued and not self.barrierUp():
                self._queued.popleft()()
            if not self.barrierUp():
                waiting, self._afterBarrier = self._afterBarrier, []
                for then in waiting:
                    then()
            table = self.table
            if passed and table is not None and not table.finished:
                # The time of a child's decision counts from the barrier.
                for seat in table.waiting:
                    holder = table.holders[seat]
                    if isinstance(holder, FreeDokoChild):
                        table.restartClock(seat, holder.turnTimeout(table, seat) or 0.0)
        finally:
            self._releasing = False

    def chat(self, sender: FreeDokoChild, text: str) -> None:
        """Pass ``text`` on to the other children here, with its sender's name."""
        holders = self.table.holders if self.table is not None else self.places
        for holder in holders:
            if isinstance(holder, FreeDokoChild) and holder is not sender:
                holder.send(wire.Chat(f"{sender.name}: {text}"))

    # -- taking a seat back ------------------------------------------------------

    def comeBack(self, seat: Seat, child: FreeDokoChild) -> None:
        """
        ``child`` is back for the ``seat`` it left: the seat is its again as
        soon as a game opens (a real child cannot join a game under way: it
        would play its player's past moves again), at once if one just did.
        """
        self.returning[seat] = child
        self._handOver()

    def forget(self, child: FreeDokoChild) -> None:
        """``child``, back for a seat, is gone again before it got it."""
        for seat, returning in list(self.returning.items()):
            if returning is child:
                del self.returning[seat]

    def _gameOpens(self) -> bool:
        table = self.table
        if table is None or table.finished:
            return False
        game = partyOf(table).game
        return game.phase == doppelkopf.RESERVING and all(r is None for r in game.reservations)

    def _handOver(self) -> None:
        if not self.returning or not self._gameOpens():
            return
        for seat, child in list(self.returning.items()):
            del self.returning[seat]
            if self.vacatedSeat(child.childName or "") == seat:
                self.reclaim(seat, child)

    def askedEarly(self, seat: Seat) -> bool:
        """
        Whether a real child of the party asks ``seat`` for its answer to
        the poverty before that answer can reach it: the child that shifted
        asks the next player at once, and one that refused the next after
        it (FreeDoko's Game::poverty_shift).  Such a child takes the seat's
        last answer of the party, if any (NetworkPlayer::pending_poverty_accept
        is never reset), for the new one.
        """
        table = self.table
        if table is None:
            return False
        poor = partyOf(table).game.soloplayer
        if poor is None:
            return False
        asker = poor
        while asker != seat:
            holder = table.holders[asker]
            if isinstance(holder, FreeDokoChild) and holder.inParty:
                return True
            asker = (asker + 1) % PLAYERS
        return False

    def update(self, table: Table, seat: None, instructions: Instructions) -> None:
        """
        A watcher of the table: it counts the tricks, keeps each seat's last
        poverty answer, and hands seats back as games open.
        """
        for event in instructions.events:
            if event.kind == "trick":
                self._watcher.tricks += 1
            elif event.kind in ("poverty accepted", "poverty denied") and event.seat is not None:
                self.povertyAnswers[event.seat] = event.kind == "poverty accepted"
        self._handOver()


def seedNotice(children: Sequence[str]) -> str:
    """
    What a guest seated beside FreeDoko ``children`` is told: they are sent
    the party's seed, from which every hand follows (docs/security.md).
    """
    who = children[0] if len(children) == 1 else (
        ", ".join(children[:-1]) + " and " + children[-1])
    return (f"{who} {'plays' if len(children) == 1 else 'play'} here with FreeDoko, which is "
            "sent the party's seed: every hand follows from it, yours too")


def _playForGuest(table: Table, seat: Seat) -> object:
    """A guest's move past its time: the engine's bot, read from the party (its botAction)."""
    party = table.engine
    if isinstance(party, DoppelkopfParty):
        return table.act(seat, party.botAction(seat))
    return table.playFor(seat, doppelkopfBot)


class FreeDokoGuestSeat(GuestSeat):
    """
    A guest's seat at a FreeDoko table (its protocol's time rule: past the
    timeout, the bot plays its move).  When FreeDoko children sit at the
    table, the guest is told in words, in the game's text of each update
    it gets up to its first decision, that they can know its hand
    (L{seedNotice}).
    """

    def __init__(self, guest: Guest, timeout: float) -> None:
        super().__init__(guest, lambda table, seat: timeout,
                         _playForGuest)
        self.notice: str | None = None
        """The words for the guest (None: not yet seated, or no FreeDoko child there)."""
        self._seated = False
        self._asked = False

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is not self:
            return
        if not self._seated:
            self._seated = True
            children = [h.name for h in table.holders if isinstance(h, FreeDokoChild)]
            self.notice = seedNotice(children) if children else None
        if self.notice is not None and not self._asked:
            self._asked = instructions.asks(seat)
            state = instructions.game_state
            text = f"{state.text}; {self.notice}" if state.text else self.notice
            instructions = attrs.evolve(instructions,
                                        game_state=attrs.evolve(state, text=text))
        self.guest.update(table, seat, instructions)


class FreeDokoMatchmaker(RoomMatchmaker[FreeDokoRoom, GuestSeat]):
    """
    FreeDoko's tables, open to a guest of any protocol (a browser, a JSON
    player): a seat at the waiting table beside FreeDoko children, under
    FreeDoko's time rule (past the timeout, the bot plays the guest's move).
    """

    engine = "doppelkopf"
    title = "FreeDoko"

    def __init__(self, server: FreeDokoServer) -> None:
        super().__init__()
        self.server = server

    def seatFor(self, guest: Guest) -> GuestSeat:
        return FreeDokoGuestSeat(guest, self.server.settings.timeout)

    def waitingRoom(self) -> FreeDokoRoom:
        room = self.server.waitingRoom()
        if room is None:
            raise LookupError("no FreeDoko table is free")
        return room

    def openRoom(self) -> FreeDokoRoom | None:
        return self.server.waiting

    def enqueue(self, guest: Guest) -> str | None:
        if self.server.waitingRoom() is None:
            return f"{self.server.settings.maxTables} FreeDoko parties play already"
        return super().enqueue(guest)


class FreeDokoServer(GameServer[FreeDokoSettings]):
    """
    Everything the FreeDoko connections share: settings, rooms, records.
    It owns its rooms (their bots, their start and end), and hosts their
    tables on the hub.
    """

    def __init__(
        self,
        settings: FreeDokoSettings = FreeDokoSettings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        hub: Hub | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng, hub=hub)
        self.waiting: FreeDokoRoom | None = None
        self.playing: set[FreeDokoRoom] = set()
        self.rules = Rules.parse(settings.rules)
        self.rulesBlock = rulesBlock(self.rules)
        self.matchmaker = FreeDokoMatchmaker(self)
        self.hub.addMatchmaker(self.matchmaker)

    def newChild(self, protocol: _Protocol) -> FreeDokoChild:
        return FreeDokoChild(self, protocol)

    def waitingRoom(self) -> FreeDokoRoom | None:
        """The room newcomers sit at (None: ``maxTables`` parties play, no new one)."""
        if self.waiting is None or not self.waiting.open:
            limit = self.settings.maxTables
            if limit and len(self.playing) >= limit:
                return None
            self.waiting = FreeDokoRoom(self)
        return self.waiting

    def roomOf(self, table: Table) -> FreeDokoRoom | None:
        for room in self.playing:
            if room.table is table:
                return room
        return None

    def seatLeftBy(self, name: str | None) -> tuple[FreeDokoRoom, Seat] | None:
        """The seat a child called ``name`` left in a party still playing, if any."""
        if not name:
            return None
        for room in sorted(self.playing, key=lambda r: r.table.id if r.table else 0):
            seat = room.vacatedSeat(name)
            if seat is not None and seat not in room.returning:
                return room, seat
        return None

    # -- RoomOwner -----------------------------------------------------------------

    def newBot(self, room: Room, place: int) -> BotSeat:
        """A bot for an empty place, or for the seat a player left (named after it)."""
        assert isinstance(room, FreeDokoRoom)
        if room.table is None:
            return FreeDokoBot(room, place)
        return FreeDokoBot(room, place, leaverBotName(room.table.record.seats[place], place))

    def started(self, room: Room, table: Table) -> None:
        assert isinstance(room, FreeDokoRoom)
        if self.waiting is room:
            self.waiting = None
        self.playing.add(room)
        self.matchmaker.started(room)
        table.watch(room)
        self.hub.register(table, self)
        log.info("freedoko game {id}: party of {names}, seed {seed}", id=table.id,
                 names=", ".join(room.names()), seed=partyOf(table).seed)

    def ended(self, room: Room, table: Table) -> None:
        assert isinstance(room, FreeDokoRoom)
        self.playing.discard(room)
        for child in list(room.returning.values()):
            child.partyGone()

    def leaving(self, room: Room, table: Table, seat: Seat) -> bool:
        return False

    # -- TableHost -------------------------------------------------------------------

    def vacate(self, table: Table, seat: Seat) -> None:
        room = self.roomOf(table)
        if room is not None:
            holder = table.holders[seat]
            name = holder.childName if isinstance(holder, FreeDokoChild) else None
            room.vacate(seat, name)


class FreeDokoServerFactory(GameServerFactory[FreeDokoServer, FreeDokoServerProtocol]):
    """Builds L{FreeDokoServerProtocol} for each connection to one L{FreeDokoServer}."""

    protocol = FreeDokoServerProtocol
