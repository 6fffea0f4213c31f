"""Scenario files: a table, the moves to play, and what the rules should make of them.

A scenario is YAML (see ``docs/scenarios.md`` for the full format)::

    title: A 【行動】 fizzles because a counter made its unit act first
    clauses: [ACT-6, TIM-CTR-2, TIM-CTR-3]
    notes: 足止め makes 岩の巨人 行動完了 before 岩砕き resolves, so 岩砕き fizzles.
    seed: 1
    players: [A, B]
    geos: {荒野: {holder: B, limit: 10}}
    units:
      岩の巨人: {owner: A, skills: 土, geo: 荒野,
                abilities: [{name: 岩砕き, kind: action, timing: 通常, effect: destroy}]}
      水の精:   {owner: B, skills: 水, geo: 荒野}
    cards:
      足止め: {owner: B, condition: 水, timing: 反撃, effect: exhaust}
    start: {at: normal_timing, battle: {advancing: A, geo: 荒野, turn: A}}
    moves:
      - "A: activate 岩砕き of 岩の巨人 on 水の精"
      - "B: use 足止め by 水の精 on 岩の巨人"
      - {refused: "B: pass", clause: TIM-CTR-2}
      - "A: pass"
      - "B: pass"
    expect:
      outcomes: {岩砕き: {result: fizzled, clause: ACT-6}, 足止め: resolved}
      zones: {足止め: graveyard, 水の精: field}
      units: {岩の巨人: {acted: true}}
      order: [足止め, 岩砕き]

Everything malformed is reported as ``FILE:LINE: what is wrong`` (:class:`BadInput`, exit
code 2 on the command line); an expectation that does not hold, a move the rules refuse, or
a ``clauses:`` entry that no expectation verifies, is a :class:`Failure` (exit code 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .catalogue import CLAUSES
from .effects import EFFECTS, one_off
from .effects import parse as parse_effect
from .engine import Game, LogEntry
from .errors import BadInput, RuleViolation
from .i18n import _, language, using
from .model import Ability, Battle, Card, Effect, Geo, Table, Unit
from .paying import self_spoiling
from .price_parts import Part, read_cost
from .ruleset import Ruleset, builtin
from .skills import Condition, Pool, SkillPool, fmt, pool
from .timing import parse_timings
from .variants import Variants


# ---------------------------------------------------------------- YAML with line numbers
class _Map(dict):
    """A mapping that remembers the line of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.key_lines = {}


class _Seq(list):
    """A list that remembers the line of itself and of each item."""

    line: int = 0
    item_lines: list[int]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.item_lines = []


class _Loader(yaml.SafeLoader):
    pass


def _map(loader: _Loader, node: yaml.MappingNode) -> _Map:
    m = _Map()
    m.line = node.start_mark.line + 1
    m.key_lines = {}
    loader.flatten_mapping(node)  # YAML merge keys (<<: *anchor)
    for k, v in node.value:
        key = loader.construct_object(k, deep=True)
        if not isinstance(key, str | int | float | bool):
            raise BadInput(_("keys must be plain text"), f"line {k.start_mark.line + 1}")
        if str(key) in m:
            raise BadInput(_("the key {key!r} is given twice").format(key=key), f"line {k.start_mark.line + 1}")
        m[str(key)] = loader.construct_object(v, deep=True)
        m.key_lines[str(key)] = k.start_mark.line + 1
    return m


def _seq(loader: _Loader, node: yaml.SequenceNode) -> _Seq:
    s = _Seq(loader.construct_object(v, deep=True) for v in node.value)
    s.line = node.start_mark.line + 1
    s.item_lines = [v.start_mark.line + 1 for v in node.value]
    return s


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _seq)


def read_yaml(path: Path) -> Any:
    """Read a YAML file keeping line numbers; unreadable or invalid files are :class:`BadInput`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise BadInput(_("cannot read the file: {reason}").format(reason=err.strerror), str(path)) from None
    except UnicodeDecodeError:
        raise BadInput(_("the file is not UTF-8 text"), str(path)) from None
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(err, "problem", None) or err
        raise BadInput(_("not valid YAML: {problem}").format(problem=problem), where) from None
    except BadInput as err:
        raise BadInput(err.message, f"{path}:{err.where.removeprefix('line ')}") from None


class _Where:
    """Builds ``file:line (key)`` locations for error messages."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, node: Any, key: str | int | None = None) -> str:
        line = _line(node, key)
        place = f"{self.path}:{line}" if line else self.path
        return place + (f" ({key})" if isinstance(key, str) else "")


def _line(node: Any, key: str | int | None) -> int:
    """The line of ``node[key]`` (or of ``node`` itself) in the file, 0 when unknown."""
    if isinstance(key, int) and isinstance(node, _Seq) and key < len(node.item_lines):
        return node.item_lines[key]
    if isinstance(key, str) and isinstance(node, _Map):
        return node.key_lines.get(key, node.line)
    return getattr(node, "line", 0)


def _shown(value: Any) -> str:
    """How a wrong value is named in a message: its YAML shape, or the value itself."""
    if value is None:
        return _("nothing")
    if isinstance(value, Mapping):
        return _("a mapping (key: value lines)")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, bool):
        return _("{value} (a yes/no value)").format(value=str(value).lower())
    if isinstance(value, int | float):
        return _("the number {value}").format(value=value)
    return repr(value)


