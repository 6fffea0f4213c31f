"""Moves: what a player can do at a point of the game, as data and as text.

The text form is what scenario files, the command line and the widgets use::

    A: pass
    A: use ストーンウォール by 岩の巨人 on 炎の剣士      (a skill card; SC-4)
    A: activate 岩砕き of 岩の巨人 on 炎の剣士         (an ability)
    A: activate 火球 of 炎の魔術師 on 炎の剣士 paying 炎の書   (naming what pays its 代償, COST-3)
    A: attack 炎の剣士 with 岩の巨人
    A: advance 岩の巨人 to 荒野                        (main phase, FLOW-ADV)
    A: summon 風の精                                   (quick-summon timing, FLOW-QS)
    A: equip 鉄の剣 on 岩の巨人 / A: unequip 鉄の剣     (EQ-1)
    A: reveal 速攻の術                                 (QS-1)
    A: front 岩の巨人                                  (formation, FLOW-FORM)

Names are unit and card IDs from the table (no spaces).  The ``A:`` prefix names the
player making the move; it may be left out, and then the player whose turn it is moves.

The same moves in Japanese put the verb last and mark each name with a particle, as a
sentence does (を the card, ability or attacked unit; で the acting unit; に the target,
the destination or the unit equipped), in any order::

    A: パス
    A: ストーンウォール を 岩の巨人 で 炎の剣士 に 使用
    A: 岩砕き を 岩の巨人 で 炎の剣士 に 発動
    A: 火球 を 炎の魔術師 で 炎の剣士 に 炎の書 を代償に 発動
    A: 岩の巨人 で 炎の剣士 を 攻撃
    A: 岩の巨人 で 荒野 に 進軍
    A: 風の精 を 速攻召喚
    A: 鉄の剣 を 岩の巨人 に 装備 / A: 鉄の剣 を 装備解除
    A: 速攻の術 を 公開
    A: 岩の巨人 を 先頭

Either form gives the same :class:`Move`; ``str(move)`` is the English form, ``move.text("ja")``
the Japanese one.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Collection
from dataclasses import dataclass

from fsm.errors import BadInput
from fsm.i18n import _, language

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


#: The Japanese verb of each move (it ends the move, as a Japanese verb ends its sentence).
JA_VERBS = {
    "pass": "パス",
    "use": "使用",
    "activate": "発動",
    "attack": "攻撃",
    "advance": "進軍",
    "summon": "速攻召喚",
    "equip": "装備",
    "unequip": "装備解除",
    "reveal": "公開",
    "front": "先頭",
}

#: For each Japanese verb, which particle marks which field of the move, and whether that field is required.
JA_SLOTS: dict[str, dict[str, tuple[str, bool]]] = {
    "pass": {},
    "use": {"を": ("card", True), "で": ("unit", True), "に": ("target", False)},
    "activate": {"を": ("ability", True), "で": ("unit", True), "に": ("target", False), "を代償に": ("paying", False)},
    "attack": {"で": ("unit", True), "を": ("target", True)},
    "advance": {"で": ("unit", True), "に": ("target", True)},
    "summon": {"を": ("unit", True)},
    "equip": {"を": ("card", True), "に": ("unit", True)},
    "unequip": {"を": ("card", True)},
    "reveal": {"を": ("card", True)},
    "front": {"を": ("unit", True)},
}


#: How each verb's move is written in English (the parser's own form).
_WRITTEN = {
    "pass": "pass",
    "use": "use {m.card} by {m.unit}",
    "activate": "activate {m.ability} of {m.unit}",
    "attack": "attack {m.target} with {m.unit}",
    "advance": "advance {m.unit} to {m.target}",
    "summon": "summon {m.unit}",
    "equip": "equip {m.card} on {m.unit}",
    "unequip": "unequip {m.card}",
    "reveal": "reveal {m.card}",
    "front": "front {m.unit}",
}


@dataclass(frozen=True)
class Move:
    verb: str
    player: str = ""
    card: str | None = None  # use / equip / unequip / reveal
    ability: str | None = None  # activate
    unit: str | None = None  # the acting unit
    target: str | None = None
    paying: tuple[str, ...] = ()  # activate: what pays its 代償's parts (COST-3), when the move names it

    def __str__(self) -> str:
        text = self.__dict__.get("_text")
        if text is None:  # written once: the engine, the log and the explorer's lines all ask for it
            text = self._written()
            object.__setattr__(self, "_text", text)
        return text

    def _written(self) -> str:
        v = self.verb
        body = _WRITTEN[v].format(m=self)  # only this verb's pattern (formatting all ten cost 2 % of exploring)
        if v in ("use", "activate") and self.target:
            body += f" on {self.target}"
        if self.paying:
            body += " " + paying_text(self.paying)
        return f"{self.player}: {body}" if self.player else body

    def text(self, lang: str = "en") -> str:
        """The move written in ``lang``: the English form, or the Japanese one (verb last)."""
        if lang != "ja":
            return str(self)
        words = [
            f"{'、'.join(value) if isinstance(value, tuple) else value} {particle}"
            for particle, (field, _required) in JA_SLOTS[self.verb].items()
            if (value := getattr(self, field)) not in (None, ())
        ]
        body = " ".join([*words, JA_VERBS[self.verb]])
        return f"{self.player}: {body}" if self.player else body


def paying_text(names: tuple[str, ...], lang: str = "en") -> str:
    """What pays a 代償, as a move names it (COST-3): ``paying 炎の書 and 岩の巨人`` /
    ``炎の書、岩の巨人 を代償に`` (the Japanese slot of :meth:`Move.text` reads the same)."""
    return f"{'、'.join(names)} を代償に" if lang == "ja" else "paying " + " and ".join(names)


@functools.lru_cache(maxsize=4096)
def written(text: str, lang: str) -> str | None:
    """A recorded move's text as a reader of ``lang`` writes it, or None for text that is not a
    move.  Cached: histories and example lines repeat the same moves."""
    try:
        return parse(text).text(lang)
    except BadInput:
        return None


def _expect(words: list[str], i: int, word: str, text: str) -> None:
    if i >= len(words) or words[i] != word:
        message = _("expected {word!r} at word {n} of {move!r}")
        raise BadInput(message.format(word=word, n=i + 1, move=text))


def _verbs() -> str:
    """The verbs an error lists: the English ones, and in Japanese the Japanese ones first."""
    english = ", ".join(VERBS)
    return f"{', '.join(JA_VERBS.values())} ({english})" if language() == "ja" else english


def unreadable(name: str, players: Collection[str]) -> str | None:
    """Why a unit, card, ability or geo name could not be read back from a move, or None.

    A move's words are split at spaces; a first word ending in a colon is the player; the names
    paying a 代償 are split at commas (、 in Japanese).  Everything else in a name reads back."""
    if not name or any(c.isspace() for c in name):
        return _("a name may not be empty or contain spaces (moves are split into words at spaces)")
    if name[-1] in ":：":
        return _("a name may not end in a colon (a move's first word ending in one names the player)")
    if any(c in name for c in ",、"):
        return _("a name may not contain a comma (、 or ,), which separates the names that pay a 代償")
    head, colon, _tail = name.replace("：", ":", 1).partition(":")
    if colon and head in players:
        return _("a name may not start with a player and a colon (it reads as that player's move)")
    return None


def _player(text: str, players: Collection[str] | None) -> tuple[str, str]:
    """The player a move starts with (``A: pass``, ``A：岩砕き を ...``, ``A:pass``) and the rest.

    Only the first word is read for it.  A first word ending in a colon is the player; one with a
    colon inside is the player and a name only if the table has that player (``players``), so a
    colon inside a name (名称：竜) stays the name's.  Without the players, the old reading: the
    part before the first colon, if it has no space."""
    first, _sep, rest = text.strip().partition(" ")
    if first[-1:] in (":", "："):
        return first[:-1], rest
    head, sep, tail = first.replace("：", ":", 1).partition(":")
    if sep and (head in players if players is not None else " " not in head):
        return head, f"{tail} {rest}"
    return "", text


def parse(text: str, players: Collection[str] | None = None) -> Move:
    """Read a move from its text form (English or Japanese); anything malformed is :class:`BadInput`.

    ``players``, the table's, tell a player prefix written without a space from a name."""
    original = text
    player, text = _player(text, players)
    w = text.split()  # also splits at the full-width space
    if not w:
        message = _("empty move {move!r}; e.g. 'A: pass' or 'A: use CARD by UNIT on TARGET'")
        raise BadInput(message.format(move=original))
    verb = w[0].lower()
    japanese = next((v for v, ja in JA_VERBS.items() if ja == w[-1]), None)
    if japanese is not None and (verb not in VERBS or len(w) % 2):
        # names in pairs with particles, then the verb: an odd count, where an English move's is even
        return _parse_japanese(japanese, player, w[:-1], original)
    if verb not in VERBS:
        close = difflib.get_close_matches(verb, VERBS, n=1)
        hint = _("did you mean {word!r}? ").format(word=close[0]) if close else ""
        message = _("unknown move {word!r} in {move!r}; {hint}moves are: {verbs}")
        raise BadInput(message.format(word=w[0], move=original, hint=hint, verbs=_verbs()))
    try:
        if verb == "pass":
            _words(w, 1, original)
            return Move("pass", player)
        if verb in ("use", "activate"):
            link = "by" if verb == "use" else "of"
            _expect(w, 2, link, original)
            target = None
            w, paying = _paying(w, verb, original)
            if len(w) > 4:
                _expect(w, 4, "on", original)
                target = w[5]
                _words(w, 6, original)
            if verb == "use":
                return Move("use", player, card=w[1], unit=w[3], target=target)
            return Move("activate", player, ability=w[1], unit=w[3], target=target, paying=paying)
        if verb in ("unequip", "reveal", "summon", "front"):
            _words(w, 2, original)
            if verb in ("unequip", "reveal"):
                return Move(verb, player, card=w[1])
            return Move(verb, player, unit=w[1])
        link = {"attack": "with", "advance": "to", "equip": "on"}[verb]
        _expect(w, 2, link, original)
        _words(w, 4, original)
        if verb == "attack":
            return Move("attack", player, unit=w[3], target=w[1])
        if verb == "advance":
            return Move("advance", player, unit=w[1], target=w[3])
        return Move("equip", player, card=w[1], unit=w[3])
    except IndexError:
        message = _("move {move!r} is cut short; see `fsm moves FILE` for examples")
        raise BadInput(message.format(move=original)) from None


