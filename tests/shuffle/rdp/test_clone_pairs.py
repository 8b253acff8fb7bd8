"""dptheory.shuffle.rdp.clone_pairs against independent computations (the cross-method tests are in test_shuffle_rdp.py)."""

import math

import mpmath

from dptheory import rdp as rdp_module
from dptheory.shuffle import clones, rdp
from dptheory.shuffle.pair_renyi import mp_renyi_moment, renyi



def test_printed_chen_theorem_1_law_is_non_conservative():
    """Chen et al. Theorem 1 prints D ~ Bern(e^-eps0); that pair's RDP is below the exact RDP of
    shuffled binary randomized response (so it is no upper bound); the corrected pair is above."""
    e0, n, order = 1.0, 10**4, 4.0
    printed = rdp.theorem_1_printed_law_rdp(e0, n, [order])[0]
    exact_lo = rdp.lower_bound(e0, n, [order], rtol=1e-8).lower
    corrected = rdp.clone_pair_rdp(e0, n, [order], rtol=1e-8).lower[0]
    assert printed < exact_lo[0] < corrected


def test_chen_theorem_1_knots_give_the_direct_divergence():
    """The corrected Theorem 1: the RDP from the trade-off function's knots (Lemma A.1) equals the
    divergence of the pair by the count-pair engine and by the mpmath atom sum."""
    e0, n = 0.8, 12
    f = rdp.clone_pair_tradeoff(e0, n)
    assert f.symmetric
    pair = clones.clone_pair(e0, n)
    for order in (1.5, 4.0, 20.0):
        via_f = f.renyi(order)
        lo, hi = renyi(pair, order, rtol=1e-12)
        ref = mpmath.log(mp_renyi_moment(pair, order, 50)) / (order - 1)
        assert lo <= ref <= hi
        assert abs(via_f - float(ref)) < 1e-12 * float(ref)


def test_chen_approximations_measured_against_the_exact_pair():
    """Corollary 2 is loose by about coth^2(eps0/2); the refined Gaussian limit tanh(eps0/2) mu is
    within 1% of the exact RDP of the pair at n = 1e4 (digest seed-001 §5.6: 0.6%)."""
    n, order = 10**4, 4.0
    for e0 in (0.5, 1.0, 2.0, 4.0):
        exact_hi = rdp.clone_pair_rdp(e0, n, [order], rtol=1e-8).upper
        cor2 = rdp.CHEN_RDP(e0, n, order)
        refined = rdp_module.gdp_to_rdp(float(rdp.CHEN_GDP_REFINED(e0, n)), order)
        ratio = cor2 / exact_hi[0]
        assert abs(ratio / (1 / math.tanh(e0 / 2) ** 2) - 1) < 0.01, (e0, ratio)
        assert abs(refined / exact_hi[0] - 1) < 0.01
    # digest: q = e^-1, eps0 = 1: exact 4.6442e-4, asymptotic 4.6444e-4
    hi = rdp.clone_pair_rdp(1.0, 10**4, [4.0], rtol=1e-8).upper
    assert abs(hi[0] - 4.6442e-4) < 1e-8
