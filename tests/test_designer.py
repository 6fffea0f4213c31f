"""The designer toolkit: new kinds, timings and rule variants from data files (designs/).

Each test names the clause it checks; the designer's own kinds cite AB-1 (special
abilities in general) and the counter rules (TIM-CTR-*), equips EQ-1.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fsm.errors import BadInput, RuleViolation
from fsm.machines.chain import priority
from fsm.render.diagrams import machines, render_machine
from fsm.rules.timing import answered_by
from fsm.rules.variants import SPECS
from fsm.scenarios.building import build_game
from fsm.scenarios.playing import play
from fsm.spec.ruleset import builtin

REPO = Path(__file__).resolve().parents[1]
DESIGNS = REPO / "designs"
REST, EQUIP = DESIGNS / "rest.toml", DESIGNS / "equip_counter.toml"


# ---------------------------------------------------------------- the two worked examples
def test_ab1_rest_kind_loads_from_data_only() -> None:
    """AB-1: 【休息】 is a kind declared in designs/rest.toml, not in the engine."""
    assert "rest" not in builtin().kinds
    spec = builtin().extend(REST).kinds["rest"]
    assert (spec.label, spec.price, spec.price_paid, spec.frequency) == (
        "【休息】",
        "act",
        "declare",
        "once_while_unacted",
    )
    assert spec.counter_window and spec.fizzle_if == ("destroyed", "off_field")


@pytest.mark.parametrize("name", ["rest.yaml", "equip_counter.yaml"])
def test_designer_scenarios_play_and_meet_their_expectations(name: str) -> None:
    """AB-1, EQ-1, TIM-CTR-1..3: both designs play through their scenario, expectations and all."""
    result = play(DESIGNS / name)
    assert result.ok, [str(f) for f in result.failures]


def test_ab1_rest_pays_at_declaration_so_an_exhausting_counter_cannot_make_it_fizzle() -> None:
    """AB-1 with TIM-CTR-3: the rest's unit is 行動完了 as soon as it declares; both items resolve."""
    result = play(DESIGNS / "rest.yaml", upto=1)
    assert result.game.table.units["岩の巨人"].acted  # paid at declaration
    outcomes = [(o.source, o.result) for o in play(DESIGNS / "rest.yaml").game.table.outcomes]
    assert ("深呼吸", "resolved") in outcomes and ("足止め", "resolved") in outcomes


def test_ab1_rest_is_once_while_unacted() -> None:
    """AB-1 (frequency once_while_unacted): after resolving, the rested unit cannot rest again."""
    game = play(DESIGNS / "rest.yaml", upto=6).game  # the chain has resolved; B's normal timing
    game.apply("B: pass")
    verdict = game.why_not("A: activate 深呼吸 of 岩の巨人")
    assert not verdict.legal and "行動完了" in verdict.message


def _equip_table(rules_files: list[str]) -> dict[str, object]:
    return {
        "rules": rules_files,
        "seed": 1,
        "geos": {"荒野": {"holder": "B"}},
        "units": {"岩の巨人": {"owner": "A", "skills": "土", "geo": "荒野"}, "水の精": {"owner": "B", "geo": "荒野"}},
        "cards": {"鉄の剣": {"owner": "A", "type": "equip", "condition": "土"}},
        "start": {"at": "quick_summon", "battle": {"advancing": "A", "geo": "荒野"}},
    }


def test_eq1_builtin_equip_has_no_counter_window_and_takes_effect_at_once() -> None:
    """EQ-1, FLOW-QS: with the rules as shipped an equip is attached at once: no chain, no outcome."""
    spec = builtin().kinds["equip"]
    assert spec.category == "equip" and not spec.counter_window and spec.price == "none"
    assert answered_by("equip", builtin().timings) == []
    game = build_game(_equip_table([]))
    game.apply("A: pass")
    game.apply("A: equip 鉄の剣 on 岩の巨人")
    t = game.table
    assert (t.cards["鉄の剣"].zone, t.cards["鉄の剣"].equipped_to) == ("equipped", "岩の巨人")
    assert t.chain == [] and priority(t) is None and t.outcomes == []


