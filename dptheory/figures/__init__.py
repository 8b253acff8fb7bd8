"""The figures' data: one module per family (amplification by shuffling, RDP of shuffling, f-DP,
comparison of mechanisms after Kaissis et al., mixtures after Wang, Su et al.), each function
computing the panels of one figure and the notes of its caption; :mod:`.labels` holds the axis
labels in the papers' notation. The figures are registered by name in :mod:`dptheory.plots` (one
``register`` line each, naming ``"dptheory.figures.MODULE:function"``); this package imports
nothing at import time."""
