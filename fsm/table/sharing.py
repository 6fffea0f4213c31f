"""Copy-on-write parts of a table: units, cards and geos that copies share until one changes.

A :class:`~fsm.table.model.Table` copy (every move's undo snapshot, every table the explorer
visits) used to copy every unit and card; a move changes one or two.  Now the copy and the
original share every part, and a table copies a part only when it writes it, or reads it
while playing a move (a move may write what it reads: its card, its user, its target).

How sharing stays safe:

* Each table holds a :class:`Lease`; its :class:`SharedDict` containers hand the lease to the
  parts put in them.  A part may be written while its lease is valid: it then belongs to
  one table only.
* :meth:`Table.copy` ends the lease (both tables now share every part, so none may be
  written in place) and gives each table a new one.  A write to a part whose lease ended
  raises :class:`SharedPart` (never a silent change to the other table).
* Inside ``with table.writing():`` (:meth:`fsm.engine.game.Game.apply` plays every move so),
  reading a shared part through the table's containers copies it first, so the move's own
  code writes to ``table.units[x]`` as before and every reference it holds stays current.
  Outside, reads copy nothing (legal moves, the explorer's judge, drawing), and
  ``table.units.edit(x)`` copies one part for writing.
* Each part keeps its fingerprint (:meth:`Shared.key`) until it is written: every write asks
  :meth:`Shared._check_write` first, which drops it.  :meth:`Table.key` recomputes only the
  parts the last move wrote.

Nothing inside a part changes in place: a unit's skill pools are immutable
(:class:`~fsm.rules.skills.SkillPool` of :class:`~fsm.rules.skills.Skills`) and its declared
abilities a ``frozenset``, so a change is a new value put in a field, which the guard above
sees, and a copy of a part shares every value in it.  A new field of a part must be immutable
too (a tuple, a frozenset, a frozen dataclass).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar


class SharedPart(RuntimeError):
    """A write to a part another table shares (see the module docstring for what to do)."""


class Lease:
    """One table's right to write the parts it holds; ``writing`` counts open ``writing()`` blocks."""

    __slots__ = ("valid", "writing")

    def __init__(self, writing: int = 0) -> None:
        self.valid = True
        self.writing = writing


class Shared:
    """A unit, card or geo: refuses writes once shared, keeps its fingerprint until written.

    Subclasses are dataclasses and define :meth:`fingerprint` (what the rules can see).
    ``_lease`` and ``_key`` live in the instance's ``__dict__`` beside the fields (not fields
    themselves, so equality and ``repr`` are the dataclass's own).
    """

    _lease: Lease | None = None  # None: in no table yet, free to write
    _key: Any = None
    _derived: Any = None  # what the rules derive from the part alone (its free skills), kept as _key is

    def __setattr__(self, name: str, value: Any) -> None:
        self._check_write(name)
        object.__setattr__(self, name, value)

    def _check_write(self, what: str) -> None:
        """Every write to the part or a container inside it asks here first."""
        lease = self._lease
        if lease is not None and not lease.valid:
            name = getattr(self, "id", None) or getattr(self, "name", "?")
            raise SharedPart(
                f"cannot change {what} of {name}: this {type(self).__name__.lower()} is shared with a copy of its "
                f"table (an undo snapshot or an explored line); change it inside `with table.writing():`, or take "
                f"a copy of your own with table.<units|cards|geos>.edit({name!r})"
            )
        d = self.__dict__
        d["_key"] = d["_derived"] = None  # about to change: what was kept of it goes

    def fingerprint(self) -> Any:
        raise NotImplementedError

    def key(self) -> Any:
        """:meth:`fingerprint`, kept until the part is written (:meth:`_check_write` drops it)."""
        k = self._key
        if k is None:
            k = self.fingerprint()
            if self._lease is not None:  # bound: every write inside reaches _check_write
                self.__dict__["_key"] = k
        return k

    def copy_for(self, lease: Lease | None) -> Any:
        """A copy that ``lease`` may write (None: a free copy), sharing only frozen data."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # the kept fingerprint too: same content
        new.__dict__["_lease"] = lease
        return new


P = TypeVar("P", bound=Shared)


class SharedDict(dict[str, P], Generic[P]):
    """A table's units, cards or geos by id: a dict whose parts are copied on write.

    Reads behave as a plain dict's.  Putting a part in adopts it (one already in another
    table is copied); :meth:`edit` returns the part this table may write.
    """

    __slots__ = ("_lease",)

    def __init__(self, lease: Lease | None = None, items: Mapping[str, P] | Iterable[tuple[str, P]] = ()) -> None:
        super().__init__()
        self._lease = lease or Lease()
        self.update(items)

    def fork(self, lease: Lease) -> SharedDict[P]:
        """The same parts under another table's lease (the caller ends the old one)."""
        new: SharedDict[P] = SharedDict.__new__(SharedDict)
        dict.update(new, self)
        new._lease = lease
        return new

    def edit(self, key: str) -> P:
        """The part at ``key``, copied first if other tables share it: this table may write it."""
        part = dict.__getitem__(self, key)
        if part._lease is not self._lease:
            part = part.copy_for(self._lease)
            dict.__setitem__(self, key, part)
        return part

    def __setitem__(self, key: str, part: P) -> None:
        if part._lease is None:
            part.__dict__["_lease"] = self._lease
        elif part._lease is not self._lease:
            part = part.copy_for(self._lease)
        dict.__setitem__(self, key, part)

    def update(self, items: Any = (), /, **more: P) -> None:
        for key, part in dict(items, **more).items():
            self[key] = part

    def setdefault(self, key: str, default: P) -> P:
        if key not in self:
            self[key] = default
        return self[key]

    # reading inside ``table.writing()`` copies what is shared (a move may write what it reads)
    def __getitem__(self, key: Any) -> P:
        part = dict.__getitem__(self, key)
        if self._lease.writing and part._lease is not self._lease:
            return self.edit(key)
        return part

    def get(self, key: str, default: Any = None) -> Any:
        part = dict.get(self, key)
        if part is None:
            return default
        if self._lease.writing and part._lease is not self._lease:
            return self.edit(key)
        return part

    def values(self) -> Any:
        if self._lease.writing:
            return [self[k] for k in self]
        return dict.values(self)

    def items(self) -> Any:
        if self._lease.writing:
            return [(k, self[k]) for k in self]
        return dict.items(self)

    def look(self, key: str, default: Any = None) -> Any:
        """The part as it is, never copied, even inside ``writing()``: for code that only reads it
        (a recheck's guard), so that a move copies only what it may write."""
        return dict.get(self, key, default)

    def peek(self) -> Iterator[P]:
        """The parts as they are, never copied (for fingerprints)."""
        return iter(dict.values(self))

    def __reduce__(self) -> Any:
        return (_rebuild, (dict(dict.items(self)),))


def _rebuild(items: dict[str, P]) -> SharedDict[P]:
    return SharedDict(None, {k: p.copy_for(None) for k, p in items.items()})
