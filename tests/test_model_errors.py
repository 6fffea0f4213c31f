"""Malformed input and refused moves (issue 2): clear BadInput messages, and a refusal changes nothing.

* Something that is not a card, unit or symbol at all is :class:`BadInput` with a message that
  names the bad value and what would be accepted, raised where the input is read.
* A move the rules forbid is :class:`RuleViolation` naming its clause, and the table and log are
  exactly as before (``Table.key()`` and the log length).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import make, malformed, play, refused

from fsm.cli import main
from fsm.errors import BadInput, RuleViolation
from fsm.machines.chain import priority
from fsm.rules.skills import Condition, pool, symbol
from fsm.rules.variants import Variants
from fsm.scenarios.building import build_game
from fsm.table.moves import Move

UNITS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土",
        "abilities": [{"name": "岩砕き", "kind": "action", "effect": "destroy"}],
    },
    "水の精": {"owner": "B", "skills": "水"},
}
CARDS = {"足止め": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "exhaust"}}


def _table(**unit: object) -> dict[str, object]:
    return {"players": ["A", "B"], "geos": {"荒野": {"holder": "B"}}, "units": {"u": {"owner": "A", **unit}}}


# ---------------------------------------------------------------- bad input


def test_sym_1_unknown_symbol_is_bad_input() -> None:
    """SYM-1: a symbol that is not one of the nine is refused, listing the nine."""
    with pytest.raises(BadInput) as info:
        symbol("金")
    assert "'金'" in info.value.message and "火 水 土 風 聖 魔 無 全 道具" in info.value.message
    with pytest.raises(BadInput, match="unknown skill symbol '金'"):
        build_game(_table(skills="土 金"))
    with pytest.raises(BadInput, match="unknown skill symbol"):
        Condition.of("土 gold")


@pytest.mark.parametrize("count", [-1, 1.5, True, "2"])
def test_sym_1_count_must_be_a_whole_number(count: object) -> None:
    """SYM-1: a skill count is a whole number ≥ 0; anything else is refused with the value shown."""
    with pytest.raises(BadInput, match="whole number ≥ 0") as info:
        pool({"土": count})
    assert repr(count) in info.value.message
    with pytest.raises(BadInput, match="whole number"):
        build_game(_table(skills={"土": count}))


def test_flow_zones_unknown_unit_card_or_ability_in_a_move_is_bad_input() -> None:
    """FLOW-ZONES: a move naming a unit, card or ability that is not on the table is a typo, reported
    as BadInput listing what is there; the table is untouched and why_not explains without a clause."""
    g = make(UNITS, CARDS)
    for move, names in [
        ("A: attack 水の精 with 岩の巨人X", ["'岩の巨人X'", "岩の巨人, 水の精"]),
        ("A: activate 岩砕き of 誰か on 水の精", ["'誰か'", "岩の巨人"]),
        ("A: activate 岩割り of 岩の巨人 on 水の精", ["'岩割り'", "岩砕き"]),
        ("A: use 無いカード by 岩の巨人", ["'無いカード'", "足止め"]),
    ]:
        err = malformed(g, move)
        assert all(n in err.message for n in names), err.message
        verdict = g.why_not(move)
        assert not verdict.legal and verdict.clause == "" and verdict.message == err.message


@pytest.mark.parametrize("text", ["C: pass", "a: pass", "C: attack 水の精 with 岩の巨人"])
def test_flow_zones_a_move_by_an_unknown_player_is_bad_input(text: str) -> None:
    """FLOW-ZONES: a player the table does not have (names are case-sensitive) is a typo, not a rules
    question: BadInput naming the players, and why_not answers without a clause."""
    g = make(UNITS, CARDS)
    err = malformed(g, text)
    assert "players are A and B" in err.message
    verdict = g.why_not(text)
    assert not verdict.legal and verdict.clause == "" and verdict.message == err.message


@pytest.mark.parametrize("move", [Move("dance", "A"), Move("PASS", "A"), Move("", "A")])
def test_flow_zones_a_hand_built_move_with_an_unknown_verb_is_bad_input(move: Move) -> None:
    """FLOW-ZONES: Game.apply and why_not given a Move whose verb is none of the moves raise no
    AttributeError: BadInput naming the verbs, and nothing changes."""
    g = make(UNITS, CARDS)
    key, length = g.table.key(), len(g.log)
    with pytest.raises(BadInput, match="moves are: pass, use, activate"):
        g.apply(move)
    assert g.table.key() == key and len(g.log) == length
    verdict = g.why_not(move)
    assert not verdict.legal and verdict.clause == "" and "moves are: pass" in verdict.message


@pytest.mark.parametrize("entry", ['"C: pass"', '{refused: "a: pass", clause: FLOW-NORMAL}'])
def test_flow_zones_a_scenario_move_by_an_unknown_player_is_malformed(
    entry: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """FLOW-ZONES: in a scenario file a move (or a refused check) by an unknown player is a malformed
    file (exit 2, file:line, the players named), not a rules refusal (exit 1)."""
    path = tmp_path / "player.yaml"
    path.write_text(
        "seed: 1\nplayers: [A, B]\ngeos: {荒野: {holder: B}}\nunits: {u: {owner: A, geo: 荒野}}\n"
        f"moves:\n  - {entry}\n",
        encoding="utf-8",
    )
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:6" in err and "players are A and B" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "text",
    ["", "A: dance", "A: use 足止め", "A: use 足止め with 水の精", "A: pass now", "A: attack 水の精 by 岩の巨人"],
)
def test_malformed_move_text_is_bad_input(text: str) -> None:
    """A move that cannot be read says what was expected; nothing changes."""
    g = make(UNITS, CARDS)
    err = malformed(g, text)
    assert err.message
    assert repr(text) in err.message or "'" in err.message


def test_unknown_rule_variant_is_bad_input() -> None:
    """TIM-CTR-3 (variant): a misspelt variant name or value is refused, listing the choices."""
    with pytest.raises(BadInput, match="unknown rule variant 'counters_between'"):
        Variants(counters_between=True)
    with pytest.raises(BadInput, match="choose one of: true, false"):
        Variants(counters_between_resolutions="sometimes")


@pytest.mark.parametrize(
    ("unit", "message"),
    [
        ({"owner": "C"}, "owner must be A or B"),
        ({"geo": "砂漠"}, "no geo '砂漠'"),
        ({"abilities": [{"name": "x", "kind": "dance"}]}, "unknown ability kind 'dance'"),
        ({"abilities": [{"name": "x", "kind": "action", "effect": "explode"}]}, "unknown effect 'explode'"),
        ({"abilities": [{"name": "x", "kind": "action", "timing": "夜"}]}, "unknown timing '夜'"),
        ({"level": -2}, "level must be a whole number"),
    ],
)
def test_malformed_table_is_bad_input(unit: dict[str, object], message: str) -> None:
    """FLOW-ZONES, AB-1, TIM-1: a table that names unknown things is refused when it is read."""
    data = _table(**unit)
    data["units"]["u"] = {**data["units"]["u"], **unit}  # type: ignore[index]
    with pytest.raises(BadInput, match=message):
        build_game(data)


def test_begin_at_an_unknown_point_is_bad_input() -> None:
    """FLOW-ZONES: the game can only start at a point the flow knows."""
    g = make(UNITS, CARDS, at="main_phase")
    with pytest.raises(BadInput, match="cannot start at 'lunch'"):
        g.begin("lunch")


# ---------------------------------------------------------------- refused moves change nothing


def test_refused_moves_change_nothing_in_every_kind_of_state() -> None:
    """TIM-CTR-2, ACT-2, SC-4, FLOW-ATK, FLOW-NORMAL: refusals at several points leave Table.key() and
    the log alone; so does a move by a player the table does not have (bad input)."""
    # 岩砕き may also be used as a counter, so the one refusal it meets in the window is ACT-2 (once
    # while 行動未完了) and not the timing: a [通常]-only action could not answer there at all (TIM-CTR-1)
    rock = {**UNITS["岩の巨人"], "abilities": [{"name": "岩砕き", "kind": "action", "timing": "通常/反撃"}]}
    g = make({**UNITS, "岩の巨人": rock}, CARDS)
    refused(g, "B: pass", "FLOW-NORMAL")  # not B's normal timing
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    refused(g, "A: pass", "TIM-CTR-2")  # B has priority
    refused(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "TIM-CTR-2")
    refused(g, "B: attack 岩の巨人 with 水の精", "FLOW-ATK")  # no attack inside a counter window
    refused(g, "B: use 足止め by 水の精", "SC-4")  # needs a target
    play(g, "B: pass")
    assert priority(g.table) == "A" and not g.table.units["岩の巨人"].acted
    refused(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "ACT-2")  # its one declaration is used
    malformed(g, "C: pass")


def test_refused_move_is_refused_identically_by_why_not_and_apply() -> None:
    """TIM-CTR-2: why_not and apply agree on clause and message."""
    g = make(UNITS, CARDS)
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    verdict = g.why_not("A: pass")
    with pytest.raises(RuleViolation) as info:
        g.apply("A: pass")
    assert (verdict.clause, verdict.message) == (info.value.clause, info.value.message)
    assert str(verdict).startswith("illegal (TIM-CTR-2)")


def test_snapshot_restore_round_trip() -> None:
    """FLOW-ZONES: a snapshot is a complete save: restore gives back the table and the log length."""
    g = make(UNITS, CARDS)
    snap = g.snapshot()
    key, length = g.table.key(), len(g.log)
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: use 足止め by 水の精 on 岩の巨人", "A: pass", "B: pass")
    assert g.table.key() != key
    g.restore(snap)
    assert g.table.key() == key and len(g.log) == length
    # the restored game plays on exactly as the original did
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass", "A: pass")
    assert g.table.units["水の精"].destroyed


def test_table_copy_is_independent() -> None:
    """FLOW-ZONES: Table.copy() shares nothing the rules can change."""
    g = make(UNITS, CARDS)
    copy = g.table.copy()
    rock = copy.units.edit("岩の巨人")
    rock.skills = dataclasses.replace(rock.skills, consumed=rock.skills.consumed + {"土": 1})
    with copy.writing():
        copy.cards["足止め"].zone = "graveyard"
    assert g.table.key() != copy.key()
    assert not g.table.units["岩の巨人"].skills.consumed and g.table.cards["足止め"].zone == "hand"
