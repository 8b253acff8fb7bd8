"""Independent oracles for ``dptheory verify``, in mpmath, written from the definitions.

Nothing here calls the code under test: the shuffled laws are enumerated from the randomizer's
mathematical definition, the Gaussian and Laplace quantities are computed from their densities or
the textbook closed forms with mpmath, and every function returns an enclosure ``(lower, upper)``
of the exact value (mpmath numbers; ``upper = inf`` where only a lower end is known).

Precision. Every sum runs at ``digits + GUARD`` decimal digits. A probability built from m
multiplications and additions of positive numbers carries a relative error below
``(m + 1) 10^-(digits + GUARD)``; the enclosures are widened by a bound of that kind (stated at
each function), so that a comparison failing against the enclosure fails against the exact value.
The quadratures (Gaussian and Laplace Renyi divergences, the Laplace profile) are enclosed by 100
times mpmath's own error estimate, on pieces where the integrand is smooth: an estimate, not a
proof, which the margins they give (about 1e-15 against closed forms) leave far behind.

Objects:

* :class:`Enumeration`: the exact shuffled output of n users of a finite randomizer, over every
  pair of neighbouring datasets (small n): delta(epsilon), epsilon(delta), Renyi divergences.
* :class:`RRSingleDataset`: shuffled binary randomized response on one pair of neighbouring
  datasets (the other n - 1 users all hold input 0) at large n; a lower end of the worst case.
* Gaussian (mu-GDP), Laplace and k-ary randomized response: profiles, trade-off, Renyi.
* the subsampled Gaussian pair, T-fold products, and a lower end of the Delta-divergence.
"""

from __future__ import annotations

import functools
import itertools
import math

import mpmath
import numpy as np
from mpmath import mpf

#: guard digits added to the caller's digits
GUARD = 10

INF = mpmath.inf


def _unit(digits: int):
    """The unit roundoff at the working precision of ``digits``."""
    return mpf(10) ** -(digits + GUARD)


# ----------------------------------------------------------------------------- finite randomizers


def grr_pmfs(eps0: float, d: int):
    """Generalised randomized response on d options (binary RR for d = 2): an input is reported
    with probability e^eps0/(e^eps0 + d - 1), every other option with 1/(e^eps0 + d - 1). Exact
    at the working precision (eps0 is the float given)."""
    big = mpmath.exp(mpf(eps0))
    z = big + (d - 1)
    return [[big / z if x == y else 1 / z for y in range(d)] for x in range(d)]


def randomizer_pmfs(name: str, eps0: float):
    """The pmfs of a named finite randomizer: ``"binary-rr"`` or ``"grr3"``, ``"grr4"``..."""
    if name == "binary-rr":
        return grr_pmfs(eps0, 2)
    if name.startswith("grr"):
        return grr_pmfs(eps0, int(name[3:]))
    raise ValueError(f"no oracle pmfs for randomizer {name!r}")


def _add_user(law: dict, row) -> dict:
    out: dict = {}
    for hist, pr in law.items():
        for y, py in enumerate(row):
            key = hist[:y] + (hist[y] + 1,) + hist[y + 1:]
            out[key] = out.get(key, 0) + pr * py
    return out


def _hockey(p: list, q: list, gamma, rel) -> tuple:
    """Enclosure of sum max(0, p_i - gamma q_i) when every p_i, gamma q_i is known to ``rel``
    relative: a term that cancels within its error counts 0 below and its error above."""
    lo = hi = mpf(0)
    for a, b in zip(p, q):
        gb = gamma * b
        diff, err = a - gb, rel * (a + gb)
        if diff - err > 0:
            lo += diff - err
        if diff + err > 0:
            hi += diff + err
    return lo, hi


