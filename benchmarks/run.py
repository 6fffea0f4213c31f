"""The project's benchmarks, in one command (numbers only: nothing here passes or fails).

    .venv/bin/python benchmarks/run.py [--json] [--only NAME,...] [--large]

Seven measurements, each against a target (README "Benchmarks"), and an eighth on request:

``engine`` — the engine's overhead per transition, as a ratio to a bare python-statemachine
    machine of the same shape, both measured in this run.  *Per transition* means: one
    transition of one 【行動】 procedure, taken with its guards and actions.  The engine path
    sends ``declare`` and ``close_window`` to the procedure (each followed by its eventless
    transition: into the counter window, out of the recheck) for a fresh chain item (the
    compiled ``ActionProcedure`` with its real callbacks: dice, the recheck guards, paying
    行動完了, the effect, the narration of each step).
    The bare path is a hand-written ``StateChart`` with the same states, transitions, guards
    and actions, whose callbacks do nothing, driven by ``send`` with the same two events.
    Target: ratio ≤ 1.3.  Also shown: a whole move through the public ``Game.apply``.
``explorer`` — tables per second of :func:`fsm.explore.explorer.explore_file` over every library
    scenario (``scenarios/*.yaml`` and ``designs/*.yaml``) from its start, explored to
    completion (no depth bound): the total tables over the total time, and the median
    scenario.  A scenario that needs more than the budget (10,000 tables) is listed apart
    with its own numbers and left out of the rate.  Also the explorer's peak memory per
    distinct table visited, above the game's own (tracemalloc, one scenario explored to
    completion): breadth first with whole table copies (before issue 16), breadth first
    sharing parts, depth first (now); and the visited set alone against a Python set.
    Target: ≥ 2,000 states/s; memory ≤ 0.05× before.
``jobs`` — one scenario explored to completion with ``--jobs 2`` against ``--jobs 1``, in
    this run, each from a fresh start (the split, the pool's start and the merge included),
    three times each, interleaved, best against best.
    Target: ≥ 1.6×.
``compiled`` — the machines run from their compiled tables (``fsm/machines/compiled.py``, what the
    explorer uses by default) against python-statemachine itself, in this run: per event of a
    【行動】 procedure (the bare machine of ``engine`` and the engine's own), and per table over
    every file that explores to completion, explored to completion both ways, plus a
    fixed-budget run over every file.  Target: ≥ 3.5× in tables/s.
``tables`` — tables that share structure (``benchmarks/bench_tables.py``): the bytes and the
    time of one table copy, and of one ``Table.key()``, against whole copies and keys computed
    anew, on the same few hundred moves of ``benchmarks/large_table.yaml``, in this run.
``large`` (only with ``--large`` or ``--only large``) — ``benchmarks/large_table.yaml``, six
    units and eight cards, explored to depth 5 to completion in a fresh process
    (``benchmarks/bench_large.py``): tables, time, peak resident memory.  Hours on a loaded
    2-core machine.  Target: under 4 GB.
``notebooks`` — executing every notebook in ``notebooks/`` with nbclient, as the test suite
    does; the time to start each kernel is measured apart from the time its cells take.
    Target: ≤ 30 s in all (the cells).
``diagrams`` — regenerating every diagram: ``benchmarks/bench_diagrams.py``'s ``run()`` (in
    one process, best of three), and ``python -m fsm diagrams`` timed from a cold process.
    Target: ≤ 3 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run from a checkout without installing
sys.path.insert(0, str(REPO / "benchmarks"))  # the benchmarks written alongside

ENGINE_EVENTS = ("declare", "close_window")  # each followed by an eventless transition
TRANSITIONS = 4  # declare, (open_window), close_window, (resolve)

TARGETS = {"engine_ratio": 1.3, "explorer_states_per_s": 2000, "notebooks_s": 30.0, "diagrams_s": 3.0}


# ---------------------------------------------------------------- (a) engine overhead
def _bare_action_machine() -> Any:
    """The 【行動】 procedure's shape as a plain StateChart with callbacks that do nothing."""
    from statemachine import State, StateChart

    class BareAction(StateChart):  # type: ignore[misc]
        allow_event_without_transition = False
        catch_errors_as_events = False

        idle = State(initial=True)
        declared = State()
        counter_window = State()
        recheck = State()
        resolved = State(final=True)
        fizzled = State(final=True)

        declare = idle.to(declared, on="roll_dice")
        declared.to(counter_window)  # eventless, as the engine's procedures
        close_window = counter_window.to(recheck)
        recheck.to(
            resolved, cond=["unit_not_acted", "unit_not_destroyed", "unit_on_field"], on=["pay_price", "apply_effect"]
        )
        recheck.to(fizzled, unless="unit_not_acted", on="release")
        recheck.to(fizzled, unless="unit_not_destroyed", on="release")
        recheck.to(fizzled, unless="unit_on_field", on="release")

        def roll_dice(self) -> None:
            pass

        def pay_price(self) -> None:
            pass

        def apply_effect(self) -> None:
            pass

        def release(self) -> None:
            pass

        def unit_not_acted(self) -> bool:
            return True

        def unit_not_destroyed(self) -> bool:
            return True

        def unit_on_field(self) -> bool:
            return True

    class Model:
        state: Any = "idle"

    model = Model()
    return BareAction(model=model), model


