"""derivations/mixtures_identities.py runs, states its checks and passes them."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_mixtures_identities_derivation():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, str(ROOT / "derivations" / "mixtures_identities.py")],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    assert "all checks passed" in out and "FAILED" not in out
    assert sum(line.startswith("check ") and line.endswith(": ok") for line in out.splitlines()) == 12
    assert "\\sqrt{2} \\sqrt{\\pi}" in out  # the printed weight's total mass
