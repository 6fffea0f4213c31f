"""(b5) One large designer table explored to completion at a depth bound (issue 16), opt-in.

    .venv/bin/python benchmarks/run.py --large [--json]     # as one of the benchmarks
    .venv/bin/python benchmarks/bench_large.py [--depth N]   # on its own, with progress

``benchmarks/large_table.yaml`` — six units and eight cards in one battle — explored from
its start to ``--depth 5`` (every line of five moves; no budget, no memory limit), in a
fresh process so that its peak resident memory (``ru_maxrss``) is the exploration's own.
It prints a progress line to stderr every :data:`EVERY` tables (elapsed time, tables,
tables/s, resident memory), so a run that cannot be waited for still gives its rate and
how its memory grows, and then one JSON object on stdout.  It takes hours on a loaded
2-core machine; the target is to finish in under 4 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

TABLE = "benchmarks/large_table.yaml"
DEPTH = 5
EVERY = 50_000  # tables between two progress lines
TARGET_BYTES = 4 * 2**30


def explore_here(depth: int) -> dict[str, Any]:
    """The exploration itself, in this process, with progress on stderr."""
    from fsm.explore.report import Judge, Report
    from fsm.explore.search import Search, _resident_bytes
    from fsm.scenarios.playing import load

    game, _ = load(REPO / TABLE)
    root = game.table.copy()
    report = Report(TABLE, "start", depth, {})
    began = time.perf_counter()
    mark = [EVERY]

    class Progress(Search):
        def must_stop(self) -> bool:
            if self.report.states >= mark[0]:
                mark[0] += EVERY
                spent = time.perf_counter() - began
                states = self.report.states
                print(
                    json.dumps({"seconds": round(spent, 1), "states": states, "states_per_s": round(states / spent),
                                "resident_mb": round(_resident_bytes() / 2**20, 1)}),
                    file=sys.stderr, flush=True,
                )  # fmt: skip
            return super().must_stop()

    search = Progress(game, Judge(game, root), report, root)
    search.run(depth)
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kilobytes
    return {
        "large_table": TABLE,
        "large_depth": depth,
        "large_states": report.states,
        "large_moves": report.moves,
        "large_ended": report.ended,
        "large_cut": report.cut,
        "large_complete_to_depth": not report.truncated,
        "large_seconds": round(seconds, 1),
        "large_states_per_s": round(report.states / seconds),
        "large_peak_rss_bytes": peak,
        "large_peak_rss_mb": round(peak / 2**20, 1),
        "large_peak_target_mb": TARGET_BYTES // 2**20,
    }


def run(depth: int = DEPTH) -> dict[str, Any]:
    """:func:`explore_here` in a fresh process (its progress lines pass through to stderr)."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--depth", str(depth)],
        cwd=REPO, check=True, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    numbers: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return numbers


def main() -> int:
    parser = argparse.ArgumentParser(description="Explore benchmarks/large_table.yaml to a depth bound.")
    parser.add_argument("--depth", type=int, default=DEPTH)
    args = parser.parse_args()
    print(json.dumps(explore_here(args.depth)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
