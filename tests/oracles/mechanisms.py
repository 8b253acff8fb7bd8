"""Independent oracles for the basic mechanisms: privacy profiles delta(epsilon), their inverses
epsilon(delta), and Renyi divergences of the Gaussian, Laplace, k-ary randomized-response and
Poisson-subsampled Gaussian mechanisms. Certified intervals (mpmath.iv, see
:mod:`tests.oracles.certified`), written from the definitions without reading dptheory's code.

Conventions. delta(epsilon) = H_{e^epsilon}(P||Q) = integral of max(p - e^epsilon q, 0), the
hockey-stick divergence of the mechanism's pair (P, Q) of output laws on neighbouring inputs
(defined for every real epsilon); epsilon(delta) = inf{epsilon >= 0 : delta(epsilon) <= delta}.
The Renyi divergence of order lambda > 1 is D_lambda(P||Q) = log(integral p^lambda q^(1-lambda))
/ (lambda - 1). The Gaussian, Laplace and randomized-response pairs are symmetric (a reflection of
the output space swaps P and Q), so one direction is their guarantee; the subsampled Gaussian is
not, and its functions take a ``direction``:

- ``"remove"``: P = (1 - q) N(0, sigma^2) + q N(1, sigma^2), Q = N(0, sigma^2) (the mixture first);
- ``"add"``: the reverse, P = N(0, sigma^2), Q = the mixture;
- ``"both"``: the larger of the two (add/remove neighbours).

Every function returns ``(lower, upper)``, mpmath numbers at ``digits`` digits rounded outwards.
"""

from __future__ import annotations

import math

from mpmath import iv, mpf

from tests.oracles import discrete
from tests.oracles.certified import (clip_nonnegative, enclose, hi, imax, interval, invert_decreasing,
                                     lo, ncdf, npdf, nsf)

DIRECTIONS = ("remove", "add", "both")


def _order(order):
    lam = interval(order)
    if not lo(lam) > 1:
        raise ValueError(f"order must be > 1, got {order}")
    return lam


def _epsilon_result(delta_of, delta, digits):
    """epsilon(delta) enclosure of a certified delta(epsilon) oracle (interval in, interval out)."""
    d = interval(delta)
    if not (lo(d) >= 0 and hi(d) <= 1):
        raise ValueError(f"delta must lie in [0, 1], got {delta}")
    return enclose(lambda: invert_decreasing(delta_of, delta), digits, nonnegative=True)


# ----------------------------------------------------------------------------- Gaussian


def gaussian_hockey_stick(mu, epsilon):
    """Interval of H_{e^epsilon}(N(0,1)||N(mu,1)) for mu >= 0 and any real epsilon, from the privacy
    loss: L(x) = log(p(x)/q(x)) = mu^2/2 - mu x is N(mu^2/2, mu^2) under P and N(-mu^2/2, mu^2) under
    Q, and H = P[L > eps] - e^eps Q[L > eps], i.e.

        delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)

    (the analytic Gaussian mechanism of Balle and Wang 2018, Theorem 8; Dong, Roth, Su 2022,
    Corollary 2.13). For mu = 0 the pair is one distribution: max(1 - e^eps, 0). The pair is
    symmetric (x -> mu - x swaps P and Q)."""
    mu = interval(mu)
    eps = interval(epsilon)
    if hi(mu) == 0:
        return clip_nonnegative(1 - iv.exp(eps))
    if not lo(mu) > 0:
        raise ValueError(f"mu must be > 0 (or exactly 0), got {mu}")
    return clip_nonnegative(ncdf(mu / 2 - eps / mu) - iv.exp(eps) * ncdf(-mu / 2 - eps / mu))


def gaussian_delta(mu, epsilon, digits: int = 50):
    """delta(epsilon) of the Gaussian mechanism.

    Parameters
    ----------
    mu : number
        sensitivity / sigma (>= 0).
    epsilon : number
        Any real epsilon.
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure of Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (see
        :func:`gaussian_hockey_stick` for the derivation).

    Notes
    -----
    The two Phi terms come from the certified normal CDF and are subtracted in interval arithmetic;
    the precision is raised until the cancellation is resolved (delta far below 1e-300 keeps its
    relative accuracy).
    """
    return enclose(lambda: gaussian_hockey_stick(mu, epsilon), digits, nonnegative=True)


