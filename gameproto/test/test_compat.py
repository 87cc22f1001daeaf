"""
The library internals L{gameproto._compat} relies on, checked against the
installed Automat and Twisted: these tests fail as soon as one of them no
longer exists or behaves as assumed.
"""

from __future__ import annotations

from typing import Any, Protocol

from automat import NoTransition, TypeMachineBuilder
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure
from twisted.internet.task import NotPaused
from twisted.trial.unittest import SynchronousTestCase
from twisted.web.http import HTTPChannel
from twisted.web.resource import Resource
from twisted.web.server import NOT_DONE_YET, Request, Site
from twisted.web.websocket import WebSocketResource, WebSocketTransport
from wsproto import ConnectionType, WSConnection
from wsproto.connection import Connection
from wsproto.utilities import LocalProtocolError
from wsproto.events import AcceptConnection, BytesMessage, Ping, TextMessage
from wsproto.events import Request as WSRequest

from gameproto._compat import (
    afterChannelData,
    currentStateName,
    deliverHeldData,
    frameInProgress,
    indexTransitions,
    machineTransitions,
    pauseLikeChannel,
    pendingMessageBytes,
    upgradedToWebSocket,
)


class Inputs(Protocol):
    def go(self) -> None:
        "Go."

    def back(self) -> None:
        "Back."


class Core:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.queued: list[Any] = []
        """What an input made from inside an output left queued (L{buildSteps}' poke)."""


def buildMachine() -> Any:
    builder = TypeMachineBuilder(Inputs, Core)
    here, there = builder.state("here"), builder.state("there")

    @here.upon(Inputs.go).to(there)
    def go(inputs: Inputs, core: Core) -> None:
        core.calls.append("go")

    @there.upon(Inputs.back).to(here)
    def back(inputs: Inputs, core: Core) -> None:
        core.calls.append("back")

    return builder.build()


class AutomatTests(SynchronousTestCase):
    """What L{indexTransitions} and L{currentStateName} rely on in Automat."""

    def test_automatonAttributes(self) -> None:
        """A built machine shows its automaton, its transitions and no unhandled transition."""
        automaton = buildMachine().__automat_automaton__
        self.assertIsNone(automaton._unhandledTransition)
        transitions = automaton.allTransitions()
        self.assertEqual(
            sorted((old.name, symbol, new.name, len(outputs))
                   for old, symbol, new, outputs in transitions),
            [("here", "go", "there", 1), ("there", "back", "here", 1)])

    def test_outputForInputThroughTheInstance(self) -> None:
        """Every input asks the automaton instance's C{outputForInput}."""
        machine = buildMachine()
        automaton = machine.__automat_automaton__
        original = automaton.outputForInput
        asked: list[str] = []

        def spy(state: object, symbol: str) -> Any:
            asked.append(symbol)
            return original(state, symbol)

        automaton.outputForInput = spy
        inputs = machine(Core())
        inputs.go()
        inputs.back()
        self.assertEqual(asked, ["go", "back"])

    def test_indexSameAnswers(self) -> None:
        """The index moves the machine, runs the outputs, refuses a missing transition."""
        machine = indexTransitions(buildMachine())
        automaton = machine.__automat_automaton__
        self.assertEqual(automaton.outputForInput.__name__, "outputForInput")
        self.assertIn("indexTransitions", automaton.outputForInput.__qualname__)
        core = Core()
        inputs = machine(core)
        inputs.go()
        self.assertEqual(currentStateName(inputs), "there")
        self.assertRaises(NoTransition, inputs.go)
        inputs.back()
        self.assertEqual((currentStateName(inputs), core.calls), ("here", ["go", "back"]))

    def test_unhandledTransitionLeftAlone(self) -> None:
        """A machine with an unhandled transition is not indexed."""
        machine = buildMachine()
        automaton = machine.__automat_automaton__
        before = automaton.outputForInput
        automaton._unhandledTransition = (None, ())
        self.assertIs(indexTransitions(machine), machine)
        self.assertEqual(automaton.outputForInput, before)
        automaton._unhandledTransition = None

    def test_machineTransitions(self) -> None:
        """A built (and indexed) machine's initial state and transitions, by name."""
        for machine in (buildMachine(), indexTransitions(buildMachine())):
            self.assertEqual(machineTransitions(machine),
                             ("here", [("here", "go", "there"), ("there", "back", "here")]))

    def test_currentStateName(self) -> None:
        """The instance's transitioner holds the current state, which has a name."""
        inputs = buildMachine()(Core())
        self.assertEqual(inputs.__automat_transitioner__._state.name, "here")  # type: ignore[attr-defined]
        self.assertEqual(currentStateName(inputs), "here")
        inputs.go()
        self.assertEqual(currentStateName(inputs), "there")


