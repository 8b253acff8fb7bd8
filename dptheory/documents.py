"""The LaTeX document of the closed forms (``dptheory latex``): each formula of the catalogue in
the papers' notation, displayed and labelled, with its named sub-expressions, validity
conditions, kind, proof status, source with ``\\cite`` and the erratum applied; as a complete
document with its bibliography, or as a fragment to ``\\input`` into a paper."""

from __future__ import annotations

import pathlib
from typing import Sequence

from .presentation import latex as tex
from .presentation.citations import cite_keys

#: the paragraph a document of formulas starts with
FORMULAS_INTRO = ("Each closed form of the toolkit in the papers' notation, with the conditions under which it "
                  "holds, its kind (an upper or lower bound, an exact value, or an approximation that is not a "
                  "bound), its proof status and its source.")

#: a condition list longer than this many characters of LaTeX is set as a list, one per line
_INLINE_CONDITIONS = 160


def formula_block(f, *, label_prefix: str = "eq:") -> str:
    """One formula as a displayed, labelled equation (broken over lines where it is too wide),
    followed by its named sub-expressions ("where ...") and its validity conditions."""
    parts = [tex.equation(f.display_lines(), label=f"{label_prefix}{f.name}").rstrip("\n")]
    names = f.where_latex()
    if names:
        short = [n for n in names if len(n) <= 70]
        if len(short) == len(names):
            parts.append(r"\noindent where " + ", ".join(f"${n}$" for n in names) + ".")
        else:
            parts.append(r"\noindent where")
            parts.extend(tex.equation(lines, numbered=False).rstrip("\n") for lines in f.where_display_lines())
    conditions = f.conditions_latex()
    if not conditions:
        parts.append(r"\noindent Valid for all values of the parameters.")
    elif sum(len(c) for c in conditions) < _INLINE_CONDITIONS:
        parts.append(r"\noindent Valid for $%s$." % f.conditions_line())
    else:
        parts.append(r"\noindent Valid for" + "\n\\begin{itemize}\n"
                     + "\n".join(r"\item $%s$" % c for c in conditions) + "\n\\end{itemize}")
    return "\n\n".join(parts) + "\n"


def formulas_body(formulas, *, level: str = "subsection") -> tuple[str, list[str]]:
    """LaTeX of formulas: for each, its description, the formula (:func:`formula_block`), kind,
    status (and for which randomizers), source with ``\\cite`` of the papers it names, the
    erratum applied and the function that implements it. Returns the body and the keys cited
    (each once)."""
    keys: list[str] = []
    parts = []
    for f in formulas:
        lines = [r"\%s*{\texttt{%s}}" % (level, tex.escape(f.name))]
        if f.description:
            lines.append(r"\noindent " + tex.text(f.description[0].upper() + f.description[1:]).rstrip(".") + ".")
        lines.append(formula_block(f))
        facts = [r"\textbf{Kind:} %s%s." % (tex.escape(str(f.kind)),
                                            "" if f.status is None else ", " + tex.text(f.status_text()))]
        facts.append(r"\textbf{Source:} %s." % tex.cite(f.source.rstrip(".")))
        if f.erratum:
            facts.append(r"\textbf{Erratum:} %s." % tex.text(f.erratum.rstrip(".")))
        if f.implemented_by:
            facts.append(r"\textbf{Defined in:} %s." % tex.text(f.implemented_by))
        lines.append("\\par\n".join(r"\noindent " + fact for fact in facts))
        for key in cite_keys(f.source):
            if key not in keys:
                keys.append(key)
        parts.append("\n\n".join(lines) + "\n")
    return "\n".join(parts), keys


def formulas_document(formulas, *, fragment: bool = False, bib_name: str = "references") -> tuple[str, list[str]]:
    """The LaTeX text of ``dptheory latex``: the formulas (:func:`formulas_body`) as a complete
    document (a section each, an introduction, a bibliography read from ``{bib_name}.bib``) or,
    with ``fragment``, as a fragment to ``\\input`` into a paper (a subsection each, after a
    comment naming the packages it needs and the .bib its citations come from). Returns the text
    and the BibTeX keys cited."""
    body, keys = formulas_body(formulas, level="subsection" if fragment else "section")
    if fragment:
        cites = f"% citations: \\cite keys from {bib_name}.bib\n" if keys else ""
        return tex.preamble_note() + cites + body, keys
    return tex.document(FORMULAS_INTRO + "\n\n" + body, title="Closed forms of dptheory", bib_keys=keys,
                        bib_name=bib_name), keys


def write_formulas(names: Sequence[str], path, *, fragment: bool = False) -> list[pathlib.Path]:
    """Write the formulas named (every formula of :func:`dptheory.catalogue.catalogue` when
    ``names`` is empty) to ``path`` (:func:`formulas_document`) and the cited papers' BibTeX
    entries to the .bib beside it; nothing else. Returns the paths written.

    Raises :class:`~dptheory.validate.DomainError` for an unknown name (listing the known ones)
    or a path that cannot be written, before anything is written."""
    from . import catalogue

    formulas = [catalogue.get(name) for name in names] if names else list(catalogue.catalogue().values())
    target = tex.writable_path(path)
    source, keys = formulas_document(formulas, fragment=fragment, bib_name=target.stem)
    return tex.write_tex(target, source, keys)
