"""The contract every shuffle bound honours, checked for every registered method and randomizer.

In the style of dp_accounting's ``privacy_accountant_test.py``: one set of properties, run over
every entry of :data:`dptheory.shuffle.METHODS` and every randomizer of
:data:`dptheory.shuffle.randomizers.REGISTRY` (plus random finite eps0-LDP randomizers built
with ``from_pmfs``), on parameters drawn by hypothesis:

* soundness: a proven upper bound is >= the exact value, a lower bound <= it, an exact method's
  interval contains it. The exact value comes from tests/oracles/exact_shuffle.py (enumeration of
  the shuffled histogram at 50 digits over every neighbouring pair of datasets, written
  independently of dptheory/shuffle/exact.py), for the randomizer's mathematical pmfs;
* the near-eps0 regime: epsilon between 1e-12 and 1e-6 relative below eps0, where delta is a
  difference of nearly equal numbers;
* monotonicity: delta(epsilon) non-increasing in epsilon, epsilon(delta) non-increasing in
  delta, both non-decreasing in eps0, and non-increasing in n for the general class. Compared as
  intervals: the two enclosures must be consistent with a monotone exact value (``lower`` of the
  larger value <= ``upper`` of the smaller one is what monotonicity forbids to fail);
* shape: a :class:`Result` with a non-empty, NaN-free interval, the method's kind and status,
  the log ends consistent with the linear ends, ``as_dict`` with its keys; outside a method's
  domain :class:`NotApplicable` (from the method) or :class:`Inapplicable` (from ``compare``),
  never another exception.

Each example checks every method and reports every failure at once (a list of cases), so that
one run shows the whole picture; shrinking is off to keep the run short.
"""

from __future__ import annotations

import json
import math

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from mpmath import mpf

from dptheory.results import Inapplicable, Kind, NotApplicable, Result, Status
from dptheory.shuffle.subject import Shuffled
from dptheory.shuffle import METHODS, compare, randomizers as R
from dptheory.shuffle.randomizers import REGISTRY
from tests.oracles.exact_shuffle import (ShuffleOracle, closed_form_binary_rr_n2, grr_pmfs, matrix_pmfs,
                                         pmfs_of)