def _engine_game() -> Any:
    from fsm.scenarios.building import build_game

    data = {
        "seed": 1,
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "x": {"owner": "A", "geo": "荒野",
                  "abilities": [{"name": "一撃", "kind": "action", "timing": "通常", "effect": "nothing"}]},
            "y": {"owner": "B", "geo": "荒野"},
        },
        "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
    }  # fmt: skip
    return build_game(data)


def _engine_round(game: Any) -> Callable[[], None]:
    """One 【行動】 procedure through the engine, declare to resolved, from the same table each time:
    an empty chain (a chain that grows makes every trace dearer) and the unit not 行動完了."""
    from fsm.table.model import ChainItem

    unit, seq = game.table.units["x"], [0]

    def run() -> None:
        seq[0] += 1
        game.table.chain.clear()
        game.table.chain_state = "empty"
        item = ChainItem(seq[0], "action", "A", "x", "一撃", "y")
        proc = game._procedure(game.spec_of(item))
        for event in ENGINE_EVENTS:
            proc.step(item, event)
        unit.acted = False  # the price was paid
        if len(game.log) > 4000:
            del game.log[:]

    return run


def bench_engine(rounds: int = 200, repeats: int = 40) -> dict[str, Any]:
    engine_round = _engine_round(_engine_game())

    machine, model = _bare_action_machine()

    def bare_round() -> None:
        model.state = "idle"
        machine._engine.running = True  # reaching a final state stops it; the engine re-arms the same way
        for event in ENGINE_EVENTS:
            machine.send(event)

    def block(fn: Any) -> float:
        start = time.perf_counter()
        for _ in range(rounds):
            fn()
        return (time.perf_counter() - start) / (rounds * TRANSITIONS)

    for _ in range(200):  # warm the callback caches of both
        bare_round()
        engine_round()
    # interleaved, best of each: a busy machine slows both alike instead of one of them
    bares, engines = [], []
    for _ in range(repeats):
        bares.append(block(bare_round))
        engines.append(block(engine_round))
    bare, engine = min(bares), min(engines)

    # one whole move through the public surface, for scale: declare, two passes, resolution
    moves = ("A: activate 一撃 of x on y", "B: pass", "A: pass")
    fresh = _engine_game()
    snap = fresh.snapshot()
    samples = []
    for _ in range(300):
        fresh.restore(snap)
        start = time.perf_counter()
        for m in moves:
            fresh.apply(m)
        samples.append(time.perf_counter() - start)
    return {
        "bare_us_per_transition": round(bare * 1e6, 2),
        "engine_us_per_transition": round(engine * 1e6, 2),
        "engine_ratio": round(engine / bare, 3),
        "engine_ratio_target": TARGETS["engine_ratio"],
        "apply_us_per_move": round(statistics.median(samples) / len(moves) * 1e6, 1),
    }


# ---------------------------------------------------------------- (b) explorer
EXPLORER_BUDGET = 10_000  # tables per scenario; a scenario that needs more is reported apart
MEMORY_SCENARIO = "scenarios/nb_whole_battle.yaml"  # ~8.4k tables to completion, 464 distinct endings


