"""Joint concavity of trade-off functions (Wang et al. 2023, Lemma 3.1, Propositions B.1, B.2, Corollary B.3,
Proposition 6.1) and the exact trade-off function of a mixture.

For a mixture ``P_w = sum_i w_i P_i``, ``Q_w = sum_i w_i Q_i`` the paper bounds
``T(P_w, Q_w) >= T(P_I, Q_I)``, where ``(P_I, Q_I)`` are the joint laws of the observation and its
component index. The bound holds in the *common-threshold* sense: at the point
``(sum_i w_i alpha_i(t), sum_i w_i beta_i(t))`` built from one likelihood-ratio threshold ``t``
for every component. Equivalently ``T(P_I, Q_I)`` is the weighted infimal convolution

    T(P_I, Q_I)(alpha) = min { sum_i w_i f_i(alpha_i) : sum_i w_i alpha_i = alpha },

whose conjugate is ``sum_i w_i f_i^*``. The pointwise reading ``sum_i w_i f_i(alpha)`` is false
(docs/errata.md#wang2023-lemma-3-1: kept as :func:`pointwise_combination_printed`, status refuted).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from .. import rounding, validate
from ..tradeoff import Gaussian, PiecewiseLinear, TradeOff, from_pmfs
from ..validate import DomainError

SOURCE = "Wang, Su, Ye, Shokri, Su (NeurIPS 2023)"


# ------------------------------------------------------------------------------ validation
def check_weights(weights, name: str = "weights", *, tol: float = 1e-9) -> np.ndarray:
    """Mixture weights: a non-empty 1-D vector of finite entries >= 0 that sum to 1 (within ``tol``).

    Raises :class:`DomainError` naming ``name[i]``, its value and the valid range.
    """
    try:
        arr = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(f"{name} = {weights!r} is invalid: must be real numbers in [0, 1] summing to 1") from None
    if arr.ndim != 1 or arr.size == 0:
        raise DomainError(f"{name} must be a non-empty 1-D vector of weights in [0, 1] summing to 1")
    for i, v in enumerate(arr):
        if not math.isfinite(v) or v < 0 or v > 1:
            raise DomainError(f"{name}[{i}] = {float(v)!r} is invalid: must be in [0, 1] (weights sum to 1)")
    total = math.fsum(arr.tolist())
    if abs(total - 1.0) > tol:
        raise DomainError(f"{name} sums to {total!r}: mixture weights must sum to 1 (tolerance {tol:g})")
    return arr


def check_tradeoffs(tradeoffs, count: int, name: str = "tradeoffs") -> list[TradeOff]:
    items = list(tradeoffs)
    if len(items) != count:
        raise DomainError(f"{name} has {len(items)} entries: one trade-off function per weight ({count}) is needed")
    for i, f in enumerate(items):
        if not isinstance(f, TradeOff):
            raise DomainError(f"{name}[{i}] = {f!r} is invalid: must be a dptheory.tradeoff.TradeOff")
    return items


def check_pairs(pairs, count: int, name: str = "pairs") -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` pairs (p_i, q_i) of probability vectors, all on one common support."""
    items = list(pairs)
    if len(items) != count:
        raise DomainError(f"{name} has {len(items)} entries: one (p, q) pair per weight ({count}) is needed")
    out = []
    for i, pair in enumerate(items):
        try:
            p, q = pair
        except (TypeError, ValueError):
            raise DomainError(f"{name}[{i}] is invalid: must be a pair (p, q) of probability vectors") from None
        pa = validate.pmf(f"{name}[{i}].p", p)
        qa = validate.pmf(f"{name}[{i}].q", q)
        if pa.shape != qa.shape:
            raise DomainError(f"{name}[{i}]: p and q must have the same support length, got {pa.size} and {qa.size}")
        if out and pa.shape != out[0][0].shape:
            raise DomainError(f"{name}[{i}] has support length {pa.size}: every component must live on the same "
                              f"support (length {out[0][0].size})")
        out.append((pa, qa))
    return out


