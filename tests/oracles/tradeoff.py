"""Independent oracles for trade-off functions, Bayes errors and the Delta-divergence, written from
the definitions without reading dptheory's code.

Trade-off function (Dong, Roth, Su 2022, Definition 2.1): T(P, Q)(alpha) = inf{beta_phi : alpha_phi
<= alpha}. Here:

- the Gaussian G_mu = T(N(0,1), N(mu,1)), G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) (Neyman-Pearson:
  the likelihood ratio is increasing in x, so the optimal test rejects x > z with alpha = 1 -
  Phi(z), and beta = Phi(z - mu));
- the Laplace T(Lap(0,1), Lap(mu,1)) (mu = sensitivity/scale), likewise F(F^-1(1 - alpha) - mu) with
  the Laplace CDF F (the likelihood ratio e^(|x| - |x - mu|) is non-decreasing in x);
- k-ary randomized response, by Neyman-Pearson on its two output pmfs
  (:func:`tests.oracles.discrete.tradeoff`).

These return certified enclosures ``(lower, upper)`` (mpmath.iv; the normal CDF and its inverse as in
:mod:`tests.oracles.certified`).

Bayes error (Kaissis, Kolek, Balle, Hayes, Rueckert 2024, eq. (1)-(2)): R(pi) = min over alpha of
pi alpha + (1 - pi) f(alpha).

Delta-divergence (Kaissis et al. 2024, Definition 1): Delta(f||g) = inf{kappa >= 0 : f(alpha + kappa)
- kappa <= g(alpha) for all alpha}, f extended by 1 left of 0 and by 0 right of 1. For
piecewise-linear curves it is computed exactly (Fractions) from the definition
(:func:`delta_divergence_pl`); for two Gaussian curves in closed form
(:func:`gaussian_delta_divergence`); for any two convex curves known through enclosures of their
values, bracketed by piecewise-linear curves below and above them (:func:`delta_divergence_bracket`).
"""

from __future__ import annotations

import bisect
from fractions import Fraction

from mpmath import iv, mpf

from tests.oracles import discrete
from tests.oracles.certified import (clip_nonnegative, enclose, fraction_bounds, hi, hull, imin,
                                     interval, inverse_nsf, lo, ncdf, working_precision, bits_for)

# ----------------------------------------------------------------------------- curves


def _alpha(alpha):
    a = interval(alpha)
    if not (lo(a) >= 0 and hi(a) <= 1):
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    return a


def _curve_arguments(mu, alpha):
    """``(alpha, mu, value)``: the checked arguments as intervals, and the curve's value where alpha
    is exactly 0 (1) or 1 (0), else None."""
    a = _alpha(alpha)
    m = interval(mu)
    if not lo(m) >= 0:
        raise ValueError(f"mu must be >= 0, got {mu}")
    if hi(a) == 0:
        return a, m, iv.mpf(1)
    if lo(a) == 1:
        return a, m, iv.mpf(0)
    return a, m, None


def gaussian_tradeoff_interval(mu, alpha):
    """Interval of G_mu(alpha) = Phi(z - mu), z = Phi^-1(1 - alpha) enclosed by
    :func:`tests.oracles.certified.inverse_nsf` (G increases with z)."""
    a, m, end = _curve_arguments(mu, alpha)
    if end is not None:
        return end
    if lo(a) == 0 or hi(a) == 1:
        raise ValueError("give alpha exactly 0 or 1, or an interval inside (0, 1)")
    if hi(m) == 0:
        return 1 - a
    return ncdf(inverse_nsf(a) - m)


def gaussian_tradeoff(mu, alpha, digits: int = 50):
    """G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu).

    Parameters
    ----------
    mu : number
        >= 0.
    alpha : number
        In [0, 1] (exactly 0 or 1, or inside).
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure: the quantile is enclosed by a certified bracket
        (:func:`tests.oracles.certified.inverse_nsf`), then Phi by the certified normal CDF.
    """
    return enclose(lambda: gaussian_tradeoff_interval(mu, alpha), digits, nonnegative=True)


