"""
The FreeDoko examples as child processes against the REAL FreeDoko 0.7.13
parent (L{gameproto.test.freedoko_real}): ``examples/freedoko_bot.py``
finishes a party and agrees with the parent on every trick, and
``examples/freedoko_terminal.py`` plays a party from a script.  Between
the example and the parent sits a relay that records what each side sends,
so that the parent's own ``trick full`` and ``game: hand`` lines are
compared with what the example printed.  Without the real program: the bot
against parents that misbehave, and the terminal's L{TerminalChild} fed the
real parent's side of a captured party.
"""

from __future__ import annotations

import os
import re
from types import SimpleNamespace
from typing import Any

from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint
from twisted.internet.protocol import Factory, Protocol
from twisted.internet.task import deferLater
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto.freedoko import wire
from gameproto.games import doppelkopf as dk
from gameproto.test.examples_harness import (
    ExampleTestCase,
    Process,
    loadScript,
    requireSourceTree,
)
from gameproto.test.freedoko_real import findBinary, freePort, spawnFreeDoko
from gameproto.test.test_freedoko_client import THIRTEEN, parentLines

ROOT = requireSourceTree(__name__)
_reactor: Any = reactor

SIMPLE_RULES = {
    # one round (four games, or one more after a solo)
    "number of rounds limited": "true", "number of rounds": "1",
}

CARD = re.compile(r"(?:club|spade|heart|diamond) (?:nine|jack|queen|king|ten|ace)")
GAME_LINE = re.compile(r"^game (\d+): (.+), (re|contra|nobody) wins (-?\d+) "
                       r"\(re (\d+), contra (\d+)\); totals: (.*)$")


class _ToParent(Protocol):
    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    def dataReceived(self, data: bytes) -> None:
        self.relay.fromParent(data)

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        # Half-close the child's side: it reads all the parent sent, then the
        # end.  (A full close stops reading the child; whatever the child sent
        # meanwhile would lie unread at the close, which then resets the
        # connection, and a reset can take the parent's last bytes, a
        # "connection rejected", away from the child before it reads them.)
        child: Any = self.relay.transport
        if child is not None and child.connected and not child.disconnecting:
            child.loseWriteConnection()


class Relay(Protocol):
    """
    Between a child (this connection) and the parent on ``port``: connects
    when the child does (again and again until the parent listens), passes
    every byte on, and reads both directions with the codec.
    """

    def __init__(self, port: int, attempts: int = 150) -> None:
        self.port = port
        self.attempts = attempts
        self.parent: _ToParent | None = None
        self.pending: list[bytes] = []
        self.fromParentReader = wire.Reader()
        self.fromChildReader = wire.Reader()
        self.parentMessages: list[wire.Message | wire.Unknown] = []
        self.childMessages: list[wire.Message | wire.Unknown] = []
        self.closed: defer.Deferred[None] = defer.Deferred()

    def connectionMade(self) -> None:
        defer.ensureDeferred(self._connect())

    async def _connect(self) -> None:
        endpoint = TCP4ClientEndpoint(_reactor, "127.0.0.1", self.port, timeout=2)
        for _ in range(self.attempts):
            if self.transport is None or self.closed.called:
                return
            try:
                parent = await endpoint.connect(Factory.forProtocol(lambda: _ToParent(self)))
            except Exception:
                await deferLater(_reactor, 0.1)
                continue
            assert isinstance(parent, _ToParent) and parent.transport is not None
            self.parent = parent
            for data in self.pending:
                parent.transport.write(data)
            self.pending = []
            return
        assert self.transport is not None
        self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        self.childMessages.extend(r.message for r in self.fromChildReader.feed(data))
        if self.parent is not None and self.parent.transport is not None:
            self.parent.transport.write(data)
        else:
            self.pending.append(data)

    def fromParent(self, data: bytes) -> None:
        self.parentMessages.extend(r.message for r in self.fromParentReader.feed(data))
        assert self.transport is not None
        self.transport.write(data)

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        if self.parent is not None and self.parent.transport is not None:
            self.parent.transport.loseConnection()
        if not self.closed.called:
            self.closed.callback(None)

    def firstParty(self) -> list[wire.Message | wire.Unknown]:
        """The parent's messages up to its first ``party: finish``."""
        end = self.parentMessages.index(wire.PartyFinish())
        return self.parentMessages[:end + 1]


