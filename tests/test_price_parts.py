"""代償 as data (issue 13): a 代償 is skills plus parts (cards from the hand, units, equips) declared
in fsm/rules/data/price_parts.toml or a designer's `[part.NAME]`; the move names what pays (COST-3); a
fizzle refunds every part under refund_cost_on_fizzle (COST-5); what pending declarations have
promised counts, as held skills do for SC-4; bad input names file, line and the allowed words."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import GEOS, make

from fsm.engine.game import Game
from fsm.errors import BadInput, RuleViolation
from fsm.render.diagrams import machines, render_machine
from fsm.scenarios.building import build_game
from fsm.spec.ruleset import builtin
from fsm.table.moves import parse

REPO = Path(__file__).resolve().parents[1]
RECALL = REPO / "designs" / "return_to_hand.toml"

#: A kind like 【代償】 that pays its 代償 at resolution, so a pending declaration only *promises* it.
LATE = """
[kind.late_cost]
ja = "後払い"
en = "pay later"
category = "ability"
usable = "battle"
price = "pay_cost"
price_paid = "resolve"
frequency = "unlimited"
targets = "battle"
counter_window = true
fizzle_if = ["destroyed", "off_field"]
clauses = { usable = "COST-1", price = "COST-3", recheck = "COST-5" }
"""


def _mage(cost: Any, timing: str = "通常/反撃", kind: str = "cost") -> dict[str, Any]:
    return {"name": "火球", "kind": kind, "timing": timing, "cost": cost, "effect": "destroy"}


def _table(cost: Any, cards: dict[str, Any] | None = None, **kw: Any) -> Game:
    units = {
        "炎の魔術師": {"owner": "A", "skills": "火 火", "abilities": [_mage(cost)]},
        "岩の巨人": {"owner": "A", "skills": "土"},
        "水の精": {"owner": "B", "skills": "水"},
        "風の精": {"owner": "B", "skills": "風"},
    }
    return make(
        units, cards if cards is not None else {"炎の書": {"owner": "A", "condition": "火", "timing": "通常"}}, **kw
    )


# ---------------------------------------------------------------- the move names the choice
def test_cost_3_paying_reads_in_english_and_japanese() -> None:
    """COST-3: `paying X and Y` / `X、Y を代償に` name what pays; both forms are the same move."""
    en = parse("A: activate 火球 of 炎の魔術師 on 水の精 paying 炎の書 and 岩の巨人")
    ja = parse("A: 火球 を 炎の魔術師 で 水の精 に 炎の書、岩の巨人 を代償に 発動")
    assert en == ja and en.paying == ("炎の書", "岩の巨人")
    assert str(en) == "A: activate 火球 of 炎の魔術師 on 水の精 paying 炎の書 and 岩の巨人"
    assert parse(en.text("ja")) == en
    with pytest.raises(BadInput, match="paying"):
        parse("A: use 炎の書 by 炎の魔術師 paying 岩の巨人")


def test_cost_3_legal_moves_list_each_way_to_pay() -> None:
    """COST-3: with two cards in hand, legal_moves offers the 【代償】 once per card, and the bare move
    is refused listing both; with one card, the bare move is legal and pays it."""
    cards = {
        "炎の書": {"owner": "A", "condition": "火", "timing": "通常"},
        "氷の書": {"owner": "A", "condition": "水", "timing": "通常"},
    }
    g = _table("手札1枚", cards)
    offered = {str(m) for m in g.legal_moves() if "火球" in str(m) and "水の精" in str(m)}
    assert offered == {
        "A: activate 火球 of 炎の魔術師 on 水の精 paying 炎の書",
        "A: activate 火球 of 炎の魔術師 on 水の精 paying 氷の書",
    }
    verdict = g.why_not("A: activate 火球 of 炎の魔術師 on 水の精")
    assert verdict.clause == "COST-3" and "paying 炎の書" in verdict.message and "paying 氷の書" in verdict.message
    one = _table("手札1枚")
    assert "A: activate 火球 of 炎の魔術師 on 水の精" in {str(m) for m in one.legal_moves()}
    one.apply("A: activate 火球 of 炎の魔術師 on 水の精")
    assert one.table.cards["炎の書"].zone == "graveyard"


def test_cost_3_no_card_in_hand_is_refused_with_what_is_missing() -> None:
    """COST-3: with no card in hand the declaration is refused, saying what is missing; nothing changes."""
    g = _table("火 + 手札1枚", cards={})
    verdict = g.why_not("A: activate 火球 of 炎の魔術師 on 水の精")
    assert verdict.clause == "COST-3"
    assert verdict.message == "A has no card in hand to pay 手札1枚, the 代償 of 火球"
    key = g.table.key()
    with pytest.raises(RuleViolation):
        g.apply("A: activate 火球 of 炎の魔術師 on 水の精")
    assert g.table.key() == key
    assert not any("火球" in str(m) for m in g.legal_moves())


def test_cost_3_naming_what_the_player_does_not_hold_is_refused() -> None:
    """COST-3: naming the opponent's card, or a unit the price does not take, is refused and changes nothing;
    a name on no table is a typo (BadInput)."""
    g = _table("手札1枚", cards={"炎の書": {"owner": "A", "condition": "火", "timing": "通常"},
                                  "落雷": {"owner": "B", "condition": "水", "timing": "反撃"}})  # fmt: skip
    key = g.table.key()
    for move, words in (
        ("paying 落雷", "it is not A's card in hand"),
        ("paying 岩の巨人", "takes no 岩の巨人"),
        ("paying 炎の書 and 炎の書", "the same thing twice"),
    ):
        with pytest.raises(RuleViolation, match=words) as err:
            g.apply(f"A: activate 火球 of 炎の魔術師 on 水の精 {move}")
        assert err.value.clause == "COST-3"
        assert g.table.key() == key
    with pytest.raises(BadInput, match="no card '幻の書'"):
        g.apply("A: activate 火球 of 炎の魔術師 on 水の精 paying 幻の書")
    skills_only = _table("火", cards={})
    verdict = skills_only.why_not("A: activate 火球 of 炎の魔術師 on 水の精 paying 岩の巨人")
    assert verdict.clause == "COST-3" and "takes no choice" in verdict.message


def test_cost_5_refund_gives_back_every_part() -> None:
    """COST-5 (variant refund_cost_on_fizzle): a fizzled 【代償】 gives back the card, the discarded unit
    and 行動完了, not only its skills."""
    units = {
        "炎の魔術師": {"owner": "A", "skills": "火", "abilities": [_mage("火 + 手札1枚 + 破棄1体")]},
        "岩の巨人": {"owner": "A", "skills": "土"},
        "水の精": {"owner": "B", "skills": "水"},
    }
    cards = {
        "炎の書": {"owner": "A", "condition": "火", "timing": "通常"},
        "落雷": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "destroy"},
    }
    g = make(units, cards, variants={"refund_cost_on_fizzle": True})
    g.apply("A: activate 火球 of 炎の魔術師 on 水の精")
    t = g.table
    assert t.cards["炎の書"].zone == "graveyard" and t.units["岩の巨人"].zone == "graveyard"
    g.apply("B: use 落雷 by 水の精 on 炎の魔術師")
    g.apply("A: pass")
    g.apply("B: pass")
    t = g.table
    assert t.cards["炎の書"].zone == "hand"
    assert t.units["岩の巨人"].on_field and not t.units["岩の巨人"].discarded
    lines = [e.text for e in g.log if e.clause == "COST-5"]
    assert "炎の書 goes back to the hand (variant refund_cost_on_fizzle)" in lines
    assert "岩の巨人 goes back to the field (variant refund_cost_on_fizzle)" in lines


def test_cost_3_exhaust_and_equip_parts_are_paid_and_narrated() -> None:
    """COST-3: 行動完了1体 makes another unit 行動完了; イクイップ1枚 sends an equip to the graveyard; one line each."""
    units = {
        "炎の魔術師": {"owner": "A", "skills": "土", "abilities": [_mage("行動完了1体 + イクイップ1枚")]},
        "岩の巨人": {"owner": "A", "skills": "土"},
        "水の精": {"owner": "B", "skills": "水"},
    }
    cards = {
        "鉄の剣": {"owner": "A", "type": "equip", "condition": "土", "zone": "equipped", "equipped_to": "炎の魔術師"}
    }
    g = make(units, cards)
    g.apply("A: activate 火球 of 炎の魔術師 on 水の精")
    assert g.table.units["岩の巨人"].acted and g.table.cards["鉄の剣"].zone == "graveyard"
    texts = [e.text for e in g.log if e.clause == "COST-3"]
    assert "岩の巨人: field → 行動完了, 代償 of 火球" in texts
    assert "鉄の剣: equipped → graveyard, 代償 of 火球" in texts


# ---------------------------------------------------------------- pending declarations promise what they chose
def test_cost_3_pending_declarations_count_what_they_promised(tmp_path: Path) -> None:
    """COST-3, as SC-4 counts held skills: a declaration that pays at resolution promises its card, so a
    second pending declaration cannot pay with the same only card; once it is paid, the card is gone."""
    rules = tmp_path / "late.toml"
    rules.write_text(LATE, encoding="utf-8")
    units = {
        "炎の魔術師": {"owner": "A", "abilities": [_mage("手札1枚", kind="late_cost")]},
        "岩の巨人": {
            "owner": "A",
            "skills": "土",
            "abilities": [{**_mage("手札1枚", "反撃", "late_cost"), "name": "岩落とし"}],
        },
        "水の精": {"owner": "B", "skills": "水"},
        "風の精": {"owner": "B", "skills": "風"},
    }
    cards = {
        "炎の書": {"owner": "A", "condition": "土", "timing": "反撃"},
        "足止め": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "exhaust"},
    }
    data: dict[str, Any] = {
        "rules": [str(rules)],
        "geos": GEOS,
        "units": {k: {"geo": "荒野", **v} for k, v in units.items()},
        "cards": cards,
        "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野"}},
    }
    g = build_game(data, path=str(tmp_path / "t.yaml"))
    g.apply("A: activate 火球 of 炎の魔術師 on 水の精")
    assert g.table.cards["炎の書"].zone == "hand"  # promised, not paid yet
    g.apply("B: use 足止め by 水の精 on 炎の魔術師")
    verdict = g.why_not("A: activate 岩落とし of 岩の巨人 on 風の精")
    assert verdict.clause == "COST-3"
    assert "炎の書 already promised to a pending declaration" in verdict.message
    used = g.why_not("A: use 炎の書 by 岩の巨人 on 水の精")
    assert used.clause == "COST-3" and "promised" in used.message
    g.apply("A: pass")
    g.apply("B: pass")
    assert g.table.cards["炎の書"].zone == "graveyard"


# ---------------------------------------------------------------- a designer's new part
def test_designer_part_plays_and_appears_in_the_generated_diagram() -> None:
    """COST-3: designs/return_to_hand.toml declares the part 帰還 in data; its kind's diagram names it."""
    rules = builtin().extend(RECALL)
    assert rules.parts["recall"].to == "hand"
    stems = {d.stem: d for d in machines(rules)}
    svg = str(render_machine(stems["kind_swap"].machine, fmt="svg", lang="both"))
    assert "帰還1体" in svg and "field → hand" in svg
    assert "帰還" not in str(render_machine(stems["kind_cost"].machine, fmt="svg", lang="both"))