class Enumeration:
    """The shuffled output of ``n`` users of a finite randomizer, exactly, for every pair of
    neighbouring datasets (the first user holds x or x', the other n - 1 users any multiset).

    The shuffled messages are equivalent to their histogram; its law is built one user at a time.
    Every histogram probability is a sum of at most outputs^n products of n pmf entries (all
    positive): its relative error is below ``(outputs^n + n + 2) u`` (u the unit roundoff),
    :attr:`rel`.
    """

    def __init__(self, pmfs_fn, n: int, digits: int):
        self.digits, self.n = digits, n
        with mpmath.workdps(digits + GUARD):
            pmfs = pmfs_fn()
            k, outputs = len(pmfs), len(pmfs[0])
            self.rel = 4 * (mpf(outputs) ** n + n + 2) * _unit(digits)
            if self.rel > mpf(10) ** -(digits // 2):
                raise ValueError("too many histograms for the working precision")
            self.pairs = []
            for counts in _multisets(k, n - 1):
                law = {(0,) * outputs: mpf(1)}
                for x, c in enumerate(counts):
                    for _ in range(c):
                        law = _add_user(law, pmfs[x])
                with_first = [_add_user(law, pmfs[x]) for x in range(k)]
                for a, b in itertools.permutations(range(k), 2):
                    keys = sorted(set(with_first[a]) | set(with_first[b]))
                    self.pairs.append(([with_first[a].get(h, mpf(0)) for h in keys],
                                       [with_first[b].get(h, mpf(0)) for h in keys]))
            ratios = [max(x / y for x, y in zip(p, q) if y > 0) for p, q in self.pairs]
            self.log_ratio = mpmath.log(max(ratios)) * (1 + 10 * self.rel)

    @functools.lru_cache(maxsize=None)
    def delta(self, epsilon: float) -> tuple:
        """Enclosure of max over neighbouring pairs of the hockey-stick divergence at e^epsilon."""
        with mpmath.workdps(self.digits + GUARD):
            gamma = mpmath.exp(mpf(epsilon))
            rel = self.rel + 2 * _unit(self.digits)
            best_lo = best_hi = mpf(0)
            for p, q in self.pairs:
                lo, hi = _hockey(p, q, gamma, rel)
                best_lo, best_hi = max(best_lo, lo), max(best_hi, hi)
            return +best_lo, +best_hi

    def epsilon(self, delta: float) -> tuple:
        """Enclosure of epsilon(delta) = inf{epsilon >= 0: delta(epsilon) <= delta}, by bisection
        on the enclosure of :meth:`delta` (relative width 1e-12 of the bracket)."""
        return _invert(self.delta, delta, float(self.log_ratio) + 1e-9)

    def renyi(self, order: float) -> tuple:
        """Enclosure of the largest Renyi divergence of order > 1 over ordered neighbouring pairs
        (both directions). Each term p^lam q^(1-lam) is within (2 lam + 2) rel of exact."""
        with mpmath.workdps(self.digits + GUARD):
            lam = mpf(order)
            rel = (2 * lam + 4) * (self.rel + 2 * _unit(self.digits)) + _power_error(self.pairs, lam, self.digits)
            best = mpf(0)
            for p, q in self.pairs:
                total = mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(p, q) if a > 0)
                best = max(best, total)
            lo = mpmath.log(best * (1 - rel)) / (lam - 1)
            hi = mpmath.log(best * (1 + rel)) / (lam - 1)
            return max(lo, mpf(0)), hi


def _power_error(pairs, lam, digits: int):
    """Relative error of the powers a^lam b^(1 - lam) = exp(lam log a + (1 - lam) log b): the
    exponent's absolute error, (|lam| + |1 - lam| + 1) (|log a| + |log b| + 1) u, times 2."""
    logs = [abs(mpmath.log(x)) for p, q in pairs for x in (*p, *q) if x > 0]
    return 4 * (abs(lam) + abs(1 - lam) + 1) * (max(logs, default=mpf(0)) + 1) * _unit(digits)


def _multisets(k: int, total: int):
    """Count vectors of length k summing to total."""
    if k == 1:
        yield (total,)
        return
    for c in range(total + 1):
        for rest in _multisets(k - 1, total - c):
            yield (c, *rest)


def _invert(delta_fn, delta: float, high: float, rtol: float = 1e-12) -> tuple:
    """(lower, upper) of epsilon(delta) for a non-increasing delta(epsilon) known by enclosures:
    ``lower`` has delta_lo(lower) > delta (the exact epsilon is above it), ``upper`` has
    delta_hi(upper) <= delta (the exact epsilon is at most it); ``inf`` if not reached by ``high``."""
    target = mpf(delta)
    if delta_fn(0.0)[1] <= target:
        return mpf(0), mpf(0)
    if delta_fn(high)[0] > target:
        return mpf(high), INF
    lo, hi = 0.0, high
    while hi - lo > rtol * max(hi, 1e-300):
        mid = 0.5 * (lo + hi)
        d_lo, d_hi = delta_fn(mid)
        if d_lo > target:
            lo = mid
        elif d_hi <= target:
            hi = mid
        else:  # the enclosure straddles delta: both ends are as tight as the enclosure allows
            break
    return mpf(lo), mpf(hi)


