"""f-DP of shuffling (Wang, Su, Ye, Shokri, Su, NeurIPS 2023, Section 4 and Appendix C).

For n users of an eps0-LDP local randomizer, the shuffled output of two neighbouring datasets
is a post-processing of a pair (their Appendix C, by the clone reduction of Feldman, McMillan,
Talwar)

    P = (1 - w) P0 + w Q0,   Q = (1 - w) Q0 + w P0,   w = 1 / (e^eps0 + 1),
    (A + 1, C - A) ~ P0,   (A, C - A + 1) ~ Q0,   A ~ Bin(C, 1/2),   C ~ Bin(n - 1, q),

with the clone probability q of a *reduction* (:data:`REDUCTIONS`, a parameter):

* ``"stronger-clones"`` (the default, the paper's pair): q = 2/(e^eps0 + 1), Feldman, McMillan,
  Talwar (2023). Its general proof was withdrawn (arXiv erratum to Lemma 3.5): for a general
  eps0-LDP randomizer every result built on it is **unproven** (proven only where the
  stronger-clone decomposition exists, e.g. binary randomized response;
  :func:`dptheory.shuffle.clones.stronger_clone_status`, the one place that decides it);
* ``"clones"``: q = e^-eps0, Feldman, McMillan, Talwar (2021, Theorem 3.1), **proven** for every
  eps0-LDP randomizer (this is the pair of Chen, Cao, Ge 2024, Proposition 1).

Everything below holds for either q (the paper's arguments use only the mixture structure).

* **Proposition 4.1 (corrected)**: the exact trade-off function T(P0, Q0) at its knots,
  ``alpha0(t) = sum_i w_i F_i(s_i(t))``, ``beta0(t) = sum_i w_i (1 - F_i(s_i(t) + 1))`` with
  ``s_i(t) = floor((t i - 1)/(t + 1))`` (:func:`proposition_4_1`, integer floors; the formula
  ``shuffle-fdp-prop-4.1-beta``), and all its knots at once by sorting the atoms
  (:func:`p0q0_tradeoff`). Erratum: the paper prints ``beta_i^0 = F_i(F_i^{-1}(alpha_i^0) + 1)``,
  dropping the "1 -" (:func:`proposition_4_1_printed` and ``shuffle-fdp-prop-4.1-beta-printed``,
  refuted: off by up to 1).
* **Theorem 4.2, as an inequality**: ``T(P, Q) >= C(f_Shuffle)`` with
  ``f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0)`` and C the symmetrization. The paper's proof claims
  C(T(P, Q)) = C(f_Shuffle); that equality is false (a gap of 0.053 at n = 8;
  docs/errata.md#wang2023-theorem-4-2).
  :func:`shuffle_tradeoff` returns a certified lower bound on max(C(f_Shuffle), f_{eps0,0}) as a
  :class:`~dptheory.tradeoff.PiecewiseLinear` (the shuffled mechanism is also eps0-DP, the
  trade-off f_{eps0,0} of randomized response: a post-processing of the victim's eps0-LDP report).
* **Corollary 4.3, with the corrected t_y**: ``delta(eps) = 1 + f_Shuffle*(-e^eps)
  = (1 - 2w) H_{e^eps~}(P0 || Q0)`` with ``e^eps~ = (e^eps - 2w)/(1 - 2w)``, i.e. the threshold
  ``t_y = (1 - 2w)/(e^eps - 2w)`` (docs/errata.md#wang2023-corollary-4-3; the formula
  ``shuffle-fdp-threshold``),
  combined with the eps0-DP bound ``(e^eps0 - e^eps)_+/(e^eps0 + 1)`` by a minimum
  (:func:`shuffle_delta`; both are upper bounds, so is their minimum; delta = 0 for eps >= eps0).
  Erratum: the paper locates t_y with the slope l(t) of a chord, which gives too small (even
  negative) delta (:func:`corollary_4_3_printed_delta`, refuted; not a closed form: an infimum
  over the jump thresholds, so it is a function, not a catalogue formula).

Certified lower bounds on a trade-off function are built as the upper envelope of supporting
lines ``y = c + s x`` whose intercepts are certified from below (:func:`_envelope`, by
:func:`dptheory.hull.envelope_below`): each segment of the result lies under one of the lines, so floating-point error in the vertices
cannot lift it above the true function. At small n the lines are the tangents at every knot
of f_Shuffle (the result is C(f_Shuffle) itself, lowered by the rounding error); at large n they
are the lines ``1 - delta(eps) - e^eps x`` of a grid of eps, with delta from
:func:`shuffle_delta` (any n at the same cost), and their reflections; the two lines of
f_{eps0,0} are always added.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy import special

from .. import rounding, tradeoff, validate
from ..formula import Formula, Parts, register
from ..hull import envelope_below, upper_envelope_lines
from ..precision import (binom_logpmf, binom_tail_rtol, mp_adaptive, mp_binom_cdf, mp_binom_pmf, mp_binom_sf)
from ..results import Curve, Enclosure, Kind, Result, Status
from . import clones
from .clones import INPUT_RTOL
from .binomial_sums import log_binom_range, log_hockey_stick_binary_count, refine_buckets
from .pairs import CountPair

SOURCE = "Wang, Su, Ye, Shokri, Su (2023)"
SOURCE_PROP_4_1 = f"{SOURCE}, Proposition 4.1 (corrected: 1 - F_i)"
SOURCE_PROP_4_1_PRINTED = f"{SOURCE}, Proposition 4.1 as printed (beta_i^0 = F_i(F_i^-1(alpha_i^0) + 1))"
SOURCE_THM_4_2 = f"{SOURCE}, Theorem 4.2 (as an inequality T(P,Q) >= C(f_Shuffle)), symmetrised"
SOURCE_COR_4_3 = f"{SOURCE}, Corollary 4.3 (corrected t_y = (1-2w)/(e^eps - 2w))"
SOURCE_EPS0_DP = "the shuffled mechanism is eps0-DP (post-processing of the victim's eps0-LDP report)"
REFUTED_PROP_4_1 = ("printed beta_i^0 = F_i(F_i^{-1}(alpha_i^0) + 1) drops the '1 -': off the exact "
                    "Neyman-Pearson knots by up to 1 (docs/errata.md#wang2023-proposition-4-1)")
REFUTED_COR_4_3 = ("printed t_y uses the chord slope l(t), not the slope -1/t: delta too small, even negative "
                   "(docs/errata.md#wang2023-corollary-4-3)")

#: the reductions (clone probabilities) the pair may be built with; see the module docstring
REDUCTIONS = clones.REDUCTIONS
#: the paper's pair
DEFAULT_REDUCTION = "stronger-clones"

#: largest n for which the float64 trade-off function is built from every knot (about n^2/2 atoms)
EXACT_MAX_N = 1000
#: largest n for the mpmath trade-off function (atoms summed with mpmath)
MP_EXACT_MAX_N = 150
#: segments of T(P0, Q0) with less mass than this get no tangent line (float64 path)
PRUNE_MASS = 1e-15
#: number of epsilon values whose lines make the trade-off function above EXACT_MAX_N
GRID_LINES = 32

_U = rounding.EPS / 2  # unit roundoff


# ----------------------------------------------------------------------------- formulas


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use. F_i(u) is written
    as a sum over k = 0..i with the indicator [k <= u] = Heaviside(u - k + 1/2) (u an integer),
    so that the summation bounds stay integers for the generated numpy and mpmath functions."""
    import sympy as sp

    from ..symbols import eps, eps0, n, t

    i, k = sp.symbols("i k", integer=True, nonnegative=True)
    w = 1 / (sp.exp(eps0) + 1)
    q = 2 * w  # the paper's clone probability

    def cdf(ii, u):
        return sp.Sum(sp.binomial(ii, k) / 2**ii * sp.Heaviside(u - k + sp.Rational(1, 2)), (k, 0, ii))

    s_i = sp.floor((t * i - 1) / (t + 1))
    weight = sp.binomial(n - 1, i) * q**i * (1 - q) ** (n - 1 - i)
    return {
        "shuffle-fdp-threshold": Parts((1 - 2 * w) / (sp.exp(eps) - 2 * w), (eps0, eps), (eps >= 0,)),
        "shuffle-fdp-prop-4.1-beta": Parts(sp.Sum(weight * (1 - cdf(i, s_i + 1)), (i, 0, n - 1)), (eps0, n, t),
                                           (t >= 0,)),
        "shuffle-fdp-prop-4.1-beta-printed": Parts(sp.Sum(weight * cdf(i, s_i + 1), (i, 0, n - 1)), (eps0, n, t),
                                                   (t >= 0,)),
    }


