"""python-statemachine settings every machine of the project relies on.

A ``StateChart`` by default ignores an event that has no transition and turns an exception raised
in a callback into an ``error.execution`` event.  Both would hide rule bugs and could leave a move
half done, so every machine here switches them off: an impossible event raises
``TransitionNotAllowed``, a failing callback propagates, and ``Game.apply`` then puts the table back
exactly as it was.  (FLOW-ZONES: a refused or failed move changes nothing.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import make, play
from statemachine.exceptions import TransitionNotAllowed

from fsm.engine.game import Game
from fsm.machines.battle import GameFlow
from fsm.machines.chain import CounterChain
from fsm.machines.procedures import procedure_class
from fsm.machines.steps import BattleSteps
from fsm.spec.ruleset import builtin
from fsm.table.model import ChainItem

RULES = builtin()
SPECS = [spec for kind in RULES.kinds.values() for spec in (kind, kind.with_sync())]
MACHINES = [procedure_class(s) for s in SPECS] + [CounterChain, GameFlow]


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.__name__)
def test_machine_refuses_silent_events_and_does_not_swallow_errors(machine: type) -> None:
    """Every machine class: no event without a transition, no exception turned into an event."""
    assert machine.allow_event_without_transition is False
    assert machine.catch_errors_as_events is False


def test_every_builtin_kind_and_its_sync_form_is_covered() -> None:
    """SYNC-2: the list above has a procedure for every built-in kind, plain and 【同調】-wrapped."""
    names = {m.__name__ for m in MACHINES}
    assert len(SPECS) == 2 * len(RULES.kinds)
    assert len(names) == len(MACHINES), "two specs compiled to the same class name"


UNITS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土 土",
        "abilities": [
            {"name": "岩砕き", "kind": "action", "effect": "destroy", "dice": True},
            {"name": "地割れ", "kind": "cost", "cost": "土", "effect": "exhaust"},
            {"name": "気合", "kind": "auto", "battle": True, "effect": "grant 火"},
        ],
    },
    "水の精": {"owner": "B", "skills": "水"},
}
CARDS = {"足止め": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "exhaust"}}


def game(at: str = "normal_timing") -> Game:
    return make(UNITS, CARDS, at=at)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_procedure_event_without_transition_raises(spec) -> None:  # type: ignore[no-untyped-def]
    """AB-1: an item that was never declared cannot resolve: the machine raises instead of ignoring."""
    proc = procedure_class(spec)(game())
    item = ChainItem(99, spec.key, "A", "岩の巨人", "岩砕き")
    with pytest.raises(TransitionNotAllowed):
        proc.step(item, "resolve")
    assert item.state == "idle"


def test_counter_chain_event_without_transition_raises() -> None:
    """TIM-CTR-2: nobody can pass priority in an empty chain."""
    g = game()
    with pytest.raises(TransitionNotAllowed):
        g.chain.send("pass_priority")
    with pytest.raises(TransitionNotAllowed):
        g.chain.send("no_such_event")
    assert g.table.chain_state == "empty"


def test_game_flow_event_without_transition_raises() -> None:
    """FLOW-ADV: a battle cannot be advanced into from inside a battle."""
    g = game()
    before = g.table.flow_state
    with pytest.raises(TransitionNotAllowed):
        g.flow.send("advance")
    with pytest.raises(TransitionNotAllowed):
        g.flow.send("speed_decided")
    assert g.table.flow_state == before


class Boom(RuntimeError):
    pass


def _boom(*args: object, **kwargs: object) -> None:
    raise Boom("a callback failed")


#: (what fails, the Game (or BattleSteps) method patched to raise, how to reach the move, the move)
FAILURES: list[tuple[str, str, Callable[[], Game], list[str], str]] = [
    ("procedure action at resolution", "apply_effect", game, ["A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass"],
     "A: pass"),
    ("procedure action at declaration", "roll_dice", game, [], "A: activate 岩砕き of 岩の巨人 on 水の精"),
    ("price paid at declaration", "pay_price", game, [], "A: activate 地割れ of 岩の巨人 on 水の精"),
    ("reservation of a skill card", "reserve", game, ["A: activate 岩砕き of 岩の巨人 on 水の精"],
     "B: use 足止め by 水の精 on 岩の巨人"),
    ("guard in the recheck", "acted", game, ["A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass"],
     "A: pass"),
    ("battle start after the flow moved", "BattleSteps.battle_start", lambda: game("main_phase"), [],
     "A: advance 岩の巨人 to 荒野"),
    ("battle cleanup", "BattleSteps.cleanup", game, ["A: pass"], "B: pass"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "method", "start", "before", "move"), FAILURES, ids=[f[0] for f in FAILURES])
def test_callback_error_propagates_and_apply_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
    what: str,
    method: str,
    start: Callable[[], Game],
    before: list[str],
    move: str,
) -> None:
    """FLOW-ZONES: an exception inside a machine callback reaches the caller unchanged, the table
    and the log are exactly as before the move, and the same move then plays as on a fresh game."""
    g = start()
    if move.startswith("A: advance"):  # a table where A's unit starts at home, not in the battle
        g.table.units["岩の巨人"].geo = "本陣"
    play(g, *before)
    key, length, flow = g.table.key(), len(g.log), g.flow.configuration_values
    with monkeypatch.context() as patch:
        owner, _, name = method.rpartition(".")  # the flow's entries live on its listener (fsm.machines.steps)
        patch.setattr(BattleSteps if owner == "BattleSteps" else Game, name, _boom)
        with pytest.raises(Boom):
            g.apply(move)
    assert g.table.key() == key, what
    assert len(g.log) == length, what
    assert g.flow.configuration_values == flow
    # the machines carry on as if the failed attempt had never happened
    fresh = start()
    if move.startswith("A: advance"):
        fresh.table.units["岩の巨人"].geo = "本陣"
    play(fresh, *before, move)
    play(g, move)
    assert g.table.key() == fresh.table.key()
    assert [e.text for e in g.log] == [e.text for e in fresh.log]
