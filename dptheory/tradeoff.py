"""Trade-off functions (f-DP): closed forms and exact piecewise-linear functions.

A trade-off function f = T(P, Q) maps a type I error alpha to the smallest type II error of a
test of H0: P against H1: Q (Dong, Roth, Su 2022, Definition 2.1). It is convex, continuous,
non-increasing and f(alpha) <= 1 - alpha.

Two families are implemented:

* closed forms: :func:`gaussian` (G_mu), :func:`laplace`;
* :class:`PiecewiseLinear`, built exactly from a pair of discrete distributions by the
  Neyman-Pearson lemma (:func:`from_pmfs`), from knots (:func:`from_knots`), or as the
  (epsilon, delta)-DP function f_{epsilon,delta} (:func:`dp`).

A piecewise-linear trade-off function is stored as its *canonical pair*: one atom per segment,
with P-mass = the segment's width and Q-mass = its drop, sorted by likelihood ratio. Every
conversion (privacy profile, Renyi and F-divergences) is then a divergence of that pair, summed
over positive terms only, with no cancellation (Wang et al. 2023, Appendix B.3, Lemma B.4).

Orientation: for f = T(P, Q), ``1 + f*(-e^epsilon) = H_{e^epsilon}(Q||P)`` (derived here:
docs/errata.md#derived-conjugate-orientation) and ``(1/(lambda-1)) log int |f'|^(1-lambda) =
D_lambda(P||Q)`` (Wang et al. 2023, Corollary B.6).
"""

from __future__ import annotations

import abc
import bisect
import contextlib
import math

import mpmath
import numpy as np
from scipy import integrate, special

from . import divergences, rounding, validate
from .formula import Parts, definer
from .hull import lower_hull
from .inverse import SearchParameters, epsilon_bracket
from .profile import gdp_delta, gdp_delta_result, gdp_log_delta
from .results import Kind, Result, Status

# ---------------------------------------------------------------------------- closed forms


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from .symbols import Phi, alpha, eps, lam, mu, pi as prior

    delta_sym = sp.Symbol("delta", nonnegative=True)  # delta of f_{eps,delta}, which may be 0
    _logit = sp.log(prior / (1 - prior))

    return {
        "gdp-tradeoff": Parts(
            sp.erfc(mu / sp.sqrt(2) - sp.erfcinv(2 * alpha)) / 2,
            (mu, alpha),
            (alpha <= 1,),
        ),
        "gdp-renyi": Parts(
            lam * mu**2 / 2,
            (mu, lam),
            (lam > 1,),
        ),
        "gdp-fixed-point": Parts(
            Phi(-mu / 2),
            (mu,),
        ),
        "gdp-bayes-error": Parts(
            prior * Phi(-mu / 2 - _logit / mu) + (1 - prior) * Phi(-mu / 2 + _logit / mu),
            (mu, prior),
            (mu > 0, prior > 0, prior < 1),
        ),
        "dp-tradeoff": Parts(
            sp.Max(0, 1 - delta_sym - sp.exp(eps) * alpha, sp.exp(-eps) * (1 - delta_sym - alpha)),
            (eps, delta_sym, alpha),
            (eps >= 0, delta_sym <= 1, alpha <= 1),
        ),
        "laplace-tradeoff": Parts(
            sp.Piecewise(
                (1 - sp.exp(mu) * alpha, alpha < sp.exp(-mu) / 2),
                (sp.exp(-mu) / (4 * alpha), alpha <= sp.Rational(1, 2)),
                (sp.exp(-mu) * (1 - alpha), True),
            ),
            (mu, alpha),
            (alpha <= 1,),
        ),
        "laplace-delta": Parts(
            sp.Max(0, 1 - sp.exp((eps - mu) / 2)),
            (mu, eps),
            (eps >= 0,),
        ),
        "laplace-renyi": Parts(
            sp.log(lam / (2 * lam - 1) * sp.exp((lam - 1) * mu) + (lam - 1) / (2 * lam - 1) * sp.exp(-lam * mu)) / (lam - 1),
            (mu, lam),
            (lam > 1,),
        ),
    }


#: the exact closed forms of this module (proven), from :func:`_closed_forms`
_exact = definer(_closed_forms, kind=Kind.EXACT, status=Status.PROVEN)

GAUSSIAN_TRADEOFF = _exact(
    "gdp-tradeoff",
    source="Dong, Roth, Su (2022), Definition 2.4",
    lhs=r"G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha)-\mu)",
    description="trade-off function of $N(0,1)$ against $N(\\mu,1)$",
)