@functools.lru_cache(maxsize=16)
def enumeration(randomizer: str, eps0: float, n: int, digits: int) -> Enumeration:
    """The cached :class:`Enumeration` of a named finite randomizer."""
    return Enumeration(lambda: randomizer_pmfs(randomizer, eps0), n, digits)


# ----------------------------------------------------------------------------- binary RR, one dataset, large n


class RRSingleDataset:
    """Shuffled binary randomized response on one pair of neighbouring datasets: the n - 1 other
    users hold input 0, the first user 0 (law P) or 1 (law Q). The output is the number K of
    reported ones. With pi = 1/(e^eps0 + 1) and B = Bin(n - 1, pi):
    P(k) = (1 - pi) B(k) + pi B(k - 1),  Q(k) = pi B(k) + (1 - pi) B(k - 1).

    Its divergences are lower ends of the worst case over datasets (and over eps0-LDP
    randomizers). The binomial pmf is built from its value at the mean (log-gamma) by the ratio
    recurrence, on a window of 40 standard deviations (relative error below
    (3 steps + 60 + |log B(mean)|) u); the terms outside the window are left out, so the sums are
    lower ends.
    """

    def __init__(self, eps0: float, n: int, digits: int):
        self.digits, self.n = digits, n
        with mpmath.workdps(digits + GUARD):
            big = mpmath.exp(mpf(eps0))
            pi = 1 / (big + 1)
            m = n - 1
            # B(k) on a window of 40 standard deviations around the mean: the terms outside are
            # left out of every sum, which lowers each (lower ends stay lower ends)
            sd = math.sqrt(m * float(pi) * (1 - float(pi)))
            first = max(0, int(m * float(pi) - 40 * sd) - 10)
            last = min(m, int(m * float(pi) + 40 * sd) + 10)
            k0 = int(m * float(pi))
            log_b0 = (mpmath.loggamma(m + 1) - mpmath.loggamma(k0 + 1) - mpmath.loggamma(m - k0 + 1)
                      + k0 * mpmath.log(pi) + (m - k0) * mpmath.log(1 - pi))
            b = {k0: mpmath.exp(log_b0)}
            step = pi / (1 - pi)
            for k in range(k0, last):
                b[k + 1] = b[k] * (m - k) / (k + 1) * step
            for k in range(k0, first, -1):
                b[k - 1] = b[k] * k / ((m - k + 1) * step)
            b[-1] = b[m + 1] = mpf(0)  # exactly 0 outside [0, m]
            # P(k), Q(k) where both B(k) and B(k - 1) are known
            ks = range(first + 1 if first > 0 else 0, (last if last < m else m + 1) + 1)
            self.p = [(1 - pi) * b[k] + pi * b[k - 1] for k in ks]
            self.q = [pi * b[k] + (1 - pi) * b[k - 1] for k in ks]
            self.rel = (3 * (last - first) + 60 + abs(log_b0)) * _unit(digits)
            self.log_p = np.array([_float_log(x) for x in self.p])
            self.log_q = np.array([_float_log(x) for x in self.q])
            self.cum = {}

    def _prefix(self, name):
        if name not in self.cum:
            acc, out = mpf(0), [mpf(0)]
            for v in getattr(self, name):
                acc += v
                out.append(acc)
            self.cum[name] = out
        return self.cum[name]

    @functools.lru_cache(maxsize=None)
    def delta(self, epsilon: float) -> tuple:
        """(lower end, inf) of the larger hockey-stick divergence of the two directions: the value
        of P(S) - e^eps Q(S) on S = {k: log P(k) - log Q(k) > eps} (any S gives a lower end)."""
        with mpmath.workdps(self.digits + GUARD):
            gamma = mpmath.exp(mpf(epsilon))
            best = mpf(0)
            for a, b, la, lb in (("p", "q", self.log_p, self.log_q), ("q", "p", self.log_q, self.log_p)):
                with np.errstate(invalid="ignore"):
                    idx = np.nonzero(la - lb > epsilon)[0]
                if not idx.size:
                    continue
                if idx[-1] - idx[0] + 1 == idx.size:  # an interval: prefix sums
                    ca, cb = self._prefix(a), self._prefix(b)
                    sa, sb = ca[idx[-1] + 1] - ca[idx[0]], cb[idx[-1] + 1] - cb[idx[0]]
                else:
                    sa = mpmath.fsum(getattr(self, a)[i] for i in idx)
                    sb = mpmath.fsum(getattr(self, b)[i] for i in idx)
                rel = self.rel * 4 + 4 * _unit(self.digits)
                best = max(best, sa * (1 - rel) - gamma * sb * (1 + rel))
            return +best, INF

    def epsilon(self, delta: float, eps0: float) -> tuple:
        """(lower end, inf) of epsilon(delta): the largest epsilon found where the lower end of
        delta is still above ``delta`` (bisection; 1e-10 relative)."""
        target = mpf(delta)
        lo, hi = 0.0, eps0 + 1e-9
        if self.delta(lo)[0] <= target:
            return mpf(0), INF
        while hi - lo > 1e-10 * hi:
            mid = 0.5 * (lo + hi)
            if self.delta(mid)[0] > target:
                lo = mid
            else:
                hi = mid
        return mpf(lo), INF

    def renyi(self, order: float) -> tuple:
        """(lower end, inf) of the larger Renyi divergence of the two directions; the sum
        over k is truncated where P(k) and Q(k) are below 1e-40 of their peak (a lower end)."""
        with mpmath.workdps(self.digits + GUARD):
            lam = mpf(order)
            top = max(self.log_p.max(), self.log_q.max())
            keep = np.nonzero(np.maximum(self.log_p, self.log_q) > top - 92.0)[0]
            best = mpf(0)
            for a, b in ((self.p, self.q), (self.q, self.p)):
                total = mpmath.fsum(a[i] ** lam * b[i] ** (1 - lam) for i in keep if a[i] > 0)
                best = max(best, total)
            rel = ((2 * lam + 4) * (self.rel + 2 * _unit(self.digits))
                   + _power_error([([self.p[i] for i in keep], [self.q[i] for i in keep])], lam, self.digits))
            return max(mpf(0), mpmath.log(best * (1 - rel)) / (lam - 1)), INF


