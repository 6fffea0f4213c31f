"""The ability procedures, step by step (issue 3: ACT-*, COST-*, SD-*, MAR-*, SYNC-*, SC-4..7, AUTO-1).

Each test plays a small battle through ``Game.apply`` and checks the consequence the clause names:
what changed at declaration, what happened in the counter window, why an item fizzled, and the
order in which price and effect happen at resolution (read from ``game.log``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import log_index, make, outcome, play, refused, texts
from machine_trace import took

from fsm.engine.game import Game
from fsm.machines.chain import priority
from fsm.machines.procedures import EVENTLESS_STEPS, procedure_class
from fsm.spec.kinds import KindSpec
from fsm.spec.ruleset import builtin

ROCK = {
    "owner": "A",
    "skills": "土 土 全",
    "party": "p1",
    "abilities": [
        {"name": "岩砕き", "kind": "action", "timing": "通常/反撃", "effect": "destroy", "dice": True},
        {"name": "地割れ", "kind": "cost", "timing": "通常/反撃", "cost": "土", "effect": "exhaust", "dice": True},
        {"name": "大爆発", "kind": "self_destruct", "timing": "通常/反撃", "effect": "destroy", "dice": True},
        {"name": "行軍歌", "kind": "march", "effect": "exhaust"},
        {"name": "自然治癒", "kind": "auto", "effect": "grant 無"},
    ],
}
UNITS = {
    "岩の巨人": ROCK,
    "風の子": {
        "owner": "A",
        "skills": "風",
        "party": "p1",
        "abilities": [{"name": "共鳴", "kind": "action", "sync": "巨人", "effect": "exhaust"}],
    },
    "水の精": {"owner": "B", "skills": "水 水 水"},
    "炎の番人": {"owner": "B", "skills": "火"},
    "留守番": {"owner": "B", "skills": "無", "geo": "本陣"},  # on the field, not in the battle
}
CARDS = {
    "足止め": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "exhaust"},
    "押し返し": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "bounce"},
    "破壊の術": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "destroy"},
    "引き離し": {"owner": "B", "condition": "火", "timing": "反撃", "effect": "leave_party"},
    "石つぶて": {"owner": "A", "condition": "土", "timing": "通常/反撃", "effect": "exhaust"},
}


def game(at: str = "normal_timing", **variants: object) -> Game:
    return make(UNITS, CARDS, at=at, variants=variants)


# ---------------------------------------------------------------- 【行動】 action


def test_act_1_only_in_a_battle() -> None:
    """ACT-1: an action cannot be declared outside a battle."""
    refused(game("main_phase"), "A: activate 岩砕き of 岩の巨人 on 水の精", "ACT-1")


def test_act_1_only_while_not_acted_and_acting_is_the_price() -> None:
    """ACT-1: a 行動完了 unit cannot declare it; resolving it makes the unit 行動完了."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass", "A: pass")
    assert g.table.units["岩の巨人"].acted
    assert outcome(g, "岩砕き") == ("resolved", "ACT-7")
    play(g, "B: attack 岩の巨人 with 炎の番人")  # a window in which 岩の巨人 could answer
    refused(g, "A: activate 岩砕き of 岩の巨人 on 炎の番人", "ACT-1")


