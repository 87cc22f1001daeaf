"""
The FreeDoko child (L{gameproto.freedoko.client}) with C{StringTransport}
and C{task.Clock}: its machine fed with the real parent's lines (the
transcripts of ``shared/tools/freedoko``), its hooks, the ``trick taken``
barrier, pings and ``ask:``, a rejected connection.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SkipTest, SynchronousTestCase

from gameproto.freedoko import wire
from gameproto.freedoko.client import FreeDokoClientProtocol, rulesFromBlock
from gameproto.games import doppelkopf as dk
from gameproto.games.doppelkopf import DoppelkopfView, GameSummary, Reservation, Trick
from gameproto.test.freedoko_real import TRANSCRIPTS

THIRTEEN = TRANSCRIPTS / "transcript_realParent_realChild_13games.log"
PY_CHILD = TRANSCRIPTS / "transcript_realParent_pyChild.log"
T = "1795419279.326"


def parentLines(path: Path, prefix: str) -> list[bytes]:
    """The parent's lines of a transcript (``P> `` or ``S> ``), as it sent them."""
    if not path.exists():
        raise SkipTest(f"{path} is absent (shared/tools/freedoko/transcripts)")
    return [line[len(prefix):].encode("utf-8") for line in
            path.read_text(encoding="utf-8").splitlines(keepends=True) if line.startswith(prefix)]


def line(text: str) -> bytes:
    return f"{T}: {text}\n".encode()


HANDSHAKE = b"FreeDoko server\n" + line("name: FDHost") + b"".join(
    line(t) for t in ["rules", "{", "number of rounds limited = true", "  number of rounds = 1",
                      "}", "player 0: type = network", "player 0: name = Mara",
                      "player 1: type = network", "player 1: name = Gerd",
                      "player 2: type = local", "player 3: type = network",
                      "player 3: name = Sven"])

PARTY = b"".join(line(t) for t in ["party: seed: 11", "party: startplayer: 0", "party: start",
                                    "party: start round: 0", "game: open",
                                    "game: startplayer: 0", "game: seed: 11"])


class Recorder(FreeDokoClientProtocol):
    """Records every message sent and every hook called."""

    def __init__(self, name: str = "PyTest") -> None:
        self.clock = Clock()
        super().__init__(name, self.clock)
        self.sent: list[Any] = []
        self.calls: list[tuple[str, Any]] = []
        self.tricks: list[Trick] = []
        self.summaries: list[GameSummary] = []
        self.views: dict[str, DoppelkopfView] = {}

    def sendMessage(self, message: Any) -> None:
        if not self._closing:
            self.sent.append(message)
        super().sendMessage(message)

    def sentOf(self, kind: type) -> list[Any]:
        return [m for m in self.sent if isinstance(m, kind)]

    def accepted(self, parentName: str | None) -> None:
        self.calls.append(("accepted", parentName))

    def rejected(self) -> None:
        self.calls.append(("rejected", None))

    def seated(self, seat: int, names_: dict[int, str]) -> None:
        self.calls.append(("seated", (seat, names_)))

    def partyStarted(self, seed: int, startplayer: int) -> None:
        self.calls.append(("partyStarted", (seed, startplayer)))

    def dealt(self, view: DoppelkopfView) -> None:
        self.calls.append(("dealt", view.hand))

    def reserved(self, player: int, reservation: str) -> None:
        self.calls.append(("reserved", (player, reservation)))

    def gameStarted(self, view: DoppelkopfView) -> None:
        self.calls.append(("gameStarted", view.gameType))

    def cardPlayed(self, player: int, card: str, view: DoppelkopfView) -> None:
        self.calls.append(("cardPlayed", (player, card)))

    def announced(self, player: int, announcement: str) -> None:
        self.calls.append(("announced", (player, announcement)))

    def trickTaken(self, trick: Trick, view: DoppelkopfView) -> None:
        self.tricks.append(trick)

    def gameFinished(self, summary: GameSummary, totals: tuple[int, ...]) -> None:
        self.summaries.append(summary)
        self.calls.append(("gameFinished", totals))

    def partyFinished(self, totals: tuple[int, ...], summaries: list[GameSummary]) -> None:
        self.calls.append(("partyFinished", (totals, len(summaries))))

    def chatReceived(self, text: str) -> None:
        self.calls.append(("chat", text))

    def mismatch(self, text: str) -> None:
        self.calls.append(("mismatch", text))

    def closing(self, reason: str) -> None:
        self.calls.append(("closing", reason))

    def chooseCard(self, view: DoppelkopfView) -> Any:
        self.views["card"] = view
        return super().chooseCard(view)

    def hooks(self, name: str) -> list[Any]:
        return [value for hook, value in self.calls if hook == name]


