"""special.py against mpmath: the inverse complementary error function at any precision, log Phi
and the Mills ratio in float64, and the error bounds the GDP profile relies on."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dptheory import special

EPS = float(np.finfo(float).eps)


@pytest.mark.parametrize("x", ["1e-300", "1e-50", "1e-10", "0.001", "0.2", "0.25", "0.5", "1", "1.5", "1.999"])
def test_mp_erfcinv_inverts_erfc_at_50_digits(x):
    with mpmath.workdps(50):
        X = mpmath.mpf(x)
        y = special.mp_erfcinv(X)
        assert abs(mpmath.erfc(y) - X) <= X * mpmath.mpf(10) ** -45


def test_mp_erfcinv_keeps_the_digits_erfinv_loses():
    with mpmath.workdps(30):
        tiny = mpmath.mpf("1e-40")
        naive = mpmath.erfinv(1 - tiny)  # 1 - 1e-40 rounds to 1 at 30 digits
        good = special.mp_erfcinv(tiny)
        assert mpmath.isinf(naive) or abs(mpmath.erfc(naive) - tiny) > tiny * 1e-3
        assert abs(mpmath.erfc(good) - tiny) <= tiny * mpmath.mpf(10) ** -25


def test_mp_erfcinv_ends_and_domain():
    assert special.mp_erfcinv(0) == mpmath.inf and special.mp_erfcinv(2) == -mpmath.inf
    with pytest.raises(ValueError, match="outside"):
        special.mp_erfcinv(2.5)


@given(st.one_of(st.floats(-40.0, 8.0), st.floats(-1e5, -40.0)))
@settings(max_examples=300, deadline=None)
def test_log_ndtr_within_its_stated_bound(x):
    with mpmath.workdps(60):
        ref = mpmath.log(mpmath.ncdf(mpmath.mpf(x)))
    got = special.log_ndtr(x)
    assert abs(got - ref) <= special.LOG_NDTR_RTOL * abs(ref), (x, got, ref)


@given(st.one_of(st.floats(0.0, 10.0), st.floats(10.0, 1e6)))
@settings(max_examples=300, deadline=None)
def test_mills_ratio_within_the_erfcx_bound(x):
    """R(x) = (1 - Phi(x)) / phi(x), from mpmath's erfc (not erfcx), for x >= 0 as the GDP
    profile uses it; the scaling by sqrt(pi/2) and x/sqrt(2) add 3 roundings."""
    with mpmath.workdps(60):
        X = mpmath.mpf(x)
        ref = mpmath.erfc(X / mpmath.sqrt(2)) / 2 / (mpmath.exp(-X * X / 2) / mpmath.sqrt(2 * mpmath.pi))
    got = special.mills(x)
    assert abs(got - ref) <= (special.ERFCX_RTOL + 3 * EPS + EPS * x) * ref, (x, got, ref)


def test_mills_is_vectorised_and_matches_the_asymptotic_series():
    x = np.array([1e3, 1e5, 1e8])
    got = special.mills(x)
    series = 1 / x - 1 / x**3 + 3 / x**5
    assert got.shape == (3,) and np.allclose(got, series, rtol=1e-12)
    assert special.mills(0.0) == pytest.approx(math.sqrt(math.pi / 2), rel=1e-15)


def test_measured_errors_leave_the_stated_margins():
    """ERFCX_RTOL and LOG_NDTR_RTOL are far above the largest error measured on a fixed sample
    (7 and 5 EPS): re-measure on it, so that a change that eats the margin fails here."""
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.uniform(0, 6, 1500), 10 ** rng.uniform(-3, 5, 1500), [2.999, 3.0, 3.001]])
    worst = 0.0
    for x in xs:
        with mpmath.workdps(40):
            X = mpmath.mpf(x)
            ref = mpmath.exp(X * X / 2) * mpmath.erfc(X / mpmath.sqrt(2)) / 2 * mpmath.sqrt(2 * mpmath.pi)
        worst = max(worst, float(abs((special.mills(x) - ref) / ref)))
    assert worst <= special.ERFCX_RTOL / 4
    xs = np.concatenate([rng.uniform(-40, 8, 1500), -(10 ** rng.uniform(0, 5, 1500)), [-3.001, -3.0, -2.999]])
    worst = 0.0
    for x in xs:
        with mpmath.workdps(40):
            ref = mpmath.log(mpmath.ncdf(mpmath.mpf(x)))
        worst = max(worst, float(abs((special.log_ndtr(x) - ref) / ref)))
    assert worst <= special.LOG_NDTR_RTOL / 16


def test_gdp_command_path_does_not_import_scipy_or_sympy():
    """The float GDP profile uses only numpy, math and mpmath (scipy.special costs 0.3-0.5 s of
    start-up; the closed-form commands answer in well under that budget without it)."""
    import subprocess
    import sys

    code = ("import sys; from dptheory.cli import main; main(['gdp', '--mu', '1', '--delta', '1e-6']); "
            "print(sorted(m for m in ('scipy', 'scipy.special', 'sympy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_log_ndtr_at_huge_arguments_is_finite():
    """x = 6.9e9 (the GDP profile at mu = 1e-10, eps = log 1/2): the exact square's low part is
    -1930 there (an ulp of x^2 is 4096) and exp(-lo) overflowed to inf * 0 = NaN."""
    x = np.array([6931471805.599453, 1e200, 1e300, -1e10])
    got = special.log_ndtr(x)
    assert np.all(got[:3] == 0.0) and got[3] == pytest.approx(-5e19, rel=1e-12)  # -x^2/2
    from dptheory.profile import gdp_log_delta

    for mu in (1e-10, 3e-113):
        assert gdp_log_delta(mu, math.log(0.5)) == pytest.approx(math.log(0.5), rel=1e-12)


def test_mills_continued_fraction_is_truncated_far_below_an_ulp():
    """The continued fraction of the Mills ratio, truncated after special._CF_TERMS terms and
    evaluated in exact (60-digit) arithmetic, is within 1e-20 of R(x) = sqrt(pi/2) erfcx(x/sqrt 2)
    (mpmath) from x = 3 on: the truncation costs nothing against the float64 rounding."""
    import mpmath

    from dptheory import special

    with mpmath.workdps(60):
        for xv in (special._CF_FROM, 3.3, 4.0, 7.0, 30.0):
            x = mpmath.mpf(xv)
            t = mpmath.mpf(0)
            for k in range(special._CF_TERMS, 0, -1):
                t = k / (x + t)
            ref = mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc(x / mpmath.sqrt(2)) * mpmath.exp(x * x / 2)
            assert abs(1 / (x + t) / ref - 1) < mpmath.mpf("1e-20"), xv