def test_act_2_declared_once_while_not_acted() -> None:
    """ACT-2: a second declaration of the same action before the unit acts is refused."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass")
    err = refused(g, "A: activate 岩砕き of 岩の巨人 on 炎の番人", "ACT-2")
    assert "already declared" in err.message


@pytest.mark.parametrize("uses_chance", [True, False])
def test_act_2_variant_fizzled_action_uses_chance(uses_chance: bool) -> None:
    """ACT-2 (variant fizzled_action_uses_chance): an action that fizzled while its unit stayed
    行動未完了 (its 【同調】 partner left) may be declared again only when the variant says the
    fizzle did not use up the chance."""
    g = game(fizzled_action_uses_chance=uses_chance)
    play(g, "A: activate 共鳴 of 風の子 on 水の精", "B: use 引き離し by 炎の番人 on 岩の巨人", "A: pass", "B: pass")
    assert outcome(g, "共鳴") == ("fizzled", "SYNC-1")
    assert not g.table.units["風の子"].acted
    play(g, "B: pass")  # back to A's normal timing, same battle
    g.table.units.edit("岩の巨人").party = "p1"  # set-up: the partner rejoins (no card on this table does that)
    move = "A: activate 共鳴 of 風の子 on 水の精"
    if uses_chance:
        refused(g, move, "ACT-2")
    else:
        assert g.why_not(move).legal


@pytest.mark.parametrize(("ability", "clause"), [("岩砕き", "ACT-3"), ("地割れ", "COST-2"), ("大爆発", "SD-3")])
def test_act_3_cost_2_sd_3_target_outside_the_battle_refused(ability: str, clause: str) -> None:
    """ACT-3, COST-2, SD-3: a unit on the field but not in this battle cannot be targeted."""
    g = game()
    err = refused(g, f"A: activate {ability} of 岩の巨人 on 留守番", clause)
    assert "留守番" in err.message and "battle" in err.message
    assert g.why_not(f"A: activate {ability} of 岩の巨人 on 水の精").legal


def test_act_4_declaration_changes_nothing_and_dice_come_first() -> None:
    """ACT-4: right after declaring, the unit is still 行動未完了, the target untouched, and the dice
    already rolled (logged before the counter window opens), so the opponent decides knowing them."""
    g = game()
    start = len(g.log)
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    rock, water = g.table.units["岩の巨人"], g.table.units["水の精"]
    assert not rock.acted and water.on_field and not water.destroyed
    item = g.table.chain[-1]
    assert item.dice is not None and 1 <= item.dice <= 6
    declared = log_index(g, "declares 【行動】 岩砕き", start)
    dice = log_index(g, f"dice for #{item.seq}: {item.dice}", start)
    window = log_index(g, "counter window opens", start)
    assert declared < dice < window
    assert priority(g.table) == "B" and g.actor() == "B"


def test_act_5_opponent_may_counter() -> None:
    """ACT-5: in the counter window the opponent's [反撃] cards are legal answers."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    assert "B: use 足止め by 水の精 on 岩の巨人" in texts(g)


@pytest.mark.parametrize(
    ("card", "reason", "failed"),
    [
        ("足止め", "行動完了", ("acted",)),
        ("破壊の術", "撃破", ("destroyed", "off_field")),
        ("押し返し", "no longer on the field", ("off_field",)),
    ],
)
def test_act_6_recheck_fizzles(card: str, reason: str, failed: tuple[str, ...]) -> None:
    """ACT-6: after the counters resolve, an acted / destroyed / removed unit's action fizzles and its
    effect never happens; the procedure machine took its fizzle edge on exactly those conditions."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", f"B: use {card} by 水の精 on 岩の巨人", "A: pass", "B: pass")
    result, clause = outcome(g, "岩砕き")
    assert (result, clause) == ("fizzled", "ACT-6")
    assert took(g, "岩砕き", "fizzle", "fizzled").failed == failed
    assert reason in [o for o in g.table.outcomes if o.source == "岩砕き"][0].reason
    assert not g.table.units["水の精"].destroyed


def test_act_7_unit_acts_first_then_effect() -> None:
    """ACT-7: at resolution the unit becomes 行動完了, and only then the effect happens."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass")
    assert not g.table.units["岩の巨人"].acted  # still not, after the window closed on one side
    start = len(g.log)
    play(g, "A: pass")
    assert log_index(g, "岩の巨人 becomes 行動完了", start) < log_index(g, "水の精 is destroyed", start)
    assert g.table.units["岩の巨人"].acted and g.table.units["水の精"].destroyed


# ---------------------------------------------------------------- 【代償】 cost


def test_cost_1_only_in_a_battle() -> None:
    """COST-1: a cost ability is not declared outside a battle."""
    refused(game("main_phase"), "A: activate 地割れ of 岩の巨人 on 水の精", "COST-1")


