"""The puzzle solver (fsm/explore/puzzle.py) and `fsm puzzle`, on the test puzzles of tests/data/puzzles/.

- stop_the_rock: B makes 岩砕き fizzle with one counter, 足止め on 岩の巨人 (ACT-6: its unit is
  行動完了 at the recheck).
- rock_against_fire: the same position with 火の矢 for A: A destroys 足止め's user, so 足止め fizzles
  (SC-6) and 岩砕き resolves; no solution.
- three_deep: B needs two counters, 水の盾 then 風の壁 against A's 火の矢 (TIM-CTR-1, TIM-CTR-3).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from fsm.cli import main
from fsm.errors import BadInput
from fsm.explore.puzzle import refute, solve
from fsm.scenarios.goals import load_puzzle

DATA = Path(__file__).resolve().parent / "data" / "puzzles"
ROCK, FIRE, DEEP = DATA / "stop_the_rock.yaml", DATA / "rock_against_fire.yaml", DATA / "three_deep.yaml"
COUNTER = "B: use 足止め by 水の精 on 岩の巨人"
FIRE_ANSWER = "A: use 火の矢 by 炎の剣士 on 水の精"


def fsm(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_act6_a_puzzle_solvable_with_one_counter_and_its_strategy() -> None:
    game, puzzle = load_puzzle(ROCK)
    proof = solve(game, puzzle)
    assert proof.solvable is True and proof.moves == 1
    assert proof.move_for(game) == COUNTER  # the hint at the start
    game.apply(COUNTER)
    assert proof.answer_for(game) == "A: pass"  # A's only answer


def test_sc6_a_puzzle_with_a_refutation_is_unsolvable_with_that_refutation() -> None:
    """SC-6: the counter fizzles once its user is destroyed, so A's 火の矢 answers 足止め."""
    game, puzzle = load_puzzle(FIRE)
    proof = solve(game, puzzle)
    assert proof.solvable is False and proof.stopped_by is None
    assert proof.refutation[:2] == [COUNTER, FIRE_ANSWER]
    assert proof.refutations[COUNTER][1] == FIRE_ANSWER
    game.apply(COUNTER)
    assert proof.answer_for(game) == FIRE_ANSWER  # the step-through's opponent plays it
    assert proof.move_for(game) is None  # no hint: nothing forces the goal any more


def test_a_position_changed_to_have_no_solution_makes_the_proof_fail(tmp_path: Path) -> None:
    """The solvable puzzle with one card added for A (火の矢) is no longer solvable."""
    data = yaml.safe_load(ROCK.read_text(encoding="utf-8"))
    game, puzzle = load_puzzle(ROCK)
    assert solve(game, puzzle).solvable is True
    data["units"]["炎の剣士"] = {"owner": "A", "skills": "火", "geo": "荒野"}
    data["cards"]["火の矢"] = {"owner": "A", "condition": "火", "timing": "反撃", "effect": "destroy"}
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    game, puzzle = load_puzzle(changed)
    assert solve(game, puzzle).solvable is False


def test_tim_ctr_3_two_counters_are_needed_and_the_move_limit_is_kept() -> None:
    """TIM-CTR-3: 風の壁 resolves before 火の矢, so B's second counter saves the first; with one
    move allowed (passes not counted) B cannot do it."""
    game, puzzle = load_puzzle(DEEP)
    proof = solve(game, puzzle)
    assert proof.solvable is True and proof.moves == 2
    assert solve(game, dataclasses.replace(puzzle, moves=1)).solvable is False
    game.apply(proof.move_for(game) or "")
    game.apply(FIRE_ANSWER)  # A's strongest try
    assert proof.move_for(game) == "B: use 風の壁 by 風の精 on 炎の剣士"


def test_a_near_miss_line_is_refuted_with_the_answer_that_defeats_it() -> None:
    game, puzzle = load_puzzle(DEEP)
    miss = refute(game, puzzle, ["B: use 水の盾 by 水の精 on 岩の巨人"])  # the first counter alone
    assert miss.refuted and miss.answer == FIRE_ANSWER
    assert any("岩砕き" in why for why in miss.why)
    # a fixed line is not a strategy: with 風の壁 played before A has answered, A's 火の矢 comes last
    # and resolves first (TIM-CTR-3), destroying 水の盾's user
    both = refute(game, puzzle, ["B: use 水の盾 by 水の精 on 岩の巨人", "B: use 風の壁 by 風の精 on 炎の剣士"])
    assert both.refuted and both.line[-3:] == [FIRE_ANSWER, "B: pass", "A: pass"]
    game, puzzle = load_puzzle(ROCK)
    assert not refute(game, puzzle, [COUNTER]).refuted


def test_cli_puzzle_exit_codes_and_try(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = fsm(capsys, "puzzle", ROCK)
    assert code == 0 and COUNTER in out
    code, out, _ = fsm(capsys, "puzzle", FIRE)
    assert code == 1 and FIRE_ANSWER in out
    code, out, _ = fsm(capsys, "puzzle", DEEP, "--budget", "3")
    assert code == 3 and "budget" in out
    code, out, _ = fsm(capsys, "puzzle", FIRE, "--try", COUNTER)
    assert code == 1 and FIRE_ANSWER in out
    code, out, _ = fsm(capsys, "--lang", "ja", "puzzle", ROCK, "--try", COUNTER)
    assert code == 0 and out.strip()


def test_a_solver_with_no_move_at_the_start_is_refused_with_the_puzzles_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = ROCK.read_text(encoding="utf-8").replace("  player: B\n", "  player: A\n")
    path = tmp_path / "wrong_solver.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  player: A") + 1
    game, puzzle = load_puzzle(path)
    with pytest.raises(BadInput) as err:
        solve(game, puzzle)
    assert err.value.where.startswith(f"{path}:{line}")
    code, _, err_text = fsm(capsys, "puzzle", path)
    assert code == 2 and f"{path}:{line}" in err_text and "Traceback" not in err_text


@pytest.mark.parametrize(
    ("old", "new", "word"),
    [
        ("    outcomes: {岩砕き: fizzled}", "    outcomes: {岩砕け: fizzled}", "岩砕け"),
        ("    outcomes: {岩砕き: fizzled}", "    outcome: {岩砕き: fizzled}", "outcome"),
        ("  goal: fizzle", "  goal: fizz", "fizz"),
    ],
)
def test_a_bad_goal_in_a_puzzle_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, word: str
) -> None:
    text = ROCK.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    line = text.splitlines().index(old) + 1
    code, _, err = fsm(capsys, "puzzle", path)
    assert code == 2 and f"{path}:{line}" in err and word in err
