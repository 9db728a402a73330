"""The one operation runner: every write and every job of the window goes through it.

``edit(fn, *args)`` runs a core edit on the UI thread (a few milliseconds) and
puts its ``Undo`` on the undo stack. Undo and redo write the edit's rows back on the UI
thread too, or on the worker when the edit touched LARGE rows or more (an import's
undo: seconds), and behind any step still running there, so steps land in the order
asked. ``run(label, job, done)`` sends a job to the one background worker (where it
opens its own connection), shows its progress in the status bar's panel with Cancel,
and calls ``done`` with the result or ``failed`` with the one-line error, on the UI thread; with
``undo=True`` the job's ``Changes`` go onto the undo stack first. Small jobs
may run inline (``inline=True``) when nothing needs a thread.

Whatever writes (an edit, a job, an undo, a write by anyone on the library),
the library's change feed tells the runner, which emits ``changed(changes,
initiator)`` once per committed write: ``initiator`` is the object that asked
for the operation (``None`` when nobody said), so a view can skip what it did
itself. A job's writes are committed on the worker's connection; they are
announced on the UI thread before the job's ``done`` is called.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QObject, Signal

from paperdesk.core.api import Changes, PaperDeskError, Undo, no_progress
from paperdesk.gui.jobs.worker import Job, Outcome
from paperdesk.gui.undo import EditCommand

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

LARGE = 2000  # papers (rows, for an undo) from which a write runs on the worker, not inline


@dataclass
class _Pending:
    label: str
    done: Callable[[Any], None]
    failed: Callable[[str], None]
    loud: bool
    undo: bool
    initiator: object | None


class Operations(QObject):
    """Runs the window's write operations and jobs; emits ``changed`` for each write."""

    changed = Signal(object, object)  # Changes, initiator (or None)

    def __init__(self, context: Context) -> None:
        super().__init__(context)
        self.context = context
        self._pending: dict[int, _Pending] = {}
        self._initiator: object | None = None
        self._restoring = 0  # undo and redo steps waiting on the worker
        self.closed = False  # once the window closes (and stops its worker), no new jobs
        context.worker.progress.connect(self._progress)
        context.worker.finished_job.connect(self._finished)

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
        the core refused it."""
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
            self.context.undo_stack.push(EditCommand(changes.undo, self.restore))

    # -- undo and redo -------------------------------------------------------------------

    def restore(self, command: EditCommand, undone: bool) -> None:
        """The undo stack's step: ``command``'s rows written back (``undone``: as they
        were before the edit, else as after it). A step that cannot be done is said and
        leaves the stack; one that did more than put rows back (a fresh citation key, a
        paper moved to the trash) says so in the status bar."""
        undo = command.undo_data
        if self._restoring or _rows(undo) >= LARGE:
            self._restore_later(command, undo, undone)
            return
        lib = self.context.lib
        try:
            changes = (lib.undo if undone else lib.redo)(undo)
        except PaperDeskError as exc:
            command.setObsolete(True)  # the stack deletes it, its index where it was
            self.context.notify(str(exc))
            return
        self._tell(changes)

    def _restore_later(self, command: EditCommand, undo: Undo, undone: bool) -> None:
        stack = self.context.undo_stack

        def finished(changes: Changes | None, error: str | None = None) -> None:
            self._restoring -= 1
            if error is None:
                self._tell(changes)
                return
            self.context.notify(error)
            # Nothing was written: the stack moves back, unless it has moved on since.
            if shiboken6.isValid(command) and stack.command(
                    stack.index() if undone else stack.index() - 1) is command:
                command.drop(stack, undone)

        verb = "Undoing" if undone else "Redoing"
        job_id = self.run(command.text(), lambda lib, _p, _c: (
            lib.undo if undone else lib.redo)(undo), finished,
            lambda error: finished(None, error), text=f"{verb} “{undo.label}”…",
            cancellable=False)
        if job_id is not None:
            self._restoring += 1

    def _tell(self, changes: Changes | None) -> None:
        said = getattr(getattr(changes, "result", None), "said", None)
        if said is not None and (line := said()):
            self.context.show_message(line, 15000)

    # -- jobs ------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def run(self, label: str, job: Job, done: Callable[[Any], None] | None = None,
            failed: Callable[[str], None] | None = None, *, inline: bool = False,
            quiet: bool = False, undo: bool = False, text: str | None = None,
            initiator: object | None = None, cancellable: bool = True) -> int | None:
        """Run ``job(lib, progress, cancel)``; returns the worker's job id (None inline).

        ``quiet`` jobs (scans in the background) show no progress panel; ``text`` is
        the panel's first line (``label…`` by default); ``undo`` puts the ``Changes``
        the job returns on the undo stack before ``done`` sees them; a job that is not
        ``cancellable`` (one transaction that does not look at the flag) shows no Cancel.
        """
        pending = _Pending(label, done or (lambda _r: None), failed or self.context.notify,
                           not quiet, undo, initiator)
        if inline:
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
        job_id = self.context.worker.submit(label, self.context.lib.path, job)
        self._pending[job_id] = pending
        if pending.loud:
            self.context.progress.start(text or f"{label}…", cancellable)
        return job_id

    def cancel(self) -> None:
        """Ask the running job to stop; it rolls back what it had not finished."""
        self.context.progress.cancelling()
        self.context.worker.cancel()

    def close(self) -> None:
        """The window is closing: no new jobs; the running one is asked to stop."""
        self.closed = True
        if self.busy:
            self.cancel()

    def _progress(self, job_id: int, fraction: float, message: str) -> None:
        pending = self._pending.get(job_id)
        if pending is not None and pending.loud:
            self.context.progress.step(fraction, message)

    def _finished(self, outcome: Outcome) -> None:
        pending = self._pending.pop(outcome.job_id, None)
        lib = self.context.lib
        if outcome.library == lib.path:  # the job's writes reach this library's feed
            for changes in outcome.changes:
                self._as(pending.initiator if pending else None, lambda c=changes: lib.notify(c))
        if pending is None:
            return
        if pending.loud and not any(p.loud for p in self._pending.values()):
            self.context.progress.hide()
        if outcome.error:
            pending.failed(outcome.error)
        else:
            self._succeeded(pending, outcome.result)

    def _succeeded(self, pending: _Pending, result: Any) -> None:
        if pending.undo:
            self.record(result)
        pending.done(result)


def _rows(undo: Undo) -> int:
    """How many rows an undo writes back: its size on the write."""
    return sum(max(len(i.before), len(i.after)) for i in undo.images)
