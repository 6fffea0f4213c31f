"""The machines compiled to transition tables, for exploring fast (issue 16).

The procedures, the counter chain and the game flow stay python-statemachine ``StateChart``
classes: they are what the diagrams draw and what a reader inspects.  This module reads each
class once (:func:`table_of`): for every configuration, the transitions each event (and the
eventless step) may take, in the order python-statemachine tries them, and for each one what
taking it does — which states it exits and enters (worked out by python-statemachine's own
exit- and entry-set code, run here once per transition instead of once per step), how the
model's state value reads after each of those, and the callback lists it runs.

:class:`Runner` plays those tables for one live machine, calling the callables that machine's
own callback registry resolved (the machine's methods, its model's, its listeners'), in the
registry's order, with the arguments they ask for already bound.  It keeps python-statemachine's
observable behaviour: guards tried in the same order and as often, eventless transitions chained
the same way, an event sent from a callback queued until the current step is done, a top-level
final state stopping the machine, an event with no transition raising ``TransitionNotAllowed``
(``allow_event_without_transition`` stays False), a failing callback propagating after the
state value is put back.  ``tests/test_compiled.py`` plays every scenario both ways and
compares.  Two things it takes as given: no callback writes the machine's state value itself
(the tables know how it reads after each state exited and entered), and no listener is added
after the machine is attached (the callables are taken from its registry on first use).

What the tables do not cover, the compiler refuses (:class:`NotCompilable`) instead of running
it wrong: parallel states, history states, final states inside a compound state (done events),
invoke, delayed or internal events, event wildcards, validators, ``prepare_event``, boolean
guard expressions, targetless or multi-target transitions, ``atomic_configuration_update``,
``catch_errors_as_events``, ``allow_event_without_transition``, async callbacks, and callbacks
that ask for the event, the event data, ``*args`` or ``**kwargs``.
"""

from __future__ import annotations

import inspect
from collections import deque
from collections.abc import Callable, Iterator, MutableSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter
from types import SimpleNamespace
from typing import Any

from statemachine import State, StateChart
from statemachine.callbacks import allways_true
from statemachine.engines.sync import SyncEngine
from statemachine.event import BoundEvent, Event
from statemachine.exceptions import TransitionNotAllowed
from statemachine.orderedset import OrderedSet
from statemachine.transition import Transition

__all__ = ["NotCompilable", "Runner", "attach", "compile_game", "compiled_machines", "detach", "table_of"]

#: A configuration as the model holds it: None, one state value, or the values in order.
Key = Any
#: The arguments python-statemachine offers every callback that the compiled path binds too.
BINDABLE = frozenset({"machine", "model", "transition", "state", "source", "target"})
#: What else it offers (some callbacks only): a callback asking for one of these is refused.
UNBOUND = frozenset({"event", "event_data", "previous_configuration", "new_configuration", "error"})


class NotCompilable(Exception):
    """The machine uses a statechart feature the compiler does not support."""

    def __init__(self, machine: type | object, feature: str) -> None:
        name = machine.__name__ if isinstance(machine, type) else type(machine).__name__
        super().__init__(
            f"{name} cannot be compiled: {feature}; explore it with the python-statemachine path "
            "(--machines statecharts), or teach fsm/machines/compiled.py the feature and its differential test"
        )


# ---------------------------------------------------------------- the class, read once
@dataclass(frozen=True)
class Plan:
    """Taking one transition from one configuration: what it runs and how the state reads."""

    transition: Transition
    before: str  # callback registry keys
    cond: str
    exits: tuple[tuple[State, Key], ...]  # each state exited, and the state value after it
    on: str
    entries: tuple[tuple[State, Key, str | None, bool], ...]  # entered, value after, initial `on`, stops
    after: str
    restore: Key  # the value written back if a callback fails (python-statemachine does the same)


