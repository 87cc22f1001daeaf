"""What the terminal clients share: reading a typed number."""

from __future__ import annotations

from hypothesis import given, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.terminal import number, wrap


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


class WrapTests(SynchronousTestCase):
    """Sentences wrapped at the terminal's width."""

    def test_wrapped(self) -> None:
        """Between words; a word longer than the width alone on its line; as it is if it fits."""
        self.assertEqual(wrap("a b", 3), ["a b"])
        self.assertEqual(wrap("one two three", 8), ["one two", "three"])
        self.assertEqual(wrap("a-very-long-word b", 5), ["a-very-long-word", "b"])
        self.assertEqual(wrap("", 80), [""])
        self.assertEqual(wrap("one two", 0), ["one", "two"])
        self.assertEqual(wrap("one two", -5), ["one", "two"])

    @given(st.text(st.sampled_from("abé♠-. \t\n"), max_size=300), st.integers(-5, 100))
    def test_words(self, text: str, width: int) -> None:
        """
        No line is longer than the width but for a word alone; the words are
        all there, in order (spaces, tabs and line ends between them).
        """
        lines = wrap(text, width)
        for line in lines:
            self.assertTrue(len(line) <= max(width, 1) or len(line.split()) == 1, (line, width))
        self.assertEqual(" ".join(lines).split(), text.split())
