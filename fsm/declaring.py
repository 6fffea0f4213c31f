"""The checks shared by every declared procedure, in the order a rules reader asks them: where
the game stands (battle or main phase), the timing (TIM-*), how often (ACT-2, SD-2, MAR-1), the
price (COST-3), a 【同調】 partner (SYNC-1), the target (ACT-3, COST-2, SD-3, MAR-2); and a card's
condition (SC-1, SC-4, EQ-1, NAME-1, SYM-3).

Each returns None, or the (clause, message) of the rule that forbids the move.
"""

from __future__ import annotations

from . import prices
from .kinds import KindSpec
from .model import Ability, Card, Unit
from .moves import Move
from .seat import Seat
from .skills import Condition, Pool, can_pay, fmt
from .timing import refusal_clause, use_as
from .variants import BY_NAME as VARIANT_SPECS

Problem = tuple[str, str]  # (clause, message)

#: What a card or an ability may name as its target (a scenario's ``target``).
TARGETED = ("unit", "player", "geo", "equip")


def wait_for_priority(seat: Seat, player: str) -> Problem:
    holder = seat.table.priority
    return ("TIM-CTR-2", f"{holder} has priority in the counter window; {player} must wait for {holder} to pass")


def use_problem(
    seat: Seat,
    m: Move,
    spec: KindSpec,
    u: Unit,
    timings: tuple[str, ...],
    target_kind: str,
    ab: Ability | None,
) -> Problem | None:
    """Checks shared by every declared procedure, in the order a rules reader would ask."""
    t = seat.table
    # where the game stands: battle or main phase (ACT-1, COST-1, SD-1, MAR-1, SC-1)
    if spec.used_in_battle(seat.flow.at("main_phase")):
        if t.battle is None or seat.flow.at("main_phase"):
            return (spec.clause("usable"), f"{spec.label} is used only during a battle")
        if not seat.in_battle(u):
            return (spec.clause("usable"), f"{u.name} is not taking part in this battle")
    if spec.own_main_phase_only and (not seat.flow.at("main_phase") or t.active != m.player or t.priority is not None):
        return (spec.clause("usable"), f"{spec.label} is used only in its owner's main phase")
    if not u.on_field or u.destroyed or u.discarded:
        return (spec.clause("usable"), f"{u.name} is not on the field")
    # the timing: an action here, or a counter to the pending item (TIM-*)
    point = seat.point(m.player)
    in_force = seat.board.timings_at(point)
    use = use_as(timings, point, in_force)
    labels = "/".join(seat.rules.timings[k].ja for k in timings)
    if use is None:
        clause = refusal_clause(timings, point, in_force)
        if point.answering:
            top = t.chain[-1]
            return (
                clause,
                f"[{labels}] cannot answer the pending {seat.board.spec_of(top).label} {seat.source_name(top)} here",
            )
        if not any(seat.rules.timings[k].role == "action" for k in timings):
            return (clause, f"[{labels}] has nothing pending to answer here ({point.name})")
        return (clause, f"[{labels}] cannot be used at this point ({point.name})")
    if point.answering and t.priority != m.player:  # a counter, but not this player's to make yet
        return wait_for_priority(seat, m.player)
    # how often (ACT-2, SD-2, MAR-1)
    too_often = spec.too_often(u, ab.name if ab else "", seat.acted(u))
    if too_often is not None:
        return too_often
    # the price must be payable (COST-3)
    unpayable = prices.payable(seat, spec, u, ab)
    if unpayable is not None:
        return unpayable
    # 【同調】 partner (SYNC-1)
    if ab is not None and ab.sync and not seat.partner(u, ab.sync):
        return (
            "SYNC-1",
            f"{ab.name} is 【同調】: a unit named {ab.sync} must be in {u.name}'s party",
        )
    # the target (ACT-3, COST-2, SD-3, MAR-2)
    if target_kind in TARGETED:
        if m.target is None:
            return (spec.clause("targets"), f"{spec.label} needs a target ({target_kind})")
        problem = target_problem(seat, m.target, spec, target_kind)
        if problem:
            return problem
    elif m.target is not None:
        return (spec.clause("targets"), f"{ab.name if ab else 'this card'} takes no target")
    return None


def battle_limit(seat: Seat, spec: KindSpec) -> str | None:
    """The clause that keeps this spec's targets inside the battle, or None where none does.

    Outside a battle (a [ＭＦ] card in the main phase, TIM-MF) there is no battle to stay
    inside.  The page limits targets only for abilities (ACT-3, COST-2, SD-3) and [戦闘]
    autos (AUTO-2); for a skill card its variant (``targets_by_variant``) decides.
    """
    if seat.table.battle is None:
        return None
    if spec.targets_by_variant:
        limited = getattr(seat.variants, spec.targets_by_variant) == "battle_only"
        return VARIANT_SPECS[spec.targets_by_variant].clause if limited else None
    return spec.clause("targets") if spec.targets_in_battle else None


def target_problem(seat: Seat, target: str, spec: KindSpec, kind: str) -> Problem | None:
    t = seat.table
    b = t.battle
    clause = spec.clause("targets")
    limit = battle_limit(seat, spec)
    outside = f"; {spec.label} may target only battle participants" + (
        f" (variant {spec.targets_by_variant}=battle_only)" if spec.targets_by_variant else ""
    )
    if kind == "unit":
        u = t.units.get(target)
        if u is None:
            return (clause, f"no unit {target!r}")
        if not u.on_field:
            return (clause, f"{u.name} is not on the field")
        if limit and not seat.in_battle(u):
            return (limit, f"{u.name} is not taking part in the battle{outside}")
        return None
    if kind == "player":
        if target not in t.players:
            return (clause, f"no player {target!r}")
        return None
    if kind == "geo":
        if target not in t.geos:
            return (clause, f"no geo {target!r}")
        if limit and b is not None and b.geo != target:
            return (limit, f"{target} is not the geo of this battle{outside}")
        return None
    card = t.cards.get(target)
    if card is None or card.zone != "equipped":
        return (clause, f"{target!r} is not an equipped card")
    holder = t.units[card.equipped_to] if card.equipped_to else None
    if limit and (holder is None or not seat.in_battle(holder)):
        return (limit, f"{card.name} is not equipped on a unit in this battle{outside}")
    return None


def condition_problem(seat: Seat, card: Card, u: Unit, clause: str) -> Problem | None:
    """A card's condition: the unit's name (NAME-1) and skills that are free to pay it (SC-1,
    SC-4), not held by pending cards or equips (EQ-1), 全 never standing in for 道具 (SYM-3)."""
    cond = card.condition
    if cond.name and cond.name not in u.name:
        return (
            "NAME-1",
            f"{card.name} needs a unit whose name contains {cond.name}; {u.name} does not",
        )
    have = seat.available(u)
    if not can_pay(have, [cond.needs]):
        hint = _sym_hint(cond, have)
        return (
            "SYM-3" if hint else "SC-1",
            f"{u.name} has {fmt(have)}, which cannot pay {card.name}'s condition {cond}" + hint,
        )
    if not can_pay(have, [cond.needs, *seat.holdings(u)]):
        return (
            seat.held_clause(u, cond.needs, clause),
            f"{u.name} has {fmt(have)}, already held by {seat.holders(u)}, "
            f"so {card.name} ({cond}) could not be paid at resolution",
        )
    return None


def _sym_hint(cond: Condition, have: Pool) -> str:
    if cond.needs.get("道具") and have.get("全"):
        return " (全 never stands in for 道具, SYM-3)"
    return ""
