"""Formula: a named closed form, the single source of truth for its numeric versions.

A :class:`Formula` holds a sympy expression over the shared symbols of :mod:`dptheory.symbols`,
the conditions under which it holds, its kind (upper / lower / exact / approximation), its proof
status and its source. The vectorised numpy function and the arbitrary-precision mpmath function
are both generated from the expression by :func:`sympy.lambdify`; neither is written by hand.

A formula is cheap to define: its name, kind, status and source are plain data, and its sympy
expression is built on first use by a *builder* (a function that returns the :class:`Parts` of
the formula, or a mapping from formula names to them). sympy takes a quarter of a second to
import, and the float paths of the command line never need it. The generated numpy and mpmath
functions are cached on the formula.

The modules that define formulas add them to the registry with :func:`register`; this module
imports none of them. The list of every formula is :mod:`dptheory.catalogue`.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Mapping, NamedTuple

import mpmath
import numpy as np

from . import special
from .results import Kind, Status
from .validate import ConditionError, DomainError

_REGISTRY: dict[str, "Formula"] = {}

#: decimal digits at which :meth:`Formula.failed_condition` evaluates a condition
CONDITION_DIGITS = 50


def _call_builder(build):
    """The parts built by ``build``; a builder shared by several formulas runs once."""
    if build not in _BUILT:
        _BUILT[build] = build()
    return _BUILT[build]


_BUILT: dict = {}


def _sympy():
    """sympy, imported on first symbolic use (the float paths never need it)."""
    import sympy

    return sympy


class Parts(NamedTuple):
    """The symbolic content of a formula, as returned by its builder.

    ``where`` names sub-expressions as the paper does (Wang et al. 2024, Thm 4.2: epsilon =
    log(1 + F(Omega)), with F, Omega, alpha and r defined after it): a tuple of ``(name,
    definition)`` pairs, a name being a sympy Symbol (its definition an expression) or an undefined
    sympy Function (its definition a ``Lambda``). ``expr`` and ``conditions`` may then use the
    names; the formula's :attr:`Formula.expr` and :attr:`Formula.conditions` have every name
    replaced by its definition (definitions may use each other, in any order), and only the
    display (:meth:`Formula.latex`, :meth:`Formula.where_latex`) keeps the names.
    """

    expr: Any
    params: tuple
    conditions: tuple = ()
    where: tuple = ()


def _assumption_kinds(sym) -> list[tuple[str, str]]:
    """The symbol's own assumptions as (LaTeX, kind) pairs, kind one of :data:`_PREDICATES`.

    They cannot be sympy relationals: ``mu >= 0`` is already ``True`` for a nonnegative symbol.
    """
    sp = _sympy()
    name = sp.latex(sym)
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
_PREDICATES: dict[str, Callable] = {
    "integer": lambda v: np.all(v == np.floor(v)),
    "positive": lambda v: np.all(v > 0),
    "nonnegative": lambda v: np.all(v >= 0),
    "finite": lambda v: np.all(np.isfinite(v)),
}


def _assumption_checks(sym) -> list[tuple[str, Callable]]:
    """The symbol's own assumptions as (LaTeX, predicate on a float array) pairs."""
    return [(text, _PREDICATES[kind]) for text, kind in _assumption_kinds(sym)]


class _Signature(NamedTuple):
    """What the generated functions need to know of the parameters, without sympy: their sympy
    names, keyword names, integer flags and assumption checks (LaTeX, predicate)."""

    names: tuple
    keywords: tuple
    integer: tuple
    checks: tuple
    latex: tuple


