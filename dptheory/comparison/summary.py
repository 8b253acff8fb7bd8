"""Everything ``dptheory compare`` reports about two mechanisms, as one library object.

:func:`compare` parses two mechanism strings (or takes parsed mechanisms, trade-off functions,
or :class:`~dptheory.comparison.curves.CertifiedCurves`), computes Delta in both directions with
their certified intervals and kinds (:func:`~dptheory.comparison.divergence.delta_between`: one
place decides what each number is), the symmetrised Delta<-> (Definition 3), the Blackwell
verdict that those intervals support with its witnesses (Theorem 1;
:func:`~dptheory.comparison.blackwell.dominance`) and the crossings, and returns a
:class:`ComparisonReport`, whose :meth:`~ComparisonReport.as_dict` is the JSON of
``dptheory compare --json`` (keys ``delta_forward``, ``delta_backward``, ``delta_symmetric``,
``verdict``, ``witness``, ...) and whose :meth:`~ComparisonReport.panels` are its plot.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..results import Result
from .blackwell import Dominance, as_curves, dominance
from .curves import CertifiedCurves
from .divergence import DEFAULT_TOL, symmetric_from

SOURCE = "Kaissis et al. (2024), Definition 1, Corollary 1, Theorem 1"

#: what each kind of curve is, for a person
CURVE_WORDS = {"exact": "exact trade-off function",
               "bounds": "certified lower and upper bounds of its trade-off function",
               "lower": "a certified lower bound of its trade-off function only",
               "upper": "a certified upper bound of its trade-off function only"}


@dataclasses.dataclass(frozen=True)
class ComparisonReport:
    """The comparison of two mechanisms (see the module text). ``forward`` = Delta(first ||
    second), ``backward`` = Delta(second || first), ``symmetric`` = Delta<->; ``dominance`` holds
    the verdict, its sentence, the witnesses and the crossings."""

    first: str
    second: str
    first_curve: str
    second_curve: str
    forward: Result
    backward: Result
    symmetric: Result
    dominance: Dominance
    curves: tuple[CertifiedCurves, CertifiedCurves] = dataclasses.field(repr=False, compare=False, default=None)

    @property
    def verdict(self) -> str:
        return self.dominance.verdict

    @property
    def note(self) -> str:
        """What a reader must know about curves that are only bounds."""
        bounded = [c for c in self.curves if c.kind != "exact"]
        if not bounded:
            return ""
        return ("computed from certified bounds of the trade-off functions of " + ", ".join(c.name for c in bounded)
                + ": each interval contains the true Delta (the verdict follows from the intervals)")

    def as_dict(self) -> dict[str, Any]:
        d = self.dominance
        return {"first": self.first, "second": self.second, "first_curve": self.first_curve,
                "second_curve": self.second_curve, "delta_forward": self.forward.as_dict(),
                "delta_backward": self.backward.as_dict(), "delta_symmetric": self.symmetric.as_dict(),
                "verdict": d.verdict, "verdict_detail": d.detail, "witness": d.witness,
                "crossings": {"prior": d.crossings, "alpha": d.alpha_crossings},
                "note": self.note, "curve_notes": {"first": self.curves[0].note, "second": self.curves[1].note},
                "source": SOURCE}

    def panels(self, points: int = 401):
        """The plot: the two trade-off functions (exact, or the lower bound given by the
        supporting lines of the certified lower Bayes error, Kaissis et al. eq. (4)) and the two
        Bayes error functions (exact, or the certified band between their ends)."""
        from ..plots import Panel, Series

        pis = np.linspace(0.0, 1.0, points)
        alphas = np.linspace(0.0, 1.0, points)
        inner = pis[1:-1]
        trade, bayes = [], []
        for c in self.curves:
            enc = c.enclosure()
            lo, hi = enc.bounds(pis)
            if c.exact is not None:
                trade.append(Series(c.name, alphas, np.asarray(c.exact(alphas), dtype=float), "exact", "proven"))
                bayes.append(Series(c.name, pis, lo, "exact", "proven"))
                continue
            r_lo = enc.bounds(inner)[0]
            # f(alpha) >= (R(pi) - pi alpha)/(1 - pi) for every pi (eq. (4)): a lower bound
            lines = (r_lo[None, :] - inner[None, :] * alphas[:, None]) / (1.0 - inner[None, :])
            f_lo = np.clip(np.max(lines, axis=1), 0.0, 1.0)
            trade.append(Series(f"{c.name} (lower bound)", alphas, np.minimum(f_lo, 1.0 - alphas), "lower", "proven"))
            bayes.append(Series(f"{c.name} (lower end)", pis, lo, "lower", "proven"))
            bayes.append(Series(f"{c.name} (upper end)", pis, hi, "upper", "proven"))
        trade.append(Series("Id (no information)", alphas, 1.0 - alphas, "exact", "proven"))
        title = (f"Bayes error; Delta = {self.forward.upper:.3g} (first||second), "
                 f"{self.backward.upper:.3g} (second||first)")
        return [Panel("trade-off functions", "alpha", "beta = f(alpha)", trade),
                Panel(title, "prior pi", "R_min(pi)", bayes)]


def _curves(m, label: str) -> CertifiedCurves:
    if isinstance(m, str):
        from .grammar import parse_mechanism

        m = parse_mechanism(m)
    return as_curves(m, label)


def compare(first, second, *, tol: float = DEFAULT_TOL) -> ComparisonReport:
    """Compare two mechanisms (Kaissis et al. 2024): Delta both ways, Delta<->, the Blackwell
    verdict with its witness and the crossings, as a :class:`ComparisonReport`.

    ``first``, ``second``: mechanism strings (:func:`~dptheory.comparison.parse_mechanism`;
    malformed ones raise a DomainError listing the grammar), parsed mechanisms, trade-off
    functions or CertifiedCurves. ``tol``: the target width of the intervals where the curves
    are exact (curves known through bounds give intervals as wide as those bounds allow).
    """
    a, b = _curves(first, "first"), _curves(second, "second")
    dom = dominance(a, b, divergence_tol=tol)
    fw = dom.forward.replace(method="delta-forward")
    bw = dom.backward.replace(method="delta-backward")
    sym = symmetric_from(fw, bw)
    return ComparisonReport(a.name, b.name, a.kind, b.kind, fw, bw, sym, dom, (a, b))