def _float_log(x) -> float:
    """log x as a float (used only to choose the set of a hockey-stick sum, never as a value)."""
    f = float(x)
    if f > 1e-300:
        return math.log(f)
    return float(mpmath.log(x)) if x > 0 else -math.inf


@functools.lru_cache(maxsize=8)
def rr_single_dataset(eps0: float, n: int, digits: int) -> RRSingleDataset:
    return RRSingleDataset(eps0, n, digits)


# ----------------------------------------------------------------------------- Gaussian (mu-GDP)


def gaussian_delta(mu: float, epsilon: float, digits: int) -> tuple:
    """Hockey-stick divergence of N(mu, 1) from N(0, 1) at e^epsilon (Balle and Wang 2018, Theorem 8):
    Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu); enclosed by the cancellation error and the
    sensitivity of the normal tails to their arguments' rounding."""
    with mpmath.workdps(digits + GUARD):
        m, e = mpf(mu), mpf(epsilon)
        a = mpmath.ncdf(m / 2 - e / m)
        b = mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)
        # Phi(x) with x known to u |x| moves by about x^2 u relative in the tails
        x = abs(m / 2) + abs(e / m)
        err = 20 * _unit(digits) * (a + b) * (1 + x * x + abs(e))
        return max(mpf(0), a - b - err), a - b + err


