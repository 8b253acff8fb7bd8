"""``dptheory latex``: the closed forms as a LaTeX document (or fragment) with a .bib of the papers.

One call to :func:`dptheory.latex.formulas_body` for the formulas named (all of them by default);
the document is written to the ``-o`` path and the cited papers' BibTeX entries to its ``.bib``
sibling; nothing else is written.
"""

from __future__ import annotations

from .. import catalogue
from .. import latex as tex

HELP = "write the closed forms as a compilable LaTeX document (or fragment) with a .bib of the cited papers"


def add_parser(sub) -> None:
    p = sub.add_parser("latex", help=HELP)
    p.add_argument("names", nargs="*", metavar="NAME", help="formula names (default: every formula; "
                   "`dptheory formula` lists them)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.tex",
                   help="the .tex file to write; the cited papers go to the .bib file beside it")
    p.add_argument("--fragment", action="store_true",
                   help="write a fragment to \\input into a paper (no preamble, no bibliography command)")
    p.set_defaults(func=run)


def run(args) -> int:
    formulas = [catalogue.get(name) for name in args.names] if args.names else list(catalogue.catalogue().values())
    target = tex.writable_path(args.output)
    body, keys = tex.formulas_body(formulas, level="subsection" if args.fragment else "section")
    if args.fragment:
        text = tex.preamble_note() + (f"% citations: \\cite keys from {target.with_suffix('.bib').name}\n"
                                      if keys else "") + body
    else:
        intro = ("Each closed form of the toolkit in the papers' notation, with the conditions under which "
                 "it holds, its kind (an upper or lower bound, an exact value, or an approximation that is "
                 "not a bound), its proof status and its source.\n\n")
        text = tex.document(intro + body, title="Closed forms of dptheory", bib_keys=keys, bib_name=target.stem)
    for path in tex.write_tex(target, text, keys):
        print(f"wrote {path}")
    return 0
