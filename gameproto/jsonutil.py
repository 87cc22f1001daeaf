"""
JSON checks shared by every layer that reads a client's JSON (the engine
JSON protocol, the HTTP API): what Python's C{json} accepts but a client's
JSON may not be.
"""

from __future__ import annotations

import math
import re
from typing import Any, Final

__all__ = ["MAX_DEPTH", "plainJSON"]

MAX_DEPTH: Final = 64
"""How deep a client's arrays and objects may nest."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def plainJSON(value: Any, maxDepth: int = MAX_DEPTH) -> str | None:
    """
    Why ``value`` (as C{json.loads} reads it) is not a client's plain JSON:
    a NaN or an infinity (Python's json reads them), a string that is not
    Unicode (a lone surrogate escape), or arrays and objects nested deeper
    than ``maxDepth``; None when it is.  Walked without recursion, so any
    depth gets an answer, never a RecursionError.
    """
    if _surelyPlain(value, maxDepth):
        return None
    return _whyNotPlain(value, maxDepth)


def _surelyPlain(value: Any, maxDepth: int) -> bool:
    """
    Whether the object or array ``value`` is plain JSON, walked quickly:
    only its arrays and objects are stacked, the other members checked
    where they are met.  False for anything else, and for anything not of
    the exact types C{json.loads} gives: L{_whyNotPlain} says what, in
    the order it walks.
    """
    kind = type(value)
    if kind is not dict and kind is not list:
        return False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth >= maxDepth:
            return False
        if type(item) is dict:
            for key in item:
                if type(key) is not str or (not key.isascii() and _SURROGATE.search(key)):
                    return False
            members = item.values()
        else:
            members = item
        for member in members:
            kind = type(member)
            if kind is str:
                if not member.isascii() and _SURROGATE.search(member):
                    return False
            elif kind is dict or kind is list:
                stack.append((member, depth + 1))
            elif kind is float:
                if not math.isfinite(member):
                    return False
            elif not (kind is int or kind is bool or member is None):
                return False
    return True


def _whyNotPlain(value: Any, maxDepth: int) -> str | None:
    """L{plainJSON}'s answer, every value stacked and walked in turn."""
    # An ASCII string holds no surrogate: the expression is searched only
    # in the others.  json.loads gives exact dicts, lists, strs and floats.
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is str or kind is float or kind is int or kind is bool or item is None:
            if kind is str:
                if not item.isascii() and _SURROGATE.search(item):
                    return "strings must be valid Unicode"
            elif kind is float and not math.isfinite(item):
                return "numbers must be finite"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return "numbers must be finite"
        elif isinstance(item, str):
            if _SURROGATE.search(item):
                return "strings must be valid Unicode"
        elif isinstance(item, (dict, list)):
            if depth >= maxDepth:
                return f"JSON nested deeper than {maxDepth} levels"
            if isinstance(item, dict):
                for key, member in item.items():
                    if not (type(key) is str and key.isascii()) and _SURROGATE.search(key):
                        return "strings must be valid Unicode"
                    stack.append((member, depth + 1))
            else:
                stack.extend((member, depth + 1) for member in item)
    return None
