"""The contract (tests/contract.py) for the composed-rounds notion (dptheory.shuffle.rounds_methods):
every method against T-fold composition, by exact enumeration of the composed privacy loss
(tests/oracles/pld_composition.py), of the shuffled output of binary randomized response for
every neighbouring pair of datasets (tests/oracles/exact_shuffle.py), maximised over the pairs.

For the general eps0-LDP class, binary randomized response's composed value is a lower end of the
class's (it is a member); for binary randomized response itself the enclosure is two-sided."""

import functools
import itertools

import mpmath

from dptheory.shuffle import randomizers as R
from dptheory.shuffle.subject import ShuffledRounds
from tests.contract import NotionContract
from tests.oracles.exact_shuffle import add_message, other_laws, pmfs_of
from tests.oracles.pld_composition import composed_delta, composed_epsilon


@functools.lru_cache(maxsize=None)
def shuffled_pairs(eps0: float, n: int) -> tuple:
    """Every neighbouring pair of datasets of n users of binary randomized response, as two
    probability vectors over the histograms (exact at 60 digits)."""
    with mpmath.workdps(60):
        pmfs = [[mpmath.mpf(v) for v in row] for row in pmfs_of("binary-rr", eps0)]
        pairs = []
        for _, law in other_laws(pmfs, n - 1):
            with_input = [add_message(law, row) for row in pmfs]
            for a, b in itertools.permutations(range(2), 2):
                keys = sorted(set(with_input[a]) | set(with_input[b]))
                pairs.append(([with_input[a].get(h, 0) for h in keys], [with_input[b].get(h, 0) for h in keys]))
        return tuple(pairs)


def composed_enclosure(eps0: float, n: int, rounds: int, quantity: str, at):
    """The true delta(epsilon) or epsilon(delta) of T rounds of n shuffled binary RR users: the
    maximum over the pairs of datasets of each pair's composed value (both ends)."""
    fn = composed_delta if quantity == "delta" else composed_epsilon
    ends = [fn(p, q, rounds, at, digits=20) for p, q in shuffled_pairs(eps0, n)]
    return max(e[0] for e in ends), max(e[1] for e in ends)


class TestRoundsContract(NotionContract):
    notion = "shuffle-rounds"

    def subjects(self):
        return [ShuffledRounds(R.binary_rr(1.0), 3, 4), ShuffledRounds(R.general_ldp(0.5), 4, 3),
                ShuffledRounds(R.binary_rr(1.0), 1000, 20)]

    def outside(self):
        return [ShuffledRounds(R.binary_rr(1.0), 1, 2)]

    def points(self, subject, quantity):
        return {"delta": [0.5, 1.5], "epsilon": [1e-4, 0.05]}[quantity]

    def oracle(self, subject, quantity, at):
        if subject.n > 4:
            return None
        lo, hi = composed_enclosure(subject.randomizer.eps0, subject.n, subject.rounds, quantity, at)
        return lo, (mpmath.inf if subject.randomizer.name == "general" else hi)
