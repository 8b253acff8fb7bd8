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

from .. import inverse, rounding, validate
from ..inverse import SearchParameters, epsilon_bracket

SOURCE = "Balle, Bell, Gascon, Nissim (2019), privacy blanket (constants of the authors' implementation)"


def constants(kind: str, eps0: float, epsilon: float, k: int | None = None):
    """(gamma, b, b_plus, c) for the blanket bounds: ``generic`` eps0-LDP, k-ary ``rr``, ``laplace``."""
    g, _, b, b_plus, c = _constants(kind, eps0, epsilon, k)
    return g, b, b_plus, c


def _constants(kind: str, e0: float, e: float, k=None):
    """(gamma, log(1 - gamma), b, b_plus, c), each written as sums and products of positive terms
    (no cancellation; the authors' forms, e.g. e^eps0 - e^-eps0, cancel at small eps0):

    * generic: b = (e^eps + 1) 2 sinh(eps0), b_plus = e^eps0 (1 - e^(eps - 2 eps0)),
      c = e^eps0 (e^eps + 1)... - 2 gamma e^(eps - 2 eps0) = e^eps0 ((e^eps - 1)^2 + 2 e^eps (1 - e^(-4 eps0)));
    * rr: 1 - gamma = (e^eps0 - 1) / (e^eps0 + k - 1), b_plus = gamma (1 - e^eps) + (1 - gamma) k
      = k e^eps0 (1 - e^(eps - eps0)) / (e^eps0 + k - 1);
    * laplace (h = eps0 / 2): b = (e^eps + 1) 2 sinh(h), b_plus = e^h (1 - e^(eps - eps0)),
      c = (e^eps - 1)^2 (2 e^h + e^-2h) / 3 + (4/3) e^eps e^-2h (e^h - 1)^2 (e^h + 2)
      (the authors' (e^2eps + 1)/3 (2 e^h + e^-2h) - 2 e^eps (2 e^-h - e^-2h), expanded).

    Each is within :func:`_constants_rtol` relative of its exact value."""
    a = math.expm1(e)
    if kind == "generic":
        g = math.exp(-e0)
        return (g, math.log(-math.expm1(-e0)), (math.exp(e) + 1) * 2 * math.sinh(e0),
                math.exp(e0) * -math.expm1(e - 2 * e0),
                math.exp(e0) * (a * a + 2 * math.exp(e) * -math.expm1(-4 * e0)))
    if kind == "rr":
        kk = int(k)
        z = math.exp(e0) + kk - 1
        g, one_minus_g = kk / z, math.expm1(e0) / z
        return (g, math.log(one_minus_g), one_minus_g * kk * (math.exp(e) + 1),
                kk * math.exp(e0) * -math.expm1(e - e0) / z,
                g * (1 + one_minus_g) * a * a + one_minus_g**2 * kk * (math.exp(2 * e) + 1))
    if kind == "laplace":
        h = e0 / 2
        eh = math.expm1(h)
        return (math.exp(-h), math.log(-math.expm1(-h)), (math.exp(e) + 1) * 2 * math.sinh(h),
                math.exp(h) * -math.expm1(e - e0),
                a * a * (2 * math.exp(h) + math.exp(-2 * h)) / 3
                + 4 / 3 * math.exp(e) * math.exp(-2 * h) * eh * eh * (math.exp(h) + 2))
    raise validate.DomainError(f"kind = {kind!r} is invalid: must be 'generic', 'rr' or 'laplace'")


def _constants_rtol(e0: float, e: float) -> float:
    """Relative error bound of each constant of :func:`_constants`: at most 12 operations on
    positive numbers (each within EPS, libm within an ulp), and the arguments of exp/expm1/sinh
    (at most 2 eps + 4 eps0 in size) rounded once, which moves their values by EPS times the
    argument, relatively; a factor 2 on top."""
    return 2 * rounding.EPS * (12 + 2 * e + 4 * e0)


def log_delta(bound: str, kind: str, eps0, n, epsilon, k=None) -> float:
    """log delta(epsilon) of the Hoeffding or Bennett blanket bound (an upper bound; 0 for eps >= eps0),
    as computed in float64 (within :func:`log_delta_enclosure`)."""
    return _log_delta_with_error(bound, kind, eps0, n, epsilon, k)[0]