def describeTrick(message: wire.TrickFull) -> str:
    """A parent's ``trick full`` as the example prints it (``--check``)."""
    cards = ", ".join(str(c) for c in message.cards)
    return f"trick full = {message.start}, {cards}, {message.winner}"


class RealParentCase(ExampleTestCase):
    """The examples against the real FreeDoko parent, one child (player 2)."""

    root = ROOT
    processTimeout = 170.0
    timeout = 200

    def setUp(self) -> None:
        findBinary()

    def startParent(self, rules: dict[str, str] | None,
                    seed: int = 11) -> tuple[list[Relay], int]:
        """The real parent (waiting for one child) behind a recording relay; the relay's port."""
        port = freePort()
        real = spawnFreeDoko(_reactor, "parent", port, name="FDHost", rules=rules, seed=seed,
                             waitChildren=1, lifetime=self.processTimeout + 20)
        self.addCleanup(real.stop)
        relays: list[Relay] = []

        def build() -> Relay:
            relay = Relay(port)
            relays.append(relay)
            return relay

        listening = self.listenLocal(Factory.forProtocol(build))  # type: ignore[arg-type]
        self.real = real
        return relays, listening

    def checkParty(self, relay: Relay, lines: list[str]) -> list[wire.Message | wire.Unknown]:
        """The example agreed with the parent on every trick; the parent's party is returned."""
        party = relay.firstParty()
        self.assertEqual([m for m in party if isinstance(m, wire.Unknown)], [])
        fulls = [describeTrick(m) for m in party if isinstance(m, wire.TrickFull)]
        printed = [line for line in lines if line.startswith("trick full = ")]
        games = [m for m in party if isinstance(m, wire.GameFinish)]
        self.assertGreaterEqual(len(games), 4)
        self.assertEqual(len(fulls), 12 * len(games))
        self.assertEqual(printed, fulls)
        # every card the child sent was the parent's to take: echoed, with "(network)"
        sent = [m for m in relay.childMessages if isinstance(m, wire.CardPlayed)]
        echoed = [m for m in party if isinstance(m, wire.CardPlayed) and m.player == 2]
        self.assertEqual([(m.player, m.card) for m in sent[:len(echoed)]],
                         [(m.player, m.card) for m in echoed])
        self.assertTrue(all(m.comment == "network" for m in echoed))
        self.assertEqual(len(echoed), 12 * len(games))
        self.assertNotIn(wire.Check(), relay.childMessages)
        return party

    async def runBot(self, rules: dict[str, str] | None, seed: int = 11) -> tuple[
            Process, Relay, list[str]]:
        relays, listening = self.startParent(rules, seed)
        process = self.spawnExample("freedoko_bot", "--port", str(listening), "--name", "Robo",
                                    "--check")
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err.decode()), (0, ""),
                         f"{lines[-5:]}\n{self.real.process.describe()}")
        (relay,) = relays
        await relay.closed
        return process, relay, lines


