"""Privacy loss distributions (dptheory.pld): pessimistic >= exact >= optimistic against
independent mpmath computations (hockey-stick sums of the pairs and of their products,
enumerated), FFT round-off against an extended-precision convolution, dp_accounting on the same
pmfs, the trade-off lower bound against Neyman-Pearson on the enumerated product, bad input."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest

from dptheory import pld as pld_module
from dptheory import tradeoff
from dptheory.pld import PLD, max_delta
from dptheory.validate import DomainError

PAIRS = [
    ([0.5, 0.3, 0.2], [0.2, 0.3, 0.5]),
    ([0.7, 0.2, 0.1, 0.0], [0.1, 0.2, 0.3, 0.4]),
    ([0.25, 0.25, 0.5], [0.5, 0.4, 0.1]),
    ([0.6, 0.4, 0.0], [0.5, 0.3, 0.2]),
    ([0.5, 0.5, 0.0], [0.3, 0.3, 0.4]),
]


def _mp_product_delta(p, q, rounds, epsilon, dps=50):
    """H_{e^eps}(P^T || Q^T) by enumerating the product support, mpmath."""
    with mpmath.workdps(dps):
        P = [mpmath.mpf(x) for x in p]
        Q = [mpmath.mpf(x) for x in q]
        g = mpmath.exp(mpmath.mpf(epsilon))
        total = mpmath.mpf(0)
        for idx in itertools.product(range(len(p)), repeat=rounds):
            a = mpmath.fprod(P[i] for i in idx)
            b = mpmath.fprod(Q[i] for i in idx)
            if a > g * b:
                total += a - g * b
        return total


@pytest.mark.parametrize("p, q", PAIRS)
@pytest.mark.parametrize("epsilon", [-0.2, 0.0, 0.1, 0.5, 1.2])
def test_single_pair_brackets_exact(p, q, epsilon):
    exact = _mp_product_delta(p, q, 1, epsilon)
    pess = PLD.from_pmfs(p, q).delta(epsilon)
    opt = PLD.from_pmfs(p, q, pessimistic=False).delta(epsilon)
    assert pess.kind.value == "upper" and opt.kind.value == "lower"
    assert mpmath.mpf(pess.upper) >= exact >= mpmath.mpf(opt.lower)
    # the mass-preserving split is tight to second order in the interval
    assert pess.upper - float(exact) <= 1e-9 * max(float(exact), 1e-3) + 1e-13


@pytest.mark.parametrize("p, q", PAIRS[:3])
@pytest.mark.parametrize("rounds", [2, 3, 5])
def test_composition_brackets_exact_enumeration(p, q, rounds):
    pess = PLD.from_pmfs(p, q).self_compose(rounds)
    opt = PLD.from_pmfs(p, q, pessimistic=False).self_compose(rounds)
    for eps in (0.0, 0.3, 1.0, 2.0):
        exact = _mp_product_delta(p, q, rounds, eps)
        hi, lo = pess.delta(eps).upper, opt.delta(eps).lower
        assert mpmath.mpf(hi) >= exact >= mpmath.mpf(lo)
        # composed atoms that sit exactly at epsilon spread over +-interval: first order there
        assert hi - float(exact) <= 2e-4 * float(exact) + 1e-12


def test_compose_equals_self_compose_and_is_associative():
    p, q = PAIRS[0]
    a = PLD.from_pmfs(p, q)
    b = PLD.from_pmfs(*PAIRS[2])
    left = a.compose(b).compose(a)
    right = a.compose(a.compose(b))
    for eps in (0.0, 0.5, 1.5):
        assert left.delta(eps).upper == pytest.approx(right.delta(eps).upper, rel=1e-12)
    assert a.self_compose(3).delta(0.5).upper == pytest.approx(a.compose(a).compose(a).delta(0.5).upper, rel=1e-12)


def test_infinity_mass_composes():
    # P has an atom where Q has none: delta >= P(Q = 0) for every epsilon, 1 - (1 - m)^T composed
    p, q = [0.6, 0.4, 0.0], [0.5, 0.3, 0.2]
    p2, q2 = [0.5, 0.3, 0.2], [0.6, 0.4, 0.0]
    a = PLD.from_pmfs(p2, q2)
    assert a.inf_mass == pytest.approx(0.2)
    c = a.self_compose(3)
    assert c.inf_mass == pytest.approx(1 - 0.8**3, rel=1e-14)
    exact = _mp_product_delta(p2, q2, 3, 50.0)
    assert c.delta(50.0).upper >= float(exact) >= c.delta(50.0).lower
    del p, q


def test_tiny_delta_below_float_range_is_certified_in_log_space():
    # an atom of P-mass 1e-200 with loss log(1e20): composed twice, the mass at loss 2 log(1e20)
    # is 1e-400; delta just below that loss is far below the float range
    p = [1e-200, 1 - 1e-200]
    q = [1e-220, 1 - 1e-220]
    c = PLD.from_pmfs(p, q, interval=1e-3).self_compose(2)
    eps = 2 * math.log(1e20) - 1.0
    res = c.delta(eps)
    exact = _mp_product_delta(p, q, 2, eps, dps=60)
    assert exact > 0 and exact < mpmath.mpf("1e-390")
    log_exact = float(mpmath.log(exact))
    assert res.log_lower <= log_exact <= res.log_upper
    assert res.log_upper - log_exact < 1e-3
    assert res.upper > 0.0  # never 0 for a positive upper bound


def test_fft_error_bound_holds():
    rng = np.random.default_rng(7)
    for n_a, n_b, spread in [(3000, 2000, 5.0), (20000, 20000, 30.0), (5000, 300, 200.0)]:
        la = -spread * rng.random(n_a) ** 2 - np.log(n_a)
        lb = -spread * rng.random(n_b) - np.log(n_b)
        lc, err_l1, rel = pld_module._fft_log_convolve(la, lb)
        a = np.exp(la.astype(np.longdouble))
        b = np.exp(lb.astype(np.longdouble))
        exact = np.convolve(a, b)  # extended precision, all terms positive
        got = np.exp(lc.astype(np.longdouble))
        observed = float(np.sum(np.abs(got - exact) - np.minimum(np.abs(got - exact), rel * got)))
        assert observed <= err_l1
        assert err_l1 < 1e-11  # and the bound is not vacuous


@pytest.mark.parametrize("p, q", PAIRS[:3])
def test_against_dp_accounting_same_pmfs(p, q):
    from dp_accounting.pld import privacy_loss_distribution as dpa

    ours = PLD.from_pmfs(p, q).self_compose(4)
    ours_opt = PLD.from_pmfs(p, q, pessimistic=False).self_compose(4)
    pmf_p = {i: math.log(v) for i, v in enumerate(p) if v > 0}
    pmf_q = {i: math.log(v) for i, v in enumerate(q) if v > 0}
    theirs = dpa.from_two_probability_mass_functions(pmf_q, pmf_p, value_discretization_interval=1e-4).self_compose(4)
    theirs_opt = dpa.from_two_probability_mass_functions(pmf_q, pmf_p, value_discretization_interval=1e-4,
                                                          pessimistic_estimate=False).self_compose(4)
    for eps in (0.0, 0.5, 1.0):
        up = ours.delta(eps).upper
        lo = ours_opt.delta(eps).lower
        t_up = float(theirs.get_delta_for_epsilon(eps))
        t_lo = float(theirs_opt.get_delta_for_epsilon(eps))
        assert up >= t_lo and t_up >= lo
        # same discretisation error scale: within 1e-3 relative of each other
        assert abs(up - t_up) <= 1e-3 * max(t_up, 1e-6)


def test_epsilon_brackets_the_exact_inverse():
    p, q = PAIRS[0]
    c = PLD.from_pmfs(p, q).self_compose(3)
    for d in (1e-1, 1e-2, 1e-3):
        res = c.epsilon(d)
        assert res.kind.value == "upper"
        assert c.delta(res.upper).upper <= d
        # the exact delta at the certified upper epsilon is below d; just below the lower end above
        assert float(_mp_product_delta(p, q, 3, res.upper)) <= d
        if res.lower > 0:
            assert float(_mp_product_delta(p, q, 3, res.lower * (1 - 1e-3))) > d * (1 - 1e-2)


def test_epsilon_evaluates_each_point_once_and_certifies_both_ends(monkeypatch):
    """The inverter asks for each enclosure once (an enclosure has no tolerance to tighten: a
    straddling point was evaluated again and again) and starts its bracket at the width the
    enclosures allow: 1000 composed shuffle rounds at n = 1e12 took 22 enclosures for epsilon(1e-6).
    Each end is certified by the enclosure itself: the upper end's upper delta at most the target,
    the lower end's lower delta above it."""
    from dptheory.shuffle.rounds import rounds_pld

    c = rounds_pld(1.0, 10**12, 1000)
    points = _count_calls(monkeypatch, "log_delta_enclosure")
    for d in (1e-3, 1e-6, 1e-9):
        start = len(points)
        res = c.epsilon(d)
        asked = points[start:]
        # the guess, and the two ends predicted from its enclosure's width and the profile's
        # slope (6 enclosures before, 17 at T = 1e5)
        assert len(asked) == len(set(asked)) <= 3
        assert c.log_delta_enclosure(res.upper)[1] <= math.log(d)
        if res.lower > 0:
            assert c.log_delta_enclosure(res.lower)[0] > math.log(d)


