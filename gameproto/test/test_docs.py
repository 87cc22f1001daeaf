"""
The protocol pages of C{docs/protocols} against the code: every byte
example, sample session and sample value of a page reads with gameproto's
own codecs, as the page says it does; MaîtreTarot's table gives every
message's gint count.

A page's examples are in ```` ```wire ```` blocks: ``C→S`` (a client's
message) or ``S→C`` (the server's) lines, comment lines starting with
``#``, and ``...`` lines for what a session leaves out (FreeDoko's lines go ``P→C``, parent
to child, or ``C→P``).  What a line holds after its direction depends on
the protocol: the message's name and its
bytes in hex, then ``=`` and its values (Protuissance 4, MaîtreTarot, whose
long messages go on over indented lines); the line itself, or its bytes in
hex then ``=`` and the line (Carcassonne); one JSON message (the engine
JSON protocol); the line as it crossed (FreeDoko).
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator, cast

from twisted.trial.unittest import SynchronousTestCase

from gameproto.buffer import NeedMore
from gameproto.carcassonne import wire as carcassonne
from gameproto.connect4 import wire as connect4
from gameproto.engine import contract
from gameproto.freedoko import wire as freedoko
from gameproto.games import tarot as tarotRules
from gameproto.enginejson import wire as enginejson
from gameproto.maitretarot import wire as tarot
from gameproto.test import sourceTree

CLIENT, SERVER = "C→S", "S→C"


def page(case: SynchronousTestCase, name: str) -> str:
    """The text of ``docs/protocols/NAME``, or skip the test without a source tree."""
    tree = sourceTree()
    path = tree / "docs" / "protocols" / name if tree is not None else None
    if path is None or not path.is_file():
        raise case.skipTest(f"no docs/protocols/{name} here")
    return path.read_text(encoding="utf-8")


def wireBlocks(text: str) -> list[str]:
    """The ```` ```wire ```` blocks of a page."""
    return re.findall(r"^```wire\n(.*?)^```", text, re.M | re.S)


def wireLines(block: str, directions: tuple[str, str] = (CLIENT, SERVER)
              ) -> Iterator[tuple[str, str]]:
    """
    Each message of a block: its direction (one of ``directions``) and its
    text, continuation lines (indented) joined to it; comments and ``...``
    lines left out.
    """
    current: list[str] | None = None
    direction = ""
    for line in block.splitlines():
        if not line.strip() or line.startswith(("#", "...")):
            continue
        if line[:1].isspace():
            assert current is not None, f"a continuation line with no message: {line!r}"
            current.append(line.strip())
            continue
        if current is not None:
            yield direction, " ".join(current)
        direction, _, rest = line.partition(" ")
        assert direction in directions, f"not a message line: {line!r}"
        current = [rest]
    if current is not None:
        yield direction, " ".join(current)


_HEX = re.compile(r"[0-9a-f]{2}\Z")
_VALUE = re.compile(r'"([^"]*)"|(-?\d+)')


def named(text: str) -> tuple[str, bytes, list[Any] | None]:
    """``NAME hex... [= values]``: the name, the bytes, the values (None: none given)."""
    body, equals, values = text.partition(" = ")
    name, *tokens = body.split()
    assert all(_HEX.match(t) for t in tokens), f"not hex bytes: {body!r}"
    data = bytes.fromhex("".join(tokens))
    if not equals:
        return name, data, None
    return name, data, [q if i == "" else int(i) for q, i in _VALUE.findall(values)]


# -- Protuissance 4 ---------------------------------------------------------------


_C4_NAMES = {connect4.Connect: "CONNECT", connect4.Init: "INIT",
             connect4.GameStart: "GAME_START", connect4.PlayMove: "PLAY_MOVE",
             connect4.GameEnd: "GAME_END", connect4.JoinQueue: "JOIN_QUEUE"}
_C4_ERRORS = {connect4.ERR_INVALID_NICK: "ERR_INVALID_NICK",
              connect4.ERR_ALREADY_USED_NICK: "ERR_ALREADY_USED_NICK",
              connect4.ERR_INVALID_COLUMN: "ERR_INVALID_COLUMN",
              connect4.ERR_TIMEOUT: "ERR_TIMEOUT"}


def c4Values(message: connect4.Message) -> list[Any]:
    match message:
        case connect4.Connect(nick):
            return [nick.decode("ascii", "replace")]
        case connect4.Init(width, height):
            return [width, height]
        case connect4.GameStart(first, second):
            return [first, second]
        case connect4.PlayMove(column):
            return [column]
        case connect4.GameEnd(winner):
            return [] if winner is None else [winner]
    return []


class Connect4PageTests(SynchronousTestCase):
    """docs/protocols/connect4.md: every byte example is the message it names."""

    def test_examples(self) -> None:
        blocks = wireBlocks(page(self, "connect4.md"))
        self.assertGreaterEqual(len(blocks), 2)
        seen = set()
        for block in blocks:
            for direction, text in wireLines(block):
                name, data, values = named(text)
                expected = (connect4.CLIENT_MESSAGES if direction == CLIENT
                            else connect4.SERVER_MESSAGES)
                message = connect4.parseOne(data, expected)
                self.assertFalse(isinstance(message, connect4.Malformed), text)
                assert not isinstance(message, connect4.Malformed)
                kind = (_C4_ERRORS[message.code] if isinstance(message, connect4.Error)
                        else _C4_NAMES[type(message)])
                self.assertEqual(kind, name, text)
                self.assertEqual(connect4.serialize(message), data, text)
                self.assertEqual(values or [], c4Values(message), text)
                seen.add(name)
        self.assertEqual(seen, {*_C4_NAMES.values(), *_C4_ERRORS.values()})

    def test_lengths(self) -> None:
        """The table's fixed lengths are those of the messages."""
        text = page(self, "connect4.md")
        fixed: dict[str, connect4.Message] = {
                 "INIT": connect4.Init(7, 6), "PLAY_MOVE": connect4.PlayMove(0),
                 "JOIN_QUEUE": connect4.JoinQueue(), "ERR_INVALID_NICK": connect4.Error(7),
                 "ERR_ALREADY_USED_NICK": connect4.Error(8),
                 "ERR_INVALID_COLUMN": connect4.Error(9), "ERR_TIMEOUT": connect4.Error(10)}
        for name, message in fixed.items():
            row = re.search(rf"^\| {name} \|[^|]*\| (\d+) \|", text, re.M)
            assert row is not None, name
            self.assertEqual(int(row.group(1)), len(connect4.serialize(message)), name)


# -- MaîtreTarot -------------------------------------------------------------------


def tarotKinds() -> dict[str, type]:
    """Every message class of the codec, by its name in the protocol (GET_ID...)."""
    kinds: dict[str, type] = {}
    for value in vars(tarot).values():
        if isinstance(value, type) and (issubclass(value, tarot.GintMessage)
                                        or value in (tarot.GetNick, tarot.SendNicks)):
            if value is tarot.GintMessage:
                continue
            name = re.sub(r"(?<!^)(?=[A-Z])", "_", value.__name__).upper()
            kinds["BRANCHEMENT_POINT" if value is tarot.BranchPoint else name] = value
    return kinds


class MaitreTarotPageTests(SynchronousTestCase):
    """docs/protocols/maitretarot.md: the message table and the whole session."""

    def test_table(self) -> None:
        """Every message of the codec has a row, with its gint count."""
        text = page(self, "maitretarot.md")
        for name, kind in tarotKinds().items():
            row = re.search(rf"^\| {name} \| [^|]+ \| ([^|]+) \|", text, re.M)
            self.assertIsNotNone(row, f"{name} has no row")
            assert row is not None
            if issubclass(kind, tarot.GintMessage):
                count = kind.gintCount()
                self.assertEqual(row.group(1).strip(),
                                 f"{count} gint" + ("s" if count != 1 else ""), name)
        self.assertIn("| READY_TO_PLAY | none | 0 gints |", text)

    def test_session(self) -> None:
        """Each message of the session reads as its name says, its values as written."""
        blocks = wireBlocks(page(self, "maitretarot.md"))
        self.assertTrue(blocks)
        kinds = tarotKinds()
        seen = set()
        for block in blocks:
            lengths: tuple[int, ...] = ()
            previous = ""
            for direction, text in wireLines(block):
                name, data, values = named(text)
                kind = kinds[name]
                expect = tarot.Expect(kind, length=lengths[0] if lengths else 0,
                                      lengths=lengths)
                if previous == "DILL_CARDS":
                    expect = tarot.Expect(tarot.BidsOrScore)
                parsed = tarot.parse(data, expect)
                self.assertNotEqual(parsed, tarot.NEED_MORE, text)
                assert not isinstance(parsed, NeedMore)
                message, used = parsed
                self.assertIsInstance(message, kind, text)
                self.assertEqual(used, len(data), text)
                self.assertEqual(tarot.serialize(message), data, text)
                if isinstance(message, tarot.GetNick):
                    read: list[Any] = [message.nick.decode("utf-8")]
                elif isinstance(message, tarot.SendNicks):
                    read = [n.decode("utf-8") for n in message.nicks]
                else:
                    read = message.values()  # type: ignore[union-attr]
                if values is not None:
                    self.assertEqual(values, read, text)
                if isinstance(message, tarot.GetNickLen):
                    lengths = (message.length,)
                elif isinstance(message, tarot.SendNickLen):
                    lengths = message.lengths
                sent = isinstance(message, (tarot.GetId, tarot.GetProtocol, tarot.GetNickLen,
                                            tarot.GetNick, tarot.GetBid, tarot.GetChien,
                                            tarot.GetTurnCard, tarot.AckReplay))
                self.assertEqual(direction, CLIENT if sent else SERVER, text)
                previous = name
                seen.add(name)
        self.assertEqual(seen, set(kinds))


def signed(cell: str) -> int:
    """A number written with a sign, the minus sign (−) included."""
    return int(cell.replace("−", "-"))


def tableRows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the table whose header line starts with ``header``."""
    start = text.index("\n" + header) + 1
    lines = text[start:].split("\n\n", 1)[0].splitlines()[2:]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]


class MaitreTarotRulesTests(SynchronousTestCase):
    """docs/protocols/maitretarot.md's *The rules*: what the Tarot rules of gameproto do."""

    def section(self) -> str:
        text = page(self, "maitretarot.md")
        return text.split("\n## The rules\n", 1)[1].split("\n## ", 1)[0]

    def cards(self, words: str) -> list[int]:
        """Cards written as the page writes them (``7♥``, ``T8``, ``Exc``)."""
        faces = {tarotRules.cardFace(card): card for card in tarotRules.DECK}
        return [faces[word] for word in words.split() if word != "(none)"]

    def test_cardPoints(self) -> None:
        """The value of each kind of card, and of the deck."""
        section = self.section()
        self.assertIn("an oudler or a king 4.5, a queen 3.5, a knight 2.5, a jack 1.5,\n"
                      "  any other card 0.5: 91 in all", section)
        value = {words: tarotRules.cardPoints(self.cards(words)[0]) / 2
                 for words in ("Exc", "T1", "T21", "K♠", "Q♠", "Kn♠", "J♠", "10♠", "T20")}
        self.assertEqual(value, {"Exc": 4.5, "T1": 4.5, "T21": 4.5, "K♠": 4.5, "Q♠": 3.5,
                                 "Kn♠": 2.5, "J♠": 1.5, "10♠": 0.5, "T20": 0.5})
        self.assertEqual(tarotRules.countPoints(tarotRules.DECK), 2 * 91)

    def test_contracts(self) -> None:
        """Each bid's contract and multiplier."""
        rows = tableRows(self.section(), "| bid | contract | multiplier |")
        self.assertEqual(len(rows), 4)
        for bid, named, multiplier, _ in rows:
            self.assertTrue(named.startswith(tarotRules.BID_NAMES[int(bid)]), named)
            self.assertEqual(int(multiplier), tarotRules.MULTIPLIERS[int(bid)])

    def test_thresholds(self) -> None:
        rows = tableRows(self.section(), "| oudlers | points needed |")
        self.assertEqual([(int(o), int(p)) for o, p in rows],
                         list(enumerate(tarotRules.THRESHOLDS)))

    def test_cardPlay(self) -> None:
        """Each example's cards are exactly those the rules let be played."""
        rows = tableRows(self.section(), "| trick so far | hand | may be played |")
        self.assertGreaterEqual(len(rows), 10)
        for trick, hand, allowed, _ in rows:
            self.assertEqual(sorted(tarotRules.legalCards(self.cards(hand), self.cards(trick))),
                             sorted(self.cards(allowed)), (trick, hand))

    def test_scores(self) -> None:
        """Each example's value and scores are what a deal so played scores."""
        rows = tableRows(self.section(), "| contract | oudlers | points |")
        self.assertGreaterEqual(len(rows), 4)
        prime = {"nobody": None, "the taker": True, "the defence": False}
        for named, oudlers, points, petit, value, taker, defender in rows:
            bid = max(b for b, name in enumerate(tarotRules.BID_NAMES) if named.startswith(name))
            won, scores = tarotRules.dealScores(bid, 0, 2 * int(points), int(oudlers),
                                                prime[petit])
            self.assertEqual((signed(taker), signed(defender)), (scores[0], scores[1]), named)
            self.assertTrue(value.startswith("won" if won else "lost"), value)
            self.assertEqual(signed(value.rsplit("= ", 1)[1]), -scores[1], value)


# -- Carcassonne -------------------------------------------------------------------


class CarcassonnePageTests(SynchronousTestCase):
    """docs/protocols/carcassonne.md: every line of its examples is a message."""

    def test_examples(self) -> None:
        blocks = wireBlocks(page(self, "carcassonne.md"))
        self.assertGreaterEqual(len(blocks), 2)
        seen = set()
        for block in blocks:
            for direction, text in wireLines(block):
                body, equals, line = text.partition(" = ")
                if equals and all(_HEX.match(t) for t in body.split()):
                    data = bytes.fromhex(body.replace(" ", ""))
                    self.assertTrue(data.endswith(b"\n"), text)
                    data = data[:-1]
                else:
                    line, data = text, text.encode("utf-8")
                message = carcassonne.parse(data.removesuffix(b"\r"))
                self.assertFalse(isinstance(message, carcassonne.Malformed), text)
                assert not isinstance(message, carcassonne.Malformed)
                self.assertEqual(carcassonne.format(message), line.encode("utf-8") + b"\n", text)
                seen.add((direction, type(message).__name__))
        for kind in ("Hello", "HelloAck", "Ready", "Move", "MoveAck", "Close"):
            self.assertIn((CLIENT, kind), seen)
        for kind in ("HelloNack", "Hello", "Start", "Token", "Move", "MoveAck", "Finish",
                     "Close"):
            self.assertIn((SERVER, kind), seen)


class CarcassonneTilesTests(SynchronousTestCase):
    """docs/protocols/carcassonne.md's tile table is the rules engine's tiles."""

    def test_tiles(self) -> None:
        from gameproto.games.carcassonne import TILE_WORDS, TILES

        text = page(self, "carcassonne.md")
        rows = re.findall(r"^\| `(tile-[a-x])` \| (\d+) \| `([CRF]{4})` \| ([^|]*) \| ([^|]*) \|$",
                          text, re.M)
        self.assertEqual([row[0] for row in rows], list(TILES))
        for name, count, edges, features, words in rows:
            tile = TILES[name]
            self.assertEqual((int(count), edges, words), (tile.count, tile.edges, TILE_WORDS[name]),
                             name)
            described = sorted(
                (kind.removesuffix(" with shield"), kind.endswith(" with shield"),
                 frozenset(zones.split()))
                for kind, zones in (part.split(": ") for part in features.split("; ")))
            self.assertEqual(described, sorted((f.kind, f.shield, f.zones)
                                               for f in tile.features), name)


# -- The engine JSON protocol ------------------------------------------------------


class EngineJsonPageTests(SynchronousTestCase):
    """docs/protocols/enginejson.md: the sample session and the sample values."""

    def test_session(self) -> None:
        blocks = wireBlocks(page(self, "enginejson.md"))
        self.assertTrue(blocks)
        for block in blocks:
            for direction, text in wireLines(block):
                if direction == CLIENT:
                    message: object = enginejson.parse(text)
                else:
                    message = enginejson.parseServer(text)
                    self.assertFalse(isinstance(message, enginejson.Unknown), text)
                self.assertFalse(isinstance(message, enginejson.Malformed), text)
                if isinstance(message, enginejson.Instructions):
                    for request in message.requested_actions:
                        contract.requestedActionFromJSON(request)
                    for display in message.displays:
                        contract.displayFromJSON(display)
                if isinstance(message, enginejson.Errors):
                    for error in message.errors:
                        self.assertFalse(isinstance(contract.errorFromJSON(error), contract.OtherError),
                                     text)

    def section(self) -> str:
        text = page(self, "enginejson.md")
        return text.split("### What instructions carry", 1)[1].split("\n### ", 1)[0]

    def test_samples(self) -> None:
        """
        Each JSON sample reads as what it shows; each requested action's
        answer, the first action after it, is accepted by the check every
        engine uses.
        """
        section = self.section()
        pieces = re.split(r"^```json\n(.*?)^```\n", section, flags=re.M | re.S)
        kinds = set()
        for index in range(1, len(pieces), 2):
            data = json.loads(pieces[index])
            after = pieces[index + 1] if index + 1 < len(pieces) else ""
            if "errors" in data or "game_state" in data:
                kinds.add("instructions")
                result = contract.instructionsFromJSON(data)
                if isinstance(result, contract.Errors):
                    for error in result.errors:
                        self.assertFalse(isinstance(error, contract.OtherError), error)
            elif "content" in data:
                kinds.add("display")
                contract.displayFromJSON(data)
            elif data.get("type") in ("CLICK", "KEY", "TEXT"):
                kinds.add(data["type"])
                request = contract.requestedActionFromJSON(data)
                self.assertEqual(request.asJSON(), {"confirm": False, **data}
                                 if data["type"] != "TEXT" else data)
                answer = re.search(r"`(\{\"type\": \"(?:CLICK|KEY|TEXT)\".*?\})`", after)
                assert answer is not None, f"no answer after {data}"
                action = json.loads(answer.group(1))
                area = contract.Zone(0, 0, 640, 480)
                self.assertIs(contract.checkAction(request.player, action, [request], area),
                              request, action)
                if request.prompt is not None:
                    kinds.add("prompt")
                    self.assertIn(f'"{request.prompt}"', after)
                if request.pick is not None:
                    kinds.add("pick")
                    self.assertEqual(action["text"], self.picked(request.pick, after))
            elif "scores" in data:
                kinds.add("game_state")
                self.assertIsInstance(data["gameover"], bool)
            else:
                self.fail(f"a sample of nothing known: {data}")
        self.assertEqual(kinds, {"instructions", "display", "CLICK", "KEY", "TEXT",
                                 "game_state", "prompt", "pick"})

    def picked(self, pick: contract.Pick, words: str) -> str:
        """
        The text a person makes with ``pick`` by clicking the zones that the
        words after the sample name ("the fourth card, then the second"), in
        that order: each click at a zone's centre, checked to land in it alone.
        """
        ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
        named = re.search(r"clicks the (\w+) card, then the (\w+)", words)
        assert named is not None, words
        chosen: list[int] = []
        for ordinal in named.groups():
            zone = pick.zones[ordinals.index(ordinal)]
            x, y = zone.x + zone.width / 2, zone.y + zone.height / 2
            (index,) = [i for i, z in enumerate(pick.zones)
                        if z.x <= x < z.x + z.width and z.y <= y < z.y + z.height]
            if index in chosen:  # a second click unpicks
                chosen.remove(index)
            else:
                chosen.append(index)
        self.assertEqual(len(chosen), pick.count)
        return pick.separator.join(pick.values[i] for i in sorted(chosen))


# -- FreeDoko -------------------------------------------------------------------------


PARENT, CHILD = "P→C", "C→P"
_PARENT_ONLY = (freedoko.ServerHello, freedoko.ConnectionRejected, freedoko.Rules,
                freedoko.Rule, freedoko.PlayersSwitched, freedoko.PartySeed,
                freedoko.PartyStartplayer, freedoko.PartyStart, freedoko.PartyStartRound,
                freedoko.PartyFinish, freedoko.GameOpen, freedoko.GameStartplayer,
                freedoko.GameSeed, freedoko.GameHand, freedoko.GameStart, freedoko.GameFinish)
"""What only a parent sends."""
_TIME = "1795419279.326"
"""The time the page's examples write ``T``."""


def camel(words: str) -> str:
    """``party start round`` as the codec's class name, ``PartyStartRound``."""
    return "".join(word.capitalize() for word in words.split())


class FreeDokoPageTests(SynchronousTestCase):
    """docs/protocols/freedoko.md: its examples and its whole session, read with the codec."""

    def session(self) -> list[tuple[str, freedoko.Received, bytes]]:
        """Every message of the session: its direction, as read, and its (last) line."""
        [block] = wireBlocks(page(self, "freedoko.md"))
        readers = {PARENT: freedoko.Reader(), CHILD: freedoko.Reader()}
        messages = []
        for direction, text in wireLines(block, (PARENT, CHILD)):
            line = text.encode("utf-8") + b"\n"
            for received in readers[direction].feed(line):
                messages.append((direction, received, line))
        for reader in readers.values():
            self.assertFalse(reader.inBlock or reader.buffered)
        return messages

    def test_session(self) -> None:
        """
        Every line reads as a message, with nothing unknown, each written
        back byte for byte (the rules block aside: lines are left out of
        it); what only a parent sends comes only from the parent.
        """
        messages = self.session()
        self.assertGreater(len(messages), 150)
        kinds = set()
        for direction, received, line in messages:
            message = received.message
            self.assertFalse(isinstance(message, freedoko.Unknown), line)
            assert not isinstance(message, freedoko.Unknown)
            if not isinstance(message, freedoko.Rules):
                self.assertEqual(freedoko.format(message, received.time), line)
            if isinstance(message, _PARENT_ONLY):
                self.assertEqual(direction, PARENT, line)
            kinds.add(type(message))
        self.assertGreaterEqual(kinds, {
            freedoko.ServerHello, freedoko.Name, freedoko.Rules, freedoko.PlayerType,
            freedoko.PlayerName, freedoko.PartySeed, freedoko.PartyStartplayer,
            freedoko.PartyStart, freedoko.PartyStartRound, freedoko.GameOpen,
            freedoko.GameStartplayer, freedoko.GameSeed, freedoko.GameHand,
            freedoko.Reservation, freedoko.GameStart, freedoko.TrickOpen, freedoko.CardPlayed,
            freedoko.Announcement, freedoko.Marriage, freedoko.TrickFull, freedoko.TrickTaken,
            freedoko.GameFinish, freedoko.PartyFinish})
        # The child's seat: the parent's only `local` player.
        local = [m.player for d, r, _ in messages for m in [r.message]
                 if d == PARENT and isinstance(m, freedoko.PlayerType) and m.local]
        self.assertEqual(local, [0])

    def test_firstGame(self) -> None:
        """
        The first game, shown whole, played again by the rules engine from
        the party's seed and rules: the child's hand is the one it deals,
        and it takes every reservation, card and announcement the parent
        sent and makes the same marriage and tricks.
        """
        from gameproto.engine.contract import Instructions
        from gameproto.freedoko.server import engineAction
        from gameproto.games.doppelkopf import DOPPELKOPF

        sent = [r.message for d, r, _ in self.session() if d == PARENT]
        [rules] = [m for m in sent if isinstance(m, freedoko.Rules)]
        [seed] = [m.seed for m in sent if isinstance(m, freedoko.PartySeed)]
        [first] = [m.player for m in sent if isinstance(m, freedoko.PartyStartplayer)]
        text = "".join(f"{name} = {value}\n" for name, value in rules.settings().items())
        party = DOPPELKOPF.start({"players": 4, "startplayer": first, "rules": text},
                                 {"seed": seed})
        assert not isinstance(party, contract.Errors)
        events = list(party.instructions().events)
        opened = sent.index(freedoko.GameOpen())
        game = sent[opened:sent.index(freedoko.GameFinish(), opened) + 1]
        [hand] = [m for m in game if isinstance(m, freedoko.GameHand)]
        self.assertTrue(hand.repeated)
        [dealt] = [e.data for e in events if e.kind == "hand" and e.seat == hand.player]
        self.assertEqual(sorted(str(c) for c in hand.cards), sorted(cast(list[str], dealt)))
        told: list[tuple[Any, ...]] = []
        for message in game:
            if isinstance(message, (freedoko.Reservation, freedoko.CardPlayed,
                                    freedoko.Announcement)):
                outcome = party.act(message.player, engineAction(message))
                self.assertIsInstance(outcome, Instructions, message)
                assert isinstance(outcome, Instructions)
                events += outcome.events
            elif isinstance(message, freedoko.Marriage):
                told.append(("marriage", message.player, message.bride))
            elif isinstance(message, freedoko.TrickFull):
                told.append(("trick", message.start, [str(c) for c in message.cards],
                             message.winner))
        made: list[tuple[Any, ...]] = []
        for event in events:
            data = cast(dict[str, Any], event.data)
            if event.kind == "marriage":
                made.append(("marriage", data["seat"], data["partner"]))
            elif event.kind == "trick":
                made.append(("trick", data["leader"], data["cards"], data["winner"]))
        self.assertEqual(len([t for t in told if t[0] == "trick"]), 12)
        self.assertEqual(told, made)
        self.assertIn("game over", [e.kind for e in events])

    def messageExamples(self) -> Iterator[tuple[str, str]]:
        """Each example line of the message tables, ``T`` made a time: (message name, line)."""
        text = page(self, "freedoko.md")
        section = text.split("\n## Messages\n", 1)[1].split("\n## ", 1)[0]
        before, actions = section.split("\n### Gameplay actions\n", 1)
        section = before + actions[actions.index("\n### "):]  # actions: test_actionExamples
        for name, line in re.findall(r"^\| ([a-z ]+) \| ([^|]*`[^|]*) \|", section, re.M):
            for example in re.findall(r"`([^`]+)`", line):
                if "<" not in example and "…" not in example and example not in ("T: {", "T: }"):
                    yield name, re.sub(r"^(\*?)T:", rf"\g<1>{_TIME}:", example)

    def test_messageExamples(self) -> None:
        """Each example of the message tables reads as the message its row names."""
        seen = set()
        for name, line in self.messageExamples():
            if name in ("rules", "sync"):  # blocks: see the session
                continue
            received = freedoko.parseLine(line.encode("utf-8"))
            assert isinstance(received, freedoko.Received), line
            self.assertEqual(type(received.message).__name__, camel(name), line)
            seen.add(name)
        self.assertGreaterEqual(len(seen), 20)

    def test_actionExamples(self) -> None:
        """Each example of the gameplay actions' table reads as the action its row names."""
        text = page(self, "freedoko.md")
        section = text.split("### Gameplay actions\n", 1)[1].split("\n### ", 1)[0]
        name = ""
        seen = set()
        for row, example in re.findall(r"^\| ([a-z ]*) \| `([^`]+)`", section, re.M):
            name = row or name
            action = freedoko.parseAction(example)
            self.assertFalse(isinstance(action, freedoko.Unknown), example)
            self.assertEqual(type(action).__name__, camel(name), example)
            seen.add(name)
        keywords = re.search(r"\*\*Action keywords\*\*: (.*?)\.\n", text, re.S)
        assert keywords is not None
        listed = re.sub(r"\s+", " ", keywords.group(1))
        self.assertEqual(seen, set(re.findall(r"`([a-z ]+)`", listed)))


# -- README --------------------------------------------------------------------------


class ReadmeTests(SynchronousTestCase):
    """What README.md tells a person who starts the server."""

    def readme(self) -> str:
        tree = sourceTree()
        if tree is None or not (tree / "README.md").is_file():
            raise self.skipTest("no README.md here")
        return (tree / "README.md").read_text(encoding="utf-8")

    def test_loopback(self) -> None:
        """The loopback command parses, and binds every protocol of gameproto to 127.0.0.1."""
        from gameproto import tap

        text = self.readme()
        self.assertIn("every interface", text)
        match = re.search(r"^twistd -n gameproto --ports (\S*interface=127\.0\.0\.1\S*)$",
                          text, re.M)
        assert match is not None
        options = tap.Options()
        options.parseOptions(["--db", ":memory:", "--ports", match.group(1)])
        bound = tap.parsePorts(match.group(1), options["ports"])
        self.assertTrue({"web", "connect4", "maitretarot", "carcassonne", "engine"}
                        <= set(bound))
        for description in bound.values():
            self.assertTrue(description.endswith(":interface=127.0.0.1"), description)

    def test_clock(self) -> None:
        """The Protuissance 4 clock and the Tarot bots are told where terminals are."""
        text = self.readme()
        self.assertIn("**3 seconds**", text)
        self.assertIn("--connect4-timeout 30", text)
        self.assertIn("`--maitretarot-bots-after` seconds", text)
        # the terminal's prompt counts the server's clock down only when told it
        self.assertIn("connect4_terminal.py --nick alice --timeout 30", text)

    def test_terminals(self) -> None:
        """The four terminal clients, each with its own options, and how bots come."""
        text = self.readme()
        tree = sourceTree()
        assert tree is not None
        for command in ("connect4_terminal.py --nick alice", "tarot_terminal.py --nick alice",
                        "carcassonne_terminal.py --name alice",
                        "freedoko_terminal.py --name alice"):
            self.assertIn(f"PYTHONPATH=. python examples/{command}\n", text)
            script = command.split()[0]
            option = command.split()[1]
            self.assertIn(f'"{option}"', (tree / "examples" / script).read_text(encoding="utf-8"))
        for option in ("--maitretarot-bots-after", "--carcassonne-bots-after",
                       "--freedoko-bots-after"):
            self.assertIn(f"`{option}`", text)