class RealParentTests(RealParentCase):
    """C{freedoko_bot.py} against the real parent."""

    async def test_botOneRound(self) -> None:
        """
        The example bot joins the real parent (one round, FreeDoko's rules
        otherwise), plays player 2 until ``party: finish`` and exits 0; the
        parent's ``trick full`` lines are exactly the tricks it printed, the
        hands it dealt itself are the parent's (``game: hand``: a
        difference would make it exit 1), and its game lines add up.
        """
        process, relay, lines = await self.runBot(SIMPLE_RULES)
        party = self.checkParty(relay, lines)
        games = [GAME_LINE.match(line) for line in lines if line.startswith("game ")]
        self.assertTrue(games and all(games), lines)
        self.assertEqual(len(games), sum(1 for m in party if isinstance(m, wire.GameFinish)))
        for match in games:
            assert match is not None
            self.assertEqual(int(match.group(5)) + int(match.group(6)), 240)
        self.assertTrue(lines[-1].startswith(f"party over after {len(games)} games: "), lines)
        self.assertIn("Robo", lines[-1])
        self.assertEqual(relay.childMessages[0], wire.Name("Robo"))
        # (the headless parent began its next party at once: its only child
        # leaving then, it may crash, signal 11; that is not ours to check)
        self.assertIn(wire.PartySeed(11), relay.parentMessages)

    async def test_botDefaultRules(self) -> None:
        """
        FreeDoko's default rules (twenty rounds: some ninety games with soli,
        poverties, marriages, swines; about two minutes).
        """
        self.processTimeout = 500.0
        process, relay, lines = await self.runBot(None, seed=11)
        self.checkParty(relay, lines)
        rules = next(m for m in relay.parentMessages if isinstance(m, wire.Rules))
        self.assertEqual(rules.settings()["number of rounds"], "20")

    test_botDefaultRules.timeout = 560  # type: ignore[attr-defined]

    async def test_rejected(self) -> None:
        """
        A second child while the parent plays its party: ``connection
        rejected``, and the example exits 1 saying so.  The real parent keeps
        a rejected connection open, and when that child goes away it often
        crashes (signal 11), ending the first child's party too: the first
        bot then says the parent closed the connection mid-party.

        Now and then the parent's rejection never reaches the relay at all
        (the second child sees its connection reset): such a run says
        nothing of the bot, which cannot know it was rejected, and runs
        again with a new parent, three times at most.  Whenever the
        rejection did arrive, the bot is judged on it.
        """
        rejected = ("freedoko_bot: the parent rejected the connection "
                    "(it is in the middle of a party)")
        for _ in range(3):
            relays, listening = self.startParent(SIMPLE_RULES)
            first = self.spawnExample("freedoko_bot", "--port", str(listening), "--name", "First")
            await self.until(lambda: bool(relays) and any(
                isinstance(m, wire.PartyStart) for m in relays[0].parentMessages), 30)
            second = self.spawnExample("freedoko_bot", "--port", str(listening), "--name",
                                       "Second")
            code = await second.ended
            said = second.err.decode().strip().splitlines()[-1:]
            if said == [rejected] or (len(relays) > 1 and
                                      wire.ConnectionRejected() in relays[1].parentMessages):
                break
        self.assertEqual(code, 1)
        self.assertEqual(said, [rejected])
        self.assertEqual(second.out, b"")
        # (what follows, if anything, are the party's broadcast actions: a trick open seen)
        self.assertEqual(relays[1].parentMessages[:2],
                         [wire.ServerHello(), wire.ConnectionRejected()])
        code = await first.ended
        errors = first.err.decode().strip().splitlines()
        if code == 0:
            self.assertEqual(errors, [])
            self.assertTrue(first.lines()[-1].startswith("party over after "), first.lines())
        else:
            self.assertEqual((code, errors[-1:]), (1, [
                "freedoko_bot: the parent closed the connection in the middle of a party"]))
            ended = await self.real.waitEnd(10)
            self.assertIsNotNone(ended.signal, ended.describe())  # the real parent crashed

    async def test_connectionRefused(self) -> None:
        process = self.spawnExample("freedoko_bot", "--port", str(self.freePort()))
        code = await process.ended
        self.assertEqual(code, 1)
        self.assertIn(b"freedoko_bot: cannot connect to 127.0.0.1:", process.err)
        self.assertEqual(process.out, b"")