class MachineTable:
    """One StateChart class as transition tables, built per configuration on first use."""

    def __init__(self, cls: type[StateChart]) -> None:
        _refuse_unsupported(cls)
        self.cls = cls
        self._plans: dict[tuple[Key, str | None], tuple[Plan, ...]] = {}
        # whether any state has an eventless transition (the flow and the chain have none)
        self.eventless = any(t.is_eventless and not t.initial for s in cls.states_map.values() for t in s.transitions)
        for state in cls.states_map.values():  # every configuration a step can leave it in
            if state.is_atomic:
                key = _key([s.value for s in (*reversed(list(state.ancestors())), state)])
                for event in (None, *cls._events):
                    self.plans(key, str(event) if event is not None else None)

    def plans(self, key: Key, event: str | None) -> tuple[Plan, ...]:
        """The transitions ``event`` (None: eventless) may take from this configuration, in the
        order python-statemachine tries them: the atomic state's own, then its ancestors'."""
        found = self._plans.get((key, event))
        if found is None:
            found = self._plans[(key, event)] = self._compile(key, event)
        return found

    def _compile(self, key: Key, event: str | None) -> tuple[Plan, ...]:
        values = _values(key)
        config = [self.cls.states_map[v] for v in values]
        atomic = [s for s in config if s.is_atomic]
        if len(atomic) > 1:
            raise NotCompilable(self.cls, f"configuration {values} has several atomic states")
        out = []
        for state in atomic:
            for s in (state, *state.ancestors()):
                for t in s.transitions:
                    if t.initial or not (t.is_eventless if event is None else t.match(event)):
                        continue
                    out.append(self._plan(t, config, values))
        return tuple(out)

    def _plan(self, t: Transition, config: list[State], values: tuple[Any, ...]) -> Plan:
        # python-statemachine's own exit and entry sets, on a stand-in holding this configuration
        probe = object.__new__(SyncEngine)
        stand_in = SimpleNamespace(
            configuration=OrderedSet(config),
            history_values={},
            enable_self_transition_entries=self.cls.enable_self_transition_entries,
            atomic_configuration_update=False,
        )
        probe.sm = stand_in  # type: ignore[assignment]  # all the set computations read of the machine
        probe._debug = lambda *a, **k: None
        probe._log_id = self.cls.__name__
        exit_infos, exited = probe._prepare_exit_states([t])
        entry_infos, default_entry, _history, _ = probe._prepare_entry_states([t], exited, OrderedSet(config))
        defaults = {i.state.id for i in default_entry if i.state}
        now = OrderedSet(values)
        exits = []
        for info in exit_infos:
            now.discard(info.state.value)
            exits.append((info.state, _key(now)))
        entries = []
        for info in entry_infos:
            target = info.state
            now.add(target.value)
            initial = next((i.on.key for i in target.transitions if i.initial), None) if target.id in defaults else None
            entries.append((target, _key(now), initial, bool(target.final and target.parent is None)))
        return Plan(t, t.before.key, t.cond.key, tuple(exits), t.on.key, tuple(entries), t.after.key, _key(values))


_TABLES: dict[type, MachineTable] = {}


def table_of(cls: type[StateChart]) -> MachineTable:
    """The transition tables of a machine class (compiled once per class)."""
    table = _TABLES.get(cls)
    if table is None:
        table = _TABLES[cls] = MachineTable(cls)
    return table


def _refuse_unsupported(cls: type[StateChart]) -> None:
    for flag in ("atomic_configuration_update", "catch_errors_as_events", "allow_event_without_transition"):
        if getattr(cls, flag):
            raise NotCompilable(cls, f"{flag} is True")
    states = list(cls.states_map.values())
    for state in states:
        if state.parallel:
            raise NotCompilable(cls, f"state {state.id!r} is parallel")
        if state.history or state.is_history:
            raise NotCompilable(cls, f"state {state.id!r} has a history state")
        if state.final and state.parent is not None:
            raise NotCompilable(cls, f"final state {state.id!r} is inside {state.parent.id!r} (done events)")
        if any(not spec.is_convention for spec in state.invoke):
            raise NotCompilable(cls, f"state {state.id!r} invokes something")
    for t in (t for state in states for t in state.transitions if not t.initial):
        if len(t.targets) != 1:
            raise NotCompilable(cls, f"{t} has {len(t.targets)} targets (targetless or multi-target)")
        if any(not spec.is_convention for spec in t.validators):
            raise NotCompilable(cls, f"{t} has validators")
        for e in t.events:
            if e == "*" or "." in e:
                raise NotCompilable(cls, f"{t} matches events by prefix or wildcard ({str(e)!r})")
    for e in cls._events:
        if e.delay or e.internal:
            raise NotCompilable(cls, f"event {e.id!r} is {'delayed' if e.delay else 'internal'}")


def _key(values: Any) -> Key:
    """The state value as the model holds it after python-statemachine writes ``values``."""
    values = tuple(values)
    return None if not values else values[0] if len(values) == 1 else values


def _values(key: Key) -> tuple[Any, ...]:
    return () if key is None else key if isinstance(key, tuple) else (key,)


# ---------------------------------------------------------------- one live machine, run from the tables
Call = Callable[[], Any]


@dataclass(frozen=True, slots=True)
class Bound:
    """A :class:`Plan` with the machine's own callables, their arguments bound."""

    conds: tuple[tuple[Call, bool], ...]
    before: tuple[Call, ...]
    exits: tuple[tuple[tuple[Call, ...], Call], ...]  # exit callbacks, then the state value written
    on: tuple[Call, ...]
    entries: tuple[tuple[Call, tuple[Call, ...], bool], ...]  # value written, enter callbacks, stops
    after: tuple[Call, ...]
    restore: Call
    # Everything up to ``after``, in order (made from the fields above, so a replaced field counts),
    # and whether a top-level final state is entered (it is the last state entered: it has no children).
    steps: tuple[Call, ...] = field(init=False)
    stops: bool = field(init=False)

    def __post_init__(self) -> None:
        steps = [*self.before]
        for calls, write in self.exits:
            steps += (*calls, write)
        steps += self.on
        for write, calls, _stops in self.entries:
            steps += (write, *calls)
        object.__setattr__(self, "steps", tuple(steps))
        object.__setattr__(self, "stops", any(stops for _w, _c, stops in self.entries))


