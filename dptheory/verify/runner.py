"""Run every registered check and erratum on its case grid; the margins and verdicts.

One case is one task ``(entry, name, case, digits)``, evaluated by the module-level
:func:`evaluate` (so that a process pool or a Dask cluster can run it); :func:`_run_cases` is the
one place where tasks are executed.
"""

from __future__ import annotations

import math
import sys
import time
import traceback
from typing import Any

import mpmath
import numpy as np
from mpmath import mpf

from ..results import Curve, Inapplicable, Kind, NotApplicable, Result, Status
from ..validate import ConditionError
from . import registry
from .oracles import GUARD
from ..presentation.digits import fmt_pair
from .outcomes import FLOAT_DIGITS, CaseOutcome, ErratumOutcome, Report


# ----------------------------------------------------------------------------- values and margins


def _mp_end(value, log_value, upper: bool):
    """An end of a bound as an mpf: from its log where the linear end left the float range."""
    if log_value is not None and math.isfinite(log_value) and (value == 0 or abs(value) < 1e-290):
        return mpmath.exp(mpf(log_value))
    if log_value is not None and log_value == -math.inf:
        return mpf(0)
    return mpf(float(value)) if math.isfinite(float(value)) else (mpmath.inf if value > 0 else -mpmath.inf)


def bound_intervals(value, rtol: float = 0.0) -> list[tuple]:
    """The bound's value(s) as a list of (lower, upper) mpf pairs (a Curve: one per order);
    bare floats are widened by ``rtol`` relative (the accuracy the function states)."""
    if isinstance(value, Result):
        lo, hi = _mp_end(value.lower, value.log_lower, False), _mp_end(value.upper, value.log_upper, True)
        out = [(lo, hi)]
    elif isinstance(value, Curve):
        out = [(mpf(float(a)), mpf(float(b))) for a, b in zip(value.lower, value.upper)]
    elif isinstance(value, tuple) and len(value) == 2 and not isinstance(value[0], (tuple, list, Result)):
        out = [(mpf(float(value[0])), mpf(float(value[1])))]
    elif isinstance(value, (list, tuple, np.ndarray)):
        out = []
        for v in value:
            out.extend(bound_intervals(v))
    else:
        v = mpf(float(value))
        out = [(v, v)]
    if rtol:
        out = [(lo - abs(lo) * rtol, hi + abs(hi) * rtol) for lo, hi in out]
    return out


def oracle_intervals(value) -> list[tuple]:
    """The oracle's enclosure(s) as a list of (lower, upper) mpf pairs."""
    if isinstance(value, tuple) and len(value) == 2 and not isinstance(value[0], (tuple, list)):
        return [(mpf(value[0]), mpf(value[1]))]
    return [(mpf(a), mpf(b)) for a, b in value]


def _relative(diff, scale) -> float:
    """diff / scale as a float, signed; 0/0 counts as 0, x/0 as +-inf."""
    if scale == 0 or not mpmath.isfinite(scale):
        if diff == 0:
            return 0.0
        return math.inf if diff > 0 else -math.inf
    r = diff / abs(scale)
    return float(r) if mpmath.isfinite(r) else (math.inf if r > 0 else -math.inf)


def margin(kind: Kind, bound: tuple, oracle: tuple) -> float:
    """Signed relative margin of one value: negative exactly when the bound is violated.

    upper: (bound upper end - oracle lower end) / oracle lower end; lower: (oracle upper end -
    bound lower end) / oracle upper end; exact: the smaller of the two (the enclosures must
    intersect). An oracle end at infinity (unknown) gives +inf on that side."""
    b_lo, b_hi = bound
    o_lo, o_hi = oracle
    up = math.inf if o_lo == -mpmath.inf else _relative(b_hi - o_lo, o_lo)
    low = math.inf if o_hi == mpmath.inf else _relative(o_hi - b_lo, o_hi)
    if kind is Kind.UPPER:
        return up
    if kind is Kind.LOWER:
        return low
    return min(up, low)


def _fmt_pair(pair: tuple, cap: int) -> tuple[str, str]:
    """An enclosure as printed (:func:`.report.fmt_pair`): at the digits it certifies, at most ``cap``."""
    return fmt_pair(pair[0], pair[1], cap)


