"""What a user reads cites what a user can look up: a paper and its result, a derivation of the
toolkit's own, or docs/errata.md; never a document of the project's own (the working notes on the
papers, called "digests", a "seed-00N", an issue number).

Each user-visible text is its own case: the README and every page of docs/, every string and
comment of the package, the derivations and the benchmarks (docstrings and comments are read in
help() and in the code), every formula's source, erratum and description, every method's source
and note in the shuffle and RDP registries, every statement of dptheory.mixtures, and the output
of the commands (run in-process). The derivation scripts' outputs are checked in
tests/test_derivations.py, which runs them once (:data:`INTERNAL` is shared with it).

Cases that fail today because of files being rewritten on other branches are marked
``xfail(strict=True)``: when their fix lands the case passes, the strict mark turns it red, and the
mark must be removed (:data:`PENDING`).

The errata page is checked too: every link ``errata.md#<entry>`` in the repository names an entry
of docs/errata.md, and every test and derivation script the page cites as evidence exists.
"""

from __future__ import annotations

import io
import json
import pathlib
import re
import tokenize

import pytest

from dptheory import catalogue
from dptheory.cli import main
from dptheory.mixtures import STATEMENTS
from dptheory.shuffle import randomizers as R
from dptheory.shuffle.methods import METHODS
from dptheory.shuffle.rdp import RDP_METHODS, rdp_curve

ROOT = pathlib.Path(__file__).resolve().parents[1]
ERRATA = ROOT / "docs" / "errata.md"

#: a reference to an internal document: a digest (the working notes on the papers), a seed, an issue
INTERNAL = re.compile(r"digest|seed-0|\bissues?\s*#?\s*\d+", re.IGNORECASE)

#: the cases that still fail because their text lives in files rewritten on other branches (none
#: today: dptheory/comparison and dptheory/verify cite papers now). Remove an entry when its case
#: passes.
_OTHERS = "the text comes from a file that another branch rewrites"
PENDING: set[str] = set()


def _cases(names):
    """pytest params, the PENDING ones marked xfail(strict=True)."""
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=_OTHERS)) if name in PENDING
            else name for name in names]


def _internal(text: str) -> list[str]:
    """The lines of ``text`` that cite an internal document."""
    return [line.strip() for line in text.splitlines() if INTERNAL.search(line)]


def _assert_cites_no_internal_document(what: str, text: str) -> None:
    found = _internal(text)
    assert not found, f"{what} cites an internal document:\n" + "\n".join(found[:20])