def gaussian_epsilon(mu, delta, digits: int = 50):
    """Enclosure of epsilon(delta) of the Gaussian mechanism (bisection on the certified delta)."""
    return _epsilon_result(lambda e: gaussian_hockey_stick(mu, e), delta, digits)


def gaussian_renyi(mu, order, digits: int = 50):
    """Enclosure of D_lambda(N(0,1)||N(mu,1)) = lambda mu^2 / 2 (Mironov 2017, Proposition 7): the
    exponent of p^lambda q^(1-lambda) is -(x - (1-lambda) mu)^2/2 + lambda (lambda - 1) mu^2/2, so the
    integral is e^(lambda (lambda - 1) mu^2 / 2). Exact up to interval rounding."""
    def compute():
        lam = _order(order)
        m = interval(mu)
        return lam * m * m / 2

    return enclose(compute, digits, nonnegative=True)


# ----------------------------------------------------------------------------- Laplace


def _laplace_ratio(scale, sensitivity):
    b, s = interval(scale), interval(sensitivity)
    if not lo(b) > 0:
        raise ValueError(f"scale must be > 0, got {scale}")
    if not lo(s) >= 0:
        raise ValueError(f"sensitivity must be >= 0, got {sensitivity}")
    return s / b


def laplace_hockey_stick(epsilon, scale, sensitivity=1):
    """Interval of H_{e^epsilon}(Lap(0, b)||Lap(s, b)), by integrating p - e^eps q over the region
    where it is positive. With u = s/b, the privacy loss L(x) = (|x - s| - |x|)/b is u for x <= 0,
    (s - 2x)/b on [0, s] and -u for x >= s, so {L > eps} is (-inf, x*) with

        x* = (s - eps b)/2 for -u <= eps < u  (a point of [0, s]),
        everything for eps < -u, nothing for eps >= u,

    and the integral is F_P(x*) - e^eps F_Q(x*) with the Laplace CDFs F_P(x) = 1 - e^(-x/b)/2
    (x >= 0) and F_Q(x) = e^((x - s)/b)/2 (x <= s). (The closed form 1 - e^((eps - u)/2) is left to
    the tests.)"""
    u = _laplace_ratio(scale, sensitivity)
    eps = interval(epsilon)
    gamma = iv.exp(eps)

    def middle():
        # x*/b = (u - eps)/2 lies in [0, u]
        xb = (u - eps) / 2
        f_p = 1 - iv.exp(-xb) / 2
        f_q = iv.exp(xb - u) / 2
        return f_p - gamma * f_q

    if lo(eps) >= hi(u):
        return iv.mpf(0)
    if hi(eps) < lo(-u):
        return 1 - gamma
    if lo(eps) >= hi(-u) and hi(eps) < lo(u):
        return clip_nonnegative(middle())
    # an end of the interval of eps touches a boundary: delta is continuous and non-increasing,
    # so it lies between its values at the ends of eps, each taken on its side
    parts = [clip_nonnegative(middle())]
    if lo(eps) < hi(-u):
        parts.append(1 - gamma)
    if hi(eps) >= lo(u):
        parts.append(iv.mpf(0))
    return iv.mpf([min(lo(x) for x in parts), max(hi(x) for x in parts)])


def laplace_delta(epsilon, scale, sensitivity=1, digits: int = 50):
    """delta(epsilon) of the Laplace mechanism.

    Parameters
    ----------
    epsilon : number
        Any real epsilon.
    scale, sensitivity : numbers
        b > 0 and s >= 0 (the mechanism is (s/b)-DP).
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure of the integral of max(p - e^eps q, 0), by the piecewise integrals of
        :func:`laplace_hockey_stick` (no quadrature: elementary functions in interval arithmetic).
    """
    return enclose(lambda: laplace_hockey_stick(epsilon, scale, sensitivity), digits, nonnegative=True)


