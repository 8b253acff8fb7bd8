"""Advanced joint concavity (Wang et al. 2023, Lemmas 6.2, 6.3, Proposition 6.4, Proposition E.1) and the
Examples F.3 (sub-sampled Gaussian) and F.4 (indistinguishable mixtures).

Two-component mixtures ``P = (1-w) P_0 + w P_1`` and ``Q = (1-w) Q_0 + w Q_1``. The results
go through hockey-stick divergences (Lemma 6.2) and conjugates, and end with a symmetrisation
``C(.)``; what holds is (docs/errata.md#wang2023-proposition-6-4 and
docs/errata.md#wang2023-lemma-6-3):

* Lemma 6.3 with symmetric ``f_ij <= T(P_i, Q_j)`` and ``gamma < w < eta`` (or
  ``eta < w < gamma``): ``T(Q, P) >= F`` and ``T(P, Q) >= F^{-1}``, hence
  ``T(P, Q) >= min{F, F^{-1}}**`` (= ``C(F)`` when ``x_bar <= F(x_bar)``);
* Proposition 6.4: ``T(P, Q) >= C(2w Id + (1-2w) f_0)`` for the swapped mixture, but *not* the
  pointwise intermediate ``f_PQ >= 2w Id + (1-2w) f_0`` (refuted, kept for the erratum test);
* the corollary ``eta = gamma = w`` of Lemma 6.3 (pointwise) is false (refuted, kept);
* ``C(F)`` of Lemma 6.3 in the case ``x_bar > F(x_bar)`` (``max{F, F^-1}``) is not a lower bound,
  and Proposition E.1 needs its ``f_1`` below ``T(P_1, P_0)`` as well (both found by the tests here).

Every symmetrisation here is ``min{g, g^-1}**`` (:func:`symmetric_lower`).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy import special

from .. import divergences, rounding, validate
from ..inverse import bisect_monotone
from ..results import Result
from ..tradeoff import Gaussian, PiecewiseLinear, from_knots
from ..validate import DomainError
from .concavity import joint_concavity_bound
from .statements import statement


def _weight(w, *, high=1.0, name="w"):
    return validate.real(name, w, low=0.0, high=high)


def _pl(name: str, f) -> PiecewiseLinear:
    if not isinstance(f, PiecewiseLinear) or f.digits is not None:
        raise DomainError(f"{name} = {f!r} is invalid: must be a float PiecewiseLinear trade-off function")
    return f


def _symmetric_pl(name: str, f) -> PiecewiseLinear:
    f = _pl(name, f)
    if not f.symmetric:
        raise DomainError(f"{name} is not symmetric (f != f^-1): this bound needs symmetric trade-off functions "
                          "(pass C(f) = f.symmetrize() of a lower bound in both orders)")
    return f


# ------------------------------------------------------------------------------ Lemma 6.2
def _mixing(name: str, value) -> float:
    return validate.real(name, value, low=0.0, high=1.0)


def lemma62_scalings(w, gamma, eta) -> tuple[float, float]:
    """``(e^{eps_0}, e^{eps_1}) / e^{eps'}`` solving (9)-(10) of Lemma 6.2:
    ``e^{eps_0} = e^{eps'} (eta - w) / ((1-w)(eta - gamma))`` and
    ``e^{eps_1} = e^{eps'} (w - gamma) / (w (eta - gamma))``.

    Valid domain: ``0 < w < 1``, ``gamma, eta in [0, 1]`` with ``gamma < w < eta`` or
    ``eta < w < gamma`` (both scalings then positive).
    """
    wv = validate.real("w", w, low=0.0, high=1.0, low_open=True, high_open=True)
    g = _mixing("gamma", gamma)
    e = _mixing("eta", eta)
    if not (g < wv < e or e < wv < g):
        raise DomainError(f"gamma = {g!r}, eta = {e!r} are invalid for w = {wv!r}: need gamma < w < eta "
                          "or eta < w < gamma (gamma = eta = w is the false corollary of Lemma 6.3)")
    return (e - wv) / ((1 - wv) * (e - g)), (wv - g) / (wv * (e - g))


def lemma62_bound(w, p0, q0, p1, q1, epsilon_prime, gamma, eta) -> Result:
    """Lemma 6.2: ``H_{e^eps'}(P || Q) <= (1-w) H_{e^eps_0}(P_0 || (1-gamma) Q_0 + gamma Q_1)
    + w H_{e^eps_1}(P_1 || (1-eta) Q_0 + eta Q_1)`` with eps_0, eps_1 from (9)-(10)
    (:func:`lemma62_scalings`). Holds for every real eps' (the proof is ``(a+b)_+ <= a_+ + b_+``).

    Returns the right-hand side as a certified upper bound (quantity "delta").
    """
    k0, k1 = lemma62_scalings(w, gamma, eta)
    wv, g, e = float(w), float(gamma), float(eta)
    ep = validate.real("epsilon_prime", epsilon_prime)
    p0a, q0a = validate.pmf_pair(p0, q0)
    p1a, q1a = validate.pmf_pair(p1, q1)
    if p0a.shape != p1a.shape:
        raise DomainError("p0 and p1 must live on the same support")
    m0 = (1 - g) * q0a + g * q1a
    m1 = (1 - e) * q0a + e * q1a
    lo0, hi0 = divergences.log_hockey_stick_enclosure(p0a, m0 / m0.sum(), ep + math.log(k0))
    lo1, hi1 = divergences.log_hockey_stick_enclosure(p1a, m1 / m1.sum(), ep + math.log(k1))
    upper = rounding.up(math.fsum([(1 - wv) * rounding.exp_up(hi0), wv * rounding.exp_up(hi1)]),
                        rel_err=4 * rounding.EPS)
    lower = rounding.down_nonneg(math.fsum([(1 - wv) * rounding.exp_down(lo0), wv * rounding.exp_down(lo1)]),
                                 rel_err=4 * rounding.EPS)
    st = statement("lemma62")
    return Result("delta", lower, upper, st.kind, st.status, st.name, st.source, st.note,
                  {"w": wv, "epsilon_prime": ep, "gamma": g, "eta": e})


# ------------------------------------------------------------------------------ Lemma 6.3
def lemma63_function(w, tradeoffs, gamma, eta) -> PiecewiseLinear:
    """The function ``F`` of Lemma 6.3 (in its proof, Appendix E.1):
    ``F = ((1-w)(1-gamma) F_00* + w(1-eta) F_10* + (1-w) gamma F_01* + w eta F_11*)*`` with
    ``F_0j(x) = f_0j(x / s_0)``, ``F_1j(x) = f_1j(x / s_1)`` and ``(s_0, s_1)`` of
    :func:`lemma62_scalings`. It is the weighted infimal convolution of the rescaled ``f_ij``:
    every segment ``(da, db)`` of ``f_ij`` becomes ``(c_ij s_i da, c_ij db)``, merged by slope.

    With symmetric ``f_ij <= T(P_i, Q_j)`` this ``F`` satisfies ``T(Q, P) >= F``.
    """
    s0, s1 = lemma62_scalings(w, gamma, eta)
    wv, g, e = float(w), float(gamma), float(eta)
    f = [[_symmetric_pl(f"tradeoffs[{i}][{j}]", tradeoffs[i][j]) for j in range(2)] for i in range(2)]
    coef = {(0, 0): (1 - wv) * (1 - g), (1, 0): wv * (1 - e), (0, 1): (1 - wv) * g, (1, 1): wv * e}
    scale = {0: s0, 1: s1}
    ps, qs = [], []
    for (i, j), c in coef.items():
        if c <= 0:
            continue
        ps.append(c * scale[i] * f[i][j].p_mass)
        qs.append(c * f[i][j].q_mass)
    p = np.concatenate(ps)
    q = np.concatenate(qs)
    # the coefficients sum to 1 in both coordinates; renormalise the float rounding away
    return PiecewiseLinear(p / math.fsum(p.tolist()), q / math.fsum(q.tolist()))


def symmetric_lower(f: PiecewiseLinear) -> PiecewiseLinear:
    """``min{f, f^{-1}}**``: the largest convex function below both ``f`` and ``f^{-1}``, which
    is ``C(f)`` (Dong, Roth, Su 2022, Definition F.1) when ``x_bar <= f(x_bar)``. A lower bound on any
    trade-off function that is above both ``f`` and ``f^{-1}``."""
    return _pl("f", f)._envelope_with_inverse(minimum=True)


def advanced_joint_concavity_bound(w, tradeoffs, gamma, eta) -> PiecewiseLinear:
    """Lemma 6.3 (advanced joint concavity): a symmetric lower bound on ``T(P, Q)`` for
    ``P = (1-w) P_0 + w P_1``, ``Q = (1-w) Q_0 + w Q_1``.

    Parameters
    ----------
    w : float
        Mixture weight in (0, 1).
    tradeoffs : 2 x 2 nested sequence of PiecewiseLinear
        ``tradeoffs[i][j]`` a *symmetric* lower bound on ``T(P_i, Q_j)`` (symmetry makes the
        conversion ``H_{e^eps}(P_i||Q_j) <= 1 + f_ij*(-e^eps)`` orientation-free,
        docs/errata.md#derived-conjugate-orientation).
    gamma, eta : float
        Mixing weights in [0, 1] with ``gamma < w < eta`` or ``eta < w < gamma``.

    Returns ``min{F, F^{-1}}**`` with ``F`` of :func:`lemma63_function`: Lemma 6.2 holds for
    every real eps', so ``T(Q, P) >= F`` and ``T(P, Q) >= F^{-1}``; the envelope is below both.
    It equals the paper's ``C(F)`` whenever ``x_bar <= F(x_bar)`` (the only case in which
    ``C(F)`` is implied without a bound in the other order).
    """
    return symmetric_lower(lemma63_function(w, tradeoffs, gamma, eta))


def lemma63_corollary_printed(w, f_p0_q, f_p1_q):
    """The corollary at the end of Lemma 6.3's proof (``eta = gamma = w``), as printed:
    ``T(P, Q) >= (1-w) T(P_0, Q) + w T(P_1, Q)`` pointwise, ``Q = (1-w) Q_0 + w Q_1``.

    Status **refuted** (docs/errata.md#wang2023-lemma-6-3-corollary): ``w = 1/2``,
    ``Q_0 = Q_1 = P_0 = R``, ``P_1`` disjoint from ``R`` give ``max(0, 1 - 2 alpha) < (1 - alpha)/2`` at ``alpha = 0.4``. Returns the callable.
    """
    wv = _weight(w)

    def value(alpha):
        a = validate.real_array("alpha", alpha, low=0.0, high=1.0)
        out = (1 - wv) * np.asarray(f_p0_q(a), dtype=float) + wv * np.asarray(f_p1_q(a), dtype=float)
        return out if np.ndim(out) else float(out)

    return value


# ------------------------------------------------------------------------------ Proposition 6.4, E.1
def _with_identity(weight_id: float, f: PiecewiseLinear) -> PiecewiseLinear:
    """The pointwise combination ``weight_id Id + (1 - weight_id) f`` (same knots as ``f``)."""
    a, b = f.knots()
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    beta = weight_id * (1.0 - a) + (1.0 - weight_id) * b
    return from_knots(a, np.minimum(beta, 1.0 - a))


def swapped_mixture_pointwise_printed(w, f0: PiecewiseLinear) -> PiecewiseLinear:
    """``2w Id + (1-2w) f_0`` claimed pointwise below ``T(P, Q)`` in Appendix E.1.1 (status
    **refuted**: holds only for ``x <= x_bar``; n = 1 counterexample,
    docs/errata.md#wang2023-proposition-6-4)."""
    wv = _weight(w, high=0.5)
    return _with_identity(2 * wv, _pl("f0", f0))


def swapped_mixture_bound(w, f0: PiecewiseLinear) -> PiecewiseLinear:
    """Proposition 6.4: for ``P = (1-w) P_0 + w Q_0``, ``Q = (1-w) Q_0 + w P_0`` with ``0 <= w <= 1/2``
    and a symmetric ``f_0 <= T(P_0, Q_0)``, ``T(P, Q) >= C(2w Id + (1-2w) f_0)``.

    The symmetrisation is part of the result: the hockey-stick inequality behind it holds only
    for slopes <= -1 (docs/errata.md#wang2023-proposition-6-4). It is computed as
    ``min{g, g^-1}**`` (:func:`symmetric_lower`), which is ``C(g)`` in the case ``x_bar <= g(x_bar)`` (always the case here for symmetric
    ``f_0``) and never above ``C(g)``: a float tie at slope -1 cannot select the
    ``max{g, g^-1}`` branch of ``C``.
    """
    wv = _weight(w, high=0.5)
    return symmetric_lower(_with_identity(2 * wv, _symmetric_pl("f0", f0)))


def subsampling_mixture_bound(w, f1: PiecewiseLinear) -> PiecewiseLinear:
    """Proposition E.1: for ``P = (1-w) P_0 + w P_1`` and ``Q = (1-w) P_0 + w Q_1``:
    ``T(P, Q) >= C((1-w) Id + w f_1)`` (the sub-sampling theorem of Dong, Roth, Su 2022, p = w),
    computed as ``min{g, g^-1}**`` (see :func:`swapped_mixture_bound`).

    Hypothesis (stronger than printed): the symmetric ``f_1`` must be below ``T(P_1, Q_1)``
    **and** ``T(P_1, P_0)`` (as in sub-sampling, where ``P_0`` and ``P_1`` are outputs on
    neighbouring data too). Lemma A.4 gives
    ``H(P||Q) = w H(P_1 || (1-eta) P_0 + eta Q_1)``, which involves ``P_1`` against ``P_0``;
    with a bound on ``T(P_1, Q_1)`` alone the statement is false (tests/mixtures/test_errata.py).
    """
    wv = _weight(w)
    return symmetric_lower(_with_identity(1 - wv, _symmetric_pl("f1", f1)))


# ------------------------------------------------------------------------------ Example F.3
def _f3_args(mu, w, alpha):
    m = validate.nonnegative("mu", mu)
    wv = validate.real("w", w, low=0.0, high=1.0, high_open=True)
    a = validate.real_array("alpha", alpha, low=0.0, high=1.0)
    return m, wv, a


def example_f3_exact(mu, w, alpha, digits=None):
    """Example F.3: the exact ``T(P_0, w P_0 + (1-w) Q_0)(alpha) = w (1 - alpha) + (1-w) G_mu(alpha)``
    for ``P_0 = N(0,1)``, ``Q_0 = N(mu,1)`` (both likelihood ratios are monotone in x, so one
    threshold test is optimal; docs/errata.md#derived-example-f3). With ``digits``: mpmath at that precision (mpf)."""
    m, wv, a = _f3_args(mu, w, alpha)
    if digits is None:
        out = wv * (1.0 - a) + (1.0 - wv) * Gaussian(m)(a)
        return out if np.ndim(out) else float(out)
    d = validate.digits(digits)
    with mpmath.workdps(d):
        def one(x):
            x = mpmath.mpf(x)
            if x == 0:
                return mpmath.mpf(1)
            if x == 1:
                return mpmath.mpf(0)
            z = -mpmath.sqrt(2) * mpmath.erfinv(2 * x - 1)  # Phi^{-1}(1 - x)
            return wv * (1 - x) + (1 - mpmath.mpf(wv)) * mpmath.ncdf(z - m)
        vals = [one(x) for x in np.atleast_1d(a)]
    return vals[0] if np.ndim(a) == 0 else np.array(vals, dtype=object)


def example_f3_lemma31(mu, w, alpha):
    """Example F.3, Lemma 3.1 bound (components ``(P_0, P_0)`` weight ``w``, ``(P_0, Q_0)``
    weight ``1-w``), the printed piecewise form with the "linear" piece made explicit
    (docs/errata.md#derived-example-f3): ``(1-w) G_mu((alpha - w)/(1-w))`` for ``alpha > 1 - (1-w) Phi(mu/2)``,
    ``w + (1-w) G_mu(alpha/(1-w))`` for ``alpha < (1-w) Phi(-mu/2)``, and
    ``w + 2(1-w) Phi(-mu/2) - alpha`` in between. Values rounded down (a lower bound)."""
    m, wv, a = _f3_args(mu, w, alpha)
    flat = np.atleast_1d(a).astype(float)
    g = Gaussian(m)
    left = (1 - wv) * special.ndtr(-m / 2)
    right = 1 - (1 - wv) * special.ndtr(m / 2)
    out = np.empty_like(flat)
    lo = flat < left
    hi = flat > right
    mid = ~(lo | hi)
    out[lo] = wv + (1 - wv) * g(np.minimum(flat[lo] / (1 - wv), 1.0))
    out[hi] = (1 - wv) * g(np.clip((flat[hi] - wv) / (1 - wv), 0.0, 1.0))
    out[mid] = wv + 2 * (1 - wv) * special.ndtr(-m / 2) - flat[mid]
    out = np.maximum(rounding.down(out, abs_err=1e-14), 0.0)
    return out.reshape(np.shape(a)) if np.ndim(a) else float(out[0])


def example_f3_lemma63(mu, w, alpha):
    """Example F.3, Lemma 6.3 / Proposition E.1 bound ``C(w Id + (1-w) G_mu)``, by the corrected
    eq. (3) (docs/errata.md#wang2023-equation-3): with ``x_bar = Phi(-mu/2)`` (where ``G_mu`` has slope -1) and
    ``f = w Id + (1-w) G_mu``: ``f`` on ``[0, x_bar]``, ``x_bar + f(x_bar) - alpha`` on
    ``[x_bar, f(x_bar)]``, ``f^{-1}`` on ``[f(x_bar), 1]`` (by bisection to the last float,
    :func:`dptheory.inverse.bisect_monotone`: the root of a decreasing function compared with x,
    not a privacy profile for the epsilon(delta) inverter; the lower end of the bracket is
    returned). Values rounded down (a lower bound).

    Proposition E.1's hypothesis holds here: the pair is ``(1-w') R + w' P_1`` against
    ``(1-w') R + w' Q_1`` with ``R = P_1 = P_0``, so ``T(P_1, R) = Id >= G_mu``."""
    m, wv, a = _f3_args(mu, w, alpha)
    flat = np.atleast_1d(a).astype(float)
    g = Gaussian(m)

    def f(x):
        return wv * (1.0 - x) + (1.0 - wv) * g(x)

    x_bar = float(special.ndtr(-m / 2))
    f_bar = float(f(x_bar))
    out = np.empty_like(flat)
    for k, x in enumerate(flat):
        if x <= x_bar:
            out[k] = f(x)
        elif x <= f_bar:
            out[k] = x_bar + f_bar - x
        else:  # f^{-1}(x) = the root in [0, x_bar] of f(y) = x; f is decreasing
            out[k] = bisect_monotone(lambda y: f(y) <= x, 0.0, x_bar, max_steps=200)[0]
    out = np.maximum(rounding.down(out, abs_err=1e-14), 0.0)
    return out.reshape(np.shape(a)) if np.ndim(a) else float(out[0])


# ------------------------------------------------------------------------------ Example F.4
def example_f4(p, q) -> dict[str, PiecewiseLinear]:
    """Example F.4: ``(P/2 + Q/2)`` against ``(Q/2 + P/2)``, identical distributions, so the exact
    trade-off function is Id. Returns the exact function (``"exact"``), the Lemma 3.1 bound
    (the infimal convolution of ``T(P, Q)`` and ``T(Q, P)``, loose when ``P != Q``;
    ``"lemma31"``) and Proposition 6.4 with ``w = 1/2`` (``C(Id) = Id``, sharp; ``"prop64"``)."""
    from .concavity import mixture_tradeoff

    pa, qa = validate.pmf_pair(p, q)
    from ..tradeoff import from_pmfs

    f = from_pmfs(pa, qa)
    exact = mixture_tradeoff([0.5, 0.5], [(pa, qa), (qa, pa)])
    lemma31 = joint_concavity_bound([0.5, 0.5], [f, f.inverse()])
    prop64 = swapped_mixture_bound(0.5, f.symmetrize())
    return {"exact": exact, "lemma31": lemma31, "prop64": prop64}

