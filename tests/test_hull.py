"""dptheory.hull: the lower convex hull, checked against its definition (every point on or above
the hull; every vertex an input point strictly below the chord of its neighbours)."""

from fractions import Fraction

import numpy as np
import pytest

from dptheory.hull import lower_hull, lower_hull_indices


def _interp(hx, hy, x):
    return np.interp(x, hx, hy)


@pytest.mark.parametrize("seed", range(20))
def test_every_point_is_on_or_above_the_hull_and_vertices_are_strictly_convex(seed):
    rng = np.random.default_rng(seed)
    xs = np.sort(rng.uniform(0, 1, 200))
    ys = rng.normal(size=200) + 3 * (xs - 0.5) ** 2
    hx, hy = lower_hull(xs.tolist(), ys.tolist())
    assert hx[0] == xs[0] and hx[-1] == xs[-1]
    assert np.all(ys >= _interp(hx, hy, xs) - 1e-12)
    for (x1, y1), (x2, y2), (x3, y3) in zip(zip(hx, hy), zip(hx[1:], hy[1:]), zip(hx[2:], hy[2:])):
        assert y2 < y1 + (y3 - y1) * (x2 - x1) / (x3 - x1)
    idx = lower_hull_indices(xs, ys)
    assert np.array_equal(xs[idx], hx) and np.array_equal(ys[idx], hy)


def test_exact_arithmetic_drops_collinear_points():
    pts = [(Fraction(k, 4), Fraction(4 - k, 4)) for k in range(5)] + [(Fraction(1, 2), Fraction(1, 3))]
    hx, hy = lower_hull([p[0] for p in pts], [p[1] for p in pts])
    assert list(zip(hx, hy)) == [(0, 1), (Fraction(1, 2), Fraction(1, 3)), (1, 0)]


# ----------------------------------------------------------------------------- envelopes of lines


def _exact_max(slopes, intercepts, x):
    """max(0, max_j (c_j + s_j x)) in exact rational arithmetic."""
    x = Fraction(x)
    return max([Fraction(0)] + [Fraction(c) + Fraction(s) * x for s, c in zip(slopes, intercepts)])


