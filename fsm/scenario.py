"""Scenario files: a table, the moves to play, and what the rules should make of them.

A scenario is YAML (see ``docs/scenarios.md`` for the full format)::

    title: A 【行動】 fizzles because a counter made its unit act first
    clauses: [ACT-6, ACT-5]
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
      outcomes: {岩砕き: fizzled, 足止め: resolved}
      zones: {足止め: graveyard, 水の精: field}
      units: {岩の巨人: {acted: true}}
      order: [足止め, 岩砕き]

Everything malformed is reported as ``FILE:LINE: what is wrong`` (exit code 2 on the
command line); an expectation that does not hold is a :class:`Failure` (exit code 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .engine import Game, LogEntry
from .errors import BadInput, RuleViolation
from .model import EFFECT_OPS, Ability, Battle, Card, Effect, Geo, Table, Unit
from .ruleset import Ruleset, builtin
from .skills import Condition, SkillPool, fmt, pool, symbol
from .timing import parse_timings
from .variants import Variants


# ---------------------------------------------------------------- YAML with line numbers
class _Map(dict):  # type: ignore[type-arg]
    """A mapping that remembers the line of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]


class _Seq(list):  # type: ignore[type-arg]
    line: int = 0
    item_lines: list[int]


class _Loader(yaml.SafeLoader):
    pass


def _map(loader: _Loader, node: yaml.MappingNode) -> _Map:
    m = _Map()
    m.line = node.start_mark.line + 1
    m.key_lines = {}
    for k, v in node.value:
        key = loader.construct_object(k, deep=True)
        if not isinstance(key, str | int | float | bool):
            raise BadInput("keys must be plain text", f"line {k.start_mark.line + 1}")
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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise BadInput(f"cannot read the file: {err.strerror}", str(path)) from None
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise BadInput(f"not valid YAML: {getattr(err, 'problem', None) or err}", where) from None
    except BadInput as err:
        raise BadInput(err.message, f"{path}:{err.where.removeprefix('line ')}") from None