class Runner:
    """Runs one live StateChart from its class's tables (see the module docstring)."""

    def __init__(self, sm: StateChart) -> None:
        if not isinstance(sm._engine, SyncEngine):
            raise NotCompilable(sm, "it has async callbacks")
        if _executor(sm, sm.prepare.key):
            raise NotCompilable(sm, "it has prepare_event callbacks")
        self.sm = sm
        self.table = table_of(type(sm))
        self.model, self.field = sm.model, sm.state_field
        self._read, self._write = _accessors(self.model, self.field)
        self.queue: deque[str] = deque()  # events sent while a step runs (python-statemachine's external queue)
        self.busy = False
        self._bound: dict[str | None, dict[Key, tuple[Bound, ...]]] = {}  # by event, then configuration

    def send(self, event: str, *args: Any, **kwargs: Any) -> None:
        """As ``StateChart.send(event)``; the compiled path sends events without arguments."""
        if args or kwargs:
            raise NotCompilable(self.sm, "an event was sent with arguments")
        if not self.sm._engine.running:
            raise self._not_allowed(event)
        self.queue.append(event)
        if self.busy:
            return  # python-statemachine too: processed once the running step is done
        self.busy = True
        try:
            self._loop()
        finally:
            self.busy = False

    def _loop(self) -> None:
        engine, queue = self.sm._engine, self.queue
        took = True
        while took and engine.running:
            try:
                took = self._eventless()
            except Exception:
                queue.clear()
                raise
            if not engine.running:
                break
            if queue:
                event = queue.popleft()
                chosen = self._choose(event)  # a failing guard leaves the queue
                if chosen is None:
                    raise self._not_allowed(event)
                try:
                    self._microstep(chosen)
                except Exception:
                    queue.clear()
                    raise
                took = True
        if not engine.running:
            queue.clear()  # a stopped machine drops what was queued

    def _eventless(self) -> bool:
        took = False
        while True:
            chosen = self._choose(None)
            if chosen is None:
                return took
            took = True
            self._microstep(chosen)

    def _choose(self, event: str | None) -> Bound | None:
        """The transition ``event`` (None: eventless) takes now, if any: the first of the
        configuration's transitions whose guards pass (:meth:`_select`).  Asked after every step: a
        configuration without such transitions (most, for eventless) calls nothing more."""
        if event is None and not self.table.eventless:
            return None  # nothing to read: no state of the machine has one
        raw = self._read()
        kind = type(raw)  # exact types first: an isinstance check against an ABC is slow
        key = tuple(raw) if kind is OrderedSet or (kind is not str and isinstance(raw, MutableSet)) else raw
        by_key = self._bound.get(event)
        plans = by_key.get(key) if by_key is not None else None
        if plans is None:
            plans = self._plans(event, key)
        return self._select(plans) if plans else None

    def _plans(self, event: str | None, key: Key) -> tuple[Bound, ...]:
        """The class's plans for this configuration and event, bound to this machine (once)."""
        bound = tuple(self._bind(p, event) for p in self.table.plans(key, event))
        self._bound.setdefault(event, {})[key] = bound
        return bound

    @staticmethod
    def _select(plans: tuple[Bound, ...]) -> Bound | None:
        for plan in plans:
            for guard, expected in plan.conds:
                if bool(guard()) is not expected:
                    break
            else:
                return plan
        return None

    def _microstep(self, plan: Bound) -> None:
        try:
            for call in plan.steps:  # before, exits, on, entries: one loop (a step runs this often)
                call()
            if plan.stops:
                self.sm._engine.running = False
        except Exception:
            plan.restore()
            raise
        for call in plan.after:
            call()

    def _not_allowed(self, event: str) -> TransitionNotAllowed:
        known = getattr(self.sm, event, None)
        name = known.name if known else event
        return TransitionNotAllowed(BoundEvent(id=event, name=name, _sm=self.sm), self.sm.configuration)

    # ------------------------------------------------------------ binding the registry's callables
    def _bind(self, plan: Plan, event: str | None) -> Bound:
        t = plan.transition
        at_source = {"source": t.source, "state": t.source, "target": t.target}
        bind = partial(self._calls, event=event, transition=t)
        return Bound(
            conds=tuple(
                (call, bool(w.expected_value)) for call, w in self._wrapped(plan.cond, event, transition=t, **at_source)
            ),
            before=bind(plan.before, **at_source),
            exits=tuple(
                (bind(state.exit.key, source=state, state=state, target=t.target), self._writer(value))
                for state, value in plan.exits
            ),
            on=bind(plan.on, **at_source),
            entries=tuple(
                (
                    self._writer(value),
                    bind(state.enter.key, source=t.source, state=state, target=state)
                    + (bind(initial, source=t.source, state=state, target=state) if initial else ()),
                    stops,
                )
                for state, value, initial, stops in plan.entries
            ),
            after=bind(plan.after, source=t.source, state=t.target, target=t.target),
            restore=self._writer(plan.restore),
        )

    def _calls(self, key: str, **context: Any) -> tuple[Call, ...]:
        return tuple(call for call, _ in self._wrapped(key, **context))

    def _wrapped(self, key: str, event: str | None, **context: Any) -> Iterator[tuple[Call, Any]]:
        """The callables the registry holds under ``key`` for this event, arguments bound."""
        for wrapper in _executor(self.sm, key):
            condition = wrapper.condition
            if condition is not allways_true:
                # a naming convention (on_<event> ...) runs only for its own event
                if getattr(condition, "__func__", None) is not Event.is_same_event:
                    raise NotCompilable(self.sm, f"callback {wrapper} runs under a condition")
                if condition.__self__ != event:
                    continue
            yield self._callable(wrapper, context), wrapper

    def _callable(self, wrapper: Any, context: dict[str, Any]) -> Call:
        adapter = wrapper._callback
        code = getattr(adapter, "__code__", None)
        if code is None or code.co_name != "signature_adapter" or "a_callable" not in code.co_freevars:
            raise NotCompilable(self.sm, f"callback {wrapper} is not a plain method (a property or an expression)")
        cells = dict(zip(code.co_freevars, (c.cell_contents for c in adapter.__closure__ or ()), strict=True))
        func = cells["a_callable"]
        if inspect.iscoroutinefunction(func):
            raise NotCompilable(self.sm, f"callback {wrapper} is async")
        kwargs = {"machine": self.sm, "model": self.model, **context}
        wanted = {}
        for p in inspect.signature(func).parameters.values():
            unbound = p.name in UNBOUND or (p.name not in BINDABLE and p.default is p.empty)
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or unbound:
                raise NotCompilable(self.sm, f"callback {wrapper} asks for {p}")
            if p.name in BINDABLE:
                wanted[p.name] = kwargs[p.name]
        return partial(func, **wanted) if wanted else func

    def _writer(self, value: Key) -> Call:
        write = self._write
        if isinstance(value, tuple):  # a fresh set each time, as python-statemachine writes one
            return lambda: write(OrderedSet(value))
        return partial(write, value)


