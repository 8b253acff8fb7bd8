"""The figures' data: one module per family (amplification, RDP, f-DP), each function computing
the panels of one figure. The figures are registered by name in :mod:`dptheory.plots` (one
``register`` line each, naming ``"dptheory.figures.MODULE:function"``); this package imports
nothing at import time."""
