"""Rule diagrams: every state machine, drawn from the machine itself, labelled for rules readers.

The pipeline is python-statemachine's own: ``extract(machine)`` gives a ``DiagramGraph``,
and its Graphviz and Mermaid renderers draw it.  This module adds what a rules reader needs:

* labels in the words of the rules page, with the clause each step follows (:mod:`fsm.labels`);
* one palette: a green 発動 / resolved, a red dashed 不発 / fizzled and red dashed fizzle
  edges, blue counter-window states, amber for where a live game is now;
* byte-for-byte reproducible files (no memory addresses, no Graphviz version comment).

Entry points:

* :func:`machines` — every machine of a :class:`~fsm.ruleset.Ruleset`: the game flow, the
  counter chain, one procedure per kind (designer kinds included) and each ability kind
  wrapped in 【同調】;
* :func:`write_all` — the files of ``python -m fsm diagrams`` (SVG, PNG, Mermaid, README);
* :func:`render_machine` — one machine, optionally with its current state highlighted;
* :func:`compose` — lay several SVGs out as one (the live picture, :mod:`fsm.live_view`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from functools import lru_cache
from html import escape as _html_escape
from pathlib import Path
from typing import Any

import pydot
from statemachine import StateChart
from statemachine.contrib.diagram.extract import extract
from statemachine.contrib.diagram.graphviz import run_graphviz
from statemachine.contrib.diagram.model import (
    ActionType,
    DiagramAction,
    DiagramGraph,
    DiagramState,
    DiagramTransition,
)
from statemachine.contrib.diagram.renderers.dot import DotRenderer, DotRendererConfig
from statemachine.contrib.diagram.renderers.mermaid import MermaidRenderer, MermaidRendererConfig

from . import timing_map
from .battle import GameFlow
from .catalogue import CLAUSES
from .chain import CounterChain
from .diagram_style import SCREEN, Style
from .errors import BadInput
from .i18n import _
from .kinds import WORDS, KindSpec
from .labels import LANGS, Labeller, Lang, Term, caption, state_term
from .procedures import EVENTLESS_STEPS, Procedure, procedure_class
from .ruleset import Ruleset, builtin
from .svg_fonts import FONT, embed, embed_all

FORMATS = ("svg", "png", "pdf", "mmd")

# The screen palette, by name (tests and notebooks read them); the print one is in fsm.diagram_style.
INK, MUTED, LINE, PAPER = SCREEN.ink, SCREEN.muted, SCREEN.line, SCREEN.paper
STATE_FILL, CLUSTER_FILL, CLUSTER_LINE = SCREEN.state_fill, SCREEN.cluster_fill, SCREEN.cluster_line
GOOD, GOOD_FILL, BAD, BAD_FILL = SCREEN.good, SCREEN.good_fill, SCREEN.bad, SCREEN.bad_fill
WINDOW, WINDOW_FILL = SCREEN.window, SCREEN.window_fill
ACTIVE, ACTIVE_FILL, ACTIVE_PALE = SCREEN.active, SCREEN.active_fill, SCREEN.active_pale

OR = {"ja": "または", "en": "or", "both": "or"}

#: A transition just taken: (states it left, event, states it entered), by state ID.
Taken = tuple[tuple[str, ...], str, tuple[str, ...]]

#: What a state is, for its colour: resolves (good), fizzles (bad), a counter window.
ROLES = {
    "resolved": "good",
    "fizzled": "bad",
    "counter_window": "window",
    "priority_opponent": "window",
    "priority_declarer": "window",
}


# ---------------------------------------------------------------------------------- the model


@dataclass
class LabelledState(DiagramState):
    """A state of the extracted graph, with its rule term and colour role."""

    term: Term = field(default_factory=lambda: Term("", ""))
    role: str = ""
    stays: list[Term] = field(default_factory=list)  # events that keep the machine here
    steps: list[Term] = field(default_factory=list)  # a folded compound state: the steps inside it


@dataclass
class LabelledTransition(DiagramTransition):
    """A transition of the extracted graph, with the rule terms of its event, guards, actions."""

    event_term: Term | None = None
    guard_terms: list[Term] = field(default_factory=list)
    action_terms: list[Term] = field(default_factory=list)
    role: str = ""
    alternatives: bool = False  # the guards are alternatives (any one), not all required
    event_ids: tuple[str, ...] = ()  # the machine's own names, to find the edge a trace took
    guard_ids: list[str] = field(default_factory=list)  # ``!name`` when negated (``unless=``)


@dataclass(frozen=True)
class Diagram:
    """One machine to draw, with what the index says about it."""

    stem: str  # file name without extension
    machine: type[StateChart] | None  # None: the timing map, drawn from timing data (fsm.timing_map)
    title: Term
    summary: str  # one line, for the index
    rankdir: str = "LR"
    note: Term | None = None  # printed under the title, in the diagram's language
    folded: tuple[str, ...] = ()  # compound states drawn as one box listing their steps
    print_folded: tuple[str, ...] | None = None  # the same on paper, if narrower (None: as on screen)


def _class_transitions(states: Iterable[Any]) -> list[Any]:
    """The machine's transitions in the order ``extract`` lists them (depth first)."""
    out: list[Any] = []
    for state in states:
        out.extend(state.transitions)
        out.extend(_class_transitions(state.states))
    return out