def _align(check_case: dict, value, bounds: list, oracles: list) -> tuple[list, list]:
    """For a Curve over a subset of the case's orders, keep the oracle entries of its orders."""
    if isinstance(value, Curve) and "orders" in check_case and len(oracles) == len(check_case["orders"]):
        wanted = [float(o) for o in check_case["orders"]]
        keep = [wanted.index(float(g)) for g in value.grid]
        oracles = [oracles[i] for i in keep]
    if len(bounds) != len(oracles):
        raise ValueError(f"the bound gave {len(bounds)} values, the oracle {len(oracles)}")
    return bounds, oracles


# ----------------------------------------------------------------------------- one task


def shown_status(value) -> tuple[str, str] | None:
    """(status, note) the bound's own Result, Curve or Inapplicable carries (the library's status
    at these parameters, what ``dptheory shuffle``, ``rdp`` and ``report`` show the user), or None
    for bare numbers. A status that depends on the parameters (Girgis et al.'s Corollary 3.2 is
    proven where it is checked to dominate Theorem 3.1) is thus checked under the label the user
    sees. For a list of results with different statuses, the strongest claim (proven) is the one
    checked."""
    items = value if isinstance(value, (list, tuple)) and not (
        len(value) == 2 and not isinstance(value[0], (Result, Curve, Inapplicable, tuple, list))) else [value]
    found = [(str(v.status), getattr(v, "note", "") or "") for v in items
             if isinstance(v, (Result, Curve, Inapplicable))]
    if not found:
        return None
    return next((f for f in found if f[0] == str(Status.PROVEN)), found[0])


def case_status(check, case: dict, value=None) -> dict:
    """The status fields of one case: ``status`` (the bound's own Result's, else the library
    object's at the case), ``general`` (the library's for a general input), ``scope`` (the input
    the status is for, where the two differ) and ``status_note`` (the library's reason)."""
    shown = shown_status(value)
    status, note = shown if shown is not None else check.status_of(case)
    general = str(check.general_of(case))
    status = str(status)
    return dict(status=status, general=general, scope=check.scope(case) if status != general else "",
                status_note=note)


def _label(case: dict) -> str:
    if "label" in case:
        return str(case["label"])
    return ", ".join(f"{k}={v}" for k, v in case.items())


_SKIP = (NotApplicable, ConditionError)


def evaluate(task: tuple) -> Any:
    """Evaluate one task ``(entry, name, case, digits)``: a :class:`CaseOutcome` for a check, an
    :class:`ErratumOutcome` for an erratum (module-level, so that worker processes can run it)."""
    entry, name, case, digits = task
    registry.load()
    if entry == "erratum":
        return _evaluate_erratum(registry.ERRATA[name], case, digits)
    check = registry.CHECKS[name]
    start = time.perf_counter()
    base = dict(name=name, label=_label(case))
    try:
        oracle_kind = check.oracle_of(case)
        base["oracle_kind"] = oracle_kind.tag
        value = check.bound(case)
    except _SKIP as exc:
        return _outcome(check, case, base, None, skipped=str(exc), seconds=time.perf_counter() - start)
    except Exception:  # noqa: BLE001 - a crash is reported as an error of this case
        return _outcome(check, case, base, None, error=traceback.format_exc(limit=3),
                        seconds=time.perf_counter() - start)
    if isinstance(value, Inapplicable):
        return _outcome(check, case, base, value, skipped=value.reason, seconds=time.perf_counter() - start)
    # the comparison at the oracles' precision: their ends are not rounded to a float on the way
    with mpmath.workdps(digits + GUARD):
        try:
            base.update(case_status(check, case, value))
            bounds = bound_intervals(value, check.rtol)
            oracles = oracle_intervals(check.oracle(case, digits))
            bounds, oracles = _align(case, value, bounds, oracles)
            accuracy = _accuracy(check, case, value, digits)
            margins = [margin(check.kind, b, o) for b, o in zip(bounds, oracles)]
            i = int(np.argmin(margins))
            extra = {}
            if accuracy is not None:
                j = int(np.argmin(accuracy[0]))
                extra = dict(accuracy_margin=accuracy[0][j], accuracy_bound=accuracy[1][j],
                             accuracy_value=accuracy[2][j])
            shown = dict(bound=_fmt_pair(bounds[i], FLOAT_DIGITS), oracle=_fmt_pair(oracles[i], digits))
        except Exception:  # noqa: BLE001
            base.setdefault("status", "-")
            return CaseOutcome(**base, error=traceback.format_exc(limit=3), seconds=time.perf_counter() - start)
    return CaseOutcome(**base, margin=margins[i], points=len(margins),
                       violated=margins[i] < 0 or extra.get("accuracy_margin", 0.0) < 0,
                       seconds=time.perf_counter() - start, **shown, **extra)


