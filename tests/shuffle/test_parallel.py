"""Parallel composition (Wang et al. 2024, Theorem 6.1) and the range-query instance of §7.3."""

import math

import pytest

from dptheory.results import Status
from dptheory.shuffle import METHODS, exact, parallel, randomizers as R, variation_ratio as vr


@pytest.mark.parametrize("eps0,d", [(1.0, 8), (2.0, 16)])
def test_mean_beta_is_the_total_variation_of_algorithm_2(eps0, d):
    """Theorem 6.1's averaged beta equals the true worst-case total variation of Algorithm 2's
    output (level tag and GRR answer), computed from its exact pmfs."""
    rz, share = parallel.range_query(eps0, d, "advanced")
    true = R.from_pmfs(parallel.algorithm_2_pmfs(eps0, d))
    assert math.isclose(true.beta, rz.beta, rel_tol=1e-12)
    assert math.isclose(true.p, math.exp(eps0), rel_tol=1e-12) and share == 1.0
    assert math.isclose(float(parallel.RANGE_QUERY_BETA(eps0, d, int(math.log2(d)))), rz.beta, rel_tol=1e-12)


def test_advanced_beats_basic_and_separate_but_its_paper_bound_is_refuted():
    eps0, d, n, delta = 2.0, 64, 10**5, 1e-6
    adv, _ = parallel.range_query(eps0, d, "advanced")
    basic, _ = parallel.range_query(eps0, d, "basic")
    sep, share = parallel.range_query(eps0, d, "separate-worst")
    e_adv = METHODS["variation-ratio"].epsilon(adv, n, delta)
    e_basic = METHODS["variation-ratio"].epsilon(basic, n, delta)
    e_sep = METHODS["variation-ratio"].epsilon(sep, int(n * share), delta)
    assert e_adv.upper < e_basic.lower < e_sep.lower
    assert e_adv.status is Status.REFUTED
    # the proven labelled bound for the same mixture (maximum over beta' <= mean beta)
    lab = METHODS["variation-ratio-labelled"].epsilon(adv, n, delta)
    assert lab.status is Status.PROVEN and lab.upper >= e_adv.lower


def test_labelled_bound_dominates_algorithm_2_exactly_at_small_n():
    pm = parallel.algorithm_2_pmfs(1.0, 4)
    rz = R.from_pmfs(pm, name="algorithm-2")
    for e in (0.1, 0.4):
        worst, _, _, exhaustive = exact.worst_case(rz, 3, e)
        lab = vr.labelled_log_delta(rz.p, rz.beta, rz.q, 2, e, uniform=rz.uniform_beta, rtol=1e-9)
        assert exhaustive and lab.upper >= worst - exact.delta_error(3, e)


def test_multi_message_status_under_the_refutation():
    """Table 4: p = inf, beta = 1 rows have no victim residual (proven); Cheu-Zhilyaev and
    mixDUMP have beta below the worst case (refuted)."""
    assert METHODS["variation-ratio"].status(R.balls_into_bins(16, 2, 3)) is Status.PROVEN
    assert METHODS["variation-ratio"].status(R.pure_dump(16, 3)) is Status.PROVEN
    assert METHODS["variation-ratio"].status(R.balcer_cheu(0.5, 3)) is Status.PROVEN
    assert METHODS["variation-ratio"].status(R.cheu_zhilyaev(0.2, 10)) is Status.REFUTED
    assert METHODS["variation-ratio"].status(R.mixdump(0.1, 16, 2)) is Status.REFUTED
    res = METHODS["variation-ratio"].epsilon(R.balls_into_bins(16, 2, 3), 10**4, 1e-6)
    assert 0 < res.lower <= res.upper


def test_bad_inputs():
    with pytest.raises(parallel.validate.DomainError, match="power of 2"):
        parallel.range_query(1.0, 12)
    with pytest.raises(parallel.validate.DomainError, match="approach"):
        parallel.range_query(1.0, 16, "magic")
    with pytest.raises(parallel.validate.DomainError, match="weights"):
        parallel.parallel(1.0, [0.1, 0.2], [0.5, 0.3, 0.2])
