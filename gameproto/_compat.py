"""
The only place gameproto touches library internals it cannot yet avoid.

Each function says which private name it relies on.  The versions it was
written for are pinned in C{setup.cfg}; C{gameproto.test.test_compat}
fails as soon as an installed version no longer behaves as assumed; and
C{docs/upstream.md} holds what we offer upstream so that each of them can
go away:

  - Automat: a constant-time transition index and leaner input methods
    (L{indexTransitions}), the name of a typed machine's current state
    (L{currentStateName}) and the transitions of a built machine, for its
    diagram (L{machineTransitions});
  - Twisted's WebSocket: the size of a message still being assembled
    (L{pendingMessageBytes}), of the frame wsproto still decodes
    (L{frameInProgress}), and a look at every chunk of bytes an upgraded
    HTTP channel receives (L{afterChannelData}), to refuse an over-long
    message before it is complete and to give it the bytes that came with
    the upgrade request, and whether a channel was upgraded
    (L{upgradedToWebSocket});
  - Twisted's transports: the bytes a connection has still to send
    (L{pendingWriteBytes}), for the metrics;
  - Twisted's HTTP channel: a pull producer (a static file's) registered
    while the channel waits for its transport starts paused, as the channel
    is (L{pauseLikeChannel}); the bytes a channel kept while an upgrade
    request waited its turn go to the WebSocket (L{deliverHeldData}).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, TypeVar

from automat import NoTransition
from automat._typed import MethodOutput
from wsproto.utilities import LocalProtocolError

__all__ = ["afterChannelData", "currentStateName", "deliverHeldData", "indexTransitions",
           "machineTransitions", "pauseLikeChannel",
           "frameInProgress", "pendingMessageBytes", "pendingWriteBytes",
           "upgradedToWebSocket"]

MachineT = TypeVar("MachineT")


# -- Automat -------------------------------------------------------------------


def indexTransitions(machine: MachineT) -> MachineT:
    """
    Make a built Automat C{TypeMachine} find its transitions in a dict.

    Automat's C{Automaton.outputForInput} scans every transition and
    compares states field by field; the index gives the same answers (the
    new state, the outputs, C{NoTransition} for a missing one) in constant
    time.  Relies on C{TypeMachine.__automat_automaton__}, on the automaton
    calling its C{outputForInput} through the instance, and on its private
    C{_unhandledTransition} (a machine with one is left as it is).  The
    machine's input methods then use the index themselves
    (L{_dispatchInputs}).
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
    _dispatchInputs(machine, table)
    return machine


_Step = tuple[object, object, tuple[tuple[Any, bool, Any], ...]]
"""
A transition: the state it leaves, the state it enters, and its outputs,
each as (its method or None, whether the method takes the data, the output).
"""


def _dispatchInputs(machine: object, table: dict[tuple[object, str], tuple[object, tuple[Any, ...]]]
                    ) -> None:
    """
    Give each input method of a built typed machine's instances (its
    C{__automat_type__}) a leaner body, with the same effects as Automat's
    (C{automat._typed.implementMethod}): the state moves, then each output
    runs with the machine, its core (and its data, checked as Automat checks
    it, for those that take it) and the input's arguments; the last output's
    result is returned; an input made while outputs run waits for them
    (Automat's body queues it; the rerun it queues is replaced by this
    body's).  It looks the transition up in ``table`` (the index
    L{indexTransitions} built; here by input, then by the id of the state
    it leaves), sets the transitioner's C{_state} itself and calls a
    C{MethodOutput}'s C{method} directly, where Automat goes through
    C{Transitioner.transition} and each output's C{__call__}.  A machine
    being traced (C{Transitioner._tracer}), and an input with no transition
    from the state (C{NoTransition}), go to Automat's own body.  Relies on
    the runtime type's methods being Automat's C{implementation} functions
    named after their inputs, on C{__automat_transitioner__},
    C{__automat_core__}, C{__automat_data__}, C{__automat_postponed__} (one
    rerun appended to it for a reentrant input), and on C{MethodOutput}'s
    C{method}, C{requiresData} and C{_assertion}.
    """
    runtime: Any = getattr(machine, "__automat_type__", None)
    if runtime is None:
        return
    # Each input's transitions by the id of the state they leave (a typed
    # state's own hash is a dataclass's, in Python), the state kept beside
    # them to check that the id is its.
    steps: dict[str, dict[int, _Step]] = {}
    for (old, symbol), (new, outputs) in table.items():
        steps.setdefault(symbol, {})[id(old)] = (old, new, tuple(
            (output.method if type(output) is MethodOutput else None,
             type(output) is MethodOutput and output.requiresData, output)
            for output in outputs))
    for name, original in list(vars(runtime).items()):
        if callable(original) and getattr(original, "__name__", "").startswith(
                "<implementation for"):
            setattr(runtime, name, _leanInput(name, original, steps.get(name, {})))


