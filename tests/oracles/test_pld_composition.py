"""Checks of the composed-PLD oracle against brute force over the product space, hand
computations and identities (never against dptheory's code)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import mpmath
import pytest
from mpmath import iv, mpf

from tests.oracles import discrete
from tests.oracles.certified import enclose
from tests.oracles.pld_composition import ComposedPLD, composed_delta, composed_epsilon, loss_classes


def random_pair(rng: random.Random, size: int, zeros: bool = True):
    """Two rational pmfs; with ``zeros`` some entries of either are 0."""
    def one():
        w = [Fraction(rng.randint(0 if zeros else 1, 9)) for _ in range(size)]
        if sum(w) == 0:
            w[0] = Fraction(1)
        return [x / sum(w) for x in w]
    return one(), one()


def product(p, steps):
    return [math.prod(c) for c in itertools.product(p, repeat=steps)]


def brute_delta(p, q, steps, epsilon, digits=40):
    """H_{e^epsilon}(P^T||Q^T) over the m^T outcomes of the product space."""
    P, Q = product(p, steps), product(q, steps)
    return enclose(lambda: discrete.hockey_stick(P, Q, epsilon), digits, nonnegative=True)


@pytest.mark.parametrize("seed", range(6))
def test_against_the_product_space(seed):
    rng = random.Random(seed)
    p, q = random_pair(rng, rng.randint(2, 4))
    for steps in (1, 2, 3):
        pld = ComposedPLD(p, q, steps)
        for eps in (-0.7, 0.0, 0.3, 1.1, 2.5):
            lo, hi = pld.delta(eps, 40)
            b_lo, b_hi = brute_delta(p, q, steps, eps)
            assert lo <= b_hi and b_lo <= hi, (seed, steps, eps)
            assert hi - lo <= mpf(10) ** -38 * max(hi, mpf(10) ** -30)


def test_randomized_response_by_hand():
    """Binary RR with e^eps0 = E: one step has losses +-eps0 with P-masses E/(E+1), 1/(E+1).
    T = 1: delta = (E - g)/(E + 1) for 0 <= eps <= eps0. T = 2: losses 2 eps0, 0, -2 eps0 with P-masses
    (E^2, 2E, 1)/(E+1)^2 and Q-masses (1, 2E, E^2)/(E+1)^2, so for 0 <= eps < 2 eps0 only the top
    class counts: delta = (E^2 - g)/(E + 1)^2; for eps < 0 the middle class adds 2E(1 - g)/(E+1)^2."""
    E = Fraction(3)
    p, q = [E / (E + 1), 1 / (E + 1)], [1 / (E + 1), E / (E + 1)]
    with mpmath.workdps(80):
        for eps in (mpf(0), mpf("0.4"), mpf("1.05")):
            g = mpmath.exp(eps)
            want1 = (3 - g) / 4
            want2 = (9 - g) / 16
            lo, hi = composed_delta(p, q, 1, eps, 60)
            assert lo <= want1 <= hi
            lo, hi = composed_delta(p, q, 2, eps, 60)
            assert lo <= want2 <= hi
        eps = mpf("-0.3")
        g = mpmath.exp(eps)
        want2 = (9 - g) / 16 + 6 * (1 - g) / 16
        lo, hi = composed_delta(p, q, 2, eps, 60)
        assert lo <= want2 <= hi


def test_randomized_response_many_steps():
    """T-fold binary RR: the class with k losses +eps0 has loss (2k - T) eps0 and masses C(T, k) E^k
    / (E+1)^T under P, C(T, k) E^(T-k) / (E+1)^T under Q, so delta = sum over (2k - T) eps0 > eps of
    C(T, k) (E^k - g E^(T - k)) / (E + 1)^T (Kairouz, Oh, Viswanath 2015): a sum written here."""
    T, eps0 = 300, mpf("0.1")

    def rows():
        E = iv.exp(iv.mpf(eps0))
        return [E / (E + 1), 1 / (E + 1)], [1 / (E + 1), E / (E + 1)]

    pld = ComposedPLD(rows, steps=T)
    with mpmath.workdps(80):
        E = mpmath.exp(eps0)
        for eps in (mpf(0), mpf(1), mpf(3)):
            g = mpmath.exp(eps)
            want = mpmath.fsum(mpmath.binomial(T, k) * (E ** k - g * E ** (T - k))
                               for k in range(T + 1) if (2 * k - T) * eps0 > eps) / (E + 1) ** T
            lo, hi = pld.delta(eps, 50)
            assert lo <= want <= hi, eps
            assert hi - lo <= mpf(10) ** -48 * want


def test_zero_epsilon_is_total_variation():
    rng = random.Random(5)
    p, q = random_pair(rng, 3, zeros=False)
    P, Q = product(p, 2), product(q, 2)
    tv = sum(max(a - b, Fraction(0)) for a, b in zip(P, Q))
    lo, hi = composed_delta(p, q, 2, 0, 40)
    assert lo <= mpf(tv.numerator) / tv.denominator <= hi


def test_infinite_losses():
    """P-mass where Q = 0 has infinite loss: delta(eps) >= 1 - (1 - m)^T for every eps, with equality
    beyond every finite loss, and epsilon(delta) is infinite below that mass."""
    p, q = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 2), Fraction(1, 2), Fraction(0)]
    for T in (1, 4):
        mass = 1 - Fraction(3, 4) ** T
        mass = mpf(mass.numerator) / mass.denominator
        lo, hi = composed_delta(p, q, T, 50, 40)
        assert lo <= mass <= hi
        assert composed_epsilon(p, q, T, mass / 2, 30) == (mpf("inf"), mpf("inf"))
        e_lo, e_hi = composed_epsilon(p, q, T, (1 + mass) / 2, 30)
        assert e_lo <= e_hi < mpf("inf")


def test_monotone():
    p, q = [0.5, 0.3, 0.2], [0.2, 0.3, 0.5]
    one = ComposedPLD(p, q, 5)
    previous = None
    for eps in (0, 0.2, 0.5, 1, 2, 4):
        lo, hi = one.delta(eps, 30)
        if previous is not None:
            assert hi <= previous
        previous = lo
    # more steps, less privacy
    for eps in (0.5, 2):
        assert ComposedPLD(p, q, 4).delta(eps, 30)[1] <= ComposedPLD(p, q, 5).delta(eps, 30)[0]


def test_epsilon_inverts_delta():
    p, q = [0.6, 0.3, 0.1], [0.1, 0.3, 0.6]
    pld = ComposedPLD(p, q, 20)
    for target in ("1e-3", "1e-8", "0.2"):
        lo, hi = pld.epsilon(target, 30)
        assert 0 < lo <= hi and hi - lo <= mpf(10) ** -28 * hi
        # delta at the ends, by the independent delta routine: above the target left, below right
        with mpmath.workdps(60):
            below = lo * (1 - mpf(10) ** -20)
            above = hi * (1 + mpf(10) ** -20)
        assert pld.delta(below, 40)[0] > mpf(target)
        assert pld.delta(above, 40)[1] <= mpf(target)


def test_delta_zero_at_zero_epsilon_gives_zero_epsilon():
    p = q = [0.25, 0.75]
    assert composed_epsilon(p, q, 3, 0.0, 30) == (0, 0)


def test_interval_inputs_agree_with_exact_ones():
    """The same pair given exactly (classes merged by their exact ratio) and as intervals (kept
    apart): the same delta."""
    p, q = [Fraction(1, 5), Fraction(1, 5), Fraction(3, 5)], [Fraction(2, 5), Fraction(2, 5), Fraction(1, 5)]
    assert len(loss_classes(p, q)) == 2

    def rows():
        return [iv.mpf(1) / 5, iv.mpf(1) / 5, iv.mpf(3) / 5], [iv.mpf(2) / 5, iv.mpf(2) / 5, iv.mpf(1) / 5]

    for eps in (0.1, 1.0):
        a = composed_delta(p, q, 6, eps, 40)
        b = ComposedPLD(rows, steps=6).delta(eps, 40)
        assert a[0] <= b[1] and b[0] <= a[1]


def test_bad_input():
    with pytest.raises(ValueError, match="steps"):
        ComposedPLD([0.5, 0.5], [0.5, 0.5], 0)
    with pytest.raises(ValueError, match="length"):
        composed_delta([0.5, 0.5], [1.0], 1, 0.1)
    with pytest.raises(ValueError, match="delta"):
        composed_epsilon([0.5, 0.5], [0.25, 0.75], 2, 1.5)


@pytest.mark.slow
def test_sweep_against_the_product_space():
    rng = random.Random(101)
    for trial in range(40):
        p, q = random_pair(rng, rng.randint(2, 5))
        steps = rng.randint(1, 4)
        pld = ComposedPLD(p, q, steps)
        for eps in (-1.0, 0.0, 0.05, 0.7, 3.0):
            lo, hi = pld.delta(eps, 30)
            b_lo, b_hi = brute_delta(p, q, steps, eps, 30)
            assert lo <= b_hi and b_lo <= hi, (trial, steps, eps)


@pytest.mark.slow
def test_sweep_three_classes_many_steps():
    """45 451 classes (m = 3, T = 300): delta at a few epsilons by the prefix sums, against the same
    classes summed term by term (max(P - g Q, 0) for each class)."""
    p, q = [0.5, 0.3, 0.2], [0.2, 0.3, 0.5]
    pld = ComposedPLD(p, q, 300)
    from tests.oracles.certified import bits_for, working_precision
    with working_precision(bits_for(30)):
        rows = pld.table()["rows"]
        for eps in (0.5, 5.0, 40.0):
            g = iv.exp(iv.mpf(eps))
            total = iv.mpf(0)
            for r in rows:
                pm = iv.mpf([mpmath.mp.make_mpf(r[2]), mpmath.mp.make_mpf(r[3])])
                qm = iv.mpf([mpmath.mp.make_mpf(r[4]), mpmath.mp.make_mpf(r[5])])
                d = pm - g * qm
                total += iv.mpf([max(mpmath.mp.make_mpf(d._mpi_[0]), 0), max(mpmath.mp.make_mpf(d._mpi_[1]), 0)])
            lo, hi = pld.delta(eps, 30)
            assert lo <= mpmath.mp.make_mpf(total._mpi_[1]) and mpmath.mp.make_mpf(total._mpi_[0]) <= hi
    e_lo, e_hi = pld.epsilon("1e-6", 20)
    assert pld.delta(e_lo * (1 - mpf(10) ** -15), 20)[0] > mpf("1e-6")
