"""Variation-ratio reduction of Wang et al. (VLDB 2024): the pair P^q_{p,beta}, Q^q_{p,beta}, its
numerical divergence (Theorems 4.1/4.8, Algorithm 1), its closed forms (Theorems 4.2 and 4.3,
Table 1), the lower bound (Theorem 5.1, Proposition I.1, Algorithm 3), and the labelled pair.

**Proof status** (docs/errata.md#wang2024-lemma-4-5). Lemma 4.5's post-processing is flawed
whenever the victim has a residual component (1 - alpha - p alpha > 0): exact enumeration finds the
shuffled divergence above the bound already for GRR on 3 options at n = 2. So the pair with beta below the worst case
(p-1)/(p+1) is a **refuted** bound. With beta at the worst case the victim has no residual; the
bound is then the "stronger clone" bound, proven only where the stronger-clone decomposition
exists (:func:`stronger_clone_condition`; Feldman, McMillan, Talwar 2023, erratum).

**Labelled pair** (a sound refinement derived here; docs/errata.md#derived-labelled-variation-ratio).
Keep, besides the counts (a, b), whether the victim's message came from the common components
(label V). Lemma 4.4's decomposition makes the shuffled output a post-processing of (a, b, V):
given (a, b, V) the set of other users holding their own residual is uniform of a known size,
under either hypothesis. V has the same law under both hypotheses and carries no information when
V = 0, so for gamma >= 1

    H_gamma(real) <= (p + 1) alpha' H_gamma(RR_p + Bin(N, 2 alpha' p / q) fair coins),

with alpha' = beta'/(p - 1) for the *actual* total variation beta' of the victim's pair. The
bound is not monotone in beta', so it is maximised over every beta' the randomizer can have
(:func:`labelled_delta`), with interval bounds that make the maximum certified.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from .. import validate
from ..formula import Parts, definer
from ..inverse import bisect_monotone
from ..lazy_import import mpmath
from ..precision import binom_logpmf, binom_sf, mp_binom_pmf, mp_binom_sf
from ..results import Kind, Status
from ..rounding import EPS
from . import exact
from .pairs import CountPair, Enclosure
from .pairs import mp_delta as pairs_mp_delta
from .randomizers import Randomizer

SOURCE = "Wang et al. (2024)"
REFUTATION = ("refuted for beta below (p-1)/(p+1): exact enumeration of GRR on 3 options, eps0 = 1, n = 2 "
              "exceeds it at eps = 0.7 (0.086025 > 0.072135; docs/errata.md#wang2024-lemma-4-5)")


# ----------------------------------------------------------------------------- the pair


def check_parameters(p_value, beta_value, q_value):
    """Validate (p, beta, q): p > 1 (inf allowed), 0 <= beta <= (p-1)/(p+1), q >= 1, 2r <= 1."""
    pv = validate.real("p", p_value, low=1.0, low_open=True, allow_inf=True)
    qv = validate.real("q", q_value, low=1.0, allow_inf=True)
    worst = 1.0 if math.isinf(pv) else (pv - 1) / (pv + 1)
    bv = validate.real("beta", beta_value, low=0.0)
    if bv > worst * (1 + 1e-12):
        raise validate.DomainError(f"beta = {bv!r} is invalid: must be in [0, (p-1)/(p+1)] = [0, {worst!r}]")
    bv = min(bv, worst)
    if not math.isinf(pv) and 2 * clone_rate(pv, bv, qv) > 1 + 1e-12:
        raise validate.DomainError(
            f"(p, beta, q) = ({pv}, {bv}, {qv}) gives a clone probability 2r = 2 beta p/((p-1) q) > 1; Lemma 4.4 needs r <= 1/2")
    return pv, bv, qv


def clone_rate(p_value, beta_value, q_value):
    """r = alpha p / q with alpha = beta/(p-1) (beta/q in the limit p -> inf)."""
    if math.isinf(p_value):
        return beta_value / q_value
    return beta_value / (p_value - 1) * p_value / q_value


def input_rtol(p_value) -> float:
    """Error of the pair's float parameters against the pair of the real (p, beta, q) that the
    floats stand for (each within a few ulps, as from e^eps0 or a table formula): alpha = beta/(p-1)
    and p/(p+1) lose a factor p/(p-1) to the subtraction."""
    if math.isinf(p_value):
        return 8 * EPS
    return 16 * EPS * (1 + p_value / (p_value - 1))


#: relative error of p/(p+1) and 1/(p+1) from a float p within a few ulps of the real one
THETA_RTOL = 8 * EPS


def pair(p_value, beta_value, q_value, others: int, *, exact=None) -> CountPair:
    """The pair P^q_{p,beta}, Q^q_{p,beta} of Theorem 4.7 with ``others`` other users (n - 1).

    ``exact``: None, or a callable returning the real (p, beta, q) that the floats stand for as
    mpmath numbers at the working precision (e.g. p = e^eps0); the pair's mpmath fallback near
    eps0 then computes with them instead of widening by the floats' error."""
    pv, bv, qv = check_parameters(p_value, beta_value, q_value)
    r = clone_rate(pv, bv, qv)
    if math.isinf(pv):  # alpha -> 0, p alpha -> beta
        return CountPair(others, min(1.0, 2 * r), 1.0, 0.0, victim_prob=bv, input_rtol=input_rtol(pv))
    return CountPair(others, min(1.0, 2 * r), pv / (pv + 1), 1 / (pv + 1), victim_prob=_victim_prob(pv, bv),
                     input_rtol=input_rtol(pv), theta_rtol=THETA_RTOL,
                     exact=None if exact is None else _pair_spec(exact))


