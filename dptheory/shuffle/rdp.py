"""Renyi DP of the shuffle model: the bounds of Girgis et al. (CCS 2021) and Chen, Cao, Ge
(ICASSP 2024), exact values, and the SGD accountant of Chen et al.

Corrected forms (digest seed-004 §3, seed-001 §2):

* Theorem 3.1 (upper bound 1): every term inside the log, binom(lam, 2) (printed "(lam/2)"),
  n_bar = floor((n - 1)/(2 e^eps0)) + 1 (the floor is what the proof gives; rounding it up is
  unsound, so it is taken with mpmath);
* Theorem 3.3 (upper bound 2): (e^eps0 - 1)^2 / n_bar and 8 e^eps0 (printed (eps0 - 1)^2 / n and
  8 eps0, which is below the exact value: see the tests);
* Chen et al. Theorem 1: the pair is the clone pair of Feldman et al. with D ~ Bern(e^eps0/(e^eps0+1))
  (printed Bern(e^-eps0)), and its divergence is that of the trade-off function's knots;
  Theorem 2 / Corollary 2 are central-limit approximations, never bounds.

Numerics are in log space: no e^{eps0 lam} or Gamma(i/2) is formed, and the moment excess is
accumulated directly so that an RDP of 1e-12 keeps its digits.
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np
from scipy import special

from .. import rdp as rdp_module, validate
from ..formula import Formula, Parts, register
from ..precision import binom_logpmf, inflate, log1mexp, logsumexp, round_up
from ..results import Kind, Result, Status
from ..tradeoff import gdp_compose
from . import clones, exact
from .pairs import excess_to_renyi, log_monotone_binomial_sum, renyi_width_rule


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from ..symbols import eps0, lam, n

    # integer Renyi order (Theorems 3.1, 3.4 and Corollaries 3.2, 3.5 need integer orders)
    lam_int = sp.Symbol("lambda", positive=True, integer=True)
    _i = sp.Symbol("i", positive=True, integer=True)
    _E = sp.exp(eps0)
    NBAR = sp.floor((n - 1) / (2 * _E)) + 1
    _CHERNOFF = sp.exp(eps0 * lam_int - (n - 1) / (8 * _E))

    return {
        "girgis-upper-1": Parts(
            sp.log(1 + sp.binomial(lam_int, 2) * (_E - 1) ** 2 / (NBAR * _E)
                   + sp.Sum(sp.binomial(lam_int, _i) * _i * sp.gamma(_i / 2)
                            * ((sp.exp(2 * eps0) - 1) ** 2 / (2 * sp.exp(2 * eps0) * NBAR)) ** (_i / 2), (_i, 3, lam_int))
                   + _CHERNOFF) / (lam_int - 1),
            (eps0, n, lam_int),
            (lam_int >= 2,),
        ),
        "girgis-corollary-3.2": Parts(
            sp.log(1 + sp.binomial(lam_int, 2) * 4 * (_E - 1) ** 2 / n) / (lam_int - 1),
            (eps0, n, lam_int),
            (lam_int >= 2, lam_int**4 * sp.exp(5 * eps0) < n / 9),
        ),
        "girgis-upper-2": Parts(
            sp.log(sp.exp(lam**2 * (_E - 1) ** 2 / NBAR) + sp.exp(eps0 * lam - (n - 1) / (8 * _E))) / (lam - 1),
            (eps0, n, lam),
            (lam > 1,),
        ),
        "girgis-upper-2-printed": Parts(
            sp.log(sp.exp(lam**2 * (eps0 - 1) ** 2 / n) + sp.exp(eps0 * lam - (n - 1) / (8 * eps0))) / (lam - 1),
            (eps0, n, lam),
            (lam > 1, eps0 > 0),
        ),
        "erlingsson-rdp": Parts(
            lam * 2 * sp.exp(4 * eps0) * (_E - 1) ** 2 / n,
            (eps0, n, lam),
            (lam > 1,),
        ),
        "girgis-corollary-3.5": Parts(
            sp.log(1 + sp.binomial(lam_int, 2) * (_E - 1) ** 2 / (n * _E)) / (lam_int - 1),
            (eps0, n, lam_int),
            (lam_int >= 2,),
        ),
        "chen-gdp": Parts(
            2 * sp.exp(eps0 / 2) / sp.sqrt(n - 1),
            (eps0, n),
            (n >= 2,),
        ),
        "chen-gdp-rdp": Parts(
            2 * sp.exp(eps0) * lam / (n - 1),
            (eps0, n, lam),
            (n >= 2, lam > 1),
        ),
        "chen-gdp-refined": Parts(
            sp.tanh(eps0 / 2) * 2 * sp.exp(eps0 / 2) / sp.sqrt(n - 1),
            (eps0, n),
            (n >= 2,),
        ),
    }


_GIRGIS = "Girgis, Data, Diggavi, Suresh, Kairouz (CCS 2021)"

UPPER_1 = register(Formula(
    name="girgis-upper-1",
    build=_closed_forms,
    kind=Kind.UPPER, status=Status.PROVEN,
    source=f"{_GIRGIS}, Theorem 3.1",
    erratum="all terms inside the log, binom(lambda, 2) for the printed (lambda/2) (digest seed-004 §3.1)",
    lhs=r"\epsilon(\lambda)",
    description="RDP upper bound 1 of the shuffle model, integer orders",
))

COROLLARY_3_2 = register(Formula(
    name="girgis-corollary-3.2",
    build=_closed_forms,
    kind=Kind.UPPER,
    status=Status.UNPROVEN,  # step (47) of its proof holds only for large n (digest seed-004 §4.5)
    source=f"{_GIRGIS}, Corollary 3.2",
    erratum="binom(lambda, 2) for the printed (lambda/2)",
    lhs=r"\epsilon(\lambda)",
    description="simplified upper bound 1; proven here only where it is checked to dominate Theorem 3.1",
))

UPPER_2 = register(Formula(
    name="girgis-upper-2",
    build=_closed_forms,
    kind=Kind.UPPER, status=Status.PROVEN,
    source=f"{_GIRGIS}, Theorem 3.3",
    erratum="(e^eps0 - 1)^2 / n_bar and 8 e^eps0 for the printed (eps0 - 1)^2 / n and 8 eps0 (digest seed-004 §3.4)",
    lhs=r"\epsilon(\lambda)",
    description="RDP upper bound 2 of the shuffle model, real orders",
))

UPPER_2_PRINTED = register(Formula(
    name="girgis-upper-2-printed",
    build=_closed_forms,
    kind=Kind.UPPER, status=Status.REFUTED,
    source=f"{_GIRGIS}, Theorem 3.3 as printed",
    lhs=r"\epsilon(\lambda)",
    description="Theorem 3.3 exactly as printed; below the exact RDP of binary randomized response",
))

ERLINGSSON_RDP = register(Formula(
    name="erlingsson-rdp",
    build=_closed_forms,
    kind=Kind.UPPER, status=Status.PROVEN,
    source="Erlingsson et al. (2019), Remark 1, as quoted by Girgis et al. (2021), eq. (9)",
    lhs=r"\epsilon(\lambda)",
))

COROLLARY_3_5 = register(Formula(
    name="girgis-corollary-3.5",
    build=_closed_forms,
    kind=Kind.LOWER, status=Status.PROVEN,
    source=f"{_GIRGIS}, Corollary 3.5",
    lhs=r"\epsilon(\lambda)",
    description="simplified lower bound on the worst-case RDP over eps0-LDP randomizers",
))

CHEN_GDP = register(Formula(
    name="chen-gdp",
    build=_closed_forms,
    kind=Kind.APPROXIMATION,
    status=Status.NOT_A_BOUND,
    source="Chen, Cao, Ge (2024), Theorem 2",
    lhs=r"\mu",
    description="asymptotic GDP parameter of the shuffled eps0-LDP process (a central-limit approximation)",
))

CHEN_RDP = register(Formula(
    name="chen-gdp-rdp",
    build=_closed_forms,
    kind=Kind.APPROXIMATION,
    status=Status.NOT_A_BOUND,
    source="Chen, Cao, Ge (2024), Corollary 2",
    lhs=r"\epsilon(\lambda)",
    description="asymptotic RDP (an approximation, not a bound); loose by coth^2(eps0/2) against the exact pair",
))

CHEN_GDP_REFINED = register(Formula(
    name="chen-gdp-refined",
    build=_closed_forms,
    kind=Kind.APPROXIMATION,
    status=Status.NOT_A_BOUND,
    source="dptheory: Gaussian limit of the mixed clone pair (digest seed-001 §2.5, seed-000 §5.6)",
    lhs=r"\mu",
    description="tanh(eps0/2) times Theorem 2's mu: the Gaussian limit of the pair with the victim's coin",
))


# ----------------------------------------------------------------------------- helpers


def nbar(eps0_value: float, n_value: int, gamma: float = 0.5) -> int:
    """floor((1 - gamma) (n - 1) / e^eps0) + 1, with the floor taken at 50 digits (a float that
    rounds up past an integer would make the bound unsound)."""
    with mpmath.workdps(50):
        return int(mpmath.floor((1 - mpmath.mpf(gamma)) * (n_value - 1) / mpmath.exp(mpmath.mpf(eps0_value)))) + 1


def _check(eps0_value, n_value, orders, integer=False):
    e0 = validate.nonnegative("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1)
    o = validate.real_array("orders", orders, low=1.0, low_open=True)
    o = np.atleast_1d(o)
    if integer and np.any(o != np.floor(o)):
        bad = o[o != np.floor(o)][0]
        raise validate.DomainError(f"orders has {bad!r}: this bound needs integer orders >= 2 (use interpolate for real orders)")
    return e0, nn, o


def _log_sinh2(x: float) -> float:
    """log sinh(x)^2 without overflow."""
    if x == 0:
        return -math.inf
    return 2 * (x + math.log(-math.expm1(-2 * x)) - math.log(2.0)) if x > 0 else _log_sinh2(-x)


def _log_b37_excess(e0: float, m, order: int) -> np.ndarray:
    """log of B_3.7(m, lam) - 1 (Theorem 3.7): binom(lam,2) 4 sinh^2(eps0/2)/m
    + sum_{i>=3} binom(lam,i) i Gamma(i/2) (2 sinh^2(eps0)/m)^{i/2}, vectorised in m."""
    m = np.atleast_1d(np.asarray(m, dtype=float))
    lg_lam = special.gammaln(order + 1.0)
    terms = [math.log(order * (order - 1) / 2) + math.log(4.0) + _log_sinh2(e0 / 2) - np.log(m)]
    if order >= 3:
        i = np.arange(3, order + 1, dtype=float)
        base = lg_lam - special.gammaln(i + 1) - special.gammaln(order - i + 1) + np.log(i) + special.gammaln(i / 2)
        log_x = math.log(2.0) + _log_sinh2(e0)
        terms.append((base[:, None] + (i / 2)[:, None] * (log_x - np.log(m))[None, :]))
        return logsumexp(np.vstack([terms[0][None, :], terms[1]]), axis=0)
    return terms[0]


# ----------------------------------------------------------------------------- Girgis et al.


def upper_1(eps0_value, n_value, orders, *, nbar_mode: str = "floor") -> np.ndarray:
    """Theorem 3.1 (corrected) at integer orders, in log space. ``nbar_mode="unfloored"``
    reproduces the authors' code and Appendix A (slightly optimistic; not the theorem)."""
    e0, nn, o = _check(eps0_value, n_value, orders, integer=True)
    if nbar_mode == "floor":
        m = float(nbar(e0, nn))
    elif nbar_mode == "unfloored":
        m = (nn - 1) / (2 * math.exp(e0)) + 1
    else:
        raise validate.DomainError(f"nbar_mode = {nbar_mode!r} is invalid: must be 'floor' or 'unfloored'")
    out = np.empty(o.shape)
    for k, order in enumerate(o.astype(int)):
        excess = float(_log_b37_excess(e0, m, order)[0]) if e0 > 0 else -math.inf
        chern = e0 * order - (nn - 1) / (8 * math.exp(e0))
        log_moment_excess = float(np.logaddexp(excess, chern))
        out[k] = excess_to_renyi(log_moment_excess, order)
    return inflate(out)


