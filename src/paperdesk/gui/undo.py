"""Edits on the undo stack: each wraps the core's row-image ``Undo``."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from paperdesk.core.api import Changes, Library, PaperDeskError, Undo


class EditCommand(QUndoCommand):
    """An edit already made in the library: undo writes the before images back.

    Push it after the edit has happened; the first ``redo`` (which Qt calls on
    push) is skipped. The views hear of every undo and redo through the
    library's listeners; ``fail`` gets the message if one cannot be done, ``tell``
    what one did beyond putting rows back (a paper given a fresh citation key, one
    moved to the trash instead of deleted).
    """

    def __init__(self, lib: Library, undo: Undo, fail: Callable[[str], None],
                 tell: Callable[[str], None] | None = None) -> None:
        # The menu adds "Undo"/"Redo" itself: "Undo import of x", not "Undo Undo import of x".
        label = undo.label
        super().__init__(label[5:] if label.startswith("Undo ") else label)
        self.lib = lib
        self.undo_data = undo
        self.fail = fail
        self.tell = tell
        self._done = True

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self._run(self.lib.redo)

    def undo(self) -> None:
        self._run(self.lib.undo)

    def _run(self, step: Callable[[Undo], Changes]) -> None:
        try:
            changes = step(self.undo_data)
        except PaperDeskError as exc:
            self.setObsolete(True)
            self.fail(str(exc))
            return
        said = getattr(changes.result, "said", None)  # what it did beyond the rows
        if self.tell is not None and said is not None and (line := said()):
            self.tell(line)
