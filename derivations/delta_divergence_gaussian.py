"""The Delta-divergence between two Gaussian mechanisms (derived here from Kaissis et al. (2024),
Corollary 1 and Lemma 4),

    Delta(G_mu || G_nu) = max{0, Phi(-mu/2) - Phi(-nu/2)},

derived with sympy, each step checked (the script exits with status 1 if a check fails):

1. G_mu'(alpha) = -exp(mu z - mu^2/2) with z = Phi^{-1}(1 - alpha); the optimal alpha at prior pi
   solves G'(alpha) = -pi/(1 - pi), i.e. z = mu/2 + l/mu with l = logit(pi);
2. hence R_mu(pi) = pi Phi(-mu/2 - l/mu) + (1 - pi) Phi(-mu/2 + l/mu) (the toolkit's
   gdp-bayes-error), symmetric under pi -> 1 - pi;
3. dR/dpi = alpha - beta = Phi(-mu/2 - l/mu) - Phi(-mu/2 + l/mu) (the density terms cancel);
4. d/dmu of that slope = phi(l/mu - mu/2) ((l/mu^2)(1 + e^{-l}) + (1 - e^{-l})/2) > 0 for l > 0
   (the derivative of the probability Phi(b) - Phi(a) = -slope carries the opposite sign): for mu < nu the slope of R_mu - R_nu is negative on (1/2, 1), so R_mu - R_nu decreases
   there and, by the symmetry, increases on (0, 1/2): its maximum is at pi = 1/2, where
   R = Phi(-mu/2) (Lemma 4: R* = alpha*);
5. the closed form agrees with the certified numerical Delta (Corollary 1) at several pairs.

(The Laplace and randomized-response closed forms: delta_divergence_laplace.py and
delta_divergence_rr.py.)

Run: python derivations/delta_divergence_gaussian.py  (prints the derivation and LaTeX; exits 1 if a
check fails)
"""

import sympy as sp

from _derivation import Checks, inside_certified
from dptheory import tradeoff
from dptheory.comparison import closed_forms as cf
from dptheory.comparison.divergence import delta_divergence
from dptheory.symbols import Phi, Phi_inv


def zero(expr, points) -> bool:
    """expr vanishes: simplify, and 30-digit evaluation at sample points."""
    if sp.simplify(expr) == 0:
        return True
    return all(abs(sp.N(expr.subs(pt), 30)) < 1e-25 for pt in points)


def check_closed_form(formula=None) -> bool:
    """The toolkit's delta-divergence-gaussian is max{0, R_mu1(1/2) - R_mu2(1/2)} with
    R_mu(1/2) = Phi(-mu/2)."""
    expr = cf.DELTA_GAUSSIAN.expr if formula is None else formula
    m1, m2 = cf.DELTA_GAUSSIAN.params
    inner = [a for a in expr.args if a != 0] if isinstance(expr, sp.Max) else [expr]
    return len(inner) == 1 and sp.simplify(inner[0] - (Phi(-m1 / 2) - Phi(-m2 / 2))) == 0


