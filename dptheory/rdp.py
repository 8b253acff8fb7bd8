"""Renyi DP curves: composition and the one route from RDP to (epsilon, delta)-DP.

Girgis et al. (2021), Lemma 2.1, the RDP -> (epsilon, delta) conversion that every shuffle RDP
route uses, is implemented here (:func:`epsilon_from_rdp`, :func:`delta_from_rdp`; the catalogue
formulas ``rdp-to-dp`` and ``rdp-to-delta``, :data:`TO_DP` and :data:`TO_DELTA`); it is
Balle et al. (2020), Theorem 21 and Canonne, Kamath, Steinke (2020), Proposition 12.

An RDP curve is a set of orders lambda > 1 with values rho(lambda) >= D_lambda of every
neighbouring pair. Composition adds curves order by order (Mironov 2017, Proposition 1). Conversion to
(epsilon, delta) goes through one route, :func:`epsilon_from_rdp` (and its inverse direction
:func:`delta_from_rdp`): the minimum over the available orders and over the proven conversions,

* ``balle``: epsilon = rho + log((lambda-1)/lambda) - (log delta + log lambda)/(lambda-1)
  (Balle et al. 2020, Theorem 21; Canonne, Kamath, Steinke 2020, Proposition 12; Girgis et al. 2021,
  Lemma 2.1);
* ``mironov``: epsilon = rho + log(1/delta)/(lambda-1) (Mironov 2017, Proposition 3).

Both are sound at every order, so the minimum over any set of orders is an upper bound. The
float64 evaluation uses forms that do not cancel (log1p(-1/lambda) for large orders, log(lambda-1)
- log(lambda) near 1), carries an error bound, and rounds outwards
(:mod:`dptheory.rounding`): the returned upper end is never below the exact formula. Two
searches choose the orders and then take the same route: :func:`epsilon_from_rdp_grid` (a
grid grown while its top is the best order) and :func:`epsilon_from_rdp_search` (a few dozen
orders for curves that are costly to evaluate).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from . import validate
from .formula import Formula, Parts, definer
from . import rounding
from .rounding import EPS
from .results import Curve, Kind, Result, Status


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


#: the sources of the two proven conversions
_SOURCES = {"balle": "Balle et al. (2020), Theorem 21; Girgis et al. (2021), Lemma 2.1",
            "mironov": "Mironov (2017), Proposition 3"}


#: the proven upper bounds of this module, from :func:`_closed_forms`
_upper = definer(_closed_forms, kind=Kind.UPPER, status=Status.PROVEN)


def _conversion(name: str, conversion: str, lhs: str, description: str = "") -> Formula:
    """A proven RDP -> DP conversion formula (an upper bound), registered."""
    return _upper(name, source=_SOURCES[conversion], lhs=lhs, description=description)


TO_DP = {
    "balle": _conversion("rdp-to-dp", "balle", r"\epsilon", "$(\\epsilon, \\delta)$-DP from $(\\lambda, \\rho)$-RDP"),
    "mironov": _conversion("rdp-to-dp-mironov", "mironov", r"\epsilon"),
}

TO_DELTA = {
    "balle": _conversion("rdp-to-delta", "balle", r"\delta"),
    "mironov": _conversion("rdp-to-delta-mironov", "mironov", r"\delta"),
}

GDP_RDP = _upper(
    "gdp-to-rdp",
    source="Dong, Roth, Su (2022) with Mironov (2017), Proposition 7: a $\\mu$-GDP mechanism is $(\\lambda, \\lambda\\mu^2/2)$-RDP",
    lhs=r"\rho(\lambda)",
)


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


#: the proven conversions; "best" takes, at every order, the smaller of the two
CONVERSIONS = ("balle", "mironov")


def _check_method(method: str) -> tuple[str, ...]:
    if method == "best":
        return CONVERSIONS
    if method not in TO_DP:
        raise validate.DomainError(f"method = {method!r} is invalid: must be 'best' or one of {sorted(TO_DP)}")
    return (method,)


def _log_one_minus_inv(o: np.ndarray):
    """log(1 - 1/lambda) and its absolute error bound: log(lambda-1) - log(lambda) below 2
    (lambda - 1 is exact there, Sterbenz), log1p(-1/lambda) above (condition number <= 1.45)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        near = o < 2.0
        lm1 = np.log(np.where(near, o - 1.0, 1.0))
        lo = np.log(o)
        val = np.where(near, lm1 - lo, np.log1p(-1.0 / np.where(near, 2.0, o)))
        err = np.where(near, EPS * (np.abs(lm1) + np.abs(lo) + np.abs(val)), 4 * EPS * np.abs(val))
    return val, err


