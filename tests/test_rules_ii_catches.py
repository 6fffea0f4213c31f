"""Rule changes the suite once let through (issue 11, "changes the suite does not catch today").

Each of these rules was broken on purpose in the engine, one at a time, and every other test
still passed.  Each test below names its clause and fails with that change made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import at_own_normal_timing, make, outcome, pass_until, play, refused, texts

from fsm.engine.game import Game
from fsm.scenarios.building import build_game
from fsm.spec.ruleset import builtin

FOES = {"水の精": {"owner": "B", "skills": "水"}, "水の番人": {"owner": "B", "skills": "水"}}
EARTH_SPEAR = {"owner": "A", "condition": "土", "timing": "通常", "effect": "destroy"}
GEOS = {"荒野": {"holder": "B", "limit": 10}, "本陣": {"holder": "A"}, "森": {"holder": "B"}}


def chain_done(game: Game) -> bool:
    """``pass_until`` target: every counter window closed and its chain resolved."""
    return not game.table.chain


def play_out(game: Game, *moves: str) -> None:
    """Declare and answer with ``moves``, then let both players pass until the chain has resolved."""
    play(game, *moves)
    pass_until(game, chain_done)


# ---------------------------------------------------------------- COST-3 with SC-4 and EQ-1


def test_cost_3_a_pending_skill_cards_held_skill_cannot_pay_a_cost() -> None:
    """COST-3 with SC-4: a 代償 is paid at declaration from skills nobody holds; the 土 a declared,
    unresolved skill card holds for its resolution is not free to pay it."""
    units = {
        "岩の巨人": {
            "owner": "A",
            "skills": "土",
            "abilities": [{"name": "土の盾", "kind": "cost", "timing": "反撃", "cost": "土", "target": "none"}],
        },
        **FOES,
    }
    g = make(units, {"土の槍": EARTH_SPEAR})
    play(g, "A: use 土の槍 by 岩の巨人 on 水の精", "B: pass")
    err = refused(g, "A: activate 土の盾 of 岩の巨人", "COST-3")
    assert "土の槍" in err.message


def test_eq_1_an_equips_held_skill_cannot_pay_a_cost() -> None:
    """EQ-1 with COST-3: the 土 an equip holds while equipped cannot pay a 代償, and the refusal
    cites EQ-1, the rule that holds it (as for a skill card); a unit with a second 土 pays with that."""
    strike = {"name": "地響き", "kind": "cost", "cost": "土", "target": "none", "effect": "grant 火"}
    units = {
        "岩の巨人": {"owner": "A", "skills": "土", "abilities": [strike]},
        "土の兵": {"owner": "A", "skills": "土 土", "abilities": [strike]},
        **FOES,
    }
    cards = {
        "鉄の剣": {"owner": "A", "type": "equip", "condition": "土", "zone": "equipped", "equipped_to": "岩の巨人"},
        "石の盾": {"owner": "A", "type": "equip", "condition": "土", "zone": "equipped", "equipped_to": "土の兵"},
    }
    g = make(units, cards, battle={"turn": "A"})
    err = refused(g, "A: activate 地響き of 岩の巨人", "EQ-1")
    assert "鉄の剣" in err.message
    assert g.why_not("A: activate 地響き of 土の兵").legal


# ---------------------------------------------------------------- SYNC-1, AUTO-4


def twins(partner: dict[str, Any]) -> dict[str, Any]:
    return {
        "双子の兄": {
            "owner": "A",
            "skills": "風",
            "party": "双子",
            "abilities": [{"name": "挟撃", "kind": "action", "sync": "双子の弟", "effect": "destroy"}],
        },
        "双子の弟": {"owner": "A", "skills": "風", "party": "双子", **partner},
        **FOES,
    }


def test_sync_1_a_partner_off_the_field_does_not_count_at_declaration() -> None:
    """SYNC-1: the partner must be in the party on the field; one in the graveyard is no partner."""
    g = make(twins({"zone": "graveyard"}), battle={"turn": "A"})
    refused(g, "A: activate 挟撃 of 双子の兄 on 水の精", "SYNC-1")
    assert make(twins({}), battle={"turn": "A"}).why_not("A: activate 挟撃 of 双子の兄 on 水の精").legal


def test_sync_1_a_partner_destroyed_before_the_recheck_makes_it_fizzle() -> None:
    """SYNC-1: the partner is checked again at activation; destroyed (撃破) by a counter, it no
    longer counts, so the 【同調】 ability fizzles."""
    cards = {"水撃": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "destroy"}}
    g = make(twins({}), cards, battle={"turn": "A"})
    play_out(g, "A: activate 挟撃 of 双子の兄 on 水の精", "B: use 水撃 by 水の番人 on 双子の弟")
    assert g.table.units["双子の弟"].destroyed
    assert outcome(g, "挟撃") == ("fizzled", "SYNC-1")
    assert g.table.units["水の精"].on_field


def flame_spirit(partner: bool) -> Game:
    units: dict[str, Any] = {
        "火の精霊": {
            "owner": "A",
            "skills": "無",
            "geo": "本陣",
            "party": "炎",
            "abilities": [{"name": "炎の絆", "kind": "auto", "sync": "火の番", "effect": "grant 火"}],
        },
        "見張り": {"owner": "B", "skills": "風", "geo": "荒野"},
    }
    if partner:
        units["火の番"] = {"owner": "A", "skills": "無", "geo": "本陣", "party": "炎"}
    cards = {"火の粉": {"owner": "A", "condition": "火", "timing": "ＭＦ", "effect": "exhaust"}}
    return make(units, cards, at="main_phase")


def test_sync_1_auto_4_a_continuous_sync_auto_needs_its_partner() -> None:
    """SYNC-1 with AUTO-4: a continuous 【同調】【自動】 is in effect only while its partner is in the
    party; without one, its 火 does not exist and cannot meet a card's condition (SC-1)."""
    refused(flame_spirit(partner=False), "A: use 火の粉 by 火の精霊 on 見張り", "SC-1")
    assert flame_spirit(partner=True).why_not("A: use 火の粉 by 火の精霊 on 見張り").legal


