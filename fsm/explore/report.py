"""What a search finds: each ending (how play ended, with an example line), the report of a whole
search, and the judge that says whether and how play has ended at a table (see fsm.explore.explorer)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fsm.engine.game import Game
from fsm.i18n import N_, _
from fsm.rules.variants import endless
from fsm.table.model import Table

T = TypeVar("T")

#: How many of the cut lines a report keeps as examples.
CUT_EXAMPLES = 5
#: The depth recorded for a table where play ended: never explored again.
ENDED = -1

#: A line of play, stored as a linked list (move text, previous node) so that lines that
#: share a beginning share its storage.
Line = tuple[str, "Line"] | None
#: A table to explore: the table, the line that reached it, its digest.
Node = tuple[Table, Line, int]


#: How an ending's result and state words read (``results`` keeps the English words as data).
_RESULTS = {"resolved": N_("{name} resolved"), "fizzled": N_("{name} fizzled")}
_ATTACK_OF = "attack of "
_ZONES = {
    "field": N_("field"), "hand": N_("hand"), "revealed": N_("revealed"), "chain": N_("chain"),
    "equipped": N_("equipped"), "graveyard": N_("graveyard"),
}  # fmt: skip


def _zone_text(zone: str) -> str:
    return _(_ZONES[zone]) if zone in _ZONES else zone


def result_text(result: str) -> str:
    """``"attack of 岩の巨人 fizzled"`` in the chosen language."""
    name, _sep, word = result.rpartition(" ")
    if name.startswith(_ATTACK_OF):
        name = _("attack of {unit}").format(unit=name.removeprefix(_ATTACK_OF))
    return _(_RESULTS[word]).format(name=name) if word in _RESULTS else result


def _state_text(words: str) -> str:
    """A unit's changed state words (``"撃破 in graveyard"``), the zone in the chosen language."""
    out: list[str] = []
    for word in words.split():
        if out and out[-1] == "in":
            out[-1] = _("in {zone}").format(zone=_zone_text(word))
        else:
            out.append(word)
    return " ".join(out)


def moves_of(line: Line) -> tuple[str, ...]:
    out: list[str] = []
    while line is not None:
        out.append(line[0])
        line = line[1]
    return tuple(reversed(out))


@dataclass
class Ending:
    """One distinct way the explored play ended, and how many end tables show it."""

    results: tuple[str, ...]  # "岩砕き fizzled", ... (sorted)
    zones: tuple[tuple[str, str], ...]  # (unit or card, zone) where it differs from the start
    units: tuple[tuple[str, str], ...]  # (unit, state words) where they differ from the start
    tables: int = 0  # distinct end tables with this outcome
    line: tuple[str, ...] = ()  # one shortest line of moves that reaches it

    @property
    def signature(self) -> tuple[Any, ...]:
        return (self.results, self.zones, self.units)

    def describe(self) -> str:
        """The ending in the chosen language (the data, ``results`` and ``as_dict``, stays English)."""
        parts = [_(", ").join(map(result_text, self.results)) or _("nothing resolved")]
        if self.zones:
            zones = _(", ").join(f"{n} → {_zone_text(z)}" for n, z in self.zones)
            parts.append(_("zones: {zones}").format(zones=zones))
        if self.units:
            units = _(", ").join(f"{n} {_state_text(w)}" for n, w in self.units)
            parts.append(_("units: {units}").format(units=units))
        return _("; ").join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "results": list(self.results),
            "zones": dict(self.zones),
            "units": dict(self.units),
            "tables": self.tables,
            "line": list(self.line),
        }


