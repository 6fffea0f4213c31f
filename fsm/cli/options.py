"""What several subcommands share: ``--variant`` and ``--lang`` options, scenario paths, numbers."""

from __future__ import annotations

import argparse
from typing import TypeAlias

from fsm.i18n import LANGUAGES, _

SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def variant_overrides(assignments: list[str] | None, command: str) -> dict[str, object] | None:
    """``--variant NAME=VALUE`` options as a mapping; None (after saying why) if one is bad."""
    import sys

    from fsm.errors import BadInput
    from fsm.rules.variants import parse_assignment

    out: dict[str, object] = {}
    for text in assignments or []:
        try:
            name, value = parse_assignment(text)
        except BadInput as err:
            print(f"fsm {command}: --variant {text}: {err.message}", file=sys.stderr)
            return None
        out[name] = value
    return out


def scenario_files(paths: list[str]) -> list[str]:
    """Files as given; a directory stands for the ``*.yaml`` files in it."""
    from pathlib import Path

    out: list[str] = []
    for p in paths:
        path = Path(p)
        out += sorted(str(f) for f in path.glob("*.yaml")) if path.is_dir() else [p]
    return out


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 2400:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of dots per inch between 1 and 2400")
    return value


def add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", action="append", metavar="NAME=VALUE", help=_("override a rule variant (repeatable)"))


def add_lang(p: argparse.ArgumentParser) -> None:
    # SUPPRESS: a subcommand's --lang must not reset one given before the subcommand.
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help=_("language of the messages (default: FSM_LANG, else the locale, else en)"),
    )


def _warn_unknown_fsm_lang() -> None:
    import os
    import sys

    from fsm.i18n import normalise

    value = os.environ.get("FSM_LANG")
    if value and normalise(value) is None:
        message = _("FSM_LANG={value!r} is not a language fsm speaks ({languages}); it is ignored")
        print("fsm: " + message.format(value=value, languages=", ".join(LANGUAGES)), file=sys.stderr)