def _pair_spec(exact):
    """The CountPair parameters (clone_prob, theta_p, theta_q, victim_prob, clone_bias) of the
    pair of the real (p, beta, q) that ``exact()`` returns, at the working precision."""
    def spec():
        P, B, Q = exact()
        A = B / (P - 1)
        return 2 * A * P / Q, P / (P + 1), 1 / (P + 1), min(mpmath.mpf(1), (P + 1) * A), mpmath.mpf(1) / 2
    return spec


def _victim_prob(pv: float, bv: float) -> float:
    """(p + 1) alpha; exactly 1 at the worst case beta = (p-1)/(p+1) (the tolerance of
    :attr:`Randomizer.is_worst_case`), where the victim has no residual component. Taking it as 1
    there is sound for an upper bound: a randomizer with (p, beta)-variation has it for every
    larger beta."""
    worst = (pv - 1) / (pv + 1)
    return 1.0 if bv >= worst * (1 - 1e-12) else min(1.0, (pv + 1) * bv / (pv - 1))


def generalized_pair(p0, beta_value, q0, q1, others: int) -> CountPair:
    """P^{q0,q1}_{p0,beta}, Q^{q0,q1}_{p0,beta} of Theorem 5.1 / Proposition I.1 (asymmetric when q0 != q1)."""
    pv = validate.real("p0", p0, low=1.0, low_open=True)
    bv = validate.real("beta", beta_value, low=0.0, high=(pv - 1) / (pv + 1) * (1 + 1e-12))
    a = validate.real("q0", q0, low=1.0)
    b = validate.real("q1", q1, low=1.0)
    if not (1 / pv <= a / b <= pv):
        raise validate.DomainError(f"q0/q1 = {a / b!r} is invalid: must be in [1/p0, p0] = [{1 / pv!r}, {pv!r}]")
    alpha = bv / (pv - 1)
    r0, r1 = alpha * pv / a, alpha * pv / b
    if r0 + r1 > 1 + 1e-12:
        raise validate.DomainError(f"r0 + r1 = {r0 + r1!r} is invalid: must be at most 1")
    return CountPair(others, min(1.0, r0 + r1), pv / (pv + 1), 1 / (pv + 1),
                     victim_prob=_victim_prob(pv, bv), clone_bias=r0 / (r0 + r1) if r0 + r1 > 0 else 0.5,
                     input_rtol=input_rtol(pv), theta_rtol=THETA_RTOL)


def log_delta(p_value, beta_value, q_value, others: int, epsilon, *, rtol: float = 1e-6, exact=None,
              start: dict | None = None) -> Enclosure:
    """Certified log of max(D(P||Q), D(Q||P)) for the variation-ratio pair (Theorem 4.8; the pair
    is symmetric, so one direction suffices). ``start``: as in
    :meth:`dptheory.shuffle.pairs.CountPair.log_delta` (a dict of one inversion)."""
    if check_parameters(p_value, beta_value, q_value)[1] == 0:
        return Enclosure(-math.inf, -math.inf)  # beta = 0: both laws are (0, 0)
    return pair(p_value, beta_value, q_value, others, exact=exact).log_delta(epsilon, rtol=rtol, start=start)


def mp_delta(p_value, beta_value, q_value, others: int, epsilon, digits: int = 50):
    """D_{e^eps}(P^q_{p,beta} || Q^q_{p,beta}) with mpmath, the pair's parameters computed at that
    precision from (p, beta, q) (floats taken exactly, or strings). Returns (value, omitted mass)."""
    pv, bv, qv = check_parameters(float(p_value), float(beta_value), float(q_value))
    if math.isinf(pv):
        raise validate.DomainError("p = inf: use log_delta")
    with mpmath.workdps(validate.digits(digits) + 20):
        P, B, Q = mpmath.mpf(p_value), mpmath.mpf(beta_value), mpmath.mpf(q_value)
        A = B / (P - 1)
        R = A * P / Q
        return pairs_mp_delta(others, 2 * R, P / (P + 1), 1 / (P + 1), (P + 1) * A, mpmath.mpf(1) / 2, epsilon, digits)


# ----------------------------------------------------------------------------- Theorem 4.8, literal