def _count_calls(monkeypatch, name: str) -> list:
    """The first argument of every call of the PLD method ``name`` from now on."""
    calls = []
    real = getattr(PLD, name)

    def counting(self, arg):
        calls.append(arg)
        return real(self, arg)

    monkeypatch.setattr(PLD, name, counting)
    return calls


def test_tradeoff_is_a_lower_bound_on_the_exact_product_tradeoff():
    p, q = PAIRS[0]
    rounds = 3
    prod_p = [math.prod(p[i] for i in idx) for idx in itertools.product(range(3), repeat=rounds)]
    prod_q = [math.prod(q[i] for i in idx) for idx in itertools.product(range(3), repeat=rounds)]
    exact = tradeoff.from_pmfs(prod_p, prod_q)
    lower = PLD.from_pmfs(p, q).self_compose(rounds).tradeoff()
    alphas = np.linspace(0, 1, 2001)
    gap = exact(alphas) - lower(alphas)
    assert np.all(gap >= -1e-12)
    assert np.max(gap) < 2e-3


def test_max_delta_over_directions():
    p, q = PAIRS[1]
    a, b = PLD.from_pmfs(p, q), PLD.from_pmfs(q, p)
    m = max_delta([a, b], 0.3)
    assert m.upper == max(a.delta(0.3).upper, b.delta(0.3).upper)


