"""Soundness: every proven upper bound is at least the exact shuffled divergence (maximised over
every dataset, by enumeration), and every lower bound at most, on grids of small n, randomizers
and epsilons."""

import pytest

from dptheory.results import Status
from dptheory.shuffle import METHODS, exact, randomizers as R
from tests.oracles.soundness import check_methods, random_ldp

RANDOMIZERS = [R.binary_rr(1.0), R.grr(1.0, 3), R.grr(2.0, 4), R.subset_selection(1.0, 5, 2),
               R.unary_encoding(1.0, 3), R.local_hash(1.0, 2, d_value=3), random_ldp(1, 3, 4, 1.0), random_ldp(2, 4, 3, 1.0)]
NS = [2, 3, 5]
EPSILONS = [0.05, 0.3, 0.8]


@pytest.mark.parametrize("rz", RANDOMIZERS, ids=lambda r: r.name)
def test_proven_upper_bounds_dominate_and_lower_bounds_are_dominated(rz):
    for n in NS:
        # keep the default run short: large output spaces only at n <= 3 (the slow sweep does more)
        if exact.search_size(rz.pmfs.shape[0], n) > 3000 or (rz.pmfs.shape[1] > 6 and n > 3):
            continue
        for e in EPSILONS:
            worst, a, b, exhaustive = exact.worst_case(rz, n, e)
            assert exhaustive
            err = exact.delta_error(n, e)
            assert check_methods(rz, n, e, worst, err, (a, b)) > 0


@pytest.mark.parametrize("eps0", [0.5, 1.0, 2.0])
def test_general_class_bounds_dominate_specific_randomizers(eps0):
    """A bound for every eps0-LDP randomizer must dominate each of them (n <= 4, all datasets)."""
    general = R.general_ldp(eps0)
    specifics = [R.binary_rr(eps0), R.grr(eps0, 3), R.subset_selection(eps0, 4, 2)]
    for n in (2, 4):
        for e in (0.1, 0.5 * eps0):
            worst = max(exact.worst_case(s, n, e)[0] for s in specifics)
            for slug in ("variation-ratio-labelled", "clones", "blanket-hoeffding", "blanket-bennett"):
                res = METHODS[slug].delta(general, n, e)
                assert res.status is Status.PROVEN
                assert res.upper >= worst - exact.delta_error(n, e), (slug, n, e, res.upper, worst)


def test_refuted_bound_is_below_the_exact_value_somewhere():
    """The paper's bound with beta below the worst case is refuted by enumeration (GRR, n = 2)."""
    g = R.grr(1.0, 3)
    res = METHODS["variation-ratio"].delta(g, 2, 0.7)
    worst, _, _, _ = exact.worst_case(g, 2, 0.7)
    assert res.status is Status.REFUTED and res.upper < worst


def test_stronger_clones_hold_where_proven_and_are_unproven_elsewhere():
    assert METHODS["stronger-clones"].status(R.grr(1.0, 3)) is Status.PROVEN
    assert METHODS["stronger-clones"].status(R.subset_selection(1.0, 5, 2)) is Status.UNPROVEN
    assert METHODS["stronger-clones"].status(R.general_ldp(1.0)) is Status.UNPROVEN
