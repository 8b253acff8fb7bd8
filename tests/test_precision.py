"""precision.py against mpmath at 50 digits, and the evidence for every routine kept hand-written:
each ``..._is_kept_because_...`` test measures the library's counterpart on the same points.

Independent references: mpmath closed forms (log-gamma, log1p), exact sums of pmf terms at small
n, and the regularized incomplete beta integral by tanh-sinh quadrature (``_mp_log_beta_integral``),
which shares nothing with the continued fractions of precision.py.
"""

import math
import warnings

import mpmath
import numpy as np
import pytest
from scipy import special, stats

from dptheory import precision as pr

DPS = 50


# ---------------------------------------------------------------------------
# independent references


def _mp_logpmf(k, n, p):
    k, n, p = mpmath.mpf(k), mpmath.mpf(n), mpmath.mpf(p)
    return (mpmath.loggamma(n + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(n - k + 1)
            + k * mpmath.log(p) + (n - k) * mpmath.log1p(-p))


def _mp_log_beta_integral(a, b, lo, hi):
    """log of the integral of t^(a-1) (1-t)^(b-1) / B(a, b) over [lo, hi] by quadrature,
    split at points around the mode and, when the mode is outside, around the peak end."""
    a, b, lo, hi = (mpmath.mpf(v) for v in (a, b, lo, hi))

    def logg(t):
        out = mpmath.mpf(0)
        if a != 1:
            out += (a - 1) * mpmath.log(t)
        if b != 1:
            out += (b - 1) * mpmath.log1p(-t)
        return out

    mode = (a - 1) / (a + b - 2) if a + b > 2 else mpmath.mpf(1) / 2
    sig = mpmath.sqrt(mode * (1 - mode) / (a + b)) if 0 < mode < 1 else 1 / (a + b)
    peak = min(max(mode, lo), hi)
    pts = {lo, hi}
    pts.update(t for c in (-200, -60, -20, -6, -2, 0, 2, 6, 20, 60, 200)
               for t in [mode + c * sig] if lo < t < hi)
    if not lo < mode < hi:
        slope = abs((a - 1) / peak - (b - 1) / (1 - peak))
        w = 1 / slope if slope > 0 else sig
        sign = -1 if peak == hi else 1
        pts.update(t for c in (1, 3, 10, 30, 100, 300) for t in [peak + sign * c * w] if lo < t < hi)
    pts = sorted(pts)
    l0 = logg(peak)

    def f(t):
        return mpmath.exp(logg(t) - l0) if 0 < t < 1 else mpmath.mpf(0)

    total = mpmath.fsum(mpmath.quad(f, [u, v]) for u, v in zip(pts[:-1], pts[1:]))
    return mpmath.log(total) + l0 - (mpmath.loggamma(a) + mpmath.loggamma(b) - mpmath.loggamma(a + b))


def _quad_logsf(k, n, p):
    """log P[Bin(n, p) >= k] = log I_p(k, n - k + 1), 1 <= k <= n."""
    return _mp_log_beta_integral(k, n - k + 1, 0, p)


def _quad_logcdf(k, n, p):
    """log P[Bin(n, p) <= k] = log of the integral of the same density over [p, 1], 0 <= k < n."""
    return _mp_log_beta_integral(k + 1, n - k, p, 1)


def _threshold(n, p, z):
    return min(max(math.ceil(n * p + z * math.sqrt(n * p * (1 - p))), 1), int(n))


# ---------------------------------------------------------------------------
# log-space arithmetic


def test_log1mexp_and_logsubexp_against_mpmath():
    xs = np.array([-1e-20, -1e-10, -0.3, -0.69, -0.7, -5.0, -50.0, -800.0])
    with mpmath.workdps(DPS):
        ref = [float(mpmath.log(-mpmath.expm1(mpmath.mpf(x)))) for x in xs]
    assert np.allclose(pr.log1mexp(xs), ref, rtol=1e-15, atol=0)
    assert pr.logsubexp(3.0, 3.0) == -math.inf
    assert pr.logsubexp(3.0, -math.inf) == 3.0
    assert math.isclose(pr.logsubexp(math.log(5.0), math.log(2.0)), math.log(3.0), rel_tol=1e-15)


def test_log1mexp_is_kept_because_scipy_logsumexp_cancels():
    # the library's log(1 - e^x): logsumexp([0, x], b=[1, -1])
    def scipy_way(x):
        return float(special.logsumexp([0.0, x], b=[1.0, -1.0]))

    with mpmath.workdps(DPS):
        ref = {x: float(mpmath.log(-mpmath.expm1(mpmath.mpf(x)))) for x in (-1e-20, -1e-10)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert scipy_way(-1e-20) == -math.inf           # truth -46.05
        assert abs(scipy_way(-1e-10) / ref[-1e-10] - 1) > 1e-9
    for x, r in ref.items():
        assert abs(pr.log1mexp(x) / r - 1) < 1e-15


def test_logsumexp_and_logaddexp_against_mpmath():
    vals = np.array([-1000.0, -1000.5, -2.0, 3.0, 3.0 - 1e-12, -np.inf])
    with mpmath.workdps(DPS):
        ref = float(mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(v)) for v in vals)))
        ref2 = float(mpmath.log(mpmath.exp(-1000) + mpmath.exp(-1000.5)))
    assert abs(pr.logsumexp(vals) - ref) <= 4e-16 * abs(ref)
    assert abs(pr.logaddexp(-1000.0, -1000.5) - ref2) <= 4e-16 * abs(ref2)
    assert pr.logsumexp([]) == -math.inf
    assert pr.logsumexp([-np.inf, -np.inf]) == -math.inf
    cols = pr.logsumexp(np.array([[0.0, -np.inf], [0.0, -np.inf]]), axis=0)
    assert cols[0] == pytest.approx(math.log(2.0), rel=1e-15) and cols[1] == -math.inf


