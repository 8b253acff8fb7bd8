"""Every bound on shuffled (epsilon, delta)-DP, behind one interface, and the tightest proven one.

A :class:`Method` knows its kind (upper / lower / exact / approximation), its proof status for a
given randomizer, where it applies, and how to compute delta(epsilon) or epsilon(delta) as a
certified interval. :func:`epsilon` and :func:`delta` run one method (``"auto"``: the tightest
applicable upper bound that is proven for the randomizer); :func:`compare` runs them all.
Neither starts a method whose estimated cost (:meth:`Method.cost`) exceeds
:data:`BUDGET_SECONDS` unless it was named: ``auto`` says in its note what it skipped,
:func:`compare` gives the skipped method an :class:`~dptheory.results.Inapplicable` row with the
estimate.
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Callable, ClassVar

import numpy as np

from .. import protocol, results as results_module, validate
from ..formula import Formula, Parts, register
from .. import rounding
from ..inverse import SearchParameters, delta_bracket, epsilon_bracket, gaussian_model_epsilon
from ..lazy_import import mpmath
from ..results import Enclosure, Inapplicable, Kind, NotApplicable, Result, Status
from ..validate import ConditionError
from . import blanket, clones, exact, exact_grr, exact_rr, variation_ratio as vr
from .randomizers import Randomizer, binary_rr, grr
from .pairs import supported_others
from .subject import Shuffled, randomizer_of


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from ..symbols import delta as delta_sym, eps0 as eps0_sym, n as n_sym

    return {
        "efmrtt19": Parts(
            12 * eps0_sym * sp.sqrt(sp.log(1 / delta_sym) / n_sym),
            (eps0_sym, n_sym, delta_sym),
            (eps0_sym <= sp.Rational(1, 2), n_sym >= 1000, delta_sym <= sp.Rational(1, 100)),
        ),
    }


ERLINGSSON = register(Formula(
    name="efmrtt19",
    build=_closed_forms,
    kind=Kind.UPPER,
    status=Status.PROVEN,
    source="Erlingsson et al. (2019), amplification by shuffling (constants as implemented by Balle et al.)",
    lhs=r"\epsilon",
))

#: seconds of estimated work above which ``auto`` and :func:`compare` skip a method that was not
#: named explicitly (the note of the result says what was skipped and why)
BUDGET_SECONDS = 1.0

#: the budget of the ``exact`` method where the randomizer is binary randomized response or GRR on 3
#: options itself: their exact worst case is the number a user of that protocol came for, and the
#: certified search gives it at every supported n in seconds (n = 1e6: 2-5 s of CPU)
OWN_EXACT_BUDGET_SECONDS = 10.0

#: the smallest relative width of the epsilon brackets :func:`epsilon` and :func:`compare` accept:
#: the certified sums reach it in seconds at every supported n (1e-8 took 17 s at n = 1e12 and 42 s
#: at n = 1e15 on a loaded machine, 1e-10 over a minute; the sums' float64 error bound,
#: :func:`dptheory.precision.binom_tail_rtol`, is itself 1e-12 + 4e-14 sqrt(n))
RTOL_MIN = 1e-7

#: a method whose bound is certified above delta at epsilon = (1 - this) log p amplifies eps0 by less
#: than this fraction: where its cheap probe (``Method.probe_log_delta``) shows it, the inversion
#: is not run and the method's epsilon is given as that bracket (the labelled bound of a non-uniform
#: randomizer at n = 1e6: 1 evaluation for [0.95, 1] against 497 for [0.98987, 0.99000])
NEGLIGIBLE_AMPLIFICATION = 0.05

#: delta evaluations an epsilon(delta) inversion needs (8-12 measured; used to estimate its cost)
INVERSION_EVALUATIONS = 12


@dataclasses.dataclass(frozen=True)
class Method(protocol.Method):
    """One bound on shuffled (epsilon, delta)-DP, as data: the protocol of
    :mod:`dptheory.protocol` for the subject :class:`~dptheory.shuffle.subject.Shuffled`.

    ``why_not_fn(randomizer, n)`` gives the reason the method does not apply (None where it
    applies); ``status_fn(randomizer)`` the proof status for a randomizer and why, set here and
    nowhere else; :meth:`cost` estimates the seconds a computation takes before it is started.
    :meth:`epsilon` and :meth:`delta` return :class:`~dptheory.results.Result` objects or raise
    :class:`NotApplicable` with the reason (a closed form outside the domain where it is
    defined included).
    """

    notion: ClassVar[str] = "shuffle"
    name: str
    kind: Kind
    source: str
    #: (randomizer, n) -> reason it does not apply, or None
    why_not_fn: Callable[[Randomizer, int], str | None]
    #: (randomizer) -> (status, note)
    status_fn: Callable[[Randomizer], tuple[Status, str]]
    #: (randomizer, n, epsilon, rtol) -> Enclosure of log delta; None for closed forms in epsilon
    log_delta: Callable | None = None
    #: (randomizer, n, delta) -> epsilon, for closed forms
    closed_epsilon: Callable | None = None
    #: (randomizer, n, delta evaluations) -> estimated seconds; None: cheap at every n
    cost_fn: Callable[[Randomizer, int, int], float] | None = None
    #: (randomizer, n, epsilon, rtol, band, state) -> Enclosure of log delta that may stop refining
    #: once it is certain of its side of the band (the inverter's ``decide``); ``state`` is a dict
    #: of one inversion (what it learns from point to point); None: log_delta serves
    decide_log_delta: Callable | None = None
    #: (randomizer) -> whether ``decide_log_delta`` serves this randomizer (None: always)
    decide_when: Callable[[Randomizer], bool] | None = None
    title: str = ""
    quantities: tuple[str, ...] = ("epsilon", "delta")
    formula: str = ""
    #: (randomizer, n, epsilon, inversion state) -> what attains the value (a randomizer and its worst
    #: dataset), or None
    attained_fn: Callable | None = None
    #: (randomizer, n, epsilon) -> a certified lower bound on log of the method's own delta at
    #: epsilon from one or a few cheap evaluations, or None where it has none: the test, before the
    #: inversion, that the method amplifies by less than :data:`NEGLIGIBLE_AMPLIFICATION`
    probe_log_delta: Callable | None = None
    #: (randomizer, n, epsilon) -> a certified lower bound on log of the method's own delta at
    #: epsilon in O(1) operations (a closed form), or None where it has none: the first check of
    #: :func:`_no_amplification`, which then needs no evaluation of the bound
    floor_log_delta: Callable | None = None
    #: (randomizer) -> the clone probability of the method's pair, for the starting guess of an
    #: inversion (None: the variation-ratio pair's)
    clone_prob_fn: Callable | None = None
    #: (randomizer) -> whether the bound is one count pair's divergence, whose privacy loss is
    #: close to Gaussian: its inversion then uses :class:`~dptheory.inverse.SearchParameters`
    #: ``shape = "gaussian"`` (a maximum over pairs, as the labelled bound's over beta', has kinks
    #: and plateaus where a fitted Gaussian profile steps badly: 35 evaluations instead of 13 for
    #: Laplace eps0 = 0.1, n = 1e6)
    one_pair_fn: Callable | None = None
    #: (randomizer, n, result) -> the result with what its interval means where that depends on
    #: the computation (a note), or None: the result as it is
    finish_fn: Callable | None = None

    # ------------------------------------------------------------------ the protocol
    def why_not(self, subject: Shuffled) -> str | None:
        return self.why_not_fn(subject.randomizer, subject.n)

    def status_why(self, subject) -> tuple[Status, str]:
        """The status for the randomizer's class (``subject``: a Shuffled or a Randomizer) and why."""
        return self.status_fn(randomizer_of(subject))

    def compute(self, subject: Shuffled, quantity: str, at, *, rtol: float | None = None) -> Result:
        self.check_quantity(quantity)
        if quantity == "epsilon":
            return self.epsilon(subject.randomizer, subject.n, at, validate.EPSILON_RTOL if rtol is None else rtol)
        return self.delta(subject.randomizer, subject.n, at, 1e-6 if rtol is None else rtol)

    def cost(self, subject: Shuffled, quantity: str = "epsilon") -> float:
        """Estimated seconds to compute ``quantity`` ("epsilon" or "delta"), before starting."""
        if self.cost_fn is None or not self.applies(subject):
            return 0.0
        return self.cost_fn(subject.randomizer, subject.n, INVERSION_EVALUATIONS if quantity == "epsilon" else 1)

    def budget(self, subject: Shuffled) -> float:
        """Seconds of estimated work above which ``auto`` and :func:`compare` skip this method
        when it was not named: :data:`BUDGET_SECONDS`, or :data:`OWN_EXACT_BUDGET_SECONDS` for the
        exact value of binary randomized response or GRR on 3 options by the certified search."""
        if self.kind is Kind.EXACT and (_binary_rr_search(subject.randomizer, subject.n)
                                        or _grr_search(subject.randomizer, subject.n)):
            return OWN_EXACT_BUDGET_SECONDS
        return BUDGET_SECONDS

    # ------------------------------------------------------------------ the notion's queries
    def _begin(self, rz: Randomizer, n: int) -> tuple[Status, str, float]:
        """(status, note, start time), or NotApplicable with the reason."""
        reason = self.why_not_fn(rz, n)
        if reason:
            raise NotApplicable(f"{self.name}: {reason}")
        return (*self.status_fn(rz), time.perf_counter())

    def epsilon(self, rz: Randomizer, n: int, delta: float, rtol: float = validate.EPSILON_RTOL) -> Result:
        """epsilon(delta) of n shuffled users of ``rz`` by this method, certified."""
        status, note, start = self._begin(rz, n)
        cap = _eps_cap(rz)
        state: dict = {}  # this inversion's only (what it learns from point to point)
        if self.closed_epsilon is not None:
            try:
                value = float(self.closed_epsilon(rz, n, delta))
            except ConditionError as exc:
                raise NotApplicable(f"{self.name}: {exc}") from None
            lo, hi = rounding.down(value, rel_err=rounding.CLOSED_FORM_RTOL), rounding.up(value, rel_err=rounding.CLOSED_FORM_RTOL)
        else:
            # below the point where amplification is possible: settled before any search
            probe = _no_amplification(self, rz, n, delta, cap, rtol)
            if probe is not None:
                lo, hi, by_floor = probe
                how = ("a closed-form lower bound on the bound's delta there" if by_floor else
                       "checked first: the Gaussian approximation predicted no amplification")
                note = _join(note, f"no amplification here: the bound stays above delta at epsilon = {lo:.6g}, "
                                   f"within {rtol:g} relative of $\\log p = {cap:.6g}$, which shuffling an "
                                   f"$\\epsilon_0$-LDP randomizer never exceeds ({how})")
                return Result("epsilon", lo, hi, self.kind, status, self.name, self.source, note,
                              params={"n": n, "delta": delta, "seconds": time.perf_counter() - start})
            negligible = _negligible_amplification(self, rz, n, delta, cap)
            if negligible is not None:
                lo, hi = negligible
                note = _join(note, f"amplifies $\\epsilon_0$ by less than {NEGLIGIBLE_AMPLIFICATION:.0%}: the bound is certified "
                                   f"above delta at epsilon = {lo:.6g} (a cheap lower bound on it), below $\\log p = "
                                   f"{cap:.6g}$, which shuffling an $\\epsilon_0$-LDP randomizer never exceeds; the "
                                   "bracket is not refined")
                return Result("epsilon", lo, hi, self.kind, status, self.name, self.source, note,
                              params={"n": n, "delta": delta, "seconds": time.perf_counter() - start})

            target = math.log(delta)
            # beyond e^700 float64 overflows: a bound still above delta there gives [700, inf]
            clone_prob = None if self.clone_prob_fn is None else self.clone_prob_fn(rz)
            one_pair = self.one_pair_fn is not None and self.one_pair_fn(rz)
            search = SearchParameters(upper=cap, initial_guess=_guess(rz, n, delta, clone_prob, fitted=one_pair), rtol=rtol,
                                      max_epsilon=700.0, tol=min(1e-2, max(0.25 * rtol * abs(target), 1e-10)),
                                      shape="gaussian" if one_pair else "any")

            def enclosure(e, tol):
                enc = self.log_delta(rz, n, e, tol)
                return enc.log_lower, enc.log_upper

            def decide(e, tol, band):
                enc = self.decide_log_delta(rz, n, e, tol, band, state)
                return enc.log_lower, enc.log_upper

            bracket = epsilon_bracket(enclosure, delta, search,
                                      decide=decide if self.decide_log_delta is not None
                                      and (self.decide_when is None or self.decide_when(rz)) else None)
            lo, hi = bracket.lower, bracket.upper
            if math.isinf(hi):
                note = _join(note, f"no finite epsilon: the bound stays above delta up to epsilon = {lo:.6g} "
                                   "(an unbounded likelihood ratio carries mass above delta)")
            if bracket.at_theory_limit:
                note = _join(note, f"the bound does not reach delta below $\\log p = {cap:.6g}$, "
                                   "which shuffling an $\\epsilon_0$-LDP randomizer never exceeds")
        return self._finish(rz, n, Result("epsilon", lo, hi, self.kind, status, self.name, self.source, note,
                                          params={"n": n, "delta": delta, "seconds": time.perf_counter() - start,
                                                  **self._attained(rz, n, hi if math.isfinite(hi) else lo, state)}))

    def delta(self, rz: Randomizer, n: int, epsilon: float, rtol: float = 1e-6) -> Result:
        """delta(epsilon) of n shuffled users of ``rz`` by this method, certified."""
        status, note, start = self._begin(rz, n)
        cap = _eps_cap(rz)
        if cap is not None and epsilon >= cap:
            enc = Enclosure(-math.inf, -math.inf)
            note = _join(note, "$\\epsilon \\geq \\log p$: the shuffled output's likelihood ratio never exceeds $p$")
        elif self.log_delta is not None:
            enc = self.log_delta(rz, n, epsilon, rtol)
        else:
            enc = _closed_form_delta(lambda d: self.closed_epsilon(rz, n, d), epsilon,
                                     lambda d: self.closed_epsilon(rz, n, d, digits=_CLOSED_MP_DIGITS))
        return self._finish(rz, n, enc.result("delta", kind=self.kind, status=status, method=self.name,
                                              source=self.source, note=note,
                                              params={"n": n, "epsilon": epsilon, "seconds": time.perf_counter() - start,
                                                      **self._attained(rz, n, epsilon)}))

    def _finish(self, rz: Randomizer, n: int, res: Result) -> Result:
        return res if self.finish_fn is None else self.finish_fn(rz, n, res)

    def _attained(self, rz: Randomizer, n: int, epsilon: float, state: dict | None = None) -> dict:
        """{"attained_by": ...} where the method says what attains its value, else {} (``state``:
        an epsilon(delta) inversion's, which may already know the dataset)."""
        if self.attained_fn is None:
            return {}
        text = self.attained_fn(rz, n, epsilon, state or {})
        return {"attained_by": text} if text else {}