def connect(client: FreeDokoClientProtocol) -> StringTransport:
    transport = StringTransport()
    client.makeConnection(transport)
    return transport


def feedLines(client: FreeDokoClientProtocol, lines: list[bytes]) -> None:
    for raw in lines:
        client.dataReceived(raw)


class HandshakeTests(SynchronousTestCase):
    """Connecting, the rules and the players, pings, ``ask:``, a rejection."""

    def test_name(self) -> None:
        """The child names itself at once, and again in answer to ``FreeDoko server``."""
        client = Recorder("Robo")
        transport = connect(client)
        self.assertEqual(client.state(), "greeting")
        self.assertEqual(transport.value(), f"{client.clock.seconds():.0f}.0: name: Robo\n"
                         .encode())
        client.dataReceived(HANDSHAKE)
        self.assertEqual(client.sent, [wire.Name("Robo"), wire.Name("Robo")])
        self.assertEqual(client.state(), "seated")
        self.assertEqual(client.hooks("accepted"), [None])  # its name: comes after the hello
        self.assertEqual(client.parentName, "FDHost")
        self.assertEqual(client.seat, 2)
        self.assertEqual(client.names, {0: "Mara", 1: "Gerd", 3: "Sven"})
        self.assertEqual(client.rules.number("number of rounds"), 1)
        self.assertFalse(transport.disconnecting)

    def test_badName(self) -> None:
        self.assertRaises(ValueError, FreeDokoClientProtocol, "two\nlines")
        self.assertRaises(ValueError, FreeDokoClientProtocol, "")

    def test_rejected(self) -> None:
        """
        ``connection rejected`` (the real parent is in a party and leaves the
        socket open): the child closes it, says why, and reads no more.
        """
        client = Recorder()
        transport = connect(client)
        client.dataReceived(b"FreeDoko server\nconnection rejected\n" + PARTY)
        self.assertEqual(client.state(), "closed")
        self.assertTrue(transport.disconnecting)
        self.assertEqual(client.hooks("rejected"), [None])
        self.assertEqual(client.problem, "the parent rejected the connection "
                                         "(it is in the middle of a party)")
        self.assertEqual(client.hooks("closing"), [client.problem])
        self.assertIsNone(client.mirror)

    def test_pingAskChat(self) -> None:
        """Pings are answered (with their number), ``ask:`` too; chat reaches its hook."""
        client = Recorder("Robo")
        connect(client)
        client.dataReceived(b"*" + line("ping") + b"*" + line("ping: 7") + b"ping\n"
                            + line("ask: name") + line("ask: rules") + line("chat: hi"))
        self.assertEqual(client.sent[1:], [wire.Pong(), wire.Pong(7), wire.Pong(),
                                           wire.Name("Robo")])
        client.dataReceived(HANDSHAKE + line("ask: rules"))
        assert client.rulesBlock is not None
        self.assertEqual(client.sent[-1], client.rulesBlock)
        self.assertEqual(client.hooks("chat"), ["hi"])

    def test_ruleAndSwitch(self) -> None:
        """``rule:`` changes one rule (1/0 booleans); ``players switched`` moves names and seat."""
        client = Recorder()
        connect(client)
        client.dataReceived(HANDSHAKE + line("rule: dollen = 0")
                            + line("players switched: 2 3"))
        self.assertFalse(client.rules.flag("dollen"))
        self.assertEqual(client.seat, 3)
        self.assertEqual(client.names, {0: "Mara", 1: "Gerd", 2: "Sven"})

    def test_rulesFromBlock(self) -> None:
        """Every rule of the block over FreeDoko's defaults, unknown names kept."""
        block = wire.Rules((wire.RuleSetting("with nines", "false"),
                            wire.RuleComment(" a comment"),
                            wire.RuleSetting("no such rule", "7", 2)))
        rules = rulesFromBlock(block)
        self.assertFalse(rules.flag("with nines"))
        self.assertEqual(rules.value("no such rule"), "7")
        self.assertTrue(rules.flag("dollen"))

    def test_strays(self) -> None:
        """Game messages before a party are logged and dropped; nothing is sent."""
        client = Recorder()
        connect(client)
        client.dataReceived(HANDSHAKE + line("game: open")
                            + line("gameplay action: card played = 0, club ace")
                            + line("party: finish") + line("gameplay action: trick taken"))
        self.assertEqual(client.state(), "seated")
        self.assertEqual(client.sent, [wire.Name("PyTest")] * 2)
        self.assertIsNone(client.mirror)

    def test_unknownLine(self) -> None:
        """A line the codec does not know is kept and skipped."""
        client = Recorder()
        connect(client)
        client.dataReceived(b"FreeDoko server\n" + line("what: ever") + line("name: P"))
        self.assertEqual(len(client.unknown), 1)
        self.assertEqual(client.parentName, "P")


