"""Independent mpmath oracle for shuffle-model privacy amplification.

Written from the digest /work/shared/spec/seed-002-variation-ratio.md of Wang et al.,
"Privacy amplification via shuffling: unified, simplified, tightened" (VLDB 2024),
without reading the code under test (``dptheory``).  Pure Python + mpmath.

Distributions are dicts ``{outcome: mpf probability}``.  Numeric arguments may be
ints, floats, strings (read as exact decimals, e.g. ``"0.7"``), Fractions or mpf /
mpmath constants (``mpmath.e``).  Every function works at ``dps`` decimal digits
plus guard digits.  Run ``python tests/oracles/shuffle_oracle.py`` for the self-check.
"""

from fractions import Fraction
from itertools import combinations
from math import comb

import mpmath
from mpmath import mp, mpf

GUARD = 10  # guard digits added to the caller's dps


def _mpf(x):
    """Convert a number, decimal string, Fraction or mpmath constant to mpf (current precision)."""
    if isinstance(x, Fraction):
        return mpf(x.numerator) / x.denominator
    return mpf(x)


def _binom_pmf(k, N, pi):
    """Bin(k; N, pi), zero outside 0 <= k <= N (0**0 = 1)."""
    if k < 0 or k > N:
        return mpf(0)
    return comb(N, k) * pi**k * (1 - pi) ** (N - k)


def _add(d, key, val):
    if val:
        d[key] = d.get(key, mpf(0)) + val


# ---------------------------------------------------------------- real shuffled mechanism

def shuffled_histogram(R, inputs, dps=50):
    """Exact law of the shuffled output of a single-message protocol.

    ``R[x][y]`` = P[randomizer(x) = y] (row-stochastic, every user uses ``R``);
    ``inputs`` = the n users' input indices.  The shuffled message multiset is
    equivalent to its histogram, so the result is ``{counts tuple: probability}``
    with ``counts[y]`` = number of messages equal to y.  Computed by dynamic
    programming over users (one convolution per user), not by enumerating n-tuples.
    """
    with mp.workdps(dps + GUARD):
        rows = [[_mpf(v) for v in row] for row in R]
        m = len(rows[0])
        for row in rows:
            if len(row) != m or any(v < 0 for v in row) or abs(sum(row) - 1) > mpf(10) ** -12:
                raise ValueError("R must be a row-stochastic matrix")
        dist = {(0,) * m: mpf(1)}
        for x in inputs:
            if not 0 <= x < len(rows):
                raise ValueError(f"input index {x} out of range")
            new = {}
            for h, ph in dist.items():
                for y, pyx in enumerate(rows[x]):
                    if pyx:
                        _add(new, h[:y] + (h[y] + 1,) + h[y + 1:], ph * pyx)
            dist = new
        return dist


def hockey_stick(P, Q, eps, dps=50):
    """D_{e^eps}(P||Q) = sum over supp(P) u supp(Q) of max(P(x) - e^eps Q(x), 0).

    Evaluated at dps + 20 digits (the terms can cancel heavily)."""
    with mp.workdps(dps + 20):
        t = mpmath.exp(_mpf(eps))
        total = mpf(0)
        for x in set(P) | set(Q):
            d = _mpf(P.get(x, 0)) - t * _mpf(Q.get(x, 0))
            if d > 0:
                total += d
        return total


def pair_delta(P, Q, eps, dps=50):
    """max(D_{e^eps}(P||Q), D_{e^eps}(Q||P)): the delta of (eps, delta)-indistinguishability."""
    return max(hockey_stick(P, Q, eps, dps), hockey_stick(Q, P, eps, dps))


def shuffle_delta(R, inputs0, inputs1, eps, dps=50):
    """Exact delta(eps) of the shuffled protocol on two neighbouring datasets.

    The datasets must have the same size and agree on every user but the first
    (ValueError otherwise).  Returns the max of both hockey-stick directions."""
    if len(inputs0) != len(inputs1) or list(inputs0[1:]) != list(inputs1[1:]):
        raise ValueError("datasets must differ in the first user only")
    P = shuffled_histogram(R, inputs0, dps)
    Q = shuffled_histogram(R, inputs1, dps)
    return pair_delta(P, Q, eps, dps)