def log_delta_enclosure(bound: str, kind: str, eps0, n, epsilon, k=None) -> tuple[float, float]:
    """Certified (lower, upper) of the log of the blanket bound at epsilon: the float64 value
    widened by its error bound (:func:`_log_delta`), rounded outwards, capped at 0."""
    v, err = _log_delta_with_error(bound, kind, eps0, n, epsilon, k)
    if not math.isfinite(v):
        return v, v
    return rounding.down(v, err), min(0.0, rounding.up(v, err))


def _log_delta_with_error(bound, kind, eps0, n, epsilon, k=None) -> tuple[float, float]:
    e0 = validate.eps0("eps0", eps0)
    nn = validate.integer("n", n, low=1)
    e = validate.real("epsilon", epsilon, low=0.0, low_open=True)
    if e >= e0:
        return -math.inf, 0.0
    if bound not in ("hoeffding", "bennett"):
        raise validate.DomainError(f"bound = {bound!r} is invalid: must be 'hoeffding' or 'bennett'")
    # delta is non-increasing in epsilon, so the bound at any epsilon' <= epsilon holds at epsilon
    # too: past the bound's minimiser its value there is used (the raw bound turns up near eps0);
    # and a hockey-stick divergence is at most 1 (at tiny epsilon the terms overflow)
    e_star, log_star, err_star = _minimiser(bound, kind, e0, nn, k)
    value, err = _log_delta(bound, kind, e0, nn, e, k)
    if e >= e_star and log_star < value:
        value, err = log_star, err_star
    if value >= 0.0:
        return 0.0, 0.0
    return value, err


@functools.lru_cache(maxsize=256)
def _minimiser(bound, kind, e0, nn, k) -> tuple[float, float, float]:
    """(epsilon*, raw log delta there, its error bound): the minimiser of the raw bound over
    (0, eps0), by a golden-section search (the evaluations are closed forms of a few
    microseconds)."""
    def f(e):
        v = _log_delta(bound, kind, e0, nn, e, k)[0]
        return v if math.isfinite(v) else 1e300

    x, _ = inverse.golden_minimum(f, e0 * 1e-9, e0 * (1 - 1e-12), xatol=e0 * 1e-10)
    value, err = _log_delta(bound, kind, e0, nn, x, k)
    return float(x), (value if math.isfinite(value) else 1e300), err


def _phi(u: float) -> float:
    """(1 + u) log(1 + u) - u for u >= 0, within 4 EPS relative: the series
    sum_{j >= 2} (-1)^j u^j / (j (j - 1)) below 1/2 (the closed form cancels there; 60 terms leave
    below 2^-60 / 60^2), the closed form above (where it does not cancel by more than a factor 4)."""
    if u < 0.5:
        total, power = 0.0, -u  # power = (-u)^j in the loop
        for j in range(2, 62):
            power *= -u
            total += power / (j * (j - 1))
        return total
    return (1 + u) * math.log1p(u) - u


