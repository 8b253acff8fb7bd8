"""``dptheory fdp``: f-DP of mixture mechanisms, one sub-subcommand per result.

Each sub-subcommand is a module ``dptheory/cli/fdp_<name>.py`` that defines ``HELP`` (one line)
and ``add_parser(subparsers)``, which adds the sub-subcommand and sets ``func``. This module lists
them in :data:`SUBCOMMANDS` (name -> HELP) and imports only the one that runs, as
``dptheory/cli/__init__.py`` does for the subcommands.
"""

from __future__ import annotations

import argparse

from . import add_subparsers

HELP = "f-DP of mixtures: shuffling, user-given mixtures, DP-GD with random initialization"

#: sub-subcommand -> the one-line HELP of its module (tests/cli/test_fdp.py checks they agree)
SUBCOMMANDS = {
    "shuffle": "f-DP of shuffling: trade-off curve, delta(epsilon) and a GDP description (Wang et al. 2023)",
    "mixture": "f-DP of a mixture of pairs given as pmfs: exact and joint-concavity trade-off curves",
    "dpgd": "f-DP of one DP-GD step with random initialization (Wang et al. 2023, Theorem 5.1)",
}


def add_parser(sub) -> None:
    listing = "\n".join(f"  {name:<9} {text}" for name, text in SUBCOMMANDS.items())
    p = sub.add_parser("fdp", help=HELP, description=f"{HELP}.\n\ncommands:\n{listing}",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("which", choices=list(SUBCOMMANDS), metavar="COMMAND", help="one of: " + ", ".join(SUBCOMMANDS))
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def build_parser(which: str) -> argparse.ArgumentParser:
    """The parser of ``dptheory fdp``, with the full parser of ``which`` (its module imported)."""
    parser = argparse.ArgumentParser(prog="dptheory fdp", description=HELP)
    add_subparsers(parser, "fdp_command", SUBCOMMANDS, which, f"{__package__}.fdp_{{}}")
    return parser


def run(args) -> int:
    from . import given_options

    parser = build_parser(args.which)
    argv = [args.which, *args.rest]
    inner = parser.parse_args(argv)
    inner.command = args.command = f"fdp {args.which}"  # the name an error message gives
    inner.given = given_options(parser, argv)
    return int(inner.func(inner) or 0)