# ---------------------------------------------------------------------------
# binomial log pmf


@pytest.mark.parametrize("k,n,p", [
    (3, 10, 0.3), (500, 1000, 0.5), (0, 10**6, 1e-3), (10**6, 10**6, 0.999),
    (700_000, 10**6, 0.5), (1, 10**12, 1e-12), (4 * 10**11, 10**12, 0.4), (17, 40, 0.9),
    (0, 10**15, 1e-12), (10**15, 10**15, 1 - 1e-12), (10**15 - 1000, 10**15, 1 - 1e-12),
])
def test_binom_logpmf_against_mpmath(k, n, p):
    with mpmath.workdps(DPS):
        ref = float(_mp_logpmf(k, n, p))
    got = pr.binom_logpmf(k, n, p)
    assert abs(got - ref) <= 4e-16 * max(1.0, abs(ref)) + float(pr.binom_tail_rtol(n)) / 5


def test_binom_logpmf_outside_support():
    assert pr.binom_logpmf(-1, 5, 0.3) == -math.inf
    assert pr.binom_logpmf(6, 5, 0.3) == -math.inf
    assert pr.binom_logpmf(0, 5, 0.0) == 0.0


def test_binom_logpmf_is_kept_because_scipy_loses_accuracy():
    """scipy.stats.binom.logpmf (gammaln differences) loses every digit at n = 1e15; Boost's pmf
    is less accurate than Loader's form from n = 1e6 on and 0 below 1e-308."""
    ours, gam, boost = {}, {}, {}
    for n in (1e6, 1e8, 1e12, 1e15):
        for p in (0.5, 0.9, 1e-6):
            for z in (-10, -3, 0.5, 3, 10):
                k = _threshold(n, p, z)
                with mpmath.workdps(DPS):
                    ref = float(_mp_logpmf(k, n, p))
                ours[n] = max(ours.get(n, 0.0), abs(pr.binom_logpmf(k, n, p) - ref))
                gam[n] = max(gam.get(n, 0.0), abs(stats.binom.logpmf(k, n, p) - ref))
                boost[n] = max(boost.get(n, 0.0), abs(math.log(stats.binom.pmf(k, n, p)) - ref))
    assert gam[1e12] > 1e-4 and gam[1e15] > 0.1
    for n in ours:
        assert ours[n] <= float(pr.binom_tail_rtol(n)) / 5
        assert boost[n] > 1.5 * ours[n]
    # 40 standard deviations out: Boost's pmf underflows, the log-pmf is what the tails need
    assert stats.binom.pmf(7000, 10**4, 0.5) == 0.0
    with mpmath.workdps(DPS):
        ref = float(_mp_logpmf(7000, 10**4, 0.5))
    assert abs(pr.binom_logpmf(7000, 10**4, 0.5) - ref) <= float(pr.binom_tail_rtol(1e4)) / 5


