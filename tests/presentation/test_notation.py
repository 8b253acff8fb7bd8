"""The printer of the papers' notation (dptheory.presentation.notation): Phi for erfc, binomials,
named sub-expressions, positive terms first, and every rewriting an identity."""

import math
import zlib

import mpmath
import pytest
import sympy as sp
from scipy import stats

from dptheory import catalogue
from dptheory.presentation import notation

GDP_DELTA_PAPER = (r"\Phi\left(\frac{\mu}{2} - \frac{\epsilon}{\mu}\right) - e^{\epsilon} "
                   r"\Phi\left(- \frac{\epsilon}{\mu} - \frac{\mu}{2}\right)")


def test_gdp_delta_prints_as_the_paper():
    """Issue 12: gdp-delta printed nested erfc with sqrt(2) factors; Dong, Roth, Su write
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    f = catalogue.get("gdp-delta")
    text = f.latex()
    assert text == r"\delta_\mu(\epsilon) = " + GDP_DELTA_PAPER
    assert "erfc" not in text and "sqrt" not in text and r"\Phi" in text


def _phi_modules():
    """Independent numeric meanings of the printed Phi and Phi^-1: scipy's normal distribution."""
    return [{"NormalCDF": lambda z: stats.norm.cdf(float(z)), "NormalQuantile": lambda u: stats.norm.ppf(float(u))},
            "mpmath"]


@pytest.mark.parametrize("name, point", [
    ("gdp-delta", {"mu": 1.3, "epsilon": 0.7}),
    ("gdp-tradeoff", {"mu": 0.8, "alpha": 0.2}),
    ("gdp-bayes-error", {"mu": 2.0, "pi_prior": 0.3}),
    ("gdp-fixed-point", {"mu": 1.7}),
])
def test_paper_notation_is_the_same_function(name, point):
    """The Phi form printed equals the toolkit's erfc form, Phi evaluated by scipy (not erfc)."""
    f = catalogue.get(name)
    rewritten = notation.paper_notation(f.expr)
    assert not rewritten.has(sp.erfc) and not rewritten.has(sp.erfcinv) and not rewritten.has(sp.erf)
    values = [point[s.name] for s in f.params]
    printed = sp.lambdify(f.params, rewritten, modules=_phi_modules())(*values)
    with mpmath.workdps(30):
        exact = f.mpmath(30)(*values)
    assert math.isclose(float(printed), float(exact), rel_tol=1e-12)


def test_binomials_named_functions_and_phi_inverse():
    assert r"\binom{\lambda}{2}" in catalogue.get("girgis-corollary-3.2").latex()
    assert r"\Phi^{-1}\left(\alpha\right)" in catalogue.get("gdp-tradeoff").latex()
    assert r"\max\left(" in catalogue.get("dp-tradeoff").latex()
    x = sp.Symbol("x", real=True)
    # erf and erfinv are rewritten too: erf(x / sqrt 2) = 2 Phi(x) - 1
    assert notation.to_latex(sp.erf(x / sp.sqrt(2))) == r"2 \Phi\left(x\right) - 1"
    assert notation.to_latex(sp.sqrt(2) * sp.erfinv(2 * x - 1)) == r"\Phi^{-1}\left(x\right)"
    # a leading positive term, at the top level only
    assert notation.to_latex(sp.exp(x) - sp.erfc(x)).startswith("e^{x}")


