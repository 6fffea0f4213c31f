"""Skill symbols, card conditions and paying for them (issue 2: SYM-*, SC-1..4, NAME-1, EQ-1).

The matcher (``can_pay`` / ``payment``) is checked against a brute-force search over every way of
handing pool symbols to demanded symbols; the game-level tests drive a small battle through
``Game.apply`` only.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import at_own_normal_timing, make, pass_until, play, refused
from hypothesis import given, settings
from hypothesis import strategies as st

from fsm.rules.skills import ALL, PALETTE, SYMBOLS, TOOL, SkillPool, Skills, can_pay, payment, pool, symbol

PACKAGE = Path(__file__).resolve().parents[1] / "fsm"

# ---------------------------------------------------------------- the symbols


def test_sym_1_nine_symbols_with_english_names() -> None:
    """SYM-1: exactly the nine symbols the game names, each readable by its English name too."""
    assert SYMBOLS == ("火", "水", "土", "風", "聖", "魔", "無", "全", "道具")
    english = ["fire", "water", "earth", "wind", "holy", "demonic", "neutral", "all", "tool"]
    assert [symbol(e) for e in english] == list(SYMBOLS)


def test_sym_1_palette_covers_every_symbol_once() -> None:
    """SYM-1: one colour per symbol, all different."""
    assert list(PALETTE) == list(SYMBOLS)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in PALETTE.values())
    assert len(set(PALETTE.values())) == len(SYMBOLS)


def test_sym_1_palette_lives_in_one_place() -> None:
    """SYM-1: the colours are defined in fsm/rules/skills.py only; everything else imports PALETTE."""
    colours = {c.lower() for c in PALETTE.values()}
    elsewhere = [
        f"{path.relative_to(PACKAGE.parent)}: {colour}"
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix in (".py", ".toml", ".yaml", ".css", ".json") and path.name != "skills.py"
        for colour in colours
        if colour in path.read_text(encoding="utf-8").lower()
    ]
    assert not elsewhere, f"symbol colours repeated outside fsm/rules/skills.py: {elsewhere}"


def test_sym_2_all_pays_for_every_symbol_but_tool() -> None:
    """SYM-2: 全 stands in for each of the other seven symbols (and for 全 itself)."""
    for s in SYMBOLS:
        assert can_pay({ALL: 1}, [{s: 1}]) == (s != TOOL), s


def test_sym_3_tool_only_by_tool() -> None:
    """SYM-3: 道具 is paid by 道具 alone, never by 全 or another symbol."""
    assert can_pay({TOOL: 1}, [{TOOL: 1}])
    assert not can_pay({ALL: 3, "土": 3}, [{TOOL: 1}])
    # and a 道具 is never spent on anything else
    assert not can_pay({TOOL: 1}, [{"土": 1}])
    assert not can_pay({TOOL: 1}, [{ALL: 1}])


# ---------------------------------------------------------------- the matcher against brute force

SMALL = st.sampled_from(["火", "土", "水", ALL, TOOL])
POOLS = st.lists(SMALL, max_size=4).map(Counter)
DEMANDS = st.lists(st.lists(SMALL, min_size=1, max_size=4).map(Counter), max_size=3)


def _covers(have: str, want: str) -> bool:
    return have == want or (have == ALL and want != TOOL)


def brute_force(have: Counter[str], demands: list[Counter[str]]) -> bool:
    """Try every assignment of single pool symbols to single demanded symbols."""
    wanted = [s for d in demands for s in d.elements()]
    pool_items = list(have.elements())
    if len(wanted) > len(pool_items):
        return False
    return any(
        all(_covers(pool_items[i], w) for i, w in zip(chosen, wanted, strict=True))
        for chosen in itertools.permutations(range(len(pool_items)), len(wanted))
    )


@settings(max_examples=300, deadline=None)
@given(POOLS, DEMANDS)
def test_sym_2_sym_3_can_pay_agrees_with_brute_force_in_any_order(have: Counter[str], demands: list) -> None:
    """SYM-2, SYM-3, SC-4: the exact matcher answers as brute force does, whatever the demand order."""
    expected = brute_force(have, demands)
    for order in itertools.permutations(demands):
        assert can_pay(have, list(order)) == expected, (have, order)


@settings(max_examples=300, deadline=None)
@given(POOLS, st.lists(SMALL, min_size=1, max_size=4).map(Counter), DEMANDS)
def test_sym_2_payment_spends_within_the_pool_and_keeps_the_rest_payable(
    have: Counter[str], need: Counter[str], rest: list
) -> None:
    """SYM-2, SC-7: ``payment`` spends exactly what the demand needs, from what is there, and leaves
    every other held demand payable whenever everything was payable together."""
    if not can_pay(have, [need]):
        return
    paid = payment(have, need)
    assert all(paid[s] <= have[s] for s in paid), (have, need, paid)
    assert sum(paid.values()) == sum(need.values())
    assert brute_force(paid, [need]), f"{paid} does not pay {need}"
    if can_pay(have, [need, *rest]):
        assert can_pay(have - paid, rest), (have, need, paid, rest)


def test_pool_reads_every_spelling() -> None:
    """SYM-1: the three ways a table file may write skills give the same multiset."""
    assert pool("土 土 全") == pool(["土", "earth", "all"]) == pool({"土": 2, "全": 1}) == Counter({"土": 2, "全": 1})


# ---------------------------------------------------------------- conditions in a game

UNITS = {
    "岩の巨人": {"owner": "A", "skills": "土"},
    "炎の剣士": {"owner": "A", "skills": "火 全"},
    "水の精": {"owner": "B", "skills": "水"},
}
CARDS = {
    "ストーンウォール": {"owner": "A", "condition": "土", "timing": "通常/反撃", "target": "none", "effect": "nothing"},
    "岩石落とし": {"owner": "A", "condition": "土", "timing": "反撃", "target": "none", "effect": "nothing"},
    "道具箱": {"owner": "A", "condition": "道具", "timing": "通常", "target": "none", "effect": "nothing"},
    "巨人の怒り": {
        "owner": "A",
        "condition": "土",
        "name_condition": "巨人",
        "timing": "通常",
        "target": "none",
        "effect": "nothing",
    },
}


def test_sc_1_condition_needed() -> None:
    """SC-1: only a unit that has the condition's skill may use the card."""
    g = make({**UNITS, "風の子": {"owner": "A", "skills": "風"}}, CARDS)
    err = refused(g, "A: use ストーンウォール by 風の子", "SC-1")
    assert "風の子" in err.message and "土×1" in err.message
    assert g.why_not("A: use ストーンウォール by 岩の巨人").legal
    assert g.why_not("A: use ストーンウォール by 炎の剣士").legal  # SYM-2: 全 pays for 土


