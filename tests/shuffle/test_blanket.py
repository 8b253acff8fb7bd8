"""The privacy blanket bounds (dptheory/shuffle/blanket.py) against an independent exact value,
and at the edges of the float range."""

from __future__ import annotations

import math

import mpmath
import pytest

from dptheory.shuffle import blanket


def exact_binary_rr_delta(eps0: float, n: int, epsilon: float) -> float:
    """Worst-case delta(epsilon) of n shuffled users of binary randomized response, at 50 digits:
    the shuffled output is the count of ones; neighbouring datasets differ in one user's bit, the
    others' counts are Bin(n - 1, q) for every configuration of the others (both directions)."""
    with mpmath.workdps(50):
        E = mpmath.exp(mpmath.mpf(eps0))
        g = mpmath.exp(mpmath.mpf(epsilon))
        keep = E / (E + 1)
        best = mpmath.mpf(0)
        for ones in range(n):  # the other n - 1 users: `ones` of them hold 1
            # count of ones among the others: sum of Bern(keep) x ones and Bern(1 - keep) x rest
            pmf = [mpmath.mpf(1)]
            for prob in [keep] * ones + [1 - keep] * (n - 1 - ones):
                pmf = [(pmf[i] if i < len(pmf) else 0) * (1 - prob) + (pmf[i - 1] * prob if i >= 1 else 0)
                       for i in range(len(pmf) + 1)]
            p0 = [(pmf[k] if k < len(pmf) else 0) * (1 - keep) + (pmf[k - 1] * keep if k >= 1 else 0) for k in range(n + 1)]
            p1 = [(pmf[k] if k < len(pmf) else 0) * keep + (pmf[k - 1] * (1 - keep) if k >= 1 else 0) for k in range(n + 1)]
            for a, b in ((p0, p1), (p1, p0)):
                best = max(best, mpmath.fsum(max(x - g * y, 0) for x, y in zip(a, b)))
        return float(best)


@pytest.mark.parametrize("bound", ["hoeffding", "bennett"])
@pytest.mark.parametrize("eps0,n", [(0.5, 30), (1.0, 40), (2.0, 25)])
def test_blanket_bounds_are_above_the_exact_delta(bound, eps0, n):
    for epsilon in (0.05, 0.2, 0.5 * eps0, 0.9 * eps0):
        v = blanket.log_delta(bound, "rr", eps0, n, epsilon, 2)
        assert math.exp(v) >= exact_binary_rr_delta(eps0, n, epsilon), (bound, eps0, n, epsilon)


@pytest.mark.parametrize("bound", ["hoeffding", "bennett"])
@pytest.mark.parametrize("kind,k", [("generic", None), ("rr", 3), ("laplace", None)])
def test_tiny_epsilon_gives_delta_at_most_one_not_an_overflow(bound, kind, k):
    """At epsilon ~ 1e-308 the bounds' terms overflow (b^2 / a) or divide by a log1p that
    underflowed to 0: the bound then says delta <= 1, never log delta = +inf or an exception."""
    for epsilon in (2.2e-308, 5e-324, 1e-200):
        v = blanket.log_delta(bound, kind, 1.37, 10, epsilon, k)
        assert v == 0.0 or (math.isfinite(v) and v <= 0.0), (bound, kind, epsilon, v)


@pytest.mark.parametrize("bound", ["hoeffding", "bennett"])
def test_blanket_delta_is_non_increasing_and_zero_from_eps0(bound):
    values = [blanket.log_delta(bound, "generic", 1.0, 10**5, e) for e in (0.01, 0.02, 0.05, 0.1, 0.3, 0.9)]
    assert all(a >= b for a, b in zip(values, values[1:]))
    assert blanket.log_delta(bound, "generic", 1.0, 10**5, 1.0) == -math.inf


def test_bad_bound_name_is_named():
    with pytest.raises(ValueError, match="bound = 'chernoff'"):
        blanket.log_delta("chernoff", "generic", 1.0, 100, 0.1)


@pytest.mark.parametrize("bound", ["hoeffding", "bennett"])
@pytest.mark.parametrize("eps0,n", [(4.0, 10**4), (2.0, 10**3), (1.0, 10**6)])
def test_blanket_delta_is_monotone_up_to_eps0(bound, eps0, n):
    """The raw Bennett bound turns up towards eps0 (general eps0 = 4, n = 1e4: 0.845 at
    epsilon = 1.17, above 1 at 2.9); delta is non-increasing, so the bound at the minimiser holds
    beyond it (found by the contract test)."""
    grid = [eps0 * t for t in (0.01, 0.05, 0.1, 0.2, 0.29, 0.4, 0.5, 0.6, 0.72, 0.8, 0.9, 0.99)]
    values = [blanket.log_delta(bound, "generic", eps0, n, e) for e in grid]
    assert all(a >= b for a, b in zip(values, values[1:])), values


