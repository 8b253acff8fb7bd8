"""PLRV moments (Kaissis et al. 2024, eqs. (8)-(12)), Theorem 3 and its erratum, Lemma 6."""

import dataclasses
import math

import mpmath
import pytest

from dptheory.comparison import parse_mechanism, plrv
from dptheory.comparison.divergence import delta_divergence
from dptheory.results import Inapplicable, Kind, Result, Status
from dptheory.validate import DomainError


@pytest.fixture(autouse=True)
def _mpmath_digits():
    """mpmath precision for this module's oracles, restored afterwards (it is global state)."""
    with mpmath.workdps(30):
        yield


def within(res, value, slack=0.0):
    return res.lower - slack <= value <= res.upper + slack


def functionals(pieces, kinks=()):
    """v1..v4 from their definitions (9)-(12) as integrals over alpha of t = log|f'(alpha)|, by
    mpmath quadrature; ``pieces`` = [(a0, a1, t(alpha))], each split at the ``kinks`` (the alphas
    where t = 0 or t = -v1, where |.|^3 has a kink)."""

    def integral(fn):
        return mpmath.fsum(mpmath.quad(lambda a: fn(t(a)), [a0] + sorted(k for k in kinks if a0 < k < a1) + [a1])
                           for a0, a1, t in pieces)

    v1 = -integral(lambda t: t)
    return [v1, integral(lambda t: t * t), integral(lambda t: abs(t + v1) ** 3), integral(lambda t: abs(t) ** 3)]


def test_gaussian_moments_against_the_definitions():
    mu = mpmath.mpf("1.3")
    t = lambda a: mu * mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - mu**2 / 2  # noqa: E731  log|G_mu'|
    ref = functionals([(0, mpmath.mpf(1) / 2, t), (mpmath.mpf(1) / 2, 1, t)], kinks=[mpmath.ncdf(-mu / 2)])
    m = plrv.gaussian_moments(1.3)
    for res, v in zip((m.v1, m.v2, m.v3, m.v4), ref):
        assert within(res, float(v))
    assert within(m.eta, 0.65)
    assert within(plrv.gaussian_moments(1.0).v4, 2.2065469696, 1e-10)  # digest §1.9


def test_laplace_moments_against_the_definitions_and_digest():
    e = mpmath.mpf(1)
    lo, mid = mpmath.exp(-e) / 2, mpmath.mpf(1) / 2
    v1 = e - 1 + mpmath.exp(-e)
    kinks = [mpmath.exp(-(c + e + mpmath.log(4)) / 2) for c in (0, -v1)]  # t(alpha) = 0 and t = -v1
    ref = functionals([(0, lo, lambda a: e), (lo, mid, lambda a: -e - mpmath.log(4) - 2 * mpmath.log(a)),
                       (mid, 1, lambda a: -e)], kinks)
    m = plrv.laplace_moments(1.0)
    for res, v in zip((m.v1, m.v2, m.v3, m.v4), ref):
        assert within(res, float(v))
    for res, v in zip((m.v1, m.v2, m.v3, m.v4, m.eta), (0.3678794412, 0.7927233530, 0.6993476544, 0.7661734606, 0.4537269847)):
        assert abs(0.5 * (res.lower + res.upper) - v) < 1e-9  # digest §1.9


@pytest.mark.parametrize("eps,k", [(1.0, 2), (0.3, 2), (2.0, 3), (1.0, 5)])
def test_rr_moments(eps, k):
    """X = -eps w.p. e^eps/z, +eps w.p. 1/z, 0 w.p. (k-2)/z, z = e^eps + k - 1."""
    E = mpmath.exp(eps)
    z = E + k - 1
    atoms = [(-mpmath.mpf(eps), E / z), (mpmath.mpf(eps), 1 / z), (mpmath.mpf(0), (k - 2) / z)]
    mean = mpmath.fsum(w * x for x, w in atoms)
    ref = [-mean, mpmath.fsum(w * x * x for x, w in atoms), mpmath.fsum(w * abs(x - mean) ** 3 for x, w in atoms),
           mpmath.fsum(w * abs(x) ** 3 for x, w in atoms)]
    m = plrv.rr_moments(eps, k)
    for res, v in zip((m.v1, m.v2, m.v3, m.v4), ref):
        assert within(res, float(v))
    if k == 2:
        assert within(m.eta, math.sinh(eps / 2), 1e-12)


