"""Reading a scenario file: YAML whose every mapping and list remembers its line, so that each
message says ``FILE:LINE`` (and the key); the small readers the other scenario modules share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from fsm.errors import BadInput, Problems
from fsm.i18n import _, did_you_mean
from fsm.rules.catalogue import CLAUSES
from fsm.rules.skills import Pool, pool


class Map(dict):
    """A mapping that remembers the line of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.key_lines = {}


class Seq(list):
    """A list that remembers the line of itself and of each item."""

    line: int = 0
    item_lines: list[int]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.item_lines = []


class _Loader(yaml.SafeLoader):
    pass


def _map(loader: _Loader, node: yaml.MappingNode) -> Map:
    m = Map()
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


def _seq(loader: _Loader, node: yaml.SequenceNode) -> Seq:
    s = Seq(loader.construct_object(v, deep=True) for v in node.value)
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


class Where:
    """Builds ``file:line (key)`` locations for error messages."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, node: Any, key: str | int | None = None) -> str:
        line = line_of(node, key)
        place = f"{self.path}:{line}" if line else self.path
        return place + (f" ({key})" if isinstance(key, str) else "")


def line_of(node: Any, key: str | int | None) -> int:
    """The line of ``node[key]`` (or of ``node`` itself) in the file, 0 when unknown."""
    if isinstance(key, int) and isinstance(node, Seq) and key < len(node.item_lines):
        return node.item_lines[key]
    if isinstance(key, str) and isinstance(node, Map):
        return node.key_lines.get(key, node.line)
    return getattr(node, "line", 0)


def as_named(value: Any) -> str:
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


def table_of(data: Any, where: Where, parent: Any = None, key: str | int | None = None) -> Mapping[str, Any]:
    """``data`` as a mapping (nothing counts as empty); anything else is :class:`BadInput`."""
    if data is None:  # an empty entry: errors about it point at its key
        empty = Map()
        empty.line = line_of(parent, key)
        return empty
    if not isinstance(data, Mapping):
        at = where(parent, key) if parent is not None else where(data)
        raise BadInput(_("expected a mapping (key: value lines), got {value}").format(value=as_named(data)), at)
    return data


def list_of(data: Any, where: Where, parent: Any, key: str, single: bool = False) -> list[Any]:
    """``data`` as a list; with ``single`` one scalar stands for a list of one."""
    if data is None:
        return []
    if isinstance(data, list):
        return data
    if single and not isinstance(data, Mapping):
        return [data]
    raise BadInput(_("{key} must be a list, got {value}").format(key=key, value=as_named(data)), where(parent, key))


def not_a_clause(cid: object) -> str:
    return _("{id!r} is not a clause ID of the catalogue (see `fsm rules`)").format(id=cid)


def no_geo(name: object, geos: Iterable[str]) -> str:
    return _("no geo {geo!r}; geos: {geos}").format(geo=name, geos=", ".join(geos) or _("none"))


def check_keys(data: Mapping[str, Any], allowed: set[str], where: Where, what: str) -> None:
    """Every key ``data`` may not have, each with its line and the allowed key it is closest to."""
    problems = Problems()
    for key in data:
        if key not in allowed:
            message = _("unknown key {key!r} in {what}; allowed: {allowed}").format(
                key=key, what=what, allowed=", ".join(sorted(allowed))
            )
            problems.add(BadInput(message + did_you_mean(key, allowed), where(data, key)))
    problems.raise_all()


class Fields:
    """Typed reading of one mapping of a scenario; every error names file:line and the key."""

    def __init__(self, data: Any, where: Where, what: str, allowed: set[str], parent: Any = None,
                 key: str | int | None = None) -> None:  # fmt: skip
        self.data = table_of(data, where, parent, key)
        self.where = where
        self.what = what
        check_keys(self.data, allowed, where, what)

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
                _("{key} must be text, got {value} (quote it if it is a name)").format(key=key, value=as_named(value)),
                self.at(key),
            )
        if choices is not None:
            allowed = list(choices)
            if value not in allowed:
                one_of = ", ".join(allowed) or _("nothing")
                message = _("{key} must be one of {choices}, got {value!r}")
                hint = did_you_mean(value, allowed)
                raise BadInput(message.format(key=key, choices=one_of, value=value) + hint, self.at(key))
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
                _("{key} must be true or false, got {value}").format(key=key, value=as_named(value)), self.at(key)
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
            raise BadInput(message.format(key=key, value=as_named(value)), self.at(key))
        return pool(value, self.at(key))

    def names(self, key: str) -> list[str]:
        items = list_of(self.data.get(key), self.where, self.data, key, single=True)
        for item in items:
            if not isinstance(item, str):
                raise BadInput(
                    _("{key} must list names (text), got {value}").format(key=key, value=as_named(item)), self.at(key)
                )
        return items


#: How a scenario says "no skills at all" (fmt() prints an empty pool as なし).
NO_SKILLS = ("なし", "none", "")


def clause_ids(raw: Any, where: Where, parent: Any, key: str) -> list[str]:
    ids = list_of(raw, where, parent, key, single=True)
    for i, cid in enumerate(ids):
        if not isinstance(cid, str) or cid not in CLAUSES:
            at = where(ids, i) if isinstance(ids, Seq) else where(parent, key)
            raise BadInput(not_a_clause(cid) + did_you_mean(cid, CLAUSES), at)
    return [str(c) for c in ids]