def _mp_constants(kind, e0, e, k=None):
    """(gamma, b, b_plus, c) at the working mpmath precision, in the authors' own forms
    (BorjaBalle/amplification-by-shuffling, shuffleddp/), which cancel where the toolkit's do not."""
    M = mpmath
    e0, e = M.mpf(e0), M.mpf(e)
    if kind == "generic":
        g = M.exp(-e0)
        return (g, (M.exp(e) + 1) * (M.exp(e0) - M.exp(-e0)), M.exp(e0) * (1 - M.exp(e - 2 * e0)),
                M.exp(e0) * (M.exp(2 * e) + 1) - 2 * g * M.exp(e - 2 * e0))
    if kind == "rr":
        g = k / (M.exp(e0) + k - 1)
        return (g, (1 - g) * k * (M.exp(e) + 1), g * (1 - M.exp(e)) + (1 - g) * k,
                g * (2 - g) * (M.exp(e) - 1) ** 2 + (1 - g) ** 2 * k * (M.exp(2 * e) + 1))
    g = M.exp(-e0 / 2)
    return (g, (M.exp(e) + 1) * (M.exp(e0 / 2) - M.exp(-e0 / 2)), M.exp(e0 / 2) * (1 - M.exp(e - e0)),
            (M.exp(2 * e) + 1) / 3 * (2 * M.exp(e0 / 2) + M.exp(-e0))
            - 2 * M.exp(e) * (2 * M.exp(-e0 / 2) - M.exp(-e0)))


def _mp_log_delta(bound, kind, e0, n, e, k=None):
    """The raw blanket bound of the module docstring at 60 digits, term for term."""
    M = mpmath
    with M.workdps(60):
        g, b, bp, c = _mp_constants(kind, e0, e, k)
        a = M.expm1(M.mpf(e))
        if bound == "hoeffding":
            return b**2 / (4 * a * g * n) * (1 - g * (1 - M.exp(-2 * a**2 / b**2))) ** n
        alpha, bt = c / bp**2, a * bp / c
        t = alpha * ((1 + bt) * M.log1p(bt) - bt)
        return ((1 - g + g * M.exp(-t)) ** n - (1 - g) ** n) * bp / (M.log1p(bt) * g * n)


def test_raw_bound_enclosure_holds_the_60_digit_value():
    """The float64 log of the raw bound with its derived error (blanket._log_delta; it was a flat
    1e-12 (1 + |v|), exceeded by 4e-10 relative where the authors' forms cancel: Bennett at
    eps0 = 1e-3) encloses the 60-digit value of the authors' forms on 3,000 seeded points
    (eps0 1e-3 .. 30, n 1 .. 1e12, epsilon 1e-8 eps0 .. eps0)."""
    import numpy as np

    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(3000):
        bound = str(rng.choice(["hoeffding", "bennett"]))
        kind = str(rng.choice(["generic", "rr", "laplace"]))
        e0 = float(10 ** rng.uniform(-3, 1.5))
        n = int(10 ** rng.uniform(0, 12))
        e = float(e0 * 10 ** rng.uniform(-8, -1e-12))
        k = int(rng.integers(2, 50)) if kind == "rr" else None
        v, err = blanket._log_delta(bound, kind, e0, n, e, k)
        if not math.isfinite(v):
            continue
        with mpmath.workdps(60):
            ref = mpmath.log(_mp_log_delta(bound, kind, e0, n, e, k))
        assert abs(mpmath.mpf(v) - ref) <= err, (bound, kind, e0, n, e, v, float(ref), err)
        checked += 1
    assert checked > 2900


def test_enclosure_is_what_the_epsilon_search_uses():
    lo, hi = blanket.log_delta_enclosure("bennett", "laplace", 0.001, 10**6, 3e-4)
    with mpmath.workdps(60):
        ref = min(mpmath.mpf(0), mpmath.log(_mp_log_delta("bennett", "laplace", 0.001, 10**6, 3e-4)))
    assert lo <= ref <= hi and hi - lo < 1e-9 * (1 + abs(hi))
