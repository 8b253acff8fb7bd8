"""``dptheory formula``: list the closed forms, or print one with its conditions and source.

A name that is not a formula's is read as the start of names (``dptheory formula blackwell``
lists the Blackwell dominance conditions), else as a part of names; a single match is printed as
if named in full, several are listed (``--latex``: each one's LaTeX, ``--json``: each one's
description). No match is an error that suggests the closest names.
"""

from __future__ import annotations

import difflib
import textwrap

from .. import catalogue, documents, protocol
from . import emit, no_effect
from ..presentation.text import WIDTH, lines, table
from ..validate import DomainError


def add_parser(sub) -> None:
    p = sub.add_parser("formula", help="print a closed form (LaTeX, conditions, kind, source)")
    p.add_argument("name", nargs="?",
                   help="formula name, or its start (blackwell, delta-divergence, ...); omit to list all")
    p.add_argument("--latex", action="store_true",
                   help="print the formula as a paper pastes it: a labelled equation in the papers' notation "
                   "(broken over lines where it is wide), its named sub-expressions and merged validity conditions")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def matching(name: str) -> list[str]:
    """The formulas ``name`` designates: itself, else those whose names start with it, else those
    whose names contain it; :class:`DomainError` (with the closest names) when none does."""
    formulas = catalogue.catalogue()
    if name in formulas:
        return [name]
    found = catalogue.names(name) or [n for n in formulas if name in n]
    if found:
        return found
    close = difflib.get_close_matches(name, list(formulas), n=5, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise DomainError(f"formula {name!r} is unknown: no formula is called so, starts with it or contains it{hint} "
                      f"(`dptheory formula` lists all {len(formulas)})")


def run(args) -> int:
    no_effect(args, {"latex": "--json prints the JSON document only; give one of --json and --latex" if args.json
                     else "the list of every formula has no LaTeX form: give a NAME (`dptheory latex -o FILE.tex` "
                     "writes every formula)" if args.name is None else None})
    if args.name is None:
        rows = [{"name": f.name, "kind": str(f.kind), "status": "" if f.status is None else str(f.status),
                 "source": f.source} for f in catalogue.catalogue().values()]
        if args.json:
            emit(args, rows)
        else:
            table(rows, ["name", "kind", "status", "source"])
        return 0
    names = matching(args.name)
    if len(names) == 1:
        return _one(catalogue.get(names[0]), args)
    formulas = [catalogue.get(n) for n in names]
    if args.json:
        emit(args, [f.describe() for f in formulas], {"matches": names})
    elif args.latex:
        print("\n\n".join(documents.formula_block(f).rstrip() for f in formulas))
    else:
        lines([f"{len(names)} formulas match {args.name!r}:", ""])
        table([{"name": f.name, "kind": str(f.kind), "status": "" if f.status is None else str(f.status),
                "description": f.description or f.source} for f in formulas], ["name", "kind", "status", "description"])
        lines(["", textwrap.fill(f"`dptheory formula NAME` prints one with its LaTeX, conditions and source; "
                                 f"`dptheory formula {args.name} --latex` the LaTeX of all {len(names)}.", WIDTH)])
    return 0


def _one(f, args) -> int:
    info = {**f.describe(), "evaluated_by": protocol.methods_of_formula(f.name)}
    if args.json:
        emit(args, info)
        return 0
    if args.latex:
        print(documents.formula_block(f).rstrip())
        return 0
    lines([
        f"{f.name}: {f.description}" if f.description else f.name,
        f"  LaTeX:      {f.latex()}",
    ] + ([f"  where:      {', '.join(info['where'])}"] if info["where"] else []) + [
        f"  conditions: {f.conditions_line() or 'none'}",
        f"  kind:       {info['kind']}" + (f" ({f.status_text()})" if info["status"] else ""),
        f"  source:     {f.source}",
    ] + ([f"  erratum:    {f.erratum}"] if f.erratum else [])
      + ([f"  defined in: {f.implemented_by}"] if f.implemented_by else [])
      + ([f"  evaluated by: {', '.join(used)}"] if (used := protocol.methods_of_formula(f.name)) else []))
    return 0