def identity(digits=None) -> PiecewiseLinear:
    """Id(alpha) = 1 - alpha, the trade-off function of identical distributions."""
    one = 1.0 if digits is None else mpmath.mpf(1)
    return PiecewiseLinear([one], [one], digits=digits)


# ------------------------------------------------------------------------------ exact mixture
def mixture_pmfs(weights, pairs) -> tuple[np.ndarray, np.ndarray]:
    """The explicit mixture distributions ``P_w = sum_i w_i p_i`` and ``Q_w = sum_i w_i q_i``."""
    w = check_weights(weights)
    ps = check_pairs(pairs, len(w))
    p = np.zeros_like(ps[0][0])
    q = np.zeros_like(ps[0][1])
    for wi, (pi, qi) in zip(w, ps):
        p = p + wi * pi
        q = q + wi * qi
    return p / math.fsum(p.tolist()), q / math.fsum(q.tolist())


def mixture_tradeoff(weights, pairs) -> PiecewiseLinear:
    """The exact trade-off function ``T(P_w, Q_w)`` of the mixture, by Neyman-Pearson on the
    explicit mixture distributions (Lemma A.1 of Wang et al. 2023).

    Parameters
    ----------
    weights : sequence of float
        Mixture weights ``w_i >= 0`` summing to 1.
    pairs : sequence of (p_i, q_i)
        Probability vectors, all on one common support (the mixture is ``sum_i w_i p_i``).
    """
    p, q = mixture_pmfs(weights, pairs)
    return from_pmfs(p, q)


def joint_pmfs(weights, pairs) -> tuple[np.ndarray, np.ndarray]:
    """The joint laws ``P_I``, ``Q_I`` of (observation, index): the concatenation of ``w_i p_i``."""
    w = check_weights(weights)
    ps = check_pairs(pairs, len(w))
    return (np.concatenate([wi * p for wi, (p, _) in zip(w, ps)]),
            np.concatenate([wi * q for wi, (_, q) in zip(w, ps)]))


# ------------------------------------------------------------------------------ Lemma 3.1
class InfimalConvolution(TradeOff):
    """The weighted infimal convolution ``g = T(P_I, Q_I)`` of trade-off functions (Lemma 3.1 of
    Wang et al. 2023, common-threshold reading).

    ``g*(y) = sum_i w_i f_i*(y)`` exactly. ``g(alpha) = sup_y (alpha y - g*(y))`` is evaluated
    at a numerically maximising ``y``: any ``y`` gives ``alpha y - g*(y) <= g(alpha)``
    (Fenchel-Young), so the returned value is a lower bound on ``g`` whatever the optimiser's
    accuracy (it is rounded down by the error of the float conjugates).
    """

    def __init__(self, weights, tradeoffs):
        self.weights = check_weights(weights)
        self.components = check_tradeoffs(tradeoffs, len(self.weights))

    def __repr__(self) -> str:
        return f"InfimalConvolution({len(self.components)} components)"

    @property
    def symmetric(self) -> bool:  # type: ignore[override]
        """Proposition 3.2: the bound is symmetric when every component is."""
        return all(f.symmetric for f in self.components)

    def inverse(self) -> "InfimalConvolution":
        return InfimalConvolution(self.weights, [f.inverse() for f in self.components])

    def conjugate(self, y):
        yv = validate.real_array("y", y)
        total = sum(wi * np.asarray(f.conjugate(yv), dtype=float) for wi, f in zip(self.weights, self.components))
        return total if np.ndim(total) else float(total)

    _Z = np.linspace(-40.0, 40.0, 321)  # z = log(-y) of the grid search

    def _evaluate(self, a):
        x = np.asarray(a, dtype=float)
        zs = self._Z
        ys = -np.exp(zs)
        conj = np.asarray(self.conjugate(ys), dtype=float)
        vals = x[:, None] * ys[None, :] - conj[None, :]
        j = np.argmax(vals, axis=1)
        best = vals[np.arange(len(x)), j]
        z_best = zs[j]
        # vectorised golden-section search of the unimodal z -> x (-e^z) - g*(-e^z) around the
        # best grid point; every evaluated point is a valid lower bound (Fenchel-Young)
        lo = zs[np.maximum(j - 1, 0)]
        hi = zs[np.minimum(j + 1, len(zs) - 1)]
        ratio = (math.sqrt(5) - 1) / 2

        def value(z):
            y = -np.exp(z)
            return x * y - np.asarray(self.conjugate(y), dtype=float)

        c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        fc, fd = value(c), value(d)
        for _ in range(60):
            left = fc >= fd
            hi = np.where(left, d, hi)
            lo = np.where(left, lo, c)
            better = np.maximum(fc, fd)
            z_better = np.where(left, c, d)
            z_best = np.where(better > best, z_better, z_best)
            best = np.maximum(best, better)
            c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
            fc, fd = value(c), value(d)
        # the float conjugates err by a few ulps of their magnitude (at most 1 + |y|)
        err = 8 * rounding.EPS * (1.0 + np.exp(np.minimum(z_best, 700.0)))
        out = np.maximum(rounding.down(np.maximum(best, 0.0), abs_err=err), 0.0)
        return np.where(x >= 1.0, 0.0, out)


