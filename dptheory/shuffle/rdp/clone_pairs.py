"""The exact Renyi DP of the clone pairs of Feldman, McMillan, Talwar (2021; the stronger clones
of 2023): Chen, Cao, Ge (ICASSP 2024), Theorem 1, corrected (the pair's law is
D ~ Bern(e^eps0/(e^eps0+1)), printed Bern(e^-eps0); docs/errata.md#chen2024-theorem-1), and its
trade-off function."""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...precision import binom_logpmf
from ...results import Curve, Kind, Status
from .. import clones
from ..pair_renyi import renyi, renyi_curve
from ..pairs import CountPair
from .orders import check

SOURCE = "Chen, Cao, Ge (2024), Theorem 1 (corrected): exact RDP of the clone pair"
STRONGER_SOURCE = "Feldman, McMillan, Talwar (2023): exact RDP of the stronger-clone pair"
_STRONGER_NOTE = ("the 2023 stronger-clone pair; its general proof was withdrawn "
                  "(Feldman, McMillan, Talwar 2023, erratum)")


def clone_pair_rdp(eps0_value, n_value, orders, *, stronger: bool = False, rtol: float = validate.RENYI_RTOL) -> Curve:
    """Exact RDP of the clone pair of Feldman et al. 2021 (Chen et al. Theorem 1, corrected),
    or of the 2023 stronger clones, as a certified :class:`Curve`: an upper bound on the shuffled
    RDP of every eps0-LDP randomizer (status ``proven``; the stronger clones: ``unproven``, their
    general proof was withdrawn). The pair is symmetric, so one direction is the maximum."""
    e0, nn, o = check(eps0_value, n_value, orders)
    pair = clones.stronger_clone_pair(e0, nn) if stronger else clones.clone_pair(e0, nn)
    lo, hi = renyi_curve(pair, o, rtol=rtol)
    if stronger:
        return Curve("rdp", "order", o, lo, hi, Kind.UPPER, Status.UNPROVEN, "stronger-clones", STRONGER_SOURCE,
                     _STRONGER_NOTE, params={"eps0": e0, "n": nn, "rtol": rtol})
    return Curve("rdp", "order", o, lo, hi, Kind.UPPER, Status.PROVEN, "chen-exact", SOURCE,
                 "exact divergence of the clone pair, which dominates every eps0-LDP randomizer",
                 params={"eps0": e0, "n": nn, "rtol": rtol})


def clone_pair_tradeoff(eps0_value, n_value):
    """The exact trade-off function of the clone pair (Chen et al. Theorem 1, corrected): built by
    Neyman-Pearson from the pair's pmf over (a, b) (small n)."""
    e0 = validate.eps0("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1, high=2000)
    p, q = _clone_pmf_table(e0, nn, math.exp(-e0), 1.0 / (1.0 + math.exp(-e0)))
    from ...tradeoff import from_pmfs  # scipy.integrate and sympy: only for this exact pair

    return from_pmfs(p, q)


def _clone_pmf_table(e0, nn, clone_prob, pi_one):
    """pmfs over the atoms (a, b), a + b = c + 1, of the clone pair with P(D = 1) = pi_one."""
    ps, qs = [], []
    for c in range(nn):
        wc = math.exp(binom_logpmf(c, nn - 1, clone_prob))
        a = np.arange(c + 2, dtype=float)
        b = np.exp(binom_logpmf(a, c, 0.5))
        bm1 = np.exp(binom_logpmf(a - 1, c, 0.5))
        ps.append(wc * (pi_one * bm1 + (1 - pi_one) * b))
        qs.append(wc * (pi_one * b + (1 - pi_one) * bm1))
    return np.concatenate(ps), np.concatenate(qs)



def theorem_1_printed_law_rdp(eps0_value, n_value, orders) -> np.ndarray:
    """Chen et al. Theorem 1 with the printed law D ~ Bern(e^-eps0) instead of
    Bern(e^eps0/(e^eps0+1)): upper ends of the RDP of that (wrong) pair, for the erratum test."""
    e0, nn, o = check(eps0_value, n_value, orders)
    th = math.exp(-e0)
    pair = CountPair(nn - 1, math.exp(-e0), th, 1 - th)
    return np.array([max(renyi(pair, order)[1], renyi(pair.reversed(), order)[1]) for order in o])
