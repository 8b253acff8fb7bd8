"""The binomial central moments of Girgis et al.'s lower bound (CCS 2021, Theorem 3.4 and
Corollary 3.5), as the toolkit computes them
(dptheory.shuffle.rdp.lower.binomial_central_moments).

Theorem 3.4 bounds the worst-case RDP below by
(1/(lam-1)) log(1 + sum_{i=2}^{lam} binom(lam, i) c^i mu_i),  c = (e^{2 eps0} - 1)/(n e^{eps0}),
with mu_i = E[(k - n p)^i], k ~ Bin(n, p), p = 1/(e^{eps0} + 1).

1. mu_i as polynomials in (n, p): the Taylor coefficients of exp(n K(t)), with
   K(t) = log(1 - p + p e^t) - p t the centred cumulant generating function of one Bernoulli.
   mu_2 = n p (1-p), mu_3 = n p (1-p)(1-2p), mu_4 = n p (1-p)(1 + 3(n-2) p (1-p)) (textbook forms).
   Displayed as n s P(n, s) (times 1 - 2p for odd i), s = p(1 - p), each form proved equal.
2. The toolkit's cumulant recursion kappa_{j+1} = p (1 - p) d kappa_j / dp holds for the
   cumulants read off K(t) (j = 1 .. 7).
3. The toolkit's mpmath moments equal exact rational enumeration sum_k Bin(k; n, p) (k - n p)^i,
   and the polynomials of item 1, to 45 digits.
4. Corollary 3.5 (girgis-corollary-3.5) is the i = 2 term of Theorem 3.4: c^2 mu_2 = (e^eps0 - 1)^2/(n e^eps0).
5. The odd moments 3 and 5 carry the factor 1 - 2p and are >= 0 for p <= 1/2 (the claim of their
   Section 3.2, whose printed Jensen argument is invalid: docs/errata.md#girgis2021-theorem-3-4), so the i >= 3 terms do not lower the bound
   below Corollary 3.5 for lam <= 5; the toolkit's Theorem 3.4 value is checked to be above it.

Run: python derivations/binomial_central_moments.py   (prints LaTeX and one "check ...: ok" line per check)
"""

from fractions import Fraction

import mpmath
import sympy as sp

from _derivation import Checks, is_zero, show, show_expr, show_formula, to_latex
from dptheory.shuffle.rdp.formulas import COROLLARY_3_5
from dptheory.shuffle.rdp.lower import binomial_central_moments as library_moments
from dptheory.shuffle.rdp.lower import lower_bound_moments
from dptheory.symbols import eps0, n

p = sp.Symbol("p", positive=True)
t = sp.Symbol("t")
s_pq = sp.Symbol("s", positive=True)  # s = p (1 - p), the variance of one Bernoulli
ORDER = 8  # moments mu_0 .. mu_7


def cumulant_series():
    """n K(t) as a polynomial in t up to t^(ORDER-1)."""
    return sp.expand(n * sp.series(sp.log(1 - p + p * sp.exp(t)) - p * t, t, 0, ORDER).removeO())


def cumulants() -> list:
    series = cumulant_series()
    return [sp.factor(series.coeff(t, j) * sp.factorial(j)) for j in range(ORDER)]


