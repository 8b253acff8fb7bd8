"""``dptheory verify``: every bound of the toolkit against independent oracles, and the printed
formulas of the papers next to their corrections.

* :func:`register_check` / :func:`register_erratum` (:mod:`.registry`): one line per bound or
  erratum, with its oracle and case grid;
* the toolkit's checks, one module per area (listed in :data:`.registry.CHECK_MODULES`):
  :mod:`.shuffle`, :mod:`.rdp`, :mod:`.gdp`, :mod:`.mechanisms`, :mod:`.tradeoff`, :mod:`.fdp`,
  :mod:`.pld`, :mod:`.comparison`, and the printed errata, :mod:`.errata`;
* :mod:`.oracles`: the independent mpmath oracles (exact enumeration, closed forms, quadrature),
  each named by an :class:`.registry.Oracle` (what it computes, and whether it encloses the exact
  value or gives one end of it only); :mod:`.evaluations`: the second oracles (the same quantity
  a method computes, evaluated again);
* :func:`run` returns a :class:`Report` (a table for a person, ``as_dict`` for JSON).
"""

from .registry import (CHECKS, CLOSED_FORM, ENUMERATION, ENVELOPE, ERRATA, FINITE_SUM, ONE_PAIR, QUADRATURE, ROUNDS,
                       SEARCH, TRANSCRIPTION, Check, Erratum, Oracle, load, register_check, register_erratum,
                       result_status)
from .outcomes import Report
from .runner import run

__all__ = ["CHECKS", "CLOSED_FORM", "ENUMERATION", "ENVELOPE", "ERRATA", "FINITE_SUM", "ONE_PAIR", "QUADRATURE",
           "ROUNDS", "SEARCH", "TRANSCRIPTION", "Check", "Erratum", "Oracle", "Report", "load", "register_check",
           "register_erratum", "result_status", "run"]
