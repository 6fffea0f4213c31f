"""Timings (タイミング) and where each may be used (TIM-*).

A timing is data (``fsm/rules/data/timings.toml``): either an *action* timing, used on its
own at certain points ([通常] in the player's own normal timing, [ＭＦ] in the main
phase), a *counter* timing, used to answer a pending item of certain categories
([反撃] and its 限定 forms), or *auto* ([戦闘]: takes effect by itself).  A card may carry
several (TIM-1): ``"通常/反撃/スピード"`` is three timings.

:func:`legality_table` answers, for every timing, combination and point of the game,
"may it be used here, and as what?" — the single place the engine asks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fsm.errors import BadInput
from fsm.i18n import N_, _, did_you_mean

ROLES = ("action", "counter", "auto")
#: The settings of a ``[timing.NAME]`` table.
SETTINGS = ("ja", "en", "short", "role", "at", "answers", "during", "clause")
COMBINATION_SETTINGS = ("timings", "clause")
ACTION_POINTS = ("own_main", "own_normal")
DURING = ("any", "attack", "speed")


@dataclass(frozen=True)
class TimingSpec:
    key: str
    ja: str
    en: str
    role: str
    clause: str
    at: tuple[str, ...] = ()  # action timings: the points where it is an action
    answers: tuple[str, ...] = ()  # counter timings: categories it may answer
    during: str = "any"  # counter timings: any / attack / speed
    short: str = ""

    @property
    def label(self) -> str:
        return f"[{self.ja}]"


def timing_to_data(spec: TimingSpec) -> dict[str, Any]:
    """The ``[timing.NAME]`` table a spec was read from (so a designer may change one setting)."""
    data: dict[str, Any] = {"ja": spec.ja, "en": spec.en, "role": spec.role, "clause": spec.clause}
    if spec.at:
        data["at"] = list(spec.at)
    if spec.answers:
        data["answers"] = list(spec.answers)
        data["during"] = spec.during
    if spec.short:
        data["short"] = spec.short
    return data


def _words(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadInput(_('{key} must be a list of words, e.g. {key} = ["..."]').format(key=key), f"{where}.{key}")
    return tuple(value)


def timing_from_data(key: str, data: Mapping[str, Any], where: str) -> TimingSpec:
    """Validate one ``[timing.NAME]`` table; errors name the file and the key."""
    known = set(SETTINGS)
    for extra in sorted(set(data) - known):
        message = _("unknown setting {setting!r}; known: {known}")
        raise BadInput(message.format(setting=extra, known=", ".join(sorted(known))), f"{where}.{extra}")
    for text_key in ("ja", "en", "clause"):
        if not isinstance(data.get(text_key), str) or not data[text_key]:
            raise BadInput(_("{key} must be a non-empty string").format(key=text_key), f"{where}.{text_key}")
    if not isinstance(data.get("short", ""), str):
        raise BadInput(_("short must be a string (another name cards may use)"), f"{where}.short")
    role = data.get("role")
    if role not in ROLES:
        message = _("{key} = {value!r} is not one of: {allowed}")
        hint = did_you_mean(role, ROLES) if isinstance(role, str) else ""
        raise BadInput(message.format(key="role", value=role, allowed=", ".join(ROLES)) + hint, f"{where}.role")
    if role != "action" and "at" in data:
        raise BadInput(_("`at` is for action timings; a {role} timing has none").format(role=role), f"{where}.at")
    if role != "counter" and ("answers" in data or "during" in data):
        extra = "answers" if "answers" in data else "during"
        message = _("`{key}` is for counter timings; a {role} timing has none")
        raise BadInput(message.format(key=extra, role=role), f"{where}.{extra}")
    at = _words(data, "at", where)
    for point in at:
        if point not in ACTION_POINTS:
            message = _("{point!r} is not a point; use: {points}")
            hint = did_you_mean(point, ACTION_POINTS)
            raise BadInput(message.format(point=point, points=", ".join(ACTION_POINTS)) + hint, f"{where}.at")
    if role == "action" and not at:
        raise BadInput(_("an action timing needs `at` (own_main or own_normal)"), f"{where}.at")
    answers = _words(data, "answers", where)
    if role == "counter" and not answers:
        raise BadInput(_("a counter timing needs `answers` (what it may answer)"), f"{where}.answers")
    during = data.get("during", "any")
    if during not in DURING:
        message = _("{key} = {value!r} is not one of: {allowed}")
        hint = did_you_mean(during, DURING) if isinstance(during, str) else ""
        raise BadInput(message.format(key="during", value=during, allowed=", ".join(DURING)) + hint, f"{where}.during")
    return TimingSpec(
        key=key,
        ja=data["ja"],
        en=data["en"],
        role=role,
        clause=data["clause"],
        at=at,
        answers=answers,
        during=during,
        short=data.get("short", ""),
    )


@dataclass(frozen=True)
class Combination:
    """A mix of timings the rules name with a clause of their own, e.g. [通常/反撃] (TIM-NC)."""

    key: str
    timings: tuple[str, ...]
    clause: str

    def label(self, timings: Mapping[str, TimingSpec]) -> str:
        """As printed on cards: short names where a timing has one, e.g. [通常/反撃/スピード]."""
        return "[" + "/".join(timings[k].short or timings[k].ja for k in self.timings) + "]"


def combination_from_data(
    key: str, data: Mapping[str, Any], timings: Mapping[str, TimingSpec], where: str
) -> Combination:
    """Validate one ``[combination.NAME]`` table; errors name the file and the key."""
    for extra in sorted(set(data) - set(COMBINATION_SETTINGS)):
        message = _("unknown setting {setting!r}; known: {known}")
        raise BadInput(message.format(setting=extra, known="clause, timings"), f"{where}.{extra}")
    keys = data.get("timings")
    if not isinstance(keys, list) or len(keys) < 2:
        raise BadInput(_("timings must list two or more timing names"), f"{where}.timings")
    for k in keys:
        if k not in timings:
            message = _("no timing {timing!r}; timings: {timings}")
            raise BadInput(message.format(timing=k, timings=", ".join(timings)), f"{where}.timings")
    if not isinstance(data.get("clause"), str):
        raise BadInput(_("clause must be the clause ID that names this combination"), f"{where}.clause")
    return Combination(key, tuple(keys), data["clause"])


def parse_timings(text: str | Sequence[str], timings: Mapping[str, TimingSpec], where: str = "") -> tuple[str, ...]:
    """``"通常/反撃"`` or ``["normal", "counter"]`` → timing keys (TIM-1, TIM-NC, TIM-NCS)."""
    parts = [p for p in (text.strip("[]").split("/") if isinstance(text, str) else text) if p]
    if not parts:
        raise BadInput(_("a card needs at least one timing, e.g. 通常 or 反撃"), where)
    by_name: dict[str, str] = {}
    for spec in timings.values():
        for name in (spec.key, spec.ja, spec.short, spec.en):
            if name:
                by_name[name.strip()] = spec.key
    keys = []
    for part in parts:
        word = str(part).strip().strip("[]")
        key = by_name.get(word)
        if key is None:
            known = " ".join(s.label for s in timings.values())
            message = _("unknown timing {timing!r}; known timings: {known}").format(timing=part, known=known)
            raise BadInput(message + did_you_mean(word, by_name), where)
        keys.append(key)
    return tuple(dict.fromkeys(keys))


@dataclass(frozen=True)
class Point:
    """A point of the game where something might be used.

    ``action`` is set where a player may act on its own (own_main / own_normal);
    ``answering`` is the category of the pending item when a counter window is open,
    and ``during`` says whether that window lies inside an attack or the speed timing.
    """

    name: str  # English, marked N_(): label() gives it in the chosen language
    action: str | None = None
    answering: str | None = None
    during: str = "any"

    def label(self) -> str:
        return _(self.name)


def use_as(timing_keys: Iterable[str], point: Point, timings: Mapping[str, TimingSpec]) -> tuple[str, str] | None:
    """How a card with these timings may be used at ``point``: (role, clause), or None."""
    for key in timing_keys:
        spec = timings[key]
        if spec.role == "action" and point.action is not None and point.action in spec.at:
            return ("action", spec.clause)
        if (
            spec.role == "counter"
            and point.answering is not None
            and point.answering in spec.answers
            and (spec.during == "any" or spec.during == point.during)
        ):
            return ("counter", spec.clause)
    return None


def answered_by(category: str, timings: Mapping[str, TimingSpec]) -> list[TimingSpec]:
    """The counter timings that may answer a pending item of this category (TIM-CTR-1 and its
    limited forms), e.g. for a diagram: ``answered_by("equip", rules.timings)``."""
    return [t for t in timings.values() if t.role == "counter" and category in t.answers]


def refusal_clause(timing_keys: Iterable[str], point: Point, timings: Mapping[str, TimingSpec]) -> str:
    """The clause that forbids these timings here (the most specific counter rule first)."""
    keys = list(timing_keys)
    if point.answering is not None:
        for key in keys:
            spec = timings[key]
            if spec.role == "counter":
                return spec.clause
        return "TIM-CTR-1"
    for key in keys:
        if timings[key].role == "action":
            return timings[key].clause
    return timings[keys[0]].clause if keys else "TIM-1"


#: Every point the legality table covers, in game order.
POINTS: tuple[Point, ...] = (
    Point(N_("own main phase"), action="own_main"),
    Point(N_("opponent's main phase")),
    Point(N_("quick-summon timing")),
    Point(N_("quick-summon timing: answering an equip"), answering="equip"),
    Point(N_("formation")),
    Point(N_("speed: answering the dice result"), answering="speed_roll", during="speed"),
    Point(N_("speed: answering an ability"), answering="ability", during="speed"),
    Point(N_("speed: answering a skill"), answering="skill", during="speed"),
    Point(N_("own normal timing"), action="own_normal"),
    Point(N_("opponent's normal timing")),
    Point(N_("answering an ability"), answering="ability"),
    Point(N_("answering a skill"), answering="skill"),
    Point(N_("attack timing: answering the attack"), answering="attack", during="attack"),
    Point(N_("attack timing: answering an ability"), answering="ability", during="attack"),
    Point(N_("attack timing: answering a skill"), answering="skill", during="attack"),
    Point(N_("battle start")),
    Point(N_("battle end")),
)


def legality_table(timings: Mapping[str, TimingSpec], combinations: Iterable[Combination] = ()) -> list[dict[str, str]]:
    """One row per timing and per named combination: the use allowed at every point.

    A cell reads ``action (TIM-NORMAL)``, ``counter (TIM-SKL)``, ``auto (TIM-BTL)`` or ``—``.
    Usually called as :meth:`fsm.spec.ruleset.Ruleset.legality_table`, which passes its combinations.
    """
    rows: list[tuple[str, tuple[str, ...]]] = [(s.label, (s.key,)) for s in timings.values()]
    rows += [(c.label(timings), c.timings) for c in combinations]
    table = []
    for label, keys in rows:
        row = {"timing": label}
        for point in POINTS:
            if any(timings[k].role == "auto" for k in keys) and point.name == "battle start":
                row[point.name] = f"auto ({timings[keys[0]].clause})"
                continue
            use = use_as(keys, point, timings)
            row[point.name] = f"{use[0]} ({use[1]})" if use else "—"
        table.append(row)
    return table