def golden_section(f, lo, hi, iterations: int, ratio=(math.sqrt(5) - 1) / 2):
    """The midpoint of the final bracket of a golden-section search for the minimum of ``f`` on
    [lo, hi] (floats or mpmath numbers: ``ratio`` in the same type). Every point is a valid
    argument: callers use it where any point gives a one-sided bound and a near-optimal one a
    tight bound."""
    for _ in range(iterations):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if f(a) < f(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def gaussian_delta_tradeoff_view(mu: float, epsilon: float, digits: int) -> tuple:
    """(lower end, inf) of delta(eps) from the trade-off view: delta = sup_alpha 1 - e^eps alpha -
    f(alpha) with f(alpha) = Phi(Phi^-1(1 - alpha) - mu) (Dong, Roth, Su 2022, Proposition 2.12);
    alpha = Phi(-z), maximised over z by golden-section search (every z gives a lower end)."""
    with mpmath.workdps(digits + GUARD):
        m, g = mpf(mu), mpmath.exp(mpf(epsilon))

        def value(z):
            return 1 - g * mpmath.ncdf(-z) - mpmath.ncdf(z - m)

        best = value(golden_section(lambda z: -value(z), mpf(-40), mpf(40) + mpf(epsilon) / m, 200,
                                    (mpmath.sqrt(5) - 1) / 2))
        err = 20 * _unit(digits) * (1 + g)
        return max(mpf(0), best - err), INF


def gaussian_epsilon(mu: float, delta: float, digits: int) -> tuple:
    """Enclosure of epsilon(delta) of mu-GDP, by bisection on :func:`gaussian_delta`."""
    return _invert(lambda e: gaussian_delta(mu, e, digits), delta, 10 * mu * mu + 50 * mu + 10)


def gaussian_tradeoff(mu: float, alpha: float, digits: int) -> tuple:
    """f(alpha) = Phi(Phi^-1(1 - alpha) - mu), Phi^-1 by mpmath's erfinv."""
    with mpmath.workdps(digits + GUARD):
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpf(alpha))
        v = mpmath.ncdf(z - mpf(mu))
        err = 1000 * _unit(digits) * (1 + z * z + mpf(mu) ** 2) * v
        return max(mpf(0), v - err), v + err


def gaussian_renyi(mu: float, order: float, digits: int) -> tuple:
    """D_lam(N(mu, 1) || N(0, 1)) by numerical integration of p^lam q^(1-lam) (mpmath quad;
    enclosed by 100 times its error estimate)."""
    with mpmath.workdps(digits + GUARD):
        m, lam = mpf(mu), mpf(order)

        def f(x):
            return mpmath.npdf(x, m) ** lam * mpmath.npdf(x) ** (1 - lam)

        centre = lam * m
        total, err = mpmath.quad(f, [-mpmath.inf, centre - 10, centre, centre + 10, mpmath.inf], error=True)
        err = 100 * abs(err) + 100 * _unit(digits) * total
        return mpmath.log(total - err) / (lam - 1), mpmath.log(total + err) / (lam - 1)


# ----------------------------------------------------------------------------- Laplace


def laplace_renyi(mu: float, order: float, digits: int) -> tuple:
    """D_lam(Lap(mu, 1) || Lap(0, 1)) by numerical integration of the densities (mpmath quad,
    split at the kinks 0 and mu; enclosed by 100 times the error estimate)."""
    with mpmath.workdps(digits + GUARD):
        m, lam = mpf(mu), mpf(order)

        def f(x):
            return (mpmath.exp(-abs(x - m)) / 2) ** lam * (mpmath.exp(-abs(x)) / 2) ** (1 - lam)

        total, err = mpmath.quad(f, [-mpmath.inf, 0, m, mpmath.inf], error=True)
        err = 100 * abs(err) + 100 * _unit(digits) * total
        return mpmath.log(total - err) / (lam - 1), mpmath.log(total + err) / (lam - 1)


def laplace_delta(mu: float, epsilon: float, digits: int) -> tuple:
    """Hockey-stick divergence of Lap(mu, 1) from Lap(0, 1) at e^eps: the integral of
    max(0, p - e^eps q), split where the integrand has kinks (0, mu and the crossing point)."""
    with mpmath.workdps(digits + GUARD):
        m, g = mpf(mu), mpmath.exp(mpf(epsilon))

        def f(x):
            return max(mpf(0), mpmath.exp(-abs(x - m)) / 2 - g * mpmath.exp(-abs(x)) / 2)

        points = sorted({mpf(0), m, (m + mpf(epsilon)) / 2})
        total, err = mpmath.quad(f, [-mpmath.inf, *points, mpmath.inf], error=True)
        err = 100 * abs(err) + 100 * _unit(digits)
        return max(mpf(0), total - err), total + err