def _table_of(data: Any, where: _Where, parent: Any = None, key: str | int | None = None) -> Mapping[str, Any]:
    """``data`` as a mapping (nothing counts as empty); anything else is :class:`BadInput`."""
    if data is None:  # an empty entry: errors about it point at its key
        empty = _Map()
        empty.line = _line(parent, key)
        return empty
    if not isinstance(data, Mapping):
        at = where(parent, key) if parent is not None else where(data)
        raise BadInput(_("expected a mapping (key: value lines), got {value}").format(value=_shown(data)), at)
    return data


def _list_of(data: Any, where: _Where, parent: Any, key: str, single: bool = False) -> list[Any]:
    """``data`` as a list; with ``single`` one scalar stands for a list of one."""
    if data is None:
        return []
    if isinstance(data, list):
        return data
    if single and not isinstance(data, Mapping):
        return [data]
    raise BadInput(_("{key} must be a list, got {value}").format(key=key, value=_shown(data)), where(parent, key))


def _not_a_clause(cid: object) -> str:
    return _("{id!r} is not a clause ID of the catalogue (see `fsm rules`)").format(id=cid)


def _no_geo(name: object, geos: Iterable[str]) -> str:
    return _("no geo {geo!r}; geos: {geos}").format(geo=name, geos=", ".join(geos) or _("none"))


def _check_keys(data: Mapping[str, Any], allowed: set[str], where: _Where, what: str) -> None:
    for key in data:
        if key not in allowed:
            raise BadInput(
                _("unknown key {key!r} in {what}; allowed: {allowed}").format(
                    key=key, what=what, allowed=", ".join(sorted(allowed))
                ),
                where(data, key),
            )


class _Fields:
    """Typed reading of one mapping of a scenario; every error names file:line and the key."""

    def __init__(self, data: Any, where: _Where, what: str, allowed: set[str], parent: Any = None,
                 key: str | int | None = None) -> None:  # fmt: skip
        self.data = _table_of(data, where, parent, key)
        self.where = where
        self.what = what
        _check_keys(self.data, allowed, where, what)

    def at(self, key: str) -> str:
        return self.where(self.data, key)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def text(self, key: str, default: str | None = None, choices: Iterable[str] | None = None) -> str | None:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise BadInput(
                _("{key} must be text, got {value} (quote it if it is a name)").format(key=key, value=_shown(value)),
                self.at(key),
            )
        if choices is not None:
            allowed = list(choices)
            if value not in allowed:
                one_of = ", ".join(allowed) or _("nothing")
                message = _("{key} must be one of {choices}, got {value!r}")
                raise BadInput(message.format(key=key, choices=one_of, value=value), self.at(key))
        return value

    def required(self, key: str, choices: Iterable[str] | None = None) -> str:
        value = self.text(key, None, choices)
        if value is None:
            hint = f" ({', '.join(choices)})" if choices is not None else ""
            raise BadInput(_("{what} needs {key}").format(what=self.what, key=key) + hint, self.where(self.data))
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise BadInput(
                _("{key} must be true or false, got {value}").format(key=key, value=_shown(value)), self.at(key)
            )
        return value

    def number(self, key: str, default: int, minimum: int = 0) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            message = _("{key} must be a whole number ≥ {minimum}, got {value!r}")
            raise BadInput(message.format(key=key, minimum=minimum, value=value), self.at(key))
        return value

    def symbols(self, key: str) -> Pool:
        value = self.data.get(key)
        if value in NO_SKILLS:
            return Counter()
        if value is not None and not isinstance(value, str | list | Mapping):
            message = _("{key} must be skill symbols such as '土 土 全', got {value}")
            raise BadInput(message.format(key=key, value=_shown(value)), self.at(key))
        return pool(value, self.at(key))

    def names(self, key: str) -> list[str]:
        items = _list_of(self.data.get(key), self.where, self.data, key, single=True)
        for item in items:
            if not isinstance(item, str):
                raise BadInput(
                    _("{key} must list names (text), got {value}").format(key=key, value=_shown(item)), self.at(key)
                )
        return items


# ---------------------------------------------------------------- the table
def _effects(raw: Any, where: str) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for text in items:
        if not isinstance(text, str):
            message = _("an effect is text such as 'destroy' or 'strip 土', got {value}")
            raise BadInput(message.format(value=_shown(text)), where)
        out.append(parse_effect(text, where))
    return tuple(out)


#: How a scenario says "no skills at all" (fmt() prints an empty pool as なし).
NO_SKILLS = ("なし", "none", "")

TARGET_KINDS = ("unit", "player", "geo", "equip", "none", "self")
UNIT_KEYS = {"owner", "name", "level", "speed", "skills", "abilities", "zone", "geo", "party", "acted", "marched",
             "quick_summon", "used"}  # fmt: skip