# ---------------------------------------------------------------------------
# binomial tails, float64


def test_bdtr_bdtrc_lose_accuracy_at_large_n():
    """Why binom_sf/binom_cdf use betainc/betaincc and not bdtrc/bdtr."""
    n, p, k = 10**8, 0.5, 5 * 10**7
    with mpmath.workdps(DPS):
        ref_sf = float(pr.mp_binom_sf(k + 1, n, p))       # P[X > k]
        ref_cdf = float(pr.mp_binom_cdf(k, n, p))
    tol = float(pr.binom_tail_rtol(n))
    assert abs(special.bdtrc(k, n, p) / ref_sf - 1) > 1e3 * tol
    assert abs(special.bdtr(k, n, p) / ref_cdf - 1) > 1e3 * tol
    assert math.isnan(special.bdtrc(5 * 10**9, 10**10, 0.5))
    assert abs(pr.binom_sf(k + 1, n, p) / ref_sf - 1) <= tol / 5
    assert abs(pr.binom_cdf(k, n, p) / ref_cdf - 1) <= tol / 5


def test_library_tails_underflow_where_the_log_tail_is_needed():
    # P[Bin(1e4, 1/2) >= 7000], 40 standard deviations out, is about e^-827
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert stats.binom.logsf(6999, 10**4, 0.5) == -math.inf
        assert stats.binom.logcdf(3000, 10**4, 0.5) == -math.inf
    with mpmath.workdps(DPS):
        ref = float(_quad_logsf(7000, 10**4, 0.5))
    got = pr.binom_logsf(7000, 10**4, 0.5)
    assert ref < -800 and abs(got - ref) <= float(pr.binom_tail_rtol(1e4)) / 5
    got = pr.binom_logcdf(3000, 10**4, 0.5)
    assert abs(got - ref) <= float(pr.binom_tail_rtol(1e4)) / 5


@pytest.mark.parametrize("k,n,p", [
    (0, 1e15, 1e-12),      # lower tail = q^n = e^-1000: was 2e-2 off in the log, 2e-5 with the
                           # continued fraction in x = 1 - p alone
    (0, 1e10, 1e-12),      # was 2e-7 off (55 times the bound)
    (0, 1e8, 1e-6),        # was 3e-9 off (7 times the bound)
    (6000, 1e10, 1e-6),    # 40 sd below the mean: was 1e-7 off (29 times the bound)
    (970, 1e15, 1e-12),
])
def test_binom_logcdf_with_small_p(k, n, p):
    """log P[Bin(n, p) <= k] used to go through 1 - (1 - p), losing p's digits."""
    with mpmath.workdps(DPS):
        ref = float(_quad_logcdf(k, n, p))
    got = pr.binom_logcdf(k, n, p)
    assert abs(got - ref) <= float(pr.binom_tail_rtol(n)) / 5


@pytest.mark.parametrize("k,n,p", [
    (10**15, 1e15, 1 - 1e-12), (10**15 - 900, 1e15, 1 - 1e-12), (10**10, 1e10, 1 - 1e-12),
])
def test_tail_far_below_float_range_with_p_close_to_1(k, n, p):
    """The far upper tail at p = 1 - 1e-12 depends on q = 1 - p to full relative precision (a
    guard: the continued fraction is fed x = p and y = 1 - p, both exact here)."""
    with mpmath.workdps(DPS):
        ref = float(_quad_logsf(k, n, p))
    got = pr.binom_logsf(k, n, p)
    assert abs(got - ref) <= float(pr.binom_tail_rtol(n)) / 5
    # the same tail as a lower tail of Bin(n, 1 - p)
    got = pr.binom_logcdf(n - k, n, 1 - p)
    assert abs(got - ref) <= float(pr.binom_tail_rtol(n)) / 5


def test_far_tail_below_float_range_is_returned_as_a_log():
    with mpmath.workdps(DPS):
        ref = float(_quad_logsf(999, 1000, 0.5))
    got = pr.binom_logsf(999, 1000, 0.5)
    assert ref < -680
    assert abs(got - ref) < 1e-13 * abs(ref)


