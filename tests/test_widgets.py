"""The step-through widget (fsm/notebook/step_through.py), driven headless through its buttons and text box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fsm.notebook.step_through import PLAYER_COLOURS, StepThrough, log_groups, rows_table
from fsm.spec.ruleset import builtin

REPO = Path(__file__).resolve().parents[1]
FIZZLE = REPO / "scenarios" / "action_fizzles_after_counter.yaml"
CHAIN = REPO / "scenarios" / "nb_counter_chain.yaml"


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def button(step: StepThrough, label: str):  # noqa: ANN201 - an ipywidgets Button
    found = [b for b in step.move_buttons if b.description == label]
    assert found, f"no button {label!r}; buttons: {[b.description for b in step.move_buttons]}"
    return found[0]


def test_tim_ctr_2_header_names_the_priority_holder_and_the_buttons_are_the_legal_moves() -> None:
    """TIM-CTR-2: after A declares, the header says B has priority, and every button is one of B's legal moves."""
    step = StepThrough.from_scenario(FIZZLE)
    assert "A to decide" in text(step.header.value)
    button(step, "A: activate 岩砕き of 岩の巨人 on 水の精").click()
    assert "B has priority (反撃の優先権)" in text(step.header.value)
    assert [b.description for b in step.move_buttons] == [str(m) for m in step.game.legal_moves()]
    assert all("fsm-move-1" in b._dom_classes for b in step.move_buttons)  # B's seat, coloured by STYLE
    assert f".fsm-move-1 {{ background-color: {PLAYER_COLOURS[1]}" in step.title_html.value
    assert all("fsm-move" in b._dom_classes for b in step.move_buttons)


def test_act4_a_click_plays_the_move_redraws_the_diagram_and_undo_takes_it_back() -> None:
    """ACT-4/ACT-5: clicking a move logs the declaration and opens the window in the diagram; undo restores all."""
    step = StepThrough.from_scenario(FIZZLE)
    key, length, diagram = step.game.table.key(), len(step.game.log), step.diagram.value
    assert "<svg" in diagram
    button(step, "A: activate 岩砕き of 岩の巨人 on 水の精").click()
    assert "ACT-4" in step.log_html.value and "ACT-5" in step.log_html.value
    assert step.diagram.value != diagram
    assert "#1" in text(step.chain_html.value) and "岩砕き" in text(step.chain_html.value)
    step.undo_button.click()
    assert step.game.table.key() == key and len(step.game.log) == length
    assert step.diagram.value == diagram
    assert step.undo_button.disabled


def test_tim_ctr_2_why_not_explains_a_refused_move_with_its_clause_and_changes_nothing() -> None:
    """TIM-CTR-2: typing A's pass while B has priority is refused with the clause; the table is untouched."""
    step = StepThrough.from_scenario(FIZZLE, upto=1)
    key, length = step.game.table.key(), len(step.game.log)
    step.try_text.value = "A: pass"
    step.why_button.click()
    assert "TIM-CTR-2" in step.why.value and "refused" in step.why.value
    step.play_button.click()
    assert "TIM-CTR-2" in step.why.value
    assert step.game.table.key() == key and len(step.game.log) == length


@pytest.mark.parametrize(
    "typed",
    ["A: frobnicate", "A: use 足止め by nobody", "A: activate nope of 岩の巨人", "use", "", "B: use 足止め by"],
)
def test_bad_input_typed_into_the_box_is_explained_never_raised(typed: str) -> None:
    """A typo is bad input, not a rule question: the widget says what is wrong and nothing changes."""
    step = StepThrough.from_scenario(FIZZLE)
    key = step.game.table.key()
    assert step.try_move(typed)
    assert step.play(typed) == []
    assert step.why.value and "Traceback" not in step.why.value
    assert step.game.table.key() == key


