"""
The MaîtreTarot examples, for real: the bot and the terminal client play
complete deals against the server's bots on 127.0.0.1, in process and as
processes of their own.
"""

from __future__ import annotations

import io
import random
import re
from contextlib import redirect_stdout
from types import ModuleType
from typing import Any, Callable

from hypothesis import given
from twisted.internet import reactor
from twisted.internet.error import ConnectionDone
from twisted.internet.protocol import Factory, Protocol, connectionDone
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto.games.tarot import (
    BID_NAMES,
    GARDE,
    OUDLERS,
    PETITE,
    TarotView,
    botDiscard,
    discardable,
    isKing,
    isLegalDiscard,
    legalBids,
)
from gameproto.maitretarot import wire
from gameproto.maitretarot.protocol import MaitreTarotServerProtocol
from gameproto.maitretarot.server import TarotServer, TarotServerFactory, TarotSettings

from gameproto.test import examples_harness
from gameproto.test.examples_harness import Process, loadScript, requireSourceTree
from gameproto.test.tarot_helpers import takerHands

ROOT = requireSourceTree("gameproto.test.test_tarot_examples")
EXAMPLES = ROOT / "examples"


def loadExample(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` (the examples are scripts, not a package)."""
    return loadScript(EXAMPLES / f"{name}.py", f"examples.{name}")


bot = loadExample("tarot_bot")
terminal = loadExample("tarot_terminal")

WAIT = terminal.BOTS_COME
"""What both examples say, once identified, of the bots that will fill the table."""
TerminalClient: Any = terminal.TerminalClient

SETTINGS = TarotSettings(botsAfter=0, timeout=5)
"""Bots fill a table at once; five seconds per answer."""

SEED = 7
"""The server's random seed (the deals): in its first deal, the person bidding last takes."""

NICK = r"[\w-]+"
SCORE = re.compile(
    rf"deal (\d+): (?:(petite|garde|garde sans|garde contre) by ({NICK}), (won|lost) with "
    rf"(\d+) points and ([0-3]) oudlers?|not played \((?:everybody passed|petit sec)\))"
    rf"; totals: ({NICK}) (-?\d+), ({NICK}) (-?\d+), ({NICK}) (-?\d+), ({NICK}) (-?\d+)$")


def totalsOf(line: str) -> dict[str, int]:
    """The nicks and totals of a score line."""
    match = SCORE.match(line)
    assert match is not None, line
    fields = match.groups()[6:]
    return {fields[i]: int(fields[i + 1]) for i in range(0, 8, 2)}


class TrackedProtocol(MaitreTarotServerProtocol):
    """The server protocol, keeping its factory's set of open connections."""

    factory: TrackingFactory

    def connectionMade(self) -> None:
        super().connectionMade()
        self.factory.open.add(self)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        super().connectionLost(reason)
        self.factory.open.discard(self)


class TrackingFactory(TarotServerFactory):
    protocol = TrackedProtocol

    def __init__(self, server: TarotServer) -> None:
        super().__init__(server)
        self.open: set[TrackedProtocol] = set()


class Refuser(Protocol):
    """
    A server that refuses every client's GET_ID (SEND_ID -1) and hangs up.
    It answers once the GET_ID has come, as a server does: hanging up with
    the client's bytes unread would reset the connection, and the client
    could lose the answer.
    """

    def dataReceived(self, data: bytes) -> None:
        if self.transport.disconnecting:  # type: ignore[union-attr]
            return
        self.transport.write(wire.serialize(  # type: ignore[union-attr]
            wire.SendId(wire.WRONG_ID, wire.VERSION)))
        self.transport.loseConnection()  # type: ignore[union-attr]


class ExampleTestCase(examples_harness.ExampleTestCase):
    """A real MaîtreTarot server on 127.0.0.1 per test; the harness connects and spawns."""

    timeout = 20
    root = ROOT

    def startServer(self, seed: int = SEED) -> int:
        """Serve MaîtreTarot on a free port; returns the port number."""
        self.server = TarotServer(SETTINGS, reactor, rng=random.Random(seed))
        factory = TrackingFactory(self.server)
        port = self.listenLocal(factory)
        self.addCleanup(self.until, lambda: not factory.open and not self.server.playing)
        return port


# -- tarot_bot.py ------------------------------------------------------------


class DescribeTests(SynchronousTestCase):
    """The score lines of the bot."""

    nicks = ["alice", "bot2", "bot3", "bot4"]

    def test_played(self) -> None:
        score = {"contract": GARDE, "won": True, "points": 57, "oudlers": 2,
                 "totals": [-64, 192, -64, -64]}
        self.assertEqual(bot.describeScore(3, score, self.nicks, 1, (0, 2, 0, 0)),
                         "deal 3: garde by bot2, won with 57 points and 2 oudlers; "
                         "totals: alice -64, bot2 192, bot3 -64, bot4 -64")
        lost = dict(score, contract=PETITE, won=False, points=29, oudlers=1)
        self.assertEqual(bot.describeScore(1, lost, self.nicks, 0, (1, 0, 0, 0)),
                         "deal 1: petite by alice, lost with 29 points and 1 oudler; "
                         "totals: alice -64, bot2 192, bot3 -64, bot4 -64")

    def test_notPlayed(self) -> None:
        score = {"contract": 0, "won": False, "points": 0, "oudlers": 0, "totals": [0] * 4}
        self.assertEqual(bot.describeScore(1, score, self.nicks, None, (0, 0, 0, 0)),
                         "deal 1: not played (everybody passed); "
                         "totals: alice 0, bot2 0, bot3 0, bot4 0")
        self.assertEqual(bot.describeScore(2, score, self.nicks, None, (-1,) * 4),
                         "deal 2: not played (petit sec); totals: alice 0, bot2 0, bot3 0, bot4 0")
        self.assertEqual(totalsOf(bot.describeScore(1, score, self.nicks, None, (0,) * 4)),
                         dict.fromkeys(self.nicks, 0))

    def test_takerUnknown(self) -> None:
        """After a reconnection at the end of a deal, the score comes without the final bids."""
        score = {"contract": PETITE, "won": True, "points": 60, "oudlers": 1,
                 "totals": [-31, 93, -31, -31]}
        self.assertEqual(bot.describeScore(1, score, self.nicks, None, (-1,) * 4),
                         "deal 1: petite by the taker, won with 60 points and 1 oudler; "
                         "totals: alice -31, bot2 93, bot3 -31, bot4 -31")


class BotTests(ExampleTestCase):
    """L{BotClient} in process, and C{tarot_bot.py} as a process."""

    async def test_botPlaysDeals(self) -> None:
        """Three deals against the server's bots, one line each, then the table ends."""
        port = self.startServer()
        lines: list[str] = []
        client = bot.BotClient("robot", deals=3, report=lines.append)
        await self.connect(port, client, client.done)
        await client.done

        self.assertIsNone(client.problem)
        self.assertTrue(client.over)
        self.assertEqual(lines[0], f"Connected as robot, place 1. Waiting for the table to "
                                   f"fill: {WAIT}.")
        lines = lines[1:]
        self.assertEqual(lines, client.results)
        self.assertEqual(client.nicks, ["robot", "bot2", "bot3", "bot4"])
        self.assertEqual(len(lines), 3)
        for number, line in enumerate(lines, 1):
            match = SCORE.match(line)
            assert match is not None, line
            self.assertEqual(int(match.group(1)), number)
            self.assertEqual(sum(totalsOf(line).values()), 0)  # every deal sums to zero
        self.assertEqual(list(totalsOf(lines[-1]).values()), list(client.totals))
        # The last line tells the last SEND_SCORE: the taker's points, whole.
        last = client.lastScore
        match = SCORE.match(lines[-1])
        assert match is not None and last is not None
        if last["contract"]:
            self.assertEqual(match.group(2), BID_NAMES[last["contract"]])
            self.assertEqual(int(match.group(5)), last["points"])
            self.assertEqual(match.group(4), "won" if last["won"] else "lost")
        (record,) = self.server.store.records.values()  # type: ignore[attr-defined]
        self.assertEqual(record.id, 1)

    async def test_botScript(self) -> None:
        """``tarot_bot.py --deals 2`` plays two deals against the server's bots and exits 0."""
        port = self.startServer()
        process = self.spawnExample("tarot_bot", "--port", str(port), "--nick", "scripted",
                                    "--deals", "2")
        code = await process.ended
        self.assertEqual((code, process.err), (0, b""))
        waiting, *lines = process.lines()
        self.assertEqual(waiting, f"Connected as scripted, place 1. Waiting for the table to "
                                  f"fill: {WAIT}.")
        self.assertEqual(len(lines), 2, lines)
        for number, line in enumerate(lines, 1):
            match = SCORE.match(line)
            assert match is not None, line
            self.assertEqual(int(match.group(1)), number)
            self.assertEqual(list(totalsOf(line)), ["scripted", "bot2", "bot3", "bot4"])
            self.assertEqual(sum(totalsOf(line).values()), 0)

    async def test_botScriptDefaultNick(self) -> None:
        """Without ``--nick`` the server's default nick (playerN) shows in the lines."""
        port = self.startServer()
        process = self.spawnExample("tarot_bot", "--port", str(port))
        code = await process.ended
        self.assertEqual((code, process.err), (0, b""))
        waiting, line = process.lines()
        self.assertTrue(waiting.startswith("Connected with the default nick, place 1. "), waiting)
        self.assertEqual(list(totalsOf(line)), ["player1", "bot2", "bot3", "bot4"])

    async def test_botScriptConnectionRefused(self) -> None:
        process = self.spawnExample("tarot_bot", "--port", str(self.freePort()))
        code = await process.ended
        self.assertEqual(code, 1)
        self.assertIn(b"tarot_bot: cannot connect to 127.0.0.1:", process.err)
        self.assertEqual(process.out, b"")

    async def test_botScriptRefusedByServer(self) -> None:
        """A server answering SEND_ID -1: a clear message and exit 1."""
        factory = Factory.forProtocol(Refuser)
        process = self.spawnExample("tarot_bot", "--port", str(self.listenLocal(factory)))
        code = await process.ended
        self.assertEqual(code, 1)
        self.assertEqual(process.err.strip(), b"tarot_bot: the connection is closed: "
                         b"the server refused our GET_ID")
        self.assertEqual(process.out, b"")


# -- tarot_terminal.py ---------------------------------------------------------


class RecordingTerminal(TerminalClient):
    """The terminal client, recording every message it sends."""

    def __init__(self, nick: str | None, out: Callable[[str], None]) -> None:
        super().__init__(nick, out)
        self.sent: list[wire.Message] = []
        self.refusals = 0
        self.hands: list[tuple[int, ...]] = []

    def sendMessage(self, message: wire.Message) -> None:
        self.sent.append(message)
        super().sendMessage(message)

    def dealt(self, hand: tuple[int, ...]) -> None:
        self.hands.append(hand)
        super().dealt(hand)

    def refused(self) -> None:
        self.refusals += 1
        super().refused()

    def sentOf(self, kind: type) -> list[Any]:
        return [m for m in self.sent if isinstance(m, kind)]


def illegalDiscard(hand: tuple[int, ...]) -> list[int]:
    """Six cards that may not be the discard: a king or an oudler with five others."""
    legal = list(botDiscard(hand))
    forbidden = [c for c in hand if isKing(c) or c in OUDLERS]
    if forbidden:
        return legal[:5] + forbidden[:1]
    ordinary, trumps = discardable(hand)
    if len(ordinary) >= 6 and trumps:
        return legal[:5] + trumps[:1]  # a trump when ordinary cards would do
    return legal[:5]  # five cards


class Person:
    """
    Types into a L{TerminalClient} what its prompts ask, reading the view it
    was asked with: it takes a garde or petite when it may, types one
    illegal discard and one illegal card first, and plays deals until it
    has discarded (at most ``maxDeals``).
    """

    def __init__(self, nick: str, maxDeals: int = 4) -> None:
        self.lines: list[str] = []
        self.maxDeals = maxDeals
        self.client = RecordingTerminal(nick, self.out)
        self.typed: list[str] = []
        self.illegalCard: int | None = None
        self.badDiscard: list[int] | None = None
        self.goodDiscard: list[int] | None = None

    def out(self, line: str) -> None:
        self.lines.append(line)
        view: TarotView | None = self.client.asked
        if line.startswith("Your bid ("):
            assert view is not None
            legal = legalBids(view.bids)
            answer = str(GARDE if GARDE in legal else PETITE if PETITE in legal else 0)
        elif line.startswith("Your discard:"):
            assert view is not None and len(view.hand) == 24
            if self.badDiscard is None:
                self.badDiscard = illegalDiscard(view.hand)
                assert not isLegalDiscard(view.hand, self.badDiscard)
                answer = " ".join(map(str, self.badDiscard))
            else:
                self.goodDiscard = list(botDiscard(view.hand))
                answer = ", ".join(map(str, self.goodDiscard))
        elif line.startswith("Your card"):
            assert view is not None and view.legalCards
            if self.illegalCard is None:
                held = [c for c in view.hand if c not in view.legalCards]
                self.illegalCard = held[0] if held else next(
                    c for c in range(78) if c not in view.hand)
                answer = str(self.illegalCard)
            else:
                answer = str(view.legalCards[-1])
        elif line.startswith("Another deal?"):
            again = self.goodDiscard is None and self.client.deals < self.maxDeals
            answer = "y" if again else "n"
        else:
            return
        self.typed.append(answer)
        reactor.callLater(0, self.client.feed, answer)


class TerminalTests(ExampleTestCase):
    """L{TerminalClient} driven line by line, and C{tarot_terminal.py} as a process."""

    def test_handLines(self) -> None:
        self.assertEqual(terminal.handLines([77, 0, 13, 56, 76, 30, 27]), [
            "  clubs:    0=1\u2663 13=R\u2663",
            "  spades:   27=R\u2660",
            "  hearts:   30=3\u2665",
            "  trumps:   56=T1 76=T21",
            "  excuse:   77=Exc",
        ])

    def test_discardProblem(self) -> None:
        hand = tuple(range(0, 24))  # clubs and spades 1..10: two kings (13, 27)
        self.assertIsNone(terminal.discardProblem(hand, [0, 1, 2, 3, 4, 5]))
        self.assertEqual(terminal.discardProblem(hand, [0, 1, 2, 3, 4]),
                         "Type 6 different card numbers.")
        self.assertEqual(terminal.discardProblem(hand, [0, 1, 2, 3, 4, 4]),
                         "Type 6 different card numbers.")
        self.assertEqual(terminal.discardProblem(hand, [0, 1, 2, 3, 4, 40]),
                         "You do not hold 40.")
        self.assertEqual(terminal.discardProblem(hand, [0, 1, 2, 3, 4, 13]),
                         "No king or oudler in the discard: 13=R\u2663.")
        trumps = tuple(range(0, 4)) + tuple(range(57, 77))  # four ordinary cards
        self.assertEqual(terminal.discardProblem(trumps, [0, 1, 2, 57, 58, 59]),
                         "Trumps go in the discard only when you cannot do otherwise, "
                         "and then as few as needed.")
        self.assertIsNone(terminal.discardProblem(trumps, [0, 1, 2, 3, 57, 58]))

    def test_refusedSaysWhy(self) -> None:
        """SEND_ACK_FOR_CHIEN 0: the FFT rules the server applies, and that time starts again."""
        lines: list[str] = []
        client = terminal.TerminalClient("alice", lines.append)
        client.seat = client.taker = 0
        client.contract = wire.GARDE
        client.refused()
        client.discard = (0, 1, 2, 3, 4, 5)
        client.refused()
        self.assertEqual(lines, [
            "The server refused that discard: six cards of your hand, no king, no oudler, "
            "trumps only if you must. Choose again (your time starts again).",
            "The server refused that card: choose again."])

    def test_serverGone(self) -> None:
        """
        The server hanging up while we wait for the others (it stopped) is
        not our being too slow: only a question left unanswered can be.
        """
        problems: list[str | None] = []
        for question in (None, "card"):
            client = terminal.TerminalClient("alice", lambda line: None)
            client.makeConnection(StringTransport())
            client.question = question
            client.finished.addCallback(problems.append)
            client.connectionLost(Failure(ConnectionDone()))
        self.assertEqual(problems[0],
                         "the server closed the connection (Connection was closed cleanly.)")
        assert problems[1] is not None
        self.assertEqual(problems[1], "the server closed the connection while it waited for "
                         "your answer: too slow? (then a bot holds your seat: reconnect from "
                         "this machine with the same nick before the deal ends to take it "
                         "back) or the server stopped")

    async def test_wholeDeal(self) -> None:
        """
        Deals typed line by line against three server bots; an illegal
        discard and an illegal card are asked again, never sent.
        """
        port = self.startServer()
        person = Person("human")
        client = person.client
        await self.connect(port, client, client.finished)
        problem = await client.finished
        lines = person.lines

        self.assertIsNone(problem, lines[-5:])
        self.assertEqual(lines[:2], [
            f"Connected as human, place 1. Waiting for the table to fill: {WAIT}.",
            "At the table: human (you), bot2, bot3, bot4",
        ])
        self.assertEqual(lines[-3:], ["Another deal? [y/n]", "The table is over.",
                                      "Disconnected."])
        deals = client.deals
        self.assertEqual(lines.count("Another deal? [y/n]"), deals)
        self.assertEqual(len([line for line in lines if line.startswith("Totals: ")]), deals)

        # The first hand shown is the first hand dealt, grouped by suit.
        start = lines.index("Deal 1, your hand:")
        shown = terminal.handLines(client.hands[0])
        self.assertEqual(lines[start + 1:start + 1 + len(shown)], shown)
        self.assertEqual(sum(len(line.split()) - 1 for line in shown), 18)

        # The person took (the seed sees to it) and typed one illegal discard.
        assert person.badDiscard is not None and person.goodDiscard is not None, lines
        self.assertEqual([m.cards for m in client.sentOf(wire.GetChien)],
                         [tuple(person.goodDiscard)])
        self.assertIn(" ".join(map(str, person.badDiscard)), person.typed)
        self.assertEqual(len([line for line in lines if line.startswith("Your discard:")]), 2)
        self.assertEqual(client.discard, tuple(person.goodDiscard))

        # One illegal card typed, asked again, never sent; every card sent was legal.
        assert person.illegalCard is not None
        self.assertTrue(any(line.endswith("cannot be played now.")
                            or line.startswith("You do not hold card") for line in lines))
        cards = [m.card for m in client.sentOf(wire.GetTurnCard)]
        self.assertEqual(len(cards), 18 * len([s for s in lines if s.startswith("Score: ")
                                               and "not played" not in s]))
        self.assertEqual(len(cards),
                         len([line for line in lines if line.startswith("You play ")]))
        self.assertEqual(client.refusals, 0)
        self.assertEqual(client.sentOf(wire.AckReplay)[-1], wire.AckReplay(0))
        # The bids, the tricks and the score were shown.
        self.assertTrue(any(line.startswith("Final bids: ") for line in lines))
        tricks = [line for line in lines if re.match(r"Trick \d+: ", line)]
        self.assertEqual(len(tricks), len(cards))
        self.assertTrue(all(re.search(r"-> (you|bot[234])$", t) for t in tricks), tricks)
        self.assertTrue(lines[-4].startswith("Totals: you "), lines[-5:])

    async def test_nothingToAnswer(self) -> None:
        """A line typed while nothing is asked, then q: the person leaves, a bot plays on."""
        port = self.startServer()
        lines: list[str] = []

        def out(line: str) -> None:
            lines.append(line)
            if line.startswith("At the table: "):
                client.feed("hello")  # the deal has not even started
            elif line.startswith("Your bid ("):
                reactor.callLater(0, client.feed, "q")

        client = RecordingTerminal("idle", out)
        await self.connect(port, client, client.finished)
        self.assertIsNone(await client.finished)
        self.assertEqual(lines[2], "Nothing to answer now: wait (or q to quit).")
        self.assertEqual(lines[-1], "Disconnected.")
        self.assertEqual(client.sentOf(wire.GetBid), [])

    async def test_terminalScript(self) -> None:
        """``tarot_terminal.py`` over a stdin pipe, answering its prompts until the deal ends."""
        port = self.startServer()
        state: dict[str, str] = {}

        def answer(process: Process, line: str) -> None:
            if line.startswith("Playable: "):
                state["card"] = line.split()[1].split("=")[0]
            elif line.startswith("Suggested: "):
                state["discard"] = line.split(":", 1)[1].strip()
            elif line.startswith("Your bid ("):
                if "bid" not in state:
                    state["bid"] = "typed"
                    process.write("x")  # asked again
                else:
                    process.write("0")
            elif line.startswith("Your discard:"):
                process.write(state["discard"])
            elif line.startswith("Your card"):
                process.write(state["card"])
            elif line.startswith("Another deal?"):
                process.write("n")

        process = self.spawnExample("tarot_terminal", "--port", str(port), "--nick", "typist",
                                    onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines[-5:])
        self.assertEqual(lines[:2], [
            f"Connected as typist, place 1. Waiting for the table to fill: {WAIT}.",
            "At the table: typist (you), bot2, bot3, bot4",
        ])
        self.assertIn("'x' is not a bid you may make now.", lines)
        self.assertEqual(len([line for line in lines if line.startswith("Score: ")]), 1)
        self.assertEqual(lines[-3:], ["Another deal? [y/n]", "The table is over.",
                                      "Disconnected."])

    async def test_terminalScriptEndOfInput(self) -> None:
        """The end of input (Ctrl-D) at a question leaves the table, exit 0."""
        port = self.startServer()

        def answer(process: Process, line: str) -> None:
            if line.startswith("Your bid ("):
                process.transport.closeStdin()  # type: ignore[union-attr]

        process = self.spawnExample("tarot_terminal", "--port", str(port), onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines[-5:])
        self.assertEqual(lines[0], "Connected with the default nick, place 1. "
                                   f"Waiting for the table to fill: {WAIT}.")
        self.assertTrue(lines[-2].startswith("Your bid ("), lines[-2:])
        self.assertEqual(lines[-1], "Disconnected.")

    async def test_terminalScriptInterrupted(self) -> None:
        """Ctrl-C (SIGINT) at a question leaves the table: no word of the server hanging up."""
        port = self.startServer()

        def answer(process: Process, line: str) -> None:
            if line.startswith("Your bid ("):
                process.transport.signalProcess("INT")  # type: ignore[union-attr]

        process = self.spawnExample("tarot_terminal", "--port", str(port), onLine=answer)
        code = await process.ended
        lines = process.lines()
        self.assertEqual((code, process.err), (0, b""), lines[-5:])
        self.assertTrue(lines[-2].startswith("Your bid ("), lines[-2:])
        self.assertEqual(lines[-1], "Disconnected.")

    async def test_terminalScriptRefused(self) -> None:
        """The refused message, then exit 1."""
        listening = self.listenLocal(Factory.forProtocol(Refuser))
        process = self.spawnExample("tarot_terminal", "--port", str(listening))
        code = await process.ended
        self.assertEqual(code, 1)
        self.assertEqual(process.lines(), [
            "Refused: the server refused our GET_ID.", "Disconnected."])
        self.assertEqual(process.err.strip(), b"tarot_terminal: the connection is closed: "
                         b"the server refused our GET_ID")


class DiscardCheckTests(SynchronousTestCase):
    """The terminal's own check of a discard, before it is sent."""

    @given(takerHands())
    def test_problemExactlyWhenTheRulesRefuse(self, case: tuple[list[int], list[int]]) -> None:
        hand, discard = case
        problem = terminal.discardProblem(hand, discard)
        self.assertEqual(problem is None, isLegalDiscard(hand, discard), problem)


class HelpTests(SynchronousTestCase):
    """Both examples' --help say when the server's bots come."""

    def test_help(self) -> None:
        self.assertEqual(bot.BOTS_COME, terminal.BOTS_COME)
        for example in (bot, terminal):
            out = io.StringIO()
            with redirect_stdout(out):
                error = self.assertRaises(SystemExit, example.parseArguments, ["--help"])
            self.assertEqual(error.code, 0)
            text = " ".join(out.getvalue().split())
            self.assertIn("--maitretarot-bots-after seconds (a server option, 30 by default)",
                          text)
