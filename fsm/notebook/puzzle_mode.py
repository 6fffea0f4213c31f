"""The step-through in puzzle mode (issue 25): the learner plays the puzzle's solver, the other side
answers by itself with the strongest answer the proof found (:meth:`fsm.explore.puzzle.Proof.answer_for`:
one that stops the goal if there is one, else the one that makes the win longest).  **check** says
solved, failed or not yet, with why (the goal's failures, :func:`fsm.scenarios.goals.goal_failures`);
**hint** gives the puzzle's hint, then the winning move itself (:meth:`Proof.move_for`).

    from fsm import PuzzleStepThrough
    PuzzleStepThrough.from_puzzle("../puzzles/stop_the_rock.yaml", lang="ja")

The page side is ``front/puzzle.js``: a panel above the move buttons, fed by ``puzzle`` messages.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from fsm.engine.game import Game, LogEntry
from fsm.errors import BadInput
from fsm.explore.puzzle import Proof, solve
from fsm.i18n import N_, using
from fsm.notebook.step_html import esc
from fsm.notebook.step_through import StepThrough
from fsm.notebook.widget_words import say
from fsm.render.labels import Lang
from fsm.scenarios.goals import Puzzle, goal_failures, goal_holds, load_puzzle
from fsm.scenarios.reading import read_yaml
from fsm.table.moves import Move, parse

#: The panel's words, by the key front/puzzle.js uses.
PANEL_WORDS = {
    "heading": N_("puzzle"),
    "check": N_("check"),
    "check_tip": N_("is the goal reached, and can it still be forced?"),
    "hint": N_("hint"),
    "hint_tip": N_("first the puzzle's hint, then the winning move"),
    "goal": N_("goal"),
    "solved": N_("solved"),
    "failed": N_("failed"),
    "playing": N_("your move"),
    "left_label": N_("your moves left:"),
}


class PuzzleStepThrough(StepThrough):
    """A step-through whose other side plays itself, with a goal to reach (see the module docstring)."""

    def __init__(self, game: Game, puzzle: Puzzle, proof: Proof, clauses: list[str], lang: Lang = "both") -> None:
        self.puzzle, self.proof = puzzle, proof
        self.hints = 0  # hint presses at this position: the first gives the text, the next the move
        self.said = ""  # the last thing check, hint or the other side's answer said
        super().__init__(game, puzzle.title_text(self._spoken(lang)), clauses=clauses, lang=lang)
        self._report()

    @classmethod
    def from_puzzle(cls, path: str | Path, lang: Lang = "both") -> PuzzleStepThrough:
        """The puzzle of a file, proved first: one the solver cannot be shown to win is refused."""
        spoken = cls._spoken(lang)
        game, puzzle = load_puzzle(path, lang=spoken)
        game.lang = spoken  # the game answers why-not in it
        proof = solve(game, puzzle)
        if proof.solvable is not True:
            why = say(N_("this puzzle is not proved solvable ({why}): fsm puzzle FILE says more"), lang)
            raise BadInput(why.format(why="; ".join(proof.refutation) or proof.stopped_by or ""), puzzle.at)
        data = read_yaml(Path(path))
        return cls(game, puzzle, proof, [str(c) for c in data.get("clauses") or []], lang)

    @staticmethod
    def _spoken(lang: Lang) -> str | None:
        return None if lang == "both" else lang

    # ------------------------------------------------------------------ where the learner stands
    @property
    def other(self) -> str:
        return next(p for p in self.game.table.players if p != self.puzzle.player)

    def used(self) -> int:
        """The solver's moves so far, passes not counted (as the proof counts them)."""
        played = [e for e in self.game.log[self._start :] if e.echo]
        players = list(self.game.table.players)
        return sum(1 for e in played if _counts(e, players, self.puzzle.player))

    def left(self) -> int | None:
        return None if self.puzzle.moves is None else self.puzzle.moves - self.used()

    @property
    def status(self) -> str:
        """``solved`` (the goal holds); ``failed`` (it does not, and can no longer be reached: play is
        over, the solver went past its moves, or the other side, answering its best, can now stop
        it); else ``playing``."""
        if goal_holds(self.game, self.puzzle.goal):
            return "solved"
        return "failed" if self._lost() else "playing"

    def _lost(self) -> str:
        """Why the goal can no longer be reached ("" while it can)."""
        left = self.left()
        if self.game.actor() is None or not self.game.legal_moves():
            return self._say(N_("play is over"))
        if left is not None and left < 0:
            return self._say(N_("you made more than {moves} moves (passes are free)")).format(moves=self.puzzle.moves)
        if self.game.actor() == self.puzzle.player and self.proof.move_for(self.game, left) is None:
            return self._say(N_("from here {other} can stop you, whatever you play: undo, or start again")).format(
                other=esc(self.other)
            )
        return ""

    # ------------------------------------------------------------------ the buttons
    def play(self, move: Move | str) -> list[LogEntry]:
        """The learner's move; then the other side answers, until the learner is to move again."""
        if self.frame.decision and self.game.actor() != self.puzzle.player and self.status == "playing":
            self._answer()  # the page stood at the other side's turn (undo, the timeline): it answers
            self.said = self._say(N_("{other} answers by itself in a puzzle")).format(other=esc(self.other))
            self._report()
            return []
        entries = super().play(move)
        if entries:
            self.hints, self.said = 0, ""
            self._answer()
            self._report()
        return entries

    def check(self) -> str:
        """Solved, failed (with why), or not yet (what is missing, how many moves are left)."""
        status = self.status
        if status == "solved":
            text = self._say(N_("solved: the goal holds"))
        elif status == "failed":
            text = self._failed()
        else:
            text = self._say(N_("not yet: {left} of your moves left (passes are free)")).format(left=self._left_text())
            text += self._why() + self._say(N_("you can still force it"))
        self.said = text
        self._report()
        return _plain(text)

    def _failed(self) -> str:
        return self._say(N_("failed: {why}")).format(why=self._lost()) + self._why()

    def hint(self) -> str:
        """The puzzle's hint first; pressed again, the move that forces the goal from here."""
        self.hints += 1
        hint = self.puzzle.hint_text(self._spoken(self.lang))
        if self.status != "playing":
            return self.check()
        if self.hints == 1 and hint:
            text = self._say(N_("hint: {hint}")).format(hint=esc(hint))
        else:
            move = self.proof.move_for(self.game, self.left()) if self.game.actor() == self.puzzle.player else None
            if move is None:
                text = self._say(N_("no move of yours forces the goal from here: undo, or start again"))
            else:
                text = self._say(N_("try {move}")).format(move=f"<code>{esc(move)}</code>")
        self.said = text
        self._report()
        return _plain(text)

    # ------------------------------------------------------------------ the other side, and the panel
    def _answer(self) -> None:
        """The other side's strongest answers, until the learner decides (or play is over)."""
        for _ in range(200):  # a bound, not a limit ever reached: a battle ends long before
            if self.game.actor() != self.other or self.status != "playing":
                return
            if not self.frame.decision:
                self.play_to_decision()
            answer = self.proof.answer_for(self.game, self.left())
            legal = [str(m) for m in self.game.legal_moves()]
            if answer not in legal:  # past the proof's reach (the budget): pass if it may, else any move
                answer = next((m for m in legal if m.endswith(": pass")), legal[0] if legal else None)
            if answer is None:
                return
            StepThrough.play(self, answer)

    def _why(self) -> str:
        with using(self._spoken(self.lang)):
            failures = goal_failures(self.game, self.puzzle.goal)
        lines = "".join(f"<li>{esc(_without_place(f))}</li>" for f in failures)
        return f"<ul class='fsm-puzzle-why'>{lines}</ul>" if lines else ""

    def _left_text(self) -> str:
        left = self.left()
        return "∞" if left is None else str(max(left, 0))

    def _say(self, message: str) -> str:
        return say(message, self.lang)

    def _report(self) -> None:
        """The panel's state, sent to the page (and again on its ``hello``)."""
        status = self.status
        if status == "solved" and not self.said:
            self.said = self._say(N_("solved: the goal holds"))
        elif status == "failed" and not self.said:
            self.said = self._failed()
        words = {k: say(v, self.lang) for k, v in PANEL_WORDS.items()}
        self.widget.send(
            {
                "type": "puzzle",
                "seat": list(self.game.table.players).index(self.puzzle.player),
                "status": status,
                "notes": esc(self.puzzle.notes_text(self._spoken(self.lang))),
                "goal": goal_lines(self.puzzle.goal.expect, self.lang),
                "left": self._left_text(),
                "said": self.said,
                "words": words,
            }
        )

    def _message(self, widget: Any, content: dict[str, Any], buffers: Any) -> None:
        kind = content.get("type")
        if kind in ("check", "hint"):
            point = int(content.get("point", self._at))
            if 0 <= point < len(self.points) and point != self._at:  # the page undid moves on its own
                self._forget_after(point)
                self.hints = 0
            (self.check if kind == "check" else self.hint)()
            return
        super()._message(widget, content, buffers)
        if kind == "hello":
            self._report()


