"""Privacy profiles delta(epsilon) of Gaussian DP, their logarithms and their inverse.

A privacy profile of a pair (P, Q) is delta(epsilon) = H_{e^epsilon}(P||Q), non-increasing in
epsilon; its inverse epsilon(delta) = inf{epsilon >= 0 : delta(epsilon) <= delta} is computed by
the one inverter, :func:`dptheory.inverse.epsilon_bracket`, from a certified enclosure of
log delta.

Gaussian DP (Dong, Roth, Su 2022, Corollary 2.13):
``delta_mu(epsilon) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2)``.

Three ways to evaluate it:

* :func:`gdp_delta` (float64): the value correctly rounded to a float, 0.0 or a subnormal where the truth
  is below the float range (as scipy does), so that arrays and root finders work;
* :func:`gdp_log_delta` (float64 or mpmath): log delta, accurate far below the float range;
* :func:`gdp_delta_result`: a certified :class:`~dptheory.results.Result` (log ends included),
  which goes to mpmath where the float64 enclosure is too wide (cancellation).

The float64 path works in log space through the Mills ratio (no underflow down to log delta of
about -1e300) and carries a running error bound (:func:`gdp_log_delta_enclosure`).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
from statistics import NormalDist

from . import rounding, validate
from .rounding import EPS
from .formula import Formula, Parts, register
from .inverse import SearchParameters, epsilon_bracket
from .precision import log1mexp, mp_adaptive, mp_nearest, nearest_from_log_enclosure
from .results import Kind, Result, Status
from .special import ERFCX_RTOL, LOG_NDTR_RTOL, log_ndtr, mills


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas (built on first use: sympy is slow to import)."""
    import sympy as sp

    from .symbols import Phi, eps, mu

    return {
        "gdp-delta": Parts(Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2), (mu, eps), (mu > 0,)),
    }


GDP_DELTA = register(Formula(
    name="gdp-delta",
    build=_closed_forms,
    kind=Kind.EXACT,
    status=Status.PROVEN,
    source="Dong, Roth, Su (2022), Corollary 2.13",
    lhs=r"\delta_\mu(\epsilon)",
    description="privacy profile of $\\mu$-GDP",
))

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)

#: relative width of the float64 enclosure of delta above which :func:`gdp_delta_result` and
#: :func:`gdp_epsilon` evaluate with mpmath instead
FLOAT_WIDTH_LIMIT = 1e-10

#: decimal digits of the mpmath fallback
FALLBACK_DIGITS = 30


#: absolute error of a float64 result in the subnormal range (a few units of 2^-1074)
_SUBNORMAL = 1e-322


def _log_ndtr_flush(x: np.ndarray) -> np.ndarray:
    """Absolute error of log_ndtr where log Phi(x) = -Phi(-x) is subnormal: it returns -0.0
    from about x = 38 on (true value -2.9e-316 there); |log Phi(x)| <= phi(x)/x bounds it."""
    with np.errstate(under="ignore", divide="ignore"):
        tail = 2 * np.exp(-0.5 * np.minimum(x * x, 1e300)) / np.maximum(x, 1.0)
    return np.where(x > 30, tail + _SUBNORMAL, 0.0)


def _log_ndtr_slope(x: np.ndarray) -> np.ndarray:
    """A bound on d/dx log Phi(x) = phi(x)/Phi(x): |x| + 1 for x < 0 (Mills ratio
    R(y) >= 1/(y + 1)), 2 phi(x) <= 0.8 e^{-x^2/2} for x >= 0 (Phi(x) >= 1/2)."""
    with np.errstate(under="ignore"):
        return np.where(x < 0, np.abs(x) + 1.0, 0.8 * np.exp(-0.5 * np.minimum(x * x, 1e300)))


