"""The one operation runner: every write and every job of the window goes through it.

``edit(fn, *args)`` runs a core edit on the UI thread (a few milliseconds) and
puts its ``Undo`` on the undo stack, whose steps ``history`` (``gui/undo.py``) writes
back. ``run(label, job, done)`` sends a job to the background worker (where it opens
its own connection), shows its progress in the status bar's panel with Cancel, and
calls ``done`` with the result or ``failed`` with the one-line error, on the UI
thread; with ``undo=True`` the job's ``Changes`` go onto the undo stack first. Small
jobs may run inline (``inline=True``) when nothing needs a thread. The panel shows the
job that runs (the first one still pending), and its Cancel stops that one only.

Whatever writes (an edit, a job, an undo, a write by anyone on the library),
the library's change feed tells the runner, which emits ``changed(changes,
initiator)`` once per committed write: ``initiator`` is the object that asked
for the operation (``None`` when nobody said), so a view can skip what it did
itself. A job's writes are committed on the worker's connection; they are
announced on the UI thread before the job's ``done`` is called.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from paperdesk.core.api import Cancelled, Changes, PaperDeskError, no_progress
from paperdesk.gui.jobs.worker import Job, Outcome, Worker
from paperdesk.gui.undo import EditCommand, History

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

LARGE = 2000  # papers (rows, for an undo) from which a write runs on a worker, not inline


@dataclass
class _Pending:
    label: str
    done: Callable[[Any], None]
    failed: Callable[[str], None]
    loud: bool
    undo: bool
    initiator: object | None
    text: str
    cancellable: bool
    worker: Worker
    cancelled: bool = False  # asked to stop before it began


class Operations(QObject):
    """Runs the window's write operations and jobs; emits ``changed`` for each write."""

    changed = Signal(object, object)  # Changes, initiator (or None)
    recording_changed = Signal()  # a job whose Changes go on the undo stack began or ended

    def __init__(self, context: Context) -> None:
        super().__init__(context)
        self.context = context
        self._pending: dict[int, _Pending] = {}  # by job id, in the order they were sent
        self._shown: int | None = None  # the job the progress panel shows
        self._initiator: object | None = None
        self.closed = False  # once the window closes (and stops its worker), no new jobs
        self.history = History(context, self)
        for worker in (context.worker, context.history_worker):
            worker.progress.connect(self._progress)
            worker.finished_job.connect(self._finished)

    # -- the change feed -------------------------------------------------------------

    def hear(self, changes: Changes) -> None:
        """The library's listener: one ``changed`` per committed write, undo or redo."""
        self.changed.emit(changes, self._initiator)

    def _as(self, initiator: object | None, call: Callable[[], Any]) -> Any:
        outer, self._initiator = self._initiator, initiator
        try:
            return call()
        finally:
            self._initiator = outer

    # -- writes on the UI thread -------------------------------------------------------

    def edit(self, fn: Callable[..., Changes], *args: Any,
             initiator: object | None = None) -> Changes | None:
        """Run one core edit and put it on the undo stack; None (after saying why) when
        the core refused it. An undo or redo still being written lands first."""
        self.history.wait()
        try:
            changes = self._as(initiator, lambda: fn(*args))
        except PaperDeskError as exc:
            self.context.notify(str(exc))
            return None
        self.record(changes)
        return changes

    def record(self, changes: Changes) -> None:
        """A write already made: its undo onto the undo stack."""
        if changes.undo is not None:
            self.context.undo_stack.push(EditCommand(changes.undo, self.history.restore))

    @property
    def large(self) -> int:
        """Papers (rows, for an undo) from which a write runs on a worker: ``LARGE``."""
        return LARGE

    @property
    def recording(self) -> bool:
        """A job whose ``Changes`` go on the undo stack when it ends is pending."""
        return any(p.undo for p in self._pending.values())

    # -- jobs ------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def run(self, label: str, job: Job, done: Callable[[Any], None] | None = None,
            failed: Callable[[str], None] | None = None, *, inline: bool = False,
            quiet: bool = False, undo: bool = False, text: str | None = None,
            initiator: object | None = None, cancellable: bool = True,
            worker: Worker | None = None) -> int | None:
        """Run ``job(lib, progress, cancel)``; returns the worker's job id (None inline).

        ``quiet`` jobs (scans in the background) show no progress panel; ``text`` is
        the panel's first line (``label…`` by default); ``undo`` puts the ``Changes``
        the job returns on the undo stack before ``done`` sees them; a job that is not
        ``cancellable`` (one transaction that does not look at the flag) shows no Cancel;
        ``worker``: the one to run it (the window's by default).
        """
        worker = worker or self.context.worker
        pending = _Pending(label, done or (lambda _r: None), failed or self.context.notify,
                           not quiet, undo, initiator, text or f"{label}…", cancellable, worker)
        if inline:
            self.history.wait()
            try:
                result = self._as(initiator, lambda: job(
                    self.context.lib, no_progress, threading.Event()))
            except PaperDeskError as exc:
                pending.failed(str(exc))
                return None
            self._succeeded(pending, result)
            return None
        if self.closed:
            return None

        def guarded(lib: Any, progress: Any, cancel: Any) -> Any:
            if pending.cancelled:  # Cancel pressed while it waited for the worker
                raise Cancelled("cancelled; nothing was changed")
            return job(lib, progress, cancel)

        job_id = worker.submit(label, self.context.lib.path, guarded)
        self._pending[job_id] = pending
        self._show()
        if undo:
            self.recording_changed.emit()
        return job_id

    def _running(self) -> list[int]:
        """The job each worker runs (or is about to): the one its lane has begun, when
        the news of the one before has not come yet; else its first one still pending."""
        firsts: dict[int, int] = {}
        for job_id, pending in self._pending.items():
            if id(pending.worker) not in firsts:
                current = pending.worker.current
                firsts[id(pending.worker)] = current if current in self._pending else job_id
        return list(firsts.values())

    def _show(self) -> None:
        """The panel shows a loud job that runs (a job waits for those sent to its
        worker before it), one that can be cancelled first, with Cancel when it can
        stop part way; a loud job still waiting when none runs."""
        loud = [i for i in self._running() if self._pending[i].loud]
        loud.sort(key=lambda i: not self._pending[i].cancellable)
        first = loud[0] if loud else next(
            (i for i, p in self._pending.items() if p.loud), None)
        if first == self._shown:
            return
        self._shown = first
        if first is None:
            self.context.progress.hide()
        else:
            self.context.progress.start(self._pending[first].text,
                                        self._pending[first].cancellable)

    def cancel(self) -> None:
        """Stop the job the panel shows; it rolls back what it had not finished. A job
        still waiting never begins; a running one is asked through its worker's flag."""
        pending = self._pending.get(self._shown) if self._shown is not None else None
        if pending is None or not pending.cancellable:
            return
        self.context.progress.cancelling()
        pending.cancelled = True
        if self._shown in self._running():
            pending.worker.cancel()

    def close(self) -> None:
        """The window is closing: no new jobs; every pending one that can stop is asked
        to (an undo asked is written before the window goes)."""
        self.closed = True
        for pending in self._pending.values():
            pending.cancelled = pending.cancelled or pending.cancellable
        for job_id in self._running():
            if self._pending[job_id].cancellable:
                self._pending[job_id].worker.cancel()

    def _progress(self, job_id: int, fraction: float, message: str) -> None:
        if job_id == self._shown:
            self.context.progress.step(fraction, message)

    def _finished(self, outcome: Outcome) -> None:
        pending = self._pending.pop(outcome.job_id, None)
        lib = self.context.lib
        if outcome.library == lib.path:  # the job's writes reach this library's feed
            for changes in outcome.changes:
                self._as(pending.initiator if pending else None,
                         functools.partial(lib.notify, changes))
        if pending is None:
            return
        self._show()
        if outcome.error:
            pending.failed(outcome.error)
        else:
            self._succeeded(pending, outcome.result)
        if pending.undo:
            self.recording_changed.emit()

    def _succeeded(self, pending: _Pending, result: Any) -> None:
        if pending.undo:
            self.record(result)
        pending.done(result)