def laplace_tradeoff_interval(mu, alpha):
    """Interval of T(Lap(0,1), Lap(mu,1))(alpha) = F(F^-1(1 - alpha) - mu), F the Laplace CDF:
    F^-1(1 - alpha) = -log(2 alpha) for alpha <= 1/2 and log(2 (1 - alpha)) above; F(y) = e^y/2 for
    y <= 0 and 1 - e^-y/2 above. Where the interval of alpha (or of the argument of F) straddles a
    branch point both formulas are evaluated and their hull kept (the function is continuous)."""
    a, m, end = _curve_arguments(mu, alpha)
    if end is not None:
        return end

    def cdf(y):
        parts = []
        if lo(y) <= 0:
            parts.append(iv.exp(iv.mpf([lo(y), min(hi(y), 0)])) / 2)
        if hi(y) >= 0:
            parts.append(1 - iv.exp(-iv.mpf([max(lo(y), 0), hi(y)])) / 2)
        return hull(*parts)

    parts = []
    if lo(a) <= mpf(1) / 2:
        piece = iv.mpf([max(lo(a), mpf(0)), min(hi(a), mpf(1) / 2)])
        if lo(piece) > 0:
            parts.append(cdf(-iv.log(2 * piece) - m))
        else:
            parts.append(iv.mpf([0, 1]))
    if hi(a) >= mpf(1) / 2:
        piece = iv.mpf([max(lo(a), mpf(1) / 2), min(hi(a), mpf(1))])
        if hi(piece) < 1:
            parts.append(cdf(iv.log(2 * (1 - piece)) - m))
        else:
            parts.append(iv.mpf([0, hi(cdf(iv.log(2 * (1 - iv.mpf(lo(piece)))) - m))]))
    return clip_nonnegative(hull(*parts))


def laplace_tradeoff(mu, alpha, digits: int = 50):
    """T(Lap(0,1), Lap(mu,1))(alpha), mu = sensitivity/scale.

    Parameters
    ----------
    mu : number
        >= 0.
    alpha : number
        In [0, 1].
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure (elementary functions in interval arithmetic, see
        :func:`laplace_tradeoff_interval`).
    """
    return enclose(lambda: laplace_tradeoff_interval(mu, alpha), digits, nonnegative=True)


def rr_tradeoff_interval(eps0, k, alpha):
    """Interval of the trade-off function of k-ary randomized response (rows 0 and 1 of
    :func:`tests.oracles.discrete.rr_rows`), by Neyman-Pearson on the pmfs."""
    rows = discrete.rr_rows(eps0, k)()
    return discrete.tradeoff(rows[0], rows[1], _alpha(alpha))


def rr_tradeoff(eps0, k, alpha, digits: int = 50):
    """The trade-off function of k-ary randomized response at alpha.

    Parameters
    ----------
    eps0 : number
        The budget: the true value is reported w.p. e^eps0/(e^eps0 + k - 1).
    k : int
        Number of values (>= 2).
    alpha : number
        In [0, 1].
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure, by Neyman-Pearson on the two output pmfs (:func:`tests.oracles.discrete.tradeoff`).
    """
    return enclose(lambda: rr_tradeoff_interval(eps0, k, alpha), digits, nonnegative=True)


# ----------------------------------------------------------------------------- Bayes errors


def _prior(prior):
    pi = interval(prior)
    if not (lo(pi) >= 0 and hi(pi) <= 1):
        raise ValueError(f"prior must lie in [0, 1], got {prior}")
    return pi


def bayes_error_pl(knots, prior) -> Fraction:
    """R(pi) = min over alpha of pi alpha + (1 - pi) f(alpha) for a piecewise-linear f given by its
    knots (Fractions): the objective is piecewise linear, so its minimum is at a knot. Exact."""
    pi = Fraction(prior)
    if not 0 <= pi <= 1:
        raise ValueError(f"prior must lie in [0, 1], got {prior}")
    return min(pi * a + (1 - pi) * b for a, b in knots)


