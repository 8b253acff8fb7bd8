"""Girgis, Data, Diggavi, Suresh, Kairouz (CCS 2021): the upper bounds on the Renyi DP of the
shuffle model as the toolkit registers them (girgis-upper-1 = Theorem 3.1, girgis-upper-2 =
Theorem 3.3 corrected, girgis-upper-2-printed, girgis-corollary-3.2; errata: docs/errata.md).

1. Theorem 3.1 with n_bar = m equals its numerically stable form
   (1/(lam-1)) log(1 + binom(lam,2) 4 sinh^2(eps0/2)/m + sum_{i>=3} binom(lam,i) i Gamma(i/2)
   (2 sinh^2(eps0)/m)^{i/2} + e^{eps0 lam - (n-1)/(8 e^eps0)}), term by term.
2. At lam = 2 the sum is empty: Theorem 3.1 is log(1 + 4 sinh^2(eps0/2)/m + Chernoff).
3. Orders as n -> oo (n_bar = (n-1)/(2 e^eps0) + theta, 0 <= theta <= 1, so the limits hold for
   the floor): n UB1 -> lam (e^eps0 - 1)^2 (the i >= 3 terms are O(n^{-3/2}) and the Chernoff term
   e^{-Theta(n)}), n UB2 -> 2 lam^2 e^eps0 (e^eps0 - 1)^2/(lam - 1), n Corollary 3.2 -> 2 lam (e^eps0 - 1)^2:
   Corollary 3.2 exceeds Theorem 3.1 by the factor 2 asymptotically, and UB2/UB1 -> 2 e^eps0 lam/(lam-1).
4. Erratum of Theorem 3.3: the printed form at eps0 = 1 loses its first term
   (log(1 + e^{lam - (n-1)/8})/(lam-1)), which falls below the lower bound of Corollary 3.5
   (mpmath, n = 1e4, lam = 2), while the corrected form stays above it; and the printed tail exponent
   is below the corrected one by (n-1)/8 (1/eps0 - e^{-eps0}) > 0 (unsound for every eps0 > 0).

Run: python derivations/girgis_upper_bounds.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, is_zero, show_expr, show_formula
from dptheory.shuffle.rdp import formulas as F
from dptheory.symbols import eps0, lam, n

E = sp.exp(eps0)
LAM = F.lam_int                                  # integer order of Theorem 3.1 / Corollary 3.2
m = sp.Symbol("m", positive=True)                # n_bar
theta = sp.Symbol("theta", nonnegative=True)     # n_bar = (n-1)/(2 e^eps0) + theta, theta in [0, 1]
M_OF_N = (n - 1) / (2 * E) + theta
CHERNOFF = sp.exp(eps0 * LAM - (n - 1) / (8 * E))


def _log_argument(expr):
    logs = [a for a in sp.preorder_traversal(expr) if isinstance(a, sp.log)]
    return logs[0].args[0] if len(logs) == 1 else None


def check_stable_form(upper_1=None) -> bool:
    """Theorem 3.1's terms against the sinh form ((e^x - 1)^2/e^x = 4 sinh^2(x/2)), term by term."""
    expr = (F.UPPER_1.expr if upper_1 is None else upper_1).xreplace({F.NBAR: m})
    arg = _log_argument(expr)
    if arg is None or not is_zero(expr - sp.log(arg) / (LAM - 1)):
        return False
    sums = [a for a in sp.Add.make_args(arg) if isinstance(a, sp.Sum)]
    if len(sums) != 1:
        return False
    (i, low, high), = sums[0].limits
    if (low, high) != (3, LAM):
        return False
    summand = sums[0].function
    powers = [a for a in sp.preorder_traversal(summand) if isinstance(a, sp.Pow) and a.exp == i / 2]
    if len(powers) != 1 or not is_zero(powers[0].base - 2 * sp.sinh(eps0) ** 2 / m, rewrite_exp=True):
        return False
    stable_base = 2 * sp.sinh(eps0) ** 2 / m
    summand_ok = is_zero(summand.xreplace({powers[0].base: stable_base})
                         - sp.binomial(LAM, i) * i * sp.gamma(i / 2) * stable_base ** (i / 2))
    rest = sp.Add(*[a for a in sp.Add.make_args(arg) if not isinstance(a, sp.Sum)])
    rest_ok = is_zero(rest - (1 + sp.binomial(LAM, 2) * 4 * sp.sinh(eps0 / 2) ** 2 / m + CHERNOFF), rewrite_exp=True)
    return summand_ok and rest_ok


