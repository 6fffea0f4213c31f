"""Click-to-redraw latency of the step-through in a real browser (numbers only, never a test).

    .venv/bin/python benchmarks/bench_browser.py [--json] [--notebooks 01,03] [--max-clicks N] [--floor-clicks N]

Starts JupyterLab on 127.0.0.1 over a copy of ``notebooks/`` (``tests/browser_support.py``),
drives Debian's Chromium headless through Playwright, and in each notebook runs all cells,
then clicks through every step-through: **next in script** until the script ends, then
**step** until the replay ends.  A click's latency is measured inside the page: from the
click (``performance.now()`` just before ``element.click()``) to the last change the click
causes anywhere in that step-through (header, moves, chain, log, diagram), found with a
``MutationObserver`` once the widget has been quiet for 400 ms.

In the same browser session and the same JupyterLab, the *floor*: a bare ipywidgets ``Button``
whose click handler changes a ``Label``, measured the same way, once before the notebooks and
once after them (the machine's load drifts; both halves are reported and pooled).  The report
gives median, p90 and max of both, and the step-through's median and p90 as multiples of the
floor's.  Every click of every step-through is counted (no cap unless ``--max-clicks``); the
slowest clicks are listed with their notebook and button.

Before the first click of a notebook it waits, as a reader would, until the page has laid out
the drawings it was sent ahead (``front/layout.js``), and reports how long that took after the
last step-through appeared, and the bytes the kernel sent the page while the notebook loaded
(every widget's ES module, Graphviz once, frames and drawings).

It also counts, from the page's websockets (Playwright's frame events), the bytes the kernel
sends to the page per click, and the kernel messages (``comm_msg``) the page sends while it
steps through an unwinding (the target: none).  The three targets of issue 23: median ≤ 1.5×
the floor, p90 ≤ 2× the floor's p90, max ≤ 100 ms; bytes per click reported (at most a fifth of
the ipywidgets step-through's); no kernel message per unwinding step.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # browser_support: the test suite's JupyterLab launcher

from browser_support import CHROMIUM_ARGS, PANEL, chromium_path, run_all, start_lab  # noqa: E402

QUIET_MS = 400

#: Clicks ``el`` and resolves with the ms from the click to the last change under ``root``, and how many
#: diagrams the click showed before their layout was done.
MEASURE_JS = """
async ([root, el, quiet]) => {
  const page = globalThis[Symbol.for('fsm.step-through.page')];
  const waits = page ? page.waits : 0; // diagrams that had to wait for a layout (front/page.js)
  let last = -1;
  const observer = new MutationObserver(() => { last = performance.now(); });
  observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  const start = performance.now();
  el.click();
  await new Promise(resolve => {
    const check = () => {
      const now = performance.now();
      if ((last > 0 && now - last > quiet) || now - start > 10000) resolve(); else setTimeout(check, 25);
    };
    setTimeout(check, 25);
  });
  observer.disconnect();
  const after = page ? page.waits : 0;
  return [last > 0 ? last - start : null, after - waits];
}
"""

FLOOR_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "floor",
            "metadata": {},
            "outputs": [],
            "source": (
                "import ipywidgets as w\n"
                "button, label = w.Button(description='ping'), w.Label('0')\n"
                "button.add_class('floor-button')\n"
                "button.on_click(lambda _b: setattr(label, 'value', str(int(label.value) + 1)))\n"
                "w.VBox([button, label])"
            ),
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def _summary(ms: list[float]) -> dict[str, float]:
    if not ms:
        return {"n": 0}
    ordered = sorted(ms)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 1),
        "p90_ms": round(p90, 1),
        "max_ms": round(max(ms), 1),
    }


class Wire:
    """What crosses the page's websockets: bytes received from the kernel, messages sent to it."""

    def __init__(self) -> None:
        self.received = 0
        self.sent_comm = 0

    def watch(self, page: Any) -> None:
        def socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: setattr(self, "received", self.received + _size(payload)))
            ws.on("framesent", lambda payload: self._sent(payload))

        page.on("websocket", socket)

    def _sent(self, payload: Any) -> None:
        if "comm_msg" in (payload if isinstance(payload, str) else payload.decode("utf-8", "replace")):
            self.sent_comm += 1


def _size(payload: Any) -> int:
    return len(payload.encode("utf-8")) if isinstance(payload, str) else len(payload)


