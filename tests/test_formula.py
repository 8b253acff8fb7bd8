"""The Formula abstraction, proved on the closed forms of the foundation."""

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from dptheory import catalogue, codegen, formula, rounding, symbols as S
from dptheory.results import Kind, Status
from dptheory.profile import GDP_DELTA
from dptheory.rdp import TO_DP
from dptheory.tradeoff import GAUSSIAN_RENYI, GAUSSIAN_TRADEOFF
from dptheory.mechanisms import RR_RENYI
from dptheory.validate import ConditionError


def test_numpy_and_mpmath_versions_come_from_one_expression():
    f_np = GDP_DELTA.numpy()
    f_mp = GDP_DELTA.mpmath(50)
    for mu, e in [(0.5, 0.1), (1.0, 1.0), (2.0, 3.0)]:
        # independent: mpmath's own normal CDF, not the erfc form of the expression
        with mpmath.workdps(50):
            ref = mpmath.ncdf(-e / mpmath.mpf(mu) + mpmath.mpf(mu) / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mpmath.mpf(mu) - mpmath.mpf(mu) / 2)
        assert abs(f_mp(mu, e) - ref) < mpmath.mpf(10) ** -45
        assert math.isclose(f_np(mu, e), float(ref), rel_tol=1e-12)
    vec = f_np(1.0, np.array([0.0, 0.5, 1.0]))
    assert vec.shape == (3,) and np.all(np.diff(vec) < 0)


def test_conditions_are_checked_with_a_clear_error():
    with pytest.raises(ConditionError, match=r"mu"):
        GDP_DELTA(-1.0, 0.5)
    with pytest.raises(ConditionError, match=r"\\lambda > 1"):
        GAUSSIAN_RENYI(1.0, 0.5)
    with pytest.raises(ConditionError, match=r"k \\geq 2"):
        RR_RENYI(1.0, 1, 2.0)
    with pytest.raises(ConditionError, match=r"\\mathbb\{Z\}"):
        RR_RENYI(1.0, 2.5, 2.0)
    assert not RR_RENYI.holds(1.0, 1, 2.0)
    assert RR_RENYI.holds(1.0, 3, 2.0)
    with pytest.raises(ConditionError):
        GAUSSIAN_RENYI.numpy()(1.0, np.array([2.0, 0.9]))


def test_latex_simplify_and_asymptotics():
    assert GAUSSIAN_RENYI.latex() == r"D_\lambda(\mathcal N(0,1)\|\mathcal N(\mu,1)) = \frac{\lambda \mu^{2}}{2}"
    assert "\\lambda > 1" in GAUSSIAN_RENYI.conditions_latex()
    # Gaussian tradeoff at alpha = 1/2: Phi(-mu) = erfc(mu/sqrt 2)/2
    simplified = GAUSSIAN_TRADEOFF.subs(alpha=sp.Rational(1, 2))
    assert sp.simplify(simplified - sp.erfc(S.mu / sp.sqrt(2)) / 2) == 0
    # RR Renyi at large lambda grows like eps0 (leading term of (lambda-1)^-1 log e^{eps0 lambda})
    a = sp.Symbol("a", positive=True)
    lead = formula.Formula("t", sp.log(sp.exp(a * S.lam) + 1) / (S.lam - 1), (a, S.lam),
                           kind=formula.Kind.EXACT, source="test").asymptotic("lam")
    assert sp.simplify(lead - a) == 0
    # a rate: 3/sqrt(n) + 1/n has leading term 3/sqrt(n)
    rate = formula.Formula("rate", 3 / sp.sqrt(S.n) + 1 / S.n, (S.n,), kind=formula.Kind.EXACT, source="test")
    assert sp.simplify(rate.asymptotic("n") - 3 / sp.sqrt(S.n)) == 0
    ser = TO_DP["mironov"].series("delta", 1, 2)
    assert ser.has(S.delta)


def test_catalogue_lists_and_finds_formulas():
    names = list(catalogue.catalogue())
    assert "gdp-delta" in names and "rdp-to-dp" in names
    assert catalogue.get("gdp-delta") is GDP_DELTA
    with pytest.raises(formula.DomainError, match="unknown"):
        catalogue.get("no-such-formula")


