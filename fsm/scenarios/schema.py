"""JSON Schemas (draft 2020-12) of the files designers write, made from the loaders' own words.

Four schemas: ``scenario`` (scenario files, YAML), ``designer`` (designer data files, TOML:
``[kind.*]``, ``[timing.*]``, ``[part.*]``, ``[combination.*]``, ``[variant.*]``), ``goal`` (an
``expect:`` block on its own) and ``puzzle`` (a scenario with a ``puzzle:`` block and ``goals:``;
their loader comes with the puzzles, issue 25).  Every key, kind, timing, effect, price, skill
symbol, variant, clause ID and move verb below is read from the module that reads it, so the
schemas cannot drift from the loaders; ``tests/test_schema.py`` holds the copies shipped in
``fsm/scenarios/schemas/`` and ``schemas/`` to what this module makes.

Editors read them through yaml-language-server (YAML) and taplo (TOML): docs/designer.md.
Where a scenario loads a designer's ``rules:``, its kinds, timings and 代償 parts may be new
words, so the schema then takes any text there (the loader still checks them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from fsm.i18n import gettext
from fsm.machines.battle import STARTS
from fsm.rules.catalogue import CLAUSES
from fsm.rules.price_parts import CARD_TYPES as PART_TYPES
from fsm.rules.price_parts import FROM, TAKES, TO, WHICH
from fsm.rules.price_parts import KEYS as PART_SETTINGS
from fsm.rules.skills import ENGLISH, SYMBOLS
from fsm.rules.timing import ACTION_POINTS, COMBINATION_SETTINGS, DURING, ROLES
from fsm.rules.timing import SETTINGS as TIMING_SETTINGS
from fsm.rules.variants import FALSE_WORDS, SPECS, TRUE_WORDS
from fsm.scenarios.building import (
    ABILITY_KEYS,
    CARD_KEYS,
    CARD_TYPES,
    CARD_ZONES,
    TARGET_KINDS,
    UNIT_KEYS,
    UNIT_ZONES,
)
from fsm.scenarios.checking import EXPECT_KEYS, UNIT_CHECKS
from fsm.scenarios.playing import TOP_KEYS
from fsm.scenarios.reading import NO_SKILLS
from fsm.scenarios.schema_words import WORDS
from fsm.spec import kinds as kind_words
from fsm.spec.effects import EFFECTS
from fsm.spec.prices import PRICES
from fsm.spec.ruleset import SECTIONS, VARIANT_KEYS, Ruleset, builtin
from fsm.table.moves import JA_VERBS, VERBS

NAMES = ("scenario", "designer", "goal", "puzzle")
DRAFT = "https://json-schema.org/draft/2020-12/schema"
KIND_REQUIRED = ("ja", "en", "category", "usable", "price", "price_paid", "frequency", "targets", "counter_window")
TIMING_REQUIRED = ("ja", "en", "role", "clause")
PART_REQUIRED = ("ja", "en", "take", "from", "to")


def _esc(word: str) -> str:
    """A word inside a pattern, escaped the same for Python's ``re`` and JavaScript's ``RegExp``."""
    return re.sub(r"([\\.^$*+?()\[\]{}|/])", r"\\\1", word)


def _alt(words: Iterable[str]) -> str:
    return "(?:" + "|".join(_esc(w) for w in sorted(set(words), key=lambda w: (-len(w), w))) + ")"


def description(en: str, ja: str, clause: str) -> str:
    """The hover text: English, then Japanese, each citing the clause."""
    return f"{en.rstrip('.')} ({clause})\n\n{ja.rstrip('。')}（{clause}）"


def described(part: str, key: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description(*WORDS[part][key]), **schema}


def _object(part: str, keys: Iterable[str], props: Mapping[str, dict[str, Any]], **more: Any) -> dict[str, Any]:
    """A mapping of exactly the loader's ``keys``, each described; the two must name the same keys."""
    wanted = set(keys)
    if wanted != set(props) or not wanted <= set(WORDS[part]):
        raise ValueError(f"schema of {part}: keys {sorted(wanted ^ set(props))} or their words are missing")
    order = [k for k in WORDS[part] if k in wanted]
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {k: described(part, k, props[k]) for k in order},
        **more,
    }


