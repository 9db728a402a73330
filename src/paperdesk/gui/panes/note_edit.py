"""The note box: its own undo, one step per pause in typing.

Qt's text undo merges all consecutive typing into one step, so Ctrl+Z after
an autosave took the note back to empty (and the autosave then deleted it).
Here each pause that saves the note (and each save) is a step: Ctrl+Z goes
back to the text of the previous step, never past the text the note had when
it was shown; Ctrl+Shift+Z (or Ctrl+Y) goes forward again. Tab moves focus
on (Shift+Tab back) instead of typing a tab character.
"""

from __future__ import annotations

from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit


class NoteEdit(QPlainTextEdit):
    def __init__(self) -> None:
        super().__init__()
        self.setUndoRedoEnabled(False)
        self.setTabChangesFocus(True)  # Tab moves on; a note never holds tab characters
        self.history: list[str] = [""]
        self.at = 0

    def reset(self, text: str) -> None:
        """Show ``text`` as the note's starting point (no undo before it)."""
        if self.toPlainText() != text:
            self.setPlainText(text)
        self.history, self.at = [text], 0

    def checkpoint(self) -> None:
        """The current text becomes an undo step (called at each pause and save)."""
        text = self.toPlainText()
        if text != self.history[self.at]:
            del self.history[self.at + 1:]
            self.history.append(text)
            self.at += 1

    def undo_typing(self) -> None:
        self.checkpoint()
        if self.at > 0:
            self.at -= 1
            self._show(self.history[self.at])

    def redo_typing(self) -> None:
        if self.at < len(self.history) - 1:
            self.at += 1
            self._show(self.history[self.at])

    def _show(self, text: str) -> None:
        self.setPlainText(text)  # textChanged: the window's autosave saves it
        self.moveCursor(QTextCursor.MoveOperation.End)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.undo_typing()
        elif event.matches(QKeySequence.StandardKey.Redo):
            self.redo_typing()
        else:
            super().keyPressEvent(event)