def test_every_formula_has_a_status_that_fits_its_kind():
    """An approximation is not a bound; every bound or exact value is proven, refuted or unproven."""
    for name, f in catalogue.catalogue().items():
        assert isinstance(f.status, Status), name
        if f.kind is Kind.APPROXIMATION:
            assert f.status is Status.NOT_A_BOUND, name
        else:
            assert f.status is not Status.NOT_A_BOUND, name


def test_statuses_follow_the_digests():
    """The published claims the digests discuss carry the status they establish."""
    get = catalogue.get
    assert get("girgis-upper-2-printed").status is Status.REFUTED      # seed-004 §3.4: below the exact value
    assert get("girgis-corollary-3.2").status is Status.UNPROVEN       # seed-004 §4.5: step (47) for large n only
    assert get("variation-ratio-analytic").status is Status.UNPROVEN   # seed-002 §8.4: Lemma 4.5 has a gap
    assert get("chen-gdp").status is Status.NOT_A_BOUND                # seed-001: a central-limit heuristic
    assert get("clones-closed-form").status is Status.PROVEN


def test_formula_module_imports_no_module_above_it():
    """formula.py is a foundation module: the catalogue imports the modules that define formulas,
    never the other way round (a fresh interpreter, so that other tests' imports do not count)."""
    import subprocess
    import sys

    code = ("import sys, dptheory.formula; "
            "print(sorted(m for m in sys.modules if m.startswith('dptheory')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(eval(out))
    assert loaded <= {"dptheory", "dptheory.formula", "dptheory.results", "dptheory.rounding",
                      "dptheory.special", "dptheory.validate", "dptheory.codegen", "dptheory.domain",
                      "dptheory.lazy_import"}, loaded


def test_formulas_are_built_lazily_without_sympy():
    """Importing the formula modules and evaluating a registered formula in float64 or mpmath
    (the float paths) does not import sympy: the generated source is run; the function is
    cached. Building the expression imports sympy."""
    import subprocess
    import sys

    code = ("import sys, dptheory.profile as p, dptheory.shuffle.methods; a = 'sympy' in sys.modules; "
            "f = p.GDP_DELTA.numpy(); f(1.0, 1.0); p.GDP_DELTA.mpmath(30, check=False)(1.0, 1.0); "
            "b = 'sympy' in sys.modules; same = p.GDP_DELTA._np is p.GDP_DELTA._np; p.GDP_DELTA.expr; "
            "print(a, b, same, 'sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "True", "True"]


def test_generated_module_is_what_the_expressions_give():
    """dptheory/generated_formulas.json holds the sources sympy lambdifies today from every
    registered formula (regenerate with ``python -m dptheory.catalogue --write``)."""
    assert catalogue.GENERATED_PATH.read_text() == catalogue.generated_text(), (
        "stale: run python -m dptheory.catalogue --write")


def test_generated_functions_resolve_names_as_lambdify_does():
    """Each global name of a generated function is the very object sympy's lambdify binds it to
    (so the generated function is the lambdified one), and both give the same numbers."""
    import builtins

    for name, f in catalogue.catalogue().items():
        entry = f._generated_entry
        assert entry is not None, name
        for which, modules in (("numpy", formula.special.numpy_modules()), ("mpmath", formula.special.MPMATH_MODULES)):
            fresh = sp.lambdify(f.params, f.expr, modules=modules)
            generated = codegen.compile_source(name, *entry[which])
            for used, _ in entry[which][1]:
                expected = fresh.__globals__.get(used, getattr(builtins, used, None))
                assert generated.__globals__[used] is expected, (name, which, used)
    # and the numbers: a formula with a sum, a gamma, an erfc and a Piecewise, generated vs lambdified
    from dptheory.shuffle.rdp.formulas import UPPER_1
    from dptheory.tradeoff import LAPLACE_TRADEOFF

    for f, args in ((UPPER_1, (1.0, 1000, 7)), (GDP_DELTA, (1.3, 0.7)), (LAPLACE_TRADEOFF, (1.0, 0.3))):
        fresh = sp.lambdify(f.params, f.expr, modules=formula.special.numpy_modules())
        assert f._np(*args) == fresh(*args)


def test_lazy_and_eager_formulas_agree():
    built = formula.Formula("lazy", build=lambda: formula.Parts(S.mu**2, (S.mu,), (S.mu < 3,)),
                            kind=Kind.EXACT, source="test", status=Status.PROVEN)
    eager = formula.Formula("eager", S.mu**2, (S.mu,), conditions=(S.mu < 3,), kind=Kind.EXACT, source="test")
    assert built.expr == eager.expr and built.conditions == eager.conditions
    assert built(2.0) == eager(2.0) == 4.0
    with pytest.raises(ConditionError, match="mu < 3"):
        built(3.5)
    approx = formula.Formula("a", S.mu, (S.mu,), kind=Kind.APPROXIMATION, source="test")
    assert approx.status is Status.NOT_A_BOUND
    with pytest.raises(TypeError):
        formula.Formula("neither", kind=Kind.EXACT, source="test")


def test_describe_is_json_ready():
    info = GDP_DELTA.describe()
    assert info["kind"] == "exact" and info["source"].startswith("Dong")
    assert any("mu" in c for c in info["conditions"])


def test_an_edited_builder_is_lambdified_afresh(monkeypatch):
    """A generated entry whose builder's source has changed since generation is not used."""
    entry = dict(codegen.generated_formulas()["gdp-delta"])
    assert formula.Formula._generated_entry.func(GDP_DELTA) is not None
    monkeypatch.setattr(codegen, "generated_formulas", lambda: {"gdp-delta": {**entry, "builder": "0" * 64}})
    assert formula.Formula._generated_entry.func(GDP_DELTA) is None


def test_conditions_checked_with_mpmath_agree_with_sympy():
    """failed_condition evaluates the generated mpmath version of each condition (no sympy): on
    random parameters, inside and outside every formula's domain, it names the same failed
    condition as sympy's own evaluation of the relationals."""
    rng = np.random.default_rng(7)
    checked = failing = 0
    for name, f in catalogue.catalogue().items():
        sig = f._signature
        for _ in range(25):
            values = []
            for integer in sig.integer:
                v = float(rng.choice([-1.0, 1.0], p=[0.1, 0.9]) * 10 ** rng.uniform(-3, 3))
                values.append(float(round(v)) if integer and rng.random() < 0.9 else v)
            got = f._failed_condition_mpmath(values)
            assert got == f._failed_condition_sympy(values), (name, values)
            checked += 1
            failing += got is not None
    assert checked > 1000 and 0.1 * checked < failing < 0.9 * checked


def test_corollary_3_2_condition_is_decided_at_its_edge_without_sympy():
    """lambda^4 e^(5 eps0) < n/9 at eps0 = 0 is an integer comparison: 9 * 2^4 = 144 < n holds
    from n = 145 on (exact), and near the edge for eps0 > 0 (log n/9 - 4 log lambda = 5 eps0 to
    1e-18: mpmath at 50 digits decides what float64 cannot)."""
    from dptheory.shuffle.rdp.formulas import COROLLARY_3_2

    assert not COROLLARY_3_2.holds(0.0, 144, 2) and COROLLARY_3_2.holds(0.0, 145, 2)
    with mpmath.workdps(80):
        e0 = mpmath.log(mpmath.mpf(10**12) / (9 * 3**4)) / 5  # the edge for n = 1e12, lambda = 3
    below, above = rounding.mp_down(e0), rounding.mp_up(e0)
    with mpmath.workdps(80):
        truth_below = 3**4 * mpmath.exp(5 * mpmath.mpf(below)) < mpmath.mpf(10**12) / 9
        truth_above = 3**4 * mpmath.exp(5 * mpmath.mpf(above)) < mpmath.mpf(10**12) / 9
    assert truth_below != truth_above  # the two floats straddle the edge
    assert COROLLARY_3_2.holds(below, 10**12, 3) == truth_below
    assert COROLLARY_3_2.holds(above, 10**12, 3) == truth_above
