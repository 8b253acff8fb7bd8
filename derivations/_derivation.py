"""Shared plumbing of the derivation scripts (not a derivation itself: its name starts with "_").

Every script in derivations/ prints its results as LaTeX, prints one line ``check <name>: ok``
(or ``check <name>: FAILED ...``) per check, and exits with status 1 if any check failed. A
check is a function returning True or False, so that a test can call it with a planted wrong
expression and see it fail.

Kinds of check. A check whose name starts with ``transcription-`` (:data:`TRANSCRIPTION`) only
compares a formula with the same formula typed again (the toolkit's expression against the
paper's print, retyped): it shows that nothing was lost in copying, not that the formula is
right. Every other check is substantive: an identity sympy proves (a difference simplified to 0,
never sampled), a limit, a series, a value the paper prints reproduced by the toolkit's own
code, or agreement with an independent computation (a certified numerical method of the toolkit,
exact rational enumeration, mpmath at 50 digits from the definition). A script whose checks are
all transcriptions fails (:meth:`Checks.finish`).

Displays. Every result is printed as ``$$LHS = RHS$$`` (:func:`show`, :func:`show_expr`,
:func:`show_formula`): the left-hand side LaTeX math (a description as ``\\text{...}``), the
right-hand side through the papers' notation (:func:`to_latex`: the normal CDF as ``\\Phi``,
positive terms first); a condition on the display follows it as ``\\quad \\text{for } ...``.
"""

from __future__ import annotations

import re
import sys

import sympy as sp

from dptheory.presentation.notation import to_latex  # the papers' notation: Phi, binomials, named functions


#: the prefix of a transcription check's name (see the module docstring)
TRANSCRIPTION = "transcription-"


def is_transcription(name: str) -> bool:
    """True for the name of a transcription check (a formula against itself retyped)."""
    return name.startswith(TRANSCRIPTION)


class Checks:
    """Runs checks, prints one line per check, and exits non-zero at the end if any failed or if
    every check was a transcription check."""

    def __init__(self) -> None:
        self.failed: list[str] = []
        self.passed: list[str] = []

    def __call__(self, name: str, ok, detail: str = "") -> bool:
        ok = bool(ok)
        if ok:
            self.passed.append(name)
            print(f"check {name}: ok")
        else:
            self.failed.append(name)
            print(f"check {name}: FAILED{' (' + detail + ')' if detail else ''}")
        return ok

    def finish(self) -> None:
        """Print the summary and exit 1 if a check failed, or if no substantive check ran (only
        transcription checks); 0 otherwise."""
        names = self.passed + self.failed
        total = len(names)
        copies = sum(is_transcription(name) for name in names)
        if self.failed:
            print(f"{len(self.failed)} of {total} checks FAILED: {', '.join(self.failed)}")
            sys.exit(1)
        if copies == total:
            print(f"FAILED: all {total} checks are transcription checks; a derivation needs a substantive one")
            sys.exit(1)
        print(f"all {total} checks ok" + (f" ({copies} of them transcription)" if copies else ""))
        sys.exit(0)


def is_zero(expr, *, rewrite_exp: bool = False) -> bool:
    """True when sympy proves ``expr`` identically 0 by simplification (never by sampling).

    Tries, in order: the expression as given, ``cancel``/``expand``, ``simplify`` and, with
    ``rewrite_exp``, ``simplify`` of the expression rewritten in exponentials (hyperbolic
    functions, tanh, sinh ...).
    """
    expr = sp.sympify(expr)
    if expr == 0:
        return True
    for step in (sp.cancel, sp.expand, sp.simplify):
        try:
            if step(expr) == 0:
                return True
        except (TypeError, NotImplementedError):
            continue
    if rewrite_exp:
        e = expr.rewrite(sp.exp)
        for step in (sp.simplify, lambda x: sp.simplify(sp.powsimp(sp.expand(x), force=True))):
            if step(e) == 0:
                return True
    return False