def joint_concavity_bound(weights, tradeoffs) -> TradeOff:
    """The Lemma 3.1 lower bound ``T(P_I, Q_I)`` on the trade-off function of a mixture.

    ``T(P_w, Q_w) >= T(P_I, Q_I)`` where ``T(P_I, Q_I)`` is the weighted infimal convolution of
    the ``f_i = T(P_i, Q_i)`` (Wang et al. 2023, Lemma 3.1, common-threshold reading; any lower
    bounds ``f_i <= T(P_i, Q_i)`` give a lower bound).

    Piecewise-linear components give the exact :class:`PiecewiseLinear` ``T(P_I, Q_I)``: all
    segments, each scaled by its weight, merged by slope (steepest first). Other components
    (e.g. :class:`~dptheory.tradeoff.Gaussian`) give an :class:`InfimalConvolution`, evaluated
    through ``sum_i w_i f_i*``.

    Parameters
    ----------
    weights : sequence of float
        Mixture weights, >= 0, summing to 1.
    tradeoffs : sequence of TradeOff
        One trade-off function (or lower bound) per component.
    """
    w = check_weights(weights)
    fs = check_tradeoffs(tradeoffs, len(w))
    if all(isinstance(f, PiecewiseLinear) and f.digits is None for f in fs):
        p = np.concatenate([wi * f.p_mass for wi, f in zip(w, fs)])
        q = np.concatenate([wi * f.q_mass for wi, f in zip(w, fs)])
        return PiecewiseLinear(p, q)
    if all(isinstance(f, PiecewiseLinear) and f.digits is not None for f in fs):
        digits = max(f.digits for f in fs)
        with mpmath.workdps(digits):
            p = [mpmath.mpf(wi) * a for wi, f in zip(w, fs) for a in f.p_mass]
            q = [mpmath.mpf(wi) * b for wi, f in zip(w, fs) for b in f.q_mass]
        return PiecewiseLinear(p, q, digits=digits)
    return InfimalConvolution(w, fs)


def pointwise_combination_printed(weights, tradeoffs):
    """``alpha -> sum_i w_i f_i(alpha)``: the *pointwise* reading of Lemma 3.1 / Proposition B.1.

    Status **refuted** (docs/errata.md#wang2023-lemma-3-1): with ``f_1 = Id``, ``f_2 = 0`` and equal weights the
    mixture has ``T = max(0, 1/2 - alpha) < (1 - alpha)/2``. Kept only to show the erratum.
    """
    w = check_weights(weights)
    fs = check_tradeoffs(tradeoffs, len(w))

    def value(alpha):
        a = validate.real_array("alpha", alpha, low=0.0, high=1.0)
        out = sum(wi * np.asarray(f(a), dtype=float) for wi, f in zip(w, fs))
        return out if np.ndim(out) else float(out)

    return value


