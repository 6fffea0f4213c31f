"""Japanese first (issue 27): every word a reader sees is in the page's language.

The Japanese site and the Japanese step-through show no Latin word outside the allowlist of
:mod:`visible_text` (clause IDs, names from the files, the move language); the English ones show
no Japanese outside the rules' own printed terms.  Each failure names the page and the words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from visible_text import REPO, foreign, html_text, step_through_text

from fsm.notebook.step_through import StepThrough

#: Scenarios whose step-throughs together reach every machine, both chains and the whole battle.
STEP_THROUGHS = ("action_fizzles_after_counter", "whole_battle", "speed_counter", "cost_refund_variant",
                 "auto_at_battle_start", "nb_counter_chain")  # fmt: skip


def _leaks(root: Path, lang: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for page in sorted(root.rglob("*.html")):
        words = foreign(html_text(page.read_text(encoding="utf-8")), lang)
        if words:
            found[str(page.relative_to(root))] = sorted(set(words))
    return found


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_site_page_speaks_its_language(site: Path, lang: str) -> None:
    """Every page of the built site (scenarios, kinds, procedures, timings, matrix, catalogue, search,
    index), its visible text scanned word by word: none of the other language is left."""
    pages = list((site / lang).rglob("*.html"))
    assert len(pages) > 80, len(pages)
    leaks = _leaks(site / lang, lang)
    assert not leaks, "\n".join(f"{page}: {', '.join(words[:12])}" for page, words in leaks.items())


def test_the_ja_site_names_scenarios_and_states_in_japanese(site: Path) -> None:
    """The Japanese pages list scenarios by title_ja and narrate in Japanese; the states entered are
    rule terms (反撃の優先権：相手), never class or state IDs, in either language."""
    root = site / "ja" / "generated" / "ja"
    page = (root / "scenarios" / "action_fizzles_after_counter.html").read_text(encoding="utf-8")
    assert "反撃でユニットが先に行動させられ、【行動】が不発になる" in page  # title_ja
    assert "反撃チェーン 反撃の優先権：相手" in page
    kinds = (root / "kinds" / "kind_action.html").read_text(encoding="utf-8")
    assert "宣言 → 反撃受付 → 再確認 → 発動" in kinds  # the one-line summary, in Japanese
    for lang in ("ja", "en"):
        for p in (site / lang / "generated" / lang / "scenarios").glob("*.html"):
            text = " ".join(html_text(p.read_text(encoding="utf-8")))
            for state_id in ("CounterChain", "GameFlow", "priority_opponent", "priority_declarer", "normal_timing"):
                assert state_id not in text, (p.name, state_id)


def _every_frame(step: StepThrough) -> list[str]:
    """What the step-through shows at each frame, from its start to its script's end: each link
    step of an unwinding, then the script's next move."""
    seen = step_through_text(step)
    for _ in range(300):
        if step.cursor < len(step.frames) - 1:
            step.step()
        else:
            before = (step.script_pos, len(step.frames))
            step.next_in_script()
            if (step.script_pos, len(step.frames)) == before:
                break
        seen += step_through_text(step)
    return seen


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("stem", STEP_THROUGHS)
def test_the_step_through_speaks_its_language(stem: str, lang: str) -> None:
    """StepThrough(lang=...) from its start to its script's end, every frame: chain states, the
    recheck ○/× line, the history, the replay header, the breadcrumb, the zoom, the panels."""
    step = StepThrough.from_scenario(REPO / "scenarios" / f"{stem}.yaml", lang=lang)  # type: ignore[arg-type]
    shown = _every_frame(step)
    assert len(shown) > 50
    leaks = sorted(set(foreign(shown, lang)))
    assert not leaks, f"{stem} ({lang}): {', '.join(leaks[:20])}"
