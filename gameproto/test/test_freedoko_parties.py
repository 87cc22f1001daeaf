"""
Whole parties of the real FreeDoko 0.7.13 (see L{gameproto.test.freedoko_real})
at the FreeDoko port of the ``twistd gameproto`` service: four real
children, and one real child with three of the server's bots, under
FreeDoko's default rules.  Every child must agree with the server on every
trick and on the cards its seat held, keep its seat to the end (nobody's
time runs out), have nothing refused but announcements, each one it asked
while the rules allowed it (FreeDoko's Game::announcement_valid, which the
engine ports) and that was too late after the card it played meanwhile; and
no traceback may be logged.

The seeds (the hub's rng draws the party seed) are chosen for what their
games hold: soli where another player holds both trump aces, swines,
poverties, marriages.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, cast

from twisted.internet import reactor, task
from twisted.python import log
from twisted.trial.unittest import SkipTest, TestCase

from gameproto.engine.contract import Instructions
from gameproto.engine.record import GameRecord
from gameproto.freedoko import server as freedokoServer
from gameproto.freedoko import wire
from gameproto.freedoko.server import FreeDokoChild, FreeDokoServer, FreeDokoServerFactory
from gameproto.games import doppelkopf as dk
from gameproto.games.doppelkopf import DOPPELKOPF, DoppelkopfParty
from gameproto.test.freedoko_real import RealFreeDoko, findBinary, spawnFreeDoko
from gameproto.test.service_helpers import Server
from gameproto.test.test_freedoko_interop import Capture, RecordingProtocol, handsAtPlay

_reactor: Any = reactor


def rounds(n: int) -> str:
    """FreeDoko's default rules, ``n`` rounds (a round: each player starts a game, more after soli)."""
    return f"number of rounds limited = true\nnumber of rounds = {n}\n"


class AskedAnnouncements:
    """
    Each announcement a real child asks for, judged by the engine in the
    states the child may have judged it in: any since the child's previous
    line (it had not yet read what came since, a partner's announcement or
    another's card, say), up to the request's coming (its own card comes
    after it); and when the table took or refused it.
    """

    def __init__(self, case: TestCase) -> None:
        self.asked: list[tuple[str, int, str, bool, str]] = []
        """
        (child, seat, announcement, whether the rules allowed it in one of
        those states or the player's team held it already, the game then).
        """
        self.allowed: dict[int, set[int]] = {}
        """By seat: the announcements allowed in some state since its child's last line."""
        play = FreeDokoChild.play
        started = FreeDokoServer.started
        judged, allowed = self.asked, self.allowed
        seen: list[wire.Action] = []

        def allowedNow(game: dk.DoppelkopfGame, seat: int) -> set[int]:
            found = set(game.validAnnouncements(seat))
            team = game.teams[seat]
            if team is not None:  # its team's already
                held = game.teamAnnouncement(team)
                found |= {held} if held == dk.REPLY else set(range(dk.NO120, held + 1))
            return found

        class Watcher:
            def update(self, table: Any, seat: None, instructions: Instructions) -> None:
                if table.finished:
                    return
                game = cast(DoppelkopfParty, table.engine).game
                for player in range(dk.PLAYERS):
                    allowed.setdefault(player, set()).update(allowedNow(game, player))

        def starting(server: FreeDokoServer, room: Any, table: Any) -> None:
            started(server, room, table)
            table.watch(Watcher())

        def asking(child: FreeDokoChild, seat: int, action: wire.Action) -> None:
            # (one taken after the child's card comes here again: judged as it came)
            room = child.room
            if (room is not None and room.table is not None and not room.table.finished
                    and not any(a is action for a in seen)):
                party = cast(DoppelkopfParty, room.table.engine)
                game = party.game
                number = None
                if isinstance(action, wire.Announcement):
                    number = dk.announcementNumber(action.announcement)
                if (isinstance(action, wire.Announcement) and number is not None
                        and number > dk.NO_ANNOUNCEMENT
                        and not freedokoServer.echoed(party, seat, action)):
                    seen.append(action)
                    state = (f"{game.gameType} (selector {game.selector}), {len(game.tricks)} "
                             f"tricks and {len(game.trick)} cards played, {len(game.hands[seat])} "
                             f"in the hand, team {game.teams[seat]}, announcements "
                             f"{game.announcements}")
                    judged.append((child.name, seat, action.announcement,
                                   number in allowed.get(seat, set()) | allowedNow(game, seat),
                                   state))
                allowed[seat] = allowedNow(game, seat)
            play(child, seat, action)

        FreeDokoChild.play = asking  # type: ignore[method-assign, assignment]
        FreeDokoServer.started = starting  # type: ignore[method-assign, assignment]
        case.addCleanup(setattr, FreeDokoChild, "play", play)
        case.addCleanup(setattr, FreeDokoServer, "started", started)


