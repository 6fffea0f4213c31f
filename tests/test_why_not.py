"""Why-not: a move by the player who is not to move is refused under the rule of its own kind.

B tries every verb, every ability kind and every card timing at points where A is the one to move.
Each cell below was written by hand from the rules page: the clause that forbids the move *as a
move of its kind* (MAR-1 for a 【進軍】 outside its owner's main phase, TIM-MF for an [ＭＦ] card,
TIM-NORMAL for a [通常] card, TIM-CTR-1 for a counter with nothing it may answer, TIM-CTR-2 for a
counter that could answer but A holds priority ...).  Only where the move's own rules would allow it
does the refusal fall back to the flow clause saying whose turn it is (a pass: TIM-MF in the main
phase, FLOW-QS, FLOW-FORM, FLOW-NORMAL, TIM-CTR-2 in a window).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import make, play, refused

from fsm.engine.game import Game

UNITS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土",
        "abilities": [{"name": "岩砕き", "kind": "action", "effect": "exhaust"}],
    },
    "水の精": {
        "owner": "B",
        "skills": "水 水 水",
        "abilities": [
            {"name": "水撃", "kind": "action", "effect": "exhaust"},  # [通常] by default
            {"name": "水払い", "kind": "cost", "cost": "水", "timing": "反撃", "target": "none", "effect": "nothing"},
            {"name": "水爆", "kind": "self_destruct", "timing": "反撃：スピード限定", "target": "none"},
            {"name": "水行", "kind": "march", "effect": "exhaust"},
            {"name": "水守", "kind": "auto", "timing": "戦闘", "effect": "grant 水"},
        ],
    },
    "風の子": {"owner": "B", "skills": "風", "zone": "hand", "quick_summon": True, "level": 1},
}
CARD = {"owner": "B", "condition": "水", "target": "none", "effect": "nothing"}
CARDS = {
    "B通常": {**CARD, "timing": "通常"},
    "B反撃": {**CARD, "timing": "反撃"},
    "Bスキル限定": {**CARD, "timing": "反撃：スキル限定"},
    "BMF": {**CARD, "timing": "ＭＦ"},
    "Bスピード限定": {**CARD, "timing": "反撃：スピード限定"},
    "水の鎧": {"owner": "B", "type": "equip", "condition": "水"},
    "水の兜": {"owner": "B", "type": "equip", "condition": "水", "zone": "equipped", "equipped_to": "水の精"},
    "水の盾": {"owner": "B", "condition": "水", "timing": "反撃", "quick_summon": True, "target": "none"},
}


def _game(at: str, **kw: object) -> Game:
    return make(UNITS, CARDS, at=at, **kw)  # type: ignore[arg-type]


def _speed_a_has_priority() -> Game:
    # B, the defending side, is asked first about the dice (variant speed_window_first); B passes
    g = _game("speed", variants={"speed_window_first": "defending"})
    play(g, "B: pass")
    return g


def _window_a_has_priority() -> Game:
    # in B's normal timing B declares a 【行動】: A is asked first whether to counter (TIM-CTR-2)
    g = _game("normal_timing", battle={"turn": "B"})
    play(g, "B: activate 水撃 of 水の精 on 岩の巨人")
    return g


#: The points of the game where A, not B, is to move.
POINTS: dict[str, Callable[[], Game]] = {
    "A's main phase": lambda: _game("main_phase"),
    "A's quick-summon step": lambda: _game("quick_summon"),
    "A's formation": lambda: _game("formation"),
    "speed dice, A has priority": _speed_a_has_priority,
    "A's normal timing": lambda: _game("normal_timing"),
    "B's ability pending, A has priority": _window_a_has_priority,
}
MAIN, QS, FORM, SPEED, NORMAL, WINDOW = POINTS

#: move by B → the clause that refuses it at each point (by hand, from the rules page).
EXPECTED: dict[str, dict[str, str]] = {
    # a pass has no rule of its own: the flow says whose turn it is
    "B: pass": {MAIN: "TIM-MF", QS: "FLOW-QS", FORM: "FLOW-FORM", SPEED: "TIM-CTR-2", NORMAL: "FLOW-NORMAL",
                WINDOW: "TIM-CTR-2"},
    # moves of the battle flow: each step or phase belongs to one side
    "B: advance 水の精 to 本陣": dict.fromkeys(POINTS, "FLOW-ADV"),
    "B: summon 風の子": dict.fromkeys(POINTS, "FLOW-QS"),
    "B: equip 水の鎧 on 水の精": dict.fromkeys(POINTS, "FLOW-QS"),
    "B: unequip 水の兜": dict.fromkeys(POINTS, "FLOW-QS"),
    "B: reveal 水の盾": dict.fromkeys(POINTS, "QS-1"),
    "B: front 水の精": dict.fromkeys(POINTS, "FLOW-FORM"),
    "B: attack 岩の巨人 with 水の精": dict.fromkeys(POINTS, "FLOW-ATK"),
    # abilities: outside a battle the kind's own clause; in a battle the timing it carries
    "B: activate 水撃 of 水の精 on 岩の巨人": {MAIN: "ACT-1", QS: "TIM-NORMAL", FORM: "TIM-NORMAL",
                                         SPEED: "TIM-CTR-1", NORMAL: "TIM-NORMAL", WINDOW: "TIM-CTR-1"},
    "B: activate 水払い of 水の精": {MAIN: "COST-1", QS: "TIM-CTR-1", FORM: "TIM-CTR-1", SPEED: "TIM-CTR-1",
                                NORMAL: "TIM-CTR-1", WINDOW: "TIM-CTR-2"},
    "B: activate 水爆 of 水の精": {MAIN: "SD-1", QS: "TIM-SPD", FORM: "TIM-SPD", SPEED: "TIM-CTR-2",
                               NORMAL: "TIM-SPD", WINDOW: "TIM-SPD"},
    "B: activate 水行 of 水の精 on 岩の巨人": dict.fromkeys(POINTS, "MAR-1"),
    "B: activate 水守 of 水の精": dict.fromkeys(POINTS, "AUTO-1"),
    # skill cards: the timing they carry
    "B: use B通常 by 水の精": {MAIN: "TIM-NORMAL", QS: "TIM-NORMAL", FORM: "TIM-NORMAL", SPEED: "TIM-CTR-1",
                           NORMAL: "TIM-NORMAL", WINDOW: "TIM-CTR-1"},
    "B: use B反撃 by 水の精": {**dict.fromkeys(POINTS, "TIM-CTR-1"), WINDOW: "TIM-CTR-2"},
    "B: use Bスキル限定 by 水の精": dict.fromkeys(POINTS, "TIM-SKL"),
    "B: use BMF by 水の精": {MAIN: "TIM-MF", QS: "TIM-MF", FORM: "TIM-MF", SPEED: "TIM-CTR-1", NORMAL: "TIM-MF",
                          WINDOW: "TIM-CTR-1"},
    "B: use Bスピード限定 by 水の精": {**dict.fromkeys(POINTS, "TIM-SPD"), SPEED: "TIM-CTR-2"},
}  # fmt: skip

CELLS = [(move, point, clause) for move, row in EXPECTED.items() for point, clause in row.items()]


def test_every_point_is_one_where_a_is_to_move() -> None:
    """FLOW-ZONES: the table is about the player who is not to move; each set-up is such a point."""
    for name, setup in POINTS.items():
        assert setup().actor() == "A", name


@pytest.mark.parametrize(("move", "point", "clause"), CELLS, ids=[f"{m} @ {p}" for m, p, _ in CELLS])
def test_why_not_cites_the_rule_of_the_moves_own_kind(move: str, point: str, clause: str) -> None:
    """MAR-1, TIM-MF, TIM-NORMAL, TIM-CTR-1, TIM-CTR-2, TIM-SKL, TIM-SPD, ACT-1, COST-1, SD-1, AUTO-1,
    FLOW-*: a move by B while A is to move cites the clause of its own kind; apply and why_not agree."""
    g = POINTS[point]()
    verdict = g.why_not(move)
    assert (verdict.legal, verdict.clause) == (False, clause), verdict.message
    err = refused(g, move, clause)
    assert err.message == verdict.message
