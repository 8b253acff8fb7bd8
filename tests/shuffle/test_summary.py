"""dptheory.shuffle.summary: the one call behind ``dptheory shuffle`` (results, answer and gap)."""

import math

import pytest

from dptheory.results import Kind, Result, Status
from dptheory.shuffle import randomizers as rz
from dptheory.shuffle.methods import compare
from dptheory.results import gap, log_gap
from dptheory.shuffle.summary import ShuffleReport, build_randomizer, shuffle_report
from tests.conftest import raises_naming


def test_report_is_the_comparison_with_its_tightest_proven_ends():
    """The upper end is the smallest proven upper (or exact) bound of the same comparison run by
    hand, the lower end the largest proven lower bound, and the gap their ratio minus 1."""
    methods = ["clones", "variation-ratio", "variation-ratio-labelled", "variation-ratio-lower", "exact"]
    rep = shuffle_report("binary-rr", 20, delta=1e-3, methods=methods, eps0=1.0)
    by_hand = compare(rz.binary_rr(1.0), 20, delta=1e-3, methods=methods)
    ends = lambda rs: [(r.method, getattr(r, "lower", None), getattr(r, "upper", None)) for r in rs]  # noqa: E731
    assert ends(rep.results) == ends(by_hand)
    proven = [r for r in by_hand if isinstance(r, Result) and r.status is Status.PROVEN]
    assert rep.upper.upper == min(r.upper for r in proven if r.kind in (Kind.UPPER, Kind.EXACT))
    assert rep.lower.lower == max(r.lower for r in proven if r.kind in (Kind.LOWER, Kind.EXACT))
    assert rep.gap == pytest.approx(rep.upper.upper / rep.lower.lower - 1, rel=1e-12)
    assert rep.log_gap == pytest.approx(math.log(rep.upper.upper) - math.log(rep.lower.lower), rel=1e-12)
    assert rep.quantity == "epsilon" and rep.parameters["n"] == 20 and rep.parameters["delta"] == 1e-3
    d = rep.as_dict()
    assert set(d) == {"parameters", "summary", "results"} and set(d["summary"]) == {"upper", "lower", "gap", "log_gap"}


def test_gap_of_deltas_far_below_the_float_range_is_taken_in_logs():
    """Upper 1e-33373, lower 1e-37511 (their ends as log ends): the ratio is 10^4138, a log gap
    of 4138 log 10; as a float ratio it does not exist (gap None), and it is never 'none'."""
    log10 = math.log(10.0)
    up = Result.from_log("delta", -33373.1 * log10, -33373 * log10, kind=Kind.UPPER, status=Status.PROVEN,
                         method="u", source="s")
    low = Result.from_log("delta", -37511 * log10, -37510.9 * log10, kind=Kind.LOWER, status=Status.PROVEN,
                          method="l", source="s")
    assert log_gap(up, low) == pytest.approx(4138 * log10, rel=1e-12) and gap(up, low) is None
    assert log_gap(up, None) is None and log_gap(None, low) is None
    zero = Result("delta", 0.0, 0.0, Kind.LOWER, Status.PROVEN, "z", "s")
    assert log_gap(up, zero) is None
    rep = ShuffleReport("delta", {}, (up, low), up, low)
    # the report's log gap from the Results' ends themselves: log upper end - log lower end
    by_ends = up.log_upper - low.log_lower
    assert by_ends == pytest.approx(4138 * log10, rel=1e-12)
    assert rep.log_gap == pytest.approx(by_ends, rel=1e-15) and rep.gap is None
    summary = rep.as_dict()["summary"]
    assert summary["gap"] is None and summary["log_gap"] == pytest.approx(by_ends, rel=1e-15)


def test_bad_randomizer_names_the_parameter():
    with raises_naming("randomizer", "nope"):
        shuffle_report("nope", 10, eps0=1.0)
    with raises_naming("--d"):
        build_randomizer("grr", eps0=1.0)
    assert build_randomizer("grr", eps0=1.0, d=4).name == rz.grr(1.0, 4).name


def test_gap_ratio_is_the_ratio_of_the_conservative_ends_and_inf_past_the_float_range():
    from dptheory.results import Kind, Result, Status
    from dptheory.results import gap, gap_ratio, log_gap

    up = Result("epsilon", 0.9, 1.5, Kind.UPPER, Status.PROVEN, "a", "s")
    low = Result("epsilon", 0.5, 0.7, Kind.LOWER, Status.PROVEN, "b", "s")
    assert gap_ratio(up, low) == pytest.approx(3.0, rel=1e-15) and gap(up, low) == pytest.approx(2.0, rel=1e-15)
    far_up = Result.from_log("delta", -10.0, -9.0, kind=Kind.UPPER, status=Status.PROVEN, method="a", source="s")
    far_low = Result.from_log("delta", -2000.0, -1999.0, kind=Kind.LOWER, status=Status.PROVEN, method="b", source="s")
    assert gap_ratio(far_up, far_low) == float("inf") and log_gap(far_up, far_low) == pytest.approx(1991.0)
    assert gap_ratio(up, None) is None