# ---------------------------------------------------------------- bad input
BAD_COSTS = [
    ("火 + 金貨1枚", "unknown 代償 part '金貨'", "手札 (hand)"),
    ("手札0枚", "count must be a whole number ≥ 1, got 0", ""),
    ("手札-1枚", "count must be a whole number ≥ 1, got -1", ""),
    ("手札1枚(色：赤)", "filter '色：赤' names nothing", "名称：X"),
    ("手札1枚()", "an empty filter () names nothing", "skill"),
    ("手札1枚(名称：竜)", "名称：竜 of 手札1枚(名称：竜) names nothing on this table", "炎の書"),
    ("破棄1体(skill)", "type filter 'skill' names nothing", "a unit has no card type"),
    ([{"part": "hand", "count": 0}], "count must be a whole number ≥ 1, got 0", ""),
]


@pytest.mark.parametrize(("cost", "words", "allowed"), BAD_COSTS)
def test_cost_3_bad_cost_is_bad_input_with_file_line_and_the_allowed_words(
    tmp_path: Path, cost: Any, words: str, allowed: str
) -> None:
    """COST-3, SYM-1: an unknown part, a count below 1, a filter naming nothing: file:line, allowed words, exit 2."""
    import yaml

    path = tmp_path / "bad.yaml"
    data = {
        "units": {"炎の魔術師": {"owner": "A", "abilities": [_mage(cost)]}},
        "cards": {"炎の書": {"owner": "A", "condition": "火", "timing": "通常"}},
    }
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "fsm", "run", str(path)],
        capture_output=True, text=True, encoding="utf-8", timeout=120, cwd=REPO,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "FSM_LANG": "en"},
    )  # fmt: skip
    assert out.returncode == 2, out.stdout + out.stderr
    assert f"{path}:" in out.stderr and words in out.stderr and allowed in out.stderr
    assert "Traceback" not in out.stderr


