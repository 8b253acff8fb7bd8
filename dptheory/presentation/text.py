"""Plain-text tables and notes for a terminal.

Tables fit :data:`WIDTH` columns: the last column (a note or a source) wraps; a table too wide for
the terminal is printed as blocks of columns (:func:`wide_table`). Cells are formatted by
:func:`dptheory.presentation.numbers.fmt` (a :class:`~.cells.Number` rounded towards its direction,
text with inline math as plain text).
"""

from __future__ import annotations

import sys
import textwrap
from typing import Iterable, Sequence

from .cells import plain
from .numbers import fmt

#: the terminal width the tables and notes are laid out for
WIDTH = 80


def notes(rows: Sequence[dict], key: str, title: str, out=None, width: int = WIDTH) -> None:
    """Print ``title`` and, per distinct ``key`` text of the rows, "  methods: text" wrapped to
    ``width`` (methods that share a text share a line)."""
    out = out or sys.stdout
    grouped: dict[str, list[str]] = {}
    for r in rows:
        if r.get(key):
            grouped.setdefault(plain(r[key]), []).append(r["method"])
    if not grouped:
        return
    print(f"\n{title}", file=out)
    for text, methods in grouped.items():
        print(textwrap.fill(f"{', '.join(methods)}: {text}", width=width, initial_indent="  ",
                            subsequent_indent="      ", break_on_hyphens=False, break_long_words=False), file=out)


# ------------------------------------------------------------------------------------ tables
def table_width(rows: Sequence[dict], columns: Sequence[str]) -> int:
    """The width :func:`table` gives these rows and columns when nothing wraps."""
    widths = [max([len(c)] + [len(fmt(r.get(c))) for r in rows]) for c in columns]
    return sum(widths) + 2 * (len(columns) - 1)


def table(rows: Sequence[dict], columns: Sequence[str], out=None, width: int = WIDTH) -> None:
    """Print ``rows`` as an aligned table with the given columns. When the table is wider than
    ``width``, the last column (a note or a source) wraps: in its column if at least 30
    characters remain, else on indented lines below each row."""
    out = out or sys.stdout
    cells = [[fmt(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lead = sum(w + 2 for w in widths[:-1])
    below = False
    if lead + widths[-1] > width:
        if width - lead >= 30:
            widths[-1] = width - lead
        else:
            below = True
    shown = list(columns[:-1]) if below else list(columns)
    print("  ".join(c.ljust(w) for c, w in zip(shown, widths)).rstrip(), file=out)
    print("  ".join("-" * w for w in widths[:len(shown)]), file=out)
    for row in cells:
        if below:
            print("  ".join(v.ljust(w) for v, w in zip(row[:-1], widths)).rstrip(), file=out)
            if row[-1] not in ("", "-"):
                print(textwrap.fill(row[-1], width=width, initial_indent="    ", subsequent_indent="    ",
                                    break_on_hyphens=False), file=out)
            continue
        pieces = textwrap.wrap(row[-1], width=widths[-1], break_on_hyphens=False) or [""]
        print("  ".join(v.ljust(w) for v, w in zip(row[:-1] + [pieces[0]], widths)).rstrip(), file=out)
        for more in pieces[1:]:
            print((" " * lead + more).rstrip(), file=out)


def lines(texts: Iterable[str], out=None) -> None:
    """Print each text on its own line (inline math as plain text)."""
    out = out or sys.stdout
    for t in texts:
        print(plain(t), file=out)


def wide_table(rows: Sequence[dict], columns: Sequence[str], *, fixed: int = 1, out=None, width: int = WIDTH) -> None:
    """Print a table too wide for ``width`` columns as several blocks of columns, one under the
    other, each repeating the first ``fixed`` columns (the row labels), as R prints a wide data
    frame. A table that fits is printed as one block by :func:`table`."""
    out = out or sys.stdout
    cells = {c: [fmt(r.get(c)) for r in rows] for c in columns}
    size = {c: max([len(c)] + [len(v) for v in cells[c]]) for c in columns}
    lead = list(columns[:fixed])
    used = sum(size[c] + 2 for c in lead)
    blocks, current = [], []
    for c in columns[fixed:]:
        if current and used + sum(size[x] + 2 for x in current) + size[c] > width:
            blocks.append(current)
            current = []
        current.append(c)
    blocks.append(current)
    for i, block in enumerate(blocks):
        if i:
            print(file=out)
        cols = lead + block
        print("  ".join(c.ljust(size[c]) for c in cols).rstrip(), file=out)
        print("  ".join("-" * size[c] for c in cols), file=out)
        for j in range(len(rows)):
            print("  ".join(cells[c][j].ljust(size[c]) for c in cols).rstrip(), file=out)


def wrapped(text: str, out=None, width: int = WIDTH, indent: str = "  ", subsequent: str = "      ") -> None:
    """Print ``text`` wrapped to ``width`` columns (long sources and notes)."""
    out = out or sys.stdout
    print(textwrap.fill(plain(text), width=width, initial_indent=indent, subsequent_indent=subsequent,
                        break_on_hyphens=False, break_long_words=False), file=out)