# ---------------------------------------------------------------- reduction pairs

def _vr_params(p, beta, q, dps):
    """alpha, r, w = 1 - alpha - p alpha for the variation-ratio pair, with domain checks.

    |w| <= 10^(5-dps) is snapped to 0, so beta = (p-1)/(p+1) computed at dps digits
    is treated as the worst case exactly."""
    p, beta, q = _mpf(p), _mpf(beta), _mpf(q)
    if not (p > 1 and q >= 1 and beta >= 0):
        raise ValueError("need p > 1, q >= 1, beta >= 0")
    alpha = beta / (p - 1)
    w = 1 - alpha - p * alpha
    tol = mpf(10) ** (5 - dps)
    if w < -tol:
        raise ValueError("need beta <= (p-1)/(p+1)")
    if abs(w) <= tol:
        w = mpf(0)
    return p, alpha, alpha * p / q, w


def variation_ratio_pair(n, p, beta, q, dps=50):
    """pmfs of P^q_{p,beta} and Q^q_{p,beta} over count pairs (a, b), from the explicit formula (§1.7).

    alpha = beta/(p-1), r = alpha p / q, c = a + b, B(k) = Bin(k; n-1, 2r):
      P(a,b) = p alpha B(c-1) C(c-1,a-1) 2^-(c-1) + alpha B(c-1) C(c-1,a) 2^-(c-1)
               + (1-alpha-p alpha) B(c) C(c,a) 2^-c,
    and Q swaps the coefficients p alpha and alpha.  beta = (p-1)/(p+1) (the
    "stronger clone" worst case) makes the last term vanish.  Zero entries are omitted.
    """
    with mp.workdps(dps + GUARD):
        p, alpha, r, w = _vr_params(p, beta, q, dps)
        if 2 * r > 1:
            raise ValueError("need 2r = 2 beta p / ((p-1) q) <= 1")
        half = mpf(1) / 2
        P, Q = {}, {}
        for c in range(n + 1):
            for a in range(c + 1):
                k0 = _binom_pmf(c - 1, n - 1, 2 * r) * _binom_pmf(a - 1, c - 1, half)  # victim type 0
                k1 = _binom_pmf(c - 1, n - 1, 2 * r) * _binom_pmf(a, c - 1, half)      # victim type 1
                kb = _binom_pmf(c, n - 1, 2 * r) * _binom_pmf(a, c, half)              # victim silent
                _add(P, (a, c - a), p * alpha * k0 + alpha * k1 + w * kb)
                _add(Q, (a, c - a), alpha * k0 + p * alpha * k1 + w * kb)
        return P, Q


def generalized_pair(n, p0, beta, q0, q1, dps=50):
    """pmfs of P^{q0,q1}_{p0,beta}, Q^{q0,q1}_{p0,beta} (§1.8), built from the random variables.

    alpha = beta/(p0-1), r_i = alpha p0 / q_i, C ~ Binom(n-1, r0+r1),
    A | C ~ Binom(C, r0/(r0+r1)), (Delta1, Delta2) = (1,0) w.p. p0 alpha, (0,1) w.p.
    alpha, (0,0) w.p. 1 - alpha - p0 alpha;  P = (A+Delta1, C-A+Delta2),
    Q = (A+Delta2, C-A+Delta1).  Requires q0/q1 in [1/p0, p0] and r0 + r1 <= 1.
    """
    with mp.workdps(dps + GUARD):
        p0, alpha, _, w = _vr_params(p0, beta, 1, dps)
        q0, q1 = _mpf(q0), _mpf(q1)
        if q1 < 1 or not (1 / p0 <= q0 / q1 <= p0):
            raise ValueError("need q0, q1 >= 1 and q0/q1 in [1/p0, p0]")
        r0, r1 = alpha * p0 / q0, alpha * p0 / q1
        s = r0 + r1
        if s > 1:
            raise ValueError("need r0 + r1 <= 1")
        rho = r0 / s if s else mpf(0)
        deltas = [((1, 0), p0 * alpha), ((0, 1), alpha), ((0, 0), w)]
        P, Q = {}, {}
        for c in range(n):
            for a in range(c + 1):
                pca = _binom_pmf(c, n - 1, s) * _binom_pmf(a, c, rho)
                for (d1, d2), pd in deltas:
                    _add(P, (a + d1, c - a + d2), pca * pd)
                    _add(Q, (a + d2, c - a + d1), pca * pd)
        return P, Q


