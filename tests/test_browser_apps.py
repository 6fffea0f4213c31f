"""The step-through beyond one JupyterLab session (issue 23): a committed notebook opens in
JupyterLab unchanged (not marked unsaved before any edit, fsm/notebook/lab_contents.py), and the
same widget runs in Notebook 7 (the ``notebook`` package), driven in headless Chromium the same
way.  VS Code's notebooks cannot run here; the module uses only anywidget's model interface, no
JupyterLab API (tests/js/ drive it with a stand-in model)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import CHROMIUM_ARGS, PANEL, REPO, SMALL, Lab, start_lab, wait_for

pytestmark = pytest.mark.browser

ARTIFACTS = REPO / "test-artifacts"
#: Where the page's Graphviz runs and how many drawings it has laid out (front/page.js).
PAGE_STATE = """() => {
  const p = globalThis[Symbol.for('fsm.step-through.page')];
  return p && {thread: p.thread, svgs: p.svgs.size};
}"""


@pytest.fixture
def server(chromium: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Lab]:
    started = start_lab(tmp_path_factory.mktemp(request.param), app=request.param)
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.parametrize("server", ["lab"], indirect=True)
def test_a_committed_notebook_opens_in_jupyterlab_not_marked_unsaved(chromium: str, server: Lab) -> None:
    """Opened, its kernel connected (JupyterLab writes the kernel's language_info then), and nothing edited:
    no tab shows the unsaved mark, in English and in Japanese."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            for i, notebook in enumerate(("01_ability_kinds.ipynb", "ja/03_counter_chain.ipynb")):
                page = browser.new_page(viewport={"width": SMALL["width"], "height": SMALL["height"]})
                page.goto(server.page(notebook, workspace=f"open{i}"))
                page.wait_for_selector(f"{PANEL} .jp-Cell", timeout=90_000)
                page.wait_for_selector(".jp-StatusBar-Widget :text('| Idle')", timeout=90_000)
                page.wait_for_timeout(1500)  # the kernel's info has arrived by now (Idle comes with it)
                name = notebook.split("/")[-1].removesuffix(".ipynb")
                tab = page.locator(".lm-TabBar-tab.jp-mod-current", has_text=name)
                assert tab.count() == 1, notebook
                assert page.locator(".lm-TabBar-tab.jp-mod-dirty").count() == 0, f"{notebook} opens as unsaved"
                page.close()
        finally:
            browser.close()


@pytest.mark.parametrize("server", ["notebook"], indirect=True)
def test_tim_ctr_2_the_step_through_runs_in_notebook_7(chromium: str, server: Lab) -> None:
    """TIM-CTR-2 in Notebook 7: after Run All Cells every step-through draws its diagram (Graphviz laid out
    in a Worker, sent to the page once), and next in script gives B priority, the highlight moving."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": SMALL["width"], "height": SMALL["height"]})
            page.set_default_timeout(60_000)
            page.goto(f"{server.url}/notebooks/01_ability_kinds.ipynb?token={server.token}")
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            wait_for("the kernel", lambda: server.kernels_idle(), 90, server)
            page.locator(".jp-Notebook .jp-Cell").first.click()
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            page.wait_for_selector(".fsm-step .fsm-diagram svg g.node.fsm-on", timeout=120_000)
            wait_for("Run All to finish", lambda: server.kernels_idle(), 180, server)
            steps = page.locator(".fsm-step")
            wait_for(
                "every diagram", lambda: page.locator(".fsm-step .fsm-diagram svg").count() == steps.count(), 90, server
            )
            assert steps.count() >= 5
            state: dict[str, Any] = page.evaluate(PAGE_STATE)
            assert state["thread"] == "worker" and state["svgs"] >= 4, state

            step = steps.first
            on_before = step.locator(".fsm-diagram svg .fsm-on").evaluate_all("els => els.map(e => e.dataset.fsm)")
            step.locator(".fsm-script-next").click()
            wait_for("B's priority", lambda: "B has priority" in step.locator(".fsm-header").inner_text(), 90, server)
            log = step.locator(".fsm-log").inner_text()
            assert "ACT-4" in log and "岩砕き" in log, log[:400]
            on_after = step.locator(".fsm-diagram svg .fsm-on").evaluate_all("els => els.map(e => e.dataset.fsm)")
            assert on_after and on_after != on_before
            step.screenshot(path=str(ARTIFACTS / "browser-notebook7.png"))
        finally:
            browser.close()
