"""The timing matrix: every timing × what it may answer × when (TIM-*).

Timings are data, not machines, so they get a diagram of their own.  One row per timing of a
:class:`~fsm.spec.ruleset.Ruleset` and per named combination ([通常/反撃] TIM-NC,
[通常/反撃/スピード] TIM-NCS); one column per point of the game (:data:`fsm.rules.timing.POINTS`),
grouped by *when* (main phase, quick summon, formation, speed, normal timing, attack timing,
battle) and headed by *what* the point answers (the dice, an ability, a skill, the attack,
an equip) or whose turn it is.  A cell says how the timing may be used there — on its own
(●), as a counter (◆), or by itself (○) — and the clause that says so when it is not the
row's own.  The cells are the engine's own answers (``Ruleset.legality_table``), so the
matrix cannot disagree with the rules it draws.

Drawn as one Graphviz HTML-like table (no edges, so no labels to cross), and written as an
HTML table, Markdown or CSV (``fsm timings``).  A designer's new timing appears as a row as
soon as its file is loaded.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from html import escape

from fsm.render.labels import Lang, Term
from fsm.render.styles import A4_COLUMN_PT, Style
from fsm.rules.timing import POINTS
from fsm.spec.ruleset import Ruleset

TITLE = Term("タイミング表", "timing matrix")

#: When each point of the game lies, and what it answers (or whose it is).
_MAIN, _QS, _FORM = (
    Term("メインフェイズ", "main phase"),
    Term("速攻召喚", "quick summon"),
    Term("隊列変更", "formation"),
)
_SPEED, _NORMAL = Term("スピード決定", "speed determination"), Term("通常タイミング", "normal timing")
_ATTACK, _BATTLE = Term("攻撃タイミング", "attack timing"), Term("戦闘", "battle")
_OWN, _THEIRS, _ALONE = Term("自軍", "own"), Term("相手軍", "opponent's"), Term("単独", "on its own")
_ABILITY, _SKILL = Term("特殊能力に", "an ability"), Term("スキルに", "a skill")
COLUMNS: dict[str, tuple[Term, Term]] = {
    "own main phase": (_MAIN, _OWN),
    "opponent's main phase": (_MAIN, _THEIRS),
    "quick-summon timing": (_QS, _ALONE),
    "quick-summon timing: answering an equip": (_QS, Term("装備に", "an equip")),
    "formation": (_FORM, _ALONE),
    "speed: answering the dice result": (_SPEED, Term("ダイスの結果に", "the dice result")),
    "speed: answering an ability": (_SPEED, _ABILITY),
    "speed: answering a skill": (_SPEED, _SKILL),
    "own normal timing": (_NORMAL, _OWN),
    "opponent's normal timing": (_NORMAL, _THEIRS),
    "answering an ability": (_NORMAL, _ABILITY),
    "answering a skill": (_NORMAL, _SKILL),
    "attack timing: answering the attack": (_ATTACK, Term("攻撃に", "the attack")),
    "attack timing: answering an ability": (_ATTACK, _ABILITY),
    "attack timing: answering a skill": (_ATTACK, _SKILL),
    "battle start": (_BATTLE, Term("開始時", "start")),
    "battle end": (_BATTLE, Term("終了時", "end")),
}
WHEN = Term("いつ", "when")
WHAT = Term("何に・誰の", "answering / whose")

#: How a timing may be used at a point, as a cell shows it (a symbol, so black and white will do).
USES: dict[str, tuple[str, Term]] = {
    "action": ("●", Term("単独で使用", "used on its own")),
    "counter": ("◆", Term("反撃として使用", "used as a counter")),
    "auto": ("○", Term("自動で発揮", "takes effect by itself")),
}
_CELL = re.compile(r"(\w+) \(([^)]+)\)")


@dataclass(frozen=True)
class Cell:
    use: str  # action / counter / auto, or "" where it may not be used
    clause: str = ""


@dataclass(frozen=True)
class Row:
    timing: Term  # the printed timing ([通常/反撃]), its English, its clause
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Matrix:
    columns: tuple[tuple[Term, Term], ...]  # (when, what) per point, in game order
    rows: tuple[Row, ...]

    def groups(self) -> list[tuple[Term, int]]:
        """The *when* headings and how many columns each spans."""
        out: list[tuple[Term, int]] = []
        for when, _ in self.columns:
            if out and out[-1][0] == when:
                out[-1] = (when, out[-1][1] + 1)
            else:
                out.append((when, 1))
        return out


#: On paper: the text sizes (pt) before the drawing is scaled to an A4 column (160 mm), and the
#: smallest size any text may have once scaled (tests/test_diagram_print.py reads the PDFs).
PRINT_PT, PRINT_SMALL_PT, PRINT_MIN_PT = 14, 12, 10
PRINT_WRAP = 18  # characters of English to a line on paper


def _spans(m: Matrix) -> list[tuple[int, int]]:
    """The columns of each *when* group, as (first, past the last)."""
    out, at = [], 0
    for _, n in m.groups():
        out.append((at, at + n))
        at += n
    return out


def _slice(m: Matrix, lo: int, hi: int) -> Matrix:
    return Matrix(m.columns[lo:hi], tuple(Row(r.timing, r.cells[lo:hi]) for r in m.rows))


def print_parts(rules: Ruleset, style: Style, font: str) -> list[Matrix]:
    """The matrix in parts of whole *when* groups, each part as many groups as fit an A4 column
    with its smallest text at :data:`PRINT_MIN_PT` or more once scaled: laid out by Graphviz to
    measure, since only it knows the font's widths.  A group too wide alone is a part of its own."""
    from fsm.render.dot import run_dot  # the matrix's text needs no dot; measuring it does

    m = matrix(rules)
    widest = A4_COLUMN_PT * PRINT_SMALL_PT / PRINT_MIN_PT

    def width(part: Matrix) -> float:
        # measured on the PDF: cairo's text widths, which a printed page has (an SVG's differ a little)
        pdf = run_dot(dot_source(rules, style, font, part, (9, 9)), "pdf")
        found = re.search(rb"/MediaBox \[ *0 0 ([\d.]+) ", pdf)
        assert found, "dot wrote a PDF without a page size"
        return float(found.group(1))

    spans: list[tuple[int, int]] = []
    for lo, hi in _spans(m):
        if spans and width(_slice(m, spans[-1][0], hi)) <= widest:
            spans[-1] = (spans[-1][0], hi)  # the whole group joins the part
        elif hi - lo == 1 or width(_slice(m, lo, hi)) <= widest:
            spans.append((lo, hi))  # the group starts a part
        else:  # too wide alone: its columns, as many to a part as fit (each part repeats its heading)
            for col in range(lo, hi):
                if col > lo and width(_slice(m, spans[-1][0], col + 1)) <= widest:
                    spans[-1] = (spans[-1][0], col + 1)
                else:
                    spans.append((col, col + 1))
    return [_slice(m, lo, hi) for lo, hi in spans]


