"""The reader's comment box: a highlight's comment written with the keyboard alone.

Qt's multi-line input dialog takes Tab and Enter as text (a tab, a new line), so a
person who pressed Ctrl+M, typed and pressed Enter stayed in the box, with no key
to save. Here the text wraps at the box's width, Enter is a new line as in any
note, **Ctrl+Enter** saves (the box says so), Tab goes on to the buttons and Esc
cancels. The box opens beside the passage it comments (below it, else above, else to
its side), never over it, and within the screen.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

SAVE_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)  # with Ctrl
GAP = 8  # pixels between the passage and the box


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


def beside(passage: QRect, size: QSize, room: QRect, frame: QSize | None = None) -> QPoint:
    """Where a box of ``size`` (its frame adding ``frame``: the title bar's height, the
    borders' width) goes beside ``passage``, all in screen pixels, within ``room`` (the
    screen's available part): below the passage, else above it, else right or left of
    it, lined up with its start; where none has the room, the side with the most, kept
    on the screen (the passage then partly under the box)."""
    frame = frame or QSize(0, 0)
    w, h = size.width() + frame.width(), size.height() + frame.height()
    x = min(max(passage.left(), room.left()), room.right() + 1 - w)
    y = min(max(passage.top(), room.top()), room.bottom() + 1 - h)
    sides = [  # (room on that side, the frame's top left there)
        (room.bottom() - passage.bottom() - GAP - h, QPoint(x, passage.bottom() + 1 + GAP)),
        (passage.top() - GAP - h - room.top(), QPoint(x, passage.top() - GAP - h)),
        (room.right() - passage.right() - GAP - w, QPoint(passage.right() + 1 + GAP, y)),
        (passage.left() - GAP - w - room.left(), QPoint(passage.left() - GAP - w, y)),
    ]
    fits = [at for spare, at in sides if spare >= 0]
    at = fits[0] if fits else max(sides, key=lambda side: side[0])[1]
    return QPoint(min(max(at.x(), room.left()), room.right() + 1 - w),
                  min(max(at.y(), room.top()), room.bottom() + 1 - h))


def _place(dialog: QDialog, passage: QRect) -> None:
    parent = dialog.parentWidget()
    screen = (parent or dialog).screen()
    # The frame is known once shown: guessed from the parent's (the same window manager).
    frame = QSize(0, 0)
    if parent is not None and parent.isVisible():
        outer, inner = parent.window().frameGeometry(), parent.window().geometry()
        frame = QSize(outer.width() - inner.width(), outer.height() - inner.height())
    room = screen.availableGeometry()
    dialog.resize(min(dialog.width(), room.width() - frame.width()),  # a small screen's
                  min(dialog.height(), room.height() - frame.height()))  # (scale 2) room
    dialog.move(beside(passage, dialog.size(), room, frame))


def ask_comment(parent: QWidget, quoted: str, comment: str,
                passage: QRect | None = None) -> str | None:
    """The comment written (None: cancelled); the box opens beside ``passage`` (the
    passage's rectangle on the screen), when given."""
    dialog = CommentDialog(quoted, comment, parent)
    if passage is not None and not passage.isEmpty():
        _place(dialog, passage)
    try:
        return dialog.text() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()
