"""Skill symbols (スキル), card conditions and paying for them.

A unit's skills are a multiset of the nine symbols (SYM-1).  A skill card's or an
equip's condition (条件) is a multiset of required symbols, optionally with a name
requirement 名称：X (NAME-1).  Paying follows two substitution rules:

* 全 may stand in for any symbol except 道具 (SYM-2);
* 道具 can only be paid with 道具 (SYM-3).

Because every specific symbol can only be covered by itself or by 全, the question
"can these demands all be paid from this pool?" has an exact answer that does not
depend on the order the demands were declared in: cover each symbol with its own kind
first, and the total shortfall must fit in the spare 全.  ``tests/test_skills.py``
checks this against brute force.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass

from fsm.errors import BadInput
from fsm.i18n import _, did_you_mean

FIRE, WATER, EARTH, WIND, HOLY, DEMON, NEUTRAL, ALL, TOOL = (
    "火",
    "水",
    "土",
    "風",
    "聖",
    "魔",
    "無",
    "全",
    "道具",
)
SYMBOLS: tuple[str, ...] = (FIRE, WATER, EARTH, WIND, HOLY, DEMON, NEUTRAL, ALL, TOOL)

#: English names, for identifiers and the English diagram labels.
ENGLISH: dict[str, str] = {
    FIRE: "fire",
    WATER: "water",
    EARTH: "earth",
    WIND: "wind",
    HOLY: "holy",
    DEMON: "demonic",
    NEUTRAL: "neutral",
    ALL: "all",
    TOOL: "tool",
}

#: The one colour palette for symbols (SYM-1 leaves the colours open; chosen here, once).
PALETTE: dict[str, str] = {
    FIRE: "#d94a38",
    WATER: "#2f7fd1",
    EARTH: "#9a6b2f",
    WIND: "#3aa35b",
    HOLY: "#d8b630",
    DEMON: "#7b4bb3",
    NEUTRAL: "#8a8a8a",
    ALL: "#222222",
    TOOL: "#1f9e9e",
}

_ALIASES = {v: k for k, v in ENGLISH.items()}

Pool = Counter[str]


def symbol(text: str, where: str = "") -> str:
    """Normalise one symbol (Japanese or English name); unknown ones are bad input."""
    s = str(text).strip()
    s = _ALIASES.get(s.lower(), s)
    if s not in SYMBOLS:
        message = _("unknown skill symbol {symbol!r}; use one of {symbols} (SYM-1)")
        hint = did_you_mean(s, [*SYMBOLS, *_ALIASES])
        raise BadInput(message.format(symbol=text, symbols=" ".join(SYMBOLS)) + hint, where)
    return s


def pool(spec: Iterable[str] | Mapping[str, int] | str | None, where: str = "") -> Pool:
    """Build a multiset of symbols from ``"土 土 全"``, ``["土", "全"]`` or ``{"土": 2}``."""
    out: Pool = Counter()
    if spec is None:
        return out
    if isinstance(spec, str):
        spec = spec.replace(",", " ").split()
    if isinstance(spec, Mapping):
        for key, n in spec.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                message = _("count for {symbol!r} must be a whole number ≥ 0, got {value!r}")
                raise BadInput(message.format(symbol=key, value=n), where)
            if n:
                out[symbol(key, where)] += n
        return out
    for item in spec:
        out[symbol(item, where)] += 1
    return out


@dataclass(frozen=True)
class Condition:
    """What a card needs from the unit that uses it (SC-1, NAME-1, EQ-1)."""

    symbols: tuple[tuple[str, int], ...] = ()
    name: str | None = None  # 名称：X — the user's card name must contain X (NAME-1)

    @classmethod
    def of(cls, symbols: object = None, name: str | None = None, where: str = "") -> Condition:
        p = pool(symbols, where)  # type: ignore[arg-type]
        return cls(tuple(sorted(p.items(), key=lambda kv: SYMBOLS.index(kv[0]))), name or None)

    @property
    def needs(self) -> Skills:
        """The symbols as a pool, made once (kept beside the frozen fields; never changed)."""
        kept: Skills | None = self.__dict__.get("_needs")
        if kept is None:
            kept = Skills(self.symbols)
            object.__setattr__(self, "_needs", kept)
        return kept

    def __str__(self) -> str:
        text = fmt(self.needs)
        return f"{text} 名称：{self.name}" if self.name else text


def shortfall(have: Mapping[str, int], demands: Iterable[Mapping[str, int]]) -> int:
    """How many symbols the pool is short of paying all demands together (0 = payable).

    SYM-2/SYM-3: each specific symbol is covered by its own kind first; what is left over
    must come from spare 全, and 道具 can never be covered by 全.
    """
    need: dict[str, int] = {}
    for d in demands:
        for s, n in d.items():
            need[s] = need.get(s, 0) + n
    spare_all = have.get(ALL, 0) - need.get(ALL, 0)
    if spare_all < 0:
        return -spare_all + sum(max(0, n - have.get(s, 0)) for s, n in need.items() if s != ALL)
    tool_gap = max(0, need.get(TOOL, 0) - have.get(TOOL, 0))
    gap = sum(max(0, n - have.get(s, 0)) for s, n in need.items() if s not in (ALL, TOOL))
    return tool_gap + max(0, gap - spare_all)


def can_pay(have: Mapping[str, int], demands: Iterable[Mapping[str, int]]) -> bool:
    """True when every demand can be paid at once from ``have`` (SYM-2, SYM-3, SC-4)."""
    return shortfall(have, demands) == 0


def payment(have: Mapping[str, int], need: Mapping[str, int]) -> Pool:
    """The symbols actually spent for ``need``: own kind first, then 全 (SYM-2).

    Spending exact symbols first keeps 全 free, so whatever else is still reserved on the
    unit stays payable whenever it was payable before.
    """
    spent: Pool = Counter()
    left_all = have.get(ALL, 0)
    for s, n in need.items():
        own = min(n, have.get(s, 0)) if s != ALL else 0
        spent[s] += own
        rest = n - own
        if rest:
            spent[ALL] += rest
            left_all -= rest
    assert left_all >= 0, "payment() called on an unpayable demand"
    return +spent


def coverable(have: Mapping[str, int], need: Mapping[str, int]) -> Pool:
    """The part of ``need`` that ``have`` still covers: own kind first, then 全 (never for 道具).

    An equip holds this much of its condition (EQ-1): a skill that is gone is simply not held.
    """
    left = Counter(have)
    got: Pool = Counter()
    for s, n in need.items():
        own = min(n, left[s])
        stand_in = 0 if s in (ALL, TOOL) else min(n - own, left[ALL])
        left[s] -= own
        left[ALL] -= stand_in
        got[s] += own
        got[ALL] += stand_in
    return +got


def fmt(p: Mapping[str, int]) -> str:
    """``{"土": 2, "全": 1}`` → ``"土×2 全×1"`` in symbol order (for messages and labels)."""
    return " ".join(f"{s}×{p[s]}" for s in SYMBOLS if p.get(s, 0) > 0) or _("none")


class Skills(Mapping[str, int]):
    """A multiset of symbols that never changes once made (a unit's base, used and granted skills).

    A unit copy shares its pools with the original for as long as either lives: a change is a
    new pool put in the unit's field (``u.skills = u.skills.replacing(consumed=u.skills.consumed
    + paid)``), which the unit's copy-on-write guard sees (fsm/table/sharing.py).  Counts of 0 are
    dropped, a missing symbol reads 0 (as a Counter's), and the fingerprint is kept.
    """

    __slots__ = ("_counts", "_key")

    def __init__(self, counts: Mapping[str, int] | Iterable[tuple[str, int]] = ()) -> None:
        self._counts = {s: n for s, n in dict(counts).items() if n > 0}
        self._key: tuple[tuple[str, int], ...] | None = None

    def __getitem__(self, s: str) -> int:
        return self._counts.get(s, 0)

    def __contains__(self, s: object) -> bool:
        return s in self._counts

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def get(self, s: str, default: int | None = None) -> int | None:  # type: ignore[override]
        return self._counts.get(s, default)

    # the dict's own views: Mapping's would look every symbol up again through __getitem__
    def items(self) -> ItemsView[str, int]:
        return self._counts.items()

    def keys(self) -> KeysView[str]:
        return self._counts.keys()

    def values(self) -> ValuesView[int]:
        return self._counts.values()

    @property
    def key(self) -> tuple[tuple[str, int], ...]:
        """The symbols and counts, sorted: what a table's fingerprint holds of the pool."""
        k = self._key
        if k is None:
            k = self._key = tuple(sorted(self._counts.items()))
        return k

    def __add__(self, other: Mapping[str, int]) -> Skills:
        total = dict(self._counts)
        for s, n in other.items():
            total[s] = total.get(s, 0) + n
        return Skills(total)

    def __sub__(self, other: Mapping[str, int]) -> Skills:
        """What is left, never below 0 (as a Counter's ``-``)."""
        return Skills({s: n - other.get(s, 0) for s, n in self._counts.items()})

    def __pos__(self) -> Skills:
        return self  # no count is ever ≤ 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Skills):
            return self._counts == other._counts
        if isinstance(other, Mapping):
            return self._counts == {s: n for s, n in other.items() if n}
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Skills({self._counts!r})"


NO_SKILLS = Skills()
_POOL_FIELDS = frozenset({"base", "consumed", "granted"})


@dataclass(frozen=True)
class SkillPool:
    """A unit's skills for the current battle: what it has, and what is used up (SC-2).

    Immutable, as its :class:`Skills` are: a unit copy shares it, and a change is a new pool
    (:meth:`replacing`).  Any mapping given is taken as :class:`Skills`."""

    base: Skills = NO_SKILLS
    consumed: Skills = NO_SKILLS
    granted: Skills = NO_SKILLS  # [戦闘] grants, lapse at battle end

    def __post_init__(self) -> None:
        for name in ("base", "consumed", "granted"):
            value = getattr(self, name)
            if not isinstance(value, Skills):
                object.__setattr__(self, name, Skills(value))

    def replacing(self, **fields: Mapping[str, int]) -> SkillPool:
        """This pool with the given fields replaced: a new pool, as ``dataclasses.replace`` makes,
        without its look at every field (paying and each battle's clean-up make one a move)."""
        unknown = fields.keys() - _POOL_FIELDS
        if unknown:
            raise TypeError(f"SkillPool has no field {', '.join(sorted(unknown))}")
        new = object.__new__(SkillPool)
        kept = new.__dict__
        kept.update(self.__dict__)
        for name, value in fields.items():
            kept[name] = value if type(value) is Skills else Skills(value)
        return new

    def available(self) -> Pool:
        total = Counter(self.base) + Counter(self.granted)
        total.subtract(self.consumed)
        return +total