# ---------------------------------------------------------------- battle flow: FLOW-END, FLOW-ATK, FLOW-FORM, FLOW-ADV

TWO_EACH = {"岩の巨人": {"owner": "A", "skills": "土"}, "土の兵": {"owner": "A", "skills": "土"}, **FOES}


def test_flow_end_only_passes_in_a_row_end_the_battle() -> None:
    """FLOW-END: a battle ends when both players pass their normal timings one after the other;
    a pass, then an attack, then a pass are not two passes in a row."""
    g = make(TWO_EACH, battle={"turn": "A"})
    play(g, "A: pass", "B: attack 岩の巨人 with 水の精")
    pass_until(g, at_own_normal_timing("A"))
    play(g, "A: pass")
    assert g.table.battle is not None and g.actor() == "B"
    play(g, "B: pass")  # now two in a row
    assert g.table.battle is None
    assert any(e.clause == "FLOW-END" and "both players passed" in e.text for e in g.log)


def test_flow_atk_an_enemy_outside_the_battle_cannot_be_attacked() -> None:
    """FLOW-ATK: the attack targets an enemy unit in this battle, not one at another geo."""
    units = {**TWO_EACH, "森の番人": {"owner": "B", "skills": "無", "geo": "森"}}
    g = make(units, geos=GEOS, battle={"turn": "A"})
    refused(g, "A: attack 森の番人 with 岩の巨人", "FLOW-ATK")
    assert "A: attack 水の精 with 岩の巨人" in texts(g)


def test_flow_atk_an_attack_whose_target_left_the_battle_fizzles() -> None:
    """FLOW-ATK: a counter returns the target to its owner's hand before the attack resolves, so
    at the recheck the target no longer takes part in the battle and the attack fizzles."""
    cards = {"撤退": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "bounce"}}
    g = make(TWO_EACH, cards, battle={"turn": "A"})
    play_out(g, "A: attack 水の精 with 岩の巨人", "B: use 撤退 by 水の精 on 水の精")
    assert outcome(g, "撤退") == ("resolved", "SC-7")
    assert outcome(g, "attack") == ("fizzled", "FLOW-ATK")
    assert g.table.units["水の精"].zone == "hand"


def test_flow_form_a_unit_outside_the_battle_cannot_take_the_front() -> None:
    """FLOW-FORM: a side orders its units in the battle; one at another geo has no place in it."""
    units = {**TWO_EACH, "見張り": {"owner": "A", "skills": "無", "geo": "本陣"}}
    g = make(units, at="formation")
    assert g.actor() == "A"
    refused(g, "A: front 見張り", "FLOW-FORM")
    assert "A: front 土の兵" in texts(g)


def test_flow_adv_advancing_into_ones_own_geo_starts_no_battle() -> None:
    """FLOW-ADV: a battle starts only when a side advances into a geo the OTHER side holds;
    moving into one's own geo is a move, never a battle of A against A."""
    geos = {"本陣": {"holder": "A"}, "拠点": {"holder": "A"}, "荒野": {"holder": "B"}}
    g = make({"岩の巨人": {"owner": "A", "skills": "土", "geo": "本陣"}, **FOES}, at="main_phase", geos=geos)
    play(g, "A: advance 岩の巨人 to 拠点")
    assert g.table.battle is None and g.flow.at("main_phase")
    assert g.table.units["岩の巨人"].geo == "拠点" and g.table.geos["拠点"].holder == "A"