GAUSSIAN_RENYI = _exact(
    "gdp-renyi",
    source="Dong, Roth, Su (2022); Mironov (2017), Proposition 7",
    lhs=r"D_\lambda(\mathcal N(0,1)\|\mathcal N(\mu,1))",
    description="Renyi divergence of $\\mu$-GDP (an upper bound on the RDP of any $\\mu$-GDP mechanism)",
)

GAUSSIAN_FIXED_POINT = _exact(
    "gdp-fixed-point",
    source="Kaissis et al. (2024), Lemma 4 (fixed point of $G_\\mu$)",
    lhs=r"\alpha^*",
)

GAUSSIAN_BAYES_ERROR = _exact(
    "gdp-bayes-error",
    source="Kaissis et al. (2024), eq. (2) for $G_\\mu$",
    lhs=r"R_{\min}(\pi)",
)

DP_TRADEOFF = _exact(
    "dp-tradeoff",
    source="Dong, Roth, Su (2022), Proposition 2.5",
    lhs=r"f_{\epsilon,\delta}(\alpha)",
)

LAPLACE_TRADEOFF = _exact(
    "laplace-tradeoff",
    source="Dong, Roth, Su (2022), Appendix A (Laplace trade-off)",
    lhs=r"T(\mathrm{Lap}(0,1), \mathrm{Lap}(\mu,1))(\alpha)",
)

LAPLACE_DELTA = _exact(
    "laplace-delta",
    source="derived here from the Laplace trade-off of Dong, Roth, Su (2022) (docs/errata.md#derived-laplace-profile)",
    lhs=r"\delta(\epsilon)",
)

LAPLACE_RENYI = _exact(
    "laplace-renyi",
    source="Mironov (2017), Table II (Laplace mechanism, $\\mu$ = sensitivity / scale)",
    lhs=r"D_\lambda(\mathrm{Lap}(0,1)\|\mathrm{Lap}(\mu,1))",
)


def _alpha_array(value):
    return validate.real_array("alpha", value, low=0.0, high=1.0)


class TradeOff(abc.ABC):
    """Common interface of trade-off functions.

    Subclasses implement :meth:`_evaluate`, :meth:`inverse`, :meth:`conjugate` and may override
    the conversions with closed forms.
    """

    #: True when f equals its inverse (then the privacy profile is the same in both orders)
    symmetric: bool = False

    # -- evaluation
    def __call__(self, alpha_values):
        """f(alpha), vectorised over alpha in [0, 1]."""
        arr = _alpha_array(alpha_values)
        out = self._evaluate(np.atleast_1d(arr))
        return out.reshape(arr.shape) if arr.ndim else out[0]

    @abc.abstractmethod
    def _evaluate(self, a: np.ndarray) -> np.ndarray: ...

    @abc.abstractmethod
    def inverse(self) -> "TradeOff":
        """f^{-1}(y) = inf{x in [0,1] : f(x) <= y}; T(Q, P) = T(P, Q)^{-1}."""

    @abc.abstractmethod
    def conjugate(self, y):
        """Convex conjugate f*(y) = sup_{x in [0,1]} (x y - f(x))."""

    # -- conversions
    def delta(self, epsilon):
        """Privacy profile delta(epsilon) = 1 + f*(-e^epsilon) (Dong, Roth, Su 2022, Proposition 2.12)."""
        e = validate.real_array("epsilon", epsilon)
        out = 1.0 + np.asarray(self.conjugate(-np.exp(e)), dtype=float)
        return out if out.ndim else float(out)

    def log_delta(self, epsilon):
        """log of :meth:`delta`."""
        with np.errstate(divide="ignore"):
            return np.log(self.delta(epsilon))

    def log_delta_enclosure(self, epsilon) -> tuple[float, float]:
        """Certified (lower, upper) of log delta(epsilon) at one epsilon: by default the float
        value widened by 1e-12 + 1e-13 |log delta| (closed forms without cancellation)."""
        v = float(self.log_delta(epsilon))
        if not math.isfinite(v):
            return v, v
        err = 1e-12 + 1e-13 * abs(v)
        return rounding.down(v, err), rounding.up(v, err)

    def epsilon(self, delta) -> Result:
        """epsilon(delta) = inf{epsilon >= 0: delta(epsilon) <= delta}, as a certified bracket
        (the one inverter, on :meth:`log_delta_enclosure`)."""
        bracket = epsilon_bracket(lambda e, _tol: self.log_delta_enclosure(e), delta,
                                  SearchParameters(rtol=1e-9, atol=1e-15))
        return Result("epsilon", bracket.lower, bracket.upper, Kind.EXACT, Status.PROVEN, method=type(self).__name__.lower(),
                      source="Dong, Roth, Su (2022), Proposition 2.12")

    def bayes_error(self, prior_values):
        """Minimum Bayes error R_min(pi) = min_alpha (pi alpha + (1 - pi) f(alpha))
        (Kaissis et al. 2024, eq. (2), pi multiplying alpha)."""
        pv = validate.real_array("prior", prior_values, low=0.0, high=1.0)
        flat = np.atleast_1d(pv)
        out = np.zeros_like(flat)
        inner = (flat > 0) & (flat < 1)
        if np.any(inner):
            pi_in = flat[inner]
            out[inner] = -(1.0 - pi_in) * np.asarray(self.conjugate(-pi_in / (1.0 - pi_in)), dtype=float)
        return out.reshape(pv.shape) if pv.ndim else float(out[0])

    def fixed_point(self) -> float:
        """The alpha* in [0, 1] with f(alpha*) = alpha*."""
        return float(optimize_root(lambda x: float(self(x)) - x, 0.0, 1.0))

    def symmetrize(self) -> "TradeOff":
        """Symmetrization C(f) (Dong, Roth, Su 2022, Definition F.1)."""
        if self.symmetric:
            return self
        raise validate.DomainError(f"{type(self).__name__}: symmetrize needs a piecewise-linear form")

    def renyi(self, order):
        """(1/(lambda-1)) log int_0^1 |f'(x)|^(1-lambda) dx (Wang et al. 2023, Corollary B.6)."""
        raise validate.DomainError(f"{type(self).__name__} has no Renyi conversion")

    def f_divergence(self, gen: divergences.Generator):
        """l_F(f) = D_F(P||Q) (Dong, Roth, Su 2022, Proposition B.4)."""
        raise validate.DomainError(f"{type(self).__name__} has no F-divergence conversion")


