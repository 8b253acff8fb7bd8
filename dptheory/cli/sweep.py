"""``dptheory sweep``: a grid of bounds to CSV, in parallel (local processes or Dask), resumable.

Grid values: ``0.5,1,2,4`` or ``1e3..1e9`` (log-spaced, a point per decade) or ``1e3..1e9:2``
(two per decade); see :mod:`dptheory.sweep`.
"""

from __future__ import annotations

from ..validate import EPSILON_RTOL, RENYI_RTOL

HELP = "a grid of bounds to CSV, in parallel on local processes or a Dask cluster; resumable"


def add_parser(sub) -> None:
    p = sub.add_parser("sweep", help=HELP, description=HELP + ". Grid values: a list 0.5,1,2,4 or a "
                       "log-spaced range 1e3..1e9 (a point per decade; 1e3..1e9:2 for two).")
    kinds = p.add_subparsers(dest="sweep", metavar="SWEEP", required=True)

    s = kinds.add_parser("shuffle", help="every shuffle method (as `dptheory shuffle`) over eps0 x n x delta",
                         description="One CSV row per (grid point, method), as `dptheory shuffle` computes them.")
    s.add_argument("--eps0", required=True, help="local epsilons, e.g. 0.5,1,2,4")
    s.add_argument("--n", required=True, help="numbers of users, e.g. 1e3..1e9")
    s.add_argument("--delta", help="target deltas (default 1e-8): rows give epsilon(delta)")
    s.add_argument("--epsilon", help="epsilons: rows give delta(epsilon) instead")
    s.add_argument("--randomizer", default="general", help="local randomizer (default: any eps0-LDP randomizer)")
    s.add_argument("--d", type=float, help="domain size (grr, unary-encoding, subset-selection)")
    s.add_argument("--k", type=float, help="subset size (subset-selection)")
    s.add_argument("--l", type=float, help="hash range (local-hash)")
    s.add_argument("--methods", help="comma-separated methods (default: all; see `dptheory shuffle --help`)")
    s.add_argument("--rtol", type=float, default=EPSILON_RTOL, help=f"relative width of the epsilon brackets (default {EPSILON_RTOL:g})")
    _common(s)
    s.set_defaults(func=run_shuffle)

    r = kinds.add_parser("rdp", help="the shuffle model's RDP curves (or epsilon at --delta) over eps0 x n x T",
                         description="One CSV row per (grid point, method, order); with --delta, per (point, method).")
    r.add_argument("--eps0", required=True, help="local epsilons, e.g. 0.5,1,2,4")
    r.add_argument("--n", required=True, help="numbers of users, e.g. 1e3..1e9")
    r.add_argument("--orders", help="Renyi orders, e.g. 2..64 or 2,4,8 (default 2,3,4,5,6,8,10,12,16,20,24,32,48,64; "
                   "with --delta, a search over orders up to 1e4)")
    r.add_argument("--compositions", default="1", help="numbers T of adaptive compositions (default 1)")
    r.add_argument("--delta", help="deltas: rows give each method's epsilon at the best order instead of its curve")
    r.add_argument("--methods", help="comma-separated methods (default: all; see `dptheory rdp --help`)")
    r.add_argument("--rtol", type=float, default=RENYI_RTOL, help=f"relative width of the exact divergences (default {RENYI_RTOL:g})")
    _common(r)
    r.set_defaults(func=run_rdp)


def _common(p) -> None:
    p.add_argument("--workers", type=float, help="processes (or Dask workers with --scheduler local); "
                   "default: the CPUs available; 1 runs serially")
    p.add_argument("--scheduler", help="'local' (a Dask LocalCluster) or the address of a Dask scheduler, "
                   "e.g. tcp://host:8786 (default: a local process pool)")
    p.add_argument("-o", "--output", required=True, help="CSV file; if it holds part of this sweep, only the "
                   "missing points run")


def _run(sweep_obj, args) -> int:
    from .. import sweep as sweep_module

    try:
        result = sweep_module.run(sweep_obj, args.output, workers=args.workers, scheduler=args.scheduler,
                                  progress=True)
    except KeyboardInterrupt:
        import sys

        print(f"\ninterrupted: the finished points are in {args.output}; run the same command again to resume",
              file=sys.stderr)
        return 130
    print(f"wrote {result.path}: {result.points} grid points, {result.rows} rows "
          f"({result.resumed} points already there, {result.computed} computed)")
    return 0


def run_shuffle(args) -> int:
    from .. import sweep as sweep_module
    from . import no_effect

    no_effect(args, {"rtol": "--rtol is the relative width of the epsilon brackets of epsilon(delta) rows; "
                             "delta(epsilon) rows (--epsilon) do not search" if args.epsilon is not None else None})

    s = sweep_module.shuffle_sweep(args.eps0, args.n, delta=args.delta, epsilon=args.epsilon, methods=args.methods,
                                   randomizer=args.randomizer, d=args.d, k=args.k, l=args.l, rtol=args.rtol)
    return _run(s, args)


def run_rdp(args) -> int:
    from .. import sweep as sweep_module

    s = sweep_module.rdp_sweep(args.eps0, args.n, orders=args.orders, delta=args.delta,
                               compositions=args.compositions, methods=args.methods, rtol=args.rtol)
    return _run(s, args)
