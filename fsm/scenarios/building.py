"""Building a scenario's table and game: units, abilities, cards, geos, the start (and the battle
in progress), each value checked where it is read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput, Problems
from fsm.i18n import _, did_you_mean
from fsm.rules.price_parts import Part, read_cost
from fsm.rules.skills import Condition, Pool, SkillPool, Skills
from fsm.rules.timing import parse_timings
from fsm.rules.variants import Variants
from fsm.scenarios.reading import (
    NO_SKILLS,
    Fields,
    Where,
    as_named,
    list_of,
    no_geo,
    table_of,
)
from fsm.spec.effects import EFFECTS, one_off
from fsm.spec.effects import parse as parse_effect
from fsm.spec.paying import self_spoiling
from fsm.spec.ruleset import Ruleset, builtin
from fsm.table.model import Ability, Battle, Card, Effect, Geo, Table, Unit
from fsm.table.moves import unreadable


def _effects(raw: Any, where: str) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for text in items:
        if not isinstance(text, str):
            message = _("an effect is text such as 'destroy' or 'strip 土', got {value}")
            raise BadInput(message.format(value=as_named(text)), where)
        out.append(parse_effect(text, where))
    return tuple(out)


TARGET_KINDS = ("unit", "player", "geo", "equip", "none", "self")
UNIT_ZONES = ("hand", "field", "graveyard")
CARD_ZONES = ("hand", "revealed", "equipped", "graveyard")
CARD_TYPES = ("skill", "equip")
UNIT_KEYS = {"owner", "name", "level", "speed", "skills", "abilities", "zone", "geo", "party", "acted", "marched",
             "quick_summon", "used"}  # fmt: skip
ABILITY_KEYS = {"name", "kind", "timing", "cost", "effect", "dice", "min_roll", "target", "sync", "battle"}
CARD_KEYS = {"owner", "name", "type", "condition", "name_condition", "timing", "effect", "dice", "min_roll", "target",
             "quick_summon", "zone", "equipped_to"}  # fmt: skip


def _timings(f: Fields, rules: Ruleset) -> tuple[str, ...]:
    raw = f.get("timing")
    if raw is None:
        return ()
    if isinstance(raw, list):
        if not all(isinstance(p, str) for p in raw):
            raise BadInput(_("timing must be text such as 通常/反撃, or a list of timings"), f.at("timing"))
    elif not isinstance(raw, str):
        raise BadInput(
            _("timing must be text such as 通常/反撃, got {value}").format(value=as_named(raw)), f.at("timing")
        )
    return parse_timings(raw, rules.timings, f.at("timing"))


def _owner(f: Fields, players: tuple[str, ...], where: Where) -> str:
    """Every unit and card belongs to one of the two players."""
    owner = f.get("owner")
    if owner not in players:
        at = f.at("owner") if "owner" in f.data else where(f.data)
        message = _("owner must be {first} or {second}, got {owner!r}")
        raise BadInput(message.format(first=players[0], second=players[1], owner=owner), at)
    return str(owner)


def _ability(
    raw: Any, where: Where, uid: str, parent: Any, index: int, rules: Ruleset, players: tuple[str, str]
) -> Ability:
    f = Fields(raw, where, _("an ability of {unit}").format(unit=uid), ABILITY_KEYS, parent, index)
    kind = f.text("kind")
    if kind is None:
        raise BadInput(
            _("an ability needs `kind:`, one of: {kinds}").format(kinds=", ".join(rules.kinds)), f.at("kind")
        )
    if kind not in rules.kinds:
        message = _("unknown ability kind {kind!r}; kinds: {kinds}").format(kind=kind, kinds=", ".join(rules.kinds))
        raise BadInput(message + did_you_mean(kind, rules.kinds), f.at("kind"))
    if rules.kinds[kind].category != "ability":
        raise BadInput(_("{kind!r} is not an ability kind").format(kind=kind), f.at("kind"))
    timings = _timings(f, rules)
    battle_only = f.flag("battle") or "battle" in timings
    effect = _effects(f.get("effect"), f.at("effect"))
    name = f.text("name") or kind
    _readable(name, players, _("ability name"), f.at("name"))
    auto = rules.kinds[kind].usable in ("battle_start", "continuous")
    if battle_only:
        _check_battle(f, name, kind, auto, timings, rules)
    _check_meets(f, name, kind, timings, rules)
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


def _cost(f: Fields, rules: Ruleset, kind: str, name: str) -> tuple[Pool, tuple[Part, ...]]:
    """An ability's 代償: skill symbols and parts (fsm/rules/price_parts.py), paid as its kind's price says."""
    raw = f.get("cost")
    if raw is None or raw in NO_SKILLS:
        return Counter(), ()
    if not isinstance(raw, str | list | Mapping):
        message = _("cost must be skill symbols and parts such as '火 + 手札1枚', got {value}")
        raise BadInput(message.format(value=as_named(raw)), f.at("cost"))
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


def _readable(name: str, players: tuple[str, str], thing: str, at: str) -> None:
    """Names that moves name must read back from a move (fsm.table.moves.unreadable)."""
    if why := unreadable(name, players):
        raise BadInput(
            _("{thing} {name!r} cannot be written in a move: {why}").format(thing=thing, name=name, why=why), at
        )


def _check_battle(f: Fields, name: str, kind: str, auto: bool, timings: tuple[str, ...], rules: Ruleset) -> None:
    """[戦闘] (TIM-BTL) is a 【自動】's alone, with no declared timing beside it."""
    where = f.at("timing") if "timing" in f.data else f.at("battle")
    if not auto:
        message = _(
            "{name} is a {kind}, which a player declares; [戦闘] is how a 【自動】 takes effect by itself "
            "whatever the players want (TIM-BTL), so a {kind} cannot take it. Give it the timing it is "
            "declared in, e.g. 通常 or 反撃, or make it kind: auto"
        )
        raise BadInput(message.format(name=name, kind=rules.kinds[kind].label), where)
    declared = [rules.timings[k].ja for k in timings if rules.timings[k].role != "auto"]
    if declared:
        message = _(
            "{name} is a 【自動】[戦闘]: nobody declares it (TIM-BTL), so it takes no declared timing "
            "beside [戦闘]; remove [{timing}]"
        )
        raise BadInput(message.format(name=name, timing=declared[0]), where)


