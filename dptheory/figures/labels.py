"""Axis labels and titles of the figures in the papers' notation (matplotlib mathtext), one place."""

from __future__ import annotations

import math

EPS0 = r"$\varepsilon_0$"
LAM = r"order $\lambda$"
N = r"$n$ (users)"
T_AXIS = r"$T$ (compositions)"
RDP = r"RDP $\varepsilon(\lambda)$"
ALPHA = r"type I error $\alpha$"
BETA = r"type II error $\beta = f(\alpha)$"
PRIOR = r"prior $\pi$"
BAYES = r"Bayes error $R_{\min}(\pi)$"


def tex_number(x) -> str:
    """``x`` for mathtext: 10^k for a power of ten, 3\\cdot 10^k for a round multiple, else %g."""
    x = float(x)
    if x > 0 and x >= 1e3 or 0 < x < 1e-2:
        k = math.floor(math.log10(x))
        m = x / 10**k
        if abs(m - round(m)) < 1e-9:
            return f"10^{{{k}}}" if round(m) == 1 else f"{round(m)} \\cdot 10^{{{k}}}"
    return f"{x:g}"


def fmt(symbol: str, value) -> str:
    """``symbol = value`` in mathtext (``symbol`` given as ``$...$``)."""
    return f"${symbol.strip('$')} = {tex_number(value)}$"


def eps_at(delta) -> str:
    """The y label of an epsilon(delta) axis."""
    return rf"central $\varepsilon$ at $\delta = {tex_number(delta)}$"


def integer_grid(name: str, text, low: int = 1) -> list[int]:
    """Integers of a grid given as in ``dptheory sweep`` (``1e3..1e7:2`` rounds its points to
    integers, 3162 for 10^3.5); DomainError as :func:`dptheory.sweep.parse_values`."""
    from .. import sweep

    values = sweep.parse_values(name, text, low=float(low))
    return list(dict.fromkeys(int(round(float(v))) for v in values))
