"""The counter chain (反撃): who may answer, and when the chain resolves.

``CounterChain`` is the window every countered procedure opens (ACT-5, COST-4, SD-5, SC-5)::

    empty ─open_window→ priority_opponent ─pass_priority→ priority_declarer ─pass_priority→ resolving
                          ↑  counter ↲                        │ counter
                          └───────────────────────────────────┘

* ``priority_opponent``: the opponent of whoever declared the newest item is asked first
  (TIM-CTR-2, SC-5).  A counter puts a new item on top, so priority moves to the
  opponent of *its* declarer; either player may counter, the declarer's side included
  (ACT-5).
* ``priority_declarer``: the opponent passed; now the newest item's own side may add a
  counter (a self-counter) or pass too.  Two passes in a row close the window.
* ``resolving``: items resolve newest first, each with its own recheck (TIM-CTR-3).  With
  the rule variant ``counters_between_resolutions`` the window opens again after each
  resolution while items remain.

Like the procedures, the machine's state lives on the table (``Table.chain_state``).  Who
holds priority is not stored anywhere else: :func:`priority` reads it from that state and the
newest item (:data:`PRIORITY`).  The table (``fsm.table``, a layer below) stores only the state
name; what the machine needs from its host is the small protocol below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from statemachine import State, StateChart

#: What each event and guard means, for diagrams: (Japanese, English, clause).  A ``!name``
#: entry is how the negated guard reads.
MEANINGS: dict[str, tuple[str, str, str]] = {
    "open_window": ("反撃受付開始", "open the counter window", "TIM-CTR-1"),
    "counter": ("反撃", "counter", "TIM-CTR-2"),
    "pass_priority": ("パス", "pass", "TIM-CTR-2"),
    "resolve_next": ("新しい順に解決", "resolve the newest item", "TIM-CTR-3"),
    "items_remain": ("チェーンに残りあり", "items remain", "TIM-CTR-3"),
    "!items_remain": ("チェーンが空", "chain is empty", "TIM-CTR-3"),
    "reopen_between_resolutions": (
        "変種：解決の間に反撃可",
        "variant on: the window reopens",
        "TIM-CTR-3",
    ),
    "!reopen_between_resolutions": (
        "既定：解決の間に反撃なし",
        "default: no window between",
        "TIM-CTR-3",
    ),
}


#: Who may counter in each state of the window, relative to the newest item's declarer
#: (TIM-CTR-2); in every other state nobody has priority.
PRIORITY: dict[str, str] = {"priority_opponent": "opponent", "priority_declarer": "declarer"}


class Declared(Protocol):
    @property
    def declarer(self) -> str: ...


class ChainView(Protocol):
    """What priority is read from: the chain machine's state and the items on the chain."""

    @property
    def chain_state(self) -> Any: ...
    @property
    def chain(self) -> Sequence[Declared]: ...
    def opponent(self, player: str) -> str: ...


class Variants(Protocol):
    @property
    def counters_between_resolutions(self) -> bool: ...


class Host(Protocol):
    """What the table-level machines need from the game: its table and the variants in force."""

    @property
    def table(self) -> Any: ...
    @property
    def variants(self) -> Variants: ...


def priority(table: ChainView) -> str | None:
    """Who may counter now (TIM-CTR-2), read from the chain machine's state; None: nobody."""
    role = PRIORITY.get(str(table.chain_state))
    if role is None or not table.chain:
        return None
    declarer = table.chain[-1].declarer
    return declarer if role == "declarer" else table.opponent(declarer)


class TableSlot:
    """Model for the table-level machines: reads and writes one field of the table."""

    __slots__ = ("game", "field", "state_path")

    def __init__(self, game: Host, field: str) -> None:
        self.game = game
        self.field = field
        self.state_path = f"game.table.{field}"  # what `state` reads (the compiled runner reads it so)

    @property
    def state(self) -> Any:
        return getattr(self.game.table, self.field)

    @state.setter
    def state(self, value: Any) -> None:
        setattr(self.game.table, self.field, value)


class CounterChain(StateChart):
    """The [反撃] window and last-in-first-out resolution (TIM-CTR-1..3)."""

    allow_event_without_transition = False
    catch_errors_as_events = False

    empty = State("チェーンなし / empty", initial=True)
    priority_opponent = State("反撃の優先権：相手 / opponent may counter")
    priority_declarer = State("反撃の優先権：宣言者側 / declarer's side may counter")
    resolving = State("解決 / resolving")

    open_window = empty.to(priority_opponent)
    counter = priority_opponent.to(priority_opponent) | priority_declarer.to(priority_opponent)
    pass_priority = priority_opponent.to(priority_declarer) | priority_declarer.to(resolving)
    resolve_next = (
        resolving.to(empty, unless="items_remain")
        | resolving.to(priority_opponent, cond=["items_remain", "reopen_between_resolutions"])
        # Both "items remain" edges carry the variant's guard, so exactly one of them applies.
        | resolving.to(resolving, cond="items_remain", unless="reopen_between_resolutions")
    )

    def __init__(self, game: Host) -> None:
        self.game = game
        super().__init__(model=TableSlot(game, "chain_state"))

    @property
    def priority(self) -> str | None:
        return priority(self.game.table)

    def items_remain(self) -> bool:
        return bool(self.game.table.chain)

    def reopen_between_resolutions(self) -> bool:
        return bool(self.game.variants.counters_between_resolutions)
