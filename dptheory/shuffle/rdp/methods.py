"""Every method for the Renyi DP curve of the shuffle model, by name, on the one protocol of
:mod:`dptheory.protocol` (notion ``"shuffle-rdp"``, subject
:class:`~dptheory.shuffle.subject.Shuffled`): each gives a certified
:class:`~dptheory.results.Curve` (axis ``order``, quantity ``rdp``) with its kind, status and
source, and epsilon at a delta through the one RDP -> (epsilon, delta) route at the best order
(:mod:`.conversion`), or an :class:`~dptheory.results.Inapplicable` record with the condition
that failed.

The upper bounds hold for every single-message eps0-LDP randomizer; the lower bounds and the
exact values are those of shuffled binary randomized response, the worst case of Girgis et al.'s
Theorem 3.4: a lower bound for the general eps0-LDP class (and the exact RDP of binary randomized
response itself), not for another given randomizer.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, ClassVar

import numpy as np

from ... import protocol, rdp as rdp_module, rounding, validate
from ...results import Curve, Inapplicable, Kind, NotApplicable, Result, Status
from ..randomizers import general_ldp
from ..subject import Shuffled, randomizer_of, single_message_ldp_why_not
from . import clone_pairs, conversion
from .formulas import (CHEN_GDP_REFINED, CHEN_RDP, COROLLARY_3_2, ERLINGSSON_RDP, GIRGIS, UPPER_1, UPPER_2)
from .girgis import corollary_3_2, erlingsson, upper_1, upper_1_mixture, upper_2
from .lower import lower_bound
from .orders import interpolate


_eps0_ldp = single_message_ldp_why_not


def _worst_case(subject: Shuffled) -> str | None:
    """Binary randomized response's RDP bounds the general class from below, and is binary
    randomized response's own: not a lower bound for another randomizer."""
    reason = _eps0_ldp(subject)
    if reason is None and subject.randomizer.name not in ("general", "binary-rr"):
        return ("a lower bound for the general $\\epsilon_0$-LDP class (shuffled binary randomized response "
                "attains it), not for a given randomizer")
    return reason


@dataclasses.dataclass(frozen=True)
class RdpMethod(protocol.Method):
    """An RDP curve of the shuffle model: its kind, status and source (the one place they are
    set), ``curve(eps0, n, orders, rtol) -> (lower, upper, orders kept, note)``, and where it
    applies (``why_not_fn(subject)``). It computes ``"rdp"`` at orders (a Curve) and
    ``"epsilon"`` at a delta (Lemma 2.1 of Girgis et al. at the best order, :mod:`.conversion`)."""

    notion: ClassVar[str] = "shuffle-rdp"
    name: str
    kind: Kind
    fixed_status: Status
    source: str
    curve: Callable
    integer_orders: bool = False
    why_not_fn: Callable[[Shuffled], str | None] = _eps0_ldp
    status_note: str = ""
    title: str = ""
    quantities: tuple[str, ...] = ("rdp", "epsilon")
    formula: str = ""

    def why_not(self, subject: Shuffled) -> str | None:
        return self.why_not_fn(subject)

    def status_why(self, subject=None) -> tuple[Status, str]:
        """The status is the bound's (the same for every eps0-LDP randomizer it applies to)."""
        return self.fixed_status, self.status_note

    def status(self, subject=None) -> Status:
        """The bound's status (``subject`` may be omitted: it is the same for every subject)."""
        return self.fixed_status

    def kind_for(self, quantity: str) -> Kind:
        """A lower bound on RDP converts to no bound on epsilon: the best epsilon an RDP route could
        give, an approximation."""
        if quantity == "epsilon" and self.kind is Kind.LOWER:
            return Kind.APPROXIMATION
        return self.kind

    def compute(self, subject: Shuffled, quantity: str, at, *, rtol: float = validate.RENYI_RTOL, compositions=1,
                around: float | None = None, orders=None, cap: bool = False) -> Result | Curve:
        """``"rdp"``: the curve at the orders ``at`` (composed ``compositions`` times);
        ``"epsilon"``: epsilon at the delta ``at`` from that curve at the best order (searched, or
        among ``orders``)."""
        self.check_quantity(quantity)
        reason = self.why_not(subject)
        if reason:
            raise NotApplicable(f"{self.name}: {reason}")
        if quantity == "rdp":
            return self.rdp(subject, at, rtol=rtol, compositions=compositions, cap=cap)
        return conversion.epsilon_of(self, subject, at, compositions=compositions, orders=orders, rtol=rtol,
                                     around=around)

    def rdp(self, subject: Shuffled, orders, *, rtol: float = validate.RENYI_RTOL, compositions=1, cap: bool = False) -> Curve:
        """The RDP curve at the orders the method accepts of ``orders`` (integer-only methods keep
        the integer ones), composed ``compositions`` times."""
        e0 = validate.eps0("eps0", subject.randomizer.eps0)
        nn = validate.n("n", subject.n)
        o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
        oo = o[o == np.floor(o)] if self.integer_orders else o
        if not oo.size:
            raise NotApplicable(f"{self.name}: this bound needs integer orders and none was given")
        try:
            lo, hi, kept, note = self.curve(e0, nn, oo, rtol)
        except validate.DomainError as exc:
            raise NotApplicable(f"{self.name}: {exc}") from None
        if cap and self.kind is Kind.UPPER:
            lo, hi, note = cap_at_pure_dp(e0, kept, lo, hi, note)
        status, why = self.status_why(subject)
        curve = Curve("rdp", "order", kept, lo, hi, self.kind, status, self.name, self.source, note,
                      params={"eps0": e0, "n": nn})
        return compose(curve, compositions)

    def evaluate(self, eps0_value, n_value, orders, *, rtol: float = validate.RENYI_RTOL) -> Curve:
        """The curve for eps0-LDP randomizers (the general class): :meth:`rdp`."""
        return self.rdp(Shuffled(general_ldp(eps0_value), n_value), orders, rtol=rtol)


