"""What a table cell holds, and text with inline math.

A row of a table is a dict from column keys to cells. A cell is

* a :class:`Number`: a value with the direction it is rounded in for display (``"up"`` for the
  upper end of a certified interval, ``"down"`` for a lower end, None to nearest) and, for a
  quantity that may fall below the float range, its logarithm;
* a :class:`Missing`: no value, with the reason (a method that does not apply);
* a string: text, which may hold inline math between ``$`` signs (LaTeX, as a paper writes it:
  ``"holds for $\\lambda^4 e^{5\\epsilon_0} < n/9$ only"``); :func:`plain` shows it on a terminal;
* None: an empty cell;
* a float or int: a number to nearest.

Each renderer (:mod:`.text`, :mod:`.markdown`, :mod:`.latex`) formats the cells its own way;
numbers are formatted by :mod:`.numbers`.
"""

from __future__ import annotations

import dataclasses
import re


@dataclasses.dataclass(frozen=True)
class Number:
    """A number for display: ``value`` (a float; ``log`` its natural logarithm where the value
    may be below or above the float range), rounded towards ``direction`` (``"up"``, ``"down"``
    or None for nearest)."""

    value: float | None
    direction: str | None = None
    log: float | None = None

    def __post_init__(self) -> None:
        if self.direction not in (None, "up", "down"):
            raise ValueError(f"direction = {self.direction!r} is invalid: must be 'up', 'down' or None")


@dataclasses.dataclass(frozen=True)
class Missing:
    """No value, and why (a table shows "n/a" and the reason in a note or footnote)."""

    reason: str = ""


# ------------------------------------------------------------------------------ inline math
_MATH = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$", flags=re.S)

#: LaTeX commands shown as plain words on a terminal
_WORDS = {
    "epsilon": "eps", "varepsilon": "eps", "delta": "delta", "Delta": "Delta", "mu": "mu", "lambda": "lambda",
    "alpha": "alpha", "beta": "beta", "gamma": "gamma", "pi": "pi", "Phi": "Phi", "kappa": "kappa",
    "sigma": "sigma", "rho": "rho", "eta": "eta", "theta": "theta", "omega": "omega", "Omega": "Omega",
    "tau": "tau", "nu": "nu", "xi": "xi", "chi": "chi", "psi": "psi", "zeta": "zeta", "iota": "iota",
    "log": "log", "exp": "exp", "min": "min", "max": "max", "sup": "sup", "inf": "inf", "lim": "lim",
    "infty": "inf", "leq": "<=", "le": "<=", "geq": ">=", "ge": ">=", "neq": "!=", "ne": "!=", "to": "->",
    "rightarrow": "->", "leftrightarrow": "<->", "approx": "~", "sim": "~", "times": "x", "cdot": "*",
    "pm": "+-", "ldots": "...", "dots": "...", "cdots": "...", "in": "in", "mid": "|", "lfloor": "floor(",
    "rfloor": ")", "lceil": "ceil(", "rceil": ")", "sum": "sum", "prod": "prod", "ln": "ln", "Pr": "Pr",
    "mathbb": "", "top": "T", "star": "*", "ast": "*", "circ": "o", "otimes": "(x)", "wedge": "and",
    "vee": "or", "equiv": "==", "propto": "~", "ll": "<<", "gg": ">>", "quad": " ", "qquad": " ",
}
_SPACING = {",", ";", ":", "!", " "}


def plain(text: str) -> str:
    """``text`` for a terminal: inline math between ``$`` signs written in plain ASCII
    (``$\\epsilon_0 \\leq \\frac{1}{2}$`` -> ``eps0 <= 1/2``), the rest unchanged."""
    if "$" not in str(text):
        return str(text)
    return _MATH.sub(lambda m: math_to_plain(m.group(1)), str(text)).replace(r"\$", "$")


def math_to_plain(tex: str) -> str:
    """One LaTeX math expression (without its ``$`` signs) in plain ASCII."""
    return _Plain(tex).render()


