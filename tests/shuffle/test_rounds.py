"""Composed shuffle rounds by the PLD of the clone pair: against the exact clone pair (enumerated
in mpmath, one round and its T-fold product), against the exact composed shuffle of binary
randomized response (tests/oracles/exact_shuffle.py), below the RDP route on the same pair,
bad input."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest

from dptheory.pld import PLD
from dptheory.results import Status
from dptheory.shuffle import rounds
from dptheory.shuffle.rdp import rdp_route_epsilon
from dptheory.shuffle.rounds import round_pld, rounds_delta, rounds_epsilon, rounds_pld
from dptheory.validate import DomainError

from tests.oracles import exact_shuffle


def _clone_pair_laws(eps0, n, dps=40, stronger=False):
    """The clone pair of Feldman, McMillan, Talwar (2021) by enumeration: laws of (a, b); with
    ``stronger`` the 2023 pair (clone probability 2/(e^eps0 + 1))."""
    with mpmath.workdps(dps):
        E = mpmath.exp(mpmath.mpf(eps0))
        s = 2 / (E + 1) if stronger else 1 / E
        tp, tq = E / (E + 1), 1 / (E + 1)
        P, Q = {}, {}
        for c in range(n):
            wc = mpmath.binomial(n - 1, c) * s**c * (1 - s) ** (n - 1 - c)
            for a in range(c + 1):
                wa = wc * mpmath.binomial(c, a) / mpmath.mpf(2) ** c
                for d, (pd, qd) in ((1, (tp, tq)), (0, (tq, tp))):
                    # P = (A + D, C - A + 1 - D), Q = (A + 1 - D, C - A + D): same key, D's law swapped
                    key = (a + d, c - a + 1 - d)
                    P[key] = P.get(key, 0) + wa * pd
                    Q[key] = Q.get(key, 0) + wa * qd
        return P, Q


def _product_delta(P, Q, rounds, epsilon, dps=40):
    with mpmath.workdps(dps):
        keys = list(P)
        g = mpmath.exp(mpmath.mpf(epsilon))
        total = mpmath.mpf(0)
        for idx in itertools.product(keys, repeat=rounds):
            a = mpmath.fprod(P[k] for k in idx)
            b = mpmath.fprod(Q.get(k, 0) for k in idx)
            if a > g * b:
                total += a - g * b
        return total


@pytest.mark.parametrize("eps0, n", [(1.0, 1), (1.0, 4), (2.0, 6), (0.5, 30)])
def test_one_round_brackets_the_clone_pair(eps0, n):
    P, Q = _clone_pair_laws(eps0, n)
    pess, opt = round_pld(eps0, n), round_pld(eps0, n, pessimistic=False)
    for eps in (0.0, 0.1, 0.4, 0.9 * eps0):
        exact = _product_delta(P, Q, 1, eps)
        hi, lo = pess.delta(eps).upper, opt.delta(eps).lower
        assert mpmath.mpf(hi) >= exact >= mpmath.mpf(lo)
        assert hi - float(exact) <= 1e-6 * float(exact) + 1e-12


@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 3, 3), (2.0, 4, 2), (0.7, 5, 2)])
def test_composed_rounds_bracket_the_exact_product(eps0, n, rounds):
    P, Q = _clone_pair_laws(eps0, n)
    pess = rounds_pld(eps0, n, rounds)
    opt = rounds_pld(eps0, n, rounds, pessimistic=False)
    for eps in (0.0, 0.3, 1.0):
        exact = _product_delta(P, Q, rounds, eps)
        hi, lo = pess.delta(eps).upper, opt.delta(eps).lower
        assert mpmath.mpf(hi) >= exact >= mpmath.mpf(lo)
        assert hi - float(exact) <= 2e-4 * float(exact) + 1e-12


@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 3, 2), (1.5, 4, 2)])
def test_upper_bound_on_the_exact_composed_shuffle_of_binary_rr(eps0, n, rounds):
    pmfs = exact_shuffle.grr_pmfs(eps0, 2)
    worst = {}
    for eps in (0.0, 0.2, 0.6):
        best = mpmath.mpf(0)
        for _, law in exact_shuffle.other_laws(pmfs, n - 1):
            Pl = exact_shuffle.add_message(law, pmfs[0])
            Ql = exact_shuffle.add_message(law, pmfs[1])
            best = max(best, _product_delta(Pl, Ql, rounds, eps), _product_delta(Ql, Pl, rounds, eps))
        worst[eps] = best
    for eps, exact in worst.items():
        assert mpmath.mpf(rounds_delta(eps0, n, rounds, eps).upper) >= exact


@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 200, 5)])
def test_tighter_than_the_rdp_route_on_the_same_pair(eps0, n, rounds):
    ours = rounds_epsilon(eps0, n, rounds, 1e-6)
    rdp = rdp_route_epsilon(eps0, n, rounds, 1e-6, bound="chen-exact")
    assert ours.kind.value == "upper"
    assert ours.upper <= rdp.upper
    # and it is a genuine improvement, not a tie
    assert ours.upper < 0.99 * rdp.upper


def test_rounds_delta_is_monotone_in_rounds_and_n():
    d1 = rounds_delta(1.0, 50, 2, 0.5).upper
    d2 = rounds_delta(1.0, 50, 4, 0.5).upper
    d3 = rounds_delta(1.0, 150, 4, 0.5).upper
    assert d1 < d2 and d3 < d2


def test_bad_input_names_the_parameter():
    with pytest.raises(DomainError, match="eps0"):
        rounds_delta(0.0, 10, 2, 0.5)
    with pytest.raises(DomainError, match="n"):
        rounds_delta(1.0, 0, 2, 0.5)
    with pytest.raises(DomainError, match="rounds"):
        rounds_delta(1.0, 10, 0, 0.5)
    with pytest.raises(DomainError, match="delta"):
        rounds_epsilon(1.0, 10, 2, 0.0)
    with pytest.raises(DomainError, match="epsilon"):
        rounds_delta(1.0, 10, 2, math.inf)


@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 3, 2), (2.0, 4, 2), (0.7, 3, 3)])
def test_stronger_clone_rounds_bracket_their_exact_product_and_are_labelled_unproven(eps0, n, rounds):
    """Item 8: the stronger-clone pair composed (reduction="stronger-clones"): pessimistic >=
    the exact T-fold product of that pair (enumerated) >= optimistic; the status is unproven
    (the general proof was withdrawn), the default pair (FMT21 clones) is proven."""
    P, Q = _clone_pair_laws(eps0, n, stronger=True)
    pess = rounds_pld(eps0, n, rounds, reduction="stronger-clones")
    opt = rounds_pld(eps0, n, rounds, pessimistic=False, reduction="stronger-clones")
    for eps in (0.0, 0.3, 1.0):
        exact = _product_delta(P, Q, rounds, eps)
        assert mpmath.mpf(pess.delta(eps).upper) >= exact >= mpmath.mpf(opt.delta(eps).lower)
    res = rounds_delta(eps0, n, rounds, 0.3, reduction="stronger-clones")
    assert res.status.value == "unproven" and "withdrawn" in res.note and res.params["reduction"] == "stronger-clones"
    default = rounds_delta(eps0, n, rounds, 0.3)
    assert default.status.value == "proven" and default.params["reduction"] == "clones"
    # the stronger clones are the more private pair (larger clone probability)
    assert res.upper <= default.upper


def test_stronger_clone_rounds_bound_the_composed_shuffle_of_binary_rr():
    """For binary randomized response the stronger-clone decomposition exists (the pair is
    proven there): its composed delta is above the exact composed shuffle of binary RR."""
    eps0, n, rounds = 1.0, 3, 2
    pmfs = exact_shuffle.grr_pmfs(eps0, 2)
    for eps in (0.0, 0.3):
        best = mpmath.mpf(0)
        for _, law in exact_shuffle.other_laws(pmfs, n - 1):
            Pl = exact_shuffle.add_message(law, pmfs[0])
            Ql = exact_shuffle.add_message(law, pmfs[1])
            best = max(best, _product_delta(Pl, Ql, rounds, eps), _product_delta(Ql, Pl, rounds, eps))
        assert mpmath.mpf(rounds_delta(eps0, n, rounds, eps, reduction="stronger-clones").upper) >= best


def test_huge_n_rounds_keep_a_small_error_and_stay_at_most_one():
    """Regression (item 4): at n = 1e12 the bucket weights' error (relative, up to 4e-8 there)
    was taken as an absolute error at the largest tilted loss (e^{4 (eps0 + 2 interval)}), which
    made delta 1.24e+39 (eps0 = 4, T = 100), an internal 'abs_error = inf' error (T = 1000), and
    at eps0 = 1, T = 3 an error term larger than the value. Now: delta <= 1, and the interval's
    relative width (all float error) is small against the value."""
    for eps0, rounds, eps in ((4.0, 100, 0.5), (4.0, 1000, 0.5), (4.0, 100, 1e-4)):
        res = rounds_delta(eps0, 10**12, rounds, eps)
        assert 0 < res.upper <= 1
        if eps == 1e-4:  # delta around 1e-4: the float error is a tiny part of it
            assert res.upper - res.lower <= 1e-3 * res.upper
    # the composed delta at eps = 0.5 is far below the one-round Cor. 4.3 bound's float range;
    # what remains is the mass left at +inf (tail buckets below 1e-80, windows) and the FFT floor
    assert rounds_delta(4.0, 10**12, 2, 0.5).upper < 1e-40
    # at most 1 even where the error bound is vacuous (a PLD whose abs_error overflowed)
    from dptheory.pld import PLD
    vacuous = PLD(1e-4, 0, [0.0], -math.inf, abs_error=math.inf)
    res = vacuous.delta(0.1)
    assert res.upper == 1.0 and "only delta <= 1" in res.note


def test_memory_of_huge_n_is_bounded_by_chunks():
    """The window of a (about 1e7 values per bucket at n = 1e12, eps0 = 1) is processed in chunks
    and the bucket weights come from binomial tails (no array over every count): the peak of the
    allocations (numpy reports to tracemalloc) stays far below the issue's 1 GB; before, one round
    at n = 1e12 peaked near 2 GB."""
    import tracemalloc

    tracemalloc.start()
    try:
        step = round_pld(1.0, 10**12)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 400 * 2**20, peak
    assert len(step) < 10**6 and step.rel_error < 1e-6


@pytest.mark.parametrize("eps0, rounds", [(2.0, 1000), (50.0, 1000), (1.0, 300)])
def test_small_n_large_eps0_t_keeps_the_grid_bounded_and_stays_above_exact(eps0, rounds):
    """n = 1 is randomized response: its T-fold composition spans losses in [-T eps0, T eps0];
    on the default interval 1e-4 that was up to 1e9 grid points (eps0 = 50, T = 1000: 4 GB and
    a minute). The interval is raised so that the composed grid fits MAX_GRID points (sound at
    any interval): delta stays above the exact composition, a binomial sum over the number k of
    rounds whose loss is +eps0 (L = (2k - T) eps0), computed here in mpmath."""
    from dptheory.shuffle import rounds as rounds_module

    pld = rounds_pld(eps0, 1, rounds)
    assert len(pld) <= rounds_module.MAX_GRID
    with mpmath.workdps(40):
        E = mpmath.exp(mpmath.mpf(eps0))
        p = E / (E + 1)
        for eps in (0.5 * eps0 * rounds ** 0.5, 2 * eps0 * rounds ** 0.5):
            g = mpmath.exp(mpmath.mpf(eps))
            exact = mpmath.fsum(mpmath.binomial(rounds, k) * p**k * (1 - p) ** (rounds - k)
                                * max(mpmath.mpf(0), 1 - g / mpmath.exp((2 * k - rounds) * mpmath.mpf(eps0)))
                                for k in range(rounds + 1))
            res = rounds_delta(eps0, 1, rounds, eps)
            assert mpmath.mpf(res.upper) >= exact, (eps, res.upper, exact)


def test_pure_composition_bound_is_the_exact_delta_of_composed_randomized_response():
    """pure_composition_log_delta against the hockey-stick divergence of the T-fold products of
    eps0-randomized response's two rows, summed over all 2^T outcomes in mpmath at 40 digits
    (written here); T = 1 is the eps0-DP bound (e^eps0 - e^eps)_+ / (e^eps0 + 1)."""
    import itertools

    import mpmath

    from dptheory.shuffle.rounds import pure_composition_log_delta

    for e0, T in ((0.5, 1), (0.5, 3), (1.3, 5), (2.0, 8)):
        for eps in (0.0, 0.3 * e0, e0, 2.5 * e0, T * e0 - 1e-9, T * e0):
            lo, up = pure_composition_log_delta(e0, T, eps)
            with mpmath.workdps(40):
                E = mpmath.exp(mpmath.mpf(e0))
                p, q = E / (1 + E), 1 / (1 + E)
                # P(bits) - g Q(bits) = P(bits) (1 - e^(eps - L eps0)), L the privacy loss in units of
                # eps0 (#ones - #zeros): exactly 0 where eps = L eps0
                exact = mpmath.fsum(max(mpmath.mpf(0), mpmath.fprod(p if b else q for b in bits)
                                        * -mpmath.expm1(mpmath.mpf(eps) - (2 * sum(bits) - T) * mpmath.mpf(e0)))
                                    for bits in itertools.product((0, 1), repeat=T))
            if exact == 0:
                assert up == -math.inf
            else:
                assert lo <= mpmath.log(exact) <= up and up - lo < 1e-12, (e0, T, eps, lo, up, exact)


def test_rounds_delta_is_zero_from_T_eps0_on_and_never_above_the_pure_composition_bound():
    """T composed eps0-DP rounds are (T eps0)-DP: delta(T eps0) = 0 exactly, where the PLD's
    discretisation alone left 9.4e-6 (eps0 = 0.5, n = 2, T = 2); below it the result is at most
    the T-fold randomized response's delta."""
    from dptheory.shuffle.rounds import pure_composition_log_delta

    res = rounds.rounds_delta(0.5, 2, 2, 1.0)
    assert res.upper == 0.0 and res.status is Status.PROVEN
    for eps in (0.0, 0.2, 0.7):
        r = rounds.rounds_delta(0.5, 3, 2, eps)
        assert r.log_upper <= pure_composition_log_delta(0.5, 2, eps)[1]


