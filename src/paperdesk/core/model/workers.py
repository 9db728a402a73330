"""A large job's chunks worked in other processes while this one goes on.

The chunks go to worker processes, and their results come back in the order of the
chunks: the .bib import reads a large file's chunks in them, round robin, while it
matches and writes (``core/importing/bib_pool.py``); the export formats its entries in
them and here, each chunk made by whichever is free, while this process writes the
file (``core/bibtex/bibtex_export.py``). Small jobs, and machines with one core, are
worked in this process by the same code.

The processes are *spawned*, never forked: the GUI runs jobs on a thread of a
process that runs Qt, and forking a process with threads is unsafe. Each one holds
only its own end of one pipe, so when this process ends in any way (even ``kill -9``)
its next read or write fails and it exits. On cancel, on an error and at the end
they are stopped and waited for. Should a process fail to start or die, the chunks
it had not returned are worked here instead.

What a process works with is made once, by ``setup(*args)`` (a function of a module,
sent by name): it turns each chunk into its result, or None when it cannot (the
chunk is then worked here).
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import sys
import threading
import types
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from typing import Any, Self

from paperdesk.core.model.child_env import tune_children
from paperdesk.core.model.jobs import CancelFlag, check_cancel

AHEAD = 3  # chunks sent to each process before its first result comes back
_POLL = 0.05  # seconds between looks at the cancel flag while waiting for a result
_STARTING = threading.Lock()  # one process starts at a time, with the caller's program hidden

Work = Callable[[Any], Any]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def helpers() -> int:
    """How many worker processes a large job gets: none on one core, else up to two."""
    n = cores()
    return min(2, n) if n > 1 else 0


def _serve(conn: Connection) -> None:
    """A worker process: what it works with, then chunks in and results out, until told
    to stop or the other end is gone."""
    try:
        setup, args = conn.recv()
        work = setup(*args)
    except (EOFError, OSError):
        return
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            result: Any = work(chunk)
        except Exception as exc:  # raised again in the process that sent the chunk
            result = exc
        try:
            conn.send(result)
        except OSError:
            return


@contextlib.contextmanager
def _caller_hidden() -> Iterator[None]:
    """Start a worker process without the program that runs the job.

    A spawned process runs the file of the caller's ``__main__`` again (as
    ``__mp_main__``) unless the program guards itself with ``if __name__ ==
    "__main__"``. A script that imports or exports through ``Library`` without that
    guard would repeat its own work in each worker: open, write, even delete the
    library. The worker needs nothing of the caller's program, so an empty
    ``__main__`` stands in for it while the process starts; the bundle's entry point
    still turns a started bundle into a worker (``multiprocessing.freeze_support``).
    """
    with _STARTING:
        tune_children()
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = main


class Worker:
    """One worker process and a thread sending it its chunks."""

    def __init__(self, name: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True, name=name)
        with _caller_hidden():
            self.process.start()
        theirs.close()  # only the worker holds its end
        self.queue: deque[Any] = deque()
        self.ready = threading.Condition()
        self.failed = False
        self.feeder = threading.Thread(target=self._feed, daemon=True, name=f"{name}-feeder")
        self.feeder.start()

    def send(self, chunk: Any) -> None:
        """Queue a chunk (None: stop); the feeder thread sends it, so that this process
        never waits on a full pipe while the worker waits on it."""
        with self.ready:
            self.queue.append(chunk)
            self.ready.notify()

    def _feed(self) -> None:
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                chunk = self.queue.popleft()
            try:
                self.conn.send(chunk)
            except (OSError, ValueError):  # the process is gone, or closed here
                return
            if chunk is None:
                return

    def receive(self, cancel: CancelFlag | None) -> Any | None:
        """The next result, or None when the process is gone."""
        try:
            while not self.conn.poll(_POLL):
                check_cancel(cancel)
                if not self.process.is_alive() and not self.conn.poll(0):
                    return None
            result = self.conn.recv()
        except (EOFError, OSError):
            return None
        if isinstance(result, BaseException):
            raise result
        return result

    def stop(self, *, now: bool = False) -> None:
        """Tell the process to stop and wait for it (``now``: kill it at once)."""
        if not now:
            self.send(None)
            self.process.join(1.0)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.send(None)  # the feeder thread ends, whatever it was waiting for: its
        self.feeder.join(1.0)  # send fails on a pipe whose other end is gone
        self.conn.close()


class Workers:
    """Worker processes, started when made (``processes`` of them; none: the work is
    done here). Leaving the block on an error or a cancel kills them; they are always
    waited for."""

    def __init__(self, processes: int, name: str) -> None:
        self.workers: list[Worker] = []
        try:
            for _ in range(processes):
                self.workers.append(Worker(name))
        except OSError:  # no process could be started: work here
            self.close(now=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self.close(now=kind is not None)

    def close(self, *, now: bool = False) -> None:
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.stop(now=now)

    def run(self, setup: Callable[..., Work], args: tuple[Any, ...], chunks: Iterable[Any],
            cancel: CancelFlag | None = None, here: Work | None = None, *,
            helping: bool = False) -> Iterator[Any]:
        """Each chunk's result, in order: ``setup(*args)`` applied to it in a worker, or
        here (``here``: what works them here; ``setup(*args)`` when not given).
        ``helping``: this process works chunks too, whenever the result due next is not
        back yet (``_beside``); else it leaves them all to the workers (it has other work
        of its own). A worker that gives None for a chunk cannot work it: that chunk, and
        the rest it was to work, are worked here. The processes stop when the last
        result is read."""
        here = here or setup(*args)
        if not self.workers:
            for chunk in chunks:
                check_cancel(cancel)
                yield here(chunk)
            return
        for worker in self.workers:
            worker.send((setup, args))
        dealt = _beside if helping else _in_turn
        yield from dealt(iter(chunks), self.workers, here, cancel)
        self.close()


def _failed(worker: Worker) -> None:
    """A worker gone, or that cannot work a chunk: stopped at once (nor does it work on
    what it was sent); what it had is worked here, in turn."""
    if not worker.failed:
        worker.stop(now=True)
    worker.failed = True


def _in_turn(chunks: Iterator[Any], workers: list[Worker], here: Work,
             cancel: CancelFlag | None) -> Iterator[Any]:
    """The chunks dealt to the workers in turn, and their results in order."""
    rotation = itertools.cycle(workers)
    order: deque[tuple[Worker, Any]] = deque()  # whose result comes next, and of what

    def deal(chunk: Any) -> None:
        worker = next(rotation)
        order.append((worker, chunk))
        if not worker.failed:
            worker.send(chunk)

    for chunk in itertools.islice(chunks, AHEAD * len(workers)):
        deal(chunk)
    while order:
        worker, chunk = order.popleft()
        result = None if worker.failed else worker.receive(cancel)
        if result is None:
            _failed(worker)
            check_cancel(cancel)
            result = here(chunk)
        yield result
        following = next(chunks, None)
        if following is not None:
            deal(following)


HERE_AHEAD = 16  # chunks this process works ahead of the result due next, at most


def _beside(chunks: Iterator[Any], workers: list[Worker], here: Work,
            cancel: CancelFlag | None) -> Iterator[Any]:
    """The chunks dealt in order to whoever is free, and their results in order: each
    worker is kept ``AHEAD`` chunks ahead; while the result due next is a worker's that
    has not come back, this process works the next chunk itself (its result kept until
    its turn, ``HERE_AHEAD`` of them at most). So the share each does follows its speed:
    a worker that starts late or runs slow is helped, and this process, which also takes
    the results and uses them, works only what it would otherwise wait through."""
    order: deque[list[Any]] = deque()  # [worker or None (worked here), chunk, result]
    kept = 0  # results made here, waiting for their turn

    def deal(worker: Worker) -> None:
        chunk = next(chunks, None)
        if chunk is not None:
            order.append([worker, chunk, None])
            worker.send(chunk)

    for _ in range(AHEAD):
        for worker in workers:
            deal(worker)
    while True:
        if not order:  # every worker failed: the rest is worked here
            chunk = next(chunks, None)
            if chunk is None:
                return
            check_cancel(cancel)
            yield here(chunk)
            continue
        worker, chunk, result = order.popleft()
        if worker is None:
            kept -= 1
            yield result
            continue
        if not worker.failed:
            while kept < HERE_AHEAD and not worker.conn.poll(0):
                ahead = next(chunks, None)
                if ahead is None:
                    break
                check_cancel(cancel)
                order.append([None, ahead, here(ahead)])
                kept += 1
            result = worker.receive(cancel)
            if result is None:
                _failed(worker)
            else:
                deal(worker)  # busy again before this result is used
        if result is None:  # a failed worker's chunk
            check_cancel(cancel)
            result = here(chunk)
        yield result