def laplace_epsilon(mu: float, delta: float, digits: int) -> tuple:
    return _invert(lambda e: laplace_delta(mu, e, digits), delta, mu + 1e-9, rtol=1e-9)


# ----------------------------------------------------------------------------- k-ary randomized response


def rr_pair(eps0: float, k: int):
    """The two output laws of k-ary randomized response on two distinct inputs."""
    rows = grr_pmfs(eps0, k)
    return rows[0], rows[1]


def rr_delta(eps0: float, k: int, epsilon: float, digits: int) -> tuple:
    """Hockey-stick divergence of k-ary RR's two rows at e^epsilon (a finite sum)."""
    with mpmath.workdps(digits + GUARD):
        p, q = rr_pair(eps0, k)
        return _hockey(p, q, mpmath.exp(mpf(epsilon)), 8 * _unit(digits))


def rr_epsilon(eps0: float, k: int, delta: float, digits: int) -> tuple:
    return _invert(lambda e: rr_delta(eps0, k, e, digits), delta, eps0 + 1e-9)


def rr_renyi(eps0: float, k: int, order: float, digits: int) -> tuple:
    """Renyi divergence of order lam of k-ary RR's two rows (a finite sum)."""
    with mpmath.workdps(digits + GUARD):
        p, q = rr_pair(eps0, k)
        lam = mpf(order)
        total = mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(p, q))
        rel = (2 * lam + 8) * _unit(digits) + _power_error([(p, q)], lam, digits)
        return (max(mpf(0), mpmath.log(total * (1 - rel)) / (lam - 1)),
                mpmath.log(total * (1 + rel)) / (lam - 1))


# ----------------------------------------------------------------------------- trade-off functions


def tradeoff_value(p: list, q: list, alpha, rel) -> tuple:
    """Enclosure of T(P, Q)(alpha) = inf{1 - E_Q[phi] : E_P[phi] <= alpha} for discrete P, Q
    (Neyman-Pearson: reject where Q/P is largest, randomising the last outcome), when every
    probability is known to ``rel`` relative. The value moves by at most ``rel`` (1 + max Q/P)
    under such errors (the type II error is 1-Lipschitz in Q and max(Q/P)-Lipschitz in P)."""
    a = mpf(alpha)
    free = mpmath.fsum(y for x, y in zip(p, q) if x == 0)  # outcomes P never gives: rejected for free
    order = sorted(((y / x, x, y) for x, y in zip(p, q) if x > 0), key=lambda t: t[0], reverse=True)
    rejected_q, budget = free, a
    for ratio, x, y in order:
        if budget <= 0:
            break
        take = min(mpf(1), budget / x)
        rejected_q += take * y
        budget -= take * x
    value = max(mpf(0), 1 - rejected_q)
    top = order[0][0] if order else mpf(1)
    err = rel * (2 + top) * 4
    return max(mpf(0), value - err), value + err


def enumeration_tradeoff(randomizer: str, eps0: float, n: int, alpha: float, digits: int) -> tuple:
    """Enclosure of the trade-off function of n shuffled users of a finite randomizer at alpha:
    the smallest T(M(D), M(D'))(alpha) over ordered neighbouring pairs (exact enumeration). A
    certified lower bound on the trade-off of the shuffled mechanism must not exceed its upper end."""
    exact = enumeration(randomizer, eps0, n, digits)
    with mpmath.workdps(digits + GUARD):
        rel = exact.rel + 2 * _unit(digits)
        ends = [tradeoff_value(p, q, alpha, rel) for p, q in exact.pairs]
        return min(lo for lo, _ in ends), min(hi for _, hi in ends)


def composed_delta_lower(randomizer: str, eps0: float, n: int, rounds: int, epsilon: float, digits: int) -> tuple:
    """(lower end, inf) of delta(epsilon) of ``rounds`` compositions of the shuffled mechanism:
    the hockey-stick divergence of the rounds-fold product of each neighbouring pair's laws (the
    mechanism run ``rounds`` times on the same two datasets), maximised over the pairs."""
    exact = enumeration(randomizer, eps0, n, digits)
    with mpmath.workdps(digits + GUARD):
        gamma = mpmath.exp(mpf(epsilon))
        rel = (rounds + 2) * (exact.rel + 2 * _unit(digits))
        best = mpf(0)
        for p, q in exact.pairs:
            pp, qq = [mpf(1)], [mpf(1)]
            for _ in range(rounds):
                pp = [a * b for a in pp for b in p]
                qq = [a * b for a in qq for b in q]
            best = max(best, _hockey(pp, qq, gamma, rel)[0])
        return best, INF


