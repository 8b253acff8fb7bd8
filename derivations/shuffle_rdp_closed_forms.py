"""Girgis et al. (2021) and Chen, Cao, Ge (2024): the closed forms of the shuffle model's RDP, their
errata, and their leading orders in n.

1. Theorem 3.3 as printed vs corrected: at eps0 = 1 the printed first term (eps0 - 1)^2 / n
   vanishes, so the printed bound is e^{lam - (n-1)/8}/(lam - 1) small: far below the exact RDP.
2. Leading order as n -> oo of upper bound 1, Corollary 3.5 (lower), Chen's Corollary 2 and its
   refinement: all are lam * c(eps0) / n; the constants and their ratios.
3. Chen's Corollary 2 is the RDP of mu-GDP, lam mu^2 / 2, at Theorem 2's mu (checked with the
   foundation's GDP -> RDP formula), and it exceeds the refined form by coth^2(eps0/2).

Run: python derivations/shuffle_rdp_closed_forms.py  (prints the derivation and LaTeX)
"""

import mpmath
import sympy as sp

from dptheory import rdp as rdp_module
from dptheory.shuffle import rdp
from dptheory.symbols import eps0, lam, mu, n


def leading(expr: sp.Expr) -> sp.Expr:
    """lim n -> oo of n * expr, for an expression that is O(1/n)."""
    return sp.simplify(sp.limit(n * expr, n, sp.oo))


def main() -> None:
    # 1. Erratum of Theorem 3.3
    printed = rdp.UPPER_2_PRINTED.expr
    at_one = sp.simplify(printed.subs(eps0, 1))
    print("1. Theorem 3.3 as printed, at eps0 = 1:", sp.latex(at_one))
    corrected_value = rdp.UPPER_2(1, 10**4, 2, digits=50)
    printed_value = rdp.UPPER_2_PRINTED(1, 10**4, 2, digits=600)
    lower_value = rdp.COROLLARY_3_5(1, 10**4, 2, digits=50)
    print(f"   at n = 1e4, lambda = 2 (mpmath): printed {mpmath.nstr(printed_value, 4)},"
          f" corrected {mpmath.nstr(corrected_value, 4)}, Corollary 3.5 lower bound {mpmath.nstr(lower_value, 4)}")
    print("   printed below the lower bound:", bool(printed_value < lower_value))

    # 2. Leading orders in n (n_bar replaced by its limit (n-1)/(2 e^eps0) for the limit)
    e = sp.exp(eps0)
    nbar_limit = (n - 1) / (2 * e)
    L = sp.Symbol("lambda", positive=True)
    ub1_first = sp.binomial(L, 2) * (e - 1) ** 2 / (nbar_limit * e) / (L - 1)
    lb = sp.binomial(L, 2) * (e - 1) ** 2 / (n * e) / (L - 1)
    chen = rdp.CHEN_RDP.expr.subs(lam, L)
    refined = L * rdp.CHEN_GDP_REFINED.expr ** 2 / 2
    c_ub1, c_lb, c_chen, c_ref = (leading(sp.expand_func(x)) for x in (ub1_first, lb, chen, refined))
    print("\n2. n * eps(lambda) as n -> oo (log(1 + x) ~ x; the i >= 3 and Chernoff terms of Theorem 3.1 are o(1/n)):")
    print("   upper bound 1 (Theorem 3.1):", sp.latex(c_ub1))
    print("   lower bound (Corollary 3.5): ", sp.latex(c_lb))
    print("   Chen et al. Corollary 2:     ", sp.latex(c_chen))
    print("   refined Gaussian limit:      ", sp.latex(sp.simplify(c_ref)))
    in_exp = lambda x: sp.factor(sp.simplify(x.rewrite(sp.exp)))
    print("   upper 1 / lower =", in_exp(c_ub1 / c_lb), " (the gap between Girgis et al.'s bounds)")
    ratio = sp.simplify((c_chen / c_ref).rewrite(sp.exp) - (sp.coth(eps0 / 2) ** 2).rewrite(sp.exp))
    print("   Corollary 2 / refined - coth(eps0/2)^2 =", ratio)
    print("   refined / lower =", in_exp(c_ref / c_lb), " (between 1 and 4)")

    # 3. Corollary 2 is the RDP of mu-GDP at Theorem 2's mu
    gdp_rdp = rdp_module.GDP_RDP.expr
    at_mu = sp.simplify(gdp_rdp.subs(mu, rdp.CHEN_GDP.expr) - rdp.CHEN_RDP.expr)
    print("\n3. lam mu^2 / 2 at mu = 2 e^{eps0/2}/sqrt(n-1), minus Corollary 2:", at_mu)

    print("\nLaTeX:")
    for f in (rdp.UPPER_1, rdp.UPPER_2, rdp.UPPER_2_PRINTED, rdp.COROLLARY_3_2, rdp.COROLLARY_3_5,
              rdp.ERLINGSSON_RDP, rdp.CHEN_GDP, rdp.CHEN_RDP, rdp.CHEN_GDP_REFINED):
        print(f"  {f.name}: {f.latex()}    [{f.conditions_latex()}]")


if __name__ == "__main__":
    main()