def _accessors(model: Any, name: str) -> tuple[Callable[[], Any], Callable[[Any], None]]:
    """How the runner reads and writes the model's state value.  Where the field is a property (the
    models of fsm's machines are), its own functions are called: that skips getattr's lookup, and
    the state is read after every step.  A model that names where its property reads from
    (``state_path``, dotted from the model, as fsm's do) is read without a Python call at all."""
    prop = getattr(type(model), name, None)
    if isinstance(prop, property) and prop.fget is not None and prop.fset is not None:
        path = getattr(model, "state_path", None) if name == "state" else None
        read = partial(attrgetter(path), model) if path else partial(prop.fget, model)
        return read, partial(prop.fset, model)
    return partial(getattr, model, name), partial(setattr, model, name)


def _executor(sm: StateChart, key: str) -> Any:
    return sm._callbacks._registry.get(key, ())


# ---------------------------------------------------------------- switching a machine over
def attach(sm: StateChart) -> Runner:
    """Make ``sm.send`` run from the compiled tables (the machine itself is unchanged)."""
    runner = Runner(sm)
    sm.send = runner.send  # type: ignore[method-assign]  # an instance attribute: the class's send is untouched
    return runner


def detach(sm: StateChart) -> None:
    """Back to python-statemachine's own ``send``."""
    vars(sm).pop("send", None)


def compile_game(game: Any) -> None:
    """Run every machine of ``game`` compiled from now on: its flow, its chain, each procedure
    (also those it makes later, :meth:`fsm.engine.game.Game._procedure`)."""
    game.compiled = True
    for sm in (game.flow, game.chain, *game._procedures.values()):
        attach(sm)


@contextmanager
def compiled_machines(game: Any) -> Iterator[None]:
    """Within the block, every machine of ``game`` runs compiled; afterwards as before."""
    if game.compiled:
        yield
        return
    compile_game(game)
    try:
        yield
    finally:
        game.compiled = False
        for sm in (game.flow, game.chain, *game._procedures.values()):
            detach(sm)
