"""The diagram model: python-statemachine's extracted graph of a machine, with each state and edge
labelled in the words of the rules page (and its clause), alternatives merged, inactive or folded
parts collapsed; the screen palette by name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from statemachine import StateChart
from statemachine.contrib.diagram.extract import extract
from statemachine.contrib.diagram.model import (
    ActionType,
    DiagramAction,
    DiagramGraph,
    DiagramState,
    DiagramTransition,
)

from fsm.machines.battle import GameFlow
from fsm.machines.chain import CounterChain
from fsm.machines.procedures import EVENTLESS_STEPS, Procedure
from fsm.render.labels import Labeller, Lang, Term, caption, state_term
from fsm.render.styles import SCREEN
from fsm.rules.catalogue import CLAUSES
from fsm.spec.kinds import WORDS, KindSpec

FORMATS = ("svg", "png", "pdf", "mmd")

# The screen palette, by name (tests and notebooks read them); the print one is in fsm.render.styles.
INK, MUTED, LINE, PAPER = SCREEN.ink, SCREEN.muted, SCREEN.line, SCREEN.paper
STATE_FILL, CLUSTER_FILL, CLUSTER_LINE = SCREEN.state_fill, SCREEN.cluster_fill, SCREEN.cluster_line
GOOD, GOOD_FILL, BAD, BAD_FILL = SCREEN.good, SCREEN.good_fill, SCREEN.bad, SCREEN.bad_fill
WINDOW, WINDOW_FILL = SCREEN.window, SCREEN.window_fill
ACTIVE, ACTIVE_FILL, ACTIVE_PALE = SCREEN.active, SCREEN.active_fill, SCREEN.active_pale

OR = {"ja": "または", "en": "or", "both": "or"}

#: A transition just taken: (states it left, event, states it entered), by state ID.
Taken = tuple[tuple[str, ...], str, tuple[str, ...]]

#: What a state is, for its colour: resolves (good), fizzles (bad), a counter window.
ROLES = {
    "resolved": "good",
    "fizzled": "bad",
    "counter_window": "window",
    "priority_opponent": "window",
    "priority_declarer": "window",
}


# ---------------------------------------------------------------------------------- the model


@dataclass
class LabelledState(DiagramState):
    """A state of the extracted graph, with its rule term and colour role."""

    term: Term = field(default_factory=lambda: Term("", ""))
    role: str = ""
    stays: list[Term] = field(default_factory=list)  # events that keep the machine here
    steps: list[Term] = field(default_factory=list)  # a folded compound state: the steps inside it


@dataclass
class LabelledTransition(DiagramTransition):
    """A transition of the extracted graph, with the rule terms of its event, guards, actions."""

    event_term: Term | None = None
    guard_terms: list[Term] = field(default_factory=list)
    action_terms: list[Term] = field(default_factory=list)
    role: str = ""
    alternatives: bool = False  # the guards are alternatives (any one), not all required
    event_ids: tuple[str, ...] = ()  # the machine's own names, to find the edge a trace took
    guard_ids: list[str] = field(default_factory=list)  # ``!name`` when negated (``unless=``)


@dataclass(frozen=True)
class Diagram:
    """One machine to draw, with what the index says about it."""

    stem: str  # file name without extension
    machine: type[StateChart] | None  # None: the timing map, drawn from timing data (fsm.render.timing_map)
    title: Term
    summary: Term  # one line, for the index and the site
    rankdir: str = "LR"
    note: Term | None = None  # printed under the title, in the diagram's language
    folded: tuple[str, ...] = ()  # compound states drawn as one box listing their steps
    print_folded: tuple[str, ...] | None = None  # the same on paper, if narrower (None: as on screen)


def _class_transitions(states: Iterable[Any]) -> list[Any]:
    """The machine's transitions in the order ``extract`` lists them (depth first)."""
    out: list[Any] = []
    for state in states:
        out.extend(state.transitions)
        out.extend(_class_transitions(state.states))
    return out


