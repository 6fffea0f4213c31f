"""Named rule variants: every point the rules leave open, with its documented default.

Where the rules page is silent or ambiguous (clauses marked *(variant)* or *assumed* in
the catalogue), the engine does not guess: it reads a named setting here.  A designer
switches one with ``Variants(counters_between_resolutions=True)``, in a scenario file
(``variants:``), on the command line (``--variant NAME=VALUE``) or in a data file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fsm.errors import BadInput
from fsm.i18n import N_, _, did_you_mean


@dataclass(frozen=True)
class VariantSpec:
    name: str
    clause: str
    default: Any
    choices: tuple[Any, ...]
    doc: str  # English, marked N_(): described() gives it in the chosen language

    def described(self) -> str:
        return _(self.doc)


SPECS: tuple[VariantSpec, ...] = (
    VariantSpec(
        "fizzled_action_uses_chance",
        "ACT-2",
        True,
        (True, False),
        N_("A 【行動】 that fizzled still used up its one declaration while 行動未完了."),
    ),
    VariantSpec(
        "refund_cost_on_fizzle",
        "COST-5",
        False,
        (True, False),
        N_("A fizzled 【代償】 gives its paid 代償 back."),
    ),
    VariantSpec(
        "part_gone_at_resolution",
        "COST-5",
        "unpaid",
        ("unpaid", "fizzles"),
        N_(
            "A 代償 paid at resolution (a designer's kind) whose promised part has left where it was to be "
            "taken from: that part goes unpaid and the item resolves, or the item fizzles at its recheck "
            "(COST-5), as a skill card whose condition can no longer be met does (SC-6)."
        ),
    ),
    VariantSpec(
        "sync_battle_auto_partner_left",
        "SYNC-1",
        "stays",
        ("stays", "lapses"),
        N_(
            "A 【同調】【自動】[戦闘] whose partner leaves the party during the battle: what it did stays for "
            "the battle, or it lapses at once (SYNC-1), as a continuous 【同調】【自動】 stops."
        ),
    ),
    VariantSpec(
        "quick_summon_reveal",
        "QS-1",
        "always",
        ("always", "usable_only"),
        N_(
            "Whether a quick-summon card may be revealed (QS-1) when no unit of its player in the battle "
            "can meet its condition: always, or only when one can."
        ),
    ),
    VariantSpec(
        "counters_between_resolutions",
        "TIM-CTR-3",
        False,
        (True, False),
        N_(
            "After each resolution the counter window opens again before the next item resolves "
            "(default: the whole chain is built first, then resolved last-in-first-out)."
        ),
    ),
    VariantSpec(
        "formation_order",
        "FLOW-FORM",
        "advancing_first",
        ("advancing_first", "defending_first"),
        N_("Which side sets its formation (隊列変更) first."),
    ),
    VariantSpec(
        "speed_tie",
        "FLOW-SPD",
        "reroll",
        ("reroll", "advancing_first", "defending_first"),
        N_("What a tied speed roll means: roll again, or a fixed side goes first."),
    ),
    VariantSpec(
        "speed_window_first",
        "FLOW-SPD",
        "behind",
        ("behind", "defending"),
        N_(
            "Who is asked first whether to answer the speed dice result: the player behind on the "
            "roll, or the defending side."
        ),
    ),
    VariantSpec(
        "normal_action_acts",
        "FLOW-NORMAL",
        True,
        (True, False),
        N_(
            "An attack or a [通常] skill card in a normal timing makes its unit 行動完了 at "
            "declaration, as a 【行動】 does at resolution."
        ),
    ),
    VariantSpec(
        "attack_outcome",
        "FLOW-ATK",
        "destroy_target",
        ("destroy_target", "none"),
        N_(
            "What a resolved attack does (damage lies outside this rules page): destroy (撃破) "
            "the attacked unit, or nothing."
        ),
    ),
    VariantSpec(
        "battle_ends_on_double_pass",
        "FLOW-END",
        True,
        (True, False),
        N_("Two normal timings passed in a row end the battle even if some unit could still act."),
    ),
    VariantSpec(
        "reset_acted_at_battle_end",
        "FLOW-CLEANUP",
        True,
        (True, False),
        N_("Units return to 行動未完了 when the battle ends."),
    ),
    VariantSpec(
        "skills_used_outside_battle_return",
        "SC-3",
        "end_of_main_phase",
        ("end_of_main_phase", "after_next_battle"),
        N_(
            "Skills used outside a battle (an [ＭＦ] card) come back when that main phase ends, or only when the "
            "next battle ends (the rules speak only of skills used in a battle)."
        ),
    ),
    VariantSpec(
        "quick_summoned_battle_autos",
        "AUTO-2",
        "on_summon",
        ("on_summon", "never"),
        N_(
            "A unit quick-summoned into a battle joins it at its start, so its 【自動】[戦闘] activate when it "
            "arrives; or they never activate in that battle."
        ),
    ),
    VariantSpec(
        "advance_marches",
        "FLOW-ADV",
        True,
        (True, False),
        N_("A unit that advances (進軍) becomes 進軍完了."),
    ),
    VariantSpec(
        "equip_without_skill",
        "EQ-1",
        "stays",
        ("stays", "discarded"),
        N_(
            "An equip whose held skill is gone (stripped, or a [戦闘] grant that lapsed) stays equipped, holding "
            "only what of its condition the unit still has; or it is discarded at once."
        ),
    ),
    VariantSpec(
        "reroll_keeps_speed_modifiers",
        "FLOW-SPD",
        True,
        (True, False),
        N_(
            "Speed modifiers resolved while answering the dice (a [反撃：スピード限定] speed +3) still count "
            "after the dice are rolled again, by a tie or by a reroll effect alike; false: a re-roll drops them "
            "(the front unit's speed and [戦闘] modifiers always count)."
        ),
    ),
    VariantSpec(
        "reroll_answerable",
        "TIM-SPD",
        True,
        (True, False),
        N_(
            "Dice rolled again (a tie, or a reroll effect) are a new result on the chain that "
            "[反撃：スピード限定] may answer before it decides 先攻; false: a re-roll decides at once."
        ),
    ),
    VariantSpec(
        "skill_card_targets",
        "ACT-3",
        "anywhere_on_field",
        ("anywhere_on_field", "battle_only"),
        N_(
            "What a skill card used in a battle may target: anything on the field (the page limits targets "
            "only for abilities and [戦闘] autos), or only battle participants, as ACT-3 says for abilities."
        ),
    ),
    VariantSpec(
        "mf_cards_in",
        "TIM-MF",
        "own_main_phase",
        ("own_main_phase", "any_main_phase"),
        N_(
            "Whose main phase an [ＭＦ] card may be used in: only its player's own (a main phase is one "
            "player's: the other makes no moves in it), or also the opponent's: then a main phase ends only "
            "after its player passes and the other player passes too, who may use an [ＭＦ] card instead."
        ),
    ),
    VariantSpec(
        "skills_granted_outside_battle_lapse",
        "TIM-BTL",
        "end_of_main_phase",
        ("end_of_main_phase", "after_next_battle"),
        N_(
            "A skill granted outside a battle (an [ＭＦ] card, a 【進軍】) lapses when that main phase ends "
            "(or when a battle started from it ends, whichever comes first), or only when the next battle ends."
        ),
    ),
    VariantSpec(
        "reset_acted_in_owner_main_phase",
        "FLOW-CLEANUP",
        True,
        (True, False),
        N_(
            "A unit is 行動未完了 again when its owner's main phase begins, as it becomes 進軍未完了 then "
            "(MAR-1); the one thing that resets it when reset_acted_at_battle_end is false."
        ),
    ),
    VariantSpec(
        "drawn_battle_advancers",
        "FLOW-END",
        "stay",
        ("stay", "return"),
        N_(
            "After a battle the advancing side did not win, its units stay at the geo (and take part in the "
            "next battle there, as every unit at a battle's geo does), or go back to the geo the advance came from."
        ),
    ),
)
BY_NAME: dict[str, VariantSpec] = {s.name: s for s in SPECS}


class Variants(Mapping[str, Any]):
    """An immutable set of variant values; unknown names and values are refused."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        merged = {s.name: s.default for s in SPECS}
        for name, value in {**(values or {}), **kwargs}.items():
            spec = BY_NAME.get(name)
            if spec is None:
                message = _("unknown rule variant {name!r}; known: {known}").format(name=name, known=", ".join(BY_NAME))
                raise BadInput(message + did_you_mean(name, BY_NAME))
            value = read_bool(value) if isinstance(spec.default, bool) else value
            if value not in spec.choices:
                message = _("rule variant {name} cannot be {value!r}; choose one of: {choices}")
                raise BadInput(message.format(name=name, value=value, choices=choices_text(spec)))
            merged[name] = value
        self._values = merged

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self._values.items())))

    def changed(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults."""
        return {k: v for k, v in self._values.items() if v != BY_NAME[k].default}

    def __repr__(self) -> str:
        return f"Variants({self.changed()!r})"


def _reader(name: str) -> property:
    return property(lambda self: self._values[name], doc=BY_NAME[name].doc)


# Each variant is read as an attribute (``variants.advance_marches``) by every rule that depends on
# it: a property each, as __getattr__ alone is reached only after the usual lookup failed (an
# exception raised and caught per read).  Names the class already has keep their meaning.
for _spec in SPECS:
    if not hasattr(Variants, _spec.name):
        setattr(Variants, _spec.name, _reader(_spec.name))


#: The settings ``fsm variants`` names as leaving some battle without an end.
ENDLESS_EXAMPLES: tuple[dict[str, Any], ...] = (
    {"battle_ends_on_double_pass": False},
    {"battle_ends_on_double_pass": False, "normal_action_acts": False, "attack_outcome": "none"},
)


def endless(values: Mapping[str, Any]) -> str | None:
    """What the settings leave of a battle's end (FLOW-END), when they leave some battle no end
    by passing: None under the defaults.  ``fsm variants`` and the explorer's report say it,
    so a cut exploration is not read as a too-small budget."""
    v = Variants({k: val for k, val in values.items() if k in BY_NAME})
    if v.battle_ends_on_double_pass:
        return None
    if not v.normal_action_acts and v.attack_outcome == "none":
        return _(
            "no battle ends under these settings but by a 【行動】 or an effect: passing never ends it "
            "(battle_ends_on_double_pass=false), an attack neither makes its unit 行動完了 "
            "(normal_action_acts=false) nor takes a unit out (attack_outcome=none) (FLOW-END)"
        )
    return _(
        "a battle ends under these settings only when one side has no unit left in it or no unit can act: "
        "passing never ends it (battle_ends_on_double_pass=false), so lines that only pass go on for ever (FLOW-END)"
    )


#: How a yes/no variant may be written, in a scenario, a designer's file or on the command line.
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "on"), ("false", "no", "off")


def read_bool(value: Any) -> Any:
    """``"true"``/``"yes"``/``"on"`` → True, ``"false"``/``"no"``/``"off"`` → False (any case);
    anything else is returned as it is, for the caller to refuse."""
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return value


def value_word(value: Any) -> str:
    """A variant's value as files and the command line write it: ``true``, not ``True``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def choices_text(spec: VariantSpec) -> str:
    return ", ".join(value_word(c) for c in spec.choices)


def parse_assignment(text: str) -> tuple[str, Any]:
    """``"counters_between_resolutions=true"`` → (name, True).  A name without a value is refused:
    which value was meant is for the user to say, not for us to guess."""
    name, _sep, raw = text.partition("=")
    name = name.strip()
    if not raw.strip():
        spec = BY_NAME.get(name)
        if spec is None:
            message = _("unknown rule variant {name!r}; known: {known}").format(name=name, known=", ".join(BY_NAME))
            raise BadInput(message + did_you_mean(name, BY_NAME))
        message = _("{name} needs a value: write {name}=VALUE, one of: {choices}")
        raise BadInput(message.format(name=name, choices=choices_text(spec)))
    value = Variants({name: raw.strip()})[name]  # validate now, with the variant's own message
    return name, value
