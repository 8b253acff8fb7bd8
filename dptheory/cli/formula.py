"""``dptheory formula``: list the closed forms, or print one with its conditions and source."""

from __future__ import annotations

from .. import catalogue, documents
from ..presentation.json_output import emit_json
from ..presentation.text import lines, table


def add_parser(sub) -> None:
    p = sub.add_parser("formula", help="print a closed form (LaTeX, conditions, kind, source)")
    p.add_argument("name", nargs="?", help="formula name; omit to list all")
    p.add_argument("--latex", action="store_true",
                   help="print the formula as a paper pastes it: a labelled equation in the papers' notation "
                   "(broken over lines where it is wide), its named sub-expressions and merged validity conditions")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.name is None:
        rows = [{"name": f.name, "kind": str(f.kind), "status": "" if f.status is None else str(f.status),
                 "source": f.source} for f in catalogue.catalogue().values()]
        if args.json:
            emit_json(rows)
        else:
            table(rows, ["name", "kind", "status", "source"])
        return 0
    f = catalogue.get(args.name)
    info = f.describe()
    if args.json:
        emit_json(info)
        return 0
    if args.latex:
        print(documents.formula_block(f).rstrip())
        return 0
    lines([
        f"{f.name}: {f.description}" if f.description else f.name,
        f"  LaTeX:      {f.latex()}",
        f"  conditions: {f.conditions_line() or 'none'}",
        f"  kind:       {info['kind']}" + (f" ({f.status_text()})" if info["status"] else ""),
        f"  source:     {f.source}",
    ] + ([f"  erratum:    {f.erratum}"] if f.erratum else [])
      + ([f"  defined in: {f.implemented_by}"] if f.implemented_by else []))
    return 0
