"""The counter chain (TIM-CTR-1..3, ACT-5, SC-5): who may answer, when the window closes, and the
order things resolve in; and the dice every declaration rolls (ACT-4, COST-3, SD-4)."""

from __future__ import annotations

from conftest import log_index, make, play, refused, texts
from machine_trace import edges, priorities, took, unwound

from fsm.engine.game import Game
from fsm.machines.chain import priority
from fsm.machines.trace import CHAIN

_NOTHING = {"timing": "反撃", "target": "none", "effect": "nothing"}
UNITS = {
    "岩の巨人": {
        "owner": "A",
        "skills": "土 土 土",
        "abilities": [{"name": "岩砕き", "kind": "action", "timing": "通常/反撃", "effect": "destroy", "dice": True}],
    },
    "水の精": {"owner": "B", "skills": "水 水 水"},
}
CARDS = {
    **{f"土{i}": {"owner": "A", "condition": "土", **_NOTHING} for i in (1, 2, 3)},
    **{f"水{i}": {"owner": "B", "condition": "水", **_NOTHING} for i in (1, 2, 3)},
    "石つぶて": {"owner": "A", "condition": "土", "timing": "通常", "effect": "exhaust"},
}


def game(seed: int = 1, **variants: object) -> Game:
    return make(UNITS, CARDS, seed=seed, variants=variants)


def resolved_sources(g: Game) -> list[str]:
    by_seq = {o.seq: o.source for o in g.table.outcomes}
    return [by_seq[s] for s in g.table.resolution_order]


def test_tim_ctr_1_counter_answers_an_ability_a_skill_and_an_attack() -> None:
    """TIM-CTR-1: a [反撃] card may answer an ability, a skill card or an attack, of either player."""
    for first in ("A: activate 岩砕き of 岩の巨人 on 水の精", "A: use 石つぶて by 岩の巨人 on 水の精"):
        g = game()
        play(g, first)
        assert "B: use 水1 by 水の精" in texts(g), first
    g = game(attack_outcome="none")
    play(g, "A: attack 水の精 with 岩の巨人")
    assert "B: use 水1 by 水の精" in texts(g)
    play(g, "B: pass", "A: pass", "B: attack 岩の巨人 with 水の精")  # now B attacks: A answers
    assert "A: use 土1 by 岩の巨人" in texts(g)


def test_tim_ctr_1_no_counter_without_something_to_answer() -> None:
    """TIM-CTR-1: with nothing pending, a [反撃]-only card cannot be used."""
    g = game()
    refused(g, "A: use 土1 by 岩の巨人", "TIM-CTR-1")


def test_tim_ctr_2_priority_goes_to_the_opponent_of_the_newest_declarer() -> None:
    """TIM-CTR-2: each new item gives priority to the other side of whoever declared it."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    assert priority(g.table) == "B"
    refused(g, "A: use 土1 by 岩の巨人", "TIM-CTR-2")
    play(g, "B: use 水1 by 水の精")
    assert priority(g.table) == "A"
    refused(g, "B: use 水2 by 水の精", "TIM-CTR-2")
    play(g, "A: use 土1 by 岩の巨人")
    assert priority(g.table) == "B"
    assert [i.answering for i in g.table.chain] == [None, 1, 2]
    # the chain machine took each edge into the opponent's priority (its state names who holds it)
    assert [(e.event, e.entered) for e in edges(g, CHAIN)] == [
        ("open_window", "priority_opponent"),
        ("counter", "priority_opponent"),
        ("counter", "priority_opponent"),
    ]


def test_act_5_declarer_may_counter_its_own_item_after_the_opponent_passes() -> None:
    """ACT-5: when the opponent passes, the declarer's side may answer its own item."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass")
    assert priority(g.table) == "A" and g.table.chain_state == "priority_declarer"
    play(g, "A: use 土1 by 岩の巨人")
    assert [i.source for i in g.table.chain] == ["岩砕き", "土1"]
    assert priority(g.table) == "B"  # the new item's opponent is asked first again


