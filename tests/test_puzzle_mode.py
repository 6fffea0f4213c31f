"""The step-through's puzzle mode (fsm/notebook/puzzle_mode.py), driven headless through the requests its
page sends: the learner plays the solver, the other side answers with the proof's strongest answer,
check and hint say solved / failed / not yet with why, in English and Japanese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fsm.errors import BadInput
from fsm.notebook.puzzle_mode import PuzzleStepThrough
from fsm.notebook.step_through import StepThrough

REPO = Path(__file__).resolve().parents[1]
ANSWER = REPO / "puzzles" / "answer_the_answer.yaml"
ROCK = REPO / "puzzles" / "stop_the_rock.yaml"


def request(step: StepThrough, kind: str, point: int | None = None, **extra: str) -> list[dict]:
    """A request of the page (at ``point``, default the decision point it stands at); the kernel's replies."""
    sent: list[dict] = []
    original = step.widget.send
    step.widget.send = sent.append  # type: ignore[method-assign]
    try:
        at = step.frame.move if point is None else point
        step._message(step.widget, {"type": kind, "point": at, **extra}, [])
    finally:
        step.widget.send = original  # type: ignore[method-assign]
    return sent


def panel(sent: list[dict]) -> dict:
    return [m for m in sent if m["type"] == "puzzle"][-1]


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def echoes(step: StepThrough) -> list[str]:
    return [e.move for e in step.game.log[step._start :] if e.echo]


def test_tim_ctr_2_the_other_side_answers_with_the_proofs_strongest_answer() -> None:
    """TIM-CTR-2: after A's 岩砕き, B (priority) answers by itself with 足止め, the answer that would
    refute a learner who then passes; the learner is to move again, with one move left."""
    step = PuzzleStepThrough.from_puzzle(ANSWER, lang="en")
    assert isinstance(step, PuzzleStepThrough)
    sent = request(step, "play", move="A: activate 岩砕き of 岩の巨人 on 水の番人")
    assert echoes(step) == ["A: activate 岩砕き of 岩の巨人 on 水の番人", "B: use 足止め by 水の精 on 岩の巨人"]
    assert step.game.actor() == "A" and all(m.startswith("A: ") for m in step.moves)
    assert panel(sent)["status"] == "playing" and panel(sent)["left"] == "1" and panel(sent)["seat"] == 0


def test_act7_playing_the_winning_line_is_solved() -> None:
    """TIM-CTR-3 / SC-6 / ACT-7: 水涸らし answers 足止め, resolves first, 足止め fails, 岩砕き resolves: solved."""
    step = PuzzleStepThrough.from_puzzle(ANSWER, lang="en")
    for move in ("A: activate 岩砕き of 岩の巨人 on 水の番人", "A: use 水涸らし by 岩の巨人 on 水の精"):
        request(step, "play", move=move)
    sent = request(step, "play", move="A: pass")
    assert step.status == "solved" and panel(sent)["status"] == "solved"
    assert "solved" in text(panel(sent)["said"])
    assert "solved: the goal holds" in text(panel(request(step, "check"))["said"])


def test_act6_a_near_miss_fails_and_check_says_why_from_the_goal() -> None:
    """ACT-6: passing after 足止め lets it make 岩の巨人 行動完了; check says failed, and why: the goal's own
    failures (岩砕き fizzled, not resolved; 水の番人 still on the field)."""
    step = PuzzleStepThrough.from_puzzle(ANSWER, lang="en")
    request(step, "play", move="A: activate 岩砕き of 岩の巨人 on 水の番人")
    sent = request(step, "play", move="A: pass")
    said = text(panel(request(step, "check"))["said"])
    assert step.status == "failed" and panel(sent)["status"] == "failed"
    assert "failed" in said and "岩砕き" in said and "fizzled (ACT-6" in said and "水の番人" in said
    assert ".yaml" not in said  # the learner reads the goal, not the file


def test_hint_gives_the_text_first_then_the_winning_move() -> None:
    step = PuzzleStepThrough.from_puzzle(ROCK, lang="en")
    first = text(panel(request(step, "hint"))["said"])
    assert "Which card leaves 岩の巨人 unable to act" in first
    second = text(panel(request(step, "hint"))["said"])
    assert "A: use 足止め by 水の精 on 岩の巨人" in second  # the proof's move_for at the start
    request(step, "play", move="A: use 足止め by 水の精 on 岩の巨人")
    request(step, "play", move="A: pass")
    assert step.status == "solved"


def test_check_before_any_move_says_not_yet_and_that_it_can_be_forced() -> None:
    step = PuzzleStepThrough.from_puzzle(ROCK, lang="en")
    said = text(panel(request(step, "check"))["said"])
    assert "not yet" in said and "1 of your moves left" in said and "you can still force it" in said


def test_japanese_panel_check_and_hint() -> None:
    step = PuzzleStepThrough.from_puzzle(ANSWER, lang="ja")
    sent = request(step, "hint")
    assert panel(sent)["words"]["check"] != "check" and "岩砕き は 水の番人 に向ける" in text(panel(sent)["said"])
    request(step, "play", move="A: 岩砕き を 岩の巨人 で 水の番人 に 発動")
    request(step, "play", move="A: パス")
    said = text(panel(request(step, "check"))["said"])
    assert step.status == "failed" and "失敗" in said and "期待は" in said


def test_a_move_of_the_other_side_is_not_the_learners_to_play() -> None:
    """At the other side's decision (the page went back there), a click makes it answer by itself."""
    step = PuzzleStepThrough.from_puzzle(ANSWER, lang="en")
    request(step, "play", move="A: activate 岩砕き of 岩の巨人 on 水の番人")
    step._forget_after(1)  # as the page does after a plain undo of B's answer
    assert step.game.actor() == "B"
    sent = request(step, "play", move="B: pass")
    assert echoes(step)[-1] == "B: use 足止め by 水の精 on 岩の巨人"
    assert "answers by itself" in text(panel(sent)["said"])


def test_a_page_reload_gets_the_panel_again() -> None:
    step = PuzzleStepThrough.from_puzzle(ROCK, lang="en")
    sent = request(step, "hello")
    assert [m["type"] for m in sent] == ["game", "puzzle"]
    assert any("岩砕き" in g for g in panel(sent)["goal"])


def test_a_puzzle_with_no_solution_is_refused_with_its_file(tmp_path: Path) -> None:
    """A position changed so that it has no solution (足止め gone) cannot be opened as a puzzle."""
    card = "  足止め: {owner: A, condition: 水, timing: 反撃, effect: exhaust}\n"
    changed = ROCK.read_text(encoding="utf-8").replace(card, "")
    assert changed != ROCK.read_text(encoding="utf-8")
    broken = tmp_path / "no_solution.yaml"
    broken.write_text(changed, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        PuzzleStepThrough.from_puzzle(broken, lang="en")
    assert "no_solution.yaml" in str(err.value) and "not proved solvable" in str(err.value)


def test_the_page_undoing_to_the_start_makes_hint_begin_again_with_the_text() -> None:
    """The page's undo needs no kernel message; the next request names the point it went back to."""
    step = PuzzleStepThrough.from_puzzle(ANSWER, lang="en")
    request(step, "play", move="A: activate 岩砕き of 岩の巨人 on 水の番人")
    request(step, "hint")
    sent = request(step, "hint")
    assert "A: use 水涸らし by 岩の巨人 on 水の精" in text(panel(sent)["said"])
    sent = request(step, "hint", point=0)
    assert "Aim 岩砕き at 水の番人" in text(panel(sent)["said"]) and step.used() == 0
