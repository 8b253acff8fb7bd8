"""``dptheory plot``: draw a registered figure (the papers' main figures) to PNG or PDF."""

from __future__ import annotations

HELP = "draw a figure of the papers from the toolkit's own code (PNG or PDF); --list names them"


def add_parser(sub) -> None:
    p = sub.add_parser("plot", help=HELP, description=HELP + ". Parameters are given as key=value "
                       "(grids as in `dptheory sweep`: 0.5,1,2 or 1e3..1e6); --list shows each figure's.")
    p.add_argument("name", nargs="?", help="the figure (see --list)")
    p.add_argument("params", nargs="*", metavar="key=value", help="parameters of the figure, e.g. eps0=2 n=1e3..1e6")
    p.add_argument("--out", "-o", help="output file, .png or .pdf (default: NAME.png)")
    p.add_argument("--list", action="store_true", help="list the figures, their parameters and defaults")
    p.set_defaults(func=run)


def run(args) -> int:
    from .. import plots
    from ..validate import DomainError

    from . import no_effect

    no_effect(args, {"out": "--list only names the figures" if args.list else None})
    if args.list and (args.name or args.params):
        raise DomainError(f"{' '.join([args.name or '', *args.params]).strip()} has no effect with --list, which only "
                          "names the figures")
    if args.list:
        for fig in plots.FIGURES.values():
            print(f"{fig.name}\n    {fig.description}")
            print("    " + " ".join(f"{k}={v}" for k, v in fig.defaults.items()))
        return 0
    if not args.name:
        raise DomainError(f"figure: give a name (one of {', '.join(plots.FIGURES)}) or --list")
    plots.figure(args.name)
    params = {}
    for text in args.params:
        key, sep, value = text.partition("=")
        if not sep or not key:
            raise DomainError(f"parameter {text!r} is invalid: write key=value, e.g. eps0=2")
        params[key] = plots.convert(args.name, key, value)
    path = plots.render(args.name, args.out or f"{args.name}.png", **params)
    print(f"wrote {path}")
    return 0
