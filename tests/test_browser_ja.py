"""A Japanese notebook in JupyterLab with the Japanese language pack (issue 17).

Starts JupyterLab with the locale set as ``scripts/lab.sh --lang ja`` sets it, opens
``ja/01_ability_kinds.ipynb``, and checks that JupyterLab's own menus are in Japanese, then runs
all cells and plays the first step-through's scripted move: its header (TIM-CTR-2: B now has
priority), buttons and the framing of a refusal asked with なぜ不可? are Japanese.  The refusal's
own sentence comes from the engine, whose Japanese messages are a teammate's work
(``Game(lang=...)``); this test asserts the widget's Japanese and the clause.  A screenshot goes
to ``test-artifacts/browser-notebook-ja.png``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, PANEL, REPO, Lab, chromium_path, run_all, start_lab

pytestmark = pytest.mark.browser

NOTEBOOK = "ja/01_ability_kinds.ipynb"
SHOT = REPO / "test-artifacts" / "browser-notebook-ja.png"


@pytest.fixture(scope="module")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium not found (set FSM_CHROMIUM or put `chromium` on the PATH; scripts/setup.sh test)")
    return path


@pytest.fixture(scope="module")
def lab(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    pytest.importorskip("jupyterlab_language_pack_ja_JP", reason="pip install -e '.[ja]' (the test extra has it)")
    server = start_lab(tmp_path_factory.mktemp("jupyterlab-ja"), locale="ja_JP")
    try:
        yield server
    finally:
        server.stop()


def _wait(what: str, ok: Callable[[], bool], timeout: float, lab: Lab) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ok():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}\n--- JupyterLab log ---\n{lab.log_tail()}")


def test_tim_ctr_2_a_japanese_notebook_in_a_japanese_jupyterlab(chromium: str, lab: Lab) -> None:
    """TIM-CTR-2 in Japanese: after A declares 岩砕き the header gives B 反撃の優先権, in JupyterLab's Japanese UI."""
    from playwright.sync_api import sync_playwright

    SHOT.parent.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = run_all(
                browser, lab, NOTEBOOK, {"width": 1500, "height": 1800}, ui="ja"
            )  # 実行 › すべてのセルを実行
            menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
            assert "ファイル" in menus and "実行" in menus, menus
            page.wait_for_selector(f"{PANEL} .fsm-step .fsm-move-scripted", timeout=120_000)
            assert "特殊能力の五つの種類" in page.locator(f"{PANEL} .jp-MarkdownOutput").first.inner_text()

            step = page.locator(f"{PANEL} .fsm-step").first
            assert "の判断" in step.locator(".fsm-header").inner_text()
            assert step.locator(".fsm-why-button").inner_text().strip() == "なぜ不可?"
            step.locator(".fsm-move-scripted").first.click()
            _wait("B's priority", lambda: "B に反撃の優先権" in step.locator(".fsm-header").inner_text(), 30, lab)

            step.locator(".fsm-try input").fill("A: pass")
            step.locator(".fsm-why-button").click()
            why = step.locator(".fsm-why")
            _wait("the refusal", lambda: "認められません" in why.inner_text(), 30, lab)
            assert "TIM-CTR-2" in why.inner_text()

            step.scroll_into_view_if_needed()
            step.screenshot(path=str(SHOT))
            assert Path(SHOT).stat().st_size > 10_000
        finally:
            browser.close()
