"""How the explorer remembers the tables it has visited: by 64-bit digest, compactly.

A Python ``set`` of new ints costs about 100 bytes per digest (the int object, its slot, the
slack), and a ``dict`` of digest → depth more.  :class:`DigestMap` keeps the digests
themselves, 8 bytes each, in flat ``array('q')`` tables with open addressing, and an optional
small number beside each (a depth, a count of moves) in a parallel array.  A segment doubles
when it is 3/4 full, so a set costs 11–21 bytes a digest (17.5 in benchmarks/run.py's row
(b)), and 16–32 with an ``'i'`` value beside each.

The digests are split by their top bits into :data:`SEGMENTS` segments that grow one at a
time, so that growing never holds two copies of the whole set, only of one segment.

:class:`Visits` is what a worker's share of a split exploration sends back (fsm.explore.parallel):
per digest, the moves played from the table and what it showed, merged across workers so
that each table counts once.  :class:`Claims` is the digest table the worker processes on
one machine share, so that a table one worker has taken on is not explored by another.
"""

from __future__ import annotations

import multiprocessing
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: Segments (a power of two): the top bits of a digest choose its segment.
SEGMENTS = 64
_SEGMENT_SHIFT = 64 - (SEGMENTS.bit_length() - 1)
#: Slots per segment at the start (a power of two); a segment doubles past 3/4 full.
START_SLOTS = 16
#: 0 marks an empty slot, so the digest 0 is stored as 1 (one more way for two tables to
#: share a digest, beside the 2**-64 of any two).
EMPTY = 0


class DigestMap:
    """A set of 64-bit digests, or with ``values`` (an ``array`` type code such as ``'i'``) a
    map from digest to a small integer.  ``add``/``in`` for a set; ``get``/``[d] = v`` for a map."""

    __slots__ = ("_keys", "_values", "_used", "_count")

    def __init__(self, digests: Iterable[int] = (), values: str | None = None) -> None:
        self._keys = [array("q", bytes(8 * START_SLOTS)) for _ in range(SEGMENTS)]
        self._values = [array(values, [0]) * START_SLOTS for _ in range(SEGMENTS)] if values else None
        self._used = [0] * SEGMENTS
        self._count = 0
        self.update(digests)

    def _find(self, d: int) -> tuple[int, int, bool]:
        """(segment, slot, whether the digest is there): its slot, or the empty one it would take."""
        s = (d >> _SEGMENT_SHIFT) & (SEGMENTS - 1)
        keys = self._keys[s]
        mask = len(keys) - 1
        i = d & mask
        while True:
            k = keys[i]
            if k == d:
                return s, i, True
            if k == EMPTY:
                return s, i, False
            i = (i + 1) & mask

    def add(self, d: int) -> bool:
        """Remember ``d``; whether it is new."""
        d = d or 1
        s, i, found = self._find(d)
        if found:
            return False
        self._put(s, i, d)
        return True

    def update(self, digests: Iterable[int]) -> None:
        for d in digests:
            self.add(d)

    def __contains__(self, d: object) -> bool:
        return isinstance(d, int) and self._find(d or 1)[2]

    def get(self, d: int, default: int | None = None) -> int | None:
        assert self._values is not None, "a DigestMap made without values is a set"
        s, i, found = self._find(d or 1)
        return self._values[s][i] if found else default

    def __setitem__(self, d: int, value: int) -> None:
        assert self._values is not None, "a DigestMap made without values is a set"
        d = d or 1
        s, i, found = self._find(d)
        if not found:
            i = self._put(s, i, d)  # growing keeps the segment, perhaps not the slot
        self._values[s][i] = value

    def _put(self, s: int, i: int, d: int) -> int:
        """Store a new digest at its empty slot; returns its slot after any growing."""
        keys = self._keys[s]
        keys[i] = d
        self._used[s] += 1
        self._count += 1
        if self._used[s] * 4 > len(keys) * 3:
            self._grow(s)
            return self._find(d)[1]
        return i

    def _grow(self, s: int) -> None:
        old_keys = self._keys[s]
        old_values = self._values[s] if self._values is not None else None
        keys = self._keys[s] = array("q", bytes(16 * len(old_keys)))
        if old_values is not None:
            assert self._values is not None
            values = self._values[s] = array(old_values.typecode, [0]) * len(keys)
        mask = len(keys) - 1
        for n, d in enumerate(old_keys):
            if d == EMPTY:
                continue
            i = d & mask
            while keys[i] != EMPTY:
                i = (i + 1) & mask
            keys[i] = d
            if old_values is not None:
                values[i] = old_values[n]

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        for keys in self._keys:
            yield from (d for d in keys if d != EMPTY)

    def items(self) -> Iterator[tuple[int, int]]:
        assert self._values is not None, "a DigestMap made without values is a set"
        for keys, values in zip(self._keys, self._values, strict=True):
            yield from ((d, v) for d, v in zip(keys, values, strict=True) if d != EMPTY)

    @property
    def nbytes(self) -> int:
        """The bytes its arrays hold (what grows with the tables visited)."""
        arrays = self._keys + (self._values or [])
        return sum(a.itemsize * len(a) for a in arrays)