def test_bad_input_names_the_parameter():
    p, q = PAIRS[0]
    with pytest.raises(DomainError, match="interval"):
        PLD.from_pmfs(p, q, interval=0.0)
    with pytest.raises(DomainError, match="p"):
        PLD.from_pmfs([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(DomainError, match="interval"):
        PLD.from_pmfs(p, q).compose(PLD.from_pmfs(p, q, interval=1e-3))
    with pytest.raises(DomainError, match="pessimistic"):
        PLD.from_pmfs(p, q).compose(PLD.from_pmfs(p, q, pessimistic=False))
    with pytest.raises(DomainError, match="pessimistic"):
        PLD.from_pmfs(p, q, pessimistic=False).tradeoff()
    with pytest.raises(DomainError, match="rounds"):
        PLD.from_pmfs(p, q).self_compose(0)
    with pytest.raises(DomainError, match="delta"):
        PLD.from_pmfs(p, q).epsilon(1.5)
    with pytest.raises(DomainError, match="epsilon"):
        PLD.from_pmfs(p, q).delta(float("nan"))


# ----------------------------------------------------------------------------- the shuffle clone pair


def _clone_pair_pmfs(eps0, n):
    """The FMT21 clone pair (P, Q) of n shuffled eps0-LDP users as pmfs over the counts (a, b),
    enumerated from its definition at 40 digits (tests/shuffle/test_rounds.py's oracle), rounded
    to floats once."""
    from tests.shuffle.test_rounds import _clone_pair_laws

    P, Q = _clone_pair_laws(eps0, n)
    keys = sorted(P)
    return keys, [float(P[k]) for k in keys], [float(Q.get(k, 0)) for k in keys]


def _dp_accounting_bracket(p, q, rounds, epsilons):
    """dp_accounting's optimistic and pessimistic delta of the T-fold product (their
    discretisation: losses rounded down / up; their stated truncation: at most 1e-15 of tail mass
    per composition, to infinity (pessimistic) or dropped (optimistic))."""
    from dp_accounting.pld import privacy_loss_distribution as dpa

    lp = {i: math.log(v) for i, v in enumerate(p) if v > 0}
    lq = {i: math.log(v) for i, v in enumerate(q) if v > 0}
    out = {}
    for pessimistic in (False, True):
        pld = dpa.from_two_probability_mass_functions(lq, lp, pessimistic_estimate=pessimistic,
                                                      value_discretization_interval=1e-4)
        composed = pld.self_compose(rounds) if rounds > 1 else pld
        out[pessimistic] = [float(composed.get_delta_for_epsilon(e)) for e in epsilons]
    return out[False], out[True]


#: dp_accounting's stated error per composition (tail mass truncated in self_compose), and a
#: margin for its float64 FFT, whose round-off it does not bound (a few ulps of each mass summed
#: over about 1e5 grid points)
DPA_TAIL = 1e-15
DPA_FLOAT = 1e-12


@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 50, 10), (2.0, 100, 25), (0.5, 200, 50), (1.0, 150, 10)])
def test_rounds_pld_against_dp_accounting_on_the_clone_pair(eps0, n, rounds):
    """Issue 10, item 5: on the same pmfs (the clone pair, enumerated here) the same delta(eps)
    to within the stated discretisation error: ours (pessimistic, connect-the-dots split, an
    upper bound whose interval holds every float error) lies between dp_accounting's optimistic
    (losses rounded down) and pessimistic (rounded up) deltas, widened by their stated truncation
    and our interval; the split is tighter than rounding up, so ours is at most theirs. Both our
    routes: rounds_pld (bucketed counts, each count exact at these n) and PLD.from_pmfs on the
    same pmfs."""
    from dptheory.shuffle.rounds import rounds_pld

    _, p, q = _clone_pair_pmfs(eps0, n)
    epsilons = [0.0, 0.25, 0.5, 1.0, 2.0]
    opt, pess = _dp_accounting_bracket(p, q, rounds, epsilons)
    ours_rounds = rounds_pld(eps0, n, rounds)
    ours_pmfs = PLD.from_pmfs(p, q).self_compose(rounds)
    ours_low = rounds_pld(eps0, n, rounds, pessimistic=False)
    tol = rounds * DPA_TAIL + DPA_FLOAT
    inside = 0
    for e, t_lo, t_hi in zip(epsilons, opt, pess):
        for ours in (ours_rounds.delta(e), ours_pmfs.delta(e)):
            assert ours.kind.value == "upper"
            assert ours.upper >= t_lo - tol, (e, ours.upper, t_lo)           # above their lower bound
            assert ours.lower <= t_hi + tol + 1e-9 * t_hi, (e, ours.lower, t_hi)  # below their upper bound
            inside += t_lo - tol <= ours.upper <= t_hi + tol + ours.width
        low = ours_low.delta(e)
        assert low.lower <= t_hi + tol and low.kind.value == "lower"
    assert inside == 2 * len(epsilons)


