"""The compiled machines (fsm/machines/compiled.py) against python-statemachine itself (issue 16).

One definition, two ways to run it: every library scenario, every designer example and
seeded random walks from each of them are played through both, and the logs (with their
traces), the tables (``key()`` and every field, as ``repr``), the refusals and the
outcomes must be identical, move by move.  ``test_the_comparison_catches_*`` shows the
comparison fails when the interpreter is changed.
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from fsm.engine.game import Game
from fsm.machines import compiled
from fsm.machines.compiled import compile_game
from fsm.scenarios.playing import load, play

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "scenarios").glob("*.yaml")) + sorted((ROOT / "designs").glob("*.yaml"))
WALKS = 36  # seeded random walks per file, alternately from its start and from its end
WALK_MOVES = 10  # at most this many moves per walk


@contextmanager
def compiled_games() -> Iterator[None]:
    """Every Game made inside the block runs its machines compiled."""
    made = Game.__init__

    def init(self: Game, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        compile_game(self)

    Game.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        Game.__init__ = made  # type: ignore[method-assign]


def table_state(game: Game) -> tuple[Any, str]:
    return game.table.key(), repr(game.table)


def scenario_difference(path: Path) -> str | None:
    """Where playing the scenario differs between the two paths (None: nowhere)."""
    library = play(path)
    with compiled_games():
        fast = play(path)
    assert fast.game.compiled and not library.game.compiled
    if library.steps != fast.steps:
        for (move, a), (_, b) in zip(library.steps, fast.steps, strict=False):
            if a != b:
                return f"{path.name}: the log of {move!r} differs"
        return f"{path.name}: a different number of steps"
    if [str(f) for f in library.failures] != [str(f) for f in fast.failures]:
        return f"{path.name}: different failures"
    if table_state(library.game) != table_state(fast.game):
        return f"{path.name}: the tables at the end differ"
    return None


def _attempt(game: Game, move: Any) -> tuple[str, Any]:
    start = len(game.log)
    try:
        game.apply(move)
    except Exception as err:  # the same refusal or engine error, with the same message
        return "raised", (type(err).__name__, str(err), game.log[start:])
    return "played", game.log[start:]


def walk_difference(library: Game, fast: Game, seed: int) -> str | None:
    """A seeded random walk of legal moves from where both games stand, played in lockstep;
    both games are put back where they were afterwards."""
    saved = library.snapshot(), fast.snapshot()
    rng = random.Random(seed)
    try:
        for step in range(WALK_MOVES):
            moves = library.legal_moves()
            if [str(m) for m in moves] != [str(m) for m in fast.legal_moves()]:
                return f"walk {seed}: the legal moves differ at move {step}"
            if not moves:
                return None
            move = rng.choice(moves)
            if _attempt(library, move) != _attempt(fast, move):
                return f"walk {seed}: {move} plays differently"
            if table_state(library) != table_state(fast) or library.actor() != fast.actor():
                return f"walk {seed}: the tables differ after {move}"
        return None
    finally:
        library.restore(saved[0])
        fast.restore(saved[1])


def walk_differences(path: Path, walks: int = WALKS) -> list[str]:
    """``walks`` seeded walks, alternately from the scenario's start and from its end."""
    base = zlib.crc32(path.name.encode())  # the same seeds on every run and machine
    pairs = []
    for at_end in (False, True):
        library = play(path, expectations=False).game if at_end else load(path)[0]
        with compiled_games():
            fast = play(path, expectations=False).game if at_end else load(path)[0]
        pairs.append((library, fast))
    found = (walk_difference(*pairs[n % 2], base + n) for n in range(walks))
    return [f"{path.name} {d}" for d in found if d]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_compiled_plays_every_scenario_and_walk_alike(path: Path) -> None:
    """A scenario's moves, then random walks from its start and its end: identical both ways."""
    assert scenario_difference(path) is None
    assert walk_differences(path) == []


def test_explorer_reports_are_the_same_both_ways() -> None:
    """The explorer's reports, machine path aside, are equal (a few scenarios, to completion)."""
    from fsm.explore.explorer import explore_file

    for name in ("scenarios/mf_card.yaml", "scenarios/nb_speed_counter.yaml", "designs/rest.yaml"):
        a = explore_file(ROOT / name, machines="statecharts").as_dict()
        b = explore_file(ROOT / name, machines="compiled").as_dict()
        for d in (a, b):
            del d["seconds"], d["states_per_second"]
        assert a == b


# ---------------------------------------------------------------- the comparison can fail
MUTANT_FILES = [ROOT / "scenarios" / n for n in ("action_fizzles_after_counter.yaml", "speed_reroll_answered.yaml")]


