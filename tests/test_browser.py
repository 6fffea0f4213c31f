"""A teaching notebook in a real browser: JupyterLab + headless Chromium (Playwright).

Opens ``01_ability_kinds.ipynb``, runs all cells, and clicks the first step-through's
scripted move (岩砕き, a 【行動】 declared in a normal timing: ACT-4, ACT-5).  The live
diagram and the narrated log must both change, and the header must pass priority to B
(TIM-CTR-2).  A screenshot of the widget goes to ``test-artifacts/browser-notebook.png``.

Then, in a JupyterLab with the Japanese language pack and its locale set as
``scripts/lab.sh --lang ja`` sets it (issue 17), ``ja/01_ability_kinds.ipynb``: JupyterLab's menus
are Japanese, and so are the step-through's header (TIM-CTR-2: B now has 反撃の優先権), buttons
and the framing of a refusal asked with なぜ不可?.  The refusal's own sentence comes from the
engine, whose Japanese messages are another branch's work (``Game(lang=...)``); this test asserts
the widget's Japanese and the clause.  Screenshot: ``test-artifacts/browser-notebook-ja.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, PANEL, REPO, SMALL, Lab, run_all, start_lab, wait_for

pytestmark = pytest.mark.browser

NOTEBOOK = "01_ability_kinds.ipynb"
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def lab(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    server = start_lab(tmp_path_factory.mktemp("jupyterlab"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture  # one test: its server stops after it
def lab_ja(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    pytest.importorskip("jupyterlab_language_pack_ja_JP", reason="pip install -e '.[ja]' (the test extra has it)")
    server = start_lab(tmp_path_factory.mktemp("jupyterlab-ja"), locale="ja_JP")
    try:
        yield server
    finally:
        server.stop()


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
            # Graphviz reaches the page once, when the kernel is free after Run All (step_view.py)
            page.wait_for_selector(".fsm-step .fsm-diagram svg", timeout=120_000)

            step = page.locator(".fsm-step").first
            diagram_before = _diagram(step)
            log_before = step.locator(".fsm-log").inner_text()
            assert "<svg" in diagram_before or "data:image/svg" in diagram_before, diagram_before[:300]
            assert "A" in step.locator(".fsm-header").inner_text()

            move = step.locator(".fsm-move-scripted").first
            move_text = move.inner_text().strip()
            assert "activate 岩砕き" in move_text, move_text
            move.click()

            wait_for("the diagram to change", lambda: _diagram(step) != diagram_before, 30, lab)
            wait_for("the log to change", lambda: step.locator(".fsm-log").inner_text() != log_before, 30, lab)
            log_after = step.locator(".fsm-log").inner_text()
            assert "ACT-4" in log_after and "岩砕き" in log_after, log_after[:500]
            header = step.locator(".fsm-header").inner_text()
            assert "B has priority" in header, header
            assert step.locator(".fsm-move").count() >= 2  # B: pass, and B's counter 足止め

            # a refused move typed into the box is explained with its clause, not a traceback
            step.locator(".fsm-try input").fill("A: pass")
            step.locator(".fsm-why-button").click()
            wait_for("the refusal", lambda: "TIM-CTR-2" in step.locator(".fsm-why").inner_text(), 30, lab)

            step.scroll_into_view_if_needed()
            step.screenshot(path=str(ARTIFACTS / "browser-notebook.png"))
            assert Path(ARTIFACTS / "browser-notebook.png").stat().st_size > 10_000
        finally:
            browser.close()


JA_NOTEBOOK = "ja/01_ability_kinds.ipynb"
JA_SHOT = ARTIFACTS / "browser-notebook-ja.png"


def test_tim_ctr_2_a_japanese_notebook_in_a_japanese_jupyterlab(chromium: str, lab_ja: Lab) -> None:
    """TIM-CTR-2 in Japanese: after A declares 岩砕き the header gives B 反撃の優先権, in JupyterLab's Japanese UI."""
    from playwright.sync_api import sync_playwright

    JA_SHOT.parent.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            # the Japanese menus: 実行 › すべてのセルを実行
            page = run_all(browser, lab_ja, JA_NOTEBOOK, {"width": 1500, "height": 1800}, ui="ja")
            menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
            assert "ファイル" in menus and "実行" in menus, menus
            page.wait_for_selector(f"{PANEL} .fsm-step .fsm-move-scripted", timeout=120_000)
            assert "特殊能力の五つの種類" in page.locator(f"{PANEL} .jp-MarkdownOutput").first.inner_text()

            step = page.locator(f"{PANEL} .fsm-step").first
            assert "の判断" in step.locator(".fsm-header").inner_text()
            assert step.locator(".fsm-why-button").inner_text().strip() == "なぜ不可?"
            scripted = step.locator(".fsm-move-scripted").first
            assert scripted.inner_text().strip().endswith("発動"), scripted.inner_text()  # the move, verb last
            scripted.click()
            wait_for("B's priority", lambda: "B に反撃の優先権" in step.locator(".fsm-header").inner_text(), 30, lab_ja)

            step.locator(".fsm-try input").fill("A: pass")
            step.locator(".fsm-why-button").click()
            why = step.locator(".fsm-why")
            wait_for("the refusal", lambda: "認められません" in why.inner_text(), 30, lab_ja)
            assert "TIM-CTR-2" in why.inner_text()

            step.scroll_into_view_if_needed()
            step.screenshot(path=str(JA_SHOT))
            assert Path(JA_SHOT).stat().st_size > 10_000
        finally:
            browser.close()


