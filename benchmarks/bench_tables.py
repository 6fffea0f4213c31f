"""(b4) Tables that share structure (issue 16 point 2): what one table copy costs, before and after.

*Before* is the copy as it was until then — every unit, card and geo copied for each table —
reproduced here by taking a copy and then a part of its own for every part
(:func:`whole_copy`); *after* is :meth:`fsm.table.model.Table.copy`, which shares every part until
one side writes it.  Both are measured in this run on the same tables: the parents of a
few hundred random moves on ``benchmarks/large_table.yaml`` (six units, eight cards), each a
frozen copy as the explorer holds it.

* bytes a child table keeps (tracemalloc: the copy with its move played, all held at once),
  and bytes of the bare copy;
* time per copy, and per ``Table.key()`` of a child just played (what the explorer digests),
  against the same key with every part's kept fingerprint dropped first (:func:`forget_keys`:
  each computed anew, as ``key()`` was before);
* parts copied per move (the parts a move read or wrote).
"""

from __future__ import annotations

import gc
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

TABLE = "benchmarks/large_table.yaml"
WALKS, LENGTH = 60, 8  # random walks from the start, moves per walk


def whole_copy(t: Any, copy: Callable[[Any], Any] | None = None) -> Any:
    """A table copy as it was before issue 16: every unit, card and geo a copy of its own."""
    from fsm.table.model import Table

    new = (copy or Table.copy)(t)
    for name in Table.PARTS:
        parts = getattr(new, name)
        for k in list(dict.keys(parts)):
            parts.edit(k)
    return new


@contextmanager
def copying_whole() -> Iterator[None]:
    """Inside, every ``Table.copy()`` copies every part (the explorer as it was)."""
    from fsm.table.model import Table

    real = Table.copy
    Table.copy = lambda self: whole_copy(self, real)  # type: ignore[method-assign]
    try:
        yield
    finally:
        Table.copy = real  # type: ignore[method-assign]


def forget_keys(t: Any) -> Any:
    """Drop every part's kept fingerprint, so that ``t.key()`` computes each anew (as before)."""
    from fsm.table.model import Table

    for name in Table.PARTS:
        for part in dict.values(getattr(t, name)):
            part.__dict__["_key"] = None
    return t


def _sample(seed: int = 1) -> tuple[Any, list[tuple[Any, Any]]]:
    """(game, [(frozen parent table, move)]) from random walks."""
    from fsm.scenarios.playing import load

    game, _ = load(REPO / TABLE)
    start = game.snapshot()
    rng = random.Random(seed)
    out = []
    for _ in range(WALKS):
        game.restore(start)
        for _ in range(LENGTH):
            legal = game.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            out.append((game.table.copy(), move))  # the copy freezes the parts both now share
            game.apply(move, atomic=False)
    return game, out


def _play(game: Any, table: Any, move: Any) -> Any:
    n = len(game.log)
    game.table = table
    game.apply(move, atomic=False)
    del game.log[n:]
    return table if game.table is table else game.table


def _kept_bytes(make: Callable[[], list[Any]]) -> tuple[float, list[Any]]:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        gc.collect()
        return (tracemalloc.get_traced_memory()[0] - before) / max(len(kept), 1), kept
    finally:
        tracemalloc.stop()


def _seconds_each(fn: Callable[[Any], Any], items: list[Any], repeats: int = 5) -> float:
    """Best of ``repeats`` over ``items``, the garbage collector paused (its pauses, which depend
    on everything else alive in the process, would dwarf a key's few microseconds)."""
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            for x in items:
                fn(x)
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best / len(items)


def run() -> dict[str, Any]:
    from fsm.table.model import Table

    game, sample = _sample()
    parents = [p for p, _ in sample]
    for p, m in sample[:50]:  # warm what the engine caches
        _play(game, p.copy(), m)

    whole, _ = _kept_bytes(lambda: [_play(game, whole_copy(p), m) for p, m in sample])
    shared, children = _kept_bytes(lambda: [_play(game, p.copy(), m) for p, m in sample])
    copy_whole, _ = _kept_bytes(lambda: [whole_copy(p) for p in parents])
    copy_shared, _ = _kept_bytes(lambda: [p.copy() for p in parents])
    copied = [
        sum(1 for name in Table.PARTS for k, part in dict.items(getattr(c, name)) if part is not dict.__getitem__(
            getattr(p, name), k))
        for (p, _), c in zip(sample, children, strict=True)
    ]  # fmt: skip
    parts_each = sum(len(getattr(parents[0], name)) for name in Table.PARTS)

    t_copy_whole = _seconds_each(whole_copy, parents)
    t_copy_shared = _seconds_each(lambda p: p.copy(), parents)
    # the first key() of a freshly played child, as the explorer digests it: new children each round
    t_key, t_scratch = float("inf"), float("inf")
    for _ in range(3):
        fresh = [_play(game, p.copy(), m) for p, m in sample]
        t_key = min(t_key, _seconds_each(lambda c: c.key(), fresh, repeats=1))
        kept = [c.key() for c in fresh]
        for c in fresh:
            forget_keys(c)
        t_scratch = min(t_scratch, _seconds_each(lambda c: c.key(), fresh, repeats=1))
        assert [c.key() for c in fresh] == kept
    return {
        "tables_table": TABLE,
        "tables_sample": len(sample),
        "tables_parts_per_table": parts_each,
        "tables_parts_copied_per_move": round(sum(copied) / len(copied), 2),
        "tables_child_bytes_whole": round(whole),
        "tables_child_bytes_shared": round(shared),
        "tables_child_bytes_ratio": round(shared / whole, 3),
        "tables_copy_bytes_whole": round(copy_whole),
        "tables_copy_bytes_shared": round(copy_shared),
        "tables_copy_bytes_ratio": round(copy_shared / copy_whole, 3),
        "tables_copy_us_whole": round(t_copy_whole * 1e6, 1),
        "tables_copy_us_shared": round(t_copy_shared * 1e6, 1),
        "tables_copy_time_ratio": round(t_copy_shared / t_copy_whole, 3),
        "tables_key_us_scratch": round(t_scratch * 1e6, 1),
        "tables_key_us_kept": round(t_key * 1e6, 1),
        "tables_key_time_ratio": round(t_key / t_scratch, 3),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), ensure_ascii=False))