def _epsilon_float(o: np.ndarray, v: np.ndarray, d: float, conversion: str):
    """(value - error, value + error) of the conversion's epsilon at each order, float64 (the
    caller rounds the ends it keeps outwards by :mod:`dptheory.rounding`, which also covers the
    rounding of these two sums).

    Every operation is correctly rounded or a libm call within one ulp, so each contributes at
    most EPS times its result; the bound below sums those contributions (each term's magnitude
    once per operation it passes through) and doubles the sum.
    """
    lm1 = o - 1.0  # exact below 2^53
    log_d = math.log(d)
    if conversion == "mironov":
        t3 = -log_d / lm1
        val = v + t3
        err = EPS * (3 * np.abs(t3) + np.abs(val))
    else:
        l1, e1 = _log_one_minus_inv(o)
        log_o = np.log(o)
        num = log_d + log_o
        t3 = num / lm1
        s1 = v + l1
        val = s1 - t3
        err = e1 + EPS * ((abs(log_d) + np.abs(log_o) + np.abs(num)) / lm1 + 3 * np.abs(t3) + np.abs(s1) + np.abs(val))
    err = 2 * err
    inf = np.isinf(v)
    with np.errstate(invalid="ignore"):
        lo = np.where(inf, np.inf, val - err)
        hi = np.where(inf, np.inf, val + err)
    return np.atleast_1d(lo), np.atleast_1d(hi)


def _log_delta_float(o: np.ndarray, v: np.ndarray, e: float, conversion: str):
    """(value - error, value + error) of the conversion's log delta at each order (see
    :func:`_epsilon_float`)."""
    lm1 = o - 1.0
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        gap = v - e
        egap = EPS * np.abs(gap)
        if conversion == "mironov":
            val = lm1 * gap
            err = lm1 * egap + EPS * np.abs(val)
        else:
            near = o < 2.0
            log_lm1 = np.log(lm1)
            log_o = np.log(o)
            # below 2: (lambda-1)(rho - eps + log(lambda-1)) - lambda log lambda
            inner = gap + log_lm1
            prod = lm1 * inner
            lam_log = o * log_o
            val_near = prod - lam_log
            err_near = (lm1 * (egap + EPS * (np.abs(log_lm1) + np.abs(inner))) + EPS * np.abs(prod)
                        + 2 * EPS * np.abs(lam_log) + EPS * np.abs(val_near))
            # above: (lambda-1)(rho - eps) - log(lambda-1) + lambda log1p(-1/lambda)
            l1, e1 = _log_one_minus_inv(o)
            prod2 = lm1 * gap
            tail = o * l1
            s2 = prod2 - log_lm1
            val_far = s2 + tail
            err_far = (lm1 * egap + EPS * np.abs(prod2) + EPS * np.abs(log_lm1) + o * e1
                       + EPS * np.abs(tail) + EPS * (np.abs(s2) + np.abs(val_far)))
            val = np.where(near, val_near, val_far)
            err = np.where(near, err_near, err_far)
        err = 2 * err
        bad = ~np.isfinite(val)
        lo = np.where(bad, val, val - err)
        hi = np.where(bad, val, val + err)
        lo = np.where(np.isnan(lo), np.inf, lo)  # inf * 0 (rho = inf at lambda -> 1): no bound
        hi = np.where(np.isnan(hi), np.inf, hi)
    return np.atleast_1d(lo), np.atleast_1d(hi)