# ---------------------------------------------------------------- one screen at 1366×768

CHAIN_NOTEBOOK = "03_counter_chain.ipynb"


def _run_all(browser, lab: Lab, notebook: str, viewport: dict[str, int]):  # noqa: ANN001, ANN202 - Playwright objects
    page = run_all(browser, lab, notebook, viewport)
    page.wait_for_selector(f"{PANEL} .fsm-step .fsm-move-scripted", timeout=120_000)
    return page


def _visible_area(page) -> dict[str, float]:  # noqa: ANN001 - a Playwright Page
    """Where the notebook's cells can be seen: its scrolling panel, inside the browser window."""
    box = page.locator(f"{PANEL} .jp-NotebookPanel-notebook").first.bounding_box()
    assert box is not None
    return box


def _assert_on_screen(page, step, what: dict[str, str]) -> None:  # noqa: ANN001 - Playwright objects
    area = _visible_area(page)
    for name, selector in what.items():
        found = step.locator(selector)
        assert found.count(), f"no {name} ({selector})"
        box = found.last.bounding_box()
        assert box is not None, f"{name} is not drawn"
        inside = (
            box["y"] >= area["y"] - 1
            and box["y"] + box["height"] <= area["y"] + area["height"] + 1
            and box["x"] >= area["x"] - 1
            and box["x"] + box["width"] <= area["x"] + area["width"] + 1
        )
        assert inside, f"{name} is outside the visible notebook area: {box} not in {area}"


def _changes(step, act: Callable[[], None], lab: Lab) -> None:  # noqa: ANN001 - a Playwright Locator
    """Do something and wait until the header, the log or the why line shows it."""

    def seen() -> str:
        return "".join(step.locator(s).inner_text() for s in (".fsm-header", ".fsm-log", ".fsm-why"))

    before = seen()
    act()
    wait_for("the step-through to redraw", lambda: seen() != before, 30, lab)


ON_SCREEN = {
    "header": ".fsm-header",
    "first move": ".fsm-move",
    "chain": ".fsm-chain",
    "newest log line": ".fsm-log-latest",
    "diagram": ".fsm-diagram",
}


