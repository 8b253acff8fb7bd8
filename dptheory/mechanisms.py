"""Basic mechanisms with their three views: trade-off function, privacy profile, RDP curve.

* :class:`GaussianMechanism`: mu = sensitivity / sigma; mu-GDP exactly.
* :class:`LaplaceMechanism`: mu = sensitivity / scale.
* :class:`RandomizedResponse`: k-ary randomized response, epsilon-LDP; its output pmfs are
  available, so every closed form is checked in the tests against the divergences of the pmfs.

Every mechanism gives ``delta(epsilon)`` as a float, correctly rounded (0.0 or a subnormal below
the float range, as scipy's functions do), ``epsilon(delta)`` as a certified :class:`~dptheory.results.Result`, and
its RDP curve as a certified :class:`~dptheory.results.Curve` (an exact value computed in float64
is an interval too: the curve's ends enclose the Renyi divergence, error bound included).
:func:`report` gathers the three for ``dptheory mechanism``.
"""

from __future__ import annotations

import abc
import dataclasses
import math
from fractions import Fraction

import mpmath
import numpy as np

from . import profile, rdp as rdp_module, rounding, validate
from .rounding import EPS
from .formula import Parts, definer
from .precision import mp_adaptive, mp_nearest
from .results import Curve, Kind, Result, Status


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from .symbols import alpha, eps, eps0, k, lam

    _E0 = sp.exp(eps0)

    return {
        "rr-tradeoff": Parts(
            sp.Max(1 - _E0 * alpha, 1 - (_E0 - 1) / (_E0 + k - 1) - alpha, sp.exp(-eps0) * (1 - alpha)),
            (eps0, k, alpha),
            (k >= 2, alpha <= 1),
        ),
        "rr-delta": Parts(
            sp.Max(0, _E0 - sp.exp(eps)) / (_E0 + k - 1),
            (eps0, k, eps),
            (k >= 2, eps >= 0),
        ),
        "rr-renyi": Parts(
            sp.log((sp.exp(eps0 * lam) + sp.exp(eps0 * (1 - lam)) + k - 2) / (_E0 + k - 1)) / (lam - 1),
            (eps0, k, lam),
            (k >= 2, lam > 1),
        ),
    }


#: the exact closed forms of this module (proven), from :func:`_closed_forms`
_exact = definer(_closed_forms, kind=Kind.EXACT, status=Status.PROVEN)

RR_TRADEOFF = _exact(
    "rr-tradeoff",
    source="k-ary randomized response (Kairouz, Oh, Viswanath 2016); trade-off by Neyman-Pearson",
    lhs=r"T(\mathrm{RR}_k(x), \mathrm{RR}_k(x'))(\alpha)",
)

RR_DELTA = _exact(
    "rr-delta",
    source="k-ary randomized response: $H_{e^\\epsilon}$ of its output pmfs",
    lhs=r"\delta(\epsilon)",
)

RR_RENYI = _exact(
    "rr-renyi",
    source="k-ary randomized response: Renyi divergence of its output pmfs",
    lhs=r"D_\lambda(\mathrm{RR}_k(x)\|\mathrm{RR}_k(x'))",
)




def _tradeoff():
    """:mod:`dptheory.tradeoff`, imported on first use: it imports scipy (0.3-0.5 s), which the
    epsilon and RDP views (``dptheory mechanism``) never need."""
    from . import tradeoff

    return tradeoff

#: relative error of a float64 RDP value above which the curve is evaluated with mpmath
_FLOAT_RTOL_LIMIT = 1e-11


def _mp_curve_ends(values_mp, digits: int):
    """Float ends around mpmath values with ``digits`` correct digits (widened a thousandfold)."""
    lo, hi = [], []
    for v in values_mp:
        with mpmath.workdps(digits + 10):
            err = abs(v) * mpmath.mpf(10) ** (3 - digits)
            lo.append(rounding.mp_down(v - err))
            hi.append(rounding.mp_up(v + err))
    return np.array(lo), np.array(hi)


