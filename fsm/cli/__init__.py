"""Command-line entry point: ``fsm <subcommand>`` or ``python -m fsm <subcommand>``.

Adding a subcommand takes two small pieces:

1. a handler ``_cmd_<name>(args: argparse.Namespace) -> int`` that imports what
   it needs *inside* the function (keeps ``fsm rules`` fast), and
2. an ``add_<name>(sub)`` function that registers its parser, listed in
   ``_REGISTRARS`` below; each group of subcommands has its module here.

Every text a user reads goes through ``_()`` (fsm/i18n.py) and is filled with ``.format``
afterwards; ``--lang ja|en`` (anywhere on the line) chooses the language before the parser
is built, so the help texts are translated too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from fsm.cli import drawing, exploring, questions, scenarios, schemas, tables
from fsm.cli.options import SubParsers, add_lang
from fsm.i18n import LANGUAGES, _, using


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

_REGISTRARS: list[Callable[[SubParsers], None]] = [
    tables.add_rules,
    scenarios.add_run,
    scenarios.add_moves,
    tables.add_timings,
    drawing.add_diagrams,
    exploring.add_explore,
    tables.add_variants,
    schemas.add_schema,
    questions.add_check,
    questions.add_puzzle,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsm", description=_("Card-game timing rules as state machines."))
    add_lang(parser)
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
    except KeyboardInterrupt:  # Ctrl-C where no partial report can be made (loading, splitting)
        import sys

        print("fsm: " + _("interrupted (Ctrl-C)"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `fsm rules | head`
        import os
        import sys

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