def test_tim_ctr_3_one_screen_at_1366x768_after_run_all_and_three_links_deep(chromium: str, lab: Lab) -> None:
    """TIM-CTR-2/3: at 1366×768 with the file browser open, header, moves, chain, newest log line and
    diagram are all in view — after Run All, and again with a chain three links deep."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = _run_all(browser, lab, CHAIN_NOTEBOOK, SMALL)
            assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
            step = page.locator(f"{PANEL} .fsm-step").first
            step.evaluate("e => e.scrollIntoView({block: 'start'})")
            _assert_on_screen(page, step, ON_SCREEN)
            page.screenshot(path=str(ARTIFACTS / "one-screen-start.png"))
            for _ in range(4):  # 岩砕き, the refusal the script checks, 足止め, 妨害
                _changes(step, lambda: step.locator(".fsm-script-next").click(), lab)
            wait_for("a chain three links deep", lambda: step.locator(".fsm-chain tr").count() == 3, 30, lab)
            step.evaluate("e => e.scrollIntoView({block: 'start'})")
            _assert_on_screen(page, step, ON_SCREEN)
            assert "#3" in step.locator(".fsm-chain").inner_text()
            page.screenshot(path=str(ARTIFACTS / "one-screen-three-links.png"))
        finally:
            browser.close()


def test_sc_6_the_chain_unwinds_link_by_link_with_the_failing_recheck_highlighted(chromium: str, lab: Lab) -> None:
    """TIM-CTR-3, SC-6: after both pass, **step** shows #3 resolve, then #2 fizzle (its failed condition in
    red in the log and on its procedure diagram), then #1 resolve — in that order."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = _run_all(browser, lab, CHAIN_NOTEBOOK, SMALL)
            step = page.locator(f"{PANEL} .fsm-step").first
            step.evaluate("e => e.scrollIntoView({block: 'start'})")
            for _ in range(6):  # the whole script: three links, then B and A pass
                _changes(step, lambda: step.locator(".fsm-script-next").click(), lab)
            assert "replaying" in step.locator(".fsm-header").inner_text()
            outcomes: list[str] = []
            step_next = step.locator(".fsm-step-next")

            def settled() -> bool:
                # the header and the step button arrive as separate widget updates: wait until they
                # agree (replaying a step ⇔ a next step), so the loop never clicks a button being disabled
                return ("replaying" in step.locator(".fsm-header").inner_text()) == step_next.is_enabled()

            while True:
                wait_for("the header and the step button to agree", settled, 30, lab)
                if not step_next.is_enabled():
                    break
                _changes(step, lambda: step_next.click(), lab)
                header = step.locator(".fsm-header").inner_text()
                for word in ("発動", "不発"):
                    if f"{word} " in header:
                        outcomes.append(header.split("·")[-1].split("—")[0].strip())
                if "不発" in header:
                    failed = step.locator(".fsm-log-latest .fsm-failed")
                    wait_for("the failed condition in the log", lambda: failed.count() > 0, 30, lab)  # noqa: B023
                    assert "condition can no longer be met" in failed.first.inner_text()
                    red = step.locator(
                        ".fsm-diagram svg text.fsm-g-applied", has_text="条件を満たせない"
                    )  # the fizzle reason ●
                    wait_for("the procedure diagram", lambda: red.count() > 0, 30, lab)  # noqa: B023
                    fill = red.first.evaluate("t => getComputedStyle(t).fill")
                    assert fill == "rgb(185, 28, 28)", f"the failing recheck condition is not red: {fill}"
                    taken = step.locator(".fsm-diagram svg g.edge.fsm-taken > path")
                    assert taken.count(), "the fizzle edge just taken is not highlighted"
                    width = taken.first.evaluate("p => getComputedStyle(p).strokeWidth")
                    assert width == "3.5px", width
                    step.evaluate("e => e.scrollIntoView({block: 'start'})")
                    page.screenshot(path=str(ARTIFACTS / "unwinding-fizzle.png"))
            assert outcomes == ["#3 発動 resolves", "#2 不発 fizzles", "#1 発動 resolves"], outcomes
            assert "B to decide" in step.locator(".fsm-header").inner_text()
            # the timeline steps back with ← once its handle has focus
            step.locator(".fsm-timeline").first.focus()
            _changes(step, lambda: page.keyboard.press("ArrowLeft"), lab)
            assert "replaying" in step.locator(".fsm-header").inner_text()
        finally:
            browser.close()


def test_a_saved_notebook_reopens_without_widget_errors_and_stays_as_committed(chromium: str, lab: Lab) -> None:
    """Saving after Run All writes the notebook as committed (no outputs, no widget state); reopening
    it shows no "Error displaying widget"."""
    from playwright.sync_api import sync_playwright

    saved = lab.root / "notebooks" / NOTEBOOK
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = _run_all(browser, lab, NOTEBOOK, SMALL)
            before = saved.stat().st_mtime_ns
            page.locator(f"{PANEL} .jp-Cell").first.click()
            page.keyboard.press("Control+s")

            def written() -> bool:  # saved, and whole: the server writes in place, so it may be mid-write
                if saved.stat().st_mtime_ns == before:
                    return False
                data = saved.read_bytes()
                try:
                    json.loads(data)
                except ValueError:
                    return False
                return data.endswith(b"\n")  # nbformat writes the closing newline last, on its own

            wait_for("the notebook to be saved", written, 30, lab)
            assert saved.read_bytes() == (REPO / "notebooks" / NOTEBOOK).read_bytes(), "saving changed the file"
            page.reload()
            page.wait_for_selector(f"{PANEL} .jp-Cell", timeout=90_000)
            page.wait_for_selector(".jp-StatusBar-Widget :text('| Idle')", timeout=90_000)
            time.sleep(2)  # let any output (there should be none) try to render
            assert page.get_by_text("Error displaying widget").count() == 0
        finally:
            browser.close()


