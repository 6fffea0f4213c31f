"""The project's rules catalogue: every timing rule, with a stable ID.

What a rules reader needs to know:

* Each rule has an ID such as ``ACT-6`` (the recheck step of an 【行動】 action
  ability). IDs come from the reference catalogue ``shared/rules/clauses.md``;
  the ``FLOW-*`` IDs name the battle-flow points that page gives without IDs.
* Tests, diagram labels and rule-violation messages cite rules by these IDs,
  so ``cite("ACT-6")`` is the way to name a rule in code: it fails loudly if the
  ID is not in the catalogue.
* ``text`` is an English summary in the project's own words; ``ja`` lists the
  Japanese terms printed on the cards or used by the official rules.
* ``title_ja``, ``text_ja`` (and ``variant_ja``) say the same in Japanese, again in the
  project's own words (a test checks neither language copies the rules page).
  ``fsm rules --lang ja`` prints them; ``Clause.title_in(lang)`` and friends pick one.
* ``variant`` is set where the official rules are silent or ambiguous, or
  where the project assumed a default: it describes the open point, which is
  exposed as a switchable rule variant.

The data lives in ``fsm/rules/data/clauses.toml``; it is loaded once at import.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from fsm.i18n import gettext

__all__ = ["CLAUSES", "Clause", "cite", "clause", "format_line"]


@dataclass(frozen=True, slots=True)
class Clause:
    """One rule of the catalogue."""

    id: str
    title: str
    text: str
    ja: tuple[str, ...]
    section: str
    variant: str | None = None
    title_ja: str = ""
    text_ja: str = ""
    variant_ja: str | None = None

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (``ja`` or ``en``); English where no Japanese is written."""
        return self.title_ja if lang == "ja" and self.title_ja else self.title

    def text_in(self, lang: str) -> str:
        return self.text_ja if lang == "ja" and self.text_ja else self.text

    def variant_in(self, lang: str) -> str | None:
        return self.variant_ja if lang == "ja" and self.variant_ja else self.variant


def _load() -> dict[str, Clause]:
    raw = resources.files("fsm.rules").joinpath("data/clauses.toml").read_text(encoding="utf-8")
    data = tomllib.loads(raw)
    clauses: dict[str, Clause] = {}
    for cid, entry in data.items():  # tomllib keeps file order
        clauses[cid] = Clause(
            id=cid,
            title=entry["title"],
            text=entry["text"],
            ja=tuple(entry["ja"]),
            section=entry["section"],
            variant=entry.get("variant"),
            title_ja=entry.get("title_ja", ""),
            text_ja=entry.get("text_ja", ""),
            variant_ja=entry.get("variant_ja"),
        )
    return clauses


CLAUSES: dict[str, Clause] = _load()
"""All clauses, keyed by ID, in catalogue (file) order."""


def clause(id: str) -> Clause:
    """Return the clause with this ID; ``KeyError`` naming the ID if unknown."""
    try:
        return CLAUSES[id]
    except KeyError:
        prefix = id.split("-", 1)[0]
        near = [k for k in CLAUSES if k.startswith(prefix + "-")]
        hint = f" Known {prefix}-* IDs: {', '.join(near)}." if near else ""
        raise KeyError(f"unknown rule clause ID {id!r}: not in fsm/rules/data/clauses.toml.{hint}") from None


def cite(id: str) -> str:
    """Return ``id`` unchanged after checking it names a catalogue clause."""
    return clause(id).id


def format_line(c: Clause, lang: str = "en") -> str:
    """One line: ID, title, Japanese terms, then the text, in ``lang`` (``en`` or ``ja``)."""
    ja = " ".join(c.ja)
    line = f"{c.id}  {c.title_in(lang)}  [{ja}]  {c.text_in(lang)}"
    variant = c.variant_in(lang)
    if variant:
        line += "  " + gettext("(variant: {variant})", lang).format(variant=variant)
    return line