#: Moves recorded for a table that was reached but not (yet) expanded.
NOT_EXPANDED = -1


@dataclass
class Visits:
    """Per digest, what each visited table contributed to a report: the moves played from it
    (:data:`NOT_EXPANDED` if none yet), and its ending, engine errors and dead end if any.
    Tables two workers both reached count once when their visits are merged."""

    moves: DigestMap = field(default_factory=lambda: DigestMap(values="i"))
    endings: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    errors: dict[int, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    dead_ends: dict[int, tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    def reached(self, d: int, ending: tuple[Any, ...] | None) -> None:
        self.moves[d] = NOT_EXPANDED
        if ending is not None:
            self.endings[d] = ending

    def merge(self, other: Visits) -> None:
        """Take in another part's visits: a table expanded there counts as expanded here."""
        for d, moves in other.moves.items():
            known = self.moves.get(d)
            if known is None or known < moves:
                self.moves[d] = moves
        # a table's ending, errors and dead end are the same wherever it was played
        for d, ending in other.endings.items():
            self.endings.setdefault(d, ending)
        for d, errors in other.errors.items():
            self.errors.setdefault(d, errors)
        for d, dead_end in other.dead_ends.items():
            self.dead_ends.setdefault(d, dead_end)


class Claims:
    """A digest table in memory shared by the worker processes of one machine.

    A worker claims each new table before exploring it; a table another worker claimed is
    left to that worker, which explores all that follows it.  Claims may be lost (the table
    is full around a digest, or two workers write one slot at once); a lost claim only means
    that two workers explore the same table, and the merge of their :class:`Visits` counts
    it once.  So the results never depend on the claims, only the time does.
    """

    PROBES = 16  # slots looked at before giving up a claim

    def __init__(self, slots: int = 1 << 22, context: Any = None) -> None:
        assert slots & (slots - 1) == 0, "a power of two"
        self.raw = (context or multiprocessing).RawArray("q", slots)  # zeroed: every slot empty
        self._view: memoryview | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"raw": self.raw}  # the view is this process's own

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.raw, self._view = state["raw"], None

    def claim(self, d: int) -> bool:
        """Whether this worker should explore the table: nobody had claimed it."""
        view = self._view
        if view is None:
            view = self._view = memoryview(self.raw).cast("B").cast("q")
        d = d or 1
        mask = len(view) - 1
        i = d & mask
        for _probe in range(self.PROBES):
            k = view[i]
            if k == d:
                return False
            if k == EMPTY:
                view[i] = d
                return True
            i = (i + 1) & mask
        return True  # no room near it: explore it, perhaps twice
