"""The notebooks in JupyterLite, offline (issue 24, deliverable 3): ``docs/site/lite/build_lite.py`` over
the built site, served by ``python -m http.server`` on 127.0.0.1 with every request to any other host
aborted (the test fails if one was made).  A notebook is opened in the lite build, run, and its
step-throughs and diagrams are drawn by the page; no ``dot`` runs in the browser's Python.
Screenshots: ``test-artifacts/lite-*.png``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO, SMALL, OnlyHere, StaticSite

from fsm.notebook.figure_view import FigureView
from fsm.notebook.step_through import diagram
from fsm.notebook.widget_words import words
from fsm.render.diagrams import render_machine

sys.path.insert(0, str(REPO / "docs" / "site" / "lite"))
import build_lite  # noqa: E402  (a script of the site, not a package)

ARTIFACTS = REPO / "test-artifacts"
TIMEOUT = 420_000  # ms: the kernel loads IPython, widgets and fsm into pyodide; the machine may be shared
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def test_diagram_without_dot_is_laid_out_by_the_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ACT-6's procedure where no ``dot`` runs (JupyterLite): the same DOT as the SVG, drawn by figure.js."""
    monkeypatch.setenv("PATH", str(tmp_path))
    shown = diagram("action")
    assert isinstance(shown, FigureView)
    assert shown.dot == render_machine(kind_machine("action"), lang="both", fmt="dot")
    assert "ACT-6" in shown.dot
    assert shown._esm == (REPO / "fsm" / "notebook" / "static" / "figure.js").read_text(encoding="utf-8")
    assert diagram("cost").key != shown.key  # one layout per drawing in the page, keyed by its DOT


def kind_machine(key: str) -> type:
    from fsm.machines.procedures import procedure_class
    from fsm.spec.ruleset import builtin

    return procedure_class(builtin().kind(key))


