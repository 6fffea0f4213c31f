"""The battle flow that hosts the timings (issue 4: FLOW-*, QS-1..3, AUTO-2..4, TIM-BTL, MAR-1).

The last test plays one whole battle from the main phase back to the main phase through
``legal_moves`` / ``apply`` only, and checks from the log that the flow entered every state of
``GameFlow`` in order.
"""

from __future__ import annotations

import dataclasses

import pytest
from conftest import at_own_normal_timing, make, pass_until, play, refused, texts

from fsm.engine.game import Game
from fsm.machines.battle import GameFlow
from fsm.machines.chain import priority


def flow_leaves(g: Game, start: int = 0) -> list[str]:
    """The innermost GameFlow state entered by each flow step of the log, repeats folded."""
    out: list[str] = []
    for e in g.log[start:]:
        if e.machine == "GameFlow" and e.entered and (not out or out[-1] != e.entered[-1]):
            out.append(e.entered[-1])
    return out


# ---------------------------------------------------------------- advancing (FLOW-ADV, MAR-1)

HOME = {
    "岩の巨人": {"owner": "A", "skills": "土", "geo": "本陣"},
    "水の精": {"owner": "B", "skills": "水"},
    "森の番人": {"owner": "B", "skills": "無", "geo": "森"},
}
GEOS = {"荒野": {"holder": "B", "limit": 10}, "本陣": {"holder": "A"}, "空き地": {}, "森": {"holder": "B"}}


def test_flow_adv_advancing_into_an_enemy_geo_starts_a_battle() -> None:
    """FLOW-ADV: advancing into a geo the other side holds starts a battle there, with the advancing
    unit and the defenders at that geo only; the unit becomes 進軍完了 (MAR-1)."""
    g = make(HOME, at="main_phase", geos=GEOS)
    play(g, "A: advance 岩の巨人 to 荒野")
    b = g.table.battle
    assert b is not None and (b.geo, b.advancing, b.defending) == ("荒野", "A", "B")
    assert b.participants == ["岩の巨人", "水の精"]
    assert g.flow.at("advancing_summon") and g.actor() == "A"
    assert g.table.units["岩の巨人"].marched


def test_flow_adv_moving_into_a_free_geo_is_no_battle_and_mar_1_once() -> None:
    """FLOW-ADV: an unheld geo is simply taken; MAR-1: a 進軍完了 unit cannot advance again."""
    g = make(HOME, at="main_phase", geos=GEOS)
    play(g, "A: advance 岩の巨人 to 空き地")
    assert g.table.battle is None and g.flow.at("main_phase")
    assert g.table.geos["空き地"].holder == "A"
    refused(g, "A: advance 岩の巨人 to 荒野", "MAR-1")
    play(g, "A: pass", "B: pass")  # A's next main phase: 進軍未完了 again
    assert g.why_not("A: advance 岩の巨人 to 荒野").legal


# ---------------------------------------------------------------- quick-summon timing (FLOW-QS, QS-*)

QS_UNITS = {
    "岩の巨人": {"owner": "A", "skills": "土", "level": 2},
    "風の子": {"owner": "A", "skills": "風", "zone": "hand", "quick_summon": True, "level": 2},
    "大岩": {"owner": "A", "skills": "土", "zone": "hand", "quick_summon": True, "level": 9},
    "普通の兵": {"owner": "A", "skills": "火", "zone": "hand", "level": 1},
    "水の精": {"owner": "B", "skills": "水 水"},
}
QS_CARDS = {
    "速攻の術": {"owner": "A", "condition": "風", "timing": "通常", "quick_summon": True, "effect": "exhaust"},
    "奇襲": {"owner": "A", "condition": "土", "timing": "反撃", "quick_summon": True, "target": "none"},
    "鉄の剣": {"owner": "A", "type": "equip", "condition": "土"},
    "水の盾": {"owner": "B", "condition": "水", "timing": "反撃", "quick_summon": True, "target": "none"},
}


def qs_game(**kw: object) -> Game:
    return make(QS_UNITS, QS_CARDS, at="quick_summon", **kw)  # type: ignore[arg-type]


