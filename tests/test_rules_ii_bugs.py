"""Rules II, the bugs (issue 11, points 1, 3, 4, 5, 6 and 12): corners where the engine did
what the rules page says it must not.  Each test names its clause and failed on e9c8077."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import make, play, refused

from fsm.cli import main
from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.scenarios.playing import load
from fsm.spec.effects import EFFECTS, one_off


def refused_on_load(path: Path, text: str, line: int, clause: str) -> BadInput:
    """Write a scenario; loading it is BadInput at ``path:line`` citing ``clause``, and `fsm run` exits 2."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as info:
        load(path)
    assert f"{path}:{line}" in str(info.value) and clause in info.value.message, str(info.value)
    assert main(["run", str(path)]) == 2
    return info.value


# ---------------------------------------------------------------- MAR-1: the next main phase
SCOUT = {
    "斥候": {"owner": "A", "geo": "本陣", "abilities": [{"name": "偵察", "kind": "march", "effect": "exhaust"}]},
    "見張り": {"owner": "B", "skills": "風", "geo": "荒野"},
}


def test_mar_1_march_usable_again_in_the_owners_next_main_phase() -> None:
    """MAR-1: 進軍未完了 again in the owner's next main phase, so its 【進軍】 may be declared again."""
    g = make(SCOUT, at="main_phase")
    play(g, "A: activate 偵察 of 斥候 on 見張り")
    refused(g, "A: activate 偵察 of 斥候 on 見張り", "MAR-1")
    play(g, "A: pass", "B: pass")
    assert g.why_not("A: activate 偵察 of 斥候 on 見張り").legal
    play(g, "A: activate 偵察 of 斥候 on 見張り")
    assert [o.result for o in g.table.outcomes if o.source == "偵察"] == ["resolved", "resolved"]


# ---------------------------------------------------------------- EQ-1: an equip whose skill is gone
WARRIOR = {"戦士": {"owner": "A", "skills": "土 火"}, "水の精": {"owner": "B", "skills": "水"}}
EQUIP_CARDS = {
    "鉄の剣": {"owner": "A", "type": "equip", "condition": "土", "zone": "equipped", "equipped_to": "戦士"},
    "妨害": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "strip 土"},
    "火炎": {"owner": "A", "condition": "火", "timing": "通常", "effect": "nothing"},
    "石つぶて": {"owner": "A", "condition": "土", "timing": "通常", "effect": "exhaust"},
}


def _stripped(choice: str) -> Game:
    """A answers nothing while B's counter strips the 土 鉄の剣 holds; back in A's normal timing."""
    g = make(WARRIOR, EQUIP_CARDS, variants={"equip_without_skill": choice})
    refused(g, "A: use 石つぶて by 戦士 on 水の精", "EQ-1")  # the equip holds the only 土
    play(g, "A: use 火炎 by 戦士 on 水の精", "B: use 妨害 by 水の精 on 戦士", "A: pass", "B: pass")
    return g


@pytest.mark.parametrize("choice", ["stays", "discarded"])
def test_eq_1_other_skills_stay_free_when_the_held_skill_is_stripped(choice: str) -> None:
    """EQ-1: an equip holds only its condition's skills; with its 土 stripped, the 火 was never held,
    so 火炎 (condition 火) still resolves at its recheck, whatever becomes of the equip."""
    g = _stripped(choice)
    fire = next(o for o in g.table.outcomes if o.source == "火炎")
    assert (fire.result, fire.clause) == ("resolved", "SC-7")


def test_eq_1_equip_without_skill_stays_by_default() -> None:
    """EQ-1 (variant equip_without_skill=stays, the default): the equip stays until discarded."""
    g = make(WARRIOR, EQUIP_CARDS)
    play(g, "A: use 火炎 by 戦士 on 水の精", "B: use 妨害 by 水の精 on 戦士", "A: pass", "B: pass")
    assert g.table.cards["鉄の剣"].zone == "equipped"
    assert g.holdings(g.table.units["戦士"]) == [{}]  # it holds nothing while the 土 is gone


