"""The effect words (``effect: strip 土``), one registered function each.

An effect happens when its card or ability resolves (ACT-7, COST-6, SD-7, SC-7, MAR-3).  Each
word is one entry of :data:`EFFECTS`: its labels, the clause that gives it its meaning, the
function that changes the table, and data the loader and the engine read:

* ``lasting`` — what it keeps doing while a 【自動】 without [戦闘] holds it in force (AUTO-4):
  a :class:`Lasting`, or ``None`` for a word that happens once and is over (a unit leaves the
  field or its party, dice are rolled), which the loader refuses on such an auto;
* ``needs_battle`` — it changes the battle (speed, dice), not a unit;
* ``arg`` — how the word's argument is read (a skill symbol, a number), or ``None``.

A designer's new word is one more :func:`effect` registration (docs/designer.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from fsm.errors import BadInput
from fsm.i18n import N_, _, either
from fsm.rules.skills import Pool, symbol
from fsm.rules.vocab import Registry
from fsm.table.model import ChainItem, Effect, Unit
from fsm.table.protocol import Board


@dataclass(frozen=True)
class Hit:
    """What one effect falls on: the resolving item, its target (the unit, or an id), the clause."""

    item: ChainItem
    unit: Unit | None
    target: str | None
    clause: str


@dataclass(frozen=True)
class Lasting:
    """What an effect does for as long as a continuous 【自動】 is in force (AUTO-4)."""

    skills: int = 0  # +1: the unit has one more skill of the symbol; -1: one fewer
    holds_acted: bool = False  # the unit counts as 行動完了
    speed: bool = False  # the argument is added to the unit's speed (FLOW-SPD)


#: The function of an effect word: change the table; False if nothing on it could change.
EffectFn = Callable[[Board, Effect, Hit], bool]

EFFECTS: Registry[EffectFn] = Registry(N_("effect"))


def effect(
    key: str,
    *,
    ja: str,
    en: str,
    clause: str,
    lasting: Lasting | None = None,
    needs_battle: bool = False,
    arg: Callable[[str, str], str] | None = None,
) -> Callable[[EffectFn], EffectFn]:
    """Register an effect word (see the module docstring for what each setting means)."""
    return EFFECTS.register(key, ja=ja, en=en, clause=clause, lasting=lasting, needs_battle=needs_battle, arg=arg)


def remember(board: Board, hit: Hit, name: str) -> None:
    """Before a 【自動】[戦闘] changes ``name`` of its unit: note the value the battle's end puts
    back (TIM-BTL: its effect is lost when the battle ends).  The first value is kept.  Skill
    pools and speed lapse by themselves at clean-up; leaving the field happens once and is over."""
    b, ab = board.table.battle, board.ability_of(hit.item)
    if b is not None and ab is not None and ab.battle_only and hit.unit is not None:
        b.restore.setdefault((hit.unit.id, name), getattr(hit.unit, name))


def lapse_partnerless(board: Board) -> None:
    """Variant sync_battle_auto_partner_left=lapses: a 【同調】【自動】[戦闘] whose partner has left the
    party stops at once (SYNC-1), as a continuous one does: what it did to its unit is taken back."""
    b = board.table.battle
    if b is None:
        return
    for uid, name in list(b.synced):
        u = board.table.units[uid]
        ab = next(a for a in u.abilities if a.name == name)
        if ab.sync and u.on_field and board.partner(u, ab.sync):
            continue
        b.synced.remove((uid, name))
        for eff in ab.effect:
            _take_back(board, u, eff)
        line = _(
            "{ability} of {unit} lapses: its 【同調】 partner left the party (variant sync_battle_auto_partner_left)"
        )
        board.note(line.format(ability=name, unit=u.name), "SYNC-1")


def _take_back(board: Board, u: Unit, eff: Effect) -> None:
    """Undo one effect a 【自動】[戦闘] had on its own unit (what lasts of it; a zone move stays)."""
    b = board.table.battle
    assert b is not None
    change = lasting(eff.op)
    if change is not None and change.skills:
        which = "granted" if change.skills > 0 else "consumed"
        u.skills = u.skills.replacing(**{which: getattr(u.skills, which) - {eff.arg: 1}})
    elif change is not None and change.speed:
        b.speed_mod[u.owner] = b.speed_mod.get(u.owner, 0) - int(eff.arg or 0)
    name = {"exhaust": "acted", "leave_party": "party"}.get(eff.op)  # the fields remember() keeps
    if name and (u.id, name) in b.restore:
        setattr(u, name, b.restore.pop((u.id, name)))


def _number(text: str, where: str) -> str:
    try:
        int(text)
    except ValueError:
        raise BadInput(
            _("speed needs a number, e.g. 'speed +1', not {value!r}").format(value=f"speed {text}".strip()), where
        ) from None
    return text


# ---------------------------------------------------------------- the words
def _leaving(zone: str, happens: str, destroyed: bool = False, discarded: bool = False) -> EffectFn:
    """An effect that takes its unit off the field to ``zone`` (what it carries goes too, EQ-1)."""

    def leave(board: Board, eff: Effect, hit: Hit) -> bool:
        u = hit.unit
        if u is None or not u.on_field:
            return False
        board.note(_(happens).format(unit=u.name), hit.clause)
        board.leave_field(u, zone, destroyed=destroyed, discarded=discarded)
        return True

    return leave


effect("destroy", ja="撃破", en="target unit is destroyed (撃破)", clause="FLOW-ZONES")(
    _leaving("graveyard", N_("{unit} is destroyed (撃破)"), destroyed=True)
)
effect("discard", ja="破棄", en="target unit is discarded (破棄)", clause="FLOW-ZONES")(
    _leaving("graveyard", N_("{unit} is discarded (破棄)"), discarded=True)
)


@effect(
    "exhaust", ja="行動完了にする", en="target unit becomes 行動完了", clause="ACT-1", lasting=Lasting(holds_acted=True)
)
def _exhaust(board: Board, eff: Effect, hit: Hit) -> bool:
    assert hit.unit is not None
    remember(board, hit, "acted")
    hit.unit.acted = True
    board.note(_("{unit} becomes 行動完了").format(unit=hit.unit.name), hit.clause)
    return True


effect("bounce", ja="手札に戻す", en="target unit returns to its owner's hand (leaves the field)", clause="FLOW-ZONES")(
    _leaving("hand", N_("{unit} returns to its owner's hand and leaves the field"))
)


@effect(
    "strip",
    ja="スキルを失う",
    en="target unit loses one skill of the given symbol for this battle",
    clause="SC-2",
    lasting=Lasting(skills=-1),
    arg=symbol,
)
def _strip(board: Board, eff: Effect, hit: Hit) -> bool:
    u = hit.unit
    assert u is not None
    if board.available(u)[eff.arg] > 0:
        u.skills = u.skills.replacing(consumed=u.skills.consumed + {eff.arg: 1})
    board.note(_("{unit} loses {arg} for this battle").format(unit=u.name, arg=eff.arg), hit.clause)
    return True


@effect(
    "grant",
    ja="スキルを得る",
    en="target unit gains one skill of the given symbol for this battle",
    clause="TIM-BTL",
    lasting=Lasting(skills=+1),
    arg=symbol,
)
def _grant(board: Board, eff: Effect, hit: Hit) -> bool:
    u = hit.unit
    assert u is not None
    u.skills = u.skills.replacing(granted=u.skills.granted + {eff.arg: 1})
    board.note(_("{unit} gains {arg} for this battle").format(unit=u.name, arg=eff.arg), hit.clause)
    return True


@effect("leave_party", ja="パーティーを離れる", en="target unit leaves its party", clause="SYNC-1")
def _leave_party(board: Board, eff: Effect, hit: Hit) -> bool:
    u = hit.unit
    assert u is not None
    remember(board, hit, "party")
    u.party = None
    board.note(_("{unit} leaves its party").format(unit=u.name), hit.clause)
    return True


@effect(
    "speed",
    ja="スピード変更",
    en="target player's speed total changes by the given amount",
    clause="FLOW-SPD",
    lasting=Lasting(speed=True),
    needs_battle=True,
    arg=_number,
)
def _speed(board: Board, eff: Effect, hit: Hit) -> bool:
    t, u, item = board.table, hit.unit, hit.item
    b = t.battle
    assert b is not None
    player = hit.target if hit.target in t.players else (u.owner if u else item.declarer)
    # an answer to the dice counts for this speed determination; anything else for the battle
    mods = b.roll_mod if item.during == "speed" else b.speed_mod
    mods[player] = mods.get(player, 0) + int(eff.arg or 0)
    board.note(_("{player}'s speed changes by {arg}").format(player=player, arg=eff.arg), hit.clause)
    return True


@effect("reroll", ja="ダイスを振り直す", en="the speed dice are rolled again", clause="FLOW-SPD", needs_battle=True)
def _reroll(board: Board, eff: Effect, hit: Hit) -> bool:
    b = board.table.battle
    assert b is not None
    board.reroll_speed(hit.clause)
    b.rerolled = board.flow.at("speed") and board.variants.reroll_answerable
    return True


@effect(
    "nothing",
    ja="効果なし",
    en="no effect on the table (the card's text is outside this rules page)",
    clause="AB-1",
    lasting=Lasting(),
)
def _nothing(board: Board, eff: Effect, hit: Hit) -> bool:
    return False


# ---------------------------------------------------------------- reading the registry
def resolve(board: Board, eff: Effect, item: ChainItem, clause: str) -> None:
    """One effect of a resolving item happens to its target (its own unit if it names none)."""
    entry = EFFECTS[eff.op]
    t = board.table
    target = item.target
    if target in (None, "self") and item.unit:
        target = item.unit
    hit = Hit(item, t.units.get(target or ""), target, clause)
    if entry.data["needs_battle"] and t.battle is not None:
        entry.function(board, eff, hit)
        return
    if hit.unit is None:
        board.note(_("{op}: no unit to affect").format(op=either(entry.ja, eff.op)), clause)
    elif entry.data["needs_battle"] or not entry.function(board, eff, hit):
        board.note(_("{op}: no change on the table").format(op=either(entry.ja, eff.op)), clause)


def text(eff: Effect) -> str:
    """The effect as a line shows it: the word as written (``strip 土``), or its Japanese label."""
    return either(f"{EFFECTS[eff.op].ja} {eff.arg}".strip(), str(eff))


def parse(text: str, where: str) -> Effect:
    """``"strip 土"`` → ``Effect("strip", "土")``; an unknown word or a bad argument is refused."""
    op, _, arg = text.strip().partition(" ")
    read = EFFECTS.check(op, where).data["arg"]
    if read is not None:
        arg = read(arg, where)
    return Effect(op, arg.strip())


def lasting(op: str) -> Lasting | None:
    """What the word keeps doing while a continuous 【自動】 holds it (AUTO-4); None: it cannot last."""
    value: Lasting | None = EFFECTS[op].data["lasting"]
    return value


def lasting_skills(effects: Iterable[Effect]) -> tuple[Pool, Pool]:
    """The skills continuous effects add and take away: (gained, lost)."""
    gained: Pool = Counter()
    lost: Pool = Counter()
    for eff in effects:
        change = lasting(eff.op)
        if change is not None and change.skills > 0:
            gained[eff.arg] += change.skills
        elif change is not None and change.skills < 0:
            lost[eff.arg] -= change.skills
    return gained, lost


def holds_acted(effects: Iterable[Effect]) -> bool:
    """Does a continuous effect keep the unit 行動完了 (AUTO-4)?"""
    return any((change := lasting(eff.op)) is not None and change.holds_acted for eff in effects)


def lasting_speed(effects: Iterable[Effect]) -> int:
    """What continuous effects add to the unit's speed (AUTO-4, FLOW-SPD)."""
    return sum(int(eff.arg) for eff in effects if (change := lasting(eff.op)) is not None and change.speed)


def one_off(op: str) -> bool:
    """Does the word happen once and is over, so it cannot be always in effect (AUTO-4)?"""
    return lasting(op) is None
