"""The mechanism notion: the methods that account one basic mechanism, on the one protocol of
:mod:`dptheory.protocol` (notion ``"mechanism"``; the subject is a mechanism object:
:class:`~dptheory.mechanisms.GaussianMechanism`, :class:`~dptheory.mechanisms.LaplaceMechanism`,
:class:`~dptheory.mechanisms.RandomizedResponse`, :class:`~dptheory.subsampled.SubsampledGaussian`).

* ``exact-profile``: the exact privacy profile delta(epsilon) and its certified inverse
  epsilon(delta), from the mechanism's trade-off function (Gaussian: Dong, Roth, Su 2022,
  Corollary 2.13; Laplace and randomized response: Neyman-Pearson on their output laws);
* ``exact-rdp``: the Renyi divergence of the worst pair at each order (Mironov 2017; the
  Poisson-subsampled Gaussian: Mironov, Talwar, Zhang 2019, Section 3.3);
* ``rdp-route``: epsilon(delta) from that RDP curve by the one RDP -> (epsilon, delta) route
  (:func:`dptheory.rdp.epsilon_from_rdp`), an upper bound looser than the exact profile;
* ``pld``: the pessimistic privacy loss distribution of the Poisson-subsampled Gaussian composed
  over its steps (an upper bound on delta, hence on epsilon).
"""

from __future__ import annotations

from . import protocol
from .mechanisms import GaussianMechanism, LaplaceMechanism, RandomizedResponse
from .rdp import default_orders, epsilon_from_rdp
from .results import Kind, Status
from .subsampled import SOURCE as SGM_SOURCE, SubsampledGaussian

_BASIC = (GaussianMechanism, LaplaceMechanism, RandomizedResponse)


def _basic(subject) -> str | None:
    if not isinstance(subject, _BASIC):
        return "needs a Gaussian, Laplace or randomized-response mechanism (its exact trade-off function)"
    return None


def _basic_or_subsampled(subject) -> str | None:
    if not isinstance(subject, _BASIC + (SubsampledGaussian,)):
        return "needs a Gaussian, Laplace, randomized-response or Poisson-subsampled Gaussian mechanism"
    return None


def _subsampled(subject) -> str | None:
    if not isinstance(subject, SubsampledGaussian):
        return "needs a Poisson-subsampled Gaussian mechanism"
    return None


def _proven(subject):
    return Status.PROVEN, ""


def _source(subject) -> str:
    return getattr(subject, "source", "")


def _exact_delta(subject, epsilon, **options):
    from .results import Enclosure

    lo, hi = subject.tradeoff().log_delta_enclosure(epsilon)
    return Enclosure(lo, hi).result("delta", kind=Kind.EXACT, status=Status.PROVEN, method="exact-profile",
                                    source=_source(subject), params={"epsilon": float(epsilon)})


def _exact_epsilon(subject, delta, **options):
    return subject.epsilon(delta)


def _exact_rdp(subject, orders, **options):
    return subject.rdp(orders)


def _rdp_route(subject, delta, *, orders=None, **options):
    if isinstance(subject, SubsampledGaussian):
        return subject.epsilon_via_rdp(delta, orders)
    curve = subject.rdp(default_orders() if orders is None else orders)
    return epsilon_from_rdp(curve, delta)


def _sgm_delta(subject, epsilon, **options):
    return subject.delta(epsilon)


def _sgm_epsilon(subject, delta, **options):
    return subject.epsilon(delta)


#: every method of the notion, in the order of the tables
MECHANISM_METHODS = protocol.Registry("mechanism", [
    protocol.FunctionMethod(
        notion="mechanism", name="exact-profile", kind=Kind.EXACT,
        source="the mechanism's exact privacy profile (Dong, Roth, Su (2022), Corollary 2.13 for the Gaussian)",
        why_not_fn=_basic, status_fn=_proven,
        functions={"delta": _exact_delta, "epsilon": _exact_epsilon}, title="Exact privacy profile"),
    protocol.FunctionMethod(
        notion="mechanism", name="exact-rdp", kind=Kind.EXACT,
        source="Mironov (2017), Table II; Mironov, Talwar, Zhang (2019), Section 3.3",
        why_not_fn=_basic_or_subsampled, status_fn=_proven, functions={"rdp": _exact_rdp}, title="Exact Renyi divergence"),
    protocol.FunctionMethod(
        notion="mechanism", name="rdp-route", kind=Kind.UPPER,
        source="the exact RDP curve converted by Balle et al. (2020), Theorem 21",
        why_not_fn=_basic_or_subsampled, status_fn=_proven, functions={"epsilon": _rdp_route}, title="RDP route"),
    protocol.FunctionMethod(
        notion="mechanism", name="pld", kind=Kind.UPPER, source=SGM_SOURCE, why_not_fn=_subsampled,
        status_fn=_proven, functions={"delta": _sgm_delta, "epsilon": _sgm_epsilon},
        title="Privacy loss distribution (pessimistic)"),
], subject="a mechanism object")
