"""What the step-through's kernel sends a page once, whatever its number of step-throughs
(fsm/notebook/step_view.py, step_frames.py): Graphviz in WebAssembly as a binary buffer, and
every drawing the game may show, laid out by the page before a click needs it (issue 23)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fsm.notebook.step_through import StepThrough
from fsm.notebook.step_view import STATIC

REPO = Path(__file__).resolve().parents[1]
#: Scenarios of the notebooks: a counter chain (TIM-CTR-3), a whole battle (FLOW-*), a 【同調】 (SYNC-1).
SCENARIOS = [REPO / "scenarios" / f"{name}.yaml" for name in ("nb_counter_chain", "nb_whole_battle", "nb_sync_fizzle")]


def answer(step: StepThrough, content: dict[str, Any]) -> list[tuple[dict[str, Any], list[bytes] | None]]:
    """The kernel's answers to one request of the page, with their binary buffers."""
    sent: list[tuple[dict[str, Any], list[bytes] | None]] = []
    original = step.widget.send
    step.widget.send = lambda content, buffers=None: sent.append((content, buffers))
    try:
        step._message(step.widget, content, [])
    finally:
        step.widget.send = original
    return sent


def used(step: StepThrough) -> set[str]:
    return {v["key"] for f in step.data for v in f["views"].values()}


def test_each_widget_carries_the_small_module_and_graphviz_comes_once_as_a_buffer() -> None:
    """A widget's ES module has no Graphviz in it; asked, the kernel sends viz.js as one binary buffer."""
    step = StepThrough.from_scenario(SCENARIOS[0])
    viz = (STATIC / "viz.js").read_bytes()
    assert len(step.widget._esm.encode("utf-8")) * 20 < len(viz)  # the 1.5 MB part is not per widget
    [(content, buffers)] = answer(step, {"type": "viz"})
    assert content == {"type": "viz"} and buffers == [viz]


def test_tim_ctr_3_drawings_ahead_leave_out_what_the_page_has() -> None:
    """TIM-CTR-3: the chain scenario's page already has its frames' drawings; ahead sends only the others."""
    step = StepThrough.from_scenario(SCENARIOS[0])
    [(everything, _)] = answer(step, {"type": "ahead", "have": []})
    have = sorted(used(step))
    [(rest, _)] = answer(step, {"type": "ahead", "have": have})
    assert set(have) <= set(everything["drawings"])
    assert set(rest["drawings"]) == set(everything["drawings"]) - set(have)
    assert all(d["dot"].startswith("digraph") for d in rest["drawings"].values())


@settings(max_examples=12, deadline=None)
@given(scenario=st.sampled_from(SCENARIOS), picks=st.lists(st.integers(min_value=0, max_value=50), max_size=8))
def test_flow_every_drawing_a_game_shows_was_among_those_sent_ahead(scenario: Path, picks: list[int]) -> None:
    """FLOW-*, TIM-CTR-3: whatever legal moves are played, every drawing a frame uses was sent
    ahead at the start, so the page never has to lay one out on a click."""
    step = StepThrough.from_scenario(scenario)
    [(ahead, _)] = answer(step, {"type": "ahead", "have": []})
    for pick in picks:
        legal = step.moves
        if not legal:
            break
        step.play(legal[pick % len(legal)])
        step.play_to_decision()
    assert used(step) <= set(ahead["drawings"])