def _column(name: str) -> tuple[Term, Term]:
    if name in COLUMNS:
        return COLUMNS[name]
    when, _, what = name.partition(": ")  # a point no heading was written for yet
    return Term(when, when), Term(what or "—", what or "—")


def matrix(rules: Ruleset) -> Matrix:
    """The matrix of these rules, read off the legality table."""
    labels = [Term(t.label, t.en, t.clause) for t in rules.timings.values()]
    for c in rules.combinations.values():
        en = " + ".join(rules.timings[k].en for k in c.timings)
        labels.append(Term(c.label(rules.timings), en, c.clause))
    rows = []
    for label, row in zip(labels, rules.legality_table(), strict=True):
        assert row["timing"] == label.ja, "the legality table lists timings in another order"
        cells = []
        for point in POINTS:
            m = _CELL.fullmatch(row[point.name])
            cells.append(Cell(m.group(1), m.group(2)) if m else Cell(""))
        rows.append(Row(label, tuple(cells)))
    return Matrix(tuple(_column(p.name) for p in POINTS), tuple(rows))


def _shown_clause(row: Row, cell: Cell, clauses: bool) -> str:
    return cell.clause if clauses and cell.use and cell.clause != row.timing.clause else ""


def legend(lang: Lang) -> list[str]:
    return [f"{symbol} {term.words(lang)}" for symbol, term in USES.values()]


