"""Issue 11 (rules II): the [戦闘] speed bug and the open points decided as named rule variants.

Each test names its clause and the variant it exercises; every choice of every variant is played.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import make, pass_until, play, refused

from fsm.engine.game import Game
from fsm.rules.skills import fmt

#: The documented defaults, written out here (the first test checks them against SPECS).
DEFAULTS = {
    "reroll_keeps_speed_modifiers": True,
    "reroll_answerable": True,
    "skill_card_targets": "anywhere_on_field",
    "mf_cards_in": "own_main_phase",
    "skills_granted_outside_battle_lapse": "end_of_main_phase",
    "reset_acted_in_owner_main_phase": True,
    "drawn_battle_advancers": "stay",
}


def changed(name: str, value: Any) -> dict[str, Any]:
    """Only a setting that differs from the default: a default case plays the game as it comes."""
    return {} if DEFAULTS[name] == value else {name: value}


def test_the_issue_11_variants_have_the_documented_defaults() -> None:
    """The defaults the docs give (README, docs/scenarios.md) are the ones in force."""
    from fsm.rules.variants import BY_NAME

    assert {name: BY_NAME[name].default for name in DEFAULTS} == DEFAULTS


# ---------------------------------------------------------------- TIM-BTL / AUTO-2: [戦闘] speed (bug 2)

QUICK = {"name": "疾風", "kind": "auto", "timing": "戦闘", "target": "self", "effect": "speed +5"}


def test_tim_btl_auto2_battle_speed_auto_still_counts_after_the_speed_roll() -> None:
    """TIM-BTL, AUTO-2: a 【自動】[戦闘] speed +5 lasts the whole battle; the speed roll adds the
    front unit's speed to it instead of overwriting it."""
    game = make({"韋駄天": {"owner": "A", "abilities": [QUICK]}, "水の精": {"owner": "B"}}, at="speed")
    b = game.table.battle
    assert b is not None
    assert b.totals()["A"] == b.dice["A"] + 5


def test_tim_btl_battle_speed_auto_counts_in_a_battle_begun_by_an_advance() -> None:
    """TIM-BTL, FLOW-SPD: advance, quick summon, formation, then the roll: the +5 is still there."""
    game = make(
        {"韋駄天": {"owner": "A", "speed": 1, "geo": "本陣", "abilities": [QUICK]}, "水の精": {"owner": "B"}},
        at="main_phase",
    )
    play(game, "A: advance 韋駄天 to 荒野")
    pass_until(game, lambda g: g.flow.at("speed"))
    b = game.table.battle
    assert b is not None
    assert b.totals()["A"] == b.dice["A"] + 1 + 5  # front unit's speed and the [戦闘] change


# ---------------------------------------------------------------- FLOW-SPD / TIM-SPD: re-rolls (points 7, 8)

SPEEDSTERS = {"風の子": {"owner": "A", "skills": "無 無"}, "水の精": {"owner": "B", "skills": "無"}}
SPEED_CARDS = {
    "加速": {"owner": "A", "condition": "無", "timing": "スピード", "target": "none", "effect": "speed +3"},
    "再振り": {"owner": "A", "condition": "無", "timing": "スピード", "target": "none", "effect": "reroll"},
    "妨害": {"owner": "B", "condition": "無", "timing": "スピード", "target": "none", "effect": "speed +1"},
}


def _speed_game(seed: int, **variants: Any) -> Game:
    return make(SPEEDSTERS, SPEED_CARDS, at="speed", seed=seed, variants=variants)


def _seed_where(holds: Any) -> int:
    for seed in range(500):
        b = _speed_game(seed).table.battle
        assert b is not None
        if holds(b.dice):
            return seed
    raise AssertionError("no seed among those tried rolls as needed")


def _a_to_answer(game: Game) -> None:
    """Let B pass first if B is asked first, so that A may answer the dice."""
    if game.actor() == "B":
        play(game, "B: pass")
    assert game.actor() == "A"


