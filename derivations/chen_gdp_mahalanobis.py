"""Chen, Cao, Ge (ICASSP 2024), Lemma A.6, Theorem 2 and Corollary 2: the Mahalanobis distance
4/((n-1)p) of the clone counts' Gaussian limit, the GDP parameter mu = 2 e^{eps0/2}/sqrt(n-1),
its RDP, and the refined limit of the mixed pair (derived here: docs/errata.md#derived-chen-refined-limit).

1. (n0, n1, n2) ~ Mult(n-1; p/2, p/2, 1-p) has covariance (n-1)(diag(p) - p p^T) (Lemma A.6, as
   printed), which is singular; the covariance of (n0, n1) and its inverse are as printed in
   Appendix A.3.
2. The means of P = (n0+1, n1) and Q = (n0, n1+1) differ by (-1, 1); their Mahalanobis distance
   is 4/((n-1)p) (eq. 20). At the clone probability p = e^{-eps0}, sqrt of it is chen-gdp.
3. Corollary 2 (chen-gdp-rdp) is the RDP lam mu^2/2 of mu-GDP (gdp-to-rdp) at that mu.
4. The pair of Proposition 1 mixes in the victim's coin Delta ~ Bern(e^eps0/(e^eps0+1)): its mean
   difference shrinks by tanh(eps0/2) and its covariance gains Var(Delta)(1,-1)(1,-1)^T. Its
   Mahalanobis distance times (n-1) tends to that of chen-gdp-refined: Theorem 2 is loose by
   coth^2(eps0/2) in RDP, and does not vanish as eps0 -> 0 while the refined limit does.

These are central-limit approximations (status "not a bound"): nothing here certifies them.

Run: python derivations/chen_gdp_mahalanobis.py   (prints LaTeX and one "check ...: ok" line per check)
"""

import sympy as sp

from _derivation import Checks, is_zero, show, show_expr, show_formula, to_latex
from dptheory.rdp import GDP_RDP
from dptheory.shuffle.rdp.formulas import CHEN_GDP, CHEN_GDP_REFINED, CHEN_RDP
from dptheory.symbols import eps0, lam, mu, n

p = sp.Symbol("p", positive=True)  # clone probability
PROBS = sp.Matrix([p / 2, p / 2, 1 - p])
COV3 = (n - 1) * (sp.diag(*PROBS) - PROBS * PROBS.T)
COV2 = COV3[:2, :2]
DIFF = sp.Matrix([-1, 1])

# Lemma A.6 and Appendix A.3 as printed (transcribed from the paper, to compare with)
PRINTED_COV3 = (n - 1) * sp.Matrix([[p / 2 * (1 - p / 2), -p**2 / 4, -p * (1 - p) / 2],
                                    [-p**2 / 4, p / 2 * (1 - p / 2), -p * (1 - p) / 2],
                                    [-p * (1 - p) / 2, -p * (1 - p) / 2, p * (1 - p)]])
PRINTED_INV2 = sp.Matrix([[(2 - p) / (p * (1 - p)), 1 / (1 - p)], [1 / (1 - p), (2 - p) / (p * (1 - p))]]) / (n - 1)


def mahalanobis(cov=COV2, diff=DIFF):
    return sp.simplify((diff.T * cov.inv() * diff)[0])


def inverse_form():
    """Sigma^{-1} as 1/((n-1) p (1-p)) times an integer-coefficient matrix, the form displayed;
    check_inverse proves it equal to the inverse."""
    scale = 1 / ((n - 1) * p * (1 - p))
    return scale, (COV2.inv() / scale).applyfunc(sp.simplify)


def mixed_distance_form():
    """The mixed pair's squared distance with its denominator collected in n (displayed form)."""
    num, den = sp.fraction(sp.together(mixed_distance()))
    return num / sp.collect(sp.expand(den), n, sp.factor)


def check_covariance() -> bool:
    return (COV3 - PRINTED_COV3).applyfunc(sp.simplify) == sp.zeros(3, 3) and sp.simplify(COV3.det()) == 0


def check_inverse() -> bool:
    scale, matrix = inverse_form()
    return ((COV2.inv() - PRINTED_INV2).applyfunc(sp.simplify) == sp.zeros(2, 2)
            and (scale * matrix - COV2.inv()).applyfunc(sp.simplify) == sp.zeros(2, 2))


def check_distance(distance=None) -> bool:
    distance = mahalanobis() if distance is None else distance
    return is_zero(distance - 4 / ((n - 1) * p))


def check_theorem_2(gdp=None) -> bool:
    """sqrt(4/((n-1)p)) at p = e^{-eps0} is chen-gdp."""
    gdp = CHEN_GDP.expr if gdp is None else gdp
    return is_zero(sp.sqrt(mahalanobis()).subs(p, sp.exp(-eps0)) - gdp)


