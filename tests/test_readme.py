"""The README's promises about CI: its two set-up and test commands are what .ci/run runs. (Every
other command and example of the README is run, and its shown output compared, by
tests/test_docs.py.)"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _commands():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- ci:commands -->\n```sh\n(.*?)```\n<!-- /ci:commands -->", text, re.S)
    assert block, "README lacks the ci:commands block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_commands_and_ci_runs_them():
    cmds = _commands()
    assert cmds == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/dptheory",
        ".venv/bin/python -m pytest -q",
    ]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "ci:commands" in ci and "pytest" in "\n".join(cmds)
