"""Markdown: GitHub-flavoured tables whose cells are formatted as on the terminal (numbers rounded
towards their direction, :func:`dptheory.presentation.numbers.fmt`); inline ``$math$`` is kept,
which GitHub renders."""

from __future__ import annotations

from typing import Any, Sequence

from .cells import Missing
from .numbers import fmt


def cell(value: Any) -> str:
    """One Markdown cell: text kept (inline math included), numbers as on the terminal."""
    if isinstance(value, str):
        return value.replace("|", "\\|")
    if isinstance(value, Missing):
        return "n/a"
    return fmt(value).replace("|", "\\|")


def table(rows: Sequence[dict], columns: Sequence[str], headers: Sequence[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table of the rows."""
    head = list(headers) if headers is not None else list(columns)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join(lines) + "\n"