def optimize_root(fn, lo, hi):
    from scipy import optimize

    return optimize.brentq(fn, lo, hi, xtol=1e-15, rtol=4e-16, maxiter=500)


# ---------------------------------------------------------------------------- Gaussian


class Gaussian(TradeOff):
    """G_mu = T(N(0,1), N(mu,1)) (Dong, Roth, Su 2022, Definition 2.4), all conversions in closed form."""

    symmetric = True

    def __init__(self, mu_value, digits=None):
        self.mu = validate.nonnegative("mu", mu_value)
        self.digits = validate.digits(digits)

    def __repr__(self) -> str:
        return f"Gaussian(mu={self.mu})"

    def __call__(self, alpha_values):
        if self.digits is None:
            return super().__call__(alpha_values)
        arr = np.asarray(alpha_values, dtype=object)
        fn = GAUSSIAN_TRADEOFF.mpmath(self.digits)
        out = [fn(self.mu, validate.real("alpha", a, low=0.0, high=1.0)) for a in arr.ravel()]
        return out[0] if arr.ndim == 0 else np.array(out, dtype=object).reshape(arr.shape)

    def _evaluate(self, a):
        z = -special.ndtri(a)  # = Phi^{-1}(1 - a), accurate for small a
        return special.ndtr(z - self.mu)

    def inverse(self):
        return self

    def conjugate(self, y):
        y = validate.real_array("y", y)
        flat = np.atleast_1d(y).astype(float)
        out = flat.copy()  # y >= 0: attained at x = 1
        neg = flat < 0
        if np.any(neg):
            if self.mu == 0:
                out[neg] = np.maximum(flat[neg], -1.0)  # f(x) = 1 - x
            else:
                out[neg] = np.exp(gdp_log_delta(self.mu, np.log(-flat[neg]))) - 1.0
        return out.reshape(y.shape) if y.ndim else float(out[0])

    def delta(self, epsilon):
        if self.mu == 0:  # identical distributions: delta(eps) = (1 - e^eps)_+
            e = validate.real_array("epsilon", epsilon)
            out = np.maximum(-np.expm1(e), 0.0)
            return out if out.ndim else float(out)
        return gdp_delta(self.mu, epsilon, digits=self.digits)

    def log_delta(self, epsilon):
        if self.mu == 0:
            with np.errstate(divide="ignore"):
                return np.log(self.delta(epsilon))
        return gdp_log_delta(self.mu, epsilon, digits=self.digits)

    def log_delta_enclosure(self, epsilon) -> tuple[float, float]:
        """The certified enclosure of :func:`dptheory.profile.gdp_delta_result`."""
        if self.mu == 0:
            return super().log_delta_enclosure(epsilon)
        res = gdp_delta_result(self.mu, epsilon, digits=self.digits)
        return res.log_lower, res.log_upper

    def epsilon(self, delta):
        from .profile import gdp_epsilon

        if self.mu == 0:
            validate.delta("delta", delta)
            return Result("epsilon", 0.0, 0.0, Kind.EXACT, Status.PROVEN, "gdp", GAUSSIAN_TRADEOFF.source,
                          note="mu = 0: the two distributions are identical", params={"mu": 0.0})
        return gdp_epsilon(self.mu, delta, digits=self.digits)

    def bayes_error(self, prior_values):
        pv = validate.real_array("prior", prior_values, low=0.0, high=1.0)
        flat = np.atleast_1d(pv).astype(float)
        out = np.zeros_like(flat)
        inner = (flat > 0) & (flat < 1)
        if np.any(inner):
            if self.mu == 0:
                out[inner] = np.minimum(flat[inner], 1 - flat[inner])
            else:
                out[inner] = GAUSSIAN_BAYES_ERROR.numpy(check=False)(self.mu, flat[inner])
        return out.reshape(pv.shape) if pv.ndim else float(out[0])

    def fixed_point(self):
        return float(GAUSSIAN_FIXED_POINT(self.mu))

    def renyi(self, order):
        o = validate.real_array("order", order, low=1.0, low_open=True)
        return GAUSSIAN_RENYI.numpy(check=False)(self.mu, o)

    def f_divergence(self, gen):
        """D_F(N(0,1)||N(mu,1)) = E_{X ~ N(mu,1)} F(exp(-mu X + mu^2/2)), by adaptive quadrature."""
        m = self.mu

        def integrand(x):
            ratio = math.exp(-m * x + m * m / 2)
            return float(gen(ratio)) * math.exp(-0.5 * (x - m) ** 2) / math.sqrt(2 * math.pi)

        # the mass of N(mu, 1) outside mu +- 38 is below 1e-300
        pieces = [(m - 38.0, m), (m, m + 38.0)]
        return math.fsum(integrate.quad(integrand, lo, hi, epsabs=1e-15, epsrel=1e-12, limit=400)[0]
                         for lo, hi in pieces)

    def compose(self, other: "Gaussian") -> "Gaussian":
        """G_mu1 (x) G_mu2 = G_sqrt(mu1^2 + mu2^2) (Dong, Roth, Su 2022, Corollary 3.3)."""
        return Gaussian(math.hypot(self.mu, other.mu), digits=self.digits)


