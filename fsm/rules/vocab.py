"""A vocabulary word and what it means, kept in one place: the :class:`Registry`.

The rules files (kinds.toml, scenarios) are written in words — a price ``act``, an effect
``strip`` — and each word means one thing on the table.  A registry holds, per word, its
Japanese and English label (for diagrams and messages), the clause it follows, the function
that does it and any data its kind of word needs (whether an effect may be always in
effect, AUTO-4, say).  Adding a word is one :meth:`Registry.register`; the loader, the
engine and the diagrams all read the registry, so nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from fsm.errors import BadInput
from fsm.i18n import _, did_you_mean

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Entry(Generic[F]):
    """One word: how it reads, the clause it follows, what it does."""

    key: str
    ja: str
    en: str
    clause: str
    function: F
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def labels(self) -> tuple[str, str]:
        return self.ja, self.en


class Registry(Generic[F]):
    """The words of one vocabulary (``what`` names it in messages: "effect", "price")."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: dict[str, Entry[F]] = {}

    def register(self, key: str, *, ja: str, en: str, clause: str, **data: Any) -> Callable[[F], F]:
        """Decorator: the function below is what ``key`` does."""

        def add(function: F) -> F:
            if key in self._entries:
                raise ValueError(f"{self.what} {key!r} is registered twice")
            if not (ja and en and clause):
                raise ValueError(f"{self.what} {key!r} needs a ja label, an en label and a clause")
            self._entries[key] = Entry(key, ja, en, clause, function, dict(data))
            return function

        return add

    def unregister(self, key: str) -> None:
        """Take a word out again (a notebook or a test that tried one for a while)."""
        self._entries.pop(key, None)

    def check(self, key: object, where: str = "") -> Entry[F]:
        """The entry of ``key``; a word not registered is refused, listing the words there are."""
        entry = self._entries.get(key) if isinstance(key, str) else None
        if entry is None:
            message = _("unknown {what} {key!r}; {what}s: {known}")
            hint = did_you_mean(key, self._entries) if isinstance(key, str) else ""
            raise BadInput(message.format(what=_(self.what), key=key, known=", ".join(self._entries)) + hint, where)
        return entry

    def __getitem__(self, key: str) -> Entry[F]:
        return self.check(key)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self) -> list[Entry[F]]:
        return list(self._entries.values())

    def labels(self) -> dict[str, tuple[str, str]]:
        """Every word's (Japanese, English) label, for diagrams and messages."""
        return {key: entry.labels for key, entry in self._entries.items()}
