"""dptheory.verify: the quick run passes and covers every registered check, a planted violation
fails it and names the bound, errata show the printed form failing and the correction holding,
the registry takes a new bound in one line, and the oracles agree with hand computations."""

from __future__ import annotations

import dataclasses
import math

import mpmath
import pytest

from dptheory import profile, verify
from dptheory.results import Kind, Status
from dptheory.shuffle import methods as shuffle_methods
from dptheory.verify import oracles, registry, runner


@pytest.fixture(scope="module")
def quick_report():
    """The quick run, once for the module (in-process)."""
    return verify.run(quick=True)


def test_quick_run_passes_and_every_check_ran(quick_report):
    assert quick_report.passed and quick_report.exit_code == 0
    tried: dict[str, int] = {}
    for row in quick_report.rows:
        tried[row.bound] = tried.get(row.bound, 0) + row.cases
        assert row.errors == 0, row
    assert set(tried) == set(verify.CHECKS)
    assert all(n > 0 for n in tried.values()), {k: v for k, v in tried.items() if not v}
    # every area of the toolkit is covered
    for prefix in ("shuffle/", "shuffle-rdp/", "rdp-to-dp/", "shuffle-rdp-to-dp/", "gdp/", "mechanism/"):
        assert any(name.startswith(prefix) for name in tried), prefix
    assert all(slug in {n.split("/", 1)[1] for n in tried if n.startswith("shuffle/")}
               for slug, m in shuffle_methods.METHODS.items() if m.kind is not Kind.APPROXIMATION)


def test_a_refuted_bound_is_reported_violated_without_failing_the_run(quick_report):
    """The variation-ratio bound at GRR's own beta is refuted: its violation (GRR on 3 options,
    eps0 = 1, n = 2, eps = 0.7: 0.0721 < 0.0860, digest seed-002 §8.4) shows on its own row."""
    rows = {(r.bound, r.status): r for r in quick_report.rows}
    refuted = rows[("shuffle/variation-ratio", "refuted")]
    assert refuted.violations > 0 and refuted.worst_margin < 0 and not refuted.fails
    assert rows[("shuffle/variation-ratio", "proven")].violations == 0
    case = refuted.violated_cases[0]
    assert float(case["bound"][1]) < float(case["oracle"][0])


def test_errata_rows_show_the_printed_form_failing_and_the_correction_holding(quick_report, capsys):
    rows = {e.erratum: e for e in quick_report.errata}
    assert set(rows) == set(verify.ERRATA)
    for name in ("girgis-theorem-3.3", "chen-theorem-1-law", "wang-lemma-4.5", "wang-theorem-4.2",
                 "wang-2023-symmetrization"):
        row = rows[name]
        assert row.verdict == "confirmed", row
        assert row.printed_failures > 0 and row.corrected_failures == 0
        assert row.printed_worst_margin < 0 <= row.corrected_worst_margin
    quick_report.print()
    out = capsys.readouterr().out
    assert "girgis-theorem-3.3" in out and "fails 2/2" in out and "holds 2/2" in out


def _one_percent_low_gdp(monkeypatch):
    original = profile.gdp_delta_result
    shift = math.log(0.99)

    def low(mu, epsilon, *args, **kwargs):
        r = original(mu, epsilon, *args, **kwargs)
        return r.replace(lower=r.lower * 0.99, upper=r.upper * 0.99,
                         log_lower=r.log_lower + shift, log_upper=r.log_upper + shift)

    monkeypatch.setattr(profile, "gdp_delta_result", low)
    return "gdp/delta"


def _one_percent_low_shuffle(monkeypatch):
    m = shuffle_methods.METHODS["stronger-clones"]
    shift = math.log(0.99)

    def low(rz, n, e, tol):
        enc = m.log_delta(rz, n, e, tol)
        return dataclasses.replace(enc, log_lower=enc.log_lower + shift, log_upper=enc.log_upper + shift)

    monkeypatch.setitem(shuffle_methods.METHODS, "stronger-clones", dataclasses.replace(m, log_delta=low))
    return "shuffle/stronger-clones"


