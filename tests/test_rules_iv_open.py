"""Rules IV, the open points (issue 29, point 2): what the rules say can never be used is refused
at load, naming the clause; each test failed on 75e2f96, where the file loaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_rules_ii_bugs import refused_on_load

from fsm.scenarios.playing import load


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
