"""Second oracles for ``dptheory verify``: independent mpmath evaluations of THE SAME quantity a
method computes, so that verify checks implementation accuracy besides soundness.

Soundness (:mod:`.oracles`) compares a bound with the truth, and where the bound is loose (a
clone bound is 5% above the exact shuffled delta) a bound 1% too low passes. Here the quantity the
method claims to compute is evaluated again from its definition in the papers, without calling
the code under test:

* :class:`PairLaws`: a pair of laws on finitely many atoms in mpmath: hockey-stick divergence (both
  ends, by sorting the likelihood ratios once), epsilon(delta), Renyi divergence, trade-off
  function, T-fold products. Built by :func:`count_pair` by direct enumeration of the counts
  (a, b) of type-0 and type-1 messages (the explicit pmf of Wang et al. 2024, Appendix E, eqs.
  (7)-(9); Feldman, McMillan, Talwar 2021, Theorem 3.1), O(n^2) atoms: small and moderate n only
  (:data:`MAX_OTHERS`);
* the pairs the methods compute: :func:`clone_pair` (Feldman, McMillan, Talwar 2021),
  :func:`stronger_clone_pair` (Feldman, McMillan, Talwar 2023), :func:`variation_ratio_pair`
  (Wang et al. 2024, Theorem 4.7), :func:`labelled_pair` (derived here), :func:`p0q0_pair`
  (Wang, Su, Ye, Shokri, Su 2023, Appendix C), :func:`rr_lower_pair` (Girgis et al. 2021,
  Theorem 3.4);
* closed forms written again from the papers (for a closed form this is a transcription check):
  Theorems 4.2 (as its proof in Appendix F derives it) and 4.3 of Wang et al. 2024, Erlingsson et
  al.'s 12 eps0 sqrt(log(1/delta)/n), the privacy blanket's Hoeffding and Bennett bounds, Girgis
  et al.'s Theorem 3.1 (and its mixture variant, derived here), 3.3, Corollary 3.2 and Erlingsson
  et al.'s RDP, with Remark 2's interpolation for real orders;
* the RDP -> (epsilon, delta) conversions at a given order (Balle et al. 2020, Theorem 21;
  Mironov 2017, Proposition 3).

Every function returns an enclosure ``(lower, upper)`` (mpmath numbers) or a list of them; the
error bounds follow :mod:`.oracles` (a relative error of ``(m + 1) u`` for m positive operations at
``digits + GUARD`` digits).
"""

from __future__ import annotations

import bisect
import functools
import math

import mpmath
from mpmath import mpf

from ..hull import lower_hull
from .oracles import GUARD, INF, _invert, _power_error, _unit, golden_section, tradeoff_value

#: the largest number of other users whose pair is enumerated (about n^2/2 atoms)
MAX_OTHERS = 400


# ----------------------------------------------------------------------------- pairs of laws


