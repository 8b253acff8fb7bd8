"""Arguments of the shuffle model's RDP bounds, and real orders from integer ones (Girgis et al.
2021, Remark 2)."""

from __future__ import annotations

import numpy as np

from ... import validate


def check(eps0_value, n_value, orders, integer: bool = False):
    """(eps0, n, orders as a 1-d array), validated; ``integer`` requires integer orders."""
    e0 = validate.eps0("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1)
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    if integer and np.any(o != np.floor(o)):
        bad = o[o != np.floor(o)][0]
        raise validate.DomainError(f"orders has {bad!r}: this bound needs integer orders >= 2 (use interpolate for real orders)")
    return e0, nn, o


def interpolate(integer_fn, orders) -> np.ndarray:
    """Remark 2 (eq. 7): (lam-1) eps(lam) is convex, so for real lam the integer values at
    floor and ceil give eps(lam) <= [a (fl-1) eps(fl) + (1-a)(ce-1) eps(ce)] / (lam - 1),
    a = ceil(lam) - lam. ``integer_fn(orders)`` returns a valid bound at integer orders."""
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    fl, ce = np.floor(o), np.ceil(o)
    a = ce - o
    need = np.unique(np.concatenate([fl[fl >= 2], ce]))
    vals = dict(zip(need, np.atleast_1d(integer_fn(need))))
    out = np.empty(o.shape)
    for k, (lv, f, c, w) in enumerate(zip(o, fl, ce, a)):
        if f == c:
            out[k] = vals[c]
            continue
        low_part = w * (f - 1) * vals[f] if f >= 2 else 0.0
        out[k] = (low_part + (1 - w) * (c - 1) * vals[c]) / (lv - 1)
    return out
