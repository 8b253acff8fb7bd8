"""Every method for the Renyi DP curve of the shuffle model, by name: each gives a certified
:class:`~dptheory.results.Curve` (axis ``order``, quantity ``rdp``) with its kind, status and
source, or an :class:`~dptheory.results.Inapplicable` record with the condition that failed."""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

from ... import rdp as rdp_module, rounding, validate
from ...results import Curve, Inapplicable, Kind, Status
from . import clone_pairs
from .formulas import (CHEN_GDP_REFINED, CHEN_RDP, COROLLARY_3_2, ERLINGSSON_RDP, GIRGIS, UPPER_1, UPPER_2)
from .girgis import corollary_3_2, erlingsson, upper_1, upper_1_mixture, upper_2
from .lower import lower_bound
from .orders import interpolate


@dataclasses.dataclass(frozen=True)
class RdpMethod:
    """An RDP curve of the shuffle model: its kind, status and source (the one place they are
    set), and ``curve(eps0, n, orders, rtol) -> (lower, upper, orders kept, note, status)``;
    ``status`` there is None except where a check at these parameters changes it."""

    slug: str
    kind: Kind
    status: Status
    source: str
    curve: Callable
    integer_orders: bool = False

    def evaluate(self, eps0_value, n_value, orders, *, rtol: float = 1e-3) -> Curve:
        lo, hi, kept, note, status = self.curve(eps0_value, n_value, orders, rtol)
        return Curve("rdp", "order", kept, lo, hi, self.kind, status or self.status, self.slug, self.source, note,
                     params={"eps0": eps0_value, "n": n_value})


def _closed(fn, note=""):
    def curve(e0, nn, o, rtol):
        v = np.asarray(fn(e0, nn, o), dtype=float)
        return v, v, o, note, None
    return curve


def _interpolated(integer_fn, note=""):
    """Integer-order bound, extended to real orders by Remark 2 (convexity of (lam-1) D_lam)."""
    def curve(e0, nn, o, rtol):
        v = interpolate(lambda k: integer_fn(e0, nn, k), o)
        return v, v, o, note, None
    return curve


def _cor_3_2_holds(e0: float, nn: int, o: np.ndarray) -> np.ndarray:
    """Where Corollary 3.2's condition lambda^4 e^(5 eps0) < n/9 holds, at integer orders >= 2: in
    logs in float64 where the margin is far above its rounding error (1e-9 relative against a
    few ulps), by the formula's own exact check (sympy, 30 digits) at the orders near the edge."""
    margin = math.log(nn / 9.0) - 4.0 * np.log(o) - 5.0 * e0
    scale = 1e-9 * (abs(math.log(nn / 9.0)) + 4.0 * np.log(o) + 5.0 * e0 + 1.0)
    ok = margin > scale
    for k in np.nonzero(np.abs(margin) <= scale)[0]:
        ok[k] = COROLLARY_3_2.holds(e0, nn, int(o[k]))
    return ok


def _cor_3_2(e0, nn, o, rtol):
    """Corollary 3.2 at the orders where its condition holds (all of them failing raises)."""
    ok = _cor_3_2_holds(e0, nn, o)
    if not ok.any():
        COROLLARY_3_2.check(e0, nn, int(o[0]))
    c = corollary_3_2(e0, nn, o[ok])
    note = c.note
    if not ok.all():
        top = int((nn / 9 * math.exp(-5 * e0)) ** 0.25) + 1
        while top > 2 and not COROLLARY_3_2.holds(e0, nn, top):
            top -= 1
        note += f"; the condition lambda^4 e^(5 eps0) < n/9 holds for orders up to {top} only"
    return c.lower, c.upper, o[ok], note, c.status


def _pair(stronger):
    def curve(e0, nn, o, rtol):
        c = clone_pairs.clone_pair_rdp(e0, nn, o, stronger=stronger, rtol=rtol)
        return c.lower, c.upper, o, c.note, None
    return curve


def _lower(both):
    def curve(e0, nn, o, rtol):
        c = lower_bound(e0, nn, o, both_directions=both, rtol=rtol)
        return c.lower, c.upper, o, c.note, None
    return curve


def _chen(refined):
    def curve(e0, nn, o, rtol):
        if refined:
            v = rdp_module.gdp_to_rdp(float(CHEN_GDP_REFINED(e0, nn)), o)
        else:
            v = CHEN_RDP.numpy()(e0, nn, o)
        v = np.atleast_1d(np.asarray(v, dtype=float))
        return v, v, o, "a central-limit approximation, not a bound", None
    return curve


