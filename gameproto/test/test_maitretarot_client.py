"""
The MaîtreTarot client machine on a recording core: it follows the whole
sequence itself, deciding after each message where it goes from the message
and the data of its state (the branch point, the places that have bid, the
cards played, the discard or card awaiting its ACK).
"""

from __future__ import annotations

from typing import Any

from twisted.trial.unittest import SynchronousTestCase

from gameproto.machines import stateName
from gameproto.maitretarot import wire
from gameproto.maitretarot.machine import ClientMachine

from .test_connect4_machine import RecordingCore

Step = tuple[str, tuple[Any, ...]]

NO = wire.NO_BID
IDENTIFY: list[Step] = [
    ("start", ()),
    ("idReceived", (wire.SendId(wire.SERVER_ID, wire.VERSION),)),
    ("protocolReceived", (wire.SendProtocol(1),)),
    ("placeReceived", (wire.SendPlace(1),)),
    ("nickLengthsReceived", (wire.SendNickLen((1, 1, 1, 1)),)),
    ("nicksReceived", (wire.SendNicks((b"a", b"b", b"c", b"d")),)),
]
HAND = ("handReceived", (wire.DillCards(tuple(range(18))),))


def branch(point: int, value: int) -> list[Step]:
    return IDENTIFY + [("branchReceived", (wire.BranchPoint(point, value),))]


def bids(*bids: int) -> Step:
    return ("bidsReceived", (wire.SendBids(bids),))


def finalBids(*bids: int) -> Step:
    return ("finalBidsReceived", (wire.SendFinalBids(bids),))


def question(ask: int) -> Step:
    return ("bidQuestionReceived", (wire.AskBidQuestion(ask),))


def turnCards() -> Step:
    return ("turnCardsReceived", (wire.SendTurnCards((NO,) * 4, (NO,) * 4),))


def cardQuestion(ask: int) -> Step:
    return ("cardQuestionReceived", (wire.SendTurnCardsQuestion(ask),))


def playingFrom(played: int) -> list[Step]:
    """At SEND_TURN_CARDS with ``played`` cards played, through a resume."""
    return branch(wire.BP_SEND_TURN_CARD, played) + [HAND, finalBids(2, 0, 0, 0)]


END = [("lastTrickReceived", (wire.SendLastTurnCards((1, 2, 3, 4)),)),
       ("scoreReceived", (wire.SendScore(2, 1, 100, 2, (3, -1, -1, -1)),)),
       ("chienAtEndReceived", (wire.ShowChienAtEnd((1, 2, 3, 4, 5, 6)),))]

TRANSIT = {"afterHand", "afterBidQuestion", "afterFinalBids", "afterChien", "afterDiscardAck",
           "afterTurnCards", "afterCardQuestion", "afterCardChoice", "afterCardAck",
           "afterReplay"}
"""States the machine leaves at once, by its own branch input."""


class SeatCore(RecordingCore):
    """A recording core at seat 1."""

    seat = 1


