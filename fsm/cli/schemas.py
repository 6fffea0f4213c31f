"""``fsm schema``: the JSON Schemas of scenario, designer, goal and puzzle files, for editors."""

from __future__ import annotations

import argparse

from fsm.cli.options import SubParsers, add_lang
from fsm.i18n import _


def _cmd_schema(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from fsm.errors import BadInput
    from fsm.scenarios.schema import NAMES, file_name, text
    from fsm.spec.ruleset import load as load_rules

    try:
        rules = load_rules(args.rules or [])
    except BadInput as err:
        print(f"fsm schema: {err}", file=sys.stderr)
        return 2
    if args.write:
        out = Path(args.write)
        out.mkdir(parents=True, exist_ok=True)
        for name in NAMES:
            (out / file_name(name)).write_text(text(name, rules), encoding="utf-8")
            print(out / file_name(name))
        return 0
    if args.name is None:
        print(
            _("fsm schema: name a schema ({names}) or give --write DIR").format(names=", ".join(NAMES)), file=sys.stderr
        )
        return 2
    sys.stdout.write(text(args.name, rules))
    return 0


def add_schema(sub: SubParsers) -> None:
    from fsm.scenarios.schema import NAMES

    p = sub.add_parser(
        "schema",
        help=_("print the JSON Schema of scenario, designer, goal or puzzle files (editor completion)"),
        description=_(
            "Print a JSON Schema (draft 2020-12) made from the loader's own words, for editors that "
            "complete and check YAML and TOML files (docs/designer.md). With --rules, a designer's "
            "kinds, timings and parts are part of it."
        ),
    )
    p.add_argument("name", nargs="?", choices=NAMES, help=_("which schema"))
    p.add_argument("--rules", action="append", metavar="FILE", help=_("a designer's data file whose words to add"))
    p.add_argument("--write", metavar="DIR", help=_("write every schema into DIR as NAME.schema.json"))
    add_lang(p)
    p.set_defaults(func=_cmd_schema)
