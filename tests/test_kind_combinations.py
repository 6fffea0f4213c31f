"""Issue 12: every kind setting the loader accepts runs, and the two that used to crash play.

A designer may switch any kind's counter window on or off and make it counterable or not.
Before, two such files were accepted on load and then crashed in the middle of a game with
``TransitionNotAllowed``; here each plays, and a random walk over the library under every
such combination only ever plays legal moves that apply without an error.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from fsm.errors import BadInput
from fsm.rules.catalogue import CLAUSES
from fsm.scenarios.building import build_game
from fsm.scenarios.playing import load
from fsm.spec.ruleset import Ruleset, builtin

LIBRARY = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.yaml"))
KINDS = sorted(builtin().kinds)


def _rules(tmp: Path, kind: str, window: bool, counterable: bool) -> Ruleset:
    path = tmp / f"{kind}_{window}_{counterable}.toml"
    path.write_text(
        f"[kind.{kind}]\ncounter_window = {str(window).lower()}\ncounterable = {str(counterable).lower()}\n",
        encoding="utf-8",
    )
    return builtin().extend(path)


def test_auto_3_an_auto_given_a_counter_window_still_activates_unanswered(tmp_path: Path) -> None:
    """AUTO-2, AUTO-3: `[kind.auto] counter_window = true` (which crashed) plays: a [戦闘] auto is
    still not counterable, so it opens no window and takes effect at battle start."""
    rules = _rules(tmp_path, "auto", True, False)
    data = {
        "seed": 1,
        "geos": {"荒野": {"holder": "B"}},
        "units": {
            "岩の巨人": {
                "owner": "A",
                "geo": "荒野",
                "abilities": [{"name": "闘志", "kind": "auto", "timing": "戦闘", "effect": "grant 火"}],
            },
            "水の精": {"owner": "B", "geo": "荒野"},
        },
        "start": {"at": "quick_summon", "battle": {"advancing": "A", "geo": "荒野"}},
    }
    game = build_game(data, rules=rules)
    assert [(o.source, o.result) for o in game.table.outcomes] == [("闘志", "resolved")]
    assert game.available(game.table.units["岩の巨人"])["火"] == 1
    assert not game.table.chain and game.actor() == "A"


def test_flow_spd_a_speed_roll_without_a_window_decides_at_once(tmp_path: Path) -> None:
    """FLOW-SPD, TIM-SPD: `[kind.speed_roll] counter_window = false` (which crashed) plays: the dice
    result cannot be answered, so it decides 先攻 at once and the first normal timing begins."""
    rules = _rules(tmp_path, "speed_roll", False, True)
    data = {
        "seed": 1,
        "geos": {"荒野": {"holder": "B"}},
        "units": {"岩の巨人": {"owner": "A", "geo": "荒野"}, "水の精": {"owner": "B", "geo": "荒野"}},
        "start": {"at": "speed", "battle": {"advancing": "A", "geo": "荒野"}},
    }
    game = build_game(data, rules=rules)
    assert game.flow.at("normal_timing") and not game.table.chain
    assert game.table.battle is not None and game.actor() == game.table.battle.first


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(KINDS),
    window=st.booleans(),
    counterable=st.booleans(),
    path=st.sampled_from(LIBRARY),
    seed=st.integers(0, 2**16),
)
def test_ab_1_every_accepted_kind_setting_runs(
    tmp_path: Path, kind: str, window: bool, counterable: bool, path: Path, seed: int
) -> None:
    """AB-1: with any kind's window and counterability switched, every legal move of a random walk
    over a library table applies without an error (a legal move is never refused either)."""
    rules = _rules(tmp_path, kind, window, counterable)
    try:
        game, _ = load(path, rules=rules)
    except BadInput:  # the scenario's own rules file does not combine with this setting
        reject()
    rng = random.Random(seed)
    for _ in range(30):
        moves = game.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        start = len(game.log)
        game.apply(move)
        # the move was played, not quietly dropped: its echo opens what it logged, and every
        # line it wrote cites a clause of the catalogue
        assert game.log[start].echo and game.log[start].move == str(move), (move, game.log[start])
        assert all(e.clause in CLAUSES for e in game.log[start:]), [e.clause for e in game.log[start:]]
    assert all(o.result in ("resolved", "fizzled") and o.clause in CLAUSES for o in game.table.outcomes)
