"""derivations/mixtures_identities.py runs, states its checks and passes them, and each check fails
on a planted wrong expression or a planted bug in the library code it checks (in the style of
tests/test_derivations.py)."""

import importlib.util
import math
import os
import pathlib
import subprocess
import sys

import sympy as sp

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECKS = {"lemma-6.2", "lemma-6.3", "example-f3", "thm-5.1", "prop-b.7"}


def _env():
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _module():
    if str(ROOT / "derivations") not in sys.path:
        sys.path.insert(0, str(ROOT / "derivations"))
    spec = importlib.util.spec_from_file_location("derivation_mixtures_identities",
                                                  ROOT / "derivations" / "mixtures_identities.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mixtures_identities_derivation():
    proc = subprocess.run([sys.executable, str(ROOT / "derivations" / "mixtures_identities.py")],
                          capture_output=True, text=True, cwd=ROOT, env=_env())
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    names = {line[len("check "):-len(": ok")] for line in out.splitlines() if line.startswith("check ")
             and line.endswith(": ok")}
    assert names == CHECKS and "all 5 checks ok" in out and "FAILED" not in out
    assert "\\sqrt{2 \\pi}" in out  # the printed weight's total mass


def test_planted_mixtures_identities():
    from dptheory import tradeoff
    from dptheory.mixtures import advanced, dpgd, fdivergence

    m = _module()
    # Lemma 6.2: scalings with eta and gamma swapped in the first one
    wrong62 = lambda w, g, e: ((g - w) / ((1 - w) * (e - g)), (w - g) / (w * (e - g)))  # noqa: E731
    assert m.check_lemma62() and not m.check_lemma62(scalings=wrong62)
    # Lemma 6.3: a library that forgets the width scaling s_i
    def unscaled(w, comps, g, e):
        c = {(0, 0): (1 - w) * (1 - g), (1, 0): w * (1 - e), (0, 1): (1 - w) * g, (1, 1): w * e}
        import numpy as np
        p = np.concatenate([ci * comps[i][j].p_mass for (i, j), ci in c.items() if ci > 0])
        q = np.concatenate([ci * comps[i][j].q_mass for (i, j), ci in c.items() if ci > 0])
        return tradeoff.PiecewiseLinear(p / p.sum(), q / q.sum())
    assert m.check_lemma63() and not m.check_lemma63(fn=unscaled)
    # Example F.3: the linear piece with the wrong sign of mu
    wrong_f3 = lambda mu, w, x: advanced.example_f3_lemma31(mu, w, x) + 0.01  # noqa: E731
    assert m.check_example_f3() and not m.check_example_f3(fn=wrong_f3)
    # Thm 5.1: the printed alpha "fixed" by a wrong factor
    assert not m.check_thm51(printed=lambda gap, t: dpgd.dpgd_alpha_printed(gap, t) / math.sqrt(2 * math.pi))
    # Prop. B.7: the length of the graph without its vertical drop
    assert not m.check_prop_b7(length_fn=lambda f: fdivergence.length(f) - (1 - float(f(0.0))))
    gen = fdivergence.LENGTH
    s = list(gen.expr.free_symbols)[0]

    class Wrong:
        expr = sp.sqrt(1 + 2 * s**2)
        at_zero = 1.0

    assert not m.check_prop_b7(generator=Wrong())
