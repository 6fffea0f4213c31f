"""The site's "try it" in headless Chromium: the build served by ``python -m http.server`` on 127.0.0.1,
every request to any other host aborted and the test failed if one was made (issue 24, offline).

Each page runs pyodide in a Web Worker from the site's own ``web/`` folder; the test plays the scenario's
script to the end, steps through the unwinding of its chain, asks why not, and plays a garbled move,
comparing each answer with the one the Python step-through gives.  Screenshots: ``test-artifacts/``.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from browser_support import REPO, SMALL, OnlyHere, StaticSite

from fsm.notebook.step_through import StepThrough

pytestmark = pytest.mark.browser
ARTIFACTS = REPO / "test-artifacts"
SCENARIO = "action_fizzles_after_counter"  # A's 【行動】 fizzles (ACT-6) after B's counter
TIMEOUT = 180_000  # ms: pyodide starts in seconds, but the machine may be shared


def plain(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def open_try(browser: Any, served: StaticSite, lang: str, page_path: str) -> tuple[Any, Any, OnlyHere]:
    """A fresh context (empty cache) on one page, offline but for the site; its "try it" started."""
    context = browser.new_context(viewport=SMALL)
    guard = OnlyHere(served.url)
    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{served.url}/{lang}/generated/{lang}/{page_path}.html")
    page.click(".fsm-tryit-start")
    page.wait_for_selector(".fsm-tryit[data-state=ready] .fsm-move")
    assert not errors, errors
    return context, page, guard


def why_text(page: Any) -> str:
    return " ".join(page.inner_text(".fsm-tryit .fsm-why").split())


def ask(page: Any, move: str, button: str) -> str:
    """Type a move, press why-not or play-it, and return the answer once the why box shows one."""
    before = why_text(page)
    page.fill(".fsm-tryit .fsm-try-input", move)
    page.click(f".fsm-tryit {button}")
    page.wait_for_function("b => document.querySelector('.fsm-tryit .fsm-why').innerText.trim() !== b", arg=before)
    return why_text(page)


def play_script(page: Any, start: int = 0, upto: int | None = None) -> int:
    """Press "next in script" from step ``start`` until step ``upto`` (default: the script's end) is
    done; returns how many steps the script has."""
    steps = page.locator(".fsm-tryit .fsm-script li").count()
    for done in range(start + 1, (steps if upto is None else upto) + 1):
        page.click(".fsm-tryit .fsm-script-next")
        page.wait_for_function(
            "n => document.querySelectorAll('.fsm-tryit .fsm-script li.fsm-done').length >= n", arg=done
        )
    if upto is None:
        assert page.locator(".fsm-tryit .fsm-script-next").is_disabled()
    return steps


def unwind(page: Any) -> int:
    """Step through the unwinding one link step at a time; returns the number of steps."""
    count = 0
    while page.locator(".fsm-tryit .fsm-step-next").is_enabled():
        page.click(".fsm-tryit .fsm-step-next")
        count += 1
        assert count < 50, "the unwinding never ends"
    return count


def python_side(lang: str) -> StepThrough:
    """The same scenario in the Python step-through, its script played and unwound, for the answers
    to compare."""
    step = StepThrough.from_scenario(REPO / "scenarios" / f"{SCENARIO}.yaml", lang=lang)  # type: ignore[arg-type]
    while step.script.pos < len(step.script.steps):
        step.next_in_script()
    step.play_to_decision()
    return step


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_scenario_page_plays_offline(browser: Any, served: StaticSite, lang: str) -> None:
    """ACT-6 and TIM-CTR-2 in the page: the script to its end (its refused pass included), the
    chain unwound to 岩砕き's fizzle, then a why-not and a garbled move answered as Python answers."""
    context, page, guard = open_try(browser, served, lang, f"scenarios/{SCENARIO}")
    try:
        steps = python_side(lang).script.steps
        last_move = max(i for i, step in enumerate(steps) if not step.refused) + 1  # the pass that resolves
        play_script(page, upto=last_move)
        assert unwind(page) >= 2, "the last pass resolves two links: at least two link steps"
        assert play_script(page, start=last_move) == len(steps)  # then the refusals after it
        log = page.inner_text(".fsm-tryit .fsm-log")
        assert "ACT-6" in log and ("不発" in log if lang == "ja" else "fizzles" in log), log[-500:]

        python = python_side(lang)
        other = "B" if python.game.actor() == "A" else "A"
        refused = f"{other}: pass"
        python.try_move(refused)
        answer = ask(page, refused, ".fsm-why-button")
        assert answer == plain(python.why_html) and re.search(r"[A-Z]+(-[A-Z0-9]+)+", answer), answer

        garbled = "A: fly 岩の巨人 to the moon"
        python.play(garbled)
        answer = ask(page, garbled, ".fsm-play-typed")
        assert answer == plain(python.why_html), answer
        assert ("この手を読めません" if lang == "ja" else "cannot read this move") in answer

        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".fsm-tryit").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"site-try-{lang}.png"))
        assert any(u.endswith(".whl") for u in guard.seen), "the worker's requests went through the guard"
        assert not guard.outside, guard.outside
    finally:
        context.close()


def test_a_kind_page_plays_too(browser: Any, served: StaticSite) -> None:
    """The 【行動】 page's try-it opens a library scenario with 【行動】 abilities and plays a legal move."""
    context, page, guard = open_try(browser, served, "en", "kinds/kind_action")
    try:
        before = page.locator(".fsm-tryit .fsm-history option").count()
        page.locator(".fsm-tryit .fsm-move").first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('.fsm-tryit .fsm-history option').length > n", arg=before
        )
        assert not guard.outside, guard.outside
    finally:
        context.close()


def test_a_broken_scenario_is_a_message_not_a_blank_box(browser: Any, served: StaticSite) -> None:
    """An error inside the worker (here the scenario file it fetches is not YAML) is shown in the page,
    with the file and line, in the page's language; the page stays usable."""
    context = browser.new_context(viewport=SMALL)
    guard = OnlyHere(served.url)
    context.route("**/*", guard)

    def garbage(route: Any) -> None:
        route.fulfill(status=200, content_type="text/yaml", body="title: x\nunits: [\n")

    context.route("**/web/scenarios/*.yaml", garbage)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(f"{served.url}/ja/generated/ja/scenarios/{SCENARIO}.html")
        page.click(".fsm-tryit-start")
        page.wait_for_selector(".fsm-tryit[data-state=failed]")
        status = page.inner_text(".fsm-tryit-status")
        assert status.startswith("動かせませんでした:") and f"{SCENARIO}.yaml:" in status, status
        assert page.evaluate("1 + 1") == 2, "the page still answers"
        assert not guard.outside, guard.outside
    finally:
        context.close()