def theorem_4_8(n_value, p_value, beta_value, q_value, epsilon, digits=None):
    """The O(n) expectation of Theorem 4.8, as printed (with eps' = eps), for reproduction.

    E_{c ~ Bin(n-1, 2r)} [(p - e^eps) alpha CDF_c[ceil(low_{c+1} - 1), c]
    + (1 - p e^eps) alpha CDF_c[ceil(low_{c+1}), c] + (1 - e^eps)(1 - alpha - p alpha) CDF_c[ceil(low_c), c]]

    with low_c as in the theorem. Float64 (n up to 1e7) or mpmath (small n). Every term is
    summed; no truncation.
    """
    nn = validate.integer("n", n_value, low=1)
    pv, bv, qv = check_parameters(p_value, beta_value, q_value)
    e = validate.real("epsilon", epsilon)
    if math.isinf(pv):
        raise validate.DomainError("p = inf: use log_delta (Theorem 4.8 is stated for finite p)")
    if bv == 0:
        return max(0.0, -math.expm1(e))
    alpha = bv / (pv - 1)
    r = alpha * pv / qv
    rest = max(0.0, 1 - alpha - pv * alpha)
    digits = validate.digits(digits)
    if digits is None:
        if nn > 10**7:
            raise validate.DomainError(f"n = {nn} is too large for the literal O(n) sum (at most 1e7); use log_delta")
        c = np.arange(nn, dtype=float)
        g = math.exp(e)
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.exp(binom_logpmf(c, nn - 1, 2 * r)) if 2 * r < 1 else (c == nn - 1).astype(float)
            f_term = lambda cc: rest * (nn - cc) * r / (1 - 2 * r) if 2 * r < 1 else 0.0 * cc
            low = lambda cc: ((g * pv - 1) * alpha * cc + (g - 1) * f_term(cc)) / (alpha * (g + 1) * (pv - 1))
        def cdf_tail(lo, cc):
            return binom_sf(np.maximum(np.ceil(lo), 0.0), cc, 0.5)
        t1 = (pv - g) * alpha * cdf_tail(low(c + 1) - 1, c)
        t2 = (1 - pv * g) * alpha * cdf_tail(low(c + 1), c)
        t3 = (1 - g) * rest * cdf_tail(low(c), c)
        return float(math.fsum((w * (t1 + t2 + t3)).tolist()))
    with mpmath.workdps(digits + 20):
        P, B, Q, g = mpmath.mpf(pv), mpmath.mpf(bv), mpmath.mpf(qv), mpmath.exp(mpmath.mpf(e))
        A = B / (P - 1)
        R = A * P / Q
        REST = max(mpmath.mpf(0), 1 - A - P * A)

        def low(cc):
            f = REST * (nn - cc) * R / (1 - 2 * R)
            return ((g * P - 1) * A * cc + (g - 1) * f) / (A * (g + 1) * (P - 1))

        def tail(lo, cc):
            return mp_binom_sf(max(0, int(mpmath.ceil(lo))), cc, mpmath.mpf(1) / 2)

        total = mpmath.fsum(
            mp_binom_pmf(cc, nn - 1, 2 * R) * ((P - g) * A * tail(low(cc + 1) - 1, cc) + (1 - P * g) * A * tail(low(cc + 1), cc)
                                               + (1 - g) * REST * tail(low(cc), cc))
            for cc in range(nn))
    with mpmath.workdps(digits):
        return +total


def algorithm_1(n, p, beta, q, delta, iterations: int) -> float:
    """Algorithm 1 as printed: bisection of [0, log p] for ``iterations`` steps, returning eps_H.

    The divergence at each trial epsilon is the certified value of Theorem 4.8 (:func:`log_delta`);
    a trial is refined until its enclosure is on one side of delta, so every bisection decision is
    the one the exact algorithm makes. Used to reproduce Table 5.
    """
    nn = validate.integer("n", n, low=1)
    pv, bv, qv = check_parameters(p, beta, q)
    target = math.log(validate.delta("delta", delta))
    t = validate.integer("iterations", iterations, low=1)
    pr = pair(pv, bv, qv, nn - 1)

    def at_most_target(mid: float) -> bool:
        rtol = 1e-4
        while True:
            enc = pr.log_delta(mid, rtol=rtol)
            if enc.log_lower > target:
                return False
            if enc.log_upper <= target:
                return True
            if rtol < 1e-13:
                raise ArithmeticError(f"Algorithm 1: delta({mid}) equals the target {delta} to 13 digits")
            rtol *= 0.01

    return bisect_monotone(at_most_target, 0.0, math.log(pv), max_steps=t)[1]


# ----------------------------------------------------------------------------- closed forms

@functools.cache
def _pieces() -> dict:
    """The symbolic pieces of Theorems 4.2 and 4.3 (alpha, r, Omega, s*, ...), built on first use:
    sympy is slow to import. derivations/ reads some of them as module attributes."""
    import sympy as sp

    from ..symbols import beta, delta, eps0, n, p, q

    _alpha = beta / (p - 1)
    _r = _alpha * p / q
    _L4 = sp.log(4 / delta)
    _OMEGA = 2 * _r * (n - 1) - sp.sqrt(sp.Min(6 * _r, sp.Rational(1, 2)) * (n - 1) * _L4)
    _K = (1 - _alpha - _alpha * p) * _r / (1 - 2 * _r)
    _A = (p + 1) * _alpha / 2 - _K
    _u = sp.sqrt(_L4 / 2)
    _S_STAR = (-_A / _u + sp.sqrt((_A / _u) ** 2 + 4 * _A * (_K * (n - 1) + beta / 2))) / (2 * _A)
    _R43 = p * beta / ((p - 1) * q)
    _V43 = sp.Max(0, sp.Rational(4, 9) * (1 - 3 * _R43) / (1 - 2 * _R43))
    _E = sp.exp(eps0)
    _LD = sp.log(1 / delta)
    return dict(locals())


