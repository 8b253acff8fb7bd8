"""The privacy blanket of Balle, Bell, Gascon, Nissim (CRYPTO 2019): Hoeffding and Bennett bounds.

With probability gamma (the total-variation similarity) a user's report is drawn from a
"blanket" distribution that does not depend on the input. The shuffled output's privacy loss is
then controlled by the sum of the privacy-amplification random variables L_i of the blanket
reports (mean 1 - e^eps, range b, upper end b_plus, variance at most c):

    delta(eps) <= (1 / (gamma n)) E_{M ~ Bin(n, gamma)} E[(sum_{i <= M} L_i)_+],

bounded by Hoeffding's inequality,
``delta <= b^2/(4 a gamma n) (1 - gamma (1 - exp(-2 a^2 / b^2)))^n`` with a = e^eps - 1, or by
Bennett's, ``delta <= (1/(gamma n)) E_M[exp(-M alpha phi(beta)) b_plus / log(1 + beta)]`` with
alpha = c / b_plus^2, beta = a b_plus / c, phi(u) = (1+u) log(1+u) - u.

The paper body could not be consulted here; the formulas and the per-mechanism constants are those
of the authors' implementation (BorjaBalle/amplification-by-shuffling, shuffleddp/, the newer of
its two Bennett versions: the older one divides by m a and is too small), and the tests check
every bound against the exact shuffled divergence at small n.
"""

from __future__ import annotations

import functools
import math

from .. import rounding, validate
from ..inverse import SearchParameters, epsilon_bracket
from ..precision import log1mexp

SOURCE = "Balle, Bell, Gascon, Nissim (2019), privacy blanket (constants of the authors' implementation)"


def constants(kind: str, eps0_value: float, epsilon: float, k_value: int | None = None):
    """(gamma, b, b_plus, c) for the blanket bounds: ``generic`` eps0-LDP, k-ary ``rr``, ``laplace``."""
    e0, e = eps0_value, epsilon
    if kind == "generic":
        g = math.exp(-e0)
        return (g, (math.exp(e) + 1) * (math.exp(e0) - math.exp(-e0)),
                math.exp(e0) * (1 - math.exp(e - 2 * e0)),
                math.exp(e0) * (math.exp(2 * e) + 1) - 2 * g * math.exp(e - 2 * e0))
    if kind == "rr":
        kk = int(k_value)
        g = kk / (math.exp(e0) + kk - 1)
        return (g, (1 - g) * kk * (math.exp(e) + 1), g * (1 - math.exp(e)) + (1 - g) * kk,
                g * (2 - g) * (math.exp(e) - 1) ** 2 + (1 - g) ** 2 * kk * (math.exp(2 * e) + 1))
    if kind == "laplace":
        g = math.exp(-e0 / 2)
        return (g, (math.exp(e) + 1) * (math.exp(e0 / 2) - math.exp(-e0 / 2)),
                math.exp(e0 / 2) * (1 - math.exp(e - e0)),
                (math.exp(2 * e) + 1) / 3 * (2 * math.exp(e0 / 2) + math.exp(-e0))
                - 2 * math.exp(e) * (2 * math.exp(-e0 / 2) - math.exp(-e0)))
    raise validate.DomainError(f"kind = {kind!r} is invalid: must be 'generic', 'rr' or 'laplace'")


def log_delta(bound: str, kind: str, eps0_value, n_value, epsilon, k_value=None) -> float:
    """log delta(epsilon) of the Hoeffding or Bennett blanket bound (an upper bound; 0 for eps >= eps0)."""
    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    nn = validate.integer("n", n_value, low=1)
    e = validate.real("epsilon", epsilon, low=0.0, low_open=True)
    if e >= e0:
        return -math.inf
    if bound not in ("hoeffding", "bennett"):
        raise validate.DomainError(f"bound = {bound!r} is invalid: must be 'hoeffding' or 'bennett'")
    # delta is non-increasing in epsilon, so the bound at any epsilon' <= epsilon holds at epsilon
    # too: past the bound's minimiser its value there is used (the raw bound turns up near eps0);
    # and a hockey-stick divergence is at most 1 (at tiny epsilon the terms overflow)
    e_star, log_star = _minimiser(bound, kind, e0, nn, k_value)
    value = _log_delta(bound, kind, e0, nn, e, k_value)
    return min(0.0, value, log_star) if e >= e_star else min(0.0, value)


@functools.lru_cache(maxsize=256)
def _minimiser(bound, kind, e0, nn, k_value) -> tuple[float, float]:
    """(epsilon*, raw log delta there): the minimiser of the raw bound over (0, eps0), by a
    bounded scalar search (the evaluations are closed forms of a few microseconds)."""
    def f(e):
        v = _log_delta(bound, kind, e0, nn, e, k_value)
        return v if math.isfinite(v) else 1e300

    from scipy import optimize  # 1 s to import: only where a blanket bound is minimised

    res = optimize.minimize_scalar(f, bounds=(e0 * 1e-9, e0 * (1 - 1e-12)), method="bounded",
                                   options={"xatol": e0 * 1e-10})
    return float(res.x), f(float(res.x))


def _log_delta(bound, kind, e0, nn, e, k_value) -> float:
    g, b, b_plus, c = constants(kind, e0, e, k_value)
    a = math.expm1(e)
    if bound == "hoeffding":
        return (2 * math.log(b) - math.log(4 * g * nn) - math.log(a)
                + nn * math.log1p(-g * (-math.expm1(-2 * (a / b) ** 2))))
    if bound == "bennett":
        alpha = c / b_plus**2
        bt = a * b_plus / c
        phi = (1 + bt) * math.log1p(bt) - bt
        # sum_{m >= 1} Bin(m; n, gamma) e^{-m t} = (1 - gamma + gamma e^{-t})^n - (1 - gamma)^n
        t = alpha * phi
        log_all = nn * math.log1p(-g * -math.expm1(-t))
        log_zero = nn * math.log1p(-g) if g < 1 else -math.inf
        log_sum = log_all + float(log1mexp(min(log_zero - log_all, 0.0))) if log_zero < log_all else -math.inf
        if bt == 0.0:  # a b_plus / c underflowed: the bound is infinite
            return math.inf
        return log_sum + math.log(b_plus) - math.log(math.log1p(bt)) - math.log(g * nn)


def epsilon(bound: str, kind: str, eps0_value, n_value, delta_value, k_value=None) -> tuple[float, float]:
    """Certified bracket of the smallest epsilon with blanket delta(epsilon) <= delta (eps0 if none)."""
    d = validate.delta("delta", delta_value)

    def bounds(e, _tol):
        if e <= 0:
            return 0.0, 0.0
        v = log_delta(bound, kind, eps0_value, n_value, e, k_value)
        if not math.isfinite(v):
            return v, v
        err = 1e-12 * (1 + abs(v))
        return rounding.down(v, err), min(0.0, rounding.up(v, err))

    # shuffling an eps0-LDP randomizer is eps0-DP: eps0 is a theory bound on the answer
    bracket = epsilon_bracket(bounds, d, SearchParameters(upper=float(eps0_value), rtol=1e-9, atol=1e-15))
    return bracket.lower, bracket.upper