ABILITY_KEYS = {"name", "kind", "timing", "cost", "effect", "dice", "min_roll", "target", "sync", "battle"}
CARD_KEYS = {"owner", "name", "type", "condition", "name_condition", "timing", "effect", "dice", "min_roll", "target",
             "quick_summon", "zone", "equipped_to"}  # fmt: skip


def _timings(f: _Fields, rules: Ruleset) -> tuple[str, ...]:
    raw = f.get("timing")
    if raw is None:
        return ()
    if isinstance(raw, list):
        if not all(isinstance(p, str) for p in raw):
            raise BadInput(_("timing must be text such as 通常/反撃, or a list of timings"), f.at("timing"))
    elif not isinstance(raw, str):
        raise BadInput(
            _("timing must be text such as 通常/反撃, got {value}").format(value=_shown(raw)), f.at("timing")
        )
    return parse_timings(raw, rules.timings, f.at("timing"))


def _owner(f: _Fields, players: tuple[str, str], where: _Where) -> str:
    """Every unit and card belongs to one of the two players."""
    owner = f.get("owner")
    if owner not in players:
        at = f.at("owner") if "owner" in f.data else where(f.data)
        message = _("owner must be {first} or {second}, got {owner!r}")
        raise BadInput(message.format(first=players[0], second=players[1], owner=owner), at)
    return str(owner)


def _ability(raw: Any, where: _Where, uid: str, parent: Any, index: int, rules: Ruleset) -> Ability:
    f = _Fields(raw, where, _("an ability of {unit}").format(unit=uid), ABILITY_KEYS, parent, index)
    kind = f.text("kind")
    if kind is None:
        raise BadInput(
            _("an ability needs `kind:`, one of: {kinds}").format(kinds=", ".join(rules.kinds)), f.at("kind")
        )
    if kind not in rules.kinds:
        message = _("unknown ability kind {kind!r}; kinds: {kinds}")
        raise BadInput(message.format(kind=kind, kinds=", ".join(rules.kinds)), f.at("kind"))
    if rules.kinds[kind].category != "ability":
        raise BadInput(_("{kind!r} is not an ability kind").format(kind=kind), f.at("kind"))
    timings = _timings(f, rules)
    battle_only = f.flag("battle") or "battle" in timings
    effect = _effects(f.get("effect"), f.at("effect"))
    name = f.text("name") or kind
    auto = rules.kinds[kind].usable in ("battle_start", "continuous")
    target = f.text("target", "self" if auto else "unit", TARGET_KINDS) or "unit"
    if auto:
        _check_auto(f, name, target, battle_only, effect)
    skills, parts = _cost(f, rules, kind, name)
    return Ability(
        name=name,
        kind=kind,
        timings=tuple(k for k in timings if rules.timings[k].role != "auto"),
        cost=tuple(skills.items()),
        parts=parts,
        effect=effect,
        dice=f.flag("dice"),
        min_roll=f.number("min_roll", 0),
        target=target,
        sync=f.text("sync"),
        battle_only=battle_only,
    )


def _cost(f: _Fields, rules: Ruleset, kind: str, name: str) -> tuple[Pool, tuple[Part, ...]]:
    """An ability's 代償: skill symbols and parts (fsm/price_parts.py), paid as its kind's price says."""
    raw = f.get("cost")
    if raw is None or raw in NO_SKILLS:
        return Counter(), ()
    if not isinstance(raw, str | list | Mapping):
        message = _("cost must be skill symbols and parts such as '火 + 手札1枚', got {value}")
        raise BadInput(message.format(value=_shown(raw)), f.at("cost"))
    skills, parts = read_cost(raw, rules.parts, f.at("cost"))
    spec = rules.kinds[kind]
    if parts and spec.price != "pay_cost":
        message = _("{name}'s kind pays {price}, not a 代償, so its cost cannot take {part} (COST-3)")
        raise BadInput(message.format(name=name, price=spec.price, part=parts[0].text()), f.at("cost"))
    spoilt = self_spoiling(spec, parts)
    if spoilt:
        message = _(
            "{name}'s 代償 {part} takes its own unit at declaration, and its recheck for {check} would then "
            "always fizzle it (COST-5); take another unit (which = other)"
        )
        raise BadInput(message.format(name=name, part=spoilt[0].text(), check=spoilt[1]), f.at("cost"))
    return skills, parts


def _check_auto(f: _Fields, name: str, target: str, battle_only: bool, effect: tuple[Effect, ...]) -> None:
    """A 【自動】 nobody declares: refuse what it could never do, rather than do something else."""
    if target not in ("self", "none"):
        # AUTO-1: it is never declared, so no player ever names its target; it works on its
        # own unit, which for a [戦闘] one is a battle participant (AUTO-2)
        raise BadInput(
            _(
                "{name} is a 【自動】: it activates by itself and nobody names a target for it (AUTO-1), "
                "so target: {target} cannot be chosen; its effect falls on its own unit (target: self)"
            ).format(name=name, target=target),
            f.at("target"),
        )
    one_off_effects = [str(e) for e in effect if one_off(e.op)]
    if one_off_effects and not battle_only:
        raise BadInput(
            _(
                "{name} is a 【自動】 without [戦闘], always in effect (AUTO-4); {effects} happens once and "
                "cannot last, so it cannot be always in effect. Use a lasting effect ({lasting}) or mark the "
                "auto [戦闘] (timing: 戦闘)"
            ).format(
                name=name,
                effects=", ".join(one_off_effects),
                lasting=", ".join(op for op in EFFECTS if not one_off(op)),
            ),
            f.at("effect"),
        )


