"""The exact small-n engine against an independent brute force: every dataset (no symmetry
reduction), every sequence of outputs (no histogram dynamic programme, no column merging),
mpmath at 30-60 digits from the randomizers' definitions."""

import itertools
import math
from collections import defaultdict

import mpmath
import numpy as np
import pytest

from dptheory.shuffle import exact, randomizers as R
from tests.oracles.soundness import random_ldp


def _mp_pmfs(rz):
    if rz.pmfs_exact is not None:
        return [[mpmath.mpf(v) for v in row] for row in rz.pmfs_exact().tolist()]
    return [[mpmath.mpf(float(v)) for v in row] for row in rz.pmfs]


def brute_histogram(pm, inputs):
    """{histogram: probability} by summing over every output sequence."""
    outs = len(pm[0])
    dist = defaultdict(lambda: mpmath.mpf(0))
    for seq in itertools.product(range(outs), repeat=len(inputs)):
        prob = mpmath.mpf(1)
        for x, y in zip(inputs, seq):
            prob *= pm[x][y]
        if prob:
            hist = [0] * outs
            for y in seq:
                hist[y] += 1
            dist[tuple(hist)] += prob
    return dist


def brute_delta(pm, a, b, eps):
    p, q = brute_histogram(pm, a), brute_histogram(pm, b)
    g = mpmath.exp(mpmath.mpf(eps))
    keys = set(p) | set(q)
    zero = mpmath.mpf(0)
    d01 = mpmath.fsum(max(p.get(k, zero) - g * q.get(k, zero), zero) for k in keys)
    d10 = mpmath.fsum(max(q.get(k, zero) - g * p.get(k, zero), zero) for k in keys)
    return max(d01, d10)


def brute_worst(rz, n, eps):
    pm = _mp_pmfs(rz)
    rows = len(pm)
    best = mpmath.mpf(0)
    for x0, x1 in itertools.permutations(range(rows), 2):
        for rest in itertools.product(range(rows), repeat=n - 1):
            best = max(best, brute_delta(pm, [x0, *rest], [x1, *rest], eps))
    return best


CASES = [(R.binary_rr(1.0), 4), (R.binary_rr(2.5), 3), (R.grr(1.5, 3), 3), (R.grr(0.7, 4), 3),
         (random_ldp(3, 3, 4, 1.5), 3), (R.subset_selection(1.0, 4, 2), 2), (R.unary_encoding(0.8, 3), 2),
         (R.from_pmfs([[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.3, 0.2, 0.5]], name="cyclic"), 3)]