def bench_explorer(budget: int = EXPLORER_BUDGET) -> dict[str, Any]:
    """Every library scenario explored to completion (no depth bound).

    Only scenarios that completed within ``budget`` tables count towards the rate; those the
    budget cut are listed apart (``explorer_capped``), never mixed in: a cut exploration
    stops before its deepest, costliest tables and would flatter the rate.
    """
    from fsm.explore.explorer import explore_file

    files = sorted((REPO / "scenarios").glob("*.yaml")) + sorted((REPO / "designs").glob("*.yaml"))
    complete: list[dict[str, Any]] = []
    capped: list[dict[str, Any]] = []
    for path in files:
        r = explore_file(path, depth=None, max_states=budget)
        row = {"scenario": str(path.relative_to(REPO)), "states": r.states, "moves": r.moves,
               "seconds": round(r.seconds, 4), "states_per_s": round(r.rate)}  # fmt: skip
        if r.complete:
            complete.append(row)
        else:
            capped.append({**row, "cut": r.cut})
    states = sum(r["states"] for r in complete)
    seconds = sum(r["seconds"] for r in complete)
    slowest = min(complete, key=lambda r: r["states_per_s"]) if complete else None
    return {
        "explorer_states": states,
        "explorer_seconds": round(seconds, 3),
        "explorer_states_per_s": round(states / seconds) if seconds else 0,
        "explorer_median_states_per_s": round(statistics.median(r["states_per_s"] for r in complete))
        if complete
        else 0,
        "explorer_slowest": slowest,
        "explorer_states_per_s_target": TARGETS["explorer_states_per_s"],
        "explorer_budget": budget,
        "explorer_scenarios": complete,
        "explorer_capped": capped,
        **_explorer_memory(),
    }


def _peak(game: Any, depth: int | None, max_states: int | None, breadth_first: bool) -> tuple[int, int]:
    """(tables visited, peak bytes allocated meanwhile) of one exploration, by tracemalloc."""
    import gc
    import tracemalloc

    from fsm.explore.explorer import explore

    gc.collect()
    tracemalloc.start()
    try:
        r = explore(game, depth, max_states=max_states, breadth_first=breadth_first)
        return r.states, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _explorer_memory() -> dict[str, Any]:
    """Bytes the explorer holds per distinct table visited (tracemalloc), three ways, in one run.

    *Before* (``breadth_first_whole``): breadth first with every table a whole copy, as every
    exploration ran until issue 16 (a whole level of tables held at once; forced here by a
    depth bound no line reaches, and by :func:`bench_tables.copying_whole`).
    ``breadth_first``: the same walk, the tables sharing their parts (issue 16 point 2).
    *After* (``depth_first``): the default, with or without a depth bound.
    Per table: the peak of a full exploration minus the peak of one stopped at its start, over
    the tables visited; the game was explored once before, untraced, so that the machines and
    caches it makes once are not counted (the same for all three).  Everything else
    the walk held at its peak counts: the visited digests, the current line's tables, the
    report's endings with their example lines.  Also the visited set on its own: the bytes a
    :class:`fsm.explore.visited.DigestMap` of that many digests holds, against a Python set of them.
    """
    import bench_tables  # written alongside: benchmarks/bench_tables.py

    from fsm.explore.explorer import explore
    from fsm.scenarios.playing import load

    out: dict[str, Any] = {"explorer_memory_scenario": MEMORY_SCENARIO}
    for name, depth, wide, whole in (
        ("breadth_first_whole", 10**6, True, True),
        ("breadth_first", 10**6, True, False),
        ("depth_first", None, False, False),
    ):
        game = load(REPO / MEMORY_SCENARIO)[0]
        explore(game, None)  # the game's machines and caches made outside the measurement
        with bench_tables.copying_whole() if whole else contextlib.nullcontext():
            states, peak = _peak(game, depth, None, wide)
            _one, base = _peak(game, depth, 1, wide)
        out["explorer_memory_states"] = states
        out["explorer_memory_base_bytes"] = base
        out[f"explorer_{name}_peak_bytes"] = peak
        out[f"explorer_{name}_bytes_per_table"] = round((peak - base) / (states - 1))
    before = out["explorer_breadth_first_whole_bytes_per_table"]
    out["explorer_memory_ratio"] = round(out["explorer_depth_first_bytes_per_table"] / before, 3)
    out["explorer_sharing_ratio"] = round(out["explorer_breadth_first_bytes_per_table"] / before, 3)
    out.update(_digest_bytes(out["explorer_memory_states"]))
    return out


