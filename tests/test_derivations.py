"""The derivation scripts run on a plain checkout, print LaTeX and their checks, and their checks
can fail: each script's check functions reject a planted wrong expression.

Every script shows a substantive check (not only ``transcription-`` checks, the naming convention
of derivations/README.md), and prints what a paper pastes: each display ``$$LHS = RHS$$`` (or
another relation) in LaTeX math, no erfc (the normal CDF is Phi), no ASCII Greek names, no LaTeX
outside math mode except the figure scripts' tabulars.

Every script in derivations/ (found by glob; "_" files are plumbing) is run in a subprocess with
PYTHONPATH set to the repository, as a user would run it from a checkout: all of them in one
subprocess (each as __main__, with its own argv, its directory first on sys.path, as `python
derivations/<script>.py` does), which saves the repeated import of sympy and the toolkit.
"""

import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DERIVATIONS = ROOT / "derivations"
SCRIPTS = sorted(p.name for p in DERIVATIONS.glob("*.py") if not p.name.startswith("_"))

#: arguments of the default (quick) run of the scripts that compute figure data
QUICK_ARGS = {"rdp_figures.py": ("--quick", "--figures", "chen"), "figures_1_2.py": ("--quick",)}
#: their longer runs (marked slow)
SLOW_ARGS = {"rdp_figures.py": ("--quick",), "figures_1_2.py": ()}

#: the checks each of this helper's scripts must print (other scripts: at least one check)
EXPECTED_CHECKS = {
    "variation_ratio_closed_forms.py": {"transcription-theorem-4.2-is-log-1-plus-F", "printed-constant-term",
                                        "printed-does-not-vanish",
                                        "dF-ds-sign", "threshold-root", "orders-4.2-4.3", "table-1-rate"},
    "clone_closed_form.py": {"transcription-paper-form", "order-sqrt-n", "small-eps0", "decreasing-in-n", "condition-edge",
                             "above-exact-clone-pair"},
    "girgis_upper_bounds.py": {"theorem-3.1-stable-form", "theorem-3.1-order-2", "higher-terms-vanish",
                               "leading-orders", "printed-3.3-at-eps0-1", "printed-3.3-below-lower-bound",
                               "printed-3.3-tail-too-small"},
    "binomial_central_moments.py": {"textbook-moments", "cumulant-recursion", "forms-in-s", "library-moments",
                                    "corollary-3.5-is-second-term", "odd-moments-nonnegative",
                                    "theorem-3.4-above-corollary-3.5"},
    "chen_gdp_mahalanobis.py": {"lemma-A6-covariance", "sigma-inverse", "mahalanobis-distance", "theorem-2-mu",
                                "corollary-2", "refined-limit", "theorem-2-loose-by-coth2"},
    "gdp_duality.py": {"stationary-point", "tradeoff-convex", "profile-from-tradeoff", "profile-slope",
                       "tradeoff-is-envelope", "profile-at-zero-and-infinity", "fixed-point", "renyi"},
    "rdp_to_dp_conversions.py": {"inverse-mironov", "inverse-balle", "balle-tighter-epsilon", "balle-tighter-delta",
                                 "gdp-optimal-order"},
    "shuffle_rdp_closed_forms.py": {"leading-orders", "ratios"},
    "rdp_figures.py": {"chen-figure-2", "chen-figure-3"},
    "figures_1_2.py": {"subset-n10000-d16", "table-5-printed-values"},
}

#: results each of this helper's scripts must print as LaTeX: sympy expressions, rendered here with
#: the scripts' own printer (dptheory.presentation.notation.to_latex), as the right-hand side of a display
def _expected_latex() -> dict:
    import sympy as sp

    from dptheory.symbols import beta, eps0, lam, mu, n, p

    E = sp.exp(eps0)
    s = sp.Symbol("s", positive=True)  # p (1 - p)
    return {
        "chen_gdp_mahalanobis.py": [4 / (p * (n - 1)), sp.coth(eps0 / 2) ** 2],
        "gdp_duality.py": [sp.factor(lam * mu**2 * (lam - 1) / 2)],
        "rdp_to_dp_conversions.py": [(lam - 1) ** (lam - 1) * lam ** (-lam)],
        "girgis_upper_bounds.py": [2 * lam * E / (lam - 1)],
        "binomial_central_moments.py": [n * s * (3 * s * (n - 2) + 1)],
        "clone_closed_form.py": [sp.tanh(eps0 / 2) * (2 + 1 / (2 * sp.log(4 / sp.Symbol("delta", positive=True))))],
        "variation_ratio_closed_forms.py": [sp.log((p - 1) / beta) - sp.log(2)],
        "shuffle_rdp_closed_forms.py": [4 * E**2 / (E + 1) ** 2],
    }