def _enclosure_float(mu_v: float, e: np.ndarray):
    """(mid, lower, upper) of log delta_mu(e), float64, with a running error bound.

    Error analysis (EPS = 2^-52 bounds the relative error of every correctly rounded operation
    and of the libm ``exp``/``log``/``log1p``/``expm1``):

    * q = e/mu and a = -q + mu/2, b = -q - mu/2 carry an absolute error of at most
      EPS (|q| + |a|) (resp. |b|).
    * Tail (a < 0): delta = phi(a) (R(-a) - R(-b)), R the Mills ratio (e^eps phi(b) = phi(a)).
      An argument error dx changes R by the relative amount |x - 1/R(x)| dx <= dx (x >= 0);
      the Mills ratio :func:`special.mills` is within :data:`ERFCX_RTOL`. The difference R(-a) - R(-b)
      (which cancels for small mu) gets the absolute error of both terms; log phi(a) gets
      |a| da + EPS (a^2 + 1).
    * Body (a >= 0): delta = Phi(a) (1 - e^t), t = e + log Phi(b) - log Phi(a). The slope of
      log Phi at x is 1/R(-x) <= |x| + 1, and <= 2 phi(x) for x >= 0 (:func:`_log_ndtr_slope`);
      ``log_ndtr`` is within :data:`LOG_NDTR_RTOL`
      relative. The error of t is propagated through log(1 - e^t) at the ends of its interval
      (where t cancels, the interval is wide and the caller goes to mpmath).
    """
    q = e / mu_v
    a = -q + mu_v / 2.0
    b = -q - mu_v / 2.0
    da = EPS * (np.abs(q) + np.abs(a))
    db = EPS * (np.abs(q) + np.abs(b))
    mid = np.empty_like(e)
    lo = np.empty_like(e)
    hi = np.empty_like(e)
    tail = a < 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if np.any(tail):
            at, bt, dat, dbt = a[tail], b[tail], da[tail], db[tail]
            x1, x2 = -at, -bt
            r1, r2 = mills(np.atleast_1d(x1)), mills(np.atleast_1d(x2))
            rel1 = ERFCX_RTOL + 3 * EPS + dat + EPS * x1
            rel2 = ERFCX_RTOL + 3 * EPS + dbt + EPS * x2
            diff = r1 - r2
            ddiff = rel1 * r1 + rel2 * r2 + EPS * np.abs(diff)
            quad = -0.5 * at * at - _HALF_LOG_2PI
            dquad = np.abs(at) * dat + EPS * (at * at + 1.0)
            mid[tail] = quad + np.log(diff)
            lo[tail] = quad - dquad + rounding.log_down(np.maximum(diff - ddiff, 0.0))
            hi[tail] = quad + dquad + rounding.log_up(diff + ddiff)
        body = ~tail
        if np.any(body):
            ab, bb, eb, dab, dbb = a[body], b[body], e[body], da[body], db[body]
            la = log_ndtr(ab)
            lb = log_ndtr(bb)
            dla = _log_ndtr_slope(ab) * dab + LOG_NDTR_RTOL * np.abs(la) + _log_ndtr_flush(ab)
            dlb = _log_ndtr_slope(bb) * dbb + LOG_NDTR_RTOL * np.abs(lb) + _log_ndtr_flush(bb)
            t = eb + lb - la
            dt = dla + dlb + 2 * EPS * (np.abs(eb) + np.abs(lb) + np.abs(la))
            m = log1mexp(np.minimum(t, 0.0))
            m_lo = log1mexp(np.minimum(t + dt, 0.0))
            m_hi = log1mexp(np.minimum(t - dt, 0.0))
            mid[body] = la + m
            # + _SUBNORMAL: exp(t) and log1p of it lose relative accuracy below the normal range
            lo[body] = la - dla + m_lo - 2 * EPS * np.abs(m_lo) - _SUBNORMAL
            hi[body] = la + dla + m_hi + 2 * EPS * np.abs(m_hi) + _SUBNORMAL
    lo = np.where(np.isfinite(lo), rounding.down(np.where(np.isfinite(lo), lo, 0.0), 2 * EPS * np.abs(lo)), lo)
    hi = np.where(np.isfinite(hi), rounding.up(np.where(np.isfinite(hi), hi, 0.0), 2 * EPS * np.abs(hi)), hi)
    hi = np.minimum(hi, 0.0)  # delta <= 1
    return mid, lo, hi


def _mp_log_delta(mu_v: float, e, digits: int):
    f = GDP_DELTA.mpmath(None, check=False)
    return mp_adaptive(lambda: mpmath.log(f(mu_v, e)), digits)