def __getattr__(name):
    if name in ("_OMEGA", "_S_STAR", "_V43", "_R43", "_alpha", "_r", "_L4", "_K", "_A"):
        return _pieces()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    x = _pieces()
    sp, beta, delta, eps0, n, p, q = (x[k] for k in ("sp", "beta", "delta", "eps0", "n", "p", "q"))
    _alpha, _r, _L4, _OMEGA, _A, _S_STAR = (x[k] for k in ("_alpha", "_r", "_L4", "_OMEGA", "_A", "_S_STAR"))
    _R43, _V43, _E, _LD = (x[k] for k in ("_R43", "_V43", "_E", "_LD"))
    # the names the paper prints (Theorem 4.2: epsilon = log(1 + F(Omega)) with F of Appendix F;
    # Theorem 4.3: r and v), plain symbols without assumptions so that no condition on them
    # simplifies away; the formulas' expressions have them replaced by their definitions
    Om, al, rr, K, A, s_star, v = (sp.Symbol(x) for x in ("Omega", "alpha", "r", "K", "A", "s_*", "v"))
    F, C = sp.Function("F"), sp.Symbol("C")
    root = sp.sqrt(C * _L4 / 2)
    named_42 = (
        (F, sp.Lambda(C, beta * (2 * root + 1) / (al * C + beta * (C / 2 - root)
                                                  + (1 - al - al * p) * (n - 1 - C) * rr / (1 - 2 * rr)))),
        (Om, 2 * rr * (n - 1) - sp.sqrt(sp.Min(6 * rr, sp.Rational(1, 2)) * (n - 1) * _L4)),
        (al, beta / (p - 1)),
        (rr, al * p / q),
        (K, (1 - al - al * p) * rr / (1 - 2 * rr)),
        (A, (p + 1) * al / 2 - K),
        (s_star, (-A / sp.sqrt(_L4 / 2) + sp.sqrt((A / sp.sqrt(_L4 / 2)) ** 2 + 4 * A * (K * (n - 1) + beta / 2)))
         / (2 * A)),
    )
    forms = {
        "variation-ratio-analytic": Parts(
            sp.log(1 + F(Om)),
            (p, beta, q, n, delta),
            (p > 1, q >= 1, beta > 0, beta <= (p - 1) / (p + 1), delta < 1, 2 * rr < 1,
             A > 0, Om > 0, Om >= s_star**2),
            named_42,
        ),
        "variation-ratio-analytic-printed": Parts(
            sp.log(1 + (beta * (2 * sp.sqrt(Om * _L4 / 2) + 1) + beta * (Om / 2 - sp.sqrt(Om * _L4 / 2))) / (al * Om)
                   + (1 - al - al * p) * (n - 1 - Om) * rr / ((1 - 2 * rr) * al * Om)),
            (p, beta, q, n, delta),
            (p > 1, beta > 0, delta < 1, 2 * rr < 1, Om > 0),
            named_42[1:4],
        ),
        "variation-ratio-asymptotic": Parts(
            sp.log(1 + beta / ((1 - v) * (1 + p) * beta / (p - 1) + v)
                   * (sp.sqrt(32 * _L4 / (rr * (n - 1))) + 4 / (rr * n))),
            (p, beta, q, n, delta),
            (p > 1, q >= 1, beta > 0, beta <= (p - 1) / (p + 1), delta < 1, 2 * rr < 1,
             n >= 8 * sp.log(2 / delta) / rr),
            ((rr, p * beta / ((p - 1) * q)), (v, sp.Max(0, sp.Rational(4, 9) * (1 - 3 * rr) / (1 - 2 * rr)))),
        ),
    }
    table1 = {
        "efmrtt19": Parts(sp.sqrt(sp.exp(3 * eps0) * _LD / n), (eps0, n, delta)),
        "blanket": Parts(sp.sqrt(sp.exp(2 * eps0) * _LD / n), (eps0, n, delta)),
        "clones": Parts((_E - 1) / (_E + 1) * sp.sqrt(_E * _LD / n), (eps0, n, delta)),
        "stronger-clones": Parts(sp.sqrt((_E - 1) ** 2 * _LD / (n * (_E + 1))), (eps0, n, delta)),
        "variation-ratio": Parts(sp.sqrt(beta * (_E - 1) * _LD / n), (eps0, beta, n, delta)),
    }
    forms.update({f"table1-{name}": parts for name, parts in table1.items()})
    return forms


# The variation-ratio reduction (Lemma 4.5) has a proof gap below the worst-case beta, where the
# numerical bound is refuted; at the worst case it is the stronger-clone bound, whose general proof
# was withdrawn (Feldman, McMillan, Talwar 2023, erratum to Lemma 3.5; docs/errata.md). The closed
# forms rest on it: no proof, no counterexample.
#: the variation-ratio closed forms (upper bounds on epsilon), from :func:`_closed_forms`
_epsilon = definer(_closed_forms, kind=Kind.UPPER, status=Status.UNPROVEN, lhs=r"\epsilon")

THEOREM_4_2 = _epsilon(
    "variation-ratio-analytic",
    source="Wang et al. (2024), Theorem 4.2",
    erratum=("the fractions of the printed epsilon are nested wrongly (the printed form does not decrease with n); "
             "the monotonicity threshold of condition 2 is replaced by the exact one, $\\Omega \\geq s_*^2$ "
             "(docs/errata.md#wang2024-theorem-4-2)"),
    description="analytic variation-ratio bound (corrected)",
)

THEOREM_4_2_PRINTED = _epsilon(
    "variation-ratio-analytic-printed",
    status=Status.UNPROVEN,  # a misprint: no proof gives this expression
    source="Wang et al. (2024), Theorem 4.2 as printed",
    description="Theorem 4.2 exactly as printed, kept to show the typo (its value never falls below log(1 + (p-1)/2))",
)

THEOREM_4_3 = _epsilon(
    "variation-ratio-asymptotic",
    source="Wang et al. (2024), Theorem 4.3",
    description="asymptotic variation-ratio bound with explicit constants",
)

