"""The Delta-divergence between two Gaussian mechanisms (derived here from Kaissis et al. (2024),
Corollary 1 and Lemma 4),

    Delta(G_mu || G_nu) = max{0, Phi(-mu/2) - Phi(-nu/2)},

derived with sympy, each step an identity sympy proves (the script exits with status 1 if a
check fails):

1. G_mu'(alpha) = -exp(mu z - mu^2/2) with z = Phi^{-1}(1 - alpha); the optimal alpha at prior pi
   solves G'(alpha) = -pi/(1 - pi), i.e. z = mu/2 + l/mu with l = logit(pi);
2. hence R_mu(pi) = pi Phi(-mu/2 - l/mu) + (1 - pi) Phi(-mu/2 + l/mu) (the toolkit's
   gdp-bayes-error), symmetric under pi -> 1 - pi;
3. dR/dpi = alpha - beta = Phi(-mu/2 - l/mu) - Phi(-mu/2 + l/mu) (the density terms cancel);
4. d/dmu of that slope = phi(l/mu - mu/2) ((l/mu^2)(1 + e^{-l}) + (1 - e^{-l})/2) > 0 for l > 0
   (the derivative of the probability Phi(b) - Phi(a) = -slope carries the opposite sign): for
   mu < nu the slope of R_mu - R_nu is negative on (1/2, 1), so R_mu - R_nu decreases there and,
   by the symmetry, increases on (0, 1/2): its maximum is at pi = 1/2, where R = Phi(-mu/2)
   (Lemma 4: R* = alpha*);
5. the closed form agrees with the certified numerical Delta (Corollary 1) at several pairs.

(The Laplace and randomized-response closed forms: delta_divergence_laplace.py and
delta_divergence_rr.py.)

Run: python derivations/delta_divergence_gaussian.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, inside_certified, is_zero, show_expr, show_formula
from dptheory import tradeoff
from dptheory.comparison import closed_forms as cf
from dptheory.comparison.divergence import delta_divergence
from dptheory.symbols import Phi, Phi_inv  # the erfc forms of the toolkit, printed as Phi

mu = sp.Symbol("mu", positive=True)
a = sp.Symbol("alpha", positive=True)
l = sp.Symbol("l", real=True)              # the log-odds of the prior, l = logit(pi)  # noqa: E741
lpos = sp.Symbol("l", positive=True)
pi = sp.Symbol("pi", positive=True)
PI_OF_L = sp.exp(l) / (1 + sp.exp(l))
Z_STAR = mu / 2 + l / mu
varphi = sp.Function("varphi")               # the standard normal density, for display


def _phi(x):
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def tradeoff_slope(trade=None):
    """G_mu'(alpha) of the toolkit's gdp-tradeoff, and the claimed -exp(mu z - mu^2/2) with
    z = Phi^{-1}(1 - alpha) = -Phi^{-1}(alpha)."""
    m, alpha = tradeoff.GAUSSIAN_TRADEOFF.params
    expr = tradeoff.GAUSSIAN_TRADEOFF.expr if trade is None else trade
    derivative = sp.diff(expr.subs({m: mu, alpha: a}), a)
    return derivative, -sp.exp(-mu * Phi_inv(a) - mu**2 / 2)


def check_slope(trade=None) -> bool:
    derivative, claimed = tradeoff_slope(trade)
    return is_zero(derivative - claimed)


def check_optimal_alpha() -> bool:
    """At z = mu/2 + l/mu (Phi^{-1}(alpha) = -z) the slope is -e^l = -pi/(1 - pi)."""
    _, claimed = tradeoff_slope()
    return is_zero(sp.expand_log(sp.log(-claimed.subs(Phi_inv(a), -Z_STAR)) - l, force=True))


def bayes_error():
    """pi alpha* + (1 - pi) G(alpha*) at alpha* = 1 - Phi(z*), as a function of l."""
    return PI_OF_L * (1 - Phi(Z_STAR)) + (1 - PI_OF_L) * Phi(Z_STAR - mu)


#: the displayed form of the Bayes error (l = logit(pi)), proved equal to bayes_error()
R_SHOWN = pi * Phi(-mu / 2 - l / mu) + (1 - pi) * Phi(-mu / 2 + l / mu)
SLOPE = Phi(-mu / 2 - l / mu) - Phi(-mu / 2 + l / mu)
SLOPE_MU = varphi(l / mu - mu / 2) * ((l / mu**2) * (1 + sp.exp(-l)) + (1 - sp.exp(-l)) / 2)


def check_bayes_error_formula() -> bool:
    """The derived R equals its displayed form and the toolkit's gdp-bayes-error."""
    r = bayes_error()
    m, prior = tradeoff.GAUSSIAN_BAYES_ERROR.params
    toolkit = tradeoff.GAUSSIAN_BAYES_ERROR.expr.subs({m: mu, prior: pi}).subs(pi, PI_OF_L)
    return is_zero(sp.expand_log(r - toolkit, force=True)) and is_zero(r - R_SHOWN.subs(pi, PI_OF_L))


