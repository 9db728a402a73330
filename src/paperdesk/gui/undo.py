"""Edits on the undo stack: each wraps the core's row-image ``Undo``."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand, QUndoStack

from paperdesk.core.api import Undo

# How the window writes an undo's images back: ``restore(command, before)`` with
# ``before`` True for an undo, False for a redo (the operation runner's ``restore``).
Restore = Callable[["EditCommand", bool], None]


class EditCommand(QUndoCommand):
    """An edit already made in the library: undo writes the before images back.

    Push it after the edit has happened; the first ``redo`` (which Qt calls on
    push) is skipped. The views hear of every undo and redo through the library's
    listeners. ``restore`` writes the images back, on this thread or, for a large
    edit, on the worker; a step that fails leaves the stack (``drop``).
    """

    def __init__(self, undo: Undo, restore: Restore) -> None:
        # The menu adds "Undo"/"Redo" itself: "Undo import of x", not "Undo Undo import of x".
        label = undo.label
        super().__init__(label[5:] if label.startswith("Undo ") else label)
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
        """The step that just failed (``undone``: an undo) leaves the stack, and the
        stack's index is put back as if it had not been asked (nothing was written).
        Called at once on this thread; for a step on the worker, only while the
        stack is still just past it."""
        self._skip = self._drop = True
        if undone:  # the undo moved the index below this command: a redo moves it back
            stack.redo()
        else:
            stack.undo()