def _mp_enclosure(mu_v: float, e: float, digits: int) -> tuple[float, float]:
    """Float ends around the mpmath log delta: ``digits`` correct digits (widened a thousandfold),
    never fewer than :data:`FALLBACK_DIGITS` (asking for few digits must not make the enclosure
    wider than the float path's: at 5 digits it was 1% of log delta)."""
    digits = max(int(digits), FALLBACK_DIGITS)
    v = _mp_log_delta(mu_v, e, digits)
    with mpmath.workdps(digits + 10):
        err = abs(v) * mpmath.mpf(10) ** (3 - digits) + mpmath.mpf(10) ** (-digits)
        return rounding.mp_down(v - err), min(rounding.mp_up(v + err), 0.0)


def _mu_and_epsilon(mu, epsilon):
    mu_v = validate.positive("mu", mu)
    e = validate.real_array("epsilon", epsilon)
    return mu_v, e


def gdp_log_delta_enclosure(mu, epsilon):
    """Certified float64 enclosure ``(lower, upper)`` of log delta_mu(epsilon), vectorised.

    See :func:`_enclosure_float` for the error analysis. Where the computation cancels (tiny
    mu, or delta far below Phi(-epsilon/mu + mu/2)) the enclosure is wide, or ``lower`` is
    ``-inf``; :func:`gdp_delta_result` then goes to mpmath.
    """
    mu_v, e = _mu_and_epsilon(mu, epsilon)
    _, lo, hi = _enclosure_float(mu_v, np.atleast_1d(e).astype(float))
    if e.ndim:
        return lo.reshape(e.shape), hi.reshape(e.shape)
    return float(lo[0]), float(hi[0])


def gdp_log_delta(mu, epsilon, digits=None):
    """log of the mu-GDP privacy profile, accurate far below the float64 range.

    Parameters
    ----------
    mu : float
        GDP parameter, mu > 0.
    epsilon : float or array_like
        Any real epsilon (vectorised in float64).
    digits : int, optional
        Evaluate the closed form with mpmath at this many digits instead (returns mpf).

    Returns
    -------
    float, ndarray or mpf
        The float64 value is within the bound of :func:`gdp_log_delta_enclosure`.

    Source: Dong, Roth, Su (2022), Corollary 2.13.
    """
    mu_v = validate.positive("mu", mu)
    digits = validate.digits(digits)
    if digits is not None:
        vals = np.asarray(epsilon, dtype=object)

        def one(e):
            return _mp_log_delta(mu_v, validate.real("epsilon", e), digits)

        if vals.ndim == 0:
            return one(epsilon)
        return np.array([one(e) for e in vals.ravel()], dtype=object).reshape(vals.shape)
    e = validate.real_array("epsilon", epsilon)
    out, _, _ = _enclosure_float(mu_v, np.atleast_1d(e).astype(float))
    return out.reshape(e.shape) if e.ndim else float(out[0])


def gdp_delta(mu, epsilon, digits=None):
    """The mu-GDP privacy profile delta_mu(epsilon) (Dong, Roth, Su 2022, Corollary 2.13).

    The float64 path returns the correctly rounded value (the float nearest to delta, ties to
    even): 0.0 or a subnormal where delta is below the float range, as scipy's functions do; for
    those values use :func:`gdp_log_delta`, ``digits=...`` or :func:`gdp_delta_result`. Where
    delta is below the normal range the certified float64 enclosure
    (:func:`gdp_log_delta_enclosure`) decides the rounding; elsewhere its width (many ulps) cannot,
    and the closed form is evaluated with mpmath until the rounding is decided
    (:func:`dptheory.precision.mp_nearest`): about 0.3 ms per point. With ``digits`` the value
    is an mpmath number with that many correct digits.
    """
    digits = validate.digits(digits)
    if digits is not None:
        mu_v = validate.positive("mu", mu)
        f = GDP_DELTA.mpmath(None, check=False)
        vals = np.asarray(epsilon, dtype=object)

        def one(e):
            validate.real("epsilon", e)
            return mp_adaptive(lambda: f(mu_v, e), digits)

        if vals.ndim == 0:
            return one(epsilon)
        return np.array([one(e) for e in vals.ravel()], dtype=object).reshape(vals.shape)
    mu_v, e = _mu_and_epsilon(mu, epsilon)
    return nearest_gdp_delta(mu_v, mu_v, lambda: mpmath.mpf(mu_v), e)