TABLE_1 = {
    name: _epsilon(f"table1-{name}", kind=Kind.APPROXIMATION, status=Status.NOT_A_BOUND,
                   source=f"Wang et al. (2024), Table 1 ({cite}); rate up to a constant",
                   template=r"O\left({}\right)", description=f"asymptotic rate of {cite}")
    for name, cite in [
        ("efmrtt19", "Erlingsson et al. 2019"),
        ("blanket", "Balle et al. 2019"),
        ("clones", "Feldman et al. 2022"),
        ("stronger-clones", "Feldman et al. 2023"),
        ("variation-ratio", "Wang et al. 2024"),
    ]
}


# ----------------------------------------------------------------------------- status


def stronger_clone_condition(matrix) -> bool:
    """Whether every output density satisfies min_x R(x)(y) >= (R(x0)(y) + R(x1)(y)) / (p + 1) for
    all pairs x0 != x1 (p the largest ratio): then every other user's output contains the mixture
    (Q0 + Q1)/(p+1) of the stronger-clone decomposition R(x0) = p/(p+1) Q0 + 1/(p+1) Q1, and the
    pair with clone probability 2/(p+1) dominates (Feldman, McMillan, Talwar 2023; the erratum
    restricts their Lemma 3.5 to such randomizers)."""
    m = np.asarray(matrix, dtype=float)
    ratio = float(np.max(m[:, None, :] / m[None, :, :]))
    low = m.min(axis=0)
    top2 = np.sort(m, axis=0)[-2:].sum(axis=0)  # the largest R(x0)(y) + R(x1)(y) over pairs
    return bool(np.all(low * (ratio + 1) >= top2 * (1 - 1e-12)))


def reduction_status(randomizer: Randomizer) -> tuple[Status, str]:
    """Proof status of the variation-ratio pair at the randomizer's own beta."""
    if not randomizer.is_worst_case:
        return Status.REFUTED, REFUTATION
    if math.isinf(randomizer.p):
        return Status.PROVEN, r"$p = \infty$, $\beta = 1$: the victim has no residual component (Lemma 4.5 is exact)"
    if randomizer.pmfs is not None and stronger_clone_condition(randomizer.pmfs):
        return Status.PROVEN, r"$\beta$ at the worst case and the stronger-clone decomposition exists for these pmfs"
    return Status.UNPROVEN, (r"$\beta$ at the worst case is the stronger-clone bound, whose general proof was withdrawn "
                             "(Feldman, McMillan, Talwar 2023, erratum to Lemma 3.5); no counterexample is known")


# ----------------------------------------------------------------------------- labelled pair


def labelled_pair(p_value, beta_value, q_value, others: int, *, exact=None) -> tuple[float, CountPair]:
    """(factor, pair): the labelled bound is factor * H(pair), factor = (p+1) alpha (within
    ``input_rtol(p)`` relative of the real one). ``exact`` as in :func:`pair`."""
    pv, bv, qv = check_parameters(p_value, beta_value, q_value)
    r = clone_rate(pv, bv, qv)
    if math.isinf(pv):
        return bv, CountPair(others, min(1.0, 2 * r), 1.0, 0.0, input_rtol=input_rtol(pv))
    spec = None
    if exact is not None:
        full = _pair_spec(exact)
        spec = lambda: full()[:3] + (mpmath.mpf(1), mpmath.mpf(1) / 2)  # noqa: E731 (victim always present)
    return (min(1.0, (pv + 1) * bv / (pv - 1)),
            CountPair(others, min(1.0, 2 * r), pv / (pv + 1), 1 / (pv + 1), input_rtol=input_rtol(pv), theta_rtol=THETA_RTOL,
                      exact=spec))