@pytest.mark.parametrize(("keep", "kept"), [(True, 3), (False, 0)])
def test_flow_spd_tie_reroll_keeps_speed_answers_as_the_variant_says(keep: bool, kept: int) -> None:
    """FLOW-SPD (variant reroll_keeps_speed_modifiers): a [反撃：スピード限定] speed +3 makes the
    totals tie; the tie's re-roll keeps the +3 (default) or drops it, as a card's reroll does."""
    game = _speed_game(_seed_where(lambda d: d["B"] == d["A"] + 3), **changed("reroll_keeps_speed_modifiers", keep))
    _a_to_answer(game)
    play(game, "A: use 加速 by 風の子", "B: pass", "A: pass")
    assert any("tie" in e.text and "roll again" in e.text for e in game.log)
    b = game.table.battle
    assert b is not None
    assert b.totals()["A"] - b.dice["A"] == kept


@pytest.mark.parametrize(("keep", "kept"), [(True, 3), (False, 0)])
def test_flow_spd_reroll_effect_keeps_speed_answers_as_the_variant_says(keep: bool, kept: int) -> None:
    """FLOW-SPD (variant reroll_keeps_speed_modifiers): a reroll card under a speed +3 that
    resolves first: the re-roll keeps the +3 (default) or drops it, like a tie's re-roll."""
    game = _speed_game(1, **changed("reroll_keeps_speed_modifiers", keep))
    _a_to_answer(game)
    play(game, "A: use 再振り by 風の子", "B: pass", "A: use 加速 by 風の子", "B: pass", "A: pass")
    b = game.table.battle
    assert b is not None and any("rolled again" in e.text for e in game.log)
    assert b.totals()["A"] - b.dice["A"] == kept


def test_tim_spd_dice_rerolled_by_an_effect_are_a_new_result_that_may_be_answered() -> None:
    """TIM-SPD (variant reroll_answerable, default true): after a reroll card resolves, the new
    dice stand on the chain, still in speed determination, and a [反撃：スピード限定] may answer them."""
    game = _speed_game(1)
    _a_to_answer(game)
    play(game, "A: use 再振り by 風の子", "B: pass", "A: pass")
    assert game.flow.at("speed")
    assert game.table.chain and game.table.chain[-1].kind == "speed_roll"
    if game.actor() == "A":
        play(game, "A: pass")
    assert game.why_not("B: use 妨害 by 水の精").legal


def test_tim_spd_rerolls_decide_at_once_when_not_answerable() -> None:
    """TIM-SPD (variant reroll_answerable=false): a reroll card's new dice decide 先攻 at once."""
    game = _speed_game(1, reroll_answerable=False)
    _a_to_answer(game)
    play(game, "A: use 再振り by 風の子", "B: pass", "A: pass")
    assert game.flow.at("normal_timing") and not game.table.chain


def test_flow_spd_tie_reroll_decides_at_once_when_not_answerable() -> None:
    """FLOW-SPD, TIM-SPD (variant reroll_answerable=false): a tie's re-roll behaves as a reroll
    card's does: no new result on the chain, 先攻 is decided (rolling again while tied)."""
    game = _speed_game(_seed_where(lambda d: d["A"] == d["B"]), reroll_answerable=False)
    play(game, "pass", "pass")
    assert any("roll again" in e.text for e in game.log)
    assert game.flow.at("normal_timing") and not game.table.chain
    assert [o.source for o in game.table.outcomes] == ["speed"]  # only the first result was answerable


# ---------------------------------------------------------------- skill-card targets (point 9)

FAR = {
    "units": {
        "岩の巨人": {"owner": "A", "skills": "土"},
        "水の精": {"owner": "B", "skills": "水"},
        "見張り": {"owner": "B", "geo": "砦"},
    },
    "cards": {"足止め": {"owner": "A", "condition": "土", "timing": "通常", "effect": "exhaust"}},
    "geos": {"荒野": {"holder": "B"}, "本陣": {"holder": "A"}, "砦": {"holder": "B"}},
}


