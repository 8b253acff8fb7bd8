"""The accountant of Chen, Cao, Ge (ICASSP 2024) for shuffled noisy SGD (Algorithm 1, Theorem 3):
its Gaussian approximations beside the certified routes through the shuffle model's RDP.

Where the results live: the exact RDP of the clone pair (Chen, Cao, Ge 2024, Theorem 1,
corrected) in :mod:`.clone_pairs`, Girgis et al.'s upper bounds in :mod:`.girgis` and their
closed forms in :mod:`.formulas`; composition over epochs (Mironov 2017, Proposition 1) and the
conversion to (epsilon, delta) (Girgis et al. 2021, Lemma 2.1) in :mod:`dptheory.rdp`."""

from __future__ import annotations

import numpy as np

from ... import rdp as rdp_module, rounding, validate
from ...profile import gdp_epsilon
from ...results import Kind, Result
from .clone_pairs import clone_pair_rdp
from .formulas import CHEN_GDP, CHEN_GDP_REFINED, UPPER_1, UPPER_2
from .girgis import upper_1, upper_2
from .methods import compose


def shuffled_sgd_epsilon(eps0_value, blocks, epochs, delta, orders=None) -> list[Result]:
    """Central (epsilon, delta) of the shuffled noisy SGD of Chen et al. (Algorithm 1, Theorem 3):
    ``blocks`` blocks (the shuffle's users, m), ``epochs`` passes (T), eps0-LDP per block.

    One :class:`Result` (quantity ``epsilon``) per method: Theorem 3 (GDP composition of Theorem
    2) and its refined Gaussian limit, approximations (status ``not a bound``); and the certified
    routes, the exact clone-pair RDP and Girgis et al. Theorems 3.1 and 3.3, each composed over T
    epochs (Mironov, Proposition 1) and converted with Lemma 2.1 (:func:`dptheory.rdp.epsilon_from_rdp`;
    the order in ``params``).
    """
    e0 = validate.eps0("eps0", eps0_value)
    m = validate.integer("blocks", blocks, low=2)
    T = validate.integer("epochs", epochs, low=1)
    d = validate.delta("delta", delta)
    o = rdp_module.default_orders() if orders is None else np.atleast_1d(orders)
    params = {"eps0": e0, "blocks": m, "epochs": T, "delta": d}
    rows = []
    for slug, formula, source in [("chen-theorem-3", CHEN_GDP, "Chen, Cao, Ge (2024), Theorem 3 (via mu-GDP)"),
                                  ("chen-gdp-refined", CHEN_GDP_REFINED, CHEN_GDP_REFINED.source)]:
        from ...tradeoff import gdp_compose  # tradeoff is slow to import; only here

        mu = gdp_compose(*([float(formula(e0, m))] * T))
        r = gdp_epsilon(mu, d)
        rows.append(Result("epsilon", r.lower, r.upper, formula.kind, formula.status, slug, source,
                           "a central-limit approximation, not a bound", params={**params, "mu": mu}))
    orders_int = o[o == np.floor(o)]
    pair = compose(clone_pair_rdp(e0, m, o, rtol=1e-4), T)
    routes = [
        ("chen-exact", o, pair.upper, pair.status, "Chen, Cao, Ge (2024), Theorem 1 (corrected), composed"),
        ("girgis-upper-1", orders_int, rounding.up(T * upper_1(e0, m, orders_int)), UPPER_1.status,
         UPPER_1.source + ", composed"),
        ("girgis-upper-2", o, rounding.up(T * upper_2(e0, m, o)), UPPER_2.status, UPPER_2.source + ", composed"),
    ]
    for name, oo, values, status, source in routes:
        found = rdp_module.epsilon_from_rdp(oo, values, d)
        rows.append(Result("epsilon", found.lower, found.upper, Kind.UPPER, status, name, source,
                           params={**params, "order": found.params["order"]}))
    return rows
