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
* ``resolve`` is guarded by every recheck condition of the spec; each condition also has
  its own ``fizzle`` edge, so a diagram shows *why* an item fizzles (ACT-6, COST-5, SD-6,
  SC-6, SYNC-1);
* on resolution the price is paid if it is paid then (ACT-7, SD-7, MAR-3), and the effect happens.

The machine keeps no state of its own: its model is a :class:`Slot` that points at the
chain item being stepped, so one machine per procedure serves every item, and a snapshot
of the table is a snapshot of every machine.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, cast

from statemachine import State, StateChart
from statemachine.factory import StateMachineMetaclass

from .kinds import KindSpec
from .model import ChainItem
from .prices import PRICES

if TYPE_CHECKING:
    from .engine import Game

#: Guard names, by the recheck condition they check.  The guard is *true* when the item may
#: still resolve.
GUARDS: dict[str, str] = {
    "acted": "unit_not_acted",
    "destroyed": "unit_not_destroyed",
    "off_field": "unit_on_field",
    "condition_unmet": "condition_still_met",
    "target_gone": "target_still_there",
    "partner_left": "partner_in_party",
}

#: What each guard and action means, for diagrams: (Japanese, English, clause slot).
MEANINGS: dict[str, tuple[str, str, str]] = {
    "unit_not_acted": ("ユニットが行動未完了", "unit still 行動未完了", "recheck"),
    "unit_not_destroyed": ("ユニットが撃破/破棄されていない", "unit not 撃破/破棄", "recheck"),
    "unit_on_field": ("ユニットが場に存在", "unit still on the field", "recheck"),
    "condition_still_met": ("条件を満たせる", "condition can still be met", "recheck"),
    "target_still_there": ("対象が戦闘中", "target still in the battle", "recheck"),
    "partner_in_party": (
        "同調相手が同じパーティー",
        "【同調】 partner in the same party",
        "recheck",
    ),
    "pay_price": ("代価を支払う", "pay the price", "price"),
    "reserve_condition": ("条件のスキルを確保", "hold the condition's skills", "declare"),
    "roll_dice": ("ダイスがあれば振る", "roll the dice, if the effect has any", "declare"),
    "apply_effect": ("効果が発動", "the effect happens", "resolve"),
    "release": ("確保を解除", "release what was held", "recheck"),
}


class Slot:
    """The model of a procedure machine: whichever chain item is being stepped."""

    __slots__ = ("item",)

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

    def __init__(self, game: Game) -> None:
        self.game = game
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
        self.game._pay_price(self.model.item, self.spec)

    def reserve_condition(self) -> None:
        self.game._reserve(self.model.item)

    def roll_dice(self) -> None:
        self.game._roll_dice(self.model.item)

    def apply_effect(self) -> None:
        self.game._apply_effect(self.model.item, self.spec)

    def release(self) -> None:
        self.game._release(self.model.item, self.spec)

    # --- guards: true while the item may still resolve ---------------------------
    def unit_not_acted(self) -> bool:
        return "acted" not in self.game._fizzle_reasons(self.model.item, ("acted",))

    def unit_not_destroyed(self) -> bool:
        return not self.game._fizzle_reasons(self.model.item, ("destroyed",))

    def unit_on_field(self) -> bool:
        return not self.game._fizzle_reasons(self.model.item, ("off_field",))

    def condition_still_met(self) -> bool:
        return not self.game._fizzle_reasons(self.model.item, ("condition_unmet",))

    def target_still_there(self) -> bool:
        return not self.game._fizzle_reasons(self.model.item, ("target_gone",))

    def partner_in_party(self) -> bool:
        return not self.game._fizzle_reasons(self.model.item, ("partner_left",))


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
    price = paid if spec.price == "none" else f"{paid}, paid at {spec.price_paid}"
    recheck = _state("再確認", "recheck")
    attrs: dict[str, Any] = {
        "spec": spec,
        "__doc__": f"{spec.label} {spec.en}: price {price}.",
        "idle": idle,
        start_id: start,
        **({"recheck": recheck} if spec.rechecks else {}),  # nothing to recheck: no recheck state
        "resolved": resolved,
    }
    on_declare = []
    if spec.price_paid == "declare" and spec.price != "none":
        on_declare.append("pay_price")
    if spec.price == "consume_condition":
        on_declare.append("reserve_condition")
    on_declare.append("roll_dice")  # right after declaring, before step 2 (ACT-4, COST-3, SD-4)
    attrs[first] = idle.to(start, on=on_declare)
    waiting = start  # the state the item leaves for its recheck, or straight for resolving
    if spec.opens_window:
        window = _state("反撃受付", "counter window")
        attrs["counter_window"] = window
        attrs["open_window"] = start.to(window)
        waiting = window
    on_resolve = ["pay_price"] if spec.price_paid == "resolve" and spec.price != "none" else []
    on_resolve.append("apply_effect")
    if spec.rechecks:
        guards = [GUARDS[r] for r in spec.fizzle_if]
        attrs["close_window" if spec.opens_window else "skip_window"] = waiting.to(recheck)
        attrs["resolve"] = recheck.to(resolved, cond=guards, on=on_resolve)
        fizzled = _state("不発", "fizzled", final=True)
        attrs["fizzled"] = fizzled
        fizzle = recheck.to(fizzled, unless=guards[0], on="release")
        for guard in guards[1:]:
            fizzle |= recheck.to(fizzled, unless=guard, on="release")
        attrs["fizzle"] = fizzle
    else:
        attrs["resolve"] = waiting.to(resolved, on=on_resolve)  # nothing to recheck: no guard
    name = "".join(part.capitalize() for part in spec.key.split("_")) + "Procedure"
    # Calling the metaclass returns the new class; python-statemachine types it as the metaclass.
    return cast("type[Procedure]", StateMachineMetaclass(name, (Procedure,), attrs))