def test_sym_3_all_never_pays_a_tool_condition_in_a_game() -> None:
    """SYM-3: a unit with only 全 cannot use a 道具 card, and the refusal says why."""
    g = make(UNITS, CARDS)
    err = refused(g, "A: use 道具箱 by 炎の剣士", "SYM-3")
    assert "道具" in err.message and "SYM-3" in err.message


def test_sc_4_nothing_consumed_at_declaration() -> None:
    """SC-4: declaring holds the condition but consumes nothing yet."""
    g = make(UNITS, CARDS)
    play(g, "A: use ストーンウォール by 岩の巨人")
    rock = g.table.units["岩の巨人"]
    assert not rock.skills.consumed
    assert g.table.chain[-1].reserved == (("土", 1),)


def test_sc_4_declaration_refused_when_pending_reservations_could_not_be_paid() -> None:
    """SC-4: one 土 cannot back two pending 土 declarations; the message names unit, skills and holder."""
    g = make(UNITS, CARDS)
    play(g, "A: use ストーンウォール by 岩の巨人", "B: pass")
    err = refused(g, "A: use 岩石落とし by 岩の巨人", "SC-4")
    assert "岩の巨人 has 土×1, already held by ストーンウォール" in err.message
    assert "岩石落とし" in err.message


def test_sc_4_reservations_are_checked_together_not_greedily() -> None:
    """SC-4, SYM-2: 火 全 can back a 土 card and then a 火 card: the 全 goes where it is needed."""
    cards = {
        "土の盾": {"owner": "A", "condition": "土", "timing": "通常/反撃", "target": "none", "effect": "nothing"},
        "火の盾": {"owner": "A", "condition": "火", "timing": "反撃", "target": "none", "effect": "nothing"},
        "全の盾": {"owner": "A", "condition": "全", "timing": "反撃", "target": "none", "effect": "nothing"},
    }
    g = make(UNITS, cards)
    play(g, "A: use 土の盾 by 炎の剣士", "B: pass", "A: use 火の盾 by 炎の剣士", "B: pass")
    err = refused(g, "A: use 全の盾 by 炎の剣士", "SC-4")
    assert "土の盾" in err.message and "火の盾" in err.message
    play(g, "A: pass")  # both resolve: 土 from 全, 火 from 火
    assert g.table.units["炎の剣士"].skills.consumed == Counter({"火": 1, "全": 1})


def test_sc_2_used_skill_lost_for_the_battle_sc_3_back_at_battle_end() -> None:
    """SC-2: the skill spent at resolution stays spent for the rest of the battle; SC-3: it returns
    when the battle ends."""
    g = make(UNITS, CARDS, variants={"attack_outcome": "none"})
    play(g, "A: use ストーンウォール by 岩の巨人", "B: pass", "A: pass")
    assert g.table.units["岩の巨人"].skills.consumed == Counter({"土": 1})
    play(g, "B: attack 岩の巨人 with 水の精")  # later in the same battle: no 土 left to counter with
    refused(g, "A: use 岩石落とし by 岩の巨人", "SC-1")
    play(g, "A: pass", "B: pass", "A: pass", "B: pass")  # the attack resolves; two passes end the battle
    assert g.flow.at("main_phase")
    assert not g.table.units["岩の巨人"].skills.consumed
    assert any(e.clause == "SC-3" and "岩の巨人" in e.text for e in g.log)


