"""``dptheory verify``: every bound of the toolkit against independent oracles, and the printed
formulas of the papers next to their corrections.

* :func:`register_check` / :func:`register_erratum` (:mod:`.registry`): one line per bound or
  erratum, with its oracle and case grid;
* the toolkit's checks, one module per area: :mod:`.shuffle`, :mod:`.rdp`, :mod:`.gdp`,
  :mod:`.mechanisms`, :mod:`.tradeoff`, and :mod:`.errata`; the checks of the parts landing in
  parallel (:mod:`.fdp`, :mod:`.pld`, :mod:`.comparison`) are written against their contracts and
  join when listed in :data:`.registry.CHECK_MODULES`;
* :mod:`.oracles`: the independent mpmath oracles (exact enumeration, closed forms, quadrature);
* :func:`run` returns a :class:`Report` (a table for a person, ``as_dict`` for JSON).
"""

from .registry import CHECKS, ERRATA, Check, Erratum, load, register_check, register_erratum
from .report import Report
from .runner import run

__all__ = ["CHECKS", "ERRATA", "Check", "Erratum", "Report", "load", "register_check", "register_erratum", "run"]