@dataclass
class Report:
    """What the explorer found from one position (see the module docstring for the terms)."""

    source: str
    position: str  # start | end | table
    depth: int | None  # None: no depth bound
    variants: dict[str, Any]
    budget: int | None = None  # at most this many tables (None: no budget)
    states: int = 0  # distinct tables visited, the start included
    moves: int = 0  # moves played
    revisits: int = 0  # moves that reached a table already visited (transpositions, cycles)
    ended: int = 0  # distinct tables where play ended
    cut: int = 0  # distinct tables where play had not ended when the depth bound or the budget stopped it
    cut_lines: list[tuple[str, ...]] = field(default_factory=list)  # a few of those lines, as examples
    dead_ends: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (where, line)
    errors: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (engine error, line)
    longest_chain: int = 0
    longest_chain_line: tuple[str, ...] = ()
    endings: dict[tuple[Any, ...], Ending] = field(default_factory=dict)
    seconds: float = 0.0
    truncated: bool = False  # stopped by the budget or the memory limit (see stopped_by)
    stopped_by: str | None = None  # "budget" (max_states), "memory" (max_memory), "interrupted" (Ctrl-C), else None
    max_memory: int | None = None  # bytes
    #: tables whose moves were played, over every worker: above the tables that did not end when
    #: workers repeated one (or a depth bound explored one again)
    expanded: int = 0
    shares: int | None = None  # with --jobs: the worker shares, each with the budget and memory limit
    per_worker: list[int] | None = None  # with --dask: the tables each worker expanded, in the workers' order

    @property
    def complete(self) -> bool:
        """Every line ended (or dead-ended) within the depth bound and the budget."""
        return self.cut == 0

    @property
    def cut_by(self) -> str | None:
        """What stopped the lines that did not end: ``"budget"``, ``"depth"`` or None (none did)."""
        if self.complete:
            return None
        return self.stopped_by or "depth"

    def cut_reason(self) -> str:
        """The cut in words: ``"1,204 lines cut by the budget of 3,000 tables"``."""
        if self.complete:
            return _("complete: every line ended")
        if self.cut_by == "interrupted":
            return _("cut short by the interruption (Ctrl-C): a partial report")
        if self.cut_by == "budget" and self.shares:
            why = _("the budget of {budget:,} tables a share").format(budget=self.budget)
        elif self.cut_by == "budget":
            why = _("the budget of {budget:,} tables").format(budget=self.budget)
        elif self.cut_by == "memory":
            why = _("the memory limit of {size} (a partial report)").format(size=size_text(self.max_memory or 0))
        else:
            why = _("the depth bound of {depth} moves").format(depth=self.depth)
        said = _("{count:,} line cut by {why}") if self.cut == 1 else _("{count:,} lines cut by {why}")
        return said.format(count=self.cut, why=why)

    @property
    def distinct(self) -> int:
        return len(self.endings)

    @property
    def dead_end_count(self) -> int:
        return len(self.dead_ends)

    @property
    def error_count(self) -> int:
        return len(self.errors)

    @property
    def rate(self) -> float:
        """Tables visited per second."""
        return self.states / self.seconds if self.seconds else 0.0

    def outcome_set(self) -> set[str]:
        """Every "X resolved" / "X fizzled" that some ending contains."""
        return {r for e in self.endings.values() for r in e.results}

    def ranked(self) -> list[Ending]:
        return sorted(self.endings.values(), key=lambda e: (-e.tables, e.results, e.zones, e.units))

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "position": self.position,
            "depth": self.depth,
            "budget": self.budget,
            "variants": self.variants,
            "endless": endless(self.variants),
            "states": self.states,
            "moves": self.moves,
            "revisits": self.revisits,
            "ended": self.ended,
            "cut": self.cut,
            "complete": self.complete,
            "truncated": self.truncated,
            "cut_by": self.cut_by,
            "max_memory": self.max_memory,
            "shares": self.shares,
            "expanded": self.expanded,
            "expanded_per_worker": self.per_worker,
            "cut_lines": [list(line) for line in self.cut_lines],
            "dead_ends": [{"where": w, "line": list(line)} for w, line in self.dead_ends],
            "errors": [{"error": e, "line": list(line)} for e, line in self.errors],
            "longest_chain": self.longest_chain,
            "longest_chain_line": list(self.longest_chain_line),
            "endings": [e.as_dict() for e in self.ranked()],
            "seconds": round(self.seconds, 4),
            "states_per_second": round(self.rate),
        }


class Judge:
    """Decides, for a table reached from ``root``, whether play has ended and how."""

    def __init__(self, game: Game, root: Table) -> None:
        self.game = game
        self.root = root
        self.base = len(root.outcomes)
        self.in_battle = root.battle is not None
        self.active = root.active
        self.zones = {**{u.id: u.zone for u in root.units.values()}, **{c.id: c.zone for c in root.cards.values()}}
        self.words = {u.id: u.state_words() for u in root.units.values()}
        self.same: dict[Any, Any] = {}  # one copy of each word an ending keeps (endings repeat them)

    def ended(self, t: Table) -> bool:
        if t.chain:
            return False
        if self.in_battle:
            return t.battle is None
        return t.battle is None and t.active != self.active

    def results(self, t: Table) -> tuple[str, ...]:
        out = []
        for o in t.outcomes[self.base :]:
            if o.kind == "speed_roll":
                continue  # the speed dice result always stands; it says nothing about the play
            card = t.cards.look(o.source)  # only read: never copied (asked for every table explored)
            unit = t.units.look(o.unit or "")
            if card is not None:
                name = card.name
            elif o.source == "attack":
                name = f"{_ATTACK_OF}{unit.name if unit else o.unit}"
            else:
                name = o.source
            out.append(f"{name} {o.result}")
        return tuple(sorted(out))

    def ending(self, t: Table) -> Ending:
        zones = [(u.name, u.zone) for u in t.units.values() if u.zone != self.zones.get(u.id)]
        zones += [(c.name, c.zone) for c in t.cards.values() if c.zone != self.zones.get(c.id)]
        units = []
        for u in t.units.values():
            before = self.words.get(u.id, "").split()
            changed = [w for w in u.state_words().split() if w not in before]
            if changed:
                units.append((u.name, " ".join(changed)))
        return Ending(self._kept(self.results(t)), self._kept(zones), self._kept(units))

    def _kept(self, words: Iterable[T]) -> tuple[T, ...]:
        """Sorted, each word the one copy of it that endings keep."""
        same = self.same
        return tuple(sorted(same.setdefault(w, w) for w in words))


def size_text(n: int) -> str:
    """Bytes as ``--max-memory`` takes them: ``"500M"``, ``"2G"``, ``"1K"`` (binary units)."""
    for unit, size in (("G", 2**30), ("M", 2**20), ("K", 2**10)):
        if n >= size:
            return f"{n / size:,.4g}{unit}"
    return f"{n} bytes"
