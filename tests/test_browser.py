"""A teaching notebook in a real browser: JupyterLab + headless Chromium (Playwright).

Opens ``01_ability_kinds.ipynb``, runs all cells, and clicks the first step-through's
scripted move (岩砕き, a 【行動】 declared in a normal timing: ACT-4, ACT-5).  The live
diagram and the narrated log must both change, and the header must pass priority to B
(TIM-CTR-2).  A screenshot of the widget goes to ``test-artifacts/browser-notebook.png``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, REPO, Lab, chromium_path, start_lab

pytestmark = pytest.mark.browser

NOTEBOOK = "01_ability_kinds.ipynb"
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        pytest.skip(
            "Chromium not found (set FSM_CHROMIUM or put `chromium` on the PATH); install it with "
            "`sudo apt-get install -y chromium` (scripts/setup.sh test does this when run as root)"
        )
    return path


@pytest.fixture(scope="module")
def lab(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    server = start_lab(tmp_path_factory.mktemp("jupyterlab"))
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


def _diagram(step) -> str:  # noqa: ANN001 - a Playwright Locator
    """The diagram as rendered: inline SVG, or the src of an <img> if it is shown as an image."""
    box = step.locator(".fsm-diagram").first
    html = box.inner_html()
    images = box.locator("img")
    if images.count():
        html += images.first.get_attribute("src") or ""
    return html


def test_act4_clicking_a_move_in_jupyterlab_updates_the_diagram_and_the_log(chromium: str, lab: Lab) -> None:
    """ACT-4/ACT-5, TIM-CTR-2: in the browser, declaring 岩砕き moves the diagram, logs it, and gives B priority."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1800})
            page.set_default_timeout(60_000)
            page.goto(lab.page(NOTEBOOK))
            page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=90_000)
            # the kernel must be connected before Run All, or JupyterLab asks which kernel to start
            page.wait_for_selector(".jp-StatusBar-Widget :text('| Idle')", timeout=90_000)
            page.locator(".jp-NotebookPanel .jp-Cell").first.click()
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            page.wait_for_selector(".fsm-step .fsm-move-scripted", timeout=120_000)

            step = page.locator(".fsm-step").first
            diagram_before = _diagram(step)
            log_before = step.locator(".fsm-log").inner_text()
            assert "<svg" in diagram_before or "data:image/svg" in diagram_before, diagram_before[:300]
            assert "A" in step.locator(".fsm-header").inner_text()

            move = step.locator(".fsm-move-scripted").first
            move_text = move.inner_text().strip()
            assert "activate 岩砕き" in move_text, move_text
            move.click()

            _wait("the diagram to change", lambda: _diagram(step) != diagram_before, 30, lab)
            _wait("the log to change", lambda: step.locator(".fsm-log").inner_text() != log_before, 30, lab)
            log_after = step.locator(".fsm-log").inner_text()
            assert "ACT-4" in log_after and "岩砕き" in log_after, log_after[:500]
            header = step.locator(".fsm-header").inner_text()
            assert "B has priority" in header, header
            assert step.locator(".fsm-move").count() >= 2  # B: pass, and B's counter 足止め

            # a refused move typed into the box is explained with its clause, not a traceback
            step.locator(".fsm-try input").fill("A: pass")
            step.locator(".fsm-why-button").click()
            _wait("the refusal", lambda: "TIM-CTR-2" in step.locator(".fsm-why").inner_text(), 30, lab)

            step.scroll_into_view_if_needed()
            step.screenshot(path=str(ARTIFACTS / "browser-notebook.png"))
            assert Path(ARTIFACTS / "browser-notebook.png").stat().st_size > 10_000
        finally:
            browser.close()