def laplace_epsilon(delta, scale, sensitivity=1, digits: int = 50):
    """Enclosure of epsilon(delta) of the Laplace mechanism (bisection on the certified delta)."""
    return _epsilon_result(lambda e: laplace_hockey_stick(e, scale, sensitivity), delta, digits)


def laplace_renyi(order, scale, sensitivity=1, digits: int = 50):
    """Enclosure of D_lambda(Lap(0, b)||Lap(s, b)), integral of p^lambda q^(1-lambda) in three pieces
    (u = s/b, b = 1 after rescaling x):

        x <= 0:      (1/2) e^x e^((lambda-1) u)            -> (1/2) e^((lambda-1) u)
        0 <= x <= u: (1/2) e^((1 - 2 lambda) x + (lambda-1) u) -> (1/2) e^((lambda-1) u) (1 - e^((1-2 lambda) u)) / (2 lambda - 1)
        x >= u:      (1/2) e^(-x) e^((1-lambda) u)           -> (1/2) e^(-lambda u)

    (Mironov 2017, Proposition 6, is the simplified sum; the tests compare.) Both directions are
    equal (the pair is symmetric)."""
    def compute():
        lam = _order(order)
        u = _laplace_ratio(scale, sensitivity)
        left = iv.exp((lam - 1) * u) / 2
        mid = iv.exp((lam - 1) * u) * (1 - iv.exp((1 - 2 * lam) * u)) / (2 * (2 * lam - 1))
        right = iv.exp(-lam * u) / 2
        return clip_nonnegative(iv.log(left + mid + right) / (lam - 1))

    return enclose(compute, digits, nonnegative=True)


# ----------------------------------------------------------------------------- randomized response


def rr_delta(eps0, k, epsilon, digits: int = 50):
    """Enclosure of delta(epsilon) of k-ary randomized response (rows 0 and 1 of
    :func:`tests.oracles.discrete.rr_rows`; every pair of distinct inputs is equivalent), the
    hockey-stick sum over the k outputs."""
    def compute():
        rows = discrete.rr_rows(eps0, k)()
        return discrete.hockey_stick(rows[0], rows[1], epsilon)

    return enclose(compute, digits, nonnegative=True)


def rr_epsilon(eps0, k, delta, digits: int = 50):
    """Enclosure of epsilon(delta) of k-ary randomized response."""
    def delta_of(e):
        rows = discrete.rr_rows(eps0, k)()
        return clip_nonnegative(discrete.hockey_stick(rows[0], rows[1], e))

    return _epsilon_result(delta_of, delta, digits)


def rr_renyi(eps0, k, order, digits: int = 50):
    """Enclosure of D_lambda of k-ary randomized response (sum over the k outputs)."""
    def compute():
        rows = discrete.rr_rows(eps0, k)()
        return discrete.renyi(rows[0], rows[1], order)

    return enclose(compute, digits, nonnegative=True)


# ----------------------------------------------------------------------------- subsampled Gaussian


def _sgm_params(sigma, rate):
    s, q = interval(sigma), interval(rate)
    if not lo(s) > 0:
        raise ValueError(f"sigma must be > 0, got {sigma}")
    if not (lo(q) >= 0 and hi(q) <= 1):
        raise ValueError(f"rate must lie in [0, 1], got {rate}")
    return s, q


def _direction(direction):
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")


def sgm_moment_binomial(sigma, rate, order):
    """Interval of E_{N(0, sigma^2)}[(mixture/base)^lambda] at an integer lambda >= 2, the moment of
    D_lambda(mixture||base) ("remove"), by the binomial expansion (Mironov, Talwar, Zhang 2019,
    Section 3.3):

        sum_{k=0}^{lambda} C(lambda, k) (1 - q)^(lambda - k) q^k exp((k^2 - k) / (2 sigma^2)),

    since mixture/base = 1 - q + q e^((2z - 1)/(2 sigma^2)) and E[e^(k (2z - 1)/(2 sigma^2))] =
    e^((k^2 - k)/(2 sigma^2)). A finite sum of positive terms: exact up to interval rounding."""
    lam = int(order)
    if lam != order or lam < 2:
        raise ValueError(f"the binomial expansion needs an integer order >= 2, got {order}")
    lam = int(lam)
    s, q = _sgm_params(sigma, rate)
    total = iv.mpf(0)
    for k in range(lam + 1):
        term = iv.mpf(math.comb(lam, k)) * iv.exp(iv.mpf(k * k - k) / (2 * s * s))
        if lam - k:
            term *= (1 - q) ** (lam - k)
        if k:
            term *= q ** k
        total += term
    return total


