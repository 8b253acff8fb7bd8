"""(epsilon, delta) of the shuffle model through its Renyi DP: each method's RDP curve, composed
T times, converted by Lemma 2.1 of Girgis et al. (implemented in :mod:`dptheory.rdp`) at the
best order, found by a search over orders (:func:`dptheory.rdp.epsilon_from_rdp_search`) or over
the orders given (:func:`dptheory.rdp.epsilon_from_rdp`).

Where the results live: the RDP curves of each method are in :mod:`dptheory.shuffle.rdp.methods`
(Girgis et al. 2021, Theorems 3.1 and 3.3 and Corollary 3.2 in :mod:`.girgis` and :mod:`.formulas`,
Theorem 3.4 in :mod:`.lower`; Chen, Cao, Ge 2024 in :mod:`.clone_pairs`), their composition
(Mironov 2017, Proposition 1) and the conversion to (epsilon, delta) (Girgis et al. 2021,
Lemma 2.1 = Balle et al. 2020, Theorem 21; Mironov 2017, Proposition 3) in :mod:`dptheory.rdp`.
This module only chooses the orders and labels the results."""

from __future__ import annotations

import numpy as np

from ... import rdp as rdp_module, validate
from ...results import Curve, Kind, NotApplicable, Result, Status
from .formulas import CHEN_GDP_REFINED

#: the largest order the search tries
SEARCH_HIGH = 1e4
_LOWER_NOTE = "the best epsilon an RDP-route bound could give (not a lower bound on epsilon)"


def search_guess(eps0_value, n_value, delta, compositions=1) -> float:
    """The best order of the refined Gaussian limit (Chen et al.'s mu, times tanh(eps0/2)): nearly
    the clone pair's RDP and free to compute, so the exact curves are searched around it first."""
    mu = float(CHEN_GDP_REFINED(eps0_value, n_value))
    found = rdp_module.epsilon_from_rdp_search(lambda o: (o, compositions * rdp_module.gdp_to_rdp(mu, o)), delta)
    return found.params["order"]


def curve_values(curve: Curve) -> np.ndarray:
    """The values a conversion uses: the lower end of a lower bound, else the upper end."""
    return curve.lower if curve.kind is Kind.LOWER else curve.upper


def epsilon_of(method, subject, delta, *, compositions=1, orders=None, rtol: float = validate.RENYI_RTOL,
               around: float | None = None) -> Result:
    """epsilon(delta) of one RDP method's curve (``method``: a
    :class:`~dptheory.shuffle.rdp.methods.RdpMethod`) for ``subject``, composed T times, at the
    best order (``params`` has it). Without ``orders`` the order is searched up to
    :data:`SEARCH_HIGH` (starting near ``around``, or near :func:`search_guess`). A lower bound on
    RDP converts to no bound on epsilon: its result is an approximation (status ``not a bound``).
    Raises :class:`~dptheory.results.NotApplicable` where the curve does not apply."""
    e0, nn = subject.randomizer.eps0, subject.n
    T = validate.integer("compositions", compositions, low=1)
    d = validate.delta("delta", delta)
    first: list = []

    def curve(o):
        try:
            c = method.rdp(subject, o, rtol=rtol, compositions=T)
        except NotApplicable:
            return np.array([]), np.array([])
        if not first:
            first.append(c)
        return c.grid, curve_values(c)

    if orders is not None:
        o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
        kept, values = curve(o)
        if not kept.size:
            method.rdp(subject, o, rtol=rtol)  # raises NotApplicable with the reason
            raise NotApplicable(f"{method.name}: no order of {list(o)} is one it accepts")
        found = rdp_module.epsilon_from_rdp(kept, values, d)
        top = float(kept.max())
    else:
        guess = around if around is not None else search_guess(e0, nn, d, T)
        try:
            found = rdp_module.epsilon_from_rdp_search(curve, d, integer=method.integer_orders, around=guess,
                                                       high=SEARCH_HIGH)
        except validate.DomainError as exc:
            method.rdp(subject, [2.0], rtol=rtol)  # raises NotApplicable with the reason, if any
            raise NotApplicable(f"{method.name}: {exc}") from None
        top = SEARCH_HIGH
    best = found.params["order"]
    base = first[0]
    kind, status, note = base.kind, base.status, base.note
    if kind is Kind.LOWER:
        kind, status, note = Kind.APPROXIMATION, Status.NOT_A_BOUND, _LOWER_NOTE
    if best >= top:
        note = (note + "; " if note else "") + (f"the optimum is at the largest order tried ({best:g}): "
                                                "higher --orders may give a smaller epsilon")
    return Result("epsilon", found.lower, found.upper, kind, status, method.name,
                  base.source + "; converted by Lemma 2.1 of Girgis et al.", note,
                  params={"eps0": e0, "n": nn, "compositions": T, "delta": d, "order": float(best)})