def _join(*notes: str) -> str:
    return "; ".join(x for x in notes if x)


def _guess(rz: Randomizer, n: int, delta: float, clone_prob: float | None = None, fitted: bool = False) -> float:
    """A starting epsilon: where the profile of the Gaussian approximation of the pair meets delta
    (:func:`dptheory.inverse.gaussian_model_epsilon`, the small-mu form of the mu-GDP profile,
    which keeps the factor mu that sqrt(2 log(1/delta)) mu drops: within 1% at n = 1e8 and
    1e12 where that was 1.7 and 2.9 times too large), with mu ~ 2 (p-1)/(p+1) / sqrt(N s), the
    Gaussian limit of a clone pair mixed by the victim's coin (docs/errata.md#derived-chen-refined-limit);
    s the clone probability of the method's pair (``clone_prob``; by default the variation-ratio
    pair's). Without ``fitted`` (the methods that are not one count pair, whose searches and so
    brackets stay as they were) mu sqrt(2 log(1/delta)) + mu^2/2."""
    s = clone_prob if clone_prob is not None else 2 * vr.clone_rate(rz.p, rz.beta, rz.q) if rz.beta > 0 else 1.0
    others = max(rz.others(n), 1)
    shrink = 1.0 if math.isinf(rz.p) else (rz.p - 1) / (rz.p + 1)
    mu = 2 * shrink / math.sqrt(max(others * min(s, 1.0), 1e-300))
    guess = gaussian_model_epsilon(math.log(delta), mu) if fitted and mu > 0 else 0.0
    if guess <= 0:
        guess = mu * math.sqrt(2 * math.log(1 / delta)) + mu * mu / 2
    cap = _eps_cap(rz)
    return min(guess, cap) if cap else guess