def test_formula_with_named_parts_prints_as_the_paper():
    """Wang et al. (2024), Theorem 4.2: epsilon = log(1 + F(Omega)) with F,
    Omega, alpha and r defined after it; it printed as one huge substituted expression. The named
    parts are only the display: the expression is the substituted one, identical to the definitions
    written out here (the paper's Appendix F)."""
    from dptheory.shuffle import variation_ratio as vr

    f = vr.THEOREM_4_2
    assert f.latex() == r"\epsilon = \log\left(1 + F(\Omega)\right)"
    names = [text.split(" = ")[0] for text in f.where_latex()]
    assert names[:4] == [r"F(C)", r"\Omega", r"\alpha", "r"]
    assert len(f.latex_with_conditions()) < 2000
    assert r"\Omega \geq s_{*}^{2}" in f.conditions_latex() and r"\Omega > 0" in f.conditions_latex()
    # the expression: Appendix F's F at C = Omega, written out from the paper
    beta, delta, n, p, q = f.params[1], f.params[4], f.params[3], f.params[0], f.params[2]
    alpha = beta / (p - 1)
    r = alpha * p / q
    ell = sp.log(4 / delta)
    omega = 2 * r * (n - 1) - sp.sqrt(sp.Min(6 * r, sp.Rational(1, 2)) * (n - 1) * ell)
    F = beta * (2 * sp.sqrt(omega * ell / 2) + 1) / (
        alpha * omega + beta * (omega / 2 - sp.sqrt(omega * ell / 2)) + (1 - alpha - alpha * p) * (n - 1 - omega) * r / (1 - 2 * r))
    point = {p: 3, beta: sp.Rational(1, 2), q: 3, n: 10**5, delta: sp.Rational(1, 10**6)}
    assert abs(sp.N((f.expr - sp.log(1 + F)).subs(point), 50)) < 1e-45
    assert float(f(3.0, 0.5, 3.0, 10**5, 1e-6)) == pytest.approx(float(sp.N(sp.log(1 + F).subs(point), 30)), rel=1e-12)


# ------------------------------------------------------------------------------ identities
def _point(f, rng, small=False):
    """Random parameter values inside the formula's domain (None if none found); with ``small``
    the integers are at most 9 (a sum over them stays short)."""
    integers = [2, 3, 4, 6, 9] if small else [2, 3, 4, 6, 9, 1000, 10**5, 10**8]
    for _ in range(400):
        values = []
        for s in f.params:
            if s.is_integer:
                values.append(int(rng.choice(integers)))
            elif s.name in ("delta", "alpha", "pi_prior", "beta", "r", "t"):
                values.append(float(10 ** rng.uniform(-6, -0.35)))
            else:
                values.append(float(rng.choice([rng.uniform(0.05, 0.5), rng.uniform(0.5, 4.0)])))
        try:
            if f.holds(*values):
                return values
        except (ValueError, TypeError, ArithmeticError):
            continue
    return None


@pytest.mark.parametrize("name", sorted(catalogue.catalogue()))
def test_the_display_form_equals_the_formula(name):
    """Every rewriting of the printer (Phi for erfc, factored sums and squares, indicator sums as
    limits) is an identity: the displayed expression, evaluated by mpmath (Phi as mpmath's normal
    CDF, Phi^{-1} from mpmath's erfinv), agrees to 25 digits with the formula's own generated
    mpmath function at random points of its domain."""
    import numpy as np

    from dptheory.special import MPMATH_MODULES

    f = catalogue.get(name)
    shown = notation.presented(f.expr)
    phi = {"NormalCDF": mpmath.ncdf, "NormalQuantile": lambda u: mpmath.sqrt(2) * mpmath.erfinv(2 * u - 1),
           "floor": lambda x: int(mpmath.floor(x))}  # an integer: it bounds a sum
    printed_fn = sp.lambdify(f.params, shown, modules=[phi] + MPMATH_MODULES)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    checked = 0
    for _ in range(12):
        # a sum of 1000 terms at 30 digits is too slow for the default run: small integers there
        values = _point(f, rng, small=f.expr.has(sp.Sum))
        if values is None or checked == 3:
            continue
        with mpmath.workdps(30):
            try:
                exact = f.mpmath(30, check=False)(*values)
            except (ValueError, ZeroDivisionError):
                continue  # outside the expression's real domain (a binomial of a negative number)
            printed = printed_fn(*[mpmath.mpf(v) if not isinstance(v, int) else v for v in values])
            if isinstance(exact, bool):  # a condition (dptheory.comparison.conditions): the same truth
                assert bool(printed) == exact, (name, values)
                checked += 1
                continue
            if not isinstance(exact, mpmath.mpf) or not mpmath.isfinite(exact):
                continue
            assert abs(printed - exact) <= mpmath.mpf(10) ** -25 * (1 + abs(exact)), (name, values, printed, exact)
        checked += 1
    assert checked > 0, f"no point of {name}'s domain was found"