class PairLaws:
    """Two laws P, Q on the same atoms, every probability known to relative error ``rel``."""

    def __init__(self, p: list, q: list, rel, digits: int):
        self.p, self.q, self.rel, self.digits = p, q, rel, digits
        with mpmath.workdps(digits + GUARD):
            ratios = [(a / b if b > 0 else INF, a, b) for a, b in zip(p, q) if a > 0 or b > 0]
            ratios.sort(key=lambda t: t[0], reverse=True)
            self._ratios = [-t[0] for t in ratios]  # ascending, for bisect
            sp, sq = [mpf(0)], [mpf(0)]
            for _, a, b in ratios:
                sp.append(sp[-1] + a)
                sq.append(sq[-1] + b)
            self._sp, self._sq = sp, sq

    def reversed(self) -> "PairLaws":
        return PairLaws(self.q, self.p, self.rel, self.digits)

    @functools.lru_cache(maxsize=None)
    def delta(self, epsilon: float) -> tuple:
        """Enclosure of H_{e^eps}(P || Q) = sum max(0, P - e^eps Q): the atoms sorted by P/Q, the
        sum over those above e^eps by prefix sums. Below: the computed sums over the first k atoms
        (k near the threshold), less their error (any set of atoms gives a lower end). Above: every
        atom whose computed ratio is within 4 rel of e^eps or more, plus the error."""
        with mpmath.workdps(self.digits + GUARD):
            gamma = mpmath.exp(mpf(epsilon))
            rel = self.rel + 2 * _unit(self.digits)
            k = bisect.bisect_left(self._ratios, -gamma)  # atoms with ratio > gamma
            lo = mpf(0)
            for j in {max(0, k - 1), k, min(len(self._ratios), k + 1)}:
                a, b = self._sp[j], self._sq[j]
                lo = max(lo, a - gamma * b - rel * (a + gamma * b))
            m = bisect.bisect_left(self._ratios, -gamma * (1 - 4 * rel))
            a, b = self._sp[m], self._sq[m]
            hi = max(mpf(0), a - gamma * b + 6 * rel * (a + gamma * b))
            return +lo, +hi

    def epsilon(self, delta: float, high: float) -> tuple:
        """Enclosure of the smallest epsilon >= 0 with H_{e^eps}(P||Q) <= delta (bisection on
        :meth:`delta`); ``high`` is an epsilon known to reach it (or where the search stops)."""
        return _invert(self.delta, delta, high)

    def renyi(self, order: float) -> tuple:
        """Enclosure of D_lam(P || Q) = log(sum P^lam Q^(1-lam)) / (lam - 1), lam > 1."""
        with mpmath.workdps(self.digits + GUARD):
            lam = mpf(order)
            if any(a > 0 and b == 0 for a, b in zip(self.p, self.q)):
                return INF, INF
            total = mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(self.p, self.q) if a > 0)
            rel = (2 * lam + 4) * (self.rel + 2 * _unit(self.digits)) + _power_error([(self.p, self.q)], lam, self.digits)
            return (max(mpf(0), mpmath.log(total * (1 - rel)) / (lam - 1)),
                    mpmath.log(total * (1 + rel)) / (lam - 1))

    def tradeoff(self, alpha: float) -> tuple:
        """Enclosure of T(P, Q)(alpha) (Neyman-Pearson, :func:`.oracles.tradeoff_value`)."""
        with mpmath.workdps(self.digits + GUARD):
            return tradeoff_value(self.p, self.q, alpha, self.rel + 2 * _unit(self.digits))

    def product(self, rounds: int) -> "PairLaws":
        """The ``rounds``-fold products P^T, Q^T (the pair run T times on the same datasets)."""
        with mpmath.workdps(self.digits + GUARD):
            pp, qq = [mpf(1)], [mpf(1)]
            for _ in range(rounds):
                pp = [x * y for x in pp for y in self.p]
                qq = [x * y for x in qq for y in self.q]
            return PairLaws(pp, qq, rounds * (self.rel + 2 * _unit(self.digits)), self.digits)


def count_pair(others: int, clone_prob, theta_p, theta_q, victim_prob, clone_bias, digits: int) -> PairLaws:
    """The laws of the counts (a, b) of type-0 and type-1 messages, enumerated: ``others`` users
    each send a clone with probability ``clone_prob`` (of type 0 with probability ``clone_bias``),
    the victim sends a message with probability ``victim_prob``, of type 0 with probability
    ``theta_p`` under P and ``theta_q`` under Q. With K(a, b) = Bin(a + b; N, s) Bin(a; a + b, rho)
    (the clones' counts):

        P(a, b) = v theta_p K(a - 1, b) + v (1 - theta_p) K(a, b - 1) + (1 - v) K(a, b)

    (the explicit pmf of Wang et al. 2024, Appendix E, eqs. (7)-(9); Q with theta_q). The parameters are mpmath numbers
    (callers compute them from eps0 at the working precision). Each K is a product of binomial
    coefficients (exact integers) and integer powers: relative error below (2N + 10) u."""
    if others > MAX_OTHERS:
        raise ValueError(f"count_pair: {others} other users is too many to enumerate (at most {MAX_OTHERS})")
    with mpmath.workdps(digits + GUARD):
        s, rho, v = mpf(clone_prob), mpf(clone_bias), mpf(victim_prob)
        tp, tq = mpf(theta_p), mpf(theta_q)
        N = others
        bin_c = [mpmath.binomial(N, c) * s ** c * (1 - s) ** (N - c) for c in range(N + 1)]
        kern = {}
        for c in range(N + 1):
            for a in range(c + 1):
                kern[(a, c - a)] = bin_c[c] * mpmath.binomial(c, a) * rho ** a * (1 - rho) ** (c - a)
        zero = mpf(0)
        p, q = [], []
        for total in range(N + 2):
            for a in range(total + 1):
                b = total - a
                left, right, stay = kern.get((a - 1, b), zero), kern.get((a, b - 1), zero), kern.get((a, b), zero)
                p.append(v * (tp * left + (1 - tp) * right) + (1 - v) * stay)
                q.append(v * (tq * left + (1 - tq) * right) + (1 - v) * stay)
        rel = 4 * (2 * N + 20) * _unit(digits)
    return PairLaws(p, q, rel, digits)