class RealParentTerminalTests(RealParentCase):
    """C{freedoko_terminal.py} against the real parent, answered line by line or by a script."""

    def checkTerminal(self, process: Process, relay: Relay) -> list[str]:
        lines = process.lines()
        party = relay.firstParty()
        fulls = [[str(c) for c in m.cards] for m in party if isinstance(m, wire.TrickFull)]
        shown = [CARD.findall(line.split(" -> ")[0]) for line in lines
                 if re.match(r"Trick \d+: ", line)]
        self.assertEqual(shown, fulls)
        games = sum(1 for m in party if isinstance(m, wire.GameFinish))
        self.assertEqual(lines[-2:], [f"The party is over after {games} games.",
                                      "Disconnected."])
        self.assertEqual(len([line for line in lines if line.startswith("Totals: ")]), games)
        # every card we played: typed, sent, echoed by the parent
        played = [line[len("You play "):-1] for line in lines if line.startswith("You play ")]
        echoed = [str(m.card) for m in party if isinstance(m, wire.CardPlayed) and m.player == 2]
        self.assertEqual(played, echoed)
        return lines

    async def test_typed(self) -> None:
        """
        The terminal answered as a person would, prompt by prompt: a wrong
        answer is asked again and never sent; the party is played through.
        """
        relays, port = self.startParent(SIMPLE_RULES)
        state: dict[str, Any] = {"typos": 0}

        def answer(process: Process, line: str) -> None:
            if line.startswith("Playable: "):
                state["last"] = str(len(line.split("  ")) - 1)
            elif line == "Your card (its number):":
                if state["typos"] < 2:
                    state["typos"] += 1
                    process.write("x" if state["typos"] == 1 else "99")
                else:
                    process.write(state["last"])
            elif line in ("Your reservation (its number):", "Your announcement (its number):"):
                process.write("0")
            elif line == "Take the poverty? [y/n]":
                process.write("n")
            elif line.startswith("Your poverty"):
                process.write("")

        process = self.spawnExample("freedoko_terminal", "--port", str(port), "--name", "Typist",
                                    onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err.decode()), (0, ""), lines[-5:])
        (relay,) = relays
        self.checkTerminal(process, relay)
        self.assertEqual(lines[0], "Connected to the parent as Typist. Waiting for the party...")
        self.assertIn("'x' is not one of the numbers shown.", lines)
        self.assertIn("'99' is not one of the numbers shown.", lines)
        self.assertEqual([m for m in relay.childMessages if isinstance(m, wire.Reservation)][0],
                         wire.Reservation(2, "normal"))

    async def test_script(self) -> None:
        """``--script``: one answer a line, an empty line taking the suggestion."""
        relays, port = self.startParent(SIMPLE_RULES)
        script = os.path.abspath(self.mktemp())
        with open(script, "w") as f:
            f.write("0\n" + "\n" * 400)
        process = self.spawnExample("freedoko_terminal", "--port", str(port), "--script", script)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err.decode()), (0, ""), lines[-5:])
        (relay,) = relays
        self.checkTerminal(process, relay)
        self.assertIn("You reserve: normal", lines)
        self.assertEqual(relay.childMessages[0], wire.Name("Player"))


class CannedParent(Protocol):
    """
    A parent that sends ``lines`` and then closes its side of the
    connection (if ``close``), reading on what the child says: a close with
    the child's lines unread would reset the connection, and the child
    could lose the lines before it read them.
    """

    def __init__(self, data: bytes, close: bool) -> None:
        self.data = data
        self.close = close

    def connectionMade(self) -> None:
        assert self.transport is not None
        self.transport.write(self.data)
        if self.close:
            self.transport.loseWriteConnection()  # type: ignore[attr-defined]


def _line(text: str) -> bytes:
    return f"1795419279.326: {text}\n".encode()


CANNED_PARTY = b"FreeDoko server\n" + b"".join(_line(t) for t in [
    "name: Canned", "rules", "{", "number of rounds = 1", "}", "player 0: type = network",
    "player 1: type = network", "player 2: type = local", "player 3: type = network",
    "party: seed: 11", "party: startplayer: 0", "party: start", "party: start round: 0",
    "game: open", "game: startplayer: 0", "game: seed: 11"])


class CannedParentTests(ExampleTestCase):
    """C{freedoko_bot.py} against parents that misbehave (no real FreeDoko needed)."""

    root = ROOT

    async def runBot(self, data: bytes, close: bool) -> Process:
        port = self.listenLocal(Factory.forProtocol(lambda: CannedParent(data, close)))
        process = self.spawnExample("freedoko_bot", "--port", str(port), "--name", "Robo")
        await process.ended
        return process

    async def test_closedMidParty(self) -> None:
        process = await self.runBot(CANNED_PARTY, close=True)
        self.assertEqual(process.code, 1)
        self.assertTrue(process.err.decode().strip().endswith(
            "freedoko_bot: the parent closed the connection in the middle of a party"),
            process.err)
        self.assertEqual(process.out, b"")

    async def test_differentHand(self) -> None:
        """A hand our deal does not give: said on stderr, and exit 1 at the end of the party."""
        hand = ", ".join(["club ace"] * 13)
        process = await self.runBot(CANNED_PARTY + _line(f"game: hand 0: {hand}")
                                    + _line("party: finish"), close=False)
        self.assertEqual(process.code, 1)
        err = process.err.decode().strip().splitlines()
        self.assertTrue(any(line.startswith("freedoko_bot: the parent and our rules differ: "
                                            "player 0's hand is") for line in err), err)
        self.assertEqual(err[-1], "freedoko_bot: the parent and our rules differed 1 times")
        self.assertEqual(process.lines(), ["party over after 0 games: player 0 0, player 1 0, "
                                           "Robo 0, player 3 0"])


