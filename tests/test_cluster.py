"""Exploring on a Dask cluster (fsm/explore/cluster.py, issue 26): a real ``LocalCluster``, the
results of ``--jobs 1``, no table expanded twice, and tasks that carry the scenario, not its path."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fsm.errors import BadInput
from fsm.explore import cluster
from fsm.explore.cluster import Share
from fsm.explore.explorer import explore_file
from fsm.explore.parallel import split_start
from fsm.explore.position import game_at
from fsm.explore.report import Judge, Report, moves_of
from fsm.explore.search import Search
from fsm.explore.visited import NOT_EXPANDED, Visits

distributed = pytest.importorskip("distributed", reason="Dask is installed by the test extra (fsm[dask])")

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The LocalCluster `--dask local:2` starts: two single-threaded worker processes, on 127.0.0.1."""
    local = cluster.local_cluster(2)
    try:
        yield local.scheduler_address
    finally:
        local.close()


def _same(one: Report, other: Report) -> None:
    assert one.complete and other.complete
    for attr in ("states", "moves", "revisits", "ended", "longest_chain", "cut"):
        assert getattr(one, attr) == getattr(other, attr), attr
    assert {k: e.tables for k, e in one.endings.items()} == {k: e.tables for k, e in other.endings.items()}
    assert sorted(one.dead_ends) == sorted(other.dead_ends) and sorted(one.errors) == sorted(other.errors)


@pytest.mark.parametrize("name", ["scenarios/nb_sync_fizzle.yaml", "scenarios/action_fizzles_after_counter.yaml"])
def test_dask_on_a_local_cluster_gives_the_results_of_jobs_1_expanding_no_table_twice(
    scheduler: str, name: str
) -> None:
    """Same tables, moves, endings as one process; the shares' claims by digest keep the tables
    expanded (over every worker) within 1.05x of the distinct ones one process expands."""
    one = explore_file(REPO / name)
    on_dask = explore_file(REPO / name, dask=scheduler)
    _same(one, on_dask)
    assert one.expanded > 10
    assert on_dask.expanded <= 1.05 * one.expanded, (on_dask.expanded, one.expanded)


def test_dask_shares_the_work_out_from_seeds_so_every_worker_expands_tables(scheduler: str) -> None:
    """The start is split as --jobs splits it and each share replays its seeds: a share that started
    from nothing would stay idle for the whole run (tables never move), as the first Dask path did."""
    one = explore_file(REPO / "scenarios/nb_sync_fizzle.yaml")
    on_dask = explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask=scheduler)
    _same(one, on_dask)
    assert on_dask.per_worker is not None and len(on_dask.per_worker) == 2
    assert min(on_dask.per_worker) >= one.expanded // 5, on_dask.per_worker


def test_dask_local_n_forks_its_workers_so_they_digest_with_hash_as_this_process_does() -> None:
    """`--dask local:N` digests with hash(), as --jobs's forked workers: its workers are forked from
    this process and hash strings (and None) as it does.  Were they spawned, each would hash its
    own way, the owners by digest would disagree and tables would be expanded twice or lost."""
    assert cluster.FORKS  # Linux: the suite's machines can fork
    name = REPO / "scenarios/nb_sync_fizzle.yaml"
    one, on_dask = explore_file(name), explore_file(name, dask="local:2")
    _same(one, on_dask)
    assert on_dask.expanded <= 1.05 * one.expanded, (on_dask.expanded, one.expanded)


def test_dask_local_n_starts_its_own_cluster_and_reads_a_designers_rules_from_the_task() -> None:
    """`--dask local:2`, on a design whose `rules:` names a file beside it: the task carries both."""
    path = REPO / "designs/rest.yaml"
    _same(explore_file(path), explore_file(path, dask="local:2"))


