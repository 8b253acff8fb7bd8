"""Wang et al. (VLDB 2024), Theorems 4.2 and 4.3, Table 1 and Appendix F (errata:
docs/errata.md#wang2024-theorem-4-2): what the
printed Theorem 4.2 says, why its nesting must be corrected, the corrected monotonicity threshold,
and the asymptotic orders (variation-ratio-analytic, -analytic-printed, -asymptotic, table1-*).

With alpha = beta/(p-1), r = alpha p/q, K = (1 - alpha - alpha p) r/(1 - 2r), u = sqrt(log(4/delta)/2):

1. Appendix F bounds the likelihood ratio by 1 + F(C) at a clone count C,
   F(C) = (p-1) alpha (2 sqrt(C/2 log(4/delta)) + 1) / (alpha C + (p-1) alpha (C/2 - sqrt(C/2 log(4/delta)))
          + (1 - alpha - alpha p)(n - 1 - C) r/(1 - 2r)).
   The corrected Theorem 4.2 is log(1 + F(Omega)), identically (Omega kept as the variable C).
2. The printed Theorem 4.2 contains beta (Omega/2)/(alpha Omega) = (p-1)/2, independent of n; as
   n -> oo it tends to log((p-1)/(2 beta)) >= log((p+1)/2) > 0: the printed form never amplifies.
3. Monotonicity: with s = sqrt(C), F = beta (2us + 1)/(A s^2 - beta u s + K (n-1)), A = (p+1) alpha/2 - K,
   and dF/ds = -2 u beta (A s^2 + (A/u) s - K (n-1) - beta/2)/(...)^2, so F decreases past the positive
   root s* of that quadratic; the toolkit's condition Omega >= s*^2 uses exactly that root.
4. Orders: sqrt(n) (e^eps - 1) -> 2 sqrt(beta (p-1) q log(4/delta)/p) for the corrected Theorem 4.2,
   and -> sqrt(32 log(4/delta)) sqrt(beta (p-1) q/p) / ((1-v)(p+1) beta/(p-1) + v) for Theorem 4.3:
   both the Table 1 rate sqrt(beta (p-1) q/p), which at p = q = e^eps0 is table1-variation-ratio's
   sqrt(beta (e^eps0 - 1)) (so Theorem 4.2 also tends to 0).

Run: python derivations/variation_ratio_closed_forms.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, is_zero, show_expr, show_formula
from dptheory.shuffle import variation_ratio as vr
from dptheory.symbols import beta, delta, eps0, n, p, q

alpha = beta / (p - 1)
r = alpha * p / q
C = sp.Symbol("C", positive=True)          # clone count at which F is evaluated (Omega)
ell = sp.Symbol("ell", positive=True)      # log(4/delta), delta = 4 e^{-ell}
w = sp.Symbol("w", positive=True)          # sqrt(min(6r, 1/2) log(4/delta)), the root inside Omega
v = sp.Symbol("v", nonnegative=True)       # Theorem 4.3's max(0, 4/9 (1-3r)/(1-2r)), constant in n
s = sp.Symbol("s", positive=True)          # sqrt(C)

F = (p - 1) * alpha * (2 * sp.sqrt(C / 2 * ell) + 1) / (
    alpha * C + (p - 1) * alpha * (C / 2 - sp.sqrt(C / 2 * ell)) + (1 - alpha - alpha * p) * (n - 1 - C) * r / (1 - 2 * r))


def _omega_root():
    roots = [a for a in sp.preorder_traversal(vr._OMEGA) if isinstance(a, sp.Pow) and a.exp == sp.S.Half]
    return roots[0]


def with_w(expr):
    """The expression with the root of Omega as the symbol w and log(4/delta) = ell."""
    return expr.xreplace({_omega_root(): w}).subs(delta, 4 * sp.exp(-ell))


def at_clone_count(expr):
    """The expression as a function of C = Omega (w eliminated: Omega = 2r(n-1) - w sqrt(n-1))."""
    return with_w(expr).subs(w, (2 * r * (n - 1) - C) / sp.sqrt(n - 1))


def check_nesting(corrected=None) -> bool:
    """The corrected Theorem 4.2 is log(1 + F(Omega)), identically."""
    expr = at_clone_count(vr.THEOREM_4_2.expr if corrected is None else corrected)
    return isinstance(expr, sp.log) and is_zero(expr.args[0] - 1 - F)


def check_printed_term() -> bool:
    """beta (Omega/2)/(alpha Omega) = (p-1)/2, and the printed form's argument contains it."""
    term = sp.simplify(beta * (C / 2) / (alpha * C))
    printed = at_clone_count(vr.THEOREM_4_2_PRINTED.expr).args[0]
    # printed argument minus the corrected one's numerator terms over alpha C, less the rest
    rest = ((beta * (2 * sp.sqrt(C * ell / 2) + 1) - beta * sp.sqrt(C * ell / 2)) / (alpha * C)
            + (1 - alpha - alpha * p) * (n - 1 - C) * r / ((1 - 2 * r) * alpha * C))
    return is_zero(term - (p - 1) / 2) and is_zero(printed - 1 - term - rest)


def printed_limit(printed=None):
    return sp.simplify(sp.limit(with_w(vr.THEOREM_4_2_PRINTED.expr if printed is None else printed), n, sp.oo))


