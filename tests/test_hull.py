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