class FreeDokoService:
    """
    The ``twistd gameproto`` service with its web and FreeDoko ports on
    127.0.0.1, the FreeDoko connections recorded (L{RecordingProtocol}),
    the hub's rng seeded.
    """

    def __init__(self, case: TestCase, seed: int, rules: str, botsAfter: float,
                 timeout: float = 30.0) -> None:
        handle, path = tempfile.mkstemp(prefix="freedoko-rules-")
        with os.fdopen(handle, "w") as f:
            f.write(rules)
        case.addCleanup(os.remove, path)
        self.service = Server(case, [], "--freedoko-rules", path,
                              "--freedoko-bots-after", str(botsAfter),
                              "--freedoko-timeout", str(timeout),
                              ports=("web", "freedoko"))
        top = self.service.service
        top.hub.rng.seed(seed)
        self.server: FreeDokoServer = top.servers["freedoko"]
        factory = cast(FreeDokoServerFactory, top.getServiceNamed("freedoko").factory)
        factory.protocol = RecordingProtocol
        factory.connections = []  # type: ignore[attr-defined]
        factory.journal = []  # type: ignore[attr-defined]
        self.factory = factory
        self.case = case

    @property
    def connections(self) -> list[RecordingProtocol]:
        return cast(list[RecordingProtocol], self.factory.connections)  # type: ignore[attr-defined]

    async def start(self) -> int:
        """Listen; the FreeDoko port."""
        await self.service.start()
        self.case.addCleanup(self.service.stop)
        return self.service.ports["freedoko"]

    def children(self, names: list[str], lifetime: float) -> list[RealFreeDoko]:
        reals = []
        for name in names:
            real = spawnFreeDoko(_reactor, "child", self.service.ports["freedoko"], name=name,
                                 lifetime=lifetime)
            self.case.addCleanup(real.stop)
            reals.append(real)
        return reals

    async def party(self, reals: list[RealFreeDoko], seconds: float) -> GameRecord:
        """Wait for the table to start and its party to end (``seconds`` at most); its record."""
        server = self.server
        for _ in range(int(seconds * 10)):
            if server.playing:
                break
            ended = [r for r in reals if r.process.ended.called]
            if ended:
                self.case.fail(f"a child ended before the party: {ended[0].process.describe()}")
            await task.deferLater(_reactor, 0.1, lambda: None)
        self.case.assertTrue(server.playing, "the table never started")
        (room,) = server.playing
        table = room.table
        assert table is not None
        for _ in range(int(seconds * 10)):
            if table.finished:
                break
            await task.deferLater(_reactor, 0.1, lambda: None)
        if not table.finished:
            self.case.fail(f"the party did not end in {seconds}s: {len(table.record.actions)} "
                           "actions; " + "; ".join(r.process.describe() for r in reals))
        await task.deferLater(_reactor, 1.0, lambda: None)
        record = self.server.hub.store.get(table.id)
        assert record is not None
        return record


def gamesOf(record: GameRecord) -> list[dict[str, Any]]:
    """Replaying ``record``: each game's type, soloist, swines and poverty answers, as played."""
    party = DOPPELKOPF.start(record.params, record.initvalues)
    assert isinstance(party, DoppelkopfParty)
    games: list[dict[str, Any]] = []
    answers: list[tuple[int, bool]] = []
    for action in record.actions:
        if action.kind != "act":
            continue
        game = party.game
        outcome = party.act(action.seat, action.action)
        assert isinstance(outcome, Instructions), outcome
        if isinstance(action.action, dict) and "poverty accepted" in action.action:
            answers.append((action.seat, bool(action.action["poverty accepted"])))
        for event in outcome.events:
            if event.kind == "game over":
                games.append({"type": game.gameType, "soloplayer": game.soloplayer,
                              "swines": game.swinesOwner, "answers": answers,
                              "seed": game.seed})
                answers = []
    return games


