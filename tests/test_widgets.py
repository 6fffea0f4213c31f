"""The step-through's kernel side (fsm/notebook/step_through.py), driven headless: through its Python API and
the requests its front end sends (``_message``), checking the frames it sends (``shown``, ``data``)."""

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


def click(step: StepThrough, label: str) -> None:
    """A move button's click, as the page sends it (with the decision point it stands at)."""
    found = [m for m in step.shown.get("moves", []) if m["text"] == label]
    assert found, f"no button {label!r}; buttons: {step.moves}"
    request(step, "play", move=found[0]["move"])


def request(step: StepThrough, kind: str, **extra: str) -> list[dict]:
    """A request of the page; returns the messages the kernel sends back."""
    sent: list[dict] = []
    original = step.widget.send
    step.widget.send = sent.append  # type: ignore[method-assign]
    try:
        step._message(step.widget, {"type": kind, "point": step.frame.move, **extra}, [])
    finally:
        step.widget.send = original  # type: ignore[method-assign]
    return sent


def diagram(step: StepThrough) -> dict:
    """What the page draws: each machine's highlight on its drawing."""
    return step.shown["views"]


def test_tim_ctr_2_header_names_the_priority_holder_and_the_buttons_are_the_legal_moves() -> None:
    """TIM-CTR-2: after A declares, the header says B has priority, and every button is one of B's legal moves."""
    step = StepThrough.from_scenario(FIZZLE)
    assert "A to decide" in text(step.shown["header"])
    click(step, "A: activate 岩砕き of 岩の巨人 on 水の精")
    assert "B has priority (反撃の優先権)" in text(step.shown["header"])
    assert step.moves == [str(m) for m in step.game.legal_moves()]
    assert all(m["seat"] == 1 for m in step.shown["moves"])  # B's seat, coloured by front/step.css
    css = (REPO / "fsm" / "notebook" / "front" / "step.css").read_text()
    assert f".fsm-move-1 {{ background: {PLAYER_COLOURS[1]}" in css


def test_act4_a_click_plays_the_move_redraws_the_diagram_and_undo_takes_it_back() -> None:
    """ACT-4/ACT-5: clicking a move logs the declaration and opens the window in the diagram; undo restores all."""
    step = StepThrough.from_scenario(FIZZLE)
    key, length, before = step.game.table.key(), len(step.game.log), diagram(step)
    assert before["flow"]["active"] and "procedure" not in before
    click(step, "A: activate 岩砕き of 岩の巨人 on 水の精")
    log = "".join(line for f in step.data for line in f["log"])
    assert "ACT-4" in log and "ACT-5" in log
    assert diagram(step)["procedure"]["active"] == ["counter_window"]
    assert "#1" in text(step.shown["chain"]) and "岩砕き" in text(step.shown["chain"])
    step.undo()
    assert step.game.table.key() == key and len(step.game.log) == length
    assert diagram(step) == before and step.frame.move == 0


def test_tim_ctr_2_why_not_explains_a_refused_move_with_its_clause_and_changes_nothing() -> None:
    """TIM-CTR-2: typing A's pass while B has priority is refused with the clause; the table is untouched."""
    step = StepThrough.from_scenario(FIZZLE, upto=1)
    key, length = step.game.table.key(), len(step.game.log)
    answer = request(step, "try", move="A: pass")
    assert answer[-1]["type"] == "why" and "TIM-CTR-2" in answer[-1]["html"] and "refused" in answer[-1]["html"]
    request(step, "play", move="A: pass")
    assert "TIM-CTR-2" in step.why_html
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
    assert step.why_html and "Traceback" not in step.why_html
    assert step.game.table.key() == key


def test_act6_next_in_script_plays_the_scenario_through_to_the_fizzle() -> None:
    """ACT-6: the script's moves, with its expected refusal shown on the way, end in 岩砕き fizzling."""
    step = StepThrough.from_scenario(FIZZLE)
    seen_refusal = False
    while not step.script.done:
        request(step, "script")
        seen_refusal = seen_refusal or "TIM-CTR-2" in step.why_html
    assert seen_refusal
    step.play_to_decision()  # the last pass resolves the chain: it stopped at its first link step
    assert [(o.source, o.result) for o in step.game.table.outcomes] == [("足止め", "resolved"), ("岩砕き", "fizzled")]
    assert "ACT-6" in "".join(line for f in step.data for line in f["log"])  # the fizzle line cites the recheck
    table = request(step, "table")[-1]  # the folded units-and-cards panel lists the outcomes
    assert table["type"] == "table" and "ACT-6" in table["html"] and "fizzled" in table["html"]
    assert step.shown["script"] == [len(step.script.steps), False] and not step.off_script


def test_leaving_the_script_is_shown_and_undo_returns_to_it() -> None:
    step = StepThrough.from_scenario(FIZZLE)
    click(step, "A: pass")
    assert step.off_script and step.shown["script"][1] is True  # the page shows "you left the script"
    step.undo()
    assert not step.off_script and step.shown["script"] == [0, False]
    assert any(m["next"] for m in step.shown["moves"])


