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
