"""The game flow that hosts the timings: the owner's main phase and the battle.

``GameFlow`` is a compound StateChart::

    main_phase ─advance (into an enemy-held geo, FLOW-ADV)→ battle
    battle:
      quick_summon (FLOW-QS, QS-1): advancing side summon → equip → reveal,
                                    then defending side summon → equip → reveal
      formation (FLOW-FORM):        first side → second side
      speed (FLOW-SPD, TIM-SPD):    the dice are rolled and may be answered
      normal_timing (FLOW-NORMAL):  players alternate, first player first
      battle_end (FLOW-END, FLOW-CLEANUP)
    battle ─cleanup→ main_phase

Which player acts in a step, what the dice said and who is first are data on
:class:`fsm.model.Battle`; the machine says where the game is.  Its state is kept on the
table (``Table.flow_state``) so that a snapshot captures it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statemachine import State, StateChart
from statemachine.orderedset import OrderedSet

from .chain import TableSlot

if TYPE_CHECKING:
    from .engine import Game


#: What each event means, for diagrams: (Japanese, English, clause).
MEANINGS: dict[str, tuple[str, str, str]] = {
    "advance": ("進軍", "advance into an enemy-held geo", "FLOW-ADV"),
    "end_turn": ("メインフェイズ終了", "end the main phase", "TIM-MF"),
    "next_step": ("次の手順", "next step", "FLOW-QS"),
    "to_formation": ("隊列変更へ", "on to formation", "FLOW-QS"),
    "next_side": ("後の陣営へ", "other side", "FLOW-FORM"),
    "to_speed": ("スピード決定へ", "on to speed", "FLOW-FORM"),
    "speed_decided": ("先攻決定", "first player decided", "FLOW-SPD"),
    "next_timing": ("次の通常タイミング", "next normal timing", "FLOW-NORMAL"),
    "end_battle": ("戦闘終了", "end the battle", "FLOW-END"),
    "cleanup": ("戦闘後処理", "battle cleanup", "FLOW-CLEANUP"),
}


class GameFlow(StateChart):
    """Main phase and battle (FLOW-*, MAR-1, TIM-MF, QS-1, TIM-SPD, TIM-NORMAL)."""

    allow_event_without_transition = False
    catch_errors_as_events = False

    main_phase = State("メインフェイズ / main phase", initial=True)

    class battle(State.Compound, name="戦闘 / battle"):  # noqa: N801 - a state, named as in the rules
        class quick_summon(State.Compound, name="速攻召喚タイミング / quick-summon timing"):  # noqa: N801
            advancing_summon = State("1 進軍側 速攻召喚 / advancing side summons", initial=True)
            advancing_equip = State("2 進軍側 装備 / advancing side equips")
            advancing_reveal = State("3 進軍側 使用宣言 / advancing side reveals")
            defending_summon = State("4 防御側 速攻召喚 / defending side summons")
            defending_equip = State("5 防御側 装備 / defending side equips")
            defending_reveal = State("6 防御側 使用宣言 / defending side reveals")
            next_step = (
                advancing_summon.to(advancing_equip)
                | advancing_equip.to(advancing_reveal)
                | advancing_reveal.to(defending_summon)
                | defending_summon.to(defending_equip)
                | defending_equip.to(defending_reveal)
            )

        class formation(State.Compound, name="隊列変更 / formation"):  # noqa: N801
            first_side = State("先に隊列 / first side", initial=True)
            second_side = State("後に隊列 / second side")
            next_side = first_side.to(second_side)

        speed = State("スピード決定 / speed determination")
        normal_timing = State("通常タイミング / normal timing")
        battle_end = State("戦闘終了 / battle end")

        to_formation = quick_summon.to(formation)
        to_speed = formation.to(speed)
        speed_decided = speed.to(normal_timing)
        next_timing = normal_timing.to.itself(internal=True)
        end_battle = normal_timing.to(battle_end)

    advance = main_phase.to(battle)
    end_turn = main_phase.to.itself(internal=True)
    cleanup = battle.to(main_phase)

    def __init__(self, game: Game) -> None:
        super().__init__(model=TableSlot(game, "flow_state"))

    def at(self, state_id: str) -> bool:
        """Is the game in this state (at any depth)?

        Read straight from the table (an ordered set of state IDs, or one ID): the rules ask this
        on every legality check, and the library's configuration view builds a new set each time.
        """
        value = self.model.state
        return state_id in value if isinstance(value, OrderedSet) else value == state_id