class _Where:
    """Builds ``file:line`` locations for error messages."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, node: Any, key: str | None = None) -> str:
        line = getattr(node, "line", 0)
        if key is not None and isinstance(node, _Map):
            line = node.key_lines.get(key, line)
        return f"{self.path}:{line}" + (f" ({key})" if key else "")


def _table_of(data: Any, where: _Where) -> Mapping[str, Any]:
    if data is None:
        return _Map()
    if not isinstance(data, Mapping):
        raise BadInput("expected a mapping (key: value lines)", where(data))
    return data


def _check_keys(data: Mapping[str, Any], allowed: set[str], where: _Where, what: str) -> None:
    for key in data:
        if key not in allowed:
            raise BadInput(
                f"unknown key {key!r} in {what}; allowed: {', '.join(sorted(allowed))}",
                where(data, key),
            )


# ---------------------------------------------------------------- the table
def _effects(raw: Any, where: str) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for text in items:
        op, _, arg = str(text).partition(" ")
        if op not in EFFECT_OPS:
            raise BadInput(f"unknown effect {op!r}; effects: {', '.join(EFFECT_OPS)}", where)
        if op in ("strip", "grant"):
            arg = symbol(arg, where)
        if op == "speed":
            try:
                int(arg)
            except ValueError:
                raise BadInput(f"speed needs a number, e.g. 'speed +1', not {text!r}", where) from None
        out.append(Effect(op, arg.strip()))
    return tuple(out)


def _int(data: Mapping[str, Any], key: str, default: int, where: _Where, minimum: int = 0) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise BadInput(f"{key} must be a whole number ≥ {minimum}, got {value!r}", where(data, key))
    return value


TARGET_KINDS = ("unit", "player", "geo", "equip", "none", "self")


def _target(data: Mapping[str, Any], where: _Where, default: str) -> str:
    value = data.get("target", default)
    if value not in TARGET_KINDS:
        raise BadInput(f"target must be one of {', '.join(TARGET_KINDS)}, got {value!r}", where(data, "target"))
    return str(value)


def build_table(data: Mapping[str, Any], rules: Ruleset, path: str = "<scenario>") -> Table:
    """Set up a table from a scenario's set-up keys (players, geos, units, cards, start)."""
    where = _Where(path)
    players = data.get("players", ["A", "B"])
    if not isinstance(players, list) or len(players) != 2 or len(set(map(str, players))) != 2:
        raise BadInput("players must be a list of two different names", where(data, "players"))
    a, b = (str(p) for p in players)
    table = Table(players=(a, b), seed=_int(data, "seed", 0, where), active=a)
    for name, g in _table_of(data.get("geos"), where).items():
        g = _table_of(g, where)
        _check_keys(g, {"holder", "limit"}, where, f"geo {name}")
        holder = g.get("holder")
        if holder is not None and holder not in (a, b):
            raise BadInput(f"holder {holder!r} is not a player", where(g, "holder"))
        table.geos[name] = Geo(name, holder, _int(g, "limit", 99, where))
    unit_keys = {"owner", "name", "level", "speed", "skills", "abilities", "zone", "geo", "party",
                 "acted", "marched", "quick_summon", "used"}  # fmt: skip
    for uid, u in _table_of(data.get("units"), where).items():
        u = _table_of(u, where)
        _check_keys(u, unit_keys, where, f"unit {uid}")
        if " " in uid:
            raise BadInput(f"unit ID {uid!r} may not contain spaces (moves name units by ID)", where(u))
        owner = u.get("owner")
        if owner not in (a, b):
            raise BadInput(f"owner must be {a} or {b}, got {owner!r}", where(u, "owner"))
        geo = u.get("geo")
        if geo is not None and geo not in table.geos:
            raise BadInput(f"no geo {geo!r}; geos: {', '.join(table.geos) or 'none'}", where(u, "geo"))
        zone = u.get("zone", "field")
        if zone not in ("hand", "field", "graveyard"):
            raise BadInput("zone must be hand, field or graveyard", where(u, "zone"))
        abilities = []
        for ab in u.get("abilities") or []:
            ab = _table_of(ab, where)
            ability_keys = {"name", "kind", "timing", "cost", "effect", "dice", "min_roll", "target", "sync", "battle"}
            _check_keys(ab, ability_keys, where, f"an ability of {uid}")
            kind = ab.get("kind")
            if kind not in rules.kinds:
                raise BadInput(
                    f"unknown ability kind {kind!r}; kinds: {', '.join(rules.kinds)}",
                    where(ab, "kind"),
                )
            if rules.kinds[kind].category != "ability":
                raise BadInput(f"{kind!r} is not an ability kind", where(ab, "kind"))
            timing_text = ab.get("timing")
            timings = parse_timings(timing_text, rules.timings, where(ab, "timing")) if timing_text else ()
            abilities.append(
                Ability(
                    name=str(ab.get("name") or kind),
                    kind=kind,
                    timings=tuple(k for k in timings if rules.timings[k].role != "auto"),
                    cost=tuple(pool(ab.get("cost"), where(ab, "cost")).items()),
                    effect=_effects(ab.get("effect"), where(ab, "effect")),
                    dice=bool(ab.get("dice", False)),
                    min_roll=_int(ab, "min_roll", 0, where),
                    target=_target(ab, where, "unit"),
                    sync=ab.get("sync"),
                    battle_only=bool(ab.get("battle", False)) or "battle" in timings,
                )
            )
        table.units[uid] = Unit(
            id=uid,
            name=str(u.get("name", uid)),
            owner=owner,
            level=_int(u, "level", 1, where),
            speed=_int(u, "speed", 0, where, minimum=-99),
            skills=SkillPool(base=pool(u.get("skills"), where(u, "skills"))),
            abilities=tuple(abilities),
            zone=zone,
            geo=geo,
            party=u.get("party"),
            acted=bool(u.get("acted", False)),
            marched=bool(u.get("marched", False)),
            quick_summon=bool(u.get("quick_summon", False)),
            declared=set(u.get("used") or []),
        )
    for cid, c in _table_of(data.get("cards"), where).items():
        c = _table_of(c, where)
        _check_keys(c, {"owner", "name", "type", "condition", "name_condition", "timing", "effect", "dice", "min_roll",
                        "target", "quick_summon", "zone", "equipped_to"}, where, f"card {cid}")  # fmt: skip
        owner = c.get("owner")
        if owner not in (a, b):
            raise BadInput(f"owner must be {a} or {b}, got {owner!r}", where(c, "owner"))
        ctype = c.get("type", "skill")
        if ctype not in ("skill", "equip"):
            raise BadInput("type must be skill or equip", where(c, "type"))
        zone = c.get("zone", "hand")
        if zone not in ("hand", "revealed", "equipped", "graveyard"):
            raise BadInput("zone must be hand, revealed, equipped or graveyard", where(c, "zone"))
        equipped_to = c.get("equipped_to")
        if zone == "equipped" and equipped_to not in table.units:
            raise BadInput("an equipped card needs equipped_to: UNIT", where(c, "equipped_to"))
        timing_text = c.get("timing")
        if ctype == "skill" and not timing_text:
            raise BadInput("a skill card needs a timing, e.g. 通常 or 反撃", where(c))
        table.cards[cid] = Card(
            id=cid,
            name=str(c.get("name", cid)),
            owner=owner,
            type=ctype,
            condition=Condition.of(c.get("condition"), c.get("name_condition"), where(c, "condition")),
            timings=parse_timings(timing_text, rules.timings, where(c, "timing")) if timing_text else (),
            effect=_effects(c.get("effect"), where(c, "effect")),
            dice=bool(c.get("dice", False)),
            min_roll=_int(c, "min_roll", 0, where),
            target=_target(c, where, "unit"),
            quick_summon=bool(c.get("quick_summon", False)),
            zone=zone,
            equipped_to=equipped_to,
        )
    return table