def _digest_bytes(n: int) -> dict[str, Any]:
    """Bytes per digest of the visited set alone, and of a Python set of the same new ints."""
    import random
    import tracemalloc

    from fsm.explore.visited import DigestMap

    rng = random.Random(n)
    out = {}
    for name, make in (("digest_map", DigestMap), ("python_set", set)):
        tracemalloc.start()
        try:
            kept = make(rng.getrandbits(64) - 2**63 for _ in range(n))  # each int made as the explorer makes it
            out[f"explorer_{name}_bytes_per_digest"] = round(tracemalloc.get_traced_memory()[0] / len(kept), 1)
        finally:
            tracemalloc.stop()
    return out


# ---------------------------------------------------------------- (b2) explorer on two processes
JOBS_SCENARIO = "scenarios/counter_of_counter_of_counter.yaml"  # ~38k tables, ~17 s on one process


def bench_jobs(repeats: int = 3) -> dict[str, Any]:
    """One scenario explored to completion with ``--jobs 1`` and ``--jobs 2``, in this run:
    ``repeats`` times each, interleaved, the best of each side compared (a busy neighbour
    slows either side alike), every time listed."""
    from fsm.explore.explorer import explore_file

    path = REPO / JOBS_SCENARIO
    explore_file(path)  # warm imports and caches
    ones, twos = [], []
    for _ in range(repeats):
        ones.append(explore_file(path, jobs=1))
        twos.append(explore_file(path, jobs=2))
    one, two = min(ones, key=lambda r: r.seconds), min(twos, key=lambda r: r.seconds)
    same = {(r.states, r.moves, r.ended, r.revisits) for r in ones + twos}
    return {
        "jobs_scenario": JOBS_SCENARIO,
        "jobs_states": one.states,
        "jobs_1_s": round(one.seconds, 2),
        "jobs_2_s": round(two.seconds, 2),
        "jobs_1_all_s": [round(r.seconds, 2) for r in ones],
        "jobs_2_all_s": [round(r.seconds, 2) for r in twos],
        "jobs_2_speedup": round(one.seconds / two.seconds, 2),
        "jobs_2_speedup_target": 1.6,
        "jobs_same_results": len(same) == 1,
    }


# ---------------------------------------------------------------- (b3) compiled against python-statemachine
COMPILED_FIXED_BUDGET = 2_000  # tables per file in the fixed-budget run (cut files included)