class RealParentTranscriptTests(SynchronousTestCase):
    """The machine fed with what the real parent sent in the captured parties."""

    def test_thirteenGames(self) -> None:
        """
        The real parent's side of the 13-game party (poverty, marriages, a
        solo with swines, thrown nines, announcements): the child deals every
        game itself and agrees with every hand and every ``trick full``
        line; every ``trick taken`` is answered once.
        """
        lines = parentLines(THIRTEEN, "P> ")
        client = Recorder()
        connect(client)
        feedLines(client, lines)
        self.assertEqual(client.hooks("mismatch"), [])
        self.assertEqual(client.state(), "playing")
        self.assertEqual(client.seat, 2)
        fulls = [m for m in (wire.parseLine(raw.rstrip(b"\n")) for raw in lines)
                 if isinstance(m, wire.Received) and isinstance(m.message, wire.TrickFull)]
        self.assertEqual(len(fulls), 156)
        self.assertEqual([(t.leader, list(t.cards), t.winner) for t in client.tricks],
                         [(f.message.start, [str(c) for c in f.message.cards],  # type: ignore
                           f.message.winner) for f in fulls])  # type: ignore[union-attr]
        taken = sum(1 for raw in lines if raw.endswith(b"gameplay action: trick taken\n"))
        self.assertEqual(len(client.sentOf(wire.TrickTaken)), taken)
        self.assertEqual(len(client.summaries), 13)
        self.assertEqual([s.gameType for s in client.summaries][:3],
                         ["poverty", "poverty", "normal"])
        self.assertTrue(all(sum(s.trickPoints) == 240 for s in client.summaries))
        self.assertEqual(sum(client.hooks("gameFinished")[-1]), 0)
        # the hooks saw the party: 13 games opened, a thrown deal dealt again twice
        deals = sum(1 for raw in lines if b"game: hand 0:" in raw)
        self.assertGreater(deals, 13)
        self.assertEqual(len(client.hooks("dealt")), deals)
        self.assertEqual(len(client.hooks("gameStarted")), 13)
        self.assertIn("solo club", client.hooks("gameStarted"))
        self.assertIn((2, "no 120"), client.hooks("announced"))
        self.assertEqual(len(client.hooks("cardPlayed")), 13 * 48)
        self.assertEqual(client.hooks("partyStarted"), [(97110, 0)])
        # what we decided ourselves was never illegal: every card we sent was in our hand
        # (the real child's cards were echoed, not ours: the parent follows its own child)
        first = client.sentOf(wire.Reservation)[0]
        self.assertEqual(first, wire.Reservation(2, "poverty"))

    def test_pyChildParty(self) -> None:
        """
        The real parent's side of a party with a child that played like our
        bot: our reservation and cards, sent at our turn, are the ones the
        parent echoed (the capture ends as the third game opens); each card
        only after ``trick open``; the barrier kept.
        """
        lines = parentLines(PY_CHILD, "S> ")
        client = Recorder()
        connect(client)
        sentAt: list[tuple[int, Any]] = []
        for index, raw in enumerate(lines):
            before = len(client.sent)
            client.dataReceived(raw)
            sentAt.extend((index, m) for m in client.sent[before:])
        self.assertEqual(client.hooks("mismatch"), [])
        texts = [raw.decode().split(": ", 1)[-1].strip() for raw in lines]
        reservations = [(i, m) for i, m in sentAt if isinstance(m, wire.Reservation)]
        self.assertEqual(reservations[0], (texts.index("gameplay action: reservation = 1, "
                                                       "normal"), wire.Reservation(2, "normal")))
        cards = [(i, m) for i, m in sentAt if isinstance(m, wire.CardPlayed)]
        echoed = sum(1 for t in texts if t.startswith("gameplay action: card played = 2,"))
        self.assertEqual(len(cards), echoed)
        self.assertEqual(echoed, 24)  # the capture holds two games
        for i, _ in cards:
            # since the last trick open, this trick had fewer than four cards
            opened = max(j for j in range(i + 1) if texts[j] == "gameplay action: trick open")
            self.assertLess(sum(1 for t in texts[opened:i + 1] if "card played" in t), 4)
        self.assertEqual(len(client.sentOf(wire.TrickTaken)), 24)
        self.assertEqual(len(client.summaries), 2)
        self.assertEqual(client.sentOf(wire.Reservation), [wire.Reservation(2, "normal")] * 3)


