"""Command-line entry point: ``fsm <subcommand>`` or ``python -m fsm <subcommand>``.

Adding a subcommand takes two small pieces:

1. a handler ``_cmd_<name>(args: argparse.Namespace) -> int`` that imports what
   it needs *inside* the function (keeps ``fsm rules`` fast), and
2. a ``_add_<name>(sub)`` function that registers its parser, listed in
   ``_REGISTRARS``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TypeAlias

_SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


# --- rules ------------------------------------------------------------------


def _cmd_rules(args: argparse.Namespace) -> int:
    from fsm.catalogue import CLAUSES, format_line

    prefix = (args.prefix or "").upper()
    for c in CLAUSES.values():
        if c.id.startswith(prefix):
            print(format_line(c))
    return 0


def _add_rules(sub: _SubParsers) -> None:
    p = sub.add_parser("rules", help="print the rules catalogue, one clause per line")
    p.add_argument("prefix", nargs="?", help="only clauses whose ID starts with this (e.g. ACT)")
    p.set_defaults(func=_cmd_rules)


# --- registry ---------------------------------------------------------------

_REGISTRARS: list[Callable[[_SubParsers], None]] = [
    _add_rules,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsm", description="Card-game timing rules as state machines.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in _REGISTRARS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
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