def test_cost_1_any_number_of_times_while_the_cost_can_be_paid() -> None:
    """COST-1, COST-3: declared again and again (the unit has 土 土 全: three 土 costs), then refused
    when nothing is left to pay with."""
    g = game()
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精", "B: pass")
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精", "B: pass")
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精", "B: pass")
    assert g.table.units["岩の巨人"].skills.consumed == Counter({"土": 2, "全": 1})
    err = refused(g, "A: activate 地割れ of 岩の巨人 on 水の精", "COST-3")
    assert "代償" in err.message
    play(g, "A: pass")
    assert [o.result for o in g.table.outcomes if o.source == "地割れ"] == ["resolved"] * 3


def test_cost_3_paid_at_declaration_then_dice() -> None:
    """COST-3: the 代償 is gone right after declaring, before any counter; the dice follow the payment."""
    g = game()
    start = len(g.log)
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精")
    assert g.table.units["岩の巨人"].skills.consumed == Counter({"土": 1})
    assert g.table.chain[-1].paid == (("土", 1),)
    assert log_index(g, "pays the 代償 土×1", start) < log_index(g, "dice for", start)
    assert log_index(g, "dice for", start) < log_index(g, "counter window opens", start)


def test_cost_4_counter_window() -> None:
    """COST-4: the opponent may answer a cost ability."""
    g = game()
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精")
    assert priority(g.table) == "B"
    assert "B: use 破壊の術 by 水の精 on 岩の巨人" in texts(g)


def test_cost_5_acted_does_not_stop_it() -> None:
    """COST-5: unlike an action, a cost ability still resolves when its unit was made 行動完了."""
    g = game()
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精", "B: use 足止め by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert g.table.units["岩の巨人"].acted
    assert outcome(g, "地割れ") == ("resolved", "COST-6")
    assert took(g, "地割れ", "resolve", "resolved").left == ("recheck",)  # rechecked, and held
    assert g.table.units["水の精"].acted  # COST-6: the effect happened