def nearest_gdp_delta(mu_lower: float, mu_upper: float, mu_exact, epsilon):
    """delta_mu(epsilon) correctly rounded, for a mu known to lie in [mu_lower, mu_upper] (delta
    increases with mu) whose exact value ``mu_exact()`` gives at the working mpmath precision
    (e.g. sensitivity / sigma of a Gaussian mechanism); ``epsilon`` a validated array."""
    flat = np.atleast_1d(np.asarray(epsilon, dtype=float)).ravel()
    mid, lo, hi = _enclosure_float(mu_upper, flat)
    if mu_lower != mu_upper:
        _, lo, _ = _enclosure_float(mu_lower, flat)
    out = nearest_from_log_enclosure(lo, hi)
    todo = np.nonzero(np.isnan(out))[0]
    if todo.size:
        f = GDP_DELTA.mpmath(None, check=False)
        # digits lost to cancellation: log10 of Phi(-eps/mu + mu/2) over delta (from the float path)
        with np.errstate(invalid="ignore", over="ignore"):
            lost = (log_ndtr(-flat[todo] / mu_upper + mu_upper / 2) - mid[todo]) / math.log(10.0)
        lost = np.where(np.isfinite(lost), np.clip(lost, 0.0, 1000.0), 30.0)
        for i, extra in zip(todo, lost):
            e_i = flat[i]
            out[i] = mp_nearest(lambda: f(mu_exact(), mpmath.mpf(e_i)), 20 + int(math.ceil(extra)))
    e = np.asarray(epsilon)
    return out.reshape(e.shape) if e.ndim else float(out[0])


def _log_enclosure(mu_v: float, e: float, tol: float, digits: int | None) -> tuple[float, float]:
    """Enclosure of log delta at one point: float64 where it is narrower than ``tol`` in log
    (about the relative width of delta), else mpmath."""
    if digits is None:
        _, lo, hi = _enclosure_float(mu_v, np.array([float(e)]))
        lo, hi = float(lo[0]), float(hi[0])
        if hi - lo <= tol:
            return lo, hi
        digits = FALLBACK_DIGITS
    return _mp_enclosure(mu_v, e, digits)


def composed_mu(mu, compositions=1) -> tuple[float, float]:
    """Certified ``(lower, upper)`` of sqrt(T) mu, the GDP parameter of T compositions of a
    mu-GDP mechanism (Dong, Roth, Su 2022, Corollary 3.3); both ends are ``mu`` for T = 1."""
    mu_v = validate.positive("mu", mu)
    t = validate.integer("compositions", compositions, low=1)
    if t == 1:
        return mu_v, mu_v
    v = math.sqrt(t) * mu_v  # two correctly rounded operations
    if Fraction(v) ** 2 == t * Fraction(mu_v) ** 2:
        return v, v  # exact (t a perfect square and no rounding in the product)
    return rounding.down(v, rel_err=EPS), rounding.up(v, rel_err=EPS)


def _params(mu, compositions, mu_hi, **extra) -> dict:
    out = {"mu": float(mu)}
    if int(compositions) != 1:
        out.update(compositions=int(compositions), composed_mu=mu_hi)
    out.update(extra)
    return out


def gdp_delta_result(mu, epsilon, digits=None, *, compositions=1) -> Result:
    """delta(epsilon) of mu-GDP (T-fold composed: sqrt(T) mu) as a certified Result.

    ``lower``/``upper`` are the linear ends (rounded outwards; ``upper`` never 0),
    ``log_lower``/``log_upper`` the log ends, which stay informative far below the float
    range. The float64 enclosure is used where its relative width is below
    :data:`FLOAT_WIDTH_LIMIT`, else mpmath (at ``digits``, or :data:`FALLBACK_DIGITS`). With
    ``digits``, ``params["value"]`` holds the mpmath value as a string of that many digits.
    """
    mu_lo, mu_hi = composed_mu(mu, compositions)
    e = validate.real("epsilon", epsilon)
    digits = validate.digits(digits)
    lo, _ = _log_enclosure(mu_lo, e, FLOAT_WIDTH_LIMIT, digits)
    _, hi = _log_enclosure(mu_hi, e, FLOAT_WIDTH_LIMIT, digits) if mu_hi != mu_lo else (lo, _)
    params = _params(mu, compositions, mu_hi, epsilon=e)
    if digits is not None:
        params["value"] = mpmath.nstr(gdp_delta(mu_hi, e, digits=digits), digits)
    res = Result.from_log("delta", lo, hi, kind=Kind.EXACT, status=Status.PROVEN, method="gdp",
                          source=GDP_DELTA.source, params=params)
    return res.replace(upper=min(res.upper, 1.0))  # delta <= 1