def test_act6_next_in_script_plays_the_scenario_through_to_the_fizzle() -> None:
    """ACT-6: the script's moves, with its expected refusal shown on the way, end in 岩砕き fizzling."""
    step = StepThrough.from_scenario(FIZZLE)
    seen_refusal = False
    while not step.script_button.disabled:
        step.script_button.click()
        seen_refusal = seen_refusal or "TIM-CTR-2" in step.why.value
    assert seen_refusal
    step.play_to_decision()  # the last pass resolves the chain: it stopped at its first link step
    assert [(o.source, o.result) for o in step.game.table.outcomes] == [("足止め", "resolved"), ("岩砕き", "fizzled")]
    assert "ACT-6" in step.log_html.value  # the fizzle line cites the recheck
    step.more.selected_index = 0  # the folded units-and-cards panel lists the outcomes
    assert "ACT-6" in step.table_html.value and "fizzled" in step.table_html.value
    assert "✓" in step.script_html.value and not step.off_script


def test_leaving_the_script_is_shown_and_undo_returns_to_it() -> None:
    step = StepThrough.from_scenario(FIZZLE)
    button(step, "A: pass").click()
    assert step.off_script and step.script_button.disabled
    assert "left the script" in step.script_html.value
    step.undo()
    assert not step.off_script and not step.script_button.disabled
    assert any("fsm-move-scripted" in b._dom_classes for b in step.move_buttons)


def test_tim_ctr_3_variant_counters_between_resolutions_reopens_the_window() -> None:
    """TIM-CTR-3 (variant counters_between_resolutions): after the top item resolves, priority is asked again."""
    default = StepThrough.from_scenario(CHAIN, upto=5)
    variant = StepThrough.from_scenario(CHAIN, upto=5, variants={"counters_between_resolutions": True})
    for step in (default, variant):
        step.play("A: pass")
        step.play_to_decision()
    assert default.game.table.chain == [] and "B to decide" in text(default.header.value)
    assert len(variant.game.table.chain) == 2
    assert "A has priority" in text(variant.header.value)
    assert "counters_between_resolutions" in variant.header.value


def test_reset_goes_back_to_the_scenario_start() -> None:
    step = StepThrough.from_scenario(FIZZLE, upto=3)
    key = step.game.table.key()
    step.play("A: pass")
    step.play("B: pass")
    step.reset_button.click()
    assert step.game.table.key() == key and step.script_pos == 3 and not step.history


def test_log_groups_start_with_each_move() -> None:
    step = StepThrough.from_scenario(FIZZLE)
    for move in ("A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass", "A: pass"):
        step.play(move)
    groups = log_groups(step.game.log)
    assert [m for m, _ in groups] == ["", "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass", "A: pass"]
    assert sum(len(lines) for _, lines in groups) == len(step.game.log)


def test_rows_table_renders_the_timing_legality_table() -> None:
    rows = builtin().legality_table()
    html = rows_table(rows)
    assert html.count("<tr>") == len(rows) + 1
    assert "[反撃：スピード限定]" in html and "TIM-SPD" in html


def test_a_bare_game_gets_a_step_through_without_a_script() -> None:
    """Any Game can be stepped: StepThrough(game) shows its legal moves and hides the script controls."""
    from fsm.scenarios.playing import load

    game, _ = load(FIZZLE)
    step = StepThrough(game)
    assert step.script_button.layout.display == "none" and step.script_html.value == ""
    assert [b.description for b in step.move_buttons] == [str(m) for m in game.legal_moves()]
    step.try_text.value = "B: pass"  # Enter in the box asks why not
    assert "refused" in step.why.value