def test_act3_skill_card_in_battle_may_target_a_unit_outside_it_by_default() -> None:
    """ACT-3 limits abilities, not skill cards (variant skill_card_targets=anywhere_on_field):
    a skill card used in the battle may target a unit on the field outside it."""
    game = make(FAR["units"], FAR["cards"], geos=FAR["geos"])
    play(game, "A: use 足止め by 岩の巨人 on 見張り", "B: pass", "A: pass")
    assert game.table.units["見張り"].acted


def test_act3_skill_card_targets_battle_only_variant_refuses_under_act3() -> None:
    """ACT-3 (variant skill_card_targets=battle_only): the limit applies to skill cards too, and
    the refusal cites ACT-3 (the variant's clause), not SC-4."""
    game = make(FAR["units"], FAR["cards"], geos=FAR["geos"], variants={"skill_card_targets": "battle_only"})
    err = refused(game, "A: use 足止め by 岩の巨人 on 見張り", "ACT-3")
    assert "skill_card_targets" in str(err)
    assert game.why_not("A: use 足止め by 岩の巨人 on 水の精").legal


# ---------------------------------------------------------------- [ＭＦ] in whose main phase (point 10)

MF_UNITS = {
    "兵士": {"owner": "A", "skills": "無", "geo": "本陣"},
    "見張り": {"owner": "B", "skills": "風", "geo": "荒野", "abilities": [{"name": "偵察", "kind": "march"}]},
}
MF_CARDS = {"密偵": {"owner": "B", "condition": "風", "timing": "ＭＦ", "effect": "exhaust"}}


def test_tim_mf_own_main_phase_by_default_the_other_player_never_moves_in_it() -> None:
    """TIM-MF (variant mf_cards_in=own_main_phase): A's pass ends A's main phase at once, so B's
    [ＭＦ] card is used in B's own main phase only."""
    game = make(MF_UNITS, MF_CARDS, at="main_phase")
    assert not game.why_not("B: use 密偵 by 見張り on 兵士").legal
    play(game, "A: pass")
    assert game.table.active == "B" and game.actor() == "B"
    assert game.why_not("B: use 密偵 by 見張り on 兵士").legal


def test_tim_mf_any_main_phase_the_other_player_may_use_mf_before_it_ends() -> None:
    """TIM-MF (variant mf_cards_in=any_main_phase): [ＭＦ] is 'during the main phase'.  When A passes,
    B may use an [ＭＦ] card in A's main phase (but not advance or 【進軍】, MAR-1); after it resolves A
    decides again, and the main phase ends when both pass in a row."""
    game = make(MF_UNITS, MF_CARDS, at="main_phase", variants={"mf_cards_in": "any_main_phase"})
    play(game, "A: pass")
    assert game.table.active == "A" and game.actor() == "B" and game.flow.at("main_phase")
    refused(game, "B: activate 偵察 of 見張り on 兵士", "MAR-1")
    refused(game, "B: advance 見張り to 本陣", "FLOW-ADV")
    play(game, "B: use 密偵 by 見張り on 兵士", "A: pass", "B: pass")
    assert game.table.units["兵士"].acted
    assert game.actor() == "A" and game.table.active == "A"  # A's main phase goes on
    play(game, "A: pass", "B: pass")
    assert game.table.active == "B" and game.actor() == "B"


# ---------------------------------------------------------------- grants made in the main phase (point 11)