def build_table(data: Mapping[str, Any], rules: Ruleset, path: str = "<scenario>") -> Table:
    """Set up a table from a scenario's set-up keys (players, seed, geos, units, cards)."""
    where = _Where(path)
    players = data.get("players", ["A", "B"])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p and " " not in p for p in players)
        or players[0] == players[1]
    ):
        raise BadInput(_("players must be a list of two different names, e.g. [A, B]"), where(data, "players"))
    a, b = players
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadInput(_("seed must be a whole number, got {value}").format(value=_shown(seed)), where(data, "seed"))
    table = Table(players=(a, b), seed=seed, active=a)
    geos = _table_of(data.get("geos"), where, data, "geos")
    for name, raw in geos.items():
        g = _Fields(raw, where, _("geo {name}").format(name=name), {"holder", "limit"}, geos, name)
        holder = g.text("holder", None, (a, b))
        table.geos[name] = Geo(name, holder, g.number("limit", 99))
    units = _table_of(data.get("units"), where, data, "units")
    for uid, raw in units.items():
        u = _Fields(raw, where, _("unit {unit}").format(unit=uid), UNIT_KEYS, units, uid)
        if " " in uid:
            message = _("unit ID {unit!r} may not contain spaces (moves name units by ID)")
            raise BadInput(message.format(unit=uid), where(units, uid))
        owner = _owner(u, (a, b), where)
        geo = u.text("geo")
        if geo is not None and geo not in table.geos:
            raise BadInput(_no_geo(geo, table.geos), u.at("geo"))
        raw_abilities = _list_of(u.get("abilities"), where, u.data, "abilities")
        table.units[uid] = Unit(
            id=uid,
            name=u.text("name", uid) or uid,
            owner=owner,
            level=u.number("level", 1),
            speed=u.number("speed", 0, minimum=-99),
            skills=SkillPool(base=u.symbols("skills")),
            abilities=tuple(_ability(x, where, uid, raw_abilities, i, rules) for i, x in enumerate(raw_abilities)),
            zone=u.text("zone", "field", ("hand", "field", "graveyard")) or "field",
            geo=geo,
            party=u.text("party"),
            acted=u.flag("acted"),
            marched=u.flag("marched"),
            quick_summon=u.flag("quick_summon"),
            declared=set(u.names("used")),
        )
    cards = _table_of(data.get("cards"), where, data, "cards")
    for cid, raw in cards.items():
        c = _Fields(raw, where, _("card {card}").format(card=cid), CARD_KEYS, cards, cid)
        if " " in cid:
            message = _("card ID {card!r} may not contain spaces (moves name cards by ID)")
            raise BadInput(message.format(card=cid), where(cards, cid))
        owner = _owner(c, (a, b), where)
        ctype = c.text("type", "skill", ("skill", "equip")) or "skill"
        zone = c.text("zone", "hand", ("hand", "revealed", "equipped", "graveyard")) or "hand"
        equipped_to = c.text("equipped_to")
        if zone == "equipped" and equipped_to not in table.units:
            message = _("an equipped card needs equipped_to: UNIT (one of {units})")
            raise BadInput(message.format(units=", ".join(table.units)), c.at("zone"))
        timings = _timings(c, rules)
        if ctype == "skill" and not timings:
            raise BadInput(_("a skill card needs a timing, e.g. 通常 or 反撃"), where(c.data))
        auto = [rules.timings[k].ja for k in timings if rules.timings[k].role == "auto"]
        if ctype == "skill" and auto:
            # TIM-BTL: [戦闘] is how a 【自動】 takes effect by itself; a card is declared (SC-4)
            raise BadInput(
                _(
                    "card {card} has the timing [{timing}], which only a 【自動】 ability takes effect under "
                    "(TIM-BTL); a skill card is declared by a player at one of its timings (SC-4), so under "
                    "[{timing}] it could never be used. Give it the timing it is used in, e.g. 通常 or 反撃"
                ).format(card=cid, timing=auto[0]),
                c.at("timing"),
            )
        table.cards[cid] = Card(
            id=cid,
            name=c.text("name", cid) or cid,
            owner=owner,
            type=ctype,
            condition=Condition.of(c.symbols("condition"), c.text("name_condition"), c.at("condition")),
            timings=timings,
            effect=_effects(c.get("effect"), c.at("effect")),
            dice=c.flag("dice"),
            min_roll=c.number("min_roll", 0),
            target=c.text("target", "unit", TARGET_KINDS) or "unit",
            quick_summon=c.flag("quick_summon"),
            zone=zone,
            equipped_to=equipped_to if zone == "equipped" else None,
        )
    _check_filters(table, units, where)
    return table