def labelled_log_delta(p_value, beta_value, q_value, others: int, epsilon, *, uniform: bool,
                       rtol: float = 1e-6, grid: int = 24, exact=None, band=None, memory: dict | None = None) -> Enclosure:
    """Certified log of the labelled bound (proven; see the module docstring) for epsilon >= 0.

    With ``uniform`` (every pair of inputs at total variation exactly beta) the bound is evaluated
    at beta; otherwise it is maximised over beta' in [0, beta]: on [b_i, b_{i+1}] the factor is at
    most (p+1) alpha(b_{i+1}) and the divergence, non-increasing in the clone probability, at most
    its value at b_i, which bounds the maximum from above; values at grid points bound it below.

    ``band`` = (below, above), two log deltas, for a caller that only needs the side (the
    inverter's ``decide``): the maximisation stops once its lower end is above ``above`` (the upper
    end returned is then 0, a valid bound) or its upper end is at most ``below``. ``memory`` (a dict
    kept over one inversion) holds the maximiser found at the previous epsilon, evaluated first,
    and with ``uniform`` the buckets of the previous point (the pair's ``start``).
    Each grid point is first evaluated coarsely (relative width 1/2) and refined to ``rtol`` only
    where its interval can still hold the maximum (branch and bound: a coarse upper end is as
    sound as a fine one).
    """
    e = validate.real("epsilon", epsilon, low=0.0)
    pv, bv, qv = check_parameters(p_value, beta_value, q_value)
    if bv == 0:
        return Enclosure(-math.inf, -math.inf)

    # the factor's error (input_rtol relative; exact at the worst case, where it is 1)
    slack = 0.0 if math.isinf(pv) else 2 * input_rtol(pv)

    def at(b, tol=rtol):
        factor, pr = labelled_pair(pv, b, qv, others, exact=exact if b == bv else None)
        enc = pr.log_delta(e, rtol=tol)
        lf = math.log(factor) if factor > 0 else -math.inf
        if 0 < factor < 1:
            enc = Enclosure(enc.log_lower - slack, enc.log_upper + slack)
        return lf, enc

    if uniform:
        factor, pr = labelled_pair(pv, bv, qv, others, exact=exact)
        enc = pr.log_delta(e, rtol=rtol, start=None if memory is None else memory.setdefault("buckets", {}))
        lf = math.log(factor) if factor > 0 else -math.inf
        if 0 < factor < 1:
            enc = Enclosure(enc.log_lower - slack, enc.log_upper + slack)
        return Enclosure(lf + enc.log_lower, lf + enc.log_upper)
    # maximise over beta' in [0, beta]: refine the interval whose upper bound is largest. At large
    # n the maximiser is a tiny beta' (where the clones stop amplifying), so an interval is split
    # at its geometric middle when its ends are far apart in ratio, and [0, b] at b/64: the
    # refinement then converges in O(log) steps, not O(1/width) halvings. After
    # LABELLED_MAX_EVALUATIONS the current enclosure is returned (sound, possibly wider than rtol).
    coarse = max(rtol, 0.5)
    fine: set = set()
    points = [bv * (k / 8) for k in range(9)]
    previous = None if memory is None else memory.get("best")
    if previous is not None and 0 < previous < bv and previous not in points:
        points.append(previous)
        points.sort()
    values = {}
    if previous is not None and previous in points:
        values[previous] = at(previous)
        fine.add(previous)
        lf, enc = values[previous]
        if band is not None and lf + enc.log_lower > band[1]:
            return Enclosure(lf + enc.log_lower, 0.0)
    for b in points:
        if b not in values:
            values[b] = at(b, coarse)
    while True:
        lower = max(lf + enc.log_lower for lf, enc in values.values())
        bounds = [(values[points[i + 1]][0] + values[points[i]][1].log_upper, i) for i in range(len(points) - 1)]
        upper, worst = max(bounds)
        if band is not None and (lower > band[1] or upper <= band[0]):
            break
        # the end points of the worst interval refined to rtol first (a coarse value's width is
        # not the grid's)
        coarse_ends = [b for b in (points[worst], points[worst + 1]) if b not in fine]
        if coarse_ends:
            for b in coarse_ends:
                values[b] = at(b)
                fine.add(b)
            continue
        if upper == -math.inf or -math.expm1(lower - upper) <= max(rtol, 1e-12) * 2:
            break
        # the grid's share of the width (upper end above the best point's own upper end) is
        # small against the points' own width (their float error, which more points cannot narrow)
        top = max(values[b][0] + values[b][1].log_upper for b in fine)
        if (lower > -math.inf and upper - top <= max(2 * max(rtol, 1e-12), 0.1 * (top - lower))) \
                or len(values) >= LABELLED_MAX_EVALUATIONS:
            break
        a, b = points[worst], points[worst + 1]
        middle = b / 64 if a == 0 else (math.sqrt(a) * math.sqrt(b) if b > 4 * a else 0.5 * (a + b))
        if not a < middle < b:
            break
        values[middle] = at(middle, coarse)
        points.insert(worst + 1, middle)
    if memory is not None:
        memory["best"] = max(values, key=lambda b: values[b][0] + values[b][1].log_lower)
    if band is not None and lower > band[1]:
        return Enclosure(lower, 0.0)
    return Enclosure(lower, upper)


#: evaluations of the labelled bound's maximisation over beta' (each a count-pair divergence)
LABELLED_MAX_EVALUATIONS = 2000


# ----------------------------------------------------------------------------- lower bound


def _mask_sum(values) -> float:
    """Sum of a vector in ascending order: choices related by a symmetry of the pmfs (the same
    multiset of entries) then give bit-identical pairs."""
    return float(np.sort(values).sum())


def lower_bound_pair(matrix, x0: int, x1: int, x_star: int, others: int, *, exact=None) -> CountPair:
    """The pair of Theorem 5.1 (Appendix B) for victims x0 / x1 and all other users at x_star.

    Each message is mapped to (1, 0) if it favours x0 (S0), (0, 1) if it favours x1 (S1), (0, 0)
    otherwise, and the counts are summed: a post-processing of the real shuffled output, so its
    divergence is a lower bound on the real one. The probabilities are taken from the pmfs
    directly, so the bound does not need the paper's implicit symmetry assumption (the victim
    landing in S0 with probability p0 alpha); when it holds, this is P^{q0,q1}_{p0,beta}.

    ``exact``: None, or a callable returning the randomizer's pmfs in mpmath (rows), of which
    ``matrix`` is the float rounding; the pair's mpmath fallback then uses them (the masks S0, S1
    stay those of the floats: any mask is a post-processing, so the bound holds for them).
    """
    m = np.asarray(matrix, dtype=float)
    r0, r1, rs = m[x0], m[x1], m[x_star]
    s0, s1 = r0 > r1, r1 > r0
    v = _mask_sum(r0[s0]) + _mask_sum(r0[s1])
    if v == 0:
        raise validate.DomainError(f"inputs {x0} and {x1} have identical output distributions")
    clone0, clone1 = _mask_sum(rs[s0]), _mask_sum(rs[s1])
    s = clone0 + clone1
    if np.all(s0 | s1):  # every output favours x0 or x1: the masses are exactly 1
        v, s = 1.0, 1.0
    # the pmfs are floats within a few ulps of the randomizer's; sums of k of them add k ulps
    u = 8 * EPS * (m.shape[1] + 8)
    spec = None if exact is None else _lower_pair_spec(exact, x0, x1, x_star, s0, s1)
    return CountPair(others, min(1.0, s), _mask_sum(r0[s0]) / v, _mask_sum(r1[s0]) / v,
                     victim_prob=min(1.0, v), clone_bias=clone0 / s if s > 0 else 0.5, input_rtol=u, theta_rtol=u,
                     exact=spec)