@pytest.mark.parametrize("rz,n", CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_worst_case_enclosure_contains_the_brute_force(rz, n):
    eng = exact.Engine(rz, n)
    eps0 = math.log(rz.p)
    with mpmath.workdps(30):
        for e in (0.0, 0.3 * eps0, 0.9 * eps0, eps0 * (1 - 1e-9)):
            ref = brute_worst(rz, n, e)
            lo, value, hi, a, b = eng.evaluate(e)
            assert lo <= ref <= hi, (rz.name, n, e, lo, ref, hi)
            if ref > 1e-12:
                # near eps0 the terms cancel: the float enclosure widens by 1 / (1 - e^(eps - eps0))
                assert hi - lo <= 1e-12 * ref / -math.expm1(e - eps0) + 1e-15
            # the reported dataset attains the value
            assert abs(brute_delta(_mp_pmfs(rz), a, b, e) - value) <= hi - lo + 1e-15


def test_symmetry_reduction_counts_and_blocks():
    """GRR's inputs are all interchangeable, a random matrix has none; the canonical datasets'
    count agrees with the generating-function count, and is far below the full search."""
    assert exact.symmetry_blocks(R.grr(1.0, 5).pmfs) == [[0, 1, 2, 3, 4]]
    assert exact.symmetry_blocks(random_ldp(1, 4, 5, 1.0).pmfs) == [[0], [1], [2], [3]]
    # swapping rows 0 and 1 of a cyclic matrix needs a column relabelling that does not exist
    assert exact.symmetry_blocks(np.array([[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.3, 0.2, 0.5]])) == [[0], [1], [2]]
    for blocks in ([[0, 1, 2, 3, 4]], [[0], [1], [2], [3]], [[0, 2], [1, 3, 4]]):
        for n in (1, 2, 3, 6):
            listed = list(exact.canonical_datasets(blocks, n))
            assert len(listed) == exact.count_datasets(blocks, n) == len(set(listed))
            assert all(sum(c) == n - 1 for _, _, c in listed)
    assert exact.count_datasets([list(range(8))], 5) < exact.search_size(8, 5) / 1000


@pytest.mark.parametrize("rz,n", [(random_ldp(5, 3, 3, 2.0), 4), (R.grr(1.2, 4), 4)], ids=["random", "grr"])
def test_canonical_search_equals_the_full_search(rz, n):
    """The symmetry-reduced worst case equals the worst case over every ordered dataset."""
    full = exact.Engine(rz, n, pairs=[exact._dataset(rz, a, b) for a, b in exact.datasets(rz.pmfs.shape[0], n,
                                                                                         exhaustive=True)])
    reduced = exact.Engine(rz, n)
    assert reduced.size < full.size
    for e in (0.1, 0.6, 1.1):
        f, r = full.evaluate(e), reduced.evaluate(e)
        assert r[0] <= f[2] and f[0] <= r[2] and abs(f[1] - r[1]) <= 1e-14


@pytest.mark.parametrize("rz,a,b,eps", [
    (R.binary_rr(2.0), [0, 0], [1, 0], 2.0 - 1e-10),
    (R.binary_rr(2.0), [0, 1, 1], [1, 1, 1], 1.9999999999),
    (R.grr(2.0, 3), [0, 2, 2], [1, 2, 2], 1.99999999999),
    (R.subset_selection(1.5, 4, 2), [0, 1], [2, 1], 0.7),
])
def test_fifty_digit_delta_against_a_sixty_digit_enumeration(rz, a, b, eps):
    """Issue 9: the 50-digit delta was off in the 7th digit near eps0 (the pmfs were converted
    from float64, and delta just below eps0 cancels). Now the pmfs come from the definition."""
    got = exact.delta(rz, a, b, eps, digits=50)
    with mpmath.workdps(60):
        ref = brute_delta(_mp_pmfs(rz), a, b, eps)
        assert abs(got - ref) <= abs(ref) * mpmath.mpf(10) ** -45, (got, ref)


def test_binary_rr_two_users_closed_form():
    """n = 2 binary RR: delta = E (E - g) / (E + 1)^2 (E = e^eps0, g = e^eps), near eps0 too."""
    for eps0, eps in ((2.0, 1.9999999999999), (1.0, 0.5), (8.0, 7.999999999899)):
        rz = R.binary_rr(eps0)
        with mpmath.workdps(60):
            E, g = mpmath.exp(mpmath.mpf(eps0)), mpmath.exp(mpmath.mpf(eps))
            ref = E * (E - g) / (E + 1) ** 2
        lo, _, hi, _, _ = exact.Engine(rz, 2).evaluate(eps)
        assert lo <= ref <= hi
        assert abs(exact.delta(rz, [0, 0], [1, 0], eps, digits=50) - ref) <= ref * mpmath.mpf(10) ** -45


def test_histogram_matches_the_brute_force():
    rz = R.grr(1.0, 3)
    got = exact.histogram(rz, [0, 1, 1, 2])
    ref = brute_histogram(_mp_pmfs(rz), [0, 1, 1, 2])
    assert set(got) == set(ref)
    assert all(abs(got[k] - float(ref[k])) <= 1e-15 * float(ref[k]) for k in ref)
    got50 = exact.histogram(rz, [0, 2], digits=50)
    with mpmath.workdps(60):
        ref50 = brute_histogram(_mp_pmfs(rz), [0, 2])
        assert set(got50) == set(ref50)
        assert all(abs(got50[k] - ref50[k]) <= mpmath.mpf(10) ** -45 for k in ref50)


def test_pmf_error_is_measured_against_the_definition():
    assert exact.pmf_error(R.from_pmfs(R.grr(1.0, 3).pmfs)) == 0.0
    err = exact.pmf_error(R.grr(1.0, 3))
    assert 0 <= err < 4 * 2.0**-52


def test_epsilon_of_one_pair_brackets_the_crossing():
    rz = R.grr(1.0, 3)
    res = exact.epsilon(rz, [0, 2, 2], [1, 2, 2], 1e-3)
    with mpmath.workdps(30):
        pm = _mp_pmfs(rz)
        assert brute_delta(pm, [0, 2, 2], [1, 2, 2], res.lower) >= 1e-3 >= brute_delta(pm, [0, 2, 2], [1, 2, 2], res.upper)
    assert res.upper - res.lower <= 1e-8 * res.upper


def test_cost_estimate_tracks_the_size_of_the_search():
    small = exact.estimate_seconds(R.grr(1.0, 3), 4)
    large = exact.estimate_seconds(R.grr(1.0, 8), 10)
    assert 0 < small < 0.05 < large
    assert exact.estimate_seconds(R.binary_rr(1.0), 10**6) == math.inf
    assert exact.estimate_seconds(R.grr(1.0, 8), 10, evaluations=40) > large


def test_bad_inputs():
    with pytest.raises(exact.validate.DomainError, match="first user"):
        exact.delta(R.binary_rr(1.0), [0, 0], [1, 1], 0.1)
    with pytest.raises(exact.validate.DomainError, match="finite"):
        exact.Engine(R.general_ldp(1.0), 3)
    with pytest.raises(exact.validate.DomainError, match="inputs"):
        exact.delta(R.binary_rr(1.0), [0, 5], [1, 5], 0.1)


def test_exact_method_near_eps0_is_refined_by_mpmath():
    """Issue 9's case: binary RR, eps0 = 2, n = 2, eps = 1.9999999999999: exact delta 7.752e-14
    (closed form E (E - g) / (E + 1)^2). The float enclosure is 6% wide there (the terms cancel);
    the exact method refines the candidates by mpmath to the requested relative width."""
    from dptheory.shuffle import METHODS

    rz, eps = R.binary_rr(2.0), 1.9999999999999
    with mpmath.workdps(60):
        E, g = mpmath.exp(mpmath.mpf(2)), mpmath.exp(mpmath.mpf(eps))
        ref = E * (E - g) / (E + 1) ** 2
    lo, _, hi, _, _ = exact.Engine(rz, 2).evaluate(eps)
    assert lo <= ref <= hi and hi - lo > 1e-3 * ref
    res = METHODS["exact"].delta(rz, 2, eps, rtol=1e-9)
    assert res.lower <= ref <= res.upper and res.upper - res.lower <= 1e-9 * ref
    # GRR on 3 options, n = 3, just below eps0: against the brute force at 60 digits
    rz, eps = R.grr(2.0, 3), 1.99999999999
    res = METHODS["exact"].delta(rz, 3, eps, rtol=1e-9)
    with mpmath.workdps(60):
        ref = brute_worst(rz, 3, eps)
    assert res.lower <= ref <= res.upper and res.upper - res.lower <= 1e-8 * ref


def test_delta_at_eps0_is_zero_without_an_mpmath_failure():
    """Found by the slow contract sweep: at epsilon = eps0 every term max(0, P - e^eps Q) is 0, the
    mpmath refinement never agreed (ArithmeticError after 12 s); the certified float enclosure
    now stands for that dataset."""
    from dptheory.shuffle import METHODS, randomizers

    res = METHODS["exact"].delta(randomizers.unary_encoding(0.01, 2), 2, 0.01)
    assert res.lower == 0.0 and 0.0 <= res.upper < 1e-12


def test_laws_not_kept_report_the_dataset_that_attains_the_maximum(monkeypatch):
    """Where the histogram laws exceed the memory budget (recomputed per evaluation), the reported
    dataset is still the one whose delta is the maximum (both directions laid out alike)."""
    from dptheory.shuffle import exact as E, randomizers as RR

    monkeypatch.setattr(E, "_KEEP_ENTRIES", 10)
    rz = RR.grr(2.0, 4)
    eng = E.Engine(rz, 8)
    assert not eng._kept
    for e in (0.5, 1.5):
        _, v, _, a, b = eng.evaluate(e)
        assert E.delta(rz, a, b, e) == v
