"""How far each proven upper bound is from the exact epsilon(delta) of shuffled randomized
response: the upper end of (upper bound / exact value) against n, one panel per eps0, one line
per method (:func:`dptheory.shuffle.tightness.row`; docs/tightness.md has the table)."""

from __future__ import annotations

import math

from .. import sweep, validate
from ..plots import Panel, Series


def ratios(eps0="1,4", n="1e2..1e3", delta=1e-6, randomizer="binary-rr", methods="") -> list[Panel]:
    """upper bound / exact epsilon(delta) against n for each eps0 (the dashed line at 1 is the
    exact value itself)."""
    from ..shuffle import tightness as T

    names = [m.strip() for m in methods.split(",") if m.strip()] or None
    ns = sweep.parse_values("n", n, integer=True, low=2)
    panels = []
    for e0 in sweep.parse_values("eps0", eps0, check=validate.eps0):
        rows = [T.row(randomizer, e0, nn, float(delta), methods=names) for nn in ns]
        shown = list(dict.fromkeys(m for r in rows for m in r.ratios))
        series = [Series(m, ns, [r.ratios.get(m, math.nan) for r in rows], "upper", "proven") for m in shown]
        if any(r.randomizer.endswith("*") for r in rows):
            # a row whose exact column is not the exact value: the ratios are over its lower
            # end, the worst concentrated dataset of GRR (docs/tightness.md)
            series.append(Series("worst concentrated dataset (lower bound)", ns, [1.0] * len(ns), "lower", "proven"))
        else:
            series.append(Series("exact", ns, [1.0] * len(ns), "exact", "proven"))
        panels.append(Panel(f"{randomizer}, eps0 = {e0:g}, delta = {float(delta):g}", "n",
                            "upper bound / exact epsilon", series, xscale="log", yscale="log"))
    return panels
