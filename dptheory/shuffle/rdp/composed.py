"""Composed comparisons of Girgis et al. (CCS 2021), Figures 3-5: the RDP route (a shuffle's RDP
upper bound composed T times, with Poisson subsampling, converted by Lemma 2.1) against the
baseline of the clone bound of Feldman et al. composed by Kairouz, Oh, Viswanath.

Where the results live: the RDP upper bounds in :mod:`.girgis` (closed forms in :mod:`.formulas`)
and :mod:`.clone_pairs`; composition (Mironov 2017, Proposition 1), the order grid and the
conversion to (epsilon, delta) (Girgis et al. 2021, Lemma 2.1) in :mod:`dptheory.rdp`
(:func:`dptheory.rdp.epsilon_from_rdp_grid`); Poisson subsampling of RDP (Zhu, Wang 2019) and of
(epsilon, delta) and the composition theorem of Kairouz, Oh, Viswanath in
:mod:`dptheory.composition`; the clone bound of Feldman, McMillan, Talwar (2021) in
:mod:`dptheory.shuffle.clones`."""

from __future__ import annotations

import math

import numpy as np

from ... import rdp as rdp_module, rounding, validate
from ...composition import kov_closed_form, poisson_subsampled_rdp, subsample_dp
from ...inverse import bisect_monotone
from ...results import Kind, Result, Status
from .. import clones
from ..methods import METHODS
from ..randomizers import general_ldp
from .clone_pairs import clone_pair_rdp
from .formulas import UPPER_1
from .girgis import upper_1, upper_1_mixture


_SUBSAMPLED_NOTE = ("as in Girgis et al. Section 4: a subsampling theorem for add/remove neighbours applied to a "
                    "shuffle bound for replace-one neighbours with floor(rate n) users; no theorem covers the "
                    "combination (docs/errata.md#girgis2021-figure-5)")


def fmt_kov_epsilon(eps0_value, n_value, compositions, delta, *, rate: float = 1.0, protocol: str = "exact") -> Result:
    """The baseline of Girgis et al. Figures 4-5: per-round (eps, delta) of the shuffle from the
    clone bound of Feldman et al., Poisson subsampling (Li et al.) when ``rate`` < 1, then KOV's
    composition, with the first author's delta split (per round delta / (2 rate T), KOV slack
    making the total exactly delta).

    ``protocol="exact"`` uses the certified clone bound; ``"notebook"`` reproduces the first
    author's notebook: three bisection steps from the closed form (or eps0), and no amplification
    at all where the closed form's condition fails (Privacy_Analysis.ipynb of
    github.com/Antonious-Grigis/Shuffled-Model-of-Differential-Privacy-in-Federated-Learning).
    """
    e0, nn, T, d, g = _composed_args(eps0_value, n_value, compositions, delta, rate)
    ns = max(1, int(g * nn))
    d_round = d / (2 * g * T)
    if protocol == "exact":
        eps_round = METHODS["clones"].epsilon(general_ldp(e0), ns, d_round, 1e-6).upper
    elif protocol == "notebook":
        if e0 > math.log(ns / (16 * math.log(2 / d_round))):
            eps_round = e0
        else:
            hi = float(clones.CLOSED_FORM(e0, ns, d_round)) if clones.CLOSED_FORM.holds(e0, ns, d_round) else e0
            pair = clones.clone_pair(e0, ns)
            eps_round = bisect_monotone(lambda e: pair.log_delta(e, rtol=1e-6).log_upper <= math.log(d_round),
                                        0.0, hi, max_steps=3)[1]
    else:
        raise validate.DomainError(f"protocol = {protocol!r} is invalid: must be 'exact' or 'notebook'")
    eps_r, d_r = subsample_dp(eps_round, d_round, g) if g < 1 else (eps_round, d_round)
    # the slack making the total 1 - (1 - d_r)^T (1 - slack) exactly d: 1 - (1 - d)/(1 - d_r)^T, with
    # d_r the per-round delta KOV composes (rate * d_round after subsampling), formed without
    # cancellation (a few ulps) and rounded down (less slack, a total below d and a larger KOV
    # epsilon: conservative); the closed form's value rounded up
    slack = rounding.down(-math.expm1(math.log1p(-d) - T * math.log1p(-d_r)), rel_err=16 * rounding.EPS)
    eps_val = rounding.up(float(kov_closed_form(eps_r, d_r, T, slack)[0]), rel_err=rounding.CLOSED_FORM_RTOL)
    return Result("epsilon", eps_val, eps_val, Kind.UPPER, Status.PROVEN if g == 1 else Status.UNPROVEN,
                  f"clones-kov-{protocol}", clones.SOURCE_2021 + ", composed by Kairouz, Oh, Viswanath (2015)"
                  + (", Poisson subsampling by Li, Qardaji, Su (2012)" if g < 1 else ""),
                  _SUBSAMPLED_NOTE if g < 1 else "",
                  params={"n_shuffle": ns, "rate": g, "compositions": T, "delta_round": d_round, "eps_round": eps_round,
                          "slack": slack})


