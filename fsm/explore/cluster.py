"""Exploring on a Dask cluster (``fsm explore --dask ADDRESS`` or ``--dask local:N``).

The work is shared out as ``--jobs`` does: this process plays the first moves breadth first
until there are a few unfinished tables per worker (:func:`fsm.explore.parallel.split_start`),
and deals them out as *seeds*, the moves that reach each one, which a share replays.  Each
Dask worker holds one :class:`Share` (a Dask actor).  A share gets one seed to begin with and
the next one whenever it has nothing left, as a ``--jobs`` worker takes its next task; all
that follows a seed stays with the share that took it (tables never cross the network).

How the workers share which tables are claimed, in a way that holds across machines: digests
are *partitioned by owner*.  Share ``i`` of ``n`` owns the digests ``d % n == i`` and keeps
their claims (one :class:`fsm.explore.visited.DigestMap`, about 17 bytes a table).  A child a
share makes is claimed at once if the share owns it, with no round trip; otherwise its digest
is *offered* to its owner, which grants it to the first share that asked and refuses it to
every other, then and later, and the child waits where it was made until the answer comes.
A share works in slices of about :data:`SLICE` seconds (expanding depth first); between
slices this process, the Dask client, carries the offers to their owners and the answers back
(one thread here per share, each waiting on its own share's call: no share waits for another,
and an idle one is not called until it has mail).  Why this way: the shared digest table of
``--jobs`` needs one machine; a claim asked of another worker per table costs a round trip
per table, more than expanding it; the first version went level by level, and every level
waited for its slowest share (a third of its speed lost); claims kept by the client alone made
each share wait a round trip for every child, and cost the client a call every few tables.
Only digests and seeds travel, and no share depends on memory another holds.

A share's children that another share was granted are still *recorded* where they were made
(their :class:`fsm.explore.visited.Visits`), so every share's visits merge into the counts of
``--jobs 1`` exactly as ``--jobs`` does (:func:`fsm.explore.parallel.merge`).

The actors carry the scenario's content (the file and the designer files its ``rules:`` names),
not its path, so a worker on another machine, or in another directory, reads the same scenario.
The first failure ends the run: no share is called again, every actor is cancelled, and the
error is said in one line (BadInput: no traceback, exit 2).  Ctrl-C ends it too, with the
report so far (the shares' own if they answer within a slice and :data:`INTERRUPTED_WAIT`,
else the tables counted here).  Dask is imported only here, and only when asked for
(``pip install 'fsm-timing-rules[dask]'``).
"""

from __future__ import annotations

import logging
import tempfile
import threading
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

#: Seconds a share expands before it offers what it made (short: its children wait for the answer,
#: and Ctrl-C for the slice; long enough that a call's round trip is a small part of it).
SLICE = 0.2
#: Seconds between two looks at Ctrl-C and the progress line.
TICK = 0.2

#: A seed as it travels: the moves from the scenario's position, and the digest of the table they reach.
Seed = tuple[tuple[str, ...], int]

