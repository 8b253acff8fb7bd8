"""What docs/verify.md and the README's "Verification" section show is what the code prints: the
output of `dptheory verify --quick` (up to the run time in its first line), the planted violation,
the JSON excerpt and the one-line registration example."""

from __future__ import annotations

import io
import json
import math
import pathlib
import re
import subprocess
import sys

from dptheory import profile, verify

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "verify.md"


def _shown(name: str) -> str:
    """The code block that docs/verify.md marks with ``<!-- output: name -->``."""
    text = DOC.read_text()
    match = re.search(r"<!-- output: " + re.escape(name) + r" -->\n```\n(.*?)\n```", text, re.S)
    assert match, f"docs/verify.md shows no output marked {name!r}"
    return match.group(1)


def _timeless(text: str) -> str:
    """The first line's run time is the one thing that changes from run to run."""
    return re.sub(r"(guard digits added\)), [0-9.]+ s\n", r"\1, <time> s\n", text.rstrip("\n") + "\n", count=1)


def _printed(report) -> str:
    out = io.StringIO()
    report.print(out)
    return out.getvalue()


def test_the_quick_run_shown_is_the_one_printed(quick_report):
    assert _timeless(_printed(quick_report)) == _timeless(_shown("dptheory verify --quick"))


def test_the_planted_violation_shown_is_the_one_printed(monkeypatch):
    original = profile.gdp_delta_result
    shift = math.log(0.99)

    def low(mu, epsilon, *args, **kwargs):
        r = original(mu, epsilon, *args, **kwargs)
        return r.replace(lower=r.lower * 0.99, upper=r.upper * 0.99, log_lower=r.log_lower + shift,
                         log_upper=r.log_upper + shift)

    monkeypatch.setattr(profile, "gdp_delta_result", low)
    report = verify.run(quick=True, names=["gdp/delta"])
    printed = _printed(report) + f"exit status {report.exit_code}\n"
    assert _timeless(printed) == _timeless(_shown("planted gdp/delta"))


def _matches(shown, actual, where="") -> None:
    """``shown`` (the excerpt) equals ``actual`` where it is not elided: "..." stands for any
    value, ["..."] for any list."""
    if shown == "..." or shown == ["..."]:
        return
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}.{key}"
            _matches(value, actual[key], f"{where}.{key}")
        return
    if isinstance(shown, list):
        assert isinstance(actual, list) and len(shown) == len(actual), where
        for i, (a, b) in enumerate(zip(shown, actual)):
            _matches(a, b, f"{where}[{i}]")
        return
    assert shown == actual, f"{where}: shown {shown!r}, printed {actual!r}"


def test_the_json_excerpt_shown_is_the_one_printed():
    shown = json.loads(_shown("dptheory verify --quick --json --only gdp/epsilon,wang-lemma-4.5"))
    from dptheory.presentation.json_output import jsonable

    actual = jsonable(verify.run(quick=True, names=["gdp/epsilon", "wang-lemma-4.5"]).as_dict())
    _matches(shown, actual)
    assert set(shown) == set(actual) - {"seconds"}  # every key but the run time is shown


def test_the_registration_example_runs_and_prints_what_it_says():
    text = DOC.read_text()
    code = re.search(r"## Adding a bound: one line\n\n```python\n(.*?)```", text, re.S).group(1)
    said = re.search(r"#\s*(.+)$", code.strip().splitlines()[-1]).group(1).strip()
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    assert out.strip() == said


def test_the_readme_excerpt_is_in_the_quick_output(quick_report):
    """Every line the README's verify excerpt shows (between its "..." elisions) is printed, in order."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Verification \(`dptheory verify`\).*?```\n(.*?)```", readme, re.S).group(1)
    lines = block.rstrip("\n").splitlines()
    assert lines[0] == "$ dptheory verify --quick"
    printed = _printed(quick_report).splitlines()
    position = 0
    for line in lines[1:]:
        if line == "...":
            continue
        assert line in printed[position:], f"README line not printed (in this order): {line!r}"
        position = printed.index(line, position) + 1