def _check_meets(f: Fields, name: str, kind: str, timings: tuple[str, ...], rules: Ruleset) -> None:
    """A timing the kind is never used in (a 【行動】 at [ＭＦ], a 【進軍】 at [通常]) could never be used."""
    spec = rules.kinds[kind]
    where = {"battle": "battle", "own_main_phase": "main"}.get(spec.usable)
    for k in timings:
        t = rules.timings[k]
        if t.role == "auto":
            continue
        in_battle = t.role == "counter" or all(point == "own_normal" for point in t.at)
        if (where == "battle" and not in_battle) or (where == "main" and in_battle):
            message = _(
                "{name} is a {kind}, used only {usable} ({clause}), so it can never be used at [{timing}]: "
                "give it a timing of {usable}, or leave the timing out"
            )
            usable = _("in a battle") if where == "battle" else _("in its owner's main phase")
            raise BadInput(
                message.format(name=name, kind=spec.label, usable=usable, clause=spec.clause("usable"), timing=t.ja),
                f.at("timing"),
            )


def _check_quick_summon(c: Fields, cid: str, ctype: str, timings: tuple[str, ...], rules: Ruleset) -> None:
    """QS-1, QS-2: a quick-summon card is revealed before the battle and used in it; refuse one that
    could never be (an equip is equipped before the reveal, EQ-1; a card with no timing of a battle)."""
    if ctype == "equip":
        message = _(
            "card {card} is an equip marked quick_summon: equips are put on at the quick-summon timing "
            "before cards are revealed (EQ-1), and a revealed card is used as a skill card (QS-2), so it "
            "could never be used; drop quick_summon"
        )
        raise BadInput(message.format(card=cid), c.at("quick_summon"))
    in_battle = [k for k in timings if rules.timings[k].role == "counter" or "own_normal" in rules.timings[k].at]
    if not in_battle:
        message = _(
            "card {card} is marked quick_summon: it is revealed for a battle and used in it (QS-1, QS-2), "
            "but none of its timings comes in a battle; give it one such as 通常 or 反撃"
        )
        raise BadInput(message.format(card=cid), c.at("timing"))


