"""Privacy amplification by shuffling: randomizers, dominating pairs, every bound, exact ground truth.

``dptheory.shuffle.epsilon(randomizer, n, delta, method="auto")`` and
``dptheory.shuffle.delta(randomizer, n, epsilon, method="auto")`` return certified
:class:`~dptheory.results.Result` intervals with their kind, status and source;
:data:`METHODS` lists every method.
"""

import importlib

__all__ = ["METHODS", "NotApplicable", "compare", "delta", "epsilon", "exact", "randomizers", "summarize"]

#: the names of __all__ that live in .methods (imported on first use, so that the Renyi commands,
#: which import dptheory.shuffle.rdp, do not pay for the amplification methods)
_FROM_METHODS = {"METHODS", "NotApplicable", "compare", "delta", "epsilon", "summarize"}


def __getattr__(name: str):
    if name in _FROM_METHODS:
        value = getattr(importlib.import_module(f"{__name__}.methods"), name)
    elif name in ("exact", "randomizers"):
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