def test_sgm_moments_match_the_digest():
    """Digest §4.4 (40-digit quadrature by the digest author): remove orientation, p = 9e-4."""
    m2 = plrv.sgm_moments(2.0, 9e-4)
    m3 = plrv.sgm_moments(3.0, 9e-4)
    for m, v1, v2, v3, eta, std3 in ((m2, 1.149660e-7, 2.298679e-7, 2.568753e-10, 2.3978964e-4, 2.33080),
                                     (m3, 4.758477e-8, 9.515910e-8, 5.576177e-11, 1.5425627e-4, 1.89960)):
        for res, v in ((m.v1, v1), (m.v2, v2), (m.v3, v3), (m.eta, eta)):
            assert abs(res.lower / v - 1) < 5e-7
        assert abs(m.v3.lower / m.variance[0] ** 1.5 / std3 - 1) < 5e-5
        assert not m.symmetric


def test_theorem3_two_gaussians():
    """Digest §5.3: for Gaussians gamma = 0.8936307081/sqrt(N), and the exact Delta is 0 under the
    precondition: the bound holds and is loose."""
    a, b = plrv.gaussian_moments(0.02), plrv.gaussian_moments(0.01)
    res = plrv.theorem3(a, 100, b, 100)
    assert isinstance(res, Result) and res.kind is Kind.UPPER and res.status is Status.PROVEN
    assert abs(res.upper - 0.8936307081 * 2 / 10) < 1e-8
    exact = delta_divergence(parse_mechanism("gaussian(mu=0.02)^100").tradeoff(),
                             parse_mechanism("gaussian(mu=0.01)^100").tradeoff())
    assert exact.upper == 0.0 and exact.upper <= res.upper


@pytest.mark.parametrize("e1,n1,e2,n2", [(0.3, 50, 0.2, 100), (0.2, 200, 0.25, 100), (0.1, 400, 0.1, 300)])
def test_theorem3_against_exact_composed_rr(e1, n1, e2, n2):
    """Bound (14) (or its precondition-free form) >= the exact Delta between the composed
    randomized responses (exact piecewise-linear curves of the T-fold product pmfs)."""
    m1, m2 = plrv.rr_moments(e1), plrv.rr_moments(e2)
    exact = delta_divergence(parse_mechanism(f"rr(eps={e1})^{n1}").tradeoff(),
                             parse_mechanism(f"rr(eps={e2})^{n2}").tradeoff())
    general = plrv.theorem3_generalised(m1, n1, m2, n2)
    assert isinstance(general, Result) and exact.upper <= general.upper
    main = plrv.theorem3(m1, n1, m2, n2)
    holds = n1 * math.sinh(e1 / 2) ** 2 >= n2 * math.sinh(e2 / 2) ** 2
    if holds:
        assert isinstance(main, Result) and exact.upper <= main.upper
        assert abs(general.upper - main.upper) < 1e-12
    else:
        assert isinstance(main, Inapplicable) and "precondition" in main.reason


def test_theorem3_appendix_hypothesis_is_refuted():
    """Digest §6 item 1: the appendix's N/N~ >= eta^2/eta~^2 holds for G_0.01^(x)1e4 against
    G_0.02^(x)1e4, yet the exact Delta(G_1 || G_2) = Phi(-1/2) - Phi(-1) = 0.1499 exceeds the bound
    0.018; the main-text hypothesis rejects this pair."""
    a, b = plrv.gaussian_moments(0.01), plrv.gaussian_moments(0.02)
    printed = plrv.theorem3_appendix(a, 10**4, b, 10**4)
    assert isinstance(printed, Result) and printed.status is Status.REFUTED
    exact = float(mpmath.ncdf(-0.5) - mpmath.ncdf(-1))
    assert within(delta_divergence(parse_mechanism("gaussian(mu=0.01)^10000").tradeoff(),
                                   parse_mechanism("gaussian(mu=0.02)^10000").tradeoff()), exact, 1e-12)
    assert printed.upper < exact
    assert isinstance(plrv.theorem3(a, 10**4, b, 10**4), Inapplicable)
    general = plrv.theorem3_generalised(a, 10**4, b, 10**4)
    assert general.upper >= exact


