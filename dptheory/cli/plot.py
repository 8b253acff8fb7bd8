"""``dptheory plot``: draw a registered figure (the papers' figures) to PNG or PDF, with the data
behind its curves (CSV or JSON) from the same computation; ``--gallery DIR`` draws them all."""

from __future__ import annotations

import sys

HELP = "draw a figure of the papers from the toolkit's own code (PNG or PDF); --list names them"


def add_parser(sub) -> None:
    p = sub.add_parser("plot", help=HELP, description=HELP + ". Parameters are given as key=value "
                       "(grids as in `dptheory sweep`: 0.5,1,2 or 1e3..1e6); --list shows each figure's.")
    p.add_argument("name", nargs="?", help="the figure (see --list)")
    p.add_argument("params", nargs="*", metavar="key=value", help="parameters of the figure, e.g. eps0=2 n=1e3..1e6")
    p.add_argument("--out", "-o", help="output file, .png or .pdf (default: NAME.png)")
    p.add_argument("--data", metavar="FILE", help="also write the numbers behind every curve (method, kind, status, "
                   "x, y) to FILE, .csv or .json, from the same computation")
    p.add_argument("--json", action="store_true", help="print the figure's data, caption and notes as JSON on "
                   "standard output (the figure is still drawn)")
    p.add_argument("--list", action="store_true", help="list the figures, their parameters and defaults")
    p.add_argument("--gallery", metavar="DIR", help="draw every figure at its defaults into DIR/figures/ "
                   "(PNG and JSON data) and write DIR/figures.md")
    p.set_defaults(func=run)


def run(args) -> int:
    from .. import plots
    from ..validate import DomainError

    from . import no_effect

    no_effect(args, {name: "--list only names the figures" if args.list else None
                     for name in ("out", "data", "json", "gallery")})
    if args.list and (args.name or args.params):
        raise DomainError(f"{' '.join([args.name or '', *args.params]).strip()} has no effect with --list, which only "
                          "names the figures")
    if args.list:
        for fig in plots.FIGURES.values():
            print(f"{fig.name}\n    {fig.description}")
            print("    " + " ".join(f"{k}={v}" for k, v in fig.defaults.items()))
            if fig.chosen:
                print(f"    chosen here: {fig.chosen}")
        return 0
    if args.gallery:
        if args.name:
            raise DomainError("gallery: give no figure name with --gallery (it draws them all)")
        for path in plots.gallery(args.gallery, progress=lambda name, seconds: print(f"drew {name} in {seconds:.1f} s", file=sys.stderr)):
            print(f"wrote {path}")
        return 0
    if not args.name:
        raise DomainError(f"figure: give a name (one of {', '.join(plots.FIGURES)}) or --list")
    plots.figure(args.name)
    # --data FILE.json holds the one JSON document of every command (as --json prints it), written
    # from the same computation; a CSV file is written by the library (one row per point)
    data_json = args.data is not None and args.data.lower().endswith(".json")
    if args.data is not None:
        plots.output_path(args.data, plots.DATA_FORMATS)  # a bad path fails before any computation
    params = {}
    for text in args.params:
        key, sep, value = text.partition("=")
        if not sep or not key:
            raise DomainError(f"parameter {text!r} is invalid: write key=value, e.g. eps0=2")
        params[key] = plots.convert(args.name, key, value)
    path, computed = plots.render_computed(args.name, args.out or f"{args.name}.png",
                                           None if data_json else args.data, **params)
    if data_json:
        if computed is None:
            raise DomainError(f"figure {args.name!r} draws itself: it has no data to write")
        with open(args.data, "w") as fh:
            _emit(args, computed, fh)
    report = sys.stderr if args.json else sys.stdout
    print(f"wrote {path}", file=report)
    if args.data:
        print(f"wrote {args.data}", file=report)
    if computed is not None:
        for note in computed.notes:
            print(f"note: {note}", file=report)
        if args.json:
            _emit(args, computed)
    return 0


def _emit(args, computed, out=None) -> None:
    """The JSON document of a figure: the command's envelope, ``parameters`` holding the figure's
    name and every parameter it was computed with (given or default), ``results`` its
    description, caption, notes and panels."""
    from . import emit

    emit(args, computed, {"figure": args.name}, omit=("name", "params", "list", "gallery"), out=out)