def check_corollary_2(rdp=None, gdp=None) -> bool:
    """gdp-to-rdp at mu = chen-gdp is chen-gdp-rdp."""
    rdp = CHEN_RDP.expr if rdp is None else rdp
    gdp = CHEN_GDP.expr if gdp is None else gdp
    curve = GDP_RDP.expr.subs(GDP_RDP.params[1], lam)
    return is_zero(curve.subs(mu, gdp) - rdp)


def mixed_distance():
    """Mahalanobis distance of the Gaussian limits of (n0 + 1 - D, n1 + D) and (n0 + D, n1 + 1 - D)."""
    pi = sp.exp(eps0) / (sp.exp(eps0) + 1)  # P(D = 1), Proposition 1
    diff = (1 - 2 * pi) * DIFF
    cov = COV2 + pi * (1 - pi) * DIFF * DIFF.T
    return sp.simplify(mahalanobis(cov, diff).subs(p, sp.exp(-eps0)))


def check_refined(refined=None) -> bool:
    """lim (n-1) * (mixed distance) = lim (n-1) * chen-gdp-refined^2 (and the displayed form of
    the mixed distance is that distance)."""
    refined = CHEN_GDP_REFINED.expr if refined is None else refined
    limit = sp.limit((n - 1) * mixed_distance(), n, sp.oo)
    return (is_zero(limit - sp.simplify((n - 1) * refined**2), rewrite_exp=True)
            and is_zero(mixed_distance_form() - mixed_distance()))


def check_looseness(gdp=None, refined=None) -> bool:
    """(Theorem 2's mu / refined mu)^2 = coth^2(eps0/2); at eps0 -> 0 Theorem 2 stays at 2/sqrt(n-1)."""
    gdp = CHEN_GDP.expr if gdp is None else gdp
    refined = CHEN_GDP_REFINED.expr if refined is None else refined
    ratio = is_zero((gdp / refined) ** 2 - sp.coth(eps0 / 2) ** 2, rewrite_exp=True)
    return ratio and is_zero(sp.limit(gdp, eps0, 0) - 2 / sp.sqrt(n - 1)) and sp.limit(refined, eps0, 0) == 0


def main() -> None:
    check = Checks()
    print("Chen, Cao, Ge (2024): the Gaussian limit of the clone counts\n")
    for f in (CHEN_GDP, CHEN_RDP, CHEN_GDP_REFINED, GDP_RDP):
        show_formula(f)
    print("\n1. Covariances (Lemma A.6, Appendix A.3): $(n_0, n_1, n_2) \\sim \\mathrm{Mult}(n - 1; p/2, p/2, 1 - p)$")
    show(r"\tilde\Sigma = (n - 1)\left(\operatorname{diag}(\mathbf p) - \mathbf p \mathbf p^\top\right)",
         "\\left(n - 1\\right) " + to_latex(PRINTED_COV3 / (n - 1)))
    scale, matrix = inverse_form()
    show(r"\Sigma^{-1}", to_latex(scale) + " " + to_latex(matrix))
    check("lemma-A6-covariance", check_covariance())
    check("sigma-inverse", check_inverse())
    print("\n2. The Mahalanobis distance (eq. (20)) and Theorem 2, at $p = e^{-\\epsilon_0}$")
    show_expr(r"(\mu_1-\mu_0)^\top\Sigma^{-1}(\mu_1-\mu_0)", mahalanobis())
    show_expr(r"\mu", sp.sqrt(mahalanobis()).subs(p, sp.exp(-eps0)))
    check("mahalanobis-distance", check_distance())
    check("theorem-2-mu", check_theorem_2())
    print("\n3. Corollary 2")
    show_expr(r"\frac{\lambda\mu^2}{2}", GDP_RDP.expr.subs(GDP_RDP.params[1], lam).subs(mu, CHEN_GDP.expr))
    check("corollary-2", check_corollary_2())
    print("\n4. The mixed pair of Proposition 1")
    show_expr(r"d_{\mathrm{mixed}}^2", mixed_distance_form())
    show_expr(r"\lim_{n\to\infty} (n-1)\, d_{\mathrm{mixed}}^2", sp.limit((n - 1) * mixed_distance(), n, sp.oo))
    check("refined-limit", check_refined())
    show_expr(r"\left(\frac{\mu_{\mathrm{Theorem~2}}}{\mu_{\mathrm{refined}}}\right)^2", sp.coth(eps0 / 2) ** 2)
    check("theorem-2-loose-by-coth2", check_looseness())
    check.finish()


if __name__ == "__main__":
    main()