def test_theorem3_hypotheses_reported():
    big = plrv.rr_moments(3.0)  # gamma = 0.56 (1 + t^2)/sqrt(1 - t^2) > 1/2 at N = 1
    res = plrv.theorem3(big, 1, plrv.rr_moments(1.0), 1)
    assert isinstance(res, Inapplicable) and "gamma" in res.reason
    asym = plrv.Moments(*(plrv.rr_moments(1.0).__dict__[k] for k in ("v1", "v2", "v3", "v4")), mechanism="x",
                        symmetric=False)
    assert "symmetric" in plrv.theorem3(asym, 100, plrv.rr_moments(0.5), 100).reason
    # every valid input ends in a Result or an Inapplicable with its reason (they raised)
    for first, second in (("gaussian(mu=0)", "gaussian(mu=1)"), ("rr(eps=0)", "rr(eps=1)"), ("pp()", "laplace(eps=1)"),
                          ("bnp()", "gaussian(mu=1)"), ("shuffle(eps0=1, n=50)", "gaussian(mu=1)"),
                          ("sgm(sigma=1, p=0.1)", "gaussian(mu=0.1)")):
        out = plrv.compare_compositions(first, 4, second, 4)
        assert isinstance(out["theorem3"], Inapplicable) and out["theorem3"].reason
        assert isinstance(out["theorem3_generalised"], Inapplicable)
        assert isinstance(out["exact"], Result)
    # two identical Gaussians: the precondition N eta^2 >= N eta^2 holds (it was "undecided")
    same = plrv.compare_compositions("gaussian(mu=1)", 10, "gaussian(mu=1)", 10)
    assert isinstance(same["theorem3"], Result) and same["exact"].upper == 0.0
    # p = 1 is the Gaussian mechanism (sgm_moments rejected it)
    assert isinstance(plrv.compare_compositions("sgm(sigma=1, p=1)", 10, "gaussian(mu=0.5)", 10)["theorem3"], Result)
    with pytest.raises(DomainError, match="N"):
        plrv.theorem3(big, 0, big, 1)
    with pytest.raises(DomainError, match="N"):
        plrv.theorem3(big, 1.5, big, 1)


def test_theorem3_tightness_example_digest_reading():
    """Section 5's example (sigma = 2, 3; p = 9e-4; N = 1.4e6, 3.4e6), read as the digest does
    (remove orientation): the main-text precondition fails (N/N~ = 0.41176 < eta~^2/eta^2 =
    0.41383); gamma + gamma~ = 1.680e-3, not the paper's "< 1e-3" (digest §4.4). Through the
    public path: the one-orientation curve is not symmetric, so Theorem 3 itself is not
    applicable to it (no bypass)."""
    m, mt = plrv.sgm_moments(2.0, 9e-4), plrv.sgm_moments(3.0, 9e-4)
    N, Nt = 1_400_000, 3_400_000
    assert abs((mt.eta.lower / m.eta.lower) ** 2 - 0.4138327) < 1e-6
    assert N / Nt < (mt.eta.lower / m.eta.upper) ** 2          # the precondition fails
    g, gt = plrv.berry_esseen_gamma(m, N), plrv.berry_esseen_gamma(mt, Nt)
    assert abs(g - 1.1031e-3) < 1e-7 and abs(gt - 5.769e-4) < 1e-7
    assert abs(g + gt - 1.680e-3) < 1e-6 and g + gt > 1e-3
    surrogate = float(mpmath.ncdf(-math.sqrt(N) * m.eta.lower) - mpmath.ncdf(-math.sqrt(Nt) * mt.eta.upper))
    assert abs(surrogate - 2.727e-4) < 1e-6                       # Phi(-mu/2) - Phi(-mu~/2), digest §4.4
    assert abs(g + gt + surrogate - 1.953e-3) < 2e-6              # the precondition-free bound
    res = plrv.theorem3(m, N, mt, Nt)
    assert isinstance(res, Inapplicable) and "symmetric" in res.reason and "sgm_sym" in res.reason


def mp_symmetrised_functionals(sigma, p):
    """v1..v4 of C_p(G_{1/sigma}) from the definitions (9)-(12) over alpha, independently of the
    library's z-substitution: f_p(alpha) = p G_mu(alpha) + (1 - p)(1 - alpha) is differentiated
    numerically (mpmath.diff), x* (slope -1) found by root finding; the curve is f_p on [0, x*],
    slope -1 up to f_p(x*), then f_p^{-1}, whose log-slope at f_p(a) is -log|f_p'(a)| over
    dx = |f_p'(a)| da."""
    mu, P = 1 / mpmath.mpf(sigma), mpmath.mpf(p)

    def f(a):
        return P * mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) - mu) + (1 - P) * (1 - a)

    def t(a):
        return mpmath.log(-mpmath.diff(f, a))

    x_star = mpmath.findroot(lambda a: t(a), (mpmath.mpf("1e-6"), mpmath.mpf("0.999")), solver="anderson")
    segment = f(x_star) - x_star

    def integral(g):
        steep = mpmath.quad(lambda a: g(t(a)), [0, x_star / 4, x_star])
        mirror = mpmath.quad(lambda a: g(-t(a)) * mpmath.exp(t(a)), [0, x_star / 4, x_star])
        return steep + mirror + g(mpmath.mpf(0)) * segment

    v1 = -integral(lambda x: x)
    return [v1, integral(lambda x: x * x), integral(lambda x: abs(x + v1) ** 3), integral(lambda x: abs(x) ** 3)]