class Formula:
    """A closed form with its validity conditions, kind, proof status and source.

    Parameters
    ----------
    name : str
        Registry slug, e.g. ``"gdp-delta"``.
    expr : sympy.Expr, optional
        The closed form. Give either ``expr`` and ``params`` (and ``conditions``), or ``build``.
    params : tuple of sympy.Symbol, optional
        The arguments, in call order.
    kind : Kind
        What the value is.
    source : str
        Paper and result number.
    lhs : str
        LaTeX of the left-hand side, e.g. ``r"\\delta(\\epsilon)"``.
    conditions : tuple of sympy relationals
        Where the formula holds, beyond the symbols' own assumptions (positive, integer, ...).
    erratum : str, optional
        The correction applied to the printed formula.
    status : Status, optional
        Proof status: ``PROVEN``/``REFUTED``/``UNPROVEN`` for a bound or an exact value,
        ``NOT_A_BOUND`` for an approximation (the default for ``Kind.APPROXIMATION``).
    description : str
        One line saying what the formula computes.
    build : callable, optional
        A function of no argument returning the :class:`Parts` of this formula, or a mapping
        from formula names to :class:`Parts` (one builder may serve every formula of a module;
        it is called once). The expression is built on first use.
    """

    def __init__(self, name: str, expr: Any = None, params: tuple | None = None, *, kind: Kind, source: str,
                 lhs: str = "", conditions: tuple = (), erratum: str | None = None,
                 status: Status | None = None, description: str = "",
                 build: Callable[[], Parts | Mapping[str, Parts]] | None = None) -> None:
        if (build is None) == (expr is None):
            raise TypeError(f"formula {name!r}: give either expr and params, or build")
        if build is None and params is None:
            raise TypeError(f"formula {name!r}: expr needs params")
        if status is None and kind is Kind.APPROXIMATION:
            status = Status.NOT_A_BOUND
        self.name = name
        self.kind = Kind(kind)
        self.source = source
        self.lhs = lhs
        self.erratum = erratum
        self.status = status
        self.description = description
        self._build = build
        if build is None:
            self.__dict__["_parts"] = Parts(expr, tuple(params), tuple(conditions))

    def __repr__(self) -> str:
        return f"Formula({self.name!r}, kind={self.kind.value!r}, status={self.status and self.status.value!r})"

    @functools.cached_property
    def _built(self) -> Parts:
        """The parts as the builder gives them (named sub-expressions unexpanded)."""
        built = _call_builder(self._build)
        if isinstance(built, Mapping):
            if self.name not in built:
                raise KeyError(f"formula {self.name!r}: its builder does not define it")
            built = built[self.name]
        expr, params, *rest = built
        return Parts(expr, tuple(params), tuple(rest[0]) if rest else (), tuple(rest[1]) if len(rest) > 1 else ())

    @functools.cached_property
    def _parts(self) -> Parts:
        built = self._built
        if not built.where:
            return built
        return Parts(_expand(built.expr, built.where), built.params,
                     tuple(_expand(c, built.where) for c in built.conditions), built.where)

    @property
    def where(self) -> tuple:
        """The named sub-expressions ``((name, definition), ...)`` the display keeps (see :class:`Parts`)."""
        return self._built.where if self._build is not None else ()

    def _shown(self) -> tuple:
        """(expression, conditions) as displayed: with the named sub-expressions, if any."""
        if self._build is not None and self._built.where:
            return self._built.expr, self._built.conditions
        return self.expr, self.all_conditions()

    @property
    def expr(self):
        """The sympy expression (built on first use)."""
        return self._parts.expr

    @property
    def params(self) -> tuple:
        """The parameters, as sympy symbols, in call order."""
        return self._parts.params

    @property
    def conditions(self) -> tuple:
        """The validity conditions beyond the symbols' own assumptions."""
        return self._parts.conditions

    # ------------------------------------------------------------------ display
    def latex(self) -> str:
        """LaTeX of the expression in the papers' notation (:func:`dptheory.latex.to_latex`:
        the normal CDF as ``\\Phi``, binomial coefficients, named functions), with the
        left-hand side when one is set."""
        from .latex import to_latex

        body = to_latex(self._shown()[0])
        return f"{self.lhs} = {body}" if self.lhs else body

    def where_latex(self) -> list[str]:
        """The definitions of the named sub-expressions, as LaTeX (``\\Omega = ...``, ``F(C) = ...``),
        in the order the builder lists them; empty for a formula without named parts."""
        from .latex import to_latex

        out = []
        for name, definition in (self._built.where if self._build is not None else ()):
            if isinstance(definition, _sympy().Lambda):
                out.append(f"{to_latex(name(*definition.variables))} = {to_latex(definition.expr)}")
            else:
                out.append(f"{to_latex(name)} = {to_latex(definition)}")
        return out

    def all_conditions(self) -> list:
        return list(self.conditions)

    def conditions_latex(self) -> list[str]:
        """The validity domain as LaTeX, merged into its simplest form: the parameters' own
        assumptions (positive, integer, ...) and the one-parameter conditions are intersected
        into one range per parameter (``\\mu \\geq 0`` and ``\\mu > 0`` give ``\\mu > 0``;
        ``\\delta > 0`` and ``\\delta < 1`` give ``0 < \\delta < 1``); the conditions
        between parameters follow, each once. Only the display is merged: the checks use every
        condition as given."""
        from .latex import to_latex

        ranges, joint = merged_conditions(self.params, list(self._shown()[1]))
        for sym in list(ranges):  # in turn: an end dropped no longer supports another's
            ranges[sym] = _without_implied(sym, ranges[sym], joint, ranges)
        out = [text for sym, domain in ranges.items() if (text := _range_latex(sym, domain, to_latex))]
        out.extend(to_latex(c) for c in joint)
        return out

    def conditions_line(self) -> str:
        """The merged validity conditions as one LaTeX line (empty when there are none)."""
        return ",\\ ".join(self.conditions_latex())

    def latex_with_conditions(self) -> str:
        """The formula, its named sub-expressions and its validity domain, typeset once:
        ``lhs = expr, \\quad \\text{where } \\Omega = ..., \\quad \\text{for } ...``."""
        names = ",\\ ".join(self.where_latex())
        domain = self.conditions_line()
        return (self.latex() + (f", \\quad \\text{{where }} {names}" if names else "")
                + (f", \\quad \\text{{for }} {domain}" if domain else ""))

    @property
    def bib_keys(self) -> list[str]:
        """The BibTeX keys of the papers the source names (:func:`dptheory.latex.cite_keys`)."""
        from .latex import cite_keys

        return cite_keys(self.source)

    def _repr_latex_(self) -> str:
        """Jupyter display: the formula with its conditions, kind, status and source."""
        from .latex import escape

        status = "" if self.status is None else f", {self.status}"
        return (f"$\\displaystyle {self.latex_with_conditions()}"
                f"\\quad\\text{{({escape(str(self.kind) + status)}; {escape(self.source)})}}$")

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "latex": self.latex(),
            "where": self.where_latex(),
            "conditions": self.conditions_latex(),
            "kind": str(self.kind),
            "status": None if self.status is None else str(self.status),
            "source": self.source,
            "erratum": self.erratum,
            "params": [str(p) for p in self.params],
            "description": self.description,
        }

    # ------------------------------------------------------------------ symbolic
    def with_expr(self, expr, suffix: str = "") -> "Formula":
        """The same formula with another expression (same parameters, conditions and labels)."""
        return Formula(self.name + suffix, expr, self.params, kind=self.kind, source=self.source, lhs=self.lhs,
                       conditions=self.conditions, erratum=self.erratum, status=self.status,
                       description=self.description)

    def simplify(self) -> "Formula":
        """The same formula with a simplified expression."""
        sp = _sympy()
        return self.with_expr(sp.simplify(self.expr))

    def subs(self, **values):
        """Substitute some parameters by name (values may be symbolic)."""
        mapping = {self._symbol(k): v for k, v in values.items()}
        return self.expr.subs(mapping)

    def series(self, symbol, point: Any = None, order: int = 3):
        """Series expansion of the expression in ``symbol`` around ``point`` (O-term dropped)."""
        sp = _sympy()
        point = sp.oo if point is None else point
        sym = self._symbol(symbol) if isinstance(symbol, str) else symbol
        return sp.series(self.expr, sym, point, order).removeO()

    def asymptotic(self, symbol, point: Any = None):
        """The leading term of the expression as ``symbol`` tends to ``point``.

        A finite non-zero limit is returned as is; otherwise the leading term of the expansion
        (for ``point = oo``, in the variable 1/symbol).
        """
        sp = _sympy()
        point = sp.oo if point is None else point
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
    def _symbol(self, name: str):
        for sym in self.params:
            if sym.name == name or _kw(sym) == name:
                return sym
        raise DomainError(
            f"{self.name}: unknown parameter {name!r}; parameters are {[_kw(p) for p in self.params]}"
        )

    @functools.cached_property
    def _signature(self) -> _Signature:
        """The parameters' names, integer flags and assumption checks: from the generated file
        where this formula is in it (no sympy), else from the sympy symbols."""
        entry = self._generated_entry
        if entry is not None:
            params = entry["params"]
            return _Signature(tuple(p[0] for p in params), tuple(p[1] for p in params), tuple(p[2] for p in params),
                              tuple(tuple((text, _PREDICATES[kind]) for text, kind in p[3]) for p in params),
                              tuple(p[4] for p in params))
        sp = _sympy()
        return _Signature(tuple(s.name for s in self.params), tuple(_kw(s) for s in self.params),
                          tuple(bool(s.is_integer) for s in self.params),
                          tuple(tuple(_assumption_checks(s)) for s in self.params),
                          tuple(sp.latex(s) for s in self.params))

    def _bind(self, args: tuple, kwargs: Mapping[str, Any]) -> list:
        """The values of the parameters, in call order, from positional and keyword arguments."""
        sig = self._signature
        count = len(sig.names)
        if len(args) > count:
            raise TypeError(f"{self.name} takes {count} arguments, got {len(args)}")
        values: dict[int, Any] = dict(enumerate(args))
        for key, val in kwargs.items():
            where = [i for i in range(count) if key in (sig.names[i], sig.keywords[i])]
            if not where:
                raise DomainError(f"{self.name}: unknown parameter {key!r}; parameters are {list(sig.keywords)}")
            if where[0] in values:
                raise TypeError(f"{self.name}: parameter {key!r} given twice")
            values[where[0]] = val
        missing = [sig.keywords[i] for i in range(count) if i not in values]
        if missing:
            raise TypeError(f"{self.name}: missing parameters {missing}")
        return [values[i] for i in range(count)]

    def failed_condition(self, *args, **kwargs):
        """The first condition violated at these (scalar) parameters, as LaTeX, or None.

        Numbers are checked exactly as given (an mpmath number from the float), each condition
        evaluated with mpmath at :data:`CONDITION_DIGITS` digits by the function generated from
        it (no sympy); sympy values (or a formula without generated functions) go through sympy.
        """
        values_list = self._bind(args, kwargs)
        entry = self._generated_entry
        if entry is not None and not any(type(v).__module__.startswith("sympy") for v in values_list):
            return self._failed_condition_mpmath(values_list)
        return self._failed_condition_sympy(values_list)

    def _failed_condition_sympy(self, values_list: list):
        sp = _sympy()
        values = dict(zip(self.params, values_list))
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

    def _failed_condition_mpmath(self, values: list):
        sig = self._signature
        arrays = []
        for latex, checks, val in zip(sig.latex, sig.checks, values):
            try:
                arr = np.asarray(float(val))
            except (TypeError, ValueError):
                arr = np.asarray(math.nan)
            if np.isnan(arr):
                return f"{latex} \\in \\mathbb{{R}}"
            for text, pred in checks:
                if not pred(arr):
                    return text
            arrays.append(val)
        with mpmath.workdps(CONDITION_DIGITS):
            ordered = [mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v for v in arrays]
            ordered = [int(v) if integer and v == mpmath.floor(v) else v for integer, v in zip(sig.integer, ordered)]
            for text, cond in self._mp_conditions:
                if not bool(cond(*ordered)):
                    return text
        return None

    def holds(self, *args, **kwargs) -> bool:
        """True when every validity condition holds at these parameters."""
        return self.failed_condition(*args, **kwargs) is None

    def check(self, *args, **kwargs) -> None:
        """Raise :class:`ConditionError` naming the failed condition, if any."""
        failed = self.failed_condition(*args, **kwargs)
        if failed is not None:
            values = self._bind(args, kwargs)
            shown = ", ".join(f"{k}={v!r}" for k, v in zip(self._signature.keywords, values))
            plain = " (an integer)" if "mathbb{Z}" in failed else ""
            raise ConditionError(
                f"{self.name} ({self.source}) does not hold at {shown}: condition ${failed}${plain} fails"
            )

    # ------------------------------------------------------------------ numerics
    @functools.cached_property
    def _generated_entry(self) -> dict | None:
        """This formula's entry of the generated file ``dptheory/generated_formulas.json``, or
        None: only a registered formula built by its module's builder has one (a formula made
        by :meth:`with_expr` may share the name, not the expression)."""
        if self._build is None or _REGISTRY.get(self.name) is not self:
            return None
        entry = _generated_formulas().get(self.name)
        if entry is None or entry["builder"] != _builder_fingerprint(self._build):
            return None  # the builder changed since the module was generated: lambdify afresh
        return entry

    def _compiled(self, which: str, sympy_version: Callable) -> Callable:
        entry = self._generated_entry
        if entry is None:
            return sympy_version()
        return _compile(self.name, *entry[which])

    @functools.cached_property
    def _np(self) -> Callable:
        return self._compiled("numpy", lambda: _lambdify(self.params, self.expr, special.numpy_modules()))

    @functools.cached_property
    def _np_conditions(self) -> list[tuple[str, Callable]]:
        entry = self._generated_entry
        if entry is not None:
            return [(text, _compile(self.name, source, names)) for text, source, names in entry["conditions"]]
        sp = _sympy()
        return [(sp.latex(c), _lambdify(self.params, c, special.numpy_modules())) for c in self.all_conditions()]

    @functools.cached_property
    def _mp_conditions(self) -> list[tuple[str, Callable]]:
        entry = self._generated_entry
        return [(text, _compile(self.name, source, names)) for text, source, names in entry["mp_conditions"]]

    @functools.cached_property
    def _mp(self) -> Callable:
        return self._compiled("mpmath", lambda: _lambdify(self.params, self.expr, special.MPMATH_MODULES))

    def generated(self) -> dict:
        """The data of this formula's entry in the generated file (what :meth:`numpy` and
        :meth:`mpmath` run without importing sympy): the parameters (name, keyword, integer flag,
        assumption checks as (LaTeX, kind)), and the source lambdified by sympy from the
        expression and from each condition, with where each global name it uses comes from."""
        sp = _sympy()
        return {
            "builder": _builder_fingerprint(self._build),
            "params": tuple((s.name, _kw(s), bool(s.is_integer), tuple(_assumption_kinds(s)), sp.latex(s))
                            for s in self.params),
            "numpy": _lambdified_source(self.params, self.expr, special.numpy_modules()),
            "mpmath": _lambdified_source(self.params, self.expr, special.MPMATH_MODULES),
            "conditions": tuple((sp.latex(c),) + _lambdified_source(self.params, c, special.numpy_modules())
                                for c in self.all_conditions()),
            "mp_conditions": tuple((sp.latex(c),) + _lambdified_source(self.params, c, special.MPMATH_MODULES)
                                   for c in self.all_conditions()),
        }

    def numpy(self, *, check: bool = True) -> Callable:
        """A vectorised float64 function of the parameters (positional or by name).

        With ``check`` (the default) it raises :class:`ConditionError` if any element violates a
        condition. The function is the one sympy lambdifies from the expression; for the
        registered formulas its source is kept in ``dptheory/generated_formulas.json`` (checked
        against the expression by tests/test_formula.py), so that no float path imports sympy.
        """
        sig = self._signature

        def fn(*args, **kwargs):
            ordered = [np.asarray(v, dtype=float) for v in self._bind(args, kwargs)]
            if check:
                def fail(text, ok):
                    ok = np.broadcast_to(np.asarray(ok, dtype=bool), np.broadcast(*ordered).shape)
                    where = tuple(np.argwhere(~ok)[0]) if ok.ndim else ()
                    shown = ", ".join(f"{kw}={float(np.broadcast_to(a, ok.shape)[where])!r}"
                                      for kw, a in zip(sig.keywords, ordered))
                    plain = " (an integer)" if "mathbb{Z}" in text else ""
                    raise ConditionError(f"{self.name} ({self.source}) does not hold at {shown}: "
                                         f"condition ${text}${plain} fails")

                for checks, arr in zip(sig.checks, ordered):
                    for text, pred in checks:
                        if not pred(arr):
                            fail(text, np.vectorize(lambda v: bool(pred(np.asarray(v))))(arr) if arr.ndim else False)
                for text, cond in self._np_conditions:
                    with np.errstate(all="ignore"):
                        ok = np.asarray(cond(*ordered), dtype=bool)
                    if not np.all(ok):
                        fail(text, ok)
            # integer parameters (summation bounds, binomial arguments) are passed as ints
            args_np = [int(arr) if integer and arr.ndim == 0 and np.isfinite(arr) and arr == np.floor(arr)
                       else arr for integer, arr in zip(sig.integer, ordered)]
            with np.errstate(all="ignore"):
                out = self._np(*args_np)
            out = np.asarray(out, dtype=float)
            if np.isnan(out).any():
                shown = ", ".join(f"{name} = {np.asarray(a).ravel()[0]:g}" for name, a in zip(sig.names, ordered))
                raise ConditionError(
                    f"{self.name} is undefined at {shown}: the expression has no real value there "
                    "(a logarithm or root of a negative number)")
            return out if out.ndim else float(out)

        fn.__doc__ = f"{self.name}: {self.description} (numpy, generated)"
        return fn

    def mpmath(self, digits: int | None = 50, *, check: bool = True) -> Callable:
        """The same expression evaluated with mpmath at ``digits`` decimal digits.

        With ``digits=None`` the function uses the ambient mpmath precision, so that callers such
        as :func:`dptheory.precision.mp_adaptive` can raise it.
        """
        sig = self._signature

        def fn(*args, **kwargs):
            if check:
                self.check(*args, **kwargs)
            values = self._bind(args, kwargs)
            with mpmath.workdps(digits if digits is not None else mpmath.mp.dps):
                ordered = []
                for integer, v in zip(sig.integer, values):
                    if integer and not isinstance(v, mpmath.mpf) and float(v) == int(float(v)):
                        ordered.append(int(float(v)))  # summation bounds and binomials need ints
                    else:
                        ordered.append(v if isinstance(v, mpmath.mpf) else mpmath.mpf(v))
                return self._mp(*ordered)

        fn.__doc__ = f"{self.name}: {self.description} (mpmath, generated)"
        return fn

    def __call__(self, *args, digits: int | None = None, **kwargs):
        """Evaluate at scalar or array parameters, checking the conditions first."""
        if digits is not None:
            return self.mpmath(digits)(*args, **kwargs)
        return self.numpy()(*args, **kwargs)