def _envelope_tail(c_log, center, cut, side):
    """Interval bound on h * sum of c phi(x_j - center) over the grid points beyond ``cut`` (left:
    x_j <= cut - h; right: x_j >= cut + h), for a cut on the monotone side of the bell: at most
    c Phi(cut - center) (left) or c (1 - Phi(cut - center)) (right)."""
    if side == "left":
        return iv.exp(c_log) * ncdf(iv.mpf(cut) - center)
    return iv.exp(c_log) * nsf(iv.mpf(cut) - center)


def sgm_moment_quadrature(sigma, rate, nu):
    """Interval of M(nu) = E_{x ~ N(0,1)}[l(x)^nu], l(x) = 1 - q + q exp(x/sigma - 1/(2 sigma^2))
    (the mixture/base likelihood ratio in units of sigma), for real nu >= 1 (nu = lambda: the moment
    of D_lambda(mixture||base), "remove") or nu <= 0 (nu = 1 - lambda: D_lambda(base||mixture),
    "add"). Then M >= 1 (Jensen; E l = 1).

    Certified trapezoidal rule (Trefethen and Weideman 2014, Theorem 5.1: for g analytic in the
    strip |Im x| < a with integral of |g(x + iy)| dx <= B for |y| < a, the rule of step h has error
    at most 2 B / (e^(2 pi a / h) - 1)). Here g = phi l^nu is analytic in the strip a = theta sigma,
    theta < pi/2 (there Re l >= (1 - q + q e^(Re u)) cos(theta) > 0, u = x/sigma - 1/(2 sigma^2), so
    the principal power is analytic), and |g(x + iy)| <= e^(a^2/2) K g(x) with K = 1 (nu >= 0) or
    cos(theta)^nu (nu < 0), so B <= e^(a^2/2) K M and the relative error is eta = 2 e^(a^2/2) K /
    (e^(2 pi a/h) - 1). The infinite sum is cut to a finite grid; the points left out are bounded by
    Gaussian envelopes c phi(x - m) of g (l <= 1 for u <= 0 and l <= e^u for u >= 0, resp. l >= 1,
    l >= 1 - q and l >= q e^u), each sum of a monotone piece by its integral. So M lies in
    [S / (1 + eta), (S + tails) / (1 - eta)], S the finite sum in interval arithmetic."""
    s, q = _sgm_params(sigma, rate)
    nu = interval(nu)
    if not (lo(nu) >= 1 or hi(nu) <= 0):
        raise ValueError(f"nu must be >= 1 or <= 0, got {nu}")
    negative = hi(nu) <= 0
    prec = iv.prec
    sf, nuf = float(lo(s)), float(lo(nu) if not negative else hi(nu))
    target = prec * math.log(2) + 12          # log of 1/(relative error budget)
    # the step: choose theta to minimise the number of points
    best = None
    for i in range(1, 60):
        theta = 1.55 * i / 60
        k_log = 0.0 if not negative else -abs(nuf) * math.log(math.cos(theta))
        a = theta * sf
        h = 2 * math.pi * a / (target + a * a / 2 + k_log + math.log(4))
        if best is None or h > best[1]:
            best = (theta, h)
    theta, h = best
    a = iv.mpf(theta) * s
    h = mpf(h)
    k_factor = iv.mpf(1) if not negative else iv.cos(iv.mpf(theta)) ** nu
    eta = 2 * iv.exp(a * a / 2) * k_factor / (iv.exp(2 * iv.pi * a / h) - 1)
    if not hi(eta) < mpf(1) / 4:
        raise ArithmeticError("trapezoidal step too coarse")
    # envelopes (log constant, centre) and the cuts
    shift = iv.mpf(1) / (2 * s)                    # u = 0 at x = 1/(2 sigma)
    spread = math.sqrt(2 * target)
    if not negative:
        # left of 1/(2 sigma): l <= 1, g <= phi(x). right: l <= e^u, g <= e^((nu^2 - nu)/(2 s^2)) phi(x - nu/s)
        left_env = [(iv.mpf(0), iv.mpf(0))]
        right_env = [((nu * nu - nu) / (2 * s * s), nu / s)]
    else:
        # right of 1/(2 sigma): l >= 1, g <= phi(x). left: l >= 1 - q, and l >= q e^u
        right_env = [(iv.mpf(0), iv.mpf(0))]
        left_env = []
        if hi(q) < 1:
            left_env.append((nu * iv.log(1 - q), iv.mpf(0)))
        if lo(q) > 0:
            left_env.append((nu * iv.log(q) + (nu * nu - nu) / (2 * s * s), nu / s))
    left_cut = min([0.0, float(lo(shift))] + [float(lo(m)) - math.sqrt(2 * max(0.0, float(hi(c))) + 1)
                                              for c, m in left_env]) - spread
    right_cut = max([0.0, float(hi(shift))] + [float(hi(m)) + math.sqrt(2 * max(0.0, float(hi(c))) + 1)
                                               for c, m in right_env]) + spread
    j_lo = int(math.floor(left_cut / float(h)))
    j_hi = int(math.ceil(right_cut / float(h)))
    x_first, x_last = hi(iv.mpf(j_lo) * iv.mpf(h)), lo(iv.mpf(j_hi) * iv.mpf(h))   # exact; ends chosen to err on the safe side
    # each cut must lie on the monotone side of its envelopes and inside their region of validity
    for _, m in left_env:
        assert x_first <= lo(m) and x_first <= lo(shift)
    for _, m in right_env:
        assert x_last >= hi(m) and x_last >= hi(shift)
    left_tail = min(hi(_envelope_tail(c, m, x_first, "left")) for c, m in left_env)
    right_tail = min(hi(_envelope_tail(c, m, x_last, "right")) for c, m in right_env)
    inv_s = 1 / s
    offset = inv_s * inv_s / 2
    total = iv.mpf(0)
    h_iv = iv.mpf(h)
    for j in range(j_lo, j_hi + 1):
        x = iv.mpf(j) * h_iv                 # exact (a float times a small integer)
        ell = 1 - q + q * iv.exp(x * inv_s - offset)
        total += npdf(x) * iv.exp(nu * iv.log(ell))
    total *= iv.mpf(h)
    low = total / (1 + eta)
    high = (total + left_tail + right_tail) / (1 - eta)
    return iv.mpf([lo(low), hi(high)])


