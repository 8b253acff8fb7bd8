"""The shuffle numerics at every scale: supported ranges (n, rounds, rtol) refused with the range,
bounded memory and time on every valid input, no value shown as 0 for a positive quantity, the
RDP cap of eps0-DP, the gdp digits path never looser than the float path, and the evaluations
an inversion saves by its caches. Each new path has an independent oracle (mpmath at 50 digits,
exact enumeration)."""

from __future__ import annotations

import math
import os
import resource
import subprocess
import sys

import mpmath
import numpy as np
import pytest

from dptheory import profile, validate
from dptheory.results import Curve, Inapplicable
from dptheory.shuffle import blanket, methods, pair_renyi, pairs, rounds
from dptheory.shuffle import variation_ratio as vr
from dptheory.shuffle.binomial_sums import N_MAX, _split, refine_buckets
from dptheory.shuffle.randomizers import binary_rr, general_ldp
from dptheory.shuffle import rdp as shuffle_rdp
from dptheory.shuffle.rdp.methods import RTOL_MIN as RDP_RTOL_MIN, pure_dp_rdp_cap

NUMERICAL = ("variation-ratio", "variation-ratio-labelled", "variation-ratio-lower", "clones", "stronger-clones")


# ----------------------------------------------------------------------------- large n


@pytest.mark.parametrize("n", [10**15 + 2, 10**17, 10**20, 10**30])
def test_numerical_methods_say_where_they_stop_and_closed_forms_answer(n):
    """Beyond the range of the certified binomial sums (n - 1 <= 1e15) the numerical methods are
    not applicable with the range in the reason; the closed forms still answer, finite and
    positive, without object-dtype arithmetic (a Python int above 2^63 once reached numpy)."""
    rows = methods.compare(general_ldp(1.0), n, delta=1e-8)
    by = {r.method: r for r in rows}
    for name in NUMERICAL:
        assert isinstance(by[name], Inapplicable), name
        assert "1e+15" in by[name].reason
    for name in ("clones-closed-form", "blanket-hoeffding", "blanket-bennett"):
        res = by[name]
        assert not isinstance(res, Inapplicable), name
        assert 0 < res.lower <= res.upper < 1.0


def test_count_pair_and_renyi_sums_refuse_beyond_their_range():
    with pytest.raises(validate.DomainError, match="1e\\+15"):
        pairs.CountPair(N_MAX + 1, 0.5, 0.7, 0.3)
    pairs.CountPair(N_MAX, 0.5, 0.7, 0.3)  # the edge is inside
    pair = pairs.CountPair(pair_renyi.RENYI_N_MAX + 1, 0.5, 0.7, 0.3)
    for fn in (pair_renyi.renyi_curve, pair_renyi.renyi, pair_renyi.renyi_log_excess):
        with pytest.raises(validate.DomainError, match="1e\\+12"):
            fn(pair, [2.0] if fn is pair_renyi.renyi_curve else 2.0)
    curve = shuffle_rdp.rdp_curve("chen-exact", 1.0, 10**13, [2.0, 4.0])
    assert isinstance(curve, Inapplicable) and "1e+12" in curve.reason


def test_rounds_and_n_of_composed_rounds_are_refused_with_their_range():
    with pytest.raises(validate.DomainError, match=str(rounds.ROUNDS_MAX)):
        rounds.rounds_delta(1.0, 1000, 10**12, 0.5)
    with pytest.raises(validate.DomainError, match=str(N_MAX)):
        rounds.rounds_delta(1.0, 10**20, 10, 0.5)


def test_window_sums_in_chunks_equal_one_pass(monkeypatch):
    """The windows of counts of the Renyi conditionals, summed in chunks of bounded size, give
    the same values as in one pass (the chunks are independent problems), up to the rounding of
    the running sums (which each error bound covers)."""
    tps = np.array([0.7, 0.6, 0.55, 0.8])
    tqs = np.array([0.3, 0.4, 0.45, 0.2])
    js = np.array([3000.0, 50000.0, 200.0, 12345.0])
    whole = pair_renyi._log_renyi_conditionals(tps, tqs, js, 0.3, 8.0, 1e-6)
    monkeypatch.setattr(pair_renyi, "_WINDOW_CHUNK", 64)
    chunked = pair_renyi._log_renyi_conditionals(tps, tqs, js, 0.3, 8.0, 1e-6)
    assert np.all(np.abs(np.exp(whole[0]) - np.exp(chunked[0])) <= np.exp(whole[1]) + np.exp(chunked[1]))
    np.testing.assert_allclose(whole[0], chunked[0], rtol=1e-12)
    np.testing.assert_allclose(whole[1], chunked[1], rtol=1e-6)


