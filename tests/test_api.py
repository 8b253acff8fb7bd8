"""The public API: ``import dptheory`` is cheap and every name of ``__all__`` resolves."""

import pathlib
import re
import subprocess
import sys
import types

import pytest

import dptheory

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", dptheory.__all__)
def test_every_public_name_resolves(name):
    value = getattr(dptheory, name)
    assert value is not None
    assert name in dir(dptheory)
    if isinstance(value, types.ModuleType):
        assert value.__name__.startswith("dptheory.")
    else:
        assert value.__module__.startswith("dptheory."), value


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        dptheory.no_such_name  # noqa: B018


def test_the_api_is_the_library_itself():
    from dptheory import profile, results

    assert dptheory.gdp_epsilon is profile.gdp_epsilon and dptheory.Result is results.Result
    res = dptheory.gdp_epsilon(1.0, 1e-6)
    assert isinstance(res, dptheory.Result) and res.kind is dptheory.Kind.EXACT
    # independent: the closed form delta_mu(eps) at the ends of the bracket straddles 1e-6
    assert dptheory.gdp_delta(1.0, res.lower) >= 1e-6 >= dptheory.gdp_delta(1.0, res.upper)


def test_import_is_cheap():
    """``import dptheory`` loads no numerical library (fresh interpreter)."""
    code = "import sys, dptheory; print(sorted(m for m in ('numpy', 'scipy', 'sympy', 'mpmath') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def test_readme_python_section_uses_only_public_names():
    """The README's Python section shows the curated API: every ``dp.NAME`` it uses is in
    ``__all__`` and every name of ``__all__`` is mentioned (tests/test_readme.py runs it)."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Python", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "import dptheory as dp" in code
    used = set(re.findall(r"\bdp\.(\w+)", code))
    assert used and used <= set(dptheory.__all__), used - set(dptheory.__all__)
    for name in dptheory.__all__:
        assert f"`{name}`" in section, name
