"""Where a game stands, machine by machine: the game flow, the counter chain and the top
link's procedure, each drawn from a :class:`~fsm.machines.trace.Trace` with its current states in
amber, the transition just taken thick in amber and, at a recheck, each condition as it
was found (○ held, × failed, ● the fizzle reason that applied).

* :func:`views` — what to draw for a trace (or for the table as it stands);
* :func:`render` — those views as SVG; renders are cached, and the views a position has
  never been drawn in are drawn together in **one** ``dot`` run;
* :func:`live_svg` — the whole picture as one SVG (the chain stack drawn by hand beside
  the top link's procedure, then the counter chain and the game flow), for a notebook cell.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Protocol

from statemachine import StateChart

from fsm.errors import BadInput
from fsm.i18n import N_, _, display_width
from fsm.machines.chain import CounterChain
from fsm.machines.procedures import GUARDS, procedure_class
from fsm.machines.trace import CHAIN, FLOW, PROCEDURE, Link, Trace, capture
from fsm.render.diagrams import compose
from fsm.render.dot import dot_source, run_dot
from fsm.render.graph import ACTIVE_FILL, INK, MUTED, PAPER, WINDOW, WINDOW_FILL, Taken
from fsm.render.labels import LANGS, Lang, Term
from fsm.spec.kinds import KindSpec
from fsm.table.model import ChainItem, Table


class Game(Protocol):
    """What the live view reads of a game (an :class:`fsm.engine.game.Game`): it never imports the engine."""

    @property
    def table(self) -> Table: ...

    @property
    def flow(self) -> StateChart: ...

    def spec_of(self, item: ChainItem) -> KindSpec: ...

    def _repr_html_(self) -> str: ...


#: The machines a step-through can show, and how the selector names them.
NAMES = {FLOW: N_("flow"), CHAIN: N_("chain"), PROCEDURE: N_("procedure")}  # shown through widget_words.term


@dataclass(frozen=True)
class View:
    """One machine at one instant: hashable, so it keys the render cache."""

    machine: type[StateChart]
    active: tuple[str, ...]
    taken: Taken | None = None
    checked: tuple[tuple[str, bool], ...] = ()  # guard name → held
    lang: Lang = "both"


def now(game: Game) -> Trace:
    """The table as it stands, as a trace with no transition (a start, or a table set up by hand)."""
    return capture(game.table, "", "", ())


def shown_link(trace: Trace) -> Link | None:
    """The link whose procedure to draw: the one that just moved, else the top of the chain."""
    if trace.machine == PROCEDURE and trace.link is not None:
        return next((link for link in reversed(trace.links) if link.seq == trace.link), trace.top)
    return trace.top


def procedure_of(game: Game, link: Link) -> type[StateChart]:
    return procedure_class(game.spec_of(link.item()))


def views(game: Game, trace: Trace, lang: Lang = "both") -> dict[str, View]:
    """The flow, the chain and (while a link is on the chain) its procedure, as ``trace`` has them."""

    def taken(machine: str, entered: tuple[str, ...]) -> Taken | None:
        return (trace.left, trace.event, entered) if trace.machine == machine and trace.event else None

    out = {
        FLOW: View(type(game.flow), trace.flow, taken(FLOW, trace.flow), lang=lang),
        CHAIN: View(CounterChain, (trace.chain,), taken(CHAIN, (trace.chain,)), lang=lang),
    }
    link = shown_link(trace)
    if link is not None:
        moved = trace.machine == PROCEDURE and trace.link == link.seq
        checked = tuple((GUARDS[r], fine) for r, fine in trace.checked) if moved else ()
        out[PROCEDURE] = View(
            procedure_of(game, link), (link.state,), taken(PROCEDURE, (link.state,)) if moved else None, checked, lang
        )
    return out


_CACHE: OrderedDict[View, str] = OrderedDict()
_CACHE_SIZE = 1024
_STATS = {"hits": 0, "misses": 0, "dot_runs": 0}
_LOCK = threading.Lock()  # a kernel may draw from more than one thread (a Sphinx build, a cell)


def render(wanted: Sequence[View]) -> list[str]:
    """SVG of each view; the ones never drawn before are drawn in a single ``dot`` run."""
    with _LOCK:
        found = {v: _CACHE[v] for v in wanted if v in _CACHE}
        missing = [v for v in dict.fromkeys(wanted) if v not in found]
        _STATS["hits"] += len(wanted) - len(missing)
        _STATS["misses"] += len(missing)
        _STATS["dot_runs"] += bool(missing)
    drawn = _draw(missing) if missing else {}
    with _LOCK:
        _CACHE.update(drawn)
        for v in wanted:
            if v in _CACHE:
                _CACHE.move_to_end(v)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return [found[v] if v in found else drawn[v] for v in wanted]


def _draw(views: Sequence[View]) -> dict[View, str]:
    """One ``dot`` run for all of them: Graphviz lays out every graph of its input in turn."""
    sources = [dot_source(v.machine, v.lang, v.active, True, v.taken, dict(v.checked))[0] for v in views]
    out = run_dot("\n".join(sources), "svg", embed_fonts=False).decode("utf-8")  # a screen has the font
    docs = ["<?xml" + part for part in out.split("<?xml")[1:]]
    assert len(docs) == len(views), "dot drew a different number of graphs than it was given"
    return dict(zip(views, docs, strict=True))


def is_drawn(view: View) -> bool:
    with _LOCK:
        return view in _CACHE


def cache_stats() -> dict[str, int]:
    """Hits and misses of the view cache, and how many ``dot`` runs the misses took."""
    return {**_STATS, "size": len(_CACHE)}


def cache_clear() -> None:
    with _LOCK:
        _CACHE.clear()
        for key in _STATS:
            _STATS[key] = 0


def link_label(game: Game, link: Link, lang: Lang = "both") -> str:
    """``#seq label source by unit``, as the stack shows a link (in Japanese: ``#seq label source（unit）``)."""
    table = game.table
    by = table.units[link.unit].name if link.unit in table.units else link.declarer
    card = table.cards.get(link.source)
    spec = game.spec_of(link.item())
    # the attack and the speed dice are their own source: the label says it ([スピード決定])
    source = card.name if card else "" if spec.category in ("attack", "speed_roll") else link.source
    whose = f"（{by}）" if lang == "ja" else f" by {by}"
    return f"#{link.seq} {spec.label}{' ' + source if source else ''}{whose}"