@pytest.mark.parametrize("name, expected", [
    # (n - 1 - C)(1 - alpha - alpha p) r / (1 - 2r), not r(-C + n - 1)(-alpha p - alpha + 1)
    ("variation-ratio-analytic", [r"\left(n - C - 1\right)", r"\left(1 - \alpha p - \alpha\right)"]),
    # one root: sqrt(2 C log(4/delta)), not sqrt(2) sqrt(C log(4/delta))
    ("variation-ratio-analytic", [r"\sqrt{2 C \log\left(\frac{4}{\delta}\right)}"]),
    # Theorem 4.3's v as 4(1 - 3r) / (9(1 - 2r))
    ("variation-ratio-asymptotic", [r"\frac{4 \left(1 - 3 r\right)}{9 \left(1 - 2 r\right)}"]),
    # max(0, (e^{-eps1/2} - e^{-eps2/2}) / 2), no leading minus
    ("delta-divergence-laplace", [r"\max\left(0, \frac{e^{- \epsilon_{1} / 2} - e^{- \epsilon_{2} / 2}}{2}\right)"]),
    # (v_2 - v_1^2)^{3/2}
    ("berry-esseen-gamma", [r"\left(v_{2} - v_{1}^{2}\right)^{\frac{3}{2}}"]),
    # the indicator of Proposition 4.1 as the sum's limit
    ("shuffle-fdp-prop-4.1-beta", [r"\sum_{k=0}^{\min\left(i, "]),
    # Proposition 4.1 in the paper's names: w_i, s_i and F_i defined once, beta_0 a sum over them
    ("shuffle-fdp-prop-4.1-beta", [r"\sum_{i=0}^{n - 1} \left(1 - F_{i}(s_{i} + 1)\right) w_{i}",
                                   r"s_{i} = \left\lfloor{\frac{i t - 1}{t + 1}}\right\rfloor",
                                   r"q = \frac{2}{e^{\epsilon_{0}} + 1}"]),
    ("dp-tradeoff", [r"\left(1 - \alpha - \delta\right) e^{- \epsilon}"]),
])
def test_printed_as_a_paper_prints_it(name, expected):
    text = catalogue.get(name).latex() + " ".join(catalogue.get(name).where_latex())
    for piece in expected:
        assert piece in text, (piece, text)
    assert r"\theta\left(" not in text and "erfc" not in text


def test_a_name_ending_in_underscore_is_indexed_by_its_first_argument():
    i, u = sp.symbols("i u")
    assert notation.to_latex(sp.Function("s_")(i)) == "s_{i}"
    assert notation.to_latex(sp.Function("F_")(i, u + 1)) == "F_{i}(u + 1)"
    assert notation.to_latex(sp.Function("F")(i)) == "F(i)"


def test_a_recognised_square_is_factored_with_its_larger_term_first():
    e = sp.Symbol("epsilon_0", nonnegative=True)
    lam = sp.Symbol("lambda", positive=True)
    assert notation.to_latex(lam * (sp.exp(2 * e) - 2 * sp.exp(e) + 1)) == (
        r"\lambda \left(e^{\epsilon_{0}} - 1\right)^{2}")
    assert notation.to_latex((1 - sp.exp(e)) ** 2) == r"\left(e^{\epsilon_{0}} - 1\right)^{2}"
    x = sp.Symbol("x", real=True)
    # a sign alone is not taken out of a sum
    assert notation.to_latex(-x - 1) == r"- x - 1"


def test_a_long_formula_is_broken_over_lines_inside_its_logarithm():
    """Girgis et al.'s upper bound 1 is wider than a line: it is set over several lines (multline),
    broken before a sign of the sum inside the logarithm, each line within the width; never shrunk."""
    f = catalogue.get("girgis-upper-1")
    lines = f.display_lines()
    assert len(lines) >= 2
    assert lines[0].startswith(r"\epsilon(\lambda) = \frac{1}{\lambda - 1} \log\biggl(1 + ")
    assert lines[-1].endswith(r"\biggr)") and all(line[0] in "+-" for line in lines[1:])
    assert all(notation.estimated_width(line) <= notation.DISPLAY_WIDTH for line in lines), lines
    assert f.display_lines(width=1e9) == [f.latex().replace(r"\frac{\log\left(", r"\frac{\log\left(")]


def test_estimated_width_reads_fractions_and_scripts():
    assert notation.estimated_width(r"\frac{a + b}{c}") == pytest.approx(notation.estimated_width("a + b") + 0.4)
    assert notation.estimated_width("x^{2}") == pytest.approx(1.7)
    assert notation.estimated_width(r"\sum_{i=0}^{n} x") > notation.estimated_width("x")