class Steps(Protocol):
    def start(self, n: int) -> int:
        "Start with ``n``: the busy state's data."

    def poke(self) -> None:
        "Poke while busy: makes another input from inside its output."

    def nudge(self) -> None:
        "Nudge while busy."

    def finish(self) -> str:
        "Finish."


class Busy:
    def __init__(self, n: int) -> None:
        self.n = n


def buildSteps() -> Any:
    """A machine with a data state, outputs with and without data, a reentrant input."""
    builder = TypeMachineBuilder(Steps, Core)
    idle = builder.state("idle")
    busy = builder.state("busy", lambda steps, core, n: Busy(n))
    done = builder.state("done")

    @idle.upon(Steps.start).to(busy)
    def start(steps: Steps, core: Core, n: int) -> int:
        core.calls.append(f"start {n}")
        return 2 * n

    @busy.upon(Steps.poke).loop()
    def poke(steps: Steps, core: Core, data: Busy) -> None:
        steps.nudge()  # waits until this output is done
        core.queued = list(steps.__automat_postponed__)  # type: ignore[attr-defined]
        core.calls.append(f"poke {data.n}")

    @busy.upon(Steps.nudge).loop()
    def nudge(steps: Steps, core: Core, data: Busy) -> None:
        core.calls.append(f"nudge {data.n}")

    @busy.upon(Steps.finish).to(done)
    def finish(steps: Steps, core: Core, data: Busy) -> str:
        core.calls.append(f"finish {data.n}")
        return "finished"

    return builder.build()


def playSteps(machine: Any) -> list[Any]:
    """Every input of L{buildSteps}' machine once or more: what each returned, raised, left."""
    core = Core()
    steps = machine(core)
    seen: list[Any] = []

    def note(result: object) -> None:
        seen.append((result, currentStateName(steps), list(core.calls)))

    for make in (lambda: steps.poke(), lambda: steps.start(3), lambda: steps.start(4),
                 lambda: steps.poke(), lambda: steps.nudge(), lambda: steps.finish(),
                 lambda: steps.finish()):
        try:
            note(make())
        except NoTransition as e:
            note(("NoTransition", e.state.name, e.symbol))
    return seen