#: Offers carried to an owner: (the asking share, digests); its answer: (asker, granted, refused),
#: carried back as (granted, refused); what a :meth:`Share.work` call returns.
Asked = tuple[int, list[int]]
Answer = tuple[list[int], list[int]]
Worked = tuple[list[tuple[int, list[int], list[int]]], list[tuple[int, list[int]]], int, int]

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
    """One worker's part (a Dask actor): a stack of tables to expand, the claims of the digests
    it *owns* (``digest % count == index``), and the children it made that another share owns,
    waiting for that owner's answer.

    A child this share owns is claimed here and then, with no round trip; one another share owns
    is offered to it (through the client) and expanded here only if that owner grants it.  Each
    :meth:`work` call answers other shares' offers, takes the answers to this share's own, replays
    the seeds, and expands for about ``seconds``."""

    def __init__(
        self,
        files: Bundle,
        name: str,
        position: str,
        variants: dict[str, Any],
        machines: str,
        index: int,
        count: int,
        claimed: list[int],
    ) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="fsm-share-")
        for rel, text in files.items():
            target = Path(self.folder.name) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        self.game = game_at(Path(self.folder.name) / name, position, variants)
        self.root = self.game.table.copy()
        self.report = Report(name, position, None, {})
        self.search = Search(self.game, Judge(self.game, self.root), self.report, self.root, record=True, stable=True)
        self.machines, self.index, self.count = machines, index, count
        self.owned = DigestMap()  # the digests of this share's partition that some share was granted
        for digest in claimed:  # the split's tables: expanded by it, or a seed's start
            self.owned.add(digest)
        self.stack: list[Node] = []  # tables to expand, last in first out
        self.offered: dict[int, Node] = {}  # children another share owns, waiting for its answer

    def work(self, asked: list[Asked], answered: list[Answer], seeds: list[Seed], seconds: float) -> Worked:
        """Answer ``asked`` (other shares' offers of this share's digests: first come, first
        granted), keep what ``answered`` grants, replay ``seeds``, expand for about ``seconds``.

        Returns the answers (asker, granted, refused), the offers made (owner, digests), the
        tables left on the stack, and the digests newly claimed here (for the count)."""
        answers = [(q, *self.claim(digests)) for q, digests in asked]
        claimed = sum(len(granted) for _q, granted, _refused in answers)
        for granted, refused in answered:
            self.stack += [self.offered.pop(d) for d in granted]
            for d in refused:
                del self.offered[d]
        for moves, digest in seeds:
            self.game.table = self.root.copy()
            line = replay(self.game, moves, self.machines)
            if self.search.digest(self.game.table) != digest:
                raise RuntimeError(f"replaying {' · '.join(moves)} did not reach the table the split saw")
            self.search.seen.add(digest)
            self.stack.append((self.game.table, line, digest))
        offers: dict[int, list[int]] = {}
        deadline = time.perf_counter() + seconds
        with playing(self.game, self.machines):
            while self.stack and time.perf_counter() < deadline:
                for child in self.search.children(*self.stack.pop()):
                    d, owner = child[2], child[2] % self.count
                    if owner != self.index:
                        self.offered[d] = child
                        offers.setdefault(owner, []).append(d)
                    elif self.owned.add(d):
                        self.stack.append(child)
                        claimed += 1
        return answers, list(offers.items()), len(self.stack), claimed

    def claim(self, digests: list[int]) -> tuple[list[int], list[int]]:
        """As the owner: which of ``digests`` are granted (never claimed before) and which refused."""
        granted: list[int] = []
        refused: list[int] = []
        for d in digests:
            (granted if self.owned.add(d) else refused).append(d)
        return granted, refused

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
        split, frontier = split_start(game, str(path), position, len(workers), machines, stable=True)
        futures = [
            client.submit(
                Share,
                files,
                name,
                position,
                dict(variants or {}),
                machines,
                i,
                len(workers),
                [d for d in split.seen if d % len(workers) == i],
                actor=True,
                workers=[w],
                pure=False,
            )  # fmt: skip
            for i, w in enumerate(workers)
        ]
        try:
            shares = [f.result() for f in futures]
            seeds = [(moves_of(line), digest) for _table, line, digest in frontier]
            dealer = Dealer(shares, seeds, max_states, split.report.states)
            parts = dealer.run(report, progress)
            assert split.visits is not None
            merge(report, [(split.visits, split.report), *parts])
            report.per_worker = [part.expanded for _visits, part in parts] or None
            if not parts:  # interrupted while the shares were busy: what this process counted
                report.states = dealer.granted
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


