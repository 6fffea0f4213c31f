"""Write the site's generated pages for one build language (``conf.py`` calls it).

Pages: one per ability kind, per procedure (skill use, attack, speed roll, equip, the counter
chain, the game flow), per timing and named combination, and per library scenario; each is a
few lines of reStructuredText using the ``fsm.sphinx`` directives, so what they show comes from
the rules data and the scenarios themselves.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

from fsm.render import diagrams, timing_map
from fsm.render.dot import dot_source
from fsm.render.graph import Diagram
from fsm.render.labels import Lang, Term
from fsm.render.styles import Style
from fsm.scenarios.playing import load, prose
from fsm.spec.ruleset import builtin

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
GENERATED = HERE / "generated"  # one folder per language, so the two builds may run at once


def configure(app: Any, config: Any) -> None:
    """``-D language=ja`` decides everything: the pages' words and the search's word splitter."""
    lang = config.language if config.language in ("ja", "en") else "en"
    config.fsm_lang = lang
    config.html_search_language = lang
    config.html_title = _say(lang, "fsm ルールブック", "fsm rulebook")
    config.exclude_patterns += [f"generated/{other}" for other in ("ja", "en") if other != lang]
    app.tags.add(lang)


def include_language(app: Any, docname: str, source: list[str]) -> None:
    """The index includes this language's table of contents."""
    if docname == "index":
        source[0] = source[0].replace("generated/LANG/", f"generated/{app.config.fsm_lang}/")


LANG_NAMES = {"ja": "日本語", "en": "English"}


def page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """The language switch (``_templates/page.html``): the same page in the other build, which sits
    beside this one (``_build/ja``, ``_build/en``) with its generated pages under its own language."""
    here = app.config.fsm_lang
    there = "en" if here == "ja" else "ja"
    page = pagename.replace(f"generated/{here}/", f"generated/{there}/", 1)
    up = "../" * (pagename.count("/") + 1)
    context["fsm_switch"] = {
        "here": here,
        "there": there,
        "here_name": LANG_NAMES[here],
        "there_name": LANG_NAMES[there],
        "url": f"{up}{there}/{page}.html",
        "aria": _say(here, "言語", "Language"),
        "footer": _say(
            here,
            "fsm ルールブック — 条項・図・シナリオは規則データとシナリオ集から生成しています。",
            "fsm rulebook — the clauses, diagrams and scenarios are generated from the rules data and the scenarios.",
        ),
    }


def _say(lang: Lang, ja: str, en: str) -> str:
    return ja if lang == "ja" else en


def _heading(text: str, char: str = "=") -> list[str]:
    return [text, char * (2 * len(text)), ""]  # wide enough for full-width characters


def _clauses(ids: list[str]) -> list[str]:
    return [".. fsm-clauses::", f"   :ids: {', '.join(ids)}", "   :brief:", ""] if ids else []


def try_scenario(kind: str) -> Path | None:
    """The library scenario a kind's page plays in its "try it": one whose name starts with the
    kind's key if there is one, else the first that gives a unit an ability of that kind."""
    uses = re.compile(rf"\bkind:\s*{re.escape(kind)}\b")
    found = [p for p in sorted((ROOT / "scenarios").glob("*.yaml")) if uses.search(p.read_text(encoding="utf-8"))]
    return next((p for p in found if p.stem.startswith(kind)), found[0] if found else None)


def _try(path: Path | None, lang: Lang) -> list[str]:
    if path is None:
        return []
    return [*_heading(_say(lang, "試してみる", "Try it"), "-"), f".. fsm-try:: /../../scenarios/{path.name}", ""]


def _machine_page(d: Diagram, lang: Lang, by_stem: dict[str, Diagram]) -> str:
    """A machine's page: its diagram (and its 【同調】 form), a kind's "try it", then every clause
    they cite."""
    shown = [d] + ([by_stem[sync]] if (sync := d.stem.replace("kind_", "sync_", 1)) in by_stem else [])
    cited: dict[str, None] = {}
    for one in shown:
        assert one.machine is not None
        cited.update(dict.fromkeys(dot_source(one.machine, Style(lang))[1]))
    lines = _heading(d.title.words(lang))
    lines += [d.summary.words(lang), ""]
    lines += [f".. fsm-machine:: {d.stem.removeprefix('kind_')}", ""]
    if len(shown) > 1:
        lines += [_say(lang, "【同調】で使うとき:", "Used with 【同調】:"), "", f".. fsm-machine:: {shown[1].stem}", ""]
    spec = getattr(d.machine, "spec", None)
    if spec is not None and spec.category == "ability":
        lines += _try(try_scenario(spec.key), lang)
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