def stack_svg(rows: Sequence[str], lang: Lang) -> str:
    """The chain as a stack, top first, drawn by hand (no ``dot`` run): one box per link."""
    head = Term("チェーン", "chain").words(lang)
    depth = {"ja": f"深さ {len(rows)}", "en": f"depth {len(rows)}", "both": f"深さ depth {len(rows)}"}[lang]
    # a Japanese (wide) character takes two columns of the 11 pt monospaced estimate, a Latin one
    width = max([display_width(head) + 12, *(display_width(r) for r in rows)]) * 6.2 + 24
    line = 24
    parts = [
        f'<text x="6" y="16" font-size="11" font-weight="bold" fill="{INK}">{escape(head)} '
        f'<tspan fill="{MUTED}" font-weight="normal">{escape(depth)}</tspan></text>'
    ]
    for i, row in enumerate(rows):
        y = 24 + i * line
        fill = ACTIVE_FILL if i == 0 else WINDOW_FILL
        box = f'x="4" y="{y}" width="{width - 8:.0f}" height="20" rx="3"'
        parts.append(f'<rect {box} fill="{fill}" stroke="{WINDOW}"/>')
        parts.append(f'<text x="10" y="{y + 14}" font-size="10" fill="{INK}">{escape(row)}</text>')
    height = 28 + len(rows) * line
    return (
        f'<svg width="{width:.2f}pt" height="{height:.2f}pt" viewBox="0 0 {width:.0f} {height}" '
        f'xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="{PAPER}"/>'
        f'<g font-family="IPAexGothic, sans-serif">{"".join(parts)}</g></svg>'
    )


def live_svg(game: Game, lang: Lang = "both") -> str:
    """SVG of where ``game`` stands: the game flow (battle phases it is not in folded into one
    box); while the chain is open, above it the chain as a stack (top first) beside the top
    link's procedure, and the counter-chain machine.  Drawn in at most one ``dot`` run."""
    if lang not in LANGS:
        raise BadInput(
            _("unknown language {lang!r}; use one of: {languages}").format(lang=lang, languages=", ".join(LANGS))
        )
    trace = now(game)
    v = views(game, trace, lang)
    if PROCEDURE not in v:
        return compose([render([v[FLOW]])])
    top, chain, flow = render([v[PROCEDURE], v[CHAIN], v[FLOW]])
    stack = stack_svg([link_label(game, link, lang) for link in reversed(trace.links)], lang)
    return compose([[stack, top], [chain], [flow]])


def live_html(game: Game) -> str:
    """What a Jupyter cell shows for a bare ``game``: who decides and where (the engine's own
    ``_repr_html_``), then :func:`live_svg`."""
    return game._repr_html_() + live_svg(game)
