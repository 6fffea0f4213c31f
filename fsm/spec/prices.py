"""The price words (``price = "act"``), one registered entry each.

A procedure's price (代価) is what using it costs, paid at declaration or at resolution
(``price_paid``, COST-3 / ACT-7).  Each word of :data:`PRICES` says, as functions:

* how it is paid (the entry's function);
* ``release`` — what a fizzle does with it: a 代償 already paid may be refunded (variant
  refund_cost_on_fizzle, COST-5), a price due at resolution is never paid (ACT-7, SD-7), a
  held condition is let go (SC-4);
* ``payable`` — whether it can be paid now, asked before a declaration is allowed (COST-3);
* ``hold`` — what declaring holds until resolution (a skill card's condition, SC-4);

and, as data, ``categories``: the kinds of procedure it can be the price of, with ``needs``
saying why, and ``brings_about``: the recheck conditions paying it makes true (a kind that
pays it at declaration and rechecks one of them would always fizzle).  The loader refuses
both misfits, naming the file and key.  A designer's new price
is one more :func:`price` registration (docs/designer.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from fsm.i18n import N_, _, either
from fsm.rules.skills import Pool, can_pay, fmt, payment
from fsm.rules.vocab import Registry
from fsm.spec import paying
from fsm.table.model import Ability, ChainItem, Unit
from fsm.table.protocol import Board, Spec

Problem = tuple[str, str]  # (clause, message)

#: Paying a price: the unit that pays it (an item with no unit pays nothing).
PayFn = Callable[[Board, ChainItem, Spec, Unit], None]
ReleaseFn = Callable[[Board, ChainItem, Spec, Unit | None], None]
PayableFn = Callable[[Board, Spec, Unit, Ability | None], Problem | None]
HoldFn = Callable[[Board, ChainItem], None]

PRICES: Registry[PayFn] = Registry(N_("price"))


def _nothing_released(board: Board, item: ChainItem, spec: Spec, unit: Unit | None) -> None:
    return None


def _always_payable(board: Board, spec: Spec, unit: Unit, ab: Ability | None) -> Problem | None:
    return None


def _never_paid(board: Board, item: ChainItem, spec: Spec, unit: Unit | None) -> None:
    """A price that belongs to step 4 (ACT-7, SD-7): a fizzled item never pays it."""
    if unit is not None and spec.price_paid == "resolve":
        price = either(PRICES[spec.price].ja, PRICES[spec.price].en)
        board.note(
            _("{source} fizzled, so its price ({price}) is never paid").format(
                source=board.source_name(item), price=price
            ),
            spec.clause("price"),
        )


def price(
    key: str,
    *,
    ja: str,
    en: str,
    clause: str,
    release: ReleaseFn = _nothing_released,
    payable: PayableFn = _always_payable,
    hold: HoldFn | None = None,
    categories: tuple[str, ...] | None = None,
    needs: str = "",
    brings_about: tuple[str, ...] = (),
) -> Callable[[PayFn], PayFn]:
    """Register a price word (see the module docstring for what each setting means)."""
    return PRICES.register(
        key,
        ja=ja,
        en=en,
        clause=clause,
        release=release,
        payable=payable,
        hold=hold,
        categories=categories,
        needs=needs,
        brings_about=brings_about,
    )


def _stand_in(board: Board, need: Mapping[str, int], paid: Pool) -> None:
    extra = paid.get("全", 0) - need.get("全", 0)
    if extra > 0:
        covered = fmt(Counter({s: n - paid.get(s, 0) for s, n in need.items() if n > paid.get(s, 0)}))
        board.note(_("全×{extra} stands in for {covered}").format(extra=extra, covered=covered), "SYM-2")


# ---------------------------------------------------------------- act: 行動完了 (ACT-7)
@price(
    "act", ja="行動完了にする", en="unit becomes 行動完了", clause="ACT-7", release=_never_paid, brings_about=("acted",)
)
def _act(board: Board, item: ChainItem, spec: Spec, u: Unit) -> None:
    if spec.category == "attack" and not board.variants.normal_action_acts:
        board.note(
            _("{unit} attacks and stays 行動未完了 (variant normal_action_acts)").format(unit=u.name),
            spec.clause("price"),
        )
        return
    u.acted = True
    board.note(_("{unit} becomes 行動完了").format(unit=u.name), spec.clause("price"))


# ---------------------------------------------------------------- pay_cost: the 代償 (COST-3, COST-5)
def _refund(board: Board, item: ChainItem, spec: Spec, u: Unit | None) -> None:
    if not board.variants.refund_cost_on_fizzle:
        return
    if u is not None and item.paid:
        u.skills = u.skills.replacing(consumed=u.skills.consumed - dict(item.paid))
        board.note(
            _("the 代償 {cost} is refunded (variant refund_cost_on_fizzle)").format(cost=fmt(Counter(dict(item.paid)))),
            "COST-5",
        )
    paying.refund(board, item)  # every other part too: a card back to the hand, a unit to the field


def _cost_payable(board: Board, spec: Spec, u: Unit, ab: Ability | None) -> Problem | None:
    if ab is None:
        return None
    have, holdings = board.available(u), board.holdings(u)
    if can_pay(have, [ab.cost_pool, *holdings]):
        return paying.shortfall(board, paying.parts_of(spec, ab), u, ab.name, spec.clause("price"))
    short = (
        _("{unit} has {have}, already held by {holders}, and cannot pay the 代償 {cost} of {ability}")
        if holdings
        else _("{unit} has {have} and cannot pay the 代償 {cost} of {ability}")
    )
    return (
        board.held_clause(u, ab.cost_pool, spec.clause("price")),
        short.format(unit=u.name, have=fmt(have), holders=board.holders(u), cost=fmt(ab.cost_pool), ability=ab.name),
    )


@price(
    "pay_cost",
    ja="代償を消費",
    en="pay the 代償",
    clause="COST-3",
    release=_refund,
    payable=_cost_payable,
    categories=("ability",),
    needs=N_("a 代償 is the skills listed as an ability's `cost` (COST-3), and only an ability has one"),
)
def _pay_cost(board: Board, item: ChainItem, spec: Spec, u: Unit) -> None:
    ab = board.ability_of(item)
    assert ab is not None, "the loader gives pay_cost only to ability kinds"
    parts = paying.parts_of(spec, ab)
    if ab.cost or not parts:  # skills (SYM-1), or a 代償 of nothing at all, said as before
        paid = payment(board.available(u), ab.cost_pool)
        u.skills = u.skills.replacing(consumed=u.skills.consumed + paid)
        item.paid = tuple(paid.items())
        board.note(_("{unit} pays the 代償 {paid}").format(unit=u.name, paid=fmt(paid)), spec.clause("price"))
        _stand_in(board, ab.cost_pool, paid)
    paying.pay(board, item, parts, ab.name)


# ---------------------------------------------------------------- discard_self: 破棄 (SD-7)
@price(
    "discard_self",
    ja="ユニットを破棄",
    en="discard the unit",
    clause="SD-7",
    release=_never_paid,
    brings_about=("destroyed", "off_field"),
)
def _discard_self(board: Board, item: ChainItem, spec: Spec, u: Unit) -> None:
    if u.on_field:
        board.note(_("{unit} is discarded (破棄) as the price").format(unit=u.name), spec.clause("price"))
        board.leave_field(u, "graveyard", discarded=True)


# ---------------------------------------------------------------- march: 進軍完了 (MAR-1)
@price("march", ja="進軍完了にする", en="unit becomes 進軍完了", clause="MAR-1", release=_never_paid)
def _march(board: Board, item: ChainItem, spec: Spec, u: Unit) -> None:
    u.marched = True
    board.note(_("{unit} becomes 進軍完了").format(unit=u.name), spec.clause("price"))


# ---------------------------------------------------------------- consume_condition: a card's condition (SC-4, SC-7)
def _let_go(board: Board, item: ChainItem, spec: Spec, u: Unit | None) -> None:
    item.reserved = ()


def _hold_condition(board: Board, item: ChainItem) -> None:
    card = board.table.cards[item.source]
    item.reserved = card.condition.symbols
    unit = board.table.units[item.unit or ""]
    if board.quiet:
        return  # nobody reads the line: not worded
    board.note(
        _("{card}'s condition {condition} is held on {unit} until resolution").format(
            card=card.name, condition=card.condition, unit=unit.name
        ),
        "SC-4",
    )


@price(
    "consume_condition",
    ja="条件のスキルを使用",
    en="consume the condition's skills",
    clause="SC-7",
    release=_let_go,
    hold=_hold_condition,
    categories=("skill", "equip"),
    needs=N_("the condition is a card's (SC-4), and only a skill card or an equip is a card"),
)
def _consume_condition(board: Board, item: ChainItem, spec: Spec, u: Unit) -> None:
    card = board.table.cards[item.source]
    paid = payment(board.available(u), card.condition.needs)
    u.skills = u.skills.replacing(consumed=u.skills.consumed + paid)
    item.reserved = ()
    if not board.quiet:  # nobody reads the line: not worded
        board.note(
            _("{unit} uses {paid} for {card}; lost for this battle").format(
                unit=u.name, paid=fmt(paid), card=card.name
            ),
            "SC-2",
        )
    _stand_in(board, card.condition.needs, paid)


# ---------------------------------------------------------------- none
@price("none", ja="なし", en="nothing", clause="AB-1")
def _none(board: Board, item: ChainItem, spec: Spec, u: Unit) -> None:
    return None


# ---------------------------------------------------------------- reading the registry
def _unit(board: Board, item: ChainItem) -> Unit | None:
    return board.table.units.get(item.unit or "")


def pay(board: Board, item: ChainItem, spec: Spec) -> None:
    """Pay the item's price (at declaration or at resolution, as the procedure says)."""
    u = _unit(board, item)
    if u is not None:
        PRICES[spec.price].function(board, item, spec, u)