def gaussian_bayes_error_interval(mu, prior):
    """Interval of R(pi) for G_mu: with l = log(pi / (1 - pi)), the stationary point of pi alpha +
    (1 - pi) G_mu(alpha) has G_mu'(alpha) = -e^(mu z - mu^2/2) = -pi/(1 - pi) (z = Phi^-1(1 -
    alpha)), i.e. z = l/mu + mu/2, so (derived here)

        R(pi) = pi Phi(-mu/2 - l/mu) + (1 - pi) Phi(-mu/2 + l/mu),   0 < pi < 1,

    R(0) = R(1) = 0, and min(pi, 1 - pi) for mu = 0."""
    pi = _prior(prior)
    m = interval(mu)
    if hi(pi) == 0 or lo(pi) == 1:
        return iv.mpf(0)
    if not (lo(pi) > 0 and hi(pi) < 1):
        raise ValueError("give the prior exactly 0 or 1, or an interval inside (0, 1)")
    if hi(m) == 0:
        return imin(pi, 1 - pi)
    ell = iv.log(pi / (1 - pi))
    return pi * ncdf(-m / 2 - ell / m) + (1 - pi) * ncdf(-m / 2 + ell / m)


def gaussian_bayes_error(mu, prior, digits: int = 50):
    """Enclosure ``(lower, upper)`` of the Bayes error R(pi) of G_mu."""
    return enclose(lambda: gaussian_bayes_error_interval(mu, prior), digits, nonnegative=True)


def laplace_bayes_error_interval(mu, prior):
    """Interval of R(pi) for the Laplace curve (eps = mu): the curve is 1 - e^eps alpha on [0,
    e^-eps/2], e^-eps/(4 alpha) on [e^-eps/2, 1/2] and e^-eps (1 - alpha) on [1/2, 1], so the
    minimum of the convex objective is at alpha in {0, e^-eps/2, 1/2, 1} or at the stationary point
    of the middle piece, alpha = e^(-eps/2) sqrt((1 - pi)/pi) / 2, where the value is e^(-eps/2)
    sqrt(pi (1 - pi)); the minimum over those candidates (the middle one clipped into its piece)."""
    pi = _prior(prior)
    e = interval(mu)
    small = iv.exp(-e) / 2
    half = iv.mpf(1) / 2

    def objective_middle(alpha):
        return pi * alpha + (1 - pi) * iv.exp(-e) / (4 * alpha)

    candidates = [1 - pi, pi,
                  pi * small + (1 - pi) * (1 - iv.exp(e) * small),
                  pi * half + (1 - pi) * iv.exp(-e) * (1 - half)]
    if lo(pi) > 0:
        stat = iv.exp(-e / 2) * iv.sqrt((1 - pi) / pi) / 2
        clipped = iv.mpf([min(max(lo(stat), lo(small)), mpf(1) / 2),
                          min(max(hi(stat), hi(small)), mpf(1) / 2)])
        candidates.append(objective_middle(clipped))
    return clip_nonnegative(imin(*candidates))


def laplace_bayes_error(mu, prior, digits: int = 50):
    """Enclosure ``(lower, upper)`` of the Bayes error R(pi) of the Laplace curve."""
    return enclose(lambda: laplace_bayes_error_interval(mu, prior), digits, nonnegative=True)


# ----------------------------------------------------------------------------- Delta, exactly


def _pl(knots):
    """Validate piecewise-linear knots: Fractions, alpha from 0 to 1 strictly increasing, beta
    non-increasing, in [0, 1]."""
    ks = [(Fraction(a), Fraction(b)) for a, b in knots]
    if ks[0][0] != 0 or ks[-1][0] != 1:
        raise ValueError("knots must run from alpha = 0 to alpha = 1")
    for (a0, b0), (a1, b1) in zip(ks, ks[1:]):
        if not a1 > a0:
            raise ValueError("alphas must increase strictly")
        if b1 > b0:
            raise ValueError("a trade-off curve is non-increasing")
    if any(not 0 <= b <= 1 for _, b in ks):
        raise ValueError("betas must lie in [0, 1]")
    return ks


