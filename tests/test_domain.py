"""The validity domain of a formula (dptheory.domain): assumptions and conditions merged into one
range per parameter, joint conditions once, implied ends dropped only on a proof."""

import itertools

import pytest

import sympy as sp

from dptheory import catalogue, domain, formula
from dptheory.results import Kind

@pytest.mark.parametrize("name, expected", [
    ("gdp-delta", [r"\mu > 0"]),
    ("rdp-to-dp", [r"\rho \geq 0", r"\lambda > 1", r"0 < \delta < 1"]),
    ("efmrtt19", [r"0 \leq \epsilon_{0} \leq \frac{1}{2}", r"n \in \{1000, 1001, \dots\}",
                  r"0 < \delta \leq \frac{1}{100}"]),
    ("beta-hadamard", [r"\epsilon_{0} \geq 0", r"K \in \{1, 2, \dots\}", r"s \in \{1, 2, \dots\}", "s < K"]),
])
def test_conditions_are_merged_into_their_simplest_set(name, expected):
    """Issue 12: gdp-delta listed "mu >= 0" and "mu > 0" as two lines."""
    assert catalogue.get(name).conditions_latex() == expected


def _merged_predicate(f):
    """A float predicate of the parameters: every merged range and joint condition holds."""
    ranges, joint = domain.merged_conditions(f.params, f.all_conditions())
    # plain symbols: "mu >= 0" would already be True for the nonnegative mu
    plain = [sp.Dummy(s.name, real=True) for s in f.params]
    swap = dict(zip(f.params, plain))
    parts = [ranges[sym].as_relational(x) for sym, x in zip(f.params, plain)] + [c.subs(swap) for c in joint]
    tests = [sp.lambdify(plain, part, modules="math") for part in parts]

    def holds(*values):
        try:  # the ranges first: a joint condition may be undefined outside them
            return all(bool(t(*values)) for t in tests)
        except (ValueError, ZeroDivisionError):
            return False

    return holds


@pytest.mark.parametrize("name", ["gdp-delta", "rdp-to-dp", "efmrtt19", "beta-hadamard", "beta-privunit",
                                  "clones-closed-form", "girgis-corollary-3.2", "dp-tradeoff"])
def test_merged_domain_is_the_domain_the_checks_use(name):
    """The merged conditions describe exactly the parameters Formula.holds accepts (which uses the
    conditions and assumptions as given), on a grid crossing every boundary."""
    f = catalogue.get(name)
    grid = {True: [1, 2, 999, 1000], False: [-1.0, 0.0, 0.004, 0.5, 1.0, 2.0]}
    axes = [grid[bool(s.is_integer)] for s in f.params]
    merged = _merged_predicate(f)
    checked = 0
    for combo in itertools.islice(itertools.product(*axes), 150):
        assert bool(merged(*combo)) == f.holds(*combo), (name, combo)
        checked += 1
    assert checked > 5


def test_integer_ranges():
    m = sp.Symbol("m", integer=True)
    f = formula.Formula("t-int", m + 1, (m,), kind=Kind.EXACT, source="test", conditions=(m < 5,))
    assert f.conditions_latex() == [r"m \in \mathbb{Z},\ m < 5"]
    f = formula.Formula("t-int2", m + 1, (m,), kind=Kind.EXACT, source="test", conditions=(m < 5, m >= -2))
    assert f.conditions_latex() == [r"m \in \{-2, \dots, 4\}"]
    x = sp.Symbol("x", real=True)
    assert formula.Formula("t-real", x, (x,), kind=Kind.EXACT, source="test").conditions_latex() == []


@pytest.mark.parametrize("name, dropped, kept", [
    ("berry-esseen-gamma", r"v_{2} > 0", r"v_{2} > v_{1}^{2}"),
])
def test_implied_conditions_are_not_typeset(name, dropped, kept):
    """berry-esseen-gamma listed v_2 > 0 beside v_2 > v_1^2 (implied, as v_1^2 >= 0)."""
    shown = catalogue.get(name).conditions_latex()
    assert dropped not in shown and kept in shown


def test_implication_check_is_sound():
    """An end is dropped only when a joint condition proves it; what sympy cannot decide stays."""
    x, y = sp.symbols("x y", real=True)
    pos = sp.Symbol("z", positive=True)
    cases = [
        ((x > 0, x > y**2), [r"x > y^{2}"]),                      # y^2 >= 0: x > 0 implied
        ((x > 0, x > y), [r"x > 0", r"x > y"]),                   # y may be negative: kept
        ((x > 0, y > 1, x >= y), [r"y > 1", r"x \geq y"]),        # x >= y > 1 > 0
        ((x > 0, y >= 0, x >= y), [r"x > 0", r"y \geq 0", r"x \geq y"]),   # x >= y >= 0 gives x >= 0 only
        ((x < 1, x < pos), [r"x < 1", r"x < z"]),                 # z may exceed 1: kept
    ]
    for conditions, expected in cases:
        syms = sorted(set().union(*(c.free_symbols for c in conditions)) - {pos}, key=str)
        f = formula.Formula("test", x, tuple(syms), kind="upper", source="a test", conditions=conditions)
        assert f.conditions_latex() == expected, (conditions, f.conditions_latex())
