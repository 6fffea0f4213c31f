"""``fsm explore``: every line of play from a scenario's position, and comparisons of rule variants."""

from __future__ import annotations

import argparse
from typing import Any

from fsm.cli.options import SubParsers, add_lang
from fsm.i18n import _


def _cmd_explore(args: argparse.Namespace) -> int:
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.explore.explorer import (
        compare,
        explore_file,
        format_comparison,
        format_report,
        parse_memory,
        parse_settings,
    )
    from fsm.explore.progress import Progress

    progress = Progress("off" if args.quiet else "auto")
    try:
        settings = parse_settings(args.variant or [])
        max_memory = parse_memory(args.max_memory) if args.max_memory else None
        options: dict[str, Any] = {
            "position": "end" if args.end else "start", "variants": settings, "depth": args.depth,
            "max_states": args.max_states, "max_memory": max_memory, "jobs": args.jobs, "machines": args.machines,
            "progress": progress, "dask": args.dask,
        }  # fmt: skip
        if args.compare:
            cmp = compare(args.file, parse_settings(args.compare), **options)
            print(json.dumps(cmp.as_dict(), ensure_ascii=False, indent=2) if args.json else format_comparison(cmp))
            reports = [cmp.base, cmp.other]
        else:
            report = explore_file(args.file, **options)
            print(json.dumps(report.as_dict(), ensure_ascii=False, indent=2) if args.json else format_report(report))
            reports = [report]
    except BadInput as err:
        print(f"fsm explore: {err}", file=sys.stderr)
        return 2
    if any(r.stopped_by == "interrupted" for r in reports):
        return INTERRUPTED
    return 1 if any(r.dead_ends or r.errors for r in reports) else 0


#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def add_explore(sub: SubParsers) -> None:
    p = sub.add_parser(
        "explore",
        help=_("play every legal line from a scenario's start (or end) and list the distinct endings"),
        description=_(
            "Explore every legal sequence of moves from a scenario's table until each line ends (or --depth "
            "moves, or until the budget of --max-states tables runs out: the report says which), "
            "visiting each distinct table once. Prints the tables visited, the distinct endings (what resolved "
            "or fizzled, zones and unit states), dead ends and the longest chain. Exit status: 0 done, "
            "1 a dead end or an engine error was found, 2 bad input, 130 stopped by Ctrl-C (with the "
            "report so far)."
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
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help=_(
            "explore on a Dask cluster: a scheduler's address (tcp://host:8786) or local:N for N local "
            "workers (needs the dask extra: pip install 'fsm-timing-rules[dask]'); the same results as --jobs 1"
        ),
    )
    p.add_argument("--quiet", action="store_true", help=_("show no progress while exploring"))
    p.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    add_lang(p)
    p.set_defaults(func=_cmd_explore)
