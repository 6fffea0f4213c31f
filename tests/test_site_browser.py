"""The rulebook site in a real browser: headless Chromium (Playwright) on a 127.0.0.1 server.

Checks that every local link of both languages resolves (pages, fragments, images, styles,
scripts), that every clause ID has its anchor, that every diagram image loads, and that no
Japanese character of a page falls back to tofu.  A screenshot of a Japanese page goes to
``test-artifacts/site-ja.png``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, REPO, chromium_path

from fsm.rules.catalogue import CLAUSES

pytestmark = pytest.mark.browser
ARTIFACTS = REPO / "test-artifacts"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1 (web fonts do not load from file:// in Chromium)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# Runs in the page: a breadth-first crawl of every local page from the start URL, fetching each
# link once and checking that a #fragment names an element of the target page.
CRAWL = """
async (start) => {
  const origin = location.origin, seen = new Map(), broken = [], images = new Set();
  // each URL fetched and parsed once: its status, and for a page its element IDs and references
  const get = (url) => {
    if (!seen.has(url)) {
      seen.set(url, fetch(url).then(async r => {
        const type = r.headers.get('content-type') || '';
        if (!r.ok || !type.includes('html')) return {ok: r.ok, html: false};
        const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
        const ids = new Set([...doc.querySelectorAll('[id]')].map(e => e.id));
        const refs = [...doc.querySelectorAll('a[href], img[src], link[href], script[src]')]
          .map(e => [e.tagName, e.getAttribute('href') || e.getAttribute('src')]);
        return {ok: true, html: true, ids, refs};
      }));
    }
    return seen.get(url);
  };
  const pages = new Set([start]), queue = [start];
  while (queue.length) {
    const url = queue.shift();
    const page = await get(url);
    if (!page.html) continue;
    for (const [tag, raw] of page.refs) {
      if (/^(mailto|javascript|data):/.test(raw)) continue;
      const target = new URL(raw, url);
      if (target.origin !== origin) continue;
      const bare = target.href.split('#')[0];
      if (tag === 'IMG') images.add(bare);
      const got = await get(bare);
      if (!got.ok) { broken.push(`${url} -> ${raw} (missing)`); continue; }
      const id = decodeURIComponent(target.hash.slice(1));
      if (id && got.html && !got.ids.has(id)) broken.push(`${url} -> ${raw} (no #${id})`);
      if (got.html && !pages.has(bare)) { pages.add(bare); queue.push(bare); }
    }
  }
  const sizes = [];
  for (const src of images) {
    const img = new Image();
    img.src = src;
    try { await img.decode(); } catch (e) {}
    sizes.push([src, img.naturalWidth]);
  }
  return {pages: pages.size, broken, images: sizes};
}
"""

# Runs in the page: every distinct Japanese character of the page drawn with the page's font,
# compared with the drawing of a character no font has (the tofu box): none may match it.
TOFU = """
async () => {
  await document.fonts.ready;
  const text = document.body.innerText + [...document.querySelectorAll('svg text')].map(t => t.textContent).join('');
  const chars = [...new Set(text.match(/[\\u3040-\\u30ff\\u4e00-\\u9fff\\uff00-\\uffef]/g) || [])];
  const font = getComputedStyle(document.body).fontFamily;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 40;
  const ctx = canvas.getContext('2d');
  const draw = (ch) => {
    ctx.clearRect(0, 0, 40, 40);
    ctx.font = `32px ${font}`;
    ctx.fillText(ch, 2, 34);
    return ctx.getImageData(0, 0, 40, 40).data.join(',');
  };
  const tofu = draw('\\u{10FFFD}');
  const faces = [...document.fonts].map(f => [f.family, f.status]);
  return {count: chars.length, tofu: chars.filter(ch => draw(ch) === tofu), faces, font};
}
"""


def test_site_links_anchors_images_and_japanese_glyphs(served: str, site: Path) -> None:
    """Both languages: no broken local link or fragment, every clause anchor, every diagram image
    decodes with a width, and every Japanese character is drawn from a loaded font, not tofu."""
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    assert chromium, "Chromium not found: run ./scripts/setup.sh test (Debian package chromium), or set FSM_CHROMIUM"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            page.set_default_timeout(120_000)
            page.goto(f"{served}/index.html")
            report = page.evaluate(CRAWL, f"{served}/index.html")
            assert report["pages"] > 2 * 60, report["pages"]  # both languages were reached
            assert not report["broken"], report["broken"][:20]
            diagrams = [(src, w) for src, w in report["images"] if "/_images/fsm-" in src]
            assert len(diagrams) >= 2 * 17
            assert all(w > 0 for _, w in diagrams), [src for src, w in diagrams if not w]

            for lang in ("ja", "en"):
                page.goto(f"{served}/{lang}/generated/{lang}/clauses.html")
                missing = page.evaluate("ids => ids.filter(id => !document.getElementById(id))", list(CLAUSES))
                assert not missing, (lang, missing)

            for path in ("ja/generated/ja/kinds/kind_action.html", "ja/generated/ja/scenarios/nb_counter_chain.html"):
                page.goto(f"{served}/{path}")
                glyphs = page.evaluate(TOFU)
                assert glyphs["count"] > 30, glyphs
                assert ["fsm-IPAexGothic", "loaded"] in glyphs["faces"], glyphs["faces"]
                assert not glyphs["tofu"], glyphs["tofu"]

            page.goto(f"{served}/ja/generated/ja/kinds/kind_action.html")
            page.screenshot(path=str(ARTIFACTS / "site-ja.png"), full_page=False)
            assert (ARTIFACTS / "site-ja.png").stat().st_size > 10_000
        finally:
            browser.close()


#: The pages the screenshots show, in each language.
SHOWN_PAGES = {
    "index": "index.html",
    "kind": "generated/{lang}/kinds/kind_action.html",
    "scenario": "generated/{lang}/scenarios/action_fizzles_after_counter.html",
    "matrix": "generated/{lang}/matrix.html",
    "catalogue": "generated/{lang}/clauses.html",
}
VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}

# Runs in the page: the timing matrix's box, its scroll hint, and how many lines each heading takes
# and whether a heading was broken inside a word (Japanese: a heading's text on one line).
MATRIX = """
() => {
  const box = document.querySelector('.fsm-matrix');
  const hint = document.querySelector('.fsm-scroll-hint');
  const heads = [...document.querySelectorAll('table.fsm-timing-matrix thead th')].map(th => {
    const r = document.createRange();
    r.selectNodeContents(th);
    return [th.textContent.trim(), new Set([...r.getClientRects()].map(x => Math.round(x.top))).size];
  });
  const font = parseFloat(getComputedStyle(document.querySelector('table.fsm-timing-matrix td')).fontSize);
  return {scroll: box.scrollWidth, width: box.clientWidth, hint: getComputedStyle(hint).display, heads, font,
          page: document.documentElement.scrollWidth, viewport: window.innerWidth};
}
"""


def test_site_screenshots_language_switch_search_and_matrix(served: str) -> None:
    """At 1366×768 and 390×844, in both languages: the index, a kind page, a scenario page, the
    matrix and the catalogue (screenshots in test-artifacts/); each page's switch leads to the same
    page in the other language; the search box speaks the page's language; no page is wider than
    the screen; the matrix fits at 1366 px and scrolls on a phone with a visible cue, its headings
    never broken inside a word."""
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    assert chromium, "Chromium not found: run ./scripts/setup.sh test (Debian package chromium), or set FSM_CHROMIUM"
    ARTIFACTS.mkdir(exist_ok=True)
    search = {"ja": "検索", "en": "Search"}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            for device, (width, height) in VIEWPORTS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                page.set_default_timeout(60_000)
                for lang, other in (("ja", "en"), ("en", "ja")):
                    for name, path in SHOWN_PAGES.items():
                        here = f"{served}/{lang}/{path.format(lang=lang)}"
                        page.goto(here)
                        page.wait_for_load_state("networkidle")
                        shot = ARTIFACTS / f"site-{lang}-{name}-{width}x{height}.png"
                        page.screenshot(path=str(shot))
                        assert shot.stat().st_size > 5_000, shot
                        assert page.evaluate("document.documentElement.lang") == lang
                        sizes = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                        assert sizes[0] <= sizes[1], (lang, name, device, sizes)  # nothing runs off the screen
                        switch = page.locator("a.fsm-lang-other")
                        assert switch.is_visible(), (lang, name, device)
                        target = page.evaluate("document.querySelector('a.fsm-lang-other').href")
                        assert target == f"{served}/{other}/{path.format(lang=other)}", (here, target)
                        placeholder = page.get_attribute("input.sidebar-search", "placeholder")
                        assert placeholder == search[lang], (lang, placeholder)
                        if name != "matrix":
                            continue
                        m = page.evaluate(MATRIX)
                        assert m["font"] >= 12, m["font"]
                        if device == "desktop":
                            assert m["scroll"] <= m["width"] + 1, (lang, m["scroll"], m["width"])  # fits
                            assert m["hint"] == "none"
                        else:
                            assert m["scroll"] > m["width"] and m["hint"] != "none", m  # scrolls, and says so
                        for text, lines in m["heads"]:
                            assert lines <= max(1, len(text.split())), (lang, device, text, lines)
                    page.goto(f"{served}/{lang}/generated/{lang}/kinds/kind_action.html")
                    page.locator("a.fsm-lang-other").click()
                    page.wait_for_load_state()
                    assert page.url == f"{served}/{other}/generated/{other}/kinds/kind_action.html"
                page.close()
        finally:
            browser.close()
