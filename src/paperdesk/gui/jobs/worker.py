"""A background thread for long writes (imports), with progress and Cancel; the window
has two (``Context.worker``, and ``history_worker`` for large undos).

A job is a function ``job(lib, progress, cancel)`` run on the worker thread
against its own ``Library`` connection (SQLite connections stay in the thread
that opened them). The worker keeps that library open from job to job, tidied
after each (``Library.settle``), and opens it again only for another library, a
file replaced under it, or after a job that failed; ``prepare`` opens it ahead
of the first job, as the window opens a library. The result, or a one-line
error, comes back to the UI thread through ``finished``, with the ``Changes``
of every write the job committed (for the UI's library to announce); progress
through ``progress``.
The UI thread never waits for the worker.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QThread, Signal

from paperdesk.core.api import Changes, Library, PaperDeskError

Job = Callable[[Library, Callable[[float, str], None], threading.Event], Any]
_IDS = itertools.count(1)  # job ids, one series for every worker: a job's id is its own
_DONE = threading.Event()
_DONE.set()


@dataclass
class Outcome:
    """What a job produced: ``result``, or ``error`` as one line for people."""

    job_id: int
    label: str
    result: Any = None
    error: str | None = None
    details: str | None = field(default=None, repr=False)
    library: Path | None = None
    changes: list[Changes] = field(default_factory=list)  # committed, even if it then failed


class Worker(QThread):
    progress = Signal(int, float, str)   # job id, fraction 0..1, message
    finished_job = Signal(object)        # Outcome

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._jobs: queue.Queue[tuple[int, str, Path, Job | None] | None] = queue.Queue()
        self._cancel = threading.Event()
        self._ended: dict[int, threading.Event] = {}
        self.busy = False

    def submit(self, label: str, library_path: Path, job: Job) -> int:
        """Queue ``job`` to run against the library at ``library_path``; returns its id."""
        if not self.isRunning():
            self.start()
        job_id = next(_IDS)
        self.busy = True
        self._ended[job_id] = threading.Event()
        self._jobs.put((job_id, label, Path(library_path), job))
        return job_id

    def ended(self, job_id: int) -> threading.Event:
        """Set once this thread is done with job ``job_id``: run, failed, or never begun
        (its library could not be opened); for a thread that must wait for its writes."""
        return self._ended.get(job_id, _DONE)

    def prepare(self, library_path: Path) -> None:
        """Open the library at ``library_path`` on the worker now (closing the one it
        had), so that the first job finds it open; a failure waits for that job."""
        if not self.isRunning():
            self.start()
        self._jobs.put((0, "", Path(library_path), None))

    def cancel(self) -> None:
        """Ask the running job to stop; it rolls back what it had not finished."""
        self._cancel.set()

    def stop(self) -> None:
        self._cancel.set()
        if self.isRunning():
            self._jobs.put(None)
            self.wait()

    def run(self) -> None:
        lib: Library | None = None
        try:
            while (item := self._jobs.get()) is not None:
                job_id, label, path, job = item
                lib = _library_for(lib, path)
                if job is None:  # prepare: the library opened ahead of the first job
                    # Whatever fails here fails again in the first job, which reports it.
                    with contextlib.suppress(Exception):
                        lib = lib or Library.open(path, create=False)
                    continue
                self._cancel.clear()
                outcome = Outcome(job_id, label, library=path)
                try:
                    lib = self._run_job(lib, path, job, outcome)
                finally:
                    self._ended.pop(job_id, _DONE).set()
                self.busy = not self._jobs.empty()
                self.finished_job.emit(outcome)
        finally:
            if lib is not None:
                lib.close()

    def _run_job(self, lib: Library | None, path: Path, job: Job,
                 outcome: Outcome) -> Library | None:
        """Run ``job`` into ``outcome``; the library it leaves open for the next."""
        try:
            lib = lib or Library.open(path, create=False)
            lib.add_listener(outcome.changes.append)
            try:
                job_id = outcome.job_id
                outcome.result = job(lib, lambda f, m: self.progress.emit(job_id, f, m),
                                     self._cancel)
            finally:
                lib.remove_listener(outcome.changes.append)
            lib.settle()
            return lib
        except PaperDeskError as exc:
            outcome.error = str(exc)
        except Exception as exc:  # shown to the user as one line, details on request
            outcome.error = f"{outcome.label} failed: {type(exc).__name__}: {exc}"
            outcome.details = traceback.format_exc()
        if lib is not None:  # after a failure the next job starts on a fresh connection
            with contextlib.suppress(Exception):
                lib.close()
        return None


def _library_for(lib: Library | None, path: Path) -> Library | None:
    """``lib`` if it is still the library at ``path``; otherwise None, ``lib`` closed."""
    if lib is None or (lib.path == path and not lib.moved()):
        return lib
    with contextlib.suppress(Exception):
        lib.close()
    return None
