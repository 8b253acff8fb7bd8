"""The ``dptheory`` command.

Each subcommand lives in a module of this package that defines ``add_parser(subparsers)`` and
the function it sets as ``func``. Only the module of the subcommand that runs is imported: the
others are listed from :data:`SUBCOMMANDS`, so that ``dptheory --help`` and the float commands
(``dptheory gdp``) do not pay for the imports of every other command (sympy, the shuffle engines).

The bare command runs the default job, the shuffle amplification table; options without a
subcommand go to it (``dptheory --eps0 2 --n 1e5``).
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: subcommand -> the one-line help of ``dptheory --help`` (the same text as the module's own
#: ``add_parser``; tests/cli/test_main.py checks that they agree), in the order they are listed
SUBCOMMANDS = {
    "shuffle": "privacy amplification by shuffling: epsilon(delta) or delta(epsilon), every method",
    "rdp": "Renyi DP of the shuffle model: every bound, exact values, conversion to (epsilon, delta)",
    "gdp": "Gaussian DP: delta(epsilon) or epsilon(delta) for mu-GDP",
    "mechanism": "Gaussian, Laplace, randomized response or DP-SGD (sgm): epsilon(delta) and RDP",
    "formula": "print a closed form (LaTeX, conditions, kind, source)",
    "fdp": "f-DP of mixtures: shuffling, user-given mixtures, DP-GD with random initialization",
    "compare": "Delta-divergence, Blackwell dominance and crossings of two mechanisms",
    "latex": "write the closed forms as a compilable LaTeX document (or fragment) with a .bib of the cited papers",
    "report": "write a report (Markdown and LaTeX, tables and figures) of every bound for one setting",
    "verify": "check every bound against exact and high-precision oracles; printed errata vs corrections",
    "plot": "draw a figure of the papers from the toolkit's own code (PNG or PDF); --list names them",
    "sweep": "a grid of bounds to CSV, in parallel on local processes or a Dask cluster; resumable",
}
DEFAULT = "shuffle"
_HELP = ("-h", "--help", "--version")


def command_of(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs: its first word if that names one, the default job when
    ``argv`` is empty or starts with an option of the default job; None for ``--help``."""
    if argv and argv[0] in SUBCOMMANDS:
        return argv[0]
    if argv and argv[0] in _HELP:
        return None
    if not argv or argv[0].startswith("-"):
        return DEFAULT
    return None  # an unknown word: argparse says which commands exist


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the full sub-parser of ``command`` (its module is imported) and a
    one-line entry for every other subcommand."""
    parser = argparse.ArgumentParser(
        prog="dptheory",
        description="Symbolic-numeric toolkit for the theory of differential privacy. "
        f"Without a subcommand, runs `dptheory {DEFAULT}` (its options may be given directly).",
    )
    parser.add_argument("--version", action=_VersionAction)
    add_subparsers(parser, "command", SUBCOMMANDS, command, f"{__name__}.{{}}")
    return parser


def add_subparsers(parser, dest: str, commands: dict[str, str], chosen: str | None, module: str) -> None:
    """The subcommands ``commands`` (name -> one-line help) of ``parser``: the full parser of
    ``chosen`` (from ``module.format(chosen)``, imported here), a one-line entry for each other
    (so that listing them imports nothing)."""
    sub = parser.add_subparsers(dest=dest, metavar="COMMAND")
    for name, text in commands.items():
        if name == chosen:
            importlib.import_module(module.format(name)).add_parser(sub)
        else:
            sub.add_parser(name, help=text)


def main(argv=None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = command_of(argv)
    if command is not None and (not argv or argv[0] != command):
        argv = [command] + argv
    # with no command (--help, or an unknown word) argparse prints the help or the error and exits
    parser = build_parser(command)
    args = parser.parse_args(argv)
    from ..validate import DomainError

    try:
        args.given = given_options(parser, argv)
        return int(args.func(args) or 0)
    except DomainError as exc:
        from ..presentation.cells import plain

        print(f"dptheory {args.command}: error: {plain(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader (e.g. `| head`) closed the pipe: stop quietly, as Unix tools do
        _silence_stdout()
        return 0


class _VersionAction(argparse._VersionAction):
    """``--version``: the version is read from the package metadata when the option is given, not
    when the parser is built (importing importlib.metadata takes about 15 ms of every command)."""

    def __call__(self, parser, namespace, values, option_string=None):
        self.version = f"dptheory {version()}"
        super().__call__(parser, namespace, values, option_string)


def version() -> str:
    """The installed version of dptheory (the package metadata: the one source)."""
    from .. import __version__

    return __version__


def _actions(parser: argparse.ArgumentParser) -> list:
    """Every action of ``parser`` and of its sub-parsers."""
    out = []
    for action in parser._actions:
        out.append(action)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out.extend(_actions(sub))
    return out


def given_options(parser: argparse.ArgumentParser, argv: list[str]) -> dict[str, str]:
    """The options ``argv`` sets explicitly, as dest -> the option's name (``--delta``): the
    parse of ``argv`` again with every default suppressed, so that an option left at its default
    is told apart from one given with the default's value."""
    options = [a for a in _actions(parser) if a.option_strings and a.default is not argparse.SUPPRESS]
    saved = [(a, a.default) for a in options]
    try:
        for a in options:
            a.default = argparse.SUPPRESS
        given = vars(parser.parse_args(argv))
    finally:
        for a, default in saved:
            a.default = default
    names = {a.dest: max(a.option_strings, key=len) for a in options}
    return {dest: names[dest] for dest in given if dest in names}


