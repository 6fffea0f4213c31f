"""Benchmark the rule diagrams (not a test: numbers only, no pass/fail).

Measures, in one run:

* ``regenerate_s`` — writing every diagram as ``python -m fsm diagrams`` does (SVG + Mermaid,
  both languages) into a temporary folder; best of a few runs (target: at most 3 s);
* ``live_miss_ms`` / ``live_hit_ms`` — drawing one step of a game in the notebook view
  (:func:`fsm.render.live_view.live_svg`) when that position was never drawn (every cache cleared)
  and when it was (a cache hit); ``hit_speedup`` is their ratio (target: at least 10);
* ``step_cold_ms`` / ``step_warm_ms`` — the median step over a whole scenario (every position
  of ``scenarios/action_fizzles_after_counter.yaml``) the first time through and on replay.

Run: ``python benchmarks/bench_diagrams.py [--json]``; ``run()`` returns the same numbers.
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

from fsm.render.export import write_all

REPO = Path(__file__).resolve().parents[1]
SCENARIO = REPO / "scenarios" / "action_fizzles_after_counter.yaml"


def _timed(fn: Any, *args: Any) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def _positions() -> list[Any]:
    """The game of the scenario, one snapshot per position it passes through."""
    from fsm.scenarios.playing import load

    game, data = load(SCENARIO)
    snaps = [game.snapshot()]
    for move in data["moves"]:
        if isinstance(move, str):
            game.apply(move)
            snaps.append(game.snapshot())
    return [game, snaps]


def run(repeats: int = 3, hits: int = 2000) -> dict[str, Any]:
    """Every number of this benchmark, as a dict (also printed by ``--json``)."""
    from fsm.render import diagrams, live_view

    with tempfile.TemporaryDirectory() as tmp:
        regenerate = min(_timed(write_all, Path(tmp) / str(i)) for i in range(repeats))
    files = len(diagrams.machines()) * 2 + 1

    game, snaps = _positions()
    game.restore(snaps[2])  # mid-chain: flow, stack, chain and a procedure are all drawn
    misses = []
    for _ in range(repeats):
        diagrams.cache_clear()
        live_view.cache_clear()
        misses.append(_timed(live_view.live_svg, game))
    start = time.perf_counter()
    for _ in range(hits):
        live_view.live_svg(game)
    hit = (time.perf_counter() - start) / hits
    miss = statistics.median(misses)

    diagrams.cache_clear()
    live_view.cache_clear()
    cold, warm = [], []
    for snap in snaps:
        game.restore(snap)
        cold.append(_timed(live_view.live_svg, game))
    for snap in snaps:
        game.restore(snap)
        warm.append(_timed(live_view.live_svg, game))
    return {
        "regenerate_s": round(regenerate, 3),
        "regenerate_files": files,
        "regenerate_target_s": 3.0,
        "live_miss_ms": round(miss * 1000, 3),
        "live_hit_ms": round(hit * 1000, 5),
        "hit_speedup": round(miss / hit, 1),
        "hit_speedup_target": 10,
        "step_cold_ms": round(statistics.median(cold) * 1000, 3),
        "step_warm_ms": round(statistics.median(warm) * 1000, 5),
        "steps": len(snaps),
        "cache": live_view.cache_stats(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    numbers = run()
    if args.json:
        print(json.dumps(numbers))
        return 0
    print(
        f"regenerate every diagram ({numbers['regenerate_files']} files): {numbers['regenerate_s']:.2f} s (target 3 s)"
    )
    print(f"live view, cache miss: {numbers['live_miss_ms']:.1f} ms; hit: {numbers['live_hit_ms'] * 1000:.1f} µs")
    print(f"hit is {numbers['hit_speedup']:.0f}x faster (target 10x)")
    cold, warm = numbers["step_cold_ms"], numbers["step_warm_ms"] * 1000
    print(f"median step over {numbers['steps']} positions: {cold:.1f} ms first time, {warm:.1f} µs on replay")
    print(f"caches: {numbers['cache']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