def _no_amplification(method: "Method", rz: Randomizer, n: int, delta: float, cap: float | None,
                      rtol: float) -> tuple[float, float, bool] | None:
    """(lower, upper, by the floor) = (cap (1 - rtol), cap, ...) when the bound's delta at
    cap (1 - rtol) is certainly above delta (the bound's epsilon is in that bracket, whose
    relative width is rtol); None otherwise (the inversion proceeds).

    First the method's closed-form lower bound on its own delta (``floor_log_delta``, microseconds;
    e.g. :meth:`dptheory.shuffle.pairs.CountPair.log_delta_floor`) where it has one, at every
    (n, delta): where it decides, the bound is not evaluated (True is returned). Otherwise, where
    the Gaussian approximation (:func:`_guess`) predicts no amplification, one evaluation of the
    bound (eps0 = 8 at n = 1e3: 8 x fewer evaluations than the inversion)."""
    if cap is None or method.log_delta is None:
        return None
    probe = rounding.down(cap * (1 - rtol), rel_err=rounding.EPS)
    if method.floor_log_delta is not None:
        low = method.floor_log_delta(rz, n, probe)
        if low is not None and low > rounding.log_up(delta):
            return probe, cap, True
    if _guess(rz, n, delta) < cap:
        return None
    enc = method.log_delta(rz, n, probe, 0.5)
    if enc.log_lower > rounding.log_up(delta):
        return probe, cap, False
    return None


def _negligible_amplification(method: "Method", rz: Randomizer, n: int, delta: float,
                              cap: float | None) -> tuple[float, float] | None:
    """(lower, upper) = ((1 - NEGLIGIBLE_AMPLIFICATION) cap, cap) where the method's cheap probe
    certifies its delta above delta at that lower end (so its epsilon lies in the bracket); None
    otherwise (the inversion proceeds)."""
    if cap is None or method.probe_log_delta is None:
        return None
    probe = rounding.down(cap * (1 - NEGLIGIBLE_AMPLIFICATION), rel_err=rounding.EPS)
    low = method.probe_log_delta(rz, n, probe)
    if low is not None and low > rounding.log_up(delta):
        return probe, cap
    return None


def _eps_cap(rz: Randomizer) -> float | None:
    """An epsilon at or above the true epsilon of the shuffled mechanism at every delta (the
    shuffled output's likelihood ratio never exceeds p <= e^eps0), rounded up: log of the
    float p, whose own rounding is covered by one more relative unit, and never below eps0."""
    if math.isinf(rz.p):
        return None
    cap = rounding.up(rounding.log_up(rz.p), abs_err=4 * rounding.EPS)
    return max(cap, rounding.up(rz.eps0)) if rz.eps0 is not None else cap


#: log delta below which a closed form is evaluated with mpmath (e^-700 is near the float range's
#: end), at this many digits, and the lowest log delta searched
_CLOSED_MP_BELOW, _CLOSED_MP_DIGITS, _CLOSED_LOG_FLOOR = -700.0, 30, -1e300


