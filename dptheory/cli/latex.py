"""``dptheory latex``: the closed forms as a LaTeX document (or fragment) with a .bib of the papers.

One call to :func:`dptheory.documents.write_formulas` for the formulas named (all of them by default):
the document is written to the ``-o`` path and the cited papers' BibTeX entries to its ``.bib``
sibling; nothing else is written.
"""

from __future__ import annotations

from .. import documents

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
    for path in documents.write_formulas(args.names, args.output, fragment=args.fragment):
        print(f"wrote {path}")
    return 0