def _enum(words: Iterable[Any]) -> dict[str, Any]:
    return {"enum": list(dict.fromkeys(words))}


def _open(words: Iterable[str]) -> dict[str, Any]:
    """One of ``words`` offered for completion, any text accepted (a designer's file may add words)."""
    return {"anyOf": [_enum(words), {"type": "string"}]}


TEXT: dict[str, Any] = {"type": "string"}
FLAG: dict[str, Any] = {"type": "boolean"}
COUNT = {"type": "integer", "minimum": 0}
CLAUSE = {"description": "A clause ID of the catalogue (`fsm rules`)\n\n規則の条項ID（`fsm rules`）", **_enum(CLAUSES)}
NAMES_LIST = {"anyOf": [TEXT, {"type": "array", "items": TEXT}]}


class _Vocab:
    """The words of one ruleset, as patterns and enumerations."""

    def __init__(self, rules: Ruleset) -> None:
        self.ability_kinds = [k for k, spec in rules.kinds.items() if spec.category == "ability"]
        self.timing_names = [n for t in rules.timings.values() for n in (t.key, t.ja, t.short, t.en) if n]
        english = ENGLISH.values()  # read in any case: fire, Fire
        symbols = [*SYMBOLS, *english, *(e.capitalize() for e in english)]
        self.symbol = _alt(symbols)
        self.part_words = [w for p in rules.parts.values() for w in (p.key, p.ja, p.en)]

    def skills(self) -> dict[str, Any]:
        pool = rf"^[\s,]*(?:{self.symbol}(?:[\s,]+|$))*$"
        return {
            "anyOf": [
                {"type": "string", "pattern": pool},
                {"type": "array", "items": {"type": "string", "pattern": rf"^\s*{self.symbol}\s*$"}},
                {
                    "type": "object",
                    "propertyNames": {"pattern": rf"^\s*{self.symbol}\s*$"},
                    "additionalProperties": COUNT,
                },
                _enum(NO_SKILLS),
            ]
        }

    def timing(self, strict: bool) -> dict[str, Any]:
        one = rf"\[?\s*{_alt(self.timing_names)}\s*\]?"
        word = {"type": "string", "pattern": rf"^\[?{one}(?:/{one})*\]?$"} if strict else TEXT
        return {"anyOf": [word, {"type": "array", "items": _enum(self.timing_names) if strict else TEXT}]}

    def cost(self, strict: bool) -> dict[str, Any]:
        skills = rf"{self.symbol}(?:\s+{self.symbol})*"
        part = rf"{_alt(self.part_words)}\s*(?:[×*]?\s*-?\d+\s*[^\s(（+]*)?\s*(?:[(（][^)）]*[)）])?"
        segment = rf"\s*(?:{skills}|{part})\s*"
        text = {"type": "string", "pattern": rf"^{segment}(?:\+{segment})*$"} if strict else TEXT
        mapping = {"type": "object"}
        return {"anyOf": [text, {"type": "array", "items": {"anyOf": [TEXT, mapping]}}, mapping, _enum(NO_SKILLS)]}


def effect() -> dict[str, Any]:
    one = {"type": "string", "pattern": rf"^\s*{_alt(EFFECTS)}(?:\s.*)?$"}
    return {"anyOf": [one, {"type": "array", "items": one}]}


def clause_id() -> dict[str, Any]:
    return {"$ref": "#/$defs/clause"}


def clause_ids() -> dict[str, Any]:
    return {"anyOf": [clause_id(), {"type": "array", "items": clause_id()}]}


def move() -> dict[str, Any]:
    player = r"(?:[^\s:：]+\s*[:：])?\s*"
    english = rf"(?:{_alt(VERBS)}(?:\s.*)?)"
    japanese = rf"(?:.*\s)?{_alt(JA_VERBS.values())}"
    text = {"type": "string", "pattern": rf"^{player}(?:{english}|{japanese})\s*$"}
    refused = _object("refused", ("refused", "clause"), {"refused": text, "clause": clause_id()}, required=["refused"])
    return {"anyOf": [text, refused]}