# ---------------------------------------------------------------- the diagram: readable, followed, unwound in the page

#: (notebook, what its first step-through's header says while a move is replayed)
UNWINDING = [
    ("01_ability_kinds.ipynb", "replaying"),
    ("03_counter_chain.ipynb", "replaying"),
    ("ja/01_ability_kinds.ipynb", "再生"),
    ("ja/03_counter_chain.ipynb", "再生"),
]

#: The smallest text of the diagram in CSS pixels: computed font size × the SVG's scale × the zoom.
SMALLEST_TEXT_JS = """
box => {
  const svg = box.querySelector('svg');
  const zoom = Number(box.dataset.scale);
  const unit = svg.getBoundingClientRect().width / zoom / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize));
  return Math.min(...sizes) * unit * zoom;
}
"""


def _box(locator) -> dict[str, float]:  # noqa: ANN001 - a Playwright Locator
    """An element's box as the page lays it out (the rectangle of an SVG group's shapes)."""
    return dict(
        locator.evaluate(
            "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height} }"
        )
    )


def _inside(inner: dict[str, float] | None, outer: dict[str, float] | None) -> bool:
    assert inner is not None and outer is not None
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


@pytest.mark.parametrize(("notebook", "replaying"), UNWINDING)
def test_act6_a_chain_unwinds_link_by_link_in_the_page_readable_and_in_view(
    chromium: str, lab: Lab, notebook: str, replaying: str
) -> None:
    """ACT-6 / TIM-CTR-3 at 1366×768: the first step-through's script ends in an unwinding; each **step**
    shows the next link with no kernel message, the failing recheck is marked red on the procedure, the
    current state's box lies inside the diagram at the default zoom, at 100 % and at 200 %, and the
    default zoom draws no text under 11 px."""
    from playwright.sync_api import sync_playwright

    sent: list[str] = []

    def watch(page) -> None:  # noqa: ANN001 - a Playwright Page
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"unwinding-{notebook.replace('/', '-').removesuffix('.ipynb')}.png"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = run_all(browser, lab, notebook, SMALL, watch=watch)
            page.wait_for_selector(f"{PANEL} .fsm-step .fsm-diagram svg", timeout=120_000)
            step = page.locator(f"{PANEL} .fsm-step").first
            step.evaluate("e => e.scrollIntoView({block: 'start'})")
            box = step.locator(".fsm-diagram")
            wait_for("the diagram", lambda: box.locator("svg").count() > 0, 60, lab)
            smallest = box.evaluate(SMALLEST_TEXT_JS)
            assert smallest >= 11, f"the default zoom draws text at {smallest:.1f} px"
            for _ in range(12):  # the script, up to the move that unwinds the chain
                if replaying in step.locator(".fsm-header").inner_text():
                    break
                _changes(step, lambda: step.locator(".fsm-script-next").click(), lab)
            assert replaying in step.locator(".fsm-header").inner_text()
            failed_seen = False
            while step.locator(".fsm-step-next").is_enabled():
                before = len(sent)
                _changes(step, lambda: step.locator(".fsm-step-next").click(), lab)
                time.sleep(0.1)
                comms = [m for m in sent[before:] if "comm_msg" in m]
                assert not comms, f"a step sent {len(comms)} kernel message(s)"
                marked = box.locator("text.fsm-g-failed, text.fsm-g-applied")
                if marked.count():
                    failed_seen = True
                    assert marked.first.evaluate("t => getComputedStyle(t).fill") == "rgb(185, 28, 28)"
                    assert step.locator(".fsm-log-latest .fsm-failed").count(), "the log does not mark the failure"
                    page.screenshot(path=str(shot))
                current = box.locator("g.node.fsm-on").first
                if current.count():
                    assert _inside(_box(current), _box(box)), "the current state is out of view"
            assert failed_seen, "no failing recheck was marked on the procedure"
            step.locator(".fsm-view-flow").click()  # the game flow: the largest drawing
            for zoom in ("1", "2"):
                step.locator(".fsm-zoom").select_option(zoom)
                current = box.locator("g.node.fsm-on").first
                wait_for("the zoom", lambda z=zoom: box.get_attribute("data-scale") == z, 10, lab)
                wait_for(
                    f"the current state in view at {zoom}",
                    lambda c=current: _inside(_box(c), _box(box)),
                    5,
                    lab,
                )
                page.screenshot(path=str(shot.with_name(f"{shot.stem}-zoom-{zoom}.png")))
        finally:
            browser.close()
