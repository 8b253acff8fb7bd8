"""``dptheory verify``: every bound of the toolkit against independent oracles (one call to
:func:`dptheory.verify.run`; the table and the JSON are its :class:`~dptheory.verify.Report`)."""

from __future__ import annotations

import sys

from .. import validate
from . import emit

HELP = "check every bound against exact and high-precision oracles; printed errata vs corrections"


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help=HELP,
                       description="Run every bound of the toolkit against its oracles (exact enumeration for small n, "
                       "mpmath sums at --digits, other views of the same guarantee) on a grid of cases, and each "
                       "printed erratum of the papers against its correction. Exit status 1 when a bound labelled "
                       "proven is violated.")
    p.add_argument("--digits", default="50", help=f"decimal digits of the mpmath oracles ({validate.DIGITS_MIN} to "
                   f"{validate.DIGITS_MAX}; default 50)")
    p.add_argument("--quick", action="store_true", help="the small grid (about 15 s of CPU; what CI runs)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--workers", help="worker processes for the cases (default: serially in this process)")
    p.add_argument("--scheduler", help="run the cases on a Dask cluster: 'local' starts one, else a scheduler address")
    p.add_argument("--only", help="comma-separated names of checks or errata to run (default: all)")
    p.set_defaults(func=run)


def run(args) -> int:
    from .. import verify

    digits = validate.digits(args.digits)
    workers = None if args.workers is None else validate.count("workers", args.workers)
    names = None
    if args.only is not None:
        verify.load()
        known = list(verify.CHECKS) + list(verify.ERRATA)
        names = validate.name_list("only", args.only, known)
        unknown = [x for x in names if x not in known]
        if unknown:
            raise validate.DomainError(f"only = {', '.join(unknown)!r} is invalid: must name checks or errata among "
                                       f"{', '.join(known)}")
    report = verify.run(quick=args.quick, digits=digits, progress=True, workers=workers, names=names,
                        scheduler=args.scheduler)
    if args.json:
        emit(args, report, {"digits": digits, "workers": workers, "only": names})
    else:
        report.print(sys.stdout)
    return report.exit_code