def check_printed_limit(printed=None) -> bool:
    """lim = log((p-1)/(2 beta)), and (p-1)/(2 beta) >= (p+1)/2 for beta <= (p-1)/(p+1)."""
    lim = printed_limit(printed)
    c = sp.Symbol("c", nonnegative=True)  # beta = (p-1)/(p+1) / (1 + c)
    excess = sp.simplify(((p - 1) / (2 * beta) - (p + 1) / 2).subs(beta, (p - 1) / ((p + 1) * (1 + c))))
    return is_zero(sp.expand_log(lim - sp.log((p - 1) / (2 * beta)), force=True)) and bool(excess.is_nonnegative)


def check_monotonicity() -> bool:
    """dF/ds for F = beta (2us+1)/(a s^2 - beta u s + k m): a, k, u, m, beta abstract."""
    a, k, u, m, b = sp.symbols("a k u m b", positive=True)
    f = b * (2 * u * s + 1) / (a * s**2 - b * u * s + k * m)
    derivative = sp.diff(f, s)
    claimed = -2 * u * b * (a * s**2 + (a / u) * s - k * m - b / 2) / (a * s**2 - b * u * s + k * m) ** 2
    # and F of item 1 has that shape with a = A, k = K, m = n - 1, u = sqrt(log(4/delta)/2)
    shape = F.subs(C, s**2) - beta * (2 * sp.sqrt(ell / 2) * s + 1) / (
        vr._A * s**2 - beta * sp.sqrt(ell / 2) * s + vr._K * (n - 1))
    return is_zero(derivative - claimed) and is_zero(shape)


def check_threshold(s_star=None) -> bool:
    """The toolkit's s* is the positive root of A s^2 + (A/u) s - (K(n-1) + beta/2)."""
    s_star = vr._S_STAR if s_star is None else s_star
    A, K, u = vr._A, vr._K, sp.sqrt(vr._L4 / 2)
    c = K * (n - 1) + beta / 2
    root = (-A / u + sp.sqrt((A / u) ** 2 + 4 * A * c)) / (2 * A)
    return is_zero(s_star - root)


def order_4_2(corrected=None):
    expr = with_w(vr.THEOREM_4_2.expr if corrected is None else corrected)
    return sp.simplify(sp.limit(sp.sqrt(n) * (sp.exp(expr) - 1), n, sp.oo))


def order_4_3(asymptotic=None):
    expr = (vr.THEOREM_4_3.expr if asymptotic is None else asymptotic).subs(vr._V43, v).subs(delta, 4 * sp.exp(-ell))
    return sp.simplify(sp.limit(sp.sqrt(n) * (sp.exp(expr) - 1), n, sp.oo))


RATE = sp.sqrt(beta * (p - 1) * q / p)


def check_orders(corrected=None, asymptotic=None) -> bool:
    c42, c43 = order_4_2(corrected), order_4_3(asymptotic)
    const43 = sp.sqrt(32 * ell) / ((1 - v) * (p + 1) * beta / (p - 1) + v)
    return (is_zero(sp.simplify((c42 / RATE) ** 2) - 4 * ell)
            and is_zero(sp.simplify((c43 / RATE) ** 2 - const43**2)))


def check_table_1(rate=None) -> bool:
    """Table 1's variation-ratio rate is sqrt(beta (p-1) q/p) sqrt(log(1/delta)/n) at p = q = e^eps0."""
    rate = vr.TABLE_1["variation-ratio"].expr if rate is None else rate
    at_ldp = RATE.subs({p: sp.exp(eps0), q: sp.exp(eps0)}) * sp.sqrt(sp.log(1 / delta) / n)
    return is_zero(sp.simplify(rate**2 - at_ldp**2))


def main() -> None:
    check = Checks()
    print("Wang et al. (2024): Theorems 4.2 and 4.3\n")
    for f in (vr.THEOREM_4_2, vr.THEOREM_4_2_PRINTED, vr.THEOREM_4_3, vr.TABLE_1["variation-ratio"]):
        show_formula(f)
    print("\n1. Appendix F: the ratio is at most 1 + F(C), with (log(4/delta) = ell)")
    show_expr("F(C)", sp.simplify(F))
    show_expr("   \\text{Theorem 4.2 (corrected) at } \\Omega = C", at_clone_count(vr.THEOREM_4_2.expr))
    check("theorem-4.2-is-log-1-plus-F", check_nesting())
    print("\n2. The printed nesting")
    show_expr("   \\beta(\\Omega/2)/(\\alpha\\Omega)", sp.simplify(beta * (C / 2) / (alpha * C)))
    check("printed-constant-term", check_printed_term())
    show_expr("   \\lim_{n\\to\\infty}\\epsilon_{\\mathrm{printed}}", printed_limit())
    check("printed-does-not-vanish", check_printed_limit())
    print("\n3. Where F decreases (s = sqrt(C), u = sqrt(log(4/delta)/2))")
    show_expr("s^*", vr._S_STAR)
    check("dF-ds-sign", check_monotonicity())
    check("threshold-root", check_threshold())
    print("\n4. Orders in n")
    show_expr("   \\lim\\sqrt{n}(e^{\\epsilon_{4.2}}-1)", order_4_2())
    show_expr("   \\lim\\sqrt{n}(e^{\\epsilon_{4.3}}-1)", order_4_3())
    check("orders-4.2-4.3", check_orders())
    check("table-1-rate", check_table_1())
    check.finish()


if __name__ == "__main__":
    main()
