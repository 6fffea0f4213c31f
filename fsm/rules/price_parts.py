"""The parts of a 代償, as data: what each part takes, from where, and where it goes.

A 【代償】 is used by spending its 代償 (COST-1) right after the declaration (COST-3).  Skills
are only *mainly* what pays one (SYM-1), so a 代償 is a list of parts: skill symbols (today's
form, 全 standing in for anything but 道具, SYM-2, SYM-3) and parts of the kinds declared in
``fsm/rules/data/price_parts.toml`` — cards from the hand, another of the player's units discarded or
made 行動完了, an equip sent to the graveyard — or in a designer's ``[part.NAME]`` table.

A cost is written ``火 + 手札1枚`` (parts joined by ``+``) or as a list
(``[火, 手札1枚, {part: hand, count: 1, name: 書}]``).  A part is its kind's word (``ja``,
``en`` or key), an optional count (``手札2枚``, ``hand 2``, ``hand×2``) and an optional filter
in brackets (``手札1枚(名称：書)``, ``hand 1 (skill)``).  What paying one does on the table is
:mod:`fsm.spec.paying`; this module is only the vocabulary and its reading.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fsm.errors import BadInput
from fsm.i18n import _, did_you_mean
from fsm.rules.skills import SYMBOLS, Pool, fmt, pool

TAKES = ("card", "unit", "equip")
#: Where each kind of thing may be taken from.
FROM = {"card": ("hand",), "unit": ("field", "hand"), "equip": ("equipped",)}
TO = ("graveyard", "hand", "acted")
WHICH = ("other", "self", "any")
CARD_TYPES = ("skill", "equip")
KEYS = ("ja", "en", "take", "from", "to", "which", "count", "name", "type", "clause")

#: How zones and things read in labels and log lines: (Japanese, English).
ZONE_WORDS = {
    "hand": ("手札", "hand"),
    "field": ("場", "field"),
    "equipped": ("装備中", "equipped"),
    "graveyard": ("墓地", "graveyard"),
    "acted": ("行動完了", "行動完了"),
}
THINGS = {
    ("card", ""): ("カード", "card"),
    ("equip", ""): ("イクイップ", "equip"),
    ("unit", "other"): ("他の自軍ユニット", "another own unit"),
    ("unit", "self"): ("このユニット", "this unit"),
    ("unit", "any"): ("自軍ユニット", "own unit"),
}
TYPE_WORDS = {"skill": "skill", "スキル": "skill", "equip": "equip", "イクイップ": "equip"}


@dataclass(frozen=True)
class PartKind:
    """One kind of 代償 part (a ``[part.NAME]`` table)."""

    key: str
    ja: str
    en: str
    take: str  # card | unit | equip
    source: str  # hand | field | equipped  (the file's `from`)
    to: str  # graveyard | hand | acted
    which: str = "any"  # units: other | self | any
    count: int = 1
    name: str = ""  # filter: the name contains this (as 名称：X, NAME-1)
    type: str = ""  # filter, cards: skill | equip
    clause: str = "COST-3"

    @property
    def thing(self) -> tuple[str, str]:
        return THINGS[(self.take, self.which if self.take == "unit" else "")]


@dataclass(frozen=True)
class Part:
    """One part of one 代償: a kind, how many, and the filter this cost gives it."""

    kind: PartKind
    count: int
    name: str = ""
    type: str = ""

    def text(self) -> str:
        """As a cost writes it: ``手札1枚(名称：書)``."""
        counter = "体" if self.kind.take == "unit" else "枚"
        return f"{self.kind.ja}{self.count}{counter}{self._filter('ja')}"

    def _filter(self, lang: str) -> str:
        words = [f"名称：{self.name}" if lang == "ja" else f"name: {self.name}"] if self.name else []
        if self.type:
            words.append(self.type)
        return f"({', '.join(words)})" if words else ""

    def describe(self, lang: str) -> str:
        """The part and what paying it does, in words (diagrams, the widget's table):
        ``手札1枚（カード：手札→墓地）`` / ``hand ×1 (card: hand → graveyard)``."""
        k = self.kind
        if lang == "ja":
            thing, source, to = k.thing[0], ZONE_WORDS[k.source][0], ZONE_WORDS[k.to][0]
            return f"{self.text()}（{thing}：{source}→{to}）"
        thing, source, to = k.thing[1], ZONE_WORDS[k.source][1], ZONE_WORDS[k.to][1]
        return f"{k.en} ×{self.count}{self._filter('en')} ({thing}: {source} → {to})"


def part_kind_from_data(key: str, data: Mapping[str, Any], where: str) -> PartKind:
    """Validate one ``[part.NAME]`` table; every error names the file, the key and the allowed words."""
    if not key.replace("_", "").isalnum():
        raise BadInput(_("a part's name is letters, digits and _"), where)
    for extra in sorted(set(data) - set(KEYS)):
        message = _("unknown setting {setting!r}; known: {known}")
        raise BadInput(message.format(setting=extra, known=", ".join(KEYS)), f"{where}.{extra}")
    for text_key in ("ja", "en"):
        value = data.get(text_key)
        if not isinstance(value, str) or not value or any(c in value for c in " +()（）0123456789×"):
            message = _("{key} must be one word without spaces, digits, + or brackets (how a cost writes the part)")
            raise BadInput(message.format(key=text_key), f"{where}.{text_key}")
        if value in SYMBOLS:
            message = _("{value!r} is a skill symbol (SYM-1); a part needs a word of its own")
            raise BadInput(message.format(value=value), f"{where}.{text_key}")

    def choice(name: str, allowed: tuple[str, ...], default: str | None = None) -> str:
        value = data.get(name, default)
        if value not in allowed:
            message = _("{key} = {value!r} is not one of: {allowed}")
            hint = did_you_mean(value, allowed) if isinstance(value, str) else ""
            raise BadInput(message.format(key=name, value=value, allowed=", ".join(allowed)) + hint, f"{where}.{name}")
        return str(value)

    take = choice("take", TAKES)
    source = choice("from", FROM[take])
    to = choice("to", TO)
    if to == "acted" and (take, source) != ("unit", "field"):
        raise BadInput(_("to = 'acted' makes a unit on the field 行動完了; use take = 'unit', from = 'field'"), where)
    if to == source:
        message = _("to = {to!r} is where the part is taken from, so paying it would move nothing")
        raise BadInput(message.format(to=to), where)
    which = choice("which", WHICH, "other") if take == "unit" else "any"
    if "which" in data and take != "unit":
        raise BadInput(_("which says which unit; only a part that takes a unit has one"), f"{where}.which")
    count = _count(data.get("count", 1), f"{where}.count")
    name, ctype = _filters(data.get("name", ""), data.get("type", ""), take, where)
    clause = data.get("clause", "COST-3")
    if not isinstance(clause, str):
        raise BadInput(_("clause must be a clause ID"), f"{where}.clause")
    return PartKind(key, data["ja"], data["en"], take, source, to, which, count, name, ctype, clause)


def _count(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BadInput(_("a part's count must be a whole number ≥ 1, got {value!r}").format(value=value), where)
    return value


def _filters(name: object, ctype: object, take: str, where: str) -> tuple[str, str]:
    if not isinstance(name, str):
        raise BadInput(_("a name filter is text (a part of a name, as 名称：X)"), where)
    if ctype and (take == "unit" or ctype not in CARD_TYPES):
        allowed = ", ".join(CARD_TYPES) if take != "unit" else _("none (a unit has no card type)")
        raise BadInput(
            _("type filter {value!r} names nothing; allowed: {allowed}").format(value=ctype, allowed=allowed), where
        )
    return name.strip(), str(ctype or "")


# ---------------------------------------------------------------- reading a cost
_PART = re.compile(
    r"^(?P<word>[^\d×*(（\s-]+)\s*(?:[×*]?\s*(?P<n>-?\d+)\s*[^\s(（]*)?\s*(?:[(（](?P<filter>[^)）]*)[)）])?$"
)


def words(kinds: Mapping[str, PartKind]) -> str:
    """The part words a cost may use, for messages: ``手札 (hand), 破棄 (discard), ...``."""
    return ", ".join(f"{k.ja} ({k.en})" for k in kinds.values())


def _kind(word: str, kinds: Mapping[str, PartKind], where: str) -> PartKind:
    found = next((k for k in kinds.values() if word in (k.key, k.ja, k.en)), None)
    if found is None:
        message = _(
            "unknown 代償 part {word!r}; a 代償 is skill symbols ({symbols}) and parts: {parts} (COST-3, SYM-1)"
        )
        hint = did_you_mean(word, [w for k in kinds.values() for w in (k.key, k.ja, k.en)])
        raise BadInput(message.format(word=word, symbols=" ".join(SYMBOLS), parts=words(kinds)) + hint, where)
    return found


def _read_filter(text: str, kind: PartKind, where: str) -> tuple[str, str]:
    name, ctype = kind.name, kind.type
    items = [w for w in re.split(r"[,、\s]+", text.strip()) if w]
    if not items:
        raise BadInput(
            _("an empty filter () names nothing; write 名称：X or a card type ({types})").format(
                types=", ".join(CARD_TYPES)
            ),
            where,
        )
    for item in items:
        head, sep, rest = item.replace("：", ":").partition(":")
        if sep and head in ("名称", "name") and rest:
            name = rest
        elif item in TYPE_WORDS:
            ctype = TYPE_WORDS[item]
        else:
            message = _("filter {item!r} names nothing; a filter is 名称：X (a part of a name) or a card type: {types}")
            raise BadInput(message.format(item=item, types=", ".join(TYPE_WORDS)), where)
    return _filters(name, ctype, kind.take, where)


def read_part(raw: object, kinds: Mapping[str, PartKind], where: str) -> Part:
    """One part, from its text (``手札1枚(名称：書)``) or a mapping (``{part: hand, count: 1}``)."""
    if isinstance(raw, Mapping):
        extra = sorted(set(raw) - {"part", "count", "name", "type"})
        if extra:
            message = _("unknown key {key!r} in a 代償 part; allowed: part, count, name, type")
            raise BadInput(message.format(key=extra[0]), where)
        kind = _kind(str(raw.get("part", "")), kinds, where)
        name, ctype = _filters(raw.get("name", kind.name), raw.get("type", kind.type), kind.take, where)
        return Part(kind, _count(raw.get("count", kind.count), where), name, ctype)
    text = str(raw).strip()
    match = _PART.match(text)
    if match is None:
        message = _("cannot read the 代償 part {text!r}; write e.g. 手札1枚, hand 2 or 手札1枚(名称：書)")
        raise BadInput(message.format(text=text), where)
    kind = _kind(match["word"], kinds, where)
    count = _count(int(match["n"]), where) if match["n"] is not None else kind.count
    name, ctype = _read_filter(match["filter"], kind, where) if match["filter"] is not None else (kind.name, kind.type)
    return Part(kind, count, name, ctype)


def read_cost(raw: object, kinds: Mapping[str, PartKind], where: str) -> tuple[Pool, tuple[Part, ...]]:
    """A whole cost: its skills (SYM-1) and its other parts, in the order written."""
    if raw is None:
        return Counter(), ()
    if isinstance(raw, Mapping) and "part" not in raw:
        return pool(raw, where), ()  # {土: 2}: skills only, as before
    if isinstance(raw, str):
        segments: list[object] = [s for s in raw.split("+")]
    elif isinstance(raw, list):
        segments = list(raw)
    else:
        segments = [raw]
    skills: Pool = Counter()
    parts: list[Part] = []
    for seg in segments:
        if isinstance(seg, str) and not seg.strip():
            raise BadInput(_("an empty part in the 代償 {cost!r}").format(cost=raw), where)
        tokens = seg.split() if isinstance(seg, str) else []
        if tokens and all(_is_symbol(t) for t in tokens):
            skills.update(pool(tokens, where))
        else:
            parts.append(read_part(seg, kinds, where))
    return skills, tuple(parts)


def _is_symbol(token: str) -> bool:
    try:
        pool([token])
    except BadInput:
        return False
    return True


def cost_text(skills: Mapping[str, int], parts: tuple[Part, ...]) -> str:
    """A whole 代償 as a cost writes it: ``火×1 + 手札1枚`` ("" for none)."""
    return " + ".join([fmt(skills)] * bool(+Counter(skills)) + [p.text() for p in parts])


def flat(parts: tuple[Part, ...]) -> list[Part]:
    """Each part once per thing it takes: what a choice's names line up with."""
    return [p for p in parts for _n in range(p.count)]