class TerminalChildTests(SynchronousTestCase):
    """C{TerminalChild} in process, fed the real parent's side of the 13-game party."""

    def test_questions(self) -> None:
        terminal = loadScript(ROOT / "examples" / "freedoko_terminal.py", "freedoko_terminal")
        lines = parentLines(THIRTEEN, "P> ")
        shown: list[str] = []
        child = terminal.TerminalChild("Alice", shown.append)
        child.makeConnection(StringTransport())
        asked: list[str] = []
        for raw in lines:
            child.dataReceived(raw)
            while child.question is not None:
                question = child.question
                asked.append(question)
                if question == "poverty shift" and asked.count(question) == 1:
                    child.feed("0 1")  # too few: asked again
                elif question == "card" and asked.count(question) == 1:
                    child.feed("x")  # not a number of the list
                else:
                    child.feed("")  # the suggestion
        self.assertEqual(child.mismatches, [])
        self.assertIn("poverty shift", asked)
        self.assertIn("Type 3 card numbers.", shown)
        self.assertIn("'x' is not one of the numbers shown.", shown)
        self.assertIn("Your poverty shift (3 card numbers):", shown)
        # the hand is shown sorted: trumps high to low first
        hand = next(line for line in shown if line.startswith("Your hand: "))
        game = dk.DoppelkopfGame(dk.Rules.default(), 97110, 0)
        self.assertEqual(hand, "Your hand: " + ", ".join(dk.sortHand(game.order, game.hands[2])))
        self.assertEqual(len([s for s in shown if s.startswith("Trick ")]), 156)
        self.assertEqual(len([s for s in shown if s.startswith("Totals: ")]), 13)
        # announcements are offered when what may be announced changes, not at every card
        self.assertLess(asked.count("announcement"), asked.count("card"))
        # in players' words: the wire's "no 120" is re or kontra, its "no 0" black
        said = [line for line in shown if " announced " in line]
        self.assertEqual(said[:2], ["Mara announced re.", "Mara announced no 90."])
        self.assertIn("you announced re.", said)
        self.assertIn("Announcements: 0=none  1=kontra  2=no 90  3=no 60  4=no 30  5=black", shown)
        self.assertEqual([line for line in shown if "no 120" in line or "no 0" in line], [])

    def test_thrownIn(self) -> None:
        """
        A game dealt again (thrown nines, …) says why, and that it is the
        same game again: the person does not just see another hand.
        """
        terminal = loadScript(ROOT / "examples" / "freedoko_terminal.py", "freedoko_terminal")
        shown: list[str] = []
        child = terminal.TerminalChild("Alice", shown.append)
        child.seats.add(0)
        child.names.update({1: "bot2", 2: "bot3", 3: "bot4"})
        game = dk.DoppelkopfGame(dk.Rules.default(), 97110, 1)
        view: Any = SimpleNamespace(gameNumber=4, startplayer=1, order=game.order,
                                    hand=game.hands[0], gameType=dk.NORMAL, soloplayer=None)
        child.dealt(view)
        child.reserved(0, "thrown nines")
        child.reserved(1, "normal, swines")
        del shown[:]
        child.dealt(view)  # game 5 again
        self.assertEqual(shown[:3], ["The cards are thrown in (you: thrown nines) and dealt again.",
                                     "", "Game 5, bot2 starts."])
        child.gameStarted(view)
        del shown[:]
        child.dealt(view)  # another game: no word of throwing
        self.assertEqual(shown[0], "")

    def test_seatsFromOne(self) -> None:
        """
        The player numbers a person reads count from 1, as the seats' names
        do (the server's bot2 sits in FreeDoko's player 1): the child in
        FreeDoko's player 2 is player 3, and a player the parent names not
        is numbered the same way.
        """
        terminal = loadScript(ROOT / "examples" / "freedoko_terminal.py", "freedoko_terminal")
        shown: list[str] = []
        child = terminal.TerminalChild("Alice", shown.append)
        child.makeConnection(StringTransport())
        for raw in parentLines(THIRTEEN, "P> "):
            child.dataReceived(raw)
            if any(line.startswith("The party starts") for line in shown):
                break
        start = next(line for line in shown if line.startswith("The party starts"))
        self.assertTrue(start.endswith("; you are player 3 of 4."), start)
        child.names.pop(1, None)
        self.assertEqual(child.nameOf(1), "player 2")
