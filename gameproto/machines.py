"""
Helpers for the Automat machines of every protocol.
"""

from __future__ import annotations

from gameproto._compat import currentStateName as stateName
from gameproto._compat import indexTransitions as indexed

__all__ = ["indexed", "stateName"]
