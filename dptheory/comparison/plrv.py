"""Moments of the privacy-loss random variable, emergent dominance under composition
(Kaissis et al. 2024, Section 4: eqs. (8)-(12), Lemma 6, Theorem 3).

With X = log(Q/P)(omega), omega ~ P, the PLRV of the pair (P, Q) and f = T(P, Q), the paper's
functionals of f are moments of X ("moments of the PLRV", Section 4; derived here: f'(alpha) =
-e^{t(alpha)} with t(alpha) = F_X^{-1}(1 - alpha), eq. (24), so int_0^1 g(log|f'|) = E g(X)):
v1 = -E X = KL(P||Q), v2 = E X^2, v3 = E|X - E X|^3, v4 = E|X|^3, and
eta = v1 / sqrt(v2 - v1^2) (eq. (8)).

Each moment is a certified :class:`~dptheory.results.Result`: closed forms (Gaussian; Laplace v1,
v2; binary randomized response) widened by ``rounding.CLOSED_FORM_RTOL``; the Laplace v3, v4 and
any discrete pair by exact antiderivatives or finite sums at 40 digits; the subsampled Gaussian
by mpmath quadrature at 30 digits with the quadrature's error estimate (times 100) and a bound on
the truncated Gaussian tails.

Theorem 3 (main-text hypothesis N/N~ >= eta~^2/eta^2; dptheory: the proof needs the Gaussian
surrogates ordered, sqrt(N) eta >= sqrt(N~) eta~ (eq. (79), Lemma B.2), which is this one, and
the appendix's restatement is inverted; docs/comparison.md): Delta(M^{(x)N} || M~^{(x)N~}) <=
gamma + gamma~ with gamma = 0.56 v3 / (sqrt(N) (v2 - v1^2)^{3/2}) (eq. (85)). Dong, Roth, Su's
Berry-Esseen theorem (2022, Theorem 5) needs symmetric trade-off functions and gamma < 1/2,
which the paper does not restate; its sandwich holds on [gamma, 1 - gamma] and,
trivially, outside it (for alpha < gamma the upper curve G(alpha - gamma) + gamma >= 1, for
alpha > 1 - gamma the trade-off function is below 1 - alpha < gamma), so the paper's "for all
alpha" is harmless. When a hypothesis fails the calculator returns
:class:`~dptheory.results.Inapplicable`. The appendix's printed hypothesis N/N~ >= eta^2/eta~^2 is
kept as :func:`theorem3_appendix` with status ``refuted``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

import mpmath
from scipy import special

from .. import rounding, tradeoff, validate
from ..results import Inapplicable, Kind, Result, Status
from . import closed_forms as cf

SOURCE_MOMENTS = "Kaissis et al. (2024), eqs. (8)-(12) (moments of the PLRV: derived here)"
SOURCE_T3 = ("Kaissis et al. (2024), Theorem 3, eq. (14) (main-text hypothesis; with the hypotheses of Dong, Roth, "
             "Su (2022), Theorem 5)")
BERRY_ESSEEN = 0.56


@dataclasses.dataclass(frozen=True)
class Moments:
    """The PLRV functionals v1..v4 of one mechanism (single step), each a certified Result."""

    v1: Result
    v2: Result
    v3: Result
    v4: Result
    mechanism: str = ""
    symmetric: bool = True
    #: (family, parameter) when eta is a known increasing function of one parameter
    #: (("gaussian", mu): eta = mu/2; ("rr2", eps): sinh(eps/2)): the precondition of Theorem 3
    #: is then decided exactly where the intervals cannot decide it
    eta_key: tuple | None = None

    @property
    def variance(self) -> tuple[float, float]:
        """Enclosure of v2 - v1^2 = Var X."""
        return (rounding.down(self.v2.lower - self.v1.upper ** 2, 4 * rounding.EPS * self.v2.upper),
                rounding.up(self.v2.upper - self.v1.lower ** 2, 4 * rounding.EPS * self.v2.upper))

    @property
    def eta(self) -> Result:
        """eta = v1 / sqrt(v2 - v1^2) (eq. (8)), increasing in v1 and decreasing in v2."""
        var_lo, var_hi = self.variance
        if var_lo <= 0:
            raise validate.DomainError(f"{self.mechanism}: v2 - v1^2 is not certainly positive; eta is undefined")
        lo = self.v1.lower / math.sqrt(var_hi)
        hi = self.v1.upper / math.sqrt(var_lo)
        return Result("eta", rounding.down_nonneg(lo, 4 * rounding.EPS * lo), rounding.up(hi, 4 * rounding.EPS * hi),
                      Kind.EXACT, Status.PROVEN, "plrv-eta", "Kaissis et al. (2024), eq. (8)",
                      params={"mechanism": self.mechanism})

    def as_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k).as_dict() for k in ("v1", "v2", "v3", "v4")}
        try:
            out["eta"] = self.eta.as_dict()
        except validate.DomainError as exc:
            out["eta"] = str(exc)
        out["mechanism"] = self.mechanism
        return out


def _r(name, lo, hi, method, source=SOURCE_MOMENTS, mech=""):
    return Result(name, lo, hi, Kind.EXACT, Status.PROVEN, method, source, params={"mechanism": mech})


def _closed(name, value, method, mech):
    v = float(value)
    return _r(name, rounding.down(v, rel_err=rounding.CLOSED_FORM_RTOL), rounding.up(v, rel_err=rounding.CLOSED_FORM_RTOL),
              method, mech=mech)


def _mp(name, value, err, method, mech):
    with mpmath.workdps(50):
        return _r(name, rounding.mp_down(value - err), rounding.mp_up(value + err), method, mech=mech)


def _zero_moments(name: str, why: str) -> Moments:
    """The PLRV of a perfectly private step is X = 0: every functional is 0 exactly."""
    zero = [_r(f"v{i}", 0.0, 0.0, "plrv-zero", mech=name) for i in range(1, 5)]
    return Moments(*(z.replace(note=why) for z in zero), mechanism=name, eta_key=None)


def gaussian_moments(mu) -> Moments:
    """v1..v4 of G_mu in closed form (X ~ N(-mu^2/2, mu^2)); mu = 0 (M_PP): all 0."""
    m = validate.nonnegative("mu", mu)
    name = f"gaussian(mu={m:g})"
    if m == 0:
        return _zero_moments(name, "mu = 0: the two distributions are equal, X = 0")
    return Moments(*(_closed(f"v{i}", F(m), "gaussian-plrv", name)
                     for i, F in enumerate((cf.GAUSSIAN_V1, cf.GAUSSIAN_V2, cf.GAUSSIAN_V3, cf.GAUSSIAN_V4), 1)),
                   mechanism=name, eta_key=("gaussian", m))


def _laplace_abs3(e, c):
    """E|X - c|^3 for the Laplace PLRV with epsilon e, at 50 digits: atoms -e (1/2), e (e^{-e}/2),
    density e^{-(x+e)/2}/4 on [-e, e]; the integral by the antiderivative of y^3 e^{-y/2}."""
    def A(y):
        return -2 * mpmath.exp(-y / 2) * (y**3 + 6 * y**2 + 24 * y + 48)

    def piece(x0, x1, sign):
        # int_{x0}^{x1} sign (x - c)^3 e^{-(x+e)/2}/4 dx
        if x1 <= x0:
            return mpmath.mpf(0)
        return sign * mpmath.exp(-(c + e) / 2) * (A(x1 - c) - A(x0 - c)) / 4

    cc = min(max(c, -e), e)
    total = abs(-e - c) ** 3 / 2 + mpmath.exp(-e) * abs(e - c) ** 3 / 2
    total += piece(-e, cc, -1) + piece(cc, e, 1)
    return total


def laplace_moments(eps) -> Moments:
    """v1, v2 in closed form (formulas laplace-plrv-v1, -v2); v3, v4 exactly (antiderivatives at
    50 digits)."""
    e = validate.positive("eps", eps)
    name = f"laplace(eps={e:g})"
    with mpmath.workdps(50):
        E = mpmath.mpf(e)
        mean = 1 - E - mpmath.exp(-E)
        v3 = _laplace_abs3(E, mean)
        v4 = _laplace_abs3(E, mpmath.mpf(0))
        err = mpmath.mpf(10) ** -40 * (1 + abs(v3) + abs(v4))
        return Moments(_closed("v1", cf.LAPLACE_V1(e), "laplace-plrv", name),
                       _closed("v2", cf.LAPLACE_V2(e), "laplace-plrv", name),
                       _mp("v3", v3, err, "laplace-plrv", name), _mp("v4", v4, err, "laplace-plrv", name), mechanism=name)


def rr_moments(eps, k: int = 2) -> Moments:
    """v1..v4 of k-ary randomized response: closed forms for k = 2, the finite sums otherwise;
    eps = 0 (M_PP): all 0."""
    e = validate.nonnegative("eps", eps)
    k = validate.integer("k", k, low=2)
    name = f"rr(eps={e:g}, k={k})"
    if e == 0:
        return _zero_moments(name, "eps = 0: the output does not depend on the input, X = 0")
    if k == 2:
        return Moments(*(_closed(f"v{i}", F(e), "rr-plrv", name)
                         for i, F in enumerate((cf.RR_V1, cf.RR_V2, cf.RR_V3, cf.RR_V4), 1)), mechanism=name,
                       eta_key=("rr2", e))
    from ..mechanisms import RandomizedResponse

    with mpmath.workdps(50):
        p, q = RandomizedResponse(e, k).pmfs(digits=50)
        return _discrete(p, q, name)


def _discrete(p, q, name, symmetric=True) -> Moments:
    with mpmath.workdps(50):
        xs, ws = [], []
        for a, b in zip(p, q):
            a, b = mpmath.mpf(a), mpmath.mpf(b)
            if a == 0:
                continue
            if b == 0:
                raise validate.DomainError(f"{name}: P has mass where Q has none; the PLRV moments are infinite "
                                           "(outside the mutual absolute continuity of Kaissis et al. 2024, Appendix A)")
            xs.append(mpmath.log(b / a))
            ws.append(a)
        total = mpmath.fsum(ws)
        ws = [w / total for w in ws]
        mean = mpmath.fsum(w * x for w, x in zip(ws, xs))
        vals = [-mean, mpmath.fsum(w * x * x for w, x in zip(ws, xs)),
                mpmath.fsum(w * abs(x - mean) ** 3 for w, x in zip(ws, xs)),
                mpmath.fsum(w * abs(x) ** 3 for w, x in zip(ws, xs))]
        err = mpmath.mpf(10) ** -40 * (1 + max(abs(v) for v in vals))
        return Moments(*(_mp(f"v{i}", v, err, "discrete-plrv", name) for i, v in enumerate(vals, 1)),
                       mechanism=name, symmetric=symmetric)


def discrete_moments(f: tradeoff.PiecewiseLinear, name: str = "piecewise-linear") -> Moments:
    """v1..v4 of a piecewise-linear trade-off function (its canonical pair: X = log(q_j/p_j) with
    probability p_j). Infinite (DomainError) if f reaches 0 before alpha = 1."""
    if not isinstance(f, tradeoff.PiecewiseLinear):
        raise validate.DomainError("f must be a piecewise-linear trade-off function")
    return _discrete(list(f.p_mass), list(f.q_mass), name, symmetric=bool(f.symmetric))


@functools.lru_cache(maxsize=64)
def sgm_moments(sigma, p, orientation: str = "remove") -> Moments:
    """v1..v4 of one step of the Poisson-subsampled Gaussian mechanism (sensitivity 1).

    remove: (P, Q) = (N(0, s^2), (1-p) N(0, s^2) + p N(1, s^2)), X = log(1 - p + p e^{z/s - 1/(2 s^2)})
    with z ~ N(0, 1) (in units of sigma); add: the pair swapped, X' = -X(z) with z from the mixture.
    Quadrature at 30 digits on [-40, 40 + 1/sigma], split at 0 and 1/sigma; the error is 100 times
    mpmath's estimate plus a bound on the tails (|X| <= |z|/sigma + 1/(2 sigma^2) + |log(1-p)|).
    The single-orientation curve is not symmetric (``symmetric`` False); ``orientation =
    "symmetrised"`` gives the moments of the per-step symmetrisation C_p(G_{1/sigma})
    (:func:`sgm_symmetrised_moments`), which is. p = 1 is the Gaussian mechanism G_{1/sigma}
    (closed forms, symmetric).
    """
    sg = validate.positive("sigma", sigma)
    pr = validate.probability("p", p, open_low=True)
    if orientation not in ("remove", "add", "symmetrised"):
        raise validate.DomainError(f"orientation = {orientation!r} is invalid: must be 'remove', 'add' or "
                                   "'symmetrised'")
    if pr == 1:
        m = gaussian_moments(1.0 / sg)
        return dataclasses.replace(m, mechanism=f"sgm(sigma={sg:g}, p=1) = gaussian(mu={1 / sg:g})")
    if orientation == "symmetrised":
        return sgm_symmetrised_moments(sg, pr)
    name = f"sgm(sigma={sg:g}, p={pr:g}, {orientation})"
    with mpmath.workdps(30):
        s, P = 1 / mpmath.mpf(sg), mpmath.mpf(pr)
        l1p = mpmath.log1p(-P)

        def X(z):
            # log(1 - p + p e^{w}) = log1p(p expm1(w)), accurate for tiny p
            return mpmath.log1p(P * mpmath.expm1(s * z - s * s / 2))

        def dens(z):
            g = mpmath.npdf(z)
            if orientation == "remove":
                return g
            return (1 - P) * g + P * mpmath.npdf(z - s)

        sign = 1 if orientation == "remove" else -1
        Z = mpmath.mpf(40)
        pts = sorted({-Z, mpmath.mpf(0), s, Z + s})

        def moment(fn):
            val, err = mpmath.quad(lambda z: fn(sign * X(z)) * dens(z), pts, error=True, maxdegree=8)
            return val, abs(err)

        mean, e0 = moment(lambda x: x)
        v2, e2 = moment(lambda x: x * x)
        v3, e3 = moment(lambda x: abs(x - mean) ** 3)
        v4, e4 = moment(lambda x: abs(x) ** 3)
        a, b = s, s * s / 2 + abs(l1p)
        tail = 2 * mpmath.quad(lambda z: (a * z + b + abs(mean)) ** 3 * (mpmath.npdf(z) + mpmath.npdf(z - s)),
                               [Z, mpmath.inf])
        errs = [100 * e + tail + mpmath.mpf(10) ** -35 for e in (e0, e2, e3 + 3 * e0 * (1 + abs(mean)) ** 2, e4)]
        vals = [-mean, v2, v3, v4]
        return Moments(*(_mp(f"v{i}", v, e, "sgm-plrv-quadrature", name) for i, (v, e) in enumerate(zip(vals, errs), 1)),
                       mechanism=name, symmetric=False)


@functools.lru_cache(maxsize=64)
def sgm_symmetrised_moments(sigma, p) -> Moments:
    """v1..v4 (eqs. (9)-(12)) of the per-step symmetrised subsampled Gaussian
    C_p(G_{1/sigma}) = min{f_p, f_p^-1}** with f_p = p G_{1/sigma} + (1 - p) Id (Dong, Roth, Su
    2022, Proposition 2.1 / Appendix F; for DP-SGD, the symmetric curve the paper's "WLOG
    symmetric f" asks for): a symmetric curve, so Theorem 3 applies to it.

    Derived here from the definitions, writing mu = 1/sigma, alpha = Phi(-z) and
    l(z) = log|f_p'(alpha)| = log(1 - p + p e^{mu z - mu^2/2}), which is >= 0 exactly for
    z >= mu/2 (slope <= -1): the curve is f_p on [0, Phi(-mu/2)] (weight phi(z) dz, log-slope
    l), a segment of slope -1 of length L_B = (1 - p)(Phi(mu/2) - Phi(-mu/2)) (log-slope 0), and
    the mirror image (log-slope -l, weight e^l phi(z) dz, since dx = |f_p'| d alpha). So, over
    z > mu/2 with phi the normal density:
    v1 = int l (e^l - 1) phi, v2 = int l^2 (1 + e^l) phi, v4 = int l^3 (1 + e^l) phi,
    v3 = int (|l + v1|^3 + |v1 - l|^3 e^l) phi + v1^3 L_B; the weights add to 1. At p = 1 they
    are the Gaussian's (tested). Quadrature at 30 digits (l by log1p/expm1: v1 ~ p^2), error:
    100 times mpmath's estimate plus a bound on the tail beyond z = 40 + mu.
    """
    sg = validate.positive("sigma", sigma)
    pr = validate.probability("p", p, open_low=True)
    name = f"sgm_sym(sigma={sg:g}, p={pr:g})"
    with mpmath.workdps(30):
        s, P = 1 / mpmath.mpf(sg), mpmath.mpf(pr)
        z0 = s / 2

        def ell(z):
            return mpmath.log1p(P * mpmath.expm1(s * z - s * s / 2))

        def e_ell_minus_1(z):
            return P * mpmath.expm1(s * z - s * s / 2)

        Z = mpmath.mpf(40) + s
        pts = [z0, z0 + 1, s + 1, Z]
        pts = sorted(set(pts))

        def integral(fn):
            val, err = mpmath.quad(lambda z: fn(z) * mpmath.npdf(z), pts, error=True, maxdegree=8)
            return val, abs(err)

        v1, e1 = integral(lambda z: ell(z) * e_ell_minus_1(z))
        v2, e2 = integral(lambda z: ell(z) ** 2 * (2 + e_ell_minus_1(z)))
        v4, e4 = integral(lambda z: ell(z) ** 3 * (2 + e_ell_minus_1(z)))
        lb = (1 - P) * (mpmath.ncdf(z0) - mpmath.ncdf(-z0))
        v3a, e3 = integral(lambda z: abs(ell(z) + v1) ** 3 + abs(v1 - ell(z)) ** 3 * (1 + e_ell_minus_1(z)))
        v3 = v3a + v1 ** 3 * lb
        # beyond Z: l <= s z (p <= 1), the weights phi (1 + e^l) <= phi(z) + (1 - p) phi(z) + p phi(z - s)
        tail = 4 * mpmath.quad(lambda z: (s * z + abs(v1) + 1) ** 3 * (mpmath.npdf(z) + mpmath.npdf(z - s)),
                               [Z, mpmath.inf])
        # v3 also moves with v1: |d/dv1 of the integrand| <= 3 (l + v1)^2 (1 + e^l), bounded by 3 (v2 + ...)
        d3 = 3 * e1 * (v2 + 2 * v1 * v1 + 1) * 4
        errs = [100 * e1 + tail, 100 * e2 + tail, 100 * e3 + d3 + tail, 100 * e4 + tail]
        errs = [e + mpmath.mpf(10) ** -28 * (1 + abs(v)) for e, v in zip(errs, (v1, v2, v3, v4))]
        return Moments(*(_mp(f"v{i}", v, e, "sgm-symmetrised-plrv-quadrature", name)
                         for i, (v, e) in enumerate(zip((v1, v2, v3, v4), errs), 1)),
                       mechanism=name, symmetric=True)


# ------------------------------------------------------------------------------- Theorem 3
def berry_esseen_gamma(m: Moments, N: int) -> float:
    """Upper end of gamma = 0.56 v3 / (sqrt(N) (v2 - v1^2)^{3/2}) (eq. (85))."""
    n = validate.integer("N", N, low=1)
    var_lo, _ = m.variance
    if var_lo <= 0:
        raise validate.DomainError(f"{m.mechanism}: v2 - v1^2 is not positive")
    g = BERRY_ESSEEN * m.v3.upper / (math.sqrt(n) * var_lo ** 1.5)
    return rounding.up(g, rel_err=16 * rounding.EPS)


def _hypotheses(m1: Moments, N, m2: Moments, N2):
    reasons = []
    for m in (m1, m2):
        if not m.symmetric:
            reasons.append(f"{m.mechanism}: Berry-Esseen (Dong, Roth, Su 2022, Theorem 5) needs a symmetric trade-off "
                           "function per step (for the subsampled Gaussian: sgm_sym(...), its per-step symmetrisation)")
        if not m.v1.lower > 0:
            reasons.append(f"{m.mechanism}: v1 > 0 fails (a perfectly private step: eta undefined)")
        if not m.variance[0] > 0:
            reasons.append(f"{m.mechanism}: v2 - v1^2 > 0 fails")
    if reasons:
        return reasons, None, None
    g1, g2 = berry_esseen_gamma(m1, N), berry_esseen_gamma(m2, N2)
    for g, m in ((g1, m1), (g2, m2)):
        if not g < 0.5:
            reasons.append(f"{m.mechanism}: gamma = {g:.4g} >= 1/2 (Berry-Esseen hypothesis)")
    return reasons, g1, g2


def _t3_inapplicable(reason, method=SOURCE_T3, params=None):
    return Inapplicable("theorem3", Kind.UPPER, Status.PROVEN, method, reason, params or {})


def theorem3(m1: Moments, N, m2: Moments, N2) -> Result | Inapplicable:
    """Upper bound (14) on Delta(M^{(x)N} || M~^{(x)N~}) = gamma + gamma~ when N eta^2 >= N~ eta~^2
    (main text; tested in this multiplied form, which needs no division), or Inapplicable naming the failed
    hypothesis (symmetry, v1 > 0, v2 > v1^2, gamma < 1/2, the precondition, or a precondition that
    the moments' precision cannot decide)."""
    n1, n2 = validate.integer("N", N, low=1), validate.integer("N2", N2, low=1)
    params = {"N": n1, "N2": n2, "first": m1.mechanism, "second": m2.mechanism}
    reasons, g1, g2 = _hypotheses(m1, n1, m2, n2)
    if reasons:
        return _t3_inapplicable("; ".join(reasons), params=params)
    e1, e2 = m1.eta, m2.eta
    params.update(gamma=g1, gamma2=g2, eta=[e1.lower, e1.upper], eta2=[e2.lower, e2.upper])
    decided = _precondition_exact(m1, n1, m2, n2)
    if decided is True or (decided is None and n1 * e1.lower ** 2 >= n2 * e2.upper ** 2 * (1 + 8 * rounding.EPS)):
        return Result("delta-divergence", 0.0, rounding.up(g1 + g2), Kind.UPPER, Status.PROVEN, "theorem3", SOURCE_T3,
                      "Berry-Esseen sandwich of both compositions, triangle inequality", params=params)
    if decided is False or n1 * e1.upper ** 2 < n2 * e2.lower ** 2:
        return _t3_inapplicable(f"precondition N eta^2 >= N~ eta~^2 fails: {n1} * {e1.upper:.8g}^2 < {n2} * "
                                f"{e2.lower:.8g}^2 (N/N~ = {n1 / n2:.7g} < eta~^2/eta^2 = "
                                f"{(e2.lower / e1.upper) ** 2:.7g}); see theorem3_generalised", params=params)
    return _t3_inapplicable("precondition N eta^2 >= N~ eta~^2 undecided at the moments' precision", params=params)


def _precondition_exact(m1: Moments, n1: int, m2: Moments, n2: int) -> bool | None:
    """N eta^2 >= N~ eta~^2 decided exactly when both steps are of one family whose eta is a known
    increasing function of one parameter (Gaussian: eta = mu/2, compared as rationals; binary
    randomized response: sinh(eps/2), decided when N = N~ or eps = eps~); None otherwise."""
    from fractions import Fraction

    k1, k2 = m1.eta_key, m2.eta_key
    if k1 is None or k2 is None or k1[0] != k2[0]:
        return None
    if k1[0] == "gaussian":
        return Fraction(n1) * Fraction(k1[1]) ** 2 >= Fraction(n2) * Fraction(k2[1]) ** 2
    if n1 == n2:
        return k1[1] >= k2[1]
    if k1[1] == k2[1]:
        return n1 >= n2
    return None


def theorem3_appendix(m1: Moments, N, m2: Moments, N2) -> Result | Inapplicable:
    """The bound (14) under the hypothesis as printed in Appendix B.4, N/N~ >= eta^2/eta~^2: status
    ``refuted`` (dptheory: two Gaussians with eta < eta~ and N = N~ meet it while the exact Delta
    exceeds the bound; docs/comparison.md)."""
    n1, n2 = validate.integer("N", N, low=1), validate.integer("N2", N2, low=1)
    reasons, g1, g2 = _hypotheses(m1, n1, m2, n2)
    if reasons:
        return Inapplicable("theorem3-appendix", Kind.UPPER, Status.REFUTED, SOURCE_T3, "; ".join(reasons))
    e1, e2 = m1.eta, m2.eta
    if not n1 * e2.lower ** 2 >= n2 * e1.upper ** 2:
        return Inapplicable("theorem3-appendix", Kind.UPPER, Status.REFUTED, SOURCE_T3,
                            "printed precondition N/N~ >= eta^2/eta~^2 fails")
    return Result("delta-divergence", 0.0, rounding.up(g1 + g2), Kind.UPPER, Status.REFUTED, "theorem3-appendix",
                  "Kaissis et al. (2024), Appendix B.4 restatement of Theorem 3 (printed hypothesis)",
                  "refuted: the printed hypothesis is inverted (dptheory; the main text's N/N~ >= eta~^2/eta^2 "
                  "is the one the proof needs, eq. (79))", params={"N": n1, "N2": n2})


def theorem3_generalised(m1: Moments, N, m2: Moments, N2) -> Result | Inapplicable:
    """gamma + gamma~ + max{0, Phi(-sqrt(N) eta) - Phi(-sqrt(N~) eta~)}: a precondition-free form
    derived here (the proof of Theorem 3 with Delta(G_mu || G_mu~) in closed form,
    derivations/delta_divergence_gaussian.py, in place of 0); it equals (14) when the precondition
    holds. Needs the other hypotheses."""
    n1, n2 = validate.integer("N", N, low=1), validate.integer("N2", N2, low=1)
    params = {"N": n1, "N2": n2, "first": m1.mechanism, "second": m2.mechanism}
    reasons, g1, g2 = _hypotheses(m1, n1, m2, n2)
    if reasons:
        return Inapplicable("theorem3-generalised", Kind.UPPER, Status.PROVEN, cf.THEOREM3_GENERALISED.source,
                            "; ".join(reasons), params)
    e1, e2 = m1.eta, m2.eta
    # Phi(-sqrt(N) eta) is largest at the smallest eta, Phi(-sqrt(N~) eta~) smallest at the largest
    gap = float(special.ndtr(-math.sqrt(n1) * e1.lower) - special.ndtr(-math.sqrt(n2) * e2.upper))
    gap = max(0.0, rounding.up(gap, 1e-15))
    params.update(gamma=g1, gamma2=g2, surrogate_gap=gap, mu=2 * math.sqrt(n1) * e1.lower, mu2=2 * math.sqrt(n2) * e2.upper)
    return Result("delta-divergence", 0.0, rounding.up(g1 + g2 + gap), Kind.UPPER, Status.PROVEN, "theorem3-generalised",
                  cf.THEOREM3_GENERALISED.source, "gamma + gamma~ + Delta(G_mu || G_mu~)", params=params)


# ------------------------------------------------------------------------------- Lemma 6
def array_sums(moments: list[Moments]) -> dict[str, float]:
    """The four quantities of Lemma 6's conditions for one row of a triangular array:
    sum v1 (-> K), max v1 (-> 0), sum v2 (-> s^2), sum v4 (-> 0), and the CLT parameter
    2 sum v1 / sqrt(sum v2) (Dong, Roth, Su 2022, Theorem 6)."""
    v1 = [m.v1.lower + 0.5 * (m.v1.upper - m.v1.lower) for m in moments]
    v2 = [m.v2.lower + 0.5 * (m.v2.upper - m.v2.lower) for m in moments]
    v4 = [m.v4.lower + 0.5 * (m.v4.upper - m.v4.lower) for m in moments]
    K, s2 = math.fsum(v1), math.fsum(v2)
    return {"sum_v1": K, "max_v1": max(v1), "sum_v2": s2, "sum_v4": math.fsum(v4), "mu": 2 * K / math.sqrt(s2)}


def lemma6(K, s, K2, s2) -> str:
    """Lemma 6 (asymptotic): with limits (K, s) and (K~, s~) of two triangular arrays satisfying
    its four conditions, K/s > K~/s~ implies the first composition eventually Blackwell dominates
    the second ("first"); "second" for the reverse; "undecided" when equal. The limit curves are
    G_{2K/s}. Asymptotic only (dptheory: uniform convergence to strictly ordered limits does not
    order the curves near alpha in {0, 1}, where the limits meet: the proof has a gap there); use
    :func:`theorem3` at finite N."""
    a = validate.positive("K", K) / validate.positive("s", s)
    b = validate.positive("K2", K2) / validate.positive("s2", s2)
    return "first" if a > b else "second" if b > a else "undecided"


def gaussian_array(c: float, n: int) -> list[Moments]:
    """Row N of the triangular array G_{c/sqrt(N)} (N copies): its composition is G_c for every N."""
    m = gaussian_moments(c / math.sqrt(n))
    return [m] * n


def as_float(res: Result) -> float:
    return 0.5 * (res.lower + res.upper)


__all__ = ["Moments", "gaussian_moments", "laplace_moments", "rr_moments", "discrete_moments", "sgm_moments",
           "berry_esseen_gamma", "theorem3", "theorem3_appendix", "theorem3_generalised", "array_sums", "lemma6",
           "gaussian_array", "moments_of", "compare_compositions"]


def moments_of(mechanism) -> Moments | Inapplicable:
    """Single-step PLRV moments of a parsed mechanism (:func:`dptheory.comparison.parse_mechanism`
    without composition): Gaussian, Laplace and randomized response in closed form (mu = 0 or
    eps = 0: all 0), the subsampled Gaussian by quadrature (``sgm``: the remove orientation, not
    symmetric; ``sgm_sym``: its per-step symmetrisation C_p, symmetric; p = 1: the Gaussian),
    M_PP (all 0); Inapplicable for M_BNP (infinite: outside mutual absolute continuity) and the
    shuffle model (its trade-off function is known only through a bound)."""
    fam, p = mechanism.family, mechanism.params
    if fam == "gaussian":
        return gaussian_moments(p["mu"])
    if fam == "laplace":
        return laplace_moments(p["eps"])
    if fam == "rr":
        return rr_moments(p["eps"], int(p["k"]))
    if fam == "sgm":
        return sgm_moments(p["sigma"], p["p"])
    if fam == "sgm_sym":
        return sgm_moments(p["sigma"], p["p"], "symmetrised")
    if fam == "pp":
        return _zero_moments("pp()", "M_PP: the two distributions are equal, X = 0")
    why = {"bnp": "M_BNP: disjoint supports, the PLRV is infinite (outside mutual absolute continuity, Appendix A)",
           "shuffle": "the shuffle model: only a certified lower bound of its trade-off function is known, not its PLRV"}
    return Inapplicable("plrv-moments", Kind.EXACT, Status.PROVEN, SOURCE_MOMENTS,
                        f"{mechanism.name}: no PLRV moments ({why.get(fam, 'not implemented for this mechanism')})",
                        {"mechanism": mechanism.name})


def compare_compositions(first: str, N, second: str, N2, *, exact: bool = True, tol: float = 1e-11) -> dict:
    """Theorem 3 for M^{(x)N} against M~^{(x)N~}, given as single-step mechanism strings: the
    moments, bound (14) (or why it does not apply), the precondition-free bound and, with
    ``exact``, Delta between the composed mechanisms (:func:`divergence.delta_between`: a
    certified interval whose kind says what it is; composed PLD-based mechanisms accept ``grid=``
    in their string to narrow it). Every valid input gives Results or Inapplicables, never an
    exception: a step without PLRV moments (M_BNP, the shuffle model) makes both bounds
    Inapplicable with the reason."""
    from .divergence import delta_between
    from .grammar import parse_mechanism

    n1, n2 = validate.integer("N", N, low=1), validate.integer("N2", N2, low=1)
    a, b = parse_mechanism(first), parse_mechanism(second)
    if a.steps != 1 or b.steps != 1:
        raise validate.DomainError("give single-step mechanisms; the numbers of steps are N and N2")
    ma, mb = moments_of(a), moments_of(b)
    out = {"first": a.name, "second": b.name, "N": n1, "N2": n2, "first_moments": ma, "second_moments": mb}
    missing = [m for m in (ma, mb) if isinstance(m, Inapplicable)]
    if missing:
        reason = "; ".join(m.reason for m in missing)
        params = {"N": n1, "N2": n2, "first": a.name, "second": b.name}
        out["theorem3"] = _t3_inapplicable(reason, params=params)
        out["theorem3_generalised"] = Inapplicable("theorem3-generalised", Kind.UPPER, Status.PROVEN,
                                                   cf.THEOREM3_GENERALISED.source, reason, params)
    else:
        out["theorem3"] = theorem3(ma, n1, mb, n2)
        out["theorem3_generalised"] = theorem3_generalised(ma, n1, mb, n2)
    if exact:
        out["exact"] = delta_between(parse_mechanism(_compose(first, n1)), parse_mechanism(_compose(second, n2)), tol=tol)
    return out


def _compose(text: str, n: int) -> str:
    return f"{text.strip()}^{n}"
