"""Command-line entry point: ``fsm <subcommand>`` or ``python -m fsm <subcommand>``.

Adding a subcommand takes two small pieces:

1. a handler ``_cmd_<name>(args: argparse.Namespace) -> int`` that imports what
   it needs *inside* the function (keeps ``fsm rules`` fast), and
2. a ``_add_<name>(sub)`` function that registers its parser, listed in
   ``_REGISTRARS``.

Every text a user reads goes through ``_()`` (fsm/i18n.py) and is filled with ``.format``
afterwards; ``--lang ja|en`` (anywhere on the line) chooses the language before the parser
is built, so the help texts are translated too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TypeAlias

from fsm.i18n import LANGUAGES, _, using

_SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


# --- rules ------------------------------------------------------------------


def _cmd_rules(args: argparse.Namespace) -> int:
    from fsm.catalogue import CLAUSES, format_line
    from fsm.i18n import language

    prefix = (args.prefix or "").upper()
    lang = language()
    for c in CLAUSES.values():
        if c.id.startswith(prefix):
            print(format_line(c, lang))
    return 0


def _add_rules(sub: _SubParsers) -> None:
    p = sub.add_parser("rules", help=_("print the rules catalogue, one clause per line"))
    p.add_argument("prefix", nargs="?", help=_("only clauses whose ID starts with this (e.g. ACT)"))
    _add_lang(p)
    p.set_defaults(func=_cmd_rules)


# --- run / moves (scenario files) -------------------------------------------


def _overrides(assignments: list[str] | None, command: str) -> dict[str, object] | None:
    """``--variant NAME=VALUE`` options as a mapping; None (after saying why) if one is bad."""
    import sys

    from fsm.errors import BadInput
    from fsm.variants import parse_assignment

    out: dict[str, object] = {}
    for text in assignments or []:
        try:
            name, value = parse_assignment(text)
        except BadInput as err:
            print(f"fsm {command}: --variant {text}: {err.message}", file=sys.stderr)
            return None
        out[name] = value
    return out


def _scenario_files(paths: list[str]) -> list[str]:
    """Files as given; a directory stands for the ``*.yaml`` files in it."""
    from pathlib import Path

    out: list[str] = []
    for p in paths:
        path = Path(p)
        out += sorted(str(f) for f in path.glob("*.yaml")) if path.is_dir() else [p]
    return out


def _cmd_run(args: argparse.Namespace) -> int:
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.narrate import json_lines, narrate, verdict
    from fsm.scenario import play

    overrides = _overrides(args.variant, "run")
    if overrides is None:
        return 2
    counts = {0: 0, 1: 0, 2: 0}
    for path in _scenario_files(args.files):
        try:
            result = play(path, overrides=overrides)
        except BadInput as err:
            counts[2] += 1
            print(f"fsm run: {err}", file=sys.stderr)
            if args.json:
                error = {"type": "error", "file": path, "where": err.where, "message": err.message}
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


def _add_run(sub: _SubParsers) -> None:
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
    _add_variant(p)
    _add_lang(p)
    p.set_defaults(func=_cmd_run)


def _cmd_moves(args: argparse.Namespace) -> int:
    import sys

    from fsm.catalogue import CLAUSES
    from fsm.errors import BadInput
    from fsm.i18n import either, language
    from fsm.scenario import play

    overrides = _overrides(args.variant, "moves")
    if overrides is None:
        return 2
    try:
        result = play(args.file, overrides=overrides, expectations=False)
    except BadInput as err:
        print(f"fsm moves: {err}", file=sys.stderr)
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


def _add_moves(sub: _SubParsers) -> None:
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
    _add_variant(p)
    _add_lang(p)
    p.set_defaults(func=_cmd_moves)


# --- timings (the legality table) ------------------------------------------


def _cmd_timings(args: argparse.Namespace) -> int:
    import csv
    import io
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.ruleset import load as load_rules

    try:
        rules = load_rules(args.rules or [])
    except BadInput as err:
        print(f"fsm timings: {err}", file=sys.stderr)
        return 2
    rows = rules.legality_table()
    columns = list(rows[0]) if rows else ["timing"]
    if args.format == "html":
        from fsm.timing_map import html_table

        print(html_table(rules, args.lang), end="")
    elif args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif args.format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        print(out.getvalue(), end="")
    elif args.wide:
        from fsm.timing_text import cell_text

        head = [_(c) for c in columns]
        for cells in [head, ["---"] * len(columns), *([cell_text(row[c]) for c in columns] for row in rows)]:
            print("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")  # a bare | splits a cell
    else:
        from fsm.timing_text import narrow_table

        print("\n".join(narrow_table(rows)))
    return 0


def _add_timings(sub: _SubParsers) -> None:
    p = sub.add_parser(
        "timings",
        help=_("print where each timing may be used: one row per timing, one column per point of the game"),
        description=_(
            "The timing legality table (TIM-*): for every timing and combination, whether it may "
            "be used at each point of the game, as an action, a counter or by itself, and which clause says so."
        ),
    )
    p.add_argument(
        "--format",
        choices=("md", "csv", "json", "html"),
        default="md",
        help=_("output format (default: md); html is the timing matrix, its columns grouped by when and what"),
    )
    p.add_argument(
        "--wide", action="store_true", help=_("md: one wide table (a column per point) instead of 100 columns")
    )
    p.add_argument(
        "--lang",
        choices=("ja", "en", "both"),
        default="both",
        help=_("headings of the html matrix (default: both); ja or en also sets the language of the messages"),
    )
    p.add_argument("--rules", action="append", metavar="FILE", help=_("a designer's data file adding timings"))
    p.set_defaults(func=_cmd_timings)


# --- diagrams (Graphviz / Mermaid) -------------------------------------------


def _cmd_diagrams(args: argparse.Namespace) -> int:
    import sys

    from statemachine.contrib.diagram import GraphvizError

    from fsm.diagrams import parse_folds, parse_formats, write_all
    from fsm.errors import BadInput
    from fsm.ruleset import load as load_rules

    try:
        formats = parse_formats(args.format)
        rules = load_rules(args.rules or [])
        folds = None if args.fold is None else parse_folds(args.fold)
        written = write_all(
            args.out,
            args.lang,
            formats,
            rules,
            clauses=args.clauses == "on",
            printed=args.style == "print",
            dpi=args.dpi,
            fold_states=folds,
        )
    except BadInput as err:
        print(f"fsm diagrams: {err}", file=sys.stderr)
        return 2
    except GraphvizError as err:  # also: Graphviz not installed
        hint = _("Install Graphviz with ./scripts/setup.sh (package graphviz).")
        print(f"fsm diagrams: {err}\n{hint}", file=sys.stderr)
        return 2
    print(_("wrote {count} files to {folder}").format(count=len(written), folder=args.out))
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 2400:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of dots per inch between 1 and 2400")
    return value


def _add_diagrams(sub: _SubParsers) -> None:
    p = sub.add_parser(
        "diagrams",
        help=_(
            "draw every state machine (ability kinds, 【同調】, skills, counter chain, game flow) as SVG/PNG/Mermaid"
        ),
        description=_(
            "Write one diagram per state machine, labelled with rule terms and clause IDs, and an "
            "index README.md, into --out.  The committed diagrams/ folder is exactly what this writes by default."
        ),
    )
    p.add_argument("--out", default="diagrams", metavar="DIR", help=_("output folder (default: diagrams)"))
    p.add_argument(
        "--lang",
        choices=("ja", "en", "both"),
        default="both",
        help=_("label language (default: both); ja or en also sets the language of the messages"),
    )
    p.add_argument(
        "--format", default="svg,mmd", metavar="LIST", help=_("comma list of svg, png, pdf, mmd (default: svg,mmd)")
    )
    p.add_argument(
        "--rules", action="append", metavar="FILE", help=_("a designer's data file; its kinds are drawn too")
    )
    p.add_argument(
        "--dpi", type=_positive, metavar="N", help=_("PNG resolution in dots per inch (default: 96; print: 300)")
    )
    p.add_argument("--clauses", choices=("on", "off"), default="on", help=_("show clause IDs on labels (default: on)"))
    p.add_argument(
        "--style",
        choices=("screen", "print"),
        default="screen",
        help=_(
            "screen (colour) or print: black and white, every text at least 10 pt at an A4 column's width "
            "(with one --lang)"
        ),
    )
    p.add_argument(
        "--fold",
        metavar="LIST",
        help=_(
            "compound states to draw as one box listing their steps, e.g. battle; 'none' unfolds all "
            "(default: the game flow's quick_summon,formation)"
        ),
    )
    p.set_defaults(func=_cmd_diagrams)


# --- explore / variants (designers) -----------------------------------------


def _cmd_explore(args: argparse.Namespace) -> int:
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.explorer import compare, explore_file, format_comparison, format_report, parse_memory, parse_settings

    try:
        settings = parse_settings(args.variant or [])
        max_memory = parse_memory(args.max_memory) if args.max_memory else None
        if args.compare:
            cmp = compare(
                args.file,
                parse_settings(args.compare),
                position="end" if args.end else "start",
                variants=settings,
                depth=args.depth,
                max_states=args.max_states,
                max_memory=max_memory,
                jobs=args.jobs,
                machines=args.machines,
            )
            print(json.dumps(cmp.as_dict(), ensure_ascii=False, indent=2) if args.json else format_comparison(cmp))
            reports = [cmp.base, cmp.other]
        else:
            report = explore_file(
                args.file,
                position="end" if args.end else "start",
                variants=settings,
                depth=args.depth,
                max_states=args.max_states,
                max_memory=max_memory,
                jobs=args.jobs,
                machines=args.machines,
            )
            print(json.dumps(report.as_dict(), ensure_ascii=False, indent=2) if args.json else format_report(report))
            reports = [report]
    except BadInput as err:
        print(f"fsm explore: {err}", file=sys.stderr)
        return 2
    return 1 if any(r.dead_ends or r.errors for r in reports) else 0


def _add_explore(sub: _SubParsers) -> None:
    p = sub.add_parser(
        "explore",
        help=_("play every legal line from a scenario's start (or end) and list the distinct endings"),
        description=_(
            "Explore every legal sequence of moves from a scenario's table until each line ends (or --depth "
            "moves, or until the budget of --max-states tables runs out: the report says which), "
            "visiting each distinct table once. Prints the tables visited, the distinct endings (what resolved "
            "or fizzled, zones and unit states), dead ends and the longest chain. Exit status: 0 done, "
            "1 a dead end or an engine error was found, 2 bad input."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("a scenario file (scenarios/, designs/)"))
    p.add_argument(
        "--depth", type=int, default=None, help=_("at most this many moves per line (default: until every line ends)")
    )
    p.add_argument("--end", action="store_true", help=_("start from the scenario's end (after its moves)"))
    p.add_argument(
        "--max-states",
        type=int,
        default=200_000,
        help=_("the budget: stop after visiting this many tables, and say so (default: 200000)"),
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help=_("share the work out to N processes (the same results as 1; lines are played to their end)"),
    )
    p.add_argument(
        "--max-memory",
        metavar="SIZE",
        help=_("stop when the process uses this much memory (500M, 2G), with a partial report that says so"),
    )
    p.add_argument(
        "--variant", action="append", metavar="NAME=VALUE", help=_("a rule variant or a preset name (repeatable)")
    )
    p.add_argument(
        "--compare",
        action="append",
        metavar="NAME=VALUE",
        help=_("also explore with this changed and list what differs between complete lines"),
    )
    p.add_argument(
        "--machines",
        choices=("compiled", "statecharts"),
        default="compiled",
        help=_(
            "run the state machines from their compiled transition tables (default, faster) or through "
            "python-statemachine itself; the reports are the same"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    _add_lang(p)
    p.set_defaults(func=_cmd_explore)


def _cmd_variants(args: argparse.Namespace) -> int:
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.ruleset import load as load_rules
    from fsm.variants import SPECS

    def word(v: object) -> str:
        return str(v).lower() if isinstance(v, bool) else str(v)

    try:
        rules = load_rules(args.rules or [])
    except BadInput as err:
        print(f"fsm variants: {err}", file=sys.stderr)
        return 2
    if args.json:
        rows = [
            {"name": s.name, "default": s.default, "choices": list(s.choices), "clause": s.clause, "doc": s.doc}
            for s in SPECS
        ]
        presets = [{"name": p.name, "doc": p.doc, "set": dict(p.settings)} for p in rules.presets.values()]
        print(json.dumps({"variants": rows, "presets": presets}, ensure_ascii=False, indent=2))
        return 0
    for s in SPECS:
        choices = _("choices: {choices}").format(choices=", ".join(map(word, s.choices)))
        print(f"{s.name} = {word(s.default)}  ({s.clause}; {choices})")
        print(f"    {s.described()}")
    for p in rules.presets.values():
        settings = ", ".join(f"{k}={word(v)}" for k, v in p.settings)
        line = _("preset {name}: {settings}").format(name=p.name, settings=settings)
        print(line + (f"  — {p.described()}" if p.doc else ""))
    return 0


def _add_variants(sub: _SubParsers) -> None:
    p = sub.add_parser(
        "variants",
        help=_("list the named rule variants: name, default, choices, clause, what it decides"),
        description=_(
            "The points the rules page leaves open, each a named rule variant with its default "
            "(switch one with --variant NAME=VALUE, or `variants:` in a scenario file)."
        ),
    )
    p.add_argument("--rules", action="append", metavar="FILE", help=_("a designer's data file; its presets are listed"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    _add_lang(p)
    p.set_defaults(func=_cmd_variants)


# --- options shared by several subcommands ----------------------------------


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", action="append", metavar="NAME=VALUE", help=_("override a rule variant (repeatable)"))


def _add_lang(p: argparse.ArgumentParser) -> None:
    # SUPPRESS: a subcommand's --lang must not reset one given before the subcommand.
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help=_("language of the messages (default: FSM_LANG, else the locale, else en)"),
    )


def _lang_in(argv: Sequence[str]) -> str | None:
    """The message language ``--lang`` asks for anywhere on the line, read before parsing so that
    the help texts are translated too; None when absent or not ja/en (the parser reports those)."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.removeprefix("--lang=")
    return found if found in LANGUAGES else None


def _warn_unknown_fsm_lang() -> None:
    import os
    import sys

    from fsm.i18n import normalise

    value = os.environ.get("FSM_LANG")
    if value and normalise(value) is None:
        message = _("FSM_LANG={value!r} is not a language fsm speaks ({languages}); it is ignored")
        print("fsm: " + message.format(value=value, languages=", ".join(LANGUAGES)), file=sys.stderr)


# --- registry ---------------------------------------------------------------

_REGISTRARS: list[Callable[[_SubParsers], None]] = [
    _add_rules,
    _add_run,
    _add_moves,
    _add_timings,
    _add_diagrams,
    _add_explore,
    _add_variants,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsm", description=_("Card-game timing rules as state machines."))
    _add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _REGISTRARS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    import sys

    args_in = list(argv) if argv is not None else sys.argv[1:]
    _warn_unknown_fsm_lang()
    with using(_lang_in(args_in)):
        return _main(args_in)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except BrokenPipeError:  # e.g. `fsm rules | head`
        import os
        import sys

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