#: why an upper RDP curve may be capped (:func:`cap_at_pure_dp`)
PURE_DP_CAP_SOURCE = ("the shuffled mechanism is eps0-DP (a post-processing of the victim's eps0-LDP report), "
                      "hence eps0-RDP at every order, and (lambda eps0^2/2)-RDP (Bun and Steinke 2016, Proposition 3.3)")


def pure_dp_rdp_cap(e0: float, orders) -> np.ndarray:
    """min(eps0, lambda eps0^2 / 2), rounded up: an upper bound on the RDP of order lambda of any
    eps0-DP mechanism (Bun and Steinke 2016, Proposition 3.3, for the second)."""
    o = np.asarray(orders, dtype=float)
    return np.minimum(e0, rounding.up_nonneg(o * (e0 * e0) / 2, rel_err=4 * rounding.EPS))


def cap_at_pure_dp(e0: float, orders, lower, upper, note: str = ""):
    """An upper bound's curve (lower, upper ends of its value) replaced by min(bound,
    :func:`pure_dp_rdp_cap`) where the cap is smaller, with a note naming the orders; unchanged
    elsewhere. The uncapped bound is the method's own function (figures of the papers use it)."""
    cap = pure_dp_rdp_cap(e0, orders)
    over = np.asarray(upper, dtype=float) > cap
    if not np.any(over):
        return lower, upper, note
    cap_low = rounding.down_nonneg(np.minimum(e0, np.asarray(orders, dtype=float) * (e0 * e0) / 2),
                                   rel_err=4 * rounding.EPS)
    shown = np.asarray(orders, dtype=float)[over]
    where = (f"order {shown[0]:g}" if shown.size == 1 else
             f"orders {shown.min():g} to {shown.max():g} ({shown.size} of {over.size})")
    text = f"capped at min(eps0, lambda eps0^2/2) at {where}: {PURE_DP_CAP_SOURCE}"
    return (np.where(over, np.minimum(lower, cap_low), lower), np.where(over, cap, upper),
            f"{note}; {text}" if note else text)


def _closed(fn, note=""):
    def curve(e0, nn, o, rtol):
        v = np.asarray(fn(e0, nn, o), dtype=float)
        return v, v, o, note
    return curve


