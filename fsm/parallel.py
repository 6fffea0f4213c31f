"""Exploring on several processes (``fsm explore --jobs N``), with the results of one.

The split: this process plays the first moves breadth first until there are enough
unfinished tables to share out (:data:`SPLIT_PER_JOB` per job, or every line has ended).
Each of those tables becomes a :class:`Task` — the scenario and the moves that reach the
table — which a worker process replays and explores depth first with its own visited set,
skipping the tables that tasks finished before it played to the end.  Two workers running
at once may still reach the same table, so each returns a :class:`fsm.search.Visit` per
table digest (BLAKE2, so that processes agree on it) and the merge counts every table
once: the tables, moves, endings, dead ends and errors are those of ``--jobs 1``.  Only
the example lines may differ (each is one of the shortest lines a worker found).

The tasks are plain data and the worker a plain function, so the same split runs on a
cluster through any ``concurrent.futures``-style executor (docs/designer.md: Dask, Ray).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from .errors import BadInput
from .i18n import _
from .position import game_at
from .search import CUT_EXAMPLES, Ending, Judge, Line, Report, Search, Visit, _moves

#: Unfinished tables handed out per job: more than one, so that a worker whose share
#: ends early picks up another instead of idling.
SPLIT_PER_JOB = 8
#: At most this many moves are played before splitting (a narrow start splits late).
MAX_SPLIT_MOVES = 8


class Submitter(Protocol):
    """What runs the tasks: a ``concurrent.futures`` executor, a Dask client, a Ray adapter."""

    def submit(self, fn: Any, task: Task, /) -> Any: ...  # returns something with .result()


@dataclass(frozen=True)
class Task:
    """One worker's share: explore everything after ``moves`` from the scenario's position."""

    path: str
    position: str
    variants: dict[str, Any]
    moves: tuple[str, ...]
    digest: int  # the table those moves reach, as the splitting process saw it
    max_states: int | None
    max_memory: int | None
    known: frozenset[int] = frozenset()  # tables a finished task explored, with all that follows them
    machines: str = "compiled"  # how the machines run (fsm.search.MACHINES)


def run_task(task: Task) -> tuple[dict[int, Visit], Report]:
    """A worker: replay the task's moves, explore depth first, return what each table gave."""
    game = game_at(task.path, task.position, task.variants)
    root = game.table.copy()
    judge = Judge(game, root)
    log_length = len(game.log)
    line: Line = None
    for move in task.moves:
        game.apply(move, atomic=False)
        del game.log[log_length:]
        line = (move, line)
    report = Report(task.path, task.position, None, {}, budget=task.max_states, max_memory=task.max_memory)
    search = Search(
        game, judge, report, game.table, line,
        max_states=task.max_states, max_memory=task.max_memory, record=True, stable=True, machines=task.machines,
    )  # fmt: skip
    if search.digest(game.table) != task.digest:
        raise RuntimeError(f"replaying {' · '.join(task.moves)} did not reach the table the split saw")
    search.seen |= task.known  # explored to the end elsewhere: not again here
    search.run(None)
    assert search.visits is not None
    return search.visits, report