#: LaTeX tables of the figure scripts
EXPECTED_TEXT = {
    "rdp_figures.py": [r"\begin{tabular}", r"\toprule", r"$\lambda$"],
    "figures_1_2.py": [r"\begin{tabular}", r"$\epsilon_0$"],
    **{script: ["$$", r"\Delta"] for script in ("delta_divergence_gaussian.py", "delta_divergence_laplace.py",
                                                 "delta_divergence_rr.py", "blackwell_dominance.py")},
}


def _env() -> dict:
    # a plain checkout: the package is found through PYTHONPATH, not through an installation
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


_RUNNER = """
import contextlib, io, json, runpy, sys, traceback
scripts = json.loads(sys.argv[1])
sys.path.insert(0, scripts["dir"])
results = {}
for name, args in scripts["runs"]:
    out = io.StringIO()
    sys.argv = [name, *args]
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_path(scripts["dir"] + "/" + name, run_name="__main__")
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        except Exception:
            code = 1
            print(traceback.format_exc())
    results[name] = [code, out.getvalue()]
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def quick_runs() -> dict:
    """{script: (exit status, stdout)} of the quick run of every script, in one subprocess."""
    spec = {"dir": str(DERIVATIONS), "runs": [[s, list(QUICK_ARGS.get(s, ()))] for s in SCRIPTS]}
    proc = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(spec)], capture_output=True, text=True,
                          cwd=ROOT, env=_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _run(script: str, *args: str, expect: int = 0) -> str:
    proc = subprocess.run([sys.executable, str(DERIVATIONS / script), *args],
                          capture_output=True, text=True, cwd=ROOT, env=_env())
    assert proc.returncode == expect, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def _module(script: str):
    """Import a script as a module (its directory on sys.path for the shared plumbing)."""
    if str(DERIVATIONS) not in sys.path:
        sys.path.insert(0, str(DERIVATIONS))
    name = "derivation_" + script[:-3]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, DERIVATIONS / script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _assert_output(script: str, out: str) -> None:
    checks = [line for line in out.splitlines() if line.startswith("check ")]
    assert checks, f"{script} prints no check"
    assert all(line.endswith(": ok") for line in checks), [c for c in checks if not c.endswith(": ok")]
    assert re.search(r"\\[A-Za-z]+", out), f"{script} prints no LaTeX"
    names = {line[len("check "):-len(": ok")] for line in checks}
    assert EXPECTED_CHECKS.get(script, set()) <= names, EXPECTED_CHECKS[script] - names
    for tex in EXPECTED_TEXT.get(script, ()):
        assert tex in out, f"{script}: {tex!r} not printed"
    _module("gdp_duality.py")  # puts derivations/ on sys.path
    from _derivation import to_latex

    for expr in _expected_latex().get(script, ()):
        assert f" = {to_latex(expr)}$$" in out, f"{script}: {to_latex(expr)!r} not printed"


def test_every_script_is_listed_in_the_readme():
    readme = (DERIVATIONS / "README.md").read_text()
    assert [s for s in SCRIPTS if f"`{s}`" not in readme] == []


def test_this_helpers_scripts_exist():
    assert set(EXPECTED_CHECKS) <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_runs_prints_latex_and_checks(script, quick_runs):
    code, out = quick_runs[script]
    assert code == 0, out[-3000:]
    _assert_output(script, out)


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_output_cites_no_internal_document(script, quick_runs):
    """What a script prints cites papers and docs/errata.md, never the project's working notes
    (the pattern of tests/test_citations.py)."""
    from tests.test_citations import INTERNAL

    _, out = quick_runs[script]
    found = [line for line in out.splitlines() if INTERNAL.search(line)]
    assert not found, found[:10]


# ----------------------------------------------------------------------------- what a referee reads

TRANSCRIPTION = "transcription-"  # derivations/_derivation.py: a check of a formula against itself retyped

#: ASCII names of Greek letters (and the toolkit's eps0, lam): none may appear in printed LaTeX
ASCII_GREEK = re.compile(
    r"(?<![\\A-Za-z])(eps0?|epsilon|lam|lambda|mu|nu|alpha|beta|gamma|Gamma|delta|Delta|sigma|Sigma|pi|rho|"
    r"theta|eta|phi|Phi|kappa|omega|Omega|tau|xi|zeta|chi|psi)(?![A-Za-z])")
#: relations a display may state between its sides
RELATION = re.compile(r"\\(?:leq|geq|le|ge|neq|approx|iff|Leftrightarrow|succeq|preceq|sim)(?![A-Za-z])|[=<>]")


def _math(out: str) -> tuple[list[str], list[str]]:
    """The displays ($$...$$) and the inline math ($...$) of an output."""
    displays = re.findall(r"\$\$(.+?)\$\$", out)
    rest = re.sub(r"\$\$(.+?)\$\$", " ", out)
    inline = re.findall(r"(?<!\\)\$(.+?)(?<!\\)\$", rest)
    return displays, inline


def _top_level(tex: str) -> tuple[list[tuple[int, int]], list[int]]:
    r"""(start, end) of each relation and the position of each comma outside every brace group
    and every bracket ((), [], \{\}, \left ... \right)."""
    depth, spans, commas = 0, [], []
    for m in re.finditer(r"\\left.|\\right.|\\[A-Za-z]+|\\.|[{}()\[\],=<>]", tex):
        token = m.group(0)
        if token in ("{", "(", "[", "\\{") or token.startswith("\\left"):
            depth += 1
        elif token in ("}", ")", "]", "\\}") or token.startswith("\\right"):
            depth = max(0, depth - 1)
        elif depth == 0 and token == ",":
            commas.append(m.start())
        elif depth == 0 and RELATION.fullmatch(token):
            spans.append(m.span())
    return spans, commas


def display_problems(out: str) -> list[str]:
    r"""What keeps an output from pasting into a paper: a display that is not ``LHS rel RHS``
    (a label ending in ":" counts as no left-hand side; a condition inside the left-hand side,
    ``\text{... at } x = ...`` or ``R(\pi), \pi \leq ... = ...``, or two statements joined by a
    comma, belong after the right-hand side), erfc or an ASCII Greek name or ``<=`` in any math,
    LaTeX commands outside math (except a tabular and its ``%`` caption)."""
    problems = []
    displays, inline = _math(out)
    for tex in displays:
        spans, commas = _top_level(tex)
        if not spans:
            problems.append(f"no relation at top level: {tex[:80]}")
            continue
        lhs, rhs = tex[:spans[0][0]].strip(), tex[spans[-1][1]:].strip()
        if not lhs or not rhs or lhs.endswith(":"):
            problems.append(f"not LHS = RHS: {tex[:80]}")
        elif any(c < spans[-1][0] for c in commas) or re.search(r"\\text\{[^}]* \}", lhs):
            problems.append(f"a condition or text in the left-hand side: {tex[:80]}")
    for tex in displays + inline:
        if "erf" in tex:
            problems.append(f"erf/erfc instead of Phi: {tex[:80]}")
        if ASCII_GREEK.search(tex) or "<=" in tex or ">=" in tex:
            problems.append(f"ASCII math in LaTeX: {tex[:80]}")
    in_tabular = False
    for line in out.splitlines():
        if line.startswith("\\begin{tabular}"):
            in_tabular = True
        if not in_tabular and not line.startswith("%"):
            bare = re.sub(r"(?<!\\)\$(.+?)(?<!\\)\$", " ", re.sub(r"\$\$(.+?)\$\$", " ", line))
            if re.search(r"\\[A-Za-z]+", bare):
                problems.append(f"LaTeX outside math: {line[:80]}")
        if line.startswith("\\end{tabular}"):
            in_tabular = False
    return problems


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_shows_a_substantive_check(script, quick_runs):
    """At least one check is not a transcription check (a formula against itself retyped); a
    transcription check says so in its name, hence in its printed line."""
    _, out = quick_runs[script]
    names = [line[len("check "):].rsplit(":", 1)[0] for line in out.splitlines() if line.startswith("check ")]
    assert [name for name in names if not name.startswith(TRANSCRIPTION)], names


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_prints_latex_a_paper_pastes(script, quick_runs):
    _, out = quick_runs[script]
    displays, _ = _math(out)
    assert displays or script in EXPECTED_TEXT, f"{script} prints no display"
    assert display_problems(out) == []


def test_display_problems_are_found():
    """The checker above rejects each defect it looks for (so the test of every script can fail)."""
    bad = {
        r"  $$\lim_{n\to\infty}\sqrt{n}\,\epsilon: 4 \tanh(x)$$": "no relation",
        r"  $$\lim_{n\to\infty}\sqrt{n}\,\epsilon: = 4 \tanh(x)$$": "not LHS = RHS",
        r"  $$\frac{1}{2}$$": "no relation",
        r"  $$G_\mu(\alpha) = \frac{\operatorname{erfc}{\left(x\right)}}{2}$$": "erf/erfc",
        r"  $$\epsilon = eps0 + \mu$$": "ASCII math",
        r"  $$\text{against mu} = 1$$": "ASCII math",
        r"  where $\lambda <= 2$": "ASCII math",
        r"1. G_mu(alpha) = \frac{1}{2}": "LaTeX outside math",
        r"  $$R(\pi), \pi \leq 1/2 = $$": "not LHS = RHS",
        r"  $$R(\pi), \pi \leq 1/2 = \pi$$": "left-hand side",
        r"  $$\text{printed at } \epsilon_0 = 1 = \log 2$$": "left-hand side",
        r"  $$R = (1 - \pi)\delta, G_\mu = \Phi(x)$$": "left-hand side",
    }
    for line, kind in bad.items():
        found = display_problems(line)
        assert found and kind in found[0], (line, found)
    good = (r"  $$\left. e^{\epsilon} - 1 \right|_{e^{\epsilon_0} = n} = \tanh{\left(\frac{\epsilon_{0}}{2} \right)}$$"
            "\n" r"  $$\mathcal{M} \succeq \tilde{\mathcal{M}} \iff \Delta = 0$$" "\n"
            r"  $$R(\pi) = \pi \quad \text{for } 0 \leq \pi \leq \frac{1}{2}$$" "\n"
            r"  $$\Delta = \max\left(0, \Phi(a) - \Phi(b)\right) \iff x \in [0, 1]$$" "\n"
            "\\begin{tabular}{lr}\n\\toprule\n$x$ & Clones~\\cite{a} \\\\\n\\end{tabular}")
    assert display_problems(good) == []


def test_only_transcription_checks_fail_the_script(capsys):
    """A script whose checks are all transcription checks exits 1; with a substantive one it
    passes and its summary counts the transcriptions."""
    derivation = _module("gdp_duality.py")
    checks = derivation.Checks()
    checks("transcription-paper-form", True)
    with pytest.raises(SystemExit) as exit_:
        checks.finish()
    assert exit_.value.code == 1 and "transcription" in capsys.readouterr().out
    checks = derivation.Checks()
    checks("transcription-paper-form", True)
    checks("limit", True)
    with pytest.raises(SystemExit) as exit_:
        checks.finish()
    assert exit_.value.code == 0 and "all 2 checks ok (1 of them transcription)" in capsys.readouterr().out


def test_one_script_as_a_user_runs_it():
    """The plain command, in its own process (the runner above is equivalent; this keeps it honest)."""
    _assert_output("rdp_to_dp_conversions.py", _run("rdp_to_dp_conversions.py"))


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SLOW_ARGS))
def test_figure_script_longer_run(script):
    out = _run(script, *SLOW_ARGS[script])
    checks = [line for line in out.splitlines() if line.startswith("check ")]
    assert len(checks) >= 2 and all(line.endswith(": ok") for line in checks)
    assert r"\begin{tabular}" in out


def test_failed_check_exits_1(capsys):
    checks = _module("gdp_duality.py").Checks()
    checks("good", True)
    checks("planted", False, "a planted failure")
    with pytest.raises(SystemExit) as exit_:
        checks.finish()
    assert exit_.value.code == 1
    out = capsys.readouterr().out
    assert "check good: ok" in out and "check planted: FAILED (a planted failure)" in out


def test_wrong_library_formula_makes_the_script_exit_1():
    """End to end: the library's Theorem 2 mu replaced by a wrong expression (e^{eps0} for
    e^{eps0/2}) before the script runs: its checks fail and it exits 1."""
    code = (
        "import runpy, sys, sympy as sp\n"
        f"sys.path.insert(0, {str(DERIVATIONS)!r})\n"
        "from dptheory.formula import Parts\n"
        "from dptheory.shuffle.rdp.formulas import CHEN_GDP\n"
        "from dptheory.symbols import eps0, n\n"
        "CHEN_GDP.__dict__['_parts'] = Parts(2 * sp.exp(eps0) / sp.sqrt(n - 1), CHEN_GDP.params, CHEN_GDP.conditions)\n"
        f"runpy.run_path({str(DERIVATIONS / 'chen_gdp_mahalanobis.py')!r}, run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env())
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "check theorem-2-mu: FAILED" in proc.stdout and "check mahalanobis-distance: ok" in proc.stdout


#: a bug planted in the toolkit's own code (not in the script), per script of this helper: each
#: script must read the library's Formula or function and exit 1. (name, code run before the
#: script; it binds `undo` to a function that removes the plant)
LIBRARY_PLANTS = {
    "gdp_duality.py": "undo = plant_formula('dptheory.profile', 'GDP_DELTA', lambda e: e.subs(S.mu / 2, S.mu / 3))",
    "rdp_to_dp_conversions.py": "undo = plant_formula('dptheory.rdp', 'TO_DP', lambda e: e + S.rho / 10, key='balle')",
    "chen_gdp_mahalanobis.py": ("undo = plant_formula('dptheory.shuffle.rdp.formulas', 'CHEN_GDP', "
                                "lambda e: e * sp.exp(S.eps0 / 2))"),
    "binomial_central_moments.py": (
        "import dptheory.shuffle.rdp.lower as L, mpmath\n"
        "orig = L.binomial_central_moments\n"
        "L.binomial_central_moments = lambda *a, **k: [x * (1 + mpmath.mpf(10) ** -30) for x in orig(*a, **k)]\n"
        "undo = lambda: setattr(L, 'binomial_central_moments', orig)"),
    "clone_closed_form.py": "undo = plant_formula('dptheory.shuffle.clones', 'CLOSED_FORM', lambda e: e * 0.99)",
    "girgis_upper_bounds.py": (
        "undo = plant_formula('dptheory.shuffle.rdp.formulas', 'UPPER_1', "
        "lambda e: e.replace(lambda x: isinstance(x, sp.gamma), lambda x: sp.gamma(2 * x.args[0])))"),
    "variation_ratio_closed_forms.py": ("undo = plant_formula('dptheory.shuffle.variation_ratio', 'THEOREM_4_2', "
                                        "lambda e: sp.log(2 * sp.exp(e) - 1))"),
    "shuffle_rdp_closed_forms.py": "undo = plant_formula('dptheory.shuffle.rdp.formulas', 'ERLINGSSON_RDP', lambda e: 2 * e)",
    "rdp_figures.py": (
        "import dptheory.shuffle.rdp as R\n"
        "orig = R.upper_1\n"
        "R.upper_1 = lambda *a, **k: orig(*a, **k) / 100\n"
        "undo = lambda: setattr(R, 'upper_1', orig)"),
    "figures_1_2.py": (
        "from dptheory.shuffle.methods import Method\n"
        "orig = Method.epsilon\n"
        "def wrong(self, *a, **k):\n"
        "    r = orig(self, *a, **k)\n"
        "    return r.replace(lower=10 * r.lower, upper=10 * r.upper) if self.name == 'stronger-clones' else r\n"
        "Method.epsilon = wrong\n"
        "undo = lambda: setattr(Method, 'epsilon', orig)"),
}

_PLANT_RUNNER = """
import contextlib, importlib, io, json, runpy, sys, traceback
import sympy as sp
from dptheory import symbols as S
from dptheory.formula import Parts
spec = json.loads(sys.argv[1])
sys.path.insert(0, spec["dir"])