def _quotient_bounds(num: float, den: float) -> tuple[float, float]:
    """Floats enclosing num/den (one correctly rounded division: the quotient is within half an
    ulp of the float; it is exact when q den = num in exact arithmetic)."""
    q = num / den
    if Fraction(q) * Fraction(den) == Fraction(num):
        return q, q
    return rounding.neighbours(q)


class Mechanism(abc.ABC):
    """Shared conversions of a mechanism described by a symmetric trade-off function."""

    name = "mechanism"
    source = ""

    @abc.abstractmethod
    def tradeoff(self):
        """The trade-off function of the mechanism's worst pair of neighbouring inputs."""

    def delta(self, epsilon):
        """Privacy profile delta(epsilon) (exact), correctly rounded to a float (0.0 or a
        subnormal below the float range; see :meth:`log_delta` there)."""
        return self.tradeoff().delta(epsilon)

    def log_delta(self, epsilon):
        """log delta(epsilon) (``-inf`` where delta is 0)."""
        return self.tradeoff().log_delta(epsilon)

    @abc.abstractmethod
    def epsilon(self, delta) -> Result:
        """Smallest epsilon >= 0 with delta(epsilon) <= delta, as a certified interval (exact)."""

    @abc.abstractmethod
    def rdp(self, orders) -> Curve:
        """Renyi divergence of the worst pair at each order (exact), as a certified Curve."""

    def _curve(self, orders, lower, upper, params: dict | None = None, note: str = "") -> Curve:
        return Curve("rdp", "order", orders, lower, upper, Kind.EXACT, Status.PROVEN, self.name,
                     self.source, note, params=params or {})

    def epsilon_via_rdp(self, delta, orders) -> Result:
        """epsilon(delta) through the RDP curve at ``orders`` and the one RDP -> DP route
        (:func:`dptheory.rdp.epsilon_from_rdp`): an upper bound, looser than :meth:`epsilon`."""
        return rdp_module.epsilon_from_rdp(self.rdp(orders), delta)


class _AdditiveNoise(Mechanism):
    """Noise of a scale (its parameter named by ``noise``) on a query of the given sensitivity:
    mu = sensitivity / scale, a rounded quotient enclosed by :meth:`_mu_bounds`."""

    noise = "scale"

    def __init__(self, scale, sensitivity=1.0):
        setattr(self, self.noise, validate.positive(self.noise, scale))
        self.sensitivity = validate.positive("sensitivity", sensitivity)
        self.mu = self.sensitivity / getattr(self, self.noise)
        validate.mu(f"sensitivity/{self.noise}", self.mu)  # the mu (or eps) the views are computed from

    def _mu_bounds(self) -> tuple[float, float]:
        return _quotient_bounds(self.sensitivity, getattr(self, self.noise))

    def _mu_exact(self):
        """sensitivity / scale at the working mpmath precision."""
        return mpmath.mpf(self.sensitivity) / mpmath.mpf(getattr(self, self.noise))


