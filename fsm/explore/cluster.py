"""Exploring on a Dask cluster (``fsm explore --dask ADDRESS`` or ``--dask local:N``).

The work is shared out as ``--jobs`` does: this process plays the first moves breadth first
until there are a few unfinished tables per worker (:func:`fsm.explore.parallel.split_start`),
and deals them out as *seeds*, the moves that reach each one, which its share replays.  A
seed's whole future stays with its share, so the shares are as busy as their seeds' futures
are large (a share that starts from nothing would stay idle: tables never move later).

How the workers share which tables are claimed, in a way that holds across machines: a
*level-synchronous* search whose claims are partitioned by digest.  Each Dask worker holds one
:class:`Share` (a Dask actor) with two roles:

* it expands the tables of its frontier (all of one level of the search) and keeps their
  children where they were made — tables never cross the network;
* it *owns* the digests ``d % shares == index``: every child digest of the level is sent to
  its owner, which grants it to the first share that asked (the order turns each level) and
  refuses it to every other share, and forever after.

Only 8-byte BLAKE2 digests travel (:meth:`fsm.explore.search.Search.digest` with ``stable``),
through this process, twice a level; no table is expanded by two shares, and no share
depends on memory shared with another, so it works the same on one machine or many.  A
shared in-memory table (:class:`fsm.explore.visited.Claims`, what ``--jobs`` uses) needs one
machine; per-table calls to an owner would cost a network round trip per table, more than
expanding it.  The price: each level ends with everyone waiting for the slowest share, and a
level of tables is held in memory (as breadth first does).

A share's children that another share was granted are still *recorded* where they were made
(their :class:`fsm.explore.visited.Visits`), so every share's visits merge into the counts of
``--jobs 1`` exactly as ``--jobs`` does (:func:`fsm.explore.parallel.merge`).

The actors carry the scenario's content (the file and the designer files its ``rules:`` names),
not its path, so a worker on another machine, or in another directory, reads the same scenario.
The first failure ends the run: no further level is started, every actor is cancelled (so no
share goes on), and the error is said in one line (BadInput: no traceback, exit 2).  Ctrl-C
ends it too, with the report so far (the shares' own if they answer within
:data:`INTERRUPTED_WAIT`, else the tables counted here).  Dask is imported only here, and only
when asked for (``pip install 'fsm-timing-rules[dask]'``).
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from fsm.errors import BadInput
from fsm.explore.parallel import merge, replay, split_start
from fsm.explore.position import game_at
from fsm.explore.progress import Progress
from fsm.explore.report import Judge, Node, Report, moves_of
from fsm.explore.search import Search, playing
from fsm.explore.visited import DigestMap, Visits
from fsm.i18n import _

#: Seconds to wait, after Ctrl-C, for the shares' counts (Ctrl-C must end the run within seconds).
INTERRUPTED_WAIT = 0.5

#: A scenario as it travels: its file's name → text, with the designer files it names beside it.
Bundle = dict[str, str]


def bundle(path: str | Path) -> tuple[Bundle, str]:
    """The scenario file and the ``rules:`` files it names (relative to it), and the scenario's name."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
    except (OSError, yaml.YAMLError):
        game_at(p, "start", {})  # the reader's own message, with file:line
        raise
    out = {p.name: text}
    rules = data.get("rules") if isinstance(data, Mapping) else None
    for name in [rules] if isinstance(rules, str) else rules or []:
        if isinstance(name, str) and (p.parent / name).is_file():
            out[name] = (p.parent / name).read_text(encoding="utf-8")
    return out, p.name


class Share:
    """One worker's part (a Dask actor): its frontier, its children of the level, and the claims it owns.

    It starts from ``seeds``, tables of the split (their moves from the scenario's position and
    their digests), which it replays; ``claimed`` are the split's digests in its partition, which
    no share is granted again."""

    def __init__(
        self,
        files: Bundle,
        name: str,
        position: str,
        variants: dict[str, Any],
        machines: str,
        index: int,
        count: int,
        seeds: list[tuple[tuple[str, ...], int]],
        claimed: list[int],
    ) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="fsm-share-")
        for rel, text in files.items():
            target = Path(self.folder.name) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        self.game = game_at(Path(self.folder.name) / name, position, variants)
        root = self.game.table.copy()
        self.report = Report(name, position, None, {})
        self.search = Search(self.game, Judge(self.game, root), self.report, root, record=True, stable=True)
        self.machines, self.index, self.count = machines, index, count
        self.owned = DigestMap()  # the digests of this share's partition that some share was granted
        for digest in claimed:
            self.owned.add(digest)
        self.frontier: list[Node] = []
        self.pending: list[Node] = []
        for moves, digest in seeds:
            self.game.table = root.copy()
            line = replay(self.game, moves, machines)
            if self.search.digest(self.game.table) != digest:
                raise RuntimeError(f"replaying {' · '.join(moves)} did not reach the table the split saw")
            self.search.seen.add(digest)
            self.frontier.append((self.game.table, line, digest))

    def expand(self) -> list[list[int]]:
        """Play every move of the frontier's tables; the new children's digests, by owner."""
        with playing(self.game, self.machines):
            for node in self.frontier:
                self.pending += self.search.children(*node)
        self.frontier = []
        out: list[list[int]] = [[] for _ in range(self.count)]
        for _table, _line, digest in self.pending:
            out[digest % self.count].append(digest)
        return out

    def claim(self, asked: list[list[int]]) -> list[list[int]]:
        """As the owner: for each share's list of digests, those granted to it (new ones, first come)."""
        return [[d for d in digests if self.owned.add(d)] for digests in asked]

    def keep(self, granted: list[int]) -> int:
        """The children granted to this share are its next frontier; the others are left to their owner's grantee."""
        mine = set(granted)
        self.frontier = [node for node in self.pending if node[2] in mine]
        self.pending = []
        return len(self.frontier)

    def advance(self, granted: list[int]) -> list[list[int]]:
        """:meth:`keep` then :meth:`expand`: one round trip a level instead of two."""
        self.keep(granted)
        return self.expand()

    def result(self) -> tuple[Visits, Report]:
        assert self.search.visits is not None
        return self.search.visits, self.report


