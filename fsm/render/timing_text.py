"""The timing legality table for a terminal: per timing, where it may be used, in 100 columns.

``fsm timings`` prints this by default; ``--wide`` prints the table with a column per point of
the game instead (wider than most terminals).  Japanese characters count as two columns.
Both speak the language chosen (a point, a use); ``--format json`` and ``csv`` keep the data's
English keys.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from fsm.i18n import N_, _, display_width

WIDTH = 100
NEVER = "—"
HEADING = N_("timing")  # the first column's key (fsm.rules.timing.legality_table), a heading in --wide
#: A cell's word (``action (TIM-NORMAL)``): how the timing is used there.
USE_WORDS = {"action": N_("action"), "counter": N_("counter"), "auto": N_("auto")}


def cell_text(cell: str) -> str:
    """``"action (TIM-NORMAL)"`` in the chosen language; the clause stays as it is."""
    word, sep, clause = cell.partition(" ")
    return f"{_(USE_WORDS[word])}{sep}{clause}" if word in USE_WORDS else cell


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
        yield row[name] + ("" if uses else "  " + _("— never usable here"))
        for use, where in uses.items():
            yield from _wrapped(f"  {cell_text(use)}:", [_(p) for p in where], "      ", width)
