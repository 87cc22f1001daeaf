"""The FreeDoko codec: the real program's traffic, the document, round trips, totality."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.freedoko import names, wire
from gameproto.freedoko.wire import Card, Kind, Received, Time, Unknown
from gameproto.test.freedoko_real import TRANSCRIPTS


T = Time(1795419279, 326)


def read(data: bytes) -> list[Received]:
    return wire.Reader().feed(data)


def one(line: bytes) -> wire.Message | Unknown:
    received = read(line + b"\n")
    assert len(received) == 1, received
    return received[0].message


# -- strategies ----------------------------------------------------------------

players = st.integers(0, 3)
numbers = st.integers(0, wire.NUMBER_MAX)
times = st.builds(Time, st.integers(0, 10**12 - 1), st.integers(0, 999))
cards = st.builds(Card, st.sampled_from(names.COLORS), st.sampled_from(names.VALUES))
lineText = st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=["Cs"]),
                   max_size=40)
stripped = lineText.filter(lambda s: s == s.strip())
ruleNames = stripped.filter(lambda s: s != "" and "=" not in s and not s.startswith("#"))
comments = lineText.filter(lambda s: ")" not in s)


def reservations() -> st.SearchStrategy[wire.Reservation]:
    def build(player: int, gameType: str, selector: str, swines: bool, hyper: bool,
              offer: bool) -> wire.Reservation:
        return wire.Reservation(player, gameType, selector if gameType == "marriage" else None,
                                swines, hyper, offer)
    return st.builds(build, players, st.sampled_from(names.GAME_TYPES),
                     st.sampled_from(names.MARRIAGE_SELECTORS), st.booleans(), st.booleans(),
                     st.booleans())


def hands() -> st.SearchStrategy[wire.GameHand]:
    def build(player: int, cards: list[Card], repeated: bool) -> wire.GameHand:
        if len(cards) % 2:
            cards = cards[1:]
        return wire.GameHand(player, tuple(cards), repeated or not cards)
    return st.builds(build, players, st.lists(cards, max_size=13), st.booleans())


actions: st.SearchStrategy[wire.Action] = st.one_of(
    reservations(),
    st.builds(wire.CardPlayed, players, cards, st.none() | comments),
    st.builds(wire.Announcement, players, st.sampled_from(names.ANNOUNCEMENTS)),
    st.builds(wire.Marriage, players, players),
    st.builds(wire.Genscher, players, players),
    st.builds(wire.PovertyShift, players, st.lists(cards, max_size=6).map(tuple)),
    st.builds(wire.PovertyAccepted, players),
    st.builds(wire.PovertyReturned, players, st.lists(cards, max_size=6).map(tuple)),
    st.builds(wire.PovertyDenied, players),
    st.just(wire.PovertyDeniedByAll()),
    st.builds(wire.Swines, players),
    st.builds(wire.Hyperswines, players),
    st.just(wire.TrickOpen()),
    st.builds(wire.TrickFull, players, st.lists(cards, max_size=4).map(tuple),
              st.none() | players),
    st.just(wire.TrickTaken()),
    st.builds(wire.Check, st.none() | stripped.filter(bool)),
)

ruleEntries = st.one_of(
    st.builds(wire.RuleSetting, ruleNames, stripped, st.integers(0, 4)),
    st.builds(wire.RuleComment, lineText, st.integers(0, 4)),
)

messages: st.SearchStrategy[wire.Message] = st.one_of(
    st.just(wire.ServerHello()), st.just(wire.ConnectionRejected()), st.just(wire.Bye()),
    st.builds(wire.Ping, st.none() | numbers), st.builds(wire.Pong, st.none() | numbers),
    st.builds(wire.Name, lineText), st.builds(wire.Chat, lineText),
    st.builds(wire.Ask, lineText),
    st.builds(wire.Rules, st.lists(ruleEntries, max_size=12).map(tuple)),
    st.builds(wire.Rule, ruleNames, stripped),
    st.builds(wire.PlayerType, players, st.booleans()),
    st.builds(wire.PlayerName, players, stripped),
    st.builds(wire.PlayersSwitched, players, players),
    st.builds(wire.PartySeed, numbers), st.builds(wire.PartyStartplayer, players),
    st.just(wire.PartyStart()), st.builds(wire.PartyStartRound, numbers),
    st.just(wire.PartyFinish()),
    st.just(wire.GameOpen()), st.builds(wire.GameStartplayer, players),
    st.builds(wire.GameSeed, numbers), hands(), st.just(wire.GameStart()),
    st.just(wire.GameFinish()), st.just(wire.GameClose()),
    actions,
    st.builds(wire.SyncGameplayActions, st.lists(actions, max_size=8).map(tuple)),
)


def expected(message: wire.Message, time: Time) -> Received:
    kind = wire.kindOf(message)
    return Received(message, None if kind is Kind.SIMPLE else time, kind)


# -- the real program's traffic ----------------------------------------------------


def _streams(path: Path) -> dict[str, list[bytes]]:
    streams: dict[str, list[bytes]] = {}
    with path.open("rb") as f:
        for line in f:
            if line[:3] in (b"P> ", b"C> ", b"S> "):
                streams.setdefault(line[:1].decode(), []).append(line[3:])
    return streams


_STAMP = re.compile(rb"^(\*?)\d+\.\d+:", re.M)


class TranscriptTests(SynchronousTestCase):
    """Every line of the captured traffic reads as a known message and writes back the same."""

    def setUp(self) -> None:
        if not TRANSCRIPTS.is_dir():
            self.skipTest(f"no transcripts: {TRANSCRIPTS} is absent")

    def _check(self, name: str) -> None:
        for sender, lines in _streams(TRANSCRIPTS / name).items():
            data = b"".join(lines)
            received = read(data)
            unknown = [r for r in received if isinstance(r.message, Unknown)]
            self.assertEqual(unknown, [], f"{name} {sender}")
            written = b""
            for r in received:
                assert not isinstance(r.message, Unknown)
                written += wire.format(r.message, r.time)
            # the same bytes, but for the times of a block's later lines
            self.assertEqual(_STAMP.sub(rb"\1T:", written), _STAMP.sub(rb"\1T:", data),
                             f"{name} {sender}")
            # outside the blocks, every line is written back byte for byte, time included
            reader = wire.Reader()
            for line in lines:
                inBlock = reader.inBlock
                got = reader.feed(line)
                if inBlock or len(got) != 1:
                    continue
                message = got[0].message
                assert not isinstance(message, Unknown)
                if not isinstance(message, (wire.Rules, wire.SyncGameplayActions)):
                    self.assertEqual(wire.format(message, got[0].time), line)

    def test_realParentPythonChild(self) -> None:
        self._check("transcript_realParent_pyChild.log")

    def test_pythonParentRealChild(self) -> None:
        self._check("transcript_pyParent_realChild.log")

    def test_realParentRealChild(self) -> None:
        self._check("transcript_realParent_realChild_13games.log")

    def test_everyActionKindSeen(self) -> None:
        """The 13 games hold poverty, marriage, swines, announcements, thrown nines."""
        seen = set()
        for lines in _streams(TRANSCRIPTS / "transcript_realParent_realChild_13games.log").values():
            seen |= {type(r.message) for r in read(b"".join(lines))}
        for kind in (wire.Reservation, wire.CardPlayed, wire.Announcement, wire.Marriage,
                     wire.PovertyShift, wire.PovertyAccepted, wire.PovertyReturned,
                     wire.PovertyDenied, wire.PovertyDeniedByAll, wire.Swines, wire.TrickOpen,
                     wire.TrickFull, wire.TrickTaken, wire.Rules, wire.GameHand):
            self.assertIn(kind, seen)


# -- the lines, one by one -------------------------------------------------------------


class LineTests(SynchronousTestCase):
    def test_kinds(self) -> None:
        self.assertEqual(read(b"FreeDoko server\n"),
                         [Received(wire.ServerHello(), None, Kind.SIMPLE)])
        self.assertEqual(read(b"*1795419279.326: pong: 7\n"),
                         [Received(wire.Pong(7), T, Kind.SPECIAL)])
        self.assertEqual(read(b"1795419279.326: name: FDHost\n"),
                         [Received(wire.Name("FDHost"), T, Kind.NORMAL)])

    def test_time(self) -> None:
        """Milliseconds are not zero-padded: 17 ms is ``.17``; ``-`` is read, never written."""
        self.assertEqual(str(Time(1795419280, 17)), "1795419280.17")
        self.assertEqual(wire.format(wire.GameStart(), Time(1795419280, 7)),
                         b"1795419280.7: game: start\n")
        self.assertEqual(read(b"-: game: start\n"), [Received(wire.GameStart(), None)])
        self.assertEqual(read(b"*-: ping\n"), [Received(wire.Ping(), None, Kind.SPECIAL)])
        self.assertEqual(Time.now(lambda: 1795419280.0179), Time(1795419280, 17))
        self.assertEqual(str(Time.now(lambda: 5.999)), "5.999")

    def test_documentExamples(self) -> None:
        self.assertEqual(read(b"*12345.67: ping: 10\n"),
                         [Received(wire.Ping(10), Time(12345, 67), Kind.SPECIAL)])
        self.assertEqual(one(b"12345.67: Name: Diether"), wire.Name("Diether"))
        self.assertEqual(one(b"1.1: rule: with nines = false"), wire.Rule("with nines", "false"))
        self.assertEqual(one(b"1.1: party: seed: 3"), wire.PartySeed(3))
        self.assertEqual(one(b"1.1: party: startplayer: 0"), wire.PartyStartplayer(0))

    def test_documentSpellings(self) -> None:
        """The document's spellings are read; FreeDoko's are written."""
        self.assertEqual(one(b"1.1: players switch: 1 3"), wire.PlayersSwitched(1, 3))
        self.assertEqual(one(b"1.1: players switched: 1 3"), wire.PlayersSwitched(1, 3))
        self.assertEqual(wire.format(wire.PlayersSwitched(1, 3), T),
                         b"1795419279.326: players switched: 1 3\n")
        self.assertEqual(one(b"1.1: party start"), wire.PartyStart())
        self.assertEqual(one(b"1.1: party start round: 2"), wire.PartyStartRound(2))
        self.assertEqual(one(b"1.1: party finish"), wire.PartyFinish())
        self.assertEqual(wire.format(wire.PartyStartRound(2), T),
                         b"1795419279.326: party: start round: 2\n")
        self.assertEqual(one(b"1.1: game: close"), wire.GameClose())

    def test_simple(self) -> None:
        self.assertEqual(one(b"connection rejected"), wire.ConnectionRejected())
        self.assertEqual(one(b"bye"), wire.Bye())
        self.assertEqual(one(b"ping"), wire.Ping())
        self.assertEqual(wire.format(wire.ConnectionRejected()), b"connection rejected\n")
        self.assertEqual(wire.format(wire.Ping(), T), b"*1795419279.326: ping\n")
        self.assertEqual(wire.format(wire.Pong(7), T), b"*1795419279.326: pong: 7\n")

    def test_crlf(self) -> None:
        """A CR before the LF is dropped (the real program would keep it in the line)."""
        self.assertEqual(read(b"ping\r\n1.1: name: Bob\r\n"),
                         [Received(wire.Ping(), None, Kind.SIMPLE),
                          Received(wire.Name("Bob"), Time(1, 1))])

    def test_emptyLines(self) -> None:
        self.assertEqual(read(b"\n\r\n\n1.1: game: open\n"),
                         [Received(wire.GameOpen(), Time(1, 1))])

    def test_blanksAfterTheTime(self) -> None:
        self.assertEqual(one(b"1.1:game: open"), wire.GameOpen())
        self.assertEqual(one(b"1.1:    game: open"), wire.GameOpen())
        self.assertEqual(one(b"1.1: chat:  two spaces"), wire.Chat(" two spaces"))

    def test_handshakeLines(self) -> None:
        self.assertEqual(one(b"1.1: player 2: type = local"), wire.PlayerType(2, True))
        self.assertEqual(one(b"1.1: player 0: type = network"), wire.PlayerType(0, False))
        self.assertEqual(one(b"1.1: player 0: name = Mara"), wire.PlayerName(0, "Mara"))
        self.assertEqual(one(b"1.1: ask: rules"), wire.Ask("rules"))
        self.assertEqual(one(b"1.1: chat: bye from parent"), wire.Chat("bye from parent"))
        self.assertEqual(one(b"1.1: rule: number of rounds = 20"),
                         wire.Rule("number of rounds", "20"))
        self.assertEqual(wire.format(wire.Rule("with nines", "0"), T),
                         b"1795419279.326: rule: with nines = 0\n")

    def test_hand(self) -> None:
        """The real program writes the first card twice: 13 entries for 12 cards."""
        line = (b"1795419279.328: game: hand 0: club ten, club ten, diamond ten, spade king, "
                b"club jack, spade queen, spade ace, diamond queen, spade nine, diamond jack, "
                b"diamond jack, club ten, diamond nine")
        hand = one(line)
        assert isinstance(hand, wire.GameHand)
        self.assertEqual(len(hand.cards), 12)
        self.assertTrue(hand.repeated)
        self.assertEqual(hand.cards[:2], (Card("club", "ten"), Card("diamond", "ten")))
        self.assertEqual(wire.format(hand, Time(1795419279, 328)), line + b"\n")
        # twelve entries (a corrected sender): read as they are
        twelve = one(b"1.1: game: hand 1: " + b", ".join([b"club ace"] * 2 + [b"heart nine"] * 10))
        assert isinstance(twelve, wire.GameHand)
        self.assertEqual((len(twelve.cards), twelve.repeated), (12, False))
        self.assertEqual(wire.format(wire.GameHand(3, (Card("club", "ace"),) * 2, False), T),
                         b"1795419279.326: game: hand 3: club ace, club ace\n")

    def test_actions(self) -> None:
        cases: dict[bytes, wire.Action] = {
            b"reservation = 2, normal": wire.Reservation(2, "normal"),
            b"reservation = 1, marriage, first foreign, swines":
                wire.Reservation(1, "marriage", "first foreign", swines=True),
            b"reservation = 0, solo king-queen, swines, hyperswines":
                wire.Reservation(0, "solo king-queen", swines=True, hyperswines=True),
            b"reservation = 1, thrown nines": wire.Reservation(1, "thrown nines"),
            b"card played = 0, spade ace (choose ace)":
                wire.CardPlayed(0, Card("spade", "ace"), "choose ace"),
            b"card played = 3, club nine (poverty: contra: overjab re)":
                wire.CardPlayed(3, Card("club", "nine"), "poverty: contra: overjab re"),
            b"card played = 2, spade ace": wire.CardPlayed(2, Card("spade", "ace")),
            b"announcement = 0, no 120": wire.Announcement(0, "no 120"),
            b"announcement = 3, no 60 reply": wire.Announcement(3, "no 60 reply"),
            b"marriage = 3, 2": wire.Marriage(3, 2),
            b"genscher = 1, 0": wire.Genscher(1, 0),
            b"poverty shift = 2, heart queen, diamond king, diamond nine":
                wire.PovertyShift(2, (Card("heart", "queen"), Card("diamond", "king"),
                                      Card("diamond", "nine"))),
            b"poverty accepted = 2": wire.PovertyAccepted(2),
            b"poverty returned = 0, club ace, spade king, spade king":
                wire.PovertyReturned(0, (Card("club", "ace"), Card("spade", "king"),
                                         Card("spade", "king"))),
            b"poverty denied = 3": wire.PovertyDenied(3),
            b"poverty denied by all": wire.PovertyDeniedByAll(),
            b"swines = 1": wire.Swines(1),
            b"hyperswines = 0": wire.Hyperswines(0),
            b"trick open": wire.TrickOpen(),
            b"trick full = 0, spade ace, spade king, spade ace, spade ten, 0":
                wire.TrickFull(0, (Card("spade", "ace"), Card("spade", "king"),
                                   Card("spade", "ace"), Card("spade", "ten")), 0),
            b"trick taken": wire.TrickTaken(),
            b"check": wire.Check(),
        }
        for text, action in cases.items():
            line = b"1795419279.326: gameplay action: " + text
            self.assertEqual(one(line), action, text)
            self.assertEqual(wire.format(action, T), line + b"\n", text)

    def test_unknown(self) -> None:
        """FreeDoko exits on unknown names: the codec reads them as Unknown instead."""
        for line in [
            b"1.1: gameplay action: reservation = 0, solo nothing",
            b"1.1: gameplay action: reservation = 0, marriage",
            b"1.1: gameplay action: reservation = 0, normal, swine",
            b"1.1: gameplay action: announcement = 0, re",
            b"1.1: gameplay action: card played = 0, spade eleven",
            b"1.1: gameplay action: card played = 4, spade ace",
            b"1.1: gameplay action: trick full = 0, spade ace, 1, 2",
            b"1.1: gameplay action: trick open = 3",
            b"1.1: gameplay action: dance = 1",
            b"1.1: player 4: type = local", b"1.1: player 1: type = remote",
            b"1.1: party: seed: x", b"1.1: party: seed: 99999999999",
            b"1.1: game: hand 0: club ten, joker", b"1.1: hello", b"1.1: {",
            b"1.1: ", b"1.1:", b"x1.1: name: a", b"1: name: a", b"1.: name: a",
            b"*1.1: name: a", b"*1.1: ping: x", b"hello", b"1.1: sync: everything",
            b"1.1: players switched: 1", b"\xff\xfe",
        ]:
            self.assertIsInstance(one(line), Unknown, line)

    def test_unknownKeepsTheLine(self) -> None:
        got = one(b"1.1: hello there")
        assert isinstance(got, Unknown)
        self.assertEqual(got.line, b"1.1: hello there")
        self.assertIsInstance(got, wire.Malformed)


class BlockTests(SynchronousTestCase):
    def test_rules(self) -> None:
        data = (b"1.1: rules\n1.1: {\n1.1: with nines = true\n1.1:   number of rounds = 1\n"
                b"1.1: # Extrapoints:\n1.2: counting = plus\n1.2: }\n")
        rules = wire.Rules((wire.RuleSetting("with nines", "true"),
                            wire.RuleSetting("number of rounds", "1", 2),
                            wire.RuleComment(" Extrapoints:"),
                            wire.RuleSetting("counting", "plus")))
        self.assertEqual(read(data), [Received(rules, Time(1, 1))])
        self.assertEqual(wire.format(rules, Time(1, 1)), data.replace(b"1.2", b"1.1"))
        self.assertEqual(rules.settings(), {"with nines": "true", "number of rounds": "1",
                                            "counting": "plus"})
        self.assertEqual(wire.Rules.fromSettings({"a": "1"}),
                         wire.Rules((wire.RuleSetting("a", "1"),)))

    def test_interleaved(self) -> None:
        """Simple and special lines inside a block are messages of their own."""
        data = b"1.1: rules\n1.1: {\n*1.1: ping: 3\n1.1: solo = false\nbye\n1.1: }\n"
        self.assertEqual([r.message for r in read(data)], [
            wire.Ping(3), wire.Bye(), wire.Rules((wire.RuleSetting("solo", "false"),))])

    def test_badLineInBlock(self) -> None:
        data = b"1.1: rules\n1.1: {\n1.1: nonsense\n1.1: solo = false\n1.1: }\n"
        got = [r.message for r in read(data)]
        self.assertIsInstance(got[0], Unknown)
        self.assertEqual(got[1:], [wire.Rules((wire.RuleSetting("solo", "false"),))])

    def test_sync(self) -> None:
        data = (b"1.1: sync: gameplay actions\n1.1: {\n1.1: reservation = 0, normal\n"
                b"1.1: card played = 0, club ace (network)\n1.1: trick open\n1.1: }\n")
        sync = wire.SyncGameplayActions((wire.Reservation(0, "normal"),
                                         wire.CardPlayed(0, Card("club", "ace"), "network"),
                                         wire.TrickOpen()))
        self.assertEqual(read(data), [Received(sync, Time(1, 1))])
        self.assertEqual(wire.format(sync, Time(1, 1)), data)

    def test_blockTooLong(self) -> None:
        reader = wire.Reader()
        got = reader.feed(b"1.1: rules\n1.1: {\n" + b"1.1: a = b\n" * (wire.BLOCK_LIMIT + 5))
        self.assertEqual(got[0].message, Unknown("block too long", b"1.1: a = b"))
        # the block ("{" is one of its lines) is dropped; its last 5 lines are unknown lines
        self.assertEqual(len(got), 6)
        self.assertTrue(all(isinstance(r.message, Unknown) for r in got))
        self.assertFalse(reader.inBlock)
        self.assertEqual([r.message for r in reader.feed(b"1.1: game: open\n")], [wire.GameOpen()])

    def test_lineTooLong(self) -> None:
        reader = wire.Reader()
        got = reader.feed(b"1.1: chat: " + b"x" * (wire.LINE_LIMIT + 10))
        self.assertEqual(len(got), 1)
        self.assertIsInstance(got[0].message, Unknown)
        self.assertEqual(reader.feed(b"yyy\n1.1: game: open\n"),
                         [Received(wire.GameOpen(), Time(1, 1))])
        self.assertLessEqual(reader.buffered, wire.LINE_LIMIT)

    def test_parseLine(self) -> None:
        self.assertEqual(wire.parseLine(b"1.1: rules"), wire.BlockStart(wire.Rules))
        self.assertEqual(wire.parseLine(b"1.1: game: open"), Received(wire.GameOpen(), Time(1, 1)))


class PropertyTests(SynchronousTestCase):
    @given(messages, times)
    @settings(max_examples=400)
    def test_roundTrip(self, message: wire.Message, time: Time) -> None:
        """Every message reads back as itself, with its time and kind."""
        self.assertEqual(read(wire.format(message, time)), [expected(message, time)])

    @given(st.lists(st.tuples(messages, times), max_size=8), st.data())
    def test_roundTripChunked(self, sent: list[tuple[wire.Message, Time]],
                              data: st.DataObject) -> None:
        """A stream of messages cut anywhere reads back as the same messages."""
        stream = b"".join(wire.format(m, t) for m, t in sent)
        cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
        reader = wire.Reader()
        got = []
        for a, b in zip([0] + cuts, cuts + [len(stream)]):
            got += reader.feed(stream[a:b])
        self.assertEqual(got, [expected(m, t) for m, t in sent])

    @given(actions)
    def test_actionText(self, action: wire.Action) -> None:
        self.assertEqual(wire.parseAction(wire.formatAction(action)), action)

    @given(st.binary(max_size=300))
    @settings(max_examples=400)
    def test_totalOnBytes(self, data: bytes) -> None:
        for line in data.split(b"\n"):
            result = wire.parseLine(line)
            self.assertIsInstance(result, (Received, wire.BlockStart))
        for received in read(data):
            self.assertIsInstance(received, Received)

    @given(st.lists(st.sampled_from([
        b"1.1: ", b"*", b"-: ", b"rules", b"{", b"}", b"\n", b"\r", b":", b" = ", b", ",
        b"sync: gameplay actions", b"gameplay action: ", b"card played = 1", b"club ace",
        b"(", b")", b"#", b"player 1: ", b"name", b"game: hand 0: ", b"ping", b"\xff", b"7",
    ]), max_size=40), st.data())
    def test_totalChunked(self, parts: list[bytes], data: st.DataObject) -> None:
        """Any bytes, cut anywhere: the same values as fed whole; never an exception."""
        stream = b"".join(parts)
        whole = read(stream)
        cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
        reader = wire.Reader()
        got = []
        for a, b in zip([0] + cuts, cuts + [len(stream)]):
            got += reader.feed(stream[a:b])
        self.assertEqual(got, whole)


class NamesTests(SynchronousTestCase):
    def test_lists(self) -> None:
        """FreeDoko's spellings (src/basistypes.cpp, src/card/)."""
        self.assertEqual(len(names.GAME_TYPES), 23)
        self.assertIn("solo queen-jack", names.GAME_TYPES)
        self.assertIn("solo koehler", names.GAME_TYPES)
        self.assertEqual(len(names.ANNOUNCEMENTS), 12)
        self.assertEqual(len(names.MARRIAGE_SELECTORS), 8)
        self.assertEqual(set(names.SOLI) | set(names.THROWN) | {"normal", "poverty", "genscher",
                                                               "marriage", "marriage silent"},
                         set(names.GAME_TYPES))
        self.assertEqual(sum(names.POINTS.values()) * 8, 240)

    def test_cardValidation(self) -> None:
        self.assertRaises(ValueError, Card, "joker", "ace")
        self.assertRaises(ValueError, wire.Reservation, 0, "marriage")
        self.assertRaises(ValueError, wire.Reservation, 0, "normal", "silent")
        self.assertEqual(wire.parseCard(" club  queen "), Card("club", "queen"))
        self.assertIsNone(wire.parseCard("club"))