@pytest.mark.parametrize("sigma,p", [(1.0, 0.3)])
def test_symmetrised_sgm_moments_from_the_definitions(sigma, p):
    with mpmath.workdps(15):
        ref = mp_symmetrised_functionals(sigma, p)
    m = plrv.sgm_moments(sigma, p, "symmetrised")
    assert m.symmetric
    for res, v in zip((m.v1, m.v2, m.v3, m.v4), ref):
        assert within(res, float(v), 1e-8 * (1 + abs(float(v))))


def test_symmetrised_sgm_at_p_1_is_the_gaussian():
    g = plrv.gaussian_moments(0.5)
    m = plrv.sgm_symmetrised_moments(2.0, 1.0)
    for a, b in zip((m.v1, m.v2, m.v3, m.v4), (g.v1, g.v2, g.v3, g.v4)):
        assert a.lower <= b.upper and b.lower <= a.upper


def test_theorem3_tightness_example_symmetrised_public_path():
    """The paper's example with its symmetric-f assumption made concrete (sgm_sym: the per-step
    symmetrisation C_p): Theorem 3 applies through the public path, and its bound holds against
    the certified Delta between the composed symmetrised mechanisms (grid 2e-5); the roles are
    reversed with respect to the one-orientation reading (per-step symmetrisation is more
    pessimistic for the sigma = 2 mechanism, digest §5.6 (ii))."""
    out = plrv.compare_compositions("sgm_sym(sigma=2, p=9e-4, grid=2e-5)", 1_400_000,
                                    "sgm_sym(sigma=3, p=9e-4, grid=2e-5)", 3_400_000)
    bound = out["theorem3"]
    assert isinstance(bound, Result) and bound.kind is Kind.UPPER
    assert out["first_moments"].symmetric and out["second_moments"].symmetric
    exact = out["exact"]
    assert exact.kind is Kind.EXACT and exact.upper <= bound.upper
    assert abs(bound.upper - out["theorem3_generalised"].upper) < 1e-12


def test_lemma6_triangular_arrays():
    """Gaussian rows G_{c/sqrt(N)}: sum v1 -> c^2/2, sum v2 -> c^2, max v1 -> 0, sum v4 -> 0 and the
    CLT parameter -> c; randomized response rows RR(c/sqrt(N)) converge to the same limit."""
    c = 1.2
    for n in (10, 1000, 100000):
        s = plrv.array_sums(plrv.gaussian_array(c, n))
        assert abs(s["sum_v1"] - c * c / 2) < 1e-8 and abs(s["sum_v2"] - (c * c + c**4 / (4 * n))) < 1e-8
    big = plrv.array_sums(plrv.gaussian_array(c, 100000))
    assert big["max_v1"] < 1e-5 and big["sum_v4"] < 0.02 and abs(big["mu"] - c) < 1e-4
    rr_rows = [plrv.array_sums([plrv.rr_moments(c / math.sqrt(n))] * n) for n in (10, 1000, 100000)]
    assert abs(rr_rows[-1]["mu"] - c) < 1e-4 and abs(rr_rows[-1]["sum_v1"] - c * c / 2) < 1e-4
    assert plrv.lemma6(0.72, 1.2, 0.5, 1.0) == "first" and plrv.lemma6(0.5, 1.0, 0.72, 1.2) == "second"
    # the composed RR row approaches G_c: Delta<-> shrinks with N
    gauss = parse_mechanism(f"gaussian(mu={c})").tradeoff()
    d = [delta_divergence(parse_mechanism(f"rr(eps={c / math.sqrt(n)})^{n}").tradeoff(), gauss).upper
         for n in (4, 64, 1024)]
    assert d[0] > d[1] > d[2]


def test_compare_compositions():
    out = plrv.compare_compositions("rr(eps=0.3)", 50, "gaussian(mu=0.2)", 100)
    assert isinstance(out["theorem3"], Result) and out["exact"].upper <= out["theorem3"].upper
    assert out["exact"].upper <= out["theorem3_generalised"].upper
    assert abs(out["second_moments"].eta.lower - 0.1) < 1e-9
    with pytest.raises(DomainError, match="single-step"):
        plrv.compare_compositions("rr(eps=0.3)^2", 50, "gaussian(mu=0.2)", 100)