def pl_value(knots, x) -> Fraction:
    """The piecewise-linear curve at any real x, extended by 1 left of 0 and by 0 right of 1
    (Kaissis et al. 2024, Section 1 convention)."""
    if x < 0:
        return Fraction(1)
    if x > 1:
        return Fraction(0)
    xs = [a for a, _ in knots]
    i = bisect.bisect_right(xs, x)
    if i >= len(knots):
        return knots[-1][1]
    (a0, b0), (a1, b1) = knots[i - 1], knots[i]
    return b0 + (b1 - b0) * (x - a0) / (a1 - a0)


def _shift_needed_at_g_knot(f, a, c) -> Fraction:
    """The smallest kappa >= 0 with f(a + kappa) - kappa <= c (f extended; c >= 0). u(kappa) =
    f(a + kappa) - kappa is strictly decreasing, piecewise linear with breakpoints where a + kappa
    is a knot of f, and drops to -kappa past alpha = 1."""
    if pl_value(f, a) <= c:
        return Fraction(0)
    xs = [x for x, _ in f]
    # first knot x_k > a with f(x_k) - (x_k - a) <= c (the sequence decreases in k)
    i = bisect.bisect_right(xs, a)
    lo_i, hi_i = i, len(f)
    while lo_i < hi_i:
        mid = (lo_i + hi_i) // 2
        x, y = f[mid]
        if y - (x - a) <= c:
            hi_i = mid
        else:
            lo_i = mid + 1
    k = lo_i
    if k == len(f):
        return 1 - a                       # past alpha = 1 the extension is 0 <= c
    x0, y0 = (a, pl_value(f, a)) if k == i else f[k - 1]
    x1, y1 = f[k]
    slope = (y1 - y0) / (x1 - x0)
    # y0 + slope (a + kappa - x0) - kappa = c
    return (y0 + slope * (a - x0) - c) / (1 - slope)


def _shift_needed_at_f_knot(g, b, y) -> Fraction:
    """The smallest t >= 0 with g(b - t) + t >= y (g extended: 1 left of 0). v(t) = g(b - t) + t is
    strictly increasing, piecewise linear with breakpoints where b - t is a knot of g, and jumps to
    1 + t past alpha = 0."""
    if pl_value(g, b) >= y:
        return Fraction(0)
    xs = [x for x, _ in g]
    # the largest knot x_j < b with g(x_j) + (b - x_j) >= y (the sequence increases as x_j decreases)
    i = bisect.bisect_left(xs, b)        # knots strictly left of b: indices < i
    lo_i, hi_i = -1, i - 1
    while lo_i < hi_i:
        mid = (lo_i + hi_i + 1) // 2
        x, v = g[mid]
        if v + (b - x) >= y:
            lo_i = mid
        else:
            hi_i = mid - 1
    j = lo_i
    if j < 0:
        return b                           # only past alpha = 0 (g = 1 there, 1 + t >= y)
    x0, y0 = g[j]
    x1, y1 = (b, pl_value(g, b)) if j + 1 >= i else g[j + 1]
    slope = (y1 - y0) / (x1 - x0)
    # y0 + slope (b - t - x0) + t = y
    return (y - y0 - slope * (b - x0)) / (1 - slope)


def delta_divergence_pl(f_knots, g_knots) -> Fraction:
    """Delta(f||g) of two piecewise-linear curves, exactly, from Definition 1 of Kaissis et al. 2024.

    Parameters
    ----------
    f_knots, g_knots : list of (alpha, beta)
        Knots of non-increasing curves on [0, 1] (exact numbers: Fractions, ints), alpha strictly
        increasing from 0 to 1.

    Returns
    -------
    Fraction
        The exact value (no rounding anywhere).

    Notes
    -----
    For a fixed kappa, h(alpha) = f(alpha + kappa) - kappa - g(alpha) is piecewise linear in alpha, so
    its maximum over [0, 1] is at a knot a_j of g or at a shifted knot b_i - kappa of f (outside
    [0, 1] the condition holds by the extension). Each of these conditions is monotone in kappa (f
    and g are non-increasing), so Delta is the largest of the smallest kappas that satisfy them one
    by one: at a knot a of g, the smallest kappa with f(a + kappa) - kappa <= g(a); at a knot (b,
    f(b)) of f, the smallest t with g(b - t) + t >= f(b). Each is found by a binary search over the
    other curve's knots and one linear equation. O((n + m) log(n + m)) exact operations."""
    f, g = _pl(f_knots), _pl(g_knots)
    best = Fraction(0)
    for a, c in g:
        best = max(best, _shift_needed_at_g_knot(f, a, c))
    for b, y in f:
        best = max(best, _shift_needed_at_f_knot(g, b, y))
    return best