# ----------------------------------------------------------------------------- subsampled Gaussian


def subsampled_gaussian_delta(sigma: float, rate: float, epsilon: float, digits: int, direction: str = "both") -> tuple:
    """Hockey-stick divergence at g = e^eps between P = (1 - p) N(0, s^2) + p N(1, s^2) and
    Q = N(0, s^2) (Poisson subsampling at rate p of the Gaussian mechanism, add/remove
    neighbours): ``direction`` "remove" is H(P||Q), "add" is H(Q||P), "both" their maximum.

    P/Q = (1 - p) + p exp((2x - 1)/(2 s^2)) increases with x, so each positive set is a half-line:
    P > g Q for x > t = s^2 log((g - 1 + p)/p) + 1/2, and Q > g P for x < t' = s^2 log((1/g - 1 +
    p)/p) + 1/2 (empty when 1/g <= 1 - p). The divergences are differences of normal tails there;
    the cancellation error is enclosed."""
    with mpmath.workdps(digits + GUARD):
        s, p, g = mpf(sigma), mpf(rate), mpmath.exp(mpf(epsilon))
        out = []
        if direction in ("remove", "both"):
            t = s * s * mpmath.log((g - 1 + p) / p) + mpf(1) / 2
            a = (1 - p) * mpmath.ncdf(-t / s) + p * mpmath.ncdf((1 - t) / s)
            b = g * mpmath.ncdf(-t / s)
            out.append((a - b, a + b))
        if direction in ("add", "both"):
            inner = 1 / g - 1 + p
            if inner > 0:
                t = s * s * mpmath.log(inner / p) + mpf(1) / 2
                a = mpmath.ncdf(t / s)
                b = g * ((1 - p) * mpmath.ncdf(t / s) + p * mpmath.ncdf((t - 1) / s))
                out.append((a - b, a + b))
            else:
                out.append((mpf(0), mpf(0)))
        value, scale = max(out, key=lambda v: v[0])
        err = 40 * _unit(digits) * (scale + 1) * (1 + abs(s * s * mpmath.log(g + 1)))
        return max(mpf(0), value - err), value + err


# ----------------------------------------------------------------------------- Delta-divergence


def gaussian_delta_divergence_lower(mu: float, mu_tilde: float, digits: int) -> tuple:
    """(lower end, inf) of Delta(G_mu || G_mu~) = max{0, sup_eps (delta~(eps) - delta(eps)) /
    (1 + e^eps)} (Kaissis et al. 2024, Definition 1 in privacy-profile form by Theorem 2, clause (2);
    derived here):
    the value at the best epsilon of a grid refined by golden-section search (every epsilon gives
    a lower end)."""
    with mpmath.workdps(digits + GUARD):
        def value(e):
            lo_t, _ = gaussian_delta(mu_tilde, e, digits)
            _, hi = gaussian_delta(mu, e, digits)
            return (lo_t - hi) / (1 + mpmath.exp(e))

        grid = [mpf(x) / 4 for x in range(-80, 81)]
        best = max(grid, key=value)
        refined = golden_section(lambda e: -value(e), best - mpf(1) / 4, best + mpf(1) / 4, 90,
                                 (mpmath.sqrt(5) - 1) / 2)
        return max(mpf(0), value(refined), value(best)), INF


def rr_composed_delta(eps0: float, k: int, rounds: int, epsilon: float, digits: int) -> tuple:
    """Enclosure of the hockey-stick divergence at e^eps of the ``rounds``-fold products of k-ary
    RR's two rows (the exact delta of composing the pair; a finite sum over k^rounds outcomes)."""
    with mpmath.workdps(digits + GUARD):
        p, q = rr_pair(eps0, k)
        pp, qq = [mpf(1)], [mpf(1)]
        for _ in range(rounds):
            pp = [a * b for a in pp for b in p]
            qq = [a * b for a in qq for b in q]
        return _hockey(pp, qq, mpmath.exp(mpf(epsilon)), (rounds + 8) * _unit(digits))