def _check_filters(table: Table, units: Mapping[str, Any], where: _Where) -> None:
    """A 代償 part's name filter must name something on the table, or it is a typo (COST-3)."""
    for u in table.units.values():
        raw_abilities = units[u.id].get("abilities") or []
        for node, ab in zip(raw_abilities, u.abilities, strict=True):
            for part in ab.parts:
                if not part.name:
                    continue
                pieces = table.units.values() if part.kind.take == "unit" else table.cards.values()
                if not any(part.name in x.name for x in pieces):
                    names = ", ".join(x.name for x in pieces) or _("none")
                    message = _("the filter 名称：{name} of {part} names nothing on this table; names: {names}")
                    raise BadInput(message.format(name=part.name, part=part.text(), names=names), where(node, "cost"))


def _variants(data: Mapping[str, Any], where: _Where, overrides: Mapping[str, Any] | None) -> Variants:
    own = _table_of(data.get("variants"), where, data, "variants")
    try:
        return Variants({**own, **(overrides or {})})
    except BadInput as err:
        raise BadInput(err.message, where(data, "variants") if own else "--variant") from None


def build_game(data: Mapping[str, Any], rules: Ruleset | None = None, path: str = "<scenario>",
               variants: Variants | None = None, overrides: Mapping[str, Any] | None = None,
               lang: str | None = None) -> Game:  # fmt: skip
    """A game set up and started as the scenario says (moves not yet played), narrating in ``lang``.

    ``variants`` replaces the scenario's own ``variants:``; ``overrides`` is applied on top of them.
    """
    where = _Where(path)
    rules = rules or builtin()
    for extra in _list_of(data.get("rules"), where, data, "rules", single=True):
        if not isinstance(extra, str):
            raise BadInput(
                _("rules must list file names, got {value}").format(value=_shown(extra)), where(data, "rules")
            )
        rules = rules.extend(Path(path).parent / extra)
    table = build_table(data, rules, path)
    if variants is None:
        variants = _variants(data, where, overrides)
    elif overrides:
        variants = Variants({**variants, **overrides})
    start = _Fields(data.get("start"), where, "start", {"at", "active", "battle"}, data, "start")
    at = start.text("at", "main_phase", Game.STARTS) or "main_phase"
    if "active" in start.data:
        table.active = start.text("active", None, table.players) or table.active
    if start.get("battle") is not None:
        table.battle = _battle(start, table, where)
        table.active = table.battle.advancing
    elif at != "main_phase":
        raise BadInput(_("starting at {at} needs start.battle (advancing, geo)").format(at=at), start.at("at"))
    game = Game(table, rules, variants, lang)
    game.begin(at)
    return game


def _battle(start: _Fields, table: Table, where: _Where) -> Battle:
    bf = _Fields(start.get("battle"), where, "start.battle", {"advancing", "geo", "turn", "first", "front"},
                 start.data, "battle")  # fmt: skip
    adv = bf.required("advancing", table.players)
    geo = bf.required("geo", table.geos)
    participants = [u.id for u in table.units.values() if u.geo == geo and u.on_field]
    battle = Battle(geo, adv, table.opponent(adv), participants)
    battle.first = bf.text("first", adv, table.players)
    battle.turn = bf.text("turn", battle.first, table.players)
    front = _table_of(bf.get("front"), where, bf.data, "front")
    for player, uid in front.items():
        if player not in table.players:
            message = _("front names players ({players}), not {player!r}")
            raise BadInput(message.format(players=", ".join(table.players), player=player), where(front, player))
        if uid not in participants or table.units[uid].owner != player:
            message = _("{unit!r} is not {player}'s unit in this battle")
            raise BadInput(message.format(unit=uid, player=player), where(front, player))
        battle.front[player] = uid
    return battle


# ---------------------------------------------------------------- playing and checking
@dataclass
class Failure:
    """An expectation that does not hold (or a move that went differently)."""

    where: str
    message: str
    stopped: bool = False  # the moves after this one were not played

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Result:
    """What playing a scenario gave: the game as it ends, each step's log, and the failures."""

    path: str
    title: str
    game: Game
    failures: list[Failure] = field(default_factory=list)
    steps: list[tuple[str, list[LogEntry]]] = field(default_factory=list)
    checked: set[str] = field(default_factory=set)  # clauses an expectation named and found to hold
    notes: str = ""
    clauses: list[str] = field(default_factory=list)  # the scenario's own `clauses:`

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def unverified(self) -> list[str]:
        """The clauses the file lists but no expectation names: listing a clause is a claim that the
        file checks it (an outcome's clause, a refused move's clause or a ``steps:`` line), not
        merely that some log line, such as the move's own, carried its ID."""
        return [c for c in self.clauses if c not in self.checked]


TOP_KEYS = {"title", "title_ja", "clauses", "notes", "notes_ja", "seed", "players", "geos", "units", "cards",
            "start", "moves", "expect", "variants", "rules"}  # fmt: skip


