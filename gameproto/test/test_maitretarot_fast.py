"""
The MaîtreTarot server's fast paths against their plain definitions: a
message's gints read by a plan made once per class, and the bytes written.
"""

from __future__ import annotations

import struct

import attrs
from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.maitretarot import wire

MESSAGES = sorted((cls for cls in vars(wire).values()
                   if isinstance(cls, type) and issubclass(cls, wire.GintMessage)
                   and cls is not wire.GintMessage), key=lambda cls: cls.__name__)


def plainValues(message: wire.GintMessage) -> list[int]:
    """The message's gints, field by field as the fields declare them."""
    out: list[int] = []
    for field in attrs.fields(type(message)):  # type: ignore[arg-type]
        value = getattr(message, field.name)
        if field.metadata["gints"] == 1:
            out.append(value)
        else:
            out.extend(value)
    return out


@st.composite
def messages(draw: st.DrawFn) -> wire.GintMessage:
    cls = draw(st.sampled_from(MESSAGES))
    gint = st.integers(wire.GINT_MIN, wire.GINT_MAX)
    args = [draw(gint) if field.metadata["gints"] == 1
            else tuple(draw(st.lists(gint, min_size=field.metadata["gints"],
                                     max_size=field.metadata["gints"])))
            for field in attrs.fields(cls)]  # type: ignore[arg-type]
    return cls(*args)  # type: ignore[no-any-return]


class GintPlanTests(SynchronousTestCase):
    """Every message class writes what its fields, read one by one, give."""

    def test_everyClass(self) -> None:
        self.assertGreater(len(MESSAGES), 15)

    @settings(max_examples=400)
    @given(messages())
    def test_values(self, message: wire.GintMessage) -> None:
        expected = plainValues(message)
        self.assertEqual(message.values(), expected)
        self.assertEqual(wire.serialize(message),  # type: ignore[arg-type]
                         struct.pack(f">{len(expected)}i", *expected))
        self.assertEqual(type(message).fromValues(expected), message)