class GaussianMechanism(_AdditiveNoise):
    """Gaussian noise of scale sigma on a query of the given sensitivity: mu-GDP, mu = sensitivity/sigma."""

    name = "gaussian"
    noise = "sigma"
    source = "Dong, Roth, Su (2022), Theorem 2.7 (Gaussian mechanism is mu-GDP); Mironov (2017), Proposition 7"

    def __init__(self, sigma, sensitivity=1.0):
        super().__init__(sigma, sensitivity)

    def tradeoff(self):
        return _tradeoff().gaussian(self.mu)

    def delta(self, epsilon):
        """delta(epsilon) of mu-GDP at mu = sensitivity / sigma exactly (not the rounded quotient),
        correctly rounded (:func:`dptheory.profile.nearest_gdp_delta`)."""
        e = validate.real_array("epsilon", epsilon)
        return profile.nearest_gdp_delta(*self._mu_bounds(), self._mu_exact, e)

    def epsilon(self, delta) -> Result:
        """epsilon(delta) of mu-GDP (:func:`dptheory.profile.gdp_epsilon`); epsilon grows with
        mu, so the ends are taken at the ends of the enclosure of sensitivity / sigma."""
        d = validate.delta("delta", delta)
        mu_lo, mu_hi = self._mu_bounds()
        lo = profile.gdp_epsilon(mu_lo, d)
        hi = lo if mu_hi == mu_lo else profile.gdp_epsilon(mu_hi, d)
        return Result("epsilon", lo.lower, hi.upper, Kind.EXACT, Status.PROVEN, f"{self.name}-profile", lo.source,
                      params={"mu": self.mu, "delta": d})

    def rdp(self, orders) -> Curve:
        """lambda mu^2 / 2 (Mironov 2017, Proposition 7): three correctly rounded operations."""
        o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
        mu_lo, mu_hi = self._mu_bounds()
        lo = rounding.down_nonneg(o * mu_lo * mu_lo / 2, rel_err=3 * EPS)
        hi = rounding.up(o * mu_hi * mu_hi / 2, rel_err=3 * EPS)
        return self._curve(o, lo, hi, {"mu": self.mu})


#: the source of the Laplace mechanism's epsilon(delta): its privacy profile inverted
LAPLACE_PROFILE_SOURCE = ("Laplace privacy profile derived here from the trade-off function of Dong, Roth, Su (2022), "
                          "inverted (docs/errata.md#derived-laplace-profile)")