def test_one_round_is_built_once_and_its_buckets_discretised_in_chunks(monkeypatch):
    """n = 1e4, T = 1000 (the issue's slow case, 7.3 s): the composed grid was sized as T times one
    round's support (14e6 points), which rebuilt the round on a coarser grid; Bernstein's
    inequality sizes it (64e3 points kept): the round is built once, at the asked interval. Its
    3648 count buckets are discretised in chunks of CHUNK atoms, not one call each."""
    calls = {"round": 0, "discretise": 0}
    real_round, real_disc = rounds.round_pld, rounds.discretise_atoms

    def counting_round(*a, **k):
        calls["round"] += 1
        return real_round(*a, **k)

    def counting_disc(*a, **k):
        calls["discretise"] += 1
        return real_disc(*a, **k)

    monkeypatch.setattr(rounds, "round_pld", counting_round)
    monkeypatch.setattr(rounds, "discretise_atoms", counting_disc)
    pld = rounds.rounds_pld(1.0, 10**4, 1000)
    assert calls["round"] == 1 and pld.interval == 1e-4 and "raised" not in pld.note
    assert calls["discretise"] <= 12
    span = rounds._composed_span(real_round(1.0, 10**4), 1000, 1.0)
    assert len(pld) * pld.interval <= span


def test_bucket_chunks_give_the_same_pld_as_bucket_by_bucket(monkeypatch):
    """Grouping the buckets' atoms changes nothing but the cost: discretised in chunks of CHUNK
    atoms (n = 3000: several buckets per chunk) or all in one call, the masses agree."""
    grouped = round_pld(1.0, 3000)
    monkeypatch.setattr(rounds, "CHUNK", 1 << 30)
    one = round_pld(1.0, 3000)
    assert grouped.offset == one.offset and len(grouped) == len(one)
    a, b = np.asarray(grouped.log_mass), np.asarray(one.log_mass)
    finite = np.isfinite(a)
    assert np.array_equal(finite, np.isfinite(b)) and finite.any()
    assert float(np.max(np.abs(a[finite] - b[finite]))) <= 1e-12