def _run_limited(args, memory_bytes=2 * 1024**3, cpu_seconds=60):
    """Run the command line in a subprocess under an address-space and CPU-time limit (a limit,
    not a timed assertion: past it the process is killed and the test fails)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))

    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-m", "dptheory", *args], capture_output=True, text=True,
                          preexec_fn=limit, env=env, timeout=300)


@pytest.mark.parametrize("args, code", [
    (["shuffle", "--n", "1e17"], 0),
    (["shuffle", "--n", "1e20", "--epsilon", "1e-4"], 0),
    (["rdp", "--n", "1e15"], 0),
    (["rdp", "--n", "1e20"], 0),
    (["fdp", "shuffle", "--n", "1e20", "--epsilon", "1e-4"], 2),
    (["fdp", "shuffle", "--rounds", "1e12", "--epsilon", "0.5"], 2),
    (["shuffle", "--rtol", "1e-12"], 2),
    (["rdp", "--rtol", "1e-12"], 2),
])
def test_large_inputs_answer_or_refuse_within_2_gb_and_a_minute(args, code):
    out = _run_limited(args)
    assert out.returncode == code, out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    assert "RuntimeWarning" not in out.stderr
    if code == 2:
        assert "must be" in out.stderr  # the range is named


# ----------------------------------------------------------------------------- values shown


def _mp_bennett_log_delta(e0, n, e):
    """log of the Bennett blanket bound for the generic eps0-LDP class at 50 digits, from the
    constants' defining forms (module docstring of dptheory.shuffle.blanket)."""
    with mpmath.workdps(50):
        e0, e, n = mpmath.mpf(e0), mpmath.mpf(e), mpmath.mpf(n)
        g = mpmath.exp(-e0)
        a = mpmath.expm1(e)
        b_plus = mpmath.exp(e0) * (1 - mpmath.exp(e - 2 * e0))
        c = mpmath.exp(e0) * (a * a + 2 * mpmath.exp(e) * (1 - mpmath.exp(-4 * e0)))
        alpha, beta = c / b_plus**2, a * b_plus / c
        t = alpha * ((1 + beta) * mpmath.log1p(beta) - beta)
        total = (1 - g + g * mpmath.exp(-t)) ** n - (1 - g) ** n
        return mpmath.log(total * b_plus / (mpmath.log1p(beta) * g * n))


@pytest.mark.parametrize("n", [10**3, 10**6, 10**12, 10**15, 10**20])
@pytest.mark.parametrize("e", [1e-9, 1e-6, 1e-3, 0.3])
def test_bennett_blanket_matches_mpmath_at_every_n(n, e):
    """The Bennett bound summed as (1 - x)^n (1 - e^-s): its float value within its error bound
    of the 50-digit value, and that bound narrow (the form (1 - gamma)^n expm1(s) carried n times
    the error of log(1 - gamma), and at n >= 1e15 the lower end of epsilon was 0)."""
    value, err = blanket._log_delta("bennett", "generic", 1.0, n, e, None)
    exact = float(_mp_bennett_log_delta(1.0, n, e))
    assert abs(value - exact) <= err
    assert err <= 1e-9 * (1 + abs(exact))


def test_bennett_epsilon_has_a_positive_lower_end_at_large_n():
    lo, hi = blanket.epsilon("bennett", "generic", 1.0, 10**20, 1e-8)
    assert 0 < lo <= hi <= lo * (1 + 1e-4)


