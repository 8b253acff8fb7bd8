"""The one timer of the benchmarks: the fastest of a few calls (the least disturbed by the load of
a shared machine), with the value of the last call."""

from __future__ import annotations

import time


def best(fn, repeats: int, clock=time.process_time):
    """(fastest time of ``repeats`` calls of ``fn`` on ``clock``, value of the last call)."""
    times, out = [], None
    for _ in range(repeats):
        t = clock()
        out = fn()
        times.append(clock() - t)
    return min(times), out