class DispatchTests(SynchronousTestCase):
    """
    What the indexed machines' lean input methods (L{indexTransitions}) rely
    on in Automat, and that they do what Automat's own do.
    """

    def test_implementationsNamed(self) -> None:
        """Automat's input methods are its C{implementation} functions, named after their input."""
        runtime = buildSteps().__automat_type__
        for name in ("start", "poke", "nudge", "finish"):
            self.assertTrue(vars(runtime)[name].__name__.startswith("<implementation for"), name)

    def test_internals(self) -> None:
        """The instance's attributes the lean methods read and set, and a MethodOutput's."""
        from automat._typed import MethodOutput

        steps = buildSteps()(Core())
        transitioner = steps.__automat_transitioner__
        self.assertIsNone(transitioner._tracer)
        self.assertIsNone(steps.__automat_postponed__)
        self.assertIsNone(steps.__automat_data__)
        self.assertIsInstance(steps.__automat_core__, Core)
        outputs = {output.name: output for _, _, _, outs
                   in buildSteps().__automat_automaton__.allTransitions() for output in outs}
        self.assertIsInstance(outputs["start"], MethodOutput)
        self.assertFalse(outputs["start"].requiresData)
        self.assertTrue(outputs["poke"].requiresData)
        outputs["poke"]._assertion(Busy(1))
        self.assertRaises(AssertionError, outputs["poke"]._assertion, "not a Busy")
        self.assertEqual(outputs["start"].method.__name__, "start")

    def test_replaced(self) -> None:
        """An indexed machine's input methods are the lean ones, once, whatever is indexed again."""
        machine = indexTransitions(buildSteps())
        lean = dict(vars(machine.__automat_type__))
        self.assertEqual(lean["start"].__name__, "start")
        indexTransitions(machine)
        self.assertEqual(lean, dict(vars(machine.__automat_type__)))

    def test_sameAsAutomat(self) -> None:
        """
        Each input returns, raises and leaves the machine and its core as
        Automat's own methods do: the data state's data, outputs with and
        without data, an input made from inside an output (it runs after),
        a missing transition (C{NoTransition}, nothing changed).
        """
        expected = playSteps(buildSteps())
        self.assertEqual(playSteps(indexTransitions(buildSteps())), expected)
        self.assertEqual(expected[1], (6, "busy", ["start 3"]))
        self.assertEqual(expected[3], (None, "busy", ["start 3", "poke 3", "nudge 3"]))
        self.assertEqual(expected[5][:2], ("finished", "done"))
        self.assertEqual(expected[0][0], ("NoTransition", "idle", "poke"))
        self.assertEqual(expected[2][0], ("NoTransition", "busy", "start"))
        self.assertEqual(expected[6][0], ("NoTransition", "done", "finish"))

    def test_reentrantQueuedOnce(self) -> None:
        """
        An input made from inside an output queues one rerun, Automat's; an
        indexed machine's queues its lean method's instead (the same input,
        the same arguments).
        """
        for indexed in (False, True):
            machine = buildSteps()
            if indexed:
                indexTransitions(machine)
            core = Core()
            steps = machine(core)
            steps.start(1)
            steps.poke()
            (rerun,) = core.queued
            lean = vars(machine.__automat_type__)["nudge"]
            self.assertEqual(getattr(rerun, "func", None) is lean, indexed)
            self.assertEqual(core.calls, ["start 1", "poke 1", "nudge 1"])

    def test_dataChecked(self) -> None:
        """An output's data of another type than it declares fails Automat's check, lean or not."""
        for machine in (buildSteps(), indexTransitions(buildSteps())):
            core = Core()
            steps = machine(core)
            steps.start(1)
            steps.__automat_data__ = "not a Busy"
            self.assertRaises(AssertionError, steps.finish)
            self.assertEqual(core.calls, ["start 1"])

    def test_statesAreTheTransitionsOwn(self) -> None:
        """
        The state a new machine is in, and each state an input moves it to,
        is the very object Automat's transitions name (the lean methods find
        a transition by its old state's id).
        """
        machine = buildSteps()
        states = {id(state) for old, _, new, _ in machine.__automat_automaton__.allTransitions()
                  for state in (old, new)}
        steps = indexTransitions(machine)(Core())
        self.assertIn(id(steps.__automat_transitioner__._state), states)
        steps.start(1)
        self.assertIn(id(steps.__automat_transitioner__._state), states)
        steps.finish()
        self.assertIn(id(steps.__automat_transitioner__._state), states)

    def test_equalStateGoesToAutomat(self) -> None:
        """
        A machine put in a copy of one of its states (equal, not the same
        object) still moves as Automat moves it, its outputs run once.
        """
        import copy

        core = Core()
        steps = indexTransitions(buildSteps())(core)
        transitioner = steps.__automat_transitioner__
        transitioner._state = copy.copy(transitioner._state)
        self.assertEqual((steps.start(5), currentStateName(steps), core.calls),
                         (10, "busy", ["start 5"]))
        transitioner._state = copy.copy(transitioner._state)
        self.assertRaises(NoTransition, steps.start, 1)
        self.assertEqual(core.calls, ["start 5"])

    def test_tracedGoesToAutomat(self) -> None:
        """A machine being traced is moved by Automat's own method, which tells the tracer."""
        steps = indexTransitions(buildSteps())(Core())
        traced: list[tuple[str, str, str]] = []

        def tracer(old: Any, symbol: str, new: Any) -> None:
            traced.append((old.name, symbol, new.name))

        steps.__automat_transitioner__.setTrace(tracer)
        steps.start(1)
        self.assertEqual((traced, currentStateName(steps)), ([("idle", "start", "busy")], "busy"))


