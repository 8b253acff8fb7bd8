"""Tables 2-4 of Wang et al. (2024) against the exact pmfs, and the randomizer registry."""

import math

import pytest
from hypothesis import assume, example, given, settings, strategies as st

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


def _three_region(eps0, c):
    """Two inputs of a randomizer whose output density is e^eps0 u on a region of measure c and
    u elsewhere (u (c e^eps0 + 1 - c) = 1), the regions of the two inputs disjoint: the pmfs of
    the partition (region of input 0, region of input 1, the rest), on which the densities are
    constant, so total variation and ratios are those of the mechanism."""
    big = math.exp(eps0)
    u = 1 / (c * big + 1 - c)
    return [[c * big * u, c * u, (1 - 2 * c) * u], [c * u, c * big * u, (1 - 2 * c) * u]]


def _hadamard(eps0, K, s):
    """Hadamard response (Acharya, Sun, Zhang 2019): density e^eps0 on a set of s of the K
    outputs, 1 elsewhere; the sets of two inputs share s/2 outputs."""
    big = math.exp(eps0)
    z = s * big + K - s
    sets = [set(range(s)), set(range(s // 2, s // 2 + s))]
    return [[(big if y in c else 1.0) / z for y in range(K)] for c in sets]


def _laplace_tv(scale, shift):
    """Total variation of Laplace(0, scale) and Laplace(shift, scale), by quadrature at 30 digits."""
    import mpmath

    with mpmath.workdps(30):
        f = lambda x, m: mpmath.exp(-abs(x - m) / mpmath.mpf(scale)) / (2 * mpmath.mpf(scale))
        return float(mpmath.quad(lambda x: abs(f(x, 0) - f(x, shift)) / 2, [-mpmath.inf, 0, shift / 2, shift, mpmath.inf]))


@pytest.mark.parametrize("rz, pmfs", [
    (R.privunit(1.0, 0.3), _three_region(1.0, 0.3)),
    (R.privunit(2.5, 0.5), _three_region(2.5, 0.5)),
    (R.wheel(1.0, 2, 0.2), _three_region(1.0, 0.4)),
    (R.hadamard(1.0, 16, 4), _hadamard(1.0, 16, 4)),
    (R.hadamard(3.0, 32, 8), _hadamard(3.0, 32, 8)),
    (R.optimal_local_hash(2.0), None),
], ids=lambda x: getattr(x, "name", ""))
def test_table_2_entries_without_pmfs_against_the_mechanism(rz, pmfs):
    """The Table 2 beta (and p = q = e^eps0) of randomizers that carry no pmfs, against the pmfs
    of the mechanism restricted to its two most distant inputs (a partition of the outputs on
    which both densities are constant, so nothing is lost)."""
    if pmfs is None:  # optimal local hashing: GRR on l = round(e^eps0 + 1) hashed values
        ell = round(math.exp(2.0) + 1)
        big = math.exp(2.0)
        pmfs = [[(big if x == y else 1.0) / (big + ell - 1) for y in range(ell)] for x in range(2)]
    beta = 0.5 * sum(abs(a - b) for a, b in zip(*pmfs))
    ratio = max(max(a / b, b / a) for a, b in zip(*pmfs) if a > 0 and b > 0)
    assert math.isclose(rz.beta, beta, rel_tol=1e-12), (rz.beta, beta)
    assert math.isclose(rz.p, ratio, rel_tol=1e-12) and math.isclose(rz.q, ratio, rel_tol=1e-12)


@pytest.mark.parametrize("eps0", [0.3, 1.0, 2.0, 7.0])
def test_laplace_and_metric_laplace_beta_against_quadrature(eps0):
    """Laplace on [0, 1] with scale 1/eps0: beta is the total variation of the two end inputs."""
    assert math.isclose(R.laplace(eps0).beta, _laplace_tv(1 / eps0, 1.0), rel_tol=1e-12)
    assert math.isclose(R.metric_laplace(eps0, eps0 + 1).beta, _laplace_tv(1.0, eps0), rel_tol=1e-12)
    assert math.isclose(R.metric_general(eps0, eps0 + 1).beta, (math.exp(eps0) - 1) / (math.exp(eps0) + 1),
                        rel_tol=1e-12)


def _exact_parameters(rows):
    """(largest ratio, largest total variation) of a float matrix, in exact rational arithmetic."""
    from fractions import Fraction

    rows = [[Fraction(float(v)) for v in row] for row in rows]
    ratio = max(a / b for ra in rows for rb in rows for a, b in zip(ra, rb) if b > 0)
    tv = max(sum(abs(a - b) for a, b in zip(ra, rb)) / 2 for ra in rows for rb in rows)
    return ratio, tv


@given(weights=st.integers(2, 4).flatmap(lambda m: st.lists(
    st.lists(st.integers(1, 10**6), min_size=m, max_size=m), min_size=2, max_size=4)))
@example(weights=[[50643, 781855], [781855, 50643]])  # beta was an ulp below the truth (capped)
@settings(max_examples=150)
def test_from_pmfs_parameters_are_the_true_ones_rounded_outwards(weights):
    """from_pmfs on a matrix of exact dyadic entries: p = q and beta against the exact rational
    largest ratio and total variation. They are parameters of a bound (the randomizer has the
    (p, beta)-variation property only if p and beta are at least the true values), so they must
    not be rounded below the truth, and they must be tight (within 1e-14)."""
    from fractions import Fraction

    scale = 2**24
    rows = []
    for w in weights:
        ints = [x * scale // sum(w) for x in w]
        ints[ints.index(max(ints))] += scale - sum(ints)
        rows.append([i / scale for i in ints])
    ratio, tv = _exact_parameters(rows)
    assume(ratio > 1)
    rz = R.from_pmfs(rows)
    assert Fraction(rz.p) >= ratio and Fraction(rz.q) >= ratio, (rz.p, float(ratio))
    assert Fraction(rz.beta) >= tv, (rz.beta, float(tv))
    # a valid variation pair: beta <= (p - 1)/(p + 1) in exact arithmetic on the floats
    assert Fraction(rz.beta) <= (Fraction(rz.p) - 1) / (Fraction(rz.p) + 1)
    # tight: p is raised above the true ratio only as far as a float beta >= the truth needs
    # (an ulp or two of beta, (p^2 - 1)/(2p) times that relatively in p)
    slack = 1e-14 + 8 * 2.0**-53 * (float(ratio) ** 2 - 1) / (2 * float(ratio))
    assert rz.p <= float(ratio) * (1 + slack) and rz.beta <= float(tv) * (1 + 1e-14) + 1e-300
    assert rz.eps0 >= math.log(rz.p) - 1e-15 and math.exp(rz.eps0) >= float(ratio) * (1 - 1e-15)


@pytest.mark.parametrize("kind, params", [("binary-rr", {}), ("grr", {"d": 3}), ("grr", {"d": 5}),
                                          ("subset-selection", {"d": 4, "k": 2}), ("unary-encoding", {"d": 3})])
@pytest.mark.parametrize("eps0", [0.05, 1.0, 4.0])
def test_registry_pmfs_against_independent_exact_pmfs(kind, params, eps0):
    """Each registry randomizer's pmfs and (p, beta, q) against the exact pmfs built independently
    (tests/oracles/exact_shuffle.py, mpmath at 90 digits): the pmfs to 1e-15 (a product of
    d rounded factors for unary encoding), the parameters to
    1e-13 (beta's closed form (e^eps0 - 1)/(e^eps0 + 1) cancels at small eps0: about 2e-15 at
    eps0 = 0.05)."""
    import mpmath

    from tests.oracles.exact_shuffle import pmfs_of

    factory, names = R.REGISTRY[kind]
    rz = factory(eps0, *[params[x] for x in names[1:]])
    exact = pmfs_of(kind, eps0, **params)
    with mpmath.workdps(50):
        ex = [[mpmath.mpf(v) for v in row] for row in exact]
        # the library orders outputs its own way: compare the multisets of each row
        for got, want in zip(rz.pmfs, ex):
            assert len(got) == len(want)
            for g, w in zip(sorted(got), sorted(want)):
                assert abs(mpmath.mpf(g) - w) <= 1e-15 * w, (kind, g, w)
        ratio = max(a / b for ra in ex for rb in ex for a, b in zip(ra, rb))
        tv = max(sum(abs(a - b) for a, b in zip(ra, rb)) / 2 for ra in ex for rb in ex)
        assert abs(mpmath.mpf(rz.p) / ratio - 1) <= 1e-13 and abs(mpmath.mpf(rz.q) / ratio - 1) <= 1e-13
        assert abs(mpmath.mpf(rz.beta) - tv) <= 1e-13 * tv


def test_bad_inputs():
    with raises_naming("eps0", "[1e-06, 300]"):
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


@pytest.mark.parametrize("eps_prime,n,delta", [(0.5, 10**5, 1e-6), (1.5, 10**4, 1e-7), (0.05, 10**8, 1e-12),
                                                 (2.0, 2000, 0.01)])
def test_cheu_zhilyaev_flip_solves_its_calibration_at_50_digits(eps_prime, n, delta):
    """The formula is the smaller root of f (1 - f) n = (33/5) ((e^eps'+1)/(e^eps'-1))^2 log(4/delta),
    solved here at 50 digits by the quadratic formula and checked in the equation itself."""
    import mpmath

    with mpmath.workdps(50):
        e, d = mpmath.mpf(eps_prime), mpmath.mpf(delta)
        right = mpmath.mpf(33) / 5 * ((mpmath.exp(e) + 1) / (mpmath.exp(e) - 1)) ** 2 * mpmath.log(4 / d)
        root = (1 - mpmath.sqrt(1 - 4 * right / n)) / 2
        assert abs(root * (1 - root) * n - right) < mpmath.mpf(10) ** -40 * right
        assert 0 < root < mpmath.mpf(1) / 2
    assert R.CHEU_ZHILYAEV_FLIP(eps_prime, n, delta) == pytest.approx(float(root), rel=1e-13)
    assert abs(R.CHEU_ZHILYAEV_FLIP.mpmath(50)(eps_prime, n, delta) - root) < mpmath.mpf(10) ** -45 * root


def test_cheu_zhilyaev_flip_has_no_root_below_a_half_at_small_n():
    """n <= 4 times the right-hand side: no f in (0, 1/2); the condition says so."""
    import mpmath

    right = 33 / 5 * (math.exp(0.05) + 1) ** 2 / (math.exp(0.05) - 1) ** 2 * math.log(4 / 1e-6)
    assert not R.CHEU_ZHILYAEV_FLIP.holds(0.05, int(4 * right), 1e-6)
    assert R.CHEU_ZHILYAEV_FLIP.holds(0.05, int(4 * right) + 1, 1e-6)
    with pytest.raises(R.validate.ConditionError, match=r"\\epsilon. = 0.05.*fails"):
        R.CHEU_ZHILYAEV_FLIP(0.05, 10**4, 1e-6)
    assert mpmath.mpf(R.CHEU_ZHILYAEV_FLIP.mpmath(50)(0.05, int(4 * right) + 1, 1e-6)) < 0.5


@pytest.mark.parametrize("eps_prime,d,s,delta", [(0.5, 100, 8, 1e-6), (0.02, 100, 8, 1e-6), (1.5, 64, 64, 1e-9)])
def test_balls_into_bins_messages_at_50_digits(eps_prime, d, s, delta):
    """floor(32 log(2/delta) d / (eps'^2 s)) of Figure 4's caption, at 50 digits."""
    import mpmath

    with mpmath.workdps(50):
        e = mpmath.mpf(eps_prime)
        exact = int(mpmath.floor(32 * mpmath.log(2 / mpmath.mpf(delta)) * d / (e * e * s)))
    assert R.BALLS_INTO_BINS_MESSAGES(eps_prime, d, s, delta) == exact
    assert int(R.BALLS_INTO_BINS_MESSAGES.mpmath(50)(eps_prime, d, s, delta)) == exact
    with pytest.raises(R.validate.ConditionError, match="s"):
        R.BALLS_INTO_BINS_MESSAGES(eps_prime, d, d + 1, delta)
