"""derivations/delta_divergence_gaussian.py runs, and every check in it passes."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_delta_divergence_gaussian_derivation():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, str(ROOT / "derivations" / "delta_divergence_gaussian.py")],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "FAILED" not in out and "all checks passed" in out
    assert "check dR/dpi = alpha - beta (envelope theorem): ok" in out
    assert "check R_mu(1/2) = Phi(-mu/2) (= alpha*, Lemma 4): ok" in out
    assert "\\Delta(G_{\\mu_1}\\|G_{\\mu_2})" in out
