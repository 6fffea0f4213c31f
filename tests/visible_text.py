"""What a reader sees, as text, and the words in it that are not in the page's language (issue 27).

* :func:`html_text` — the visible text of an HTML page or fragment: no ``<script>``, ``<style>``,
  ``<head>``, tooltips or SVG ``<title>``; code (``<code>``, ``<pre>``, ``<kbd>``) is not prose and
  is left out too;
* :func:`step_through_text` — everything the step-through shows: the one place that knows the
  widget's parts, so a new front end needs only this function changed;
* :func:`foreign` — the Latin words of Japanese text (or the Japanese of English text) outside an
  allowlist: clause IDs, names from the files, the move language's keywords.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml

from fsm.rules.catalogue import CLAUSES
from fsm.rules.variants import SPECS, value_word
from fsm.table.moves import JA_SLOTS, JA_VERBS, VERBS

REPO = Path(__file__).resolve().parents[1]
_SKIPPED = {"script", "style", "head", "code", "pre", "kbd", "title", "desc", "template"}
_VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "source", "col", "area", "base", "use", "path"}
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z0-9]+)*")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
CLAUSE_ID = re.compile(r"\b[A-Z]+(?:-[A-Z0-9]+)+\b")

#: The move language (docs/scenarios.md, fsm.table.moves): its verbs and prepositions, wherever a move is quoted.
MOVE_WORDS = {*VERBS, "by", "of", "with", "to", "on"}
#: Words that are the same in both languages on purpose: the project's name, the tools it names, and
#: the language switch, which names the other language in that language.
BILINGUAL = {
    "English",
    "JavaScript",
    "fsm",
    "Sphinx",
    "Graphviz",
    "Jupyter",
    "JupyterLab",
    "Python",
    "YAML",
    "TOML",
    "PDF",
    "SVG",
    "PNG",
}
#: Japanese an English reader sees on purpose besides the rule terms: the language switch, a column head,
#: 限定 (the English titles' word for [反撃：…限定] counters).
BILINGUAL_JA = {"日本語", "行動", "限定"}  # 行動: the units table's column for 行動完了 / 行動未完了


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is it hidden?
        self.out: list[str] = []

    def _hidden(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        a = dict(attrs)
        hidden = tag in _SKIPPED or a.get("aria-hidden") == "true" or "hidden" in a
        hidden = hidden or "pre" in (a.get("class") or "").split()  # Sphinx's inline literal
        self.stack.append(hidden)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        return

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self._hidden() and data.strip():
            self.out.append(" ".join(data.split()))


def html_text(html: str) -> list[str]:
    """The visible text runs of ``html``, in document order."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return parser.out


def step_through_text(step: Any) -> list[str]:
    """Every text the step-through shows now, as the page gets it (issue 23's anywidget front end):
    its labels, title and script, the frame shown (header, chain, log lines, move buttons, the typing
    hint), every timeline label and the why-not box.  The one place that knows the front end."""
    out = [*step.widget.words.values(), *html_text(step.widget.title)]
    for line in step.widget.script:
        out += html_text(line)
    shown = step.shown
    for key in ("header", "chain"):
        out += html_text(shown.get(key) or "")
    for line in shown.get("log", []):
        out += html_text(line)
    out += [m["text"] for m in shown.get("moves", [])]
    out.append(shown.get("hint", ""))
    out += [f["label"] for f in step.data]
    out += html_text(step.why_html)
    return [t for t in out if t.strip()]


@cache
def names_from_files() -> frozenset[str]:
    """The names players and designers wrote: units, cards, abilities, geos, players (scenarios/, puzzles/)."""
    names: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in ("units", "cards", "geos", "abilities", "skills") and isinstance(v, dict):
                    names.update(str(x) for x in v)
                if k in ("name", "players", "owner", "geo", "partner", "name_condition"):
                    names.update(str(x) for x in (v if isinstance(v, list) else [v]))
                collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)

    for path in [*(REPO / "scenarios").glob("*.yaml"), *(REPO / "puzzles").glob("*.yaml")]:
        text = path.read_text(encoding="utf-8")
        collect(yaml.safe_load(text))
        names.update(re.findall(r"名称：([^\s,.;)）(]+)", text))  # a 名称 condition inside a 代償 part
    return frozenset(names)


@cache
def _latin_names() -> frozenset[str]:
    """The words of the names, and the rule variants' names and values as written in files and on
    the command line (``counters_between_resolutions = true``, ``battle_only``)."""
    variants = {spec.name for spec in SPECS} | {value_word(v) for spec in SPECS for v in spec.choices}
    names = [*names_from_files(), *variants]
    return frozenset(word for name in names for word in LATIN.findall(name))


#: A file or a name written as code in prose: ``notebooks/03_counter_chain.ipynb``, ``nb_self_counter``.
_CODE_LIKE = re.compile(r"[A-Za-z0-9_./-]*[A-Za-z0-9][_./][A-Za-z0-9][A-Za-z0-9_./-]*")


@cache
def _rule_terms() -> tuple[str, ...]:
    """The rules' own Japanese terms (each clause's 用語), longest first, and the names: an English
    page quotes them on purpose, as the cards print them."""
    moves = set(JA_VERBS.values()) | {p for fields in JA_SLOTS.values() for p in fields}  # the move language
    terms = {t for c in CLAUSES.values() for t in c.ja} | set(names_from_files()) | BILINGUAL_JA | moves
    terms |= {t.split("：")[0] for t in terms if "：〜" in t}  # 名称, of 名称：〜
    return tuple(sorted(terms, key=len, reverse=True))


#: Printed terms: 【行動】, [反撃], a 名称 condition (名称：竜), a 代償 part as a card writes it (手札1枚).
_BRACKETED = re.compile(r"【[^】]*】|\[[^\]]*\]|［[^］]*］|名称：[^\s,.;)）]+|[^\s(（]+\d+[枚体]")


def foreign(texts: Iterable[str], lang: str) -> list[str]:
    """The words of ``texts`` not in ``lang``: in Japanese, Latin words outside the allowlist (clause
    IDs, names from the files, the move language, the tools' names); in English, Japanese outside
    the rules' printed terms (【行動】, [反撃], 行動完了, each clause's 用語) and the names."""
    found: list[str] = []
    for text in texts:
        if lang == "ja":
            words = LATIN.findall(_CODE_LIKE.sub(" ", text))
            found += [w for w in words if not _allowed_latin(w)]
            continue
        rest = _BRACKETED.sub(" ", text)
        for term in _rule_terms():
            rest = rest.replace(term, " ")
        found += JAPANESE.findall(rest)
    return found


def _allowed_latin(word: str) -> bool:
    return (
        word in CLAUSES
        or CLAUSE_ID.fullmatch(word) is not None
        or word in MOVE_WORDS
        or word in BILINGUAL
        or word in _latin_names()
        or len(word) == 1  # a player (A, B), a die face, a unit of measure
    )