def _mp_values(formulas, o, v, x, digits: int):
    """The conversion formula(s) at each order with mpmath: (value, conversion, order) triples."""
    out = []
    with mpmath.workdps(digits + 10):
        for name in formulas:
            fn = formulas[name].mpmath(digits + 10, check=False)
            for ov, rv in zip(o, v):
                out.append((mpmath.inf if math.isinf(rv) else fn(rv, ov, x), name, float(ov)))
    return out


def _mp_widen(value, digits: int):
    """Float ends around an mpmath value computed at ``digits + 10`` digits from float inputs:
    wrong by far less than 10^-digits relative to the terms (which are at most 1e6 times the
    value's scale in the formulas here)."""
    with mpmath.workdps(digits + 10):
        err = (abs(value) + 1) * mpmath.mpf(10) ** (6 - digits)
        return rounding.mp_down(value - err), rounding.mp_up(value + err)


def _curve_input(orders, rdp):
    """Orders and values from arrays or from a Curve (its upper ends), and the kind/status of
    the bound the conversion yields."""
    if isinstance(orders, Curve):
        curve = orders
        if curve.axis != "order":
            raise validate.DomainError(f"curve axis = {curve.axis!r} is invalid: an RDP curve is over 'order'")
        if curve.kind in (Kind.UPPER, Kind.EXACT):
            return curve.grid, curve.upper, Kind.UPPER, curve.status, ""
        return curve.grid, curve.value, Kind.APPROXIMATION, Status.NOT_A_BOUND, (
            f"converted from an RDP curve of kind {curve.kind}: not a bound on epsilon")
    o, v = _orders_and_values(orders, rdp)
    return o, v, Kind.UPPER, Status.PROVEN, ""


def _conversion_input(orders, rdp, target, quantity: str, method: str, digits):
    """The validated arguments of a conversion: (orders, values, kind, status, note) of the curve
    (:func:`_curve_input`; a Curve may be given alone, the target then in ``rdp``'s place), the
    target (``delta`` in (0, 1), or any real ``epsilon``), the conversions and the digits."""
    if target is None and rdp is not None and isinstance(orders, Curve):
        rdp, target = None, rdp
    o, v, kind, status, note = _curve_input(orders, rdp)
    value = validate.delta("delta", target) if quantity == "delta" else validate.real("epsilon", target)
    return o, v, kind, status, note, value, _check_method(method), validate.digits(digits)


def epsilon_from_rdp(orders, rdp=None, delta=None, *, method: str = "best", digits=None) -> Result:
    """The one RDP -> (epsilon, delta) route: the smallest epsilon over the orders (and over the
    proven conversions) such that an RDP mechanism is (epsilon, delta)-DP.

    Conversions, both valid at every order lambda > 1:

    * ``balle``: epsilon = rho + log(1 - 1/lambda) - (log delta + log lambda)/(lambda - 1)
      (Balle et al. 2020, Theorem 21; Canonne, Kamath, Steinke 2020, Proposition 12; Girgis et al. 2021,
      Lemma 2.1);
    * ``mironov``: epsilon = rho + log(1/delta)/(lambda - 1) (Mironov 2017, Proposition 3).

    ``method="best"`` (default) takes the smaller at every order (mathematically ``balle``,
    which is below ``mironov`` by log(lambda)/(lambda-1) - log(1 - 1/lambda) > 0).

    Parameters
    ----------
    orders, rdp : array_like
        Orders lambda > 1 and RDP values rho(lambda) >= 0 (``inf`` allowed); or a
        :class:`~dptheory.results.Curve` over orders as ``orders`` (its upper ends are used; a
        lower or approximate curve gives an approximation).
    delta : float
        Target delta in (0, 1).
    method : {"best", "balle", "mironov"}
    digits : int, optional
        Evaluate the formulas with mpmath at this many digits (the ends are then a few ulps
        apart).

    Returns
    -------
    Result
        ``[lower, upper]`` encloses the exact minimum of the conversion formula(s) (clamped at
        0: a negative value means (0, delta)-DP); kind ``upper``; ``params`` holds the order
        and the conversion attaining it.
    """
    o, v, kind, status, note, d, names, digits = _conversion_input(orders, rdp, delta, "delta", method, digits)
    if digits is None:
        best = None
        for name in names:
            lo, hi = _epsilon_float(o, v, d, name)
            i = int(np.argmin(hi))
            if best is None or hi[i] < best[1]:
                best = (float(np.min(lo)) if best is None else min(best[0], float(np.min(lo))), float(hi[i]), name, float(o[i]))
            else:
                best = (min(best[0], float(np.min(lo))),) + best[1:]
        lower, upper, name, order = best
        lower = rounding.down(lower) if math.isfinite(lower) else lower
        upper = rounding.up(upper) if math.isfinite(upper) else upper
    else:
        vals = _mp_values({n: TO_DP[n] for n in names}, o, v, d, digits)
        value, name, order = min(vals, key=lambda t: t[0])
        lower, upper = _mp_widen(value, digits)
    lower, upper = max(0.0, lower), max(0.0, upper)
    sources = "; ".join(TO_DP[n].source for n in names)
    return Result("epsilon", lower, upper, kind, status, f"rdp-to-dp:{name}", sources, note,
                  params={"delta": d, "order": order, "conversion": name})


