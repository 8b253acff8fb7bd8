"""The quick run of ``dptheory verify``, once per test session (in-process): the tests of the
report, of the statuses and of the documented output share it."""

import pytest

from dptheory import verify


@pytest.fixture(scope="session")
def quick_report():
    return verify.run(quick=True)
