"""Renyi DP curves: composition and conversion to (epsilon, delta)-DP.

An RDP curve is a set of orders lambda > 1 with values rho(lambda) >= D_lambda of every
neighbouring pair. Composition adds curves order by order (Mironov 2017, Prop. 1). Conversion to
(epsilon, delta) minimises over the available orders; both conversions are sound for every order,
so the minimum over any set of orders is an upper bound:

* ``balle``: epsilon = rho + log((lambda-1)/lambda) - (log delta + log lambda)/(lambda-1)
  (Balle et al. 2020 / Asoodeh et al. 2021; Girgis et al. 2021, Lemma 2.1), the default;
* ``mironov``: epsilon = rho + log(1/delta)/(lambda-1) (Mironov 2017, Prop. 3).

Results are rounded up by a few ulps, so that a returned epsilon is never below the exact
minimum of the conversion.
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np

from . import validate
from .formula import Formula, Parts, register
from .precision import round_up
from .results import Kind, Status


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from .symbols import delta, eps, lam, mu, rho

    return {
        "rdp-to-dp": Parts(
            rho + sp.log((lam - 1) / lam) - (sp.log(delta) + sp.log(lam)) / (lam - 1),
            (rho, lam, delta),
            (lam > 1, delta < 1),
        ),
        "rdp-to-dp-mironov": Parts(
            rho + sp.log(1 / delta) / (lam - 1),
            (rho, lam, delta),
            (lam > 1, delta < 1),
        ),
        "rdp-to-delta": Parts(
            sp.exp((lam - 1) * (rho - eps)) / (lam - 1) * (1 - 1 / lam) ** lam,
            (rho, lam, eps),
            (lam > 1,),
        ),
        "rdp-to-delta-mironov": Parts(
            sp.exp((lam - 1) * (rho - eps)),
            (rho, lam, eps),
            (lam > 1,),
        ),
        "gdp-to-rdp": Parts(
            lam * mu**2 / 2,
            (mu, lam),
            (lam > 1,),
        ),
    }


TO_DP = {
    "balle": register(Formula(
        name="rdp-to-dp",
        build=_closed_forms,
        kind=Kind.UPPER,
        status=Status.PROVEN,
        source="Balle et al. (2020), Thm 21; Girgis et al. (2021), Lemma 2.1",
        lhs=r"\epsilon",
        description="(epsilon, delta)-DP from (lambda, rho)-RDP",
    )),
    "mironov": register(Formula(
        name="rdp-to-dp-mironov",
        build=_closed_forms,
        kind=Kind.UPPER,
        status=Status.PROVEN,
        source="Mironov (2017), Proposition 3",
        lhs=r"\epsilon",
    )),
}

TO_DELTA = {
    "balle": register(Formula(
        name="rdp-to-delta",
        build=_closed_forms,
        kind=Kind.UPPER,
        status=Status.PROVEN,
        source="Balle et al. (2020), Thm 21; Girgis et al. (2021), Lemma 2.1",
        lhs=r"\delta",
    )),
    "mironov": register(Formula(
        name="rdp-to-delta-mironov",
        build=_closed_forms,
        kind=Kind.UPPER,
        status=Status.PROVEN,
        source="Mironov (2017), Proposition 3",
        lhs=r"\delta",
    )),
}

GDP_RDP = register(Formula(
    name="gdp-to-rdp",
    build=_closed_forms,
    kind=Kind.UPPER,
    status=Status.PROVEN,
    source="Dong, Roth, Su (2022) with Mironov (2017), Prop. 7: a mu-GDP mechanism is (lambda, lambda mu^2/2)-RDP",
    lhs=r"\rho(\lambda)",
))


def default_orders() -> np.ndarray:
    """Orders 1.25 ... 2 in quarter steps, the integers 3 ... 64, then geometric up to 10^4."""
    fine = np.arange(1.25, 2.0, 0.25)
    ints = np.arange(2, 65, dtype=float)
    geo = np.unique(np.round(np.geomspace(72, 1e4, 30)))
    return np.concatenate([fine, ints, geo])


def _orders_and_values(orders, values):
    o = validate.real_array("orders", orders, low=1.0, low_open=True)
    v = validate.real_array("rdp", values, low=0.0, allow_inf=True)
    o, v = np.atleast_1d(o), np.atleast_1d(v)
    if o.shape != v.shape:
        raise validate.DomainError(f"orders and rdp must have the same length, got {o.size} and {v.size}")
    return o, v


def _check_method(method: str) -> str:
    if method not in TO_DP:
        raise validate.DomainError(f"method = {method!r} is invalid: must be one of {sorted(TO_DP)}")
    return method


def to_dp(orders, rdp, delta, method: str = "balle", digits=None):
    """Smallest epsilon over the orders such that the mechanism is (epsilon, delta)-DP.

    Parameters
    ----------
    orders, rdp : array_like
        Orders lambda > 1 and RDP values rho(lambda) at them (``inf`` allowed).
    delta : float
        Target delta in (0, 1).
    method : {"balle", "mironov"}
    digits : int, optional
        Evaluate the conversion with mpmath (returns mpf).

    Returns
    -------
    float or mpf
        An upper bound on epsilon (never negative: a negative value from the formula means
        (0, delta)-DP).
    """
    eps_val, _ = to_dp_with_order(orders, rdp, delta, method=method, digits=digits)
    return eps_val


def to_dp_with_order(orders, rdp, delta, method: str = "balle", digits=None):
    """Like :func:`to_dp`, and also the order at which the minimum is attained."""
    o, v = _orders_and_values(orders, rdp)
    d = validate.delta("delta", delta)
    formula = TO_DP[_check_method(method)]
    digits = validate.digits(digits)
    if digits is None:
        with np.errstate(invalid="ignore"):
            vals = formula.numpy(check=False)(v, o, d)
        vals = np.where(np.isinf(v), np.inf, vals)
        i = int(np.argmin(vals))
        return max(0.0, float(round_up(vals[i]))), float(o[i])
    fn = formula.mpmath(digits, check=False)
    vals = [mpmath.inf if math.isinf(rv) else fn(rv, ov, d) for ov, rv in zip(o, v)]
    i = min(range(len(vals)), key=lambda j: vals[j])
    return max(mpmath.mpf(0), vals[i]), float(o[i])


def order_grid(top: int, *, consecutive: bool = False) -> np.ndarray:
    """Integer orders up to ``top``: every one (``consecutive``, as subsampling bounds need), or
    2..64 and a geometric grid of 256 above."""
    top = validate.integer("top", top, low=2)
    if consecutive:
        return np.arange(2, top + 1, dtype=float)
    return np.unique(np.concatenate([np.arange(2, min(top, 64) + 1), np.round(np.geomspace(2, top, 256))]))


def to_dp_adaptive(curve, delta, *, consecutive: bool = False, start: int = 256, cap: int = 2**20,
                   method: str = "balle") -> tuple[float, float]:
    """(epsilon, order): :func:`to_dp_with_order` over :func:`order_grid` (top), with the top
    raised eightfold while the optimum sits on it, up to ``cap``. ``curve(orders)`` returns the
    RDP values. The result is an upper bound whatever the grid (a minimum over valid orders); the
    extension only keeps a capped grid from hiding a better order, as a cap of 256 does for small
    eps0 and large n."""
    top = validate.integer("start", start, low=2)
    cap = validate.integer("cap", cap, low=top)
    while True:
        o = order_grid(top, consecutive=consecutive)
        eps_val, order = to_dp_with_order(o, curve(o), delta, method=method)
        if order < top or top >= cap:
            return eps_val, order
        top = min(cap, 8 * top)


def to_dp_search(curve, delta, *, high: float = 1e4, integer: bool = False, method: str = "balle",
                 points: int = 16, start_high: float = 256.0, rounds: int = 2,
                 around: float | None = None) -> tuple[float, float]:
    """(epsilon, order): the conversion minimised over orders in (1, ``high``]: a geometric grid of
    ``points`` orders up to ``start_high`` (or, given a guess ``around``, of ``points // 2`` orders
    within a factor 4 of it), extended eightfold while the best order is the largest (or the
    smallest) tried, then finer grids between the best order's neighbours. ``curve(orders)``
    returns (orders kept, RDP values) and may drop orders where its bound does not apply.

    Every evaluated order gives a valid epsilon, so the result is an upper bound whatever the
    curve's shape; the search only decides how good it is, with a few dozen evaluations instead
    of a dense grid (large orders of an exact divergence cost seconds each)."""
    high = validate.real("high", high, low=2.0)
    d = validate.delta("delta", delta)
    seen: set[float] = set()
    best = (math.inf, None)

    def visit(grid):
        nonlocal best
        if integer:
            grid = np.round(grid)
        grid = np.array(sorted(set(grid.tolist()) - seen))
        if grid.size == 0:
            return False
        kept, values = curve(grid)
        kept = np.atleast_1d(kept)
        if kept.size:
            found = to_dp_with_order(kept, values, d, method=method)
            if found[0] < best[0]:
                best = found
        seen.update(float(o) for o in grid)
        return True

    floor = 2.0 if integer else 1.25
    if around is None:
        bottom, top = floor, min(start_high, high)
        visit(np.geomspace(bottom, top, points))
    else:
        guess = min(max(validate.real("around", around, low=1.0, low_open=True), floor), high)
        bottom, top = max(floor, guess / 4), min(high, guess * 4)
        visit(np.geomspace(bottom, top, points // 2))
        if best[1] is None:  # the curve does not apply near the guess: look everywhere
            bottom, top = floor, high
            visit(np.geomspace(bottom, top, points))
    while best[1] is not None and best[1] >= max(seen) and top < high:
        top, old = min(8 * top, high), top
        visit(np.geomspace(old, top, points // 2 + 1)[1:])
    while best[1] is not None and best[1] <= min(seen) and bottom > floor:
        bottom, old = max(bottom / 8, floor), bottom
        visit(np.geomspace(bottom, old, points // 2 + 1)[:-1])
    for _ in range(rounds):
        if best[1] is None:
            break
        orders_seen = np.array(sorted(seen))
        i = int(np.searchsorted(orders_seen, best[1]))
        left = orders_seen[max(i - 1, 0)]
        right = orders_seen[min(i + 1, len(orders_seen) - 1)]
        if not visit(np.geomspace(left, right, points // 4 + 2)[1:-1]):
            break
    if best[1] is None:
        raise validate.DomainError("the curve gave no value at any order")
    return best


def to_delta(orders, rdp, epsilon, method: str = "balle", digits=None):
    """Smallest delta over the orders for which the mechanism is (epsilon, delta)-DP (capped at 1)."""
    o, v = _orders_and_values(orders, rdp)
    e = validate.real("epsilon", epsilon)
    formula = TO_DELTA[_check_method(method)]
    digits = validate.digits(digits)
    if digits is None:
        # log delta, to keep huge orders from overflowing
        if method == "balle":
            logs = (o - 1) * (v - e) - np.log(o - 1) + o * np.log1p(-1 / o)
        else:
            logs = (o - 1) * (v - e)
        logs = np.where(np.isinf(v), np.inf, logs)
        best = float(np.min(logs))
        return min(1.0, float(round_up(math.exp(best)))) if best < 709 else 1.0
    fn = formula.mpmath(digits, check=False)
    vals = [mpmath.mpf(1) if math.isinf(rv) else fn(rv, ov, e) for ov, rv in zip(o, v)]
    return min(mpmath.mpf(1), min(vals))


def compose(*curves):
    """Adaptive composition: the sum of RDP values order by order (Mironov 2017, Prop. 1)."""
    if not curves:
        raise validate.DomainError("compose needs at least one RDP curve")
    arrays = [validate.real_array(f"curve[{i}]", c, low=0.0, allow_inf=True) for i, c in enumerate(curves)]
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise validate.DomainError(f"curve[{i}] has shape {a.shape}, expected {shape}: curves must share orders")
    return np.sum(arrays, axis=0)


def compose_identical(rdp, times):
    """T-fold composition of one mechanism: T rho(lambda)."""
    t = validate.integer("times", times, low=1)
    return t * validate.real_array("rdp", rdp, low=0.0, allow_inf=True)


def gdp_to_rdp(mu_value, orders):
    """RDP curve lambda mu^2 / 2 implied by mu-GDP."""
    m = validate.nonnegative("mu", mu_value)
    o = validate.real_array("orders", orders, low=1.0, low_open=True)
    return GDP_RDP.numpy(check=False)(m, o)


@dataclasses.dataclass(frozen=True)
class RDPCurve:
    """An RDP curve with what it is and where it comes from."""

    orders: np.ndarray
    values: np.ndarray
    kind: Kind
    method: str
    source: str

    def __post_init__(self):
        o, v = _orders_and_values(self.orders, self.values)
        object.__setattr__(self, "orders", o)
        object.__setattr__(self, "values", v)

    def compose(self, other: "RDPCurve") -> "RDPCurve":
        """Adaptive composition with another mechanism: upper (or exact) curves give an upper
        bound; anything involving a lower bound or an approximation is an approximation."""
        if not np.array_equal(self.orders, other.orders):
            raise validate.DomainError("curves must share their orders to be composed")
        sound = {Kind.UPPER, Kind.EXACT}
        kind = Kind.UPPER if self.kind in sound and other.kind in sound else Kind.APPROXIMATION
        return RDPCurve(self.orders, self.values + other.values, kind,
                        f"{self.method}+{other.method}", f"{self.source}; {other.source}")

    def times(self, t) -> "RDPCurve":
        """T-fold composition of this mechanism with itself; the kind is kept, because the worst
        pair of one round is the worst pair of every round."""
        return RDPCurve(self.orders, compose_identical(self.values, t), self.kind, self.method, self.source)

    def to_dp(self, delta, method="balle"):
        return to_dp(self.orders, self.values, delta, method=method)