def _words(w: list[str], count: int, original: str) -> None:
    """A complete move is over: words after it are refused, not dropped (``... twice``)."""
    if len(w) > count:
        message = _("{move!r} is a whole move before {extra!r}; nothing may follow it")
        raise BadInput(message.format(move=original, extra=" ".join(w[count:])))
    if len(w) < count:
        raise IndexError


def _paying(w: list[str], verb: str, original: str) -> tuple[list[str], tuple[str, ...]]:
    """``... [on T] paying X and Y``: the words before it, and the names after it (COST-3).

    'paying' is read only where it stands (after the unit or the target), so a unit or card named
    paying is a name like any other; so is one named and, between the names."""
    at = next((i for i in (4, 6) if len(w) > i and w[i] == "paying" and (i == 4 or w[4] == "on")), None)
    if at is None:
        return w, ()
    if verb != "activate":
        message = _("only an ability's 代償 is paid with a choice; 'paying' does not go with {verb!r} in {move!r}")
        raise BadInput(message.format(verb=verb, move=original))
    after = w[at + 1 :]
    if not after:
        raise BadInput(_("'paying' needs the names of what pays, e.g. 'paying 炎の書': {move!r}").format(move=original))
    if any(word != "and" for word in after[1::2]):
        message = _("the names after 'paying' are joined by 'and': {move!r}")
        raise BadInput(message.format(move=original))
    names = tuple(n for word in after[::2] for n in word.replace("、", ",").split(",") if n)
    return w[:at], names