def order_two(upper_1=None):
    expr = (F.UPPER_1.expr if upper_1 is None else upper_1).xreplace({F.NBAR: m})
    return sp.simplify(expr.subs(LAM, 2).doit())


def check_order_two(upper_1=None) -> bool:
    want = sp.log(1 + 4 * sp.sinh(eps0 / 2) ** 2 / m + CHERNOFF.subs(LAM, 2))
    return is_zero(order_two(upper_1) - want, rewrite_exp=True)


def leading(expr):
    """lim n -> oo of n * expr, with n_bar replaced by (n-1)/(2 e^eps0) + theta."""
    return sp.simplify(sp.limit(n * expr.xreplace({F.NBAR: M_OF_N}), n, sp.oo))


def leading_orders(upper_1=None, upper_2=None, corollary_3_2=None) -> dict:
    u1 = F.UPPER_1.expr if upper_1 is None else upper_1
    sums = list(u1.atoms(sp.Sum))
    quadratic = u1.xreplace({s: 0 for s in sums})  # the i >= 3 terms: see check_higher_terms_vanish
    return {"UB1": leading(quadratic),
            "UB2": leading(F.UPPER_2.expr if upper_2 is None else upper_2),
            "Corollary 3.2": leading(F.COROLLARY_3_2.expr if corollary_3_2 is None else corollary_3_2)}


def check_higher_terms_vanish() -> bool:
    """For m > 2 sinh^2(eps0) each (2 sinh^2(eps0)/m)^{i/2}, i >= 3, is at most the i = 3 one; n times
    that goes to 0, and so does n times the Chernoff term (n^3 even)."""
    c = 2 * sp.sinh(eps0) ** 2
    return (sp.limit(n * (c / M_OF_N) ** sp.Rational(3, 2), n, sp.oo) == 0
            and sp.limit(n**3 * CHERNOFF, n, sp.oo) == 0)


def check_leading_orders(orders=None) -> bool:
    orders = leading_orders() if orders is None else orders
    want = {"UB1": LAM * (E - 1) ** 2, "UB2": 2 * lam**2 * E * (E - 1) ** 2 / (lam - 1),
            "Corollary 3.2": 2 * LAM * (E - 1) ** 2}
    return all(is_zero(orders[k] - want[k]) for k in want)


PRINTED_AT_ONE = sp.log(1 + sp.exp(lam - (n - 1) / 8)) / (lam - 1)


def check_printed_at_one(printed=None) -> bool:
    """The printed Theorem 3.3 at eps0 = 1 is PRINTED_AT_ONE: its first term is gone."""
    printed = F.UPPER_2_PRINTED.expr if printed is None else printed
    return is_zero(printed.subs(eps0, 1) - PRINTED_AT_ONE)


def check_printed_below_lower(printed=None, corrected=None) -> bool:
    """mpmath at n = 1e4, lam = 2, eps0 = 1: printed < Corollary 3.5 <= corrected."""
    printed = F.UPPER_2_PRINTED if printed is None else printed
    corrected = F.UPPER_2 if corrected is None else corrected
    low = F.COROLLARY_3_5(1, 10**4, 2, digits=50)
    return printed(1, 10**4, 2, digits=600) < low <= corrected(1, 10**4, 2, digits=50)