@pytest.mark.parametrize(("setting", "after"), [("end_of_main_phase", "無×1"), ("after_next_battle", "火×1 無×1")])
def test_tim_btl_main_phase_grant_lapses_as_the_variant_says(setting: str, after: str) -> None:
    """TIM-BTL (variant skills_granted_outside_battle_lapse): a grant from an [ＭＦ] card lapses when
    that main phase ends (default), or only when the next battle ends; it never pays in later turns."""
    game = make(
        {"術師": {"owner": "A", "skills": "無 無", "geo": "本陣"}, "水の精": {"owner": "B"}},
        {"火付け": {"owner": "A", "condition": "無", "timing": "ＭＦ", "target": "self", "effect": "grant 火"}},
        at="main_phase",
        variants={
            **changed("skills_granted_outside_battle_lapse", setting),
            "skills_used_outside_battle_return": "after_next_battle",
        },
    )
    play(game, "A: use 火付け by 術師", "B: pass", "A: pass")
    assert fmt(game.available(game.table.units["術師"])) == "火×1 無×1"
    play(game, "A: pass", "B: pass")  # B's main phase, then A's next one
    assert fmt(game.available(game.table.units["術師"])) == after


# ---------------------------------------------------------------- 行動完了 without the battle-end reset (point 13)


@pytest.mark.parametrize(("reset", "acted_again"), [(True, False), (False, True)])
def test_flow_cleanup_acted_unit_is_unacted_in_its_owners_next_main_phase(reset: bool, acted_again: bool) -> None:
    """FLOW-CLEANUP (variants reset_acted_at_battle_end=false, reset_acted_in_owner_main_phase):
    an attacker stays 行動完了 after the battle, until its owner's next main phase begins (default)."""
    game = make(
        {"岩の巨人": {"owner": "A"}, "水の精": {"owner": "B"}},
        variants={"reset_acted_at_battle_end": False, **changed("reset_acted_in_owner_main_phase", reset)},
    )
    play(game, "A: attack 水の精 with 岩の巨人", "B: pass", "A: pass")  # 水の精 destroyed: the battle ends
    assert game.flow.at("main_phase") and game.table.units["岩の巨人"].acted
    play(game, "A: pass")  # B's main phase: not 岩の巨人's owner's
    assert game.table.units["岩の巨人"].acted
    play(game, "B: pass")  # A's next main phase
    assert game.table.units["岩の巨人"].acted is acted_again


# ---------------------------------------------------------------- after a drawn battle (point 14)


def _drawn_battle(setting: str) -> Game:
    game = make(
        {
            "岩の巨人": {"owner": "A", "geo": "本陣"},
            "風の子": {"owner": "A", "geo": "本陣"},
            "水の精": {"owner": "B"},
        },
        at="main_phase",
        variants=changed("drawn_battle_advancers", setting),
    )
    play(game, "A: advance 岩の巨人 to 荒野")
    pass_until(game, lambda g: g.flow.at("main_phase"))  # both pass their normal timings: a draw
    assert game.table.geos["荒野"].holder == "B"
    return game


def test_flow_end_drawn_battle_advancer_stays_and_takes_part_in_the_next_battle_there() -> None:
    """FLOW-END, FLOW-ADV (variant drawn_battle_advancers=stay): the advancing unit stays at the geo,
    and the next battle there includes it, as a battle set up by start: includes every unit there."""
    game = _drawn_battle("stay")
    assert game.table.units["岩の巨人"].geo == "荒野"
    play(game, "A: advance 風の子 to 荒野")
    b = game.table.battle
    assert b is not None and set(b.participants) == {"風の子", "岩の巨人", "水の精"}
    started = make({"岩の巨人": {"owner": "A"}, "風の子": {"owner": "A"}, "水の精": {"owner": "B"}}, at="quick_summon")
    assert started.table.battle is not None and set(started.table.battle.participants) == set(b.participants)


def test_flow_end_drawn_battle_advancer_returns_where_it_came_from() -> None:
    """FLOW-END (variant drawn_battle_advancers=return): a side that did not take the geo goes back
    to the geo its advance came from."""
    game = _drawn_battle("return")
    assert game.table.units["岩の巨人"].geo == "本陣"
    assert any("goes back to 本陣" in e.text and e.clause == "FLOW-END" for e in game.log)