def explore_on_dask(
    path: str | Path,
    address: str,
    *,
    position: str = "start",
    variants: Mapping[str, Any] | None = None,
    max_states: int | None = None,
    machines: str = "compiled",
    progress: Progress | None = None,
) -> Report:
    """Explore a scenario file to the end of every line on a Dask cluster (``local:N``: a new
    ``LocalCluster`` of N single-threaded worker processes).  The budget counts the tables of the
    split and those the shares were granted, all shares together."""
    began = time.perf_counter()
    game = game_at(path, position, variants or {})  # bad input is said here, before any cluster starts
    report = Report(str(path), position, None, dict(game.variants.changed()), budget=max_states)
    files, name = bundle(path)
    client, cluster = _connect(address)
    try:
        workers = sorted(client.scheduler_info()["workers"])
        count = len(workers)
        split, frontier = split_start(game, str(path), position, count, machines, stable=True)
        seeds = [(moves_of(line), digest) for _table, line, digest in frontier]
        futures = [
            client.submit(
                Share,
                files,
                name,
                position,
                dict(variants or {}),
                machines,
                i,
                count,
                seeds[i::count],
                [d for d in split.seen if d % count == i],
                actor=True,
                workers=[w],
                pure=False,
            )  # fmt: skip
            for i, w in enumerate(workers)
        ]
        try:
            shares = [f.result() for f in futures]
            parts, granted = _levels(shares, report, max_states, progress, split.report.states)
            assert split.visits is not None
            merge(report, [(split.visits, split.report), *parts])
            report.per_worker = [part.expanded for _visits, part in parts] or None
            if not parts:  # interrupted while the shares were busy: what this process counted
                report.states = granted
        except Exception as err:  # a share failed: release every actor, so that no other task goes on
            client.cancel(futures, force=True)
            if isinstance(err, BadInput):
                raise
            message = _("a Dask worker failed ({error}); the exploration stopped and its other tasks were cancelled")
            raise BadInput(message.format(error=f"{type(err).__name__}: {err}")) from None
    finally:
        if progress is not None:
            progress.close()
        client.close()
        if cluster is not None:
            cluster.close()
    report.shares = None
    report.seconds = time.perf_counter() - began
    return report


def _levels(
    shares: list[Any], report: Report, max_states: int | None, progress: Progress | None, counted: int
) -> tuple[list[tuple[Visits, Report]], int]:
    """Level after level, from the seeds, until no share has a table left (or the budget, or
    Ctrl-C); each share's visits and report, and the tables counted (``counted`` by the split,
    and those granted over all shares)."""
    count, level, granted_total = len(shares), 0, counted
    try:
        offers = [f.result() for f in [s.expand() for s in shares]]
        while True:
            turn = [(level + k) % count for k in range(count)]  # who asks first turns each level
            answers = [shares[o].claim([offers[s][o] for s in turn]) for o in range(count)]  # every owner at once
            granted: list[list[int]] = [[] for _ in range(count)]
            for answer in answers:
                for s, digests in zip(turn, answer.result(), strict=True):
                    granted[s] += digests
            sizes = [len(digests) for digests in granted]  # each is in its share's children once
            granted_total += sum(sizes)
            if progress is not None:
                progress.tick(granted_total, level)
            if not any(sizes):
                break
            if max_states is not None and granted_total >= max_states:
                report.stopped_by, report.truncated, report.cut = "budget", True, sum(sizes)
                break
            offers = [f.result() for f in [shares[s].advance(granted[s]) for s in range(count)]]
            level += 1
    except KeyboardInterrupt:
        report.stopped_by, report.truncated, report.cut = "interrupted", True, 1
        try:  # a share still busy with its level cannot answer: then the count kept here is the report
            return [s.result().result(timeout=INTERRUPTED_WAIT) for s in shares], granted_total
        except (Exception, KeyboardInterrupt):
            return [], granted_total
    return [s.result().result() for s in shares], granted_total


def _connect(address: str) -> tuple[Any, Any]:
    """A Dask client for ``address`` (and the ``LocalCluster`` made for ``local:N``, else None)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BadInput(_("--dask needs Dask: pip install 'fsm-timing-rules[dask]'")) from None
    if not address.startswith("local:"):
        try:
            return Client(address, timeout=10), None
        except OSError as err:
            message = _("cannot reach the Dask scheduler at {address}: {error}")
            raise BadInput(message.format(address=address, error=err)) from None
    n = address.removeprefix("local:")
    if not n.isdigit() or int(n) < 1:
        raise BadInput(_("--dask local:N takes a number of workers of 1 or more, not {value!r}").format(value=address))
    cluster = LocalCluster(
        n_workers=int(n), threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
        silence_logs=logging.CRITICAL,  # a worker stopped mid-level by Ctrl-C logs its lost scheduler
    )  # fmt: skip
    return Client(cluster), cluster
