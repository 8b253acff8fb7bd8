"""The validity domain of a formula: the parameters' own assumptions (positive, integer, ...)
and its conditions, merged into one range per parameter and the joint conditions between
parameters, and typeset as LaTeX. Only the display is merged: the checks use every condition as
given (:mod:`dptheory.formula`)."""

from __future__ import annotations

from typing import Callable

import numpy as np


def _sympy():
    import sympy

    return sympy


def plain_latex(expr) -> str:
    """sympy's LaTeX of an expression (what checks and error messages show), with a primed symbol
    (``epsilon'``, Wang et al. 2024's global budget) printed as ``\\epsilon'``."""
    sp = _sympy()
    primed = {sym: sp.latex(sp.Symbol(sym.name[:-1])) + "'" for sym in getattr(expr, "free_symbols", ())
              if sym.name.endswith("'")}
    return sp.latex(expr, symbol_names=primed) if primed else sp.latex(expr)


def assumption_kinds(sym) -> list[tuple[str, str]]:
    """The symbol's own assumptions as (LaTeX, kind) pairs, kind one of :data:`PREDICATES`.

    They cannot be sympy relationals: ``mu >= 0`` is already ``True`` for a nonnegative symbol.
    """
    name = plain_latex(sym)
    kinds = []
    if sym.is_integer:
        kinds.append((f"{name} \\in \\mathbb{{Z}}", "integer"))
    if sym.is_positive:
        kinds.append((f"{name} > 0", "positive"))
    elif sym.is_nonnegative:
        kinds.append((f"{name} \\geq 0", "nonnegative"))
    if sym.is_finite is not False:
        kinds.append((f"{name} \\text{{ finite}}", "finite"))
    return kinds


#: the predicates of the symbols' assumptions, on float arrays
PREDICATES: dict[str, Callable] = {
    "integer": lambda v: np.all(v == np.floor(v)),
    "positive": lambda v: np.all(v > 0),
    "nonnegative": lambda v: np.all(v >= 0),
    "finite": lambda v: np.all(np.isfinite(v)),
}


def assumption_checks(sym) -> list[tuple[str, Callable]]:
    """The symbol's own assumptions as (LaTeX, predicate on a float array) pairs."""
    return [(text, PREDICATES[kind]) for text, kind in assumption_kinds(sym)]


def merged_conditions(params, conditions) -> tuple[dict, list]:
    """The validity domain in its simplest form: ``(ranges, joint)``.

    ``ranges`` maps each parameter (and each symbol constrained alone by a condition) to the
    sympy set of its values allowed by its assumptions and by every condition on it alone;
    ``joint`` lists the conditions between several symbols, each once (and those sympy cannot
    solve), in the given order.
    """
    sp = _sympy()
    ranges: dict = {sym: _assumed_set(sym) for sym in params}
    joint: list = []
    for cond in conditions:
        free = getattr(cond, "free_symbols", set())
        if len(free) == 1:
            (sym,) = free
            try:
                allowed = cond.as_set()
            except (NotImplementedError, TypeError, ValueError):  # sympy cannot solve it: kept as a joint condition
                allowed = None
            if isinstance(allowed, sp.Set):
                ranges[sym] = ranges.get(sym, _assumed_set(sym)).intersect(allowed)
                continue
        if not any(cond == seen for seen in joint):
            joint.append(cond)
    return ranges, joint


