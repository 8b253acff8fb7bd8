"""dptheory.executor.run_tasks: the same results, in task order, serially, on a process pool and
on Dask; a failing task is named; bad arguments are DomainErrors."""

from __future__ import annotations

import functools
import math

import pytest

from dptheory import executor, validate
from dptheory.executor import TaskError, run_tasks
from dptheory.validate import DomainError

TASKS = [9, 1, 4, 16, 25, 36, 49, 64]
EXPECTED = [math.sqrt(t) for t in TASKS]


@pytest.fixture(scope="module")
def dask_address():
    """An in-process Dask cluster (threads; starts in milliseconds), reached by its address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_serial_in_order_and_callbacks():
    seen, steps = [], []
    out = run_tasks(math.sqrt, TASKS, workers=1, on_result=lambda i, v: seen.append((i, v)),
                    progress=lambda done, total: steps.append((done, total)))
    assert out == EXPECTED
    assert seen == list(enumerate(EXPECTED))
    assert steps == [(k, len(TASKS)) for k in range(1, len(TASKS) + 1)]


def test_process_pool_in_task_order():
    seen = {}
    out = run_tasks(math.sqrt, TASKS, workers=2, on_result=seen.__setitem__)
    assert out == EXPECTED
    assert seen == dict(enumerate(EXPECTED))


def test_dask_address_in_task_order(dask_address):
    seen = {}
    assert run_tasks(math.sqrt, TASKS, scheduler=dask_address, on_result=seen.__setitem__) == EXPECTED
    assert seen == dict(enumerate(EXPECTED))


def test_dask_local_cluster_of_processes():
    pytest.importorskip("distributed")
    assert run_tasks(math.sqrt, TASKS[:3], scheduler="local", workers=1) == EXPECTED[:3]


@pytest.mark.parametrize("mode", ["serial", "pool", "dask"])
def test_failure_names_the_task(mode, request):
    kwargs = {"serial": {"workers": 1}, "pool": {"workers": 2},
              "dask": {"scheduler": request.getfixturevalue("dask_address") if mode == "dask" else None}}[mode]
    with pytest.raises(TaskError, match=r"task 2 \(0\) failed: ValueError: math domain error") as info:
        run_tasks(math.log, [1, 2, 0, 3], **kwargs)
    assert info.value.index == 2 and info.value.task == 0
    assert isinstance(info.value.__cause__, ValueError)


def test_domain_error_in_a_task_stays_a_domain_error():
    check = functools.partial(validate.delta, "delta")
    with pytest.raises(DomainError, match=r"task 1 \(2\.0\): delta = 2\.0 is invalid"):
        run_tasks(check, [0.5, 2.0], workers=1)
    with pytest.raises(DomainError, match=r"task 1 \(2\.0\): delta = 2\.0 is invalid"):
        run_tasks(check, [0.5, 2.0], workers=2)


def test_bad_arguments():
    with pytest.raises(DomainError, match="workers = 0"):
        run_tasks(math.sqrt, [1], workers=0)
    with pytest.raises(DomainError, match="workers = 1.5"):
        run_tasks(math.sqrt, [1], workers=1.5)
    with pytest.raises(DomainError, match="scheduler"):
        run_tasks(math.sqrt, [1], scheduler="")
    assert run_tasks(math.sqrt, [], workers=3) == []


def test_unreachable_scheduler_is_a_domain_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(executor, "CONNECT_TIMEOUT", "0.5s")
    with pytest.raises(DomainError, match="cannot connect"):
        executor._dask_client("tcp://127.0.0.1:9", None)


def test_progress_quiet_in_a_pipe(capsys):
    run_tasks(math.sqrt, TASKS, workers=1, progress=True)
    assert capsys.readouterr().err == ""
