"""The derivation scripts run and state what they derive."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> str:
    # a plain checkout: the package is found through PYTHONPATH, not through an installation
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, str(ROOT / "derivations" / script), *args],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_variation_ratio_closed_forms_derivation():
    out = _run("variation_ratio_closed_forms.py")
    assert "equals the corrected Theorem 4.2 (40 digits at three points): True" in out
    assert "limit n -> oo of the corrected form: 0" in out
    assert "= log(1 + (e-1)/2) =" in out


def test_shuffle_rdp_closed_forms_derivation():
    out = _run("shuffle_rdp_closed_forms.py")
    assert "printed below the lower bound: True" in out
    assert "upper 1 / lower = 2*exp(epsilon_0)" in out
    assert "Corollary 2 / refined - coth(eps0/2)^2 = 0" in out
    assert "minus Corollary 2: 0" in out


def test_rdp_figures_script_prints_chen_figures():
    out = _run("rdp_figures.py", "--quick", "--figures", "chen")
    assert "Chen Fig. 2: lambda = 4, n = 1e4" in out and "Chen Fig. 3: eps0 = 2, n = 1e4" in out
    rows = [line.split() for line in out.splitlines() if line.strip() and line.split()[0] == "0.1"]
    exact, cor2, refined, girgis, lower = map(float, rows[0][1:6])
    assert lower <= exact <= girgis and cor2 > 100 * exact and abs(refined / exact - 1) < 1e-3
