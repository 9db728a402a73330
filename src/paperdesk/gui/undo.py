"""Edits on the undo stack, each wrapping the core's row-image ``Undo``; and ``History``,
which writes a step's rows back.

A step writes back on the UI thread, or, when the edit touched ``Operations.large``
rows or more (an import's undo: seconds), on a worker thread of its own, so the window
stays free meanwhile. While such a step is written, or while a job whose ``Changes``
go on the stack runs, Undo and Redo wait (their actions are off), and an edit asked
meanwhile lands after the step: the stack and the library never disagree on order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QUndoCommand, QUndoStack

from paperdesk.core.api import Changes, PaperDeskError, Undo

if TYPE_CHECKING:
    from paperdesk.gui.context import Context
    from paperdesk.gui.operations import Operations

# How the window writes an undo's images back: ``restore(command, before)`` with
# ``before`` True for an undo, False for a redo (``History.restore``).
Restore = Callable[["EditCommand", bool], None]


class EditCommand(QUndoCommand):
    """An edit already made in the library: undo writes the before images back.

    Push it after the edit has happened; the first ``redo`` (which Qt calls on
    push) is skipped. The views hear of every undo and redo through the library's
    listeners. ``restore`` writes the images back; a step that fails leaves the
    stack (``drop``).
    """

    def __init__(self, undo: Undo, restore: Restore) -> None:
        super().__init__(menu_text(undo.label))
        self.undo_data = undo
        self.restore = restore
        self._skip = True  # Qt's call on push: the edit is already made
        self._drop = False

    def redo(self) -> None:
        if not self._pass():
            self.restore(self, False)

    def undo(self) -> None:
        if not self._pass():
            self.restore(self, True)

    def _pass(self) -> bool:
        """True when this call is not to write anything: the push, or a drop."""
        if not self._skip:
            return False
        self._skip = False
        if self._drop:
            self.setObsolete(True)  # the stack deletes it, its index where it was
        return True

    def drop(self, stack: QUndoStack, undone: bool) -> None:
        """The step (``undone``: an undo) failed after the stack moved past it, nothing
        written: it leaves the stack, whose index goes back to where it was."""
        self._skip = self._drop = True
        if undone:  # the undo moved the index below this command: a redo moves it back
            stack.redo()
        else:
            stack.undo()


def menu_text(label: str) -> str:
    """An edit's name after the menu's own "Undo"/"Redo". An edit that takes back
    another (the core's "Undo import of x", "Undo merge 5 (...)") is named by what it
    did: "Undo removal of the import of x" brings the import back; "Undo import of x"
    would say the opposite, and "Undo Undo import of x" stutters."""
    if label.startswith("Undo import"):
        return "removal of the import" + label[len("Undo import"):]
    if label.startswith("Undo merge "):
        return "unmerge of" + label[len("Undo"):]
    return f"“{label}”" if label.startswith("Undo ") else label


class History(QObject):
    """Writes the undo stack's steps back, and says when Undo and Redo must wait."""

    busy_changed = Signal()

    def __init__(self, context: Context, ops: Operations) -> None:
        super().__init__(context)
        self.context, self.ops = context, ops
        self._writing: threading.Event | None = None  # set once the step's thread is done
        ops.recording_changed.connect(self.busy_changed)
        context.library_changed.connect(self._forget)

    @property
    def busy(self) -> bool:
        """A step is being written on its thread, or a job that goes on the stack runs."""
        return self._writing is not None or self.ops.recording

    def _forget(self, _lib: object) -> None:
        """Another library is open: a step still written on the one before is no longer
        this window's (its stack is cleared), and edits here need not wait for it."""
        self._writing = None
        self.busy_changed.emit()

    def wait(self) -> None:
        """Until the step being written on its thread is in (an edit lands after it)."""
        if self._writing is not None:
            self._writing.wait()

    def gate(self, undo: QAction, redo: QAction) -> None:
        """Keep the stack's Undo and Redo actions off while ``busy``."""
        stack = self.context.undo_stack

        def apply(*_args: object) -> None:
            if not (shiboken6.isValid(stack) and shiboken6.isValid(undo)
                    and shiboken6.isValid(redo)):
                return  # the window is going
            undo.setEnabled(stack.canUndo() and not self.busy)
            redo.setEnabled(stack.canRedo() and not self.busy)

        for signal in (stack.canUndoChanged, stack.canRedoChanged, self.busy_changed):
            signal.connect(apply)  # after the stack's own connection: the last word

    def restore(self, command: EditCommand, undone: bool) -> None:
        """``command``'s rows written back (``undone``: as they were before the edit,
        else as after it). A step that cannot be done is said and leaves the stack; one
        that did more than put rows back (a fresh citation key, a paper moved to the
        trash) says so in the status bar."""
        undo = command.undo_data
        if sum(max(len(i.before), len(i.after)) for i in undo.images) >= self.ops.large:
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
        worker = self.context.history_worker
        written: threading.Event | None = None  # the worker's "done with it", once sent

        def job(lib, _progress, _cancel) -> Changes:
            return (lib.undo if undone else lib.redo)(undo)

        def finished(changes: Changes | None, error: str | None = None) -> None:
            ours = self._writing is written  # else another library is open since
            if ours:
                self._writing = None
                self.busy_changed.emit()
            if error is None:
                if ours:
                    self._tell(changes)
                return
            self.context.notify(error)
            # Nothing was written, and nothing moved the stack since (Undo and Redo were
            # off; an edit waited): the stack goes back, unless it was cleared meanwhile.
            if shiboken6.isValid(command) and stack.command(
                    stack.index() if undone else stack.index() - 1) is command:
                command.drop(stack, undone)

        verb = "Undoing" if undone else "Redoing"
        job_id = self.ops.run(command.text(), job, finished, lambda e: finished(None, e),
                              text=f"{verb} {command.text()}…", cancellable=False,
                              worker=worker)
        # Set once the worker is done with it, written or not (its library may not open).
        self._writing = written = worker.ended(job_id) if job_id is not None else None
        self.busy_changed.emit()

    def _tell(self, changes: Changes | None) -> None:
        said = getattr(getattr(changes, "result", None), "said", None)
        if said is not None and (line := said()):
            self.context.show_message(line, 15000)