def plant_formula(module, name, change, key=None):
    obj = getattr(importlib.import_module(module), name)
    f = obj[key] if key is not None else obj
    parts = f._parts
    f.__dict__['_parts'] = Parts(change(parts.expr), parts.params, parts.conditions, parts.where)
    return lambda: f.__dict__.__setitem__('_parts', parts)

results = {}
for name, args, code in spec["runs"]:
    env = {"plant_formula": plant_formula, "sp": sp, "S": S}
    exec(code, env)
    out = io.StringIO()
    sys.argv = [name, *args]
    status = 0
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_path(spec["dir"] + "/" + name, run_name="__main__")
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        except Exception:
            status = 2
            print(traceback.format_exc())
    env["undo"]()
    results[name] = [status, out.getvalue()]
print(json.dumps(results))
"""


@pytest.mark.slow  # every script run again with a planted library: the planted-expression tests below stay
def test_every_script_of_this_helper_fails_on_a_bug_in_the_library():
    """Each script reads the toolkit's own Formula or code: a bug planted in the library (not in
    the script) makes a check print FAILED and the script exit 1 (not crash)."""
    assert set(LIBRARY_PLANTS) == set(EXPECTED_CHECKS)
    spec = {"dir": str(DERIVATIONS),
            "runs": [[s, list(QUICK_ARGS.get(s, ())), code] for s, code in LIBRARY_PLANTS.items()]}
    proc = subprocess.run([sys.executable, "-c", _PLANT_RUNNER, json.dumps(spec)], capture_output=True, text=True,
                          cwd=ROOT, env=_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    for script, (code, out) in results.items():
        assert code == 1 and ": FAILED" in out, (script, code, out[-1500:])


# ----------------------------------------------------------------------------- planted expressions


def test_planted_gdp_duality():
    import sympy as sp

    m = _module("gdp_duality.py")
    wrong_profile = m.GDP_DELTA.expr.subs(m.mu / 2, m.mu / 3)
    assert m.check_profile_from_tradeoff() and not m.check_profile_from_tradeoff(profile=wrong_profile)
    assert not m.check_profile_slope(profile=wrong_profile)
    assert not m.check_renyi(renyi=m.lam * m.mu**2)
    assert not m.check_fixed_point(fixed=m.Phi(-m.mu / 3))
    wrong_tradeoff = m.GAUSSIAN_TRADEOFF.expr.subs(m.mu, 2 * m.mu)
    assert not m.check_stationary_point(tradeoff=wrong_tradeoff)
    assert not m.check_total_variation(profile=wrong_profile + sp.exp(-m.eps))


def test_planted_rdp_to_dp_conversions():
    m = _module("rdp_to_dp_conversions.py")
    mironov, balle = m.TO_DP["mironov"].expr, m.TO_DP["balle"].expr
    assert m.check_inverse(mironov, m.TO_DELTA["mironov"].expr)
    assert not m.check_inverse(mironov + m.rho / 10, m.TO_DELTA["mironov"].expr)
    assert not m.check_inverse(balle, m.TO_DELTA["mironov"].expr)
    assert not m.check_balle_tighter(balle=mironov)
    assert not m.check_delta_ratio(balle=m.TO_DELTA["mironov"].expr)
    assert not m.check_gdp_optimum(rdp_curve=m.lam * m.mu**2)


def test_planted_chen_gdp_mahalanobis():
    import sympy as sp

    m = _module("chen_gdp_mahalanobis.py")
    assert not m.check_distance(8 / ((m.n - 1) * m.p))
    assert not m.check_theorem_2(gdp=2 * sp.exp(m.eps0) / sp.sqrt(m.n - 1))
    assert not m.check_corollary_2(rdp=2 * sp.exp(m.eps0) * m.lam / m.n)
    assert not m.check_refined(refined=m.CHEN_GDP.expr)
    assert not m.check_looseness(refined=m.CHEN_GDP.expr * sp.tanh(m.eps0))


def test_planted_binomial_central_moments():
    import mpmath
    import sympy as sp

    m = _module("binomial_central_moments.py")
    moments = m.central_moments()
    wrong = list(moments)
    wrong[4] = m.n * m.p * (1 - m.p) * (1 + 3 * (m.n - 1) * m.p * (1 - m.p))
    assert not m.check_textbook(wrong)
    wrong_odd = list(moments)
    wrong_odd[5] = -moments[5]
    assert not m.check_odd_moments(wrong_odd)

    def off_by_a_little(nv, pv, imax, digits):
        out = m.library_moments(nv, pv, imax, digits)
        return out[:3] + [x * (1 + mpmath.mpf(10) ** -40) for x in out[3:]]

    assert not m.check_library(moments_fn=off_by_a_little, points=((9, m.Fraction(3, 10)),))
    E = sp.exp(m.eps0)
    lam = m.COROLLARY_3_5.params[2]
    assert not m.check_corollary_3_5(sp.log(1 + sp.binomial(lam, 2) * (E - 1) ** 2 / m.n) / (lam - 1))
    kappas = m.cumulants()
    kappas[4] = 2 * kappas[4]
    assert not m.check_recursion(kappas)


def test_planted_clone_closed_form():
    import sympy as sp

    m = _module("clone_closed_form.py")
    E, L4, n = m.E, m.L4, m.n
    wrong = sp.log(1 + (E - 1) / (E + 1) * (7 * sp.sqrt(E * L4 / n) + 8 * E / n))
    assert not m.check_paper_form(wrong)
    assert not m.check_small_eps0(wrong)
    assert not m.check_decreasing_in_n(sp.log(1 + (E - 1) / (E + 1) * 8 * sp.sqrt(E * L4 * n)))
    low = m.CLOSED_FORM.with_expr(m.CLOSED_FORM.expr / 10, "-planted")
    assert not m.check_above_exact(low, points=((1.0, 10**4, 1e-6),))


def test_planted_girgis_upper_bounds():
    import sympy as sp

    m = _module("girgis_upper_bounds.py")
    F = m.F
    wrong_gamma = F.UPPER_1.expr.replace(lambda e: isinstance(e, sp.gamma), lambda e: sp.gamma(2 * e.args[0]))
    assert not m.check_stable_form(wrong_gamma)
    assert not m.check_printed_at_one(F.UPPER_2.expr)
    assert not m.check_printed_tail(printed=F.UPPER_2.expr)
    assert not m.check_printed_below_lower(printed=F.UPPER_2)
    orders = {"UB1": m.LAM * (m.E - 1) ** 2, "UB2": 2 * m.lam**2 * m.E * (m.E - 1) ** 2 / (m.lam - 1),
              "Corollary 3.2": 2 * m.LAM * (m.E - 1) ** 2}
    assert m.check_leading_orders(orders)
    orders["UB1"] = 2 * orders["UB1"]
    assert not m.check_leading_orders(orders)


def test_planted_variation_ratio_closed_forms():
    import sympy as sp

    m = _module("variation_ratio_closed_forms.py")
    vr = m.vr
    assert not m.check_nesting(sp.log(2 * sp.exp(vr.THEOREM_4_2.expr) - 1))  # log(1 + 2 F(Omega))
    assert not m.check_threshold(vr._S_STAR + 1)
    assert not m.check_table_1(vr.TABLE_1["clones"].expr)
    assert not m.check_printed_limit(vr.THEOREM_4_2_PRINTED.expr.subs(m.beta, m.beta / 2))
    assert not m.check_orders(asymptotic=sp.log(1 + 2 * (sp.exp(vr.THEOREM_4_3.expr) - 1)))


def test_planted_shuffle_rdp_closed_forms():
    m = _module("shuffle_rdp_closed_forms.py")
    right = dict(m.EXPECTED)
    assert m.check_leading(right) and m.check_ratios(right)
    wrong = dict(right, **{"Corollary 2": 4 * m.LAM * m.E})
    assert not m.check_leading(wrong)
    assert not m.check_ratios(wrong)


def test_planted_figure_checks():
    rdp = _module("rdp_figures.py")
    assert rdp.check_panel({"a (lower)": [1.0, 2.0], "b (upper)": [1.5, 3.0], "c (exact)": [1.2, 2.5]})
    assert not rdp.check_panel({"a (lower)": [1.0, 2.0], "b (upper)": [1.5, 1.9]})
    assert not rdp.check_panel({"a (lower)": [1.0], "c (exact)": [0.5]})
    assert not rdp.check_panel({"b (upper)": [float("nan")]})
    fig = _module("figures_1_2.py")
    rows = [{"eps0": 1.0, "method": "clones", "epsilon": 0.05}, {"eps0": 1.0, "method": "stronger-clones", "epsilon": 0.04}]
    assert fig.check_panel(rows)
    rows[1]["epsilon"] = 0.06
    assert not fig.check_panel(rows)