class LaplaceMechanism(_AdditiveNoise):
    """Laplace noise of the given scale: pure (sensitivity/scale)-DP, trade-off of Dong et al."""

    name = "laplace"
    noise = "scale"
    source = "Dong, Roth, Su (2022), Appendix A; Mironov (2017), Table II"

    def tradeoff(self):
        return _tradeoff().laplace(self.mu)

    def delta(self, epsilon):
        """delta(epsilon) = (1 - e^{(eps - mu)/2})_+ for eps >= 0 (the formula ``laplace-delta``,
        derived here: docs/errata.md#derived-laplace-profile), 1 - e^eps + e^eps delta(-eps) below 0
        (the profile of a symmetric trade-off, docs/errata.md#derived-symmetric-profile), at
        mu = sensitivity / scale exactly, correctly rounded: 0.0
        where eps >= mu (decided exactly), else by mpmath (:func:`dptheory.precision.mp_nearest`;
        the difference eps - mu cancels near mu, which its two precisions detect)."""
        from fractions import Fraction

        e = validate.real_array("epsilon", epsilon)
        flat = np.atleast_1d(e).astype(float).ravel()
        formula = _tradeoff().LAPLACE_DELTA.mpmath(None, check=False)

        def value(x):
            m = self._mu_exact()
            x = mpmath.mpf(x)
            return formula(m, x) if x >= 0 else -mpmath.expm1(x) + mpmath.exp(x) * formula(m, -x)

        out = np.empty(flat.shape)
        for i, x in enumerate(flat):
            zero = x >= 0 and Fraction(x) * Fraction(self.scale) >= Fraction(self.sensitivity)
            out[i] = 0.0 if zero else mp_nearest(lambda: value(x), 20)
        return out.reshape(e.shape) if e.ndim else float(out[0])

    def epsilon(self, delta) -> Result:
        """delta(epsilon) = 1 - e^{(epsilon - mu)/2} for epsilon <= mu inverted:
        epsilon = max(0, mu + 2 log1p(-delta)) (docs/errata.md#derived-laplace-profile)."""
        d = validate.delta("delta", delta)
        mu_lo, mu_hi = self._mu_bounds()
        l1 = math.log1p(-d)

        def at(m):
            v = m + 2 * l1
            return v, EPS * (m + 4 * abs(l1) + abs(v))

        v_lo, e_lo = at(mu_lo)
        v_hi, e_hi = at(mu_hi)
        return Result("epsilon", rounding.down_nonneg(v_lo, e_lo), rounding.up_nonneg(v_hi, e_hi), Kind.EXACT,
                      Status.PROVEN, f"{self.name}-profile", LAPLACE_PROFILE_SOURCE,
                      params={"mu": self.mu, "delta": d})

    def rdp(self, orders) -> Curve:
        """log(lambda/(2 lambda - 1) e^{(lambda-1) mu} + (lambda-1)/(2 lambda - 1) e^{-lambda mu})
        / (lambda - 1) (Mironov 2017, Table II). Float64 where its error bound is below 1e-11
        relative (the two terms cancel at first order in mu), mpmath elsewhere."""
        o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
        mu_lo, mu_hi = self._mu_bounds()
        lo = np.empty_like(o)
        hi = np.empty_like(o)
        for i, lam in enumerate(o):
            v, e_v = self._float_rdp(mu_lo, lam)
            if mu_hi != mu_lo:
                v_hi, e_hi = self._float_rdp(mu_hi, lam)
            else:
                v_hi, e_hi = v, e_v
            if not (math.isfinite(e_v) and math.isfinite(e_hi)) or max(e_v / v, e_hi / v_hi) > _FLOAT_RTOL_LIMIT:
                lo[i], hi[i] = self._mp_rdp(lam)
            else:
                lo[i], hi[i] = rounding.down_nonneg(v, e_v), rounding.up(v_hi, e_hi)
        return self._curve(o, lo, hi, {"mu": self.mu})

    @staticmethod
    def _float_rdp(m: float, lam: float) -> tuple[float, float]:
        """(value, absolute error bound) of the Renyi divergence at mu = m, float64."""
        lm1 = lam - 1.0
        x = lm1 * m
        if x >= 2.0:
            # log A = (lam-1) mu + log(lam/(2 lam-1)) + log1p((lam-1)/lam e^{-(2 lam-1) mu}); the
            # sum is at least 2 - log 2 and its terms at most x + log 2 + log 2
            c = math.log(lam / (2 * lam - 1))
            tail = math.log1p(lm1 / lam * math.exp(-(2 * lam - 1) * m))
            log_a = x + c + tail
            err = EPS * (4 * abs(x) + 4 * abs(c) + 4 * abs(tail) + abs(log_a) + 2 * lam * m)
        else:
            # A - 1 = (lam expm1((lam-1) mu) + (lam-1) expm1(-lam mu)) / (2 lam - 1): the two terms
            # cancel at first order in mu; their error relative to the sum is the condition
            t1, t2 = lam * math.expm1(x), lm1 * math.expm1(-lam * m)
            am1 = (t1 + t2) / (2 * lam - 1)
            if not am1 > 0:
                return 0.0, math.inf
            log_a = math.log1p(am1)
            rel = 6 * EPS * (abs(t1) + abs(t2) + lam * m * (abs(t1) + abs(t2))) / (t1 + t2) + 4 * EPS
            err = rel * log_a
        v = log_a / lm1
        return v, err / lm1 + 2 * EPS * abs(v)

    def _mp_rdp(self, lam, digits: int = 30):
        def fn():
            L, M = mpmath.mpf(lam), mpmath.mpf(self.sensitivity) / mpmath.mpf(self.scale)
            a = L / (2 * L - 1) * mpmath.exp((L - 1) * M) + (L - 1) / (2 * L - 1) * mpmath.exp(-L * M)
            return mpmath.log(a) / (L - 1)

        lo, hi = _mp_curve_ends([mp_adaptive(fn, digits)], digits)
        return max(lo[0], 0.0), hi[0]


