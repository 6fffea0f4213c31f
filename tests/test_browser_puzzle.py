"""The step-through's puzzle mode in a real browser (issue 25): JupyterLab + headless Chromium at
1366×768, notebook ``06_puzzles.ipynb`` in English and ``ja/06_puzzles.ipynb`` in a Japanese JupyterLab.

In the first puzzle (stop_the_rock: make B's 【行動】 岩砕き fizzle, ACT-6) the learner presses
**hint** (the puzzle's hint), **hint** again (the winning move), plays a near miss (土崩し: a lost 土
does not stop a 【行動】), passes, and **check** says failed with the goal's own reasons; **undo**
goes back past B's answers to the learner's decision, the winning line is played and the panel says
solved.  Screenshots: ``test-artifacts/browser-puzzle.png`` and ``browser-puzzle-ja.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, PANEL, REPO, SMALL, Lab, chromium_path, run_all, start_lab, wait_for

pytestmark = pytest.mark.browser

ARTIFACTS = REPO / "test-artifacts"
NEAR_MISS = "A: use 土崩し by 水の精 on 岩の巨人"
WINNING = "A: use 足止め by 水の精 on 岩の巨人"

#: What the panel says, by language: hint text, the winning move's hint, failed, a reason, solved.
SAYS = {
    "en": ("unable to act", WINNING, "failed", "fizzled (ACT-6)", "solved: the goal holds"),
    "ja": ("行動できなく", WINNING, "失敗", "期待は", "解けた: 目標が成り立っている"),
}


@pytest.fixture(scope="module")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium not found (set FSM_CHROMIUM or put `chromium` on the PATH)")
    return path


@pytest.fixture
def lab(chromium: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Lab]:
    locale = "ja_JP" if request.param == "ja" else ""
    if locale:
        pytest.importorskip("jupyterlab_language_pack_ja_JP", reason="pip install -e '.[ja]' (the test extra has it)")
    server = start_lab(tmp_path_factory.mktemp(f"jupyterlab-puzzle-{request.param}"), locale=locale)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("lab", ["en", "ja"], indirect=True)
def test_act6_a_puzzle_played_to_solved_with_hint_and_check(chromium: str, lab: Lab) -> None:
    from playwright.sync_api import sync_playwright

    lang = "ja" if "ja" in lab.log.parent.name else "en"
    hint_text, hint_move, failed, reason, solved = SAYS[lang]
    notebook = "ja/06_puzzles.ipynb" if lang == "ja" else "06_puzzles.ipynb"
    shot = ARTIFACTS / ("browser-puzzle-ja.png" if lang == "ja" else "browser-puzzle.png")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = run_all(browser, lab, notebook, SMALL, ui=lang)
            page.wait_for_selector(f"{PANEL} .fsm-step .fsm-puzzle:not([hidden])", timeout=120_000)
            step = page.locator(f"{PANEL} .fsm-step").first
            panel = step.locator(".fsm-puzzle")
            said = panel.locator(".fsm-puzzle-said")
            assert "岩砕き" in panel.locator(".fsm-puzzle-goal").inner_text()
            assert panel.get_attribute("data-status") == "playing"

            panel.locator(".fsm-puzzle-hint").click()
            wait_for("the hint", lambda: hint_text in said.inner_text(), 30, lab)
            panel.locator(".fsm-puzzle-hint").click()
            wait_for("the winning move", lambda: hint_move in said.inner_text(), 30, lab)

            # the near miss: B answers by itself (it passes), the learner passes, and it has failed
            step.locator(f'.fsm-move[data-move="{NEAR_MISS}"]').click()
            wait_for(
                "the learner's turn again", lambda: step.locator('.fsm-move[data-move="A: pass"]').count() > 0, 30, lab
            )
            step.locator('.fsm-move[data-move="A: pass"]').click()
            wait_for("failed", lambda: panel.get_attribute("data-status") == "failed", 60, lab)
            panel.locator(".fsm-puzzle-check").click()
            wait_for("check's reasons", lambda: failed in said.inner_text() and reason in said.inner_text(), 30, lab)

            # undo goes back to the learner's own decisions, past B's answers; then the winning line
            step.locator(".fsm-reset").click()
            wait_for("the start", lambda: step.locator(f'.fsm-move[data-move="{WINNING}"]').count() > 0, 30, lab)
            step.locator(f'.fsm-move[data-move="{WINNING}"]').click()
            wait_for(
                "the learner's turn again", lambda: step.locator('.fsm-move[data-move="A: pass"]').count() > 0, 30, lab
            )
            step.locator('.fsm-move[data-move="A: pass"]').click()
            wait_for("solved", lambda: panel.get_attribute("data-status") == "solved", 60, lab)
            panel.locator(".fsm-puzzle-check").click()
            wait_for("check says solved", lambda: solved in said.inner_text(), 30, lab)
            step.locator(".fsm-play-decision").click()  # the chain's unwinding, run on to its end
            wait_for("the fizzle in the log", lambda: "ACT-6" in step.locator(".fsm-log").inner_text(), 30, lab)

            step.scroll_into_view_if_needed()
            step.screenshot(path=str(shot))
            assert Path(shot).stat().st_size > 10_000
        finally:
            browser.close()