# the default run is reproducible (a fixed derivation of examples per test, so CI is not a
# lottery); the slow sweep below draws fresh examples every run
FAST = settings(max_examples=6, deadline=None, derandomize=True,
                phases=(Phase.explicit, Phase.reuse, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=150, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

RESULT_KEYS = {"method", "quantity", "kind", "status", "applicable", "lower", "upper", "source", "note"}
INAPPLICABLE_KEYS = {"method", "kind", "status", "applicable", "source", "note"}


# ----------------------------------------------------------------------------- randomizers


class Case:
    """A randomizer built through the registry (or from pmfs), with its exact pmfs if finite."""

    def __init__(self, rz, exact_pmfs=None, label=None):
        self.rz = rz
        self.exact_pmfs = exact_pmfs
        self.label = label or rz.name
        self._oracles = {}

    def oracle(self, n: int) -> ShuffleOracle:
        if n not in self._oracles:
            self._oracles[n] = ShuffleOracle(self.exact_pmfs, n)
        return self._oracles[n]

    def __repr__(self):
        return f"{self.label}(eps0={self.rz.eps0!r})"


def registry_case(kind: str, eps0: float, **params) -> Case:
    """Build a randomizer by its registry entry, with the oracle's pmfs where it is finite."""
    factory, names = REGISTRY[kind]
    args = [eps0] + [params[name] for name in names[1:]]
    if kind == "local-hash" and "d" in params:
        rz = factory(*args, d_value=params["d"])
        return Case(rz, pmfs_of(kind, eps0, l=params["l"], d=params["d"]), f"local-hash(l={params['l']},d={params['d']})")
    rz = factory(*args)
    finite = {"binary-rr", "grr", "subset-selection", "unary-encoding"}
    return Case(rz, pmfs_of(kind, eps0, **params) if kind in finite else None)


def dyadic_matrix(weights) -> np.ndarray:
    """Rows of positive integer weights scaled to dyadic rationals that sum to exactly 1 (so the
    float matrix is itself a randomizer, entry for entry)."""
    scale = 2**20
    rows = []
    for w in weights:
        w = np.asarray(w, dtype=float)
        ints = np.floor(w / w.sum() * scale)
        ints[np.argmax(ints)] += scale - ints.sum()
        rows.append(ints / scale)
    return np.array(rows)


def true_eps0_up(matrix) -> float:
    """A float >= log of the largest likelihood ratio of a float matrix, computed exactly
    (Fractions, then a 50-digit log rounded up)."""
    from fractions import Fraction

    rows = [[Fraction(float(v)) for v in row] for row in matrix]
    ratio = max(a / b for ra in rows for rb in rows for a, b in zip(ra, rb) if b > 0)
    with mpmath.workdps(50):
        eps0 = mpmath.log(mpf(ratio.numerator) / ratio.denominator)
        f = float(eps0)
        return f if mpf(f) >= eps0 else math.nextafter(f, math.inf)


def random_case(weights) -> Case:
    m = dyadic_matrix(weights)
    return Case(R.from_pmfs(m, name="random"), matrix_pmfs(m), f"random{m.shape}")


EPS0 = st.one_of(st.floats(0.01, 8.0), st.sampled_from([0.01, 0.5, 1.0, 2.0, 4.0, 20.0, 50.0]))
WEIGHTS = st.integers(2, 3).flatmap(
    lambda k: st.integers(2, 4).flatmap(
        lambda m: st.lists(st.lists(st.integers(1, 1000), min_size=m, max_size=m), min_size=k, max_size=k))
).filter(lambda w: len({tuple(row) for row in dyadic_matrix(w)}) > 1)  # p = 1 is not a randomizer to amplify


@st.composite
def finite_cases(draw, eps0=EPS0):
    """A finite randomizer and the largest n its oracle affords in the default run."""
    kind = draw(st.sampled_from(["binary-rr", "grr", "subset-selection", "unary-encoding", "local-hash", "random"]))
    if kind == "random":
        case = random_case(draw(WEIGHTS))
        return case, 5
    e0 = draw(eps0)
    if kind == "binary-rr":
        return registry_case(kind, e0), 6
    if kind == "grr":
        return registry_case(kind, e0, d=draw(st.integers(3, 4))), 4
    if kind == "subset-selection":
        d = draw(st.integers(3, 4))
        return registry_case(kind, e0, d=d, k=draw(st.integers(1, d - 1))), 3
    if kind == "unary-encoding":
        return registry_case(kind, e0, d=2), 4
    return registry_case("local-hash", e0, l=2, d=2), 2


def log_uniform(lo: float, hi: float):
    return st.floats(math.log(lo), math.log(hi)).map(math.exp)


# ----------------------------------------------------------------------------- running a method


class Failures(list):
    def check(self, ok: bool, *what):
        if not ok:
            self.append(" ".join(str(w) for w in what))

    def assert_none(self):
        assert not self, f"{len(self)} failure(s):\n" + "\n".join(self)


def run(method, case: Case, n: int, failures: Failures, *, epsilon=None, delta=None) -> Result | None:
    """The method's Result, or None when it says it does not apply; every contract on the
    Result's shape is checked here, and any exception but NotApplicable is a failure."""
    rz = case.rz
    where = f"{method.name} on {case!r}, n={n}, " + (f"epsilon={epsilon!r}" if delta is None else f"delta={delta!r}")
    applies = method.applies(Shuffled(rz, n))
    reason = method.why_not(Shuffled(rz, n))
    failures.check(applies == (reason is None), where, "applies() disagrees with why_not():", applies, reason)
    try:
        res = method.delta(rz, n, epsilon) if delta is None else method.epsilon(rz, n, delta)
    except NotApplicable as exc:
        failures.check(bool(str(exc)), where, "NotApplicable without a reason")
        return None
    except Exception as exc:  # the contract: nothing else escapes
        failures.append(f"{where}: raised {type(exc).__name__}: {exc}")
        return None
    failures.check(applies, where, "returned a result though why_not() says:", reason)
    check_shape(res, method, rz, failures, where, "delta" if delta is None else "epsilon")
    return res


def check_shape(res, method, rz, failures, where, quantity):
    if not isinstance(res, Result):
        failures.append(f"{where}: returned {type(res).__name__}, not a Result")
        return
    lo, hi = res.lower, res.upper
    failures.check(not (math.isnan(lo) or math.isnan(hi)), where, "NaN end", lo, hi)
    failures.check(lo <= hi, where, "empty interval", lo, hi)
    failures.check(res.quantity == quantity, where, "quantity", res.quantity)
    failures.check(res.kind is method.kind, where, "kind", res.kind, "!=", method.kind)
    failures.check(res.status is method.status(rz), where, "status", res.status, "!=", method.status(rz))
    failures.check(res.method == method.name, where, "method", res.method)
    failures.check(lo >= 0, where, "negative lower end", lo)
    if quantity == "delta":
        failures.check(lo <= 1, where, "delta lower end above 1", lo)
        if res.log_upper is not None:
            llo, lhi = res.log_lower, res.log_upper
            failures.check(not (math.isnan(llo) or math.isnan(lhi)) and llo <= lhi, where, "log interval", llo, lhi)
            # the linear ends are the log ends rounded outwards; a positive upper end never 0
            failures.check(mpf(hi) >= mpmath.exp(mpf(lhi)), where, "upper below exp(log_upper)", hi, lhi)
            failures.check(mpf(lo) <= mpmath.exp(mpf(llo)), where, "lower above exp(log_lower)", lo, llo)
            failures.check(lhi == -math.inf or hi > 0, where, "upper rounded to 0 though log_upper =", lhi)
    d = res.as_dict()
    failures.check(RESULT_KEYS <= set(d), where, "as_dict lacks", RESULT_KEYS - set(d))
    failures.check(d.get("applicable") is True and d.get("kind") == str(method.kind) and d.get("method") == method.name,
                   where, "as_dict fields", d)
    try:
        json.dumps(d)
    except (TypeError, ValueError) as exc:
        failures.append(f"{where}: as_dict not JSON-serialisable: {exc}")


def check_against_exact(res, method, failures, where, wrong_upper, wrong_lower, exact_repr):
    """``wrong_upper(x)``: x is certainly below the exact value; ``wrong_lower(x)``: certainly above."""
    if res is None:
        return
    if (method.kind is Kind.UPPER and res.status is Status.PROVEN) or method.kind is Kind.EXACT:
        failures.check(not wrong_upper(res.upper), where, f"upper {res.upper!r} below the exact value {exact_repr}",
                       f"(interval [{res.lower!r}, {res.upper!r}], {res.status})")
    if method.kind in (Kind.LOWER, Kind.EXACT) and res.status is Status.PROVEN:
        failures.check(not wrong_lower(res.lower), where, f"lower {res.lower!r} above the exact value {exact_repr}",
                       f"(interval [{res.lower!r}, {res.upper!r}])")


def delta_against_exact(case: Case, n: int, e: float, failures: Failures):
    lo, hi = case.oracle(n).delta(e)
    for method in METHODS.values():
        res = run(method, case, n, failures, epsilon=e)
        where = f"{method.name} on {case!r}, n={n}, epsilon={e!r}"
        check_against_exact(res, method, failures, where, lambda x: mpf(x) < lo, lambda x: mpf(x) > hi,
                            mpmath.nstr(lo, 17))


def epsilon_against_exact(case: Case, n: int, d: float, failures: Failures):
    oracle = case.oracle(n)
    for method in METHODS.values():
        res = run(method, case, n, failures, delta=d)
        where = f"{method.name} on {case!r}, n={n}, delta={d!r}"
        if res is None:
            continue
        # upper >= exact epsilon(d) unless delta(upper) > d for sure; lower <= it unless delta(lower) < d
        check_against_exact(res, method, failures, where,
                            lambda x: oracle.certainly_above(x, d), lambda x: oracle.certainly_below(x, d),
                            f"(exact delta at the upper end {mpmath.nstr(oracle.delta(res.upper)[0], 17)}, "
                            f"at the lower end {mpmath.nstr(oracle.delta(res.lower)[0], 17)})")


# ----------------------------------------------------------------------------- the oracle itself


@given(eps0=st.floats(0.01, 10.0), frac=st.floats(0.0, 1.0))
@settings(max_examples=20, deadline=None)
def test_oracle_matches_the_two_user_closed_form(eps0, frac):
    """The enumeration against the hand-derived delta of binary RR with two users."""
    e = eps0 * frac
    oracle = ShuffleOracle(grr_pmfs(eps0, 2), 2)
    want = closed_form_binary_rr_n2(eps0, e)
    lo, hi = oracle.delta(e)
    assert lo <= want <= hi and hi - lo <= mpf(10) ** -45, (eps0, e, lo, hi, want)


def test_oracle_agrees_with_a_second_independent_oracle():
    """tests/oracles/shuffle_oracle.py (written from the paper digest) computes the shuffled law of
    one dataset pair; the worst pair found here has the same delta there."""
    from tests.oracles import shuffle_oracle

    pm = grr_pmfs(1.3, 3)
    oracle = ShuffleOracle(pm, 4)
    value, _, (a, b, counts) = oracle.worst(0.4)
    others = [x for x, c in enumerate(counts) for _ in range(c)]
    with mpmath.workdps(60):
        matrix = [[mpf(v) for v in row] for row in pm]
        other = shuffle_oracle.shuffle_delta(matrix, [a] + others, [b] + others, 0.4, dps=50)
        assert abs(other - value) <= mpf(10) ** -40 * value


def test_oracle_one_user_is_the_randomizers_own_divergence():
    """n = 1: delta is the largest hockey-stick divergence between two rows."""
    pm = pmfs_of("subset-selection", 0.9, d=4, k=2)
    e = 0.35
    with mpmath.workdps(90):
        g = mpmath.exp(mpf(e))
        direct = max(sum(max(mpf(0), x - g * y) for x, y in zip(pm[a], pm[b]))
                     for a in range(4) for b in range(4) if a != b)
    lo, hi = ShuffleOracle(pm, 1).delta(e)
    assert lo <= direct <= hi and hi - lo <= mpf(10) ** -45


# ----------------------------------------------------------------------------- the registry


def test_every_method_and_randomizer_is_covered():
    assert METHODS and REGISTRY
    for slug, m in METHODS.items():
        assert m.name == slug and isinstance(m.kind, Kind) and m.source
    # every registry entry can be built from eps0 and small parameters
    small = {"d": 3, "k": 1, "l": 2}
    for kind, (factory, names) in REGISTRY.items():
        rz = factory(1.0, *[small[x] for x in names[1:]])
        assert rz.eps0 == 1.0 and math.isclose(rz.p, math.e)


# ----------------------------------------------------------------------------- soundness


@FAST
@given(data=st.data())
def test_delta_brackets_the_exact_value(data):
    case, n_max = data.draw(finite_cases(), label="case")
    n = data.draw(st.integers(1, n_max), label="n")
    eps0 = case.rz.eps0
    e = data.draw(st.one_of(st.just(0.0), st.floats(0.0, 1.1 * eps0)), label="epsilon")
    failures = Failures()
    delta_against_exact(case, n, e, failures)
    failures.assert_none()


def test_delta_at_the_extremes_of_eps0():
    """eps0 = 0.01 and 50 (the range of issue 9's sweep) at small n."""
    failures = Failures()
    for case, n, e in [(registry_case("binary-rr", 0.01), 2, 0.001), (registry_case("grr", 0.01, d=3), 3, 0.0),
                       (registry_case("binary-rr", 50.0), 3, 10.0), (registry_case("grr", 50.0, d=3), 2, 49.0),
                       (registry_case("binary-rr", 30.0), 5, 1.0)]:
        delta_against_exact(case, n, e, failures)
    failures.assert_none()


@FAST
@given(data=st.data())
def test_near_eps0_delta_brackets_the_exact_value(data):
    """epsilon = eps0 (1 - r), r in [1e-12, 1e-6]: delta is a difference of nearly equal numbers."""
    case, n_max = data.draw(finite_cases(), label="case")
    n = data.draw(st.integers(2, min(n_max, 4)), label="n")
    r = data.draw(log_uniform(1e-12, 1e-6), label="r")
    e = case.rz.eps0 * (1 - r)
    failures = Failures()
    delta_against_exact(case, n, e, failures)
    failures.assert_none()


def test_near_eps0_cases_of_issue_9():
    """The three near-eps0 failures reported in issue 9, against the exact value."""
    failures = Failures()
    for case, n, e in [(registry_case("binary-rr", 2.0), 2, 1.9999999999999),
                       (registry_case("binary-rr", 8.0), 4, 7.999999999899),
                       (registry_case("grr", 2.0, d=3), 3, 1.99999999999)]:
        delta_against_exact(case, n, e, failures)
    failures.assert_none()


#: every finite registry randomizer, at the sizes the oracle affords (kind, params, n)
NEAR_EPS0_FINITE = [("binary-rr", {}, 5), ("grr", {"d": 3}, 4), ("subset-selection", {"d": 4, "k": 2}, 2),
                    ("unary-encoding", {"d": 2}, 3), ("local-hash", {"l": 2, "d": 2}, 2)]
NEAR_EPS0_R = [1e-12, 1e-9, 1e-6, 1e-3]


def _near_eps0(kind, params, n, eps0, rs, failures):
    """delta at epsilon = eps0 (1 - r) of every method against the exact value; for the general
    class and Laplace (no finite pmfs), every proven upper bound of the general class against
    the exact value of binary randomized response, a member of it."""
    if kind in ("general", "laplace", "optimal-local-hash"):
        member = registry_case("binary-rr", eps0)
        factory, names = REGISTRY[kind]
        rz = factory(eps0, *[params[x] for x in names[1:]])
        case = Case(rz)
        for r in rs:
            e = eps0 * (1 - r)
            lo, _ = member.oracle(n).delta(e)
            for method in METHODS.values():
                res = run(method, case, n, failures, epsilon=e)
                if kind == "general" and res is not None and method.kind is Kind.UPPER and res.status is Status.PROVEN:
                    failures.check(mpf(res.upper) >= lo, method.name, case, n, e, "upper", res.upper,
                                   "below binary-rr's exact", mpmath.nstr(lo, 17))
        return
    case = registry_case(kind, eps0, **params)
    for r in rs:
        delta_against_exact(case, n, eps0 * (1 - r), failures)


@pytest.mark.parametrize("eps0", [1.0, 13.0, 20.0, 50.0])
def test_near_eps0_every_randomizer(eps0):
    """Issue 9 (5): the near-eps0 regime (epsilon = eps0 (1 - r), r from 1e-12 to 1e-3) for EVERY
    registry randomizer up to eps0 = 50, every method against the independent oracle
    (tests/oracles/exact_shuffle.py; binary randomized response for the general class)."""
    failures = Failures()
    for kind, params, n in NEAR_EPS0_FINITE + [("general", {}, 3), ("laplace", {}, 3),
                                                ("optimal-local-hash", {}, 3)]:
        _near_eps0(kind, params, n, eps0, NEAR_EPS0_R, failures)
    failures.assert_none()


def _command_rows(capsys, argv):
    """Run ``dptheory shuffle`` through the command's entry point: exit status 0, no traceback."""
    from dptheory.cli import main

    code = main(["shuffle", *argv, "--json"])
    out = capsys.readouterr()
    assert code == 0 and "Traceback" not in out.err, (argv, out.err[-2000:])
    return json.loads(out.out)["results"]


def _rows_consistent(rows, failures, where, exact=None):
    """Every proven lower end below every proven upper end, and both sides of ``exact``, an
    (lo, hi) enclosure of the exact value from the oracle, if given."""
    proven = [r for r in rows if r.get("applicable") and r["status"] == "proven"]
    uppers = [r for r in proven if r["kind"] in ("upper", "exact")]
    lowers = [r for r in proven if r["kind"] in ("lower", "exact")]
    for r in proven:
        failures.check(0 <= r["lower"] <= r["upper"] <= 1, where, r["method"], "interval", r["lower"], r["upper"])
    for lo_row in lowers:
        for up_row in uppers:
            failures.check(lo_row["lower"] <= up_row["upper"], where, lo_row["method"], "lower", lo_row["lower"],
                           "above", up_row["method"], "upper", up_row["upper"])
    if exact is not None:
        lo, hi = exact
        for r in uppers:
            failures.check(mpf(r["upper"]) >= lo, where, r["method"], "upper", r["upper"], "below the exact", lo)
        for r in lowers:
            failures.check(mpf(r["lower"]) <= hi, where, r["method"], "lower", r["lower"], "above the exact", hi)


def test_command_near_eps0_cases_of_issue_9(capsys):
    """Issue 9, defects 1 and 2: at eps0 = 20..50, epsilon within 1e-9 relative of eps0, the
    command raised "empty interval" (a float enclosure that missed the truth, intersected with the
    mpmath one), and variation-ratio-lower was above the exact value. Through the command: exit 0,
    and every row on its side of the exact value (tests/oracles/exact_shuffle.py) where n is small
    enough for the oracle, of every proven upper bound otherwise."""
    failures = Failures()
    grr = registry_case("grr", 20.0, d=3)
    for e in (19.986880190786845, 19.99999999686572):
        argv = ["--randomizer", "grr", "--d", "3", "--eps0", "20", "--n", "4", "--epsilon", repr(e)]
        _rows_consistent(_command_rows(capsys, argv), failures, argv, exact=grr.oracle(4).delta(e))
    for argv in (["--randomizer", "unary-encoding", "--d", "4", "--eps0", "50", "--n", "10",
                  "--epsilon", "49.999999994999996"],
                 ["--randomizer", "subset-selection", "--d", "5", "--k", "2", "--eps0", "35", "--n", "10",
                  "--epsilon", "34.99999999720006"]):
        _rows_consistent(_command_rows(capsys, argv), failures, argv)
    failures.assert_none()


@FAST
@given(data=st.data())
def test_epsilon_brackets_the_exact_value(data):
    case, n_max = data.draw(finite_cases(), label="case")
    n = data.draw(st.integers(1, n_max), label="n")
    d = data.draw(st.one_of(log_uniform(1e-300, 0.5), st.sampled_from([1e-300, 1e-12, 1e-6, 0.5])), label="delta")
    failures = Failures()
    epsilon_against_exact(case, n, d, failures)
    failures.assert_none()


@FAST
@given(data=st.data())
def test_general_class_dominates_its_members(data):
    """A bound for every eps0-LDP randomizer is >= the exact delta of each member: binary RR at
    eps0, and a random finite randomizer whose largest ratio is at most e^eps0."""
    weights = data.draw(WEIGHTS, label="weights")
    member = random_case(weights)
    eps0 = true_eps0_up(member.rz.pmfs)   # the member's largest ratio is <= e^eps0, exactly
    general = Case(R.general_ldp(eps0))
    brr = registry_case("binary-rr", eps0)
    n = data.draw(st.integers(1, 4), label="n")
    near = data.draw(st.booleans(), label="near eps0")
    e = eps0 * (1 - data.draw(log_uniform(1e-12, 1e-6))) if near else data.draw(st.floats(0.0, eps0))
    exact = max(member.oracle(n).delta(e)[0], brr.oracle(n).delta(e)[0])  # lower ends
    failures = Failures()
    for method in METHODS.values():
        res = run(method, general, n, failures, epsilon=e)
        if res is not None and method.kind is Kind.UPPER and res.status is Status.PROVEN:
            failures.check(mpf(res.upper) >= exact, f"{method.name} on general(eps0={eps0!r}), n={n}, epsilon={e!r}:",
                           f"upper {res.upper!r} below the exact delta of a member {mpmath.nstr(exact, 17)}")
    failures.assert_none()


def test_laplace_bounds_dominate_a_post_processing():
    """Binning the Laplace mechanism's output is a post-processing: the shuffled delta of the
    binned randomizer (inputs 0 and 1, thresholds 0, 1/2, 1) is at most the Laplace one, so a
    proven upper bound for Laplace is >= it."""
    eps0 = 1.0

    def cdf(t, x):  # Laplace(x, 1/eps0)
        z = eps0 * (mpf(t) - x)
        return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2

    with mpmath.workdps(80):
        cuts = [mpf(0), mpf(1) / 2, mpf(1)]
        rows = []
        for x in (0, 1):
            c = [cdf(t, x) for t in cuts]
            rows.append([c[0], c[1] - c[0], c[2] - c[1], 1 - c[2]])
    case = Case(R.laplace(eps0), rows, "laplace")
    failures = Failures()
    for n, e in [(2, 0.2), (3, 0.05), (3, 0.5)]:
        exact = case.oracle(n).delta(e)[0]  # its lower end
        for method in METHODS.values():
            res = run(method, case, n, failures, epsilon=e)
            if res is not None and method.kind is Kind.UPPER and res.status is Status.PROVEN:
                failures.check(mpf(res.upper) >= exact, method.name, n, e, res.upper, "<", exact)
    failures.assert_none()


# ----------------------------------------------------------------------------- monotonicity


def _all_registry_case(draw, eps0):
    kind = draw(st.sampled_from(sorted(REGISTRY)))
    params = {"d": 3, "k": draw(st.integers(1, 2)), "l": draw(st.integers(2, 4))}
    return registry_case(kind, eps0, **{k: params[k] for k in REGISTRY[kind][1][1:]})


def _monotone(method, lo_res, hi_res, failures, what):
    """``hi_res`` is at the parameter where the exact value is at least as large: its upper end
    may not be below ``lo_res``'s lower end."""
    if lo_res is None or hi_res is None:
        return
    failures.check(hi_res.upper >= lo_res.lower, method.name, what,
                   f"[{hi_res.lower!r}, {hi_res.upper!r}] should be >= [{lo_res.lower!r}, {lo_res.upper!r}]")


@FAST
@given(data=st.data())
def test_monotone_in_epsilon_and_delta(data):
    eps0 = data.draw(EPS0, label="eps0")
    case = _all_registry_case(data.draw, eps0)
    n = data.draw(st.sampled_from([1, 2, 3, 5, 10, 100, 10_000]), label="n")
    e1, e2 = sorted(data.draw(st.lists(st.floats(0.0, 1.1 * eps0), min_size=2, max_size=2), label="epsilons"))
    d1, d2 = sorted(data.draw(st.lists(log_uniform(1e-300, 0.5), min_size=2, max_size=2), label="deltas"))
    failures = Failures()
    for method in METHODS.values():
        if method.name == "exact" and n > 5:
            continue
        r1, r2 = run(method, case, n, failures, epsilon=e1), run(method, case, n, failures, epsilon=e2)
        _monotone(method, r2, r1, failures, f"{case!r} n={n}: delta({e1!r}) vs delta({e2!r})")
        s1, s2 = run(method, case, n, failures, delta=d1), run(method, case, n, failures, delta=d2)
        _monotone(method, s2, s1, failures, f"{case!r} n={n}: epsilon({d1!r}) vs epsilon({d2!r})")
    failures.assert_none()


@FAST
@given(data=st.data())
def test_monotone_in_eps0(data):
    """A larger eps0 is a larger class (general) or a randomizer of which the smaller one is a
    post-processing (randomized response): delta and epsilon cannot decrease."""
    kind = data.draw(st.sampled_from(["general", "binary-rr", "grr"]), label="kind")
    a, b = sorted(data.draw(st.lists(st.floats(0.05, 8.0), min_size=2, max_size=2, unique=True), label="eps0s"))
    small, big = (registry_case(kind, x, d=3) if kind == "grr" else registry_case(kind, x) for x in (a, b))
    n = data.draw(st.sampled_from([2, 3, 5, 50, 5000]), label="n")
    e = data.draw(st.floats(0.0, a), label="epsilon")
    d = data.draw(log_uniform(1e-300, 0.5), label="delta")
    failures = Failures()
    for method in METHODS.values():
        if method.name == "exact" and n > 5:
            continue
        _monotone(method, run(method, small, n, failures, epsilon=e), run(method, big, n, failures, epsilon=e),
                  failures, f"{kind} n={n} epsilon={e!r}: eps0 {a!r} vs {b!r}")
        _monotone(method, run(method, small, n, failures, delta=d), run(method, big, n, failures, delta=d),
                  failures, f"{kind} n={n} delta={d!r}: eps0 {a!r} vs {b!r}")
    failures.assert_none()


@FAST
@given(data=st.data())
def test_general_class_monotone_in_n(data):
    """More users, more privacy: for the class of all eps0-LDP randomizers the exact delta and
    epsilon are non-increasing in n (an extra user's message is a post-processing)."""
    eps0 = data.draw(EPS0, label="eps0")
    case = Case(R.general_ldp(eps0))
    n1, n2 = sorted(data.draw(st.lists(st.integers(1, 2000), min_size=2, max_size=2, unique=True), label="ns"))
    e = data.draw(st.floats(0.0, 1.1 * eps0), label="epsilon")
    d = data.draw(log_uniform(1e-300, 0.5), label="delta")
    failures = Failures()
    for method in METHODS.values():
        _monotone(method, run(method, case, n2, failures, epsilon=e), run(method, case, n1, failures, epsilon=e),
                  failures, f"general(eps0={eps0!r}) epsilon={e!r}: n {n1} vs {n2}")
        _monotone(method, run(method, case, n2, failures, delta=d), run(method, case, n1, failures, delta=d),
                  failures, f"general(eps0={eps0!r}) delta={d!r}: n {n1} vs {n2}")
    failures.assert_none()


# ----------------------------------------------------------------------------- domains


OUTSIDE = [R.balls_into_bins(16, 2, blankets=3), R.cheu_zhilyaev(0.2, blankets=10), R.mixdump(0.1, 10, blankets=2),
           R.pure_dump(10, 2), R.balcer_cheu(0.25, 3), R.metric_laplace(0.5, 2.0), R.metric_general(0.5, 2.0),
           R.privunit(1.0, 0.3), R.hadamard(1.0, 16, 4), R.wheel(1.0, 2, 0.2)]


@FAST
@given(data=st.data())
def test_outside_the_domain_is_not_applicable(data):
    """Every method on every randomizer (the multi-message and metric ones included) either
    returns a well-formed Result or raises NotApplicable; compare() turns the latter into an
    Inapplicable row with the reason and its own keys."""
    use_registry = data.draw(st.booleans(), label="registry")
    if use_registry:
        case = _all_registry_case(data.draw, data.draw(EPS0, label="eps0"))
    else:
        case = Case(data.draw(st.sampled_from(OUTSIDE), label="randomizer"))
    n = data.draw(st.sampled_from([1, 2, 3, 5, 10, 1000]), label="n")
    d = data.draw(st.one_of(log_uniform(1e-300, 0.5), st.sampled_from([1e-300, 0.5])), label="delta")
    e = data.draw(st.one_of(st.floats(0.0, 60.0), st.just(0.0)), label="epsilon")
    failures = Failures()
    for method in METHODS.values():
        if method.name == "exact" and n > 5:
            continue
        run(method, case, n, failures, delta=d)
        run(method, case, n, failures, epsilon=e)
    slugs = [s for s in METHODS if not (s == "exact" and n > 5)]
    for kw in ({"delta": d}, {"epsilon": e}):
        try:
            rows = compare(case.rz, n, methods=slugs, **kw)
        except Exception as exc:
            failures.append(f"compare({case!r}, n={n}, {kw}) raised {type(exc).__name__}: {exc}")
            continue
        failures.check([r.method for r in rows] == slugs, "compare rows", [r.method for r in rows])
        for row in rows:
            d_ = row.as_dict()
            if isinstance(row, Inapplicable):
                failures.check(INAPPLICABLE_KEYS <= set(d_) and d_["applicable"] is False
                               and d_["note"].startswith("not applicable: ") and len(d_["note"]) > 16,
                               row.method, kw, "Inapplicable row", d_)
            else:
                failures.check(isinstance(row, Result) and RESULT_KEYS <= set(d_), row.method, kw, "row", d_)
    failures.assert_none()


# ----------------------------------------------------------------------------- the larger sweep


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_slow_delta_and_epsilon_bracket_the_exact_value(data):
    case, n_max = data.draw(finite_cases(), label="case")
    n = data.draw(st.integers(1, n_max + 2), label="n")
    failures = Failures()
    eps0 = case.rz.eps0
    e = data.draw(st.one_of(st.floats(0.0, 1.1 * eps0),
                            log_uniform(1e-12, 1e-6).map(lambda r: eps0 * (1 - r))), label="epsilon")
    delta_against_exact(case, n, e, failures)
    d = data.draw(log_uniform(1e-300, 0.5), label="delta")
    epsilon_against_exact(case, n, d, failures)
    failures.assert_none()


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 5, 10, 10**6, 10**12])
@pytest.mark.parametrize("eps0", [0.01, 1.0, 4.0, 20.0, 50.0])
def test_slow_sweep_of_issue_9_is_not_applicable_or_well_formed(n, eps0):
    """Issue 9's sweep (small and huge n, eps0 from 0.01 to 50, delta from 1e-300 to 0.5) on
    every registry randomizer and method: a well-formed Result or NotApplicable, nothing else."""
    failures = Failures()
    small = {"d": 3, "k": 1, "l": 2}
    for kind, (factory, names) in REGISTRY.items():
        case = Case(factory(eps0, *[small[x] for x in names[1:]]))
        for method in METHODS.values():
            if method.name == "exact" and n > 5:
                continue
            for d in (1e-300, 1e-3, 0.5):
                run(method, case, n, failures, delta=d)
            for e in (0.0, eps0 * (1 - 1e-9)):
                run(method, case, n, failures, epsilon=e)
    failures.assert_none()