def _e(eps0: float):
    return mpmath.exp(mpf(eps0))


@functools.lru_cache(maxsize=32)
def clone_pair(eps0: float, n: int, digits: int) -> PairLaws:
    """FMT21 (Theorem 3.1): C ~ Bin(n - 1, e^-eps0) fair clones, the victim's message of type 0
    with probability e^eps0/(e^eps0 + 1) under P, 1/(e^eps0 + 1) under Q."""
    with mpmath.workdps(digits + GUARD):
        E = _e(eps0)
        return count_pair(n - 1, 1 / E, E / (E + 1), 1 / (E + 1), 1, mpf(1) / 2, digits)


@functools.lru_cache(maxsize=32)
def stronger_clone_pair(eps0: float, n: int, digits: int) -> PairLaws:
    """FMT23: the same with clone probability 2/(e^eps0 + 1)."""
    with mpmath.workdps(digits + GUARD):
        E = _e(eps0)
        return count_pair(n - 1, 2 / (E + 1), E / (E + 1), 1 / (E + 1), 1, mpf(1) / 2, digits)


def ldp_parameters(randomizer: str, eps0: float):
    """(p, beta, q) of a named finite randomizer, from its definition: generalised randomized
    response on d options (binary RR: d = 2) has p = q = e^eps0 and total variation
    beta = (e^eps0 - 1)/(e^eps0 + d - 1) between any two inputs (Wang et al. 2024, Table 2)."""
    d = 2 if randomizer == "binary-rr" else int(randomizer[3:])
    E = _e(eps0)
    return E, (E - 1) / (E + d - 1), E


@functools.lru_cache(maxsize=32)
def variation_ratio_pair(randomizer: str, eps0: float, n: int, digits: int) -> PairLaws:
    """Wang et al. (2024), Theorem 4.7: C ~ Bin(n - 1, 2r) fair clones, the victim's type-0
    message with probability p alpha under P (alpha under Q), type 1 with alpha (p alpha), none
    with 1 - alpha - p alpha; alpha = beta/(p - 1), r = alpha p/q."""
    with mpmath.workdps(digits + GUARD):
        p, beta, q = ldp_parameters(randomizer, eps0)
        alpha = beta / (p - 1)
        v = min(mpf(1), (p + 1) * alpha)
        return count_pair(n - 1, 2 * alpha * p / q, p / (p + 1), 1 / (p + 1), v, mpf(1) / 2, digits)


@functools.lru_cache(maxsize=32)
def labelled_pair(randomizer: str, eps0: float, n: int, digits: int) -> tuple:
    """(factor, pair) of the labelled variation-ratio bound at the randomizer's beta (every pair
    of inputs at that total variation): (p + 1) alpha times the divergence of the pair whose
    victim always sends a message (module docstring of the toolkit's variation_ratio)."""
    with mpmath.workdps(digits + GUARD):
        p, beta, q = ldp_parameters(randomizer, eps0)
        alpha = beta / (p - 1)
        return (min(mpf(1), (p + 1) * alpha),
                count_pair(n - 1, 2 * alpha * p / q, p / (p + 1), 1 / (p + 1), 1, mpf(1) / 2, digits))


@functools.lru_cache(maxsize=16)
def p0q0_pair(eps0: float, n: int, digits: int) -> tuple:
    """(w, (P0, Q0)) of Wang, Su, Ye, Shokri, Su (2023), Appendix C: P0 = (A + 1, C - A),
    Q0 = (A, C - A + 1), A ~ Bin(C, 1/2), C ~ Bin(n - 1, 2w), w = 1/(e^eps0 + 1)."""
    with mpmath.workdps(digits + GUARD):
        w = 1 / (_e(eps0) + 1)
        return w, count_pair(n - 1, 2 * w, 1, 0, 1, mpf(1) / 2, digits)


@functools.lru_cache(maxsize=16)
def rr_lower_pair(eps0: float, n: int, digits: int) -> PairLaws:
    """Girgis et al. (2021), Theorem 3.4's datasets: n - 1 users hold 0, the victim 1 (P) or 0
    (Q); binary randomized response reports the input with probability e^eps0/(e^eps0 + 1); the
    observation is the number of reports of 1 (the pair as counts of ones and zeros)."""
    with mpmath.workdps(digits + GUARD):
        E = _e(eps0)
        flip = 1 / (E + 1)
        return count_pair(n - 1, 1, 1 - flip, flip, 1, flip, digits)


