"""The rules in force: kinds, timings and rule variants, loaded from data files.

The built-in kinds and timings are ``fsm/rules/data/kinds.toml`` and ``fsm/rules/data/timings.toml``.
A designer's file (TOML or YAML) may add ``[kind.NAME]`` and ``[timing.NAME]`` tables of
the same form, and ``[variant.NAME]`` presets that bundle rule-variant settings::

    [variant.open_chain]
    doc = "Counters may be declared between two resolutions."
    set = { counters_between_resolutions = true }

A table for a kind or timing that already exists changes only the settings it gives
(``[kind.equip] counter_window = true``); a new name must give every setting.
Everything is validated on load; an error names the file, the key and what is wrong.
The full format, with worked examples, is ``docs/designer.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from fsm.errors import BadInput, Problems
from fsm.i18n import _, did_you_mean, either, more_problems
from fsm.rules.catalogue import CLAUSES
from fsm.rules.price_parts import PartKind, part_kind_from_data, read_cost
from fsm.rules.timing import (
    Combination,
    TimingSpec,
    combination_from_data,
    legality_table,
    timing_from_data,
    timing_to_data,
)
from fsm.rules.variants import Variants
from fsm.spec.kinds import KindSpec, kind_from_data, kind_to_data
from fsm.spec.paying import self_spoiling


@dataclass(frozen=True)
class Preset:
    name: str
    doc: str
    settings: tuple[tuple[str, Any], ...]
    doc_ja: str = ""  # the file's `doc_ja`; the English doc stands in when it has none

    def described(self) -> str:
        return either(self.doc_ja or self.doc, self.doc)


@dataclass(frozen=True)
class Ruleset:
    kinds: Mapping[str, KindSpec]
    timings: Mapping[str, TimingSpec]
    presets: Mapping[str, Preset] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    combinations: Mapping[str, Combination] = field(default_factory=dict)
    parts: Mapping[str, PartKind] = field(default_factory=dict)  # the 代償 parts (fsm/rules/data/price_parts.toml)

    def kind(self, key: str, sync: bool = False) -> KindSpec:
        spec = self.kinds[key]
        return spec.with_sync() if sync else spec

    def kind_for(self, move: str) -> KindSpec:
        """The kind a move declares (``move = "attack"`` in kinds.toml): the engine names no kind."""
        spec = next((k for k in self.kinds.values() if k.move == move), None)
        if spec is None:
            raise BadInput(
                _("no kind declares move = {move!r}; give one kind `move = {move!r}` (docs/designer.md)").format(
                    move=move
                )
            )
        return spec

    def variants(self, names: Iterable[str] = (), **settings: Any) -> Variants:
        """Variants from preset names and/or ``name=value`` settings."""
        merged: dict[str, Any] = {}
        for name in names:
            if name not in self.presets:
                known = ", ".join(self.presets) or _("none")
                raise BadInput(_("unknown rule variant preset {name!r}; known: {known}").format(name=name, known=known))
            merged.update(self.presets[name].settings)
        merged.update(settings)
        return Variants(merged)

    def combination_clause(self, keys: Iterable[str]) -> tuple[str, str]:
        """(clause, printed form) naming this mix of timings: TIM-NC / TIM-NCS, or TIM-1 for any other."""
        wanted = set(keys)
        for c in self.combinations.values():
            if set(c.timings) == wanted:
                return c.clause, c.label(self.timings)
        return "TIM-1", "[" + "/".join(self.timings[k].ja for k in keys) + "]"

    def legality_table(self) -> list[dict[str, str]]:
        """Every timing and named combination, and what it may be used as at every point (TIM-*)."""
        return legality_table(self.timings, self.combinations.values())

    def extend(self, path: str | Path) -> Ruleset:
        """This ruleset plus a designer's data file."""
        data = read_data(Path(path))
        try:
            return _merge(self, data, str(path))
        except BadInput as err:
            raise err.relocated(lambda e: _placed(e, Path(path))) from None