# ----------------------------------------------------------------------------- the one contract
from tests.contract import NotionContract  # noqa: E402
from tests.oracles.exact_shuffle import pmfs_of  # noqa: E402
from dptheory.shuffle.subject import Shuffled  # noqa: E402


class TestShuffleContract(NotionContract):
    """The contract of every notion (tests/contract.py) for the shuffle (epsilon, delta) methods:
    the exact profile of the shuffled output by enumeration (tests/oracles/exact_shuffle.py) for
    binary randomized response and GRR; for the general eps0-LDP class, binary randomized
    response's exact value is a lower end of the class's (it is a member)."""

    notion = "shuffle"
    _SMALL = [("binary-rr", 1.0, 5, {}), ("grr", 1.0, 4, {"d": 3}), ("general", 1.0, 5, {}), ("binary-rr", 2.0, 6, {})]

    def subjects(self):
        small = [Shuffled(R.general_ldp(e0) if kind == "general" else
                          R.grr(e0, params["d"]) if kind == "grr" else R.binary_rr(e0), n)
                 for kind, e0, n, params in self._SMALL]
        # beyond the oracle's reach, where the closed forms' conditions hold
        return small + [Shuffled(R.general_ldp(0.4), 10**5)]

    def outside(self):
        return [Shuffled(R.binary_rr(1.0), 1), Shuffled(R.laplace(1.0), 3)]

    def points(self, subject, quantity):
        return {"delta": [0.05, 0.3, 0.9], "epsilon": [1e-6, 1e-3, 0.05]}[quantity]

    def options(self, method, quantity):
        return {"rtol": 1e-6}

    def oracle(self, subject, quantity, at):
        if subject.n > 6:
            return None
        rz = subject.randomizer
        kind = "binary-rr" if rz.name in ("general", "binary-rr") else "grr"
        oracle = ShuffleOracle(pmfs_of(kind, rz.eps0, d=3) if kind == "grr" else pmfs_of(kind, rz.eps0), subject.n)
        if quantity == "delta":
            lo, hi = oracle.delta(at)
        else:
            from tests.shuffle.rdp.test_contract import epsilon_enclosure

            lo, hi = epsilon_enclosure(oracle, at)
        return lo, (mpf("inf") if rz.name == "general" else hi)