def test_name_1_name_condition() -> None:
    """NAME-1: only a unit whose card name contains the given name may use the card."""
    g = make(UNITS, CARDS)
    err = refused(g, "A: use 巨人の怒り by 炎の剣士", "NAME-1")
    assert "巨人" in err.message and "炎の剣士" in err.message
    assert g.why_not("A: use 巨人の怒り by 岩の巨人").legal


# ---------------------------------------------------------------- equips


EQUIP = {"大地の鎧": {"owner": "A", "type": "equip", "condition": "土"}}


def test_eq_1_equip_holds_its_condition_while_equipped() -> None:
    """EQ-1: an equipped card keeps its condition's skills busy: they cannot back a skill card."""
    cards = {**CARDS, "大地の鎧": {**EQUIP["大地の鎧"], "zone": "equipped", "equipped_to": "岩の巨人"}}
    g = make(UNITS, cards)
    err = refused(g, "A: use ストーンウォール by 岩の巨人", "EQ-1")
    assert "岩の巨人 has 土×1, already held by 大地の鎧" in err.message
    assert g.why_not("A: use ストーンウォール by 炎の剣士").legal  # the other unit is free


def test_eq_1_equip_needs_its_condition_and_frees_the_skills_when_taken_off() -> None:
    """EQ-1: equipping needs the condition; unequipping (quick-summon step 2) frees the skills again."""
    cards = {**CARDS, **EQUIP, "予備の鎧": {**EQUIP["大地の鎧"]}}
    g = make(UNITS, cards, at="quick_summon")
    play(g, "A: pass")  # step 1 → step 2 (equips)
    play(g, "A: equip 大地の鎧 on 岩の巨人")
    assert g.table.cards["大地の鎧"].zone == "equipped"
    refused(g, "A: equip 予備の鎧 on 岩の巨人", "EQ-1")  # its one 土 is already held
    play(g, "A: unequip 大地の鎧")
    assert g.table.cards["大地の鎧"].zone == "graveyard"
    pass_until(g, at_own_normal_timing("A"))
    assert g.why_not("A: use ストーンウォール by 岩の巨人").legal


def test_eq_1_equip_held_skills_kept_through_the_battle() -> None:
    """EQ-1: equipped in the quick-summon timing, the card still holds 土 in the normal timing."""
    g = make(UNITS, {**CARDS, **EQUIP}, at="quick_summon")
    play(g, "A: pass", "A: equip 大地の鎧 on 岩の巨人")
    pass_until(g, at_own_normal_timing("A"))
    refused(g, "A: use ストーンウォール by 岩の巨人", "EQ-1")


def test_eq_1_equip_stays_until_its_unit_leaves_and_is_then_discarded() -> None:
    """EQ-1: an equip stays on its unit through the battle; when the unit is destroyed, the equip is
    discarded with it and holds nothing any more."""
    cards = {
        **CARDS,
        "大地の鎧": {**EQUIP["大地の鎧"], "zone": "equipped", "equipped_to": "岩の巨人"},
        "破壊": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "destroy"},
    }
    g = make(UNITS, cards, variants={"attack_outcome": "none"})
    play(g, "A: attack 水の精 with 岩の巨人", "B: pass", "A: pass")
    assert g.table.cards["大地の鎧"].zone == "equipped"  # a whole exchange later, still there
    play(g, "B: attack 岩の巨人 with 水の精", "A: pass", "B: use 破壊 by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert g.table.units["岩の巨人"].destroyed
    armour = g.table.cards["大地の鎧"]
    assert (armour.zone, armour.equipped_to) == ("graveyard", None)
    assert any(e.clause == "EQ-1" and "大地の鎧" in e.text and "discarded" in e.text for e in g.log)


def test_sc2_a_pool_replaced_is_a_new_pool_as_dataclasses_replace_makes_it() -> None:
    """SC-2: a unit's used and granted skills change by a new pool; the old one, which a copy of
    the unit may share, stays as it was, and a mapping given is taken as Skills."""
    old = SkillPool(Skills({"剣": 2}), Skills({"剣": 1}))
    new = old.replacing(consumed={"剣": 2}, granted=Counter({"盾": 1}))
    assert new == dataclasses.replace(old, consumed=Skills({"剣": 2}), granted=Skills({"盾": 1}))
    assert type(new.granted) is Skills and new.base is old.base
    assert old == SkillPool(Skills({"剣": 2}), Skills({"剣": 1}))  # unchanged
    with pytest.raises(TypeError, match="no field spent"):
        old.replacing(spent={"剣": 1})
