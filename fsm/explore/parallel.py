"""Exploring on several processes (``fsm explore --jobs N``), with the results of one.

The split: this process plays the first moves breadth first until there are enough
unfinished tables to share out (:data:`SPLIT_PER_JOB` per job, or every line has ended).
Each of those tables becomes a :class:`Task` (the scenario and the moves that reach the
table), which a worker process replays and explores depth first with its own visited set.
On one machine the workers also share a table of claimed digests
(:class:`fsm.explore.visited.Claims`): every table the split visited, and every table a worker
takes on, is explored by one worker only, the others leave it.  Claims can be lost, and
workers elsewhere share none, so each worker returns its :class:`fsm.explore.visited.Visits` (per
table digest) and the merge counts every table once: the tables, moves, endings, dead ends
and errors are those of ``--jobs 1``.  Only the example lines may differ (each is one of
the shortest lines a worker found).

The tasks are plain data and the worker a plain function, so the same split runs on a
cluster through any ``concurrent.futures``-style executor (docs/designer.md: Dask, Ray).
Workers forked from this process share its string hashing and digest with ``hash()``;
elsewhere they digest with BLAKE2 so that they agree on every table's digest.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.explore.position import game_at
from fsm.explore.progress import Progress, Tally
from fsm.explore.report import CUT_EXAMPLES, Ending, Judge, Line, Node, Report, moves_of
from fsm.explore.search import Search, playing
from fsm.explore.visited import Claims, DigestMap, Visits
from fsm.i18n import _

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
    machines: str = "compiled"  # how the machines run (fsm.explore.search.MACHINES)
    stable: bool = True  # BLAKE2 digests (False: hash(), for workers forked from the splitter)


#: The digest table this machine's workers share, and their count of tables for the progress
#: line (set in each local worker process).
_claims: Claims | None = None
_tally: Tally | None = None


def _share(claims: Claims, count: Any, stop: Any) -> None:
    global _claims, _tally
    _claims, _tally = claims, Tally(count, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends the pool


def run_task(task: Task) -> tuple[Visits, Report] | None:
    """A worker: replay the task's moves, explore depth first, return what each table gave
    (None: the exploration was interrupted before this task began)."""
    if _tally is not None:
        if _tally.stop.value:
            return None
        _tally.new_task()
    game = game_at(task.path, task.position, task.variants)
    judge = Judge(game, game.table.copy())
    line = replay(game, task.moves, task.machines)
    report = Report(task.path, task.position, None, {}, budget=task.max_states, max_memory=task.max_memory)
    search = Search(
        game, judge, report, game.table, line, max_states=task.max_states, max_memory=task.max_memory, record=True,
        stable=task.stable, machines=task.machines, claims=_claims, progress=_tally,
    )  # fmt: skip
    if search.start_digest != task.digest:
        raise RuntimeError(f"replaying {' · '.join(task.moves)} did not reach the table the split saw")
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
    progress: Progress | None = None,
) -> Report:
    """Explore a scenario file to the end of every line on ``jobs`` processes.

    The budget and the memory limit apply to each worker's share (a worker stopped by either
    leaves its report, and the merged one, partial).  ``executor`` runs the tasks elsewhere
    (see :class:`Submitter`); by default a local process pool.  Ctrl-C stops the pool's
    workers, which send what they found (within :data:`STOP_WITHIN` seconds) before they are
    ended; the report is what came, marked as interrupted.
    """
    if jobs < 1:
        raise BadInput(_("--jobs must be 1 or more, not {jobs}").format(jobs=jobs))
    began = time.perf_counter()
    context = _context()
    stable = executor is not None or context.get_start_method() != "fork"
    game = game_at(path, position, variants or {})
    report = Report(str(path), position, None, dict(game.variants.changed()), budget=max_states, max_memory=max_memory)
    split, frontier = split_start(game, str(path), position, jobs, machines, stable)
    tasks = [
        Task(
            str(path),
            position,
            dict(variants or {}),
            moves_of(line),
            digest,
            max_states,
            max_memory,
            machines,
            stable,
        )  # fmt: skip
        for _table, line, digest in frontier
    ]
    assert split.visits is not None
    parts: list[tuple[Visits, Report]] = [(split.visits, split.report)]
    try:
        if tasks and executor is not None:
            parts += [f.result() for f in [executor.submit(run_task, t) for t in tasks]]
        elif tasks:
            _run_pool(tasks, jobs, context, split.seen, progress, split.report.states, parts)
    except KeyboardInterrupt:
        report.stopped_by, report.truncated, report.cut = "interrupted", True, 1
    finally:
        if progress is not None:
            progress.close()
    report.shares = len(tasks) or None
    merge(report, parts)
    report.seconds = time.perf_counter() - began
    return report


def split_start(
    game: Game, path: str, position: str, jobs: int, machines: str, stable: bool
) -> tuple[Search, list[Node]]:
    """Play the first moves breadth first until there are :data:`SPLIT_PER_JOB` unfinished
    tables per job (or every line has ended, or :data:`MAX_SPLIT_MOVES` moves): the search that
    played them (its visits count in the merge) and those tables, each a share's start."""
    root = game.table.copy()
    judge = Judge(game, root)
    split = Search(game, judge, Report(path, position, None, {}), root, record=True, stable=stable, machines=machines)
    split.visited(root, None, split.start_digest)
    frontier: list[Node] = [] if judge.ended(root) else [(root, None, split.start_digest)]
    with playing(game, machines):
        for _round in range(MAX_SPLIT_MOVES):
            if not frontier or len(frontier) >= SPLIT_PER_JOB * jobs:
                break
            frontier = [child for node in frontier for child in split.children(*node)]
    return split, frontier


