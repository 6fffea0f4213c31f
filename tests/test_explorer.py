"""The explorer (fsm/explore/explorer.py): every legal line of play from a table, deduplicated.

Also the engine fixes the explorer depends on (each test names its clause).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fsm.errors import BadInput
from fsm.explore.explorer import compare, explore, explore_file, format_comparison, format_report
from fsm.scenarios.building import build_game
from fsm.scenarios.playing import load

REPO = Path(__file__).resolve().parents[1]

TWO_ACTIONS = {
    "seed": 1,
    "geos": {"荒野": {"holder": "B"}},
    "units": {
        "x": {"owner": "A", "skills": "土", "geo": "荒野",
              "abilities": [{"name": "一撃", "kind": "action", "timing": "通常", "effect": "nothing"}]},
        "y": {"owner": "B", "skills": "水", "geo": "荒野",
              "abilities": [{"name": "二撃", "kind": "action", "timing": "通常", "effect": "nothing"}]},
    },
    "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
}  # fmt: skip


def test_act7_a_second_action_of_the_same_kind_can_be_declared_after_the_first_resolved() -> None:
    """ACT-7: after one 【行動】 resolved, another unit's 【行動】 runs the same procedure again.

    (The procedure machine is shared by every item of its kind; reaching a final state used
    to stop it for good.)
    """
    game = build_game(TWO_ACTIONS)
    moves = ("A: activate 一撃 of x on y", "B: pass", "A: pass", "B: activate 二撃 of y on x", "A: pass", "B: pass")
    for move in moves:
        game.apply(move)
    assert [(o.source, o.result) for o in game.table.outcomes] == [("一撃", "resolved"), ("二撃", "resolved")]


def _mutable_parts(obj: object, path: str = "table"):  # type: ignore[no-untyped-def]
    """Every mutable object reachable from ``obj`` (outcomes excepted: shared by design)."""
    from dataclasses import fields, is_dataclass

    from fsm.table.model import Outcome

    if isinstance(obj, str | int | float | bool | type(None) | Outcome):
        return
    if isinstance(obj, tuple | frozenset):
        for n, v in enumerate(obj):
            yield from _mutable_parts(v, f"{path}[{n}]")
        return
    if is_dataclass(obj):
        if obj.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return
        yield path, obj
        for f in fields(obj):
            yield from _mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")
        return
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _mutable_parts(v, f"{path}[{k!r}]")
    elif isinstance(obj, list):
        for n, v in enumerate(obj):
            yield from _mutable_parts(v, f"{path}[{n}]")


def _frozen(obj: object) -> bool:
    """A shared part whose writes are refused (fsm/table/sharing.py), or a container inside one."""
    from fsm.table.sharing import Shared

    owner = obj if isinstance(obj, Shared) else getattr(obj, "part", None)
    return isinstance(owner, Shared) and owner._lease is not None and not owner._lease.valid


def test_table_copy_shares_nothing_a_move_can_change() -> None:
    """Undo and the explorer rely on Table.copy() (FLOW-ZONES: the table is the whole game).

    Played to a point with a battle, two items on the chain, a held condition and a used
    skill, the copy may share only parts that refuse writes (units, cards and geos are
    copy-on-write, fsm/table/sharing.py): no list, dict, set or record that a move could change.
    """
    from fsm.scenarios.playing import play
    from fsm.table.sharing import SharedPart

    game = play(REPO / "designs" / "equip_counter.yaml", upto=5).game
    table = game.table
    assert table.battle is not None and len(table.chain) == 2
    original = {id(o): p for p, o in _mutable_parts(table)}
    copied = table.copy()
    shared = [p for p, o in _mutable_parts(copied) if id(o) in original and not _frozen(o)]
    assert shared == []
    assert copied.key() == table.key()
    unit = next(iter(copied.units.values()))
    with pytest.raises(SharedPart, match="shared with a copy"):
        unit.acted = True
    with pytest.raises(SharedPart, match="shared with a copy"):
        unit.skills = dataclasses.replace(unit.skills, consumed=unit.skills.consumed + {"土": 1})


# ---------------------------------------------------------------- the explorer
SCENARIOS = REPO / "scenarios"


def test_act6_explorer_finds_both_the_resolving_and_the_fizzling_岩砕き() -> None:
    """ACT-6, TIM-CTR-3: from the start of action_fizzles_after_counter.yaml, 岩砕き resolves
    on some lines (nobody answers) and fizzles on others (足止め makes its unit act first)."""
    report = explore_file(SCENARIOS / "action_fizzles_after_counter.yaml")
    outcomes = report.outcome_set()
    assert {"岩砕き resolved", "岩砕き fizzled", "足止め resolved"} <= outcomes
    assert "足止め fizzled" not in outcomes  # nothing in this table can stop 足止め
    assert report.complete and not report.dead_ends and not report.errors
    assert report.longest_chain == 2
    fizzled = [e for e in report.endings.values() if "岩砕き fizzled" in e.results]
    # every line where 岩砕き fizzled had 足止め answer it first
    assert fizzled and all("足止め resolved" in e.results for e in fizzled)
    assert all(e.line[0].startswith("A: activate 岩砕き") and "足止め" in e.line[1] for e in fizzled)


def test_cost5_explorer_outcome_table_for_the_cost_scenario() -> None:
    """COST-5: 火球 (【代償】) fizzles when 落雷 destroys its unit first, resolves otherwise."""
    report = explore_file(SCENARIOS / "nb_cost_fizzle.yaml")
    assert {"火球 resolved", "火球 fizzled", "落雷 resolved"} <= report.outcome_set()
    assert report.complete and not report.dead_ends and not report.errors
    for ending in report.endings.values():
        if "火球 fizzled" in ending.results:
            assert "落雷 resolved" in ending.results


def test_sd6_explorer_outcome_table_for_the_self_destruct_scenario() -> None:
    """SD-6: 大爆発 (【自爆】) fizzles when its unit is destroyed before it can discard itself."""
    report = explore_file(SCENARIOS / "nb_self_destruct_fizzle.yaml")
    assert {"大爆発 resolved", "大爆発 fizzled"} <= report.outcome_set()
    assert report.complete and not report.dead_ends and not report.errors
    resolved = [e for e in report.endings.values() if "大爆発 resolved" in e.results]
    assert all(("爆弾岩", "graveyard") in e.zones for e in resolved)  # SD-7: the price, discarding itself


def test_sync1_explorer_outcome_table_for_the_sync_scenario() -> None:
    """SYNC-1: 挟撃 (【同調】【行動】) resolves or fizzles depending on whether 分断 split the party."""
    report = explore_file(SCENARIOS / "nb_sync_fizzle.yaml")
    assert {"挟撃 resolved", "挟撃 fizzled", "分断 resolved"} <= report.outcome_set()
    assert report.complete and not report.dead_ends and not report.errors
    assert report.ended > len(report.endings)  # several end tables share one outcome


def test_explorer_dedup_visits_fewer_tables_than_there_are_lines() -> None:
    """Transpositions are explored once: fewer distinct tables than nodes of the plain tree."""
    path = SCENARIOS / "nb_sync_fizzle.yaml"
    deduped, tree = explore_file(path), explore_file(path, dedup=False)
    assert deduped.revisits > 0
    assert deduped.states < tree.states
    assert deduped.states + deduped.revisits == deduped.moves + 1  # every move: a new table or a revisit
    assert deduped.outcome_set() == tree.outcome_set()  # nothing is lost by deduplicating


def test_tim_ctr_3_variant_comparison_counters_between_resolutions() -> None:
    """TIM-CTR-3 (variant): reopening the window between resolutions adds ways to play, same endings."""
    cmp = compare(SCENARIOS / "action_fizzles_after_counter.yaml", {"counters_between_resolutions": True})
    assert cmp.other.variants == {"counters_between_resolutions": True} and cmp.base.variants == {}
    assert cmp.other.states > cmp.base.states
    assert cmp.outcome_changes() == [] and cmp.metric_changes()
    assert "only the number of ways" in format_comparison(cmp)


def test_flow_atk_variant_comparison_attack_outcome() -> None:
    """FLOW-ATK (variant attack_outcome): with `none` a resolved attack destroys nobody."""
    cmp = compare(SCENARIOS / "action_fizzles_after_counter.yaml", {"attack_outcome": "none"})
    assert cmp.only_other and cmp.only_base
    for ending in cmp.only_other:
        if ending.results == ("attack of 岩の巨人 resolved",):
            assert ending.zones == ()  # 水の精 stays on the field
            break
    else:
        pytest.fail("no ending where only 岩の巨人's attack resolved")
    assert any(
        e.results == ("attack of 岩の巨人 resolved",) and ("水の精", "graveyard") in e.zones for e in cmp.only_base
    )


def test_explorer_leaves_the_game_as_it_found_it() -> None:
    """Exploring uses snapshot/restore: the game's table and log are unchanged afterwards."""
    game, _ = load(SCENARIOS / "action_fizzles_after_counter.yaml")
    key, log = game.table.key(), list(game.log)
    explore(game, 6)
    assert game.table.key() == key and game.log == log
    game.apply("A: activate 岩砕き of 岩の巨人 on 水の精")  # and it still plays