@pytest.mark.parametrize("method", ["variation-ratio-analytic", "variation-ratio-asymptotic", "clones-closed-form"])
@pytest.mark.parametrize("epsilon", [0.1, 0.5])
def test_closed_form_delta_below_the_float_range_has_both_ends(method, epsilon):
    """delta(epsilon) of a closed form far below the float range: a positive lower end (it was
    [0, 9.86e-305]) and an enclosure checked by the form itself at 50 digits: eps(e^log_upper)
    <= epsilon <= eps(e^log_lower), up to the form's stated error."""
    from dptheory import rounding

    rz = general_ldp(1.0)
    res = methods.METHODS[method].delta(rz, 10**6, epsilon)
    assert res.log_lower > -math.inf
    if epsilon == 0.5:
        assert res.log_upper < -700  # below the float range
    closed = methods.METHODS[method].closed_epsilon
    with mpmath.workdps(50):
        at_upper = closed(rz, 10**6, mpmath.exp(mpmath.mpf(res.log_upper)), digits=50)
        assert at_upper * (1 + rounding.CLOSED_FORM_RTOL) <= epsilon * (1 + 1e-12)
        at_lower = closed(rz, 10**6, mpmath.exp(mpmath.mpf(res.log_lower)), digits=50)
        assert at_lower * (1 - rounding.CLOSED_FORM_RTOL) >= epsilon * (1 - 1e-12)
    assert res.log_upper - res.log_lower <= 1e-6 * abs(res.log_upper)


def test_rdp_upper_rows_are_capped_at_the_rdp_of_eps0_dp():
    """At n = 2 the Girgis upper bounds exceed eps0 (192 at order 64): shown capped at
    min(eps0, lambda eps0^2/2), with a note. The cap is checked against the exact RDP of shuffled
    binary randomized response by enumeration (a lower bound on the class: below the cap), and
    the uncapped function is unchanged."""
    orders = np.array([1.5, 2.0, 4.0, 16.0, 64.0])
    for eps0 in (0.5, 1.0, 3.0):
        cap = pure_dp_rdp_cap(eps0, orders)
        exact = shuffle_rdp.exact_rdp(binary_rr(eps0), 2, orders)
        assert np.all(exact <= cap)
        for name in ("girgis-upper-1", "girgis-upper-2", "erlingsson-rdp"):
            c = shuffle_rdp.rdp_curve(name, eps0, 2, orders, cap=True)
            assert isinstance(c, Curve)
            assert np.all(c.upper <= cap)
            assert np.all(c.lower <= c.upper)
            assert np.all(c.upper >= exact)
    c = shuffle_rdp.rdp_curve("girgis-upper-2", 1.0, 2, orders, cap=True)
    assert "capped at min(eps0, lambda eps0^2/2)" in c.note and "Bun and Steinke 2016" in c.note
    raw = shuffle_rdp.upper_2(1.0, 2, orders)
    assert np.max(raw) > 1.0  # the paper's value, for figures, is kept
    assert np.max(shuffle_rdp.rdp_curve("girgis-upper-2", 1.0, 2, orders).upper) > 1.0  # cap=False: the paper's
    out = _run_limited(["rdp", "--n", "2", "--orders", "2,64", "--methods", "girgis-upper-2"])
    assert out.returncode == 0 and "capped at min(eps0, lambda eps0^2/2)" in out.stdout.replace("\n      ", " ")


def test_rdp_cap_leaves_lower_bounds_and_tight_upper_bounds_alone():
    orders = np.array([2.0, 8.0])
    c = shuffle_rdp.rdp_curve("chen-exact", 1.0, 10**6, orders, cap=True)
    assert "capped" not in c.note
    low = shuffle_rdp.rdp_curve("exact", 50.0, 2, orders, cap=True)
    assert "capped" not in low.note


@pytest.mark.parametrize("kwargs", [{"delta": 1e-6}, {"epsilon": 1.0}, {"delta": 1e-30}])
@pytest.mark.parametrize("digits", [15, 20])
def test_gdp_digits_never_looser_than_the_float_path(kwargs, digits):
    """Asking for digits gives an interval no wider than the float path's (5 digits gave
    [4.708, 5.253] around 4.88655; fewer than 15 are now refused, see the next test), containing
    the 50-digit value of the profile or its inverse."""
    fast = profile.gdp(1.0, **kwargs)
    slow = profile.gdp(1.0, digits=digits, **kwargs)
    assert slow.upper - slow.lower <= max(fast.upper - fast.lower, 4 * np.spacing(fast.upper))
    with mpmath.workdps(50):
        if "epsilon" in kwargs:
            value = profile.GDP_DELTA.mpmath(50)(1.0, kwargs["epsilon"])
            assert slow.lower <= value <= slow.upper
        else:
            f = profile.GDP_DELTA.mpmath(50)
            assert f(1.0, mpmath.mpf(slow.lower)) >= kwargs["delta"] >= f(1.0, mpmath.mpf(slow.upper))