def clone_pair(n, eps0, clone_prob, dps=50):
    """Feldman-McMillan-Talwar clone pair.

    C ~ Binom(n-1, clone_prob), A ~ Binom(C, 1/2); under P the counts are (A+1, C-A)
    w.p. e^eps0/(e^eps0+1) and (A, C-A+1) w.p. 1/(e^eps0+1); under Q the two
    probabilities are swapped.  clone_prob = e^-eps0 is the 2021 clone reduction,
    2/(e^eps0+1) the 2023 stronger-clone reduction.
    """
    with mp.workdps(dps + GUARD):
        t = mpmath.exp(_mpf(eps0))
        cp = _mpf(clone_prob)
        if not 0 <= cp <= 1:
            raise ValueError("clone_prob must be in [0, 1]")
        hi, lo = t / (t + 1), 1 / (t + 1)
        P, Q = {}, {}
        for c in range(n):
            for a in range(c + 1):
                pca = _binom_pmf(c, n - 1, cp) * _binom_pmf(a, c, mpf(1) / 2)
                _add(P, (a + 1, c - a), pca * hi)
                _add(P, (a, c - a + 1), pca * lo)
                _add(Q, (a + 1, c - a), pca * lo)
                _add(Q, (a, c - a + 1), pca * hi)
        return P, Q


def theorem_4_8_sum(n, p, beta, q, eps, dps=50):
    """D_{e^eps}(P^q_{p,beta} || Q^q_{p,beta}) by the literal O(n) expectation of Theorem 4.8.

    E_{c ~ Binom(n-1, 2r)} [ (p - e^eps) alpha CDF_c[ceil(low_{c+1} - 1), c]
                           + (1 - p e^eps) alpha CDF_c[ceil(low_{c+1}), c]
                           + (1 - e^eps)(1 - alpha - p alpha) CDF_c[ceil(low_c), c] ],
    low_c = ((e^eps p - 1) alpha c + (e^eps - 1)(1 - alpha - alpha p)(n - c) r/(1-2r))
            / (alpha (e^eps + 1)(p - 1)),
    with the printed typo eps' read as eps.  CDF_c[lo, c] = P[lo <= Binom(c, 1/2) <= c],
    lo clamped at 0, empty range = 0.  beta = 0 gives the point-mass pair: max(0, 1 - e^eps).
    """
    with mp.workdps(dps + GUARD):
        p, alpha, r, w = _vr_params(p, beta, q, dps)
        if 2 * r > 1:
            raise ValueError("need 2r <= 1")
        t = mpmath.exp(_mpf(eps))
        if alpha == 0:
            return max(mpf(0), 1 - t)

        def low(c):
            f = w * (n - c) * r / (1 - 2 * r) if w else mpf(0)  # w = 0 also covers r = 1/2
            return ((t * p - 1) * alpha * c + (t - 1) * f) / (alpha * (t + 1) * (p - 1))

        def cdf(c, lo):
            lo = max(int(mpmath.ceil(lo)), 0)
            return sum((comb(c, i) for i in range(lo, c + 1)), 0) / mpf(2) ** c

        total = mpf(0)
        for c in range(n):
            total += _binom_pmf(c, n - 1, 2 * r) * (
                (p - t) * alpha * cdf(c, low(c + 1) - 1)
                + (1 - p * t) * alpha * cdf(c, low(c + 1))
                + (1 - t) * w * cdf(c, low(c)))
        return total


# ---------------------------------------------------------------- self-check