def test_flow_qs_six_steps_in_order_with_the_right_side_acting() -> None:
    """FLOW-QS: advancing side summons, equips, reveals; then the defending side does the same."""
    g = qs_game()
    seen = []
    for _ in range(6):
        seen.append((flow_leaves(g)[-1] if flow_leaves(g) else "advancing_summon", g.actor()))
        play(g, "pass")
    assert seen == [
        ("advancing_summon", "A"),
        ("advancing_equip", "A"),
        ("advancing_reveal", "A"),
        ("defending_summon", "B"),
        ("defending_equip", "B"),
        ("defending_reveal", "B"),
    ]
    assert g.flow.at("formation")


def test_flow_qs_each_step_allows_only_its_own_move() -> None:
    """FLOW-QS: summons in steps 1/4, equips in 2/5, reveals in 3/6 (QS-1)."""
    g = qs_game()
    assert "A: summon 風の子" in texts(g)
    refused(g, "A: equip 鉄の剣 on 岩の巨人", "FLOW-QS")
    refused(g, "A: reveal 速攻の術", "QS-1")
    play(g, "A: pass")
    assert "A: equip 鉄の剣 on 岩の巨人" in texts(g)
    refused(g, "A: summon 風の子", "FLOW-QS")
    play(g, "A: pass")
    assert "A: reveal 速攻の術" in texts(g)
    refused(g, "A: summon 風の子", "FLOW-QS")


def test_flow_qs_only_quick_summonable_units_and_within_the_limit() -> None:
    """FLOW-QS: only a unit marked quick-summonable, and only while the side's total level stays
    within the geo's リミット."""
    g = qs_game(geos={"荒野": {"holder": "B", "limit": 4}, "本陣": {"holder": "A"}})
    refused(g, "A: summon 普通の兵", "FLOW-QS")
    err = refused(g, "A: summon 大岩", "FLOW-QS")
    assert "リミット 4" in err.message and "11" in err.message
    play(g, "A: summon 風の子")  # 2 + 2 = 4: exactly the limit
    assert "風の子" in g.table.battle.participants  # type: ignore[union-attr]
    assert g.table.units["風の子"].on_field


def test_flow_qs_summon_outside_the_quick_summon_timing_is_refused() -> None:
    """FLOW-QS: a quick summon asked for in the main phase or a normal timing is refused by clause
    (it used to trip an internal assertion when no battle was under way)."""
    g = make(QS_UNITS, QS_CARDS, at="main_phase")
    refused(g, "A: summon 風の子", "FLOW-QS")
    g = qs_game()
    pass_until(g, at_own_normal_timing("A"))
    refused(g, "A: summon 風の子", "FLOW-QS")


def test_flow_qs_a_unit_summoned_again_is_one_participant() -> None:
    """FLOW-QS (with AUTO-2, variant quick_summoned_battle_autos): a quick-summoned unit whose [戦闘]
    auto sends it back to the hand is in the hand again and may be summoned again; it still takes
    part in the battle once, not once per summon."""
    bouncer = {
        "owner": "A",
        "zone": "hand",
        "quick_summon": True,
        "level": 1,
        "abilities": [{"name": "帰還", "kind": "auto", "timing": "戦闘", "effect": "bounce"}],
    }
    g = make({**QS_UNITS, "跳ね子": bouncer}, QS_CARDS, at="quick_summon")
    for _ in range(3):
        play(g, "A: summon 跳ね子")
        assert g.table.units["跳ね子"].zone == "hand"  # 帰還 took it back at once
    play(g, "A: summon 跳ね子")
    participants = g.table.battle.participants  # type: ignore[union-attr]
    assert participants.count("跳ね子") == 1, participants
    assert len(participants) == len(set(participants))


def test_qs_1_a_quick_summon_card_must_be_revealed_first() -> None:
    """QS-1: a "declare at quick-summon timing" card left in the hand cannot be used in the battle."""
    g = qs_game()
    pass_until(g, at_own_normal_timing("A"))
    refused(g, "A: use 速攻の術 by 岩の巨人 on 水の精", "QS-1")


