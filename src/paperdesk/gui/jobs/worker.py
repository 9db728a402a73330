"""Long writes (imports) off the UI thread, with progress and Cancel; the window has
two (``Context.worker`` on the executor's ``jobs`` lane, and ``history_worker`` on its
``history`` lane for large undos).

A job is a function ``job(lib, progress, cancel)`` run on the lane's thread against
the lane's own ``Library`` connection (``gui/jobs/executor.py``: kept open from job
to job, opened again only for another library, a file replaced under it, or after a
job that failed), tidied after each (``Library.settle``); ``prepare`` opens it ahead
of the first job, as the window opens a library. The result, or a one-line error,
comes back to the UI thread through ``finished_job``, with the ``Changes`` of every
write the job committed (for the UI's library to announce); progress through
``progress``. The UI thread never waits for the worker.
"""

from __future__ import annotations

import itertools
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from paperdesk.core.api import Changes, Library, PaperDeskError
from paperdesk.gui.jobs.executor import Executor, Lane

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


class Worker(QObject):
    progress = Signal(int, float, str)   # job id, fraction 0..1, message
    finished_job = Signal(object)        # Outcome

    def __init__(self, parent=None, *, lane: Lane | None = None) -> None:
        super().__init__(parent)
        self.lane = lane or Executor().lane("jobs")  # alone: a lane of its own
        self._cancel = threading.Event()
        self._ended: dict[int, threading.Event] = {}
        self._queued = 0  # jobs sent and not finished
        self._count = threading.Lock()
        self.busy = False
        self.current = 0  # the id of the job the lane runs, or ran last (0: none yet)

    def submit(self, label: str, library_path: Path, job: Job) -> int:
        """Queue ``job`` to run against the library at ``library_path``; returns its id."""
        job_id = next(_IDS)
        with self._count:
            self._queued += 1
            self.busy = True
        self._ended[job_id] = threading.Event()
        path = Path(library_path)
        self.lane.put(lambda lane: self._run(lane, job_id, label, path, job))
        return job_id

    def ended(self, job_id: int) -> threading.Event:
        """Set once the lane is done with job ``job_id``: run, failed, or never begun
        (its library could not be opened); for a thread that must wait for its writes."""
        return self._ended.get(job_id, _DONE)

    def prepare(self, library_path: Path) -> None:
        """Open the library at ``library_path`` on the lane now (closing the one it
        had), so that the first job finds it open; a failure waits for that job."""
        self.lane.prepare(Path(library_path))

    def cancel(self) -> None:
        """Ask the running job to stop; it rolls back what it had not finished."""
        self._cancel.set()

    def stop(self) -> None:
        self._cancel.set()
        self.lane.stop()

    def _run(self, lane: Lane, job_id: int, label: str, path: Path, job: Job) -> None:
        self.current = job_id  # before its predecessor's news may have reached the UI
        self._cancel.clear()
        outcome = Outcome(job_id, label, library=path)
        try:
            self._run_job(lane, path, job, outcome)
        finally:
            self._ended.pop(job_id, _DONE).set()
            with self._count:
                self._queued -= 1
                self.busy = self._queued > 0
        self.finished_job.emit(outcome)

    def _run_job(self, lane: Lane, path: Path, job: Job, outcome: Outcome) -> None:
        """Run ``job`` into ``outcome``; after a failure the lane's connection goes."""
        try:
            lib = lane.library(path)
            lib.add_listener(outcome.changes.append)
            try:
                job_id = outcome.job_id
                outcome.result = job(lib, lambda f, m: self.progress.emit(job_id, f, m),
                                     self._cancel)
            finally:
                lib.remove_listener(outcome.changes.append)
            lib.settle()
            return
        except PaperDeskError as exc:
            outcome.error = str(exc)
        except Exception as exc:  # shown to the user as one line, details on request
            outcome.error = f"{outcome.label} failed: {type(exc).__name__}: {exc}"
            outcome.details = traceback.format_exc()
        lane.discard()  # the next job starts on a fresh connection
