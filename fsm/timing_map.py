"""The timing map: which timing may be used where, drawn from the timing data (TIM-*).

Timings are data, not machines, so they get a diagram of their own: every timing of a
:class:`~fsm.ruleset.Ruleset` on the left, and on the right what it may be used as — an action
at a point of the game ([通常], [ＭＦ]), a counter answering a kind of pending item ([反撃]
and its 限定 forms, with the timing it is limited to), or an automatic effect ([戦闘]).
A designer's new timing (say [反撃：イクイップ限定]) appears here as soon as its file is loaded.
"""

from __future__ import annotations

from .labels import Lang, Term
from .ruleset import Ruleset

#: What a timing can lead to, as the rules page names it.
_POINTS = {
    "own_main": Term("自軍メインフェイズ", "own main phase"),
    "own_normal": Term("自軍の通常タイミング", "own normal timing"),
}
_DURING = {"attack": Term("攻撃タイミング中", "during an attack"), "speed": Term("スピード決定中", "during speed")}
_AUTO = Term("戦闘開始時に発揮・終了時に失効", "takes effect at battle start, lapses at its end")


def _answers(rules: Ruleset, category: str) -> Term:
    kinds = [k for k in rules.kinds.values() if k.category == category]
    ja = "・".join(dict.fromkeys(f"【{k.ja}】" if k.category == "ability" else k.ja for k in kinds)) or category
    return Term(f"{ja}に反撃", f"answers {category.replace('_', ' ')}")


def edges(rules: Ruleset) -> list[tuple[Term, Term, Term | None]]:
    """(timing, what it allows, qualifier) for every use of every timing, in data order."""
    out: list[tuple[Term, Term, Term | None]] = []
    for t in rules.timings.values():
        timing = Term(t.label, t.en, t.clause)
        if t.role == "action":
            out += [(timing, _POINTS[p], None) for p in t.at]
        elif t.role == "counter":
            out += [(timing, _answers(rules, c), _DURING.get(t.during)) for c in t.answers]
        else:
            out.append((timing, _AUTO, None))
    return out


def _node(prefix: str, term: Term, nodes: dict[str, str]) -> str:
    key = prefix + term.ja
    return nodes.setdefault(key, f"{prefix}{len(nodes)}")


def dot_source(rules: Ruleset, lang: Lang, font: str, colours: dict[str, str]) -> str:
    """DOT text of the map (stable: node names are counters, order is the data's)."""
    nodes: dict[str, str] = {}
    labels: dict[str, tuple[str, str]] = {}
    lines = []
    for timing, use, qualifier in edges(rules):
        a, b = _node("t", timing, nodes), _node("u", use, nodes)
        labels[a] = (timing.text(lang), "timing")
        labels[b] = (use.words(lang), "use")
        note = f' [label="{qualifier.words(lang)}"]' if qualifier else ""
        lines.append(f"  {a} -> {b}{note};")
    head = [
        "digraph timing_map {",
        f'  graph [rankdir=LR, fontname="{font}", bgcolor="{colours["paper"]}", nodesep=0.15, ranksep=0.9];',
        f'  node [fontname="{font}", fontsize=10, shape=box, style="rounded,filled", color="{colours["line"]}"];',
        f'  edge [fontname="{font}", fontsize=9, color="{colours["line"]}", fontcolor="{colours["muted"]}"];',
    ]
    for name, (text, role) in labels.items():
        fill = colours["window"] if role == "timing" else colours["state"]
        head.append(f'  {name} [label="{text}", fillcolor="{fill}"];')
    return "\n".join([*head, *lines, "}"]) + "\n"


def mermaid_source(rules: Ruleset, lang: Lang) -> str:
    nodes: dict[str, str] = {}
    lines = ["---", f"title: {Term('タイミング', 'timing map').words(lang)}", "---", "flowchart LR"]
    for timing, use, qualifier in edges(rules):
        a, b = _node("t", timing, nodes), _node("u", use, nodes)
        arrow = f" -->|{qualifier.words(lang)}| " if qualifier else " --> "
        lines.append(f'  {a}["{timing.text(lang)}"]{arrow}{b}["{use.words(lang)}"]')
    return "\n".join(lines) + "\n"
