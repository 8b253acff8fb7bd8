"""Shared fixtures of the verify tests (the quick run of ``dptheory verify`` is tests/conftest.py's
``quick_report``): a registry that a test may extend without leaking its entries."""

import pytest

from dptheory import verify
from dptheory.verify import registry


@pytest.fixture
def scratch_registry(monkeypatch):
    """The registry with every check and erratum of the toolkit, in copies that the test may add
    to: loaded first, so that the toolkit's modules register into the real dictionaries (patching
    before they are imported left them registered only in the copy, and the real ones empty, for
    every later test of the process)."""
    verify.load()
    monkeypatch.setattr(registry, "CHECKS", dict(registry.CHECKS))
    monkeypatch.setattr(registry, "ERRATA", dict(registry.ERRATA))
    return registry