def test_eq1_designer_equip_window_waits_on_the_chain_then_attaches() -> None:
    """EQ-1 with designs/equip_counter.toml: the equip waits for both passes, then attaches.  While
    it waits, another equip of A's is refused under TIM-CTR-2 (B has priority), while a summon by B is
    refused by its own rule (FLOW-QS: not B's step)."""
    data = _equip_table([str(EQUIP)])
    data["cards"]["鉄の盾"] = {"owner": "A", "type": "equip", "condition": "土"}  # type: ignore[index]
    data["units"]["岩の巨人"]["skills"] = "土 土"  # type: ignore[index]  # one 土 for each equip
    game = build_game(data, path=str(DESIGNS / "x.yaml"))
    game.apply("A: pass")
    game.apply("A: equip 鉄の剣 on 岩の巨人")
    t = game.table
    assert t.cards["鉄の剣"].zone == "chain" and priority(t) == "B"
    waits = game.why_not("A: equip 鉄の盾 on 岩の巨人")
    assert not waits.legal and waits.clause == "TIM-CTR-2"
    assert game.why_not("B: summon 水の精").clause == "FLOW-QS"
    game.apply("B: pass")
    game.apply("A: pass")
    t = game.table
    assert (t.cards["鉄の剣"].zone, t.cards["鉄の剣"].equipped_to) == ("equipped", "岩の巨人")
    assert [(o.source, o.result) for o in t.outcomes] == [("鉄の剣", "resolved")]
    assert game.actor() == "A" and game.flow.at("advancing_equip")  # back to step 2


def test_tim_ctr_1_equip_only_counter_cannot_answer_an_ability() -> None:
    """TIM-CTR-1: [反撃：イクイップ限定] answers only equips; against a 【行動】 it is refused."""
    data = {
        "rules": [str(EQUIP)],
        "seed": 1,
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "岩の巨人": {"owner": "A", "skills": "土", "geo": "荒野",
                        "abilities": [{"name": "岩砕き", "kind": "action", "timing": "通常", "effect": "destroy"}]},
            "水の精": {"owner": "B", "skills": "水", "geo": "荒野"},
        },
        "cards": {"武装解除": {"owner": "B", "condition": "水", "timing": "反撃：イクイップ限定",
                              "effect": "strip 土"}},
        "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
    }  # fmt: skip
    game = build_game(data, path=str(DESIGNS / "x.yaml"))
    game.apply("A: activate 岩砕き of 岩の巨人 on 水の精")
    with pytest.raises(RuleViolation) as err:
        game.apply("B: use 武装解除 by 水の精 on 岩の巨人")
    assert err.value.clause == "TIM-CTR-1" and "イクイップ限定" in err.value.message


def test_partial_override_changes_only_what_it_gives() -> None:
    """A designer's [kind.equip] counter_window = true keeps every other setting of EQ-1's kind."""
    before, after = builtin().kinds["equip"], builtin().extend(EQUIP).kinds["equip"]
    assert after.counter_window and not before.counter_window
    assert after.clauses == before.clauses and after.fizzle_if == before.fizzle_if and after.price == before.price


def test_presets_bundle_variants() -> None:
    """TIM-CTR-3 variant by preset: [variant.rest_open] in designs/rest.toml."""
    rules = builtin().extend(REST)
    assert rules.variants(["rest_open"]).counters_between_resolutions is True