def _counts(entry: LogEntry, players: list[str], solver: str) -> bool:
    try:
        move = parse(entry.move, players)
    except BadInput:
        return False
    return move.player == solver and move.verb != "pass"


def _without_place(failure: str) -> str:
    """A goal failure without its ``FILE:LINE (key):`` (the learner reads the goal, not the file)."""
    head, sep, rest = failure.partition(": ")
    return rest if sep and (".yaml" in head or ".yml" in head) else failure


#: The words of a goal as the panel shows them; names (units, cards) and clause IDs stay as written.
GOAL_WORDS = {
    "outcomes": N_("outcomes"),
    "zones": N_("where things are"),
    "units": N_("units"),
    "first": N_("first player"),
    "flow": N_("the game stands at"),
    "fizzled": N_("fizzled"),
    "resolved": N_("resolved"),
    "graveyard": N_("graveyard"),
    "field": N_("field"),
    "hand": N_("hand"),
    "normal_timing": N_("normal timing"),
    "zone": N_("zone"),
    "destroyed": N_("destroyed"),
    "acted": N_("acted"),
    True: N_("yes"),
    False: N_("no"),
}


def goal_lines(expect: Any, lang: Lang) -> list[str]:
    """The goal as short lines in the panel's language, e.g. ``outcomes: 岩砕き fizzled (ACT-6)``."""

    def word(value: Any) -> str:
        known = GOAL_WORDS.get(value) if isinstance(value, str | bool) else None
        return say(known, lang) if known else str(value)

    def want(value: Any) -> str:
        if not isinstance(value, dict):
            return word(value)
        parts = [
            f"({v})" if k == "clause" else word(v) if k == "result" else f"{word(k)} {word(v)}"
            for k, v in value.items()
        ]
        return " ".join(parts)

    out = []
    for key, value in dict(expect).items():
        told = "; ".join(f"{name} {want(v)}" for name, v in value.items()) if isinstance(value, dict) else want(value)
        out.append(esc(f"{word(key)}: {told}"))
    return out


def _plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("  ", " ").strip()
