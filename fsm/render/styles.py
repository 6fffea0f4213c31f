"""How a diagram looks: on screen (colour) or in print (black and white, larger type).

A :class:`Style` is everything about a rendering that is not the machine itself: the label
language, whether clause IDs are shown, and screen or print.  It is hashable, so renders
are cached by it.

The print style is for rulebooks: every text at least 10 pt once the diagram is scaled to
an A4 column (:data:`A4_COLUMN_PT`), and nothing told by colour alone — a fizzle is dashed,
a resolution drawn heavier, the counter window shaded grey.
"""

from __future__ import annotations

from dataclasses import dataclass

from fsm.render.labels import Lang

#: The width a printed diagram is scaled to: an A4 page (210 mm) less 25 mm margins each side.
A4_COLUMN_PT = 160 / 25.4 * 72  # ≈ 453.5 pt


@dataclass(frozen=True)
class Palette:
    ink: str
    muted: str
    line: str
    paper: str
    state_fill: str
    cluster_fill: str
    cluster_line: str
    good: str
    good_fill: str
    bad: str
    bad_fill: str
    window: str
    window_fill: str
    active: str
    active_fill: str
    active_pale: str

    def role(self, role: str) -> tuple[str, str]:
        """(line, fill) of a state by its role: resolves, fizzles, a counter window, or plain."""
        return {
            "good": (self.good, self.good_fill),
            "bad": (self.bad, self.bad_fill),
            "window": (self.window, self.window_fill),
        }.get(role, (self.line, self.state_fill))


# One palette (slate for structure; green, red, blue, amber for meaning).
SCREEN = Palette(
    ink="#1e293b",
    muted="#64748b",
    line="#475569",
    paper="#ffffff",
    state_fill="#f8fafc",
    cluster_fill="#f1f5f9",
    cluster_line="#94a3b8",
    good="#15803d",
    good_fill="#dcfce7",
    bad="#b91c1c",
    bad_fill="#fee2e2",
    window="#1d4ed8",
    window_fill="#dbeafe",
    active="#b45309",
    active_fill="#fde68a",
    active_pale="#fffbeb",
)

# Black on white; grey only as a second cue (the counter window), never the only one.
PRINT = Palette(
    ink="#000000",
    muted="#404040",
    line="#000000",
    paper="#ffffff",
    state_fill="#ffffff",
    cluster_fill="#ffffff",
    cluster_line="#606060",
    good="#000000",
    good_fill="#ffffff",
    bad="#000000",
    bad_fill="#ffffff",
    window="#000000",
    window_fill="#e0e0e0",
    active="#000000",
    active_fill="#c0c0c0",
    active_pale="#f0f0f0",
)


@dataclass(frozen=True)
class Sizes:
    """Point sizes of the parts of a diagram."""

    title: int
    state: int
    second: int  # the English line under a Japanese name
    edge: int
    small: int  # events that keep a state, a folded state's steps, the heading's table


SCREEN_SIZES = Sizes(title=14, state=11, second=9, edge=9, small=8)
PRINT_SIZES = Sizes(title=18, state=15, second=14, edge=14, small=14)


@dataclass(frozen=True)
class Style:
    """What a rendering shows and how: language, clause IDs, screen or print."""

    lang: Lang = "both"
    clauses: bool = True
    printed: bool = False

    @property
    def palette(self) -> Palette:
        return PRINT if self.printed else SCREEN

    @property
    def sizes(self) -> Sizes:
        return PRINT_SIZES if self.printed else SCREEN_SIZES
