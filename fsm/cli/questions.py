"""``fsm check`` (can a goal be reached? does it never happen?) and ``fsm puzzle`` (is it solvable?)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fsm.cli.options import SubParsers, add_lang
from fsm.i18n import _

#: Exit statuses of both commands (the issue's table): 2 is malformed input, 3 a search that was cut.
MALFORMED, CUT = 2, 3


def _moves(line: list[str]) -> list[str]:
    from fsm.i18n import language
    from fsm.table.moves import written

    return [f"  {n}. {written(m, language()) or m}" for n, m in enumerate(line, 1)]


def _bad(command: str, err: Any) -> int:
    for problem in err.problems:  # every problem, each with its file:line
        print(f"fsm {command}: {problem}", file=sys.stderr)
    return MALFORMED


def _cmd_check(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from fsm.errors import BadInput
    from fsm.explore.explorer import parse_settings
    from fsm.explore.position import game_at
    from fsm.explore.progress import Progress
    from fsm.explore.questions import never, reach
    from fsm.scenarios.goals import load_goal
    from fsm.scenarios.reading import read_yaml

    spec, question = (args.reach, "reach") if args.reach else (args.never, "never")
    progress = Progress("off" if args.quiet or args.json else "auto")
    try:
        settings = parse_settings(args.variant or [])
        game = game_at(args.file, "end" if args.end else "start", settings)
        data = read_yaml(Path(args.file))
        goal = load_goal(spec, args.file, data)
        ask = reach if question == "reach" else never
        answer = ask(game, goal, depth=args.depth, budget=args.budget, jobs=args.jobs, progress=progress)
    except BadInput as err:
        return _bad("check", err)
    finally:
        progress.close()
    if answer.stopped_by == "interrupted":
        from fsm.cli.exploring import INTERRUPTED

        return INTERRUPTED
    if answer.found and args.write:
        from fsm.explore.position import expand_settings

        _write(args, data, goal, answer.line, question, spec, expand_settings(game, settings))
    if args.json:
        print(json.dumps(answer.as_dict(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(_check_text(answer, spec, question)))
    if answer.found and args.write:
        print(_("wrote {file}: `fsm run {file}` plays the line").format(file=args.write))
    if answer.found is None:
        return CUT
    return (0 if answer.found else 1) if question == "reach" else (1 if answer.found else 0)


def _check_text(answer: Any, goal: str, question: str) -> list[str]:
    n, tables = len(answer.line), answer.tables
    if answer.found is None:
        said = _("unknown: {goal} was not reached before the search was cut ({why})")
        return [said.format(goal=goal, why=answer.cut_reason())]
    if not answer.found:
        said = (
            _("not reachable: no line reaches {goal} (every line searched, {tables} tables)")
            if question == "reach"
            else _("holds: {goal} never happens (every line searched, {tables} tables)")
        )
        return [said.format(goal=goal, tables=tables)]
    said = (
        _("reached: {goal} after {n} moves, a shortest line ({tables} tables searched):")
        if question == "reach"
        else _("violated: {goal} happens after {n} moves, a shortest line ({tables} tables searched):")
    )
    return [said.format(goal=goal, n=n, tables=tables), *_moves(answer.line)]


def _write(
    args: argparse.Namespace, data: Any, goal: Any, line: list[str], question: str, spec: str, variants: Any
) -> None:
    """The line as a scenario file; ``variants``: the ``--variant`` settings, presets spelled out."""
    from pathlib import Path

    from fsm.scenarios.writing import scenario_text

    before = list(data.get("moves") or []) if args.end else []
    title = (_("{goal} reached") if question == "reach" else _("{goal} happens: a counterexample")).format(goal=spec)
    notes = _("Written by `fsm check {file} --{question} {goal}`: a shortest line (fewest moves).").format(
        file=args.file, question=question, goal=spec
    )
    text = scenario_text(data, before + line, goal, title, notes, variants)
    Path(args.write).write_text(text, encoding="utf-8")


def add_check(sub: SubParsers) -> None:
    p = sub.add_parser(
        "check",
        help=_("can a goal be reached, or does it never happen? a shortest line as a scenario file"),
        description=_(
            "Search every line of play from a scenario's start (or end), breadth first, for a table where "
            "GOAL holds; GOAL is a goal file (an expect: block) or the name of one under the file's goals:. "
            "Exit status: --reach 0 found, 1 not found (the search was complete); --never 0 holds (the "
            "search was complete), 1 violated; both 2 malformed input, 3 unknown (the search was cut)."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("a scenario file (scenarios/, designs/)"))
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--reach", metavar="GOAL", help=_("find a shortest line to a table where GOAL holds"))
    which.add_argument(
        "--never", metavar="GOAL", help=_("show that GOAL holds on no line, or a shortest line where it does")
    )
    p.add_argument(
        "--write", metavar="OUT.yaml", help=_("write the line found as a scenario file that `fsm run` plays")
    )
    p.add_argument("--end", action="store_true", help=_("start from the scenario's end (after its moves)"))
    p.add_argument(
        "--depth", type=int, default=None, help=_("at most this many moves per line (default: until every line ends)")
    )
    p.add_argument(
        "--budget", type=int, default=200_000, help=_("stop after this many tables, and say so (default: 200000)")
    )
    p.add_argument("--jobs", type=int, default=1, metavar="N", help=_("expand each level of the search in N processes"))
    p.add_argument(
        "--variant", action="append", metavar="NAME=VALUE", help=_("a rule variant or a preset name (repeatable)")
    )
    p.add_argument("--quiet", action="store_true", help=_("show no progress while searching"))
    p.add_argument("--json", action="store_true", help=_("print the answer as JSON"))
    add_lang(p)
    p.set_defaults(func=_cmd_check)


def _cmd_puzzle(args: argparse.Namespace) -> int:
    import json

    from fsm.errors import BadInput
    from fsm.explore.puzzle import refute, solve, strategy_tree
    from fsm.scenarios.goals import load_puzzle

    try:
        game, puzzle = load_puzzle(args.file)
        if args.try_line is not None:
            line = [m.strip() for m in args.try_line.split(";") if m.strip()]
            result = refute(game, puzzle, line)
            if args.json:
                print(json.dumps({**result.__dict__, "answer": result.answer}, ensure_ascii=False, indent=2))
            else:
                print("\n".join(_try_text(result, puzzle.player)))
            return 1 if result.refuted else 0
        proof = solve(game, puzzle, budget=args.budget)
    except BadInput as err:
        return _bad("puzzle", err)
    if args.json:
        print(json.dumps(proof.as_dict(), ensure_ascii=False, indent=2))
    else:
        print(puzzle.title_text() or args.file)
        print("\n".join(_proof_text(proof, puzzle, strategy_tree(proof, game))))
    if proof.solvable is None:
        return CUT
    return 0 if proof.solvable else 1


def _proof_text(proof: Any, puzzle: Any, tree: list[tuple[int, str]]) -> list[str]:
    from fsm.i18n import language
    from fsm.table.moves import written

    if proof.solvable is None:
        said = _("unknown: the budget of tables ran out after {tables} tables")
        return [said.format(tables=proof.tables)]
    if not proof.solvable:
        said = _("not solvable: {player} cannot force the goal whatever it does (every line searched, {tables} tables)")
        out = [said.format(player=puzzle.player, tables=proof.tables)]
        for line in list(proof.refutations.values())[:6]:
            head = _("after {move}, the goal fails on this line:").format(move=written(line[0], language()) or line[0])
            out += [head, *_moves(line)]
        return out
    said = _(
        "solvable: {player} forces the goal in at most {n} moves whatever the other player answers ({tables} tables)"
    )
    out = [said.format(player=puzzle.player, n=proof.moves, tables=proof.tables), _("winning strategy:")]
    return out + [f"  {'  ' * depth}{written(m, language()) or m}" for depth, m in tree]


def _try_text(result: Any, player: str) -> list[str]:
    if not result.refuted:
        return [_("solved: the line reaches the goal whatever the other player answers")]
    if result.answer:
        head = _("refuted: the other player answers {answer}, and the goal fails").format(answer=result.answer)
    else:
        head = _("refuted: the line does not reach the goal")
    return [head, *_moves(result.line), *(f"  {why}" for why in result.why)]


def add_puzzle(sub: SubParsers) -> None:
    p = sub.add_parser(
        "puzzle",
        help=_("is a puzzle solvable whatever the other player answers? its winning strategy"),
        description=_(
            "Prove a puzzle file (a scenario with puzzle: player, goal, moves, hint) from where its moves "
            "end: an AND-OR search, the solver's moves OR, the other player's answers AND. A pass is not "
            "counted among the solver's moves. Exit status: 0 solvable, 1 not (the search was complete), "
            "2 malformed input, 3 unknown (the search was cut); with --try, 0 the line works, 1 refuted."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("a puzzle file (puzzles/)"))
    p.add_argument(
        "--try", dest="try_line", metavar="MOVE; MOVE",
        help=_("a proposed line of the solver's moves: say which answer makes the goal fail"),
    )  # fmt: skip
    p.add_argument(
        "--budget", type=int, default=200_000, help=_("stop after this many tables, and say so (default: 200000)")
    )
    p.add_argument("--json", action="store_true", help=_("print the answer as JSON"))
    add_lang(p)
    p.set_defaults(func=_cmd_puzzle)