usualLines = st.one_of(
    st.builds(lambda p, c: f"gameplay action: card played = {p}, {c}".encode(), players, cards),
    st.sampled_from([b"gameplay action: trick taken", b"gameplay action: trick open"]),
)
"""What follows the time in a child's usual lines (read at once by the reader)."""


class FastPathTests(SynchronousTestCase):
    """The codec's shortcuts give what the plain way gives."""

    @given(messages, times)
    @settings(max_examples=400)
    def test_formatAsPlain(self, message: wire.Message, time: Time) -> None:
        """Every message is written as the plain way writes it."""
        self.assertEqual(wire.format(message, time), wire._formatPlain(message, time))

    @given(messages, st.floats(0, 2e9))
    def test_formatNowAsPlain(self, message: wire.Message, now: float) -> None:
        """Stamped now: the stamp is L{Time.now}'s (kept for its millisecond)."""
        self.patch(wire, "_time", type("Clock", (), {"time": staticmethod(lambda: now)}))
        for _ in range(2):
            self.assertEqual(wire.format(message),
                             wire._formatPlain(message, Time.now(lambda: now)))

    @given(st.lists(st.one_of(
        st.tuples(st.sampled_from([b"", b"*", b"-", b"1.", b"x", b"12345678901234.5"]) | times.map(
            lambda t: str(t).encode()), st.sampled_from([b": ", b":", b":  ", b" : "]), usualLines,
            st.sampled_from([b"", b"\r", b" ", b"x"])).map(b"".join),
        st.sampled_from([b"1.1: rules", b"1.1: {", b"1.1: }", b"1.1: sync: gameplay actions",
                         b"1.1: gameplay action: trick taken", b"*1.1: ping", b"1.1: a = b"]),
        st.tuples(times, messages).map(lambda tm: wire.format(tm[1], tm[0])[:-1]),
    ), max_size=20))
    @settings(max_examples=300)
    def test_readAsPlain(self, lines: list[bytes]) -> None:
        """Any lines, usual ones among them, in blocks or not: read as the plain way reads them."""
        stream = b"\n".join(lines) + b"\n"
        fast = wire.Reader().feed(stream)
        self.patch(wire, "_USUAL_LINES", {})
        self.assertEqual(fast, wire.Reader().feed(stream))

    def test_usualLinesAtOnce(self) -> None:
        """A card played and a trick taken are read without their parts."""
        def plain(line: bytes) -> object:
            raise AssertionError(f"read part by part: {line!r}")
        self.patch(wire, "_frame", plain)
        self.assertEqual(read(b"1795419279.326: gameplay action: card played = 2, club queen\n"
                              b"1795419279.327: gameplay action: trick taken\n"),
                         [Received(wire.CardPlayed(2, Card("club", "queen")),
                                   Time(1795419279, 326)),
                          Received(wire.TrickTaken(), Time(1795419279, 327))])