def test_qs_2_revealed_card_used_like_any_skill_card_qs_3_discarded_after_the_battle() -> None:
    """QS-2: a revealed card is used in the battle through the usual steps (SC-4..7); QS-3: a revealed
    card never used is discarded when the battle ends."""
    g = qs_game()
    play(g, "A: summon 風の子", "A: pass", "A: pass", "A: reveal 速攻の術", "A: reveal 奇襲")
    assert g.table.cards["速攻の術"].zone == "revealed"
    pass_until(g, at_own_normal_timing("A"))
    play(g, "A: use 速攻の術 by 風の子 on 水の精")
    assert priority(g.table) == "B"  # a counter window, as for any skill card
    play(g, "B: pass", "A: pass")
    assert g.table.units["水の精"].acted and g.table.cards["速攻の術"].zone == "graveyard"
    assert g.table.cards["奇襲"].zone == "revealed"
    pass_until(g, lambda x: x.flow.at("main_phase"))
    assert g.table.cards["奇襲"].zone == "graveyard"
    assert any(e.clause == "QS-3" and "奇襲" in e.text for e in g.log)
    assert g.table.cards["水の盾"].zone == "hand"  # never revealed: stays in the hand


# ---------------------------------------------------------------- formation and speed (FLOW-FORM, FLOW-SPD)

SPEEDY = {
    "岩の巨人": {"owner": "A", "skills": "土", "speed": 0},
    "風の子": {"owner": "A", "skills": "風", "speed": 3},
    "水の精": {"owner": "B", "skills": "水"},
    "森の番人": {"owner": "B", "skills": "無"},
}


@pytest.mark.parametrize(("order", "first"), [("advancing_first", "A"), ("defending_first", "B")])
def test_flow_form_order_variant(order: str, first: str) -> None:
    """FLOW-FORM (variant formation_order): which side sets its formation first."""
    g = make(SPEEDY, at="formation", variants={"formation_order": order})
    assert g.actor() == first
    play(g, "pass")
    assert g.actor() != first and g.flow.at("second_side")
    play(g, "pass")
    assert g.flow.at("speed")


def test_flow_form_front_unit_sets_the_speed_bonus() -> None:
    """FLOW-FORM, FLOW-SPD: the unit at the front adds its speed to its side's die."""
    g = make(SPEEDY, at="formation")
    play(g, "A: front 風の子", "A: pass", "B: pass")
    b = g.table.battle
    assert b is not None and b.front == {"A": "風の子"}
    assert b.totals()["A"] == b.dice["A"] + 3


def _tie_seed(rng: range = range(300)) -> int:
    for seed in rng:
        b = make(SPEEDY, at="speed", seed=seed).table.battle
        assert b is not None
        if b.totals()["A"] == b.totals()["B"]:
            return seed
    raise AssertionError("no tied first roll among the seeds tried")


@pytest.mark.parametrize(("rule", "first"), [("advancing_first", "A"), ("defending_first", "B")])
def test_flow_spd_tie_variant_fixed_side(rule: str, first: str) -> None:
    """FLOW-SPD (variant speed_tie): a tie goes to the named side."""
    g = make(SPEEDY, at="speed", seed=_tie_seed(), variants={"speed_tie": rule})
    play(g, "pass", "pass")
    assert g.flow.at("normal_timing") and g.table.battle.first == first  # type: ignore[union-attr]
    assert g.actor() == first


def test_flow_spd_tie_rerolls_by_default() -> None:
    """FLOW-SPD (default speed_tie = reroll): a tie is rolled again, still in speed determination."""
    g = make(SPEEDY, at="speed", seed=_tie_seed())
    rolls = g.table.rolls
    play(g, "pass", "pass")
    assert any("roll again" in e.text for e in g.log)
    assert g.table.rolls == rolls + 2
    assert g.flow.at("speed") or g.flow.at("normal_timing")
    if g.flow.at("speed"):
        assert g.table.chain and g.table.chain[-1].kind == "speed_roll"


def test_flow_spd_higher_total_goes_first_and_the_player_behind_is_asked_first() -> None:
    """FLOW-SPD: the higher total is first (先攻); by default the player behind answers first."""
    for seed in range(40):
        g = make(SPEEDY, at="speed", seed=seed)
        totals = g.table.battle.totals()  # type: ignore[union-attr]
        if totals["A"] == totals["B"]:
            continue
        high, low = sorted(totals, key=totals.__getitem__, reverse=True)
        assert priority(g.table) == low
        play(g, "pass", "pass")
        assert g.table.battle.first == high and g.actor() == high  # type: ignore[union-attr]


