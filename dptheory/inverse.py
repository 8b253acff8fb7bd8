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

:func:`golden_minimum` is the one scalar minimiser (of a bound's free parameter).
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
    shape : str
        What the search may assume of the profile's shape to choose its points (never for the
        certification: every point is certified by its enclosure either way). ``"any"`` (the
        default): log delta is interpolated linearly in epsilon. ``"gaussian"``: -log delta grows
        about like epsilon^2 (a privacy loss that is close to Gaussian, as for shuffling and
        subsampling), so sqrt(-log delta) is interpolated and extrapolated linearly, from one
        side too (no bisection towards a theory limit far above the answer), and once the
        estimate is good the points are placed just either side of it, so that two certified
        points end the search (no enclosure straddling the target to refine).
    """

    lower: float = 0.0
    upper: float | None = None
    initial_guess: float | None = None
    rtol: float = 1e-9
    atol: float = 0.0
    tol: float | None = None
    max_evaluations: int = 400
    max_epsilon: float = 1e6
    shape: str = "any"

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise validate.DomainError(f"shape = {self.shape!r} is invalid: must be one of {', '.join(SHAPES)}")
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


#: the profile shapes :class:`SearchParameters` knows
SHAPES = ("any", "gaussian")


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
        lo = hi = math.nan
        for tol in tols:
            # (the "gaussian" search does not ask again for an enclosure already as narrow as asked)
            if params.shape != "gaussian" or not -math.expm1(lo - hi) <= tol:
                lo, hi = enclose(e, max(tol, 1e-15))
            # the estimate of log delta for the interpolation: the middle of the enclosure, or
            # with ``decide`` its lower end (its upper end may be only a valid bound)
            # (with ``decide`` the upper end may be only a valid bound: 0 where the decision
            # stopped the refinement; the "gaussian" search takes the middle of an enclosure
            # whose upper end is below 0, a real one)
            truncated = decide is not None and (params.shape != "gaussian" or hi >= 0)
            if lo > target_up:
                return 1, (lo if truncated else 0.5 * (lo + hi))
            if hi <= target_down:
                return -1, (hi if not math.isfinite(lo) else lo if truncated else 0.5 * (lo + hi))
        return 0, 0.5 * (lo + hi) if math.isfinite(lo) else hi

    lower = float(params.lower)
    upper = math.inf if params.upper is None else float(params.upper)
    f_lower = f_upper = math.nan  # mid log delta minus target at the ends, where seen
    theory_upper = params.upper is not None
    seen_below = False
    seen_zero = False

    def done() -> bool:
        return math.isfinite(upper) and upper - lower <= params.rtol * upper + params.atol

    if params.shape == "gaussian":
        try:
            return _search_gaussian(classify, target, params, lambda: count)
        except _Budget as exc:
            lower, upper, seen_below = exc.args
            return Bracket(lower, upper, count, theory_upper and not seen_below, budget_exhausted=True)

    try:
        # 1. a first point, then grow or shrink until the answer is bracketed by evaluated points
        e = _first_point(params, lower, upper)
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


def _first_point(params: SearchParameters, lower: float, upper: float) -> float:
    """The first epsilon of a search: the initial guess (1e-3 without one) inside [lower, upper],
    the middle of the bracket where the guess is at or above a theory upper end."""
    e = params.initial_guess if params.initial_guess and params.initial_guess > 0 else 1e-3
    e = max(e, lower)
    if math.isfinite(upper):
        e = min(e, upper)
        if e == upper and upper > lower:
            e = lower + 0.5 * (upper - lower) if lower > 0 else 0.5 * upper
    return e


#: the points of the ``"gaussian"`` search placed this fraction of the allowed width either side
#: of the estimate of the answer (two such points, certified, end the search)
AIM_OFF = 0.25


def _search_gaussian(classify, target: float, params: SearchParameters, count) -> Bracket:
    """The search of :func:`epsilon_bracket` for ``shape = "gaussian"``. Every bracket end is a
    certified point (or ``params.lower`` / ``params.upper``), as in the default search; only the
    choice of the points differs:

    * from one side only (the other end a theory limit or infinity), the profile of the Gaussian
      mechanism (:func:`gaussian_model_log_delta`) is fitted through the point nearest the target
      (its mu solved for) and the next point is where the fitted profile meets the target
      (growth or shrinking at most fourfold per step, at least AIM_OFF of the allowed width times
      2^k after k steps that did not cross; epsilon = 0 is tried once, when the fitted profile meets the target below
      a hundredth of the point, or after one fitted step from above);
    * with both sides, the inverse quadratic interpolation of epsilon in y = sqrt(-log delta)
      through the three points nearest the target where they are within a log of it (y is close
      to linear in epsilon for a near-Gaussian privacy loss, log delta close to a parabola), else
      the fitted Gaussian profile, else the regula falsi in y, else bisection (after three steps
      on the same side);
    * the point evaluated is the estimate moved by AIM_OFF of the allowed width (rtol epsilon +
      atol) towards the end it would end the search with (else the farther end), and an enclosure that does not decide at the
      tolerance (the point is within its width of the answer) is followed by the two points
      AIM_OFF of the width either side of it, before any refinement (:func:`_straddle`).

    Raises ``_Budget(lower, upper, seen_below)`` when the budget runs out.
    """
    y_target = math.sqrt(-target)
    lower = float(params.lower)
    upper = math.inf if params.upper is None else float(params.upper)
    history = []  # (epsilon, estimate of log delta, side) of the certified points
    seen_below = zero_tried = False
    same_side = 0  # consecutive two-sided steps that moved the same end

    def done() -> bool:
        return math.isfinite(upper) and upper - lower <= params.rtol * upper + params.atol

    def width(e: float) -> float:
        return params.rtol * e + params.atol

    def y_of(mid: float) -> float:
        return math.sqrt(max(-mid, 0.0))

    def record(e, side, mid):
        nonlocal lower, upper, seen_below, same_side
        same_side = same_side + 1 if history and history[-1][2] == side else 0
        if side > 0:
            lower = e
        else:
            upper, seen_below = e, True
        history.append((e, mid, side))

    def fitted(side: int | None = None) -> float:
        """where the Gaussian profile through the point nearest the target (of ``side``, or of
        either) meets the target; nan where no point serves"""
        pts = [p for p in reversed(history) if (side is None or p[2] == side) and p[0] > 0 and math.isfinite(p[1])]
        if not pts:
            return math.nan
        e1, m1, _ = min(pts, key=lambda p: abs(p[1] - target))
        return gaussian_model_epsilon(target, gaussian_model_mu(e1, m1))

    def two_sided() -> float:
        if same_side >= 3:
            return lower + 0.5 * (upper - lower)
        pts = sorted((p for p in history if math.isfinite(p[1]) and lower <= p[0] <= upper),
                     key=lambda p: abs(y_of(p[1]) - y_target))[:3]
        ys = [y_of(p[1]) for p in pts]
        # close to the target: inverse quadratic interpolation in y through the three nearest
        if len(pts) == 3 and len(set(ys)) == 3 and all(abs(p[1] - target) <= 1.0 for p in pts):
            r = sum(pts[i][0] * math.prod((y_target - ys[j]) / (ys[i] - ys[j]) for j in range(3) if j != i)
                    for i in range(3))
            if lower < r < upper:
                return r
        # further out: the Gaussian profile through the nearest point
        r = fitted()
        if lower < r < upper:
            return r
        below = [p for p in pts if p[2] > 0]
        above = [p for p in pts if p[2] < 0]
        if below and above:
            (e1, m1, _), (e2, m2, _) = below[0], above[0]
            y1, y2 = y_of(m1), y_of(m2)
            if y2 > y1:
                r = e1 + (e2 - e1) * (y_target - y1) / (y2 - y1)
                if lower < r < upper:
                    return r
        return lower + 0.5 * (upper - lower)

    try:
        e = _first_point(params, lower, upper)
        while not done():
            # a coarse enclosure first where the point may be far from the target
            side, mid = classify(e, coarse=not any(abs(p[1] - target) <= 1.0 for p in history))
            if side == 0:
                lower, upper = _straddle_near(classify, e, lower, upper, params)
                if not done():
                    lower, upper = _straddle(classify, e, lower, upper, params)
                return Bracket(lower, upper, count(), False)
            record(e, side, mid)
            if done():
                break
            have_below = any(p[2] > 0 for p in history)
            have_above = any(p[2] < 0 for p in history)
            if have_above and not have_below:
                r = fitted(-1)
                r = r if math.isfinite(r) else upper / 4.0
                e0 = upper
                if lower == 0 and not zero_tried and (r <= 0.01 * e0 or len(history) >= 2):
                    # the fitted profile is at most the target at (or near) epsilon = 0, or one
                    # fitted step did not reach it: try 0
                    zero_tried = True
                    s0, m0 = classify(0.0, coarse=True)
                    if s0 == 0:
                        s0, m0 = classify(0.0, tighten=True)
                    if s0 < 0:
                        return Bracket(0.0, 0.0, count(), False)
                    if s0 > 0:
                        record(0.0, s0, m0)
                        have_below = True
                    else:
                        zero_tried = True
                if not have_below:
                    trial = r - max(AIM_OFF * width(r), 0.05 * (e0 - r))
                    trial = min(max(trial, e0 / 4.0), e0 - min(0.75 * e0, AIM_OFF * width(e0) * 2.0 ** same_side))
                    if trial <= lower:
                        trial = lower + 0.5 * (e0 - lower)
                    if not lower < trial < e0:
                        break
                    e = trial
                    continue
            if have_below and not have_above:
                r = fitted(1)
                r = r if math.isfinite(r) else 4.0 * lower
                e0 = lower
                trial = r + max(AIM_OFF * width(r), 0.05 * (r - e0))
                # a fitted step that does not cross: the least step doubles with each one
                trial = max(trial, e0 + AIM_OFF * width(e0) * 2.0 ** same_side)
                if e0 > 0:
                    trial = min(trial, 4.0 * e0)
                if trial >= upper:
                    trial = lower + 0.5 * (upper - lower)
                if math.isinf(upper) and trial > params.max_epsilon:
                    if lower >= params.max_epsilon:
                        return Bracket(lower, math.inf, count(), False)
                    trial = params.max_epsilon
                e = trial
                continue
            span = upper - lower
            r = two_sided()
            step = AIM_OFF * width(r)
            if r + step - lower <= width(r + step):
                trial = r + step  # on the expected side, it ends the search
            elif upper - (r - step) <= width(upper):
                trial = r - step
            else:
                trial = r + step if upper - r > r - lower else r - step
            e = min(max(trial, lower + 0.01 * span), upper - 0.01 * span)
    except _Budget:
        raise _Budget(lower, upper, seen_below) from None
    return Bracket(lower, upper, count(), params.upper is not None and not seen_below)


_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


def _log_normal_loss(t: float) -> float:
    """log E[(Z - t)_+] = log(phi(t) - t Phi(-t)) for a standard normal Z and t >= 0 (the
    asymptotic series of phi(t) (1 - t R(t)), R the Mills ratio, from t = 8 on)."""
    if t < 8.0:
        v = math.exp(-0.5 * t * t - _LOG_SQRT_2PI) - 0.5 * t * math.erfc(t / math.sqrt(2.0))
        if v > 0:
            return math.log(v)
    u = 1.0 / (t * t)
    return -0.5 * t * t - _LOG_SQRT_2PI + math.log(u * (1 - 3 * u * (1 - 5 * u * (1 - 7 * u * (1 - 9 * u)))))


def gaussian_model_log_delta(epsilon: float, mu: float) -> float:
    """log delta(epsilon) of a Gaussian mechanism of small mu, to first order in mu:
    log(mu E[(Z - epsilon/mu)_+]) (the mu-GDP profile, Dong, Roth, Su 2022, Corollary 2.13,
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), expanded for small mu and eps). Used only
    to choose the points of the ``"gaussian"`` search (never to certify): a privacy loss close
    to Gaussian has a profile of this shape."""
    return math.log(mu) + _log_normal_loss(max(epsilon, 0.0) / mu)


def gaussian_model_epsilon(log_delta: float, mu: float) -> float:
    """The epsilon >= 0 where :func:`gaussian_model_log_delta` equals ``log_delta`` (0 where it
    is below it at 0): bisection in t = epsilon/mu."""
    goal = log_delta - math.log(mu)
    if goal >= _log_normal_loss(0.0):
        return 0.0
    lo, hi = 0.0, 1.0
    while _log_normal_loss(hi) > goal and hi < 1e4:
        lo, hi = hi, 2.0 * hi
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if _log_normal_loss(mid) > goal:
            lo = mid
        else:
            hi = mid
    return mu * 0.5 * (lo + hi)


def gaussian_model_mu(epsilon: float, log_delta: float) -> float:
    """The mu for which :func:`gaussian_model_log_delta` at ``epsilon`` (> 0) equals
    ``log_delta`` (it increases with mu): bisection in log mu."""
    lo, hi = -700.0, 700.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if gaussian_model_log_delta(epsilon, math.exp(mid)) < log_delta:
            lo = mid
        else:
            hi = mid
    return math.exp(0.5 * (lo + hi))


def _straddle_near(classify, e: float, lower: float, upper: float, params: SearchParameters):
    """The enclosure at ``e`` straddles the target at the tolerance: ``e`` is within its width of
    the answer, so the points AIM_OFF of the allowed width either side of it are tried at the
    same tolerance first (they usually decide, and end the search)."""
    step = AIM_OFF * (params.rtol * e + params.atol)
    for x in (e + step, e - step):
        if lower < x < upper:
            side, _ = classify(x)
            if side > 0:
                lower = x
            elif side < 0:
                upper = x
    return lower, upper


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


def golden_minimum(f: Callable[[float], float], lo: float, hi: float, *, xatol: float,
                   max_steps: int = 200) -> tuple[float, float]:
    """``(x, f(x))``: the smallest value of ``f`` seen by a golden-section search of ``[lo, hi]``
    (Kiefer 1953), stopped once the bracket is at most ``xatol`` wide (or after ``max_steps``).

    For the minimisers of a free parameter of a bound (any x gives a valid bound; only the
    tightness depends on finding the minimum), on unimodal ``f``. Every value is a real
    evaluation of ``f``, so the returned pair is one the caller can use as it is.
    """
    lo = validate.real("lo", lo)
    hi = validate.real("hi", hi)
    if not lo < hi:
        raise validate.DomainError(f"[lo, hi] = [{lo!r}, {hi!r}] is invalid: need lo < hi")
    validate.real("xatol", xatol, low=0.0, low_open=True)
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo, hi
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(max_steps):
        if not b - a > xatol:
            break
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
    return (c, fc) if fc <= fd else (d, fd)


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