def rdp_route_epsilon(eps0_value, n_value, compositions, delta, *, rate: float = 1.0,
                      bound: str = "girgis-upper-1", max_order: int | None = None) -> Result:
    """Epsilon (a Result; the best order in ``params``) of an RDP upper bound of the shuffle composed T times, with Poisson
    subsampling of rate ``rate`` (Zhu and Wang's general bound on floor(rate n) shuffled users),
    converted by Lemma 2.1: the route of Girgis et al. Figures 3-5. Integer orders; without
    ``max_order`` the grid grows until the optimum is inside it (up to 2^20, or 4096 with
    subsampling, whose bound needs every integer order below).

    With ``rate`` < 1 the result is "as in the paper" (status ``unproven``): the subsampling
    bound is for add/remove neighbours and a random number of participants, the shuffle bound for
    replace-one neighbours and a fixed floor(rate n) users (docs/errata.md#girgis2021-figure-5)."""
    e0, nn, T, d, g = _composed_args(eps0_value, n_value, compositions, delta, rate)
    ns = max(2, int(g * nn))
    fns = {"girgis-upper-1": upper_1, "girgis-upper-1-mixture": upper_1_mixture,
           "chen-exact": lambda e, m, o: clone_pair_rdp(e, m, o, rtol=1e-4).upper}
    if bound not in fns:
        raise validate.DomainError(f"bound = {bound!r} is invalid: must be one of {sorted(fns)}")
    subsampled = g < 1

    def curve(o):
        base = fns[bound](e0, ns, o)
        if not subsampled:
            return rounding.up(T * base)
        table_ = dict(zip(o.astype(int), base))
        return rounding.up(T * np.array([poisson_subsampled_rdp(lambda l: table_[l], int(a), g) for a in o]))

    if max_order is None:
        start, cap = 256, (4096 if subsampled else 2**20)
    else:
        start = cap = validate.integer("max_order", max_order, low=2)
    found = rdp_module.epsilon_from_rdp_grid(curve, d, consecutive=subsampled, start=start, cap=cap)
    sources = {"girgis-upper-1": UPPER_1.source, "girgis-upper-1-mixture": "Girgis et al. Theorems 3.6-3.7 (mixture)",
               "chen-exact": "Chen, Cao, Ge (2024), Theorem 1 (corrected)"}
    source = (sources[bound] + f", composed {T} times (Mironov 2017), converted by Lemma 2.1"
              + (", Poisson subsampling by Zhu and Wang (2019)" if subsampled else ""))
    return Result("epsilon", found.lower, found.upper, Kind.UPPER,
                  Status.UNPROVEN if subsampled else Status.PROVEN, f"rdp-route:{bound}", source,
                  _SUBSAMPLED_NOTE if subsampled else "",
                  params={"order": found.params["order"], "n_shuffle": ns, "rate": g, "compositions": T})


def _composed_args(eps0_value, n_value, compositions, delta, rate):
    """(eps0, n, T, delta, rate) of a composed shuffle computation, validated."""
    return (validate.eps0("eps0", eps0_value), validate.integer("n", n_value, low=2),
            validate.integer("compositions", compositions, low=1), validate.delta("delta", delta),
            validate.probability("rate", rate, open_low=True))