def class_states(states: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for state in states:
        out.append(state)
        out.extend(class_states(state.states))
    return out


def machine_class(machine: StateChart | type[StateChart]) -> type[StateChart]:
    return machine if isinstance(machine, type) else type(machine)


def _labelled_action(action: DiagramAction, lab: Labeller, text: Any) -> DiagramAction:
    """A state's entry or exit action in rule words."""
    if not lab.known(action.body):
        return action
    return DiagramAction(action.type, text(lab.action(action.body)))


def labelled_graph(
    machine: type[StateChart], lang: Lang = "both", active: Iterable[Any] = (), clauses: bool = True
) -> tuple[DiagramGraph, list[str]]:
    """The machine's ``DiagramGraph`` with rule terms, colour roles and ``active`` marked.

    Returns the graph and the clause IDs its labels cite, in catalogue order.  The plain-text
    labels (``event``, ``guards``, ``actions``) carry the clause IDs unless ``clauses`` is off.
    """

    def text(term: Term) -> str:
        return term.text(lang) if clauses else term.words(lang)

    graph = extract(machine)
    lab = Labeller(machine)
    cited: set[str] = set(dict(lab.spec.clauses).values()) if lab.spec else set()
    active = set(active)
    active_ids = {s.id for s in class_states(machine.states) if s.value in active}

    def convert(state: DiagramState) -> LabelledState:
        base = {f.name: getattr(state, f.name) for f in fields(DiagramState)}
        base["children"] = [convert(c) for c in state.children]
        base["is_active"] = state.id in active_ids
        # the library words a staying step with Python names; it is worded below, in rule terms
        base["actions"] = [_labelled_action(a, lab, text) for a in state.actions if a.type != ActionType.INTERNAL]
        return LabelledState(**base, term=state_term(state.name), role=ROLES.get(state.id, ""))

    states: list[DiagramState] = [convert(s) for s in graph.states]
    by_id = {s.id: s for s in walk_states(states) if isinstance(s, LabelledState)}  # all are, via convert()
    transitions: list[DiagramTransition] = []
    class_transitions = _class_transitions(machine.states)
    assert len(class_transitions) == len(graph.transitions), "extract() and the class disagree"
    for t, ct in zip(graph.transitions, class_transitions, strict=True):
        base = {f.name: getattr(t, f.name) for f in fields(DiagramTransition)}
        if t.is_initial:
            transitions.append(LabelledTransition(**base))
            continue
        # an eventless transition (the machine goes on by itself) reads as the step it takes
        events = [lab.event(str(e.id)) for e in ct.events] or [lab.eventless(ct.target.id)]
        event = Term(" · ".join(e.ja for e in events), " · ".join(e.en for e in events), events[0].clause)
        guards = [lab.guard(g) for g in t.guards]
        actions = [lab.action(str(c.func)) for c in ct.on if not c.is_convention]
        cited.update(x.clause for x in (*events, *guards, *actions) if x.clause)
        base["event"] = text(event)
        base["guards"] = [text(g) for g in guards]
        base["actions"] = [text(a) for a in actions]
        target_role = by_id[t.targets[0]].role if t.targets and t.targets[0] in by_id else ""
        lt = LabelledTransition(
            **base,
            event_term=event,
            guard_terms=guards,
            action_terms=actions,
            role=target_role,
            event_ids=tuple(str(e.id) for e in ct.events) or (EVENTLESS_STEPS.get(ct.target.id, ""),),
            guard_ids=list(t.guards),
        )
        if t.is_internal:
            source = by_id[t.source]
            source.stays.append(event)
            source.stays += [Term(f"[{g.ja}]", f"[{g.en}]", g.clause) for g in guards]
            source.stays += [Term(f"/ {a.ja}", f"/ {a.en}", a.clause) for a in actions]
            # a step that stays in its state reads with its guards and what it does, as an edge would
            said = [text(event), *(f"[{text(g)}]" for g in guards), *(f"/ {text(a)}" for a in actions)]
            source.actions.append(DiagramAction(ActionType.INTERNAL, " ".join(said)))
        transitions.append(lt)
    transitions = _merge_alternatives(transitions)
    if lab.spec is not None:
        cited.update(value.clause for _, value in caption(lab.spec))
    graph.states = states
    graph.transitions = transitions
    return graph, [c for c in CLAUSES if c in cited] + sorted(cited - set(CLAUSES))


def _merge_alternatives(transitions: list[DiagramTransition]) -> list[DiagramTransition]:
    """One edge for parallel transitions that differ only in their guard (the fizzle reasons)."""
    out: list[DiagramTransition] = []
    seen: dict[tuple[Any, ...], LabelledTransition] = {}
    for t in transitions:
        key = (t.source, tuple(t.targets), t.event, tuple(t.actions), t.is_internal)
        first = seen.get(key)
        if isinstance(t, LabelledTransition) and len(t.guards) == 1 and t.event_term is not None:
            if first is not None and len(first.guards) >= 1 and (first.alternatives or len(first.guards) == 1):
                first.guards.append(t.guards[0])
                first.guard_terms.append(t.guard_terms[0])
                first.guard_ids.append(t.guard_ids[0])
                first.alternatives = True
                continue
            seen[key] = t
        out.append(t)
    return out


def collapse_inactive(graph: DiagramGraph) -> DiagramGraph:
    """Fold every compound state the machine is not in into one box (the live view)."""
    return fold(graph, {s.id for s in walk_states(graph.states) if s.children and not s.is_active})


def fold(graph: DiagramGraph, ids: Iterable[str]) -> DiagramGraph:
    """Draw these compound states as one box each, which lists the steps inside it."""
    ids = set(ids)
    box: dict[str, str] = {}  # each state drawn inside a folded box → that box
    for state in walk_states(graph.states):
        if state.children and state.id in ids:
            for c in walk_states(state.children):
                box.setdefault(c.id, state.id)
            if isinstance(state, LabelledState):
                state.steps = [c.term for c in state.children if isinstance(c, LabelledState)]
            state.children = []
    kept = []
    for t in graph.transitions:
        source = box.get(t.source, t.source)
        targets = [box.get(x, x) for x in t.targets]
        if source in targets and (t.source in box or set(t.targets) & box.keys()):
            continue  # between the box's own steps: the box lists them
        # A way into or out of the box from a step inside it is drawn from (to) the box itself.
        t.source, t.targets = source, targets
        kept.append(t)
    graph.transitions = kept
    graph.compound_state_ids = {s.id for s in walk_states(graph.states) if s.children}
    graph.bidirectional_compound_ids &= graph.compound_state_ids
    return graph


def walk_states(states: Sequence[DiagramState]) -> Iterable[DiagramState]:
    for s in states:
        yield s
        yield from walk_states(s.children)


def describe(machine: type[StateChart]) -> Diagram:
    """File name, title and one-line summary of a machine class."""
    if issubclass(machine, Procedure):
        spec: KindSpec = machine.spec
        fizzles = [WORDS[r] for r in spec.fizzle_if]
        start = Term("自動発動", "activates by itself") if spec.by_itself else Term("宣言", "declare")
        window = (
            Term(" → 反撃受付", " → counter window") if spec.opens_window else Term("（反撃受付なし）", " (no window)")
        )
        if spec.rechecks:
            end = Term(
                f"再確認 → 発動、次のときは不発: {'・'.join(ja for ja, _ in fizzles)}",
                f"recheck → resolves, or fizzles if: {', '.join(en for _, en in fizzles)}",
            )
        else:
            end = Term("発動（再確認がないので不発にならない）", "resolves (nothing to recheck: it cannot fizzle)")
        first = Term("発動時", "activation") if spec.by_itself else Term("宣言時", "declaration")
        sync = (
            Term(
                f"。【同調】の相手は{first.ja}と再確認で確かめる",
                f"; the 【同調】 partner is checked at {first.en} and recheck",
            )
            if spec.sync
            else Term("", "")
        )
        summary = Term(f"{start.ja}{window.ja} → {end.ja}{sync.ja}。", f"{start.en}{window.en} → {end.en}{sync.en}.")
        stem = ("sync_" if spec.sync else "kind_") + re.sub(r"[^\w-]", "_", spec.key.removeprefix("sync_"))
        title = Term(spec.label, f"{'sync ' if spec.sync else ''}{spec.en} procedure")
        return Diagram(stem, machine, title, summary, "TB")
    if issubclass(machine, GameFlow):
        summary = Term(
            "メインフェイズと戦闘: 速攻召喚、隊列変更、スピード決定、通常タイミング、戦闘終了、後片付け。",
            "The main phase and the battle: quick summon, formation, speed determination, "
            "normal timings, battle end, cleanup.",
        )
        # The quick-summon and formation steps are listed in their boxes, so the battle's steps
        # fit on half a page; `fsm diagrams --fold battle` folds the whole battle, --fold none nothing.
        folded = ("quick_summon", "formation")
        # On paper the battle is one box listing its steps: with every step's passes and chain ends
        # drawn, it would not fit an A4 column at a readable size.
        return Diagram(
            "game_flow",
            machine,
            Term("ゲームの流れ", "game flow"),
            summary,
            "TB",
            folded=folded,
            print_folded=("battle",),
        )
    if issubclass(machine, CounterChain):
        summary = Term(
            "[反撃] の受付: 誰が反撃できるか、2回のパスで閉じ、新しい項目から順に解決する。",
            "The [反撃] window: who may counter, two passes close it, items resolve newest first.",
        )
        note = Term(
            "「相手」「宣言者側」は、チェーンで一番新しい項目を宣言したプレイヤーから見た立場",
            "'opponent' and 'declarer' are relative to whoever declared the newest item on the chain",
            "TIM-CTR-2",
        )
        return Diagram("counter_chain", machine, Term("反撃チェーン", "counter chain"), summary, "TB", note=note)
    name = machine.__name__
    return Diagram(re.sub(r"[^\w-]", "_", name), machine, Term(name, name), Term(doc := machine.__doc__ or "", doc))