class RandomizedResponse(Mechanism):
    """k-ary randomized response: report the true value w.p. e^eps0/(e^eps0 + k - 1), else a
    uniformly random other value. epsilon0-LDP; every pair of inputs is equally distinguishable."""

    name = "randomized-response"
    source = "k-ary randomized response (Kairouz, Oh, Viswanath 2016): divergences of its output pmfs"

    #: the most options: the output pmfs have k entries
    K_MAX = 10**7

    def __init__(self, eps0_value, k_value=2):
        self.eps0 = validate.nonnegative("eps0", eps0_value)  # 0: the perfectly private mechanism
        self.k = validate.integer("k", k_value, low=2, high=self.K_MAX)

    def pmfs(self, digits=None):
        """Output pmfs for inputs 0 and 1 (the worst pair, by symmetry)."""
        if digits is None:
            z = math.exp(self.eps0) + self.k - 1
            p = np.full(self.k, 1.0 / z)
            p[0] = math.exp(self.eps0) / z
            q = np.full(self.k, 1.0 / z)
            q[1] = math.exp(self.eps0) / z
            return p, q
        with mpmath.workdps(validate.digits(digits)):
            e = mpmath.exp(mpmath.mpf(self.eps0))
            z = e + self.k - 1
            p = [1 / z] * self.k
            q = [1 / z] * self.k
            p[0] = e / z
            q[1] = e / z
            return p, q

    def tradeoff(self, digits=None):
        return _tradeoff().from_pmfs(*self.pmfs(digits), digits=digits)

    def _log_norm(self) -> float:
        """log(1 + (k-1) e^{-eps0}) = log((e^eps0 + k - 1)/e^eps0)."""
        return math.log1p((self.k - 1) * math.exp(-self.eps0))

    def delta(self, epsilon):
        """(e^eps0 - e^eps)_+ / (e^eps0 + k - 1) (the formula ``rr-delta``), correctly rounded: 0.0
        where eps >= eps0, else the float nearest to the formula's mpmath value
        (:func:`dptheory.precision.mp_nearest`: e^eps0 - e^eps cancels near eps0, which its two
        precisions detect; the float -expm1(eps - eps0) / (1 + (k-1) e^{-eps0}) tells how many
        digits are lost, and whether the value is below the normal range)."""
        e = validate.real_array("epsilon", epsilon, low=0.0)
        flat = np.atleast_1d(e).astype(float).ravel()
        formula = RR_DELTA.mpmath(None, check=False)
        with np.errstate(divide="ignore"):
            gap = -np.expm1(np.minimum(flat - self.eps0, 0.0))  # 1 - e^{eps - eps0}, to a few ulps
            lost = np.clip(-np.log10(gap), 0.0, 400.0)
        out = np.zeros(flat.shape)
        for i in np.nonzero(flat < self.eps0)[0]:
            x = flat[i]
            out[i] = mp_nearest(lambda: formula(self.eps0, self.k, x), 20 + int(math.ceil(lost[i])))
        return out.reshape(e.shape) if e.ndim else float(out[0])

    def log_delta(self, epsilon):
        e = validate.real_array("epsilon", epsilon, low=0.0)
        with np.errstate(divide="ignore"):
            out = np.log(-np.expm1(np.minimum(e - self.eps0, 0.0))) - self._log_norm()
        return out if out.ndim else float(out)

    def epsilon(self, delta) -> Result:
        """The closed-form inverse eps0 + log1p(-delta (1 + (k-1) e^{-eps0})), 0 where delta >=
        delta(0), with its error bound (the log1p argument carries 4 roundings)."""
        d = validate.delta("delta", delta)
        x = -d * (1.0 + (self.k - 1) * math.exp(-self.eps0))
        dx = 4 * EPS * abs(x) + 2 * EPS * d * (self.k - 1) * math.exp(-self.eps0) * self.eps0
        params = {"eps0": self.eps0, "k": self.k, "delta": d}
        source = "k-ary randomized response: its privacy profile inverted in closed form"

        def at(xv, direction):
            if xv <= -1.0:
                return 0.0
            v = self.eps0 + math.log1p(xv)
            err = EPS * (self.eps0 + 2 * abs(math.log1p(xv)) + abs(v))
            return rounding.up_nonneg(v, err) if direction > 0 else rounding.down_nonneg(v, err)

        return Result("epsilon", at(x - dx, -1), at(min(x + dx, 0.0), 1), Kind.EXACT, Status.PROVEN, f"{self.name}-profile",
                      source, params=params)

    def rdp(self, orders) -> Curve:
        """D_lambda = log1p(expm1(eps0 (lambda-1)) (1 - e^{-eps0 lambda}) / (1 + (k-1) e^{-eps0}))
        / (lambda - 1), the closed form rewritten without cancellation (RR_RENYI is the printed
        form). Evaluated in log space: z = log expm1(x) + log(-expm1(-eps0 lambda)) - log(1 + (k-1)
        e^{-eps0}), x = eps0 (lambda - 1), and D = softplus(z)/(lambda - 1); an absolute error dz
        of z is a relative error of dz sigmoid(z)/softplus(z) <= dz min(1, 1/z) of softplus(z)."""
        o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
        if self.eps0 == 0:
            zero = np.zeros_like(o)
            return self._curve(o, zero, zero, {"eps0": 0.0, "k": self.k})
        e0 = self.eps0
        lm1 = o - 1.0
        x = e0 * lm1
        with np.errstate(over="ignore"):
            log_expm1 = x + np.log(-np.expm1(-x))
            l2 = np.log(-np.expm1(-e0 * o))
        ln = self._log_norm()
        z = log_expm1 + l2 - ln
        dz = EPS * (4 * np.abs(x) + 3 * np.abs(log_expm1 - x) + 4 * np.abs(l2) + 3 * ln + 2 * np.abs(z) + 4 * e0 * o)
        soft = np.logaddexp(0.0, z)  # softplus(z) = log(1 + e^z)
        v = soft / lm1
        # d softplus / dz = sigmoid(z), and sigmoid(z) / softplus(z) <= min(1, 1/z)
        rel = dz * np.where(z > 1.0, 1.0 / np.maximum(z, 1.0), 1.0) + 4 * EPS
        lo = rounding.down_nonneg(v, rel_err=rel)
        hi = rounding.up(v, rel_err=rel)
        return self._curve(o, lo, hi, {"eps0": e0, "k": self.k})