class _Plain:
    """A small recursive reader of the LaTeX math the toolkit writes in its notes and sources:
    Greek letters and relations, ``\\frac``, ``\\sqrt``, ``\\binom``, ``\\bar``, ``\\text``,
    sub- and superscripts, ``\\left``/``\\right``."""

    def __init__(self, tex: str) -> None:
        self.s = tex
        self.i = 0

    def render(self) -> str:
        out = self._until(None)
        return re.sub(r"\s+", " ", out).strip()

    def _group(self) -> str:
        """The next argument: a braced group, a command or one character."""
        self._skip_space()
        if self.i >= len(self.s):
            return ""
        ch = self.s[self.i]
        if ch == "{":
            self.i += 1
            return self._until("}")
        if ch == "\\":
            return self._command()
        self.i += 1
        return ch

    def _skip_space(self) -> None:
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def _until(self, end: str | None) -> str:
        parts: list[str] = []
        while self.i < len(self.s):
            ch = self.s[self.i]
            if end is not None and ch == end:
                self.i += 1
                break
            if ch == "\\":
                word = self._command()
                if parts and word and word[0].isalnum() and parts[-1] and parts[-1][-1].isalnum():
                    parts.append(" ")
                parts.append(word)
                continue
            if ch in "^_":
                self.i += 1
                arg = self._group()
                if ch == "_":  # eps_0 -> eps0, P_w -> P_w, x_{ij} -> x_ij, x_{a+b} -> x_(a+b)
                    parts.append(arg if arg.isdigit() else (f"_{arg}" if _atomic(arg) else f"_({arg})"))
                else:
                    parts.append(f"^{arg}" if _atomic(arg) else f"^({arg})")
                continue
            if ch == "{":
                self.i += 1
                parts.append(self._until("}"))
                continue
            if end is None and (ch in "<>=" or (ch == "+" and "".join(parts).rstrip()[-1:].isalnum())):
                parts.append(f" {ch} ")
                self.i += 1
                continue
            parts.append(ch)
            self.i += 1
        return "".join(parts)

    def _command(self) -> str:
        self.i += 1  # the backslash
        if self.i < len(self.s) and not self.s[self.i].isalpha():
            ch = self.s[self.i]
            self.i += 1
            return " " if ch in _SPACING else ch
        start = self.i
        while self.i < len(self.s) and self.s[self.i].isalpha():
            self.i += 1
        name = self.s[start:self.i]
        if name == "frac" or name == "dfrac" or name == "tfrac":
            a, b = self._group(), self._group()
            return f"{_wrap(a)}/{_wrap(b)}"
        if name == "sqrt":
            return f"sqrt({self._group()})"
        if name == "binom":
            a, b = self._group(), self._group()
            return f"binom({a}, {b})"
        if name in ("bar", "overline"):
            return f"{self._group()}_bar"
        if name in ("hat", "widehat"):
            return f"{self._group()}_hat"
        if name in ("tilde", "widetilde"):
            return f"{self._group()}~"
        if name in ("text", "mathrm", "mathit", "mathbf", "textrm", "operatorname", "mathcal", "mathsf",
                    "boldsymbol"):
            return self._group()
        if name in ("left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big"):
            self._skip_space()
            if self.i < len(self.s):
                ch = self.s[self.i]
                self.i += 1
                if ch == "\\":  # \left\{ or \left\lfloor
                    return self._command_after_backslash()
                return "" if ch == "." else ch
            return ""
        return _WORDS.get(name, name)

    def _command_after_backslash(self) -> str:
        self.i -= 1
        return self._command()


def _atomic(text: str) -> bool:
    return len(text) <= 1 or bool(re.fullmatch(r"[A-Za-z0-9.]+", text))


def _wrap(text: str) -> str:
    text = text.strip()
    return text if re.fullmatch(r"[A-Za-z0-9._^]+", text) else f"({text})"


def has_math(text: str) -> bool:
    """True when ``text`` holds inline math between ``$`` signs."""
    return bool(_MATH.search(str(text)))


def split_math(text: str) -> list[tuple[bool, str]]:
    """``text`` as (is_math, piece) pairs: the math without its ``$`` signs."""
    out: list[tuple[bool, str]] = []
    pos = 0
    for m in _MATH.finditer(str(text)):
        if m.start() > pos:
            out.append((False, text[pos:m.start()]))
        out.append((True, m.group(1)))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:]))
    return out