def prefixUntil(lines: list[bytes], text: bytes) -> tuple[list[bytes], list[bytes]]:
    """The lines up to the first one holding ``text`` (excluded), and the rest."""
    for index, raw in enumerate(lines):
        if text in raw:
            return lines[:index], lines[index:]
    raise AssertionError(f"{text!r} not found")


class DecisionTests(SynchronousTestCase):
    """The decision hooks: Deferreds, late answers, refused answers, the barrier."""

    def setUp(self) -> None:
        self.lines = parentLines(PY_CHILD, "S> ")

    def test_deferredCard(self) -> None:
        """A hook may answer later; a card is sent once, when it does."""
        answers: list[Deferred[str]] = []

        class Slow(Recorder):
            def chooseCard(self, view: DoppelkopfView) -> Any:
                d: Deferred[str] = Deferred()
                answers.append(d)
                self.views["card"] = view
                return d

        client = Slow()
        connect(client)
        before, rest = prefixUntil(self.lines, b"card played = 2, spade ace (network)")
        feedLines(client, before)
        self.assertEqual(len(answers), 1)
        self.assertEqual(client.sentOf(wire.CardPlayed), [])
        view = client.views["card"]
        self.assertEqual(view.seat, 2)
        self.assertEqual(view.trick, ("spade ace", "spade king"))
        self.assertEqual(sorted(view.legalCards), ["spade ace", "spade nine", "spade ten"])
        client.dataReceived(b"*" + line("ping"))  # nothing asked twice meanwhile
        self.assertEqual(len(answers), 1)
        answers[0].callback("spade ace")
        self.assertEqual(client.sentOf(wire.CardPlayed),
                         [wire.CardPlayed(2, wire.Card("spade", "ace"))])

    def test_illegalAnswerReplaced(self) -> None:
        """A card the rules refuse (here: not held) is never sent: the bot's is."""
        class Wrong(Recorder):
            def chooseCard(self, view: DoppelkopfView) -> Any:
                self.views["card"] = view
                return "club queen"

        client = Wrong()
        connect(client)
        before, _ = prefixUntil(self.lines, b"card played = 2, spade ace (network)")
        feedLines(client, before)
        view = client.views["card"]
        self.assertNotIn("club queen", view.hand)
        self.assertEqual(client.sentOf(wire.CardPlayed),
                         [wire.CardPlayed(2, wire.Card(*dk.botCard(view).split(" ")))])

    def test_reservationNotAllowed(self) -> None:
        """A solo where the rules forbid soli: the bot's reservation is sent."""
        class Soloist(Recorder):
            def chooseReservation(self, view: DoppelkopfView) -> Any:
                return Reservation(dk.SOLO_CLUB)

        client = Soloist()
        connect(client)
        before, _ = prefixUntil(self.lines, b"reservation = 2, normal")
        feedLines(client, before)
        self.assertFalse(client.rules.flag("solo"))
        self.assertEqual(client.sentOf(wire.Reservation), [wire.Reservation(2, "normal")])

    def test_failingHook(self) -> None:
        """A hook that raises: logged, and the bot decides."""
        class Broken(Recorder):
            def chooseReservation(self, view: DoppelkopfView) -> Any:
                raise RuntimeError("oops")

        client = Broken()
        connect(client)
        before, _ = prefixUntil(self.lines, b"reservation = 2, normal")
        feedLines(client, before)
        self.assertEqual(client.sentOf(wire.Reservation), [wire.Reservation(2, "normal")])
        self.assertEqual(len(self.flushLoggedErrors(RuntimeError)), 1)

    def test_lateAnswerDropped(self) -> None:
        """An answer that comes after the game moved on (the parent played for us) is dropped."""
        answers: list[Deferred[str]] = []

        class Slow(Recorder):
            def chooseCard(self, view: DoppelkopfView) -> Any:
                d: Deferred[str] = Deferred()
                answers.append(d)
                return d

        client = Slow()
        connect(client)
        before, rest = prefixUntil(self.lines, b"card played = 2, spade ace (network)")
        feedLines(client, before + rest[:1])  # the parent's echo: our card was played
        answers[0].callback("spade ace")
        self.assertEqual(client.sentOf(wire.CardPlayed), [])

    def test_announcement(self) -> None:
        """An announcement hook's answer is sent before the card, once, if valid."""
        class Caller(Recorder):
            def chooseAnnouncement(self, view: DoppelkopfView) -> Any:
                self.calls.append(("valid", view.validAnnouncements))
                return view.validAnnouncements[0] if view.validAnnouncements else None

        client = Caller()
        connect(client)
        before, _ = prefixUntil(self.lines, b"card played = 2, spade ace (network)")
        feedLines(client, before)
        (valid,) = client.hooks("valid")
        self.assertEqual(valid[0], "no 120")
        self.assertEqual(client.sent[-2], wire.Announcement(2, "no 120"))
        self.assertEqual(client.sent[-1].player, 2)
        self.assertEqual(len(client.sentOf(wire.CardPlayed)), 1)

    def test_barrier(self) -> None:
        """
        After a full trick: our ``trick taken`` answers the parent's, and we
        lead the next trick only once it is opened.
        """
        client = Recorder()
        connect(client)
        # game 2: we (player 2) won trick 2 and lead trick 3
        before, rest = prefixUntil(self.lines, b"trick full = 1, diamond king, club queen")
        feedLines(client, before)
        cards = len(client.sentOf(wire.CardPlayed))
        feedLines(client, rest[:1])  # trick full
        self.assertEqual(client.sent[-1].player, 2)  # our card of this trick
        taken = len(client.sentOf(wire.TrickTaken))
        feedLines(client, rest[1:2])  # the parent's trick taken
        self.assertEqual(client.sent[-1], wire.TrickTaken())
        self.assertEqual(len(client.sentOf(wire.TrickTaken)), taken + 1)
        self.assertEqual(len(client.sentOf(wire.CardPlayed)), cards)  # not before trick open
        feedLines(client, rest[2:3])  # trick open
        self.assertEqual(len(client.sentOf(wire.CardPlayed)), cards + 1)
        self.assertEqual(client.sent[-1].player, 2)


