"""The closed-form lower bound on a count pair's delta (CountPair.log_delta_floor, derived here:
the outcomes where every message is of one type) and its use as the first check that a method
cannot amplify (methods._no_amplification): never above the value (brute-force pairs and the real
shuffled mechanism at 50 digits; the certified float enclosures at large n), deciding as the full
evaluation does on a grid of (eps0, n, delta), and sparing that evaluation where it decides
(counted)."""

import math

import mpmath
import pytest

from dptheory import rounding
from dptheory.shuffle import clones, methods, variation_ratio as vr
from dptheory.shuffle.randomizers import binary_rr, general_ldp
from tests.oracles import shuffle_oracle as O

EPS0S = (0.5, 2.0, 8.0)


def _epsilons(eps0):
    return (0.0, 0.3 * eps0, 0.9 * eps0, eps0 * (1 - 1e-3), eps0 * (1 - 1e-7))


def _log(x):
    return float(mpmath.log(x)) if x > 0 else -math.inf


@pytest.mark.parametrize("eps0", EPS0S)
@pytest.mark.parametrize("n", [2, 7])
def test_floor_is_below_the_brute_force_clone_pairs(eps0, n):
    """Both clone pairs (Feldman, McMillan, Talwar 2021 and 2023), every outcome summed at 50
    digits (the oracle builds the joint law from the random variables, not the count
    decomposition): floor <= log delta, in both directions of the pair."""
    with mpmath.workdps(60):
        big = mpmath.exp(mpmath.mpf(eps0))
        oracles = {"clones": O.clone_pair(n, eps0, 1 / big), "stronger": O.clone_pair(n, eps0, 2 / (big + 1))}
    pairs_ = {"clones": clones.clone_pair(eps0, n), "stronger": clones.stronger_clone_pair(eps0, n)}
    for name, (P, Q) in oracles.items():
        for e in _epsilons(eps0):
            floor = pairs_[name].log_delta_floor(e)
            assert floor is not None
            assert floor <= _log(O.hockey_stick(P, Q, e)), (name, e)
            back = pairs_[name].reversed().log_delta_floor(e)
            assert back is None or back <= _log(O.hockey_stick(Q, P, e)), (name, e)


@pytest.mark.parametrize("eps0", EPS0S)
def test_floor_is_below_the_variation_ratio_pair_and_the_real_shuffled_mechanism(eps0):
    """The variation-ratio pair of Wang et al. (2024) at the worst-case beta (brute force), and the
    pairs of their Theorem 5.1 for binary randomized response against the real shuffled mechanism
    on the dataset each stands for (the victim at x0 or x1, the others at x_star; every histogram
    at 50 digits): each pair is a post-processing of that mechanism."""
    n = 6
    p = math.exp(eps0)
    beta = (p - 1) / (p + 1)
    P, Q = O.variation_ratio_pair(n, p, beta, p)
    rz = binary_rr(eps0)
    with mpmath.workdps(60):
        rows = [[mpmath.mpf(x) for x in row] for row in rz.pmfs_exact()]
    for e in _epsilons(eps0):
        floor = vr.pair(p, beta, p, n - 1).log_delta_floor(e)
        assert floor is not None and floor <= _log(O.hockey_stick(P, Q, e)), e
        for x0, x1, xs, reverse in vr.lower_choices(rz.pmfs):
            pair = vr.lower_bound_pair(rz.pmfs, x0, x1, xs, n - 1)
            floor = (pair.reversed() if reverse else pair).log_delta_floor(e)
            if floor is None:
                continue
            d0, d1 = [x0] + [xs] * (n - 1), [x1] + [xs] * (n - 1)
            hist0, hist1 = O.shuffled_histogram(rows, d0), O.shuffled_histogram(rows, d1)
            real = O.hockey_stick(hist1, hist0, e) if reverse else O.hockey_stick(hist0, hist1, e)
            assert floor <= _log(real), (e, x0, x1, xs, reverse)


@pytest.mark.parametrize("eps0, n", [(1.0, 10**3), (8.0, 10**3), (8.0, 10**6), (20.0, 10**4)])
def test_floor_is_below_the_certified_enclosure_at_large_n(eps0, n):
    """At sizes the brute force cannot reach: the floor is at most the upper end of the pair's
    certified float enclosure (and, near eps0, within 1e-6 of it in log: the outcomes it keeps
    carry almost all of delta there)."""
    pair = clones.clone_pair(eps0, n)
    for e in _epsilons(eps0):
        enc = pair.log_delta(e, rtol=1e-3)
        floor = pair.log_delta_floor(e)
        assert floor <= enc.log_upper, (e, floor, enc)
    near = eps0 * (1 - 1e-3)
    if n * math.exp(-eps0) < 1:
        assert pair.log_delta(near, rtol=1e-8).log_upper - pair.log_delta_floor(near) < 1e-6


