"""The search box: the CLI's query language, debounced, with its error shown in place."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QPainter
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QToolButton, QWidget

from paperdesk.gui.common.icons import icon

DELAY_MS = 150
# Moves a line edit also takes from Emacs on X11 (Ctrl+E to the line's end): there they
# would hide the window's keys of the same letter (Ctrl+E, Export) from the search box.
EMACS_MOVES = (QKeySequence.StandardKey.MoveToEndOfLine,
               QKeySequence.StandardKey.MoveToStartOfLine,
               QKeySequence.StandardKey.DeleteEndOfLine)


class ElidedLabel(QLabel):
    """A one-line label that takes only the room it is given and paints its text
    elided to fit (the whole text stays its text and its tooltip), so it never
    squeezes its neighbours."""

    def __init__(self) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def set_full_text(self, text: str) -> None:
        self.setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                              self.width())
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignVCenter), shown)


class SearchBar(QWidget):
    search = Signal(str)          # the query, once typing pauses
    save_requested = Signal(str)  # the query to keep as a smart list

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText('Search: words, "phrases", tag:x, status:read, '
                                     'rating>=4, year:2024, OR  (Ctrl+F)')
        self.edit.setClearButtonEnabled(True)
        self.edit.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.edit.setMinimumWidth(360)
        self.message = ElidedLabel()
        self.message.hide()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.save = QToolButton()
        self.save.setText("Save as smart list")
        self.save.setIcon(icon("smart-list"))
        self.save.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.save.setEnabled(False)
        self.save.clicked.connect(lambda: self.save_requested.emit(self.text()))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 3)
        layout.addWidget(self.save)
        # The message's room is kept whether it shows or not, so the box never jumps.
        room = QWidget()
        room.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        inner = QHBoxLayout(room)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.message)
        layout.addWidget(room, 2)
        self.timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self.timer.timeout.connect(self.fire)
        self.edit.textChanged.connect(lambda _: self.timer.start())
        self.edit.returnPressed.connect(self.fire)
        self.edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A Ctrl+letter the box would take as an Emacs move goes to the window's keys
        first (Ctrl+E exports, in the box too); a key the window has none for still
        moves in the box."""
        if (watched is self.edit and event.type() == QEvent.Type.ShortcutOverride
                and event.modifiers() == Qt.KeyboardModifier.ControlModifier  # type: ignore[attr-defined]
                and Qt.Key.Key_A <= event.key() <= Qt.Key.Key_Z  # type: ignore[attr-defined]
                and any(event.matches(k) for k in EMACS_MOVES)):  # type: ignore[attr-defined]
            event.ignore()
            return True
        return super().eventFilter(watched, event)

    def text(self) -> str:
        return self.edit.text().strip()

    def fire(self) -> None:
        self.timer.stop()
        self.save.setEnabled(bool(self.text()))
        self.search.emit(self.text())

    def show_error(self, message: str | None) -> None:
        """Show why the query failed (None clears it); the table keeps its last results."""
        if message:
            self.message.set_full_text(f"⚠ {message}")
            font = self.message.font()
            font.setBold(True)
            self.message.setFont(font)
        self.message.setVisible(bool(message))
        self.save.setEnabled(bool(self.text()) and not message)
