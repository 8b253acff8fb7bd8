"""Modules imported on first use.

``from dptheory.lazy_import import mpmath`` (``from .lazy_import import mpmath`` inside the package)
stands for ``import mpmath``: the name is bound to a stand-in (:func:`lazy_module`) whose first
attribute read imports the real module, so that a command whose computations run in float64 only
(the default ``dptheory shuffle``) does not pay the import of mpmath (11-13 ms with
``python -X importtime``) unless one of them reaches an mpmath path. Every use reads as before:
``mpmath.mpf(x)``, ``mpmath.mp.dps = 60``, ``with mpmath.workdps(60):``,
``isinstance(x, mpmath.mpf)``. A module-level statement that reads an attribute (a constant, a
default argument, an annotation evaluated at import) imports the module there, so such uses stay
inside functions.
"""

from __future__ import annotations

import importlib
import types

#: one stand-in per module name, shared by every module that asks for it
_STAND_INS: dict[str, LazyModule] = {}


class LazyModule(types.ModuleType):
    """A stand-in for the module named ``name``: the first attribute read imports it (with
    :func:`importlib.import_module`, which leaves the real module in ``sys.modules``) and each
    attribute read is copied here, so that later reads are plain lookups, as fast as on the module
    itself. Attributes the module rebinds after they were first read are not followed (mpmath binds
    its functions and its context ``mp`` once, at import; ``mp.dps`` is an attribute of ``mp``)."""

    def __getattr__(self, attribute: str):
        value = getattr(importlib.import_module(self.__name__), attribute)
        setattr(self, attribute, value)
        return value

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(self.__name__))

    def __repr__(self) -> str:
        return f"<lazy module {self.__name__!r}>"


def lazy_module(name: str) -> LazyModule:
    """The stand-in for the module ``name`` (e.g. ``"mpmath"``): it imports the module on its
    first attribute read; the same stand-in for every caller."""
    if name not in _STAND_INS:
        _STAND_INS[name] = LazyModule(name)
    return _STAND_INS[name]


#: ``from dptheory.lazy_import import mpmath`` stands for ``import mpmath``
mpmath = lazy_module("mpmath")