def test_eq_1_equip_without_skill_discarded() -> None:
    """EQ-1 (variant equip_without_skill=discarded): the equip goes to the graveyard once its 土 is gone."""
    g = _stripped("discarded")
    assert g.table.cards["鉄の剣"].zone == "graveyard"
    assert any(e.clause == "EQ-1" and "鉄の剣 no longer holds" in e.text for e in g.log)


@pytest.mark.parametrize(("variants", "zone"), [({}, "equipped"), ({"equip_without_skill": "discarded"}, "graveyard")])
def test_eq_1_a_lapsed_battle_grant_does_not_lock_the_units_other_skills(variants: dict[str, str], zone: str) -> None:
    """EQ-1, TIM-BTL: an equip paid with a [戦闘] grant; when the grant lapses at battle end the
    equip holds nothing (and stays by default, or is discarded: variant equip_without_skill), and in the main
    phase the unit's own 土 pays an [ＭＦ] card."""
    units = {
        "戦士": {
            "owner": "A",
            "skills": "土",
            "abilities": [{"name": "闘志", "kind": "auto", "timing": "戦闘", "effect": "grant 火"}],
        },
        "水の精": {"owner": "B", "skills": "水"},
    }
    cards = {
        "炎の剣": {"owner": "A", "type": "equip", "condition": "火"},
        "地鳴り": {"owner": "A", "condition": "土", "timing": "ＭＦ", "effect": "nothing", "target": "none"},
    }
    g = make(units, cards, at="quick_summon", variants=variants)
    play(g, "A: pass", "A: equip 炎の剣 on 戦士")
    for _ in range(40):  # let both sides pass until the battle is over
        if g.flow.at("main_phase"):
            break
        g.apply("pass")
    assert g.flow.at("main_phase") and g.table.cards["炎の剣"].zone == zone
    assert g.why_not("A: use 地鳴り by 戦士").legal


# ---------------------------------------------------------------- AUTO-4: continuous effects
def _continuous(effect: str, **extra: Any) -> dict[str, Any]:
    return {"name": "呪縛", "kind": "auto", "effect": effect, **extra}


def test_auto_4_continuous_strip_takes_the_skill_away() -> None:
    """AUTO-4: a 【自動】 without [戦闘] carrying `strip 土` keeps its unit without 土: it cannot pay with it."""
    units = {
        "呪術師": {"owner": "A", "skills": "土 風", "abilities": [_continuous("strip 土")]},
        "水の精": {"owner": "B", "skills": "水"},
    }
    cards = {"石つぶて": {"owner": "A", "condition": "土", "timing": "通常", "effect": "exhaust"}}
    g = make(units, cards)
    assert g.available(g.table.units["呪術師"]) == {"風": 1}
    refused(g, "A: use 石つぶて by 呪術師 on 水の精", "SC-1")


def test_auto_4_continuous_exhaust_keeps_the_unit_acted() -> None:
    """AUTO-4: a continuous `exhaust` means the unit counts as 行動完了: no attack, no 【行動】."""
    units = {
        "鎧武者": {
            "owner": "A",
            "abilities": [_continuous("exhaust"), {"name": "斬撃", "kind": "action", "effect": "destroy"}],
        },
        "水の精": {"owner": "B", "skills": "水"},
    }
    g = make(units)
    refused(g, "A: attack 水の精 with 鎧武者", "FLOW-NORMAL")
    refused(g, "A: activate 斬撃 of 鎧武者 on 水の精", "ACT-1")
    assert g.acted(g.table.units["鎧武者"])