def _random_lines(rng, k):
    """Tangent lines of a random convex decreasing function on [0, 1] (slopes from very steep to
    flat, some nearly parallel, some duplicated), with a few lines below the envelope."""
    knots = np.sort(rng.uniform(0, 1, k))
    slopes = -np.sort(np.exp(rng.uniform(-6, 8, k)))[::-1]
    vals = 1.0 + np.concatenate([[0.0], np.cumsum(np.diff(knots) * slopes[:-1])])
    intercepts = vals - slopes * knots
    slopes = np.concatenate([slopes, slopes[: k // 4] * (1 + 1e-15), slopes[: k // 8]])
    intercepts = np.concatenate([intercepts, intercepts[: k // 4], intercepts[: k // 8] - 0.25])
    return slopes, intercepts


@pytest.mark.parametrize("seed", range(6))
def test_upper_envelope_lines_are_the_lines_on_top_somewhere(seed):
    """The selected lines are exactly those that are on top at some x >= 0, checked by brute force
    at the midpoints between breakpoints in exact arithmetic; floats and fractions agree."""
    from dptheory.hull import upper_envelope_lines

    rng = np.random.default_rng(seed)
    s = -np.exp(rng.uniform(-3, 3, 40))
    c = rng.uniform(0, 2, 40)
    hs, hc = upper_envelope_lines(s, c)
    fs, fc = upper_envelope_lines([Fraction(v) for v in s], [Fraction(v) for v in c])
    assert [Fraction(v) for v in hs] == fs and [Fraction(v) for v in hc] == fc
    assert np.all(np.diff(hs) > 0)
    xs = [Fraction(0)] + [(fc[j] - fc[j + 1]) / (fs[j + 1] - fs[j]) for j in range(len(fs) - 1)]
    assert all(a < b for a, b in zip(xs, xs[1:])) and all(x > 0 for x in xs[1:])
    probes = [(a + b) / 2 for a, b in zip(xs, xs[1:])] + [xs[-1] + 1]
    for j, x in enumerate(probes):  # line j is the unique maximum between its breakpoints
        values = [Fraction(cv) + Fraction(sv) * x for sv, cv in zip(s, c)]
        assert fc[j] + fs[j] * x == max(values)
        assert sum(v == max(values) for v in values) == 1


@pytest.mark.parametrize("seed", range(12))
def test_envelope_below_lies_under_the_lines_in_exact_arithmetic(seed):
    """Every segment of the polyline lies under one line (or y = 0), checked at both ends with
    fractions, also after the piecewise-linear function is rebuilt from its masses by cumulative
    sums (the knots that users evaluate); and it is within 1e-12 of the envelope."""
    from dptheory.hull import envelope_below
    from dptheory.tradeoff import PiecewiseLinear

    rng = np.random.default_rng(seed)
    s, c = _random_lines(rng, int(rng.integers(3, 400)))
    xs, ys = envelope_below(s, c)
    assert xs[0] == 0 and ys[-1] == 0 and np.all(np.diff(xs) >= 0) and np.all(ys >= 0)
    p_mass = np.concatenate([[0.0], np.diff(xs), [max(1.0 - xs[-1], 0.0)]])
    q_mass = np.concatenate([[max(1.0 - ys[0], 0.0)], np.maximum(-np.diff(ys), 0.0), [0.0]])
    rebuilt = PiecewiseLinear(p_mass, q_mass, _checked=True)
    lines = list(zip(s.tolist(), c.tolist())) + [(0.0, 0.0)]
    for ka, kb in ((xs, ys), rebuilt.knots()):
        ka, kb = [Fraction(v) for v in ka], [Fraction(v) for v in kb]
        for (x1, y1), (x2, y2) in zip(zip(ka, kb), zip(ka[1:], kb[1:])):
            if x1 == x2:
                continue
            assert any(y1 <= Fraction(cv) + Fraction(sv) * x1 and y2 <= Fraction(cv) + Fraction(sv) * x2
                       for sv, cv in lines), (x1, y1, x2, y2)
    probe = np.linspace(0, float(xs[-1]), 301)
    gap = [float(_exact_max(s, c, x)) - float(v) for x, v in zip(probe, np.interp(probe, xs, ys))]
    assert min(gap) >= 0 and max(gap) <= 1e-12 * (1 + float(np.max(c)))


def test_envelope_below_without_a_line_above_zero_is_the_zero_function():
    from dptheory.hull import envelope_below

    xs, ys = envelope_below(np.array([-1.0, np.inf, 2.0]), np.array([-0.5, 1.0, 1.0]))
    assert xs.tolist() == [0.0] and ys.tolist() == [0.0]


def test_each_caller_builds_its_envelope_under_its_own_lines():
    """The three certified lower bounds that used to place their envelope vertices each in its own
    way (shuffle f-DP, PLD, DP-GD) now all take dptheory.hull.envelope_below: checked on the lines
    each one builds, in exact arithmetic, at every knot of the returned trade-off function (a knot
    is below the true envelope of the lines, which lies below the trade-off function)."""
    from dptheory.mixtures import dpgd
    from dptheory.pld import PLD
    from dptheory.shuffle import fdp
    from dptheory.shuffle.fdp import tradeoff as fdp_tradeoff

    e0, n = 1.0, 40
    s, c = fdp_tradeoff._exact_lines(e0, n, fdp.clone_probability(e0))
    rs, rc = fdp_tradeoff._reflect(s[s < -1], c[s < -1])
    rr_s, rr_c = fdp_tradeoff._rr_lines(e0)
    s, c = np.concatenate([s, rs, rr_s]), np.concatenate([c, rc, rr_c])
    f = fdp.shuffle_tradeoff(e0, n)
    for x, y in zip(*f.knots()):
        assert Fraction(y) <= _exact_max(s, c, x)
    # PLD and DP-GD: every knot below the exact trade-off function they bound
    from dptheory import tradeoff

    p, q = [0.6, 0.3, 0.1], [0.2, 0.3, 0.5]
    lower = PLD.from_pmfs(p, q).tradeoff()
    exact = tradeoff.from_pmfs(p, q)
    a, b = lower.knots()
    assert np.all(b <= exact(a))
    g = dpgd.dpgd_tradeoff(dpgd.constant(1.0), cells=2000)
    a, b = g.knots()
    assert np.all(b <= tradeoff.gaussian(1.0)(a))
