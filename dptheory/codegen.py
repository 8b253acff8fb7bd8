"""Code generation of the formulas' numeric versions: the numpy and mpmath functions sympy lambdifies
from each formula's expression and conditions, kept as source in ``dptheory/generated_formulas.json``
(written by :func:`dptheory.catalogue.generated_text`) so that the float paths run them without
importing sympy; :func:`compile_source` turns an entry back into a function."""

from __future__ import annotations

import functools
from typing import Any, Callable


def _sympy():
    import sympy

    return sympy


# ---------------------------------------------------------------------- generated functions
@functools.lru_cache(maxsize=1)
def generated_formulas() -> dict:
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
def builder_fingerprint(build) -> str:
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


def lambdify(params, expr, modules) -> Callable:
    return _sympy().lambdify(params, expr, modules=modules)


#: the modules a generated function's global names are looked up in, in this order
_NAME_SOURCES = ("dptheory.special", "numpy", "scipy.special", "mpmath", "math", "functools", "builtins")


def lambdified_source(params, expr, modules) -> tuple[str, tuple]:
    """(source, names) of the function sympy lambdifies: the source with its dummy arguments
    renamed deterministically, and each global name it uses with where it comes from,
    ``(name, "module:attribute")`` or ``(name, "module")`` for a module."""
    import ast
    import builtins
    import importlib
    import inspect
    import re

    fn = lambdify(params, expr, modules)
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


def compile_source(formula_name: str, source: str, names: tuple) -> Callable:
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