def test_cell_sums_match_the_atoms_summed_in_mpmath(monkeypatch):
    """A window summed cell by cell (binomial range sums and the identity
    sum_{a <= k} (a - m/2) Bin(m, 1/2)(a) = -(m/4) Bin(m - 1, 1/2)(k)) against its atoms summed
    one by one in mpmath at 50 digits: each cell's P-mass within its certified error, its upper
    share at least the exact P-weighted mean of the atoms' split fractions and its lower share at
    most that, both within 1e-6 of it, and every value of a in a cell whose loss interval holds
    its exact loss, or left to the
    value-by-value path."""
    monkeypatch.setattr(rounds, "CELL_MIN_ATOMS", 16)
    eps0, m, d = 1.0, 2000, 0.05
    E = math.exp(eps0)
    th_p, th_q = 1 / (1 + math.exp(-eps0)), math.exp(-eps0) / (1 + math.exp(-eps0))
    half = 3 * math.sqrt(m)
    a_lo, a_hi = int(m / 2 - half), int(m / 2 + half)
    cells, runs = rounds._window_cells(m, a_lo, a_hi, E, th_p - th_q, d)
    k, log_p, log_p_err, frac, frac_lo = cells
    assert len(k) >= 4 and runs  # cells and the values next to their boundaries
    with mpmath.workdps(50):
        Em = mpmath.e ** eps0
        tp, tq = Em / (Em + 1), 1 / (Em + 1)
        dm = mpmath.mpf(d)
        atoms = {}
        for a in range(a_lo, a_hi + 1):
            b = mpmath.binomial(m, a) / mpmath.mpf(2) ** m
            atoms[a] = (mpmath.log((Em * a + m - a) / (a + Em * (m - a))), b * 2 * (tp * a + tq * (m - a)) / m,
                        b * 2 * (tq * a + tp * (m - a)) / m)
        in_runs = {a for lo, hi in runs for a in range(lo, hi + 1)}
        in_cells = set()
        for kc, lp, le, f, f_lo in zip(k.tolist(), log_p.tolist(), log_p_err.tolist(), frac.tolist(), frac_lo.tolist()):
            l = kc * dm
            members = [a for a, (loss, _, _) in atoms.items() if a not in in_runs and l <= loss <= l + dm]
            in_cells.update(members)
            P = mpmath.fsum(atoms[a][1] for a in members)
            Q = mpmath.fsum(atoms[a][2] for a in members)
            share = (P - mpmath.e ** l * Q) / ((1 - mpmath.e ** -dm) * P)
            assert abs(mpmath.log(P) - lp) <= le
            assert f >= share and f - share <= 1e-6
            assert f_lo <= share and share - f_lo <= 1e-6
    assert in_cells | in_runs == set(atoms) and not in_cells & in_runs