# ---------------------------------------------------------------- quick-summon timing: FLOW-QS, QS-1, EQ-1

QS_UNITS = {
    "岩の巨人": {"owner": "A", "skills": "土"},
    "水の精": {"owner": "B", "skills": "水"},
    "風の子": {"owner": "B", "skills": "風", "zone": "hand", "quick_summon": True},
}
QS_CARDS = {"土の槍": EARTH_SPEAR, "鉄の剣": {"owner": "A", "type": "equip", "condition": "土"}}


def test_flow_qs_a_player_cannot_summon_the_opponents_unit() -> None:
    """FLOW-QS: each side quick-summons units from its own hand."""
    g = make(QS_UNITS, QS_CARDS, at="quick_summon")
    refused(g, "A: summon 風の子", "FLOW-QS")
    play(g, "A: pass", "A: pass", "A: pass")
    assert "B: summon 風の子" in texts(g)


def test_qs_1_only_a_quick_summon_card_is_revealed() -> None:
    """QS-1: only a card marked "declare at quick-summon timing" is revealed in steps 3 and 6;
    an ordinary skill card is not."""
    g = make(QS_UNITS, {**QS_CARDS, "速攻の術": {**EARTH_SPEAR, "quick_summon": True}}, at="quick_summon")
    play(g, "A: pass", "A: pass")
    refused(g, "A: reveal 土の槍", "QS-1")
    assert "A: reveal 速攻の術" in texts(g)


def test_eq_1_a_player_cannot_equip_the_opponents_unit() -> None:
    """EQ-1: equip cards go on one's own units (steps 2 and 5 of the quick-summon timing)."""
    g = make({**QS_UNITS, "水の精": {"owner": "B", "skills": "土"}}, QS_CARDS, at="quick_summon")
    play(g, "A: pass")
    refused(g, "A: equip 鉄の剣 on 水の精", "EQ-1")
    assert "A: equip 鉄の剣 on 岩の巨人" in texts(g)


# ---------------------------------------------------------------- dice, targets, recheck


def rockfall(min_roll: int, seed: int) -> Game:
    rock = {"name": "落石", "kind": "action", "dice": True, "min_roll": min_roll, "effect": "destroy"}
    units = {"岩の巨人": {"owner": "A", "skills": "土", "abilities": [rock]}, **FOES}
    return make(units, seed=seed, battle={"turn": "A"})


def first_roll(seed: int) -> int:
    """The die 落石 rolls at its declaration in a game with this seed (read from the engine)."""
    g = rockfall(1, seed)
    play(g, "A: activate 落石 of 岩の巨人 on 水の精")
    return g.table.chain[-1].dice or 0


def test_act_7_a_roll_equal_to_the_minimum_takes_effect() -> None:
    """ACT-4/ACT-7: a die rolled at declaration decides the effect; ``min_roll: N`` means a roll
    of at least N, so a roll of exactly N takes effect and N-1 does not."""
    seed, rolled = next((s, d) for s in range(1, 50) if 2 <= (d := first_roll(s)) <= 5)
    for minimum, destroyed in ((rolled, True), (rolled + 1, False)):
        g = rockfall(minimum, seed)
        play(g, "A: activate 落石 of 岩の巨人 on 水の精")
        assert g.table.chain[-1].dice == rolled
        pass_until(g, chain_done)
        assert outcome(g, "落石") == ("resolved", "ACT-7")
        assert g.table.units["水の精"].destroyed is destroyed, (minimum, rolled)


def test_act_3_a_geo_outside_the_battle_is_no_target() -> None:
    """ACT-3: a 【行動】 targets only what takes part in the battle; a geo the battle is not
    fought at cannot be its target."""
    quake = {"name": "地割れ", "kind": "action", "target": "geo", "effect": "exhaust"}
    g = make({"岩の巨人": {"owner": "A", "skills": "土", "abilities": [quake]}, **FOES}, battle={"turn": "A"})
    refused(g, "A: activate 地割れ of 岩の巨人 on 本陣", "ACT-3")
    assert g.why_not("A: activate 地割れ of 岩の巨人 on 荒野").legal


def test_sc_6_eq_1_the_recheck_counts_what_the_units_equips_hold() -> None:
    """SC-6 with EQ-1: at the recheck the using unit must still meet the condition with skills no
    equip holds.  岩の巨人 has 土×2, one held by 鉄の剣; a counter strips a 土, so the one left is
    the sword's, and 土の槍 has no effect (the card still goes to the graveyard)."""
    units = {"岩の巨人": {"owner": "A", "skills": "土 土"}, **FOES}
    cards = {
        "土の槍": EARTH_SPEAR,
        "鉄の剣": {"owner": "A", "type": "equip", "condition": "土", "zone": "equipped", "equipped_to": "岩の巨人"},
        "砂嵐": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "strip 土"},
    }
    g = make(units, cards, battle={"turn": "A"})
    play_out(g, "A: use 土の槍 by 岩の巨人 on 水の精", "B: use 砂嵐 by 水の番人 on 岩の巨人")
    assert outcome(g, "砂嵐") == ("resolved", "SC-7")
    assert outcome(g, "土の槍") == ("fizzled", "SC-6")
    assert g.table.cards["土の槍"].zone == "graveyard"
    assert g.table.units["水の精"].on_field


