"""Lower convex hulls of points in the plane, and upper envelopes of lines (the same thing in the
dual plane).

* The convex minorant of a set of (x, y) points turns a pointwise minimum of trade-off functions
  (or of privacy-profile values) into the largest convex function below them. Two
  implementations of one idea: :func:`lower_hull`, Andrew's monotone chain on any numbers that
  support + - * and comparison (floats, mpmath numbers, fractions), and
  :func:`lower_hull_indices`, a vectorised numpy version for large float arrays sorted by x.
* The upper envelope max_j (c_j + s_j x) of lines that lie below a convex function is a convex
  function below it: every certified lower bound on a trade-off function built from supporting
  lines (the shuffle f-DP of :mod:`dptheory.shuffle.fdp`, the trade-off function of a PLD in
  :mod:`dptheory.pld`, DP-GD in :mod:`dptheory.mixtures.dpgd`) is one.
  :func:`upper_envelope_lines` selects the lines (the lower hull of the points (s_j, -c_j)), and
  :func:`envelope_below` gives, in float64, knots of a polyline that lies under the envelope
  whatever the rounding of its vertices (the one direction every caller needs: a lower bound).
  The mpmath envelope of :mod:`dptheory.shuffle.fdp` selects its lines here too and places its
  vertices with a margin at its working precision instead of directed float rounding.
"""

from __future__ import annotations

import numpy as np

from . import rounding

_U = rounding.EPS / 2  # unit roundoff


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


def _chain(s, c) -> tuple[list, list]:
    """Andrew's monotone chain on the dual points (s_j, -c_j), lines sorted by increasing slope
    with distinct slopes, its turn test written out: the middle of three lines is dropped when
    the third overtakes the first no later than the middle one does."""
    hs: list = []
    hc: list = []
    for sj, cj in zip(s, c):
        while len(hs) >= 2 and (hc[-2] - cj) * (hs[-1] - hs[-2]) <= (hc[-2] - hc[-1]) * (sj - hs[-2]):
            hs.pop()
            hc.pop()
        hs.append(sj)
        hc.append(cj)
    return hs, hc


def upper_envelope_lines(slopes, intercepts):
    """(s, c): the lines y = c_j + s_j x that attain max_j (c_j + s_j x) somewhere on x >= 0, by
    increasing slope (of lines with equal slopes, the one with the largest intercept).

    Line j is on top at x exactly where the points (s_i, -c_i) are supported from below by a line
    of slope x through (s_j, -c_j): the envelope's lines are the vertices of the lower hull of
    those points (Andrew's monotone chain, as :func:`lower_hull`, with its test written out: the
    vectorised pruning of :func:`lower_hull_indices` stalls on many nearly collinear tangents),
    and its breakpoints are the slopes of the hull's edges, x_j = (c_j - c_{j+1})/(s_{j+1} - s_j).
    Lines whose stretch lies left of 0 (a steeper line is above them at x = 0) are dropped.
    Float arrays give arrays; other numbers (mpmath, fractions) give lists. In float64, rounding
    can only keep a line that should go or drop one that touches the envelope at a single point:
    either way the envelope of the kept lines is not above the true one (:func:`envelope_below`
    places the vertices).
    """
    if isinstance(slopes, np.ndarray) and slopes.dtype.kind == "f":
        s = np.asarray(slopes, dtype=float)
        c = np.asarray(intercepts, dtype=float)
        order = np.lexsort((-c, s))
        s, c = s[order], c[order]
        first = np.concatenate([[True], s[1:] != s[:-1]])  # equal slopes: the largest intercept
        hs, hc = _chain(s[first].tolist(), c[first].tolist())
        s, c = np.array(hs), np.array(hc)
        if len(s) > 1:
            with np.errstate(divide="ignore", invalid="ignore"):
                x = (c[:-1] - c[1:]) / (s[1:] - s[:-1])
            start = int(np.searchsorted(x, 0.0, side="right"))
            s, c = s[start:], c[start:]
        return s, c
    lines = sorted(zip(slopes, intercepts), key=lambda line: (line[0], -line[1]))
    distinct = [line for i, line in enumerate(lines) if i == 0 or line[0] != lines[i - 1][0]]
    hs, hc = _chain([line[0] for line in distinct], [line[1] for line in distinct])
    start = 0
    while start + 1 < len(hs) and (hc[start] - hc[start + 1]) / (hs[start + 1] - hs[start]) <= 0:
        start += 1
    return hs[start:], hc[start:]