@pytest.mark.parametrize("digits", [5, 8])
def test_gdp_digits_below_float_precision_are_refused(digits):
    with pytest.raises(validate.DomainError, match=r"digits = %d is invalid.*\[15, 1000\]" % digits):
        profile.gdp(1.0, delta=1e-6, digits=digits)


def test_rtol_below_the_supported_range_is_refused_with_it():
    with pytest.raises(validate.DomainError, match=f"{methods.RTOL_MIN:g}"):
        methods.epsilon(general_ldp(1.0), 10**6, 1e-8, "clones", rtol=1e-12)
    with pytest.raises(validate.DomainError, match=f"{methods.RTOL_MIN:g}"):
        methods.compare(general_ldp(1.0), 10**6, delta=1e-8, rtol=1e-12)
    with pytest.raises(validate.DomainError, match="0.0001"):
        shuffle_rdp.rdp_curves(1.0, 10**6, [2.0], rtol=RDP_RTOL_MIN / 10)


# ----------------------------------------------------------------------------- doing less


def test_an_inversion_computes_each_buckets_weights_once(monkeypatch):
    """The epsilon-free data of the buckets (weights, conditional thetas) are computed once per
    bucket across the epsilon evaluations of one inversion (the pair is rebuilt at each epsilon:
    the cache is keyed by its parameters); the result is the one computed without the cache."""
    pairs._BUCKET_CACHES.clear()
    uncached = vr.labelled_log_delta(math.e, math.tanh(0.5), math.e, 10**6 - 1, 0.004, uniform=True, rtol=1e-6)
    rows, keys = [0], set()
    original = pairs.CountPair._log_weights

    def counting(self, ma, mb):
        rows[0] += np.size(ma)
        keys.update(zip(np.atleast_1d(ma).tolist(), np.atleast_1d(mb).tolist()))
        return original(self, ma, mb)

    monkeypatch.setattr(pairs.CountPair, "_log_weights", counting)
    pairs._BUCKET_CACHES.clear()
    res = methods.METHODS["variation-ratio-labelled"].epsilon(general_ldp(1.0), 10**6, 1e-8)
    assert res.lower > 0
    assert rows[0] == len(keys)  # no bucket twice
    again = vr.labelled_log_delta(math.e, math.tanh(0.5), math.e, 10**6 - 1, 0.004, uniform=True, rtol=1e-6)
    assert (again.log_lower, again.log_upper) == (uncached.log_lower, uncached.log_upper)


def test_split_covers_each_bucket_exactly():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 10**6, 500).astype(float)
    b = a + rng.integers(0, 40, 500)
    first, last = _split(a, b)
    assert np.all(first <= last)
    # pieces in order, contiguous, covering [a, b] bucket by bucket
    starts = np.isin(first, a)
    assert starts.sum() >= len(np.unique(a))
    assert int((last - first + 1).sum()) == int((b - a + 1).sum())
    for x, y in zip(a[:50], b[:50]):
        sel = (first >= x) & (last <= y)
        covered = np.concatenate([np.arange(f, l + 1) for f, l in zip(first[sel], last[sel])])
        assert np.array_equal(np.unique(covered), np.arange(x, y + 1))


def test_refined_sum_matches_a_direct_sum():
    """refine_buckets with the vectorised split: a monotone sum enclosed (direct float sum as the
    oracle, far inside the enclosure's width)."""
    m = np.arange(0, 5000.0)
    f = np.exp(-m / 300.0)
    exact = math.log(f.sum())

    def bounds(ma, mb):
        hi = np.log(np.exp(-ma / 300.0) * (mb - ma + 1))
        lo = np.log(np.exp(-mb / 300.0) * (mb - ma + 1))
        return hi, lo, np.full(ma.shape, -np.inf)

    enc, _, _ = refine_buckets(bounds, np.array([0.0, 100.0]), np.array([99.0, 4999.0]), 1e-6)
    assert enc.log_lower <= exact <= enc.log_upper
    assert -math.expm1(enc.log_lower - enc.log_upper) <= 1e-6