def _leanInput(symbol: str, original: Callable[..., Any], steps: dict[int, _Step]
               ) -> Callable[..., Any]:
    """
    The body of input ``symbol`` (see L{_dispatchInputs}); ``original`` is
    Automat's; ``steps`` this input's transitions by their old state's id.
    """

    def dispatch(self: Any, *args: Any, **kwargs: Any) -> Any:
        transitioner = self.__automat_transitioner__
        waiting = self.__automat_postponed__
        if waiting is not None:
            # Made while outputs run: Automat's body checks it and queues
            # its own rerun, which this body takes the place of.
            queued = len(waiting)
            result = original(self, *args, **kwargs)
            if len(waiting) == queued + 1:
                waiting[-1] = partial(dispatch, self, *args, **kwargs)
            return result
        if transitioner._tracer is not None:
            return original(self, *args, **kwargs)
        state = transitioner._state
        step = steps.get(id(state))
        if step is None or step[0] is not state:
            # No transition (Automat raises NoTransition), or a state equal
            # to the builder's but not the same object: Automat's own body.
            return original(self, *args, **kwargs)
        _, new, outputs = step
        data = self.__automat_data__
        core = self.__automat_core__
        postponed: list[Callable[[], None]] = []
        self.__automat_postponed__ = postponed
        try:
            transitioner._state = new
            result = None
            for method, withData, output in outputs:
                if method is None:
                    result = output(self, data, *args, **kwargs)
                elif withData:
                    output._assertion(data)  # (MethodOutput's check of the data's type)
                    result = method(self, core, data, *args, **kwargs)
                else:
                    result = method(self, core, *args, **kwargs)
        finally:
            self.__automat_postponed__ = None
        while postponed:
            postponed.pop(0)()
        return result

    dispatch.__name__ = dispatch.__qualname__ = symbol
    return dispatch


def currentStateName(machine: object) -> str:
    """
    The name of the state a typed Automat machine instance is in (for logs
    and tests).  Relies on C{__automat_transitioner__._state}.
    """
    state = machine.__automat_transitioner__._state  # type: ignore[attr-defined]
    name: str = state.name
    return name


def machineTransitions(machine: object) -> tuple[str, list[tuple[str, str, str]]]:
    """
    A built Automat C{TypeMachine}'s initial state and its transitions,
    each C{(old state, input, new state)} by name, sorted.  The automaton
    is C{TypeMachine.__automat_automaton__} (what C{TypeMachine.asDigraph}
    draws from, which needs graphviz); from there only its public
    C{initialState} and C{allTransitions()} and the states' C{name}.
    """
    automaton: Any = getattr(machine, "__automat_automaton__")
    transitions = sorted(
        (old.name, symbol, new.name) for old, symbol, new, _ in automaton.allTransitions()
    )
    initial: str = automaton.initialState.name
    return initial, transitions


# -- Twisted's WebSocket -------------------------------------------------------


def pendingMessageBytes(ws: object) -> int:
    """
    Bytes of a message Twisted's WebSocket implementation is still
    assembling (its private C{_bytesBuffer} and C{_textBuffer}, whose
    C{data} grows with each fragment until the message is delivered).
    Text is counted in characters, which is never more than its bytes.
    """
    pending = 0
    for name in ("_bytesBuffer", "_textBuffer"):
        data = getattr(getattr(ws, name, None), "data", None)
        if data is not None:
            pending += len(data)
    return pending


def frameInProgress(ws: object) -> tuple[int, int]:
    """
    The frame wsproto is still decoding under Twisted's WebSocket ``ws``:
    the bytes it holds undecoded (a header not yet whole), and the payload
    length the frame's header announces (0 before the header is whole, or
    between frames).  Relies on Twisted's private C{_wsconn} (a wsproto
    C{Connection}) and on wsproto's private C{_proto._frame_decoder}, its
    C{buffer} and C{header}.  (0, 0) when they are not there.
    """
    decoder = getattr(getattr(getattr(ws, "_wsconn", None), "_proto", None),
                      "_frame_decoder", None)
    if decoder is None:
        return 0, 0
    buffer = getattr(decoder, "buffer", None)
    header = getattr(decoder, "header", None)
    held = len(buffer) if buffer is not None else 0
    announced = getattr(header, "payload_len", 0) if header is not None else 0
    return held, int(announced)