def _scenario_page(path: Path, lang: Lang) -> str:
    _, data = load(path)
    title = prose(data, "title", lang) or path.stem
    page = [*_heading(title), f".. fsm-scenario:: /../../scenarios/{path.name}", "", *_try(path, lang)]
    return "\n".join(page) + "\n"


def _puzzles_page(lang: Lang) -> str:
    """Every puzzle of ``puzzles/``, proved again as the site is built: its goal, the solver's limit,
    the proof, its clauses and its hint; how to play it."""
    from fsm.explore.puzzle import solve
    from fsm.notebook.puzzle_mode import goal_lines
    from fsm.scenarios.goals import load_puzzle
    from fsm.scenarios.reading import read_yaml

    lines = _heading(_say(lang, "パズル", "Puzzles"))
    lines += [
        _say(
            lang,
            "``puzzles/`` の各ファイルは、盤面・目標・自分の手数の上限からなるパズルです。どれも、相手がどう応じても"
            "解けることをエンジンが証明しています（このページを作るたびに証明し直します）。ノートブック "
            '``06_puzzles.ipynb`` か ``PuzzleStepThrough.from_puzzle("../puzzles/FILE.yaml", lang="ja")`` で遊べます'
            "（相手は自分で応じ、 **確かめる** と **ヒント** のボタンがあります）。"
            "コマンドラインでは ``fsm puzzle FILE``。",
            "Each file of ``puzzles/`` is a puzzle: a table, a goal and a limit on your own moves.  The engine has "
            "proved each one solvable whatever the other side answers (and proves them again whenever this page is "
            "built).  Play them in the notebook ``06_puzzles.ipynb`` or with "
            '``PuzzleStepThrough.from_puzzle("../puzzles/FILE.yaml")`` (the other side answers by itself; there are '
            "**check** and **hint** buttons); on the command line, ``fsm puzzle FILE``.",
        ),
        "",
    ]
    for path in sorted((ROOT / "puzzles").glob("*.yaml")):
        game, puzzle = load_puzzle(path, lang=lang)
        proof = solve(game, puzzle)
        data = read_yaml(path)
        lines += _heading(puzzle.title_text(lang), "-")
        lines += [" ".join(puzzle.notes_text(lang).split()), ""]
        lines += [f"- {_say(lang, '目標', 'Goal')}: " + html.unescape("; ".join(goal_lines(puzzle.goal.expect, lang)))]
        limit = _say(
            lang,
            f"{puzzle.player} が {puzzle.moves} 手以内（パスは数えない）",
            f"{puzzle.player}, in at most {puzzle.moves} move{'s' if puzzle.moves != 1 else ''} (passes are free)",
        )
        lines += [f"- {_say(lang, '解く側', 'Solver')}: {limit}"]
        proved = (
            _say(lang, f"解ける（{proof.tables} 局面を調べた）", f"solvable ({proof.tables} tables searched)")
            if proof.solvable
            else _say(lang, "証明できない", "not proved")
        )
        lines += [f"- {_say(lang, '証明', 'Proof')}: {proved}"]
        cites = " ".join(f":clause:`{c}`" for c in data.get("clauses") or [])
        lines += [
            f"- {_say(lang, '条項', 'Clauses')}: {cites}",
            f"- {_say(lang, 'ファイル', 'File')}: ``puzzles/{path.name}``",
            "",
        ]
        lines += [f".. admonition:: {_say(lang, 'ヒント', 'Hint')}", "", f"   {puzzle.hint_text(lang)}", ""]
    return "\n".join(lines) + "\n"


def _toc(title: str, entries: list[str]) -> list[str]:
    """A section of the sidebar; the landing page shows its own cards instead (:func:`_start`)."""
    return [
        ".. toctree::",
        "   :maxdepth: 1",
        "   :hidden:",
        f"   :caption: {title}",
        "",
        *(f"   {e}" for e in entries),
        "",
    ]


#: The landing page's title and what the site is, per language.
LANDING = {
    "ja": (
        "fsm ルールブック",
        """トレーディングカードゲームのタイミング規則を、状態機械として図と言葉で説明するサイトです。
特殊能力の種類・手順・タイミングごとに、このプロジェクト自身の言葉による条項の要約、
その機械の図、そしてそれを示すシナリオ（一手ずつの解説と、各手の後の図）を載せています。

条項の番号（例 :clause:`ACT-6`）は条項一覧へ、図とシナリオは互いにリンクしています。
はじめての方は、下の「シナリオ」から一つ開いてみてください。""",
        "どこから読むか",
    ),
    "en": (
        "The fsm rulebook",
        """This site explains the timing rules of a Japanese trading-card game as state machines, in
diagrams and words.  For each ability kind, procedure and timing it gives the clauses in this
project's own words, the machine's diagram, and the library scenarios that show it, narrated
move by move with the diagrams after each move.

Clause IDs (such as :clause:`ACT-6`) link to the catalogue; diagrams and scenarios link to
each other.  New here?  Open one of the scenarios below.""",
        "Where to start",
    ),
}


