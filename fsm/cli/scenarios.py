"""``fsm run`` and ``fsm moves``: play scenario files and narrate them; the legal moves where one ends."""

from __future__ import annotations

import argparse

from fsm.cli.options import SubParsers, add_lang, add_variant, scenario_files, variant_overrides
from fsm.i18n import _


def _cmd_run(args: argparse.Namespace) -> int:
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.scenarios.narrate import json_lines, narrate, verdict
    from fsm.scenarios.playing import play

    overrides = variant_overrides(args.variant, "run")
    if overrides is None:
        return 2
    counts = {0: 0, 1: 0, 2: 0}
    for path in scenario_files(args.files):
        try:
            result = play(path, overrides=overrides)
        except BadInput as err:
            counts[2] += 1
            for problem in err.problems:  # every problem of the file, each on its line
                print(f"fsm run: {problem}", file=sys.stderr)
                if args.json:
                    error = {"type": "error", "file": path, "where": problem.where, "message": problem.message}
                    print(json.dumps(error, ensure_ascii=False))
            continue
        counts[0 if result.ok else 1] += 1
        if args.json:
            for obj in json_lines(result):
                print(json.dumps(obj, ensure_ascii=False))
        else:
            for line in verdict(result) if args.quiet else narrate(result):
                print(line)
    if not args.json and sum(counts.values()) > 1:
        summary = _("{passed} passed, {failed} failed, {malformed} malformed")
        print(summary.format(passed=counts[0], failed=counts[1], malformed=counts[2]))
    return 2 if counts[2] else 1 if counts[1] else 0


def add_run(sub: SubParsers) -> None:
    p = sub.add_parser(
        "run",
        help=_("play scenario files, narrating each step and the clause it follows"),
        description=_(
            "Play scenario files (docs/scenarios.md) and check their expectations. "
            "Exit status: 0 every expectation holds, 1 some does not, 2 a file is malformed."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help=_("scenario files (a directory means its *.yaml)"))
    p.add_argument("--json", action="store_true", help=_("print JSON lines, one object per step, instead of prose"))
    p.add_argument("-q", "--quiet", action="store_true", help=_("print only PASS/FAIL and the reasons for failing"))
    add_variant(p)
    add_lang(p)
    p.set_defaults(func=_cmd_run)


def _cmd_moves(args: argparse.Namespace) -> int:
    import sys

    from fsm.errors import BadInput
    from fsm.i18n import either, language
    from fsm.rules.catalogue import CLAUSES
    from fsm.scenarios.playing import play

    overrides = variant_overrides(args.variant, "moves")
    if overrides is None:
        return 2
    try:
        result = play(args.file, overrides=overrides, expectations=False)
    except BadInput as err:
        for problem in err.problems:
            print(f"fsm moves: {problem}", file=sys.stderr)
        return 2
    game = result.game
    for f in result.failures:  # stopped: a move of the file was refused, the game stands just before it
        said = _("stopped early: {failure}") if f.stopped else _("a refused check differs: {failure}")
        print("fsm moves: " + said.format(failure=f), file=sys.stderr)
    if args.why:
        v = game.why_not(args.why)
        if v.legal:
            print(_("{move}: legal here").format(move=args.why))
            return 0
        if not v.clause:
            print(f"fsm moves: --why {args.why!r}: {v.message}", file=sys.stderr)
            return 2
        print(_("{move}: not legal here").format(move=args.why))
        print(f"  {v.clause} ({CLAUSES[v.clause].title_in(language())}): {v.message}")
        return 1
    t = game.table
    print(_("{file}: at {states}").format(file=args.file, states=game.flow_name()))
    pending = _("pending #{seq} {source} ({kind}) declared by {player}")
    for item in t.chain:
        spec = game.spec_of(item)
        kind = either(spec.ja, item.kind)  # the kind's key is what a file writes; its Japanese name
        print("  " + pending.format(seq=item.seq, source=item.source, kind=kind, player=item.declarer))
    print("  " + _("to move: {player}").format(player=game.actor() or _("nobody (the game is over)")))
    lang = language()
    for m in game.legal_moves():
        print(f"  {m.text(lang)}")  # in the language asked for: ready to paste into a scenario
    return 1 if result.failures else 0


def add_moves(sub: SubParsers) -> None:
    p = sub.add_parser(
        "moves",
        help=_("list the legal moves where a scenario ends, or say why a move is (not) legal there"),
        description=_(
            "Play a scenario's moves (without checking its expectations), then list every "
            "legal move. With --why, say whether one move is legal and which clause decides. "
            "Exit status: 0 listed / legal, 1 not legal (or a move of the file was refused), 2 malformed."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("a scenario file"))
    p.add_argument("--why", metavar="MOVE", help=_('a move such as "B: pass": is it legal here, and if not why'))
    add_variant(p)
    add_lang(p)
    p.set_defaults(func=_cmd_moves)
