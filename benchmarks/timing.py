"""The one timer of the benchmarks: the fastest of a few calls (the least disturbed by the load of
a shared machine), with the value of the last call; and the environment of a timed command."""

from __future__ import annotations

import os
import pathlib
import tempfile
import time
import zlib


def best(fn, repeats: int, clock=time.process_time):
    """(fastest time of ``repeats`` calls of ``fn`` on ``clock``, value of the last call)."""
    times, out = [], None
    for _ in range(repeats):
        t = clock()
        out = fn()
        times.append(clock() - t)
    return min(times), out


def command_env(root) -> dict:
    """The environment of a fresh interpreter running the code under ``root`` as an installed
    copy runs: with its bytecode cached (PYTHONDONTWRITEBYTECODE, set on some machines, would
    compile every module at every start). The caches go to a directory of their own per tree;
    the first of a few repeats fills it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    tag = zlib.crc32(str(root).encode())
    env["PYTHONPYCACHEPREFIX"] = str(pathlib.Path(tempfile.gettempdir()) / f"dptheory-bench-pycache-{tag}")
    env["PYTHONPATH"] = str(root)
    return env