def _click(page: Any, root: Any, button: Any) -> tuple[float | None, int]:
    """The click's ms to its last DOM change, and the diagrams it showed that waited for a layout."""
    ms, waited = page.evaluate(MEASURE_JS, [root.element_handle(), button.element_handle(), QUIET_MS])
    page.wait_for_timeout(30)  # let Playwright hand over the frame events of the click
    return ms, int(waited)


#: Resolves once every step-through has its diagram and the page has nothing left to lay out ahead.
SETTLED_JS = """
() => {
  const steps = document.querySelectorAll('.fsm-step');
  const drawn = document.querySelectorAll('.fsm-step .fsm-diagram svg').length === steps.length;
  const p = globalThis[Symbol.for('fsm.step-through.page')];
  return drawn && (!p || (!p.pumping && p.pending.length === 0));
}
"""


def _settle(page: Any, timeout: float = 120) -> float:
    """Seconds until the page has drawn every diagram and laid out what it was sent ahead."""
    start = time.monotonic()
    while not page.evaluate(SETTLED_JS) and time.monotonic() - start < timeout:
        time.sleep(0.1)
    return time.monotonic() - start


def _step_throughs(page: Any, notebook: str, max_clicks: int, wire: Wire, tally: dict[str, Any]) -> list[float]:
    """Every step-through of the open notebook, clicked through its script, then its replay."""
    page.wait_for_selector(f"{PANEL} .fsm-step .fsm-move", timeout=120_000)
    steps = page.locator(f"{PANEL} .fsm-step")
    # Run All has finished once the kernel is idle and the number of step-throughs has stopped changing
    seen, stable_since, deadline = -1, time.monotonic(), time.monotonic() + 120
    while time.monotonic() - stable_since < 3 and time.monotonic() < deadline:
        count = steps.count() if page.locator(".jp-StatusBar-Widget :text('| Idle')").count() else -1
        if count != seen:
            seen, stable_since = count, time.monotonic()
        time.sleep(0.25)
    ahead_s = _settle(page)
    tally["load"][notebook] = {"step_throughs": seen, "bytes": wire.received, "ahead_layout_s": round(ahead_s, 2)}
    out: list[float] = []
    for i in range(steps.count()):
        step = steps.nth(i)
        for selector in (".fsm-script-next", ".fsm-step-next"):
            button = step.locator(selector).first
            while button.is_visible() and button.is_enabled() and len(out) < max_clicks:
                received, sent = wire.received, wire.sent_comm
                ms, waited = _click(page, step, button)
                tally["layout_waits"] += waited
                if ms is not None:
                    out.append(ms)
                    tally["clicks"].append((round(ms, 1), notebook, i, selector))
                    tally["bytes"].append(wire.received - received)
                    if selector == ".fsm-step-next":
                        tally["step_messages"].append(wire.sent_comm - sent)
    print(f"  {notebook}: {len(out)} clicks", file=sys.stderr)
    return out


def _floor(browser: Any, lab: Any, clicks: int) -> tuple[list[float], list[int]]:
    """The bare ipywidgets round trip: a Button whose handler changes a Label, clicked ``clicks`` times."""
    wire = Wire()
    page = run_all(browser, lab, "_floor.ipynb", watch=wire.watch)
    page.wait_for_selector(f"{PANEL} .floor-button", timeout=120_000)
    button = page.locator(f"{PANEL} .floor-button").first
    root = button.locator("xpath=..")
    ms_out, sizes = [], []
    for _ in range(clicks):
        before = wire.received
        if (ms := _click(page, root, button)[0]) is not None:
            ms_out.append(ms)
            sizes.append(wire.received - before)
    page.close()
    return ms_out, sizes