@pytest.mark.parametrize("eps0, n", [(0.5, 30), (1.0, 40)])
def test_cells_on_a_coarse_grid_bracket_the_clone_pair(eps0, n, monkeypatch):
    """The cell-by-cell path forced at small n (a coarse grid puts several values of a into a
    cell): pessimistic >= the exact clone pair's delta (enumerated in mpmath) >= optimistic,
    one round and two composed."""
    monkeypatch.setattr(rounds, "CELL_MIN_ATOMS", 0.5)
    monkeypatch.setattr(rounds, "CELL_GUARD", 1)
    used = []
    real = rounds._window_cells

    def spy(*a, **k):
        out = real(*a, **k)
        used.append(out[0] is not None)
        return out

    monkeypatch.setattr(rounds, "_window_cells", spy)
    P, Q = _clone_pair_laws(eps0, n)
    pess = round_pld(eps0, n, interval=0.1)
    opt = round_pld(eps0, n, interval=0.1, pessimistic=False)
    assert any(used)
    for eps in (0.0, 0.1, 0.3):
        exact = _product_delta(P, Q, 1, eps)
        assert mpmath.mpf(pess.delta(eps).upper) >= exact >= mpmath.mpf(opt.delta(eps).lower)
    # composed: a small n (the enumeration of the product is exponential in T)
    P, Q = _clone_pair_laws(eps0, 8)
    pess, opt = round_pld(eps0, 8, interval=0.3), round_pld(eps0, 8, interval=0.3, pessimistic=False)
    for eps in (0.2, 0.6):
        exact = _product_delta(P, Q, 2, eps)
        assert mpmath.mpf(pess.self_compose(2).delta(eps).upper) >= exact >= mpmath.mpf(opt.self_compose(2).delta(eps).lower)


