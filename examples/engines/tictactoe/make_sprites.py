"""
Build ``sprites.zip``, the sprites tictactoe's displays use (``x.svg`` and
``o.svg``, referenced by ``{"tag": "image", "href": ...}``), next to this
script.  The zip is committed; run this again only after changing a sprite:

    python3 make_sprites.py

The build is reproducible (stored, not deflated, with fixed dates and
permissions), so the same sprites always give the same bytes.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

SPRITES = {
    "x.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">'
        '<path d="M12 12L68 68M68 12L12 68" stroke="#1d4ed8" stroke-width="10" '
        'stroke-linecap="round"/></svg>\n'
    ),
    "o.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">'
        '<circle cx="40" cy="40" r="28" fill="none" stroke="#dc2626" stroke-width="10"/>'
        '</svg>\n'
    ),
}

ZIP = Path(__file__).resolve().parent / "sprites.zip"


def build() -> bytes:
    """The zip's bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, text in sorted(SPRITES.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3  # Unix, on every platform
            info.external_attr = 0o644 << 16
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def main() -> int:
    ZIP.write_bytes(build())
    print(f"wrote {ZIP} ({', '.join(sorted(SPRITES))})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