def delta_from_rdp(orders, rdp=None, epsilon=None, *, method: str = "best", digits=None) -> Result:
    """The smallest delta over the orders (and the proven conversions) for which an RDP
    mechanism is (epsilon, delta)-DP, capped at 1: the inverse direction of
    :func:`epsilon_from_rdp` at each order (Balle et al. 2020, Theorem 21 / Canonne, Kamath,
    Steinke 2020, Proposition 12: delta = e^{(lambda-1)(rho-epsilon)} (1-1/lambda)^lambda/(lambda-1);
    Mironov 2017, Proposition 3: delta = e^{(lambda-1)(rho-epsilon)}). Any real epsilon.

    Returns a Result of quantity ``delta`` with log ends (kind ``upper``), the order and the
    conversion in ``params``.
    """
    o, v, kind, status, note, e, names, digits = _conversion_input(orders, rdp, epsilon, "epsilon", method, digits)
    if digits is None:
        lows, best = [], None
        for name in names:
            lo, hi = _log_delta_float(o, v, e, name)
            lows.append(float(np.min(lo)))
            i = int(np.argmin(hi))
            if best is None or hi[i] < best[0]:
                best = (float(hi[i]), name, float(o[i]))
        log_hi, name, order = best
        log_lo = min(lows)
        log_hi = rounding.up(log_hi) if math.isfinite(log_hi) else log_hi
        log_lo = rounding.down(log_lo) if math.isfinite(log_lo) else log_lo
    else:
        with mpmath.workdps(digits + 10):
            vals = [(mpmath.log(val) if val > 0 else -mpmath.inf, n, od)
                    for val, n, od in _mp_values({n: TO_DELTA[n] for n in names}, o, v, e, digits)]
        value, name, order = min(vals, key=lambda t: t[0])
        log_lo, log_hi = _mp_widen(value, digits) if mpmath.isfinite(value) else (float(value), float(value))
    log_lo, log_hi = min(log_lo, 0.0), min(log_hi, 0.0)
    sources = "; ".join(TO_DELTA[n].source for n in names)
    res = Result.from_log("delta", log_lo, log_hi, kind=kind, status=status, method=f"rdp-to-delta:{name}",
                          source=sources, note=note, params={"epsilon": e, "order": order, "conversion": name})
    return res.replace(upper=min(res.upper, 1.0))  # every delta is at most 1


def order_grid(top: int, *, consecutive: bool = False) -> np.ndarray:
    """Integer orders up to ``top``: every one (``consecutive``, as subsampling bounds need), or
    2..64 and a geometric grid of 256 above."""
    top = validate.integer("top", top, low=2)
    if consecutive:
        return np.arange(2, top + 1, dtype=float)
    return np.unique(np.concatenate([np.arange(2, min(top, 64) + 1), np.round(np.geomspace(2, top, 256))]))


