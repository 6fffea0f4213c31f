"""Rule diagrams: every state machine, drawn from the machine itself, labelled for rules readers.

The pipeline is python-statemachine's own: ``extract(machine)`` gives a ``DiagramGraph``,
and its Graphviz and Mermaid renderers draw it.  This module adds what a rules reader needs:

* labels in the words of the rules page, with the clause each step follows (:mod:`fsm.render.labels`);
* one palette: a green 発動 / resolved, a red dashed 不発 / fizzled and red dashed fizzle
  edges, blue counter-window states, amber for where a live game is now;
* byte-for-byte reproducible files (no memory addresses, no Graphviz version comment).

Entry points:

* :func:`machines` — every machine of a :class:`~fsm.spec.ruleset.Ruleset`: the game flow, the
  counter chain, one procedure per kind (designer kinds included) and each ability kind
  wrapped in 【同調】;
* :func:`write_all` — the files of ``python -m fsm diagrams`` (SVG, PNG, Mermaid, README);
* :func:`render_machine` — one machine, optionally with its current state highlighted;
* :func:`compose` — lay several SVGs out as one (the live picture, :mod:`fsm.render.live_view`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from statemachine import StateChart

from fsm.errors import BadInput
from fsm.i18n import _
from fsm.machines.battle import GameFlow
from fsm.machines.chain import CounterChain
from fsm.machines.procedures import procedure_class
from fsm.render import timing_map
from fsm.render.dot import dot_source, run_dot
from fsm.render.graph import FORMATS, PAPER, Diagram, describe, machine_class
from fsm.render.labels import LANGS, Lang, Term
from fsm.render.mermaid import mermaid_source
from fsm.render.styles import Style
from fsm.spec.ruleset import Ruleset, builtin

# ---------------------------------------------------------------------------------- what to draw

TIMING_MAP = Diagram(
    "timing_map",
    None,
    timing_map.TITLE,
    Term(
        "タイミング表: すべてのタイミングと組み合わせが、何に応じて、いつ使えるか（単独で、反撃として、自動で）。",
        "The timing matrix: every timing and named combination, what it may answer, and when "
        "(as an action, a counter or by itself).",
    ),
)


def machines(rules: Ruleset | None = None) -> list[Diagram]:
    """Every machine of these rules: flow, chain, each kind, each ability kind in 【同調】."""
    rules = rules or builtin()
    specs = list(rules.kinds.values())
    specs += [spec.with_sync() for spec in rules.kinds.values() if spec.category == "ability"]
    return [describe(GameFlow), describe(CounterChain)] + [describe(procedure_class(s)) for s in specs]


# ---------------------------------------------------------------------------------- rendering


def check_format(lang: str, fmt: str) -> None:
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
    print style (:mod:`fsm.render.styles`), ``fold_states`` as in :func:`dot_source`, ``dpi``
    for PNG.  Cached by all of these.
    """
    check_format(lang, fmt)
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
