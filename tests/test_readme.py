"""The README's promises: its two commands are what CI runs, and its Python example runs."""

import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _commands():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- ci:commands -->\n```sh\n(.*?)```\n<!-- /ci:commands -->", text, re.S)
    assert block, "README lacks the ci:commands block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_commands_and_ci_runs_them():
    cmds = _commands()
    assert len(cmds) == 2
    assert "dptheory" in cmds[0] and "pytest" in cmds[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "ci:commands" in ci and "pytest" in "\n".join(cmds)


def test_readme_python_example_runs():
    text = (ROOT / "README.md").read_text()
    code = re.search(r"## Python\n.*?```python\n(.*?)```", text, re.S).group(1)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_readme_command_examples_run():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## The command\n\n```sh\n(.*?)```", text, re.S).group(1)
    for line in block.splitlines():
        argv = shlex.split(line, comments=True)  # quoted mechanism strings stay one argument
        assert argv[0] == "dptheory"
        subprocess.run([sys.executable, "-m", "dptheory", *argv[1:]], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
