"""The one protocol (dptheory.protocol): every notion's registry, every method on it, and a
contract test subclass for every notion (tests/contract.py) that can fail."""

import dataclasses
import importlib
import pathlib

import pytest

from dptheory import protocol
from dptheory.results import Inapplicable, Kind
from dptheory.validate import DomainError
from tests import contract

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _contract_modules():
    """The test modules that subclass the contract (found by the class's name in their text)."""
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "NotionContract" in path.read_text(encoding="utf-8") and path.name != "test_protocol.py":
            yield ".".join(path.relative_to(ROOT).with_suffix("").parts)


def test_every_notion_has_a_contract_test():
    for module in _contract_modules():
        importlib.import_module(module)
    registries = protocol.registries()
    assert set(registries) == {"shuffle", "shuffle-rdp", "shuffle-rounds", "mechanism", "mixture", "comparison"}
    assert set(registries) <= contract.COVERED, sorted(set(registries) - contract.COVERED)


def test_every_method_of_every_notion_is_on_the_protocol():
    for notion, registry in protocol.registries().items():
        assert registry.notion == notion and len(registry) > 0
        for name, m in registry.items():
            assert isinstance(m, protocol.Method) and m.name == name and m.notion == notion
            assert isinstance(m.kind, Kind) and m.source and m.quantities
            assert set(m.quantities) <= set(protocol.QUANTITIES), (notion, name, m.quantities)
            d = m.describe()
            assert d["name"] == name and d["notion"] == notion and d["title"]


def test_registry_names_and_errors():
    reg = protocol.registry("mechanism")
    with pytest.raises(DomainError, match="must be one of"):
        reg.get_method("nope")
    for bad in ([], [""], ["exact-profile", " "]):
        with pytest.raises(DomainError, match="non-empty"):
            reg.names(bad)
    assert reg.names(None) == list(reg)
    with pytest.raises(DomainError, match="notion"):
        protocol.registry("no-such-notion")
    with pytest.raises(KeyError):
        reg["brand-new"] = reg["exact-profile"]
    with pytest.raises(TypeError):
        del reg["exact-profile"]


def test_a_quantity_a_method_does_not_compute_is_a_record():
    from dptheory.mechanisms import GaussianMechanism

    res = protocol.registry("mechanism")["exact-rdp"].run(GaussianMechanism(1.0), "delta", 0.5)
    assert isinstance(res, Inapplicable) and "computes rdp, not delta" in res.reason
    with pytest.raises(DomainError, match="quantity"):
        protocol.registry("mechanism")["exact-rdp"].check_quantity("variance")


def test_the_contract_catches_an_upper_bound_one_percent_low(monkeypatch):
    """The contract is not vacuous: the RDP route of the mechanism notion planted 1% low fails
    its soundness property against the oracle."""
    from tests.test_mechanism_methods import TestMechanismContract

    reg = protocol.registry("mechanism")
    good = reg["rdp-route"]
    real = good.functions["epsilon"]

    def low(subject, delta, **options):
        res = real(subject, delta, **options)
        return res.replace(lower=0.99 * res.lower, upper=0.99 * res.upper)

    monkeypatch.setitem(reg, "rdp-route", dataclasses.replace(good, functions={"epsilon": low}))
    case = TestMechanismContract()
    monkeypatch.setattr(TestMechanismContract, "_cache", {}, raising=False)
    with pytest.raises(AssertionError, match="rdp-route"):
        case.test_sound_against_the_oracle()
