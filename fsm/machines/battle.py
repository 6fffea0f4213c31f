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

A pass is one event (``pass_``) and the end of a counter chain another (``chain_resolved``);
the guarded transitions decide where each leads: the next step, the speed result re-offered or
re-rolled, the first player decided, the next normal timing or the battle's end.  Which side
acts in each step is :data:`ACTS`, read from the configuration.  What the dice said and who is
first are data on :class:`fsm.table.model.Battle`.  The work of entering a step and of each
transition is on the listener, :class:`fsm.machines.steps.BattleSteps`.  The machine's state is kept on
the table (``Table.flow_state``) so that a snapshot captures it.
"""

from __future__ import annotations

from typing import Any

from statemachine import State, StateChart
from statemachine.orderedset import OrderedSet

from fsm.machines.chain import Host, TableSlot

#: What each event, guard and action means, for diagrams: (Japanese, English, clause).  The
#: actions are what a step's passing means (the lines the game narrates); the states' own work
#: (battle start, the speed roll, clean-up) is their entry, in :mod:`fsm.machines.steps`.
MEANINGS: dict[str, tuple[str, str, str]] = {
    "advance": ("進軍", "advance into an enemy-held geo", "FLOW-ADV"),
    "pass_": ("パス", "pass", ""),  # each edge's action cites what the pass ends
    "chain_resolved": ("チェーン解決済み", "the chain has resolved", "TIM-CTR-3"),
    "cleanup": ("戦闘後処理", "battle cleanup", "FLOW-CLEANUP"),
    "end_turn": ("メインフェイズ終了", "end the main phase", "TIM-MF"),
    "begin_turn": ("相手のメインフェイズ開始", "the other player's main phase begins", "MAR-1"),
    "offer_reply": ("変種：相手も[ＭＦ]で応じられる", "variant mf_cards_in: the other player may reply", "TIM-MF"),
    "reply_first": ("相手の応答がまだ", "the other player has not replied yet", "TIM-MF"),
    "next_step": ("次の手順", "next step", "FLOW-QS"),
    "to_formation": ("隊列変更へ", "on to formation", "FLOW-QS"),
    "next_side": ("後の陣営へ", "other side", "FLOW-FORM"),
    "to_speed": ("スピード決定へ", "on to speed", "FLOW-FORM"),
    "dice_rerolled": ("ダイスが振り直された", "the dice were rolled again (variant reroll_answerable)", "TIM-SPD"),
    "offer_result": ("結果に反撃できる", "the new result may be answered", "TIM-SPD"),
    "tied": ("同値", "tie", "FLOW-SPD"),
    "tie_rerolls": ("変種：同値なら振り直し", "variant speed_tie=reroll", "FLOW-SPD"),
    "reroll_tie": ("振り直し", "roll again", "FLOW-SPD"),
    "speed_decided": ("先攻決定", "first player decided", "FLOW-SPD"),
    "battle_over": ("戦闘終了の条件", "one side gone, or nobody can act", "FLOW-END"),
    "both_passed": ("変種：両者パス", "variant battle_ends_on_double_pass: both passed", "FLOW-END"),
    "count_pass": ("パスを数える", "count the pass", "FLOW-END"),
    "reset_passes": ("パスの連続が途切れる", "passes in a row start again", "FLOW-END"),
    "next_timing": ("次の通常タイミング", "next normal timing", "FLOW-NORMAL"),
    "end_battle": ("戦闘終了", "end the battle", "FLOW-END"),
    "to_main_phase": ("メインフェイズへ戻る", "back to the main phase", "FLOW-CLEANUP"),
}

#: Where a table may start, as configurations of the GameFlow machine (a scenario's ``start:``).
STARTS: dict[str, tuple[str, ...]] = {
    "main_phase": ("main_phase",),
    "quick_summon": ("battle", "quick_summon", "advancing_summon"),
    "formation": ("battle", "formation", "first_side"),
    "speed": ("battle", "speed"),
    "normal_timing": ("battle", "normal_timing"),
}

#: Who acts in each step (FLOW-QS, FLOW-FORM, FLOW-NORMAL, TIM-MF), by state: the innermost
#: state of the configuration that is listed decides.  Speed and battle end have no owner (the
#: dice's window has priority; the battle is over).  :class:`fsm.machines.steps.BattleSteps` says which
#: player a role is.
ACTS: dict[str, str] = {
    "main_phase": "main_phase",  # the turn player, or the other replying (variant mf_cards_in)
    "advancing_summon": "advancing",
    "advancing_equip": "advancing",
    "advancing_reveal": "advancing",
    "defending_summon": "defending",
    "defending_equip": "defending",
    "defending_reveal": "defending",
    "first_side": "formation_first",
    "second_side": "formation_second",
    "normal_timing": "turn",
}


class GameFlow(StateChart):
    """Main phase and battle (FLOW-*, MAR-1, TIM-MF, QS-1, TIM-SPD, TIM-NORMAL).

    A player's pass is one event, ``pass_``, and the end of a counter chain one event,
    ``chain_resolved``: the transitions and their guards say where the game goes.  The guards,
    the actions and the states' entries are resolved on the listener (:class:`fsm.machines.steps.BattleSteps`).
    """

    allow_event_without_transition = False
    catch_errors_as_events = False
    enable_self_transition_entries = False  # an internal transition (end of turn) re-enters nothing

    main_phase = State("メインフェイズ / main phase", initial=True)

    class battle(State.Compound, name="戦闘 / battle"):  # noqa: N801 - a state, named as in the rules
        class quick_summon(State.Compound, name="速攻召喚タイミング / quick-summon timing"):  # noqa: N801
            advancing_summon = State("1 進軍側 速攻召喚 / advancing side summons", initial=True)
            advancing_equip = State("2 進軍側 装備 / advancing side equips")
            advancing_reveal = State("3 進軍側 使用宣言 / advancing side reveals")
            defending_summon = State("4 防御側 速攻召喚 / defending side summons")
            defending_equip = State("5 防御側 装備 / defending side equips")
            defending_reveal = State("6 防御側 使用宣言 / defending side reveals")

        class formation(State.Compound, name="隊列変更 / formation"):  # noqa: N801
            first_side = State("先に隊列 / first side", initial=True)
            second_side = State("後に隊列 / second side")

        speed = State("スピード決定 / speed determination")
        normal_timing = State("通常タイミング / normal timing")
        battle_end = State("戦闘終了 / battle end")

        _qs = quick_summon
        pass_ = (
            _qs.advancing_summon.to(_qs.advancing_equip, on="next_step")
            | _qs.advancing_equip.to(_qs.advancing_reveal, on="next_step")
            | _qs.advancing_reveal.to(_qs.defending_summon, on="next_step")
            | _qs.defending_summon.to(_qs.defending_equip, on="next_step")
            | _qs.defending_equip.to(_qs.defending_reveal, on="next_step")
            | _qs.defending_reveal.to(formation, on="to_formation")
            | formation.first_side.to(formation.second_side, on="next_side")
            | formation.second_side.to(speed, on="to_speed")
            | normal_timing.to(battle_end, cond="battle_over", on="end_battle")
            | normal_timing.to(battle_end, cond="both_passed", on="end_battle")
            | normal_timing.to.itself(on=["count_pass", "next_timing"])
        )
        # The steps that stay in speed or normal_timing are external self-transitions: python-statemachine
        # 3.2 enters the parent (battle, with its autos) on an internal one from an atomic child state.
        chain_resolved = (
            speed.to.itself(cond="dice_rerolled", on="offer_result")
            | speed.to.itself(cond=["tied", "tie_rerolls"], on="reroll_tie")
            | speed.to(normal_timing, on="speed_decided")
            | normal_timing.to(battle_end, cond="battle_over", on="end_battle")
            | normal_timing.to.itself(on=["reset_passes", "next_timing"])
            # a chain in a quick-summon or formation step (a designer's equip with a window) ends in that step
            | _qs.advancing_summon.to.itself()
            | _qs.advancing_equip.to.itself()
            | _qs.advancing_reveal.to.itself()
            | _qs.defending_summon.to.itself()
            | _qs.defending_equip.to.itself()
            | _qs.defending_reveal.to.itself()
            | formation.first_side.to.itself()
            | formation.second_side.to.itself()
        )
        del _qs

    advance = main_phase.to(battle)
    pass_ = main_phase.to.itself(internal=True, cond="reply_first", on="offer_reply") | main_phase.to.itself(
        internal=True, on=["end_turn", "begin_turn"]
    )
    chain_resolved = main_phase.to.itself(internal=True)
    cleanup = battle.to(main_phase, on="to_main_phase")

    def __init__(self, game: Host, listener: Any = None) -> None:
        self._host = game  # what `at` reads the state from, without the model's two lookups
        super().__init__(model=TableSlot(game, "flow_state"), listeners=[listener] if listener else [])

    def at(self, state_id: str) -> bool:
        """Is the game in this state (at any depth)?

        Read straight from the table (an ordered set of state IDs, or one ID): the rules ask this
        on every legality check, and the library's configuration view builds a new set each time.
        """
        value = self._host.table.flow_state  # the model's state (a TableSlot of this field)
        return state_id in value if isinstance(value, OrderedSet) else value == state_id

    def role(self) -> str | None:
        """Who acts in the step the game is in, as a role (:data:`ACTS`); None: nobody's step."""
        value = self.model.state
        ids = list(value) if isinstance(value, OrderedSet) else [value]
        return next((ACTS[i] for i in reversed(ids) if i in ACTS), None)

    @staticmethod
    def landing(target: State) -> tuple[str, ...]:
        """The configuration a transition into ``target`` ends in: its ancestors, itself, and the
        initial states it enters by default (what a log line says was entered)."""
        path: list[str] = []
        state: Any = target
        while state is not None:
            path.insert(0, str(state.id))
            state = state.parent
        while state := next((s for s in target.states if s.initial), None) if target.states else None:
            path.append(str(state.id))
            target = state
        return tuple(path)