# ------------------------------------------------------------------------------- as a diagram


def _escaped(words: str) -> str:
    return escape(words, quote=False).replace("[", "&#91;").replace("]", "&#93;")


def dot_sources(rules: Ruleset, style: Style, font: str) -> list[str]:
    """The matrix as DOT: one graph on screen; on paper (``style.printed``) one per part
    (:func:`print_parts`), each titled with its place, e.g. "タイミング表 (1/4)"."""
    if not style.printed:
        return [dot_source(rules, style, font)]
    parts = print_parts(rules, style, font)
    return [dot_source(rules, style, font, part, (i, len(parts))) for i, part in enumerate(parts, 1)]


def dot_source(
    rules: Ruleset, style: Style, font: str, part: Matrix | None = None, place: tuple[int, int] | None = None
) -> str:
    """DOT text of the matrix (or of one ``part`` of it, the ``place``-th of so many): one HTML-like
    table node (stable: it is the data's order)."""
    m, pal, lang = part or matrix(rules), style.palette, style.lang
    size = PRINT_PT if style.printed else 10
    small = PRINT_SMALL_PT if style.printed else 8

    def text(words: str, pt: int = size, colour: str = pal.ink, bold: bool = False, wrap: bool = True) -> str:
        # on paper English wraps at word breaks (a column is narrow); Japanese terms are short already
        wraps = wrap and style.printed and words.isascii()
        lines = textwrap.wrap(words, PRINT_WRAP, break_on_hyphens=False) if wraps else []
        body = "<br/>".join(_escaped(line) for line in lines) if len(lines) > 1 else _escaped(words)
        return f'<font point-size="{pt}" color="{colour}">{f"<b>{body}</b>" if bold else body}</font>'

    def cell(content: str, fill: str = pal.paper, span: int = 1, align: str = "center") -> str:
        colspan = f' colspan="{span}"' if span > 1 else ""
        return f'<td{colspan} bgcolor="{fill}" align="{align}" balign="{align}">{content}</td>'

    def two(term: Term, pt: int, bold: bool = False) -> str:
        """A heading in one language, or the Japanese over the English."""
        if lang != "both" or term.ja == term.en:
            return text(term.words(lang), pt, pal.ink if bold else pal.muted, bold)
        return text(term.ja, pt, pal.ink if bold else pal.muted, bold) + "<br/>" + text(term.en, small, pal.muted)

    head1 = cell(two(WHEN, size, True), pal.cluster_fill, align="left")
    head1 += "".join(cell(two(w, size, True), pal.cluster_fill, n) for w, n in m.groups())
    head2 = cell(two(WHAT, small), pal.cluster_fill, align="left")
    head2 += "".join(cell(two(what, small), pal.cluster_fill) for _, what in m.columns)
    body = [f"<tr>{head1}</tr>", f"<tr>{head2}</tr>"]
    for row in m.rows:
        name = text(row.timing.ja, bold=True)
        if lang != "ja" and row.timing.en != row.timing.ja:
            name += "<br/>" + text(row.timing.en, small, pal.muted)
        if style.clauses:
            name += "<br/>" + text(f"({row.timing.clause})", small, pal.muted)
        cells = [cell(name, pal.window_fill, align="left")]
        for c in row.cells:
            if not c.use:
                cells.append(cell(text("·", size, pal.muted)))
                continue
            shown = _shown_clause(row, c, style.clauses)
            content = text(USES[c.use][0], size + 2) + (f"<br/>{text(shown, small, pal.muted)}" if shown else "")
            cells.append(cell(content, pal.good_fill if c.use == "action" else pal.state_fill))
        body.append(f"<tr>{''.join(cells)}</tr>")
    table = (
        f'<table border="0" cellborder="1" cellspacing="0" cellpadding="4" color="{pal.cluster_line}">'
        + "".join(body)
        + "</table>"
    )
    title = text(
        TITLE.words(lang) + (f" ({place[0]}/{place[1]})" if place else ""),
        18 if style.printed else 14,
        bold=True,
        wrap=False,
    )
    # on paper one line per symbol, so the key never makes a part wider than its table
    if style.printed:
        key = "".join(text(x, small, pal.muted) + '<br align="left"/>' for x in legend(lang))
    else:
        key = text("   ".join(legend(lang)), small, pal.muted)
    heading = f'<<table border="0" cellborder="0" cellpadding="1"><tr><td align="left">{title}</td></tr>'
    heading += f'<tr><td align="left">{key}</td></tr></table>>'
    return (
        "digraph timing_map {\n"
        f'  graph [fontname="{font}", bgcolor="{pal.paper}", labelloc=t, labeljust=l, pad=0.15, label={heading}];\n'
        f'  node [fontname="{font}", shape=plaintext];\n'
        f"  matrix [label=<{table}>];\n"
        "}\n"
    )


