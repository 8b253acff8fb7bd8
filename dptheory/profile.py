"""Privacy profiles delta(epsilon), their inversion epsilon(delta), and Gaussian DP.

A privacy profile of a pair (P, Q) is delta(epsilon) = H_{e^epsilon}(P||Q), non-increasing in
epsilon. Its inverse epsilon(delta) = inf{epsilon >= 0 : delta(epsilon) <= delta} is computed by
:func:`invert` as a certified bracket: the routine evaluates an enclosure of log delta at each
trial epsilon and stops only when both ends of the bracket are proven, so the upper end is an
epsilon at which the profile is at most delta even after the evaluation's own error.

Gaussian DP (Dong, Roth, Su 2022, Cor. 2.13):
``delta_mu(epsilon) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2)``.
The float64 path works in log space through the Mills ratio, so it stays accurate where the
naive formula underflows (delta = 1e-300 and far below).
"""

from __future__ import annotations

import math
import mpmath
import numpy as np

from . import validate
from .formula import Formula, Parts, register
from . import rounding
from .inverse import SearchParameters, epsilon_bracket
from .precision import log1mexp, mp_adaptive
from .results import Kind, Result, Status
from .special import log_ndtr, mills


class Underflow(ArithmeticError):
    """A float64 result would underflow to 0: ask for the logarithm or for mpmath digits."""


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
    description="privacy profile of mu-GDP",
))



def gdp_log_delta_error(log_delta):
    """Error bound of :func:`gdp_log_delta` (float64) on log delta, for 1e-3 <= mu <= 1e3.

    The error is inherent in float64: log delta itself carries a relative rounding error. The
    largest error against mpmath on the grid of tests/test_profile.py is 1.2e-16 |log delta|
    plus 1e-15; the bound is about 100 times that.
    """
    return 1e-12 + 1e-14 * np.abs(log_delta)


def _gdp_log_delta_float(mu_v: float, e: np.ndarray) -> np.ndarray:
    a = -e / mu_v + mu_v / 2.0
    b = -e / mu_v - mu_v / 2.0
    out = np.empty_like(e)
    tail = a < 0
    if np.any(tail):
        at, bt = a[tail], b[tail]
        # Phi(a) - e^eps Phi(b) = phi(a) (R(-a) - R(-b)), because e^eps phi(b) = phi(a)
        diff = mills(-at) - mills(-bt)
        with np.errstate(divide="ignore"):
            out[tail] = -0.5 * at * at - 0.5 * math.log(2 * math.pi) + np.log(diff)
    body = ~tail
    if np.any(body):
        ab, bb, eb = a[body], b[body], e[body]
        la = log_ndtr(ab)
        lb = log_ndtr(bb)
        out[body] = la + log1mexp(np.minimum(eb + lb - la, 0.0))
    return out


def gdp_log_delta(mu, epsilon, digits=None):
    """log of the mu-GDP privacy profile, accurate far below the float64 range.

    Parameters
    ----------
    mu : float
        GDP parameter, mu > 0.
    epsilon : float or array_like
        Any real epsilon (vectorised in float64).
    digits : int, optional
        Evaluate the closed form with mpmath at this many digits instead.

    Source: Dong, Roth, Su (2022), Corollary 2.13.
    """
    mu_v = validate.positive("mu", mu)
    digits = validate.digits(digits)
    if digits is not None:
        vals = np.asarray(epsilon, dtype=object)
        f = GDP_DELTA.mpmath(None, check=False)

        def one(e):
            validate.real("epsilon", e)
            return mp_adaptive(lambda: mpmath.log(f(mu_v, e)), digits)

        if vals.ndim == 0:
            return one(epsilon)
        return np.array([one(e) for e in vals.ravel()], dtype=object).reshape(vals.shape)
    e = validate.real_array("epsilon", epsilon)
    out = _gdp_log_delta_float(mu_v, np.atleast_1d(e).astype(float))
    return out.reshape(e.shape) if e.ndim else float(out[0])


def gdp_delta(mu, epsilon, digits=None):
    """The mu-GDP privacy profile delta(epsilon) (see :func:`gdp_log_delta`).

    Raises :class:`Underflow` instead of returning 0 where delta is below the float64 range.
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
    logd = np.asarray(gdp_log_delta(mu, epsilon))
    if np.any(logd < -708.0):
        raise Underflow(
            f"gdp_delta(mu={mu}, epsilon=...) is below 1e-307 and would underflow to 0; "
            "use gdp_log_delta or pass digits=..."
        )
    out = np.exp(logd)
    return out if out.ndim else float(out)


# ---------------------------------------------------------------------------- inversion


def gdp_epsilon(mu, delta, digits=None) -> Result:
    """epsilon(delta) of mu-GDP as a certified interval (kind ``exact``).

    With ``digits`` the profile is evaluated with mpmath and the bracket is narrowed to about
    ``10**-(digits - 5)`` relative width.
    """
    mu_v = validate.positive("mu", mu)
    validate.delta("delta", delta)
    digits = validate.digits(digits)
    if digits is None:
        def bounds(e, _tol):
            v = float(gdp_log_delta(mu_v, e))
            err = float(gdp_log_delta_error(v))
            return rounding.down(v, err), rounding.up(v, err)

        search = SearchParameters(rtol=1e-9, atol=1e-15)
    else:
        def bounds(e, _tol):
            # mp_adaptive returns `digits` correct digits: widen by 10^(3 - digits) relative,
            # then round the mpmath ends outwards to floats
            v = gdp_log_delta(mu_v, e, digits=digits)
            with mpmath.workdps(digits + 10):
                err = abs(v) * mpmath.mpf(10) ** (3 - digits) + mpmath.mpf(10) ** (-digits)
                return rounding.mp_down(v - err), rounding.mp_up(v + err)

        search = SearchParameters(rtol=4 * rounding.EPS, atol=1e-300)
    bracket = epsilon_bracket(bounds, delta, search)
    lo, hi = bracket.lower, bracket.upper
    return Result(
        quantity="epsilon", lower=lo, upper=hi, kind=Kind.EXACT, status=Status.PROVEN,
        method="gdp", source=GDP_DELTA.source, params={"mu": mu_v, "delta": float(delta)},
    )
