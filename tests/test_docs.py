"""Every output the README and docs/ show is what the code prints.

Each fenced code block of README.md and docs/*.md is run (tests/shown.py reads them and holds the
matching rule, ``...`` elisions included):

* a console session (``$ command`` and its output): each command in turn, in one temporary
  directory per block (``dptheory ...`` in-process through ``dptheory.cli.main``; other
  commands, pipes and redirections through the shell, with this interpreter's ``dptheory`` and
  ``python`` first on the PATH); the output shown must be stdout followed by stderr, and the
  exit status 0 or the ``exit N`` shown;
* a list of commands (a ``sh`` block without prompts): each must exit with status 0;
* a doctest (``>>>``): each statement's printed output or value;
* a Python script: run; the block right after it, when it has no language tag, is its output,
  and a statement ending with ``# -> shown`` must give that value (its ``repr``);
* the few blocks that are no command (a usage line, a template) or that another test checks are
  listed in :data:`NOT_RUN_HERE` with the reason; a new block must be one of the kinds above or
  be listed there.

The default run keeps to small parameters (under a minute of CPU); the blocks listed in
:data:`SLOW` run with ``-m slow``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import pathlib
import shlex
import subprocess
import sys

import pytest

from tests import shown
from tests.shown import Block

ROOT = shown.ROOT
BIN = str(pathlib.Path(sys.executable).parent)

#: blocks that are not run here: (page, first line of the block) -> why
NOT_RUN_HERE = {
    ("README.md", "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/dptheory"):
        "the set-up and test commands CI runs (tests/test_readme.py)",
    ("README.md", "source .venv/bin/activate"):
        "the activation of the set-up's environment, run from the project root by tests/cli/test_first_contact.py",
    ("README.md", "$ dptheory verify --quick"):
        "an excerpt of the quick verify run, checked against the session's one run in tests/verify/test_docs.py",
    ("docs/verify.md", "dptheory verify [--quick] [--digits 50] [--json] [--workers N | --scheduler ADDRESS] [--only NAME,...]"):
        "the usage line, not a command",
    ("docs/verify.md", "from dptheory import profile"):
        "the registration example, run and checked by tests/verify/test_docs.py",
    ("docs/sweeps-and-figures.md", 'register("tradeoff-curves", "trade-off curves of ...", '
                                   '"dptheory.figures.tradeoff:curves", eps0=1.0, n=1000)'):
        "a template of a registration line (its module does not exist)",
}
#: blocks whose outputs are checked by tests/verify/test_docs.py (marked <!-- output: NAME -->)
MARKED_ELSEWHERE = {"docs/verify.md"}

#: blocks run only with -m slow: (page, first line of the block) -> why
SLOW = {
    ("docs/pld.md", "$ python benchmarks/bench_pld.py"): "the PLD benchmark, best of 3 runs (about 20 s of CPU)",
    ("docs/pld.md", "from dptheory.shuffle.rdp import rdp_route_epsilon"):
        "the RDP route on the exact RDP of the clone pair, searched over the orders (about 20 s)",
}

#: blocks of pages that others maintain, whose output is known to be stale: a strict xfail, so
#: that regenerating the page makes the test fail until its entry is removed here
STALE_ELSEWHERE = {
}


def _all_blocks() -> list[Block]:
    return [b for page in shown.PAGES for b in shown.blocks(page)]


def _key(block: Block) -> tuple[str, str]:
    return (block.page, block.lines[0] if block.lines else "")


def _kind(block: Block) -> str | None:
    """How the block is run: session, doctest, script, output, commands; None if not here,
    "unknown" for a block of no known kind (the test of the block then fails)."""
    if _key(block) in NOT_RUN_HERE or (block.marker and block.page in MARKED_ELSEWHERE):
        return None
    if shown.is_session(block):
        return "session"
    if shown.is_doctest(block):
        return "doctest"
    if block.lang == "python":
        return "script"
    if not block.lang and block.follows is not None and block.follows.lang == "python":
        return "output"  # checked with the script it follows
    if block.lang in ("sh", "console", "bash"):
        return "commands"
    return "unknown"


def _cases():
    for block in _all_blocks():
        kind = _kind(block)
        if kind in (None, "output"):
            continue
        marks = [pytest.mark.slow] if _key(block) in SLOW else []
        if _key(block) in STALE_ELSEWHERE:
            marks.append(pytest.mark.xfail(reason=STALE_ELSEWHERE[_key(block)], strict=True))
        yield pytest.param(block, kind, id=block.id, marks=marks)


# --------------------------------------------------------------------------------------- running
_SHELL = set("|&;<>()`")


def _in_process(command: str) -> list[str] | None:
    """The arguments of a ``dptheory`` command that runs in-process; None for a shell command."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    tokens = list(lexer)
    if not tokens or tokens[0] != "dptheory" or any(set(t) <= _SHELL for t in tokens):
        return None
    return tokens[1:]


def _run(command: str) -> tuple[str, int]:
    """Run one command in the current directory: its stdout then stderr, and its exit status."""
    argv = _in_process(command)
    if argv is None:
        env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", "")}
        done = subprocess.run(command, shell=True, capture_output=True, text=True, env=env, timeout=600,
                              executable="/bin/bash")
        return done.stdout + done.stderr, done.returncode
    from dptheory.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's errors and --help
            status = exc.code if isinstance(exc.code, int) else 1
    return out.getvalue() + err.getvalue(), status


def _directory(block: Block, tmp_path: pathlib.Path) -> pathlib.Path:
    """Where a block runs: the checkout for the scripts of derivations/ and benchmarks/ (which
    write nothing), a fresh directory otherwise (commands that write files write there)."""
    return ROOT if any(("derivations/" in line or "benchmarks/" in line) for line in block.lines) else tmp_path