def load(
    path: str | Path,
    variants: Variants | None = None,
    rules: Ruleset | None = None,
    overrides: Mapping[str, Any] | None = None,
    lang: str | None = None,
) -> tuple[Game, Mapping[str, Any]]:
    """Read a scenario and set up its game; bad files raise :class:`BadInput` with file:line."""
    p = Path(path)
    data = read_yaml(p)
    if not isinstance(data, Mapping):
        message = _("a scenario is a mapping with players, units, moves, expect ..., got {value}")
        raise BadInput(message.format(value=_shown(data)), f"{p}:1")
    where = _Where(str(p))
    _check_keys(data, TOP_KEYS, where, _("the scenario"))
    for key in ("title", "title_ja", "notes", "notes_ja"):
        if key in data and not isinstance(data[key], str):
            raise BadInput(
                _("{key} must be text, got {value}").format(key=key, value=_shown(data[key])), where(data, key)
            )
    _clause_ids(data.get("clauses"), where, data, "clauses")
    try:
        return build_game(data, rules, str(p), variants, overrides, lang), data
    except BadInput as err:
        if err.where.startswith(str(p)) or err.where == "--variant":
            raise
        # raised below the scenario reader (e.g. Game.begin): say which file
        raise BadInput(err.message, f"{p}" + (f" ({err.where})" if err.where else "")) from None


def _clause_ids(raw: Any, where: _Where, parent: Any, key: str) -> list[str]:
    ids = _list_of(raw, where, parent, key, single=True)
    for i, cid in enumerate(ids):
        if not isinstance(cid, str) or cid not in CLAUSES:
            at = where(ids, i) if isinstance(ids, _Seq) else where(parent, key)
            raise BadInput(_not_a_clause(cid), at)
    return [str(c) for c in ids]


def play(
    path: str | Path,
    variants: Variants | None = None,
    rules: Ruleset | None = None,
    upto: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    expectations: bool = True,
    lang: str | None = None,
) -> Result:
    """Play a scenario's moves and check its expectations.

    ``upto`` stops after that many entries of ``moves:`` (and skips the expectations);
    ``expectations=False`` plays every move but checks nothing (``fsm moves``).
    ``lang`` (default: the language chosen, docs/i18n.md) is the narration's language.  A file's
    ``steps:`` and ``log:`` lines quote the English log, so the checks are made on an English
    game and the moves are played again to narrate them in another language.
    """
    spoken = language(lang)
    if spoken == "en" or not expectations:
        with using(lang):
            return _play(path, variants, rules, upto, overrides, expectations, spoken)
    result = _play(path, variants, rules, upto, overrides, expectations, "en")
    with using(spoken):  # the lines the reader adds (a refused move) in the narration's language too
        narrated = _play(path, variants, rules, upto, overrides, False, spoken)
    result.steps, result.title, result.notes = narrated.steps, narrated.title, narrated.notes
    if not result.failures:  # the same play, its log in the narration's language (a step-through's)
        result.game = narrated.game
    return result


def prose(data: Mapping[str, Any], key: str, lang: str | None) -> str:
    """The file's ``title`` or ``notes`` in ``lang``: ``title_ja`` in Japanese when it has one."""
    text = data.get(f"{key}_ja") if language(lang) == "ja" else None
    return str(text or data.get(key, ""))


def _play(
    path: str | Path,
    variants: Variants | None,
    rules: Ruleset | None,
    upto: int | None,
    overrides: Mapping[str, Any] | None,
    expectations: bool,
    lang: str,
) -> Result:
    game, data = load(path, variants, rules, overrides, lang)
    where = _Where(str(path))
    result = Result(str(path), prose(data, "title", lang) or Path(path).stem, game)
    result.notes = prose(data, "notes", lang)
    result.clauses = _clause_ids(data.get("clauses"), where, data, "clauses")
    result.steps.append(("(set-up)", list(game.log)))
    moves = _list_of(data.get("moves"), where, data, "moves")
    for n, entry in enumerate(moves):
        if upto is not None and n >= upto:
            break
        at = where(moves, n)
        if isinstance(entry, Mapping):
            if not _refused(game, entry, at, where, result):
                return result
            continue
        if not isinstance(entry, str):
            raise BadInput(_("a move is text such as 'A: pass', got {value}").format(value=_shown(entry)), at)
        try:
            logged = game.apply(entry)
        except BadInput as err:
            raise BadInput(err.message, at) from None
        except RuleViolation as err:
            illegal = _("move {move!r} is illegal here: {reason} ({clause})")
            message = illegal.format(move=entry, reason=err.message, clause=err.clause)
            result.failures.append(Failure(at, message, stopped=True))
            return result
        result.steps.append((entry, logged))
    if upto is None and expectations:
        result.failures += check(game, _table_of(data.get("expect"), where, data, "expect"), where, result.checked)
        if result.unverified and not result.failures:
            result.failures.append(_over_claim(result.unverified, where(data, "clauses")))
    return result


def _over_claim(unverified: list[str], at: str) -> Failure:
    ids = ", ".join(unverified)
    return Failure(
        at,
        f"lists {ids}, but no expectation verifies {'it' if len(unverified) == 1 else 'them'}; "
        f"add a steps: line such as '{unverified[0]}: words of its log line', an outcome or refused-move "
        "clause:, or drop it from clauses:",
    )