def test_koskela_style_pld_of_the_clone_pair_without_pessimistic_rounding_is_inside_our_interval():
    """Koskela, Heikkila, Honkela ("Tight accounting in the shuffle model of differential
    privacy") compute the PLD of the FMT21 clone pair with the FFT accountant, placing each atom's
    loss on a grid without a pessimistic rule. Their published numbers are in figures, not
    digits; their method's quantity is reproduced here independently: the clone pair's PLD with
    every loss rounded to the NEAREST grid point (a finer grid, 2e-5), composed by a plain numpy
    FFT, delta read off directly. It must lie in [our optimistic lower bound, our pessimistic
    upper bound] (interval 1e-4), within its own nearest-rounding error (about the grid step
    times delta's slope, bounded here by 2e-5 * T * delta(eps - T 2e-5) / ...: we allow 1e-3
    relative), and ours must be close to it (the price of certification: below 1e-3 relative)."""
    from dptheory.shuffle.rounds import rounds_pld

    eps0, n, rounds = 1.0, 100, 20
    _, p, q = _clone_pair_pmfs(eps0, n)
    p, q = np.array(p), np.array(q)
    step = 2e-5
    live = p > 0
    loss = np.log(p[live]) - np.log(q[live])
    idx = np.rint(loss / step).astype(int)
    lo = int(idx.min())
    grid = np.bincount(idx - lo, weights=p[live])
    size = 1 << int(math.ceil(math.log2(len(grid) * rounds + 1)))
    composed = np.fft.irfft(np.fft.rfft(grid, size) ** rounds, size)
    composed = np.maximum(composed, 0.0)
    losses = (lo * rounds + np.arange(size)) * step
    for e in (0.25, 0.5, 1.0):
        theirs = float(np.sum(composed * np.maximum(0.0, 1 - np.exp(e - losses))))
        upper = rounds_pld(eps0, n, rounds).delta(e)
        lower = rounds_pld(eps0, n, rounds, pessimistic=False).delta(e)
        assert lower.lower * (1 - 1e-3) - 1e-12 <= theirs <= upper.upper * (1 + 1e-3) + 1e-12, (e, lower, theirs, upper)
        assert upper.upper <= theirs * (1 + 1e-3) + 1e-12