def upper_1_mixture(eps0_value, n_value, orders) -> np.ndarray:
    """A tighter bound from the same lemmas (digest seed-004 §4.3, [D]): the moment is at most
    sum_m Bin(m; n-1, e^-eps0) min(e^{eps0 lam}, B_3.7(m + 1, lam)), instead of Theorem 3.1's
    Chernoff split. Integer orders. The sum is the upper end of a certified bucket enclosure
    (B_3.7 decreases in m), so its cost does not grow with n or with the binomial's spread."""
    e0, nn, o = _check(eps0_value, n_value, orders, integer=True)
    out = np.empty(o.shape)
    for k, order in enumerate(o.astype(int)):
        cap = float(log1mexp(-e0 * order)) + e0 * order  # log(e^{eps0 lam} - 1)

        def log_f(m, order=order, cap=cap):
            return np.minimum(_log_b37_excess(e0, m + 1, order), cap)

        # gammaln and the sum over i: a relative error well below 1e-9 in the excess
        enc = log_monotone_binomial_sum(log_f, nn - 1, math.exp(-e0), rtol=1e-3, f_rtol=1e-9,
                                        done=renyi_width_rule(order, 1e-3))
        out[k] = round_up(excess_to_renyi(enc.log_upper, order))
    return out


def upper_2(eps0_value, n_value, orders) -> np.ndarray:
    """Theorem 3.3 (corrected), real orders > 1, in log space."""
    e0, nn, o = _check(eps0_value, n_value, orders)
    m = nbar(e0, nn)
    quad = o**2 * math.expm1(e0) ** 2 / m
    chern = e0 * o - (nn - 1) / (8 * math.exp(e0))
    return inflate(np.logaddexp(quad, chern) / (o - 1))