def _check_auto(f: Fields, name: str, target: str, battle_only: bool, effect: tuple[Effect, ...]) -> None:
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


def build_table(data: Mapping[str, Any], rules: Ruleset, path: str = "<scenario>",
                problems: Problems | None = None) -> Table:  # fmt: skip
    """Set up a table from a scenario's set-up keys (players, seed, geos, units, cards).

    Each geo, unit and card is read on its own, so one run reports the problems of them all
    (:class:`~fsm.errors.Problems`); a unit that could not be read stands on the table as a
    bare placeholder, so that what names it is not refused a second time.  Given ``problems``,
    they are added there (the table returned as far as it could be read), else raised.
    """
    where = Where(path)
    mine = problems is None
    problems = Problems() if problems is None else problems
    players = ["A", "B"]
    with problems.item():
        players = _players(data, where)
    seed = 0
    with problems.item():
        seed = _seed(data, where)
    a, b = players
    table = Table(players=(a, b), seed=seed, active=a)
    geos: Mapping[str, Any] = {}
    with problems.item():
        geos = table_of(data.get("geos"), where, data, "geos")
    for name, raw in geos.items():
        with problems.item():
            g = Fields(raw, where, _("geo {name}").format(name=name), {"holder", "limit"}, geos, name)
            _readable(name, (a, b), _("geo"), where(geos, name))
            table.geos[name] = Geo(name, g.text("holder", None, (a, b)), g.number("limit", 99))
    units: Mapping[str, Any] = {}
    with problems.item():
        units = table_of(data.get("units"), where, data, "units")
    for uid, raw in units.items():
        table.units[uid] = _placeholder(uid, raw, table)
        with problems.item():
            table.units[uid] = _unit(uid, raw, units, table, rules, where)
    cards: Mapping[str, Any] = {}
    with problems.item():
        cards = table_of(data.get("cards"), where, data, "cards")
    for cid, raw in cards.items():
        with problems.item():
            table.cards[cid] = _card(cid, raw, cards, table, rules, where)
    if not problems:  # the filters are checked against the table as the file sets it
        with problems.item():
            _check_filters(table, units, where)
    if mine:
        problems.raise_all()
    return table


def _players(data: Mapping[str, Any], where: Where) -> list[str]:
    players = data.get("players", ["A", "B"])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p and " " not in p for p in players)
        or players[0] == players[1]
    ):
        raise BadInput(_("players must be a list of two different names, e.g. [A, B]"), where(data, "players"))
    return [str(p) for p in players]


def _seed(data: Mapping[str, Any], where: Where) -> int:
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadInput(_("seed must be a whole number, got {value}").format(value=as_named(seed)), where(data, "seed"))
    return seed


def _placeholder(uid: str, raw: Any, table: Table) -> Unit:
    """What stands for a unit that could not be read: its owner and geo, where the file gives them."""
    known = raw if isinstance(raw, Mapping) else {}
    owner, geo = known.get("owner"), known.get("geo")
    return Unit(uid, uid, owner if owner in table.players else table.players[0],
                geo=geo if isinstance(geo, str) and geo in table.geos else None)  # fmt: skip


def _unit(uid: str, raw: Any, units: Mapping[str, Any], table: Table, rules: Ruleset, where: Where) -> Unit:
    u = Fields(raw, where, _("unit {unit}").format(unit=uid), UNIT_KEYS, units, uid)
    _readable(uid, table.players, _("unit ID"), where(units, uid))
    problems = Problems()
    owner, geo = table.players[0], None
    with problems.item():
        owner = _owner(u, table.players, where)
    with problems.item():
        geo = u.text("geo")
        if geo is not None and geo not in table.geos:
            raise BadInput(no_geo(geo, table.geos) + did_you_mean(geo, table.geos), u.at("geo"))
    abilities = []
    with problems.item():
        raw_abilities = list_of(u.get("abilities"), where, u.data, "abilities")
        for i, x in enumerate(raw_abilities):
            with problems.item():
                abilities.append(_ability(x, where, uid, raw_abilities, i, rules, table.players))
    unit = None
    with problems.item():
        unit = Unit(
            id=uid,
            name=u.text("name", uid) or uid,
            owner=owner,
            level=u.number("level", 1),
            speed=u.number("speed", 0, minimum=-99),
            skills=SkillPool(base=Skills(u.symbols("skills"))),
            abilities=tuple(abilities),
            zone=u.text("zone", "field", UNIT_ZONES) or "field",
            geo=geo,
            party=u.text("party"),
            acted=u.flag("acted"),
            marched=u.flag("marched"),
            quick_summon=u.flag("quick_summon"),
            declared=frozenset(u.names("used")),
        )
    problems.raise_all()
    assert unit is not None  # built, or a problem was raised
    return unit