def test_cells_and_atoms_give_the_same_round(monkeypatch):
    """At n = 1e5 on the grid 1e-2 (about 200 values of a per cell) the cell-by-cell round and
    the value-by-value round agree to 1e-6 in every log mass (the cells' upper share is an upper
    bound within about 1e-7 of the exact one), and the composed deltas to 1e-6 relative."""
    cells = round_pld(1.0, 10**5, interval=1e-2)
    monkeypatch.setattr(rounds, "CELL_MIN_ATOMS", math.inf)
    atoms = round_pld(1.0, 10**5, interval=1e-2)
    assert cells.offset == atoms.offset and len(cells) == len(atoms)
    finite = np.isfinite(atoms.log_mass)
    assert np.array_equal(finite, np.isfinite(cells.log_mass))
    assert float(np.max(np.abs(cells.log_mass[finite] - atoms.log_mass[finite]))) <= 1e-6
    for eps in (0.05, 0.2):
        a, c = atoms.self_compose(50).delta(eps).upper, cells.self_compose(50).delta(eps).upper
        assert abs(c - a) <= 1e-6 * a


def test_rounds_at_huge_n_cost_a_few_cells():
    """The construction is flat in n: at n = 1e12 the window of a (about 1e7 values) is a few
    cells, not 1e7 atoms (counted: the values left to the atom path are the cells' boundaries)."""
    atoms = []
    real = rounds._atom_losses

    def counting(a, m, E):
        atoms.append(np.size(a))
        return real(a, m, E)

    import unittest.mock

    with unittest.mock.patch.object(rounds, "_atom_losses", counting):
        step = round_pld(1.0, 10**12)
    assert len(step) <= 5 and sum(atoms) <= 1000, (len(step), sum(atoms))


