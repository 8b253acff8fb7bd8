"""The mechanism grammar: parsing, errors, exact compositions."""

import itertools
import math

import numpy as np
import pytest

from dptheory import tradeoff as T
from dptheory.comparison import parse_mechanism, symmetric_delta
from dptheory.comparison.grammar import MECHANISMS, laplace_lower_bound, laplace_upper_bound
from dptheory.mechanisms import RandomizedResponse
from dptheory.validate import DomainError


@pytest.mark.parametrize("text,name", [
    ("gaussian(mu=1)", "gaussian(mu=1)"),
    (" gaussian( mu = 0.5 ) ^ 4 ", "gaussian(mu=0.5)^4"),
    ("rr(eps=1)", "rr(eps=1, k=2)"),
    ("rr(eps=1, k=3, steps=2)^3", "rr(eps=1, k=3)^6"),
    ("laplace(eps=2)", "laplace(eps=2)"),
    ("sgm(sigma=1, p=0.01, steps=1000)", "sgm(sigma=1, p=0.01)^1000"),
    ("shuffle(eps0=1, n=1000)", "shuffle(eps0=1, n=1000)"),
    ("pp()", "pp()"),
])
def test_parse(text, name):
    assert parse_mechanism(text).name == name


@pytest.mark.parametrize("text,fragment", [
    ("gauss(mu=1)", "unknown mechanism 'gauss'"),
    ("gaussian(mu=1", "not of the form"),
    ("gaussian mu=1", "not of the form"),
    ("gaussian(mu=1)^0", "exponent"),
    ("gaussian(mu=1)^1.5", "exponent"),
    ("gaussian(sigma=1)", "unknown parameter"),
    ("rr(eps=x)", "not a number"),
    ("laplace()", "missing parameter 'eps'"),
    ("rr(eps=1, eps=2)", "given twice"),
    ("rr(eps=1 k=2)", "not key=number"),
])
def test_malformed_strings_list_the_grammar(text, fragment):
    with pytest.raises(DomainError) as info:
        parse_mechanism(text)
    msg = str(info.value)
    assert fragment in msg and "Grammar:" in msg
    assert all(name in msg for name in MECHANISMS)


@pytest.mark.parametrize("text,param", [("gaussian(mu=-1)", "mu"), ("rr(eps=1, k=1)", "k"), ("sgm(sigma=1, p=2)", "p"),
                                        ("rr(eps=1, steps=0)", "steps"), ("shuffle(eps0=1, n=1.5)", "n")])
def test_out_of_range_parameters(text, param):
    with pytest.raises(DomainError, match=param):
        parse_mechanism(text)


def test_gaussian_composition_is_exact():
    assert parse_mechanism("gaussian(mu=0.5)^16").tradeoff().mu == pytest.approx(2.0, rel=1e-15)


@pytest.mark.parametrize("eps,k,steps", [(1.0, 2, 3), (0.7, 3, 3), (2.0, 4, 2)])
def test_rr_composition_against_enumeration(eps, k, steps):
    """The T-fold product of k-ary randomized response, enumerated output by output: its exact
    trade-off function equals the grammar's (Delta<-> = 0 up to rounding)."""
    p1, q1 = RandomizedResponse(eps, k).pmfs()
    p, q = [], []
    for outs in itertools.product(range(k), repeat=steps):
        p.append(math.prod(p1[o] for o in outs))
        q.append(math.prod(q1[o] for o in outs))
    enumerated = T.from_pmfs(np.array(p), np.array(q))
    ours = parse_mechanism(f"rr(eps={eps}, k={k})^{steps}").tradeoff()
    assert symmetric_delta(enumerated, ours).upper < 1e-12
    assert parse_mechanism(f"rr(eps={eps}, k={k})^{steps}").exact


def test_laplace_lower_bound_is_below_and_close():
    for eps in (0.3, 1.0, 4.0):
        lb = laplace_lower_bound(eps)
        a = np.linspace(0, 1, 20001)
        gap = np.asarray(T.laplace(eps)(a)) - np.asarray(lb(a))
        assert gap.min() >= -1e-15 and gap.max() < 1e-6


def test_kinds():
    assert parse_mechanism("gaussian(mu=1)^3").kind == "exact"
    assert parse_mechanism("laplace(eps=1)").kind == "exact"
    assert parse_mechanism("laplace(eps=1)^3").kind == "lower"
    assert parse_mechanism("sgm(sigma=1, p=0.1)").kind == "lower"
    assert parse_mechanism("shuffle(eps0=1, n=100)").kind == "lower"


def test_grid_parameter():
    """grid= sets the PLD interval of the mechanisms computed through one (not part of the
    mechanism's identity); elsewhere it is an unknown parameter; it must be positive."""
    fine = parse_mechanism("sgm(sigma=1, p=0.1, steps=5, grid=1e-5)")
    assert fine.params["grid"] == 1e-5 and fine.identity == parse_mechanism("sgm(sigma=1, p=0.1)^5").identity
    with pytest.raises(DomainError, match="unknown parameter"):
        parse_mechanism("gaussian(mu=1, grid=1e-5)")
    with pytest.raises(DomainError, match="grid"):
        parse_mechanism("laplace(eps=1, grid=-1)^2")
    assert parse_mechanism("sgm_sym(sigma=2, p=0.1)").name == "sgm_sym(sigma=2, p=0.1)"


def test_certified_curve_kinds():
    assert parse_mechanism("gaussian(mu=1)^3").curves().kind == "exact"
    assert parse_mechanism("laplace(eps=1)^3").curves().kind == "bounds"
    assert parse_mechanism("sgm(sigma=1, p=0.1, steps=3)").curves().kind == "bounds"
    assert parse_mechanism("sgm(sigma=1, p=1, steps=3)").curves().kind == "exact"
    assert parse_mechanism("shuffle(eps0=1, n=50)").curves().kind == "lower"


def test_laplace_upper_bound_is_above_and_close():
    for eps in (0.3, 1.0, 4.0):
        ub = laplace_upper_bound(eps)
        a = np.linspace(0, 1, 20001)
        gap = np.asarray(ub(a)) - np.asarray(T.laplace(eps)(a))
        assert gap.min() >= -1e-15 and gap.max() < 1e-5
