"""Randomized response: its Bayes error (eq. (2)) and the Delta-divergence (Corollary 1) of Kaissis
et al. (2024), derived here for binary and k-ary randomized response with one k, and against any
symmetric mechanism:

    R_{k,eps}(pi) = pi                          for pi <= 1/(1 + e^eps),
                    ((k - 2) pi + 1)/(e^eps + k - 1)   for 1/(1 + e^eps) <= pi <= 1/2,
    (symmetric about 1/2; k = 2: min{pi, 1 - pi, 1/(1 + e^eps)}, the toolkit's rr-bayes-error),
    Delta(RR_{k,eps1} || RR_{k,eps2}) = max{0, (k/2)(1/(e^eps1 + k - 1) - 1/(e^eps2 + k - 1))},
    Delta(M || RR_{2,eps}) = max{0, R*_M - 1/(1 + e^eps)}   for a symmetric M (R*_M = R_M(1/2)).

Each step is checked with sympy against the toolkit's Formulas (rr-bayes-error,
delta-divergence-rr, delta-divergence-rr-k): a wrong library formula makes a check fail.

1. R(pi) = sum_i min(pi P_i, (1 - pi) Q_i) (eq. (2) for a pair of pmfs) over the outputs
   x (P = e^eps/z, Q = 1/z), x' (1/z, e^eps/z) and the k - 2 others (1/z, 1/z), z = e^eps + k - 1:
   for pi <= 1/2 every minimum is pi P_i except at x, where it switches to (1 - pi)/z at
   pi = 1/(1 + e^eps) (each minimum's side proved on each interval).
2. For eps1 <= eps2 (one k): where R_1 = pi and R_2 is on its middle branch, pi - R_2 increases
   (slope 1 - (k - 2)/z_2 > 0); where both are on the middle branch the difference
   ((k - 2) pi + 1)(1/z_1 - 1/z_2) increases up to pi = 1/2. So Delta = (R_1 - R_2)(1/2).
3. R_RR = min(pi, 1 - pi, c) for k = 2 and every R_M <= min(pi, 1 - pi) (Lemma 2), so
   R_M - R_RR > 0 only where R_RR = c, and its maximum there is R*_M - c.
4. The closed forms agree with the certified numerical Delta (Corollary 1).

Run: python derivations/delta_divergence_rr.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, inside_certified, is_zero, show_expr, show_formula
from dptheory import tradeoff
from dptheory.comparison import closed_forms as cf
from dptheory.comparison.divergence import delta_divergence
from dptheory.mechanisms import RandomizedResponse

eps = sp.Symbol("epsilon", positive=True)
e1, e2 = sp.Symbol("epsilon_1", positive=True), sp.Symbol("epsilon_2", positive=True)
k = sp.Symbol("k", integer=True, positive=True)
pi = sp.Symbol("pi", positive=True)


def bayes_error_pieces(kk=k, e=eps):
    """R on (0, 1/(1 + e^eps)] and on [1/(1 + e^eps), 1/2], from the pmfs, each minimum resolved
    on its side of the switch (proved by :func:`check_pieces_from_pmfs`)."""
    z = sp.exp(e) + kk - 1
    low = (pi * sp.exp(e) + (kk - 2) * pi + pi) / z        # every minimum is pi P_i
    mid = ((1 - pi) + (kk - 2) * pi + pi) / z             # at x: (1 - pi) Q_x = (1 - pi)/z
    return sp.simplify(low), sp.simplify(mid)


def check_pieces_from_pmfs(pieces=None) -> bool:
    """Each piece is sum_i min(pi P_i, (1 - pi) Q_i) over its interval, proved: with e^eps = 1 + x
    (x >= 0) and pi written through a parameter v >= 0 that runs over the interval
    (pi = 1/((1 + v)(1 + e^eps)) on the low piece, pi = (1 - t)/(1 + e^eps) + t/2 with
    t = v/(1 + v) on the middle one), sympy decides the sign of (1 - pi) Q_i - pi P_i for every
    output (a factored rational function of x, v and k), resolves each minimum by it, and the sum
    of the minima simplifies to the piece."""
    low, mid = bayes_error_pieces() if pieces is None else pieces
    x, v = sp.symbols("x v", nonnegative=True)
    E = 1 + x
    z = E + k - 1
    outputs = ((E, 1, 1), (1, E, 1), (1, 1, k - 2))   # (z P_i, z Q_i, how many such outputs)
    t = v / (1 + v)
    for piece, at in ((low, 1 / ((1 + v) * (1 + E))), (mid, (1 - t) / (1 + E) + t / 2)):
        total = 0
        for zp, zq, count in outputs:
            sign = sp.factor(sp.together((1 - at) * zq - at * zp))
            if sign.is_nonnegative:
                total += count * at * zp / z
            elif sign.is_nonpositive:
                total += count * (1 - at) * zq / z
            else:
                return False
        if not is_zero(total - piece.subs({eps: sp.log(E), pi: at})):
            return False
    return is_zero(low - pi)


def check_rr_bayes_formula(formula=None) -> bool:
    """k = 2: the middle piece is 1/(1 + e^eps), the toolkit's rr-bayes-error is min{pi, 1 - pi, it}."""
    expr = cf.RR_BAYES_ERROR.expr if formula is None else formula
    e_sym, prior = cf.RR_BAYES_ERROR.params
    _, mid = bayes_error_pieces(2)
    expr = expr.subs({e_sym: eps, prior: pi})
    if not isinstance(expr, sp.Min) or len(expr.args) != 3:
        return False
    return all(any(is_zero(arg - w) for arg in expr.args) for w in (pi, 1 - pi, mid))