def build_game(data: Mapping[str, Any], rules: Ruleset | None = None, path: str = "<scenario>",
               variants: Variants | None = None) -> Game:  # fmt: skip
    """A game set up and started as the scenario says (moves not yet played)."""
    where = _Where(path)
    rules = rules or builtin()
    for extra in data.get("rules") or []:
        base = Path(path).parent
        rules = rules.extend(base / extra)
    table = build_table(data, rules, path)
    if variants is None:
        try:
            variants = Variants(_table_of(data.get("variants"), where))
        except BadInput as err:
            raise BadInput(err.message, where(data, "variants")) from None
    start = _table_of(data.get("start"), where)
    _check_keys(start, {"at", "active", "battle"}, where, "start")
    if "active" in start:
        if start["active"] not in table.players:
            raise BadInput("active must be a player", where(start, "active"))
        table.active = start["active"]
    battle = start.get("battle")
    if battle is not None:
        battle = _table_of(battle, where)
        _check_keys(battle, {"advancing", "geo", "turn", "first", "front"}, where, "start.battle")
        adv = battle.get("advancing")
        if adv not in table.players:
            raise BadInput("advancing must be a player", where(battle, "advancing"))
        geo = battle.get("geo")
        if geo not in table.geos:
            raise BadInput(f"no geo {geo!r}", where(battle, "geo"))
        participants = [u.id for u in table.units.values() if u.geo == geo and u.on_field]
        table.battle = Battle(geo, adv, table.opponent(adv), participants)
        table.battle.first = battle.get("first", adv)
        table.battle.turn = battle.get("turn", table.battle.first)
        table.active = adv
    game = Game(table, rules, variants)
    game.begin(start.get("at", "main_phase"))
    return game


# ---------------------------------------------------------------- playing and checking
@dataclass
class Failure:
    """An expectation that does not hold (or a move that went differently)."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Result:
    path: str
    title: str
    game: Game
    failures: list[Failure] = field(default_factory=list)
    steps: list[tuple[str, list[LogEntry]]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def load(
    path: str | Path, variants: Variants | None = None, rules: Ruleset | None = None
) -> tuple[Game, Mapping[str, Any]]:
    """Read a scenario and set up its game; bad files raise :class:`BadInput` with file:line."""
    p = Path(path)
    data = read_yaml(p)
    if not isinstance(data, Mapping):
        raise BadInput("a scenario is a mapping with players, units, moves, expect ...", f"{p}:1")
    allowed = {"title", "clauses", "notes", "seed", "players", "geos", "units", "cards", "start", "moves",
               "expect", "variants", "rules"}  # fmt: skip
    _check_keys(data, allowed, _Where(str(p)), "the scenario")
    return build_game(data, rules, str(p), variants), data


def play(
    path: str | Path,
    variants: Variants | None = None,
    rules: Ruleset | None = None,
    upto: int | None = None,
) -> Result:
    """Play a scenario's moves and check its expectations."""
    game, data = load(path, variants, rules)
    where = _Where(str(path))
    result = Result(str(path), str(data.get("title", Path(path).stem)), game)
    result.steps.append(("(set-up)", list(game.log)))
    moves = data.get("moves") or []
    if not isinstance(moves, list):
        raise BadInput("moves must be a list", where(data, "moves"))
    lines = getattr(moves, "item_lines", [0] * len(moves))
    for n, (entry, line) in enumerate(zip(moves, lines, strict=True)):
        if upto is not None and n >= upto:
            break
        at = f"{path}:{line}"
        if isinstance(entry, Mapping):
            _check_keys(entry, {"refused", "clause"}, where, "a refused move")
            text = str(entry.get("refused", ""))
            verdict = game.why_not(text)
            if verdict.legal:
                result.failures.append(Failure(at, f"expected {text!r} to be refused, but it is legal"))
                return result
            if verdict.clause == "" and not verdict.message:
                raise BadInput(f"cannot read move {text!r}", at)
            want = entry.get("clause")
            if want and verdict.clause != want:
                result.failures.append(
                    Failure(
                        at,
                        f"{text!r} was refused under {verdict.clause}, expected {want}: {verdict.message}",
                    )
                )
            result.steps.append(
                (
                    f"refused {text}",
                    [LogEntry(f"refused: {verdict.message}", verdict.clause, move=text)],
                )
            )
            continue
        text = str(entry)
        try:
            logged = game.apply(text)
        except BadInput as err:
            raise BadInput(err.message, at) from None
        except RuleViolation as err:
            result.failures.append(Failure(at, f"move {text!r} is illegal here: {err.message} ({err.clause})"))
            return result
        result.steps.append((text, logged))
    if upto is None:
        result.failures += check(game, _table_of(data.get("expect"), where), where)
    return result