# ------------------------------------------------------------------------------ Proposition B.1
def maximal_diagonal_coupling(weights, weights_prime) -> np.ndarray:
    """The coupling ``pi`` of ``w`` and ``w'`` of Proposition B.1: ``pi_ii = min(w_i, w'_i)`` and the
    residuals ``r_i = w_i - pi_ii``, ``r'_j = w'_j - pi_jj`` coupled by ``r_i r'_j / sum r``
    (for m = 2 this is the paper's decomposition)."""
    w = check_weights(weights, "weights")
    v = check_weights(weights_prime, "weights_prime")
    if w.shape != v.shape:
        raise DomainError(f"weights_prime has {v.size} entries: the same number as weights ({w.size}) is needed")
    diag = np.minimum(w, v)
    r, rp = w - diag, v - diag
    total = r.sum()
    pi = np.diag(diag)
    if total > 0:
        pi = pi + np.outer(r, rp) / total
    return pi


def different_weights_bound(weights, weights_prime, tradeoff_matrix) -> TradeOff:
    """Proposition B.1: a lower bound on ``T(P_w, Q_w')`` for different weights ``w`` and ``w'``.

    ``tradeoff_matrix[i][j]`` is (a lower bound on) ``T(P_i, Q_j)``. With the maximal-diagonal
    coupling ``pi`` of ``w`` and ``w'`` (:func:`maximal_diagonal_coupling`),
    ``P_w = sum_ij pi_ij P_i`` and ``Q_w' = sum_ij pi_ij Q_j``, so Lemma 3.1 applied to the pairs
    ``(P_i, Q_j)`` gives the bound, in the common-threshold sense (the pointwise reading of the
    printed statement is false, docs/errata.md#wang2023-lemma-3-1). For m = 2 the coefficients are
    the printed ones.
    """
    pi = maximal_diagonal_coupling(weights, weights_prime)
    m = pi.shape[0]
    mat = [list(row) for row in tradeoff_matrix]
    if len(mat) != m or any(len(row) != m for row in mat):
        raise DomainError(f"tradeoff_matrix must be {m} x {m}: entry [i][j] bounds T(P_i, Q_j)")
    ws, fs = [], []
    for i in range(m):
        for j in range(m):
            if pi[i, j] > 0:
                ws.append(pi[i, j])
                fs.append(mat[i][j])
    ws = np.asarray(ws) / math.fsum(ws)
    return joint_concavity_bound(ws, fs)


# ------------------------------------------------------------------------------ Proposition B.2
def slope_point(f: TradeOff, slope: float) -> tuple[float, float]:
    """The point ``(x, f(x))`` where ``f`` has slope ``slope < 0``: ``x = (f')^{-1}(slope)``.

    Closed form for :class:`Gaussian` (``x = Phi(-log t / mu - mu / 2)`` with ``t = -slope``,
    the NP test of N(0,1) against N(mu,1) at likelihood ratio t); the knot of a
    :class:`PiecewiseLinear` at which the slope crosses ``slope`` (the maximiser of
    ``x slope - f(x)``).
    """
    s = validate.real("slope", slope, high=0.0, high_open=True)
    if isinstance(f, Gaussian):
        from scipy import special

        if f.mu == 0:
            raise DomainError("slope_point: G_0 = Id has slope -1 everywhere")
        t = -s
        return float(special.ndtr(-math.log(t) / f.mu - f.mu / 2)), float(special.ndtr(math.log(t) / f.mu - f.mu / 2))
    if isinstance(f, PiecewiseLinear) and f.digits is None:
        k = int(np.searchsorted(f.slopes, s, side="left"))
        return float(f.knots_alpha[k]), float(f.knots_beta[k])
    raise DomainError(f"slope_point: {type(f).__name__} has no derivative inverse (Gaussian or float PiecewiseLinear)")