def _check_session(block: Block) -> None:
    for step in shown.session(block):
        printed, status = _run(step.command)
        where = f"{block.id}: $ {step.command}"
        assert status == step.exit_status, f"{where}: exit status {status}, shown {step.exit_status}\n{printed}"
        shown.assert_matches(step.shown, printed, where)


def _check_commands(block: Block) -> None:
    for line in block.lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        printed, status = _run(line)
        assert status == 0, f"{block.id}: {line}: exit status {status}\n{printed}"


def _check_doctest(block: Block) -> None:
    namespace: dict = {"__name__": "__doc__"}
    for step in shown.doctest(block):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(step.command + "\n", block.id, "single"), namespace)
        shown.assert_matches(step.shown, out.getvalue(), f"{block.id}: >>> {step.command}")


def _arrow(source_lines: list[str], node: ast.stmt) -> str | None:
    """The value shown by a ``# -> value`` comment at the end of the statement, if any."""
    last = source_lines[node.end_lineno - 1]
    if "# -> " not in last:
        return None
    return last.split("# -> ", 1)[1].strip()


def _check_script(block: Block) -> None:
    source = block.text
    lines = source.splitlines()
    namespace: dict = {"__name__": "__doc__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for node in ast.parse(source).body:
            said = _arrow(lines, node)
            if said is None:
                exec(compile(ast.Module([node], []), block.id, "exec"), namespace)
                continue
            assert isinstance(node, ast.Expr), f"{block.id}:{node.lineno}: '# ->' after a statement that has no value"
            value = eval(compile(ast.Expression(node.value), block.id, "eval"), namespace)
            shown.assert_matches([said], [repr(value)], f"{block.id}: line {node.lineno}")
    following = [b for b in _all_blocks() if b.follows == block]
    if following and _kind(following[0]) == "output":
        shown.assert_matches(following[0].lines, out.getvalue(), f"{block.id}: the output shown below the script")


@pytest.mark.parametrize("block, kind", list(_cases()))
def test_the_block_shows_what_the_code_prints(block, kind, tmp_path, monkeypatch):
    assert kind != "unknown", (f"{block.id}: a code block that is neither a session, a doctest, a script, its "
                               f"output nor a list of commands: run it here or list it in NOT_RUN_HERE with the reason")
    monkeypatch.chdir(_directory(block, tmp_path))
    {"session": _check_session, "commands": _check_commands, "doctest": _check_doctest,
     "script": _check_script}[kind](block)


# ------------------------------------------------------------------------ the rule can fail
def test_every_block_is_run_or_listed_with_its_reason():
    kinds = [_kind(b) for b in _all_blocks()]
    assert "unknown" not in kinds
    assert kinds.count("session") >= 20 and "doctest" in kinds and "script" in kinds and "output" in kinds
    listed = {_key(b) for b in _all_blocks()}
    for table in (NOT_RUN_HERE, SLOW, STALE_ELSEWHERE):
        assert set(table) <= listed, f"a listed block is gone from the pages: {set(table) - listed}"


@pytest.mark.parametrize("shown_text, printed, ok", [
    ("a\nb", "a\nb\n", True),
    ("a\nb", "a\nc", False),
    ("a\n...\nd", "a\nb\nc\nd", True),
    ("a\n...\nd", "a\nd", True),
    ("a\n...\nd", "a\nb\nc", False),
    ("a\nb", "a\nb\nc", False),  # an output line not shown is a difference
    ("x = 0.12...", "x = 0.1234", True),
    ("x = 0.12...", "x = 0.13", False),
    ("took ... s (ratio 2)", "took 0.531 s (ratio 2)", True),
    ("took ... s (ratio 2)", "took 0.531 s (ratio 3)", False),
    ("a  ", "a", True),  # trailing blanks
])
def test_the_matching_rule(shown_text, printed, ok):
    assert shown.matches(shown_text, printed) is ok


def test_a_wrong_output_is_caught(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    block = Block("x.md", 1, "console", ("$ dptheory gdp --mu 1 --delta 1e-6 --json", "{", "..."))
    _check_session(block)
    wrong = Block("x.md", 1, "console", ("$ dptheory gdp --mu 1 --delta 1e-6 --json", "[", "..."))
    with pytest.raises(AssertionError, match="not the output printed"):
        _check_session(wrong)
    status = Block("x.md", 1, "console", ("$ dptheory gdp --mu -1 --delta 1e-6", "...", "exit 0"))
    with pytest.raises(AssertionError, match="exit status 2"):
        _check_session(status)
    script = Block("x.md", 1, "python", ("x = 2", "x + 1   # -> 4"))
    with pytest.raises(AssertionError, match="not the output printed"):
        _check_script(script)


def _resolves(dotted: str) -> bool:
    """Whether ``dptheory.a.b.c`` names a module, or an attribute of one."""
    import importlib

    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


@pytest.mark.parametrize("page", shown.PAGES)
def test_every_python_name_the_page_gives_exists(page):
    """A name such as `dptheory.presentation.notation.to_latex` in a page is the library's (the API
    moves: a page must not send a reader to a module that is gone)."""
    import re

    names = sorted(set(re.findall(r"`(dptheory(?:\.[A-Za-z_]\w*)+)", (ROOT / page).read_text())))
    missing = [n for n in names if not _resolves(n)]
    assert not missing, f"{page} names what the library does not have: {missing}"
    assert _resolves("dptheory.protocol.registries") and not _resolves("dptheory.latex.write_formulas")