# ---------------------------------------------------------------------- generated functions
@functools.lru_cache(maxsize=1)
def _generated_formulas() -> dict:
    """The entries of ``generated_formulas.json`` (written by
    :func:`dptheory.catalogue.generated_text`; empty if it is missing)."""
    import json
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "generated_formulas.json")
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)["formulas"]
    except FileNotFoundError:  # pragma: no cover - the file ships with the package
        return {}


@functools.lru_cache(maxsize=None)
def _builder_fingerprint(build) -> str:
    """SHA-256 of the builder's source text: a generated entry whose builder has been edited
    since is not used (the formula is lambdified afresh, and tests/test_formula.py fails until
    the module is regenerated)."""
    import hashlib
    import inspect

    try:
        text = inspect.getsource(build)
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(text.encode()).hexdigest()


def _lambdify(params, expr, modules) -> Callable:
    return _sympy().lambdify(params, expr, modules=modules)


#: the modules a generated function's global names are looked up in, in this order
_NAME_SOURCES = ("dptheory.special", "numpy", "scipy.special", "mpmath", "math", "functools", "builtins")


def _lambdified_source(params, expr, modules) -> tuple[str, tuple]:
    """(source, names) of the function sympy lambdifies: the source with its dummy arguments
    renamed deterministically, and each global name it uses with where it comes from,
    ``(name, "module:attribute")`` or ``(name, "module")`` for a module."""
    import ast
    import builtins
    import importlib
    import inspect
    import re

    fn = _lambdify(params, expr, modules)
    source = inspect.getsource(fn)
    dummies: dict[str, str] = {}
    source = re.sub(r"\b_?Dummy_\d+\b", lambda m: dummies.setdefault(m.group(0), f"_arg{len(dummies)}"), source)
    tree = ast.parse(source)
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    stored |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args}
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - stored)
    names = []
    for name in used:
        if name in fn.__globals__:
            obj = fn.__globals__[name]
        elif hasattr(builtins, name):
            obj = getattr(builtins, name)
        else:
            raise LookupError(f"lambdified name {name!r} is not defined")
        where = None
        if inspect.ismodule(obj):
            where = obj.__name__
        else:
            for module in _NAME_SOURCES:
                mod = importlib.import_module(module)
                attrs = [a for a in (name, getattr(obj, "__name__", None)) if a and getattr(mod, a, None) is obj]
                if attrs:
                    where = f"{module}:{attrs[0]}"
                    break
        if where is None:
            raise LookupError(f"lambdified name {name!r} = {obj!r} is in none of {_NAME_SOURCES}")
        names.append((name, where))
    return source, tuple(names)