@pytest.mark.parametrize("plant", [_one_percent_low_gdp, _one_percent_low_shuffle])
def test_a_proven_bound_one_percent_low_fails_the_run_and_is_named(plant, monkeypatch, capsys):
    name = plant(monkeypatch)
    report = verify.run(quick=True, names=[name])
    assert report.exit_code == 1 and not report.passed
    failing = [r for r in report.rows if r.fails]
    assert [r.bound for r in failing] == [name] and failing[0].status == "proven"
    assert -0.011 < failing[0].worst_margin < 0  # about 1% low
    report.print()
    out = capsys.readouterr().out
    assert f"FAIL: {name}" in out and "violations:" in out


def test_the_unpatched_bound_passes_the_same_cases():
    report = verify.run(quick=True, names=["gdp/delta", "shuffle/stronger-clones"])
    assert report.exit_code == 0


def test_registering_a_check_is_one_line_and_it_runs(monkeypatch):
    monkeypatch.setattr(registry, "CHECKS", dict(registry.CHECKS))
    verify.register_check("test/half", kind="upper", status="proven", cases=[{"x": 1.0}, {"x": 2.0}],
                          bound=lambda c: c["x"] / 2, oracle=lambda c, digits: (c["x"] / 4, c["x"] / 3),
                          source="a test")
    report = verify.run(quick=True, names=["test/half"])
    (row,) = report.rows
    assert (row.bound, row.kind, row.status, row.cases, row.violations) == ("test/half", "upper", "proven", 2, 0)
    assert row.worst_margin == pytest.approx(1.0)  # (1/2 - 1/4) / (1/4)
    assert "test/half" in registry.CHECKS and report.as_dict()["checks"][0]["bound"] == "test/half"


def test_a_crashing_bound_fails_the_run_and_an_inapplicable_one_is_counted(monkeypatch):
    from dptheory.results import NotApplicable

    monkeypatch.setattr(registry, "CHECKS", dict(registry.CHECKS))

    def crash(case):
        raise RuntimeError("boom")

    def outside(case):
        raise NotApplicable("outside the domain")

    verify.register_check("test/crash", kind="upper", status="proven", cases=[{}], bound=crash,
                          oracle=lambda c, d: (0, 1), source="a test")
    verify.register_check("test/outside", kind="upper", status="proven", cases=[{}], bound=outside,
                          oracle=lambda c, d: (0, 1), source="a test")
    report = verify.run(quick=True, names=["test/crash", "test/outside"])
    rows = {r.bound: r for r in report.rows}
    assert rows["test/crash"].errors == 1 and rows["test/crash"].fails
    assert rows["test/outside"].not_applicable == 1 and not rows["test/outside"].fails
    assert report.exit_code == 1
    assert "boom" in report.as_dict()["errors"][0]["error"]


def test_an_approximation_cannot_be_registered_as_a_check():
    from dptheory.validate import DomainError

    with pytest.raises(DomainError, match="approximation"):
        verify.register_check("test/approx", kind=Kind.APPROXIMATION, status=Status.NOT_A_BOUND, cases=[],
                              bound=lambda c: 0, oracle=lambda c, d: (0, 0), source="")


@pytest.mark.parametrize("kind,bound,oracle,violated", [
    (Kind.UPPER, (0.9, 0.99), (1.0, 1.1), True),
    (Kind.UPPER, (0.9, 1.0), (1.0, 1.1), False),       # touching is not a violation
    (Kind.LOWER, (1.11, 1.2), (1.0, 1.1), True),
    (Kind.LOWER, (0.5, 1.2), (1.0, 1.1), False),
    (Kind.EXACT, (1.2, 1.3), (1.0, 1.1), True),
    (Kind.EXACT, (0.8, 0.9), (1.0, 1.1), True),
    (Kind.EXACT, (1.05, 1.3), (1.0, 1.1), False),
    (Kind.UPPER, (0.0, 0.0), (0.0, 0.0), False),
    (Kind.UPPER, (0.0, 1e-320), (mpmath.mpf("1e-400"), mpmath.inf), False),
    (Kind.UPPER, (0.0, 0.0), (mpmath.mpf("1e-400"), mpmath.inf), True),   # 0 below a positive exact value
])
def test_margin_sign(kind, bound, oracle, violated):
    m = runner.margin(kind, tuple(map(mpmath.mpf, bound)), tuple(map(mpmath.mpf, oracle)))
    assert (m < 0) is violated


