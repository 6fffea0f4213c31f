"""Graphviz output: the DOT renderer styled for rules readers (rule terms, clause citations, one
palette), byte-stable ids, and running `dot` with the glyphs embedded."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape as _html_escape
from typing import Any

import pydot
from statemachine import StateChart
from statemachine.contrib.diagram.graphviz import run_graphviz
from statemachine.contrib.diagram.model import (
    DiagramGraph,
    DiagramState,
    DiagramTransition,
)
from statemachine.contrib.diagram.renderers.dot import DotRenderer, DotRendererConfig

from fsm.machines.procedures import Procedure
from fsm.render.fonts import FONT, embed
from fsm.render.graph import (
    OR,
    LabelledState,
    LabelledTransition,
    Taken,
    collapse_inactive,
    describe,
    fold,
    labelled_graph,
    walk_states,
)
from fsm.render.labels import Lang, Term, caption
from fsm.render.styles import Style

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
        # the live view's edges, for a front end that highlights them by id (fsm.render.drawing)
        self.edge_data: list[dict[str, Any]] = []

    def _id(self, name: str) -> dict[str, Any]:
        """An SVG id for the live view's front end to find a state or edge by (printed diagrams keep none)."""
        return {"id": name} if self.live else {}

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
            **self._id(f"s_{state.id}"),
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
            **self._id(f"s_{state.id}"),
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
        ids = [f"t{len(self.edge_data)}_{i}" for i in range(len(transition.targets or [None]))]
        if not transition.is_initial:
            guards = [
                {"guard": gid, "text": f"{self._or(i, transition)}[{g.words(self.lang)}]"}
                for i, (gid, g) in enumerate(zip(transition.guard_ids, transition.guard_terms, strict=True))
            ]
            self.edge_data.append(
                {
                    "ids": ids,
                    "source": transition.source,
                    "targets": list(transition.targets),
                    "events": list(transition.event_ids),
                    "guards": guards,
                }
            )
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
                    **self._id(ids[i]),
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
        self._initials = {s.id for s in walk_states(graph.states) if s.is_initial}
        self._back_sources = {
            t.source for t in graph.transitions if set(t.targets) & self._initials and t.source not in t.targets
        }
        inner = {t.source for t in graph.transitions if not t.is_initial and not t.is_internal}
        self._entry_leaf: dict[str, str] = {}
        self._exit_leaf: dict[str, str] = {}
        for state in walk_states(graph.states):
            if not state.children:
                continue
            leaf = state
            while leaf.children:
                leaf = next((c for c in leaf.children if c.is_initial), leaf.children[0])
            self._entry_leaf[state.id] = leaf.id
            ends = [s.id for s in walk_states(state.children) if not s.children and s.id not in inner]
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

    ``lang`` is a language or a whole :class:`~fsm.render.styles.Style`.  ``taken`` (states left,
    event, states entered) marks the transition just taken; ``checked`` (guard name → held) marks
    what a recheck found.  ``fold_states`` are compound states drawn as one box listing their
    steps (default: the machine's own choice, e.g. the battle's quick-summon and formation steps;
    ``()`` unfolds everything).
    """
    dot, cited, _renderer = _styled(machine, lang, active, live, taken, checked, fold_states)
    return dot, cited


def live_drawing(machine: type[StateChart], lang: Lang, active: Iterable[Any] = ()) -> tuple[str, list[dict[str, Any]]]:
    """The live view's DOT with nothing highlighted (``active`` only chooses which compound states
    are folded), and each edge's ids, source, targets, events and guard texts as drawn: a front
    end lays it out once and marks states and edges by class (fsm/notebook/front/highlight.js)."""
    dot, _cited, renderer = _styled(machine, lang, active, True, None, None, None, plain=True)
    return dot, renderer.edge_data


def _styled(
    machine: type[StateChart],
    lang: Lang | Style,
    active: Iterable[Any],
    live: bool,
    taken: Taken | None,
    checked: Mapping[str, bool] | None,
    fold_states: Iterable[str] | None,
    plain: bool = False,
) -> tuple[str, list[str], StyledDotRenderer]:
    st = lang if isinstance(lang, Style) else Style(lang)
    diagram = describe(machine)
    graph, cited = labelled_graph(machine, st.lang, active, st.clauses)
    graph.name = diagram.stem
    if live:
        collapse_inactive(graph)
    else:
        default = diagram.print_folded if st.printed and diagram.print_folded is not None else diagram.folded
        fold(graph, default if fold_states is None else fold_states)
    if plain:  # the highlight is the front end's: every state drawn as if inactive
        for state in walk_states(graph.states):
            state.is_active = False
    renderer = StyledDotRenderer(st, diagram.rankdir, live, taken, checked)
    dot = renderer.render(graph)
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
            notes = [diagram.summary.en, *notes]
        heading = _title_label(diagram.title, st, notes=notes)
    dot.set("label", heading)
    return _stable_ids(dot.to_string()), cited, renderer


_CLUSTER = r'<g id="[^"]+" class="cluster">\n.*?</g>\n'  # a cluster's group holds no other group
_CLUSTERS = re.compile(f"(?:{_CLUSTER})+", re.S)
_GRAPH = re.compile(r"^(?:strict\s+)?(?:di)?graph\b", re.M)
_TITLE = re.compile(r"<title>(.*?)</title>")


def _clusters_in_order(svg: str, source: str) -> str:
    """Graphviz 2.43 writes a graph's clusters in an order that changes from run to run on the same
    input (their places do not): write each run of them in the order the DOT declares them, which
    is parents first, so the same graph gives the same SVG bytes (the site's scenario pages, the
    step-through cache).  The order is read from the source, not from Graphviz's ``clustN`` ids,
    because a cluster given an ``id`` (the live views) is written under that id instead."""
    graphs = [source[m.start() :] for m in _GRAPH.finditer(source)] or [source]

    def in_graph(doc: str, dot: str) -> str:
        def place(block: str) -> tuple[int, str]:
            title = html.unescape(found[1]) if (found := _TITLE.search(block)) else ""
            at = dot.find(f"subgraph {title} ")
            return (at if at >= 0 else len(dot), title)

        return _CLUSTERS.sub(lambda run: "".join(sorted(re.findall(_CLUSTER, run[0], re.S), key=place)), doc)

    head, *docs = svg.split("<svg ")
    return "<svg ".join([head, *(in_graph(doc, graphs[min(i, len(graphs) - 1)]) for i, doc in enumerate(docs))])


def run_dot(source: str, fmt: str, dpi: int | None = None, embed_fonts: bool = True) -> bytes:
    """Graphviz output, reproducible: no version comment; SVG with its glyphs embedded.

    ``pdf`` is Graphviz's cairo PDF, which embeds the subset of every font it uses; ``dpi``
    sets a PNG's resolution (Graphviz draws 96 dots per inch by default).
    """
    if dpi is not None and fmt == "png":
        source = source.replace("{", f"{{\ndpi={int(dpi)};", 1)
    out = run_graphviz(source, fmt)
    if fmt == "svg":
        text = _clusters_in_order(_VERSION_COMMENT.sub("", out.decode("utf-8")), source)
        out = (embed(text) if embed_fonts else text).encode("utf-8")
    return out