THRESHOLD = register(Formula(
    name="shuffle-fdp-threshold", build=_closed_forms, kind=Kind.EXACT, status=Status.PROVEN,
    source=SOURCE_COR_4_3, lhs=r"t_y",
    erratum="the printed t_y is located with the chord slope l(t); the slope of f_Shuffle on the P0-segment "
            "of threshold t is -2w - (1-2w)/t, which gives this closed form (docs/errata.md#wang2023-corollary-4-3)",
    description="P0-threshold at which 1 + f_Shuffle*(-e^eps) is attained: the knot alpha0(t_y) of Corollary 4.3",
))
PROP_4_1_BETA = register(Formula(
    name="shuffle-fdp-prop-4.1-beta", build=_closed_forms, kind=Kind.EXACT, status=Status.PROVEN,
    source=SOURCE_PROP_4_1, lhs=r"\beta_0(t)",
    erratum="the printed final form drops the '1 -' (docs/errata.md#wang2023-proposition-4-1)",
    description="type II error of T(P0, Q0) at its knot of threshold t (paper's clone probability 2/(e^eps0+1))",
))
PROP_4_1_BETA_PRINTED = register(Formula(
    name="shuffle-fdp-prop-4.1-beta-printed", build=_closed_forms, kind=Kind.EXACT, status=Status.REFUTED,
    source=SOURCE_PROP_4_1_PRINTED, lhs=r"\beta_0(t)",
    erratum=REFUTED_PROP_4_1,
    description="Proposition 4.1 as printed (refuted: off the Neyman-Pearson knot by up to 1)",
))


# ----------------------------------------------------------------------------- parameters


def _check(eps0, n):
    e0 = validate.real("eps0", eps0, low=0.0, low_open=True)
    nn = validate.integer("n", n, low=1)
    return e0, nn


def status(reduction=DEFAULT_REDUCTION) -> tuple[Status, str]:
    """Proof status (and note) of every result of this module built on the pair of ``reduction``
    for a general eps0-LDP randomizer (from :func:`dptheory.shuffle.clones.reduction_status`)."""
    return clones.reduction_status(reduction)


def clone_probability(eps0, reduction=DEFAULT_REDUCTION) -> float:
    """The clone probability q of the pair: 2/(e^eps0 + 1) or e^-eps0 (see :data:`REDUCTIONS`)."""
    return clones.clone_probability(eps0, reduction)


def weights(eps0) -> tuple[float, float]:
    """(w, 1 - 2w) = (1/(e^eps0 + 1), tanh(eps0/2)), each to an ulp or two (no cancellation)."""
    e0 = validate.real("eps0", eps0, low=0.0, low_open=True)
    t = math.exp(-e0)
    return t / (1.0 + t), math.tanh(e0 / 2.0)


def asymptotic_mu(eps0, n, reduction=DEFAULT_REDUCTION) -> float:
    """tanh(eps0/2) 2 / sqrt((n - 1) q), q the clone probability: the GDP limit of T(P, Q)
    (derived here, docs/errata.md#derived-chen-refined-limit; an approximation, not a bound).
    inf for n = 1."""
    e0, nn = _check(eps0, n)
    _, th = weights(e0)
    qc = clone_probability(e0, reduction)
    if nn == 1 or qc == 0:
        return math.inf
    return th * 2.0 / math.sqrt((nn - 1) * qc)


def _mp_params(e0: float, reduction=DEFAULT_REDUCTION):
    """(w, 1 - 2w, q) in mpmath at the working precision (eps0 is the float, exactly)."""
    E = mpmath.exp(mpmath.mpf(e0))
    w = 1 / (E + 1)
    return w, (E - 1) / (E + 1), clones.mp_clone_probability(E, reduction)


# ----------------------------------------------------------------------------- Proposition 4.1


def _threshold(t) -> Fraction:
    if isinstance(t, tuple):
        a, b = t
        return Fraction(int(a), int(b))
    if isinstance(t, Fraction):
        return t
    return Fraction(validate.real("t", t, low=0.0))  # a float is an exact binary rational


