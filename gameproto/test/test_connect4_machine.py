"""
Every transition of the Protuissance 4 machines, against a core that records
what it is asked to do.  A transition added to a machine without a row here
fails L{test_everyTransitionListed}.
"""

from __future__ import annotations

from typing import Any, Callable

from automat import NoTransition
from twisted.trial.unittest import SynchronousTestCase

from gameproto.connect4 import wire
from gameproto.connect4.machine import ClientMachine, ServerMachine, stateName

Call = tuple[str, tuple[Any, ...]]


class RecordingCore:
    """Records every effect asked of it, and does nothing."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("__"):
            raise AttributeError(name)

        def record(*args: Any) -> None:
            self.calls.append((name, args))

        return record


# The inputs of each machine with sample arguments.
SERVER_INPUTS: dict[str, tuple[Any, ...]] = {
    "connect": (b"alice",), "nickTooLong": (), "nickAccepted": ("alice",), "nickRefused": (7,),
    "matched": (), "yourTurn": (), "playMove": (3,), "moveAccepted": (),
    "moveRefused": (), "opponentMoved": (4,), "gameEnded": (1,), "joinQueue": (),
    "timedOut": (), "connectionLost": (),
}

# How to reach each state from the start.
SERVER_PATHS: dict[str, list[str]] = {
    "connecting": [],
    "checking": ["connect"],
    "queued": ["connect", "nickAccepted"],
    "theirTurn": ["connect", "nickAccepted", "matched"],
    "myTurn": ["connect", "nickAccepted", "matched", "yourTurn"],
    "resend": ["connect", "nickAccepted", "matched", "yourTurn", "playMove", "moveRefused"],
    "judgingResend": ["connect", "nickAccepted", "matched", "yourTurn", "playMove",
                      "moveRefused", "playMove"],
    "choosing": ["connect", "nickAccepted", "matched", "gameEnded"],
    "closed": ["connectionLost"],
}

TIMEOUT = ("send", (wire.Error(wire.ERR_TIMEOUT),))
COLUMN = ("send", (wire.Error(wire.ERR_INVALID_COLUMN),))
LOST = ("closed", [("stopTimer", ()), ("cleanUp", ())])
END = ("choosing", [("announceEnd", (1,)), ("startChoiceTimer", ())])


def unexpected(what: str) -> tuple[str, list[Call]]:
    return ("closed", [("resign", ()), ("drop", (f"unexpected {what}",))])


MOVE_UNEXPECTED = ("closed", [COLUMN, ("resign", ()), ("drop", ("unexpected PLAY_MOVE",))])
"""A PLAY_MOVE out of sequence: ERR_INVALID_COLUMN, the game lost, the close."""


SERVER_TABLE: dict[tuple[str, str], tuple[str, list[Call]]] = {
    ("connecting", "connect"): ("checking", [("checkNick", (b"alice",))]),
    ("connecting", "nickTooLong"): ("closed", [
        ("send", (wire.Error(wire.ERR_INVALID_NICK),)),
        ("drop", ("CONNECT longer than 256 bytes",))]),
    ("connecting", "timedOut"): ("closed", [TIMEOUT, ("drop", ("no CONNECT in time",))]),
    ("connecting", "joinQueue"): unexpected("JOIN_QUEUE"),
    ("connecting", "playMove"): MOVE_UNEXPECTED,
    ("connecting", "connectionLost"): LOST,

    ("checking", "nickAccepted"): ("queued", [("stopTimer", ()), ("sendInit", ()),
                                              ("enterQueue", ())]),
    ("checking", "nickRefused"): ("connecting", [("send", (wire.Error(7),))]),
    ("checking", "connect"): unexpected("CONNECT"),
    ("checking", "joinQueue"): unexpected("JOIN_QUEUE"),
    ("checking", "playMove"): MOVE_UNEXPECTED,
    ("checking", "timedOut"): ("checking", []),
    ("checking", "connectionLost"): LOST,

    ("queued", "joinQueue"): ("queued", []),
    ("queued", "matched"): ("theirTurn", [("sendGameStart", ())]),
    ("queued", "connect"): unexpected("CONNECT"),
    ("queued", "playMove"): MOVE_UNEXPECTED,
    ("queued", "timedOut"): ("queued", []),
    ("queued", "connectionLost"): LOST,

    ("theirTurn", "yourTurn"): ("myTurn", []),
    ("theirTurn", "opponentMoved"): ("myTurn", [("send", (wire.PlayMove(4),))]),
    ("theirTurn", "gameEnded"): END,
    ("theirTurn", "moveRefused"): ("resend", [COLUMN, ("allowResend", ())]),
    ("theirTurn", "connect"): unexpected("CONNECT"),
    ("theirTurn", "joinQueue"): unexpected("JOIN_QUEUE"),
    ("theirTurn", "playMove"): MOVE_UNEXPECTED,
    ("theirTurn", "timedOut"): ("theirTurn", []),
    ("theirTurn", "connectionLost"): LOST,

    ("myTurn", "playMove"): ("theirTurn", [("submitMove", (3,))]),
    ("myTurn", "yourTurn"): ("myTurn", []),
    ("myTurn", "timedOut"): ("closed", [TIMEOUT, ("resign", ()), ("drop", ("no move in time",))]),
    ("myTurn", "gameEnded"): END,
    ("myTurn", "connect"): unexpected("CONNECT"),
    ("myTurn", "joinQueue"): unexpected("JOIN_QUEUE"),
    ("myTurn", "connectionLost"): LOST,


    ("resend", "playMove"): ("judgingResend", [("resubmitMove", (3,))]),
    ("resend", "yourTurn"): ("resend", []),
    ("resend", "timedOut"): ("closed", [TIMEOUT, ("resign", ()), ("drop", ("no move in time",))]),
    ("resend", "gameEnded"): END,
    ("resend", "connect"): unexpected("CONNECT"),
    ("resend", "joinQueue"): unexpected("JOIN_QUEUE"),
    ("resend", "connectionLost"): LOST,

    ("judgingResend", "moveAccepted"): ("theirTurn", []),
    ("judgingResend", "moveRefused"): ("closed", [
        COLUMN, ("resign", ()), ("drop", ("second invalid column on one turn",))]),
    ("judgingResend", "gameEnded"): END,
    ("judgingResend", "connect"): unexpected("CONNECT"),
    ("judgingResend", "joinQueue"): unexpected("JOIN_QUEUE"),
    ("judgingResend", "playMove"): MOVE_UNEXPECTED,
    ("judgingResend", "timedOut"): ("judgingResend", []),
    ("judgingResend", "connectionLost"): LOST,

    ("choosing", "joinQueue"): ("queued", [("stopTimer", ()), ("enterQueue", ())]),
    ("choosing", "playMove"): ("choosing", []),
    ("choosing", "moveAccepted"): ("choosing", []),
    ("choosing", "timedOut"): ("closed", [
        TIMEOUT, ("drop", ("no JOIN_QUEUE in time after GAME_END",))]),
    ("choosing", "connect"): unexpected("CONNECT"),
    ("choosing", "connectionLost"): LOST,
}
SERVER_TABLE.update({(state, "nickTooLong"): unexpected("CONNECT") for state in SERVER_PATHS
                     if state not in ("connecting", "closed")})
SERVER_TABLE.update({("closed", name): ("closed", []) for name in SERVER_INPUTS})


CLIENT_INPUTS: dict[str, tuple[Any, ...]] = {
    "expected": (), "connect": ("alice",), "initReceived": (7, 6), "nickRefused": (8,),
    "gameStarted": ("alice", "bob"), "yourTurn": (), "moveChosen": (2,),
    "moveRefused": (), "opponentMoved": (5,), "gameEnded": (None,), "playAgain": (),
    "leave": (), "timedOut": (), "unexpected": ("odd",), "connectionLost": (),
}

CLIENT_PATHS: dict[str, list[str]] = {
    "idle": [],
    "connecting": ["connect"],
    "refused": ["connect", "nickRefused"],
    "queued": ["connect", "initReceived"],
    "theirTurn": ["connect", "initReceived", "gameStarted"],
    "myTurn": ["connect", "initReceived", "gameStarted", "yourTurn"],
    "retry": ["connect", "initReceived", "gameStarted", "yourTurn", "moveChosen",
              "moveRefused"],
    "retrySent": ["connect", "initReceived", "gameStarted", "yourTurn", "moveChosen",
                  "moveRefused", "moveChosen"],
    "ended": ["connect", "initReceived", "gameStarted", "gameEnded"],
    "closed": ["leave"],
}

CLIENT_EXPECTED = {
    "idle": frozenset(), "connecting": {wire.Init, wire.Error}, "refused": {wire.Error},
    "queued": {wire.GameStart, wire.Error},
    "theirTurn": {wire.PlayMove, wire.GameEnd, wire.Error},
    "myTurn": {wire.PlayMove, wire.GameEnd, wire.Error},
    "retry": {wire.PlayMove, wire.GameEnd, wire.Error},
    "retrySent": {wire.PlayMove, wire.GameEnd, wire.Error},
    "ended": {wire.Error}, "closed": frozenset(),
}

CLIENT_TABLE: dict[tuple[str, str], tuple[str, list[Call]]] = {
    ("idle", "connect"): ("connecting", [("send", (wire.Connect(b"alice"),))]),
    ("refused", "connect"): ("connecting", [("send", (wire.Connect(b"alice"),))]),
    ("connecting", "initReceived"): ("queued", [("initialised", (7, 6))]),
    ("connecting", "nickRefused"): ("refused", [("refused", (8,))]),
    ("queued", "gameStarted"): ("theirTurn", [("startGame", ("alice", "bob"))]),
    ("theirTurn", "yourTurn"): ("myTurn", [("askMove", ())]),
    ("myTurn", "moveChosen"): ("theirTurn", [("playOwnMove", (2,))]),
    ("theirTurn", "moveRefused"): ("retry", [("takeBack", ()), ("askMove", ())]),
    ("retry", "moveChosen"): ("retrySent", [("playOwnMove", (2,))]),
    ("retrySent", "moveRefused"): ("closed", [
        ("takeBack", ()), ("drop", ("second invalid column on one turn",))]),
    ("theirTurn", "opponentMoved"): ("theirTurn", [("playOpponentMove", (5,))]),
    ("retrySent", "opponentMoved"): ("theirTurn", [("playOpponentMove", (5,))]),
    ("theirTurn", "gameEnded"): ("ended", [("endGame", (None,))]),
    ("myTurn", "gameEnded"): ("ended", [("endGame", (None,))]),
    ("retry", "gameEnded"): ("ended", [("endGame", (None,))]),
    ("retrySent", "gameEnded"): ("ended", [("endGame", (None,))]),
    ("ended", "playAgain"): ("queued", [("send", (wire.JoinQueue(),))]),
    ("ended", "moveChosen"): ("ended", []),
    ("queued", "moveChosen"): ("queued", []),
}
for _state in ("idle", "connecting", "refused", "queued", "theirTurn", "myTurn", "retry",
               "retrySent", "ended"):
    CLIENT_TABLE[(_state, "leave")] = ("closed", [("drop", ("leaving",))])
    CLIENT_TABLE[(_state, "timedOut")] = ("closed", [("timedOut", ())])
    CLIENT_TABLE[(_state, "unexpected")] = ("closed", [("drop", ("odd",))])
    CLIENT_TABLE[(_state, "connectionLost")] = ("closed", [("lost", ())])
for _state in CLIENT_PATHS:
    CLIENT_TABLE[(_state, "expected")] = (_state, [])
for _name in CLIENT_INPUTS:
    CLIENT_TABLE.setdefault(("closed", _name), ("closed", []))


class TransitionTableMixin:
    machineFactory: Any
    inputs: dict[str, tuple[Any, ...]]
    paths: dict[str, list[str]]
    table: dict[tuple[str, str], tuple[str, list[Call]]]

    def reach(self, state: str) -> tuple[Any, RecordingCore]:
        core = RecordingCore()
        machine = self.machineFactory(core)
        for name in self.paths[state]:
            getattr(machine, name)(*self.inputs[name])
        assert stateName(machine) == state, (state, stateName(machine))
        core.calls.clear()
        return machine, core

    def test_everyTransition(self) -> None:
        """Each listed (state, input) goes where the table says, with those effects."""
        for (state, name), (target, calls) in sorted(self.table.items()):
            machine, core = self.reach(state)
            getattr(machine, name)(*self.inputs[name])
            self.assertEqual((stateName(machine), core.calls), (target, calls),  # type: ignore[attr-defined]
                             f"{state} --{name}-->")

    def test_everyTransitionListed(self) -> None:
        """The machine has exactly the transitions of the table."""
        automaton = self.machineFactory.__automat_automaton__
        actual = {(old.name, name) for old, name, _, _ in automaton.allTransitions()}
        self.assertEqual(actual, set(self.table))  # type: ignore[attr-defined]

    def test_everyStateReached(self) -> None:
        automaton = self.machineFactory.__automat_automaton__
        states = {old.name for old, _, _, _ in automaton.allTransitions()}
        self.assertEqual(states, set(self.paths))  # type: ignore[attr-defined]


class ServerMachineTests(TransitionTableMixin, SynchronousTestCase):
    machineFactory = ServerMachine
    inputs = SERVER_INPUTS
    paths = SERVER_PATHS
    table = SERVER_TABLE

    def test_reentrantInputsWait(self) -> None:
        """An input fed from inside a transition runs after it, in order."""

        class Core(RecordingCore):
            def submitMove(self, column: int) -> None:
                super().__getattr__("submitMove")(column)
                machine.moveRefused()
                machine.gameEnded(0)

        core = Core()
        machine = ServerMachine(core)
        for name in SERVER_PATHS["myTurn"]:
            getattr(machine, name)(*SERVER_INPUTS[name])
        machine.playMove(1)
        self.assertEqual(stateName(machine), "choosing")


class ClientMachineTests(TransitionTableMixin, SynchronousTestCase):
    machineFactory = ClientMachine
    inputs = CLIENT_INPUTS
    paths = CLIENT_PATHS
    table = CLIENT_TABLE

    def test_expected(self) -> None:
        """Each state says which server messages it can read."""
        for state, kinds in CLIENT_EXPECTED.items():
            machine, _ = self.reach(state)
            self.assertEqual(machine.expected(), frozenset(kinds), state)


class IndexedTests(SynchronousTestCase):
    """The dict index answers exactly like Automat's own lookup."""

    def test_sameAnswers(self) -> None:
        from automat._core import Automaton

        for factory in (ServerMachine, ClientMachine):
            automaton: Any = factory.__automat_automaton__
            states = {old for old, _, _, _ in automaton.allTransitions()}
            inputs = {name for _, name, _, _ in automaton.allTransitions()}
            for state in states:
                for name in inputs:
                    try:
                        expected = Automaton.outputForInput(automaton, state, name)
                    except NoTransition:
                        self.assertRaises(NoTransition, automaton.outputForInput, state, name)
                    else:
                        self.assertEqual(automaton.outputForInput(state, name), expected)

    def test_missingTransitionRaises(self) -> None:
        machine = ServerMachine(RecordingCore())
        self.assertRaises(NoTransition, machine.yourTurn)