def _class_states(states: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for state in states:
        out.append(state)
        out.extend(_class_states(state.states))
    return out


def machine_class(machine: StateChart | type[StateChart]) -> type[StateChart]:
    return machine if isinstance(machine, type) else type(machine)


def _labelled_action(action: DiagramAction, lab: Labeller, text: Any) -> DiagramAction:
    """A state's entry or exit action in rule words."""
    if not lab.known(action.body):
        return action
    return DiagramAction(action.type, text(lab.action(action.body)))


def labelled_graph(
    machine: type[StateChart], lang: Lang = "both", active: Iterable[Any] = (), clauses: bool = True
) -> tuple[DiagramGraph, list[str]]:
    """The machine's ``DiagramGraph`` with rule terms, colour roles and ``active`` marked.

    Returns the graph and the clause IDs its labels cite, in catalogue order.  The plain-text
    labels (``event``, ``guards``, ``actions``) carry the clause IDs unless ``clauses`` is off.
    """

    def text(term: Term) -> str:
        return term.text(lang) if clauses else term.words(lang)

    graph = extract(machine)
    lab = Labeller(machine)
    cited: set[str] = set(dict(lab.spec.clauses).values()) if lab.spec else set()
    active = set(active)
    active_ids = {s.id for s in _class_states(machine.states) if s.value in active}

    def convert(state: DiagramState) -> LabelledState:
        base = {f.name: getattr(state, f.name) for f in fields(DiagramState)}
        base["children"] = [convert(c) for c in state.children]
        base["is_active"] = state.id in active_ids
        # the library words a staying step with Python names; it is worded below, in rule terms
        base["actions"] = [_labelled_action(a, lab, text) for a in state.actions if a.type != ActionType.INTERNAL]
        return LabelledState(**base, term=state_term(state.name), role=ROLES.get(state.id, ""))

    states: list[DiagramState] = [convert(s) for s in graph.states]
    by_id = {s.id: s for s in _walk(states) if isinstance(s, LabelledState)}  # all are, via convert()
    transitions: list[DiagramTransition] = []
    class_transitions = _class_transitions(machine.states)
    assert len(class_transitions) == len(graph.transitions), "extract() and the class disagree"
    for t, ct in zip(graph.transitions, class_transitions, strict=True):
        base = {f.name: getattr(t, f.name) for f in fields(DiagramTransition)}
        if t.is_initial:
            transitions.append(LabelledTransition(**base))
            continue
        # an eventless transition (the machine goes on by itself) reads as the step it takes
        events = [lab.event(str(e.id)) for e in ct.events] or [lab.eventless(ct.target.id)]
        event = Term(" · ".join(e.ja for e in events), " · ".join(e.en for e in events), events[0].clause)
        guards = [lab.guard(g) for g in t.guards]
        actions = [lab.action(str(c.func)) for c in ct.on if not c.is_convention]
        cited.update(x.clause for x in (*events, *guards, *actions) if x.clause)
        base["event"] = text(event)
        base["guards"] = [text(g) for g in guards]
        base["actions"] = [text(a) for a in actions]
        target_role = by_id[t.targets[0]].role if t.targets and t.targets[0] in by_id else ""
        lt = LabelledTransition(
            **base,
            event_term=event,
            guard_terms=guards,
            action_terms=actions,
            role=target_role,
            event_ids=tuple(str(e.id) for e in ct.events) or (EVENTLESS_STEPS.get(ct.target.id, ""),),
            guard_ids=list(t.guards),
        )
        if t.is_internal:
            source = by_id[t.source]
            source.stays.append(event)
            source.stays += [Term(f"[{g.ja}]", f"[{g.en}]", g.clause) for g in guards]
            source.stays += [Term(f"/ {a.ja}", f"/ {a.en}", a.clause) for a in actions]
            # a step that stays in its state reads with its guards and what it does, as an edge would
            said = [text(event), *(f"[{text(g)}]" for g in guards), *(f"/ {text(a)}" for a in actions)]
            source.actions.append(DiagramAction(ActionType.INTERNAL, " ".join(said)))
        transitions.append(lt)
    transitions = _merge_alternatives(transitions)
    if lab.spec is not None:
        cited.update(value.clause for _, value in caption(lab.spec))
    graph.states = states
    graph.transitions = transitions
    return graph, [c for c in CLAUSES if c in cited] + sorted(cited - set(CLAUSES))


def _merge_alternatives(transitions: list[DiagramTransition]) -> list[DiagramTransition]:
    """One edge for parallel transitions that differ only in their guard (the fizzle reasons)."""
    out: list[DiagramTransition] = []
    seen: dict[tuple[Any, ...], LabelledTransition] = {}
    for t in transitions:
        key = (t.source, tuple(t.targets), t.event, tuple(t.actions), t.is_internal)
        first = seen.get(key)
        if isinstance(t, LabelledTransition) and len(t.guards) == 1 and t.event_term is not None:
            if first is not None and len(first.guards) >= 1 and (first.alternatives or len(first.guards) == 1):
                first.guards.append(t.guards[0])
                first.guard_terms.append(t.guard_terms[0])
                first.guard_ids.append(t.guard_ids[0])
                first.alternatives = True
                continue
            seen[key] = t
        out.append(t)
    return out


def collapse_inactive(graph: DiagramGraph) -> DiagramGraph:
    """Fold every compound state the machine is not in into one box (the live view)."""
    return fold(graph, {s.id for s in _walk(graph.states) if s.children and not s.is_active})


def fold(graph: DiagramGraph, ids: Iterable[str]) -> DiagramGraph:
    """Draw these compound states as one box each, which lists the steps inside it."""
    ids = set(ids)
    box: dict[str, str] = {}  # each state drawn inside a folded box → that box
    for state in _walk(graph.states):
        if state.children and state.id in ids:
            for c in _walk(state.children):
                box.setdefault(c.id, state.id)
            if isinstance(state, LabelledState):
                state.steps = [c.term for c in state.children if isinstance(c, LabelledState)]
            state.children = []
    kept = []
    for t in graph.transitions:
        source = box.get(t.source, t.source)
        targets = [box.get(x, x) for x in t.targets]
        if source in targets and (t.source in box or set(t.targets) & box.keys()):
            continue  # between the box's own steps: the box lists them
        # A way into or out of the box from a step inside it is drawn from (to) the box itself.
        t.source, t.targets = source, targets
        kept.append(t)
    graph.transitions = kept
    graph.compound_state_ids = {s.id for s in _walk(graph.states) if s.children}
    graph.bidirectional_compound_ids &= graph.compound_state_ids
    return graph


def _walk(states: Sequence[DiagramState]) -> Iterable[DiagramState]:
    for s in states:
        yield s
        yield from _walk(s.children)


# ---------------------------------------------------------------------------------- Graphviz


def escape(text: str) -> str:
    """HTML-escape for a Graphviz label; brackets too, which Graphviz 2.43 misreads after a tag."""
    return _html_escape(text, quote=False).replace("[", "&#91;").replace("]", "&#93;")


def _rows(*cells: str) -> str:
    body = "".join(f"<tr><td>{c}</td></tr>" for c in cells if c)
    return f'<table border="0" cellborder="0" cellspacing="0" cellpadding="1">{body}</table>'


def _words(term: Term, st: Style, size: int, colour: str = "", bold: bool = False) -> list[str]:
    """A term as one or two HTML lines: the Japanese in ink, the English below it in grey."""
    ja, en = escape(term.ja), escape(term.en)
    first = ja if st.lang != "en" else en
    ink = colour or st.palette.ink
    lines = [f'<font point-size="{size}" color="{ink}">{f"<b>{first}</b>" if bold else first}</font>']
    if st.lang == "both" and term.en != term.ja:
        second = max(size - 2, st.sizes.second) if st.printed else size - 2
        lines.append(f'<font point-size="{second}" color="{st.palette.muted}">{en}</font>')
    return lines


def _cite(term: Term, st: Style) -> str:
    if not (term.clause and st.clauses):
        return ""
    return f' <font color="{st.palette.muted}">({escape(term.clause)})</font>'


def _inline(term: Term, st: Style, colour: str = "") -> str:
    return f'<font color="{colour or st.palette.ink}">{escape(term.words(st.lang))}</font>{_cite(term, st)}'


class StyledDotRenderer(DotRenderer):
    """python-statemachine's DOT renderer, with rule labels and the palette."""

    def __init__(
        self,
        style: Style | None = None,
        rankdir: str = "LR",
        live: bool = False,
        taken: Taken | None = None,
        checked: Mapping[str, bool] | None = None,
    ) -> None:
        style = style or Style()
        pal, size = style.palette, style.sizes
        super().__init__(
            DotRendererConfig(
                graph_rankdir=rankdir,
                font_name=FONT,
                state_font_size=str(size.state),
                transition_font_size=str(size.edge),
                state_active_fillcolor=pal.active_fill,
                graph_attrs={
                    "bgcolor": pal.paper,
                    "fontcolor": pal.ink,
                    "labelloc": "t",
                    "labeljust": "l",
                    "nodesep": "0.2" if live else "0.25",
                    "ranksep": "0.2" if live else "0.35",
                    "pad": "0.15",
                    "splines": "spline",
                },
                node_attrs={"color": pal.line, "fontcolor": pal.ink},
                edge_attrs={"color": pal.line, "fontcolor": pal.ink, "arrowsize": "0.7", "penwidth": "1.2"},
            )
        )
        self.style = style
        self.lang = style.lang
        self.live = live  # the notebook view: labels without clause IDs and actions, tighter
        self.taken = taken  # the transition just taken, drawn thick in amber
        self.checked = dict(checked or {})  # at a recheck: guard name → did it hold

    def _is_taken(self, t: LabelledTransition) -> bool:
        if self.taken is None or t.is_initial:
            return False
        sources, event, targets = self.taken
        return event in t.event_ids and t.source in sources and bool(set(t.targets) & set(targets))

    def _create_initial_node(self, node_id: str) -> pydot.Node:
        node = super()._create_initial_node(node_id)
        node.set("fillcolor", self.style.palette.ink)
        node.set("color", self.style.palette.ink)
        return node

    def _render_initial_arrow(
        self, initial_state: DiagramState, parent_graph: pydot.Dot | pydot.Subgraph, atomic_subgraph: pydot.Subgraph
    ) -> bool:
        # A compound state's start inside another one needs no marker of its own: edges into
        # the outer state already go to the inner one's first step, where its own marker is.
        if initial_state.children and not isinstance(parent_graph, pydot.Dot):
            return False
        return super()._render_initial_arrow(initial_state, parent_graph, atomic_subgraph)

    def _create_atomic_node(self, state: DiagramState) -> pydot.Node:
        assert isinstance(state, LabelledState)
        st, pal = self.style, self.style.palette
        colour, fill = pal.role(state.role)
        cells = _words(state.term, st, st.sizes.state, bold=True)
        for step in state.steps if not self.live else ():  # the live view folds to save room
            cells.append(
                f'<font point-size="{st.sizes.small}" color="{pal.muted}">{escape(step.words(st.lang))}</font>'
            )
        for stay in state.stays:
            text = escape(stay.words(self.lang)) if self.live else _inline(stay, st, pal.muted)
            cells.append(f'<font point-size="{st.sizes.small}" color="{pal.muted}">{text}</font>')
        style = "rounded,filled" + (",dashed" if state.role == "bad" else "")
        # In print a resolution is told by a heavier border, not by its green.
        penwidth = "2.5" if st.printed and state.role == "good" else "1.5"
        if state.is_active:
            colour, fill, penwidth = pal.active, pal.active_fill, "3"
        return pydot.Node(
            state.id,
            label=f"<{_rows(*cells)}>",
            shape="rectangle",
            style=style,
            color=colour,
            fillcolor=fill,
            penwidth=penwidth,
            margin="0.12,0.04",
            peripheries=2 if state.type.value == "final" else 1,
        )

    def _create_compound_subgraph(self, state: DiagramState) -> pydot.Subgraph:
        assert isinstance(state, LabelledState)
        pal = self.style.palette
        colour, fill, penwidth = (
            (pal.active, pal.active_pale, "2.5") if state.is_active else (pal.cluster_line, pal.cluster_fill, "1.2")
        )
        cells = _words(state.term, self.style, self.style.sizes.state, bold=True)
        return pydot.Subgraph(
            graph_name=f"cluster_{state.id}",
            label=f"<{_rows(*cells)}>",
            style="rounded,filled",
            fillcolor=fill,
            color=colour,
            cluster="true",
            penwidth=penwidth,
            fontname=FONT,
            margin="8",
        )

    def _create_edges(self, transition: DiagramTransition) -> list[pydot.Edge]:
        assert isinstance(transition, LabelledTransition)
        pal = self.style.palette
        colour = {"good": pal.good, "bad": pal.bad}.get(transition.role, pal.line)
        taken = self._is_taken(transition)
        edges = []
        for i, target in enumerate(transition.targets or [None]):
            src, dst, extra = self._resolve_edge_endpoints(transition, target)
            label = "label"
            if target in self._initials and target != transition.source:
                # A way back to where the machine starts is laid out as a forward edge drawn
                # backwards, so it does not push the start below the rest.
                src, dst = dst, src
                extra = {{"ltail": "lhead", "lhead": "ltail"}[k]: v for k, v in extra.items()}
                extra["dir"] = "back"
            elif target == transition.source and target in self._back_sources:
                # That way back runs down the east side: keep the loop on the west, its label
                # placed where it overlaps nothing.
                extra.update(tailport="s", headport="w")
                label = "xlabel"
            # Any: a ** key could also fill pydot.Edge's obj_dict parameter, so mypy wants values that fit it.
            text: dict[str, Any] = {label: self._edge_label(transition, colour) if i == 0 else ""}
            edges.append(
                pydot.Edge(
                    src,
                    dst,
                    **text,
                    minlen=2 if extra.keys() & {"ltail", "lhead"} else 1,
                    color=pal.active if taken else colour,
                    style="dashed" if transition.role == "bad" and not taken else "solid",
                    penwidth="3.5" if taken else ("2.2" if self.style.printed else "1.6") if transition.role else "1.2",
                    **extra,
                )
            )
        return edges

    def _state_node_id(self, state_id: str) -> str:
        return self._entry_leaf.get(state_id, state_id)

    def _resolve_edge_endpoints(
        self, transition: DiagramTransition, target_id: str | None
    ) -> tuple[str, str, dict[str, Any]]:
        # An edge out of a compound state leaves the cluster's border from its last step; an
        # edge into one goes to the step it starts in: the flow reads from top to bottom.
        src, dst, extra = super()._resolve_edge_endpoints(transition, target_id)
        extra.pop("lhead", None)
        dst = self._entry_leaf.get(target_id or "", dst)
        if transition.source != target_id:
            src = self._exit_leaf.get(transition.source, src)
        return src, dst, extra

    def _create_compound_anchor_nodes(self, state: DiagramState) -> list[pydot.Node]:
        return []  # edges use the first and last steps instead (see _resolve_edge_endpoints)

    def render(self, graph: DiagramGraph) -> pydot.Dot:
        self._initials = {s.id for s in _walk(graph.states) if s.is_initial}
        self._back_sources = {
            t.source for t in graph.transitions if set(t.targets) & self._initials and t.source not in t.targets
        }
        inner = {t.source for t in graph.transitions if not t.is_initial and not t.is_internal}
        self._entry_leaf: dict[str, str] = {}
        self._exit_leaf: dict[str, str] = {}
        for state in _walk(graph.states):
            if not state.children:
                continue
            leaf = state
            while leaf.children:
                leaf = next((c for c in leaf.children if c.is_initial), leaf.children[0])
            self._entry_leaf[state.id] = leaf.id
            ends = [s.id for s in _walk(state.children) if not s.children and s.id not in inner]
            self._exit_leaf[state.id] = ends[-1] if ends else leaf.id
        return super().render(graph)

    def _or(self, index: int, t: LabelledTransition) -> str:
        return f"{OR[self.lang]} " if index and t.alternatives else ""

    def _checked_guard(self, gid: str, text: str, ink: str) -> str:
        """A guard as the recheck found it: ○ held, × failed (bold red), a fizzle reason in red when it applied."""
        pal = self.style.palette
        name = gid.removeprefix("!")
        if name not in self.checked:
            return f'<font color="{ink}">{text}</font>'
        failed = not self.checked[name]
        if gid.startswith("!"):  # a fizzle reason: it applies exactly when the check failed
            applied = f'<b><font color="{pal.bad}">● {text}</font></b>'
            return applied if failed else f'<font color="{pal.muted}">{text}</font>'
        if failed:
            return f'<b><font color="{pal.bad}">× {text}</font></b>'
        return f'<font color="{pal.good}">○ {text}</font>'

    def _edge_label(self, t: LabelledTransition, colour: str) -> str:
        if t.event_term is None:
            return ""
        st, pal = self.style, self.style.palette
        ink = colour if colour != pal.line else pal.ink
        if self.live:
            event = f'<b><font color="{ink}">{escape(t.event_term.words(self.lang))}</font></b>'
            guards = [
                self._checked_guard(gid, f"{self._or(i, t)}&#91;{escape(g.words(self.lang))}&#93;", ink)
                for i, (gid, g) in enumerate(zip(t.guard_ids, t.guard_terms, strict=True))
            ]
            return f"<{_rows(event, *guards)}>"
        # In print the clauses of an edge are cited once, on a line of their own: narrower.
        cite = Style(st.lang, False, True) if st.printed else st
        lines = [f"<b>{_inline(t.event_term, cite, ink)}</b>"]
        lines += [f"{self._or(i, t)}&#91;{_inline(g, cite, ink)}&#93;" for i, g in enumerate(t.guard_terms)]
        lines += [f'<font color="{pal.muted}">/</font> {_inline(a, cite)}' for a in t.action_terms]
        cited = dict.fromkeys(x.clause for x in (t.event_term, *t.guard_terms, *t.action_terms) if x.clause)
        if st.printed and st.clauses and cited:
            lines.append(f'<font color="{pal.muted}">({escape(", ".join(cited))})</font>')
        body = "".join(f'<tr><td align="left">{line}</td></tr>' for line in lines)
        return f'<<table border="0" cellborder="0" cellspacing="0" cellpadding="1">{body}</table>>'


def _title_label(
    title: Term, st: Style, rows: Sequence[tuple[Term, Term]] = (), notes: Sequence[str] = (), size: int = 0
) -> str:
    """The graph's heading: title, then what the kind is (a small two-column table), then notes."""
    small, muted = st.sizes.small if st.printed else 9, st.palette.muted
    cells = [f"<tr><td align='left'>{c}</td></tr>" for c in _words(title, st, size or st.sizes.title, bold=True)]
    if rows:
        body = "".join(
            f'<tr><td align="left"><font point-size="{small}" color="{muted}">{escape(k.words(st.lang))}</font></td>'
            f'<td align="left"><font point-size="{small}">{_inline(v, st)}</font></td></tr>'
            for k, v in rows
        )
        pad = 3 if st.printed else 1  # larger type needs the room between heading and value
        table = f'<table border="0" cellborder="0" cellspacing="0" cellpadding="{pad}">{body}</table>'
        cells.append(f"<tr><td align='left'>{table}</td></tr>")
    for note in notes:
        cells.append(f'<tr><td align="left"><font point-size="{small}" color="{muted}">{escape(note)}</font></td></tr>')
    return f'<<table border="0" cellborder="0" cellspacing="0" cellpadding="1">{"".join(cells)}</table>>'


_MEMORY_IDS = re.compile(r"(__initial_|cluster___atomic_)(\d+)")
_VERSION_COMMENT = re.compile(r"<!-- Generated by graphviz[^>]*-->\n")


def _stable_ids(dot_source: str) -> str:
    """Replace the ``id()`` numbers python-statemachine puts in node names by 1, 2, 3..."""
    seen: dict[str, str] = {}
    return _MEMORY_IDS.sub(lambda m: m.group(1) + seen.setdefault(m.group(2), str(len(seen) + 1)), dot_source)


def _wrap(text: str, width: float) -> list[str]:
    """Break a note into lines about ``width`` full-width characters long (Latin letters count half)."""
    lines, line, used = [], "", 0.0
    for word in re.findall(r"\S+\s*|\s+", text) if " " in text else list(text):
        size = sum(1.0 if ord(ch) > 0x2E7F else 0.55 for ch in word)
        if line and used + size > width:
            lines.append(line.rstrip())
            line, used = "", 0.0
        line, used = line + word, used + size
    return [*lines, line.rstrip()] if line.strip() else lines


def dot_source(
    machine: type[StateChart],
    lang: Lang | Style = "both",
    active: Iterable[Any] = (),
    live: bool = False,
    taken: Taken | None = None,
    checked: Mapping[str, bool] | None = None,
    fold_states: Iterable[str] | None = None,
) -> tuple[str, list[str]]:
    """The styled DOT source of a machine, and the clause IDs it cites.

    ``lang`` is a language or a whole :class:`~fsm.diagram_style.Style`.  ``taken`` (states left,
    event, states entered) marks the transition just taken; ``checked`` (guard name → held) marks
    what a recheck found.  ``fold_states`` are compound states drawn as one box listing their
    steps (default: the machine's own choice, e.g. the battle's quick-summon and formation steps;
    ``()`` unfolds everything).
    """
    st = lang if isinstance(lang, Style) else Style(lang)
    diagram = describe(machine)
    graph, cited = labelled_graph(machine, st.lang, active, st.clauses)
    graph.name = diagram.stem
    if live:
        collapse_inactive(graph)
    else:
        default = diagram.print_folded if st.printed and diagram.print_folded is not None else diagram.folded
        fold(graph, default if fold_states is None else fold_states)
    dot = StyledDotRenderer(st, diagram.rankdir, live, taken, checked).render(graph)
    spec = getattr(machine, "spec", None) if issubclass(machine, Procedure) else None
    notes = []
    if diagram.note:  # one line per language
        cite = f" ({diagram.note.clause})" if st.clauses and diagram.note.clause else ""
        notes = [diagram.note.words(one) + cite for one in (("ja", "en") if st.lang == "both" else (st.lang,))]
    if live:  # a small heading only: the notebook shows the rest beside it
        heading = _title_label(diagram.title, st, size=11)
    elif spec is not None:  # what the kind is; its steps are the diagram itself
        heading = _title_label(diagram.title, st, caption(spec))
    else:
        # The one-line summary is for screens; a rulebook has its own caption, and narrow columns.
        if st.printed:
            notes = [line for note in notes for line in _wrap(note, 32)]
        elif st.lang != "ja":
            notes = [diagram.summary, *notes]
        heading = _title_label(diagram.title, st, notes=notes)
    dot.set("label", heading)
    return _stable_ids(dot.to_string()), cited


def run_dot(source: str, fmt: str, dpi: int | None = None, embed_fonts: bool = True) -> bytes:
    """Graphviz output, reproducible: no version comment; SVG with its glyphs embedded.

    ``pdf`` is Graphviz's cairo PDF, which embeds the subset of every font it uses; ``dpi``
    sets a PNG's resolution (Graphviz draws 96 dots per inch by default).
    """
    if dpi is not None and fmt == "png":
        source = source.replace("{", f"{{\ndpi={int(dpi)};", 1)
    out = run_graphviz(source, fmt)
    if fmt == "svg":
        text = _VERSION_COMMENT.sub("", out.decode("utf-8"))
        out = (embed(text) if embed_fonts else text).encode("utf-8")
    return out


# ---------------------------------------------------------------------------------- Mermaid


class StyledMermaidRenderer(MermaidRenderer):
    """python-statemachine's Mermaid renderer, with rule labels, actions and the palette."""

    def __init__(self, rankdir: str = "LR") -> None:
        super().__init__(MermaidRendererConfig(direction=rankdir, active_fill=ACTIVE_FILL, active_stroke=ACTIVE))

    def render(self, graph: DiagramGraph) -> str:
        text = super().render(graph)
        roles = sorted({(s.role, s.id) for s in _walk(graph.states) if isinstance(s, LabelledState) and s.role})
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
    for state in _walk(graph.states):
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


# ---------------------------------------------------------------------------------- what to draw


def describe(machine: type[StateChart]) -> Diagram:
    """File name, title and one-line summary of a machine class."""
    if issubclass(machine, Procedure):
        spec: KindSpec = machine.spec
        start = "activates by itself" if spec.by_itself else "declare"
        window = " → counter window" if spec.opens_window else " (no window)"
        if spec.rechecks:
            end = f"recheck → resolves, or fizzles if: {', '.join(WORDS[r][1] for r in spec.fizzle_if)}"
        else:
            end = "resolves (nothing to recheck: it cannot fizzle)"
        first = "activation" if spec.by_itself else "declaration"
        sync = f"; the 【同調】 partner is checked at {first} and recheck" if spec.sync else ""
        summary = f"{start}{window} → {end}{sync}."
        stem = ("sync_" if spec.sync else "kind_") + re.sub(r"[^\w-]", "_", spec.key.removeprefix("sync_"))
        title = Term(spec.label, f"{'sync ' if spec.sync else ''}{spec.en} procedure")
        return Diagram(stem, machine, title, summary, "TB")
    if issubclass(machine, GameFlow):
        summary = (
            "The main phase and the battle: quick summon, formation, speed determination, "
            "normal timings, battle end, cleanup."
        )
        # The quick-summon and formation steps are listed in their boxes, so the battle's steps
        # fit on half a page; `fsm diagrams --fold battle` folds the whole battle, --fold none nothing.
        folded = ("quick_summon", "formation")
        # On paper the battle is one box listing its steps: with every step's passes and chain ends
        # drawn, it would not fit an A4 column at a readable size.
        return Diagram(
            "game_flow",
            machine,
            Term("ゲームの流れ", "game flow"),
            summary,
            "TB",
            folded=folded,
            print_folded=("battle",),
        )
    if issubclass(machine, CounterChain):
        summary = "The [反撃] window: who may counter, two passes close it, items resolve newest first."
        note = Term(
            "「相手」「宣言者側」は、チェーンで一番新しい項目を宣言したプレイヤーから見た立場",
            "'opponent' and 'declarer' are relative to whoever declared the newest item on the chain",
            "TIM-CTR-2",
        )
        return Diagram("counter_chain", machine, Term("反撃チェーン", "counter chain"), summary, "TB", note=note)
    name = machine.__name__
    return Diagram(re.sub(r"[^\w-]", "_", name), machine, Term(name, name), machine.__doc__ or "")


TIMING_MAP = Diagram(
    "timing_map",
    None,
    timing_map.TITLE,
    "The timing matrix: every timing and named combination, what it may answer, and when "
    "(as an action, a counter or by itself).",
)


def machines(rules: Ruleset | None = None) -> list[Diagram]:
    """Every machine of these rules: flow, chain, each kind, each ability kind in 【同調】."""
    rules = rules or builtin()
    specs = list(rules.kinds.values())
    specs += [spec.with_sync() for spec in rules.kinds.values() if spec.category == "ability"]
    return [describe(GameFlow), describe(CounterChain)] + [describe(procedure_class(s)) for s in specs]


# ---------------------------------------------------------------------------------- rendering


def _check(lang: str, fmt: str) -> None:
    if lang not in LANGS:
        raise BadInput(
            _("unknown language {lang!r}; use one of: {languages}").format(lang=lang, languages=", ".join(LANGS))
        )
    if fmt not in (*FORMATS, "dot"):
        formats = ", ".join((*FORMATS, "dot"))
        raise BadInput(_("unknown format {format!r}; use one of: {formats}").format(format=fmt, formats=formats))


@lru_cache(maxsize=1024)
def _render(
    machine: type[StateChart],
    active: tuple[Any, ...],
    style: Style,
    fmt: str,
    live: bool,
    fold_states: tuple[str, ...] | None = None,
    dpi: int | None = None,
) -> str | bytes:
    if fmt == "mmd":
        return mermaid_source(machine, style.lang, active, style.clauses)
    source, _ = dot_source(machine, style, active, live, fold_states=fold_states)
    if fmt == "dot":
        return source
    out = run_dot(source, fmt, dpi, embed_fonts=not live)
    return out.decode("utf-8") if fmt == "svg" else out


def render_machine(
    machine: StateChart | type[StateChart],
    lang: Lang = "both",
    fmt: str = "svg",
    active: Any = None,
    *,
    clauses: bool = True,
    printed: bool = False,
    fold_states: Iterable[str] | None = None,
    dpi: int | None = None,
) -> str | bytes:
    """One machine as SVG text, PNG or PDF bytes, Mermaid (``mmd``) or DOT text.

    ``active`` is a state value or a collection of them to highlight; by default an instance
    highlights its own current states.  ``clauses`` shows clause IDs, ``printed`` uses the
    print style (:mod:`fsm.diagram_style`), ``fold_states`` as in :func:`dot_source`, ``dpi``
    for PNG.  Cached by all of these.
    """
    _check(lang, fmt)
    if active is None:
        active = () if isinstance(machine, type) else tuple(machine.configuration_values)
    elif isinstance(active, str) or not isinstance(active, Iterable):
        active = (active,)
    folds = None if fold_states is None else tuple(fold_states)
    style = Style(lang, clauses, printed)
    return _render(machine_class(machine), tuple(sorted(map(str, active))), style, fmt, False, folds, dpi)


# ---------------------------------------------------------------------------------- composing


_SVG_ROOT = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')


def _size(svg: str) -> tuple[float, float]:
    m = _SVG_ROOT.search(svg)
    assert m, "Graphviz SVG without a size"
    return float(m.group(1)), float(m.group(2))


def compose(rows: Sequence[Sequence[str]], gap: float = 8.0, width: float = 600.0) -> str:
    """Lay Graphviz SVGs out in rows, as one SVG; a row wider than ``width`` pt is scaled down."""
    parts: list[str] = []
    y = 0.0
    total_w = 0.0
    n = 0
    for row in rows:
        sizes = [_size(s) for s in row]
        natural = sum(w for w, _ in sizes) + gap * (len(row) - 1)
        scale = min(1.0, width / natural)
        x = 0.0
        row_h = 0.0
        for svg, (w, h) in zip(row, sizes, strict=True):
            n += 1
            body = svg[svg.index("<svg") :]
            body = re.sub(r' id="', f' id="p{n}_', body)
            body = _SVG_ROOT.sub(
                f'<svg x="{x:.2f}" y="{y:.2f}" width="{w * scale:.2f}" height="{h * scale:.2f}"', body, count=1
            )
            parts.append(body)
            x += (w + gap) * scale
            row_h = max(row_h, h * scale)
        total_w = max(total_w, x - gap * scale)
        y += row_h + gap
    total_h = y - gap
    return (
        f'<svg width="{total_w:.2f}pt" height="{total_h:.2f}pt" viewBox="0 0 {total_w:.2f} {total_h:.2f}" '
        'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n'
        f'<rect width="100%" height="100%" fill="{PAPER}"/>\n' + "\n".join(parts) + "</svg>\n"
    )


def cache_clear() -> None:
    _render.cache_clear()


# ---------------------------------------------------------------------------------- files

README_MARK = "<!-- generated by `python -m fsm diagrams`: edit fsm/diagrams.py, not this file -->"

LEGEND = """\
How to read them:

- a box is a state, named by its rule term with the English word under it; a double
  border is a final state: green **発動 / resolved**, red dashed **不発 / fizzled**; blue
  boxes are the [反撃] counter window; amber marks where a live game stands (notebooks);
- an arrow reads **event** `[condition]` `/ what happens`, each part with the clause it
  follows; conditions stacked on one arrow must all hold, conditions joined by *or* are
  alternatives: the red dashed arrow into 不発 lists every reason an item fizzles;
- small grey lines under a state's name are events that keep the machine in that state;
- a procedure's heading says what the kind is: when it may be used, its price and when it
  is paid, how often, its targets (from `fsm/data/kinds.toml`, or the designer's file).

- the counter chain's "opponent" and "declarer's side" are seen from whoever declared the
  newest item on the chain (TIM-CTR-2), as its heading says;
- the game flow lists the quick-summon and formation steps inside their boxes;
- the timing matrix has a row per timing and named combination and a column per point of
  the game, grouped by when: ● used on its own, ◆ as a counter, ○ by itself; a clause is
  shown in a cell where it is not the row's own.

The `.mmd` files are the same diagrams as Mermaid source, for pages that render Mermaid. The
SVGs are laid out by Graphviz 2.43 (Debian 12's, which `scripts/setup.sh` installs) with the
IPAexGothic font, whose glyphs each SVG embeds; another Graphviz version may place things
differently.  For print: `python -m fsm diagrams --style print --lang ja --clauses off
--format pdf,png --dpi 300 --out DIR`."""


def _readme(entries: Sequence[tuple[Diagram, list[str]]], formats: Sequence[str], lang: Lang) -> str:
    lines = [
        "# Rule diagrams",
        "",
        README_MARK,
        "",
        "Every state machine of the rules engine, drawn from the machine itself by",
        "python-statemachine's diagram pipeline and labelled with the rules' own terms and clause IDs",
        "(`python -m fsm rules` lists the clauses). Regenerate them after any change to",
        "`fsm/data/kinds.toml`, the procedures, the chain or the game flow:",
        "",
        "```sh",
        "python -m fsm diagrams                  # rewrites this folder: SVG + Mermaid, Japanese + English",
        "python -m fsm diagrams --lang ja --format svg,png --out /tmp/ja   # Japanese only, with PNGs",
        "python -m fsm diagrams --rules designs/rest.toml --out /tmp/d     # plus a designer's kinds",
        "```",
        "",
        "`tests/test_diagrams.py` fails while this folder is out of date, and says so: run the first command.",
        "",
        LEGEND,
        "",
        "| diagram | what it shows | clauses |",
        "| --- | --- | --- |",
    ]
    for d, cited in entries:
        lines.append(f"| [{d.title.words(lang)}](#{d.stem}) | {d.summary} | {', '.join(cited)} |")
    for d, cited in entries:
        lines += ["", f'<a id="{d.stem}"></a>', "", f"## {d.title.words(lang)}", ""]
        if "svg" in formats or "png" in formats:
            image = f"{d.stem}.{'svg' if 'svg' in formats else 'png'}"
            lines += [f"![{d.title.words(lang)}]({image})", ""]
        lines.append(d.summary)
        lines += ["", f"Clauses: {', '.join(cited)}."]
        files = [f"[{d.stem}.{f}]({d.stem}.{f})" for f in FORMATS if f in formats]
        lines += ["", f"Files: {', '.join(files)}."]
    return "\n".join(lines) + "\n"


def parse_folds(text: str) -> tuple[str, ...]:
    """``--fold battle,formation`` as state IDs; ``none`` (or nothing) unfolds every state."""
    return tuple(s.strip() for s in text.split(",") if s.strip() not in ("", "none"))


def parse_formats(text: str) -> tuple[str, ...]:
    formats = tuple(dict.fromkeys(f.strip() for f in text.split(",") if f.strip()))
    for f in formats:
        if f not in FORMATS:
            message = _("unknown format {format!r}; use a comma-separated list of: {formats}")
            raise BadInput(message.format(format=f, formats=", ".join(FORMATS)), "--format")
    if not formats:
        message = _("no format given; use a comma-separated list of: {formats}")
        raise BadInput(message.format(formats=", ".join(FORMATS)), "--format")
    return formats


def write_all(
    out: str | Path = "diagrams",
    lang: Lang = "both",
    formats: Sequence[str] = ("svg", "mmd"),
    rules: Ruleset | None = None,
    *,
    clauses: bool = True,
    printed: bool = False,
    dpi: int | None = None,
    fold_states: Iterable[str] | None = None,
) -> list[Path]:
    """Write every machine's diagram and the index ``README.md`` into ``out``.

    ``clauses``, ``printed`` (the print style), ``dpi`` (PNG) and ``fold_states`` are as in
    :func:`render_machine`.  Files this command wrote before that it no longer writes (a kind
    was removed) are deleted, but only from a folder whose README.md it generated.
    """
    for f in formats:
        _check(lang, f)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    diagrams = machines(rules)

    rules = rules or builtin()
    diagrams.append(TIMING_MAP)

    style = Style(lang, clauses, printed)
    folds = None if fold_states is None else tuple(fold_states)
    compound = sorted({s.id for d in diagrams if d.machine for s in _class_states(d.machine.states) if s.states})
    for name in folds or ():
        if name not in compound:
            message = _("{name!r} is not a compound state; use one of: {states}, or none")
            raise BadInput(message.format(name=name, states=", ".join(compound)), "--fold")

    def one(d: Diagram) -> tuple[list[tuple[Path, bytes]], list[str]]:
        files: list[tuple[Path, bytes]] = []
        if d.machine is None:
            source = timing_map.dot_source(rules, style, FONT)
            mermaid = timing_map.mermaid_source(rules, lang)
            cited = list(
                dict.fromkeys(
                    [t.clause for t in rules.timings.values()] + [c.clause for c in rules.combinations.values()]
                )
            )
        else:
            source, cited = dot_source(d.machine, style, fold_states=folds)
            mermaid = mermaid_source(d.machine, lang, clauses=clauses)
        for fmt in formats:  # SVGs get their glyphs below, all at once
            data = mermaid.encode("utf-8") if fmt == "mmd" else run_dot(source, fmt, dpi, embed_fonts=False)
            files.append((out / f"{d.stem}.{fmt}", data))
        return files, cited

    with ThreadPoolExecutor(max_workers=8) as pool:  # each render is a `dot` process
        results = list(pool.map(one, diagrams))
    svgs = [(files, i) for files, _ in results for i, (path, _) in enumerate(files) if path.suffix == ".svg"]
    embedded = embed_all([files[i][1].decode("utf-8") for files, i in svgs])
    for (files, i), svg in zip(svgs, embedded, strict=True):
        files[i] = (files[i][0], svg.encode("utf-8"))
    readme = out / "README.md"
    written = [path for files, _ in results for path, _ in files] + [readme]
    if readme.exists() and README_MARK in readme.read_text(encoding="utf-8"):
        for old in sorted(out.iterdir()):
            if old.suffix.lstrip(".") in FORMATS and old not in written:
                old.unlink()
    for files, _problems in results:
        for path, data in files:
            path.write_bytes(data)
    entries = [(d, cited) for d, (_, cited) in zip(diagrams, results, strict=True)]
    readme.write_text(_readme(entries, formats, lang), encoding="utf-8")
    return written