# ---------------------------------------------------------------- normal timings and the end (FLOW-NORMAL, FLOW-END)

FIGHT = {
    "岩の巨人": {"owner": "A", "skills": "土"},
    "風の子": {"owner": "A", "skills": "風"},
    "水の精": {"owner": "B", "skills": "水"},
    "森の番人": {"owner": "B", "skills": "無"},
}


def test_flow_normal_timings_alternate_first_player_first() -> None:
    """FLOW-NORMAL: the first player acts with one unit, then the other player, and so on."""
    g = make(FIGHT, battle={"first": "B"}, variants={"attack_outcome": "none"})
    assert g.actor() == "B"
    play(g, "B: attack 岩の巨人 with 水の精", "A: pass", "B: pass")
    assert g.actor() == "A" and g.table.units["水の精"].acted
    play(g, "A: attack 水の精 with 岩の巨人", "B: pass", "A: pass")
    assert g.actor() == "B"
    refused(g, "B: attack 岩の巨人 with 水の精", "FLOW-NORMAL")  # 水の精 already acted


def test_flow_atk_attack_opens_a_window_and_destroys_by_default() -> None:
    """FLOW-ATK: an attack is answered like an ability; resolved, it destroys the target (variant
    attack_outcome)."""
    g = make(FIGHT)
    play(g, "A: attack 水の精 with 岩の巨人")
    assert priority(g.table) == "B" and g.table.chain[-1].during == "attack"
    play(g, "B: pass", "A: pass")
    assert g.table.units["水の精"].destroyed


def test_flow_end_one_side_without_units_and_the_geo_changes_hands() -> None:
    """FLOW-END: when the defending side has no unit left in the battle, the battle ends and the
    advancing side takes the geo."""
    g = make({"岩の巨人": FIGHT["岩の巨人"], "水の精": FIGHT["水の精"]})
    play(g, "A: attack 水の精 with 岩の巨人", "B: pass", "A: pass")
    assert g.flow.at("main_phase") and g.table.battle is None
    assert g.table.geos["荒野"].holder == "A"
    assert any(e.clause == "FLOW-END" and "no units left" in e.text for e in g.log)


def test_flow_end_no_unit_can_act() -> None:
    """FLOW-END: once every unit on both sides is 行動完了, the battle ends (no double pass needed)."""
    g = make({"岩の巨人": FIGHT["岩の巨人"], "水の精": FIGHT["水の精"]}, variants={"attack_outcome": "none"})
    play(
        g,
        "A: attack 水の精 with 岩の巨人",
        "B: pass",
        "A: pass",
        "B: attack 岩の巨人 with 水の精",
        "A: pass",
        "B: pass",
    )
    assert g.flow.at("main_phase")
    assert any(e.clause == "FLOW-END" and "no unit on either side can act" in e.text for e in g.log)
    assert g.table.geos["荒野"].holder == "B"


@pytest.mark.parametrize("double_pass_ends", [True, False])
def test_flow_end_double_pass_variant(double_pass_ends: bool) -> None:
    """FLOW-END (variant battle_ends_on_double_pass): two passed normal timings end the battle."""
    g = make(FIGHT, variants={"battle_ends_on_double_pass": double_pass_ends})
    play(g, "A: pass", "B: pass")
    assert g.flow.at("main_phase") is double_pass_ends


# ---------------------------------------------------------------- battle start and cleanup (AUTO-*, TIM-BTL)

AUTOS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土",
        "geo": "本陣",
        "abilities": [{"name": "気合", "kind": "auto", "timing": "戦闘", "effect": "grant 火"}],
    },
    "留守番": {
        "owner": "A",
        "geo": "本陣",
        "abilities": [
            {"name": "見張り", "kind": "auto", "timing": "戦闘", "effect": "grant 水"},
            {"name": "大地の加護", "kind": "auto", "effect": "grant 土"},
        ],
    },
    "水の精": {"owner": "B", "skills": "水"},
}
AUTO_CARDS = {
    "火の玉": {"owner": "A", "condition": "火", "timing": "通常/ＭＦ", "effect": "exhaust"},
    "地ならし": {"owner": "A", "condition": "土", "timing": "ＭＦ", "target": "none", "effect": "nothing"},
    "水の盾": {"owner": "B", "condition": "水", "timing": "反撃", "target": "none", "effect": "nothing"},
}