def _tradeoff_knots(p: list, q: list) -> list:
    """The vertices (alpha, beta) of T(P, Q) (Neyman-Pearson: reject the atoms in decreasing
    order of Q/P), from (0, 1 - Q(P = 0)) to (1, 0)."""
    free = mpmath.fsum(b for a, b in zip(p, q) if a == 0)
    atoms = sorted(((b / a, a, b) for a, b in zip(p, q) if a > 0), key=lambda t: t[0], reverse=True)
    knots, x, y = [(mpf(0), 1 - free)], mpf(0), 1 - free
    for _, a, b in atoms:
        x, y = x + a, y - b
        knots.append((x, max(mpf(0), y)))
    return knots


@functools.lru_cache(maxsize=16)
def _shuffle_fdp_hull(eps0: float, n: int, digits: int) -> tuple:
    w, pair = p0q0_pair(eps0, n, digits)
    with mpmath.workdps(digits + GUARD):
        knots = [(a, 2 * w * (1 - a) + (1 - 2 * w) * b) for a, b in _tradeoff_knots(pair.p, pair.q)]
        pts = knots + [(b, a) for a, b in knots] + [(mpf(1), mpf(0)), (mpf(0), mpf(1))]
        hull = list(zip(*lower_hull([x for x, _ in pts], [y for _, y in pts])))
        # every vertex coordinate is a sum of at most len(p) probabilities, each within rel
        return hull, 100 * (pair.rel + 2 * _unit(digits)) * (len(pair.p) + 1)


def shuffle_fdp_tradeoff(eps0: float, n: int, alpha: float, digits: int) -> tuple:
    """max(C(f_Shuffle), f_{eps0,0})(alpha): C(f_Shuffle) of Wang et al. (2023), Theorem 4.2, with
    f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0) (Id(alpha) = 1 - alpha), symmetrised,
    C(f) = min{f, f^-1}** (the convex envelope: the lower convex hull of the vertices of f and of
    f^-1, the mirror images of f's); f_{eps0,0}(alpha) = max(0, 1 - e^eps0 alpha,
    e^-eps0 (1 - alpha)), the trade-off function of eps0-DP (the shuffled mechanism is a
    post-processing of the victim's eps0-LDP report)."""
    lo, hi = _shuffle_fdp_envelope(eps0, n, alpha, digits)
    with mpmath.workdps(digits + GUARD):
        a, e = mpf(alpha), mpmath.exp(mpf(eps0))
        cap = max(mpf(0), 1 - e * a, (1 - a) / e)
        u = 8 * _unit(digits)
        return max(lo, cap * (1 - u)), max(hi, cap * (1 + u))


def _shuffle_fdp_envelope(eps0: float, n: int, alpha: float, digits: int) -> tuple:
    """C(f_Shuffle)(alpha) of :func:`shuffle_fdp_tradeoff`, enclosed."""
    hull, err = _shuffle_fdp_hull(eps0, n, digits)
    with mpmath.workdps(digits + GUARD):
        a = mpf(alpha)
        for (x0, y0), (x1, y1) in zip(hull, hull[1:]):
            if x0 <= a <= x1:
                if a in (x0, x1):  # at a vertex: its own error only
                    v = y0 if a == x0 else y1
                    return max(mpf(0), v - err), v + err
                slope = (y1 - y0) / (x1 - x0)
                v = y0 + slope * (a - x0)
                return max(mpf(0), v - err * (2 + abs(slope))), v + err * (2 + abs(slope))
        raise ValueError(f"alpha = {alpha} outside [0, 1]")


def shuffle_fdp_delta(eps0: float, n: int, epsilon: float, digits: int) -> tuple:
    """The smaller of Wang et al. (2023), Corollary 4.3 with the corrected t_y (derived here,
    docs/errata.md), (1 - 2w) H_{e^eps~}(P0 || Q0) with e^eps~ = (e^eps - 2w)/(1 - 2w), and the
    delta of any eps0-DP mechanism, (e^eps0 - e^eps)_+/(e^eps0 + 1) (the hockey-stick divergence of
    binary randomized response; the shuffled output is a post-processing of the victim's eps0-DP
    report): the quantity the toolkit's ``shuffle_delta`` computes."""
    w, pair = p0q0_pair(eps0, n, digits)
    with mpmath.workdps(digits + GUARD):
        E, e = _e(eps0), mpmath.exp(mpf(epsilon))
        g = (e - 2 * w) / (1 - 2 * w)  # >= 1 for eps >= 0
        lo, hi = pair.delta(mpmath.log(g))
        err = 8 * _unit(digits)
        cap = max(mpf(0), (E - e) / (E + 1))
        return min((1 - 2 * w) * lo * (1 - err), cap * (1 - err)), min((1 - 2 * w) * hi * (1 + err), cap * (1 + err))


