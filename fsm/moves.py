"""Moves: what a player can do at a point of the game, as data and as text.

The text form is what scenario files, the command line and the widgets use::

    A: pass
    A: use ストーンウォール by 岩の巨人 on 炎の剣士      (a skill card; SC-4)
    A: activate 岩砕き of 岩の巨人 on 炎の剣士         (an ability)
    A: attack 炎の剣士 with 岩の巨人
    A: advance 岩の巨人 to 荒野                        (main phase, FLOW-ADV)
    A: summon 風の精                                   (quick-summon timing, FLOW-QS)
    A: equip 鉄の剣 on 岩の巨人 / A: unequip 鉄の剣     (EQ-1)
    A: reveal 速攻の術                                 (QS-1)
    A: front 岩の巨人                                  (formation, FLOW-FORM)

Names are unit and card IDs from the table (no spaces).  The ``A:`` prefix names the
player making the move; it may be left out, and then the player whose turn it is moves.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .errors import BadInput

VERBS = (
    "pass",
    "use",
    "activate",
    "attack",
    "advance",
    "summon",
    "equip",
    "unequip",
    "reveal",
    "front",
)


@dataclass(frozen=True)
class Move:
    verb: str
    player: str = ""
    card: str | None = None  # use / equip / unequip / reveal
    ability: str | None = None  # activate
    unit: str | None = None  # the acting unit
    target: str | None = None

    def __str__(self) -> str:
        v = self.verb
        body = {
            "pass": "pass",
            "use": f"use {self.card} by {self.unit}",
            "activate": f"activate {self.ability} of {self.unit}",
            "attack": f"attack {self.target} with {self.unit}",
            "advance": f"advance {self.unit} to {self.target}",
            "summon": f"summon {self.unit}",
            "equip": f"equip {self.card} on {self.unit}",
            "unequip": f"unequip {self.card}",
            "reveal": f"reveal {self.card}",
            "front": f"front {self.unit}",
        }[v]
        if v in ("use", "activate") and self.target:
            body += f" on {self.target}"
        return f"{self.player}: {body}" if self.player else body


def _expect(words: list[str], i: int, word: str, text: str) -> None:
    if i >= len(words) or words[i] != word:
        raise BadInput(f"expected {word!r} at word {i + 1} of {text!r}")


def parse(text: str) -> Move:
    """Read a move from its text form; anything malformed is :class:`BadInput`."""
    original = text
    player = ""
    head, sep, rest = text.partition(":")
    if sep and " " not in head.strip():
        player, text = head.strip(), rest
    w = text.split()
    if not w:
        raise BadInput(f"empty move {original!r}; e.g. 'A: pass' or 'A: use CARD by UNIT on TARGET'")
    verb = w[0].lower()
    if verb not in VERBS:
        close = difflib.get_close_matches(verb, VERBS, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise BadInput(f"unknown move {w[0]!r} in {original!r}; {hint}moves are: {', '.join(VERBS)}")
    try:
        if verb == "pass":
            if len(w) != 1:
                raise BadInput(f"'pass' takes nothing after it: {original!r}")
            return Move("pass", player)
        if verb in ("use", "activate"):
            link = "by" if verb == "use" else "of"
            _expect(w, 2, link, original)
            target = None
            if len(w) > 4:
                _expect(w, 4, "on", original)
                target = w[5]
                if len(w) > 6:
                    raise BadInput(f"too many words in {original!r}")
            if verb == "use":
                return Move("use", player, card=w[1], unit=w[3], target=target)
            return Move("activate", player, ability=w[1], unit=w[3], target=target)
        if verb == "attack":
            _expect(w, 2, "with", original)
            return Move("attack", player, unit=w[3], target=w[1])
        if verb == "advance":
            _expect(w, 2, "to", original)
            return Move("advance", player, unit=w[1], target=w[3])
        if verb == "equip":
            _expect(w, 2, "on", original)
            return Move("equip", player, card=w[1], unit=w[3])
        if verb in ("unequip", "reveal"):
            return Move(verb, player, card=w[1])
        return Move(verb, player, unit=w[1])  # summon, front
    except IndexError:
        raise BadInput(f"move {original!r} is cut short; see `fsm moves FILE` for examples") from None
