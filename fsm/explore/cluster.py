"""Exploring on a Dask cluster (``fsm explore --dask ADDRESS`` or ``--dask local:N``).

The work is shared out as ``--jobs`` does: this process plays the first moves breadth first
until there are a few unfinished tables per worker (:func:`fsm.explore.parallel.split_start`),
and deals them out as *seeds*, the moves that reach each one, which a share replays.  Each
Dask worker holds one :class:`Share` (a Dask actor), which is dealt every n-th seed; a share
that has run out of its own takes an untouched seed from another share, as a ``--jobs`` worker
takes the next task.  All that follows a seed stays with the share that took it (tables never
cross the network).

How the workers share which tables are claimed, in a way that holds across machines: digests
are *partitioned by owner*.  Share ``i`` of ``n`` owns the digests ``d % n == i`` and keeps
their claims (one :class:`fsm.explore.visited.DigestMap`, about 17 bytes a table).  A child a
share makes is claimed at once if the share owns it, with no round trip; otherwise its digest
is *offered* to its owner, which grants it to the first share that asked and refuses it to
every other, then and later.  The shares talk to each other directly: each one explores in
one long call (:meth:`Share.run`, in the actor's thread) and sends its offers every
:data:`BATCH` seconds without waiting for the answer, while the owner answers on its worker's
event loop (:meth:`Share.claim` is a coroutine, which Dask runs there), whatever its own search
is doing.  A child waits where it was made until the answer comes, a round trip later.  This
process only deals the seeds at the start and, for the progress line and the budget, asks the
shares their counts every :data:`TICK` seconds.  A share whose stack, offers and seeds are all
spent, and that finds no untouched seed elsewhere, is done: nothing can give it work again.

Why this way: the shared digest table of ``--jobs`` needs one machine; asking about each table
as it comes costs a round trip per table, more than expanding it; the first version went level
by level, and every level waited for its slowest share (a third of its speed lost); the second
had this process carry every offer between slices of a fifth of a second, and its children
waited a slice or two, its calls cost this process's CPU (0.755x of ``--jobs 2`` on one
2-core machine).  Only digests and seeds travel, and no share depends on memory another holds.

A share's children that another share was granted are still *recorded* where they were made
(their :class:`fsm.explore.visited.Visits`), so every share's visits merge into the counts of
``--jobs 1`` exactly as ``--jobs`` does (:func:`fsm.explore.parallel.merge`).

The actors carry the scenario's content (the file and the designer files its ``rules:`` names),
not its path, so a worker on another machine, or in another directory, reads the same scenario.
The first failure ends the run: every share is told to stop, every actor is cancelled, and the
error is said in one line (BadInput: no traceback, exit 2).  Ctrl-C ends it too, with the
report so far (the shares' own if they answer within :data:`INTERRUPTED_WAIT`, else the tables
counted here).  Dask is imported only here, and only when asked for
(``pip install 'fsm-timing-rules[dask]'``).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import tempfile
import threading
import time
from array import array
from collections import deque
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

#: Seconds to wait, after Ctrl-C or a failure, for the shares to stop and send their counts.
INTERRUPTED_WAIT = 1.0

#: Seconds a share expands between two sends of its offers: its children wait about this long,
#: plus a round trip, for their answers, while it expands the rest (or begins its next seed); each
#: send is a message to every owner, whose handling stalls the share's own thread a little.
BATCH = 0.2
#: Seconds between two looks at Ctrl-C, the progress line and the budget.
TICK = 0.2
#: Seconds a share waits for an owner's answer before it calls the owner lost.
ANSWER_WAIT = 60.0

#: A seed as it travels: the moves from the scenario's position, and the digest of the table they reach.
Seed = tuple[tuple[str, ...], int]

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


#: Whether ``local:N`` forks its workers from this process (where the system can fork).
FORKS = "fork" in multiprocessing.get_all_start_methods()


class Share:
    """One worker's part (a Dask actor): a stack of tables to expand, its seeds, the claims of the
    digests it *owns* (``digest % count == index``), and the children it made that another share
    owns, waiting for that owner's answer.

    :meth:`run` explores in the actor's thread until the share has nothing left; the coroutines
    (:meth:`claim`, :meth:`take_seed`, :meth:`counts`, :meth:`stop`) run on the worker's event loop
    meanwhile, so an owner answers at once whatever its own search is doing.  ``claimed`` and
    ``owned`` are shared by the two threads, under ``lock``."""

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
        seeds: list[Seed],
        stable: bool = True,
    ) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="fsm-share-")
        for rel, text in files.items():
            target = Path(self.folder.name) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        self.game = game_at(Path(self.folder.name) / name, position, variants)
        self.root = self.game.table.copy()
        self.report = Report(name, position, None, {})
        self.search = Search(self.game, Judge(self.game, self.root), self.report, self.root, record=True, stable=stable)
        self.machines, self.index, self.count = machines, index, count
        self.lock = threading.Lock()
        self.owned = DigestMap()  # the digests of this share's partition that some share was granted
        for digest in claimed:  # the split's tables: expanded by it, or a seed's start
            self.owned.add(digest)
        self.claimed = 0  # digests granted here (to this share or another): the budget's count
        self.seeds = list(reversed(seeds))  # dealt to this share and not begun, the next one last
        self.stack: list[Node] = []  # tables to expand, last in first out
        self.offered: dict[int, Node] = {}  # children another share owns, waiting for its answer
        self.stopped = False

    def run(self, peers: list[Any]) -> tuple[Visits, Report]:
        """Explore from this share's seeds, then from seeds taken from ``peers`` (every share's
        actor, in index order), until nothing is left or :meth:`stop`; returns what each table gave."""
        asked: deque[tuple[Any, list[int]]] = deque()  # offers sent, and the digests each asks for
        with playing(self.game, self.machines):
            while not self.stopped:
                if not self.stack and (seed := self._own_seed()) is not None:
                    self._begin(seed)  # rather than wait for the answers
                self._take_answers(asked, wait=not self.stack)
                if not self.stack and not asked:
                    seed = self._seed_from(peers)
                    if seed is None:
                        break
                    self._begin(seed)
                for owner, digests in self._expand(BATCH).items():
                    asked.append((peers[owner].claim(packed(digests)), digests))
        assert self.search.visits is not None
        return self.search.visits, self.report

    def _expand(self, seconds: float) -> dict[int, list[int]]:
        """Expand depth first for about ``seconds``: the offers to make, by owner."""
        offers: dict[int, list[int]] = {}
        deadline = time.perf_counter() + seconds
        stack, offered, owned, lock, index, count = (
            self.stack, self.offered, self.owned, self.lock, self.index, self.count
        )  # fmt: skip
        while stack and time.perf_counter() < deadline:
            for child in self.search.children(*stack.pop()):
                d = child[2]
                owner = d % count
                if owner != index:
                    offered[d] = child
                    offers.setdefault(owner, []).append(d)
                    continue
                with lock:
                    new = owned.add(d)
                    self.claimed += new
                if new:
                    stack.append(child)
        return offers

    def _take_answers(self, asked: deque[tuple[Any, list[int]]], wait: bool) -> None:
        """Keep what the owners granted (on the stack) and drop what they refused; with ``wait``
        (nothing else to do), wait for the oldest answer first."""
        while asked and (wait or asked[0][0].done()):
            future, digests = asked.popleft()
            granted = set(unpacked(future.result(timeout=ANSWER_WAIT)))
            for d in digests:
                child = self.offered.pop(d)
                if d in granted:
                    self.stack.append(child)
            wait = False

    def _own_seed(self) -> Seed | None:
        with self.lock:  # take_seed() may give one away meanwhile
            return self.seeds.pop() if self.seeds else None

    def _seed_from(self, peers: list[Any]) -> Seed | None:
        """An untouched seed taken from another share (None: none has one left)."""
        for i in range(1, self.count):
            seed = peers[(self.index + i) % self.count].take_seed().result(timeout=ANSWER_WAIT)
            if seed is not None:
                return tuple(seed[0]), seed[1]
        return None

    def _begin(self, seed: Seed) -> None:
        moves, digest = seed
        self.game.table = self.root.copy()
        line = replay(self.game, moves, self.machines)
        if self.search.digest(self.game.table) != digest:
            raise RuntimeError(f"replaying {' · '.join(moves)} did not reach the table the split saw")
        self.search.seen.add(digest)
        self.stack.append((self.game.table, line, digest))

    async def claim(self, digests: bytes) -> bytes:
        """As the owner: which of ``digests`` (:func:`packed`) are granted (never claimed before); the
        others are refused, now and later."""
        with self.lock:
            granted = [d for d in unpacked(digests) if self.owned.add(d)]
            self.claimed += len(granted)
        return packed(granted)

    async def take_seed(self) -> Seed | None:
        """A seed this share has not begun, for a share that has run out (None: none left)."""
        with self.lock:
            return self.seeds.pop(0) if self.seeds else None

    async def counts(self) -> tuple[int, int]:
        """The digests granted here so far, and the tables on the stack and waiting for answers."""
        return self.claimed, len(self.stack) + len(self.offered)

    async def stop(self) -> None:
        """End :meth:`run` after the batch it is in (the budget, Ctrl-C, another share's failure)."""
        self.stopped = True


def packed(digests: list[int]) -> bytes:
    """Digests as they travel: 8 bytes each (Dask would serialize a list of numbers one by one,
    which cost an owner's event loop more than answering)."""
    return array("q", digests).tobytes()


def unpacked(data: bytes) -> list[int]:
    return array("q", data).tolist()


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
    split and those granted by the shares, all shares together."""
    began = time.perf_counter()
    game = game_at(path, position, variants or {})  # bad input is said here, before any cluster starts
    report = Report(str(path), position, None, dict(game.variants.changed()), budget=max_states)
    files, name = bundle(path)
    client, cluster = _connect(address)
    try:
        workers = sorted(client.scheduler_info()["workers"])
        n = len(workers)
        if not n:  # the split's tables alone would read as a whole exploration
            raise BadInput(
                _("the Dask cluster at {address} has no workers yet: start some, or use --dask local:N").format(
                    address=address
                )
            )
        # hash() digests only where every worker was forked from this process (local:N): they hash
        # strings with its seed, and None at its address; elsewhere BLAKE2 (fsm.explore.search)
        stable = cluster is None or not FORKS
        split, frontier = split_start(game, str(path), position, n, machines, stable=stable)
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
                n,
                [d for d in split.seen if d % n == i],
                seeds[i::n],
                stable,
                actor=True,
                workers=[w],
                pure=False,
            )  # fmt: skip
            for i, w in enumerate(workers)
        ]
        try:
            shares = [f.result() for f in futures]
            runs = [s.run(shares) for s in shares]
            parts = _wait(shares, runs, report, max_states, split.report.states, progress)
            heard = report.states
            assert split.visits is not None
            merge(report, [(split.visits, split.report), *parts])
            report.per_worker = [part.expanded for _visits, part in parts] or None
            if not parts:  # interrupted, and the shares did not answer in time: what was last heard
                report.states = max(report.states, heard)
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


def _wait(
    shares: list[Any],
    runs: list[Any],
    report: Report,
    max_states: int | None,
    counted: int,
    progress: Progress | None,
) -> list[tuple[Visits, Report]]:
    """Until every share's :meth:`Share.run` has returned: each share's visits and report.

    Every :data:`TICK` it looks at Ctrl-C and, for the progress line or the budget, at the shares'
    counts (``report.states``: with ``counted``, the split's tables).  The budget spent, the shares are stopped
    and the report marked cut.  The first failure stops every share and is raised.  After Ctrl-C,
    the shares' own reports if they come within :data:`INTERRUPTED_WAIT` ([] if not: the report
    then counts what this process last heard)."""
    try:
        while not all(r.done() for r in runs):
            time.sleep(TICK)
            for r in runs:
                if r.done():
                    r.result()  # a share's failure is raised here, at once
            if progress is None and max_states is None:
                continue  # nothing to show or to stop on: the shares are not asked
            counts = [s.counts().result(timeout=ANSWER_WAIT) for s in shares]
            report.states = counted + sum(c for c, _left in counts)
            if progress is not None:
                progress.tick(report.states)
            if max_states is not None and report.states >= max_states and not report.stopped_by:
                report.stopped_by, report.truncated = "budget", True
                report.cut = max(sum(left for _c, left in counts), 1)
                _stop(shares)
    except KeyboardInterrupt:
        _stop(shares)
        report.stopped_by, report.truncated, report.cut = "interrupted", True, 1
        with contextlib.suppress(Exception, KeyboardInterrupt):  # for the count, should the reports not come
            report.states = counted + sum(s.counts().result(timeout=INTERRUPTED_WAIT)[0] for s in shares)
        try:
            return [r.result(timeout=INTERRUPTED_WAIT) for r in runs]
        except (Exception, KeyboardInterrupt):
            return []
    except Exception:
        _stop(shares)
        raise
    return [r.result() for r in runs]


def _stop(shares: list[Any]) -> None:
    """Tell every share to stop, and wait (briefly) until each has heard it."""
    stopping = [s.stop() for s in shares]
    for f in stopping:
        with contextlib.suppress(Exception):  # a lost worker: nothing to stop there
            f.result(timeout=INTERRUPTED_WAIT)


def _connect(address: str) -> tuple[Any, Any]:
    """A Dask client for ``address`` (and the ``LocalCluster`` made for ``local:N``, else None)."""
    try:
        from distributed import Client
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
    cluster = local_cluster(int(n))
    return Client(cluster), cluster


def local_cluster(workers: int) -> Any:
    """The ``LocalCluster`` of ``--dask local:N``: single-threaded worker processes on 127.0.0.1,
    without the workers' profiler (it samples every thread's stack a hundred times a second for
    Dask's dashboard and ``client.profile()``, which nobody reads here: 2-3% of a share's CPU).

    The workers are started ignoring Ctrl-C, as ``--jobs`` workers do: a terminal sends it to every
    process of the command, and each worker would print its own KeyboardInterrupt traceback; this
    process stops them itself, with the report so far.  (A Ctrl-C while they start is ignored too.)"""
    import dask
    from distributed import LocalCluster

    here = threading.current_thread() is threading.main_thread()  # where a handler may be set
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if here else None
    settings: dict[str, Any] = {"distributed.worker.profile.enabled": False}
    if FORKS:  # the workers share this process's hashing: digests by hash(), as --jobs's forked workers
        settings["distributed.worker.multiprocessing-method"] = "fork"
    try:
        with dask.config.set(settings):
            return LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address="127.0.0.1:0",  # Dask's HTTP server on a free port (None meant 8787, or a warning)
                silence_logs=logging.CRITICAL,  # a worker stopped mid-level by Ctrl-C logs its lost scheduler
            )  # fmt: skip
    finally:
        if here:
            signal.signal(signal.SIGINT, previous)
