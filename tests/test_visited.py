"""The explorer's memory of visited tables (fsm/explore/visited.py, issue 16 point 3): a compact digest
set and map that behave as a Python set and dict, cost about 17 bytes a digest, and the
claims that keep two worker processes from exploring the same table."""

from __future__ import annotations

import multiprocessing
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsm.explore import parallel
from fsm.explore.explorer import explore_file
from fsm.explore.visited import START_SLOTS, Claims, DigestMap, Visits

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1).filter(lambda d: d not in (0, 1))
# digests crowded into one segment and a few slots: long probe runs, many growths
CROWDED = st.integers(min_value=2, max_value=5_000).map(lambda n: (n * 64) | (7 << 58))


@settings(max_examples=60, deadline=None)
@given(st.lists(INT64 | CROWDED, max_size=400), st.lists(INT64 | CROWDED, max_size=50))
def test_a_digest_set_holds_what_a_python_set_holds(added: list[int], asked: list[int]) -> None:
    mine, theirs = DigestMap(), set()
    for d in added:
        assert mine.add(d) == (d not in theirs)  # add says whether the digest was new
        theirs.add(d)
    assert len(mine) == len(theirs) and set(mine) == theirs
    assert all((d in mine) == (d in theirs) for d in asked + added)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(INT64 | CROWDED, st.integers(-1, 2**31 - 1)), max_size=400))
def test_a_digest_map_holds_what_a_dict_holds(pairs: list[tuple[int, int]]) -> None:
    mine, theirs = DigestMap(values="i"), {}
    for d, v in pairs:
        mine[d] = v
        theirs[d] = v
    assert dict(mine.items()) == theirs and len(mine) == len(theirs)
    assert all(mine.get(d) == v for d, v in theirs.items())
    assert mine.get(12345678901) is None and mine.get(12345678901, -7) == -7


def test_digest_zero_is_kept_as_one() -> None:
    """0 marks an empty slot; the (2**-64 rare) digest 0 shares a slot with 1."""
    digests = DigestMap([0])
    assert 0 in digests and 1 in digests and not digests.add(1) and len(digests) == 1


def test_a_visited_digest_costs_about_16_bytes_not_a_python_sets_100() -> None:
    """Issue 16 point 3: memory grows by about 16 bytes per visited table (11-21 as the segments
    fill).  Measured by tracemalloc over 200,000 digests, growing from empty (a Python set of
    new ints takes ~100)."""
    import random

    rng = random.Random(16)
    digests = [rng.getrandbits(64) - 2**63 for _ in range(200_000)]
    for values in (None, "i"):
        tracemalloc.start()
        try:
            kept = DigestMap(digests, values=values)
            held = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        per_digest = held[0] / len(digests)
        assert len(kept) == len(digests) and per_digest <= (24 if values is None else 32), (values, per_digest)
        # growing holds two copies of one segment at most, never of the whole set
        assert held[1] - held[0] <= held[0] / 8, (values, held)
        assert kept.nbytes <= held[0]


def test_a_segment_grows_past_three_quarters_full() -> None:
    digests = DigestMap()
    crowded = [(n * 64) | (5 << 58) for n in range(1, START_SLOTS)]  # all in one segment
    for d in crowded[: START_SLOTS * 3 // 4]:
        digests.add(d)
    before = digests.nbytes
    digests.update(crowded[START_SLOTS * 3 // 4 :])
    assert digests.nbytes == before + 8 * START_SLOTS and set(digests) == set(crowded)


def test_visits_merge_counts_a_table_expanded_anywhere_as_expanded() -> None:
    here, there = Visits(), Visits()
    here.reached(10, None)  # reached here, left to another worker
    there.reached(10, ("ending",))
    there.moves[10] = 3
    there.errors[10] = [("boom", ("A: pass",))]
    here.reached(20, None)
    here.moves[20] = 0
    here.dead_ends[20] = ("window", ())
    here.merge(there)
    assert dict(here.moves.items()) == {10: 3, 20: 0}
    assert here.endings == {10: ("ending",)} and here.errors == {10: [("boom", ("A: pass",))]}
    assert here.dead_ends == {20: ("window", ())}


def _claim_in_child(claims: Claims, d: int, out: Any) -> None:
    out.put(claims.claim(d))


def test_claims_are_shared_by_processes_and_taken_once() -> None:
    context = multiprocessing.get_context("fork")
    claims, out = Claims(slots=1024, context=context), context.Queue()
    child = context.Process(target=_claim_in_child, args=(claims, 2**40 + 3, out))
    child.start()
    taken = out.get(timeout=300)  # waits for the child's answer, however loaded the machine; the cap only ends a hang
    child.join()
    assert taken is True  # the child took it first
    assert claims.claim(2**40 + 3) is False  # and this process sees the child's claim
    assert claims.claim(99) is True and claims.claim(99) is False


def test_a_full_claims_table_gives_up_the_claim_rather_than_lose_the_table() -> None:
    claims = Claims(slots=Claims.PROBES)
    for d in range(2, 2 + Claims.PROBES):
        assert claims.claim(d)
    assert claims.claim(10**9) is True  # no room: explored, perhaps twice
    assert claims.claim(10**9) is True


def _parts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Visits, Any]]:
    """The parts `--jobs` merges, kept for the test to look at."""
    seen: list[tuple[Visits, Any]] = []
    merge = parallel.merge

    def keep(report: Any, parts: list[tuple[Visits, Any]]) -> None:
        seen.extend(parts)
        merge(report, parts)

    monkeypatch.setattr(parallel, "merge", keep)
    return seen


TRANSPOSING = SCENARIOS / "nb_sync_fizzle.yaml"  # its tasks' lines meet: without claims, two explore the same tables


def test_with_claims_every_table_is_explored_by_one_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker process taking the tasks in turn: its claims hold, so each task's tables
    are its own; the tasks' starts are the split's last tables, counted by both."""
    parts = _parts(monkeypatch)
    report = parallel.explore_parallel(TRANSPOSING, 1)
    tasks = len(parts) - 1
    assert tasks > 1 and sum(len(v.moves) for v, _ in parts) == report.states + tasks
    expanded = [d for v, _ in parts[1:] for d, n in v.moves.items() if n >= 0]
    assert len(expanded) == len(set(expanded))


def test_lost_claims_change_the_time_not_the_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Claims that are always lost (no slot looked at): every worker explores all it reaches,
    tables are explored twice, and the merge still counts each once."""
    parts = _parts(monkeypatch)
    monkeypatch.setattr(Claims, "PROBES", 0)
    two, one = parallel.explore_parallel(TRANSPOSING, 2), explore_file(TRANSPOSING)
    assert sum(len(v.moves) for v, _ in parts) > two.states + len(parts) - 1  # the same tables twice
    for attr in ("states", "moves", "revisits", "ended", "longest_chain"):
        assert getattr(one, attr) == getattr(two, attr), attr
    assert {k: e.tables for k, e in one.endings.items()} == {k: e.tables for k, e in two.endings.items()}
