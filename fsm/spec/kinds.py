"""Ability kinds and the other procedures, as data (AB-1).

Every procedure that goes declare → counter window → recheck → resolve/fizzle is one
:class:`KindSpec`: the five ability kinds (【行動】【代償】【自動】【自爆】【進軍】), skill-card
use, an attack, the speed-determination roll and equipping (which, as the rules page
has it, opens no counter window; a designer's file may give it one).  The built-in ones live in
``fsm/rules/data/kinds.toml``; a designer's new kind (say 【休息】) is a few more lines of the
same TOML, loaded by :mod:`fsm.spec.ruleset`.  :mod:`fsm.machines.procedures` turns a spec into a
python-statemachine ``StateChart``; the engine reads only the spec, never a kind's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from fsm.errors import BadInput, Problems
from fsm.i18n import _, did_you_mean, either
from fsm.rules.price_parts import Part
from fsm.rules.variants import BY_NAME as VARIANT_SPECS
from fsm.spec.prices import PRICES as PRICE_WORDS
from fsm.spec.prices import self_fizzling, unfit
from fsm.spec.recheck import RECHECKS
from fsm.spec.resolutions import CATEGORIES as RESOLVED_AS
from fsm.table.model import Unit

CATEGORIES = tuple(RESOLVED_AS)  # what resolving each does: fsm/spec/resolutions.py
USABLE = ("battle", "own_main_phase", "battle_start", "continuous", "by_timing")
PRICES = tuple(PRICE_WORDS)  # the built-in price words; the loader reads fsm/spec/prices.py itself
PAID_AT = ("declare", "resolve")
FREQUENCIES = (
    "once_while_unacted",
    "unlimited",
    "once_per_battle",
    "once_while_unmarched",
    "automatic",
)
TARGETS = ("battle", "field", "none")
#: The moves whose procedure is a kind's data (``move = "attack"``), not a kind the engine names:
#: attacking (FLOW-ATK), using a skill card (SC-4), equipping (EQ-1) and the flow's speed roll
#: (FLOW-SPD).  An ability's kind is named by the ability itself.
MOVES = ("attack", "use", "equip", "roll_speed")
FIZZLE_REASONS = tuple(RECHECKS)  # the recheck conditions (fsm.spec.recheck)
#: The settings of a ``[kind.NAME]`` table.
SETTINGS = (
    "ja", "en", "category", "usable", "price", "price_paid", "frequency", "targets",
    "counter_window", "counterable", "fizzle_if", "clauses", "acts_in_normal_timing",
    "move", "targets_by_variant", "cost",
)  # fmt: skip
CLAUSE_SLOTS = (
    "usable",
    "price",
    "frequency",
    "targets",
    "declare",
    "window",
    "recheck",
    "resolve",
)

#: How each vocabulary word reads in a diagram or a message: (Japanese, English).
WORDS: dict[str, tuple[str, str]] = {
    **PRICE_WORDS.labels(),  # the prices' labels live with their entries; "none" also reads a target
    "once_while_unacted": ("行動未完了の間に1度", "once while 行動未完了"),
    "unlimited": ("何回でも", "any number of times"),
    "once_per_battle": ("戦闘中に1度", "once per battle"),
    "once_while_unmarched": ("進軍未完了の間に1度", "once while 進軍未完了"),
    "automatic": ("自動", "automatically"),
    "battle": ("戦闘中のみ", "battle participants only"),
    "own_main_phase": ("自軍メインフェイズ", "in its owner's main phase"),
    "battle_start": ("戦闘開始時に自動", "by itself at battle start"),
    "continuous": ("常に発動", "always in effect"),
    "by_timing": ("タイミング次第", "wherever its timing allows"),
    "field": ("場の全て", "anything on the field"),
    **{key: r.fails for key, r in RECHECKS.items()},
}


@dataclass(frozen=True)
class KindSpec:
    """One procedure, in the terms of the rules page."""

    key: str
    ja: str
    en: str
    category: str  # what a counter sees: ability / skill / attack / speed_roll / equip
    usable: str  # when it may be used
    price: str  # what using it costs
    price_paid: str  # at declaration or at resolution
    frequency: str  # how often it may be declared
    targets: str  # battle participants only, or anything on the field
    counter_window: bool  # False: no [反撃] window (MAR-3)
    counterable: bool = True  # False: may not be answered even if it had a window (AUTO-3)
    fizzle_if: tuple[str, ...] = ()
    clauses: tuple[tuple[str, str], ...] = ()  # (step, clause ID): which clause each step follows
    sync: bool = False  # wrapped in 【同調】 (SYNC-1, SYNC-2)
    acts_in_normal_timing: bool = False  # declared in a normal timing, its unit acts (FLOW-NORMAL)
    move: str = ""  # the move that declares it (MOVES), "" for an ability's kind
    targets_by_variant: str = ""  # a rule variant deciding whether its targets stay in the battle
    cost: tuple[Part, ...] = ()  # 代償 parts every ability of the kind pays (price pay_cost, COST-3)

    @property
    def label(self) -> str:
        return f"【同調】【{self.ja}】" if self.sync else f"【{self.ja}】"

    @property
    def by_itself(self) -> bool:
        """Nobody declares it: an auto activates by itself (AUTO-1), the flow rolls the speed dice (FLOW-SPD)."""
        return self.frequency == "automatic"

    @property
    def opens_window(self) -> bool:
        """A counter window opens only where someone may answer (a kind that is not counterable
        has none, like a [戦闘] auto, AUTO-3)."""
        return self.counter_window and self.counterable

    @property
    def rechecks(self) -> bool:
        """A kind with no fizzle condition has nothing to recheck: it always resolves."""
        return bool(self.fizzle_if)

    def _kept(self, name: str, make: Callable[[], Any]) -> Any:
        """What ``make`` derives from the frozen fields, made once and kept beside them (as
        Condition.needs is): the engine asks these at every step it takes."""
        value = self.__dict__.get(name)
        if value is None:
            value = make()
            object.__setattr__(self, name, value)
        return value

    def __hash__(self) -> int:
        # the dataclass's hash (of every field), kept: a procedure is found by its spec at every step
        kept: int = self._kept("_hash", lambda: hash(tuple(getattr(self, f.name) for f in fields(self))))
        return kept

    def __getstate__(self) -> dict[str, Any]:
        # pickled without what _kept made: the hash of a string differs in another process
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def clause(self, slot: str) -> str:
        by_slot: dict[str, str] = self._kept("_by_slot", lambda: dict(self.clauses))
        return by_slot.get(slot, "AB-1")

    # What the engine asks of its words: the words themselves stay here, with their vocabulary.
    @property
    def never_declared(self) -> bool:
        """It takes effect by itself, at battle start or always (AUTO-1, AUTO-4): nobody declares it."""
        return self.usable in ("battle_start", "continuous")

    @property
    def at_battle_start(self) -> bool:
        return self.usable == "battle_start"

    def used_in_battle(self, in_main_phase: bool) -> bool:
        """Used only during a battle here: a battle kind, or a card by timing outside the main phase."""
        return self.usable == "battle" or (self.usable == "by_timing" and not in_main_phase)

    @property
    def own_main_phase_only(self) -> bool:
        return self.usable == "own_main_phase"

    @property
    def default_timings(self) -> tuple[str, ...]:
        """The timing of an ability that names none: its owner's main phase or its normal timing."""
        return ("main",) if self.own_main_phase_only else ("normal",)

    @property
    def targets_in_battle(self) -> bool:
        """Its targets are battle participants only (ACT-3, COST-2, SD-3, AUTO-2)."""
        return self.targets == "battle"

    @property
    def once_while_unacted(self) -> bool:
        return self.frequency == "once_while_unacted"

    @property
    def again_when_unmarched(self) -> bool:
        """Declared once while 進軍未完了: it may be declared again once the unit is so again (MAR-1)."""
        return self.frequency == "once_while_unmarched"

    def too_often(self, unit: Unit, name: str, acted: bool) -> tuple[str, str] | None:
        """(clause, why) if ``name`` of ``unit`` may not be declared again now (ACT-2, SD-2, MAR-1)."""
        if self.frequency == "once_while_unacted":
            if acted:
                return (self.clause("usable"), _("{unit} is already 行動完了").format(unit=unit.name))
            if name in unit.declared:
                again = _("{ability} of {unit} was already declared while 行動未完了")
                return (self.clause("frequency"), again.format(ability=name, unit=unit.name))
        if self.frequency == "once_per_battle" and name in unit.declared:
            again = _("{ability} of {unit} was already declared in this battle")
            return (self.clause("frequency"), again.format(ability=name, unit=unit.name))
        if self.frequency == "once_while_unmarched" and (unit.marched or name in unit.declared):
            return (self.clause("frequency"), _("{unit} is already 進軍完了").format(unit=unit.name))
        return None

    def with_sync(self) -> KindSpec:
        """SYNC-2: the same kind, plus the partner check at declaration and recheck."""
        if self.sync:
            return self
        synced: KindSpec = self._kept(
            "_synced",
            lambda: replace(self, key=f"sync_{self.key}", sync=True, fizzle_if=(*self.fizzle_if, "partner_left")),
        )
        return synced