def test_enumeration_oracle_against_a_hand_computation():
    """delta of binary RR with 2 users: E (E - g)/(E + 1)^2 for eps <= eps0 (E = e^eps0, g =
    e^eps): the histograms (2 zeros, 1, 0 zeros) have P = (E^2, 2E, 1) r^2 and Q = (E, E^2 + 1,
    E) r^2 with r = 1/(E + 1), and only '2 zeros' has P > g Q."""
    e0, e = 1.0, 0.3
    lo, hi = oracles.enumeration("binary-rr", e0, 2, 50).delta(e)
    with mpmath.workdps(60):
        big, g = mpmath.exp(e0), mpmath.exp(e)
        exact = big * (big - g) / (big + 1) ** 2
        assert lo <= exact <= hi and hi - lo < mpmath.mpf(10) ** -45


def test_one_pair_oracle_is_one_of_the_enumerated_pairs():
    """The one-pair lower end equals the enumeration's value on that pair, below the maximum."""
    one = oracles.RRSingleDataset(1.0, 6, 50)
    full = oracles.enumeration("binary-rr", 1.0, 6, 50)
    for e in (0.1, 0.5):
        assert one.delta(e)[0] <= full.delta(e)[1]
    def laws(p, q):
        pairs = sorted(zip((float(x) for x in p), (float(x) for x in q)))
        return [x for pair in pairs for x in pair]  # flat: pytest.approx takes no nesting

    mine = laws(one.p, one.q)
    matches = [pair for pair in full.pairs if laws(*pair) == pytest.approx(mine, rel=1e-13)]
    assert matches  # others all on input 0, the first user on 0 vs 1
    assert one.renyi(2.0)[0] <= full.renyi(2.0)[1]


def test_gaussian_oracles_agree_across_views():
    """The closed-form profile and the sup over the trade-off function give the same delta."""
    for mu, e in ((1.0, 0.5), (2.0, 3.0)):
        lo, hi = oracles.gaussian_delta(mu, e, 50)
        view, _ = oracles.gaussian_delta_tradeoff_view(mu, e, 50)
        assert view <= hi and view >= lo * (1 - mpmath.mpf(10) ** -30)


def test_progress_is_quiet_in_a_pipe(capsys):
    verify.run(quick=True, names=["tradeoff/dp"], progress=True)
    assert capsys.readouterr().err == ""


def test_tradeoff_oracle_of_randomized_response_is_the_eps_dp_tradeoff():
    """T(P, Q) of binary RR's rows is f_{eps0, 0}(alpha) = max{0, 1 - e^eps0 alpha, e^-eps0 (1 - alpha)}."""
    with mpmath.workdps(60):
        p, q = oracles.grr_pmfs(1.0, 2)
        big = mpmath.exp(1)
        for a in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0):
            lo, hi = oracles.tradeoff_value(p, q, a, mpmath.mpf(10) ** -55)
            exact = max(0, 1 - big * a, (1 - a) / big)
            assert lo <= exact <= hi and hi - lo < mpmath.mpf(10) ** -50


def test_one_user_shuffled_is_the_randomizer():
    """With n = 1 the shuffled output is the message: the enumeration's trade-off function and
    composed delta are those of RR itself."""
    for a in (0.05, 0.5):
        lo, hi = oracles.enumeration_tradeoff("binary-rr", 1.0, 1, a, 50)
        with mpmath.workdps(60):
            direct = oracles.tradeoff_value(*oracles.grr_pmfs(1.0, 2), a, mpmath.mpf(10) ** -55)
        assert lo <= direct[1] and direct[0] <= hi and hi - lo < 1e-40
    for rounds in (1, 3):
        composed, _ = oracles.composed_delta_lower("binary-rr", 1.0, 1, rounds, 0.5, 50)
        exact_lo, exact_hi = oracles.rr_composed_delta(1.0, 2, rounds, 0.5, 50)
        assert composed <= exact_hi and exact_lo - composed < mpmath.mpf(10) ** -45
    # one round of the composition is the enumeration's delta
    assert oracles.composed_delta_lower("binary-rr", 1.0, 3, 1, 0.3, 50)[0] <= \
        oracles.enumeration("binary-rr", 1.0, 3, 50).delta(0.3)[1]


def test_rr_composed_delta_against_a_hand_computation():
    """Two rounds of binary RR: outcomes (00, 01, 10, 11) with P = (E^2, E, E, 1)/(E+1)^2 and Q
    reversed; at eps = 0 delta is TV = ((E^2 - 1) + 0 + 0) / (E + 1)^2 = (E - 1)/(E + 1)."""
    lo, hi = oracles.rr_composed_delta(1.0, 2, 2, 0.0, 50)
    with mpmath.workdps(60):
        exact = (mpmath.e - 1) / (mpmath.e + 1)
        assert lo <= exact <= hi