def _clone_pair_atoms(eps0, n):
    """The clone pair's atoms (P-mass, Q-mass), sorted by loss, in float64 from scipy's binomial
    pmfs (total count K = C + 1, C ~ Bin(n - 1, e^-eps0); given K = m, a ~ Bin(m, 1/2) mixed as in
    the module text); counts of weight below 1e-40 are left out."""
    from scipy.stats import binom

    E = math.exp(eps0)
    tp, tq = E / (E + 1), 1 / (E + 1)
    P, Q = [], []
    for c in range(n):
        w = binom.pmf(c, n - 1, 1 / E)
        if w < 1e-40:
            continue
        m = c + 1
        a = np.arange(m + 1)
        b = w * binom.pmf(a, m, 0.5)
        P.append(b * 2 * (tp * a + tq * (m - a)) / m)
        Q.append(b * 2 * (tq * a + tp * (m - a)) / m)
    p, q = np.concatenate(P), np.concatenate(Q)
    live = (p > 0) & (q > 0)
    p, q = p[live], q[live]
    order = np.argsort(np.log(p) - np.log(q))
    return p[order], q[order]


def test_second_order_lower_end_of_two_rounds_against_their_direct_composition():
    """n = 500, two rounds, grid 1e-3 (54e3 atoms): the composed delta by direct composition of the
    atoms (sorted losses and suffix sums of P and Q: delta(eps) = sum_i p_i P(L > eps - L_i) -
    e^eps q_i Q(L > eps - L_i), every term non-negative, float64) bounds the optimistic PLD from
    above, which closes at least 90% of the gap left by rounding the losses down (PLD.from_pmfs
    on the same atoms, pessimistic=False, the former lower end)."""
    eps0, n, T, d = 1.0, 500, 2, 1e-3
    p, q = _clone_pair_atoms(eps0, n)
    loss = np.log(p) - np.log(q)
    s_p = np.concatenate([np.cumsum(p[::-1])[::-1], [0.0]])
    s_q = np.concatenate([np.cumsum(q[::-1])[::-1], [0.0]])
    new = rounds_pld(eps0, n, T, interval=d, pessimistic=False)
    old = PLD.from_pmfs(p, q, interval=d, pessimistic=False).self_compose(T)
    for eps in (0.1, 0.2, 0.3, 0.4):
        j = np.searchsorted(loss, eps - loss, side="right")
        exact = float(np.sum(p * s_p[j] - math.exp(eps) * q * s_q[j]))
        lo, lo_old = new.delta(eps).lower, old.delta(eps).lower
        assert lo <= exact * (1 + 1e-9), (eps, lo, exact)
        assert lo_old < lo and exact - lo <= 0.1 * (exact - lo_old), (eps, lo_old, lo, exact)


