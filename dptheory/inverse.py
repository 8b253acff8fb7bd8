"""The one epsilon(delta) inverter: a certified bracket of the inverse of a privacy profile.

A privacy profile delta(epsilon) is non-increasing; its inverse is
``epsilon(delta) = inf{epsilon >= 0 : delta(epsilon) <= delta}``. Every caller in the package
(closed-form GDP, blanket bounds, exact enumeration, the shuffle methods) hands this module an
enclosure of ``log delta(epsilon)`` and a :class:`SearchParameters` record, in the style of
dp_accounting's ``BinarySearchParameters``: the bracket, the tolerance and the evaluation budget
are data, not code.

The returned :class:`Bracket` ``[lower, upper]`` is certified: ``lower`` is 0 or a point whose
enclosure lies above the target, ``upper`` is a point whose enclosure lies at or below it (or
``SearchParameters.upper``, a point the caller knows from theory to be at or above the answer,
such as eps0 for an eps0-LDP randomizer). The search is a regula falsi on log delta (Illinois
variant), safeguarded by bisection; where an enclosure straddles the target it asks the profile
for a tighter enclosure and then certifies points on either side.

:func:`bisect_monotone` is the one plain bisection, for the searches the inverter does not
serve: the threshold of a monotone yes/no test that is decided exactly at each point (a
feasibility check on kappa or lambda in :mod:`dptheory.comparison.divergence`, a comparison
with a closed form in :mod:`dptheory.mixtures.advanced`), where there is no log delta to
interpolate, and the printed procedures reproduced step by step (a fixed number of bisection
steps: Algorithm 1 of Wang et al. 2024, the notebook of Girgis et al.), which a regula falsi
would not reproduce.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

from . import rounding, validate

#: ``(epsilon, tol) -> (log_lower, log_upper)``: an enclosure of log delta(epsilon); ``tol`` is
#: the relative accuracy of delta the search would like (profiles that cannot refine ignore it)
LogDeltaEnclosure = Callable[[float, float], "tuple[float, float]"]


@dataclasses.dataclass(frozen=True)
class SearchParameters:
    """Where and how precisely to search for epsilon(delta).

    Attributes
    ----------
    lower : float
        An epsilon known to be at most the answer (default 0).
    upper : float, optional
        An epsilon known from theory to be at least the answer; it is not evaluated. Without
        it the search grows the bracket geometrically from ``initial_guess``.
    initial_guess : float, optional
        Where to start (a cheap approximation of the answer saves evaluations).
    rtol, atol : float
        Stop when ``upper - lower <= rtol * upper + atol``.
    tol : float, optional
        The relative accuracy of delta asked of the profile at first; by default derived from
        ``rtol`` (d log delta / d log epsilon is about 2 |log delta|).
    max_evaluations : int
        Budget of profile evaluations; past it the bracket reached so far is returned (still
        certified, just wider than asked).
    max_epsilon : float
        Stop growing the bracket here: if the profile is still above delta, the bracket is
        ``[max_epsilon, inf]`` (a profile that stays above delta, as that of a mechanism with
        an unbounded likelihood ratio, has epsilon(delta) = inf).
    """

    lower: float = 0.0
    upper: float | None = None
    initial_guess: float | None = None
    rtol: float = 1e-9
    atol: float = 0.0
    tol: float | None = None
    max_evaluations: int = 400
    max_epsilon: float = 1e6

    def __post_init__(self) -> None:
        validate.real("lower", self.lower, low=0.0)
        if self.upper is not None:
            validate.real("upper", self.upper, low=self.lower)
        validate.real("rtol", self.rtol, low=0.0)
        validate.real("atol", self.atol, low=0.0)
        if self.rtol == 0 and self.atol == 0:
            raise validate.DomainError("rtol = 0 and atol = 0 is invalid: one tolerance must be positive")


@dataclasses.dataclass(frozen=True)
class Bracket:
    """A certified bracket of epsilon(delta)."""

    lower: float
    upper: float
    evaluations: int
    #: the profile stayed above delta up to ``SearchParameters.upper``: ``upper`` is that theory
    #: bound, not a point where the profile was seen to reach delta
    at_theory_limit: bool = False
    #: ``max_evaluations`` ran out before the tolerance was reached (the bracket is still certified)
    budget_exhausted: bool = False


class _Budget(Exception):
    """Raised inside the search when ``max_evaluations`` is reached."""


#: log-width of the first enclosure at each point of :func:`epsilon_bracket`
COARSE_TOL = 0.5


def epsilon_bracket(log_delta: LogDeltaEnclosure, delta: float, params: SearchParameters = SearchParameters(),
                    *, decide=None) -> Bracket:
    """Certified bracket of ``inf{epsilon >= 0 : delta(epsilon) <= delta}``.

    Parameters
    ----------
    log_delta : callable
        ``(epsilon, tol) -> (log_lower, log_upper)``, an enclosure of log delta(epsilon) of a
        non-increasing profile.
    delta : float
        The target, in (0, 1).
    params : SearchParameters
        Bracket, tolerances and budget.
    decide : callable, optional
        ``(epsilon, tol, band) -> (log_lower, log_upper)``, ``band = (below, above)`` the log
        target rounded down and up: an enclosure like ``log_delta``'s that may stop refining as
        soon as it is certain of the side, its lower end above ``above`` (the upper end then only
        needs to be valid, e.g. 0) or its upper end at most ``below``; for profiles that are a
        maximum of several computed terms (one term certified above decides; terms certified
        below need no refinement). When given it serves every point, and the point's estimate of
        log delta for the interpolation is the lower end (the upper end where that is -inf).
    """
    target = math.log(validate.delta("delta", delta))
    # the float log of delta is rounded: certify against the float on the safe side of the true log
    target_down, target_up = rounding.log_down(delta), rounding.log_up(delta)
    tol0 = params.tol if params.tol is not None else min(1e-2, max(0.25 * params.rtol * abs(target), 1e-12))
    count = 0

    def enclose(e: float, tol: float) -> tuple[float, float]:
        nonlocal count
        if count >= params.max_evaluations:
            raise _Budget
        count += 1
        lo, hi = log_delta(e, tol) if decide is None else decide(e, tol, (target_down, target_up))
        if math.isnan(lo) or math.isnan(hi):
            raise ArithmeticError(f"the profile's enclosure at epsilon = {e!r} is nan")
        return lo, hi

    def classify(e: float, tighten: bool = False, coarse: bool = False) -> tuple[int, float]:
        """+1: delta(e) > target; -1: delta(e) <= target; 0: undecided. And a mid log delta.
        With ``coarse`` (the points of the search for a bracket, which are often far from the
        target) a coarse enclosure (log width COARSE_TOL) is tried first, which costs a refining
        profile much less; the tolerance tol0 is asked for only where that does not decide."""
        tols = [tol0 * 1e-2 ** i for i in range(5 if tighten else 1)]
        if coarse and not tighten and tol0 < COARSE_TOL:
            tols.insert(0, COARSE_TOL)
        for tol in tols:
            lo, hi = enclose(e, max(tol, 1e-15))
            # the estimate of log delta for the interpolation: the middle of the enclosure, or
            # with ``decide`` its lower end (its upper end may be only a valid bound)
            if lo > target_up:
                return 1, (lo if decide is not None else 0.5 * (lo + hi))
            if hi <= target_down:
                return -1, (hi if not math.isfinite(lo) else lo if decide is not None else 0.5 * (lo + hi))
        return 0, 0.5 * (lo + hi) if math.isfinite(lo) else hi

    lower = float(params.lower)
    upper = math.inf if params.upper is None else float(params.upper)
    f_lower = f_upper = math.nan  # mid log delta minus target at the ends, where seen
    theory_upper = params.upper is not None
    seen_below = False
    seen_zero = False

    def done() -> bool:
        return math.isfinite(upper) and upper - lower <= params.rtol * upper + params.atol

    try:
        # 1. a first point, then grow or shrink until the answer is bracketed by evaluated points
        e = params.initial_guess if params.initial_guess and params.initial_guess > 0 else 1e-3
        e = max(e, lower)
        if math.isfinite(upper):
            e = min(e, upper)
            if e == upper and upper > lower:
                e = lower + 0.5 * (upper - lower) if lower > 0 else 0.5 * upper
        while not done():
            side, mid = classify(e, coarse=True)
            if side == 0:
                side, mid = classify(e, tighten=True)
            if side > 0:
                lower, f_lower = e, mid - target
            elif side < 0:
                upper, f_upper, seen_below = e, mid - target, True
            else:
                lower, upper = _straddle(classify, e, lower, upper, params)
                return Bracket(lower, upper, count, False)
            if side > 0 and not seen_below:
                if math.isinf(upper):
                    if e >= params.max_epsilon:
                        # certified: delta(max_epsilon) > delta; nothing is known above it
                        return Bracket(e, math.inf, count)
                    e = min(e * 4.0, params.max_epsilon)
                    continue
                break  # bracketed between an evaluated point and the theory limit
            if side < 0 and lower == params.lower and math.isnan(f_lower):
                if lower == 0 and not seen_zero:
                    # below the target at the first point: try epsilon = 0 once before shrinking
                    # towards it (each shrinking step is an evaluation; at large n the answer is
                    # often exactly 0)
                    seen_zero = True
                    s0, _ = classify(0.0, coarse=True)
                    if s0 < 0:
                        return Bracket(0.0, 0.0, count)
                if e <= 1e-12 * max(1.0, upper):
                    s0, _ = classify(0.0, tighten=True)
                    if s0 < 0:
                        return Bracket(0.0, 0.0, count)
                    break
                e = max(e / 4.0, lower) if lower > 0 else e / 4.0
                if e == lower:
                    break
                continue
            break

        # 2. regula falsi (Illinois) on the mid log delta, inside the certified bracket
        last = 0
        while not done():
            span = upper - lower
            trial = math.nan
            if math.isfinite(f_lower) and math.isfinite(f_upper) and f_lower > 0 > f_upper:
                trial = upper - f_upper * span / (f_upper - f_lower)
            if not (lower < trial < upper):
                trial = lower + 0.5 * span
            trial = min(max(trial, lower + 0.01 * span), upper - 0.01 * span)
            side, mid = classify(trial)
            if side == 0:
                side, mid = classify(trial, tighten=True)
            if side > 0:
                lower, f_lower = trial, mid - target
                if last == 1:
                    f_upper *= 0.5
                last = 1
            elif side < 0:
                upper, f_upper, seen_below = trial, mid - target, True
                if last == -1:
                    f_lower *= 0.5
                last = -1
            else:
                lower, upper = _straddle(classify, trial, lower, upper, params)
                break
    except _Budget:
        return Bracket(lower, upper, count, theory_upper and not seen_below, budget_exhausted=True)
    return Bracket(lower, upper, count, theory_upper and not seen_below)


def _straddle(classify, e: float, lower: float, upper: float, params: SearchParameters) -> tuple[float, float]:
    """The enclosure at ``e`` straddles the target even when tightened: certify points on both
    sides of ``e``, stepping outwards."""
    step = max(0.25 * params.rtol * e, 0.5 * params.atol, 1e-300)
    for _ in range(60):
        if lower < e - step and classify(e - step, tighten=True)[0] > 0:
            lower = e - step
        if e + step < upper and classify(e + step, tighten=True)[0] < 0:
            upper = e + step
        if math.isfinite(upper) and upper - lower <= params.rtol * upper + params.atol:
            break
        step *= 2.0
    return lower, upper


def bisect_monotone(holds: Callable[[float], bool], lo: float, hi: float, *, tol: float = 0.0,
                    max_steps: int = 2000) -> tuple[float, float]:
    """``(lo, hi)`` around the threshold of a monotone test: ``holds(x)`` is False below some x*
    and True from x* on, ``lo`` is a point known to fail (or at most x*) and ``hi`` one known to
    hold (or at least x*); neither end is evaluated.

    Halves ``[lo, hi]`` at its midpoint ``0.5 (lo + hi)`` until ``hi - lo <= tol``, the midpoint
    equals an end (no float left between them) or ``max_steps`` tests were made (a fixed number
    of steps, as in a printed procedure, is ``tol=0`` and ``max_steps``). The threshold stays in
    the returned bracket as long as each test is decided correctly: a caller whose test carries
    an error widens the ends itself (:mod:`dptheory.rounding`). For epsilon(delta) of a privacy
    profile use :func:`epsilon_bracket`, which interpolates log delta and refines enclosures.
    """
    for _ in range(max_steps):
        if not hi - lo > tol:
            break
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if holds(mid):
            hi = mid
        else:
            lo = mid
    return lo, hi


def delta_bracket(epsilon_of_delta: Callable[[float], float], epsilon: float, *, form_rtol: float,
                  log_floor: float = -700.0, log_tol: float = 1e-12, max_evaluations: int = 200,
                  log_input: bool = False) -> "tuple[float, float] | None":
    """Certified ``(log_lower, log_upper)`` of ``delta(epsilon) = inf{delta : eps(delta) <= epsilon}``
    for a closed form eps(delta), non-increasing in delta, computed to the relative error
    ``form_rtol`` (raising :class:`dptheory.validate.ConditionError` outside its conditions, read
    as "not reached"). Bisection on log delta in ``[log_floor, 0)``: a point where
    ``eps (1 + form_rtol) <= epsilon`` is certainly at or above the answer, one where
    ``eps (1 - form_rtol) > epsilon`` (or outside the conditions) certainly below; a point that
    is neither (the form within its own error of epsilon) ends the search, the bracket
    then spanning it. Returns None when the form does not reach epsilon below delta = 1, and
    ``(-inf, log_floor)`` when it does already at ``e^log_floor``. With ``log_input`` the form is
    given log delta instead of delta (so that it can be evaluated below the float range, where
    e^ld underflows; pass a ``log_floor`` below -745 with it).
    """
    def side(ld: float) -> int:
        """-1: certainly delta(epsilon) <= e^ld; +1: certainly above; 0: undecided."""
        try:
            eps = float(epsilon_of_delta(ld if log_input else math.exp(ld)))
        except validate.ConditionError:
            return 1
        if eps * (1 + form_rtol) <= epsilon:
            return -1
        if eps * (1 - form_rtol) > epsilon:
            return 1
        return 0

    hi = math.log1p(-1e-6)
    if side(hi) >= 0:
        # not certainly reached below delta = 1
        return None
    lo = float(log_floor)
    s_lo = side(lo)
    if s_lo < 0:
        return -math.inf, lo
    count = 2
    while hi - lo > log_tol * (1 + abs(hi)) and count < max_evaluations:
        mid = 0.5 * (lo + hi)
        s_mid = side(mid)
        count += 1
        if s_mid < 0:
            hi = mid
        elif s_mid > 0:
            lo, s_lo = mid, 1
        else:
            # the form is within its own error of epsilon here: step outwards to certified points
            # (hi is certified already; lo is once a point with side +1 is seen)
            for direction in (1.0, -1.0):
                step = log_tol * (1 + abs(mid))
                while count < max_evaluations:
                    x = mid + direction * step
                    if not lo < x < hi:
                        break
                    count += 1
                    sx = side(x)
                    if direction > 0 and sx < 0:
                        hi = x
                        break
                    if direction < 0 and sx > 0:
                        lo, s_lo = x, 1
                        break
                    step *= 2
            break
    return (lo if s_lo > 0 else -math.inf), hi
