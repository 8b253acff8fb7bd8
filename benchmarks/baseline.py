"""The code of an earlier commit, for the benchmarks that time this tree against it (each in a
subprocess with the extracted tree first on PYTHONPATH)."""

from __future__ import annotations

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def tree(rev: str) -> pathlib.Path | None:
    """The tree of commit ``rev`` under /tmp (``git archive``, extracted once), or None outside a
    git checkout."""
    path = pathlib.Path(f"/tmp/dptheory-{rev}")
    if not path.is_dir():
        path.mkdir(parents=True)
        r = subprocess.run(f"git -C {ROOT} archive {rev} | tar -x -C {path}", shell=True)
        if r.returncode:
            return None
    return path
