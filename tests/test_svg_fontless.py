"""A committed SVG drawn by a browser that has no fonts at all (an empty fontconfig), issue 15.

Headless Chromium is started with ``FONTCONFIG_FILE`` pointing at a configuration that lists
no font folder (only the system's rendering rules), so the only glyphs it has are the ones the
SVG carries.  The SVG as committed
must look the same as it does with the system fonts; the same SVG with its embedded glyphs
removed must not (that shows the empty fontconfig really took every font away).
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, REPO, chromium_path

pytestmark = pytest.mark.browser

EMPTY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/conf.d</include>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""

# Draws an SVG (as an <img>, as a page would show it) on a canvas and returns its pixels' sum per
# channel and a coarse fingerprint: enough to tell "same drawing" from "text missing".
DRAW = """
async (src) => {
  const img = new Image();
  img.src = src;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 300) dark++;
  return {w: canvas.width, h: canvas.height, dark};
}
"""


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _draw(chromium: str, env: dict[str, str] | None, sources: list[str]) -> list[dict[str, int]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS, env=env)
        try:
            page = browser.new_page()
            page.set_content("<html><body></body></html>")
            return [page.evaluate(DRAW, src) for src in sources]
        finally:
            browser.close()


def test_committed_svg_draws_the_same_without_any_system_font(tmp_path: Path) -> None:
    chromium = chromium_path()
    assert chromium, "Chromium not found: run ./scripts/setup.sh test (Debian package chromium), or set FSM_CHROMIUM"
    svg = (REPO / "diagrams" / "kind_action.svg").read_text(encoding="utf-8")
    bare = re.sub(r"<defs><style>@font-face.*?</style></defs>", "", svg, flags=re.DOTALL)
    assert bare != svg
    conf = tmp_path / "fonts.conf"
    conf.write_text(EMPTY_FONTCONFIG.format(cache=tmp_path / "cache"), encoding="utf-8")
    fontless = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    (with_fonts,) = _draw(chromium, None, [_data_uri(svg)])
    embedded, stripped = _draw(chromium, fontless, [_data_uri(svg), _data_uri(bare)])
    assert embedded["w"] == with_fonts["w"] > 0
    # the embedded glyphs draw the text as the system font did (anti-aliasing aside) ...
    assert embedded["dark"] == pytest.approx(with_fonts["dark"], rel=0.03), (embedded, with_fonts)
    # ... and without them the fontless browser draws no text at all: only lines and boxes are left
    assert stripped["dark"] < 0.5 * with_fonts["dark"], (stripped, with_fonts)
