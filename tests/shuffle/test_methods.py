"""The shuffle API and command: published numbers, auto selection, kinds and statuses, bad input."""

import json
import math

import pytest

from dptheory import shuffle
from dptheory.shuffle.subject import Shuffled
from dptheory.cli import main
from dptheory.results import Inapplicable, Kind, Result, Status
from dptheory.shuffle import methods
from dptheory.shuffle import blanket, randomizers as R
from dptheory.validate import DomainError
from tests.conftest import raises_naming
from tests.shuffle.test_exact import brute_worst

import mpmath


def test_clone_bound_against_a_direct_sum():
    """n = 1e5, eps0 = 4, delta = 1e-6 (the example of issue 3). The clone pair's delta is
    sum_c Bin(c; n-1, e^-eps0) sum_a (P_c(a) - e^eps Q_c(a))_+, summed here directly with scipy.
    The exact bound is 0.16977; the published code's step-100 blocks give 0.17542 (0.17279 with
    its repeated-endpoint bug): both are above the exact value, the block approximation is 3% loose."""
    from scipy.stats import binom
    import numpy as np

    n, e0, delta = 10**5, 4.0, 1e-6
    res = shuffle.epsilon(R.general_ldp(e0), n, delta, method="clones", rtol=1e-7)
    assert res.kind is Kind.UPPER and res.status is Status.PROVEN
    th = math.exp(e0) / (math.exp(e0) + 1)
    cs = np.arange(900, 2800)  # Bin(n-1, e^-4) has mean 1832, sd 42: the rest is below 1e-40

    def direct(eps):
        g, total = math.exp(eps), 0.0
        for c, wc in zip(cs, binom.pmf(cs, n - 1, math.exp(-e0))):
            a = np.arange(c + 2)
            b, bm1 = binom.pmf(a, c, 0.5), binom.pmf(a - 1, c, 0.5)
            total += wc * np.maximum(th * bm1 + (1 - th) * b - g * ((1 - th) * bm1 + th * b), 0).sum()
        return total

    assert direct(res.lower) > delta >= direct(res.upper) * (1 - 1e-9)
    assert abs(res.upper - 0.16977) < 5e-5 and res.upper < 0.17279 < 0.17542


@pytest.mark.parametrize("bound,kind,k,printed", [
    ("hoeffding", "generic", None, 0.05746), ("bennett", "generic", None, 0.11302),
    ("hoeffding", "rr", 2, 0.02398), ("bennett", "rr", 2, 0.02428),
    ("hoeffding", "laplace", None, 0.02423), ("bennett", "laplace", None, 0.02281),
    ("hoeffding", "rr", 100, 0.02688), ("bennett", "rr", 100, 0.00352),
])
def test_privacy_blanket_reproduces_the_authors_notebook(bound, kind, k, printed):
    """Balle et al.'s notebook (n = 5000, eps0 = 0.4, delta = 1e-6) prints these values."""
    lo, hi = blanket.epsilon(bound, kind, 0.4, 5000, 1e-6, k)
    assert abs(hi - printed) <= 5e-6 + 1e-9


def test_erlingsson_closed_form():
    """EFMRTT19: 12 eps0 sqrt(log(1/delta)/n); 0.2523130449 at n = 5000, eps0 = 0.4, delta = 1e-6
    (the value printed by Balle et al.'s notebook)."""
    res = shuffle.epsilon(R.general_ldp(0.4), 5000, 1e-6, method="efmrtt19")
    exact = 12 * 0.4 * math.sqrt(math.log(1e6) / 5000)
    assert res.lower <= exact <= res.upper and res.upper - res.lower < 1e-10
    assert abs(res.upper - 0.2523130449483328) < 1e-10
    with pytest.raises(DomainError, match="epsilon_{0}"):
        shuffle.epsilon(R.general_ldp(1.0), 5000, 1e-6, method="efmrtt19")


def test_auto_picks_the_tightest_proven_upper_bound():
    g = R.general_ldp(1.0)
    res = shuffle.epsilon(g, 10**6, 1e-8)
    assert res.kind is Kind.UPPER and res.status is Status.PROVEN
    others = [shuffle.epsilon(g, 10**6, 1e-8, method=m) for m in ("clones", "blanket-bennett", "variation-ratio-labelled")]
    assert res.upper <= min(o.upper for o in others) * (1 + 1e-12)
    # a small n with pmfs: the exact value
    small = shuffle.epsilon(R.grr(1.0, 3), 4, 1e-3)
    assert small.kind is Kind.EXACT and small.method == "exact"
    d = shuffle.delta(g, 10**5, 0.05)
    assert d.quantity == "delta" and d.status is Status.PROVEN and d.lower <= d.upper