def _tail_errors(ns, ps, zs):
    """Largest error / binom_tail_rtol(n) of every float tail function on a grid, against the
    mpmath continued fraction at 50 digits (itself checked against quadrature below)."""
    worst = {}
    for n in ns:
        tol = float(pr.binom_tail_rtol(n))
        for p in ps:
            for z in zs:
                k = _threshold(n, p, z)
                with mpmath.workdps(DPS):
                    sf = pr.mp_binom_sf(k, n, p)
                    cdf = pr.mp_binom_cdf(k - 1, n, p)
                    lpmf = _mp_logpmf(k, n, p)
                    lsf, lcdf = float(mpmath.log(sf)), float(mpmath.log(cdf)) if cdf > 0 else -math.inf
                    lmills = float(mpmath.log(sf) - lpmf)
                    lpmf = float(lpmf)
                errs = {}
                got = pr.binom_logsf(k, n, p)
                errs["logsf"] = abs(got - lsf)
                if lcdf > -math.inf:
                    got = pr.binom_logcdf(k - 1, n, p)
                    errs["logcdf"] = abs(got - lcdf)
                errs["logpmf"] = abs(pr.binom_logpmf(k, n, p) - lpmf)
                lr, rel = pr.binom_log_mills(k, n, p)
                errs["log_mills"] = abs(float(lr) - lmills)
                assert float(rel) == tol
                if sf > 1e-300:
                    errs["sf"] = abs(pr.binom_sf(k, n, p) / float(sf) - 1)
                if cdf > 1e-300:
                    errs["cdf"] = abs(pr.binom_cdf(k - 1, n, p) / float(cdf) - 1)
                for name, e in errs.items():
                    if e / tol > worst.get(name, (0.0,))[0]:
                        worst[name] = (e / tol, n, p, z)
    return worst


def test_binom_tails_within_documented_error():
    """binom_tail_rtol promises a 5-fold margin over the errors observed: check it."""
    worst = _tail_errors((10, 1e3, 1e4, 1e8, 1e12, 1e15), (1e-12, 1e-6, 0.1, 0.5, 1 - 1e-6, 1 - 1e-12),
                         (-40, -3, 0.5, 6, 40))
    assert worst and max(w[0] for w in worst.values()) <= 0.2, worst


@pytest.mark.parametrize("n,p,z", [
    (1e3, 0.5, -20),        # the upper tail is 1 - 1e-96: the span around the mode, not to p
    (1e15, 1e-12, 12),      # its lower tail is 1 - 4e-30, integrated in v = 1 - t near t = 1
    (1e15, 1 - 1e-9, 7),    # nodes next to p count 1 - t from q as held
    (3e4, 0.03, 12),
    (3e4, 0.999, -20),
    (3, 0.5, 0), (3, 0.03, 5), (64, 0.03, -0.3),  # spans narrower than the float spacing at 0
    (97, 0.3, 1), (98, 0.3, 1),  # 48 nodes integrate the polynomial exactly up to n = 97
])
def test_binom_tails_by_quadrature_where_it_was_hard(n, p, z):
    """Points where drafts of the quadrature (dptheory.precision._quadrature_log_tail) erred by up
    to 1e6 times binom_tail_rtol: wide spans, 1 - t formed near 1, float-spaced spans."""
    worst = _tail_errors((n,), (p,), (z,))
    assert max(w[0] for w in worst.values()) <= 0.2, worst


@pytest.mark.parametrize("k,n,p", [
    (71, 99, 5.148200222412013e-131),  # the region [q, 1] with q rounded to 1 (eps0 = 300)
    (2, 10, 1e-200), (2, 1e12, 1e-290), (3, 10, 1e-320), (2, 5, 5e-324), (40, 1e6, 1e-315),
])
def test_binom_tails_with_p_at_the_bottom_of_the_float_range(k, n, p):
    """Both tails where p (or 1 - p, in the lower tail of n - X) is tiny or subnormal: finite, and
    within binom_tail_rtol of mpmath (a draft of the quadrature divided by zero at the first
    and returned -inf at the fifth)."""
    tol = float(pr.binom_tail_rtol(n)) / 5
    with mpmath.workdps(DPS):
        upper = float(mpmath.log(pr.mp_binom_sf(k, int(n), p)))
        lower = float(mpmath.log1p(-pr.mp_binom_sf(k, int(n), p)))
    assert abs(pr.binom_logsf(k, n, p) - upper) <= tol * max(1.0, abs(upper) / 800)
    assert abs(pr.binom_logcdf(k - 1, n, p) - lower) <= tol


