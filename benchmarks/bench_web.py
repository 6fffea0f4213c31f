"""The browser edition's "try it" in headless Chromium (numbers only, never a test).

    .venv/bin/python benchmarks/bench_web.py [--site docs/site/_build] [--runs 3] [--moves 15] [--json]

Serves the built site (``./scripts/docs.sh``) with ``python -m http.server`` on 127.0.0.1, every other
host aborted, and opens an English scenario page (``--page``), pressing "try it" as soon as the page is
parsed, as an impatient reader would.  Measured in the page's own clock (``performance.now()``, zero at
navigation start):

* **first interactive**: page load → the first legal-move buttons drawn; with an **empty cache** (a new
  browser context per run) and a **warm** one (the same context, the page opened again: Python restored
  from the memory snapshot the first visit left in Cache Storage, ``front/snapshot.js``); with the
  stages the worker reported on the way, and how each visit's Python started, to show what dominates;
* the **floor** of that, in the same session: a bare Web Worker that only starts the same pyodide and
  runs ``1+1`` (empty cache); the report gives first interactive as a multiple of it;
* **a move in the page**: click of the first move button → the page redrawn (the move's frames back
  from the worker), ``--moves`` times, each undone in between (undo needs no worker); median and p90;
  its anchor is the same request handled by the Python step-through in CPython in this process
  (``StepThrough._message``), whose median the page's is reported as a multiple of;
* **bytes** of the first visit (response bodies, empty cache, up to the diagram drawn), and the largest
  files.

The issue's targets: first interactive ≤ 8 s empty cache, ≤ 3 s warm; median move ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from browser_support import CHROMIUM_ARGS, SMALL, OnlyHere, chromium_path, serve_static  # noqa: E402

# Pressed as soon as the page is parsed; the stages the worker reports are timed as they show.
PRESS = """
window.__stages = {};
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('.fsm-tryit');
  const status = box.querySelector('.fsm-tryit-status');
  new MutationObserver(() => { window.__stages[status.textContent || box.dataset.state] ??= performance.now(); })
    .observe(box, {subtree: true, childList: true, characterData: true, attributes: true});
  box.querySelector('.fsm-tryit-start').click();
});
"""

MOVE = """
async () => {
  const root = document.querySelector('.fsm-tryit');
  const history = () => root.querySelectorAll('.fsm-history option').length;
  const frame = () => new Promise(requestAnimationFrame);
  const before = history();
  const t0 = performance.now();
  root.querySelector('.fsm-move').click();
  while (history() === before) await frame();
  const took = performance.now() - t0;
  root.querySelector('.fsm-undo').click();
  while (history() !== before) await frame();
  return took;
}
"""

FLOOR = """
async () => {
  const base = new URL('../../../../web/', location.href).href;
  const code = `import {loadPyodide} from "${base}pyodide/pyodide.mjs";
    const py = await loadPyodide({indexURL: "${base}pyodide/"}); py.runPython("1+1"); postMessage("ok");`;
  const t0 = performance.now();
  const worker = new Worker(URL.createObjectURL(new Blob([code], {type: 'text/javascript'})), {type: 'module'});
  await new Promise((ok, fail) => { worker.onmessage = ok; worker.onerror = fail; });
  worker.terminate();
  return performance.now() - t0;
}
"""


def body_size(request: Any) -> int:
    """A response's body in bytes.  Chromium reports 0 for a Worker's own script (worker.js, viz.js:
    1.5 MB), so the server's Content-Length is taken where it says more (http.server sends it, uncompressed)."""
    reported = int(request.sizes()["responseBodySize"])
    response = request.response()
    length = response.headers.get("content-length", "") if response is not None else ""
    return max(reported, int(length)) if length.isdigit() else reported


def first_interactive(context: Any, url: str) -> tuple[float, dict[str, float], str]:
    """First interactive, the stages seen on the way, and how Python started ("fresh" or "snapshot").
    The page is left once its diagram is drawn and, after a fresh start, the worker has stored its
    snapshot (or failed to): a reader who saw the moves stays that long."""
    page = context.new_page()
    page.set_default_timeout(300_000)
    page.add_init_script(PRESS)
    page.goto(url)
    at = page.wait_for_function(
        "() => document.querySelector('.fsm-tryit .fsm-move') && performance.now()", polling="raf"
    ).json_value()
    stages = page.evaluate("window.__stages")
    boot = page.get_attribute(".fsm-tryit", "data-boot") or ""
    page.wait_for_selector(".fsm-tryit svg")
    if boot == "fresh":
        page.wait_for_selector(".fsm-tryit[data-snapshot]")
    page.close()
    return float(at), stages, boot


