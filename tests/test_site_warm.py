"""The site's "try it" on a second visit, in headless Chromium (issue 24, warm cache): the first visit
stores a memory snapshot of pyodide with the rules engine imported (``front/snapshot.js``), the next
restores it instead of installing and importing again, and a snapshot that does not restore is
dropped for a fresh boot.  Served as ``test_site_try.py`` serves it, every other host aborted.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SMALL, OnlyHere, StaticSite
from test_site_try import SCENARIO, TIMEOUT, ask

pytestmark = pytest.mark.browser

GARBLE = """
async () => {
  const cache = await caches.open('fsm-try-snapshot');
  const keys = await cache.keys();
  for (const key of keys) await cache.put(key, new Response(new Uint8Array(4096).fill(7)));
  return keys.map((k) => k.url);
}
"""


def visit(context: Any, url: str) -> Any:
    """Open ``url`` in a new tab of ``context`` and start its "try it"; the page once it is ready."""
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.click(".fsm-tryit-start")
    page.wait_for_selector(".fsm-tryit[data-state=ready] .fsm-move")
    assert not errors, errors
    return page


def plays_a_move(page: Any) -> None:
    before = page.locator(".fsm-tryit .fsm-history option").count()
    page.locator(".fsm-tryit .fsm-move").first.click()
    page.wait_for_function("n => document.querySelectorAll('.fsm-tryit .fsm-history option').length > n", arg=before)


def test_a_second_visit_restores_the_snapshot_and_still_plays(browser: Any, served: StaticSite) -> None:
    """Visit 1 (English) boots fresh and stores the snapshot; visit 2 (the Japanese page, same browser)
    restores it, downloads no wheel, plays a move and refuses a garbled one in Japanese; then, the
    stored snapshot garbled, visit 3 boots fresh again, plays, and stores a good one."""
    context = browser.new_context(viewport=SMALL)
    guard = OnlyHere(served.url)
    context.route("**/*", guard)
    en = f"{served.url}/en/generated/en/scenarios/{SCENARIO}.html"
    ja = f"{served.url}/ja/generated/ja/scenarios/{SCENARIO}.html"
    try:
        first = visit(context, en)
        assert first.get_attribute(".fsm-tryit", "data-boot") == "fresh"
        first.wait_for_selector(".fsm-tryit[data-snapshot=stored]")
        first.close()

        seen = len(guard.seen)
        second = visit(context, ja)
        assert second.get_attribute(".fsm-tryit", "data-boot") == "snapshot"
        assert not [u for u in guard.seen[seen:] if u.endswith(".whl")], "restored: no wheel is needed"
        plays_a_move(second)
        assert "この手を読めません" in ask(second, "A: fly 岩の巨人 to the moon", ".fsm-play-typed")

        assert second.evaluate(GARBLE), "the first visit's snapshot is in Cache Storage"
        second.close()
        third = visit(context, en)
        assert third.get_attribute(".fsm-tryit", "data-boot") == "fresh", "a garbled snapshot is not restored"
        plays_a_move(third)
        third.wait_for_selector(".fsm-tryit[data-snapshot=stored]")
        assert not guard.outside, guard.outside
    finally:
        context.close()