def staleAsks(record: GameRecord, children: set[int]) -> set[tuple[int, int]]:
    """
    (game, player) for each real child (one of ``children``, by player) that
    asked a player for its poverty answer before it could come, when that
    player's last answer of the party differed from its new one: the child
    takes the old answer (NetworkPlayer::pending_poverty_accept) and waits
    for ever.  The child that shifted asks the next at once, and so does
    each child that refused, the players after it.
    """
    found: set[tuple[int, int]] = set()
    last: dict[int, bool] = {}
    for number, played in enumerate(gamesOf(record)):
        poor = played["soloplayer"]
        for seat, answer in played["answers"]:
            if seat in last and last[seat] != answer:
                asker = poor
                while asker is not None and asker != seat:
                    if asker in children:
                        found.add((number, asker))
                    asker = (asker + 1) % dk.PLAYERS
            last[seat] = answer
    return found


class PartyTests(TestCase):
    """Real FreeDoko children through the service's FreeDoko port, whole parties."""

    timeout = 900

    def setUp(self) -> None:
        findBinary()
        self.capture = Capture(self)
        self.asked = AskedAnnouncements(self)

    def check(self, record: GameRecord, service: FreeDokoService, reals: list[RealFreeDoko],
              staleAllowed: bool = False) -> list[dict[str, Any]]:
        """
        Every trick and hand agreed, every seat kept, only late announcements
        refused.  A child that lost its seat is told apart: with
        ``staleAllowed``, one that took another child's older poverty answer
        (L{staleAsks}: no order of lines can help it) passes, up to the game
        it lost; anything else fails.
        """
        summary = "; ".join(r.process.describe() for r in reals)
        self.assertIsNone(record.error, summary)
        self.assertIsNotNone(record.scores, summary)
        for real in reals:
            self.assertFalse(real.process.ended.called, f"a child ended: {summary}")
        hands = handsAtPlay(record)
        children = {c.child.seat for c in service.connections}
        stale = staleAsks(record, children)
        for connection in service.connections:
            child = connection.child
            seat = child.seat
            unknown = [r for r in connection.received if isinstance(r.message, wire.Unknown)]
            self.assertEqual(unknown, [], summary)
            games = len(hands)
            if child.room is None:  # its seat went to a bot
                games = len(connection.parentSent(wire.GameOpen)) - 1
                explained = (games, seat) in stale
                self.assertTrue(
                    staleAllowed and explained,
                    f"player {seat} lost its seat in game {games}" + (
                        ": it asked another real child for its poverty answer before that "
                        "came, and took its older one" if explained else f"; {summary}"))
            ours = connection.parentSent(wire.TrickFull)
            theirs = connection.childSent(wire.TrickFull)
            if child.room is not None:
                self.assertEqual(len(connection.parentSent(wire.PartyFinish)), 1)
                self.assertEqual(len(ours), dk.TRICKS * games, summary)
            self.assertEqual(theirs, ours, f"player {seat}: the child's tricks are not ours")
            played: list[list[str]] = [[]]
            for received in connection.received:
                message = received.message
                if isinstance(message, wire.CardPlayed) and message.player == seat:
                    if len(played[-1]) == dk.TRICKS:
                        played.append([])
                    played[-1].append(str(message.card))
            self.assertEqual([tuple(sorted(p)) for p in played[:games]],
                             [h[seat] for h in hands[:games]], f"player {seat}: other cards")
        refused = self.capture.lines("refused")
        log.msg(f"refused: {refused}")
        self.assertEqual([line for line in refused if "refused announcement" not in line], [])
        # Each announcement refused was one the rules allowed as the child
        # asked for it (the engine judges as FreeDoko's Game::announcement_valid),
        # or its team's already; refused once the child's card came, as the
        # child itself would not take our echo then.
        for line in refused:
            self.assertIn(": the rules do not allow it now", line)
        for name, seat, what, valid, state in self.asked.asked:
            self.assertTrue(valid, f"{name} asked for {what} for player {seat} when the "
                                   f"rules did not allow it: {state}")
        self.assertEqual(self.capture.tracebacks, [])
        kinds = gamesOf(record)
        self.assertEqual(len(kinds), len(hands))
        log.msg(f"games: {kinds}")
        return kinds

    async def play(self, seed: int, names: list[str], rules: str,
                   seconds: float) -> tuple[GameRecord, list[dict[str, Any]]]:
        """A party of real children called ``names`` (and bots), its record and games."""
        service = FreeDokoService(self, seed=seed, rules=rules,
                                  botsAfter=60.0 if len(names) == 4 else 0.5)
        await service.start()
        reals = service.children(names, lifetime=seconds + 60)
        record = await service.party(reals, seconds)
        return record, self.check(record, service, reals)

    async def test_botSoloGivesTheChildSwines(self) -> None:
        """
        One real child and three bots, one round: a bot's club solo gives
        the child (player 0) both club aces.  The child announces swines
        itself as the game starts, the bot soloist leading at once; the
        table took them with the child's reservation, so the child and the
        server agree on every trick.
        """
        record, games = await self.play(365, ["Anna"], rounds(1), 240)
        self.assertEqual(record.seats[0], "Anna")
        self.assertEqual([(g["type"], g["soloplayer"], g["swines"]) for g in games[:1]],
                         [(dk.SOLO_CLUB, 2, 0)])

    async def test_childsSoloWithSwines(self) -> None:
        """
        Four real children, one round: the first game is player 1's heart
        solo with both heart aces, its swines announced by that child as it
        starts; the others know of them by its reservation.  Marriages follow.
        """
        record, games = await self.play(194, ["Anna", "Bert", "Carl", "Dora"], rounds(1), 300)
        self.assertEqual((games[0]["type"], games[0]["soloplayer"], games[0]["swines"]),
                         (dk.SOLO_HEART, 1, 1))
        self.assertIn(dk.MARRIAGE, [g["type"] for g in games])

    async def test_botsRepeatTheirPovertyAnswer(self) -> None:
        """
        One real child and three bots, one round: the child is poor twice;
        it asks player 1, a bot, at once each time, and takes the answer it
        has for it: the bot answers as it did the first time.
        """
        record, games = await self.play(1501, ["Anna"], rounds(1), 240)
        poverties = [g["answers"] for g in games if g["type"] == dk.POVERTY]
        self.assertEqual(poverties[:2], [[(1, True)], [(1, True)]])

    async def test_fourChildren(self) -> None:
        """
        Four real children, two rounds of FreeDoko's defaults: a poverty,
        marriages, swines with the reservation.
        """
        record, games = await self.play(22, ["Anna", "Bert", "Carl", "Dora"], rounds(2), 420)
        kinds = [g["type"] for g in games]
        self.assertIn(dk.POVERTY, kinds)
        self.assertGreaterEqual(kinds.count(dk.MARRIAGE), 2)
        self.assertTrue(any(g["swines"] is not None for g in games))

    async def test_wholePartyOneChild(self) -> None:
        """
        One real child and three bots, a whole party under FreeDoko's
        defaults (20 rounds, some 90 games): soli, swines, poverties and
        marriages of every kind, every trick agreed.
        """
        record, games = await self.play(4, ["Anna"], "", 600)
        self.assertGreaterEqual(len(games), 80)
        kinds = {g["type"] for g in games}
        self.assertTrue({dk.POVERTY, dk.MARRIAGE, dk.SOLO_CLUB} <= kinds, kinds)

    async def test_wholePartyFourChildren(self) -> None:
        """
        Four real children, a whole party under FreeDoko's defaults (20
        rounds, about nine minutes: run with GAMEPROTO_FREEDOKO_LONG=1).  A
        child that asks another real child for a poverty answer before it
        came takes that child's older one (FreeDoko's own flaw, which no
        order of lines can mend) and loses its seat to a bot: told apart
        from any other loss; the others agree on every trick to the end.
        """
        if not os.environ.get("GAMEPROTO_FREEDOKO_LONG"):
            raise SkipTest("a whole party of four real children takes about nine minutes "
                           "(GAMEPROTO_FREEDOKO_LONG=1 runs it)")
        service = FreeDokoService(self, seed=22, rules="", botsAfter=60.0)
        await service.start()
        reals = service.children(["Anna", "Bert", "Carl", "Dora"], lifetime=1500)
        record = await service.party(reals, 1400)
        games = self.check(record, service, reals, staleAllowed=True)
        self.assertGreaterEqual(len(games), 80)
