"""The puzzle library (issue 25): every puzzle in ``puzzles/`` is proved solvable by the AND-OR
solver within its ``moves`` and not within one fewer, and a near miss for each -- the move a learner
is most likely to try -- is refuted: the other player has an answer after which the goal fails."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from fsm.explore.puzzle import refute, solve
from fsm.rules.catalogue import CLAUSES
from fsm.scenarios.goals import load_puzzle
from fsm.scenarios.reading import read_yaml

REPO = Path(__file__).resolve().parents[1]
LIBRARY = sorted((REPO / "puzzles").glob("*.yaml"))

#: For each puzzle: a near-miss line of the solver's moves (after it the solver passes), the
#: opponent's answer the refutation must contain (None: no answer is needed, passing is enough),
#: and the goal key whose failure explains it.
NEAR_MISS: dict[str, tuple[list[str], str | None, str]] = {
    "stop_the_rock": (
        ["A: use 土崩し by 水の精 on 岩の巨人"],
        None,
        "岩砕き",
    ),  # a lost 土 does not stop a 【行動】 (ACT-6)
    "price_already_paid": (
        ["A: use 足止め by 水の精 on 炎の魔術師"],
        None,
        "火球",
    ),  # 行動完了 does not stop a 【代償】 (COST-5)
    "bomb_defused": (["A: use 足止め by 水の精 on 爆弾岩"], None, "大爆発"),
    "spear_without_earth": (["A: use 足止め by 水の精 on 岩の巨人"], None, "土の槍"),
    "answer_the_answer": (
        ["A: activate 岩砕き of 岩の巨人 on 水の番人"],
        "B: use 足止め by 水の精 on 岩の巨人",
        "岩砕き",
    ),
    "last_in_first_out": (  # the 風 granted first is settled last, after 風封じ has taken one (TIM-CTR-3)
        ["A: use 風の祈り by 水の精 on 風の精", "A: use 落雷 by 風の精 on 岩の巨人"],
        "B: use 風封じ by 封じ手 on 風の精",
        "落雷",
    ),
    "skill_only_counter": (["A: use 足止め by 水の精 on 岩の巨人"], None, "土の槍"),
    "ability_only_counter": (["A: use 足止め by 水の精 on 炎の魔術師"], None, "火球"),
    "attack_only_counter": (["A: use 足止め by 水の精 on 岩の巨人"], None, "attack"),
    "win_the_speed_roll": (["A: use そよ風 by 岩の巨人 on A"], "B: use 向かい風 by 風の精 on B", "first"),
    "choose_the_price": (
        ["A: activate 火球 of 炎の魔術師 on 水の精 paying 水鏡"],
        "B: use 落雷 by 水の精 on 炎の魔術師",
        "火球",
    ),
    "break_the_pair": (["A: use 足止め by 水の精 on 双子の兄"], None, "双撃"),
    "keep_the_pair": (["A: activate 挟撃 of 双子の兄 on 水の番人"], "B: use 分断 by 水の精 on 双子の兄", "挟撃"),
}

#: What the library must teach together (issue 25, deliverable 5).
TAUGHT = {
    "fizzling by a counter": {"ACT-6", "COST-5", "SD-6", "SC-6"},
    "priority and last in, first out": {"TIM-CTR-2", "TIM-CTR-3"},
    "the 限定 counters": {"TIM-SKL", "TIM-ABL", "TIM-ATK", "TIM-SPD"},
    "choosing a 代償": {"COST-3"},
    "【同調】 partners": {"SYNC-1"},
    "the speed roll": {"FLOW-SPD"},
}


def _ids(path: Path) -> str:
    return path.stem


def test_the_library_has_twelve_puzzles_and_a_near_miss_for_each() -> None:
    assert len(LIBRARY) >= 12
    assert {p.stem for p in LIBRARY} == set(NEAR_MISS)


@pytest.mark.parametrize("path", LIBRARY, ids=_ids)
def test_puzzle_is_solvable_in_its_moves_and_not_in_fewer(path: Path) -> None:
    """Solvable whatever the other player answers, within ``moves``; with one move fewer the
    solver cannot force the goal, so ``moves`` is the puzzle's true length."""
    game, puzzle = load_puzzle(path)
    proof = solve(game, puzzle)
    assert proof.solvable is True, proof.refutation
    assert puzzle.moves is not None and proof.moves == puzzle.moves
    shorter = solve(game, dataclasses.replace(puzzle, moves=puzzle.moves - 1)) if puzzle.moves > 1 else None
    assert shorter is None or shorter.solvable is False
    assert proof.move_for(game) is not None  # the hint button always has a move to show at the start


@pytest.mark.parametrize("path", LIBRARY, ids=_ids)
def test_near_miss_is_refuted(path: Path) -> None:
    """The near miss fails: the refutation plays it, answers it (with the named counter where one is
    needed), and says which part of the goal did not hold."""
    line, answer, failed = NEAR_MISS[path.stem]
    game, puzzle = load_puzzle(path)
    refutation = refute(game, puzzle, line)
    assert refutation.refuted, refutation
    assert refutation.line[:1] == line[:1]
    if answer is not None:
        assert answer in refutation.line
    assert any(f"({failed})" in why or f"{failed}:" in why for why in refutation.why), refutation.why


@pytest.mark.parametrize("path", LIBRARY, ids=_ids)
def test_puzzle_file_is_bilingual_and_names_its_schema(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schemas/puzzle.schema.json"
    data = read_yaml(path)
    for key in ("title", "title_ja", "notes", "notes_ja"):
        assert isinstance(data.get(key), str) and data[key].strip(), key
    assert data["puzzle"].get("hint") and data["puzzle"].get("hint_ja")
    assert all(c in CLAUSES for c in data["clauses"])


def test_the_library_teaches_the_main_clauses() -> None:
    cited = set().union(*(set(read_yaml(p)["clauses"]) for p in LIBRARY))
    missing = {topic: sorted(ids - cited) for topic, ids in TAUGHT.items() if ids - cited}
    assert not missing
