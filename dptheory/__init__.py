"""dptheory: a symbolic-numeric toolkit for the theory of differential privacy.

The names a user needs are importable from the package (``dptheory.__all__``); each is imported
on first use, so that ``import dptheory`` stays cheap (no numpy, scipy or sympy until needed).

Results
    :class:`Result` (a certified interval with its kind, status, method and source),
    :class:`Curve`, :class:`Inapplicable`, :class:`Kind`, :class:`Status`; bad input raises
    :class:`DomainError` (:class:`NotApplicable` when a method does not apply there).
Gaussian DP
    :func:`gdp_delta`, :func:`gdp_log_delta`, :func:`gdp_epsilon`.
Mechanisms
    :class:`GaussianMechanism`, :class:`LaplaceMechanism`, :class:`RandomizedResponse`.
Closed forms
    :class:`Formula`; :mod:`catalogue` lists every formula with its kind, status and source.
f-DP, composition and comparison
    :class:`PLD` (privacy loss distributions, pessimistic: certified upper bounds under
    composition), :class:`SubsampledGaussian` (DP-SGD), :func:`delta_divergence`,
    :func:`dominance`, :func:`parse_mechanism`.
Modules
    :mod:`shuffle` (amplification by shuffling: ``shuffle.epsilon``, ``shuffle.delta``,
    ``shuffle.compare``, ``shuffle.randomizers``, ``shuffle.fdp``, ``shuffle.rounds``), :mod:`rdp`,
    :mod:`profile`, :mod:`tradeoff`, :mod:`divergences`, :mod:`mechanisms`, :mod:`composition`,
    :mod:`mixtures` (f-DP of mixtures), :mod:`comparison` (Delta-divergence, Blackwell dominance),
    :mod:`verify` (every bound against its oracles).
"""

from __future__ import annotations

import importlib

#: public name -> (module, attribute); attribute None for the module itself
_API = {
    "Result": ("dptheory.results", "Result"),
    "Curve": ("dptheory.results", "Curve"),
    "Inapplicable": ("dptheory.results", "Inapplicable"),
    "Kind": ("dptheory.results", "Kind"),
    "Status": ("dptheory.results", "Status"),
    "NotApplicable": ("dptheory.results", "NotApplicable"),
    "DomainError": ("dptheory.validate", "DomainError"),
    "gdp_delta": ("dptheory.profile", "gdp_delta"),
    "gdp_log_delta": ("dptheory.profile", "gdp_log_delta"),
    "gdp_epsilon": ("dptheory.profile", "gdp_epsilon"),
    "GaussianMechanism": ("dptheory.mechanisms", "GaussianMechanism"),
    "LaplaceMechanism": ("dptheory.mechanisms", "LaplaceMechanism"),
    "RandomizedResponse": ("dptheory.mechanisms", "RandomizedResponse"),
    "Formula": ("dptheory.formula", "Formula"),
    "catalogue": ("dptheory.catalogue", None),
    "shuffle": ("dptheory.shuffle", None),
    "rdp": ("dptheory.rdp", None),
    "profile": ("dptheory.profile", None),
    "tradeoff": ("dptheory.tradeoff", None),
    "divergences": ("dptheory.divergences", None),
    "mechanisms": ("dptheory.mechanisms", None),
    "composition": ("dptheory.composition", None),
    "PLD": ("dptheory.pld", "PLD"),
    "SubsampledGaussian": ("dptheory.subsampled", "SubsampledGaussian"),
    "delta_divergence": ("dptheory.comparison", "delta_divergence"),
    "dominance": ("dptheory.comparison", "dominance"),
    "parse_mechanism": ("dptheory.comparison", "parse_mechanism"),
    "mixtures": ("dptheory.mixtures", None),
    "comparison": ("dptheory.comparison", None),
    "verify": ("dptheory.verify", None),
}

__all__ = list(_API)


def __getattr__(name: str):
    if name == "__version__":  # the one source: the installed package's metadata
        from importlib.metadata import version

        globals()["__version__"] = value = version("dptheory")
        return value
    if name not in _API:
        raise AttributeError(f"module 'dptheory' has no attribute {name!r}")
    module, attribute = _API[name]
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"__version__"})
