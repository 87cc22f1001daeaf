"""
The FreeDoko child (client): a thin Twisted protocol over the codec
(L{gameproto.freedoko.wire}) and the child's machine
(L{gameproto.freedoko.clientmachine}), keeping the seat's view with the
rules of L{gameproto.games.doppelkopf} and asking its hooks for each
decision.

Like a real FreeDoko child, it deals every game itself from ``party: seed``
(and checks the parent's ``game: hand``, ``game: seed`` and
``game: startplayer`` lines against its own deal when they come), applies
every action the parent echoes, answers the ``trick taken`` barrier, pings
and ``ask:``, and sends its own actions only when its rules engine says they
are legal, so that a real parent is never sent what makes it exit.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable, Mapping, Sequence

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.engine.contract import Errors
from gameproto.freedoko import names, wire
from gameproto.freedoko.clientmachine import ClientInputs, ClientMachine, Mirror, PartySetup
from gameproto.games import doppelkopf as dk
from gameproto.games.doppelkopf import (
    DoppelkopfGame,
    DoppelkopfParty,
    DoppelkopfView,
    GameSummary,
    Reservation,
    Rules,
    Trick,
)
from gameproto.machines import stateName
from gameproto.net import WireProtocol

__all__ = ["FreeDokoClientProtocol", "cardsOf", "rulesFromBlock"]

log = Logger(namespace="gameproto.freedoko.client")

Key = tuple[int, int, str]
"""A decision: the seat, where the game was when it was asked (L{_position}), its kind."""

DECISIONS = ("reservation", "poverty shift", "poverty answer", "poverty return",
             "announcement", "card")


def rulesFromBlock(block: wire.Rules, base: Rules | None = None) -> Rules:
    """The rules of a parent's ``rules`` block (over ``base``, default FreeDoko's defaults)."""
    text = "".join(f"{name} = {value}\n" for name, value in block.settings().items())
    return Rules.parse(text, base)


def _ruleValue(value: str) -> str:
    """``rule:`` lines write booleans ``1``/``0``; rule files ``true``/``false``."""
    return {"1": "true", "0": "false"}.get(value.strip(), value.strip())


def cardsOf(cards: Iterable[wire.Card]) -> list[str]:
    """Wire cards as the rules' card names (``club queen``)."""
    return [str(c) for c in cards]


def _wireCards(cards: Iterable[str]) -> tuple[wire.Card, ...]:
    return tuple(wire.Card(*c.split(" ", 1)) for c in cards)


def _holds(hand: Sequence[str], cards: Sequence[str]) -> bool:
    """Whether ``hand`` holds every one of ``cards`` (as many times as they are named)."""
    return not (Counter(cards) - Counter(hand))


