"""An independent mpmath oracle for a count pair (the shape of :class:`dptheory.shuffle.pairs.CountPair`),
written from the pair's definition without reading the code under test.

The pair. N other users each send a clone with probability ``s`` (of type 0 with probability
``rho``, else type 1) and nothing otherwise; the victim sends a message with probability ``v``, of
type 0 with probability ``theta`` (``theta_p`` under P, ``theta_q`` under Q). The observation is
the pair (a, b) of counts of type-0 and type-1 messages. With M(a, b) the law of the clones' counts,

    M(a, b) = C(N, a + b) s^(a+b) (1 - s)^(N - a - b) C(a + b, a) rho^a (1 - rho)^b,
    P(a, b) = v theta_p M(a - 1, b) + v (1 - theta_p) M(a, b - 1) + (1 - v) M(a, b),

and Q the same with theta_q. Every atom is a sum of products of non-negative numbers (no
cancellation), so at W working digits it carries a relative error below
``(N + 200) 10^-W`` (the factor N for the integer power (1 - s)^(N - c), whose base is rounded
once; a few hundred roundings for the rest).

The hockey-stick divergence ``sum max(0, P - gamma Q)`` is then enclosed atom by atom, as in
tests/oracles/exact_shuffle.py: an atom whose difference is within its error counts 0 at the lower
end and its error at the upper end. The atoms are enumerated over a window of total counts
c = a + b around the mean (all of them for small N), grown until a rigorous bound on the mass
outside it (a union bound above, Chernoff below: :func:`_tail_bound`) is negligible against the
sum; that bound is added to the upper end (each omitted term max(0, P - gamma Q) is at most P).
The working precision is raised until the enclosure is narrow (relative width 1e-15) or a limit
is reached; the caller gets the enclosure either way.

The float parameters are taken as exact binary numbers (``mpf(float)`` is exact).
"""

from __future__ import annotations

import math

import mpmath
from mpmath import mpf


def _params(pair):
    return (int(pair["others"]), mpf(pair["clone_prob"]), mpf(pair["theta_p"]), mpf(pair["theta_q"]),
            mpf(pair["victim_prob"]), mpf(pair["clone_bias"]))


def _tail_bound(n: int, s, lo: int, hi: int):
    """A bound on P[K < lo] + P[K > hi] for K = C + V, C ~ Bin(N, s), V in {0, 1}:
    P[K > hi] <= P[C >= hi] <= C(N, hi) s^hi (a union bound over the hi-subsets of the users), and
    P[K < lo] <= P[C <= lo - 1] <= exp(-N D((lo - 1)/N || s)) (Chernoff) for lo - 1 < N s."""
    out = mpf(0)
    if hi < n + 1:
        out += mpmath.binomial(n, hi) * s**hi if hi <= n else mpf(0)
    if lo > 0 and s < 1:  # (s = 1: C = N, never below lo - 1 < N s)
        k = mpf(lo - 1)
        if k >= n * s:
            return mpf(1)
        x = k / n
        kl = (x * mpmath.log(x / s) if x > 0 else 0) + (1 - x) * mpmath.log((1 - x) / (1 - s))
        out += mpmath.exp(-n * kl)
    return min(out, mpf(1))


def _atoms(pair, c):
    """Yield (P(a, b), Q(a, b)) for every atom with a + b = c."""
    n, s, tp, tq, v, rho = _params(pair)

    def clones(a, b):
        k = a + b
        if a < 0 or b < 0 or k > n:
            return mpf(0)
        return mpmath.binomial(n, k) * s**k * (1 - s) ** (n - k) * mpmath.binomial(k, a) * rho**a * (1 - rho) ** b

    row_prev = [clones(a, c - 1 - a) for a in range(c)]   # c - 1 clones
    row = [clones(a, c - a) for a in range(c + 1)]        # c clones
    for a in range(c + 1):
        b = c - a
        m10 = row_prev[a - 1] if a >= 1 else mpf(0)
        m01 = row_prev[a] if b >= 1 else mpf(0)
        m00 = row[a]
        p = v * tp * m10 + v * (1 - tp) * m01 + (1 - v) * m00
        q = v * tq * m10 + v * (1 - tq) * m01 + (1 - v) * m00
        yield p, q


#: largest number of atoms an enclosure enumerates (beyond it the window stops growing and the
#: enclosure keeps the bound on the omitted mass: sound, possibly wide)
MAX_ATOMS = 20_000


def _windowed(pair: dict, term, omitted_weight):
    """(lower sum, upper sum, bound on the omitted part) of per-count contributions ``term(c) -> (lo, hi)`` over a window of
    total counts grown around the mean until the bound on the omitted mass, times
    ``omitted_weight``, is below 1e-25 of the lower sum (or the window is every count, or holds
    :data:`MAX_ATOMS` atoms)."""
    n, s = int(pair["others"]), mpf(pair["clone_prob"])
    mean = int(round(float(n * s + mpf(pair["victim_prob"]))))
    sd = int(math.sqrt(float(n * s * (1 - s)))) + 1
    half = 8 * sd
    done: dict[int, tuple] = {}
    while True:
        lo_c, hi_c = max(0, mean - half), min(n + 1, mean + half)
        for c in range(lo_c, hi_c + 1):
            if c not in done:
                done[c] = term(c)
        lo = mpmath.fsum(v[0] for v in done.values())
        hi = mpmath.fsum(v[1] for v in done.values())
        if lo_c == 0 and hi_c == n + 1:
            return lo, hi, mpf(0)
        omitted = _tail_bound(n, s, lo_c, hi_c) * omitted_weight
        if omitted <= mpf(10) ** -25 * lo:
            return lo, hi, omitted
        grown = sum(c + 1 for c in range(max(0, mean - 2 * half), min(n + 1, mean + 2 * half) + 1))
        if grown > MAX_ATOMS:
            return lo, hi, omitted
        half *= 2


