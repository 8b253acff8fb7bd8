"""Lower convex hulls of points in the plane: the convex minorant of a set of (x, y) points,
which turns a pointwise minimum of trade-off functions (or of privacy-profile values) into the
largest convex function below them.

Two implementations of one idea: :func:`lower_hull`, Andrew's monotone chain on any numbers that
support + - * and comparison (floats, mpmath numbers, fractions), and
:func:`lower_hull_indices`, a vectorised numpy version for large float arrays sorted by x.
"""

from __future__ import annotations

import numpy as np


def _turns_left(x1, y1, x2, y2, x, y) -> bool:
    """Whether (x2, y2) lies strictly below the chord from (x1, y1) to (x, y) (x1 < x2 < x)."""
    return (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 0


def lower_hull(xs, ys) -> tuple[list, list]:
    """Vertices (xs, ys) of the lower convex hull of the points, left to right (Andrew's monotone
    chain, O(k log k)); a point on a chord between two others is not a vertex."""
    hull: list = []
    for x, y in sorted(zip(xs, ys)):
        while len(hull) >= 2 and not _turns_left(*hull[-2], *hull[-1], x, y):
            hull.pop()
        hull.append((x, y))
    return [h[0] for h in hull], [h[1] for h in hull]


def lower_hull_indices(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Indices of the lower convex hull of points sorted by x (strictly increasing).

    Vectorised pruning: a point on or above the segment between its two neighbours (in the
    current list) is not a vertex of the lower hull of any set containing them, so every such
    point is dropped at once; repeated until none is left (a few passes for points that are
    nearly convex already), then finished by the monotone chain if passes run out."""
    idx = np.arange(len(xs))
    for _ in range(64):
        if len(idx) < 3:
            return idx
        x, y = xs[idx], ys[idx]
        cross = (x[1:-1] - x[:-2]) * (y[2:] - y[:-2]) - (y[1:-1] - y[:-2]) * (x[2:] - x[:-2])
        drop = cross <= 0  # the middle point is on or above the chord of its neighbours
        if not np.any(drop):
            return idx
        keep = np.ones(len(idx), dtype=bool)
        keep[1:-1] = ~drop
        idx = idx[keep]
    hull: list[int] = []
    for i in idx.tolist():
        while len(hull) >= 2 and not _turns_left(xs[hull[-2]], ys[hull[-2]], xs[hull[-1]], ys[hull[-1]], xs[i], ys[i]):
            hull.pop()
        hull.append(i)
    return np.array(hull, dtype=np.int64)