def _interpolated(integer_fn, note=""):
    """Integer-order bound, extended to real orders by Remark 2 (convexity of (lam-1) D_lam)."""
    def curve(e0, nn, o, rtol):
        v = interpolate(lambda k: integer_fn(e0, nn, k), o)
        return v, v, o, note
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
    return c.lower, c.upper, o[ok], note


def _pair(stronger):
    def curve(e0, nn, o, rtol):
        c = clone_pairs.clone_pair_rdp(e0, nn, o, stronger=stronger, rtol=rtol)
        return c.lower, c.upper, o, c.note
    return curve


def _lower(both):
    def curve(e0, nn, o, rtol):
        c = lower_bound(e0, nn, o, both_directions=both, rtol=rtol)
        return c.lower, c.upper, o, c.note
    return curve


def _chen(refined):
    def curve(e0, nn, o, rtol):
        if refined:
            v = rdp_module.gdp_to_rdp(float(CHEN_GDP_REFINED(e0, nn)), o)
        else:
            v = CHEN_RDP.numpy()(e0, nn, o)
        v = np.atleast_1d(np.asarray(v, dtype=float))
        return v, v, o, "a central-limit approximation, not a bound"
    return curve


#: every RDP method of the shuffle model, in the order of the tables (:class:`dptheory.protocol.Registry`)
RDP_METHODS = protocol.Registry("shuffle-rdp", [
    RdpMethod("girgis-upper-1", Kind.UPPER, UPPER_1.status, UPPER_1.source + " (corrected; real orders by Remark 2)",
              _interpolated(lambda e, nn, k: upper_1(e, nn, k)), title="Theorem 3.1", formula=UPPER_1.name),
    RdpMethod("girgis-upper-1-mixture", Kind.UPPER, Status.PROVEN,
              "dptheory: Girgis et al. (2021), Theorems 3.6 and 3.7 summed over the clone count "
              "(derived here: docs/errata.md#derived-girgis-mixture)",
              _interpolated(lambda e, nn, k: upper_1_mixture(e, nn, k)), title="Theorems 3.6-3.7"),
    RdpMethod("girgis-upper-2", Kind.UPPER, UPPER_2.status, UPPER_2.source + " (corrected)", _closed(upper_2),
              title="Theorem 3.3", formula=UPPER_2.name),
    RdpMethod("girgis-corollary-3.2", Kind.UPPER, COROLLARY_3_2.status, COROLLARY_3_2.source, _cor_3_2,
              integer_orders=True, status_note=COROLLARY_3_2.status_note, title="Corollary 3.2", formula=COROLLARY_3_2.name),
    RdpMethod("erlingsson-rdp", Kind.UPPER, ERLINGSSON_RDP.status, ERLINGSSON_RDP.source, _closed(erlingsson),
              title="Erlingsson et al.", formula=ERLINGSSON_RDP.name),
    RdpMethod("chen-exact", Kind.UPPER, Status.PROVEN, clone_pairs.SOURCE, _pair(False), title="Clone pair"),
    RdpMethod("stronger-clones", Kind.UPPER, Status.UNPROVEN, clone_pairs.STRONGER_SOURCE, _pair(True),
              status_note="proven for randomizers with the stronger-clone decomposition (binary randomized response)",
              title="Stronger clones"),
    RdpMethod("girgis-lower", Kind.LOWER, Status.PROVEN, f"{GIRGIS}, Theorem 3.4 (exact sum, real orders)", _lower(False),
              why_not_fn=_worst_case, title="Theorem 3.4"),
    RdpMethod("exact", Kind.LOWER, Status.PROVEN, f"{GIRGIS}, Section 8: exact RDP of shuffled binary RR, both directions",
              _lower(True), why_not_fn=_worst_case, title="Binary RR"),
    RdpMethod("chen-gdp", Kind.APPROXIMATION, CHEN_RDP.status, CHEN_RDP.source, _chen(False),
              title="Corollary 2", formula=CHEN_RDP.name),
    RdpMethod("chen-gdp-refined", Kind.APPROXIMATION, CHEN_GDP_REFINED.status, CHEN_GDP_REFINED.source, _chen(True),
              title="Refined limit", formula=CHEN_GDP_REFINED.name),
], subject="Shuffled(randomizer, n)")


def method(name: str) -> RdpMethod:
    """The method named ``name`` (DomainError naming the valid ones otherwise)."""
    return RDP_METHODS.get_method(name)


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