BAD_PARTS = [
    (
        '[part.x]\nja = "x"\nen = "x"\ntake = "gold"\nfrom = "hand"\nto = "graveyard"\n',
        "part.x.take",
        "card, unit, equip",
    ),
    ('[part.x]\nja = "x"\nen = "x"\ntake = "card"\nfrom = "field"\nto = "graveyard"\n', "part.x.from", "hand"),
    (
        '[part.x]\nja = "x"\nen = "x"\ntake = "card"\nfrom = "hand"\nto = "graveyard"\ncount = 0\n',
        "part.x.count",
        "≥ 1",
    ),
    ('[part.x]\nja = "手札"\nen = "x"\ntake = "card"\nfrom = "hand"\nto = "graveyard"\n', "part.x.ja", "part.hand"),
    ('[part.x]\nja = "x"\nen = "x"\ntake = "card"\nfrom = "hand"\nto = "acted"\n', "part.x", "take = 'unit'"),
    (
        '[part.x]\nja = "x"\nen = "x"\ntake = "card"\nfrom = "hand"\nto = "graveyard"\ncolour = 1\n',
        "part.x.colour",
        "known",
    ),
]


@pytest.mark.parametrize(("text", "where", "words"), BAD_PARTS)
def test_cost_3_bad_part_kind_in_a_designer_file_names_the_key(
    tmp_path: Path, text: str, where: str, words: str
) -> None:
    """COST-3: a designer's `[part.NAME]` is validated on load: the file, the key and what is allowed."""
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    assert where in str(err.value) and words in str(err.value)