def bench_compiled(budget: int = EXPLORER_BUDGET, fixed: int = COMPILED_FIXED_BUDGET) -> dict[str, Any]:
    """The compiled machines (fsm/machines/compiled.py) against python-statemachine, each ratio in this run.

    *Per event*: ``declare`` and ``close_window`` sent to one 【行動】 procedure (each followed by
    its eventless steps), interleaved, best of each: the bare machine of (a) (callbacks doing
    nothing: the dispatch alone), and the engine's procedure with its real callbacks.
    *Per table*: every library file that explores to completion within ``budget`` tables, each
    explored to completion both ways back to back (the same tables, checked); and every file
    with a fixed budget of ``fixed`` tables, the budget-cut ones included.
    """
    from fsm.explore.explorer import explore_file
    from fsm.machines.compiled import attach, compile_game

    out: dict[str, Any] = {}
    bare, model = _bare_action_machine()
    fast_bare, fast_model = _bare_action_machine()
    attach(fast_bare)

    def bare_round(machine: Any, m: Any) -> Callable[[], None]:
        def run() -> None:
            m.state = "idle"
            machine._engine.running = True
            for event in ENGINE_EVENTS:
                machine.send(event)

        return run

    fast_game = _engine_game()
    compile_game(fast_game)
    pairs = {
        "bare": (bare_round(bare, model), bare_round(fast_bare, fast_model)),
        "engine": (_engine_round(_engine_game()), _engine_round(fast_game)),
    }
    for name, (library, fast) in pairs.items():
        times = _interleaved(library, fast, rounds=100, repeats=30)
        per_event = [t / len(ENGINE_EVENTS) * 1e6 for t in times]
        out[f"compiled_{name}_us_per_event"] = round(per_event[1], 2)
        out[f"statecharts_{name}_us_per_event"] = round(per_event[0], 2)
        out[f"compiled_{name}_event_ratio"] = round(per_event[0] / per_event[1], 2)

    files = sorted((REPO / "scenarios").glob("*.yaml")) + sorted((REPO / "designs").glob("*.yaml"))
    explore_file(files[0], machines="compiled")  # compile the machine classes outside the clock
    complete = {"compiled": [0, 0.0], "statecharts": [0, 0.0]}
    cut_files = []
    for path in files:
        fast = explore_file(path, max_states=budget, machines="compiled")
        if not fast.complete:
            cut_files.append(str(path.relative_to(REPO)))
            continue
        library = explore_file(path, max_states=None, machines="statecharts")
        assert (library.states, library.moves, library.ended) == (fast.states, fast.moves, fast.ended), path
        for name, r in (("compiled", fast), ("statecharts", library)):
            complete[name][0] += r.states
            complete[name][1] += r.seconds
    budgeted = {"compiled": [0, 0.0], "statecharts": [0, 0.0]}
    for path in files:
        for name in ("statecharts", "compiled"):
            r = explore_file(path, max_states=fixed, machines=name)
            budgeted[name][0] += r.states
            budgeted[name][1] += r.seconds
    for label, sums in (("complete", complete), ("budget", budgeted)):
        rates = {name: states / seconds for name, (states, seconds) in sums.items()}
        out[f"compiled_{label}_tables"] = sums["compiled"][0]
        out[f"compiled_{label}_states_per_s"] = round(rates["compiled"])
        out[f"statecharts_{label}_states_per_s"] = round(rates["statecharts"])
        out[f"compiled_{label}_ratio"] = round(rates["compiled"] / rates["statecharts"], 2)
    out["compiled_complete_files"] = len(files) - len(cut_files)
    out["compiled_complete_cut_by_budget"] = cut_files
    out["compiled_budget"] = budget
    out["compiled_fixed_budget"] = fixed
    out["compiled_ratio_target"] = 3.5
    return out


def _interleaved(a: Callable[[], None], b: Callable[[], None], rounds: int, repeats: int) -> tuple[float, float]:
    """Seconds per call of each, best of ``repeats`` blocks, the two taking turns."""

    def block(fn: Callable[[], None]) -> float:
        start = time.perf_counter()
        for _ in range(rounds):
            fn()
        return (time.perf_counter() - start) / rounds

    for _ in range(100):  # warm the caches of both
        a()
        b()
    times_a, times_b = [], []
    for _ in range(repeats):
        times_a.append(block(a))
        times_b.append(block(b))
    return min(times_a), min(times_b)


# ---------------------------------------------------------------- (b4) tables that share structure
def bench_tables() -> dict[str, Any]:
    import bench_tables  # written alongside: benchmarks/bench_tables.py

    numbers: dict[str, Any] = bench_tables.run()
    return numbers


# ---------------------------------------------------------------- (b5) the large designer table (opt-in)
def bench_large() -> dict[str, Any]:
    import bench_large  # written alongside: benchmarks/bench_large.py

    numbers: dict[str, Any] = bench_large.run()
    return numbers


# ---------------------------------------------------------------- (c) notebooks
def bench_notebooks() -> dict[str, Any]:
    """Each notebook executed with nbclient; the kernel's start-up is timed apart from the cells."""
    import nbformat
    from nbclient import NotebookClient

    cells, startup = {}, {}
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        )
        client.reset_execution_trackers()
        start = time.perf_counter()
        with client.setup_kernel():  # what NotebookClient.execute does, with a clock between the parts
            assert client.kc is not None
            client.wait_for_reply(client.kc.kernel_info())  # the kernel is up and answering
            ready = time.perf_counter()
            for index, cell in enumerate(client.nb.cells):
                client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
            done = time.perf_counter()
        startup[path.name] = round(ready - start, 2)
        cells[path.name] = round(done - ready, 2)
    return {
        "notebooks_s": round(sum(cells.values()), 2),
        "notebooks_kernel_startup_s": round(sum(startup.values()), 2),
        "notebooks_s_target": TARGETS["notebooks_s"],
        "notebooks": cells,
        "notebooks_kernel_startup": startup,
    }