def common_threshold_points(weights, tradeoffs, thresholds):
    """Proposition B.2 / Corollary B.3: the points ``(alpha(t), beta(t))`` of ``T(P_I, Q_I)`` with
    ``alpha(t) = sum_i w_i (f_i')^{-1}(-t)`` and ``beta(t) = sum_i w_i f_i((f_i')^{-1}(-t))``
    (convention S: the slope of every component and of the bound there is ``-t``).

    Erratum (docs/errata.md#wang2023-proposition-b-2): the proof's printed indicator ``1[q_i/p_i < t]`` gives the
    wrong sign of ``d alpha_i / dt``; the intended ``alpha_i(t) = P_i[q_i/p_i > t]`` is used.
    """
    w = check_weights(weights)
    fs = check_tradeoffs(tradeoffs, len(w))
    ts = validate.real_array("thresholds", thresholds, low=0.0, low_open=True)
    flat = np.atleast_1d(ts)
    alpha = np.zeros(flat.shape)
    beta = np.zeros(flat.shape)
    for k, t in enumerate(flat):
        pts = [slope_point(f, -float(t)) for f in fs]
        alpha[k] = math.fsum(wi * a for wi, (a, _) in zip(w, pts))
        beta[k] = math.fsum(wi * b for wi, (_, b) in zip(w, pts))
    return alpha, beta


# ------------------------------------------------------------------------------ Proposition 6.1
def privacy_loss_distribution(p, q) -> list[tuple[float, float]]:
    """The law of the privacy loss ``log(p/q)(X)`` for ``X ~ P`` on a discrete support, as sorted
    (value, mass) atoms (value ``inf`` for the atoms where only P has mass)."""
    pa, qa = validate.pmf_pair(p, q)
    atoms = [(math.inf if b == 0 else math.log(a) - math.log(b), float(a)) for a, b in zip(pa, qa) if a > 0]
    return sorted(atoms)


def _cluster(values: list[float], rtol: float = 1e-9) -> list[float]:
    """Representatives of ``values`` (sorted) where values within ``rtol (1 + |v|)`` are merged."""
    reps: list[float] = []
    for v in values:
        if reps and (v == reps[-1] or (math.isfinite(v) and v - reps[-1] <= rtol * (1 + abs(v)))):
            continue
        reps.append(v)
    return reps


def lemma31_is_tight(weights, pairs, *, tol: float = 1e-9) -> tuple[bool, float]:
    """Proposition 6.1: equality ``T(P_w, Q_w) = T(P_I, Q_I)`` holds iff the privacy-loss distribution
    of the mixture equals the ``w``-mixture of the component privacy-loss distributions.

    Erratum (docs/errata.md#wang2023-proposition-6-1): the printed condition is a pointwise identity of likelihood
    ratios; it is read as the equality of the laws (the CDFs of the privacy loss under P).
    Returns ``(tight, gap)`` with ``gap`` the largest difference of the two CDFs.
    """
    w = check_weights(weights)
    ps = check_pairs(pairs, len(w))
    mix = privacy_loss_distribution(*mixture_pmfs(w, ps))
    comp = sorted((v, wi * m) for wi, (p, q) in zip(w, ps) for v, m in privacy_loss_distribution(p, q))
    reps = _cluster(sorted({v for v, _ in mix} | {v for v, _ in comp}))

    def cdf(atoms):
        vals = np.array([v for v, _ in atoms])
        mass = np.cumsum([m for _, m in atoms])
        # mass at values up to each representative's cluster (values within the cluster tolerance)
        upto = [np.searchsorted(vals, r + (1e-9 * (1 + abs(r)) if math.isfinite(r) else 0.0), side="right")
                for r in reps]
        return np.array([mass[k - 1] if k else 0.0 for k in upto])

    gap = float(np.max(np.abs(cdf(mix) - cdf(comp)))) if reps else 0.0
    return gap <= tol, gap
