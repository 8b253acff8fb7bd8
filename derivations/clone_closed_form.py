"""The closed-form clone bound of Feldman, McMillan, Talwar (FOCS 2021, eq. (1) / Theorem 3.1),
registered as clones-closed-form (dptheory.shuffle.clones):

    eps = log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta)/n) + 8 e^eps0/n)),
    valid for eps0 <= log(n / (16 log(4/delta))).

1. The registered expression equals the paper's formula (transcribed here independently: a
   transcription check, ``transcription-paper-form``; the checks below are the substantive ones).
2. Order in n: sqrt(n) eps -> 8 tanh(eps0/2) e^{eps0/2} sqrt(log(4/delta)); against the clone rate
   of Wang et al.'s Table 1 (table1-clones) the constant is 8 sqrt(log(4/delta)/log(1/delta)).
3. Small eps0: eps = 4 eps0 (sqrt(log(4/delta)/n) + 1/n) + O(eps0^2).
4. The bound decreases in n (d/dn of e^eps - 1 is negative).
5. At the edge of the condition, e^eps0 = n/(16 log(4/delta)), the bracket is
   2 + 1/(2 log(4/delta)): e^eps - 1 = tanh(eps0/2) (2 + 1/(2 log(4/delta))).
6. The closed form bounds the exact divergence of the clone pair it was derived from: it is above
   the toolkit's certified numerical clone bound at three settings.

Run: python derivations/clone_closed_form.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, is_zero, show, show_expr, show_formula, to_latex
from dptheory.shuffle.clones import CLOSED_FORM
from dptheory.shuffle.variation_ratio import TABLE_1
from dptheory.symbols import delta, eps0, n

E = sp.exp(eps0)
L4 = sp.log(4 / delta)
PAPER = sp.log(1 + (E - 1) / (E + 1) * (8 * sp.sqrt(E * L4 / n) + 8 * E / n))
ell = sp.Symbol("ell", positive=True)     # log(4/delta) > 0
e0_pos = sp.Symbol("epsilon_0", positive=True)


def _positive(expr):
    """The expression with delta = 4 e^{-ell} (log(4/delta) = ell > 0) and eps0 > 0."""
    return expr.subs(delta, 4 * sp.exp(-ell)).subs(eps0, e0_pos)


def check_paper_form(form=None) -> bool:
    """Transcription: the registered expression is the paper's eq. (1) as typed here."""
    form = CLOSED_FORM.expr if form is None else form
    return is_zero(form - PAPER)


def leading_constant(form=None):
    form = CLOSED_FORM.expr if form is None else form
    return sp.simplify(sp.limit(sp.sqrt(n) * form, n, sp.oo))


def check_order(form=None) -> bool:
    lead = leading_constant(form)
    want = 8 * sp.tanh(eps0 / 2) * sp.exp(eps0 / 2) * sp.sqrt(L4)
    rate = sp.limit(sp.sqrt(n) * TABLE_1["clones"].expr, n, sp.oo)
    return (is_zero(lead - want, rewrite_exp=True)
            and is_zero(sp.simplify((lead / rate) ** 2) - 64 * L4 / sp.log(1 / delta), rewrite_exp=True))


def small_eps0(form=None):
    """The first-order term of the series in eps0 (log(4/delta) kept whole)."""
    form = CLOSED_FORM.expr if form is None else form
    series = sp.expand(sp.series(form.subs(delta, 4 * sp.exp(-ell)), eps0, 0, 2).removeO())
    return series.subs(ell, L4)


def check_small_eps0(form=None) -> bool:
    return is_zero(small_eps0(form) - 4 * eps0 * (sp.sqrt(L4 / n) + 1 / n))


def check_decreasing_in_n(form=None) -> bool:
    form = CLOSED_FORM.expr if form is None else form
    slope = sp.simplify(_positive(sp.diff(sp.exp(form) - 1, n)))
    return bool(slope.is_negative)


def check_condition_edge(form=None) -> bool:
    form = CLOSED_FORM.expr if form is None else form
    at_edge = (sp.exp(form) - 1).subs(n, 16 * L4 * E)
    return is_zero(_positive(at_edge - sp.tanh(eps0 / 2) * (2 + 1 / (2 * L4))), rewrite_exp=True)


def check_above_exact(fn=None, points=((1.0, 10**4, 1e-6), (2.0, 10**6, 1e-8), (0.5, 10**5, 1e-9))) -> bool:
    from dptheory import shuffle
    from dptheory.shuffle import randomizers as R

    fn = CLOSED_FORM if fn is None else fn
    return all(fn(e0, nv, d) >= shuffle.epsilon(R.general_ldp(e0), nv, d, method="clones").upper
               for e0, nv, d in points)


def main() -> None:
    check = Checks()
    print("Feldman, McMillan, Talwar (2021): the closed-form clone bound\n")
    show_formula(CLOSED_FORM)
    show_formula(TABLE_1["clones"])
    print("\n1. The paper's formula, typed again (a transcription check)")
    show_expr(r"\epsilon", PAPER)
    check("transcription-paper-form", check_paper_form())
    print("\n2. Order in $n$")
    show_expr(r"\lim_{n\to\infty}\sqrt{n}\,\epsilon", 8 * sp.tanh(eps0 / 2) * sp.exp(eps0 / 2) * sp.sqrt(L4))
    show_expr(r"\lim_{n\to\infty}\frac{\epsilon}{\epsilon_{\mathrm{Table~1}}}",
              sp.simplify(leading_constant() / sp.limit(sp.sqrt(n) * TABLE_1["clones"].expr, n, sp.oo)))
    check("order-sqrt-n", check_order())
    print("\n3. Small $\\epsilon_0$")
    show(r"\epsilon", to_latex(small_eps0()) + r" + O(\epsilon_0^2)")
    check("small-eps0", check_small_eps0())
    print("\n4-5. Monotone in $n$; the value at the edge of the condition")
    check("decreasing-in-n", check_decreasing_in_n())
    show_expr(r"\left. e^{\epsilon} - 1 \right|_{e^{\epsilon_0} = n/(16\log(4/\delta))}",
              sp.tanh(eps0 / 2) * (2 + 1 / (2 * L4)))
    check("condition-edge", check_condition_edge())
    print("\n6. Above the exact divergence of the clone pair (certified numerical bound)")
    check("above-exact-clone-pair", check_above_exact())
    check.finish()


if __name__ == "__main__":
    main()