# ---------------------------------------------------------------- diagrams
def test_designer_kinds_appear_in_the_generated_diagrams(tmp_path: Path) -> None:
    """AB-1, EQ-1: `fsm diagrams --rules FILE` draws the designer's 【休息】 and the windowed equip."""
    stems = {d.stem: d for d in machines(builtin().extend(REST))}
    assert "kind_rest" in stems
    svg = render_machine(stems["kind_rest"].machine, fmt="svg")
    assert "休息" in str(svg)
    equip = {d.stem: d for d in machines(builtin().extend(EQUIP))}["kind_equip"]
    assert "反撃受付" in str(render_machine(equip.machine, fmt="svg"))
    out = subprocess.run(
        [sys.executable, "-m", "fsm", "diagrams", "--rules", str(REST), "--out", str(tmp_path), "--format", "svg"],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "kind_rest.svg").exists()


def test_tim_1_designer_timing_appears_in_the_generated_timing_map(tmp_path: Path) -> None:
    """TIM-1: a timing declared only in a data file is a row of the timing matrix, answering equips."""
    from fsm.render.export import write_all

    write_all(tmp_path, formats=("svg", "mmd"), rules=builtin().extend(EQUIP))
    mermaid = (tmp_path / "timing_map.mmd").read_text(encoding="utf-8")
    line = next(x for x in mermaid.splitlines() if "反撃：イクイップ限定" in x)
    assert "◆ 速攻召喚 quick summon: 装備に an equip" in line  # a counter to an equip, in the quick summon
    assert "反撃：イクイップ限定" in (tmp_path / "timing_map.svg").read_text(encoding="utf-8")
    write_all(tmp_path / "builtin", formats=("mmd",))
    assert "イクイップ限定" not in (tmp_path / "builtin" / "timing_map.mmd").read_text(encoding="utf-8")


# ---------------------------------------------------------------- bad designer files
BAD = [
    ("[colour.red]\nx = 1\n", "colour", "unknown section"),
    ("[combination.c]\ntimings = ['normal', 'lunch']\nclause = 'TIM-1'\n", "combination.c.timings", "no timing"),
    ("[combination.c]\ntimings = ['normal', 'counter']\nclause = 'NOPE-1'\n", "combination.c.clause", "not a clause"),
    ('[kind.rest]\nja = "休息"\n', "kind.rest.en", "non-empty string"),
    (
        "[kind.rest]\nja = '休息'\nen = 'rest'\ncategory = 'ability'\nusable = 'battle'\nprice = 'act'\n"
        "price_paid = 'declare'\nfrequency = 'once_while_unacted'\ntargets = 'battle'\n",
        "kind.rest.counter_window",
        "counter_window must be given",
    ),
    ("[kind.equip]\nprice = 'gold'\n", "kind.equip.price", "not one of"),
    ("[kind.equip]\ncounter_window = 'yes'\n", "kind.equip.counter_window", "true or false"),
    ("[kind.equip]\nwindow = true\n", "kind.equip.window", "unknown setting"),
    ("[kind.equip]\nfizzle_if = ['tired']\n", "kind.equip.fizzle_if", "not a recheck condition"),
    ("[kind.equip]\nclauses = { usable = 'XYZ-9' }\n", "kind.equip.clauses.usable", "not a clause ID"),
    ("[kind.equip]\nclauses = { lunch = 'EQ-1' }\n", "kind.equip.clauses", "unknown step"),
    ("[kind.sync_rest]\ncounter_window = true\n", "kind.sync_rest", "sync_"),
    ("[kind.equip]\nmove = 'dance'\n", "kind.equip.move", "not one of"),
    ("[kind.equip]\nmove = 'use'\n", "kind.equip.move", "already kind.skill's"),
    ("[kind.skill]\ntargets_by_variant = 'speed_tie'\n", "kind.skill.targets_by_variant", "battle_only"),
    (
        "[kind.action]\nprice_paid = 'declare'\n",
        "kind.action.fizzle_if",
        "always fizzle",
    ),
    (
        "[timing.t]\nja = 'X'\nen = 'x'\nrole = 'counter'\nanswers = ['lunch']\nclause = 'TIM-CTR-1'\n",
        "timing.t.answers",
        "no kind is",
    ),
    (
        "[timing.t]\nja = 'X'\nen = 'x'\nrole = 'counter'\nanswers = 'equip'\nclause = 'TIM-CTR-1'\n",
        "timing.t.answers",
        "must be a list",
    ),
    (
        "[timing.t]\nja = 'X'\nen = 'x'\nrole = 'counter'\nat = ['own_main']\nanswers = ['skill']\nclause = 'TIM-1'\n",
        "timing.t.at",
        "for action timings",
    ),
    (
        "[timing.t]\nja = '反撃'\nen = 'x'\nrole = 'counter'\nanswers = ['skill']\nclause = 'TIM-1'\n",
        "timing.t.ja",
        "already timing.counter",
    ),
    ("[timing.t]\nja = 'X'\nen = 'x'\nrole = 'sometimes'\nclause = 'TIM-1'\n", "timing.t.role", "not one of"),
    ("[variant.v]\nset = { no_such_rule = true }\n", "variant.v.set", "unknown rule variant"),
    ("[variant.v]\nset = { speed_tie = 'coin' }\n", "variant.v.set", "cannot be"),
    ("[variant.v]\ndoc = 'nothing set'\n", "variant.v", "needs `set"),
    ("[kind.equip\n", "bad.toml", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "key", "what"), BAD, ids=[b[1] + ":" + b[2] for b in BAD])