def delta_divergence_pl_bruteforce(f_knots, g_knots, kappa) -> bool:
    """Whether f(alpha + kappa) - kappa <= g(alpha) holds at every breakpoint of the difference,
    evaluated exactly: the definition's condition for one kappa (for tests)."""
    f, g = _pl(f_knots), _pl(g_knots)
    kappa = Fraction(kappa)
    points = {a for a, _ in g} | {b - kappa for b, _ in f}
    return all(pl_value(f, x + kappa) - kappa <= pl_value(g, x) for x in points if 0 <= x <= 1)


def symmetric_delta_divergence_pl(f_knots, g_knots) -> Fraction:
    """max(Delta(f||g), Delta(g||f)) (Kaissis et al. 2024, Definition 3), exactly."""
    return max(delta_divergence_pl(f_knots, g_knots), delta_divergence_pl(g_knots, f_knots))


# ----------------------------------------------------------------------------- Delta, Gaussians


def gaussian_delta_divergence_interval(mu, mu2):
    """Interval of Delta(G_mu||G_mu2) = max(0, Phi(-mu/2) - Phi(-mu2/2)) (derived here from
    Definition 1). Both curves are symmetric about the diagonal, and a shift along the diagonal
    keeps the shifted curve symmetric, so the two curves first touch on the diagonal (the chord
    computation in the tests checks this); there the shifted fixed point (alpha* - kappa, alpha* -
    kappa) of G_mu, alpha* = Phi(-mu/2) (G_mu(alpha) = alpha iff Phi^-1(1 - alpha) = mu/2), must be on
    or below G_mu2, whose diagonal point is Phi(-mu2/2). G_mu <= G_mu2 when mu >= mu2 (then 0)."""
    m1, m2 = interval(mu), interval(mu2)
    if not (lo(m1) >= 0 and lo(m2) >= 0):
        raise ValueError("mu must be >= 0")
    return clip_nonnegative(ncdf(-m1 / 2) - ncdf(-m2 / 2))


def gaussian_delta_divergence(mu, mu2, digits: int = 50):
    """Delta(G_mu||G_mu2) in closed form (:func:`gaussian_delta_divergence_interval`).

    Parameters
    ----------
    mu, mu2 : numbers
        >= 0.
    digits : int
        Decimal digits of the result.

    Returns
    -------
    (lower, upper) : mpmath numbers
        An enclosure of max(0, Phi(-mu/2) - Phi(-mu2/2)).
    """
    return enclose(lambda: gaussian_delta_divergence_interval(mu, mu2), digits, nonnegative=True)


# ----------------------------------------------------------------------------- Delta, brackets


