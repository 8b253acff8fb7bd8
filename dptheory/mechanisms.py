"""Basic mechanisms with their three views: trade-off function, privacy profile, RDP curve.

* :class:`GaussianMechanism`: mu = sensitivity / sigma; mu-GDP exactly.
* :class:`LaplaceMechanism`: mu = sensitivity / scale.
* :class:`RandomizedResponse`: k-ary randomized response, epsilon-LDP; its output pmfs are
  available, so every closed form is checked in the tests against the divergences of the pmfs.
"""

from __future__ import annotations

import abc
import math

import mpmath
import numpy as np

from . import tradeoff, validate
from .formula import Formula, Parts, register
from .results import Kind, Result, Status


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from .symbols import alpha, eps, eps0, k, lam

    _E0 = sp.exp(eps0)

    return {
        "rr-tradeoff": Parts(
            sp.Max(1 - _E0 * alpha, 1 - (_E0 - 1) / (_E0 + k - 1) - alpha, sp.exp(-eps0) * (1 - alpha)),
            (eps0, k, alpha),
            (k >= 2, alpha <= 1),
        ),
        "rr-delta": Parts(
            sp.Max(0, _E0 - sp.exp(eps)) / (_E0 + k - 1),
            (eps0, k, eps),
            (k >= 2, eps >= 0),
        ),
        "rr-renyi": Parts(
            sp.log((sp.exp(eps0 * lam) + sp.exp(eps0 * (1 - lam)) + k - 2) / (_E0 + k - 1)) / (lam - 1),
            (eps0, k, lam),
            (k >= 2, lam > 1),
        ),
    }


RR_TRADEOFF = register(Formula(
    name="rr-tradeoff",
    build=_closed_forms,
    kind=Kind.EXACT,
    status=Status.PROVEN,
    source="k-ary randomized response (Kairouz, Oh, Viswanath 2016); trade-off by Neyman-Pearson",
    lhs=r"T(\mathrm{RR}_k(x), \mathrm{RR}_k(x'))(\alpha)",
))

RR_DELTA = register(Formula(
    name="rr-delta",
    build=_closed_forms,
    kind=Kind.EXACT,
    status=Status.PROVEN,
    source="k-ary randomized response: H_{e^eps} of its output pmfs",
    lhs=r"\delta(\epsilon)",
))

RR_RENYI = register(Formula(
    name="rr-renyi",
    build=_closed_forms,
    kind=Kind.EXACT,
    status=Status.PROVEN,
    source="k-ary randomized response: Renyi divergence of its output pmfs",
    lhs=r"D_\lambda(\mathrm{RR}_k(x)\|\mathrm{RR}_k(x'))",
))


class Mechanism(abc.ABC):
    """Shared conversions of a mechanism described by a symmetric trade-off function."""

    name = "mechanism"

    @abc.abstractmethod
    def tradeoff(self) -> tradeoff.TradeOff:
        """The trade-off function of the mechanism's worst pair of neighbouring inputs."""

    def delta(self, epsilon):
        """Privacy profile delta(epsilon) (exact)."""
        return self.tradeoff().delta(epsilon)

    def log_delta(self, epsilon):
        return self.tradeoff().log_delta(epsilon)

    def epsilon(self, delta) -> Result:
        """Smallest epsilon with delta(epsilon) <= delta, as a certified bracket (exact)."""
        res = self.tradeoff().epsilon(delta)
        return Result("epsilon", res.lower, res.upper, Kind.EXACT, Status.PROVEN, self.name, res.source)

    def rdp(self, orders):
        """Renyi divergence of the worst pair at each order (exact)."""
        return self.tradeoff().renyi(orders)


class GaussianMechanism(Mechanism):
    """Gaussian noise of scale sigma on a query of the given sensitivity: mu-GDP, mu = sensitivity/sigma."""

    name = "gaussian"

    def __init__(self, sigma, sensitivity=1.0):
        self.sigma = validate.positive("sigma", sigma)
        self.sensitivity = validate.positive("sensitivity", sensitivity)
        self.mu = self.sensitivity / self.sigma

    def tradeoff(self):
        return tradeoff.gaussian(self.mu)


class LaplaceMechanism(Mechanism):
    """Laplace noise of the given scale: pure (sensitivity/scale)-DP, trade-off of Dong et al."""

    name = "laplace"

    def __init__(self, scale, sensitivity=1.0):
        self.scale = validate.positive("scale", scale)
        self.sensitivity = validate.positive("sensitivity", sensitivity)
        self.mu = self.sensitivity / self.scale

    def tradeoff(self):
        return tradeoff.laplace(self.mu)


class RandomizedResponse(Mechanism):
    """k-ary randomized response: report the true value w.p. e^eps0/(e^eps0 + k - 1), else a
    uniformly random other value. epsilon0-LDP; every pair of inputs is equally distinguishable."""

    name = "randomized-response"

    def __init__(self, eps0_value, k_value=2):
        self.eps0 = validate.nonnegative("eps0", eps0_value)
        self.k = validate.integer("k", k_value, low=2)

    def pmfs(self, digits=None):
        """Output pmfs for inputs 0 and 1 (the worst pair, by symmetry)."""
        if digits is None:
            z = math.exp(self.eps0) + self.k - 1
            p = np.full(self.k, 1.0 / z)
            p[0] = math.exp(self.eps0) / z
            q = np.full(self.k, 1.0 / z)
            q[1] = math.exp(self.eps0) / z
            return p, q
        with mpmath.workdps(validate.digits(digits)):
            e = mpmath.exp(mpmath.mpf(self.eps0))
            z = e + self.k - 1
            p = [1 / z] * self.k
            q = [1 / z] * self.k
            p[0] = e / z
            q[1] = e / z
            return p, q

    def tradeoff(self, digits=None):
        return tradeoff.from_pmfs(*self.pmfs(digits), digits=digits)

    def delta(self, epsilon):
        e = validate.real_array("epsilon", epsilon, low=0.0)
        return RR_DELTA.numpy(check=False)(self.eps0, self.k, e)

    def rdp(self, orders):
        o = validate.real_array("orders", orders, low=1.0, low_open=True)
        return RR_RENYI.numpy(check=False)(self.eps0, self.k, o)
