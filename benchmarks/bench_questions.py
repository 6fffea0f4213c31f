"""Issue 25's targets: `fsm check --never` against a full exploration, and proving every puzzle.

1. On the eight library files the explorer's budget cuts (README, row (b)): the goal is the file's
   own ``expect:`` (less ``log:`` / ``steps:``, which a table cannot show), asked as ``--never``; the
   file's own moves violate it, so a counterexample exists.  Measured in the same process, one after
   the other: the time to the first (shortest) counterexample, and the time of ``explore`` with the
   budget (``--budget``, default 10,000 tables as in row (b); 0 = the explorer's default, 200,000).
   The ratio is never time / explore time per file, and over their totals.  Loading a file is not
   timed on either side.
2. Proving every puzzle of a folder (default ``puzzles/``): ``solve`` on one core, per puzzle and the
   total (the issue aims at ≤ 60 s); loading is timed apart.

    .venv/bin/python benchmarks/bench_questions.py [--budget N] [--puzzles DIR] [--only never|puzzles]

The machine's load average is printed with the figures (a shared machine slows both sides alike).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CUT_FILES = (
    "both_want_to_counter", "chain_reopens_between_resolutions", "combined_timings",
    "counter_of_counter_of_counter", "dice_before_counter_window", "equip_holds_skill",
    "sync_partner_left", "whole_battle",
)  # fmt: skip


def load_text() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def never_against_explore(budget: int | None) -> None:
    from fsm.explore.explorer import explore
    from fsm.explore.questions import never
    from fsm.scenarios.goals import goal_of
    from fsm.scenarios.playing import load
    from fsm.scenarios.reading import Where

    print(f"1. fsm check --never (the file's own expect:) against explore, budget {budget or 'default'}; {load_text()}")
    print(
        f"   {'file':36} {'never s':>8} {'moves':>5} {'tables':>7} "
        f"{'explore s':>9} {'tables':>7} {'cut':>4} {'ratio':>7}"
    )
    total_never = total_explore = 0.0
    for name in CUT_FILES:
        path = REPO / "scenarios" / f"{name}.yaml"
        game, data = load(path)
        block = {k: v for k, v in data["expect"].items() if k not in ("log", "steps")}
        goal = goal_of(block, Where(str(path)), str(path))
        began = time.perf_counter()
        answer = never(game, goal, budget=None)
        t_never = time.perf_counter() - began
        assert answer.found, f"{name}: the file's own line violates it, yet none was found"
        began = time.perf_counter()
        report = explore(game, max_states=budget or 200_000)
        t_explore = time.perf_counter() - began
        total_never, total_explore = total_never + t_never, total_explore + t_explore
        cut = "yes" if report.truncated else "no"
        print(
            f"   {name:36} {t_never:8.3f} {len(answer.line):5} {answer.tables:7} {t_explore:9.3f} "
            f"{report.states:7} {cut:>4} {t_never / t_explore:7.3f}"
        )
    print(
        f"   total: never {total_never:.2f} s, explore {total_explore:.2f} s, "
        f"ratio {total_never / total_explore:.3f}; {load_text()}"
    )


def prove_puzzles(folder: Path) -> None:
    from fsm.explore.puzzle import solve
    from fsm.scenarios.goals import load_puzzle

    files = sorted(folder.glob("*.yaml"))
    print(f"2. proving {len(files)} puzzles of {folder} on one core; {load_text()}")
    total = loading = 0.0
    for path in files:
        began = time.perf_counter()
        game, puzzle = load_puzzle(path)
        loading += time.perf_counter() - began
        began = time.perf_counter()
        proof = solve(game, puzzle, budget=None)
        took = time.perf_counter() - began
        total += took
        print(
            f"   {path.name:36} {str(proof.solvable):>6} moves {proof.moves!s:>4} tables {proof.tables:7} {took:8.3f} s"
        )
    print(f"   total: {total:.2f} s proving (aim ≤ 60 s), {loading:.2f} s loading; {load_text()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=10_000)
    parser.add_argument("--puzzles", type=Path, default=REPO / "puzzles")
    parser.add_argument("--only", choices=("never", "puzzles"))
    args = parser.parse_args()
    if args.only != "puzzles":
        never_against_explore(args.budget or None)
    if args.only != "never":
        folder = args.puzzles if args.puzzles.is_dir() else REPO / "tests" / "data" / "puzzles"
        prove_puzzles(folder)


if __name__ == "__main__":
    main()