def gaussian(mu_value, digits=None) -> Gaussian:
    """The Gaussian trade-off function G_mu, callable on arrays of alpha.

    With ``digits`` it evaluates with mpmath at that precision.
    """
    return Gaussian(mu_value, digits=digits)


def gdp_compose(*mus) -> float:
    """mu of the composition of mu_i-GDP mechanisms: sqrt(sum mu_i^2) (Dong, Roth, Su 2022, Corollary 3.3)."""
    vals = [validate.nonnegative(f"mu[{i}]", m) for i, m in enumerate(mus)]
    return math.sqrt(math.fsum(v * v for v in vals))


# ---------------------------------------------------------------------------- Laplace


class Laplace(TradeOff):
    """T(Lap(0,1), Lap(mu,1)), the Laplace mechanism with sensitivity/scale = mu (Dong, Roth, Su 2022)."""

    symmetric = True

    def __init__(self, mu_value):
        self.mu = validate.nonnegative("mu", mu_value)

    def __repr__(self) -> str:
        return f"Laplace(mu={self.mu})"

    def _evaluate(self, a):
        return LAPLACE_TRADEOFF.numpy(check=False)(self.mu, a)

    def inverse(self):
        return self

    def delta(self, epsilon):
        e = validate.real_array("epsilon", epsilon)
        flat = np.atleast_1d(e).astype(float)
        pos = np.maximum(0.0, -np.expm1((np.abs(flat) - self.mu) / 2))
        # symmetric f: delta(-e) = 1 - e^{-e} + e^{-e} delta(e)  (docs/errata.md#derived-symmetric-profile)
        out = np.where(flat >= 0, pos, -np.expm1(flat) + np.exp(flat) * pos)
        return out.reshape(e.shape) if e.ndim else float(out[0])

    def conjugate(self, y):
        y = validate.real_array("y", y)
        flat = np.atleast_1d(y).astype(float)
        out = flat.copy()
        neg = flat < 0
        out[neg] = self.delta(np.log(-flat[neg])) - 1.0
        return out.reshape(y.shape) if y.ndim else float(out[0])

    def bayes_error(self, prior_values):
        pv = validate.real_array("prior", prior_values, low=0.0, high=1.0)
        out = np.minimum(np.minimum(pv, 1 - pv), math.exp(-self.mu / 2) * np.sqrt(pv * (1 - pv)))
        return out if np.ndim(out) else float(out)

    def fixed_point(self):
        return 0.5 * math.exp(-self.mu / 2)

    def renyi(self, order):
        o = validate.real_array("order", order, low=1.0, low_open=True)
        return LAPLACE_RENYI.numpy(check=False)(self.mu, o)

    def f_divergence(self, gen):
        """D_F(Lap(0,1)||Lap(mu,1)) by quadrature, split at the kinks 0 and mu."""
        m = self.mu

        def integrand(x):
            ratio = math.exp(-abs(x) + abs(x - m))
            return float(gen(ratio)) * 0.5 * math.exp(-abs(x - m))

        pieces = [(-np.inf, 0.0), (0.0, m), (m, np.inf)]
        return math.fsum(integrate.quad(integrand, lo, hi, epsabs=1e-14, epsrel=1e-12, limit=400)[0]
                         for lo, hi in pieces if hi > lo)