def _sgm_moment(sigma, rate, lam, which, method):
    if which == "remove":
        if method == "binomial" or (method == "auto" and lam == int(lam) and int(lam) >= 2):
            return sgm_moment_binomial(sigma, rate, lam)
        return sgm_moment_quadrature(sigma, rate, interval(lam))
    if method == "binomial":
        raise ValueError("the binomial expansion gives the remove direction only")
    return sgm_moment_quadrature(sigma, rate, 1 - interval(lam))


def sgm_renyi(sigma, rate, order, *, steps: int = 1, direction: str = "both", method: str = "auto",
              digits: int = 50):
    """The Renyi divergence of T compositions of the Poisson-subsampled Gaussian mechanism.

    Parameters
    ----------
    sigma : number
        Noise multiplier (> 0); sensitivity 1.
    rate : number
        Sampling rate q in [0, 1].
    order : number
        lambda > 1, real.
    steps : int
        T >= 1: the divergence of a product is the sum, so T steps give T times one step, exactly.
    direction : "remove", "add" or "both"
        See the module docstring; "both" is the larger.
    method : "auto", "binomial" or "quadrature"
        "binomial": integer orders, remove direction (:func:`sgm_moment_binomial`, a finite sum);
        "quadrature": any real order, both directions (:func:`sgm_moment_quadrature`, a certified
        trapezoidal rule); "auto": the binomial expansion where it applies.
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure of the divergence.
    """
    _direction(direction)
    if steps < 1 or int(steps) != steps:
        raise ValueError(f"steps must be a positive integer, got {steps}")
    if method not in ("auto", "binomial", "quadrature"):
        raise ValueError(f"method must be auto, binomial or quadrature, got {method!r}")
    _order(order)

    if hi(interval(rate)) == 0:
        return mpf(0), mpf(0)             # q = 0: the two laws are equal

    def compute():
        lam = _order(order)
        which = ("remove", "add") if direction == "both" else (direction,)
        values = []
        for w in which:
            moment = _sgm_moment(sigma, rate, order, w, method)
            values.append(discrete.renyi_from_moment(moment, lam) * steps)
        return imax(*values)

    return enclose(compute, digits, nonnegative=True)