def check_printed_tail(printed=None, corrected=None) -> bool:
    """The printed tail exponent minus the corrected one is -(n-1)/8 (1/eps0 - e^{-eps0}) < 0."""
    printed = F.UPPER_2_PRINTED.expr if printed is None else printed
    corrected = F.UPPER_2.expr if corrected is None else corrected

    def tail_exponent(expr):
        """The exponent of the Chernoff term: the one whose derivative in lambda is eps0."""
        arg = _log_argument(expr)
        exps = [a.exp for a in sp.Add.make_args(arg) if isinstance(a, sp.exp)]
        tails = [x for x in exps if is_zero(sp.diff(x, lam) - eps0)]
        return tails[0] if len(tails) == 1 else None

    a, b = tail_exponent(printed), tail_exponent(corrected)
    if a is None or b is None:
        return False
    gap = sp.simplify(a - b + (n - 1) / 8 * (1 / eps0 - sp.exp(-eps0)))
    # 1/x - e^{-x} = (e^x - x)/(x e^x) > 0 for x > 0, since min over the reals of e^x - x is 1
    x = sp.Symbol("x", real=True)
    return gap == 0 and sp.minimum(sp.exp(x) - x, x, sp.Reals) == 1


#: how each bound is named in a display
LABELS = {"UB1": r"\mathrm{Theorem~3.1}", "UB2": r"\mathrm{Theorem~3.3}", "Corollary 3.2": r"\mathrm{Corollary~3.2}"}


def main() -> None:
    check = Checks()
    print("Girgis et al. (2021): the upper bounds on the RDP of the shuffle model\n")
    for f in (F.UPPER_1, F.UPPER_2, F.UPPER_2_PRINTED, F.COROLLARY_3_2):
        show_formula(f)
    i = sp.Symbol("i")
    print("\n1. Theorem 3.1 in the stable form ($\\bar n = m$)")
    show_expr(r"\epsilon(\lambda)", sp.log(1 + sp.binomial(LAM, 2) * 4 * sp.sinh(eps0 / 2) ** 2 / m
                                            + sp.Sum(sp.binomial(LAM, i) * i * sp.gamma(i / 2)
                                                     * (2 * sp.sinh(eps0) ** 2 / m) ** (i / 2), (i, 3, LAM))
                                            + CHERNOFF) / (LAM - 1))
    check("theorem-3.1-stable-form", check_stable_form())
    print("\n2. Theorem 3.1 at $\\lambda = 2$")
    show_expr(r"\epsilon(2)", order_two())
    check("theorem-3.1-order-2", check_order_two())
    print("\n3. $n\\,\\epsilon(\\lambda)$ as $n \\to \\infty$")
    orders = leading_orders()
    for name, value in orders.items():
        show_expr(f"\\lim_{{n\\to\\infty}} n\\,\\epsilon_{{{LABELS[name]}}}(\\lambda)", value)
    check("higher-terms-vanish", check_higher_terms_vanish())
    check("leading-orders", check_leading_orders(orders))
    show_expr(f"\\lim_{{n\\to\\infty}} \\frac{{\\epsilon_{{{LABELS['Corollary 3.2']}}}}}{{\\epsilon_{{{LABELS['UB1']}}}}}",
              sp.simplify(orders["Corollary 3.2"] / orders["UB1"]))
    show_expr(f"\\lim_{{n\\to\\infty}} \\frac{{\\epsilon_{{{LABELS['UB2']}}}}}{{\\epsilon_{{{LABELS['UB1']}}}}}",
              sp.simplify(orders["UB2"].subs(lam, LAM) / orders["UB1"]))
    print("\n4. Erratum of Theorem 3.3")
    show_expr(r"\left. \epsilon_{\mathrm{printed}}(\lambda) \right|_{\epsilon_0 = 1}",
              PRINTED_AT_ONE)
    check("printed-3.3-at-eps0-1", check_printed_at_one())
    check("printed-3.3-below-lower-bound", check_printed_below_lower())
    check("printed-3.3-tail-too-small", check_printed_tail())
    check.finish()


if __name__ == "__main__":
    main()