def mermaid_source(rules: Ruleset, lang: Lang) -> str:
    """The matrix for pages that render Mermaid: one box per timing listing where it may be used."""
    m = matrix(rules)
    lines = ["---", f"title: {TITLE.words(lang)}", "---", "flowchart TB"]
    for i, row in enumerate(m.rows):
        uses = [
            f"{USES[c.use][0]} {when.words(lang)}: {what.words(lang)}"
            for c, (when, what) in zip(row.cells, m.columns, strict=True)
            if c.use
        ]
        text = "<br/>".join([f"{row.timing.words(lang)} ({row.timing.clause})", *uses])
        lines.append(f'  t{i}["{text}"]')
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- as a table


def html_table(rules: Ruleset, lang: Lang = "both", clauses: bool = True) -> str:
    """The matrix as an HTML ``<table>`` with a two-row heading (when, then what)."""
    m = matrix(rules)
    head1 = f'<th rowspan="2">{escape(TITLE.words(lang))}</th>' + "".join(
        f'<th colspan="{n}" scope="colgroup">{escape(w.words(lang))}</th>' for w, n in m.groups()
    )
    head2 = "".join(f'<th scope="col">{escape(what.words(lang))}</th>' for _, what in m.columns)
    rows = []
    for row in m.rows:
        name = escape(row.timing.ja if lang == "ja" else f"{row.timing.ja} {row.timing.en}")  # as printed, then
        if clauses:
            name += f' <span class="fsm-clause">({escape(row.timing.clause)})</span>'
        cells = []
        for c in row.cells:
            if not c.use:
                cells.append('<td class="fsm-none">—</td>')
                continue
            symbol, term = USES[c.use]
            shown = _shown_clause(row, c, clauses)
            extra = f' <span class="fsm-clause">{escape(shown)}</span>' if shown else ""
            cells.append(f'<td class="fsm-{c.use}" title="{escape(term.words(lang))}">{symbol}{extra}</td>')
        rows.append(f'<tr><th scope="row">{name}</th>{"".join(cells)}</tr>')
    key = " ".join(escape(x) for x in legend(lang))
    return (
        '<table class="fsm-timing-matrix">\n'
        f"<caption>{key}</caption>\n"
        f"<thead><tr>{head1}</tr><tr>{head2}</tr></thead>\n"
        "<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
    )
