"""Wang, Su, Ye, Shokri, Su (NeurIPS 2023), Proposition 4.1, Theorem 4.2 and Corollary 4.3: the toolkit's own
formulas and code of dptheory.shuffle.fdp, checked symbolically and against exact rational
computations (so a bug in the library makes this script exit 1).

The registered formulas are ``shuffle-fdp-threshold`` (t_y of Corollary 4.3),
``shuffle-fdp-prop-4.1-beta`` (the corrected knot, proven) and
``shuffle-fdp-prop-4.1-beta-printed`` (the printed knot, refuted). At eps0 = log 3 the paper's
clone probability is 2/(e^eps0 + 1) = 1/2 and w = 1/4, so the pair (P0, Q0) has rational masses and
every check below is exact.

1. ``weights``: 1 - 2w = tanh(eps0/2) for w = 1/(e^eps0 + 1), and the library's float
   (w, 1 - 2w) against it.
2. ``threshold``: the slope of f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0) on the P0-segment of
   threshold t is -2w - (1 - 2w)/t; the library's t_y solves -2w - (1-2w)/t = -e^eps.
3. ``conjugate``: with t_y, 1 + f_Shuffle*(-e^eps) = (1 - 2w)(1 + T0*(-e^eps~)), e^eps~ = 1/t_y.
4. ``prop-4.1-knots``: the library's corrected formula, evaluated exactly (eps0 = log 3, n = 8,
   every jump threshold), is the Neyman-Pearson knot of (P0, Q0) computed here from the atoms;
   the library's float code (``proposition_4_1``) agrees to 1e-13.
5. ``prop-4.1-printed-off``: the printed formula differs from it (the dropped "1 -").
6. ``cor-4.3-value``: the library's delta (``shuffle_delta``, eps0 = log 3, n = 12, eps = log 2,
   where e^eps~ = 3) encloses the exact (1 - 2w) H_3(P0 || Q0), the hockey-stick sum over the
   atoms in rationals.
7. ``printed-cor-4.3-too-small``: the library's printed rule (chord slope l(t)) gives a delta
   below the exact one at n = 12 (so it is not a valid bound), and its chord is steeper than the
   curve at every threshold: -l(t) >= 1/t.

Run: python derivations/shuffle_tradeoff.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import math
from fractions import Fraction

import sympy as sp

from _derivation import Checks, is_zero, show_expr, show_formula
from dptheory.shuffle import fdp
from dptheory.symbols import eps, eps0, n, t

W = 1 / (sp.exp(eps0) + 1)
E0 = sp.log(3)          # eps0 with e^eps0 = 3: w = 1/4, clone probability 1/2
N_KNOTS, N_DELTA = 8, 12


def atoms(nn: int):
    """(P0, Q0) at eps0 = log 3 in exact rationals: {(a, b): (p0, q0)}, a + b = i + 1."""
    q = Fraction(1, 2)
    out = {}
    for i in range(nn):
        wi = math.comb(nn - 1, i) * q**i * (1 - q) ** (nn - 1 - i)
        for a in range(i + 2):
            p0 = wi * Fraction(math.comb(i, a - 1), 2**i) if a >= 1 else Fraction(0)
            q0 = wi * Fraction(math.comb(i, a), 2**i) if a <= i else Fraction(0)
            out[(a, i + 1 - a)] = (p0, q0)
    return out


def np_knot(nn: int, thr: Fraction):
    """Neyman-Pearson knot of T(P0, Q0): reject P0 on {a/b <= t}."""
    at = atoms(nn)
    alpha = sum(p for (a, b), (p, _) in at.items() if b > 0 and Fraction(a, b) <= thr)
    beta = sum(q for (a, b), (_, q) in at.items() if b == 0 or Fraction(a, b) > thr)
    return alpha, beta


def thresholds(nn: int):
    return sorted({Fraction(a, b) for b in range(1, nn + 1) for a in range(1, nn + 1 - b)} | {Fraction(0)})


def check_weights(weights_fn=None) -> bool:
    weights_fn = fdp.weights if weights_fn is None else weights_fn
    symbolic = is_zero((1 - 2 * W) - sp.tanh(eps0 / 2), rewrite_exp=True)
    numeric = all(abs(weights_fn(e)[0] - 1 / (math.exp(e) + 1)) < 1e-15 and abs(weights_fn(e)[1] - math.tanh(e / 2)) < 1e-15
                  for e in (0.1, 1.0, 5.0))
    return symbolic and numeric


def check_threshold(expr=None) -> bool:
    expr = fdp.THRESHOLD.expr if expr is None else expr
    slope = -(2 * W + (1 - 2 * W) / t)
    return is_zero(slope.subs(t, expr) + sp.exp(eps))


def check_conjugate(expr=None) -> bool:
    """1 + f*(-e^eps) at the knot (alpha0, beta0) of threshold t_y equals (1 - 2w) times the
    conjugate of T0 at slope -e^eps~ with e^eps~ = 1/t_y, for any knot (alpha0, beta0)."""
    expr = fdp.THRESHOLD.expr if expr is None else expr
    a0, b0 = sp.symbols("alpha_0 beta_0", nonnegative=True)
    lhs = 1 - sp.exp(eps) * a0 - (2 * W * (1 - a0) + (1 - 2 * W) * b0)
    rhs = (1 - 2 * W) * (1 - a0 / expr - b0)
    return is_zero(lhs - rhs)


def _formula_value(expr, thr: Fraction):
    """The formula at eps0 = log 3 (w = 1/4), n = N_KNOTS and the rational threshold, exactly."""
    return sp.simplify(expr.subs({eps0: E0, n: N_KNOTS, t: sp.Rational(thr.numerator, thr.denominator)}).doit())


def check_prop_4_1(expr=None, knot_fn=None) -> bool:
    expr = fdp.PROP_4_1_BETA.expr if expr is None else expr
    knot_fn = fdp.proposition_4_1 if knot_fn is None else knot_fn
    for thr in thresholds(N_KNOTS):
        alpha, beta = np_knot(N_KNOTS, thr)
        if not is_zero(_formula_value(expr, thr) - sp.Rational(beta.numerator, beta.denominator)):
            return False
        a, b = knot_fn(math.log(3), N_KNOTS, (thr.numerator, thr.denominator))
        if abs(a - float(alpha)) > 1e-13 or abs(b - float(beta)) > 1e-13:
            return False
    return True


def check_printed_off(expr=None) -> bool:
    expr = fdp.PROP_4_1_BETA_PRINTED.expr if expr is None else expr
    worst = max(abs(_formula_value(expr, thr) - sp.Rational(np_knot(N_KNOTS, thr)[1].numerator,
                                                           np_knot(N_KNOTS, thr)[1].denominator))
                for thr in thresholds(N_KNOTS))
    return worst > sp.Rational(3, 10)


def exact_cor43(nn: int, gamma: Fraction) -> Fraction:
    """(1 - 2w) H_gamma(P0 || Q0) with 1 - 2w = 1/2, summed over the atoms."""
    return Fraction(1, 2) * sum(max(Fraction(0), p - gamma * q) for p, q in atoms(nn).values())


def check_cor43_value(delta_fn=None) -> bool:
    delta_fn = fdp.shuffle_delta if delta_fn is None else delta_fn
    exact = exact_cor43(N_DELTA, Fraction(3))  # e^eps~ = (2 - 1/2)/(1/2) = 3 at eps = log 2
    res = delta_fn(math.log(3), N_DELTA, math.log(2))
    return res.lower <= float(exact) * (1 + 1e-15) and float(exact) * (1 - 1e-15) <= res.upper \
        and res.upper <= float(exact) * (1 + 1e-2)


def check_printed_cor43(printed_fn=None) -> bool:
    printed_fn = fdp.corollary_4_3_printed_delta if printed_fn is None else printed_fn
    exact = exact_cor43(N_DELTA, Fraction(3))
    too_small = printed_fn(math.log(3), N_DELTA, math.log(2)).upper < float(exact)
    # the chord of the printed rule against the slope -1/t, exact rationals (q = 1/2)
    steeper, strict = True, False
    q = Fraction(1, 2)
    weights = [math.comb(N_DELTA - 1, i) * q**i * (1 - q) ** (N_DELTA - 1 - i) for i in range(N_DELTA)]
    for thr in thresholds(N_DELTA)[1:]:
        num = den = Fraction(0)
        for i in range(N_DELTA):
            s_i = (thr.numerator * i - thr.denominator) // (thr.numerator + thr.denominator)
            pm = lambda k: Fraction(0) if k < 0 or k > i else Fraction(math.comb(i, k), 2**i)  # noqa: E731
            num += weights[i] * pm(s_i + 1)
            den += weights[i] * pm(s_i)
        if den:
            steeper &= num / den >= 1 / thr
            strict |= num / den > 1 / thr
    return too_small and steeper and strict


def main() -> None:
    check = Checks()
    print("Wang et al. (2023): the f-DP of shuffling, the toolkit's formulas and code\n")
    for formula in (fdp.THRESHOLD, fdp.PROP_4_1_BETA, fdp.PROP_4_1_BETA_PRINTED):
        show_formula(formula)
    print("\n1. The mixing weight, $w = 1/(e^{\\epsilon_0} + 1)$")
    show_expr("1 - 2w", sp.tanh(eps0 / 2))
    check("weights", check_weights())
    print("\n2-3. Corollary 4.3: the threshold and the conjugate of $f_{\\mathrm{Shuffle}}$; its slope on the "
          "$P_0$-segment of threshold $t$")
    show_expr(r"f_{\mathrm{Shuffle}}'(\alpha)", -(2 * W + (1 - 2 * W) / t))
    show_expr("t_y", sp.simplify(fdp.THRESHOLD.expr))
    check("threshold", check_threshold())
    check("conjugate", check_conjugate())
    print(f"\n4-5. Proposition 4.1 at $\\epsilon_0 = \\log 3$, $n = {N_KNOTS}$: exact rational knots")
    check("prop-4.1-knots", check_prop_4_1())
    check("prop-4.1-printed-off", check_printed_off())
    print(f"\n6-7. Corollary 4.3 at $\\epsilon_0 = \\log 3$, $n = {N_DELTA}$, $\\epsilon = \\log 2$ "
          "($e^{\\tilde\\epsilon} = 3$)")
    show_expr("   (1-2w) H_3(P_0 \\| Q_0)", sp.Rational(exact_cor43(N_DELTA, Fraction(3)).numerator,
                                                     exact_cor43(N_DELTA, Fraction(3)).denominator))
    check("cor-4.3-value", check_cor43_value())
    check("printed-cor-4.3-too-small", check_printed_cor43())
    check.finish()


if __name__ == "__main__":
    main()
