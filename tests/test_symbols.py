"""The shared sympy symbols and the normal CDF helpers (dptheory.symbols) against mpmath."""

import mpmath
import pytest
import sympy as sp

from dptheory import symbols as S


@pytest.mark.parametrize("z", ["-40", "-3", "0", "0.5", "6"])
def test_phi_is_the_normal_cdf_at_50_digits(z):
    value = S.Phi(sp.Rational(z) if "." not in z else sp.Float(z, 60)).evalf(60)
    with mpmath.workdps(60):
        ref = mpmath.ncdf(mpmath.mpf(z))
        assert abs(mpmath.mpf(str(value)) - ref) <= ref * mpmath.mpf(10) ** -50


def test_phi_inv_inverts_phi():
    u = sp.Symbol("u", positive=True)
    assert sp.simplify(S.Phi(S.Phi_inv(u)) - u) == 0
    # numerically, through the mpmath modules the formulas are generated with
    from dptheory.special import MPMATH_MODULES

    quantile = sp.lambdify(u, S.Phi_inv(u), modules=MPMATH_MODULES)
    with mpmath.workdps(50):
        for z in ("-30", "-7.5", "-1.25", "0.3", "4"):
            assert abs(quantile(mpmath.ncdf(mpmath.mpf(z))) - mpmath.mpf(z)) < mpmath.mpf(10) ** -40


def test_assumptions_are_those_the_papers_make():
    assert S.n.is_integer and S.n.is_positive
    assert S.eps.is_real and S.eps.is_positive is None  # profiles take negative epsilon too
    assert S.eps0.is_nonnegative and S.delta.is_positive and S.lam.is_positive
