"""One status per bound, the same everywhere: every registered check reports, on every case, the
status of the library object that defines its bound (the shuffle method for that randomizer, the
RDP method or its Curve at those parameters, the catalogue's formula, ...), and says for which
input where that differs from the bound's status for a general input. The library objects are
looked up here independently of the check's registration, so that the two cannot drift apart."""

from __future__ import annotations

import pytest

from dptheory import catalogue, verify
from dptheory.mixtures.statements import statement
from dptheory.shuffle import fdp, randomizers
from dptheory.shuffle import methods as shuffle_methods
from dptheory.shuffle import rdp as shuffle_rdp
from dptheory.shuffle import rounds as shuffle_rounds
from dptheory.verify import registry, runner
from dptheory.verify.outcomes import CaseOutcome

#: checks whose status is a formula of the catalogue (what `dptheory formula` lists)
FORMULAS = {
    "rdp-to-dp/epsilon (gaussian)": "rdp-to-dp", "rdp-to-dp/delta (gaussian)": "rdp-to-delta",
    "rdp-to-dp/epsilon (randomized response)": "rdp-to-dp",
    "gdp/delta": "gdp-delta", "gdp/epsilon": "gdp-delta", "gdp/tradeoff": "gdp-tradeoff",
    "gdp/delta via the trade-off conjugate": "gdp-delta", "gdp/rdp": "gdp-to-rdp",
    "mechanism/gaussian epsilon": "gdp-delta", "mechanism/gaussian rdp": "gdp-renyi",
    "mechanism/laplace epsilon": "laplace-delta", "mechanism/laplace rdp": "laplace-renyi",
    "mechanism/randomized-response rdp": "rr-renyi", "mechanism/randomized-response epsilon": "rr-delta",
    "tradeoff/dp": "dp-tradeoff", "tradeoff/laplace": "laplace-tradeoff",
    "comparison/delta-divergence (gaussian)": "delta-divergence-gaussian",
}

_RANDOMIZERS = {"binary-rr": randomizers.binary_rr, "grr3": lambda e0: randomizers.grr(e0, 3)}


def library_status(name: str, case: dict, *, run_bound: bool = True):
    """(status at the case, status for a general input) from the library object that defines the
    bound of the check ``name``; None where only running the bound gives it and ``run_bound`` is
    False."""
    area, slug = name.split("/", 1)
    if area == "shuffle":
        m = shuffle_methods.METHODS[slug]
        return m.status(_RANDOMIZERS[case["randomizer"]](case["eps0"])), m.status(randomizers.general_ldp(case["eps0"]))
    if area == "shuffle-rdp":
        general = shuffle_rdp.RDP_METHODS[slug].status()
        if not run_bound:
            return None
        return shuffle_rdp.rdp_curve(slug, case["eps0"], case["n"], case["orders"], rtol=1e-6).status, general
    if area == "shuffle-rdp-to-dp":
        if not run_bound:
            return None
        return shuffle_rdp.epsilon(slug, case["eps0"], case["n"], case["delta"]).status, \
            shuffle_rdp.RDP_METHODS[slug].status()
    if name in FORMULAS:
        s = catalogue.get(FORMULAS[name]).status
        return s, s
    if area == "tradeoff":  # T(P, Q) of explicit pmfs by Neyman-Pearson: what `dptheory fdp mixture` labels it
        s = statement("mixture-exact").status
        return s, s
    if area == "shuffle-fdp":
        s = fdp.status()[0]
        return s, s
    if name == "pld/shuffle rounds delta":
        s = shuffle_rounds.status()[0]
        return s, s
    if area == "pld":  # no object states it apart from the Result the accountant returns
        if not run_bound:
            return None
        s = verify.CHECKS[name].bound(case).status
        return s, s
    raise AssertionError(f"no library object known for the check {name!r}: add it here")


def test_every_check_reports_the_library_status_on_every_case(quick_report):
    verify.load()
    outcomes = {(o.name, o.label): o for o in quick_report.outcomes if isinstance(o, CaseOutcome)}
    compared = 0
    for name, check in verify.CHECKS.items():
        for case in check.grid(True):
            o = outcomes[(name, runner._label(case))]
            status, general = library_status(name, case)
            assert (o.status, o.general) == (str(status), str(general)), (name, o.label)
            # the input is named exactly where the status differs from the general one
            assert bool(o.scope) == (status != general), (name, o.label, o.scope)
            compared += 1
    assert compared == sum(len(c.grid(True)) for c in verify.CHECKS.values()) > 300


def test_every_row_says_for_which_input_its_status_holds(quick_report):
    """A row whose status differs from the bound's general one names the inputs (the randomizer,
    or "at these eps0, n" where the library checks it at the parameters); the others show one word."""
    for row in quick_report.rows:
        if row.status != row.general:
            assert row.scope and row.status_text == f"{row.status} ({', '.join(row.scope)})", row
        else:
            assert row.status_text == row.status, row
    text = {(r.bound, r.oracle): r.status_text for r in quick_report.rows}
    # the researcher's examples: verify said "proven" where `dptheory formula` says "unproven"
    for name in ("shuffle/variation-ratio-analytic", "shuffle/variation-ratio-asymptotic"):
        assert text[(name, "one-pair")] == "proven (binary-rr)"
        assert str(catalogue.get(name.split("/")[1]).status) == "unproven"
    assert text[("shuffle/stronger-clones", "enum")] == "proven (binary-rr, grr3)"
    # Corollary 3.2 is unproven everywhere (a valid upper bound where it is at least Theorem 3.1,
    # which its note says, but then never the tightest)
    assert text[("shuffle-rdp/girgis-corollary-3.2", "one-pair")] == "unproven"
    assert str(catalogue.get("girgis-corollary-3.2").status) == "unproven"
    statuses = {r.status_text for r in quick_report.rows if r.bound == "shuffle/variation-ratio"}
    assert statuses == {"proven (binary-rr)", "refuted (grr3)"}


def test_the_full_grids_statuses_are_the_library_objects():
    """Before any bound runs: the status each check takes from its library object on every case of
    the full grid (the bound's own Result is checked on the quick grid above)."""
    verify.load()
    compared = 0
    for name, check in verify.CHECKS.items():
        for case in check.grid(False):
            expected = library_status(name, case, run_bound=False)
            if expected is None:
                continue
            status, note = check.status_of(case)
            assert (status, check.general_of(case)) == expected, (name, case)
            compared += 1
    assert compared > 300


def test_status_sources_are_library_objects_not_literals():
    """No registered check holds a bare Status: each asks a library object (the registry refuses
    a literal; this looks at what is registered)."""
    verify.load()
    for name, check in verify.CHECKS.items():
        assert not isinstance(check.status, (str, registry.Status)), name
        assert (callable(check.status) or isinstance(getattr(check.status, "status", None), registry.Status)
                or callable(getattr(check.status, "status_why", None))), name


@pytest.mark.parametrize("name", ["shuffle/variation-ratio", "shuffle/variation-ratio-analytic"])
def test_the_reason_for_a_status_is_the_library_note(quick_report, name):
    """The JSON keeps the library's reason for each case's status (the method's status_fn note)."""
    notes = {o.status: o.status_note for o in quick_report.outcomes
             if isinstance(o, CaseOutcome) and o.name == name and o.skipped is None}
    rz = randomizers.binary_rr(1.0)
    assert notes["proven"] == shuffle_methods.METHODS[name.split("/")[1]].status_fn(rz)[1]
