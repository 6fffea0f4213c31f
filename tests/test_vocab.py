"""Vocabularies as registries (issue 12): every effect and price word is one entry with its labels,
its clause and its function; the loader reads the registries, refuses what could not run, and a
designer's new word is data plus one registered function (docs/designer.md)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import make, play
from test_no_kind_names import PARTS  # the engine and its parts

from fsm.errors import BadInput
from fsm.rules.catalogue import CLAUSES
from fsm.scenarios.building import build_game
from fsm.spec import effects, prices
from fsm.spec.effects import EFFECTS, Hit, Lasting, effect
from fsm.spec.kinds import CATEGORIES
from fsm.spec.prices import PRICES
from fsm.spec.resolutions import CATEGORIES as RESOLVED_AS
from fsm.spec.ruleset import builtin
from fsm.table.model import Effect, Unit
from fsm.table.protocol import Board

REPO = Path(__file__).resolve().parents[1]
REGISTRIES = {"effect": EFFECTS, "price": PRICES, "category": RESOLVED_AS}


# ---------------------------------------------------------------- every word is a whole entry
@pytest.mark.parametrize(("what", "key"), [(w, k) for w, r in REGISTRIES.items() for k in r])
def test_ab1_every_effect_price_and_category_word_has_labels_a_clause_and_a_function(what: str, key: str) -> None:
    """AB-1: each word reads in Japanese and English and cites a clause of the catalogue; a
    category's function is what resolving its items does (ACT-7, SC-7, FLOW-ATK, EQ-1)."""
    entry = REGISTRIES[what][key]
    assert entry.ja and entry.en and entry.ja != key and entry.en != key
    assert entry.clause in CLAUSES, f"{what} {key}: {entry.clause} is not a catalogue clause"
    assert callable(entry.function)


def test_the_registries_hold_the_words_of_the_rules() -> None:
    """The nine effect operations (plus nothing) and the six prices of kinds.toml, no more, no fewer."""
    assert list(EFFECTS) == [
        "destroy", "discard", "exhaust", "bounce", "strip", "grant", "leave_party", "speed", "reroll", "nothing",
    ]  # fmt: skip
    assert list(PRICES) == ["act", "pay_cost", "discard_self", "march", "consume_condition", "none"]


def test_auto_4_which_effects_may_be_continuous_is_data_on_the_entry() -> None:
    """AUTO-4: what happens once and is over (a unit leaves, dice are rolled) cannot be always in effect."""
    assert [op for op in EFFECTS if effects.one_off(op)] == ["destroy", "discard", "bounce", "leave_party", "reroll"]


def test_a_word_not_registered_is_refused_listing_the_words_there_are() -> None:
    with pytest.raises(BadInput) as err:
        EFFECTS.check("explode", "cards.x.effect")
    assert err.value.where == "cards.x.effect"
    assert "unknown effect 'explode'" in err.value.message and "destroy, discard" in err.value.message
    with pytest.raises(BadInput, match="unknown price 'gold'; prices: act, pay_cost"):
        PRICES["gold"]


def test_a_word_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        effect("destroy", ja="撃破", en="destroy", clause="AB-1")(lambda board, eff, hit: True)


def test_diagram_labels_of_prices_come_from_the_registry() -> None:
    """The caption and the pay_price action of a procedure read the price's own entry (ACT-7)."""
    from fsm.machines.procedures import procedure_class
    from fsm.render.labels import Labeller, price_term

    spec = builtin().kinds["action"]
    assert price_term(spec).ja.startswith(PRICES["act"].ja)
    assert Labeller(procedure_class(spec)).action("pay_price").en == PRICES["act"].en


# ---------------------------------------------------------------- the engine names no word
def _named_words(source: str) -> Iterator[tuple[str, str, int]]:
    """(function, word, line) for each effect or price word written as a string in an effect or
    price context: compared with ``.op``/``.price``, or passed where effects or prices are asked."""
    words = set(EFFECTS) | set(PRICES)
    lines = source.splitlines()
    context = re.compile(r"\.op\b|\.price\b|effect|price")
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, ast.FunctionDef):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Constant) and node.value in words and context.search(lines[node.lineno - 1]):
                yield func.name, str(node.value), node.lineno


def test_the_engine_names_no_effect_or_price_word() -> None:
    """What each effect and price word does lives in fsm/spec/effects.py and fsm/spec/prices.py, not in the engine."""
    named = {name: list(_named_words((REPO / "fsm" / name).read_text(encoding="utf-8"))) for name in PARTS}
    assert {name: words for name, words in named.items() if words} == {}


