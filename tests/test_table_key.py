"""The table's key holds everything that decides what follows (issue 29, point 1).

The explorer keeps one table per key (``Table.key``, its digest in ``fsm/explore/visited.py``):
two tables that go on to different games must never share one.  The property here runs over the
model's own fields (``dataclasses.fields``), so a field added later is covered too: each field is
either one the play never changes (listed below with the reason) or one whose change changes the
key.  The speed modifiers are the case that failed on 75e2f96: a [戦闘] ``speed +N`` is kept in
``Battle.speed_mod`` and, before the roll, the totals the key held were empty (FLOW-SPD, TIM-BTL).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from conftest import make, play
from hypothesis import given, settings
from hypothesis import strategies as st

from fsm.rules.skills import SkillPool
from fsm.table.model import Battle, Card, ChainItem, Geo, Table, Unit

#: Fields no move changes: the same in every table of one game (and one exploration).
STATIC = {
    Unit: {"id", "name", "owner", "level", "speed", "abilities", "quick_summon"},
    Card: {
        "id",
        "name",
        "owner",
        "type",
        "condition",
        "timings",
        "effect",
        "dice",
        "min_roll",
        "target",
        "quick_summon",
    },
    Geo: {"name", "limit"},
    ChainItem: {"declarer"},  # the owner of its unit or card (source and unit are in the key)
    Battle: set(),
    # the players and the seed are the game's; next_seq only numbers the next item (the chain's own
    # numbers are in the key); outcomes and resolution_order are what happened, which no rule reads
    Table: {"players", "seed", "next_seq", "outcomes", "resolution_order", "units", "cards", "geos", "battle", "chain"},
}

UNITS = {
    "岩の巨人": {"owner": "A", "skills": "土 火", "party": "岩"},
    "水の精": {"owner": "B", "skills": "水", "abilities": [{"name": "水流", "kind": "action", "effect": "exhaust"}]},
}
CARDS = {"石つぶて": {"owner": "A", "condition": "土", "timing": "通常", "effect": "exhaust"}}


def _table() -> Table:
    """A battle in 荒野 with one card on the chain: every kind of part is there to vary."""
    g = make(UNITS, CARDS)
    play(g, "A: use 石つぶて by 岩の巨人 on 水の精")
    assert g.table.battle is not None and g.table.chain
    return g.table


def _other(value: Any, draw: st.DrawFn) -> Any:
    """A value of the same shape that differs from ``value``."""
    word = draw(st.sampled_from(["A", "B", "荒野", "土", "x"]))
    number = draw(st.integers(1, 5))
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + number
    if isinstance(value, SkillPool):
        which = draw(st.sampled_from(["consumed", "granted"]))
        more = Counter(getattr(value, which))
        more[word] += number
        return dataclasses.replace(value, **{which: more})
    if isinstance(value, dict):
        return {**value, f"{word}{number}": number}
    if isinstance(value, list | tuple):
        return type(value)([*value, (word, number)])
    if isinstance(value, set | frozenset):
        return type(value)({*value, f"{word}{number}"})
    return f"{value}|{word}{number}"  # text, None, a machine state


def _varied() -> list[tuple[type, str]]:
    return [
        (cls, f.name)
        for cls in (Unit, Card, Geo, ChainItem, Battle, Table)
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f.name not in STATIC[cls] and not f.name.startswith("_")
    ]


@pytest.mark.parametrize(("cls", "name"), _varied(), ids=lambda x: getattr(x, "__name__", x))
@settings(max_examples=15)
@given(data=st.data())
def test_table_key_tells_apart_tables_differing_in_any_field_the_rules_read(
    cls: type, name: str, data: st.DataObject
) -> None:
    """FLOW-SPD, TIM-BTL and the explorer's visited set: change one field the play may change, of
    one unit, card, geo, chain link, the battle or the table, and the key changes."""
    table = _table()
    before = table.key()
    other = table.copy()
    with other.writing():
        owner: Any = {
            Unit: lambda: other.units[data.draw(st.sampled_from(sorted(other.units)))],
            Card: lambda: other.cards["石つぶて"],
            Geo: lambda: other.geos[data.draw(st.sampled_from(sorted(other.geos)))],
            ChainItem: lambda: other.chain[0],
            Battle: lambda: other.battle,
            Table: lambda: other,
        }[cls]()
        setattr(owner, name, _other(getattr(owner, name), data.draw))
    assert other.key() != before, f"{cls.__name__}.{name} changed and the key did not"
    assert table.key() == before  # the copy's change left the original alone


def test_table_key_static_fields_are_really_fields() -> None:
    """The exemptions above name real fields (a renamed field would otherwise escape the property)."""
    for cls, names in STATIC.items():
        assert names <= {f.name for f in dataclasses.fields(cls)}, cls  # type: ignore[arg-type]
