"""The explorer (fsm/explorer.py): every legal line of play from a table, deduplicated.

Also the engine fixes the explorer depends on (each test names its clause).
"""

from __future__ import annotations

from pathlib import Path

from fsm.scenario import build_game

REPO = Path(__file__).resolve().parents[1]

TWO_ACTIONS = {
    "seed": 1,
    "geos": {"荒野": {"holder": "B"}},
    "units": {
        "x": {"owner": "A", "skills": "土", "geo": "荒野",
              "abilities": [{"name": "一撃", "kind": "action", "timing": "通常", "effect": "nothing"}]},
        "y": {"owner": "B", "skills": "水", "geo": "荒野",
              "abilities": [{"name": "二撃", "kind": "action", "timing": "通常", "effect": "nothing"}]},
    },
    "start": {"at": "normal_timing", "battle": {"advancing": "A", "geo": "荒野", "turn": "A"}},
}  # fmt: skip


def test_act7_a_second_action_of_the_same_kind_can_be_declared_after_the_first_resolved() -> None:
    """ACT-7: after one 【行動】 resolved, another unit's 【行動】 runs the same procedure again.

    (The procedure machine is shared by every item of its kind; reaching a final state used
    to stop it for good.)
    """
    game = build_game(TWO_ACTIONS)
    moves = ("A: activate 一撃 of x on y", "B: pass", "A: pass", "B: activate 二撃 of y on x", "A: pass", "B: pass")
    for move in moves:
        game.apply(move)
    assert [(o.source, o.result) for o in game.table.outcomes] == [("一撃", "resolved"), ("二撃", "resolved")]


def _mutable_parts(obj: object, path: str = "table"):  # type: ignore[no-untyped-def]
    """Every mutable object reachable from ``obj`` (outcomes excepted: shared by design)."""
    from dataclasses import fields, is_dataclass

    from fsm.model import Outcome

    if isinstance(obj, str | int | float | bool | type(None) | Outcome):
        return
    if isinstance(obj, tuple | frozenset):
        for n, v in enumerate(obj):
            yield from _mutable_parts(v, f"{path}[{n}]")
        return
    if is_dataclass(obj):
        if obj.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return
        yield path, obj
        for f in fields(obj):
            yield from _mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")
        return
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _mutable_parts(v, f"{path}[{k!r}]")
    elif isinstance(obj, list):
        for n, v in enumerate(obj):
            yield from _mutable_parts(v, f"{path}[{n}]")


def test_table_copy_shares_nothing_a_move_can_change() -> None:
    """Undo and the explorer rely on Table.copy() (FLOW-ZONES: the table is the whole game).

    Played to a point with a battle, two items on the chain, a held condition and a used
    skill, the copy must share no list, dict, set or unfrozen record with the original.
    """
    from fsm.scenario import play

    game = play(REPO / "designs" / "equip_counter.yaml", upto=5).game
    table = game.table
    assert table.battle is not None and len(table.chain) == 2
    original = {id(o): p for p, o in _mutable_parts(table)}
    copied = table.copy()
    shared = [p for p, o in _mutable_parts(copied) if id(o) in original]
    assert shared == []
    assert copied.key() == table.key()