def _wide_pld(tilt, pessimistic=True, tail_mass=0.0):
    """A PLD on 600 grid points (past direct convolution), masses of a discretised Gaussian loss
    and an atom at +inf, built directly (the masses are the held ones: exact by definition)."""
    k = np.arange(-300, 300)
    lm = -0.5 * ((k - 40) / 90.0) ** 2
    lm = lm - float(np.log(np.sum(np.exp(lm)))) + math.log1p(-1e-6)
    return PLD(1e-3, -300, lm, math.log(1e-6), pessimistic=pessimistic, tilt=tilt, tail_mass=tail_mass)


@pytest.mark.parametrize("tilt, tail_mass", [(0.0, 0.0), (2.0, 0.0), (2.0, 1e-16), (0.0, 1e-16)])
def test_fft_power_against_the_exact_composition(tilt, tail_mass):
    """The T-fold composition by one FFT power (T = 8) against the exact convolution of the held
    masses in extended precision: every held mass within its relative error plus absolute errors
    whose tilted sum is at most abs_error; what the window leaves out at +inf (pessimistic) within
    the +inf atom's error."""
    T = 8
    step = _wide_pld(tilt, tail_mass=tail_mass)
    out = step._fft_power(T)
    assert out is not None
    a = np.exp(step.log_mass.astype(np.longdouble))
    exact = a
    for _ in range(3):
        exact = np.convolve(exact, exact)
    first = T * step.offset
    held = np.zeros(len(exact), dtype=np.longdouble)
    lo = out.offset - first
    held[lo:lo + len(out)] = np.exp(out.log_mass.astype(np.longdouble))
    grid = (first + np.arange(len(exact))) * step.interval
    diff = np.abs(exact - held) - out.rel_error * held
    excess = np.maximum(diff, 0)
    above = np.arange(len(exact)) >= lo + len(out)
    exact_inf = -math.expm1(T * math.log1p(-1e-6))
    assert exact_inf <= out.inf_mass * (1 + out.rel_error) + out.inf_error
    # every difference is covered: absolute errors (tilted sum) below the held support and in
    # it; above it, mass the window sent to +inf (within inf_error) or absolute errors
    weights = np.exp(tilt * grid.astype(np.longdouble))
    tilted = float(np.sum((excess * weights)[~above]))
    slack_above = float(np.sum((excess * weights)[above])) - out.inf_error * float(np.max(weights[above], initial=0))
    assert tilted + max(slack_above, 0.0) <= out.abs_error, (tilted, slack_above, out.abs_error)
    assert out.abs_error < 1e-9 * math.exp(T * step.log_moment(tilt))  # not vacuous


def test_fft_power_deltas_bracket_the_exact_composition(monkeypatch):
    """Pessimistic and optimistic PLDs of a binomial pair (Bin(500, 0.5) against Bin(500, 0.51):
    at least 501 grid points, past direct convolution) composed 64 times (squarings, then one
    FFT power, counted) bracket the delta of the exact 64-fold product, Bin(32000, 0.5) against
    Bin(32000, 0.51), summed here term by term."""
    from scipy.stats import binom
    from scipy.special import logsumexp as lse

    calls = _count_calls(monkeypatch, "_fft_power")
    m, T = 500, 64
    k = np.arange(m + 1)
    p, q = binom.pmf(k, m, 0.5), binom.pmf(k, m, 0.51)
    pess = PLD.from_pmfs(p, q, interval=1e-3).self_compose(T)
    opt = PLD.from_pmfs(p, q, interval=1e-3, pessimistic=False).self_compose(T)
    assert len(calls) == 2 and min(calls) >= 4
    kk = np.arange(m * T + 1)
    lp, lq = binom.logpmf(kk, m * T, 0.5), binom.logpmf(kk, m * T, 0.51)
    for eps in (0.5, 2.0, 4.0):
        keep = lp - lq > eps
        exact = math.exp(lse(lp[keep] + np.log(-np.expm1(eps - (lp[keep] - lq[keep])))))
        hi, lo = pess.delta(eps).upper, opt.delta(eps).lower
        assert lo <= exact * (1 + 1e-9) and exact <= hi * (1 + 1e-9), (eps, lo, exact, hi)
        assert hi <= 1.05 * exact


