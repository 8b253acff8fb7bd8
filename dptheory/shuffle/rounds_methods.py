"""The composed-rounds notion: T adaptively composed rounds of a shuffled eps0-LDP protocol, on the
one protocol of :mod:`dptheory.protocol` (notion ``"shuffle-rounds"``, subject
:class:`~dptheory.shuffle.subject.ShuffledRounds`).

* ``pld-clones`` and ``pld-stronger-clones``: the privacy loss distribution of the clone pair of
  Feldman, McMillan, Talwar (2021) (proven) or of their 2023 stronger clones (proven only for
  randomizers with the stronger-clone decomposition), composed T times with pessimistic
  discretisation (:mod:`dptheory.shuffle.rounds`);
* ``rdp-route``: the exact RDP of the clone pair composed T times (Mironov 2017, Proposition 1),
  converted by Lemma 2.1 of Girgis et al. at the best order;
* ``clones-kov``: the clone pair's per-round (epsilon, delta) composed by the optimal composition
  theorem of Kairouz, Oh, Viswanath (2015), Theorem 3.3 (Girgis et al.'s baseline, Figures 4-5).
"""

from __future__ import annotations

from .. import protocol
from ..results import Kind, Status
from . import clones, rounds
from .rdp.composed import fmt_kov_epsilon, rdp_route_epsilon
from .subject import ShuffledRounds, single_message_ldp_why_not


_ldp = single_message_ldp_why_not


def _status(reduction: str):
    def status(subject) -> tuple[Status, str]:
        rz = getattr(subject, "randomizer", None)
        if reduction == "stronger-clones" and rz is not None:
            return clones.stronger_clone_status(rz.pmfs)
        return clones.reduction_status(reduction)
    return status


def _pld(reduction: str):
    def delta(subject, epsilon, **options):
        return rounds.rounds_delta(subject.randomizer.eps0, subject.n, subject.rounds, epsilon, reduction=reduction)

    def epsilon(subject, delta, **options):
        return rounds.rounds_epsilon(subject.randomizer.eps0, subject.n, subject.rounds, delta, reduction=reduction)
    return {"delta": delta, "epsilon": epsilon}


def _rdp_route(subject, delta, **options):
    return rdp_route_epsilon(subject.randomizer.eps0, subject.n, subject.rounds, delta)


def _kov(subject, delta, **options):
    return fmt_kov_epsilon(subject.randomizer.eps0, subject.n, subject.rounds, delta)


#: every method of the notion, in the order of the tables
ROUNDS_METHODS = protocol.Registry("shuffle-rounds", [
    protocol.FunctionMethod(notion="shuffle-rounds", name="pld-clones", kind=Kind.UPPER,
                            source=clones.SOURCE_2021 + "; composed by its privacy loss distribution",
                            why_not_fn=_ldp, status_fn=_status("clones"), functions=_pld("clones"),
                            title="Clone pair, PLD"),
    protocol.FunctionMethod(notion="shuffle-rounds", name="pld-stronger-clones", kind=Kind.UPPER,
                            source=clones.SOURCE_2023 + "; composed by its privacy loss distribution",
                            why_not_fn=_ldp, status_fn=_status("stronger-clones"),
                            functions=_pld("stronger-clones"), title="Stronger clone pair, PLD"),
    protocol.FunctionMethod(notion="shuffle-rounds", name="rdp-route", kind=Kind.UPPER,
                            source="exact RDP of the clone pair composed T times (Mironov 2017, Proposition 1), "
                                   "converted by Lemma 2.1 of Girgis et al. (2021)",
                            why_not_fn=_ldp, status_fn=_status("clones"), functions={"epsilon": _rdp_route},
                            title="Clone pair, RDP route"),
    protocol.FunctionMethod(notion="shuffle-rounds", name="clones-kov", kind=Kind.UPPER,
                            source="Feldman, McMillan, Talwar (2021) per round, composed by Kairouz, Oh, Viswanath "
                                   "(2015), Theorem 3.3",
                            why_not_fn=_ldp, status_fn=_status("clones"), functions={"epsilon": _kov},
                            title="Clones with optimal composition"),
], subject="ShuffledRounds(randomizer, n, rounds)")