def _name_index(game: Game) -> dict[str, str]:
    """Expectations may name cards and abilities by ID or by name."""
    return {c.name: c.id for c in game.table.cards.values()}


def check(game: Game, expect: Mapping[str, Any], where: _Where) -> list[Failure]:
    t = game.table
    out: list[Failure] = []
    _check_keys(expect, {"outcomes", "zones", "units", "order", "first", "flow", "log"}, where, "expect")
    by_source: dict[str, list[str]] = {}
    for o in t.outcomes:
        by_source.setdefault(o.source, []).append(f"{o.result}")
        card = t.cards.get(o.source)
        if card and card.name != card.id:
            by_source.setdefault(card.name, []).append(o.result)
    outcomes = _table_of(expect.get("outcomes"), where)
    for source, want in outcomes.items():
        got = by_source.get(source)
        wants = want if isinstance(want, list) else [want]
        if got != [str(w) for w in wants]:
            clauses = [
                f"{o.result} ({o.clause}{': ' + o.reason if o.reason else ''})"
                for o in t.outcomes
                if o.source == source
            ]
            out.append(
                Failure(
                    where(outcomes, source),
                    f"{source}: expected {wants}, got {clauses or 'no outcome'}",
                )
            )
    zones = _table_of(expect.get("zones"), where)
    for name, want in zones.items():
        thing = t.units.get(name) or t.cards.get(name) or t.cards.get(_name_index(game).get(name, ""))
        if thing is None:
            raise BadInput(f"no unit or card {name!r}", where(zones, name))
        if thing.zone != want:
            out.append(Failure(where(zones, name), f"{name} should be in {want}, but is in {thing.zone}"))
    units = _table_of(expect.get("units"), where)
    for uid, fields in units.items():
        u = t.units.get(uid)
        if u is None:
            raise BadInput(f"no unit {uid!r}", where(units, uid))
        for key, want in _table_of(fields, where).items():
            if key == "skills":
                got: Any = fmt(game.available(u))
                want = fmt(pool(want, where(fields, key)))
            elif key in ("acted", "marched", "destroyed", "discarded", "party", "zone"):
                got = getattr(u, key)
            else:
                raise BadInput(
                    f"cannot check {key!r}; use skills, acted, marched, destroyed, discarded, party or zone",
                    where(fields, key),
                )
            if got != want:
                out.append(Failure(where(fields, key), f"{uid}.{key} should be {want!r}, but is {got!r}"))
    if "order" in expect:
        names = []
        for seq in t.resolution_order:
            o = next(o for o in t.outcomes if o.seq == seq)
            card = t.cards.get(o.source)
            names.append(card.name if card else o.source)
        want_order = [str(x) for x in expect["order"]]
        if names != want_order:
            out.append(
                Failure(
                    where(expect, "order"),
                    f"resolution order should be {want_order}, but was {names}",
                )
            )
    if "first" in expect:
        b = t.battle
        got_first = b.first if b else None
        if got_first != expect["first"]:
            out.append(
                Failure(
                    where(expect, "first"),
                    f"first player should be {expect['first']}, but is {got_first}",
                )
            )
    if "flow" in expect:
        config = [str(v) for v in game.flow.configuration_values]
        if expect["flow"] not in config:
            out.append(
                Failure(
                    where(expect, "flow"),
                    f"the game should be at {expect['flow']}, but is at {config}",
                )
            )
    if "log" in expect:
        clauses = Counter(e.clause for e in game.log)
        for clause in expect["log"]:
            if not clauses.get(clause):
                out.append(Failure(where(expect, "log"), f"no step of the log follows {clause}"))
    return out
