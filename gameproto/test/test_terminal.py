"""What the terminal clients share: reading a typed number."""

from __future__ import annotations

from hypothesis import given, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.terminal import number


class NumberTests(SynchronousTestCase):
    """L{number}: the digits 0-9 only, nine at most; None for anything else, never an error."""

    def test_numbers(self) -> None:
        self.assertEqual([number(t) for t in ("0", "7", "072", "999999999")], [0, 7, 72, 999999999])

    def test_notNumbers(self) -> None:
        """Digits that C{str.isdigit} takes and C{int} refuses, signs, blanks, too many digits."""
        for text in ("", "\u00b2", "\u0663", "-1", "+1", " 1", "1 ", "1.0", "1_000", "9" * 10,
                     "9" * 5000):
            self.assertIsNone(number(text), text)

    @given(st.text())
    def test_total(self, text: str) -> None:
        """Any text: a number exactly when it is 1 to 9 ASCII digits."""
        value = number(text)
        if 1 <= len(text) <= 9 and all("0" <= c <= "9" for c in text):
            self.assertEqual(value, int(text))
        else:
            self.assertIsNone(value)
