"""The two kinds of refusal a rules reader meets.

* :class:`RuleViolation` — a move the rules forbid where the game stands.  It always
  names the clause (``SC-4``, ``ACT-2`` ...) and says, in plain English, which cards and
  units are involved.  A refused move never changes the table.
* :class:`BadInput` — something that is not a move or a card at all: an unknown skill
  symbol, a negative count, a unit that does not exist, a malformed file.  It says where
  (file, line, key) and what to do instead.
"""

from __future__ import annotations


class RuleViolation(Exception):
    """A move the rules forbid. ``clause`` is the catalogue ID the refusal follows."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{message} ({clause})")
        self.clause = clause
        self.message = message


class BadInput(ValueError):
    """Malformed input: not a rules question, a typo.  ``where`` locates it (file:line, key)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where