class Recorder:
    """A WebSocket protocol that records what Twisted gives it."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.transport: WebSocketTransport | None = None
        self.hookedOnUpgrade = False
        self.pendingSeen: list[int] = []
        self.messages: list[bytes | str] = []

    def negotiationStarted(self, transport: WebSocketTransport) -> None:
        self.transport = transport
        hook = getattr(self.request.channel.dataReceived, "__self__", None)
        self.hookedOnUpgrade = hook is transport
        afterChannelData(self.request.channel,
                         lambda: self.pendingSeen.append(pendingMessageBytes(transport)))

    def negotiationFinished(self) -> None:
        pass

    def bytesMessageReceived(self, data: bytes) -> None:
        self.messages.append(bytes(data))

    def textMessageReceived(self, data: str) -> None:
        self.messages.append(data)

    def pongReceived(self, payload: bytes) -> None:
        pass

    def connectionLost(self, reason: Failure) -> None:
        pass


class Recorders:
    def __init__(self) -> None:
        self.built: list[Recorder] = []

    def buildProtocol(self, request: Request) -> Recorder:
        self.built.append(Recorder(request))
        return self.built[-1]


class TwistedWebSocketTests(SynchronousTestCase):
    """What L{pendingMessageBytes} and L{afterChannelData} rely on in Twisted's WebSocket."""

    def connect(self) -> tuple[Any, WSConnection, Recorder]:
        recorders = Recorders()
        root = Resource()
        root.putChild(b"ws", WebSocketResource(recorders))  # type: ignore[arg-type]
        channel = Site(root).buildProtocol(IPv4Address("TCP", "127.0.0.1", 1234))
        assert channel is not None
        transport = StringTransport()
        channel.makeConnection(transport)
        client = WSConnection(ConnectionType.CLIENT)
        channel.dataReceived(client.send(WSRequest(host="localhost", target="/ws")))
        client.receive_data(transport.value())
        self.assertIsInstance(next(client.events()), AcceptConnection)
        (recorder,) = recorders.built
        return channel, client, recorder

    def test_upgradeReplacesChannelDataReceived(self) -> None:
        """The channel's dataReceived is the WebSocket's by the time negotiation starts."""
        channel, client, recorder = self.connect()
        self.assertTrue(recorder.hookedOnUpgrade)
        channel.dataReceived(client.send(BytesMessage(b"abc")))
        self.assertEqual(recorder.messages, [b"abc"])
        self.assertEqual(recorder.pendingSeen, [0])

    def test_pendingBytes(self) -> None:
        """Fragments of a message pile up in the buffers until the message is delivered."""
        channel, client, recorder = self.connect()
        channel.dataReceived(client.send(BytesMessage(b"x" * 100, message_finished=False)))
        channel.dataReceived(client.send(BytesMessage(b"y" * 50, message_finished=False)))
        self.assertEqual(recorder.messages, [])
        channel.dataReceived(client.send(BytesMessage(b"z", message_finished=True)))
        self.assertEqual(recorder.messages, [b"x" * 100 + b"y" * 50 + b"z"])
        channel.dataReceived(client.send(TextMessage("é" * 10, message_finished=False)))
        channel.dataReceived(client.send(TextMessage("!", message_finished=True)))
        self.assertEqual(recorder.messages[-1], "é" * 10 + "!")
        self.assertEqual(recorder.pendingSeen, [100, 150, 0, 10, 0])

    def test_frameInProgress(self) -> None:
        """
        wsproto holds a frame's header until it is whole, then knows the
        payload length it announces until that payload is all read.
        """
        channel, client, recorder = self.connect()
        ws = recorder.transport
        self.assertEqual(frameInProgress(ws), (0, 0))
        frame = Connection(ConnectionType.CLIENT).send(BytesMessage(b"x" * 300))
        channel.dataReceived(frame[:3])  # 4 bytes of header and 4 of mask
        self.assertEqual(frameInProgress(ws), (3, 0))
        channel.dataReceived(frame[3:8])
        self.assertEqual(frameInProgress(ws), (0, 300))
        channel.dataReceived(frame[8:100])
        self.assertEqual(frameInProgress(ws)[1], 300)
        channel.dataReceived(frame[100:])
        self.assertEqual(frameInProgress(ws), (0, 0))
        self.assertEqual(recorder.messages, [b"x" * 300])
        self.assertEqual(frameInProgress(object()), (0, 0))

    def test_buffersExist(self) -> None:
        """The wire protocol keeps the message being assembled in two C{Buffer}s."""
        _, _, recorder = self.connect()
        self.assertEqual(recorder.transport._bytesBuffer.data, b"")  # type: ignore[union-attr]
        self.assertEqual(recorder.transport._textBuffer.data, "")  # type: ignore[union-attr]

    def test_noChannel(self) -> None:
        """Without a dataReceived to wrap, nothing is hooked."""
        self.assertFalse(afterChannelData(object(), lambda: None))

    def test_bytesWithTheUpgrade(self) -> None:
        """
        Frames sent in the same chunk as the upgrade request (over 16 KiB
        of them) reach the WebSocket, and the transport is not paused.
        """
        recorders = Recorders()
        root = Resource()
        root.putChild(b"ws", WebSocketResource(recorders))  # type: ignore[arg-type]
        channel = Site(root).buildProtocol(IPv4Address("TCP", "127.0.0.1", 1234))
        assert channel is not None
        transport = StringTransport()
        channel.makeConnection(transport)
        client = WSConnection(ConnectionType.CLIENT)
        framing = Connection(ConnectionType.CLIENT)  # frames as the client will send them
        frames = b"".join(framing.send(BytesMessage(b"%05d" % n + b"x" * 995))
                          for n in range(20))
        channel.dataReceived(client.send(WSRequest(host="localhost", target="/ws")) + frames)
        (recorder,) = recorders.built
        self.assertEqual(len(recorder.messages), 20)
        self.assertEqual(recorder.messages[19], b"00019" + b"x" * 995)
        self.assertEqual(transport.producerState, "producing")
        self.assertEqual(recorder.pendingSeen[-1], 0)

    def test_frameAfterClose(self) -> None:
        """
        Twisted answers a ping that comes after the server began to close,
        which wsproto refuses (LocalProtocolError); once closing, the hook
        drops the rest of the chunk instead.
        """
        channel, client, recorder = self.connect()
        assert recorder.transport is not None
        recorder.transport.loseConnection(1003)
        self.assertRaises(LocalProtocolError, channel.dataReceived, client.send(Ping(b"x")))
        channel, client, recorder = self.connect()
        hooked = Recorder(recorder.request)
        afterChannelData(recorder.request.channel, lambda: hooked.pendingSeen.append(-1),
                         lambda: True)
        assert recorder.transport is not None
        recorder.transport.loseConnection(1003)
        channel.dataReceived(client.send(Ping(b"x")))
        self.assertEqual(hooked.pendingSeen, [])

    def test_upgradedToWebSocket(self) -> None:
        """An upgraded channel has the WebSocket's dataReceived on the instance; others not."""
        _, _, recorder = self.connect()
        self.assertTrue(upgradedToWebSocket(recorder.request.channel))
        fresh = Site(Resource()).buildProtocol(IPv4Address("TCP", "127.0.0.1", 1))
        self.assertFalse(upgradedToWebSocket(getattr(fresh, "_channel", fresh)))


