"""Amplification by shuffling: central epsilon(delta) against n and against eps0 by every method,
upper bounds beside lower bounds (and exact values where n is small enough to enumerate), and
Wang et al. (2024), Figures 1-2.

The numbers are those of :func:`dptheory.shuffle.methods.compare` (through the sweep's rows, so
``workers`` > 1 computes the points in parallel): each method's conservative end, the upper end
of an upper bound and the lower end of a lower bound. The shaded band runs from the best proven
lower bound to the tightest proven upper bound: the true epsilon lies in it.
"""

from __future__ import annotations

import math

import numpy as np

from .. import executor, sweep
from ..plots import Panel, Series


def _value(row: dict) -> float:
    """The conservative end of a row of :func:`dptheory.sweep.shuffle_point` (nan where the
    method does not apply)."""
    if not row["applicable"]:
        return math.nan
    end = row["lower"] if row["kind"] == "lower" else row["upper"]
    return math.nan if end is None else float(end)


def _rows(eps0, n, delta, methods, randomizer, workers):
    spec = sweep.shuffle_sweep(eps0, n, delta=delta, methods=methods or None, randomizer=randomizer)
    return spec, executor.run_tasks(spec.point, spec.tasks, workers=workers)


def _panel(title: str, xlabel: str, xs, points: list[list[dict]], xscale: str) -> Panel:
    methods = list(dict.fromkeys(r["method"] for rows in points for r in rows))
    series, best_upper, best_lower = [], np.full(len(xs), np.inf), np.zeros(len(xs))
    for m in methods:
        ys, kind, status = [], "upper", "proven"
        for j, rows in enumerate(points):
            row = next((r for r in rows if r["method"] == m), None)
            v = math.nan if row is None else _value(row)
            ys.append(v)
            if row is not None and row["applicable"]:
                kind, status = row["kind"], row["status"]
                if status == "proven" and math.isfinite(v):
                    if kind in ("upper", "exact"):
                        best_upper[j] = min(best_upper[j], v)
                    if kind in ("lower", "exact"):
                        best_lower[j] = max(best_lower[j], v)
        if any(math.isfinite(v) for v in ys):
            series.append(Series(m, list(xs), ys, kind, status))
    lo = np.where(best_lower > 0, best_lower, np.nan)
    hi = np.where(np.isfinite(best_upper), best_upper, np.nan)
    return Panel(title, xlabel, "central epsilon", series, xscale=xscale, yscale="log",
                 band=(list(xs), lo, hi, "between the proven bounds"))


def versus_n(eps0=1.0, n="1e3..1e8", delta=1e-8, methods="", randomizer="general", workers=1) -> list[Panel]:
    """epsilon(delta) of n shuffled users against n, one line per method, for each eps0 given."""
    spec, points = _rows(eps0, n, delta, methods, randomizer, workers)
    panels = []
    for e0 in sweep.parse_values("eps0", eps0):
        idx = [i for i, t in enumerate(spec.tasks) if t["eps0"] == e0]
        xs = [spec.tasks[i]["n"] for i in idx]
        panels.append(_panel(f"{spec.tasks[idx[0]]['randomizer']}, eps0 = {e0:g}, delta = {float(delta):g}", "n", xs,
                             [points[i] for i in idx], "log"))
    return panels


def versus_eps0(eps0="0.25,0.5,1,1.5,2,3,4,5", n=1e5, delta=1e-8, methods="", randomizer="general",
                workers=1) -> list[Panel]:
    """epsilon(delta) against the local eps0, one line per method, for each n given."""
    spec, points = _rows(eps0, n, delta, methods, randomizer, workers)
    panels = []
    for nn in sweep.parse_values("n", n, integer=True):
        idx = [i for i, t in enumerate(spec.tasks) if t["n"] == nn]
        xs = [spec.tasks[i]["eps0"] for i in idx]
        panels.append(_panel(f"n = {nn:g}, delta = {float(delta):g}", "eps0", xs, [points[i] for i in idx], "linear"))
    return panels


def wang(mechanism: str, n="1e4,1e5", d="16,128", eps0="0.5,1,1.5,2,2.5,3,3.5,4,4.5,5", methods="") -> list[Panel]:
    """Wang et al. (2024), Figure 1 (``mechanism="subset"``: subset selection, optimal k) or
    Figure 2 (``"local-hash"``: optimal local hashing): the amplification ratio eps0/eps of each
    method against eps0, a panel per (n, d); delta = 0.01/n (see :mod:`dptheory.shuffle.figures`
    for the parameters the paper leaves unstated). The paper's variation-ratio curve uses beta
    below the worst case, a refuted reduction: its line is drawn as refuted."""
    from ..shuffle import figures as F

    grid = sweep.parse_values("eps0", eps0, low=0.0, low_open=True)
    slugs = tuple(m.strip() for m in methods.split(",") if m.strip()) or F.FIGURE_METHODS
    ds = sweep.parse_values("d", d, integer=True, low=2) if mechanism == "subset" else [16]
    panels = []
    for nn in sweep.parse_values("n", n, integer=True, low=2):
        for dd in ds:
            rows = F.amplification(mechanism, nn, dd, grid, methods=slugs)
            series = []
            for m in dict.fromkeys(r["method"] for r in rows):
                mine = [r for r in rows if r["method"] == m]
                series.append(Series(m, [r["eps0"] for r in mine], [math.log2(r["ratio"]) for r in mine],
                                     mine[0]["kind"], mine[0]["status"]))
            where = f"n = {nn:g}, d = {dd}" if mechanism == "subset" else f"n = {nn:g}"
            panels.append(Panel(f"{mechanism}, {where}, delta = 0.01/n", "eps0", "log2(eps0 / epsilon)", series))
    return panels


def wang_figure_1(**params) -> list[Panel]:
    """Wang et al. (2024), Figure 1: shuffled subset selection (see :func:`wang`)."""
    return wang("subset", **params)


def wang_figure_2(**params) -> list[Panel]:
    """Wang et al. (2024), Figure 2: shuffled optimal local hashing (see :func:`wang`)."""
    return wang("local-hash", **params)