_FLOOR_METHODS = ("clones", "stronger-clones", "variation-ratio", "variation-ratio-labelled", "variation-ratio-lower")


@pytest.mark.parametrize("names, eps0s, ns, least", [
    (_FLOOR_METHODS, (0.5, 8.0), (2, 10**3), 12),
    pytest.param(_FLOOR_METHODS, (0.5, 2.0, 4.0, 6.0, 8.0, 10.0), (2, 10, 100, 10**3, 10**4, 10**6), 150,
                 marks=pytest.mark.slow),
])
def test_floor_decides_as_the_full_evaluation_on_a_grid(names, eps0s, ns, least):
    """At the point the no-amplification check asks about (epsilon = cap (1 - rtol)), the floor's
    decision (certainly above delta, or not known) is the full evaluation's on a grid of
    (eps0, n, delta), for every method that has a floor; where the floor says above, so does the
    evaluation (the floor is sound), and the converse holds on the grid too (the slow grid: 720
    points, 325 decided by the floor)."""
    decided = 0
    for name in names:
        m = methods.METHODS[name]
        for eps0 in eps0s:
            rz = general_ldp(eps0)
            probe = rounding.down(methods._eps_cap(rz) * (1 - 1e-3), rel_err=rounding.EPS)
            for n in ns:
                full = m.log_delta(rz, n, probe, 0.5)
                floor = m.floor_log_delta(rz, n, probe)
                for delta in (1e-2, 1e-4, 1e-8, 1e-12):
                    by_floor = floor is not None and floor > rounding.log_up(delta)
                    assert by_floor == (full.log_lower > rounding.log_up(delta)), (name, eps0, n, delta, floor, full)
                    decided += by_floor
    assert decided >= least


@pytest.mark.parametrize("name, randomizer", [(name, general_ldp) for name in (
    "clones", "stronger-clones", "variation-ratio", "variation-ratio-labelled", "variation-ratio-lower",
    "binary-rr-exact-lower")] + [("exact", binary_rr)])
def test_the_floor_spares_every_evaluation_where_it_decides(monkeypatch, name, randomizer):
    """eps0 = 8, n = 1e3, delta = 1e-8 (no amplification possible): the method's bound is not
    evaluated at all (neither its enclosure nor the inverter's decide), the bracket is
    [cap (1 - rtol), cap], and the full inversion (both quick checks disabled) lands in it."""
    m = methods.METHODS[name]
    rz = randomizer(8.0)
    calls = []

    def counted(fn):
        def wrapper(*args):
            calls.append(args[2])
            return fn(*args)
        return wrapper

    quick_method = methods.Method(**{**{f.name: getattr(m, f.name) for f in methods.dataclasses.fields(m)},
                                     "log_delta": counted(m.log_delta), "decide_log_delta": counted(m.decide_log_delta)})
    quick = quick_method.epsilon(rz, 1000, 1e-8, rtol=1e-3)
    assert calls == [] and "closed-form lower bound" in quick.note
    assert quick.upper == methods._eps_cap(rz) and quick.upper - quick.lower <= 1e-3 * quick.upper + 1e-12
    monkeypatch.setattr(methods, "_no_amplification", lambda *args: None)
    full = m.epsilon(rz, 1000, 1e-8, rtol=1e-3)
    assert quick.lower <= full.upper and full.lower <= quick.upper


def test_no_floor_where_the_victims_message_may_go_uncounted():
    """The floor needs the victim's message always counted (victim probability 1 exactly): the
    pairs of Theorem 5.1 for GRR on 3 options have an output favouring neither victim input, so
    they give no floor (the method falls back to one evaluation), while binary randomized
    response, whose outputs all favour one of the two, has one; so has a count pair whose victim
    is always present, and none has one whose victim may be silent."""
    from dptheory.shuffle.randomizers import grr

    assert methods._lower_pairs_floor(grr(8.0, 3), 1000, 7.99) is None
    assert methods._lower_pairs_floor(binary_rr(8.0), 1000, 7.99) > math.log(1e-8)
    p = math.e
    assert vr.pair(p, 0.5 * (p - 1) / (p + 1), p, 99).log_delta_floor(0.5) is None
    assert vr.pair(p, (p - 1) / (p + 1), p, 99).log_delta_floor(0.5) is not None
