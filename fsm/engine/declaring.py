"""The checks shared by every declared procedure, in the order a rules reader asks them: where
the game stands (battle or main phase), the timing (TIM-*), how often (ACT-2, SD-2, MAR-1), the
price (COST-3), a 【同調】 partner (SYNC-1), the target (ACT-3, COST-2, SD-3, MAR-2); and a card's
condition (SC-1, SC-4, EQ-1, NAME-1, SYM-3).

Each returns None, or the (clause, message) of the rule that forbids the move.
"""

from __future__ import annotations

from collections.abc import Mapping

from fsm.engine.seat import Seat
from fsm.i18n import UNWORDED, _, did_you_mean, worded
from fsm.machines.chain import priority
from fsm.rules.skills import Condition, can_pay, fmt
from fsm.rules.timing import Point, TimingSpec, refusal_clause, use_as
from fsm.rules.variants import BY_NAME as VARIANT_SPECS
from fsm.spec import paying, prices
from fsm.spec.kinds import KindSpec
from fsm.table.model import Ability, Card, Unit
from fsm.table.moves import Move

Problem = tuple[str, str]  # (clause, message)

#: What a card or an ability may name as its target (a scenario's ``target``).
TARGETED = ("unit", "player", "geo", "equip")


def wait_for_priority(seat: Seat, player: str) -> Problem:
    holder = priority(seat.table)
    return (
        "TIM-CTR-2",
        _("{holder} has priority in the counter window; {player} must wait for {holder} to pass").format(
            holder=holder, player=player
        ),
    )


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
            return (spec.clause("usable"), _("{label} is used only during a battle").format(label=spec.label))
        if not seat.in_battle(u):
            return (spec.clause("usable"), _("{unit} is not taking part in this battle").format(unit=u.name))
    if spec.own_main_phase_only and (not seat.flow.at("main_phase") or t.active != m.player or priority(t) is not None):
        return (spec.clause("usable"), _("{label} is used only in its owner's main phase").format(label=spec.label))
    if not u.on_field or u.destroyed or u.discarded:
        return (spec.clause("usable"), _("{unit} is not on the field").format(unit=u.name))
    # the timing: an action here, or a counter to the pending item (TIM-*)
    point = seat.point(m.player)
    in_force = seat.board.timings_at(point)
    if use_as(timings, point, in_force) is None:
        return _timing_refusal(seat, timings, point, in_force)
    if point.answering and priority(t) != m.player:  # a counter, but not this player's to make yet
        return wait_for_priority(seat, m.player)
    # how often (ACT-2, SD-2, MAR-1)
    too_often = spec.too_often(u, ab.name if ab else "", seat.acted(u))
    if too_often is not None:
        return too_often
    # the price must be payable (COST-3)
    unpayable = prices.payable(seat, spec, u, ab)
    if unpayable is not None:
        return unpayable
    # what the move names to pay the 代償 with: held, taken by the price, or left out of a choice (COST-3)
    _chosen, choice = price_choice(seat, m, spec, u, ab)
    if choice is not None:
        return choice
    # 【同調】 partner (SYNC-1)
    if ab is not None and ab.sync and not seat.partner(u, ab.sync):
        return (
            "SYNC-1",
            _("{ability} is 【同調】: a unit named {sync} must be in {unit}'s party").format(
                ability=ab.name, sync=ab.sync, unit=u.name
            ),
        )
    # the target (ACT-3, COST-2, SD-3, MAR-2)
    if target_kind in TARGETED:
        if m.target is None:
            return (
                spec.clause("targets"),
                _("{label} needs a target ({target_kind})").format(label=spec.label, target_kind=target_kind),
            )
        problem = target_problem(seat, m.target, spec, target_kind)
        if problem:
            return problem
    elif m.target is not None:
        no_target = _("{ability} takes no target").format(ability=ab.name) if ab else _("this card takes no target")
        return (spec.clause("targets"), no_target)
    return None


