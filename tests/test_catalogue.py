"""The catalogue of closed forms (dptheory.catalogue): every formula module registers, every
formula is described completely, and lookups fail clearly."""

import pytest

from dptheory import catalogue
from dptheory.results import Kind, Status
from dptheory.validate import DomainError


def test_every_formula_module_registers_formulas():
    """Each module of FORMULA_MODULES (a package counts with its submodules) builds at least one
    formula of the catalogue, and no formula comes from a module the catalogue does not list."""
    builders = {f._build.__module__ for f in catalogue.catalogue().values()}
    for module in catalogue.FORMULA_MODULES:
        assert any(b == module or b.startswith(module + ".") for b in builders), module
    for b in builders:
        assert any(b == m or b.startswith(m + ".") for m in catalogue.FORMULA_MODULES), b


def test_every_formula_has_kind_status_source_and_latex():
    formulas = catalogue.catalogue()
    assert len(formulas) >= 40 and list(formulas) == sorted(formulas)
    for name, formula in formulas.items():
        assert formula.name == name
        assert isinstance(formula.kind, Kind) and isinstance(formula.status, Status)
        assert formula.source.strip()
        assert formula.latex().strip()
        assert set(formula.expr.free_symbols) <= set(formula.params)


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(DomainError, match="unknown; known formulas: .*gdp-delta"):
        catalogue.get("no-such-formula")
    assert catalogue.get("gdp-delta").name == "gdp-delta"


def test_names_by_prefix():
    assert catalogue.names("gdp-") and all(n.startswith("gdp-") for n in catalogue.names("gdp-"))
    assert catalogue.names("zzz") == []