def _landing(lang: Lang) -> list[str]:
    title, about, start = LANDING[lang]
    hero = [".. container:: fsm-hero", "", *(f"   {line}" if line else "" for line in about.splitlines()), ""]
    return [*_heading(title), *hero, *_heading(start, "-")]


#: The landing page's cards: where to start, per section of the site.
CARDS = {
    "kinds": (
        Term("特殊能力の種類", "Ability kinds"),
        Term(
            "種類ごとの手順（宣言 → 反撃受付 → 再確認 → 発動／不発）の図と条項。",
            "Each kind's procedure (declare → counter window → recheck → resolve or fizzle), drawn, with its clauses.",
        ),
    ),
    "procedures": (
        Term("手順", "Procedures"),
        Term(
            "スキルの使用、攻撃、スピード決定、装備、反撃チェーン、ゲームの流れ。",
            "Skill use, the attack, speed determination, equips, the counter chain, the game flow.",
        ),
    ),
    "timings": (
        Term("タイミング", "Timings"),
        Term(
            "どのタイミングがどこで使えるかを一枚にした表と、タイミングごとのページ。",
            "Which timing may be used where, in one table, and a page per timing.",
        ),
    ),
    "clauses": (
        Term("条項一覧", "The clause catalogue"),
        Term(
            "すべての条項を番号ごとに。それを示す図とシナリオへのリンク付き。",
            "Every clause by its ID, with the diagrams and scenarios that show it.",
        ),
    ),
    "scenarios": (
        Term("シナリオ", "Scenarios"),
        Term(
            "一手ずつの解説と、各手の後の図。まずは次の一つから。",
            "Narrated move by move, with the diagrams after each move. Start with this one.",
        ),
    ),
    "puzzles": (
        Term("パズル", "Puzzles"),
        Term(
            "相手がどう応じても解けると証明済みのパズル。目標、手数の上限、ヒント。",
            "Puzzles proved solvable whatever the other side answers: the goal, the limit, a hint.",
        ),
    ),
}


def _start(cards: list[tuple[str, str, list[str]]]) -> list[str]:
    """The landing page's "where to start": one card per section, its heading, a sentence, links."""
    lines = [".. container:: fsm-start", ""]
    for heading, text, links in cards:
        lines += [f"   - **{heading}**", "", f"     {text}", "", "     " + " · ".join(links), ""]
    return lines


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
        (out / "scenarios" / f"{path.stem}.rst").write_text(_scenario_page(path, lang), encoding="utf-8")
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
    listing = _heading(_say(lang, "シナリオ一覧", "The scenarios"))
    listing += [
        _say(
            lang,
            "シナリオ集の各ファイルを一手ずつ解説したページです。",
            "Each file of the scenario library, narrated move by move.",
        ),
        "",
    ]
    listing += [f"- :doc:`{s}`" for s in scenarios] + [""]  # each by its title, in this language
    (out / "scenarios.rst").write_text("\n".join(listing), encoding="utf-8")
    (out / "puzzles.rst").write_text(_puzzles_page(lang), encoding="utf-8")
    here = f"generated/{lang}"

    def ref(doc: str) -> str:
        return f":doc:`/{here}/{doc}`"

    links = {
        "kinds": [ref(k) for k in kinds],
        "procedures": [ref(p) for p in procedures],
        "timings": [ref("matrix")],
        "clauses": [ref("clauses")],
        "scenarios": [ref("scenarios/action_fizzles_after_counter"), ref("scenarios")],
        "puzzles": [ref("puzzles")],
    }
    start = _start([(heading.words(lang), text.words(lang), links[key]) for key, (heading, text) in CARDS.items()])
    index = [
        *_landing(lang),
        *start,
        *_toc(_say(lang, "特殊能力の種類", "Ability kinds"), [f"{here}/{k}" for k in kinds]),
        *_toc(_say(lang, "手順", "Procedures"), [f"{here}/{p}" for p in procedures]),
        *_toc(_say(lang, "タイミング", "Timings"), [f"{here}/matrix", *(f"{here}/{t}" for t in timings)]),
        *_toc(_say(lang, "条項", "Clauses"), [f"{here}/clauses"]),
        *_toc(_say(lang, "シナリオ", "Scenarios"), [f"{here}/scenarios", *(f"{here}/{s}" for s in scenarios)]),
        *_toc(_say(lang, "パズル", "Puzzles"), [f"{here}/puzzles"]),
    ]
    (out / "toc.txt").write_text("\n".join(index), encoding="utf-8")  # included by ../index.rst