def _choice(data: Mapping[str, Any], key: str, allowed: tuple[str, ...], where: str) -> str:
    value = data.get(key)
    if value not in allowed:
        message = _("{key} = {value!r} is not one of: {allowed}").format(
            key=key, value=value, allowed=", ".join(allowed)
        )
        raise BadInput(message + did_you_mean(value, allowed), f"{where}.{key}")
    return str(value)


def _fits(data: Mapping[str, Any]) -> bool:
    """Both words known, so whether they go together can be asked (unknown words are refused below)."""
    return data.get("price") in PRICE_WORDS and data.get("category") in CATEGORIES


def kind_to_data(spec: KindSpec) -> dict[str, Any]:
    """The ``[kind.NAME]`` table a spec was read from (so a designer may change one setting)."""
    return {
        "ja": spec.ja,
        "en": spec.en,
        "category": spec.category,
        "usable": spec.usable,
        "price": spec.price,
        "price_paid": spec.price_paid,
        "frequency": spec.frequency,
        "targets": spec.targets,
        "counter_window": spec.counter_window,
        "counterable": spec.counterable,
        "acts_in_normal_timing": spec.acts_in_normal_timing,
        "fizzle_if": list(spec.fizzle_if),
        "clauses": dict(spec.clauses),
        **({"move": spec.move} if spec.move else {}),
        **({"targets_by_variant": spec.targets_by_variant} if spec.targets_by_variant else {}),
        **({"cost": [p.text() for p in spec.cost]} if spec.cost else {}),
    }


