"""(b6) Dask against ``--jobs 2``, in one run: a ``LocalCluster`` of two worker processes.

    .venv/bin/python benchmarks/bench_dask.py [--rounds 3] [--json]

On ``counter_of_counter_of_counter.yaml`` (row (b2)'s scenario): one ``--jobs 1`` run first (the
distinct tables expanded, and the results every other run must equal), then ``rounds`` times
``--jobs 2`` and Dask on an already started cluster, alternated, each from its own split; the
best of each side compared.  The cluster's start is timed apart (a fixed cost, not mixed in).
Repeated expansions: the tables whose moves were played, over every worker, against the
distinct ones ``--jobs 1`` expanded.  The load and the idle cores are recorded: the cores' idle
share over two seconds before the run (``/proc/stat``), and the load averages before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SCENARIO = "scenarios/counter_of_counter_of_counter.yaml"


def idle_cores(seconds: float = 2.0) -> float:
    """How many cores were idle, on average, over the next ``seconds`` (Linux)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return fields[3] + fields[4], sum(fields)  # idle + iowait, all

    idle0, all0 = sample()
    time.sleep(seconds)
    idle1, all1 = sample()
    return round((os.cpu_count() or 1) * (idle1 - idle0) / max(all1 - all0, 1), 2)


def run(rounds: int) -> dict[str, Any]:
    from distributed import LocalCluster

    from fsm.explore.explorer import explore_file

    path = REPO / SCENARIO
    before = {"load": [round(x, 2) for x in os.getloadavg()], "idle_cores": idle_cores()}
    one = explore_file(path)
    began = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    start_s = time.perf_counter() - began
    jobs, dask = [], []
    try:
        for _ in range(rounds):
            jobs.append(explore_file(path, jobs=2))
            dask.append(explore_file(path, dask=cluster.scheduler_address))
    finally:
        cluster.close()
    same = {(r.states, r.moves, r.ended, r.revisits, len(r.endings)) for r in [one, *jobs, *dask]}
    best_jobs, best_dask = min(r.seconds for r in jobs), min(r.seconds for r in dask)
    return {
        "dask_scenario": SCENARIO,
        "dask_states": one.states,
        "jobs_1_s": round(one.seconds, 2),
        "jobs_2_all_s": [round(r.seconds, 2) for r in jobs],
        "dask_all_s": [round(r.seconds, 2) for r in dask],
        "dask_speed_vs_jobs_2": round(best_jobs / best_dask, 3),
        "dask_speed_target": 0.9,
        "dask_cluster_start_s": round(start_s, 2),
        "distinct_expanded": one.expanded,
        "dask_expanded": dask[0].expanded,
        "jobs_2_expanded": jobs[0].expanded,
        "dask_repeat_ratio": round(dask[0].expanded / one.expanded, 4),
        "same_results": len(same) == 1,
        "before": before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    result = run(args.rounds)
    print(json.dumps(result, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