def corollary_3_2(eps0_value, n_value, orders) -> tuple[np.ndarray, Status]:
    """Corollary 3.2 and its status at these parameters: the printed condition
    lam^4 e^{5 eps0} < n/9 must hold (else ConditionError), and the value is certified as a bound
    only where it is at least Theorem 3.1 (the Appendix A proof needs "n sufficiently large" and
    fails for tiny eps0, digest seed-004 §4.5)."""
    e0, nn, o = _check(eps0_value, n_value, orders, integer=True)
    fn = COROLLARY_3_2.numpy()
    values = inflate(np.atleast_1d(fn(e0, nn, o)))
    ub1 = upper_1(e0, nn, o)
    status = Status.PROVEN if np.all(values >= ub1) else Status.UNPROVEN
    return values, status


def erlingsson(eps0_value, n_value, orders) -> np.ndarray:
    e0, nn, o = _check(eps0_value, n_value, orders)
    return inflate(ERLINGSSON_RDP.numpy(check=False)(e0, nn, o))


def interpolate(integer_fn, orders) -> np.ndarray:
    """Remark 2 (eq. 7): (lam-1) eps(lam) is convex, so for real lam the integer values at
    floor and ceil give eps(lam) <= [a (fl-1) eps(fl) + (1-a)(ce-1) eps(ce)] / (lam - 1),
    a = ceil(lam) - lam. ``integer_fn(orders)`` returns a valid bound at integer orders."""
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    fl, ce = np.floor(o), np.ceil(o)
    a = ce - o
    need = np.unique(np.concatenate([fl[fl >= 2], ce]))
    vals = dict(zip(need, np.atleast_1d(integer_fn(need))))
    out = np.empty(o.shape)
    for k, (lv, f, c, w) in enumerate(zip(o, fl, ce, a)):
        if f == c:
            out[k] = vals[c]
            continue
        low_part = w * (f - 1) * vals[f] if f >= 2 else 0.0
        out[k] = (low_part + (1 - w) * (c - 1) * vals[c]) / (lv - 1)
    return out