def _outcome(check, case: dict, base: dict, value, **fields) -> CaseOutcome:
    """A case that was not compared (outside the domain, or crashed), with its status."""
    try:
        base = {**base, **case_status(check, case, value)}
    except Exception:  # noqa: BLE001 - the status itself failed: reported with the case
        base = {**base, "status": "-"}
        fields["error"] = fields.get("error") or traceback.format_exc(limit=3)
    return CaseOutcome(**base, **fields)


def _accuracy(check, case: dict, value, digits: int):
    """(margins, bound ends, evaluation ends) of the second oracle (None where it has none for
    this case): the bound's interval, widened by the accuracy the method states, against the
    independent evaluation of the same quantity; a negative margin where they are disjoint."""
    if check.accuracy is None:
        return None
    evaluated = check.accuracy(case, digits, value)
    if evaluated is None:
        return None
    bounds = bound_intervals(value, check.rtol)
    bounds, evaluated = _align(case, value, bounds, oracle_intervals(evaluated))
    a = mpf(check.accuracy_rtol)
    widened = [(lo - abs(lo) * a, hi + abs(hi) * a) for lo, hi in bounds]
    margins = [margin(Kind.EXACT, b, e) for b, e in zip(widened, evaluated)]
    return (margins, [_fmt_pair(b, FLOAT_DIGITS) for b in bounds], [_fmt_pair(e, digits) for e in evaluated])


def _form_margin(erratum, value, enclosure) -> tuple[float, bool]:
    """(margin, confirmed) of one form against the oracle's enclosure. The margin: the claim's
    side, and with ``within`` the distance to ``within`` times the oracle's value (negative: the
    form fails, the oracle contradicts it). ``confirmed``: the form is shown to hold, not merely
    not contradicted: an upper claim at or above the oracle's upper end (a lower claim at or below
    its lower end), or, with ``within``, inside a two-sided enclosure's band. An oracle that gives
    only one end of the exact value (a lower end, upper = inf) can contradict an upper bound but
    never confirm it, and a transcription check confirms nothing about a bound."""
    kind = Kind.UPPER if erratum.claim == "upper" else Kind.LOWER
    bounds, oracles = bound_intervals(value, erratum.rtol), oracle_intervals(enclosure)
    worst, confirmed = math.inf, erratum.oracle_kind.two_sided
    for b, o in zip(bounds, oracles):
        m = margin(kind, b, o)
        two_sided = mpmath.isfinite(o[0]) and mpmath.isfinite(o[1]) and o[1] > 0 or (o[0] == o[1] == 0)
        if erratum.within is not None and mpmath.isfinite(o[1]):
            if erratum.claim == "upper":
                m = min(m, _relative(erratum.within * o[1] - b[0], erratum.within * o[1]))
            else:
                m = min(m, _relative(b[1] - o[0] / erratum.within, o[0] / erratum.within))
            confirmed = confirmed and two_sided and m >= 0
        elif erratum.claim == "upper":
            confirmed = confirmed and mpmath.isfinite(o[1]) and b[0] >= o[1]
        else:
            confirmed = confirmed and b[1] <= o[0]
        worst = min(worst, m)
    return worst, confirmed and worst >= 0


def _evaluate_erratum(erratum, case: dict, digits: int) -> "ErratumOutcome":
    start = time.perf_counter()
    base = dict(name=erratum.name, label=_label(case))
    try:
        printed = erratum.printed(case)
        corrected = erratum.corrected(case)
        with mpmath.workdps(digits + GUARD):  # the oracle's ends at its own precision
            enclosure = erratum.oracle(case, digits)
            m_printed, _ = _form_margin(erratum, printed, enclosure)
            m_corrected, confirmed = _form_margin(erratum, corrected, enclosure)
            shown = dict(printed=_fmt_pair(bound_intervals(printed)[0], FLOAT_DIGITS),
                         corrected=_fmt_pair(bound_intervals(corrected)[0], FLOAT_DIGITS),
                         oracle=_fmt_pair(oracle_intervals(enclosure)[0], digits))
    except Exception:  # noqa: BLE001
        return ErratumOutcome(**base, error=traceback.format_exc(limit=3), seconds=time.perf_counter() - start)
    return ErratumOutcome(**base, printed_margin=m_printed, corrected_margin=m_corrected,
                          corrected_confirmed=confirmed, seconds=time.perf_counter() - start, **shown)