class MismatchTests(SynchronousTestCase):
    """What the parent says and our rules do not."""

    def setUp(self) -> None:
        self.lines = parentLines(PY_CHILD, "S> ")

    def test_hand(self) -> None:
        client = Recorder()
        connect(client)
        client.dataReceived(HANDSHAKE + PARTY + line(
            "game: hand 0: club ace, club ace, club ace, club ace, club ace, club ace, club ace, "
            "club ace, club ace, club ace, club ace, club ace, club ace"))
        (text,) = client.hooks("mismatch")
        self.assertTrue(text.startswith("player 0's hand is ['club ace'"), text)
        self.assertEqual(client.mismatches, [text])

    def test_seedAndStartplayer(self) -> None:
        client = Recorder()
        connect(client)
        client.dataReceived(HANDSHAKE + PARTY.replace(b"game: seed: 11", b"game: seed: 12")
                            .replace(b"game: startplayer: 0", b"game: startplayer: 1"))
        self.assertEqual(client.hooks("mismatch"), ["startplayer 1; ours is 0",
                                                    "game seed 12; ours is 11"])

    def test_cardNotHeld(self) -> None:
        """A card our rules cannot follow: we stop, rather than play on a wrong view."""
        client = Recorder()
        transport = connect(client)
        before, _ = prefixUntil(self.lines, b"card played = 0, spade ace (choose ace)")
        feedLines(client, before)
        client.dataReceived(line("gameplay action: card played = 0, club queen"))
        self.assertTrue(transport.disconnecting)
        self.assertEqual(client.state(), "closed")
        self.assertEqual(client.problem, "player 0's club queen is not what our rules allow")
        self.assertEqual(len(client.hooks("mismatch")), 1)

    def test_trickFull(self) -> None:
        client = Recorder()
        connect(client)
        before, rest = prefixUntil(self.lines, b"trick full = 0, spade ace, spade king")
        feedLines(client, before)
        client.dataReceived(line("gameplay action: trick full = 0, spade ace, spade king, "
                                 "spade ace, spade ten, 2"))
        (text,) = client.hooks("mismatch")
        self.assertIn("trick 1: the parent's", text)