def _compile(formula_name: str, source: str, names: tuple) -> Callable:
    """The function of a generated source, its global names imported from where they come from
    (scipy.special only by the formulas that use it)."""
    import importlib

    namespace: dict[str, Any] = {}
    for name, where in names:
        module, _, attribute = where.partition(":")
        obj = importlib.import_module(module)
        namespace[name] = getattr(obj, attribute) if attribute else obj
    exec(compile(source, f"<generated: {formula_name}>", "exec"), namespace)  # noqa: S102 - our own generated code
    return namespace["_lambdifygenerated"]


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


def _expand(expr, where):
    """``expr`` with every named sub-expression replaced by its definition (repeatedly: the
    definitions may use each other)."""
    sp = _sympy()
    for _ in range(len(where) + 1):
        before = expr
        for name, definition in where:
            if isinstance(definition, sp.Lambda):
                expr = expr.replace(name, definition)
            else:
                expr = expr.xreplace({name: definition})
        if expr == before:
            return expr
    raise ValueError("named sub-expressions that refer to each other in a cycle")


def _without_implied(sym, domain, joint, ranges):
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


def _range_latex(sym, domain, to_latex) -> str:
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


def _kw(sym) -> str:
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


def registered() -> dict[str, Formula]:
    """The formulas registered so far (by the modules imported so far); the full list is
    :func:`dptheory.catalogue.catalogue`."""
    return dict(_REGISTRY)
