"""Formula: a named closed form, the single source of truth for its numeric versions.

A :class:`Formula` holds a sympy expression over the shared symbols of :mod:`dptheory.symbols`,
the conditions under which it holds, its kind (upper / lower / exact / approximation) and its
source. The vectorised numpy function and the arbitrary-precision mpmath function are both
generated from the expression by :func:`sympy.lambdify`; neither is written by hand.

Formulas register themselves by name, so that ``dptheory formula NAME --latex`` can print any of
them. Modules that define formulas are imported by :func:`catalog`.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from typing import Any, Callable, Iterable, Mapping

import mpmath
import numpy as np
import sympy as sp

from .results import Kind, Status
from .special import MPMATH_MODULES, NUMPY_MODULES
from .validate import ConditionError, DomainError

_REGISTRY: dict[str, "Formula"] = {}

#: modules whose import registers formulas; extended as the toolkit grows
FORMULA_MODULES = (
    "dptheory.tradeoff",
    "dptheory.profile",
    "dptheory.rdp",
    "dptheory.mechanisms",
    "dptheory.shuffle.randomizers",
    "dptheory.shuffle.variation_ratio",
    "dptheory.shuffle.clones",
    "dptheory.shuffle.methods",
    "dptheory.shuffle.parallel",
    "dptheory.shuffle.rdp",
)

def _assumption_checks(sym: sp.Symbol) -> list[tuple[str, Callable]]:
    """The symbol's own assumptions as (LaTeX, predicate on a float array) pairs.

    They cannot be sympy relationals: ``mu >= 0`` is already ``True`` for a nonnegative symbol.
    """
    name = sp.latex(sym)
    checks = []
    if sym.is_integer:
        checks.append((f"{name} \\in \\mathbb{{Z}}", lambda v: np.all(v == np.floor(v))))
    if sym.is_positive:
        checks.append((f"{name} > 0", lambda v: np.all(v > 0)))
    elif sym.is_nonnegative:
        checks.append((f"{name} \\geq 0", lambda v: np.all(v >= 0)))
    if sym.is_finite is not False:
        checks.append((f"{name} \\text{{ finite}}", lambda v: np.all(np.isfinite(v))))
    return checks


@dataclasses.dataclass(frozen=True, eq=False)
class Formula:
    """A closed form with its validity conditions, kind and source.

    Parameters
    ----------
    name : str
        Registry slug, e.g. ``"gdp-delta"``.
    expr : sympy.Expr
        The closed form.
    params : tuple of sympy.Symbol
        The arguments, in call order.
    conditions : tuple of sympy relationals
        Where the formula holds, beyond the symbols' own assumptions (positive, integer, ...).
    kind : Kind
        What the value is.
    source : str
        Paper and result number.
    lhs : str
        LaTeX of the left-hand side, e.g. ``r"\\delta(\\epsilon)"``.
    erratum : str, optional
        The correction applied to the printed formula.
    status : Status, optional
        Proof status, for published bounds.
    """

    name: str
    expr: sp.Expr
    params: tuple
    kind: Kind
    source: str
    lhs: str = ""
    conditions: tuple = ()
    erratum: str | None = None
    status: Status | None = None
    description: str = ""

    # ------------------------------------------------------------------ display
    def latex(self) -> str:
        """LaTeX of the expression (with the left-hand side when one is set)."""
        body = sp.latex(self.expr)
        return f"{self.lhs} = {body}" if self.lhs else body

    def all_conditions(self) -> list:
        return list(self.conditions)

    def conditions_latex(self) -> list[str]:
        out = []
        for sym in self.params:
            out.extend(text for text, _ in _assumption_checks(sym) if "finite" not in text)
        out.extend(sp.latex(c) for c in self.all_conditions())
        return out

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "latex": self.latex(),
            "conditions": self.conditions_latex(),
            "kind": str(self.kind),
            "status": None if self.status is None else str(self.status),
            "source": self.source,
            "erratum": self.erratum,
            "params": [str(p) for p in self.params],
            "description": self.description,
        }

    # ------------------------------------------------------------------ symbolic
    def with_expr(self, expr: sp.Expr, suffix: str = "") -> "Formula":
        return dataclasses.replace(self, expr=expr, name=self.name + suffix)

    def simplify(self) -> "Formula":
        """The same formula with a simplified expression."""
        return self.with_expr(sp.simplify(self.expr))

    def subs(self, **values) -> sp.Expr:
        """Substitute some parameters by name (values may be symbolic)."""
        mapping = {self._symbol(k): v for k, v in values.items()}
        return self.expr.subs(mapping)

    def series(self, symbol: sp.Symbol | str, point: Any = sp.oo, order: int = 3) -> sp.Expr:
        """Series expansion of the expression in ``symbol`` around ``point`` (O-term dropped)."""
        sym = self._symbol(symbol) if isinstance(symbol, str) else symbol
        return sp.series(self.expr, sym, point, order).removeO()

    def asymptotic(self, symbol: sp.Symbol | str, point: Any = sp.oo) -> sp.Expr:
        """The leading term of the expression as ``symbol`` tends to ``point``.

        A finite non-zero limit is returned as is; otherwise the leading term of the expansion
        (for ``point = oo``, in the variable 1/symbol).
        """
        sym = self._symbol(symbol) if isinstance(symbol, str) else symbol
        lim = sp.limit(self.expr, sym, point)
        if lim.is_finite and lim != 0:
            return sp.simplify(lim)
        if point in (sp.oo, sp.S.Infinity):
            u = sp.Symbol("u_", positive=True)
            lead = sp.simplify(self.expr.subs(sym, 1 / u)).as_leading_term(u)
            return sp.simplify(lead.subs(u, 1 / sym))
        shifted = sp.Symbol("h_", positive=True)
        lead = self.expr.subs(sym, point + shifted).as_leading_term(shifted)
        return sp.simplify(lead.subs(shifted, sym - point))

    # ------------------------------------------------------------------ validity
    def _symbol(self, name: str) -> sp.Symbol:
        for sym in self.params:
            if sym.name == name or _kw(sym) == name:
                return sym
        raise DomainError(
            f"{self.name}: unknown parameter {name!r}; parameters are {[_kw(p) for p in self.params]}"
        )

    def _bind(self, args: tuple, kwargs: Mapping[str, Any]) -> dict:
        if len(args) > len(self.params):
            raise TypeError(f"{self.name} takes {len(self.params)} arguments, got {len(args)}")
        values = {}
        for sym, val in zip(self.params, args):
            values[sym] = val
        for key, val in kwargs.items():
            sym = self._symbol(key)
            if sym in values:
                raise TypeError(f"{self.name}: parameter {key!r} given twice")
            values[sym] = val
        missing = [_kw(p) for p in self.params if p not in values]
        if missing:
            raise TypeError(f"{self.name}: missing parameters {missing}")
        return values

    def failed_condition(self, *args, **kwargs):
        """The first condition violated at these (scalar) parameters, as LaTeX, or None."""
        values = self._bind(args, kwargs)
        for sym, val in values.items():
            if isinstance(val, sp.Basic):
                continue
            try:
                arr = np.asarray(float(val))
            except (TypeError, ValueError):
                return f"{sp.latex(sym)} \\in \\mathbb{{R}}"
            if np.isnan(arr):
                return f"{sp.latex(sym)} \\in \\mathbb{{R}}"
            for text, pred in _assumption_checks(sym):
                if not pred(arr):
                    return text
        subs = {sym: val if isinstance(val, sp.Basic) else sp.Float(str(mpmath.mpf(val)), 30)
                for sym, val in values.items()}
        for cond in self.all_conditions():
            truth = cond.subs(subs)
            if truth is not sp.true and bool(truth) is not True:
                return sp.latex(cond)
        return None

    def holds(self, *args, **kwargs) -> bool:
        """True when every validity condition holds at these parameters."""
        return self.failed_condition(*args, **kwargs) is None

    def check(self, *args, **kwargs) -> None:
        """Raise :class:`ConditionError` naming the failed condition, if any."""
        failed = self.failed_condition(*args, **kwargs)
        if failed is not None:
            values = self._bind(args, kwargs)
            shown = ", ".join(f"{_kw(s)}={v!r}" for s, v in values.items())
            plain = " (an integer)" if "mathbb{Z}" in failed else ""
            raise ConditionError(
                f"{self.name} ({self.source}) does not hold at {shown}: condition ${failed}${plain} fails"
            )

    # ------------------------------------------------------------------ numerics
    @functools.cached_property
    def _np(self) -> Callable:
        return sp.lambdify(self.params, self.expr, modules=NUMPY_MODULES)

    @functools.cached_property
    def _np_conditions(self) -> list[tuple[str, Callable]]:
        return [(sp.latex(c), sp.lambdify(self.params, c, modules=NUMPY_MODULES)) for c in self.all_conditions()]

    @functools.cached_property
    def _mp(self) -> Callable:
        return sp.lambdify(self.params, self.expr, modules=MPMATH_MODULES)

    def numpy(self, *, check: bool = True) -> Callable:
        """A vectorised float64 function of the parameters (positional or by name).

        With ``check`` (the default) it raises :class:`ConditionError` if any element violates a
        condition.
        """

        def fn(*args, **kwargs):
            values = self._bind(args, kwargs)
            ordered = [np.asarray(values[s], dtype=float) for s in self.params]
            if check:
                def fail(text, ok):
                    ok = np.broadcast_to(np.asarray(ok, dtype=bool), np.broadcast(*ordered).shape)
                    where = tuple(np.argwhere(~ok)[0]) if ok.ndim else ()
                    shown = ", ".join(f"{_kw(s)}={float(np.broadcast_to(a, ok.shape)[where])!r}"
                                      for s, a in zip(self.params, ordered))
                    plain = " (an integer)" if "mathbb{Z}" in text else ""
                    raise ConditionError(f"{self.name} ({self.source}) does not hold at {shown}: "
                                         f"condition ${text}${plain} fails")

                for sym, arr in zip(self.params, ordered):
                    for text, pred in _assumption_checks(sym):
                        if not pred(arr):
                            fail(text, np.vectorize(lambda v: bool(pred(np.asarray(v))))(arr) if arr.ndim else False)
                for text, cond in self._np_conditions:
                    with np.errstate(all="ignore"):
                        ok = np.asarray(cond(*ordered), dtype=bool)
                    if not np.all(ok):
                        fail(text, ok)
            # integer parameters (summation bounds, binomial arguments) are passed as ints
            args_np = [int(arr) if sym.is_integer and arr.ndim == 0 and np.isfinite(arr) and arr == np.floor(arr)
                       else arr for sym, arr in zip(self.params, ordered)]
            with np.errstate(all="ignore"):
                out = self._np(*args_np)
            out = np.asarray(out, dtype=float)
            if np.isnan(out).any():
                shown = ", ".join(f"{sym} = {np.asarray(a).ravel()[0]:g}" for sym, a in zip(self.params, ordered))
                raise ConditionError(
                    f"{self.name} is undefined at {shown}: the expression has no real value there "
                    "(a logarithm or root of a negative number)")
            return out if out.ndim else float(out)

        fn.__doc__ = f"{self.name}: {self.description or self.latex()} (numpy, generated)"
        return fn

    def mpmath(self, digits: int | None = 50, *, check: bool = True) -> Callable:
        """The same expression evaluated with mpmath at ``digits`` decimal digits.

        With ``digits=None`` the function uses the ambient mpmath precision, so that callers such
        as :func:`dptheory.precision.mp_adaptive` can raise it.
        """

        def fn(*args, **kwargs):
            if check:
                self.check(*args, **kwargs)
            values = self._bind(args, kwargs)
            with mpmath.workdps(digits if digits is not None else mpmath.mp.dps):
                ordered = []
                for sym in self.params:
                    v = values[sym]
                    if sym.is_integer and not isinstance(v, mpmath.mpf) and float(v) == int(float(v)):
                        ordered.append(int(float(v)))  # summation bounds and binomials need ints
                    else:
                        ordered.append(v if isinstance(v, mpmath.mpf) else mpmath.mpf(v))
                return self._mp(*ordered)

        fn.__doc__ = f"{self.name}: {self.description or self.latex()} (mpmath, generated)"
        return fn

    def __call__(self, *args, digits: int | None = None, **kwargs):
        """Evaluate at scalar or array parameters, checking the conditions first."""
        if digits is not None:
            return self.mpmath(digits)(*args, **kwargs)
        return self.numpy()(*args, **kwargs)


def _kw(sym: sp.Symbol) -> str:
    """The keyword name of a symbol: ``epsilon_0`` -> ``eps0``, ``lambda`` -> ``lam``."""
    return _KEYWORDS.get(sym.name, sym.name)


_KEYWORDS = {
    "epsilon_0": "eps0",
    "epsilon": "eps",
    "lambda": "lam",
    "pi_prior": "pi",
    "Delta": "sensitivity",
    "Omega": "omega",
}


def register(formula: Formula) -> Formula:
    """Add a formula to the registry (names are unique)."""
    if formula.name in _REGISTRY and _REGISTRY[formula.name] is not formula:
        raise ValueError(f"formula {formula.name!r} registered twice")
    _REGISTRY[formula.name] = formula
    return formula


def catalog() -> dict[str, Formula]:
    """All registered formulas (importing every module that defines some)."""
    for module in FORMULA_MODULES:
        importlib.import_module(module)
    return dict(sorted(_REGISTRY.items()))


def get(name: str) -> Formula:
    """The registered formula called ``name``."""
    formulas = catalog()
    if name not in formulas:
        raise DomainError(f"formula {name!r} is unknown; known formulas: {', '.join(formulas)}")
    return formulas[name]


def names(prefix: str = "") -> Iterable[str]:
    return [n for n in catalog() if n.startswith(prefix)]