def run(notebooks: list[str], max_clicks: int | None = None, floor_clicks: int = 30) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    if chromium is None:
        raise SystemExit("no Chromium: install it (`sudo apt-get install -y chromium`) or set FSM_CHROMIUM")
    with tempfile.TemporaryDirectory() as tmp:
        lab = start_lab(Path(tmp))
        try:
            (lab.root / "notebooks" / "_floor.ipynb").write_text(json.dumps(FLOOR_NOTEBOOK), encoding="utf-8")
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
                try:
                    floor_before, floor_bytes = _floor(browser, lab, floor_clicks)
                    clicks: list[float] = []
                    per_notebook = {}
                    tally: dict[str, Any] = {"bytes": [], "step_messages": [], "clicks": [], "load": {}}
                    tally["layout_waits"] = 0
                    for nb in notebooks:
                        wire = Wire()
                        page = run_all(browser, lab, nb, watch=wire.watch)
                        left = 10**9 if max_clicks is None else max_clicks - len(clicks)
                        mine = _step_throughs(page, nb, left, wire, tally)
                        per_notebook[nb] = _summary(mine) if mine else {}
                        clicks += mine
                        page.close()
                    floor_after, more_bytes = _floor(browser, lab, floor_clicks)
                    floor_bytes += more_bytes
                finally:
                    browser.close()
        finally:
            lab.stop()
    floor = floor_before + floor_after
    step, base = _summary(clicks), _summary(floor)
    sizes = tally["bytes"]
    return {
        "step_through": step,
        "floor": base,
        "median_ratio_to_floor": round(step["median_ms"] / base["median_ms"], 2) if clicks else None,
        "p90_ratio_to_floor": round(step["p90_ms"] / base["p90_ms"], 2) if clicks else None,
        "bytes_per_click": {
            "mean": round(statistics.mean(sizes)) if sizes else 0,
            "median": round(statistics.median(sizes)) if sizes else 0,
            "max": max(sizes, default=0),
            "floor_median": round(statistics.median(floor_bytes)) if floor_bytes else 0,
        },
        "unwinding_steps": len(tally["step_messages"]),
        "kernel_messages_per_unwinding_step": max(tally["step_messages"], default=0),
        "per_notebook": per_notebook,
        "floor_before": _summary(floor_before),
        "floor_after": _summary(floor_after),
        "slowest_clicks": sorted(tally["clicks"], reverse=True)[:5],
        "clicks_waiting_on_a_layout": tally["layout_waits"],
        "load": tally["load"],
        "targets": {"median_ratio_to_floor": 1.5, "p90_ratio_to_floor": 2.0, "max_ms": 100},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--notebooks", default="01,02,03,04,05", help="comma list of notebook number prefixes")
    parser.add_argument("--max-clicks", type=int, default=None, help="stop after this many step-through clicks")
    parser.add_argument(
        "--floor-clicks", type=int, default=30, help="floor clicks before and again after the notebooks"
    )
    args = parser.parse_args(argv)
    wanted = [p.strip() for p in args.notebooks.split(",") if p.strip()]
    names = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb") if any(p.name.startswith(w) for w in wanted))
    if not names:
        parser.error(f"no notebook starts with {args.notebooks}")
    n = run(names, args.max_clicks, args.floor_clicks)
    if args.json:
        print(json.dumps(n, ensure_ascii=False))
        return 0
    s, f = n["step_through"], n["floor"]
    print(
        f"step-through click → redraw over {s['n']} clicks: median {s['median_ms']} ms, p90 {s['p90_ms']} ms, "
        f"max {s['max_ms']} ms"
    )
    print(
        f"bare ipywidgets button → label ({f['n']} clicks): median {f['median_ms']} ms, p90 {f['p90_ms']} ms, "
        f"max {f['max_ms']} ms"
    )
    t = n["targets"]
    print(
        f"ratio to the floor: median {n['median_ratio_to_floor']}× (target ≤ {t['median_ratio_to_floor']}×), "
        f"p90 {n['p90_ratio_to_floor']}× (target ≤ {t['p90_ratio_to_floor']}×); max {s['max_ms']} ms "
        f"(target ≤ {t['max_ms']} ms)"
    )
    b = n["bytes_per_click"]
    print(
        f"bytes from the kernel per click: mean {b['mean']}, median {b['median']}, max {b['max']} "
        f"(floor click: median {b['floor_median']})"
    )
    print(
        f"kernel messages sent by the page per unwinding step: at most {n['kernel_messages_per_unwinding_step']} "
        f"over {n['unwinding_steps']} steps (target 0)"
    )
    print(f"floor before the notebooks: {n['floor_before']}; after: {n['floor_after']}")
    print(f"slowest clicks (ms, notebook, step-through, button): {n['slowest_clicks']}")
    print(f"diagrams a click showed before their layout was done: {n['clicks_waiting_on_a_layout']} (target 0)")
    for nb, numbers in n["per_notebook"].items():
        print(f"  {nb}: {numbers}; loading: {n['load'].get(nb)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
