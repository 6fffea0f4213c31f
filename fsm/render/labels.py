"""How the state machines read to a rules reader: Japanese rule term, English word, clause.

A diagram never shows a Python name.  Every state, event, guard and action of a machine
becomes a :class:`Term` — the Japanese term of the rules page, the English word, and the
clause ID it follows — looked up in the meanings kept next to each machine:

* procedures (one per :class:`~fsm.spec.kinds.KindSpec`): :data:`PROCEDURE_EVENTS` here, and
  :data:`fsm.machines.procedures.MEANINGS` for guards and actions.  Their third field is a step of
  the spec (``recheck``, ``price``, ...), so the clause comes from the kind itself:
  "unit still 行動未完了" cites ACT-6 on 【行動】 and SD-6 on 【自爆】.  A fizzle edge reads
  as its reason (:data:`fsm.spec.kinds.WORDS`), e.g. "unit already 行動完了 (ACT-6)".
* any other machine: the ``MEANINGS`` dict of its module (:mod:`fsm.machines.chain`,
  :mod:`fsm.machines.battle`), whose third field is a clause ID.

State names are written ``"宣言 / declared"`` in the machines; they are split here.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from statemachine import StateChart

from fsm.machines.procedures import EVENTLESS_STEPS, GUARDS, MEANINGS, Procedure
from fsm.spec.kinds import CLAUSE_SLOTS, WORDS, KindSpec
from fsm.spec.prices import PRICES, free

Lang = Literal["ja", "en", "both"]
LANGS: tuple[str, ...] = ("ja", "en", "both")

#: The procedure events, by the step of the spec whose clause they follow (or a clause ID).
PROCEDURE_EVENTS: dict[str, tuple[str, str, str]] = {
    "declare": ("宣言", "declare", "declare"),
    "activate": ("自動発動", "activates by itself", "declare"),  # nobody declares it (AUTO-1)
    "open_window": ("反撃受付", "open the counter window", "window"),
    "skip_window": ("反撃受付なし", "no counter window", "window"),
    "close_window": ("新しい順に", "newest first", "TIM-CTR-3"),
    "resolve": ("発動", "resolve", "resolve"),
    "fizzle": ("不発", "fizzle", "recheck"),
}

#: When the price is paid (``KindSpec.price_paid``).
PAID_AT: dict[str, tuple[str, str]] = {
    "declare": ("宣言時", "at declaration"),
    "resolve": ("発動時", "at resolution"),
}

#: The partner check comes from 【同調】 itself, not from the kind it wraps.
SYNC_CLAUSE = "SYNC-1"


@dataclass(frozen=True)
class Term:
    """One thing on a diagram, as the rules page names it."""

    ja: str
    en: str
    clause: str = ""

    def words(self, lang: Lang) -> str:
        if lang == "ja" or self.ja == self.en:
            return self.ja
        if lang == "en":
            return self.en
        return f"{self.ja} {self.en}"

    def text(self, lang: Lang) -> str:
        """The words with the clause, e.g. ``宣言 declare (ACT-4)``."""
        words = self.words(lang)
        return f"{words} ({self.clause})" if self.clause else words


def state_term(name: str) -> Term:
    """``"宣言 / declared"`` → ``Term("宣言", "declared")``."""
    ja, _, en = str(name).partition(" / ")
    return Term(ja.strip(), (en or ja).strip())


def _humanised(name: str) -> Term:
    # Only for a callback nobody gave a meaning to; tests keep the built-in machines clear of it.
    words = name.replace("_", " ")
    return Term(words, words)


class Labeller:
    """The terms of one machine class (a compiled procedure, the chain, the flow, ...)."""

    def __init__(self, machine: type[StateChart]) -> None:
        self.spec: KindSpec | None = machine.spec if issubclass(machine, Procedure) else None
        self.meanings: Mapping[str, tuple[str, str, str]]
        if self.spec is not None:
            self.meanings = {**PROCEDURE_EVENTS, **MEANINGS}
        else:
            self.meanings = getattr(sys.modules.get(machine.__module__), "MEANINGS", {})

    def known(self, name: str) -> bool:
        return name.lstrip("!") in self.meanings or name in self.meanings

    def _clause(self, slot_or_clause: str) -> str:
        if self.spec is not None and slot_or_clause in CLAUSE_SLOTS:
            return self.spec.clause(slot_or_clause)
        return slot_or_clause

    def _term(self, name: str) -> Term:
        if name not in self.meanings:
            return _humanised(name)
        ja, en, where = self.meanings[name]
        return Term(ja, en, self._clause(where))

    def event(self, event_id: str) -> Term:
        return self._term(event_id)

    def eventless(self, target_id: str) -> Term:
        """A transition the machine takes by itself, named for the step it takes (procedures)."""
        return self._term(EVENTLESS_STEPS.get(target_id, target_id))

    def action(self, name: str) -> Term:
        spec = self.spec
        if spec is not None and name == "pay_price":
            # The price itself says more than "pay the price": "unit becomes 行動完了".
            ja, en = price_words(spec)
            return Term(ja, en, spec.clause("price"))
        return self._term(name)

    def guard(self, cond: str) -> Term:
        """A guard as written on an edge; ``!name`` is the guard failing."""
        negated = cond.startswith("!")
        name = cond.lstrip("!")
        reasons = {guard: reason for reason, guard in GUARDS.items()}
        clause = self._clause("recheck") if self.spec is not None else ""
        if self.spec is not None and name == GUARDS["partner_left"]:
            clause = SYNC_CLAUSE
        if negated and cond in self.meanings:
            return self._term(cond)
        if negated and self.spec is not None and name in reasons:
            ja, en = WORDS[reasons[name]]
            return Term(ja, en, clause)
        term = self._term(name)
        if self.spec is not None and name in reasons:
            term = Term(term.ja, term.en, clause)
        if negated:
            return Term(f"{term.ja}でない", f"not: {term.en}", term.clause)
        return term


def price_words(spec: KindSpec) -> tuple[str, str]:
    """The price in words, with the kind's own 代償 parts if it has any ("pay the 代償: own unit×1: field→hand")."""
    ja, en = PRICES[spec.price].labels
    if spec.cost:
        ja += "：" + "＋".join(p.describe("ja") for p in spec.cost)
        en += ": " + " + ".join(p.describe("en") for p in spec.cost)
    return ja, en