#: the smallest relative width of the exact Renyi divergences the curves accept: at n above
#: :data:`RTOL_FINE_N_MAX` below about 2.5e-5 the bucketed conditional sums give way to windows of
#: counts (1e-4 took 27 s for every method at n = 1e6 on a loaded machine, 1e-6 over two minutes);
#: up to it, :data:`RTOL_MIN_SMALL_N`
RTOL_MIN = 1e-4
RTOL_MIN_SMALL_N, RTOL_FINE_N_MAX = 1e-8, 10**4


def _check_rtol(rtol, n_value=None) -> float:
    small = n_value is not None and validate.integer("n", n_value, low=1) <= RTOL_FINE_N_MAX
    return validate.real("rtol", rtol, low=RTOL_MIN_SMALL_N if small else RTOL_MIN, high=1.0)


def _subject(eps0_value, n_value) -> Shuffled:
    """n shuffled users of any eps0-LDP randomizer (the general class)."""
    e0 = validate.eps0("eps0", eps0_value)
    return Shuffled(general_ldp(e0), validate.n("n", n_value))


def rdp_curve(name: str, eps0_value, n_value, orders, *, rtol: float = validate.RENYI_RTOL, compositions=1,
              cap: bool = False) -> Curve | Inapplicable:
    """The RDP curve of one method for eps0-LDP randomizers (composed ``compositions`` times) at
    the orders it accepts of ``orders``, or an :class:`Inapplicable` record where it does not
    apply (:meth:`dptheory.protocol.Method.run`)."""
    m = method(name)
    validate.integer("compositions", compositions, low=1)
    validate.real_array("orders", orders, low=1.0, low_open=True)
    _check_rtol(rtol, n_value)
    return m.run(_subject(eps0_value, n_value), "rdp", orders, rtol=rtol, compositions=compositions, cap=cap)


def rdp_curves(eps0_value, n_value, orders, methods=None, *, rtol: float = validate.RENYI_RTOL,
               compositions=1, cap: bool = False) -> list[Curve | Inapplicable]:
    """:func:`rdp_curve` of every method named in ``methods`` (default: all of them)."""
    validate.integer("compositions", compositions, low=1)
    _check_rtol(rtol, n_value)
    names = RDP_METHODS.names(methods)
    return [rdp_curve(name, eps0_value, n_value, orders, rtol=rtol, compositions=compositions, cap=cap)
            for name in names]


def epsilons(eps0_value, n_value, delta, methods=None, *, compositions=1, orders=None,
             rtol: float = validate.RENYI_RTOL) -> list[Result | Inapplicable]:
    """epsilon(delta) of every method named in ``methods`` (default: all) by the one RDP route
    (:func:`dptheory.shuffle.rdp.conversion.epsilon_of`), the order search started once, near the
    refined Gaussian limit's best order."""
    names = RDP_METHODS.names(methods)
    subject = _subject(eps0_value, n_value)
    _check_rtol(rtol, n_value)
    T = validate.integer("compositions", compositions, low=1)
    d = validate.delta("delta", delta)
    # the refined Gaussian limit that places the search needs n >= 2 (with one user no method searches)
    guess = conversion.search_guess(subject.randomizer.eps0, subject.n, d, T) if orders is None and subject.n >= 2 else None
    return [RDP_METHODS[name].run(subject, "epsilon", d, compositions=T, orders=orders, rtol=rtol, around=guess)
            for name in names]


def epsilon(name: str, eps0_value, n_value, delta, *, compositions=1, orders=None, rtol: float = validate.RENYI_RTOL,
            around: float | None = None) -> Result | Inapplicable:
    """epsilon(delta) of one method for eps0-LDP randomizers by the one RDP route, at the best
    order (:func:`dptheory.shuffle.rdp.conversion.epsilon_of`), or an :class:`Inapplicable`
    record with the reason."""
    m = method(name)
    T = validate.integer("compositions", compositions, low=1)
    d = validate.delta("delta", delta)
    _check_rtol(rtol, n_value)
    return m.run(_subject(eps0_value, n_value), "epsilon", d, compositions=T, orders=orders, rtol=rtol, around=around)
