"""(b) against another commit, in one run: library tables per CPU-second, this tree vs an anchor.

    .venv/bin/python benchmarks/bench_against.py [--anchor main] [--this REV] [--rounds 3] [--json]

The anchor's tree is taken with ``git archive`` into a temporary folder; each side explores
every library file (scenarios and designs) to completion with the budget of row (b), in a fresh
process of its own (loading each file untimed, as row (b) does), and the rounds alternate the
sides (anchor, this, this from source, anchor ...) so that a busy neighbour slows all alike.
"This" runs its hot path compiled where it has one (``fsm/native.py``; ``scripts/native.py``
compiles an archived ``--this`` tree first), and "this from source" is the same tree with
``FSM_PURE=1``: the two ratios say what the code gives and what compiling adds.  Each side
reports how many of its modules ran compiled.  The rate is tables per **CPU-second** of the
exploring process (``time.process_time``), not per wall second: on a shared machine a side that
waited for the CPU is not charged for the wait.  Only the files complete on every side, with
the same tables on every side, count; a file whose tables differ (the rules changed between the
commits) is listed apart.  The load (``os.getloadavg``) is recorded
before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BUDGET = 10_000  # row (b)'s budget

#: What one side runs: every library file, its tables and the CPU seconds of exploring it
#: (complete files only).  Loading the file is not timed (a fixed cost per file), and one file is
#: explored first, untimed, so that no side's first file pays for the lazy imports.
CHILD = """
import json, sys, time
from pathlib import Path
import fsm
from fsm.explore.explorer import explore
from fsm.explore.position import game_at
repo = Path(sys.argv[1])
assert Path(fsm.__file__).resolve().is_relative_to(repo.resolve()), f"fsm from {fsm.__file__}, not {repo}"
try:
    from fsm.native import loaded
except ImportError:  # a tree from before the compiled hot path
    loaded = list
files = sorted((repo / "scenarios").glob("*.yaml")) + sorted((repo / "designs").glob("*.yaml"))
explore(game_at(files[0], "start", {}), max_states=int(sys.argv[2]))
out = {}
for path in files:
    game = game_at(path, "start", {})
    began = time.process_time()
    r = explore(game, max_states=int(sys.argv[2]))
    if r.complete:
        out[str(path.relative_to(repo))] = [r.states, time.process_time() - began]
print(json.dumps({"compiled": len(loaded()), "files": out}))
"""


def _tree(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", rev], cwd=REPO, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def _side(tree: Path, compiled: dict[str, int], side: str, pure: bool = False) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(tree), "FSM_LANG": "en"}
    env.pop("FSM_PURE", None)
    if pure:
        env["FSM_PURE"] = "1"
    out = subprocess.run(
        # -P: ``python -c`` would put the current folder first on the path, and import its fsm
        [sys.executable, "-P", "-c", CHILD, str(tree), str(BUDGET)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    compiled[side] = result["compiled"]
    return dict(result["files"])


def compare(anchor: str, rounds: int, this: str | None = None) -> dict[str, Any]:
    load_before = os.getloadavg()
    compiled: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="fsm-anchor-") as tmp:
        old = _tree(anchor, Path(tmp) / "anchor")
        new = _tree(this, Path(tmp) / "this") if this else REPO
        if this:
            subprocess.run([sys.executable, str(REPO / "scripts" / "native.py"), str(new)], check=True)
        runs: dict[str, list[dict[str, list[float]]]] = {"anchor": [], "this": [], "this_from_source": []}
        for _ in range(rounds):
            runs["anchor"].append(_side(old, compiled, "anchor"))
            runs["this"].append(_side(new, compiled, "this"))
            runs["this_from_source"].append(_side(new, compiled, "this_from_source", pure=True))
    complete = sorted(set.intersection(*(set(r) for side in runs.values() for r in side)))
    # a file whose rules changed between the commits may reach other tables: listed apart, not rated
    differ = [f for f in complete if len({r[f][0] for side in runs.values() for r in side}) != 1]
    files = [f for f in complete if f not in differ]

    def rate(r: dict[str, list[float]]) -> float:
        return sum(r[f][0] for f in files) / sum(r[f][1] for f in files)

    rates = {side: [rate(r) for r in rs] for side, rs in runs.items()}
    rev = subprocess.run(["git", "rev-parse", "--short", anchor], cwd=REPO, capture_output=True, text=True).stdout

    def ratios(side: str) -> dict[str, Any]:
        return {
            f"{side}_per_cpu_s": [round(x) for x in rates[side]],
            f"{side}_ratio_of_medians": round(statistics.median(rates[side]) / statistics.median(rates["anchor"]), 3),
            f"{side}_ratio_per_round": [round(t / a, 3) for a, t in zip(rates["anchor"], rates[side], strict=True)],
        }

    return {
        "anchor": f"{anchor} ({rev.strip()})",
        "this": this or "the working tree",
        "modules_compiled": compiled,
        "files": len(files),
        "tables": sum(runs["this"][0][f][0] for f in files),
        "files_whose_tables_differ": differ,
        "anchor_per_cpu_s": [round(x) for x in rates["anchor"]],
        **ratios("this"),
        **ratios("this_from_source"),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--anchor", default="main", help="the commit to measure against (default: main)")
    p.add_argument("--this", help="a commit to measure instead of the working tree")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    result = compare(args.anchor, args.rounds, args.this)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>18}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