def _refused(game: Game, entry: Mapping[str, Any], at: str, where: _Where, result: Result) -> bool:
    """Check one ``{refused: MOVE, clause: ID}`` entry; False if the scenario cannot go on."""
    f = _Fields(entry, where, _("a refused move"), {"refused", "clause"})
    text = f.text("refused")
    if not text:
        raise BadInput(_("a mapping in moves must be {{refused: MOVE, clause: CLAUSE}}").format(), at)
    want = f.text("clause")
    if want is not None and want not in CLAUSES:
        raise BadInput(_not_a_clause(want), f.at("clause"))
    verdict = game.why_not(text)
    if verdict.legal:
        refused = _("expected {move!r} to be refused, but it is legal here").format(move=text)
        result.failures.append(Failure(at, refused, stopped=True))
        return False
    if not verdict.clause:  # not a rules question: a typo in the move
        raise BadInput(verdict.message, at)
    if want and verdict.clause != want:
        result.failures.append(
            Failure(
                at,
                _("{move!r} was refused under {clause}, expected {expected}: {reason}").format(
                    move=text, clause=verdict.clause, expected=want, reason=verdict.message
                ),
            )
        )
    elif want:
        result.checked.add(want)
    line = LogEntry(_("refused: {reason}").format(reason=verdict.message), verdict.clause, move=text)
    result.steps.append((f"refused {text}", [line]))
    return True


def _name_index(game: Game) -> dict[str, str]:
    """Expectations may name cards by ID or by name."""
    return {c.name: c.id for c in game.table.cards.values()}


EXPECT_KEYS = {"outcomes", "zones", "units", "geos", "order", "first", "flow", "actor", "log", "steps"}
UNIT_CHECKS = ("skills", "acted", "marched", "destroyed", "discarded", "party", "zone", "geo")
#: Clauses an expectation verifies by its nature (it compares exactly what the clause defines):
#: a unit's skill symbols, the zone of each thing, the order a chain of two or more resolved in.
EXPECTATION_CLAUSES = {"skills": "SYM-1", "zones": "FLOW-ZONES", "order": "TIM-CTR-3"}


def check(game: Game, expect: Mapping[str, Any], where: _Where, checked: set[str] | None = None) -> list[Failure]:
    """Compare the game as it ends with ``expect:``; returns what does not hold.

    Clauses verified along the way (an outcome's clause, a ``steps:`` line's clause, and those of
    :data:`EXPECTATION_CLAUSES`) are added to ``checked``.
    """
    checked = checked if checked is not None else set()
    out: list[Failure] = []
    _check_keys(expect, EXPECT_KEYS, where, "expect")
    out += _check_outcomes(game, _table_of(expect.get("outcomes"), where, expect, "outcomes"), where, checked)
    zones = _table_of(expect.get("zones"), where, expect, "zones")
    found = _check_zones(game, zones, where)
    if zones and not found:
        checked.add(EXPECTATION_CLAUSES["zones"])
    out += found
    out += _check_units(game, _table_of(expect.get("units"), where, expect, "units"), where, checked)
    t = game.table
    geos = _table_of(expect.get("geos"), where, expect, "geos")
    for name, raw in geos.items():
        if name not in t.geos:
            raise BadInput(_no_geo(name, t.geos), where(geos, name))
        g = _Fields(raw, where, _("expected geo {name}").format(name=name), {"holder"}, geos, name)
        holder = g.text("holder")
        if holder != t.geos[name].holder:
            out.append(
                Failure(
                    g.at("holder"),
                    _("{geo} should be held by {want}, but is held by {got}").format(
                        geo=name, want=holder, got=t.geos[name].holder
                    ),
                )
            )
    if "order" in expect:
        want_order = [str(x) for x in _list_of(expect["order"], where, expect, "order")]
        names = []
        for seq in t.resolution_order:
            o = next(o for o in t.outcomes if o.seq == seq)
            card = t.cards.get(o.source)
            names.append(card.name if card else o.source)
        if names != want_order:
            message = _("resolution order should be {want}, but was {got}").format(want=want_order, got=names)
            out.append(Failure(where(expect, "order"), message))
        elif len(names) >= 2:
            checked.add(EXPECTATION_CLAUSES["order"])
    f = _Fields(expect, where, "expect", EXPECT_KEYS)
    if "first" in expect:
        want = f.text("first", None, t.players)
        got = t.battle.first if t.battle else None
        if got != want:
            out.append(
                Failure(
                    f.at("first"),
                    _("the first player (先攻) should be {want}, but is {got}").format(want=want, got=got),
                )
            )
    if "flow" in expect:
        want = f.text("flow")
        config = [str(v) for v in game.flow.configuration_values]
        if want not in config:
            message = _("the game should be at {want}, but is at {got}").format(want=want, got=" / ".join(config))
            out.append(Failure(f.at("flow"), message))
    if "actor" in expect:
        want = f.text("actor", None, [*t.players, "nobody"])
        got = game.actor() or "nobody"
        if got != want:
            out.append(
                Failure(
                    f.at("actor"), _("{want} should be the one to move now, but it is {got}").format(want=want, got=got)
                )
            )
    if "log" in expect:
        cited = Counter(e.clause for e in game.log)
        for clause in _clause_ids(expect["log"], where, expect, "log"):
            if not cited.get(clause):
                out.append(
                    Failure(where(expect, "log"), _("no step of the log follows {clause}").format(clause=clause))
                )
    if "steps" in expect:
        out += _check_steps(game, expect, where, checked)
    return out


