"""The timing legality table for a terminal: per timing, where it may be used, in 100 columns.

``fsm timings`` prints this by default; ``--wide`` prints the table with a column per point of
the game instead (wider than most terminals).  Japanese characters count as two columns.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence

WIDTH = 100
NEVER = "—"


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _wrapped(head: str, items: list[str], indent: str, width: int) -> Iterator[str]:
    line = head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if display_width(line) + 1 + display_width(piece) > width and line.strip() != head.strip():
            yield line
            line = indent + piece
        else:
            line = f"{line} {piece}" if line else piece
    yield line


def narrow_table(rows: Sequence[Mapping[str, str]], width: int = WIDTH) -> Iterator[str]:
    """One block per timing: its name, then each way it may be used and the points where it may."""
    for row in rows:
        name, *points = row
        uses: dict[str, list[str]] = {}
        for point in points:
            if row[point] != NEVER:
                uses.setdefault(row[point], []).append(point)
        yield row[name] + ("" if uses else "  — never usable here")
        for use, where in uses.items():
            yield from _wrapped(f"  {use}:", where, "      ", width)
