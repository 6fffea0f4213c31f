"""Goals and the questions about every line (fsm/scenarios/goals.py, fsm/explore/questions.py, `fsm check`).

A goal is an expect: block (the words of fsm/scenarios/checking.py); `fsm check --reach` finds a
shortest line to it, `--never` says it holds only after a complete search.  The clauses behind the
positions used: ACT-6 (a 【行動】 whose unit is 行動完了 at its recheck fizzles), TIM-CTR-2 (priority
in the counter window), TIM-CTR-3 (the newest item resolves first).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsm.cli import main
from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.explore import levels
from fsm.explore.questions import never, reach
from fsm.explore.report import Judge
from fsm.scenarios.checking import check
from fsm.scenarios.goals import Goal, goal_failures, goal_holds, goal_of, load_goal
from fsm.scenarios.playing import load, play
from fsm.scenarios.reading import Where

REPO = Path(__file__).resolve().parents[1]
FIZZLE = REPO / "scenarios" / "action_fizzles_after_counter.yaml"
CHAIN = REPO / "scenarios" / "counter_of_counter_of_counter.yaml"


def goal(block: Mapping[str, Any], path: Path = FIZZLE) -> Goal:
    return goal_of(block, Where(str(path)), "test goal")


def shortest_by_brute_force(game: Game, g: Goal, bound: int) -> int | None:
    """The fewest moves to a table where ``g`` holds, by trying every line (no digests, no memo):
    the independent answer the breadth-first search must agree with."""
    judge = Judge(game, game.table.copy())
    best: int | None = None

    def walk(n: int) -> None:
        nonlocal best
        holds = g.holds(game)
        assert holds == (not check(game, g.expect, g.where))  # the quick look at results never disagrees
        if holds:
            best = n if best is None else min(best, n)
            return
        if n >= bound or (best is not None and n + 1 >= best) or judge.ended(game.table):
            return
        for move in game.legal_moves():
            snap = game.snapshot()
            game.apply(move)
            walk(n + 1)
            game.restore(snap)

    snap = game.snapshot()
    walk(0)
    game.restore(snap)
    return best


def fsm(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


# ---------------------------------------------------------------- shortest lines
def test_act6_a_goal_first_reachable_in_exactly_k_moves_is_reported_with_k_moves() -> None:
    """ACT-6 / TIM-CTR-3: 岩砕き can fizzle only once a counter has made 岩の巨人 行動完了 and both
    players passed: 4 moves, never fewer, and the line does it."""
    game, _ = load(FIZZLE)
    fizzled = goal({"outcomes": {"岩砕き": "fizzled"}})
    assert shortest_by_brute_force(game, fizzled, 6) == 4
    answer = reach(game, fizzled)
    assert answer.found is True and len(answer.line) == 4
    assert reach(game, fizzled, depth=3).found is None  # fewer moves than 4 cannot reach it
    for move in answer.line:  # the line is legal and ends where the goal holds
        game.apply(move)
    assert goal_holds(game, fizzled)


def test_tim_ctr_3_the_shortest_line_of_a_long_chain_agrees_with_trying_every_line() -> None:
    """TIM-CTR-3: 水の盾 (a counter) resolves only once the chain above it has resolved and both passed."""
    game, _ = load(CHAIN)
    g = goal({"outcomes": {"水の盾": "resolved"}}, CHAIN)
    answer = reach(game, g)
    assert answer.found and len(answer.line) == shortest_by_brute_force(game, g, len(answer.line))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "outcomes": st.dictionaries(st.sampled_from(["岩砕き", "足止め"]), st.sampled_from(["resolved", "fizzled"]),
                                        min_size=1),
            "zones": st.dictionaries(st.sampled_from(["足止め", "水の精", "岩の巨人"]),
                                     st.sampled_from(["field", "graveyard", "hand"]), min_size=1),
            "actor": st.sampled_from(["A", "B", "nobody"]),
        },
    )
)  # fmt: skip
def test_reach_finds_a_line_exactly_when_one_exists_and_no_shorter_one_does(block: dict[str, Any]) -> None:
    """For any goal over this table's words: found ⇔ brute force finds one; the line's length is the least."""
    game, _ = load(FIZZLE)
    g = goal(block)
    answer = reach(game, g)
    assert answer.complete
    expected = shortest_by_brute_force(game, g, 7)
    assert answer.found is not None
    assert (len(answer.line) if answer.found else None) == expected


def test_the_same_line_with_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 2 expands each level in forked processes and finds the very line of --jobs 1."""
    monkeypatch.setattr(levels, "SMALL_LEVEL", 1)  # share out even this small space's levels
    game, _ = load(FIZZLE)
    g = goal({"outcomes": {"岩砕き": "fizzled"}})
    one, two = reach(game, g), reach(game, g, jobs=2)
    assert one.line == two.line and one.tables == two.tables


# ---------------------------------------------------------------- never
def test_never_holds_only_after_a_complete_search_and_is_unknown_when_cut() -> None:
    """ACT-6: 岩砕き fizzles here only when 足止め made 岩の巨人 行動完了 first, so it never fizzles
    with 足止め still in hand; saying so needs every line searched."""
    game, _ = load(FIZZLE)
    impossible = goal({"outcomes": {"岩砕き": "fizzled"}, "zones": {"足止め": "hand"}})
    assert shortest_by_brute_force(game, impossible, 12) is None
    full = never(game, impossible)
    assert full.complete and full.holds is True and full.found is False
    cut = never(game, impossible, budget=5)
    assert cut.holds is None and cut.stopped_by == "budget" and not cut.complete
    shallow = never(game, impossible, depth=2)
    assert shallow.holds is None and shallow.stopped_by == "depth"


