"""What the README and docs/ show, read from their Markdown, and the one rule that compares a shown
output with what the code prints.

A shown output matches a printed one line for line (trailing blanks ignored), except that

* a line ``...`` stands for any number of lines (none included);
* ``...`` inside a line stands for any text: at the end of a line, the rest of that line; in the
  middle, a number that depends on timing ("seconds");
* in a JSON excerpt, ``"..."`` stands for any value and ``["..."]`` for any list
  (:func:`json_matches`).

The code blocks of a page (:func:`blocks`) are read as the tests run them: a console session
(``$ command`` lines, each followed by its output, a last line ``exit N`` giving a non-zero exit
status), a doctest (``>>>``), a Python script (optionally followed directly by a block of its
output; a statement may end with ``# -> shown`` for the value it gives), or a list of commands.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
ELLIPSIS = "..."
#: the last output line of a session step that exits with a non-zero status
EXIT = re.compile(r"^exit (\d+)$")
PAGES = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))


# ------------------------------------------------------------------------------------ matching
def _line_matches(shown: str, printed: str) -> bool:
    shown, printed = shown.rstrip(), printed.rstrip()
    if ELLIPSIS not in shown:
        return shown == printed
    pattern = ".*".join(re.escape(part) for part in shown.split(ELLIPSIS))
    return re.fullmatch(pattern, printed, re.S) is not None


def _lines(text: str | list[str]) -> list[str]:
    lines = text.splitlines() if isinstance(text, str) else list(text)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def matches(shown: str | list[str], printed: str | list[str]) -> bool:
    """Whether ``printed`` is what ``shown`` shows, ``...`` elisions allowed (module docstring)."""
    want, got = _lines(shown), _lines(printed)

    @functools.lru_cache(maxsize=None)
    def match(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i].strip() == ELLIPSIS:
            return any(match(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and _line_matches(want[i], got[j]) and match(i + 1, j + 1)

    return match(0, 0)


def assert_matches(shown: str | list[str], printed: str | list[str], where: str = "") -> None:
    """Assert :func:`matches`, with a diff of the two in the message."""
    if not matches(shown, printed):
        want, got = _lines(shown), _lines(printed)
        unmatched = [w for w in want if w.strip() != ELLIPSIS and not any(_line_matches(w, g) for g in got)]
        diff = "\n".join(difflib.unified_diff(want, got, "shown", "printed", lineterm=""))
        hint = ("shown lines printed nowhere:\n" + "\n".join(unmatched) + "\n") if unmatched else ""
        raise AssertionError(f"{where}: the output shown is not the output printed\n{hint}{diff}")


def json_matches(shown, actual, where: str = "") -> None:
    """``shown`` (a JSON excerpt) equals ``actual`` where it is not elided: ``"..."`` stands for
    any value, ``["..."]`` for any list."""
    if shown == ELLIPSIS or shown == [ELLIPSIS]:
        return
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}.{key}"
            json_matches(value, actual[key], f"{where}.{key}")
        return
    if isinstance(shown, list):
        assert isinstance(actual, list) and len(shown) == len(actual), where
        for i, (a, b) in enumerate(zip(shown, actual)):
            json_matches(a, b, f"{where}[{i}]")
        return
    assert shown == actual, f"{where}: shown {shown!r}, printed {actual!r}"


# ------------------------------------------------------------------------------------- reading
@dataclasses.dataclass(frozen=True)
class Block:
    """A fenced code block of a page: its language tag, its lines, the line of its opening fence,
    the ``<!-- output: NAME -->`` marker just above it (or ""), and the block that ends on the
    line just above its opening fence (a script's output follows its script that way)."""

    page: str
    line: int
    lang: str
    lines: tuple[str, ...]
    marker: str = ""
    follows: "Block | None" = None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def blocks(page: str) -> list[Block]:
    """The fenced code blocks of ``page`` (a path relative to the repository), in order."""
    text = (ROOT / page).read_text().splitlines()
    out: list[Block] = []
    i = 0
    while i < len(text):
        fence = re.match(r"^```(\S*)\s*$", text[i])
        if not fence:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(text) and text[j].rstrip() != "```":
            j += 1
        marker = re.match(r"^<!-- output: (.*) -->$", text[start - 1]) if start else None
        previous = out[-1] if out and out[-1].line + len(out[-1].lines) + 1 == start else None
        out.append(Block(page, start + 1, fence.group(1), tuple(text[start + 1:j]),
                         marker.group(1) if marker else "", previous))
        i = j + 1
    return out


@dataclasses.dataclass(frozen=True)
class Step:
    """One command of a session (or one statement of a doctest) and the output shown after it."""

    command: str
    shown: tuple[str, ...]
    exit_status: int = 0


def session(block: Block) -> list[Step]:
    """The ``$ command`` lines of a console block and the lines shown after each (a last line
    ``exit N`` is the step's exit status, not output)."""
    steps: list[list] = []
    for line in block.lines:
        if line.startswith("$ "):
            steps.append([line[2:], []])
        else:
            assert steps, f"{block.id}: output before the first command"
            steps[-1][1].append(line)
    out = []
    for command, shown in steps:
        status = 0
        if shown and EXIT.match(shown[-1]):
            status = int(EXIT.match(shown[-1]).group(1))
            shown = shown[:-1]
        out.append(Step(command, tuple(shown), status))
    return out


def doctest(block: Block) -> list[Step]:
    """The ``>>>`` statements of a doctest block (with their ``... `` continuation lines) and the
    output shown after each."""
    steps: list[list] = []
    continuing = False
    for line in block.lines:
        if line.startswith(">>> "):
            steps.append([[line[4:]], []])
            continuing = True
        elif continuing and line.startswith("... "):
            steps[-1][0].append(line[4:])
        else:
            continuing = False
            assert steps, f"{block.id}: output before the first statement"
            steps[-1][1].append(line)
    return [Step("\n".join(code), tuple(shown)) for code, shown in steps]


def is_session(block: Block) -> bool:
    return any(line.startswith("$ ") for line in block.lines)


def is_doctest(block: Block) -> bool:
    return any(line.startswith(">>> ") for line in block.lines)
