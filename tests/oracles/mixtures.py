"""Independent oracle for mixtures of pairs and for the trade-off function of any finite pair, in
exact rational arithmetic (``fractions.Fraction``), written from the definitions without reading
dptheory's code.

Mixture (Wang, Su, Ye, Shokri, Su 2023, Appendix B): weights w_i >= 0 summing to 1 and pairs
(P_i, Q_i) of pmfs on one finite space give the pair P_w = sum_i w_i P_i, Q_w = sum_i w_i Q_i.

Trade-off function (Dong, Roth, Su 2022, Definition 2.1): T(P, Q)(alpha) = inf{beta_phi :
alpha_phi <= alpha}, alpha_phi = E_P[phi], beta_phi = 1 - E_Q[phi], over tests phi: outcomes ->
[0, 1]. By the Neyman-Pearson lemma the optimal tests reject the outcomes in decreasing order of
the likelihood ratio q(x)/p(x) (outcomes with p = 0 first, at no cost in alpha), randomising within
one ratio, so T(P, Q) is the piecewise-linear curve through the knots

    (0, 1 - Q[p = 0]),  then  (alpha + p(x), beta - q(x))  for each group of equal ratio in turn,

ending at (1, 0). Every number is an exact rational: inputs given as floats are taken exactly
(a float is a binary rational), as decimal strings exactly ("0.1" is 1/10), as ints or Fractions;
so these curves are exact, not enclosures, and the checks below are exact comparisons.

Hockey-stick divergence: H_g(P||Q) = sum_x max(p(x) - g q(x), 0), exact for a rational g; for g =
e^epsilon (irrational) an enclosure in interval arithmetic (:func:`hockey_stick_epsilon`).
"""

from __future__ import annotations

from fractions import Fraction

from tests.oracles import discrete
from tests.oracles.certified import enclose


def as_fraction(x) -> Fraction:
    """The exact rational value of an int, float, Fraction or decimal string."""
    if isinstance(x, bool):
        raise TypeError("a bool is not a probability")
    if isinstance(x, (int, float, Fraction, str)):
        return Fraction(x)
    raise TypeError(f"not an exact number: {x!r} ({type(x).__name__})")


def pmf(values) -> list[Fraction]:
    """A probability vector of exact rationals. Floats are taken exactly, unless they do not sum to
    1 exactly while their shortest decimal forms do (``[0.1, 0.2, 0.7]``): then the decimals
    (1/10, 2/10, 7/10) are meant, and taken. Checks non-negativity and a sum of 1 (within 1e-12
    otherwise; the exact values are kept whatever their sum)."""
    out = _exact_vector(values)
    if any(v < 0 for v in out):
        raise ValueError(f"negative probability in {values}")
    if abs(sum(out) - 1) > Fraction(1, 10 ** 12):
        raise ValueError(f"probabilities sum to {float(sum(out))}, not 1")
    return out


def _exact_vector(values) -> list[Fraction]:
    out = [as_fraction(v) for v in values]
    if sum(out) != 1 and any(isinstance(v, float) for v in values):
        decimal = [Fraction(repr(v)) if isinstance(v, float) else as_fraction(v) for v in values]
        if sum(decimal) == 1:
            return decimal
    return out


def mixture(weights, pairs) -> tuple[list[Fraction], list[Fraction]]:
    """``(P_w, Q_w)``: the mixtures sum_i w_i P_i and sum_i w_i Q_i of the pairs ``(P_i, Q_i)``."""
    w = _exact_vector(weights)
    if any(v < 0 for v in w) or sum(w) != 1:
        raise ValueError(f"weights must be >= 0 and sum to 1 exactly, got {weights}")
    if len(w) != len(pairs):
        raise ValueError(f"{len(w)} weights for {len(pairs)} pairs")
    ps = [pmf(p) for p, _ in pairs]
    qs = [pmf(q) for _, q in pairs]
    size = len(ps[0])
    if any(len(v) != size for v in ps + qs):
        raise ValueError("every pmf must live on the same finite space")
    p = [sum(wi * pi[x] for wi, pi in zip(w, ps)) for x in range(size)]
    q = [sum(wi * qi[x] for wi, qi in zip(w, qs)) for x in range(size)]
    return p, q


def tradeoff_knots(p, q) -> list[tuple[Fraction, Fraction]]:
    """The exact trade-off function T(P, Q) of a finite pair.

    Parameters
    ----------
    p, q : sequences of exact numbers
        Two pmfs on one finite space (see :func:`pmf`).

    Returns
    -------
    list of (Fraction, Fraction)
        The knots (alpha, beta) from (0, T(0)) to (1, 0), by Neyman-Pearson (module docstring);
        outcomes of equal likelihood ratio are grouped, so consecutive segments have distinct
        slopes. T is the linear interpolation of the knots (:func:`tradeoff_at`).
    """
    p, q = pmf(p), pmf(q)
    if len(p) != len(q):
        raise ValueError("p and q must have the same length")
    groups: dict[Fraction, list[Fraction]] = {}
    beta = Fraction(1)
    for a, b in zip(p, q):
        if a == 0:
            beta -= b                      # rejected at no cost in alpha: T(0) = 1 - Q[p = 0]
            continue
        g = groups.setdefault(b / a, [Fraction(0), Fraction(0)])
        g[0] += a
        g[1] += b
    alpha = Fraction(0)
    knots = [(alpha, beta)]
    for ratio in sorted(groups, reverse=True):
        a, b = groups[ratio]
        alpha, beta = alpha + a, beta - b
        knots.append((alpha, beta))
    return knots