# ---------------------------------------------------------------------------- inversion


def _theory_upper(mu_v: float, delta: float) -> float:
    """mu^2/2 + mu sqrt(2 log(1/delta)), rounded up: there Phi(-eps/mu + mu/2) <= delta/2, and
    delta_mu(eps) <= Phi(-eps/mu + mu/2), so epsilon(delta) is below it (the search's limit)."""
    return rounding.up(mu_v * mu_v / 2 + mu_v * math.sqrt(-2 * math.log(delta)), rel_err=1e-12)


def _epsilon_bracket(mu_v: float, delta: float, digits: int | None):
    top = _theory_upper(mu_v, delta)
    # Phi(-eps/mu + mu/2) = delta: above the answer, and close to it where delta is small
    guess = min(max(mu_v * (-NormalDist().inv_cdf(delta)) + mu_v * mu_v / 2, 1e-6), top)
    if digits is None:
        def bounds(e, tol):
            return _log_enclosure(mu_v, e, max(min(tol, FLOAT_WIDTH_LIMIT), 1e-14), None)

        search = SearchParameters(rtol=1e-9, atol=1e-15, initial_guess=guess, max_epsilon=max(1e6, top))
    else:
        def bounds(e, _tol):
            return _mp_enclosure(mu_v, e, digits)

        search = SearchParameters(rtol=4 * rounding.EPS, atol=1e-300, initial_guess=guess, max_epsilon=max(1e6, top))
    return epsilon_bracket(bounds, delta, search)


def gdp_epsilon(mu, delta, digits=None, *, compositions=1) -> Result:
    """epsilon(delta) of mu-GDP (T-fold composed: sqrt(T) mu) as a certified interval (kind
    ``exact``).

    The bracket is certified by the enclosure of log delta at its ends (float64 with its error
    bound, or mpmath where that is too wide). With ``digits`` the profile is evaluated with
    mpmath and the bracket is narrowed to a few ulps.

    Source: Dong, Roth, Su (2022), Corollary 2.13, inverted.
    """
    mu_lo, mu_hi = composed_mu(mu, compositions)
    d = validate.delta("delta", delta)
    digits = validate.digits(digits)
    bracket = _epsilon_bracket(mu_lo, d, digits)
    low, high = bracket.lower, bracket.upper
    if mu_hi != mu_lo:
        high = _epsilon_bracket(mu_hi, d, digits).upper
    params = _params(mu, compositions, mu_hi, delta=d)
    return Result("epsilon", low, high, Kind.EXACT, Status.PROVEN, "gdp", GDP_DELTA.source, params=params)


def gdp(mu, *, epsilon=None, delta=None, compositions=1, digits=None) -> Result:
    """The privacy of T compositions of a mu-GDP mechanism, as ``dptheory gdp`` reports it:
    delta at ``epsilon`` (:func:`gdp_delta_result`) when ``epsilon`` is given, else epsilon at
    ``delta`` (:func:`gdp_epsilon`). Both are certified Results of kind ``exact``."""
    m = validate.mu("mu", mu)
    if epsilon is not None:
        e = validate.epsilon("epsilon", epsilon)
        if m == 0:
            return _identical("delta", compositions, digits, epsilon=e)
        return gdp_delta_result(mu, e, digits, compositions=compositions)
    if delta is None:
        raise validate.DomainError("delta = None is invalid: give epsilon or delta")
    if m == 0:
        return _identical("epsilon", compositions, digits, delta=validate.delta("delta", delta))
    return gdp_epsilon(mu, delta, digits, compositions=compositions)


def _identical(quantity: str, compositions, digits, **given) -> Result:
    """0-GDP (T times): the two distributions are identical, so delta(epsilon) = 0 for every
    epsilon >= 0 and epsilon(delta) = 0 for every delta (as :class:`dptheory.tradeoff.Gaussian`
    with mu = 0 says)."""
    validate.count("compositions", compositions)
    validate.digits(digits)
    return Result(quantity, 0.0, 0.0, Kind.EXACT, Status.PROVEN, "gdp", GDP_DELTA.source,
                  note="mu = 0: the two distributions are identical", params={"mu": 0.0, **given})
