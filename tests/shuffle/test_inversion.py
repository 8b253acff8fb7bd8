"""The epsilon(delta) inversion of the count-pair methods: how few divergences it evaluates (the
speed comes from doing less: counted, not timed), and that what it does less of loses nothing:
brackets against mpmath at 50 digits, refinement from the previous point's buckets against the
brute-force oracle, the tail-free divergence at epsilon = 0 against the tail at epsilon = 1e-300."""

import math

import mpmath
import pytest

from dptheory import shuffle
from dptheory.shuffle import clones, pairs, variation_ratio as vr
from dptheory.shuffle import randomizers as R
from tests.oracles import shuffle_oracle as O


def _counting(monkeypatch):
    calls = []
    original = pairs.CountPair.log_delta

    def counted(self, epsilon, **kw):
        calls.append(epsilon)
        return original(self, epsilon, **kw)

    monkeypatch.setattr(pairs.CountPair, "log_delta", counted)
    return calls


@pytest.mark.parametrize("method", ["variation-ratio-labelled", "clones"])
@pytest.mark.parametrize("n, delta", [(10**4, 1e-8), (10**8, 1e-30), (10**12, 1e-8), (10**12, 1e-6)])
def test_an_inversion_evaluates_at_most_four_divergences(monkeypatch, method, n, delta):
    """A certified epsilon bracket of relative width 1e-3 (general eps0 = 1 randomizer) takes at
    most four evaluations of the pair's divergence (8-15 before the search fitted a Gaussian
    profile and placed its last points either side of the estimate), and is as narrow as asked."""
    calls = _counting(monkeypatch)
    res = shuffle.epsilon(R.general_ldp(1.0), n, delta, method=method, rtol=1e-3)
    assert len(calls) <= 4, calls
    assert res.upper - res.lower <= 1e-3 * res.upper


@pytest.mark.parametrize("method, pair_of", [
    ("variation-ratio-labelled", lambda n: vr.labelled_pair(math.e, (math.e - 1) / (math.e + 1), math.e, n - 1)[1]),
    ("clones", lambda n: clones.clone_pair(1.0, n)),
])
@pytest.mark.parametrize("n, delta", [(40, 1e-3), (120, 1e-6)])
def test_the_bracket_ends_are_on_their_sides_at_50_digits(method, pair_of, n, delta):
    """The bracket's ends, recomputed by the pair's mpmath sum at 50 digits (every count, no
    buckets): delta(lower) > delta >= delta(upper) (the labelled bound at the worst-case beta is
    the pair itself: its factor is 1)."""
    res = shuffle.epsilon(R.general_ldp(1.0), n, delta, method=method, rtol=1e-3)
    pr = pair_of(n)
    with mpmath.workdps(50):
        below, _ = pr.mp_delta(res.lower, 50)
        above, om = pr.mp_delta(res.upper, 50)
        assert below > delta >= above + om, (res.lower, res.upper, below, above)


@pytest.mark.parametrize("n", [5, 12])
def test_refinement_from_another_points_buckets_contains_the_oracle(n):
    """CountPair.log_delta with ``start``: the enclosure at each epsilon, refined from the buckets
    the previous (different) epsilon ended with, contains the brute-force divergence at 40
    digits, and the buckets carried over cover the counts exactly."""
    P, Q = O.variation_ratio_pair(n, math.e, (math.e - 1) / (math.e + 1), math.e, dps=40)
    pr = vr.pair(math.e, (math.e - 1) / (math.e + 1), math.e, n - 1)
    start: dict = {}
    for e in (0.6, 0.05, 0.3, 0.0, 0.3001):
        enc = pr.log_delta(e, rtol=1e-10, start=start)
        ref = O.hockey_stick(P, Q, e, dps=40)
        assert enc.log_lower <= float(mpmath.log(ref)) <= enc.log_upper, (e, enc, ref)
        ma, mb = start["buckets"]
        assert ma[0] == 1 and mb[-1] == n and all(ma[1:] == mb[:-1] + 1)


