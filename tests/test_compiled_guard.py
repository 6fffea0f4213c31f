"""The compiler refuses what it does not support (fsm/machines/compiled.py), rather than running it wrong.

Two halves: every real machine — the game flow, the counter chain, every procedure of the
built-in kinds and of the designers' rules, plain and 【同調】 — compiles and binds (so a
machine that starts using an unsupported statechart feature fails here first); and a crafted
machine with each unsupported python-statemachine 3.x feature is refused with a message that
names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from statemachine import Event, HistoryState, State, StateChart

from fsm.machines.compiled import NotCompilable, Runner, table_of
from fsm.machines.procedures import procedure_class
from fsm.scenarios.playing import load

ROOT = Path(__file__).resolve().parents[1]
GAMES = [ROOT / "scenarios" / "whole_battle.yaml", *sorted((ROOT / "designs").glob("*.yaml"))]


def _every_machine(path: Path) -> list[StateChart]:
    """A live instance of every machine a game of this file can run."""
    game = load(path)[0]
    specs = [s for kind in game.rules.kinds.values() for s in (kind, kind.with_sync())]
    return [game.flow, game.chain, *(procedure_class(s)(game) for s in specs)]


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_every_real_machine_compiles_and_binds(path: Path) -> None:
    """Each machine's tables are built, and every transition of every configuration binds to the
    machine's own callbacks (the compiler's checks of callbacks run at binding)."""
    for sm in _every_machine(path):
        table = table_of(type(sm))
        runner = Runner(sm)
        bound = [runner._bind(plan, event) for (_, event), plans in table._plans.items() for plan in plans]
        assert bound, type(sm).__name__  # every machine has transitions to run


# ---------------------------------------------------------------- crafted machines, one feature each
class Base(StateChart):
    allow_event_without_transition = False
    catch_errors_as_events = False


def _parallel() -> type:
    class M(Base):
        class both(State.Parallel):  # noqa: N801
            class left(State.Compound):  # noqa: N801
                a = State(initial=True)
                b = State()
                go = a.to(b)

            class right(State.Compound):  # noqa: N801
                c = State(initial=True)

    return M


def _history() -> type:
    class M(Base):
        class box(State.Compound):  # noqa: N801
            a = State(initial=True)
            b = State()
            h = HistoryState()
            go = a.to(b)

        out = State()
        leave = box.to(out)
        back = out.to(box.h)

    return M


def _nested_final() -> type:
    class M(Base):
        class box(State.Compound):  # noqa: N801
            a = State(initial=True)
            done = State(final=True)
            go = a.to(done)

        after = State(final=True)
        done_state_box = box.to(after)

    return M


def _invoke() -> type:
    class M(Base):
        a = State(initial=True, invoke=lambda: None)
        b = State(final=True)
        go = a.to(b)

    return M


def _delayed() -> type:
    class M(Base):
        a = State(initial=True)
        b = State(final=True)
        go = Event(a.to(b), delay=10)

    return M


def _internal_event() -> type:
    class M(Base):
        a = State(initial=True)
        b = State(final=True)
        go = Event(a.to(b), internal=True)

    return M


def _wildcard() -> type:
    class M(Base):
        a = State(initial=True)
        b = State(final=True)
        a.to(b, event="error.*")

    return M


def _validators() -> type:
    class M(Base):
        a = State(initial=True)
        b = State(final=True)
        go = a.to(b, validators="check")

        def check(self) -> None:
            pass

    return M


def _targetless() -> type:
    class M(Base):
        a = State(initial=True)
        b = State(final=True)
        go = a.to(b)
        poke = a.to(None, on="noop")

        def noop(self) -> None:
            pass

    return M


def _flag(name: str, value: bool) -> type:
    class M(StateChart):
        allow_event_without_transition = False
        catch_errors_as_events = False
        a = State(initial=True)
        b = State(final=True)
        go = a.to(b)

    setattr(M, name, value)
    return M


#: Refused from the class alone: (feature, the machine, words the refusal must contain)
CLASS_FEATURES: list[tuple[str, Any, str]] = [
    ("parallel state", _parallel, "parallel"),
    ("history state", _history, "history"),
    ("final state in a compound (done events)", _nested_final, "done events"),
    ("invoke", _invoke, "invokes"),
    ("delayed event", _delayed, "delayed"),
    ("internal event", _internal_event, "internal"),
    ("event wildcard / prefix", _wildcard, "wildcard"),
    ("validators", _validators, "validators"),
    ("targetless transition", _targetless, "targetless"),
    ("atomic_configuration_update", lambda: _flag("atomic_configuration_update", True), "atomic_configuration"),
    ("catch_errors_as_events", lambda: _flag("catch_errors_as_events", True), "catch_errors_as_events"),
    ("allow_event_without_transition", lambda: _flag("allow_event_without_transition", True), "allow_event"),
]


@pytest.mark.parametrize(("feature", "make", "words"), CLASS_FEATURES, ids=[f[0] for f in CLASS_FEATURES])
def test_compiler_refuses_an_unsupported_machine(feature: str, make: Any, words: str) -> None:
    with pytest.raises(NotCompilable, match=words) as refused:
        table_of(make())
    assert "cannot be compiled" in str(refused.value) and "--machines statecharts" in str(refused.value)


class Plain(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b, cond="ready")
    ready = True


class Expression(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b, cond="ready and steady")

    def ready(self) -> bool:
        return True

    def steady(self) -> bool:
        return True


class Prepared(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b)

    def prepare_event(self) -> dict[str, Any]:
        return {}


class AsksForEventData(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b, on="act")

    def act(self, event_data: Any) -> None:
        pass


class AsksForTheEvent(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b, on="act")

    def act(self, event: Any = None) -> None:
        pass


class TakesKeywords(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b, on="act")

    def act(self, **kwargs: Any) -> None:
        pass


class Async(Base):
    a = State(initial=True)
    b = State(final=True)
    go = a.to(b, on="act")

    async def act(self) -> None:
        pass


#: Refused when binding a live machine's callbacks: (feature, class, words)
BIND_FEATURES: list[tuple[str, type, str]] = [
    ("a guard read from an attribute", Plain, "not a plain method"),
    ("a boolean guard expression", Expression, "not a plain method"),
    ("prepare_event", Prepared, "prepare_event"),
    ("a callback asking for event_data", AsksForEventData, "event_data"),
    ("a callback asking for the event", AsksForTheEvent, "event"),
    ("a callback taking **kwargs", TakesKeywords, "kwargs"),
    ("an async callback", Async, "async"),
]


@pytest.mark.parametrize(("feature", "cls", "words"), BIND_FEATURES, ids=[f[0] for f in BIND_FEATURES])
def test_compiler_refuses_unsupported_callbacks(feature: str, cls: type, words: str) -> None:
    def bind_all() -> None:
        sm = cls()
        runner = Runner(sm)
        for (_, event), plans in runner.table._plans.items():
            for plan in plans:
                runner._bind(plan, event)

    with pytest.raises(NotCompilable, match=words):
        bind_all()