# ----------------------------------------------------------------------------- running


class _Progress:
    """A progress bar on stderr, drawn only on a terminal."""

    def __init__(self, total: int, enabled: bool):
        self.total, self.done = total, 0
        self.enabled = enabled and sys.stderr.isatty()

    def step(self, text: str = "") -> None:
        self.done += 1
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        sys.stderr.write(f"\rverify [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {text[:30]:<30}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 80 + "\r")
            sys.stderr.flush()


def _run_cases(fn, tasks: list, workers: int | None, progress: _Progress | None = None,
               scheduler: str | None = None) -> list:
    """Results of ``fn`` on every task, in task order: the one place where the cases run.

    Serially in this process by default (and with ``workers=1``), so that checks registered or
    patched at run time (tests) are the ones run; with ``workers`` > 1 or a Dask ``scheduler``,
    through the toolkit's executor (:func:`dptheory.executor.run_tasks`): ``fn`` is the
    module-level :func:`evaluate` and every task is plain data, and worker processes find the
    checks by name after importing :data:`registry.CHECK_MODULES`.
    """
    if (workers is None or workers == 1) and scheduler is None:
        out = []
        for task in tasks:
            out.append(fn(task))
            if progress is not None:
                progress.step(task[1])
        return out
    from ..executor import run_tasks

    step = None if progress is None else (lambda index, _result: progress.step(tasks[index][1]))
    return run_tasks(fn, tasks, workers=workers, scheduler=scheduler, on_result=step)


def tasks(quick: bool = True, digits: int = 50, names=None) -> list[tuple]:
    """Every task of the registered checks and errata (optionally only those in ``names``)."""
    registry.load()
    out = []
    for name, check in registry.CHECKS.items():
        if names is None or name in names:
            out.extend(("check", name, case, digits) for case in check.grid(quick))
    for name, erratum in registry.ERRATA.items():
        if names is None or name in names:
            out.extend(("erratum", name, case, digits) for case in erratum.grid(quick))
    return out


def run(quick: bool = True, digits: int = 50, progress: bool = False, *, workers: int | None = None,
        names=None, scheduler: str | None = None) -> Report:
    """Run every registered check and erratum (or those in ``names``) on its grid (the smaller
    one with ``quick``), the oracles at ``digits`` digits; returns the :class:`Report`.

    ``progress`` draws a progress bar on stderr when stderr is a terminal; ``workers`` (> 1) and
    ``scheduler`` (a Dask address, or "local") run the cases in parallel, as ``dptheory sweep`` does."""
    from .. import validate

    digits = validate.integer("digits", digits, low=15, high=1000)
    if names is not None:
        registry.load()
        unknown = [x for x in names if x not in registry.CHECKS and x not in registry.ERRATA]
        if unknown:
            raise validate.DomainError(f"names = {unknown!r} is invalid: must name registered checks or errata "
                                       f"({', '.join([*registry.CHECKS, *registry.ERRATA])})")
    start = time.perf_counter()
    todo = tasks(quick, digits, names)
    bar = _Progress(len(todo), progress)
    try:
        results = _run_cases(evaluate, todo, workers, bar, scheduler)
    finally:
        bar.close()
    checks = {n: c for n, c in registry.CHECKS.items() if names is None or n in names}
    errata = {n: e for n, e in registry.ERRATA.items() if names is None or n in names}
    oracles = {}
    for entry, name, case, _ in todo:
        kind = registry.CHECKS[name].oracle_of(case) if entry == "check" else registry.ERRATA[name].oracle_kind
        oracles.setdefault(kind.tag, kind.text)
    return Report.build(checks, errata, results, quick=quick, digits=digits, seconds=time.perf_counter() - start,
                        oracles=oracles)