def explore_parallel(
    path: str | Path,
    jobs: int,
    *,
    position: str = "start",
    variants: Mapping[str, Any] | None = None,
    max_states: int | None = None,
    max_memory: int | None = None,
    executor: Submitter | None = None,
    machines: str = "compiled",
) -> Report:
    """Explore a scenario file to the end of every line on ``jobs`` processes.

    The budget and the memory limit apply to each worker's share.  ``executor`` runs the
    tasks elsewhere (see :class:`Submitter`); by default a local process pool.
    """
    if jobs < 1:
        raise BadInput(_("--jobs must be 1 or more, not {jobs}").format(jobs=jobs))
    began = time.perf_counter()
    game = game_at(path, position, variants or {})
    root = game.table.copy()
    judge = Judge(game, root)
    report = Report(str(path), position, None, dict(game.variants.changed()), budget=max_states, max_memory=max_memory)
    split = Search(game, judge, Report(str(path), position, None, {}), root, record=True, stable=True)
    split.visited(root, None)
    frontier: list[tuple[Any, Line]] = [] if judge.ended(root) else [(root, None)]
    for _round in range(MAX_SPLIT_MOVES):
        if not frontier or len(frontier) >= SPLIT_PER_JOB * jobs:
            break
        frontier = [child for table, line in frontier for child in split.children(table, line)]
    tasks = [
        Task(
            str(path),
            position,
            dict(variants or {}),
            _moves(line),
            split.digest(table),
            max_states,
            max_memory,
            machines=machines,
        )
        for table, line in frontier
    ]
    parts: list[tuple[dict[int, Visit], Report]] = [(split.visits or {}, split.report)]
    if tasks and executor is not None:
        parts += [f.result() for f in [executor.submit(run_task, t) for t in tasks]]
    elif tasks:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_context()) as pool:
            parts += _share_as_they_finish(pool, tasks, jobs)
    _merge(report, parts)
    report.seconds = time.perf_counter() - began
    return report


def _share_as_they_finish(
    pool: ProcessPoolExecutor, tasks: list[Task], jobs: int
) -> list[tuple[dict[int, Visit], Report]]:
    """Run the tasks ``jobs`` at a time; each new one skips what finished tasks explored to the
    end (their lines often meet: transpositions), so workers repeat less of each other's work."""
    out: list[tuple[dict[int, Visit], Report]] = []
    known: set[int] = set()
    waiting = list(reversed(tasks))
    running: set[Future[tuple[dict[int, Visit], Report]]] = set()
    while waiting or running:
        while waiting and len(running) < jobs:
            task = waiting.pop()
            if task.digest not in known:  # else a finished task already played it to the end
                running.add(pool.submit(run_task, replace(task, known=frozenset(known))))
        if not running:
            continue
        done, running = wait(running, return_when=FIRST_COMPLETED)
        for f in done:
            visits, report = f.result()
            out.append((visits, report))
            if report.complete:  # every line after these tables was played to its end
                known.update(visits)
    return out


def _context() -> Any:
    """Fork where there is fork: the workers then share this process's string hashing, so
    they order what the engine keeps in sets as this process does."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _merge(report: Report, parts: list[tuple[dict[int, Visit], Report]]) -> None:
    """Count every table once, whichever part reached it; keep the shortest example lines."""
    visits: dict[int, Visit] = {}
    examples: dict[tuple[Any, ...], Ending] = {}
    for part_visits, part in parts:
        for digest, visit in part_visits.items():
            known = visits.setdefault(digest, visit)
            if known.moves < 0 <= visit.moves:  # reached here unexpanded, expanded there
                known.moves, known.errors, known.dead_end = visit.moves, visit.errors, visit.dead_end
        for signature, ending in part.endings.items():
            if signature not in examples or len(ending.line) < len(examples[signature].line):
                examples[signature] = ending
        if part.longest_chain > report.longest_chain:
            report.longest_chain, report.longest_chain_line = part.longest_chain, part.longest_chain_line
        if part.stopped_by and not report.stopped_by:
            report.stopped_by, report.truncated = part.stopped_by, True
        report.cut += part.cut
        report.cut_lines += part.cut_lines[: CUT_EXAMPLES - len(report.cut_lines)]
    report.states = len(visits)
    report.moves = sum(v.moves for v in visits.values() if v.moves > 0)
    report.errors = [e for v in visits.values() for e in v.errors]
    report.dead_ends = [v.dead_end for v in visits.values() if v.dead_end is not None]
    report.revisits = report.moves - len(report.errors) - (report.states - 1)
    counts: dict[tuple[Any, ...], int] = {}
    for v in visits.values():
        if v.ending is not None:
            counts[v.ending] = counts.get(v.ending, 0) + 1
    report.ended = sum(counts.values())
    for signature, n in counts.items():
        e = examples[signature]
        report.endings[signature] = Ending(e.results, e.zones, e.units, n, e.line)