def test_the_word_search_finds_an_if_elif_chain() -> None:
    """The search above is not blind: the old engine's kind of code is found."""
    old = (
        'def _effect(self, eff):\n    if eff.op == "strip":\n        pass\n'
        '    elif spec.price in ("act", "march"):\n        pass\n'
    )
    assert [w for _, w, _ in _named_words(old)] == ["strip", "act", "march"]


# ---------------------------------------------------------------- refused at load, with file, key and why
@pytest.mark.parametrize(
    ("text", "key", "why"),
    [
        ("[kind.skill]\nprice = 'pay_cost'\n", "kind.skill.price", "only an ability has one"),
        ("[kind.attack]\nprice = 'pay_cost'\n", "kind.attack.price", "only an ability has one"),
        ("[kind.action]\nprice = 'consume_condition'\n", "kind.action.price", "condition is a card's"),
        ("[kind.attack]\nprice = 'consume_condition'\n", "kind.attack.price", "condition is a card's"),
    ],
)
def test_cost_3_sc_4_a_price_the_kind_cannot_pay_is_refused_at_load(
    tmp_path: Path, text: str, key: str, why: str
) -> None:
    """COST-3, SC-4: a 代償 is an ability's, a condition a card's; a kind file that gives either to
    another kind of procedure (which crashed once played) is refused at load, naming file and key."""
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(key.split(".")[-1]))
    assert err.value.where == f"{path}:{line}: {key}"  # the file, the line of the setting, the key
    assert why in err.value.message and "choose another price or category" in err.value.message


def test_every_price_fits_some_category_and_the_builtin_kinds_fit_theirs() -> None:
    for key in PRICES:
        assert any(not prices.unfit(key, c) for c in CATEGORIES), key
    for spec in builtin().kinds.values():
        assert prices.unfit(spec.price, spec.category) == "", spec.key


# ---------------------------------------------------------------- every accepted combination runs
TRIAL_RECHECK = ["destroyed", "off_field"]


def _trial_rules(tmp_path: Path, price: str, paid: str) -> Path:
    path = tmp_path / "trial.toml"
    path.write_text(
        f"[kind.trial]\nja = '試行'\nen = 'trial'\ncategory = 'ability'\nusable = 'battle'\nprice = '{price}'\n"
        f"price_paid = '{paid}'\nfrequency = 'unlimited'\ntargets = 'battle'\ncounter_window = true\n"
        f"fizzle_if = {TRIAL_RECHECK}\n",
        encoding="utf-8",
    )
    return path


def test_sd_7_a_price_that_fizzles_its_own_recheck_is_refused_at_load(tmp_path: Path) -> None:
    """SD-6, SD-7: a unit discarded as the price at declaration would always fail a recheck for
    being discarded or off the field, so the file is refused (as `act` with `acted`)."""
    path = _trial_rules(tmp_path, "discard_self", "declare")
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    assert err.value.where.startswith(f"{path}:") and err.value.where.endswith(": kind.trial.fizzle_if")
    assert "always fizzle" in err.value.message


#: Every (price, paid at) an ability kind rechecking TRIAL_RECHECK may have, as the loader says.
ACCEPTED = [
    (p, paid)
    for p in PRICES
    for paid in ("declare", "resolve")
    if not prices.unfit(p, "ability") and not prices.self_fizzling(p, paid, TRIAL_RECHECK)
]


@pytest.mark.parametrize(("price", "paid"), ACCEPTED)
@pytest.mark.parametrize("answered", [False, True])
def test_ab1_every_price_the_loader_accepts_on_an_ability_resolves_or_fizzles(
    tmp_path: Path, price: str, paid: str, answered: bool
) -> None:
    """AB-1, ACT-6, COST-5: a designer's ability kind with any price it may have plays through:
    unanswered it resolves; answered by a counter that destroys its unit, it fizzles."""
    rules = builtin().extend(_trial_rules(tmp_path, price, paid))
    ability = {"name": "試み", "kind": "trial", "timing": "通常", "target": "self", "effect": "grant 全", "cost": "土"}
    data = {
        "players": ["A", "B"],
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "岩の巨人": {"owner": "A", "skills": "土 土", "geo": "荒野", "abilities": [ability]},
            "水の精": {"owner": "B", "skills": "水", "geo": "荒野"},
        },
        "cards": {"一撃": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "destroy"}},
        "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
    }
    game = build_game(data, rules)
    moves = ["A: activate 試み of 岩の巨人"]
    moves += ["B: use 一撃 by 水の精 on 岩の巨人", "A: pass", "B: pass"] if answered else ["B: pass", "A: pass"]
    for move in moves:
        game.apply(move)
    result = {o.source: o.result for o in game.table.outcomes}
    assert result["試み"] == ("fizzled" if answered else "resolved")