def _appendix_h_pmf(n, p0, beta, q0, q1):
    """Appendix H closed form of the generalized pair (s^(c-1) / s^c factors cancelled)."""
    p0, beta, q0, q1 = map(_mpf, (p0, beta, q0, q1))
    alpha = beta / (p0 - 1)
    r0, r1 = alpha * p0 / q0, alpha * p0 / q1
    s, w = r0 + r1, 1 - alpha - p0 * alpha

    def ker(a, b, m):  # C(n-1, m) (1-s)^(n-1-m) C(m, a) r0^a r1^b with a + b = m
        if a < 0 or b < 0 or m > n - 1:
            return mpf(0)
        return comb(n - 1, m) * (1 - s) ** (n - 1 - m) * comb(m, a) * r0**a * r1**b

    P, Q = {}, {}
    for c in range(n + 1):
        for a in range(c + 1):
            b = c - a
            k0, k1, kb = ker(a - 1, b, c - 1), ker(a, b - 1, c - 1), ker(a, b, c)
            _add(P, (a, b), p0 * alpha * k0 + alpha * k1 + w * kb)
            _add(Q, (a, b), alpha * k0 + p0 * alpha * k1 + w * kb)
    return P, Q


def _max_diff(D1, D2):
    return max(abs(D1.get(k, 0) - D2.get(k, 0)) for k in set(D1) | set(D2))


def _agree(x, ref, digits):
    """|x - ref| <= 10^-digits |ref| (ref may be a decimal string)."""
    ref = _mpf(ref)
    return abs(x - ref) <= mpf(10) ** (-digits) * abs(ref)


def _k_subset_matrix(d, k, eps0):
    """k-subset selection: row x, column = k-subset S; e^eps0/Z if x in S else 1/Z."""
    t = mpmath.exp(_mpf(eps0))
    Z = t * comb(d - 1, k - 1) + comb(d - 1, k)
    return [[(t if x in S else 1) / Z for S in combinations(range(d), k)] for x in range(d)]