def add_latex_options(p, tables: str, label_example: str) -> None:
    """The options of a command that prints its numbers as booktabs ``tables`` ("table" or
    "tables") for a paper: --latex, --sig, --textwidth, --bib, --label."""
    from ..presentation.numbers import SIG

    p.add_argument("--latex", action="store_true", help=f"print the numbers as {'a booktabs table' if tables == 'table' else 'booktabs tables'} "
                   "for a paper (needs only the booktabs package)")
    p.add_argument("--sig", type=float, default=SIG, help=f"significant figures of the --latex {tables}' numbers "
                   f"(default {SIG})".replace("table' ", "table's "))
    p.add_argument("--textwidth", type=float, default=345.0, metavar="PT",
                   help="with --latex: the text width (pt) the table must fit; a wider table is split into blocks "
                   "of columns (default 345, the article class; a two-column paper has about 240)")
    p.add_argument("--bib", metavar="FILE.bib", help="with --latex: also write the BibTeX entries of the papers "
                   f"the {tables} cite{'s' if tables == 'table' else ''} to this file")
    p.add_argument("--label", help=f"LaTeX label of the --latex table (default: from the parameters, "
                   f"e.g. {label_example})")


def no_effect(args, rules: dict[str, str | None]) -> None:
    """Raise a DomainError for the first option that ``args`` sets explicitly and that has no
    effect here: ``rules`` maps an option's dest to why it has none (None: the option is used)."""
    from ..validate import DomainError

    given = getattr(args, "given", {})
    for dest, why in rules.items():
        if why is not None and dest in given:
            value = getattr(args, dest, None)
            shown = ("" if isinstance(value, bool) or value is None
                     else f" {value:g}" if isinstance(value, float) else f" {value}")
            raise DomainError(f"{given[dest]}{shown} has no effect here: {why}")


def emit(args, results, parameters: dict | None = None, *, omit=(), out=None, **extra) -> None:
    """Print the one JSON document of every command: ``{"command", "version", "parameters",
    "results", ...}``. ``parameters`` holds every input that shaped the output (each option's
    value, given or default, updated by ``parameters``); ``results`` the command's answer (a
    report's ``as_dict()``: the ``parameters`` it holds are merged into the top-level ones, the
    rest of it is the results, or its own ``results`` with the other keys beside them); ``omit``:
    options that do not apply to this variant; ``out``: a file open for writing instead of standard
    output."""
    from ..presentation.json_output import emit_json, jsonable

    inputs = {k: v for k, v in vars(args).items() if k not in _NOT_INPUTS and k not in omit and not callable(v)}
    inputs.update(parameters or {})
    body = jsonable(results)
    if isinstance(body, dict):
        body = dict(body)
        if isinstance(body.get("parameters"), dict):
            inputs.update(body.pop("parameters"))
        if "results" in body:
            extra = {**body, **extra}
            body = extra.pop("results")
    emit_json({"command": getattr(args, "command", None), "version": version(), "parameters": inputs, "results": body, **extra},
              out)


#: attributes of the parsed arguments that are not inputs of the computation
_NOT_INPUTS = {"command", "given", "func", "json", "which", "rest", "fdp_command", "sweep",
               "latex", "sig", "textwidth", "label", "bib", "plot"}


def print_latex_table(source: str, bib: str | None) -> None:
    """Print a --latex table and, with --bib, write the entries of the papers it cites."""
    from ..presentation import latex as tex

    if bib is not None:
        for path in tex.write_bib(bib, tex.cited_keys(source)):
            print(f"% wrote {path}")
    print(source)


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
