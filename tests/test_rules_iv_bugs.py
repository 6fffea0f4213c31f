"""Rules IV, the bugs (issue 29, point 1): corners where the engine did what the rules page says
it must not.  Each test names its clause and failed on 75e2f96 (main before this branch)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import make, pass_until, play
from test_rules_ii_bugs import refused_on_load

from fsm.engine.game import Game

# ---------------------------------------------------------------- TIM-BTL: [戦闘] changes lapse
TWINS: dict[str, Any] = {
    "双子の兄": {
        "owner": "A",
        "skills": "風",
        "geo": "本陣",
        "party": "双子",
        "abilities": [{"name": "挟撃", "kind": "march", "sync": "双子の弟", "effect": "exhaust"}],
    },
    "双子の弟": {
        "owner": "A",
        "skills": "風",
        "geo": "本陣",
        "party": "双子",
        "abilities": [{"name": "孤高", "kind": "auto", "timing": "戦闘", "effect": "leave_party"}],
    },
    "見張り": {"owner": "B", "skills": "水"},
}


def _after_battle(units: dict[str, Any], **kw: Any) -> Game:
    """A advances 双子の弟 into 荒野; everybody passes until the battle is over."""
    g = make(units, at="main_phase", **kw)
    play(g, "A: advance 双子の弟 to 荒野")
    pass_until(g, lambda g: g.flow.at("main_phase"))
    return g


def test_tim_btl_a_battle_auto_leaving_the_party_is_undone_at_battle_end() -> None:
    """TIM-BTL: a [戦闘] effect is in force from the battle's start to its end; 孤高 takes 双子の弟
    out of its party for the battle only, so back in the main phase 双子の兄's 【同調】【進軍】 may be
    declared (SYNC-1: the partner is in its party again)."""
    g = _after_battle(TWINS)
    brother = g.table.units["双子の弟"]
    assert brother.party == "双子"
    assert any(e.clause == "TIM-BTL" and "双子の弟" in e.text and "双子" in e.text for e in g.log)
    assert g.why_not("A: activate 挟撃 of 双子の兄 on 見張り").legal


def test_tim_btl_a_battle_auto_exhausting_its_unit_is_undone_at_battle_end() -> None:
    """TIM-BTL: a [戦闘] exhaust lapses with the battle (variant reset_acted_at_battle_end off, so
    nothing else makes the unit 行動未完了 again)."""
    units = {
        "疲れ兵": {
            "owner": "A",
            "skills": "風",
            "geo": "本陣",
            "abilities": [{"name": "疲労", "kind": "auto", "timing": "戦闘", "effect": "exhaust"}],
        },
        "見張り": {"owner": "B", "skills": "水"},
    }
    g = make(units, at="main_phase", variants={"reset_acted_at_battle_end": False})
    play(g, "A: advance 疲れ兵 to 荒野")
    assert g.table.units["疲れ兵"].acted  # in force during the battle
    pass_until(g, lambda g: g.flow.at("main_phase"))
    assert not g.table.units["疲れ兵"].acted


# ---------------------------------------------------------------- TIM-BTL: [戦闘] is a 【自動】's
@pytest.mark.parametrize(
    ("ability", "line"),
    [
        ("{name: 斬, kind: action, timing: 戦闘, effect: exhaust}", 5),
        ("{name: 斬, kind: action, timing: 戦闘/反撃, effect: exhaust}", 5),
        ("{name: 斬, kind: cost, battle: true, cost: 火, effect: exhaust}", 5),
        ("{name: 斬, kind: auto, timing: 戦闘/反撃, effect: grant 火}", 5),
    ],
)
def test_tim_btl_only_an_auto_takes_the_battle_timing(tmp_path: Path, ability: str, line: int) -> None:
    """TIM-BTL: [戦闘] is how a 【自動】 takes effect by itself, whatever the players want; a declared
    kind under [戦闘], or [戦闘] mixed with a declared timing, is refused at load, not read as [通常]."""
    text = f"""units:
  a:
    owner: A
    abilities:
      - {ability}
"""
    refused_on_load(tmp_path / "x.yaml", text, line, "TIM-BTL")