def test_pins_refuse_a_line_without_a_version(tmp_path: Path) -> None:
    """A pin the build cannot download exactly is refused with its file and line."""
    pins = tmp_path / "wheels.txt"
    pins.write_text("# kernel\nmicropip==0.11.1\nipython\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"wheels.txt:3: 'ipython' is not name==version"):
        build_lite.pins(pins)
    pins.write_text("micropip == 0.11.1  # the package manager\n", encoding="utf-8")
    assert build_lite.pins(pins) == [("micropip", "0.11.1")]


@pytest.fixture(scope="module")
def lite(site: Path) -> Path:
    """The site with its ``lite/`` built from the site's own ``web/`` assets."""
    run = subprocess.run(
        [sys.executable, str(REPO / "docs" / "site" / "lite" / "build_lite.py"), str(site)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, f"the lite build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return site


def test_the_lock_names_only_files_of_the_site(lite: Path) -> None:
    """Every package the kernel may load is a wheel of the site: no CDN, no index (issue 24: offline)."""
    lock = json.loads((lite / "lite" / "static" / "pyodide-lock" / "pyodide-lock.json").read_text(encoding="utf-8"))
    names = set(lock["packages"])
    assert {"micropip", "ipython", "ipywidgets", "anywidget", "fsm-timing-rules", "pyodide-kernel"} <= names
    assert not names & {"graphviz", "fonttools", "jupyterlab", "rich"}  # the desktop's, never the browser's
    for package in lock["packages"].values():
        assert "://" not in package["file_name"]
    settings = json.loads((lite / "lite" / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = settings["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert "fsm-timing-rules" in kernel["loadPyodideOptions"]["packages"]


def test_a_lock_pointing_elsewhere_is_refused(lite: Path, tmp_path: Path) -> None:
    """The build's own check: a package served from another host fails the build, naming it."""
    copy = tmp_path / "lite"
    (copy / "static" / "pyodide-lock").mkdir(parents=True)
    (copy / "static" / "pyodide").mkdir()
    lock_path = lite / "lite" / "static" / "pyodide-lock" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    lock["packages"]["micropip"]["file_name"] = "https://cdn.example/micropip-0.11.1-py3-none-any.whl"
    (copy / "static" / "pyodide-lock" / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"micropip: https://cdn.example/\S+ is not on this site"):
        build_lite.check_offline(copy)


def run_notebook(browser: Any, served: StaticSite, path: str, shot: str) -> tuple[Any, OnlyHere]:
    """Open ``path`` in the lite build (empty cache, offline but for the site), Run All Cells, and wait
    until every code cell has run."""
    context = browser.new_context(viewport=SMALL)
    guard = OnlyHere(served.url)
    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{served.url}/lite/lab/index.html?path={path}")
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell")
    page.wait_for_selector(".jp-StatusBar-Widget :text('| Idle')")  # the kernel is up: no kernel dialog
    page.locator(f"{NOTEBOOK} .jp-Cell").first.click()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # each code cell gets its number; a failing one would stop the run and leave the rest unnumbered
    page.wait_for_function(
        f"""() => {{
          const prompts = [...document.querySelectorAll('{NOTEBOOK} .jp-CodeCell .jp-InputPrompt')];
          return prompts.length > 0 && prompts.every((p) => /\\[\\d+\\]/.test(p.textContent));
        }}""",
        timeout=TIMEOUT,
    )
    page.wait_for_selector(f"{NOTEBOOK} .fsm-step .fsm-diagram svg")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(f"{NOTEBOOK} .fsm-step").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / shot))
    return page, guard


def errors_shown(page: Any) -> list[str]:
    return page.evaluate(
        f"""() => [...document.querySelectorAll('{NOTEBOOK} .jp-OutputArea-output')]
          .map((e) => e.innerText).filter((t) => /Traceback|Error/.test(t))"""
    )


@pytest.mark.browser
def test_english_notebook_runs_offline_with_its_step_throughs_and_diagrams(
    lite: Path, browser: Any, served: StaticSite
) -> None:
    """Notebook 01 in JupyterLite: every cell runs, every step-through draws its diagram (ACT-6's fizzle
    first), each procedure diagram is laid out by the page, and nothing is asked of another host."""
    page, guard = run_notebook(browser, served, "notebooks/01_ability_kinds.ipynb", "lite-01-en.png")
    try:
        assert errors_shown(page) == []
        steps = page.locator(f"{NOTEBOOK} .fsm-step")
        assert steps.count() == 8  # the notebook's eight step-throughs
        page.wait_for_function(f"() => document.querySelectorAll('{NOTEBOOK} .fsm-step .fsm-diagram svg').length === 8")
        # diagram() cells: the page laid the kernel's DOT out; the action procedure cites ACT-6
        figures = page.locator(f"{NOTEBOOK} .jp-OutputArea-output svg").filter(has_text="ACT-6")
        assert figures.count() >= 1
        figures.first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "lite-01-en-diagram.png"))
        header = steps.first.locator(".fsm-header").inner_text()
        assert header.strip(), "the first step-through says who decides"
        assert guard.outside == [], f"asked another host: {guard.outside[:5]}"
        assert any(u.endswith("pyodide.asm.wasm") for u in guard.seen), "pyodide came from the site itself"
    finally:
        page.context.close()


@pytest.mark.browser
def test_japanese_notebook_runs_offline_in_japanese(lite: Path, browser: Any, served: StaticSite) -> None:
    """notebooks/ja/01 in JupyterLite: its step-throughs speak Japanese (lang="ja"), offline."""
    page, guard = run_notebook(browser, served, "notebooks/ja/01_ability_kinds.ipynb", "lite-01-ja.png")
    try:
        assert errors_shown(page) == []
        first = page.locator(f"{NOTEBOOK} .fsm-step").first
        japanese, english = words("ja")["step"], words("en")["step"]
        assert japanese != english
        assert first.locator(".fsm-step-next").inner_text().strip() == japanese
        assert page.locator(f"{NOTEBOOK} .fsm-step .fsm-diagram svg").count() == 8
        assert guard.outside == [], f"asked another host: {guard.outside[:5]}"
    finally:
        page.context.close()
