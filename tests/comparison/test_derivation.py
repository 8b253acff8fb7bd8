"""The Delta-divergence derivations (Gaussian, Laplace, randomized response) and the Blackwell
dominance conditions fail when the library's Formula is wrong: planted expressions make each check
function return False, and a wrong registered Formula makes the script exit 1 (or its checks fail).
That every script runs, prints LaTeX and passes its checks is tests/test_derivations.py's."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DERIVATIONS = ROOT / "derivations"


def _env():
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _module(script):
    if str(DERIVATIONS) not in sys.path:
        sys.path.insert(0, str(DERIVATIONS))
    name = "comparison_derivation_" + script[:-3]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, DERIVATIONS / script)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_planted_laplace():
    import sympy as sp

    m = _module("delta_divergence_laplace.py")
    cf = m.cf
    e1, e2 = cf.DELTA_LAPLACE.params
    assert m.check_delta_formula() and m.check_bayes_formula()
    assert not m.check_delta_formula(formula=sp.Max(0, (sp.exp(-e1) - sp.exp(-e2)) / 2))      # eps instead of eps/2
    assert not m.check_delta_formula(formula=sp.Max(0, sp.exp(-e1 / 2) - sp.exp(-e2 / 2)))    # without the 1/2
    mu, prior = cf.LAPLACE_BAYES_ERROR.params
    assert not m.check_bayes_formula(formula=sp.Min(prior, 1 - prior, sp.exp(-mu) * sp.sqrt(prior * (1 - prior))))
    wrong_tradeoff = m.tradeoff.LAPLACE_TRADEOFF.expr.subs(sp.Rational(1, 4), sp.Rational(1, 2))
    assert not m.check_stationary(trade=wrong_tradeoff)


def test_planted_rr():
    import sympy as sp

    m = _module("delta_divergence_rr.py")
    cf = m.cf
    assert m.check_rr_k_formula() and m.check_rr_binary_formula() and m.check_rr_bayes_formula()
    p1, p2, k = cf.DELTA_RR_K.params
    assert not m.check_rr_k_formula(formula=sp.Max(0, (1 / (sp.exp(p1) + k - 1) - 1 / (sp.exp(p2) + k - 1))))  # no k/2
    b1, b2 = cf.DELTA_RR.params
    assert not m.check_rr_binary_formula(formula=sp.Max(0, 1 / (1 + sp.exp(b1)) - 1 / (2 + sp.exp(b2))))
    e, prior = cf.RR_BAYES_ERROR.params
    assert not m.check_rr_bayes_formula(formula=sp.Min(prior, 1 - prior, 1 / (2 + sp.exp(e))))


def test_planted_gaussian():
    import sympy as sp

    from dptheory.symbols import Phi

    m = _module("delta_divergence_gaussian.py")
    m1, m2 = m.cf.DELTA_GAUSSIAN.params
    assert m.check_closed_form()
    assert not m.check_closed_form(formula=sp.Max(0, Phi(-m1) - Phi(-m2)))


def test_wrong_library_formula_makes_the_script_exit_1():
    """End to end: the registered delta-divergence-laplace replaced by a wrong expression before
    the script runs: its check fails and it exits 1."""
    code = (
        "import runpy, sys, sympy as sp\n"
        f"sys.path.insert(0, {str(DERIVATIONS)!r})\n"
        "from dptheory.formula import Parts\n"
        "from dptheory.comparison.closed_forms import DELTA_LAPLACE as F\n"
        "e1, e2 = F.params\n"
        "F.__dict__['_parts'] = Parts(sp.Max(0, (sp.exp(-e1) - sp.exp(-e2)) / 2), F.params, F.conditions)\n"
        f"runpy.run_path({str(DERIVATIONS / 'delta_divergence_laplace.py')!r}, run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env())
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "check delta-divergence-laplace: FAILED" in proc.stdout


def test_planted_blackwell_conditions():
    """Each derivation step rejects a wrong condition: the parameters swapped, a fixed point of the
    wrong mechanism, the k-ary fixed points' order reversed, Lemma B.2 on a wrong trade-off
    function; the numerical agreement rejects a wrong predicate."""
    import types

    import sympy as sp

    from dptheory.symbols import Phi

    m = _module("blackwell_dominance.py")
    C = m.C
    assert m.check_gaussian_condition() and m.check_rr_k_condition() and m.check_symmetric_rr()
    assert m.check_gaussian_laplace_condition() and m.check_lemma_b2()
    m1, m2 = C.BLACKWELL_GAUSSIAN.params
    assert not m.check_gaussian_condition(formula=m2 >= m1)
    e1, e2, k1, k2 = C.BLACKWELL_RR_K.params
    reversed_stars = sp.And(e1 >= e2, k1 / (sp.exp(e1) + k1 - 1) >= k2 / (sp.exp(e2) + k2 - 1))
    assert not m.check_rr_k_condition(formula=reversed_stars)
    assert not m.check_rr_k_condition(formula=sp.And(e1 >= e2, k1 / (sp.exp(e1) + k1) <= k2 / (sp.exp(e2) + k2)))
    star, e = C.BLACKWELL_SYMMETRIC_RR.params
    assert not m.check_symmetric_rr(formula=star <= 1 / (2 + sp.exp(e)))
    mu, eps = C.BLACKWELL_GAUSSIAN_LAPLACE.params
    assert not m.check_gaussian_laplace_condition(formula=Phi(-mu / 2) <= 1 / (1 + sp.exp(eps)))
    assert not m.check_gaussian_laplace_condition(formula=Phi(-mu) <= sp.exp(-eps / 2) / 2)
    g = m.tradeoff.GAUSSIAN_TRADEOFF
    gm, ga = g.params
    assert not m.check_lemma_b2(trade=g.expr.subs(gm, gm / 2))
    x1, x2 = C.BLACKWELL_LAPLACE.params
    assert not m.check_monotone_bayes_error(m.cf.LAPLACE_BAYES_ERROR, types.SimpleNamespace(params=(x1, x2),
                                                                                           expr=x1 <= x2))
    assert not m.check_against_compare("swapped", lambda x, y: x <= y, m.gaussian_pairs()[:7])


def test_wrong_library_condition_fails_the_derivation():
    """End to end: the registered blackwell-gaussian-laplace replaced by a wrong condition (the
    randomized-response fixed point instead of Laplace's) before the derivation's checks run:
    the symbolic step and the agreement with compare both fail."""
    code = (
        "import sys, sympy as sp\n"
        f"sys.path.insert(0, {str(DERIVATIONS)!r})\n"
        "from dptheory.formula import Parts\n"
        "from dptheory.symbols import Phi\n"
        "from dptheory.comparison.conditions import BLACKWELL_GAUSSIAN_LAPLACE as F\n"
        "mu, e = F.params\n"
        "F.__dict__['_parts'] = Parts(Phi(-mu / 2) <= 1 / (1 + sp.exp(e)), F.params, F.conditions)\n"
        "F.__dict__['_generated_entry'] = None\n"
        "import blackwell_dominance as m\n"
        "pairs = dict((c.name, p) for c, p in m.cross_pairs())['blackwell-gaussian-laplace']\n"
        "print(m.check_gaussian_laplace_condition(), m.check_against_compare('x', F, pairs))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "False False"
    assert "DISAGREE" in proc.stdout