def epsilon_from_rdp_grid(curve, delta, *, consecutive: bool = False, start: int = 256, cap: int = 2**20,
                          method: str = "best") -> Result:
    """:func:`epsilon_from_rdp` over an integer order grid that grows while the best order sits on
    its top: :func:`order_grid` up to ``start``, the top raised eightfold while the optimum is the
    largest order, up to ``cap``.

    A different job from :func:`epsilon_from_rdp` (which takes the orders as given): it chooses the
    orders, for a curve that can be evaluated anywhere but whose best order is not known in advance
    (a cap of 256 hides a better order for small eps0 and large n). ``curve(orders)`` returns the
    RDP values at the orders. The result is an upper bound whatever the grid (a minimum over valid
    orders): it is the :class:`~dptheory.results.Result` of :func:`epsilon_from_rdp` at the last
    grid, with the grid's top in ``params["top"]``.
    """
    top = validate.integer("start", start, low=2)
    cap = validate.integer("cap", cap, low=top)
    while True:
        o = order_grid(top, consecutive=consecutive)
        res = epsilon_from_rdp(o, curve(o), delta, method=method)
        if res.params["order"] < top or top >= cap:
            return res.replace(params={**res.params, "top": top})
        top = min(cap, 8 * top)


def epsilon_from_rdp_search(curve, delta, *, high: float = 1e4, integer: bool = False, method: str = "best",
                            points: int = 16, start_high: float = 256.0, rounds: int = 2,
                            around: float | None = None) -> Result:
    """:func:`epsilon_from_rdp` minimised over orders in (1, ``high``] chosen by a search: a
    geometric grid of ``points`` orders up to ``start_high`` (or, given a guess ``around``, of
    ``points // 2`` orders within a factor 4 of it), extended eightfold while the best order is
    the largest (or the smallest) tried, then finer grids between the best order's neighbours.
    ``curve(orders)`` returns (orders kept, RDP values) and may drop orders where its bound does
    not apply.

    A different job from :func:`epsilon_from_rdp` (which takes the orders as given): for curves
    whose large orders cost seconds each (an exact divergence), a few dozen evaluations instead
    of a dense grid. Every evaluated order gives a valid epsilon, so the result is an upper bound
    whatever the curve's shape; the search only decides how good it is. Returns the
    :class:`~dptheory.results.Result` of :func:`epsilon_from_rdp` at the best order found (the
    order in ``params["order"]``, the number of orders evaluated in ``params["evaluated"]``)."""
    high = validate.real("high", high, low=2.0)
    d = validate.delta("delta", delta)
    seen: set[float] = set()
    best = None

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
            found = epsilon_from_rdp(kept, values, d, method=method)
            if best is None or found.upper < best.upper:
                best = found.replace(lower=min(found.lower, best.lower)) if best is not None else found
            elif found.lower < best.lower:  # the enclosure is of the minimum over every order tried
                best = best.replace(lower=found.lower)
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
        if best is None:  # the curve does not apply near the guess: look everywhere
            bottom, top = floor, high
            visit(np.geomspace(bottom, top, points))
    while best is not None and best.params['order'] >= max(seen) and top < high:
        top, old = min(8 * top, high), top
        visit(np.geomspace(old, top, points // 2 + 1)[1:])
    while best is not None and best.params['order'] <= min(seen) and bottom > floor:
        bottom, old = max(bottom / 8, floor), bottom
        visit(np.geomspace(bottom, old, points // 2 + 1)[:-1])
    for _ in range(rounds):
        if best is None:
            break
        orders_seen = np.array(sorted(seen))
        i = int(np.searchsorted(orders_seen, best.params['order']))
        left = orders_seen[max(i - 1, 0)]
        right = orders_seen[min(i + 1, len(orders_seen) - 1)]
        if not visit(np.geomspace(left, right, points // 4 + 2)[1:-1]):
            break
    if best is None:
        raise validate.DomainError("the curve gave no value at any order")
    return best.replace(params={**best.params, "evaluated": len(seen)})


def _status_of(curves) -> Status:
    order = [Status.REFUTED, Status.NOT_A_BOUND, Status.UNPROVEN, Status.PROVEN]
    return min((c.status for c in curves), key=order.index)


def compose(*curves):
    """Adaptive composition: the sum of RDP values order by order (Mironov 2017, Proposition 1),
    rounded up.

    Arrays give an array; :class:`~dptheory.results.Curve` objects over the same orders give a
    Curve whose ends are the sums of the ends (rounded outwards), of kind ``upper`` when every
    curve is an upper bound or exact, ``approximation`` otherwise.
    """
    if not curves:
        raise validate.DomainError("compose needs at least one RDP curve")
    if all(isinstance(c, Curve) for c in curves):
        grid = curves[0].grid
        for i, c in enumerate(curves):
            if c.axis != "order" or not np.array_equal(c.grid, grid):
                raise validate.DomainError(f"curve[{i}] is not over the orders of curve[0]: curves must share orders")
        m = len(curves)
        low = np.sum([c.lower for c in curves], axis=0)
        high = np.sum([c.upper for c in curves], axis=0)
        sound = all(c.kind in (Kind.UPPER, Kind.EXACT) for c in curves)
        return Curve("rdp", "order", grid, rounding.down_nonneg(low, rel_err=(m - 1) * EPS),
                     _up_inf(high, (m - 1) * EPS), Kind.UPPER if sound else Kind.APPROXIMATION,
                     _status_of(curves), "+".join(c.method for c in curves), "; ".join(c.source for c in curves),
                     "composed (Mironov 2017, Proposition 1)" + ("" if sound else ": a curve that is not an upper bound"))
    arrays = [validate.real_array(f"curve[{i}]", c, low=0.0, allow_inf=True) for i, c in enumerate(curves)]
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise validate.DomainError(f"curve[{i}] has shape {a.shape}, expected {shape}: curves must share orders")
    return _up_inf(np.sum(arrays, axis=0), (len(arrays) - 1) * EPS)


def _up_inf(x, rel_err):
    """rounding.up that keeps inf (an order without a bound)."""
    arr = np.asarray(x, dtype=float)
    out = np.where(np.isinf(arr), arr, rounding.up(np.where(np.isinf(arr), 0.0, arr), rel_err=rel_err))
    return out if out.ndim else float(out)


def compose_identical(rdp, times):
    """T-fold composition of one mechanism: T rho(lambda), rounded up (a Curve keeps its kind:
    the worst pair of one round is the worst pair of every round)."""
    t = validate.integer("times", times, low=1)
    if isinstance(rdp, Curve):
        return rdp.replace(lower=rounding.down_nonneg(t * rdp.lower), upper=_up_inf(t * rdp.upper, 0.0),
                           note=(rdp.note + "; " if rdp.note else "") + f"composed {t} times",
                           params={**rdp.params, "compositions": t})
    return _up_inf(t * validate.real_array("rdp", rdp, low=0.0, allow_inf=True), 0.0)


def gdp_to_rdp(mu_value, orders):
    """RDP curve lambda mu^2 / 2 implied by mu-GDP (an upper bound: rounded up)."""
    m = validate.nonnegative("mu", mu_value)
    o = validate.real_array("orders", orders, low=1.0, low_open=True)
    return rounding.up(GDP_RDP.numpy(check=False)(m, o), rel_err=2 * EPS)


def parse_orders(text: str) -> np.ndarray:
    """Renyi orders from text, the grammar of every command's ``--orders``: '2..64' (integers),
    '2..64:0.5' (a step), or a comma-separated list; pieces may be mixed. Sorted, duplicates
    dropped, each > 1."""

    def linear(a: float, b: float, step: str) -> list[float]:
        st = float(step) if step else 1.0
        if not st > 0 or b < a:
            raise ValueError
        if (b - a) / st + 1 > validate.ORDERS_MAX_COUNT:
            raise validate.DomainError(f"orders = {text!r} is invalid: at most {validate.ORDERS_MAX_COUNT} orders")
        return np.arange(a, b + st / 2, st).tolist()

    out = validate.value_list("orders", text, linear, "a list like 2,4,8 or a range like 2..64 (orders > 1)")
    return validate.real_array("orders", np.unique(out), low=1.0, low_open=True, high=validate.ORDER_MAX)