def test_auto_4_sync_continuous_strip_only_while_the_partner_is_there() -> None:
    """AUTO-4, SYNC-1: a 【同調】 continuous strip is in force only while its partner is in the party."""
    units = {
        "呪術師": {"owner": "A", "skills": "土", "party": "p", "abilities": [_continuous("strip 土", sync="相棒")]},
        "相棒": {"owner": "A", "skills": "水", "party": "p"},
        "水の精": {"owner": "B", "skills": "水"},
    }
    cards = {"引き離し": {"owner": "A", "condition": "水", "timing": "通常", "effect": "leave_party"}}
    g = make(units, cards)
    caster = g.table.units["呪術師"]
    assert g.available(caster) == {}
    play(g, "A: use 引き離し by 相棒 on 相棒", "B: pass", "A: pass")  # the partner leaves the party
    assert g.available(caster) == {"土": 1}


@pytest.mark.parametrize("op", [op for op in EFFECTS if one_off(op)])
def test_auto_4_one_off_effect_on_a_continuous_auto_is_refused_on_load(tmp_path: Path, op: str) -> None:
    """AUTO-4: an effect that happens once cannot be always in effect: the file is refused (exit 2)
    with its file and line; with [戦闘] the same effect is accepted (it happens once, at battle start)."""
    path = tmp_path / "one_off.yaml"
    text = f"units:\n  魔像:\n    owner: A\n    abilities:\n      - {{name: 暴走, kind: auto, effect: {op}}}\n"
    assert op in refused_on_load(path, text, 5, "AUTO-4").message
    path.write_text(path.read_text(encoding="utf-8").replace("kind: auto,", "kind: auto, timing: 戦闘,"), "utf-8")
    load(path)


# ---------------------------------------------------------------- AUTO-2: what a [戦闘] auto hits
@pytest.mark.parametrize("target", ["unit", "player", "geo", "equip"])
def test_auto_2_battle_auto_with_a_target_is_refused_on_load(tmp_path: Path, target: str) -> None:
    """AUTO-1, AUTO-2: nobody declares a [戦闘] auto, so nobody names a target for it; a file that
    gives it one (which used to hit its own unit instead) is refused at the target's line."""
    lines = ["units:", "  魔像:", "    owner: A", "    abilities:", "      - name: 暴走", "        kind: auto"]
    lines += ["        timing: 戦闘", "        effect: destroy", f"        target: {target}", ""]
    refused_on_load(tmp_path / "auto_target.yaml", "\n".join(lines), 9, "AUTO-1")


# ---------------------------------------------------------------- FLOW-NORMAL: the variant covers attacks
@pytest.mark.parametrize("acts", [True, False])
def test_flow_normal_attack_makes_its_attacker_acted_only_if_the_variant_says_so(acts: bool) -> None:
    """FLOW-NORMAL (variant normal_action_acts): an attack makes its attacker 行動完了, or with the
    variant off leaves it 行動未完了, as the variant's documentation says."""
    units = {"戦士": {"owner": "A", "skills": "火"}, "水の精": {"owner": "B"}, "岩": {"owner": "B"}}
    g = make(units, variants={"normal_action_acts": acts})
    play(g, "A: attack 水の精 with 戦士", "B: pass", "A: pass")
    assert g.table.units["水の精"].destroyed
    assert g.table.units["戦士"].acted is acts


# ---------------------------------------------------------------- TIM-BTL: a card with [戦闘]
@pytest.mark.parametrize("extra", ["", ", quick_summon: true"])
@pytest.mark.parametrize("timing", ["戦闘", "通常/戦闘"])
def test_tim_btl_skill_card_with_battle_timing_is_refused_on_load(tmp_path: Path, timing: str, extra: str) -> None:
    """TIM-BTL: [戦闘] is a 【自動】's, which takes effect by itself; a skill card (or a quick-summon
    card) is declared at one of its timings (SC-4), so one with [戦闘] is refused at its line."""
    card = f"  闘魂: {{owner: A, condition: 火, timing: {timing}{extra}}}\n"
    refused_on_load(
        tmp_path / "battle_card.yaml", "units:\n  戦士: {owner: A, skills: 火}\ncards:\n" + card, 4, "TIM-BTL"
    )
