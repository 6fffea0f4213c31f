"""Write the site's generated pages for one build language (``conf.py`` calls it).

Pages: one per ability kind, per procedure (skill use, attack, speed roll, equip, the counter
chain, the game flow), per timing and named combination, and per library scenario; each is a
few lines of reStructuredText using the ``fsm.sphinx`` directives, so what they show comes from
the rules data and the scenarios themselves.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from fsm.render import diagrams, timing_map
from fsm.render.dot import dot_source
from fsm.render.graph import Diagram
from fsm.render.labels import Lang
from fsm.render.styles import Style
from fsm.scenarios.playing import load
from fsm.spec.ruleset import builtin

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
GENERATED = HERE / "generated"  # one folder per language, so the two builds may run at once


def configure(app: Any, config: Any) -> None:
    """``-D language=ja`` decides everything: the pages' words and the search's word splitter."""
    lang = config.language if config.language in ("ja", "en") else "en"
    config.fsm_lang = lang
    config.html_search_language = lang
    config.exclude_patterns += [f"generated/{other}" for other in ("ja", "en") if other != lang]
    app.tags.add(lang)


def include_language(app: Any, docname: str, source: list[str]) -> None:
    """The index includes this language's table of contents."""
    if docname == "index":
        source[0] = source[0].replace("generated/LANG/", f"generated/{app.config.fsm_lang}/")


def _say(lang: Lang, ja: str, en: str) -> str:
    return ja if lang == "ja" else en


def _heading(text: str, char: str = "=") -> list[str]:
    return [text, char * (2 * len(text)), ""]  # wide enough for full-width characters


def _clauses(ids: list[str]) -> list[str]:
    return [".. fsm-clauses::", f"   :ids: {', '.join(ids)}", "   :brief:", ""] if ids else []


def _machine_page(d: Diagram, lang: Lang, by_stem: dict[str, Diagram]) -> str:
    """A machine's page: its diagram (and its 【同調】 form), then every clause they cite."""
    shown = [d] + ([by_stem[sync]] if (sync := d.stem.replace("kind_", "sync_", 1)) in by_stem else [])
    cited: dict[str, None] = {}
    for one in shown:
        assert one.machine is not None
        cited.update(dict.fromkeys(dot_source(one.machine, Style(lang))[1]))
    lines = _heading(d.title.words(lang))
    if lang == "en":
        lines += [d.summary, ""]
    lines += [f".. fsm-machine:: {d.stem.removeprefix('kind_')}", ""]
    if len(shown) > 1:
        lines += [_say(lang, "【同調】で使うとき:", "Used with 【同調】:"), "", f".. fsm-machine:: {shown[1].stem}", ""]
    lines += _heading(_say(lang, "条項", "Clauses"), "-") + _clauses(list(cited))
    return "\n".join(lines) + "\n"


def _timing_page(row: timing_map.Row, columns: Any, lang: Lang) -> str:
    lines = _heading(row.timing.ja if lang == "ja" else f"{row.timing.ja} {row.timing.en}")
    lines += [_say(lang, "使える場面:", "Where it may be used:"), ""]
    for cell, (when, what) in zip(row.cells, columns, strict=True):
        if cell.use:
            symbol, use = timing_map.USES[cell.use]
            clause = f" (:clause:`{cell.clause}`)" if cell.clause else ""
            lines.append(f"- {symbol} {when.words(lang)} — {what.words(lang)}: {use.words(lang)}{clause}")
    lines += ["", _say(lang, "全体は :doc:`../matrix` を参照。", "The whole picture: :doc:`../matrix`."), ""]
    ids = list(dict.fromkeys([row.timing.clause] + [c.clause for c in row.cells if c.clause]))
    return "\n".join(lines + _heading(_say(lang, "条項", "Clauses"), "-") + _clauses(ids)) + "\n"


def _scenario_page(path: Path) -> str:
    _, data = load(path)
    title = str(data.get("title", path.stem))
    return "\n".join([*_heading(title), f".. fsm-scenario:: /../../scenarios/{path.name}", ""]) + "\n"


def _toc(title: str, entries: list[str]) -> list[str]:
    return [".. toctree::", "   :maxdepth: 1", f"   :caption: {title}", "", *(f"   {e}" for e in entries), ""]


def write_pages(app: Any) -> None:
    lang = app.config.fsm_lang
    rules = builtin()
    out = GENERATED / lang
    shutil.rmtree(out, ignore_errors=True)
    for sub in ("kinds", "procedures", "timings", "scenarios"):
        (out / sub).mkdir(parents=True)
    machines = diagrams.machines(rules)
    by_stem = {d.stem: d for d in machines}
    kinds: list[str] = []
    procedures: list[str] = []
    for d in machines:
        if d.stem.startswith("sync_"):
            continue  # drawn on its kind's page
        spec = getattr(d.machine, "spec", None)
        folder = "kinds" if spec is not None and spec.category == "ability" else "procedures"
        (out / folder / f"{d.stem}.rst").write_text(_machine_page(d, lang, by_stem), encoding="utf-8")
        (kinds if folder == "kinds" else procedures).append(f"{folder}/{d.stem}")
    m = timing_map.matrix(rules)
    timings = []
    for i, row in enumerate(m.rows):
        name = f"timing_{i:02d}_" + re.sub(r"\W+", "_", row.timing.en).strip("_")
        (out / "timings" / f"{name}.rst").write_text(_timing_page(row, m.columns, lang), encoding="utf-8")
        timings.append(f"timings/{name}")
    scenarios = []
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        (out / "scenarios" / f"{path.stem}.rst").write_text(_scenario_page(path), encoding="utf-8")
        scenarios.append(f"scenarios/{path.stem}")
    matrix = _heading(timing_map.TITLE.words(lang)) + [
        ".. fsm-timings::",
        "",
        ".. fsm-timings::",
        "   :as: diagram",
        "",
    ]
    (out / "matrix.rst").write_text("\n".join(matrix), encoding="utf-8")
    clauses = _heading(_say(lang, "条項一覧", "The clause catalogue"))
    clauses += [
        _say(
            lang, "各条項の説明はこのプロジェクト自身の言葉による要約です。", "Each clause in this project's own words."
        ),
        "",
    ]
    (out / "clauses.rst").write_text("\n".join([*clauses, ".. fsm-clauses::", ""]), encoding="utf-8")
    index = [
        *_toc(_say(lang, "特殊能力の種類", "Ability kinds"), [f"generated/{lang}/{k}" for k in kinds]),
        *_toc(_say(lang, "手順", "Procedures"), [f"generated/{lang}/{p}" for p in procedures]),
        *_toc(
            _say(lang, "タイミング", "Timings"),
            [f"generated/{lang}/matrix", *(f"generated/{lang}/{t}" for t in timings)],
        ),
        *_toc(_say(lang, "条項", "Clauses"), [f"generated/{lang}/clauses"]),
        *_toc(_say(lang, "シナリオ", "Scenarios"), [f"generated/{lang}/{s}" for s in scenarios]),
    ]
    (out / "toc.txt").write_text("\n".join(index), encoding="utf-8")  # included by ../index.rst