def _closed_form_delta(eps_of_delta: Callable[[float], float], epsilon: float,
                       eps_of_delta_mp: Callable | None = None) -> Enclosure:
    """delta(epsilon) of a closed form epsilon(delta) (non-increasing in delta): the one inverter's
    certified bracket (:func:`dptheory.inverse.delta_bracket`), counting the form's rounding
    (:data:`dptheory.rounding.CLOSED_FORM_RTOL`), in log delta. With ``eps_of_delta_mp`` (the
    form's mpmath version, given an mpmath delta) the search goes below e^-700, the form evaluated
    by it there, so that a delta below the float range gets both ends, never a lower end of 0."""
    def eps_of_log_delta(ld: float) -> float:
        if ld >= _CLOSED_MP_BELOW:
            return eps_of_delta(math.exp(ld))
        with mpmath.workdps(_CLOSED_MP_DIGITS):
            return float(eps_of_delta_mp(mpmath.exp(mpmath.mpf(ld))))

    floor = _CLOSED_MP_BELOW
    if eps_of_delta_mp is not None:
        # the floor moved down fourfold until the form is certainly above epsilon there (delta
        # far below e^-700 at large n: e^-1e12 at n = 1e15), so the bisection brackets the answer
        while floor > _CLOSED_LOG_FLOOR:
            try:
                if eps_of_log_delta(floor) * (1 - rounding.CLOSED_FORM_RTOL) > epsilon:
                    break
            except ConditionError:
                break
            floor *= 4.0
    bracket = delta_bracket(eps_of_log_delta, epsilon, form_rtol=rounding.CLOSED_FORM_RTOL,
                            log_floor=floor, log_input=True)
    if bracket is None:
        raise NotApplicable(f"the closed form does not reach epsilon = {epsilon} for any delta < 1 within its conditions")
    return Enclosure(*bracket)


# ----------------------------------------------------------------------------- applicability


def _needs_ldp(rz, n):
    if rz.eps0 is None or rz.blankets:
        return "needs a single-message eps0-LDP randomizer"
    return None


def _binary_rr_search(rz, n) -> bool:
    """Binary randomized response beyond the enumeration's sizes: the certified search over its
    datasets (:mod:`dptheory.shuffle.exact_rr`) instead."""
    return exact_rr.ENUMERATION_MAX_N < n <= exact_rr.MAX_N and exact_rr.is_binary_rr(rz)


#: users from which GRR on 3 options uses the certified search instead of the enumeration
GRR_SEARCH_FROM = 21
#: the same for GRR on k > 3 options (the enumeration of GRR on 8 options is estimated at 1 s at
#: n = 10 and grows about sevenfold per user)
GRR_SEARCH_FROM_LARGE_K = 11


def _grr_search(rz, n) -> bool:
    """GRR beyond the enumeration's cheap sizes: the certified search over every dataset
    (:mod:`dptheory.shuffle.exact_grr`) instead."""
    k = exact_grr.grr_size(rz)
    if k is None or not exact_grr.supported(k, n):
        return False
    return n >= (GRR_SEARCH_FROM if k == 3 else GRR_SEARCH_FROM_LARGE_K)


def _needs_pmfs_small(rz, n):
    if rz.pmfs is None:
        return "needs a finite randomizer with known pmfs"
    if _binary_rr_search(rz, n) or _grr_search(rz, n):
        return None
    if math.isinf(exact.estimate_seconds(rz, n)):
        return f"exact enumeration: too many datasets or histograms at n = {n}"
    return None


def _exact_cost(rz, n, evaluations):
    if _binary_rr_search(rz, n):
        return exact_rr.estimate_seconds(n, evaluations)
    if _grr_search(rz, n):
        return exact_grr.estimate_seconds(exact_grr.grr_size(rz), n, evaluations)
    return exact.estimate_seconds(rz, n, evaluations)


def _lower_applies(rz, n):
    if rz.pmfs is None and rz.name != "general":
        return "needs the randomizer's pmfs (or the general class, bounded below by binary randomized response)"
    return None


def _blanket_kind(rz):
    if rz.name == "general":
        return "generic", None
    if rz.name == "binary-rr":
        return "rr", 2
    if rz.name.startswith("grr(") and rz.pmfs is not None:
        return "rr", rz.pmfs.shape[0]
    if rz.name == "laplace":
        return "laplace", None
    return None, None


def _blanket_applies(rz, n):
    if _blanket_kind(rz)[0] is None:
        return "implemented for the general, randomized-response and Laplace randomizers"
    return None


def _always(rz, n):
    return None


def _counted(why_not):
    """``why_not`` of a method whose sums run over a count pair (:class:`dptheory.shuffle.pairs.CountPair`),
    and the pair's supported range of other users (:data:`dptheory.shuffle.pairs.N_MAX`)."""
    def fn(rz, n):
        return supported_others("other messages (n - 1)" if not rz.blankets else "other messages",
                                rz.others(n)) or why_not(rz, n)
    return fn


def _proven(source_note=""):
    return lambda rz: (Status.PROVEN, source_note)


def _formula_status(formula):
    """The status a registered closed form carries (set once, on the formula)."""
    return lambda rz: (formula.status, "")


def _stronger_status(rz):
    return clones.stronger_clone_status(rz.pmfs)


def _closed_status(rz):
    status, note = vr.reduction_status(rz)
    return status, note


# ----------------------------------------------------------------------------- log-delta functions


def _exact_parameters(rz):
    """A callable giving the real (p, beta, q) of ``rz`` in mpmath (p = q = e^eps0, beta the
    worst case or the largest total variation of its exact pmfs), or None where they are not known."""
    if rz.eps0 is None or rz.p != math.exp(rz.eps0) or rz.q != rz.p:
        return None
    if not rz.is_worst_case and rz.pmfs_exact is None:
        return None

    def exact():
        big = mpmath.exp(mpmath.mpf(rz.eps0))
        if rz.is_worst_case:
            return big, (big - 1) / (big + 1), big
        rows = rz.pmfs_exact()
        beta = max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for i, x in enumerate(rows) for y in rows[i + 1:])
        return big, beta, big
    return exact


def _vr_log_delta(rz, n, e, tol):
    return vr.log_delta(rz.p, rz.beta, rz.q, rz.others(n), e, rtol=tol, exact=_exact_parameters(rz))


def _vr_decide(rz, n, e, tol, band, state):
    return vr.log_delta(rz.p, rz.beta, rz.q, rz.others(n), e, rtol=tol, exact=_exact_parameters(rz),
                        start=state.setdefault("buckets", {}))


def _labelled_decide(rz, n, e, tol, band, state):
    return vr.labelled_log_delta(rz.p, rz.beta, rz.q, rz.others(n), max(e, 0.0), uniform=rz.uniform_beta, rtol=tol,
                                 exact=_exact_parameters(rz), band=band, memory=state.setdefault("labelled", {}))


def _labelled_log_delta(rz, n, e, tol):
    return vr.labelled_log_delta(rz.p, rz.beta, rz.q, rz.others(n), max(e, 0.0), uniform=rz.uniform_beta, rtol=tol,
                                 exact=_exact_parameters(rz))