def without_implied(sym, domain, joint, ranges):
    """``domain`` without the ends implied by a joint condition (for the display only).

    A joint condition ``sym > g`` (or ``>=``, or the reverse ``<``), with ``sym`` absent from
    ``g``, implies the lower end ``sym > a`` when ``g - a`` is proven nonnegative (positive, for
    a strict end implied by a non-strict condition) by sympy's assumptions, the other symbols
    taken with the signs of their merged ranges: ``v_2 > v_1^2`` implies ``v_2 > 0``. An end is
    dropped only on such a proof; anything sympy cannot decide stays (sound, not complete)."""
    sp = _sympy()
    if not isinstance(domain, sp.Interval) or sym.is_integer:  # an integer range prints as a set: kept
        return domain
    signs = {}
    for other, dom in ranges.items():
        if other is sym or not isinstance(dom, sp.Interval) or getattr(other, "is_Symbol", False) is False:
            continue
        if dom.inf.is_number and dom.inf >= 0:
            positive = dom.inf > 0 or dom.left_open
            signs[other] = sp.Dummy(other.name, positive=True) if positive else sp.Dummy(other.name, nonnegative=True)
    lo, hi, left_open, right_open = domain.inf, domain.sup, domain.left_open, domain.right_open
    for cond in joint:
        if not isinstance(cond, (sp.StrictGreaterThan, sp.GreaterThan, sp.StrictLessThan, sp.LessThan)):
            continue
        big, small = (cond.lhs, cond.rhs) if isinstance(cond, (sp.StrictGreaterThan, sp.GreaterThan)) else (cond.rhs, cond.lhs)
        strict = isinstance(cond, (sp.StrictGreaterThan, sp.StrictLessThan))
        for this, other_side, is_lower in ((big, small, True), (small, big, False)):
            if this != sym or sym in other_side.free_symbols:
                continue
            end = lo if is_lower else hi
            if not end.is_finite:
                continue
            gap = (other_side - end) if is_lower else (end - other_side)
            gap = gap.xreplace({k: v for k, v in signs.items() if k in gap.free_symbols})
            end_open = left_open if is_lower else right_open
            proven = gap.is_positive if (end_open and not strict) else gap.is_nonnegative
            if proven:
                if is_lower:
                    lo, left_open = sp.S.NegativeInfinity, True
                else:
                    hi, right_open = sp.S.Infinity, True
    if lo is domain.inf and hi is domain.sup:
        return domain
    return sp.Interval(lo, hi, left_open, right_open)


def _assumed_set(sym):
    """The set of reals a symbol's assumptions allow."""
    sp = _sympy()
    if sym.is_positive:
        return sp.Interval.open(0, sp.oo)
    if sym.is_nonnegative:
        return sp.Interval(0, sp.oo)
    if sym.is_negative:
        return sp.Interval.open(-sp.oo, 0)
    if sym.is_nonpositive:
        return sp.Interval(-sp.oo, 0)
    return sp.S.Reals


def range_latex(sym, domain, to_latex) -> str:
    """One parameter's range as LaTeX: ``\\mu > 0``, ``0 < \\delta < 1``,
    ``n \\in \\{2, 3, \\dots\\}``; empty for an unconstrained real."""
    sp = _sympy()
    name = to_latex(sym)
    if sym.is_integer and isinstance(domain, sp.Interval) and domain.inf.is_number and domain.inf.is_finite:
        low = sp.floor(domain.inf) + 1 if (domain.left_open and domain.inf.is_integer) else sp.ceiling(domain.inf)
        if domain.sup is sp.oo:
            return f"{name} \\in \\{{{to_latex(low)}, {to_latex(low + 1)}, \\dots\\}}"
        if domain.sup.is_number:
            high = sp.ceiling(domain.sup) - 1 if (domain.right_open and domain.sup.is_integer) else sp.floor(domain.sup)
            return f"{name} \\in \\{{{to_latex(low)}, \\dots, {to_latex(high)}\\}}"
    if sym.is_integer:
        whole = "" if domain == sp.S.Reals else f",\\ {_interval_latex(name, domain, to_latex)}"
        return f"{name} \\in \\mathbb{{Z}}{whole}"
    if domain == sp.S.Reals:
        return ""
    return _interval_latex(name, domain, to_latex)


def _interval_latex(name: str, domain, to_latex) -> str:
    sp = _sympy()
    lt, le, gt, ge = "<", "\\leq", ">", "\\geq"
    if isinstance(domain, sp.Interval):
        lo, hi = domain.inf, domain.sup
        if hi is sp.S.Infinity:  # x > a reads better than a < x
            return f"{name} {gt if domain.left_open else ge} {to_latex(lo)}"
        right = f" {lt if domain.right_open else le} {to_latex(hi)}"
        if lo is sp.S.NegativeInfinity:
            return f"{name}{right}"
        return f"{to_latex(lo)} {lt if domain.left_open else le} {name}{right}"
    if isinstance(domain, sp.FiniteSet) and len(domain) == 1:
        return f"{name} = {to_latex(next(iter(domain)))}"
    return f"{name} \\in {to_latex(domain)}"