def sgm_hockey_stick(sigma, rate, epsilon, direction):
    """Interval of delta(epsilon) of one step of the subsampled Gaussian, in closed form through the
    Gaussian hockey-stick divergence (mu = 1/sigma), from the pointwise identities (derived here):

    - remove: max(mix - g base, 0) = max((1 - q - g) base + q N1, 0). For g <= 1 - q the integrand
      is non-negative: delta = 1 - g. Otherwise delta = q H_{g'}(N1||N0), g' = (g - 1 + q)/q.
    - add: max(base - g mix, 0) = max(c base - g q N1, 0), c = 1 - g (1 - q). For c <= 0: delta = 0.
      Otherwise delta = c H_{g q / c}(N0||N1) (q > 0), or c (q = 0).

    H_x(N(0,1)||N(mu,1)) = H_x(N(mu,1)||N(0,1)) by symmetry (:func:`gaussian_hockey_stick`). Where
    the interval of g straddles a branch point the enclosure is [0, 1 - lower g] (remove) or [0,
    upper c] (add), both sound."""
    s, q = _sgm_params(sigma, rate)
    eps = interval(epsilon)
    gamma = iv.exp(eps)
    mu = 1 / s
    if direction == "remove":
        if hi(gamma) <= lo(1 - q):
            return 1 - gamma
        if lo(gamma) > hi(1 - q):
            g_prime = (gamma - 1 + q) / q
            return q * gaussian_hockey_stick(mu, iv.log(g_prime))
        return iv.mpf([0, hi(1 - gamma)])
    if direction == "add":
        c = 1 - gamma * (1 - q)
        if hi(c) <= 0:
            return iv.mpf(0)
        if lo(c) > 0:
            if hi(q) == 0:
                return c
            if not lo(q) > 0:
                return iv.mpf([0, hi(c)])
            return c * gaussian_hockey_stick(mu, iv.log(gamma * q / c))
        return iv.mpf([0, max(hi(c), 0)])
    raise ValueError(f"direction must be remove or add here, got {direction!r}")


def sgm_delta(sigma, rate, epsilon, *, direction: str = "both", digits: int = 50):
    """delta(epsilon) of one step of the subsampled Gaussian, as an enclosure ``(lower, upper)``.

    Parameters
    ----------
    sigma, rate : numbers
        Noise multiplier (> 0) and sampling rate in [0, 1].
    epsilon : number
        Any real epsilon.
    direction : "remove", "add" or "both"
        "both": the larger of the two.
    digits : int
        Decimal digits of the result.

    Notes
    -----
    Closed form through the Gaussian hockey-stick divergence (:func:`sgm_hockey_stick`); one step
    only: a composition would need a certified convolution, which this oracle does not attempt.
    """
    _direction(direction)

    def compute():
        which = ("remove", "add") if direction == "both" else (direction,)
        return imax(*[clip_nonnegative(sgm_hockey_stick(sigma, rate, epsilon, w)) for w in which])

    return enclose(compute, digits, nonnegative=True)


def sgm_epsilon(sigma, rate, delta, *, direction: str = "both", digits: int = 50):
    """Enclosure of epsilon(delta) of one step of the subsampled Gaussian."""
    _direction(direction)
    which = ("remove", "add") if direction == "both" else (direction,)

    def delta_of(e):
        return imax(*[clip_nonnegative(sgm_hockey_stick(sigma, rate, e, w)) for w in which])

    return _epsilon_result(delta_of, delta, digits)