def test_subsampled_gaussian_oracle():
    """At rate 1 the pair is N(1, s^2) vs N(0, s^2) (mu = 1/s GDP); at rate p it agrees with
    mpmath quadrature of the positive part of the densities' difference."""
    lo, hi = oracles.subsampled_gaussian_delta(2.0, 1.0, 0.5, 50, direction="remove")
    g_lo, g_hi = oracles.gaussian_delta(0.5, 0.5, 50)
    assert abs(lo - g_lo) < mpmath.mpf(10) ** -40 and abs(hi - g_hi) < mpmath.mpf(10) ** -40
    with mpmath.workdps(20):
        s, p, g = mpmath.mpf(1), mpmath.mpf("0.1"), mpmath.exp(mpmath.mpf("0.05"))
        mix = lambda x: (1 - p) * mpmath.npdf(x, 0, s) + p * mpmath.npdf(x, 1, s)  # noqa: E731
        for first, second, direction in ((mix, lambda x: mpmath.npdf(x, 0, s), "remove"),
                                         (lambda x: mpmath.npdf(x, 0, s), mix, "add")):
            # the positive part vanishes on one side of a kink: bracket it by bisection on the sign
            diff = lambda x: first(x) - g * second(x)  # noqa: E731
            lo_x, hi_x = mpmath.mpf(-8), mpmath.mpf(8)
            for _ in range(80):
                mid = (lo_x + hi_x) / 2
                if (diff(mid) > 0) == (diff(lo_x) > 0):
                    lo_x = mid
                else:
                    hi_x = mid
            quad = mpmath.quad(lambda x: max(0, diff(x)), [-mpmath.inf, -3, lo_x, 4, mpmath.inf])
            lo, hi = oracles.subsampled_gaussian_delta(1.0, 0.1, 0.05, 30, direction=direction)
            assert abs(quad - lo) < mpmath.mpf(10) ** -12 * quad


def test_gaussian_delta_divergence_oracle():
    assert oracles.gaussian_delta_divergence_lower(1.0, 1.0, 30)[0] == 0
    assert oracles.gaussian_delta_divergence_lower(2.0, 1.0, 30)[0] == 0   # G_2 is below G_1: no regret
    small = oracles.gaussian_delta_divergence_lower(1.0, 1.5, 30)[0]
    large = oracles.gaussian_delta_divergence_lower(1.0, 3.0, 30)[0]
    assert 0 < small < large < 1
    # clause (1) of Theorem 2 at the value found, on a grid: f(alpha + D) - D <= f~(alpha) fails
    # just below it (D is the infimum of such shifts)
    with mpmath.workdps(30):
        def f(mu, a):
            return oracles.gaussian_tradeoff(mu, min(max(a, 0), 1), 30)[0] if a <= 1 else 0

        grid = [mpmath.mpf(i) / 400 for i in range(401)]
        below = large * (1 - mpmath.mpf(10) ** -3)
        assert any(f(1.0, a + below) - below > f(3.0, a) for a in grid)


@pytest.mark.slow
def test_full_grid_passes_and_every_erratum_is_confirmed():
    """The full grid (about 2 minutes of CPU): no proven bound violated, no crash, every check
    tried, every printed erratum failing where its correction holds."""
    report = verify.run(quick=False)
    assert report.passed, [r.bound for r in report.rows if r.fails]
    assert not report.as_dict()["errors"]
    tried: dict[str, int] = {}
    for row in report.rows:
        tried[row.bound] = tried.get(row.bound, 0) + row.cases
    assert all(n > 0 for n in tried.values())
    assert all(e.verdict == "confirmed" for e in report.errata), [(e.erratum, e.verdict) for e in report.errata]


def test_parallel_run_through_the_executor_equals_the_serial_run():
    """--workers 2 runs the cases on the shared executor's process pool: the same report."""
    names = ["gdp/delta", "tradeoff/laplace", "wang-2023-symmetrization"]
    def timeless(value):  # every field but the timings
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if k != "seconds"}
        return [timeless(v) for v in value] if isinstance(value, (list, tuple)) else value

    serial = timeless(verify.run(quick=True, names=names).as_dict())
    parallel = timeless(verify.run(quick=True, names=names, workers=2).as_dict())
    assert parallel == serial and serial["passed"]