def _lower_pair_spec(exact, x0, x1, x_star, s0, s1):
    """The parameters of :func:`lower_bound_pair` from the exact pmfs, at the working precision."""
    def spec():
        rows = exact()
        pick = lambda row, mask: mpmath.fsum(row[k] for k in np.nonzero(mask)[0])  # noqa: E731
        r0, r1, rs = rows[x0], rows[x1], rows[x_star]
        v, s = pick(r0, s0) + pick(r0, s1), pick(rs, s0) + pick(rs, s1)
        if np.all(s0 | s1):
            v = s = mpmath.mpf(1)
        bias = pick(rs, s0) / s if s > 0 else mpmath.mpf(1) / 2
        return min(mpmath.mpf(1), s), pick(r0, s0) / v, pick(r1, s0) / v, min(mpmath.mpf(1), v), bias
    return spec


def theorem_5_1_parameters(matrix, x0: int, x1: int, x_star: int):
    """(p0, beta, q0, q1) of Theorem 5.1 for victims x0 / x1 and other users at x_star."""
    m = np.asarray(matrix, dtype=float)
    r0, r1, rs = m[x0], m[x1], m[x_star]
    s0, s1 = r0 > r1, r1 > r0
    p0 = float(r1[s1].sum() / r0[s1].sum())
    beta_v = 0.5 * float(np.abs(r0 - r1).sum())
    return p0, beta_v, float(r0[s0].sum() / rs[s0].sum()), float(r1[s1].sum() / rs[s1].sum())


#: largest number of victim pairs (up to the pmfs' symmetry) that :func:`lower_log_delta` tries
MAX_VICTIM_ORBITS = 4


def lower_choices(matrix) -> list[tuple[int, int, int, bool]]:
    """The choices (x0, x1, x_star, reverse) over which :func:`lower_log_delta` maximises, one per
    class of choices whose pairs are the same pair.

    A choice is a victim pair (x0, x1) of largest total variation, the other users' input x_star
    and a direction (``reverse``: D(Q||P) instead of D(P||Q)). Two symmetries give the same pair:

    * a permutation of the inputs that maps the pmfs to themselves up to a permutation of the
      outputs (here: products of permutations within the blocks of
      :func:`dptheory.shuffle.exact.symmetry_blocks`, which checks each transposition exactly);
      the masses summed into the pair are the same multisets, summed in sorted order, so the two
      pairs are bit-identical;
    * exchanging x0 and x1 and the direction: S0 and S1 swap, so the pair is the reversed pair
      with the two message types relabelled, a bijection of the outcomes (equal in real
      arithmetic; the float sums differ by rounding, which each enclosure counts).

    Within a block the class of a choice is fixed by the blocks of x0, x1, x_star and by which
    of them are equal. At most :data:`MAX_VICTIM_ORBITS` classes of victim pairs are kept (the
    first in the order of the inputs); GRR on any number of options has one, and three classes of
    choices in all.
    """
    m = np.asarray(matrix, dtype=float)
    rows = m.shape[0]
    block_of = {x: b for b, block in enumerate(exact.symmetry_blocks(m)) for x in block}

    def labels(*xs):
        first: dict[int, list[int]] = {}
        out = []
        for x in xs:
            seen = first.setdefault(block_of[x], [])
            if x not in seen:
                seen.append(x)
            out.append((block_of[x], seen.index(x)))
        return tuple(out)

    tv = {(a, b): 0.5 * float(np.abs(m[a] - m[b]).sum()) for a in range(rows) for b in range(rows) if a != b}
    top = max(tv.values())
    victims, victim_keys = [], set()
    for (a, b), t in tv.items():
        key = min(labels(a, b), labels(b, a))
        if t >= top * (1 - 1e-12) and key not in victim_keys and len(victims) < MAX_VICTIM_ORBITS:
            victim_keys.add(key)
            victims.append((a, b))
    choices, keys = [], set()
    for x0, x1 in victims:
        for xs in range(rows):
            for reverse in (False, True):
                key = min((labels(x0, x1, xs), reverse), (labels(x1, x0, xs), not reverse))
                if key not in keys:
                    keys.add(key)
                    choices.append((x0, x1, xs, reverse))
    return choices


#: refinement rounds of the screening passes of :func:`lower_log_delta` (None: to the tolerance)
SCREENING_ROUNDS = (0, 4, None)


@dataclasses.dataclass
class LowerMemory:
    """What one epsilon(delta) inversion of :func:`lower_log_delta` learns from point to point:
    the choice to refine first (the best one at the previous point: usually the best again), and
    per choice the (epsilon, log upper end) pairs computed so far. A divergence is non-increasing
    in epsilon, so an upper end at epsilon' <= epsilon bounds the choice at epsilon too, and a
    choice whose such upper end is at most the best lower end already found is skipped without an
    evaluation. Kept per inversion (never in a global), so that a computation's result does not
    depend on what ran before it."""

    hint: int | None = None
    seen: dict = dataclasses.field(default_factory=dict)

    def upper_seen(self, i: int, epsilon: float) -> float:
        return min((up for e, up in self.seen.get(i, ()) if e <= epsilon), default=math.inf)