def _labelled_probe(rz, n, e):
    """A certified lower bound on log of the labelled bound's delta at ``e`` for a randomizer that
    is not uniform (where the bound is the maximum over beta' <= beta): the bound at the beta'
    where one other user in 2, one or one in a half sends a clone (2 r (N + 1) = 1/2, 1, 2), where the
    maximum sits at large n (the factor grows with beta', the clones' amplification falls).
    None where it does not apply (a uniform randomizer: the bound is one evaluation anyway)."""
    if rz.uniform_beta or math.isinf(rz.p):
        return None
    others = rz.others(n)
    best = None
    for clones_expected in (0.5, 1.0, 2.0):
        r = clones_expected / (2.0 * (others + 1))
        beta = r * rz.q / rz.p * (rz.p - 1)
        if 0 < beta < rz.beta:
            enc = vr.labelled_log_delta(rz.p, beta, rz.q, others, max(e, 0.0), uniform=True, rtol=0.5)
            best = enc.log_lower if best is None else max(best, enc.log_lower)
    return best


def _lower_log_delta(rz, n, e, tol):
    source = rz if rz.pmfs is not None else binary_rr(rz.eps0)
    enc, _ = vr.lower_log_delta(source.pmfs, n - 1, e, rtol=tol, exact=source.pmfs_exact)
    return enc


def _lower_decide(rz, n, e, tol, band, state):
    source = rz if rz.pmfs is not None else binary_rr(rz.eps0)
    enc, _ = vr.lower_log_delta(source.pmfs, n - 1, e, rtol=tol, exact=source.pmfs_exact, band=band,
                                memory=state.setdefault("lower", vr.LowerMemory()))
    return enc


def _pair_floor(pair_of):
    """``floor_log_delta`` of a method whose bound is one count pair's divergence (``pair_of(rz, n)``,
    or None where the method has no such pair): the pair's closed-form lower bound
    (:meth:`dptheory.shuffle.pairs.CountPair.log_delta_floor`)."""
    def floor(rz, n, e):
        pair = pair_of(rz, n)
        return None if pair is None else pair.log_delta_floor(e)
    return floor


def _vr_pair(rz, n):
    """The variation-ratio pair of ``rz`` (None where beta = 0: both laws are (0, 0))."""
    return vr.pair(rz.p, rz.beta, rz.q, rz.others(n)) if rz.beta > 0 else None


def _labelled_floor(rz, n, e):
    """A closed-form lower bound on log of the labelled bound: the bound is the factor times the
    pair's divergence at beta (its maximum over beta' <= beta for a randomizer that is not uniform
    is at least that), the factor within ``2 input_rtol(p)`` of the real one (in logs)."""
    if rz.beta <= 0:
        return None
    factor, pair = vr.labelled_pair(rz.p, rz.beta, rz.q, rz.others(n))
    low = pair.log_delta_floor(e)
    if low is None or factor <= 0:
        return None
    slack = 0.0 if factor == 1.0 or math.isinf(rz.p) else 2 * vr.input_rtol(rz.p)
    return rounding.down(math.log(factor) - slack + low, abs_err=4 * rounding.EPS * (abs(low) + 1.0))


def _lower_pairs_floor(source: Randomizer, n: int, e: float) -> float | None:
    """The largest closed-form lower bound (:meth:`dptheory.shuffle.pairs.CountPair.log_delta_floor`)
    over the pairs of Wang et al. (2024), Theorem 5.1 for the pmfs of ``source`` (the choices of
    :func:`dptheory.shuffle.variation_ratio.lower_choices`). Each pair is a post-processing of the
    real shuffled output of one dataset (the victim at x0 or x1, the others at x_star), so this
    bounds from below the lower bound of Theorem 5.1 (its maximum over the choices) and the exact
    worst case over every dataset. Only the victim pairs every output of which favours one of the
    two count: the floor needs the victim's message always counted, and there the pair's
    victim probability is 1 exactly (elsewhere it may be a float sum rounded to 1, whose missing
    part, times e^epsilon, would matter near a large eps0)."""
    if source.pmfs is None:
        return None
    best = None
    pmfs = np.asarray(source.pmfs, dtype=float)
    for x0, x1, xs, reverse in vr.lower_choices(pmfs):
        if not np.all(pmfs[x0] != pmfs[x1]):
            continue
        pair = vr.lower_bound_pair(pmfs, x0, x1, xs, n - 1)
        low = (pair.reversed() if reverse else pair).log_delta_floor(e)
        if low is not None and (best is None or low > best):
            best = low
    return best


def _lower_floor(rz, n, e):
    return _lower_pairs_floor(rz if rz.pmfs is not None else binary_rr(rz.eps0), n, e)


def _exact_floor(rz, n, e):
    """A closed-form lower bound on the exact worst case (every dataset; :func:`_lower_pairs_floor`)."""
    return _lower_pairs_floor(rz, n, e)


def _rr_lower_floor(rz, n, e):
    """A closed-form lower bound on binary randomized response's exact worst case (every dataset
    c = 0 .. n - 1 is searched, the pairs of :func:`_lower_pairs_floor` among them)."""
    return _lower_pairs_floor(_rr_source(rz), n, e)


def _clones_log_delta(rz, n, e, tol):
    return clones.clone_pair(rz.eps0, n).log_delta(e, rtol=tol)


def _one_pair(rz) -> bool:
    return True


def _pair_decide(pair_of):
    """The inverter's ``decide`` of a method whose bound is one count pair's divergence: the
    pair's enclosure, refined from the buckets of the inversion's previous point
    (:meth:`dptheory.shuffle.pairs.CountPair.log_delta`, ``start``)."""
    def decide(rz, n, e, tol, band, state):
        return pair_of(rz, n).log_delta(e, rtol=tol, start=state.setdefault("buckets", {}))
    return decide


def _stronger_log_delta(rz, n, e, tol):
    return clones.stronger_clone_pair(rz.eps0, n).log_delta(e, rtol=tol)


def _blanket_log_delta(bound):
    def fn(rz, n, e, tol):
        kind, k = _blanket_kind(rz)
        if e <= 0:
            return Enclosure(0.0, 0.0)
        return Enclosure(*blanket.log_delta_enclosure(bound, kind, rz.eps0, n, e, k))
    return fn


def _exact_log_delta(rz, n, e, tol):
    if _binary_rr_search(rz, n):
        return exact_rr.engine(rz, n).log_delta(e)
    if _grr_search(rz, n):
        return exact_grr.engine(rz, n).log_delta(e)
    return exact.engine(rz, n).log_delta(e, rtol=tol)


def _exact_decide(rz, n, e, tol, band, state):
    if _binary_rr_search(rz, n):
        return exact_rr.engine(rz, n).decide_log_delta(e, band, state)
    if _grr_search(rz, n):
        return exact_grr.engine(rz, n).decide_log_delta(e, band, state)
    return exact.engine(rz, n).log_delta(e, rtol=tol)


def _rr_lower_decide(rz, n, e, tol, band, state):
    enc = exact_rr.engine(_rr_source(rz), n).decide_log_delta(e, band, state)
    return Enclosure(enc.log_lower, enc.log_lower)


