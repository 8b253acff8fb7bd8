"""The catalogue of every closed form of the toolkit.

The modules that define formulas register them (:func:`dptheory.formula.register`) when they are
imported; this module sits above all of them and imports them, so that the whole catalogue can be
listed, searched and printed (``dptheory formula``). Importing it is cheap: the formulas' sympy
expressions are built only when one is displayed or evaluated.
"""

from __future__ import annotations

import importlib

from .formula import Formula, registered
from .validate import DomainError

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
    "dptheory.shuffle.fdp",
    "dptheory.comparison.closed_forms",
)


def catalogue() -> dict[str, Formula]:
    """Every formula of the toolkit, by name (sorted)."""
    for module in FORMULA_MODULES:
        importlib.import_module(module)
    return dict(sorted(registered().items()))


def get(name: str) -> Formula:
    """The formula called ``name``; :class:`DomainError` listing the known names otherwise."""
    formulas = catalogue()
    if name not in formulas:
        raise DomainError(f"formula {name!r} is unknown; known formulas: {', '.join(formulas)}")
    return formulas[name]


def names(prefix: str = "") -> list[str]:
    """The names of the formulas that start with ``prefix``."""
    return [n for n in catalogue() if n.startswith(prefix)]