def test_explorer_depth_bound_and_end_position() -> None:
    """Depth 0 visits only the start; from the scenario's end only the rest of the battle remains."""
    start = explore_file(SCENARIOS / "action_fizzles_after_counter.yaml", depth=0)
    assert (start.states, start.moves, start.cut) == (1, 0, 1) and not start.complete
    end = explore_file(SCENARIOS / "action_fizzles_after_counter.yaml", position="end")
    assert end.complete and end.states < 10
    assert all("岩砕き fizzled" not in e.results for e in end.endings.values())  # already happened before
    with pytest.raises(BadInput):
        explore_file(SCENARIOS / "action_fizzles_after_counter.yaml", position="middle")
    with pytest.raises(BadInput):
        explore_file(SCENARIOS / "action_fizzles_after_counter.yaml", variants={"no_such_variant": True})


def test_explorer_plays_the_designer_scenarios() -> None:
    """AB-1, EQ-1: the designer's kind and timing explore without dead ends or engine errors."""
    rest = explore_file(REPO / "designs" / "rest.yaml")
    assert {"深呼吸 resolved", "足止め resolved"} <= rest.outcome_set() and "深呼吸 fizzled" not in rest.outcome_set()
    equip = explore_file(REPO / "designs" / "equip_counter.yaml", position="end", depth=6)
    assert not equip.dead_ends and not equip.errors
    assert "ended" in format_report(rest) or "endings" in format_report(rest)


