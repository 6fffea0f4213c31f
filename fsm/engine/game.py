"""The engine: one small surface over the table and its state machines.

* :meth:`Game.legal_moves` — every move the rules allow now, as concrete moves;
* :meth:`Game.apply` — play one; a refused move raises :class:`RuleViolation` and changes
  nothing;
* :meth:`Game.why_not` — is this move legal, and if not, which clause forbids it;
* :meth:`Game.snapshot` / :meth:`Game.restore` — the whole table, for undo and exploring.

Widgets, scenarios, the explorer and the tests all use only these.  Every transition of
every machine is written to :attr:`Game.log` with the clause it follows.

``Game`` wires the parts, each named for its concept: what the rules see on the table
(:mod:`fsm.spec.board`), legality (:mod:`fsm.engine.legality`, :mod:`fsm.engine.declaring`), move generation
(:mod:`fsm.engine.candidates`), what each move does (:mod:`fsm.engine.play`), what a procedure's steps do
(:mod:`fsm.engine.resolving`), the narrative (:mod:`fsm.engine.narration`).  Where a machine is stepped is here,
one method each: :meth:`Game._procedure`, :meth:`Game.start`, :meth:`Game.resolve_item`,
:meth:`Game.send_flow`, :meth:`Game.send_chain`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, replace

from fsm.engine.candidates import candidates, timing_fits
from fsm.engine.legality import Legality
from fsm.engine.narration import LogEntry, Narration
from fsm.engine.play import Play
from fsm.engine.resolving import Resolving
from fsm.errors import BadInput, RuleViolation
from fsm.i18n import N_, _, language, unworded, using
from fsm.machines.battle import STARTS, GameFlow
from fsm.machines.chain import CounterChain, priority
from fsm.machines.compiled import attach
from fsm.machines.procedures import Procedure, procedure_class
from fsm.machines.steps import BattleSteps
from fsm.machines.trace import CHAIN, FLOW, Trace, capture
from fsm.rules.skills import Pool, Skills
from fsm.rules.timing import Point
from fsm.rules.variants import Variants
from fsm.spec.board import OnTable
from fsm.spec.effects import text as effect_text
from fsm.spec.kinds import KindSpec
from fsm.spec.ruleset import Ruleset, builtin
from fsm.table.model import Ability, Card, ChainItem, Effect, Table, Unit
from fsm.table.moves import VERBS, Move, parse

__all__ = ["Game", "LogEntry", "Snapshot", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    legal: bool
    clause: str = ""
    message: str = ""

    def __str__(self) -> str:
        return (
            _("legal")
            if self.legal
            else _("illegal ({clause}): {message}").format(clause=self.clause, message=self.message)
        )


@dataclass
class Snapshot:
    """A saved table and how long the log was: restoring it undoes everything since."""

    table: Table
    log_length: int


class Game:
    """A table plus the rules in force (kinds, timings, variants)."""

    def __init__(
        self, table: Table, rules: Ruleset | None = None, variants: Variants | None = None, lang: str | None = None
    ) -> None:
        self.table = table
        # The language of the log and the refusals (docs/i18n.md); None: the one chosen around the call.
        self.lang = language(lang) if lang else None
        self.rules = rules or builtin()
        self.variants = variants or Variants()
        self.board = OnTable(self)
        self.narration = Narration(self)
        self.legality = Legality(self)
        self.resolving = Resolving(self)
        self.play = Play(self, self.resolving)
        self._procedures: dict[KindSpec, Procedure] = {}
        self._points: dict[str | None, Point] | None = None  # while legal_moves() judges: each player's point
        self.compiled = False  # machines run from compiled tables (fsm.machines.compiled), e.g. while exploring
        self.chain = CounterChain(self)
        self.steps = BattleSteps(self)
        self.flow = GameFlow(self, self.steps)

    @property
    def log(self) -> list[LogEntry]:
        return self.narration.log

    quiet = property(lambda self: self.narration.quiet)  # nothing narrated (the explorer): machines word nothing

    # ------------------------------------------------------------------ public surface
    def actor(self) -> str | None:
        """The player who must decide now: the priority holder (read from the counter chain), else
        whoever owns the flow's step (read from its configuration, :data:`fsm.machines.battle.ACTS`)."""
        holder = priority(self.table)
        if holder is not None:
            return holder
        return self.steps.player(self.flow.role())

    def legal_moves(self) -> list[Move]:
        """Every move the rules allow now.  These very objects, applied to this table's content
        (the same :attr:`fsm.table.model.Table.stamp`: this table or a copy of it, unwritten), are
        played without checking them again; any other move, and any text, is checked in full."""
        legal = _allowed(self)
        # Kept on the table, so that its copies carry it (the list keeps the ids taken); it holds
        # while the copy's stamp is this one, that is until the copy is written.
        self.table.vetted = (self, self.table.stamp, {id(m) for m in legal}, legal)
        return legal

    def _vetted_here(self, move: Move) -> bool:
        vetted = self.table.vetted
        return vetted is not None and vetted[0] is self and vetted[1] is self.table.stamp and id(move) in vetted[2]

    def why_not(self, move: Move | str) -> Verdict:
        with using(self.lang):
            return self._why_not(move)

    def _why_not(self, move: Move | str) -> Verdict:
        try:
            problem = self.legality.problem(self._as_move(move))
        except BadInput as err:  # not a move on this table at all: no clause to cite
            return Verdict(False, "", err.message)
        return Verdict(True) if problem is None else Verdict(False, *problem)

    def apply(self, move: Move | str, atomic: bool = True) -> list[LogEntry]:
        """Play a move. Refused: :class:`RuleViolation`, and nothing changed.

        ``atomic=False`` skips the undo copy of the table: for a caller that already holds
        its own copy and throws the table away if the move fails (the explorer).
        """
        with using(self.lang):
            return self._apply(move, atomic)

    def _apply(self, move: Move | str, atomic: bool) -> list[LogEntry]:
        if isinstance(move, Move) and self._vetted_here(move):
            m = move  # produced by legal_moves() for this very content: its check stands
        else:
            m = self._as_move(move)
            problem = self.legality.problem(m)
            if problem is not None:
                raise RuleViolation(*problem)
        snap = self.snapshot() if atomic else None
        start = len(self.log)
        try:
            self.narration.open_move(m, self.legality.move_clause)
            with self.table.writing():  # the parts the move reads become its own (fsm/table/sharing.py)
                self.play.do(m)
        except BaseException:
            if snap is not None:
                self.restore(snap)
            raise
        return self.log[start:]

    def snapshot(self) -> Snapshot:
        return Snapshot(self.table.copy(), len(self.log))

    def restore(self, snap: Snapshot) -> None:
        self.table = snap.table.copy()
        del self.log[snap.log_length :]

    def _repr_html_(self) -> str:
        """Who decides and where the flow stands.  In Jupyter, ``fsm`` also draws the live diagrams
        under it (:func:`fsm.show_games_in`): drawing is at the edge, and the engine never imports it."""
        actor = self.actor()
        with using(self.lang):
            who = _("{player} to decide").format(player=actor) if actor else _("nobody has a move")
        where = " › ".join(s.name for s in self.flow.configuration)
        return f"<div><b>{html.escape(who)}</b> — {html.escape(where)}</div>"

    def point(self, player: str | None = None) -> Point:
        """Where the game stands for ``player`` (by default the player to move), in the terms the
        timing table uses: the turn player's main phase is the other player's "opponent's main phase"."""
        points = self._points
        if points is None:
            return _point(self, player)
        if player not in points:
            points[player] = _point(self, player)
        return points[player]

    STARTS = STARTS  # where a table may start (fsm.machines.battle.STARTS)

    def begin(self, at: str = "main_phase") -> None:
        """Put the flow at a starting point, running what entering it does (autos, dice)."""
        with using(self.lang), self.table.writing():
            self._begin(at)

    def _begin(self, at: str) -> None:
        from statemachine.orderedset import OrderedSet

        if at not in self.STARTS:
            raise BadInput(
                _("cannot start at {at!r}; choose one of: {starts}").format(at=at, starts=", ".join(self.STARTS))
            )
        if at != "main_phase" and self.table.battle is None:
            raise BadInput(_("starting at {at} needs a battle (advancing, defending, geo)").format(at=at))
        self.table.flow_state = OrderedSet(self.STARTS[at])
        self.note(_("the game starts at: {where}").format(where=self.flow_name()), "FLOW-ZONES")
        for u in self.table.units.values():
            for ab in u.abilities:
                partnered = ab.sync is None or self.partner(u, ab.sync) is not None
                if u.on_field and ab.effect and self.board.is_continuous(ab) and partnered:
                    effects = _(", ").join(map(effect_text, ab.effect))
                    line = _("{ability} of {unit} is always in effect ({effects})")
                    self.note(line.format(ability=ab.name, unit=u.name, effects=effects), "AUTO-4")
        for state_id in self.STARTS[at]:  # what entering each state does, as if the flow had gone there
            enter = getattr(self.steps, f"on_enter_{state_id}", None)
            if enter is not None:
                enter()

    def _as_move(self, move: Move | str) -> Move:
        """The move as data, with its player filled in; a verb or player this table does not know
        is malformed input (BadInput), not a rules question."""
        m = parse(move, self.table.players) if isinstance(move, str) else move
        if m.verb not in VERBS:
            raise BadInput(_("unknown move {verb!r}; moves are: {verbs}").format(verb=m.verb, verbs=", ".join(VERBS)))
        if not m.player:
            m = replace(m, player=self.actor() or "")
        if m.player not in self.table.players:
            message = _("no player {player!r} on this table; players are {players} (names are case-sensitive)")
            players = _(" and ").join(self.table.players)
            raise BadInput(message.format(player=m.player, players=players))
        return m

    def flow_name(self) -> str:
        """Where the flow stands, by its rule terms: a state's name is "日本語 / English", and the
        language spoken picks its half (never the state IDs)."""
        half = 0 if language() == "ja" else -1
        return " / ".join(s.name.split(" / ")[half] for s in self.flow.configuration)

    def spec_of(self, item: ChainItem) -> KindSpec:
        """The procedure spec a chain item follows (its kind, wrapped in 【同調】 if it is one)."""
        return self.board.spec_of(item)

    # ------------------------------------------------------------------ where the machines are stepped
    def _procedure(self, spec: KindSpec) -> Procedure:
        proc = self._procedures.get(spec)
        if proc is None:
            proc = self._procedures[spec] = procedure_class(spec)(self)
            if self.compiled:
                attach(proc)
        return proc

    def start(self, item: ChainItem, told: dict[str, tuple[str, str]] | None = None) -> bool:
        """Hand a new item to its procedure, which takes it as far as it goes by itself: into its
        counter window, or (no window) through its recheck to 発動 / 不発.  ``told`` gives the
        narration of steps that read differently here (an auto at battle start, the speed dice).
        True if the item now waits on the chain."""
        spec = self.spec_of(item)
        self.narration.told = told or {}
        try:
            self._procedure(spec).step(item, "activate" if spec.by_itself else "declare")
        finally:
            self.narration.told = {}
        return item in self.table.chain

    def resolve_item(self, item: ChainItem) -> None:
        """Its window closed: the item's procedure rechecks it, then it resolves or fizzles (TIM-CTR-3)."""
        self._procedure(self.spec_of(item)).step(item, "close_window")

    def send_flow(self, event: str, text: str = "", clause: str = "") -> None:
        """Send a flow event; a line the engine words for it comes before what entering does."""
        at = len(self.log)
        left = tuple(self.flow.configuration_values)
        self.flow.send(event)
        if text and not self.narration.quiet:
            entered = tuple(str(v) for v in self.flow.configuration_values)
            trace = capture(self.table, FLOW, event, left)
            self.narration.insert(at, text, clause, "GameFlow", entered, trace)

    def send_chain(self, event: str, text: str, clause: str) -> None:
        left = (self.table.chain_state,)
        self.chain.send(event)
        if self.narration.quiet:
            return
        trace = capture(self.table, CHAIN, event, left)
        self.note(text, clause, machine="CounterChain", entered=(str(self.table.chain_state),), trace=trace)

    # ------------------------------------------------------------------ the board (fsm.table.protocol.Board)
    def note(
        self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = (), trace: Trace | None = None
    ) -> None:
        self.narration.note(text, clause, machine, entered, trace)

    def acted(self, unit: Unit) -> bool:
        return self.board.acted(unit)

    def available(self, unit: Unit) -> Skills:
        return self.board.available(unit)

    def holdings(self, unit: Unit) -> list[Pool]:
        return self.board.holdings(unit)

    def holders(self, unit: Unit) -> str:
        return self.board.holders(unit)

    def held_clause(self, unit: Unit, need: Mapping[str, int], clause: str) -> str:
        return self.board.held_clause(unit, need, clause)

    def equip_holds(self, unit: Unit) -> list[Pool]:
        return [part for _, part in self.board.equip_holds(unit)]

    def in_battle(self, unit: Unit) -> bool:
        return self.board.in_battle(unit)

    def partner(self, unit: Unit, name: str) -> Unit | None:
        return self.board.partner(unit, name)

    def continuous_effects(self, unit: Unit) -> list[Effect]:
        return self.board.continuous_effects(unit)

    def ability_of(self, item: ChainItem) -> Ability | None:
        return self.board.ability_of(item)

    def source_of(self, item: ChainItem) -> Card | Ability | None:
        return self.board.source_of(item)

    def source_name(self, item: ChainItem) -> str:
        return self.board.source_name(item)

    def leave_field(self, unit: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        self.resolving.leave_field(unit, zone, destroyed, discarded)

    def equip(self, card: Card, unit: Unit) -> None:
        self.resolving.equip(card, unit)

    def reroll_speed(self, clause: str) -> None:
        """An effect re-rolls the speed dice (TIM-SPD): the battle's steps roll them."""
        self.steps.reroll(clause)

    # ------------------------------------------------------------------ the procedures' host (ProcedureHost)
    def tell(self, item: ChainItem, step: str, entered: str, event: str) -> None:
        self.narration.tell(item, step, entered, event)

    def pay_price(self, item: ChainItem) -> None:
        self.resolving.pay_price(item)

    def reserve(self, item: ChainItem) -> None:
        self.resolving.reserve(item)

    def act_in_normal_timing(self, item: ChainItem) -> None:
        self.resolving.act_in_normal_timing(item)

    def roll_dice(self, item: ChainItem) -> None:
        self.resolving.roll_dice(item)

    def apply_effect(self, item: ChainItem) -> None:
        self.resolving.apply_effect(item)

    def release(self, item: ChainItem) -> None:
        self.resolving.release(item)

    def open_window(self, item: ChainItem) -> None:
        self.resolving.open_window(item)

    def settled(self, item: ChainItem) -> None:
        self.resolving.settled(item)


def _allowed(game: Game) -> list[Move]:
    """The candidates the rules allow.  Nothing is written while they are judged, so where each
    player stands is worked out once (:meth:`Game.point`), and no refusal is worded: only whether a
    rule refuses matters here.  A candidate naming what is not on the table is asked again, worded,
    so that its error says what it names."""
    problem = game.legality.problem
    game._points = {}
    try:
        actor = game.actor()
        fits = timing_fits(game, actor) if actor is not None else None
        with unworded():
            return [m for m in candidates(game, fits) if problem(m) is None]
    except BadInput:
        return [m for m in candidates(game) if problem(m) is None]
    finally:
        game._points = None


def _point(game: Game, player: str | None) -> Point:
    """:meth:`Game.point`, worked out."""
    t = game.table
    if t.chain and priority(t) is not None:
        top = t.chain[-1]
        found = (game.spec_of(top).category, top.during)
        point = _ANSWERING.get(found)
        if point is None:
            point = _ANSWERING[found] = Point(N_("answering"), answering=found[0], during=found[1])
        return point
    own = player is None or player == game.actor()
    if game.flow.at("main_phase") and t.main_reply and own:
        return _OPPONENT_MAIN_REPLY
    if game.flow.at("main_phase"):
        return _OWN_MAIN if own else _OPPONENT_MAIN
    if game.flow.at("normal_timing"):
        return _OWN_NORMAL if own else _OPPONENT_NORMAL
    return Point(game.flow_name())


# The points _point gives, made once (a Point is frozen; legal_moves() asks one for every table).
_OPPONENT_MAIN_REPLY = Point(N_("opponent's main phase"), action="opponent_main")
_OWN_MAIN = Point(N_("own main phase"), action="own_main")
_OPPONENT_MAIN = Point(N_("opponent's main phase"))
_OWN_NORMAL = Point(N_("own normal timing"), action="own_normal")
_OPPONENT_NORMAL = Point(N_("opponent's normal timing"))
_ANSWERING: dict[tuple[str, str], Point] = {}  # by the pending item's category and during
