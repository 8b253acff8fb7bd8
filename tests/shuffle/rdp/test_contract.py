"""The contract (tests/contract.py) for the shuffle RDP notion (dptheory.shuffle.rdp.methods):
every method against exact enumeration of shuffled binary randomized response (the worst case of
Girgis et al., Theorem 3.4): its Renyi divergence maximised over every neighbouring pair of
datasets (tests/oracles/renyi_shuffle.py) and its exact epsilon(delta) (tests/oracles/exact_shuffle.py),
both written independently of the code under test."""

import functools

import mpmath
import numpy as np

from dptheory.shuffle import randomizers as R
from dptheory.shuffle.subject import Shuffled
from tests.contract import NotionContract
from tests.oracles import renyi_shuffle
from tests.oracles.exact_shuffle import ShuffleOracle, pmfs_of

ORDERS = np.array([2.0, 3.0, 5.0])
SETTINGS = [(0.5, 5), (1.0, 4), (2.0, 3)]


@functools.lru_cache(maxsize=None)
def _delta_oracle(eps0: float, n: int) -> ShuffleOracle:
    return ShuffleOracle(pmfs_of("binary-rr", eps0), n, dps=30)


def epsilon_enclosure(oracle: ShuffleOracle, delta: float, rel: float = 1e-7):
    """(lower, upper) of the exact epsilon(delta): bisection on the oracle's certified delta ends
    (delta(eps) is non-increasing: a lower end above ``delta`` puts eps below epsilon(delta), an
    upper end at most ``delta`` puts it at or above)."""
    if oracle.delta(0.0)[1] <= delta:
        return mpmath.mpf(0), mpmath.mpf(0)
    low, high = 0.0, 1.0
    while oracle.delta(high)[1] > delta:
        low, high = high, 2 * high
    a, b = low, high
    while b - a > rel * b:  # the lower end: the largest eps certainly below epsilon(delta)
        m = 0.5 * (a + b)
        if oracle.delta(m)[0] > delta:
            a = m
        else:
            b = m
    c, d = a, high
    while d - c > rel * d:  # the upper end: the smallest eps certainly at or above it
        m = 0.5 * (c + d)
        if oracle.delta(m)[1] <= delta:
            d = m
        else:
            c = m
    return mpmath.mpf(a), mpmath.mpf(d)


class TestShuffleRdpContract(NotionContract):
    notion = "shuffle-rdp"

    def subjects(self):
        # the last is beyond the oracle's reach, where Corollary 3.2's condition holds
        return [Shuffled(R.binary_rr(e0), n) for e0, n in SETTINGS] + [Shuffled(R.general_ldp(0.1), 2 * 10**5)]

    def outside(self):
        return [Shuffled(R.grr(1.0, 3), 4), Shuffled(R.binary_rr(1.0), 1)]

    def points(self, subject, quantity):
        return {"rdp": [ORDERS], "epsilon": [1e-3, 1e-1]}[quantity]

    def options(self, method, quantity):
        return {"rtol": 1e-6} if quantity == "rdp" else {"orders": np.array([2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0])}

    def oracle(self, subject, quantity, at):
        e0, n = subject.randomizer.eps0, subject.n
        if n > 8:
            return None
        if quantity == "rdp":
            return [renyi_shuffle.worst_case_renyi(pmfs_of("binary-rr", e0), n, order, digits=30)[:2] for order in at]
        return epsilon_enclosure(_delta_oracle(e0, n), at)


def test_a_lower_bound_does_not_apply_to_another_randomizer():
    """Binary randomized response's RDP bounds the general class from below, not a given GRR."""
    from dptheory.shuffle.rdp import RDP_METHODS

    reason = RDP_METHODS["girgis-lower"].why_not(Shuffled(R.grr(1.0, 3), 100))
    assert reason and "general" in reason
    assert RDP_METHODS["girgis-upper-1"].why_not(Shuffled(R.grr(1.0, 3), 100)) is None