def erfcinv_of_erfc(expr):
    """``expr`` with erfcinv(erfc(x)) replaced by x, valid for real x (sympy leaves it
    unevaluated): Phi^{-1}(Phi(x)) = x in the toolkit's erfc forms."""
    return expr.replace(lambda e: isinstance(e, sp.erfcinv) and isinstance(e.args[0], sp.erfc),
                        lambda e: e.args[0].args[0])


def show(lhs: str, tex: str, condition: str = "") -> None:
    """Print a result as a displayed equation, ``$$lhs = tex$$``: ``lhs`` is LaTeX math (a
    description is ``\\text{...}``), so that the line pastes into a paper as it is. A
    ``condition`` (LaTeX math) is appended as ``\\quad \\text{for } condition``."""
    tail = f" \\quad \\text{{for }} {condition}" if condition else ""
    print(f"  $${lhs.strip()} = {tex}{tail}$$")


def show_expr(lhs: str, expr, condition: str = "") -> None:
    """:func:`show` of a sympy expression, printed in the papers' notation (:func:`to_latex`)."""
    show(lhs, to_latex(expr), condition)


def show_formula(formula) -> None:
    """The registered formula as LaTeX (its own Formula.latex()), its named sub-expressions
    ("where"), its validity conditions ("for"), its kind, status and source."""
    status = formula.status_text() if formula.status is not None else "-"
    print(f"{formula.name} [{formula.kind.value}, {status}; {formula.source}]:")
    print(f"  $${formula.latex()}$$")
    names = formula.where_latex()
    if names:
        print("  where $" + "$, $".join(names) + "$")
    conditions = formula.conditions_latex()
    if conditions:
        print("  for $" + "$, $".join(conditions) + "$")


def inside_certified(label: str, closed: float, certified, slack: float = 1e-14) -> bool:
    """Print a closed form's value beside a certified numerical interval (a Result) of the same
    quantity, and whether it lies inside (up to ``slack``, the closed form's own float error)."""
    print(f"   {label}: closed form {closed:.15g}, certified [{certified.lower:.15g}, {certified.upper:.15g}]")
    return certified.lower - slack <= closed <= certified.upper + slack


_GREEK = {"eps0": r"\epsilon_0", "eps": r"\epsilon", "lambda": r"\lambda", "gamma": r"\gamma",
          "delta": r"\delta", "mu": r"\mu"}


def math_title(title: str) -> str:
    """A figure panel's title with its settings in math: "Figure 2a: eps0 = 0.1, n = 1e4" ->
    "Figure 2a: $\\epsilon_0 = 0.1$, $n = 10^{4}$" (each "name = value" after the colon)."""
    head, sep, settings = title.partition(": ")
    if not sep:
        return title

    def item(text: str) -> str:
        name, eq, value = text.partition(" = ")
        if not eq:
            return text
        value = re.sub(r"^1e(-?\d+)$", lambda m: f"10^{{{int(m.group(1))}}}", value)
        return f"${_GREEK.get(name, name)} = {value}$"

    return head + sep + ", ".join(item(part) for part in settings.split(", "))


def latex_table(header: list[str], rows: list[list[str]], caption: str | None = None) -> str:
    """A booktabs tabular (for the figure scripts' data)."""
    cols = "l" + "r" * (len(header) - 1)
    lines = []
    if caption:
        lines.append(f"% {caption}")
    lines += [f"\\begin{{tabular}}{{{cols}}}", "\\toprule", " & ".join(header) + " \\\\", "\\midrule"]
    lines += [" & ".join(row) + " \\\\" for row in rows]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines)


def latex_number(x: float) -> str:
    """A float for a LaTeX table: 4 significant digits, powers of ten as \\times 10^{k}."""
    if x != x:
        return "--"
    if x == float("inf"):
        return "$\\infty$"
    text = f"{x:.4g}"
    if "e" in text:
        mant, exp = text.split("e")
        return f"${mant} \\times 10^{{{int(exp)}}}$"
    return f"${text}$"