def check_monotone_pieces() -> bool:
    """pi - R_2 increases on the middle branch of R_2 (slope 1 - (k-2)/z_2 > 0), and
    ((k - 2) pi + 1)(1/z_1 - 1/z_2) increases in pi for eps1 <= eps2."""
    _, mid2 = bayes_error_pieces(k, e2)
    slope = sp.simplify(sp.diff(pi - mid2, pi))
    ok = is_zero(slope - (1 - (k - 2) / (sp.exp(e2) + k - 1)))
    ok = ok and bool(sp.simplify(sp.exp(e2) + k - 1 - (k - 2)).is_positive)
    _, mid1 = bayes_error_pieces(k, e1)
    diff_slope = sp.simplify(sp.diff(mid1 - mid2, pi))
    return ok and is_zero(diff_slope - (k - 2) * (1 / (sp.exp(e1) + k - 1) - 1 / (sp.exp(e2) + k - 1)))


def delta_at_half():
    _, m1 = bayes_error_pieces(k, e1)
    _, m2 = bayes_error_pieces(k, e2)
    return sp.simplify((m1 - m2).subs(pi, sp.Rational(1, 2)))


def _inner(expr):
    inner = [arg for arg in expr.args if arg != 0] if isinstance(expr, sp.Max) else [expr]
    return inner[0] if len(inner) == 1 else None


def check_rr_k_formula(formula=None) -> bool:
    """(R_1 - R_2)(1/2) equals the toolkit's delta-divergence-rr-k."""
    expr = cf.DELTA_RR_K.expr if formula is None else formula
    p1, p2, pk = cf.DELTA_RR_K.params
    inner = _inner(expr)
    return inner is not None and is_zero(inner.subs({p1: e1, p2: e2, pk: k}) - delta_at_half())


def check_rr_binary_formula(formula=None) -> bool:
    """k = 2: the toolkit's delta-divergence-rr."""
    expr = cf.DELTA_RR.expr if formula is None else formula
    p1, p2 = cf.DELTA_RR.params
    inner = _inner(expr)
    return inner is not None and is_zero(inner.subs({p1: e1, p2: e2}) - delta_at_half().subs(k, 2))


def check_against_rr_numeric() -> bool:
    """Delta(M || RR_eps) = max{0, R*_M - 1/(1 + e^eps)} for Gaussian and Laplace M, against the
    certified numerical Delta on the curves (method "numeric")."""
    ok = True
    for m, e in ((1.0, 1.0), (0.7, 0.5), (2.0, 0.3), (0.3, 2.0)):
        for curve, name in ((tradeoff.gaussian(m), "G"), (tradeoff.laplace(m), "\\mathrm{Lap}")):
            closed = max(0.0, float(curve.bayes_error(0.5)) - 1 / (1 + float(sp.exp(e))))
            num = delta_divergence(curve, RandomizedResponse(e).tradeoff(), method="numeric")
            ok = inside_certified(f"${name}_{{{m}}}$ against $\\mathrm{{RR}}_{{{e}}}$", closed, num, 1e-13) and ok
    return ok


def check_numeric() -> bool:
    ok = True
    for x, y, kv in ((1.0, 2.0, 2), (0.5, 0.51, 2), (1.0, 2.0, 3), (0.3, 1.5, 5), (2.0, 1.0, 4)):
        num = delta_divergence(RandomizedResponse(x, kv).tradeoff(), RandomizedResponse(y, kv).tradeoff(),
                               method="numeric")
        closed = float(cf.DELTA_RR_K(x, y, kv))
        ok = inside_certified(f"$k = {kv}$, $\\epsilon_1 = {x}$, $\\epsilon_2 = {y}$", closed, num) and ok
    return ok


def main() -> None:
    check = Checks()
    print("Randomized response: Bayes error and Delta-divergence (derived here; Kaissis et al. 2024, eq. (2), "
          "Corollary 1, Lemmas 2 and 4)\n")
    for f in (cf.RR_BAYES_ERROR, cf.DELTA_RR, cf.DELTA_RR_K):
        show_formula(f)
    low, mid = bayes_error_pieces()
    print("\n1. The Bayes error of $k$-ary randomized response, $\\pi \\leq 1/2$ (symmetric about $1/2$)")
    show_expr(r"R(\pi)", low, r"0 \leq \pi \leq \frac{1}{1 + e^{\epsilon}}")
    show_expr(r"R(\pi)", mid, r"\frac{1}{1 + e^{\epsilon}} \leq \pi \leq \frac{1}{2}")
    check("pieces-from-pmfs", check_pieces_from_pmfs())
    check("rr-bayes-error", check_rr_bayes_formula())
    print("\n2. Delta within one $k$, $\\epsilon_1 \\leq \\epsilon_2$: the maximum is at $\\pi = 1/2$")
    check("monotone-pieces", check_monotone_pieces())
    show_expr(r"\left. \left(R_{\epsilon_1} - R_{\epsilon_2}\right) \right|_{\pi = 1/2}", delta_at_half())
    check("delta-divergence-rr-k", check_rr_k_formula())
    check("delta-divergence-rr", check_rr_binary_formula())
    print("\n3. Against binary randomized response: "
          "$\\Delta(\\mathcal M\\|\\mathrm{RR}_\\epsilon) = \\max\\{0, R^*_{\\mathcal M} - 1/(1 + e^{\\epsilon})\\}$")
    check("against-rr", check_against_rr_numeric())
    print("\n4. Against the certified numerical Delta (Corollary 1)")
    check("numeric", check_numeric())
    check.finish()


if __name__ == "__main__":
    main()
