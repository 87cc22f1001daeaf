"""
FreeDoko's names, spelled as FreeDoko spells them on the wire and in its rule
files.  FreeDoko exits on a card, game-type or announcement name it does not
know, so every name sent must come from these lists.

The order of each list is FreeDoko's own enumeration order (what its
``from_name`` functions search), which the rules may rely on.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ACTION_KEYWORDS", "ANNOUNCEMENTS", "ANNOUNCEMENT_REPLIES", "COLORS", "COLOR_SOLI",
    "GAME_TYPES", "MARRIAGE_SELECTORS", "MARRIAGES", "PICTURE_SOLI", "PLAYER_TYPES",
    "POINTS", "RESERVATION_FLAGS", "SOLI", "THROWN", "VALUES",
]

COLORS: Final = ("diamond", "heart", "spade", "club")
"""The four card colours, in FreeDoko's order (diamond lowest)."""

VALUES: Final = ("nine", "jack", "queen", "king", "ten", "ace")
"""The six card values, in FreeDoko's order."""

POINTS: Final = {"nine": 0, "jack": 2, "queen": 3, "king": 4, "ten": 10, "ace": 11}
"""What a card of each value counts (FreeDoko's value numbers)."""

GAME_TYPES: Final = (
    "normal",
    "thrown nines", "thrown kings", "thrown nines and kings", "thrown richness",
    "fox highest trump",
    "poverty",
    "genscher",
    "marriage", "marriage solo", "marriage silent",
    "solo meatless",
    "solo jack", "solo queen", "solo king",
    "solo queen-jack", "solo king-jack", "solo king-queen",
    "solo koehler",
    "solo club", "solo heart", "solo spade", "solo diamond",
)
"""Every game type (the second part of a reservation), FreeDoko's order."""

THROWN: Final = ("thrown nines", "thrown kings", "thrown nines and kings", "thrown richness",
                 "fox highest trump")
"""The reservations that throw the cards in (the game is dealt again)."""

MARRIAGES: Final = ("marriage", "marriage solo", "marriage silent")
COLOR_SOLI: Final = ("solo club", "solo heart", "solo spade", "solo diamond")
PICTURE_SOLI: Final = ("solo jack", "solo queen", "solo king", "solo queen-jack",
                       "solo king-jack", "solo king-queen", "solo koehler")
SOLI: Final = ("solo meatless",) + PICTURE_SOLI + COLOR_SOLI + ("marriage solo",)
"""The soli (``marriage solo``: a marriage nobody joined, played alone)."""

MARRIAGE_SELECTORS: Final = (
    "team set", "first foreign", "first trump", "first color", "first club", "first spade",
    "first heart", "silent",
)
"""Which trick decides a marriage (the third part of a ``marriage`` reservation)."""

RESERVATION_FLAGS: Final = ("offer duty solo", "swines", "hyperswines")
"""The optional parts after a reservation's game type (FreeDoko writes only the last two)."""

ANNOUNCEMENTS: Final = (
    "no announcement", "no 120", "no 90", "no 60", "no 30", "no 0",
    "reply",
    "no 120 reply", "no 90 reply", "no 60 reply", "no 30 reply", "no 0 reply",
)
"""Every announcement, FreeDoko's order (``no 120`` is Re or Kontra)."""

ANNOUNCEMENT_REPLIES: Final = ("reply", "no 120 reply", "no 90 reply", "no 60 reply",
                               "no 30 reply", "no 0 reply")
"""The replies: ``reply`` without the rule ``announcement strict limit``, the others with it."""

PLAYER_TYPES: Final = ("local", "network")
"""``local``: the receiving side manages the player; ``network``: the sending side does."""

ACTION_KEYWORDS: Final = (
    "reservation", "marriage", "genscher", "poverty shift", "poverty accepted",
    "poverty returned", "poverty denied", "poverty denied by all", "announcement", "swines",
    "hyperswines", "card played", "trick open", "trick full", "trick taken", "check",
)
"""The keyword of every gameplay action (the text before `` = ``)."""
