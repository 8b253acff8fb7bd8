"""The subject of the shuffle notions: n users of a local randomizer, their messages shuffled.

Every method of the shuffle (epsilon, delta) notion, of its Renyi DP and of its composed rounds
takes a :class:`Shuffled` (:mod:`dptheory.protocol`): whether a method applies depends on the
randomizer and n, its proof status on the randomizer's class alone.
"""

from __future__ import annotations

import dataclasses

from .. import validate
from .randomizers import Randomizer


@dataclasses.dataclass(frozen=True)
class Shuffled:
    """n users of ``randomizer``, shuffled (n >= 1, an integer; ``1e6`` is accepted)."""

    randomizer: Randomizer
    n: int

    def __post_init__(self) -> None:
        if not isinstance(self.randomizer, Randomizer):
            raise validate.DomainError(f"randomizer = {self.randomizer!r} is invalid: must be a Randomizer "
                                       "(dptheory.shuffle.randomizers)")
        object.__setattr__(self, "n", validate.integer("n", self.n, low=1))

    def params(self) -> dict:
        """The parameters a result records."""
        return {"randomizer": self.randomizer.name, "eps0": self.randomizer.eps0, "n": self.n}


def randomizer_of(subject) -> Randomizer:
    """The randomizer of a :class:`Shuffled`, or ``subject`` itself when it is a randomizer (a
    method's proof status depends on the randomizer's class alone)."""
    return subject.randomizer if isinstance(subject, Shuffled) else subject


@dataclasses.dataclass(frozen=True)
class ShuffledRounds:
    """``rounds`` adaptively composed rounds of n shuffled users of ``randomizer`` (shuffled
    federated learning, shuffled SGD): the subject of the composed-rounds notion."""

    randomizer: Randomizer
    n: int
    rounds: int

    def __post_init__(self) -> None:
        one = Shuffled(self.randomizer, self.n)
        object.__setattr__(self, "n", one.n)
        object.__setattr__(self, "rounds", validate.integer("rounds", self.rounds, low=1))

    @property
    def one_round(self) -> Shuffled:
        """One round's subject."""
        return Shuffled(self.randomizer, self.n)

    def params(self) -> dict:
        """The parameters a result records."""
        return {**self.one_round.params(), "rounds": self.rounds}


def single_message_ldp_why_not(subject) -> str | None:
    """Why a method for n >= 2 users of a single-message eps0-LDP randomizer does not apply to
    ``subject`` (a :class:`Shuffled` or :class:`ShuffledRounds`), or None."""
    rz = subject.randomizer
    if rz.eps0 is None or rz.blankets:
        return "needs a single-message $\\epsilon_0$-LDP randomizer"
    if subject.n < 2:
        return "needs $n \\geq 2$ users"
    return None