def laplace(mu_value) -> Laplace:
    """The Laplace trade-off function with mu = sensitivity / scale."""
    return Laplace(mu_value)


# ---------------------------------------------------------------------------- piecewise linear


def _is_mp(values) -> bool:
    return any(isinstance(v, mpmath.mpf) for v in values)


class PiecewiseLinear(TradeOff):
    """An exact piecewise-linear trade-off function, stored as its canonical pair.

    Segment j has width ``p_mass[j]`` and drop ``q_mass[j]``; segments are sorted by likelihood
    ratio ``p/q`` increasing (steepest first). A first segment with ``p = 0`` is the vertical
    drop when f(0) < 1; a last segment with ``q = 0`` is the flat part after the first zero.
    Use :func:`from_pmfs`, :func:`from_knots` or :func:`dp` to build one.
    """

    def __init__(self, p_mass, q_mass, *, digits=None, _checked=False):
        self.digits = validate.digits(digits)
        if self.digits is None:
            p_arr = np.asarray(p_mass, dtype=float)
            q_arr = np.asarray(q_mass, dtype=float)
        else:
            with mpmath.workdps(self.digits):
                p_arr = np.array([mpmath.mpf(v) for v in p_mass], dtype=object)
                q_arr = np.array([mpmath.mpf(v) for v in q_mass], dtype=object)
        if not _checked:
            p_arr, q_arr = _canonical(p_arr, q_arr)
        self.p_mass = p_arr
        self.q_mass = q_arr
        with self._precision():
            zero = 0 if self.digits is None else mpmath.mpf(0)
            # alpha_k = sum_{j<k} p_j and beta_k = sum_{j>=k} q_j: the flat part ends exactly at
            # beta = 0, and the knots of the inverse are exactly the reflected knots
            # (a cumulative sum can exceed 1 by an ulp: keep the knots in the unit square)
            one = zero + 1
            self.knots_alpha = np.array([min(v, one) for v in np.concatenate([[zero], np.cumsum(p_arr)])],
                                        dtype=p_arr.dtype)
            self.knots_beta = np.array([min(v, one) for v in np.concatenate([np.cumsum(q_arr[::-1])[::-1], [zero]])],
                                       dtype=p_arr.dtype)

    def _precision(self):
        """Context in which mpmath arithmetic on this function's masses keeps its digits."""
        return mpmath.workdps(self.digits) if self.digits is not None else contextlib.nullcontext()

    def __repr__(self) -> str:
        return f"PiecewiseLinear({len(self.p_mass)} segments)"

    # -- structure
    @property
    def symmetric(self) -> bool:  # type: ignore[override]
        """f equals f^{-1} (to 1e-12, or 10^-(digits-5)) at every knot of both."""
        inv = self.inverse()
        xs = np.unique(np.concatenate([self.knots_alpha.astype(float), inv.knots_alpha.astype(float)]))
        tol = 1e-12 if self.digits is None else 10.0 ** (-(self.digits - 5))
        return bool(np.max(np.abs(self._evaluate(xs) - inv._evaluate(xs))) <= tol)

    @property
    def slopes(self):
        """Slope of each segment, -q/p (-inf for the vertical segment)."""
        with np.errstate(divide="ignore"):
            if self.digits is None:
                return np.where(self.p_mass > 0, -self.q_mass / np.where(self.p_mass > 0, self.p_mass, 1.0), -np.inf)
            return np.array([-b / a if a > 0 else -mpmath.inf for a, b in zip(self.p_mass, self.q_mass)], dtype=object)

    def knots(self):
        """(alpha, beta) knots from (0, 1) to (1, 0)."""
        return self.knots_alpha.copy(), self.knots_beta.copy()

    # -- evaluation
    def _eval_knots(self):
        a, b = self.knots_alpha, self.knots_beta
        if len(self.p_mass) and self.p_mass[0] == 0:  # vertical drop at alpha = 0
            a, b = a[1:], b[1:]
        return a, b

    def __call__(self, alpha_values):
        if self.digits is None:
            return super().__call__(alpha_values)
        arr = np.asarray(alpha_values, dtype=object)
        a, b = self._eval_knots()
        alist = list(a)
        out = []
        with mpmath.workdps(self.digits):
            for x in arr.ravel():
                x = mpmath.mpf(validate.real("alpha", x, low=0.0, high=1.0)) if not isinstance(x, mpmath.mpf) else x
                i = bisect.bisect_right(alist, x)
                if i >= len(alist):
                    out.append(b[-1])
                elif i == 0:
                    out.append(b[0])
                else:
                    x0, x1, y0, y1 = alist[i - 1], alist[i], b[i - 1], b[i]
                    out.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y1)
        return out[0] if arr.ndim == 0 else np.array(out, dtype=object).reshape(arr.shape)

    def _evaluate(self, a_values):
        a, b = self._eval_knots()
        return np.interp(a_values, a.astype(float), b.astype(float))

    def inverse(self) -> "PiecewiseLinear":
        return PiecewiseLinear(self.q_mass[::-1], self.p_mass[::-1], digits=self.digits, _checked=True)

    def conjugate(self, y):
        """max over knots of (y alpha_k - beta_k), located by binary search on the slopes."""
        slopes = self.slopes
        if self.digits is None:
            yv = validate.real_array("y", y)
            flat = np.atleast_1d(yv).astype(float)
            idx = np.searchsorted(slopes, flat, side="left")
            out = flat * self.knots_alpha[idx] - self.knots_beta[idx]
            return out.reshape(yv.shape) if yv.ndim else float(out[0])
        arr = np.asarray(y, dtype=object)
        sl = list(slopes)
        res = []
        with mpmath.workdps(self.digits):
            for v in arr.ravel():
                v = mpmath.mpf(v)
                k = bisect.bisect_left(sl, v)
                res.append(v * self.knots_alpha[k] - self.knots_beta[k])
        return res[0] if arr.ndim == 0 else np.array(res, dtype=object).reshape(arr.shape)

    # -- conversions, as divergences of the canonical pair
    def delta(self, epsilon):
        """delta(epsilon) = 1 + f*(-e^epsilon) = H_{e^epsilon}(Q~||P~) of the canonical pair."""
        return divergences.hockey_stick(self.q_mass.tolist(), self.p_mass.tolist(), epsilon, digits=self.digits)

    def log_delta_enclosure(self, epsilon) -> tuple[float, float]:
        """Certified enclosure of log delta(epsilon) of the canonical pair
        (:func:`dptheory.divergences.log_hockey_stick_enclosure`; mpmath with ``digits``)."""
        if self.digits is not None:
            v = self.log_delta(epsilon)
            if not mpmath.isfinite(v):
                return float(v), float(v)
            with mpmath.workdps(self.digits + 10):
                err = abs(v) * mpmath.mpf(10) ** (3 - self.digits) + mpmath.mpf(10) ** (-self.digits)
                return rounding.mp_down(v - err), rounding.mp_up(v + err)
        return divergences.log_hockey_stick_enclosure(self.q_mass, self.p_mass, epsilon)

    def log_delta(self, epsilon):
        if self.digits is not None:
            d = self.delta(epsilon)
            return mpmath.log(d) if np.ndim(d) == 0 else np.array([mpmath.log(v) for v in d], dtype=object)
        return divergences.log_hockey_stick(self.q_mass, self.p_mass, epsilon)

    def renyi(self, order):
        """(1/(lambda-1)) log sum_j p_j^lambda q_j^(1-lambda) = D_lambda(P||Q); inf if f has a flat
        part of positive length (z_f < 1), 0-contribution from a vertical drop."""
        return divergences.renyi(self.p_mass.tolist(), self.q_mass.tolist(), order, digits=self.digits)

    def f_divergence(self, gen):
        """l_F(f) = sum_j p_j |s_j| F(1/|s_j|) + F(0)(1 - f(0)) + tau_F (1 - z_f)."""
        return divergences.f_divergence(self.p_mass.tolist(), self.q_mass.tolist(), gen, digits=self.digits)

    def bayes_error(self, prior_values):
        if self.digits is None:
            return super().bayes_error(prior_values)
        arr = np.asarray(prior_values, dtype=object)
        out = []
        with mpmath.workdps(self.digits):
            for v in arr.ravel():
                v = mpmath.mpf(validate.real("prior", v, low=0.0, high=1.0))
                out.append(min(v * a + (1 - v) * b for a, b in zip(self.knots_alpha, self.knots_beta)))
        return out[0] if arr.ndim == 0 else np.array(out, dtype=object).reshape(arr.shape)

    def fixed_point(self):
        """Exact solution of f(x) = x on the segment where beta - alpha changes sign."""
        with self._precision():
            return self._fixed_point()

    def _fixed_point(self):
        g = self.knots_beta - self.knots_alpha
        k = int(np.argmax([v <= 0 for v in g]))
        if g[k] == 0:
            return self.knots_alpha[k]
        g0, g1 = g[k - 1], g[k]
        a0, a1 = self.knots_alpha[k - 1], self.knots_alpha[k]
        return a0 + g0 / (g0 - g1) * (a1 - a0)

    def symmetrize(self) -> "PiecewiseLinear":
        """Symmetrization C(f) (Dong, Roth, Su 2022, Definition F.1; Wang et al. 2023, eq. (3)).

        With x_bar = inf{x : -1 in the subdifferential of f at x}: C(f) = min{f, f^-1}** if
        x_bar <= f(x_bar), else max{f, f^-1}. Both are computed exactly on the union of the knots
        of f and f^-1 and their crossings, followed by a lower convex hull.

        Erratum: Wang et al. print the middle piece of min{f, f^-1}** as x_bar - f(x_bar) - x; it
        is x_bar + f(x_bar) - x (the slope -1 line through (x_bar, f(x_bar))). Equation (3) also takes
        C(f) = f on [0, x_bar], which holds only where f <= f^-1 there; a pair with a vertical drop
        in f^-1 (z_f < 1) can violate it, so the general construction is used.
        """
        with self._precision():
            x_bar, f_x_bar = self.steep_end()
            return self._envelope_with_inverse(minimum=bool(x_bar <= f_x_bar))

    def steep_end(self):
        """(x_bar, f(x_bar)): the end of the segments steeper than -1."""
        steep = [(a, b) for a, b in zip(self.p_mass, self.q_mass) if b > a]
        zero = 0 if self.digits is None else mpmath.mpf(0)
        x_bar = sum((a for a, _ in steep), zero)
        return x_bar, 1 - sum((b for _, b in steep), zero)

    def _envelope_with_inverse(self, minimum: bool) -> "PiecewiseLinear":
        inv = self.inverse()
        xs = sorted(set(list(self.knots_alpha) + list(inv.knots_alpha)))
        if self.digits is None:
            xs_arr = np.array(xs, dtype=float)
        else:
            xs_arr = np.array(xs, dtype=object)
        fa, fb = list(self(xs_arr)), list(inv(xs_arr))
        pick = min if minimum else max
        pts_x, pts_y = [xs[0]], [pick(fa[0], fb[0])]
        for i in range(1, len(xs)):
            d0, d1 = fa[i - 1] - fb[i - 1], fa[i] - fb[i]
            if d0 * d1 < 0:
                t = d0 / (d0 - d1)
                pts_x.append(xs[i - 1] + t * (xs[i] - xs[i - 1]))
                pts_y.append(fa[i - 1] + t * (fa[i] - fa[i - 1]))
            pts_x.append(xs[i])
            pts_y.append(pick(fa[i], fb[i]))
        hx, hy = lower_hull(pts_x, pts_y)
        one = 1 if self.digits is None else mpmath.mpf(1)
        zero = 0 * one
        p_mass = [zero] + [max(b - a, zero) for a, b in zip(hx, hx[1:])]
        q_mass = [max(one - hy[0], zero)] + [max(a - b, zero) for a, b in zip(hy, hy[1:])]
        return PiecewiseLinear(p_mass, q_mass, digits=self.digits)


