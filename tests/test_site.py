"""The rulebook site (docs/site) and the fsm.sphinx directives, without a browser (issue 15)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

from fsm.render.diagrams import machines
from fsm.render.timing_map import matrix
from fsm.rules.catalogue import CLAUSES
from fsm.spec.ruleset import builtin

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "scenarios").glob("*.yaml"))


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_site_has_every_page_in_both_languages(site: Path) -> None:
    """One page per ability kind, procedure, timing (and combination) and library scenario, in ja and en,
    each kind page with its diagram and the scenarios that run it; the search index is built."""
    stems = {d.stem for d in machines() if not d.stem.startswith("sync_")}
    for lang in ("ja", "en"):
        root = site / lang / "generated" / lang
        pages = {p.stem for p in (root / "kinds").glob("*.html")} | {
            p.stem for p in (root / "procedures").glob("*.html")
        }
        assert pages == stems, lang
        assert len(list((root / "timings").glob("*.html"))) == len(matrix(builtin()).rows)
        assert {p.stem for p in (root / "scenarios").glob("*.html")} == {p.stem for p in SCENARIOS}
        action = (root / "kinds" / "kind_action.html").read_text(encoding="utf-8")
        assert 'id="diagram-kind_action"' in action and "_images/fsm-kind_action-" in action
        assert "scenarios/action_fizzles_after_counter.html#scenario-action_fizzles_after_counter" in action
        assert (site / lang / "searchindex.js").stat().st_size > 10_000
    ja = (site / "ja" / "generated" / "ja" / "kinds" / "kind_action.html").read_text(encoding="utf-8")
    assert "条項" in ja and "シナリオ" in ja
    en = (site / "en" / "generated" / "en" / "kinds" / "kind_action.html").read_text(encoding="utf-8")
    assert "Clauses" in en and "条項" not in en


def test_every_clause_has_an_anchor_and_links_back(site: Path) -> None:
    """Clause ↔ diagram ↔ scenario: each catalogue entry has its ID as anchor; ACT-6 lists the
    【行動】 diagram and a scenario that shows it; a scenario links to its clauses' anchors and to
    the diagrams of the machines it ran."""
    for lang in ("ja", "en"):
        page = (site / lang / "generated" / lang / "clauses.html").read_text(encoding="utf-8")
        assert set(CLAUSES) <= _ids(page), sorted(set(CLAUSES) - _ids(page))
        entry = page[page.index('id="ACT-6"') :]
        entry = entry[: entry.index("fsm-clause-entry", 20)]
        assert "kinds/kind_action.html#diagram-kind_action" in entry
        assert "scenarios/action_fizzles_after_counter.html#scenario-" in entry
    page = site / "en" / "generated" / "en" / "scenarios" / "action_fizzles_after_counter.html"
    scenario = page.read_text(encoding="utf-8")
    assert "../clauses.html#ACT-6" in scenario
    diagrams = scenario[scenario.index("Diagrams:") :]
    for target in ("kinds/kind_action.html#diagram-kind_action", "procedures/counter_chain.html#diagram-counter_chain"):
        assert f"../{target}" in diagrams, target


def test_scenario_page_narrates_each_move_with_the_diagram_after_it(site: Path) -> None:
    """TIM-CTR-2, ACT-6: a printed walk-through: each move, each log line with its clause, the
    refused move with the clause that forbids it, and one diagram per move that changes the game."""
    html = (site / "en" / "generated" / "en" / "scenarios" / "action_fizzles_after_counter.html").read_text(
        encoding="utf-8"
    )
    steps = html[html.index('class="fsm-steps') :]
    assert steps.count('class="fsm-step"') == 4  # five entries, one of them a refusal
    assert "refused, as expected" in steps and "TIM-CTR-2" in steps
    assert "fizzles: unit already 行動完了" in steps
    assert steps.index("B: use 足止め") < steps.index("fizzles")


def test_directives_work_in_rst_and_myst(tmp_path: Path) -> None:
    """A writer's own Sphinx project: fsm-machine (one language, no clause IDs), fsm-timings and
    fsm-clauses from reStructuredText, fsm-machine and fsm-scenario from MyST Markdown."""
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "fsm.sphinx"]\nproject = "t"\n', encoding="utf-8")
    (tmp_path / "index.rst").write_text(
        textwrap.dedent(
            """\
            Rules
            =====

            .. toctree::

               walk

            .. fsm-machine:: action
               :lang: en
               :clauses: off
               :caption: The action procedure

            .. fsm-timings::
               :lang: en

            .. fsm-clauses::
               :prefix: ACT
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "action_basics.yaml").write_bytes((REPO / "scenarios" / "action_basics.yaml").read_bytes())
    (tmp_path / "walk.md").write_text(
        textwrap.dedent(
            """\
            # Walk-through

            ```{fsm-machine} counter_chain
            :lang: ja
            ```

            ```{fsm-scenario} action_basics.yaml
            :lang: en
            :diagrams: none
            ```
            """
        ),
        encoding="utf-8",
    )
    out = tmp_path / "_build"
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(tmp_path), str(out)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "<figcaption>The action procedure</figcaption>" in index and 'class="fsm-timing-matrix"' in index
    assert {"ACT-1", "ACT-6"} <= _ids(index) and "COST-1" not in _ids(index)
    image = next(out.glob("_images/fsm-kind_action-*.svg")).read_text(encoding="utf-8")
    assert "unit already" in image and "ACT-6" not in image and "宣言" not in image
    walk = (out / "walk.html").read_text(encoding="utf-8")
    assert "_images/fsm-counter_chain-" in walk and "index.html#ACT-4" in walk


def test_unknown_machine_is_a_warning_naming_the_choices(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text('extensions = ["fsm.sphinx"]\n', encoding="utf-8")
    (tmp_path / "index.rst").write_text("T\n=\n\n.. fsm-machine:: nothing\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(tmp_path), str(tmp_path / "_b")],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert "no machine called 'nothing'; use one of:" in run.stderr and "action" in run.stderr