def price_term(spec: KindSpec) -> Term:
    """The price and when it is paid (``price_paid``), e.g. "unit becomes 行動完了, at resolution";
    a kind with no price has no time to pay it."""
    ja, en = price_words(spec)
    if not free(spec.price):
        ja, en = f"{ja}（{PAID_AT[spec.price_paid][0]}）", f"{en}, {PAID_AT[spec.price_paid][1]}"
    return Term(ja, en, spec.clause("price"))


def caption(spec: KindSpec) -> list[tuple[Term, Term]]:
    """What the kind is, beside its diagram: (heading, value) per property of the spec."""
    rows = [
        (Term("使用", "when"), Term(*WORDS[spec.usable], spec.clause("usable"))),
        (Term("代価", "price"), price_term(spec)),
        (Term("回数", "how often"), Term(*WORDS[spec.frequency], spec.clause("frequency"))),
        (Term("対象", "targets"), Term(*WORDS[spec.targets], spec.clause("targets"))),
    ]
    if not spec.counter_window:
        rows.append((Term("反撃", "counter"), Term("反撃受付なし", "no counter window", spec.clause("window"))))
    elif not spec.counterable:
        rows.append((Term("反撃", "counter"), Term("反撃できない", "may not be countered", spec.clause("window"))))
    if spec.sync:
        rows.append((Term("同調", "sync"), Term("同調相手が同じパーティー", "partner in the same party", "SYNC-2")))
    return rows
