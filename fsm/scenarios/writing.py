"""Writing a line of play back as a scenario file: the set-up of the file it came from, the moves,
and a goal as the ``expect:`` that ``fsm run`` checks (``fsm check --write``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from fsm.scenarios.goals import Goal

#: Keys of the source file that are not carried over: the moves and expectations are the line's and
#: the goal's, and ``clauses:`` would claim checks that the goal may not make.
DROPPED = ("moves", "expect", "clauses", "puzzle", "goals", "notes", "notes_ja")


def scenario_text(
    data: Mapping[str, Any],
    moves: list[Any],
    goal: Goal,
    title: str,
    notes: str,
    variants: Mapping[str, Any] | None = None,
) -> str:
    """The YAML of a scenario that plays ``moves`` from ``data``'s set-up and expects ``goal``."""
    out: dict[str, Any] = {"title": title, "notes": notes}
    out.update((k, _plain(v)) for k, v in data.items() if k not in DROPPED and k not in out)
    out.pop("title_ja", None)  # the source's Japanese title names another scenario
    if variants:
        out["variants"] = {**out.get("variants", {}), **_plain(variants)}
    out["moves"] = _plain(moves)
    out["expect"] = _plain(goal.expect)
    return yaml.safe_dump(out, allow_unicode=True, sort_keys=False, width=110)


def _plain(value: Any) -> Any:
    """The reader's line-numbered mappings and lists as plain ones (what yaml.safe_dump writes)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
