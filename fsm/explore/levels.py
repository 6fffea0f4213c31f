"""``--jobs`` for :mod:`fsm.explore.questions`: each level of the breadth-first walk expanded by
several processes.

Each level is shared out to ``jobs`` worker processes forked for it, so each inherits the level's
tables and the digests seen so far without copying them (tables do not pickle).  A worker plays
every legal move of its share of the level and sends back, for each child not seen before the
level, only (the parent's place in the level, the move's place among its legal moves, its digest,
whether the goal holds there).  This process keeps the first of each digest in the level's order
(the order of ``--jobs 1``, so the same line is found) and makes those children's tables by playing
just those moves.  Where fork is not available, or a level is small, it is expanded here.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from typing import Any

from fsm.explore.report import Line
from fsm.table.model import Table

#: Levels smaller than this are expanded in this process: forking costs more than they do.
SMALL_LEVEL = 256

_shared: tuple[Any, list[tuple[Table, Line]]] | None = None  # (the walk, the level), inherited by fork


def _expand_share(bounds: tuple[int, int]) -> list[tuple[int, int, int, bool]]:
    assert _shared is not None
    walk, level = _shared
    out = []
    for i in range(*bounds):
        table = level[i][0]
        if walk.judge.ended(table):
            continue
        for j, (_move, child) in enumerate(walk.steps(table)):
            d = walk.digest(child)
            if d not in walk.seen:
                out.append((i, j, d, walk.holds(child)))
    return out


def expand_level(walk: Any, level: list[tuple[Table, Line]], jobs: int) -> Iterator[tuple[Table, Line, bool]]:
    """The new tables one move from ``level``, in the order one process finds them."""
    global _shared
    methods = multiprocessing.get_all_start_methods()
    if jobs == 1 or len(level) < SMALL_LEVEL or "fork" not in methods:
        for table, line in level:
            yield from walk.children(table, line)
        return
    step = -(-len(level) // (jobs * 4))
    shares = [(a, min(a + step, len(level))) for a in range(0, len(level), step)]
    _shared = (walk, level)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            found = [row for part in pool.map(_expand_share, shares) for row in part]
    finally:
        _shared = None
    moves: dict[int, list[Any]] = {}
    for i, j, d, hit in found:
        if not walk.seen.add(d):
            continue
        table, line = level[i]
        game = walk.game
        if i not in moves:
            game.table = table
            moves[i] = game.legal_moves()
        child = _play(walk, table, moves[i][j])
        yield child, (str(moves[i][j]), line), hit


def _play(walk: Any, table: Table, move: Any) -> Table:
    game = walk.game
    log_length = len(game.log)
    game.table = table.copy()
    try:
        game.apply(move, atomic=False)
    finally:
        del game.log[log_length:]
    return game.table