def test_bad_designer_files_name_file_key_and_problem(tmp_path: Path, text: str, key: str, what: str) -> None:
    """Bad data files are refused with the file, the key and what is wrong (never a traceback)."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    assert str(path) in err.value.where
    assert key in err.value.where
    assert what in err.value.message


def test_bad_yaml_designer_file_names_the_line(tmp_path: Path) -> None:
    """A YAML designer file works too; a syntax error names FILE:LINE."""
    good = tmp_path / "ok.yaml"
    good.write_text("kind:\n  equip:\n    counter_window: true\n", encoding="utf-8")
    assert builtin().extend(good).kinds["equip"].counter_window
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind:\n  equip:\n    counter_window: [true\n", encoding="utf-8")
    with pytest.raises(BadInput) as err:
        builtin().extend(bad)
    assert re.search(r"bad\.yaml:\d+", err.value.where)


def test_scenario_naming_a_missing_rules_file_says_which(tmp_path: Path) -> None:
    """A scenario's `rules:` entry that does not exist is bad input naming the file."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("rules: [nowhere.toml]\n", encoding="utf-8")
    with pytest.raises(BadInput) as err:
        play(scenario)
    assert "nowhere.toml" in str(err.value)


# ---------------------------------------------------------------- command line and README
def _fsm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fsm", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_fsm_run_plays_both_designs() -> None:
    """`python -m fsm run designs/...yaml` passes for both worked examples."""
    out = _fsm("run", "designs/rest.yaml", "designs/equip_counter.yaml", "-q")
    assert out.returncode == 0, out.stdout + out.stderr


def test_fsm_variants_lists_every_variant_with_its_clause() -> None:
    """`fsm variants` prints each named variant with its default and clause (TIM-CTR-3, ACT-2, ...)."""
    out = _fsm("variants", "--rules", "designs/rest.toml")
    assert out.returncode == 0, out.stderr
    for spec in SPECS:
        assert f"{spec.name} = " in out.stdout and spec.clause in out.stdout
    assert "preset rest_open" in out.stdout


