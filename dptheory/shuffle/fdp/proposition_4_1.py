"""Proposition 4.1 of Wang, Su, Ye, Shokri, Su (2023), corrected: the exact trade-off function
T(P0, Q0) of the shuffle pair at its knots.

* :func:`proposition_4_1`: the knot (alpha0(t), beta0(t)) at one threshold t, integer floors
  ``s_i(t) = floor((t i - 1)/(t + 1))``, O(n) (the catalogue formula
  ``shuffle-fdp-prop-4.1-beta``, :data:`PROP_4_1_BETA`);
* :func:`proposition_4_1_printed`: the printed form, which drops the "1 -" (refuted: off by up to
  1; :data:`PROP_4_1_BETA_PRINTED`, docs/errata.md#wang2023-proposition-4-1);
* :func:`p0q0_tradeoff`: every knot at once, by grouping the atoms by likelihood ratio and sorting
  them (n <= :data:`EXACT_MAX_N` in float64, :data:`MP_EXACT_MAX_N` with mpmath);
* :func:`pq_tradeoff`: the exact T(P, Q) of the mixed pair P = (1 - w) P0 + w Q0 (the left side of
  Theorem 4.2), :func:`f_shuffle_knots` the knots of f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0).

The pair and its clone probability: :mod:`dptheory.shuffle.fdp.pair`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy import special

from ... import rounding, tradeoff, validate
from ...formula import Formula, Parts, register
from ...precision import binom_logpmf, binom_tail_rtol, mp_binom_cdf, mp_binom_pmf
from ...results import Curve, Kind, Status
from .. import clones
from ..clones import INPUT_RTOL
from .pair import (_U, DEFAULT_REDUCTION, REFUTED_PROP_4_1, SOURCE_PROP_4_1, SOURCE_PROP_4_1_PRINTED, _check,
                   _mp_params, clone_probability, weights)


#: largest n for which the float64 trade-off function is built from every knot (about n^2/2 atoms)
EXACT_MAX_N = 1000

#: largest n for the mpmath trade-off function (atoms summed with mpmath)
MP_EXACT_MAX_N = 150


# --------------------------------------------------------------------- formulas


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use. F_i(u) is written
    as a sum over k = 0..i with the indicator [k <= u] = Heaviside(u - k + 1/2) (u an integer),
    so that the summation bounds stay integers for the generated numpy and mpmath functions."""
    import sympy as sp

    from ...symbols import eps0, n, t

    i, k = sp.symbols("i k", integer=True, nonnegative=True)
    u = sp.Symbol("u", integer=True)
    # the names the paper uses: q the clone probability, w_i the weight of C = i, s_i the knot
    # index of F_i (Proposition 4.1); F_i(u) = P[Binomial(i, 1/2) <= u]
    q = sp.Symbol("q", positive=True)
    w, s, F = sp.Function("w_"), sp.Function("s_"), sp.Function("F_")
    named = (
        (q, 2 / (sp.exp(eps0) + 1)),
        (w, sp.Lambda(i, sp.binomial(n - 1, i) * q**i * (1 - q) ** (n - 1 - i))),
        (s, sp.Lambda(i, sp.floor((t * i - 1) / (t + 1)))),
        (F, sp.Lambda((i, u), sp.Sum(sp.binomial(i, k) / 2**i * sp.Heaviside(u - k + sp.Rational(1, 2)),
                                     (k, 0, i)))),
    )
    return {
        "shuffle-fdp-prop-4.1-beta": Parts(sp.Sum(w(i) * (1 - F(i, s(i) + 1)), (i, 0, n - 1)), (eps0, n, t),
                                           (t >= 0,), named),
        "shuffle-fdp-prop-4.1-beta-printed": Parts(sp.Sum(w(i) * F(i, s(i) + 1), (i, 0, n - 1)), (eps0, n, t),
                                                   (t >= 0,), named),
    }


PROP_4_1_BETA = register(Formula(
    name="shuffle-fdp-prop-4.1-beta", build=_closed_forms, kind=Kind.EXACT, status=Status.PROVEN,
    source=SOURCE_PROP_4_1, lhs=r"\beta_0(t)",
    erratum="the printed final form drops the '1 -' (docs/errata.md#wang2023-proposition-4-1)",
    description="type II error of $T(P_0, Q_0)$ at its knot of threshold $t$ (the paper's clone probability $q = 2/(e^{\\epsilon_0}+1)$)",
))


PROP_4_1_BETA_PRINTED = register(Formula(
    name="shuffle-fdp-prop-4.1-beta-printed", build=_closed_forms, kind=Kind.EXACT, status=Status.REFUTED,
    source=SOURCE_PROP_4_1_PRINTED, lhs=r"\beta_0(t)",
    erratum=REFUTED_PROP_4_1,
    description="Proposition 4.1 as printed (refuted: off the Neyman-Pearson knot by up to 1)",
))


# ------------------------------------------------------------------------ knots


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
        from ...precision import binom_cdf
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
    fa = a.astype(float)
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