def test_auto_2_battle_autos_activate_at_battle_start_for_participants_only() -> None:
    """AUTO-2, TIM-BTL: a [戦闘] auto activates as the battle starts, for units in that battle only."""
    g = make(AUTOS, AUTO_CARDS, at="main_phase")
    start = len(g.log)
    play(g, "A: advance 岩の巨人 to 荒野")
    autos = [e for e in g.log[start:] if e.clause == "AUTO-2"]
    assert [e.text for e in autos] == ["【自動】[戦闘] 気合 of 岩の巨人 activates at battle start"]
    assert g.table.units["岩の巨人"].skills.granted["火"] == 1
    assert not g.table.units["留守番"].skills.granted


def test_auto_3_battle_auto_cannot_be_countered() -> None:
    """AUTO-3: nobody gets priority over a [戦闘] auto; it resolves on the spot."""
    g = make(AUTOS, AUTO_CARDS, at="main_phase")
    start = len(g.log)
    play(g, "A: advance 岩の巨人 to 荒野")
    assert not g.table.chain and priority(g.table) is None
    assert [o.result for o in g.table.outcomes if o.source == "気合"] == ["resolved"]
    assert not any(e.machine == "CounterChain" for e in g.log[start:])
    assert any(e.clause == "AUTO-3" for e in g.log[start:])
    assert "B: use 水の盾 by 水の精" not in texts(g) and g.actor() == "A"


def test_tim_btl_battle_grant_usable_in_the_battle_and_gone_after_it() -> None:
    """TIM-BTL: the 火 granted at battle start pays for a 火 card during the battle and lapses when
    the battle ends."""
    g = make(AUTOS, AUTO_CARDS, at="main_phase")
    play(g, "A: advance 岩の巨人 to 荒野")
    pass_until(g, at_own_normal_timing("A"))
    assert g.why_not("A: use 火の玉 by 岩の巨人 on 水の精").legal
    pass_until(g, lambda x: x.flow.at("main_phase"))
    assert not g.table.units["岩の巨人"].skills.granted
    assert any(e.clause == "TIM-BTL" and "lapse" in e.text for e in g.log)
    refused(g, "A: use 火の玉 by 岩の巨人 on 水の精", "SC-1")


def test_auto_4_continuous_grant_usable_in_the_main_phase() -> None:
    """AUTO-4: an auto without [戦闘] is always in effect: its 土 pays for a [ＭＦ] card outside any
    battle, on a unit with no 土 of its own."""
    g = make(AUTOS, AUTO_CARDS, at="main_phase")
    play(g, "A: use 地ならし by 留守番")
    assert [o.result for o in g.table.outcomes if o.source == "地ならし"] == []
    play(g, "B: pass", "A: pass")
    assert [o.result for o in g.table.outcomes if o.source == "地ならし"] == ["resolved"]


def test_flow_cleanup_after_the_battle() -> None:
    """FLOW-CLEANUP, SC-3, TIM-BTL: at battle end grants lapse, spent skills return, units are
    行動未完了 again, and the flow is back in the main phase."""
    g = make(FIGHT, {"石": {"owner": "A", "condition": "土", "timing": "通常", "effect": "exhaust"}})
    rock = g.table.units["岩の巨人"]
    rock.skills = dataclasses.replace(rock.skills, granted={"聖": 1})  # set-up: a [戦闘] grant already in effect
    play(g, "A: use 石 by 岩の巨人 on 水の精", "B: pass", "A: pass")
    assert g.table.units["岩の巨人"].acted and g.table.units["水の精"].acted
    play(g, "B: pass", "A: pass")
    rock = g.table.units["岩の巨人"]
    assert g.flow.at("main_phase") and g.table.battle is None
    assert not rock.acted and not g.table.units["水の精"].acted
    assert not rock.skills.consumed and not rock.skills.granted
    assert flow_leaves(g)[-2:] == ["battle_end", "main_phase"]


