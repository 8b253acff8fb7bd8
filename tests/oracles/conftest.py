"""Shared fixture of the oracle tests."""

import mpmath
import pytest


@pytest.fixture(autouse=True)
def _precise_comparisons():
    """Arithmetic in the assertions at 100 digits: mpmath's default 15 would round it."""
    with mpmath.workdps(100):
        yield
