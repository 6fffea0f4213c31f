"""Rules IV, the open points (issue 29, point 2): what the rules say can never be used is refused
at load, naming the clause; each test failed on 75e2f96, where the file loaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_rules_ii_bugs import refused_on_load

from fsm.cli import main
from fsm.explore.explorer import explore_file, format_report
from fsm.machines.trace import PROCEDURE
from fsm.rules.variants import endless
from fsm.scenarios.playing import load

ROOT = Path(__file__).resolve().parents[1]


def _unit(ability: str) -> str:
    return f"units:\n  a:\n    owner: A\n    abilities:\n      - {ability}\n"


@pytest.mark.parametrize(
    ("kind", "timing", "clause"),
    [
        ("action", "ＭＦ", "ACT-1"),
        ("cost", "ＭＦ", "COST-1"),
        ("self_destruct", "ＭＦ", "SD-1"),
        ("march", "通常", "MAR-1"),
        ("march", "反撃", "MAR-1"),
        ("march", "スピード", "MAR-1"),
        ("march", "ＭＦ/反撃", "MAR-1"),
    ],
)
def test_kinds_and_timings_that_never_meet_are_refused_on_load(
    tmp_path: Path, kind: str, timing: str, clause: str
) -> None:
    """ACT-1, COST-1, SD-1: 【行動】【代償】【自爆】 are used only in a battle, so never at [ＭＦ];
    MAR-1: a 【進軍】 only in its owner's main phase, so never at [通常] or a [反撃]."""
    text = _unit(f"{{name: 技, kind: {kind}, timing: {timing}, effect: exhaust}}")
    err = refused_on_load(tmp_path / "x.yaml", text, 5, clause)
    assert "can never be used" in err.message


MEETING = [("action", "通常/反撃"), ("cost", "反撃：スピード限定"), ("march", "ＭＦ")]


@pytest.mark.parametrize(("kind", "timing"), MEETING)
def test_kinds_with_timings_they_meet_still_load(tmp_path: Path, kind: str, timing: str) -> None:
    """The refusal above is only for timings that never meet their kind's."""
    path = tmp_path / "x.yaml"
    path.write_text(_unit(f"{{name: 技, kind: {kind}, timing: {timing}, effect: exhaust}}"), encoding="utf-8")
    load(path)


@pytest.mark.parametrize(
    ("card", "clause"),
    [
        ("{owner: A, type: equip, condition: 火, quick_summon: true}", "EQ-1"),
        ("{owner: A, condition: 火, timing: ＭＦ, quick_summon: true, effect: exhaust}", "QS-1"),
    ],
)
def test_quick_summon_cards_that_can_never_be_used_are_refused_on_load(tmp_path: Path, card: str, clause: str) -> None:
    """QS-1, QS-2, EQ-1: a quick-summon card is revealed for a battle and used in it as a skill card;
    an equip (put on before the reveal) or a card with no timing in a battle never could be."""
    text = f"units:\n  a: {{owner: A, skills: 火}}\ncards:\n  札: {card}\n"
    refused_on_load(tmp_path / "x.yaml", text, 4, clause)


# ---------------------------------------------------------------- FLOW-END: settings where no battle ends
@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({}, None),
        ({"battle_ends_on_double_pass": True, "attack_outcome": "none"}, None),
        ({"battle_ends_on_double_pass": False}, "only when one side has no unit left"),
        ({"battle_ends_on_double_pass": False, "normal_action_acts": False}, "only when one side has no unit left"),
        (
            {"battle_ends_on_double_pass": False, "normal_action_acts": False, "attack_outcome": "none"},
            "no battle ends under these settings",
        ),
    ],
)
def test_flow_end_settings_under_which_no_battle_ends_are_named(settings: dict[str, object], words: str | None) -> None:
    """FLOW-END: with battle_ends_on_double_pass=false passing never ends a battle, and with attacks
    that neither exhaust nor remove a unit nothing but a 【行動】 or an effect does; the defaults end."""
    said = endless(settings)
    assert (said is None) if words is None else (said is not None and words in said and "FLOW-END" in said)


def test_flow_end_fsm_variants_and_the_explorer_say_when_no_battle_ends(capsys: pytest.CaptureFixture[str]) -> None:
    """`fsm variants` names the settings, and an exploration under one says so in its report
    (text and JSON), rather than only being cut."""
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "battle_ends_on_double_pass=false, normal_action_acts=false, attack_outcome=none: no battle ends" in out
    endless_settings = {"battle_ends_on_double_pass": False, "normal_action_acts": False, "attack_outcome": "none"}
    report = explore_file(ROOT / "scenarios" / "whole_battle.yaml", variants=endless_settings, max_states=200)
    assert report.as_dict()["endless"] == endless(endless_settings)
    assert endless(endless_settings) in format_report(report)
    plain = explore_file(ROOT / "scenarios" / "whole_battle.yaml", max_states=200)
    assert plain.as_dict()["endless"] is None and "FLOW-END)" not in format_report(plain)


