"""What a new user meets first: the README's set-up, the next command they type, the version, and
no link to files outside the repository."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
from importlib.metadata import version

import pytest

from dptheory.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_version_has_one_source(capsys):
    import dptheory

    assert dptheory.__version__ == version("dptheory")
    assert "__version__" in dir(dptheory)
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"dptheory {version('dptheory')}"


def _block_after(marker: str) -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(re.escape(marker) + r"\n```sh\n(.*?)```", text, re.S)
    assert block, f"README lacks the block after {marker}"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_says_to_activate_the_environment_before_the_examples():
    """After the set-up line, `dptheory` is only on the PATH of the activated environment: the
    README's next block activates it, and every later example is written as bare `dptheory`."""
    text = (ROOT / "README.md").read_text()
    assert text.index("<!-- /ci:commands -->") < text.index("<!-- first-contact -->") < text.index("## The command")
    assert _block_after("<!-- first-contact -->") == ["source .venv/bin/activate", "dptheory --version"]


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "activate").exists(),
                    reason="no .venv at the project root (the README's set-up line makes it)")
def test_the_first_contact_block_runs_verbatim_from_the_project_root():
    script = "\n".join(["set -e", *_block_after("<!-- first-contact -->")])
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"  # a fresh shell: no dptheory on the PATH before activation
    proc = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"dptheory {version('dptheory')}"


def test_no_link_or_citation_outside_the_repository():
    """Users have the repository only: no link to ../shared/, no working-note paths or labels."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text()
        for bad in ("../shared", "shared/design", "shared/spec", "shared/seeds", "seed-00"):
            assert bad not in text, (page.name, bad)


def test_readme_states_the_measured_test_time():
    text = (ROOT / "README.md").read_text()
    tests = text[text.index("## Tests"):]
    assert re.search(r"measured .*\d+(\.\d+)? minutes", " ".join(tests.split()), re.I), "README must state the measured time"