def test_tiny_delta_keeps_its_logarithm_and_a_positive_upper_end():
    res = shuffle.delta(R.general_ldp(1.0), 10**6, 0.5, method="clones")
    assert res.quantity == "delta" and res.log_upper < -700
    # the upper end is rounded up, never to 0 (issue 9, defect 4)
    assert res.upper > 0 and res.lower <= res.upper


def test_results_are_monotone_in_n():
    g = R.general_ldp(2.0)
    eps = [shuffle.epsilon(g, n, 1e-6, method="variation-ratio").upper for n in (10**3, 10**4, 10**5, 10**6)]
    assert all(a > b for a, b in zip(eps, eps[1:]))


def test_bad_inputs():
    g = R.general_ldp(1.0)
    with raises_naming("n", "[1, inf]"):
        shuffle.epsilon(g, 0, 1e-6)
    with raises_naming("delta", "(0, 1)"):
        shuffle.epsilon(g, 100, 1.0)
    with raises_naming("method"):
        shuffle.epsilon(g, 100, 1e-6, method="magic")
    with raises_naming("epsilon"):
        shuffle.delta(g, 100, -1.0)
    with raises_naming("eps0", "[1e-06, 300]"):
        R.general_ldp(-1.0)
    with pytest.raises(shuffle.NotApplicable, match="single-message"):
        shuffle.epsilon(R.balls_into_bins(16, 2, 3), 100, 1e-6, method="clones")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_command_json_rows(capsys):
    code, out, _ = run(capsys, "shuffle", "--eps0", "1", "--n", "1e6", "--delta", "1e-8", "--json")
    data = json.loads(out)
    rows = data["results"]
    assert code == 0
    assert {r["method"] for r in rows} >= {"variation-ratio", "variation-ratio-lower", "variation-ratio-analytic",
                                          "variation-ratio-asymptotic", "clones", "clones-closed-form",
                                          "stronger-clones", "exact"}
    g = R.general_ldp(1.0)
    for r in rows:
        assert set(r) >= {"method", "kind", "status", "applicable", "source", "note"}
        # each row carries its method record's kind and status (set in one place)
        method = shuffle.METHODS[r["method"]]
        assert r["kind"] == str(method.kind) and r["status"] == str(method.status(g)), r
        if r["applicable"]:
            assert 0 <= r["lower"] <= r["upper"] <= 1.0, r
    by = {r["method"]: r for r in rows}
    assert not by["exact"]["applicable"] and "pmfs" in by["exact"]["note"]
    assert by["variation-ratio-lower"]["upper"] <= by["clones"]["lower"]
    # the answer first: the tightest proven upper bound and the best lower bound
    summary = data["summary"]
    assert summary["upper"]["method"] == "variation-ratio-labelled"
    assert summary["lower"]["method"] == "variation-ratio-lower"
    assert summary["lower"]["lower"] <= summary["upper"]["upper"]


def test_command_small_n_has_exact_and_delta_mode(capsys):
    code, out, _ = run(capsys, "shuffle", "--randomizer", "grr", "--d", "3", "--n", "4", "--eps0", "1",
                       "--epsilon", "0.3", "--json")
    rows = {r["method"]: r for r in json.loads(out)["results"]}
    # the exact row against an independent enumeration of every dataset and output sequence
    with mpmath.workdps(30):
        ref = brute_worst(R.grr(1.0, 3), 4, 0.3)
    assert rows["exact"]["applicable"] and rows["exact"]["lower"] <= ref <= rows["exact"]["upper"]
    assert rows["exact"]["upper"] - rows["exact"]["lower"] <= 1e-12
    assert rows["variation-ratio"]["status"] == "refuted"
    assert rows["variation-ratio-labelled"]["upper"] >= rows["exact"]["lower"]


