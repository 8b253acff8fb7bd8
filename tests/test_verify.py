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
    for name in ("girgis-theorem-3.3", "chen-theorem-1-law", "wang-lemma-4.5", "wang-theorem-4.2"):
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
        return sorted(zip((float(x) for x in p), (float(x) for x in q)))

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