def _floors(t: Fraction, n: int) -> np.ndarray:
    """s_i(t) = floor((t i - 1)/(t + 1)) for i = 0..n-1, in integer arithmetic (t = a/b:
    floor((a i - b)/(a + b)))."""
    a, b = t.numerator, t.denominator
    i = np.arange(n, dtype=object)
    return np.array([(a * k - b) // (a + b) for k in i], dtype=np.int64)


def _prop_4_1(eps0, n, t, digits, printed: bool, reduction):
    e0, nn = _check(eps0, n)
    tt = _threshold(t)
    s = _floors(tt, nn)
    digits = validate.digits(digits)
    if digits is None:
        from ..precision import binom_cdf
        qc = clone_probability(e0, reduction)
        i = np.arange(nn, dtype=float)
        lw = binom_logpmf(i, nn - 1, qc)
        wi = np.exp(lw)
        f_s = binom_cdf(s.astype(float), i, 0.5)
        f_s1 = binom_cdf(s.astype(float) + 1, i, 0.5)
        alpha = math.fsum(wi * f_s)
        beta = math.fsum(wi * f_s1) if printed else math.fsum(wi * (binom_cdf(i - s - 2.0, i, 0.5)))
        return alpha, beta
    with mpmath.workdps(digits + 10):
        _, _, q = _mp_params(e0, reduction)
        half = mpmath.mpf(1) / 2
        alpha = beta = mpmath.mpf(0)
        for i in range(nn):
            wi = mp_binom_pmf(i, nn - 1, q)
            alpha += wi * mp_binom_cdf(int(s[i]), i, half)
            f1 = mp_binom_cdf(int(s[i]) + 1, i, half)
            beta += wi * (f1 if printed else 1 - f1)
    with mpmath.workdps(digits):
        return +alpha, +beta


def proposition_4_1(eps0, n, t, *, digits=None, reduction=DEFAULT_REDUCTION):
    """(alpha0(t), beta0(t)): the knot of the exact T(P0, Q0) at threshold t (Proposition 4.1, corrected).

    ``alpha0(t) = sum_i w_i F_i(s_i)``, ``beta0(t) = sum_i w_i (1 - F_i(s_i + 1)) = sum_i w_i
    F_i(i - s_i - 2)``, with w_i = P[C = i], F_i the CDF of Bin(i, 1/2) and
    ``s_i = floor((t i - 1)/(t + 1))`` in integer arithmetic (t is taken exactly: a float, a
    Fraction or a pair (a, b) meaning a/b). Test "reject P0 when (A+1)/(C-A) <= t" (the
    likelihood-ratio convention of Lemma A.1 of Wang et al. 2023, c = 1). O(n) per threshold: a reference, not the fast path
    (:func:`p0q0_tradeoff`). Within a few ulps per term (float64) or to ``digits`` digits.
    Domain: eps0 > 0, n >= 1, t >= 0.

    Source: Wang et al. (2023), Proposition 4.1, with the "1 -" the printed final form drops; the
    closed form is the catalogue formula ``shuffle-fdp-prop-4.1-beta`` (the paper's q).
    """
    return _prop_4_1(eps0, n, t, digits, False, clones.reduction(reduction))


def proposition_4_1_printed(eps0, n, t, *, digits=None, reduction=DEFAULT_REDUCTION) -> Curve:
    """Proposition 4.1 as printed, ``beta0 = sum_i w_i F_i(F_i^{-1}(alpha_i^0) + 1)`` (the "1 -"
    dropped), at the threshold t: a one-point :class:`~dptheory.results.Curve` over alpha
    (``grid`` = [alpha0(t)], ``lower``/``upper`` enclosing the printed beta0), kind exact, status
    **refuted** (off the Neyman-Pearson knot by up to 1; the erratum test). The float64 sums are
    enclosed to 1e-12 relative (each term a few ulps); with ``digits`` the mpmath values are in
    ``params["value"]``. Source: Wang et al. (2023), Proposition 4.1; catalogue formula
    ``shuffle-fdp-prop-4.1-beta-printed``."""
    red = clones.reduction(reduction)
    alpha, beta = _prop_4_1(eps0, n, t, digits, True, red)
    e0, nn = _check(eps0, n)
    params = {"eps0": e0, "n": nn, "t": str(_threshold(t)), "reduction": red}
    if digits is not None:
        params["value"] = (mpmath.nstr(alpha, digits), mpmath.nstr(beta, digits))
        rel = 10.0 ** -(validate.digits(digits) - 1)
    else:
        rel = 1e-12
    a, b = float(alpha), float(beta)
    return Curve("beta", "alpha", [a], [rounding.down(b, abs_err=1e-300, rel_err=rel)],
                 [rounding.up(b, abs_err=1e-300, rel_err=rel)], Kind.EXACT, Status.REFUTED, "prop-4.1-printed",
                 SOURCE_PROP_4_1_PRINTED, note=REFUTED_PROP_4_1, params=params)


def _atoms_float(e0: float, nn: int, clone_prob: float):
    """Atoms of (P0, Q0) grouped by likelihood ratio a/b, sorted increasingly: (ratios, P0
    masses, Q0 masses, relative error bound of every cumulative sum of masses, absolute error
    of the underflowed masses). C ~ Bin(n - 1, clone_prob)."""
    qc = clone_prob
    i = np.repeat(np.arange(nn), np.arange(nn) + 2)
    starts = np.concatenate([[0], np.cumsum(np.arange(nn) + 2)[:-1]])
    a = np.arange(len(i)) - np.repeat(starts, np.arange(nn) + 2)
    b = i + 1 - a
    fi, fa = i.astype(float), a.astype(float)
    lw_i = binom_logpmf(np.arange(nn, dtype=float), nn - 1, qc)
    lw = lw_i[i]
    # log C(i, k) 2^-i from a table of log k! (gammaln, within an ulp or two of each entry)
    lf = special.gammaln(np.arange(nn + 2, dtype=float) + 1.0)
    log_half = math.log(0.5)
    with np.errstate(divide="ignore", under="ignore", invalid="ignore"):
        def log_pmf(k):
            inside = (k >= 0) & (k <= i)
            kk = np.clip(k, 0, i)
            return np.where(inside, lf[i] - lf[kk] - lf[i - kk] + i * log_half, -np.inf)
        lp = lw + log_pmf(a - 1)
        lq = lw + log_pmf(a)
        pm, qm = np.exp(lp), np.exp(lq)
        ratio = np.where(b > 0, fa / np.maximum(b, 1), np.inf)
    # distinct fractions a/b, c/d with a + b, c + d <= n differ by at least 1/n^2 relative: far
    # more than the rounding of the division, so equal floats are equal ratios
    order = np.argsort(ratio, kind="stable")
    r_sorted = ratio[order]
    uniq, idx = np.unique(r_sorted, return_index=True)
    p_grp = np.add.reduceat(pm[order], idx)
    q_grp = np.add.reduceat(qm[order], idx)
    # each mass: the log-pmf errors (binom_tail_rtol each, plus 4 eps per unit of log magnitude
    # and the clone probability's own error) and exp; sums: (count) u relative; underflowed
    # masses (below 1e-307 each) as an absolute error
    # each mass: log w_i (binom_tail_rtol, and the clone probability's own error), three table
    # entries of magnitude <= log(n!) (two ulps each) and i log 2, then exp; sums of K terms: K u
    mags = float(lf[-1]) + nn + float(np.max(np.abs(lw_i[np.isfinite(lw_i)]), initial=0.0))
    rel = (2 * float(binom_tail_rtol(nn)) + 16 * rounding.EPS * (mags + 2) + 4 * nn * INPUT_RTOL
           + (len(i) + 4) * _U)
    return uniq, p_grp, q_grp, rel, len(i) * 1e-307


def p0q0_tradeoff(eps0, n, *, digits=None, reduction=DEFAULT_REDUCTION) -> tradeoff.PiecewiseLinear:
    """The exact trade-off function T(P0, Q0) (Proposition 4.1, corrected), from every atom.

    The atoms (a, b), a + b = i + 1, carry P0-mass w_i p_i(a - 1) and Q0-mass w_i p_i(a), with
    likelihood ratio a/b; grouped by equal ratio and sorted, they are the canonical pair of the
    piecewise-linear function (the knots are (alpha0(t), beta0(t)) of :func:`proposition_4_1`
    at every ratio t). About n^2/2 atoms: n <= :data:`EXACT_MAX_N` (float64) or
    :data:`MP_EXACT_MAX_N` (``digits``). Float64 knots are within about 1e-10 of the exact ones
    (use :func:`shuffle_tradeoff` for a certified bound). C ~ Bin(n - 1, q), q of ``reduction``.
    """
    e0, nn = _check(eps0, n)
    red = clones.reduction(reduction)
    digits = validate.digits(digits)
    if digits is None:
        _limit(nn, EXACT_MAX_N, "n")
        _, p_grp, q_grp, _, _ = _atoms_float(e0, nn, clone_probability(e0, red))
        return tradeoff.PiecewiseLinear(p_grp, q_grp)
    _limit(nn, MP_EXACT_MAX_N, "n (with digits)")
    _, p_grp, q_grp = _atoms_mp(e0, nn, digits, red)
    # already grouped by exact ratio and sorted: the canonical pair as it is (the generic
    # grouping would add masses of equal float ratios at mpmath's default precision)
    return tradeoff.PiecewiseLinear(p_grp, q_grp, digits=digits, _checked=True)


def _limit(nn, top, name):
    if nn > top:
        raise validate.DomainError(f"{name} = {nn} is invalid here: the exact knots are built for n in [1, {top}]")


def _atoms_mp(e0: float, nn: int, digits: int, reduction=DEFAULT_REDUCTION):
    """mpmath version of :func:`_atoms_float`, grouped by exact Fraction ratios."""
    groups: dict = {}
    with mpmath.workdps(digits + 15):
        _, _, q = _mp_params(e0, reduction)
        half = mpmath.mpf(1) / 2
        for i in range(nn):
            wi = mp_binom_pmf(i, nn - 1, q)
            pmf = [mp_binom_pmf(k, i, half) for k in range(i + 1)]
            for a in range(i + 2):
                b = i + 1 - a
                key = Fraction(a, b) if b > 0 else None
                pm = wi * pmf[a - 1] if a >= 1 else mpmath.mpf(0)
                qm = wi * pmf[a] if a <= i else mpmath.mpf(0)
                old = groups.get(key, (mpmath.mpf(0), mpmath.mpf(0)))
                groups[key] = (old[0] + pm, old[1] + qm)
        keys = sorted((k for k in groups if k is not None))
        if None in groups:
            keys.append(None)
        return keys, [groups[k][0] for k in keys], [groups[k][1] for k in keys]


def pq_tradeoff(eps0, n, *, clone_prob=None, reduction=DEFAULT_REDUCTION) -> tradeoff.PiecewiseLinear:
    """The exact trade-off function T(P, Q) of the shuffle pair P = (1 - w) P0 + w Q0,
    Q = (1 - w) Q0 + w P0 (float64, n <= :data:`EXACT_MAX_N`; knots within about 1e-10).

    On the atom (a, b) the likelihood ratio of (P, Q) is ((1-w) a + w b)/((1-w) b + w a), an
    increasing function of a/b, so the atoms group and sort as for (P0, Q0). The clone
    probability is that of ``reduction`` (or ``clone_prob`` if given): 2w gives the pair of
    Wang et al. (2023) (the "stronger clone" pair of Feldman, McMillan, Talwar 2023), the left
    side of Theorem 4.2; e^-eps0 (``reduction="clones"``) the exact curve of Chen, Cao, Ge (Theorem 1,
    corrected: docs/errata.md#chen2024-theorem-1).
    """
    e0, nn = _check(eps0, n)
    _limit(nn, EXACT_MAX_N, "n")
    qc = clone_probability(e0, reduction) if clone_prob is None else validate.probability("clone_prob", clone_prob)
    w, _ = weights(e0)
    _, p_grp, q_grp, _, _ = _atoms_float(e0, nn, qc)
    return tradeoff.PiecewiseLinear((1 - w) * p_grp + w * q_grp, (1 - w) * q_grp + w * p_grp)


def f_shuffle_knots(eps0, n, *, reduction=DEFAULT_REDUCTION):
    """Knots (alpha, beta) of f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0) (Theorem 4.2, before
    symmetrization; float64, n <= :data:`EXACT_MAX_N`): the abscissae of T(P0, Q0), and
    ``beta = 2w (1 - alpha0) + (1 - 2w) beta0``."""
    e0, nn = _check(eps0, n)
    _limit(nn, EXACT_MAX_N, "n")
    w, th = weights(e0)
    f0 = p0q0_tradeoff(e0, nn, reduction=reduction)
    a0, b0 = f0.knots()
    return a0, 2 * w * (1 - a0) + th * b0


# ----------------------------------------------------------------------------- envelope


def _envelope(slopes, intercepts, digits=None) -> tradeoff.PiecewiseLinear:
    """A lower bound on every trade-off function f with f(x) >= c_j + s_j x for all j.

    ``slopes`` < 0 (finite), ``intercepts`` certified from below. The knots are those of
    :func:`dptheory.hull.envelope_below` (float64: each vertex below both adjacent lines, the
    polyline cut where it meets y = 0, room left for the cumulative sums of
    :class:`~dptheory.tradeoff.PiecewiseLinear`), or with ``digits`` of :func:`_envelope_mp`.
    """
    if digits is not None:
        return _envelope_mp(slopes, intercepts, digits)
    xs, ys = envelope_below(slopes, intercepts)
    p_mass = np.concatenate([[0.0], np.diff(xs), [max(1.0 - xs[-1], 0.0)]])
    q_mass = np.concatenate([[max(1.0 - ys[0], 0.0)], np.maximum(-np.diff(ys), 0.0), [0.0]])
    return tradeoff.PiecewiseLinear(p_mass, q_mass)


def _envelope_mp(slopes, intercepts, digits):
    """:func:`_envelope` with mpmath: the lines of :func:`dptheory.hull.upper_envelope_lines`,
    every vertex taken below both its lines by a margin of 10^-(digits + 5) (the working
    precision is ``digits + 15`` digits: its rounding is far below the margin, so no directed
    float rounding is needed, unlike :func:`dptheory.hull.envelope_below`)."""
    work = digits + 15
    with mpmath.workdps(work):
        margin = mpmath.mpf(10) ** (-(digits + 5))
        kept = [(mpmath.mpf(sv), mpmath.mpf(cv)) for sv, cv in zip(slopes, intercepts) if cv > 0]
        dedup = list(zip(*upper_envelope_lines([sv for sv, _ in kept], [cv for _, cv in kept])))
        zero, one = mpmath.mpf(0), mpmath.mpf(1)
        xs, ys = [zero], [dedup[0][1] * (1 - margin)]
        prev = zero
        end = len(dedup) - 1
        for j in range(len(dedup) - 1):
            (s1, c1), (s2, c2) = dedup[j], dedup[j + 1]
            x = min(max((c1 - c2) / (s2 - s1), prev), one)
            y = min(c1 + s1 * x, c2 + s2 * x) - margin * (1 + c1 + c2)
            if y <= 0:
                end = j
                break
            xs.append(x)
            ys.append(y)
            prev = x
        s_e, c_e = dedup[end]
        root = max(min(c_e / -s_e * (1 - margin), one), xs[-1])
        if root > xs[-1]:
            xs.append(root)
            ys.append(zero)
        else:
            ys[-1] = zero
        p_mass = [zero] + [b - a for a, b in zip(xs, xs[1:])] + [max(one - xs[-1], zero)]
        q_mass = [max(one - ys[0], zero)] + [max(a - b, zero) for a, b in zip(ys, ys[1:])] + [zero]
        keep = [j for j in range(len(p_mass)) if p_mass[j] > 0 or q_mass[j] > 0]
        p_mass, q_mass = [p_mass[j] for j in keep], [q_mass[j] for j in keep]
    # kept at the working precision (rounding the masses to ``digits`` would move the knots by
    # more than the margin), in hull order: the segments are sorted by slope already
    return tradeoff.PiecewiseLinear(p_mass, q_mass, digits=work, _checked=True)


def _reflect(slopes, intercepts):
    """Reflections about the diagonal of lines y = c + s x (s < 0): y = c/|s| - x/|s|; the new
    slope is rounded towards 0, which (for a symmetric f, whose intercept c(sigma) is
    non-decreasing in |sigma|) keeps the line under f; the intercept is rounded down."""
    s = np.asarray(slopes, dtype=float)
    c = np.asarray(intercepts, dtype=float)
    inv = -1.0 / np.abs(s)
    inv = rounding.up(inv, ulps=1)  # towards zero (inv < 0): |new slope| <= 1/|s|
    return inv, rounding.down(c * np.abs(inv), rel_err=2 * _U)


# ----------------------------------------------------------------------------- trade-off


def _exact_lines(e0: float, nn: int, qc: float):
    """Tangent lines of f_Shuffle along every segment of slope <= -1 (P0-threshold t <= 1),
    intercepts certified from below (float64)."""
    w, th = weights(e0)
    ratios, p_grp, q_grp, rel, absolute = _atoms_float(e0, nn, qc)
    alpha = np.concatenate([[0.0], np.cumsum(p_grp)])
    beta0 = np.concatenate([np.cumsum(q_grp[::-1])[::-1], [0.0]])
    alpha = np.minimum(alpha, 1.0)
    bsh = 2 * w * (1 - alpha) + th * beta0
    # segment j: knot j -> knot j + 1. Segments lighter than PRUNE_MASS are left out (fewer
    # lines: a lower envelope, by at most the mass left out in a run of them)
    seg = np.nonzero((ratios > 0) & (ratios <= 1.0) & (p_grp + q_grp > PRUNE_MASS))[0]
    t = ratios[seg]
    slope = -(2 * w + th / t)
    slope = rounding.down(slope, ulps=1)
    m = len(alpha)
    cands = []
    for off in (-1, 0, 1, 2):
        k = np.clip(seg + off, 0, m - 1)
        cands.append(bsh[k] - slope * alpha[k])
    c = np.min(np.vstack(cands), axis=0)
    err = (rel + 16 * _U) * (2 + 2 * c) + absolute * (2 + np.abs(slope))
    c = rounding.down(c, abs_err=err)
    # the line of slope -1 (always a supporting line of C(f); the only one at n = 1)
    c1 = float(np.min(bsh + alpha))
    c1 = rounding.down(c1, abs_err=(rel + 16 * _U) * 4 + 2 * absolute)
    return np.append(slope, -1.0), np.append(c, c1)


def _rr_lines(e0: float):
    """The two lines of f_{eps0,0} = max(0, 1 - e^eps0 x, e^-eps0 (1 - x)), the trade-off
    function of eps0-DP (Dong, Roth, Su 2022, Proposition 2.5): the shuffled mechanism is eps0-DP. The
    first with its slope rounded down (steeper: lower on [0, 1]); the second as c (1 - x) with
    c <= e^-eps0 (its slope -c exactly, so it ends at (1, 0))."""
    steep = rounding.down(-math.exp(e0), rel_err=2 * _U)
    if not math.isfinite(steep):
        steep = -np.finfo(float).max
    c = rounding.down(math.exp(-e0), rel_err=2 * _U)
    return np.array([steep, -c]), np.array([1.0, c])


def _grid_lines(e0: float, nn: int, rtol: float, reduction):
    """Lines 1 - delta(eps) - e^eps x on a grid of eps >= 0, delta certified from above."""
    mu = asymptotic_mu(e0, nn, reduction)
    top = min(10 * mu + mu * mu, 60.0, e0)
    eps = np.linspace(0.0, top, GRID_LINES)
    slopes = -np.exp(eps)
    cs = []
    for sl in slopes:
        e_lo = max(rounding.log_down(-sl), 0.0)
        res = _delta_float(e0, nn, e_lo, rtol, reduction)
        cs.append(rounding.down(1.0 - res.upper, abs_err=_U))
    return slopes, np.array(cs)


def shuffle_tradeoff(eps0, n, *, digits=None, reduction=DEFAULT_REDUCTION) -> tradeoff.PiecewiseLinear:
    """A certified lower bound on the trade-off function of n shuffled eps0-LDP users.

    It is max(C(f_Shuffle), f_{eps0,0}): C(f_Shuffle) the symmetrization of
    ``f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0)`` (Theorem 4.2, which holds as the inequality
    ``T(P, Q) >= C(f_Shuffle)``; the equality of the paper's proof is false), with T(P0, Q0)
    exact (Proposition 4.1 corrected), and f_{eps0,0} the trade-off function of eps0-DP (the shuffled
    mechanism is a post-processing of the victim's eps0-LDP report; it matters at small n):

    * n <= :data:`EXACT_MAX_N` (float64) or :data:`MP_EXACT_MAX_N` (``digits``): the upper
      envelope of the tangents of f_Shuffle along all its segments of slope <= -1 and their
      reflections, which is C(f_Shuffle) itself, lowered by the computation's own error bound;
    * larger n: the envelope of the lines ``1 - delta(eps) - e^eps alpha`` and their
      reflections on :data:`GRID_LINES` values of eps >= 0, with delta from
      :func:`shuffle_delta` (certified from above). A lower bound on C(f_Shuffle), exact at the
      points where those lines touch it (Dong, Roth, Su 2022, Proposition 2.12);
    * always the two lines of f_{eps0,0}.

    Status: that of the reduction's pair (:func:`status`; ``"stronger-clones"``, the default and
    the paper's, is unproven for a general eps0-LDP randomizer, ``"clones"`` is proven).
    Domain: eps0 > 0, n >= 1 integer. Source: Wang et al. (2023), Proposition 4.1, Theorem 4.2.
    """
    e0, nn = _check(eps0, n)
    red = clones.reduction(reduction)
    digits = validate.digits(digits)
    if digits is not None:
        _limit(nn, MP_EXACT_MAX_N, "n (with digits)")
        s, c = _exact_lines_mp(e0, nn, digits, red)
        with mpmath.workdps(digits + 15):
            rs = [1 / sv for sv in s]
            rc = [cv / -sv for sv, cv in zip(s, c)]
            E = mpmath.exp(mpmath.mpf(e0))
            rr_s, rr_c = [-E, -1 / E], [mpmath.mpf(1), 1 / E]
        return _envelope_mp(list(s) + rs + rr_s, list(c) + rc + rr_c, digits)
    if nn <= EXACT_MAX_N:
        s, c = _exact_lines(e0, nn, clone_probability(e0, red))
    else:
        s, c = _grid_lines(e0, nn, 1e-2, red)
    steep = s < -1.0
    rs, rc = _reflect(s[steep], c[steep])
    rr_s, rr_c = _rr_lines(e0)
    return _envelope(np.concatenate([s, rs, rr_s]), np.concatenate([c, rc, rr_c]))


def _exact_lines_mp(e0: float, nn: int, digits: int, reduction):
    keys, p_grp, q_grp = _atoms_mp(e0, nn, digits, reduction)
    with mpmath.workdps(digits + 15):
        w, th, _ = _mp_params(e0, reduction)
        alpha = [mpmath.mpf(0)]
        for v in p_grp:
            alpha.append(alpha[-1] + v)
        beta0 = [mpmath.mpf(0)]
        for v in reversed(q_grp):
            beta0.append(beta0[-1] + v)
        beta0 = beta0[::-1]
        bsh = [2 * w * (1 - a) + th * b for a, b in zip(alpha, beta0)]
        slopes, cs = [], []
        for j, key in enumerate(keys):
            if key is None or key == 0 or key > 1:
                continue
            sl = -(2 * w + th * key.denominator / key.numerator)
            c = min(bsh[k] - sl * alpha[k] for k in (j, j + 1))  # exact slope: the segment's ends
            slopes.append(sl)
            cs.append(c * (1 - mpmath.mpf(10) ** (-(digits + 6))))
        slopes.append(mpmath.mpf(-1))
        cs.append(min(b + a for a, b in zip(alpha, bsh)) * (1 - mpmath.mpf(10) ** (-(digits + 6))))
        return slopes, cs


# ----------------------------------------------------------------------------- delta


def _tilde(e0: float, epsilon: float):
    """(eps~_lo, eps~_hi) enclosing eps~ = log((e^eps - 2w)/(1 - 2w)) = log1p(expm1(eps)/tanh(eps0/2))."""
    th = math.tanh(e0 / 2.0)
    th_lo, th_hi = rounding.down(th, rel_err=2 * _U), rounding.up(th, rel_err=2 * _U)
    if epsilon < 700.0:
        em = math.expm1(epsilon)
        lo = math.log1p(em / th_hi)
        hi = math.log1p(em / th_lo)
        return rounding.down(lo, rel_err=6 * _U), rounding.up(hi, rel_err=6 * _U)
    # e^eps~ = e^eps (1 - 2w e^-eps) / th, and 2w e^-eps < e^-700
    base_lo = epsilon - math.log(th_hi)
    base_hi = epsilon - math.log(th_lo)
    size = 8 * _U * (epsilon + abs(math.log(th_lo)) + 1)
    return rounding.down(base_lo, abs_err=size + 1e-300), rounding.up(base_hi, abs_err=size)


def _p0q0_pair(e0: float, nn: int, reduction=DEFAULT_REDUCTION) -> CountPair:
    """(P0, Q0) as a count pair: the victim's message is of type 0 under P0 and type 1 under Q0,
    n - 1 fair clones each present with the reduction's clone probability."""

    def spec():
        _, _, Q = _mp_params(e0, reduction)
        return Q, mpmath.mpf(1), mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(1) / 2

    return CountPair(nn - 1, clone_probability(e0, reduction), 1.0, 0.0, input_rtol=INPUT_RTOL, exact=spec)


#: up to this many counts the float64 sum takes every count as its own bucket (no gap)
POINTWISE_MAX = 2048
#: bucket budget of the float64 delta (see :func:`_log_h0`)
BUCKET_BUDGET = 800
#: half-width of the window of buckets around the summand's peak, in standard deviations
PEAK_SDS = 8.5


def _chernoff_outer(N: int, q: float, lg: float, a: int, b: int) -> float:
    """log of an upper bound on sum_{a <= m <= b} P(C = m - 1) h(m), C ~ Bin(N, q), with
    h(m) = H_gamma(1 + B || B), B ~ Bin(m - 1, 1/2), gamma = e^lg (-inf for an empty range).

    h(m) <= P(B > theta m - 1), theta = gamma/(1 + gamma) (the positive terms of
    sum_k (p(k-1) - gamma p(k))_+ have k > theta m), and by Chernoff, for lam >= 0,
    P(B >= theta m - 1) <= e^{lam} (2/(1 + e^lam)) rho^m with rho = e^{-lam theta} (1 + e^lam)/2.
    Then sum_m Bin(m-1; N, q) rho^m = rho (1 - q + q rho)^N P(Bin(N, q') in [a-1, b-1]),
    q' = q rho/(1 - q + q rho) (exponential tilting), summed by the certified binomial range.
    lam = log(theta/(1 - theta)), the Chernoff optimum. Every float step is rounded outwards;
    the rounding of q and q' (the clone probability is within INPUT_RTOL of the pair's, q' a few
    ulps more) moves (1 - q + q rho)^N and the range probability by at most a factor
    e^{4 (INPUT_RTOL + 8 u) N (1 + q/(1-q))}, which is added."""
    if b < a:
        return -math.inf
    g = math.exp(lg)
    theta = rounding.down(g / (1.0 + g), rel_err=4 * _U)
    lam = max(math.log(theta) - math.log1p(-theta), 0.0) if theta > 0.5 else 0.0
    log_c = lam + math.log(2.0) - math.log1p(math.exp(lam))
    log_rho = -lam * theta + math.log1p(math.exp(lam)) - math.log(2.0)
    rho = math.exp(log_rho)
    mix = math.log1p(q * math.expm1(log_rho))
    q_t = q * rho / (1.0 - q + q * rho)
    lw, lerr = log_binom_range(np.array([a - 1.0]), np.array([b - 1.0]), N, q_t)
    lw, lerr = float(lw[0]), float(lerr[0])
    if lw == -math.inf:
        return -math.inf
    total = log_c + log_rho + N * mix + float(np.logaddexp(lw, lerr))
    slack = (16 * _U * (abs(log_c) + abs(log_rho) * 2 + N * abs(mix) + abs(lw) + 4)
             + 4 * (INPUT_RTOL + 8 * _U) * N * (1.0 + max(q, q_t) / max(1.0 - max(q, q_t), 1e-300)) + 1e-12)
    return float(rounding.up(total, abs_err=slack))


def _log_h0(pair: CountPair, lg_lo: float, lg_hi: float, rtol: float) -> tuple[Enclosure, float]:
    """Certified enclosure of log H_gamma(P0 || Q0) over gamma in [e^lg_lo, e^lg_hi] (the upper
    end at lg_lo, the lower end at lg_hi: H is non-increasing in gamma), and the relative width
    aimed at.

    H = sum_m w(m) h(m) over the total count m = 1 + C, w the law of m, h non-increasing (one
    more fair clone is a post-processing). Only the mass that matters is bucketed: the peak m*
    of w(m) h(m) is located on a few coarse grids of single counts; over m* +- PEAK_SDS sd (sd of
    the tilted binomial, sqrt(m* (1 - m*/(n+1))) + 1) the sum is bucketed with the certified
    bounds of :meth:`~dptheory.shuffle.pairs.CountPair._bucket_bounds` (the bucket's weight times
    h at its two ends), with widths that grow like w0 e^{x^2/(4 sd^2)} away from m* (they minimise
    the number of buckets for a given first-order gap c sum_b W_b width_b, c the slope of log h
    at m*: w0 = G/(2 sqrt(2) c) gives a gap of about G = rtol/2), capped where c width = 1/2;
    the two outer ranges are bounded from above by a Chernoff bound on h summed as a tilted
    binomial (:func:`_chernoff_outer`; relative size about sqrt(m*) e^{-PEAK_SDS^2/2}) and from
    below by 0. Where that needs more than :data:`BUCKET_BUDGET` buckets -- far in the tail,
    |log delta| large against sqrt(n) (below about e^-1000 at n = 1e7), where h(m) is not smooth
    at the scale of one count (lattice effects of the floor in its threshold) -- every width is
    scaled up to fit the budget and the relative width grows accordingly (log delta still to
    within a few units). So the cost does not grow with n or epsilon. A few rounds of
    :func:`~dptheory.shuffle.binomial_sums.refine_buckets` finish where the model of the summand was off.
    Up to :data:`POINTWISE_MAX` counts every count is its own bucket."""
    top = pair.others + 1
    outer = [-math.inf]

    def bounds(ma, mb):
        """Per bucket (log hi, log lo, -inf): the bucket's weight W (relative error r) times h
        at its ends, every error folded into the end it widens -- W (1 + r)(h(ma) + e) above,
        W (1 - r)(h(mb) - e) below (h(ma) >> h(mb) in a wide bucket, so an error of the upper
        end must not be taken off the lower one). The pseudo-bucket [0, 0] is the outer ranges'
        bound (upper only)."""
        pseudo = np.asarray(ma) == 0
        ma, mb = np.where(pseudo, 1.0, ma), np.where(pseudo, 1.0, mb)
        lw, lw_err = pair._log_weights(ma, mb)
        shape = np.shape(ma)
        one, zero, half = np.ones(shape), np.zeros(shape), np.full(shape, 0.5)
        l_hi, e_hi = log_hockey_stick_binary_count(one, zero, ma - 1.0, half, lg_lo)
        l_lo, e_lo = log_hockey_stick_binary_count(one, zero, mb - 1.0, half, lg_hi)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            rel = np.exp(lw_err - lw)
            hi = lw + np.log1p(rel) + np.logaddexp(l_hi, e_hi)
            core = np.where(e_lo < l_lo, l_lo + np.log(-np.expm1(np.minimum(e_lo - l_lo, 0.0))), -np.inf)
            lo = np.where(rel < 1, lw + np.log1p(-np.minimum(rel, 1.0)) + core, -np.inf)
        hi = np.where(np.isneginf(lw), -np.inf, hi)
        lo = np.where(np.isneginf(lw) | np.isnan(lo), -np.inf, lo)
        hi = np.where(pseudo, outer[0], hi)
        lo = np.where(pseudo, -np.inf, lo)
        return hi, lo, np.full(shape, -np.inf)

    if top <= POINTWISE_MAX:
        m = np.arange(1, top + 1, dtype=float)
        enc, _, _ = refine_buckets(bounds, m, m, rtol, max_rounds=0)
        return enc, rtol
    N, q = pair.others, pair.clone_prob

    def log_h(m):
        m = np.asarray(m, dtype=float)
        out, _ = log_hockey_stick_binary_count(np.ones(m.shape), np.zeros(m.shape), m - 1.0, np.full(m.shape, 0.5), lg_lo)
        return out

    def log_f(m):
        return binom_logpmf(np.asarray(m, dtype=float) - 1.0, N, q) + log_h(m)

    mean, sd0 = N * q + 1, math.sqrt(N * q * (1 - q)) + 1
    grid = np.unique(np.clip(np.round(np.concatenate([
        np.geomspace(1, top, 48), np.linspace(1, top, 24),
        np.linspace(mean - 60 * sd0, mean + 8 * sd0, 48)])), 1, top))
    for _ in range(6):
        f = log_f(grid)
        j = int(np.argmax(f))
        lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
        if hi - lo <= 64:
            break
        grid = np.unique(np.round(np.linspace(lo, hi, 49)))
    m_star = float(grid[int(np.argmax(log_f(grid)))])
    sd = math.sqrt(m_star * max(1.0 - m_star / top, 1.0 / top)) + 1.0
    m_lo = max(1.0, math.floor(m_star - PEAK_SDS * sd))
    m_hi = min(float(top), math.ceil(m_star + PEAK_SDS * sd))
    a, b = max(m_lo, m_star - round(sd)), min(m_hi, m_star + round(sd))
    lh = log_h([a, b])
    c = max(float(lh[0] - lh[1]) / (b - a), 1e-300) if b > a else 1e-300
    # Bucket widths over the window. (A) w0 e^{x^2/(4 sd^2)}, at least 1 and at most 1/(2c):
    # a first-order gap of about rtol/2; past the budget w0 is scaled by the least k that fits
    # (a gap of about k rtol/2). (B) where that gap would exceed 1/4 (far tail), v + x^2/(4 c sd^2):
    # a bucket spans a factor e^{c width} of h while the summand falls like e^{-x^2/(2 sd^2)}, so
    # each over-states its share by at most about e^{c v} e^{-x^2/(4 sd^2)}, v the least that
    # fits the budget (about 4 pi^2 c sd^2 / budget^2).
    w0 = (rtol / 2) / (2 * math.sqrt(2) * c)
    x = np.linspace(m_lo - m_star, m_hi + 1 - m_star, 4001)
    growth = np.exp(np.minimum(x * x / (4 * sd * sd), 700.0))
    top_width = max(1.0, 0.5 / c)

    def cumulative(width):
        return np.concatenate([[0.0], np.cumsum(np.diff(x) * 2 / (width[1:] + width[:-1]))])

    def count_a(k):
        return cumulative(np.clip(k * w0 * growth, 1.0, top_width))

    cum, k = count_a(1.0), 1.0
    if cum[-1] > BUCKET_BUDGET and cumulative(np.full(x.shape, top_width))[-1] <= BUCKET_BUDGET:
        lo_k, hi_k = 1.0, 2.0
        while count_a(hi_k)[-1] > BUCKET_BUDGET:
            lo_k, hi_k = hi_k, 2 * hi_k
        for _ in range(16):
            mid = math.sqrt(lo_k * hi_k)
            lo_k, hi_k = (mid, hi_k) if count_a(mid)[-1] > BUCKET_BUDGET else (lo_k, mid)
        cum, k = count_a(hi_k), hi_k
    limited = cum[-1] > BUCKET_BUDGET or k > 1.0
    if cum[-1] > BUCKET_BUDGET or k * rtol > 0.5:
        v = max(1.0, 4 * math.pi**2 * c * sd * sd / BUCKET_BUDGET**2)
        while True:
            cum = cumulative(np.maximum(v + x * x / (4 * c * sd * sd), 1.0))
            if cum[-1] <= BUCKET_BUDGET:
                break
            v *= 1.25
    edges = np.interp(np.arange(0.0, float(cum[-1]), 1.0), cum, x) + m_star
    edges = np.unique(np.clip(np.round(np.concatenate([edges, [m_lo, m_hi + 1]])), m_lo, m_hi + 1))
    ma, mb = np.append(edges[:-1], 0.0), np.append(edges[1:] - 1, 0.0)
    outer[0] = float(np.logaddexp(_chernoff_outer(N, q, lg_lo, 1, int(m_lo) - 1),
                                  _chernoff_outer(N, q, lg_lo, int(m_hi) + 1, top)))
    # within the budget a few refinement rounds correct the model of the summand; past it the
    # enclosure is taken as it is
    enc, _, _ = refine_buckets(bounds, ma, mb, rtol, max_rounds=0 if limited else 4)
    return enc, (max(rtol, enc.relative_width()) if limited else rtol)


def _eps0_dp_log_delta(e0: float, eps: float) -> tuple[float, float]:
    """(log lower, log upper) of (e^eps0 - e^eps)_+/(e^eps0 + 1) = -expm1(eps - eps0)/(1 + e^-eps0),
    the delta of eps0-DP (randomized response, the trade-off function f_{eps0,0}): the shuffled
    mechanism is eps0-DP, so this bounds its delta too."""
    if eps >= e0:
        return -math.inf, -math.inf
    v = -math.expm1(eps - e0) / (1.0 + math.exp(-e0))
    lv = math.log(v)
    size = 8 * _U * (1 + abs(lv)) + 8 * _U * abs(eps - e0) / max(-math.expm1(eps - e0), 1e-300) * 2
    return rounding.down(lv, abs_err=size), rounding.up(lv, abs_err=size)


def _combine(log_lo: float, log_up: float, e0: float, eps: float, reduction, note: str, params: dict,
             method: str = "shuffle-fdp") -> Result:
    """min(Corollary 4.3, eps0-DP) as one Result, labelled with the reduction's status."""
    st, why = status(reduction)
    dp_lo, dp_up = _eps0_dp_log_delta(e0, eps)
    which = "Corollary 4.3" if log_up <= dp_up else "eps0-DP"
    lo, up = min(log_lo, dp_lo), min(log_up, dp_up, 0.0)  # a hockey-stick divergence is at most 1
    text = (f"min(Corollary 4.3 = (1 - 2w) H_{{e^eps~}}(P0||Q0), eps0-DP bound (e^eps0 - e^eps)_+/(e^eps0 + 1)); "
            f"the {which} bound is the smaller here; pair: {reduction} (q = {'e^-eps0' if reduction == 'clones' else '2/(e^eps0+1)'})"
            + (f"; {why}" if st is not Status.PROVEN else "") + (f"; {note}" if note else ""))
    res = Result.from_log("delta", min(lo, up), up, kind=Kind.UPPER, status=st, method=method,
                           source=f"{SOURCE_COR_4_3}; {clones.reduction_source(reduction)}; {SOURCE_EPS0_DP}",
                           note=text, params={**params, "reduction": reduction, "bound": which,
                                              "cor43_log_upper": log_up, "eps0_dp_log_upper": dp_up})
    # delta <= 1 exactly (the rounding of e^0 upwards must not lift it above)
    return res if res.upper <= 1.0 else res.replace(upper=1.0, lower=min(res.lower, 1.0))


def _delta_float(e0: float, nn: int, eps: float, rtol: float, reduction=DEFAULT_REDUCTION) -> Result:
    """Corollary 4.3 in float64, and its minimum with the eps0-DP bound (see :func:`shuffle_delta`)."""
    _, th = weights(e0)
    params = {"eps0": e0, "n": nn, "epsilon": eps}
    if eps >= e0:
        return _combine(-math.inf, 0.0, e0, eps, reduction, "", params)
    lo_t, hi_t = _tilde(e0, eps)
    pair = _p0q0_pair(e0, nn, reduction)
    enc, aim = _log_h0(pair, lo_t, hi_t, rtol)  # H0 is non-increasing: eps~_lo gives the upper end
    log_th_hi = rounding.log_up(rounding.up(th, rel_err=2 * _U))
    log_th_lo = rounding.log_down(rounding.down(th, rel_err=2 * _U))
    log_up = rounding.up(enc.log_upper + log_th_hi, abs_err=2 * _U * (abs(enc.log_upper) + abs(log_th_hi)))
    ll = enc.log_lower
    log_lo = rounding.down(ll + log_th_lo, abs_err=4 * _U * (abs(ll) + abs(log_th_lo))) if ll > -math.inf else -math.inf
    if enc.log_upper == -math.inf:
        log_up = -math.inf
    note = "" if aim <= rtol else f"far tail: relative width aimed at {aim:.2g} (bucket budget), not rtol = {rtol:g}"
    return _combine(min(log_lo, log_up), log_up, e0, eps, reduction, note, {**params, "aimed_rtol": aim})


def _mp_delta0_sum(e0: float, nn: int, eps: float, i_lo: int, i_hi: int, reduction=DEFAULT_REDUCTION):
    """sum_{i_lo <= i <= i_hi} w_i h_i(gamma) at the working precision, by exact recurrences in
    i from the mode (no tail evaluated twice): h_i = gamma p_i(k) - (gamma - 1) S_i(k),
    k = floor((gamma i - 1)/(gamma + 1)) + 1 the first positive term of
    sum_k (p_i(k) - gamma p_i(k+1))_+."""
    W, th, Q = _mp_params(e0, reduction)
    g = 1 + mpmath.expm1(mpmath.mpf(eps)) / th  # e^eps~
    half = mpmath.mpf(1) / 2

    def kstar(i):
        return int(mpmath.floor((g * i - 1) / (g + 1))) + 1

    start = min(max(int(round((nn - 1) * float(Q))), i_lo), i_hi)
    k0 = kstar(start)
    S0, p0 = mp_binom_sf(k0, start, half), mp_binom_pmf(k0, start, half)
    w0 = mp_binom_pmf(start, nn - 1, Q)
    odds = Q / (1 - Q) if Q < 1 else None
    total = w0 * (g * p0 - (g - 1) * S0)
    # upwards
    i, k, S, p, w = start, k0, S0, p0, w0
    while i < i_hi:
        pk1 = p * k / (i - k + 1) if k >= 1 else mpmath.mpf(0)  # p_i(k - 1)
        S = S + pk1 / 2 if k >= 1 else mpmath.mpf(1)
        p = (p + pk1) / 2
        w = w * (nn - 1 - i) / (i + 1) * odds
        i += 1
        kn = kstar(i)
        while k < kn:
            S = S - p
            p = p * (i - k) / (k + 1)
            k += 1
        total += w * (g * p - (g - 1) * S)
    # downwards
    i, k, S, p, w = start, k0, S0, p0, w0
    while i > i_lo:
        pkm1 = p * 2 * k / i  # p_{i-1}(k - 1)
        S = S - pkm1 / 2
        p = p * 2 * (i - k) / i  # p_{i-1}(k)
        w = w * i / (nn - i) / odds
        i -= 1
        kn = kstar(i)
        if k > kn:
            S, p, k = S + pkm1, pkm1, k - 1
        while k > kn:
            p = p * k / (i - k + 1)  # p_i(k - 1)
            S = S + p
            k -= 1
        total += w * (g * p - (g - 1) * S)
    return total


def _delta_mp(e0: float, nn: int, eps: float, digits: int, reduction=DEFAULT_REDUCTION) -> Result:
    """Corollary 4.3 with mpmath: (1 - 2w) sum_i w_i h_i over a window of i, the rest bounded by the
    binomial tails of C (h_i in [0, 1], non-increasing in i), the sum evaluated until two working
    precisions agree (:func:`dptheory.precision.mp_adaptive`); then its minimum with the
    eps0-DP bound, in mpmath."""
    params = {"eps0": e0, "n": nn, "epsilon": eps, "digits": digits}
    if eps >= e0:
        return _combine(-math.inf, -math.inf, e0, eps, reduction, f"mpmath, {digits} digits",
                        {**params, "value": "0"})
    with mpmath.workdps(30):
        _, _, Q = _mp_params(e0, reduction)
        mean, sd = (nn - 1) * float(Q), math.sqrt((nn - 1) * float(Q) * (1 - float(Q)))
    k_sd = math.sqrt(2 * math.log(10) * (digits + 20)) + 5
    while True:
        i_lo = max(0, int(mean - k_sd * sd) - 10)
        i_hi = min(nn - 1, int(mean + k_sd * sd) + 10)
        value = mp_adaptive(lambda: _mp_delta0_sum(e0, nn, eps, i_lo, i_hi, reduction), digits + 5)
        with mpmath.workdps(digits + 20):
            _, th, Q = _mp_params(e0, reduction)
            below = mp_binom_cdf(i_lo - 1, nn - 1, Q) if i_lo > 0 else mpmath.mpf(0)
            above = mp_binom_sf(i_hi + 1, nn - 1, Q) if i_hi < nn - 1 else mpmath.mpf(0)
            omitted = below + above  # h <= 1
            if value == 0 or omitted <= value * mpmath.mpf(10) ** (-digits) or (i_lo == 0 and i_hi == nn - 1):
                break
        k_sd *= 1.6
    with mpmath.workdps(digits + 20):
        rel = mpmath.mpf(10) ** (-(digits + 2))
        hi = th * (value * (1 + rel) + omitted)
        lo = th * value * (1 - rel)
        E = mpmath.exp(mpmath.mpf(e0))
        dp = (E - mpmath.exp(mpmath.mpf(eps))) / (E + 1)  # the eps0-DP bound
        shown = mpmath.nstr(min(th * value, dp), digits)
        log_hi = rounding.mp_up(mpmath.log(hi)) if hi > 0 else -math.inf
        log_lo = rounding.mp_down(mpmath.log(lo)) if lo > 0 else -math.inf
    return _combine(log_lo, log_hi, e0, eps, reduction, f"mpmath, {digits} digits", {**params, "value": shown})


def shuffle_delta(eps0, n, epsilon, *, digits=None, rtol: float = 1e-3, reduction=DEFAULT_REDUCTION) -> Result:
    """delta(epsilon) of n shuffled eps0-LDP users: Corollary 4.3 (corrected t_y), combined with
    the eps0-DP bound; an upper bound.

    ``delta(eps) = min(1 + f_Shuffle*(-e^eps), (e^eps0 - e^eps)_+/(e^eps0 + 1))`` with
    ``1 + f_Shuffle*(-e^eps) = (1 - 2w) H_{e^eps~}(P0 || Q0)``, ``e^eps~ = (e^eps - 2w)/(1 - 2w)``,
    w = 1/(e^eps0 + 1): the conjugate is attained at the P0-threshold t_y = (1 - 2w)/(e^eps - 2w),
    not where the printed chord slope l(t) puts it. The second term is the delta of eps0-DP
    (the shuffled mechanism is a post-processing of the victim's eps0-LDP report): it makes
    delta 0 for eps >= eps0, and is the smaller one at small n; a minimum of two upper bounds is
    an upper bound. The hockey-stick divergence of (P0, Q0) is a certified bucketed sum over the
    clone count (:func:`_log_h0`: float64, about the same cost at every n and epsilon; relative
    width ``rtol``, wider only far in the tail, see there), or with ``digits`` an mpmath sum by
    recurrences in i (:func:`_delta_mp`). The Result carries log_lower/log_upper: below the
    float range use them.

    ``reduction`` chooses the pair (:data:`REDUCTIONS`): the default, the paper's
    "stronger-clones", is **unproven** for a general eps0-LDP randomizer (the general proof of
    Feldman, McMillan, Talwar 2023 was withdrawn); "clones" (FMT 2021, q = e^-eps0) is proven.
    The status of the Result says which (:func:`status`).

    Domain: eps0 > 0, n >= 1, epsilon >= 0. Source: Wang et al. (2023), Corollary 4.3; the erratum
    on t_y: docs/errata.md#wang2023-corollary-4-3.
    """
    e0, nn = _check(eps0, n)
    eps = validate.real("epsilon", epsilon, low=0.0)
    digits = validate.digits(digits)
    rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    red = clones.reduction(reduction)
    if digits is not None:
        return _delta_mp(e0, nn, eps, digits, red)
    return _delta_float(e0, nn, eps, rtol, red)


def corollary_4_3_printed_delta(eps0, n, epsilon, *, reduction=DEFAULT_REDUCTION) -> Result:
    """Corollary 4.3 as printed: t_y = inf{t : -e^eps + 2w - (1 - 2w) l(t) <= 0} with the chord
    ratio ``l(t) = -sum_i w_i p_i(s_i + 1) / sum_i w_i p_i(s_i)``, and
    ``delta = 1 - e^eps alpha0(t_y) - 2w (1 - alpha0(t_y)) - (1 - 2w) beta0(t_y)``.

    Status refuted: the chord is steeper than the curve, so t_y is too large and delta too small
    (negative at n = 20, eps0 = 1, eps = 2; docs/errata.md#wang2023-corollary-4-3). Float64, exact floors, O(n)
    per threshold scanned: small n only (n <= 300). Kept for the erratum test.
    """
    e0, nn = _check(eps0, n)
    eps = validate.real("epsilon", epsilon, low=0.0)
    if nn > 300:
        raise validate.DomainError(f"n = {nn} is invalid here: the printed Corollary 4.3 is evaluated for n in [1, 300]")
    w, th = weights(e0)
    red = clones.reduction(reduction)
    i = np.arange(nn)
    lw = np.exp(binom_logpmf(i.astype(float), nn - 1, clone_probability(e0, red)))
    ts = sorted({Fraction(a, b) for b in range(1, nn + 1) for a in range(1, nn + 1 - b)})
    target = (math.exp(eps) - 2 * w) / th  # condition: |l(t)| <= target
    for t in ts:
        s = _floors(t, nn).astype(float)
        den = np.sum(lw * np.exp(binom_logpmf(s, i.astype(float), 0.5)))
        if den == 0:
            continue  # l(t) undefined: every s_i = -1
        num = np.sum(lw * np.exp(binom_logpmf(s + 1, i.astype(float), 0.5)))
        if num / den <= target:
            a0, b0 = proposition_4_1(e0, nn, t, reduction=red)
            value = 1 - math.exp(eps) * a0 - 2 * w * (1 - a0) - th * b0
            return Result("delta", value, value, Kind.UPPER, Status.REFUTED, "shuffle-fdp-printed",
                          f"{SOURCE}, Corollary 4.3 as printed", note=REFUTED_COR_4_3,
                          params={"eps0": e0, "n": nn, "epsilon": eps, "t_y": float(t), "reduction": red})
    # no threshold qualifies: t_y = inf (the infimum of an empty set), alpha0 = 1, beta0 = 0
    value = -math.expm1(eps)
    return Result("delta", value, value, Kind.UPPER, Status.REFUTED, "shuffle-fdp-printed",
                  f"{SOURCE}, Corollary 4.3 as printed", note=REFUTED_COR_4_3,
                  params={"eps0": e0, "n": nn, "epsilon": eps, "t_y": math.inf, "reduction": red})


# ----------------------------------------------------------------------------- GDP description


def gdp_fit(curve: tradeoff.TradeOff) -> Result:
    """The mu whose G_mu is closest to ``curve`` in the sup norm over alpha (an approximation:
    status "not a bound"; the distance is in ``params["sup_distance"]``)."""
    from scipy import optimize

    if isinstance(curve, tradeoff.PiecewiseLinear):
        ka = np.asarray(curve.knots_alpha, dtype=float)
        if len(ka) > 2000:
            ka = ka[np.linspace(0, len(ka) - 1, 2000).astype(int)]
        grid = np.unique(np.concatenate([ka, np.linspace(0.0, 1.0, 401)]))
    else:
        grid = np.linspace(0.0, 1.0, 1001)
    fv = np.asarray(curve(grid), dtype=float)
    grid_in = grid[(grid > 0) & (grid < 1)]
    f_in = fv[(grid > 0) & (grid < 1)]

    def dist(mu):
        return float(np.max(np.abs(tradeoff.gaussian(mu)(grid_in) - f_in)))

    hi = 1.0
    while dist(hi) < dist(hi / 2) and hi < 64:
        hi *= 2
    res = optimize.minimize_scalar(dist, bounds=(0.0, hi), method="bounded", options={"xatol": 1e-10})
    mu = float(res.x)
    return Result("mu", mu, mu, Kind.APPROXIMATION, Status.NOT_A_BOUND, "gdp-fit",
                  "closest G_mu in the sup norm (Dong, Roth, Su 2022, Definition 2.4)",
                  note="describes the curve; not a bound in either direction",
                  params={"sup_distance": dist(mu)})


# ----------------------------------------------------------------------------- report


def _log_or_none(x) -> float | None:
    """A log end for JSON: the number, or None where the end is 0 (log -inf)."""
    return None if x is None or x == -math.inf else float(x)


@dataclasses.dataclass(frozen=True)
class ShuffleFdpReport:
    """Everything ``dptheory fdp shuffle`` shows, computed by :func:`fdp_report`.

    ``curve`` is the certified lower bound on the trade-off function (:func:`shuffle_tradeoff`),
    ``profile`` one entry per epsilon: ``delta`` (a :class:`~dptheory.results.Result`, upper
    bound, :func:`shuffle_delta`) and ``rounds`` (the composed rounds, or None;
    :func:`dptheory.shuffle.rounds.rounds_delta`), ``values`` the curve at the requested alphas,
    ``gdp`` the closest G_mu (an approximation) and ``asymptotic_mu``. :meth:`as_dict` is the
    JSON form: ``knots`` (a list of [alpha, beta]), ``kind``, ``status`` (with ``status_note``:
    the pair's, :func:`status`), ``source``, ``note``,
    ``profile`` (objects with ``epsilon``, ``delta`` = the upper end, ``delta_lower``,
    ``log_delta_upper`` and ``log_delta_lower`` -- a number, or null where that end is 0 --,
    ``kind``, ``status``, ``method``, ``source``, ``note``, and with rounds ``rounds``,
    ``rounds_delta``, ``rounds_result``), ``values``, ``gdp``, ``parameters``.
    """

    parameters: dict
    curve: tradeoff.PiecewiseLinear
    curve_status: Status
    status_note: str
    curve_note: str
    profile: tuple
    values: tuple
    gdp: Result
    asymptotic_mu: float

    @property
    def knots(self) -> list:
        a, b = self.curve.knots()
        return [[float(x), float(y)] for x, y in zip(a, b)]

    def as_dict(self) -> dict:
        profile = []
        for entry in self.profile:
            res: Result = entry["delta"]
            row = {"epsilon": entry["epsilon"], "delta": res.upper, "delta_lower": res.lower,
                   "log_delta_upper": _log_or_none(res.log_upper), "log_delta_lower": _log_or_none(res.log_lower),
                   "kind": str(res.kind), "status": str(res.status), "method": res.method, "source": res.source,
                   "note": res.note, "bound": res.params.get("bound")}
            if "value" in res.params:
                row["delta_value"] = res.params["value"]
            if entry.get("rounds") is not None:
                composed: Result = entry["rounds"]
                row.update(rounds=self.parameters["rounds"], rounds_delta=composed.upper,
                           rounds_result={**composed.as_dict(), "log_lower": _log_or_none(composed.log_lower),
                                          "log_upper": _log_or_none(composed.log_upper)})
            profile.append(row)
        return {"parameters": dict(self.parameters), "knots": self.knots, "kind": "lower",
                "status": str(self.curve_status), "status_note": self.status_note, "source": SOURCE_THM_4_2,
                "note": self.curve_note,
                "profile": profile, "values": [dict(v) for v in self.values],
                "gdp": {**self.gdp.as_dict(), "asymptotic_mu": self.asymptotic_mu}}


def fdp_report(eps0, n, epsilons=(), *, alphas=(), rounds=None, digits=None, reduction=None,
                   rounds_reduction=None) -> ShuffleFdpReport:
    """The f-DP of n shuffled eps0-LDP users at once: the certified trade-off curve
    (:func:`shuffle_tradeoff`, with mpmath for n <= :data:`MP_EXACT_MAX_N` when ``digits``), its
    values at ``alphas``, delta at each epsilon (:func:`shuffle_delta`), the delta of ``rounds``
    composed rounds (:func:`dptheory.shuffle.rounds.rounds_delta`, if given), and the GDP mu
    closest to the curve (:func:`gdp_fit`, an approximation) with its asymptotic value.

    ``reduction`` (default: the paper's "stronger-clones", unproven for a general eps0-LDP
    randomizer) chooses the pair of the single round; ``rounds_reduction`` that of the composed
    rounds (default ``reduction`` if given, else the proven "clones"). Bad input raises
    :class:`~dptheory.validate.DomainError` naming the parameter.
    """
    from . import rounds as rounds_module

    e0, nn = _check(eps0, n)
    epsilons = [validate.real("epsilon", e, low=0.0) for e in epsilons]
    alphas = [validate.real("alpha", a, low=0.0, high=1.0) for a in alphas]
    digits = validate.digits(digits)
    T = None if rounds is None else validate.integer("rounds", rounds, low=1)
    red = clones.reduction(DEFAULT_REDUCTION if reduction is None else reduction)
    rounds_red = clones.reduction(rounds_module.DEFAULT_REDUCTION if rounds_reduction is None and reduction is None
                                  else (reduction if rounds_reduction is None else rounds_reduction))
    curve_digits = digits if digits is not None and nn <= MP_EXACT_MAX_N else None
    curve = shuffle_tradeoff(e0, nn, digits=curve_digits, reduction=red)
    st, why = status(red)
    how = ("exact max(C(f_Shuffle), f_{eps0,0}) up to rounding" if nn <= EXACT_MAX_N or curve_digits is not None
           else f"envelope of {GRID_LINES} lines 1 - delta(eps) - e^eps alpha, their reflections and f_{{eps0,0}}")
    note = ("knots of a certified lower bound on the trade-off function of the shuffled mechanism (Theorem 4.2 "
            f"holds as T(P,Q) >= C(f_Shuffle)); {how}")
    composed = (rounds_module.rounds_deltas(e0, nn, T, epsilons, reduction=rounds_red) if T is not None and epsilons
                else [None] * len(epsilons))
    profile = [{"epsilon": e, "delta": shuffle_delta(e0, nn, e, digits=digits, reduction=red), "rounds": r}
               for e, r in zip(epsilons, composed)]
    values = tuple({"alpha": a, "beta": float(curve(a))} for a in alphas)
    parameters = {"eps0": e0, "n": nn, "digits": digits, "rounds": T, "reduction": red,
                  "rounds_reduction": rounds_red if T is not None else None}
    return ShuffleFdpReport(parameters, curve, st, why, note, tuple(profile), values, gdp_fit(curve),
                            asymptotic_mu(e0, nn, red))