class FreeDokoClientProtocol(WireProtocol):
    """
    A FreeDoko child: sends ``name``, follows the parent through the
    handshake, the rules, the players and every party, and plays the
    players the parent makes ``local`` to it.

    The seat's view is L{view} (a L{DoppelkopfView}, what the hooks read),
    built by the rules engine from the child's own deal and every action
    the parent sent.

    Decision hooks (a value, or a Deferred of one; by default the library's
    bot): L{chooseReservation}, L{choosePovertyShift},
    L{choosePovertyAccept}, L{choosePovertyReturn}, L{chooseAnnouncement},
    L{chooseCard}, and L{chooseGenscher} (a value) for a card that may name
    a genscher partner.  An answer the rules refuse is replaced by the
    bot's (with a warning): nothing illegal is ever sent.

    News hooks (no-ops): L{accepted}, L{rejected}, L{seated},
    L{partyStarted}, L{dealt}, L{reserved}, L{gameStarted}, L{cardPlayed},
    L{announced}, L{trickTaken}, L{gameFinished}, L{partyFinished},
    L{chatReceived}, L{mismatch}, L{closing}.
    """

    logName = "freedoko"
    requireTrickOpen = True
    """Lead a trick only once the parent has said ``trick open`` (the real parent does)."""

    def __init__(self, name: str = "Robo", clock: IReactorTime | None = None) -> None:
        if not name or "\n" in name or "\r" in name:
            raise ValueError(f"a FreeDoko name is one line of text: {name!r}")
        self.name = name
        if clock is None:
            from twisted.internet import reactor
            clock = reactor  # type: ignore[assignment]
        self.clock: IReactorTime = clock  # type: ignore[assignment]
        self.parentName: str | None = None
        self.seats: set[int] = set()
        """The players the parent makes ``local`` to this child (the real one: player 2)."""
        self.names: dict[int, str] = {}
        self.rulesBlock: wire.Rules | None = None
        self.rules: Rules = Rules.default()
        self.mirror: Mirror | None = None
        self.parties = 0
        self.unknown: list[wire.Unknown] = []
        self.mismatches: list[str] = []
        self.problem: str | None = None
        """What went wrong, if anything: rejected, aborted, the connection lost mid-party."""
        self.leaving = False
        self.machine: ClientInputs = ClientMachine(self)

    # -- the transport side --------------------------------------------------

    @property
    def seat(self) -> int | None:
        """The (first) player this child manages; None before the parent said."""
        return min(self.seats) if self.seats else None

    def state(self) -> str:
        """The machine's state, for logs and tests."""
        return stateName(self.machine)

    def sendMessage(self, message: Any) -> None:
        if not self._closing:
            self.writeData(wire.format(message, wire.Time.now(self.clock.seconds)))

    def connectionMade(self) -> None:
        super().connectionMade()
        self._reader = wire.Reader()
        self.sendMessage(wire.Name(self.name))

    def dataReceived(self, data: bytes) -> None:
        for received in self._reader.feed(data):
            if self._closing:
                return
            self.messageReceived(received.message)

    def who(self) -> str:
        return f"child {self.name}"

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.machine.connectionLost()

    def messageReceived(self, message: wire.Message | wire.Unknown) -> None:
        """One message of the parent, to the machine or answered here."""
        machine = self.machine
        match message:
            case wire.Unknown():
                self.unknown.append(message)
                log.warn("freedoko child {name}: skipped an unknown line: {why} {line!r}",
                         name=self.name, why=message.reason, line=message.line)
            case wire.ServerHello():
                machine.helloReceived()
            case wire.ConnectionRejected():
                machine.rejectedReceived()
            case wire.Ping(number):
                self.sendMessage(wire.Pong(number))
            case wire.Pong() | wire.Bye() | wire.GameClose() | wire.Check():
                pass
            case wire.Name(name):
                self.parentName = name
            case wire.Chat(text):
                self.chatReceived(text)
            case wire.Ask(question):
                self._answerAsk(question)
            case wire.Rules():
                self.rulesBlock = message
                self.rules = rulesFromBlock(message)
            case wire.Rule(rule, value):
                self.rules = Rules.parse(f"{rule} = {_ruleValue(value)}\n", self.rules)
            case wire.PlayerType(player, local):
                if local:
                    self.seats.add(player)
                else:
                    self.seats.discard(player)
            case wire.PlayerName(player, name):
                self.names[player] = name
            case wire.PlayersSwitched(a, b):
                self._switch(a, b)
            case wire.PartySeed(seed):
                machine.partySeedReceived(seed)
            case wire.PartyStartplayer(player):
                machine.partyStartplayerReceived(player)
            case wire.PartyStart():
                machine.partyStartReceived()
            case wire.PartyStartRound(number):
                machine.roundStarted(number)
            case wire.PartyFinish():
                machine.partyFinishReceived()
            case wire.GameOpen():
                machine.gameOpened()
            case wire.GameStart():
                machine.gameStarted()
            case wire.GameFinish():
                machine.gameFinished()
            case wire.GameStartplayer() | wire.GameSeed() | wire.GameHand():
                machine.gameInfo(message)
            case wire.SyncGameplayActions():
                machine.syncReceived(message)
            case _:
                machine.actionReceived(message)  # type: ignore[arg-type]

    def _answerAsk(self, question: str) -> None:
        if question.strip() == "name":
            self.sendMessage(wire.Name(self.name))
        elif question.strip() == "rules" and self.rulesBlock is not None:
            self.sendMessage(self.rulesBlock)

    def _switch(self, a: int, b: int) -> None:
        names_ = dict(self.names)
        if a in names_ or b in names_:
            self.names.pop(a, None)
            self.names.pop(b, None)
            if b in names_:
                self.names[a] = names_[b]
            if a in names_:
                self.names[b] = names_[a]
        seats = {b if s == a else a if s == b else s for s in self.seats}
        self.seats = seats

    # -- what the seat knows -------------------------------------------------

    def view(self, seat: int | None = None) -> DoppelkopfView | None:
        """What ``seat`` (default: ours) knows now; None outside a party or without a seat."""
        seat = self.seat if seat is None else seat
        if self.mirror is None or seat is None:
            return None
        return self.mirror.party.view(seat)

    @property
    def game(self) -> DoppelkopfGame | None:
        """The game the parent is in (the rules engine's), None outside a party."""
        return self.mirror.game if self.mirror is not None else None

    # -- ClientCore: the sequence ----------------------------------------------

    def greeted(self) -> None:
        # the real child answers "FreeDoko server" with its name again
        self.sendMessage(wire.Name(self.name))
        self.accepted(self.parentName)

    def refused(self) -> None:
        self.problem = "the parent rejected the connection (it is in the middle of a party)"
        self.rejected()
        self.drop(self.problem)

    def newMirror(self, setup: PartySetup) -> Mirror:
        rules = self.rules
        params: Mapping[str, Any] = {"rules": rules.text(), "startplayer": setup.startplayer,
                                     "rounds": 1000}
        # a FreeDoko parent's players announce swines as its games start
        party = DoppelkopfParty(params, setup.seed, swinesAtStart=True)
        mirror = Mirror(party, setup.seed % dk.SEED_LIMIT, setup.startplayer)
        return mirror

    def partyBegun(self, mirror: Mirror) -> None:
        self.mirror = mirror
        self.parties += 1
        if self.seat is not None:
            self.seated(self.seat, dict(self.names))
        self.partyStarted(mirror.seed, mirror.startplayer)

    def partyEnded(self, mirror: Mirror) -> None:
        mirror.finished = True
        self.partyFinished(tuple(mirror.party.totals), list(mirror.party.summaries))

    def openGame(self, mirror: Mirror) -> None:
        party = mirror.party
        mirror.games += 1
        if len(party.summaries) != mirror.games - 1:
            self._mismatch(mirror, f"game {mirror.games} opened while ours is game "
                                   f"{len(party.summaries) + 1}")
        game = party.game
        mirror.game = game
        mirror.fullSeen = 0
        mirror.genscher = {}
        mirror.dealOpen = True
        mirror.deals = len(game.redeals)
        mirror.playOpen = False
        mirror.opened = mirror.taken = 0
        mirror.log = []
        mirror.requested = {}
        self._news("dealt", self.dealt)
        self._maybeDecide(mirror)

    def startGame(self, mirror: Mirror) -> None:
        game = mirror.game
        if game is None:
            self.stray(wire.GameStart())
            return
        if len(game.redeals) > mirror.deals:
            # a thrown deal or a poverty nobody took: the next deal's reservations follow
            mirror.deals = len(game.redeals)
            mirror.dealOpen = True
            self._news("dealt", self.dealt)
        else:
            mirror.dealOpen = False
            mirror.playOpen = True
            self._news("gameStarted", self.gameStarted)
        self._maybeDecide(mirror)

    def finishGame(self, mirror: Mirror) -> None:
        game = mirror.game
        if game is None or game.summary is None:
            self._mismatch(mirror, "the parent finished a game our rules have not finished")
            return
        mirror.playOpen = False
        summary = game.summary
        self.gameFinished(summary, tuple(mirror.party.totals))

    def startRound(self, mirror: Mirror, number: int) -> None:
        mirror.round = number
        if number != mirror.party.round:
            self._mismatch(mirror, f"round {number} starts; ours is round {mirror.party.round}")

    def gameInfo(self, mirror: Mirror,
                 message: wire.GameStartplayer | wire.GameSeed | wire.GameHand) -> None:
        game = mirror.game
        if game is None:
            self.stray(message)
            return
        match message:
            case wire.GameStartplayer(player):
                if player != game.startplayer:
                    self._mismatch(mirror, f"startplayer {player}; ours is {game.startplayer}")
            case wire.GameSeed(seed):
                first = game.redeals[0][0] if game.redeals else game.seed
                if seed % dk.SEED_LIMIT != first:
                    self._mismatch(mirror, f"game seed {seed}; ours is {first}")
            case wire.GameHand(player, cards):
                if 0 <= player < dk.PLAYERS and sorted(cardsOf(cards)) != sorted(
                        game.dealt[player]):
                    self._mismatch(mirror, f"player {player}'s hand is {cardsOf(cards)}; "
                                           f"we dealt {list(game.dealt[player])}")

    def applyAction(self, mirror: Mirror, action: wire.Action) -> None:
        match action:
            case wire.TrickOpen():
                mirror.opened += 1
            case wire.TrickTaken():
                mirror.taken += 1
                self.sendMessage(wire.TrickTaken())
            case wire.TrickFull():
                self._trickFull(mirror, action)
            case wire.Check():
                pass
            case _:
                self._apply(mirror, action)
        self._maybeDecide(mirror)

    def _act(self, mirror: Mirror, seat: int, action: dict[str, Any], what: object) -> bool:
        """Apply one action to the party; a refusal is a mismatch (False)."""
        result = mirror.party.act(seat, action)
        if isinstance(result, Errors):
            self._mismatch(mirror, f"our rules refuse {what}: {result.errors[0]!r}")
            return False
        return True

    def _apply(self, mirror: Mirror, action: wire.Action) -> None:
        party = mirror.party
        game = mirror.game
        moves = (wire.Reservation, wire.PovertyShift, wire.PovertyAccepted, wire.PovertyDenied,
                 wire.PovertyReturned, wire.CardPlayed, wire.Genscher)
        if game is None or (party.game is not game and isinstance(action, moves)):
            self._mismatch(mirror, f"{wire.formatAction(action)} outside the game we play")
            self.machine.abort("the parent's game and ours differ")
            return
        current = party.game is game
        mirror.log.append(action)
        mirror.applied += 1
        match action:
            case wire.Reservation(player, gameType, selector, swines, hyperswines):
                text = Reservation(gameType, selector, swines, hyperswines).wire()
                if not self._act(mirror, player, {"reservation": text}, action):
                    self.machine.abort("a reservation our rules cannot follow")
                    return
                if len(game.redeals) > mirror.deals:
                    mirror.dealOpen = False  # the parent starts the thrown deal again
                self.reserved(player, text)
            case wire.PovertyShift(player, cards):
                if not self._act(mirror, player, {"poverty shift": cardsOf(cards)}, action):
                    self.machine.abort("a poverty our rules cannot follow")
            case wire.PovertyAccepted(player) | wire.PovertyDenied(player):
                accepted = isinstance(action, wire.PovertyAccepted)
                if not self._act(mirror, player, {"poverty accepted": accepted}, action):
                    self.machine.abort("a poverty our rules cannot follow")
                elif len(game.redeals) > mirror.deals:
                    mirror.dealOpen = False
            case wire.PovertyReturned(player, cards):
                if not self._act(mirror, player, {"poverty returned": cardsOf(cards)}, action):
                    self.machine.abort("a poverty our rules cannot follow")
            case wire.PovertyDeniedByAll():
                if not game.redeals or game.redeals[-1][1] != "poverty denied by all":
                    self._mismatch(mirror, "poverty denied by all, but not for our rules")
            case wire.CardPlayed(player, card):
                self._card(mirror, game, player, str(card))
            case wire.Announcement(player, announcement):
                self._announcement(mirror, game, current, player, announcement)
            case wire.Marriage(player, bride):
                if (game.soloplayer, game.partner) != (player, bride):
                    self._mismatch(mirror, f"marriage of {player} with {bride}; ours: "
                                           f"{game.soloplayer} with {game.partner}")
            case wire.Genscher(player, partner):
                if not (game.gameType == dk.GENSCHER
                        and (game.soloplayer, game.partner) == (player, partner)):
                    mirror.genscher[player] = partner  # applied with the player's next card
            case wire.Swines(player) | wire.Hyperswines(player):
                hyper = isinstance(action, wire.Hyperswines)
                owner = game.hyperswinesOwner if hyper else game.swinesOwner
                if owner != player and not self._swines(mirror, game, current, player, hyper):
                    self._mismatch(mirror, f"{wire.formatAction(action)}: ours is {owner}")

    def _swines(self, mirror: Mirror, game: DoppelkopfGame, current: bool, player: int,
                hyper: bool) -> bool:
        """
        The parent says ``player`` has (hyper)swines.  Under ``swines
        announcement begin`` the real parent's players announce them as the
        game starts, after the reservations (observed: a club solo, another
        player holding both club aces), which the rules take before the
        first card.
        """
        if not current:
            return False
        result = mirror.party.act(player, {"hyperswines" if hyper else "swines": True})
        return not isinstance(result, Errors)

    def _card(self, mirror: Mirror, game: DoppelkopfGame, player: int, card: str) -> None:
        tricks = len(game.tricks)
        action: dict[str, Any] = {"card": card}
        partner = mirror.genscher.pop(player, None)
        if partner is not None:
            action["genscher"] = partner
        if not self._act(mirror, player, action, f"{card} of player {player}"):
            self.machine.abort(f"player {player}'s {card} is not what our rules allow")
            return
        self._news("cardPlayed", lambda view: self.cardPlayed(player, card, view))
        if len(game.tricks) > tricks:
            mirror.playOpen = game.phase == dk.PLAYING

    def _announcement(self, mirror: Mirror, game: DoppelkopfGame, current: bool, player: int,
                      name: str) -> None:
        base = name[:-len(" reply")] if name.endswith(" reply") else name
        number = dk.announcementNumber(base)
        if number is None or number == dk.NO_ANNOUNCEMENT:
            return
        if game.seatAnnouncement(player) != number:
            # (the rules make some themselves: 30 points in the first trick oblige)
            if not current:
                self._mismatch(mirror, f"announcement {name} of {player} after the game")
                return
            if not self._act(mirror, player, {"announcement": base}, f"announcement {name}"):
                return
        self.announced(player, name)

    def _trickFull(self, mirror: Mirror, message: wire.TrickFull) -> None:
        game: DoppelkopfGame | None = mirror.game
        index = mirror.fullSeen
        mirror.fullSeen = index + 1
        if game is None or index >= len(game.tricks):
            self._mismatch(mirror, f"trick full {message}, but our trick is not full")
            return
        trick = game.tricks[index]
        theirs = (message.start, tuple(cardsOf(message.cards)), message.winner)
        ours = (trick.leader, trick.cards, trick.winner)
        if message.winner is None:
            theirs = theirs[:2] + (trick.winner,)
        if theirs != ours:
            self._mismatch(mirror, f"trick {index + 1}: the parent's {theirs}, ours {ours}")
        self._news("trickTaken", lambda view: self.trickTaken(trick, view))

    def applySync(self, mirror: Mirror, message: wire.SyncGameplayActions) -> None:
        def essential(actions: Iterable[wire.Action]) -> list[object]:
            out: list[object] = []
            for a in actions:
                if isinstance(a, (wire.TrickOpen, wire.TrickFull, wire.TrickTaken, wire.Check)):
                    continue
                out.append(wire.CardPlayed(a.player, a.card) if isinstance(a, wire.CardPlayed)
                           else a)
            return out

        theirs, ours = essential(message.actions), essential(mirror.log)
        if theirs == ours:
            return
        if theirs[:len(ours)] == ours:
            missing = [a for a in message.actions if not isinstance(
                a, (wire.TrickOpen, wire.TrickFull, wire.TrickTaken, wire.Check))]
            for action in missing[len(ours):]:
                self.applyAction(mirror, action)
        elif ours[:len(theirs)] == theirs:
            self.sendMessage(wire.SyncGameplayActions(tuple(mirror.log)))
        else:
            self._mismatch(mirror, "the parent's gameplay actions (sync) differ from ours")

    def stray(self, what: object) -> None:
        log.info("freedoko child {name}: {what!r} outside a party ({state}): ignored",
                 name=self.name, what=what, state=self.state())

    def drop(self, reason: str) -> None:
        if self.problem is None:
            self.problem = reason
        self.closing(reason)
        self.dropConnection(reason)

    def leave(self, reason: str = "leaving") -> None:
        """
        Close the connection now, nothing more read (after ``party: finish``,
        say: a headless real parent starts its next party at once).
        """
        self.leaving = True
        self.dropConnection(reason, "left")

    def lost(self) -> None:
        if (self.mirror is not None and not self.mirror.finished and self.problem is None
                and not self.leaving):
            self.problem = "the parent closed the connection in the middle of a party"

    def _mismatch(self, mirror: Mirror, text: str) -> None:
        mirror.mismatches.append(text)
        self.mismatches.append(text)
        log.warn("freedoko child {name}: the parent and our rules differ: {text}",
                 name=self.name, text=text)
        self.mismatch(text)

    def _news(self, name: str, hook: Callable[[DoppelkopfView], None]) -> None:
        """
        Call the news hook ``name`` (through ``hook``) with our view, unless
        it is the base class's no-op: building a view costs as much as
        applying the move it follows, and no-op hooks are most of them.
        """
        if name not in self.__dict__ and (getattr(type(self), name)
                                          is getattr(FreeDokoClientProtocol, name)):
            return
        view = self.view()
        if view is not None:
            hook(view)

    # -- deciding ---------------------------------------------------------------

    def _pending(self, mirror: Mirror) -> tuple[int, str] | None:
        """The decision the rules await from one of our players now, if the parent is there."""
        game: DoppelkopfGame | None = mirror.game
        party = mirror.party
        if (mirror.finished or self._closing or game is None or party.game is not game
                or game.turn not in self.seats):
            return None
        seat = game.turn
        assert seat is not None
        phase = game.phase
        if phase == dk.RESERVING:
            return (seat, "reservation") if mirror.dealOpen else None
        if phase == dk.POVERTY_SHIFT:
            return seat, "poverty shift"
        if phase == dk.POVERTY_ANSWER:
            return seat, "poverty answer"
        if phase == dk.POVERTY_RETURN:
            return seat, "poverty return"
        if phase == dk.PLAYING and mirror.playOpen:
            done = len(game.tricks)
            if mirror.taken < done or (self.requireTrickOpen and mirror.opened <= done
                                       and not game.trick):
                return None
            return seat, "announcement"
        return None

    @staticmethod
    def _position(mirror: Mirror) -> int:
        """
        Where the game is (what a decision is keyed by): the game, the deal,
        the reservations, the poverty answers and the cards so far.  An
        announcement does not move it: a card asked for is asked once.
        """
        game = mirror.game
        if game is None:
            return -1
        moves = (sum(r is not None for r in game.reservations) + len(game.povertyDenied)
                 + (game.povertyAccepter is not None) + bool(game.povertyCards)
                 + bool(game.povertyReturned) + 4 * len(game.tricks) + len(game.trick))
        return (mirror.games * 64 + len(game.redeals)) * 256 + moves

    def _maybeDecide(self, mirror: Mirror) -> None:
        pending = self._pending(mirror)
        if pending is not None:
            self._ask(mirror, *pending)

    def _ask(self, mirror: Mirror, seat: int, kind: str) -> None:
        key: Key = (seat, self._position(mirror), kind)
        if key in mirror.asked:
            return
        mirror.asked.add(key)
        view = mirror.party.view(seat)
        hook: Callable[[DoppelkopfView], object] = {
            "reservation": self.chooseReservation, "poverty shift": self.choosePovertyShift,
            "poverty answer": self.choosePovertyAccept,
            "poverty return": self.choosePovertyReturn,
            "announcement": self.chooseAnnouncement, "card": self.chooseCard,
        }[kind]
        if kind == "announcement" and not view.validAnnouncements:
            self._ask(mirror, seat, "card")
            return
        d = maybeDeferred(hook, view)

        def answer(value: object) -> None:
            if self.mirror is mirror and not self._closing:
                self.machine.decided(key, value)

        def failed(failure: Failure) -> None:
            log.failure("freedoko child {name}: the {kind} hook failed", failure,
                        name=self.name, kind=kind)
            if self.mirror is mirror and not self._closing:
                self.machine.decided(key, _BOT)

        d.addCallbacks(answer, failed)

    def sendDecision(self, mirror: Mirror, key: tuple[int, int, str], value: object) -> None:
        seat, position, kind = key
        pending = self._pending(mirror)
        if self._position(mirror) != position or pending is None or pending[0] != seat:
            log.info("freedoko child {name}: a late {kind} answer dropped", name=self.name,
                     kind=kind)
            return
        game = mirror.game
        assert game is not None
        view = mirror.party.view(seat)
        rules = mirror.party.rules
        hand = list(game.hands[seat])
        if kind == "reservation":
            reservation = self._reservation(value, rules, hand)
            self.sendMessage(wire.Reservation(
                seat, reservation.gameType,
                reservation.selector if reservation.gameType == dk.MARRIAGE else None,
                reservation.swines, reservation.hyperswines))
        elif kind == "poverty shift":
            cards = self._cards(value)
            left = list(hand)
            count = dk.povertyCardCount(hand, rules)
            if (cards is None or len(cards) != count or not _holds(hand, cards)
                    or any(game.order.isTrump(c) for c in _without(left, cards))):
                cards = self._fallback(kind, value, dk.botPovertyShift(hand, rules))
            self.sendMessage(wire.PovertyShift(seat, _wireCards(cards)))
        elif kind == "poverty answer":
            accept = value if isinstance(value, bool) else self._fallback(
                kind, value, dk.botPovertyAccept(hand, rules))
            self.sendMessage(wire.PovertyAccepted(seat) if accept else wire.PovertyDenied(seat))
        elif kind == "poverty return":
            count = len(game.povertyCards)
            cards = self._cards(value)
            if cards is None or len(cards) != count or not _holds(hand, cards):
                cards = self._fallback(kind, value, dk.botPovertyReturn(hand, count, rules))
            self.sendMessage(wire.PovertyReturned(seat, _wireCards(cards)))
        elif kind == "announcement":
            if value is not None and value is not _BOT:
                self._requestAnnouncement(mirror, seat, view, value)
            self._ask(mirror, seat, "card")
        else:
            card = value if isinstance(value, str) and value in view.legalCards else None
            if card is None:
                card = self._fallback(kind, value, dk.botCard(view))
            if game.genscherPossible(seat, card):
                partner = self.chooseGenscher(view, card)
                if partner is not None and (not isinstance(partner, int) or isinstance(
                        partner, bool) or partner == seat or not 0 <= partner < dk.PLAYERS):
                    log.warn("freedoko child {name}: genscher partner {value!r} is not another "
                             "player: no genscher", name=self.name, value=partner)
                    partner = None
                if partner is not None:
                    # FreeDoko's order: the genscher, then the card it goes with.
                    self.sendMessage(wire.Genscher(seat, partner))
            self.sendMessage(wire.CardPlayed(seat, wire.Card(*card.split(" ", 1))))

    def _requestAnnouncement(self, mirror: Mirror, seat: int, view: DoppelkopfView,
                             value: object) -> None:
        if not isinstance(value, str) or value not in view.validAnnouncements:
            log.warn("freedoko child {name}: announcement {value!r} is not one of {valid}: "
                     "not sent", name=self.name, value=value, valid=view.validAnnouncements)
            return
        number = dk.announcementNumber(value)
        if number is None or number <= mirror.requested.get(seat, 0):
            return
        if value == "reply" and mirror.party.rules.flag("announcement strict limit"):
            return
        mirror.requested[seat] = number
        self.sendMessage(wire.Announcement(seat, value))

    def _reservation(self, value: object, rules: Rules, hand: Sequence[str]) -> Reservation:
        reservation = value if isinstance(value, Reservation) else (
            Reservation.parse(value) if isinstance(value, str) else None)
        if (reservation is None or reservation.gameType not in names.GAME_TYPES
                or not dk.ruleAllows(rules, reservation.gameType)
                or (reservation.gameType == dk.MARRIAGE and (
                    reservation.selector not in dk.SELECTORS
                    or not rules.flag(dk.SELECTOR_RULES[reservation.selector])))):
            return self._fallback("reservation", value, dk.botReservation(hand, rules))
        return reservation

    @staticmethod
    def _cards(value: object) -> list[str] | None:
        if isinstance(value, (list, tuple)) and all(
                isinstance(c, str) and c in dk.CARDS for c in value):
            return list(value)
        return None

    def _fallback(self, kind: str, value: object, bot: Any) -> Any:
        if value is not _BOT:
            log.warn("freedoko child {name}: {kind} {value!r} is not allowed: the bot's "
                     "{bot!r} is sent", name=self.name, kind=kind, value=value, bot=bot)
        return bot

    # -- hooks: decisions ----------------------------------------------------------

    def chooseReservation(self, view: DoppelkopfView) -> Reservation | Deferred[Reservation]:
        """Our reservation: a L{Reservation} (or its wire text) that the rules allow."""
        return dk.botReservation(view.hand, view.rules)

    def choosePovertyShift(self, view: DoppelkopfView) -> Sequence[str] | Deferred[Any]:
        """Our poverty: the cards to shift (every trump, as many as the rules say)."""
        return dk.botPovertyShift(view.hand, view.rules)

    def choosePovertyAccept(self, view: DoppelkopfView) -> bool | Deferred[bool]:
        """Another player's poverty is offered to us: True takes it."""
        return dk.botPovertyAccept(view.hand, view.rules)

    def choosePovertyReturn(self, view: DoppelkopfView) -> Sequence[str] | Deferred[Any]:
        """We took a poverty: as many cards to give back as were shifted (``view.povertyCount``)."""
        return dk.botPovertyReturn(view.hand, view.povertyCount, view.rules)

    def chooseAnnouncement(self, view: DoppelkopfView) -> str | None | Deferred[Any]:
        """
        Before each card of ours, when ``view.validAnnouncements`` is not
        empty: one of them, or None.  The parent decides: it takes effect
        when echoed (L{announced}).
        """
        return dk.botAnnouncement(view)

    def chooseCard(self, view: DoppelkopfView) -> str | Deferred[str]:
        """Our turn to play: one of ``view.legalCards``."""
        return dk.botCard(view)

    def chooseGenscher(self, view: DoppelkopfView, card: str) -> int | None:
        """
        ``card``, about to be played, is the first of both trump kings under
        the rule ``genscher``: the partner to name (another player), or None
        for no genscher.  Sent as ``genscher = p, q`` before the card.
        """
        return dk.botGenscher(view, card)

    # -- hooks: news ------------------------------------------------------------------

    def accepted(self, parentName: str | None) -> None:
        """``FreeDoko server``: the parent (named ``parentName``) took the connection."""

    def rejected(self) -> None:
        """``connection rejected``: the parent plays a party; the connection is closed."""

    def seated(self, seat: int, names_: dict[int, str]) -> None:
        """The party starts with us as player ``seat``; the other players' names."""

    def partyStarted(self, seed: int, startplayer: int) -> None:
        """``party: start``: dealt from ``seed``, ``startplayer`` leads the first game."""

    def dealt(self, view: DoppelkopfView) -> None:
        """A game opens (or its thrown deal is dealt again): our hand is ``view.hand``."""

    def reserved(self, player: int, reservation: str) -> None:
        """``player`` reserved (the wire form: ``marriage, first foreign``)."""

    def gameStarted(self, view: DoppelkopfView) -> None:
        """``game: start``: the game type is decided (``view.gameType``); tricks follow."""

    def cardPlayed(self, player: int, card: str, view: DoppelkopfView) -> None:
        """``player`` played ``card``."""

    def announced(self, player: int, announcement: str) -> None:
        """The parent says ``player`` announced ``announcement`` (``no 120``: Re or Kontra)."""

    def trickTaken(self, trick: Trick, view: DoppelkopfView) -> None:
        """A full trick, as the parent's ``trick full`` line says (and our rules agree)."""

    def gameFinished(self, summary: GameSummary, totals: tuple[int, ...]) -> None:
        """``game: finish``: the game's score by our rules; the party's zero-sum totals."""

    def partyFinished(self, totals: tuple[int, ...], summaries: list[GameSummary]) -> None:
        """``party: finish``: the totals and every game's score."""

    def chatReceived(self, text: str) -> None:
        """``chat:`` from the parent."""

    def mismatch(self, text: str) -> None:
        """The parent said what our rules do not (a hand, a trick, a game): ``text`` says what."""

    def closing(self, reason: str) -> None:
        """We close the connection: ``reason`` says why."""


def _without(hand: list[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for c in cards:
        if c in rest:
            rest.remove(c)
    return rest


class _Bot:
    """A hook that failed: the bot decides."""

    def __repr__(self) -> str:
        return "<the bot>"


_BOT: Any = _Bot()
