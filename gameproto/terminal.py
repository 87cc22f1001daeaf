"""
What the programs that play in a terminal share (the terminal clients of
C{examples/}): reading a typed number, wrapping sentences at the terminal's
width, and leaving a game when the person presses Ctrl-C.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Callable

from twisted.internet.defer import Deferred

__all__ = ["leaveAtShutdown", "number", "wrap"]

_NUMBER = re.compile(r"[0-9]{1,9}")


def number(text: str) -> int | None:
    """
    The whole number ``text`` is, typed in the digits 0-9 (nine at most);
    None for anything else.  (``str.isdigit`` also takes digits that
    ``int`` refuses, such as ``²``, and ``int`` refuses more than 4,300.)
    """
    return int(text) if _NUMBER.fullmatch(text) else None


def wrap(text: str, width: int) -> list[str]:
    """
    ``text`` in lines of at most ``width`` characters, broken between words
    (a word longer than that alone on its line); as it is if it fits.  A
    width under 1 counts as 1.
    """
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, max(width, 1), break_long_words=False, break_on_hyphens=False)


def leaveAtShutdown(reactor: Any, leave: Callable[[], None], gone: Deferred[Any],
                    seconds: float = 2.0) -> None:
    """
    Ctrl-C stops the reactor: leave as ``q`` does, and keep the reactor
    running until everything is said and printed (``gone`` fires: the
    keyboard's output is closed once the connection is; ``seconds`` at
    most), so that the goodbye is sent and the person reads that they left,
    not that the server hung up.
    """
    def leaving() -> Deferred[None]:
        left: Deferred[None] = Deferred()

        def closed(result: object) -> object:
            if not left.called:
                left.callback(None)
            return result

        leave()
        timer = reactor.callLater(seconds, closed, None)
        left.addCallback(lambda _: timer.cancel() if timer.active() else None)
        gone.addBoth(closed)
        return left

    reactor.addSystemEventTrigger("before", "shutdown", leaving)