def test_fsm_explore_command_line_json_and_exit_codes() -> None:
    """`fsm explore FILE --json` prints the report; bad input exits 2 with a message."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "fsm", "explore", *args],
            cwd=REPO, capture_output=True, text=True, encoding="utf-8", timeout=120, env=env,
        )  # fmt: skip

    out = run("scenarios/action_fizzles_after_counter.yaml", "--json", "--depth", "8")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["states"] > 1 and any("岩砕き fizzled" in e["results"] for e in data["endings"])
    out = run("scenarios/action_fizzles_after_counter.yaml", "--compare", "counters_between_resolutions=true")
    assert out.returncode == 0 and "as is" in out.stdout
    out = run("scenarios/action_fizzles_after_counter.yaml", "--variant", "speed_tie=coin")
    assert out.returncode == 2 and "speed_tie" in out.stderr


# ---------------------------------------------------------------- honest comparisons (issue 16)
def test_compare_counts_only_complete_lines_an_ending_beyond_the_cut_is_unsettled() -> None:
    """TIM-CTR-3 (variant): at depth 4 the variant's longer lines are cut, so endings the
    variant has not reached yet are *unsettled*, not differences; explored to the end, the
    variant reaches them all (the same comparison with no depth bound shows no outcome change)."""
    path = SCENARIOS / "action_fizzles_after_counter.yaml"
    cut = compare(path, {"counters_between_resolutions": True}, depth=4)
    assert not cut.other.complete and cut.other.cut_by == "depth"
    assert cut.only_base  # seen as is, not (yet) with the variant
    assert cut.outcome_changes() == [] and cut.metric_changes() == []
    assert len(cut.unsettled()) == len(cut.only_base)
    assert cut.cuts()[0].startswith("as is:") and "depth bound of 4 moves" in " ".join(cut.cuts())
    text = format_comparison(cut)
    assert "no difference between complete lines" in text and "seen only without" in text
    full = compare(path, {"counters_between_resolutions": True})
    assert full.complete and full.unsettled() == [] and full.cuts() == []
    assert full.outcome_changes() == []  # what depth 4 showed on one side only was a cut, not a difference


def test_explore_by_default_plays_every_line_to_its_end_or_states_the_budget() -> None:
    """By default there is no depth bound; a budget that runs out says so, with example cut lines."""
    path = SCENARIOS / "action_fizzles_after_counter.yaml"
    full = explore_file(path)
    assert full.depth is None and full.complete and full.cut_by is None
    small = explore_file(path, max_states=10)
    assert small.truncated and small.cut_by == "budget" and small.cut > 0
    assert small.cut_lines and any(small.cut_lines)  # examples of lines the budget cut
    assert "cut by the budget of 10 tables" in format_report(small)
    assert small.as_dict()["cut_by"] == "budget" and small.as_dict()["budget"] == 10
    with pytest.raises(BadInput, match="budget"):
        explore_file(path, max_states=0)


def test_compare_with_a_real_difference_between_complete_lines() -> None:
    """FLOW-ATK (variant attack_outcome): both sides complete, so every one-sided ending is a difference."""
    cmp = compare(SCENARIOS / "action_fizzles_after_counter.yaml", {"attack_outcome": "none"})
    assert cmp.complete and cmp.unsettled() == []
    assert len(cmp.outcome_changes()) >= len(cmp.only_base) + len(cmp.only_other) > 0
    assert cmp.as_dict()["cuts"] == []


# ---------------------------------------------------------------- memory bounded by the visited set (issue 16)
@pytest.mark.parametrize("name", ["action_fizzles_after_counter.yaml", "nb_sync_fizzle.yaml", "auto_continuous.yaml"])
def test_depth_first_visits_the_same_tables_as_breadth_first(name: str) -> None:
    """Without a depth bound the explorer goes depth first (memory: the visited digests and one
    line of tables); it visits the same tables, plays the same moves and finds the same endings
    as breadth first with a bound no line reaches."""
    deep = explore_file(SCENARIOS / name)
    wide = explore(load(SCENARIOS / name)[0], 10_000, breadth_first=True)
    assert deep.depth is None and deep.complete and wide.complete
    for attr in ("states", "moves", "revisits", "ended", "longest_chain", "dead_end_count", "error_count"):
        assert getattr(deep, attr) == getattr(wide, attr), attr
    assert {k: e.tables for k, e in deep.endings.items()} == {k: e.tables for k, e in wide.endings.items()}


@pytest.mark.parametrize(
    ("name", "depth"),
    [
        ("action_basics.yaml", 8),
        ("speed_reroll_answered.yaml", 8),
        ("self_destruct_resolves.yaml", 6),
        ("two_declarations_one_earth.yaml", 6),
    ],
)  # fmt: skip  (each has tables first reached along a longer line than their shortest)
def test_a_depth_bound_walks_depth_first_with_the_results_of_breadth_first(name: str, depth: int) -> None:
    """With --depth the explorer no longer holds a whole level of tables (issue 16: a 6-unit,
    8-card table to depth 5 held millions): it walks depth first, and a table reached again in
    fewer moves is explored again from there.  Tables, moves, revisits, endings, cuts, dead
    ends and errors are those of the breadth-first walk, which cuts every line at the bound."""
    game, _ = load(SCENARIOS / name)
    deep, wide = explore(game, depth, max_states=None), explore(game, depth, max_states=None, breadth_first=True)
    assert wide.cut > 0  # the bound cuts lines: the case where the walk order matters
    for attr in ("states", "moves", "revisits", "ended", "cut", "longest_chain", "dead_end_count", "error_count"):
        assert getattr(deep, attr) == getattr(wide, attr), attr
    assert {k: e.tables for k, e in deep.endings.items()} == {k: e.tables for k, e in wide.endings.items()}
    assert all(len(line) == depth for line in deep.cut_lines) and deep.cut_lines


def test_max_memory_stops_cleanly_with_a_partial_report_that_says_so() -> None:
    """A memory limit the process already exceeds stops at once: a partial report, not an error."""
    path = SCENARIOS / "action_fizzles_after_counter.yaml"
    report = explore_file(path, max_memory=1)
    assert report.truncated and report.cut_by == "memory" and not report.complete
    assert "memory limit" in format_report(report) and "partial report" in format_report(report)
    assert report.as_dict()["cut_by"] == "memory"
    out = subprocess.run(
        [sys.executable, "-m", "fsm", "explore", str(path), "--max-memory", "1K"],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "FSM_LANG": "en"},
    )  # fmt: skip
    assert out.returncode == 0 and "memory limit of 1K" in out.stdout, out.stderr  # as the limit was given
    bad = subprocess.run(
        [sys.executable, "-m", "fsm", "explore", str(path), "--max-memory", "lots"],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "FSM_LANG": "en"},
    )  # fmt: skip
    assert bad.returncode == 2 and "500M or 2G" in bad.stderr and "Traceback" not in bad.stderr


# ---------------------------------------------------------------- all cores (issue 16)
@pytest.mark.parametrize("name", ["action_fizzles_after_counter.yaml", "auto_continuous.yaml"])
def test_jobs_2_gives_the_results_of_jobs_1(name: str) -> None:
    """`--jobs 2` shares the lines out to two processes; tables two workers both reach count
    once, so the tables, moves, endings, dead ends and errors are those of one process."""
    one, two = explore_file(SCENARIOS / name), explore_file(SCENARIOS / name, jobs=2)
    assert one.complete and two.complete
    for attr in ("states", "moves", "revisits", "ended", "longest_chain", "cut"):
        assert getattr(one, attr) == getattr(two, attr), attr
    assert {k: e.tables for k, e in one.endings.items()} == {k: e.tables for k, e in two.endings.items()}
    assert sorted(one.dead_ends) == sorted(two.dead_ends) and sorted(one.errors) == sorted(two.errors)


def test_jobs_says_its_budget_is_each_shares_own() -> None:
    """With --jobs the budget applies to each worker's share: the report says so, in its header
    and where it names the cut, rather than showing more tables than "budget 20 tables"."""
    from fsm.explore.explorer import format_report
    from fsm.i18n import using

    report = explore_file(SCENARIOS / "nb_sync_fizzle.yaml", jobs=2, max_states=20)
    assert report.shares is not None and report.shares > 1 and report.states > 20 and report.cut_by == "budget"
    with using("en"):
        text = format_report(report)
    assert f"budget 20 tables for each of {report.shares} shares" in text and "20 tables a share" in text
    with using("ja"):
        assert f"{report.shares} の分担それぞれに上限 20 局面" in format_report(report)


def test_jobs_refuses_a_depth_bound_with_a_clear_message() -> None:
    """A depth bound would cut each worker's share at a different depth: refused, not run wrong."""
    with pytest.raises(BadInput, match="leave out --depth"):
        explore_file(SCENARIOS / "action_fizzles_after_counter.yaml", depth=4, jobs=2)
    with pytest.raises(BadInput, match="1 or more"):
        explore_file(SCENARIOS / "action_fizzles_after_counter.yaml", jobs=0)