# ----------------------------------------------------------------------------- closed forms (epsilon)


def _closed(value, digits: int) -> tuple:
    """A closed form's value as an enclosure: 100 ulps of the working precision each way (a few
    dozen operations, none cancelling badly at the points used)."""
    err = 100 * _unit(digits) * abs(value)
    return value - err, value + err


def theorem_4_2(p, beta, q, n: int, delta: float, digits: int) -> tuple:
    """Wang et al. (2024), Theorem 4.2 as its proof (Appendix F) derives it:
    epsilon = log(1 + F(Omega)), F(C) = (p-1) alpha (2 sqrt(C/2 log(4/delta)) + 1) /
    (alpha C + (p-1) alpha (C/2 - sqrt(C/2 log(4/delta))) + (1 - alpha - alpha p)(n-1-C) r/(1-2r)),
    Omega = 2r(n-1) - sqrt(min(6r, 1/2)(n-1) log(4/delta)), alpha = beta/(p-1), r = alpha p/q."""
    with mpmath.workdps(digits + GUARD):
        p, beta, q, d = mpf(p), mpf(beta), mpf(q), mpf(delta)
        alpha = beta / (p - 1)
        r = alpha * p / q
        ell = mpmath.log(4 / d)
        omega = 2 * r * (n - 1) - mpmath.sqrt(min(6 * r, mpf(1) / 2) * (n - 1) * ell)
        root = mpmath.sqrt(omega / 2 * ell)
        F = (p - 1) * alpha * (2 * root + 1) / (alpha * omega + (p - 1) * alpha * (omega / 2 - root)
                                               + (1 - alpha - alpha * p) * (n - 1 - omega) * r / (1 - 2 * r))
        return _closed(mpmath.log(1 + F), digits)


def theorem_4_3(p, beta, q, n: int, delta: float, digits: int) -> tuple:
    """Wang et al. (2024), Theorem 4.3: log(1 + beta/((1-v)(1+p) beta/(p-1) + v) (sqrt(32
    log(4/delta)/(r(n-1))) + 4/(r n))), r = p beta/((p-1) q), v = max(0, 4/9 (1-3r)/(1-2r))."""
    with mpmath.workdps(digits + GUARD):
        p, beta, q, d = mpf(p), mpf(beta), mpf(q), mpf(delta)
        r = p * beta / ((p - 1) * q)
        v = max(mpf(0), mpf(4) / 9 * (1 - 3 * r) / (1 - 2 * r))
        x = beta / ((1 - v) * (1 + p) * beta / (p - 1) + v) * (mpmath.sqrt(32 * mpmath.log(4 / d) / (r * (n - 1)))
                                                              + 4 / (r * n))
        return _closed(mpmath.log(1 + x), digits)


def erlingsson_epsilon(eps0: float, n: int, delta: float, digits: int) -> tuple:
    """Erlingsson et al. (2019) with the constants Balle et al. implement: 12 eps0 sqrt(log(1/delta)/n)."""
    with mpmath.workdps(digits + GUARD):
        return _closed(12 * mpf(eps0) * mpmath.sqrt(mpmath.log(1 / mpf(delta)) / n), digits)


def fmt21_epsilon(eps0: float, n: int, delta: float, digits: int) -> tuple:
    """Feldman, McMillan, Talwar (2021), eq. (1): log(1 + (e^eps0 - 1)/(e^eps0 + 1)
    (8 sqrt(e^eps0 log(4/delta)/n) + 8 e^eps0/n))."""
    with mpmath.workdps(digits + GUARD):
        E, d = _e(eps0), mpf(delta)
        return _closed(mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / d) / n) + 8 * E / n)),
                       digits)


# ----------------------------------------------------------------------------- the privacy blanket


def _blanket_constants(kind: str, eps0, eps, k: int | None):
    """(gamma, b, b_plus, c) of Balle, Bell, Gascon, Nissim (2019) as their implementation sets
    them (BorjaBalle/amplification-by-shuffling), for eps0-LDP (``generic``) and k-ary RR."""
    E0, E = mpmath.exp(eps0), mpmath.exp(eps)
    if kind == "generic":
        g = 1 / E0
        return (g, (E + 1) * (E0 - 1 / E0), E0 * (1 - E / E0 ** 2), E0 * (E ** 2 + 1) - 2 * g * E / E0 ** 2)
    g = mpf(k) / (E0 + k - 1)
    return (g, (1 - g) * k * (E + 1), g * (1 - E) + (1 - g) * k,
            g * (2 - g) * (E - 1) ** 2 + (1 - g) ** 2 * k * (E ** 2 + 1))