def _attained_text(source: Randomizer, n: int, epsilon: float, state: dict) -> str | None:
    """Binary randomized response and its worst dataset at ``epsilon`` (the search's; None where
    the search gives up), or the dataset an epsilon(delta) inversion certified at its lower end."""
    if "above" in state:
        c = state["above"][1]
    else:
        try:
            c = exact_rr.engine(source, n).search(epsilon)[2]
        except NotApplicable:
            return None
    eps0 = f" (eps0 = {source.eps0:g})" if source.eps0 is not None else ""
    others = (f"the other {n - 1} users all hold 0" if c == 0 else
              f"the other {n - 1} users all hold 1" if c == n - 1 else
              f"{c} of the other {n - 1} users hold 1 and the rest 0")
    return f"binary randomized response{eps0} on its worst dataset: the victim holds 0 or 1, {others}"


def _rr_attained(rz, n, epsilon, state):
    return _attained_text(_rr_source(rz), n, epsilon, state)


def _exact_attained(rz, n, epsilon, state):
    if _binary_rr_search(rz, n):
        return _attained_text(rz, n, epsilon, state)
    if _grr_search(rz, n):
        return _grr_attained_text(rz, n, epsilon, state)
    if not math.isfinite(epsilon):
        return None
    _, _, _, a, b = exact.engine(rz, n).evaluate(epsilon)
    counts = {}
    for x in a[1:]:
        counts[x] = counts.get(x, 0) + 1
    others = ", ".join(f"{k} hold input {x}" for x, k in sorted(counts.items())) or "no other user"
    return f"{rz.name} on its worst dataset: the victim holds input {a[0]} or {b[0]}; of the other {n - 1} users, {others}"


#: relative width of an exact row's interval beyond which GRR's search says that its two ends
#: did not meet (the requested tolerances are 1e-3 and finer)
GRR_OPEN_WIDTH = 1e-2


def _exact_finish(rz, n, res: Result) -> Result:
    """GRR on k > 3 options by the search: its interval is a two-sided enclosure (lower end
    attained by a dataset, upper end a bound over every dataset); where the two ends do not meet,
    the note says so and why."""
    k = exact_grr.grr_size(rz)
    if k is None or k == 3 or not _grr_search(rz, n):
        return res
    lo, hi = res.lower, res.upper
    if res.log_lower is not None and res.log_upper is not None:
        # delta, compared in log space (its ends may be below the float range, or 0 exactly)
        if res.log_upper == -math.inf or res.log_upper - res.log_lower <= math.log1p(GRR_OPEN_WIDTH):
            return res
    elif hi <= lo * (1 + GRR_OPEN_WIDTH) or "no amplification" in res.note:
        return res
    return dataclasses.replace(res, note=_join(
        res.note, f"not pinned down: a two-sided enclosure of the exact value, upper end {hi:.6g} and lower end "
                  f"{lo:.6g} apart by more than {GRR_OPEN_WIDTH:g} relative. The lower end is attained by the worst "
                  "dataset found (the others' values outside the victim's two all one value); the upper end bounds "
                  "every spread of those values (the augmented experiment, docs/tightness.md#generalized-randomized-"
                  "response); the true worst case lies between them"))


def _rr_source(rz):
    """The binary randomized response whose exact value bounds ``rz`` below: its own pmfs for
    binary randomized response, binary_rr(eps0) for the general eps0-LDP class."""
    return rz if rz.name != "general" else binary_rr(rz.eps0)


def _rr_lower_applies(rz, n):
    if n < 2 or not (rz.name == "general" and rz.eps0 is not None or exact_rr.is_binary_rr(rz)):
        return ("applies to the general eps0-LDP class (binary randomized response is one of its members) "
                "and to binary randomized response itself")
    if n > exact_rr.MAX_N:
        return f"the certified search over binary randomized response's datasets stops at n = {exact_rr.MAX_N:.0e}"
    if not exact_rr.is_binary_rr(_rr_source(rz)):
        return f"binary randomized response at eps0 = {rz.eps0} keeps its bit with a probability that rounds to 1"
    return None


def _rr_lower_log_delta(rz, n, e, tol):
    enc = exact_rr.engine(_rr_source(rz), n).log_delta(e)
    return Enclosure(enc.log_lower, enc.log_lower)


def _rr_lower_cost(rz, n, evaluations):
    return exact_rr.estimate_seconds(n, evaluations)


def _grr_source(rz):
    """The GRR whose searched worst case bounds ``rz`` below: its own pmfs for GRR on k >= 3
    options, GRR on 3 options at eps0 for the general eps0-LDP class."""
    return rz if rz.name != "general" else grr(rz.eps0, 3)


def _grr_lower_applies(rz, n):
    if n < 2 or not (rz.name == "general" and rz.eps0 is not None or exact_grr.grr_size(rz) is not None):
        return ("applies to generalized randomized response on k >= 3 options and to the general eps0-LDP class "
                "(GRR on 3 options is one of its members)")
    source = _grr_source(rz)
    k = exact_grr.grr_size(source)
    if k is None:
        return f"GRR on 3 options at eps0 = {rz.eps0} keeps its value with a probability that rounds to 1"
    if not exact_grr.supported(k, n):
        limit = exact_grr.MAX_N.get(k, exact_grr.MAX_N_LARGE_K)
        return f"the search over GRR's datasets is offered up to n = {limit} for k = {k} (estimated over 10 s beyond)"
    return None


def _grr_lower_status(rz):
    source = _grr_source(rz)
    k = exact_grr.grr_size(source)
    note = "attained by GRR on its worst dataset found"
    if k is not None and k > 3:
        note += (" (the largest over the datasets whose others' values outside the victim's two are all one value; "
                 "the search bounds every other spread above: docs/tightness.md#generalized-randomized-response)")
    return Status.PROVEN, note


def _grr_lower_log_delta(rz, n, e, tol):
    enc = exact_grr.engine(_grr_source(rz), n).log_delta(e)
    return Enclosure(enc.log_lower, enc.log_lower)


def _grr_lower_decide(rz, n, e, tol, band, state):
    enc = exact_grr.engine(_grr_source(rz), n).decide_log_delta(e, band, state)
    return Enclosure(enc.log_lower, enc.log_lower)


def _grr_lower_cost(rz, n, evaluations):
    source = _grr_source(rz)
    return exact_grr.estimate_seconds(exact_grr.grr_size(source) or 3, n, evaluations)


def _grr_attained_text(source, n: int, epsilon: float, state: dict) -> str | None:
    """GRR and its worst dataset found at ``epsilon`` (None where the search gives up), or the
    dataset an epsilon(delta) inversion certified at its lower end."""
    eng = exact_grr.engine(source, n)
    if "above" in state:
        counts = state["above"][1]
    else:
        try:
            counts = eng.search(epsilon)[2]
        except NotApplicable:
            return None
    eps0 = f" (eps0 = {source.eps0:g})" if source.eps0 is not None else ""
    return (f"generalized randomized response on {eng.k} options{eps0} on its worst dataset: "
            + exact_grr.describe(counts, n, eng.k))


