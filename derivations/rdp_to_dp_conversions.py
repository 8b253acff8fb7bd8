"""The RDP -> (epsilon, delta) conversions of the toolkit (dptheory.rdp: rdp-to-dp, rdp-to-delta and
their Mironov variants), checked symbolically.

1. Each conversion's two directions are inverses at every order lam > 1:
   Mironov (2017), Proposition 3:  eps = rho + log(1/delta)/(lam - 1)  <->  delta = e^{(lam-1)(rho - eps)};
   Balle et al. (2020), Theorem 21 / Canonne, Kamath, Steinke (2020), Proposition 12 / Girgis et al. Lemma 2.1:
   eps = rho + log((lam-1)/lam) - (log delta + log lam)/(lam - 1)
   <->  delta = e^{(lam-1)(rho - eps)} (1 - 1/lam)^lam / (lam - 1).
2. Balle et al.'s conversion is never worse: eps_Mironov - eps_Balle = log(lam/(lam-1))
   + log(lam)/(lam-1) > 0, and delta_Balle/delta_Mironov = (lam-1)^{lam-1}/lam^lam < 1 (its log
   -g(lam) with g(1+) = 0 and g' = log(lam/(lam-1)) > 0).
3. At mu-GDP's RDP curve lam mu^2/2 (gdp-to-rdp), Mironov's conversion is minimised at
   lam* = 1 + sqrt(2 log(1/delta))/mu, where eps = mu^2/2 + mu sqrt(2 log(1/delta)).

Run: python derivations/rdp_to_dp_conversions.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, is_zero, show_expr, show_formula
from dptheory.rdp import GDP_RDP, TO_DELTA, TO_DP
from dptheory.symbols import delta, eps, lam, mu, rho

t = sp.Symbol("t", positive=True)        # lam = 1 + t
L = sp.Symbol("L", positive=True)        # log(1/delta), delta = e^{-L} in (0, 1)
mu_pos = sp.Symbol("mu", positive=True)


def check_inverse(to_dp, to_delta) -> bool:
    """delta(eps(delta)) = delta at every order: the log of the composition minus log delta is 0."""
    back = to_delta.subs(eps, to_dp)
    return is_zero(sp.expand_log(sp.log(back) - sp.log(delta), force=True))


#: eps_Mironov - eps_Balle as the sum of two terms, each positive for lam > 1
ADVANTAGE = sp.log(lam / (lam - 1)) + sp.log(lam) / (lam - 1)


def advantage(balle=None, mironov=None):
    """eps_Mironov - eps_Balle at the same (rho, lam, delta)."""
    balle = TO_DP["balle"].expr if balle is None else balle
    mironov = TO_DP["mironov"].expr if mironov is None else mironov
    return sp.simplify(mironov - balle)


def check_balle_tighter(balle=None, mironov=None) -> bool:
    """The advantage equals log(lam/(lam-1)) + log(lam)/(lam-1), both terms positive for lam > 1."""
    gap = advantage(balle, mironov)
    terms = ADVANTAGE
    if not is_zero(sp.expand_log(gap - terms, force=True)):
        return False
    return all(sp.simplify(term.subs(lam, 1 + t)).is_positive for term in sp.Add.make_args(terms))


def check_delta_ratio(balle=None, mironov=None) -> bool:
    """delta_Balle / delta_Mironov = e^{-g(lam)}, g(lam) = lam log lam - (lam-1) log(lam-1) > 0."""
    balle = TO_DELTA["balle"].expr if balle is None else balle
    mironov = TO_DELTA["mironov"].expr if mironov is None else mironov
    log_ratio = sp.expand_log(sp.log(sp.simplify(balle / mironov)), force=True)
    g = lam * sp.log(lam) - (lam - 1) * sp.log(lam - 1)
    derivative = sp.simplify(sp.diff(g, lam) - sp.log(lam / (lam - 1)))
    return (is_zero(sp.expand_log(log_ratio + g, force=True)) and is_zero(sp.expand_log(derivative, force=True))
            and sp.limit(g, lam, 1, "+") == 0 and sp.log((1 + t) / t).is_positive)


def gdp_optimum(to_dp=None, rdp_curve=None):
    """(lam*, eps(lam*)) of Mironov's conversion at the RDP curve of mu-GDP, delta = e^{-L}."""
    to_dp = TO_DP["mironov"].expr if to_dp is None else to_dp
    curve = GDP_RDP.expr.subs(GDP_RDP.params[1], lam) if rdp_curve is None else rdp_curve
    objective = to_dp.subs(rho, curve).subs({delta: sp.exp(-L), mu: mu_pos})
    objective = sp.expand_log(objective, force=True)
    roots = [r for r in sp.solve(sp.diff(objective, lam), lam) if sp.simplify(r - 1).is_positive]
    if len(roots) != 1:
        return None, None
    return roots[0], sp.simplify(objective.subs(lam, roots[0]))


def check_gdp_optimum(to_dp=None, rdp_curve=None) -> bool:
    order, value = gdp_optimum(to_dp, rdp_curve)
    return (order is not None and is_zero(order - (1 + sp.sqrt(2 * L) / mu_pos))
            and is_zero(value - (mu_pos**2 / 2 + mu_pos * sp.sqrt(2 * L))))


def main() -> None:
    check = Checks()
    print("RDP to $(\\epsilon, \\delta)$-DP: the conversions\n")
    for f in (TO_DP["mironov"], TO_DELTA["mironov"], TO_DP["balle"], TO_DELTA["balle"], GDP_RDP):
        show_formula(f)
    print("\n1. Each $\\epsilon(\\delta)$ is the inverse of its $\\delta(\\epsilon)$ at every order")
    for name in ("mironov", "balle"):
        check(f"inverse-{name}", check_inverse(TO_DP[name].expr, TO_DELTA[name].expr))
    print("\n2. Balle et al.'s conversion is tighter at every order")
    show_expr("   \\epsilon_{\\mathrm{Mironov}} - \\epsilon_{\\mathrm{Balle}}", ADVANTAGE)
    check("balle-tighter-epsilon", check_balle_tighter())
    show_expr("   \\delta_{\\mathrm{Balle}} / \\delta_{\\mathrm{Mironov}}",
              sp.simplify(TO_DELTA["balle"].expr / TO_DELTA["mironov"].expr))
    check("balle-tighter-delta", check_delta_ratio())
    print("\n3. Mironov's conversion of the RDP curve of $\\mu$-GDP, optimised over the order, $L = \\log(1/\\delta)$")
    order, value = gdp_optimum()
    show_expr("   \\lambda^*", order)
    show_expr("   \\epsilon(\\lambda^*)", value)
    check("gdp-optimal-order", check_gdp_optimum())
    check.finish()


if __name__ == "__main__":
    main()