def blanket_log_delta_raw(bound: str, kind: str, eps0: float, n: int, epsilon, k: int | None, digits: int):
    """log of the Hoeffding or Bennett blanket bound at epsilon (mpf), from the formulas:
    Hoeffding b^2/(4 a gamma n) (1 - gamma (1 - e^{-2 a^2/b^2}))^n, a = e^eps - 1; Bennett
    (1/(gamma n)) ((1 - gamma + gamma e^-t)^n - (1 - gamma)^n) b_plus / log(1 + beta),
    t = alpha phi(beta), alpha = c/b_plus^2, beta = a b_plus/c, phi(u) = (1+u) log(1+u) - u."""
    with mpmath.workdps(digits + GUARD):
        g, b, bp, c = _blanket_constants(kind, mpf(eps0), mpf(epsilon), k)
        a = mpmath.expm1(mpf(epsilon))
        if bound == "hoeffding":
            return mpmath.log(b ** 2 / (4 * a * g * n)) + n * mpmath.log(1 - g * (1 - mpmath.exp(-2 * a ** 2 / b ** 2)))
        alpha, beta = c / bp ** 2, a * bp / c
        t = alpha * ((1 + beta) * mpmath.log1p(beta) - beta)
        total = (1 - g + g * mpmath.exp(-t)) ** n - (1 - g) ** n
        return mpmath.log(total) + mpmath.log(bp) - mpmath.log(mpmath.log1p(beta)) - mpmath.log(g * n)


def _blanket_kind(randomizer: str):
    if randomizer == "binary-rr":
        return "rr", 2
    if randomizer.startswith("grr"):
        return "rr", int(randomizer[3:])
    return "generic", None


@functools.lru_cache(maxsize=64)
def _blanket_minimiser(bound: str, randomizer: str, eps0: float, n: int, digits: int) -> float:
    """Where the raw bound is smallest on (0, eps0) (golden-section search on a fine grid's best
    point): past it the toolkit uses the bound's value there (delta is non-increasing)."""
    kind, k = _blanket_kind(randomizer)

    def f(e):
        try:
            v = blanket_log_delta_raw(bound, kind, eps0, n, e, k, 20)
        except (ValueError, ZeroDivisionError):
            return mpmath.inf
        return v if mpmath.isfinite(v) and mpmath.im(v) == 0 else mpmath.inf

    grid = [eps0 * i / 400 for i in range(1, 400)]
    best = min(grid, key=f)
    return golden_section(f, max(best - eps0 / 400, eps0 * 1e-9), min(best + eps0 / 400, eps0 * (1 - 1e-12)), 60)


def blanket_delta(bound: str, randomizer: str, eps0: float, n: int, epsilon: float, digits: int):
    """Enclosure of the blanket bound's delta at epsilon, min(1, exp(raw)), where the raw bound is
    still decreasing (epsilon at most 0.99 of its minimiser); None beyond, where the toolkit
    takes the value at its own minimiser, a quantity this evaluation does not reproduce."""
    if epsilon <= 0 or epsilon >= eps0:
        return None
    if epsilon > 0.99 * _blanket_minimiser(bound, randomizer, eps0, n, digits):
        return None
    kind, k = _blanket_kind(randomizer)
    with mpmath.workdps(digits + GUARD):
        lg = blanket_log_delta_raw(bound, kind, eps0, n, epsilon, k, digits)
        lo, hi = _closed(lg, digits)
        return min(mpf(1), mpmath.exp(lo)), min(mpf(1), mpmath.exp(hi))


def blanket_epsilon(bound: str, randomizer: str, eps0: float, n: int, delta: float, digits: int):
    """Enclosure of the smallest epsilon at which the blanket bound is at most delta (bisection on
    :func:`blanket_delta`), or None when it lies past the raw bound's minimiser."""
    top = 0.99 * _blanket_minimiser(bound, randomizer, eps0, n, digits)
    ends = blanket_delta(bound, randomizer, eps0, n, top, digits)
    if ends is None or ends[1] > delta:
        return None
    return _invert(lambda e: blanket_delta(bound, randomizer, eps0, n, e, digits) if e > 0 else (INF, INF),
                   delta, top)


# ----------------------------------------------------------------------------- RDP closed forms (Girgis et al.)