# ---------------------------------------------------------------- AUTO-3 through a designer's rules


def test_auto_3_an_item_nobody_may_counter_never_waits_for_an_answer(tmp_path: Path) -> None:
    """AUTO-3: an uncounterable item opens no counter window, so nothing can answer it, even a
    timing that would.  Only a designer's file makes such an item where the shipped rules open a
    window: here the speed roll is made uncounterable, so the dice decide 先攻 at once and the
    [反撃：スピード限定] card that answers them under the shipped rules has nothing to answer."""
    design = tmp_path / "calm_dice.toml"
    design.write_text("[kind.speed_roll]\ncounterable = false\n", encoding="utf-8")
    card = {"condition": "無", "timing": "スピード", "target": "none", "effect": "speed +3"}
    data = {
        "seed": 1,
        "players": ["A", "B"],
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "岩の巨人": {"owner": "A", "skills": "無", "geo": "荒野"},
            "水の精": {"owner": "B", "skills": "無", "geo": "荒野"},
        },
        "cards": {"加速A": {"owner": "A", **card}, "加速B": {"owner": "B", **card}},
        "start": {"at": "speed", "battle": {"advancing": "A", "geo": "荒野"}},
    }
    shipped = build_game(data)
    actor = shipped.actor()
    unit = "岩の巨人" if actor == "A" else "水の精"
    move = f"{actor}: use 加速{actor} by {unit}"
    assert shipped.why_not(move).legal and shipped.table.chain
    g = build_game(data, rules=builtin().extend(design))
    assert not g.table.chain and g.flow.at("normal_timing")
    assert any("cannot be countered" in e.text for e in g.log)
    refused(g, move, "TIM-SPD")


# ---------------------------------------------------------------- ACT-2 across two battles


def test_act_2_the_one_declaration_comes_back_in_the_next_battle() -> None:
    """ACT-2: a 【行動】 is declared once while its unit is 行動未完了; after the battle the unit is
    行動未完了 again (FLOW-CLEANUP), so in the next battle it may be declared again."""
    rally = {"name": "気合", "kind": "action", "target": "none", "effect": "grant 火"}
    units = {
        "岩の巨人": {"owner": "A", "skills": "土", "geo": "本陣", "abilities": [rally]},
        "水の精": {"owner": "B", "skills": "水", "geo": "荒野"},
        "森の番人": {"owner": "B", "skills": "無", "geo": "森"},
    }
    g = make(units, at="main_phase", geos=GEOS)
    declare = "A: activate 気合 of 岩の巨人"
    for geo in ("荒野", "森"):  # two battles, A advancing each time
        play(g, f"A: advance 岩の巨人 to {geo}")
        pass_until(g, at_own_normal_timing("A"))
        play_out(g, declare)
        pass_until(g, lambda x: x.flow.at("main_phase") and not x.table.units["岩の巨人"].marched)
    assert [o.result for o in g.table.outcomes if o.source == "気合"] == ["resolved", "resolved"]


# ---------------------------------------------------------------- who may use a skill card in a battle


def test_flow_normal_a_unit_already_acted_cannot_use_a_normal_card() -> None:
    """FLOW-NORMAL with TIM-NORMAL: in its normal timing a player makes a 行動未完了 unit act; a
    [通常] card used by a unit that is already 行動完了 is refused, while its 行動未完了 partner may."""
    units = {**TWO_EACH, "岩の巨人": {"owner": "A", "skills": "土", "acted": True}}
    g = make(units, {"土の槍": EARTH_SPEAR}, battle={"turn": "A"})
    refused(g, "A: use 土の槍 by 岩の巨人 on 水の精", "FLOW-NORMAL")
    assert g.why_not("A: use 土の槍 by 土の兵 on 水の精").legal


def test_sc_1_a_unit_outside_the_battle_cannot_use_a_skill_card_in_it() -> None:
    """SC-1: in a battle a skill card is used by a unit taking part in it; a unit at another geo,
    even one with the right skill, may not use it."""
    units = {**TWO_EACH, "見張り": {"owner": "A", "skills": "土", "geo": "本陣"}}
    g = make(units, {"土の槍": EARTH_SPEAR}, battle={"turn": "A"})
    refused(g, "A: use 土の槍 by 見張り on 水の精", "SC-1")
    assert g.why_not("A: use 土の槍 by 岩の巨人 on 水の精").legal