SELF_PART = """
[part.self_out]
ja = "自壊"
en = "self_out"
take = "unit"
from = "field"
which = "self"
to = "graveyard"
"""


def test_cost_5_a_part_taking_its_own_unit_at_declaration_is_refused(tmp_path: Path) -> None:
    """COST-5: a 【代償】 whose 代償 discards its own unit at declaration would always fizzle: refused on load."""
    path = tmp_path / "self.toml"
    path.write_text(SELF_PART, encoding="utf-8")
    with pytest.raises(BadInput, match="always fizzle"):
        build_game(
            {"units": {"炎の魔術師": {"owner": "A", "abilities": [_mage([{"part": "self_out"}])]}}},
            rules=builtin().extend(path),
        )


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ('price = "act"\ncost = "手札1枚"\n', "paid by the price pay_cost"),
        ('price = "pay_cost"\ncost = "火"\n', "skills belong to each ability"),
        ('price = "pay_cost"\ncost = "金貨1枚"\n', "unknown 代償 part"),
    ],
)
def test_cost_3_a_kinds_own_cost_is_checked_on_load(tmp_path: Path, extra: str, words: str) -> None:
    """COST-3: `[kind] cost` is a 代償 of parts, only on a kind whose price is pay_cost; errors name the key."""
    path = tmp_path / "mine.toml"
    base = LATE.replace('price = "pay_cost"\n', "").replace("[kind.late_cost]", "[kind.mine]")
    path.write_text(base + extra, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    assert "kind.mine.cost" in str(err.value) and words in str(err.value)


def test_cost_3_legal_moves_list_every_way_to_pay_however_many() -> None:
    """COST-3: every payable choice is a legal move, with no cap: 12 cards in hand and a 代償 of two
    of them is C(12, 2) = 66 ways (a cap would hide lines from the explorer)."""
    cards = {f"書{i:02d}": {"owner": "A", "condition": "火", "timing": "通常"} for i in range(12)}
    g = _table("手札2枚", cards)
    offered = {str(m) for m in g.legal_moves() if "火球" in str(m) and "水の精" in str(m)}
    assert len(offered) == 66
    refusal = g.why_not("A: activate 火球 of 炎の魔術師 on 水の精").message
    assert refusal.count("'paying ") == 8 and "and 58 more" in refusal
