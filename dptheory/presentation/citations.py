"""The papers the toolkit cites: which BibTeX keys a source text names, and their entries.

A ``source`` (of a formula, a method, a result) names papers as the toolkit spells them, "Wang et
al. (2024), Theorem 4.2"; :data:`CITATIONS` maps those spellings to the keys of
``dptheory/references.bib`` (shipped with the package), one line per paper.
"""

from __future__ import annotations

import functools
import pathlib
import re
from typing import Iterable

#: (pattern, BibTeX key): a source text that matches the pattern cites the key. The patterns are
#: the ways the toolkit's sources name each paper (author list and year). One line per paper.
CITATIONS: tuple[tuple[str, str], ...] = (
    (r"Wang et al\.?,? \(?2024|Wang, Peng", "wang2024variation"),
    (r"Wang et al\.?,? \(?2023|Wang, Su, Ye|Unified Enhancement", "wang2023unified"),
    (r"Chen, Cao, Ge|Chen et al\.?,? \(?2024", "chen2024renyi"),
    (r"Girgis", "girgis2021renyi"),
    (r"Kaissis", "kaissis2024beyond"),
    (r"Feldman, McMillan, Talwar \(?2021|Feldman et al\.?,? \(?202[12]", "feldman2021hiding"),
    (r"Feldman, McMillan, Talwar \(?2023|Feldman et al\.?,? \(?2023", "feldman2023stronger"),
    (r"Erlingsson", "erlingsson2019amplification"),
    (r"Dong, Roth, Su|Dong et al\.?,? \(?2022", "dong2022gaussian"),
    (r"Mironov", "mironov2017renyi"),
    (r"Balle et al\.?,? \(?2020", "balle2020hypothesis"),
    (r"Balle et al\.?,? \(?2019|Balle et al\.\)|constants as implemented by Balle|Balle, Bell", "balle2019privacy"),
    (r"Kairouz et al\.?,? \(?2014", "kairouz2014extremal"),
    (r"Kairouz, Oh, Viswanath,? \(?2015", "kairouz2015composition"),
    (r"Kairouz, Oh, Viswanath(?!,? \(?2015)", "kairouz2016extremal"),
    (r"Duchi et al\.?,? \(?2013", "duchi2013local"),
    (r"Cheu and Zhilyaev", "cheu2022differentially"),
    (r"Luo et al\.?,? \(?2022", "luo2022frequency"),
)

def bibliography_path() -> pathlib.Path:
    """The BibTeX file of the papers the toolkit cites (shipped as package data)."""
    return pathlib.Path(__file__).resolve().parent.parent / "references.bib"


@functools.lru_cache(maxsize=None)
def _bib_entries() -> dict[str, str]:
    text = bibliography_path().read_text(encoding="utf-8")
    entries = {}
    for m in re.finditer(r"@\w+\{([^,\s]+),.*?\n\}", text, flags=re.S):
        entries[m.group(1)] = m.group(0)
    return entries


def known_keys() -> list[str]:
    """The keys of :func:`bibliography_path`."""
    return list(_bib_entries())


def cite_keys(source: str) -> list[str]:
    """The BibTeX keys of the papers a ``source`` text names (:data:`CITATIONS`), in order of
    appearance, each once; an empty list for a source that names none (a derivation of the
    toolkit's own)."""
    found = []
    for pattern, key in CITATIONS:
        m = re.search(pattern, source)
        if m:
            found.append((m.start(), key))
    keys = []
    for _, key in sorted(found):
        if key not in keys:
            keys.append(key)
    return keys


def bibliography(keys: Iterable[str]) -> str:
    """The BibTeX entries of ``keys`` (each once, in the given order)."""
    entries = _bib_entries()
    out, seen = [], set()
    for key in keys:
        if key in seen:
            continue
        if key not in entries:
            raise KeyError(f"no BibTeX entry {key!r} in {bibliography_path()}")
        seen.add(key)
        out.append(entries[key])
    return "\n\n".join(out) + ("\n" if out else "")