def _canonical(p_arr: np.ndarray, q_arr: np.ndarray):
    """Drop empty atoms, sort by likelihood ratio p/q, merge equal ratios."""
    if len(p_arr) != len(q_arr):
        raise validate.DomainError(f"p and q must have the same support length, got {len(p_arr)} and {len(q_arr)}")
    keep = [i for i in range(len(p_arr)) if p_arr[i] > 0 or q_arr[i] > 0]
    inf = math.inf if p_arr.dtype != object else mpmath.inf

    def ratio(i):
        return inf if q_arr[i] == 0 else p_arr[i] / q_arr[i]

    keep.sort(key=ratio)
    ps, qs, last = [], [], None
    for i in keep:
        r = ratio(i)
        if last is not None and r == last:
            ps[-1] = ps[-1] + p_arr[i]
            qs[-1] = qs[-1] + q_arr[i]
        else:
            ps.append(p_arr[i])
            qs.append(q_arr[i])
            last = r
    dtype = p_arr.dtype
    return np.array(ps, dtype=dtype), np.array(qs, dtype=dtype)


def from_pmfs(p, q, digits=None) -> PiecewiseLinear:
    """The exact trade-off function T(P, Q) of two discrete distributions (Neyman-Pearson).

    Ties in the likelihood ratio are merged, atoms where only Q has mass give the vertical drop
    f(0) < 1, atoms where only P has mass give the flat part after the first zero z_f < 1.

    Parameters
    ----------
    p, q : array_like
        Probability vectors on the same support.
    digits : int, optional
        Keep the masses and evaluate with mpmath at this precision.
    """
    digits = validate.digits(digits)
    if digits is None:
        pa, qa = validate.pmf_pair(p, q)
        return PiecewiseLinear(pa, qa)
    with mpmath.workdps(digits):
        pm = validate.mp_pmf("p", p)
        qm = validate.mp_pmf("q", q)
    if len(pm) != len(qm):
        raise validate.DomainError(f"p and q must have the same support length, got {len(pm)} and {len(qm)}")
    return PiecewiseLinear(pm, qm, digits=digits)