class _Answered:
    """An actor call's future, answered already."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def done(self) -> bool:
        return True

    def result(self, timeout: float | None = None) -> Any:
        return self.value


class _Owner:
    """Share 1 as share 0 sees it through Dask: it answers offers first come, first granted
    (``refuse``: digests some other share was granted before), and has no seed to give."""

    def __init__(self, refuse: Iterable[int] = ()) -> None:
        self.owned = set(refuse)
        self.asked: list[int] = []

    def claim(self, data: bytes) -> _Answered:
        digests = cluster.unpacked(data)
        self.asked += digests
        granted = [d for d in digests if d not in self.owned]
        self.owned.update(digests)
        return _Answered(cluster.packed(granted))

    def take_seed(self) -> _Answered:
        return _Answered(None)


def _share_of(files: cluster.Bundle, name: str) -> Share:
    """Share 0 of 2, dealt the one seed that is the start itself."""
    start = game_at(REPO / "designs/rest.yaml", "start", {})
    search = Search(start, Judge(start, start.table), Report(name, "start", None, {}), start.table, stable=True)
    return Share(files, name, "start", {}, "compiled", 0, 2, [search.start_digest], [((), search.start_digest)])


def test_dask_local_n_starts_workers_without_the_profiler() -> None:
    """`--dask local:N`: its workers do not sample every thread's stack a hundred times a second
    for a profile nobody reads (Dask's profiler: 2-3% of a share's CPU)."""
    import dask

    local = cluster.local_cluster(1)
    try:
        with distributed.Client(local) as client:
            enabled = client.run(lambda: dask.config.get("distributed.worker.profile.enabled"))
            assert list(enabled.values()) == [False]
    finally:
        local.close()


def test_a_share_needs_the_scenarios_content_not_its_path(tmp_path: Path) -> None:
    """The files travel inside the task: a share built from them works after they are gone.  It
    claims the children it owns (even digests, share 0 of 2) itself, offers the others to their
    owner, and expands those granted: granted everything, it explores the whole space alone."""
    for name in ("rest.yaml", "rest.toml"):
        shutil.copy(REPO / "designs" / name, tmp_path / name)
    files, name = cluster.bundle(tmp_path / "rest.yaml")
    assert set(files) == {"rest.yaml", "rest.toml"}
    shutil.rmtree(tmp_path)
    share, owner = _share_of(files, name), _Owner()
    visits, report = share.run([share, owner])
    one = explore_file(REPO / "designs/rest.yaml")
    assert report.states == one.states - 1  # every table but the seed's own start, the split's
    assert owner.asked and all(d % 2 == 1 for d in owner.asked)  # only what the other share owns is offered
    assert all(visits.moves.get(d) >= 0 for d in owner.asked)  # granted: expanded here
    expanded = [d for d, n in visits.moves.items() if n != NOT_EXPANDED]
    assert len(expanded) == 1 + share.claimed + len(owner.asked)  # the seed's start, its own claims, the granted
    assert not share.stack and not share.offered


def test_a_share_does_not_expand_what_the_owner_refused() -> None:
    """A child whose owner granted it to another share first is recorded (it is reached here too)
    but not expanded: that other share expands it."""
    files, name = cluster.bundle(REPO / "designs/rest.yaml")
    first = _Owner()
    _share_of(files, name).run([None, first])
    refusing = _Owner(refuse=first.asked)
    visits, _report = _share_of(files, name).run([None, refusing])
    assert refusing.asked and all(visits.moves.get(d) == NOT_EXPANDED for d in refusing.asked)


class _Travelling(_Answered):
    """An answer still on its way: not done until the share waits for it (``waited`` is told)."""

    def __init__(self, value: Any, waited: Callable[[], None]) -> None:
        super().__init__(value)
        self.waited = waited

    def done(self) -> bool:
        return False

    def result(self, timeout: float | None = None) -> Any:
        self.waited()
        return self.value


class _SlowOwner(_Owner):
    """An owner whose answers are on their way when first looked at: it notes how many seeds the
    share had left untouched when it first had to wait for one."""

    def __init__(self, share: Share) -> None:
        super().__init__()
        self.share = share
        self.seeds_left_at_first_wait: int | None = None

    def claim(self, data: bytes) -> _Answered:
        return _Travelling(super().claim(data).value, self._waited)

    def _waited(self) -> None:
        if self.seeds_left_at_first_wait is None:
            self.seeds_left_at_first_wait = len(self.share.seeds)


def test_a_share_with_an_empty_stack_begins_its_next_seed_rather_than_wait_for_answers() -> None:
    """While the owner's answers travel, a share whose stack ran empty begins another of its seeds;
    it waits only when it has none left (waiting left a share idle a fifth of the time)."""
    path = REPO / "scenarios/counter_of_counter_of_counter.yaml"
    game = game_at(path, "start", {})
    split, frontier = split_start(game, str(path), "start", 1, "compiled", stable=True)
    seeds = [(moves_of(line), digest) for _table, line, digest in frontier][:3]
    files, name = cluster.bundle(path)
    share = Share(files, name, "start", {}, "compiled", 0, 2, [d for d in split.seen if d % 2 == 0], seeds)
    owner = _SlowOwner(share)
    share.run([None, owner])
    assert owner.asked and owner.seeds_left_at_first_wait == 0


def test_an_owner_grants_each_digest_once_and_gives_away_the_seed_it_would_begin_last() -> None:
    files, name = cluster.bundle(REPO / "designs/rest.yaml")
    seeds: list[cluster.Seed] = [(("pass",), 1), (("pass", "pass"), 2)]
    share = Share(files, name, "start", {}, "compiled", 0, 2, [10], seeds)
    granted = asyncio.run(share.claim(cluster.packed([2, 2, 4, 10, -(2**63)])))
    assert cluster.unpacked(granted) == [2, 4, -(2**63)]  # 10: the split's, claimed at the start
    assert cluster.unpacked(asyncio.run(share.claim(cluster.packed([4, 6])))) == [6]  # refused now and later
    assert share.claimed == 4
    assert asyncio.run(share.take_seed()) == seeds[1]  # its own next seed stays, for itself
    assert asyncio.run(share.take_seed()) == seeds[0]
    assert asyncio.run(share.take_seed()) is None


def test_dask_bad_local_count_is_refused_with_a_clear_message() -> None:
    with pytest.raises(BadInput, match="local:N takes a number of workers"):
        explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask="local:none")
    with pytest.raises(BadInput, match="leave out --depth"):
        explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask="local:2", depth=3)


@pytest.mark.parametrize(("lang", "said"), [("en", "has no workers yet"), ("ja", "まだワーカーがありません")])
def test_dask_a_cluster_with_no_worker_is_refused_not_reported_as_explored(lang: str, said: str) -> None:
    """A scheduler with no worker would leave only the split's tables to count, which would read as
    a whole (tiny) exploration: the run is refused, saying what to do."""
    from fsm.i18n import using

    empty = distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0")
    try:
        with using(lang), pytest.raises(BadInput, match=said):
            explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask=empty.scheduler_address)
    finally:
        empty.close()


class _FailingShare(Share):
    """A share that fails on share 1 as it begins (pickled by value: the workers cannot import
    tests/), while the other share goes on."""

    def run(self, peers: list[Any]) -> tuple[Visits, Report]:
        if self.index == 1:
            raise RuntimeError("worker 1 broke on purpose")
        return super().run(peers)


def test_the_first_failure_on_dask_cancels_the_other_tasks_with_one_clear_message(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A share that fails: the run stops with one message naming the failure (BadInput: the CLI
    prints it without a traceback), and no task of the run is left on the cluster."""
    import sys

    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    monkeypatch.setattr(cluster, "Share", _FailingShare)
    with pytest.raises(BadInput, match=r"a Dask worker failed \(RuntimeError: worker 1 broke on purpose\).*cancelled"):
        explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask=scheduler)
    with distributed.Client(scheduler, timeout=10) as client:
        deadline = time.monotonic() + 10
        while (left := client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.2)
        assert left == 0, f"{left} tasks of the failed run still on the cluster"


def test_dask_budget_counts_the_tables_of_all_shares_and_marks_the_report_cut(scheduler: str) -> None:
    """`--max-states` on Dask: the run stops once the shares together were granted the budget (each
    may finish the slice it is in), and the report says the budget cut it."""
    path = REPO / "scenarios/counter_of_counter_of_counter.yaml"
    report = explore_file(path, dask=scheduler, max_states=2_000)
    assert report.stopped_by == "budget" and report.truncated and not report.complete
    assert report.cut > 0
    assert 2_000 <= report.states < 38_392  # the whole space is 38,392 tables (README (b6))
