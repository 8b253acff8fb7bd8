"""What is certified about a mechanism's trade-off function, for comparing mechanisms.

A mechanism's trade-off function f is known either exactly (a closed form, or an exact
piecewise-linear curve) or through certified bounds: a curve below f (a pessimistic PLD, a
dominating pair, a lower envelope) and a curve above f (an optimistic PLD, a post-processing of
the mechanism's pair, chords of a convex function). :class:`CertifiedCurves` holds either, as
the Bayes error enclosure R_lo <= R <= R_hi that the Delta-divergence needs (Kaissis et al.
2024, Corollary 1: R is monotone in f, so a lower curve gives a lower end of R and an upper
curve an upper end). A missing side is the trivial one: R >= 0 (M_BNP) and R <= min(pi, 1 - pi)
(M_PP; Lemma 2).

Delta(f || g) is non-decreasing in f and non-increasing in g, so with certified lower and upper
ends of both the true value lies in [Delta(f_lo || g_hi), Delta(f_hi || g_lo)]: the maximisation
of R_f - R_g over the two enclosures (:func:`dptheory.comparison.divergence.delta_between`)
returns exactly that interval, and :func:`delta_kind` says, in one place, what it is.
"""

from __future__ import annotations

import dataclasses

from .. import tradeoff
from ..results import Kind
from . import bayes_error as be


@dataclasses.dataclass(frozen=True)
class CertifiedCurves:
    """What is certified about one mechanism's trade-off function f.

    Attributes
    ----------
    name : str
        The mechanism, for notes.
    exact : TradeOff or None
        f itself (then ``lower`` and ``upper`` are its enclosure).
    lower, upper : BayesEnclosure or None
        Enclosures whose lower end (of ``lower``) and upper end (of ``upper``) bound R_f; None:
        that side is only the trivial bound.
    family : tuple or None
        A closed-form family key (``("gaussian", mu)``, ``("laplace", eps)``, ``("rr", eps, k)``,
        ``("pp",)``, ``("bnp",)``): pairs within one family are decided exactly
        (:func:`dptheory.comparison.closed_forms.family_delta`, Lemma 2).
    note : str
        Where the bounds come from.
    identity : tuple or None
        Equal identities mean the same mechanism (Delta = 0 both ways, exactly).
    closed_forms : bool
        Whether a comparison may decide from closed forms (the family key, and the closed form
        recognised from an exact curve's type: Gaussian, Laplace); False: only computations on
        the curves themselves (:func:`numerical`).
    """

    name: str
    exact: tradeoff.TradeOff | None = None
    lower: be.BayesEnclosure | None = None
    upper: be.BayesEnclosure | None = None
    family: tuple | None = None
    note: str = ""
    identity: tuple | None = None
    closed_forms: bool = True

    @property
    def has_lower(self) -> bool:
        return self.exact is not None or self.lower is not None

    @property
    def has_upper(self) -> bool:
        return self.exact is not None or self.upper is not None

    @property
    def kind(self) -> str:
        """"exact", "bounds" (lower and upper), "lower" or "upper" (one side only)."""
        if self.exact is not None:
            return "exact"
        if self.lower is not None and self.upper is not None:
            return "bounds"
        return "lower" if self.lower is not None else "upper"

    def enclosure(self) -> be.BayesEnclosure:
        """The certified enclosure of R_f."""
        cache = self.__dict__.setdefault("_enclosure", [])
        if not cache:
            if self.exact is not None:
                cache.append(be.enclosure(self.exact))
            else:
                cache.append(be.combine(self.lower, self.upper))
        return cache[0]


def exact(name: str, f: tradeoff.TradeOff, family: tuple | None = None, note: str = "",
          identity: tuple | None = None) -> CertifiedCurves:
    return CertifiedCurves(name, exact=f, family=family, note=note, identity=identity)


def numerical(curves: CertifiedCurves) -> CertifiedCurves:
    """The same certified curves, compared by computations on the curves alone: no family key, no
    identity, no closed form (:func:`dptheory.comparison.divergence.delta_between` then maximises
    the difference of the Bayes error enclosures, and decides an exact 0 only for two
    piecewise-linear curves, in rational arithmetic). The numerical verdict of Theorem 1 that the
    closed-form conditions (:mod:`dptheory.comparison.conditions`) are checked against."""
    note = "; ".join(filter(None, (curves.note, "compared numerically, without closed forms")))
    return dataclasses.replace(curves, family=None, identity=None, closed_forms=False, note=note)


def delta_kind(first: CertifiedCurves, second: CertifiedCurves) -> tuple[Kind, str]:
    """The kind of the interval [Delta(f_lo || g_hi), Delta(f_hi || g_lo)] and why.

    Its lower end is informative when the first mechanism has a certified lower curve and the
    second an upper one; its upper end when the first has an upper curve and the second a lower
    one. Both: ``exact`` (the true Delta, within the interval); only one: ``lower`` or
    ``upper``; neither: ``upper`` (the upper end is then Delta(M_PP || g_lo) = delta_lo(0)/2,
    Lemma 3, still certified).
    """
    lower_ok = first.has_lower and second.has_upper
    upper_ok = first.has_upper and second.has_lower
    missing = [f"{side} bound of {c.name}" for c, side, ok in
               ((first, "a lower", first.has_lower), (first, "an upper", first.has_upper),
                (second, "a lower", second.has_lower), (second, "an upper", second.has_upper)) if not ok]
    if lower_ok and upper_ok:
        return Kind.EXACT, ""
    why = "no certified " + " or ".join(m.split(" ", 1)[1] for m in missing) + " (its trivial bound is used)"
    if upper_ok:
        return Kind.UPPER, "an upper bound of Delta: " + why
    if lower_ok:
        return Kind.LOWER, "a lower bound of Delta: " + why
    return Kind.UPPER, "an upper bound of Delta only (the lower end is 0; Lemma 3 bounds the upper end): " + why
