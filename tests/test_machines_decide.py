"""Issue 12: the compiled machines decide; the engine only sends what players and the chain do.

Each test removes one part of a real compiled machine on purpose and shows that the game then
plays differently; the same scenario passes with the machine intact.  If the engine worked out
the recheck or the counter window itself, these removals would change nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fsm.machines.procedures import Procedure, procedure_class
from fsm.scenarios.playing import play
from fsm.spec.recheck import RECHECKS
from fsm.spec.ruleset import builtin

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FIZZLE = SCENARIOS / "action_fizzles_after_counter.yaml"  # a 【行動】 fizzles at its recheck (ACT-6)


@pytest.fixture
def action_machine() -> Iterator[type[Procedure]]:
    """The real compiled 【行動】 procedure, as the engine uses it."""
    yield procedure_class(builtin().kinds["action"])


def test_act_6_the_resolve_guards_are_the_recheck(
    action_machine: type[Procedure], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ACT-6: with its recheck guards made always true, the 【行動】 that must fizzle resolves."""
    assert play(FIZZLE).ok
    for key in builtin().kinds["action"].fizzle_if:
        monkeypatch.setattr(action_machine, RECHECKS[key].guard, lambda self: True)
    result = play(FIZZLE)
    assert not result.ok
    assert any("fizzled" in f.message for f in result.failures), [f.message for f in result.failures]


def test_act_5_the_counter_window_is_the_machines_transition(action_machine: type[Procedure]) -> None:
    """ACT-5: without the compiled transition into its counter window, a 【行動】 never waits on the
    chain, so the opponent gets no priority to answer it (the engine does not open windows itself)."""
    transitions = action_machine.declared.transitions.transitions
    window = next(t for t in transitions if t.target.id == "counter_window")
    assert play(FIZZLE).ok
    transitions.remove(window)
    try:
        result = play(FIZZLE)
    finally:
        transitions.append(window)
    assert not result.ok
    assert play(FIZZLE).ok


def test_tim_ctr_3_the_engine_sends_procedures_only_what_players_and_the_chain_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TIM-CTR-3: the engine sends a procedure only its declaration (or activation) and its turn on
    the chain; the window, the recheck and resolve-or-fizzle follow from the machine itself."""
    sent: list[str] = []
    real = Procedure.step

    def spy(self: Procedure, item: object, event: str) -> None:
        sent.append(event)
        real(self, item, event)  # type: ignore[arg-type]

    monkeypatch.setattr(Procedure, "step", spy)
    for path in sorted(SCENARIOS.glob("*.yaml")):
        play(path)
    assert set(sent) == {"declare", "activate", "close_window"}, set(sent)
