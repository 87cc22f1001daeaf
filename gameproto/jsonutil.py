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