class PartyTests(SynchronousTestCase):
    """Parties follow each other; the connection's end."""

    def test_nextParty(self) -> None:
        client = Recorder()
        connect(client)
        client.dataReceived(HANDSHAKE + PARTY + line("party: finish"))
        self.assertEqual(client.state(), "between")
        self.assertEqual(client.hooks("partyFinished"), [((0, 0, 0, 0), 0)])
        client.dataReceived(line("party: seed: 3"))
        self.assertEqual(client.state(), "preparing")
        client.dataReceived(line("party: startplayer: 1") + line("party: start"))
        self.assertEqual(client.state(), "playing")
        self.assertEqual(client.hooks("partyStarted"), [(11, 0), (3, 1)])
        assert client.mirror is not None
        self.assertEqual(client.mirror.party.startplayer, 1)

    def test_lostMidParty(self) -> None:
        client = Recorder()
        connect(client)
        client.dataReceived(HANDSHAKE + PARTY)
        client.connectionLost()
        self.assertEqual(client.state(), "closed")
        self.assertEqual(client.problem,
                         "the parent closed the connection in the middle of a party")

    def test_leave(self) -> None:
        """L{leave}: closed at once, nothing more read, no problem."""
        client = Recorder()
        transport = connect(client)
        client.dataReceived(HANDSHAKE + PARTY + line("party: finish"))
        client.leave()
        client.dataReceived(line("party: seed: 3"))
        self.assertTrue(transport.disconnecting)
        client.connectionLost()
        self.assertIsNone(client.problem)
        self.assertEqual(client.state(), "closed")

    def test_view(self) -> None:
        """Before a party there is no view; in one, our hand as dealt from the seed."""
        client = Recorder()
        connect(client)
        self.assertIsNone(client.view())
        client.dataReceived(HANDSHAKE + PARTY)
        view = client.view()
        assert view is not None
        self.assertEqual(sorted(view.hand), sorted(dk.dealHands(11, 0)[2]))
        self.assertEqual(view.phase, dk.RESERVING)
        self.assertEqual(client.hooks("dealt"), [view.hand])


class SwinesTests(SynchronousTestCase):
    """Swines the real parent announces when the game starts."""

    def test_swinesAtTheStart(self) -> None:
        """
        Observed with the real parent (its default rules, seed 11, game 6):
        our club solo, and ``swines = 1`` right after ``game: start`` for
        the player holding both club aces, who had reserved ``normal``.
        The child follows: the club aces are then the highest trumps.
        """
        class Soloist(Recorder):
            def chooseReservation(self, view: DoppelkopfView) -> Any:
                return Reservation(dk.SOLO_CLUB)

        client = Soloist()
        connect(client)
        seed = 10  # player 1 is dealt both club aces
        self.assertEqual(dk.dealHands(seed, 0)[1].count("club ace"), 2)
        client.dataReceived(HANDSHAKE + PARTY.replace(b"seed: 11", f"seed: {seed}".encode())
                            + line("gameplay action: reservation = 0, normal")
                            + line("gameplay action: reservation = 1, normal"))
        self.assertEqual(client.sentOf(wire.Reservation), [wire.Reservation(2, "solo club")])
        client.dataReceived(line("gameplay action: reservation = 2, solo club")
                            + line("gameplay action: reservation = 3, normal")
                            + line("game: start") + line("gameplay action: swines = 1"))
        self.assertEqual(client.hooks("mismatch"), [])
        game = client.game
        assert game is not None
        self.assertEqual((game.gameType, game.swinesOwner), (dk.SOLO_CLUB, 1))
        self.assertTrue(game.order.less("heart ten", "club ace"))
        # swines a player does not have: a difference, said once
        client.dataReceived(line("gameplay action: hyperswines = 3"))
        self.assertEqual(len(client.hooks("mismatch")), 1)


