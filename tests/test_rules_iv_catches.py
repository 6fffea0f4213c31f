"""Rules IV, the mutants the suite did not catch (issue 29, point 3).

Each test below fails on a one-line change to the rule it names that the rest of the suite
passed; the change is in the test's docstring ("kills: ...").  The machines' own mutants
(run to completion, the atomic state first, a failing callback) are in tests/test_compiled_crafted.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import make, pass_until, play, refused
from machine_trace import took
from test_procedures import CARDS, UNITS

from fsm.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- SYNC-1: a [戦闘] 【同調】【自動】
def _sync_auto(party: str | None) -> Game:
    units = {
        "兄": {
            "owner": "A",
            "skills": "風",
            "geo": "本陣",
            "party": "双子",
            "abilities": [{"name": "共闘", "kind": "auto", "timing": "戦闘", "sync": "弟", "effect": "grant 火"}],
        },
        "弟": {"owner": "A", "skills": "風", "geo": "本陣", "party": party},
        "見張り": {"owner": "B", "skills": "水"},
    }
    g = make(units, at="main_phase")
    play(g, "A: advance 兄 to 荒野")
    return g


@pytest.mark.parametrize("party", ["双子", None])
def test_sync_1_battle_auto_activates_only_with_its_partner_in_the_party(party: str | None) -> None:
    """SYNC-1: a 【同調】【自動】[戦闘] takes effect at battle start only if a unit named 弟 is in its
    party; without one it does not activate and grants nothing.
    kills: steps.battle_start without the partner check."""
    g = _sync_auto(party)
    brother = g.table.units["兄"]
    if party:
        assert brother.skills.granted == {"火": 1}
        assert any(o.source == "共闘" and o.result == "resolved" for o in g.table.outcomes)
    else:
        assert not brother.skills.granted
        assert not any(o.source == "共闘" for o in g.table.outcomes)
        assert any(e.clause == "SYNC-1" and "共闘" in e.text and "does not activate" in e.text for e in g.log)


# ---------------------------------------------------------------- COST-3: what a choice names
def _mage(cost: str, cards: dict[str, Any], others: dict[str, Any] | None = None) -> Game:
    units = {
        "魔術師": {
            "owner": "A",
            "skills": "火",
            "abilities": [{"name": "火球", "kind": "cost", "timing": "通常", "cost": cost, "effect": "exhaust"}],
        },
        "水の精": {"owner": "B", "skills": "水"},
        **(others or {}),
    }
    return make(units, cards)


BOOKS = {
    "炎の書": {"owner": "A", "condition": "火", "timing": "通常"},
    "氷の書": {"owner": "A", "condition": "水", "timing": "通常"},
    "風の書": {"owner": "A", "condition": "風", "timing": "通常"},
}


def test_cost_3_naming_part_of_a_choice_is_refused() -> None:
    """COST-3: a 代償 of two cards from the hand needs both named; naming one is refused, naming two plays.
    kills: paying.choose matching a choice that only contains the names given."""
    g = _mage("手札2枚", BOOKS)
    err = refused(g, "A: activate 火球 of 魔術師 on 水の精 paying 炎の書", "COST-3")
    assert "2 in all" in err.message
    assert g.why_not("A: activate 火球 of 魔術師 on 水の精 paying 炎の書 and 氷の書").legal


@pytest.mark.parametrize("word", ["スキル", "skill"])
def test_cost_3_card_type_filter_reads_in_both_languages(word: str) -> None:
    """COST-3: a part filtered by card type (手札1枚(スキル)) takes only a skill card, whichever
    language names the type; the equip in the hand cannot pay it.
    kills: price_parts._read_filter keeping the word as written instead of its type."""
    cards = {"炎の書": BOOKS["炎の書"], "鉄の剣": {"owner": "A", "type": "equip", "condition": "火"}}
    g = _mage(f"手札1枚({word})", cards)
    assert "A: activate 火球 of 魔術師 on 水の精" in {str(m) for m in g.legal_moves()}
    refused(g, "A: activate 火球 of 魔術師 on 水の精 paying 鉄の剣", "COST-3")
    play(g, "A: activate 火球 of 魔術師 on 水の精")
    assert g.table.cards["炎の書"].zone == "graveyard" and g.table.cards["鉄の剣"].zone == "hand"


def test_cost_3_a_unit_already_acted_cannot_pay_an_exhaust_part() -> None:
    """COST-3: 行動完了1体 makes another unit 行動完了; one that already is cannot pay it.
    kills: paying.candidates offering an acted unit to an exhaust part."""
    helper = {"従者": {"owner": "A", "skills": "土", "acted": True}}
    g = _mage("行動完了1体", {}, helper)
    err = refused(g, "A: activate 火球 of 魔術師 on 水の精", "COST-3")
    assert "行動未完了" in err.message
    with_fresh = _mage("行動完了1体", {}, {"従者": {"owner": "A", "skills": "土"}})
    assert with_fresh.why_not("A: activate 火球 of 魔術師 on 水の精").legal


# ---------------------------------------------------------------- the scope of normal_action_acts
def test_flow_normal_variant_normal_action_acts_off_still_exhausts_an_action() -> None:
    """ACT-7 with FLOW-NORMAL (variant normal_action_acts=false): the variant is about the normal
    timing's own act (an attack, a skill card); a 【行動】 still makes its unit 行動完了 as its price.
    kills: prices._act skipping the price for every kind under the variant."""
    g = make(UNITS, CARDS, variants={"normal_action_acts": False})
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    pass_until(g, lambda g: g.table.outcomes)
    assert [o.result for o in g.table.outcomes] == ["resolved"]
    assert g.table.units["岩の巨人"].acted
    assert any(e.clause == "ACT-7" and "岩の巨人 becomes 行動完了" in e.text for e in g.log)


# ---------------------------------------------------------------- ACT-6: why it fizzled
def test_act_6_a_discarded_unit_fizzles_for_being_discarded() -> None:
    """ACT-6: a 【行動】 whose unit is 破棄 before the recheck fizzles, and the reason says 撃破/破棄
    (not only that the unit left the field).
    kills: recheck 'destroyed' looking at 撃破 only (off_field still fizzles it, with another reason)."""
    g = make(UNITS, {**CARDS, "消去": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "discard"}})
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: use 消去 by 水の精 on 岩の巨人", "A: pass", "B: pass")
    rock = next(o for o in g.table.outcomes if o.source == "岩砕き")
    assert (rock.result, rock.clause) == ("fizzled", "ACT-6")
    assert "撃破/破棄" in rock.reason, rock.reason
    assert "destroyed" in took(g, "岩砕き", "fizzle", "fizzled").failed  # the recheck the machine made


# ---------------------------------------------------------------- FLOW-ADV: where a unit advances
def test_flow_adv_a_unit_cannot_advance_to_the_geo_it_is_at() -> None:
    """FLOW-ADV: advancing moves a unit to another geo; to its own geo is refused.
    kills: legality of advance without the same-geo check."""
    g = make({"岩の巨人": {"owner": "A", "geo": "本陣"}, "水の精": {"owner": "B"}}, at="main_phase")
    err = refused(g, "A: advance 岩の巨人 to 本陣", "FLOW-ADV")
    assert "already at 本陣" in err.message
    assert "A: advance 岩の巨人 to 本陣" not in {str(m) for m in g.legal_moves()}


# ---------------------------------------------------------------- FLOW-SPD: who is asked first
def _speed(seed: int, choice: str) -> Game:
    units = {"岩の巨人": {"owner": "A", "speed": 0}, "水の精": {"owner": "B", "speed": 0}}
    return make(units, at="speed", seed=seed, variants={"speed_window_first": choice})


def test_flow_spd_speed_window_first_defending_asks_the_defending_side_whoever_is_ahead() -> None:
    """FLOW-SPD (variant speed_window_first): with `defending`, B (defending) is asked first about the
    dice result even where B is ahead; with `behind`, the player behind is.  Some seed puts B ahead,
    so the two choices differ there.
    kills: steps.offer_speed_result ignoring the variant."""
    b_ahead = 0
    for seed in range(1, 25):
        behind, defending = _speed(seed, "behind"), _speed(seed, "defending")
        totals = behind.table.battle.totals()  # type: ignore[union-attr]
        assert defending.actor() == "B", seed
        if totals["A"] != totals["B"]:
            assert behind.actor() == min(totals, key=lambda p: totals[p]), (seed, totals)
        b_ahead += totals["B"] > totals["A"]
    assert b_ahead, "no seed puts the defending side ahead: the test would not tell the choices apart"


# ---------------------------------------------------------------- the timeline's first frame of a move
def test_timeline_a_move_that_moves_no_machine_shows_no_transition_as_just_taken() -> None:
    """The step-through's timeline (fsm/notebook/timeline.py): a move that takes no machine
    transition (an equip at the quick-summon timing, EQ-1) gets one frame, drawn with the machines
    where they stand and no edge just taken — not the previous move's.
    kills: timeline.frames keeping the previous move's trace at a new move's echo."""
    from fsm.notebook.timeline import frames
    from fsm.scenarios.playing import play as play_file

    game = play_file(ROOT / "scenarios" / "equip_holds_skill.yaml", expectations=False).game
    by_move: dict[int, list[Any]] = {}
    for frame in frames(game.log):
        by_move.setdefault(frame.move, []).append(frame)
    lone = [m for m, fs in by_move.items() if m and len(fs) == 1 and "equip" in fs[0].label]
    assert lone, "the scenario no longer has a move without a transition"
    for m in lone:
        (frame,) = by_move[m]
        before = by_move[m - 1][-1]
        assert frame.trace is not None and before.trace is not None
        assert (frame.trace.machine, frame.trace.event) == ("", ""), frame.trace
        assert before.trace.event  # the move before did take a transition
        assert frame.trace.flow == before.trace.flow  # the machines still stand where they stood