def release(board: Board, item: ChainItem, spec: Spec) -> None:
    """The item fizzled: what becomes of its price (COST-5, ACT-7, SD-7, SC-4)."""
    PRICES[spec.price].data["release"](board, item, spec, _unit(board, item))


def payable(board: Board, spec: Spec, unit: Unit, ability: Ability | None) -> Problem | None:
    """None if ``unit`` can pay the price now (of ``ability``, if it is one's), else (clause, why not) (COST-3)."""
    check: PayableFn = PRICES[spec.price].data["payable"]
    return check(board, spec, unit, ability)


def free(key: str) -> bool:
    """A price of nothing: no step pays it (an auto, the speed roll, AUTO-1)."""
    return key == "none"


def holds(key: str) -> bool:
    """Declaring holds something until resolution (a skill card's condition, SC-4)."""
    return PRICES[key].data["hold"] is not None


def hold(board: Board, item: ChainItem, spec: Spec) -> None:
    """What declaring holds until resolution (SC-4)."""
    held: HoldFn | None = PRICES[spec.price].data["hold"]
    if held is not None:
        held(board, item)


def unfit(key: str, category: str) -> str:
    """Why price ``key`` cannot be the price of a ``category`` procedure ("" if it can)."""
    entry = PRICES[key]
    allowed = entry.data["categories"]
    if allowed is None or category in allowed:
        return ""
    return _("price {key!r} needs category {allowed}: {needs}").format(
        key=key, allowed=" or ".join(allowed), needs=_(entry.data["needs"])
    )


def self_fizzling(key: str, paid_at: str, fizzle_if: list[str]) -> str:
    """The recheck condition that paying ``key`` at ``paid_at`` would always meet ("" if none)."""
    if paid_at != "declare" or key not in PRICES:
        return ""
    return next((r for r in fizzle_if if r in PRICES[key].data["brings_about"]), "")