@pytest.mark.parametrize("eps0, n, rounds", [(1.0, 3, 3), (0.7, 5, 2)])
def test_second_order_lower_end_is_above_the_rounded_down_one_and_below_the_exact_product(eps0, n, rounds):
    """On a coarse grid (0.05) the composed optimistic PLD lies between the losses rounded down
    (PLD.from_pmfs on the enumerated pair, pessimistic=False: the former lower end) and the exact
    T-fold product of the clone pair (enumerated in mpmath), and closes at least half of the gap."""
    P, Q = _clone_pair_laws(eps0, n)
    keys = list(P)
    p = np.array([float(P[k]) for k in keys])
    q = np.array([float(Q[k]) for k in keys])
    old = PLD.from_pmfs(p, q, interval=0.05, pessimistic=False).self_compose(rounds)
    new = rounds_pld(eps0, n, rounds, interval=0.05, pessimistic=False)
    for eps in (0.0, 0.3, 1.0):
        exact = _product_delta(P, Q, rounds, eps)
        lo, lo_old = new.delta(eps).lower, old.delta(eps).lower
        assert mpmath.mpf(lo) <= exact and lo_old < lo, (eps, lo_old, lo, exact)
        assert float(exact) - lo <= 0.5 * (float(exact) - lo_old), (eps, lo_old, lo, exact)
