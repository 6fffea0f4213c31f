"""The explorer: every legal line of play from a table, up to a number of moves.

From any table — a scenario's start (:func:`fsm.scenario.load`) or its end
(:func:`fsm.scenario.play`) — the explorer plays every legal move, then every legal move
after each of those, and so on, breadth first, using only the engine's public surface
(``legal_moves`` / ``apply``).  Two lines that reach the same table are explored once:
each table is remembered by a 64-bit digest of :meth:`fsm.model.Table.key` together with
what has resolved or fizzled since the start, and only the tables of the current depth
are kept in memory.

What "play has ended" means here (a line that ends is not played further):

* the exploration started in a battle, and that battle is over (back in the main phase,
  FLOW-END, FLOW-CLEANUP); or
* the exploration started in a main phase, and that main phase has passed to the other
  player with nothing left on the chain (TIM-MF).

The :class:`Report` says how many distinct tables were visited, every distinct *ending*
(which declared items resolved or fizzled — :attr:`fsm.model.Table.outcomes` — and which
zones and unit states differ from the start), the *dead ends* (nobody has a legal move,
yet play has not ended: a bug in the rules data or the engine), the lines *cut* by the
depth bound, and the longest chain seen.  :func:`compare` runs the same position under a
changed rule variant and lists what differs.

The command line: ``python -m fsm explore FILE [--variant NAME=VALUE] [--compare
NAME=VALUE] [--depth N] [--end] [--json]``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Game
from .errors import BadInput
from .model import Table
from .variants import BY_NAME, Variants, parse_assignment

#: No depth bound by default: lines are played until they end, or until the budget of
#: tables runs out (then the report says so, and what it cut).
DEFAULT_DEPTH: int | None = None
DEFAULT_BUDGET = 200_000
#: How many of the cut lines a report keeps as examples.
CUT_EXAMPLES = 5

#: A line of play, stored as a linked list (move text, previous node) so that lines that
#: share a beginning share its storage.
Line = tuple[str, "Line"] | None


def _moves(line: Line) -> tuple[str, ...]:
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
        parts = [", ".join(self.results) or "nothing resolved"]
        if self.zones:
            parts.append("zones: " + ", ".join(f"{n} → {z}" for n, z in self.zones))
        if self.units:
            parts.append("units: " + ", ".join(f"{n} {w}" for n, w in self.units))
        return "; ".join(parts)

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
    stopped_by: str | None = None  # "budget" (max_states) or "memory" (max_memory), else None
    max_memory: int | None = None  # bytes

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
            return "complete: every line ended"
        why = {
            "budget": f"the budget of {self.budget:,} tables",
            "memory": f"the memory limit of {(self.max_memory or 0) / 2**20:,.0f} MB (a partial report)",
        }.get(self.cut_by or "", f"the depth bound of {self.depth} moves")
        return f"{self.cut:,} line{'s' if self.cut != 1 else ''} cut by {why}"

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
            "states": self.states,
            "moves": self.moves,
            "revisits": self.revisits,
            "ended": self.ended,
            "cut": self.cut,
            "complete": self.complete,
            "truncated": self.truncated,
            "cut_by": self.cut_by,
            "max_memory": self.max_memory,
            "cut_lines": [list(line) for line in self.cut_lines],
            "dead_ends": [{"where": w, "line": list(line)} for w, line in self.dead_ends],
            "errors": [{"error": e, "line": list(line)} for e, line in self.errors],
            "longest_chain": self.longest_chain,
            "longest_chain_line": list(self.longest_chain_line),
            "endings": [e.as_dict() for e in self.ranked()],
            "seconds": round(self.seconds, 4),
            "states_per_second": round(self.rate),
        }


class _Judge:
    """Decides, for a table reached from ``root``, whether play has ended and how."""

    def __init__(self, game: Game, root: Table) -> None:
        self.game = game
        self.root = root
        self.base = len(root.outcomes)
        self.in_battle = root.battle is not None
        self.active = root.active
        self.zones = {**{u.id: u.zone for u in root.units.values()}, **{c.id: c.zone for c in root.cards.values()}}
        self.words = {u.id: u.state_words() for u in root.units.values()}

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
            card = t.cards.get(o.source)
            unit = t.units.get(o.unit or "")
            if card is not None:
                name = card.name
            elif o.source == "attack":
                name = f"attack of {unit.name if unit else o.unit}"
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
        return Ending(self.results(t), tuple(sorted(zones)), tuple(sorted(units)))


def explore(
    game: Game,
    depth: int | None = DEFAULT_DEPTH,
    *,
    dedup: bool = True,
    max_states: int | None = DEFAULT_BUDGET,
    max_memory: int | None = None,
    source: str = "<table>",
    position: str = "table",
) -> Report:
    """Every legal line of play from the game's current table, up to ``depth`` moves.

    ``depth=None`` (the default) plays every line until it ends, depth first: memory then
    holds the visited digests and the tables of the current line only, not a whole level of
    tables.  With a depth bound the search goes breadth first, so every line is cut at the
    same depth.  Both visit the same tables and count the same moves.

    ``max_states`` is the budget (None: none): exploring stops once that many tables were
    visited.  ``max_memory`` (bytes of the process's resident memory) stops it too.  Either
    way the report is partial and says so (``Report.stopped_by``).  The game is left exactly
    as it was found.  With ``dedup=False`` every line is played out separately (a plain
    tree search; only useful to measure what deduplication saves).
    """
    if depth is not None and depth < 0:
        raise BadInput(f"depth must be 0 or more, not {depth}")
    if max_states is not None and max_states < 1:
        raise BadInput(f"the budget (--max-states) must be 1 or more tables, not {max_states}")
    began = time.perf_counter()
    saved = game.snapshot()
    search = _Search(game, dedup, max_states, max_memory, source, position, depth)
    try:
        search.run()
    finally:
        game.restore(saved)
    search.report.seconds = time.perf_counter() - began
    return search.report


class _Search:
    """One exploration: the visited digests, the counts, and the two ways to walk the lines."""

    MEMORY_EVERY = 256  # tables expanded between two looks at the process's memory

    def __init__(
        self,
        game: Game,
        dedup: bool,
        max_states: int | None,
        max_memory: int | None,
        source: str,
        position: str,
        depth: int | None,
    ) -> None:
        self.game, self.dedup, self.max_states, self.max_memory, self.depth = (
            game, dedup, max_states, max_memory, depth
        )  # fmt: skip
        self.root = game.table.copy()
        self.judge = _Judge(game, self.root)
        self.report = Report(source, position, depth, dict(game.variants.changed()), budget=max_states)
        self.report.max_memory = max_memory
        self.log_length = len(game.log)
        self.seen: set[int] = {self.digest(self.root)}
        self.expanded = 0

    def digest(self, t: Table) -> int:
        return hash((t.key(), self.judge.results(t)))

    def run(self) -> None:
        report, root = self.report, self.root
        report.states = 1
        report.longest_chain = len(root.chain)
        if self.judge.ended(root):
            _record_ending(report, self.judge, root, None)
            return
        pending = self.depth_first() if self.depth is None else self.breadth_first(self.depth)
        report.cut = len(pending)
        report.cut_lines = [_moves(line) for _, line in pending[:CUT_EXAMPLES]]

    def breadth_first(self, depth: int) -> list[tuple[Table, Line]]:
        """Level by level; returns the tables left unexpanded (cut)."""
        frontier: list[tuple[Table, Line]] = [(self.root, None)]
        for _ in range(depth):
            following: list[tuple[Table, Line]] = []
            for n, (table, line) in enumerate(frontier):
                if self.must_stop():
                    return following + frontier[n:]  # never expanded: counted with the lines cut
                following += list(self.children(table, line))
            frontier = following
            if not frontier:
                break
        return frontier

    def depth_first(self) -> list[tuple[Table, Line]]:
        """One line at a time: a stack of tables whose moves are being tried, each child made
        only when its turn comes, so memory holds one table per move of the current line."""
        stack: list[tuple[Table, Line, Iterator[tuple[Table, Line]]]] = []
        table, line = self.root, None
        while True:
            if self.must_stop():  # the tables whose moves were not all tried are the lines cut
                return [(t, ln) for t, ln, _ in reversed(stack)] + [(table, line)]
            stack.append((table, line, self.children(table, line)))
            while stack:
                child = next(stack[-1][2], None)
                if child is not None:
                    table, line = child
                    break
                stack.pop()
            else:
                return []

    def must_stop(self) -> bool:
        report = self.report
        if self.max_states is not None and report.states >= self.max_states:
            report.stopped_by = "budget"
        elif (
            self.max_memory is not None
            and self.expanded % self.MEMORY_EVERY == 0
            and _resident_bytes() >= self.max_memory
        ):
            report.stopped_by = "memory"
        self.expanded += 1
        report.truncated = report.stopped_by is not None
        return report.truncated

    def children(self, table: Table, line: Line) -> Iterator[tuple[Table, Line]]:
        """Play every legal move from ``table``; yields the new tables where play goes on."""
        game, report = self.game, self.report
        game.table = table
        legal = game.legal_moves()
        if not legal:
            where = " / ".join(str(v) for v in game.flow.configuration_values)
            report.dead_ends.append((where, _moves(line)))
            return
        for move in legal:
            game.table = table.copy()
            report.moves += 1
            try:
                game.apply(move, atomic=False)  # we hold the copy: no undo snapshot needed
            except Exception as err:  # a legal move the engine cannot play: report, go on
                report.errors.append((f"{type(err).__name__}: {err}", (*_moves(line), str(move))))
                continue
            finally:
                del game.log[self.log_length :]
            child = game.table
            if self.dedup:
                key = self.digest(child)
                if key in self.seen:
                    report.revisits += 1
                    continue
                self.seen.add(key)
            report.states += 1
            node: Line = (str(move), line)
            if len(child.chain) > report.longest_chain:
                report.longest_chain = len(child.chain)
                report.longest_chain_line = _moves(node)
            if self.judge.ended(child):
                _record_ending(report, self.judge, child, node)
            else:
                yield child, node


def _resident_bytes() -> int:
    """The process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _record_ending(report: Report, judge: _Judge, t: Table, line: Line) -> None:
    report.ended += 1
    ending = judge.ending(t)
    known = report.endings.get(ending.signature)
    if known is None:
        ending.line = _moves(line)
        known = report.endings[ending.signature] = ending
    elif _length(line) < len(known.line):  # depth first finds a longer line first sometimes
        known.line = _moves(line)
    known.tables += 1


def _length(line: Line) -> int:
    n = 0
    while line is not None:
        n, line = n + 1, line[1]
    return n


# ---------------------------------------------------------------- scenarios and variants
def _game_at(path: str | Path, position: str, settings: Mapping[str, Any]) -> Game:
    """The scenario's game at its start or end, with its own variants changed by ``settings``."""
    from .scenario import load, play

    if position not in ("start", "end"):
        raise BadInput(f"position must be start or end, not {position!r}")
    game, _ = load(path)
    overrides = _expand(game, settings)
    if position == "start":
        return load(path, overrides=overrides)[0] if overrides else game
    return play(path, overrides=overrides, expectations=False).game


def _expand(game: Game, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Settings, with presets of the scenario's rules (``[variant.NAME]``) spelled out."""
    out: dict[str, Any] = {}
    for name, value in settings.items():
        if name in game.rules.presets and value is True:
            out.update(game.rules.presets[name].settings)
        elif name not in BY_NAME:
            presets = ", ".join(game.rules.presets) or "none in this scenario's rules"
            raise BadInput(f"{name!r} is neither a rule variant (see `fsm variants`) nor a preset ({presets})")
        else:
            out[name] = value
    Variants(out)  # unknown names and values are refused with the variant's own message
    return out


def explore_file(
    path: str | Path,
    *,
    position: str = "start",
    variants: Mapping[str, Any] | None = None,
    depth: int | None = DEFAULT_DEPTH,
    dedup: bool = True,
    max_states: int | None = DEFAULT_BUDGET,
    max_memory: int | None = None,
) -> Report:
    """Explore a scenario file from its start (before its moves) or its end (after them)."""
    game = _game_at(path, position, variants or {})
    return explore(
        game, depth, dedup=dedup, max_states=max_states, max_memory=max_memory, source=str(path), position=position
    )


@dataclass
class Comparison:
    """The same position explored under two sets of rule variants.

    Only complete lines are compared: an ending seen on one side and missing on the other
    is a *difference* only if the side that lacks it explored every line to its end.  If
    that side was cut (by the depth bound or the budget), the ending may simply lie beyond
    the cut; it is listed under :meth:`unsettled` instead, with what cut it.
    """

    setting: dict[str, Any]
    base: Report
    other: Report

    @property
    def only_base(self) -> list[Ending]:
        """Endings seen as is and not with the setting (whether or not that side was cut)."""
        return [e for k, e in self.base.endings.items() if k not in self.other.endings]

    @property
    def only_other(self) -> list[Ending]:
        """Endings seen with the setting and not as is (whether or not that side was cut)."""
        return [e for k, e in self.other.endings.items() if k not in self.base.endings]

    @property
    def complete(self) -> bool:
        return self.base.complete and self.other.complete

    def _change(self) -> str:
        return ", ".join(f"{k}={_word(v)}" for k, v in self.setting.items())

    def metric_changes(self) -> list[str]:
        """The numbers that differ (tables visited, endings, dead ends ...).

        Empty unless both sides are complete: the counts of a cut exploration say where the
        cut fell, not what the rules allow.
        """
        if not self.complete:
            return []
        out = []
        for label, attr in _METRICS:
            a, b = getattr(self.base, attr), getattr(self.other, attr)
            if a != b:
                out.append(f"{label}: {_word(a)} → {_word(b)}")
        return out

    def outcome_changes(self) -> list[str]:
        """What can happen under one setting and not under the other, in plain English.

        Only what the side lacking it could not reach with every line played to its end.
        """
        change = self._change()
        out = []
        a_set, b_set = self.base.outcome_set(), self.other.outcome_set()
        if self.base.complete:
            out += [f"only with {change}: {r}" for r in sorted(b_set - a_set)]
        if self.other.complete:
            out += [f"only without {change}: {r}" for r in sorted(a_set - b_set)]
        if self.base.complete:
            out += [f"ending only with {change}: {e.describe()}" for e in self.only_other]
        if self.other.complete:
            out += [f"ending only without {change}: {e.describe()}" for e in self.only_base]
        return out

    def unsettled(self) -> list[str]:
        """Endings seen on one side only, where the other side was cut: not differences (yet)."""
        change = self._change()
        out = []
        if not self.base.complete:
            out += [f"seen only with {change}: {e.describe()}" for e in self.only_other]
        if not self.other.complete:
            out += [f"seen only without {change}: {e.describe()}" for e in self.only_base]
        return out

    def cuts(self) -> list[str]:
        """What the depth bound or the budget cut, per side (empty when both are complete)."""
        out = []
        for label, r in (("as is", self.base), (self._change(), self.other)):
            if not r.complete:
                out.append(f"{label}: {r.cut_reason()}")
                out += [f"    e.g. {' · '.join(line) or '(the start)'}" for line in r.cut_lines]
        return out

    def differences(self) -> list[str]:
        """Everything that differs between complete lines (empty if nothing does)."""
        return self.metric_changes() + self.outcome_changes()

    def as_dict(self) -> dict[str, Any]:
        return {
            "setting": self.setting,
            "complete": self.complete,
            "base": self.base.as_dict(),
            "other": self.other.as_dict(),
            "differences": self.differences(),
            "unsettled": self.unsettled(),
            "cuts": self.cuts(),
        }


_METRICS = (
    ("states visited", "states"),
    ("moves played", "moves"),
    ("end tables", "ended"),
    ("distinct endings", "distinct"),
    ("dead ends", "dead_end_count"),
    ("engine errors", "error_count"),
    ("lines cut", "cut"),
    ("longest chain", "longest_chain"),
)


def compare(
    path: str | Path,
    setting: Mapping[str, Any],
    *,
    position: str = "start",
    variants: Mapping[str, Any] | None = None,
    depth: int | None = DEFAULT_DEPTH,
    max_states: int | None = DEFAULT_BUDGET,
    max_memory: int | None = None,
) -> Comparison:
    """Explore a scenario twice: as it is (plus ``variants``), and with ``setting`` changed too."""
    bounds: dict[str, Any] = {"position": position, "depth": depth, "max_states": max_states, "max_memory": max_memory}
    base = explore_file(path, variants=variants, **bounds)
    other = explore_file(path, variants={**(variants or {}), **setting}, **bounds)
    return Comparison(dict(setting), base, other)


# ---------------------------------------------------------------- text
def _word(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def format_report(report: Report, lines: int = 20) -> str:
    """A summary a person can read: the numbers, then one row per distinct ending."""
    variants = ", ".join(f"{k}={_word(v)}" for k, v in report.variants.items()) or "defaults"
    out = [
        f"explore {report.source} ({report.position}, {_bounds(report)}, variants: {variants})",
        f"  states visited   {report.states:>8,}   (moves played {report.moves:,}, revisits {report.revisits:,})",
        f"  end tables       {report.ended:>8,}   ({len(report.endings)} distinct endings)",
        f"  dead ends        {len(report.dead_ends):>8,}",
        f"  lines cut        {report.cut:>8,}   ({report.cut_reason()}{_HINT[report.cut_by]})",
        f"  longest chain    {report.longest_chain:>8,}"
        + (f"   e.g. {' · '.join(report.longest_chain_line)}" if report.longest_chain_line else ""),
        f"  time             {report.seconds:>8.3f} s ({report.rate:,.0f} states/s)",
    ]
    if report.errors:
        out.append(f"  ENGINE ERRORS    {len(report.errors):>8,}")
        for err, line in report.errors[:5]:
            out.append(f"    {err}  after: {' · '.join(line)}")
    for where, line in report.dead_ends[:5]:
        out.append(f"    dead end at {where} after: {' · '.join(line) or '(the start)'}")
    if report.endings:
        out.append("")
        out.append(f"endings ({len(report.endings)}), most end tables first:")
        for n, e in enumerate(report.ranked()[:lines], 1):
            out.append(f"  {n:>2}. [{e.tables} table{'s' if e.tables != 1 else ''}] {e.describe()}")
            out.append(f"      e.g. {' · '.join(e.line) or '(the start)'}")
        if len(report.endings) > lines:
            out.append(f"  ... and {len(report.endings) - lines} more (--json lists them all)")
    return "\n".join(out)


def format_comparison(cmp: Comparison) -> str:
    change = cmp._change()
    width = max(len(label) for label, _ in _METRICS)
    out = [
        f"compare {cmp.base.source} ({cmp.base.position}, {_bounds(cmp.base)}): as is vs. {change}",
        f"  {'':<{width}}  {'as is':>10}  {change}",
    ]
    for label, attr in _METRICS:
        out.append(f"  {label:<{width}}  {_word(getattr(cmp.base, attr)):>10}  {_word(getattr(cmp.other, attr))}")
    changes = cmp.outcome_changes()
    out.append("")
    if changes:
        out.append("what can happen differently (between complete lines):")
        out += [f"  - {c}" for c in changes]
    elif cmp.metric_changes():
        out.append("the same endings are reachable; only the number of ways there differs.")
    elif cmp.complete:
        out.append("no difference.")
    else:
        out.append("no difference between complete lines.")
    if cmp.cuts():
        out.append("")
        out.append("cut (not compared: an ending missing on a cut side may lie beyond the cut):")
        out += [f"  {c}" for c in cmp.cuts()]
        unsettled = cmp.unsettled()
        if unsettled:
            out.append(f"seen on one side only, the other side cut ({len(unsettled)}; raise --depth or --max-states):")
            out += [f"  - {u}" for u in unsettled[:10]]
            if len(unsettled) > 10:
                out.append(f"  ... and {len(unsettled) - 10} more (--json lists them all)")
    return "\n".join(out)


_HINT = {None: "", "budget": "; raise --max-states", "memory": "; raise --max-memory", "depth": "; raise --depth"}


def _bounds(report: Report) -> str:
    depth = "no depth bound" if report.depth is None else f"depth {report.depth}"
    budget = "no budget" if report.budget is None else f"budget {report.budget:,} tables"
    return f"{depth}, {budget}"


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def parse_memory(text: str) -> int:
    """``"500M"`` → bytes (K, M, G: binary units; a bare number is bytes)."""
    t = text.strip().upper().removesuffix("B")
    number, unit = (t[:-1], t[-1]) if t[-1:] in _UNITS else (t, "")
    try:
        value = float(number) * _UNITS[unit]
    except ValueError:
        raise BadInput(f"--max-memory takes a size such as 500M or 2G, not {text!r}") from None
    if value <= 0:
        raise BadInput(f"--max-memory must be more than 0, not {text!r}")
    return int(value)


def parse_settings(texts: Iterable[str]) -> dict[str, Any]:
    """``["counters_between_resolutions=true", "rest_open"]`` → settings.

    A bare name that is not a rule variant is kept as the name of a preset
    (``[variant.NAME]`` in a designer's file), checked when the scenario's rules are known.
    """
    out: dict[str, Any] = {}
    for text in texts:
        name = text.partition("=")[0].strip()
        if "=" not in text and name not in BY_NAME:
            out[name] = True
            continue
        key, value = parse_assignment(text)
        out[key] = value
    return out