def from_name(name: str, *, sigma=1.0, scale=1.0, sensitivity=1.0, eps0=1.0, k=2) -> Mechanism:
    """The mechanism called ``name`` ("gaussian", "laplace" or "rr") with its parameters."""
    if name == "gaussian":
        return GaussianMechanism(sigma, sensitivity)
    if name == "laplace":
        return LaplaceMechanism(scale, sensitivity)
    if name in ("rr", "randomized-response"):
        return RandomizedResponse(eps0, validate.integer("k", k, low=2))
    raise validate.DomainError(f"mechanism = {name!r} is invalid: must be 'gaussian', 'laplace' or 'rr'")


@dataclasses.dataclass(frozen=True)
class MechanismReport:
    """The three views ``dptheory mechanism`` prints: epsilon(delta) from the exact profile, the
    same through the RDP curve and the one RDP -> DP route, and the RDP curve itself."""

    epsilon: Result
    epsilon_via_rdp: Result
    rdp: Curve

    def as_dict(self) -> dict:
        return {"epsilon": [self.epsilon.as_dict(), self.epsilon_via_rdp.as_dict()], "rdp": self.rdp.as_dict()}


def report(mechanism: Mechanism, delta, orders) -> MechanismReport:
    """epsilon(delta) of ``mechanism`` (exact, certified), via its RDP curve at ``orders`` (an
    upper bound), and that curve."""
    curve = mechanism.rdp(orders)
    return MechanismReport(mechanism.epsilon(delta), rdp_module.epsilon_from_rdp(curve, delta), curve)
