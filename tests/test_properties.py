"""Random play (hypothesis stateful testing): whatever legal moves are played, the table stays sound.

From a few varied tables (a battle in its normal timing, the main phase before a battle, the
quick-summon timing, the speed determination), the machine below plays random legal moves, tries
moves drawn from the whole candidate space (every verb × every player × every name on the table
in each slot: the opponent's units, cards and abilities too), tries junk, and round-trips
snapshots.  After every step it checks:

* FLOW-ZONES — every card and unit is in exactly one known zone; a card is on the chain exactly
  while an item of it is pending; an equipped card sits on a unit on the field;
* COST-3, COST-5 — paying a 代償 of parts (a card from the hand, a unit, 行動完了), chosen in the move,
  loses and duplicates nothing: the hand, field, chain and graveyard still hold every card and unit
  once, and a card a pending item paid with is no longer where it was taken from;
* SC-2 — no unit has used more of a skill than it had;
* FLOW-QS / FLOW-ADV — no unit is twice among the battle participants (issue 11 point 15);
* a move played moves only its player's own units and cards (AB-1, SC-4, QS-1, EQ-1, FLOW-*);
* TIM-CTR-2 — the chain is empty exactly when the chain machine is empty and nobody has priority;
  priority, when held, belongs to the player who must decide;
* TIM-CTR-3 — items pending before a move resolve newest first (and, with the default variant,
  all of them once resolution starts);
* a refused move (RuleViolation or BadInput) changes neither the table nor the log, and a move
  ``why_not`` calls legal is one of ``legal_moves`` (and is then played).

How many examples run is the hypothesis profile's business (tests/conftest.py): CI's "ci" is
derandomized; ``--hypothesis-profile=long`` explores much further.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from conftest import make
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fsm.engine.game import Game
from fsm.errors import BadInput, RuleViolation
from fsm.machines.chain import priority
from fsm.table.moves import VERBS, parse

ROCK_ABILITIES = [
    {"name": "岩砕き", "kind": "action", "timing": "通常/反撃", "effect": "destroy", "dice": True, "min_roll": 3},
    {"name": "地割れ", "kind": "cost", "timing": "通常/反撃", "cost": "土", "effect": "exhaust"},
    {"name": "大爆発", "kind": "self_destruct", "timing": "反撃：特殊能力限定", "effect": "bounce"},
    {"name": "行軍歌", "kind": "march", "target": "player", "effect": "nothing"},
    {"name": "気合", "kind": "auto", "timing": "戦闘", "effect": "grant 火"},
    # a 代償 of parts (COST-3): a card from the hand (a choice when A holds several) and another unit made 行動完了
    {"name": "投石", "kind": "cost", "timing": "通常/反撃", "cost": "手札1枚 + 行動完了1体", "effect": "bounce"},
]
UNITS: dict[str, Any] = {
    "岩の巨人": {"owner": "A", "skills": "土 土 全", "party": "p", "speed": 1, "abilities": ROCK_ABILITIES},
    "風の子": {
        "owner": "A",
        "skills": "風",
        "party": "p",
        "abilities": [
            {"name": "共鳴", "kind": "action", "sync": "巨人", "effect": "exhaust"},
            {"name": "追い風", "kind": "cost", "cost": "風", "timing": "反撃：スピード限定", "effect": "speed +2"},
        ],
    },
    "水の精": {
        "owner": "B",
        "skills": "水 水 道具",
        "abilities": [
            {"name": "水流", "kind": "cost", "timing": "反撃", "cost": "水", "effect": "strip 土"},
            {"name": "加護", "kind": "auto", "effect": "grant 無"},
        ],
    },
    "炎の番人": {
        "owner": "B",
        "skills": "火 全",
        "abilities": [
            {"name": "火柱", "kind": "action", "effect": "exhaust"},
            {"name": "身代わり", "kind": "cost", "timing": "反撃", "cost": "破棄1体", "effect": "exhaust"},
            {"name": "炎壁", "kind": "cost", "timing": "反撃", "cost": "火 + 手札1枚", "effect": "strip 土"},
        ],
    },
    "留守番": {"owner": "B", "skills": "無", "geo": "本陣"},
}
CARDS: dict[str, Any] = {
    "石つぶて": {"owner": "A", "condition": "土", "timing": "通常/反撃", "effect": "exhaust"},
    "岩壁": {"owner": "A", "condition": "全", "timing": "反撃：スキル限定", "target": "none", "effect": "nothing"},
    "突撃": {"owner": "A", "condition": "風", "timing": "反撃：攻撃限定", "effect": "destroy"},
    "耕す": {"owner": "A", "condition": "土", "timing": "ＭＦ", "effect": "grant 土"},
    "足止め": {"owner": "B", "condition": "水", "timing": "反撃", "effect": "exhaust"},
    "押し返し": {"owner": "B", "condition": "火", "timing": "通常/反撃/スピード", "effect": "bounce"},
    "引き離し": {"owner": "B", "condition": "無", "timing": "反撃：特殊能力限定", "effect": "leave_party"},
    "工具": {"owner": "B", "condition": "道具", "timing": "通常", "target": "none", "effect": "reroll"},
    "鉄の盾": {"owner": "B", "type": "equip", "condition": "水", "zone": "equipped", "equipped_to": "水の精"},
}
#: Extra pieces for the table that starts in the main phase: units to quick-summon, cards to equip
#: and to reveal, a unit waiting at home to advance.
BEFORE_BATTLE_UNITS: dict[str, Any] = {
    **{k: v for k, v in UNITS.items() if k != "岩の巨人"},
    "岩の巨人": {**UNITS["岩の巨人"], "geo": "本陣"},
    "風の子": {**UNITS["風の子"], "zone": "hand", "quick_summon": True},
    "森の子": {"owner": "B", "skills": "無", "zone": "hand", "quick_summon": True, "level": 3},
}
BEFORE_BATTLE_CARDS: dict[str, Any] = {
    **CARDS,
    "鉄の盾": {"owner": "B", "type": "equip", "condition": "水"},
    "土の鎧": {"owner": "A", "type": "equip", "condition": "土"},
    "奇襲": {"owner": "A", "condition": "全", "timing": "反撃", "quick_summon": True, "target": "none"},
}
STARTS: list[dict[str, Any]] = [
    {"units": UNITS, "cards": CARDS, "at": "normal_timing"},
    {"units": UNITS, "cards": CARDS, "at": "normal_timing", "battle": {"first": "B"},
     "variants": {"refund_cost_on_fizzle": True, "fizzled_action_uses_chance": False}},
    {"units": UNITS, "cards": CARDS, "at": "normal_timing", "variants": {"counters_between_resolutions": True}},
    {"units": BEFORE_BATTLE_UNITS, "cards": BEFORE_BATTLE_CARDS, "at": "main_phase"},
    {"units": {**BEFORE_BATTLE_UNITS, "岩の巨人": UNITS["岩の巨人"]}, "cards": BEFORE_BATTLE_CARDS,
     "at": "quick_summon"},
    {"units": UNITS, "cards": CARDS, "at": "speed", "variants": {"speed_tie": "defending_first"}},
]  # fmt: skip
ZONES_OF_CARDS = {"hand", "revealed", "chain", "equipped", "graveyard"}
ZONES_OF_UNITS = {"hand", "field", "graveyard"}

NAMES = sorted(
    {*UNITS, *BEFORE_BATTLE_UNITS, *BEFORE_BATTLE_CARDS, "荒野", "本陣", "誰か"}
    | {a["name"] for u in BEFORE_BATTLE_UNITS.values() for a in u.get("abilities", [])}
)
TEMPLATES = {
    "pass": "{p}: pass",
    "use": "{p}: use {a} by {b} on {c}",
    "activate": "{p}: activate {a} of {b} on {c}",
    "attack": "{p}: attack {a} with {b}",
    "advance": "{p}: advance {a} to {b}",
    "summon": "{p}: summon {a}",
    "equip": "{p}: equip {a} on {b}",
    "unequip": "{p}: unequip {a}",
    "reveal": "{p}: reveal {a}",
    "front": "{p}: front {a}",
}
assert set(TEMPLATES) == set(VERBS)


def _random_text(verb: str, p: str, a: str, b: str, c: str, target: bool) -> str:
    text = TEMPLATES[verb].format(p=p, a=a, b=b, c=c)
    return text if target or verb not in ("use", "activate") else text.rsplit(" on ", 1)[0]


SPREAD = 8  # the invariant checks every SPREAD-th candidate of a large verb, in turn


def candidates(game: Game, verb: str) -> list[str]:
    """Every text of this verb that can be built from the names on the table, legal or not: each
    player × each unit, card, ability, geo and target in the verb's slots."""
    t = game.table
    units, cards, geos = sorted(t.units), sorted(t.cards), sorted(t.geos)
    targets = ["", *(f" on {x}" for x in (*units, *t.players, *geos))]
    abilities = [(u.id, a.name) for u in t.units.values() for a in u.abilities]
    slots: dict[str, list[str]] = {
        "pass": ["pass"],
        "use": [f"use {c} by {u}{x}" for c in cards for u in units for x in targets],
        "activate": [f"activate {a} of {u}{x}" for u, a in abilities for x in targets],
        "attack": [f"attack {e} with {u}" for e in units for u in units],
        "advance": [f"advance {u} to {g}" for u in units for g in geos],
        "summon": [f"summon {u}" for u in units],
        "equip": [f"equip {c} on {u}" for c in cards for u in units],
        "unequip": [f"unequip {c}" for c in cards],
        "reveal": [f"reveal {c}" for c in cards],
        "front": [f"front {u}" for u in units],
    }
    return [f"{p}: {body}" for p in t.players for body in slots[verb]]