# ---------------------------------------------------------------- one whole battle

WHOLE_UNITS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土 土",
        "geo": "本陣",
        "speed": 2,
        "abilities": [
            {"name": "気合", "kind": "auto", "timing": "戦闘", "effect": "grant 火"},
            {"name": "岩砕き", "kind": "action", "effect": "exhaust", "dice": True},
        ],
    },
    "風の子": {"owner": "A", "skills": "風", "zone": "hand", "quick_summon": True},
    "水の精": {"owner": "B", "skills": "水 水", "speed": 1},
    "森の番人": {"owner": "B", "skills": "無", "zone": "hand", "quick_summon": True},
}
WHOLE_CARDS = {
    "鉄の剣": {"owner": "A", "type": "equip", "condition": "土"},
    "速攻の術": {"owner": "A", "condition": "風", "timing": "通常", "quick_summon": True, "effect": "exhaust"},
    "大地の盾": {"owner": "B", "type": "equip", "condition": "水"},
    "水の盾": {"owner": "B", "condition": "水", "timing": "反撃", "quick_summon": True, "target": "none"},
    "疾風": {"owner": "B", "condition": "無", "timing": "反撃：スピード限定", "target": "none", "effect": "speed +2"},
}


def test_flow_one_whole_battle_through_every_state_in_order() -> None:
    """FLOW-ADV, FLOW-QS, FLOW-FORM, FLOW-SPD, FLOW-NORMAL, FLOW-ATK, FLOW-END, FLOW-CLEANUP: a battle
    played from the main phase back to it, every move taken from legal_moves(); the log's flow steps
    enter every GameFlow state, in the order the rules give."""
    g = make(WHOLE_UNITS, WHOLE_CARDS, at="main_phase", seed=5)
    script = [
        "A: advance 岩の巨人 to 荒野",
        "A: summon 風の子",
        "A: pass",
        "A: equip 鉄の剣 on 岩の巨人",
        "A: pass",
        "A: reveal 速攻の術",
        "A: pass",
        "B: summon 森の番人",
        "B: pass",
        "B: equip 大地の盾 on 水の精",
        "B: pass",
        "B: reveal 水の盾",
        "B: pass",
        "A: front 岩の巨人",
        "A: pass",
        "B: front 水の精",
        "B: pass",
    ]
    for move in script:
        assert move in texts(g), f"{move!r} not offered at {g.flow.configuration_values}: {texts(g)}"
        g.apply(move)
    assert g.flow.at("speed")
    # the speed window: B answers the dice with its speed counter whenever it is B's turn to decide
    while g.flow.at("speed"):
        move = next((m for m in texts(g) if "疾風" in m), f"{g.actor()}: pass")
        assert move in texts(g)
        g.apply(move)
    assert g.flow.at("normal_timing")
    # normal timings: each side attacks with whatever can, counters with what it can, else passes
    for _ in range(60):
        if g.flow.at("main_phase"):
            break
        moves = texts(g)
        move = next(
            (m for m in moves if " attack " in m or " use " in m or "activate 岩砕き" in m),
            moves[0],
        )
        assert moves[0].endswith("pass")
        g.apply(move)
    assert g.flow.at("main_phase") and g.table.battle is None
    expected = [s.id for s in GameFlow.states_map.values() if s.id not in ("battle", "quick_summon", "formation")]
    entered = flow_leaves(g)
    # every state, in order, from the advance to the return to the main phase
    assert entered[entered.index("advancing_summon") :] == [*expected[1:], "main_phase"]
    compound = {e.entered[i] for e in g.log if e.machine == "GameFlow" for i in range(len(e.entered) - 1)}
    assert compound == {"battle", "quick_summon", "formation"}
    clauses = {e.clause for e in g.log}
    for clause in ("FLOW-ADV", "AUTO-2", "FLOW-QS", "EQ-1", "QS-1", "FLOW-FORM", "FLOW-SPD", "TIM-SPD"):
        assert clause in clauses, clause
    for clause in ("FLOW-NORMAL", "FLOW-ATK", "FLOW-END", "FLOW-CLEANUP", "TIM-BTL"):
        assert clause in clauses, clause