def test_labelled_maximisation_with_a_band_decides_the_same_side():
    """The labelled bound over beta' (a non-uniform randomizer) with the inverter's band: where it
    stops early its end is consistent with the full maximisation's enclosure (a lower end above
    the band is below the full upper end; an upper end below the band is above the full lower
    end), and it remembers the maximiser for the next epsilon."""
    from dptheory.shuffle.randomizers import laplace

    rz = laplace(1.0)
    n = 1000
    target = math.log(1e-4)
    band = (target - 1e-12, target + 1e-12)
    for e in (0.2, 0.9):
        full = vr.labelled_log_delta(rz.p, rz.beta, rz.q, n - 1, e, uniform=False, rtol=1e-3)
        memory: dict = {}
        quick = vr.labelled_log_delta(rz.p, rz.beta, rz.q, n - 1, e, uniform=False, rtol=1e-3, band=band,
                                      memory=memory)
        assert quick.log_lower <= full.log_upper and full.log_lower <= quick.log_upper
        assert quick.log_lower > band[1] or quick.log_upper <= band[0] or quick.log_upper - quick.log_lower < 1e-2
        assert 0 < memory["best"] <= rz.beta


def _count_pair_evaluations(monkeypatch) -> list[int]:
    """A one-item list counting the calls of ``CountPair.log_delta`` from now on."""
    count = [0]
    original = pairs.CountPair.log_delta

    def counting(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pairs.CountPair, "log_delta", counting)
    return count


@pytest.mark.slow
def test_labelled_inversion_with_decide_evaluates_fewer_pairs(monkeypatch):
    """One inversion with ``decide`` evaluates fewer count pairs than without, for an overlapping
    bracket."""
    from dptheory.shuffle.randomizers import laplace

    rz, n = laplace(1.0), 1000
    count = _count_pair_evaluations(monkeypatch)
    m = methods.METHODS["variation-ratio-labelled"]
    with_decide = m.epsilon(rz, n, 1e-4)
    decided = count[0]
    count[0] = 0
    plain = methods.Method(**{**{f.name: getattr(m, f.name) for f in methods.dataclasses.fields(m)},
                              "decide_log_delta": None}).epsilon(rz, n, 1e-4)
    assert decided < count[0]
    assert with_decide.lower <= plain.upper and plain.lower <= with_decide.upper


@pytest.mark.parametrize("name", ["variation-ratio-labelled", "clones", "variation-ratio-lower"])
@pytest.mark.parametrize("eps0, n", [(8.0, 1000), (4.0, 10)])
def test_no_amplification_is_known_after_one_evaluation(monkeypatch, name, eps0, n):
    """Below the point where amplification is possible (the Gaussian approximation's epsilon is
    above log p) one evaluation just below the cap settles the bracket [cap (1 - rtol), cap]; the
    full inversion (the probe disabled) lands in it, and the exact value by enumeration (binary
    randomized response, n = 10) is within the upper bounds' brackets' reach."""
    m = methods.METHODS[name]
    rz = general_ldp(eps0)
    count = [0]
    original = m.log_delta

    def counting(*args):
        count[0] += 1
        return original(*args)

    # the evaluation's path: without the closed-form floor, which decides these with none
    # (tests/shuffle/test_delta_floor.py)
    quick_method = methods.Method(**{**{f.name: getattr(m, f.name) for f in methods.dataclasses.fields(m)},
                                     "log_delta": counting, "floor_log_delta": None})
    quick = quick_method.epsilon(rz, n, 1e-8)
    assert count[0] == 1 and "no amplification here" in quick.note
    monkeypatch.setattr(methods, "_no_amplification", lambda *args: None)
    full = m.epsilon(rz, n, 1e-8)
    assert quick.lower <= full.upper and full.lower <= quick.upper
    assert quick.upper - quick.lower <= 1e-3 * quick.upper + 1e-12
    if n == 10 and m.kind.value == "upper":
        exact = methods.METHODS["exact"].epsilon(binary_rr(eps0), n, 1e-8)
        assert exact.lower <= quick.upper


