"""The search box: the CLI's query language, debounced, with its error shown in place."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from paperdesk.gui.icons import icon

DELAY_MS = 150


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
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        self.save = QToolButton()
        self.save.setText("Save as smart list")
        self.save.setIcon(icon("smart-list"))
        self.save.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.save.setEnabled(False)
        self.save.clicked.connect(lambda: self.save_requested.emit(self.text()))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.save)
        layout.addWidget(self.message)
        self.timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self.timer.timeout.connect(self.fire)
        self.edit.textChanged.connect(lambda _: self.timer.start())
        self.edit.returnPressed.connect(self.fire)

    def text(self) -> str:
        return self.edit.text().strip()

    def fire(self) -> None:
        self.timer.stop()
        self.save.setEnabled(bool(self.text()))
        self.search.emit(self.text())

    def show_error(self, message: str | None) -> None:
        """Show why the query failed (None clears it); the table keeps its last results."""
        if message:
            self.message.setText(f"⚠ {message}")
            font = self.message.font()
            font.setBold(True)
            self.message.setFont(font)
        self.message.setVisible(bool(message))
        self.save.setEnabled(bool(self.text()) and not message)
