"""Timings (issue 4: TIM-*): the legality table, its command-line export, and the engine agreeing
with it at real points of a game."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

import pytest
from conftest import make, play, refused, texts
from machine_trace import took

from fsm.cli import main
from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.machines.chain import priority
from fsm.rules.timing import POINTS, parse_timings
from fsm.spec.ruleset import builtin

RULES = builtin()
TABLE = {row["timing"]: row for row in RULES.legality_table()}
POINT_NAMES = [p.name for p in POINTS]

# ---------------------------------------------------------------- the table, written by hand

# Read off the rules page (clauses.md TIM-*), not computed: the engine's table must equal it.
# Points a timing is used at; every other point is "—".
_SPEED = ("speed: answering the dice result", "speed: answering an ability", "speed: answering a skill")
_ATTACK = (
    "attack timing: answering the attack",
    "attack timing: answering an ability",
    "attack timing: answering a skill",
)
_ANY_ABILITY = ("speed: answering an ability", "answering an ability", "attack timing: answering an ability")
_ANY_SKILL = ("speed: answering a skill", "answering a skill", "attack timing: answering a skill")
_CTR = "counter (TIM-CTR-1)"
HAND: dict[str, dict[str, str]] = {
    # TIM-NORMAL: an action in the own normal timing only
    "[通常]": {"own normal timing": "action (TIM-NORMAL)"},
    # TIM-CTR-1: answers an ability, a skill or an attack wherever one is pending (not the dice)
    "[反撃]": {p: _CTR for p in (*_ANY_ABILITY, *_ANY_SKILL, "attack timing: answering the attack")},
    # TIM-ATK: only while an attack is pending
    "[反撃：攻撃限定]": {p: "counter (TIM-ATK)" for p in _ATTACK},
    # TIM-SKL: only against a skill
    "[反撃：スキル限定]": {p: "counter (TIM-SKL)" for p in _ANY_SKILL},
    # TIM-ABL: only against an ability
    "[反撃：特殊能力限定]": {p: "counter (TIM-ABL)" for p in _ANY_ABILITY},
    # TIM-SPD: the dice result, and what is used during speed determination
    "[反撃：スピード限定]": {p: "counter (TIM-SPD)" for p in _SPEED},
    # TIM-MF: the main phase (the own one: the default of the rules page's silence)
    "[ＭＦ]": {"own main phase": "action (TIM-MF)"},
    # TIM-BTL: never used; in effect from the battle's start
    "[戦闘]": {"battle start": "auto (TIM-BTL)"},
    # TIM-NC: [通常] and [反撃]
    "[通常/反撃]": {
        "own normal timing": "action (TIM-NORMAL)",
        **{p: _CTR for p in (*_ANY_ABILITY, *_ANY_SKILL, "attack timing: answering the attack")},
    },
    # TIM-NCS: [通常], [反撃] and [反撃：スピード限定]; where two parts apply, [反撃] is named
    "[通常/反撃/スピード]": {
        "own normal timing": "action (TIM-NORMAL)",
        "speed: answering the dice result": "counter (TIM-SPD)",
        **{p: _CTR for p in (*_ANY_ABILITY, *_ANY_SKILL, "attack timing: answering the attack")},
    },
}
CLAUSE_OF_ROW = {
    "[通常]": "TIM-NORMAL",
    "[反撃]": "TIM-CTR-1",
    "[反撃：攻撃限定]": "TIM-ATK",
    "[反撃：スキル限定]": "TIM-SKL",
    "[反撃：特殊能力限定]": "TIM-ABL",
    "[反撃：スピード限定]": "TIM-SPD",
    "[ＭＦ]": "TIM-MF",
    "[戦闘]": "TIM-BTL",
    "[通常/反撃]": "TIM-NC",
    "[通常/反撃/スピード]": "TIM-NCS",
}


def cell(label: str, point: str) -> str:
    return HAND[label].get(point, "—")


@pytest.mark.parametrize("label", list(HAND), ids=[f"{CLAUSE_OF_ROW[x]}-{x}" for x in HAND])
def test_tim_legality_table_row_matches_the_rules_page(label: str) -> None:
    """TIM-* (each row's clause in the test id): the engine's legality table, cell by cell, equals
    the table written by hand from the rules page."""
    assert TABLE[label] == {"timing": label, **{p: cell(label, p) for p in POINT_NAMES}}


def test_tim_legality_table_has_exactly_the_rows_of_the_rules_page() -> None:
    """TIM-1: one row per timing and per combination the page names; none more, none fewer."""
    assert list(TABLE) == list(HAND)
    assert [
        "own main phase",
        "opponent's main phase",
        "quick-summon timing",
        "quick-summon timing: answering an equip",
        "formation",
        *_SPEED,
        "own normal timing",
        "opponent's normal timing",
        "answering an ability",
        "answering a skill",
        *_ATTACK,
        "battle start",
        "battle end",
    ] == POINT_NAMES


def test_tim_1_several_timings_in_one_text() -> None:
    """TIM-1: "通常/反撃/スピード" is three timings; brackets, short names and English keys also read."""
    assert parse_timings("[通常/反撃/スピード]", RULES.timings) == ("normal", "counter", "counter_speed")
    assert parse_timings(["normal", "MF"], RULES.timings) == ("normal", "main")
    with pytest.raises(BadInput, match="unknown timing '夜'"):
        parse_timings("通常/夜", RULES.timings)
    with pytest.raises(BadInput, match="at least one timing"):
        parse_timings("[]", RULES.timings)


# ---------------------------------------------------------------- the command line


def test_cli_timings_fits_100_columns_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-SKL: `fsm timings` fits a 100-column terminal (Japanese counts double) and still says where each
    timing may be used: [反撃：スキル限定] counters wherever a skill is being answered."""
    from fsm.render.timing_text import display_width

    assert main(["timings"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(display_width(line) for line in lines) <= 100
    block = "\n".join(lines[lines.index("[反撃：スキル限定]") :][:3])
    skill_points = [name for name, p in zip(POINT_NAMES, POINTS, strict=True) if p.answering == "skill"]
    assert "counter (TIM-SKL)" in block and all(name in block for name in skill_points)


def test_cli_timings_wide_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-1: `fsm timings --wide` prints the table as Markdown: a header, a rule, one line per row."""
    assert main(["timings", "--wide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| " + " | ".join(["timing", *POINT_NAMES]) + " |"
    assert set(lines[1].replace(" ", "")) <= {"|", "-"}
    assert len(lines) == 2 + len(TABLE)
    row = next(line for line in lines if line.startswith("| [反撃：スキル限定] |"))
    assert row.count("counter (TIM-SKL)") == len([p for p in POINTS if p.answering == "skill"])


def test_cli_timings_csv_and_json_carry_the_same_table(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-1: the CSV and JSON exports hold exactly the rows of legality_table."""
    rows = RULES.legality_table()
    assert main(["timings", "--format", "csv"]) == 0
    assert list(csv.DictReader(io.StringIO(capsys.readouterr().out))) == rows
    assert main(["timings", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == rows


def test_cli_timings_with_a_designers_timing(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    """TIM-1: a designer's file adds a row; a broken file is reported, not a traceback."""
    extra = tmp_path / "mine.toml"
    extra.write_text(
        '[timing.counter_attack_only]\nja = "反撃：攻撃のみ"\nen = "attack only"\nrole = "counter"\n'
        'answers = ["attack"]\nclause = "TIM-ATK"\n',
        encoding="utf-8",
    )
    assert main(["timings", "--format", "json", "--rules", str(extra)]) == 0
    rows = {r["timing"]: r for r in json.loads(capsys.readouterr().out)}
    assert {p for p, v in rows["[反撃：攻撃のみ]"].items() if v != "—" and p != "timing"} == {
        p.name for p in POINTS if p.answering == "attack"
    }
    broken = tmp_path / "broken.toml"
    broken.write_text('[timing.x]\nja = "x"\nen = "x"\nrole = "sometimes"\nclause = "TIM-1"\n', encoding="utf-8")
    assert main(["timings", "--rules", str(broken)]) == 2
    assert "role = 'sometimes'" in capsys.readouterr().err


# ---------------------------------------------------------------- the engine agrees with the table

#: One skill card of B's per row of the table, each needing only 水 and taking no target
#: ([戦闘] is left out: a card carrying it could never be used and is refused on load, TIM-BTL).
CARDS = {
    f"B{i}": {"owner": "B", "condition": "水", "timing": label.strip("[]"), "target": "none", "effect": "nothing"}
    for i, label in enumerate(HAND)
    if label != "[戦闘]"
}
LABEL = {cid: f"[{c['timing']}]" for cid, c in CARDS.items()}
UNITS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土 土",
        "abilities": [
            {"name": "岩砕き", "kind": "action", "effect": "exhaust"},
            {
                "name": "加速",
                "kind": "cost",
                "cost": "土",
                "timing": "反撃：スピード限定",
                "target": "none",
                "effect": "speed +1",
            },
        ],
    },
    "水の精": {"owner": "B", "skills": "水 水"},
}
A_CARDS = {
    "石つぶて": {"owner": "A", "condition": "土", "timing": "通常/反撃/スピード", "effect": "exhaust"},
}


def _battle(**kw: object) -> Game:
    return make(UNITS, {**CARDS, **A_CARDS}, **kw)  # type: ignore[arg-type]


def _speed() -> Game:
    # the defending side B is asked first about the dice result (variant speed_window_first)
    return _battle(at="speed", variants={"speed_window_first": "defending"})


SETUPS: dict[str, Callable[[], Game]] = {
    "own main phase": lambda: _battle(at="main_phase", active="B"),
    "opponent's main phase": lambda: _battle(at="main_phase", active="A"),
    "own normal timing": lambda: _battle(battle={"turn": "B"}),
    "opponent's normal timing": lambda: _battle(),
    "answering an ability": lambda: _then(_battle(), "A: activate 岩砕き of 岩の巨人 on 水の精"),
    "answering a skill": lambda: _then(_battle(), "A: use 石つぶて by 岩の巨人 on 水の精"),
    "attack timing: answering the attack": lambda: _then(_battle(), "A: attack 水の精 with 岩の巨人"),
    "attack timing: answering a skill": lambda: _then(
        _battle(), "A: attack 水の精 with 岩の巨人", "B: pass", "A: use 石つぶて by 岩の巨人 on 水の精"
    ),
    "speed: answering the dice result": _speed,
    "speed: answering an ability": lambda: _then(_speed(), "B: pass", "A: activate 加速 of 岩の巨人"),
    "speed: answering a skill": lambda: _then(_speed(), "B: pass", "A: use 石つぶて by 岩の巨人 on 岩の巨人"),
}


def _then(g: Game, *moves: str) -> Game:
    play(g, *moves)
    return g


#: The clause a refusal of B's card names, written by hand.  Where nothing is pending (an action
#: point) each timing is refused under its own clause; in a counter window a card with no counter
#: timing is refused under TIM-CTR-1 (only a counter may answer), a limited counter under its limit.
AT_AN_ACTION_POINT = {
    **CLAUSE_OF_ROW,
    # a combination fitting nowhere is refused under the clause naming the mix: no one of its
    # timings alone forbids it (TIM-NC, TIM-NCS; any other mix TIM-1)
    "[通常/反撃]": "TIM-NC",
    "[通常/反撃/スピード]": "TIM-NCS",
}
IN_A_WINDOW = {
    **AT_AN_ACTION_POINT,
    "[通常]": "TIM-CTR-1",
    "[ＭＦ]": "TIM-CTR-1",
    "[戦闘]": "TIM-CTR-1",
    "[通常/反撃]": "TIM-CTR-1",
    "[通常/反撃/スピード]": "TIM-CTR-1",
}
ACTION_POINTS = {"own main phase", "own normal timing"}


@pytest.mark.parametrize("point", list(SETUPS))
def test_tim_engine_agrees_with_the_hand_written_table(point: str) -> None:
    """TIM-* : at each point, each of B's cards is a legal move exactly when the hand-written table
    allows its timing there, and a refusal names exactly the clause that forbids it."""
    g = SETUPS[point]()
    legal = set(texts(g))
    refusal = AT_AN_ACTION_POINT if point in ACTION_POINTS else IN_A_WINDOW
    for cid, label in LABEL.items():
        move = f"B: use {cid} by 水の精"
        want = cell(label, point) != "—" and not cell(label, point).startswith("auto")
        assert (move in legal) == want, f"{label} at {point}: the rules say {cell(label, point)}"
        verdict = g.why_not(move)
        assert verdict.legal == want, (label, point, verdict)
        if not want and g.actor() == "B":  # out of turn is the why-not table's business
            assert verdict.clause == refusal[label], (label, point, verdict)


# ---------------------------------------------------------------- clause by clause in a game


def answered(g: Game, cid: str) -> str:
    """Play B's card and return what the machines' trace shows it declared on top of: the link just
    under it on the chain when its procedure took the declare edge (the 限定 counters: TIM-ATK ...)."""
    play(g, f"B: use {cid} by 水の精")
    below = took(g, g.table.cards[cid].name, "declare", "declared").below
    assert below is not None, f"{cid} was declared on an empty chain"
    return below.source


def test_tim_atk_allowed_against_an_attack_refused_against_a_skill_outside_one() -> None:
    """TIM-ATK: [反撃：攻撃限定] answers an attack (and a skill used inside that attack timing), but
    not a skill used outside an attack."""
    cid = next(c for c, label in LABEL.items() if label == "[反撃：攻撃限定]")
    g = SETUPS["attack timing: answering the attack"]()
    assert g.why_not(f"B: use {cid} by 水の精").legal
    assert answered(g, cid) == "attack"
    g = SETUPS["attack timing: answering a skill"]()
    assert g.why_not(f"B: use {cid} by 水の精").legal
    g = SETUPS["answering a skill"]()
    err = refused(g, f"B: use {cid} by 水の精", "TIM-ATK")
    assert "石つぶて" in err.message


def test_tim_skl_refused_against_an_ability() -> None:
    """TIM-SKL: [反撃：スキル限定] cannot answer an ability."""
    cid = next(c for c, label in LABEL.items() if label == "[反撃：スキル限定]")
    refused(SETUPS["answering an ability"](), f"B: use {cid} by 水の精", "TIM-SKL")
    assert SETUPS["answering a skill"]().why_not(f"B: use {cid} by 水の精").legal
    assert answered(SETUPS["answering a skill"](), cid) == "石つぶて"


def test_tim_abl_refused_against_a_skill() -> None:
    """TIM-ABL: [反撃：特殊能力限定] cannot answer a skill card."""
    cid = next(c for c, label in LABEL.items() if label == "[反撃：特殊能力限定]")
    refused(SETUPS["answering a skill"](), f"B: use {cid} by 水の精", "TIM-ABL")
    assert SETUPS["answering an ability"]().why_not(f"B: use {cid} by 水の精").legal
    assert answered(SETUPS["answering an ability"](), cid) == "岩砕き"


def test_tim_spd_answers_the_dice_and_what_is_used_during_speed_only() -> None:
    """TIM-SPD: a speed counter answers the speed dice, and an ability or skill used during the speed
    timing; the same card cannot answer a skill in the normal timing."""
    cid = next(c for c, label in LABEL.items() if label == "[反撃：スピード限定]")
    for point in ("speed: answering the dice result", "speed: answering an ability", "speed: answering a skill"):
        assert SETUPS[point]().why_not(f"B: use {cid} by 水の精").legal, point
    assert answered(SETUPS["speed: answering the dice result"](), cid) == "speed"
    refused(SETUPS["answering a skill"](), f"B: use {cid} by 水の精", "TIM-SPD")


def test_tim_spd_ability_used_during_speed_changes_the_result() -> None:
    """TIM-SPD: an ability answering the dice result resolves before the first player is decided."""
    g = _speed()
    before = g.table.battle.totals()["A"]  # type: ignore[union-attr]
    play(g, "B: pass", "A: activate 加速 of 岩の巨人", "B: pass", "A: pass")
    assert g.flow.at("normal_timing")
    assert any("A's speed changes by +1" in e.text for e in g.log)
    assert g.table.battle.totals()["A"] == before + 1  # type: ignore[union-attr]


def test_tim_nc_action_and_counter() -> None:
    """TIM-NC: a [通常/反撃] card is an action in its own normal timing and a counter in a window."""
    cid = next(c for c, label in LABEL.items() if label == "[通常/反撃]")
    assert SETUPS["own normal timing"]().why_not(f"B: use {cid} by 水の精").legal
    assert SETUPS["answering an ability"]().why_not(f"B: use {cid} by 水の精").legal
    assert not SETUPS["speed: answering the dice result"]().why_not(f"B: use {cid} by 水の精").legal


def test_tim_ncs_also_answers_the_speed_dice() -> None:
    """TIM-NCS: [通常/反撃/スピード] adds the speed answer to [通常/反撃]."""
    cid = next(c for c, label in LABEL.items() if label == "[通常/反撃/スピード]")
    for point in ("own normal timing", "answering an ability", "speed: answering the dice result"):
        assert SETUPS[point]().why_not(f"B: use {cid} by 水の精").legal, point


def test_tim_mf_refused_in_a_battle_and_in_the_opponents_main_phase() -> None:
    """TIM-MF: [ＭＦ] is used in the own main phase; in the normal timing it is refused under TIM-MF."""
    cid = next(c for c, label in LABEL.items() if label == "[ＭＦ]")
    g = SETUPS["own main phase"]()
    play(g, f"B: use {cid} by 水の精")
    assert priority(g.table) == "A"  # a skill card in the main phase still opens a window (SC-5)
    refused(SETUPS["own normal timing"](), f"B: use {cid} by 水の精", "TIM-MF")
    refused(SETUPS["opponent's main phase"](), f"B: use {cid} by 水の精", "TIM-MF")


def test_tim_normal_refused_outside_the_own_normal_timing() -> None:
    """TIM-NORMAL: [通常] is refused in the main phase, and cannot answer anything."""
    cid = next(c for c, label in LABEL.items() if label == "[通常]")
    refused(SETUPS["own main phase"](), f"B: use {cid} by 水の精", "TIM-NORMAL")
    refused(SETUPS["answering an ability"](), f"B: use {cid} by 水の精", "TIM-CTR-1")
    refused(SETUPS["opponent's normal timing"](), f"B: use {cid} by 水の精", "TIM-NORMAL")


def test_tim_mf_card_targets_a_unit_outside_any_battle() -> None:
    """TIM-MF: in the main phase there is no battle, so a [ＭＦ] card may target a unit on the field
    (the battle-participants limit applies inside a battle only)."""
    cards = {"足払い": {"owner": "A", "condition": "土", "timing": "ＭＦ", "effect": "exhaust"}}
    g = make(UNITS, cards, at="main_phase")
    play(g, "A: use 足払い by 岩の巨人 on 水の精", "B: pass", "A: pass")
    assert g.table.units["水の精"].acted