def tradeoff_at(knots, alpha) -> Fraction:
    """T(alpha) of a piecewise-linear curve given by its knots (linear interpolation), alpha in
    [0, 1] exact."""
    alpha = as_fraction(alpha)
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    for (a0, b0), (a1, b1) in zip(knots, knots[1:]):
        if a0 <= alpha <= a1:
            if a1 == a0:
                return min(b0, b1)
            return b0 + (b1 - b0) * (alpha - a0) / (a1 - a0)
    raise ValueError("alpha outside the knots")


def tradeoff(p, q, alpha) -> Fraction:
    """T(P, Q)(alpha), exact."""
    return tradeoff_at(tradeoff_knots(p, q), alpha)


def mixture_tradeoff_knots(weights, pairs):
    """The knots of the exact trade-off function T(P_w, Q_w) of the mixture."""
    return tradeoff_knots(*mixture(weights, pairs))


def hockey_stick(p, q, gamma) -> Fraction:
    """H_gamma(P||Q) = sum_x max(p(x) - gamma q(x), 0) for a rational gamma >= 0, exact."""
    p, q, g = pmf(p), pmf(q), as_fraction(gamma)
    if g < 0:
        raise ValueError(f"gamma must be >= 0, got {gamma}")
    return sum((max(a - g * b, Fraction(0)) for a, b in zip(p, q)), Fraction(0))


def hockey_stick_epsilon(p, q, epsilon, digits: int = 50):
    """Enclosure ``(lower, upper)`` of H_{e^epsilon}(P||Q) (interval arithmetic on the exact
    rationals)."""
    p, q = pmf(p), pmf(q)
    return enclose(lambda: discrete.hockey_stick(p, q, epsilon), digits, nonnegative=True)


def mixture_hockey_stick(weights, pairs, epsilon, digits: int = 50) -> dict:
    """Both directions of the hockey-stick divergence of a mixture pair.

    Parameters
    ----------
    weights : sequence of exact numbers
        w_i >= 0 summing to 1.
    pairs : sequence of (P_i, Q_i)
        pmfs on one finite space.
    epsilon : number
        Any real epsilon (g = e^epsilon).
    digits : int
        Decimal digits of the results.

    Returns
    -------
    dict
        ``{"PQ": H(P_w||Q_w), "QP": H(Q_w||P_w), "max": the larger}``, each an enclosure
        ``(lower, upper)`` (the maximum of enclosures is enclosed by the maxima of their ends).
    """
    p, q = mixture(weights, pairs)
    pq = hockey_stick_epsilon(p, q, epsilon, digits)
    qp = hockey_stick_epsilon(q, p, epsilon, digits)
    return {"PQ": pq, "QP": qp, "max": (max(pq[0], qp[0]), max(pq[1], qp[1]))}


def conjugate_profile(knots, gamma) -> Fraction:
    """1 + f*(-gamma) = max_k (1 - beta_k - gamma alpha_k) over the knots, for f = T(P, Q): this is
    H_gamma(Q||P) (the reversed order; Dong, Roth, Su 2022, Proposition 2.12 for symmetric f). Exact
    for a rational gamma."""
    g = as_fraction(gamma)
    return max(max(Fraction(1) - b - g * a, Fraction(0)) for a, b in knots)


def violations(candidate, knots, alphas) -> list[tuple[Fraction, object, Fraction]]:
    """Where a candidate lower bound of a trade-off function lies above it.

    Parameters
    ----------
    candidate : callable
        Maps an exact alpha (Fraction) to a number: float, Fraction, int, or an mpmath number or
        interval (compared by its upper end, exactly).
    knots : list of (Fraction, Fraction)
        The exact curve (:func:`tradeoff_knots`).
    alphas : sequence of exact numbers
        Where to compare.

    Returns
    -------
    list of (alpha, candidate(alpha), exact T(alpha))
        Every alpha with candidate(alpha) > T(alpha), compared exactly; empty when the candidate
        lies at or below T at every alpha given.
    """
    from tests.oracles.certified import hi, interval, to_fraction
    out = []
    for a in alphas:
        a = as_fraction(a)
        value = candidate(a)
        exact = tradeoff_at(knots, a)
        try:
            top = as_fraction(value)
        except TypeError:
            top = to_fraction(hi(interval(value)))
        if top > exact:
            out.append((a, value, exact))
    return out


def is_below(candidate, knots, alphas) -> bool:
    """True when the candidate lies at or below the exact trade-off function at every alpha given
    (see :func:`violations`)."""
    return not violations(candidate, knots, alphas)