def _nbar(eps0, n: int):
    """n_bar = floor((n - 1)/(2 e^eps0)) + 1 (Theorem 3.1, corrected: the floor)."""
    return mpmath.floor((n - 1) / (2 * mpmath.exp(mpf(eps0)))) + 1


def girgis_theorem_3_1(eps0: float, n: int, order: int, digits: int) -> tuple:
    """Girgis et al. (2021), Theorem 3.1, eq. (5), with every term inside the log and binom(lam, 2),
    as its proof (eq. (41)) has it; integer lam >= 2:
    log(1 + binom(lam,2)(e^eps0-1)^2/(n_bar e^eps0) + sum_{i=3}^lam binom(lam,i) i Gamma(i/2)
    ((e^{2 eps0}-1)^2/(2 e^{2 eps0} n_bar))^{i/2} + e^{eps0 lam - (n-1)/(8 e^eps0)})/(lam - 1)."""
    with mpmath.workdps(digits + GUARD):
        E, m, lam = _e(eps0), _nbar(eps0, n), int(order)
        x = (E ** 2 - 1) ** 2 / (2 * E ** 2 * m)
        total = (1 + mpmath.binomial(lam, 2) * (E - 1) ** 2 / (m * E)
                 + mpmath.fsum(mpmath.binomial(lam, i) * i * mpmath.gamma(mpf(i) / 2) * x ** (mpf(i) / 2)
                               for i in range(3, lam + 1))
                 + mpmath.exp(mpf(eps0) * lam - (n - 1) / (8 * E)))
        return _closed(mpmath.log(total) / (lam - 1), digits)


def _b37(E, m, lam: int):
    """B_3.7(m, lam) of Theorem 3.7: 1 + binom(lam,2)(e^eps0-1)^2/(e^eps0 m) + sum_{i>=3}
    binom(lam,i) i Gamma(i/2) ((e^{2eps0}-1)^2/(2 e^{2eps0} m))^{i/2}."""
    x = (E ** 2 - 1) ** 2 / (2 * E ** 2 * m)
    return (1 + mpmath.binomial(lam, 2) * (E - 1) ** 2 / (E * m)
            + mpmath.fsum(mpmath.binomial(lam, i) * i * mpmath.gamma(mpf(i) / 2) * x ** (mpf(i) / 2)
                          for i in range(3, lam + 1)))


def girgis_mixture(eps0: float, n: int, order: int, digits: int) -> tuple:
    """The mixture variant (derived here from Girgis et al. (2021), eq. (39) and Theorem 3.7):
    log(sum_m Bin(m; n-1, e^-eps0)
    min(e^{eps0 lam}, B_3.7(m + 1, lam)))/(lam - 1), integer lam. The sum runs over every m; B_3.7
    is evaluated where Bin(m) e^{eps0 lam} is above 1e-(digits + 10) of the running total, and
    elsewhere the term is bounded by Bin(m) e^{eps0 lam} (added to the upper end only)."""
    with mpmath.workdps(digits + GUARD):
        E, lam = _e(eps0), int(order)
        s = 1 / E
        cap = mpmath.exp(mpf(eps0) * lam)
        x0 = (E ** 2 - 1) ** 2 / (2 * E ** 2)
        a2 = mpmath.binomial(lam, 2) * (E - 1) ** 2 / E
        coeff = [(mpmath.binomial(lam, i) * i * mpmath.gamma(mpf(i) / 2), mpf(i) / 2) for i in range(3, lam + 1)]
        small = mpf(10) ** -(digits + GUARD)
        pmf = (1 - s) ** (n - 1)
        total, skipped = mpf(0), mpf(0)
        # the total is at least the mode's probability (every B_3.7 >= 1): the reference scale
        mode = min(n - 1, int((n) * float(s)))
        ref = mpmath.binomial(n - 1, mode) * s ** mode * (1 - s) ** (n - 1 - mode)
        for m in range(n):
            if pmf * cap < small * ref:
                skipped += pmf * cap
            else:
                x = x0 / (m + 1)
                b37 = 1 + a2 / (m + 1) + mpmath.fsum(c * x ** e for c, e in coeff)
                total += pmf * min(cap, b37)
            pmf = pmf * (n - 1 - m) / (m + 1) * s / (1 - s)
        lo, hi = _closed(mpmath.log(total) / (lam - 1), digits)
        return lo, max(hi, _closed(mpmath.log(total + skipped) / (lam - 1), digits)[1])


