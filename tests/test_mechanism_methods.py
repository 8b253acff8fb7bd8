"""The contract (tests/contract.py) for the mechanism notion (dptheory.mechanism_methods): every
method against the oracle of tests/oracles/mechanisms.py (written from first principles in
mpmath interval arithmetic), on Gaussian, Laplace, randomized-response and subsampled Gaussian
mechanisms."""

import numpy as np

from dptheory.mechanisms import GaussianMechanism, LaplaceMechanism, RandomizedResponse
from dptheory.subsampled import SubsampledGaussian
from tests.contract import NotionContract
from tests.oracles import mechanisms as oracle

ORDERS = np.array([1.5, 2.0, 4.0, 10.0])


class TestMechanismContract(NotionContract):
    notion = "mechanism"

    def subjects(self):
        return [GaussianMechanism(1.3), GaussianMechanism(0.4), LaplaceMechanism(2.0), RandomizedResponse(1.0, 3),
                RandomizedResponse(2.5, 2), SubsampledGaussian(1.0, 0.05, 1)]

    def outside(self):
        return [SubsampledGaussian(0.8, 0.1, 2)]

    def points(self, subject, quantity):
        return {"epsilon": [1e-8, 1e-5, 0.05], "delta": [0.0, 0.5, 2.0], "rdp": [ORDERS]}[quantity]

    def oracle(self, subject, quantity, at):
        if isinstance(subject, SubsampledGaussian):
            if subject.steps != 1 and quantity != "rdp":
                return None
            if quantity == "delta":
                return oracle.sgm_delta(subject.sigma, subject.p, at)
            if quantity == "epsilon":
                return oracle.sgm_epsilon(subject.sigma, subject.p, at)
            return [oracle.sgm_renyi(subject.sigma, subject.p, o, steps=subject.steps) for o in at]
        if isinstance(subject, GaussianMechanism):
            mu = subject.sensitivity / subject.sigma
            fns = {"delta": lambda a: oracle.gaussian_delta(mu, a), "epsilon": lambda a: oracle.gaussian_epsilon(mu, a),
                   "rdp": lambda a: [oracle.gaussian_renyi(mu, o) for o in a]}
        elif isinstance(subject, LaplaceMechanism):
            b, s = subject.scale, subject.sensitivity
            fns = {"delta": lambda a: oracle.laplace_delta(a, b, s), "epsilon": lambda a: oracle.laplace_epsilon(a, b, s),
                   "rdp": lambda a: [oracle.laplace_renyi(o, b, s) for o in a]}
        else:
            e0, k = subject.eps0, subject.k
            fns = {"delta": lambda a: oracle.rr_delta(e0, k, a), "epsilon": lambda a: oracle.rr_epsilon(e0, k, a),
                   "rdp": lambda a: [oracle.rr_renyi(e0, k, o) for o in a]}
        return fns[quantity](at)