def test_labelled_bound_that_cannot_amplify_knows_it_in_a_few_evaluations(monkeypatch):
    """The labelled bound of a non-uniform randomizer is a maximum over beta' <= beta, which at
    large n sits where about one other user sends a clone: it barely amplifies (Laplace, eps0 = 1,
    n = 1e6, delta = 1e-8: 0.990 of eps0), and its inversion took 497 pair evaluations (10 s). A
    probe at three such beta' certifies delta above the target at 0.95 log p: the method's epsilon
    is in [0.95 log p, log p], after 3 evaluations. The probe's lower end is checked against the
    pair's mpmath sum at 50 digits."""
    from dptheory.shuffle.randomizers import laplace

    rz, n, delta = laplace(1.0), 10**6, 1e-8
    count = _count_pair_evaluations(monkeypatch)
    res = methods.METHODS["variation-ratio-labelled"].epsilon(rz, n, delta)
    assert count[0] <= 3 and "less than 5%" in res.note
    cap = math.log(rz.p)
    assert res.lower == pytest.approx(0.95 * cap) and cap <= res.upper <= cap * (1 + 1e-12)
    # the oracle: the labelled bound at the probe's beta' (1/2, 1, 2 expected clones) at 50 digits
    e = res.lower
    oracles = []
    for clones_expected in (0.5, 1.0, 2.0):
        beta = clones_expected / (2 * n) * rz.q / rz.p * (rz.p - 1)
        factor, pair = vr.labelled_pair(rz.p, beta, rz.q, n - 1)
        value, _ = pair.mp_delta(e, digits=50)
        with mpmath.workdps(50):
            oracles.append(mpmath.mpf(factor) * value)
    probe = methods._labelled_probe(rz, n, e)
    assert max(oracles) > delta and probe <= float(mpmath.log(max(oracles))) + 1e-9
    # a uniform randomizer has no probe (its bound is one evaluation): general eps0-LDP inverts as before
    assert methods._labelled_probe(general_ldp(1.0), n, e) is None


def test_a_delta_far_below_the_float_range_has_a_positive_lower_end_in_log_space():
    """At n = 1e15, epsilon = 0.1 the clone pair's delta is about e^-2.15e12: the bucketed sum's
    float error (absolute) swamped it and the lower end was -inf (shown as 0). The lower end is now
    one outcome's contribution computed in log space; checked against that outcome's probability
    written out here with mpmath log-gammas at 50 digits (the divergence is at least it)."""
    from dptheory.shuffle import clones

    n, e = 10**15, 0.1
    pair = clones.clone_pair(1.0, n)
    enc = pair.log_delta(e, rtol=1e-3)
    assert -3e12 < enc.log_lower <= enc.log_upper < -1e12
    best = pair._best_atoms(np.array([float(n) * math.exp(-1.0)]), math.exp(e))
    m, a = int(best[1]), int(best[2])
    with mpmath.workdps(50):
        s = mpmath.exp(-1)  # the clone pair's clone probability e^-eps0, victim always present
        tp = mpmath.e / (mpmath.e + 1)
        tq = 1 - tp
        g = mpmath.exp(mpmath.mpf(e))
        def log_binom(k, trials, prob):
            return (mpmath.loggamma(trials + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(trials - k + 1)
                    + k * mpmath.log(prob) + (trials - k) * mpmath.log(1 - prob))
        half = mpmath.mpf(1) / 2
        log_w = log_binom(m - 1, n - 1, s)
        b0, b1 = log_binom(a - 1, m - 1, half), log_binom(a, m - 1, half)
        atom = log_w + b1 + mpmath.log((tp - g * tq) * mpmath.exp(b0 - b1) + (1 - tp) - g * (1 - tq))
    assert pair._mp_log_atom(e, m, a) <= float(atom) + 1e-6 * abs(float(atom))
    assert pair._mp_log_atom(e, m, a) >= float(atom) - 1e-6 * abs(float(atom))


def test_one_outcome_lower_end_is_below_the_full_sum_at_50_digits():
    """The one-outcome lower end (used where the float lower end is lost) is below the pair's full
    mpmath sum and within a few e-folds of it (n = 300, a value the float path also gets)."""
    from dptheory.shuffle import clones

    pair = clones.clone_pair(1.0, 300)
    value, omitted = pair.mp_delta(0.9, digits=50)
    low = pair._log_lower_one_atom(0.9, pair._initial_edges())
    truth = float(mpmath.log(value))
    assert truth - 5 < low <= truth
