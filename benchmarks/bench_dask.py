"""(b6) Dask against ``--jobs 2``, in one run: a ``LocalCluster`` of two worker processes.

    .venv/bin/python benchmarks/bench_dask.py [--rounds 3] [--json]

On ``counter_of_counter_of_counter.yaml`` (row (b2)'s scenario): one ``--jobs 1`` run first (the
distinct tables expanded, and the results every other run must equal), then ``rounds`` times
``--jobs 2``, Dask on the cluster ``--dask local:2`` starts (:func:`fsm.explore.cluster.local_cluster`)
and Dask on a ``LocalCluster`` with Dask's defaults (its workers' profiler on), each cluster
started once, the three alternated, each run from its own split; the best of each side compared,
and the medians too.  The cluster's start is timed apart (a fixed cost, not mixed in).
Repeated expansions: the tables whose moves were played, over every worker, against the
distinct ones ``--jobs 1`` expanded.  The load and the idle cores are recorded: the cores' idle
share over two seconds before the run (``/proc/stat``), and the load averages before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
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

    from fsm.explore.cluster import local_cluster
    from fsm.explore.explorer import explore_file

    path = REPO / SCENARIO
    before = {"load": [round(x, 2) for x in os.getloadavg()], "idle_cores": idle_cores()}
    one = explore_file(path)
    began = time.perf_counter()
    cluster = local_cluster(2)  # the cluster `--dask local:2` starts: no dashboard, no profiler
    start_s = time.perf_counter() - began
    # Dask's own defaults, as a designer's cluster may have them (the workers' profiler on)
    plain = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    jobs, dask, dask_plain = [], [], []
    try:
        for _ in range(rounds):
            jobs.append(explore_file(path, jobs=2))
            dask.append(explore_file(path, dask=cluster.scheduler_address))
            dask_plain.append(explore_file(path, dask=plain.scheduler_address))
    finally:
        cluster.close()
        plain.close()
    same = {(r.states, r.moves, r.ended, r.revisits, len(r.endings)) for r in [one, *jobs, *dask, *dask_plain]}

    def speed(side: list[Any], pick: Any) -> float:
        return round(pick([r.seconds for r in jobs]) / pick([r.seconds for r in side]), 3)

    return {
        "dask_scenario": SCENARIO,
        "dask_states": one.states,
        "jobs_1_s": round(one.seconds, 2),
        "jobs_2_all_s": [round(r.seconds, 2) for r in jobs],
        "dask_all_s": [round(r.seconds, 2) for r in dask],
        "dask_speed_vs_jobs_2": speed(dask, min),
        "dask_speed_vs_jobs_2_medians": speed(dask, statistics.median),
        "dask_speed_target": 0.9,
        "dask_plain_cluster_all_s": [round(r.seconds, 2) for r in dask_plain],
        "dask_plain_speed_vs_jobs_2": speed(dask_plain, min),
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
