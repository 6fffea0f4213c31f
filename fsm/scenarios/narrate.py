"""Telling what a scenario run did: a readable narrative, or JSON lines for tools.

Both read a :class:`fsm.scenarios.playing.Result`; neither touches the game.  A narrative shows,
move by move, who moved, each log line with the clause it follows, and the states the
machines entered::

    1. A: activate 岩砕き of 岩の巨人 on 水の精
         ACT-4       A declares 【行動】 岩砕き of 岩の巨人 on 水の精   → 【行動】 declared

The JSON form is one object per log line (``"type": "step"``), one per refused-move check
(``"refused"``) and one closing object per scenario (``"result"``).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from functools import cache
from typing import Any

from fsm.engine.narration import LogEntry
from fsm.errors import BadInput
from fsm.i18n import _, display_width, language
from fsm.rules.variants import value_word
from fsm.scenarios.checking import Failure
from fsm.scenarios.playing import Result
from fsm.table.moves import parse

CLAUSE_WIDTH = 13


#: The table-level machines by their rule words (a procedure's own label, e.g. 【行動】, already is one).
MACHINE_WORDS = {"GameFlow": ("ゲームの流れ", "game flow"), "CounterChain": ("反撃チェーン", "counter chain")}


@cache
def _state_names() -> dict[str, str]:
    """Each state ID by the name a rules reader knows (``"priority_opponent"`` → 反撃の優先権：相手 / ...).

    A state ID names the same step in every procedure that has it."""
    from statemachine import StateChart

    from fsm.machines.battle import GameFlow
    from fsm.machines.chain import CounterChain
    from fsm.machines.procedures import procedure_class
    from fsm.spec.ruleset import builtin

    kinds = builtin().kinds.values()  # the kinds share most state IDs, but not all (【自動】 activated)
    machines: list[type[StateChart]] = [GameFlow, CounterChain, *(procedure_class(k) for k in kinds)]
    return {s.id: s.name for m in machines for s in m.states_map.values()}


def entered_words(e: LogEntry, lang: str | None = None) -> str:
    """The machine and the states a log line entered, by their rule terms in ``lang`` (default: the
    language spoken), never by class or state IDs: ``反撃チェーン 反撃の優先権：相手``."""
    if not e.entered:
        return ""
    spoken = language(lang)
    half = 0 if spoken == "ja" else 1  # a state's name is "日本語 / English"
    machine = MACHINE_WORDS[e.machine][half] if e.machine in MACHINE_WORDS else e.machine
    names = [_state_names().get(s, s).split(" / ") for s in e.entered]
    states = " › ".join(name[min(half, len(name) - 1)] for name in names)
    return f"{machine} {states}" if machine else states


def _entered(e: LogEntry) -> str:
    return f"   → {words}" if (words := entered_words(e)) else ""


def _player(move: str) -> str:
    head, sep, _rest = move.partition(":")
    return head.strip() if sep and " " not in head.strip() else ""


def _as_logged(move: str) -> str:
    """The move as the engine logs it (in English), so that a move written in Japanese finds
    its own log line too."""
    try:
        return str(parse(move))
    except BadInput:
        return move


def narrate(result: Result, verbose: bool = True) -> Iterator[str]:
    """The run as text lines: a header, each move and its log, then PASS or FAIL with reasons."""
    yield f"{result.path} — {result.title}"
    yield "  " + _("rule variants: {variants}").format(variants=variants_in_force(result))
    if verbose:
        if result.notes:
            notes = " ".join(result.notes.split())
            lines = wrap_wide(notes, 98) if language() == "ja" else textwrap.wrap(notes, 98)
            yield from ("  " + line for line in lines)
        n = 0
        for move, entries in result.steps:
            if move.startswith("refused "):
                e = entries[0]
                yield "  ✗ " + _("refused as expected: {move}").format(move=move.removeprefix("refused "))
                yield f"       {e.clause:<{CLAUSE_WIDTH}}{e.text.removeprefix('refused: ')}"
                continue
            logged = "" if move == "(set-up)" else _as_logged(move)
            if move == "(set-up)":
                yield "  " + _("set-up")
            else:
                n += 1
                own = next((e.clause for e in entries if e.text == logged), "")
                yield f"  {n}. {move}" + (f"   ({own})" if own else "")
            for e in entries:
                if e.text == logged:  # the move's own line: already the heading
                    continue
                yield f"       {e.clause:<{CLAUSE_WIDTH}}{e.text}{_entered(e)}"
    yield from verdict(result)


#: Where a Japanese line may break: at a space (names stand between spaces) or after 。、）」.
_PIECE = re.compile(r"\s+|[^\s。、）」]+[。、）」]*|[。、）」]+")


def wrap_wide(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` columns (a wide character counts two) for Japanese text, which
    has no spaces between its words: it breaks at a space or after a comma, a full stop or a bracket."""
    lines, line = [], ""
    for piece in _PIECE.findall(text):
        if line.strip() and display_width(line + piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    return [*lines, line.rstrip()] if line.strip() else lines


def variants_in_force(result: Result) -> str:
    """The variants that differ from the defaults, or "all defaults" (`fsm variants` lists them)."""
    changed = result.game.variants.changed()
    words = ", ".join(f"{k}={value_word(v)}" for k, v in changed.items())
    if words:
        return _("{settings} (the rest at their defaults)").format(settings=words)
    return _("all at their defaults (see `fsm variants`)")


def verdict(result: Result) -> Iterator[str]:
    if result.ok:
        yield _("PASS {file}").format(file=result.path)
        return
    yield _("FAIL {file}").format(file=result.path)
    for f in result.failures:
        yield f"  {f}"


def json_lines(result: Result) -> Iterator[dict[str, Any]]:
    """The run as JSON-ready objects, one per log line, closing with the result."""
    n = 0
    for move, entries in result.steps:
        if move.startswith("refused "):
            e = entries[0]
            text = move.removeprefix("refused ")
            yield {
                "type": "refused",
                "file": result.path,
                "move": text,
                "player": _player(text),
                "clause": e.clause,
                "text": e.text.removeprefix("refused: "),
            }
            continue
        if move != "(set-up)":
            n += 1
        for e in entries:
            yield {
                "type": "step",
                "file": result.path,
                "n": n,
                "move": None if move == "(set-up)" else move,
                "player": _player(move),
                "clause": e.clause,
                "text": e.text,
                "machine": e.machine,
                "entered": list(e.entered),
            }
    yield {
        "type": "result",
        "file": result.path,
        "title": result.title,
        "ok": result.ok,
        "failures": [failure_object(f) for f in result.failures],
    }


def failure_object(f: Failure) -> dict[str, str]:
    return {"where": f.where, "message": f.message}