def binomial_central_moments(n_value: int, p, imax: int, digits: int = 50) -> list:
    """mu_i = E[(k - n p)^i] for k ~ Bin(n, p), i = 0..imax, with mpmath (cumulant recursion:
    Bernoulli cumulants k_{j+1} = p(1-p) dk_j/dp, binomial kappa_j = n k_j,
    mu_r = sum_{j=2}^{r} binom(r-1, j-1) kappa_j mu_{r-j})."""
    import sympy as sp  # the cumulant polynomials are derived symbolically; sympy is slow to import

    t = sp.Symbol("t")
    poly = [t]
    for _ in range(imax):
        poly.append(sp.expand(t * (1 - t) * sp.diff(poly[-1], t)))
    with mpmath.workdps(digits + 20):
        P = mpmath.mpf(p)
        kappa = [mpmath.mpf(0)] + [n_value * mpmath.mpf(sp.lambdify(t, k_, "mpmath")(P)) for k_ in poly[:imax]]
        mu = [mpmath.mpf(1), mpmath.mpf(0)]
        for r in range(2, imax + 1):
            mu.append(mpmath.fsum(mpmath.binomial(r - 1, j - 1) * kappa[j] * mu[r - j] for j in range(2, r + 1)))
    return mu


def lower_bound_moments(eps0_value, n_value, order: int, digits: int = 50):
    """Theorem 3.4 by its moment formula, with exact central moments (mpmath; integer orders)."""
    e0 = validate.nonnegative("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1)
    k = validate.integer("order", order, low=2)
    with mpmath.workdps(digits + 20):
        E = mpmath.exp(mpmath.mpf(e0))
        p = 1 / (E + 1)
        mu = binomial_central_moments(nn, p, k, digits)
        c = (E * E - 1) / (nn * E)
        total = 1 + mpmath.fsum(mpmath.binomial(k, i) * c**i * mu[i] for i in range(2, k + 1))
        value = mpmath.log(total) / (k - 1)
    with mpmath.workdps(digits):
        return +value


def _rr_pair(e0: float, n_value: int):
    """The lower-bound datasets of Theorem 3.4 as a count pair: n - 1 users at 0 and the last at 1
    (P) or 0 (Q), binary randomized response; type 0 = a report of 1."""
    from .pairs import CountPair

    flip = 1.0 / (math.exp(e0) + 1.0)
    return CountPair(n_value - 1, 1.0, 1 - flip, flip, victim_prob=1.0, clone_bias=flip)


def lower_bound(eps0_value, n_value, orders, *, both_directions: bool = True, rtol: float = 1e-6):
    """The exact RDP of shuffled binary randomized response on the datasets of Theorem 3.4
    (real orders), as certified (lower, upper) arrays. With ``both_directions`` the larger of
    D(M(D')||M(D)) (the paper's direction) and D(M(D)||M(D')) is returned: both are lower bounds
    on the worst-case RDP over eps0-LDP randomizers (digest seed-004 §5.2(c))."""
    e0, nn, o = _check(eps0_value, n_value, orders)
    pair = _rr_pair(e0, nn)
    lows, highs = pair.renyi_curve(o, rtol=rtol)
    if both_directions:
        lo2, hi2 = pair.reversed().renyi_curve(o, rtol=rtol)
        lows, highs = np.maximum(lows, lo2), np.maximum(highs, hi2)
    return lows, highs


# ----------------------------------------------------------------------------- exact pair RDP


def clone_pair_rdp(eps0_value, n_value, orders, *, stronger: bool = False, rtol: float = 1e-6):
    """Exact RDP of the clone pair of Feldman et al. 2021 (Chen et al. Theorem 1, corrected),
    or of the 2023 stronger clones; max over both directions (they coincide: the pair is
    symmetric). Certified (lower, upper) arrays; an upper bound on the shuffled RDP of every
    eps0-LDP randomizer (stronger clones: where their decomposition exists)."""
    e0, nn, o = _check(eps0_value, n_value, orders)
    pair = clones.stronger_clone_pair(e0, nn) if stronger else clones.clone_pair(e0, nn)
    return pair.renyi_curve(o, rtol=rtol)


def clone_pair_tradeoff(eps0_value, n_value):
    """The exact trade-off function of the clone pair (Chen et al. Theorem 1, corrected): built by
    Neyman-Pearson from the pair's pmf over (a, b) (small n)."""
    from ..tradeoff import from_pmfs

    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    nn = validate.integer("n", n_value, low=1, high=2000)
    p, q = _clone_pmf_table(e0, nn, math.exp(-e0), 1.0 / (1.0 + math.exp(-e0)))
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


def theorem_1_printed_law_rdp(eps0_value, n_value, orders):
    """Chen et al. Theorem 1 with the printed law D ~ Bern(e^-eps0) instead of
    Bern(e^eps0/(e^eps0+1)): the RDP of that (wrong) pair, for the erratum test."""
    from .pairs import CountPair

    e0, nn, o = _check(eps0_value, n_value, orders)
    th = math.exp(-e0)
    pair = CountPair(nn - 1, math.exp(-e0), th, 1 - th)
    return np.array([max(pair.renyi(order)[1], pair.reversed().renyi(order)[1]) for order in o])


def exact_rdp(randomizer, n_value, orders, *, max_datasets: int = 3000):
    """Exact RDP of a finite randomizer's shuffled histogram: max over every dataset (multisets of
    the other users' inputs) and both directions; small n only."""
    nn = validate.integer("n", n_value, low=1)
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    rows = randomizer.pmfs.shape[0]
    if exact.search_size(rows, nn) > max_datasets:
        raise validate.DomainError(f"n = {nn} is too large for exact enumeration of every dataset")
    best = np.full(o.shape, -np.inf)
    from ..divergences import renyi

    for a, b in exact.datasets(rows, nn, exhaustive=True):
        h0, h1 = exact.histogram(randomizer, a), exact.histogram(randomizer, b)
        keys = sorted(set(h0) | set(h1))
        p = np.array([h0.get(k, 0.0) for k in keys])
        q = np.array([h1.get(k, 0.0) for k in keys])
        p, q = p / p.sum(), q / q.sum()
        best = np.maximum(best, np.maximum(renyi(p, q, o), renyi(q, p, o)))
    return best


# ----------------------------------------------------------------------------- SGD accountant


@dataclasses.dataclass(frozen=True)
class AccountantRow:
    method: str
    kind: Kind
    status: Status
    epsilon: float
    order: float | None
    source: str


def shuffled_sgd_epsilon(eps0_value, blocks, epochs, delta, orders=None) -> list[AccountantRow]:
    """Central (epsilon, delta) of the shuffled noisy SGD of Chen et al. (Algorithm 1, Theorem 3):
    ``blocks`` blocks (the shuffle's users, m), ``epochs`` passes (T), eps0-LDP per block.

    Rows: Theorem 3 (GDP composition of Theorem 2: an approximation), its refined Gaussian limit
    (approximation), and the certified routes: the exact clone-pair RDP, Girgis et al. Theorems 3.1
    and 3.3, each composed over T epochs (Mironov, Prop. 1) and converted with Lemma 2.1.
    """
    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    m = validate.integer("blocks", blocks, low=2)
    T = validate.integer("epochs", epochs, low=1)
    d = validate.delta("delta", delta)
    o = rdp_module.default_orders() if orders is None else np.atleast_1d(orders)
    rows = []
    from ..profile import gdp_epsilon

    mu = gdp_compose(*([float(CHEN_GDP(e0, m))] * T))
    rows.append(AccountantRow("chen-theorem-3", Kind.APPROXIMATION, Status.PROVEN,
                              gdp_epsilon(mu, d).upper, None, "Chen, Cao, Ge (2024), Theorem 3 (via mu-GDP)"))
    mu_r = gdp_compose(*([float(CHEN_GDP_REFINED(e0, m))] * T))
    rows.append(AccountantRow("chen-gdp-refined", Kind.APPROXIMATION, Status.PROVEN,
                              gdp_epsilon(mu_r, d).upper, None, CHEN_GDP_REFINED.source))
    orders_int = o[o == np.floor(o)]
    routes = [
        ("chen-exact", o, clone_pair_rdp(e0, m, o, rtol=1e-4)[1], "Chen, Cao, Ge (2024), Theorem 1 (corrected), composed"),
        ("girgis-upper-1", orders_int, upper_1(e0, m, orders_int), UPPER_1.source + ", composed"),
        ("girgis-upper-2", o, upper_2(e0, m, o), UPPER_2.source + ", composed"),
    ]
    for name, oo, values, source in routes:
        eps_val, order = rdp_module.to_dp_with_order(oo, T * np.asarray(values), d)
        rows.append(AccountantRow(name, Kind.UPPER, Status.PROVEN, float(eps_val), order, source))
    return rows


# ----------------------------------------------------------------------------- methods


@dataclasses.dataclass(frozen=True)
class RdpMethod:
    """An RDP curve of the shuffle model: kind, status, source, and how to compute it."""

    slug: str
    kind: Kind
    source: str
    #: (eps0, n, orders, rtol) -> (lower array, upper array, status, note[, the orders kept])
    curve: object
    integer_orders: bool = False


def _closed(fn, status=Status.PROVEN, note=""):
    def curve(e0, nn, o, rtol):
        v = np.asarray(fn(e0, nn, o), dtype=float)
        return v, v, status, note
    return curve


def _interpolated(integer_fn, note=""):
    """Integer-order bound, extended to real orders by Remark 2 (convexity of (lam-1) D_lam)."""
    def curve(e0, nn, o, rtol):
        v = interpolate(lambda k: integer_fn(e0, nn, k), o)
        return v, v, Status.PROVEN, note
    return curve


def _cor_3_2(e0, nn, o, rtol):
    """Corollary 3.2 at the orders where its condition holds (all of them failing raises)."""
    ok = np.array([COROLLARY_3_2.holds(e0, nn, int(k)) for k in o], dtype=bool)
    if not ok.any():
        COROLLARY_3_2.check(e0, nn, int(o[0]))
    values, status = corollary_3_2(e0, nn, o[ok])
    note = ("checked to dominate Theorem 3.1 at these parameters" if status is Status.PROVEN else
            "below Theorem 3.1 here: the Appendix A proof needs n 'sufficiently large' (digest seed-004 §4.5)")
    if not ok.all():
        top = int((nn / 9 * math.exp(-5 * e0)) ** 0.25) + 1
        while top > 2 and not COROLLARY_3_2.holds(e0, nn, top):
            top -= 1
        note += f"; the condition lambda^4 e^(5 eps0) < n/9 holds for orders up to {top} only"
    return values, values, status, note, o[ok]


def _pair_curve(stronger=False):
    def curve(e0, nn, o, rtol):
        pair = clones.stronger_clone_pair(e0, nn) if stronger else clones.clone_pair(e0, nn)
        lo, hi = pair.renyi_curve(o, rtol=rtol)
        if stronger:
            return lo, hi, Status.UNPROVEN, ("the 2023 stronger-clone pair; its general proof was withdrawn "
                                             "(Feldman, McMillan, Talwar 2023, erratum)")
        return lo, hi, Status.PROVEN, "exact divergence of the clone pair, which dominates every eps0-LDP randomizer"
    return curve


def _lower(both):
    def curve(e0, nn, o, rtol):
        lo, hi = lower_bound(e0, nn, o, both_directions=both, rtol=rtol)
        note = ("exact RDP of shuffled binary randomized response on the datasets of Theorem 3.4, "
                + ("both directions" if both else "the paper's direction"))
        return lo, hi, Status.PROVEN, note
    return curve


def _chen(refined):
    def curve(e0, nn, o, rtol):
        if refined:
            mu = float(CHEN_GDP_REFINED(e0, nn))
            v = rdp_module.gdp_to_rdp(mu, o)
        else:
            v = CHEN_RDP.numpy()(e0, nn, o)
        return v, v, None, "a central-limit approximation, not a bound"
    return curve


RDP_METHODS: dict[str, RdpMethod] = {m.slug: m for m in [
    RdpMethod("girgis-upper-1", Kind.UPPER, UPPER_1.source + " (corrected; real orders by Remark 2)",
              _interpolated(lambda e, nn, k: upper_1(e, nn, k))),
    RdpMethod("girgis-upper-1-mixture", Kind.UPPER,
              "dptheory: Girgis et al. Theorems 3.6 and 3.7 summed over the clone count (digest seed-004 §4.3)",
              _interpolated(lambda e, nn, k: upper_1_mixture(e, nn, k))),
    RdpMethod("girgis-upper-2", Kind.UPPER, UPPER_2.source + " (corrected)", _closed(upper_2)),
    RdpMethod("girgis-corollary-3.2", Kind.UPPER, COROLLARY_3_2.source, _cor_3_2, integer_orders=True),
    RdpMethod("erlingsson-rdp", Kind.UPPER, ERLINGSSON_RDP.source, _closed(erlingsson)),
    RdpMethod("chen-exact", Kind.UPPER, "Chen, Cao, Ge (2024), Theorem 1 (corrected): exact RDP of the clone pair",
              _pair_curve()),
    RdpMethod("stronger-clones", Kind.UPPER, "Feldman, McMillan, Talwar (2023): exact RDP of the stronger-clone pair",
              _pair_curve(stronger=True)),
    RdpMethod("girgis-lower", Kind.LOWER, f"{_GIRGIS}, Theorem 3.4 (exact sum, real orders)", _lower(False)),
    RdpMethod("exact", Kind.LOWER, f"{_GIRGIS}, Section 8: exact RDP of shuffled binary RR, both directions",
              _lower(True)),
    RdpMethod("chen-gdp", Kind.APPROXIMATION, CHEN_RDP.source, _chen(False)),
    RdpMethod("chen-gdp-refined", Kind.APPROXIMATION, CHEN_GDP_REFINED.source, _chen(True)),
]}


def rdp_curves(eps0_value, n_value, orders, methods=None, *, rtol: float = 1e-3) -> list[dict]:
    """One row per (method, order): lower, upper, kind, status, source; methods that do not apply
    (integer-only at real orders, a condition that fails) give a row with a note instead."""
    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    nn = validate.integer("n", n_value, low=2)
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    rows = []
    for slug in methods or RDP_METHODS:
        if slug not in RDP_METHODS:
            raise validate.DomainError(f"method = {slug!r} is invalid: must be one of {sorted(RDP_METHODS)}")
        m = RDP_METHODS[slug]
        oo = o[o == np.floor(o)] if m.integer_orders else o
        try:
            lo, hi, status, note, *kept = m.curve(e0, nn, oo, rtol)
        except validate.DomainError as exc:
            rows.append({"method": slug, "kind": str(m.kind), "status": None, "order": None, "lower": None,
                         "upper": None, "source": m.source, "note": f"not applicable: {exc}"})
            continue
        for k, order in enumerate(kept[0] if kept else oo):
            rows.append({"method": slug, "kind": str(m.kind), "status": None if status is None else str(status),
                         "order": float(order), "lower": float(lo[k]), "upper": float(hi[k]),
                         "source": m.source, "note": note})
    return rows


# ----------------------------------------------------------------------------- composed comparisons (Girgis et al. Figures 4-5)


_SUBSAMPLED_NOTE = ("as in Girgis et al. Section 4: a subsampling theorem for add/remove neighbours applied to a "
                    "shuffle bound for replace-one neighbours with floor(rate n) users; no theorem covers the "
                    "combination (digest seed-004 §6.4)")


def fmt_kov_epsilon(eps0_value, n_value, compositions, delta, *, rate: float = 1.0, protocol: str = "exact") -> Result:
    """The baseline of Girgis et al. Figures 4-5: per-round (eps, delta) of the shuffle from the
    clone bound of Feldman et al., Poisson subsampling (Li et al.) when ``rate`` < 1, then KOV's
    composition, with the first author's delta split (per round delta / (2 rate T), KOV slack
    making the total exactly delta).

    ``protocol="exact"`` uses the certified clone bound; ``"notebook"`` reproduces the first
    author's notebook: three bisection steps from the closed form (or eps0), and no amplification
    at all where the closed form's condition fails (digest seed-004 §6.5).
    """
    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    nn = validate.integer("n", n_value, low=2)
    T = validate.integer("compositions", compositions, low=1)
    d = validate.delta("delta", delta)
    g = validate.probability("rate", rate, open_low=True)
    ns = max(1, int(g * nn))
    d_round = d / (2 * g * T)
    if protocol == "exact":
        from . import METHODS
        from .randomizers import general_ldp

        eps_round = METHODS["clones"].epsilon(general_ldp(e0), ns, d_round, 1e-6).upper
    elif protocol == "notebook":
        if e0 > math.log(ns / (16 * math.log(2 / d_round))):
            eps_round = e0
        else:
            hi = float(clones.CLOSED_FORM(e0, ns, d_round)) if clones.CLOSED_FORM.holds(e0, ns, d_round) else e0
            lo, pair = 0.0, clones.clone_pair(e0, ns)
            for _ in range(3):
                mid = 0.5 * (lo + hi)
                if pair.log_delta(mid, rtol=1e-6).log_upper > math.log(d_round):
                    lo = mid
                else:
                    hi = mid
            eps_round = hi
    else:
        raise validate.DomainError(f"protocol = {protocol!r} is invalid: must be 'exact' or 'notebook'")
    from ..composition import kov_closed_form, subsample_dp

    eps_r, d_r = subsample_dp(eps_round, d_round, g) if g < 1 else (eps_round, d_round)
    slack = 1 - (1 - d) / (1 - d / (2 * T)) ** T
    eps_val = float(kov_closed_form(eps_r, d_r, T, slack)[0])
    return Result("epsilon", eps_val, eps_val, Kind.UPPER, Status.PROVEN if g == 1 else Status.UNPROVEN,
                  f"clones-kov-{protocol}", clones.SOURCE_2021 + ", composed by Kairouz, Oh, Viswanath (2015)"
                  + (", Poisson subsampling by Li, Qardaji, Su (2012)" if g < 1 else ""),
                  _SUBSAMPLED_NOTE if g < 1 else "",
                  params={"n_shuffle": ns, "rate": g, "compositions": T, "delta_round": d_round, "eps_round": eps_round})


def rdp_route_epsilon(eps0_value, n_value, compositions, delta, *, rate: float = 1.0,
                      bound: str = "girgis-upper-1", max_order: int | None = None) -> Result:
    """Epsilon (a Result; the best order in ``params``) of an RDP upper bound of the shuffle composed T times, with Poisson
    subsampling of rate ``rate`` (Zhu and Wang's general bound on floor(rate n) shuffled users),
    converted by Lemma 2.1: the route of Girgis et al. Figures 3-5. Integer orders; without
    ``max_order`` the grid grows until the optimum is inside it (up to 2^20, or 4096 with
    subsampling, whose bound needs every integer order below).

    With ``rate`` < 1 the result is "as in the paper" (status ``unproven``): the subsampling
    bound is for add/remove neighbours and a random number of participants, the shuffle bound for
    replace-one neighbours and a fixed floor(rate n) users (digest seed-004 §6.4)."""
    from ..composition import poisson_subsampled_rdp

    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    nn = validate.integer("n", n_value, low=2)
    T = validate.integer("compositions", compositions, low=1)
    d = validate.delta("delta", delta)
    g = validate.probability("rate", rate, open_low=True)
    ns = max(2, int(g * nn))
    fns = {"girgis-upper-1": upper_1, "girgis-upper-1-mixture": upper_1_mixture,
           "chen-exact": lambda e, m, o: clone_pair_rdp(e, m, o, rtol=1e-4)[1]}
    if bound not in fns:
        raise validate.DomainError(f"bound = {bound!r} is invalid: must be one of {sorted(fns)}")
    subsampled = g < 1

    def curve(o):
        base = fns[bound](e0, ns, o)
        if not subsampled:
            return T * base
        table_ = dict(zip(o.astype(int), base))
        return T * np.array([poisson_subsampled_rdp(lambda l: table_[l], int(a), g) for a in o])

    if max_order is None:
        start, cap = 256, (4096 if subsampled else 2**20)
    else:
        start = cap = validate.integer("max_order", max_order, low=2)
    eps_val, order = rdp_module.to_dp_adaptive(curve, d, consecutive=subsampled, start=start, cap=cap)
    sources = {"girgis-upper-1": UPPER_1.source, "girgis-upper-1-mixture": "Girgis et al. Theorems 3.6-3.7 (mixture)",
               "chen-exact": "Chen, Cao, Ge (2024), Theorem 1 (corrected)"}
    source = (sources[bound] + f", composed {T} times (Mironov 2017), converted by Lemma 2.1"
              + (", Poisson subsampling by Zhu and Wang (2019)" if subsampled else ""))
    return Result("epsilon", float(eps_val), float(eps_val), Kind.UPPER,
                  Status.UNPROVEN if subsampled else Status.PROVEN, f"rdp-route:{bound}", source,
                  _SUBSAMPLED_NOTE if subsampled else "",
                  params={"order": order, "n_shuffle": ns, "rate": g, "compositions": T})