def _self_check(dps=50):
    import time
    start = time.time()
    with mp.workdps(dps):
        e = +mp.e

        # 1. Theorem 4.8 vs hockey-stick of the explicit pair (incl. worst-case beta).
        cases = [(5, e, "0.2", e, "0.3"),
                 (12, 3, "0.5", 3, "0.5"),                 # beta = (p-1)/(p+1)
                 (10, 4, "0.3", 6, "0.2"),                 # q > p
                 (8, 2, mpf(1) / 3, "1.5", "0.1"),        # worst case, q < p, 2r = 8/9
                 (9, e, (e - 1) / (e + 1), e, "0.05"),    # stronger-clone setting
                 (11, e, "0.1", e, "-0.2"),                # eps < 0
                 (7, 5, "0.25", 5, "0")]
        for n, p, beta, q, eps in cases:
            P, Q = variation_ratio_pair(n, p, beta, q, dps)
            assert _agree(sum(P.values()), 1, 40) and _agree(sum(Q.values()), 1, 40)
            assert all(abs(Q.get((b, a), 0) - v) < mpf(10) ** -40 for (a, b), v in P.items())
            hs, th = hockey_stick(P, Q, eps, dps), theorem_4_8_sum(n, p, beta, q, eps, dps)
            print(f"Thm 4.8  n={n:2d} p={mpmath.nstr(p, 6)} beta={mpmath.nstr(_mpf(beta), 6)} "
                  f"q={mpmath.nstr(_mpf(q), 6)} eps={eps}:  H={mpmath.nstr(hs, 20)}  "
                  f"sum={mpmath.nstr(th, 20)}")
            assert _agree(th, hs, 30) or abs(th - hs) < mpf(10) ** -30

        # 2. Generalized pair: direct construction == Appendix H; q0 = q1 gives the symmetric pair.
        for n, p0, beta, q0, q1 in [(6, 3, "0.4", 2, 4), (7, e, "0.25", e, "1.5"), (5, 4, "0.6", 4, 4)]:
            G = generalized_pair(n, p0, beta, q0, q1, dps)
            with mp.workdps(dps + GUARD):
                H = _appendix_h_pmf(n, p0, beta, q0, q1)
            assert _max_diff(G[0], H[0]) < mpf(10) ** -45 and _max_diff(G[1], H[1]) < mpf(10) ** -45
            if q0 == q1:
                V = variation_ratio_pair(n, p0, beta, q0, dps)
                assert _max_diff(G[0], V[0]) < mpf(10) ** -45 and _max_diff(G[1], V[1]) < mpf(10) ** -45
        print("generalized_pair == Appendix H formula (3 cases), == variation_ratio_pair when q0 = q1")

        # 3. GRR counterexample of §8.4: d = 3, eps0 = 1, n = 2, eps = 0.7.
        R = [[(e if y == x else 1) / (e + 2) for y in range(3)] for x in range(3)]
        P, Q = shuffled_histogram(R, [0, 0], dps), shuffled_histogram(R, [1, 0], dps)
        real_pq, real_qp = hockey_stick(P, Q, "0.7", dps), hockey_stick(Q, P, "0.7", dps)
        real = shuffle_delta(R, [0, 0], [1, 0], "0.7", dps)
        bound = pair_delta(*variation_ratio_pair(2, e, (e - 1) / (e + 2), e, dps), "0.7", dps)
        e07 = mpmath.exp(mpf("0.7"))
        print(f"GRR d=3 n=2 eps=0.7: real H(P||Q) = {mpmath.nstr(real_pq, 21)}  "
              f"(H(Q||P) = {mpmath.nstr(real_qp, 21)}, shuffle_delta = {mpmath.nstr(real, 21)})")
        print(f"                     variation-ratio bound = {mpmath.nstr(bound, 21)}")
        assert _agree(real_pq, e * (e - e07) / (e + 2) ** 2, 40)
        assert _agree(bound, (e**2 + e + 1 - (e + 2) * e07) / (e + 2) ** 2, 40)
        assert _agree(real_pq, "0.086025196706679781635", 18)
        assert _agree(bound, "0.072135113207296901835", 18)
        assert real == max(real_pq, real_qp) and real > bound

        # 4. k-subset counterexample of §8.4: d = 5, k = 2, eps0 = 1, n = 6, eps = 0.7.
        d, k, n = 5, 2, 6
        R = _k_subset_matrix(d, k, 1)
        beta_tab = (e - 1) * (comb(d - 1, k - 1) - comb(d - 2, k - 2)) / (e * comb(d - 1, k - 1) + comb(d - 1, k))
        beta_tv = sum(max(R[0][j] - R[1][j], 0) for j in range(len(R[0])))
        assert _agree(beta_tv, beta_tab, 40)
        real = shuffle_delta(R, [0] * n, [1] + [0] * (n - 1), "0.7", dps)
        bound = pair_delta(*variation_ratio_pair(n, e, beta_tab, e, dps), "0.7", dps)
        print(f"k-subset d=5 k=2 n=6 eps=0.7 (beta={mpmath.nstr(beta_tab, 6)}): "
              f"real = {mpmath.nstr(real, 10)}  bound = {mpmath.nstr(bound, 10)}")
        assert _agree(real, "0.005825", 3) and _agree(bound, "0.004760", 3)

        # 5. Stronger clone (clone_prob = 2/(e^eps0+1)) == variation-ratio pair at worst-case beta.
        for eps0 in ["1", "0.5", "2"]:
            t = mpmath.exp(mpf(eps0))
            C = clone_pair(5, eps0, 2 / (t + 1), dps)
            V = variation_ratio_pair(5, t, (t - 1) / (t + 1), t, dps)
            diff = max(_max_diff(C[0], V[0]), _max_diff(C[1], V[1]))
            print(f"stronger clone vs variation-ratio worst case, n=5, eps0={eps0}: "
                  f"max pmf diff = {mpmath.nstr(diff, 3)}")
            assert diff < mpf(10) ** -45
        Cw = clone_pair(5, 1, 1 / e, dps)
        assert _agree(sum(Cw[0].values()), 1, 40) and _agree(sum(Cw[1].values()), 1, 40)

    print(f"all self-checks passed in {time.time() - start:.2f} s")


if __name__ == "__main__":
    _self_check()
