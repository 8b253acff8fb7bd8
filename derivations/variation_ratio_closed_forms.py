"""Wang et al. (VLDB 2024), Theorems 4.2 and 4.3, Table 1 and Appendix F (errata:
docs/errata.md#wang2024-theorem-4-2): what the
printed Theorem 4.2 says, why its nesting must be corrected, the corrected monotonicity threshold,
and the asymptotic orders (variation-ratio-analytic, -analytic-printed, -asymptotic, table1-*).

With alpha = beta/(p-1), r = alpha p/q, K = (1 - alpha - alpha p) r/(1 - 2r), u = sqrt(log(4/delta)/2):

1. Appendix F bounds the likelihood ratio by 1 + F(C) at a clone count C,
   F(C) = (p-1) alpha (2 sqrt(C/2 log(4/delta)) + 1) / (alpha C + (p-1) alpha (C/2 - sqrt(C/2 log(4/delta)))
          + (1 - alpha - alpha p)(n - 1 - C) r/(1 - 2r)).
   The corrected Theorem 4.2 is log(1 + F(Omega)), identically (Omega kept as the variable C): a
   transcription check (the toolkit's correction is Appendix F's F, and F is typed here again).
2. The printed Theorem 4.2 contains beta (Omega/2)/(alpha Omega) = (p-1)/2, independent of n; as
   n -> oo it tends to log((p-1)/(2 beta)) >= log((p+1)/2) > 0: the printed form never amplifies.
3. Monotonicity: with s = sqrt(C), F = beta (2us + 1)/(A s^2 - beta u s + K (n-1)), A = (p+1) alpha/2 - K,
   and dF/ds = -2 u beta (A s^2 + (A/u) s - K (n-1) - beta/2)/(...)^2, so F decreases past the positive
   root s* of that quadratic; the toolkit's s* (its condition Omega >= s*^2) is shown to be a root of
   it, and the larger one.
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
    """The toolkit's s* is a root of A s^2 + (A/u) s - (K(n-1) + beta/2), and the larger one.

    The proof works in (alpha, p, K, u): beta = (p-1) alpha, log(4/delta) = 2 u^2, and q = alpha p
    (1 - alpha - alpha p + 2K)/K (K = (1 - alpha - alpha p) r/(1 - 2r) solved for q, a bijection),
    so that A = (p+1) alpha/2 - K and K are the toolkit's own _A, _K (checked). Then s* is
    substituted into the quadratic, which simplifies to 0; and 2 A s* + A/u, which is + or - the
    square root of the discriminant for the two roots, simplifies to a square root over 2u > 0:
    s* is the root with the + sign, the larger one for A > 0.
    """
    s_star = vr._S_STAR if s_star is None else s_star
    al, k, u = sp.symbols("alpha K u", positive=True)

    def abstract(expr):
        expr = expr.subs(beta, (p - 1) * al).subs(q, al * p * (1 - al - al * p + 2 * k) / k)
        return expr.subs(sp.log(4 / delta), 2 * u**2)

    a = (p + 1) * al / 2 - k
    if not (is_zero(abstract(vr._A) - a) and is_zero(abstract(vr._K) - k)):
        return False
    root = abstract(s_star).replace(lambda x: isinstance(x, sp.Pow) and x.exp == sp.S.Half,
                                    lambda x: sp.sqrt(sp.factor(x.base)))
    root = sp.simplify(root)
    c = k * (n - 1) + (p - 1) * al / 2
    is_root = is_zero(sp.expand(a * root**2 + (a / u) * root - c))
    branch = sp.simplify(2 * u * (2 * a * root + a / u))
    larger = isinstance(branch, sp.Pow) and branch.exp == sp.S.Half
    return is_root and larger


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


ALPHA, R_SYM, A_SYM, K_SYM, U_SYM = sp.symbols("alpha r A K u")
#: F of Appendix F in the paper's letters (alpha, r kept), for display; F above has them substituted
F_SHOWN = (p - 1) * ALPHA * (2 * sp.sqrt(C * vr._L4 / 2) + 1) / (
    ALPHA * C + (p - 1) * ALPHA * (C / 2 - sp.sqrt(C * vr._L4 / 2))
    + (1 - ALPHA - ALPHA * p) * (n - 1 - C) * R_SYM / (1 - 2 * R_SYM))


def main() -> None:
    check = Checks()
    print("Wang et al. (2024): Theorems 4.2 and 4.3\n")
    for f in (vr.THEOREM_4_2, vr.THEOREM_4_2_PRINTED, vr.THEOREM_4_3, vr.TABLE_1["variation-ratio"]):
        show_formula(f)
    print("\n1. Appendix F: the likelihood ratio is at most $1 + F(C)$ at a clone count $C$, "
          "$\\alpha = \\beta/(p-1)$, $r = \\alpha p/q$")
    show_expr("F(C)", F_SHOWN)
    show_expr(r"\left. \epsilon_{\mathrm{Theorem~4.2}} \right|_{\Omega = C}", sp.log(1 + sp.Function("F")(C)))
    check("transcription-theorem-4.2-is-log-1-plus-F", check_nesting())
    print("\n2. The printed nesting")
    show_expr(r"\frac{\beta\,\Omega/2}{\alpha\Omega}", sp.simplify(beta * (C / 2) / (alpha * C)))
    check("printed-constant-term", check_printed_term())
    show_expr(r"\lim_{n\to\infty}\epsilon_{\mathrm{printed}}", printed_limit())
    check("printed-does-not-vanish", check_printed_limit())
    print("\n3. Where $F$ decreases: $s = \\sqrt{C}$, $u = \\sqrt{\\log(4/\\delta)/2}$, "
          "$K = (1 - \\alpha - \\alpha p) r/(1 - 2r)$, $A = (p + 1)\\alpha/2 - K$")
    a_, k_, u_, m_ = A_SYM, K_SYM, U_SYM, n - 1
    show_expr(r"\frac{dF}{ds}", -2 * u_ * beta * (a_ * s**2 + (a_ / u_) * s - k_ * m_ - beta / 2)
              / (a_ * s**2 - beta * u_ * s + k_ * m_) ** 2)
    show_expr(r"s^*", (-a_ / u_ + sp.sqrt((a_ / u_) ** 2 + 4 * a_ * (k_ * m_ + beta / 2))) / (2 * a_))
    check("dF-ds-sign", check_monotonicity())
    check("threshold-root", check_threshold())
    print("\n4. Orders in $n$")
    L4 = vr._L4
    show_expr(r"\lim_{n\to\infty}\sqrt{n}\left(e^{\epsilon_{\mathrm{Theorem~4.2}}} - 1\right)", 2 * RATE * sp.sqrt(L4))
    show_expr(r"\lim_{n\to\infty}\sqrt{n}\left(e^{\epsilon_{\mathrm{Theorem~4.3}}} - 1\right)",
              sp.sqrt(32 * L4) * RATE / ((1 - v) * (p + 1) * beta / (p - 1) + v))
    check("orders-4.2-4.3", check_orders())
    check("table-1-rate", check_table_1())
    check.finish()


if __name__ == "__main__":
    main()