def variants() -> dict[str, Any]:
    props = {}
    for spec in SPECS:
        if isinstance(spec.default, bool):
            value: dict[str, Any] = {"anyOf": [FLAG, _enum((*TRUE_WORDS, *FALSE_WORDS))]}
        else:
            value = _enum(spec.choices)
        words = description(spec.doc, gettext(spec.doc, lang="ja"), spec.clause)
        props[spec.name] = {"description": words, **value}
    return {"type": "object", "additionalProperties": False, "properties": props}


def expect() -> dict[str, Any]:
    outcome_obj = _object(
        "outcome",
        ("result", "clause"),
        {"result": _enum(("resolved", "fizzled")), "clause": clause_id()},
        required=["result"],
    )
    outcome = {"anyOf": [_enum(("resolved", "fizzled")), outcome_obj]}
    checks: dict[str, Any] = {k: FLAG for k in UNIT_CHECKS}
    maybe = {"type": ["string", "null"]}  # `party:` with nothing: in no party
    checks.update(skills={"$ref": "#/$defs/skills"}, party=maybe, zone=_enum(UNIT_ZONES), geo=maybe)
    steps = {"type": "string", "pattern": rf"^\s*{_alt(CLAUSES)}\s*:"}
    props: dict[str, Any] = {
        "outcomes": {
            "type": "object",
            "additionalProperties": {"anyOf": [outcome, {"type": "array", "items": outcome}]},
        },
        # a declared card waits in the chain (fsm/table/model.py)
        "zones": {"type": "object", "additionalProperties": _enum((*UNIT_ZONES, *CARD_ZONES, "chain"))},
        "units": {"type": "object", "additionalProperties": _object("unit_check", UNIT_CHECKS, checks)},
        "geos": {"type": "object", "additionalProperties": _object("geo", ("holder",), {"holder": TEXT})},
        "order": {"type": "array", "items": TEXT},
        "first": TEXT,
        "flow": TEXT,
        "actor": TEXT,
        "log": clause_ids(),
        "steps": {"type": "array", "items": steps},
    }
    return _object("expect", EXPECT_KEYS, props)