def _card(cid: str, raw: Any, cards: Mapping[str, Any], table: Table, rules: Ruleset, where: Where) -> Card:
    c = Fields(raw, where, _("card {card}").format(card=cid), CARD_KEYS, cards, cid)
    _readable(cid, table.players, _("card ID"), where(cards, cid))
    owner = _owner(c, table.players, where)
    ctype = c.text("type", "skill", CARD_TYPES) or "skill"
    zone = c.text("zone", "hand", CARD_ZONES) or "hand"
    equipped_to = c.text("equipped_to")
    if zone == "equipped" and equipped_to not in table.units:
        message = _("an equipped card needs equipped_to: UNIT (one of {units})")
        hint = did_you_mean(equipped_to, table.units) if equipped_to else ""
        raise BadInput(message.format(units=", ".join(table.units)) + hint, c.at("zone"))
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
    if c.flag("quick_summon"):
        _check_quick_summon(c, cid, ctype, timings, rules)
    return Card(
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


def _check_filters(table: Table, units: Mapping[str, Any], where: Where) -> None:
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


def _variants(data: Mapping[str, Any], where: Where, overrides: Mapping[str, Any] | None) -> Variants:
    own = table_of(data.get("variants"), where, data, "variants")
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
    where = Where(path)
    problems = Problems()
    rules = rules or builtin()
    with problems.item():
        for extra in list_of(data.get("rules"), where, data, "rules", single=True):
            if not isinstance(extra, str):
                message = _("rules must list file names, got {value}").format(value=as_named(extra))
                raise BadInput(message, where(data, "rules"))
            rules = rules.extend(Path(path).parent / extra)
    table = build_table(data, rules, path, problems)
    with problems.item():
        if variants is None:
            variants = _variants(data, where, overrides)
        elif overrides:
            variants = Variants({**variants, **overrides})
    at = "main_phase"
    with problems.item():
        start = Fields(data.get("start"), where, "start", {"at", "active", "battle"}, data, "start")
        at = start.text("at", "main_phase", Game.STARTS) or "main_phase"
        _start(start, at, table, where)
    problems.raise_all()
    game = Game(table, rules, variants, lang)
    game.begin(at)
    return game


def _start(start: Fields, at: str, table: Table, where: Where) -> None:
    """Who is active, and the battle in progress the file starts in (``start:``)."""
    if "active" in start.data:
        table.active = start.text("active", None, table.players) or table.active
    if start.get("battle") is not None:
        table.battle = _battle(start, table, where)
        table.active = table.battle.advancing
    elif at != "main_phase":
        raise BadInput(_("starting at {at} needs start.battle (advancing, geo)").format(at=at), start.at("at"))


def _battle(start: Fields, table: Table, where: Where) -> Battle:
    bf = Fields(start.get("battle"), where, "start.battle", {"advancing", "geo", "turn", "first", "front"},
                 start.data, "battle")  # fmt: skip
    adv = bf.required("advancing", table.players)
    geo = bf.required("geo", table.geos)
    participants = [u.id for u in table.units.values() if u.geo == geo and u.on_field]
    battle = Battle(geo, adv, table.opponent(adv), participants)
    battle.first = bf.text("first", adv, table.players)
    battle.turn = bf.text("turn", battle.first, table.players)
    front = table_of(bf.get("front"), where, bf.data, "front")
    for player, uid in front.items():
        if player not in table.players:
            message = _("front names players ({players}), not {player!r}")
            raise BadInput(message.format(players=", ".join(table.players), player=player), where(front, player))
        if uid not in participants or table.units[uid].owner != player:
            message = _("{unit!r} is not {player}'s unit in this battle")
            raise BadInput(message.format(unit=uid, player=player), where(front, player))
        battle.front[player] = uid
    return battle