def _grr_attained(rz, n, epsilon, state):
    if not math.isfinite(epsilon):
        return None
    return _grr_attained_text(_grr_source(rz), n, epsilon, state)


# ----------------------------------------------------------------------------- closed forms in epsilon


def _analytic(rz, n, d, digits=None):
    return vr.THEOREM_4_2(rz.p, rz.beta, rz.q, rz.others(n) + 1, d, digits=digits)


def _asymptotic(rz, n, d, digits=None):
    return vr.THEOREM_4_3(rz.p, rz.beta, rz.q, rz.others(n) + 1, d, digits=digits)


def _clones_closed(rz, n, d, digits=None):
    return clones.CLOSED_FORM(rz.eps0, n, d, digits=digits)


def _erlingsson(rz, n, d, digits=None):
    return ERLINGSSON(rz.eps0, n, d, digits=digits)


def _finite_p(rz, n):
    if math.isinf(rz.p) or rz.beta == 0:
        return "needs a finite p and beta > 0"
    return None


#: every method of the notion, in the order of the tables (:class:`dptheory.protocol.Registry`)
METHODS = protocol.Registry("shuffle", [
    Method("variation-ratio", Kind.UPPER, "Wang et al. (2024), Theorems 4.7, 4.8 (numerical, certified)",
           _counted(_always), vr.reduction_status, log_delta=_vr_log_delta, decide_log_delta=_vr_decide,
           title="Variation-ratio reduction", one_pair_fn=_one_pair, floor_log_delta=_pair_floor(_vr_pair)),
    Method("variation-ratio-labelled", Kind.UPPER,
           "dptheory: labelled variation-ratio pair, derived here from Wang et al. (2024), Lemma 4.4 "
           "(docs/errata.md#derived-labelled-variation-ratio)",
           _counted(_always), _proven(r"the label of the victim's message is kept: sound for every $\beta' \leq \beta$"),
           log_delta=_labelled_log_delta, decide_log_delta=_labelled_decide, title="Labelled variation-ratio pair",
           one_pair_fn=lambda rz: rz.uniform_beta, probe_log_delta=_labelled_probe, floor_log_delta=_labelled_floor),
    Method("variation-ratio-lower", Kind.LOWER, "Wang et al. (2024), Theorem 5.1 (numerical, certified)",
           _counted(_lower_applies), _proven("a post-processing of the real shuffled output of one dataset"),
           log_delta=_lower_log_delta, decide_log_delta=_lower_decide, title="Variation-ratio lower bound",
           floor_log_delta=_lower_floor),
    Method("variation-ratio-analytic", Kind.UPPER, vr.THEOREM_4_2.source + " (corrected)", _finite_p, _closed_status,
           closed_epsilon=_analytic, title="Variation ratio, Theorem 4.2", formula=vr.THEOREM_4_2.name),
    Method("variation-ratio-asymptotic", Kind.UPPER, vr.THEOREM_4_3.source, _finite_p, _closed_status,
           closed_epsilon=_asymptotic, title="Variation ratio, Theorem 4.3", formula=vr.THEOREM_4_3.name),
    Method("clones", Kind.UPPER, clones.SOURCE_2021, _counted(_needs_ldp), _proven(), log_delta=_clones_log_delta, title="Clones",
           decide_log_delta=_pair_decide(lambda rz, n: clones.clone_pair(rz.eps0, n)), one_pair_fn=_one_pair,
           clone_prob_fn=lambda rz: math.exp(-rz.eps0),
           floor_log_delta=_pair_floor(lambda rz, n: clones.clone_pair(rz.eps0, n))),
    Method("clones-closed-form", Kind.UPPER, clones.CLOSED_FORM.source, _needs_ldp, _formula_status(clones.CLOSED_FORM),
           closed_epsilon=_clones_closed, title="Clones, closed form", formula=clones.CLOSED_FORM.name),
    Method("stronger-clones", Kind.UPPER, clones.SOURCE_2023, _counted(_needs_ldp), _stronger_status,
           log_delta=_stronger_log_delta, title="Stronger clones",
           decide_log_delta=_pair_decide(lambda rz, n: clones.stronger_clone_pair(rz.eps0, n)), one_pair_fn=_one_pair,
           floor_log_delta=_pair_floor(lambda rz, n: clones.stronger_clone_pair(rz.eps0, n))),
    Method("blanket-hoeffding", Kind.UPPER, blanket.SOURCE + ", Hoeffding", _blanket_applies, _proven(),
           log_delta=_blanket_log_delta("hoeffding"), title="Privacy blanket, Hoeffding"),
    Method("blanket-bennett", Kind.UPPER, blanket.SOURCE + ", Bennett", _blanket_applies, _proven(),
           log_delta=_blanket_log_delta("bennett"), title="Privacy blanket, Bennett"),
    Method("efmrtt19", Kind.UPPER, ERLINGSSON.source, _needs_ldp, _formula_status(ERLINGSSON),
           closed_epsilon=_erlingsson, title="Erlingsson et al.", formula=ERLINGSSON.name),
    Method("exact", Kind.EXACT, "exact enumeration of the shuffled histogram over every dataset (one per symmetry "
           "orbit); binary randomized response and GRR: certified search over every dataset (dptheory, "
           "derived here: docs/tightness.md)",
           _needs_pmfs_small, _proven("a certified enclosure of the exact value"), log_delta=_exact_log_delta,
           decide_log_delta=_exact_decide, cost_fn=_exact_cost, title="Exact (enumeration)",
           attained_fn=_exact_attained, finish_fn=_exact_finish, floor_log_delta=_exact_floor),
    Method("binary-rr-exact-lower", Kind.LOWER,
           "dptheory: the exact worst case of shuffled binary randomized response, an eps0-LDP randomizer "
           "(derived here: docs/tightness.md)",
           _rr_lower_applies, _proven("attained by binary randomized response on its worst dataset"),
           log_delta=_rr_lower_log_delta, decide_log_delta=_rr_lower_decide, cost_fn=_rr_lower_cost, attained_fn=_rr_attained, title="Binary RR, exact (lower bound)",
           floor_log_delta=_rr_lower_floor),
    Method("grr-exact-lower", Kind.LOWER,
           "dptheory: the worst case of shuffled generalized randomized response over the datasets searched, an "
           "eps0-LDP randomizer (derived here: docs/tightness.md#generalized-randomized-response)",
           _grr_lower_applies, _grr_lower_status, log_delta=_grr_lower_log_delta, decide_log_delta=_grr_lower_decide,
           cost_fn=_grr_lower_cost, attained_fn=_grr_attained, title="GRR, worst dataset (lower bound)"),
], subject="Shuffled(randomizer, n)")

#: methods that 'auto' may choose from: numerical upper bounds first, then closed forms
AUTO_ORDER = ("exact", "variation-ratio", "variation-ratio-labelled", "stronger-clones", "clones",
              "blanket-bennett", "blanket-hoeffding", "clones-closed-form", "efmrtt19",
              "variation-ratio-analytic", "variation-ratio-asymptotic")


