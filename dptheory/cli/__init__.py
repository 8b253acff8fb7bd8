"""The ``dptheory`` command.

Each subcommand lives in a module of this package that defines ``add_parser(subparsers)``;
the bare command runs the default job, the shuffle amplification table.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..validate import DomainError

#: subcommand modules, in the order they are listed by ``dptheory --help``
SUBCOMMANDS = ("shuffle", "rdp", "gdp", "mechanism", "formula")
DEFAULT = "shuffle"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dptheory",
        description="Symbolic-numeric toolkit for the theory of differential privacy. "
        f"Without a subcommand, runs `dptheory {DEFAULT}` with its defaults.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args([DEFAULT] + list(argv or []))
    try:
        return int(args.func(args) or 0)
    except DomainError as exc:
        print(f"dptheory {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader (e.g. `| head`) closed the pipe: stop quietly, as Unix tools do
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
