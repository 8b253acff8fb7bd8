"""Presentation: how the toolkit's numbers, results and formulas are shown to a person.

Every output of dptheory (the command line, Markdown, LaTeX tables and documents, reports,
Jupyter displays) goes through this package, and the package imports nothing of the library
above it (only :mod:`dptheory.validate` for its errors): results, curves and formulas are read
through their public attributes and ``as_dict``, so that the result model and the formulas can use
it without an import cycle.

* :mod:`.numbers`: numbers for a person, rounded outwards (an upper end up, a lower end down), a
  positive quantity below the float range shown from its logarithm, never as 0; a column of
  numbers in one notation with a fixed number of significant figures;
* :mod:`.cells`: what a table cell holds (:class:`~.cells.Number`, :class:`~.cells.Missing`) and
  text with inline ``$math$``;
* :mod:`.rows`: table rows of results and curves, and the answer lines (tightest upper bound,
  best lower bound, gap);
* :mod:`.text`: plain-text tables and notes for a terminal; :mod:`.json_output`: the one JSON form;
* :mod:`.markdown`: Markdown tables;
* :mod:`.latex`: LaTeX text, numbers, booktabs tables, displayed formulas, documents, citations;
* :mod:`.notation`: the printer of the papers' notation (a sympy ``LatexPrinter``).
"""