def test_tim_ctr_3_a_resolution_is_replayed_link_by_link_newest_first() -> None:
    """TIM-CTR-3, SC-6: after the last pass, **step** shows #3 resolve, #2 fizzle (its failed condition marked in
    the log and on its procedure, the fizzle edge drawn as just taken), then #1 resolve; no move in between."""
    step = StepThrough.from_scenario(CHAIN, upto=5)
    step.play("A: pass")
    assert "replaying" in text(step.header.value) and step.move_buttons == []
    assert "反撃の優先権" not in text(step.header.value)
    outcomes = []
    while not step.step_button.disabled:
        step.step_button.click()
        label = step.frame.label
        if "発動" in label or "不発" in label:
            outcomes.append(label.split(" · ")[-1])
        if "#2 不発" in label:
            assert "fsm-failed" in step.log_html.value and "condition can no longer be met" in step.log_html.value
            assert "● " in step.diagram.value and 'stroke-width="3.5"' in step.diagram.value
            assert "✘" in text(step.chain_html.value)
    assert outcomes == ["#3 発動 resolves", "#2 不発 fizzles", "#1 発動 resolves"]
    assert step.frame.decision and "B to decide" in text(step.header.value)
    assert [b.description for b in step.move_buttons] == [str(m) for m in step.game.legal_moves()]


def test_play_to_the_decision_skips_the_replay_and_the_timeline_goes_back_to_any_point() -> None:
    """TIM-CTR-3: play to the decision lands where B decides; the timeline jumps back to the start and forward
    again, restoring each point's table; a move played from an earlier point starts a new future."""
    step = StepThrough.from_scenario(CHAIN, upto=5)
    start_key = step.game.table.key()
    step.play("A: pass")
    step.decision_button.click()
    end_key, end_log = step.game.table.key(), len(step.game.log)
    assert step.game.table.chain == []
    step.timeline.value = 0  # what the slider (and its ← key) sends
    assert step.game.table.key() == start_key and step.frame.move == 0
    step.history_list.value = len(step.frames) - 1  # a click on the last row of the history
    assert step.game.table.key() == end_key and len(step.game.log) == end_log
    step.goto(0)
    step.play("A: pass")
    assert len(step.history) == 1 and step.game.table.chain == []
    assert step.timeline.max == len(step.frames) - 1


def test_undo_takes_back_the_move_being_replayed_and_buttons_are_reused() -> None:
    """Undo during a replay takes the whole move back; the move buttons are the same widgets as before."""
    step = StepThrough.from_scenario(CHAIN, upto=5)
    before = {b.description: b for b in step.move_buttons}
    key = step.game.table.key()
    step.play("A: pass")
    step.undo_button.click()
    assert step.game.table.key() == key and step.frame.decision
    assert all(before[b.description] is b for b in step.move_buttons)


def test_tim_ctr_2_a_game_displays_itself_in_jupyter() -> None:
    """TIM-CTR-2: like python-statemachine's machines, a Game shows itself in IPython: who decides,
    and the live diagram; the engine alone draws nothing (drawing is at the edge, fsm.render)."""
    from IPython.core.interactiveshell import InteractiveShell

    import fsm
    from fsm.scenarios.playing import load

    shell = InteractiveShell.instance()
    fsm.show_games_in(shell)
    game, _ = load(FIZZLE)
    game.apply("A: activate 岩砕き of 岩の巨人 on 水の精")
    shown, _meta = shell.display_formatter.format(game)
    assert "B to decide" in shown["text/html"] and "<svg" in shown["text/html"]
    assert "#1 【行動】 岩砕き by 岩の巨人" in shown["image/svg+xml"]  # the chain as a stack, drawn with the rest
    assert "B to decide" in game._repr_html_() and "<svg" not in game._repr_html_()


def test_act4_a_misspelt_move_word_gets_did_you_mean() -> None:
    """ACT-4: typing `actvate` is a typo, not a rule question: the widget suggests `activate` and changes nothing."""
    step = StepThrough.from_scenario(FIZZLE)
    key = step.game.table.key()
    said = step.try_move("A: actvate 岩砕き of 岩の巨人 on 水の精")
    assert "did you mean 'activate'?" in said
    assert step.game.table.key() == key