def _method(name: str) -> Method:
    if name not in METHODS:
        raise validate.DomainError(f"method = {name!r} is invalid: must be 'auto' or one of {sorted(METHODS)}")
    return METHODS[name]


def _candidates(subject: Shuffled):
    for name in AUTO_ORDER:
        m = METHODS[name]
        if m.kind not in (Kind.UPPER, Kind.EXACT) or not m.applies(subject):
            continue
        if m.status(subject) is Status.PROVEN:
            yield m


def epsilon(randomizer: Randomizer, n, delta, method: str = "auto", *, rtol: float = validate.EPSILON_RTOL) -> Result:
    """epsilon(delta) of n shuffled users of ``randomizer`` by one method, as a certified interval.

    ``method="auto"`` returns the tightest applicable bound that is proven for this randomizer
    (an exact value when n is small enough to enumerate). It starts no computation estimated to
    take more than :data:`BUDGET_SECONDS`; the result's note names what it skipped and why.
    """
    subject = Shuffled(randomizer, n)
    d = validate.delta("delta", delta)
    validate.real("rtol", rtol, low=RTOL_MIN, high=1.0)
    if method != "auto":
        return _method(method).compute(subject, "epsilon", d, rtol=rtol)
    return _tightest(subject, "epsilon", lambda m: m.compute(subject, "epsilon", d, rtol=rtol), lambda res: res.upper)


def _skip_reason(cost: float, budget: float = BUDGET_SECONDS) -> str:
    shown = "too many datasets to enumerate" if math.isinf(cost) else f"estimated {cost:.3g} s"
    return f"skipped for cost: {shown} > budget {budget:g} s (name the method to run it)"


def _tightest(subject: Shuffled, quantity: str, compute, key) -> Result:
    """The exact value if a method gives one, else the result with the smallest ``key`` among
    the proven upper bounds that apply and fit the time budget."""
    best = None
    skipped = []
    for m in _candidates(subject):
        cost, budget = m.cost(subject, quantity), m.budget(subject)
        if cost > budget:
            skipped.append(f"{m.name} ({_skip_reason(cost, budget)})")
            continue
        try:
            res = compute(m)
        except (ConditionError, NotApplicable):
            continue
        if m.kind is Kind.EXACT:
            best = res
            break
        if best is None or key(res) < key(best):
            best = res
    if best is None:
        raise NotApplicable(f"no proven upper bound applies to {subject.randomizer.name} at n = {subject.n}"
                            + (f"; {'; '.join(skipped)}" if skipped else ""))
    if skipped:
        best = dataclasses.replace(best, note=_join(best.note, "auto skipped " + "; ".join(skipped)))
    return best


def delta(randomizer: Randomizer, n, epsilon, method: str = "auto", *, rtol: float = 1e-6) -> Result:
    """delta(epsilon) of n shuffled users of ``randomizer``; see :func:`epsilon`."""
    subject = Shuffled(randomizer, n)
    e = validate.real("epsilon", epsilon, low=0.0)
    if method != "auto":
        return _method(method).compute(subject, "delta", e, rtol=rtol)
    # compared in log space: bounds below the float range still order correctly
    return _tightest(subject, "delta", lambda m: m.compute(subject, "delta", e, rtol=rtol), lambda res: res.log_upper)


def compare(randomizer: Randomizer, n, *, delta=None, epsilon=None, methods=None,
            rtol: float = validate.EPSILON_RTOL) -> list[Result | Inapplicable]:
    """Run every method (or those named): a :class:`Result` per method that applies, an
    :class:`Inapplicable` with the failed condition for the others (:meth:`Method.run`). Never
    raises for a method that does not apply. Without ``methods``, a method estimated to take more
    than :data:`BUDGET_SECONDS` is not started: its row is :class:`Inapplicable`, the reason
    giving the estimate; a method named in ``methods`` always runs."""
    subject = Shuffled(randomizer, n)
    if (delta is None) == (epsilon is None):
        raise validate.DomainError("give exactly one of delta and epsilon")
    if delta is not None:
        validate.delta("delta", delta)
    else:
        validate.real("epsilon", epsilon, low=0.0)
    validate.real("rtol", rtol, low=RTOL_MIN, high=1.0)
    named = methods is not None
    names = METHODS.names(methods) if named else list(METHODS)
    quantity = "epsilon" if delta is not None else "delta"
    out: list[Result | Inapplicable] = []
    for m in [METHODS[name] for name in names]:
        if not named:
            cost, budget = m.cost(subject, quantity), m.budget(subject)
            if cost > budget:
                out.append(m.inapplicable(subject, _skip_reason(cost, budget), estimated_seconds=cost))
                continue
        if quantity == "epsilon":
            out.append(m.run(subject, "epsilon", delta, rtol=rtol))
        else:
            out.append(m.run(subject, "delta", epsilon))
    return out


@dataclasses.dataclass(frozen=True)
class Summary:
    """The answer a practitioner came for: the tightest proven upper bound and the best lower
    bound (or the exact value) among a comparison's results."""

    upper: Result | None
    lower: Result | None

    @property
    def log_gap(self) -> float | None:
        """log(upper end of the upper bound / lower end of the lower bound) (None if either is
        missing or an end is 0; :func:`dptheory.results.log_gap`)."""
        return results_module.log_gap(self.upper, self.lower)

    @property
    def gap(self) -> float | None:
        """upper / lower - 1 of the two conservative ends (None if either is missing or 0)."""
        return results_module.gap(self.upper, self.lower)

    @property
    def gap_ratio(self) -> float | None:
        """upper / lower of the two conservative ends (inf beyond the float range)."""
        return results_module.gap_ratio(self.upper, self.lower)

    def as_dict(self) -> dict:
        return {"upper": self.upper.as_dict() if self.upper else None,
                "lower": self.lower.as_dict() if self.lower else None,
                "gap": self.gap, "log_gap": self.log_gap}


def summarize(results) -> Summary:
    """The tightest proven upper bound (an exact value counts as both) and the largest proven
    lower bound among ``results`` (:func:`compare`'s output); compared in log space for delta."""
    def key(r: Result, end: str) -> float:
        log_end = r.log_upper if end == "upper" else r.log_lower
        return log_end if log_end is not None else getattr(r, end)

    proven = [r for r in results if isinstance(r, Result) and r.status is Status.PROVEN]
    uppers = [r for r in proven if r.kind in (Kind.UPPER, Kind.EXACT)]
    lowers = [r for r in proven if r.kind in (Kind.LOWER, Kind.EXACT)]
    best_upper = min(uppers, key=lambda r: key(r, "upper"), default=None)
    best_lower = max(lowers, key=lambda r: key(r, "lower"), default=None)
    return Summary(best_upper, best_lower)
