"""One python-statemachine ``StateChart`` per procedure, compiled from its :class:`KindSpec`.

Every procedure has the shape the rules page gives the ability kinds::

    idle ─declare→ declared ─open_window→ counter_window ─close_window→ recheck ─resolve→ resolved
                             └─skip_window (no window, EQ-1) ──────────→ recheck ─fizzle→ fizzled

and drops what its kind does not do, so each machine says what its kind does:

* a kind nobody declares (``frequency = "automatic"``: an auto, AUTO-1; the speed roll,
  FLOW-SPD) starts with ``activate`` (自動発動, it activates by itself) into ``activated``;
* a kind without a counter window (MAR-3, AUTO-3) has no ``counter_window`` state;
* a kind with no fizzle condition (an auto, a 【進軍】, the speed roll) has nothing to recheck:
  no ``recheck`` state, no ``fizzled``, no guard; ``resolve`` follows the declaration (or the
  window) directly, e.g. ``idle ─declare→ declared ─resolve→ resolved`` for a 【進軍】 (MAR-3).

Along the way:

* ``declare`` pays the price when the spec says it is paid at declaration (COST-3), or
  reserves a skill card's condition (SC-4);
* the dice, if any, are rolled as part of the declaration, after any price paid then and
  before the counter window opens (ACT-4, COST-3, SD-4), so both players see the result
  before deciding whether to counter;
* the machine itself decides what follows a declaration and a recheck: the counter window
  (or not) is its own transition, compiled from the spec, and the recheck is its guards — the
  tests of :mod:`fsm.spec.recheck` — on eventless transitions to ``resolved`` and ``fizzled`` (one
  ``fizzled`` edge per condition, so a diagram shows *why* an item fizzles: ACT-6, COST-5, SD-6,
  SC-6, SYNC-1).  The engine sends only what players and the chain do: ``declare`` (or
  ``activate``) and ``close_window`` (the chain reached this item, newest first);
* on resolution the price is paid if it is paid then (ACT-7, SD-7, MAR-3), and the effect happens.

The machine keeps no state of its own: its model is a :class:`Slot` that points at the
chain item being stepped, so one machine per procedure serves every item, and a snapshot
of the table is a snapshot of every machine.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from statemachine import State, StateChart
from statemachine.factory import StateMachineMetaclass

from fsm.spec.kinds import KindSpec
from fsm.spec.prices import PRICES, free, holds
from fsm.spec.recheck import RECHECKS, Recheck
from fsm.table.model import ChainItem
from fsm.table.protocol import ProcedureHost

#: Guard names, by the recheck condition they check (true while the item may still resolve).
GUARDS: dict[str, str] = {key: r.guard for key, r in RECHECKS.items()}

#: What each guard and action means, for diagrams: (Japanese, English, clause slot).
MEANINGS: dict[str, tuple[str, str, str]] = {
    **{r.guard: (*r.holds, "recheck") for r in RECHECKS.values()},
    "pay_price": ("代価を支払う", "pay the price", "price"),
    "reserve_condition": ("条件のスキルを確保", "hold the condition's skills", "declare"),
    "act_in_normal_timing": ("通常タイミングなら行動完了", "行動完了 if used in a normal timing", "FLOW-NORMAL"),
    "roll_dice": ("ダイスがあれば振る", "roll the dice, if the effect has any", "declare"),
    "apply_effect": ("効果が発動", "the effect happens", "resolve"),
    "release": ("確保を解除", "release what was held", "recheck"),
    "on_enter_counter_window": ("チェーンで待つ", "waits on the chain", "window"),
    "on_enter_resolved": ("結果を記録", "the outcome is recorded", "resolve"),
    "on_enter_fizzled": ("結果を記録", "the outcome is recorded", "recheck"),
}

#: The step an eventless transition takes, by the state it enters (how a diagram labels it).
EVENTLESS_STEPS: dict[str, str] = {
    "counter_window": "open_window",
    "recheck": "skip_window",
    "resolved": "resolve",
    "fizzled": "fizzle",
}


class Slot:
    """The model of a procedure machine: whichever chain item is being stepped."""

    __slots__ = ("item",)
    state_path = "item.state"  # what `state` reads (the compiled runner reads it so)

    def __init__(self, item: ChainItem) -> None:
        self.item = item

    @property
    def state(self) -> Any:
        return self.item.state

    @state.setter
    def state(self, value: Any) -> None:
        self.item.state = value


class Procedure(StateChart):
    """Base of every compiled procedure.  Illegal events raise, callback errors propagate."""

    allow_event_without_transition = False  # an event with no transition is a bug: raise
    catch_errors_as_events = False  # a failing action must not half-complete a transition
    spec: KindSpec

    def __init__(self, host: ProcedureHost) -> None:
        self.host = host
        super().__init__(model=Slot(ChainItem(0, self.spec.key, "", None, "")))

    def step(self, item: ChainItem, event: str) -> None:
        """Send ``event`` for ``item``.  One machine serves every item of its kind; an earlier item
        reaching a final state (resolved / fizzled) stops python-statemachine's run loop, so it is
        woken for the next item (the new item's own state is on the item)."""
        self.model.item = item
        self._engine.running = True
        self.send(event)

    # --- actions (the game does the work; the machine says when) -----------------
    def pay_price(self) -> None:
        self.host.pay_price(self.model.item)

    def reserve_condition(self) -> None:
        self.host.reserve(self.model.item)

    def act_in_normal_timing(self) -> None:
        self.host.act_in_normal_timing(self.model.item)

    def roll_dice(self) -> None:
        self.host.roll_dice(self.model.item)

    def apply_effect(self) -> None:
        self.host.apply_effect(self.model.item)

    def release(self) -> None:
        self.host.release(self.model.item)

    # --- what entering a state means ------------------------------------------------------
    def on_enter_counter_window(self) -> None:
        self.host.open_window(self.model.item)

    def on_enter_resolved(self) -> None:
        self.host.settled(self.model.item)

    def on_enter_fizzled(self) -> None:
        self.host.settled(self.model.item)


#: The steps a procedure narrates; each transition names its own (``before="tell_declare"`` ...),
#: so its line comes before what its actions log.
STEPS = ("declare", "open_window", "skip_window", "recheck", "resolve", "fizzle")


def _teller(step: str) -> Callable[[Procedure, State, Any], None]:
    def tell(self: Procedure, target: State, transition: Any) -> None:
        # how a diagram names the edge; nobody reads it when nothing is narrated (1 % of exploring)
        event = "" if self.host.quiet else str(transition.event) or EVENTLESS_STEPS[target.id]
        self.host.tell(self.model.item, step, target.id, event)

    tell.__name__ = f"tell_{step}"
    return tell


for _step in STEPS:
    setattr(Procedure, f"tell_{_step}", _teller(_step))


def _guard(check: Recheck) -> Callable[[Procedure], bool]:
    """The guard a recheck condition becomes: true while the item may still resolve."""

    def guard(self: Procedure) -> bool:
        return not check.fizzles(self.host, self.model.item)

    guard.__name__ = check.guard
    return guard


def _state(ja: str, en: str, **kw: Any) -> State:
    return State(f"{ja} / {en}", **kw)


@cache
def procedure_class(spec: KindSpec) -> type[Procedure]:
    """Compile a spec into its StateChart class (cached: one class per spec)."""
    idle = _state("待機", "idle", initial=True)
    # What nobody declares (AUTO-1, FLOW-SPD) starts by activating itself, not with a declaration.
    first, start_id, ja = ("activate", "activated", "自動発動") if spec.by_itself else ("declare", "declared", "宣言")
    start = _state(ja, start_id)
    resolved = _state("発動", "resolved", final=True)
    paid = PRICES[spec.price].en
    price = paid if free(spec.price) else f"{paid}, paid at {spec.price_paid}"
    attrs: dict[str, Any] = {
        "spec": spec,
        "__doc__": f"{spec.label} {spec.en}: price {price}.",
        "idle": idle,
        start_id: start,
        "resolved": resolved,
    }
    on_declare = []
    if spec.price_paid == "declare" and not free(spec.price):
        on_declare.append("pay_price")
    if holds(spec.price):
        on_declare.append("reserve_condition")
    on_declare.append("roll_dice")  # right after declaring, before step 2 (ACT-4, COST-3, SD-4)
    if spec.acts_in_normal_timing:
        on_declare.append("act_in_normal_timing")
    attrs[first] = idle.to(start, before="tell_declare", on=on_declare)
    on_resolve = ["pay_price"] if spec.price_paid == "resolve" and not free(spec.price) else []
    on_resolve.append("apply_effect")
    # Where the item goes when its turn to resolve comes: its recheck, or (nothing to recheck)
    # straight to resolving, e.g. idle ─declare→ declared ─→ resolved for a 【進軍】 (MAR-3).
    if spec.rechecks:
        recheck = attrs["recheck"] = _state("再確認", "recheck")
        fizzled = attrs["fizzled"] = _state("不発", "fizzled", final=True)
        checks = [RECHECKS[key] for key in spec.fizzle_if]
        attrs.update({c.guard: _guard(c) for c in checks})
        # Eventless: the first enabled transition in this order is taken, so the guards decide.
        recheck.to(resolved, cond=[c.guard for c in checks], before="tell_resolve", on=on_resolve)
        for c in checks:
            recheck.to(fizzled, unless=c.guard, before="tell_fizzle", on="release")
        then: State = recheck
        arrive: dict[str, Any] = {"before": ["tell_recheck"]}
    else:
        then, arrive = resolved, {"before": ["tell_resolve"], "on": on_resolve}
    if spec.opens_window:
        window = attrs["counter_window"] = _state("反撃受付", "counter window")
        start.to(window, before="tell_open_window")  # eventless: this kind opens a counter window
        attrs["close_window"] = window.to(then, **arrive)
    else:  # eventless: no window (MAR-3, AUTO-3, EQ-1); it goes on at once
        start.to(then, **{**arrive, "before": ["tell_skip_window", *arrive["before"]]})
    name = "".join(part.capitalize() for part in spec.key.split("_")) + "Procedure"
    # Calling the metaclass returns the new class; python-statemachine types it as the metaclass.
    return cast("type[Procedure]", StateMachineMetaclass(name, (Procedure,), attrs))