def cpython_moves(scenario: Path, n: int) -> list[float]:
    """The anchor: the page's play request handled by the Python step-through in CPython."""
    from fsm.notebook.channel import Channel
    from fsm.notebook.step_through import StepThrough

    step = StepThrough.from_scenario(scenario, lang="en", view=lambda **kw: Channel(**kw, sink=lambda _t: None))
    move = step.shown["moves"][0]["move"]
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        step._message(step.widget, {"type": "play", "point": 0, "move": move}, None)
        times.append((time.perf_counter() - t0) * 1000)
        step._message(step.widget, {"type": "try", "point": 0, "move": move}, None)  # the page undid it
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=REPO / "docs" / "site" / "_build")
    parser.add_argument("--page", default="action_fizzles_after_counter")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (args.site / "web" / "try.js").is_file():
        print(f"bench_web: no built site with web assets in {args.site}: run ./scripts/docs.sh", file=sys.stderr)
        return 1
    chromium = chromium_path()
    if not chromium:
        print("bench_web: Chromium not found (Debian package chromium, or FSM_CHROMIUM)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    server = serve_static(args.site)
    url = f"{server.url}/en/generated/en/scenarios/{args.page}.html"
    out: dict[str, Any] = {"load": os.getloadavg(), "page": url.removeprefix(server.url)}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            guard = OnlyHere(server.url)
            cold, warm, stages, warm_stages, floor, boots = [], [], [], [], [], []
            sizes: Counter[str] = Counter()
            for run in range(args.runs):
                context = browser.new_context(viewport=SMALL)
                context.route("**/*", guard)
                counting = [run == 0]  # the first visit's bytes only, not the warm one's

                def count(request: Any, counting: list[bool] = counting) -> None:
                    if counting[0]:
                        sizes.update({request.url: body_size(request)})

                context.on("requestfinished", count)
                at, seen, boot = first_interactive(context, url)
                counting[0] = False
                cold.append(at)
                stages.append(seen)
                boots.append(boot)
                at, seen, boot = first_interactive(context, url)
                warm.append(at)
                warm_stages.append(seen)
                boots.append(boot)
                if run == args.runs - 1:
                    page = context.new_page()
                    page.set_default_timeout(300_000)
                    page.goto(url)
                    page.click(".fsm-tryit-start")
                    page.wait_for_selector(".fsm-tryit .fsm-move")
                    moves = [page.evaluate(MOVE) for _ in range(args.moves)]
                context.close()
                context = browser.new_context(viewport=SMALL)
                context.route("**/*", guard)
                page = context.new_page()
                page.goto(url)
                floor.append(page.evaluate(FLOOR))
                context.close()
            browser.close()
    finally:
        server.stop()
    anchor = cpython_moves(REPO / "scenarios" / f"{args.page}.yaml", args.moves)
    total = sum(sizes.values())
    by_file = sizes.most_common(6)
    med = statistics.median
    out.update(
        {
            "first_interactive_cold_ms": cold,
            "first_interactive_warm_ms": warm,
            "stages_cold_ms": stages,
            "stages_warm_ms": warm_stages,
            "boots": boots,
            "floor_pyodide_boot_cold_ms": floor,
            "cold_over_floor": med(cold) / med(floor),
            "move_ms": moves,
            "move_median_ms": med(moves),
            "move_p90_ms": sorted(moves)[int(0.9 * (len(moves) - 1))],
            "cpython_move_median_ms": med(anchor),
            "move_over_cpython": med(moves) / med(anchor),
            "first_visit_bytes": total,
            "largest": [(u.removeprefix(server.url), n) for u, n in by_file],
            "outside_requests": guard.outside,
        }
    )
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    print(f"load average {out['load'][0]:.2f} (shared machine); page {out['page']}")
    print(f"first interactive, empty cache: median {med(cold):.0f} ms {[round(x) for x in cold]}")
    print(f"first interactive, warm cache:  median {med(warm):.0f} ms {[round(x) for x in warm]}")
    ratio = out["cold_over_floor"]
    print(f"  floor (bare pyodide boot in a worker, empty cache): median {med(floor):.0f} ms; ratio {ratio:.2f}×")
    print(f"  how Python started, empty then warm, per run: {boots}")
    first = json.dumps({k: round(v) for k, v in stages[0].items()}, ensure_ascii=False)
    print(f"  stages of the first run (ms since navigation): {first}")
    again = json.dumps({k: round(v) for k, v in warm_stages[0].items()}, ensure_ascii=False)
    print(f"  stages of its warm visit: {again}")
    print(f"a move in the page: median {med(moves):.1f} ms, p90 {out['move_p90_ms']:.1f} ms (n={len(moves)})")
    print(f"  anchor: the same request in CPython: median {med(anchor):.1f} ms; ratio {out['move_over_cpython']:.2f}×")
    print(f"first visit: {total / 1e6:.2f} MB in response bodies; largest:")
    for u, n in out["largest"]:
        print(f"  {n / 1e6:7.2f} MB {n / total:5.1%}  {u}")
    print(f"requests to other hosts: {len(guard.outside)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
