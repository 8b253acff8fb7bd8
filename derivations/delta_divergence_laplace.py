"""The Bayes error of the Laplace mechanism (eq. (2)) and the Delta-divergence between two Laplace
mechanisms (Corollary 1), derived here for Kaissis et al. (2024),

    R_eps(pi) = min{pi, 1 - pi, e^{-eps/2} sqrt(pi (1 - pi))},
    Delta(Lap_eps1 || Lap_eps2) = max{0, (e^{-eps1/2} - e^{-eps2/2}) / 2},

derived with sympy from the toolkit's own Laplace trade-off function (laplace-tradeoff, Dong,
Roth, Su 2022) and checked against the toolkit's Formulas (laplace-bayes-error,
delta-divergence-laplace): a wrong library formula makes a check fail.

1. On the hyperbolic piece e^{-eps}/(4 alpha) the objective pi alpha + (1 - pi) f(alpha) of
   eq. (2) is stationary at alpha*(pi) = e^{-eps/2} sqrt((1 - pi)/pi) / 2, with value
   e^{-eps/2} sqrt(pi (1 - pi)); alpha* runs over the piece [e^{-eps}/2, 1/2] exactly for
   pi in [1/(1 + e^eps), e^eps/(1 + e^eps)]; outside, the linear pieces give the corners alpha = 0
   (value 1 - pi) and alpha = 1 (value pi). Hence R_eps.
2. For eps1 <= eps2, R_1 - R_2 = (e^{-eps1/2} - e^{-eps2/2}) sqrt(pi (1 - pi)) where both are on
   the square-root branch, largest at pi = 1/2; where R_1 = pi and R_2 is on its branch, pi - R_2
   increases (R_2' <= (1 - e^{-eps2})/2 < 1 there), so its maximum is at the branch end, again
   on the common branch; elsewhere both equal min(pi, 1 - pi). So Delta = (R_1 - R_2)(1/2), and
   the reverse Delta is 0.
3. The closed form agrees with the certified numerical Delta (Corollary 1) at several pairs.

Run: python derivations/delta_divergence_laplace.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, inside_certified, is_zero, show_expr, show_formula
from dptheory import tradeoff
from dptheory.comparison import closed_forms as cf
from dptheory.comparison.divergence import delta_divergence

eps = sp.Symbol("epsilon", positive=True)
e1, e2 = sp.Symbol("epsilon_1", positive=True), sp.Symbol("epsilon_2", positive=True)
pi = sp.Symbol("pi", positive=True)
a = sp.Symbol("alpha", positive=True)


def hyperbola(trade=None):
    """The middle piece of the toolkit's Laplace trade-off function, at mu = eps."""
    expr = tradeoff.LAPLACE_TRADEOFF.expr if trade is None else trade
    mu, alpha = tradeoff.LAPLACE_TRADEOFF.params
    pieces = expr.args if isinstance(expr, sp.Piecewise) else ()
    middle = [e for e, c in pieces if e.has(1 / alpha) or (e.is_Mul and e.has(alpha) and e.as_powers_dict().get(alpha) == -1)]
    if len(middle) != 1:
        return None
    return middle[0].subs({mu: eps, alpha: a})


def stationary_point(trade=None):
    f = hyperbola(trade)
    if f is None:
        return None, None
    objective = pi * a + (1 - pi) * f
    sols = [s for s in sp.solve(sp.diff(objective, a), a) if s.is_positive is not False]
    if len(sols) != 1:
        return None, None
    return sols[0], sp.simplify(objective.subs(a, sols[0]))


def check_stationary(trade=None) -> bool:
    """alpha* = e^{-eps/2} sqrt((1 - pi)/pi)/2 and R = e^{-eps/2} sqrt(pi (1 - pi)) on the piece."""
    alpha_star, value = stationary_point(trade)
    if alpha_star is None:
        return False
    return (is_zero(alpha_star - sp.exp(-eps / 2) * sp.sqrt((1 - pi) / pi) / 2, rewrite_exp=True)
            and is_zero(sp.powsimp(value - sp.exp(-eps / 2) * sp.sqrt(pi * (1 - pi)), force=True), rewrite_exp=True))


def check_branch(trade=None) -> bool:
    """alpha* = 1/2 at pi = 1/(1 + e^eps) and e^{-eps}/2 at pi = e^eps/(1 + e^eps): the branch ends."""
    alpha_star, _ = stationary_point(trade)
    if alpha_star is None:
        return False
    lo, hi = 1 / (1 + sp.exp(eps)), sp.exp(eps) / (1 + sp.exp(eps))
    return (is_zero(sp.simplify(alpha_star.subs(pi, lo)) - sp.Rational(1, 2), rewrite_exp=True)
            and is_zero(sp.simplify(alpha_star.subs(pi, hi)) - sp.exp(-eps) / 2, rewrite_exp=True))