class Dealer:
    """The client's side: it carries the offers to their owners and the answers back, deals the
    seeds, and keeps one thread per share, each waiting on its own share's call (none waits for
    another).

    A share gets one seed to begin with and another whenever its stack is empty, as a ``--jobs``
    worker takes its next task.  A share with nothing to expand and no mail waits here, without
    a call, until mail comes or the run ends.  ``counted``: the tables the split visited."""

    def __init__(self, shares: list[Any], seeds: list[Seed], max_states: int | None, counted: int) -> None:
        n = len(shares)
        self.shares, self.seeds, self.max_states = shares, list(reversed(seeds)), max_states
        self.granted = counted
        self.asked: list[list[Asked]] = [[] for _ in range(n)]  # per owner: offers to carry to it
        self.answered: list[list[Answer]] = [[] for _ in range(n)]  # per asker: answers to carry back
        self.left = [0] * n  # per share: tables on its stack after its last call
        self.waiting = [0] * n  # per share: its offers not yet answered
        self.calling = [False] * n
        self.changed = threading.Condition()
        self.stop = threading.Event()
        self.budget_spent = False
        self.error: BaseException | None = None

    def run(self, report: Report, progress: Progress | None) -> list[tuple[Visits, Report]]:
        """Until no share has a table left (or the budget, or Ctrl-C, or a failure): each share's
        visits and report ([] if, after Ctrl-C, they did not answer within a slice and
        :data:`INTERRUPTED_WAIT`)."""
        threads = [threading.Thread(target=self.serve, args=(i,), daemon=True) for i in range(len(self.shares))]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(TICK)  # short waits: Ctrl-C and the progress line are seen at once
                    if progress is not None:
                        progress.tick(self.granted)
        except KeyboardInterrupt:
            self.end()
            report.stopped_by, report.truncated, report.cut = "interrupted", True, 1
            try:  # a share still in its slice answers after it; if none does, the count kept here is the report
                return [f.result(timeout=SLICE + INTERRUPTED_WAIT) for f in [s.result() for s in self.shares]]
            except (Exception, KeyboardInterrupt):
                return []
        if self.error is not None:
            raise self.error
        if self.budget_spent:
            report.stopped_by, report.truncated, report.cut = "budget", True, sum(self.left) + sum(self.waiting)
        return [f.result() for f in [s.result() for s in self.shares]]  # asked of all at once

    def serve(self, i: int) -> None:
        """Share ``i``'s thread: carry its mail to it, and what it answers and offers to the others."""
        share = self.shares[i]
        try:
            while (mail := self.next_call(i)) is not None:
                answers, offers, left, claimed = share.work(*mail, SLICE).result()
                with self.changed:
                    for q, granted, refused in answers:
                        self.answered[q].append((granted, refused))
                        self.waiting[q] -= len(granted) + len(refused)
                    for owner, digests in offers:
                        self.asked[owner].append((i, digests))
                        self.waiting[i] += len(digests)
                    self.left[i], self.calling[i] = left, False
                    self.granted += claimed
                    if self.max_states is not None and self.granted >= self.max_states:
                        self.budget_spent = True
                        self.stop.set()
                    self.changed.notify_all()
        except BaseException as err:  # the first failure ends the run
            with self.changed:
                self.error = self.error or err
            self.end()

    def next_call(self, i: int) -> tuple[list[Asked], list[Answer], list[Seed]] | None:
        """What share ``i`` is sent next (its mail, and a seed if its stack is empty), once it has
        any; None when the run is over (nothing left anywhere, or stopped)."""
        with self.changed:
            while not self.stop.is_set():
                if self.left[i] == 0 and self.seeds:
                    seeds = [self.seeds.pop()]
                elif self.left[i] or self.asked[i] or self.answered[i]:
                    seeds = []
                elif not (any(self.left) or any(self.calling) or any(self.asked) or any(self.answered)):
                    self.changed.notify_all()  # the last one idle: wake the others, to end too
                    return None
                else:
                    self.changed.wait()
                    continue
                mail = (self.asked[i], self.answered[i], seeds)
                self.asked[i], self.answered[i], self.calling[i] = [], [], True
                return mail
            return None

    def end(self) -> None:
        self.stop.set()
        with self.changed:
            self.changed.notify_all()


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