def test_jobs_split_runs_on_any_submitter_as_dask_or_ray_would() -> None:
    """The tasks are plain data run by any `submit(fn, task)` with `.result()` (docs/designer.md)."""
    from concurrent.futures import Future

    from fsm.explore.parallel import explore_parallel

    class Inline:  # stands in for a Dask client or a Ray adapter
        submitted = 0

        def submit(self, fn: object, task: object) -> Future[object]:
            self.submitted += 1
            done: Future[object] = Future()
            done.set_result(fn(task))  # type: ignore[operator]
            return done

    path = SCENARIOS / "nb_sync_fizzle.yaml"
    inline = Inline()
    split, one = explore_parallel(path, 2, executor=inline), explore_file(path)
    assert inline.submitted > 1 and one.depth is None and one.complete  # lines played to their end
    assert (split.states, split.moves, split.ended) == (one.states, one.moves, one.ended)
    assert {k: e.tables for k, e in split.endings.items()} == {k: e.tables for k, e in one.endings.items()}


#: Every table's stable digest, from a search in a process of its own (its string hashing seeded anew).
_STABLE_DIGESTS = """
from pathlib import Path
from fsm.explore.position import game_at
from fsm.explore.report import Judge, Report
from fsm.explore.search import Search
game = game_at(Path("scenarios/nb_sync_fizzle.yaml"), "start", {})
start = game.table.copy()
search = Search(game, Judge(game, start), Report("", "start", None, {}), start, record=True, stable=True)
search.run(None)
print(sorted(d for d, _n in search.visits.moves.items()))
"""


def test_a_stable_digest_is_the_same_in_processes_that_hash_strings_differently() -> None:
    """Workers on other machines (``--dask``) agree on every table's digest: a stable digest is
    BLAKE2 of the key's marshalled bytes, never ``hash()``, whose seed for strings differs per process."""
    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", _STABLE_DIGESTS],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
            env={**env, "PYTHONHASHSEED": seed},
        ).stdout  # fmt: skip
        for seed in ("1", "2")
    ]
    assert runs[0] == runs[1] and len(runs[0]) > 100