def _parse_japanese(verb: str, player: str, words: list[str], original: str) -> Move:
    """``NAME PARTICLE`` pairs in any order, the verb already taken off the end."""
    slots = JA_SLOTS[verb]
    example = Move(verb, "A", card="CARD", ability="ABILITY", unit="UNIT", target="TARGET").text("ja")
    if len(words) % 2:
        message = _("in {move!r} every name needs a particle after it ({particles}), e.g. {example!r}")
        particles = "、".join(slots) or "-"
        raise BadInput(message.format(move=original, particles=particles, example=example))
    fields: dict[str, str] = {}
    for name, particle in zip(words[::2], words[1::2], strict=True):
        if particle not in slots:
            message = _("{verb} takes no {particle!r} in {move!r}; e.g. {example!r}")
            raise BadInput(message.format(verb=JA_VERBS[verb], particle=particle, move=original, example=example))
        field = slots[particle][0]
        if field in fields:
            message = _("{particle!r} is given twice in {move!r}")
            raise BadInput(message.format(particle=particle, move=original))
        fields[field] = name
    missing = [p for p, (field, required) in slots.items() if required and field not in fields]
    if missing:
        message = _("move {move!r} is cut short: it needs a name with {particles}; e.g. {example!r}")
        raise BadInput(message.format(move=original, particles="、".join(missing), example=example))
    chosen = tuple(n for n in fields.pop("paying", "").replace("、", ",").split(",") if n)
    return Move(verb, player, **fields, paying=chosen)