def main() -> None:
    check = Checks()
    mu, nu = sp.symbols("mu nu", positive=True)
    a, z = sp.symbols("alpha z", positive=True)
    lam = sp.Symbol("lambda", real=True)
    pi = sp.Symbol("pi", positive=True)
    phi = lambda x: sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)  # noqa: E731
    pts = [{mu: sp.Rational(1), nu: sp.Rational(2), lam: sp.Rational(1, 3), a: sp.Rational(1, 5), z: sp.Rational(3, 4)},
           {mu: sp.Rational(7, 3), nu: sp.Rational(1, 2), lam: sp.Rational(-2), a: sp.Rational(3, 5), z: sp.Rational(-1, 2)}]

    # 1. derivative of G_mu
    G = Phi(Phi_inv(1 - a) - mu)
    dG = sp.diff(G, a)
    claimed = -sp.exp(mu * Phi_inv(1 - a) - mu**2 / 2)
    print("1. G_mu(alpha) =", sp.latex(G))
    print("   G_mu'(alpha) =", sp.latex(sp.simplify(dG)))
    check("G' = -exp(mu z - mu^2/2), z = Phi^{-1}(1 - alpha)", zero(dG - claimed, pts))
    zstar = mu / 2 + lam / mu
    check("z = mu/2 + l/mu solves G' = -e^l", zero(sp.log(-claimed.subs(Phi_inv(1 - a), zstar)) - lam, pts))

    # 2. Bayes error at the optimum
    p_of_l = sp.exp(lam) / (1 + sp.exp(lam))
    R = p_of_l * (1 - Phi(zstar)) + (1 - p_of_l) * Phi(zstar - mu)
    R_toolkit = tradeoff.GAUSSIAN_BAYES_ERROR.expr.subs(tradeoff.GAUSSIAN_BAYES_ERROR.params[1], pi)
    R_toolkit = R_toolkit.subs({tradeoff.GAUSSIAN_BAYES_ERROR.params[0]: mu}).subs(pi, p_of_l)
    print("2. R_mu(pi) =", sp.latex(sp.simplify(R)), " with pi = e^l/(1 + e^l)")
    check("equals the toolkit's gdp-bayes-error", zero(sp.expand_log(R - R_toolkit, force=True), pts))
    check("R_mu(pi) = R_mu(1 - pi)", zero(R - R.subs(lam, -lam).subs(p_of_l.subs(lam, -lam), 1 - p_of_l), pts))

    # 3. slope in pi: dR/dpi = (dR/dl) / (dpi/dl)
    slope = sp.diff(R, lam) / sp.diff(p_of_l, lam)
    envelope = Phi(-mu / 2 - lam / mu) - Phi(-mu / 2 + lam / mu)
    print("3. dR/dpi =", sp.latex(envelope))
    check("dR/dpi = alpha - beta (envelope theorem)", zero(slope - envelope, pts))

    # 4. monotonicity in mu
    dmu = sp.diff(envelope, mu)
    claimed4 = phi(lam / mu - mu / 2) * ((lam / mu**2) * (1 + sp.exp(-lam)) + (1 - sp.exp(-lam)) / 2)
    print("4. d/dmu (dR/dpi) =", sp.latex(sp.simplify(claimed4)))
    check("d/dmu (dR/dpi) = phi(l/mu - mu/2) ((l/mu^2)(1 + e^-l) + (1 - e^-l)/2)", zero(dmu - claimed4, pts))
    lpos = sp.Symbol("l", positive=True)
    t = sp.Symbol("t", positive=True)
    # 1 - e^{-l} is the integral over (0, l) of the positive e^{-t}
    as_integral = sp.simplify(sp.integrate(sp.exp(-t), (t, 0, lpos)) - (1 - sp.exp(-lpos))) == 0
    check("both bracket terms are positive for l > 0", bool(((lpos / mu**2) * (1 + sp.exp(-lpos))).is_positive)
          and as_integral and bool(sp.exp(-t).is_positive))
    half = sp.simplify(R.subs(lam, 0))
    print("   R_mu(1/2) =", sp.latex(half))
    check("R_mu(1/2) = Phi(-mu/2) (= alpha*, Lemma 4)", zero(half - Phi(-mu / 2), pts))

    # 5. the closed form against the certified numerics
    print("5. Delta(G_mu || G_nu) =", cf.DELTA_GAUSSIAN.latex())
    check("delta-divergence-gaussian is max{0, Phi(-mu1/2) - Phi(-mu2/2)}", check_closed_form())
    for m1, m2 in ((1.0, 2.0), (0.3, 0.31), (3.0, 0.5), (0.05, 6.0)):
        num = delta_divergence(tradeoff.gaussian(m1), tradeoff.gaussian(m2), method="numeric")
        closed = float(cf.DELTA_GAUSSIAN(m1, m2))
        check(f"closed form inside the certified interval at ({m1}, {m2})",
              inside_certified(f"mu = {m1}, nu = {m2}", closed, num))

    print("\nLaTeX:")
    for f in (cf.DELTA_GAUSSIAN, cf.GAUSSIAN_V4, cf.BERRY_ESSEEN_GAMMA, cf.THEOREM3_GENERALISED):
        print(f"  {f.name}: $${f.latex()}$$")
    check.finish()


if __name__ == "__main__":
    main()
