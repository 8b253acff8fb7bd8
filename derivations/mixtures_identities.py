"""The identities behind dptheory.mixtures (Wang, Su, Ye, Shokri, Su, NeurIPS 2023), each checked
on the toolkit's own expressions and code, so that a bug in the library makes this script exit 1.

1. ``lemma-6.2``: the solution of (9)-(10) for e^{eps_0}, e^{eps_1} (sympy), and the library's
   ``advanced.lemma62_scalings`` against it, with (9)-(10) holding at its values.
2. ``lemma-6.3``: the rescaled coefficients c_ij s_i and c_ij sum to 1 (F goes from (0, 1) to
   (1, 0)); the library's ``advanced.lemma63_function`` against the same construction written
   here (each segment (da, db) of f_ij becomes (c_ij s_i da, c_ij db), merged by slope).
3. ``example-f3``: the "linear" piece of the Lemma 3.1 bound is continuous with the outer pieces
   (both differences simplified to 0 by sympy, with Phi^{-1}(Phi(x)) = x), and the library's
   ``advanced.example_f3_lemma31`` is that piecewise function (at five points).
4. ``thm-5.1``: the printed weight e^{-I^2/2} integrates to sqrt(2 pi) (the normalisation
   erratum), the two printed sign cases equal the |mu| form, and the library's printed alpha
   tends to sqrt(2 pi) while its normalised (mpmath) alpha tends to 1.
5. ``prop-b.7``: F(1/|f'|) |f'| = sqrt(1 + f'^2) for F(y) = sqrt(1 + y^2); the library's length
   generator has F(0) = lim F = 1, its printed F(0) = lim F(s)/s is infinite, and the library's
   ``fdivergence.length`` is the length of the graph computed here.

Run: python derivations/mixtures_identities.py   (prints LaTeX and one "check ...: ok" line per check)
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from _derivation import Checks, erfcinv_of_erfc, is_zero, show_expr
from dptheory.symbols import Phi, Phi_inv
from dptheory import tradeoff
from dptheory.mixtures import advanced, dpgd, fdivergence

w, g, eta, E = sp.symbols("w gamma eta E", positive=True)   # E = e^{eps'} of (9)-(10)
EPS_PRIME = sp.Symbol("epsilonprime", real=True)  # printed as epsilon with a prime
a, b = sp.symbols("a b", positive=True)
POINTS = [(0.3, 0.1, 0.7), (0.5, 0.8, 0.2), (0.2, 0.05, 0.9)]  # (w, gamma, eta) with gamma < w < eta or eta < w < gamma


def lemma62_solution():
    sol = sp.solve([(1 - w) * a + w * b - E, (1 - w) * g * a + w * eta * b - w * E], [a, b], dict=True)[0]
    return sol[a], sol[b]


def check_lemma62(scalings=None) -> bool:
    scalings = advanced.lemma62_scalings if scalings is None else scalings
    s0, s1 = lemma62_solution()
    symbolic = is_zero(s0 - E * (eta - w) / ((1 - w) * (eta - g))) and is_zero(s1 - E * (w - g) / (w * (eta - g)))
    for wv, gv, ev in POINTS:
        k0, k1 = scalings(wv, gv, ev)
        want0 = float(s0.subs({E: 1, w: wv, g: gv, eta: ev}))
        want1 = float(s1.subs({E: 1, w: wv, g: gv, eta: ev}))
        eq9 = (1 - wv) * k0 + wv * k1 - 1
        eq10 = (1 - wv) * gv * k0 + wv * ev * k1 - wv
        if abs(k0 - want0) > 1e-14 or abs(k1 - want1) > 1e-14 or abs(eq9) > 1e-14 or abs(eq10) > 1e-14:
            return False
    return symbolic


def _coefficients():
    s0, s1 = (x.subs(E, 1) for x in lemma62_solution())
    c = {(0, 0): (1 - w) * (1 - g), (1, 0): w * (1 - eta), (0, 1): (1 - w) * g, (1, 1): w * eta}
    return c, {0: s0, 1: s1}


def check_lemma63(fn=None) -> bool:
    fn = advanced.lemma63_function if fn is None else fn
    c, s = _coefficients()
    widths = sp.simplify(sum(ci * s[i] for (i, _), ci in c.items()))
    heights = sp.simplify(sum(c.values()))
    if not (widths == 1 and heights == 1):
        return False
    comps = [[tradeoff.dp(0.5, 0.0), tradeoff.dp(1.0, 0.0)], [tradeoff.dp(2.0, 0.0), tradeoff.dp(0.2, 0.0)]]
    for wv, gv, ev in POINTS:
        values = {w: wv, g: gv, eta: ev}
        ps, qs = [], []
        for (i, j), ci in c.items():
            cv, sv = float(ci.subs(values)), float(s[i].subs(values))
            if cv > 0:
                ps.append(cv * sv * np.asarray(comps[i][j].p_mass, dtype=float))
                qs.append(cv * np.asarray(comps[i][j].q_mass, dtype=float))
        want = tradeoff.PiecewiseLinear(np.concatenate(ps), np.concatenate(qs))
        got = fn(wv, comps, gv, ev)
        xs = np.linspace(0, 1, 401)
        if np.max(np.abs(got(xs) - want(xs))) > 1e-12:
            return False
    return True


MU, X = sp.symbols("mu alpha", positive=True)


def _g(al):
    """G_mu(al) = Phi(Phi^{-1}(1 - al) - mu), written Phi(-Phi^{-1}(al) - mu)."""
    return Phi(-Phi_inv(al) - MU)


F3_LEFT = (1 - w) * Phi(-MU / 2)
F3_RIGHT = 1 - (1 - w) * Phi(MU / 2)
F3_LINEAR = w + 2 * (1 - w) * Phi(-MU / 2) - X
F3_OUTER_LEFT = w + (1 - w) * _g(X / (1 - w))
F3_OUTER_RIGHT = (1 - w) * _g((X - w) / (1 - w))


def _mp_piece(expr):
    """The piece as an mpmath function of alpha (sympy has no numerical erfcinv)."""
    return sp.lambdify(X, expr, modules=[{"erfcinv": lambda u: mpmath.erfinv(1 - u)}, "mpmath"])


def check_example_f3(fn=None) -> bool:
    fn = advanced.example_f3_lemma31 if fn is None else fn
    vals = {w: sp.Rational(1, 3), MU: 1}
    for outer, end in ((F3_OUTER_LEFT, F3_LEFT), (F3_OUTER_RIGHT, F3_RIGHT)):
        if not is_zero(erfcinv_of_erfc(sp.simplify((F3_LINEAR - outer).subs(X, end)))):
            return False
    left, right = float(F3_LEFT.subs(vals)), float(F3_RIGHT.subs(vals))
    for x in (0.5 * left, left, 0.5 * (left + right), right, 0.5 * (right + 1)):
        piece = F3_OUTER_LEFT if x < left else F3_OUTER_RIGHT if x > right else F3_LINEAR
        with mpmath.workdps(30):
            want = float(_mp_piece(piece.subs(vals))(x))
        got = float(fn(1.0, 1 / 3, x))
        if not (want - 1e-12 <= got <= want):  # the library rounds down (a lower bound)
            return False
    return True


def check_thm51(printed=None, normalised=None) -> bool:
    printed = dpgd.dpgd_alpha_printed if printed is None else printed
    normalised = dpgd.dpgd_alpha_mpmath if normalised is None else normalised
    i = sp.Symbol("I", real=True)
    mass = sp.integrate(sp.exp(-i**2 / 2), (i, -sp.oo, sp.oo))
    t, m = sp.Symbol("t", real=True), sp.Symbol("m", positive=True)
    sign_cases = is_zero(-(-t / m + m / 2) - (t / m - m / 2)) and is_zero((-t / (-m) + (-m) / 2) - (t / m - m / 2))
    gap = dpgd.least_squares(0.7)
    big = 60.0
    library = (abs(printed(gap, big) - math.sqrt(2 * math.pi)) < 1e-6
               and abs(float(normalised(gap, big, digits=20)) - 1) < 1e-12)
    return is_zero(mass - sp.sqrt(2 * sp.pi)) and sign_cases and library


def check_prop_b7(generator=None, length_fn=None) -> bool:
    generator = fdivergence.LENGTH if generator is None else generator
    length_fn = fdivergence.length if length_fn is None else length_fn
    s = list(generator.expr.free_symbols)[0]
    k = sp.Symbol("k", positive=True)  # |f'|
    integrand = is_zero(generator.expr.subs(s, 1 / k) * k - sp.sqrt(1 + k**2))
    at_zero = generator.at_zero == 1.0 and math.isinf(fdivergence.f_at_zero_printed(generator))
    f = tradeoff.from_knots([0.0, 0.2, 0.5, 1.0], [0.9, 0.4, 0.1, 0.0])
    graph = 0.1 + math.hypot(0.2, 0.5) + math.hypot(0.3, 0.3) + math.hypot(0.5, 0.1)  # vertical drop, 3 segments
    return integrand and at_zero and abs(length_fn(f) - graph) < 1e-14


def main() -> None:
    check = Checks()
    print("Wang et al. (2023): identities behind dptheory.mixtures, on the toolkit's own code\n")
    s0, s1 = lemma62_solution()
    print("1. Lemma 6.2: equations (9)-(10) solved for $e^{\\epsilon_0}$ and $e^{\\epsilon_1}$")
    show_expr("   e^{\\epsilon_0}", (E * (eta - w) / ((1 - w) * (eta - g))).subs(E, sp.exp(EPS_PRIME)))
    show_expr("   e^{\\epsilon_1}", (E * (w - g) / (w * (eta - g))).subs(E, sp.exp(EPS_PRIME)))
    check("lemma-6.2", check_lemma62())
    print("\n2. Lemma 6.3: rescaled coefficients")
    c, sc = _coefficients()
    show_expr("   \\sum_{i,j} c_{ij} s_i", sp.simplify(sum(ci * sc[i] for (i, _), ci in c.items())))
    show_expr("   \\sum_{i,j} c_{ij}", sp.simplify(sum(c.values())))
    check("lemma-6.3", check_lemma63())
    print("\n3. Example F.3: the linear piece of the Lemma 3.1 bound, and its ends")
    show_expr("   f_{\\mathrm{lin}}(\\alpha)", F3_LINEAR)
    show_expr("   \\alpha_{\\mathrm{left}}", F3_LEFT)
    show_expr("   \\alpha_{\\mathrm{right}}", F3_RIGHT)
    check("example-f3", check_example_f3())
    print("\n4. Theorem 5.1: the printed weight and the sign cases")
    i = sp.Symbol("I", real=True)
    show_expr("   \\int_{-\\infty}^{\\infty} e^{-I^2/2}\\,dI", sp.integrate(sp.exp(-i**2 / 2), (i, -sp.oo, sp.oo)))
    check("thm-5.1", check_thm51())
    print("\n5. Proposition B.7: the length generator")
    y = sp.Symbol("y", positive=True)
    show_expr("F(y)", fdivergence.LENGTH.expr.subs(list(fdivergence.LENGTH.expr.free_symbols)[0], y))
    check("prop-b.7", check_prop_b7())
    check.finish()


if __name__ == "__main__":
    main()