def replay(game: Game, moves: tuple[str, ...], machines: str) -> Line:
    """Play ``moves`` from the game's table (nothing logged): the line they make."""
    log_length = len(game.log)
    line: Line = None
    with playing(game, machines):
        for move in moves:
            game.apply(move, atomic=False)
            del game.log[log_length:]
            line = (move, line)
    return line


def _run_pool(
    tasks: list[Task],
    jobs: int,
    context: Any,
    seen: DigestMap,
    progress: Progress | None,
    counted: int,
    parts: list[tuple[Visits, Report]],
) -> None:
    """The tasks on a local process pool whose workers share claims and a count of tables;
    each one's result is added to ``parts`` as it comes (so that Ctrl-C keeps those).

    The pool is ended (its workers terminated) however this returns: done, a task's error
    (raised here, the other tasks cancelled), or Ctrl-C, so that no worker is left behind."""
    claims = Claims(context=context)
    for d in seen:  # expanded by the split, or some task's own start: no worker's to take
        claims.claim(d)
    count, stop = context.Value("q", 0), context.Value("b", 0)
    pool = context.Pool(jobs, initializer=_share, initargs=(claims, count, stop))
    results = [pool.apply_async(run_task, (t,)) for t in tasks]
    done = 0
    try:
        for result in results:
            while not result.ready():
                result.wait(0.2)  # short waits: Ctrl-C and the progress line are seen at once
                if progress is not None:
                    progress.tick(counted + count.value)
            _keep(result.get(), parts)
            done += 1
    except KeyboardInterrupt:
        stop.value = 1  # each worker ends its search at its next tick and sends what it found
        _gather(results[done:], parts, time.monotonic() + STOP_WITHIN)
        raise
    finally:
        pool.terminate()
        pool.join()


#: Seconds the workers get, after Ctrl-C, to send what they found before they are terminated.
STOP_WITHIN = 1.2


def _keep(part: tuple[Visits, Report] | None, parts: list[tuple[Visits, Report]]) -> None:
    if part is not None:  # None: a task the interruption came before
        parts.append(part)


def _gather(results: list[Any], parts: list[tuple[Visits, Report]], deadline: float) -> None:
    """The results that come before ``deadline`` (a second Ctrl-C gives up at once)."""
    try:
        for result in results:
            result.wait(max(deadline - time.monotonic(), 0))
            if result.ready() and result.successful():
                _keep(result.get(), parts)
    except KeyboardInterrupt:
        pass


def _context() -> Any:
    """Fork where there is fork: the workers then share this process's string hashing, so
    they order what the engine keeps in sets as this process does, and digest as it does."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def merge(report: Report, parts: list[tuple[Visits, Report]]) -> None:
    """Count every table once, whichever part reached it; keep the shortest example lines."""
    visits = Visits()
    examples: dict[tuple[Any, ...], Ending] = {}
    for part_visits, part in parts:
        visits.merge(part_visits)
        for signature, ending in part.endings.items():
            if signature not in examples or len(ending.line) < len(examples[signature].line):
                examples[signature] = ending
        if part.longest_chain > report.longest_chain:
            report.longest_chain, report.longest_chain_line = part.longest_chain, part.longest_chain_line
        if part.stopped_by and not report.stopped_by:
            report.stopped_by, report.truncated = part.stopped_by, True
        report.cut += part.cut
        report.expanded += part.expanded
        report.cut_lines += part.cut_lines[: CUT_EXAMPLES - len(report.cut_lines)]
    report.states = len(visits.moves)
    report.moves = sum(n for _d, n in visits.moves.items() if n > 0)
    report.errors = [e for errors in visits.errors.values() for e in errors]
    report.dead_ends = list(visits.dead_ends.values())
    report.revisits = report.moves - len(report.errors) - (report.states - 1)
    counts: dict[tuple[Any, ...], int] = {}
    for signature in visits.endings.values():
        counts[signature] = counts.get(signature, 0) + 1
    report.ended = sum(counts.values())
    for signature, n in counts.items():
        e = examples[signature]
        report.endings[signature] = Ending(e.results, e.zones, e.units, n, e.line)