# ---------------------------------------------------------------- COST-5: a promised part gone by resolution
@pytest.mark.parametrize(("choice", "result"), [("unpaid", "resolved"), ("fizzles", "fizzled")])
def test_cost_5_a_promised_part_gone_at_resolution_by_variant(tmp_path: Path, choice: str, result: str) -> None:
    """COST-5 (variant part_gone_at_resolution): a designer's 代償 paid at resolution promises 岩の巨人
    (破棄1体); B destroys it first.  `unpaid`: that part goes unpaid and the item resolves; `fizzles`:
    the recheck finds the promise broken and the item fizzles under COST-5, as SC-6 does for a card."""
    from test_price_parts import LATE

    from fsm.scenarios.building import build_game

    rules = tmp_path / "late.toml"
    rules.write_text(LATE, encoding="utf-8")
    ability = {"name": "火球", "kind": "late_cost", "timing": "通常", "cost": "破棄1体", "effect": "exhaust"}
    data = {
        "rules": [str(rules)],
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "炎の魔術師": {"owner": "A", "geo": "荒野", "abilities": [ability]},
            "岩の巨人": {"owner": "A", "geo": "荒野"},
            "水の精": {"owner": "B", "geo": "荒野", "skills": "水"},
        },
        "cards": {"破壊の術": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "destroy"}},
        "variants": {"part_gone_at_resolution": choice},
        "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野"}},
    }
    g = build_game(data, path=str(tmp_path / "t.yaml"))
    g.apply("A: activate 火球 of 炎の魔術師 on 水の精")
    g.apply("B: use 破壊の術 by 水の精 on 岩の巨人")
    g.apply("A: pass")
    g.apply("B: pass")
    fire = next(o for o in g.table.outcomes if o.source == "火球")
    assert fire.result == result
    assert g.table.units["水の精"].acted == (result == "resolved")
    if result == "fizzled":
        assert fire.clause == "COST-5" and "promised part" in fire.reason
    else:
        assert any(e.clause == "COST-3" and "goes unpaid" in e.text for e in g.log)
    # the machines decided it: the procedure took the recheck's own edge
    edges = [e.trace.event for e in g.log if e.trace and e.trace.link is not None and e.trace.machine == PROCEDURE]
    assert ("fizzle" if result == "fizzled" else "resolve") in edges


# ---------------------------------------------------------------- SYNC-1: a [戦闘] sync auto's partner leaves
@pytest.mark.parametrize(("choice", "granted"), [("stays", {"火": 1}), ("lapses", {})])
def test_sync_1_battle_auto_whose_partner_leaves_by_variant(choice: str, granted: dict[str, int]) -> None:
    """SYNC-1 (variant sync_battle_auto_partner_left): 兄's 【同調】【自動】[戦闘] 共闘 grants it 火 at battle
    start; then B takes 弟 out of the party.  `stays`: the grant lasts the battle; `lapses`: it stops at
    once, as a continuous 【同調】【自動】 does, and the log says why."""
    from conftest import at_own_normal_timing, make, pass_until, play

    units = {
        "兄": {
            "owner": "A",
            "skills": "風",
            "geo": "本陣",
            "party": "双子",
            "abilities": [{"name": "共闘", "kind": "auto", "timing": "戦闘", "sync": "弟", "effect": "grant 火"}],
        },
        "弟": {"owner": "A", "skills": "風", "geo": "本陣", "party": "双子"},
        "見張り": {"owner": "B", "skills": "水"},
    }
    cards = {"分断": {"owner": "B", "condition": "水", "timing": "通常", "effect": "leave_party"}}
    g = make(units, cards, at="main_phase", variants={"sync_battle_auto_partner_left": choice})
    play(g, "A: advance 兄 to 荒野")
    assert g.table.units["兄"].skills.granted == {"火": 1}
    pass_until(g, at_own_normal_timing("B"))
    play(g, "B: use 分断 by 見張り on 弟")
    pass_until(g, lambda g: any(o.source == "分断" for o in g.table.outcomes))
    assert g.table.units["弟"].party is None
    assert dict(g.table.units["兄"].skills.granted) == granted
    lapsed = [e for e in g.log if e.clause == "SYNC-1" and "共闘" in e.text and "lapses" in e.text]
    assert bool(lapsed) == (choice == "lapses")


# ---------------------------------------------------------------- QS-1: revealing a card nobody can use
@pytest.mark.parametrize("choice", ["always", "usable_only"])
def test_qs_1_reveal_without_a_unit_meeting_the_condition_by_variant(choice: str) -> None:
    """QS-1 (variant quick_summon_reveal): 速攻の術 needs 風 and A's only unit in the battle has 土.
    `always`: it may be revealed all the same; `usable_only`: refused under QS-1 until a unit that
    can meet it takes part (風の子, quick-summoned).  奇襲 (土) may be revealed either way."""
    from conftest import refused
    from test_battle import qs_game

    g = qs_game(variants={"quick_summon_reveal": choice})
    g.apply("A: pass")  # no summon
    g.apply("A: pass")  # no equip: A's reveal step
    assert g.why_not("A: reveal 奇襲").legal
    if choice == "always":
        assert g.why_not("A: reveal 速攻の術").legal
    else:
        err = refused(g, "A: reveal 速攻の術", "QS-1")
        assert "quick_summon_reveal=usable_only" in err.message
        summoned = qs_game(variants={"quick_summon_reveal": choice})
        summoned.apply("A: summon 風の子")
        summoned.apply("A: pass")
        summoned.apply("A: pass")
        assert summoned.why_not("A: reveal 速攻の術").legal
