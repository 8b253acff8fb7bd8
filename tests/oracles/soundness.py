"""Shared soundness check for the shuffle methods: each proven upper bound against the exact
worst-case shuffled divergence, each lower bound under it (used by the default grid and by the
slow exhaustive sweep)."""

from __future__ import annotations

import math

import numpy as np

from dptheory.results import Kind, Status
from dptheory.shuffle.subject import Shuffled
from dptheory.shuffle import METHODS, randomizers as R
from dptheory.shuffle.methods import NotApplicable
from dptheory.validate import ConditionError


def random_ldp(seed: int, inputs: int, outputs: int, eps0: float):
    """A random finite randomizer whose likelihood ratios are at most e^eps0."""
    rng = np.random.default_rng(seed)
    m = np.exp(eps0 * rng.uniform(size=(inputs, outputs)) / 2)
    return R.from_pmfs(m / m.sum(axis=1, keepdims=True), name=f"random{seed}")


def check_methods(rz, n: int, e: float, worst: float, err: float, context=()) -> int:
    """Assert every applicable method's delta at (n, e) brackets ``worst`` (the exact maximum over
    datasets, known to within ``err``) on its side; returns how many methods were checked."""
    checked = 0
    for slug, m in METHODS.items():
        if m.log_delta is None or slug == "exact" or not m.applies(Shuffled(rz, n)):
            continue
        try:
            res = m.delta(rz, n, e)
        except (NotApplicable, ConditionError):
            continue
        hi, lo = res.upper, res.lower
        if m.kind is Kind.UPPER and res.status is Status.PROVEN:
            assert hi >= worst - err, (rz.name, n, e, slug, hi, worst, *context)
        if m.kind is Kind.LOWER:
            assert lo <= worst + err, (rz.name, n, e, slug, lo, worst, *context)
        checked += 1
    return checked