class PlayAtRandom(RuleBasedStateMachine):
    game: Game
    tables = STARTS

    @initialize(start=st.integers(0, 1000), seed=st.integers(0, 40))
    def set_up(self, start: int, seed: int) -> None:
        spec = self.tables[start % len(self.tables)]
        self.checks = 0  # steps so far: which share of a large verb the agreement invariant checks
        self.between = bool(spec.get("variants", {}).get("counters_between_resolutions"))
        self.game = make(spec["units"], spec["cards"], at=spec["at"], seed=seed, variants=spec.get("variants"),
                         battle=spec.get("battle"))  # fmt: skip
        self.total_cards = len(self.game.table.cards)
        self.total_units = len(self.game.table.units)

    # ------------------------------------------------------------ rules
    @precondition(lambda self: bool(self.game.legal_moves()))
    @rule(index=st.integers(0, 10_000))
    def play_a_legal_move(self, index: int) -> None:
        """One of legal_moves is played (and its resolutions checked newest first, TIM-CTR-3)."""
        moves = self.game.legal_moves()
        self._play(str(moves[index % len(moves)]))

    @rule(verb=st.sampled_from(VERBS), index=st.integers(0, 100_000))
    def try_a_move_from_the_whole_candidate_space(self, verb: str, index: int) -> None:
        """Any move the table's names can spell (summoning the opponent's unit, equipping it,
        activating its ability ...) is either offered by legal_moves and played, or refused with
        nothing changed."""
        options = candidates(self.game, verb)
        text = options[index % len(options)]
        if self.game.why_not(text).legal:
            assert text in [str(m) for m in self.game.legal_moves()], f"{text!r} is legal but not offered"
            self._play(text)
        else:
            self._refused(text)

    def _play(self, move: str) -> None:
        """A player moves only their own pieces (AB-1, SC-4, QS-1, EQ-1, FLOW-QS, FLOW-ADV, FLOW-ATK,
        FLOW-FORM); TIM-CTR-3: whatever resolves of what was pending resolves newest first."""
        g = self.game
        m = parse(move)
        for piece in (g.table.units.get(m.unit or ""), g.table.cards.get(m.card or "")):
            assert piece is None or piece.owner == m.player, f"{move!r} moves {piece.id}, owned by {piece.owner}"
        pending = [i.seq for i in g.table.chain]
        done = len(g.table.resolution_order)
        g.apply(move)
        resolved = [s for s in g.table.resolution_order[done:] if s in pending]
        assert resolved == pending[::-1][: len(resolved)], (move, pending, resolved)
        if resolved and not self.between:
            assert resolved == pending[::-1], f"{move}: the chain {pending} stopped resolving at {resolved}"

    @rule(
        verb=st.sampled_from(VERBS),
        player=st.sampled_from(["A", "B", "C"]),
        a=st.sampled_from(NAMES),
        b=st.sampled_from(NAMES),
        c=st.sampled_from([*NAMES, "A", "B"]),
        with_target=st.booleans(),
    )
    def try_a_random_move(self, verb: str, player: str, a: str, b: str, c: str, with_target: bool) -> None:
        """Junk too (an unknown player, a name in the wrong slot, a name not on the table) is either
        offered by legal_moves, or refused with nothing changed."""
        text = _random_text(verb, player, a, b, c, with_target)
        g = self.game
        verdict = g.why_not(text)
        if verdict.legal:
            assert text in [str(m) for m in g.legal_moves()], f"{text!r} is legal but not offered"
            return
        self._refused(text)

    @precondition(lambda self: bool(self.game.legal_moves()))
    @rule(index=st.integers(0, 10_000))
    def play_for_the_wrong_player(self, index: int) -> None:
        """TIM-CTR-2 / FLOW-*: a legal move made by the player who is not to decide is refused."""
        g = self.game
        moves = g.legal_moves()
        move = str(moves[index % len(moves)])
        player, _, body = move.partition(": ")
        other = g.table.opponent(player)
        self._refused(f"{other}: {body}")

    @rule(index=st.integers(0, 10_000))
    def snapshot_round_trip(self, index: int) -> None:
        """FLOW-ZONES: restore undoes a move completely, and the same moves are legal again."""
        g = self.game
        key, length, legal = g.table.key(), len(g.log), [str(m) for m in g.legal_moves()]
        snap = g.snapshot()
        if legal:
            g.apply(legal[index % len(legal)])
        g.restore(snap)
        assert g.table.key() == key and len(g.log) == length
        assert [str(m) for m in g.legal_moves()] == legal

    def _refused(self, text: str) -> None:
        g = self.game
        key, length = g.table.key(), len(g.log)
        try:
            g.apply(text)
        except (RuleViolation, BadInput) as err:
            assert str(err), text
        else:
            raise AssertionError(f"{text!r} was applied although why_not refused it")
        assert g.table.key() == key, f"refused {text!r} changed the table"
        assert len(g.log) == length, f"refused {text!r} wrote to the log"

    # ------------------------------------------------------------ invariants
    @invariant()
    def every_card_and_unit_in_exactly_one_zone(self) -> None:
        """FLOW-ZONES: zones partition the cards; the chain holds exactly the pending cards."""
        t = self.game.table
        zones = Counter(c.zone for c in t.cards.values())
        assert set(zones) <= ZONES_OF_CARDS, zones
        assert sum(zones.values()) == len(t.cards) == self.total_cards
        on_chain = Counter(c.id for c in t.cards.values() if c.zone == "chain")
        pending = Counter(i.source for i in t.chain if i.source in t.cards)
        assert on_chain == pending, (on_chain, pending)
        for c in t.cards.values():
            assert (c.zone == "equipped") == (c.equipped_to is not None), c
            if c.equipped_to is not None:
                assert t.units[c.equipped_to].on_field, f"{c.id} equipped on a unit off the field"
        units = Counter(u.zone for u in t.units.values())
        assert set(units) <= ZONES_OF_UNITS and sum(units.values()) == len(t.units) == self.total_units, units
        for u in t.units.values():
            assert not ((u.destroyed or u.discarded) and u.on_field), u
        for item in t.chain:  # COST-3: what a pending item paid with has left where it was taken from
            for what, x, zone, _extra in item.taken:
                if what == "card":
                    assert t.cards[x].zone != zone, (item.source, x, zone)

    @invariant()
    def no_skill_used_below_zero(self) -> None:
        """SC-2: no unit has spent more of a symbol than it has (base, [戦闘] grants, continuous autos)."""
        for u in self.game.table.units.values():
            always = Counter(
                e.arg
                for a in u.abilities
                if a.kind == "auto" and not a.battle_only
                for e in a.effect
                if e.op == "grant"
            )
            have = u.skills.base + u.skills.granted + always
            assert all(n >= 0 for n in u.skills.consumed.values()), u.skills
            assert all(n >= 0 for n in u.skills.granted.values()), u.skills
            assert all(u.skills.consumed[s] <= have[s] for s in u.skills.consumed), (u.id, u.skills, always)

    @invariant()
    def why_not_and_legal_moves_agree_on_every_candidate(self) -> None:
        """A move is legal by why_not exactly when legal_moves offers it, over the candidate space
        (so a wrongly legal move, such as summoning the opponent's unit, is seen at once).  The
        large verbs (use, activate) are checked one in SPREAD per step, a different share each step."""
        g = self.game
        legal = {str(m) for m in g.legal_moves()}
        self.checks += 1
        for verb in VERBS:
            options = candidates(g, verb)
            if len(options) > 100:
                options = options[self.checks % SPREAD :: SPREAD]
            for text in options:
                assert g.why_not(text).legal == (text in legal), f"why_not and legal_moves disagree on {text!r}"

    @invariant()
    def no_unit_twice_among_the_participants(self) -> None:
        """FLOW-QS, FLOW-ADV (issue 11 point 15): a battle's participants are distinct units."""
        b = self.game.table.battle
        if b is not None:
            twice = sorted(u for u, n in Counter(b.participants).items() if n > 1)
            assert not twice, f"{twice} more than once among the participants {b.participants}"

    @invariant()
    def chain_empty_exactly_when_nothing_is_pending(self) -> None:
        """TIM-CTR-2: an empty chain ⇔ the chain machine is empty and nobody holds priority."""
        g = self.game
        t = g.table
        assert (not t.chain) == (t.chain_state in (None, "empty") and priority(t) is None), (
            t.chain,
            t.chain_state,
            priority(t),
        )
        if priority(t) is not None:
            assert g.actor() == priority(t)
        for below, above in zip(t.chain, t.chain[1:], strict=False):
            assert above.answering == below.seq and above.seq > below.seq

    @invariant()
    def each_item_settles_once(self) -> None:
        """TIM-CTR-3: every declared item resolves or fizzles at most once."""
        t = self.game.table
        assert len(t.resolution_order) == len(set(t.resolution_order))
        assert not {i.seq for i in t.chain} & set(t.resolution_order)


test_play_at_random = PlayAtRandom.TestCase


#: A quick-summon unit whose [戦闘] auto bounces itself back to the hand, so it can be summoned
#: again in the same quick-summon step (issue 11 point 15).
BOUNCER = {
    "owner": "A",
    "skills": "無",
    "zone": "hand",
    "quick_summon": True,
    "abilities": [{"name": "跳躍", "kind": "auto", "timing": "戦闘", "target": "self", "effect": "bounce"}],
}


def test_flow_qs_a_unit_bounced_by_its_own_battle_auto_is_not_a_participant_twice() -> None:
    """FLOW-QS, AUTO-2 (issue 11 point 15): the machine's invariant on the move sequence it found —
    BOUNCER is summoned, its [戦闘] auto bounces it to the hand, and it is summoned again."""
    machine = PlayAtRandom()
    machine.game = make({**UNITS, "跳ね兎": BOUNCER}, CARDS, at="quick_summon")
    for _ in range(2):
        machine._play("A: summon 跳ね兎")
        machine.no_unit_twice_among_the_participants()