def test_gauss_legendre_against_mpmath():
    """The nodes and weights of the tails' quadrature, against Legendre roots found by mpmath at 30
    digits (numpy's leggauss, 1e-12 off in the weights at 48 nodes, would use 5% of the tails'
    error bound)."""
    x, w = pr.gauss_legendre(pr._GL_NODES)
    order = np.argsort(x)
    x, w = x[order], w[order]
    m = len(x)
    assert m == 48 and np.all(w > 0) and abs(w.sum() - 2) < 1e-14
    with mpmath.workdps(30):
        for xi, wi in zip(x[m // 2:], w[m // 2:]):  # the rule is symmetric: the positive half
            root = mpmath.findroot(lambda t: mpmath.legendre(m, t), mpmath.mpf(xi))
            slope = mpmath.diff(lambda t: mpmath.legendre(m, t), root)
            weight = 2 / ((1 - root**2) * slope**2)
            assert abs(xi - float(root)) <= 2e-16
            assert abs(wi / float(weight) - 1) < 1e-13
    assert np.allclose(x[: m // 2], -x[m // 2:][::-1], rtol=0, atol=2e-16)


@pytest.mark.slow
def test_binom_tails_within_documented_error_full_grid():
    worst = _tail_errors((1, 2, 5, 10, 30, 100, 1e3, 1e4, 1e6, 1e8, 1e10, 1e12, 1e15),
                         (1e-12, 1e-6, 1e-3, 0.1, 0.5, 0.9, 1 - 1e-6, 1 - 1e-12),
                         (-40, -20, -10, -3, -1, 0, 0.5, 1, 3, 6, 10, 20, 40))
    assert max(w[0] for w in worst.values()) <= 0.2, worst


# ---------------------------------------------------------------------------
# binomial tails, mpmath


def test_mp_tail_continued_fraction_matches_direct_sum():
    # n = 2500 uses the continued fraction; the direct sum is an independent computation
    n, p = 2500, 0.37
    with mpmath.workdps(40):
        for k in (900, 1000, 1100):
            direct = mpmath.fsum(pr.mp_binom_pmf(j, n, p) for j in range(k, n + 1))
            assert abs(pr.mp_binom_sf(k, n, p) - direct) <= direct * mpmath.mpf(10) ** -35
            lower = mpmath.fsum(pr.mp_binom_pmf(j, n, p) for j in range(0, k + 1))
            assert abs(pr.mp_binom_cdf(k, n, p) - lower) <= lower * mpmath.mpf(10) ** -35


@pytest.mark.parametrize("n,p,z", [
    (1e3, 0.5, 3), (1e6, 0.1, 40), (1e12, 0.5, 2), (1e12, 0.1, -40), (1e15, 1e-12, 40),
    (1e15, 1 - 1e-12, -5), (1e15, 0.5, -3),
])
def test_mp_tails_agree_with_quadrature(n, p, z):
    k = _threshold(n, p, z)
    with mpmath.workdps(DPS):
        sf = mpmath.log(pr.mp_binom_sf(k, n, p))
        cdf = mpmath.log(pr.mp_binom_cdf(k - 1, n, p))
        assert abs(sf - _quad_logsf(k, n, p)) < mpmath.mpf(10) ** -30
        assert abs(cdf - _quad_logcdf(k - 1, n, p)) < mpmath.mpf(10) ** -30


def test_mp_tails_are_kept_because_mpmath_betainc_fails():
    n, p = 10**6, 0.1
    k = _threshold(n, p, 40)
    with mpmath.workdps(DPS):
        with pytest.raises(mpmath.libmp.NoConvergence):
            mpmath.betainc(k, n - k + 1, 0, p, regularized=True)
        assert abs(mpmath.log(pr.mp_binom_sf(k, n, p)) - _quad_logsf(k, n, p)) < mpmath.mpf(10) ** -30


# ---------------------------------------------------------------------------
# adaptive mpmath precision


def _cancelling():
    return (1 + mpmath.mpf(10) ** -40) - 1


def test_mp_adaptive_recovers_cancelled_digits():
    # (1 + 1e-40) - 1 needs more than 40 digits of working precision
    val = pr.mp_adaptive(_cancelling, 20)
    assert abs(val / mpmath.mpf(10) ** -40 - 1) < mpmath.mpf(10) ** -19


def test_mp_adaptive_is_kept_because_autoprec_is_fooled():
    with mpmath.workdps(20):
        assert mpmath.autoprec(_cancelling)() == 0


def test_logsumexp_equals_scipys():
    """Our logsumexp (scipy's costs 4x per call on the count-pair sums) against scipy's, on random
    arrays with ties, -inf, +inf and NaN, both axis=None and axis=0."""
    rng = np.random.default_rng(7)
    for _ in range(1500):
        a = rng.normal(0, 10 ** rng.uniform(-3, 3), size=(rng.integers(1, 6), rng.integers(1, 7)))
        for value, share in ((-np.inf, 0.3), (np.inf, 0.05), (np.nan, 0.05)):
            if rng.random() < share:
                a[rng.random(a.shape) < 0.3] = value
        if rng.random() < 0.1:
            a = np.round(a)  # ties at the maximum
        for axis in (None, 0):
            with np.errstate(all="ignore"):
                ref = np.asarray(special.logsumexp(a, axis=axis))
            got = np.asarray(pr.logsumexp(a, axis=axis))
            assert got.shape == ref.shape
            finite = np.isfinite(ref)
            assert np.array_equal(np.isnan(got), np.isnan(ref)) and np.array_equal(got[np.isinf(ref)], ref[np.isinf(ref)])
            assert np.all(np.abs(got[finite] - ref[finite]) <= 4e-16 * np.maximum(np.abs(ref[finite]), 1e-300))


def test_nearest_float_rounds_to_nearest_in_every_range():
    """precision.nearest_float against Python's exact rational rounding (tests/oracles/nearest):
    random values in the normal and subnormal ranges, and values within 2^-70 of the midpoints
    between floats (where ``float(mpf)`` rounds twice in the subnormal range)."""
    from tests.oracles.nearest import nearest

    rng = np.random.default_rng(5)
    with mpmath.workdps(60):
        values = [mpmath.mpf(10) ** mpmath.mpf(float(x)) for x in rng.uniform(-323.9, 300, 400)]
        for k in (0, 1, 2, 3, 1000, 2**52 - 1):  # midpoints of the subnormal grid, and just off them
            mid = (2 * k + 1) * mpmath.mpf(2) ** -1075
            values += [mid, mid * (1 + mpmath.mpf(2) ** -70), mid * (1 - mpmath.mpf(2) ** -70)]
        for x in rng.uniform(0.5, 2.0, 50):  # midpoints of the normal grid
            mid = (mpmath.mpf(float(x)) + mpmath.mpf(math.nextafter(float(x), 2))) / 2
            values += [mid, mid * (1 + mpmath.mpf(2) ** -80), mid * (1 - mpmath.mpf(2) ** -80)]
        assert all(pr.nearest_float(v) == nearest(v) for v in values)
        assert pr.nearest_float(mpmath.mpf(2) ** -1075 * (1 + mpmath.mpf(2) ** -60)) == 5e-324
        assert float(mpmath.mpf(2) ** -1075 * (1 + mpmath.mpf(2) ** -60)) == 0.0  # why it is written


def test_nearest_from_log_enclosure_decides_only_below_the_normal_range():
    """Where it answers, the answer is the float nearest to every value of the enclosure."""
    from tests.oracles.nearest import nearest

    rng = np.random.default_rng(6)
    logs = rng.uniform(-760, -600, 500)
    widths = 10.0 ** rng.uniform(-16, -8, 500)
    got = pr.nearest_from_log_enclosure(logs - widths, logs + widths)
    with mpmath.workdps(40):
        for lg, w, g in zip(logs, widths, got):
            ends = {nearest(mpmath.exp(mpmath.mpf(lg) - mpmath.mpf(w))), nearest(mpmath.exp(mpmath.mpf(lg) + mpmath.mpf(w)))}
            if not math.isnan(g):
                assert ends == {g}
    assert np.all(np.isnan(got[logs > -700]))  # the normal range is left to mpmath
    assert np.sum(~np.isnan(got)) > 50 and np.any(got == 0.0)


def test_mp_nearest_detects_cancellation():
    """1 - (1 - 1e-30) computed at 20 digits is 0: the two precisions disagree, the digits grow,
    and the answer is the float nearest 1e-30."""
    assert pr.mp_nearest(lambda: 1 - (1 - mpmath.mpf(10) ** -30), 20) == 1e-30