class PullProducer:
    """A pull producer (as C{static.File}'s): counts the times it is asked for data."""

    def __init__(self) -> None:
        self.pulls = 0

    def resumeProducing(self) -> None:
        self.pulls += 1

    def stopProducing(self) -> None:
        pass


class TwistedHTTPChannelTests(SynchronousTestCase):
    """
    What L{pauseLikeChannel} relies on in Twisted's HTTP channel, and the
    fault it works around (when Twisted fixes it, L{test_faultStillThere}
    fails: the workaround may go).
    """

    def channel(self) -> Any:
        channel = HTTPChannel()
        channel.timeOut = None  # no idle timer on the reactor
        channel.makeConnection(StringTransport())
        self.addCleanup(channel.connectionLost, Failure(Exception("done")))
        return channel

    def test_waitingForTransport(self) -> None:
        """The transport's pause and resume set and clear C{_waitingForTransport}."""
        channel = self.channel()
        self.assertFalse(channel._waitingForTransport)
        channel.pauseProducing()
        self.assertTrue(channel._waitingForTransport)
        channel.resumeProducing()
        self.assertFalse(channel._waitingForTransport)

    def test_pullProducerWrapped(self) -> None:
        """A pull producer is kept in C{_requestProducer}, wrapped in a pausable push producer."""
        channel = self.channel()
        producer = PullProducer()
        channel.registerProducer(producer, False)
        wrapper = channel._requestProducer
        self.assertIsNot(wrapper, producer)
        self.assertTrue(callable(wrapper.pauseProducing))
        self.assertTrue(callable(wrapper.resumeProducing))
        channel.unregisterProducer()
        self.assertIsNone(channel._requestProducer)

    def test_faultStillThere(self) -> None:
        """Registered while the channel waits, the wrapper is not paused: resuming raises."""
        channel = self.channel()
        channel.pauseProducing()
        channel.registerProducer(PullProducer(), False)
        self.assertRaises(NotPaused, channel.resumeProducing)
        channel.unregisterProducer()

    def test_pauseLikeChannel(self) -> None:
        """Paused as the channel is, the wrapper is resumed with it."""
        channel = self.channel()
        channel.pauseProducing()
        channel.registerProducer(PullProducer(), False)
        self.assertTrue(pauseLikeChannel(channel))
        channel.resumeProducing()
        channel.unregisterProducer()
        other = self.channel()
        other.registerProducer(PullProducer(), False)
        self.assertFalse(pauseLikeChannel(other))  # not waiting: left streaming
        other.unregisterProducer()
        self.assertFalse(pauseLikeChannel(object()))


