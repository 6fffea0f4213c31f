"""A scenario's ``moves:`` as a script a step-through follows: which entry comes next, and
whether the reader has left it (played a move the script does not have next)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fsm.errors import BadInput
from fsm.table.moves import parse


@dataclass(frozen=True)
class ScriptStep:
    """One entry of a scenario's ``moves:``; ``refused`` entries are checks, not moves."""

    text: str
    refused: bool = False
    clause: str = ""


def read_script(moves: Any) -> list[ScriptStep]:
    out = []
    for entry in moves or []:
        if isinstance(entry, Mapping):
            out.append(ScriptStep(str(entry.get("refused", "")), True, str(entry.get("clause", "") or "")))
        else:
            out.append(ScriptStep(str(entry)))
    return out


def same_move(scripted: str, played: str) -> bool:
    """Is the played move (as the engine writes it) the scripted one (which may omit the player)?"""
    try:
        m = parse(scripted)
    except BadInput:
        return False
    return str(m) == played or (not m.player and played.split(":", 1)[-1].strip() == str(m))


@dataclass
class Script:
    steps: list[ScriptStep] = field(default_factory=list)
    pos: int = 0
    off: bool = False  # the reader played a move the script does not have next

    @property
    def done(self) -> bool:
        return self.off or self.pos >= len(self.steps)

    def next_move(self) -> str | None:
        """The next scripted move (refusal checks skipped), unless the reader left the script."""
        if self.off:
            return None
        return next((s.text for s in self.steps[self.pos :] if not s.refused), None)

    def follow(self, played: str) -> None:
        """Advance past the move just played if it is the script's next one, else leave the script."""
        if self.off:
            return
        i = self.pos
        while i < len(self.steps) and self.steps[i].refused:
            i += 1
        if i < len(self.steps) and same_move(self.steps[i].text, played):
            self.pos = i + 1
        else:
            self.off = True
