"""Direct tests of dptheory/shuffle/clones.py against computations written here: the clone pairs'
parameters from e^eps0 at 60 digits, their divergence against the brute-force pmfs of the
oracle (tests/oracles/shuffle_oracle.py), and the closed form of Feldman, McMillan, Talwar (2021)
evaluated by hand with mpmath."""

import math

import mpmath
import pytest

from dptheory.shuffle import clones
from dptheory.validate import ConditionError, DomainError
from tests.oracles import shuffle_oracle as O


@pytest.mark.parametrize("eps0", [0.01, 1.0, 7.0, 30.0, 50.0])
def test_pair_parameters_are_within_their_stated_error(eps0):
    """theta_p = e^eps0/(e^eps0+1), theta_q = 1/(e^eps0+1), clone probabilities e^-eps0 and
    2/(e^eps0+1): each within the pair's stated relative error (theta_q without cancellation, also
    where it is 1e-22)."""
    with mpmath.workdps(60):
        E = mpmath.exp(mpmath.mpf(eps0))
        want = {"theta_p": E / (E + 1), "theta_q": 1 / (E + 1)}
        for pair, prob in [(clones.clone_pair(eps0, 10), 1 / E), (clones.stronger_clone_pair(eps0, 10), 2 / (E + 1))]:
            for name, ref in want.items():
                assert abs(getattr(pair, name) - ref) <= pair.theta_rtol * ref, (name, getattr(pair, name), ref)
            assert abs(pair.clone_prob - prob) <= pair.input_rtol * prob
            assert pair.others == 9 and pair.victim_prob == 1.0 and pair.clone_bias == 0.5
            # the mpmath parameters used by the fallback are the 60-digit ones
            spec = pair.exact()
            assert abs(spec[0] - prob) < mpmath.mpf(10) ** -50 and abs(spec[2] - want["theta_q"]) < mpmath.mpf(10) ** -50 * want["theta_q"]


@pytest.mark.parametrize("eps0,n", [(0.7, 4), (2.0, 9), (4.0, 6)])
def test_divergence_against_brute_force_pmfs(eps0, n):
    """Both pairs' enclosures contain the 50-digit hockey-stick divergence of the pmfs built from
    their definition (C ~ Bin(n-1, prob), A ~ Bin(C, 1/2), the victim's type by e^eps0/(e^eps0+1))."""
    with mpmath.workdps(50):
        E = mpmath.exp(mpmath.mpf(eps0))
    for pair, prob in [(clones.clone_pair(eps0, n), 1 / E), (clones.stronger_clone_pair(eps0, n), 2 / (E + 1))]:
        P, Q = O.clone_pair(n, mpmath.mpf(eps0), prob, dps=50)
        for eps in (0.0, 0.3 * eps0, 0.9 * eps0):
            ref = O.hockey_stick(P, Q, mpmath.mpf(eps), dps=50)
            enc = pair.log_delta(eps, rtol=1e-9)
            assert enc.log_lower <= float(mpmath.log(ref)) <= enc.log_upper, (eps0, n, eps, enc, ref)


def test_stronger_clones_never_exceed_clones():
    """More clones (2/(e^eps0+1) >= e^-eps0) give a smaller divergence."""
    for eps0, n, eps in [(1.0, 50, 0.2), (3.0, 500, 0.5), (0.5, 10**6, 0.01)]:
        weak = clones.clone_pair(eps0, n).log_delta(eps, rtol=1e-6)
        strong = clones.stronger_clone_pair(eps0, n).log_delta(eps, rtol=1e-6)
        assert strong.log_lower <= weak.log_upper
        assert strong.log_upper < weak.log_lower  # strictly, at these sizes


def test_closed_form_against_hand_evaluation():
    """eps = log(1 + (e^eps0-1)/(e^eps0+1) (8 sqrt(e^eps0 log(4/delta))/sqrt(n) + 8 e^eps0/n))."""
    eps0, n, delta = 1.0, 10**6, 1e-6
    with mpmath.workdps(50):
        E = mpmath.exp(mpmath.mpf(eps0))
        ref = mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / mpmath.mpf(delta))) / mpmath.sqrt(n) + 8 * E / n))
    assert abs(clones.CLOSED_FORM(eps0, n, delta) - float(ref)) <= 1e-12 * float(ref)
    with pytest.raises(ConditionError):
        clones.CLOSED_FORM(5.0, 100, 1e-6)  # eps0 > log(n / (16 log(4/delta)))


def test_validation():
    with pytest.raises(DomainError, match="eps0"):
        clones.clone_pair(0.0, 10)
    with pytest.raises(DomainError, match="n"):
        clones.stronger_clone_pair(1.0, 0)