def _differences_with(mutate: Callable[[pytest.MonkeyPatch], None]) -> list[str]:
    with pytest.MonkeyPatch.context() as mp:
        mutate(mp)
        found = [d for p in MUTANT_FILES for d in [scenario_difference(p), *walk_differences(p, 8)] if d]
    return found


def test_the_comparison_catches_a_guard_order_swap() -> None:
    """Trying an event's transitions last to first (a guard order swap) is caught."""
    select = compiled.Runner._select

    def mutate(mp: pytest.MonkeyPatch) -> None:
        mp.setattr(compiled.Runner, "_select", staticmethod(lambda plans: select(plans[::-1])))

    assert _differences_with(mutate)


def test_the_comparison_catches_before_and_on_swapped() -> None:
    """Running a transition's ``on`` actions where its ``before`` ones belong (and back) is caught."""

    def bind(self: compiled.Runner, plan: compiled.Plan, event: str | None) -> compiled.Bound:
        bound = original(self, plan, event)
        return dataclasses.replace(bound, before=bound.on, on=bound.before)

    original = compiled.Runner._bind
    assert _differences_with(lambda mp: mp.setattr(compiled.Runner, "_bind", bind))


# ---------------------------------------------------------------- errors, both ways
def _failure(g: Game, mp: pytest.MonkeyPatch, method: str, before: list[str], move: str) -> tuple[Any, ...]:
    from conftest import play as play_moves
    from test_statemachine_defaults import Boom, _boom

    from fsm.machines.steps import BattleSteps

    if move.startswith("A: advance"):
        g.table.units["岩の巨人"].geo = "本陣"
    play_moves(g, *before)
    owner, _, name = method.rpartition(".")
    with mp.context() as patch:
        patch.setattr(BattleSteps if owner == "BattleSteps" else Game, name, _boom)
        with pytest.raises(Boom):
            g.apply(move)
    after_failure = (table_state(g), list(g.log), tuple(g.flow.configuration_values))
    play_moves(g, move)  # the machines carry on as if the failed attempt had never happened
    return after_failure, table_state(g), list(g.log)


def test_a_failing_callback_propagates_and_restores_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """FLOW-ZONES: each callback failure of test_statemachine_defaults, on both paths: the same
    exception, the same table and log afterwards, and the same play when the move is tried again."""
    from test_statemachine_defaults import FAILURES

    for what, method, start, before, move in FAILURES:
        library = _failure(start(), monkeypatch, method, before, move)
        fast = start()
        compile_game(fast)
        assert _failure(fast, monkeypatch, method, before, move) == library, what


def test_an_event_without_transition_raises_alike() -> None:
    """TransitionNotAllowed, with the same message, from each machine on both paths; nothing moves."""
    from statemachine.exceptions import TransitionNotAllowed

    from fsm.table.model import ChainItem

    def refusals(g: Game) -> list[str]:
        out = []
        proc = g._procedure(g.rules.kinds["action"])
        for send in (
            lambda: g.flow.send("advance"),
            lambda: g.chain.send("pass_priority"),
            lambda: g.chain.send("no_such_event"),
            lambda: proc.step(ChainItem(99, "action", "A", None, "x"), "close_window"),
        ):
            with pytest.raises(TransitionNotAllowed) as refused:
                send()
            out.append(str(refused.value))
        return [*out, repr(g.table)]

    library = _loaded(ROOT / "scenarios" / "nb_counter_chain.yaml")
    fast = _loaded(ROOT / "scenarios" / "nb_counter_chain.yaml")
    compile_game(fast)
    assert refusals(fast) == refusals(library)


def _loaded(path: Path) -> Game:
    return load(path)[0]


@pytest.mark.parametrize("path", FILES[::4], ids=[p.name for p in FILES[::4]])
def test_quiet_narration_settles_the_same_tables(path: Path) -> None:
    """The explorer narrates nothing (fsm.explore.search): seeded walks on a quiet compiled game reach the
    same tables, outcomes included (ACT-6's fizzle reasons are on them), as on a narrated one."""
    base = zlib.crc32(path.name.encode())
    loud, quiet = load(path)[0], load(path)[0]
    compile_game(quiet)
    quiet.narration.quiet = True
    start = len(quiet.log)
    for n in range(6):
        saved = loud.snapshot(), quiet.snapshot()
        rng = random.Random(base + n)
        for _ in range(WALK_MOVES):
            moves = loud.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            assert _attempt(loud, move)[0] == _attempt(quiet, move)[0]
            assert table_state(loud) == table_state(quiet)
        loud.restore(saved[0])
        quiet.restore(saved[1])
    assert len(quiet.log) == start  # nothing was written
