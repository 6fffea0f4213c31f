"""The explorer: every legal line of play from a table, until each line ends.

From any table — a scenario's start (:func:`fsm.scenarios.playing.load`) or its end
(:func:`fsm.scenarios.playing.play`) — the explorer plays every legal move, then every legal move
after each of those, and so on, using only the engine's public surface (``legal_moves`` /
``apply``; the walk itself is :mod:`fsm.explore.search`).  Two lines that reach the same table are
explored once: each table is remembered by a 64-bit digest of :meth:`fsm.table.model.Table.key`
together with what has resolved or fizzled since the start.

What "play has ended" means here (a line that ends is not played further):

* the exploration started in a battle, and that battle is over (back in the main phase,
  FLOW-END, FLOW-CLEANUP); or
* the exploration started in a main phase, and that main phase has passed to the other
  player with nothing left on the chain (TIM-MF).

By default every line is played until it ends; only a stated bound cuts one: ``depth``
(moves per line), the budget ``max_states`` (tables, :data:`DEFAULT_BUDGET`) or
``max_memory``.  The :class:`Report` says how many distinct tables were visited, every
distinct *ending* (which declared items resolved or fizzled —
:attr:`fsm.table.model.Table.outcomes` — and which zones and unit states differ from the start),
the *dead ends* (nobody has a legal move, yet play has not ended: a bug in the rules data
or the engine), the lines *cut* and what cut them, and the longest chain seen.
:func:`compare` runs the same position under a changed rule variant and lists what
differs between complete lines, and apart from that what a cut left unsettled.

The command line: ``python -m fsm explore FILE [--variant NAME=VALUE] [--compare
NAME=VALUE] [--depth N] [--max-states N] [--max-memory SIZE] [--jobs N] [--end] [--json]``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.explore.parallel import explore_parallel
from fsm.explore.position import game_at
from fsm.explore.progress import Progress, in_a_notebook
from fsm.explore.report import Ending, Judge, Report, result_text
from fsm.explore.search import Search
from fsm.i18n import N_, _, display_width, language
from fsm.rules.variants import BY_NAME, endless, parse_assignment
from fsm.table.moves import written

__all__ = ["Comparison", "Ending", "Report", "compare", "explore", "explore_file", "format_comparison", "format_report"]

#: No depth bound by default: lines are played until they end, or until the budget of
#: tables runs out (then the report says so, and what it cut).
DEFAULT_DEPTH: int | None = None
DEFAULT_BUDGET = 200_000


def explore(
    game: Game,
    depth: int | None = DEFAULT_DEPTH,
    *,
    dedup: bool = True,
    max_states: int | None = DEFAULT_BUDGET,
    max_memory: int | None = None,
    source: str = "<table>",
    position: str = "table",
    machines: str = "compiled",
    breadth_first: bool = False,
    progress: Progress | None = None,
) -> Report:
    """Every legal line of play from the game's current table, up to ``depth`` moves.

    ``depth=None`` (the default) plays every line until it ends.  Either way the search goes
    depth first: memory holds the visited digests and the tables of the current line only,
    not a whole level of tables.  With a depth bound, a table reached again in fewer moves
    is explored again from there, so every line is cut at the same depth: the tables,
    moves, endings and cuts are those of a breadth-first walk (``breadth_first=True``,
    which holds a level of tables: kept to measure against, :mod:`benchmarks.run`).

    ``max_states`` is the budget (None: none): exploring stops once that many tables were
    visited.  ``max_memory`` (bytes of the process's resident memory) stops it too.  Either
    way the report is partial and says so (``Report.stopped_by``).  The game is left exactly
    as it was found.  With ``dedup=False`` every line is played out separately (a plain
    tree search; only useful to measure what deduplication saves).  ``machines`` says how the
    state machines run: ``"compiled"`` (their transition tables, :mod:`fsm.machines.compiled`) or
    ``"statecharts"`` (python-statemachine itself); the reports are the same.  ``progress``
    (:class:`fsm.explore.progress.Progress`) shows how far it has got while it works (in a
    notebook, by default, a widget).  Ctrl-C
    (``KeyboardInterrupt``) stops it with the report so far, marked ``stopped_by="interrupted"``.
    """
    if depth is not None and depth < 0:
        raise BadInput(_("depth must be 0 or more, not {depth}").format(depth=depth))
    if max_states is not None and max_states < 1:
        message = _("the budget (--max-states) must be 1 or more tables, not {count}")
        raise BadInput(message.format(count=max_states))
    began = time.perf_counter()
    progress = progress if progress is not None else in_a_notebook()
    saved = game.snapshot()
    root = game.table.copy()
    report = Report(source, position, depth, dict(game.variants.changed()), budget=max_states, max_memory=max_memory)
    search = Search(
        game, Judge(game, root), report, root,
        dedup=dedup, max_states=max_states, max_memory=max_memory, machines=machines, progress=progress,
    )  # fmt: skip
    try:
        search.run(depth, breadth_first)
    finally:
        game.restore(saved)
        if progress is not None:
            progress.close()
    search.report.seconds = time.perf_counter() - began
    return search.report


def explore_file(
    path: str | Path,
    *,
    position: str = "start",
    variants: Mapping[str, Any] | None = None,
    depth: int | None = DEFAULT_DEPTH,
    dedup: bool = True,
    max_states: int | None = DEFAULT_BUDGET,
    max_memory: int | None = None,
    jobs: int = 1,
    machines: str = "compiled",
    progress: Progress | None = None,
    dask: str | None = None,
) -> Report:
    """Explore a scenario file from its start (before its moves) or its end (after them).

    ``jobs`` > 1 shares the work out to that many processes (:mod:`fsm.explore.parallel`): the same
    tables, moves and endings as one; lines are then played to their end (no ``depth``).
    ``dask`` (a scheduler's address, or ``"local:N"``) runs it on a Dask cluster instead
    (:mod:`fsm.explore.cluster`), with the same results.
    """
    if (jobs != 1 or dask is not None) and (depth is not None or not dedup):
        raise BadInput(_("--jobs splits lines that are played to their end, each table once: leave out --depth"))
    progress = progress if progress is not None else in_a_notebook()
    if dask is not None:
        from fsm.explore.cluster import explore_on_dask

        return explore_on_dask(
            path, dask, position=position, variants=variants, max_states=max_states, machines=machines,
            progress=progress,
        )  # fmt: skip
    if jobs != 1:
        return explore_parallel(
            path, jobs, position=position, variants=variants, max_states=max_states, max_memory=max_memory,
            machines=machines, progress=progress,
        )  # fmt: skip
    game = game_at(path, position, variants or {})
    return explore(
        game, depth, dedup=dedup, max_states=max_states, max_memory=max_memory, source=str(path), position=position,
        machines=machines, progress=progress,
    )  # fmt: skip


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
                out.append(f"{_(label)}: {_word(a)} → {_word(b)}")
        return out

    def outcome_changes(self) -> list[str]:
        """What can happen under one setting and not under the other, in the chosen language.

        Only what the side lacking it could not reach with every line played to its end.
        """
        change = self._change()
        out = []
        a_set, b_set = self.base.outcome_set(), self.other.outcome_set()
        if self.base.complete:
            out += [
                _("only with {change}: {result}").format(change=change, result=result_text(r))
                for r in sorted(b_set - a_set)
            ]
        if self.other.complete:
            out += [
                _("only without {change}: {result}").format(change=change, result=result_text(r))
                for r in sorted(a_set - b_set)
            ]
        if self.base.complete:
            said = _("ending only with {change}: {ending}")
            out += [said.format(change=change, ending=e.describe()) for e in self.only_other]
        if self.other.complete:
            said = _("ending only without {change}: {ending}")
            out += [said.format(change=change, ending=e.describe()) for e in self.only_base]
        return out

    def unsettled(self) -> list[str]:
        """Endings seen on one side only, where the other side was cut: not differences (yet)."""
        change = self._change()
        out = []
        if not self.base.complete:
            said = _("seen only with {change}: {ending}")
            out += [said.format(change=change, ending=e.describe()) for e in self.only_other]
        if not self.other.complete:
            said = _("seen only without {change}: {ending}")
            out += [said.format(change=change, ending=e.describe()) for e in self.only_base]
        return out

    def cuts(self) -> list[str]:
        """What the depth bound or the budget cut, per side (empty when both are complete)."""
        out = []
        for label, r in ((_("as is"), self.base), (self._change(), self.other)):
            if not r.complete:
                out.append(f"{label}: {r.cut_reason()}")
                out += ["    " + _example(line) for line in r.cut_lines]
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
    (N_("states visited"), "states"),
    (N_("moves played"), "moves"),
    (N_("end tables"), "ended"),
    (N_("distinct endings"), "distinct"),
    (N_("dead ends"), "dead_end_count"),
    (N_("engine errors"), "error_count"),
    (N_("lines cut"), "cut"),
    (N_("longest chain"), "longest_chain"),
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
    jobs: int = 1,
    machines: str = "compiled",
    progress: Progress | None = None,
    dask: str | None = None,
) -> Comparison:
    """Explore a scenario twice: as it is (plus ``variants``), and with ``setting`` changed too."""
    bounds: dict[str, Any] = {
        "position": position, "depth": depth, "max_states": max_states, "max_memory": max_memory, "jobs": jobs,
        "machines": machines, "progress": progress, "dask": dask,
    }  # fmt: skip
    base = explore_file(path, variants=variants, **bounds)
    if base.stopped_by == "interrupted":  # Ctrl-C on the first side: the second is not started
        raise KeyboardInterrupt
    other = explore_file(path, variants={**(variants or {}), **setting}, **bounds)
    return Comparison(dict(setting), base, other)


# ---------------------------------------------------------------- text
def _word(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _pad(text: str, width: int) -> str:
    return text + " " * max(width - display_width(text), 0)


def _moves_text(line: Iterable[str]) -> str:
    """A line of moves as the move reader writes them in the chosen language."""
    return " · ".join(map(_move_text, line)) or _("(the start)")


def _move_text(move: str) -> str:
    return written(move, language()) or move  # not a move the reader knows: shown as it was recorded


def _example(line: Iterable[str]) -> str:
    return _("e.g. {line}").format(line=_moves_text(line))


def _row(label: str, number: str, extra: str = "", sep: str = "   ") -> str:
    """One line of the summary: the label, the number under the others, what it means."""
    return f"  {_pad(label, 17)}{number}" + (sep + extra if extra else "")


def format_report(report: Report, lines: int = 20) -> str:
    """A summary a person can read: the numbers, then one row per distinct ending."""
    variants = ", ".join(f"{k}={_word(v)}" for k, v in report.variants.items()) or _("defaults")
    head = _("explore {source} ({position}, {bounds}, variants: {variants})")
    longest = _example(report.longest_chain_line) if report.longest_chain_line else ""
    out = [
        head.format(source=report.source, position=_position(report), bounds=_bounds(report), variants=variants),
        _row(
            _("states visited"),
            f"{report.states:>8,}",
            _("(moves played {moves:,}, revisits {revisits:,})").format(moves=report.moves, revisits=report.revisits),
        ),
        _row(_("end tables"), f"{report.ended:>8,}", _("({count} distinct endings)").format(count=len(report.endings))),
        _row(_("dead ends"), f"{len(report.dead_ends):>8,}"),
        _row(_("lines cut"), f"{report.cut:>8,}", _("({reason})").format(reason=report.cut_reason() + _hint(report))),
        _row(_("longest chain"), f"{report.longest_chain:>8,}", longest),
        _row(_("time"), f"{report.seconds:>8.3f}", _("s ({rate:,.0f} states/s)").format(rate=report.rate), sep=" "),
    ]
    if warning := endless(report.variants):
        out.append("  " + warning)
    if report.errors:
        out.append(_row(_("ENGINE ERRORS"), f"{len(report.errors):>8,}"))
        for err, line in report.errors[:5]:
            out.append("    " + _("{error}  after: {line}").format(error=err, line=_moves_text(line)))
    for where, line in report.dead_ends[:5]:
        out.append("    " + _("dead end at {where} after: {line}").format(where=where, line=_moves_text(line)))
    if report.endings:
        out.append("")
        out.append(_("endings ({count}), most end tables first:").format(count=len(report.endings)))
        for n, e in enumerate(report.ranked()[:lines], 1):
            tables = _("[1 table]") if e.tables == 1 else _("[{count} tables]").format(count=e.tables)
            out.append(f"  {n:>2}. {tables} {e.describe()}")
            out.append("      " + _example(e.line))
        if len(report.endings) > lines:
            out.append(
                "  " + _("... and {count} more (--json lists them all)").format(count=len(report.endings) - lines)
            )
    return "\n".join(out)


def format_comparison(cmp: Comparison) -> str:
    change = cmp._change()
    labels = [_(label) for label, _attr in _METRICS]
    width = max(map(display_width, labels))
    as_is = _("as is")
    head = _("compare {source} ({position}, {bounds}): as is vs. {change}")
    out = [
        head.format(source=cmp.base.source, position=_position(cmp.base), bounds=_bounds(cmp.base), change=change),
        f"  {'':<{width}}  {' ' * max(10 - display_width(as_is), 0)}{as_is}  {change}",
    ]
    for label, (_label, attr) in zip(labels, _METRICS, strict=True):
        out.append(f"  {_pad(label, width)}  {_word(getattr(cmp.base, attr)):>10}  {_word(getattr(cmp.other, attr))}")
    changes = cmp.outcome_changes()
    out.append("")
    if changes:
        out.append(_("what can happen differently (between complete lines):"))
        out += [f"  - {c}" for c in changes]
    elif cmp.metric_changes():
        out.append(_("the same endings are reachable; only the number of ways there differs."))
    elif cmp.complete:
        out.append(_("no difference."))
    else:
        out.append(_("no difference between complete lines."))
    if cmp.cuts():
        out.append("")
        out.append(_("cut (not compared: an ending missing on a cut side may lie beyond the cut):"))
        out += [f"  {c}" for c in cmp.cuts()]
        unsettled = cmp.unsettled()
        if unsettled:
            said = _("seen on one side only, the other side cut ({count}; raise --depth or --max-states):")
            out.append(said.format(count=len(unsettled)))
            out += [f"  - {u}" for u in unsettled[:10]]
            if len(unsettled) > 10:
                out.append("  " + _("... and {count} more (--json lists them all)").format(count=len(unsettled) - 10))
    return "\n".join(out)


_HINT = {"budget": N_("; raise --max-states"), "memory": N_("; raise --max-memory"), "depth": N_("; raise --depth")}
#: Where an exploration starts, as the report's first line says it.
_POSITIONS = {"start": N_("start"), "end": N_("end"), "table": N_("table")}


def _hint(report: Report) -> str:
    hint = _HINT.get(report.cut_by or "")
    return _(hint) if hint else ""


def _position(report: Report) -> str:
    return _(_POSITIONS[report.position]) if report.position in _POSITIONS else report.position


def _bounds(report: Report) -> str:
    depth = _("no depth bound") if report.depth is None else _("depth {depth}").format(depth=report.depth)
    if report.budget is None:
        budget = _("no budget")
    elif report.shares:
        budget = _("budget {budget:,} tables for each of {shares:,} shares").format(
            budget=report.budget, shares=report.shares
        )
    else:
        budget = _("budget {budget:,} tables").format(budget=report.budget)
    return _("{depth}, {budget}").format(depth=depth, budget=budget)


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def parse_memory(text: str) -> int:
    """``"500M"`` → bytes (K, M, G: binary units; a bare number is bytes)."""
    t = text.strip().upper().removesuffix("B")
    number, unit = (t[:-1], t[-1]) if t[-1:] in _UNITS else (t, "")
    try:
        value = float(number) * _UNITS[unit]
    except ValueError:
        raise BadInput(_("--max-memory takes a size such as 500M or 2G, not {value!r}").format(value=text)) from None
    if value <= 0:
        raise BadInput(_("--max-memory must be more than 0, not {value!r}").format(value=text))
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
