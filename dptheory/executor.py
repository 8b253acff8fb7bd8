"""Run independent tasks in parallel: serially, on a local process pool, or on a Dask cluster.

One entry point, :func:`run_tasks`, serves every grid of the toolkit (``dptheory sweep``,
``dptheory verify``). It calls ``fn(task)`` for each task and returns the results in task
order, whatever the order in which they finish:

* ``workers=1``: in this process, one task after the other (no pickling; the reference run);
* by default: a local pool of ``workers`` processes (:mod:`concurrent.futures`, started with the
  ``spawn`` method, so it behaves the same on Linux, macOS and Windows and is safe in a process
  that runs threads);
* ``scheduler="local"``: a Dask ``LocalCluster`` of ``workers`` single-threaded worker processes,
  started for this call and closed after it; its scratch space is a temporary directory removed
  afterwards (Dask's default, ``/tmp/dask-scratch-space``, would outlive the run);
* ``scheduler=ADDRESS`` (``"tcp://host:8786"``): an existing Dask distributed cluster, so a grid
  that outgrows one machine runs on many. Its workers must be able to import ``dptheory``.

``fn`` must be a module-level function and the tasks and results picklable (they travel to
other processes). A task that raises stops the run with :class:`TaskError` (or
:class:`~dptheory.validate.DomainError` when the task rejected its input), whose message names
the task; the tasks still queued are cancelled.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import sys
from typing import Any, Callable, Iterable, Sequence

from . import validate
from .validate import DomainError


#: how long a connection to a Dask scheduler address may take before it is reported as unreachable
CONNECT_TIMEOUT = "10s"


class TaskError(RuntimeError):
    """A task raised: the message names its index and its arguments; ``__cause__`` (and
    :attr:`error`) is the exception the task raised."""

    def __init__(self, index: int, task: Any, error: BaseException):
        self.index, self.task, self.error = index, task, error
        super().__init__(f"task {index} ({_show(task)}) failed: {type(error).__name__}: {error}")


def _show(task: Any, limit: int = 200) -> str:
    text = repr(task)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _failure(index: int, task: Any, error: BaseException) -> Exception:
    """The exception a failed task becomes: a DomainError stays one (exit status 2 on the
    command line), with the task named; anything else becomes a :class:`TaskError`."""
    if isinstance(error, DomainError):
        out = DomainError(f"task {index} ({_show(task)}): {error}")
        out.__cause__ = error
        return out
    out = TaskError(index, task, error)
    out.__cause__ = error
    return out


class _Progress:
    """``done/total`` on standard error when it is a terminal (quiet in pipes and files), or a
    callable ``progress(done, total)`` called after each task."""

    def __init__(self, progress, total: int):
        self.total, self.done = total, 0
        self.callback = progress if callable(progress) else None
        self.show = bool(progress) and self.callback is None and _isatty(sys.stderr)

    def step(self) -> None:
        self.done += 1
        if self.callback is not None:
            self.callback(self.done, self.total)
        elif self.show:
            width = 30
            filled = width * self.done // max(self.total, 1)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def default_workers() -> int:
    """Processes of the default pool: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def run_tasks(fn: Callable[[Any], Any], tasks: Iterable, *, workers: int | None = None,
              scheduler: str | None = None, progress=False,
              on_result: Callable[[int, Any], None] | None = None) -> list:
    """``[fn(task) for task in tasks]``, computed in parallel; the results in task order.

    Parameters
    ----------
    fn : callable
        A module-level function of one argument (it is pickled by reference).
    tasks : iterable
        The arguments, one per call (picklable).
    workers : int, optional
        Processes (or Dask workers for ``scheduler="local"``); default: the CPUs available.
        ``1`` without a scheduler runs the tasks serially in this process.
    scheduler : str, optional
        ``"local"`` starts a Dask ``LocalCluster``; any other string is the address of a running
        Dask scheduler to connect to. None (default): a local process pool.
    progress : bool or callable
        True: a progress bar on standard error when it is a terminal (nothing in a pipe); a
        callable is called as ``progress(done, total)`` after each task.
    on_result : callable, optional
        Called in this process as ``on_result(index, result)`` as each task finishes (in the
        order they finish), e.g. to save partial results of a long run.

    Raises
    ------
    TaskError
        A task raised; the message names the task (its index and arguments).
    DomainError
        Bad ``workers`` or ``scheduler``; or a task raised a DomainError (the task is named).
    """
    tasks = list(tasks)
    if workers is not None:
        workers = validate.integer("workers", workers, low=1)
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise DomainError(f"scheduler = {scheduler!r} is invalid: must be 'local' or a Dask scheduler address")
    meter = _Progress(progress, len(tasks))
    if not tasks:
        return []
    if scheduler is not None:
        return _run_dask(fn, tasks, workers, scheduler.strip(), meter, on_result)
    if workers == 1 or len(tasks) == 1:
        return _run_serial(fn, tasks, meter, on_result)
    return _run_pool(fn, tasks, workers or default_workers(), meter, on_result)


def _run_serial(fn, tasks: Sequence, meter: _Progress, on_result) -> list:
    out = []
    for i, task in enumerate(tasks):
        try:
            value = fn(task)
        except Exception as exc:
            raise _failure(i, task, exc) from exc
        out.append(value)
        if on_result is not None:
            on_result(i, value)
        meter.step()
    return out


def _run_pool(fn, tasks: Sequence, workers: int, meter: _Progress, on_result) -> list:
    results: list = [None] * len(tasks)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
        index = {pool.submit(fn, task): i for i, task in enumerate(tasks)}
        try:
            for future in concurrent.futures.as_completed(index):
                i = index[future]
                error = future.exception()
                if error is not None:
                    raise _failure(i, tasks[i], error) from error
                results[i] = future.result()
                if on_result is not None:
                    on_result(i, results[i])
                meter.step()
        except BaseException:
            for future in index:
                future.cancel()
            raise
    return results


def _dask_client(scheduler: str, workers: int | None, scratch: str | None = None):
    """(client, cluster or None): a client of a new LocalCluster for ``"local"`` (its workers'
    scratch space in ``scratch``), else of the scheduler at the address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise DomainError("scheduler needs Dask distributed: pip install 'dptheory[dask]'") from exc
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                               dashboard_address=":0", local_directory=scratch)
        return Client(cluster), cluster
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise DomainError(f"scheduler = {scheduler!r}: cannot connect to a Dask scheduler there ({exc})") from None


def _run_dask(fn, tasks: Sequence, workers: int | None, scheduler: str, meter: _Progress, on_result) -> list:
    import contextlib
    import shutil
    import tempfile

    import dask

    scratch = tempfile.mkdtemp(prefix="dptheory-dask-") if scheduler == "local" else None
    # Dask's "temporary-directory" too, for anything of the scheduler's that would use it
    config = dask.config.set({"temporary-directory": scratch}) if scratch else contextlib.nullcontext()
    try:
        with config:
            return _run_dask_client(fn, tasks, workers, scheduler, meter, on_result, scratch)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _run_dask_client(fn, tasks: Sequence, workers: int | None, scheduler: str, meter: _Progress, on_result,
                     scratch: str | None) -> list:
    from distributed import as_completed

    client, cluster = _dask_client(scheduler, workers, scratch)
    results: list = [None] * len(tasks)
    try:
        futures = client.map(fn, tasks, pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                i = index[future.key]
                if future.status == "error":
                    error = future.exception()
                    raise _failure(i, tasks[i], error) from error
                results[i] = future.result()
                if on_result is not None:
                    on_result(i, results[i])
                meter.step()
        finally:
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return results
