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

import numpy as np

from . import codegen, domain, special
from .lazy_import import mpmath
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

    ``where`` names sub-expressions as the paper does (Wang et al. 2024, Theorem 4.2: epsilon =
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
    status_note : str
        Where the status depends on the randomizer or the parameters: for which it differs
        (text with inline math), e.g. "proven where it is at least Theorem 3.1, checked at each
        evaluation". Shown beside the status everywhere the formula is listed.
    template : str
        How the right-hand side is displayed around the expression, ``"{}"`` by default; a rate
        "up to a constant" is ``r"O\\left({}\\right)"``.
    """

    def __init__(self, name: str, expr: Any = None, params: tuple | None = None, *, kind: Kind, source: str,
                 lhs: str = "", conditions: tuple = (), erratum: str | None = None,
                 status: Status | None = None, description: str = "",
                 build: Callable[[], Parts | Mapping[str, Parts]] | None = None, status_note: str = "",
                 template: str = "{}") -> None:
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
        self.status_note = status_note
        self.template = template
        #: the module attribute that holds this formula (``dptheory.shuffle.clones.CLOSED_FORM``),
        #: set by :func:`dptheory.catalogue.catalogue`; the methods that evaluate it name it in turn
        self.implemented_by = ""
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
        """LaTeX of the formula on one line, in the papers' notation
        (:func:`dptheory.presentation.notation.to_latex`: the normal CDF as ``\\Phi``, binomial
        coefficients, named functions and sub-expressions, positive terms first), with the
        left-hand side when one is set."""
        from .presentation.notation import to_latex

        body = self.template.format(to_latex(self._shown()[0]))
        return f"{self.lhs} = {body}" if self.lhs else body

    def display_lines(self, width: float | None = None) -> list[str]:
        """The formula as the lines of a displayed equation: one line when it fits ``width``
        characters of display math (:data:`dptheory.presentation.notation.DISPLAY_WIDTH` by
        default), else broken before a top-level sign (inside a logarithm or a sum too), as
        ``multline`` sets it (:func:`dptheory.presentation.notation.display_lines`)."""
        from .presentation.notation import display_lines

        return display_lines(self._shown()[0], lhs=self.lhs, template=self.template, width=width)

    def where_latex(self) -> list[str]:
        """The definitions of the named sub-expressions, as LaTeX (``\\Omega = ...``, ``F(C) = ...``),
        in the order the builder lists them; empty for a formula without named parts."""
        return [" ".join(lines) for lines in self.where_display_lines(width=float("inf"))]

    def where_display_lines(self, width: float | None = None) -> list[list[str]]:
        """Each named sub-expression's definition as the lines of a displayed equation (see
        :meth:`display_lines`)."""
        from .presentation.notation import display_lines, to_latex

        out = []
        for name, definition in (self._built.where if self._build is not None else ()):
            if isinstance(definition, _sympy().Lambda):
                out.append(display_lines(definition.expr, lhs=to_latex(name(*definition.variables)), width=width))
            else:
                out.append(display_lines(definition, lhs=to_latex(name), width=width))
        return out

    def status_text(self) -> str:
        """The status with, where it depends on the randomizer or the parameters, for which
        (text with inline math): ``"unproven (proven where ...)"``."""
        if self.status is None:
            return ""
        return f"{self.status} ({self.status_note})" if self.status_note else str(self.status)

    def all_conditions(self) -> list:
        return list(self.conditions)

    def conditions_latex(self) -> list[str]:
        """The validity domain as LaTeX, merged into its simplest form: the parameters' own
        assumptions (positive, integer, ...) and the one-parameter conditions are intersected
        into one range per parameter (``\\mu \\geq 0`` and ``\\mu > 0`` give ``\\mu > 0``;
        ``\\delta > 0`` and ``\\delta < 1`` give ``0 < \\delta < 1``); the conditions
        between parameters follow, each once. Only the display is merged: the checks use every
        condition as given."""
        from .presentation.notation import to_latex

        ranges, joint = domain.merged_conditions(self.params, list(self._shown()[1]))
        for sym in list(ranges):  # in turn: an end dropped no longer supports another's
            ranges[sym] = domain.without_implied(sym, ranges[sym], joint, ranges)
        out = [text for sym, allowed in ranges.items() if (text := domain.range_latex(sym, allowed, to_latex))]
        out.extend(to_latex(c) for c in joint)
        return out

    def conditions_line(self) -> str:
        """The merged validity conditions as one LaTeX line (empty when there are none)."""
        return ",\\ ".join(self.conditions_latex())

    def latex_with_conditions(self) -> str:
        """The formula, its named sub-expressions and its validity domain, typeset once:
        ``lhs = expr, \\quad \\text{where } \\Omega = ..., \\quad \\text{for } ...``."""
        names = ",\\ ".join(self.where_latex())
        valid = self.conditions_line()
        return (self.latex() + (f", \\quad \\text{{where }} {names}" if names else "")
                + (f", \\quad \\text{{for }} {valid}" if valid else ""))

    @property
    def bib_keys(self) -> list[str]:
        """The BibTeX keys of the papers the source names
        (:func:`dptheory.presentation.citations.cite_keys`)."""
        from .presentation.citations import cite_keys

        return cite_keys(self.source)

    def _repr_latex_(self) -> str:
        """Jupyter display: the formula with its conditions, kind, status and source."""
        from .presentation.latex import text

        status = "" if self.status is None else f", {self.status_text()}"
        return (f"$\\displaystyle {self.latex_with_conditions()}$ "
                f"({text(str(self.kind) + status)}; {text(self.source)})")

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "latex": self.latex(),
            "where": self.where_latex(),
            "conditions": self.conditions_latex(),
            "kind": str(self.kind),
            "status": None if self.status is None else str(self.status),
            "status_note": self.status_note,
            "source": self.source,
            "erratum": self.erratum,
            "params": [str(p) for p in self.params],
            "description": self.description,
            "implemented_by": self.implemented_by,
        }

    # ------------------------------------------------------------------ symbolic
    def with_expr(self, expr, suffix: str = "") -> "Formula":
        """The same formula with another expression (same parameters, conditions and labels)."""
        return Formula(self.name + suffix, expr, self.params, kind=self.kind, source=self.source, lhs=self.lhs,
                       conditions=self.conditions, erratum=self.erratum, status=self.status,
                       description=self.description, status_note=self.status_note, template=self.template)

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
                              tuple(tuple((text, domain.PREDICATES[kind]) for text, kind in p[3]) for p in params),
                              tuple(p[4] for p in params))
        sp = _sympy()
        return _Signature(tuple(s.name for s in self.params), tuple(_kw(s) for s in self.params),
                          tuple(bool(s.is_integer) for s in self.params),
                          tuple(tuple(domain.assumption_checks(s)) for s in self.params),
                          tuple(domain.plain_latex(s) for s in self.params))

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
                return f"{domain.plain_latex(sym)} \\in \\mathbb{{R}}"
            if np.isnan(arr):
                return f"{domain.plain_latex(sym)} \\in \\mathbb{{R}}"
            for text, pred in domain.assumption_checks(sym):
                if not pred(arr):
                    return text
        subs = {sym: val if isinstance(val, sp.Basic) else sp.Float(str(mpmath.mpf(val)), 30)
                for sym, val in values.items()}
        for cond in self.all_conditions():
            truth = cond.subs(subs)
            if truth is not sp.true and bool(truth) is not True:
                return domain.plain_latex(cond)
        return None

    def _failed_condition_mpmath(self, values: list):
        sig = self._signature
        arrays = []
        for latex, checks, val in zip(sig.latex, sig.checks, values):
            try:
                arr = np.asarray(float(val))
            except (TypeError, ValueError):
                arr = np.asarray(math.nan)
            if arr == 0 and isinstance(val, mpmath.mpf) and val != 0:
                # an mpmath number below the float range (delta = 1e-2000): its sign is what the
                # assumption checks need
                arr = np.asarray(math.copysign(5e-324, float(mpmath.sign(val))))
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
            plain = " (an integer)" if "mathbb{Z}" in failed else ""
            raise ConditionError(
                f"{self.name} does not hold at {self._at(values)}: condition ${failed}${plain} fails")

    def _at(self, values) -> str:
        """Parameter values as inline math: "$\\epsilon_{0} = 1$, $n = 10^{6}$"."""
        from .presentation.latex import fmt_float

        shown = []
        for name, value in zip(self._signature.latex, values):
            try:
                shown.append(f"${name} = {fmt_float(float(value))}$")
            except (TypeError, ValueError):
                shown.append(f"${name} = {value}$")
        return ", ".join(shown)

    # ------------------------------------------------------------------ numerics
    @functools.cached_property
    def _generated_entry(self) -> dict | None:
        """This formula's entry of the generated file ``dptheory/generated_formulas.json``, or
        None: only a registered formula built by its module's builder has one (a formula made
        by :meth:`with_expr` may share the name, not the expression)."""
        if self._build is None or _REGISTRY.get(self.name) is not self:
            return None
        entry = codegen.generated_formulas().get(self.name)
        if entry is None or entry["builder"] != codegen.builder_fingerprint(self._build):
            return None  # the builder changed since the module was generated: lambdify afresh
        return entry

    def _compiled(self, which: str, sympy_version: Callable) -> Callable:
        entry = self._generated_entry
        if entry is None:
            return sympy_version()
        return codegen.compile_source(self.name, *entry[which])

    @functools.cached_property
    def _np(self) -> Callable:
        return self._compiled("numpy", lambda: codegen.lambdify(self.params, self.expr, special.numpy_modules()))

    @functools.cached_property
    def _np_conditions(self) -> list[tuple[str, Callable]]:
        entry = self._generated_entry
        if entry is not None:
            return [(text, codegen.compile_source(self.name, source, names)) for text, source, names in entry["conditions"]]
        sp = _sympy()
        return [(domain.plain_latex(c), codegen.lambdify(self.params, c, special.numpy_modules())) for c in self.all_conditions()]

    @functools.cached_property
    def _mp_conditions(self) -> list[tuple[str, Callable]]:
        entry = self._generated_entry
        return [(text, codegen.compile_source(self.name, source, names)) for text, source, names in entry["mp_conditions"]]

    @functools.cached_property
    def _mp(self) -> Callable:
        return self._compiled("mpmath", lambda: codegen.lambdify(self.params, self.expr, special.MPMATH_MODULES))

    def generated(self) -> dict:
        """The data of this formula's entry in the generated file (what :meth:`numpy` and
        :meth:`mpmath` run without importing sympy): the parameters (name, keyword, integer flag,
        assumption checks as (LaTeX, kind)), and the source lambdified by sympy from the
        expression and from each condition, with where each global name it uses comes from."""
        sp = _sympy()
        return {
            "builder": codegen.builder_fingerprint(self._build),
            "params": tuple((s.name, _kw(s), bool(s.is_integer), tuple(domain.assumption_kinds(s)), domain.plain_latex(s))
                            for s in self.params),
            "numpy": codegen.lambdified_source(self.params, self.expr, special.numpy_modules()),
            "mpmath": codegen.lambdified_source(self.params, self.expr, special.MPMATH_MODULES),
            "conditions": tuple((domain.plain_latex(c),) + codegen.lambdified_source(self.params, c, special.numpy_modules())
                                for c in self.all_conditions()),
            "mp_conditions": tuple((domain.plain_latex(c),) + codegen.lambdified_source(self.params, c, special.MPMATH_MODULES)
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
                    shown = self._at([float(np.broadcast_to(a, ok.shape)[where]) for a in ordered])
                    plain = " (an integer)" if "mathbb{Z}" in text else ""
                    raise ConditionError(f"{self.name} does not hold at {shown}: condition ${text}${plain} fails")

                for checks, arr in zip(sig.checks, ordered):
                    for text, pred in checks:
                        if not pred(arr):
                            fail(text, np.vectorize(lambda v: bool(pred(np.asarray(v))))(arr) if arr.ndim else False)
                for text, cond in self._np_conditions:
                    with np.errstate(all="ignore"):
                        ok = np.asarray(cond(*ordered), dtype=bool)
                    if not np.all(ok):
                        fail(text, ok)
            # integer parameters (summation bounds, binomial arguments) are passed as ints, up to
            # 2^53 (beyond it a Python int would turn numpy's ufuncs to object dtype; the float is
            # the value there anyway)
            args_np = [int(arr) if integer and arr.ndim == 0 and np.isfinite(arr) and arr == np.floor(arr)
                       and abs(arr) <= 2.0**53
                       else arr for integer, arr in zip(sig.integer, ordered)]
            with np.errstate(all="ignore"):
                out = self._np(*args_np)
            out = np.asarray(out, dtype=float)
            if np.isnan(out).any() and check:
                out = self._mp_where_nan(out, ordered)
            if np.isnan(out).any():
                shown = self._at([np.asarray(a).ravel()[0] for a in ordered])
                raise ConditionError(
                    f"{self.name} is undefined at {shown}: the expression has no real value there "
                    "(a logarithm or root of a negative number)")
            return out if out.ndim else float(out)

        fn.__doc__ = f"{self.name}: {self.description} (numpy, generated)"
        return fn

    def _mp_where_nan(self, out: np.ndarray, ordered: list) -> np.ndarray:
        """``out`` with each NaN, where the conditions hold, replaced by the mpmath value at 30
        digits when that is a finite real number: the float64 path's own failure (an overflow of
        intermediate terms, such as binomials of 1000 choose 500, giving inf/inf) is not a value
        outside the domain. Elements still without a real value stay NaN."""
        shape = np.broadcast(*ordered).shape
        full = np.array(np.broadcast_to(out, shape), dtype=float)
        mp_fn = self.mpmath(30, check=False)
        for where in np.argwhere(np.isnan(full)):
            at = [float(np.broadcast_to(a, shape)[tuple(where)]) for a in ordered]
            try:
                value = mp_fn(*at)
            except (ValueError, ZeroDivisionError, TypeError):
                continue
            if isinstance(value, mpmath.mpf) and mpmath.isfinite(value):
                full[tuple(where)] = float(value)
        return full

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










def _kw(sym) -> str:
    """The keyword name of a symbol: ``epsilon_0`` -> ``eps0``, ``lambda`` -> ``lam``."""
    return _KEYWORDS.get(sym.name, sym.name)


_KEYWORDS = {
    "epsilon_0": "eps0",
    "epsilon": "eps",
    "epsilon'": "eps_prime",
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


def definer(build: Callable, **defaults) -> Callable[..., Formula]:
    """The function that declares the formulas of one module: ``define(name, **labels)`` registers
    ``Formula(name, build=build, **defaults, **labels)`` (a label given overrides the default), so
    that a module names its builder, and the kind, status or left-hand side its formulas share,
    once."""
    def define(name: str, **labels) -> Formula:
        return register(Formula(name=name, build=build, **{**defaults, **labels}))

    return define


def registered() -> dict[str, Formula]:
    """The formulas registered so far (by the modules imported so far); the full list is
    :func:`dptheory.catalogue.catalogue`."""
    return dict(_REGISTRY)
