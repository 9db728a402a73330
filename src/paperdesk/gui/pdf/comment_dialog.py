"""The reader's comment box: a highlight's comment written with the keyboard alone.

Qt's multi-line input dialog takes Tab and Enter as text (a tab, a new line), so a
person who pressed Ctrl+M, typed and pressed Enter stayed in the box, with no key
to save. Here the text wraps at the box's width, Enter is a new line as in any
note, **Ctrl+Enter** saves (the box says so), Tab goes on to the buttons and Esc
cancels.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

SAVE_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)  # with Ctrl


class CommentDialog(QDialog):
    def __init__(self, quoted: str, comment: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Comment")
        about = QLabel(f"On “{quoted}”:")
        about.setWordWrap(True)
        about.setTextFormat(Qt.TextFormat.PlainText)
        self.edit = QPlainTextEdit(comment)
        self.edit.setTabChangesFocus(True)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.edit.moveCursor(self.edit.textCursor().MoveOperation.End)
        hint = QLabel("Ctrl+Enter saves; Esc cancels")
        hint.setEnabled(False)  # said quietly
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.edit.installEventFilter(self)  # Ctrl+Enter, read where it is typed
        layout = QVBoxLayout(self)
        for widget in (about, self.edit, hint, buttons):
            layout.addWidget(widget)
        self.resize(460, 240)
        self.edit.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.edit and event.type() == QEvent.Type.KeyPress
                and event.key() in SAVE_KEYS  # type: ignore[attr-defined]
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):  # type: ignore[attr-defined]
            self.accept()
            return True
        return super().eventFilter(watched, event)

    def text(self) -> str:
        return self.edit.toPlainText()


def ask_comment(parent: QWidget, quoted: str, comment: str) -> str | None:
    """The comment written (None: cancelled)."""
    dialog = CommentDialog(quoted, comment, parent)
    try:
        return dialog.text() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()