def _binary_rr_delta(eps0, n, others_ones, epsilon):
    """delta(epsilon) of n shuffled users of binary randomized response, victim input 1 against 0,
    ``others_ones`` of the other users with input 1 (the rest 0): a direct sum over the count of
    1s with scipy (independent of dptheory's pairs). One dataset of a member of the general
    eps0-LDP class, so the class's epsilon(delta) is at least this dataset's."""
    import numpy as np
    from scipy.signal import fftconvolve
    from scipy.stats import binom

    th = math.exp(eps0) / (1 + math.exp(eps0))
    c = others_ones
    ones = binom.pmf(np.arange(c + 1), c, th)
    zeros = binom.pmf(np.arange(n - c), n - 1 - c, 1 - th)
    b = np.maximum(fftconvolve(ones, zeros), 0.0) if 0 < c < n - 1 else (ones if c else zeros)
    bm1, b0 = np.concatenate([[0.0], b]), np.concatenate([b, [0.0]])
    p_law, q_law = th * bm1 + (1 - th) * b0, (1 - th) * bm1 + th * b0
    return float(np.maximum(p_law - math.exp(epsilon) * q_law, 0.0).sum())


def test_bare_command_runs_the_default_job(capsys):
    """The default job (general eps0 = 1, n = 1e6, delta = 1e-8): its answer against an
    independent reference, binary randomized response (a member of the class) summed directly.
    The proven upper bound must leave every dataset's delta at most 1e-8 (0 or n-1 others with
    input 1: 1.5e-10 at the upper end 0.00501); the proven lower bound must have a dataset above
    1e-8 (all others with input 1: 1.00006e-8 at the lower end 0.0041054, where the lower bound
    is tight)."""
    code, out, _ = run(capsys)
    assert code == 0 and "variation-ratio" in out and "delta = 1e-08" in out
    code, out, _ = run(capsys, "shuffle", "--json")
    data = json.loads(out)
    assert code == 0 and data["parameters"]["n"] == 10**6 and data["parameters"]["delta"] == 1e-8
    upper, lower = data["summary"]["upper"], data["summary"]["lower"]
    assert upper["kind"] == "upper" and upper["status"] == "proven" and lower["kind"] == "lower"
    n = 10**6
    for c in (0, n - 1):
        assert _binary_rr_delta(1.0, n, c, upper["upper"]) <= 1e-8
    assert _binary_rr_delta(1.0, n, n - 1, lower["lower"]) > 1e-8
    assert lower["lower"] <= upper["upper"] <= 1.3 * lower["lower"]


@pytest.mark.parametrize("argv,fragment", [
    (["shuffle", "--n", "0"], "n = 0"),
    (["shuffle", "--eps0", "-1"], "eps0 = -1.0"),
    (["shuffle", "--delta", "1.5"], "delta = 1.5"),
    (["shuffle", "--randomizer", "grr"], "needs --d"),
    (["shuffle", "--methods", "nope"], "method = 'nope'"),
])
def test_command_bad_input(capsys, argv, fragment):
    code, _, err = run(capsys, *argv)
    assert code == 2 and fragment in err


def test_auto_skips_what_it_cannot_finish_and_says_so():
    """GRR on 8 options at n = 10: the exact epsilon needs an inversion over 162 datasets of up
    to 19448 histograms (estimated above the budget): auto skips it, names it in the note, and
    returns a proven upper bound; delta(epsilon) needs one evaluation and stays exact."""
    rz = R.grr(1.0, 8)
    assert shuffle.METHODS["exact"].cost(Shuffled(rz, 10), "epsilon") > methods.BUDGET_SECONDS
    res = shuffle.epsilon(rz, 10, 1e-3)
    assert res.method != "exact" and res.status is Status.PROVEN and res.kind is Kind.UPPER
    assert "skipped" in res.note and "exact" in res.note and "estimated" in res.note
    d = shuffle.delta(rz, 5, 0.3)
    assert d.method == "exact" and "skipped" not in d.note


def test_compare_reports_a_skipped_method_unless_named(monkeypatch):
    rz = R.grr(1.0, 3)
    monkeypatch.setattr(methods, "BUDGET_SECONDS", 1e-9)
    rows = {r.method: r for r in shuffle.compare(rz, 4, epsilon=0.3)}
    assert isinstance(rows["exact"], Inapplicable)
    assert "skipped for cost" in rows["exact"].reason and "estimated" in rows["exact"].reason
    assert rows["exact"].params["estimated_seconds"] > 1e-9
    named = shuffle.compare(rz, 4, epsilon=0.3, methods=["exact"])
    assert isinstance(named[0], Result) and named[0].kind is Kind.EXACT
    # auto skips it too, and says so
    res = shuffle.delta(rz, 4, 0.3)
    assert res.method != "exact" and "auto skipped exact" in res.note