# ---------------------------------------------------------------- a designer's new effect word
@pytest.fixture
def ready_word() -> Iterator[None]:
    """The documented route (docs/designer.md): one registered function, here `ready`."""

    @effect("ready", ja="行動未完了にする", en="target unit becomes 行動未完了 again", clause="ACT-2")
    def _ready(board: Board, eff: Effect, hit: Hit) -> bool:
        if hit.unit is None or not hit.unit.acted:
            return False
        hit.unit.acted = False
        board.note(f"{hit.unit.name} is 行動未完了 again", hit.clause)
        return True

    yield
    EFFECTS.unregister("ready")


def test_ab1_a_designer_registers_an_effect_word_and_a_scenario_uses_it(ready_word: None) -> None:
    """AB-1: a new effect is one registered function; the loader accepts the word, the engine runs it
    on resolution, and it is refused on an always-in-effect 【自動】 unless given a `lasting`."""
    units = {
        "岩の巨人": {"owner": "A", "skills": "土", "acted": True},
        "小鬼": {"owner": "A", "skills": "火"},
        "水の精": {"owner": "B", "skills": "水"},
    }
    cards = {"気付け": {"owner": "A", "condition": "火", "timing": "通常", "effect": "ready"}}
    game = make(units, cards, battle={"turn": "A"})
    play(game, "A: use 気付け by 小鬼 on 岩の巨人", "B: pass", "A: pass")
    assert [(o.source, o.result) for o in game.table.outcomes] == [("気付け", "resolved")]
    assert "岩の巨人 is 行動未完了 again" in [e.text for e in game.log]
    assert not game.table.units["岩の巨人"].acted
    with pytest.raises(BadInput, match="AUTO-4"):
        make({"魔像": {"owner": "A", "abilities": [{"name": "x", "kind": "auto", "effect": "ready"}]}})


def test_a_lasting_effect_word_counts_while_its_auto_is_in_force() -> None:
    """AUTO-4: a registered word with a `lasting` of skills works on an always-in-effect 【自動】."""
    effect("bless", ja="加護", en="one more skill", clause="AUTO-4", lasting=Lasting(skills=+1), arg=lambda a, w: a)(
        lambda board, eff, hit: True
    )
    try:
        game = make({"聖者": {"owner": "A", "skills": "水", "abilities": [{"kind": "auto", "effect": "bless 光"}]}})
        assert game.available(game.table.units["聖者"]) == {"水": 1, "光": 1}
    finally:
        EFFECTS.unregister("bless")


def test_ab1_a_designer_registers_a_price_word_and_a_kind_uses_it(tmp_path: Path) -> None:
    """AB-1: a new price is one registered function (docs/designer.md's `tap_self`); a kind file names
    it, the loader checks where it fits, and a declaration pays it."""

    @prices.price(
        "tap_self",
        ja="行動完了にする（能力のみ）",
        en="unit becomes 行動完了 (abilities only)",
        clause="AB-1",
        categories=("ability",),
        needs="only a unit's own ability can tap it",
        brings_about=("acted",),
    )
    def _tap_self(board: Board, item: object, spec: object, unit: Unit) -> None:
        unit.acted = True
        board.note(f"{unit.name} becomes 行動完了", "AB-1")

    try:
        rules = builtin().extend(_trial_rules(tmp_path, "tap_self", "declare"))
        assert rules.kinds["trial"].price == "tap_self"
        refused = tmp_path / "refused.toml"
        refused.write_text("[kind.skill]\nprice = 'tap_self'\n", encoding="utf-8")
        with pytest.raises(BadInput, match="only a unit's own ability can tap it"):
            builtin().extend(refused)
        ability = {"name": "試み", "kind": "trial", "timing": "通常", "target": "self", "effect": "nothing"}
        units = {"岩の巨人": {"owner": "A", "skills": "土", "abilities": [ability]}, "水の精": {"owner": "B"}}
        data = {
            "players": ["A", "B"],
            "geos": {"荒野": {"holder": "B"}},
            "units": {u: {"geo": "荒野", **d} for u, d in units.items()},
            "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
        }
        game = build_game(data, rules)
        game.apply("A: activate 試み of 岩の巨人")
        assert game.table.units["岩の巨人"].acted
        assert "岩の巨人 becomes 行動完了" in [e.text for e in game.log]
    finally:
        PRICES.unregister("tap_self")
