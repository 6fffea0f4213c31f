"""Rule variants for the points the rules leave open: each setting changes what happens."""

from __future__ import annotations

import pytest
from conftest import make, play

from fsm.errors import BadInput
from fsm.rules.variants import SPECS, Variants, parse_assignment


def _mf_table(setting: str):
    return make(
        {"術師": {"owner": "A", "skills": "火", "geo": "本陣"}, "水の精": {"owner": "B"}},
        {"火球": {"owner": "A", "condition": "火", "timing": "ＭＦ", "effect": "exhaust"}},
        at="main_phase",
        variants={"skills_used_outside_battle_return": setting},
    )


@pytest.mark.parametrize(("setting", "after"), [("end_of_main_phase", "火×1"), ("after_next_battle", "none")])
def test_sc3_skills_used_by_an_mf_card_come_back_as_the_variant_says(setting: str, after: str) -> None:
    """SC-3 speaks of battles only; outside one, the variant decides when used skills return."""
    from fsm.rules.skills import fmt

    game = _mf_table(setting)
    play(game, "A: use 火球 by 術師 on 水の精", "B: pass", "A: pass")  # its counter window closes: resolved
    assert fmt(game.available(game.table.units["術師"])) == "none"  # SC-2: used up (fmt speaks the language chosen)
    play(game, "A: pass")  # ends A's main phase
    assert fmt(game.available(game.table.units["術師"])) == after


@pytest.mark.parametrize(("setting", "grants"), [("on_summon", 1), ("never", 0)])
def test_auto2_quick_summoned_unit_battle_auto_follows_the_variant(setting: str, grants: int) -> None:
    """AUTO-2: a [戦闘] auto activates at battle start; a quick-summoned unit's joins on arrival (default)."""
    ability = {"name": "闘気", "kind": "auto", "timing": "戦闘", "target": "self", "effect": "grant 火"}
    game = make(
        {
            "岩の巨人": {"owner": "A"},
            "風の精": {"owner": "A", "zone": "hand", "quick_summon": True, "abilities": [ability]},
            "水の精": {"owner": "B"},
        },
        at="quick_summon",
        variants={"quick_summoned_battle_autos": setting},
    )
    play(game, "A: summon 風の精")
    assert game.available(game.table.units["風の精"]).get("火", 0) == grants


def test_every_variant_has_a_catalogue_clause_and_a_default_among_its_choices() -> None:
    from fsm.rules.catalogue import CLAUSES

    for spec in SPECS:
        assert spec.clause in CLAUSES, spec.name
        assert spec.default in spec.choices, spec.name


def test_unknown_variant_or_value_is_bad_input_naming_the_choices() -> None:
    with pytest.raises(BadInput, match="known:"):
        Variants(no_such_rule=True)
    with pytest.raises(BadInput, match="advancing_first, defending_first"):
        parse_assignment("formation_order=sideways")


def test_tim_ctr_3_a_variant_without_a_value_is_refused_with_the_choices() -> None:
    """TIM-CTR-3 (counters_between_resolutions): `--variant NAME` alone is refused, naming NAME=VALUE, the choices."""
    with pytest.raises(BadInput, match=r"needs a value: write counters_between_resolutions=VALUE, one of: true, false"):
        parse_assignment("counters_between_resolutions")
    with pytest.raises(BadInput, match="needs a value"):
        parse_assignment("formation_order=")


@pytest.mark.parametrize("word", ["true", "True", "yes", "on", "ON"])
def test_tim_ctr_3_booleans_read_the_same_on_the_command_line_and_in_files(word: str) -> None:
    """TIM-CTR-3: a yes/no variant reads true/yes/on alike, whether typed or given to Variants from a file."""
    assert parse_assignment(f"counters_between_resolutions={word}") == ("counters_between_resolutions", True)
    assert Variants(counters_between_resolutions=word).counters_between_resolutions is True
    off = {"true": "false", "True": "False", "yes": "no", "on": "off", "ON": "OFF"}[word]
    assert Variants(counters_between_resolutions=off).counters_between_resolutions is False
