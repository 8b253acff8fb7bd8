"""Tables 2-4 of Wang et al. (2024) against the exact pmfs, and the randomizer registry."""

import math

import pytest

from dptheory.shuffle import randomizers as R
from tests.conftest import raises_naming


@pytest.mark.parametrize("rz", [R.binary_rr(0.7), R.grr(1.0, 3), R.grr(3.0, 10), R.subset_selection(1.0, 5, 2),
                                R.subset_selection(2.0, 6, 3), R.unary_encoding(1.0, 4), R.unary_encoding(3.0, 3)],
                         ids=lambda r: r.name)
def test_table_2_beta_is_the_true_total_variation(rz):
    """The Table 2 closed form of beta equals the largest total variation between two rows of the
    exact pmfs, and p = q = e^eps0 is the largest ratio."""
    true = R.from_pmfs(rz.pmfs)
    assert math.isclose(true.beta, rz.beta, rel_tol=1e-12)
    assert math.isclose(true.p, rz.p, rel_tol=1e-12) and math.isclose(true.q, rz.q, rel_tol=1e-12)
    assert true.uniform_beta


def test_local_hash_table_beta_bounds_the_true_total_variation():
    """With the family of all hash functions, two inputs collide with probability 1/l, so the true
    total variation is (1 - 1/l) times Table 2's value, which remains a valid (larger) beta."""
    rz = R.local_hash(1.0, 3, d_value=3)
    true = R.from_pmfs(rz.pmfs)
    assert math.isclose(true.beta, (1 - 1 / 3) * rz.beta, rel_tol=1e-12)


def test_worst_case_beta_and_table_4_limits():
    g = R.general_ldp(1.0)
    assert g.is_worst_case and math.isclose(g.beta, math.tanh(0.5))
    b = R.balls_into_bins(16, 2, blankets=3)
    assert math.isinf(b.p) and b.beta == 1 and b.q == 8 and b.others(100) == 300
    c = R.cheu_zhilyaev(0.2, blankets=10)
    assert math.isclose(c.p, 16.0) and math.isclose(c.beta, 0.6) and math.isclose(c.q, 4.0)
    assert not c.is_worst_case
    m = R.mixdump(0.1, 10, blankets=2)
    assert math.isclose(m.p, 0.9 * 9 / 0.1) and math.isclose(m.q, 9.0)
    assert R.pure_dump(10, 2).q == 10 and R.balcer_cheu(0.25, 3).q == 4


def test_other_table_entries_are_valid_parameters():
    for rz in [R.laplace(1.0), R.privunit(1.0, 0.3), R.hadamard(1.0, 16, 4), R.sampling_rappor(1.0, 10, 3),
               R.wheel(1.0, 2, 0.2), R.k_subset_exponential(1.0, 10, 3, 2), R.metric_laplace(0.5, 2.0),
               R.metric_general(0.5, 2.0), R.optimal_local_hash(2.0)]:
        assert 0 < rz.beta <= rz.worst_case_beta + 1e-15 and rz.q >= 1 and rz.p > 1
    # Laplace: 1 - e^{-eps0/2}, the total variation of Laplace(0, 1/eps0) and Laplace(1, 1/eps0)
    assert math.isclose(R.laplace(2.0).beta, 1 - math.exp(-1.0))


def test_planar_laplace_beta_reduces_to_one_dimension():
    """Table 3's planar Laplace beta (a double integral) equals (2/pi) int_0^{d/2} t K_1(t) dt
    (digest seed-002 §4.3); 0.371719 at d01 = 1.3."""
    from scipy import integrate, special

    d01 = 1.3
    one_d = 2 / math.pi * integrate.quad(lambda t: t * special.k1(t), 0, d01 / 2)[0]
    double = 2 * integrate.dblquad(lambda y, x: math.exp(-math.hypot(x - d01 / 2, y)) / (2 * math.pi),
                                   0, d01 / 2, -60, 60)[0]
    assert math.isclose(one_d, double, rel_tol=1e-6) and abs(one_d - 0.371719) < 1e-6


def test_bad_inputs():
    with raises_naming("eps0", "(0, inf)"):
        R.grr(0.0, 3)
    with raises_naming("d", "[2, inf]"):
        R.grr(1.0, 1)
    with raises_naming("k", "[1, 4]"):
        R.subset_selection(1.0, 5, 5)
    with raises_naming("beta", "(p-1)/(p+1)"):
        R.Randomizer("x", 3.0, 0.6, 3.0)
    with raises_naming("q", "[1, inf)"):
        R.Randomizer("x", 3.0, 0.2, 0.5)
    with raises_naming("matrix", "absolutely continuous"):
        R.from_pmfs([[1.0, 0.0], [0.5, 0.5]])
    with raises_naming("matrix[1]", "sums to"):
        R.from_pmfs([[0.5, 0.5], [0.5, 0.6]])
    with raises_naming("f"):
        R.cheu_zhilyaev(0.6, 3)