def afterChannelData(channel: object, check: Callable[[], None],
                     closing: Callable[[], bool] = lambda: False) -> bool:
    """
    Call ``check()`` after every chunk of bytes an upgraded HTTP channel
    delivers to its WebSocket (so a message can be refused while it is
    still being received).  Relies on the private
    C{HTTPChannel._protocolUpgradeForWebsockets} replacing the channel's
    C{dataReceived} with the WebSocket's, which is done before the
    WebSocket protocol's C{negotiationStarted}: call this from there.
    Returns False (and does nothing) when the channel has no such hook.

    The bytes that came in the same chunk as the upgrade request go to the
    WebSocket too: Twisted's channel would otherwise pass them to its
    private C{rawDataReceived}, which keeps them in C{_dataBuffer} for a
    next request that never comes and, past 16 KiB, pauses the transport
    for good (the connection is then never read, nor closed, again).

    Once ``closing()`` says the server has begun to close the WebSocket,
    wsproto's C{LocalProtocolError} is no fault: Twisted answers a frame
    that came in the same chunk after the close (a ping, a protocol error)
    although wsproto, in its LOCAL_CLOSING state, refuses to send anything
    more; the rest of the chunk is then dropped instead of a traceback.
    """
    upstream: Callable[[bytes], None] | None = getattr(channel, "dataReceived", None)
    if upstream is None:
        return False

    def dataReceived(data: bytes) -> None:
        try:
            upstream(data)
        except LocalProtocolError:
            if not closing():
                raise
            return
        check()

    channel.dataReceived = dataReceived  # type: ignore[attr-defined]
    channel.rawDataReceived = dataReceived  # type: ignore[attr-defined]
    return True


def upgradedToWebSocket(channel: object) -> bool:
    """
    Whether Twisted's HTTP channel was handed to a WebSocket: its private
    C{_protocolUpgradeForWebsockets} puts the WebSocket's C{dataReceived}
    on the channel instance.
    """
    return "dataReceived" in getattr(channel, "__dict__", {})


# -- Twisted's transports ------------------------------------------------------


def pendingWriteBytes(transport: object) -> int:
    """
    Bytes written to ``transport`` and not yet taken by the network: a
    C{FileDescriptor}'s C{dataBuffer} past its C{offset} plus its private
    C{_tempDataLen}; through a WebSocket (C{_ws}) or a wrapping protocol
    (C{transport}) down to the descriptor.  0 for anything else.
    """
    for _ in range(5):
        if transport is None:
            return 0
        temp = getattr(transport, "_tempDataLen", None)
        if isinstance(temp, int):
            data = getattr(transport, "dataBuffer", b"")
            offset = getattr(transport, "offset", 0)
            return max(len(data) - offset, 0) + temp
        transport = getattr(transport, "_ws", None) or getattr(transport, "transport", None)
    return 0


# -- Twisted's HTTP channel ----------------------------------------------------


def pauseLikeChannel(channel: object) -> bool:
    """
    Pause the request producer just registered with Twisted's HTTP
    ``channel`` if the channel is itself paused, its transport's buffer
    being full (call it right after C{registerProducer}); whether it did.

    C{HTTPChannel.registerProducer} wraps a pull producer (C{static.File}'s)
    in its private C{_PullToPush} and starts it streaming at once, even
    while the channel's private C{_waitingForTransport} says the transport
    cannot take more (a client pipelining requests that reads nothing);
    when the transport drains, the channel resumes a task that was never
    paused, and C{task.NotPaused} is logged as an unhandled error.  Relies
    on C{_waitingForTransport}, on C{_requestProducer} (the wrapper) and on
    the wrapper's C{pauseProducing} pausing its cooperative task.
    """
    if not getattr(channel, "_waitingForTransport", False):
        return False
    producer = getattr(channel, "_requestProducer", None)
    pause = getattr(producer, "pauseProducing", None)
    if pause is None:
        return False
    pause()
    return True


def deliverHeldData(channel: object) -> int:
    """
    Right after Twisted's HTTP ``channel`` was upgraded to a WebSocket,
    give the WebSocket the bytes the channel kept while the upgrade
    request waited to be served, and resume reading if the channel paused
    it; how many bytes.

    While a request is being handled, the channel keeps what arrives after
    it in its private C{_dataBuffer}, for the next request, and past its
    private C{_optimisticEagerReadSize} (16 KiB) pauses its transport
    (C{_networkProducer}) until the request is done.  An upgrade is never
    done as a request is: served at once, the bytes of its own chunk go to
    the WebSocket (L{afterChannelData}); served later (its peer's share of
    requests, or the port's share of the reactor's turn, spent), without
    this the kept bytes would never be read, and a paused connection
    never read nor closed again.  Relies on those three names and on
    C{_waitingForTransport} (the channel's transport full: it stays paused).
    """
    held: list[bytes] | None = getattr(channel, "_dataBuffer", None)
    if not held:
        return 0
    data = b"".join(held)
    channel._dataBuffer = []  # type: ignore[attr-defined]
    eager = getattr(channel, "_optimisticEagerReadSize", 0)
    producer = getattr(channel, "_networkProducer", None)
    if len(data) > eager and producer is not None and \
            not getattr(channel, "_waitingForTransport", False):
        producer.resumeProducing()
    channel.dataReceived(data)  # type: ignore[attr-defined]
    return len(data)
