"""
The FreeDoko parent's machine of one child's connection: every transition,
with the effects it asks of its core (L{gameproto.freedoko.machine}).
"""

from __future__ import annotations

from typing import Any

from twisted.trial.unittest import SynchronousTestCase

from gameproto.freedoko import wire
from gameproto.freedoko.machine import Place, ServerMachine, stateName

from .test_connect4_machine import RecordingCore, TransitionTableMixin

_TABLE, _INSTRUCTIONS = object(), object()
CARD = wire.CardPlayed(2, wire.Card("club", "queen"))
SYNC = wire.SyncGameplayActions((CARD,))

INPUTS: dict[str, tuple[Any, ...]] = {
    "connected": (), "nameReceived": ("Anna",), "seated": (2,), "reclaiming": (2,),
    "rejected": ("full",), "update": (_TABLE, 2, _INSTRUCTIONS), "gameplay": (CARD,),
    "trickTaken": (), "sync": (SYNC,), "ping": (7,), "ask": ("rules",), "chat": ("hi",),
    "malformed": ("bad",), "partyOver": (), "timedOut": (), "connectionLost": (),
}

_NAMED = ["connected", "nameReceived"]
PATHS: dict[str, list[str]] = {
    "new": [],
    "awaitingName": ["connected"],
    "placing": _NAMED,
    "waiting": _NAMED + ["seated"],
    "rejoining": _NAMED + ["reclaiming"],
    "rejected": _NAMED + ["rejected"],
    "playing": _NAMED + ["seated", "update"],
    "finished": _NAMED + ["seated", "update", "partyOver"],
    "closed": ["connected", "connectionLost"],
}

LOST = ("closed", [("stopTimer", ()), ("leave", ())])

TABLE: dict[tuple[str, str], tuple[str, list[Any]]] = {
    ("new", "connected"): ("awaitingName", [("greet", ())]),
    ("awaitingName", "nameReceived"): ("placing", [("stopTimer", ()), ("place", ("Anna",))]),
    ("awaitingName", "timedOut"): ("closed", [("drop", ("no name: line in time",))]),
    ("awaitingName", "connectionLost"): ("closed", [("stopTimer", ())]),
    ("awaitingName", "ping"): ("awaitingName", [("pong", (7,))]),
    ("awaitingName", "ask"): ("awaitingName", [("answer", ("rules",))]),
    ("awaitingName", "malformed"): ("awaitingName", [("ignore", ("bad",))]),
    ("awaitingName", "gameplay"): ("awaitingName", []),
    ("awaitingName", "trickTaken"): ("awaitingName", []),
    ("awaitingName", "sync"): ("awaitingName", []),
    ("awaitingName", "chat"): ("awaitingName", []),
    ("placing", "seated"): ("waiting", [("join", (2,))]),
    ("placing", "reclaiming"): ("rejoining", [("rejoin", (2,))]),
    ("placing", "rejected"): ("rejected", [("reject", ("full",))]),
    ("rejected", "timedOut"): ("closed", [("drop", ("connection rejected",))]),
    ("rejected", "connectionLost"): ("closed", [("stopTimer", ())]),
    ("rejected", "ping"): ("rejected", [("pong", (7,))]),
    ("waiting", "update"): ("playing", [("begin", (_TABLE, 2, _INSTRUCTIONS, False))]),
    ("rejoining", "update"): ("playing", [("begin", (_TABLE, 2, _INSTRUCTIONS, True))]),
    ("playing", "update"): ("playing", [("follow", (_TABLE, 2, _INSTRUCTIONS))]),
    ("playing", "gameplay"): ("playing", [("play", (2, CARD))]),
    ("playing", "trickTaken"): ("playing", [("takeTrick", (2,))]),
    ("playing", "sync"): ("playing", [("answerSync", (2, SYNC))]),
    ("playing", "partyOver"): ("finished", [("linger", ())]),
    ("rejoining", "partyOver"): ("finished", [("linger", ())]),
    ("playing", "timedOut"): ("finished", [
        ("forfeit", (2, "no answer in time: a bot plays the seat"))]),
    ("finished", "timedOut"): ("closed", [("drop", ("the party is over",))]),
}
for _input in ("nameReceived", "gameplay", "trickTaken", "sync", "ask", "chat", "malformed"):
    TABLE[("rejected", _input)] = ("rejected", [])
for _state in ("waiting", "rejoining"):
    TABLE[(_state, "gameplay")] = (_state, [
        ("refuse", (CARD, "no game of yours is being played yet"))])
    for _input in ("trickTaken", "sync", "timedOut"):
        TABLE[(_state, _input)] = (_state, [])
for _input in ("update", "gameplay", "trickTaken", "sync"):
    TABLE[("finished", _input)] = ("finished", [])
for _state in ("waiting", "rejoining", "playing", "finished"):
    TABLE[(_state, "ping")] = (_state, [("pong", (7,))])
    TABLE[(_state, "ask")] = (_state, [("answer", ("rules",))])
    TABLE[(_state, "chat")] = (_state, [("relayChat", ("hi",))])
    TABLE[(_state, "malformed")] = (_state, [("ignore", ("bad",))])
    TABLE[(_state, "nameReceived")] = (_state, [])
    TABLE[(_state, "connectionLost")] = LOST
for _input in ("nameReceived", "update", "gameplay", "trickTaken", "sync", "ping", "ask", "chat",
               "malformed", "partyOver", "timedOut", "connectionLost"):
    TABLE[("closed", _input)] = ("closed", [])


class ServerMachineTests(TransitionTableMixin, SynchronousTestCase):
    """Every transition of a child's connection, with its effects."""

    machineFactory = ServerMachine
    inputs = INPUTS
    paths = PATHS
    table = TABLE

    def test_placeIsTheSeat(self) -> None:
        """The data of every phase at a table is the player the child manages."""
        core = RecordingCore()
        machine = ServerMachine(core)  # type: ignore[call-overload]
        machine.connected()
        machine.nameReceived("Anna")
        machine.seated(3)
        machine.update(_TABLE, 3, _INSTRUCTIONS)
        machine.gameplay(CARD)
        self.assertEqual(core.calls[-1], ("play", (3, CARD)))
        self.assertEqual(stateName(machine), "playing")
        self.assertEqual(Place(3).seat, 3)

    def test_reentrantPlacing(self) -> None:
        """The core answers ``place`` from inside it: the answer is taken in ``placing``."""

        class Core(RecordingCore):
            def place(self, name: str) -> None:
                self.calls.append(("place", (name,)))
                machine.seated(1)

        core = Core()
        machine = ServerMachine(core)  # type: ignore[call-overload]
        machine.connected()
        machine.nameReceived("Bert")
        self.assertEqual(stateName(machine), "waiting")
        self.assertEqual(core.calls[-1], ("join", (1,)))
