"""Compile LaTeX with the real pdflatex (and bibtex) and fail on any error or unresolved reference.

The tests that use it are skipped, with the reason, only when pdflatex is absent and the
environment variable CI is not set; in CI its absence is a failure (.ci/run installs it).
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest

#: log lines that mean the document is wrong: an error, an undefined reference or citation
BAD_LOG = re.compile(r"^! |LaTeX Error|undefined references|Citation .* undefined|Reference .* undefined"
                     r"|There were undefined", re.M)


def require_pdflatex() -> str:
    """The path of pdflatex; skip the test when it is absent outside CI, fail in CI."""
    path = shutil.which("pdflatex")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is not installed but CI is set: .ci/run must install texlive-latex-base "
                        "and texlive-latex-recommended")
        pytest.skip("pdflatex is not installed (outside CI); install texlive-latex-base and "
                    "texlive-latex-recommended to run this test")
    return path


def _run(cmd: list[str], cwd: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "max_print_line": "10000"})


def compile_tex(tex_path: pathlib.Path) -> str:
    """Compile ``tex_path`` in its directory: pdflatex, bibtex when the document has a
    bibliography, pdflatex twice more; return the final log. Fails the test on a non-zero exit,
    an error in the log, or any undefined reference or citation in the final log."""
    pdflatex = require_pdflatex()
    tex_path = pathlib.Path(tex_path)
    cwd, stem = tex_path.parent, tex_path.stem
    cmd = [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", tex_path.name]
    first = _run(cmd, cwd)
    assert first.returncode == 0, f"pdflatex failed:\n{first.stdout[-3000:]}"
    if "\\bibliography{" in tex_path.read_text(encoding="utf-8"):
        bibtex = shutil.which("bibtex")
        assert bibtex is not None, "the document has a bibliography but bibtex is not installed"
        bib = _run([bibtex, stem], cwd)
        assert bib.returncode == 0 and "error message" not in bib.stdout, f"bibtex failed:\n{bib.stdout}"
        assert "Warning--I didn't find a database entry" not in bib.stdout, bib.stdout
    for _ in range(2):
        run = _run(cmd, cwd)
        assert run.returncode == 0, f"pdflatex failed:\n{run.stdout[-3000:]}"
    log = (cwd / f"{stem}.log").read_text(encoding="latin-1")
    bad = BAD_LOG.findall(log)
    assert not bad, f"LaTeX problems in {stem}.log: {bad}\n" + "\n".join(
        line for line in log.splitlines() if BAD_LOG.search(line))
    assert (cwd / f"{stem}.pdf").stat().st_size > 1000
    return log
