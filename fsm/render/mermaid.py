"""Mermaid output of the same diagrams, for pages that render Mermaid."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from statemachine import StateChart
from statemachine.contrib.diagram.model import (
    DiagramGraph,
)
from statemachine.contrib.diagram.renderers.mermaid import MermaidRenderer, MermaidRendererConfig

from fsm.render.graph import (
    ACTIVE,
    ACTIVE_FILL,
    INK,
    OR,
    LabelledState,
    LabelledTransition,
    describe,
    labelled_graph,
    walk_states,
)
from fsm.render.labels import Lang
from fsm.render.styles import SCREEN

# ---------------------------------------------------------------------------------- Mermaid


class StyledMermaidRenderer(MermaidRenderer):
    """python-statemachine's Mermaid renderer, with rule labels, actions and the palette."""

    def __init__(self, rankdir: str = "LR") -> None:
        super().__init__(MermaidRendererConfig(direction=rankdir, active_fill=ACTIVE_FILL, active_stroke=ACTIVE))

    def render(self, graph: DiagramGraph) -> str:
        text = super().render(graph)
        roles = sorted({(s.role, s.id) for s in walk_states(graph.states) if isinstance(s, LabelledState) and s.role})
        if not roles:
            return text
        lines = [""]
        for role in sorted({r for r, _kind in roles}):
            colour, fill = SCREEN.role(role)
            dash = ",stroke-dasharray:5 5" if role == "bad" else ""
            lines.append(f"    classDef {role} fill:{fill},stroke:{colour},color:{INK}{dash}")
        lines += [f"    class {sid} {role}" for role, sid in roles]
        return text + "\n".join(lines) + "\n"


def mermaid_source(
    machine: type[StateChart], lang: Lang = "both", active: Iterable[Any] = (), clauses: bool = True
) -> str:
    diagram = describe(machine)
    graph, _ = labelled_graph(machine, lang, active, clauses)
    for state in walk_states(graph.states):
        assert isinstance(state, LabelledState)
        state.name = state.term.words(lang)
    for t in graph.transitions:
        assert isinstance(t, LabelledTransition)
        # One label per edge (Mermaid draws a transition once per source, target and label).
        guards = [f"{OR[lang] + ' ' if i and t.alternatives else ''}[{g}]" for i, g in enumerate(t.guards)]
        t.event = " ".join([t.event, *guards, *(f"/ {a}" for a in t.actions)]).strip()
        t.guards, t.actions = [], []
    head = f"---\ntitle: {diagram.title.words(lang)}\n---\n"
    return head + StyledMermaidRenderer(diagram.rankdir).render(graph)