RDP_METHODS: dict[str, RdpMethod] = {m.slug: m for m in [
    RdpMethod("girgis-upper-1", Kind.UPPER, UPPER_1.status, UPPER_1.source + " (corrected; real orders by Remark 2)",
              _interpolated(lambda e, nn, k: upper_1(e, nn, k))),
    RdpMethod("girgis-upper-1-mixture", Kind.UPPER, Status.PROVEN,
              "dptheory: Girgis et al. (2021), Theorems 3.6 and 3.7 summed over the clone count "
              "(derived here: docs/errata.md#derived-girgis-mixture)",
              _interpolated(lambda e, nn, k: upper_1_mixture(e, nn, k))),
    RdpMethod("girgis-upper-2", Kind.UPPER, UPPER_2.status, UPPER_2.source + " (corrected)", _closed(upper_2)),
    RdpMethod("girgis-corollary-3.2", Kind.UPPER, COROLLARY_3_2.status, COROLLARY_3_2.source, _cor_3_2,
              integer_orders=True),
    RdpMethod("erlingsson-rdp", Kind.UPPER, ERLINGSSON_RDP.status, ERLINGSSON_RDP.source, _closed(erlingsson)),
    RdpMethod("chen-exact", Kind.UPPER, Status.PROVEN, clone_pairs.SOURCE, _pair(False)),
    RdpMethod("stronger-clones", Kind.UPPER, Status.UNPROVEN, clone_pairs.STRONGER_SOURCE, _pair(True)),
    RdpMethod("girgis-lower", Kind.LOWER, Status.PROVEN, f"{GIRGIS}, Theorem 3.4 (exact sum, real orders)", _lower(False)),
    RdpMethod("exact", Kind.LOWER, Status.PROVEN, f"{GIRGIS}, Section 8: exact RDP of shuffled binary RR, both directions",
              _lower(True)),
    RdpMethod("chen-gdp", Kind.APPROXIMATION, CHEN_RDP.status, CHEN_RDP.source, _chen(False)),
    RdpMethod("chen-gdp-refined", Kind.APPROXIMATION, CHEN_GDP_REFINED.status, CHEN_GDP_REFINED.source, _chen(True)),
]}


def method(slug: str) -> RdpMethod:
    """The method named ``slug`` (DomainError naming the valid ones otherwise)."""
    if slug not in RDP_METHODS:
        raise validate.DomainError(f"method = {slug!r} is invalid: must be one of {sorted(RDP_METHODS)}")
    return RDP_METHODS[slug]


def compose(curve: Curve, compositions) -> Curve:
    """T-fold adaptive composition of the mechanism a curve describes (Mironov 2017, Proposition 1):
    T times each end, rounded outwards. The kind is kept: the worst pair of one round is the worst
    pair of every round, so T times a lower bound on one round's RDP is a lower bound on T rounds'."""
    T = validate.integer("compositions", compositions, low=1)
    if T == 1:
        return curve
    return curve.replace(lower=rounding.down_nonneg(T * curve.lower), upper=rounding.up_nonneg(T * curve.upper),
                         source=f"{curve.source}, composed {T} times (Mironov 2017, Proposition 1)",
                         params={**curve.params, "compositions": T})


def rdp_curve(slug: str, eps0_value, n_value, orders, *, rtol: float = 1e-3, compositions=1) -> Curve | Inapplicable:
    """The RDP curve of one method (composed ``compositions`` times) at the orders it accepts of
    ``orders`` (integer-only methods keep the integer ones), or an :class:`Inapplicable` record
    where it does not apply."""
    m = method(slug)
    e0 = validate.real("eps0", eps0_value, low=0.0, low_open=True)
    nn = validate.integer("n", n_value, low=2)
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    oo = o[o == np.floor(o)] if m.integer_orders else o
    try:
        if not oo.size:
            raise validate.DomainError("this bound needs integer orders and none was given")
        return compose(m.evaluate(e0, nn, oo, rtol=rtol), compositions)
    except validate.DomainError as exc:
        return Inapplicable(slug, m.kind, m.status, m.source, str(exc), params={"eps0": e0, "n": nn})


def rdp_curves(eps0_value, n_value, orders, methods=None, *, rtol: float = 1e-3,
               compositions=1) -> list[Curve | Inapplicable]:
    """:func:`rdp_curve` of every method named in ``methods`` (default: all of them)."""
    validate.integer("compositions", compositions, low=1)
    slugs = list(methods or RDP_METHODS)
    for slug in slugs:
        method(slug)
    return [rdp_curve(slug, eps0_value, n_value, orders, rtol=rtol, compositions=compositions) for slug in slugs]