@pytest.mark.parametrize(("refund", "consumed"), [(False, Counter({"土": 1})), (True, Counter())])
def test_cost_5_fizzle_and_refund_variant(refund: bool, consumed: Counter[str]) -> None:
    """COST-5: destroyed before resolution, it fizzles; the paid 代償 stays spent unless the variant
    refund_cost_on_fizzle gives it back."""
    g = game(refund_cost_on_fizzle=refund)
    play(g, "A: activate 地割れ of 岩の巨人 on 水の精", "B: use 押し返し by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert outcome(g, "地割れ") == ("fizzled", "COST-5")
    assert took(g, "地割れ", "fizzle", "fizzled").failed == ("off_field",)
    assert not g.table.units["水の精"].acted
    assert +g.table.units["岩の巨人"].skills.consumed == consumed
    assert any(e.clause == "COST-5" and "refunded" in e.text for e in g.log) is refund


# ---------------------------------------------------------------- 【自爆】 self-destruct


def test_sd_1_only_in_a_battle() -> None:
    """SD-1: a self-destruct is not declared outside a battle."""
    refused(game("main_phase"), "A: activate 大爆発 of 岩の巨人 on 水の精", "SD-1")


def test_sd_2_once_per_battle() -> None:
    """SD-2: a second declaration in the same battle is refused."""
    g = game()
    play(g, "A: activate 大爆発 of 岩の巨人 on 水の精", "B: pass")
    refused(g, "A: activate 大爆発 of 岩の巨人 on 炎の番人", "SD-2")


def test_sd_4_declaring_keeps_the_unit_and_rolls_dice() -> None:
    """SD-4: after declaring, the unit is still on the field; the dice are already rolled."""
    g = game()
    start = len(g.log)
    play(g, "A: activate 大爆発 of 岩の巨人 on 水の精")
    assert g.table.units["岩の巨人"].on_field and not g.table.units["岩の巨人"].discarded
    assert g.table.chain[-1].dice is not None
    assert log_index(g, "dice for", start) < log_index(g, "counter window opens", start)


def test_sd_5_counter_window() -> None:
    """SD-5: the opponent may answer a self-destruct."""
    g = game()
    play(g, "A: activate 大爆発 of 岩の巨人 on 水の精")
    assert "B: use 足止め by 水の精 on 岩の巨人" in texts(g)


def test_sd_6_fizzles_when_destroyed_first() -> None:
    """SD-6: a unit destroyed by a counter cannot pay with itself; the effect never happens."""
    g = game()
    play(g, "A: activate 大爆発 of 岩の巨人 on 水の精", "B: use 破壊の術 by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert outcome(g, "大爆発") == ("fizzled", "SD-6")
    assert took(g, "大爆発", "fizzle", "fizzled").failed == ("destroyed", "off_field")
    assert g.table.units["水の精"].on_field
    assert g.table.units["岩の巨人"].destroyed and not g.table.units["岩の巨人"].discarded


def test_sd_6_acted_does_not_stop_it() -> None:
    """SD-6: being 行動完了 is not a reason to fizzle."""
    g = game()
    play(g, "A: activate 大爆発 of 岩の巨人 on 水の精", "B: use 足止め by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert outcome(g, "大爆発") == ("resolved", "SD-7")
    assert took(g, "大爆発", "resolve", "resolved").left == ("recheck",)


def test_sd_7_discarded_only_at_resolution_then_effect() -> None:
    """SD-7: the unit is discarded when the self-destruct resolves, then the effect happens."""
    g = game()
    play(g, "A: activate 大爆発 of 岩の巨人 on 水の精", "B: pass")
    assert g.table.units["岩の巨人"].on_field  # not yet: still in the window
    start = len(g.log)
    play(g, "A: pass")
    rock = g.table.units["岩の巨人"]
    assert rock.discarded and rock.zone == "graveyard" and not rock.destroyed
    assert log_index(g, "岩の巨人 is discarded", start) < log_index(g, "水の精 is destroyed", start)


# ---------------------------------------------------------------- 【進軍】 march


def test_mar_1_only_in_the_owners_main_phase() -> None:
    """MAR-1: refused in a battle, and refused once the unit is 進軍完了."""
    refused(game(), "A: activate 行軍歌 of 岩の巨人 on 水の精", "MAR-1")
    g = game("main_phase")
    play(g, "A: activate 行軍歌 of 岩の巨人 on 水の精")
    assert g.table.units["岩の巨人"].marched
    refused(g, "A: activate 行軍歌 of 岩の巨人 on 炎の番人", "MAR-1")


def test_mar_1_not_in_the_opponents_main_phase() -> None:
    """MAR-1: in B's main phase, A's march is refused under MAR-1 itself (only in its owner's main
    phase), not as a mere "not your turn"."""
    g = game("main_phase")
    play(g, "A: pass")
    assert g.actor() == "B"
    err = refused(g, "A: activate 行軍歌 of 岩の巨人 on 水の精", "MAR-1")
    assert "owner's main phase" in err.message


def test_mar_2_any_field_target() -> None:
    """MAR-2: a march may target a unit that takes part in no battle."""
    g = game("main_phase")
    play(g, "A: activate 行軍歌 of 岩の巨人 on 留守番")
    assert g.table.units["留守番"].acted


def test_mar_3_no_counter_window() -> None:
    """MAR-3: declared, 進軍完了, effect — all in one move; nobody gets priority."""
    g = game("main_phase")
    start = len(g.log)
    play(g, "A: activate 行軍歌 of 岩の巨人 on 水の精")
    assert not g.table.chain and priority(g.table) is None
    assert outcome(g, "行軍歌") == ("resolved", "MAR-3")
    assert log_index(g, "no counter window", start) < log_index(g, "becomes 進軍完了", start)
    assert log_index(g, "becomes 進軍完了", start) < log_index(g, "水の精 becomes 行動完了", start)
    assert not any(e.machine == "CounterChain" for e in g.log[start:])


# ---------------------------------------------------------------- 【同調】 sync


def test_sync_1_partner_needed_at_declaration() -> None:
    """SYNC-1: without a partner of the named card in its party, a sync ability cannot be declared."""
    g = game()
    g.table.units["岩の巨人"].party = "p2"  # set-up: the partner stands in another party
    err = refused(g, "A: activate 共鳴 of 風の子 on 水の精", "SYNC-1")
    assert "巨人" in err.message


def test_sync_1_partner_rechecked_before_resolution() -> None:
    """SYNC-1: the partner leaving the party during the counter window makes it fizzle."""
    g = game()
    play(g, "A: activate 共鳴 of 風の子 on 水の精", "B: use 引き離し by 炎の番人 on 岩の巨人", "A: pass", "B: pass")
    assert outcome(g, "共鳴") == ("fizzled", "SYNC-1")
    assert not g.table.units["水の精"].acted


def test_sync_2_follows_the_wrapped_kinds_procedure() -> None:
    """SYNC-2: a 【同調】【行動】 is an action in every step (acts at resolution, ACT-7) plus the
    partner check; each built-in ability kind keeps its steps when wrapped."""
    g = game()
    play(g, "A: activate 共鳴 of 風の子 on 水の精")
    assert not g.table.units["風の子"].acted
    play(g, "B: pass", "A: pass")
    assert g.table.units["風の子"].acted and outcome(g, "共鳴") == ("resolved", "ACT-7")
    rules = builtin()
    for key, spec in rules.kinds.items():
        if spec.category != "ability":
            continue
        wrapped = rules.kind(key, sync=True)
        same = ("usable", "price", "price_paid", "frequency", "targets", "counter_window", "counterable", "clauses")
        assert all(getattr(wrapped, f) == getattr(spec, f) for f in same), key
        assert wrapped.fizzle_if == (*spec.fizzle_if, "partner_left")
        assert wrapped.label == f"【同調】{spec.label}"


# ---------------------------------------------------------------- skill cards (SC-4..7)


def test_sc_4_card_leaves_the_hand_when_declared() -> None:
    """SC-4: the card is revealed from the hand and named with its user and target."""
    g = game()
    play(g, "A: use 石つぶて by 岩の巨人 on 水の精")
    assert g.table.cards["石つぶて"].zone == "chain"
    item = g.table.chain[-1]
    assert (item.source, item.unit, item.target, item.declarer) == ("石つぶて", "岩の巨人", "水の精", "A")


def test_sc_5_opponent_of_the_skills_declarer_first() -> None:
    """SC-5: after a skill is declared, its declarer's opponent is asked first."""
    g = game()
    play(g, "A: use 石つぶて by 岩の巨人 on 水の精")
    assert priority(g.table) == "B"
    refused(g, "A: pass", "TIM-CTR-2")


def test_sc_6_fizzled_card_goes_to_the_graveyard() -> None:
    """SC-6: the user stripped of its condition: no effect, and the card goes to the graveyard."""
    cards = {**CARDS, "吸収": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "strip 土"}}
    units = {**UNITS, "土の子": {"owner": "A", "skills": "土"}}
    g = make(units, cards)
    play(g, "A: use 石つぶて by 土の子 on 水の精", "B: use 吸収 by 水の精 on 土の子", "A: pass", "B: pass")
    assert outcome(g, "石つぶて") == ("fizzled", "SC-6")
    assert took(g, "石つぶて", "fizzle", "fizzled").failed == ("condition_unmet",)
    assert g.table.cards["石つぶて"].zone == "graveyard"
    assert not g.table.units["水の精"].acted


def test_sc_6_fizzles_when_the_user_leaves_the_field() -> None:
    """SC-6: a user bounced to the hand: no effect, card to the graveyard, not back to the hand."""
    g = game()
    play(g, "A: use 石つぶて by 岩の巨人 on 水の精", "B: use 押し返し by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert outcome(g, "石つぶて") == ("fizzled", "SC-6")
    assert took(g, "石つぶて", "fizzle", "fizzled").failed == ("off_field",)
    assert g.table.cards["石つぶて"].zone == "graveyard"


def test_sc_7_consume_then_effect_then_graveyard() -> None:
    """SC-7: at resolution the condition is consumed, the effect happens, then the card is discarded."""
    g = game()
    play(g, "A: use 石つぶて by 岩の巨人 on 水の精", "B: pass")
    start = len(g.log)
    play(g, "A: pass")
    used = log_index(g, "uses 土×1 for 石つぶて", start)
    effect = log_index(g, "水の精 becomes 行動完了", start)
    grave = log_index(g, "石つぶて goes to the graveyard", start)
    assert used < effect < grave
    assert g.table.units["岩の巨人"].skills.consumed == Counter({"土": 1})


# ---------------------------------------------------------------- 【自動】 auto (declaring)


def test_auto_1_never_declared() -> None:
    """AUTO-1: an auto ability takes effect by itself; a player cannot declare it."""
    g = game()
    refused(g, "A: activate 自然治癒 of 岩の巨人 on 水の精", "AUTO-1")
    assert not any("自然治癒" in m for m in texts(g))


# ---------------------------------------------------------------- the machines say what their kinds do


def _transitions(spec: KindSpec) -> list[tuple[str, str, str, list[str]]]:
    """(source, target, event, guards) of every transition of the kind's compiled machine."""
    cls = procedure_class(spec)
    return [
        (t.source.id, t.target.id, event, [str(c) for c in t.cond])
        for state in cls.states
        for t in state.transitions
        # a transition the machine takes by itself is named for the step it takes
        for event in ([str(e.id) for e in t.events] or [EVENTLESS_STEPS[t.target.id]])
    ]


def _every_kind() -> list[KindSpec]:
    rules = builtin()
    return [*rules.kinds.values(), *(s.with_sync() for s in rules.kinds.values() if s.category == "ability")]


def test_auto_1_machine_activates_by_itself_and_cannot_fizzle() -> None:
    """AUTO-1, AUTO-3: the 【自動】 machine starts with 自動発動 (it activates by itself), not with a
    player's declaration, and has no recheck, no fizzle and no guard: it always resolves."""
    spec = builtin().kinds["auto"]
    edges = _transitions(spec)
    first = [event for source, _, event, _ in edges if source == "idle"]
    assert first == ["activate"], first
    assert "declare" not in {event for _, _, event, _ in edges}
    states = {s.id for s in procedure_class(spec).states}
    assert not states & {"declared", "recheck", "fizzled"}, states
    assert not any(guards for *_, guards in edges)
    assert [event for *_, event, _ in edges] == ["activate", "resolve"]


@pytest.mark.parametrize("spec", _every_kind(), ids=lambda s: s.key)
def test_act_6_mar_3_only_a_kind_with_fizzle_conditions_has_a_recheck(spec: KindSpec) -> None:
    """ACT-6, COST-5, SD-6, SC-6, SYNC-1 / MAR-3, AUTO-1, FLOW-SPD: the recheck branch (a recheck
    state, a fizzled state, one fizzle edge per condition, guards on resolve) exists exactly when
    the kind has something to recheck; a 【進軍】, an auto or the speed roll goes straight to resolving."""
    edges = _transitions(spec)
    states = {s.id for s in procedure_class(spec).states}
    guards = {g.lstrip("!") for *_, gs in edges for g in gs}
    if spec.fizzle_if:
        assert {"recheck", "fizzled"} <= states
        assert len([e for e in edges if e[2] == "fizzle"]) == len(spec.fizzle_if)
        assert len(guards) == len(spec.fizzle_if)
    else:
        assert not states & {"recheck", "fizzled"}, states
        assert not guards and "fizzle" not in {e[2] for e in edges}
        start = "activated" if spec.frequency == "automatic" else "declared"
        into_resolved = [(source, event) for source, target, event, _ in edges if target == "resolved"]
        # its turn on the chain (newest first), or at once when it has no window
        assert into_resolved == [("counter_window", "close_window") if spec.counter_window else (start, "resolve")]


@pytest.mark.parametrize("spec", _every_kind(), ids=lambda s: s.key)
def test_auto_1_flow_spd_only_what_nobody_declares_activates_by_itself(spec: KindSpec) -> None:
    """AUTO-1, FLOW-SPD: an auto and the speed roll (frequency automatic) start with 自動発動;
    every kind a player uses starts with a declaration (ACT-4, COST-3, SD-4, MAR-3, SC-4)."""
    first = [event for source, _, event, _ in _transitions(spec) if source == "idle"]
    assert first == (["activate"] if spec.frequency == "automatic" else ["declare"])
