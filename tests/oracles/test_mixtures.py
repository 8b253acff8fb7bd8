"""Checks of the exact mixture / trade-off oracle against brute force over all tests, closed forms
and identities (never against dptheory's code)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest
from mpmath import mpf

from tests.oracles import mixtures as X


def random_pmf(rng: random.Random, size: int, zeros: bool = True) -> list[Fraction]:
    w = [Fraction(rng.randint(0 if zeros else 1, 12)) for _ in range(size)]
    if sum(w) == 0:
        w[rng.randrange(size)] = Fraction(1)
    return [x / sum(w) for x in w]


def brute_tradeoff(p, q, alpha) -> Fraction:
    """inf of beta over all randomized tests of level <= alpha: every test is a convex combination
    of deterministic ones (indicator of a subset S, with point (P(S), 1 - Q(S))), and on the plane
    two of them suffice on the lower boundary, so T(alpha) = min over pairs of subset points of the
    chord between them at alpha (and single points with P(S) <= alpha)."""
    points = set()
    for mask in itertools.product((0, 1), repeat=len(p)):
        a = sum((pi for pi, m in zip(p, mask) if m), Fraction(0))
        b = 1 - sum((qi for qi, m in zip(q, mask) if m), Fraction(0))
        points.add((a, b))
    best = min(b for a, b in points if a <= alpha)
    for (a0, b0), (a1, b1) in itertools.combinations(points, 2):
        if a0 > a1:
            a0, b0, a1, b1 = a1, b1, a0, b0
        if a0 <= alpha <= a1 and a1 > a0:
            best = min(best, b0 + (b1 - b0) * (alpha - a0) / (a1 - a0))
    return best


def test_randomized_response_curve():
    """Binary RR with e^eps = 3: f_{eps,0}(alpha) = max(0, 1 - 3 alpha, (1 - alpha)/3) (Dong, Roth, Su
    2022, Definition 2.3 and Proposition 2.4 (Wasserman and Zhou 2010)): knots (0,1), (1/4,1/4), (1,0)."""
    p, q = [Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]
    assert X.tradeoff_knots(p, q) == [(0, 1), (Fraction(1, 4), Fraction(1, 4)), (1, 0)]
    for a in (Fraction(0), Fraction(1, 10), Fraction(1, 4), Fraction(2, 3), Fraction(1)):
        assert X.tradeoff(p, q, a) == max(Fraction(0), 1 - 3 * a, (1 - a) / 3)


@pytest.mark.parametrize("seed", range(8))
def test_against_all_tests(seed):
    rng = random.Random(seed)
    size = rng.randint(2, 5)
    p, q = random_pmf(rng, size), random_pmf(rng, size)
    knots = X.tradeoff_knots(p, q)
    for a in [Fraction(i, 17) for i in range(18)] + [a for a, _ in knots]:
        assert X.tradeoff_at(knots, a) == brute_tradeoff(p, q, a), (seed, a)


@pytest.mark.parametrize("seed", range(5))
def test_curve_properties(seed):
    """A trade-off function is convex, non-increasing, below 1 - alpha, with T(0) = 1 - Q[p = 0] and
    T(1) = 0 (Dong, Roth, Su 2022, Proposition 2.2); T(Q, P) is its inverse."""
    rng = random.Random(100 + seed)
    p, q = random_pmf(rng, 5), random_pmf(rng, 5)
    knots = X.tradeoff_knots(p, q)
    assert knots[0] == (0, 1 - sum(b for a, b in zip(p, q) if a == 0))
    assert knots[-1] == (1, 0)
    slopes = [(b1 - b0) / (a1 - a0) for (a0, b0), (a1, b1) in zip(knots, knots[1:])]
    assert all(s <= 0 for s in slopes)
    assert all(s0 < s1 for s0, s1 in zip(slopes, slopes[1:]))       # strictly convex at the knots
    assert all(b <= 1 - a for a, b in knots)
    inverse = X.tradeoff_knots(q, p)
    # f^-1(y) = inf{x : f(x) <= y}: check at the knots of T(Q, P)
    for y, x in inverse:
        assert X.tradeoff_at(knots, x) <= y
        if x > 0:
            assert X.tradeoff_at(knots, x - Fraction(1, 10 ** 12)) > y


def test_mixture_is_the_weighted_sum():
    p, q = X.mixture(["0.3", "0.7"], [([0.5, 0.5, 0], [0.2, 0.3, 0.5]), ([0.1, 0.2, 0.7], [0.6, 0.3, 0.1])])
    assert p == [Fraction(3, 20) + Fraction(7, 100), Fraction(3, 20) + Fraction(14, 100), Fraction(49, 100)]
    assert sum(p) == 1 and sum(q) == 1


@pytest.mark.parametrize("seed", range(5))
def test_dropping_the_index_is_post_processing(seed):
    """Wang et al. 2023, Appendix B: T(P_w, Q_w) >= T(P_I, Q_I), the pair that also reveals the index
    (its outcomes are (x, i) with masses w_i P_i(x)): the mixture curve lies above the joint one."""
    rng = random.Random(200 + seed)
    m, size = rng.randint(2, 3), rng.randint(2, 4)
    w = random_pmf(rng, m, zeros=False)
    pairs = [(random_pmf(rng, size), random_pmf(rng, size)) for _ in range(m)]
    mix = X.mixture_tradeoff_knots(w, pairs)
    joint_p = [wi * x for wi, (pi, _) in zip(w, pairs) for x in pi]
    joint_q = [wi * x for wi, (_, qi) in zip(w, pairs) for x in qi]
    joint = X.tradeoff_knots(joint_p, joint_q)
    grid = [Fraction(i, 50) for i in range(51)] + [a for a, _ in mix]
    assert X.is_below(lambda a: X.tradeoff_at(joint, a), mix, grid)


def test_hockey_stick_at_one_is_total_variation():
    rng = random.Random(7)
    p, q = random_pmf(rng, 6), random_pmf(rng, 6)
    tv = sum(abs(a - b) for a, b in zip(p, q)) / 2
    assert X.hockey_stick(p, q, 1) == tv == X.hockey_stick(q, p, 1)


@pytest.mark.parametrize("seed", range(4))
def test_profile_from_the_curve(seed):
    """1 + f*(-g) = H_g(Q||P) for f = T(P, Q) (the conjugate over [0, 1]; reversed order), exactly at
    rational g."""
    rng = random.Random(300 + seed)
    p, q = random_pmf(rng, 5), random_pmf(rng, 5)
    knots = X.tradeoff_knots(p, q)
    for g in (Fraction(1), Fraction(3, 2), Fraction(7, 2), Fraction(1, 3)):
        assert X.conjugate_profile(knots, g) == X.hockey_stick(q, p, g)


def test_mixture_hockey_stick_both_directions():
    w = ["0.3", "0.7"]
    pairs = [([0.5, 0.5, 0], [0.2, 0.3, 0.5]), ([0.1, 0.2, 0.7], [0.6, 0.3, 0.1])]
    out = X.mixture_hockey_stick(w, pairs, 0.25, digits=40)
    p, q = X.mixture(w, pairs)
    with mpmath.workdps(80):
        g = mpmath.exp(mpf(0.25))
        pq = mpmath.fsum(max(mpf(a.numerator) / a.denominator - g * mpf(b.numerator) / b.denominator, 0) for a, b in zip(p, q))
        qp = mpmath.fsum(max(mpf(b.numerator) / b.denominator - g * mpf(a.numerator) / a.denominator, 0) for a, b in zip(p, q))
        assert out["PQ"][0] <= pq <= out["PQ"][1]
        assert out["QP"][0] <= qp <= out["QP"][1]
    assert out["max"] == max(out["PQ"], out["QP"])


def test_dp_curve_is_a_lower_bound_and_violations_are_found():
    """Dong, Roth, Su 2022, Proposition 2.5: a pair with H_g(P||Q), H_g(Q||P) <= delta (g = e^eps) has
    T(P, Q) >= f_{eps,delta} = max(0, 1 - delta - g alpha, (1 - delta - alpha)/g). Exact at rational g;
    a curve raised by 1e-30 somewhere is caught."""
    rng = random.Random(9)
    p, q = random_pmf(rng, 5, zeros=False), random_pmf(rng, 5, zeros=False)
    g = Fraction(3, 2)
    delta = max(X.hockey_stick(p, q, g), X.hockey_stick(q, p, g))
    knots = X.tradeoff_knots(p, q)

    def f_dp(a):
        return max(Fraction(0), 1 - delta - g * a, (1 - delta - a) / g)

    grid = [Fraction(i, 200) for i in range(201)] + [a for a, _ in knots]
    assert X.is_below(f_dp, knots, grid)
    assert X.is_below(lambda a: X.tradeoff_at(knots, a), knots, grid)       # equality is allowed
    bad = X.violations(lambda a: X.tradeoff_at(knots, a) + (Fraction(1, 10 ** 30) if a == Fraction(1, 2) else 0),
                       knots, grid)
    assert [v[0] for v in bad] == [Fraction(1, 2)]
    # an mpmath candidate is compared by its exact upper end
    assert not X.violations(lambda a: mpf(float(f_dp(a))) * (1 - mpf(2) ** -40), knots, grid)


def test_float_inputs():
    """Floats are exact binary rationals; [0.1, 0.2, 0.7], which do not sum to 1 as binary numbers,
    are read as the decimals they print as."""
    assert X.pmf([0.1, 0.2, 0.7]) == [Fraction(1, 10), Fraction(1, 5), Fraction(7, 10)]
    assert X.pmf([0.25, 0.75]) == [Fraction(1, 4), Fraction(3, 4)]


def test_bad_input():
    with pytest.raises(ValueError, match="sum"):
        X.pmf([0.5, 0.6])
    with pytest.raises(ValueError, match="negative"):
        X.pmf([1.5, -0.5])
    with pytest.raises(ValueError, match="weights"):
        X.mixture([0.5, 0.6], [([1, 0], [0, 1]), ([1, 0], [0, 1])])
    with pytest.raises(ValueError, match="alpha"):
        X.tradeoff([0.5, 0.5], [0.5, 0.5], 2)


@pytest.mark.slow
def test_sweep_against_all_tests():
    rng = random.Random(1000)
    for trial in range(60):
        size = rng.randint(2, 7)
        p, q = random_pmf(rng, size), random_pmf(rng, size)
        knots = X.tradeoff_knots(p, q)
        for a in [Fraction(i, 13) for i in range(14)]:
            assert X.tradeoff_at(knots, a) == brute_tradeoff(p, q, a), trial