def girgis_theorem_3_3(eps0: float, n: int, order: float, digits: int) -> tuple:
    """Girgis et al. (2021), Theorem 3.3, eq. (8), as its proof (Theorem 7.1) has it:
    log(exp(lam^2 (e^eps0-1)^2/n_bar)
    + exp(eps0 lam - (n-1)/(8 e^eps0)))/(lam - 1), real lam > 1."""
    with mpmath.workdps(digits + GUARD):
        E, m, lam = _e(eps0), _nbar(eps0, n), mpf(order)
        v = mpmath.log(mpmath.exp(lam ** 2 * (E - 1) ** 2 / m) + mpmath.exp(mpf(eps0) * lam - (n - 1) / (8 * E)))
        return _closed(v / (lam - 1), digits)


def girgis_corollary_3_2(eps0: float, n: int, order: int, digits: int) -> tuple:
    """Girgis et al. (2021), Corollary 3.2, eq. (6), with binom(lam, 2) for the printed (lam/2):
    log(1 + binom(lam,2) 4(e^eps0-1)^2/n)/(lam-1)."""
    with mpmath.workdps(digits + GUARD):
        E, lam = _e(eps0), int(order)
        return _closed(mpmath.log(1 + mpmath.binomial(lam, 2) * 4 * (E - 1) ** 2 / n) / (lam - 1), digits)


def erlingsson_rdp(eps0: float, n: int, order: float, digits: int) -> tuple:
    """Erlingsson et al. (2019), Remark 1, as Girgis et al. (2021) quote it in eq. (9):
    2 lam e^{4 eps0} (e^eps0 - 1)^2 / n."""
    with mpmath.workdps(digits + GUARD):
        E = _e(eps0)
        return _closed(2 * mpf(order) * E ** 4 * (E - 1) ** 2 / n, digits)


def remark_2(integer_form, order: float) -> tuple:
    """Girgis et al. (2021), Remark 2, eq. (7): (lam - 1) eps(lam) is convex, so at a real order the
    integer values at floor and ceil combine linearly: [w (fl-1) eps(fl) + (1-w)(ce-1) eps(ce)]/(lam-1),
    w = ceil(lam) - lam (the floor term absent for floor < 2)."""
    lam = mpf(order)
    fl, ce = int(math.floor(order)), int(math.ceil(order))
    if fl == ce:
        return integer_form(ce)
    w = ce - lam
    c_lo, c_hi = integer_form(ce)
    f_lo, f_hi = integer_form(fl) if fl >= 2 else (mpf(0), mpf(0))
    return ((w * (fl - 1) * f_lo + (1 - w) * (ce - 1) * c_lo) / (lam - 1),
            (w * (fl - 1) * f_hi + (1 - w) * (ce - 1) * c_hi) / (lam - 1))


# ----------------------------------------------------------------------------- RDP -> (epsilon, delta)


def rdp_to_epsilon(rdp: tuple, order: float, delta: float, digits: int) -> tuple:
    """The smaller of the two proven conversions at one order, clamped at 0 (Balle et al. 2020,
    Theorem 21: rho + log((lam-1)/lam) - (log delta + log lam)/(lam-1); Mironov 2017, Proposition 3:
    rho + log(1/delta)/(lam-1)), for rho in the enclosure ``rdp``."""
    with mpmath.workdps(digits + GUARD):
        lam, d = mpf(order), mpf(delta)
        shift = min(mpmath.log((lam - 1) / lam) - (mpmath.log(d) + mpmath.log(lam)) / (lam - 1),
                    mpmath.log(1 / d) / (lam - 1))
        err = 100 * _unit(digits) * (abs(shift) + 1)
        return max(mpf(0), rdp[0] + shift - err), max(mpf(0), rdp[1] + shift + err)


def rdp_to_delta(rdp: tuple, order: float, epsilon: float, digits: int) -> tuple:
    """The smaller of the two proven conversions at one order, capped at 1 (Balle et al. 2020:
    e^{(lam-1)(rho-eps)} (1-1/lam)^lam/(lam-1); Mironov 2017: e^{(lam-1)(rho-eps)})."""
    with mpmath.workdps(digits + GUARD):
        lam, e = mpf(order), mpf(epsilon)
        factor = min((1 - 1 / lam) ** lam / (lam - 1), mpf(1))
        ends = [mpmath.exp((lam - 1) * (r - e)) * factor for r in rdp]
        err = 100 * _unit(digits) * (1 + (lam - 1) * (abs(rdp[1]) + abs(e)))
        return min(mpf(1), ends[0] * (1 - err)), min(mpf(1), ends[1] * (1 + err))
