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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

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
    def needs(self) -> Pool:
        return Counter(dict(self.symbols))

    def __str__(self) -> str:
        text = fmt(self.needs)
        return f"{text} 名称：{self.name}" if self.name else text


def shortfall(have: Mapping[str, int], demands: Iterable[Mapping[str, int]]) -> int:
    """How many symbols the pool is short of paying all demands together (0 = payable).

    SYM-2/SYM-3: each specific symbol is covered by its own kind first; what is left over
    must come from spare 全, and 道具 can never be covered by 全.
    """
    need: Pool = Counter()
    for d in demands:
        need.update(d)
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
    return " ".join(f"{s}×{p[s]}" for s in SYMBOLS if p.get(s, 0) > 0) or "なし"


@dataclass
class SkillPool:
    """A unit's skills for the current battle: what it has, and what is used up (SC-2)."""

    base: Pool = field(default_factory=Counter)
    consumed: Pool = field(default_factory=Counter)
    granted: Pool = field(default_factory=Counter)  # [戦闘] grants, lapse at battle end

    def available(self) -> Pool:
        total = self.base + self.granted
        total.subtract(self.consumed)
        return +total
