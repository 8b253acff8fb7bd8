"""``dptheory report``: every bound for one setting as Markdown and LaTeX, with figures
(one call to :func:`dptheory.deployment_report.build`)."""

from __future__ import annotations

HELP = "write a report (Markdown and LaTeX, tables and figures) of every bound for one setting"


def add_parser(sub) -> None:
    p = sub.add_parser("report", help=HELP)
    p.add_argument("--eps0", type=float, default=1.0, help="local epsilon of the randomizer (default 1)")
    p.add_argument("--n", type=float, default=1e6, help="number of users (default 1e6)")
    p.add_argument("--delta", type=float, default=1e-8, help="target delta (default 1e-8)")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="directory to write report.md, report.tex, report.bib and the figures into")
    p.add_argument("--no-figures", action="store_true", help="tables only (no matplotlib needed)")
    p.add_argument("--sig", type=float, default=4, help="significant figures of the LaTeX tables' numbers (default 4)")
    p.set_defaults(func=run)


def run(args) -> int:
    from .. import validate
    from ..deployment_report import build

    for path in build(validate.eps0("eps0", args.eps0), validate.n("n", args.n), args.delta, args.output,
                      figures=not args.no_figures, sig=validate.count("sig", args.sig, high=17)):
        print(f"wrote {path}")
    return 0