def kind_from_data(key: str, data: Mapping[str, Any], where: str) -> KindSpec:
    """Validate one ``[kind.NAME]`` table; errors name the file and the key."""
    if key.startswith("sync_") or not key.replace("_", "").isalnum():
        raise BadInput(_("a kind's name is letters, digits and _, and may not start with sync_ (SYNC-2)"), where)
    known = set(SETTINGS)
    problems = Problems()
    for extra in sorted(set(data) - known):
        message = _("unknown setting {setting!r}; known: {known}").format(setting=extra, known=", ".join(sorted(known)))
        problems.add(BadInput(message + did_you_mean(extra, known), f"{where}.{extra}"))
    problems.raise_all()
    for text_key in ("ja", "en"):
        if not isinstance(data.get(text_key), str) or not data[text_key]:
            message = _("{key} must be a non-empty string (the kind's name)")
            raise BadInput(message.format(key=text_key), f"{where}.{text_key}")
    for flag in ("counter_window", "counterable", "acts_in_normal_timing"):
        if flag in data and not isinstance(data[flag], bool):
            raise BadInput(_("{key} must be true or false").format(key=flag), f"{where}.{flag}")
    if "counter_window" not in data:
        raise BadInput(_("counter_window must be given (true or false)"), f"{where}.counter_window")
    fizzle = data.get("fizzle_if", [])
    if not isinstance(fizzle, list):
        raise BadInput(_("fizzle_if must be a list"), f"{where}.fizzle_if")
    for reason in fizzle:
        if reason not in FIZZLE_REASONS:
            message = _("{reason!r} is not a recheck condition; use: {reasons}").format(
                reason=reason, reasons=", ".join(FIZZLE_REASONS)
            )
            hint = did_you_mean(reason, FIZZLE_REASONS) if isinstance(reason, str) else ""
            raise BadInput(message + hint, f"{where}.fizzle_if")
    spoilt = self_fizzling(str(data.get("price")), str(data.get("price_paid")), fizzle)
    if spoilt:
        raise BadInput(
            _(
                "the price ({price}) is paid at declaration, so a recheck for {reason!r} would always fizzle it; "
                "drop {reason!r} from fizzle_if or pay the price at resolve"
            ).format(price=either(*PRICE_WORDS[data["price"]].labels), reason=spoilt),
            f"{where}.fizzle_if",
        )
    nobody_declares = data.get("usable") in ("battle_start", "continuous") or data.get("category") == "speed_roll"
    if (data.get("frequency") == "automatic") != nobody_declares:
        raise BadInput(
            _(
                "frequency = automatic goes with what nobody declares: usable = battle_start or continuous "
                "(AUTO-1) or the speed roll (FLOW-SPD); a kind a player declares needs another frequency"
            ),
            f"{where}.frequency",
        )
    misfit = unfit(data["price"], data["category"]) if _fits(data) else ""
    if misfit:
        raise BadInput(_("{misfit}; choose another price or category").format(misfit=misfit), f"{where}.price")
    clauses = data.get("clauses", {})
    if not isinstance(clauses, Mapping):
        raise BadInput(_("clauses must be a table of step = clause ID"), f"{where}.clauses")
    for slot in clauses:
        if slot not in CLAUSE_SLOTS:
            message = _("unknown step {step!r}; use: {steps}")
            raise BadInput(message.format(step=slot, steps=", ".join(CLAUSE_SLOTS)), f"{where}.clauses")
    if "move" in data:
        _choice(data, "move", MOVES, where)
    limiter = data.get("targets_by_variant", "")
    if limiter and (limiter not in VARIANT_SPECS or "battle_only" not in VARIANT_SPECS[limiter].choices):
        raise BadInput(
            _("{variant!r} is not a rule variant with a battle_only setting (fsm/rules/variants.py)").format(
                variant=limiter
            ),
            f"{where}.targets_by_variant",
        )
    late = data.get("price_paid") == "resolve"
    return KindSpec(
        key=key,
        ja=data["ja"],
        en=data["en"],
        category=_choice(data, "category", CATEGORIES, where),
        usable=_choice(data, "usable", USABLE, where),
        price=_choice(data, "price", tuple(PRICE_WORDS), where),  # read live: a designer may register one
        price_paid=_choice(data, "price_paid", PAID_AT, where),
        frequency=_choice(data, "frequency", FREQUENCIES, where),
        targets=_choice(data, "targets", TARGETS, where),
        counter_window=bool(data["counter_window"]),
        counterable=bool(data.get("counterable", True)),
        acts_in_normal_timing=bool(data.get("acts_in_normal_timing", False)),
        # a 代償 paid at resolution is rechecked for what it promised (variant part_gone_at_resolution)
        fizzle_if=(
            *fizzle,
            *(["part_gone"] if data["price"] == "pay_cost" and late and "part_gone" not in fizzle else []),
        ),
        clauses=tuple(sorted(clauses.items())),
        move=str(data.get("move", "")),
        targets_by_variant=str(limiter),
    )
