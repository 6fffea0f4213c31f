"""The live view as data, for a front end that lays each machine out once (Graphviz in
WebAssembly, in the page) and then only moves the highlight: :func:`drawing` is a machine's
DOT with nothing highlighted and its edges; :func:`highlight` is where a
:class:`~fsm.render.live_view.View` stands on that drawing.  No ``dot`` runs here.

A drawing's key is a digest of its DOT, so two views that draw the same picture (the same
machine, language and folded states) share one layout in the page.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from statemachine import StateChart

from fsm.render.dot import live_drawing
from fsm.render.labels import Lang
from fsm.render.live_view import View
from fsm.render.styles import SCREEN_SIZES

#: JSON of one drawing: ``{"dot": ..., "edges": [...], "edge_size": points}``.
Drawing = dict[str, Any]


@lru_cache(maxsize=256)
def _drawing(machine: type[StateChart], lang: Lang, unfolded: tuple[str, ...]) -> tuple[str, Drawing]:
    dot, edges = live_drawing(machine, lang, unfolded)
    key = hashlib.sha1(dot.encode("utf-8"), usedforsecurity=False).hexdigest()[:12]
    return key, {"dot": dot, "edges": edges, "edge_size": SCREEN_SIZES.edge}


@lru_cache(maxsize=64)
def _compound(machine: type[StateChart]) -> frozenset[str]:
    return frozenset(s.id for s in machine.states_map.values() if s.states)


def drawing(view: View) -> tuple[str, Drawing]:
    """The key and the drawing of ``view``'s machine: its active states choose only which compound
    states are unfolded, so every view of one machine in one phase shares a single drawing."""
    unfolded = tuple(sorted(_compound(view.machine) & set(view.active)))
    return _drawing(view.machine, view.lang, unfolded)


def phases(machine: type[StateChart]) -> set[tuple[str, ...]]:
    """Every choice of unfolded compound states a view of ``machine`` can make: those above each
    of its states (the machines' compound states nest; none is parallel)."""
    compound = _compound(machine)
    out = set()
    for state in machine.states_map.values():
        above = set()
        at: Any = state
        while at is not None:
            above.add(at.id)
            at = at.parent
        out.add(tuple(sorted(compound & above)))
    return out


def every_drawing(machines: Iterable[type[StateChart]], lang: Lang) -> dict[str, Drawing]:
    """The drawing of each of ``machines`` in each of its phases: all a page may be asked to show."""
    return dict(_drawing(m, lang, unfolded) for m in machines for unfolded in sorted(phases(m)))


def highlight(view: View) -> dict[str, Any]:
    """Where ``view`` stands on its drawing: the current states, the transition just taken
    (states left, event, states entered) and, at a recheck, each guard as found."""
    key, _ = drawing(view)
    taken = [list(view.taken[0]), view.taken[1], list(view.taken[2])] if view.taken else None
    return {"key": key, "active": list(view.active), "taken": taken, "checked": dict(view.checked)}