def read_data(path: Path) -> dict[str, Any]:
    """Read a TOML or YAML file; syntax errors become :class:`BadInput` with the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise BadInput(_("cannot read the file: {reason}").format(reason=err.strerror), str(path)) from None
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else yaml.safe_load(text) or {}
    except tomllib.TOMLDecodeError as err:
        raise BadInput(_("not valid TOML: {error}").format(error=err), str(path)) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f"{path}:{mark.line + 1}" if mark else str(path)
        raise BadInput(_("not valid YAML: {error}").format(error=getattr(err, "problem", err)), line) from None
    if not isinstance(data, dict):
        raise BadInput(_("the file must be a table of [kind.*], [timing.*] and [variant.*]"), str(path))
    return data


def _check_clause(value: str, where: str) -> None:
    if value not in CLAUSES:
        raise BadInput(_("{value!r} is not a clause ID of the catalogue (see `fsm rules`)").format(value=value), where)


def _merge(base: Ruleset, data: Mapping[str, Any], source: str) -> Ruleset:
    rules = _Merging(dict(base.kinds), dict(base.timings), dict(base.presets), dict(base.combinations),
                     dict(base.parts))  # fmt: skip
    problems = Problems()  # each table of the file on its own: all its problems at once
    for section in sorted(set(data) - set(SECTIONS)):
        message = _("unknown section {section!r}; use kind, timing, combination, part or variant")
        hint = did_you_mean(section, SECTIONS)
        problems.add(BadInput(message.format(section=section) + hint, f"{source}: {section}"))
    for name in SECTIONS:  # in this order: a kind may pay with a part of this file, and so on
        read = getattr(rules, name)
        for key, table in _section(data, name, source, problems).items():
            with problems.item():
                where = f"{source}: {name}.{key}"
                if not isinstance(table, Mapping):
                    raise BadInput(_("must be a table"), where)
                read(key, table, where)
    problems.raise_all(lambda n: more_problems(n, source))
    return Ruleset(rules.kinds, rules.timings, rules.presets, (*base.sources, source), rules.combinations, rules.parts)


@dataclass
class _Merging:
    """The words of a ruleset while a file is merged in: one reader per section (``[part.NAME]`` ...)."""

    kinds: dict[str, KindSpec]
    timings: dict[str, TimingSpec]
    presets: dict[str, Preset]
    combinations: dict[str, Combination]
    parts: dict[str, PartKind]

    def part(self, key: str, table: Mapping[str, Any], where: str) -> None:
        new = part_kind_from_data(key, table, where)
        _check_clause(new.clause, f"{where}.clause")
        same = next((k for k in self.parts.values() if k.key != key and {k.ja, k.en} & {new.ja, new.en}), None)
        if same is not None:
            message = _("the word {ja!r} / {en!r} is already part.{other}'s; a cost could not tell them apart")
            raise BadInput(message.format(ja=new.ja, en=new.en, other=same.key), f"{where}.ja")
        self.parts[key] = new

    def kind(self, key: str, table: Mapping[str, Any], where: str) -> None:
        if key in self.kinds:  # a change to an existing kind: the rest stays as it was
            old = kind_to_data(self.kinds[key])
            table = {**old, **table}
            if isinstance(table["clauses"], Mapping):
                table = {**table, "clauses": {**old["clauses"], **table["clauses"]}}
        cost = table.get("cost")
        spec = kind_from_data(key, {k: v for k, v in table.items() if k != "cost"}, where)
        if cost:
            spec = _with_cost(spec, cost, self.parts, f"{where}.cost")
        for slot, clause in spec.clauses:
            _check_clause(clause, f"{where}.clauses.{slot}")
        taken = next((k for k in self.kinds.values() if spec.move and k.key != key and k.move == spec.move), None)
        if taken is not None:
            message = _("move = {move!r} is already kind.{kind}'s; one kind per move")
            raise BadInput(message.format(move=spec.move, kind=taken.key), f"{where}.move")
        self.kinds[key] = spec

    def timing(self, key: str, table: Mapping[str, Any], where: str) -> None:
        if key in self.timings:  # a change to an existing timing
            table = {**timing_to_data(self.timings[key]), **table}
        spec = timing_from_data(key, table, where)
        _check_clause(spec.clause, f"{where}.clause")
        for other in self.timings.values():
            clash = ({spec.ja, spec.short, spec.en} - {""}) & {other.ja, other.short, other.en}
            if other.key != key and clash:
                message = _("the name {name!r} is already timing.{timing}'s; cards could not tell them apart")
                raise BadInput(message.format(name=sorted(clash)[0], timing=other.key), f"{where}.ja")
        known = {k.category for k in self.kinds.values()}
        for cat in spec.answers:
            if cat not in known:
                message = _("answers {category!r}, which no kind is; known: {known}")
                raise BadInput(message.format(category=cat, known=", ".join(sorted(known))), f"{where}.answers")
        self.timings[key] = spec

    def combination(self, key: str, table: Mapping[str, Any], where: str) -> None:
        combo = combination_from_data(key, table, self.timings, where)
        _check_clause(combo.clause, f"{where}.clause")
        self.combinations[key] = combo

    def variant(self, key: str, table: Mapping[str, Any], where: str) -> None:
        if not isinstance(table.get("set"), Mapping):
            raise BadInput(_("needs `set = {{ name = value, ... }}`").format(), where)
        for extra in sorted(set(table) - set(VARIANT_KEYS)):
            message = _("unknown setting {setting!r}; known: {known}")
            hint = did_you_mean(extra, VARIANT_KEYS)
            raise BadInput(message.format(setting=extra, known=", ".join(VARIANT_KEYS)) + hint, f"{where}.{extra}")
        try:
            Variants(table["set"])
        except BadInput as err:
            raise BadInput(err.message, f"{where}.set") from None
        doc, doc_ja = str(table.get("doc", "")), str(table.get("doc_ja", ""))
        self.presets[key] = Preset(key, doc, tuple(table["set"].items()), doc_ja)


#: The tables a designer's file may have, in the order they are read (a kind may pay with a part,
#: a timing answers a kind's category, a combination names timings).
SECTIONS = ("part", "kind", "timing", "combination", "variant")
#: The settings of a ``[variant.NAME]`` preset.
VARIANT_KEYS = ("doc", "doc_ja", "set")


def _section(data: Mapping[str, Any], name: str, source: str, problems: Problems) -> Mapping[str, Any]:
    section = data.get(name) or {}
    if not isinstance(section, Mapping):
        message = _("{section} must be tables such as [{section}.NAME]").format(section=name)
        problems.add(BadInput(message, f"{source}: {name}"))
        return {}
    return section


def _placed(err: BadInput, path: Path) -> str:
    """``FILE:LINE: kind.rest.price`` for a problem placed at ``FILE: kind.rest.price`` of a TOML file."""
    dotted = err.where.removeprefix(f"{path}: ")
    if dotted == err.where or path.suffix != ".toml":
        return err.where
    line = toml_line(path.read_text(encoding="utf-8"), dotted)
    return f"{path}:{line}: {dotted}" if line else err.where


def toml_line(text: str, dotted: str) -> int:
    """The line of ``kind.rest.price`` in a TOML text: its ``price =`` line under ``[kind.rest]``, else the
    header itself (tomllib keeps no positions; a designer's file writes one table per header)."""
    parts = dotted.split(".")
    lines = text.splitlines()
    for n in range(len(parts), 0, -1):
        header = ".".join(parts[:n])
        heads = [ln.strip().replace(" ", "") for ln in lines]
        at = next((i for i, h in enumerate(heads) if h == f"[{header}]"), None)
        if at is None and n == 1:  # an unknown section: the first table in it
            at = next((i for i, h in enumerate(heads) if h.startswith(f"[{header}.")), None)
        if at is None:
            continue
        if n < len(parts):
            for j in range(at + 1, len(lines)):
                word = lines[j].strip()
                if word.startswith("["):
                    break
                if word.partition("=")[0].strip().strip('"') == parts[n]:
                    return j + 1
        return at + 1
    return 0


def _with_cost(spec: KindSpec, raw: object, parts: Mapping[str, PartKind], where: str) -> KindSpec:
    """A kind's own 代償 parts, paid by every ability of the kind on top of its own ``cost`` (COST-3)."""
    if spec.price != "pay_cost":
        message = _("cost is a 代償, paid by the price pay_cost; this kind's price is {price!r}")
        raise BadInput(message.format(price=spec.price), where)
    skills, own = read_cost(raw, parts, where)
    if skills:
        raise BadInput(_("a kind's cost names parts (手札1枚 ...); skills belong to each ability's own cost"), where)
    spoilt = self_spoiling(spec, own)
    if spoilt:
        message = _(
            "{part} takes the paying unit itself at declaration, so the recheck for {condition!r} "
            "would always fizzle it (COST-5); take another unit (which = other) or pay at resolve"
        )
        raise BadInput(message.format(part=spoilt[0].text(), condition=spoilt[1]), where)
    return replace(spec, cost=own)


def load(paths: Iterable[str | Path] = ()) -> Ruleset:
    """The built-in rules plus designers' data files, in order (``--rules FILE`` on the command line)."""
    rules = builtin()
    for path in paths:
        rules = rules.extend(path)
    return rules


@cache
def builtin() -> Ruleset:
    """The rules of the rules page, as shipped."""
    empty = Ruleset({}, {})
    data_dir = resources.files("fsm.rules") / "data"
    kinds = tomllib.loads((data_dir / "kinds.toml").read_text(encoding="utf-8"))
    timings = tomllib.loads((data_dir / "timings.toml").read_text(encoding="utf-8"))
    parts = tomllib.loads((data_dir / "price_parts.toml").read_text(encoding="utf-8"))
    rules = _merge(empty, parts, "fsm/rules/data/price_parts.toml")
    rules = _merge(rules, kinds, "fsm/rules/data/kinds.toml")
    rules = _merge(rules, timings, "fsm/rules/data/timings.toml")
    return Ruleset(rules.kinds, rules.timings, {}, (), rules.combinations, rules.parts)
