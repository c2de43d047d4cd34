"""The one executor abstraction: run independent tasks serially, in local processes, or on Dask.

Every distributed path of the project (``book``'s chapters, ``encode``'s shards) goes through
:func:`make_executor` and :meth:`Executor.imap`, so the serial and the distributed results are
the same by construction: a task is a module-level function of one picklable argument, the
executor only decides *where* it runs, and results always come back **in submission order**
(never in completion order), so whatever the caller writes does not depend on scheduling.

Kinds (``Executor.kind``):

* ``serial`` — in this process, one task after the other (the default; no extra needed);
* ``process`` — a local :class:`concurrent.futures.ProcessPoolExecutor` of N processes
  (standard library; for library use and benchmarks);
* ``dask`` — ``distributed.LocalCluster(n_workers=N, threads_per_worker=1)`` started and
  closed here (``--workers N``), or ``distributed.Client(address)`` of the user's own cluster
  (``--scheduler tcp://host:port``; its workers must see the same paths: a shared filesystem).

Dask is the optional extra ``[distributed]`` (``pip install 'chapter-audit[distributed]'``):
imported only when a ``dask`` executor is asked for; without it that request is one
:class:`InputError` naming the extra, and every other path works as before.

**Task hashes.** :func:`task_record` gives the ``{"task", "input_sha256", "output_sha256"}``
entry each caller puts into its run's manifest: the sha256 of the canonical JSON of the task's
input and of its output (:func:`engine.runs.hashing.sha256_json`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.runs.errors import InputError
from engine.runs.hashing import sha256_json

EXTRA_HINT = "pip install 'chapter-audit[distributed]'"
MAX_WORKERS = 1024


def check_workers(workers: int | None, scheduler: str | None) -> None:
    """InputError for ``--workers`` < 1 (or absurd), or both ``--workers`` and ``--scheduler``."""
    if workers is not None and scheduler is not None:
        raise InputError("give --workers N or --scheduler ADDRESS, not both", field="--workers")
    if workers is not None and not (1 <= workers <= MAX_WORKERS):
        raise InputError(f"must be an integer from 1 to {MAX_WORKERS}, got {workers}", field="--workers")
    if scheduler is not None and (not scheduler.strip() or "\x00" in scheduler):
        raise InputError("must be a scheduler address such as tcp://host:8786", field="--scheduler")


class Executor:
    """Runs ``fn(item)`` for each item; :meth:`imap` yields the results in submission order."""

    kind = "serial"

    def __init__(self) -> None:
        self.workers = 1

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any], window: int | None = None) -> Iterator[Any]:
        for item in items:
            yield fn(item)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        return list(self.imap(fn, items))

    def describe(self) -> dict[str, Any]:
        """JSON-able description for manifests (never part of a run id: results do not depend on it)."""
        return {"kind": self.kind, "workers": self.workers}

    def close(self) -> None:
        pass

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _WindowedExecutor(Executor):
    """Shared in-order streaming over futures: at most ``window`` tasks in flight."""

    def _submit(self, fn: Callable[[Any], Any], item: Any) -> Any:
        raise NotImplementedError

    def _result(self, future: Any) -> Any:
        return future.result()

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any], window: int | None = None) -> Iterator[Any]:
        limit = max(1, window or 2 * self.workers)
        pending: deque[Any] = deque()
        iterator = iter(items)
        try:
            for item in iterator:
                pending.append(self._submit(fn, item))
                if len(pending) >= limit:
                    yield self._result(pending.popleft())
            while pending:
                yield self._result(pending.popleft())
        finally:
            for future in pending:
                future.cancel()


class ProcessExecutor(_WindowedExecutor):
    """A local process pool (standard library)."""

    kind = "process"

    def __init__(self, workers: int) -> None:
        super().__init__()
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        # spawn, not fork: a forked onnxruntime or numba runtime is not safe to use
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))

    def _submit(self, fn: Callable[[Any], Any], item: Any) -> Any:
        return self._pool.submit(fn, item)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def import_distributed() -> Any:
    """The ``distributed`` module, or one InputError naming the extra."""
    try:
        import distributed  # noqa: F401 - the optional extra
    except ImportError:
        raise InputError(f"--workers/--scheduler need the optional extra [distributed] (dask and distributed): "
                         f"{EXTRA_HINT}", field="--workers") from None
    return distributed


class DaskExecutor(_WindowedExecutor):
    """Dask: a ``LocalCluster(n_workers=N, threads_per_worker=1)`` of our own, or the user's scheduler."""

    kind = "dask"

    def __init__(self, workers: int | None = None, scheduler: str | None = None,
                 connect_timeout: float = 10.0) -> None:
        super().__init__()
        distributed = import_distributed()
        self._cluster = None
        self.scheduler = scheduler
        if scheduler is not None:
            try:
                self._client = distributed.Client(scheduler, timeout=f"{connect_timeout}s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise InputError(f"cannot connect to the Dask scheduler {scheduler}: "
                                 f"{' '.join(str(exc).split())[:200]}", field="--scheduler") from None
            self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        else:
            self.workers = int(workers or 1)
            self._cluster = distributed.LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                                     processes=True, dashboard_address=None,
                                                     silence_logs=50)
            self._client = distributed.Client(self._cluster)

    def _submit(self, fn: Callable[[Any], Any], item: Any) -> Any:
        return self._client.submit(fn, item, pure=False)

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["cluster"] = "scheduler" if self.scheduler is not None else "LocalCluster, 1 thread per worker"
        return out

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(workers: int | None = None, scheduler: str | None = None, *,
                  kind: str | None = None) -> Executor:
    """The executor the command line asks for: serial without ``workers``/``scheduler``; Dask with
    either (``kind="process"`` picks the standard-library pool instead, for ``workers``)."""
    check_workers(workers, scheduler)
    if workers is None and scheduler is None:
        return Executor()
    if kind == "process":
        if scheduler is not None:
            raise InputError("a process pool runs on this machine only; use a Dask executor for --scheduler",
                             field="--scheduler")
        return ProcessExecutor(int(workers or 1))
    return DaskExecutor(workers, scheduler)


def task_record(name: str, task_input: Any, task_output: Any) -> dict[str, str]:
    """One task's entry in a run manifest: sha256 of its input and its output (canonical JSON)."""
    return {"task": name, "input_sha256": sha256_json(task_input), "output_sha256": sha256_json(task_output)}