def from_knots(alpha_values, beta_values, digits=None, *, tol: float = 1e-12) -> PiecewiseLinear:
    """A piecewise-linear trade-off function through the given knots.

    The knots must start at alpha = 0, have non-decreasing alpha, non-increasing beta,
    non-decreasing slopes (convexity) and satisfy beta <= 1 - alpha; the curve is completed by a
    vertical drop from (0, 1) and a flat part to (1, 0) where needed.
    """
    a = list(alpha_values)
    b = list(beta_values)
    if len(a) != len(b) or len(a) < 1:
        raise validate.DomainError("alpha and beta knots must be non-empty and of equal length")
    fa = validate.real_array("alpha", [float(v) for v in a], low=0.0, high=1.0)
    fb = validate.real_array("beta", [float(v) for v in b], low=0.0, high=1.0)
    if fa[0] != 0:
        raise validate.DomainError(f"alpha[0] = {fa[0]} is invalid: the first knot must be at alpha = 0")
    if np.any(np.diff(fa) < -tol) or np.any(np.diff(fb) > tol):
        raise validate.DomainError("knots must have non-decreasing alpha and non-increasing beta")
    if np.any(fb > 1 - fa + tol):
        i = int(np.argmax(fb - (1 - fa)))
        raise validate.DomainError(
            f"knot (alpha={fa[i]}, beta={fb[i]}) is invalid: a trade-off function satisfies f(alpha) <= 1 - alpha")
    p_mass: list = []
    q_mass: list = []
    zero = 0 if digits is None else mpmath.mpf(0)
    one = 1 if digits is None else mpmath.mpf(1)
    if b[0] < one:
        p_mass.append(zero)
        q_mass.append(one - b[0])
    for i in range(1, len(a)):
        da, db = a[i] - a[i - 1], b[i - 1] - b[i]
        if abs(float(da)) <= tol and abs(float(db)) <= tol:
            continue
        p_mass.append(max(da, zero))
        q_mass.append(max(db, zero))
    if a[-1] < one:
        if float(b[-1]) > tol:
            raise validate.DomainError(
                f"last knot (alpha={fa[-1]}, beta={fb[-1]}): a trade-off function reaches (1, 0)")
        p_mass.append(one - a[-1])
        q_mass.append(zero)
    slopes = [(-float(qv) / float(pv)) if float(pv) > 0 else -math.inf for pv, qv in zip(p_mass, q_mass)]
    for s0, s1 in zip(slopes, slopes[1:]):
        if s1 < s0 - 1e-9 * max(1.0, abs(s0)):
            raise validate.DomainError("knots are not convex: slopes must be non-decreasing")
    return PiecewiseLinear(p_mass, q_mass, digits=digits)


def dp(epsilon, delta=0.0, digits=None) -> PiecewiseLinear:
    """f_{epsilon,delta}(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}
    (Dong, Roth, Su 2022, Proposition 2.5), built from its canonical pair
    P = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0) and Q = P reversed."""
    e = validate.nonnegative("epsilon", epsilon)
    d = validate.probability("delta", delta)
    digits = validate.digits(digits)
    if digits is None:
        big = (1 - d) / (1 + math.exp(-e))
        small = (1 - d) / (1 + math.exp(e))
        p = [d, big, small, 0.0]
    else:
        with mpmath.workdps(digits):
            E = mpmath.exp(mpmath.mpf(e))
            D = mpmath.mpf(d)
            p = [D, (1 - D) * E / (1 + E), (1 - D) / (1 + E), mpmath.mpf(0)]
    return PiecewiseLinear(p, p[::-1], digits=digits)