def _scenario(v: _Vocab, extra: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The scenario schema; ``extra`` adds top-level keys (a puzzle's)."""
    ability: dict[str, Any] = {
        "name": TEXT,
        "kind": _open(v.ability_kinds),
        "timing": v.timing(False),
        "cost": v.cost(False),
        "effect": effect(),
        "dice": FLAG,
        "min_roll": COUNT,
        "target": _enum(TARGET_KINDS),
        "sync": TEXT,
        "battle": FLAG,
    }
    unit: dict[str, Any] = {
        "owner": TEXT,
        "name": TEXT,
        "level": COUNT,
        "speed": {"type": "integer", "minimum": -99},
        "skills": {"$ref": "#/$defs/skills"},
        "abilities": {"type": "array", "items": {"$ref": "#/$defs/ability"}},
        "zone": _enum(UNIT_ZONES),
        "geo": TEXT,
        "party": TEXT,
        "acted": FLAG,
        "marched": FLAG,
        "quick_summon": FLAG,
        "used": NAMES_LIST,
    }
    card: dict[str, Any] = {
        "owner": TEXT,
        "name": TEXT,
        "type": _enum(CARD_TYPES),
        "condition": {"$ref": "#/$defs/skills"},
        "name_condition": TEXT,
        "timing": v.timing(False),
        "effect": effect(),
        "dice": FLAG,
        "min_roll": COUNT,
        "target": _enum(TARGET_KINDS),
        "quick_summon": FLAG,
        "zone": _enum(CARD_ZONES),
        "equipped_to": TEXT,
    }
    battle: dict[str, Any] = {
        "advancing": TEXT,
        "geo": TEXT,
        "turn": TEXT,
        "first": TEXT,
        "front": {"type": "object", "additionalProperties": TEXT},
    }
    start: dict[str, Any] = {"at": _enum(STARTS), "active": TEXT, "battle": _object("battle", battle, battle)}
    geo = _object("geo", ("holder", "limit"), {"holder": TEXT, "limit": COUNT})
    players = {
        "type": "array",
        "items": {"type": "string", "pattern": r"^\S+$"},
        "minItems": 2,
        "maxItems": 2,
        "uniqueItems": True,
    }
    top: dict[str, Any] = {
        "title": TEXT,
        "title_ja": TEXT,
        "clauses": clause_ids(),
        "notes": TEXT,
        "notes_ja": TEXT,
        "seed": {"type": "integer"},
        "players": players,
        "geos": {"type": "object", "additionalProperties": {"anyOf": [geo, {"type": "null"}]}},
        "units": {
            "type": "object",
            "propertyNames": {"pattern": r"^\S+$"},
            "additionalProperties": {"anyOf": [{"$ref": "#/$defs/unit"}, {"type": "null"}]},
        },
        "cards": {
            "type": "object",
            "propertyNames": {"pattern": r"^\S+$"},
            "additionalProperties": {"$ref": "#/$defs/card"},
        },
        "start": _object("start", start, start),
        "moves": {"type": "array", "items": move()},
        "expect": {"$ref": "#/$defs/expect"},
        "variants": {"$ref": "#/$defs/variants"},
        "rules": NAMES_LIST,
    }
    # Without `rules:` only the built-in words exist: kinds, timings and 代償 parts are checked too.
    strict = {"kind": _enum(v.ability_kinds), "timing": v.timing(True), "cost": v.cost(True)}
    strict_ability = {"properties": {k: described("ability", k, value) for k, value in strict.items()}}
    overlay = {
        "properties": {
            "units": {
                "additionalProperties": {
                    "anyOf": [{"type": "null"}, {"properties": {"abilities": {"items": strict_ability}}}]
                }
            },
            "cards": {"additionalProperties": {"properties": {"timing": described("card", "timing", v.timing(True))}}},
        }
    }
    return {
        "$schema": DRAFT,
        "title": "fsm scenario file / シナリオファイル",
        **_object("scenario", [*TOP_KEYS, *(extra or {})], {**top, **(extra or {})}),
        "if": {"required": ["rules"]},
        "then": True,
        "else": overlay,
        "$defs": {
            "skills": v.skills(),
            "ability": _object("ability", ABILITY_KEYS, ability),
            "unit": _object("unit", UNIT_KEYS, unit),
            "card": _object("card", CARD_KEYS, card),
            "expect": expect(),
            "variants": variants(),
            "clause": CLAUSE,
        },
    }


def _puzzle(v: _Vocab) -> dict[str, Any]:
    goal = {"anyOf": [{"$ref": "#/$defs/expect"}, TEXT]}
    block: dict[str, Any] = {"player": TEXT, "goal": goal, "moves": {"type": "integer", "minimum": 1}, "hint": TEXT,
                             "hint_ja": TEXT}  # fmt: skip
    extra = {
        "puzzle": _object("puzzle", block, block, required=["player", "goal"]),
        "goals": {"type": "object", "additionalProperties": {"$ref": "#/$defs/expect"}},
    }
    return {**_scenario(v, extra), "title": "fsm puzzle file / パズルファイル"}


def _designer(rules: Ruleset) -> dict[str, Any]:
    clauses = {"type": "object", "propertyNames": _enum(kind_words.CLAUSE_SLOTS), "additionalProperties": clause_id()}
    battle_only = [s.name for s in SPECS if "battle_only" in s.choices]
    kind: dict[str, Any] = {
        "ja": TEXT,
        "en": TEXT,
        "category": _enum(kind_words.CATEGORIES),
        "usable": _enum(kind_words.USABLE),
        "price": _enum(PRICES),
        "price_paid": _enum(kind_words.PAID_AT),
        "frequency": _enum(kind_words.FREQUENCIES),
        "targets": _enum(kind_words.TARGETS),
        "counter_window": FLAG,
        "counterable": FLAG,
        "fizzle_if": {"type": "array", "items": _enum(kind_words.FIZZLE_REASONS)},
        "clauses": clauses,
        "acts_in_normal_timing": FLAG,
        "move": _enum(kind_words.MOVES),
        "targets_by_variant": _enum(battle_only),
        "cost": NAMES_LIST,
    }
    timing: dict[str, Any] = {
        "ja": TEXT,
        "en": TEXT,
        "short": TEXT,
        "role": _enum(ROLES),
        "at": {"type": "array", "items": _enum(ACTION_POINTS)},
        "answers": {"type": "array", "items": _open(kind_words.CATEGORIES)},
        "during": _enum(DURING),
        "clause": clause_id(),
    }
    word = {"type": "string", "pattern": r"^[^\s+()（）0-9×]+$"}
    part: dict[str, Any] = {
        "ja": word,
        "en": word,
        "take": _enum(TAKES),
        "from": _enum(w for ws in FROM.values() for w in ws),
        "to": _enum(TO),
        "which": _enum(WHICH),
        "count": {"type": "integer", "minimum": 1},
        "name": TEXT,
        "type": _enum(PART_TYPES),
        "clause": clause_id(),
    }
    combination: dict[str, Any] = {"timings": {"type": "array", "items": TEXT, "minItems": 2}, "clause": clause_id()}
    variant: dict[str, Any] = {"doc": TEXT, "doc_ja": TEXT, "set": {"$ref": "#/$defs/variants"}}
    known = {
        "kind": (kind, kind_words.SETTINGS, KIND_REQUIRED, rules.kinds),
        "timing": (timing, TIMING_SETTINGS, TIMING_REQUIRED, rules.timings),
        "part": (part, PART_SETTINGS, PART_REQUIRED, rules.parts),
        "combination": (combination, COMBINATION_SETTINGS, COMBINATION_SETTINGS, {}),
        "variant": (variant, VARIANT_KEYS, ("set",), {}),
    }
    sections: dict[str, Any] = {}
    defs: dict[str, Any] = {"variants": variants(), "clause": CLAUSE}
    for name, (props, keys, required, existing) in known.items():
        defs[name] = _object(name, keys, props)
        ref = f"#/$defs/{name}"  # a table for a word that exists changes only what it gives
        sections[name] = {
            "type": "object",
            "properties": {key: {"$ref": ref} for key in existing},
            "additionalProperties": {"$ref": ref, "required": list(required)},
        }
    sections["kind"]["propertyNames"] = {"not": {"pattern": "^sync_"}}
    top = _object("designer", SECTIONS, sections)
    return {"$schema": DRAFT, "title": "fsm designer data file / デザイナーのデータファイル", **top, "$defs": defs}


def schema(name: str, rules: Ruleset | None = None) -> dict[str, Any]:
    """The JSON Schema called ``name`` (one of :data:`NAMES`), for ``rules`` (default: the built-in ones)."""
    rules = rules or builtin()
    if name == "designer":
        return _designer(rules)
    v = _Vocab(rules)
    if name == "scenario":
        return _scenario(v)
    if name == "puzzle":
        return _puzzle(v)
    if name == "goal":
        out = {"$schema": DRAFT, "title": "fsm goal file / 目標ファイル", **expect()}
        out["$defs"] = {"skills": v.skills(), "clause": CLAUSE}
        return out
    raise ValueError(f"no schema {name!r}; schemas: {', '.join(NAMES)}")


def text(name: str, rules: Ruleset | None = None) -> str:
    """The schema as its file holds it."""
    return json.dumps(schema(name, rules), ensure_ascii=False, indent=2) + "\n"


def file_name(name: str) -> str:
    return f"{name}.schema.json"


def shipped(name: str) -> str:
    """The copy shipped with the package (``fsm/scenarios/schemas/``)."""
    return (resources.files("fsm.scenarios") / "schemas" / file_name(name)).read_text(encoding="utf-8")