def lower_log_delta(matrix, others: int, epsilon, *, rtol: float = 1e-6, exact=None,
                    band: tuple[float, float] | None = None,
                    memory: LowerMemory | None = None) -> tuple[Enclosure, tuple]:
    """Largest certified lower bound of Theorem 5.1 over the choices of :func:`lower_choices`;
    returns the enclosure and (x0, x1, x_star) of the best choice.

    The value is the maximum, over the choices, of the lower ends of their enclosures at ``rtol``;
    the upper end bounds the largest divergence over the choices from above. Every choice is first
    bounded cheaply (the bucketed sum without refinement, then with a few rounds: certified
    enclosures too); the choice with the highest upper end is refined next (the first one straight
    to ``rtol``), and a choice is skipped once its upper end is at most the best lower end at
    ``rtol`` found so far. A skipped choice loses nothing: its lower end at ``rtol`` would be at
    most its divergence, hence at most that upper end, hence at most the maximum already found.
    So the result is the maximum over every choice of :func:`lower_choices`, which is the maximum
    over every victim pair of largest total variation (up to :data:`MAX_VICTIM_ORBITS` classes),
    every x_star and both directions. Without ``band`` and ``memory`` the call is a pure function
    of its arguments, answered from a cache when repeated.

    For an epsilon(delta) inversion (the inverter's ``decide``): ``memory`` (a
    :class:`LowerMemory` of that inversion) carries the best choice and the upper ends from point
    to point; ``band`` = (below, above), two log deltas, for a caller that only needs the side of
    the maximum: the call returns as soon as a choice's certified lower end exceeds ``above``, with
    upper end 0 (delta <= 1), and a choice whose upper end is at most ``below`` is not refined
    (the maximum's side does not depend on it). ``exact`` as in :func:`lower_bound_pair`.
    """
    m = np.ascontiguousarray(matrix, dtype=float)
    e = validate.real("epsilon", epsilon)
    rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    nn = validate.integer("others", others, low=0)
    if band is None and memory is None:
        return _lower_log_delta(m.tobytes(), m.shape, nn, e, rtol, exact)
    band = None if band is None else (float(band[0]), float(band[1]))
    return _lower_core(m, nn, e, rtol, exact, band, LowerMemory() if memory is None else memory)


@functools.lru_cache(maxsize=256)
def _lower_log_delta(data: bytes, shape: tuple, others: int, epsilon: float, rtol: float, exact=None):
    return _lower_core(np.frombuffer(data, dtype=float).reshape(shape), others, epsilon, rtol, exact, None,
                       LowerMemory())


def _lower_core(m: np.ndarray, others: int, epsilon: float, rtol: float, exact, band, memory: LowerMemory):
    candidates = []
    for x0, x1, xs, reverse in lower_choices(m):
        pr = lower_bound_pair(m, x0, x1, xs, others, exact=exact)
        candidates.append(((x0, x1, xs), pr.reversed() if reverse else pr))
    level = [0] * len(candidates)
    encs = [None] * len(candidates)
    final = len(SCREENING_ROUNDS) - 1

    def advance(i):
        rounds = SCREENING_ROUNDS[level[i]]
        kw = {} if rounds is None else {"max_rounds": rounds}
        encs[i] = candidates[i][1].log_delta(epsilon, rtol=rtol, **kw)
        mine = memory.seen.setdefault(i, [])
        mine.append((epsilon, encs[i].log_upper))
        del mine[:-16]

    best, where = -math.inf, None
    # the best choice of the previous point is refined first, without screening
    hint = memory.hint
    if hint is not None and hint < len(candidates):
        level[hint] = final
        advance(hint)
        best, where = encs[hint].log_lower, candidates[hint][0]
        if band is not None and best > band[1]:
            return Enclosure(best, 0.0), where
    for i in range(len(candidates)):
        if encs[i] is None:
            earlier = memory.upper_seen(i, epsilon)
            if earlier <= best:  # dominated already (see LowerMemory): no evaluation needed
                encs[i], level[i] = Enclosure(-math.inf, earlier), final
            else:
                advance(i)
    while True:
        floor = best if band is None else max(best, band[0])
        live = [i for i in range(len(candidates)) if level[i] < final and encs[i].log_upper > floor]
        if not live:
            break
        i = max(live, key=lambda j: encs[j].log_upper)
        # the first choice refined (highest upper end) goes straight to the tolerance: its lower
        # end is what lets the others be skipped
        level[i] = final if where is None else level[i] + 1
        advance(i)
        if level[i] == final and encs[i].log_lower > best:
            best, where = encs[i].log_lower, candidates[i][0]
            if band is not None and best > band[1]:
                memory.hint = i
                return Enclosure(best, 0.0), where
    if where is None or best == -math.inf:
        # no choice refined to a positive lower end (all below the band, or none positive): the
        # one with the highest upper end is reported, and refined first at the next point
        top = max(range(len(candidates)), key=lambda j: encs[j].log_upper)
        where, memory.hint = candidates[top][0], top
    else:
        memory.hint = [c for c, _ in candidates].index(where)
    # every choice's divergence is at most its own upper end (refined or not)
    return Enclosure(best, max(enc.log_upper for enc in encs)), where
