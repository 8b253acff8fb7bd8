"""The contract (tests/contract.py) for the mixture notion (dptheory.mixtures.methods): every method
against the exact hockey-stick divergences of the mixture pair in both directions, computed in
rational arithmetic (tests/oracles/mixtures.py)."""

from fractions import Fraction

from dptheory.mixtures.methods import Mixture
from tests.contract import NotionContract
from tests.oracles import mixtures as oracle

CASES = [
    ((Fraction(1, 2), Fraction(1, 2)), (([Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 5), Fraction(4, 5)]),
                                        ([Fraction(9, 10), Fraction(1, 10)], [Fraction(1, 2), Fraction(1, 2)]))),
    ((Fraction(3, 10), Fraction(7, 10)), (([Fraction(1, 2), Fraction(1, 2), 0], [Fraction(1, 5), Fraction(3, 10), Fraction(1, 2)]),
                                          ([Fraction(1, 10), Fraction(1, 5), Fraction(7, 10)],
                                           [Fraction(3, 5), Fraction(3, 10), Fraction(1, 10)]))),
]


class TestMixtureContract(NotionContract):
    notion = "mixture"

    def subjects(self):
        return [Mixture(tuple(float(w) for w in weights), tuple(([float(x) for x in p], [float(x) for x in q])
                                                                  for p, q in pairs)) for weights, pairs in CASES]

    def points(self, subject, quantity):
        return [-0.5, 0.0, 0.3, 1.0, 4.0]

    def oracle(self, subject, quantity, at):
        for weights, pairs in CASES:  # the case's exact rationals (the floats are these rounded)
            if tuple(float(w) for w in weights) == subject.weights:
                return oracle.mixture_hockey_stick(weights, pairs, at)["max"]
        return None