def chord_bracket(curve_interval, alphas, digits: int = 30):
    """Piecewise-linear curves below and above a convex non-increasing curve.

    Parameters
    ----------
    curve_interval : callable
        ``curve_interval(alpha)`` -> an ``iv`` interval that contains f(alpha), for an exact alpha
        (called at the working precision for ``digits``).
    alphas : sequence of exact numbers
        The grid, strictly increasing from 0 to 1.
    digits : int
        Working digits of the curve evaluations.

    Returns
    -------
    (below, above) : lists of (Fraction, Fraction)
        Knots of two piecewise-linear curves with below <= f <= above on [0, 1] (and on the
        extension).

    Notes
    -----
    above: the chords through the sampled values rounded up (a chord of a convex function lies
    above it). below: the chord values lowered by the largest gap between a chord and a convex
    function on its interval, (x1 - x0)(f'(x1-) - f'(x0+))/4 (the gap is at most |d0| d1/(|d0| +
    d1) <= (d1 - d0)/4 in units of the interval), where f'(x0+) >= the slope of the previous chord
    and f'(x1-) <= the slope of the next chord (<= 0 at the last interval); on the first interval f
    >= f(x1) is used instead. The lowered values are made non-increasing (running minimum) and
    clipped at 0, which keeps them below f."""
    xs = [Fraction(a) for a in alphas]
    if xs[0] != 0 or xs[-1] != 1 or any(b <= a for a, b in zip(xs, xs[1:])):
        raise ValueError("alphas must increase strictly from 0 to 1")
    with working_precision(bits_for(digits)):
        ends = [fraction_bounds(curve_interval(x)) for x in xs]
    low = [e[0] for e in ends]
    up = [min(e[1], Fraction(1)) for e in ends]
    up = [max(v, Fraction(0)) for v in up]
    # chord slopes through the lower values (a lower bound on f at each point)
    n = len(xs)
    slopes_hi = [(up[i + 1] - low[i]) / (xs[i + 1] - xs[i]) for i in range(n - 1)]  # >= true chord slope
    slopes_lo = [(low[i + 1] - up[i]) / (xs[i + 1] - xs[i]) for i in range(n - 1)]  # <= true chord slope
    gap = []
    for i in range(n - 1):
        width = xs[i + 1] - xs[i]
        if i == 0:
            gap.append(up[0] - low[1])     # on [x0, x1]: chord <= f(x0) and f >= f(x1)
            continue
        d0 = slopes_lo[i - 1]              # f'(x_i+) >= chord slope on the previous interval
        d1 = slopes_hi[i + 1] if i + 1 < n - 1 else Fraction(0)   # f'(x_{i+1}-) <= next chord slope
        gap.append(max(width * (d1 - d0) / 4, Fraction(0)))
    below = []
    for i in range(n):
        g = max(gap[i - 1] if i > 0 else Fraction(0), gap[i] if i < n - 1 else Fraction(0))
        below.append(low[i] - g)
    running = []
    current = Fraction(1)
    for v in below:
        current = min(current, v)
        running.append(max(current, Fraction(0)))
    above = list(zip(xs, up))
    # an upper curve must also be non-increasing: the chords of f are, but rounding can break it
    fixed, current = [], Fraction(0)
    for x, v in reversed(above):
        current = max(current, v)
        fixed.append((x, current))
    return list(zip(xs, running)), list(reversed(fixed))


def delta_divergence_bracket(f_interval, g_interval, alphas, digits: int = 30):
    """A certified bracket of Delta(f||g) for two convex non-increasing curves.

    Parameters
    ----------
    f_interval, g_interval : callable
        Interval enclosures of the curves' values (see :func:`chord_bracket`).
    alphas : sequence of exact numbers
        The grid of the chords.
    digits : int
        Working digits of the curve evaluations.

    Returns
    -------
    (lower, upper) : Fractions
        lower <= Delta(f||g) <= upper: Delta is non-decreasing in f and non-increasing in g
        (Definition 1), so Delta(f_below||g_above) <= Delta(f||g) <= Delta(f_above||g_below), each
        computed exactly by :func:`delta_divergence_pl`. The width shrinks as the square of the
        grid step (times the curvature).
    """
    f_lo, f_hi = chord_bracket(f_interval, alphas, digits)
    g_lo, g_hi = chord_bracket(g_interval, alphas, digits)
    return delta_divergence_pl(f_lo, g_hi), delta_divergence_pl(f_hi, g_lo)


def unit_grid(points: int, tail: int = 30):
    """An exact grid of [0, 1]: ``points`` equal steps, plus ``tail`` geometric points towards 0 and
    towards 1 (steep trade-off curves bend there)."""
    xs = {Fraction(i, points) for i in range(points + 1)}
    for j in range(1, tail + 1):
        x = Fraction(1, points * 2 ** j)
        xs.add(x)
        xs.add(1 - x)
    return sorted(xs)
