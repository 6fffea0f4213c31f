"""The two kinds of refusal a rules reader meets.

* :class:`RuleViolation` — a move the rules forbid where the game stands.  It always
  names the clause (``SC-4``, ``ACT-2`` ...) and says, in plain English, which cards and
  units are involved.  A refused move never changes the table.
* :class:`BadInput` — something that is not a move or a card at all: an unknown skill
  symbol, a negative count, a unit that does not exist, a malformed file.  It says where
  (file, line, key) and what to do instead.  One :class:`BadInput` may carry every problem
  of a file (:attr:`BadInput.problems`), gathered by :class:`Problems`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager


class RuleViolation(Exception):
    """A move the rules forbid. ``clause`` is the catalogue ID the refusal follows."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{message} ({clause})")
        self.clause = clause
        self.message = message


class BadInput(ValueError):
    """Malformed input: not a rules question, a typo.  ``where`` locates it (file:line, key).

    ``problems`` lists each problem when there are several (one line each in ``str()``); a single
    problem is its own list, and ``message`` / ``where`` are always the first problem's.
    """

    problems: tuple[BadInput, ...]

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where
        self.problems = (self,)

    @classmethod
    def of(cls, problems: Sequence[BadInput]) -> BadInput:
        """One refusal for several problems (the problem itself when there is one)."""
        if len(problems) == 1:
            return problems[0]
        first = problems[0]
        err = cls(first.message, first.where)
        err.args = ("\n".join(str(p) for p in problems),)
        err.problems = tuple(problems)
        return err

    def relocated(self, where: Callable[[BadInput], str]) -> BadInput:
        """The same problems, each placed by ``where`` (e.g. prefixed with the file)."""
        return BadInput.of([BadInput(p.message, where(p)) for p in self.problems])


#: How many problems of one file are reported at once: enough to fix a file in one go, few
#: enough that the first ones are still on the screen.
LIMIT = 20


class Problems:
    """Gathers the problems of a file's independent items, so that one run reports them all.

    Each item is read inside ``with problems.item():``; a :class:`BadInput` raised anywhere in
    it (however deep, by any reader) is kept and the reading goes on with the next item.
    :meth:`raise_all` then raises one :class:`BadInput` listing them, up to :data:`LIMIT`.
    """

    def __init__(self) -> None:
        self.found: list[BadInput] = []

    def __bool__(self) -> bool:
        return bool(self.found)

    @contextmanager
    def item(self) -> Iterator[None]:
        try:
            yield
        except BadInput as err:
            self.add(err)

    def add(self, err: BadInput) -> None:
        self.found += [p for p in err.problems if str(p) not in {str(q) for q in self.found}]

    def raise_all(self, more: Callable[[int], BadInput] | None = None) -> None:
        """Raise the problems found, if any.  Given ``more`` (the file's own reader, which reports),
        only the first :data:`LIMIT` are listed and ``more(n)`` says that ``n`` more are not."""
        if not self.found:
            return
        shown = self.found
        if more is not None and len(shown) > LIMIT:
            shown = [*shown[:LIMIT], more(len(shown) - LIMIT)]
        raise BadInput.of(shown) from None
