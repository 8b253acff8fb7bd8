"""Privacy amplification by shuffling: randomizers, dominating pairs, every bound, exact ground truth.

``dptheory.shuffle.epsilon(randomizer, n, delta, method="auto")`` and
``dptheory.shuffle.delta(randomizer, n, epsilon, method="auto")`` return certified
:class:`~dptheory.results.Result` intervals with their kind, status and source;
:data:`METHODS` lists every method.
"""

from . import exact, randomizers
from .methods import METHODS, NotApplicable, compare, delta, epsilon, summarize

__all__ = ["METHODS", "NotApplicable", "compare", "delta", "epsilon", "exact", "randomizers", "summarize"]