def test_readme_lists_every_rule_variant_with_default_and_clause() -> None:
    """README "## Rule variants" must not drift from fsm/rules/variants.py."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Rule variants", 1)[1].split("\n## ", 1)[0]
    for spec in SPECS:
        default = str(spec.default).lower() if isinstance(spec.default, bool) else str(spec.default)
        row = f"| `{spec.name}` | `{default}` | {spec.clause} |"
        assert row in section, f"README is missing or out of date: {row}"
    assert "docs/designer.md" in section


def test_designer_doc_names_every_word_the_loader_accepts() -> None:
    """docs/designer.md must list every vocabulary word of fsm/spec/kinds.py and fsm/rules/timing.py."""
    from fsm.rules import timing
    from fsm.spec import kinds

    doc = (REPO / "docs" / "designer.md").read_text(encoding="utf-8")
    words = [
        *kinds.CATEGORIES, *kinds.USABLE, *kinds.PRICES, *kinds.PAID_AT, *kinds.FREQUENCIES, *kinds.TARGETS,
        *kinds.FIZZLE_REASONS, *kinds.CLAUSE_SLOTS, *kinds.MOVES, *timing.ROLES, *timing.ACTION_POINTS, *timing.DURING,
    ]  # fmt: skip
    missing = [w for w in words if f"`{w}`" not in doc]
    assert missing == []


@pytest.mark.parametrize(
    "change",
    [
        "[kind.action]\nfrequency = 'automatic'\n",  # declared by a player, yet "automatic"
        "[kind.auto]\nfrequency = 'unlimited'\n",  # activates by itself, yet given a player's frequency
        "[kind.speed_roll]\nfrequency = 'unlimited'\n",  # the flow rolls it (FLOW-SPD)
    ],
)
def test_auto_1_frequency_automatic_exactly_for_what_nobody_declares(tmp_path: Path, change: str) -> None:
    """AUTO-1, FLOW-SPD: frequency = automatic is what nobody declares (its machine activates by
    itself); a kind file that gives it to a declared kind, or takes it from an auto or the speed
    roll, is refused at load with the file and the key, not mid-game."""
    path = tmp_path / "kinds.toml"
    path.write_text(change, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    assert str(path) in err.value.where and err.value.where.endswith(".frequency")
    assert "AUTO-1" in err.value.message


def test_auto_3_an_uncounterable_kind_has_no_window_in_its_machine(tmp_path: Path) -> None:
    """AUTO-3 applied to a designer's kind: `counterable = false` with `counter_window = true` means
    nobody may answer, so no window opens: the item goes straight to its recheck and resolves (its
    machine has no counter-window state), instead of the machine refusing the engine's step."""
    rules = tmp_path / "uncounterable.toml"
    rules.write_text("[kind.action]\ncounterable = false\n", encoding="utf-8")
    table = {
        "rules": [str(rules)],
        "seed": 1,
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "岩の巨人": {
                "owner": "A",
                "geo": "荒野",
                "abilities": [{"name": "岩砕き", "kind": "action", "timing": "通常", "effect": "exhaust"}],
            },
            "水の精": {"owner": "B", "geo": "荒野"},
            "風の精": {"owner": "B", "geo": "荒野"},  # so the battle goes on once the act is over
        },
        "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
    }
    game = build_game(table, path=str(tmp_path / "x.yaml"))
    game.apply("A: activate 岩砕き of 岩の巨人 on 水の精")
    t = game.table
    assert t.chain == [] and priority(t) is None
    assert [(o.source, o.result) for o in t.outcomes] == [("岩砕き", "resolved")]
    assert t.units["水の精"].acted


def test_ab1_which_kind_a_move_declares_is_data() -> None:
    """AB-1: the kind an attack, a skill card's use, an equip and the speed roll follow is the kind
    whose data says ``move = ...`` (FLOW-ATK, SC-4, EQ-1, FLOW-SPD); none: a clear refusal."""
    from fsm.spec.ruleset import Ruleset

    rules = builtin()
    assert {m: rules.kind_for(m).key for m in ("attack", "use", "equip", "roll_speed")} == {
        "attack": "attack",
        "use": "skill",
        "equip": "equip",
        "roll_speed": "speed_roll",
    }
    with pytest.raises(BadInput, match="no kind declares move = 'attack'"):
        Ruleset({}, {}).kind_for("attack")