def central_moments() -> list:
    """mu_0 .. mu_7 from the truncated exponential of n K(t) (n K starts at t^2)."""
    x = sp.Poly(cumulant_series(), t)
    total, term = sp.Poly(1, t), sp.Poly(1, t)
    for k in range(1, ORDER // 2 + 1):
        term = term * x
        term = sp.Poly(sum(term.coeff_monomial(t**d) * t**d for d in range(ORDER)), t)
        total = total + term * sp.Rational(1, sp.factorial(k))
    return [sp.factor(total.coeff_monomial(t**i) * sp.factorial(i)) for i in range(ORDER)]


TEXTBOOK = {2: n * p * (1 - p), 3: n * p * (1 - p) * (1 - 2 * p),
            4: n * p * (1 - p) * (1 + 3 * (n - 2) * p * (1 - p))}


def in_s(expr):
    """``expr`` (a central moment or cumulant of Bin(n, p)) as n s P(n, s), times 1 - 2p for an
    odd one, with s = p (1 - p): the form it is displayed in. Returns (form, equal), ``equal``
    being sympy's proof that the form is ``expr``."""
    odd = expr != 0 and sp.div(sp.expand(expr), sp.expand(1 - 2 * p), p)[1] == 0
    rest = sp.cancel(expr / (n * p * (1 - p) * ((1 - 2 * p) if odd else 1)))
    poly = sp.expand(sp.simplify(sp.expand(rest.subs(p, (1 - sp.sqrt(1 - 4 * s_pq)) / 2))))
    form = n * s_pq * ((1 - 2 * p) if odd else 1) * sp.collect(poly, s_pq)
    return form, is_zero(form.subs(s_pq, p * (1 - p)) - expr)


def check_textbook(moments=None) -> bool:
    moments = central_moments() if moments is None else moments
    return moments[0] == 1 and moments[1] == 0 and all(is_zero(moments[i] - form) for i, form in TEXTBOOK.items())


def check_recursion(kappas=None) -> bool:
    """kappa_{j+1} = p (1-p) d kappa_j/dp, j = 1 .. 6, for the cumulants of n Bernoullis (kappa_1 = n p)."""
    kappas = cumulants() if kappas is None else kappas
    first = [n * p] + list(kappas[2:])  # kappa_1 = n p (the centring removed it from K)
    return all(is_zero(first[j] - p * (1 - p) * sp.diff(first[j - 1], p)) for j in range(1, len(first)))


def exact_moments(nv: int, pv: Fraction, imax: int) -> list:
    """E[(k - n p)^i] by exact rational enumeration of Bin(nv, pv)."""
    from math import comb

    pmf = [comb(nv, k) * pv**k * (1 - pv) ** (nv - k) for k in range(nv + 1)]
    return [sum(w * (k - nv * pv) ** i for k, w in enumerate(pmf)) for i in range(imax + 1)]


def check_library(moments_fn=library_moments, points=((9, Fraction(3, 10)), (25, Fraction(1, 7)), (60, Fraction(1, 2)))) -> bool:
    """The toolkit's moments against exact enumeration and the symbolic polynomials (45 digits)."""
    polys = central_moments()
    ok = True
    with mpmath.workdps(60):
        for nv, pv in points:
            got = moments_fn(nv, mpmath.mpf(pv.numerator) / pv.denominator, ORDER - 1, 50)
            exact = exact_moments(nv, pv, ORDER - 1)
            for i in range(ORDER):
                want = mpmath.mpf(exact[i].numerator) / exact[i].denominator
                symbolic = polys[i].subs({n: nv, p: sp.Rational(pv.numerator, pv.denominator)})
                scale = max(abs(want), mpmath.mpf(1))
                ok &= abs(got[i] - want) <= mpmath.mpf(10) ** -45 * scale
                ok &= sp.Rational(exact[i].numerator, exact[i].denominator) == symbolic
    return bool(ok)


def second_term():
    """binom(lam, 2) c^2 mu_2 / binom(lam, 2) at p = 1/(e^eps0 + 1)."""
    E = sp.exp(eps0)
    c = (E**2 - 1) / (n * E)
    return sp.simplify(c**2 * central_moments()[2].subs(p, 1 / (E + 1)))


def check_corollary_3_5(corollary=None) -> bool:
    """The argument of Corollary 3.5's log minus 1 is binom(lam, 2) c^2 mu_2."""
    expr = COROLLARY_3_5.expr if corollary is None else corollary
    order = COROLLARY_3_5.params[2]
    logs = [a for a in sp.preorder_traversal(expr) if isinstance(a, sp.log)]
    if len(logs) != 1:
        return False
    return is_zero(logs[0].args[0] - 1 - sp.binomial(order, 2) * second_term())


def check_odd_moments(moments=None) -> bool:
    """mu_3 and mu_5 are (1 - 2p) times a polynomial that is positive for 0 < p <= 1/2, n >= 2."""
    moments = central_moments() if moments is None else moments
    s = sp.Symbol("s", positive=True)  # s = p (1 - p) in (0, 1/4]
    m = sp.Symbol("m", positive=True)  # n = 2 + m
    ok = True
    for i in (3, 5):
        quotient, remainder = sp.div(sp.expand(moments[i]), sp.expand(1 - 2 * p), p)
        if remainder != 0:
            return False
        reduced = sp.expand(sp.simplify(quotient / (p * (1 - p))))
        in_s = sp.expand(sp.simplify(reduced.subs(p, (1 - sp.sqrt(1 - 4 * s)) / 2)).subs(n, 2 + m))
        ok &= all(c > 0 for c in sp.Poly(in_s, s, m).coeffs())  # n >= 2: every coefficient positive
    return bool(ok)


def check_theorem_3_4_above_corollary(points=((0.5, 50, 3), (1.0, 200, 4), (2.0, 1000, 5))) -> bool:
    return all(lower_bound_moments(e, nv, k) >= COROLLARY_3_5(e, nv, k, digits=50) for e, nv, k in points)


def main() -> None:
    check = Checks()
    print("Binomial central moments of Girgis et al.'s lower bound (Theorem 3.4)\n")
    show_formula(COROLLARY_3_5)
    moments = central_moments()
    print("\n1. $\\mu_i = \\mathbb{E}[(k - np)^i]$, $k \\sim \\mathrm{Bin}(n, p)$, from $\\exp(n K(t))$, "
          "with $s = p(1 - p)$")
    forms_ok = True
    for i in range(2, ORDER):
        form, equal = in_s(moments[i])
        forms_ok &= equal
        show_expr(f"\\mu_{i}", form)
    check("textbook-moments", check_textbook(moments))
    print("\n2. The cumulants, and the toolkit's recursion $\\kappa_{j+1} = p(1-p)\\, d\\kappa_j/dp$")
    for j, kappa in enumerate(cumulants()[2:], start=2):
        form, equal = in_s(kappa)
        forms_ok &= equal
        show_expr(f"\\kappa_{j}", form)
    check("cumulant-recursion", check_recursion())
    check("forms-in-s", forms_ok)
    print("\n3. The toolkit's mpmath moments against exact rational enumeration")
    check("library-moments", check_library())
    print("\n4. Corollary 3.5 is the $i = 2$ term of Theorem 3.4, $c = (e^{2\\epsilon_0} - 1)/(n e^{\\epsilon_0})$, "
          "$p = 1/(e^{\\epsilon_0} + 1)$")
    show_expr("c^2 \\mu_2", sp.factor(sp.together(second_term())))
    check("corollary-3.5-is-second-term", check_corollary_3_5())
    print("\n5. The odd moments are non-negative for $p \\leq 1/2$")
    check("odd-moments-nonnegative", check_odd_moments(moments))
    check("theorem-3.4-above-corollary-3.5", check_theorem_3_4_above_corollary())
    check.finish()


if __name__ == "__main__":
    main()