def test_tim_ctr_3_variant_counters_between_resolutions_reopens_the_window() -> None:
    """TIM-CTR-3 (variant counters_between_resolutions): after the top item resolves, priority is asked again."""
    default = StepThrough.from_scenario(CHAIN, upto=5)
    variant = StepThrough.from_scenario(CHAIN, upto=5, variants={"counters_between_resolutions": True})
    for step in (default, variant):
        step.play("A: pass")
        step.play_to_decision()
    assert default.game.table.chain == [] and "B to decide" in text(default.shown["header"])
    assert len(variant.game.table.chain) == 2
    assert "A has priority" in text(variant.shown["header"])
    assert "counters_between_resolutions" in variant.shown["header"]


def test_reset_goes_back_to_the_scenario_start() -> None:
    step = StepThrough.from_scenario(FIZZLE, upto=3)
    key = step.game.table.key()
    step.play("A: pass")
    step.play("B: pass")
    step.reset()
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
    assert step.widget.script == []  # the page hides the script's button and panel
    assert step.moves == [str(m) for m in game.legal_moves()]
    assert "refused" in request(step, "try", move="B: pass")[-1]["html"]


def test_tim_ctr_3_a_resolution_is_replayed_link_by_link_newest_first() -> None:
    """TIM-CTR-3, SC-6: after the last pass, **step** shows #3 resolve, #2 fizzle (its failed condition marked in
    the log and on its procedure, the fizzle edge drawn as just taken), then #1 resolve; no move in between."""
    step = StepThrough.from_scenario(CHAIN, upto=5)
    first = len(step.frames)
    sent = request(step, "play", move="A: pass")
    assert [m["type"] for m in sent] == ["game"] and len(sent[0]["frames"]) == len(step.frames) - sent[0]["from"]
    assert "replaying" in text(step.shown["header"]) and step.moves == []
    assert "反撃の優先権" not in text(step.shown["header"])
    outcomes = []
    for i in range(step.cursor, len(step.frames)):  # the page steps through these with no message
        step.cursor = i
        label = step.frame.label
        if "発動" in label or "不発" in label:
            outcomes.append(label.split(" · ")[-1])
        if "#2 不発" in label:
            shown = step.shown
            assert "fsm-failed" in "".join(shown["log"]) and "condition can no longer be met" in "".join(shown["log"])
            procedure = shown["views"]["procedure"]
            assert procedure["taken"][1] == "fizzle" and False in procedure["checked"].values()
            assert "✘" in text(shown["chain"])
    assert first < len(step.frames)
    assert outcomes == ["#3 発動 resolves", "#2 不発 fizzles", "#1 発動 resolves"]
    assert step.frame.decision and "B to decide" in text(step.shown["header"])
    assert step.moves == [str(m) for m in step.game.legal_moves()]


def test_play_to_the_decision_skips_the_replay_and_the_timeline_goes_back_to_any_point() -> None:
    """TIM-CTR-3: play to the decision lands where B decides; the timeline jumps back to the start and forward
    again, restoring each point's table; a move played from an earlier point starts a new future."""
    step = StepThrough.from_scenario(CHAIN, upto=5)
    start_key = step.game.table.key()
    step.play("A: pass")
    step.play_to_decision()
    end_key, end_log = step.game.table.key(), len(step.game.log)
    assert step.game.table.chain == []
    step.goto(0)
    assert step.game.table.key() == start_key and step.frame.move == 0
    step.goto(len(step.frames) - 1)
    assert step.game.table.key() == end_key and len(step.game.log) == end_log
    step.goto(0)  # the page went back on its timeline; a move from there starts a new future
    request(step, "play", move="A: pass")
    assert len(step.history) == 1 and step.game.table.chain == []
    assert len(step.data) == len(step.frames)


def test_undo_takes_back_the_move_being_replayed_and_a_drawing_is_sent_once() -> None:
    """Undo during a replay takes the whole move back; each machine's drawing goes to the page once only."""
    step = StepThrough.from_scenario(CHAIN, upto=5)
    before = step.moves
    key = step.game.table.key()
    sent = request(step, "play", move="A: pass")
    step.undo()
    assert step.game.table.key() == key and step.frame.decision and step.moves == before
    again = request(step, "play", move="A: pass")
    assert sent[0]["drawings"] and not again[0]["drawings"]  # the page has them all already
    hello = request(step, "hello")[0]
    used = {v["key"] for f in hello["frames"] for v in f["views"].values()}
    assert set(hello["drawings"]) == used and hello["from"] == 0


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


def test_act6_the_step_through_runs_with_no_dot_on_the_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ACT-6 to the fizzle with PATH stripped: the kernel sends DOT and the page lays it out, so no `dot` runs."""
    import shutil

    from fsm.render import drawing

    monkeypatch.setenv("PATH", str(tmp_path))
    assert shutil.which("dot") is None
    drawing._drawing.cache_clear()  # nothing drawn earlier in this process may hide a `dot` run
    step = StepThrough.from_scenario(FIZZLE)
    while not step.script.done:
        request(step, "script")
    step.play_to_decision()
    assert ("岩砕き", "fizzled") in [(o.source, o.result) for o in step.game.table.outcomes]
    hello = request(step, "hello")[0]
    assert hello["drawings"] and all(d["dot"].startswith("digraph") for d in hello["drawings"].values())