class TimingTests(SynchronousTestCase):
    """When the child speaks: its reservations at its turn of each deal."""

    def test_reservationsInTurn(self) -> None:
        """
        Over the 13-game party (two thrown deals among them), each of our
        reservations is sent when the reservations of the deal so far reach
        our turn (as the real child does: at ``game: open`` when we start),
        and after a thrown deal only once the parent has started the next
        (``game: start``).
        """
        lines = parentLines(THIRTEEN, "P> ")
        client = Recorder()
        connect(client)
        reservedSince = 0
        startplayer = 0
        checked = 0
        for index, raw in enumerate(lines):
            before = len(client.sent)
            client.dataReceived(raw)
            if raw.endswith(b"game: open\n"):  # its startplayer: the line after
                told = next(r for r in lines[index:] if b"game: startplayer: " in r)
                startplayer = int(told.rsplit(b" ", 1)[1])
            if raw.endswith((b"game: open\n", b"game: start\n")):
                reservedSince = 0  # a game, or a thrown game's next deal
            if b"gameplay action: reservation = " in raw:
                reservedSince += 1
            for message in client.sent[before:]:
                if isinstance(message, wire.Reservation):
                    self.assertEqual(reservedSince, (2 - startplayer) % 4, raw)
                    checked += 1
        self.assertEqual(checked, sum(1 for raw in lines if b"game: hand 0:" in raw))


class SyncTests(SynchronousTestCase):
    """``sync: gameplay actions`` from the parent."""

    def setUp(self) -> None:
        self.client = Recorder()
        connect(self.client)
        self.client.dataReceived(HANDSHAKE + PARTY + line("gameplay action: reservation = 0, "
                                                          "normal"))

    def sync(self, *actions: str) -> bytes:
        return b"".join(line(t) for t in ["sync: gameplay actions", "{", *actions, "}"])

    def test_equal(self) -> None:
        sent = len(self.client.sent)
        self.client.dataReceived(self.sync("reservation = 0, normal"))
        self.assertEqual(len(self.client.sent), sent)
        self.assertEqual(self.client.hooks("mismatch"), [])

    def test_parentAhead(self) -> None:
        """The actions we missed are applied (and our turn comes)."""
        self.client.dataReceived(self.sync("reservation = 0, normal", "reservation = 1, normal"))
        self.assertEqual(self.client.hooks("reserved"), [(0, "normal"), (1, "normal")])
        self.assertEqual(self.client.sent[-1], wire.Reservation(2, "normal"))

    def test_childAhead(self) -> None:
        """The parent lags behind: it is sent our actions."""
        self.client.dataReceived(self.sync())
        self.assertEqual(self.client.sent[-1], wire.SyncGameplayActions(
            (wire.Reservation(0, "normal"),)))

    def test_different(self) -> None:
        self.client.dataReceived(self.sync("reservation = 0, poverty"))
        self.assertEqual(self.client.hooks("mismatch"),
                         ["the parent's gameplay actions (sync) differ from ours"])


class AnnouncementTests(SynchronousTestCase):
    """Our announcements: asked for once per game and announcement, each game anew."""

    def test_eachGame(self) -> None:
        class Caller(Recorder):
            def chooseAnnouncement(self, view: DoppelkopfView) -> Any:
                return "no 120" if "no 120" in view.validAnnouncements else None

        client = Caller()
        connect(client)
        feedLines(client, parentLines(PY_CHILD, "S> "))
        sent = client.sentOf(wire.Announcement)
        # game 1: asked for once, though still valid for several cards; game 2 anew
        games = [m for m in client.sent if isinstance(m, (wire.Announcement, wire.Reservation))]
        self.assertEqual(sent[:2], [wire.Announcement(2, "no 120")] * 2)
        self.assertEqual([type(m).__name__ for m in games][:4],
                         ["Reservation", "Announcement", "Reservation", "Announcement"])