def envelope_below(slopes, intercepts) -> tuple[np.ndarray, np.ndarray]:
    """Knots (xs, ys), from x = 0 to the first zero, of a polyline on [0, 1] that lies under
    max(0, max_j (c_j + s_j x)): a certified lower bound on every convex function that is above
    each line (float64).

    ``slopes`` and ``intercepts`` are the lines as floats (lines with c_j <= 0, a non-finite or a
    non-negative slope are never above 0 on [0, 1] when the function decreases, and are dropped;
    y = 0 closes the envelope). The lines are those of :func:`upper_envelope_lines`; each vertex
    is placed at or left of the intersection x* of its two lines (x* rounded down by 8 ulps: three
    roundings), where the steeper line is above the flatter one, and its height is taken on the
    flatter line rounded down (no cancellation against the steep line's large |s x|), so that it
    lies below BOTH adjacent lines: every segment then lies under one line (its two ends do),
    whatever the rounding of the vertex abscissae. A vertex moved right to keep the abscissae
    non-decreasing takes the minimum of both lines. The polyline is cut where it reaches 0, at
    the root of its last line rounded down. Every height also leaves room for the cumulative
    sums by which a piecewise-linear function is rebuilt from its segments (K segments:
    4 (K + 4) u relative, u the unit roundoff; a knot abscissa moved by that much moves the
    height by at most as much relative to the intercept, since |s x| <= c where the line is
    above 0). No line above 0 gives the single knot (0, 0): the zero function.
    """
    s = np.asarray(slopes, dtype=float)
    c = np.asarray(intercepts, dtype=float)
    keep = (c > 0) & np.isfinite(s) & (s < 0)
    zero = (np.array([0.0]), np.array([0.0]))
    if not np.any(keep):
        return zero
    s, c = upper_envelope_lines(s[keep], c[keep])
    k = len(s)
    if k == 0:
        return zero
    with np.errstate(divide="ignore", invalid="ignore"):
        x_star = (c[:-1] - c[1:]) / (s[1:] - s[:-1])
    x_dn = rounding.down(np.nan_to_num(x_star, nan=0.0), rel_err=8 * _U) if len(x_star) else x_star
    x = np.clip(x_dn, 0.0, 1.0)
    x = np.maximum.accumulate(x) if len(x) else x
    moved = x > x_dn
    cum = 4 * (k + 4) * _U  # the cumulative sums of the piecewise-linear function rebuilt from these knots

    def line_down(j, xv):
        v = c[j] + s[j] * xv
        return v - (4 * _U * (c[j] + np.abs(s[j] * xv)) + cum * c[j])

    flatter = line_down(np.arange(1, k), x)
    y = np.where(moved, np.minimum(line_down(np.arange(k - 1), x), flatter), flatter)
    y = y * (1 - cum)
    y0 = (c[0] - 4 * _U * c[0] - cum * c[0]) * (1 - cum)
    xs = np.concatenate([[0.0], x])
    ys = np.concatenate([[y0], y])
    # cut at the first vertex not above 0: the root of the line that ends there
    bad = np.nonzero(ys <= 0)[0]
    last_line = (bad[0] - 1 if len(bad) else k - 1)
    if len(bad):
        xs, ys = xs[:bad[0]], ys[:bad[0]]
    j = max(last_line, 0)
    root = min(rounding.down(c[j] / -s[j], rel_err=8 * _U), 1.0)
    while root > 0 and c[j] + s[j] * root < 4 * _U * c[j]:
        root = rounding.down(root, ulps=1)
    root = max(root, float(xs[-1]))
    xs = np.concatenate([xs, [root]]) if root > xs[-1] else xs
    ys = np.concatenate([ys, [0.0]]) if len(ys) < len(xs) else np.concatenate([ys[:-1], [0.0]])
    return xs, np.maximum(ys, 0.0)
