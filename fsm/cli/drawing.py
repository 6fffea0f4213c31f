"""``fsm diagrams``: every machine as Graphviz (SVG, PNG, PDF, DOT) or Mermaid, in either language."""

from __future__ import annotations

import argparse

from fsm.cli.options import SubParsers, positive
from fsm.i18n import _


def _cmd_diagrams(args: argparse.Namespace) -> int:
    import sys

    from statemachine.contrib.diagram import GraphvizError

    from fsm.errors import BadInput
    from fsm.render.export import parse_folds, parse_formats, write_all
    from fsm.spec.ruleset import load as load_rules

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


def add_diagrams(sub: SubParsers) -> None:
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
        "--dpi", type=positive, metavar="N", help=_("PNG resolution in dots per inch (default: 96; print: 300)")
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
