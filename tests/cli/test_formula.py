"""`dptheory formula` with a name that starts several formulas' names (`dptheory formula blackwell`)
lists them; one that designates a single formula prints it; an unknown one exits 2 with the
closest names."""

import json

from dptheory import catalogue
from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_prefix_lists_the_blackwell_conditions(capsys):
    code, out, err = run(capsys, "formula", "blackwell")
    names = catalogue.names("blackwell")
    assert code == 0 and not err and len(names) >= 17
    assert out.startswith(f"{len(names)} formulas match 'blackwell':")
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("blackwell-")]
    assert listed == names
    assert "blackwell-gaussian" in names and "blackwell-laplace" in names and "blackwell-rr-k" in names
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "proven" in out and "Gaussian mechanisms are totally" in out


def test_prefix_with_latex_prints_every_statement(capsys):
    code, out, _ = run(capsys, "formula", "blackwell", "--latex")
    formulas = [catalogue.get(n) for n in catalogue.names("blackwell")]
    # each as a paper pastes it: a labelled equation, then its arguments and validity conditions
    labels = [line for line in out.splitlines() if line.startswith(r"\begin{equation}")]
    assert code == 0 and labels == [r"\begin{equation}\label{eq:%s}" % f.name for f in formulas]
    for f in formulas:
        assert f.latex() in out
    assert r"G_{\mu_1} \succeq G_{\mu_2} \iff \mu_{1} \geq \mu_{2}" in out
    assert r"\forall \pi \in [0, 1]:\ R_{\min}" in out


def test_prefix_with_json_describes_each(capsys):
    code, out, _ = run(capsys, "formula", "blackwell", "--json")
    data = json.loads(out)["results"]
    assert code == 0 and [d["name"] for d in data] == catalogue.names("blackwell")
    assert all(d["kind"] == "exact" and d["status"] == "proven" for d in data)


def test_full_name_prints_one_formula(capsys):
    code, out, _ = run(capsys, "formula", "blackwell-gaussian")
    assert code == 0 and out.startswith("blackwell-gaussian: Gaussian mechanisms")
    assert r"LaTeX:      G_{\mu_1} \succeq G_{\mu_2} \iff \mu_{1} \geq \mu_{2}" in out
    assert "source:     Kaissis et al. (2024), Lemma B.2, eq. (66)" in out and "kind:       exact (proven)" in out
    # a name that is also the start of others is the formula itself
    code, out, _ = run(capsys, "formula", "blackwell-rr")
    assert out.startswith("blackwell-rr: binary randomized responses")


def test_clause_formula_shows_its_arguments(capsys):
    code, out, _ = run(capsys, "formula", "blackwell-tradeoff")
    assert code == 0 and r"\forall \alpha \in [0, 1]" in out
    assert r"where:      f(\alpha) = f_{\alpha}" in out
    assert "Theorem 1, clause (1)" in out


def test_part_of_a_name_finds_it(capsys):
    code, out, _ = run(capsys, "formula", "gaussian-laplace", "--latex")
    assert code == 0 and out.startswith("\\begin{equation}\\label{eq:blackwell-gaussian-laplace}\n"
                                        r"G_{\mu} \succeq \mathrm{Lap}_{\epsilon} \iff")


def test_unknown_name_suggests_the_closest(capsys):
    code, out, err = run(capsys, "formula", "blackwel-gausian")
    assert code == 2 and not out
    assert "unknown" in err and "did you mean blackwell-gaussian" in err
    code, _, err = run(capsys, "formula", "no-such-thing-at-all")
    assert code == 2 and "unknown" in err and "dptheory formula` lists all" in err


def test_a_formula_names_where_it_is_defined_and_the_methods_that_evaluate_it(capsys):
    """The theorem-to-code map: `dptheory formula NAME` names the module attribute that defines it
    and the methods of the protocol's registries that evaluate it."""
    code, out, _ = run(capsys, "formula", "girgis-upper-1")
    assert code == 0 and "defined in: dptheory.shuffle.rdp.formulas.UPPER_1" in out
    assert "evaluated by: shuffle-rdp/girgis-upper-1" in out
    code, out, _ = run(capsys, "formula", "clones-closed-form", "--json")
    data = json.loads(out)["results"]
    assert data["implemented_by"] == "dptheory.shuffle.clones.CLOSED_FORM" and data["evaluated_by"] == ["shuffle/clones-closed-form"]
    # every catalogue formula says where it is defined
    code, out, _ = run(capsys, "formula", "--json")
    for row in json.loads(out)["results"]:
        from dptheory import catalogue

        assert catalogue.get(row["name"]).implemented_by.startswith("dptheory."), row["name"]
