"""The kernel's side of a step-through click, in-process (numbers only, never a test).

    .venv/bin/python benchmarks/bench_step_kernel.py [--json] [--notebooks 01,03] [--repeat N] [--profile]

Runs the code cells of each notebook with every step-through's page replaced by a recorder,
then clicks as ``bench_browser.py`` does: **next in script** until the script ends, then
**step** until the replay ends.  The page is mirrored here (frames from an index on, the
cursor), so each request names the decision point the page would name; a **step** is the
page's own and costs the kernel nothing.  For each click: the handler's time
(``StepThrough._message``) and the messages it sent with their bytes as compact JSON
(``content`` only: Jupyter's envelope, about the same for every message, is not in them).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


class Recorder:
    """A page side that keeps what the kernel sends (the traits, the custom messages)."""

    def __init__(self, **traits: Any) -> None:
        self.traits = traits
        self.handlers: list[Any] = []
        self.sent: list[dict[str, Any]] = []
        self.sizes: list[int] = []

    def send(self, message: dict[str, Any], buffers: Any = None) -> None:
        self.sizes.append(len(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()))
        self.sent.append(message)

    def on_msg(self, handler: Any) -> None:
        self.handlers.append(handler)

    def ask(self, content: dict[str, Any]) -> float:
        start = time.perf_counter()
        for h in self.handlers:
            h(self, content, None)
        return (time.perf_counter() - start) * 1000


class Mirror:
    """The page's frames (front/frames.js), enough to know the point and the buttons' state."""

    def __init__(self, parts: dict[str, str]) -> None:
        self.frames: list[dict[str, Any]] = []
        self.cursor = 0
        self.parts = parts

    def apply(self, msg: dict[str, Any]) -> None:
        from fsm.notebook.wire import decode

        if msg.get("type") != "game":
            return
        self.frames = decode(msg, self.frames, self.parts)
        self.cursor = max(0, min(msg["cursor"], len(self.frames) - 1))

    @property
    def point(self) -> int:
        return int(self.frames[self.cursor]["move"])

    def decision(self) -> dict[str, Any]:
        move = self.frames[self.cursor]["move"]
        return next(f for f in self.frames if f["move"] == move and f["decision"])


def _cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def _open(notebook: Path) -> list[tuple[Any, Recorder]]:
    """Run the notebook's cells; every step-through made, with its recorder."""
    import fsm.notebook.step_through as st

    made: list[Recorder] = []

    def view(**traits: Any) -> Recorder:
        made.append(Recorder(**traits))
        return made[-1]

    originals = st.StepThrough.__init__, st.widget
    steps: list[Any] = []

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        originals[0](self, *args, **kwargs)
        steps.append(self)

    st.StepThrough.__init__, st.widget = init, view  # type: ignore[method-assign]
    here = Path.cwd()
    try:
        os.chdir(notebook.parent)
        namespace: dict[str, Any] = {}
        for source in _cells(notebook):
            with contextlib.redirect_stdout(io.StringIO()):
                try:
                    exec(compile(source, str(notebook), "exec"), namespace)
                except Exception as err:  # noqa: BLE001 - a cell that needs a real widget (a grid of two)
                    print(f"{notebook.name}: a cell failed: {type(err).__name__}: {err}", file=sys.stderr)
    finally:
        os.chdir(here)
        st.StepThrough.__init__, st.widget = originals  # type: ignore[method-assign]
    return [(s, s.widget) for s in steps]


def clicks(step: Any, rec: Recorder, page: dict[str, set[str]]) -> list[dict[str, Any]]:
    """Hello and ahead (the load, not counted), then the script, then the steps; one record a click.

    ``page``: the drawing keys and clause tooltips the page has from the notebook's other step-throughs."""
    mirror = Mirror(rec.traits["parts"])
    rec.ask({"type": "hello"})
    for m in rec.sent[-1:]:
        mirror.apply(m)
    page["clauses"].update(rec.sent[-1].get("clauses", {}))
    page["drawings"].update(rec.sent[-1].get("drawings", {}))
    rec.ask({"type": "ahead", "have": sorted(page["drawings"]), "clauses": sorted(page["clauses"])})
    page["drawings"].update(rec.sent[-1].get("drawings", {}))
    out = []
    steps = rec.traits.get("script") or []
    while True:
        pos, off = mirror.decision().get("script", [0, False])
        if off or pos >= len(steps):
            break
        before = len(rec.sent)
        ms = rec.ask({"type": "script", "point": mirror.point})
        new = rec.sent[before:]
        for m in new:
            mirror.apply(m)
            page["clauses"].update(m.get("clauses", {}))
        sizes = rec.sizes[before:]
        out.append({"button": "script", "ms": ms, "messages": len(new), "bytes": sum(sizes), "sizes": sizes})
        if not new:
            break
    while mirror.cursor < len(mirror.frames) - 1:
        mirror.cursor += 1
        out.append({"button": "step", "ms": 0.0, "messages": 0, "bytes": 0, "sizes": []})
    return out


def _summary(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"n": 0}
    o = sorted(xs)
    return {
        "n": len(xs),
        "mean": round(statistics.mean(xs), 2),
        "median": round(statistics.median(xs), 2),
        "p90": round(o[min(len(o) - 1, round(0.9 * (len(o) - 1)))], 2),
        "max": round(max(xs), 2),
    }


def run(names: list[str], repeat: int = 1) -> dict[str, Any]:
    records: list[dict[str, Any]] = []
    for _ in range(repeat):
        for name in names:
            page: dict[str, set[str]] = {"drawings": set(), "clauses": set()}
            for i, (step, rec) in enumerate(_open(REPO / "notebooks" / name)):
                for r in clicks(step, rec, page):
                    records.append({**r, "notebook": name, "step_through": i})
    script = [r for r in records if r["button"] == "script"]
    kinds: Counter[str] = Counter()
    return {
        "clicks": len(records) // repeat,
        "script_clicks": len(script) // repeat,
        "handler_ms_script": _summary([r["ms"] for r in script]),
        "bytes_per_click_all": _summary([r["bytes"] for r in records]),
        "bytes_per_script_click": _summary([r["bytes"] for r in script]),
        "bytes_per_message": _summary([s for r in script for s in r["sizes"]]),
        "messages_per_script_click": dict(Counter(r["messages"] for r in script)),
        "slowest": sorted(((round(r["ms"], 2), r["notebook"], r["step_through"]) for r in script), reverse=True)[:5],
        "biggest": sorted(((r["bytes"], r["notebook"], r["step_through"]) for r in script), reverse=True)[:5],
        "_kinds": dict(kinds),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--notebooks", default="01,02,03,04,05")
    parser.add_argument("--repeat", type=int, default=1, help="run every notebook this many times (warmer numbers)")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile of the clicks")
    args = parser.parse_args(argv)
    wanted = [p.strip() for p in args.notebooks.split(",") if p.strip()]
    names = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb") if any(p.name.startswith(w) for w in wanted))
    os.environ.setdefault("FSM_LANG", "en")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        n = run(names, args.repeat)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    else:
        n = run(names, args.repeat)
    print(json.dumps(n, ensure_ascii=False, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
