"""The game flow and the counter chain decide (issue 12): proof by taking a part away on purpose.

* FLOW-SPD: the speed roll is the ``speed`` state's own entry.  The whole-battle scenario plays on
  the real machine; with that one entry removed from the flow's listener it no longer plays.
* FLOW-END: the end of a battle is the flow's guard ``battle_over``: without it the battle goes on.
* TIM-CTR-2: priority is kept once, as the counter chain's state.  The table has no priority field,
  and setting the chain's state alone hands the decision to the other player.
* FLOW-FORM: who acts in a step is read from one table next to the flow's states (``ACTS``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make, play

from fsm.machines import battle
from fsm.machines.chain import priority
from fsm.machines.steps import BattleSteps
from fsm.scenarios.playing import play as play_scenario
from fsm.table.model import Table

REPO = Path(__file__).resolve().parents[1]
WHOLE_BATTLE = REPO / "scenarios" / "whole_battle.yaml"


def test_flow_spd_the_speed_roll_is_the_speed_states_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """FLOW-SPD, TIM-SPD: entering speed determination rolls the dice and puts the result on the
    chain.  Nothing else does: without the state's entry the scenario stops at the speed step."""
    real = play_scenario(WHOLE_BATTLE)
    assert real.ok, [str(f) for f in real.failures]
    assert any(e.text.startswith("speed dice:") for e in real.game.log)

    monkeypatch.delattr(BattleSteps, "on_enter_speed")  # the flow is built without that entry
    broken = play_scenario(WHOLE_BATTLE)
    assert not broken.ok
    assert not any(e.text.startswith("speed dice:") for e in broken.game.log)
    assert broken.game.flow.at("speed") and broken.game.actor() is None  # nobody can move on


def test_flow_end_the_battle_ends_by_the_flows_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """FLOW-END: the battle ends when one side has no unit left; that is the flow's guard
    ``battle_over``.  With the guard always false the same moves leave the battle going on."""
    units = {"岩の巨人": {"owner": "A", "skills": "土"}, "水の精": {"owner": "B", "skills": "水"}}
    moves = ("A: attack 水の精 with 岩の巨人", "B: pass", "A: pass")
    real = make(units)
    play(real, *moves)
    assert real.flow.at("main_phase") and real.table.geos["荒野"].holder == "A"

    monkeypatch.setattr(BattleSteps, "battle_over", lambda self: False)
    kept = make(units)
    play(kept, *moves)
    assert kept.flow.at("normal_timing") and kept.table.battle is not None


def test_tim_ctr_2_priority_is_not_stored_on_the_table() -> None:
    """TIM-CTR-2: the table keeps the chain's state, not a second copy of who holds priority."""
    assert "priority" not in {f.name for f in dataclasses.fields(Table)}
    g = make({"岩の巨人": {"owner": "A", "skills": "土"}})
    assert not hasattr(g.table, "priority")  # read from the chain machine: fsm.machines.chain.priority


def test_tim_ctr_2_setting_the_chain_state_alone_moves_priority() -> None:
    """TIM-CTR-2: who may counter is read from the counter chain's state: the opponent of the
    newest declarer first, then the declarer's own side; nothing else needs changing."""
    units = {
        "岩の巨人": {
            "owner": "A",
            "skills": "土",
            "abilities": [{"name": "岩砕き", "kind": "action", "target": "none"}],
        },
        "水の精": {"owner": "B", "skills": "水"},
    }
    g = make(units)
    play(g, "A: activate 岩砕き of 岩の巨人")
    assert g.table.chain_state == "priority_opponent" and g.actor() == "B"
    g.table.chain_state = "priority_declarer"
    assert priority(g.table) == "A" and g.actor() == "A" and g.chain.priority == "A"
    g.table.chain_state = "resolving"
    assert priority(g.table) is None


def test_flow_form_who_acts_is_read_from_the_flows_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """FLOW-FORM: the side that sets its formation first is the role ACTS gives the step; changing
    that one entry changes who acts, with nothing else touched."""
    g = make({"岩の巨人": {"owner": "A", "skills": "土"}, "水の精": {"owner": "B", "skills": "水"}}, at="formation")
    first = g.actor()
    assert first is not None and g.flow.at("first_side")
    monkeypatch.setitem(battle.ACTS, "first_side", "formation_second")
    assert g.actor() == g.table.opponent(first)