def _timing_refusal(seat: Seat, timings: tuple[str, ...], point: Point, in_force: Mapping[str, TimingSpec]) -> Problem:
    """Why none of ``timings`` fits at ``point`` (TIM-*): the clause, and words only if read."""
    clause = refusal_clause(timings, point, in_force)
    if len(timings) > 1 and not point.answering:  # none of its several timings fits: the clause
        clause = seat.rules.combination_clause(timings)[0]  # naming the mix (TIM-NC, TIM-NCS, TIM-1)
    if not worded():  # legal_moves() asks only whether: the names below are not looked up either
        return (clause, UNWORDED)
    labels = "/".join(seat.rules.timings[k].ja for k in timings)
    if point.answering:
        top = seat.table.chain[-1]
        return (
            clause,
            _("[{labels}] cannot answer the pending {kind} {source} here").format(
                labels=labels, kind=seat.board.spec_of(top).label, source=seat.source_name(top)
            ),
        )
    if not any(seat.rules.timings[k].role == "action" for k in timings):
        return (
            clause,
            _("[{labels}] has nothing pending to answer here ({point})").format(labels=labels, point=point.label()),
        )
    return (
        clause,
        _("[{labels}] cannot be used at this point ({point})").format(labels=labels, point=point.label()),
    )


def price_choice(
    seat: Seat, m: Move, spec: KindSpec, u: Unit, ab: Ability | None
) -> tuple[tuple[str, ...], Problem | None]:
    """The things the move pays the 代償's parts with (COST-3), or why its choice is refused."""
    for name in m.paying:  # a name on no table is a typo, not a rules question
        if name not in seat.table.cards and name not in seat.table.units:
            seat.board.card(name)
    parts = paying.parts_of(spec, ab)
    return paying.choose(seat, parts, u, m.paying, ab.name if ab else "", spec.clause("price"))


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
    outside = (
        _("; {kind} may target only battle participants (variant {variant}=battle_only)")
        if spec.targets_by_variant
        else _("; {kind} may target only battle participants")
    ).format(kind=spec.label, variant=spec.targets_by_variant)
    if kind == "unit":
        u = t.units.get(target)
        if u is None:
            return (clause, _("no unit {target!r}").format(target=target) + did_you_mean(target, t.units))
        if not u.on_field:
            return (clause, _("{unit} is not on the field").format(unit=u.name))
        if limit and not seat.in_battle(u):
            return (limit, _("{unit} is not taking part in the battle{outside}").format(unit=u.name, outside=outside))
        return None
    if kind == "player":
        if target not in t.players:
            return (clause, _("no player {target!r}").format(target=target))
        return None
    if kind == "geo":
        if target not in t.geos:
            return (clause, _("no geo {target!r}").format(target=target))
        if limit and b is not None and b.geo != target:
            return (limit, _("{target} is not the geo of this battle{outside}").format(target=target, outside=outside))
        return None
    card = t.cards.get(target)
    if card is None or card.zone != "equipped":
        return (clause, _("{target!r} is not an equipped card").format(target=target))
    holder = t.units[card.equipped_to] if card.equipped_to else None
    if limit and (holder is None or not seat.in_battle(holder)):
        return (
            limit,
            _("{card} is not equipped on a unit in this battle{outside}").format(card=card.name, outside=outside),
        )
    return None


def condition_problem(seat: Seat, card: Card, u: Unit, clause: str) -> Problem | None:
    """A card's condition: the unit's name (NAME-1) and skills that are free to pay it (SC-1,
    SC-4), not held by pending cards or equips (EQ-1), 全 never standing in for 道具 (SYM-3)."""
    cond = card.condition
    if cond.name and cond.name not in u.name:
        return (
            "NAME-1",
            _("{card} needs a unit whose name contains {cond}; {unit} does not").format(
                card=card.name, cond=cond.name, unit=u.name
            ),
        )
    have = seat.available(u)
    if not can_pay(have, [cond.needs]):
        hint = _sym_hint(cond, have)
        return (
            "SYM-3" if hint else "SC-1",
            _("{unit} has {have}, which cannot pay {card}'s condition {cond}").format(
                unit=u.name, have=fmt(have), card=card.name, cond=cond
            )
            + hint,
        )
    if not can_pay(have, [cond.needs, *seat.holdings(u)]):
        return (
            seat.held_clause(u, cond.needs, clause),
            _(
                "{unit} has {have}, already held by {holders}, so {card} ({cond}) could not be paid at resolution"
            ).format(unit=u.name, have=fmt(have), holders=seat.holders(u), card=card.name, cond=cond),
        )
    return None


def _sym_hint(cond: Condition, have: Mapping[str, int]) -> str:
    if cond.needs.get("道具") and have.get("全"):
        return _(" (全 never stands in for 道具, SYM-3)")
    return ""