# ------------------------------------------------------------------------------ pages
PAGES = ["README.md", "derivations/README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("page", _cases(PAGES))
def test_page(page):
    _assert_cites_no_internal_document(page, (ROOT / page).read_text())


def test_the_readme_links_the_errata_page():
    assert "](docs/errata.md)" in (ROOT / "README.md").read_text()


# ------------------------------------------------------------------------------ code: strings and comments
SOURCES = sorted(str(p.relative_to(ROOT)) for folder in ("dptheory", "derivations", "benchmarks")
                 for p in (ROOT / folder).rglob("*.py"))


def _strings_and_comments(path: pathlib.Path) -> str:
    """Every string literal (docstrings included) and comment of a Python file, one per line:
    what a reader sees in help() and in the code, without identifiers such as ``hexdigest``."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    kinds = {tokenize.STRING, tokenize.COMMENT}
    kinds |= {getattr(tokenize, name) for name in ("FSTRING_MIDDLE",) if hasattr(tokenize, name)}
    return "\n".join(tok.string for tok in tokens if tok.type in kinds)


@pytest.mark.parametrize("source", _cases(SOURCES))
def test_source_file(source):
    _assert_cites_no_internal_document(source, _strings_and_comments(ROOT / source))


# ------------------------------------------------------------------------------ registries
FORMULAS = catalogue.catalogue()


@pytest.mark.parametrize("name", _cases([f"formula:{n}" for n in FORMULAS]))
def test_formula(name):
    f = FORMULAS[name.split(":", 1)[1]]
    text = "\n".join(str(v) for v in (f.source, f.erratum, f.description) if v)
    _assert_cites_no_internal_document(name, text)


#: randomizers whose statuses cover every note of the shuffle methods (proven, unproven, refuted,
#: p = inf, multi-message, metric)
RANDOMIZERS = [R.general_ldp(1.0), R.binary_rr(1.0), R.grr(1.0, 3), R.unary_encoding(1.0, 4), R.laplace(1.0),
               R.cheu_zhilyaev(0.2, 10), R.pure_dump(4, 10), R.metric_laplace(1.0, 2.0)]


@pytest.mark.parametrize("slug", _cases(sorted(METHODS)))
def test_shuffle_method(slug):
    m = METHODS[slug]
    notes = [m.status_fn(rz)[1] for rz in RANDOMIZERS]
    _assert_cites_no_internal_document(slug, "\n".join([m.source, *notes]))


#: (eps0, n, orders) at which the RDP methods' notes are read: a usual setting, and one where
#: Corollary 3.2's condition holds but it is below Theorem 3.1 (its note explains why)
RDP_SETTINGS = [(1.0, 10**4, [2.0, 4.0, 8.0]), (0.5, 10**6, [2.0, 3.0]), (1e-6, 145, [2.0])]


@pytest.mark.parametrize("slug", _cases(sorted(RDP_METHODS)))
def test_rdp_method(slug):
    texts = [RDP_METHODS[slug].source]
    for eps0, n, orders in RDP_SETTINGS:  # a Curve with its note, or Inapplicable with its reason
        row = rdp_curve(slug, eps0, n, orders).as_dict()
        texts += [str(v) for v in row.values() if isinstance(v, str)]
    _assert_cites_no_internal_document(slug, "\n".join(texts))


@pytest.mark.parametrize("name", _cases(sorted(STATEMENTS)))
def test_mixture_statement(name):
    s = STATEMENTS[name]
    _assert_cites_no_internal_document(name, f"{s.source}\n{s.note}")


# ------------------------------------------------------------------------------ command outputs
def _run(capsys, *argv) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, f"dptheory {' '.join(argv)} exited {code}: {out.err}"
    return out.out + out.err


def _written(capsys, tmp_path, argv, names) -> str:
    _run(capsys, *argv)
    return "\n".join((tmp_path / name).read_text() for name in names)


COMMANDS = {
    "formula": lambda c, d: _run(c, "formula"),
    "shuffle-json": lambda c, d: _run(c, "shuffle", "--json"),
    "rdp-json": lambda c, d: _run(c, "rdp", "--json"),
    "latex": lambda c, d: _written(c, d, ["latex", "-o", str(d / "bounds.tex")], ["bounds.tex"]),
    "report": lambda c, d: _written(c, d, ["report", "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "-o", str(d),
                                           "--no-figures"], ["report.md", "report.tex"]),
    "sweep-csv": lambda c, d: _written(c, d, ["sweep", "shuffle", "--eps0", "1", "--n", "1e3", "--delta", "1e-6",
                                              "-o", str(d / "sweep.csv")], ["sweep.csv"]),
    "fdp-shuffle": lambda c, d: _run(c, "fdp", "shuffle", "--eps0", "1", "--n", "1000", "--epsilon", "0.1", "--json"),
    "fdp-mixture": lambda c, d: _run(c, "fdp", "mixture", "--weights", "0.3,0.7", "--pair", "0.5,0.5,0:0.2,0.3,0.5",
                                     "--pair", "0.1,0.2,0.7:0.6,0.3,0.1", "--epsilon", "0,0.5"),
    "fdp-dpgd": lambda c, d: _run(c, "fdp", "dpgd", "--example", "D.2", "--show", "3", "--epsilon", "1"),
    "compare": lambda c, d: _run(c, "compare", "gaussian(mu=1)", "laplace(eps=1)", "--json"),
    "mechanism": lambda c, d: _run(c, "mechanism", "laplace", "--json"),
}


@pytest.mark.parametrize("command", _cases([f"command:{k}" for k in COMMANDS]))
def test_command_output(command, capsys, tmp_path):
    text = COMMANDS[command.split(":", 1)[1]](capsys, tmp_path)
    assert text.strip(), f"{command} printed nothing"
    _assert_cites_no_internal_document(command, text)


def test_verify_output(quick_report):
    """What ``dptheory verify --quick`` prints (the session's one quick run)."""
    out = io.StringIO()
    quick_report.print(out)
    assert out.getvalue().strip()
    _assert_cites_no_internal_document("command:verify-quick", out.getvalue())


def test_json_outputs_are_json(capsys):
    """The JSON outputs scanned above are what a program reads (a check of the scan's input)."""
    assert json.loads(_run(capsys, "rdp", "--json"))


def test_the_pattern_finds_what_it_must():
    for text in ("(digest seed-002 §8.4)", "the digest's suggestion", "seed-004", "issue 10, item 5",
                 "Issue 9's targets", "issues 3 and 4"):
        assert INTERNAL.search(text), text
    for text in ("Wang et al. (2024), Lemma 4.5", "docs/errata.md#wang2024-lemma-4-5", "the issue of floors"):
        assert not INTERNAL.search(text), text


# ------------------------------------------------------------------------------ docs/errata.md
def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors() -> set[str]:
    text = ERRATA.read_text()
    ids = set(re.findall(r'<a id="([^"]+)"></a>', text))
    return ids | {_slug(h) for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


_TEXT_FILES = [p for folder in ("dptheory", "derivations", "benchmarks", "docs", "tests")
               for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md")] + [ROOT / "README.md"]


def test_every_link_to_an_errata_entry_resolves():
    anchors = _anchors()
    broken = []
    for path in _TEXT_FILES:
        for anchor in re.findall(r"errata\.md#([a-z0-9][a-z0-9\-]*[a-z0-9])", path.read_text()):
            if anchor not in anchors:
                broken.append(f"{path.relative_to(ROOT)}: #{anchor}")
    assert not broken, broken


def test_every_entry_has_an_anchor_and_evidence():
    """Each entry (a heading of level 3) has an explicit anchor right above it and names what shows
    it: a derivation script, a test or the verify command."""
    lines = ERRATA.read_text().splitlines()
    entries = [i for i, line in enumerate(lines) if line.startswith("### ")]
    assert len(entries) >= 30
    for k, i in enumerate(entries):
        assert lines[i - 1].startswith('<a id="'), lines[i]
        body = "\n".join(lines[i:entries[k + 1] if k + 1 < len(entries) else len(lines)])
        assert re.search(r"tests/|derivations/|dptheory verify", body), lines[i]


def test_the_evidence_the_errata_page_cites_exists():
    """Every ``tests/<file>.py::<test>`` the page cites is a test function of that file, every
    ``tests/<file>.py`` and ``derivations/<script>.py`` exists, and every check named for a
    script is one its source defines."""
    text = ERRATA.read_text()
    missing = []
    for path, name in re.findall(r"(tests/[\w/]+\.py)::(\w+)", text):
        source = ROOT / path
        if not source.is_file() or not re.search(rf"^def {name}\(", source.read_text(), re.MULTILINE):
            missing.append(f"{path}::{name}")
    for path in set(re.findall(r"((?:tests|derivations)/[\w/]+\.py)", text)):
        if not (ROOT / path).is_file():
            missing.append(path)
    for script, checks in re.findall(r"(derivations/\w+\.py) \(checks? ([^)]*)\)", text):
        source = (ROOT / script).read_text()
        for check in re.findall(r"`([^`]+)`", checks):
            if f'"{check}"' not in source:
                missing.append(f"{script}: check {check}")
    assert not missing, missing


def test_a_source_cites_the_paper_it_names():
    """The BibTeX key follows the paper, not only its authors: Kairouz, Oh, Viswanath's 2015
    composition theorem is not their 2016 extremal mechanisms."""
    from dptheory.presentation import citations as latex
    from dptheory.shuffle.rdp import fmt_kov_epsilon

    assert latex.cite_keys("(Kairouz, Oh, Viswanath 2015, Theorem 3.3)") == ["kairouz2015composition"]
    assert latex.cite_keys("k-ary randomized response (Kairouz, Oh, Viswanath 2016)") == ["kairouz2016extremal"]
    source = fmt_kov_epsilon(1.0, 1000, 2, 1e-6).source
    assert latex.cite_keys(source) == ["feldman2021hiding", "kairouz2015composition"], source
    assert {"kairouz2015composition", "kairouz2016extremal"} <= set(latex.known_keys())
