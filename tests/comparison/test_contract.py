"""The contract of mechanism comparison, over random pairs and triples of mechanisms (hypothesis):
every Delta is a non-empty certified interval in [0, 1/2] without NaN; Delta(M || M) = 0, also
numerically on two separately built equal curves; the triangle inequality (Lemma B.3); Delta<->
equals the sup-norm of R_f - R_g computed independently on a fine grid (Corollary 2); the
verdict agrees with the two intervals (Theorem 1); the report's JSON has its keys."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dptheory import tradeoff as T
from dptheory.comparison import compare, delta_between, delta_divergence, parse_mechanism
from dptheory.comparison.blackwell import certainly_positive, certainly_zero
from dptheory.comparison.divergence import maximise_difference, pl_delta_is_zero

KEYS = {"first", "second", "first_curve", "second_curve", "delta_forward", "delta_backward", "delta_symmetric",
        "verdict", "verdict_detail", "witness", "crossings", "note"}


def _num(x: float) -> str:
    return repr(round(x, 3))


def exact_mechanisms():
    return st.one_of(
        st.floats(0.0, 3.0).map(lambda m: f"gaussian(mu={_num(m)})"),
        st.floats(0.05, 3.0).map(lambda e: f"laplace(eps={_num(e)})"),
        st.tuples(st.floats(0.0, 3.0), st.integers(2, 4)).map(lambda a: f"rr(eps={_num(a[0])}, k={a[1]})"),
        st.tuples(st.floats(0.05, 1.5), st.integers(2, 6)).map(lambda a: f"rr(eps={_num(a[0])})^{a[1]}"),
        st.sampled_from(["pp()", "bnp()"]),
    )


def mechanisms():
    bounded = st.sampled_from(["laplace(eps=0.5)^3", "sgm(sigma=1, p=0.1, steps=5)", "shuffle(eps0=1, n=30)",
                               "sgm_sym(sigma=1.5, p=0.2, steps=4)"])
    return st.one_of(exact_mechanisms(), exact_mechanisms(), exact_mechanisms(), bounded)


def _check_interval(r):
    assert not math.isnan(r.lower) and not math.isnan(r.upper)
    assert 0.0 <= r.lower <= r.upper <= 0.5 + 1e-12


def _verdict_consistent(d):
    fw, bw = d.forward, d.backward
    if d.verdict == "equal":
        assert certainly_zero(fw) and certainly_zero(bw)
    elif d.verdict == "first":
        assert certainly_zero(fw)
    elif d.verdict == "second":
        assert certainly_zero(bw)
    elif d.verdict == "neither":
        assert certainly_positive(fw) and certainly_positive(bw)
    else:
        assert d.verdict == "undecided"
        assert not (certainly_zero(fw) or certainly_zero(bw))
        assert not (certainly_positive(fw) and certainly_positive(bw))


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mechanisms(), mechanisms(), mechanisms())
def test_contract(a, b, c):
    ma, mb, mc = parse_mechanism(a), parse_mechanism(b), parse_mechanism(c)
    report = compare(ma, mb)
    d = report.dominance
    for r in (report.forward, report.backward, report.symmetric):
        _check_interval(r)
    _verdict_consistent(d)
    assert KEYS <= set(report.as_dict())
    # Delta(M || M) = 0: the same mechanism parsed twice, decided exactly
    again = parse_mechanism(a)
    assert delta_between(ma, again).upper == 0.0
    # Lemma B.3 with certified ends
    d_ac, d_bc = delta_between(ma, mc), delta_between(mb, mc)
    assert d_ac.lower <= report.forward.upper + d_bc.upper + 1e-12
    # Delta<-> is symmetric: the report with the two swapped has the same interval
    swapped = compare(mb, ma)
    assert swapped.symmetric.lower == report.symmetric.lower and swapped.symmetric.upper == report.symmetric.upper
    assert swapped.forward.upper == report.backward.upper and swapped.backward.upper == report.forward.upper


@settings(max_examples=30, deadline=None, derandomize=True)
@given(exact_mechanisms(), exact_mechanisms())
def test_symmetric_delta_is_the_sup_norm_of_the_bayes_errors(a, b):
    """Corollary 2: Delta<-> = ||R_f - R_g||_inf. The sup norm is computed here on a fine grid of
    priors from the curves' own Bayes error (the convex conjugate, TradeOff.bayes_error, not the
    enclosures the library maximises): it is at most the certified upper end, and at least the
    lower end minus what the grid can miss (R is 1-Lipschitz, so 2/(n-1))."""
    f, g = parse_mechanism(a).tradeoff(), parse_mechanism(b).tradeoff()
    sym = compare(a, b).symmetric
    n = 20001
    pis = np.linspace(0.0, 1.0, n)
    brute = float(np.max(np.abs(np.asarray(f.bayes_error(pis), float) - np.asarray(g.bayes_error(pis), float))))
    assert brute <= sym.upper + 1e-9
    assert sym.lower <= brute + 2.0 / (n - 1) + 1e-9


@settings(max_examples=25, deadline=None, derandomize=True)
@given(exact_mechanisms())
def test_equal_curves_built_twice_give_zero_numerically(a):
    """Two separately built copies of one curve (no identity shortcut): the numerical route gives
    an interval from 0 within rounding of 0 for piecewise-linear curves, within the grid cap's
    reach for smooth ones (the secant bounds of two equal smooth curves need a fine grid
    everywhere: about 3e-9 at the default 1e5 points); the automatic route decides 0 exactly."""
    f1, f2 = parse_mechanism(a).tradeoff(), parse_mechanism(a).tradeoff()
    assert f1 is not f2
    numeric = delta_divergence(f1, f2, method="numeric")
    assert numeric.lower == 0.0
    assert numeric.upper < (1e-12 if isinstance(f1, T.PiecewiseLinear) else 1e-8)
    assert delta_divergence(f1, f2).upper == 0.0


@pytest.mark.parametrize("text", ["sgm(sigma=1, p=0.1, steps=5)", "laplace(eps=0.5)^3", "sgm_sym(sigma=1.5, p=0.2, steps=4)"])
def test_bounded_mechanism_against_itself_numerically(text):
    """A mechanism known through bounds, compared with a second copy through the maximisation
    (no identity shortcut): the interval starts at 0 (it cannot be certainly positive) and is
    as narrow as the bounds."""
    a, b = parse_mechanism(text).curves(), parse_mechanism(text).curves()
    m = maximise_difference(a.enclosure(), b.enclosure())
    assert m.lower == 0.0 and m.upper < 1e-4


def test_rational_zero_check_can_fail():
    """The exact check for piecewise-linear pairs answers both ways."""
    from dptheory.mechanisms import RandomizedResponse

    strong, weak = RandomizedResponse(1.0).tradeoff(), RandomizedResponse(0.5).tradeoff()
    assert pl_delta_is_zero(strong, weak) and not pl_delta_is_zero(weak, strong)


# ----------------------------------------------------------------------------- the one contract
from tests.contract import NotionContract  # noqa: E402
from tests.oracles import tradeoff as oracle  # noqa: E402
from dptheory.comparison.methods import Pair  # noqa: E402


class TestComparisonContract(NotionContract):
    """The contract of every notion (tests/contract.py) for the comparison methods: Delta against
    the oracle's closed form between Gaussians (Definition 1, tests/oracles/tradeoff.py) and its
    certified chord bracket for Gaussian against Laplace."""

    notion = "comparison"

    def subjects(self):
        return [Pair("gaussian(mu=1)", "gaussian(mu=2)"), Pair("gaussian(mu=1.5)", "gaussian(mu=0.5)"),
                Pair("gaussian(mu=1)", "laplace(eps=1)")]

    def points(self, subject, quantity):
        return [None]

    def oracle(self, subject, quantity, at):
        a, b = subject.first, subject.second
        if a.family == b.family == "gaussian" and a.steps == b.steps == 1:
            return oracle.gaussian_delta_divergence(a.params["mu"], b.params["mu"])
        grid = oracle.unit_grid(400)
        return oracle.delta_divergence_bracket(lambda x: oracle.gaussian_tradeoff_interval(1, x),
                                               lambda x: oracle.laplace_tradeoff_interval(1, x), grid)