def check_bayes_formula(formula=None) -> bool:
    """The toolkit's laplace-bayes-error is min{pi, 1 - pi, the stationary value}."""
    expr = cf.LAPLACE_BAYES_ERROR.expr if formula is None else formula
    mu, prior = cf.LAPLACE_BAYES_ERROR.params
    expr = expr.subs({mu: eps, prior: pi})
    _, value = stationary_point()
    if not isinstance(expr, sp.Min) or len(expr.args) != 3:
        return False
    wanted = [pi, 1 - pi, value]
    return all(any(is_zero(sp.powsimp(arg - w, force=True), rewrite_exp=True) for arg in expr.args) for w in wanted)


def check_continuity() -> bool:
    """At the branch ends the square-root value equals the corner values pi and 1 - pi."""
    _, value = stationary_point()
    lo, hi = 1 / (1 + sp.exp(eps)), sp.exp(eps) / (1 + sp.exp(eps))
    return is_zero(sp.simplify(value.subs(pi, lo) - lo), rewrite_exp=True) and is_zero(
        sp.simplify(value.subs(pi, hi) - (1 - hi)), rewrite_exp=True)


#: R'' on the square-root branch: negative on (0, 1), so R is concave there
CURVATURE = -sp.exp(-eps / 2) / (4 * (pi * (1 - pi)) ** sp.Rational(3, 2))


def check_slope_below_one() -> bool:
    """R' = (1 - e^{-eps})/2 < 1 at the left branch end, and R' decreases (R'' = CURVATURE < 0:
    proved equal, and negative as minus a positive exponential over a positive power), so
    pi - R_2 increases where R_1 = pi."""
    _, value = stationary_point()
    slope = sp.simplify(sp.diff(value, pi).subs(pi, 1 / (1 + sp.exp(eps))))
    concave = is_zero(sp.diff(value, pi, 2) - CURVATURE)
    return is_zero(slope - (1 - sp.exp(-eps)) / 2, rewrite_exp=True) and concave


def check_delta_formula(formula=None) -> bool:
    """(R_1 - R_2)(1/2) on the common branch equals the toolkit's delta-divergence-laplace."""
    expr = cf.DELTA_LAPLACE.expr if formula is None else formula
    p1, p2 = cf.DELTA_LAPLACE.params
    _, value = stationary_point()
    diff = (value.subs(eps, e1) - value.subs(eps, e2)).subs(pi, sp.Rational(1, 2))
    inner = [arg for arg in expr.args if arg != 0] if isinstance(expr, sp.Max) else [expr]
    return len(inner) == 1 and is_zero(inner[0].subs({p1: e1, p2: e2}) - diff)


def check_numeric(pairs=((1.0, 2.0), (0.3, 0.31), (3.0, 0.5), (0.05, 6.0))) -> bool:
    ok = True
    for x, y in pairs:
        num = delta_divergence(tradeoff.laplace(x), tradeoff.laplace(y), method="numeric")
        closed = float(cf.DELTA_LAPLACE(x, y))
        ok = inside_certified(f"$\\epsilon_1 = {x}$, $\\epsilon_2 = {y}$", closed, num) and ok
    return ok


def main() -> None:
    check = Checks()
    print("Laplace mechanism: Bayes error and Delta-divergence (derived here; Kaissis et al. 2024, eq. (2), "
          "Corollary 1)\n")
    for f in (tradeoff.LAPLACE_TRADEOFF, cf.LAPLACE_BAYES_ERROR, cf.DELTA_LAPLACE):
        show_formula(f)
    alpha_star, value = stationary_point()
    print("\n1. The hyperbolic piece $e^{-\\epsilon}/(4\\alpha)$ of the trade-off function")
    show_expr(r"\alpha^*(\pi)", alpha_star)
    show_expr(r"R_\epsilon(\pi)", value, r"\frac{1}{1 + e^{\epsilon}} \leq \pi \leq \frac{e^{\epsilon}}{1 + e^{\epsilon}}")
    check("stationary-point", check_stationary())
    check("branch-ends", check_branch())
    check("corners-continuous", check_continuity())
    check("laplace-bayes-error", check_bayes_formula())
    print("\n2. Delta between two Laplace mechanisms, $\\epsilon_1 \\leq \\epsilon_2$: the maximum is at $\\pi = 1/2$")
    show_expr(r"R_\epsilon''(\pi)", CURVATURE)
    check("slope-below-one", check_slope_below_one())
    show_expr(r"\left. \left(R_{\epsilon_1} - R_{\epsilon_2}\right) \right|_{\pi = 1/2}",
              (value.subs(eps, e1) - value.subs(eps, e2)).subs(pi, sp.Rational(1, 2)))
    check("delta-divergence-laplace", check_delta_formula())
    print("\n3. Against the certified numerical Delta (Corollary 1)")
    check("numeric", check_numeric())
    check.finish()


if __name__ == "__main__":
    main()
