"""
Helpers for the Automat machines of every protocol.
"""

from __future__ import annotations

from typing import Any, TypeVar

from automat import NoTransition

MachineT = TypeVar("MachineT")


def indexed(machine: MachineT) -> MachineT:
    """
    Make a built Automat C{TypeMachine} find its transitions in a dict.

    Automat looks a transition up by scanning every transition of the
    machine and comparing states field by field; a protocol machine with
    dozens of transitions then spends most of a message's time there.  The
    index gives the same answers (the transitions, their outputs, and
    C{NoTransition} for a missing one) in constant time.
    """
    automaton: Any = getattr(machine, "__automat_automaton__", None)
    transitions = getattr(automaton, "allTransitions", None)
    if transitions is None or getattr(automaton, "_unhandledTransition", None) is not None:
        return machine
    table = {
        (old, symbol): (new, tuple(outputs)) for old, symbol, new, outputs in transitions()
    }

    def outputForInput(inState: object, inputSymbol: str) -> tuple[object, list[object]]:
        try:
            new, outputs = table[(inState, inputSymbol)]
        except KeyError:
            raise NoTransition(state=inState, symbol=inputSymbol) from None
        return new, list(outputs)

    automaton.outputForInput = outputForInput
    return machine