def test_tim_ctr_2_window_closes_only_on_two_passes_in_a_row() -> None:
    """TIM-CTR-2: pass, counter, pass leaves the window open; the next pass closes it."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: pass", "A: use 土1 by 岩の巨人", "B: pass")
    assert len(g.table.chain) == 2 and priority(g.table) == "A"
    assert not g.table.outcomes
    play(g, "A: pass")
    assert not g.table.chain and priority(g.table) is None and g.table.chain_state == "empty"
    assert resolved_sources(g) == ["土1", "岩砕き"]
    assert priorities(g)[:5] == [
        "priority_opponent",
        "priority_declarer",
        "priority_opponent",
        "priority_declarer",
        "resolving",
    ]
    assert took(g, CHAIN, "pass_priority", "resolving").left == ("priority_declarer",)  # the second pass in a row


def test_tim_ctr_3_counters_to_any_depth_resolve_last_declared_first() -> None:
    """TIM-CTR-3: a chain six deep resolves newest first, each item after its answer."""
    g = game()
    play(
        g,
        "A: activate 岩砕き of 岩の巨人 on 水の精",
        "B: use 水1 by 水の精",
        "A: use 土1 by 岩の巨人",
        "B: use 水2 by 水の精",
        "A: use 土2 by 岩の巨人",
        "B: use 水3 by 水の精",
    )
    declared = [i.seq for i in g.table.chain]
    assert len(declared) == 6
    play(g, "A: pass", "B: pass")
    assert g.table.resolution_order == declared[::-1]
    assert resolved_sources(g) == ["水3", "土2", "水2", "土1", "水1", "岩砕き"]
    assert unwound(g) == ["水3", "土2", "水2", "土1", "水1", "岩砕き"]  # the order the procedures were rechecked


def test_tim_ctr_3_default_no_counter_between_resolutions() -> None:
    """TIM-CTR-3 (variant counters_between_resolutions = false): once both pass, the whole chain
    resolves in one go and nobody is asked again in between."""
    g = game()
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: use 水1 by 水の精", "A: pass")
    start = len(g.log)
    play(g, "B: pass")
    assert len(g.table.resolution_order) == 2
    assert not any(e.machine == "CounterChain" and e.entered == ("priority_opponent",) for e in g.log[start:])


def test_tim_ctr_3_variant_window_reopens_between_resolutions() -> None:
    """TIM-CTR-3 (variant counters_between_resolutions = true): after each resolution the window
    opens again, priority to the opponent of the new top's declarer, and a new counter may answer
    the item still waiting."""
    g = game(counters_between_resolutions=True)
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精", "B: use 水1 by 水の精", "A: pass", "B: pass")
    assert resolved_sources(g) == ["水1"]
    assert [i.source for i in g.table.chain] == ["岩砕き"]
    assert g.table.chain_state == "priority_opponent" and priority(g.table) == "B"
    play(g, "B: use 水2 by 水の精")  # a fresh counter to 岩砕き, between two resolutions
    assert g.table.chain[-1].answering == g.table.chain[0].seq
    play(g, "A: pass", "B: pass")
    assert resolved_sources(g) == ["水1", "水2"]
    play(g, "B: pass", "A: pass")
    assert resolved_sources(g) == ["水1", "水2", "岩砕き"]
    assert not g.table.chain and priority(g.table) is None


# ---------------------------------------------------------------- dice


def _dice_after_declaring(seed: int) -> int:
    g = game(seed=seed)
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    dice = g.table.chain[-1].dice
    assert dice is not None
    return dice


def test_act_4_dice_reproducible_from_the_seed() -> None:
    """ACT-4: the dice are a function of the table's seed: the same seed rolls the same, and some
    other seed rolls differently."""
    assert _dice_after_declaring(7) == _dice_after_declaring(7)
    rolls = {_dice_after_declaring(seed) for seed in range(12)}
    assert len(rolls) > 1


def test_act_4_dice_visible_before_anyone_may_counter() -> None:
    """ACT-4: when the opponent is first asked whether to counter, the dice already stand on the
    chain item and in the log."""
    g = game(seed=3)
    start = len(g.log)
    play(g, "A: activate 岩砕き of 岩の巨人 on 水の精")
    item = g.table.chain[-1]
    assert priority(g.table) == "B" and not g.table.outcomes
    assert item.dice is not None
    assert log_index(g, f"dice for #{item.seq}: {item.dice}", start) < log_index(g, "B may counter first", start)
    # a counter answering it sees the same number; the dice are not rolled again
    play(g, "B: use 水1 by 水の精")
    assert g.table.chain[0].dice == item.dice
