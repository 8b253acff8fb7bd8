"""The stand-in for a module imported on first use (dptheory/lazy_import.py): nothing is imported
before an attribute is read; then the attributes are the real module's own objects (classes for
isinstance, the context whose precision is set), and a missing attribute is an AttributeError."""

from __future__ import annotations

import sys

import mpmath as real_mpmath
import pytest

from dptheory import lazy_import
from dptheory.lazy_import import LazyModule, lazy_module


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A module ``lazy_probe`` on sys.path that counts its imports, not yet imported."""
    (tmp_path / "lazy_probe.py").write_text("import builtins\n"
                                           "builtins.lazy_probe_imports = getattr(builtins, 'lazy_probe_imports', 0) + 1\n"
                                           "VALUE = 42\n"
                                           "class Thing:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lazy_probe", raising=False)
    import builtins

    monkeypatch.setattr(builtins, "lazy_probe_imports", 0, raising=False)
    yield builtins
    sys.modules.pop("lazy_probe", None)


def test_the_first_attribute_read_imports_the_module_once(probe):
    stand_in = LazyModule("lazy_probe")
    assert "lazy_probe" not in sys.modules and probe.lazy_probe_imports == 0
    assert stand_in.VALUE == 42
    assert "lazy_probe" in sys.modules and probe.lazy_probe_imports == 1
    assert isinstance(sys.modules["lazy_probe"].Thing(), stand_in.Thing)
    assert stand_in.Thing is sys.modules["lazy_probe"].Thing and probe.lazy_probe_imports == 1


def test_a_missing_attribute_is_an_attribute_error(probe):
    with pytest.raises(AttributeError, match="no_such_name"):
        LazyModule("lazy_probe").no_such_name
    assert not hasattr(LazyModule("lazy_probe"), "no_such_name")


def test_mpmath_through_the_stand_in_is_mpmath():
    mp = LazyModule("mpmath")
    x = mp.mpf(3) / 7
    assert isinstance(x, mp.mpf) and isinstance(x, real_mpmath.mpf) and isinstance(real_mpmath.mpf(1), mp.mpf)
    assert mp.mpf is real_mpmath.mpf and mp.mp is real_mpmath.mp
    saved = real_mpmath.mp.dps
    try:
        mp.mp.dps = 60
        assert real_mpmath.mp.dps == 60
        assert real_mpmath.nstr(mp.mpf(1) / 3, 60) == "0." + "3" * 60
    finally:
        mp.mp.dps = saved
    with mp.workdps(45):
        assert real_mpmath.mp.dps == 45
        assert real_mpmath.nstr(mp.mpf(2) / 3, 45) == "0." + "6" * 44 + "7"
    assert real_mpmath.mp.dps == saved


def test_one_stand_in_per_name():
    assert lazy_module("mpmath") is lazy_module("mpmath") is lazy_import.mpmath
    assert repr(lazy_import.mpmath) == "<lazy module 'mpmath'>"
    assert "mpf" in dir(lazy_import.mpmath)