def test_a_start_of_another_pair_is_not_used():
    """Buckets kept for one pair are not used for another (the key is the pair's parameters):
    the clone pair after the stronger-clone pair gives the enclosure it gives alone."""
    start: dict = {}
    clones.stronger_clone_pair(1.0, 10**4).log_delta(0.05, rtol=1e-3, start=start)
    alone = clones.clone_pair(1.0, 10**4).log_delta(0.05, rtol=1e-3)
    after = clones.clone_pair(1.0, 10**4).log_delta(0.05, rtol=1e-3, start=start)
    assert (alone.log_lower, alone.log_upper) == (after.log_lower, after.log_upper)


def test_an_inversion_does_not_depend_on_what_ran_before():
    """The buckets carried from point to point live in the inversion's own state: the same
    bracket alone, after another method on the same pair, and twice."""
    g = R.general_ldp(1.0)
    first = shuffle.epsilon(g, 10**5, 1e-8, method="stronger-clones", rtol=1e-3)
    shuffle.epsilon(g, 10**5, 1e-8, method="variation-ratio", rtol=1e-3)
    second = shuffle.epsilon(g, 10**5, 1e-8, method="stronger-clones", rtol=1e-3)
    assert (first.lower, first.upper) == (second.lower, second.upper)


@pytest.mark.parametrize("n", [10**6, 10**10])
def test_epsilon_zero_without_the_tail_agrees_with_the_tail_at_1e_minus_300(n):
    """At gamma = 1 the binomial tail's coefficient is 0 and is not computed; at epsilon = 1e-300
    it is (the divergence differs by at most e^1e-300 - 1 = 1e-300): the two enclosures, of
    different computations, overlap."""
    pr = clones.clone_pair(1.0, n)
    at_zero = pr.log_delta(0.0, rtol=1e-9)
    just_above = pr.log_delta(1e-300, rtol=1e-9)
    assert max(at_zero.log_lower, just_above.log_lower) <= min(at_zero.log_upper, just_above.log_upper)
    assert at_zero.relative_width() < 1e-5


@pytest.mark.parametrize("eps0, n", [(1.0, 10**3), (8.0, 10**6)])
def test_a_small_bulk_costs_one_vectorised_call_per_evaluation(monkeypatch, eps0, n):
    """Where the bulk of the clone count (12 sd either side of its mean) holds at most
    pairs.SINGLE_COUNTS_MAX counts, the buckets start as single counts, which have no gap: each
    evaluation of the pair is one vectorised call of the bucket bounds (with 128 buckets, eps0 =
    1, n = 1e3 took 5 calls for 3 evaluations, eps0 = 8, n = 1e6 5 for 3), and the inversion takes
    3 evaluations. The bracket's ends at 50 digits: the slow test below, and the brute-force test
    at n = 40, 120 above."""
    calls = _counting(monkeypatch)
    bound_calls = []
    original = pairs.CountPair._bucket_bounds

    def counted(self, ma, mb, log_gamma):
        bound_calls.append(len(ma))
        return original(self, ma, mb, log_gamma)

    monkeypatch.setattr(pairs.CountPair, "_bucket_bounds", counted)
    pairs._BUCKET_CACHES.clear()
    res = shuffle.epsilon(R.general_ldp(eps0), n, 1e-8, method="clones", rtol=1e-3)
    assert len(calls) <= 3 and len(bound_calls) == len(calls), (calls, bound_calls)
    assert res.upper - res.lower <= 1e-3 * res.upper


@pytest.mark.slow
def test_the_single_count_bracket_ends_are_on_their_sides_at_50_digits():
    """eps0 = 1, n = 1e3, delta = 1e-8 (single-count buckets): the bracket's ends recomputed by the
    pair's mpmath sum at 50 digits from the exact parameters (every count, no buckets)."""
    res = shuffle.epsilon(R.general_ldp(1.0), 1000, 1e-8, method="clones", rtol=1e-3)
    pr = clones.clone_pair(1.0, 1000)
    with mpmath.workdps(50):
        below, _ = pr.mp_delta(res.lower, 50)
        above, om = pr.mp_delta(res.upper, 50)
        assert below > 1e-8 >= above + om, (res.lower, res.upper, below, above)