class ClientMachineTests(SynchronousTestCase):
    def setUp(self) -> None:
        self.visited: set[str] = set()

    def feed(self, steps: list[Step]) -> tuple[Any, RecordingCore]:
        """Feed ``steps`` to a new machine; the calls of the last step stay on the core."""
        core = SeatCore()
        machine = ClientMachine(core)
        self.visited.add(stateName(machine))
        for name, args in steps:
            core.calls.clear()
            getattr(machine, name)(*args)
            state = stateName(machine)
            self.assertNotIn(state, TRANSIT, name)
            self.visited.add(state)
        return machine, core

    def assertAt(self, steps: list[Step], state: str, calls: list[Any] | None = None) -> Any:
        machine, core = self.feed(steps)
        self.assertEqual(stateName(machine), state)
        if calls is not None:
            self.assertEqual(core.calls, calls)
        return machine

    def test_identification(self) -> None:
        """GET_ID goes out at once; each identification message is read by its ``got*``."""
        self.assertAt(IDENTIFY[:1], "id", [("sendId", ())])
        names = ["gotId", "gotProtocol", "gotPlace", "gotNickLengths", "gotNicks"]
        states = ["protocol", "place", "nickLengths", "nicks", "branch"]
        for at, (name, state) in enumerate(zip(names, states), 2):
            self.assertAt(IDENTIFY[:at], state, [(name, IDENTIFY[at - 1][1])])

    def test_nicksExpected(self) -> None:
        """SEND_NICKS is read with the lengths SEND_NICK_LEN gave."""
        machine = self.assertAt(IDENTIFY[:5], "nicks")
        self.assertEqual(machine.expected(), wire.Expect(wire.SendNicks, lengths=(1, 1, 1, 1)))

    def test_branchPoints(self) -> None:
        """Each branch point of the document leads where the document says."""
        self.assertAt(branch(wire.BP_NEW_GAME, 0), "hand", [
            ("gotBranch", (wire.BranchPoint(wire.BP_NEW_GAME, 0),))])
        self.assertAt(branch(wire.BP_NEW_GAME, 0) + [HAND], "bidsOrScore", [("gotHand", HAND[1])])
        self.assertAt(branch(wire.BP_SEND_BIDS, 2) + [HAND], "bids")
        self.assertAt(branch(wire.BP_GET_CHIEN, 0) + [HAND], "finalBids")
        self.assertAt(branch(wire.BP_SEND_TURN_CARD, 9) + [HAND], "finalBids")
        self.assertAt(playingFrom(9), "turnCards")
        self.assertAt(playingFrom(9) + [turnCards()], "cardQuestion",
                      [("gotTurnCards", turnCards()[1] + (9,))])
        self.assertAt(branch(wire.BP_NEW_GAME, 1), "score")
        self.assertAt(branch(wire.BP_NEW_GAME, 2), "replayAnswer")

    def test_dealNotPlayed(self) -> None:
        """After DILL_CARDS of a new deal, a score instead of bids: the deal was void."""
        score = ("scoreReceived", (wire.SendScore(0, 0, 0, 0, (0, 0, 0, 0)),))
        self.assertAt(branch(0, 0) + [HAND, score], "chienAtEnd", [("gotScore", score[1])])

    def test_bidding(self) -> None:
        """Four questions: the rounds are counted from SEND_BIDS, a question asks or not."""
        start = branch(0, 0) + [HAND]
        self.assertAt(start + [bids(NO, NO, NO, NO)], "bidQuestion",
                      [("gotBids", bids(NO, NO, NO, NO)[1])])
        self.assertAt(start + [bids(NO, NO, NO, NO), question(0)], "bids",
                      [("gotBidQuestion", question(0)[1])])
        self.assertAt(start + [bids(0, NO, 1, 0), question(0)], "finalBids")
        self.assertAt(start + [bids(NO, NO, 0, NO), question(1)], "choosingBid", [
            ("gotBidQuestion", question(1)[1]), ("askBid", ())])
        self.assertAt(start + [bids(NO, NO, 0, NO), question(1), ("decided", (2,))], "bids",
                      [("sendBid", (2,))])
        self.assertAt(start + [bids(0, NO, 1, 0), question(1), ("decided", (2,))], "finalBids")
        resumed = branch(wire.BP_SEND_BIDS, 3) + [HAND, bids(0, 0, NO, 0), question(0)]
        self.assertAt(resumed, "finalBids")

    def test_contract(self) -> None:
        """The chien follows petite, garde and all passes; the taker discards."""
        start = branch(0, 0) + [HAND, bids(0, NO, 1, 0), question(0)]
        chien = ("chienReceived", (wire.ShowChien((1, 2, 3, 4, 5, 6)),))
        self.assertAt(start + [finalBids(0, 0, 0, 0)], "chien", [
            ("gotFinalBids", finalBids(0, 0, 0, 0)[1])])
        self.assertAt(start + [finalBids(0, 0, 0, 0), chien], "score",
                      [("gotChien", chien[1])])
        self.assertAt(start + [finalBids(0, 1, 0, 0), chien], "choosingDiscard", [
            ("gotChien", chien[1]), ("takeChien", ()), ("askDiscard", ())])
        self.assertAt(start + [finalBids(0, 0, 2, 0), chien], "turnCards")
        self.assertAt(start + [finalBids(0, 3, 0, 0)], "turnCards")
        self.assertAt(start + [finalBids(4, 0, 0, 0)], "turnCards")
        resumed = branch(wire.BP_GET_CHIEN, 0) + [HAND, finalBids(0, 2, 0, 0), chien]
        self.assertAt(resumed, "choosingDiscard")

    def test_discard(self) -> None:
        """The discard waits for its ACK: 0 asks again, 1 starts the play."""
        start = branch(wire.BP_GET_CHIEN, 0) + [HAND, finalBids(0, 1, 0, 0),
                                               ("chienReceived", (wire.ShowChien((0,) * 6),))]
        sent = start + [("decided", ([11, 12, 13, 14, 15, 16],))]
        self.assertAt(sent, "discardAck", [("sendDiscard", ((11, 12, 13, 14, 15, 16),))])
        refused = ("chienAckReceived", (wire.SendAckForChien(0),))
        accepted = ("chienAckReceived", (wire.SendAckForChien(1),))
        self.assertAt(sent + [refused], "choosingDiscard", [("refused", ()), ("askDiscard", ())])
        self.assertAt(sent + [accepted], "turnCards", [
            ("discarded", ((11, 12, 13, 14, 15, 16),))])
        self.assertAt(sent + [accepted, turnCards()], "cardQuestion",
                      [("gotTurnCards", turnCards()[1] + (0,))])

    def test_play(self) -> None:
        """72 steps: each question asks or not; a card waits for its ACK."""
        self.assertAt(playingFrom(5) + [turnCards(), cardQuestion(0), turnCards()],
                      "cardQuestion", [("gotTurnCards", turnCards()[1] + (6,))])
        self.assertAt(playingFrom(71) + [turnCards(), cardQuestion(0)], "lastTrick")
        mine = playingFrom(5) + [turnCards(), cardQuestion(1)]
        self.assertAt(mine, "choosingCard", [
            ("gotCardQuestion", cardQuestion(1)[1]), ("askCard", (5,))])
        self.assertAt(mine + [("decided", (7,))], "cardAck", [("sendCard", (7,))])
        refused = ("cardAckReceived", (wire.SendAckForCard(0),))
        accepted = ("cardAckReceived", (wire.SendAckForCard(1),))
        self.assertAt(mine + [("decided", (7,)), refused], "choosingCard", [
            ("refused", ()), ("askCard", (5,))])
        self.assertAt(mine + [("decided", (7,)), refused, ("decided", (8,)), accepted],
                      "turnCards", [("cardAccepted", (8,))])
        self.assertAt(mine + [("decided", (7,)), accepted, turnCards()], "cardQuestion",
                      [("gotTurnCards", turnCards()[1] + (6,))])
        last = playingFrom(71) + [turnCards(), cardQuestion(1), ("decided", (7,)), accepted]
        self.assertAt(last, "lastTrick")

    def test_end(self) -> None:
        """The last trick, the score, the chien; the replay question and its answer."""
        start = playingFrom(71) + [turnCards(), cardQuestion(0)]
        self.assertAt(start + END[:1], "score", [("gotLastTrick", END[0][1])])
        self.assertAt(start + END[:2], "chienAtEnd", [("gotScore", END[1][1])])
        self.assertAt(start + END, "choosingReplay", [
            ("gotChienAtEnd", END[2][1]), ("askReplay", ())])
        answered = start + END + [("decided", (True,))]
        self.assertAt(answered, "replayAnswer", [("sendReplay", (True,))])
        again = ("replayAnswerReceived", (wire.SendReplayAnswer(1),))
        over = ("replayAnswerReceived", (wire.SendReplayAnswer(0),))
        self.assertAt(answered + [again], "branch", [])
        self.assertAt(answered + [over], "closed", [
            ("tableEnded", ()), ("drop", ("the table is over",))])

    def resting(self) -> dict[str, list[Step]]:
        """A path to every state the machine rests in."""
        return {
            "idle": [], "id": IDENTIFY[:1], "protocol": IDENTIFY[:2], "place": IDENTIFY[:3],
            "nickLengths": IDENTIFY[:4], "nicks": IDENTIFY[:5], "branch": IDENTIFY,
            "hand": branch(0, 0), "bidsOrScore": branch(0, 0) + [HAND],
            "bids": branch(wire.BP_SEND_BIDS, 1) + [HAND],
            "bidQuestion": branch(0, 0) + [HAND, bids(NO, NO, NO, NO)],
            "choosingBid": branch(0, 0) + [HAND, bids(NO, NO, NO, NO), question(1)],
            "finalBids": branch(wire.BP_GET_CHIEN, 0) + [HAND],
            "chien": branch(wire.BP_GET_CHIEN, 0) + [HAND, finalBids(0, 1, 0, 0)],
            "choosingDiscard": branch(wire.BP_GET_CHIEN, 0) + [
                HAND, finalBids(0, 1, 0, 0), ("chienReceived", (wire.ShowChien((0,) * 6),))],
            "discardAck": branch(wire.BP_GET_CHIEN, 0) + [
                HAND, finalBids(0, 1, 0, 0), ("chienReceived", (wire.ShowChien((0,) * 6),)),
                ("decided", ((1, 2, 3, 4, 5, 6),))],
            "turnCards": playingFrom(3), "cardQuestion": playingFrom(3) + [turnCards()],
            "choosingCard": playingFrom(3) + [turnCards(), cardQuestion(1)],
            "cardAck": playingFrom(3) + [turnCards(), cardQuestion(1), ("decided", (5,))],
            "lastTrick": playingFrom(71) + [turnCards(), cardQuestion(0)],
            "score": branch(0, 1), "chienAtEnd": branch(0, 1) + END[1:2],
            "choosingReplay": branch(0, 1) + END[1:],
            "replayAnswer": branch(0, 2), "closed": [("abort", ("why",))],
        }

    def test_everyState(self) -> None:
        """Every state is a resting state reached above, or a branch left at once."""
        paths = self.resting()
        for state, path in paths.items():
            self.assertAt(path, state)
        automaton = ClientMachine.__automat_automaton__
        states = {old.name for old, _, _, _ in automaton.allTransitions()}
        self.assertEqual(states, set(paths) | TRANSIT)
        self.assertEqual(self.visited, set(paths))

    def test_silentStatesReadNothing(self) -> None:
        """A state reads one message, except where the client decides, before it starts, or closed."""
        for state, path in self.resting().items():
            machine, _ = self.feed(path)
            silent = state.startswith("choosing") or state in ("idle", "closed")
            self.assertEqual(machine.expected() is None, silent, state)

    def test_abortAndLossFromEveryState(self) -> None:
        """From every state, an abort closes (dropping once) and a loss is noted once."""
        for state, path in self.resting().items():
            machine, core = self.feed(path)
            core.calls.clear()
            machine.abort("why")
            self.assertEqual(stateName(machine), "closed", state)
            self.assertEqual(core.calls, [] if state == "closed" else [("drop", ("why",))], state)
            machine, core = self.feed(path)
            core.calls.clear()
            machine.connectionLost()
            self.assertEqual(stateName(machine), "closed", state)
            self.assertEqual(core.calls, [] if state == "closed" else [("lost", ())], state)

    def test_lateDecisionIgnored(self) -> None:
        """A hook answering after the connection closed changes nothing."""
        machine, core = self.feed(self.resting()["choosingCard"] + [("connectionLost", ())])
        core.calls.clear()
        machine.decided(3)
        self.assertEqual((stateName(machine), core.calls), ("closed", []))