def _log_delta(bound, kind, e0, nn, e, k) -> tuple[float, float]:
    """(log of the raw bound, an absolute error bound of that float64 value).

    Error analysis, first order, with r the relative error bound of the constants
    (:func:`_constants_rtol`) and EPS = 2^-52 per operation: a log of a quantity known to
    relative error x has absolute error x + EPS |log|; a product or quotient adds relative
    errors; log1p(-x) with x known to relative error r_x errs by x r_x / (1 - x) (absolute);
    n times it by n times that, plus EPS of the product; phi(u) has relative condition at most 2
    in u; and the last difference log(e^A - e^Z) amplifies the errors of A and Z by
    1 / (1 - e^(Z - A)) and e^(Z - A) / (1 - e^(Z - A)). The terms are summed with one EPS of
    each partial sum, and the total is doubled."""
    eps = rounding.EPS
    g, log_one_minus_g, b, b_plus, c = _constants(kind, e0, e, k)
    r = _constants_rtol(e0, e)
    a = math.expm1(e)
    r_a = eps * (2 + e)
    if bound == "hoeffding":
        ratio2 = (a / b) ** 2
        y = -math.expm1(-2 * ratio2)
        x = g * y
        r_x = r + 2 * (r_a + r + eps) + 3 * eps
        main = nn * math.log1p(-x)
        terms = [2 * math.log(b), -math.log(4 * g * nn), -math.log(a), main]
        errs = [2 * (r + eps * abs(terms[0])), r + 2 * eps + eps * abs(terms[1]), r_a + eps * abs(terms[2]),
                nn * x * r_x / (1 - x) + 2 * eps * abs(main)]
        value = sum(terms)
        total = sum(errs) + eps * sum(abs(t) for t in terms) * len(terms)
        return value, 2 * total
    alpha = c / b_plus**2
    bt = a * b_plus / c
    if bt == 0.0:  # a b_plus / c underflowed: the bound is infinite
        return math.inf, 0.0
    r_bt = r_a + 2 * r + 2 * eps
    phi = _phi(bt)
    t = alpha * phi
    r_t = (3 * r + 2 * eps) + (2 * r_bt + 4 * eps) + eps
    # sum_{m >= 1} Bin(m; n, gamma) e^{-m t} = (1 - gamma + gamma e^{-t})^n - (1 - gamma)^n
    #   = (1 - x)^n (1 - e^{-s}), x = gamma (1 - e^{-t}), s = n log1p(e^w),
    #   w = log(gamma e^{-t} / (1 - gamma)) (the ratio of the two powers is e^{-s}):
    # no difference of nearly equal numbers, whatever t and n (the form (1 - gamma)^n expm1(s)
    # carries n times the error of log(1 - gamma) into a value of size n, which at n = 1e15
    # widened the enclosure to the whole range)
    w = math.log(g) - t - log_one_minus_g
    err_w = (r + eps * abs(math.log(g))) + t * r_t + (r + eps * abs(log_one_minus_g)) + 2 * eps * (abs(w) + t)
    if w < -40:  # log1p(e^w) = e^w (1 - e^w / 2 + ...): s = n e^w to within e^w < 5e-18 relative
        log_s = w + math.log(nn)
        err_log_s = err_w + 3 * eps * abs(log_s) + 1e-17
        s_value = math.exp(log_s) if log_s < 700 else math.inf
    else:
        s_value = nn * math.log1p(math.exp(w))
        log_s = math.log(s_value)
        err_log_s = err_w / (1 + math.exp(-w)) + 3 * eps * (1 + abs(w))
    if s_value < 1e-3:  # log(1 - e^-s) = log s + log1p(-s/2 + s^2/6 - ...): within s^3/24
        log_one_minus = log_s + math.log1p(-s_value / 2 + s_value * s_value / 6)
        err_one_minus = err_log_s * (1 + s_value) + s_value**3 / 24 + 2 * eps * abs(log_one_minus)
    else:
        log_one_minus = math.log(-math.expm1(-s_value)) if s_value < 700 else -math.exp(-s_value)
        # d log(1 - e^-s) / d log s = s / (e^s - 1) <= 1
        err_one_minus = err_log_s + 2 * eps * (1 + abs(log_one_minus))
    x = g * -math.expm1(-t)
    r_x = r + r_t + 3 * eps  # -expm1(-t): the relative error of t (its relative condition t / (e^t - 1) <= 1)
    log_power = nn * math.log1p(-x)
    err_power = nn * (x * r_x / (1 - x) + eps * abs(math.log1p(-x))) + eps * abs(log_power)
    log_sum = log_power + log_one_minus
    err_sum = err_power + err_one_minus + eps * abs(log_sum)
    l1 = math.log1p(bt)
    terms = [log_sum, math.log(b_plus), -math.log(l1), -math.log(g * nn)]
    errs = [err_sum, r + eps * abs(terms[1]), r_bt + 2 * eps + eps * abs(terms[2]), r + 2 * eps + eps * abs(terms[3])]
    value = sum(terms)
    total = sum(errs) + eps * sum(abs(v) for v in terms) * len(terms)
    return value, 2 * total


def epsilon(bound: str, kind: str, eps0, n, delta, k=None) -> tuple[float, float]:
    """Certified bracket of the smallest epsilon with blanket delta(epsilon) <= delta (eps0 if none)."""
    d = validate.delta("delta", delta)

    def bounds(e, _tol):
        if e <= 0:
            return 0.0, 0.0
        return log_delta_enclosure(bound, kind, eps0, n, e, k)

    # shuffling an eps0-LDP randomizer is eps0-DP: eps0 is a theory bound on the answer
    bracket = epsilon_bracket(bounds, d, SearchParameters(upper=float(eps0), rtol=1e-9, atol=1e-15))
    return bracket.lower, bracket.upper
