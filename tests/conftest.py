"""Shared test helpers: random probability vectors and tolerances, and the quick verification run
(once per test process)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

from dptheory.validate import DomainError


@pytest.fixture(scope="session")
def quick_report():
    """``dptheory verify --quick``, run in-process once per test process (per xdist worker)."""
    from dptheory import verify

    return verify.run(quick=True)


def random_pmf(rng: np.random.Generator, size: int, zeros: int = 0) -> np.ndarray:
    """A random probability vector with ``zeros`` exact zero entries."""
    v = rng.gamma(0.7, size=size)
    if zeros:
        v[rng.choice(size, zeros, replace=False)] = 0.0
    if v.sum() == 0:
        v[0] = 1.0
    return v / v.sum()


@st.composite
def pmf_pairs(draw, min_size=2, max_size=7, allow_zeros=True):
    """Hypothesis strategy: two probability vectors on one support, possibly with zeros."""
    size = draw(st.integers(min_size, max_size))
    # entries are 0 or at least 1e-6: F-divergences of ratios near 1e300 overflow any float method
    positive = st.floats(1e-6, 1.0)
    elems = st.one_of(st.just(0.0), positive) if allow_zeros else positive
    a = np.array(draw(st.lists(elems, min_size=size, max_size=size)))
    b = np.array(draw(st.lists(elems, min_size=size, max_size=size)))
    if a.sum() == 0:
        a[0] = 1.0
    if b.sum() == 0:
        b[-1] = 1.0
    return a / a.sum(), b / b.sum()


def raises_naming(param: str, *fragments: str):
    """pytest.raises for a DomainError whose message names ``param`` (and the fragments)."""

    class _Ctx:
        def __enter__(self):
            self._ctx = pytest.raises(DomainError)
            self.info = self._ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            out = self._ctx.__exit__(*exc)
            msg = str(self.info.value)
            assert param in msg, f"error message does not name {param!r}: {msg}"
            for frag in fragments:
                assert frag in msg, f"error message lacks {frag!r}: {msg}"
            return out

    return _Ctx()