# ---------------------------------------------------------------- (d) diagrams
def bench_diagrams() -> dict[str, Any]:
    try:
        import bench_diagrams  # written alongside: benchmarks/bench_diagrams.py
    except ImportError as err:
        return {"diagrams_error": f"benchmarks/bench_diagrams.py not available: {err}"}
    numbers = bench_diagrams.run()
    # also from a cold process, as a person runs it: imports, compiling the machines, dot
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "fsm", "diagrams", "--out", tmp], cwd=REPO, check=True, capture_output=True
        )
        cold = time.perf_counter() - start
    return {
        "diagrams_s": numbers.get("regenerate_s"),
        "diagrams_cold_process_s": round(cold, 2),
        "diagrams_s_target": TARGETS["diagrams_s"],
        "diagrams": {k: v for k, v in numbers.items() if k != "cache"},
    }


BENCHES = {
    "engine": bench_engine,
    "explorer": bench_explorer,
    "jobs": bench_jobs,
    "compiled": bench_compiled,
    "tables": bench_tables,
    "notebooks": bench_notebooks,
    "diagrams": bench_diagrams,
}


def _report(n: dict[str, Any]) -> list[str]:
    out = []
    if "engine_ratio" in n:
        out.append(
            f"(a) engine overhead per transition: {n['engine_ratio']:.2f}x a bare python-statemachine machine "
            f"({n['engine_us_per_transition']:.1f} vs {n['bare_us_per_transition']:.1f} µs; target ≤ "
            f"{n['engine_ratio_target']}x); a whole move through Game.apply: {n['apply_us_per_move']:.0f} µs"
        )
    if "explorer_states_per_s" in n:
        slow = n["explorer_slowest"] or {}
        out.append(
            f"(b) explorer: {n['explorer_states_per_s']:,} states/s over the {len(n['explorer_scenarios'])} scenarios "
            f"explored to completion ({n['explorer_states']:,} states in {n['explorer_seconds']:.2f} s; "
            f"median scenario {n['explorer_median_states_per_s']:,}/s, slowest {slow.get('scenario')} "
            f"{slow.get('states_per_s', 0):,}/s; target ≥ {n['explorer_states_per_s_target']:,})"
        )
        for c in n["explorer_capped"]:
            out.append(
                f"    capped by the budget of {n['explorer_budget']:,} tables (not in the rate): {c['scenario']} "
                f"{c['states']:,} states in {c['seconds']:.1f} s ({c['states_per_s']:,}/s), {c['cut']:,} lines cut"
            )
        out.append(
            f"    memory (peak bytes per visited table above the game's own, tracemalloc, "
            f"{n['explorer_memory_states']:,} tables of {n['explorer_memory_scenario']}): breadth first with whole "
            f"copies (before) "
            f"{n['explorer_breadth_first_whole_bytes_per_table']:,} bytes, breadth first sharing parts "
            f"{n['explorer_breadth_first_bytes_per_table']:,} bytes ({n['explorer_sharing_ratio']:.3f}x), depth first "
            f"(after) {n['explorer_depth_first_bytes_per_table']:,} bytes: {n['explorer_memory_ratio']:.3f}x "
            f"(target ≤ 0.05x); the visited set alone {n['explorer_digest_map_bytes_per_digest']} bytes a digest "
            f"(a Python set: {n['explorer_python_set_bytes_per_digest']})"
        )
    if "jobs_2_speedup" in n:
        out.append(
            f"(b2) --jobs 2: {n['jobs_2_speedup']:.2f}x --jobs 1 on {n['jobs_scenario']} ({n['jobs_states']:,} tables, "
            f"best {n['jobs_1_s']:.1f} s vs {n['jobs_2_s']:.1f} s of {n['jobs_1_all_s']} and {n['jobs_2_all_s']}; "
            f"same results: {n['jobs_same_results']}; target ≥ {n['jobs_2_speedup_target']}x)"
        )
    if "compiled_complete_ratio" in n:
        out.append(
            f"(b3) compiled against python-statemachine: {n['compiled_complete_ratio']:.2f}x tables/s over the "
            f"{n['compiled_complete_files']} files explored to completion ({n['compiled_complete_states_per_s']:,} vs "
            f"{n['statecharts_complete_states_per_s']:,} tables/s, {n['compiled_complete_tables']:,} tables); "
            f"{n['compiled_budget_ratio']:.2f}x with a budget of {n['compiled_fixed_budget']:,} tables per file "
            f"({n['compiled_budget_states_per_s']:,} vs {n['statecharts_budget_states_per_s']:,}/s); target ≥ "
            f"{n['compiled_ratio_target']}x"
        )
        out.append(
            f"    per event of a 【行動】 procedure: bare machine {n['compiled_bare_us_per_event']:.2f} vs "
            f"{n['statecharts_bare_us_per_event']:.1f} µs ({n['compiled_bare_event_ratio']:.0f}x), with the engine's "
            f"callbacks {n['compiled_engine_us_per_event']:.1f} vs {n['statecharts_engine_us_per_event']:.1f} µs "
            f"({n['compiled_engine_event_ratio']:.1f}x)"
        )
    if "tables_child_bytes_ratio" in n:
        out.append(
            f"(b4) tables sharing structure ({n['tables_sample']} moves on {n['tables_table']}, "
            f"{n['tables_parts_per_table']} parts a table, {n['tables_parts_copied_per_move']} copied a move): "
            f"a child table {n['tables_child_bytes_shared']:,} vs {n['tables_child_bytes_whole']:,} bytes whole "
            f"({n['tables_child_bytes_ratio']:.3f}x), a bare copy {n['tables_copy_bytes_shared']:,} vs "
            f"{n['tables_copy_bytes_whole']:,} bytes ({n['tables_copy_bytes_ratio']:.3f}x) and "
            f"{n['tables_copy_us_shared']:.1f} vs {n['tables_copy_us_whole']:.1f} µs "
            f"({n['tables_copy_time_ratio']:.3f}x); Table.key() of a child {n['tables_key_us_kept']:.1f} vs "
            f"{n['tables_key_us_scratch']:.1f} µs computed anew ({n['tables_key_time_ratio']:.3f}x)"
        )
    if "large_states" in n:
        out.append(
            f"(b5) large table {n['large_table']} to depth {n['large_depth']}: {n['large_states']:,} tables "
            f"({n['large_moves']:,} moves, {n['large_cut']:,} cut by the depth) in {n['large_seconds']:,.0f} s "
            f"({n['large_states_per_s']:,}/s), peak resident memory {n['large_peak_rss_mb']:,.0f} MB (target < "
            f"{n['large_peak_target_mb']:,} MB)"
        )
    if "notebooks_s" in n:
        each = ", ".join(f"{k} {v:.1f}" for k, v in n["notebooks"].items())
        out.append(
            f"(c) notebooks: {n['notebooks_s']:.1f} s executing the cells of all (target ≤ "
            f"{n['notebooks_s_target']:.0f} s), plus {n['notebooks_kernel_startup_s']:.1f} s starting their kernels: "
            f"{each}"
        )
    if "diagrams_s" in n:
        out.append(
            f"(d) diagrams: regenerating every diagram took {n['diagrams_s']:.2f} s in-process (bench_diagrams.run(), "
            f"best of 3), {n['diagrams_cold_process_s']:.2f} s as `python -m fsm diagrams` from a cold process "
            f"(target ≤ {n['diagrams_s_target']:.0f} s)"
        )
    if "diagrams_error" in n:
        out.append(f"(d) diagrams: {n['diagrams_error']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the project's benchmarks (see the module docstring).")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", default="", help=f"comma list of: {', '.join(BENCHES)} (default: all)")
    parser.add_argument(
        "--large", action="store_true", help="also (or with --only large: only) the large table to depth 5: hours"
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(BENCHES)
    if args.large and "large" not in names:
        names.append("large")
    unknown = [n for n in names if n not in {**BENCHES, "large": bench_large}]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
    numbers: dict[str, Any] = {"python": sys.version.split()[0]}
    for name in names:
        numbers.update(BENCHES[name]() if name != "large" else bench_large())
    if args.json:
        print(json.dumps(numbers, ensure_ascii=False))
    else:
        print("\n".join(_report(numbers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
