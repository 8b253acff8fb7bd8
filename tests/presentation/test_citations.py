"""Citations (dptheory.presentation.citations): every source that names a paper cites its BibTeX key,
and every key has an entry in references.bib."""

import re

from dptheory import catalogue
from dptheory.presentation import citations, latex

_YEAR = re.compile(r"(19|20)\d\d")


def _all_sources():
    from dptheory.shuffle import rdp as shuffle_rdp
    from dptheory.shuffle.methods import METHODS

    sources = {f.name: f.source for f in catalogue.catalogue().values()}
    for slug, method in METHODS.items():
        src = getattr(method, "source", None)
        if isinstance(src, str):
            sources[f"shuffle:{slug}"] = src
    for slug, method in shuffle_rdp.RDP_METHODS.items():
        sources[f"rdp:{slug}"] = method.source
    return sources


def test_every_source_naming_a_paper_has_a_bibtex_entry():
    """A source that names a paper (an author and a year) cites at least one key, and every key
    cited has an entry in references.bib (so that a document's bibliography resolves)."""
    keys = set(citations.known_keys())
    assert len(keys) == len(citations.known_keys())  # each key once
    missing = []
    for name, source in _all_sources().items():
        cited = citations.cite_keys(source)
        assert set(cited) <= keys, (name, cited)
        if _YEAR.search(source) and not cited:
            missing.append((name, source))
    assert not missing, missing


def test_cite_keys_of_known_sources():
    assert citations.cite_keys("Dong, Roth, Su (2022), Corollary 2.13") == ["dong2022gaussian"]
    assert citations.cite_keys("Wang et al. (2024), Table 1 (Feldman et al. 2023); rate") == [
        "wang2024variation", "feldman2023stronger"]
    assert citations.cite_keys("dptheory: Gaussian limit of the mixed clone pair") == []
    assert "\\cite{girgis2021renyi}" in latex.cite("Girgis, Data, Diggavi, Suresh, Kairouz (CCS 2021), Theorem 3.1")


def test_the_five_digested_papers_are_in_the_bibliography():
    keys = set(citations.known_keys())
    assert {"wang2023unified", "chen2024renyi", "wang2024variation", "kaissis2024beyond",
            "girgis2021renyi"} <= keys
    assert citations.bibliography_path().name == "references.bib" and citations.bibliography_path().is_file()