def check_symmetric() -> bool:
    """R(pi) = R(1 - pi): l -> -l."""
    r = bayes_error()
    return is_zero(r - r.subs(l, -l))


def check_slope_in_prior() -> bool:
    """dR/dpi = (dR/dl)/(dpi/dl) = alpha - beta (the envelope theorem)."""
    r = bayes_error()
    return is_zero(sp.diff(r, l) / sp.diff(PI_OF_L, l) - SLOPE)


def check_slope_in_mu() -> bool:
    return is_zero(sp.diff(SLOPE, mu) - SLOPE_MU.replace(varphi, _phi))


def check_slope_in_mu_positive() -> bool:
    """Both bracket terms are positive for l > 0 (1 - e^{-l} as the integral of e^{-t} over (0, l))."""
    t = sp.Symbol("t", positive=True)
    as_integral = is_zero(sp.integrate(sp.exp(-t), (t, 0, lpos)) - (1 - sp.exp(-lpos)))
    return bool(((lpos / mu**2) * (1 + sp.exp(-lpos))).is_positive) and as_integral and bool(sp.exp(-t).is_positive)


def check_at_half() -> bool:
    """R_mu(1/2) = Phi(-mu/2) (l = 0), the fixed point alpha* of Lemma 4."""
    return is_zero(bayes_error().subs(l, 0) - Phi(-mu / 2))


def check_closed_form(formula=None) -> bool:
    """The toolkit's delta-divergence-gaussian is max{0, R_mu1(1/2) - R_mu2(1/2)} with
    R_mu(1/2) = Phi(-mu/2)."""
    expr = cf.DELTA_GAUSSIAN.expr if formula is None else formula
    m1, m2 = cf.DELTA_GAUSSIAN.params
    inner = [arg for arg in expr.args if arg != 0] if isinstance(expr, sp.Max) else [expr]
    return len(inner) == 1 and is_zero(inner[0] - (Phi(-m1 / 2) - Phi(-m2 / 2)))


def check_numeric(pairs=((1.0, 2.0), (0.3, 0.31), (3.0, 0.5), (0.05, 6.0))) -> bool:
    """The closed form inside the certified numerical Delta of the two trade-off curves."""
    ok = True
    for m1, m2 in pairs:
        num = delta_divergence(tradeoff.gaussian(m1), tradeoff.gaussian(m2), method="numeric")
        closed = float(cf.DELTA_GAUSSIAN(m1, m2))
        ok = inside_certified(f"$\\mu_1 = {m1}$, $\\mu_2 = {m2}$", closed, num) and ok
    return ok


def main() -> None:
    check = Checks()
    print("The Delta-divergence between Gaussian mechanisms (derived here; Kaissis et al. 2024, Corollary 1, "
          "Lemma 4)\n")
    for f in (tradeoff.GAUSSIAN_TRADEOFF, tradeoff.GAUSSIAN_BAYES_ERROR, cf.DELTA_GAUSSIAN, cf.GAUSSIAN_V4,
              cf.BERRY_ESSEEN_GAMMA, cf.THEOREM3_GENERALISED):
        show_formula(f)
    print("\n1. The slope of $G_\\mu$ and the optimal test at prior $\\pi$, $l = \\log(\\pi/(1 - \\pi))$")
    show_expr(r"G_\mu'(\alpha)", tradeoff_slope()[1].subs(Phi_inv(a), -Phi_inv(1 - a)))
    check("tradeoff-slope", check_slope())
    show_expr(r"\Phi^{-1}(1 - \alpha^*)", Z_STAR)
    check("optimal-alpha", check_optimal_alpha())
    print("\n2. The Bayes error at the optimum")
    show_expr(r"R_\mu(\pi)", R_SHOWN)
    check("gdp-bayes-error", check_bayes_error_formula())
    check("bayes-error-symmetric", check_symmetric())
    print("\n3. Its slope in the prior (the envelope theorem)")
    show_expr(r"\frac{dR_\mu}{d\pi}", SLOPE)
    check("slope-in-prior", check_slope_in_prior())
    print("\n4. The slope increases in $\\mu$ for $l > 0$: the maximum of $R_\\mu - R_\\nu$ is at $\\pi = 1/2$")
    show_expr(r"\frac{\partial}{\partial\mu}\frac{dR_\mu}{d\pi}", SLOPE_MU)
    check("slope-in-mu", check_slope_in_mu())
    check("slope-in-mu-positive", check_slope_in_mu_positive())
    show_expr(r"R_\mu(1/2)", Phi(-mu / 2))
    check("bayes-error-at-half", check_at_half())
    print("\n5. The closed form, and against the certified numerical Delta (Corollary 1)")
    m1, m2 = cf.DELTA_GAUSSIAN.params
    show_expr(r"\Delta(G_{\mu_1}\|G_{\mu_2})", sp.Max(0, Phi(-m1 / 2) - Phi(-m2 / 2)))
    check("delta-divergence-gaussian", check_closed_form())
    check("numeric", check_numeric())
    check.finish()


if __name__ == "__main__":
    main()