class Pending(Resource):
    """A resource that never answers (its request stays the one being handled)."""

    isLeaf = True

    def render_GET(self, request: Request) -> int:
        return NOT_DONE_YET


class HeldDataTests(SynchronousTestCase):
    """
    What L{deliverHeldData} relies on: while a request is handled, Twisted's
    HTTP channel keeps the bytes after it in C{_dataBuffer} and, past
    C{_optimisticEagerReadSize}, pauses its C{_networkProducer}.
    """

    def channel(self) -> tuple[Any, StringTransport]:
        channel: Any = HTTPChannel()  # as a Site builds it (without its wrapper)
        channel.site, channel.requestFactory = Site(Pending()), Request
        channel.timeOut = None
        transport = StringTransport()
        channel.makeConnection(transport)
        self.addCleanup(channel.connectionLost, Failure(Exception("done")))
        return channel, transport

    def test_keptAndPaused(self) -> None:
        for extra, paused in ((b"x" * 10, False), (b"x" * 20000, True)):
            channel, transport = self.channel()
            channel.dataReceived(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n" + extra)
            self.assertEqual(b"".join(channel._dataBuffer), extra)
            self.assertEqual(len(extra) > channel._optimisticEagerReadSize, paused)
            self.assertEqual(transport.producerState, "paused" if paused else "producing")
            self.assertIs(channel._networkProducer, transport)
            self.assertFalse(channel._waitingForTransport)
            received: list[bytes] = []
            channel.dataReceived = received.append  # as an upgrade does
            self.assertEqual(deliverHeldData(channel), len(extra))
            self.assertEqual((received, channel._dataBuffer), ([extra], []))
            self.assertEqual(transport.producerState, "producing")
            self.assertEqual(deliverHeldData(channel), 0)
        self.assertEqual(deliverHeldData(object()), 0)