def test_cli_never_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fsm check --never`: 0 holds (complete), 1 violated, 3 cut (and says by what)."""
    impossible = write(tmp_path, "impossible.yaml", {"outcomes": {"岩砕き": "fizzled"}, "zones": {"足止め": "hand"}})
    fizzles = write(tmp_path, "fizzles.yaml", {"outcomes": {"岩砕き": "fizzled"}})
    code, out, _ = fsm(capsys, "check", FIZZLE, "--never", impossible, "--quiet")
    assert code == 0 and "holds" in out
    code, out, _ = fsm(capsys, "check", FIZZLE, "--never", impossible, "--budget", "5", "--quiet")
    assert code == 3 and "budget" in out
    code, out, _ = fsm(capsys, "check", FIZZLE, "--never", impossible, "--depth", "2", "--quiet")
    assert code == 3 and "depth" in out
    code, out, _ = fsm(capsys, "check", FIZZLE, "--never", fizzles, "--quiet")
    assert code == 1 and "4 moves" in out


def test_cli_reach_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fsm check --reach`: 0 found, 1 not found after a complete search, 3 cut."""
    impossible = write(tmp_path, "impossible.yaml", {"outcomes": {"岩砕き": "fizzled"}, "zones": {"足止め": "hand"}})
    assert fsm(capsys, "check", FIZZLE, "--reach", impossible, "--quiet")[0] == 1
    assert fsm(capsys, "check", FIZZLE, "--reach", impossible, "--budget", "3", "--quiet")[0] == 3
    fizzles = write(tmp_path, "fizzles.yaml", {"outcomes": {"岩砕き": "fizzled"}})
    assert fsm(capsys, "check", FIZZLE, "--reach", fizzles, "--quiet")[0] == 0


# ---------------------------------------------------------------- --write
@pytest.mark.parametrize("question", ["--reach", "--never"])
def test_a_written_line_passes_fsm_run(tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str) -> None:
    """--write: the set-up, the line, the goal as expect:; `fsm run` plays it and the goal holds
    (for --never, the counterexample shows the goal happening)."""
    fizzles = write(tmp_path, "fizzles.yaml", {"outcomes": {"岩砕き": {"result": "fizzled", "clause": "ACT-6"}}})
    out = tmp_path / "line.yaml"
    code, _, _ = fsm(capsys, "check", FIZZLE, question, fizzles, "--write", out, "--quiet")
    assert code == (0 if question == "--reach" else 1)
    result = play(out)
    assert result.ok, result.failures
    assert len(yaml.safe_load(out.read_text(encoding="utf-8"))["moves"]) == 4
    assert fsm(capsys, "run", "-q", out)[0] == 0


def test_a_line_from_the_end_is_written_after_the_files_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--end: the search starts after the file's moves, so the written file keeps them first."""
    back = write(tmp_path, "back.yaml", {"flow": "main_phase"})
    out = tmp_path / "line.yaml"
    code, _, err = fsm(capsys, "check", FIZZLE, "--end", "--reach", back, "--write", out, "--quiet")
    assert code == 0, err
    moves = yaml.safe_load(out.read_text(encoding="utf-8"))["moves"]
    original = yaml.safe_load(FIZZLE.read_text(encoding="utf-8"))["moves"]
    assert moves[: len(original)] == original and len(moves) > len(original)
    assert play(out).ok


def test_goals_may_live_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(FIZZLE.read_text(encoding="utf-8"))
    data["goals"] = {"rock_fizzles": {"outcomes": {"岩砕き": "fizzled"}}}
    path = write(tmp_path, "with_goals.yaml", data)
    code, out, _ = fsm(capsys, "check", path, "--reach", "rock_fizzles", "--quiet")
    assert code == 0 and "4 moves" in out


# ---------------------------------------------------------------- bad input (file:line)
def test_a_goal_naming_no_unit_of_the_file_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ghost.yaml"
    path.write_text("zones:\n  足止め: graveyard\n  幽霊: field\n", encoding="utf-8")
    code, _, err = fsm(capsys, "check", FIZZLE, "--reach", path)
    assert code == 2
    assert f"{path}:3" in err and "幽霊" in err and "Traceback" not in err


def test_a_goal_key_the_checker_does_not_know_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "typo.yaml"
    path.write_text("outcome:\n  岩砕き: fizzled\n", encoding="utf-8")
    game, data = load(FIZZLE)
    with pytest.raises(BadInput) as err:
        load_goal(str(path), FIZZLE, data)
    assert err.value.where.startswith(f"{path}:1") and "'outcome'" in err.value.message
    assert "outcomes" in err.value.message  # the allowed key it is closest to


def test_log_and_steps_are_refused_in_a_goal(tmp_path: Path) -> None:
    path = tmp_path / "log.yaml"
    path.write_text("outcomes: {岩砕き: fizzled}\nlog: [ACT-6]\n", encoding="utf-8")
    with pytest.raises(BadInput) as err:
        load_goal(str(path), FIZZLE, {})
    assert err.value.where.startswith(f"{path}:2") and "log" in err.value.message


def test_a_goal_that_is_neither_a_file_nor_a_named_goal(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = fsm(capsys, "check", FIZZLE, "--reach", "no_such_goal")
    assert code == 2 and "no_such_goal" in err


def test_goal_failures_say_what_does_not_hold_with_the_goals_line(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("zones:\n  水の精: graveyard\n", encoding="utf-8")
    game, data = load(FIZZLE)
    g = load_goal(str(path), FIZZLE, data)
    failures = goal_failures(game, g)
    assert len(failures) == 1 and failures[0].startswith(f"{path}:2") and "field" in failures[0]