def hockey_stick(pair: dict, epsilon, *, digits: int = 60, max_digits: int = 400, target=mpf(10) ** -15):
    """``(lo, hi)``, mpf: an enclosure of sum max(0, P - e^epsilon Q) of the count pair given as a
    dict with the keys others, clone_prob, theta_p, theta_q, victim_prob, clone_bias (floats,
    taken exactly). Raises the precision until ``hi - lo <= target * hi`` or ``max_digits``."""
    w = digits
    while True:
        with mpmath.workdps(w):
            n = int(pair["others"])
            gamma = mpmath.exp(mpf(epsilon))
            rel = (n + 200) * mpf(10) ** (-w) + mpf(10) ** (-w)  # the atoms, and e^epsilon

            def term(c):
                lo = hi = mpf(0)
                for p, q in _atoms(pair, c):
                    d, err = p - gamma * q, rel * (p + gamma * q)
                    if d - err > 0:
                        lo += d - err
                    if d + err > 0:
                        hi += d + err
                return lo, hi

            lo, hi, omitted = _windowed(pair, term, mpf(1))
            lo, hi = lo * (1 - rel), hi * (1 + rel)  # the summation (positive terms)
            # more digits narrow the rounding part of the width, not the omitted mass
            if hi == 0 or hi - lo <= target * hi or w >= max_digits:
                return lo, hi + omitted
        w = min(2 * w, max_digits)


def renyi_moment(pair: dict, order, *, digits: int = 60, max_digits: int = 400, target=mpf(10) ** -15):
    """``(lo, hi)``, mpf: an enclosure of sum P^lam Q^(1 - lam) (lam = ``order`` > 1) of the count
    pair (as :func:`hockey_stick`). An omitted atom contributes at most P R^(lam - 1), R the largest
    likelihood ratio, max(theta_p/theta_q, (1 - theta_p)/(1 - theta_q), 1) (every atom's ratio is a
    mediant of those). Infinite (inf, inf) where some atom has P > 0 = Q."""
    w = digits
    while True:
        with mpmath.workdps(w):
            n, s, tp, tq, v, rho = _params(pair)
            lam = mpf(order)
            rel = (n + 200) * mpf(10) ** (-w) * (1 + abs(lam))
            ratios = [mpf(1)]
            if tq > 0:
                ratios.append(tp / tq)
            elif tp > 0:
                return mpmath.inf, mpmath.inf
            if tq < 1:
                ratios.append((1 - tp) / (1 - tq))
            elif tp < 1:
                return mpmath.inf, mpmath.inf

            def term(c):
                total = mpf(0)
                for p, q in _atoms(pair, c):
                    if p > 0:
                        total += p**lam * q ** (1 - lam)
                return total * (1 - rel), total * (1 + rel)

            lo, hi, omitted = _windowed(pair, term, max(ratios) ** (lam - 1))
            if hi - lo <= target * hi or w >= max_digits:
                return lo, hi + omitted
        w = min(2 * w, max_digits)


def _self_check():
    """Against closed forms: one user (N = 0) is the victim's own pair, H = v (theta_p - gamma theta_q)^+
    + v ((1 - theta_p) - gamma (1 - theta_q))^+ + (1 - v)(1 - gamma)^+; and the two-atom sum."""
    with mpmath.workdps(60):
        pair = dict(others=0, clone_prob=0.3, theta_p=0.9, theta_q=0.2, victim_prob=0.7, clone_bias=0.5)
        for e in (-0.5, 0.0, 0.3, 1.2, 2.0):
            g = mpmath.exp(mpf(e))
            tp, tq, v = mpf(0.9), mpf(0.2), mpf(0.7)
            want = v * max(0, tp - g * tq) + v * max(0, (1 - tp) - g * (1 - tq)) + (1 - v) * max(0, 1 - g)
            lo, hi = hockey_stick(pair, e)
            assert lo <= want <= hi and hi - lo <= mpf(10) ** -40, (e, lo, hi, want)
        # one clone, victim always present: atoms (2,0), (1,1), (0,2) and the one-clone-absent ones
        pair = dict(others=1, clone_prob=0.25, theta_p=0.75, theta_q=0.5, victim_prob=1.0, clone_bias=0.5)
        s, rho, tp, tq = mpf(0.25), mpf(0.5), mpf(0.75), mpf(0.5)
        e = 0.1
        g = mpmath.exp(mpf(e))
        atoms_p = {(1, 0): (1 - s) * tp, (0, 1): (1 - s) * (1 - tp), (2, 0): s * rho * tp,
                   (1, 1): s * (rho * (1 - tp) + (1 - rho) * tp), (0, 2): s * (1 - rho) * (1 - tp)}
        atoms_q = {(1, 0): (1 - s) * tq, (0, 1): (1 - s) * (1 - tq), (2, 0): s * rho * tq,
                   (1, 1): s * (rho * (1 - tq) + (1 - rho) * tq), (0, 2): s * (1 - rho) * (1 - tq)}
        want = sum(max(0, atoms_p[k] - g * atoms_q[k]) for k in atoms_p)
        lo, hi = hockey_stick(pair, e)
        assert lo <= want <= hi and hi - lo <= mpf(10) ** -40
        moment = sum(atoms_p[k] ** 3 * atoms_q[k] ** -2 for k in atoms_p)
        lo, hi = renyi_moment(pair, 3)
        assert lo <= moment <= hi
    return True


if __name__ == "__main__":
    print("self-check:", _self_check())