def _check_outcomes(game: Game, outcomes: Mapping[str, Any], where: _Where, checked: set[str]) -> list[Failure]:
    t = game.table
    names = _name_index(game)
    out = []
    for source, raw in outcomes.items():
        got = [o for o in t.outcomes if o.source in (source, names.get(source))]
        wants = []
        items = raw if isinstance(raw, list) else [raw]
        for i, want in enumerate(items):
            parent, key = (raw, i) if isinstance(raw, list) else (outcomes, source)
            if isinstance(want, Mapping):
                f = _Fields(
                    want, where, _("the outcome of {source}").format(source=source), {"result", "clause"}, parent, key
                )
                result = f.required("result", ("resolved", "fizzled"))
                clause = f.text("clause")
                if clause is not None and clause not in CLAUSES:
                    raise BadInput(_not_a_clause(clause), f.at("clause"))
                wants.append((result, clause))
            elif want in ("resolved", "fizzled"):
                wants.append((want, None))
            else:
                raise BadInput(
                    _("an outcome is resolved, fizzled or {{result: ..., clause: ...}}, got {value}").format(
                        value=_shown(want)
                    ),
                    where(parent, key),
                )
        matches = len(got) == len(wants) and all(
            o.result == r and (c is None or o.clause == c) for o, (r, c) in zip(got, wants, strict=True)
        )
        if matches:
            checked.update(c for _r, c in wants if c)
            continue
        shown = [f"{o.result} ({o.clause}{': ' + o.reason if o.reason else ''})" for o in got]
        expected = [f"{r} ({c})" if c else r for r, c in wants]
        message = _("{source}: expected {want}, got {got}").format(
            source=source, want=expected, got=shown or _("no outcome")
        )
        out.append(Failure(where(outcomes, source), message))
    return out


def _check_zones(game: Game, zones: Mapping[str, Any], where: _Where) -> list[Failure]:
    t = game.table
    out = []
    for name, want in zones.items():
        thing = t.units.get(name) or t.cards.get(name) or t.cards.get(_name_index(game).get(name, ""))
        if thing is None:
            raise BadInput(_("no unit or card {name!r}").format(name=name), where(zones, name))
        if not isinstance(want, str):
            message = _("a zone is text such as field or graveyard, got {value}")
            raise BadInput(message.format(value=_shown(want)), where(zones, name))
        if thing.zone != want:
            out.append(
                Failure(
                    where(zones, name),
                    _("{name} should be in {want}, but is in {got}").format(name=name, want=want, got=thing.zone),
                )
            )
    return out


def _check_units(game: Game, units: Mapping[str, Any], where: _Where, checked: set[str]) -> list[Failure]:
    t = game.table
    out = []
    for uid, raw in units.items():
        u = t.units.get(uid)
        if u is None:
            raise BadInput(
                _("no unit {unit!r}; units: {units}").format(unit=uid, units=", ".join(t.units)), where(units, uid)
            )
        f = _Fields(raw, where, _("expected unit {unit}").format(unit=uid), set(UNIT_CHECKS), units, uid)
        for key in f.data:
            got: Any
            want: Any
            if key == "skills":
                got, want = fmt(game.available(u)), fmt(f.symbols(key))
            elif key == "acted":  # as the rules count it, a continuous 【自動】 included (AUTO-4)
                got, want = game.acted(u), f.flag(key)
            elif key in ("marched", "destroyed", "discarded"):
                got, want = getattr(u, key), f.flag(key)
            else:  # party, zone, geo
                got, want = getattr(u, key), f.text(key)
            if got != want:
                message = _("{unit}.{key} should be {want!r}, but is {got!r}").format(
                    unit=uid, key=key, want=want, got=got
                )
                out.append(Failure(f.at(key), message))
            elif key in EXPECTATION_CLAUSES:
                checked.add(EXPECTATION_CLAUSES[key])
    return out


def _check_steps(game: Game, expect: Mapping[str, Any], where: _Where, checked: set[str]) -> list[Failure]:
    """``steps:`` — log lines that must appear in this order, each ``"CLAUSE: words of the line"``."""
    wanted = _list_of(expect["steps"], where, expect, "steps")
    log = game.log
    pos = 0
    for i, raw in enumerate(wanted):
        if not isinstance(raw, str) or ":" not in raw:
            message = _("a step is 'CLAUSE: words of the log line', got {value}")
            raise BadInput(message.format(value=_shown(raw)), where(wanted, i))
        clause, _sep, words = (s.strip() for s in raw.partition(":"))
        if clause not in CLAUSES:
            raise BadInput(_not_a_clause(clause), where(wanted, i))
        found = next((j for j in range(pos, len(log)) if log[j].clause == clause and words in log[j].text), None)
        if found is None:
            earlier = any(e.clause == clause and words in e.text for e in log[:pos])
            why = _("it comes earlier than the step before it") if earlier else _("no such line in the log")
            return [
                Failure(where(wanted, i), _("expected the log line {step!r} here: {why}").format(step=raw, why=why))
            ]
        checked.add(clause)
        pos = found + 1
    return []