def _three_point(c: float, d: float) -> PLD:
    """The PLD of a pair whose losses are -d, 0, d exactly (grid ``d``): P-masses c e^-d, 1 - c -
    c e^-d, c, so that the Q-masses (P e^-loss) sum to 1 as well."""
    a = c * math.exp(-d)
    return PLD(d, -1, np.log([a, 1 - a - c, c]), -math.inf, tilt=4.0)


def test_a_few_points_composed_a_thousand_times_take_one_fft_power_and_bracket_the_exact_law(monkeypatch):
    """A three-point PLD (the one-round PLD of the shuffle at n = 1e12 is one) composed 1000
    times: its composition grows past direct convolution, so it takes a few squarings and one
    FFT power (counted: 14 convolutions before, and the power's window the whole support), on a
    window sized by the spread of the composed losses (its FFT error bound below 1e-11, 3.1e-11
    on the whole support). The deltas bracket the exact T-fold law, a trinomial summed here in
    log space term by term (losses exactly on the grid: no discretisation)."""
    from scipy.special import gammaln, logsumexp as lse

    c, d, T = 0.006, 1e-4, 1000
    one = _three_point(c, d)
    powers = _count_calls(monkeypatch, "_fft_power")
    convolutions = []
    real = PLD._compose

    def counting(self, other, direct_max):
        convolutions.append(len(self) * len(other))
        return real(self, other, direct_max)

    monkeypatch.setattr(PLD, "_compose", counting)
    out = one.self_compose(T)
    assert len(powers) == 1 and len(convolutions) <= 8
    assert out.abs_error < 1e-11
    # exact: k_plus - k_minus = j, the rest at 0
    a = c * math.exp(-d)
    kp, km = np.meshgrid(np.arange(T + 1.0), np.arange(T + 1.0), indexing="ij")
    ok = kp + km <= T
    kp, km = kp[ok], km[ok]
    k0 = T - kp - km
    log_p = (gammaln(T + 1.0) - gammaln(kp + 1) - gammaln(km + 1) - gammaln(k0 + 1)
             + kp * math.log(c) + km * math.log(a) + k0 * math.log1p(-a - c))
    loss = (kp - km) * d
    # the widths: float error only (1e-6 relative at delta 7e-5; near the error floor at 2e-12)
    for eps, width in ((0.0005, 1e-5), (0.0015, 1e-3), (0.002, 0.5)):
        keep = loss > eps
        exact = math.exp(lse(log_p[keep] + np.log(-np.expm1(eps - loss[keep]))))
        res = out.delta(eps)
        assert res.lower * (1 - 1e-9) <= exact <= res.upper * (1 + 1e-9), (eps, res.lower, exact, res.upper)
        assert res.upper - res.lower <= width * exact, (eps, (res.upper - res.lower) / exact)


def test_grid_ends_are_the_rounded_ends():
    """discretise_atoms's grid indices by plain floats (pld._grid_ends) are the floor and ceiling
    of the directed-rounded ends, integer for integer: random quotients and errors, quotients on
    and next to integers, zeros and subnormals."""
    from dptheory import rounding

    rng = np.random.default_rng(5)
    ints = np.arange(-40, 40, dtype=float)
    q = np.concatenate([rng.uniform(-1e4, 1e4, 20000), ints, ints + 1e-13, ints - 3e-16 * (1 + np.abs(ints)),
                        rng.normal(size=200) * 1e-300, [0.0, -0.0, 5e-324]])
    e_q = np.concatenate([rng.uniform(0, 1e-9, 20000), np.zeros(80), np.full(80, 1e-14), np.zeros(80),
                          np.zeros(200), [0.0, 1e-300, 0.0]])
    k, top = pld_module._grid_ends(q, e_q)
    u = 2.0**-53
    assert np.array_equal(k, np.floor(rounding.down(q, e_q, 4 * u)).astype(np.int64))
    assert np.array_equal(top, np.ceil(rounding.up(q, e_q, 4 * u)).astype(np.int64))
