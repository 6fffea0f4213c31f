"""Exploring on a Dask cluster (fsm/explore/cluster.py, issue 26): a real ``LocalCluster``, the
results of ``--jobs 1``, no table expanded twice, and tasks that carry the scenario, not its path."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fsm.errors import BadInput
from fsm.explore import cluster
from fsm.explore.cluster import Share
from fsm.explore.explorer import explore_file
from fsm.explore.position import game_at
from fsm.explore.report import Judge, Report
from fsm.explore.search import Search

distributed = pytest.importorskip("distributed", reason="Dask is installed by the test extra (fsm[dask])")

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A LocalCluster of two single-threaded worker processes, on 127.0.0.1."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


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


def test_dask_local_n_starts_its_own_cluster_and_reads_a_designers_rules_from_the_task() -> None:
    """`--dask local:2`, on a design whose `rules:` names a file beside it: the task carries both."""
    path = REPO / "designs/rest.yaml"
    _same(explore_file(path), explore_file(path, dask="local:2"))


def test_a_share_needs_the_scenarios_content_not_its_path(tmp_path: Path) -> None:
    """The files travel inside the task: a share built from them works after they are gone."""
    from fsm.explore.cluster import Share, bundle

    for name in ("rest.yaml", "rest.toml"):
        shutil.copy(REPO / "designs" / name, tmp_path / name)
    files, name = bundle(tmp_path / "rest.yaml")
    assert set(files) == {"rest.yaml", "rest.toml"}
    shutil.rmtree(tmp_path)
    start = game_at(REPO / "designs/rest.yaml", "start", {})
    search = Search(start, Judge(start, start.table), Report(name, "start", None, {}), start.table, stable=True)
    share = Share(files, name, "start", {}, "compiled", 0, 2, [search.start_digest])
    answers, offers, left, claimed = share.work([], [], [((), search.start_digest)], 60.0)  # replayed, expanded
    assert answers == [] and left == 0 and share.report.states > claimed > 0  # its own children, expanded at once
    [(owner, offered)] = offers  # the others, offered to the share that owns them
    assert owner == 1 and all(d % 2 == 1 for d in offered)
    _answers, _offers, left, _claimed = share.work([], [(offered[1:], offered[:1])], [], 0.0)
    assert left == len(offered) - 1 and not share.offered  # the granted ones wait on its stack
    [(asker, granted, refused)] = share.work([(1, [2, 2, 4])], [], [], 0.0)[0]  # as the owner: first come
    assert (asker, granted, refused) == (1, [2, 4], [2])


def test_dask_bad_local_count_is_refused_with_a_clear_message() -> None:
    with pytest.raises(BadInput, match="local:N takes a number of workers"):
        explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask="local:none")
    with pytest.raises(BadInput, match="leave out --depth"):
        explore_file(REPO / "scenarios/nb_sync_fizzle.yaml", dask="local:2", depth=3)


class _FailingShare(Share):
    """A share whose first call fails on share 1 (pickled by value: the workers
    cannot import tests/), while the other share goes on."""

    calls = 0

    def work(
        self, asked: list[cluster.Asked], answered: list[cluster.Answer], seeds: list[cluster.Seed], seconds: float
    ) -> cluster.Worked:
        self.calls += 1
        if self.calls == 1 and self.index == 1:
            raise RuntimeError("worker 1 broke on purpose")
        return super().work(asked, answered, seeds, seconds)


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
