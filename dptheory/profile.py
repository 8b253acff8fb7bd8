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
from typing import Callable

import mpmath
import numpy as np
import sympy as sp

from . import validate
from .formula import Formula, register
from .precision import log1mexp, mp_adaptive
from .results import Kind, Result, Status
from .special import log_ndtr, mills
from .symbols import Phi, eps, mu


class Underflow(ArithmeticError):
    """A float64 result would underflow to 0: ask for the logarithm or for mpmath digits."""


GDP_DELTA = register(Formula(
    name="gdp-delta",
    expr=Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2),
    params=(mu, eps),
    conditions=(mu > 0,),
    kind=Kind.EXACT,
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


def invert(
    log_delta_bounds: Callable[[float], tuple[float, float]],
    delta,
    *,
    eps_max: float | None = None,
    rtol: float = 1e-9,
    atol: float = 1e-15,
    max_eval: int = 400,
) -> tuple[float, float]:
    """Certified bracket of epsilon(delta) = inf{epsilon >= 0 : delta(epsilon) <= delta}.

    Parameters
    ----------
    log_delta_bounds : callable
        ``epsilon -> (lo, hi)``, an enclosure of log delta(epsilon); delta must be non-increasing.
    delta : float
        Target in (0, 1).
    eps_max : float, optional
        An epsilon known to satisfy delta(eps_max) <= delta (it is checked).

    Returns
    -------
    (lower, upper)
        ``delta(lower) > delta`` and ``delta(upper) <= delta`` are proven by the enclosures (or
        lower = 0), so the exact epsilon(delta) lies in [lower, upper]; ``upper - lower <=
        rtol * upper + atol`` unless the enclosures are too wide to separate the ends.
    """
    target = math.log(validate.delta("delta", delta))
    lo0, hi0 = log_delta_bounds(0.0)
    if hi0 <= target:
        return 0.0, 0.0
    lower = 0.0
    upper = eps_max if eps_max is not None else 1.0
    count = 0
    while True:
        lo_u, hi_u = log_delta_bounds(upper)
        count += 1
        if hi_u <= target:
            break
        if lo_u > target:
            lower = upper
        if eps_max is not None or count > 60:
            raise ArithmeticError(
                f"could not find epsilon with delta(epsilon) <= {delta} (tried up to {upper}); "
                "the profile may not reach this delta"
            )
        upper *= 2.0

    def mid(e: float) -> float:
        lo, hi = log_delta_bounds(e)
        return 0.5 * (lo + hi) if math.isfinite(lo) else hi

    # Illinois-style regula falsi on the midpoint of log delta, keeping a proven bracket
    f_lower = mid(lower) - target
    f_upper = mid(upper) - target
    side = 0
    while upper - lower > rtol * upper + atol and count < max_eval:
        if math.isfinite(f_lower) and math.isfinite(f_upper) and f_lower > 0 > f_upper:
            trial = upper - f_upper * (upper - lower) / (f_upper - f_lower)
            span = upper - lower
            trial = min(max(trial, lower + 0.01 * span), upper - 0.01 * span)
        else:
            trial = 0.5 * (lower + upper)
        lo, hi = log_delta_bounds(trial)
        count += 1
        if hi <= target:
            upper, f_upper = trial, 0.5 * (lo + hi) - target if math.isfinite(lo) else hi - target
            if side == -1:
                f_lower *= 0.5
            side = -1
        elif lo > target:
            lower, f_lower = trial, 0.5 * (lo + hi) - target
            if side == 1:
                f_upper *= 0.5
            side = 1
        else:
            # the enclosure straddles the target: certify points on either side of the trial
            step = max(0.25 * rtol * max(trial, atol), atol)
            while count < max_eval and upper - lower > rtol * upper + atol:
                left, right = max(lower, trial - step), min(upper, trial + step)
                lo_l, _ = log_delta_bounds(left)
                _, hi_r = log_delta_bounds(right)
                count += 2
                if lo_l > target:
                    lower = left
                if hi_r <= target:
                    upper = right
                step *= 2.0
            break
    return lower, upper


def gdp_epsilon(mu, delta, digits=None) -> Result:
    """epsilon(delta) of mu-GDP as a certified interval (kind ``exact``).

    With ``digits`` the profile is evaluated with mpmath and the bracket is narrowed to about
    ``10**-(digits - 5)`` relative width.
    """
    mu_v = validate.positive("mu", mu)
    validate.delta("delta", delta)
    digits = validate.digits(digits)
    if digits is None:
        def bounds(e):
            v = float(gdp_log_delta(mu_v, e))
            err = float(gdp_log_delta_error(v))
            return v - err, v + err

        lo, hi = invert(bounds, delta, rtol=1e-9)
    else:
        tol = mpmath.mpf(10) ** (-(digits - 3))

        def bounds(e):
            v = float(gdp_log_delta(mu_v, e, digits=digits))
            return v - float(tol) * max(1.0, abs(v)), v + float(tol) * max(1.0, abs(v))

        lo, hi = invert(bounds, delta, rtol=max(float(tol) * 100, 1e-15), atol=0.0)
    return Result(
        quantity="epsilon", lower=lo, upper=hi, kind=Kind.EXACT, status=Status.PROVEN,
        method="gdp", source=GDP_DELTA.source, params={"mu": mu_v, "delta": float(delta)},
    )
