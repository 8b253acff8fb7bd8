"""Checks of the shuffle Renyi oracle against closed forms, identities and theorems it must
satisfy (never against dptheory's code)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import mpmath
import pytest
from mpmath import mpf

from tests.oracles import count_pair, discrete, mixtures
from tests.oracles import renyi_shuffle as R
from tests.oracles.certified import enclose


def rr_closed_form(eps0, k, lam):
    """D_lambda between two rows of k-ary randomized response: the outputs x, x' and the k - 2
    others contribute E^lam E^(1-lam)... i.e. (E^lam + E^(1-lam) + k - 2)/(E + k - 1)."""
    E = mpmath.exp(mpf(eps0))
    return mpmath.log((E ** lam + E ** (1 - lam) + k - 2) / (E + k - 1)) / (lam - 1)


def random_ldp(rng: random.Random, inputs: int, outputs: int, eps0: float):
    """Rows with likelihood ratios at most e^eps0, entries exact floats normalised exactly
    (Fractions)."""
    rows = []
    for _ in range(inputs):
        w = [Fraction(math.exp(eps0 * rng.random() / 2)) for _ in range(outputs)]
        s = sum(w)
        rows.append([x / s for x in w])
    return rows


@pytest.mark.parametrize("eps0,k,lam", [(1.0, 2, 2), (0.5, 3, 1.5), (2.0, 4, 7.25), (3.0, 2, 33)])
def test_one_user_is_the_local_randomizer(eps0, k, lam):
    lo, hi = R.shuffled_renyi(R.grr_pmfs(eps0, k), [0], [1], lam, digits=60)
    with mpmath.workdps(80):
        want = rr_closed_form(eps0, k, mpf(lam))
    assert lo <= want <= hi
    assert hi - lo <= mpf(10) ** -58 * want


def test_two_users_by_hand():
    """Binary RR, n = 2, D = (0, 0) vs D' = (0, 1): the number of ones k has laws
    (a^2, 2ab, b^2) and (ab, a^2 + b^2, ab) with a = E/(E+1), b = 1/(E+1)."""
    eps0, lam = 1.0, 3
    with mpmath.workdps(80):
        E = mpmath.e
        a, b = E / (E + 1), 1 / (E + 1)
        P = [a * a, 2 * a * b, b * b]
        Q = [a * b, a * a + b * b, a * b]
        want = mpmath.log(sum(p ** lam * q ** (1 - lam) for p, q in zip(P, Q))) / (lam - 1)
    lo, hi = R.shuffled_renyi(R.grr_pmfs(eps0, 2), [0, 0], [0, 1], lam, digits=60)
    assert lo <= want <= hi


def test_order_tends_to_kl():
    """D_lambda is non-decreasing in lambda and tends to KL as lambda -> 1 (van Erven, Harremoes
    2014, Theorems 3 and 5)."""
    rows = R.grr_pmfs(1.0, 3)
    a, b = [0, 1, 2], [1, 1, 2]

    def kl():
        P, Q = R.histogram_law(rows, a), R.histogram_law(rows, b)
        keys = sorted(set(P) | set(Q))
        return discrete.kl([P.get(k, 0) for k in keys], [Q.get(k, 0) for k in keys])

    kl_lo, kl_hi = enclose(kl, 40)
    d_lo, d_hi = R.shuffled_renyi(rows, a, b, mpf(1) + mpf(10) ** -15, digits=40)
    assert d_lo >= kl_lo * (1 - mpf(10) ** -38)
    assert d_hi - kl_hi <= mpf(10) ** -13
    assert kl_hi - kl_lo <= mpf(10) ** -39 * kl_hi


def test_monotone_in_order():
    rows = R.grr_pmfs(1.5, 3)
    values = [R.shuffled_renyi(rows, [0, 2, 1, 1], [1, 2, 1, 1], lam, digits=30) for lam in
              (1.1, 1.5, 2, 3.5, 8, 40)]
    for (lo0, _), (_, hi1) in zip(values, values[1:]):
        assert lo0 <= hi1
    assert values[0][1] < values[-1][0]


def test_data_processing_shuffled_below_local():
    """The shuffled histogram is a post-processing of user 1's message (the other users' messages
    are independent of it), so its divergence is at most the local one."""
    rng = random.Random(3)
    for trial in range(4):
        rows = random_ldp(rng, 3, 3, 2.0)
        lam = 1 + 4 * rng.random()
        local_hi = max(enclose(lambda a=a, b=b: discrete.renyi(rows[a], rows[b], lam), 30)[1]
                       for a in range(3) for b in range(3) if a != b)
        lo, hi, _ = R.worst_case_renyi(rows, 3, lam, digits=30)
        assert hi <= local_hi * (1 + mpf(10) ** -25), trial


def test_worst_case_decreases_with_n():
    """Girgis et al. 2021, Lemma 5.3: removing a user whose input is common to both datasets never
    decreases the Renyi moment, so the worst case over datasets is non-increasing in n."""
    rows = R.grr_pmfs(1.0, 3)
    previous = None
    for n in (1, 2, 3, 4):
        lo, hi, _ = R.worst_case_renyi(rows, n, 2.5, digits=30)
        if previous is not None:
            assert lo <= previous
        previous = hi


def test_worst_case_both_orders():
    """The maximum over ordered pairs is symmetric in (a, b): it equals the two-sided value of its
    witness pair."""
    rows = R.grr_pmfs(0.7, 3)
    lo, hi, (a, b, counts) = R.worst_case_renyi(rows, 3, 4, digits=30)
    others = [x for x, c in enumerate(counts) for _ in range(c)]
    both = R.shuffled_renyi_both(rows, [a] + others, [b] + others, 4, digits=30)
    assert both[0] <= hi and lo <= both[1]


def test_binary_pair_matches_enumeration():
    eps0, n = 1.3, 5
    rows = R.grr_pmfs(eps0, 2)
    ones = [0] * (n - 1) + [1]
    for lam in (2, 3.7):
        paper = R.binary_rr_pair_renyi(eps0, n, lam, digits=40)
        enum = R.shuffled_renyi(rows, ones, [0] * n, lam, digits=40)
        assert paper[0] <= enum[1] and enum[0] <= paper[1]
        rev = R.binary_rr_pair_renyi(eps0, n, lam, reverse=True, digits=40)
        enum = R.shuffled_renyi(rows, [0] * n, ones, lam, digits=40)
        assert rev[0] <= enum[1] and enum[0] <= rev[1]


@pytest.mark.parametrize("eps0,n,lam", [(0.1, 200, 5), (3.0, 200, 5), (1.0, 60, 8)])
def test_binary_pair_moment_form(eps0, n, lam):
    """Girgis et al. 2021, eq. (10) and Section 8: the likelihood ratio r_k = M(D')(k)/M(D)(k) is
    linear in k, r_k - 1 = (e^(2 eps0) - 1)/(n e^eps0) (k - n p), so at an integer order the moment is
    1 + sum_{i >= 2} C(lambda, i) ((e^(2 eps0) - 1)/(n e^eps0))^i E[(k - n p)^i], k ~ Bin(n, p),
    p = 1/(e^eps0 + 1): a different formula of the same divergence (central moments summed
    directly here)."""
    with mpmath.workdps(120):
        e = mpf(eps0)
        p = 1 / (mpmath.exp(e) + 1)
        pmf = [mpmath.binomial(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]
        mean = n * p
        c = (mpmath.exp(2 * e) - 1) / (n * mpmath.exp(e))
        moment = 1 + sum(mpmath.binomial(lam, i) * c ** i * mpmath.fsum(w * (k - mean) ** i for k, w in enumerate(pmf))
                         for i in range(2, lam + 1))
        want = mpmath.log(moment) / (lam - 1)
    lo, hi = R.binary_rr_pair_renyi(eps0, n, lam, digits=50)
    assert lo <= want <= hi


def test_clone_pair_symmetric_and_enumerated():
    for kind in ("clones", "stronger"):
        forward = R.clone_pair_renyi(1.2, 30, 3.5, kind, digits=40)
        backward = R.clone_pair_renyi(1.2, 30, 3.5, kind, reverse=True, digits=40)
        assert forward[0] <= backward[1] and backward[0] <= forward[1]

        def direct(kind=kind):
            P, Q = R.clone_pair_pmfs(1.2, 30, kind)
            keys = sorted(P)
            return discrete.renyi([P[k] for k in keys], [Q[k] for k in keys], 3.5)

        d = enclose(direct, 40)
        assert d[0] <= forward[1] and forward[0] <= d[1]


def test_clone_pair_against_count_pair_oracle():
    """Two oracles written independently: the clone pair is the count pair with N = n - 1 others,
    clone probability p, victim always present and of type 0 w.p. e^eps0/(e^eps0 + 1) under P."""
    eps0, n, lam = 1.0, 60, 4
    with mpmath.workdps(60):
        pi = float(mpmath.e / (mpmath.e + 1))
        p = float(mpmath.exp(-1))
    pair = dict(others=n - 1, clone_prob=p, theta_p=pi, theta_q=1 - pi, victim_prob=1.0, clone_bias=0.5)
    m_lo, m_hi = count_pair.renyi_moment(pair, lam)
    with mpmath.workdps(60):
        other = (mpmath.log(m_lo) / (lam - 1), mpmath.log(m_hi) / (lam - 1))
    mine = R.clone_pair_renyi(mpf(1.0), n, lam, clone_prob=p, digits=30)
    # the count pair takes pi as a float: compare to the precision of that rounding
    assert abs(mine[0] - other[0]) <= mpf(10) ** -14 * mine[0]


def test_clone_pair_orders():
    """More clones hide better: the stronger pair (p = 2/(e^eps0+1) >= e^-eps0) has the smaller
    divergence; the divergence decreases in n and increases in eps0 and in the order."""
    base = R.clone_pair_renyi(1.0, 40, 3, digits=20)
    stronger = R.clone_pair_renyi(1.0, 40, 3, "stronger", digits=20)
    assert stronger[1] < base[0]
    assert R.clone_pair_renyi(1.0, 60, 3, digits=20)[1] < base[0]
    assert R.clone_pair_renyi(1.5, 40, 3, digits=20)[0] > base[1]
    assert R.clone_pair_renyi(1.0, 40, 5, digits=20)[0] > base[1]


def test_clone_pair_renyi_from_its_tradeoff_curve():
    """Chen, Cao, Ge 2024, Theorem 1 (corrected) and Lemma A.1; Wang et al. 2023, Corollary B.6:
    D_lambda(P||Q) = log(integral of |f'|^(1 - lambda)) / (lambda - 1) for f = T(P, Q); on the exact
    piecewise-linear curve the integral is sum over segments of (length in alpha) |slope|^(1 - lambda).
    The pair is built in exact rationals (e^eps0 = 3) and its curve by Neyman-Pearson."""
    E, n, lam = Fraction(3), 12, 3
    pi = E / (E + 1)
    p = 1 / E
    P, Q = [], []
    for v in range(n):
        w = math.comb(n - 1, v) * p ** v * (1 - p) ** (n - 1 - v)
        for a in range(v + 2):
            prev = Fraction(math.comb(v, a - 1), 2 ** v) if a >= 1 else Fraction(0)
            here = Fraction(math.comb(v, a), 2 ** v) if a <= v else Fraction(0)
            P.append(w * (pi * prev + (1 - pi) * here))
            Q.append(w * (pi * here + (1 - pi) * prev))
    knots = mixtures.tradeoff_knots(P, Q)
    with mpmath.workdps(60):
        total = mpf(0)
        for (a0, b0), (a1, b1) in zip(knots, knots[1:]):
            slope = (b0 - b1) / (a1 - a0)
            slope = mpf(slope.numerator) / slope.denominator
            width = mpf((a1 - a0).numerator) / (a1 - a0).denominator
            total += width * slope ** (1 - lam)
        want = mpmath.log(total) / (lam - 1)
    lo, hi = R.clone_pair_renyi(mpmath.log(3), n, lam, digits=40)
    # log(3) is rounded to an mpf: compare to that precision
    assert abs(lo - want) <= mpf(10) ** -13 * want


@pytest.mark.parametrize("k", [2, 3])
def test_clones_dominate_every_shuffled_pair(k):
    """Feldman, McMillan, Talwar 2021, Theorem 3.2: the shuffled outputs of any eps0-LDP randomizer
    on neighbouring datasets are post-processings of the clone pair, so no pair of datasets has a
    larger Renyi divergence."""
    eps0, n = 1.0, 4
    rows = R.grr_pmfs(eps0, k)
    for lam in (2, 6.5):
        worst = R.worst_case_renyi(rows, n, lam, digits=30)
        clones = R.clone_pair_renyi(eps0, n, lam, digits=30)
        assert worst[1] <= clones[0]


def test_stronger_clones_dominate_binary_rr():
    """For binary randomized response the stronger-clone decomposition holds (Feldman, McMillan,
    Talwar 2023), so the stronger pair also dominates its shuffled pairs."""
    eps0, n = 1.5, 5
    for lam in (2, 4):
        worst = R.worst_case_renyi(R.grr_pmfs(eps0, 2), n, lam, digits=30)
        stronger = R.clone_pair_renyi(eps0, n, lam, "stronger", digits=30)
        assert worst[1] <= stronger[0]


def test_bad_input():
    with pytest.raises(ValueError, match="order"):
        R.shuffled_renyi(R.grr_pmfs(1, 2), [0], [1], 1)
    with pytest.raises(ValueError, match="sizes"):
        R.shuffled_renyi(R.grr_pmfs(1, 2), [0, 0], [1], 2)
    with pytest.raises(ValueError, match="sums"):
        R.shuffled_renyi([[0.5, 0.6], [0.5, 0.5]], [0], [1], 2)
    with pytest.raises(ValueError, match="clone probability"):
        R.clone_pair_renyi(1, 10, 2, 1.5)
    with pytest.raises(ValueError, match="eps0"):
        R.clone_pair_renyi(-1, 10, 2)


def test_infinite_when_not_absolutely_continuous():
    rows = [[Fraction(1, 2), Fraction(1, 2), 0], [0, Fraction(1, 2), Fraction(1, 2)]]
    lo, hi = R.shuffled_renyi(rows, [0, 1], [1, 1], 2)
    assert lo == hi == mpf("inf")


# ----------------------------------------------------------------------------- slow sweeps


@pytest.mark.slow
def test_sweep_clones_dominate_random_randomizers():
    rng = random.Random(11)
    for trial in range(12):
        eps0 = 0.3 + 2.5 * rng.random()
        k = rng.choice([2, 3])
        rows = random_ldp(rng, k, 3, eps0)
        n = rng.choice([2, 3, 4, 5])
        lam = rng.choice([1.5, 2, 3, 10])
        worst = R.worst_case_renyi(rows, n, lam, digits=20)
        clones = R.clone_pair_renyi(eps0, n, lam, digits=20)
        assert worst[1] <= clones[0], (trial, eps0, k, n, lam)
        if n > 2:
            assert worst[0] <= R.worst_case_renyi(rows, n - 1, lam, digits=20)[1]


@pytest.mark.slow
def test_sweep_clone_pair_moderate_n():
    """n = 400: the windowed sum against the count-pair oracle (independent), both kinds; and
    n = 2000 against n = 1000 (decreasing in n)."""
    eps0, n, lam = 1.0, 400, 3
    with mpmath.workdps(40):
        pi = float(mpmath.e / (mpmath.e + 1))
    for kind, p in (("clones", float(mpmath.exp(-1))), ("stronger", float(2 / (mpmath.e + 1)))):
        pair = dict(others=n - 1, clone_prob=p, theta_p=pi, theta_q=1 - pi, victim_prob=1.0, clone_bias=0.5)
        m_lo, m_hi = count_pair.renyi_moment(pair, lam)
        other = mpmath.log(m_lo) / (lam - 1)
        mine = R.clone_pair_renyi(mpf(1.0), n, lam, clone_prob=p, digits=20)
        assert abs(mine[0] - other) <= mpf(10) ** -12 * other, kind
    assert R.clone_pair_renyi(1.0, 2000, 3, digits=15)[1] < R.clone_pair_renyi(1.0, 1000, 3, digits=15)[0]


@pytest.mark.slow
def test_sweep_binary_pair_all_datasets():
    """For binary RR the worst case over datasets is at least Girgis et al.'s pair, in both
    directions."""
    for eps0, n in itertools.product((0.5, 2.0), (3, 6)):
        for lam in (2, 5):
            worst = R.worst_case_renyi(R.grr_pmfs(eps0, 2), n, lam, digits=20)
            for rev in (False, True):
                pair = R.binary_rr_pair_renyi(eps0, n, lam, reverse=rev, digits=20)
                assert pair[0] <= worst[1]
