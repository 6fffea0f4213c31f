"""``fsm rules``, ``fsm timings`` and ``fsm variants``: the clause catalogue, the timing legality
table and the rule variants, as text, JSON or CSV."""

from __future__ import annotations

import argparse

from fsm.cli.options import SubParsers, add_lang
from fsm.i18n import _


def _cmd_rules(args: argparse.Namespace) -> int:
    from fsm.i18n import language
    from fsm.rules.catalogue import CLAUSES, format_line

    prefix = (args.prefix or "").upper()
    lang = language()
    for c in CLAUSES.values():
        if c.id.startswith(prefix):
            print(format_line(c, lang))
    return 0


def add_rules(sub: SubParsers) -> None:
    p = sub.add_parser("rules", help=_("print the rules catalogue, one clause per line"))
    p.add_argument("prefix", nargs="?", help=_("only clauses whose ID starts with this (e.g. ACT)"))
    add_lang(p)
    p.set_defaults(func=_cmd_rules)


def _cmd_timings(args: argparse.Namespace) -> int:
    import csv
    import io
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.spec.ruleset import load as load_rules

    try:
        rules = load_rules(args.rules or [])
    except BadInput as err:
        print(f"fsm timings: {err}", file=sys.stderr)
        return 2
    rows = rules.legality_table()
    columns = list(rows[0]) if rows else ["timing"]
    if args.format == "html":
        from fsm.render.timing_map import html_table

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
        from fsm.render.timing_text import cell_text

        head = [_(c) for c in columns]
        for cells in [head, ["---"] * len(columns), *([cell_text(row[c]) for c in columns] for row in rows)]:
            print("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")  # a bare | splits a cell
    else:
        from fsm.render.timing_text import narrow_table

        print("\n".join(narrow_table(rows)))
    return 0


def add_timings(sub: SubParsers) -> None:
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


def _cmd_variants(args: argparse.Namespace) -> int:
    import json
    import sys

    from fsm.errors import BadInput
    from fsm.rules.variants import ENDLESS_EXAMPLES, SPECS, endless
    from fsm.spec.ruleset import load as load_rules

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
        presets = [
            {"name": p.name, "doc": p.doc, "set": dict(p.settings), "endless": endless(dict(p.settings))}
            for p in rules.presets.values()
        ]
        endings = [{"set": e, "endless": endless(e)} for e in ENDLESS_EXAMPLES]
        print(json.dumps({"variants": rows, "presets": presets, "endless": endings}, ensure_ascii=False, indent=2))
        return 0
    for s in SPECS:
        choices = _("choices: {choices}").format(choices=", ".join(map(word, s.choices)))
        print(f"{s.name} = {word(s.default)}  ({s.clause}; {choices})")
        print(f"    {s.described()}")
    for p in rules.presets.values():
        settings = ", ".join(f"{k}={word(v)}" for k, v in p.settings)
        line = _("preset {name}: {settings}").format(name=p.name, settings=settings)
        print(line + (f"  — {p.described()}" if p.doc else ""))
        if warning := endless(dict(p.settings)):
            print(f"    {warning}")
    print(_("settings under which a battle need not end:"))
    for example in ENDLESS_EXAMPLES:
        shown = ", ".join(f"{k}={word(v)}" for k, v in example.items())
        print(f"  {shown}: {endless(example)}")
    return 0


def add_variants(sub: SubParsers) -> None:
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
    add_lang(p)
    p.set_defaults(func=_cmd_variants)
