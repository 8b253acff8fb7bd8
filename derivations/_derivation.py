"""Shared plumbing of the derivation scripts (not a derivation itself: its name starts with "_").

Every script in derivations/ prints its results as LaTeX, prints one line ``check <name>: ok``
(or ``check <name>: FAILED ...``) per check, and exits with status 1 if any check failed. A
check is a function returning True or False, so that a test can call it with a planted wrong
expression and see it fail.
"""

from __future__ import annotations

import sys

import sympy as sp

from dptheory.presentation.notation import to_latex  # the papers' notation: Phi, binomials, named functions


class Checks:
    """Runs checks, prints one line per check, and exits non-zero at the end if any failed."""

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
        """Print the summary and exit 1 if a check failed (0 otherwise)."""
        total = len(self.passed) + len(self.failed)
        if self.failed:
            print(f"{len(self.failed)} of {total} checks FAILED: {', '.join(self.failed)}")
            sys.exit(1)
        print(f"all {total} checks ok")
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


def show(lhs: str, tex: str) -> None:
    """Print a result as a displayed equation, ``$$lhs = tex$$``: ``lhs`` is LaTeX math (a
    description is ``\\text{...}``), so that the line pastes into a paper as it is."""
    print(f"  $${lhs.strip()} = {tex}$$")


def show_expr(lhs: str, expr) -> None:
    """:func:`show` of a sympy expression, printed in the papers' notation."""
    show(lhs, to_latex(expr))


def show_formula(formula) -> None:
    """The registered formula as LaTeX (its own Formula.latex()) with its conditions and status."""
    status = formula.status.value if formula.status is not None else "-"
    print(f"{formula.name} [{formula.kind.value}, {status}; {formula.source}]:")
    print(f"  $${formula.latex()}$$")
    conditions = formula.conditions_latex()
    if conditions:
        print("  where $" + "$, $".join(conditions) + "$")


def inside_certified(label: str, closed: float, certified, slack: float = 1e-14) -> bool:
    """Print a closed form's value beside a certified numerical interval (a Result) of the same
    quantity, and whether it lies inside (up to ``slack``, the closed form's own float error)."""
    print(f"   {label}: closed form {closed:.15g}, certified [{certified.lower:.15g}, {certified.upper:.15g}]")
    return certified.lower - slack <= closed <= certified.upper + slack


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