def test_the_exact_row_of_binary_rr_runs_unasked_at_large_n():
    """A user of shuffled binary randomized response came for its exact epsilon: at n = 1e5 the
    certified search is estimated above the general budget and below the exact method's own, so
    it runs without being named (and auto returns it); the general class has no exact row."""
    rz, n = R.binary_rr(1.0), 10**5
    subject = Shuffled(rz, n)
    assert methods.BUDGET_SECONDS < shuffle.METHODS["exact"].cost(subject, "epsilon") <= methods.OWN_EXACT_BUDGET_SECONDS
    rows = {r.method: r for r in shuffle.compare(rz, n, delta=1e-8, methods=None)}
    assert isinstance(rows["exact"], Result) and rows["exact"].kind is Kind.EXACT
    assert shuffle.epsilon(rz, n, 1e-8).method == "exact"
    assert shuffle.METHODS["exact"].budget(Shuffled(R.general_ldp(1.0), n)) == methods.BUDGET_SECONDS


def test_auto_picks_only_proven_bounds():
    """GRR on 10 options: the paper's variation-ratio bound at its own beta is refuted and tighter
    than every proven bound; auto must not return it."""
    rz = R.grr(1.0, 10)
    refuted = shuffle.epsilon(rz, 10**5, 1e-6, method="variation-ratio")
    assert refuted.status is Status.REFUTED
    res = shuffle.epsilon(rz, 10**5, 1e-6)
    assert res.status is Status.PROVEN and res.method != "variation-ratio"
    assert refuted.upper < res.upper


def test_every_method_has_its_status_set_once():
    """Closed forms read the status their registered formula carries; every method gives a
    Status for every registered randomizer."""
    assert shuffle.METHODS["efmrtt19"].status(R.general_ldp(0.3)) is methods.ERLINGSSON.status
    assert shuffle.METHODS["clones-closed-form"].status(R.general_ldp(0.3)) is methods.clones.CLOSED_FORM.status
    for name, (factory, params) in R.REGISTRY.items():
        values = {"eps0": 1.0, "d": 4, "k": 2, "l": 3}
        rz = factory(*[values[p] for p in params])
        for m in shuffle.METHODS.values():
            assert isinstance(m.status(rz), Status), (name, m.name)


def test_unbounded_likelihood_ratio_gives_an_unbounded_epsilon_not_an_exception():
    """p = inf (a multi-message randomizer): at delta = 1e-300 no finite epsilon is certified;
    the bracket is [lower, inf] with a note (e^eps overflowed inside the pair before)."""
    rz = R.balls_into_bins(16, 2, 3)
    res = shuffle.epsilon(rz, 1, 1e-300, method="variation-ratio")
    assert res.upper == math.inf and res.lower > 0 and "no finite epsilon" in res.note
    far = shuffle.delta(rz, 1, 800.0, method="variation-ratio")
    assert far.lower == 0.0 and 0 < far.upper <= 1


@pytest.mark.parametrize("bias", [-0.99, 0.0, 0.99])
@pytest.mark.parametrize("epsilon", [0.01, 0.7, 30.0])
def test_closed_form_delta_counts_the_forms_rounding(bias, epsilon):
    """Issue 9 (4): delta(epsilon) of a closed form epsilon(delta) comes from the one inverter
    (dptheory.inverse.delta_bracket) and counts the form's own error (rounding.CLOSED_FORM_RTOL):
    a form eps(d) = log(1/d) computed with a relative error of up to 0.99 CLOSED_FORM_RTOL must
    still give an enclosure of the true delta = e^-epsilon (the bisection it replaces took the
    float form as exact and missed it by the form's error)."""
    from dptheory import rounding

    form = lambda d: math.log(1 / d) * (1 + bias * rounding.CLOSED_FORM_RTOL)  # noqa: E731
    enc = methods._closed_form_delta(form, epsilon)
    assert enc.log_lower <= -epsilon <= enc.log_upper
    assert enc.log_upper - enc.log_lower <= 4 * rounding.CLOSED_FORM_RTOL * epsilon + 1e-10
